"""Ensembles: random forests and extremely randomised trees, bagging, and AdaBoost (SAMME for
classes, R2 for regression)."""

from ._adaboost_r2 import AdaBoostRegressor
from ._adaboost_samme import AdaBoostClassifier
from ._bagging import BaggingClassifier, BaggingRegressor
from ._forest import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

__all__ = [
    "AdaBoostClassifier",
    "AdaBoostRegressor",
    "BaggingClassifier",
    "BaggingRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]
