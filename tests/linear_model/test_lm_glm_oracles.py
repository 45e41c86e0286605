"""GLM oracles: statsmodels GLM on its bundled datasets, scikit-learn's penalised regressors."""

import math
import warnings

import numpy as np
import pytest

sm = pytest.importorskip("statsmodels.api")
from sklearn import linear_model as sk  # noqa: E402
from sklearn.datasets import load_diabetes  # noqa: E402

from scratchlearn.exceptions import ConvergenceWarning  # noqa: E402
from scratchlearn.linear_model._glm import (  # noqa: E402
    GammaRegressor,
    GeneralizedLinearRegressor,
    PoissonRegressor,
    TweedieRegressor,
)

# Tolerances. IRLS is run at tol=1e-15 and statsmodels at tol=1e-13, so both sit at the optimum
# to ~1e-9 in the coefficients (Fisher scoring for non-canonical links converges linearly, which
# is why the default tol=1e-8 is not enough for a 1e-6 comparison there). Relative 1e-6 is the
# issue's requirement for coefficients, standard errors, deviance, AIC and llf.
RTOL = 1e-6
# Deviance, null deviance, dispersion, llf, AIC and BIC are values of (or statistics at) the
# optimum: first-order insensitive to the coefficients' ~1e-8 disagreement, so they agree far
# tighter (measured worst 2.8e-11, the inverse-Gaussian dispersion). 1e-9 is that with margin.
RTOL_FIT = 1e-9


def _scotland():
    d = sm.datasets.scotland.load_pandas()
    return d.exog.to_numpy(float), d.endog.to_numpy(float)


def _randhie():
    d = sm.datasets.randhie.load_pandas()
    return d.exog.to_numpy(float), d.endog.to_numpy(float)


def _cpunish():
    d = sm.datasets.cpunish.load_pandas()
    X = d.exog.to_numpy(float)
    X[:, 3] = np.log(X[:, 3])  # statsmodels' own example takes the log of income
    return X, d.endog.to_numpy(float)


L = sm.families.links
SM_CASES = [
    ("scotland", _scotland, "gamma", "inverse", 0.0, sm.families.Gamma()),
    ("scotland", _scotland, "gamma", "log", 0.0, sm.families.Gamma(L.Log())),
    ("scotland", _scotland, "inverse_gaussian", "log", 0.0, sm.families.InverseGaussian(L.Log())),
    # canonical 1/μ² link (statsmodels flags its own tol=1e-13 as unmet, yet agrees to 4e-12)
    (
        "scotland",
        _scotland,
        "inverse_gaussian",
        "inverse_squared",
        0.0,
        sm.families.InverseGaussian(),
    ),
    ("scotland", _scotland, "normal", "identity", 0.0, sm.families.Gaussian()),
    ("scotland", _scotland, "normal", "log", 0.0, sm.families.Gaussian(L.Log())),
    ("scotland", _scotland, "tweedie", "log", 1.5, sm.families.Tweedie(L.Log(), var_power=1.5)),
    ("scotland", _scotland, "tweedie", "log", 3.0, sm.families.Tweedie(L.Log(), var_power=3.0)),
    ("randhie", _randhie, "poisson", "log", 0.0, sm.families.Poisson()),
    ("cpunish", _cpunish, "poisson", "log", 0.0, sm.families.Poisson()),
]


def _fit_sm(X, y, family, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # statsmodels' deprecation and domain chatter
        return sm.GLM(y, sm.add_constant(X, prepend=False), family=family, **kw).fit(
            tol=1e-13, maxiter=300
        )


@pytest.mark.parametrize(
    "data,load,family,link,power,sm_family",
    SM_CASES,
    ids=[f"{c[0]}-{c[2]}-{c[3]}-{c[4]}" for c in SM_CASES],
)
def test_statsmodels_glm(data, load, family, link, power, sm_family):
    X, y = load()
    ref = _fit_sm(X, y, sm_family)
    m = GeneralizedLinearRegressor(
        family=family, link=link, power=power, tol=1e-15, max_iter=300
    ).fit(X, y)
    beta = np.append(m.coef_, m.intercept_)
    np.testing.assert_allclose(beta, ref.params, rtol=RTOL)
    np.testing.assert_allclose(m.bse_, ref.bse, rtol=RTOL)
    assert m.deviance_ == pytest.approx(ref.deviance, rel=RTOL_FIT)
    assert m.null_deviance_ == pytest.approx(ref.null_deviance, rel=RTOL_FIT)
    assert m.dispersion_ == pytest.approx(ref.pearson_chi2 / ref.df_resid, rel=RTOL_FIT)
    if family == "tweedie" and power == 3.0:
        assert np.isnan(m.llf_) and np.isnan(ref.llf)  # neither has a closed form
    else:
        assert m.llf_ == pytest.approx(ref.llf, rel=RTOL_FIT)
        assert m.aic_ == pytest.approx(ref.aic, rel=RTOL_FIT)
        assert m.bic_ == pytest.approx(ref.bic, rel=RTOL_FIT)
    # summary() p-values (normal CDF by math.erfc) against statsmodels' pvalues
    p = [math.erfc(abs(c / s) / math.sqrt(2)) for c, s in zip(beta, m.bse_, strict=True)]
    np.testing.assert_allclose(p, ref.pvalues, rtol=1e-5, atol=1e-300)


@pytest.mark.parametrize(
    "link,sm_link", [("logit", L.Logit()), ("probit", L.Probit()), ("cloglog", L.CLogLog())]
)
def test_statsmodels_star98_binomial_with_trials(link, sm_link):
    d = sm.datasets.star98.load_pandas()
    X, Y = d.exog.to_numpy(float), d.endog.to_numpy(float)  # Y = (successes, failures)
    n = Y.sum(axis=1)
    ref = _fit_sm(X, Y, sm.families.Binomial(sm_link))
    m = GeneralizedLinearRegressor(family="binomial", link=link, tol=1e-15, max_iter=300).fit(
        X, Y[:, 0] / n, sample_weight=n
    )
    np.testing.assert_allclose(np.append(m.coef_, m.intercept_), ref.params, rtol=RTOL)
    np.testing.assert_allclose(m.bse_, ref.bse, rtol=RTOL)
    for ours, theirs in [
        (m.deviance_, ref.deviance),
        (m.llf_, ref.llf),
        (m.aic_, ref.aic),
        (m.null_deviance_, ref.null_deviance),
    ]:
        assert ours == pytest.approx(theirs, rel=RTOL_FIT)


def test_statsmodels_exponential_is_gamma_with_unit_scale():
    X, y = _scotland()
    ref = _fit_sm(
        X,
        y,
        sm.families.Gamma(L.Log()),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref1 = sm.GLM(y, sm.add_constant(X, prepend=False), family=sm.families.Gamma(L.Log())).fit(
            scale=1.0, tol=1e-13, maxiter=300
        )
    m = GeneralizedLinearRegressor(family="exponential", link="log", tol=1e-15).fit(X, y)
    np.testing.assert_allclose(np.append(m.coef_, m.intercept_), ref.params, rtol=RTOL)
    np.testing.assert_allclose(m.bse_, ref1.bse, rtol=RTOL)
    assert m.llf_ == pytest.approx(ref1.llf, rel=RTOL)


def test_statsmodels_case_weights():
    X, y = _cpunish()
    w = np.arange(1.0, len(y) + 1) / 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = sm.GLM(
            y, sm.add_constant(X, prepend=False), family=sm.families.Poisson(), var_weights=w
        ).fit(tol=1e-13)
    m = GeneralizedLinearRegressor(family="poisson", tol=1e-15).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(np.append(m.coef_, m.intercept_), ref.params, rtol=RTOL)
    np.testing.assert_allclose(m.bse_, ref.bse, rtol=RTOL)
    assert m.llf_ == pytest.approx(ref.llf, rel=RTOL)


# -- scikit-learn, alpha > 0 -------------------------------------------------------------------
def _diabetes():
    X, y = load_diabetes(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    counts = np.round(np.exp((y - y.mean()) / y.std()))
    return X, y, counts, y / 100.0


def _coef_close(ours, ref, rtol):
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=rtol, atol=rtol * 1e-2)
    assert ours.intercept_ == pytest.approx(ref.intercept_, rel=rtol)


@pytest.mark.parametrize("solver", ["lbfgs", "newton-cholesky"])
@pytest.mark.parametrize("alpha", [0.1, 1.0])
@pytest.mark.parametrize("name", ["poisson", "gamma"])
def test_sklearn_penalised(name, alpha, solver):
    X, _, counts, pos = _diabetes()
    y = counts if name == "poisson" else pos
    Ours, Theirs = {
        "poisson": (PoissonRegressor, sk.PoissonRegressor),
        "gamma": (GammaRegressor, sk.GammaRegressor),
    }[name]
    ref = Theirs(alpha=alpha, solver="newton-cholesky", tol=1e-12, max_iter=1000).fit(X, y)
    tol = 1e-15 if solver == "newton-cholesky" else 1e-11
    m = Ours(alpha=alpha, solver=solver, tol=tol, max_iter=1000).fit(X, y)
    # both at the optimum of the same strongly convex objective (curvature ≥ α): 1e-6 relative
    _coef_close(m, ref, 1e-6)
    np.testing.assert_allclose(m.predict(X), ref.predict(X), rtol=1e-6)
    assert m.score(X, y) == pytest.approx(ref.score(X, y), rel=1e-6)


@pytest.mark.parametrize("power", [0.0, 1.0, 1.5, 2.0, 3.0])
@pytest.mark.parametrize("link", ["auto", "log"])
def test_sklearn_tweedie(power, link):
    X, y_real, counts, pos = _diabetes()
    y = pos if power >= 2 else (counts if power >= 1 else y_real)
    ref = sk.TweedieRegressor(
        power=power, link=link, alpha=0.5, solver="newton-cholesky", tol=1e-12, max_iter=1000
    ).fit(X, y)
    m = TweedieRegressor(
        power=power, link=link, alpha=0.5, solver="newton-cholesky", tol=1e-15, max_iter=1000
    ).fit(X, y)
    _coef_close(m, ref, 1e-6)


def test_sklearn_defaults_same_objective():
    X, _, counts, _ = _diabetes()
    ref = sk.PoissonRegressor().fit(X, counts)
    m = PoissonRegressor().fit(X, counts)
    # both stop at tol=1e-4 on the gradient: predictions agree to ~1e-4
    np.testing.assert_allclose(m.predict(X), ref.predict(X), rtol=1e-3)


# -- gradient descent reaches the IRLS solution of the same objective ----------------------------
GD_CASES = [
    ("randhie", _randhie, "poisson", "log", 0.0),
    ("cpunish", _cpunish, "poisson", "log", 0.0),
    ("cpunish", _cpunish, "poisson", "log", 0.01),
    ("scotland", _scotland, "gamma", "log", 0.0),
    ("scotland", _scotland, "gamma", "inverse", 0.0),
]


@pytest.mark.parametrize(
    "data,load,family,link,alpha", GD_CASES, ids=[f"{c[0]}-{c[2]}-{c[3]}-{c[4]}" for c in GD_CASES]
)
def test_gd_agrees_with_irls(data, load, family, link, alpha):
    X, y = load()
    ref = GeneralizedLinearRegressor(family=family, link=link, alpha=alpha, tol=1e-15).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # must converge within the budget
        gd = GeneralizedLinearRegressor(
            family=family, link=link, alpha=alpha, solver="gd", max_iter=30_000
        ).fit(X, y)
    assert gd.stop_reason_ == "grad_norm" and gd.history_["grad_norm"][-1] <= gd.tol
    assert 0 < gd.n_iter_ < 30_000 and len(gd.history_["J"]) == gd.n_iter_ + 1
    # the kept iterates decrease L up to its rounding noise: L is summed as Σ kernel + Σ c(y)
    # with O(1) terms, so it is resolved to a few ε absolute (rises of 8.9e-16 are measured)
    assert np.all(np.diff(gd.history_["J"]) <= 1e-14)
    # ‖∇J‖₂ ≤ 1e-8 in standardised coordinates leaves an error of ‖∇J‖/λ_min(curvature); the
    # worst case (scotland gamma log, condition number ~1e4) measures 6e-6 relative, so 1e-4
    # (the requirement) holds with margin
    b_ref = np.append(ref.coef_, ref.intercept_)
    b_gd = np.append(gd.coef_, gd.intercept_)
    np.testing.assert_allclose(b_gd, b_ref, rtol=1e-4)
    # and the objective: L is quadratic in that error, so it agrees to ~1e-10 relative
    assert gd.history_["J"][-1] == pytest.approx(ref.history_["J"][-1], rel=1e-9)
