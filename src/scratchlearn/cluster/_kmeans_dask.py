r"""KMeans on Dask input: Lloyd's iterations as one reduction over the row blocks per pass.

Symbols as in :mod:`._kmeans`: ``X`` (n, d), ``w`` (n,), k centres μ (k, d), x̄ (d,) the column
means, m the size of the seeding sample.

The fit is the in-memory one with its passes over the data replaced by reductions over the
blocks (:func:`~scratchlearn.utils._blocks.block_reduce`); the statistics are the same
functions (:func:`._kmeans.lloyd_stat`, :func:`._kmeans.farthest_rows`, StandardScaler's
:func:`~scratchlearn.preprocessing._data.weighted_mean_var`) and the loop is the same
(:func:`._kmeans.lloyd_iterations`).

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
from ..preprocessing._data import merge_moments, weighted_mean_var
from ..utils._blocks import block_reduce
from ..utils._dask import check_dask_data, map_rows, persist_on_cluster
from ..utils.validation import check_is_fitted, check_random_state
from ._kmeans import (
    _check_centres,
    _initial_centres,
    farthest_rows,
    lloyd_iterations,
    lloyd_stat,
    merge_farthest,
    nearest_centre,
)
from ._kmeans_kernels import J_DIRECT

__all__ = ["fit_dask", "predict_dask", "transform_dask", "score_dask", "INIT_SAMPLE_ROWS"]

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


def fit_dask(est, X, sample_weight):
    """Fit ``est`` (a validated KMeans) on a Dask array or DataFrame X; returns ``est``."""
    import dask.array as da

    import dask

    X, _, w = check_dask_data(est, X, None, sample_weight)
    X_source = X  # labels_ is lazy on this: it must not pin the persisted blocks after fit
    X, w = persist_on_cluster(X, w)  # loaded and checked once if it fits in the cluster
    (n, d), k = X.shape, est.n_clusters
    if n < k:
        raise ValueError(
            f"n_samples={n} should be >= n_clusters={k}: "
            f"{type(est).__name__} cannot make more clusters than there are samples."
        )
    init = est.init
    given = not (isinstance(init, str) or callable(init))
    if given:
        init = _check_centres(init, k, d)
    rng = check_random_state(est.random_state)

    # pass 1: moments, and the seeding sample in the same computation
    moments = block_reduce(weighted_mean_var, X, None, combine=merge_moments, compute=False)
    if given:
        mom, Xs, ws = moments.compute(), None, None
    else:
        rows = _seeding_sample(n, k, rng)
        Xs = X if rows is None else X[rows]
        ws = None if w is None else (w if rows is None else w[rows])
        mom, Xs, ws = dask.compute(moments, Xs, ws)
        ws = np.ones(Xs.shape[0]) if ws is None else ws
    x_mean, x_var, _ = mom
    tol = float(np.mean(x_var)) * est.tol
    if given:
        init = init - x_mean
    else:
        Xs = Xs - x_mean
    row_index = da.arange(n, chunks=X.chunks[0])

    def sums(C, j_mode):  # one pass: the labels at C and the cluster sums, block by block
        return block_reduce(lloyd_stat, X, w, None, static=(C, x_mean, j_mode, None, 1))

    def farthest(C, m):  # one more pass, only when a cluster is empty
        return block_reduce(
            farthest_rows, X, w, row_index, static=(C, x_mean, m), combine=merge_farthest
        )

    best = None
    for _ in range(est._n_init(default=10)):
        centres = init.copy() if given else _initial_centres(Xs, k, ws, init, rng)
        result = lloyd_iterations(sums, farthest, centres, est.max_iter, tol)
        if best is None or result[0] < best[0]:
            best = result
    J, centres, n_iter, history, stop, W = best
    est._warn_distinct(n_distinct=int(np.count_nonzero(W)))
    est.cluster_centers_ = centres + x_mean
    est.labels_ = map_rows(
        partial(_labels_block, centres=centres, x_mean=x_mean), X_source, dtype=np.int32
    )
    est.inertia_ = float(J)
    est._record_fit(n_iter, {"objective": history}, stop, criterion=f"Σ‖Δμ‖² <= {tol:.3g}")
    return est


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
