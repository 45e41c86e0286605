r"""Neighbour queries and fits on Dask arrays.

Symbols: ``n`` queries in row blocks ``X_b`` (``n_b`` rows each), ``m`` training points,
``d`` features, ``k`` neighbours, ``W`` the memory limit of the smallest worker.

Queries. A Dask array (or DataFrame) of queries is validated lazily (feature count and names
at once, finiteness on each block where it lives, as
:func:`~scratchlearn.utils._dask.check_dask_data` does; a DataFrame's rows are not counted
first) and answered block by block along its row chunks: each block's task runs the in-memory
query on its ``n_b`` rows. The fitted model is one shared argument
(:func:`~scratchlearn.utils._dask.shared_arg`): copied into each task when it pickles small,
otherwise one graph node sent once to each worker. A query's neighbours depend on that query
row and the training points alone (the k-d tree searches row by row; the brute force recomputes
the chosen neighbours' distances exactly, coordinate by coordinate), so the answers are the
in-memory ones bit for bit whatever the chunking. The k-d tree is not pickled (model files and
pickles hold data only): a worker rebuilds it from the training points on its first block,
O(m log m), once per copy of the model it holds.

- ``kneighbors``: each block returns ``[dist | ind]`` (n_b, 2k) in float64 (an index below 2⁵³
  is exact in float64), split afterwards into two lazy arrays, the indices cast back to intp;
  computing both together (``dask.compute(dist, ind)``) runs each block's query once.
- ``radius_neighbors``: each block returns an (n_b, 2) object array of its variable-length
  ``(dist, ind)`` pairs, split into two lazy object-dtype arrays of shape (n,). Lazy rather
  than computed, because the answer may be as large as n·m: a caller can reduce it block by
  block (counts, a sparse graph per block) without it ever being in one process.
- ``kneighbors_graph`` / ``radius_neighbors_graph`` compute their query into memory: a SciPy
  sparse matrix is an in-memory object, of the size of the answer.
- ``predict`` / ``predict_proba``: each block runs the in-memory method; lazy arrays of the
  input's row chunks.

Fit on a Dask array: the training set is gathered. A neighbour model *is* its training set: every
query needs all m points, and the fitted model keeps them to answer queries, to be saved and to
be shipped to the workers. So the m·d·8 bytes are computed into memory (checked lazily first,
as for a query) when they fill at most :data:`GATHER_SHARE` of ``W`` (a worker holds the model,
the k-d tree's two copies of the points and a query block's tiles), and the in-memory fit runs
on them: the fitted model, and every answer, are the in-memory ones by construction, and the
k-d tree stays available. A training set larger than that is refused with the sizes, before
anything is computed. Without a ``distributed`` client (Dask's local schedulers) this process is
the worker, and the points are gathered as the in-memory fit would hold them. The alternative,
brute force block against block with a top-k merge, would send every training block to every
query block (n/n_b · m·d·8 bytes of traffic instead of m·d·8 once per worker), could not use
the tree, and would leave a model that no single process can save or load.
"""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np

from ..utils._dask import (
    active_client,
    check_dask_data,
    checked_block,
    dask_rows,
    shared_arg,
    worker_memory_limits,
)
from ..utils.validation import check_array, check_X_y

__all__ = [
    "GATHER_SHARE",
    "gather_training",
    "kneighbors_dask",
    "radius_neighbors_dask",
    "predict_dask",
]

#: Largest share of the smallest worker's memory limit that a gathered training set may fill.
GATHER_SHARE = 0.25


# -- fit: the training set gathered ------------------------------------------------------------
def _gib(b):
    return f"{b / 2**30:.3g} GiB"


def gather_training(estimator, X, y=None, **check):
    """(X, y) of a Dask fit, validated and computed into memory (see the module notes).

    Shape, feature count and names are checked and recorded lazily (``n_features_in_``,
    ``feature_names_in_``); the size against the workers' memory before anything is computed;
    then X and y are computed in one pass and checked as the in-memory fit checks them
    (``check`` holds its :func:`~scratchlearn.utils.validation.check_X_y` keywords).
    """
    import dask

    name = type(estimator).__name__
    requires_y = estimator._scratch_tags()["requires_y"]
    if requires_y and y is None:
        raise ValueError(f"{name} requires y to be passed, but the target y is None.")
    X, y, _ = check_dask_data(estimator, X, y if requires_y else None, reset=True)
    client = active_client()
    limits = worker_memory_limits(client) if client is not None else []
    if limits and X.nbytes > GATHER_SHARE * min(limits):
        raise ValueError(
            f"{name} gathers its training points into memory (a neighbour model is its training "
            f"set: every query needs all of them), but X takes {_gib(X.nbytes)}, more than "
            f"{GATHER_SHARE:g} of the smallest worker's memory limit ({_gib(min(limits))}). "
            "Fit on a sample of the rows, or on workers with more memory."
        )
    X, y = dask.compute(X, y)
    if requires_y:
        X, y = check_X_y(X, y, estimator=estimator, **check)
    else:
        X = check_array(X, dtype=np.float64, estimator=estimator)
    return np.asarray(X, dtype=np.float64), y


# -- queries: block by block --------------------------------------------------------------------
def _quiet(fn, *args):
    # Dask DataFrame blocks arrive as plain arrays: their column names were checked against
    # feature_names_in_ before mapping, so the per-block feature-name warning would be noise.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="X does not have valid feature names")
        return fn(*args)


def _first_row(block_info):
    return block_info[0]["array-location"][0][0] if block_info else 0


def _kneighbors_block(X_b, model, k, block_info=None):
    """[dist | ind] (n_b, 2k) of one query block, in float64."""
    dist, ind = _quiet(model.kneighbors, X_b, k)
    return np.hstack([dist, ind.astype(np.float64)])


def _radius_block(X_b, model, r, sort_results, block_info=None):
    """(n_b, 2) object array: column 0 the distance arrays, column 1 the index arrays."""
    dist, ind = _quiet(partial(model.radius_neighbors, sort_results=sort_results), X_b, r)
    out = np.empty((X_b.shape[0], 2), dtype=object)
    for i in range(X_b.shape[0]):  # element by element: equal lengths must not broadcast
        out[i, 0], out[i, 1] = dist[i], ind[i]
    return out


def _method_block(X_b, model, method, dtype, block_info=None):
    """``model.<method>(X_b)`` as ``dtype``; a ``_block_*`` method is told the block's first
    row (``first_row``), so that the rows an error names are rows of the whole array."""
    fn = getattr(model, method)
    if method.startswith("_block_"):
        fn = partial(fn, first_row=_first_row(block_info))
    return np.asarray(_quiet(fn, X_b)).astype(dtype, copy=False)


def _map(block_fn, model, X, args, n_out, dtype):
    """``block_fn(X_b, model, *args)`` over the row blocks of the validated Dask X, the model
    placed once by :func:`shared_arg`; (n,) outputs when ``n_out`` is None, else (n, n_out)."""
    node = shared_arg(model)
    if n_out is None:
        meta = np.empty((0,), dtype)
        return X.map_blocks(block_fn, node, *args, drop_axis=1, dtype=dtype, meta=meta)
    chunks = (X.chunks[0], (n_out,))
    meta = np.empty((0, 0), dtype)
    return X.map_blocks(block_fn, node, *args, chunks=chunks, dtype=dtype, meta=meta)


def _queries(model, X):
    """The Dask queries X validated lazily, as :func:`check_dask_data` validates them (names
    and feature count now, values on each block), but without counting a DataFrame's rows
    first: nothing needs them aligned, and counting would be a pass over the data."""
    owner = type(model).__name__
    model._check_feature_names(X, reset=False)  # a DataFrame's columns, before they are dropped
    (X,) = dask_rows(X, known_rows=False)
    if X.ndim != 2:
        raise ValueError(f"{owner} expects a 2-D Dask array X; got {X.ndim} dimension(s).")
    if X.dtype.kind not in "biuf":
        raise ValueError(f"{owner} needs a numeric Dask array X; got dtype {X.dtype}.")
    model._check_n_features(X, reset=False)
    return X.astype(np.float64).map_blocks(checked_block, "X", False, dtype=np.float64)


def kneighbors_dask(model, X, k, return_distance):
    """Lazy ``(dist, ind)`` (n, k) of the Dask queries X (``k`` already checked)."""
    X = _queries(model, X)
    S = _map(_kneighbors_block, model, X, (k,), 2 * k, np.float64)  # (n, 2k)
    ind = S[:, k:].astype(np.intp)
    return (S[:, :k], ind) if return_distance else ind


def radius_neighbors_dask(model, X, r, return_distance, sort_results):
    """Lazy object arrays ``(dist, ind)`` of shape (n,) of the Dask queries X."""
    X = _queries(model, X)
    R = _map(_radius_block, model, X, (r, sort_results), 2, object)  # (n, 2)
    ind = R[:, 1]
    return (R[:, 0], ind) if return_distance else ind


def predict_dask(model, X, method, n_out=None, dtype=np.float64):
    """Lazy ``model.<method>`` of the Dask queries X, block by block, each block as ``dtype``
    ((n,) outputs when ``n_out`` is None, else (n, n_out))."""
    X = _queries(model, X)
    dtype = np.dtype(dtype)
    return _map(_method_block, model, X, (method, dtype), n_out, dtype)
