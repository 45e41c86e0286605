"""AdaBoost with stumps and bagged trees against scikit-learn, on the same arrays.

Targets (ratio ours / scikit-learn, one thread): AdaBoostClassifier(n_estimators=50) fit <= 1.0
and predict <= 1.0 on 2,000 x 20 and 15,000 x 20. X is rounded to float32 and back, as for the
trees (scikit-learn grows its stumps on float32 copies), so both libraries see the same candidate
thresholds. ``agree`` for AdaBoost is the largest relative difference of the 50 votes α (the
same stump every round gives rounding-level differences; a tie broken differently shows as a
large one); for bagging (different random draws) the fraction of training rows predicted
differently.
"""

from __future__ import annotations

import numpy as np
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree

from benchmarks.cases_tree import _classification  # the trees' data: same arrays
from benchmarks.harness import Case
from scratchlearn import ensemble


def _alpha_diff(ours, theirs, data):
    a, b = ours.estimator_weights_, theirs.estimator_weights_
    return float(np.max(np.abs(a - b) / np.abs(b)))


def _train_mismatch(ours, theirs, data):
    X = data[0]
    return float(np.mean(ours.predict(X) != theirs.predict(X)))


def _adaboost_case(n):
    return Case(
        f"AdaBoostClassifier 50 stumps {n}x20",
        lambda: _classification(n),
        lambda: ensemble.AdaBoostClassifier(n_estimators=50, random_state=0),
        lambda: sk_ensemble.AdaBoostClassifier(
            sk_tree.DecisionTreeClassifier(max_depth=1), n_estimators=50, random_state=0
        ),
        agree=_alpha_diff,
        target_fit=1.0,
        target_predict=1.0,
    )


def _bagging_case(n):
    return Case(
        f"BaggingClassifier 10 trees {n}x20",
        lambda: _classification(n),
        lambda: ensemble.BaggingClassifier(n_estimators=10, random_state=0),
        lambda: sk_ensemble.BaggingClassifier(n_estimators=10, random_state=0),
        agree=_train_mismatch,
    )


CASES = [_adaboost_case(2_000), _adaboost_case(15_000), _bagging_case(2_000)]
