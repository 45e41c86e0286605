"""GLMs: hand-checkable fits, links and families, gradients, properties and bad input."""

import math
import warnings

import numpy as np
import pytest
from _glm_bounds import (
    assert_same_optimum,
    coef_distance_bound,
    final_grad,
    gradient_with_rounding,
    hessian_lambda_min,
    objective_excess,
    stop_rule_bound,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import gammaln

from scratchlearn.exceptions import ConvergenceWarning, DivergenceError, InvalidParameterError
from scratchlearn.linear_model._glm import (
    GammaRegressor,
    GeneralizedLinearRegressor,
    PoissonRegressor,
    TweedieRegressor,
    glm_objective,
)
from scratchlearn.linear_model._glm_family import make_family
from scratchlearn.linear_model._glm_gd import standardised_problem, to_beta, to_theta
from scratchlearn.linear_model._glm_link import LINKS
from scratchlearn.linear_model._glm_solvers import Design
from scratchlearn.optim import check_gradient, numerical_gradient

# -- hand-checkable fits: one binary feature, so the MLE reproduces the two group means ---------
X2 = np.array([[0.0], [0.0], [1.0], [1.0]])
EPS = np.finfo(float).eps


def test_poisson_two_groups_by_hand():
    y = np.array([1.0, 3.0, 2.0, 6.0])  # group means 2 and 4
    m = GeneralizedLinearRegressor(family="poisson", tol=1e-14).fit(X2, y)
    assert m.stop_reason_ == "grad_norm"
    # log μ = b + w x: b = log 2, w = log 4 − log 2 = log 2. ∇²L = X̃ᵀdiag(μ)X̃/S =
    # [[2, 2], [2, 3]] at the optimum, λ_min = (5 − √17)/2 = 0.44, so ‖∇L‖∞ ≤ 1e-14 leaves
    # ‖β − β*‖₂ ≤ √2·1e-14/0.44 = 3.2e-14, 4.6e-14 relative to log 2: rtol 1e-12 is 20x that
    np.testing.assert_allclose([m.intercept_, m.coef_[0]], [math.log(2), math.log(2)], rtol=1e-12)
    # D = 2Σ y log(y/μ) (the y − μ terms cancel inside each group)
    D = 2 * (math.log(1 / 2) + 3 * math.log(3 / 2) + 2 * math.log(2 / 4) + 6 * math.log(6 / 4))
    assert m.deviance_ == pytest.approx(D, rel=1e-12)
    np.testing.assert_allclose(m.predict(X2), [2, 2, 4, 4], rtol=1e-12)
    # Fisher information X̃ᵀdiag(μ)X̃ = [[8, 8], [8, 12]] for (w, b): var(w) = 12/32, var(b) = 8/32
    np.testing.assert_allclose(m.bse_, np.sqrt([12 / 32, 8 / 32]), rtol=1e-10)


def test_gamma_inverse_link_two_groups_by_hand():
    y = np.array([1.0, 3.0, 2.0, 6.0])
    m = GeneralizedLinearRegressor(family="gamma", tol=1e-14).fit(X2, y)
    assert m.stop_reason_ == "grad_norm"
    # 1/μ = b + w x: b = 1/2, w = 1/4 − 1/2. Canonical link: ∇²L = X̃ᵀdiag(μ²)X̃/S =
    # [[8, 8], [8, 10]]/4 (μ = 2, 2, 4, 4), λ_min = (9 − √65)/4 = 0.23, so ‖∇L‖∞ ≤ 1e-14
    # leaves ‖β − β*‖₂ ≤ √2·1e-14/0.23 = 6e-14, 2.4e-13 relative to 0.25: rtol 1e-11 is 40x
    np.testing.assert_allclose([m.intercept_, m.coef_[0]], [0.5, -0.25], rtol=1e-11)
    # Pearson χ² = Σ (y − μ)²/μ² = 2·(1/2)² + 2·(1/2)² = 1, over n − p = 2
    assert m.dispersion_ == pytest.approx(0.5, rel=1e-10)


def test_binomial_trials_two_groups_by_hand():
    y = np.array([0.25, 0.75])  # 1 of 4 and 3 of 4 successes
    X = np.array([[0.0], [1.0]])
    m = GeneralizedLinearRegressor(family="binomial", tol=1e-14).fit(X, y, sample_weight=[4, 4])
    assert m.stop_reason_ == "grad_norm"
    # ∇²L = X̃ᵀdiag(sμ(1 − μ))X̃/S = [[3, 3], [3, 6]]/32, λ_min = 3(3 − √5)/64 = 0.036: with
    # ‖∇L‖∞ ≤ 1e-14, ‖β − β*‖₂ ≤ √2·1e-14/0.036 = 4e-13, 3.6e-13 relative to log 3: rtol 1e-11
    np.testing.assert_allclose(
        [m.intercept_, m.coef_[0]], [-math.log(3), 2 * math.log(3)], rtol=1e-11
    )
    assert m.deviance_ == pytest.approx(0.0, abs=1e-12)  # saturated: one parameter per row
    # ℓ = Σ log C(4, k) + k log μ + (4 − k) log(1 − μ) with k = 1, 3 and μ = 1/4, 3/4
    llf = 2 * (math.log(4) + math.log(1 / 4) + 3 * math.log(3 / 4))
    assert m.llf_ == pytest.approx(llf, rel=1e-12)
    assert m.aic_ == pytest.approx(-2 * llf + 4, rel=1e-12)


def test_binomial_trials_equal_expanded_bernoulli_rows():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    trials = rng.integers(1, 6, size=30)
    succ = rng.binomial(trials, 0.4)
    grouped = GeneralizedLinearRegressor(family="binomial", tol=1e-14).fit(
        X, succ / trials, sample_weight=trials
    )
    rows = np.repeat(np.arange(30), trials)
    yb = np.concatenate([[1.0] * k + [0.0] * (t - k) for k, t in zip(succ, trials, strict=True)])
    flat = GeneralizedLinearRegressor(family="binomial", tol=1e-14).fit(X[rows], yb)
    # same likelihood up to the binomial coefficients, and L = D/(2S) with the same S = Σ trials:
    # the same L, so the two fits agree to √p·(g_a + g_b)/λ (tests/linear_model/_glm_bounds.py)
    assert grouped.stop_reason_ == flat.stop_reason_ == "grad_norm"
    lam = hessian_lambda_min(grouped, X, succ / trials, trials)
    bound = coef_distance_bound(3, final_grad(grouped), final_grad(flat), lam)
    assert np.linalg.norm(grouped.coef_ - flat.coef_) <= bound
    # se = √diag(I⁻¹): I is a smooth function of β, so a relative change of the coefficients
    # of bound/‖β‖ moves it by about as much (the bound is ~1e-13 here): rtol 1e-9
    np.testing.assert_allclose(grouped.bse_, flat.bse_, rtol=1e-9)


def test_normal_identity_is_least_squares():
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True)
    m = GeneralizedLinearRegressor().fit(X, y)
    Xt = np.hstack([X, np.ones((len(y), 1))])
    beta = np.linalg.lstsq(Xt, y, rcond=None)[0]
    np.testing.assert_allclose(np.append(m.coef_, m.intercept_), beta, rtol=1e-9)
    # the first weighted least squares (from μ₀) solves it exactly
    assert m.n_iter_ == 1 and m.stop_reason_ == "grad_norm"
    assert m.score(X, y) == pytest.approx(1 - m.deviance_ / m.null_deviance_, rel=1e-12)


# -- links and families ------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(LINKS))
def test_link_inverse_and_derivative(name):
    link = LINKS[name]()
    mu = np.array([0.1, 0.3, 0.5, 0.8])  # inside every link's domain
    # g⁻¹(g(μ)): two elementary functions, each within a few ε relative, conditioning O(1) on
    # [0.1, 0.8]: ~1e-15, rtol 1e-12
    np.testing.assert_allclose(link.inverse(link.link(mu)), mu, rtol=1e-12)
    # g′ against central differences of g, one point at a time: truncation h²g‴/6 ~ 1e-11 and
    # rounding ε|g|/h ~ 1e-10 relative at h = 1e-6, so rel 1e-6 keeps > 1e3x margin
    for m in mu:
        fd = numerical_gradient(lambda v: float(link.link(v)), np.array(m), eps=1e-6)
        assert float(link.deriv(np.array(m))) == pytest.approx(float(fd), rel=1e-6)


FAMILY_CASES = [
    ("normal", 0.0, np.array([-1.0, 0.5, 2.0])),
    ("binomial", 0.0, np.array([0.0, 0.3, 1.0])),
    ("poisson", 0.0, np.array([0.0, 1.0, 4.0])),
    ("gamma", 0.0, np.array([0.5, 1.0, 4.0])),
    ("inverse_gaussian", 0.0, np.array([0.5, 1.0, 4.0])),
    ("tweedie", 1.5, np.array([0.0, 1.0, 4.0])),
    ("tweedie", 3.0, np.array([0.5, 1.0, 4.0])),
    ("tweedie", -1.0, np.array([-1.0, 1.0, 4.0])),
]


@pytest.mark.parametrize("family,power,y", FAMILY_CASES)
def test_deviance_derivative_matches_variance(family, power, y):
    # ∂d/∂μ = −2(y − μ)/V(μ): ties the unit deviance to the variance function
    fam = make_family(family, power)
    mu = np.array([0.4, 0.6, 0.7]) if family == "binomial" else np.array([0.7, 1.3, 2.0])
    for yi, mi in zip(y, mu, strict=True):
        fd = numerical_gradient(lambda m, yi=yi: float(fam.unit_deviance(yi, m)), np.array(mi))
        expected = -2 * (yi - mi) / fam.variance(mi)
        assert float(fd) == pytest.approx(expected, rel=1e-6, abs=1e-8)
    np.testing.assert_allclose(
        fam.unit_deviance(y, np.where(y > 0, y, 0.5)) * (y > 0), 0, atol=1e-12
    )
    assert np.all(fam.unit_deviance(y, mu) >= 0)


@pytest.mark.parametrize("family,power,y", FAMILY_CASES)
def test_deviance_split_fast_path(family, power, y):
    # kernel(y, μ) + c(y) must equal the plain unit deviance
    fam = make_family(family, power)
    mu = np.array([0.4, 0.6, 0.7]) if family == "binomial" else np.array([0.7, 1.3, 2.0])
    kernel, c = fam.deviance_split(y)
    # the same terms re-associated: rounding a few ε times the O(1-10) terms, ~1e-14
    np.testing.assert_allclose(kernel(y, mu) + c, fam.unit_deviance(y, mu), rtol=1e-12, atol=1e-12)


def test_log_factorial_table():
    from scipy.special import gammaln

    from scratchlearn.linear_model._glm_family import _log_factorial

    y = np.array([0.0, 1.0, 5.0, 170.0, 3.0])
    # a cumulative sum of ≤ 170 logs: relative rounding ≤ 170ε ≈ 4e-14, rtol 1e-12
    np.testing.assert_allclose(_log_factorial(y), gammaln(y + 1), rtol=1e-12)
    np.testing.assert_allclose(_log_factorial(y + 0.5), gammaln(y + 1.5), rtol=1e-12)


GRAD_CASES = [
    ("normal", "identity", 0.0),
    ("normal", "log", 0.0),
    ("binomial", "logit", 0.0),
    ("binomial", "probit", 0.0),
    ("binomial", "cloglog", 0.0),
    ("poisson", "log", 0.0),
    ("poisson", "identity", 0.0),
    ("gamma", "inverse", 0.0),
    ("gamma", "log", 0.0),
    ("inverse_gaussian", "inverse_squared", 0.0),
    ("inverse_gaussian", "log", 0.0),
    ("tweedie", "log", 1.5),
    ("tweedie", "log", 3.0),
]


@pytest.mark.parametrize("family,link,power", GRAD_CASES)
def test_objective_gradient(family, link, power):
    rng = np.random.default_rng(1)
    X = rng.uniform(0.1, 1.0, size=(40, 3))
    Xt = np.hstack([X, np.ones((40, 1))])
    y = {"binomial": rng.uniform(0, 1, 40), "normal": rng.normal(size=40)}.get(
        family, rng.gamma(2.0, 1.0, size=40)
    )
    fam, lk = make_family(family, power), LINKS[link]()
    s = rng.uniform(0.5, 2.0, size=40)
    pen = np.array([0.3, 0.3, 0.3, 0.0])
    beta = np.array([0.1, 0.2, 0.3, 0.5])  # positive η: valid for the inverse links
    err = check_gradient(lambda b: glm_objective(b, Xt, y, s, fam, lk, pen), beta)
    assert err < 1e-6
    kernel, c = fam.deviance_split(y)
    fast = glm_objective(beta, Xt, y, s, fam, lk, pen, (kernel, float(s @ c)))
    plain = glm_objective(beta, Xt, y, s, fam, lk, pen)
    assert fast[0] == pytest.approx(plain[0], rel=1e-12)


@pytest.mark.parametrize("family,link,power", GRAD_CASES)
def test_reused_scratch_vectors_change_nothing(family, link, power):
    # One Design serves every evaluation of a fit and lends it scratch vectors for μ, log μ
    # and r (Design.work). A sequence of objective and final statistics on one Design must equal
    # each on a fresh Design exactly: both run the same floating-point operations on the same
    # values in the same order (elementwise ufuncs, and sums of equal-length contiguous vectors),
    # so a stale buffer is the only way they can differ, and then by far more than rounding.
    # Nothing the caller holds (η, y, s, μ) may be written.
    from scratchlearn.linear_model._glm_blocks import final_stat, objective_stat, residual

    rng = np.random.default_rng(2)
    X = rng.uniform(0.1, 1.0, size=(50, 3))
    y = {"binomial": rng.uniform(0, 1, 50), "normal": rng.normal(size=50)}.get(
        family, rng.gamma(2.0, 1.0, size=50)
    )
    fam, lk = make_family(family, power), LINKS[link]()
    s = rng.uniform(0.5, 2.0, size=50)
    kernel = fam.deviance_split(y)[0]
    y0, s0 = y.copy(), s.copy()
    shared = Design(X, True)
    for beta in ([0.1, 0.2, 0.3, 0.5], [0.3, 0.1, 0.2, 0.4], [0.1, 0.2, 0.3, 0.5]):
        beta = np.array(beta)
        for stat, args in ((objective_stat, (kernel,)), (final_stat, (kernel, 1.3, False))):
            got = stat(shared, y, s, beta, fam, lk, True, *args)
            want = stat(Design(X, True), y, s, beta, fam, lk, True, *args)
            assert got.keys() == want.keys()
            for key in want:
                assert np.array_equal(got[key], want[key]), (stat.__name__, key)
    assert np.array_equal(y, y0) and np.array_equal(s, s0)
    mu = lk.inverse(shared.dot(np.array([0.1, 0.2, 0.3, 0.5])))
    mu0 = np.array(mu, copy=True)
    r = residual(y, s, fam, lk, mu, out=np.empty(50))
    assert np.array_equal(mu, mu0) and np.array_equal(r, residual(y, s, fam, lk, mu))


def _deviance_rounding(family, power, y, mu):
    """Rounding of D = Σ sᵢkᵢ + Σ sᵢcᵢ (the family's split, unit weights): 64ε(Σ|kᵢ| + |Σcᵢ|),
    the band IRLS also allows (n ≤ 300 terms summed: at most ~nε per term, 64ε with pairwise
    summation)."""
    kernel, c = make_family(family, power).deviance_split(y)
    return 64 * np.finfo(float).eps * (np.sum(np.abs(kernel(y, mu))) + abs(np.sum(c)))


# -- behaviour ---------------------------------------------------------------------------------
def _counts(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, rng.poisson(np.exp(X @ [0.3, -0.2, 0.1] + 0.5)).astype(float)


def test_irls_and_lbfgs_agree():
    X, y = _counts()
    a = GeneralizedLinearRegressor(family="poisson", alpha=0.1, tol=1e-12).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a "stalled" stop warns
        b = GeneralizedLinearRegressor(
            family="poisson", alpha=0.1, solver="lbfgs", tol=1e-10, max_iter=500
        ).fit(X, y)
    # L-BFGS stops on ‖∇L‖∞ ≤ tol, or "stalled" when its line search finds no decrease first;
    # either way the bound √p·(g_a + g_b)/λ uses the gradients actually reached (λ ≥ α = 0.1)
    assert a.stop_reason_ == "grad_norm" and b.stop_reason_ in ("grad_norm", "stalled")
    assert (b.stop_reason_ == "grad_norm") == (final_grad(b) <= 1e-10)
    assert_same_optimum(a, b, X, y)
    assert np.all(np.isnan(a.bse_))  # standard errors only for unpenalised fits


def test_history_decreases_and_warm_start():
    X, y = _counts()
    m = GeneralizedLinearRegressor(family="poisson", tol=1e-12).fit(X, y)
    # entry 0 is μ₀ = (y + ȳ)/2, not a fitted model (it can sit below L*); from β₁ on, L
    # decreases
    L = np.array(m.history_["objective"])[1:]
    # IRLS accepts a step when L rises by at most its rounding noise 64ε(|L| + Σsᵢ|kᵢ|/(2S) +
    # |Σsᵢcᵢ|/(2S)) (kernel k = 2μ − 2y log μ, c = 2y log y − 2y for Poisson): no larger rise
    kernel, c = make_family("poisson").deviance_split(y)
    mu = m.predict(X)
    scale = (np.sum(np.abs(kernel(y, mu))) + abs(np.sum(c))) / (2 * len(y))
    assert np.all(np.diff(L) <= 64 * np.finfo(float).eps * (np.abs(L[:-1]) + scale))
    assert len(m.history_["deviance"]) == len(L) + 1 == m.n_iter_ + 1
    assert m.stop_reason_ == "grad_norm" and m.history_["grad_norm"][-1] <= 1e-12
    m2 = GeneralizedLinearRegressor(family="poisson", tol=1e-12, warm_start=True)
    m2.fit(X, y)
    n_cold = m2.n_iter_
    m2.fit(X, y)
    assert m2.n_iter_ < n_cold
    assert_same_optimum(m, m2, X, y)


@pytest.mark.parametrize(
    "est",
    [
        GeneralizedLinearRegressor(family="poisson", alpha=1e10, solver="irls", tol=1e-12),
        GeneralizedLinearRegressor(family="poisson", alpha=1e10, solver="lbfgs", tol=1e-12),
        GeneralizedLinearRegressor(family="poisson", alpha=1e10, solver="gd", tol=1e-12),
        PoissonRegressor(alpha=1e10, solver="lbfgs", tol=1e-12),
        PoissonRegressor(alpha=1e10, solver="newton-cholesky", tol=1e-12),
    ],
)
def test_intercept_never_penalised(est):
    # a huge α shrinks w to 0; the unpenalised intercept is then the intercept-only fit
    # log ȳ. A penalised intercept would be pulled to 0.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 3))
    y = rng.poisson(np.exp(1.5 + 0.3 * X[:, 0])).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m = est.fit(X, y)
    # L-BFGS can stall at tol=1e-12: along b, where the curvature is ȳ, a gradient of 3e-11
    # offers a decrease of g²/(2ȳ) ~ 1e-22, far below L's rounding
    assert m.stop_reason_ == "grad_norm" or (est.solver == "lbfgs" and m.stop_reason_ == "stalled")
    # the gradient on the objective with an unpenalised intercept, recomputed with its rounding
    # δg, meets what the stop reason guarantees (G: tol, gd's tol mapped back from θ, or the
    # stall floor √(4qν), _glm_bounds.stop_rule_bound): a penalised b would miss it by ~α|b|
    beta = np.append(m.coef_, m.intercept_)
    g, dg = gradient_with_rounding(m, X, y, None, beta)
    G = stop_rule_bound(m, X, y)
    assert np.all(np.abs(g) <= G + dg)
    # ∂L/∂w = −Xᵀ(y − μ)/n + αw, so αw = Xᵀ(y − μ)/n + ∂L/∂w: |w| ≤ (|Xᵀ(y − μ)/n| + G + δg)/α
    # is that identity (an equality up to the gradient, by nature); with |Xᵀ(y − μ)/n| = O(1)
    # it is ~1e-10 at α = 1e10, where a zero penalty gives |w| ~ 0.3
    score = np.abs(X.T @ (y - m.predict(X))) / len(y)
    assert np.all(np.abs(m.coef_) <= (score + G[:3] + dg[:3]) / m.alpha)
    # ∂L/∂b = mean(μ) − ȳ with μᵢ = exp(b + xᵢᵀw), so b − b*(w) = log(1 + ∂L/∂b/ȳ) exactly, b*(w)
    # = log ȳ − log mean exp(xᵢᵀw) the exact minimiser over b at the fitted w; and log mean
    # exp(xᵢᵀw) lies within max|xᵢᵀw| of 0. So |b − log ȳ| ≤ −log(1 − (|g_b| + δg_b)/ȳ) +
    # max|xᵢᵀw| plus the rounding of log ȳ and of b (a few ε|b|): ~5e-10, measured ≤ 7.3e-12
    gb = (abs(g[3]) + dg[3]) / y.mean()
    bound = -np.log1p(-gb) + np.max(np.abs(X @ m.coef_)) + 8 * EPS * abs(m.intercept_)
    assert abs(m.intercept_ - np.log(y.mean())) <= bound


def test_max_iter_warns():
    X, y = _counts()
    with pytest.warns(ConvergenceWarning, match="'max_iter'"):
        m = PoissonRegressor(max_iter=1, tol=1e-12).fit(X, y)
    assert m.stop_reason_ == "max_iter"
    with pytest.warns(ConvergenceWarning):
        GeneralizedLinearRegressor(family="gamma", link="log", max_iter=1).fit(X, y + 1)


def test_exponential_family_fixes_scale():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 2))
    y = rng.exponential(np.exp(X @ [0.5, -0.5] + 1.0))
    g = GeneralizedLinearRegressor(family="gamma", link="log", tol=1e-12).fit(X, y)
    e = GeneralizedLinearRegressor(family="exponential", link="log", tol=1e-12).fit(X, y)
    assert_same_optimum(g, e, X, y)  # the same L: same estimating equations
    assert e.scale_ == 1.0 and g.scale_ == g.dispersion_
    # se = √(φ diag(I⁻¹)) at (nearly) the same β: the ratio is √φ to the coefficients' relative
    # agreement (bound ~1e-12 here) times I's sensitivity: rtol 1e-9
    np.testing.assert_allclose(e.bse_, g.bse_ / np.sqrt(g.dispersion_), rtol=1e-9)


def test_summary_table():
    X, y = _counts()
    m = GeneralizedLinearRegressor(family="poisson").fit(X, y)
    text = m.summary(feature_names=["age", "dose", "sex"])
    for word in ("age", "dose", "sex", "intercept", "std err", "P>|z|", "family=poisson"):
        assert word in text
    z = m.coef_[0] / m.bse_[0]
    assert f"{z:10.3f}" in text
    assert f"{math.erfc(abs(z) / math.sqrt(2)):10.4f}" in text


def test_tweedie_regressor_links():
    X, y = _counts()
    assert TweedieRegressor(power=0).fit(X, y)._family_link()[1].name == "identity"
    assert TweedieRegressor(power=1.5).fit(X, y)._family_link()[1].name == "log"
    m = TweedieRegressor(power=1, alpha=0.5, solver="newton-cholesky", tol=1e-12).fit(X, y)
    p = PoissonRegressor(alpha=0.5, solver="newton-cholesky", tol=1e-12).fit(X, y)
    assert_same_optimum(m, p, X, y)  # power 1 is the Poisson model: the same L


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_row_order_invariance(seed):
    X, y = _counts(60, seed)
    perm = np.random.default_rng(seed).permutation(60)
    a = GeneralizedLinearRegressor(family="poisson", tol=1e-12).fit(X, y)
    b = GeneralizedLinearRegressor(family="poisson", tol=1e-12).fit(X[perm], y[perm])
    # the sums run in another order, so the runs may stop a step apart: both have
    # ‖∇L‖∞ ≤ 1e-12, so they agree to √p·(g_a + g_b)/λ
    assert a.stop_reason_ == b.stop_reason_ == "grad_norm"
    assert_same_optimum(a, b, X, y)


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "est,y,match",
    [
        (PoissonRegressor(), [1.0, -1.0, 2.0, 0.0], "non-negative"),
        (GammaRegressor(), [1.0, 0.0, 2.0, 3.0], "strictly positive"),
        (GeneralizedLinearRegressor(family="binomial"), [0.0, 1.5, 1.0, 0.0], r"0 <= y <= 1"),
        (GeneralizedLinearRegressor(family="inverse_gaussian"), [1.0, -2, 2, 3], "positive"),
        (TweedieRegressor(power=1.5), [1.0, -1.0, 2.0, 3.0], "y >= 0"),
        (TweedieRegressor(power=0.5), [1.0, 1.0, 2.0, 3.0], "power must be <= 0 or >= 1"),
    ],
)
def test_target_domain_errors(est, y, match):
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match=match):
        est.fit(X, y)


@pytest.mark.parametrize(
    "est,param",
    [
        (GeneralizedLinearRegressor(family="student"), "family"),
        (GeneralizedLinearRegressor(link="sqrt"), "link"),
        (GeneralizedLinearRegressor(alpha=-1), "alpha"),
        (GeneralizedLinearRegressor(solver="sgd"), "solver"),
        (PoissonRegressor(solver="irls"), "solver"),
        (PoissonRegressor(solver="gd"), "solver"),  # scikit-learn's solver set, unchanged
        (GeneralizedLinearRegressor(solver="gd", learning_rate=0), "learning_rate"),
        (GeneralizedLinearRegressor(solver="gd", learning_rate="fast"), "learning_rate"),
        (PoissonRegressor(tol=0), "tol"),
        (TweedieRegressor(link="logit"), "link"),
    ],
)
def test_invalid_params(est, param):
    with pytest.raises(InvalidParameterError, match=f"'{param}' parameter"):
        est.fit(np.ones((4, 1)), [1.0, 2.0, 3.0, 4.0])


def test_nan_and_feature_count():
    X, y = _counts(20)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        PoissonRegressor().fit(Xn, y)
    m = PoissonRegressor().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.predict(X[:, :2])


def test_unreachable_inverse_link_fails_clearly():
    # inverse link with η = Xβ ≤ 0 everywhere cannot give a positive mean from the start
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = GeneralizedLinearRegressor(family="gamma").fit(X, [1.0, 2.0, 3.0, 4.0])
    assert np.all(m.predict(X) > 0) and np.all(np.isfinite(m.coef_))


def test_identity_link_poisson_stays_in_domain():
    # statsmodels' IRLS ends this fit with negative means; ours halves steps to keep μ > 0
    sm = pytest.importorskip("statsmodels.api")
    d = sm.datasets.cpunish.load_pandas()
    X = d.exog.to_numpy(float)
    X[:, 3] = np.log(X[:, 3])
    y = d.endog.to_numpy(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m = GeneralizedLinearRegressor(family="poisson", link="identity").fit(X, y)
    mu = m.predict(X)
    assert np.all(mu > 0) and np.isfinite(m.deviance_)
    assert m.deviance_ < m.null_deviance_


def test_glm_showcase_text():
    from scratchlearn.linear_model._showcase_glm import showcase

    text = showcase()
    assert "Poisson GLM" in text and "P>|z|" in text and "dispersion" in text


@pytest.mark.parametrize("solver", ["irls", "lbfgs"])
def test_separation_warns_and_stays_finite(solver):
    X = np.random.default_rng(0).normal(size=(50, 2))
    y = (X[:, 0] > 0).astype(float)
    with pytest.warns(ConvergenceWarning, match="'separable'"):
        m = GeneralizedLinearRegressor(family="binomial", solver=solver).fit(X, y)
    assert m.stop_reason_ == "separable"
    assert np.all(np.isfinite(m.coef_)) and m.score(X, y) > 0.95
    m = GeneralizedLinearRegressor(family="binomial", alpha=0.1, solver=solver).fit(X, y)
    # the penalty makes the solution finite: L(ŵ, b̂) ≤ L(0, b₀) = null deviance/(2n), and
    # L ≥ α‖w‖²/2, so ‖ŵ‖₂ ≤ √(2 L(0, b₀)/α)
    assert m.stop_reason_ == "grad_norm"
    assert np.linalg.norm(m.coef_) <= np.sqrt(2 * m.null_deviance_ / (2 * len(y)) / 0.1)


def test_lbfgs_never_leaves_the_mean_domain():
    # identity-link Poisson: L-BFGS trial points with μ <= 0 count as infinitely bad
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 1, size=(80, 2))
    y = rng.poisson(0.2 + 3 * X[:, 0]).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        m = GeneralizedLinearRegressor(
            family="poisson", link="identity", solver="lbfgs", tol=1e-8, max_iter=500
        ).fit(X, y)
    assert np.all(m.predict(X) > 0)
    ref = GeneralizedLinearRegressor(family="poisson", link="identity", tol=1e-12).fit(X, y)
    assert m.stop_reason_ == ref.stop_reason_ == "grad_norm"
    # D = 2S·L: D − D* = 2S(L − L*) ≤ 2S·p·g²/(2λ) for each fit
    excess = 2 * len(y) * (objective_excess(m, X, y) + objective_excess(ref, X, y))
    rounding = 2 * _deviance_rounding("poisson", 0.0, y, ref.predict(X))
    assert abs(m.deviance_ - ref.deviance_) <= excess + rounding


def test_constant_target_score():
    # D² = 1 − D/D₀ with D₀ = D(y, ȳ) = 0 for a constant y: r2_score's convention, 1.0 for an
    # exact prediction and 0.0 otherwise (the score is then a limit, not a ratio)
    X = np.random.default_rng(0).normal(size=(20, 2))
    m = GeneralizedLinearRegressor(family="poisson").fit(X, np.full(20, 3.0))
    np.testing.assert_allclose(m.predict(X), 3.0, rtol=1e-8)
    assert m.score(X, np.full(20, 5.0)) == 0.0  # D > 0 = D₀
    exact = GeneralizedLinearRegressor().fit(X, np.full(20, 3.0))
    exact.coef_, exact.intercept_ = np.zeros(2), 3.0  # predicts exactly 3.0
    assert exact.score(X, np.full(20, 3.0)) == 1.0


def test_score_validates_like_every_score():
    X, y = _counts(20)
    m = PoissonRegressor().fit(X, y)
    y_nan = y.copy()
    y_nan[0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        m.score(X, y_nan)
    with pytest.raises(ValueError, match="(?i)sample_weight|inconsistent|length"):
        m.score(X, y, sample_weight=np.ones(5))


def test_score_is_the_d2_metric():
    from scratchlearn.metrics import d2_binomial_score, d2_tweedie_score

    X, y = _counts()
    s = np.random.default_rng(2).uniform(0.5, 2.0, size=len(y))
    m = GeneralizedLinearRegressor(family="poisson").fit(X, y)
    assert m.score(X, y, s) == d2_tweedie_score(y, m.predict(X), sample_weight=s, power=1)
    yb = (y > 1).astype(float)
    b = GeneralizedLinearRegressor(family="binomial").fit(X, yb)
    assert b.score(X, yb) == d2_binomial_score(yb, b.predict(X))


def test_predict_accepts_sparse():
    import scipy.sparse as sp

    X, y = _counts()
    m = PoissonRegressor().fit(X, y)
    # η = Σⱼ xⱼwⱼ + b summed in another order: |Δη| ≤ 4ε(Σ|xⱼwⱼ| + |b|) ≈ 3e-15 here, and
    # μ = e^η moves by that relatively: rtol 1e-13
    np.testing.assert_allclose(m.predict(sp.csr_matrix(X)), m.predict(X), rtol=1e-13)


def test_glm_hierarchy_and_tags():
    from scratchlearn.linear_model._glm import _GLMBase

    for cls in (GeneralizedLinearRegressor, PoissonRegressor, GammaRegressor, TweedieRegressor):
        assert issubclass(cls, _GLMBase)
    assert not issubclass(PoissonRegressor, GeneralizedLinearRegressor)  # siblings
    assert PoissonRegressor()._scratch_tags()["estimator_type"] == "regressor"
    assert PoissonRegressor()._scratch_tags()["positive_y"]
    assert not TweedieRegressor(power=0)._scratch_tags()["positive_y"]


# -- gradient descent ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "family,link,intercept",
    [("poisson", "log", True), ("gamma", "inverse", True), ("binomial", "logit", False)],
)
def test_gd_standardised_objective(family, link, intercept):
    rng = np.random.default_rng(3)
    X = rng.uniform(0.1, 1.0, size=(40, 3)) * [1.0, 10.0, 100.0]  # very unequal column scales
    y = rng.uniform(0, 1, 40) if family == "binomial" else rng.gamma(2.0, 1.0, size=40)
    s = rng.uniform(0.5, 2.0, size=40)
    fam, lk = make_family(family), LINKS[link]()
    p = 3 + int(intercept)
    pen = np.array([0.3, 0.3, 0.3, 0.0])[:p]
    Zt, pen_t, mean, sigma = standardised_problem(X, s, intercept, pen)
    Z = Zt.X
    if intercept:  # s-weighted means 0 and variances 1
        np.testing.assert_allclose(np.average(Z, axis=0, weights=s), 0, atol=1e-12)
        np.testing.assert_allclose(np.average(Z**2, axis=0, weights=s), 1, rtol=1e-12)
    else:  # root mean square 1
        np.testing.assert_allclose(np.average(Z**2, axis=0, weights=s), 1, rtol=1e-12)
    beta = np.array([0.001, 0.002, 0.003, 0.5])[:p]  # positive η for the inverse link
    theta = to_theta(beta, mean, sigma, intercept)
    np.testing.assert_allclose(to_beta(theta, mean, sigma, intercept), beta, rtol=1e-14)
    # J(θ) = L(β): the same 40-term sums in another order, relative rounding ≤ 40ε ≈ 1e-14
    J = glm_objective(theta, Zt, y, s, fam, lk, pen_t)[0]
    assert J == pytest.approx(glm_objective(beta, Design(X, intercept), y, s, fam, lk, pen)[0],
                              rel=1e-12)  # fmt: skip
    err = check_gradient(lambda t: glm_objective(t, Zt, y, s, fam, lk, pen_t), theta)
    assert err < 1e-6  # central differences: a correct gradient gives ~1e-8 here, a wrong one ~1


def test_gd_defaults_converge_without_warning():
    X, y = _counts()
    X = (X - X.mean(0)) / X.std(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = GeneralizedLinearRegressor(family="poisson", solver="gd").fit(X, y)
    assert m.stop_reason_ == "grad_norm" and m.history_["grad_norm"][-1] <= m.tol
    ref = GeneralizedLinearRegressor(family="poisson", tol=1e-12).fit(X, y)
    assert_same_optimum(ref, m, X, y)


def test_gd_auto_step_is_inverse_curvature():
    X, y = _counts()
    m = GeneralizedLinearRegressor(family="poisson", solver="gd").fit(X, y)
    # Poisson/log at the intercept-only start: W₀ = μ₀ = ȳ, so the standardised Fisher
    # information is ȳ Z̃ᵀZ̃/n and the first step is its inverse largest eigenvalue; the run
    # only ever halves it (backtracking): η = 2⁻ᵏ/λ for an integer k ≥ 0
    Z = np.hstack([(X - X.mean(0)) / X.std(0), np.ones((len(y), 1))])
    lam = np.linalg.eigvalsh(y.mean() * Z.T @ Z / len(y))[-1]
    k = -np.log2(m.learning_rate_ * lam)
    assert k == pytest.approx(round(k), abs=1e-9) and round(k) >= 0
    assert m.stop_reason_ == "grad_norm" and m.history_["grad_norm"][-1] <= m.tol
    ref = GeneralizedLinearRegressor(family="poisson", tol=1e-12).fit(X, y)
    assert_same_optimum(ref, m, X, y)


def test_gd_halves_the_step_when_l_rises():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    y = rng.poisson(np.exp(1.5 * X[:, 0] - 0.5 * X[:, 1] + 0.5)).astype(float)
    # μ ranges over e^±5 at the optimum: its curvature exceeds the starting one, so the first
    # step size 1/λ₀ breaks the descent lemma somewhere and is halved at least once
    m = GeneralizedLinearRegressor(family="poisson", solver="gd").fit(X, y)
    Z = np.hstack([(X - X.mean(0)) / X.std(0), np.ones((300, 1))])
    lam0 = np.linalg.eigvalsh(y.mean() * Z.T @ Z / 300)[-1]
    k = -np.log2(m.learning_rate_ * lam0)
    assert k == pytest.approx(round(k), abs=1e-9) and round(k) >= 1
    assert m.n_iter_ >= len(m.history_["objective"])  # the rejected steps are counted
    ref = GeneralizedLinearRegressor(family="poisson", tol=1e-12).fit(X, y)
    assert_same_optimum(ref, m, X, y)


def test_gd_weights_no_intercept_and_fixed_step():
    X, y = _counts()
    s = np.random.default_rng(1).uniform(0.5, 2.0, size=len(y))
    for kw in ({"alpha": 0.1}, {"fit_intercept": False}, {"learning_rate": 0.1}):
        ref = GeneralizedLinearRegressor(family="poisson", tol=1e-12, **kw).fit(X, y, s)
        gd = GeneralizedLinearRegressor(family="poisson", solver="gd", max_iter=20_000, **kw)
        gd.fit(X, y, s)
        assert gd.stop_reason_ == "grad_norm"
        assert_same_optimum(ref, gd, X, y, s)
    assert gd.learning_rate_ == 0.1  # a float step is used as given


def test_gd_max_iter_divergence_and_warm_start():
    X, y = _counts()
    with pytest.warns(ConvergenceWarning, match="'max_iter'"):
        m = GeneralizedLinearRegressor(family="poisson", solver="gd", max_iter=5).fit(X, y)
    assert m.stop_reason_ == "max_iter" and m.n_iter_ == 5
    assert len(m.history_["objective"]) <= 6  # start + accepted steps (halvings add none)
    with pytest.raises(DivergenceError, match="learning_rate=100"):
        GeneralizedLinearRegressor(family="poisson", solver="gd", learning_rate=100.0).fit(X, y)
    m = GeneralizedLinearRegressor(family="poisson", solver="gd", warm_start=True).fit(X, y)
    n_cold = m.n_iter_
    m.fit(X, y)
    assert m.n_iter_ < n_cold


def test_tweedie_regressor_skips_the_series_loglike_that_the_glm_computes():
    """TweedieRegressor (scikit-learn's signature) leaves the compound Poisson-gamma ℓ as NaN;
    GeneralizedLinearRegressor evaluates it. Both fit the same coefficients."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((300, 3))
    y = rng.gamma(2.0, np.exp(X @ [0.2, -0.1, 0.3] + 0.5) / 2.0)
    y[::7] = 0.0  # compound Poisson-gamma: exact zeros allowed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # L-BFGS may stall at 1e-10
        fast = TweedieRegressor(power=1.5, alpha=0.0, tol=1e-10, max_iter=1000).fit(X, y)
    full = GeneralizedLinearRegressor(family="tweedie", power=1.5, link="log", tol=1e-12).fit(X, y)
    assert fast.stop_reason_ in ("grad_norm", "stalled") and full.stop_reason_ == "grad_norm"
    assert_same_optimum(full, fast, X, y)  # the same L: √p·(g_a + g_b)/λ
    assert np.isnan(fast.llf_) and np.isnan(fast.aic_) and np.isnan(fast.bic_)
    assert np.isfinite(full.llf_) and full.aic_ == pytest.approx(-2 * full.llf_ + 2 * 4)
    # the cheap statistics are still there
    # D = 2S·L and L − L* ≤ p·g²/(2λ) for each fit, plus the rounding of D itself
    excess = 2 * len(y) * (objective_excess(fast, X, y) + objective_excess(full, X, y))
    rounding = 2 * _deviance_rounding("tweedie", 1.5, y, full.predict(X))
    assert abs(fast.deviance_ - full.deviance_) <= excess + rounding
    # powers whose density is closed-form keep their likelihood
    assert np.isfinite(TweedieRegressor(power=1.0, alpha=0.0).fit(X, y + 1).llf_)


@pytest.mark.parametrize(
    "name, equal_weights",
    [("poisson", False), ("binomial", False), ("gamma", False), ("gamma", True)],
)
def test_loglike_from_the_kernel_sum_is_the_loglike(name, equal_weights):
    """ℓ = c(y, s, φ) − Σ sᵢk(yᵢ, μᵢ)/(2φ) with the deviance's kernel k, so the fit statistics
    take ℓ from the kernel sum instead of a pass of its own. Here against the family's direct
    ℓ at random μ, with weights (binomial: trials), gamma at φ = 0.7 (its equal-weights path
    computes the ν terms once).

    Tolerance: two sums of n terms each exact to a few ulp, at most 4nε·Σ|term| apart, with
    Σ|term| the sum of the absolute values of every term of either form."""
    rng = np.random.default_rng(7)
    n = 2_000
    fam = make_family(name)
    s = np.full(n, 1.5) if equal_weights else rng.uniform(0.5, 2.0, n)
    scale = 1.0
    if name == "poisson":
        mu = rng.uniform(0.1, 20.0, n)
        y = rng.poisson(mu).astype(float)
        size = s @ (np.abs(y * np.log(mu)) + mu) + np.abs(fam.loglike(y, np.ones(n), s))
    elif name == "binomial":
        mu = rng.uniform(0.01, 0.99, n)
        s = rng.integers(1, 20, n).astype(float)
        y = rng.binomial(s.astype(int), mu) / s
        size = s @ (np.abs(y * np.log(mu)) + np.abs((1 - y) * np.log1p(-mu)))
        size += np.abs(fam.loglike(y, np.full(n, 0.5), s))
    else:
        scale = 0.7
        mu = rng.uniform(0.5, 5.0, n)
        y = rng.gamma(2.0, mu / 2.0)
        nu = s / scale
        size = np.sum(
            np.abs(nu * np.log(nu)) + np.abs(gammaln(nu)) + (nu + 1) * np.abs(np.log(y))
            + nu * (np.abs(np.log(mu)) + y / mu)
        )  # fmt: skip
    kernel = fam.deviance_split(y)[0]
    k_sum = float(s @ kernel(y, mu))
    llf = fam.loglike_from_kernel(k_sum, y, s, scale)
    assert llf is not None
    assert abs(llf - fam.loglike(y, mu, s, scale)) <= 4 * n * EPS * size
    assert make_family("normal").loglike_from_kernel(k_sum, y, s, scale) is None


def test_irls_builds_the_normal_equations_only_for_the_steps_it_takes(monkeypatch):
    """In memory an IRLS point computes D and X̃ᵀr first; X̃ᵀWX̃ (the Gram product, most of an
    evaluation) only when a step is taken from it: one per iteration, none at the converged
    last point. The split evaluation is the one-pass one: same D and X̃ᵀr exactly, the same
    normal equations to the rounding of the products (X̃ᵀ[r, Wz] in one product or two: each
    entry a sum of n terms exact to nε·Σ|term|)."""
    from scratchlearn.linear_model import _glm_blocks

    rng = np.random.default_rng(0)
    X = rng.standard_normal((3_000, 4))
    y = rng.poisson(np.exp(X @ np.array([0.3, -0.2, 0.1, 0.0]) + 0.5)).astype(float)
    calls = []
    gram = _glm_blocks.Design.gram
    monkeypatch.setattr(
        _glm_blocks.Design, "gram", lambda self, W: calls.append(1) or gram(self, W)
    )
    # α > 0: no standard errors, so no Fisher information X̃ᵀWX̃ among the statistics
    m = PoissonRegressor(solver="newton-cholesky", alpha=0.01).fit(X, y)
    assert m.stop_reason_ == "grad_norm" and m.n_iter_ >= 2 and len(calls) == m.n_iter_
    fam, link = make_family("poisson"), LINKS["log"]()
    s, beta = np.ones(len(y)), np.append(m.coef_, m.intercept_) + 0.01
    args = (X, y, s, beta, fam, link, True, (y.mean(), y.max()))
    one = _glm_blocks.irls_stat(*args)  # "all": X̃ᵀ[r, Wz] in one product
    point = _glm_blocks.irls_stat(*args, parts="point")
    system = _glm_blocks.irls_stat(*args, parts="system")
    assert point["dev"] == one["dev"]
    Xt = np.column_stack([X, np.ones(len(y))])
    mu = np.exp(Xt @ beta)
    W, z = mu, Xt @ beta + (y - mu) / mu
    for key, value, terms in [
        ("XTr", point["XTr"], np.abs(Xt).T @ np.abs(y - mu)),
        ("XTWz", system["XTWz"], np.abs(Xt).T @ np.abs(W * z)),
        ("H", system["H"], np.abs(Xt).T @ (W[:, None] * np.abs(Xt))),
    ]:
        assert np.all(np.abs(value - one[key]) <= 2 * len(y) * EPS * terms), key


@pytest.mark.parametrize("family", ["poisson", "gamma", ("tweedie", 1.5), ("tweedie", 3.0)])
@pytest.mark.parametrize("weighted", [False, True])
def test_log_link_objective_in_eta_is_the_generic_one(family, weighted):
    """Under the log link, Poisson, gamma and Tweedie evaluate L and ∇L in η (one or two
    exponentials of η, dot products; :meth:`Poisson.log_link_objective`) where η is within the
    link's guards; the generic path (clips, log μ, the in-place kernel, the residual's
    division) must give the same numbers, and a design asked about another y must not reuse
    the first y's s ⊙ y. Below the guard (μ = e^η underflows to 0) the generic path answers.

    Tolerance: each quantity is a sum of n terms exact to a few ulp in either form, so the two
    differ by at most 4nε·Σ|term|: over the two parts of the kernel for D (Poisson 2s(μ +
    y|η|), gamma 2s(y/μ + |η|), Tweedie 2s(μ^(2−p)/|2−p| + yμ^(1−p)/|1−p|)) and |X̃|ᵀ(s ⊙ the
    two parts of r) for X̃ᵀr."""
    from scratchlearn.linear_model._glm_blocks import Design, deviance_kernel, objective_stat

    name, power = (family, 0.0) if isinstance(family, str) else family
    fam, link = make_family(name, power), LINKS["log"]()

    class Generic(type(fam)):
        log_link_objective = None

    generic = Generic(power) if name == "tweedie" else Generic()
    rng = np.random.default_rng(5)
    n = 5_000
    X = rng.standard_normal((n, 3))
    beta = np.array([0.4, -0.3, 0.2, 0.7])
    s = rng.uniform(0.5, 2.0, n) if weighted else np.ones(n)
    kernel = deviance_kernel(fam)
    Xt = np.column_stack([X, np.ones(n)])
    eta = Xt @ beta
    mu = np.exp(eta)
    design = Design(X, True)
    calls, in_eta = [], fam.log_link_objective
    fam.log_link_objective = lambda *args: calls.append(1) or in_eta(*args)
    for seed in (1, 2):  # the same design, two targets
        rng_y = np.random.default_rng(seed)
        y = rng_y.poisson(mu).astype(float) if name == "poisson" else rng_y.gamma(2.0, mu / 2)
        fast = objective_stat(design, y, s, beta, fam, link, True, kernel)
        ref = objective_stat(Design(X, True), y, s, beta, generic, link, True, kernel)
        if name == "poisson":
            d_terms, r_terms = mu + y * np.abs(eta), y + mu
        elif name == "gamma":
            d_terms, r_terms = y / mu + np.abs(eta), y / mu + 1
        else:
            a, b = mu ** (1 - power), mu ** (2 - power)
            d_terms = b / abs(2 - power) + y * a / abs(1 - power)
            r_terms = y * a + b
        assert abs(fast["dev"] - ref["dev"]) <= 4 * n * EPS * (2 * s @ d_terms)
        bound = 4 * n * EPS * (np.abs(Xt).T @ (s * r_terms))
        assert np.all(np.abs(fast["XTr"] - ref["XTr"]) <= bound)
    assert len(calls) == 2  # the η form answered, not the generic path
    far = objective_stat(design, y, s, np.array([0.0, 0.0, 0.0, -800.0]), fam, link, True, kernel)
    assert far["n_bad"] == 1 and len(calls) == 2  # the η form would have returned a finite L
