"""Ensembles: bagging and AdaBoost (SAMME) over any scratchlearn estimator."""

from ._bagging import BaggingClassifier, BaggingRegressor
from ._weight_boosting import AdaBoostClassifier

__all__ = ["AdaBoostClassifier", "BaggingClassifier", "BaggingRegressor"]
