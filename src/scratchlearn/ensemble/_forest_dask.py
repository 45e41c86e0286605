"""Forests on a ``dask.distributed`` cluster: X sent to every worker once, trees grown there.

A tree needs every row at every node, so a forest is not a sum over row blocks (the
:func:`~scratchlearn.utils._blocks.block_reduce` pattern of the other Dask fits): its
parallelism is over trees, T independent tasks that all read the same n rows. For a Dask array
or DataFrame X (y and ``sample_weight`` NumPy or Dask) and an active ``distributed.Client``,
``fit`` runs the in-memory fit's own steps (:meth:`BaseForest._fit_validated`) with the trees
placed on the cluster (:class:`ClusterTrees`):

1. Validation as for every Dask fit (:func:`~scratchlearn.utils._dask.check_dask_data`): shape,
   column names and count now; NaN and infinities per block, on the worker that computes it.
2. y and the weights (n values each) come to this process, where the classes, class weights and
   the seeds s_t (:func:`~scratchlearn.utils.parallel.spawn_seeds`) are made exactly as for
   in-memory input.
3. X's blocks are concatenated on one worker (never through this process), where
   :func:`~._forest_base.forest_data` adds Xᵀ and the sort (the same function as in memory);
   the result is replicated to every worker once per fit: 20·n·d bytes per worker for a random
   forest, 16·n·d for extra trees. The targets (codes, values, weights: 24·n bytes) are
   scattered to every worker once.
4. One task per tree, :func:`~._forest_base.grow_tree` of (s_t, recipe, data, targets): the
   seed and the recipe (a few hundred bytes) travel to the worker, the fitted tree travels back:
   its arrays, 56 + 8K bytes per node (K classes; K = 1 for a regressor), plus about 1 kB of
   hyperparameters.
5. With ``oob_score``: one task, :func:`~._forest_base.oob_sums` over the trees (already on the
   cluster) and the replicated X; (n, K) sums and n counts travel back.

Same trees: the seeds are drawn here before any task, ``grow_tree`` is a pure function of its
arguments, and the workers see the same float64 values, so trees, predictions and OOB values
are bit for bit those of the in-memory fit with the same ``random_state``, whatever the chunks,
the number of workers or the order in which trees finish. ``n_jobs`` does not apply on the
cluster (the workers' threads grow the trees); ``verbose`` shows a bar over finished trees.

Memory: every worker holds all the rows (X, Xᵀ and the sort: 2.5 times the bytes of X as
float64, 2 times for extra trees). This is for data that fit in one worker's memory but live
on the cluster, or for many trees on a few cores each; it is not for X larger than a worker:
:func:`check_fits_on_a_worker` refuses that, with the numbers, before anything is sent.

Without a ``distributed`` client the Dask collections are computed into this process and the
fit is the in-memory one (threads, ``n_jobs``): the same trees again.

Prediction (``predict``, ``predict_proba``, ``predict_log_proba``, ``apply``) on a Dask array
or DataFrame is lazy (:func:`~scratchlearn.utils._dask.map_rows`): one task per row block
calls the in-memory method on its block. The fitted forest is placed as every shared argument
is (:func:`~scratchlearn.utils._dask.shared_arg`): copied into each task when it pickles to at
most 1 MB, else one node of the graph, sent once to each worker that predicts a block; its size
is the sum of its trees'.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..utils._dask import active_client, check_dask_data, map_rows, worker_memory_limits
from ..utils.validation import check_is_fitted, check_sample_weight, check_y
from ._forest_base import LocalTrees, forest_data, grow_tree, oob_sums

__all__ = [
    "ClusterTrees",
    "check_fits_on_a_worker",
    "computed",
    "dask_fit_input",
    "predict_blocks",
]

#: Bytes per entry of X that each worker holds: X and Xᵀ (float64) and the int32 presort.
_BYTES_PER_ENTRY = {"best": 20, "random": 16}


def check_fits_on_a_worker(client, forest, n: int, d: int) -> None:
    """Refuse, before sending anything, a forest whose data (X, Xᵀ and the sort) would exceed
    the memory limit of the smallest worker (limits of 0 or None mean unlimited)."""
    need = n * d * _BYTES_PER_ENTRY[forest._splitter]
    smallest = min(worker_memory_limits(client), default=np.inf)
    if need > smallest:
        raise ValueError(
            f"{type(forest).__name__}: every tree needs all the rows, so each worker holds X "
            f"({n} x {d}), its transpose and its sort: {need / 2**30:.2f} GiB, more than the "
            f"{smallest / 2**30:.2f} GiB memory limit of the smallest worker. Fit on a "
            "random subset of the rows, or on workers with more memory."
        )


def _oob_sums_on(trees, data, n_b):
    """:func:`oob_sums` on the replicated :class:`ForestData` (a task on one worker)."""
    return oob_sums(trees, data.X, n_b)


class ClusterTrees:
    """:class:`~._forest_base.LocalTrees`' three steps on a ``distributed`` cluster: X is a
    future of the whole array on one worker; trees are tasks; OOB sums one more task."""

    def __init__(self, forest, client):
        self.forest, self.client = forest, client
        self.futures = []  # the trees grown by this fit, in seed order

    def data(self, X, splitter):
        """ForestData made where X was gathered, then copied to every worker (once)."""
        from distributed import wait

        data = self.client.submit(forest_data, X, splitter)
        wait(data)
        if data.status == "error":
            data.result()  # raises the worker's error here: a NaN in a block of X, ...
        self.client.replicate(data)
        return data

    def grow(self, seeds, recipe, data, targets):
        from distributed import as_completed

        [targets] = self.client.scatter([targets], broadcast=True)
        self.futures = [
            self.client.submit(grow_tree, int(s), recipe, data, targets, pure=False) for s in seeds
        ]
        with self.forest._progress(len(self.futures), "trees") as bar:
            if bar is not None:
                for _ in as_completed(self.futures):
                    bar.update(1)
        return self.client.gather(self.futures)  # in seed order; a worker's error raises here

    def oob(self, trees, data, n_b):
        """The trees already fitted (warm start) travel from here, the new ones are futures."""
        old = list(trees[: len(trees) - len(self.futures)])
        return self.client.submit(_oob_sums_on, old + self.futures, data, n_b).result()


def computed(*arrays):
    """Dask collections computed (on the active client, if any); other values as they are."""
    import dask

    return dask.compute(*arrays)


def dask_fit_input(forest, X, y, sample_weight):
    """Validated (X, y, weights, where) for :meth:`BaseForest._fit_validated` from a Dask X:
    X a future of the whole array on one worker and ``where`` the cluster when a
    ``distributed`` client is active; else X in memory and this process's threads."""
    if y is None:
        raise ValueError(
            f"{type(forest).__name__} requires y to be passed, but the target y is None."
        )
    X, y, w = check_dask_data(forest, X, y, sample_weight)
    n, d = X.shape
    forest._check_forest_params(n)
    client = active_client()
    if client is None:  # the threaded scheduler, in this process: the in-memory fit
        X, y, w = computed(X, y, w)
        X = np.ascontiguousarray(X)
        y = check_y(y, y_numeric=not forest._is_clf)
        return X, y, check_sample_weight(w, X), LocalTrees(forest)
    check_fits_on_a_worker(client, forest, n, d)
    X, *small = client.compute([a for a in (X, y, w) if a is not None])
    y, *w = client.gather(small)  # X stays on the worker that concatenated its blocks
    y = check_y(y, y_numeric=not forest._is_clf)
    sw = check_sample_weight(w[0] if w else None, n)
    return X, y, sw, ClusterTrees(forest, client)


def _on_block(X, forest, method):
    return getattr(forest, method)(np.ascontiguousarray(X))


def predict_blocks(forest, method: str, X):
    """``forest.<method>`` of each row block of a Dask X, lazily: a Dask array
    (:func:`~scratchlearn.utils._dask.map_rows`)."""
    check_is_fitted(forest)
    X, _, _ = check_dask_data(forest, X, reset=False)
    meta = getattr(forest, method)(np.empty((0, forest.n_features_in_)))  # shape and dtype
    n_out = None if meta.ndim == 1 else meta.shape[1]
    fn = partial(_on_block, forest=forest, method=method)
    return map_rows(fn, X, n_out=n_out, dtype=meta.dtype)
