"""The neighbour estimators against scikit-learn on real data, every metric × weighting ×
algorithm.

Tolerances.
* Coordinate-wise metrics (Manhattan, Chebyshev, Minkowski p, Hamming): both libraries sum d
  non-negative terms, relative error ≤ γ_d ≈ dε each, the root one more ε: we allow
  ``4(d + 2)ε`` relative.
* Euclidean family: ours is recomputed from coordinate differences, scikit-learn's brute force
  uses the expanded form ``‖x‖² − 2x·y + ‖y‖²``, whose absolute error on the *squared*
  distance is at most ``2(d + 3)ε(‖x‖² + ‖y‖²)`` (a length-d dot product and two additions). We
  compare squared distances with ten times that bound.
* Cosine: ``1 − x·y/(‖x‖‖y‖)`` computed by both from unit rows, absolute error ≤ ``(d + 4)ε``;
  we allow ten times that.

Ties. Equal distances (digits, Hamming) are ordered by index here and by an unstable sort in
scikit-learn, and expanded-form rounding can reorder near-equal Euclidean distances, so
indices are compared as *sets* of the neighbours strictly nearer than the k-th distance (less
the tolerance), and predictions and probabilities on the rows whose k-th and (k + 1)-th
distances are further apart than the tolerance (there the neighbour set is unambiguous).
"""

import numpy as np
import pytest
from sklearn import datasets
from sklearn import neighbors as skn

from scratchlearn import neighbors as ours

EPS = np.finfo(np.float64).eps
K = 7
TREE = {"euclidean", "manhattan", "chebyshev", "minkowski"}


def _data(name):
    loader = {
        "iris": datasets.load_iris,
        "wine": datasets.load_wine,
        "breast_cancer": datasets.load_breast_cancer,
        "digits": datasets.load_digits,
    }[name]
    X, y = loader(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(y))
    tr, te = order[: 2 * len(y) // 3], order[2 * len(y) // 3 :]
    if name in ("wine", "breast_cancer"):  # standardised with the training rows' statistics
        mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0)
        X = (X - mu) / sd
    return X[tr], y[tr], X[te], y[te]


def _tolerance(metric, Xtr, Q, dist):
    """Per-row absolute tolerance on the compared quantity (see the module notes)."""
    d = Xtr.shape[1]
    if metric in ("euclidean", "sqeuclidean"):
        norms = (Q**2).sum(axis=1) + (Xtr**2).sum(axis=1).max()
        return 10 * 2 * (d + 3) * EPS * norms  # on squared distances
    if metric == "cosine":
        return np.full(len(Q), 10 * (d + 4) * EPS)
    return 4 * (d + 2) * EPS * np.maximum(dist.max(axis=1), 1.0)


def _squared(metric, dist):
    return dist**2 if metric == "euclidean" else dist


def _check_neighbours(metric, d_o, i_o, d_s, i_s, tol):
    """Distances within ``tol``; the sets of neighbours strictly inside the k-th distance equal."""
    a, b = _squared(metric, d_o), _squared(metric, d_s)
    assert np.all(np.abs(a - b) <= tol[:, None])
    for row in range(len(i_o)):
        inside = a[row] < a[row, -1] - 2 * tol[row]
        assert set(i_o[row, inside]) == set(i_s[row, b[row] < a[row, -1] - 2 * tol[row]])


def _clean_rows(model, metric, Q, tol):
    """Rows whose k-th and (k + 1)-th distances are further apart than twice the tolerance."""
    d, _ = model.kneighbors(Q, K + 1)
    s = _squared(metric, d)
    return s[:, K] - s[:, K - 1] > 2 * tol


def _pair(cls_ours, cls_sk, metric, kw, algorithm, **params):
    common = dict(metric=metric, algorithm=algorithm, **kw, **params)
    return cls_ours(**common), cls_sk(**common)


# Every metric once, every dataset at least once (Euclidean on the digits' integer ties).
CASES = [
    ("breast_cancer", "euclidean", {}),
    ("digits", "euclidean", {}),
    ("wine", "sqeuclidean", {}),
    ("iris", "manhattan", {}),
    ("wine", "chebyshev", {}),
    ("breast_cancer", "minkowski", {"p": 3}),
    ("wine", "cosine", {}),
    ("digits", "hamming", {}),
]


# The k-d tree serves the Minkowski family only (its refusal of the others is tested apart).
@pytest.mark.parametrize(
    "dataset,metric,kw,algorithm",
    [(*case, "brute") for case in CASES]
    + [(*case, "kd_tree") for case in CASES if case[1] in TREE],
)
def test_kneighbors_classifier(dataset, metric, kw, algorithm):
    Xtr, ytr, Q, _ = _data(dataset)
    if metric == "hamming":
        Xtr, Q = Xtr > np.median(Xtr, axis=0), Q > np.median(Xtr, axis=0)
    for weights in ("uniform", "distance"):
        a, b = _pair(
            ours.KNeighborsClassifier,
            skn.KNeighborsClassifier,
            metric,
            kw,
            algorithm,
            n_neighbors=K,
            weights=weights,
        )
        a.fit(Xtr, ytr)
        b.fit(Xtr, ytr)
        d_o, i_o = a.kneighbors(Q)
        d_s, i_s = b.kneighbors(Q)
        tol = _tolerance(metric, np.asarray(Xtr, float), np.asarray(Q, float), d_o)
        _check_neighbours(metric, d_o, i_o, d_s, i_s, tol)
        clean = _clean_rows(a, metric, Q, tol)
        if metric != "hamming":  # binarised features: nearly every boundary is a tie
            assert clean.sum() >= 10  # enough rows compared for the test to mean something
        P_o, P_s = a.predict_proba(Q)[clean], b.predict_proba(Q)[clean]
        # uniform: counts/k, exact; distance: ratios of sums of 1/d, relative error ≤ k·tol/d².
        np.testing.assert_allclose(P_o, P_s, atol=1e-9 if weights == "distance" else 0)
        np.testing.assert_array_equal(a.predict(Q)[clean], b.predict(Q)[clean])


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_kneighbors_regressor_diabetes(weights):
    X, y = datasets.load_diabetes(return_X_y=True)
    Xtr, ytr, Q = X[:300], y[:300], X[300:]
    a = ours.KNeighborsRegressor(n_neighbors=K, weights=weights).fit(Xtr, ytr)
    b = skn.KNeighborsRegressor(n_neighbors=K, weights=weights).fit(Xtr, ytr)
    tol = _tolerance("euclidean", Xtr, Q, None)
    clean = _clean_rows(a, "euclidean", Q, tol)
    # a mean of k targets ≤ 346: rounding 1e-13; distance weights add ≤ k·tol/d² relative.
    np.testing.assert_allclose(a.predict(Q)[clean], b.predict(Q)[clean], rtol=1e-9)


def test_training_queries_exclude_themselves():
    Xtr, *_ = _data("wine")
    a = ours.NearestNeighbors(n_neighbors=4).fit(Xtr)
    b = skn.NearestNeighbors(n_neighbors=4).fit(Xtr)
    d_o, i_o = a.kneighbors()
    d_s, i_s = b.kneighbors()
    np.testing.assert_array_equal(i_o, i_s)  # continuous standardised data: no ties
    _check_neighbours("euclidean", d_o, i_o, d_s, i_s, _tolerance("euclidean", Xtr, Xtr, d_o))
    G_o, G_s = a.kneighbors_graph(mode="distance"), b.kneighbors_graph(mode="distance")
    assert (G_o != 0).sum() == G_o.nnz and abs(G_o - G_s).max() < 1e-12


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_radius_estimators_iris(weights):
    """Iris has one decimal: squared distances are multiples of 0.01 (to rounding), so a
    radius of 0.55 (0.3025) lies between them and no point sits on the boundary."""
    X, y = datasets.load_iris(return_X_y=True)
    Q = X + 0.05
    a = ours.RadiusNeighborsClassifier(0.55, weights=weights, outlier_label="most_frequent")
    b = skn.RadiusNeighborsClassifier(0.55, weights=weights, outlier_label="most_frequent")
    a.fit(X, y)
    b.fit(X, y)
    # ratios of sums of weights: ≤ 1e-13 (uniform: exact counts, distance: 1/d ≥ 1/0.55).
    np.testing.assert_allclose(a.predict_proba(Q), b.predict_proba(Q), atol=1e-12)
    np.testing.assert_array_equal(a.predict(Q), b.predict(Q))
    r = ours.RadiusNeighborsRegressor(0.55, weights=weights).fit(X, X[:, 0])
    s = skn.RadiusNeighborsRegressor(0.55, weights=weights).fit(X, X[:, 0])
    np.testing.assert_allclose(r.predict(Q), s.predict(Q), rtol=1e-12)
    nd_o, ni_o = a.radius_neighbors(X, sort_results=True)
    nd_s, ni_s = b.radius_neighbors(X, sort_results=True)
    for do, io, ds, is_ in zip(nd_o, ni_o, nd_s, ni_s):
        assert set(io) == set(is_)
        np.testing.assert_allclose(do, ds, atol=1e-12)
        assert np.all(np.diff(do) >= 0)
    G = a.radius_neighbors_graph(X, mode="distance")
    assert abs(G - b.radius_neighbors_graph(X, mode="distance")).max() < 1e-12
