"""What every ranker shares: the query ids, the grouping of rows by query, the fit plumbing.

Symbols
-------
n      rows (documents, alternatives), X of shape (n, d)
qid    one query id per row; rows of one query need not be contiguous
Q      number of distinct queries
codes  the query of each row as 0..Q-1 (in sorted order of the ids)
order  a permutation of the rows that makes every query contiguous
starts the first position of each query in ``order`` (length Q)

Interleaved or unsorted ids are grouped by value: a query is the set of rows where ``qid`` has
one value, wherever they are, not a run of consecutive rows, and within a query the rows keep
their original relative order (a stable sort). So a model never depends on how the queries
happen to be laid out, and shuffling the rows changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..base import BaseEstimator, RankerMixin
from ..utils.validation import _finite_product, check_is_fitted

__all__ = ["Queries", "check_qid", "group_queries", "BaseRanker"]


def check_qid(qid, n_samples: int, owner: str = "ranker") -> np.ndarray:
    """``qid`` as a 1-d array of ``n_samples`` ids (all zeros when None: one query).

    Raises ValueError, naming what is wrong, for a wrong length, a 2-d array, or ids that are
    NaN or infinite.
    """
    if qid is None:
        return np.zeros(n_samples, dtype=np.int64)
    qid = np.asarray(qid)
    if qid.ndim != 1:
        raise ValueError(f"qid must be a 1-d array of query ids; got shape {qid.shape} ({owner}).")
    if qid.shape[0] != n_samples:
        raise ValueError(
            f"qid has {qid.shape[0]} elements, but X has {n_samples} samples: give one query "
            f"id per row ({owner})."
        )
    if qid.dtype.kind == "f" and not np.all(np.isfinite(qid)):
        raise ValueError(f"qid contains NaN or infinity; query ids must be finite ({owner}).")
    if qid.dtype.kind not in "iufUSO":
        raise ValueError(f"qid must hold numbers or strings; got dtype {qid.dtype} ({owner}).")
    return qid


@dataclass(frozen=True)
class Queries:
    """The rows grouped by query: ``order`` makes each query contiguous; query q occupies
    ``order[starts[q]:stops[q]]``; ``codes[i]`` is the query (0..Q-1) of row i."""

    order: np.ndarray
    starts: np.ndarray
    codes: np.ndarray

    @property
    def n_queries(self) -> int:
        return len(self.starts)

    @cached_property
    def stops(self) -> np.ndarray:
        return np.r_[self.starts[1:], len(self.order)]

    @cached_property
    def sizes(self) -> np.ndarray:
        return self.stops - self.starts

    def rows(self, q: int) -> np.ndarray:
        """The row indices of query ``q``, in their original relative order."""
        return self.order[self.starts[q] : self.stops[q]]


def group_queries(qid) -> Queries:
    """Group rows by the value of their query id (contiguous or not).

    ``codes = unique(qid, return_inverse)``, ``order = argsort(codes, stable)`` and ``starts``
    the positions where ``codes[order]`` changes value.
    """
    _, codes = np.unique(qid, return_inverse=True)
    codes = codes.reshape(-1)
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    return Queries(order=order, starts=starts, codes=codes)


class BaseRanker(RankerMixin, BaseEstimator):
    """Validation shared by the linear rankers: ``fit(X, y, qid)`` checks, ``predict = Xw``."""

    def _validate_ranking_data(self, X, y, qid):
        """Validated (X, y, Queries); qid is checked after X and y, before any work."""
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True)
        y = np.asarray(y, dtype=np.float64)
        qid = check_qid(qid, X.shape[0], type(self).__name__)
        return X, y, group_queries(qid)

    def predict(self, X):
        """Scores s = Xw, one per row: a higher score ranks a row higher within its query.

        X is read where it lies (never copied when it is already a float64 array). A
        non-empty 2-d float64 ndarray with the fitted number of columns, on a model fitted
        without column names, is already what validation would return: of the checks only
        finiteness remains, and the product tells it (:func:`_finite_product`: X is
        read once when the scores are finite and w has no zero; the same error messages),
        without the general path's conversions. Anything else takes the general path, whose
        finiteness is told the same way.
        """
        check_is_fitted(self, "coef_")
        if not (
            type(X) is np.ndarray
            and X.dtype == np.float64
            and X.ndim == 2
            and X.shape[0] > 0
            and X.shape[1] == getattr(self, "n_features_in_", None)
            and not hasattr(self, "feature_names_in_")  # would warn that X has no names
        ):
            X = self._validate_data(X, reset=False, dtype=np.float64, ensure_all_finite=False)
        return _finite_product(X, self.coef_)  # (n,): one matrix-vector product
