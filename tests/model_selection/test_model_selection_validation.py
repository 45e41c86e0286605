"""cross_validate, cross_val_score, learning_curve, validation_curve against scikit-learn."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import model_selection as skms
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from scratchlearn.base import BaseEstimator, RegressorMixin
from scratchlearn.model_selection import (
    FitFailedWarning,
    GroupKFold,
    KFold,
    cross_val_score,
    cross_validate,
    learning_curve,
    validation_curve,
)

# Identical estimators fitted on identical rows give bit-identical scores; 1e-12 only absorbs a
# possible difference in summation order inside the scorer.
TOL = 1e-12


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """Tiny problems: BLAS threads only contend (on a busy machine a fit took 100x longer)."""
    with threadpool_limits(1):
        yield


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def _neg_mae(est, X, y):
    return -mean_absolute_error(y, est.predict(X))


def _max_abs_err(est, X, y):
    return -float(np.max(np.abs(y - est.predict(X))))


class _Mean(RegressorMixin, BaseEstimator):
    """Predicts the training mean; refuses to fit when a row of X equals ``poison``."""

    def __init__(self, poison=None):
        self.poison = poison

    def fit(self, X, y, sample_weight=None):
        X = np.asarray(X)
        if self.poison is not None and np.any(np.all(X == self.poison, axis=1)):
            raise RuntimeError("poisoned row")
        self.mean_ = np.average(y, weights=sample_weight)
        self.n_fit_ = len(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.mean_)


# -- hand-checkable ---------------------------------------------------------------------------
def test_cross_val_score_hand_example():
    # y = 0..5, 3 folds of two; the mean of the 4 training targets predicts the 2 test targets
    X, y = np.arange(6.0).reshape(-1, 1), np.arange(6.0)

    def neg_sse(est, X, y):
        return -float(np.sum((y - est.predict(X)) ** 2))

    scores = cross_val_score(_Mean(), X, y, cv=3, scoring=neg_sse)
    # fold 0: train mean (2+3+4+5)/4 = 3.5 -> (0-3.5)²+(1-3.5)² = 18.5; fold 1: mean 2.5 -> 0.5
    assert scores.tolist() == [-18.5, -0.5, -18.5]


# -- oracles ----------------------------------------------------------------------------------
def test_cross_val_score_ridge_diabetes(diabetes):
    X, y = diabetes
    cv = list(skms.KFold(5, shuffle=True, random_state=0).split(X))
    for scoring in (None, _neg_mae):
        ours = cross_val_score(Ridge(alpha=0.5), X, y, cv=cv, scoring=scoring)
        theirs = skms.cross_val_score(Ridge(alpha=0.5), X, y, cv=cv, scoring=scoring)
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=TOL)


def test_cross_val_score_int_cv_is_stratified_for_classifiers(cancer):
    # cv=5 means StratifiedKFold(5) for a classifier in both libraries: same folds, same scores
    X, y = cancer
    ours = cross_val_score(LogisticRegression(max_iter=1000), X, y, cv=5)
    theirs = skms.cross_val_score(LogisticRegression(max_iter=1000), X, y, cv=5)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=TOL)
    iris_X, iris_y = load_iris(return_X_y=True)  # sorted by class: plain KFold would fail
    ours = cross_val_score(LogisticRegression(max_iter=1000), iris_X, iris_y)
    theirs = skms.cross_val_score(LogisticRegression(max_iter=1000), iris_X, iris_y)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=TOL)
    assert ours.min() > 0.9


def test_cross_validate_full_output(diabetes):
    X, y = diabetes
    cv = KFold(4)
    scoring = {"mae": _neg_mae, "maxerr": _max_abs_err}
    ours = cross_validate(
        Ridge(),
        X,
        y,
        cv=cv,
        scoring=scoring,
        return_train_score=True,
        return_estimator=True,
        return_indices=True,
    )
    theirs = skms.cross_validate(
        Ridge(),
        X,
        y,
        cv=skms.KFold(4),
        scoring=scoring,
        return_train_score=True,
        return_estimator=True,
        return_indices=True,
    )
    assert set(ours) == set(theirs)
    for key in ("test_mae", "test_maxerr", "train_mae", "train_maxerr"):
        np.testing.assert_allclose(ours[key], theirs[key], rtol=0, atol=TOL)
    for a, b in zip(ours["estimator"], theirs["estimator"]):
        np.testing.assert_array_equal(a.coef_, b.coef_)
    for side in ("train", "test"):
        for a, b in zip(ours["indices"][side], theirs["indices"][side]):
            np.testing.assert_array_equal(a, b)
    assert ours["fit_time"].shape == (4,) and np.all(ours["fit_time"] >= 0)
    assert ours["score_time"].shape == (4,) and np.all(ours["score_time"] >= 0)


def test_cross_validate_slices_sample_weight(diabetes):
    X, y = diabetes
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    cv = list(skms.KFold(3).split(X))
    ours = cross_validate(
        Ridge(), X, y, cv=cv, fit_params={"sample_weight": w}, return_estimator=True
    )
    theirs = skms.cross_validate(
        Ridge(), X, y, cv=cv, params={"sample_weight": w}, return_estimator=True
    )
    np.testing.assert_allclose(ours["test_score"], theirs["test_score"], rtol=0, atol=TOL)
    unweighted = cross_val_score(Ridge(), X, y, cv=cv)
    assert np.abs(ours["test_score"] - unweighted).max() > 1e-4  # the weights did matter
    # the scikit-learn name `params` works too; fold k fitted on exactly its training rows
    again = cross_validate(_Mean(), X, y, cv=cv, params={"sample_weight": w}, return_estimator=True)
    for est, (tr, _) in zip(again["estimator"], cv):
        assert est.mean_ == pytest.approx(np.average(y[tr], weights=w[tr]), rel=1e-14)


def test_learning_curve_matches_sklearn(diabetes):
    X, y = diabetes
    for sizes in (np.linspace(0.1, 1.0, 5), np.array([20, 50, 200])):
        for scoring in (None, _neg_mae):
            ours = learning_curve(
                Ridge(), X, y, cv=4, train_sizes=sizes, scoring=scoring, return_times=True
            )
            theirs = skms.learning_curve(
                Ridge(), X, y, cv=4, train_sizes=sizes, scoring=scoring, return_times=True
            )
            np.testing.assert_array_equal(ours[0], theirs[0])
            for a, b in zip(ours[1:3], theirs[1:3]):
                assert a.shape == (len(sizes), 4)
                np.testing.assert_allclose(a, b, rtol=0, atol=TOL)
            assert ours[3].shape == ours[4].shape == (len(sizes), 4)


def test_learning_curve_shuffle_properties(diabetes):
    X, y = diabetes[0][:441], diabetes[1][:441]  # 3 folds of 147: every training set is 294
    a = learning_curve(
        Ridge(), X, y, cv=3, shuffle=True, random_state=0, train_sizes=[0.2, 0.6, 1.0]
    )
    b = learning_curve(
        Ridge(), X, y, cv=3, shuffle=True, random_state=0, train_sizes=[0.2, 0.6, 1.0]
    )
    plain = learning_curve(Ridge(), X, y, cv=3, train_sizes=[0.2, 0.6, 1.0])
    assert a[0].tolist() == plain[0].tolist() == [58, 176, 294]  # ⌊f · 294⌋
    np.testing.assert_array_equal(a[2], b[2])
    # the full training set gives the same scores whatever its order (Ridge is order-free)
    np.testing.assert_allclose(a[2][-1], plain[2][-1], rtol=0, atol=1e-9)
    assert np.abs(a[2][0] - plain[2][0]).max() > 1e-6  # the small prefixes differ


def test_validation_curve_matches_sklearn(diabetes):
    X, y = diabetes
    alphas = [1e-3, 0.1, 1.0, 10.0]
    ours = validation_curve(
        Ridge(), X, y, param_name="alpha", param_range=alphas, cv=3, scoring=_neg_mae
    )
    theirs = skms.validation_curve(
        Ridge(), X, y, param_name="alpha", param_range=alphas, cv=3, scoring=_neg_mae
    )
    for a, b in zip(ours, theirs):
        assert a.shape == (4, 3)
        np.testing.assert_allclose(a, b, rtol=0, atol=TOL)
    positional = validation_curve(Ridge(), X, y, "alpha", alphas, cv=3, scoring=_neg_mae)
    np.testing.assert_array_equal(positional[1], ours[1])


def test_groups_reach_the_splitter(diabetes):
    X, y = diabetes
    groups = np.arange(len(y)) % 7
    out = cross_validate(_Mean(), X, y, groups=groups, cv=GroupKFold(3), return_indices=True)
    for tr, te in zip(out["indices"]["train"], out["indices"]["test"]):
        assert np.intersect1d(groups[tr], groups[te]).size == 0


def test_threads_give_identical_results(cancer):
    X, y = cancer
    est = LogisticRegression(max_iter=1000)
    a = cross_validate(est, X, y, cv=5, return_train_score=True)
    b = cross_validate(est, X, y, cv=5, return_train_score=True, n_jobs=3)
    np.testing.assert_array_equal(a["test_score"], b["test_score"])
    np.testing.assert_array_equal(a["train_score"], b["train_score"])


def test_inputs_untouched_and_estimator_not_fitted(diabetes):
    X, y = diabetes
    X0, y0 = X.copy(), y.copy()
    est = _Mean()
    cross_validate(est, X, y, cv=3)
    assert not hasattr(est, "mean_")
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_sparse_and_list_inputs():
    X, y = load_diabetes(return_X_y=True)
    dense = cross_val_score(Ridge(), X, y, cv=3)
    listed = cross_val_score(Ridge(), X.tolist(), y.tolist(), cv=3)
    np.testing.assert_allclose(listed, dense, rtol=0, atol=TOL)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(X, index=np.arange(len(y))[::-1])  # rows are taken by position
    framed = cross_val_score(Ridge(), frame, pd.Series(y, index=frame.index), cv=3)
    np.testing.assert_allclose(framed, dense, rtol=0, atol=TOL)
    for fmt in ("csr", "coo"):  # coo cannot be indexed by rows: it is converted first
        S = sp.csr_matrix(X).asformat(fmt)
        ours = cross_val_score(Ridge(), S, y, cv=3)
        theirs = skms.cross_val_score(Ridge(), S, y, cv=3)
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=TOL)
        # sparse Ridge uses an iterative solver (tol 1e-4): close to the dense scores only
        np.testing.assert_allclose(ours, dense, rtol=0, atol=1e-4)


def test_string_scoring_uses_scratchlearn_metrics(diabetes):
    metrics = pytest.importorskip("scratchlearn.metrics")
    if not hasattr(metrics, "get_scorer"):
        pytest.skip("scratchlearn.metrics.get_scorer is not written yet")
    X, y = diabetes
    cv = list(skms.KFold(3).split(X))
    for name in ("r2", "neg_mean_squared_error"):
        ours = cross_val_score(Ridge(), X, y, cv=cv, scoring=name)
        theirs = skms.cross_val_score(Ridge(), X, y, cv=cv, scoring=name)
        # our metric and scikit-learn's sum in different orders
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-10)
    names = ["r2", "neg_mean_absolute_error"]
    ours = cross_validate(Ridge(), X, y, cv=cv, scoring=names, return_train_score=True)
    theirs = skms.cross_validate(Ridge(), X, y, cv=cv, scoring=names, return_train_score=True)
    for key in ("test_r2", "train_r2", "test_neg_mean_absolute_error"):
        np.testing.assert_allclose(ours[key], theirs[key], rtol=1e-10, atol=1e-10)


# -- failures and bad input -------------------------------------------------------------------
def test_error_score():
    X = np.arange(20.0).reshape(10, 2)
    y = np.arange(10.0)
    est = _Mean(poison=X[0])  # only fold 0 trains without row 0
    with pytest.warns(FitFailedWarning, match="4 of the 5 fits failed"):
        scores = cross_val_score(est, X, y, cv=5)
    assert np.isfinite(scores[0]) and np.all(np.isnan(scores[1:]))
    with pytest.warns(FitFailedWarning):
        scores = cross_val_score(est, X, y, cv=5, error_score=-1.0)
    assert scores[1:].tolist() == [-1.0] * 4
    with pytest.raises(RuntimeError, match="poisoned"):
        cross_val_score(est, X, y, cv=5, error_score="raise")
    with pytest.raises(ValueError, match="All the 2 fits failed"):
        cross_val_score(_Mean(poison=X[0]), X[:2], y[:2], cv=[([0], [1]), ([0, 1], [1])])
    with pytest.raises(ValueError, match="error_score must be"):
        cross_val_score(est, X, y, error_score="ignore")


def test_bad_input_errors(diabetes):
    X, y = diabetes
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        cross_val_score(Ridge(), X, y[:-1])
    with pytest.raises(ValueError, match="must be >= 2"):
        cross_val_score(Ridge(), X, y, cv=1)
    with pytest.raises(ValueError, match="greater than the number of samples"):
        cross_val_score(Ridge(), X[:3], y[:3], cv=4)
    with pytest.raises(ValueError, match="single scorer"):
        cross_val_score(Ridge(), X, y, scoring=["r2"])
    with pytest.raises(ValueError, match="scoring must be"):
        cross_validate(Ridge(), X, y, scoring=3)
    with pytest.raises(TypeError, match="has none"):
        cross_validate(object(), X, y)
    with pytest.raises(ValueError, match="Invalid parameter 'alpah'"):
        validation_curve(Ridge(), X, y, param_name="alpah", param_range=[1.0])
    with pytest.raises(ValueError, match=r"must\s+lie in \(0, 1\]"):
        learning_curve(Ridge(), X, y, train_sizes=[0.0, 0.5])
    with pytest.raises(ValueError, match=r"must\s+lie in \(0, 1\]"):  # NaN passed both bounds
        learning_curve(Ridge(), X, y, train_sizes=[np.nan, 0.5])
    with pytest.raises(ValueError, match=r"\[1, 294\]"):
        learning_curve(Ridge(), X, y, cv=3, train_sizes=[10, 300])
    with pytest.raises(ValueError, match="not both"):
        cross_validate(Ridge(), X, y, fit_params={"a": 1}, params={"a": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="merged"):
            learning_curve(Ridge(), X, y, cv=3, train_sizes=[0.5, 0.5001])
