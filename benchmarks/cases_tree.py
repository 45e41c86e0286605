"""CART decision trees against scikit-learn, fully grown, on the same arrays.

Targets (ratio ours / scikit-learn, one thread): fit <= 1.0 and predict <= 1.0 for every case.
The data are real-valued (scratchlearn's make_classification / make_regression), rounded to
float32 and back, because scikit-learn grows its trees on float32 copies of X: on such data both
libraries see the same values and the same candidate thresholds. ``agree`` is the fraction of
training rows whose predictions differ (classifier; ties between equally good splits are broken
by each library's own random feature order, so a few rows of a fully grown tree can differ on
held-out data but never on the training rows) or the largest absolute difference of the training
predictions (regressor: a fully grown tree reproduces every distinct training target).
"""

from __future__ import annotations

import numpy as np
from sklearn import tree as sk_tree

from benchmarks.harness import Case
from scratchlearn import tree
from scratchlearn.datasets import make_classification, make_regression


def _classification(n, d=20, seed=0):
    X, y = make_classification(
        n_samples=n, n_features=d, n_informative=10, n_redundant=5, random_state=seed
    )
    return X.astype(np.float32).astype(np.float64), y


def _regression(n, d=20, seed=0):
    X, y = make_regression(
        n_samples=n, n_features=d, n_informative=10, noise=1.0, random_state=seed
    )
    return X.astype(np.float32).astype(np.float64), y


def _train_mismatch(ours, theirs, data):
    X = data[0]
    return float(np.mean(ours.predict(X) != theirs.predict(X)))


def _train_max_diff(ours, theirs, data):
    X = data[0]
    return float(np.max(np.abs(ours.predict(X) - theirs.predict(X))))


def _clf_case(n):
    return Case(
        f"DecisionTreeClassifier gini full {n}x20",
        lambda: _classification(n),
        lambda: tree.DecisionTreeClassifier(random_state=0),
        lambda: sk_tree.DecisionTreeClassifier(random_state=0),
        agree=_train_mismatch,
        target_fit=1.0,
        target_predict=1.0,
    )


def _reg_case(n):
    return Case(
        f"DecisionTreeRegressor squared full {n}x20",
        lambda: _regression(n),
        lambda: tree.DecisionTreeRegressor(random_state=0),
        lambda: sk_tree.DecisionTreeRegressor(random_state=0),
        agree=_train_max_diff,
        target_fit=1.0,
        target_predict=1.0,
    )


CASES = [_clf_case(5_000), _clf_case(40_000), _reg_case(10_000), _reg_case(50_000)]
