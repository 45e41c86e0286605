"""Which classes a model file may name, and how they are named (``module:QualName``).

A class is allowed when it is defined in a ``scratchlearn`` module and is an estimator
(``BaseEstimator`` subclass), a ``Bunch``, or declares ``_scratchlearn_serializable = True``.
The same rule is applied when saving (so an unloadable file is never written) and when loading.
"""

from __future__ import annotations

import importlib
import re

from ..exceptions import ModelFileError

__all__ = [
    "TAG",
    "SPARSE_PARTS",
    "BUILTIN_TYPES",
    "MEMBER",
    "class_ref",
    "allowed",
    "resolve_class",
]

TAG = "$type"
SPARSE_PARTS = {
    "csr": ("data", "indices", "indptr"),
    "csc": ("data", "indices", "indptr"),
    "coo": ("data", "row", "col"),
}
BUILTIN_TYPES = {"bool", "int", "float", "complex", "str", "bytes", "object"}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MEMBER = re.compile(r"^arrays/[0-9]+\.npy$")


def class_ref(cls) -> str:
    """``module:QualName`` of a class."""
    return f"{cls.__module__}:{cls.__qualname__}"


def _in_scratchlearn(module: str) -> bool:
    return module == "scratchlearn" or module.startswith("scratchlearn.")


def allowed(cls) -> bool:
    """A class whose instances may be written and read: an opted-in scratchlearn class."""
    from ..base import BaseEstimator
    from ..utils import Bunch

    if not isinstance(cls, type) or not _in_scratchlearn(getattr(cls, "__module__", "")):
        return False
    if issubclass(cls, (BaseEstimator, Bunch)):
        return True
    return getattr(cls, "_scratchlearn_serializable", False) is True


def resolve_class(ref):
    """The class named by ``module:QualName``, refused unless it is an allowed scratchlearn class.

    The module is imported (scratchlearn's own code) and the class found with ``getattr``; the
    file's text is never evaluated.
    """
    if not isinstance(ref, str) or ref.count(":") != 1:
        raise ModelFileError(f"invalid class reference {ref!r}: expected 'module:QualName'")
    module_name, qualname = ref.split(":")
    parts = module_name.split(".")
    if not _in_scratchlearn(module_name) or not all(_IDENT.match(p) for p in parts):
        raise ModelFileError(
            f"refusing class {ref!r}: model files may only name classes of scratchlearn modules"
        )
    names = qualname.split(".")
    if not all(_IDENT.match(n) and not n.startswith("__") for n in names):
        raise ModelFileError(f"invalid class name {qualname!r} in {ref!r}")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as exc:
        raise ModelFileError(
            f"the model needs {module_name!r}, which this scratchlearn cannot import ({exc})"
        ) from None
    for i, name in enumerate(names):
        obj = getattr(obj, name, None)
        if obj is None or (i < len(names) - 1 and not isinstance(obj, type)):
            raise ModelFileError(f"class {ref!r} does not exist in this version of scratchlearn")
    if not allowed(obj) or class_ref(obj) != ref:
        raise ModelFileError(
            f"refusing {ref!r}: it is not a scratchlearn estimator or serialisable helper class"
        )
    return obj
