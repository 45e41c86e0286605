r"""Regression by the weighted mean of the nearest training targets.

With neighbour set ``N(x)`` and vote weights ``w_j`` (see :mod:`._base`),

.. math:: \hat y(x) = \frac{\sum_{j \in N(x)} w_j\, y_j}{\sum_{j \in N(x)} w_j},

column by column for a two-dimensional target.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..base import RegressorMixin
from ..utils._dask import is_dask_collection
from ..utils._dask_predict import answers_dask
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import check_is_fitted
from ._base import KNeighborsMixin, NeighborsBase, RadiusNeighborsMixin, neighbor_weights

__all__ = ["KNeighborsRegressor", "RadiusNeighborsRegressor"]


def _weighted_mean(Yn, w):
    """Σ w_j y_j / Σ w_j over axis 1 of ``Yn`` (n, k, t); ``w`` (n, k) or None (uniform)."""
    if w is None:
        return Yn.mean(axis=1)
    return np.einsum("ij,ijt->it", w, Yn) / w.sum(axis=1)[:, None]


class _RegressorBase(RegressorMixin, NeighborsBase):
    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"_y": ("float64", None)}

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(multi_output=True)
        return t

    def fit(self, X, y):
        """Store the training points and their targets (1-D or 2-D). Returns self."""
        y = self._fit(X, y, multi_output=True, y_numeric=True)
        self._y = np.asarray(y, dtype=np.float64)
        self._after_fit()
        return self

    def _after_fit(self):
        pass

    def _targets(self):
        return self._y[:, None] if self._y.ndim == 1 else self._y  # (m, t)

    def _shape_out(self, pred):
        return pred[:, 0] if self._y.ndim == 1 else pred

    def _predict_dask(self, X, method="predict"):
        """The prediction of a Dask X, lazily, block by block along its row chunks."""
        from ._dask import predict_dask

        check_is_fitted(self, "_fit_X")
        n_out = None if self._y.ndim == 1 else self._y.shape[1]
        return predict_dask(self, X, method, n_out=n_out)


class KNeighborsRegressor(KNeighborsMixin, _RegressorBase):
    """Mean of the k nearest targets, uniform or weighted (parameters, and Dask input, as
    :class:`~scratchlearn.neighbors.KNeighborsClassifier`).

    Examples
    --------
    >>> from scratchlearn.neighbors import KNeighborsRegressor
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0]]
    >>> y = [0.0, 1.0, 4.0, 9.0, 16.0]
    >>> knn = KNeighborsRegressor(n_neighbors=2).fit(X, y)
    >>> print(knn.predict([[1.4], [3.9]]))
    [ 2.5 12.5]
    >>> dist, idx = knn.kneighbors([[1.4]])
    >>> print(dist.round(3), idx.tolist())
    [[0.4 0.6]] [[1, 2]]
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

    def _after_fit(self):
        self._check_n_neighbors_fit()

    @answers_dask  # its own block path (._dask): lazy checks, no probe row
    def predict(self, X):
        """ŷ = Σ w_j y_j / Σ w_j over the k nearest neighbours (lazily for a Dask X)."""
        if is_dask_collection(X):
            return self._predict_dask(X)
        dist, ind = self.kneighbors(X)
        w = neighbor_weights(dist, self.weights)
        return self._shape_out(_weighted_mean(self._targets()[ind], w))


class RadiusNeighborsRegressor(RadiusNeighborsMixin, _RegressorBase):
    """Mean of the targets within ``radius``; a query with no neighbour gets NaN, with a
    warning naming the rows (parameters, and Dask input, as :class:`RadiusNeighborsClassifier`;
    on Dask the warning is raised on the worker that computes the block).

    Examples
    --------
    >>> from scratchlearn.neighbors import RadiusNeighborsRegressor
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0]]
    >>> y = [0.0, 1.0, 4.0, 9.0, 16.0]
    >>> reg = RadiusNeighborsRegressor(radius=1.5).fit(X, y)
    >>> print(reg.predict([[1.0], [3.5]]).round(3))
    [1.667 9.667]
    """

    _parameter_constraints = {
        **NeighborsBase._parameter_constraints,
        "radius": [Interval(numbers.Real, 0, None, closed="neither")],
        "weights": [StrOptions({"uniform", "distance"}), "callable"],
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
        metric_params=None,
        n_jobs=None,
    ):
        self.radius = radius
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    @answers_dask  # its own block path (._dask): lazy checks, no probe row
    def predict(self, X):
        """ŷ = Σ w_j y_j / Σ w_j over the neighbours within the radius (NaN when none; lazily
        for a Dask X, whose blocks warn on the worker that computes them)."""
        if is_dask_collection(X):
            return self._predict_dask(X, "_block_predict")
        return self._block_predict(X)

    def _block_predict(self, X, first_row=0):
        """The prediction of X, rows ``first_row + i`` of the caller's array (a Dask block's
        offset, for the rows the warning names)."""
        dist, ind = self.radius_neighbors(X)
        Y = self._targets()
        pred = np.full((len(ind), Y.shape[1]), np.nan)
        empty = []
        for i, (d, j) in enumerate(zip(dist, ind)):
            if len(j) == 0:
                empty.append(first_row + i)
                continue
            w = neighbor_weights(d[None, :], self.weights)
            pred[i] = _weighted_mean(Y[j][None], w)[0]
        if empty:
            warnings.warn(
                f"No training point lies within radius {self.radius} of the query rows "
                f"{empty[:10]}: their prediction is NaN.",
                UserWarning,
                stacklevel=3,
            )
        return self._shape_out(pred)
