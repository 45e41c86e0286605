"""One-vs-rest and one-vs-one against scikit-learn's meta-estimators wrapping the SAME learner.

Both sides clone one scratchlearn learner and fit it on the same rows, so the learners' work is
identical and the ratio measures only what the strategies add: slicing the pairs' rows, building
the targets, scoring and aggregating. Targets (ours / scikit-learn, one thread): fit <= 1.0 and
predict <= 1.0. ``agree`` is the fraction of rows whose predictions differ (0: the tests check
bit-equal decision values on iris, wine and digits).
"""

from __future__ import annotations

import sklearn.multiclass as skm

from benchmarks.harness import Case
from scratchlearn import multiclass
from scratchlearn.datasets import load_digits, make_classification
from scratchlearn.naive_bayes import GaussianNB
from scratchlearn.tree import DecisionTreeClassifier


def _digits():
    data = load_digits()
    return data.data, data.target


def _blobs_of_8(n=5_000, d=20):
    return make_classification(
        n_samples=n, n_features=d, n_informative=10, n_classes=8, random_state=0
    )


def _mismatch(ours, theirs, data):
    X = data[0]
    return float((ours.predict(X) != theirs.predict(X)).mean())


def _case(strategy, label, make_data, make_base):
    return Case(
        f"{strategy} {label}",
        make_data,
        lambda: getattr(multiclass, strategy)(make_base()),
        lambda: getattr(skm, strategy)(make_base()),
        agree=_mismatch,
        target_fit=1.0,
        target_predict=1.0,
    )


def _tree():
    return DecisionTreeClassifier(max_depth=6, random_state=0)


CASES = [
    _case(s, label, data, base)
    for s in ("OneVsRestClassifier", "OneVsOneClassifier")
    for label, data, base in (
        ("GaussianNB digits 1797x64", _digits, GaussianNB),
        ("tree depth 6, 5000x20, 8 classes", _blobs_of_8, _tree),
    )
]
