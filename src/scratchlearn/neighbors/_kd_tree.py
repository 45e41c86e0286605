"""The k-d tree: exact nearest-neighbour and radius queries for the Minkowski distances.

Symbols::

    X  (n, d)   the training points          Q  (m, d)   the query points
    p           the Minkowski exponent, 1 ≤ p ≤ ∞ (p = ∞: Chebyshev)
    ρ(u, v)     the reduced distance Σ_j |u_j − v_j|^p (max_j |u_j − v_j| when p = ∞), so that
                dist(u, v) = ρ(u, v)^(1/p); ρ is monotone in dist, so every comparison uses ρ
                and the root is taken once, on the answers.

Build. The root holds every row. A node of more than ``leaf_size`` rows is split at its median
along the coordinate of largest spread (the first such coordinate, the spread being max − min
of the node's points): the left child gets the ⌊m/2⌋ rows of smallest value, found by
quickselect, the right child the other ⌈m/2⌉. Rows are permuted in place so that each node owns
a contiguous block; each node stores the bounding box of its points. Leaves hold at most
``leaf_size`` rows (scikit-learn fixes the depth instead, so its leaves hold leaf_size to
2·leaf_size rows).

Query (k nearest). Depth first, the nearer child first, with a max-heap of the k best
(ρ, index) pairs; a node is skipped when the lower bound of ρ over its box, Σ_j max(lo_j − q_j,
q_j − hi_j, 0)^p, exceeds the k-th best ρ. A row enters the heap when (ρ, index) is
lexicographically smaller than the heap's worst, so the answer is the brute-force one with ties
broken by the smaller training index.

Query (radius). Rows with ρ(q, x) ≤ r^p, i.e. dist ≤ r: a point at exactly distance r is
included, as in scikit-learn. A node whose box lies entirely within r is taken whole.

References
----------
Bentley, J. L. (1975). Multidimensional binary search trees used for associative searching.
Communications of the ACM 18(9), 509–517.

Friedman, J. H., Bentley, J. L. and Finkel, R. A. (1977). An algorithm for finding best matches
in logarithmic expected time. ACM Transactions on Mathematical Software 3(3), 209–226.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils.validation import check_array
from . import _kd_tree_kernels as kern

__all__ = ["KDTree"]

# metric name → (fixed p or None for "take p", kernel code given p)
_METRICS = {"euclidean": 2.0, "manhattan": 1.0, "chebyshev": np.inf, "minkowski": None}


def _code(p: float) -> int:
    """The kernel's name for ρ: 0 Chebyshev, 1 Manhattan, 2 Euclidean, 3 general Minkowski."""
    if p == np.inf:
        return 0
    return {1.0: 1, 2.0: 2}.get(p, 3)


def _split(flat: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Object array whose i-th entry is a copy of flat[offset[i] : offset[i + 1]]."""
    out = np.empty(offset.shape[0] - 1, dtype=object)
    for i in range(out.shape[0]):
        out[i] = flat[offset[i] : offset[i + 1]].copy()
    return out


class KDTree:
    """A k-d tree over the rows of X for exact k-nearest and radius queries.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The training points (copied to float64; never modified).
    leaf_size : int, default=40
        Largest number of rows in a leaf.
    metric : {"minkowski", "euclidean", "manhattan", "chebyshev"}, default="minkowski"
    p : float, default=2
        Exponent of the Minkowski distance, p ≥ 1; ``np.inf`` is Chebyshev. Used only when
        ``metric="minkowski"``; the other names fix p (2, 1 and ∞).

    Attributes
    ----------
    data : ndarray of shape (n_samples, n_features)
        Read-only view of the float64 copy of X, in the original row order.
    leaf_size, metric : as given.
    p : float
        The exponent in use (2.0 for "euclidean", 1.0 for "manhattan", inf for "chebyshev").

    Notes
    -----
    The mathematics (split rule, pruning bounds, tie rule) is in the module docstring. The
    kernels release the GIL, so blocks of queries may be run on threads by a caller.

    Built from X by its constructor (scikit-learn's API), it is a data structure, not an
    estimator: the registry, the command line and model files reach it through
    :class:`~scratchlearn.neighbors.NearestNeighbors` with ``algorithm="kd_tree"``, whose model
    file keeps the training rows and rebuilds the tree on the first query.
    """

    _parameter_constraints = {
        "leaf_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "metric": [StrOptions(set(_METRICS))],
        "p": [Interval(numbers.Real, 1, None, closed="left")],
    }

    def __init__(self, X, leaf_size=40, metric="minkowski", p=2):
        validate_params(
            self._parameter_constraints,
            {"leaf_size": leaf_size, "metric": metric, "p": p},
            "KDTree",
        )
        data = check_array(X, dtype=np.float64, order="C", copy=True, input_name="X")
        data.flags.writeable = False
        fixed = _METRICS[metric]
        self.data = data
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = float(p) if fixed is None else fixed
        self._code = _code(self.p)
        (n, d), n_nodes = data.shape, kern.count_nodes(data.shape[0], leaf_size)
        self._perm = np.arange(n, dtype=np.intp)
        self._start, self._end, self._left, self._first = np.empty((4, n_nodes), np.intp)
        self._lo, self._hi = np.empty((n_nodes, d)), np.empty((n_nodes, d))
        tree = (self._perm, self._start, self._end, self._left, self._lo, self._hi, self._first)
        self._X = data.copy()  # permuted by the build, with _perm: rows in leaf order
        kern.build(self._X, leaf_size, *tree)

    # ------------------------------------------------------------------------------------------

    def _check_queries(self, X) -> np.ndarray:
        Q = check_array(X, dtype=np.float64, order="C", input_name="X")
        if Q.shape[1] != self.data.shape[1]:
            raise ValueError(
                f"X has {Q.shape[1]} features, but this KDTree was built on "
                f"{self.data.shape[1]} features."
            )
        return Q

    def _root(self, rho: np.ndarray) -> np.ndarray:
        """dist = ρ^(1/p), in place (ρ itself for p = 1 and p = ∞)."""
        if self._code == 2:
            np.sqrt(rho, out=rho)
        elif self._code == 3:
            np.power(rho, 1.0 / self.p, out=rho)
        return rho

    def _tree(self):
        return self._X, self._perm, self._start, self._end, self._left, self._lo, self._hi

    def query(
        self, X, k=1, return_distance=True, dualtree=False, breadth_first=False, sort_results=True
    ):
        """The k nearest training rows of each row of X.

        Returns ``(dist, ind)``, both of shape (n_queries, k) (float64, intp), sorted by
        increasing distance with ties in increasing training index when ``sort_results``; or
        ``ind`` alone when ``return_distance=False``. ``dualtree`` and ``breadth_first`` are
        accepted for scikit-learn compatibility and run the same single-tree depth-first
        search, which gives the same answer.
        """
        n = self.data.shape[0]
        if not isinstance(k, numbers.Integral) or isinstance(k, bool) or k < 1:
            raise ValueError(f"k must be a positive int; got {k!r}.")
        if k > n:
            raise ValueError(
                f"k = {k} is larger than the number of training points ({n}) of this KDTree."
            )
        Q = self._check_queries(X)
        m, n_nodes = Q.shape[0], self._start.shape[0]
        rho, ind = np.empty((m, k)), np.empty((m, k), np.intp)
        stack_t, stack_b = np.empty(n_nodes + 1, np.intp), np.empty(n_nodes + 1)
        tree = (*self._tree(), self._first, Q, self._code, self.p, bool(sort_results))
        kern.query_knn(*tree, rho, ind, stack_t, stack_b)
        if not return_distance:
            return ind
        return self._root(rho), ind

    def query_radius(self, X, r, return_distance=False, count_only=False, sort_results=False):
        """Training rows within distance r (dist ≤ r) of each row of X.

        ``r`` is one radius or one per query. Returns an object array of index arrays (one per
        query, in tree order unless ``sort_results``), with a matching object array of distances
        when ``return_distance`` (as ``(ind, dist)``), or the counts (intp) when ``count_only``.
        ``sort_results`` orders each query's rows by distance, then index; it needs
        ``return_distance=True``.
        """
        if count_only and return_distance:
            raise ValueError("count_only and return_distance cannot both be true.")
        if sort_results and not return_distance:
            raise ValueError("sort_results=True requires return_distance=True.")
        Q = self._check_queries(X)
        r_rho = self._reduced_radius(r, Q.shape[0])
        tree = (*self._tree(), Q, r_rho, self._code, self.p)
        none_j, none_rho = np.empty(0, np.intp), np.empty(0)
        counts = np.empty(Q.shape[0], np.intp)
        stack = np.empty(self._start.shape[0] + 1, np.intp)
        kern.query_radius(*tree, none_j, none_j, none_rho, counts, stack)
        if count_only:
            return counts
        offset = np.zeros(Q.shape[0] + 1, np.intp)
        np.cumsum(counts, out=offset[1:])
        out_j = np.empty(offset[-1], np.intp)
        out_rho = np.empty(offset[-1] if return_distance else 0)
        kern.query_radius(*tree, offset, out_j, out_rho, counts, stack)
        if sort_results:
            kern.sort_segments(offset, out_j, out_rho)
        ind = _split(out_j, offset)
        if not return_distance:
            return ind
        return ind, _split(self._root(out_rho), offset)

    def _reduced_radius(self, r, m: int) -> np.ndarray:
        """r^p per query (r itself for p = 1 and p = ∞), after checking r ≥ 0 and its shape."""
        try:
            r = np.asarray(r, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"r must be a number or an array of numbers; got {r!r}.") from None
        if r.ndim == 0 or r.shape == (1,):
            r = np.full(m, float(r.reshape(-1)[0]))
        elif r.shape != (m,):
            raise ValueError(
                f"r must be a scalar or have one radius per query ({m}); got {r.shape}."
            )
        if np.isnan(r).any() or (r < 0).any():
            raise ValueError("r must be non-negative (and not NaN).")
        if self._code == 2:
            return r * r
        if self._code == 3:
            return r**self.p
        return r.copy()
