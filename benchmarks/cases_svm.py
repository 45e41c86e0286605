"""Support vector machines against scikit-learn (LIBSVM), same arrays, same process.

Targets (ratio ours / scikit-learn, one thread): fit <= 1.0 and predict <= 1.0. The data are
standardised (features, and the regression target), as an SVM needs; each case trains on the
first part of the rows and predicts the held-out rest. ``agree`` is the largest absolute
difference of the held-out predictions (SVR; both solvers stop at tol = 1e-3, so a few 1e-4 is
expected) or the fraction of held-out labels that differ (classifiers).

``classification_data`` and ``regression_data`` build the generated problems (4,000 × 20 and
10,000 × 20); the SVC rows use the former.
"""

from __future__ import annotations

import numpy as np
from sklearn import svm as sk_svm
from sklearn.datasets import load_diabetes

from benchmarks.harness import Case
from scratchlearn import svm
from scratchlearn.datasets import make_classification, make_regression

HELD_OUT = 0.2


def _standardise(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _split(X, y):
    n_train = int(round(len(y) * (1 - HELD_OUT)))
    return X[:n_train], y[:n_train], X[n_train:]


def classification_data(n, d=20, seed=0):
    """(X_train, y_train, X_test): a binary make_classification problem, standardised X."""
    X, y = make_classification(
        n_samples=n, n_features=d, n_informative=10, n_redundant=5, random_state=seed
    )
    return _split(_standardise(X), y)


def regression_data(n, d=20, seed=0):
    """(X_train, y_train, X_test): make_regression with noise, standardised X and y."""
    X, y = make_regression(
        n_samples=n, n_features=d, n_informative=10, noise=10.0, random_state=seed
    )
    return _split(_standardise(X), (y - y.mean()) / y.std())


def _diabetes():
    X, y = load_diabetes(return_X_y=True)
    return _split(_standardise(X), (y - y.mean()) / y.std())


def _max_diff(ours, theirs, data):
    Xte = data[2]
    return float(np.max(np.abs(ours.predict(Xte) - theirs.predict(Xte))))


def _svr_case(name, make):
    return Case(
        f"SVR rbf {name}",
        make,
        lambda: svm.SVR(kernel="rbf"),
        lambda: sk_svm.SVR(kernel="rbf"),
        fit_args=lambda data: (data[0], data[1]),
        predict_args=lambda data: (data[2],),
        agree=_max_diff,
        target_fit=1.0,
        target_predict=1.0,
    )


CASES = [
    _svr_case("diabetes 354x10", _diabetes),
    _svr_case("3200x20 (of 4000)", lambda: regression_data(4_000)),
]
