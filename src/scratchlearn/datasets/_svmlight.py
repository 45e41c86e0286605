"""The svmlight / libsvm text format, with query ids: the format of LETOR and MSLR ranking data.

One sample per line::

    <label> [qid:<int>] <index>:<value> <index>:<value> ... [# comment]

Only non-zero features need be written; indices are strictly increasing within a line. Text
after ``#`` is a comment, and blank or comment-only lines are skipped. Indices are one-based in
most published files (svmlight, LETOR, MSLR) and zero-based in some (libsvm tools, files
written by ``dump_svmlight_file`` by default); ``zero_based="auto"`` reads a file as zero-based
exactly when some index is 0, as scikit-learn does.
"""

from __future__ import annotations

import bz2
import gzip
import io
import numbers
import os

import numpy as np
import scipy.sparse as sp

from ..utils.validation import check_array, column_or_1d

__all__ = ["load_svmlight_file", "dump_svmlight_file"]


def _open_text(f):
    """``(name, text)`` from a path (``.gz`` / ``.bz2`` decompressed) or an open file."""
    if isinstance(f, (str, os.PathLike)):
        name = os.fspath(f)
        opener = gzip.open if name.endswith(".gz") else bz2.open if name.endswith(".bz2") else open
        try:
            with opener(name, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ValueError(f"{name}: cannot read the file ({exc})") from exc
    elif hasattr(f, "read"):
        name, raw = getattr(f, "name", "<file>"), f.read()
    else:
        raise TypeError(f"f must be a path or an open file; got {type(f).__name__}.")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise ValueError(f"{name}, line {line}: not UTF-8 text") from exc
    return str(name), raw


def _parse_line(tokens, where):
    """``(label, qid or None, indices, values)`` of the tokens of one sample line."""
    try:
        label = float(tokens[0])
    except ValueError:
        raise ValueError(f"{where}: the label {tokens[0]!r} is not a number") from None
    rest, qid = tokens[1:], None
    if rest and rest[0].startswith("qid:"):
        try:
            qid = int(rest[0][4:])
        except ValueError:
            raise ValueError(f"{where}: the query id {rest[0]!r} is not an integer") from None
        rest = rest[1:]
    indices, values = np.empty(len(rest), np.int64), np.empty(len(rest), np.float64)
    for t, token in enumerate(rest):
        index, colon, value = token.partition(":")
        try:
            if not colon:
                raise ValueError
            indices[t], values[t] = int(index), float(value)
        except ValueError:
            raise ValueError(f"{where}: {token!r} is not an index:value pair") from None
    if len(rest) > 1 and np.any(np.diff(indices) <= 0):
        raise ValueError(f"{where}: feature indices must be strictly increasing")
    if len(rest) and indices[0] < 0:
        raise ValueError(f"{where}: negative feature index {indices[0]}")
    return label, qid, indices, values


def load_svmlight_file(f, *, n_features=None, dtype=np.float64, query_id=False, zero_based="auto"):
    """Read a svmlight / libsvm file (with ``qid:``) into a sparse matrix.

    Parameters
    ----------
    f : path (``.gz`` and ``.bz2`` are decompressed) or open file (text or binary).
    n_features : int or None
        Number of columns of X; None: the largest index read, plus one.
    dtype : dtype of X (y is float64).
    query_id : bool, default=False
        Also return the ``qid`` of each row (then every sample line needs one); with False, query
        ids in the file are read and dropped.
    zero_based : True, False or "auto"
        Whether index 0 is the first column; "auto": zero-based if some index is 0.

    Returns
    -------
    X : scipy.sparse.csr_matrix (n_samples, n_features)
    y : ndarray (n_samples,)
    qid : ndarray of int64 (n_samples,), only with ``query_id=True``.

    Malformed input raises a ValueError naming the file and line.
    """
    if zero_based not in (True, False, "auto"):
        raise ValueError(f"zero_based must be True, False or 'auto'; got {zero_based!r}.")
    if n_features is not None and (
        not isinstance(n_features, numbers.Integral) or isinstance(n_features, bool)
    ):
        raise ValueError(f"n_features must be None or a positive int; got {n_features!r}.")
    name, text = _open_text(f)
    labels, qids, rows, cols, vals, lines = [], [], [], [], [], []
    for lineno, raw in enumerate(text.splitlines(), 1):
        tokens = raw.split("#", 1)[0].split()
        if not tokens:
            continue
        label, qid, idx, val = _parse_line(tokens, f"{name}, line {lineno}")
        if query_id and qid is None:
            raise ValueError(f"{name}, line {lineno}: no qid:<id> (query_id=True needs one)")
        labels.append(label)
        qids.append(qid)
        lines.append(lineno)
        cols.append(idx)
        vals.append(val)
        rows.append(np.full(idx.shape[0], len(labels) - 1, np.int64))
    if not labels:
        raise ValueError(f"{name}: no samples (only blank or comment lines)")
    cols = np.concatenate(cols)
    rows, vals = np.concatenate(rows), np.concatenate(vals)
    one_based = zero_based is False or (zero_based == "auto" and not np.any(cols == 0))
    if one_based and cols.size:
        if np.any(cols == 0):
            bad = lines[rows[np.argmax(cols == 0)]]
            raise ValueError(f"{name}, line {bad}: index 0 in a one-based file (zero_based=False)")
        cols = cols - 1
    width = int(cols.max()) + 1 if cols.size else 0
    if n_features is None:
        n_features = width
    elif n_features < width:
        bad = lines[rows[np.argmax(cols >= n_features)]]
        raise ValueError(
            f"{name}, line {bad}: feature index {int(cols.max()) + (1 if one_based else 0)} "
            f"does not fit n_features={n_features}"
        )
    X = sp.csr_matrix(
        (vals.astype(dtype), (rows, cols)), shape=(len(labels), n_features), dtype=dtype
    )
    y = np.asarray(labels, dtype=np.float64)
    if not query_id:
        return X, y
    return X, y, np.asarray(qids, dtype=np.int64)


def _fmt(v):
    """Shortest text that reads back to the same double (``3`` rather than ``3.0``)."""
    s = repr(float(v))
    return s[:-2] if s.endswith(".0") else s


def dump_svmlight_file(X, y, f, *, query_id=None, zero_based=True, comment=None):
    """Write X (dense or sparse), y and optional query ids in the svmlight / libsvm format.

    Only the non-zero entries of each row are written, with indices from 0 (``zero_based=True``)
    or 1. Values are written in the shortest form that reads back to the same double, so
    ``load_svmlight_file`` returns exactly X (as float64) and y. ``comment`` (str, may span
    lines) goes at the top of the file as ``#`` lines. ``f`` is a path or an open file.
    """
    X = check_array(X, accept_sparse=True, dtype="numeric")
    X = sp.csr_matrix(X, copy=True)  # sorted and pruned below: never the caller's matrix
    X.sort_indices()
    y = column_or_1d(y, input_name="y")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels.")
    if y.dtype.kind not in "biuf" or not np.all(np.isfinite(y)):
        raise ValueError("y must hold finite numbers.")
    if query_id is not None:
        query_id = column_or_1d(query_id, input_name="query_id")
        if query_id.shape[0] != X.shape[0]:
            raise ValueError(f"query_id has {query_id.shape[0]} ids but X has {X.shape[0]} rows.")
        if query_id.dtype.kind not in "iu":
            raise ValueError(f"query_id must hold integers; got dtype {query_id.dtype}.")
    if zero_based not in (True, False):
        raise ValueError(f"zero_based must be True or False; got {zero_based!r}.")
    out = []
    if comment is not None:
        out.extend(f"# {line}".rstrip() for line in str(comment).splitlines())
    X.eliminate_zeros()
    offset = 0 if zero_based else 1
    # every entry formatted once, from Python floats (far cheaper than per-element NumPy scalars)
    pairs = [f"{j}:{_fmt(v)}" for j, v in zip((X.indices + offset).tolist(), X.data.tolist())]
    heads = [_fmt(v) for v in y.tolist()]
    if query_id is not None:
        heads = [f"{h} qid:{q}" for h, q in zip(heads, query_id.tolist(), strict=True)]
    indptr = X.indptr.tolist()
    for i, head in enumerate(heads):
        out.append(" ".join([head, *pairs[indptr[i] : indptr[i + 1]]]))
    text = "\n".join(out) + "\n"
    if isinstance(f, (str, os.PathLike)):
        with open(f, "w", encoding="utf-8") as fh:
            fh.write(text)
    elif isinstance(f, io.TextIOBase):
        f.write(text)
    elif hasattr(f, "write"):
        f.write(text.encode("utf-8"))
    else:
        raise TypeError(f"f must be a path or an open file; got {type(f).__name__}.")
