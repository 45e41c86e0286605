"""``scratchlearn.neighbors.KDTree`` against ``sklearn.neighbors.KDTree``: build, then k = 5 query.

Target (ratio ours / scikit-learn, one thread): build ≤ 1.0 and query ≤ 1.0, hence build +
query ≤ 1.0. Data: d = 3, uniform on the unit cube or 20 tight Gaussian clusters (σ = 0.02),
queries drawn the same way; both trees with leaf_size = 40 (scikit-learn's leaves then hold 40 to
80 rows, ours at most 40). ``fit`` builds the tree, ``query`` answers the k = 5 query; agreement
is the fraction of neighbour indices that differ (continuous data: no ties).
"""

from __future__ import annotations

import numpy as np

from benchmarks.harness import Case

LEAF_SIZE = 40
K = 5


class _Tree:
    """``fit(X)`` builds ``tree_cls(X, leaf_size=40)``; ``query(Q)`` returns its k = 5 answer."""

    def __init__(self, tree_cls):
        self.tree_cls = tree_cls

    def fit(self, X):
        self.tree_ = self.tree_cls(X, leaf_size=LEAF_SIZE)
        return self

    def query(self, Q):
        return self.tree_.query(Q, k=K)


def _data(n, m, kind, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        return rng.random((n, 3)), rng.random((m, 3))
    centres = rng.random((20, 3))
    X = centres[rng.integers(0, 20, n)] + 0.02 * rng.standard_normal((n, 3))
    Q = centres[rng.integers(0, 20, m)] + 0.02 * rng.standard_normal((m, 3))
    return X, Q


def _index_mismatch(ours, theirs, data):
    Q = data[1]
    return float(np.mean(ours.query(Q)[1] != theirs.query(Q)[1]))


def _case(n, m, kind):
    from sklearn.neighbors import KDTree as SkKDTree

    from scratchlearn.neighbors import KDTree

    return Case(
        name=f"KDTree {kind} {n}x3, {m} queries k=5",
        make_data=lambda: _data(n, m, kind),
        ours=lambda: _Tree(KDTree),
        theirs=lambda: _Tree(SkKDTree),
        fit_args=lambda d: (d[0],),
        predict_args=lambda d: (d[1],),
        method="query",
        agree=_index_mismatch,
        target_fit=1.0,
        target_predict=1.0,
        note="fit = build, predict = query",
    )


CASES = [
    _case(50_000, 20_000, "uniform"),
    _case(50_000, 20_000, "clustered"),
    _case(300_000, 100_000, "uniform"),
    _case(300_000, 100_000, "clustered"),
]
