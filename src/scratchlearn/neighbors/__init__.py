"""Nearest neighbours: k-NN and radius classification and regression, unsupervised queries,
brute force by blocked matrix products (:mod:`scratchlearn.metrics._argkmin`) and a k-d tree."""

from ._classification import KNeighborsClassifier, RadiusNeighborsClassifier
from ._regression import KNeighborsRegressor, RadiusNeighborsRegressor
from ._unsupervised import NearestNeighbors

__all__ = [
    "KNeighborsClassifier",
    "KNeighborsRegressor",
    "NearestNeighbors",
    "RadiusNeighborsClassifier",
    "RadiusNeighborsRegressor",
]

try:  # the k-d tree is written beside this package and merged separately
    from ._kd_tree import KDTree  # noqa: F401

    __all__.append("KDTree")
except ModuleNotFoundError as exc:  # pragma: no cover - before the merge
    if exc.name != f"{__name__}._kd_tree":
        raise
