"""Ensembles: bagging and AdaBoost (SAMME for classes, R2 for regression)."""

from ._adaboost_r2 import AdaBoostRegressor
from ._bagging import BaggingClassifier, BaggingRegressor
from ._weight_boosting import AdaBoostClassifier

__all__ = ["AdaBoostClassifier", "AdaBoostRegressor", "BaggingClassifier", "BaggingRegressor"]
