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

The fit's statistic is keyed twice: by class (rows of N_jvc) and, per feature, by category value
(columns). A block of rows gives its labels, its categories and their counts
(:func:`category_counts`); two blocks combine by the union of labels and of categories, counts
added (:func:`merge_category_counts`). In memory that is one block; ``partial_fit`` merges the
running counts with a batch's; on Dask the row blocks are merged in a tree, so categories that
only some blocks hold are found in the same single pass.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..utils._dask import check_dask_data
from ..utils._param_validation import Interval
from ..utils.validation import _assert_all_finite
from ._base import _BaseNB, align_classes, class_log_prior, encode_labels, expand_rows, one_hot

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


def check_categorical_block(X):
    """Values that cannot be categories raise: missing values (None, NaN), infinities, dtypes
    other than numbers and strings. Returns X (the in-memory check, and one Dask block's)."""
    if X.dtype.kind not in "biufOUS":
        raise TypeError(f"CategoricalNB cannot use X of dtype {X.dtype}.")
    if X.dtype.kind == "f":
        _assert_all_finite(X, allow_nan=False, input_name="X")
    if X.dtype.kind == "O":
        for j in range(X.shape[1]):
            if any(_is_missing(v) for v in X[:, j].tolist()):
                raise ValueError(f"Input X contains missing values (None or NaN) in feature {j}.")
    return X


def category_counts(X, y, w):
    """CategoricalNB's statistic of a block of rows (the whole data in memory): its labels
    ``classes``, N_c (``class_count``), and per feature j its sorted categories and
    N_jvc = Σ_i w_i [x_ij = v][y_i = c] (``counts[j]``, (K, n_j)). Rows of weight 0 are as good
    as absent: their values are not categories."""
    classes, cls = encode_labels(y)
    K = classes.shape[0]
    Y = one_hot(cls, K, w)  # (n, K)
    class_count = Y.sum(axis=0)
    w = Y[np.arange(Y.shape[0]), cls]
    keep = w > 0
    if not keep.all():
        X, cls, w = X[keep], cls[keep], w[keep]
    if X.dtype.kind in "biuf":  # column by column below: contiguous columns (one copy)
        X = np.asfortranarray(X)
    categories, counts = [], []
    for j in range(X.shape[1]):
        col = X[:, j]
        cats = unique_categories(col, j)
        # N_jvc = Σ_i w_i [x_ij = v][y_i = c], as one bincount over (v, c) pairs
        flat = np.bincount(encode(col, cats) * K + cls, weights=w, minlength=cats.shape[0] * K)
        categories.append(cats)
        counts.append(flat.reshape(cats.shape[0], K).T)
    return {
        "classes": classes,
        "class_count": class_count,
        "categories": categories,
        "counts": counts,
    }


def union_categories(a, b, j):
    """The sorted union of two arrays of categories of feature j."""
    if a.shape[0] == 0:
        return b
    if b.shape[0] == 0 or (a.shape == b.shape and np.array_equal(a, b)):
        return a
    if a.dtype == b.dtype and a.dtype.kind in "biuf":
        return np.unique(np.concatenate([a, b]))
    return unique_categories(np.concatenate([a.astype(object), b.astype(object)]), j)


def merge_category_counts(a, b):
    """The statistic of two disjoint blocks: labels and categories united, counts added."""
    classes, ia, ib = align_classes(a["classes"], b["classes"])
    K = classes.shape[0]
    out = {
        "classes": classes,
        "class_count": expand_rows(a["class_count"], ia, K) + expand_rows(b["class_count"], ib, K),
        "categories": [],
        "counts": [],
    }
    for j, (ca, cb) in enumerate(zip(a["categories"], b["categories"])):
        Na, Nb = expand_rows(a["counts"][j], ia, K), expand_rows(b["counts"][j], ib, K)
        cats = union_categories(ca, cb, j)
        if cats is ca and ca.shape == cb.shape:
            counts = Na + Nb
        else:  # each side's columns moved to their categories' places in the union
            counts = np.zeros((K, cats.shape[0]))
            counts[:, encode(ca, cats)] += Na
            counts[:, encode(cb, cats)] += Nb
        out["categories"].append(cats)
        out["counts"].append(counts)
    return out


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

    Dask: X may be a Dask array (numeric, string or object) or DataFrame; y and sample_weight
    NumPy or Dask. Each row block gives its labels, categories and counts
    (:func:`category_counts`), merged by label and category (:func:`merge_category_counts`)
    in one pass; a block sends K·(1 + Σ_j n_j) counts and Σ_j n_j category values.
    ``min_categories`` applies after the merge, as in memory. Predictions are lazy.

    Examples
    --------
    >>> from scratchlearn.datasets import load_play_tennis
    >>> from scratchlearn.naive_bayes import CategoricalNB
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> clf = CategoricalNB().fit(X, y)
    >>> print(clf.n_categories_.tolist())
    [3, 3, 2, 2]
    >>> day = [["Sunny", "Cool", "High", "Strong"]]
    >>> print(clf.predict(day).tolist(), clf.predict_proba(day).round(3))
    [0] [[0.72 0.28]]
    """

    _block_stat = staticmethod(category_counts)
    _combine = staticmethod(merge_category_counts)

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "categories_": ("[label]", ("n_features_in_", "*")),
        "n_categories_": ("int", ("n_features_in_",)),
        "category_count_": ("[float64]", ("n_features_in_", "n_classes", "*")),
        "feature_log_prob_": ("[float64]", ("n_features_in_", "n_classes", "*")),
    }

    def _check_fitted_state(self):
        """Feature j has n_categories_[j] columns in category_count_ and feature_log_prob_."""
        for j, n in enumerate(self.n_categories_):
            if not (self.category_count_[j].shape[1] == self.feature_log_prob_[j].shape[1] == n):
                raise ValueError(
                    f"feature {j} has {n} categories in n_categories_, but not in "
                    "category_count_ or feature_log_prob_"
                )

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
        return check_categorical_block(self._validate_data(X, reset=reset, dtype=None))

    def _check_dask(self, X, y=None, sample_weight=None, *, reset):
        # categories may be strings: X keeps its dtype and each block is checked as categories
        if getattr(X, "dtype", np.dtype(float)).kind not in "biufOUS":
            raise TypeError(f"CategoricalNB cannot use X of dtype {X.dtype}.")
        return check_dask_data(
            self, X, y, sample_weight, reset=reset, X_check=check_categorical_block
        )

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

    def _zero_state(self, d):
        K = self.classes_.shape[0]
        return {
            "classes": self.classes_,
            "class_count": np.zeros(K),
            "categories": [np.empty(0) for _ in range(d)],
            "counts": [np.zeros((K, 0)) for _ in range(d)],
        }

    def _state(self):
        return {
            "classes": self.classes_,
            "class_count": self.class_count_,
            "categories": self.categories_,
            "counts": [N[:, : c.shape[0]] for N, c in zip(self.category_count_, self.categories_)],
        }

    def _set_state(self, stat):
        self.class_count_ = stat["class_count"]
        self.categories_ = stat["categories"]
        self.category_count_ = stat["counts"]
        K = self.class_count_.shape[0]
        n_min = self._min_categories(len(self.categories_))
        for j, counts in enumerate(self.category_count_):
            extra = int(n_min[j]) - counts.shape[1]
            if extra > 0:  # categories known to exist but absent from the data
                self.category_count_[j] = np.hstack([counts, np.zeros((K, extra))])

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
