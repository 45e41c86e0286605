"""LinearSVC (dual coordinate descent) against scikit-learn's liblinear on the same arrays.

Target (ratio ours / scikit-learn): fit <= 1.0. Both run the same algorithm (scikit-learn with
``dual=True``: its ``dual="auto"`` would switch the dense n > d problem to its primal solver),
the same ``tol`` and C, so they take similar numbers of passes; the visiting orders come from
different generators. ``agree`` is the fraction of training points whose predicted class differs.
"""

from __future__ import annotations

import functools

import numpy as np
from sklearn import svm as sk_svm

from benchmarks.harness import Case
from scratchlearn.datasets import load_sms_spam
from scratchlearn.feature_extraction.text import CountVectorizer
from scratchlearn.svm._linear import LinearSVC


@functools.lru_cache(maxsize=1)
def _sms_bag_of_words():
    b = load_sms_spam()
    return CountVectorizer().fit_transform(b.data).tocsr(), np.asarray(b.target)


def _dense(n=50_000, d=50, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    y = (X @ w + 0.5 * rng.standard_normal(n) > 0).astype(int)
    return X, y


def _disagree(ours, theirs, data):
    return float(np.mean(ours.predict(data[0]) != theirs.predict(data[0])))


CASES = [
    Case(
        "LinearSVC SMS bag of words 5574x8713 sparse",
        _sms_bag_of_words,
        lambda: LinearSVC(C=0.1, random_state=0),
        lambda: sk_svm.LinearSVC(C=0.1, dual=True, random_state=0),
        agree=_disagree,
        target_fit=1.0,
    ),
    Case(
        "LinearSVC hinge SMS bag of words 5574x8713 sparse",
        _sms_bag_of_words,
        lambda: LinearSVC(C=0.1, loss="hinge", random_state=0),
        lambda: sk_svm.LinearSVC(C=0.1, loss="hinge", dual=True, random_state=0),
        agree=_disagree,
        target_fit=1.0,
    ),
    Case(
        "LinearSVC dense 50000x50",
        _dense,
        lambda: LinearSVC(C=0.1, random_state=0),
        lambda: sk_svm.LinearSVC(C=0.1, dual=True, random_state=0),
        agree=_disagree,
        target_fit=1.0,
    ),
]
