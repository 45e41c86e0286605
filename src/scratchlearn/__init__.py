"""scratchlearn: classic machine-learning algorithms written from scratch, with scikit-learn's API.

Subpackages mirror scikit-learn's public paths (``scratchlearn.linear_model``,
``scratchlearn.naive_bayes``, ...). Importing ``scratchlearn`` imports no model module: import
the family you need.
"""

__version__ = "0.1.0"

from .base import clone  # noqa: E402

__all__ = ["clone", "__version__"]
