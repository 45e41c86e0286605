"""scratchlearn: classic machine-learning algorithms written from scratch, with scikit-learn's API.

Subpackages mirror scikit-learn's public paths (``scratchlearn.linear_model``,
``scratchlearn.naive_bayes``, ...). Importing ``scratchlearn`` imports no model module: import
the family you need.

Library-wide settings (today the working memory of blocked computations) are read and changed
with :func:`get_config`, :func:`set_config` and the :func:`config_context` context manager
(see :mod:`scratchlearn._config`).
"""

__version__ = "0.1.0"

from . import _registry  # noqa: E402
from ._config import config_context, get_config, set_config  # noqa: E402
from .base import clone  # noqa: E402
from .utils._compile_events import pause_gc_while_compiling  # noqa: E402
from .utils._dask import set_dask_estimators  # noqa: E402
from .utils.parallel import parallel_backend  # noqa: E402

# The registry (the top layer) hands its list of the estimators that fit on Dask input down to
# utils._dask (the bottom one, which imports nothing above it), for the refusal of Dask input.
set_dask_estimators(_registry.dask_estimators)

# While Numba compiles one of the package's kernels (a first fit with an empty cache), the cyclic
# garbage collector waits: its full collections cost a cold first fit 6-12% (utils/_compile_events).
pause_gc_while_compiling()

__all__ = [
    "clone",
    "config_context",
    "get_config",
    "parallel_backend",
    "set_config",
    "__version__",
]
