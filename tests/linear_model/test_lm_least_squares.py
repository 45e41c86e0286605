"""LinearRegression and PolynomialRegression: hand examples, oracles, conditioning, GD rules."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes
from sklearn.preprocessing import PolynomialFeatures

from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.linear_model import LinearRegression, PolynomialRegression
from scratchlearn.linear_model._least_squares import least_squares_loss_grad
from scratchlearn.optim import check_gradient

X_DIA, Y_DIA = load_diabetes(return_X_y=True)
SW = np.random.default_rng(0).uniform(0.5, 2.0, len(Y_DIA))


def rel(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / np.max(np.abs(np.asarray(b)))


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_exact_line():
    # y = 2x + 1 exactly: every solver must recover w = 2, b = 1 to rounding
    X = np.arange(5.0)[:, None]
    y = 2 * X[:, 0] + 1
    for solver in ["auto", "normal", "lstsq"]:
        m = LinearRegression(solver=solver).fit(X, y)
        assert m.coef_ == pytest.approx([2.0], abs=1e-12)
        assert m.intercept_ == pytest.approx(1.0, abs=1e-12)


def test_two_point_hand_example():
    # points (0, 1), (2, 5): slope 2, intercept 1; a weight of 3 on the first point and the
    # third point (1, 0) give the weighted least-squares line worked out by hand:
    # x̄ = (0·3 + 2 + 1)/5 = 0.6, ȳ = (3 + 5 + 0)/5 = 1.6,
    # Sxy = 3(−0.6)(−0.6) + 1.4·3.4 + 0.4·(−1.6) = 1.08 + 4.76 − 0.64 = 5.2,
    # Sxx = 3·0.36 + 1.96 + 0.16 = 3.2, w = 1.625, b = 1.6 − 0.975 = 0.625
    X = np.array([[0.0], [2.0], [1.0]])
    y = np.array([1.0, 5.0, 0.0])
    m = LinearRegression().fit(X, y, sample_weight=[3.0, 1.0, 1.0])
    assert m.coef_[0] == pytest.approx(1.625, abs=1e-12)
    assert m.intercept_ == pytest.approx(0.625, abs=1e-12)


# -- 2. oracles -------------------------------------------------------------------------------
@pytest.mark.parametrize("solver", ["auto", "normal", "lstsq"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_exact_solvers_match_sklearn(solver, fit_intercept, weighted):
    sw = SW if weighted else None
    ours = LinearRegression(solver=solver, fit_intercept=fit_intercept).fit(X_DIA, Y_DIA, sw)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X_DIA, Y_DIA, sample_weight=sw)
    # both are direct solves of a problem with κ ~ 1e2: agreement is at rounding level
    assert rel(ours.coef_, ref.coef_) < 1e-10
    assert ours.intercept_ == pytest.approx(ref.intercept_, rel=1e-10, abs=1e-8)


def test_multi_output_and_sparse():
    Y = np.column_stack([Y_DIA, np.log(Y_DIA), -Y_DIA])
    ours = LinearRegression().fit(X_DIA, Y, sample_weight=SW)
    ref = sk.LinearRegression().fit(X_DIA, Y, sample_weight=SW)
    assert ours.coef_.shape == (3, 10) and ours.predict(X_DIA).shape == (442, 3)
    assert rel(ours.coef_, ref.coef_) < 1e-10  # direct solves: rounding level
    sparse = LinearRegression().fit(sp.csr_matrix(X_DIA), Y_DIA, sample_weight=SW)
    ref1 = sk.LinearRegression().fit(X_DIA, Y_DIA, sample_weight=SW)
    assert rel(sparse.coef_, ref1.coef_) < 1e-10  # implicit centring, same normal equations
    assert sparse.intercept_ == pytest.approx(ref1.intercept_, rel=1e-10)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_gd_reaches_exact_solution(fit_intercept, weighted):
    sw = SW if weighted else None
    exact = LinearRegression(fit_intercept=fit_intercept).fit(X_DIA, Y_DIA, sw)
    gd = LinearRegression(
        solver="gd", fit_intercept=fit_intercept, tol=0.0, gtol=1e-9, max_iter=50_000
    ).fit(X_DIA, Y_DIA, sw)
    # gd on the same objective, run to ‖∇J‖ <= 1e-9 or numerical stagnation: 1e-4 relative
    assert rel(gd.coef_, exact.coef_) < 1e-4
    assert gd.intercept_ == pytest.approx(exact.intercept_, rel=1e-4, abs=1e-3)
    assert gd.history_["J"][-1] <= gd.history_["J"][0]
    assert len(gd.history_["J"]) == gd.n_iter_ + 1


def test_gd_stopping_rules():
    # cost change: a loose tol fires first
    m = LinearRegression(solver="gd", tol=1.0, gtol=0.0, max_iter=10_000).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "cost_change"
    assert abs(m.history_["J"][-1] - m.history_["J"][-2]) <= 1.0
    # gradient norm: tol=0 disables the cost rule, a loose gtol fires
    m = LinearRegression(solver="gd", tol=0.0, gtol=1.0, max_iter=10_000).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "grad_norm" and m.history_["grad_norm"][-1] <= 1.0
    assert m.history_["grad_norm"][-2] > 1.0
    # max_iter: 3 steps cannot converge, and it says so
    with pytest.warns(ConvergenceWarning):
        m = LinearRegression(solver="gd", max_iter=3).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "max_iter" and m.n_iter_ == 3


def test_gd_gradient_is_correct():
    rng = np.random.default_rng(1)
    Z, y = rng.standard_normal((30, 4)), rng.standard_normal(30)
    s = rng.uniform(0.1, 1.0, 30)
    s /= s.sum()
    for fi in [True, False]:
        theta = rng.standard_normal(4 + fi)
        err = check_gradient(lambda t, fi=fi: least_squares_loss_grad(t, Z, y, s, fi), theta)
        assert err < 1e-6  # central differences of a quadratic: ~1e-9 in practice


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
    # both return the minimum-norm solution of the centred problem
    assert rel(ours.coef_, ref.coef_) < 1e-10
    assert ours.coef_[-1] == 0.0 or abs(ours.coef_[-1]) < 1e-12
    Xw = rng.standard_normal((8, 20))  # n < d
    yw = rng.standard_normal(8)
    ours, ref = LinearRegression().fit(Xw, yw), sk.LinearRegression().fit(Xw, yw)
    assert rel(ours.coef_, ref.coef_) < 1e-8  # min-norm interpolant, κ of the SVD ~1e1
    assert np.allclose(ours.predict(Xw), yw, atol=1e-10)


@pytest.mark.parametrize("scale", [1e6, 1e-6])
def test_extreme_feature_scales(scale):
    X = X_DIA.copy()
    X[:, 3] *= scale
    ours = LinearRegression().fit(X, Y_DIA)
    base = LinearRegression().fit(X_DIA, Y_DIA)
    # rescaling a column rescales its coefficient exactly; everything else is unchanged
    expect = base.coef_.copy()
    expect[3] /= scale
    assert np.allclose(ours.coef_, expect, rtol=1e-9, atol=0)
    assert np.allclose(ours.predict(X), base.predict(X_DIA), rtol=1e-10)


def test_constant_target():
    m = LinearRegression().fit(X_DIA, np.full(442, 7.0))
    assert np.allclose(m.coef_, 0, atol=1e-12) and m.intercept_ == pytest.approx(7.0)
    m = LinearRegression(solver="gd").fit(X_DIA, np.full(442, 7.0))
    # gd starts at c = ȳ, where the gradient is already zero
    assert m.intercept_ == pytest.approx(7.0, abs=1e-12) and m.stop_reason_ == "grad_norm"


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
    # direct solves on the same basis; the cubic basis of diabetes has κ ~1e5
    assert rel(ours.coef_, ref.coef_) < 1e-7
    assert np.allclose(ours.predict(X), ref.predict(Phi), rtol=1e-9, atol=1e-7)


def test_polynomial_one_feature_basis():
    m = PolynomialRegression(degree=3).fit(
        np.array([[1.0], [2.0], [3.0], [4.0]]), [1.0, 8.0, 27.0, 64.0]
    )
    assert m.powers_.ravel().tolist() == [1, 2, 3]  # φ(x) = [x, x², x³]
    assert np.allclose(m.coef_, [0, 0, 1], atol=1e-9) and abs(m.intercept_) < 1e-9


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
