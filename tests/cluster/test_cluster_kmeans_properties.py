"""Properties of KMeans and MiniBatchKMeans: monotone J, Elkan = Lloyd, row-order invariance,
weights as duplicated rows, bad input, and mini-batch inertia against scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import cluster as sk
from sklearn.datasets import load_digits, load_wine

from scratchlearn.cluster import KMeans, MiniBatchKMeans
from scratchlearn.exceptions import ConvergenceWarning

EPS = np.finfo(float).eps


def _wine():
    X = load_wine().data
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _init(X, k, seed=0):
    return X[np.random.default_rng(seed).choice(X.shape[0], k, replace=False)]


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_objective_history_never_increases(algorithm):
    X = _wine()
    m = KMeans(6, init="random", n_init=1, random_state=3, algorithm=algorithm).fit(X)
    J = np.array(m.history_["objective"])
    assert len(J) == m.n_iter_ + 1 and J[-1] == pytest.approx(m.inertia_, rel=1e-12)
    # The per-iteration J is the expanded form Σᵢ(‖xᵢ‖² + ‖μ‖² − 2xᵢ·μ) (only the last entry is
    # the direct form): each term is off by at most (d + 2)ε(‖xᵢ‖² + 2|xᵢ·μ| + ‖μ‖²)
    # ≤ 2(d + 2)ε(‖xᵢ‖² + max‖x‖²), since every centre is a mean of rows (or a row) and so
    # ‖μ‖² ≤ max‖x‖²; the sum of n terms adds nε·J₀. A step compares two such values.
    n, d = X.shape
    sq = np.einsum("ij,ij->i", X, X)
    per_J = 2 * (d + 2) * EPS * (sq.sum() + n * sq.max()) + n * EPS * J[0]
    slack = 2 * per_J
    assert np.all(np.diff(J) <= slack)
    assert J[-1] < J[0]  # it did move


def test_elkan_equals_lloyd():
    X = load_digits().data  # raw pixel counts 0..16: many ties in distance would show here
    init = _init(X, 10, seed=4)
    a = KMeans(10, init=init).fit(X)
    b = KMeans(10, init=init, algorithm="elkan").fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.n_iter_ == b.n_iter_
    # same labels ⇒ centres differ only by summation order: n·ε·max|x| (see the oracle tests)
    np.testing.assert_allclose(a.cluster_centers_, b.cluster_centers_, atol=len(X) * EPS * 16)


def test_row_permutation_gives_the_same_partition():
    X = _wine()
    init = _init(X, 5)
    perm = np.random.default_rng(1).permutation(X.shape[0])
    a = KMeans(5, init=init).fit(X)
    b = KMeans(5, init=init).fit(X[perm])
    np.testing.assert_array_equal(a.labels_[perm], b.labels_)
    np.testing.assert_allclose(a.cluster_centers_, b.cluster_centers_, atol=len(X) * EPS * 10)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_weight_two_equals_a_duplicated_row(algorithm):
    X = _wine()
    w = np.ones(X.shape[0])
    w[::3] = 2.0
    X_dup = np.vstack([X, X[::3]])
    init = _init(X, 4)
    a = KMeans(4, init=init, algorithm=algorithm).fit(X, sample_weight=w)
    b = KMeans(4, init=init, algorithm=algorithm).fit(X_dup)
    np.testing.assert_array_equal(a.labels_, b.labels_[: X.shape[0]])
    # the same weighted means, summed in another order; the centring mean differs (it is
    # unweighted, as scikit-learn's), which only shifts rounding: n·ε·max|x| again
    np.testing.assert_allclose(a.cluster_centers_, b.cluster_centers_, atol=len(X_dup) * EPS * 10)
    assert a.inertia_ == pytest.approx(b.inertia_, rel=len(X_dup) * EPS * 10)
    assert a.score(X, sample_weight=w) == pytest.approx(-a.inertia_, rel=1e-12)


def test_empty_cluster_is_reseeded_with_the_farthest_point():
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    init = np.array([[0.0], [100.0], [10.0]])  # the centre at 100 gets no row at first
    m = KMeans(3, init=init).fit(X)
    assert len(np.unique(m.labels_)) == 3
    assert np.all(np.diff(m.history_["objective"]) <= 1e-12)


def test_bad_input():
    X = _wine()[:5]
    with pytest.raises(ValueError, match="n_samples=5 should be >= n_clusters=6"):
        KMeans(6).fit(X)
    with pytest.raises(ValueError, match=r"shape \(n_clusters, n_features\) = \(2, 13\)"):
        KMeans(2, init=np.zeros((3, 13))).fit(X)
    bad = X.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KMeans(2).fit(bad)
    with pytest.warns(ConvergenceWarning, match=r"distinct clusters \(2\) found smaller"):
        KMeans(3, random_state=0).fit(np.repeat(X[:2], 4, axis=0))


@pytest.mark.parametrize("zero_in_centres", [False, True], ids=["no-zero", "zero"])
@pytest.mark.parametrize("threads", [1, 2])
def test_predict_tells_every_non_finite_row(zero_in_centres, threads):
    """predict reads a dense X once: its pass counts the rows whose nearest distance is not
    finite, and X is tested only when that count is not 0 or a centre has a zero (where a BLAS
    may skip a product). Every row with NaN, +inf, −inf or both infinities, in any column, is
    refused with validation's message; finite rows whose products overflow are not."""
    from scratchlearn.cluster._kmeans_kernels import J_NONE, lloyd_pass

    X = np.tile(_wine(), (60, 1))  # 10,680 rows: each of two threads takes a run of chunks
    m = KMeans(3, random_state=0, n_init=1).fit(X)
    if zero_in_centres:
        m.cluster_centers_[:, 4] = 0.0
    C = m.cluster_centers_
    assert C.all() != zero_in_centres

    def count(X):
        nonfinite = np.zeros(1, np.int64)
        lloyd_pass(
            X,
            np.empty(0),
            C,
            np.empty(len(X), np.int32),
            np.empty_like(C),
            np.empty(3),
            False,
            J_NONE,
            n_threads=threads,
            nonfinite=nonfinite,
        )
        return nonfinite[0]

    rng = np.random.default_rng(0)
    for first, second, message in [
        (np.nan, None, "Input X contains NaN in column {f}"),
        (np.inf, None, "Input X contains infinity .* in column {f}"),
        (-np.inf, None, "Input X contains infinity .* in column {f}"),
        (np.inf, -np.inf, "Input X contains infinity .* in column {f}"),  # their sum is NaN
    ]:
        for f in (0, 4, 11):
            bad = X.copy()
            rows = rng.choice(len(X), 3, replace=False)  # in either thread's share
            bad[rows, f] = first
            if second is not None:
                bad[rows, f + 1] = second
            with pytest.raises(ValueError, match=message.format(f=f)):
                m.predict(bad)
            if not zero_in_centres:  # the bound the fused test rests on: every bad row counts
                assert count(bad) == len(rows)
    assert count(X) == 0
    nearest = np.argmin(((X[:, None, :] - C) ** 2).sum(axis=2), axis=1)
    assert np.array_equal(m.predict(X), nearest)
    huge = np.clip(X, -1, 1) * 1e308  # finite; −2xᵢ·μ_j overflows: counted, tested, accepted
    assert count(huge) > 0
    assert m.predict(huge).shape == (len(X),)


def test_minibatch_inertia_within_a_few_percent_of_sklearn():
    X = load_digits().data
    X = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = [MiniBatchKMeans(10, batch_size=256, random_state=s).fit(X) for s in range(5)]
    theirs = [sk.MiniBatchKMeans(10, batch_size=256, random_state=s).fit(X) for s in range(5)]
    a, b = np.mean([m.inertia_ for m in ours]), np.mean([m.inertia_ for m in theirs])
    # stochastic on both sides; measured 1.1% apart; local optima of k = 10 spread J by ~3%
    assert abs(a - b) <= 0.05 * b
    assert all(m.stop_reason_ in ("cost_change", "converged", "max_iter") for m in ours)
    assert all(len(m.history_["objective"]) == m.n_steps_ for m in ours)


def test_minibatch_partial_fit_streams_to_a_good_clustering():
    X = _wine()  # sorted by class: shuffle it, as a stream of mixed batches
    X = X[np.random.default_rng(0).permutation(X.shape[0])]
    m = MiniBatchKMeans(3, random_state=0)
    for _ in range(5):
        for start in range(0, X.shape[0], 40):
            m.partial_fit(X[start : start + 40])
    full = KMeans(3, random_state=0, n_init=3).fit(X)
    assert m.n_steps_ == 25
    # the running means settle near the full-batch optimum (measured 0.1% above it over three
    # seeds, scikit-learn's partial_fit 0.0–1.1%); 5% would mean a centre stuck between classes
    assert -m.score(X) <= 1.05 * full.inertia_
