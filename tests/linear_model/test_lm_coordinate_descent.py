"""Lasso and ElasticNet: soft thresholding by hand, scikit-learn's oracle, exact zeros, gaps."""

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.linear_model import ElasticNet, Lasso
from scratchlearn.linear_model._coordinate_descent import enet_subgradient_loss_grad
from scratchlearn.optim import check_gradient

X_DIA, Y_DIA = load_diabetes(return_X_y=True)
SW = np.random.default_rng(0).uniform(0.5, 2.0, len(Y_DIA))


def rel(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(np.max(np.abs(b)), 1e-300)


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_orthonormal_design_is_soft_thresholding():
    # With XᵀX = n·I (orthogonal columns, ‖Xⱼ‖² = n) the lasso solution is
    # wⱼ = S(Xⱼᵀy/n, α) exactly, reached in one sweep: here Xᵀy/n = (3, −0.5, 1.2)
    n = 4
    X = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], dtype=float)
    y = X @ np.array([3.0, -0.5, 1.2])
    m = Lasso(alpha=1.0, fit_intercept=False, tol=1e-12).fit(X, y)
    assert m.coef_.tolist() == pytest.approx([2.0, 0.0, 0.2], abs=1e-12)
    assert m.coef_[1] == 0.0  # an exact zero, not a small number
    # elastic net: wⱼ = S(zⱼ, αρ) / (1 + α(1 − ρ)) with α = 1, ρ = 0.5
    m = ElasticNet(alpha=1.0, l1_ratio=0.5, fit_intercept=False, tol=1e-12).fit(X, y)
    assert m.coef_.tolist() == pytest.approx([2.5 / 1.5, 0.0, 0.7 / 1.5], abs=1e-12)
    assert n == X.shape[0]


# -- 2. oracles -------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [0.01, 0.1, 1.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("l1_ratio", [1.0, 0.3])
def test_cd_matches_sklearn(alpha, fit_intercept, weighted, l1_ratio):
    sw = SW if weighted else None
    kw = dict(alpha=alpha, fit_intercept=fit_intercept, tol=1e-12, max_iter=100_000)
    ours = ElasticNet(l1_ratio=l1_ratio, **kw).fit(X_DIA, Y_DIA, sw)
    ref = sk.ElasticNet(l1_ratio=l1_ratio, **kw).fit(X_DIA, Y_DIA, sample_weight=sw)
    # both run coordinate descent to a duality gap <= 1e-12‖y‖²: the solution is unique
    # (strictly convex on the support), so the coefficients agree to ~1e-8 relative
    assert rel(ours.coef_, ref.coef_) < 1e-8
    assert ours.intercept_ == pytest.approx(ref.intercept_, rel=1e-9)
    assert np.array_equal(ours.coef_ == 0, ref.coef_ == 0)  # the same exact zeros


@pytest.mark.parametrize("alpha", [0.05, 0.5])
def test_same_alpha_and_tol_mean_the_same(alpha):
    # default tol: identical sweep counts and duality gaps show that the stopping rule
    # (gap <= tol·‖y‖², evaluated when max|Δw| <= tol·max|w|) is scikit-learn's
    ours = Lasso(alpha=alpha).fit(X_DIA, Y_DIA)
    ref = sk.Lasso(alpha=alpha).fit(X_DIA, Y_DIA)
    assert ours.n_iter_ == ref.n_iter_
    assert ours.dual_gap_ == pytest.approx(ref.dual_gap_, rel=1e-6)
    assert rel(ours.coef_, ref.coef_) < 1e-8


def test_positive_and_multi_output():
    ours = Lasso(alpha=0.05, positive=True, tol=1e-10).fit(X_DIA, Y_DIA)
    ref = sk.Lasso(alpha=0.05, positive=True, tol=1e-10).fit(X_DIA, Y_DIA)
    assert np.all(ours.coef_ >= 0) and rel(ours.coef_, ref.coef_) < 1e-8
    Y = np.column_stack([Y_DIA, -Y_DIA])
    ours = ElasticNet(alpha=0.1, tol=1e-10).fit(X_DIA, Y)
    ref = sk.ElasticNet(alpha=0.1, tol=1e-10).fit(X_DIA, Y)
    assert ours.coef_.shape == (2, 10) and rel(ours.coef_, ref.coef_) < 1e-8


def test_random_selection_reaches_the_same_solution():
    a = Lasso(alpha=0.1, selection="random", random_state=0, tol=1e-12).fit(X_DIA, Y_DIA)
    b = Lasso(alpha=0.1, selection="random", random_state=0, tol=1e-12).fit(X_DIA, Y_DIA)
    c = Lasso(alpha=0.1, tol=1e-12).fit(X_DIA, Y_DIA)
    assert np.array_equal(a.coef_, b.coef_)  # same seed, same path
    assert rel(a.coef_, c.coef_) < 1e-7  # same optimum (gap-limited)


def test_exact_zeros_and_history():
    m = Lasso(alpha=1.0).fit(X_DIA, Y_DIA)
    assert np.sum(m.coef_ == 0.0) == 7  # scikit-learn also zeroes 7 of 10 at α = 1
    assert m.stop_reason_ == "converged"
    gaps = m.history_["dual_gap"]
    assert len(gaps) == m.n_iter_ + 1 and gaps[-1] == pytest.approx(m.dual_gap_)
    assert m.dual_gap_ <= 1e-4 * (Y_DIA - Y_DIA.mean()) @ (Y_DIA - Y_DIA.mean()) / 442
    # α above α_max = ‖Xcᵀyc‖∞ / n gives w = 0 and b = ȳ immediately
    alpha_max = np.max(np.abs((X_DIA - X_DIA.mean(0)).T @ (Y_DIA - Y_DIA.mean()))) / 442
    m = Lasso(alpha=alpha_max * 1.001).fit(X_DIA, Y_DIA)
    assert np.all(m.coef_ == 0.0) and m.intercept_ == pytest.approx(Y_DIA.mean())


def test_n_less_than_d_with_collinear_and_constant_columns():
    # 30 samples, 100 features, a duplicated column and a constant one: the lasso solution
    # still exists (and is the one scikit-learn's cd finds), the constant column gets exactly 0
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 100))
    y = X[:, :5] @ np.array([3.0, -2.0, 1.5, 1.0, -1.0]) + 0.1 * rng.standard_normal(30)
    X[:, 7] = X[:, 3]
    X[:, 9] = 4.0
    for l1_ratio in [1.0, 0.5]:
        kw = dict(alpha=0.05, l1_ratio=l1_ratio, tol=1e-12, max_iter=100_000)
        ours = ElasticNet(**kw).fit(X, y)
        ref = sk.ElasticNet(**kw).fit(X, y)
        # gap <= 1e-12‖y‖² for both, as in test_cd_matches_sklearn (measured 6e-16)
        assert rel(ours.coef_, ref.coef_) < 1e-8
        assert ours.intercept_ == pytest.approx(ref.intercept_, rel=1e-9)
        assert ours.coef_[9] == 0.0 and np.array_equal(ours.coef_ == 0, ref.coef_ == 0)
        assert np.sum(ours.coef_ == 0) > 50  # sparse: most of the 100 columns are exact zeros


def test_max_iter_warns_and_warm_start():
    with pytest.warns(ConvergenceWarning):
        m = Lasso(alpha=0.001, max_iter=2, tol=1e-12).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "max_iter" and m.n_iter_ == 2
    cold = Lasso(alpha=0.01, tol=1e-10).fit(X_DIA, Y_DIA)
    warm = Lasso(alpha=0.01, tol=1e-10, warm_start=True).fit(X_DIA, Y_DIA)
    warm.fit(X_DIA, Y_DIA)  # restarts at its own optimum: converges at once
    assert warm.n_iter_ <= 2 and rel(warm.coef_, cold.coef_) < 1e-8


def test_subgradient_solver():
    ref = Lasso(alpha=0.5, tol=1e-12).fit(X_DIA, Y_DIA)
    sub = Lasso(alpha=0.5, solver="subgradient", max_iter=3000, tol=1e-9)
    with pytest.warns(ConvergenceWarning):  # subgradient methods rarely meet a cost tolerance
        sub.fit(X_DIA, Y_DIA)

    # subgradient descent oscillates around the kinks: close in objective, no exact zeros
    def objective(m):
        r = Y_DIA - X_DIA @ m.coef_ - m.intercept_
        return 0.5 * r @ r / 442 + 0.5 * np.abs(m.coef_).sum()

    assert objective(sub) <= objective(ref) * (1 + 1e-3)
    assert sub.history_["objective"][-1] == pytest.approx(objective(sub), rel=1e-9)
    assert sub.intercept_ == pytest.approx(ref.intercept_, rel=1e-2)


def test_subgradient_objective_gradient():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((25, 5)), rng.standard_normal(25)
    s = rng.uniform(0.1, 1, 25)
    s /= s.sum()
    for fi in [True, False]:
        theta = rng.standard_normal(5 + fi)  # away from wⱼ = 0 the objective is smooth
        err = check_gradient(
            lambda t, fi=fi: enet_subgradient_loss_grad(t, X, y, s, 0.3, 0.2, fi), theta
        )
        assert err < 1e-6
    # SPEC errata: at wⱼ = 0 the subgradient of αρ|wⱼ| is taken as 0, and ∂J/∂b is the
    # (weighted, 1/n-scaled) sum of residuals Σ s̄ᵢrᵢ, not a norm
    theta = np.array([0.0, 0.7, 0.0, -0.2, 0.0, 0.4])
    _, g = enet_subgradient_loss_grad(theta, X, y, s, 0.3, 0.2, True)
    w, b = theta[:5], theta[5]
    r = X @ w + b - y
    smooth = X.T @ (s * r) + 0.2 * w
    np.testing.assert_allclose(g[:5], smooth + 0.3 * np.sign(w), rtol=1e-14, atol=1e-15)
    np.testing.assert_array_equal(g[[0, 2, 4]], smooth[[0, 2, 4]])
    assert g[5] == pytest.approx(np.sum(s * r), rel=1e-14)


def test_bad_input():
    with pytest.raises(ValueError, match="l1_ratio"):
        ElasticNet(l1_ratio=1.5).fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="selection"):
        Lasso(selection="greedy").fit(X_DIA, Y_DIA)
    with pytest.raises(TypeError):
        Lasso(l1_ratio=0.5)  # not a Lasso parameter
    assert "l1_ratio" not in Lasso().get_params()
