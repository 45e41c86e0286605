"""Regression metrics and deviances against scikit-learn on real model outputs, by hand, and on
bad input. Tolerance 1e-12 (relative): the same weighted means of the same unit terms."""

import itertools

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.datasets import load_diabetes, load_linnerud
from sklearn.linear_model import GammaRegressor, LinearRegression, PoissonRegressor, Ridge

from scratchlearn import metrics as M
from scratchlearn.exceptions import UndefinedMetricWarning

TOL = 1e-12


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    w = np.random.default_rng(1).uniform(0.2, 2.0, y.shape[0])
    preds = {
        "linear": LinearRegression().fit(X, y).predict(X),
        "poisson": PoissonRegressor(alpha=1e-3, max_iter=1000).fit(X, y).predict(X),
        "gamma": GammaRegressor(alpha=1e-3, max_iter=1000).fit(X, y).predict(X),
    }
    return y, preds, w


@pytest.fixture(scope="module")
def linnerud():
    X, Y = load_linnerud(return_X_y=True)
    w = np.random.default_rng(2).uniform(0.2, 2.0, Y.shape[0])
    return Y, Ridge(alpha=10.0).fit(X, Y).predict(X), w


def test_by_hand():
    y, mu = [3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]
    assert M.mean_squared_error(y, mu) == 0.375
    assert M.root_mean_squared_error(y, mu) == pytest.approx(np.sqrt(0.375), rel=1e-15)
    assert M.mean_absolute_error(y, mu) == 0.5
    # SS_res = 1.5, ȳ = 2.875, SS_tot = 29.1875
    assert M.r2_score(y, mu) == pytest.approx(1 - 1.5 / 29.1875, rel=1e-15)
    assert M.mean_tweedie_deviance(y, mu, power=0) == 0.375
    # Poisson unit deviance 2(y log(y/μ) − y + μ); y = 0 contributes 2μ
    assert M.mean_poisson_deviance([0.0, 2.0], [1.0, 2.0]) == 1.0
    assert M.mean_gamma_deviance([2.0], [2.0]) == 0.0


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("multioutput", ["raw_values", "uniform_average", [0.2, 0.3, 0.5]])
def test_multioutput_oracle(weighted, multioutput, linnerud):
    Y, pred, w = linnerud
    sw = w if weighted else None
    for name in (
        "mean_squared_error",
        "root_mean_squared_error",
        "mean_absolute_error",
        "r2_score",
    ):
        np.testing.assert_allclose(
            getattr(M, name)(Y, pred, sample_weight=sw, multioutput=multioutput),
            getattr(skm, name)(Y, pred, sample_weight=sw, multioutput=multioutput),
            rtol=TOL,
        )
    np.testing.assert_allclose(
        M.r2_score(Y, pred, sample_weight=sw, multioutput="variance_weighted"),
        skm.r2_score(Y, pred, sample_weight=sw, multioutput="variance_weighted"),
        rtol=TOL,
    )


@pytest.mark.parametrize("weighted", [False, True])
def test_single_output_oracle(weighted, diabetes):
    y, preds, w = diabetes
    sw = w if weighted else None
    mu = preds["linear"]
    for name in (
        "mean_squared_error",
        "root_mean_squared_error",
        "mean_absolute_error",
        "r2_score",
    ):
        assert getattr(M, name)(y, mu, sample_weight=sw) == pytest.approx(
            getattr(skm, name)(y, mu, sample_weight=sw), rel=TOL
        )
    for power, model in [
        (0, "linear"),
        (-1, "poisson"),
        (1, "poisson"),
        (1.5, "poisson"),
        (2, "gamma"),
        (3, "gamma"),
    ]:
        mu = preds[model]
        assert M.mean_tweedie_deviance(y, mu, sample_weight=sw, power=power) == pytest.approx(
            skm.mean_tweedie_deviance(y, mu, sample_weight=sw, power=power), rel=TOL
        )
        assert M.d2_tweedie_score(y, mu, sample_weight=sw, power=power) == pytest.approx(
            skm.d2_tweedie_score(y, mu, sample_weight=sw, power=power), rel=TOL
        )
    assert M.mean_poisson_deviance(y, preds["poisson"], sample_weight=sw) == pytest.approx(
        skm.mean_poisson_deviance(y, preds["poisson"], sample_weight=sw), rel=TOL
    )
    assert M.mean_gamma_deviance(y, preds["gamma"], sample_weight=sw) == pytest.approx(
        skm.mean_gamma_deviance(y, preds["gamma"], sample_weight=sw), rel=TOL
    )


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # scikit-learn's own 0/0 for the oracle
@pytest.mark.parametrize("force_finite", [True, False])
@pytest.mark.parametrize("multioutput", ["raw_values", "uniform_average", "variance_weighted"])
def test_r2_constant_target(force_finite, multioutput):
    Y = np.array([[1.0, 2.0, 3.0], [1.0, 2.5, 3.0], [1.0, 4.0, 3.0]])
    pred = np.array([[1.0, 2.0, 2.0], [1.0, 2.0, 3.0], [1.0, 4.0, 3.0]])
    ours = M.r2_score(Y, pred, multioutput=multioutput, force_finite=force_finite)
    theirs = skm.r2_score(Y, pred, multioutput=multioutput, force_finite=force_finite)
    np.testing.assert_allclose(ours, theirs, rtol=TOL)


def test_bad_input():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        M.mean_squared_error([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="NaN"):
        M.r2_score([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="different number of output"):
        M.mean_absolute_error(np.ones((3, 2)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="multioutput"):
        M.mean_squared_error([1.0, 2.0], [1.0, 2.0], multioutput="variance_weighted")
    with pytest.raises(ValueError, match="power"):
        M.mean_tweedie_deviance([1.0], [1.0], power=0.5)
    with pytest.raises(ValueError, match="strictly positive y_pred"):
        M.mean_poisson_deviance([1.0, 2.0], [0.0, 1.0])
    with pytest.raises(ValueError, match="strictly positive y and y_pred"):
        M.mean_gamma_deviance([0.0, 2.0], [1.0, 1.0])
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(M.r2_score([1.0], [2.0]))
    for a, b in itertools.permutations([[1.0, 2.0], [1.0, 3.0]]):
        with pytest.raises(ValueError, match="Negative"):
            M.mean_squared_error(a, b, sample_weight=[1.0, -1.0])


def test_d2_binomial_score_against_sklearn_d2_log_loss():
    # For 0/1 targets the binomial deviance is twice the log loss, so D² is the fraction of
    # log loss explained: scikit-learn's d2_log_loss_score of the two-column probabilities.
    # Both are ratios of two sums of n = 200 logs: rounding ≲ nε relative, so TOL = 1e-12.
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, size=200)
    y = (rng.uniform(size=200) < p).astype(float)
    sw = rng.uniform(0.5, 2.0, size=200)
    proba = np.column_stack([1 - p, p])
    for w in (None, sw):
        assert M.d2_binomial_score(y, p, sample_weight=w) == pytest.approx(
            skm.d2_log_loss_score(y, proba, sample_weight=w), rel=TOL
        )
    # proportions y with trials t: D = Σ 2t[y log(y/μ) + (1 − y) log((1 − y)/(1 − μ))] by hand
    t = rng.integers(1, 6, size=30).astype(float)
    yp = rng.binomial(t.astype(int), 0.4) / t
    mu = rng.uniform(0.2, 0.6, size=30)

    def dev(m):
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(yp > 0, yp * np.log(yp / m), 0.0)
            b = np.where(yp < 1, (1 - yp) * np.log((1 - yp) / (1 - m)), 0.0)
        return np.sum(2 * t * (a + b))

    expected = 1 - dev(mu) / dev(np.average(yp, weights=t))
    assert M.d2_binomial_score(yp, mu, sample_weight=t) == pytest.approx(expected, rel=TOL)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        M.d2_binomial_score([0.0, 1.5], [0.5, 0.5])
    with pytest.raises(ValueError, match="NaN"):
        M.d2_binomial_score([0.0, np.nan], [0.5, 0.5])
