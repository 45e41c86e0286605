"""Categorical naive Bayes: each feature takes one of a finite set of values.

Symbols: ``n`` samples, ``d`` features, ``K`` classes; ``n_j`` the number of categories of feature
j (its distinct training values, or ``min_categories`` if larger); ``N_jvc`` the (weighted) number
of class-c samples whose feature j equals v (``category_count_[j][c, v]``); ``N_c`` the weighted
count of class c; ``α`` the additive smoothing (seed 001's ``l``).

.. math::  P(x_j = v \\mid c) = \\frac{N_{jvc} + α}{N_c + α\\, n_j}

A value never seen for feature j during training (a new category at predict time) has
``N_jvc = 0`` for every class, so it contributes ``log α − log(N_c + α n_j)``: it is scored, not
rejected.

Categories are the values themselves, whatever their type: strings, integers (ordinal codes),
floats, or a mix in an object array or DataFrame. They are encoded internally per feature into
codes 0..n_j−1 following the sorted order of ``categories_[j]``.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..utils._param_validation import Interval
from ._base import _BaseNB, class_log_prior

__all__ = ["CategoricalNB"]


def _sort_key(v):
    # numbers before strings before anything else, each group in its natural order
    if isinstance(v, numbers.Number):
        return (0, v, "")
    if isinstance(v, str):
        return (1, 0, v)
    return (2, 0, repr(v))


def _is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _bad_value(j, v):
    return TypeError(
        f"CategoricalNB: every category argument must be a string or a number; feature {j} "
        f"holds a {type(v).__name__}: {v!r}."
    )


def unique_categories(col, j):
    """Sorted distinct values of one column (numeric: an array of numbers; else objects)."""
    if col.dtype.kind in "iu" and col.size and 0 <= col.min() and col.max() < 4 * col.size + 1024:
        # small non-negative codes: no sort needed (cast: NumPy < 2 refuses to bincount uint64)
        return np.flatnonzero(np.bincount(col.astype(np.intp, copy=False)))
    if col.dtype.kind in "biuf":
        return np.unique(col)
    try:
        cats = set(col.tolist())
    except TypeError:
        bad = next(v for v in col.tolist() if not isinstance(v, (str, numbers.Number)))
        raise _bad_value(j, bad) from None
    for v in cats:
        if _is_missing(v):
            raise ValueError(f"Input X contains missing values (None or NaN) in feature {j}.")
        if not isinstance(v, (str, bytes, numbers.Number)):
            raise _bad_value(j, v)
    out = np.empty(len(cats), dtype=object)
    out[:] = sorted(cats, key=_sort_key)
    if all(isinstance(v, numbers.Number) and not isinstance(v, bool) for v in out):
        return np.asarray(out.tolist())  # numbers stored as a numeric array
    return out


def encode(col, cats):
    """Codes (n,) of ``col`` in ``cats``; values not in ``cats`` get −1."""
    if (
        cats.dtype.kind in "iu"
        and np.can_cast(col.dtype, np.intp)
        and cats.size
        and cats[0] >= 0
        and cats[-1] < 4 * col.size + 1024
    ):
        lut = np.full(int(cats[-1]) + 2, -1, dtype=np.int64)  # value -> code; last slot: unseen
        lut[cats] = np.arange(cats.shape[0])
        if col.min() >= 0 and col.max() <= cats[-1]:
            return lut[col]
        return lut[np.where((col >= 0) & (col <= cats[-1]), col, cats[-1] + 1)]
    if cats.dtype.kind in "biuf" and col.dtype.kind in "biuf":
        pos = np.searchsorted(cats, col)
        pos = np.minimum(pos, max(cats.shape[0] - 1, 0))
        hit = cats[pos] == col if cats.shape[0] else np.zeros(col.shape, bool)
        return np.where(hit, pos, -1)
    lookup = {v: i for i, v in enumerate(cats.tolist())}
    try:
        return np.fromiter((lookup.get(v, -1) for v in col.tolist()), np.int64, col.shape[0])
    except TypeError:  # an unhashable value: it cannot be a category
        bad = next(v for v in col.tolist() if not isinstance(v, (str, numbers.Number)))
        raise _bad_value(-1, bad) from None


def _by_value(cats, col) -> bool:
    """Whether integer column ``col`` can index a table by value: it casts to ``intp`` without
    wrapping, and the categories are non-negative integers not so large that a table over 0..max
    would dwarf the column."""
    return (
        cats.dtype.kind in "iu"
        and np.can_cast(col.dtype, np.intp)
        and cats.shape[0] > 0
        and cats[0] >= 0
        and cats[-1] < 4 * col.shape[0] + 1024
    )


class CategoricalNB(_BaseNB):
    """Naive Bayes for categorical features (strings or integer codes), Laplace-smoothed.

    .. math::

        \\hat y = \\arg\\max_c \\; \\log π_c + \\sum_j \\log \\frac{N_{j x_j c} + α}{N_c + α n_j}

    Parameters
    ----------
    alpha : float ≥ 0, default 1.0
        Additive smoothing (1: Laplace).
    fit_prior : bool, default True
        Learn π_c as the class frequency; False: uniform prior.
    class_prior : array-like (K,) or None
        Fixed priors (override ``fit_prior``).
    min_categories : int, array-like (d,) or None
        Lower bound on n_j, for categories that exist but are absent from the training data
        (they are counted in the denominator only).

    Attributes
    ----------
    classes_ (K,), class_count_ (K,), class_log_prior_ (K,), n_features_in_;
    categories_ : list of d arrays, the sorted training values of each feature;
    n_categories_ : ndarray (d,) of n_j;
    category_count_ : list of d arrays (K, n_j) of N_jvc (columns in ``categories_`` order,
        then any extra categories from ``min_categories``);
    feature_log_prob_ : list of d arrays (K, n_j) of log P(x_j = v | c).

    Notes
    -----
    Integer input is treated like any other value: n_j is the number of distinct values seen,
    so for ordinal codes 0..k−1 that all occur, this is scikit-learn's model exactly. Missing
    values (None, NaN) raise; a value unseen in training is scored as a zero count.
    """

    _parameter_constraints = {
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "fit_prior": ["boolean"],
        "class_prior": ["array-like", None],
        "min_categories": [None, "array-like", Interval(numbers.Integral, 1, None)],
    }

    def __init__(self, *, alpha=1.0, fit_prior=True, class_prior=None, min_categories=None):
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.min_categories = min_categories

    def _check_X(self, X, *, reset):
        if sp.issparse(X):
            raise TypeError(
                "CategoricalNB does not accept sparse input; pass a dense array or DataFrame."
            )
        X = self._validate_data(X, reset=reset, dtype=None)
        if X.dtype.kind not in "biufOUS":
            raise TypeError(f"CategoricalNB cannot use X of dtype {X.dtype}.")
        if X.dtype.kind == "O":
            for j in range(X.shape[1]):
                if any(_is_missing(v) for v in X[:, j].tolist()):
                    raise ValueError(
                        f"Input X contains missing values (None or NaN) in feature {j}."
                    )
        return X

    def _min_categories(self, d):
        if self.min_categories is None:
            return np.zeros(d, dtype=np.int64)
        m = np.asarray(self.min_categories)
        if m.ndim == 0:
            return np.full(d, int(m))
        if m.shape != (d,) or m.dtype.kind not in "iu":
            raise ValueError(
                f"min_categories must be an int or an array of {d} ints; got shape {m.shape} "
                f"and dtype {m.dtype}."
            )
        return m.astype(np.int64)

    def _init_counters(self, X):
        d = X.shape[1]
        self.class_count_ = np.zeros(self.classes_.shape[0])
        self.categories_ = [np.empty(0) for _ in range(d)]
        self.category_count_ = [np.zeros((self.classes_.shape[0], 0)) for _ in range(d)]

    def _update_counts(self, X, Y):
        K = Y.shape[1]
        self.class_count_ += Y.sum(axis=0)
        keep = Y.sum(axis=1) > 0  # a row of weight 0 is as good as absent, its value too
        if not keep.all():
            X, Y = X[keep], Y[keep]
        cls = np.argmax(Y, axis=1)  # class index of each row (rows of weight 0 add nothing)
        w = Y[np.arange(Y.shape[0]), cls]
        for j in range(X.shape[1]):
            col = X[:, j]
            new = unique_categories(col, j)
            old = self.categories_[j]
            if old.shape[0]:
                both = np.concatenate([old, new]) if old.dtype == new.dtype else None
                if both is not None and both.dtype.kind in "biuf":
                    cats = np.unique(both)
                else:
                    cats = unique_categories(
                        np.concatenate([old.astype(object), new.astype(object)]), j
                    )
            else:
                cats = new
            counts = np.zeros((K, cats.shape[0]))  # min_categories padding is redone below
            if old.shape[0]:  # move the old counts to their columns in the merged order
                counts[:, encode(old, cats)] = self.category_count_[j][:, : old.shape[0]]
            codes = encode(col, cats)
            # N_jvc += Σ_i w_i [x_ij = v][y_i = c], as one bincount over (v, c) pairs
            flat = np.bincount(codes * K + cls, weights=w, minlength=cats.shape[0] * K)
            counts[:, : cats.shape[0]] += flat.reshape(cats.shape[0], K).T
            self.categories_[j] = cats
            self.category_count_[j] = counts
        n_min = self._min_categories(X.shape[1])
        for j in range(len(self.categories_)):
            extra = int(n_min[j]) - self.category_count_[j].shape[1]
            if extra > 0:  # categories known to exist but absent from the data
                pad = np.zeros((K, extra))
                self.category_count_[j] = np.hstack([self.category_count_[j], pad])

    def _update_model(self):
        self.n_categories_ = np.array([c.shape[1] for c in self.category_count_], dtype=np.int64)
        flp = []
        with np.errstate(divide="ignore"):
            for counts in self.category_count_:
                smoothed = counts + self.alpha  # N_jvc + α, (K, n_j)
                # log P(x_j = v | c) = log(N_jvc + α) − log(N_c + α n_j)
                flp.append(np.log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True)))
        self.feature_log_prob_ = flp
        self.class_log_prior_ = class_log_prior(
            self.class_count_, class_prior=self.class_prior, fit_prior=self.fit_prior
        )

    def _unseen_log_prob(self, j):
        # a value with N_jvc = 0 for every class: log α − log(N_c + α n_j), (K,)
        counts = self.category_count_[j]
        with np.errstate(divide="ignore"):
            return np.log(self.alpha) - np.log(counts.sum(axis=1) + self.alpha * counts.shape[1])

    def _term_tables(self, X):
        """Yield, per feature j, ``(table (K, m), index (n,), mode)`` such that
        ``table.take(index, axis=1, mode=mode)`` is log P(x_ij | c) as a (K, n) array.

        Small non-negative integer categories are looked up by value, with no encoding pass:
        column v of the table holds value v, and every other column holds the unseen-value term,
        the last one (``cats[-1] + 1``) serving every value above the largest category (through
        ``mode="clip"``) or below 0. Other categories are encoded first; code −1 (unseen) wraps to
        the last column, the unseen term.
        """
        columns = np.ascontiguousarray(X.T)  # (d, n): one transposing copy, then contiguous rows
        for j, col in enumerate(columns):
            cats = self.categories_[j]
            flp, unseen = self.feature_log_prob_[j], self._unseen_log_prob(j)[:, None]
            if _by_value(cats, col):
                table = np.repeat(unseen, int(cats[-1]) + 2, axis=1)
                table[:, cats] = flp[:, : cats.shape[0]]
                if col.min() < 0:
                    col = np.where(col < 0, np.intp(table.shape[1] - 1), col)
                yield table, col, "clip"
            else:
                yield np.hstack([flp, unseen]), encode(col, cats), "wrap"

    def _joint_log_likelihood(self, X):
        # accumulated class-major (K, n), so that every feature adds one contiguous gather
        jll = np.repeat(self.class_log_prior_[:, None], X.shape[0], axis=1)
        terms = np.empty_like(jll)
        for table, index, mode in self._term_tables(X):
            jll += table.take(index, axis=1, mode=mode, out=terms)
        return jll.T

    def _explain_terms(self, X):
        terms = np.vstack([t.take(i, axis=1, mode=m).T for t, i, m in self._term_tables(X)])
        values = [v.item() if hasattr(v, "item") else v for v in X[0].tolist()]
        return np.arange(X.shape[1]), values, terms  # terms (d, K)

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "categorical"], poor_score=True)
        return t
