"""LinearRegression and PolynomialRegression: hand examples, oracles, conditioning, GD rules."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes
from sklearn.preprocessing import PolynomialFeatures

from scratchlearn.exceptions import ConvergenceWarning, LinAlgWarning
from scratchlearn.linear_model import LinearRegression, PolynomialRegression
from scratchlearn.linear_model._least_squares import least_squares_loss_grad
from scratchlearn.optim import check_gradient

X_DIA, Y_DIA = load_diabetes(return_X_y=True)
SW = np.random.default_rng(0).uniform(0.5, 2.0, len(Y_DIA))
EPS = np.finfo(np.float64).eps


def rel(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / np.max(np.abs(np.asarray(b)))


def kappa(X, sw=None, fit_intercept=True, alpha=0.0):
    """κ₂ of √W·Xc over its numerically nonzero singular values (> max(n, d)·ε·σ₁, the rank
    cut-off of the SVD solver): the conditioning of the minimum-norm least-squares solution.
    With α > 0, √((σ₁² + α)/(σ_d² + α)) over all d singular values (zeros included): the square
    root of κ(XcᵀWXc + αI)."""
    s = np.ones(len(X)) if sw is None else np.asarray(sw, dtype=float)
    Xc = X - (s @ X) / s.sum() if fit_intercept else X
    sv = np.linalg.svd(Xc * np.sqrt(s)[:, None], compute_uv=False)
    if alpha > 0:
        sv_min = sv[-1] if len(sv) == X.shape[1] else 0.0
        return np.sqrt((sv[0] ** 2 + alpha) / (sv_min**2 + alpha))
    sv = sv[sv > max(X.shape) * EPS * sv[0]]
    return sv[0] / sv[-1]


def lstsq_tol(X, sw=None, fit_intercept=True, alpha=0.0):
    """Bound on the relative difference of two backward-stable least-squares solves of the same
    problem: the normal equations (Cholesky) lose κ²ε (the SVD/QR κε, plus κ²ε times the
    relative residual), and every entry of XᵀWX is an inner product of length n whose rounding
    error grows up to nε: n·κ²·ε."""
    return len(X) * kappa(X, sw, fit_intercept, alpha) ** 2 * EPS


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_exact_line():
    # y = 2x + 1 exactly: every solver must recover w = 2, b = 1 to rounding
    X = np.arange(5.0)[:, None]
    y = 2 * X[:, 0] + 1
    # relative error n·κ²·ε (κ(Xc) = 1) on w = 2; b = ȳ − x̄w adds the rounding of ȳ = 5 and
    # of x̄w = 4: a few ε times 5
    tol = lstsq_tol(X) * 2 + 10 * EPS * 5
    for solver in ["auto", "normal", "lstsq"]:
        m = LinearRegression(solver=solver).fit(X, y)
        assert abs(m.coef_[0] - 2.0) <= tol
        assert abs(m.intercept_ - 1.0) <= tol


def test_two_point_hand_example():
    # points (0, 1), (2, 5): slope 2, intercept 1; a weight of 3 on the first point and the
    # third point (1, 0) give the weighted least-squares line worked out by hand:
    # x̄ = (0·3 + 2 + 1)/5 = 0.6, ȳ = (3 + 5 + 0)/5 = 1.6,
    # Sxy = 3(−0.6)(−0.6) + 1.4·3.4 + 0.4·(−1.6) = 1.08 + 4.76 − 0.64 = 5.2,
    # Sxx = 3·0.36 + 1.96 + 0.16 = 3.2, w = 1.625, b = 1.6 − 0.975 = 0.625
    X = np.array([[0.0], [2.0], [1.0]])
    y = np.array([1.0, 5.0, 0.0])
    sw = [3.0, 1.0, 1.0]
    m = LinearRegression().fit(X, y, sample_weight=sw)
    tol = lstsq_tol(X, sw) * 1.625 + 10 * EPS * 1.6  # as in test_exact_line
    assert abs(m.coef_[0] - 1.625) <= tol
    assert abs(m.intercept_ - 0.625) <= tol


# -- 2. oracles -------------------------------------------------------------------------------
@pytest.mark.parametrize("solver", ["auto", "normal", "lstsq"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_exact_solvers_match_sklearn(solver, fit_intercept, weighted):
    sw = SW if weighted else None
    ours = LinearRegression(solver=solver, fit_intercept=fit_intercept).fit(X_DIA, Y_DIA, sw)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X_DIA, Y_DIA, sample_weight=sw)
    assert ours.solver_ == ("lstsq" if solver == "lstsq" else "normal")  # κ(Xc) ≈ 22 < 1e3
    tol = lstsq_tol(X_DIA, sw, fit_intercept)  # two direct solves (κ(Xc) ≈ 22: 4.6e-11)
    assert rel(ours.coef_, ref.coef_) <= tol
    # b = ȳ − x̄ᵀw: the error of w times ‖x̄‖₁, plus the rounding of the mean ȳ (nε|ȳ|)
    x_bar = np.average(X_DIA, axis=0, weights=sw) if fit_intercept else 0 * X_DIA[0]
    y_bar = abs(np.average(Y_DIA, weights=sw))
    b_tol = np.abs(x_bar).sum() * tol * np.max(np.abs(ref.coef_)) + len(Y_DIA) * EPS * y_bar
    assert abs(ours.intercept_ - ref.intercept_) <= b_tol


def test_multi_output_and_sparse():
    Y = np.column_stack([Y_DIA, np.log(Y_DIA), -Y_DIA])
    ours = LinearRegression().fit(X_DIA, Y, sample_weight=SW)
    ref = sk.LinearRegression().fit(X_DIA, Y, sample_weight=SW)
    assert ours.coef_.shape == (3, 10) and ours.predict(X_DIA).shape == (442, 3)
    tol = lstsq_tol(X_DIA, SW)  # two direct solves
    for t in range(3):  # each target relative to its own scale
        assert rel(ours.coef_[t], ref.coef_[t]) <= tol
    ref1 = sk.LinearRegression().fit(X_DIA, Y_DIA, sample_weight=SW)
    for solver in ["auto", "normal", "lstsq"]:  # "lstsq" densifies the sparse matrix
        sparse = LinearRegression(solver=solver).fit(sp.csr_matrix(X_DIA), Y_DIA, SW)
        assert sparse.solver_ == ("lstsq" if solver == "lstsq" else "normal")
        # implicit centring XᵀWX − (Σs)x̄x̄ᵀ cancels terms of size (Σs)‖x̄‖², small here (x̄ ~
        # 1e-3 of the column norms), so the bound of the dense solve holds
        assert rel(sparse.coef_, ref1.coef_) <= tol
        assert abs(sparse.intercept_ - ref1.intercept_) <= tol * abs(ref1.intercept_)


@pytest.mark.parametrize("est", ["linear", "ridge"])
def test_sparse_without_intercept(est):
    from scratchlearn.linear_model import Ridge

    Xs = sp.csr_matrix(np.where(np.abs(X_DIA) < 0.02, 0.0, X_DIA))
    if est == "linear":
        ours = LinearRegression(fit_intercept=False).fit(Xs, Y_DIA, SW)
        ref = sk.LinearRegression(fit_intercept=False).fit(Xs.toarray(), Y_DIA, SW)
    else:
        ours = Ridge(alpha=0.5, fit_intercept=False).fit(Xs, Y_DIA, SW)
        ref = sk.Ridge(alpha=0.5, fit_intercept=False, solver="svd").fit(Xs.toarray(), Y_DIA, SW)
    assert ours.intercept_ == 0.0
    # no centring at all: the Gram matrix XᵀWX of the raw sparse matrix; for ridge, κ of
    # XᵀWX + αI is smaller than κ(X)², so the least-squares bound covers it
    assert rel(ours.coef_, ref.coef_) <= lstsq_tol(Xs.toarray(), SW, fit_intercept=False)


LD = np.longdouble  # 80-bit on x86-64 (ε_ld = 1.1e-19); the bounds below use its own ε
EPS_LD = np.finfo(LD).eps


def grad_theta(w, b, X, y, s_bar, m, sigma, fit_intercept):
    """∇J at (w, b) in θ = (v, c), v = σ⊙w, c = b + mᵀw, in long double, with a bound on its
    rounding: r = X̃θ_w − y rounds by (d + 2)ε_ld(|X̃||θ_w| + |y|) per row, the sums X̃ᵀ(s̄ r) by
    nε_ld|X̃|ᵀ(s̄|r|), the chain rule ∇_v = (∇_w − m∇_b)/σ by a few ε_ld more."""
    Xt = np.column_stack([X, np.ones(len(y))]) if fit_intercept else X
    th = np.append(w, b) if fit_intercept else np.asarray(w)
    r = Xt.astype(LD) @ th.astype(LD) - y  # (n,)
    g = Xt.T.astype(LD) @ (s_bar * r)
    a = np.abs(Xt).T @ (s_bar * (np.abs(r).astype(float) + np.abs(Xt) @ np.abs(th) + np.abs(y)))
    d = X.shape[1]
    if fit_intercept:
        g[:d], a[:d] = (g[:d] - m * g[d]) / sigma, (a[:d] + np.abs(m) * a[d]) / sigma
    else:
        g, a = g / sigma, a / sigma
    return g, (len(y) + d + 4) * EPS_LD * float(np.linalg.norm(a))


def assert_gd_within_gradient_bound(gd, X, y, sw, fit_intercept):
    """J is a quadratic in θ = (v, c) with Hessian H = Z̃ᵀdiag(s̄)Z̃, Z̃ = [(X − m)/σ, 1], so
    ‖θ − θ*‖₂ <= ‖∇J(θ)‖₂/λ_min(H) (strong convexity). GD's remaining error lies along H's
    slowest eigenvector, where this is an equality: the measured ratio is 0.9925–0.999999, so
    the bound cannot carry a factor of 10. It is made robust instead by accounting for every
    rounding explicitly: ∇J is evaluated here, in long double, at the returned (w, b) (not the
    recorded norm), with its rounding bound δg; λ_min is lowered by (d+1)²ε·tr(H) (H formed in
    long double, cast, eigvalsh backward stable); θ* is the SVD solution refined once in long
    double, θ* = θ₀ − H⁻¹∇J(θ₀), whose error is <= κ(H)(d+1)²ε‖H⁻¹∇J(θ₀)‖ + δg₀/λ_min. These
    terms are ~1e-7 of the bound, below the ≥ 7e-7 the theorem leaves.

    What gives the check its teeth is then that the recorded grad_norm is the true gradient:
    |recorded − ‖∇J‖| <= δg in float64 plus λ_max·(d + 2)ε(‖θ‖₁ + |m|ᵀ|w|) (w = v/σ and
    b = c − mᵀw round θ); measured ≤ 3e-5 of that bound. b − b* = (c − c*) − (m/σ)ᵀ(v − v*)."""
    s = np.ones(len(y)) if sw is None else sw
    s_bar = s / s.sum()
    d = X.shape[1]
    m = s_bar @ X if fit_intercept else np.zeros(d)
    sigma = np.sqrt(s_bar @ (X - m) ** 2)
    Zt = (X.astype(LD) - m) / sigma
    if fit_intercept:
        Zt = np.column_stack([Zt, np.ones(len(y), dtype=LD)])
    H = (Zt.T @ (s_bar[:, None] * Zt)).astype(float)
    lam = np.linalg.eigvalsh(H)
    lam_min = lam[0] - (d + 1) ** 2 * EPS * np.trace(H)

    def theta(w, b):
        w = np.asarray(w, dtype=LD)
        return np.append(sigma * w, b + m @ w) if fit_intercept else sigma * w

    exact = LinearRegression(fit_intercept=fit_intercept, solver="lstsq").fit(X, y, sw)
    g0, dg0 = grad_theta(exact.coef_, exact.intercept_, X, y, s_bar, m, sigma, fit_intercept)
    step = np.linalg.solve(H, g0.astype(float))
    theta_star = theta(exact.coef_, exact.intercept_) - step
    slack = lam[-1] / lam[0] * (d + 1) ** 2 * EPS * np.linalg.norm(step) + dg0 / lam_min
    g, dg = grad_theta(gd.coef_, gd.intercept_, X, y, s_bar, m, sigma, fit_intercept)
    g_norm = float(np.linalg.norm(g.astype(float)))
    dist = (g_norm + dg) / lam_min + slack
    err = (theta(gd.coef_, gd.intercept_) - theta_star).astype(float)
    assert np.linalg.norm(err) <= dist
    b_err = err[d] - (m / sigma) @ err[:d] if fit_intercept else 0.0
    assert abs(b_err) <= np.sqrt(1 + np.sum((m / sigma) ** 2)) * dist
    th = theta(gd.coef_, gd.intercept_).astype(float)
    rounding = lam[-1] * (d + 2) * EPS * (np.abs(th).sum() + np.abs(m) @ np.abs(gd.coef_))
    assert abs(gd.history_["grad_norm"][-1] - g_norm) <= dg * EPS / EPS_LD + rounding
    return dist


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_gd_reaches_exact_solution(fit_intercept, weighted):
    sw = SW if weighted else None
    gd = LinearRegression(
        solver="gd", fit_intercept=fit_intercept, tol=0.0, gtol=1e-9, max_iter=50_000
    ).fit(X_DIA, Y_DIA, sw)
    # ‖∇J‖ <= 1e-9, or J stopped changing at all (tol = 0: rounding-level stagnation)
    assert gd.stop_reason_ in {"grad_norm", "cost_change"}
    assert_gd_within_gradient_bound(gd, X_DIA, Y_DIA, sw, fit_intercept)
    J = gd.history_["objective"]
    assert J[-1] <= J[0] and len(J) == gd.n_iter_ + 1


@pytest.mark.parametrize("scaled", [True, False])
def test_gd_default_converges_without_warning_on_diabetes(scaled):
    from scratchlearn.datasets import load_diabetes as sl_diabetes

    X, y = sl_diabetes(return_X_y=True, scaled=scaled)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the first thing a learner tries must not warn
        gd = LinearRegression(solver="gd").fit(X, y)
    # Nesterov with β from κ = 470 needs ~√κ·ln(‖∇J₀‖/gtol) ≈ 22·18 ≈ 400 iterations at most;
    # plain steps of 1/L would need κ·ln(1e8) ≈ 8700 (3611 measured to the same stop)
    assert gd.stop_reason_ in {"cost_change", "grad_norm"} and gd.n_iter_ < 1000
    assert_gd_within_gradient_bound(gd, X, y, None, True)


def test_gd_float_learning_rate_is_plain_gradient_descent():
    # one step from θ₀ = (0, ȳ) with η = 0.1 and no momentum: v₁ = −η∇_vJ = η Zᵀs̄(y − ȳ)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        m = LinearRegression(solver="gd", learning_rate=0.1, max_iter=1).fit(X_DIA, Y_DIA)
    sigma = X_DIA.std(axis=0)
    Z = (X_DIA - X_DIA.mean(axis=0)) / sigma
    v1 = 0.1 * Z.T @ (Y_DIA - Y_DIA.mean()) / len(Y_DIA)
    # a handful of roundings on sums of n terms: nε relative
    assert rel(m.coef_ * sigma, v1) <= len(Y_DIA) * EPS


def test_gd_stopping_rules():
    # cost change: a loose tol fires first
    m = LinearRegression(solver="gd", tol=1.0, gtol=0.0, max_iter=10_000).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "cost_change"
    J = m.history_["objective"]
    assert abs(J[-1] - J[-2]) <= 1.0 < abs(J[1] - J[0])
    # gradient norm: tol=0 disables the cost rule, a loose gtol fires
    m = LinearRegression(solver="gd", tol=0.0, gtol=1.0, max_iter=10_000).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "grad_norm" and m.history_["grad_norm"][-1] <= 1.0
    assert m.history_["grad_norm"][-2] > 1.0
    # max_iter: 3 steps cannot converge, and it says so
    with pytest.warns(ConvergenceWarning):
        m = LinearRegression(solver="gd", max_iter=3).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "max_iter" and m.n_iter_ == 3


def test_direct_solve_record():
    m = LinearRegression().fit(X_DIA, Y_DIA)
    assert m.n_iter_ == 1 and m.history_ is None and m.stop_reason_ == "converged"


def test_gd_gradient_is_correct():
    rng = np.random.default_rng(1)
    Z, y = rng.standard_normal((30, 4)), rng.standard_normal(30)
    s = rng.uniform(0.1, 1.0, 30)
    s /= s.sum()
    h = 1e-6  # check_gradient's step
    for fi in [True, False]:
        theta = rng.standard_normal(4 + fi)
        J, g = least_squares_loss_grad(theta, Z, y, s, fi)
        err = check_gradient(lambda t, fi=fi: least_squares_loss_grad(t, Z, y, s, fi), theta)
        # central differences are exact on a quadratic; what is left is the rounding of J (a
        # sum of n terms: nε|J|) divided by the step h, relative to check_gradient's
        # denominator max(|gᵢ|, 1e-6(1 + |J|))
        floor = np.min(np.maximum(np.abs(g), 1e-6 * (1 + abs(J))))
        assert err <= len(y) * EPS * abs(J) / h / floor


# -- ill conditioning -------------------------------------------------------------------------
# NIST StRD Longley: certified coefficients (intercept first), condition number ~1e7 (raw X)
LONGLEY_CERTIFIED = [
    -3482258.63459582,
    15.0618722713733,
    -0.358191792925910e-01,
    -2.02022980381683,
    -1.03322686717359,
    -0.511041056535807e-01,
    1829.15146461355,
]


def _significant_digits(est, cert):
    return -np.log10(np.max(np.abs((np.asarray(est) - cert) / np.asarray(cert))))


def test_longley_seven_digits():
    from statsmodels.datasets import longley

    data = longley.load_pandas()
    X, y = data.exog.to_numpy(float), data.endog.to_numpy(float)
    for solver in ["auto", "lstsq"]:
        m = LinearRegression(solver=solver).fit(X, y)
        est = np.r_[m.intercept_, m.coef_]
        assert _significant_digits(est, LONGLEY_CERTIFIED) >= 7  # the task's requirement


def test_wampler1_polynomial():
    # NIST Wampler1: y = 1 + x + x² + x³ + x⁴ + x⁵ on x = 0..20, certified coefficients all 1
    x = np.arange(21.0)[:, None]
    y = 1 + x[:, 0] + x[:, 0] ** 2 + x[:, 0] ** 3 + x[:, 0] ** 4 + x[:, 0] ** 5
    m = PolynomialRegression(degree=5).fit(x, y)
    assert _significant_digits(np.r_[m.intercept_, m.coef_], np.ones(6)) >= 7


def test_collinear_constant_columns_and_n_less_than_d():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 3))
    X = np.column_stack([X, X[:, 0] + X[:, 1], np.full(20, 5.0)])  # collinear + constant
    y = X[:, 0] - 2 * X[:, 2] + 0.1 * rng.standard_normal(20)
    ours = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    assert ours.solver_ == "lstsq"  # "auto" chose the SVD: κ of the scaled Gram matrix is ∞
    # both return the minimum-norm solution of the centred problem, whose conditioning is κ
    # over the nonzero singular values
    tol = lstsq_tol(X)
    assert rel(ours.coef_, ref.coef_) <= tol
    assert abs(ours.coef_[-1]) <= tol * np.max(np.abs(ref.coef_))  # the constant column
    # "normal" insists on Cholesky: the centred constant column makes G singular (a zero
    # pivot), so it falls back to the SVD and says so
    with pytest.warns(LinAlgWarning, match="normal equations"):
        normal = LinearRegression(solver="normal").fit(X, y)
    assert normal.solver_ == "lstsq" and rel(normal.coef_, ours.coef_) <= tol
    Xw = rng.standard_normal((8, 20))  # n < d
    yw = rng.standard_normal(8)
    ours, ref = LinearRegression().fit(Xw, yw), sk.LinearRegression().fit(Xw, yw)
    assert ours.solver_ == "lstsq"  # a choice ("auto"), not a fallback: no warning
    tol = lstsq_tol(Xw)
    assert rel(ours.coef_, ref.coef_) <= tol  # the minimum-norm interpolant
    assert rel(ours.predict(Xw), yw) <= tol  # it interpolates: zero residual up to rounding
    with pytest.warns(LinAlgWarning, match="singular by construction"):
        normal = LinearRegression(solver="normal").fit(Xw, yw)
    assert normal.solver_ == "lstsq" and rel(normal.coef_, ours.coef_) <= tol


@pytest.mark.parametrize("scale", [1e6, 1e-6])
def test_extreme_feature_scales(scale):
    X = X_DIA.copy()
    X[:, 3] *= scale
    ours = LinearRegression().fit(X, Y_DIA)
    base = LinearRegression().fit(X_DIA, Y_DIA)
    assert ours.solver_ == "normal"  # the column-scaled Gram matrix does not see the scale
    # rescaling a column rescales its coefficient exactly; everything else is unchanged. In
    # the column-scaled coordinates vⱼ = ‖xⱼ‖wⱼ both fits are solves of the same problem,
    # each within lstsq_tol; predictions differ by at most κ times that
    expect = base.coef_.copy()
    expect[3] /= scale
    norms = np.linalg.norm(X - X.mean(axis=0), axis=0)
    tol = 2 * lstsq_tol(X_DIA)
    assert rel(ours.coef_ * norms, expect * norms) <= tol
    assert rel(ours.predict(X), base.predict(X_DIA)) <= kappa(X_DIA) * tol


def test_constant_target():
    # yc = 0 exactly, so XcᵀWyc = 0 and w = 0 exactly; ȳ = 7·442/442 = 7 exactly
    m = LinearRegression().fit(X_DIA, np.full(442, 7.0))
    assert np.all(m.coef_ == 0.0) and m.intercept_ == 7.0
    m = LinearRegression(solver="gd").fit(X_DIA, np.full(442, 7.0))
    # gd starts at c = ȳ, where the gradient is already zero
    assert m.intercept_ == 7.0 and m.stop_reason_ == "grad_norm" and m.n_iter_ == 0


# -- polynomial regression --------------------------------------------------------------------
@pytest.mark.parametrize("degree,interaction_only", [(1, False), (2, False), (3, True)])
@pytest.mark.parametrize("alpha", [0.0, 0.5])
def test_polynomial_matches_pipeline(degree, interaction_only, alpha):
    X = X_DIA[:, :4]
    ours = PolynomialRegression(degree=degree, alpha=alpha, interaction_only=interaction_only)
    ours.fit(X, Y_DIA, sample_weight=SW)
    pf = PolynomialFeatures(degree, interaction_only=interaction_only, include_bias=False)
    Phi = pf.fit_transform(X)
    ref = (sk.Ridge(alpha=alpha) if alpha else sk.LinearRegression()).fit(Phi, Y_DIA, SW)
    assert np.array_equal(ours.powers_, pf.powers_)  # same column order
    assert ours.n_iter_ is None and ours.stop_reason_ == "converged"  # direct solves
    # direct solves on the same basis (degree 2 is rank deficient: sex² is affine in sex); the
    # ridge system's κ² = (σ₁² + α)/(σ_d² + α) is below the least-squares one's
    tol = lstsq_tol(Phi, SW, alpha=alpha)
    assert rel(ours.coef_, ref.coef_) <= tol
    # fitted values are κ times better conditioned than coefficients: a backward-stable solve
    # is exact for G + E, ‖E‖ <= nε(σ₁² + α), so √W·Φc·δw = √W·Φc(G + αI)⁻¹(f − Eŵ) and
    # ‖√W·Φc(G + αI)⁻¹‖ = max σ/(σ² + α) <= 1/√(σ_d² + α): ‖√W δŷ‖ <= nε·κ·√(σ₁² + α)·‖w‖ per
    # solve (κ as in `kappa`); b = ȳ − x̄ᵀw and the products add nε‖√W ŷ‖. Degree 3, α = 0:
    # 5.6e-9 relative (was κ·tol = 9.2e-5)
    Phic = (Phi - SW @ Phi / SW.sum()) * np.sqrt(SW)[:, None]
    s1 = np.sqrt(np.linalg.norm(Phic, 2) ** 2 + alpha)
    y_hat = np.sqrt(SW) * ref.predict(Phi)
    n, k = len(Y_DIA), kappa(Phi, SW, alpha=alpha)
    pred_tol = 2 * n * EPS * k * s1 * np.linalg.norm(ref.coef_) + n * EPS * np.linalg.norm(y_hat)
    assert np.linalg.norm(np.sqrt(SW) * ours.predict(X) - y_hat) <= pred_tol


def test_polynomial_one_feature_basis():
    x = np.array([[1.0], [2.0], [3.0], [4.0]])
    m = PolynomialRegression(degree=3).fit(x, [1.0, 8.0, 27.0, 64.0])
    assert m.powers_.ravel().tolist() == [1, 2, 3]  # φ(x) = [x, x², x³]
    Phi = np.column_stack([x, x**2, x**3])
    tol = lstsq_tol(Phi)  # relative to the largest coefficient, 1; b = ȳ − x̄ᵀw adds ~ε·ȳ·x̄
    assert np.max(np.abs(m.coef_ - [0, 0, 1])) <= tol
    assert abs(m.intercept_) <= tol * np.abs(Phi.mean(axis=0)).sum() + 10 * EPS * 25


def test_polynomial_sample_weights_are_integer_repeats():
    X = X_DIA[:40, :2]
    k = np.random.default_rng(2).integers(1, 4, 40)
    a = PolynomialRegression(degree=2).fit(X, Y_DIA[:40], sample_weight=k.astype(float))
    b = PolynomialRegression(degree=2).fit(np.repeat(X, k, 0), np.repeat(Y_DIA[:40], k))
    Phi = a.features_.transform(X)
    assert rel(a.coef_, b.coef_) <= 2 * lstsq_tol(Phi, k)  # one problem solved twice


def test_bad_input():
    with pytest.raises(ValueError):
        LinearRegression().fit(X_DIA, Y_DIA[:-1])
    with pytest.raises(ValueError, match="NaN|nan|infinit"):
        LinearRegression().fit(np.where(X_DIA > 0.1, np.nan, X_DIA), Y_DIA)
    with pytest.raises(ValueError, match="solver"):
        LinearRegression(solver="qr").fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="single target"):
        LinearRegression(solver="gd").fit(X_DIA, np.c_[Y_DIA, Y_DIA])
    with pytest.raises(ValueError, match="features"):
        LinearRegression().fit(X_DIA, Y_DIA).predict(X_DIA[:, :3])
    with pytest.raises(ValueError, match="degree"):
        PolynomialRegression(degree=0).fit(X_DIA, Y_DIA)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LinearRegression().fit(X_DIA, Y_DIA)  # a clean fit emits no warning
