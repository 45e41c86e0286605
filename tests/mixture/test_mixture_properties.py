"""Properties of GaussianMixture that hold whatever the data: EM's monotone bound, invariance to
the order of the rows, the log-density against an independent one, the fit record, sampling."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import multivariate_normal
from sklearn import datasets

from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.mixture import GaussianMixture
from scratchlearn.plotting._mixture import component_covariances

EPS = np.finfo(np.float64).eps
TYPES = ("full", "tied", "diag", "spherical")


def _standardised(loader):
    X = loader().data
    return (X - X.mean(axis=0)) / X.std(axis=0)


IRIS = _standardised(datasets.load_iris)
WINE = _standardised(datasets.load_wine)


@pytest.mark.parametrize("covariance_type", TYPES)
@pytest.mark.parametrize("X", [IRIS, WINE], ids=["iris", "wine"])
def test_lower_bound_never_decreases(X, covariance_type):
    """EM's theorem: L(θ_{t+1}) ≥ L(θ_t) for the exact M-step (reg_covar=0), up to rounding.

    Each log p(x_i) sums d squared and d logarithmic terms and a K-term logsumexp, so it carries
    an absolute error of about (2d + K)·ε·(|log p(x_i)| + d) (the Mahalanobis terms average d);
    the bound is that ×10. Measured: ≤ 36ε·|L| (iris, diag), below a tenth of it. A random start
    runs the full 150 iterations with tol=0, down to the rounding floor. (With reg_covar > 0 the
    bound may dip by ¼Σ(ε/λ)²: see the class module's docstring.)
    """
    n, d = X.shape
    K = 4
    gm = GaussianMixture(
        K,
        covariance_type=covariance_type,
        init_params="random",
        tol=0.0,
        max_iter=150,
        reg_covar=0.0,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        gm.fit(X)
    objective = np.array(gm.history_["objective"])  # −L(θ_t)
    assert objective.shape == (gm.n_iter_ + 1,)
    L = -objective[-1]
    slack = 10 * (2 * d + K) * EPS * (abs(L) + d)
    assert np.diff(objective).max() <= slack
    assert objective[-1] < objective[0] - 0.1  # EM did climb: the test is not vacuous


def test_one_component_is_the_sample_mean_and_covariance():
    """K=1: the M-step's closed form, the biased sample covariance plus reg_covar·I."""
    X = WINE
    n, d = X.shape
    S = np.cov(X.T, bias=True)
    expected = {
        "full": (S + 1e-6 * np.eye(d))[None],
        "tied": S + 1e-6 * np.eye(d),
        "diag": (np.diag(S) + 1e-6)[None],
        "spherical": np.array([np.diag(S).mean() + 1e-6]),
    }
    for ctype in TYPES:
        gm = GaussianMixture(1, covariance_type=ctype).fit(X)
        # sums of n terms of size |x|² ≤ 30 (standardised): relative error ≤ n·ε, ×10 margin
        np.testing.assert_allclose(gm.means_, X.mean(axis=0)[None], atol=10 * n * EPS)
        np.testing.assert_allclose(gm.covariances_, expected[ctype], atol=10 * n * EPS * 30)
        np.testing.assert_allclose(gm.weights_, [1.0], atol=10 * EPS)
        assert gm.n_iter_ == 2 and gm.stop_reason_ == "cost_change"  # θ is final after step 1


@pytest.mark.parametrize("covariance_type", TYPES)
def test_score_samples_is_the_mixture_log_density(covariance_type):
    """log p(x) = log Σ_k π_k N(x | μ_k, Σ_k), against scipy's multivariate normal."""
    X = IRIS
    gm = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    covs = component_covariances(gm)
    dens = sum(
        w * multivariate_normal(m, C).pdf(X) for w, m, C in zip(gm.weights_, gm.means_, covs)
    )
    # relative error of both log-densities: d·κ(Σ)·ε from the factorisations (κ < 1e4 here),
    # ×10 margin and ×100 for the exp/log round trip of the reference
    kappa = max(np.linalg.cond(C) for C in covs)
    np.testing.assert_allclose(gm.score_samples(X), np.log(dens), rtol=1e3 * 4 * kappa * EPS)
    assert gm.score(X) == pytest.approx(np.mean(np.log(dens)), rel=1e3 * 4 * kappa * EPS)
    proba = gm.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=10 * 3 * EPS)
    np.testing.assert_array_equal(gm.predict(X), proba.argmax(axis=1))


def test_row_order_does_not_matter_from_a_fixed_start():
    """Permuting rows only reorders the M-step's sums: the same fit to rounding.

    A sum of n terms changes by at most n·ε·Σ|terms| when reordered; over T iterations of a
    contraction that adds up to T·n·ε relative (same argument as the oracle test), ×10 margin.
    """
    X = WINE
    K, d = 3, X.shape[1]
    start = {
        "weights_init": np.full(K, 1 / K),
        "means_init": X[[0, 80, 160]],
        "precisions_init": np.tile(np.eye(d), (K, 1, 1)),
    }
    perm = np.random.default_rng(0).permutation(X.shape[0])
    a = GaussianMixture(K, tol=1e-6, **start).fit(X)
    b = GaussianMixture(K, tol=1e-6, **start).fit(X[perm])
    assert a.n_iter_ == b.n_iter_
    bound = 10 * a.n_iter_ * X.shape[0] * EPS
    np.testing.assert_allclose(b.means_, a.means_, atol=bound * 5)
    np.testing.assert_allclose(b.covariances_, a.covariances_, atol=bound * 5)
    np.testing.assert_allclose(b.weights_, a.weights_, atol=bound)
    np.testing.assert_array_equal(b.predict(X), a.predict(X))


def test_fit_predict_is_the_final_e_step():
    """fit_predict labels are those of the kept parameters, even when max_iter cuts EM short."""
    X = WINE
    with pytest.warns(ConvergenceWarning, match="GaussianMixture stopped on 'max_iter'"):
        gm = GaussianMixture(3, init_params="random", max_iter=2, random_state=0)
        labels = gm.fit_predict(X)
    np.testing.assert_array_equal(labels, gm.predict(X))
    assert gm.n_iter_ == 2 and not gm.converged_ and gm.stop_reason_ == "max_iter"
    assert len(gm.history_["objective"]) == 3
    assert gm.history_["objective"][-1] == pytest.approx(-gm.score(X), rel=10 * EPS)


def test_no_iteration_keeps_the_start_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gm = GaussianMixture(3, max_iter=0, random_state=0).fit(IRIS)
    assert gm.n_iter_ == 0 and gm.history_["objective"] == [pytest.approx(-gm.score(IRIS))]


def test_warm_start_continues_from_the_fitted_parameters():
    X = WINE
    gm = GaussianMixture(3, init_params="random", max_iter=3, warm_start=True, random_state=0)
    with pytest.warns(ConvergenceWarning):
        gm.fit(X)
    end_of_first = gm.history_["objective"][-1]
    with pytest.warns(ConvergenceWarning):
        gm.fit(X)
    assert gm.history_["objective"][0] == end_of_first
    cold = GaussianMixture(3, init_params="random", max_iter=6, random_state=0)
    with pytest.warns(ConvergenceWarning):
        cold.fit(X)
    # 3 + 3 warm iterations are the 6 iterations of one run from the same start, bit for bit
    np.testing.assert_array_equal(gm.means_, cold.means_)
    np.testing.assert_array_equal(gm.covariances_, cold.covariances_)


@pytest.mark.parametrize("init_params", ["kmeans", "k-means++", "random", "random_from_data"])
def test_every_start_is_reproducible_and_recovers_iris_species(init_params):
    from scratchlearn.metrics import adjusted_rand_score

    iris = datasets.load_iris()
    X = _standardised(datasets.load_iris)
    a = GaussianMixture(3, init_params=init_params, n_init=3, random_state=0).fit(X)
    b = GaussianMixture(3, init_params=init_params, n_init=3, random_state=0).fit(X)
    np.testing.assert_array_equal(a.means_, b.means_)
    assert a.converged_ and a.stop_reason_ == "cost_change"
    assert adjusted_rand_score(iris.target, a.predict(X)) > 0.5  # k-means reaches ~0.62


@pytest.mark.parametrize("covariance_type", TYPES)
def test_sample_draws_from_the_fitted_mixture(covariance_type):
    """Component counts and per-component means within 5 standard errors of π and μ."""
    gm = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(IRIS)
    n = 20_000
    X, labels = gm.sample(n)
    assert X.shape == (n, IRIS.shape[1]) and labels.shape == (n,)
    counts = np.bincount(labels, minlength=3)
    se = np.sqrt(n * gm.weights_ * (1 - gm.weights_))
    assert np.all(np.abs(counts - n * gm.weights_) <= 5 * se)
    covs = component_covariances(gm)
    for k in range(3):
        mean_se = np.sqrt(np.diag(covs[k]) / counts[k])
        assert np.all(np.abs(X[labels == k].mean(axis=0) - gm.means_[k]) <= 5 * mean_se)
    X2, _ = gm.sample(n)
    np.testing.assert_array_equal(X, X2)  # an int random_state: the same draws each call


@pytest.mark.parametrize(
    "covariance_type, n_params", [("full", 44), ("tied", 24), ("diag", 26), ("spherical", 17)]
)
def test_bic_and_aic_count_parameters_as_scikit_learn(covariance_type, n_params):
    """K=3, d=4: K−1 weights + K·d means + covariances (K·d(d+1)/2, d(d+1)/2, K·d, K)."""
    gm = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(IRIS)
    n = IRIS.shape[0]
    assert gm.bic(IRIS) == pytest.approx(-2 * n * gm.score(IRIS) + n_params * np.log(n))
    assert gm.aic(IRIS) == pytest.approx(-2 * n * gm.score(IRIS) + 2 * n_params)


@settings(max_examples=25, deadline=None)
@given(
    data=st.data(),
    n=st.integers(4, 30),
    d=st.integers(1, 3),
    covariance_type=st.sampled_from(TYPES),
    init_params=st.sampled_from(["kmeans", "k-means++", "random", "random_from_data"]),
)
def test_any_small_data_gives_a_normalised_model(data, n, d, covariance_type, init_params):
    """On any small data (ties and duplicates included) the fit is a proper mixture: weights
    summing to one, responsibilities summing to one per row, finite log-densities, and
    fit_predict agreeing with predict."""
    K = data.draw(st.integers(1, min(3, n)))
    values = st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 1))  # forces ties
    X = np.array(data.draw(st.lists(values, min_size=n * d, max_size=n * d))).reshape(n, d)
    gm = GaussianMixture(
        K, covariance_type=covariance_type, init_params=init_params, random_state=0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        labels = gm.fit_predict(X)
    assert abs(gm.weights_.sum() - 1) <= 10 * K * EPS
    proba = gm.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=10 * K * EPS)
    assert np.all(np.isfinite(gm.score_samples(X)))
    np.testing.assert_array_equal(labels, gm.predict(X))


@pytest.mark.parametrize("covariance_type", TYPES)
def test_block_statistics_merge_to_those_of_one_block(covariance_type):
    """The M-step's statistics of row blocks, merged, are those of all rows as one block.

    Raw iris (means of 1-6, spreads of 0.1-0.5), cut into blocks of 60, 1 and 89 rows, with the
    responsibilities of one component zero on the first block (merged with N_k = 0 on one
    side). A sum of n terms in another order differs by at most n·ε·Σ|terms| ≤ n²·ε·(largest
    term): max|x| for S, max‖x‖² for the second moments. Chan's update for the "full" scatters
    adds δδᵀ terms whose δ (differences of block means) carry ε·max|x| each, within the same
    bound. Measured: at most 0.006 of it; leaving out Chan's δδᵀ terms would miss by 10¹¹
    times it, so an error in the merge cannot hide under the bound.
    """
    from scratchlearn.mixture._em import block_statistics, merge_statistics

    X = datasets.load_iris().data
    n = X.shape[0]
    R = np.random.default_rng(0).uniform(size=(n, 3))
    R[:60, 2] = 0.0
    R /= R.sum(axis=1, keepdims=True)
    whole = block_statistics(X, R, covariance_type)
    parts = [
        block_statistics(X[a:b], R[a:b], covariance_type) for a, b in ((0, 60), (60, 61), (61, n))
    ]
    merged = merge_statistics(
        merge_statistics(parts[0], parts[1], covariance_type), parts[2], covariance_type
    )
    assert merged.keys() == whole.keys()
    scale = {"N": 1.0, "S": np.abs(X).max(), "C": (X**2).sum(axis=1).max()}
    scale["XX"] = scale["Q"] = scale["C"]
    for key in whole:
        assert np.abs(merged[key] - whole[key]).max() <= n * EPS * n * scale[key], key


CHUNKED = []  # measured error / bound of the chunked fits below, checked by the next test


@pytest.mark.parametrize("covariance_type", TYPES)
def test_row_chunks_change_the_fit_by_rounding_only(monkeypatch, covariance_type):
    """An EM pass visits its block in row chunks (``_row_chunks``), merged as Dask blocks are.

    Raw iris in chunks of 7 rows (21 full chunks and one of 3) against one chunk, from the same
    start: the same n_iter_, and θ and the bounds within T·n·ε·max‖x‖²/λ_min relative (derived
    in tests/_mixture_fits.py). Per-sample outputs are computed row by row either way: the
    labels are the same, and log p(x_i) and r_ik differ by the rounding of BLAS products of
    another row count, a few ε of the Mahalanobis terms (bound: 4·d·ε·(max|log p| + d))."""
    from _mixture_fits import assert_same_fit, start  # tests/ is on sys.path
    from scratchlearn.mixture import _gaussian_mixture as gmm

    X = datasets.load_iris().data
    n, d = X.shape
    kw = dict(n_components=3, covariance_type=covariance_type, tol=1e-6, max_iter=300)
    kw.update(start(X, 3, covariance_type))
    monkeypatch.setattr(gmm, "_CHUNK_BYTES", 1 << 62)
    assert len(gmm._row_chunks(X, 3)) == 1
    whole = GaussianMixture(**kw).fit(X)
    outputs = whole.score_samples(X), whole.predict_proba(X), whole.predict(X)
    monkeypatch.setattr(gmm, "_CHUNK_BYTES", 1)
    monkeypatch.setattr(gmm, "_MIN_CHUNK_ROWS", 7)
    assert [len(c) for c in gmm._row_chunks(X, 3)] == [7] * 21 + [3]
    chunked = GaussianMixture(**kw).fit(X)
    assert_same_fit(chunked, whole, X, CHUNKED)
    # the whole fit's per-sample outputs, now computed in chunks of 7 rows
    scale = 4 * d * EPS * (np.abs(outputs[0]).max() + d)
    assert np.abs(whole.score_samples(X) - outputs[0]).max() <= scale
    assert np.abs(whole.predict_proba(X) - outputs[1]).max() <= scale
    np.testing.assert_array_equal(whole.predict(X), outputs[2])


def test_chunked_fits_measured_a_tenth_of_the_bound():
    # runs after the four above (same module, file order): the factor of 10
    assert len(CHUNKED) == len(TYPES)
    worst = max(CHUNKED)
    print(f"\nGaussianMixture chunked vs whole, worst error/bound: {worst:.2e}")
    assert worst <= 0.1
