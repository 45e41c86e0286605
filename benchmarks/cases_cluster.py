"""k-means against scikit-learn on the same arrays.

``KMeans(n_clusters=8, n_init=1, max_iter=100)`` on 100,000 × 20 and 1,000,000 × 20 standard
normal values (no cluster structure, so both run all 100 iterations: ``agree`` reports our
n_iter_ minus theirs, 0 when equal). Both start from the same explicit centres (the first 8
rows), so they do the same work. Targets: fit ≤ 1.0 and predict ≤ 1.0. MiniBatchKMeans is
reported without a target (different random streams, so the number of steps differs).
"""

from __future__ import annotations

import numpy as np

from benchmarks.harness import Case
from scratchlearn import cluster


def _data(n, d=20):
    return (np.random.default_rng(0).standard_normal((n, d)),)


def _iter_diff(ours, theirs, data):
    return float(ours.n_iter_ - theirs.n_iter_)


def _kmeans_case(n, algorithm="lloyd", target=1.0):
    from sklearn import cluster as sk

    init = _data(n)[0][:8].copy()
    kw = {"init": init, "n_init": 1, "max_iter": 100, "algorithm": algorithm}
    return Case(
        f"KMeans {algorithm} k=8 {n}x20",
        lambda: _data(n),
        lambda: cluster.KMeans(8, **kw),
        lambda: sk.KMeans(8, **kw),
        agree=_iter_diff,
        target_fit=target,
        target_predict=target,
        note="same init; agree = n_iter difference",
        repeat=3,
    )


def _minibatch_case(n):
    from sklearn import cluster as sk

    return Case(
        f"MiniBatchKMeans k=8 {n}x20",
        lambda: _data(n),
        lambda: cluster.MiniBatchKMeans(8, random_state=0),
        lambda: sk.MiniBatchKMeans(8, random_state=0),
        note="different random streams: steps differ",
        repeat=3,
    )


CASES = [
    _kmeans_case(100_000),
    _kmeans_case(1_000_000),
    _kmeans_case(100_000, "elkan", target=None),
    _minibatch_case(100_000),
]
