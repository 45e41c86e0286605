"""Prediction on Dask input for every fitted estimator: the in-memory method on each row block.

A prediction is a function of one row at a time, so for a Dask X (array or DataFrame) with row
blocks X_1, …, X_B

.. math::

    f(X) = \\begin{bmatrix} f(X_1) \\\\ \\vdots \\\\ f(X_B) \\end{bmatrix}

and each f(X_b) is the in-memory method itself, called on the block where it lives. One rule
for every estimator: :class:`~scratchlearn.base.BaseEstimator` wraps, once per class, each
method of :data:`ROW_METHODS` it has (:func:`lazy_on_dask`). On NumPy, SciPy or pandas input
the wrapper calls the method unchanged; on a Dask collection it returns
``map_rows(bound method, X)`` (:func:`predict_rows`): a lazy Dask array with X's row chunks, the
fitted model placed in the graph once by :func:`~scratchlearn.utils._dask.shared_arg` (copied
into each task when it pickles small, one node sent once to each worker when large). Nothing is
computed until the result is.

The width and dtype of the output are read from the method's answer on a probe of one
synthetic row (zeros, or each column's first fitted category), never from the data, so the
call stays lazy; the first block's answer must agree, and does by construction.

The generic path steps aside where a method answers Dask itself, marked with
:func:`answers_dask`: k-means and the Gaussian mixture (their Dask-fitted models hold lazy
labels, and their blocks need only the centres or the parameters), the scalers (their
``copy=False`` would write into a block that may be the caller's array), the tf-idf transformer
(sparse blocks), the neighbour estimators (:mod:`scratchlearn.neighbors._dask`), and the
pipeline (each of its steps is lazy in turn). Estimators whose input
is not a 2-D array (documents, sentences, 1-D labels: ``X_types`` without "2darray") keep
their own answer to Dask input too: a bag of documents for the vectorizers, a clear refusal
otherwise.

``score(X, y)`` of a Dask X (the mixins of :mod:`scratchlearn.base`, the GLMs' D²) predicts
lazily, then computes the predictions, y and the weights together
(:func:`compute_together`): the n predictions come into memory, O(n) numbers, never the
n × d inputs, and the metric is the in-memory one, so the score is the in-memory score.
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from ._dask import dask_rows, is_dask_collection, map_rows
from ._sparse import issparse

__all__ = [
    "ROW_METHODS",
    "answers_dask",
    "by_blocks",
    "lazy_on_dask",
    "predict_rows",
    "compute_together",
]

#: The methods answered row block by row block on Dask input: each output row depends on
#: its input row alone.
ROW_METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "predict_joint_log_proba",
    "decision_function",
    "transform",
    "score_samples",
)


def answers_dask(method):
    """Mark ``method`` as answering Dask input itself: the generic path steps aside for it
    (and for the subclasses that inherit it)."""
    method.__answers_dask__ = True
    return method


def marked(method) -> bool:
    """Whether ``method`` answers Dask input (its own path, or already the generic one)."""
    return getattr(method, "__answers_dask__", False)


def lazy_on_dask(fn):
    """``fn`` (a prediction method) that answers a Dask X by :func:`predict_rows`.

    Any other input goes to ``fn`` unchanged. So do estimators whose X is not a 2-D array
    (their tag ``X_types`` lacks "2darray": documents, sentences, labels): they answer or
    refuse Dask input themselves.
    """
    params = list(inspect.signature(fn).parameters)
    first = params[1] if len(params) > 1 else None  # X's name (raw_documents, sequences, ...)

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        X = args[0] if args else kwargs.get(first)
        if is_dask_collection(X) and "2darray" in self._scratch_tags()["X_types"]:
            rest = dict(kwargs)
            rest.pop(first, None)
            return predict_rows(self, fn.__name__, X, *args[1:], **rest)
        return fn(self, *args, **kwargs)

    method.__answers_dask__ = True
    method.__dask_by_blocks__ = True  # the generic path: the in-memory method on each block
    return method


def by_blocks(method) -> bool:
    """Whether ``method`` answers Dask input by the generic path (the in-memory method on each
    row block, so its answer equals the in-memory one block for block)."""
    return getattr(method, "__dask_by_blocks__", False)


def _probe_rows(est, d, dtype):
    """One-row NumPy inputs an estimator can answer, tried in turn to read its output's layout:
    each column's first fitted category (encoders, categorical naive Bayes), zeros, ones."""
    categories = getattr(est, "categories_", None)
    if isinstance(categories, (list, tuple)) and len(categories) == d:
        row = np.empty((1, d), dtype=object)
        row[0] = [c[0] for c in categories]
        yield row
    numeric = np.dtype(dtype).kind in "biuf"
    yield np.zeros((1, d), dtype=dtype if numeric else np.float64)
    yield np.ones((1, d), dtype=dtype if numeric else np.float64)


def _probe(est, fn, d, dtype):
    """``fn`` of a synthetic one-row input: the output's ndim, width, dtype and kind (dense or
    sparse), without reading the data. An unfitted estimator raises its NotFittedError here."""
    from ..exceptions import NotFittedError

    first_error = None
    for row in _probe_rows(est, d, dtype):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = fn(row)
        except NotFittedError:
            raise
        except Exception as exc:  # noqa: BLE001 - another probe row may suit the model
            first_error = first_error or exc
            continue
        return out if issparse(out) else np.asarray(out)
    raise TypeError(
        f"{type(est).__name__} could not be probed for the shape of its output on Dask input "
        f"({type(first_error).__name__}: {first_error}); compute X into memory "
        "(`X.compute()`) or map the method over its blocks (`X.map_blocks`)."
    ) from first_error


def predict_rows(est, method: str, X, *args, **kwargs):
    """``est.<method>`` of a Dask X, lazily: one task per row block of X, the in-memory method
    on the block (the fitted model placed once, by :func:`~scratchlearn.utils._dask.map_rows`).

    What the shape tells is checked now: X 2-D, its column count and names against
    ``n_features_in_`` / ``feature_names_in_``. What needs the values (NaN, unknown
    categories) is checked by the in-memory method on each block, when it is computed.
    """
    owner = type(est).__name__
    est._check_feature_names(X, reset=False)  # a DataFrame's columns, before they are dropped
    (X,) = dask_rows(X, known_rows=False)  # a DataFrame's row counts are not needed: no pass
    if X.ndim != 2:
        raise ValueError(f"{owner} expects a 2-D Dask array X; got {X.ndim} dimension(s).")
    est._check_n_features(X, reset=False)
    fn = getattr(est, method)
    if args or kwargs:
        fn = functools.partial(fn, *args, **kwargs)
    meta = _probe(est, fn, X.shape[1], X.dtype)
    n_out = None if meta.ndim == 1 else meta.shape[1]
    return map_rows(fn, X, n_out=n_out, dtype=meta.dtype, meta=meta[:0])


def compute_together(*arrays):
    """The Dask collections among ``arrays`` computed in one pass (None and in-memory arrays
    unchanged): what a score needs in memory, the predictions, y and the weights."""
    lazy = [i for i, a in enumerate(arrays) if is_dask_collection(a)]
    if not lazy:
        return arrays
    import dask

    done = dask.compute(*(arrays[i] for i in lazy))
    out = list(arrays)
    for i, value in zip(lazy, done):
        out[i] = value
    return tuple(out)
