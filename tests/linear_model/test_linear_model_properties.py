"""Properties shared by the linear models (hypothesis) and the showcase."""

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from _cd_bounds import close_by_gap
from hypothesis import given, settings
from hypothesis import strategies as st

from scratchlearn.linear_model import (
    ElasticNet,
    Lasso,
    LinearRegression,
    LogisticRegression,
    PolynomialRegression,
    Ridge,
)

SEEDS = st.integers(0, 2**31 - 1)
FAST = settings(max_examples=25, deadline=None)
EPS = np.finfo(np.float64).eps


def direct_tol(X, alpha=0.0):
    """Relative (max-norm) difference of two backward-stable direct least-squares/ridge solves
    of one problem: n·κ(XcᵀXc + αI)·ε (κ² of Xc for α = 0; nε for the length-n sums)."""
    sv = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
    return len(X) * (sv[0] ** 2 + alpha) / (sv[-1] ** 2 + alpha) * EPS


def _problem(seed, n=30, d=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * rng.uniform(0.1, 10, d)
    y = X @ rng.standard_normal(d) + rng.standard_normal(n)
    return rng, X, y


@FAST
@given(SEEDS)
def test_duplicated_rows_equal_integer_weights(seed):
    rng, X, y = _problem(seed)
    k = rng.integers(0, 4, len(y))
    k[0] = max(k[0], 1)
    Xr, yr = np.repeat(X, k, axis=0), np.repeat(y, k)
    for est, tol in [
        # direct solves of one problem (n counts the repeated rows)
        (LinearRegression(), direct_tol(Xr)),
        (Ridge(alpha=0.7), direct_tol(Xr, 0.7)),
        (Lasso(alpha=0.05, tol=1e-12, max_iter=10_000), None),
    ]:
        if tol is None:
            # one objective ((1/2Σs)Σsᵢrᵢ² + α‖w‖₁ either way): both fits meet the gap rule
            # on it and agree within their recomputed gaps (_cd_bounds.close_by_gap; was
            # rtol 1e-6, atol 1e-8 from "~1e-6 in w")
            a = Lasso(alpha=0.05, tol=1e-12, max_iter=10_000).fit(X, y, k.astype(float))
            b = est.fit(Xr, yr)
            close_by_gap(a, b, X, y, alpha=0.05, tol=1e-12, sw=k.astype(float))
            continue
        a = est.fit(X, y, sample_weight=k.astype(float)).coef_.copy()
        b = est.fit(Xr, yr).coef_
        assert np.max(np.abs(a - b)) <= tol * np.max(np.abs(b))


@FAST
@given(SEEDS)
def test_row_order_does_not_matter(seed):
    rng, X, y = _problem(seed)
    perm = rng.permutation(len(y))
    for est, tol in [
        (LinearRegression(), direct_tol(X)),  # same problem, sums in another order
        (Ridge(), direct_tol(X, 1.0)),
        (ElasticNet(alpha=0.1, tol=1e-12), None),
    ]:
        if tol is None:  # the same problem: close_by_gap (was rtol 1e-7, atol 1e-10)
            a = ElasticNet(alpha=0.1, tol=1e-12).fit(X, y)
            b = est.fit(X[perm], y[perm])
            close_by_gap(a, b, X, y, alpha=0.1, l1_ratio=0.5, tol=1e-12)
            continue
        a = est.fit(X, y).coef_.copy()
        b = est.fit(X[perm], y[perm]).coef_
        assert np.max(np.abs(a - b)) <= tol * np.max(np.abs(b))


@FAST
@given(SEEDS, st.floats(-1e3, 1e3))
def test_shifting_y_moves_only_the_intercept(seed, shift):
    _, X, y = _problem(seed)
    for est, tol in [
        (LinearRegression(), direct_tol(X)),
        (Ridge(alpha=5.0), direct_tol(X, 5.0)),
        (Lasso(alpha=0.1, tol=1e-12), None),
    ]:
        a = est.fit(X, y)
        w, b = a.coef_.copy(), a.intercept_
        a.fit(X, y + shift)
        if tol is None:  # the penalty ignores b: the same problem in w, with b + shift
            # (close_by_gap on y + shift; was rtol 1e-7, atol 1e-9 on w, rel 1e-9 abs 1e-7 on b)
            before = SimpleNamespace(coef_=w, intercept_=b + shift)
            close_by_gap(a, before, X, y + shift, alpha=0.1, tol=1e-12)
            continue
        # y + shift changes yc only by the rounding of its mean, nε(|shift| + max|y|):
        # relative to ‖yc‖ that is the right-hand side's perturbation, times κ
        scale = 1 + (abs(shift) + np.max(np.abs(y))) / np.max(np.abs(y - y.mean()))
        assert np.max(np.abs(a.coef_ - w)) <= tol * scale * np.max(np.abs(w))
        # b = ȳ − x̄ᵀw: rounding of ȳ + shift plus ‖x̄‖₁ times the change of w
        b_tol = len(y) * EPS * (abs(shift) + np.max(np.abs(y))) * 10
        b_tol += np.abs(X.mean(axis=0)).sum() * tol * scale * np.max(np.abs(w))
        assert abs(a.intercept_ - (b + shift)) <= b_tol


@FAST
@given(SEEDS)
def test_logistic_probabilities_and_refit(seed):
    rng, X, y = _problem(seed, n=40)
    labels = np.digitize(y, np.quantile(y, [1 / 3, 2 / 3]))  # three classes
    m = LogisticRegression(C=0.5).fit(X, labels)
    P = m.predict_proba(X)
    # the probabilities are the softmax of the decision scores, and each row sums to one. In
    # log space z − logsumexp(z) is rounded by about ε(3 + |z − max z|), which exp turns into
    # that relative error of P <= 1; the row sum adds three such errors
    Z = m.decision_function(X)
    E = np.exp(Z - Z.max(axis=1, keepdims=True))
    tol = 3 * EPS * (3 + np.max(Z.max(axis=1, keepdims=True) - Z))
    assert np.max(np.abs(P - E / E.sum(axis=1, keepdims=True))) <= 10 * tol
    assert np.max(np.abs(P.sum(axis=1) - 1.0)) <= 10 * tol
    assert np.array_equal(m.predict(X), m.classes_[np.argmax(P, axis=1)])
    coef = m.coef_.copy()
    assert np.array_equal(m.fit(X, labels).coef_, coef)  # deterministic


def test_fit_does_not_modify_inputs_or_params():
    _, X, y = _problem(0)
    X0, y0 = X.copy(), y.copy()
    for est in [
        LinearRegression(solver="gd"),
        Ridge(),
        Lasso(),
        ElasticNet(),
        PolynomialRegression(degree=3, alpha=0.1),
        LogisticRegression(solver="gd", max_iter=50),
    ]:
        params = est.get_params()
        target = (y > 0).astype(int) if isinstance(est, LogisticRegression) else y
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, target)
        assert est.get_params() == params
        assert np.array_equal(X, X0) and np.array_equal(y, y0)


def test_no_estimator_modifies_inputs_weights_or_params():
    # every estimator and solver, on a Fortran-ordered float64 X (the layout coordinate descent
    # works in, so a careless solver could use it in place) with sample weights
    from scratchlearn.linear_model import (
        GammaRegressor,
        GeneralizedLinearRegressor,
        PoissonRegressor,
        TweedieRegressor,
    )

    rng, X, y = _problem(1)
    X = np.asfortranarray(X)
    sw = rng.uniform(0.5, 2.0, len(y))
    counts = rng.poisson(2.0, len(y)).astype(float) + 1.0
    labels = (y > np.median(y)).astype(int)
    X0, y0, sw0, c0, l0 = X.copy(), y.copy(), sw.copy(), counts.copy(), labels.copy()
    cases = [
        (LinearRegression(), y),
        (LinearRegression(solver="gd"), y),
        (LinearRegression(fit_intercept=False, solver="lstsq"), y),
        (Ridge(fit_intercept=False), y),
        (Ridge(solver="sparse_cg"), y),
        (Lasso(alpha=0.1, fit_intercept=False), y),
        (ElasticNet(alpha=0.1, solver="subgradient", max_iter=20), y),
        (LogisticRegression(solver="newton"), labels),
        (LogisticRegression(solver="lbfgs", class_weight="balanced"), labels),
        (GeneralizedLinearRegressor(family="poisson"), counts),
        (GeneralizedLinearRegressor(family="gamma", link="log", solver="gd", max_iter=50), counts),
        (PoissonRegressor(), counts),
        (GammaRegressor(solver="newton-cholesky"), counts),
        (TweedieRegressor(power=1.5), counts),
    ]
    for est, target in cases:
        params = est.get_params()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, target, sample_weight=sw)
        assert est.get_params() == params, type(est).__name__
        for now, before in [(X, X0), (y, y0), (sw, sw0), (counts, c0), (labels, l0)]:
            assert np.array_equal(now, before), type(est).__name__


def test_showcase_shows_under_and_over_fitting():
    from scratchlearn.linear_model._showcase import showcase

    text = showcase()
    rows = {
        int(line.split()[0]): [float(v) for v in line.split()[1:]]
        for line in text.splitlines()
        if line.strip()[:2].strip().isdigit()
    }
    train = [rows[k][0] for k in (1, 3, 9, 15)]
    held = [rows[k][1] for k in (1, 3, 9, 15)]
    assert train == sorted(train, reverse=True)  # training error falls with the degree
    assert held[1] < held[0] and held[3] > held[1]  # held-out: U-shaped
    assert "held-out accuracy" in text


def test_constant_target_everywhere():
    _, X, _ = _problem(3)
    y = np.full(len(X), -2.5)
    for est in [
        Ridge(alpha=3.0),
        Lasso(alpha=0.1),
        ElasticNet(alpha=0.1),
        PolynomialRegression(degree=2),
        LinearRegression(solver="lstsq"),
    ]:
        est.fit(X, y)
        assert np.allclose(est.coef_, 0.0, atol=1e-10)
        assert est.intercept_ == pytest.approx(-2.5, abs=1e-10)
        assert np.allclose(est.predict(X), -2.5)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_predictions_on_sparse_counts_equal_those_on_their_floats(fmt):
    """Sparse X is read in its own dtype (scipy's product converts each value as it reads it):
    the scores of integer counts are bit-identical to those of the same matrix as float64,
    for a binary and a three-class model, and X is left as it was."""
    import scipy.sparse as sp

    from scratchlearn.svm import LinearSVC

    rng = np.random.default_rng(0)
    counts = sp.random(300, 40, density=0.2, random_state=rng, format="csr")
    counts.data = np.ceil(5 * counts.data).astype(np.int64)
    X = counts.asformat(fmt)
    before = X.copy()
    y3 = rng.integers(0, 3, 300)
    for model, y in [
        (LogisticRegression(), y3 % 2),
        (LogisticRegression(), y3),
        (LinearSVC(C=0.01, random_state=0), y3),
        (Ridge(), y3.astype(float)),
    ]:
        model.fit(counts.astype(np.float64), y)
        scores = model.decision_function if hasattr(model, "decision_function") else model.predict
        np.testing.assert_array_equal(scores(X), scores(X.astype(np.float64)))
        np.testing.assert_array_equal(model.predict(X), model.predict(X.astype(np.float64)))
    assert X.dtype == np.int64 and (X != before).nnz == 0
