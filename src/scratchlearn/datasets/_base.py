"""Loader machinery shared by every bundled dataset.

The files under ``data/`` are parsed once per process (``functools.lru_cache``) into read-only
arrays; every public loader hands out copies, so a caller who edits the arrays it receives cannot
change what the next call returns. Descriptions live in ``descr/<name>.rst``.

A loader returns a :class:`~scratchlearn.utils.Bunch` with

============== ==========================================================================
data           (n, d) float64 for ``kind="numeric"``; (n, d) object array of str for
               ``kind="categorical"``; (n,) object array of documents for ``kind="text"``
target         (n,) int64 class codes (indices into ``target_names``) for classification,
               float64 for regression, int64 relevance labels for ranking
feature_names  list of d column names (one name, the document column, for text)
target_names   list of class names, or None for regression and ranking
DESCR          source, size, features, task, citation and licence, in plain text
kind, task     "numeric" / "categorical" / "text" and "classification" / "regression" /
               "ranking"
target_column  the target's column name in ``frame`` (usually "target")
frame          a pandas DataFrame of features and target when ``as_frame=True``, else None
============== ==========================================================================
"""

from __future__ import annotations

import functools
import gzip
import lzma
from importlib import resources

import numpy as np

from ..utils import Bunch
from ..utils._param_validation import validate_params

__all__ = [
    "read_bytes",
    "read_text",
    "load_descr",
    "numeric_table",
    "string_table",
    "tab_separated_documents",
    "make_bunch",
    "check_loader_args",
]

_PACKAGE = "scratchlearn.datasets"


def read_bytes(fname: str) -> bytes:
    """The bytes of ``data/<fname>``, decompressed when the name ends in ``.gz`` or ``.xz``.

    xz (LZMA) holds the larger text corpora: the two EWT portions take 431 kB as xz against
    665 kB as gzip, which keeps the whole data folder under its 1 MB budget.
    """
    raw = resources.files(_PACKAGE).joinpath("data", fname).read_bytes()
    if fname.endswith(".gz"):
        return gzip.decompress(raw)
    if fname.endswith(".xz"):
        return lzma.decompress(raw)
    return raw


def read_text(fname: str) -> str:
    """``data/<fname>`` decoded as UTF-8."""
    return read_bytes(fname).decode("utf-8")


@functools.cache
def load_descr(name: str) -> str:
    """The text of ``descr/<name>.rst``."""
    return resources.files(_PACKAGE).joinpath("descr", f"{name}.rst").read_text(encoding="utf-8")


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@functools.cache
def numeric_table(fname: str, delimiter: str = ",") -> tuple[tuple[str, ...], np.ndarray]:
    """(header, values) of a numeric table with one header line; values read-only float64."""
    lines = read_text(fname).splitlines()
    header = tuple(h.strip() for h in lines[0].split(delimiter))
    values = np.loadtxt(lines[1:], delimiter=delimiter, dtype=np.float64, ndmin=2)
    if values.shape[1] != len(header):
        raise RuntimeError(f"bundled file {fname} is corrupt: header and rows disagree")
    return header, _frozen(values)


@functools.cache
def string_table(fname: str, delimiter: str = ",") -> np.ndarray:
    """A headerless table of short strings (UCI ``.data`` layout) as a read-only object array."""
    rows = [line.split(delimiter) for line in read_text(fname).splitlines() if line]
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise RuntimeError(f"bundled file {fname} is corrupt: ragged rows")
    table = np.empty((len(rows), width), dtype=object)
    table[:] = rows
    return _frozen(table)


@functools.cache
def tab_separated_documents(fname: str) -> tuple[np.ndarray, np.ndarray]:
    """(labels, documents) of a ``label<TAB>text`` file, split on the first TAB of each line."""
    labels, docs = [], []
    for line in read_text(fname).split("\n"):
        if not line:
            continue
        label, _, text = line.partition("\t")
        labels.append(label)
        docs.append(text)
    out_labels = np.empty(len(labels), dtype=object)
    out_labels[:] = labels
    out_docs = np.empty(len(docs), dtype=object)
    out_docs[:] = docs
    return _frozen(out_labels), _frozen(out_docs)


def encode_labels(labels, target_names) -> np.ndarray:
    """Class strings -> int64 codes, the index of each label in ``target_names``."""
    index = {name: code for code, name in enumerate(target_names)}
    try:
        return np.array([index[v] for v in labels], dtype=np.int64)
    except KeyError as exc:
        raise RuntimeError(f"unexpected class label {exc.args[0]!r} in bundled data") from None


def check_loader_args(owner: str, **params) -> None:
    """Validate the boolean flags every loader accepts."""
    validate_params({k: ["boolean"] for k in params}, params, owner)


def _pandas():
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is a test dependency
        raise ImportError("as_frame=True needs pandas; install it or use as_frame=False") from exc
    return pd


def make_bunch(
    *,
    data,
    target,
    feature_names,
    target_names,
    descr: str,
    kind: str,
    task: str,
    return_X_y: bool,
    as_frame: bool,
    target_column: str = "target",
    **extra,
):
    """Assemble a loader's result from arrays the caller already owns (copies, not cache).

    With ``as_frame`` the data become a DataFrame (a Series of documents for text), the target a
    Series named ``target_column``, and ``frame`` their concatenation; ``extra`` entries (e.g.
    ``qid``, ``images``) stay arrays. ``return_X_y`` returns ``(data, target)`` only.
    """
    feature_names = list(feature_names)
    frame = None
    if as_frame:
        pd = _pandas()
        if kind == "text":
            data = pd.Series(data, name=feature_names[0])
        else:
            data = pd.DataFrame(data, columns=feature_names)
        target = pd.Series(target, name=target_column)
        frame = pd.concat([data, target], axis=1)
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        frame=frame,
        feature_names=feature_names,
        target_names=None if target_names is None else list(target_names),
        DESCR=descr,
        kind=kind,
        task=task,
        target_column=target_column,
        **extra,
    )
