"""Ensembles: random forests and extremely randomised trees, bagging, and AdaBoost (SAMME for
classes, R2 for regression)."""

from ._adaboost_r2 import AdaBoostRegressor
from ._bagging import BaggingClassifier, BaggingRegressor
from ._forest import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from ._weight_boosting import AdaBoostClassifier

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
