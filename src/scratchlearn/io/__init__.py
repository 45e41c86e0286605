"""Model files that are data only: :func:`save` and :func:`load`, no pickle.

A model file is a zip archive holding

* ``model.json``: ``{"format": "scratchlearn-model", "format_version": 2, "scratchlearn_version",
  "class": "module:QualName", "params": {...}, "attributes": {...}, "metadata": {...},
  "checksums": {member: sha256}, "digest": sha256}``, the estimator's hyperparameters and fitted
  attributes written as JSON (the encoding of each kind of value is listed in
  ``scratchlearn.io._encode``), the SHA-256 of every array member, and the SHA-256 of the
  document itself;
* ``arrays/<k>.npy``: every NumPy array, in NumPy's ``.npy`` format (never pickled).

Loading never runs code from the file: the class is looked up by name with ``getattr`` inside a
``scratchlearn`` module and must be a scratchlearn estimator (or a helper class that declares
``_scratchlearn_serializable = True``). Anything that cannot be stored this way (a lambda, an
object of another library) is refused when saving, with the path of the offending attribute.

Loading treats the file as untrusted. Sizes are checked before they are read (the number of
members, the size of ``model.json``, every array's size from its ``.npy`` header, against
:data:`MAX_BYTES` and :data:`MAX_MEMBERS`: see ``scratchlearn.io._archive``); the checksums
and digest catch a file damaged or altered after it was written; and every estimator's fitted
state is checked against what it declares of it (see ``scratchlearn.io._invariants``), which
catches a file crafted with consistent checksums. Every refusal is a
:class:`~scratchlearn.exceptions.ModelFileError` naming the member or the attribute.

Format history
--------------
:data:`FORMAT_HISTORY` lists every version and what changed; a file of any listed version
loads, any other is refused with a message naming its version.

Example
-------
>>> from scratchlearn import io                                   # doctest: +SKIP
>>> io.save(model, "ridge.slm")                                  # doctest: +SKIP
>>> same = io.load("ridge.slm")                                  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import io as _stdio
import json
import os
import struct
import tempfile
import zipfile
import zlib

import numpy as np

from ..exceptions import ModelFileError
from ._archive import _ZIP_ERRORS, MAX_BYTES, MAX_MEMBERS, Archive, declared_member_count
from ._classes import class_ref
from ._decode import Decoder
from ._encode import Encoder

__all__ = [
    "save",
    "load",
    "read_metadata",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "FORMAT_HISTORY",
    "MAX_BYTES",
    "MAX_MEMBERS",
]

FORMAT_NAME = "scratchlearn-model"
FORMAT_VERSION = 2
#: Every version of the format, with what changed: the one place to record a change. A reader
#: loads every version listed here and refuses any other, naming it.
FORMAT_HISTORY = {
    1: "model.json (format, format_version, scratchlearn_version, class, params, attributes, "
    "metadata) and one arrays/<k>.npy member per array, deflated. Still loaded, with every "
    "check but the checksums.",
    2: "model.json adds 'checksums' (member -> SHA-256 of its bytes) and 'digest' (SHA-256 "
    "of the canonical JSON of the document without it), so a damaged or edited file, or one "
    "whose members were swapped or duplicated, is refused.",
}
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
    members = {}
    for member, array in encoder.arrays.items():
        buf = _stdio.BytesIO()
        np.save(buf, array, allow_pickle=False)
        members[member] = buf.getvalue()
    _seal(doc, members)
    text = json.dumps(doc, indent=1, allow_nan=False, ensure_ascii=False)
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"cannot save to {path}: the directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".scratchlearn-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(_JSON, text.encode("utf-8"))
            for member, data in members.items():
                zf.writestr(member, data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a model file is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _digest(doc: dict) -> str:
    """SHA-256 of the document without its ``digest``, written canonically (sorted keys, no
    spaces): any change of the JSON changes it, however the file was re-indented."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _seal(doc: dict, members: dict) -> dict:
    """Add the checksums of ``members`` (name -> bytes) and the digest to ``doc`` (version 2)."""
    doc["checksums"] = {name: hashlib.sha256(data).hexdigest() for name, data in members.items()}
    doc["digest"] = _digest(doc)
    return doc


def _check_seal(doc: dict, archive: Archive) -> None:
    checksums = doc.get("checksums")
    if not isinstance(checksums, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in checksums.items()
    ):
        archive.refuse(f"{_JSON} has no valid 'checksums' (format version 2 writes them)")
    if doc.get("digest") != _digest(doc):
        archive.refuse(f"{_JSON} does not match its digest: it was changed after it was written")
    archive.checksums = checksums


def _read_document(archive: Archive) -> dict:
    doc = archive.document()
    path = archive.name
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
    if version not in FORMAT_HISTORY:
        raise ModelFileError(f"{path} uses model-file format version {version}, never released")
    for key, kind in (("class", str), ("params", dict), ("attributes", dict)):
        if not isinstance(doc.get(key), kind):
            raise ModelFileError(f"{path} is corrupt: missing or invalid {key!r}")
    if version >= 2:
        _check_seal(doc, archive)
    archive.check_members(doc)
    return doc


def _open(path, max_members):
    """Open the archive, refusing it before zipfile parses a directory of more than
    ``max_members`` entries."""
    name = os.fspath(path) if not hasattr(path, "read") else getattr(path, "name", "<file>")
    fh = path if hasattr(path, "read") else open(os.fspath(path), "rb")  # noqa: SIM115
    try:
        count = declared_member_count(fh)
        if count is not None and count > max_members:
            raise ModelFileError(
                f"{name} is corrupt: it declares {count} members, more than "
                f"max_members={max_members}"
            )
        fh.seek(0)
        zf = zipfile.ZipFile(fh)
    except ModelFileError:
        if fh is not path:
            fh.close()
        raise
    except zipfile.BadZipFile:
        if fh is not path:
            fh.close()
        raise ModelFileError(
            f"{name} is not a scratchlearn model file (not a zip archive, or truncated)"
        ) from None
    except _ZIP_ERRORS as exc:  # a directory zipfile cannot parse
        if fh is not path:
            fh.close()
        raise ModelFileError(
            f"{name} is corrupt: its zip directory cannot be read ({type(exc).__name__}: {exc})"
        ) from None
    except BaseException:
        if fh is not path:
            fh.close()
        raise
    return zf, fh, name


def _guarded(path, step, max_bytes=MAX_BYTES, max_members=MAX_MEMBERS):
    for key, value in (("max_bytes", max_bytes), ("max_members", max_members)):
        if type(value) is not int or value < 0:
            raise ValueError(f"{key} must be a non-negative int, got {value!r}")
    zf, fh, name = _open(path, max_members)
    try:
        with zf:
            archive = Archive(zf, name, max_bytes=max_bytes, max_members=max_members)
            return step(archive)
    except ModelFileError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RecursionError) as exc:
        raise ModelFileError(f"{name} is corrupt or truncated: {exc}") from None
    except (NotImplementedError, RuntimeError, struct.error, OverflowError) as exc:
        raise ModelFileError(f"{name} is corrupt: {type(exc).__name__}: {exc}") from None
    finally:
        if fh is not path:
            fh.close()


def load(path, *, max_bytes: int = MAX_BYTES, max_members: int = MAX_MEMBERS):
    """Read a model file written by :func:`save` and return the estimator.

    The file is treated as untrusted: its declared sizes are checked before anything is read
    (see ``scratchlearn.io._archive``), and the fitted state read is checked against what
    each estimator declares of it (its ``_fitted_spec``, see
    ``scratchlearn.io._invariants``) before the estimator is returned.

    Parameters
    ----------
    path : str, path-like or binary file object
    max_bytes : int, default 2**31
        Largest total size of the model's arrays, in bytes; a file declaring more is refused
        before any array is read. Raise it to load a model larger than 2 GiB.
    max_members : int, default 32768
        Largest number of members of the archive (a fitted tree stores about 10); model.json
        may hold 128 bytes per member (at least 1 MiB). Raise it to load a forest of more
        than 2,000 trees.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ModelFileError
        If the file is not a zip archive, not a scratchlearn model, of a newer format version,
        truncated or corrupt, larger than the limits, inconsistent with the estimator it
        describes, or names a class that is not a scratchlearn estimator. The message names
        the member or the attribute.

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

    def step(archive):
        doc = _read_document(archive)
        decoder = Decoder(archive.array)
        return decoder.decode(
            {
                "$type": "estimator",
                "class": doc["class"],
                "params": doc["params"],
                "attributes": doc["attributes"],
            }
        )

    return _guarded(path, step, max_bytes, max_members)


def read_metadata(path) -> dict:
    """The ``metadata`` dict stored by :func:`save` (empty when none was given)."""

    def step(archive):
        doc = _read_document(archive)
        meta = Decoder(archive.array).decode(doc.get("metadata", {}))
        if not isinstance(meta, dict):
            raise ModelFileError(f"{archive.name} is corrupt: metadata is not a mapping")
        return meta

    return _guarded(path, step)
