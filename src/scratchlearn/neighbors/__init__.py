"""Nearest neighbours: k-NN and radius classification and regression, unsupervised queries,
brute force by blocked matrix products (:mod:`scratchlearn.metrics._argkmin`) and a k-d tree
(:class:`KDTree`)."""

from ._classification import KNeighborsClassifier, RadiusNeighborsClassifier
from ._kd_tree import KDTree
from ._regression import KNeighborsRegressor, RadiusNeighborsRegressor
from ._unsupervised import NearestNeighbors

__all__ = [
    "KDTree",
    "KNeighborsClassifier",
    "KNeighborsRegressor",
    "NearestNeighbors",
    "RadiusNeighborsClassifier",
    "RadiusNeighborsRegressor",
]
