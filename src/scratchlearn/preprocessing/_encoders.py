"""Categorical encoders: one indicator column per category, or one integer per category.

Symbols
-------
======  ==================================================================
n, d    samples, input columns
K_j     number of categories of column j (``len(categories_[j])``)
c_ij    code of x_ij: its index in ``categories_[j]`` (−1 when unknown)
o_j     first output column of input column j (one-hot), o_j = Σ_{l<j} K'_l
K'_j    output columns of column j: K_j, minus one when a category is dropped
======  ==================================================================

One-hot: row i has a 1 in column o_j + c'_ij for every j, where c'_ij is c_ij shifted down past
the dropped category (no 1 at all for the dropped category or an ignored unknown one). Ordinal:
x'_ij = c_ij as a float.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _check_input_features
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import check_array, check_is_fitted
from ._column_codes import (
    column_categories,
    encode_column,
    split_columns,
    string_matrix_codes,
)

__all__ = ["OneHotEncoder", "OrdinalEncoder"]


def _describe_unknown(values, known, limit=10):
    bad = values[~known]
    try:
        shown = list(dict.fromkeys(bad.tolist()))
    except TypeError:
        shown = list(bad.tolist())
    text = repr(shown[:limit])
    return text[:-1] + ", ...]" if len(shown) > limit else text


class _BaseEncoder(TransformerMixin, BaseEstimator):
    """Column splitting, category learning and coding shared by both encoders."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "categories_": ("[label]", ("n_features_in_", "*")),
    }

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "categorical", "string"], allow_nan=True)
        return t

    def _columns(self, X, reset):
        arr = self._validate_data(X, reset=reset, dtype=None, ensure_all_finite="allow-nan")
        if hasattr(X, "iloc") and hasattr(X, "dtypes"):
            return split_columns(X), arr
        if not hasattr(X, "dtype") and arr.dtype.kind in "US":
            arr = arr.astype(object)  # lists of str: keep Python strings, like a DataFrame
        return split_columns(arr), arr

    def _fit_categories(self, X, handle_unknown):
        cols, _ = self._columns(X, reset=True)
        if not (isinstance(self.categories, str) and self.categories == "auto"):
            if len(self.categories) != len(cols):
                raise ValueError(
                    f"Shape mismatch: if categories is an array, it has to be of shape "
                    f"(n_features,) = ({len(cols)},); got {len(self.categories)} lists."
                )
        cats = []
        for j, col in enumerate(cols):
            if isinstance(self.categories, str):
                cats.append(column_categories(col, j))
                continue
            given = np.asarray(self.categories[j])
            if col.dtype.kind == "O" and given.dtype.kind != "O":
                given = given.astype(object)
            if given.dtype.kind in "biuf":
                present = given[~np.isnan(given)] if given.dtype.kind == "f" else given
                if np.any(present[1:] < present[:-1]):
                    raise ValueError(
                        f"Unsorted categories are not supported for numerical categories "
                        f"(column {j}: {given.tolist()})."
                    )
            if handle_unknown == "error":
                _, known = encode_column(col, given)
                if not known.all():
                    raise ValueError(
                        f"Found unknown categories {_describe_unknown(col, known)} in column "
                        f"{j} during fit."
                    )
            cats.append(given)
        self.categories_ = cats
        self._all_str = all(
            c.dtype.kind == "O" and all(type(v) is str for v in c.tolist()) for c in cats
        )
        return cols

    def _codes(self, X, allow_unknown):
        """Codes c (n, d) and the mask of known values (n, d)."""
        cols, arr = self._columns(X, reset=False)
        if arr.dtype.kind == "O" and getattr(self, "_all_str", False):
            codes, known = string_matrix_codes(arr, self.categories_)
        else:
            n = cols[0].shape[0] if cols else 0
            codes = np.empty((n, len(cols)), dtype=np.intp)
            known = np.empty((n, len(cols)), dtype=bool)
            for j, col in enumerate(cols):
                codes[:, j], known[:, j] = encode_column(col, self.categories_[j])
        if not allow_unknown and not known.all():
            j = int(np.flatnonzero(~known.all(axis=0))[0])
            raise ValueError(
                f"Found unknown categories {_describe_unknown(cols[j], known[:, j])} in column "
                f"{j} during transform."
            )
        return codes, known


def _category_array(columns):
    """Stack per-column results (each (n,)) into one (n, d) array of a common dtype."""
    if any(c.dtype.kind == "O" for c in columns):
        out = np.empty((columns[0].shape[0], len(columns)), dtype=object)
        for j, c in enumerate(columns):
            out[:, j] = c
        return out
    return np.column_stack(columns)


class OneHotEncoder(_BaseEncoder):
    r"""One 0/1 column per category of each input column.

    ``drop="first"`` drops each column's first category (K_j − 1 columns, avoiding perfect
    collinearity with an intercept); ``drop="if_binary"`` does so only for two-category columns.
    With ``handle_unknown="ignore"`` an unseen category gives an all-zero block.

    Attributes
    ----------
    categories_ : list of d arrays, each sorted
    drop_idx_ : None or object array (d,) of int or None

    Examples
    --------
    >>> from scratchlearn.datasets import load_play_tennis
    >>> from scratchlearn.preprocessing import OneHotEncoder
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> enc = OneHotEncoder(sparse_output=False).fit(X)
    >>> print(enc.categories_[0].tolist())
    ['Overcast', 'Rain', 'Sunny']
    >>> print(enc.transform([["Rain", "Mild", "High", "Weak"]]))
    [[0. 1. 0. 0. 0. 1. 1. 0. 0. 1.]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "_all_str": ("bool", ()),
        "_n_out": ("int", ("n_features_in_",)),
        "drop_idx_": (None, ("n_features_in_",), "optional"),
    }

    _parameter_constraints = {
        "categories": [StrOptions({"auto"}), list],
        "drop": [StrOptions({"first", "if_binary"}), list, tuple, np.ndarray, None],
        "sparse_output": ["boolean"],
        "dtype": ["no_validation"],
        "handle_unknown": [StrOptions({"error", "ignore"})],
    }

    def __init__(
        self,
        *,
        categories="auto",
        drop=None,
        sparse_output=True,
        dtype=np.float64,
        handle_unknown="error",
    ):
        self.categories = categories
        self.drop = drop
        self.sparse_output = sparse_output
        self.dtype = dtype
        self.handle_unknown = handle_unknown

    def _drop_indices(self):
        if self.drop is None:
            return None
        if isinstance(self.drop, str):
            sizes = [len(c) for c in self.categories_]
            if self.drop == "first":
                idx = [0] * len(sizes)
            else:
                idx = [0 if k == 2 else None for k in sizes]
        else:
            wanted = list(self.drop)
            if len(wanted) != len(self.categories_):
                raise ValueError(
                    f"`drop` should have length equal to the number of features "
                    f"({len(self.categories_)}), got {len(wanted)}."
                )
            idx = []
            for j, (value, cats) in enumerate(zip(wanted, self.categories_)):
                if value is None:
                    idx.append(None)
                    continue
                hits = [i for i, c in enumerate(cats.tolist()) if c == value]
                if not hits:
                    raise ValueError(
                        f"The category {value!r} to drop in column {j} is not among its "
                        f"categories {cats.tolist()}."
                    )
                idx.append(hits[0])
        out = np.empty(len(idx), dtype=object)
        out[:] = idx
        return out

    def fit(self, X, y=None):
        """Learn the sorted categories of each column."""
        self._validate_params()
        self._fit_categories(X, self.handle_unknown)
        self.drop_idx_ = self._drop_indices()
        drop = self._drop_array()
        self._n_out = np.array([len(c) for c in self.categories_]) - (drop >= 0)
        return self

    def _drop_array(self):
        if getattr(self, "drop_idx_", None) is None:
            return np.full(len(self.categories_), -1, dtype=np.intp)
        return np.array([-1 if i is None else i for i in self.drop_idx_], dtype=np.intp)

    def transform(self, X):
        """The (n, Σ K'_j) indicator matrix, CSR when ``sparse_output``."""
        check_is_fitted(self, "categories_")
        codes, known = self._codes(X, allow_unknown=self.handle_unknown == "ignore")
        n = codes.shape[0]
        drop = self._drop_array()
        if self.drop_idx_ is not None:
            hit = (codes == drop) & known  # (n, d) the dropped category: no 1 at all
            known = known & ~hit
            codes = codes - ((codes > drop) & (drop >= 0))
        offsets = np.concatenate([[0], np.cumsum(self._n_out)[:-1]]).astype(np.intp)
        cols = codes + offsets  # (n, d)
        total = int(self._n_out.sum())
        if known.all():
            indices = cols.ravel()
            indptr = np.arange(0, n * codes.shape[1] + 1, codes.shape[1])
        else:
            indices = cols[known]
            indptr = np.concatenate([[0], np.cumsum(known.sum(axis=1))])
        if not self.sparse_output:
            out = np.zeros((n, total), dtype=self.dtype)
            rows = np.repeat(np.arange(n), np.diff(indptr))
            out[rows, indices] = 1
            return out
        data = np.ones(indices.shape[0], dtype=self.dtype)
        return sp.csr_matrix((data, indices, indptr), shape=(n, total))

    def inverse_transform(self, X):
        """Back to categories; an all-zero block gives the dropped category, or None when
        unknown categories were ignored."""
        check_is_fitted(self, "categories_")
        X = check_array(X, accept_sparse="csr", estimator=self)
        total = int(self._n_out.sum())
        if X.shape[1] != total:
            raise ValueError(
                f"Shape of the passed X data is not correct. Expected {total} columns, got "
                f"{X.shape[1]}."
            )
        X = X.toarray() if sp.issparse(X) else X
        drop = self._drop_array()
        columns, start = [], 0
        for j, cats in enumerate(self.categories_):
            k = int(self._n_out[j])
            kept = np.delete(np.arange(len(cats)), drop[j]) if drop[j] >= 0 else np.arange(k)
            block = X[:, start : start + k]  # (n, K'_j)
            start += k
            empty = ~np.any(block != 0, axis=1) if k else np.ones(X.shape[0], dtype=bool)
            idx = kept[np.argmax(block, axis=1)] if k else np.zeros(X.shape[0], dtype=np.intp)
            col = cats[idx]
            if empty.any():
                if drop[j] >= 0:
                    col = np.where(empty, cats[drop[j]], col)
                elif self.handle_unknown == "ignore":
                    col = col.astype(object)
                    col[empty] = None
                else:
                    raise ValueError(
                        f"Samples {np.flatnonzero(empty)[:10].tolist()} can not be inverted "
                        "when drop=None and handle_unknown='error' because they contain all "
                        f"zeros in the block of column {j}."
                    )
            columns.append(col)
        return _category_array(columns)

    def get_feature_names_out(self, input_features=None):
        """One name per output column: "<input name>_<category>"."""
        check_is_fitted(self, "categories_")
        names = _check_input_features(self, input_features)
        drop = self._drop_array()
        out = []
        for j, cats in enumerate(self.categories_):
            for i, c in enumerate(cats.tolist()):
                if i != drop[j]:
                    out.append(f"{names[j]}_{c}")
        return np.asarray(out, dtype=object)


class OrdinalEncoder(OneToOneFeatureMixin, _BaseEncoder):
    """Each category of a column becomes its index in the sorted categories: 0, 1, …, K_j − 1.

    Missing values (None, NaN) are encoded as ``encoded_missing_value`` (NaN by default). With
    ``handle_unknown="use_encoded_value"``, unseen categories become ``unknown_value``.

    Examples
    --------
    >>> from scratchlearn.datasets import load_play_tennis
    >>> from scratchlearn.preprocessing import OrdinalEncoder
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> enc = OrdinalEncoder().fit(X)
    >>> print(enc.categories_[1].tolist())
    ['Cool', 'Hot', 'Mild']
    >>> print(enc.transform(X[:3]))
    [[2. 1. 0. 1.]
     [2. 1. 0. 0.]
     [0. 1. 0. 1.]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"_all_str": ("bool", ()), "_missing_idx": ("[int]", ("n_features_in_", "*"))}

    _parameter_constraints = {
        "categories": [StrOptions({"auto"}), list],
        "dtype": ["no_validation"],
        "handle_unknown": [StrOptions({"error", "use_encoded_value"})],
        "unknown_value": [Interval(numbers.Integral, None, None), numbers.Real, None],
        "encoded_missing_value": [Interval(numbers.Integral, None, None), numbers.Real],
    }

    def __init__(
        self,
        *,
        categories="auto",
        dtype=np.float64,
        handle_unknown="error",
        unknown_value=None,
        encoded_missing_value=np.nan,
    ):
        self.categories = categories
        self.dtype = dtype
        self.handle_unknown = handle_unknown
        self.unknown_value = unknown_value
        self.encoded_missing_value = encoded_missing_value

    def _check_unknown_value(self):
        uv = self.unknown_value
        if self.handle_unknown == "use_encoded_value":
            ok = (
                isinstance(uv, numbers.Integral)
                and not isinstance(uv, bool)
                or (isinstance(uv, float) and np.isnan(uv))
            )
            if not ok:
                raise TypeError(
                    "unknown_value should be an integer or np.nan when handle_unknown is "
                    f"'use_encoded_value', got {uv!r}."
                )
        elif uv is not None:
            raise TypeError(
                "unknown_value should only be set when handle_unknown is 'use_encoded_value', "
                f"got {uv!r}."
            )

    def fit(self, X, y=None):
        """Learn the sorted categories of each column."""
        self._validate_params()
        self._check_unknown_value()
        self._fit_categories(X, self.handle_unknown)
        int_dtype = np.dtype(self.dtype).kind in "iu"
        # only NaN is "missing" (None stays an ordinary category, as in scikit-learn)
        self._missing_idx = [
            np.flatnonzero([isinstance(v, (float, np.floating)) and v != v for v in c.tolist()])
            for c in self.categories_
        ]
        n_present = [len(c) - len(m) for c, m in zip(self.categories_, self._missing_idx)]
        if self.handle_unknown == "use_encoded_value":
            uv = self.unknown_value
            if int_dtype and not isinstance(uv, numbers.Integral):
                raise ValueError(
                    f"When unknown_value is np.nan, the dtype must be a float; got {self.dtype}."
                )
            if isinstance(uv, numbers.Integral) and any(0 <= uv < k for k in n_present):
                raise ValueError(
                    f"The used value for unknown_value {uv} is one of the values already used "
                    "for encoding the seen categories."
                )
        emv = self.encoded_missing_value
        with_missing = [j for j, m in enumerate(self._missing_idx) if len(m)]
        if with_missing:
            if int_dtype and np.isnan(emv):
                raise ValueError(
                    f"There are missing values in columns {with_missing}. To encode them with an "
                    f"integer dtype ({self.dtype}), set encoded_missing_value to an integer."
                )
            clash = [j for j in with_missing if not np.isnan(emv) and 0 <= emv < n_present[j]]
            if clash:
                raise ValueError(
                    f"encoded_missing_value ({emv}) is already used to encode a known category "
                    f"in columns {clash}."
                )
        return self

    def transform(self, X):
        """The (n, d) matrix of codes."""
        check_is_fitted(self, "categories_")
        codes, known = self._codes(X, allow_unknown=self.handle_unknown == "use_encoded_value")
        out = codes.astype(np.float64)
        for j, miss in enumerate(self._missing_idx):
            if len(miss):
                out[np.isin(codes[:, j], miss) & known[:, j], j] = self.encoded_missing_value
        if not known.all():
            out[~known] = self.unknown_value
        return out.astype(self.dtype, copy=False)

    def inverse_transform(self, X):
        """Codes back to categories (unknown_value → None, encoded_missing_value → NaN)."""
        check_is_fitted(self, "categories_")
        X = check_array(X, dtype=np.float64, ensure_all_finite="allow-nan", estimator=self)
        if X.shape[1] != len(self.categories_):
            raise ValueError(
                f"Shape of the passed X data is not correct. Expected {len(self.categories_)} "
                f"columns, got {X.shape[1]}."
            )
        columns = []
        for j, cats in enumerate(self.categories_):
            x = X[:, j]
            unknown = np.zeros(x.shape[0], dtype=bool)
            if self.handle_unknown == "use_encoded_value":
                uv = self.unknown_value
                unknown = np.isnan(x) if np.isnan(uv) else x == uv
            emv = self.encoded_missing_value
            missing = (np.isnan(x) if np.isnan(emv) else x == emv) & ~unknown
            if not len(self._missing_idx[j]):
                missing[:] = False
            valid = ~(unknown | missing)
            idx = x[valid]
            if np.any((idx < 0) | (idx >= len(cats)) | (idx != np.round(idx))):
                raise ValueError(f"Column {j} holds codes that are not category indices.")
            if unknown.any() or missing.any():
                col = np.empty(x.shape[0], dtype=object)
                col[valid] = cats[idx.astype(np.intp)]
                col[unknown] = None
                if missing.any():
                    col[missing] = cats[self._missing_idx[j][0]]
                if not unknown.any() and cats.dtype.kind in "biuf":
                    col = col.astype(np.result_type(cats.dtype, np.float64))  # NaN is a float
            else:
                col = cats[x.astype(np.intp)]
            columns.append(col)
        return _category_array(columns)
