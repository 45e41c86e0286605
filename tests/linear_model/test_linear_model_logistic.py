"""LogisticRegression: hand example, every solver and option against scikit-learn, separability,
sparse input, gradients and Hessians."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import brentq
from sklearn import linear_model as sk
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from scratchlearn.exceptions import ConvergenceWarning, LinAlgWarning
from scratchlearn.linear_model import LogisticRegression
from scratchlearn.linear_model._logistic import logistic_hessian, logistic_loss_grad
from scratchlearn.optim import check_gradient


def _std(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


DATA = {"breast_cancer": _std(load_breast_cancer), "iris": _std(load_iris), "wine": _std(load_wine)}


def rel(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / np.max(np.abs(np.asarray(b)))


def sk_exact(**kw):
    # scikit-learn's Newton–Cholesky run to ‖∇F‖∞ <= 1e-12 of the same 1/(CΣs)-scaled objective
    return sk.LogisticRegression(solver="newton-cholesky", tol=SK_TOL, max_iter=1000, **kw)


SK_TOL = 1e-12
EPS = np.finfo(float).eps


def curvature(est, X, y, sample_weight=None):
    """(μ, F, p): μ = λ_min of ∇²F at the fitted θ, F(θ), and p = dim θ.

    The error bounds below use strong convexity: F(θ) − F(θ*) >= (μ/2)‖θ − θ*‖² and
    ‖∇F(θ)‖₂ >= μ‖θ − θ*‖₂, with μ taken at the solution (∇²F varies by O(‖θ − θ*‖) there).
    The multinomial model is flat along a common shift of the K rows of Θ (of the intercepts,
    or of all of Θ without penalty); both fits sit on Σₖ Θₖ = 0, so θ − θ* lies in that
    subspace, where adding ½‖Σₖ Θₖ‖² to F (as our Newton does) changes nothing: its λ_min
    is a valid μ there."""
    classes, y_idx = np.unique(y, return_inverse=True)
    Kp = 1 if len(classes) == 2 else len(classes)
    s = est._sample_weights(y_idx, sample_weight, X)
    lam = 0.0 if est.penalty is None else 1.0 / (est.C * s.sum())
    fi = est.fit_intercept
    Theta = np.hstack([est.coef_, est.intercept_[:, None]]) if fi else est.coef_
    d1 = Theta.shape[1]
    Y = (y_idx[:, None] == (np.arange(Kp) + (Kp == 1))).astype(float)
    F, _ = logistic_loss_grad(Theta.ravel(), X, Y, s / s.sum(), lam, fi)
    H = logistic_hessian(Theta.ravel(), X, s / s.sum(), lam, fi, Kp)
    if Kp > 1:
        free = np.arange(d1) if est.penalty is None else np.arange(d1 - int(fi), d1)
        for j in free:
            idx = np.arange(Kp) * d1 + j
            H[np.ix_(idx, idx)] += 1.0
    return float(np.linalg.eigvalsh(H)[0]), F, H.shape[0]


def error_bound(est, X, y, sample_weight=None, mu=None):
    """Bound on ‖θ − θ_ref‖∞ from the two stopping rules: a fit stopped on ‖∇F‖∞ <= tol has
    ‖θ − θ*‖₂ <= ‖∇F(θ)‖₂/μ <= √p·tol/μ, the reference (‖∇F‖∞ <= SK_TOL) likewise, and the
    ∞-norm of a difference is at most its 2-norm: √p(tol + SK_TOL)/μ."""
    if mu is None:
        mu, _, p = curvature(est, X, y, sample_weight)
    else:
        p = est.coef_.size + est.intercept_.size * est.fit_intercept
    return np.sqrt(p) * (est.tol + SK_TOL) / mu


def proba_bound(e2, X, fit_intercept):
    """|Δpᵢₖ| <= ½‖Δzᵢ‖∞ (the softmax Jacobian diag(p) − ppᵀ has ∞-norm max 2pₖ(1 − pₖ) <= ½,
    the sigmoid's slope is <= ¼) and |Δzᵢₖ| <= ‖x̃ᵢ‖₂‖Δθ‖₂."""
    norms = np.sqrt(np.sum(X * X, axis=1) + fit_intercept)
    return 0.5 * norms.max() * e2


def objective_state(est, X, y, coef, intercept, sample_weight=None):
    """(F, G, s̄) at θ = (coef, intercept) on ``est``'s objective: F(θ), G = ‖∇F(θ)‖₂ plus the
    rounding of that gradient, and the normalised weights s̄. ∇F = (P − Y)ᵀdiag(s̄)X̃ + λW
    with |P − Y| <= 1 computed to a few ε: each entry rounds by <= (n + 4)ε Σᵢ s̄ᵢ|x̃ᵢⱼ| + 2ελ|W|."""
    classes, y_idx = np.unique(y, return_inverse=True)
    Kp = 1 if len(classes) == 2 else len(classes)
    s = est._sample_weights(y_idx, sample_weight, X)
    s_bar = s / s.sum()
    lam = 0.0 if est.penalty is None else 1.0 / (est.C * s.sum())
    fi = est.fit_intercept
    Theta = np.hstack([coef, np.reshape(intercept, (-1, 1))]) if fi else np.asarray(coef)
    Y = (y_idx[:, None] == (np.arange(Kp) + (Kp == 1))).astype(float)
    F, g = logistic_loss_grad(Theta.ravel(), X, Y, s_bar, lam, fi)
    col = np.append(np.asarray(abs(X).T @ s_bar).ravel(), 1.0) if fi else abs(X).T @ s_bar
    dg = np.sqrt(Kp) * (len(y) + 4) * EPS * np.linalg.norm(col)
    dg += 2 * EPS * lam * np.linalg.norm(coef)
    return F, np.linalg.norm(g) + dg, s_bar, np.max(np.abs(g)), dg


def assert_near_reference(ours, ref, X, y, sample_weight=None, mu=None):
    """Compares two fits of one objective F through their actual gradients (not the stop
    tolerance): with μ = λ_min ∇²F (``curvature``) and G = ‖∇F‖₂,
    ‖θ − θ*‖₂ <= G/μ and 0 <= F(θ) − F* <= G²/(2μ) for each. Asserts
    - coefficients: ‖Δθ‖∞ <= e2 = (G + G_ref)/μ;
    - objective: −G_ref²/(2μ) − r <= F − F_ref <= G²/(2μ) + r, r = 2(n + 4)ε|F| (sums of n
      positive terms): quadratic in the error, so it sees coefficient errors of √(2·excess/μ′)
      along every direction of curvature μ′;
    - probabilities: F − F* >= ½Σᵢ s̄ᵢΔzᵢᵀAᵢΔzᵢ with Aᵢ = diag(pᵢ) − pᵢpᵢᵀ ⪰ 0 (the data term's
      curvature; the penalty only adds), and Δpᵢ = AᵢΔzᵢ, so by Cauchy–Schwarz in Aᵢ
      |Δpᵢₖ| <= √(pᵢₖ(1 − pᵢₖ))·√(ΔzᵢᵀAᵢΔzᵢ) <= ½√(2(F − F*)/s̄ᵢ), for each fit; ×1.01 for A
      taken between the two points (it moves by O(Δz) ≲ 1e-4);
    - predictions: equal on every row whose reference scores keep a margin above
      |Δzᵢₖ| <= ‖x̃ᵢ‖₂e2 (binary: |zᵢ| > ‖x̃ᵢ‖e2; multiclass: top-two gap > 2‖x̃ᵢ‖e2), i.e.
      all rows but those within the coefficient bound of a tie (none of these 48 fits).
    Measured over test_matches_sklearn: probabilities <= 0.12 of their bound (L-BFGS bound
    <= 3.8e-4, was 0.04); coefficients <= 0.61 and objective <= 0.89 of theirs: these two are
    equalities when the error lies along ∇²F's slowest eigenvector, so they carry no factor
    10, and they are robust because the gradients' rounding is part of G.
    Returns (e2, the largest probability bound)."""
    if mu is None:
        mu = curvature(ours, X, y, sample_weight)[0]
    F, G, s_bar, g_inf, dg = objective_state(ours, X, y, ours.coef_, ours.intercept_, sample_weight)
    F_ref, G_ref, *_ = objective_state(ours, X, y, ref.coef_, ref.intercept_, sample_weight)
    # The bounds below widen with our own G, so a wrong fit would widen its own bound: the
    # teeth are here. A fit that reports "grad_norm" meets its rule ‖∇F‖ <= tol (∞-norm for
    # newton / lbfgs, 2-norm for gd; ‖·‖∞ <= ‖·‖₂) at the returned θ, recomputed here, up to
    # the gradient's rounding dg.
    if ours.stop_reason_ == "grad_norm":
        assert g_inf <= ours.tol + dg
    e2 = (G + G_ref) / mu
    assert np.max(np.abs(ours.coef_ - ref.coef_)) <= e2
    if ours.fit_intercept:
        assert np.max(np.abs(ours.intercept_ - ref.intercept_)) <= e2
    excess, excess_ref = G**2 / (2 * mu), G_ref**2 / (2 * mu)
    r = 2 * (len(y) + 4) * EPS * abs(F)
    assert -excess_ref - r <= F - F_ref <= excess + r
    p_bound = 1.01 * 0.5 * (np.sqrt(2 * excess / s_bar) + np.sqrt(2 * excess_ref / s_bar))
    dP = np.abs(ours.predict_proba(X) - ref.predict_proba(X))  # (n, K)
    assert np.all(dP.max(axis=1) <= p_bound)
    sq = X.multiply(X).sum(axis=1) if sp.issparse(X) else (X * X).sum(axis=1)
    norms = np.sqrt(np.asarray(sq).ravel() + ours.fit_intercept)  # ‖x̃ᵢ‖₂
    Z = ref.decision_function(X)
    if Z.ndim == 1:
        margin = np.abs(Z)
    else:
        top2 = np.sort(Z, axis=1)[:, -2:]
        margin = (top2[:, 1] - top2[:, 0]) / 2
    clear = margin > norms * e2
    assert np.array_equal(ours.predict(X)[clear], ref.predict(X)[clear])
    return e2, p_bound.max(), clear.mean()


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_symmetric_two_points_by_hand():
    # x = ±1 with labels 0/1, no intercept, C = 1: the optimum solves
    # ∂/∂w [2 log(1 + e^{−w}) + ½w²] = −2/(1 + e^{w}) + w = 0, i.e. w = 2σ(−w) → w ≈ 0.674832
    X = np.array([[-1.0], [1.0]])
    y = np.array([0, 1])
    # F(w) = [2 log(1 + e^{−w}) + ½w²]/2 (the objective over CΣs = 2), F′(w) = (w − 2σ(−w))/2,
    # F″(w) = σ(w)σ(−w) + ½ ≥ ½. w* by bracketing, to
    # xtol + rtol|w*| = 1e-16 + 4ε·0.68 < 4ε.
    w_star = brentq(lambda v: v - 2 / (1 + np.exp(v)), 0.0, 1.0, xtol=1e-16)
    # gd also stops when a step leaves F unchanged in floating point; a step from a gradient g
    # lowers F by about g²/(2F″) ≈ 0.7g², invisible once below F's resolution, ulp(F(w*) ≈ 0.53)
    # = 1.1e-16: at g < 1.3e-8. So gd is asked for 1e-7 (a decrease of 64 ulps), the second-order
    # solvers, which stop on the gradient alone, for 1e-10.
    for solver, tol in [("newton", 1e-10), ("lbfgs", 1e-10), ("gd", 1e-7)]:
        m = LogisticRegression(fit_intercept=False, solver=solver, tol=tol, max_iter=10_000).fit(
            X, y
        )
        assert m.stop_reason_ == "grad_norm"
        w, g = m.coef_[0, 0], m.history_["grad_norm"][-1]
        # w − 2σ(−w) = 2F′(w) is an identity, so its size is 2|F′(w)| = 2g (gd's standardised
        # coordinate is w itself: x has mean 0 and rms 1) up to the rounding of F′ (a few ε
        # of |w| + 1 < 2): equality by nature, and g ≤ tol by the stop rule
        assert abs(abs(w - 2 / (1 + np.exp(w))) - 2 * g) <= 8 * EPS and g <= tol
        # |w − w*| ≤ |F′(w)|/min F″ = 2g (plus w*'s 4ε): tight by nature, F″(w*) = 0.69 vs ½
        assert abs(w - w_star) <= 2 * g + 4 * EPS
    p = m.predict_proba(X)
    # predict_proba evaluates σ(w) at the same w: a few ε apart (measured ≤ 1.1e-16)
    assert p[1, 1] == pytest.approx(1 / (1 + np.exp(-w)), abs=8 * EPS)


# -- 2. oracles -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("C", [0.05, 10.0])
@pytest.mark.parametrize("weights", ["none", "sample", "balanced", "dict"])
def test_matches_sklearn(name, solver, fit_intercept, C, weights):
    X, y = DATA[name]
    sw = np.random.default_rng(1).uniform(0.5, 2, len(y)) if weights == "sample" else None
    cw = {"balanced": "balanced", "dict": {0: 2.0, 1: 0.5}}.get(weights)
    # Newton meets ‖∇F‖∞ <= 1e-10 (quadratic convergence; ∇F resolves far below F's
    # √(2ε|F|λ_max) floor). L-BFGS's line search compares values of F, whose rounding ε|F|
    # hides decreases once ‖∇F‖ ≲ √(2ε|F|λ_max) ≈ 1e-8 here (λ_max(∇²F) <= ¼(d + 1),
    # |F| <= 0.6): at tol=1e-10 it stalled in 42 of these 48 fits; tol=1e-7 is above it.
    tol = 1e-10 if solver == "newton" else 1e-7
    ours = LogisticRegression(
        C=C, fit_intercept=fit_intercept, solver=solver, tol=tol, max_iter=1000, class_weight=cw
    ).fit(X, y, sample_weight=sw)
    assert ours.stop_reason_ == "grad_norm" and ours.history_["grad_norm"][-1] <= tol
    ref = sk_exact(C=C, fit_intercept=fit_intercept, class_weight=cw).fit(X, y, sw)
    # L-BFGS cannot be asked for less than ~1e-7 (above), and μ is down to 1.4e-4 (C = 10), so
    # the worst-case distance √p·tol/μ stays ~1e-3; the comparison therefore uses the actual
    # gradients and adds the objective value and the predictions (assert_near_reference)
    assert_near_reference(ours, ref, X, y, sw)


@pytest.mark.parametrize("name", list(DATA))
def test_gd_reaches_the_exact_solution(name):
    X, y = DATA[name]
    exact = LogisticRegression(C=0.1, solver="newton", tol=1e-12).fit(X, y)
    assert exact.stop_reason_ == "grad_norm"
    gd = LogisticRegression(C=0.1, solver="gd", tol=1e-7, max_iter=50_000).fit(X, y)
    assert gd.stop_reason_ == "grad_norm" and gd.history_["grad_norm"][-1] <= 1e-7
    # gd stops on ‖∇F‖₂ <= tol in standardised coordinates θ′ = Dθ (w′ = σw, b′ = b + mᵀw),
    # where ∇²F′ = D⁻ᵀ∇²F D⁻¹; μ′ = λ_min of that, so ‖θ′ − θ′*‖₂ <= tol/μ′, and
    # θ − θ* = D⁻¹(θ′ − θ′*) gives ‖w − w*‖∞ <= tol/(μ′·min σ). The data are standardised
    # already (σ = 1, m = 0), so D = I: ‖θ − θ*‖∞ <= (1e-7 + √p·1e-12)/μ, a theorem
    # (measured worst 0.24 of it)
    mu, _, p = curvature(exact, X, y)
    assert np.max(np.abs(gd.coef_ - exact.coef_)) <= (1e-7 + np.sqrt(p) * 1e-12) / mu


@pytest.mark.parametrize("name", ["breast_cancer", "iris"])
def test_gd_default_settings_converge_without_warning(name):
    # learning_rate="auto" (1/L with Nesterov momentum) and max_iter=None (1000 for gd) reach
    # ‖∇F‖₂ <= 1e-4 on standardised data (measured 478 steps on breast cancer, 112 on iris;
    # plain descent needed 4709 and 910, and stopped at 100 with the old default)
    X, y = DATA[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        gd = LogisticRegression(solver="gd").fit(X, y)
    assert gd.stop_reason_ == "grad_norm" and gd.n_iter_[0] <= 1000
    exact = LogisticRegression(solver="newton", tol=1e-12).fit(X, y)
    mu, _, p = curvature(exact, X, y)  # the same theorem as above (measured worst 0.29 of it)
    assert np.max(np.abs(gd.coef_ - exact.coef_)) <= (1e-4 + np.sqrt(p) * 1e-12) / mu
    # a user's learning rate is used as given: plain descent with that step
    slow = LogisticRegression(solver="gd", learning_rate=0.01, max_iter=5)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        slow.fit(X, y)
    assert slow.n_iter_[0] == 5 and slow.history_["objective"][-1] < slow.history_["objective"][0]


@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
def test_unpenalised_multinomial(solver):
    # wine on two features (alcohol, malic acid): the three classes overlap, so the
    # unpenalised maximum-likelihood estimate exists (unique up to a common shift)
    X, y = DATA["wine"]
    X = X[:, :2]
    # Newton meets ‖∇F‖∞ <= 1e-11. L-BFGS's floor is ‖∇F‖ ≈ √(2ε|F|λ_max) ≈ 1e-8 here
    # (|F| ≈ 0.6, λ_max <= 0.5·3): it stalled at 1.3e-9 > 1e-11 on other machines, so it is
    # asked for 1e-7, which it meets
    tol = 1e-11 if solver == "newton" else 1e-7
    ours = LogisticRegression(penalty=None, solver=solver, tol=tol, max_iter=1000).fit(X, y)
    assert ours.stop_reason_ == "grad_norm"
    ref = sk_exact(C=np.inf).fit(X, y)
    # Σₖ wₖ = 0 by the final centring: exact up to the rounding of a mean of 3 numbers
    assert ours.coef_.sum(axis=0) == pytest.approx(np.zeros(2), abs=1e-14)
    # the same representative (Σₖ = 0 for weights and intercepts); the probabilities do not move
    ref.coef_ = ref.coef_ - ref.coef_.mean(axis=0)
    ref.intercept_ = ref.intercept_ - ref.intercept_.mean()
    # compared through the actual gradients, the objective and per-row probabilities
    # (assert_near_reference, μ = λ_min of ∇²F on the centred subspace; was the stop-rule
    # bound √p(tol + 1e-12)/μ: coefficients 1.1e-9 → 7.5e-12 (Newton), 1e-5 → 1e-6 (L-BFGS);
    # probabilities 1.9e-9 → 8.6e-12, 1.7e-5 → 1.2e-6)
    assert_near_reference(ours, ref, X, y)


def test_auto_solver_choice_and_shapes():
    X, y = DATA["breast_cancer"]
    m = LogisticRegression().fit(X, y)
    assert m.solver_ == "newton" and m.coef_.shape == (1, 30) and m.intercept_.shape == (1,)
    assert m.decision_function(X).shape == (569,) and m.predict_proba(X).shape == (569, 2)
    assert np.allclose(m.predict_log_proba(X), np.log(m.predict_proba(X)))
    Xs = sp.csr_matrix(X)
    assert LogisticRegression().fit(Xs, y).solver_ == "lbfgs"
    X3, y3 = DATA["wine"]
    m = LogisticRegression().fit(X3, y3)
    assert m.coef_.shape == (3, 13) and m.decision_function(X3).shape == (178, 3)
    assert np.allclose(m.predict_proba(X3).sum(axis=1), 1.0)


def test_sparse_lbfgs_matches_an_exact_solver():
    # a wide sparse problem (5,000 columns, 0.2% dense): lbfgs on CSR, never densified.
    # scikit-learn's lbfgs stops early (its own line-search floor), so the reference is its
    # newton-cg at ‖∇F‖∞ <= 1e-10 instead
    rng = np.random.default_rng(0)
    X = sp.random(600, 5_000, density=0.002, format="csr", random_state=0)
    y = (X @ rng.standard_normal(5_000) > 0).astype(int)
    ours = LogisticRegression(C=10.0, tol=1e-7, max_iter=1000).fit(X, y)
    ref = sk.LogisticRegression(C=10.0, solver="newton-cg", tol=1e-10, max_iter=1000).fit(X, y)
    assert ours.solver_ == "lbfgs" and ours.stop_reason_ == "grad_norm"
    # n < d: ∇²F = data term (PSD, rank <= n) + λI, so μ = λ = 1/(C·n) bounds it below. The
    # stop-rule bound √p·tol/λ (p = 5001, tol 1e-6) gave 0.33 on the probabilities; at tol 1e-7
    # (the L-BFGS floor, see test_matches_sklearn) the actual ‖∇F‖₂ and
    # the excess F − F* <= ‖∇F‖₂²/(2λ) give the bounds of assert_near_reference instead
    _, p_bound, _ = assert_near_reference(ours, ref, X, y, mu=1.0 / (10.0 * 600))
    assert p_bound <= 1e-3  # the bound is 2e-4 here (measured 2.2e-5)


def test_bag_of_words_20000_columns_reaches_optimality():
    # 20,000 columns: check first-order optimality directly, C Σ (p − y)xᵢ + w = 0
    rng = np.random.default_rng(1)
    X = sp.random(800, 20_000, density=0.002, format="csr", random_state=1)
    y = (X @ rng.standard_normal(20_000) > 0).astype(int)
    # one BLAS thread: on a loaded 2-core machine, threaded dots of 20,000-vectors inside
    # L-BFGS's two-loop recursion spin-wait and run ~30x slower
    with threadpool_limits(1):
        m = LogisticRegression(C=1.0, tol=1e-7, max_iter=2000).fit(X, y)
    r = m.predict_proba(X)[:, 1] - y
    grad_w = X.T @ r + m.coef_[0]  # gradient of C Σℓ + ½‖w‖² with C = 1
    # ‖∇F‖∞ <= 1e-7 on the objective divided by CΣs = 800: ‖∇‖∞ <= 800 · 1e-7
    assert np.max(np.abs(grad_w)) <= 800 * 1e-7 * 1.01 and abs(r.sum()) <= 800 * 1e-7 * 1.01


def test_intercept_never_penalised():
    # C → 0 shrinks W to 0; an unpenalised intercept then fits the class frequencies,
    # b = logit(ȳ) (binary) and b_k = log π_k − mean_k log π_k (multinomial, Σₖ bₖ = 0).
    # The seed's bug (the bias column penalised like the rest) would drive b to 0 as well.
    X, y = DATA["breast_cancer"]
    p = y.mean()
    # Newton solves for b from the gradient: b to rounding (measured 1e-14). L-BFGS accepts a
    # step by comparing objective values, so it stalls where F stops resolving b: near the
    # optimum F = F* + ½hΔb² with h = ∂²F/∂b² = p(1 − p) (w ≈ 0), and F (the mean log-loss,
    # F* = −p log p − (1 − p) log(1 − p)) is a sum of n terms, exact to n·ε·F at worst, so the
    # stalled |Δb| <= √(2nεF*/h): 8.4e-7 here (measured 1e-10 to 2.3e-10, on two CPUs). The
    # seed's bug (b penalised too) puts b at 0, 0.52 away.
    n, eps = len(y), np.finfo(float).eps
    F_star = -(p * np.log(p) + (1 - p) * np.log(1 - p))
    resolution = {"newton": 1e-10, "lbfgs": np.sqrt(2 * n * eps * F_star / (p * (1 - p)))}
    for solver in ["newton", "lbfgs"]:
        with warnings.catch_warnings():  # lbfgs: "stalled" before tol=1e-14, as said above
            warnings.simplefilter("ignore", ConvergenceWarning)
            m = LogisticRegression(C=1e-10, solver=solver, tol=1e-14, max_iter=1000).fit(X, y)
        # |w| ≈ C·|Σ(y − p̄)x| ~ 1e-8
        assert np.max(np.abs(m.coef_)) < 1e-6
        assert m.intercept_[0] == pytest.approx(np.log(p / (1 - p)), abs=resolution[solver])
    X3, y3 = DATA["wine"]
    log_prior = np.log(np.bincount(y3) / len(y3))
    m = LogisticRegression(C=1e-10, tol=1e-14).fit(X3, y3)
    assert np.max(np.abs(m.coef_)) < 1e-6
    np.testing.assert_allclose(m.intercept_, log_prior - log_prior.mean(), atol=1e-10)


def test_separable_unpenalised_warns_and_stays_finite():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    for solver in ["newton", "lbfgs", "gd"]:
        with pytest.warns(ConvergenceWarning, match="separable"):
            m = LogisticRegression(penalty=None, solver=solver, max_iter=500).fit(X, y)
        assert np.all(np.isfinite(m.coef_)) and np.all(np.isfinite(m.intercept_))
        assert m.stop_reason_ == "separable"
        assert np.array_equal(m.predict(X), y)
        assert np.all(np.isfinite(m.predict_log_proba(X * 1e6)))  # no overflow far away


def test_extreme_scales_and_constant_column():
    X, y = DATA["breast_cancer"]
    Xw = np.column_stack([X[:, :5] * 1e6, X[:, 5:10] * 1e-6, np.ones(len(y))])
    # the constant column makes the Hessian singular: the Newton solve says it added τI
    with pytest.warns(LinAlgWarning, match="Newton system"):
        ours = LogisticRegression(penalty=None, tol=1e-10).fit(Xw, y)
    base = LogisticRegression(penalty=None, tol=1e-10).fit(X[:, :10], y)
    # an unpenalised fit is equivariant to column scaling; the constant column duplicates the
    # intercept
    assert np.allclose(ours.predict_proba(Xw), base.predict_proba(X[:, :10]), atol=1e-7)


def test_string_labels_and_single_class():
    X, y = DATA["iris"]
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    m = LogisticRegression().fit(X, labels)
    assert set(m.predict(X)) <= set(labels) and list(m.classes_) == sorted(set(labels))
    with pytest.raises(ValueError, match="at least 2 classes"):
        LogisticRegression().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="C"):
        LogisticRegression(C=0).fit(X, y)
    with pytest.raises(ValueError, match="penalty"):
        LogisticRegression(penalty="l1").fit(X, y)
    with pytest.raises(ValueError, match="not in y"):
        LogisticRegression(class_weight={7: 1.0}).fit(X, y)


# -- gradients --------------------------------------------------------------------------------
@pytest.mark.parametrize("Kp", [1, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_loss_gradient_and_hessian(Kp, fit_intercept):
    rng = np.random.default_rng(0)
    n, d = 40, 3
    X = rng.standard_normal((n, d))
    idx = rng.integers(0, max(Kp, 2), n)
    Y = (idx[:, None] == np.arange(Kp) + (Kp == 1)).astype(float)
    s = rng.uniform(0.2, 1.0, n)
    s /= s.sum()
    theta = rng.standard_normal(Kp * (d + fit_intercept))

    def fun(t):
        return logistic_loss_grad(t, X, Y, s, 0.3, fit_intercept)

    assert check_gradient(fun, theta) < 1e-6  # analytic vs central differences
    # the Hessian is the Jacobian of the gradient: check it column by column
    H = logistic_hessian(theta, X, s, 0.3, fit_intercept, Kp)
    eps = 1e-6
    for j in range(len(theta)):
        e = np.zeros_like(theta)
        e[j] = eps
        col = (fun(theta + e)[1] - fun(theta - e)[1]) / (2 * eps)
        assert np.allclose(H[:, j], col, atol=1e-7)  # central differences: O(eps²) ~ 1e-12
    # and the sparse path gives the same loss and gradient
    F_sp, g_sp = logistic_loss_grad(theta, sp.csr_matrix(X), Y, s, 0.3, fit_intercept)
    F, g = fun(theta)
    assert F_sp == pytest.approx(F, rel=1e-14) and np.allclose(g_sp, g, rtol=1e-13)


# -- branches: warm start, gd on sparse / weighted data, solver dispatch ----------------------
def test_warm_start_takes_fewer_iterations_and_restarts_on_new_shapes():
    # a regularisation path: the C = 0.5 solution is a good start for C = 1
    X, y = DATA["breast_cancer"]
    m = LogisticRegression(C=0.5, solver="lbfgs", tol=1e-6, warm_start=True, max_iter=1000)
    m.fit(X, y).set_params(C=1.0).fit(X, y)
    cold = LogisticRegression(C=1.0, solver="lbfgs", tol=1e-6, max_iter=1000).fit(X, y)
    assert m.n_iter_[0] < cold.n_iter_[0] and m.stop_reason_ == "grad_norm"
    # both stop on ‖∇F‖∞ <= 1e-6: within 2√p·1e-6/μ of each other (a theorem)
    mu, _, p = curvature(cold, X, y)
    assert np.max(np.abs(m.coef_ - cold.coef_)) <= 2 * np.sqrt(p) * 1e-6 / mu
    # three classes: the stored (1, d+1) solution does not fit (3, d+1); starts from zero
    cold = LogisticRegression(C=1.0, solver="lbfgs", tol=1e-6, max_iter=1000)
    X3, y3 = DATA["iris"]
    m.fit(X3, y3)
    assert m.n_iter_[0] == cold.fit(X3, y3).n_iter_[0]
    np.testing.assert_array_equal(m.coef_, cold.coef_)


def _gd_against_newton(X, y, sample_weight=None, class_weight=None):
    gd = LogisticRegression(solver="gd", tol=1e-8, max_iter=20_000, class_weight=class_weight)
    gd.fit(X, y, sample_weight=sample_weight)
    exact = LogisticRegression(solver="newton", tol=1e-12, class_weight=class_weight)
    exact.fit(X.toarray() if sp.issparse(X) else X, y, sample_weight=sample_weight)
    assert gd.stop_reason_ == "grad_norm" and exact.stop_reason_ == "grad_norm"
    return gd, exact


def test_gd_on_sparse_input():
    # sparse X is not standardised (centring would densify it): θ′ = θ and the gd stop
    # ‖∇F‖₂ <= 1e-8 gives ‖θ − θ*‖₂ <= (1e-8 + √p·1e-12)/μ (measured < 0.3 of it)
    X, y = DATA["iris"]
    Xs = sp.csr_matrix(np.where(np.abs(X) < 0.5, 0.0, X))
    gd, exact = _gd_against_newton(Xs, y)
    mu, _, p = curvature(exact, Xs.toarray(), y)
    assert np.max(np.abs(gd.coef_ - exact.coef_)) <= (1e-8 + np.sqrt(p) * 1e-12) / mu


@pytest.mark.parametrize("weights", ["sample", "class"])
def test_gd_with_weights_matches_newton(weights):
    # gd standardises with the weighted m, σ: θ′ = Dθ per class row (w′ = σw, b′ = b + mᵀw),
    # F′(θ′) = F(D⁻¹θ′) has ∇²F′ = D⁻ᵀ∇²F D⁻¹, so μ′ >= μ/‖D‖₂²; the stop ‖∇F′‖₂ <= tol gives
    # ‖Δθ′‖₂ <= (tol + √p·1e-12)/μ′ and ‖Δθ‖₂ <= ‖D⁻¹‖₂‖Δθ′‖₂ (measured worst 0.13 of it)
    X, y = DATA["wine"]
    sw = np.random.default_rng(3).uniform(0.5, 2.0, len(y)) if weights == "sample" else None
    cw = {0: 2.0, 1: 0.5} if weights == "class" else None
    gd, exact = _gd_against_newton(X, y, sample_weight=sw, class_weight=cw)
    classes, y_idx = np.unique(y, return_inverse=True)
    s = exact._sample_weights(y_idx, sw, X)
    s_bar = s / s.sum()
    m = s_bar @ X
    sigma = np.sqrt(s_bar @ (X - m) ** 2)
    d = X.shape[1]
    D = np.eye(d + 1)  # θ′ = Dθ per class row: w′ = σw, b′ = b + mᵀw
    D[:d, :d] = np.diag(sigma)
    D[d, :d] = m
    Dinv = np.linalg.inv(D)
    mu, _, p = curvature(exact, X, y, sw)
    # λ_min(D⁻ᵀHD⁻¹) >= μ/‖D‖₂², and ‖Δθ‖₂ <= ‖D⁻¹‖₂‖Δθ′‖₂
    mu_prime = mu / np.linalg.norm(D, 2) ** 2
    e2 = np.linalg.norm(Dinv, 2) * (1e-8 + np.sqrt(p) * 1e-12) / mu_prime
    assert np.max(np.abs(gd.coef_ - exact.coef_)) <= e2


def test_auto_solver_dispatch():
    X, y = DATA["breast_cancer"]  # K′d̃ = 31, n(K′d̃)² = 5.5e5: Newton
    assert LogisticRegression().fit(X, y).solver_ == "newton"
    assert LogisticRegression().fit(sp.csr_matrix(X), y).solver_ == "lbfgs"  # sparse
    wide = np.repeat(X, 7, axis=1)[:, :201]  # K′d̃ = 202 > 200: L-BFGS
    assert LogisticRegression().fit(wide, y).solver_ == "lbfgs"
    tall = np.repeat(X, 100, axis=0)  # n(K′d̃)² = 56,900·961 = 5.5e7 > 5e7: L-BFGS
    assert LogisticRegression().fit(tall, np.repeat(y, 100)).solver_ == "lbfgs"
    for solver in ["newton", "lbfgs", "gd"]:
        assert LogisticRegression(solver=solver).fit(X, y).solver_ == solver


@pytest.mark.parametrize("Kp", [1, 3, 10])
def test_loss_block_against_logsumexp(Kp):
    """The data term and its gradient against SciPy's logsumexp and softmax: F = Σ s̄ᵢ(log Σₖ
    e^zᵢₖ − z_{i,yᵢ}) (two classes: log(1 + e^z) − yz), ∇ = (P − Y)ᵀdiag(s̄)X̃. The block takes the
    row maxima column by column and the row sums as products with ones, not as reductions.

    Tolerance: each row's loss is exact to a few ulp of |logsumexp| + |z_y|, and the sums over
    rows add nε of the same size: 4(n + K)ε·Σ s̄ᵢ(|logsumexp(zᵢ)| + |z_{i,yᵢ}|) for F, and
    4(n + K)ε·|X̃|ᵀs̄ for each gradient entry (|Pᵢₖ − Yᵢₖ| <= 1)."""
    from scipy.special import logsumexp, softmax

    from scratchlearn.linear_model._logistic_blocks import loss_grad_block

    rng = np.random.default_rng(1)
    n, d = 500, 4
    X = rng.standard_normal((n, d)) * 3
    idx = rng.integers(0, max(Kp, 2), n)
    Y = (idx[:, None] == np.arange(Kp) + (Kp == 1)).astype(float)
    s = rng.uniform(0.2, 1.0, n)
    s /= s.sum()
    theta = rng.standard_normal(Kp * (d + 1))
    F, grad = loss_grad_block(X, Y, s, theta, True)
    Xt = np.column_stack([X, np.ones(n)])
    Z = Xt @ theta.reshape(Kp, -1).T
    if Kp == 1:
        Z2, Y2 = np.column_stack([np.zeros(n), Z[:, 0]]), np.column_stack([1 - Y[:, 0], Y[:, 0]])
        P = softmax(Z2, axis=1)[:, 1:]
    else:
        Z2, Y2 = Z, Y
        P = softmax(Z, axis=1)
    lse, zy = logsumexp(Z2, axis=1), np.sum(Z2 * Y2, axis=1)
    size = 4 * (n + Kp) * EPS
    assert abs(F - s @ (lse - zy)) <= size * (s @ (np.abs(lse) + np.abs(zy)))
    ref = ((P - Y) * s[:, None]).T @ Xt
    assert np.all(np.abs(grad.reshape(Kp, -1) - ref) <= size * (np.abs(Xt).T @ s))
