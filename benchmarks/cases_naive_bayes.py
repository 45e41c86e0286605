"""Naive Bayes and the text vectorisers against scikit-learn on the same inputs.

Targets (ratio ours / scikit-learn): fit <= 1.0 and predict (transform) <= 1.0 for every case.
``agree`` is the largest absolute difference of predict_proba (classifiers) or of the matrices'
entries (vectorisers; for counts any non-zero value means a different matrix).
"""

from __future__ import annotations

import functools
import os

import numpy as np
import scipy.sparse as sp
from sklearn import naive_bayes as sk_nb
from sklearn.feature_extraction import text as sk_text

from benchmarks.harness import Case
from scratchlearn import naive_bayes as nb
from scratchlearn.feature_extraction import text as sl_text

SMS = os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "data", "sms_spam", "SMSSpamCollection"
)


def _gaussian(n=200_000, d=50, K=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    X = rng.standard_normal((n, d)) + y[:, None] * rng.standard_normal(d)
    return X, y


def _binary(n=200_000, d=50, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.where(y[:, None] == 1, rng.uniform(0.2, 0.8, d), rng.uniform(0.1, 0.6, d))
    return (rng.random((n, d)) < p).astype(np.float64), y


def _sparse_counts(n=50_000, d=5_000, nnz_per_row=30, K=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    cols = (rng.zipf(1.3, size=(n, nnz_per_row)) + 97 * y[:, None]) % d
    rows = np.repeat(np.arange(n), nnz_per_row)
    X = sp.csr_matrix((np.ones(rows.shape[0]), (rows, cols.ravel())), shape=(n, d))
    X.sum_duplicates()
    return X, y


def _categorical(n=100_000, d=20, K=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    X = (rng.integers(0, 6, (n, d)) + y[:, None]) % 8  # ordinal codes 0..7
    return X, y


@functools.lru_cache(maxsize=1)
def _sms_docs(n=50_000):
    with open(SMS, encoding="utf-8") as fh:
        docs = [line.rstrip("\n").split("\t", 1)[1] for line in fh if line.strip()]
    return ((docs * (n // len(docs) + 1))[:n],)


def _proba_diff(ours, theirs, data):
    X = data[0]
    return float(np.max(np.abs(ours.predict_proba(X) - theirs.predict_proba(X))))


def _matrix_diff(ours, theirs, data):
    docs = data[0]
    a, b = ours.transform(docs), theirs.transform(docs)
    return float(abs(a - b).max()) if a.shape == b.shape else float("inf")


CASES = [
    Case(
        "GaussianNB 200000x50",
        _gaussian,
        nb.GaussianNB,
        sk_nb.GaussianNB,
        method="predict_proba",
        agree=_proba_diff,
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "BernoulliNB 200000x50",
        _binary,
        nb.BernoulliNB,
        sk_nb.BernoulliNB,
        method="predict_proba",
        agree=_proba_diff,
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "MultinomialNB sparse 50000x5000",
        _sparse_counts,
        nb.MultinomialNB,
        sk_nb.MultinomialNB,
        method="predict_proba",
        agree=_proba_diff,
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "CategoricalNB 100000x20",
        _categorical,
        nb.CategoricalNB,
        sk_nb.CategoricalNB,
        method="predict_proba",
        agree=_proba_diff,
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "CountVectorizer SMS x50000 docs",
        _sms_docs,
        sl_text.CountVectorizer,
        sk_text.CountVectorizer,
        fit_args=lambda d: (d[0],),
        method="transform",
        agree=_matrix_diff,
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "TfidfVectorizer SMS x50000 docs",
        _sms_docs,
        sl_text.TfidfVectorizer,
        sk_text.TfidfVectorizer,
        fit_args=lambda d: (d[0],),
        method="transform",
        agree=_matrix_diff,
        target_fit=1.0,
        target_predict=1.0,
    ),
]
