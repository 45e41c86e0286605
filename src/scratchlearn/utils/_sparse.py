"""``issparse`` without importing SciPy: what ``import scratchlearn`` may not pay for.

A SciPy sparse matrix or array is an instance of a class defined in ``scipy.sparse``, so it can
exist only once that module has been imported. Until then every object is dense, and the
question costs a dictionary lookup instead of the 0.2–0.4 s that importing ``scipy.sparse``
takes. Modules on the import path of ``scratchlearn`` (the base classes and the validation)
ask through :func:`issparse`; modules that build sparse matrices import SciPy themselves.
"""

from __future__ import annotations

import sys

__all__ = ["issparse"]


def issparse(x) -> bool:
    """Whether ``x`` is a SciPy sparse matrix or array (``scipy.sparse.issparse``)."""
    sp = sys.modules.get("scipy.sparse")
    return sp is not None and sp.issparse(x)
