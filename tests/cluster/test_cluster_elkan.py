"""Elkan's k-means: the same fit as Lloyd's from the same centres, and the invariants of one
compiled pass (:func:`scratchlearn.cluster._kmeans_kernels.elkan_pass`).

Rounding used below (ε = machine epsilon, n rows, d features):

* a direct squared distance Σ_f (x_f − μ_f)², summed in any order, is relatively off by at
  most (d + 2)ε; its square root adds ε;
* a label is the exact argmin unless the two nearest squared distances are within that of
  each other: each fit test first checks that the margin at the final centres exceeds 10× it;
* with equal labels, two runs' centres are the same weighted means S_j / W_j summed in other
  orders: S_j and W_j are each off by ≤ n_j·ε·(their sum of |terms|), so μ_j by
  ≤ 2(n + 1)ε·max|x| per coordinate on each side, 5nε·max|x| for the difference.
"""

from __future__ import annotations

import numpy as np
import pytest

from scratchlearn.cluster import KMeans
from scratchlearn.cluster._kmeans import _m_step
from scratchlearn.cluster._kmeans_kernels import elkan_pass
from scratchlearn.datasets import load_breast_cancer, load_digits, load_wine

EPS = np.finfo(float).eps


def _standardised(X):
    sd = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def _sq_distances(X, centres):
    return ((X[:, None, :] - centres[None]) ** 2).sum(-1)  # (n, k), direct


def _min_margin_ratio(X, centres):
    """min over rows of (second-nearest − nearest squared distance) / its rounding bound."""
    D = np.sort(_sq_distances(X, centres), axis=1)
    return float(np.min((D[:, 1] - D[:, 0]) / ((X.shape[1] + 2) * EPS * D[:, 1])))


def _case(name):
    """(X, w, init): standardised wine; breast cancer raw (features from 1e-3 to 1e3: bounds
    on unequal scales) with weights; digits standardised (1797 rows: two threads' runs)."""
    rng = np.random.default_rng(7)
    if name == "wine":
        X, w, k = _standardised(load_wine().data), None, 5
    elif name == "breast_cancer":
        X, k = load_breast_cancer().data, 4
        w = rng.uniform(0.5, 2.0, X.shape[0])
    else:
        X, w, k = _standardised(load_digits().data), None, 10
    return X, w, X[rng.choice(X.shape[0], k, replace=False)]


@pytest.mark.parametrize("name", ["wine", "breast_cancer", "digits"])
def test_elkan_fit_equals_lloyd_from_the_same_centres(name):
    X, w, init = _case(name)
    k = len(init)
    a = KMeans(k, init=init).fit(X, sample_weight=w)
    b = KMeans(k, init=init, algorithm="elkan").fit(X, sample_weight=w)
    assert _min_margin_ratio(X, a.cluster_centers_) > 10  # no tie within rounding
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.n_iter_ == b.n_iter_ and a.stop_reason_ == b.stop_reason_
    n, d = X.shape
    atol = 5 * n * EPS * np.abs(X).max()  # module docstring: same labels, other order
    np.testing.assert_allclose(a.cluster_centers_, b.cluster_centers_, rtol=0, atol=atol)
    # both inertias are direct: n terms each relatively off by (d + 2)ε, summed (nε), on two
    # sides, plus the centres' difference: |ΔJ| ≤ 2Σᵢ wᵢ‖xᵢ − μ‖·√d·atol (first order)
    ww = np.ones(n) if w is None else w
    r = np.sqrt(_sq_distances(X, b.cluster_centers_)[np.arange(n), b.labels_])
    tol_J = 2 * (n + d + 2) * EPS * b.inertia_ + 2 * np.sqrt(d) * atol * (ww @ r)
    assert abs(a.inertia_ - b.inertia_) <= tol_J
    # Elkan's history is J in the direct form at every entry, its last the inertia itself
    J = np.array(b.history_["objective"])
    assert len(J) == b.n_iter_ + 1 and J[-1] == b.inertia_
    direct = (n + d + 2) * EPS * J[0]  # each entry's rounding, J ≤ J₀ along the run
    assert np.all(np.diff(J) <= 2 * direct)
    assert J[-1] < J[0]


def test_elkan_equals_lloyd_after_an_empty_cluster():
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    init = np.array([[0.0], [100.0], [10.0]])  # the centre at 100 gets no row at first
    a = KMeans(3, init=init).fit(X)
    b = KMeans(3, init=init, algorithm="elkan").fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert len(np.unique(b.labels_)) == 3 and a.n_iter_ == b.n_iter_
    np.testing.assert_allclose(a.cluster_centers_, b.cluster_centers_, rtol=0, atol=1e-13)


def test_elkan_stops_on_max_iter_like_lloyd():
    X, w, init = _case("digits")
    kw = {"init": init, "max_iter": 3, "algorithm": "elkan"}
    with pytest.warns(UserWarning, match="max_iter"):
        b = KMeans(10, **kw).fit(X)
    with pytest.warns(UserWarning, match="max_iter"):
        a = KMeans(10, init=init, max_iter=3).fit(X)
    assert b.n_iter_ == 3 and b.stop_reason_ == "max_iter"
    np.testing.assert_array_equal(a.labels_, b.labels_)


def _passes(X, w, centres, n_passes, n_threads=None):
    """Run ``n_passes`` Elkan iterations by hand; yield the state after each pass."""
    n, d = X.shape
    k = len(centres)
    labels, lower = np.zeros(n, np.int32), np.zeros((n, k))
    p, S, W = np.zeros(k), np.empty((k, d)), np.empty(k)
    shifts = np.zeros(k)  # Σ pⱼ over the passes: the bounds' rounding grows with it
    for _ in range(n_passes):
        J = elkan_pass(X, w, centres, p, labels, lower, S, W, n_threads)
        yield centres, labels.copy(), lower.copy(), S.copy(), W.copy(), J, shifts.copy()
        new = _m_step(X, w, centres, labels, S, W)
        p = np.sqrt(((new - centres) ** 2).sum(axis=1))
        shifts += p
        centres = new


@pytest.mark.parametrize("name", ["wine", "breast_cancer"])
def test_one_pass_keeps_the_bounds_and_sums_exact(name):
    X, w, init = _case(name)
    n, d = X.shape
    w = np.ones(n) if w is None else w
    for t, (C, labels, lower, S, W, J, shifts) in enumerate(_passes(X, w, init, 8)):
        D = np.sqrt(_sq_distances(X, C))  # (n, k) true distances, direct
        # lower bound: a computed distance (relatively off by (d + 3)ε), then moved down by
        # computed shifts (each off by (d + 3)ε·pⱼ) with one rounding per subtraction, over
        # t + 1 passes: l_{ij} − ‖xᵢ − μ_j‖ ≤ (d + 4 + t)ε·(‖xᵢ − μ_j‖ + 2Σpⱼ)
        slack = (d + 4 + t) * EPS * (D + 2 * shifts)
        assert np.all(lower <= D + slack)
        # the label is the nearest centre within the distances' rounding
        nearest = D.min(axis=1)
        assert np.all(D[np.arange(n), labels] <= nearest * (1 + 2 * (d + 3) * EPS))
        # J in the direct form: n terms relatively off by (d + 2)ε each, summed (nε)
        J_ref = w @ D[np.arange(n), labels] ** 2
        assert abs(J - J_ref) <= (n + d + 2) * EPS * J_ref
        # S, W: sums over the rows of each cluster, in two orders (module docstring)
        W_ref = np.bincount(labels, weights=w, minlength=len(C))
        S_ref = np.stack([np.bincount(labels, w * X[:, f], len(C)) for f in range(d)], 1)
        np.testing.assert_allclose(W, W_ref, rtol=2 * n * EPS)
        np.testing.assert_allclose(S, S_ref, rtol=0, atol=2 * n * EPS * (w @ np.abs(X)).max())


def test_the_bounds_skip_distances_after_the_first_pass():
    # digits standardised, k = 10: once the centres settle, most rows keep their centre by the
    # bounds alone, so their lower bounds stay below the true distances (a distance that was
    # computed would be exact to rounding)
    X, w, init = _case("digits")
    n = X.shape[0]
    states = list(_passes(X, np.ones(n), init, 12))
    C, labels, lower, *_ = states[-1]
    D = np.sqrt(_sq_distances(X, C))
    other = np.ones_like(D, dtype=bool)
    other[np.arange(n), labels] = False
    exact = np.isclose(lower, D, rtol=1e-12, atol=0) & other
    # measured: 1.8 % of the bounds l_{ij}, j ≠ c(i), are exact distances after pass 12 (16 %
    # after pass 6); every distance of every pass computed would make them all exact
    assert exact.mean() < 0.5


def test_pass_is_the_same_on_one_and_two_threads():
    X, w, init = _case("digits")  # 1797 rows: two runs of rows
    n, d = X.shape
    w = np.ones(n)
    for C, labels, lower, S, W, _, _ in _passes(X, w, init, 5, n_threads=1):
        l1, l2 = labels.copy(), labels.copy()
        b1, b2 = lower.copy(), lower.copy()
        S1, S2, W1, W2 = np.empty_like(S), np.empty_like(S), np.empty_like(W), np.empty_like(W)
        p = np.full(len(C), 1e-3)  # any shift: both passes move the bounds alike
        J1 = elkan_pass(X, w, C, p, l1, b1, S1, W1, n_threads=1)
        J2 = elkan_pass(X, w, C, p, l2, b2, S2, W2, n_threads=2)
        # per-row work does not depend on the split: labels and bounds bit for bit
        np.testing.assert_array_equal(l1, l2)
        np.testing.assert_array_equal(b1, b2)
        # the sums differ by the order of the two threads' partial sums only: each side's
        # sum of n terms is off by ≤ nε·Σ|terms| (module docstring)
        np.testing.assert_allclose(S1, S2, rtol=0, atol=2 * n * EPS * np.abs(X).sum(0).max())
        np.testing.assert_allclose(W1, W2, rtol=2 * n * EPS)
        assert abs(J1 - J2) <= 2 * n * EPS * J1
