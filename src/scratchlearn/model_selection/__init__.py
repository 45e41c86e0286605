"""Model selection: hold-out splits, cross-validation, hyperparameter search, learning curves.

=====================  ================================================================
``train_test_split``   random (optionally stratified) hold-out split of several arrays
``KFold``              K consecutive folds, optionally shuffled
``StratifiedKFold``    K folds keeping each class's share of the samples
``GroupKFold``         K folds that never split a group
``GroupShuffleSplit``  random hold-out splits of whole groups (queries in ranking)
``check_cv``           turn a ``cv`` argument (None, int, splitter, pairs) into a splitter
``cross_validate``     fit and score a clone on every fold (times, several scorers)
``cross_val_score``    the test score of each fold
``ParameterGrid``      every combination of a grid of hyperparameter values
``GridSearchCV``       exhaustive search scored by cross-validation, refit on all data
``learning_curve``     scores against the number of training samples (bias / variance)
``validation_curve``   scores against the value of one hyperparameter
=====================  ================================================================
"""

from ._curves import learning_curve, validation_curve
from ._search import GridSearchCV, ParameterGrid
from ._split import (
    GroupKFold,
    GroupShuffleSplit,
    KFold,
    StratifiedKFold,
    check_cv,
    train_test_split,
)
from ._validation import FitFailedWarning, cross_val_score, cross_validate

__all__ = [
    "train_test_split",
    "KFold",
    "StratifiedKFold",
    "GroupKFold",
    "GroupShuffleSplit",
    "check_cv",
    "cross_validate",
    "cross_val_score",
    "ParameterGrid",
    "GridSearchCV",
    "learning_curve",
    "validation_curve",
    "FitFailedWarning",
]
