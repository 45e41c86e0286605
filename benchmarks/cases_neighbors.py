"""k-nearest neighbours against scikit-learn on the same arrays.

Targets (ratio ours / scikit-learn): brute-force predict ≤ 1.0 on d = 20 (20,000 × 2,000 and
50,000 × 10,000); k-d tree fit + predict ≤ 1.0 on d = 3 (50,000 × 20,000 and 300,000 ×
100,000). Gaussian blobs from scratchlearn's
``make_classification`` (continuous: no distance ties). ``agree`` is the fraction of queries
whose predicted class differs (near-equal distances can be ordered differently by the
expanded form's rounding in scikit-learn, so a handful may differ).

The radius row times ``NearestNeighbors.radius_neighbors`` by brute force on the d = 20 data
of the first row, with a radius that holds about 70 training points per query (r = 5.5):
``agree`` is the fraction of queries whose set of neighbours differs.
"""

from __future__ import annotations

import numpy as np
from sklearn import neighbors as sk_neighbors

from benchmarks.harness import Case
from scratchlearn import neighbors
from scratchlearn.datasets import make_classification


def _data(n_train, n_query, d, seed=0):
    X, y = make_classification(
        n_samples=n_train + n_query,
        n_features=d,
        n_informative=min(d, 10),
        n_redundant=0,
        random_state=seed,
    )
    return X[:n_train], y[:n_train], X[n_train:]


def _mismatch(ours, theirs, data):
    Q = data[2]
    return float((ours.predict(Q) != theirs.predict(Q)).mean())


def _case(algorithm, n_train, n_query, d, target_fit):
    return Case(
        f"KNeighborsClassifier {algorithm} {n_train}x{d}, {n_query} queries",
        lambda: _data(n_train, n_query, d),
        lambda: neighbors.KNeighborsClassifier(algorithm=algorithm),
        lambda: sk_neighbors.KNeighborsClassifier(algorithm=algorithm),
        fit_args=lambda data: (data[0], data[1]),
        predict_args=lambda data: (data[2],),
        agree=_mismatch,
        target_fit=target_fit,
        target_predict=1.0,
        time_fit=algorithm != "brute",  # brute fit stores X: microseconds of noise
    )


def _radius_mismatch(ours, theirs, data):
    Q = data[2]
    a, b = ours.radius_neighbors(Q)[1], theirs.radius_neighbors(Q)[1]
    return float(sum(not np.array_equal(np.sort(i), np.sort(j)) for i, j in zip(a, b)) / len(Q))


def _radius_case(n_train, n_query, d, radius):
    return Case(
        f"NearestNeighbors.radius_neighbors brute {n_train}x{d}, {n_query} queries, r={radius}",
        lambda: _data(n_train, n_query, d),
        lambda: neighbors.NearestNeighbors(algorithm="brute", radius=radius),
        lambda: sk_neighbors.NearestNeighbors(algorithm="brute", radius=radius),
        fit_args=lambda data: (data[0],),
        predict_args=lambda data: (data[2],),
        method="radius_neighbors",
        agree=_radius_mismatch,
        target_fit=None,
        target_predict=1.0,
        time_fit=False,
    )


CASES = [
    _case("brute", 20_000, 2_000, 20, None),
    _case("brute", 50_000, 10_000, 20, None),
    _case("kd_tree", 50_000, 20_000, 3, 1.0),
    _case("kd_tree", 300_000, 100_000, 3, 1.0),
    _radius_case(20_000, 2_000, 20, 5.5),
]
