"""Dask input: recognising it, refusing it clearly, lining up its row blocks, predicting lazily.

Dask is an optional extra (``pip install 'scratchlearn[dask]'``). Nothing here imports it at
module level: a Dask collection is recognised by duck typing (``__dask_graph__``), and
``dask`` is imported only once such a collection has been passed in, so the library imports
without it.

An estimator that fits on Dask input sets the tag ``"dask": True`` in ``_scratch_tags``. Every
other estimator refuses to fit on a Dask collection in :func:`~scratchlearn.utils.check_array`
with a ``TypeError`` naming the ones that accept it (:func:`dask_estimators`: the registry's list,
handed down to this module, which imports nothing above it), instead of silently computing the
whole array into memory.

Row blocks. A fit that is a reduction over rows (:mod:`scratchlearn.utils._blocks`) needs X,
y and the sample weights cut at the same row boundaries: :func:`dask_rows` turns a Dask
DataFrame or Series into an array with known chunk sizes, gathers X's columns into one chunk
per row block, and rechunks (or wraps) y and the weights to X's row chunks.

Shared arguments. What every block task needs beside its block (coefficients, centres, a GLM
family, a fitted model) is placed by one rule, :func:`shared_arg`: copied into each task when
small, one graph node when large. The reductions (:mod:`scratchlearn.utils._blocks`) and every
lazy prediction (:func:`map_rows`) go through it. Every fitted estimator predicts on Dask
input through :func:`map_rows` (:mod:`scratchlearn.utils._dask_predict`).

The cluster. :func:`active_client` is the ``distributed`` client of this process, if any, and
:func:`worker_memory_limits` its workers' memory limits: what decides whether an iterative fit
keeps its data in memory (:func:`persist_on_cluster`) and whether a forest's rows fit on one
worker (:mod:`scratchlearn.ensemble._forest_dask`).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

__all__ = [
    "dask_estimators",
    "set_dask_estimators",
    "is_dask_collection",
    "refuse_dask",
    "dask_rows",
    "map_rows",
    "shared_arg",
    "active_client",
    "worker_memory_limits",
    "check_dask_data",
    "checked_block",
    "persist_on_cluster",
]


_dask_estimators = None  # the registry's list, handed down by set_dask_estimators


def set_dask_estimators(names) -> None:
    """Hand down ``names() -> list[str]``, the estimators that fit on Dask input.

    This module is the lowest layer and imports nothing above it; the list belongs to the
    registry, the top one. The package root (``scratchlearn/__init__.py``) plugs
    :func:`scratchlearn._registry.dask_estimators` in here when scratchlearn is imported, and
    :func:`refuse_dask` calls it only when it words a refusal.
    """
    global _dask_estimators
    _dask_estimators = names


def dask_estimators() -> list[str]:
    """Names of the estimators whose fit accepts Dask input (their tag ``"dask"``), as the
    registry lists them (see :func:`set_dask_estimators`)."""
    return [] if _dask_estimators is None else list(_dask_estimators())


def is_dask_collection(x) -> bool:
    """True for a Dask array, DataFrame, Series or bag (without importing dask)."""
    return hasattr(type(x), "__dask_graph__") and callable(getattr(x, "__dask_graph__", None))


def refuse_dask(x, owner=None, input_name: str = "X", *, list_accepted: bool = True) -> None:
    """Raise a TypeError if ``x`` is a Dask collection, before anything computes it.

    The message names ``owner`` (when the caller knows it) and ``input_name`` and says how to
    compute the input into memory; with ``list_accepted`` (estimators) it also lists the
    estimators that fit on Dask input. Functions that would index the rows of a Dask
    collection one fold at a time (:mod:`scratchlearn.model_selection`) pass
    ``list_accepted=False``: no estimator makes them work block by block.
    """
    if not is_dask_collection(x):
        return
    kind = f"a Dask {type(x).__name__}"
    text = (
        f"{owner} does not accept {kind} as {input_name}"
        if owner
        else f"{kind[0].upper()}{kind[1:]} was passed as {input_name} where Dask input is not "
        "accepted"
    )
    text += f": computing it into memory is left to you (`{input_name}.compute()`)."
    if list_accepted:
        accepted = ", ".join(sorted(dask_estimators())) or "none yet"
        text += (
            " The estimators that fit on Dask input, block by block on the cluster, are: "
            f"{accepted}."
        )
    raise TypeError(text)


def _as_array(x, name: str, known_rows: bool = True):
    """A Dask array from a Dask array, DataFrame or Series; with ``known_rows``, with known row
    chunks (computed if unknown: a pass over the data, needed only to align other arrays)."""
    import dask.array as da

    if isinstance(x, da.Array):
        arr = x
    elif hasattr(x, "to_dask_array"):  # DataFrame / Series: lengths=True computes row counts
        arr = x.to_dask_array(lengths=True if known_rows else None)
    else:
        raise TypeError(
            f"{name} must be a Dask array, DataFrame or Series; got {type(x).__name__}."
        )
    if known_rows and any(np.isnan(c) for c in arr.chunks[0]):
        arr = arr.compute_chunk_sizes()
    return arr


def dask_rows(X, *others, names=("y", "sample_weight"), known_rows=True):
    """(X, *others) as Dask arrays cut at the same row boundaries.

    X (2-D) gets one chunk along its columns, so that each row block holds whole rows. Each
    other array may be None (kept), a NumPy array or list (wrapped with X's row chunks), or a
    Dask collection (rechunked to X's row chunks); its length must equal X's. Unknown row
    chunk sizes of X are computed (a pass over the data), unless ``known_rows`` is False and
    there is nothing to align (a reduction of X alone, e.g. the sparse count blocks of a Dask
    bag of documents, whose partition lengths are unknown until counted).
    """
    import dask.array as da

    aligned = known_rows or any(a is not None for a in others)
    X = _as_array(X, "X", known_rows=aligned)
    if X.ndim == 2 and len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    rows = X.chunks[0]
    n = int(sum(rows)) if aligned else None
    out = [X]
    for name, a in zip(names, others):
        if a is None:
            out.append(None)
            continue
        if is_dask_collection(a):
            a = _as_array(a, name)
        else:
            a = np.asarray(a)
        if a.shape[0] != n:
            raise ValueError(
                f"X has {n} rows but {name} has {a.shape[0]}; they must have the same length."
            )
        if isinstance(a, da.Array):
            a = a.rechunk((rows,) + tuple(-1 for _ in a.shape[1:]))
        else:
            a = da.from_array(a, chunks=(rows,) + a.shape[1:])
        out.append(a)
    return tuple(out)


def _apply(block, fn):
    # A Dask DataFrame's blocks arrive as plain arrays: its column names were checked against
    # feature_names_in_ before mapping (check_dask_data(reset=False)), so the per-block
    # "X does not have valid feature names" warning would be noise.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="X does not have valid feature names")
        return fn(block)


def map_rows(fn, X, *, n_out=None, dtype=np.float64, meta=None):
    """fn applied to each row block of the Dask array X, lazily: a Dask array of its outputs.

    ``n_out=None``: fn returns one value per row (shape (n_b,)); an int: (n_b, n_out).
    ``meta``, an empty output of fn (e.g. a 0-row SciPy sparse matrix), tells Dask the kind
    of block to expect; a NumPy array of ``dtype`` by default. ``fn`` (typically a fitted
    estimator's bound method, or a partial holding its arrays) is placed by
    :func:`shared_arg`, like a reduction's static arguments: copied into each block's task
    when it pickles small, one graph node sent once to each worker when it is large (a
    forest, a vocabulary-sized model). The row chunks of X may be unknown (a Dask DataFrame's
    partitions): nothing is computed to learn them.
    """
    (X,) = dask_rows(X, known_rows=False)
    node = shared_arg(fn)
    if n_out is None:
        meta = np.empty((0,), dtype) if meta is None else meta
        return X.map_blocks(_apply, node, drop_axis=1, dtype=dtype, meta=meta)
    meta = np.empty((0, 0), dtype) if meta is None else meta
    return X.map_blocks(_apply, node, chunks=(X.chunks[0], (n_out,)), dtype=dtype, meta=meta)


# -- placing what every block task shares ------------------------------------------------------
SHARED_INLINE_BYTES = 1_000_000  # shared arguments up to this size are copied into each task


class _TooLarge(Exception):
    pass


class _ByteCount:
    """A file that counts the bytes written to it and gives up past ``limit``: a pickle is
    measured without being built whole (a large fitted forest stops after its first MB)."""

    def __init__(self, limit):
        self.limit, self.n = limit, 0

    def write(self, b):
        self.n += len(b)
        if self.n > self.limit:
            raise _TooLarge
        return len(b)


def _pickles_within(v, limit) -> bool:
    """Whether ``v`` pickles (cloudpickle, as dask sends it) to at most ``limit`` bytes."""
    if isinstance(v, np.ndarray) and v.dtype != object:
        return v.nbytes <= limit
    import cloudpickle

    try:
        cloudpickle.dump(v, _ByteCount(limit))
    except _TooLarge:
        return False
    except Exception:  # noqa: BLE001 - unpicklable here: a node, and dask reports it on submit
        return False
    return True


def shared_arg(v):
    """``v``, an argument shared by every block task, placed in the graph by its size.

    What pickles to at most :data:`SHARED_INLINE_BYTES` (coefficients, centres, a GLM family
    and link, a small fitted model) is copied into each block's task, so that the task depends
    on its block alone and runs on the worker that holds it; anything larger (a fitted forest)
    becomes one graph node, sent once to each worker that needs it. A node costs fewer bytes
    but makes every task depend on two workers' data, and the scheduler then balances its
    queues by moving blocks: k-means and Newton iterations on 10⁵ rows moved 20–40 % of the
    data per pass between 2 workers so (``benchmarks/dask_harness.py``, column "of which data
    blocks"). The one placement rule of the Dask paths: the static arguments of
    :func:`~scratchlearn.utils._blocks.block_reduce` and the function of :func:`map_rows`.
    """
    if v is None or isinstance(v, (numbers.Number, str, np.generic)):
        return v
    if _pickles_within(v, SHARED_INLINE_BYTES):
        return v
    import dask

    return dask.delayed(v, pure=False, traverse=False)


# -- the distributed client --------------------------------------------------------------------
def active_client():
    """The current ``distributed.Client``, or None (distributed not installed, or no client)."""
    try:
        from distributed import default_client
    except ImportError:
        return None
    try:
        return default_client()
    except ValueError:
        return None


def worker_memory_limits(client) -> list[float]:
    """The ``memory_limit`` of each worker of ``client`` in bytes; inf for a worker without
    one (a limit of 0 or None)."""
    try:
        info = client.scheduler_info(n_workers=-1)  # newer distributed lists 5 by default
    except TypeError:  # older distributed: no n_workers argument, every worker listed
        info = client.scheduler_info()
    return [float(w.get("memory_limit") or np.inf) for w in info.get("workers", {}).values()]


def persist_on_cluster(*arrays, share=0.5):
    """Dask arrays kept in the workers' memory for an iterative fit, when that is safe.

    An iterative fit reads its data once per pass: persisted, the blocks are loaded and
    checked once. That needs a ``dask.distributed`` client and data that fill at most
    ``share`` of the cluster's total ``memory_limit``; otherwise (no client, or out-of-core
    data) the arrays are returned unchanged and every pass re-reads its blocks, which keeps
    the memory of a pass at a few blocks per worker. None stays None.
    """
    client = active_client()
    if client is None:
        return arrays
    import dask

    kept = [a for a in arrays if a is not None]
    if sum(a.nbytes for a in kept) > share * sum(worker_memory_limits(client)):
        return arrays
    # Kept blocks are made C-contiguous once: blocks sliced from a wider array (X and y cut
    # from one [X y] block) would otherwise be copied by the compiled kernels at every pass
    # (k-means at 10⁷ × 20: 0.15 s of a 0.29 s pass was that copy).
    kept = [a.map_blocks(_contiguous, dtype=a.dtype) for a in kept]
    done = iter(dask.persist(*kept))
    return tuple(None if a is None else next(done) for a in arrays)


def checked_block(a, input_name, non_negative):
    """One block, checked where it lives: finite (and ≥ 0 for weights), else a clear error.
    A SciPy sparse block is checked by its stored values."""
    import scipy.sparse as sp

    from .validation import _assert_all_finite

    values = a.data if sp.issparse(a) else a
    _assert_all_finite(values, allow_nan=False, input_name=input_name)
    if non_negative and np.any(values < 0):
        raise ValueError(f"Negative values in {input_name} are not allowed.")
    return a


def _contiguous(a):
    return np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a


def check_dask_data(
    estimator, X, y=None, sample_weight=None, *, reset=True, dtype=np.float64, X_check=None
):
    """Validate Dask fit (``reset=True``) or predict (``reset=False``) input lazily.

    What the shape tells is checked at once: X 2-D and numeric, its column count and names
    against ``n_features_in_`` / ``feature_names_in_`` (recorded when ``reset``), y and the
    weights as long as X. What needs the values (NaN, infinities, negative weights) is checked
    on each block when the block is computed, on the worker that holds it: the error reaches
    the caller of ``fit`` as the same ``ValueError`` the in-memory check raises. Returns
    (X, y, sample_weight) as Dask arrays with the same row chunks (None stays None).

    ``X_check``, a function of one block, replaces the numeric check and cast of X for an
    estimator whose X need not be numbers (CategoricalNB's categories may be strings): X then
    keeps its dtype and each block goes through ``X_check`` instead.
    """
    owner = type(estimator).__name__
    estimator._check_feature_names(X, reset=reset)
    X, y, w = dask_rows(X, y, sample_weight)
    if X.ndim != 2:
        raise ValueError(f"{owner} expects a 2-D Dask array X; got {X.ndim} dimension(s).")
    if X_check is None and X.dtype.kind not in "biuf":
        raise ValueError(f"{owner} needs a numeric Dask array X; got dtype {X.dtype}.")
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"{owner} needs at least one row and one column; X has {X.shape}.")
    estimator._check_n_features(X, reset=reset)
    if X_check is None:
        X = X.astype(dtype).map_blocks(checked_block, "X", False, dtype=dtype)
    else:
        X = X.map_blocks(X_check, dtype=X.dtype)
    if y is not None:
        y = y.map_blocks(checked_block, "y", False, dtype=y.dtype) if y.dtype.kind in "fc" else y
    if w is not None:
        w = w.astype(np.float64).map_blocks(checked_block, "sample_weight", True)
    return X, y, w
