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

Blocks of CSR matrices (a Dask array whose chunks are ``scipy.sparse`` CSR, e.g.
``da.from_array(X_csr, chunks=(r, d), asarray=False)``) are fitted the same way, each block
read by the sparse kernel as stored and not centred (origin 0, as the in-memory sparse fit);
the seeding sample is a CSR matrix gathered by row index. :func:`gather_rows` (rows by global
index, in any order, with repeats) also serves :class:`.MiniBatchKMeans`: its batches.
"""

from __future__ import annotations

import copy
from functools import partial

import numpy as np
import scipy.sparse as sp

from ..metrics.pairwise import euclidean_distances
from ..preprocessing._data import merge_mean_var, weighted_mean_var
from ..utils._blocks import block_reduce
from ..utils._dask import check_dask_data, map_rows, persist_on_cluster
from ..utils.validation import check_is_fitted
from ._kmeans import KMeansData, lloyd_stat, nearest_centre
from ._kmeans_kernels import J_DIRECT, canonical_csr

__all__ = [
    "DaskData",
    "DaskRows",
    "BatchRows",
    "check_kmeans_dask",
    "gather_rows",
    "predict_dask",
    "transform_dask",
    "score_dask",
    "INIT_SAMPLE_ROWS",
]

INIT_SAMPLE_ROWS = 10_000  # the seeding sample: at least this many rows,
INIT_SAMPLE_PER_CLUSTER = 100  # and this many per cluster


def is_sparse_dask(X) -> bool:
    """Whether the Dask array X has SciPy sparse blocks (its ``_meta`` is sparse)."""
    return sp.issparse(getattr(X, "_meta", None))


def _checked_csr(block):
    """A sparse block as canonical float64 CSR, its stored values checked finite."""
    from ..utils._dask import checked_block

    block = canonical_csr(block)
    checked_block(block.data, "X", False)
    return block


def check_kmeans_dask(est, X, sample_weight=None, reset=True):
    """:func:`~scratchlearn.utils._dask.check_dask_data` for k-means: (X, w) as Dask arrays.
    Blocks of CSR matrices are cast and checked as CSR (their stored values)."""
    if is_sparse_dask(X):
        X = X.astype(np.float64)
        X, _, w = check_dask_data(est, X, None, sample_weight, reset=reset, X_check=_checked_csr)
    else:
        X, _, w = check_dask_data(est, X, None, sample_weight, reset=reset)
    return X, w


def gather_rows(X, rows):
    """X[rows] in memory for a Dask X and global row indices ``rows`` (any order, repeats).

    The distinct indices, sorted, are taken in one computation (Dask's fancy indexing reads
    only the blocks that hold them and concatenates their rows, NumPy or CSR); the result is
    then put in the order of ``rows`` in memory.
    """
    uniq, inverse = np.unique(rows, return_inverse=True)
    return X[uniq].compute()[inverse]


class BatchRows:
    """The batches of a mini-batch fit on a Dask X, gathered ``lookahead`` steps at a time.

    Each step's rows are drawn by the caller from its generator exactly as in memory; one
    computation per step would cost a scheduler round trip per batch, so when a batch is not
    already here the next ``lookahead`` batches are predicted from a copy of the generator
    (the draws it will make if nothing else draws in between) and gathered together. A batch
    is used only if its predicted row indices equal the drawn ones (a reassignment, which also
    draws, breaks the prediction: the batch is then gathered anew): the rows are always
    X[rows], whatever the prediction.
    """

    def __init__(self, X, batch, draw, max_bytes=32 * 2**20, max_lookahead=64):
        self.X, self.draw, self.pending = X, draw, []
        row_bytes = 8 * X.shape[1]
        self.lookahead = int(np.clip(max_bytes // max(1, batch * row_bytes), 1, max_lookahead))

    def take_batch(self, rows, rng):
        """X[rows] for the rows just drawn from ``rng`` (whose state is after the draw)."""
        if self.pending and np.array_equal(self.pending[0][0], rows):
            return self.pending.pop(0)[1]
        ahead = copy.deepcopy(rng)  # the caller's generator is not touched
        plan = [rows] + [self.draw(ahead) for _ in range(self.lookahead - 1)]
        got = gather_rows(self.X, np.concatenate(plan))
        cut = np.cumsum([len(r) for r in plan])
        self.pending = [(r, got[a:b]) for r, a, b in zip(plan, cut - cut[0], cut)]
        return self.pending.pop(0)[1]


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
        X, w = check_kmeans_dask(est, X, sample_weight)
        self.source = X  # labels_ is lazy on this: it must not pin the persisted blocks
        X, w = persist_on_cluster(X, w)  # loaded and checked once if it fits in the cluster
        est._check_n_samples(X.shape[0])
        super().__init__(X, w)

    def centre(self, rng, k, seeding):
        """One pass: the column moments and, when ``seeding``, the sample to seed from (all
        rows when n ≤ m, drawn by row index from ``rng`` alone otherwise), centred; CSR blocks
        keep their origin at 0, as the in-memory sparse fit (the sample is then CSR)."""
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
        else:
            (x_mean, x_var, _), Xs, ws = moments.compute(), None, None
        if is_sparse_dask(self.X):  # not centred, as in memory: origin 0
            x_mean = np.zeros(self.d)
            Xs = None if Xs is None else canonical_csr(Xs)
        else:
            Xs = None if Xs is None else Xs - x_mean
            self.x_shift = x_mean
        self.row_index = da.arange(self.n, chunks=self.X.chunks[0])
        return x_mean, x_var, Xs, ws

    def run(self, centres, max_iter, tol, algorithm):
        """Lloyd's iterations whatever ``algorithm``: Elkan's bounds are n×k state, and its
        assignments are Lloyd's."""
        return self.lloyd(centres, max_iter, tol)

    def labels(self, run, x_mean):
        """``labels_``: a lazy Dask array, the nearest of the final centres block by block."""
        shift = None if is_sparse_dask(self.X) else x_mean
        fn = partial(_labels_block, centres=run.centres, x_mean=shift)
        return map_rows(fn, self.source, dtype=np.int32)


def _test_data(est, X):
    check_is_fitted(est, "cluster_centers_")
    return check_kmeans_dask(est, X, reset=False)[0]


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
    X, w = check_kmeans_dask(est, X, sample_weight, reset=False)
    C = est.cluster_centers_
    return -block_reduce(lloyd_stat, X, w, None, static=(C, None, J_DIRECT, None, 1))["J"]


class DaskRows:
    """:class:`._minibatch.MemoryRows` for a Dask X: the rows of a MiniBatchKMeans fit.

    X (and the weights) are checked lazily and persisted when they fit in the cluster's memory
    (each step reads a few blocks). The weights come to the client (8 bytes a row): the
    batches are drawn ∝ w there, by the in-memory code, and only their rows are gathered.
    """

    def __init__(self, est, X, sample_weight):
        X, w = check_kmeans_dask(est, X, sample_weight)
        self.source = X  # labels_ is lazy on this: it must not pin the persisted blocks
        self.X, self.w_dask = persist_on_cluster(X, w)
        self.n, self.d = X.shape
        est._check_n_samples(self.n)
        self.w = np.ones(self.n) if w is None else self.w_dask.compute()

    def variances(self):
        """σ²_f of each column (one pass, Chan's merge of the blocks' moments)."""
        return block_reduce(weighted_mean_var, self.X, None, combine=merge_mean_var)[1]

    def take(self, rows):
        return gather_rows(self.X, rows)

    def batches(self, batch, draw):
        return BatchRows(self.X, batch, draw)

    def final(self, est, centres):
        """(lazy labels, J, non-empty clusters) at ``centres``: one pass for J and W."""
        static = (centres, None, J_DIRECT, None, 1)
        st = block_reduce(lloyd_stat, self.X, self.w_dask, None, static=static)
        labels = map_rows(partial(_labels_block, centres=centres), self.source, dtype=np.int32)
        return labels, st["J"], int(np.count_nonzero(st["W"]))
