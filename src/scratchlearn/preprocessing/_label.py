"""Target encoders: class labels to integers, or to one-vs-all indicator columns.

These act on a 1-D target y, not on X (``fit(y)``, ``transform(y)``).

Symbols: n samples, K classes, ``classes_`` the sorted distinct labels, c_i the index of y_i in
``classes_``.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._param_validation import Interval
from ..utils.multiclass import type_of_target
from ..utils.validation import check_is_fitted, column_or_1d
from ._column_codes import column_categories, encode_column

__all__ = ["LabelEncoder", "LabelBinarizer"]


def _labels_1d(y):
    y = column_or_1d(y, warn=True)
    if y.dtype.kind in "US":
        y = y.astype(object) if y.dtype.kind == "S" else y
    return y


def _codes_of(y, classes):
    """c_i for every label, raising on labels not in ``classes``."""
    codes, known = encode_column(y, classes)
    if not known.all():
        unseen = list(dict.fromkeys(y[~known].tolist()))
        raise ValueError(f"y contains previously unseen labels: {unseen[:20]}")
    return codes


class LabelEncoder(TransformerMixin, BaseEstimator):
    """Map class labels to 0..K−1 in sorted order: y_i ↦ c_i.

    Examples
    --------
    >>> from scratchlearn.preprocessing import LabelEncoder
    >>> enc = LabelEncoder().fit(["spam", "ham", "spam", "eggs"])
    >>> print(enc.classes_.tolist())
    ['eggs', 'ham', 'spam']
    >>> print(enc.transform(["ham", "spam"]).tolist())
    [1, 2]
    >>> print(enc.inverse_transform([0, 2]).tolist())
    ['eggs', 'spam']
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"classes_": ("label", ("n_classes",))}

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(X_types=["1dlabels"], preserves_dtype=[])  # fitted on y alone
        return t

    def fit(self, y):
        """Learn the sorted distinct labels ``classes_``."""
        y = _labels_1d(y)
        self.classes_ = column_categories(y)
        return self

    def fit_transform(self, y):
        """Fit, then return the codes of y."""
        return self.fit(y).transform(y)

    def transform(self, y):
        """Codes c_i of the labels (ValueError listing any unseen label)."""
        check_is_fitted(self, "classes_")
        y = _labels_1d(y)
        if y.shape[0] == 0:
            return np.array([], dtype=np.intp)
        return _codes_of(y, self.classes_)

    def inverse_transform(self, y):
        """Labels ``classes_[c]`` of codes c."""
        check_is_fitted(self, "classes_")
        y = column_or_1d(y, warn=True)
        if y.shape[0] == 0:
            return self.classes_[[]]
        bad = np.setdiff1d(y, np.arange(len(self.classes_)))
        if bad.size:
            raise ValueError(f"y contains previously unseen labels: {bad.tolist()[:20]}")
        return self.classes_[np.asarray(y, dtype=np.intp)]


class LabelBinarizer(TransformerMixin, BaseEstimator):
    """One-vs-all indicators: Y_ik = pos_label if y_i = classes_[k] else neg_label.

    Two classes give a single column (the indicator of the second class); K > 2 classes give
    K columns. Labels unseen at fit time give a row of ``neg_label``.

    Examples
    --------
    >>> from scratchlearn.preprocessing import LabelBinarizer
    >>> lb = LabelBinarizer().fit(["cat", "dog", "bird", "dog"])
    >>> print(lb.classes_.tolist())
    ['bird', 'cat', 'dog']
    >>> print(lb.transform(["dog", "bird"]))
    [[0 0 1]
     [1 0 0]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"classes_": ("label", ("n_classes",)), "y_type_": ("str", ())}

    _parameter_constraints = {
        "neg_label": [Interval(numbers.Integral, None, None)],
        "pos_label": [Interval(numbers.Integral, None, None)],
        "sparse_output": ["boolean"],
    }

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(X_types=["1dlabels"], preserves_dtype=[])  # fitted on y alone
        return t

    def __init__(self, *, neg_label=0, pos_label=1, sparse_output=False):
        self.neg_label = neg_label
        self.pos_label = pos_label
        self.sparse_output = sparse_output

    def fit(self, y):
        """Learn ``classes_`` and the kind of target (``y_type_``)."""
        self._validate_params()
        if self.neg_label >= self.pos_label:
            raise ValueError(
                f"neg_label={self.neg_label} must be strictly less than pos_label={self.pos_label}."
            )
        y = _labels_1d(y)
        if y.shape[0] == 0:
            raise ValueError("y has 0 samples: LabelBinarizer needs at least one label.")
        self.y_type_ = type_of_target(y)
        if self.y_type_ == "continuous":
            raise ValueError("LabelBinarizer needs class labels, got a continuous target.")
        self.classes_ = column_categories(y)
        return self

    def fit_transform(self, y):
        """Fit, then return the indicator matrix of y."""
        return self.fit(y).transform(y)

    def transform(self, y):
        """The (n, 1) or (n, K) indicator matrix."""
        check_is_fitted(self, "classes_")
        y = _labels_1d(y)
        n, K = y.shape[0], len(self.classes_)
        codes, known = encode_column(y, self.classes_) if n else (np.zeros(0, int),) * 2
        rows = np.flatnonzero(known)
        if K <= 2:
            # one column: the indicator of the second class (all negative with one class)
            hit = (codes == 1) & known if K == 2 else np.zeros(n, dtype=bool)
            Y = np.where(hit, self.pos_label, self.neg_label).astype(np.int64)[:, None]
        else:
            Y = np.full((n, K), self.neg_label, dtype=np.int64)
            Y[rows, codes[rows]] = self.pos_label
        return sp.csr_matrix(Y) if self.sparse_output else Y

    def inverse_transform(self, Y, threshold=None):
        """Labels from indicators or scores: argmax over columns, or (one column) the second
        class where Y > threshold (default (pos_label + neg_label) / 2)."""
        check_is_fitted(self, "classes_")
        Y = Y.toarray() if sp.issparse(Y) else np.asarray(Y)
        if Y.ndim == 1:
            Y = Y[:, None]
        K = len(self.classes_)
        expected = 1 if K <= 2 else K
        if Y.shape[1] != expected:
            raise ValueError(f"Y should have {expected} column(s), got {Y.shape[1]}.")
        if K > 2:
            return self.classes_[np.argmax(Y, axis=1)]
        if threshold is None:
            threshold = (self.pos_label + self.neg_label) / 2.0
        if K == 1:
            return np.repeat(self.classes_, Y.shape[0])
        return self.classes_[(Y[:, 0] > threshold).astype(np.intp)]
