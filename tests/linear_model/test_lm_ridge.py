"""Ridge: the unpenalised intercept, α = 2nλ, every solver against scikit-learn."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.linear_model import Ridge

X_DIA, Y_DIA = load_diabetes(return_X_y=True)
SW = np.random.default_rng(0).uniform(0.5, 2.0, len(Y_DIA))
SOLVERS = ["auto", "cholesky", "dual", "svd", "sparse_cg"]


def rel(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / np.max(np.abs(np.asarray(b)))


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_one_feature_by_hand():
    # x = (−1, 0, 1), y = (0, 1, 5): centred, Σx² = 2, Σxy = 5, so w = 5/(2 + α) and
    # b = ȳ − x̄w = 2 for every α (the intercept is never shrunk)
    X = np.array([[-1.0], [0.0], [1.0]])
    y = np.array([0.0, 1.0, 5.0])
    for alpha in [0.0, 1.0, 3.0]:
        m = Ridge(alpha=alpha).fit(X, y)
        assert m.coef_[0] == pytest.approx(5 / (2 + alpha), abs=1e-12)
        assert m.intercept_ == pytest.approx(2.0, abs=1e-12)


def test_intercept_never_penalised():
    # The seed penalises the bias column; with a huge α and a target far from zero, a penalised
    # intercept is dragged towards 0, ours must stay at ȳ (w → 0, b → ȳ = 152.13...).
    m = Ridge(alpha=1e12).fit(X_DIA, Y_DIA)
    assert np.max(np.abs(m.coef_)) < 1e-6
    assert m.intercept_ == pytest.approx(Y_DIA.mean(), rel=1e-12)
    # and against the textbook solution with I′ = diag(1, ..., 1, 0) on [X, 1]
    Xt = np.column_stack([X_DIA, np.ones(len(Y_DIA))])
    I_prime = np.eye(11)
    I_prime[-1, -1] = 0.0
    theta = np.linalg.solve(Xt.T @ Xt + 3.0 * I_prime, Xt.T @ Y_DIA)
    m = Ridge(alpha=3.0).fit(X_DIA, Y_DIA)
    assert rel(m.coef_, theta[:-1]) < 1e-10 and m.intercept_ == pytest.approx(theta[-1])
    # shifting y shifts only the intercept
    shifted = Ridge(alpha=3.0).fit(X_DIA, Y_DIA + 1000.0)
    assert rel(shifted.coef_, m.coef_) < 1e-12
    assert shifted.intercept_ - m.intercept_ == pytest.approx(1000.0, rel=1e-12)


def test_alpha_is_2n_lambda():
    # the seed's objective (1/2n)‖y − Xw − b‖² + λ‖w‖² has gradient
    # −(1/n)Xcᵀ(yc − Xcw) + 2λw; at Ridge(α = 2nλ)'s solution it must vanish
    n, lam = len(Y_DIA), 0.01
    m = Ridge(alpha=2 * n * lam).fit(X_DIA, Y_DIA)
    r = Y_DIA - X_DIA @ m.coef_ - m.intercept_
    grad_w = -(X_DIA.T @ r) / n + 2 * lam * m.coef_
    grad_b = -r.sum() / n
    assert np.max(np.abs(grad_w)) < 1e-9 * np.max(np.abs(X_DIA.T @ Y_DIA) / n)
    assert abs(grad_b) < 1e-10
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
    # direct solves agree to rounding; CG is stopped at a 1e-10 relative residual, and
    # κ(XᵀX + αI) <= ~1e3 here, so its coefficients are within ~1e-7
    tol = 1e-7 if solver == "sparse_cg" else 1e-10
    assert rel(ours.coef_, ref.coef_) < tol
    assert ours.intercept_ == pytest.approx(ref.intercept_, rel=tol, abs=1e-6)


@pytest.mark.parametrize("solver", ["auto", "cholesky", "sparse_cg", "svd"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_sparse_input(solver, fit_intercept):
    Xs = sp.csr_matrix(np.where(np.abs(X_DIA) < 0.02, 0.0, X_DIA))
    ours = Ridge(alpha=0.5, solver=solver, fit_intercept=fit_intercept).fit(Xs, Y_DIA, SW)
    ref = sk.Ridge(alpha=0.5, fit_intercept=fit_intercept, solver="svd").fit(
        Xs.toarray(), Y_DIA, sample_weight=SW
    )
    tol = 1e-7 if solver == "sparse_cg" else 1e-10  # as in test_solvers_match_sklearn
    assert rel(ours.coef_, ref.coef_) < tol
    assert np.allclose(ours.predict(Xs), ref.predict(Xs.toarray()), rtol=tol)


def test_sparse_cg_reports_history_stop_reason_and_max_iter():
    Xs = sp.csr_matrix(np.where(np.abs(X_DIA) < 0.02, 0.0, X_DIA))
    m = Ridge(alpha=0.5, solver="sparse_cg").fit(Xs, Y_DIA)
    res = m.history_["residual_norm"]
    assert m.stop_reason_ == "converged" and res[0] == 1.0 and res[-1] <= m.tol
    assert len(res) == m.n_iter_[0] + 1
    # CG on a 10 × 10 system: 2 iterations cannot reach a 1e-10 relative residual
    with pytest.warns(ConvergenceWarning, match="sparse_cg"):
        short = Ridge(alpha=0.5, solver="sparse_cg", max_iter=2).fit(Xs, Y_DIA)
    assert short.stop_reason_ == "max_iter" and short.history_["residual_norm"][-1] > 1e-10
    direct = Ridge(alpha=0.5).fit(X_DIA, Y_DIA)
    assert direct.history_ is None and direct.stop_reason_ == "converged"


def test_n_less_than_d_uses_dual():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((30, 200)), rng.standard_normal(30)
    ours = Ridge(alpha=2.0).fit(X, y)
    assert ours.solver_ == "dual"
    ref = sk.Ridge(alpha=2.0, solver="svd").fit(X, y)
    assert rel(ours.coef_, ref.coef_) < 1e-10  # (XXᵀ + αI) is well conditioned


def test_multi_target_per_target_alpha():
    Y = np.column_stack([Y_DIA, Y_DIA**0.5])
    alphas = np.array([0.1, 10.0])
    ours = Ridge(alpha=alphas).fit(X_DIA, Y, sample_weight=SW)
    for t in range(2):
        ref = sk.Ridge(alpha=alphas[t]).fit(X_DIA, Y[:, t], sample_weight=SW)
        assert rel(ours.coef_[t], ref.coef_) < 1e-10
        assert ours.intercept_[t] == pytest.approx(ref.intercept_, rel=1e-10)


def test_alpha_zero_singular_design_falls_back():
    X = np.column_stack([X_DIA[:, :3], X_DIA[:, 0]])  # duplicated column: XᵀX singular
    ours = Ridge(alpha=0.0).fit(X, Y_DIA)
    ref = sk.LinearRegression().fit(X, Y_DIA)
    assert np.allclose(ours.predict(X), ref.predict(X), rtol=1e-8)
    assert ours.coef_[0] == pytest.approx(ours.coef_[3], rel=1e-8)  # min-norm splits evenly


def test_bad_input():
    with pytest.raises(ValueError, match="alpha"):
        Ridge(alpha=-1.0).fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="alpha"):
        Ridge(alpha=np.array([1.0, -1.0])).fit(X_DIA, np.c_[Y_DIA, Y_DIA])
    with pytest.raises(ValueError, match="solver"):
        Ridge(solver="lsqr").fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="sample_weight"):
        Ridge().fit(X_DIA, Y_DIA, sample_weight=np.ones(3))
