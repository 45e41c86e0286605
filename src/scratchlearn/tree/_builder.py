"""Growing a CART tree inside Numba: depth-first, or best-first under ``max_leaf_nodes``.

A node owns the columns ``order[:, start:end]`` of an int32 array of row indices, and splitting it
partitions every row of that slice in place and stably (left rows first), so nothing is copied per
node; X is read as its transpose ``Xt`` (d, n), one contiguous row per feature. The best splitter
is given the rows sorted once by every feature (``order`` (d, m), row j the rows by increasing
x_j, :func:`._splitter.presort`): each part stays sorted, so no node ever sorts and the search of
a node of m rows costs O(d·m), not O(d·m log m). The random splitter
needs no sorted order: it is given ONE row (``order`` (1, m), :func:`._splitter.row_order`) and
a node costs O(max_features·m). ``params[3]`` (random_splitter) chooses the node search,
:func:`._splitter.best_node_split` or :func:`._splitter.random_node_split`; the growth is the same.

A node t is a leaf when ``depth ≥ max_depth``, when it has fewer than ``min_samples_split`` rows
(or fewer than ``2·min_samples_leaf``, or less than ``2·min_weight_leaf`` weight), when it is pure
(``I_t ≤ ε``, the machine epsilon), when no valid split exists, or when the best split's weighted
impurity decrease

.. math::  ΔI = \\frac{N_t}{N}\\Big(I_t - \\frac{N_L}{N_t} I_L - \\frac{N_R}{N_t} I_R\\Big)

(N the total training weight) satisfies ``ΔI + ε < min_impurity_decrease``.

Depth-first growth numbers nodes in the order they are created: root 0, then the whole left
subtree, then the right one. Best-first growth (``max_leaf_nodes``) searches the best split of a
node as soon as the node is created and keeps the created-but-unexpanded nodes in a max-heap keyed
by ΔI; it repeatedly expands the top one, creating its left child and then its right child, until
``max_leaf_nodes − 1`` nodes have been split; every node still waiting becomes a leaf.

Node storage: ``ints`` (cap, 4) = (left, right, feature, n_node_samples), ``floats`` (cap, 3) =
(threshold, impurity, weighted_n_node_samples) and ``value`` (cap, K); doubled when full.
"""

from __future__ import annotations

import numba
import numpy as np

from ._criteria import ENTROPY, GINI, node_stats
from ._splitter import best_node_split, random_node_split

EPS = np.finfo(np.float64).eps


@numba.njit(cache=True)
def _grow(ints, floats, value):
    """The node store with twice the capacity (element loops: cheaper to compile than slices)."""
    n, K = ints.shape[0], value.shape[1]
    ints2 = np.full((2 * n, 4), -1, dtype=np.intp)
    floats2 = np.empty((2 * n, 3))
    value2 = np.empty((2 * n, K))
    for t in range(n):
        for c in range(4):
            ints2[t, c] = ints[t, c]
        for c in range(3):
            floats2[t, c] = floats[t, c]
        for c in range(K):
            value2[t, c] = value[t, c]
    return ints2, floats2, value2


@numba.njit(cache=True, inline="always")
def _partition(Xt, order, start, end, f, theta, goes_left, buf):
    """Split the node's slice of every row of ``order`` into its left rows (x_f ≤ θ) then its
    right rows, each keeping its order (a stable partition); return the boundary. One row (the
    random splitter's ``order``) is partitioned in the same pass that reads x_f."""
    if order.shape[0] == 1:
        i, k = start, 0
        for p in range(start, end):
            s = order[0, p]
            if Xt[f, s] <= theta:
                order[0, i] = s
                i += 1
            else:
                buf[k] = s
                k += 1
        for q in range(k):
            order[0, i + q] = buf[q]
        return i
    for p in range(start, end):
        s = order[0, p]  # every row of ``order`` holds the node's rows
        goes_left[s] = Xt[f, s] <= theta
    pos = start
    for j in range(order.shape[0]):
        i, k = start, 0
        for p in range(start, end):
            s = order[j, p]
            if goes_left[s]:
                order[j, i] = s  # i ≤ p: writes only where already read
                i += 1
            else:
                buf[k] = s
                k += 1
        for q in range(k):
            order[j, i + q] = buf[q]
        pos = i
    return pos


@numba.njit(cache=True, inline="always")
def _split_node(Xt, yc, yv, w, order, start, end, impurity, wN, params, min_wleaf, state, work):
    """Search and apply the best split of a node: (feature, θ, pos, N_t I_t − N_L I_L − N_R I_R)."""
    features, xs, goes_left, ibuf, left, total, tmp, buf = work
    crit = params[0]
    samples = order[0]
    total[:] = 0.0  # weighted class counts (classifier)
    sum_total = 0.0
    for q in range(start, end):
        s = samples[q]
        sum_total += w[s] * yv[s]
        if crit == GINI or crit == ENTROPY:
            total[yc[s]] += w[s]
    if params[3]:  # random_splitter: order is one row
        f, theta, proxy = random_node_split(
            Xt, samples, start, end, yc, yv, w, total, sum_total, wN, params, min_wleaf, state,
            features, xs, left,
        )  # fmt: skip
    else:
        f, theta, _ = best_node_split(
            Xt, order, start, end, yc, yv, w, total, sum_total, wN, params, min_wleaf, state,
            features, xs, left, buf,
        )  # fmt: skip
    if f < 0:
        return -1, 0.0, end, 0.0
    pos = _partition(Xt, order, start, end, f, theta, goes_left, ibuf)
    if params[3] and (crit == GINI or crit == ENTROPY):  # the proxy is −N_L I_L − N_R I_R
        return f, theta, pos, wN * impurity + proxy
    wL, iL = node_stats(samples, start, pos, yc, yv, w, crit, tmp)
    wR, iR = node_stats(samples, pos, end, yc, yv, w, crit, tmp)
    return f, theta, pos, wN * impurity - wL * iL - wR * iR


@numba.njit(cache=True, inline="always")
def _add_node(store, n_nodes, parent, is_left, samples, start, end, yc, yv, w, crit):
    ints, floats, value = store
    if n_nodes >= ints.shape[0]:
        ints, floats, value = _grow(ints, floats, value)
    wN, impurity = node_stats(samples, start, end, yc, yv, w, crit, value[n_nodes])
    ints[n_nodes, 0] = -1
    ints[n_nodes, 1] = -1
    ints[n_nodes, 2] = -2
    ints[n_nodes, 3] = end - start
    floats[n_nodes, 0] = -2.0
    floats[n_nodes, 1] = impurity
    floats[n_nodes, 2] = wN
    if parent >= 0:
        ints[parent, 1 - is_left] = n_nodes  # is_left = 1: the left child
    return (ints, floats, value), wN, impurity


@numba.njit(cache=True)
def _expand(Xt, yc, yv, w, order, store, n_nodes, start, end, depth, parent, is_left, limits,
            W, params, state, work):  # fmt: skip
    """Create one node and find its split: (store, pos, ΔI, is_leaf)."""
    max_depth, min_split, min_wleaf, min_decrease = limits
    store, wN, impurity = _add_node(
        store, n_nodes, parent, is_left, order[0], start, end, yc, yv, w, params[0]
    )
    m = end - start
    leaf = depth >= max_depth or m < min_split or wN < 2.0 * min_wleaf or impurity <= EPS
    if leaf:
        return store, end, 0.0, True
    f, theta, pos, decrease = _split_node(
        Xt, yc, yv, w, order, start, end, impurity, wN, params, min_wleaf, state, work
    )
    improvement = decrease / W
    if f < 0 or improvement + EPS < min_decrease:
        return store, end, 0.0, True
    store[0][n_nodes, 2] = f
    store[1][n_nodes, 0] = theta
    return store, pos, improvement, False


@numba.njit(cache=True)
def _make_leaf(store, node):
    store[0][node, 0] = -1
    store[0][node, 1] = -1
    store[0][node, 2] = -2
    store[1][node, 0] = -2.0


@numba.njit(cache=True)
def _put5(a, i, v0, v1, v2, v3, v4):
    a[i, 0], a[i, 1], a[i, 2], a[i, 3], a[i, 4] = v0, v1, v2, v3, v4


@numba.njit(cache=True)
def _put6(a, i, v0, v1, v2, v3, v4, v5):
    a[i, 0], a[i, 1], a[i, 2], a[i, 3], a[i, 4], a[i, 5] = v0, v1, v2, v3, v4, v5


@numba.njit(cache=True)
def _depth_first(Xt, yc, yv, w, order, store, limits, W, params, state, work):
    """Grow from a stack of (start, end, depth, parent, is_left): left child popped first."""
    # the stack holds the pending right siblings of the current path: at most depth + 2 records
    stack = np.empty((min(limits[0], order.shape[1]) + 2, 5), dtype=np.intp)
    _put5(stack, 0, 0, order.shape[1], 0, -1, 0)
    top, n_nodes = 1, np.intp(0)  # np.intp: a literal 0 would compile a second _expand
    while top > 0:
        top -= 1
        start, end, depth, parent, is_left = (
            stack[top, 0],
            stack[top, 1],
            stack[top, 2],
            stack[top, 3],
            stack[top, 4],
        )
        store, pos, _, leaf = _expand(
            Xt, yc, yv, w, order, store, n_nodes, start, end, depth, parent, is_left,
            limits, W, params, state, work,
        )  # fmt: skip
        n_nodes += 1
        if leaf:
            continue
        _put5(stack, top, pos, end, depth + 1, n_nodes - 1, 0)
        _put5(stack, top + 1, start, pos, depth + 1, n_nodes - 1, 1)
        top += 2
    return store, n_nodes


@numba.njit(cache=True)
def _heap_push(heap, n_heap, key, r):
    heap[n_heap] = r
    i = n_heap
    while i > 0 and key[heap[(i - 1) // 2]] < key[heap[i]]:
        heap[i], heap[(i - 1) // 2] = heap[(i - 1) // 2], heap[i]
        i = (i - 1) // 2
    return n_heap + 1


@numba.njit(cache=True)
def _heap_pop(heap, n_heap, key):
    top = heap[0]
    n_heap -= 1
    heap[0] = heap[n_heap]
    i = 0
    while True:
        a, b, big = 2 * i + 1, 2 * i + 2, i
        if a < n_heap and key[heap[a]] > key[heap[big]]:
            big = a
        if b < n_heap and key[heap[b]] > key[heap[big]]:
            big = b
        if big == i:
            return top, n_heap
        heap[i], heap[big] = heap[big], heap[i]
        i = big


@numba.njit(cache=True)
def _best_first(Xt, yc, yv, w, order, store, limits, W, params, state, work, max_leaf_nodes):
    """Grow by repeatedly expanding the frontier node of largest ΔI (records: start, end,
    depth, node, pos, is_leaf; key ΔI)."""
    cap = 2 * max_leaf_nodes + 2
    rec = np.empty((cap, 6), dtype=np.intp)
    key = np.empty(cap)
    heap = np.empty(cap, dtype=np.intp)
    store, pos, imp, leaf = _expand(
        Xt, yc, yv, w, order, store, np.intp(0), np.intp(0), order.shape[1], np.intp(0),
        np.intp(-1), np.intp(1),
        limits, W, params, state, work,
    )  # fmt: skip
    _put6(rec, 0, 0, order.shape[1], 0, 0, pos, leaf)
    key[0] = imp
    n_nodes, n_rec, n_heap = np.intp(1), np.intp(1), _heap_push(heap, np.intp(0), key, np.intp(0))
    splits_left = max_leaf_nodes - 1
    while n_heap > 0:
        r, n_heap = _heap_pop(heap, n_heap, key)
        start, end, depth, node, pos, leaf = (
            rec[r, 0],
            rec[r, 1],
            rec[r, 2],
            rec[r, 3],
            rec[r, 4],
            rec[r, 5],
        )
        if leaf == 1 or splits_left <= 0:
            _make_leaf(store, node)
            continue
        splits_left -= 1
        for a, b, is_left in ((start, pos, np.intp(1)), (pos, end, np.intp(0))):
            store, p2, imp2, leaf2 = _expand(
                Xt, yc, yv, w, order, store, n_nodes, a, b, depth + 1, node, is_left,
                limits, W, params, state, work,
            )  # fmt: skip
            _put6(rec, n_rec, a, b, depth + 1, n_nodes, p2, leaf2)
            key[n_rec] = imp2
            n_heap = _heap_push(heap, n_heap, key, n_rec)
            n_rec += 1
            n_nodes += 1
    return store, n_nodes


@numba.njit(cache=True, nogil=True)  # nogil: a forest grows its trees on threads
def build_tree(Xt, yc, yv, w, order, K, params, limits, max_leaf_nodes, seed):
    """Grow the tree; returns (ints, floats, value) trimmed to the node count.

    ``Xt`` (d, n) is X transposed and C-contiguous: a feature's values are one contiguous row, so
    reading them for a node's rows (in increasing row order for the random splitter) stays in
    one stretch of memory. ``params`` = (crit, min_samples_leaf, max_features, random_splitter);
    ``limits`` = (max_depth, min_samples_split, min_weight_leaf, min_impurity_decrease);
    ``max_leaf_nodes`` ≤ 0 grows depth-first. ``order``, the rows of non-zero weight, is
    partitioned in place: (d, m) sorted by each feature (:func:`._splitter.presort`) for the best
    splitter, (1, m) (:func:`._splitter.row_order`) for the random one.
    """
    n_used = order.shape[1]
    state = np.array([seed], dtype=np.uint64)
    n = n_used
    work = (np.arange(Xt.shape[0]), np.empty(n), np.zeros(Xt.shape[1], dtype=np.bool_),
            np.empty(n, dtype=order.dtype), np.empty(K), np.empty(K), np.empty(K),
            np.empty(n + 1))  # fmt: skip
    cap = 64
    store = (np.full((cap, 4), -1, dtype=np.intp), np.empty((cap, 3)), np.empty((cap, K)))
    W = 0.0
    for q in range(n_used):
        W += w[order[0, q]]
    if max_leaf_nodes <= 0:
        store, n_nodes = _depth_first(Xt, yc, yv, w, order, store, limits, W, params, state, work)
    else:
        store, n_nodes = _best_first(
            Xt, yc, yv, w, order, store, limits, W, params, state, work, max_leaf_nodes
        )
    ints, floats, value = store
    return ints[:n_nodes].copy(), floats[:n_nodes].copy(), value[:n_nodes].copy()
