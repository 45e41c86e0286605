"""Numba kernels of the k-d tree: build, k-nearest query, radius query.

Symbols (as in :mod:`scratchlearn.neighbors._kd_tree`)::

    X      (n, d)   training points, already permuted into leaf order (rows of one node are
                    contiguous: node t owns rows start[t] .. end[t]-1)
    perm   (n,)     perm[i] = original index of permuted row i
    lo, hi (T, d)   bounding box of each of the T nodes
    first  (T,)     smallest original index among node t's rows (for ties: see query_knn)
    left   (T,)     first child of node t (the second is left[t] + 1); -1 for a leaf
    q      (d,)     one query point
    code            the reduced distance ρ(u, v):  0 → max_j |u_j − v_j|       (Chebyshev)
                                                   1 → Σ_j |u_j − v_j|         (Manhattan)
                                                   2 → Σ_j (u_j − v_j)²        (Euclidean)
                                                   3 → Σ_j |u_j − v_j|^p       (Minkowski)

Every comparison is made on the reduced distance ρ (ρ = dist^p, or dist for Chebyshev); the root
is taken once, outside, on the answers. The box bounds are computed with the same operations
as the point distances, and floating-point subtraction, powers and sums are monotone, so the
box lower bound never exceeds ρ of any point inside and the upper bound is never below it: the
pruning decides nothing that the per-point test would decide differently.

The kernels release the GIL (``nogil=True``), so a caller may run blocks of queries on threads.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def _term(delta, code, p):
    """The contribution of one coordinate difference to ρ: |δ|, δ² or |δ|^p."""
    a = abs(delta)
    if code == 2:
        return a * a
    if code == 3:
        return a**p
    return a


@numba.njit(cache=True, nogil=True)
def _combine(s, t, code):
    """ρ accumulates by max for Chebyshev and by sum otherwise."""
    if code == 0:
        return t if t > s else s
    return s + t


@numba.njit(cache=True, nogil=True)
def _rho(A, i, B, j, code, p):
    """ρ(A[i], B[j]), summed over the coordinates in order j = 0 .. d−1."""
    s = 0.0
    for c in range(A.shape[1]):
        s = _combine(s, _term(A[i, c] - B[j, c], code, p), code)
    return s


@numba.njit(cache=True, nogil=True)
def _box_min_rho(Q, i, lo, hi, t, code, p):
    """min over the box [lo[t], hi[t]] of ρ(Q[i], ·): per coordinate max(lo − q, q − hi, 0)."""
    s = 0.0
    for c in range(Q.shape[1]):
        below = lo[t, c] - Q[i, c]
        above = Q[i, c] - hi[t, c]
        delta = below if below > above else above
        if delta > 0.0:
            s = _combine(s, _term(delta, code, p), code)
    return s


@numba.njit(cache=True, nogil=True)
def _box_max_rho(Q, i, lo, hi, t, code, p):
    """max over the box of ρ(Q[i], ·): per coordinate max(|q − lo|, |q − hi|)."""
    s = 0.0
    for c in range(Q.shape[1]):
        a = abs(Q[i, c] - lo[t, c])
        b = abs(Q[i, c] - hi[t, c])
        s = _combine(s, _term(a if a > b else b, code, p), code)
    return s


# ----------------------------------------------------------------------------------------------
# Build


def count_nodes(n, leaf_size):
    """Nodes of the tree over n rows: a node of m > leaf_size rows has children of ⌊m/2⌋ and
    ⌈m/2⌉ rows. The sizes on one level take at most two values, so count level by level."""
    level, total = {n: 1}, 0
    while level:
        total += sum(level.values())
        below = {}
        for m, how_many in level.items():
            if m > leaf_size:
                for child in (m // 2, m - m // 2):
                    below[child] = below.get(child, 0) + how_many
        level = below
    return total


@numba.njit(cache=True, nogil=True)
def _select(X, perm, c, s, e, m):
    """Quickselect (Hoare partition, median-of-three pivot) on perm[s:e] by X[perm, c]: after it,
    X[perm[m], c] is the value of rank m − s, rows before m are ≤ it and rows after are ≥."""
    while e - s > 1:
        a, b, z = X[perm[s], c], X[perm[(s + e) // 2], c], X[perm[e - 1], c]
        pivot = max(min(a, b), min(max(a, b), z))  # the median of the three
        i, j = s, e - 1
        while i <= j:
            while X[perm[i], c] < pivot:
                i += 1
            while X[perm[j], c] > pivot:
                j -= 1
            if i <= j:
                perm[i], perm[j] = perm[j], perm[i]
                i += 1
                j -= 1
        # now perm[s:j+1] ≤ pivot ≤ perm[i:e], and rows j+1 .. i−1 equal the pivot
        if m <= j:
            e = j + 1
        elif m >= i:
            s = i
        else:
            return


@numba.njit(cache=True, nogil=True)
def build(X, leaf_size, n_nodes):
    """Median split on the coordinate of largest spread, leaves of at most ``leaf_size`` rows.

    A node of rows perm[s:e] gets the bounding box of its points; when e − s > leaf_size its
    rows are partitioned at m = s + ⌊(e − s)/2⌋ along c = argmax_c (hi_c − lo_c) (the first
    such c), so that the left child holds the ⌊(e − s)/2⌋ smallest values of coordinate c.
    Returns (perm, start, end, left, lo, hi, first).
    """
    n, d = X.shape
    perm = np.arange(n)
    start = np.empty(n_nodes, np.intp)
    end = np.empty(n_nodes, np.intp)
    left = np.empty(n_nodes, np.intp)
    lo = np.empty((n_nodes, d))
    hi = np.empty((n_nodes, d))
    first = np.empty(n_nodes, np.intp)
    start[0], end[0] = 0, n
    n_made = 1
    for t in range(n_nodes):  # children are always made after their parent
        s, e = start[t], end[t]
        for c in range(d):
            lo[t, c] = hi[t, c] = X[perm[s], c]
        first[t] = perm[s]
        for r in range(s + 1, e):
            first[t] = min(first[t], perm[r])
            for c in range(d):
                v = X[perm[r], c]
                if v < lo[t, c]:
                    lo[t, c] = v
                elif v > hi[t, c]:
                    hi[t, c] = v
        left[t] = -1
        if e - s <= leaf_size:
            continue
        best = 0
        for c in range(1, d):
            if hi[t, c] - lo[t, c] > hi[t, best] - lo[t, best]:
                best = c
        m = s + (e - s) // 2
        _select(X, perm, best, s, e, m)
        left[t] = n_made
        start[n_made], end[n_made] = s, m
        start[n_made + 1], end[n_made + 1] = m, e
        n_made += 2
    return perm, start, end, left, lo, hi, first


# ----------------------------------------------------------------------------------------------
# k nearest neighbours


@numba.njit(cache=True, nogil=True)
def _worse(d1, j1, d2, j2):
    """(d1, j1) > (d2, j2) lexicographically: farther, or as far with a larger index."""
    return d1 > d2 or (d1 == d2 and j1 > j2)


@numba.njit(cache=True, nogil=True)
def _sift_down(hd, hj, pos, size):
    """Restore the max-heap below ``pos`` in hd[:size], hj[:size] (ordered by (ρ, index))."""
    d, j = hd[pos], hj[pos]
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and _worse(hd[child + 1], hj[child + 1], hd[child], hj[child]):
            child += 1
        if not _worse(hd[child], hj[child], d, j):
            break
        hd[pos], hj[pos] = hd[child], hj[child]
        pos = child
    hd[pos], hj[pos] = d, j


@numba.njit(cache=True, nogil=True)
def _heap_to_sorted(hd, hj):
    """Heapsort of a max-heap into ascending (ρ, index) order: the root goes to the end."""
    for size in range(hd.shape[0] - 1, 0, -1):
        hd[0], hd[size] = hd[size], hd[0]
        hj[0], hj[size] = hj[size], hj[0]
        _sift_down(hd, hj, 0, size)


@numba.njit(cache=True, nogil=True)
def _scan_leaf(X, perm, Q, i, s, e, hd, hj, code, p):
    """Offer rows s..e−1 to the heap of query i: a row enters when (ρ, index) is below the root."""
    k = hd.shape[0]
    for r in range(s, e):
        rho = _rho(Q, i, X, r, code, p)
        if rho < hd[0] or (rho == hd[0] and perm[r] < hj[0]):
            hd[0], hj[0] = rho, perm[r]
            _sift_down(hd, hj, 0, k)


@numba.njit(cache=True, nogil=True)
def query_knn(X, perm, start, end, left, lo, hi, first, Q, k, code, p, sort_results):
    """The k smallest (ρ, index) pairs of each query, depth first, nearer child first.

    Per query a max-heap of k pairs (its root is the k-th best so far) starts full of (∞, n).
    A node is skipped when its box lower bound exceeds the root's ρ, or equals it and the node
    holds no index below the root's (a row at equal ρ enters only with a smaller index; without
    this rule a query among many identical points would visit every node). Returns ρ (m, k)
    and indices (m, k), ascending when ``sort_results`` (heap order otherwise).
    """
    m, n = Q.shape[0], X.shape[0]
    rho = np.empty((m, k))
    ind = np.empty((m, k), np.intp)
    stack_t = np.empty(start.shape[0] + 1, np.intp)
    stack_b = np.empty(start.shape[0] + 1)
    for i in range(m):
        hd, hj = rho[i], ind[i]
        for a in range(k):
            hd[a], hj[a] = np.inf, n
        top = 0
        stack_t[0], stack_b[0] = 0, _box_min_rho(Q, i, lo, hi, 0, code, p)
        while top >= 0:
            t, bound = stack_t[top], stack_b[top]
            top -= 1
            if bound > hd[0] or (bound == hd[0] and first[t] >= hj[0]):
                continue
            if left[t] < 0:
                _scan_leaf(X, perm, Q, i, start[t], end[t], hd, hj, code, p)
                continue
            a, b = left[t], left[t] + 1
            bound_a = _box_min_rho(Q, i, lo, hi, a, code, p)
            bound_b = _box_min_rho(Q, i, lo, hi, b, code, p)
            # the nearer child first (pushed last); at equal bounds, the one holding the smaller
            # index, so that ties settle early and the rule above prunes
            if bound_b < bound_a or (bound_b == bound_a and first[b] < first[a]):
                a, b, bound_a, bound_b = b, a, bound_b, bound_a
            stack_t[top + 1], stack_b[top + 1] = b, bound_b
            stack_t[top + 2], stack_b[top + 2] = a, bound_a
            top += 2
        if sort_results:
            _heap_to_sorted(hd, hj)
    return rho, ind


# ----------------------------------------------------------------------------------------------
# Radius


@numba.njit(cache=True, nogil=True)
def query_radius(X, perm, start, end, left, lo, hi, Q, r_rho, code, p, offset, out_j, out_rho):
    """Every training row with ρ(q, x) ≤ r_rho[i], for each query i; returns the counts (m,).

    Run twice: first with ``offset`` empty, to count; then with offset[i] = where query i's rows
    go in ``out_j`` (and their ρ in ``out_rho``, unless it is empty). A node whose box lower
    bound exceeds r_rho is skipped; one whose upper bound is ≤ r_rho is taken whole, without
    per-row tests (its ρ are still computed when they are wanted).
    """
    m = Q.shape[0]
    fill, want_rho = offset.shape[0] > 0, out_rho.shape[0] > 0
    counts = np.zeros(m, np.intp)
    stack = np.empty(start.shape[0] + 1, np.intp)
    for i in range(m):
        top, stack[0], c = 0, 0, 0
        while top >= 0:
            t = stack[top]
            top -= 1
            if _box_min_rho(Q, i, lo, hi, t, code, p) > r_rho[i]:
                continue
            whole = _box_max_rho(Q, i, lo, hi, t, code, p) <= r_rho[i]
            if not whole and left[t] >= 0:
                stack[top + 1], stack[top + 2] = left[t] + 1, left[t]
                top += 2
                continue
            if whole and not want_rho:
                if fill:
                    for r in range(start[t], end[t]):
                        out_j[offset[i] + c + r - start[t]] = perm[r]
                c += end[t] - start[t]
                continue
            for r in range(start[t], end[t]):
                rho = _rho(Q, i, X, r, code, p)
                if whole or rho <= r_rho[i]:
                    if fill:
                        out_j[offset[i] + c] = perm[r]
                        if want_rho:
                            out_rho[offset[i] + c] = rho
                    c += 1
        counts[i] = c
    return counts


@numba.njit(cache=True, nogil=True)
def sort_segments(offset, out_j, out_rho):
    """Order each query's rows out[offset[i] : offset[i+1]] by (ρ, index), by heapsort."""
    for i in range(offset.shape[0] - 1):
        hd, hj = out_rho[offset[i] : offset[i + 1]], out_j[offset[i] : offset[i + 1]]
        for pos in range(hd.shape[0] // 2 - 1, -1, -1):
            _sift_down(hd, hj, pos, hd.shape[0])
        _heap_to_sorted(hd, hj)
