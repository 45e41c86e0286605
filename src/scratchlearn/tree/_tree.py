"""The fitted tree as flat arrays (scikit-learn's layout), and the loops that walk it.

Node t has ``children_left[t]``, ``children_right[t]`` (−1 at a leaf), ``feature[t]`` (−2 at a
leaf), ``threshold[t]`` (−2.0 at a leaf; a row goes LEFT when ``x[feature] ≤ threshold``),
``impurity[t]``, ``n_node_samples[t]`` (rows), ``weighted_n_node_samples[t]`` (Σ w) and
``value[t]`` (1, K): the weighted class fractions of a classifier node, or the (1, 1) weighted mean
(median for the absolute error) of a regressor node. Node 0 is the root.

Feature importance of feature j (normalised weighted impurity decrease):

.. math::

    \\mathrm{imp}_j \\propto \\sum_{t:\\,\\mathrm{feature}(t)=j}
        N_t I_t - N_{L(t)} I_{L(t)} - N_{R(t)} I_{R(t)},

scaled to sum to one (all zeros when the tree is a single leaf).
"""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp

__all__ = ["Tree", "apply_tree"]

_FIELDS = (
    "children_left",
    "children_right",
    "feature",
    "threshold",
    "impurity",
    "n_node_samples",
    "weighted_n_node_samples",
    "value",
)


@numba.njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _child(nodes, thresholds, Xflat, row, b):
    """4·(child of node b/4) for the row starting at Xflat[row]: left if x_f ≤ θ, else right."""
    f = np.uint64(nodes[b + np.uint64(2)])
    go_right = np.uint64(Xflat[row + f] > thresholds[b + np.uint64(3)])
    return np.uint64(4) * np.uint64(nodes[b + go_right])


# nogil: a forest walks its trees on threads
@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def apply_tree(Xflat, d, nodes, thresholds, out):
    """Write in ``out`` (n,) the leaf index reached by every row of X (n, d), given as
    ``Xflat``, the (n·d,) C-order ravel of X (the caller allocates both, so that no NumPy
    allocator is compiled into the kernel).

    ``nodes`` (4·node_count,) int64 packs (left, right, feature, threshold bits) per node and
    ``thresholds`` is the float64 view of the same buffer, so one node visit touches one cache
    line instead of four arrays; the child is read at offset ``x > θ`` (0 left, 1 right), a load
    instead of a branch. A walk is a chain of dependent loads, so four rows (i, i + q, i + 2q,
    i + 3q, q = ⌈n/4⌉) are walked together and their loads overlap; indices are unsigned, which
    spares Numba's negative-index wraparound on every load. A fully grown tree of depth 27 on
    40,000 × 20: 1.9-2.1 ms a walk of every row, 3.1-3.6 ms two rows at a time, about 5 ms one
    row at a time (a loop over a small array of R walks measured slower than these four named
    ones: 2.8-3.6 ms for R = 4, 8 or 16). The last walk's missing rows repeat row n − 1 rather
    than leaving a loop for the n mod 4 rows, and :func:`_child` is compiled once and called
    from the four places (LLVM inlines it when it links the two): copying it into each place
    at Numba's level (``inline="always"``) compiled 0.05-0.1 s slower, a forest's first fit.
    """
    n = out.shape[0]
    four = np.uint64(4)
    q = (n + 3) // 4  # rows per walk; the last walk's missing rows repeat row n − 1, unwritten
    for i in range(q):
        i1, i2, i3 = i + q, i + 2 * q, i + 3 * q
        r0 = np.uint64(i * d)
        r1 = np.uint64((i1 if i1 < n else n - 1) * d)  # not min(): one more implementation
        r2 = np.uint64((i2 if i2 < n else n - 1) * d)  # for Numba to compile
        r3 = np.uint64((i3 if i3 < n else n - 1) * d)
        b0 = b1 = b2 = b3 = np.uint64(0)
        while True:
            in0, in1 = nodes[b0] != -1, nodes[b1] != -1  # still at an inner node
            in2, in3 = nodes[b2] != -1, nodes[b3] != -1
            if not (in0 or in1 or in2 or in3):
                break
            if in0:
                b0 = _child(nodes, thresholds, Xflat, r0, b0)
            if in1:
                b1 = _child(nodes, thresholds, Xflat, r1, b1)
            if in2:
                b2 = _child(nodes, thresholds, Xflat, r2, b2)
            if in3:
                b3 = _child(nodes, thresholds, Xflat, r3, b3)
        out[i] = b0 // four
        if i1 < n:
            out[i1] = b1 // four
        if i2 < n:
            out[i2] = b2 // four
        if i3 < n:
            out[i3] = b3 // four


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _path_lengths(X, left, right, feature, threshold):
    """Node count of every row's root-to-leaf path, then the nodes, as CSR (indptr, indices)."""
    n = X.shape[0]
    indptr = np.zeros(n + 1, dtype=np.intp)
    for i in range(n):
        t, k = 0, 1
        while left[t] != -1:
            t = left[t] if X[i, feature[t]] <= threshold[t] else right[t]
            k += 1
        indptr[i + 1] = indptr[i] + k
    indices = np.empty(indptr[n], dtype=np.intp)
    for i in range(n):
        t, q = 0, indptr[i]
        indices[q] = 0
        while left[t] != -1:
            t = left[t] if X[i, feature[t]] <= threshold[t] else right[t]
            q += 1
            indices[q] = t
    return indptr, indices


def _max_depth(children_left, children_right) -> int:
    """Depth of the deepest node, level by level (one vectorised step per level, not a
    Python step per node: a forest builds many trees)."""
    if children_left.shape[0] == 0:
        return 0
    level, depth = np.array([0]), -1
    while level.size:
        depth += 1
        inner = level[children_left[level] != -1]
        level = np.concatenate([children_left[inner], children_right[inner]])
    return max(depth, 0)


class Tree:
    """A fitted binary tree as flat arrays; ``Tree(**arrays)`` with the eight arrays above.

    Derived: ``node_count``, ``max_depth`` (root depth 0), ``n_leaves``, ``n_features`` (one
    more than the largest feature index used, unless given; ``max_depth`` too, by the builder,
    which knows each node's depth), ``n_classes`` (``np.array([K])``)
    and ``n_outputs`` (1). The arrays are treated as read-only once built (``apply`` caches a
    packed copy of the structure): to change a tree, build a new ``Tree`` from new arrays.
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "node_count": ("int", ()),
        **{
            name: ("intp", ("node_count",))
            for name in ("children_left", "children_right", "feature", "n_node_samples")
        },
        **{
            name: ("float64", ("node_count",))
            for name in ("threshold", "impurity", "weighted_n_node_samples")
        },
        "value": ("float64", ("node_count", 1, "n_values")),
        "n_leaves": ("int", ()),
        "max_depth": ("int", ()),
        "n_features": ("int", ()),
        "n_classes": ("intp", (1,)),
        "n_outputs": ("int", ()),
    }

    def _check_fitted_state(self):
        """Every node's children come after it (so the nodes form a tree), leaves have both
        children -1, inner nodes split on a feature < n_features at a finite threshold."""
        extra = set(vars(self)) - set(self._fitted_spec)
        if extra:
            raise ValueError(f"unexpected tree attributes {sorted(extra)}")
        left, right, t = self.children_left, self.children_right, np.arange(self.node_count)
        leaf = left == -1
        inner = ~leaf
        if (
            np.any(leaf != (right == -1))
            or np.any(left[inner] <= t[inner])
            or np.any(right[inner] <= t[inner])
            or np.any(left[inner] >= self.node_count)
            or np.any(right[inner] >= self.node_count)
        ):
            raise ValueError("tree_ children_left / children_right do not form a tree")
        f = self.feature[inner]
        if (
            np.any(f < 0)
            or np.any(f >= self.n_features)
            or not np.all(np.isfinite(self.threshold[inner]))
        ):
            raise ValueError("tree_ has a split on an invalid feature or at a non-finite threshold")
        if (
            self.n_leaves != int(leaf.sum())
            or self.n_classes[0] != self.value.shape[2]
            or self.n_outputs != 1
        ):
            raise ValueError(
                "tree_ counts (n_leaves, n_classes, n_outputs) do not match its arrays"
            )

    def __init__(
        self,
        *,
        children_left,
        children_right,
        feature,
        threshold,
        impurity,
        n_node_samples,
        weighted_n_node_samples,
        value,
        n_features=None,
        max_depth=None,
    ):
        self.children_left = np.ascontiguousarray(children_left, dtype=np.intp)
        self.children_right = np.ascontiguousarray(children_right, dtype=np.intp)
        self.feature = np.ascontiguousarray(feature, dtype=np.intp)
        self.threshold = np.ascontiguousarray(threshold, dtype=np.float64)
        self.impurity = np.ascontiguousarray(impurity, dtype=np.float64)
        self.n_node_samples = np.ascontiguousarray(n_node_samples, dtype=np.intp)
        self.weighted_n_node_samples = np.ascontiguousarray(
            weighted_n_node_samples, dtype=np.float64
        )
        value = np.asarray(value, dtype=np.float64)
        self.value = value.reshape(value.shape[0], 1, -1) if value.ndim != 3 else value
        self.node_count = int(self.children_left.shape[0])
        for name in _FIELDS:
            if getattr(self, name).shape[0] != self.node_count:
                raise ValueError(
                    f"Tree arrays must all have one entry per node: {name} has "
                    f"{getattr(self, name).shape[0]}, children_left has {self.node_count}."
                )
        self.n_leaves = int(np.sum(self.children_left == -1))
        # given by the builder, which knows each node's depth; else found level by level
        self.max_depth = (
            int(max_depth)
            if max_depth is not None
            else _max_depth(self.children_left, self.children_right)
        )
        used = self.feature[self.feature >= 0]
        self.n_features = int(n_features if n_features is not None else used.max(initial=-1) + 1)
        self.n_classes = np.array([self.value.shape[2]], dtype=np.intp)
        self.n_outputs = 1

    #: Model files (:mod:`scratchlearn.io`) store a tree as its arrays and derived counts.
    _scratchlearn_serializable = True

    def __getstate__(self):
        """The arrays and counts, not the packed copy ``apply`` caches (rebuilt on first use)."""
        return {k: v for k, v in vars(self).items() if k != "_packed_nodes"}

    def as_dict(self) -> dict:
        """The eight arrays, keyed by name (``Tree(**tree.as_dict())`` copies the tree)."""
        return {name: getattr(self, name).copy() for name in _FIELDS}

    def _packed(self):
        packed = getattr(self, "_packed_nodes", None)
        if packed is None:
            packed = np.empty((self.node_count, 4), dtype=np.int64)
            packed[:, 0] = self.children_left
            packed[:, 1] = self.children_right
            packed[:, 2] = self.feature
            packed[:, 3] = self.threshold.view(np.int64)
            self._packed_nodes = packed
        return packed

    def apply(self, X):
        """Leaf index of every row of a validated float64 X (n, d)."""
        packed = self._packed().ravel()
        X = np.ascontiguousarray(X)
        out = np.empty(X.shape[0], dtype=np.intp)
        apply_tree(X.ravel(), X.shape[1], packed, packed.view(np.float64), out)
        return out

    def predict(self, X):
        """``value[apply(X)]``: (n, 1, K)."""
        return self.value[self.apply(X)]

    def decision_path(self, X):
        """CSR indicator (n, node_count): entry (i, t) is 1 when row i passes through node t."""
        indptr, indices = _path_lengths(
            X, self.children_left, self.children_right, self.feature, self.threshold
        )
        data = np.ones(indices.shape[0], dtype=np.intp)
        return sp.csr_matrix((data, indices, indptr), shape=(X.shape[0], self.node_count))

    def compute_feature_importances(self, normalize: bool = True):
        """Σ over the nodes splitting on j of N_t I_t − N_L I_L − N_R I_R, over N_root."""
        out = np.zeros(self.n_features)
        internal = np.flatnonzero(self.children_left != -1)
        L, R = self.children_left[internal], self.children_right[internal]
        NI = self.weighted_n_node_samples * self.impurity
        np.add.at(out, self.feature[internal], NI[internal] - NI[L] - NI[R])
        out /= self.weighted_n_node_samples[0]
        total = out.sum()
        if normalize and total > 0.0:
            out /= total
        return out
