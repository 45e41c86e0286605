r"""The shared shell of the neighbour estimators: metric and algorithm resolution, the queries
``kneighbors`` / ``radius_neighbors`` and their sparse graphs, and the vote weights.

Symbols: ``n`` queries, ``m`` training points (``n_samples_fit_``), ``d`` features, ``k``
neighbours, ``N(x)`` the neighbour set of a query ``x`` and ``d_j = dist(x, x_j)``.

Metrics. ``"minkowski"`` with ``p = 1``, ``2`` or ``∞`` is resolved to Manhattan, Euclidean or
Chebyshev (``effective_metric_``), any other ``p ≥ 1`` stays Minkowski; Euclidean-family
distances are computed by matrix products with the chosen neighbours' distances recomputed
exactly (see :mod:`scratchlearn.metrics._argkmin`). A callable ``f(x, y, **metric_params)`` is
applied to every pair of rows (brute force only).

Algorithm. ``"auto"`` picks the k-d tree when the metric is of the Minkowski family and
``d ≤ 15`` (and, for k-neighbour queries, ``k < m/2``), brute force otherwise. Why: a k-d tree
skips a cell only when the ball around the query misses it, and the number of cells such a
ball meets grows like ``2^d``, so beyond about fifteen dimensions almost every leaf is visited
and the tree's bookkeeping costs more than the blocked matrix product; when ``k`` is a large
fraction of ``m`` every query visits most of the points anyway. This is scikit-learn's rule.

Vote weights ``w_j`` of a neighbour:

* ``"uniform"``: ``w_j = 1``;
* ``"distance"``: ``w_j = 1/d_j``; when a query is at distance exactly 0 from one or more of its
  neighbours (a duplicate of a training point), those neighbours get weight 1 and every other
  neighbour weight 0: the exact matches take all the weight;
* a callable: ``w = weights(dist)`` applied to the (n, k) distance array, same shape back.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator
from ..metrics._argkmin import argkmin, radius_neighbors_blocked
from ..utils._dask import is_dask_collection
from ..utils._param_validation import N_JOBS, Interval, StrOptions
from ..utils.validation import check_is_fitted

__all__ = ["NeighborsBase", "KNeighborsMixin", "RadiusNeighborsMixin", "neighbor_weights"]

METRICS = frozenset(
    {"euclidean", "l2", "sqeuclidean", "manhattan", "cityblock", "l1", "chebyshev"}
    | {"minkowski", "cosine", "hamming"}
)
_ALIASES = {"l2": "euclidean", "l1": "manhattan", "cityblock": "manhattan"}
#: Effective metrics the k-d tree serves (the Minkowski family).
TREE_METRICS = ("euclidean", "manhattan", "chebyshev", "minkowski")
MAX_TREE_DIMENSION = 15


def resolve_metric(metric, p, metric_params):
    """(effective metric, its keyword arguments) from the user's ``metric``, ``p`` and
    ``metric_params``; Minkowski with p = 1, 2, ∞ becomes Manhattan, Euclidean, Chebyshev."""
    params = dict(metric_params or {})
    if callable(metric):
        return metric, params
    metric = _ALIASES.get(metric, metric)
    if metric != "minkowski":
        return metric, params
    p = params.pop("p", p)
    if not isinstance(p, numbers.Real) or isinstance(p, bool) or np.isnan(p) or p < 1:
        raise ValueError(f"Minkowski distance needs p >= 1; got p={p!r}.")
    named = {1: "manhattan", 2: "euclidean", np.inf: "chebyshev"}
    if p in named:
        return named[p], params
    return "minkowski", {**params, "p": float(p)}


def neighbor_weights(dist, weights):
    """The (n, k) vote weights of the neighbours at distances ``dist`` (see the module notes);
    ``None`` for uniform weights."""
    if weights == "uniform":
        return None
    if callable(weights):
        w = np.asarray(weights(dist), dtype=np.float64)
        if w.shape != np.shape(dist):
            raise ValueError(
                f"The weights callable returned shape {w.shape}; expected {np.shape(dist)}, the "
                "shape of the distances it was given."
            )
        return w
    with np.errstate(divide="ignore"):
        w = 1.0 / dist
    exact = np.isinf(w)  # d_j = 0: exact matches
    rows = np.any(exact, axis=1)
    w[rows] = exact[rows]
    return w


def _in_memory(*arrays):
    """The arrays computed into memory if they are Dask arrays (a sparse graph is built in
    memory, of the size of the answer); unchanged otherwise."""
    if not any(is_dask_collection(a) for a in arrays):
        return arrays
    import dask

    return dask.compute(*arrays)


def _object_array(parts):
    out = np.empty(len(parts), dtype=object)
    out[:] = parts
    return out


class NeighborsBase(BaseEstimator):
    """Stores the training points; resolves the metric and the algorithm once, in ``fit``."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "n_samples_fit_": ("int", ()),
        "_fit_X": ("float64", ("n_samples_fit_", "n_features_in_")),
        "effective_metric_": ("str", ()),
        "effective_metric_params_": ("dict", None),
        "_fit_method": ("str", ()),
    }

    def _check_fitted_state(self):
        """A known search method, and no k-d tree from the file (it is rebuilt from _fit_X)."""
        if self._fit_method not in ("brute", "kd_tree") or "_tree" in vars(self):
            raise ValueError(f"_fit_method {self._fit_method!r} or a stored _tree")
        y = vars(self).get("_y")
        if y is not None and (
            not isinstance(y, np.ndarray) or y.shape[:1] != (self.n_samples_fit_,)
        ):
            raise ValueError(f"_y must have one row per sample of _fit_X ({self.n_samples_fit_})")

    _parameter_constraints = {
        "algorithm": [StrOptions({"auto", "brute", "kd_tree"})],
        "leaf_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "metric": [StrOptions(METRICS), "callable"],
        "p": [Interval(numbers.Real, 1, None, closed="left")],
        "metric_params": [dict, None],
        "n_jobs": N_JOBS,
    }

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(dask=True)  # fit gathers a Dask training set; queries run block by block
        return t

    def _fit(self, X, y=None, **check):
        self._validate_params()
        if is_dask_collection(X):  # validated lazily, then computed into memory (._dask)
            from ._dask import gather_training

            X, y = gather_training(self, X, y, **check)
        elif not self._scratch_tags()["requires_y"]:
            X = self._validate_data(X, dtype=np.float64)
        else:
            X, y = self._validate_data(X, y, **check)
            X = np.asarray(X, dtype=np.float64)
        self._fit_X = np.array(X, dtype=np.float64, order="C")  # own copy, rows contiguous
        self.n_samples_fit_ = m = X.shape[0]
        self.effective_metric_, self.effective_metric_params_ = resolve_metric(
            self.metric, self.p, self.metric_params
        )
        self._fit_method = self._choose_algorithm(m, X.shape[1])
        if self._fit_method == "kd_tree":
            self._get_tree()
        return y

    def _choose_algorithm(self, m, d):
        metric = self.effective_metric_
        tree_ok = isinstance(metric, str) and metric in TREE_METRICS
        if self.algorithm == "kd_tree":
            if not tree_ok:
                name = getattr(metric, "__name__", metric)
                raise ValueError(
                    f"Metric {name!r} is not valid for algorithm 'kd_tree': the k-d tree serves "
                    f"{', '.join(TREE_METRICS)}. Use algorithm='brute'."
                )
            return "kd_tree"
        if self.algorithm == "brute" or not tree_ok or d > MAX_TREE_DIMENSION:
            return "brute"
        k = getattr(self, "n_neighbors", None)
        if k is not None and k >= m // 2:
            return "brute"
        return "kd_tree"

    def _get_tree(self):
        """The k-d tree over the training points, built on first use (and after a load)."""
        tree = self.__dict__.get("_tree")
        if tree is None:
            from ._kd_tree import KDTree

            metric = self.effective_metric_
            p = self.effective_metric_params_.get("p", 2)
            tree = KDTree(self._fit_X, leaf_size=self.leaf_size, metric=metric, p=p)
            self._tree = tree
        return tree

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_tree", None)  # rebuilt from _fit_X on first use: model files hold data only
        return state

    def _check_query(self, X):
        check_is_fitted(self, "_fit_X")
        if is_dask_collection(X):  # validated lazily, block by block (._dask)
            return X, False
        if X is None:
            return self._fit_X, True
        return self._validate_data(X, reset=False, dtype=np.float64), False


class KNeighborsMixin:
    """``kneighbors`` and ``kneighbors_graph``."""

    def _check_n_neighbors_fit(self):
        """A k-NN predictor refuses k > n at fit time (scikit-learn waits until predict)."""
        if self.n_neighbors > self.n_samples_fit_:
            raise ValueError(
                f"n_neighbors = {self.n_neighbors} is larger than the number of training "
                f"samples, n_samples = {self.n_samples_fit_}."
            )

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """The ``n_neighbors`` nearest training points of each query, nearest first.

        ``X=None`` queries the training points themselves, each one excluded from its own
        neighbours (when duplicates outnumber the neighbours and the point itself is not
        among them, the first is dropped instead). Ties in distance: lower training index
        first. Returns ``(dist, ind)``, each (n, k), or ``ind`` alone: lazy Dask arrays, block
        by block along its row chunks, for a Dask X (see :mod:`scratchlearn.neighbors._dask`).
        """
        X, query_is_train = self._check_query(X)
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if not isinstance(k, numbers.Integral) or isinstance(k, bool) or k < 1:
            raise ValueError(f"n_neighbors must be a positive int; got {k!r}.")
        k_query = k + 1 if query_is_train else k
        m = self.n_samples_fit_
        if k_query > m:
            extra = " (one more than n_neighbors, since X=None excludes each point)"
            raise ValueError(
                f"Expected n_neighbors <= n_samples_fit, but n_neighbors = {k_query}"
                f"{extra if query_is_train else ''}, n_samples_fit = {m}."
            )
        if is_dask_collection(X):
            from ._dask import kneighbors_dask

            return kneighbors_dask(self, X, int(k), return_distance)
        dist, ind = self._kneighbors_query(X, int(k_query))
        if query_is_train:
            keep = ind != np.arange(X.shape[0])[:, None]  # drop each point itself...
            keep[np.all(keep, axis=1), 0] = False  # ...or, absent (duplicates), the first
            dist = dist[keep].reshape(X.shape[0], k)
            ind = ind[keep].reshape(X.shape[0], k)
        return (dist, ind) if return_distance else ind

    def _kneighbors_query(self, X, k):
        if self._fit_method == "kd_tree":
            dist, ind = self._get_tree().query(X, k=k, return_distance=True)
            return np.asarray(dist, dtype=np.float64), np.asarray(ind, dtype=np.intp)
        return argkmin(
            X,
            self._fit_X,
            k,
            metric=self.effective_metric_,
            metric_kwargs=self.effective_metric_params_,
            n_jobs=self.n_jobs,
        )

    def kneighbors_graph(self, X=None, n_neighbors=None, mode="connectivity"):
        """Sparse CSR (n, m) graph: row i holds its k neighbours, with 1 (``"connectivity"``)
        or the distance (``"distance"``). A Dask X is queried block by block, and the answer
        computed into memory to build the matrix."""
        if mode not in ("connectivity", "distance"):
            raise ValueError(f"mode must be 'connectivity' or 'distance'; got {mode!r}.")
        dist, ind = _in_memory(*self.kneighbors(X, n_neighbors))
        n, k = ind.shape
        data = np.ones(n * k) if mode == "connectivity" else dist.ravel()
        return sp.csr_matrix(
            (data, ind.ravel(), np.arange(0, n * k + 1, k)), shape=(n, self.n_samples_fit_)
        )


class RadiusNeighborsMixin:
    """``radius_neighbors`` and ``radius_neighbors_graph``."""

    def radius_neighbors(self, X=None, radius=None, return_distance=True, sort_results=False):
        """The training points within ``radius`` (inclusive) of each query.

        Returns object arrays of n index arrays (and of n distance arrays), in training-index
        order, or sorted by (distance, index) with ``sort_results``. ``X=None`` queries the
        training points, each excluded from its own neighbours. For a Dask X, lazy object-dtype
        Dask arrays, block by block along its row chunks (see :mod:`scratchlearn.neighbors._dask`).
        """
        X, query_is_train = self._check_query(X)
        r = self.radius if radius is None else radius
        if not isinstance(r, numbers.Real) or isinstance(r, bool) or not r > 0:
            raise ValueError(f"radius must be a real number > 0; got {r!r}.")
        if sort_results and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True.")
        if is_dask_collection(X):
            from ._dask import radius_neighbors_dask

            return radius_neighbors_dask(self, X, float(r), return_distance, sort_results)
        ind, dist = self._radius_query(X, float(r))
        if query_is_train:
            keep = [i_row != i for i, i_row in enumerate(ind)]
            ind = [a[k] for a, k in zip(ind, keep)]
            dist = [a[k] for a, k in zip(dist, keep)]
        if sort_results:
            order = [np.lexsort((a, b)) for a, b in zip(ind, dist)]
            ind = [a[o] for a, o in zip(ind, order)]
            dist = [b[o] for b, o in zip(dist, order)]
        ind = _object_array(ind)
        return (_object_array(dist), ind) if return_distance else ind

    def _radius_query(self, X, r):
        if self._fit_method == "kd_tree":
            ind, dist = self._get_tree().query_radius(X, r, return_distance=True)
            order = [np.argsort(a, kind="stable") for a in ind]
            return [a[o] for a, o in zip(ind, order)], [b[o] for b, o in zip(dist, order)]
        return radius_neighbors_blocked(
            X,
            self._fit_X,
            r,
            metric=self.effective_metric_,
            metric_kwargs=self.effective_metric_params_,
            n_jobs=self.n_jobs,
        )

    def radius_neighbors_graph(self, X=None, radius=None, mode="connectivity", sort_results=False):
        """Sparse CSR (n, m) graph of the neighbours within ``radius`` (1 or the distance); a
        Dask X as in :meth:`KNeighborsMixin.kneighbors_graph`."""
        if mode not in ("connectivity", "distance"):
            raise ValueError(f"mode must be 'connectivity' or 'distance'; got {mode!r}.")
        dist, ind = _in_memory(*self.radius_neighbors(X, radius, sort_results=sort_results))
        counts = np.array([len(a) for a in ind], dtype=np.intp)
        indptr = np.concatenate([[0], np.cumsum(counts)])
        cols = np.concatenate(list(ind)) if len(ind) else np.empty(0, dtype=np.intp)
        data = np.concatenate(list(dist)) if mode == "distance" and len(ind) else np.ones(len(cols))
        return sp.csr_matrix((data, cols, indptr), shape=(len(ind), self.n_samples_fit_))
