"""A user's CSV file on the command line: its columns of numbers and of categories, its missing
values (refused before any work, by line and column), and the columns of a prediction file
matched to the model's.
"""

from __future__ import annotations

import numpy as np

from ..base import BaseEstimator, TransformerMixin
from ..utils.validation import check_is_fitted

__all__ = [
    "MixedColumns",
    "describe_categories",
    "refuse_missing",
    "prediction_columns",
    "refuse_missing_cells",
]

#: How many line numbers a message lists before "...".
_SHOWN = 5
#: The fix for missing values: no registered estimator accepts them (``allow_nan`` tag; checked
#: by tests/test_cli_csv.py), so the user must drop or fill those rows.
_MISSING_FIX = "scratchlearn's estimators do not accept missing values: drop or fill those rows"


class MixedColumns(TransformerMixin, BaseEstimator):
    """A table of numbers and categories, as an estimator that takes numbers reads it.

    ``fit`` learns which columns hold categories: those holding strings (``load_csv`` keeps a
    column as strings unless every value in it is a number; the other columns hold floats).
    ``transform`` parses the numeric columns as floats, so it reads that table or the raw strings
    of a file at prediction time. With ``one_hot=True`` each column of categories is replaced, in
    place, by one 0/1 column per category seen in fit (a category not seen gives zeros); with
    ``one_hot=False`` the categories stay strings, for an estimator that reads categories itself.

    Parameters
    ----------
    one_hot : bool, default=True

    Attributes
    ----------
    categorical_ : ndarray of shape (n_features_in_,), bool
        The columns of categories.
    encoder_ : OneHotEncoder or None
        ``OneHotEncoder(handle_unknown="ignore")`` fitted on those columns (None without
        ``one_hot`` or without categories).
    n_features_in_ : int
    """

    _parameter_constraints = {"one_hot": ["boolean"]}

    def __init__(self, *, one_hot=True):
        self.one_hot = one_hot

    def fit(self, X, y=None):
        from ..preprocessing import OneHotEncoder

        self._validate_params()
        X = self._validate_data(X, reset=True, dtype=object, ensure_all_finite=False)
        self.categorical_ = np.array([any(isinstance(v, str) for v in col) for col in X.T])
        self.encoder_ = None
        if self.one_hot and self.categorical_.any():
            encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=False)
            self.encoder_ = encoder.fit(X[:, self.categorical_].astype(str).astype(object))
        return self

    def _numbers(self, col, j):
        try:
            values = np.array([float(v) for v in col])
        except ValueError:
            bad = next(v for v in col if not _is_number(v))
            raise ValueError(
                f"column {j} holds {bad!r}, but it held numbers when the model was fitted"
            ) from None
        if not np.isfinite(values).all():
            bad = col[~np.isfinite(values)][0]
            raise ValueError(f"column {j} holds {bad!r}, not a finite number")
        return values

    def transform(self, X):
        check_is_fitted(self, "categorical_")
        X = self._validate_data(X, reset=False, dtype=object, ensure_all_finite=False)
        cat = self.categorical_
        if not self.one_hot:
            out = X.copy()
            for j in np.flatnonzero(~cat):
                out[:, j] = self._numbers(X[:, j], j).tolist()
            for j in np.flatnonzero(cat):
                out[:, j] = [str(v) for v in X[:, j]]
            return out  # (n, d) object: floats and strings
        blocks = iter(())
        if self.encoder_ is not None:
            onehot = self.encoder_.transform(X[:, cat].astype(str).astype(object))
            sizes = [len(c) for c in self.encoder_.categories_]
            blocks = iter(np.split(onehot, np.cumsum(sizes)[:-1], axis=1))
        parts = [
            next(blocks) if cat[j] else self._numbers(X[:, j], j)[:, None]
            for j in range(X.shape[1])
        ]
        return np.hstack(parts)  # (n, d') float64, the categories one-hot in place

    def get_feature_names_out(self, input_features=None):
        """The numeric columns' names, and ``<column>_<category>`` for the one-hot columns."""
        from ..base import _check_input_features

        check_is_fitted(self, "categorical_")
        names = list(_check_input_features(self, input_features))
        if not self.one_hot or self.encoder_ is None:
            return np.asarray(names, dtype=object)
        cat = self.categorical_
        encoded = iter(
            [
                [f"{name}_{c}" for c in cats.tolist()]
                for name, cats in zip(np.asarray(names)[cat], self.encoder_.categories_)
            ]
        )
        out = []
        for j, name in enumerate(names):
            out.extend(next(encoded) if cat[j] else [name])
        return np.asarray(out, dtype=object)


def _is_number(value) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _names(names, limit=8) -> str:
    names = [str(n) for n in names]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def describe_categories(bunch) -> str | None:
    """One line naming the feature columns read as categories (with their number of values),
    or None when there are none. A column of numbers but for a few words (``NA``, ``?``) is
    pointed out: those words are probably missing-value markers."""
    categorical = bunch.get("categorical_features") or []
    if not categorical or bunch.get("kind") == "text":
        return None
    names = list(bunch["feature_names"])
    X = bunch["data"]
    parts = []
    for name in categorical:
        col = X[:, names.index(name)]
        values = list(dict.fromkeys(col.tolist()))
        words = [v for v in values if not _is_number(v)]
        text = f"{name} ({len(values)} value{'' if len(values) == 1 else 's'}"
        numbers = sum(1 for v in col if _is_number(v))
        if len(words) <= 3 and numbers >= len(col) / 2:
            text += f", all numbers but {', '.join(map(repr, words))}"
        parts.append(text + ")")
    others = len(names) - len(categorical)
    line = "columns read as categories: " + _names(parts)
    if others:
        line += f"; the other {others} column{'' if others == 1 else 's'} as numbers"
    return line


def _lines_text(lines) -> str:
    shown = ", ".join(str(k) for k in lines[:_SHOWN])
    return shown + (", ..." if len(lines) > _SHOWN else "")


def refuse_missing_cells(fname, names, lines, cells, numeric) -> None:
    """Raise one ``ValueError`` naming the first missing (empty) or non-finite value of ``cells``
    ((n, w) str) by file, line and column name, with how many rows have one and the fix.

    ``numeric[j]`` says whether column j holds numbers (then "nan" and "inf" count as missing
    too); ``lines`` are the rows' 1-based line numbers in the file.
    """
    bad = cells == ""  # (n, w)
    for j in np.flatnonzero(numeric):
        with np.errstate(invalid="ignore"):
            values = np.array([float(v) if v else np.nan for v in cells[:, j]])
        bad[:, j] = ~np.isfinite(values)
    rows = np.flatnonzero(bad.any(axis=1))
    if rows.size == 0:
        return
    i = rows[0]
    j = int(np.flatnonzero(bad[i])[0])
    value = cells[i, j]
    if value:
        what = f"column {names[j]!r} holds {value!r}, not a finite number"
    else:
        what = f"no value in column {names[j]!r}"
    columns = [names[k] for k in np.flatnonzero(bad.any(axis=0))]
    many = (
        f"; {rows.size} rows have missing values (lines {_lines_text(lines[rows].tolist())}; "
        f"column{'' if len(columns) == 1 else 's'} {_names(columns)})"
        if rows.size > 1
        else ""
    )
    raise ValueError(f"{fname}, line {lines[i]}: {what}{many}; {_MISSING_FIX}")


def refuse_missing(table, bunch) -> None:
    """Refuse a CSV file (``table`` as read, ``bunch`` as loaded) with a missing value in a
    feature column, or a non-finite number in a numeric feature or target column, before any
    work. A text column (documents) may hold empty documents."""
    names = list(table.names)
    categorical = set(bunch.get("categorical_features") or [])
    target = names.index(bunch["target_column"])
    checked = [] if bunch.get("kind") == "text" else list(bunch["feature_names"])
    numeric = np.array(
        [
            (j == target and bunch.get("task") is None)
            or (name in checked and name not in categorical)
            for j, name in enumerate(names)
        ]
    )
    keep = [j for j, name in enumerate(names) if name in checked or j == target]
    refuse_missing_cells(
        table.fname, [names[j] for j in keep], table.lines, table.cells[:, keep], numeric[keep]
    )


def _looks_like_data(header, wanted, kind) -> bool:
    """Whether a first line is a row of data rather than column names: all numbers (or, for a
    text model, a sentence of several words) that are not the model's column names."""
    if wanted and set(header) <= {str(w) for w in wanted}:
        return False
    if kind == "text":
        return len(header) == 1 and len(header[0].split()) >= 3
    return all(_is_number(v) for v in header)


def prediction_columns(fname, header, line, wanted, kind="numeric"):
    """``(columns, header_is_data, notes)``: the indices, in the prediction file, of the columns
    the model was fitted on (``wanted``: their names, or None when unknown), whether the first
    line (``header``, the fields of line ``line``) is data, and lines of warning for stderr.

    A first line that looks like data is read as data, with a warning, when the file has as many
    columns as the model; otherwise, and when columns are missing, a ``ValueError`` names the
    missing and the unexpected columns.
    """
    width, notes = len(header), []
    wanted = None if wanted is None else [str(w) for w in wanted]
    if _looks_like_data(header, wanted, kind):
        expected = len(wanted) if wanted else width
        if width != expected:
            raise ValueError(
                f"{fname}, line {line}: this looks like data, not a header line (the model needs "
                f"{expected} columns: {_names(wanted or [])}); start the file with a header line "
                "naming them"
            )
        fields = "a document" if kind == "text" else "numbers"
        notes.append(
            f"warning: {fname}, line {line} holds {fields}, not column names: read as data, "
            f"in the model's column order{': ' + _names(wanted) if wanted else ''}"
        )
        return list(range(width)), True, notes
    if not wanted:
        return list(range(width)), False, notes
    if len(wanted) == 1 and width == 1:  # one input column whatever its name (e.g. messages)
        return [0], False, notes
    missing = [w for w in wanted if w not in header]
    unexpected = [h for h in header if h not in wanted]
    if missing:
        raise ValueError(
            f"{fname}: no column {missing[0]!r}, which the model needs (missing "
            f"{len(missing)} of its {len(wanted)} columns: {_names(missing)}"
            + (f"; columns the model does not know: {_names(unexpected)}" if unexpected else "")
            + ")"
        )
    if unexpected:
        notes.append(f"note: {fname}: columns not used by the model: {_names(unexpected)}")
    return [header.index(w) for w in wanted], False, notes
