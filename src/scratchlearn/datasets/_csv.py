"""``load_csv``: a user's delimited text file as a dataset Bunch, with errors that point at a line.

Rules, in the order they are applied:

1. The file is read as UTF-8 (a leading byte-order mark is dropped; ``.gz`` files are
   decompressed). Fields may be quoted as the ``csv`` module understands; surrounding white space
   is stripped from every field. Blank lines are skipped.
2. Every record must have as many fields as the first one.
3. The target is the last column unless ``target`` names a header column or gives an index
   (negative indices count from the end).
4. Each feature column is read on its own: it is numeric when every non-empty value parses as a
   float (empty values in a numeric column become NaN), and categorical otherwise (its values
   stay strings). When all feature columns are numeric, ``data`` is float64 and
   ``kind="numeric"``; when none is, ``data`` is an object array of strings and
   ``kind="categorical"``; when some are, ``data`` is an object array holding floats in the
   numeric columns and strings in the others, and ``kind="mixed"``. ``categorical_features``
   names the categorical columns.
5. A target whose values all parse as floats is returned as float64 (``target_names=None``,
   ``task=None``: the file cannot say whether it is a class code or a quantity). Otherwise the
   target strings are encoded as int64 indices into ``target_names`` (sorted) and
   ``task="classification"``. An empty target value is an error.

Every error is a ``ValueError`` whose message starts ``"<file>, line <k>: "`` (1-based, counting
physical lines, so a quoted field spanning lines is located by its first line).
"""

from __future__ import annotations

import csv
import gzip
import io
import numbers
import os
from typing import NamedTuple

import numpy as np

from ..utils._param_validation import validate_params
from ._base import make_bunch

__all__ = ["load_csv"]


def _read(fname: str) -> str:
    try:
        with open(fname, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise ValueError(f"{fname}, line 1: cannot read the file ({exc.strerror or exc})") from exc
    if fname.endswith(".gz"):
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise ValueError(f"{fname}, line 1: not a readable gzip file ({exc})") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ValueError(
            f"{fname}, line {line}: not UTF-8 text (byte {raw[exc.start]:#04x} at offset "
            f"{exc.start})"
        ) from exc


def _records(fname: str, text: str, delimiter: str):
    """Yield (first physical line number, stripped fields) of every non-blank record."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    while True:
        start = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ValueError(f"{fname}, line {start}: malformed record ({exc})") from exc
        fields = [f.strip() for f in fields]
        if not fields or fields == [""]:
            continue
        yield start, fields


def _as_float(values):
    """The column as float64 (empty -> NaN), or None when some value is not a number."""
    try:
        return np.array([v if v else "nan" for v in values], dtype=np.float64)
    except ValueError:
        return None


def _target_index(fname, target, names, width, header):
    if target is None:
        return width - 1
    if isinstance(target, str):
        if not header:
            raise ValueError(
                f"{fname}, line 1: target={target!r} is a column name but header=False; "
                "give the column index instead"
            )
        if target not in names:
            raise ValueError(f"{fname}, line 1: no column named {target!r}; columns are {names}")
        return names.index(target)
    if isinstance(target, numbers.Integral) and not isinstance(target, bool):
        if not -width <= target < width:
            raise ValueError(
                f"{fname}, line 1: target column index {target} is out of range for a file of "
                f"{width} columns"
            )
        return int(target) % width
    raise TypeError(f"target must be None, a column name or an int index; got {target!r}")


class Table(NamedTuple):
    """A delimited file as read, before any column is interpreted."""

    fname: str  #: the path as given, for messages
    names: list  #: column names (``column_<j>`` without a header)
    first_line: int  #: physical line of the first record (the header, when there is one)
    lines: np.ndarray  #: (n,) int: physical line of each data row, 1-based as in an editor
    cells: np.ndarray  #: (n, w) object: the stripped fields of each data row
    header: bool  #: whether the first record held the column names
    delimiter: str


def read_table(path, *, delimiter=",", header=True) -> Table:
    """The records of a delimited file as a :class:`Table` (rules 1-2 of the module docstring).

    Raises ``ValueError("<file>, line <k>: ...")`` for an unreadable, empty or ragged file, a
    duplicate column name, or a header without data rows.
    """
    if len(delimiter) != 1 or delimiter in '\r\n"':
        raise ValueError(
            f"delimiter must be one character other than a quote or newline; got {delimiter!r}"
        )
    fname = os.fspath(path)
    records = list(_records(fname, _read(fname), delimiter))
    if not records:
        raise ValueError(f"{fname}, line 1: the file is empty")
    first_line, first = records[0]
    width = len(first)
    for line, fields in records[1:]:
        if len(fields) != width:
            raise ValueError(
                f"{fname}, line {line}: expected {width} fields (as on line {first_line}), "
                f"found {len(fields)}"
            )
    if header:
        names = list(first)
        for j, name in enumerate(names):
            if not name:
                names[j] = f"column_{j}"
            elif names.index(name) != j:
                raise ValueError(f"{fname}, line {first_line}: duplicate column name {name!r}")
        rows = records[1:]
    else:
        names = [f"column_{j}" for j in range(width)]
        rows = records
    if not rows:
        raise ValueError(f"{fname}, line {first_line}: a header but no data rows")
    cells = np.empty((len(rows), width), dtype=object)
    cells[:] = [fields for _, fields in rows]
    lines = np.array([line for line, _ in rows], dtype=np.int64)
    return Table(fname, names, first_line, lines, cells, header, delimiter)


def _features(cells):
    """``(data, kind, categorical)`` of the feature cells (n, d): rule 4 of the module docstring."""
    numeric = [_as_float(cells[:, j]) for j in range(cells.shape[1])]
    categorical = [col is None for col in numeric]
    if not any(categorical):
        return np.column_stack(numeric), "numeric", categorical  # (n, d) float64
    if all(categorical):
        return cells, "categorical", categorical  # (n, d) str
    data = cells.copy()  # (n, d) object: floats in the numeric columns, str in the others
    for j, col in enumerate(numeric):
        if col is not None:
            data[:, j] = col.tolist()
    return data, "mixed", categorical


def table_bunch(table: Table, *, target=None, return_X_y=False, as_frame=False):
    """The dataset Bunch of a :class:`Table` (rules 3-5 of the module docstring)."""
    fname, names, width = table.fname, table.names, table.cells.shape[1]
    if width < 2:
        raise ValueError(
            f"{fname}, line {table.first_line}: need at least two columns (features and a "
            f"target); found {width} (is the delimiter {table.delimiter!r} right?)"
        )
    t = _target_index(fname, target, names, width, table.header)
    for line, value in zip(table.lines, table.cells[:, t]):
        if not value:
            raise ValueError(f"{fname}, line {line}: empty value in target column {names[t]!r}")

    feature_cols = [j for j in range(width) if j != t]
    X, kind, categorical = _features(table.cells[:, feature_cols])
    y = _as_float(table.cells[:, t])
    if y is None:
        target_names, y = np.unique(table.cells[:, t].astype(str), return_inverse=True)
        target_names, y, task = target_names.tolist(), y.astype(np.int64), "classification"
    else:
        target_names, task = None, None

    feature_names = [names[j] for j in feature_cols]
    descr = (
        f"Loaded from {fname}: {X.shape[0]} rows, {X.shape[1]} {kind} feature columns, "
        f"target column {names[t]!r}."
    )
    bunch = make_bunch(
        data=X,
        target=y,
        feature_names=feature_names,
        target_names=target_names,
        descr=descr,
        kind=kind,
        task=task,
        return_X_y=return_X_y,
        as_frame=as_frame,
        target_column=names[t],
        filename=fname,
        categorical_features=[n for n, c in zip(feature_names, categorical) if c],
    )
    if as_frame and kind == "mixed":  # numeric columns as float64 columns, not objects
        if return_X_y:
            return bunch[0].infer_objects(), bunch[1]
        bunch["data"], bunch["frame"] = bunch.data.infer_objects(), bunch.frame.infer_objects()
    return bunch


def load_csv(path, *, target=None, delimiter=",", header=True, return_X_y=False, as_frame=False):
    """Load a delimited text file as a dataset Bunch (see the module docstring for the rules).

    Parameters
    ----------
    path : str or os.PathLike
    target : None, str or int, default=None
        The target column: its header name, or its 0-based index; None means the last column.
    delimiter : str, default=","
        One character.
    header : bool, default=True
        Whether the first record holds the column names. Without a header, columns are named
        ``column_<j>`` with j their 0-based position in the file.
    return_X_y, as_frame : bool
        As for the bundled loaders.

    Returns
    -------
    Bunch with ``data``, ``target``, ``feature_names``, ``categorical_features`` (the names of
    the feature columns read as categories), ``target_names``, ``target_column``, ``kind``
    (``"numeric"``, ``"categorical"`` or ``"mixed"``), ``task``, ``filename``, ``DESCR`` and
    ``frame`` (or ``(data, target)``).

    Raises
    ------
    ValueError
        "<file>, line <k>: ..." for an unreadable, empty or ragged file, a missing target column
        or an empty target value.

    Examples
    --------
    >>> import os, tempfile
    >>> from scratchlearn.datasets import load_csv
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "pets.csv")
    ...     with open(path, "w") as fh:
    ...         _ = fh.write("weight,colour,kind\\n4.5,black,cat\\n30,brown,dog\\n")
    ...     pets = load_csv(path)
    >>> pets.kind, pets.categorical_features, pets.target_names
    ('mixed', ['colour'], ['cat', 'dog'])
    >>> pets.data.tolist()
    [[4.5, 'black'], [30.0, 'brown']]
    """
    validate_params(
        {
            "delimiter": [str],
            "header": ["boolean"],
            "return_X_y": ["boolean"],
            "as_frame": ["boolean"],
        },
        {"delimiter": delimiter, "header": header, "return_X_y": return_X_y, "as_frame": as_frame},
        "load_csv",
    )
    table = read_table(path, delimiter=delimiter, header=header)
    return table_bunch(table, target=target, return_X_y=return_X_y, as_frame=as_frame)
