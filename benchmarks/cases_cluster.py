"""k-means against scikit-learn on the same arrays.

``KMeans(n_clusters=8, n_init=1, max_iter=100)`` on standard normal values (no cluster
structure, so both run until ``max_iter`` or the same late stop: ``agree`` reports our n_iter_
minus theirs, 0 when equal): Lloyd against Lloyd on 100,000 × 20 and 1,000,000 × 20, Elkan
against Elkan on 100,000 × 20 and 300,000 × 5. Both start from the same explicit centres (the
first 8 rows), so they do the same iterations: the fit time is the iterations alone. The
k-means++ seeding, which a fit from ``init="k-means++"`` adds, is timed on its own row
(``kmeans_plusplus`` against scikit-learn's, 8 seeds on 100,000 × 20: different random streams,
so ``agree`` is the ratio of the potentials φ = Σᵢ min_j ‖xᵢ − μ_j‖² of the two seedings).
Targets: fit ≤ 1.0 and predict ≤ 1.0. MiniBatchKMeans is reported without a target (different
random streams, so the number of steps differs).
"""

from __future__ import annotations

import numpy as np

from benchmarks.harness import Case
from scratchlearn import cluster


def _data(n, d=20):
    return (np.random.default_rng(0).standard_normal((n, d)),)


def _iter_diff(ours, theirs, data):
    return float(ours.n_iter_ - theirs.n_iter_)


def _kmeans_case(n, algorithm="lloyd", target=1.0, d=20):
    from sklearn import cluster as sk

    init = _data(n, d)[0][:8].copy()
    kw = {"init": init, "n_init": 1, "max_iter": 100, "algorithm": algorithm}
    return Case(
        f"KMeans {algorithm} k=8 {n}x{d}",
        lambda: _data(n, d),
        lambda: cluster.KMeans(8, **kw),
        lambda: sk.KMeans(8, **kw),
        agree=_iter_diff,
        target_fit=target,
        target_predict=target,
        note="same init; agree = n_iter difference",
        repeat=5 if n * d > 10_000_000 else 7,  # a median of 3 moved by ±0.15 on a shared VM
    )


class _Seeding:
    """``fit(X)`` draws k-means++ seeds with ``seed(X)`` and keeps them as ``centres_``."""

    def __init__(self, seed):
        self.seed = seed

    def fit(self, X):
        self.centres_ = self.seed(X)
        return self


def _potential(X, centres):
    """φ = Σᵢ min_j ‖xᵢ − μ_j‖²."""
    D2 = (X**2).sum(1)[:, None] - 2 * X @ centres.T + (centres**2).sum(1)  # (n, k)
    return float(np.maximum(D2.min(1), 0).sum())


def _seeding_case(n, k=8, d=20):
    from sklearn import cluster as sk

    def ours(X):
        idx = cluster.kmeans_plusplus(X, k, np.ones(len(X)), np.random.default_rng(0))
        return X[idx]

    def theirs(X):
        return sk.kmeans_plusplus(X, k, random_state=0)[0]

    return Case(
        f"kmeans_plusplus k={k} {n}x{d}",
        lambda: _data(n, d),
        lambda: _Seeding(ours),
        lambda: _Seeding(theirs),
        method=None,
        agree=lambda o, t, data: _potential(data[0], o.centres_) / _potential(data[0], t.centres_),
        target_fit=1.0,
        note="different random streams; agree = potential ours / theirs",
    )


def _minibatch_case(n):
    from sklearn import cluster as sk

    return Case(
        f"MiniBatchKMeans k=8 {n}x20",
        lambda: _data(n),
        lambda: cluster.MiniBatchKMeans(8, random_state=0),
        lambda: sk.MiniBatchKMeans(8, random_state=0),
        note="different random streams: steps differ",
        repeat=7,
    )


CASES = [
    _kmeans_case(100_000),
    _kmeans_case(1_000_000),
    _kmeans_case(100_000, "elkan"),
    _kmeans_case(300_000, "elkan", d=5),
    _seeding_case(100_000),
    _minibatch_case(100_000),
]
