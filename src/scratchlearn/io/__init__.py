"""Model files that are data only: :func:`save` and :func:`load`, no pickle.

A model file is a zip archive holding

* ``model.json``: ``{"format": "scratchlearn-model", "format_version": 1, "scratchlearn_version",
  "class": "module:QualName", "params": {...}, "attributes": {...}, "metadata": {...}}``, the
  estimator's hyperparameters and fitted attributes written as JSON (the encoding of each kind of
  value is listed in :mod:`scratchlearn.io._encode`);
* ``arrays/<k>.npy``: every NumPy array, read back with ``np.load(..., allow_pickle=False)``.

Loading never runs code from the file: the class is looked up by name with ``getattr`` inside a
``scratchlearn`` module and must be a scratchlearn estimator (or a helper class that declares
``_scratchlearn_serializable = True``). Anything that cannot be stored this way (a lambda, an
object of another library) is refused when saving, with the path of the offending attribute.

Example
-------
>>> from scratchlearn import io                                   # doctest: +SKIP
>>> io.save(model, "ridge.slm")                                  # doctest: +SKIP
>>> same = io.load("ridge.slm")                                  # doctest: +SKIP
"""

from __future__ import annotations

import io as _stdio
import json
import os
import tempfile
import zipfile
import zlib

import numpy as np

from ..exceptions import ModelFileError
from ._classes import class_ref
from ._decode import Decoder
from ._encode import Encoder

__all__ = ["save", "load", "read_metadata", "FORMAT_NAME", "FORMAT_VERSION"]

FORMAT_NAME = "scratchlearn-model"
FORMAT_VERSION = 1
_JSON = "model.json"


def _version() -> str:
    from .. import __version__

    return __version__


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def save(estimator, path, *, metadata: dict | None = None) -> None:
    """Write ``estimator`` (fitted or not) to a model file at ``path``.

    Parameters
    ----------
    estimator : scratchlearn estimator
    path : str or path-like
        Destination; written to a temporary file first and moved into place, so an existing
        file is never left half-written.
    metadata : dict, optional
        Extra JSON-able information stored beside the model (the command line records the
        feature names and target column); read it back with :func:`read_metadata`.

    Raises
    ------
    TypeError
        If the estimator is not a scratchlearn estimator or holds a value that a data-only file
        cannot represent; the message names the attribute path and its type.

    Examples
    --------
    >>> import os, tempfile
    >>> from scratchlearn import io
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     io.save(tree, os.path.join(tmp, "tree.slm"))
    ...     same = io.load(os.path.join(tmp, "tree.slm"))
    >>> print(type(same).__name__, (same.predict(X) == tree.predict(X)).all())
    DecisionTreeClassifier True
    """
    if not hasattr(estimator, "get_params") or isinstance(estimator, type):
        raise TypeError(
            f"save expects a scratchlearn estimator instance, got {type(estimator).__name__}"
        )
    encoder = Encoder()
    node = encoder.encode(estimator, type(estimator).__name__)
    if not isinstance(node, dict) or node.get("$type") != "estimator":
        raise TypeError(
            f"cannot save {class_ref(type(estimator))}: only scratchlearn estimators can be saved"
        )
    doc = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "scratchlearn_version": _version(),
        "class": node["class"],
        "params": node["params"],
        "attributes": node["attributes"],
        "metadata": encoder.encode(dict(metadata or {}), "metadata"),
    }
    text = json.dumps(doc, indent=1, allow_nan=False, ensure_ascii=False)
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"cannot save to {path}: the directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".scratchlearn-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(_JSON, text.encode("utf-8"))
            for member, array in encoder.arrays.items():
                buf = _stdio.BytesIO()
                np.save(buf, array, allow_pickle=False)
                zf.writestr(member, buf.getvalue())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a model file is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _read_document(zf: zipfile.ZipFile, path) -> dict:
    try:
        raw = zf.read(_JSON)
    except KeyError:
        raise ModelFileError(
            f"{path} is not a scratchlearn model file: it has no {_JSON}"
        ) from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ModelFileError(f"{path} is corrupt: {_JSON} is not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise ModelFileError(
            f"{path} is not a scratchlearn model file (format is not {FORMAT_NAME!r})"
        )
    version = doc.get("format_version")
    if type(version) is not int or version < 1:
        raise ModelFileError(f"{path} is corrupt: invalid format_version {version!r}")
    if version > FORMAT_VERSION:
        raise ModelFileError(
            f"{path} uses model-file format version {version}, written by scratchlearn "
            f"{doc.get('scratchlearn_version', '?')}; this scratchlearn ({_version()}) reads "
            f"up to version {FORMAT_VERSION}. Upgrade scratchlearn to load it."
        )
    for key, kind in (("class", str), ("params", dict), ("attributes", dict)):
        if not isinstance(doc.get(key), kind):
            raise ModelFileError(f"{path} is corrupt: missing or invalid {key!r}")
    return doc


def _array_reader(zf: zipfile.ZipFile, path):
    def read(member):
        try:
            raw = zf.read(member)
        except KeyError:
            raise ModelFileError(f"{path} is corrupt: array {member!r} is missing") from None
        try:
            array = np.load(_stdio.BytesIO(raw), allow_pickle=False)
        except ValueError as exc:
            raise ModelFileError(f"{path} is corrupt: array {member!r}: {exc}") from None
        if not isinstance(array, np.ndarray):
            raise ModelFileError(f"{path} is corrupt: {member!r} is not a .npy array")
        return array

    return read


def _open(path):
    """Open the archive and hand each reading step the same error handling."""
    name = os.fspath(path) if not hasattr(path, "read") else getattr(path, "name", "<file>")
    try:
        zf = zipfile.ZipFile(path if hasattr(path, "read") else os.fspath(path))
    except zipfile.BadZipFile:
        raise ModelFileError(
            f"{name} is not a scratchlearn model file (not a zip archive, or truncated)"
        ) from None
    return zf, name


def _guarded(path, step):
    zf, name = _open(path)
    with zf:
        try:
            return step(zf, name)
        except ModelFileError:
            raise
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RecursionError) as exc:
            raise ModelFileError(f"{name} is corrupt or truncated: {exc}") from None


def load(path):
    """Read a model file written by :func:`save` and return the estimator.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ModelFileError
        If the file is not a zip archive, not a scratchlearn model, of a newer format version,
        truncated or corrupt, or names a class that is not a scratchlearn estimator.

    Examples
    --------
    >>> import os, tempfile
    >>> from scratchlearn import io
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import Ridge
    >>> X, y = load_diabetes(return_X_y=True)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     io.save(Ridge(alpha=0.5).fit(X, y), os.path.join(tmp, "ridge.slm"))
    ...     model = io.load(os.path.join(tmp, "ridge.slm"))
    >>> print(model, round(model.score(X, y), 4))
    Ridge(alpha=0.5) 0.4875
    """

    def step(zf, name):
        doc = _read_document(zf, name)
        decoder = Decoder(_array_reader(zf, name))
        return decoder.decode(
            {
                "$type": "estimator",
                "class": doc["class"],
                "params": doc["params"],
                "attributes": doc["attributes"],
            }
        )

    return _guarded(path, step)


def read_metadata(path) -> dict:
    """The ``metadata`` dict stored by :func:`save` (empty when none was given)."""

    def step(zf, name):
        doc = _read_document(zf, name)
        meta = Decoder(_array_reader(zf, name)).decode(doc.get("metadata", {}))
        if not isinstance(meta, dict):
            raise ModelFileError(f"{name} is corrupt: metadata is not a mapping")
        return meta

    return _guarded(path, step)
