"""Growing a CART tree inside Numba: depth-first, or best-first under ``max_leaf_nodes``.

A node owns the columns ``order[:, start:end]`` of an int32 array of row indices, and splitting it
partitions every row of that slice in place and stably (left rows first), so nothing is copied per
node; X is read as its transpose ``Xt`` (d, n), one contiguous row per feature. The best splitter
is given the rows sorted once by every feature (``order`` (d, m), row j the rows by increasing
x_j, :func:`._splitter.presort`): each part stays sorted, so no node ever sorts and the search of
a node of m rows costs O(d·m), not O(d·m log m). The random splitter
needs no sorted order: it is given ONE array of rows (``rows`` (m,), :func:`._splitter.row_order`,
and ``order=None``) and a node costs O(max_features·m). Which of ``order`` and ``rows`` is given
chooses the node search, :func:`._splitter.best_node_split` or :func:`._splitter.random_node_split`;
the growth is the same.

Compiling for the first call: Numba decides a test ``x is not None`` of an argument that is None
from the argument's type and drops the branch, so the arguments passed as None leave the unused
code out of the compiled tree: the splitter not used (``rows`` for the best splitter, ``order``
for the random one) and the other criteria (of ``yc`` class codes, ``yv`` targets of the squared
error and ``ya`` targets of the absolute error, only the criterion's own is given; see
:func:`._criteria.node_stats`). :func:`build_tree` (depth-first) and :func:`build_tree_best_first`
are two entry points chosen in Python (by :func:`grow`): a first fit compiles only the code that it
runs. No kernel allocates: :func:`grow` allocates every array in Python, since NumPy's allocators
compiled into a kernel (one per dtype and shape) cost more compile time than the tree's loops.
:func:`_expand`, the creation and search of one node, is merged into the growth loops
(``inline="always"``): as a kernel of its own, every node paid for a call that passes some twenty
arrays (each reference-counted) and two records, and LLVM could optimise nothing across it; merged,
an extremely randomised forest fits 25% faster (8,000 × 20, 100 trees) and a random forest 4-8%,
for 0.3% more instructions in a cold first fit (valgrind). The kernels that only compiled code
calls (the node searches, the criteria, the heap) are ``no_cpython_wrapper``: no Python entry
point is compiled for them (a cold forest fit writes 15% less machine code; the tests reach the
node searches through ``_splitter._best_node_split_from_python`` and
``_random_node_split_from_python``). No kernel compiles a C-callable wrapper
(``no_cfunc_wrapper``, on every cached kernel of the package: nothing calls one; a cold 10-tree
forest fit 3.3 → 2.95 s, median of four interleaved pairs).

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

Node storage: ``nodes`` (cap,), one :data:`NODE` record per node whose fields are named after the
fitted tree's arrays (:mod:`._tree`), and ``value`` (cap, K); both doubled (by :func:`grow`, the
kernel returning to it) when full. The
records of the nodes waiting to be grown (:data:`PENDING`, :data:`FRONTIER`) are named too.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from ._criteria import node_stats
from ._splitter import best_node_split, random_node_split

__all__ = ["NODE", "Limits", "build_tree", "build_tree_best_first", "grow"]

EPS = np.finfo(np.float64).eps

#: One node of the tree being grown: the fields of :class:`._tree.Tree`, by the same names, and
#: its depth (so that the tree's ``max_depth`` is one maximum, not a walk of the built tree).
NODE = np.dtype(
    [
        ("children_left", np.intp),  # −1 at a leaf
        ("children_right", np.intp),  # −1 at a leaf
        ("feature", np.intp),  # −2 at a leaf
        ("n_node_samples", np.intp),
        ("threshold", np.float64),  # −2.0 at a leaf
        ("impurity", np.float64),
        ("weighted_n_node_samples", np.float64),
        ("depth", np.intp),  # root 0; not an array of the Tree: it gets the maximum, max_depth
    ],
    align=True,
)

#: A node of the depth-first stack, not yet created: its rows ``order[:, start:end]``, its
#: depth, and where it hangs (``parent``; ``is_left`` 1 for a left child).
PENDING = np.dtype(
    [
        ("start", np.intp),
        ("end", np.intp),
        ("depth", np.intp),
        ("parent", np.intp),
        ("is_left", np.intp),
    ],
    align=True,
)

#: A node of the best-first frontier, created and searched but not yet split: its rows, depth and
#: index, the boundary ``pos`` of its best split, whether it is a leaf, and that split's ΔI.
FRONTIER = np.dtype(
    [
        ("start", np.intp),
        ("end", np.intp),
        ("depth", np.intp),
        ("node", np.intp),
        ("pos", np.intp),
        ("is_leaf", np.bool_),
        ("improvement", np.float64),
    ],
    align=True,
)


class Limits(NamedTuple):
    """When a node stops being split (see the module docstring); ``max_leaf_nodes`` ≤ 0 grows
    depth-first, without a leaf limit."""

    max_depth: int
    min_samples_split: int
    min_impurity_decrease: float
    max_leaf_nodes: int


class Scratch(NamedTuple):
    """The work buffers of one tree, allocated once and reused at every node."""

    features: np.ndarray  # (d,) intp: the permutation the splitters draw features from
    xs: np.ndarray  # (m,) a feature's values at the node's rows
    goes_left: np.ndarray  # (n,) bool: the side of each row, while partitioning
    rows: np.ndarray  # (m,) like ``order``: the right rows, held while partitioning
    left: np.ndarray  # (K,) weighted class counts of a left child
    total: np.ndarray  # (K,) the node's sums: weighted class counts, or Σ w y (K = 1)
    child_value: np.ndarray  # (K,) a child's sums, written by node_stats and not kept
    sweep: np.ndarray  # (m + 1,) the absolute-error proxies of one sweep


class Expansion(NamedTuple):
    """A created node: the boundary ``pos`` of its split (its rows ``start:pos`` go left), the
    split's ΔI, whether it is a leaf, and the random stream's state after it."""

    pos: int
    improvement: float
    is_leaf: bool
    state: np.uint64


@numba.njit(cache=True, inline="always")
def _partition(Xt, order, rows, start, end, f, theta, goes_left, buf):
    """Split the node's slice of every row of ``order`` into its left rows (x_f ≤ θ) then its
    right rows, each keeping its order (a stable partition); return the boundary. The random
    splitter's one array ``rows`` (``order`` None) is partitioned in the same pass that reads
    x_f."""
    if rows is not None:
        i, k = start, 0
        for p in range(start, end):
            s = rows[p]
            if Xt[f, s] <= theta:
                rows[i] = s
                i += 1
            else:
                buf[k] = s
                k += 1
        for q in range(k):
            rows[i + q] = buf[q]
        return i
    pos = start
    if order is not None:
        for p in range(start, end):
            s = order[0, p]  # every row of ``order`` holds the node's rows
            goes_left[s] = Xt[f, s] <= theta
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
def _split_node(
    Xt, yc, yv, ya, w, samples, order, rows, start, end, impurity, wN, rule, s, scratch
):
    """Search and apply the best split of a node: (:class:`._splitter.Split`, boundary pos,
    decrease N_t I_t − N_L I_L − N_R I_R). ``samples`` is ``order[0]`` (best splitter) or
    ``rows`` (random splitter), whichever is not None."""
    crit = rule.criterion
    total = scratch.total  # the node's sums, left by _add_node: class counts (classifier)
    sum_total = total[0] if yv is not None else 0.0  # or Σ w y (squared error)
    if order is not None:
        split = best_node_split(
            Xt, order, start, end, yc, yv, ya, w, total, sum_total, wN, rule, s,
            scratch.features, scratch.xs, scratch.left, scratch.sweep,
        )  # fmt: skip
    elif rows is not None:
        split = random_node_split(
            Xt, rows, start, end, yc, yv, ya, w, total, sum_total, wN, rule, s,
            scratch.features, scratch.xs, scratch.left,
        )  # fmt: skip
    if split.feature < 0:
        return split, end, 0.0
    pos = _partition(
        Xt, order, rows, start, end, split.feature, split.threshold, scratch.goes_left,
        scratch.rows,
    )  # fmt: skip
    if rows is not None and yc is not None:  # the random splitter's proxy is −N_L I_L − N_R I_R
        return split, pos, wN * impurity + split.proxy
    wL, iL = node_stats(samples, start, pos, yc, yv, ya, w, crit, scratch.child_value)
    wR, iR = node_stats(samples, pos, end, yc, yv, ya, w, crit, scratch.child_value)
    return split, pos, wN * impurity - wL * iL - wR * iR


@numba.njit(cache=True, inline="always")
def _add_node(nodes, value, counts, t, parent, is_left, samples, start, end, yc, yv, ya, w, crit):
    """Write node t as a leaf holding ``samples[start:end]`` and hang it under ``parent``;
    returns its weight N_t and impurity I_t. The node's sums, its weighted class counts n_k
    (classifier) or Σ w y (squared error), are left in ``counts`` for its split search (one pass
    over the rows, not two) and its value is p_k = n_k / N_t or ȳ = Σ w y / N_t."""
    if ya is not None:  # the value is the weighted median: no sums
        wN, impurity = node_stats(samples, start, end, yc, yv, ya, w, crit, value[t])
    else:
        wN, impurity = node_stats(samples, start, end, yc, yv, ya, w, crit, counts)
        for k in range(counts.shape[0]):
            value[t, k] = counts[k] / wN
    node = nodes[t]
    node.children_left = -1
    node.children_right = -1
    node.feature = -2
    node.n_node_samples = end - start
    node.threshold = -2.0
    node.impurity = impurity
    node.weighted_n_node_samples = wN
    if parent >= 0:
        if is_left:
            nodes[parent].children_left = t
        else:
            nodes[parent].children_right = t
    return wN, impurity


@numba.njit(cache=True, inline="always")
def _expand(Xt, yc, yv, ya, w, samples, order, rows, nodes, value, t, start, end, depth, parent,
            is_left, limits, W, rule, s, scratch):  # fmt: skip
    """Create node t (``nodes`` has room for it) and find its split: an :class:`Expansion`."""
    wN, impurity = _add_node(
        nodes, value, scratch.total, t, parent, is_left, samples, start, end, yc, yv, ya, w,
        rule.criterion,
    )  # fmt: skip
    nodes[t].depth = depth
    m = end - start
    leaf = (
        depth >= limits.max_depth
        or m < limits.min_samples_split
        or wN < 2.0 * rule.min_weight_leaf
        or impurity <= EPS
    )
    if leaf:
        return Expansion(end, 0.0, True, s)
    split, pos, decrease = _split_node(
        Xt, yc, yv, ya, w, samples, order, rows, start, end, impurity, wN, rule, s, scratch
    )
    improvement = decrease / W
    if split.feature < 0 or improvement + EPS < limits.min_impurity_decrease:
        return Expansion(end, 0.0, True, split.state)
    nodes[t].feature = split.feature
    nodes[t].threshold = split.threshold
    return Expansion(pos, improvement, False, split.state)


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _make_leaf(nodes, t):
    """Undo the split found for node t (a best-first node left on the frontier stays a leaf)."""
    node = nodes[t]
    node.children_left = -1
    node.children_right = -1
    node.feature = -2
    node.threshold = -2.0


def _scratch(d, n, m, K, index_dtype) -> Scratch:
    """The :class:`Scratch` buffers of a tree of d features over n rows, m of them in the tree
    (allocated here, in Python: a kernel allocating them compiles NumPy's allocators too)."""
    return Scratch(
        np.arange(d, dtype=np.intp), np.empty(m), np.zeros(n, dtype=np.bool_),
        np.empty(m, dtype=index_dtype), np.empty(K), np.empty(K), np.empty(K), np.empty(m + 1),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _total_weight(samples, w):
    """W = Σ w over the tree's rows, summed in row order."""
    W = 0.0
    for q in range(samples.shape[0]):
        W += w[samples[q]]
    return W


@numba.njit(cache=True, inline="always")
def _push(stack, top, start, end, depth, parent, is_left):
    """Put a :data:`PENDING` record on top of the stack; returns the new stack size."""
    r = stack[top]
    r.start, r.end, r.depth, r.parent, r.is_left = start, end, depth, parent, is_left
    return top + 1


# nogil: a forest grows its trees on threads
@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def build_tree(Xt, yc, yv, ya, w, order, rows, rule, limits, nodes, value, scratch, stack, top,
               n_nodes, s):  # fmt: skip
    """Grow the tree depth first from the ``stack`` of :data:`PENDING` nodes (``stack[:top]``),
    the left child popped first (``limits.max_leaf_nodes`` is ignored: see
    :func:`build_tree_best_first`), writing node ``n_nodes`` onwards into ``nodes`` and
    ``value``; returns (top, n_nodes, s). Growth stops early, with ``top`` > 0, when the node
    storage is full: :func:`grow` then doubles it and calls again with the returned state, so
    that no array is allocated here (NumPy's allocators compiled inside a kernel cost more
    compile time than the kernel's own loops).

    ``Xt`` (d, n) is X transposed and C-contiguous: a feature's values are one contiguous row, so
    reading them for a node's rows (in increasing row order for the random splitter) stays in
    one stretch of memory. Of ``yc`` (class codes), ``yv`` (targets, squared error) and
    ``ya`` (targets, absolute error) only the criterion's own is given, the others are None (see
    :func:`._criteria.node_stats`). The rows of non-zero
    weight are partitioned in place: the best splitter passes them as ``order`` (d, m), sorted by
    each feature (:func:`._splitter.presort`), and ``rows=None``; the random splitter as
    ``rows`` (m,) in increasing order (:func:`._splitter.row_order`) and ``order=None``. Numba
    compiles only the search of the one given (a test against None of a None argument is decided
    at compile time, and ``samples``, the array the node slices index, is ``order[0]`` or
    ``rows``). ``rule`` is a :class:`._splitter.SplitRule`, ``limits`` a
    :class:`Limits`, ``scratch`` the :class:`Scratch` buffers, ``s`` the uint64 state of the
    tree's random stream.
    """
    if order is not None:  # the best splitter: row 0 of the sorted order holds the rows
        samples = order[0]
    elif rows is not None:  # the random splitter
        samples = rows
    W = _total_weight(samples, w)
    while top > 0 and n_nodes < nodes.shape[0]:
        top -= 1
        p = stack[top]
        start, end, depth, parent, is_left = p.start, p.end, p.depth, p.parent, p.is_left
        grown = _expand(
            Xt, yc, yv, ya, w, samples, order, rows, nodes, value, n_nodes, start, end, depth,
            parent, is_left, limits, W, rule, s, scratch,
        )  # fmt: skip
        s = grown.state
        n_nodes += 1
        if grown.is_leaf:
            continue
        top = _push(stack, top, grown.pos, end, depth + 1, n_nodes - 1, 0)
        top = _push(stack, top, start, grown.pos, depth + 1, n_nodes - 1, 1)
    return top, n_nodes, s


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _heap_push(heap, n_heap, frontier, r):
    """Add frontier record r to the max-heap ``heap[:n_heap]`` keyed by ΔI."""
    heap[n_heap] = r
    i = n_heap
    while i > 0 and frontier[heap[(i - 1) // 2]].improvement < frontier[heap[i]].improvement:
        heap[i], heap[(i - 1) // 2] = heap[(i - 1) // 2], heap[i]
        i = (i - 1) // 2
    return n_heap + 1


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _heap_pop(heap, n_heap, frontier):
    """Remove the record of largest ΔI: (that record, the new heap size)."""
    top = heap[0]
    n_heap -= 1
    heap[0] = heap[n_heap]
    i = 0
    while True:
        a, b, big = 2 * i + 1, 2 * i + 2, i
        if a < n_heap and frontier[heap[a]].improvement > frontier[heap[big]].improvement:
            big = a
        if b < n_heap and frontier[heap[b]].improvement > frontier[heap[big]].improvement:
            big = b
        if big == i:
            return top, n_heap
        heap[i], heap[big] = heap[big], heap[i]
        i = big


@numba.njit(cache=True, inline="always")
def _enter(frontier, r, start, end, depth, node, grown):
    """Record a created node on the frontier (as its :data:`FRONTIER` record r)."""
    e = frontier[r]
    e.start, e.end, e.depth, e.node = start, end, depth, node
    e.pos, e.is_leaf, e.improvement = grown.pos, grown.is_leaf, grown.improvement


@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def build_tree_best_first(Xt, yc, yv, ya, w, order, rows, rule, limits, nodes, value, scratch,
                          frontier, heap, n_heap, n_nodes, n_rec, splits_left, s):  # fmt: skip
    """Grow the tree by repeatedly splitting the :data:`FRONTIER` node of largest ΔI (the
    max-heap ``heap[:n_heap]`` of records of ``frontier``), until ``limits.max_leaf_nodes``
    leaves; the root (``n_nodes`` 0) is created first. Returns (n_heap, n_nodes, n_rec,
    splits_left, s), stopping early with ``n_heap`` > 0 when the node storage has no room for
    two children (:func:`grow` doubles it and calls again); arguments as :func:`build_tree`."""
    if order is not None:  # the best splitter: row 0 of the sorted order holds the rows
        samples = order[0]
    elif rows is not None:  # the random splitter
        samples = rows
    W = _total_weight(samples, w)
    zero = np.intp(0)  # not a literal 0, which would compile second versions of the callees
    if n_nodes == 0:
        m = samples.shape[0]
        grown = _expand(
            Xt, yc, yv, ya, w, samples, order, rows, nodes, value, zero, zero, m, zero,
            np.intp(-1), np.intp(1), limits, W, rule, s, scratch,
        )  # fmt: skip
        s = grown.state
        _enter(frontier, 0, 0, m, 0, 0, grown)
        n_nodes, n_rec, n_heap = np.intp(1), np.intp(1), _heap_push(heap, zero, frontier, zero)
    while n_heap > 0 and n_nodes + 2 <= nodes.shape[0]:
        r, n_heap = _heap_pop(heap, n_heap, frontier)
        e = frontier[r]
        start, end, depth, node, pos = e.start, e.end, e.depth, e.node, e.pos
        if e.is_leaf or splits_left <= 0:
            _make_leaf(nodes, node)
            continue
        splits_left -= 1
        for a, b, is_left in ((start, pos, np.intp(1)), (pos, end, np.intp(0))):
            grown = _expand(
                Xt, yc, yv, ya, w, samples, order, rows, nodes, value, n_nodes, a, b, depth + 1,
                node, is_left, limits, W, rule, s, scratch,
            )  # fmt: skip
            s = grown.state
            _enter(frontier, n_rec, a, b, depth + 1, n_nodes, grown)
            n_heap = _heap_push(heap, n_heap, frontier, n_rec)
            n_rec += 1
            n_nodes += 1
    return n_heap, n_nodes, n_rec, splits_left, s


#: Room for at most this many nodes when a tree starts growing; doubled whenever full.
START_CAPACITY = 4096


def _doubled(nodes, value):
    """The node storage with twice the capacity, the first nodes copied."""
    nodes2 = np.empty(2 * nodes.shape[0], dtype=NODE)
    value2 = np.empty((2 * value.shape[0], value.shape[1]))
    nodes2[: nodes.shape[0]] = nodes
    value2[: value.shape[0]] = value
    return nodes2, value2


def grow(Xt, yc, yv, ya, w, order, rows, K, rule, limits, seed):
    """Grow one tree: depth first (:func:`build_tree`), or best first under
    ``limits.max_leaf_nodes`` > 0 (:func:`build_tree_best_first`); returns (nodes, value), its
    :data:`NODE` records and values (K columns), trimmed to the node count. Arguments as
    :func:`build_tree`, ``seed`` the uint64 start of the tree's random stream.

    Every array the kernels use is allocated here (the node storage, doubled here whenever a
    kernel returns for want of room, the scratch buffers, the stack or frontier), so that the
    compiled kernels contain no allocation."""
    samples = order[0] if order is not None else rows
    m = samples.shape[0]
    # a tree of m rows has at most m leaves (each holds a row), so at most 2m − 1 nodes: small
    # trees get all the room they can use at once (one kernel call), large ones 4096 to start
    cap = max(1, min(2 * m - 1, START_CAPACITY))
    nodes, value = np.empty(cap, dtype=NODE), np.empty((cap, K))
    scratch = _scratch(Xt.shape[0], Xt.shape[1], m, K, samples.dtype)
    s = np.uint64(seed)
    if limits.max_leaf_nodes <= 0:
        # the stack holds the pending right siblings of the current path: at most depth + 2
        stack = np.empty(min(limits.max_depth, m) + 2, dtype=PENDING)
        stack[0] = (0, m, 0, -1, 0)
        top, n_nodes = np.intp(1), np.intp(0)  # np.intp: the types of the returned state
        while True:
            top, n_nodes, s = build_tree(
                Xt, yc, yv, ya, w, order, rows, rule, limits, nodes, value, scratch, stack, top,
                n_nodes, s,
            )  # fmt: skip
            if top == 0:
                break
            top, n_nodes, s = np.intp(top), np.intp(n_nodes), np.uint64(s)  # (returned as int)
            nodes, value = _doubled(nodes, value)
    else:
        cap = 2 * limits.max_leaf_nodes + 2
        frontier = np.empty(cap, dtype=FRONTIER)
        heap = np.empty(cap, dtype=np.intp)  # frontier records, a max-heap by ΔI
        n_heap, n_nodes, n_rec = np.intp(0), np.intp(0), np.intp(0)
        splits_left = np.intp(limits.max_leaf_nodes - 1)
        while True:
            n_heap, n_nodes, n_rec, splits_left, s = build_tree_best_first(
                Xt, yc, yv, ya, w, order, rows, rule, limits, nodes, value, scratch, frontier,
                heap, n_heap, n_nodes, n_rec, splits_left, s,
            )  # fmt: skip
            if n_heap == 0:
                break
            n_heap, n_nodes, n_rec = np.intp(n_heap), np.intp(n_nodes), np.intp(n_rec)
            splits_left, s = np.intp(splits_left), np.uint64(s)  # (returned as int)
            nodes, value = _doubled(nodes, value)
    return nodes[:n_nodes].copy(), value[:n_nodes].copy()
