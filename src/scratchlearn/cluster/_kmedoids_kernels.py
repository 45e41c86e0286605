"""Compiled loops of k-medoids over an (n, n) distance matrix, read by rows.

Symbols: ``DT[j, o] = d(x_o, x_j)``, the transpose of the distance matrix ``D`` (equal to it for
a symmetric metric), so that the distances of all points to one point ``j`` are the contiguous
row ``DT[j]``: every loop below streams rows (a column of a C-ordered n × n matrix would cost
a cache miss per entry); ``M`` the k medoid indices (``M[i]`` is the medoid in position ``i``);
for every point ``o`` the caches ``near[o]`` / ``second[o]`` (positions in ``M`` of its nearest
and second nearest medoids) and their distances ``dn[o] ≤ ds[o]``; the objective
``TD = Σ_o dn[o]``. Below, ``d_oc = DT[c, o]``.

Swapping the medoid in position ``i`` for the non-medoid ``c`` changes TD by (Schubert &
Rousseeuw 2021, the decomposition behind FastPAM1 and FasterPAM)

    ΔTD(i, c) = ℓ_i + Σ_o min(d_oc − dn_o, 0) + Σ_{o: near[o] = i} r_o(c)

with the *removal loss* ``ℓ_i = Σ_{o: near[o] = i} (ds_o − dn_o)`` (what removing medoid i alone
costs) and the correction for the points that lose their medoid

    r_o(c) = dn_o − ds_o   if d_oc < dn_o   (o moves to c, not to its second medoid)
             d_oc − ds_o   if dn_o ≤ d_oc < ds_o
             0             otherwise.

One scan of the row ``DT[c]`` gives ΔTD(i, c) for all k positions at once: O(n + k) per
candidate, O(n²) per pass over the candidates, against O(k n²) for the textbook SWAP. The
three cases are checked by expanding the new distance of ``o``, ``min(d_oc, ds_o)`` when its
medoid leaves and ``min(d_oc, dn_o)`` otherwise.

Ties: a point's nearest medoid is the first position with the least distance (a strict ``<``
scan in position order, as ``argmin``); a swap or a medoid update is taken only when it lowers
TD by more than ``thresh`` (callers pass a few ulps of TD), and among equal best swaps the first
candidate ``c`` in index order, then the first position ``i``, wins.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "is_symmetric",
    "nearest_two",
    "removal_loss",
    "swap_deltas",
    "best_swap",
    "apply_swap",
    "fasterpam_pass",
    "build",
    "update_medoids",
]


@numba.njit(cache=True, no_cfunc_wrapper=True)
def is_symmetric(D):
    """True when ``D[i, j] == D[j, i]`` for every pair, so that D is its own transpose.

    Compares the upper triangle with the lower one in 64 × 64 tiles, so that the rows of one
    tile and the columns of its mirror stay in cache; stops at the first difference. O(n²) reads,
    no allocation.
    """
    n = D.shape[0]
    B = 64
    for i0 in range(0, n, B):
        for j0 in range(i0, n, B):
            for i in range(i0, min(i0 + B, n)):
                for j in range(max(j0, i + 1), min(j0 + B, n)):
                    if D[i, j] != D[j, i]:
                        return False
    return True


@numba.njit(cache=True, no_cfunc_wrapper=True)
def nearest_two(DT, M, near, second, dn, ds):
    """Fill the caches from scratch: O(n k). Returns TD = Σ_o dn[o]."""
    n, k = DT.shape[0], M.shape[0]
    td = 0.0
    for o in range(n):
        b1, b2 = -1, -1
        d1, d2 = np.inf, np.inf
        for i in range(k):
            d = DT[M[i], o]
            if d < d1:
                b2, d2 = b1, d1
                b1, d1 = i, d
            elif d < d2:
                b2, d2 = i, d
        near[o], second[o], dn[o], ds[o] = b1, b2, d1, d2
        td += d1
    return td


@numba.njit(cache=True, no_cfunc_wrapper=True)
def removal_loss(near, dn, ds, k):
    """ℓ_i = Σ_{o: near[o] = i} (ds_o − dn_o), for every position i: O(n)."""
    loss = np.zeros(k)
    for o in range(near.shape[0]):
        loss[near[o]] += ds[o] - dn[o]
    return loss


@numba.njit(cache=True, no_cfunc_wrapper=True)
def swap_deltas(DT, c, near, dn, ds, loss, delta):
    """ΔTD(i, c) for every position i into ``delta`` (module docstring): O(n + k)."""
    k = delta.shape[0]
    for i in range(k):  # loops, not ``delta[:] = loss``: its shape check compiles string code
        delta[i] = loss[i]
    shared = 0.0  # Σ_o min(d_oc − dn_o, 0)
    for o in range(DT.shape[0]):
        d_oc = DT[c, o]
        if d_oc < dn[o]:
            shared += d_oc - dn[o]
            delta[near[o]] += dn[o] - ds[o]
        elif d_oc < ds[o]:
            delta[near[o]] += d_oc - ds[o]
    for i in range(k):
        delta[i] += shared


@numba.njit(cache=True, no_cfunc_wrapper=True)
def best_swap(DT, is_medoid, near, dn, ds, loss):
    """PAM's best-improvement search: the (ΔTD, i, c) of least ΔTD over all pairs, O(n²)."""
    k = loss.shape[0]
    delta = np.empty(k)
    best, best_i, best_c = np.inf, -1, -1
    for c in range(DT.shape[0]):
        if is_medoid[c]:
            continue
        swap_deltas(DT, c, near, dn, ds, loss, delta)
        for i in range(k):
            if delta[i] < best:
                best, best_i, best_c = delta[i], i, c
    return best, best_i, best_c


@numba.njit(cache=True, no_cfunc_wrapper=True)
def apply_swap(DT, M, is_medoid, i, c, near, second, dn, ds):
    """Put ``c`` in position ``i`` and update the caches.

    A point whose nearest or second medoid was in position ``i`` is rescanned (O(k)); any other
    point only compares its distance to ``c`` with its two cached ones. Returns the new TD.
    """
    is_medoid[M[i]] = False
    M[i] = c
    is_medoid[c] = True
    k = M.shape[0]
    td = 0.0
    for o in range(DT.shape[0]):
        d_oc = DT[c, o]
        if near[o] == i or second[o] == i:
            b1, b2 = -1, -1
            d1, d2 = np.inf, np.inf
            for j in range(k):
                d = DT[M[j], o]
                if d < d1:
                    b2, d2 = b1, d1
                    b1, d1 = j, d
                elif d < d2:
                    b2, d2 = j, d
            near[o], second[o], dn[o], ds[o] = b1, b2, d1, d2
        elif d_oc < dn[o]:
            second[o], ds[o] = near[o], dn[o]
            near[o], dn[o] = i, d_oc
        elif d_oc < ds[o]:
            second[o], ds[o] = i, d_oc
        td += dn[o]
    return td


@numba.njit(cache=True, no_cfunc_wrapper=True)
def fasterpam_pass(DT, M, is_medoid, near, second, dn, ds, start, since_swap, thresh):
    """One FasterPAM pass: candidates c = start, start+1, … (cyclically), each swapped in at once
    for its best position when that lowers TD by more than ``thresh`` (eager swaps).

    Stops after n candidates, or as soon as the n candidates since the last swap (``since_swap``
    carries the count across passes) gave none: then every single swap has been tried against
    the current medoids (converged). Returns (TD, swaps made, next start, since_swap, converged).
    """
    n, k = DT.shape[0], M.shape[0]
    delta = np.empty(k)
    loss = removal_loss(near, dn, ds, k)
    td = 0.0
    for o in range(n):  # Σ_o dn[o], in index order
        td += dn[o]
    swaps, c = 0, start
    for _ in range(n):
        if not is_medoid[c]:
            swap_deltas(DT, c, near, dn, ds, loss, delta)
            i = 0  # argmin: the first least entry (the first NaN, if any, as np.argmin)
            for j in range(k):
                if delta[j] != delta[j]:
                    i = j
                    break
                if delta[j] < delta[i]:
                    i = j
            if delta[i] < -thresh:
                td = apply_swap(DT, M, is_medoid, i, c, near, second, dn, ds)
                loss = removal_loss(near, dn, ds, k)
                swaps += 1
                since_swap = 0
        since_swap += 1
        c = (c + 1) % n
        if since_swap >= n:
            return td, swaps, c, since_swap, True
    return td, swaps, c, since_swap, False


@numba.njit(cache=True, no_cfunc_wrapper=True)
def build(DT, k):
    """PAM's BUILD: the point of least total distance, then k − 1 times the point whose addition
    lowers TD the most, gain(c) = Σ_o max(dn_o − d_oc, 0). O(k n²); first index wins ties."""
    n = DT.shape[0]
    M = np.empty(k, dtype=np.int64)
    best, best_c = np.inf, -1
    for c in range(n):
        s = 0.0
        for o in range(n):  # Σ_o d(x_o, x_c), in index order
            s += DT[c, o]
        if s < best:
            best, best_c = s, c
    M[0] = best_c
    dn = np.empty(n)
    for o in range(n):
        dn[o] = DT[best_c, o]
    chosen = np.zeros(n, dtype=np.bool_)
    chosen[best_c] = True
    for m in range(1, k):
        best_gain, best_c = -1.0, -1
        for c in range(n):
            if chosen[c]:
                continue
            gain = 0.0
            for o in range(n):
                if DT[c, o] < dn[o]:
                    gain += dn[o] - DT[c, o]
            if gain > best_gain:
                best_gain, best_c = gain, c
        M[m] = best_c
        chosen[best_c] = True
        for o in range(n):
            dn[o] = min(dn[o], DT[best_c, o])
    return M


@numba.njit(cache=True, no_cfunc_wrapper=True)
def update_medoids(DT, labels, M, thresh):
    """The alternate step: in each cluster the member of least total distance to the other
    members becomes the medoid, when it beats the current medoid by more than ``thresh``.

    Members are scanned in index order (the first of equal totals wins). O(Σ_j n_j²).
    Returns the number of empty clusters (their medoid is kept).
    """
    k = M.shape[0]
    order = np.argsort(labels, kind="mergesort")  # members of each cluster, in index order
    counts = np.bincount(labels, minlength=k)
    empty = 0
    first = 0
    for j in range(k):
        members = order[first : first + counts[j]]
        first += counts[j]
        if members.shape[0] == 0:
            empty += 1
            continue
        cost_m = 0.0
        for q in members:
            cost_m += DT[M[j], q]
        best, best_p = np.inf, -1
        for p in members:
            s = 0.0
            for q in members:
                s += DT[p, q]
            if s < best:
                best, best_p = s, p
        if best < cost_m - thresh:
            M[j] = best_p
    return empty
