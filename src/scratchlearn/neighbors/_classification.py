r"""Classification by the vote of the nearest training points.

Symbols: classes ``c = 1..K``, a query ``x`` with neighbour set ``N(x)`` (its k nearest, or
those within the radius), vote weights ``w_j`` (see :mod:`._base`). The class probabilities are
the normalised weighted vote

.. math:: P(c \mid x) = \frac{\sum_{j \in N(x)} w_j [y_j = c]}{\sum_{j \in N(x)} w_j},

and the prediction is ``argmax_c P(c | x)``, the lowest class among equal votes.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..base import ClassifierMixin
from ..utils._dask import is_dask_collection
from ..utils._dask_predict import answers_dask
from ..utils._param_validation import Interval, StrOptions
from ..utils.multiclass import check_classification_targets, class_codes
from ..utils.validation import check_is_fitted
from ._base import KNeighborsMixin, NeighborsBase, RadiusNeighborsMixin, neighbor_weights

__all__ = ["KNeighborsClassifier", "RadiusNeighborsClassifier"]


def _vote(codes, w, rows, K, n):
    """(n, K) normalised vote: ``codes`` the class index of each neighbour, ``w`` its weight
    (None: 1), ``rows`` its query row; all flat arrays of the same length."""
    weights = None if w is None else w
    P = np.bincount(rows * K + codes, weights=weights, minlength=n * K).reshape(n, K)
    P = P.astype(np.float64, copy=False)
    total = P.sum(axis=1, keepdims=True)
    total[total == 0.0] = 1.0  # all-zero weights (a callable's choice): an all-zero row
    return P / total


class _ClassifierBase(ClassifierMixin, NeighborsBase):
    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "classes_": ("label", ("n_classes",)),
        "_y": ("int", ("n_samples_fit_",)),
        "outlier_label_": (None, None, "optional"),
    }

    def fit(self, X, y):
        """Store the training points and their labels. Returns self."""
        y = self._fit(X, y)
        check_classification_targets(y)
        self.classes_, self._y = class_codes(y)
        self._after_fit(y)
        return self

    def _after_fit(self, y):
        pass

    @answers_dask  # its own block path (._dask): lazy checks, no probe row
    def predict(self, X):
        """The class of largest (weighted) vote among each query's neighbours (lazily, block
        by block, for a Dask X)."""
        if is_dask_collection(X):
            from ._dask import predict_dask

            check_is_fitted(self, "_fit_X")
            return predict_dask(self, X, "predict", dtype=self.classes_.dtype)
        P = self.predict_proba(X)  # (n, K); checks the fit before classes_ is read
        return self.classes_[np.argmax(P, axis=1)]


class KNeighborsClassifier(KNeighborsMixin, _ClassifierBase):
    r"""k-nearest-neighbour vote.

    Parameters
    ----------
    n_neighbors : int, k (default 5).
    weights : "uniform", "distance" (``1/d``, exact matches taking all the weight) or a
        callable mapping the (n, k) distances to weights.
    algorithm : "auto", "brute" or "kd_tree" (see :mod:`scratchlearn.neighbors._base`).
    leaf_size : int, points per leaf of the k-d tree.
    metric : "minkowski" (with ``p``), "euclidean", "sqeuclidean", "manhattan", "chebyshev",
        "cosine", "hamming" or a callable ``f(x, y) -> float`` (brute force only).
    p : float ≥ 1, the Minkowski power (p = 1 Manhattan, 2 Euclidean, inf Chebyshev).
    metric_params : dict of extra keywords for the metric.
    n_jobs : threads over blocks of queries for brute force (None: every core through Numba's
        thread count for Euclidean distances with at most 64 features, else one thread and the
        BLAS's own; -1: every core).

    Attributes
    ----------
    classes_, effective_metric_, effective_metric_params_, n_features_in_, n_samples_fit_.

    Dask
    ----
    Queries given as a Dask array or DataFrame (``predict``, ``predict_proba``, ``kneighbors``)
    are answered lazily, one task per row block, the fitted model placed in the graph once: the
    answers are the in-memory ones bit for bit, whatever the chunking. ``kneighbors`` gives two
    lazy arrays (distances, intp indices); the radius estimators' ``radius_neighbors`` lazy
    object-dtype arrays.
    ``fit`` on a Dask array gathers the training points into memory: a neighbour model is its
    training set (every query needs all of it), so gathering it once keeps the in-memory model,
    its k-d tree and its answers exactly, where brute force block against block would send
    every training block to every query block. The points must fill at most a quarter of the
    smallest worker's memory limit, else the fit is refused before anything is computed.
    ``kneighbors()`` without X then queries them in memory. See
    :mod:`scratchlearn.neighbors._dask`.

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.model_selection import train_test_split
    >>> from scratchlearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, stratify=y, random_state=0)
    >>> knn = KNeighborsClassifier(n_neighbors=5).fit(X_train, y_train)
    >>> print(knn.classes_.tolist(), knn.n_samples_fit_, round(knn.score(X_test, y_test), 3))
    [0, 1, 2] 112 0.947
    """

    _parameter_constraints = {
        **NeighborsBase._parameter_constraints,
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "weights": [StrOptions({"uniform", "distance"}), "callable"],
    }

    def __init__(
        self,
        n_neighbors=5,
        *,
        weights="uniform",
        algorithm="auto",
        leaf_size=30,
        p=2,
        metric="minkowski",
        metric_params=None,
        n_jobs=None,
    ):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def _after_fit(self, y):
        self._check_n_neighbors_fit()

    @answers_dask  # its own block path (._dask): lazy checks, no probe row
    def predict_proba(self, X):
        """(n, K) weighted vote of the k nearest neighbours; rows sum to one (lazily, block by
        block, for a Dask X)."""
        if is_dask_collection(X):
            from ._dask import predict_dask

            check_is_fitted(self, "_fit_X")
            return predict_dask(self, X, "predict_proba", n_out=len(self.classes_))
        dist, ind = self.kneighbors(X)
        n, k = ind.shape
        w = neighbor_weights(dist, self.weights)
        rows = np.repeat(np.arange(n), k)
        return _vote(
            self._y[ind].ravel(), None if w is None else w.ravel(), rows, len(self.classes_), n
        )


class RadiusNeighborsClassifier(RadiusNeighborsMixin, _ClassifierBase):
    r"""Vote of every training point within ``radius`` of the query.

    A query with no training point within the radius is an outlier. ``outlier_label`` says
    what it gets: None raises a ``ValueError`` naming the outlying rows; ``"most_frequent"``
    the most frequent training class; any other value that label (its probability row is
    one-hot on it when it is a class, all zeros, with a warning, when it is not).
    Other parameters as :class:`KNeighborsClassifier`, with ``radius`` (> 0) for ``n_neighbors``;
    on Dask as :class:`KNeighborsClassifier` (a Dask block names its outlying rows by their
    row in the whole array; the warning of an outlier label that is not a class is raised on
    the worker that computes the block).

    Examples
    --------
    >>> from scratchlearn.neighbors import RadiusNeighborsClassifier
    >>> X = [[0.0], [0.5], [1.0], [5.0], [5.5], [6.0]]
    >>> y = ["low", "low", "low", "high", "high", "high"]
    >>> clf = RadiusNeighborsClassifier(radius=1.0, outlier_label="most_frequent").fit(X, y)
    >>> print(clf.predict([[0.8], [5.2], [20.0]]).tolist())
    ['low', 'high', 'high']
    """

    _parameter_constraints = {
        **NeighborsBase._parameter_constraints,
        "radius": [Interval(numbers.Real, 0, None, closed="neither")],
        "weights": [StrOptions({"uniform", "distance"}), "callable"],
        "outlier_label": [None, "no_validation"],
    }

    def __init__(
        self,
        radius=1.0,
        *,
        weights="uniform",
        algorithm="auto",
        leaf_size=30,
        p=2,
        metric="minkowski",
        outlier_label=None,
        metric_params=None,
        n_jobs=None,
    ):
        self.radius = radius
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.outlier_label = outlier_label
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def _after_fit(self, y):
        label = self.outlier_label
        if isinstance(label, str) and label == "most_frequent":
            label = self.classes_[np.argmax(np.bincount(self._y))]
        self.outlier_label_ = label

    def _vote_with_outliers(self, X, first_row=0):
        """(P, outliers) of the queries X, rows ``first_row + i`` of the caller's array (a
        Dask block's offset, for the rows an error names)."""
        dist, ind = self.radius_neighbors(X)
        n, K = len(ind), len(self.classes_)
        counts = np.array([len(a) for a in ind])
        outliers = np.flatnonzero(counts == 0)
        if outliers.size and self.outlier_label_ is None:
            named = (outliers[:10] + first_row).tolist()
            raise ValueError(
                f"No training point lies within radius {self.radius} of the query rows "
                f"{named}{' ...' if outliers.size > 10 else ''}: use a larger "
                "radius, set outlier_label (a label or 'most_frequent'), or remove those rows."
            )
        flat_ind = np.concatenate(list(ind)) if n else np.empty(0, dtype=np.intp)
        w = None
        if self.weights != "uniform":
            w = np.concatenate([neighbor_weights(d[None, :], self.weights)[0] for d in dist])
        P = _vote(self._y[flat_ind], w, np.repeat(np.arange(n), counts), K, n)
        return P, outliers

    @answers_dask  # its own block path (._dask): lazy checks, no probe row
    def predict_proba(self, X):
        """(n, K) weighted vote of the neighbours within the radius (outliers: see the class);
        lazily, block by block, for a Dask X (a block warns on the worker that computes it)."""
        if is_dask_collection(X):
            from ._dask import predict_dask

            check_is_fitted(self, "_fit_X")
            return predict_dask(self, X, "_block_predict_proba", n_out=len(self.classes_))
        return self._block_predict_proba(X)

    def _block_predict_proba(self, X, first_row=0):
        P, outliers = self._vote_with_outliers(X, first_row)
        if outliers.size:
            hit = np.flatnonzero(self.classes_ == self.outlier_label_)
            if hit.size:
                P[outliers, hit[0]] = 1.0
            else:
                warnings.warn(
                    f"outlier_label {self.outlier_label_!r} is not a class: the outlying rows "
                    f"{(outliers[:10] + first_row).tolist()} get probability 0 for every class.",
                    UserWarning,
                    stacklevel=3,
                )
        return P

    @answers_dask  # its own block path (._dask): lazy checks, no probe row
    def predict(self, X):
        """The class of largest vote; outliers get ``outlier_label_`` (lazily, block by block,
        for a Dask X)."""
        if is_dask_collection(X):
            from ._dask import predict_dask

            check_is_fitted(self, "_fit_X")
            dtype = self.classes_.dtype
            if self.outlier_label_ is not None:
                dtype = np.result_type(dtype, np.asarray(self.outlier_label_))
            return predict_dask(self, X, "_block_predict", dtype=dtype)
        return self._block_predict(X)

    def _block_predict(self, X, first_row=0):
        P, outliers = self._vote_with_outliers(X, first_row)
        labels = self.classes_[np.argmax(P, axis=1)]
        if outliers.size:
            labels = labels.astype(np.result_type(labels, np.asarray(self.outlier_label_)))
            labels[outliers] = self.outlier_label_
        return labels
