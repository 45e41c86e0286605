r"""KMeans on Dask input: Lloyd's iterations as one reduction over the row blocks per pass.

Symbols as in :mod:`._kmeans`: ``X`` (n, d), ``w`` (n,), k centres μ (k, d), x̄ (d,) the column
means, m the size of the seeding sample.

The fit is the in-memory one, :meth:`._kmeans.KMeans.fit`, given the rows as :class:`DaskData`
instead of :class:`._kmeans.KMeansData`: every pass over the data is the same reduction
(:func:`~scratchlearn.utils._blocks.block_reduce`) of the same statistics
(:func:`._kmeans.lloyd_stat`, :func:`._kmeans.farthest_rows`, StandardScaler's
:func:`~scratchlearn.preprocessing._data.weighted_mean_var`), over the row blocks rather than
one block, and the loop is the same (:func:`._kmeans.lloyd_iterations`). What differs:

1. One pass: the column means and variances (Chan's pairwise merge), for the centring and
   ``tol``, and, unless ``init`` is an array, a uniform sample of m = max(10 000, 100k) rows
   (all rows when n ≤ m), drawn by row index from ``random_state`` alone: the seeding does not
   depend on how the rows are cut into blocks, and when n ≤ m it is the in-memory seeding.
2. The seeding (k-means++, "random" or the callable) runs in memory on the centred sample, its
   weights kept. Why not k-means‖ (Bahmani et al. 2012): it needs about log φ passes, each
   drawing rows ∝ D², then one more to weight the candidates, against one pass here. The
   price: a cluster holding a fraction p of the rows is absent from the sample with
   probability ≈ e^(−mp) (below 10⁻⁴ for p ≥ 0.1 %), and then gets no seed where k-means‖,
   drawing by D², would give it one; Lloyd's iterations leave it merged into a neighbour.
3. Each Lloyd iteration is one pass: per block, the labels at μ and the sums S (k, d),
   W (k,), J; blocks add. Only a cluster left empty costs a second pass, for the rows farthest
   from their centre (at most k of them per block, merged by distance then row index): the
   in-memory rule, independent of the blocks.
4. ``labels_`` is a lazy Dask array (the labels of the final centres, computed block by block
   when asked for); the centres, inertia and history are NumPy values as in memory.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..metrics.pairwise import euclidean_distances
from ..preprocessing._data import merge_mean_var, weighted_mean_var
from ..utils._blocks import block_reduce
from ..utils._dask import check_dask_data, map_rows, persist_on_cluster
from ..utils.validation import check_is_fitted
from ._kmeans import KMeansData, lloyd_stat, nearest_centre
from ._kmeans_kernels import J_DIRECT

__all__ = ["DaskData", "predict_dask", "transform_dask", "score_dask", "INIT_SAMPLE_ROWS"]

INIT_SAMPLE_ROWS = 10_000  # the seeding sample: at least this many rows,
INIT_SAMPLE_PER_CLUSTER = 100  # and this many per cluster


def _labels_block(X, centres, x_mean=None):
    """c(i) = argmin_j ‖xᵢ − μ_j‖² of one block (the kernel of the in-memory predict)."""
    return nearest_centre(X, centres, n_threads=1, x_shift=x_mean)


def _distances_block(X, centres):
    return euclidean_distances(X, centres)


def _seeding_sample(n, k, rng):
    """Row indices of the seeding sample (None: all rows), from ``rng`` and n only."""
    m = max(INIT_SAMPLE_ROWS, INIT_SAMPLE_PER_CLUSTER * k)
    return None if n <= m else np.sort(rng.choice(n, size=m, replace=False))


class DaskData(KMeansData):
    """:class:`._kmeans.KMeansData` for a Dask X: the same passes, over its row blocks.

    X and the weights are checked lazily, block by block, and persisted on the cluster when
    they fit in its memory (every pass reads them). Each block is centred by the kernel as it
    is read (no centred copy), on one thread (the cluster's threads run one block each); the
    labels stay in the blocks and ``labels_`` is computed lazily after the fit.
    """

    n_threads = 1
    keeps_labels = False

    def __init__(self, est, X, sample_weight):
        X, _, w = check_dask_data(est, X, None, sample_weight)
        self.source = X  # labels_ is lazy on this: it must not pin the persisted blocks
        X, w = persist_on_cluster(X, w)  # loaded and checked once if it fits in the cluster
        est._check_n_samples(X.shape[0])
        super().__init__(X, w)

    def centre(self, rng, k, seeding):
        """One pass: the column moments and, when ``seeding``, the sample to seed from (all
        rows when n ≤ m, drawn by row index from ``rng`` alone otherwise), centred."""
        import dask.array as da

        import dask

        moments = block_reduce(
            weighted_mean_var, self.X, None, combine=merge_mean_var, compute=False
        )
        if seeding:
            rows = _seeding_sample(self.n, k, rng)
            Xs = self.X if rows is None else self.X[rows]
            ws = None if self.w is None else (self.w if rows is None else self.w[rows])
            (x_mean, x_var, _), Xs, ws = dask.compute(moments, Xs, ws)
            ws = np.ones(Xs.shape[0]) if ws is None else ws
            Xs = Xs - x_mean
        else:
            (x_mean, x_var, _), Xs, ws = moments.compute(), None, None
        self.x_shift = x_mean
        self.row_index = da.arange(self.n, chunks=self.X.chunks[0])
        return x_mean, x_var, Xs, ws

    def run(self, centres, max_iter, tol, algorithm):
        """Lloyd's iterations whatever ``algorithm``: Elkan's bounds are n×k state, and its
        assignments are Lloyd's."""
        return self.lloyd(centres, max_iter, tol)

    def labels(self, run, x_mean):
        """``labels_``: a lazy Dask array, the nearest of the final centres block by block."""
        fn = partial(_labels_block, centres=run.centres, x_mean=x_mean)
        return map_rows(fn, self.source, dtype=np.int32)


def _test_data(est, X):
    check_is_fitted(est, "cluster_centers_")
    return check_dask_data(est, X, reset=False)[0]


def predict_dask(est, X):
    """Labels of the rows of a Dask X at the fitted centres: a lazy Dask array (n,)."""
    C = est.cluster_centers_
    return map_rows(partial(_labels_block, centres=C), _test_data(est, X), dtype=np.int32)


def transform_dask(est, X):
    """Distances of the rows of a Dask X to the fitted centres: a lazy Dask array (n, k)."""
    C = est.cluster_centers_
    return map_rows(partial(_distances_block, centres=C), _test_data(est, X), n_out=len(C))


def score_dask(est, X, sample_weight=None):
    """−J of a Dask X at the fitted centres (one pass)."""
    check_is_fitted(est, "cluster_centers_")
    X, _, w = check_dask_data(est, X, None, sample_weight, reset=False)
    C = est.cluster_centers_
    return -block_reduce(lloyd_stat, X, w, None, static=(C, None, J_DIRECT, None, 1))["J"]
