"""SVC(kernel="rbf", C=1, gamma="scale") against scikit-learn's SVC (LIBSVM), same arrays.

Targets (ratio ours / scikit-learn, one thread): fit <= 1.0 and predict <= 1.0. The data are
scratchlearn's make_classification (binary, 20 features, standardised); the model is fitted on the
first 80 % of the rows and ``agree`` is the fraction of the held-out 20 % on which the two
predictions differ (target <= 0.5 %: both stop at a KKT violation <= tol = 1e-3, so rows with
|f| near 0 may fall on either side). In a separate file from ``cases_svm.py`` (helper s1a's SVR
rows) so that the two can be merged without conflict.
"""

from __future__ import annotations

import numpy as np
from sklearn import svm as sk_svm

from benchmarks.harness import Case
from scratchlearn import svm
from scratchlearn.datasets import make_classification


def _data(n, d=20, seed=0):
    X, y = make_classification(
        n_samples=n, n_features=d, n_informative=10, n_redundant=5, random_state=seed
    )
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    cut = int(0.8 * n)
    return X[:cut], y[:cut], X[cut:]


def _held_out_mismatch(ours, theirs, data):
    X_test = data[2]
    return float(np.mean(ours.predict(X_test) != theirs.predict(X_test)))


def _case(n):
    return Case(
        f"SVC rbf C=1 gamma=scale {n}x20",
        lambda: _data(n),
        lambda: svm.SVC(kernel="rbf", C=1.0, gamma="scale"),
        lambda: sk_svm.SVC(kernel="rbf", C=1.0, gamma="scale"),
        fit_args=lambda data: data[:2],
        predict_args=lambda data: (data[2],),
        agree=_held_out_mismatch,
        target_fit=1.0,
        target_predict=1.0,
    )


CASES = [_case(5_000), _case(12_500)]  # 4,000 and 10,000 training rows
