"""Nearest-neighbour queries without a target: :class:`NearestNeighbors`."""

from __future__ import annotations

import numbers

from ..utils._param_validation import Interval
from ._base import KNeighborsMixin, NeighborsBase, RadiusNeighborsMixin

__all__ = ["NearestNeighbors"]


class NearestNeighbors(KNeighborsMixin, RadiusNeighborsMixin, NeighborsBase):
    """An index of the training points answering ``kneighbors`` and ``radius_neighbors``
    (and their sparse graphs). Parameters as
    :class:`~scratchlearn.neighbors.KNeighborsClassifier`, with both ``n_neighbors`` (default
    of ``kneighbors``) and ``radius`` (default of ``radius_neighbors``).

    It has no ``predict``, ``transform`` or labels: its task in the registry is "neighbors"
    (``scratchlearn fit nearest-neighbors`` reports the distances to the nearest training rows,
    and ``scratchlearn predict`` on its model file writes the k nearest rows of each query).

    Dask
    ----
    Queries given as a Dask array or DataFrame (``kneighbors``, ``radius_neighbors``) are
    answered lazily, one task per row block, the fitted model placed in the graph once: the
    answers are the in-memory ones bit for bit, whatever the chunking. ``kneighbors`` gives two
    lazy arrays (distances, intp indices), ``radius_neighbors`` lazy object-dtype arrays.
    ``fit`` on a Dask array gathers the training points into memory: a neighbour model is its
    training set (every query needs all of it), so gathering it once keeps the in-memory model,
    its k-d tree and its answers exactly, where brute force block against block would send
    every training block to every query block. The points must fill at most a quarter of the
    smallest worker's memory limit, else the fit is refused before anything is computed.
    ``kneighbors()`` without X then queries them in memory. See
    :mod:`scratchlearn.neighbors._dask`.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.neighbors import NearestNeighbors
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
    >>> nn = NearestNeighbors(n_neighbors=2).fit(X)
    >>> dist, ind = nn.kneighbors([[0.0, 0.5]])
    >>> print(ind.tolist(), dist.round(4).tolist())
    [[0, 1]] [[0.5, 1.118]]
    """

    _parameter_constraints = {
        **NeighborsBase._parameter_constraints,
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "radius": [Interval(numbers.Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        *,
        n_neighbors=5,
        radius=1.0,
        algorithm="auto",
        leaf_size=30,
        metric="minkowski",
        p=2,
        metric_params=None,
        n_jobs=None,
    ):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def fit(self, X, y=None):
        """Index the rows of X (y is ignored). Returns self."""
        self._fit(X)
        return self
