"""Ridge: the unpenalised intercept, α = 2nλ, every solver against scikit-learn."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from scratchlearn.exceptions import ConvergenceWarning, LinAlgWarning
from scratchlearn.linear_model import Ridge

X_DIA, Y_DIA = load_diabetes(return_X_y=True)
SW = np.random.default_rng(0).uniform(0.5, 2.0, len(Y_DIA))
SOLVERS = ["auto", "cholesky", "dual", "svd", "sparse_cg"]
EPS = np.finfo(np.float64).eps


def rel(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / np.max(np.abs(np.asarray(b)))


def kappa_ridge(X, sw=None, fit_intercept=True, alpha=0.0):
    """κ(A) of the ridge system A = XcᵀWXc + αI, (σ₁² + α)/(σ_d² + α) (σ_d = 0 when n < d)."""
    s = np.ones(len(X)) if sw is None else np.asarray(sw, dtype=float)
    Xc = X - (s @ X) / s.sum() if fit_intercept else X
    sv = np.linalg.svd(Xc * np.sqrt(s)[:, None], compute_uv=False)
    sv_min = sv[-1] if len(sv) == X.shape[1] else 0.0
    return (sv[0] ** 2 + alpha) / (sv_min**2 + alpha)


def direct_tol(X, sw=None, fit_intercept=True, alpha=0.0):
    """Relative difference of two backward-stable direct solves of one ridge problem: κ(A)·ε
    for a solve of A (Cholesky, or the SVD's σ/(σ² + α)), times n for the rounding of the
    length-n inner products that form A and Xcᵀy."""
    return len(X) * kappa_ridge(X, sw, fit_intercept, alpha) * EPS


def cg_tol(X, sw, fit_intercept, alpha, tol):
    """CG stops at ‖r‖₂ <= tol·‖b‖₂ (b = XcᵀWyc, r = b − Aw), so w − w* = −A⁻¹r and
    ‖w − w*‖₂/‖w*‖₂ <= κ(A)·tol (‖w*‖₂ >= ‖b‖₂/λ_max(A)); √d turns it into the max-norm
    relative error of ``rel``; the reference's own error adds direct_tol."""
    k = kappa_ridge(X, sw, fit_intercept, alpha)
    return np.sqrt(X.shape[1]) * k * tol + direct_tol(X, sw, fit_intercept, alpha)


def intercept_tol(X, sw, fit_intercept, coef_tol, coef):
    """b = ȳ − x̄ᵀw: ‖x̄‖₁ times the error of w, plus the rounding of the mean ȳ (nε|ȳ|)."""
    if not fit_intercept:
        return 0.0
    x_bar = np.average(X, axis=0, weights=sw)
    return np.abs(x_bar).sum() * coef_tol * np.max(np.abs(coef)) + len(X) * EPS * 200


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_one_feature_by_hand():
    # x = (−1, 0, 1), y = (0, 1, 5): centred, Σx² = 2, Σxy = 5, so w = 5/(2 + α) and
    # b = ȳ − x̄w = 2 for every α (the intercept is never shrunk)
    X = np.array([[-1.0], [0.0], [1.0]])
    y = np.array([0.0, 1.0, 5.0])
    for alpha in [0.0, 1.0, 3.0]:
        m = Ridge(alpha=alpha).fit(X, y)
        # Σx² = 2 and Σxy = 5 are exact; the 1 × 1 Cholesky solve w = (5/√g)/√g rounds three
        # times: |δw| <= 3ε|w|, kept with the factor 10 (2ε measured)
        assert abs(m.coef_[0] - 5 / (2 + alpha)) <= 30 * EPS * 5 / (2 + alpha)
        assert abs(m.intercept_ - 2.0) <= 10 * EPS * 2  # x̄ = 0 exactly: b = ȳ = 2, rounded


def test_intercept_never_penalised():
    # The seed penalises the bias column; with a huge α and a target far from zero, a penalised
    # intercept is dragged towards 0, ours must stay at ȳ (w → 0, b → ȳ = 152.13...).
    m = Ridge(alpha=1e12).fit(X_DIA, Y_DIA)
    # w = (G + αI)⁻¹c with ‖G‖ ~ 1 (unit-norm columns) and |c| <= ‖y − ȳ‖ ~ 1.6e3: w ~ c/α
    c_max = np.max(np.abs(X_DIA.T @ (Y_DIA - Y_DIA.mean())))
    assert np.max(np.abs(m.coef_)) <= 1.01 * c_max / 1e12
    # b = ȳ − x̄ᵀw with x̄ ~ 1e-17 here: ȳ to its rounding (nε)
    assert abs(m.intercept_ - Y_DIA.mean()) <= len(Y_DIA) * EPS * Y_DIA.mean()
    # and against the textbook solution with I′ = diag(1, ..., 1, 0) on [X, 1]
    Xt = np.column_stack([X_DIA, np.ones(len(Y_DIA))])
    I_prime = np.eye(11)
    I_prime[-1, -1] = 0.0
    theta = np.linalg.solve(Xt.T @ Xt + 3.0 * I_prime, Xt.T @ Y_DIA)
    m = Ridge(alpha=3.0).fit(X_DIA, Y_DIA)
    # the augmented system [X, 1] is solved by LU on the uncentred matrix: its κ includes the
    # intercept column's scale
    tol = len(Y_DIA) * np.linalg.cond(Xt.T @ Xt + 3.0 * I_prime) * EPS
    assert rel(m.coef_, theta[:-1]) <= tol
    assert abs(m.intercept_ - theta[-1]) <= tol * np.max(np.abs(theta))
    # shifting y shifts only the intercept: yc changes by the rounding of ȳ + 1000 (nε·1e3)
    shifted = Ridge(alpha=3.0).fit(X_DIA, Y_DIA + 1000.0)
    shift_tol = direct_tol(X_DIA, alpha=3.0) * (1 + 1000.0 / np.max(np.abs(Y_DIA - 152)))
    assert rel(shifted.coef_, m.coef_) <= shift_tol
    assert abs(shifted.intercept_ - m.intercept_ - 1000.0) <= len(Y_DIA) * EPS * 1152


def test_alpha_is_2n_lambda():
    # the seed's objective (1/2n)‖y − Xw − b‖² + λ‖w‖² has gradient
    # −(1/n)Xcᵀ(yc − Xcw) + 2λw; at Ridge(α = 2nλ)'s solution it must vanish
    n, lam = len(Y_DIA), 0.01
    m = Ridge(alpha=2 * n * lam).fit(X_DIA, Y_DIA)
    r = Y_DIA - X_DIA @ m.coef_ - m.intercept_
    grad_w = -(X_DIA.T @ r) / n + 2 * lam * m.coef_
    grad_b = -r.sum() / n
    # the gradient of the computed solution is the residual of the normal equations: a
    # backward-stable solve leaves it at κ(A)·nε relative to the right-hand side's size
    scale = np.max(np.abs(X_DIA.T @ (Y_DIA - Y_DIA.mean())) / n)
    assert np.max(np.abs(grad_w)) <= direct_tol(X_DIA, alpha=2 * n * lam) * scale
    assert abs(grad_b) <= len(Y_DIA) * EPS * Y_DIA.mean()  # Σr = 0 up to rounding of ȳ
    # and with the wrong mapping α = λ the gradient is clearly not zero
    m_wrong = Ridge(alpha=lam).fit(X_DIA, Y_DIA)
    r = Y_DIA - X_DIA @ m_wrong.coef_ - m_wrong.intercept_
    assert np.max(np.abs(-(X_DIA.T @ r) / n + 2 * lam * m_wrong.coef_)) > 1e-3


# -- 2. oracles -------------------------------------------------------------------------------
@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("alpha", [1e-3, 1.0, 100.0])
def test_solvers_match_sklearn(solver, fit_intercept, weighted, alpha):
    sw = SW if weighted else None
    ours = Ridge(alpha=alpha, solver=solver, fit_intercept=fit_intercept).fit(X_DIA, Y_DIA, sw)
    ref = sk.Ridge(alpha=alpha, fit_intercept=fit_intercept, solver="svd").fit(X_DIA, Y_DIA, sw)
    expected = {"auto": "cholesky"}.get(solver, solver)  # dense, d <= n
    assert ours.solver_ == expected
    if solver == "sparse_cg":
        tol = cg_tol(X_DIA, sw, fit_intercept, alpha, ours.tol)
    else:
        tol = direct_tol(X_DIA, sw, fit_intercept, alpha)
    assert rel(ours.coef_, ref.coef_) <= tol
    b_tol = intercept_tol(X_DIA, sw, fit_intercept, tol, ref.coef_)
    assert abs(ours.intercept_ - ref.intercept_) <= b_tol


@pytest.mark.parametrize("solver", ["auto", "cholesky", "sparse_cg", "svd"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_sparse_input(solver, fit_intercept):
    Xs = sp.csr_matrix(np.where(np.abs(X_DIA) < 0.02, 0.0, X_DIA))
    ours = Ridge(alpha=0.5, solver=solver, fit_intercept=fit_intercept).fit(Xs, Y_DIA, SW)
    Xd = Xs.toarray()
    ref = sk.Ridge(alpha=0.5, fit_intercept=fit_intercept, solver="svd").fit(Xd, Y_DIA, SW)
    assert ours.solver_ == {"auto": "cholesky"}.get(solver, solver)  # sparse, d <= 2000
    if solver == "sparse_cg":  # as in test_solvers_match_sklearn
        tol = cg_tol(Xd, SW, fit_intercept, 0.5, ours.tol)
    else:
        tol = direct_tol(Xd, SW, fit_intercept, 0.5)
    assert rel(ours.coef_, ref.coef_) <= tol
    # ŷ − ŷ* = Xc(w − w*) + (b − b*): ‖Xc‖ times the error of w, relative to max |ŷ*| ~ 1e2
    pred_tol = np.sqrt(kappa_ridge(Xd, SW, fit_intercept, 0.5)) * tol
    assert rel(ours.predict(Xs), ref.predict(Xd)) <= pred_tol


def test_auto_dispatch_sparse_many_features_uses_cg():
    rng = np.random.default_rng(3)
    Xs = sp.random(60, 2001, density=0.01, random_state=3, format="csr")
    y = rng.standard_normal(60)
    m = Ridge(alpha=1.0).fit(Xs, y)
    assert m.solver_ == "sparse_cg" and m.n_iter_.shape == (1,)
    ref = sk.Ridge(alpha=1.0, solver="svd").fit(Xs.toarray(), y)
    assert rel(m.coef_, ref.coef_) <= cg_tol(Xs.toarray(), None, True, 1.0, m.tol)


def test_sparse_cg_reports_history_stop_reason_and_max_iter():
    Xs = sp.csr_matrix(np.where(np.abs(X_DIA) < 0.02, 0.0, X_DIA))
    m = Ridge(alpha=0.5, solver="sparse_cg").fit(Xs, Y_DIA)
    res, obj = m.history_["grad_norm"], m.history_["objective"]
    b_norm = res[0]  # the start w = 0 has r = b = Xcᵀyc
    assert m.stop_reason_ == "converged" and res[-1] <= m.tol * b_norm
    assert len(res) == len(obj) == m.n_iter_[0] + 1 and m.n_iter_.shape == (1,)
    # the objective from CG's residual is the objective: ‖yc − Xc w‖² + α‖w‖², evaluated
    # directly at the returned w (rounding of sums of n squares of size ‖yc‖²: nε relative)
    Xd = Xs.toarray()
    Xc, yc = Xd - Xd.mean(axis=0), Y_DIA - Y_DIA.mean()
    direct_obj = np.sum((yc - Xc @ m.coef_) ** 2) + 0.5 * m.coef_ @ m.coef_
    assert obj[0] == pytest.approx(yc @ yc, rel=len(yc) * EPS)
    assert abs(obj[-1] - direct_obj) <= len(yc) * EPS * obj[0]
    # CG minimises f over growing Krylov spaces: the objective never increases (up to rounding)
    assert np.all(np.diff(obj) <= len(yc) * EPS * obj[0])
    # CG on a 10 × 10 system: 2 iterations cannot reach a 1e-10 relative residual
    with pytest.warns(ConvergenceWarning, match="sparse_cg"):
        short = Ridge(alpha=0.5, solver="sparse_cg", max_iter=2).fit(Xs, Y_DIA)
    short_res = short.history_["grad_norm"]
    assert short.stop_reason_ == "max_iter" and short_res[-1] > short.tol * short_res[0]
    direct = Ridge(alpha=0.5).fit(X_DIA, Y_DIA)
    assert direct.history_ is None and direct.stop_reason_ == "converged"
    assert direct.n_iter_ == 1  # one factorisation (the common checks want n_iter_ >= 1)
    # several targets: one history per target
    two = Ridge(alpha=0.5, solver="sparse_cg").fit(Xs, np.c_[Y_DIA, -Y_DIA])
    assert isinstance(two.history_, list) and len(two.history_) == 2
    assert two.n_iter_.shape == (2,)


def test_n_less_than_d_uses_dual():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((30, 200)), rng.standard_normal(30)
    ours = Ridge(alpha=2.0).fit(X, y)
    assert ours.solver_ == "dual"
    ref = sk.Ridge(alpha=2.0, solver="svd").fit(X, y)
    # the dual system XcXcᵀ + αI has the same nonzero spectrum as the primal one
    assert rel(ours.coef_, ref.coef_) <= direct_tol(X, alpha=2.0)


def test_multi_target_per_target_alpha():
    Y = np.column_stack([Y_DIA, Y_DIA**0.5])
    alphas = np.array([0.1, 10.0])
    ours = Ridge(alpha=alphas).fit(X_DIA, Y, sample_weight=SW)
    for t in range(2):
        ref = sk.Ridge(alpha=alphas[t]).fit(X_DIA, Y[:, t], sample_weight=SW)
        tol = direct_tol(X_DIA, SW, alpha=alphas[t])
        assert rel(ours.coef_[t], ref.coef_) <= tol
        b_tol = intercept_tol(X_DIA, SW, True, tol, ref.coef_)
        assert abs(ours.intercept_[t] - ref.intercept_) <= b_tol


def test_alpha_zero_singular_design_falls_back():
    X = np.column_stack([X_DIA[:, :3], X_DIA[:, 0]])  # duplicated column: XᵀX singular
    # α = 0 and an exactly duplicated column: G has an exactly singular 2 × 2 block, so
    # Cholesky breaks down and the declared fallback, the SVD of √W·Xc, answers, saying so
    with pytest.warns(LinAlgWarning, match="ridge system"):
        ours = Ridge(alpha=0.0).fit(X, Y_DIA)
    assert ours.solver_ == "svd"
    ref = sk.LinearRegression().fit(X, Y_DIA)
    # the minimum-norm solution; κ over the nonzero singular values of Xc governs it
    sv = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
    sv = sv[sv > max(X.shape) * EPS * sv[0]]
    tol = len(X) * (sv[0] / sv[-1]) ** 2 * EPS
    assert rel(ours.predict(X), ref.predict(X)) <= tol
    assert abs(ours.coef_[0] - ours.coef_[3]) <= tol * np.max(np.abs(ours.coef_))  # even split
    # the dual system: a zero sample makes a zero row of K = XXᵀ, an exact zero pivot
    X0 = X_DIA[:5].copy()
    X0[0] = 0.0
    with pytest.warns(LinAlgWarning, match="dual ridge system"):
        dual = Ridge(alpha=0.0, solver="dual", fit_intercept=False).fit(X0, Y_DIA[:5])
    ref = sk.LinearRegression(fit_intercept=False).fit(X0, Y_DIA[:5])  # min-norm interpolant
    # the fallback works on K (κ(K) = κ(X)² over the nonzero singular values): entries are
    # inner products of length d (dε), the SVD of the n × n K adds nε: d·n·κ²·ε
    k2 = np.linalg.cond(X0[1:]) ** 2
    assert dual.solver_ == "dual" and rel(dual.coef_, ref.coef_) <= 10 * 5 * k2 * EPS


def test_bad_input():
    with pytest.raises(ValueError, match="alpha"):
        Ridge(alpha=-1.0).fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="alpha"):
        Ridge(alpha=np.array([1.0, -1.0])).fit(X_DIA, np.c_[Y_DIA, Y_DIA])
    with pytest.raises(ValueError, match="solver"):
        Ridge(solver="lsqr").fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="sample_weight"):
        Ridge().fit(X_DIA, Y_DIA, sample_weight=np.ones(3))
