"""Forests against scikit-learn's, 100 trees, on the same arrays, one thread each (n_jobs=1).

Targets (ratio ours / scikit-learn): fit <= 1.0 and predict <= 1.0. X is rounded to float32 and
back, as in cases_tree.py, so that both libraries' trees see the same values. The forests differ
tree by tree (each library draws its own bootstraps and feature subsets), so ``agree`` is the
difference of the training accuracy (classifier) or training R² (regressor), ours minus theirs.

The thread row compares our forest with ``n_jobs=2`` against the same forest with ``n_jobs=1``
(both "sides" are scratchlearn): its fit ratio is the inverse of the speed-up, target <= 0.59
(a speed-up of at least 1.7 on the two cores); ``agree`` is the largest difference of the
predicted probabilities, which must be 0 (threads do not change the forest).
"""

from __future__ import annotations

import numpy as np
from sklearn import ensemble as sk_ensemble

from benchmarks.cases_tree import _classification, _regression  # the trees' data: same arrays
from benchmarks.harness import Case
from scratchlearn import ensemble


def _train_score_diff(ours, theirs, data):
    X, y = data
    return float(ours.score(X, y) - theirs.score(X, y))


def _proba_max_diff(ours, theirs, data):
    return float(np.max(np.abs(ours.predict_proba(data[0]) - theirs.predict_proba(data[0]))))


def _forest_case(kind, n, data):
    return Case(
        f"{kind}(n_estimators=100) {n}x20",
        lambda: data(n),
        lambda: getattr(ensemble, kind)(n_estimators=100, n_jobs=1, random_state=0),
        lambda: getattr(sk_ensemble, kind)(n_estimators=100, n_jobs=1, random_state=0),
        agree=_train_score_diff,
        target_fit=1.0,
        target_predict=1.0,
    )


def _thread_case(n):
    return Case(
        f"RandomForestClassifier n_jobs=2 vs our n_jobs=1 {n}x20",
        lambda: _classification(n),
        lambda: ensemble.RandomForestClassifier(n_estimators=100, n_jobs=2, random_state=0),
        lambda: ensemble.RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0),
        method="predict_proba",
        agree=_proba_max_diff,
        target_fit=0.59,
        note="both sides ours: the fit ratio is 1 / speed-up",
    )


CASES = [
    _forest_case("RandomForestClassifier", 1_000, _classification),
    _forest_case("RandomForestClassifier", 8_000, _classification),
    _forest_case("ExtraTreesClassifier", 8_000, _classification),
    _forest_case("RandomForestRegressor", 4_000, _regression),
    _forest_case("ExtraTreesRegressor", 4_000, _regression),
    _thread_case(8_000),
]
