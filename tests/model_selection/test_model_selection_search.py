"""ParameterGrid and GridSearchCV against scikit-learn, with its and our estimators."""

import warnings

import numpy as np
import pytest
from sklearn import model_selection as skms
from sklearn.base import clone as sk_clone
from sklearn.base import is_classifier as sk_is_classifier
from sklearn.base import is_regressor as sk_is_regressor
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from scratchlearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.model_selection import GridSearchCV, KFold, ParameterGrid
from scratchlearn.utils import check_is_fitted

# Identical estimators fitted on identical rows give bit-identical scores; 1e-12 only absorbs a
# possible difference in summation order in the mean / std of cv_results_.
TOL = 1e-12


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """Tiny problems: BLAS threads only contend (on a busy machine a fit took 100x longer)."""
    with threadpool_limits(1):
        yield


class _ShrunkCentroid(ClassifierMixin, BaseEstimator):
    """Nearest class centroid, centroids pulled towards the grand mean by ``shrink`` ∈ [0, 1]."""

    def __init__(self, shrink=0.0):
        self.shrink = shrink

    def fit(self, X, y):
        X, y = self._validate_data(X, y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        means = np.array([X[codes == c].mean(axis=0) for c in range(len(self.classes_))])
        self.centroids_ = (1 - self.shrink) * means + self.shrink * X.mean(axis=0)
        return self

    def decision_function(self, X):
        check_is_fitted(self)
        X = self._validate_data(X, reset=False)
        return -((X[:, None, :] - self.centroids_[None]) ** 2).sum(axis=2)  # (n, C)

    def predict(self, X):
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]


class _RidgeLite(RegressorMixin, BaseEstimator):
    """Ridge without intercept: w = argmin ‖y − Xw‖² + α‖w‖², solved by least squares."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        X, y = self._validate_data(X, y, y_numeric=True)
        d = X.shape[1]
        A = np.vstack([X, np.sqrt(self.alpha) * np.eye(d)])  # (n + d, d)
        self.coef_ = np.linalg.lstsq(A, np.concatenate([y, np.zeros(d)]), rcond=None)[0]
        return self

    def predict(self, X):
        check_is_fitted(self)
        return self._validate_data(X, reset=False) @ self.coef_


def _neg_mae(est, X, y):
    return -mean_absolute_error(y, est.predict(X))


def _compare_results(ours, theirs):
    """Same candidates, same order, same scores in cv_results_ (timings excepted)."""
    keys = {k for k in theirs.cv_results_ if "time" not in k}
    assert keys == {k for k in ours.cv_results_ if "time" not in k}
    for k in sorted(keys):
        a, b = ours.cv_results_[k], theirs.cv_results_[k]
        if k == "params":
            assert a == b
        elif k.startswith("param_"):
            np.testing.assert_array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b))
            assert a.compressed().tolist() == b.compressed().tolist()
        elif k.startswith("rank_"):
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=0, atol=TOL, err_msg=k)
    assert ours.best_index_ == theirs.best_index_
    assert ours.best_params_ == theirs.best_params_
    if hasattr(theirs, "best_score_"):
        assert abs(ours.best_score_ - theirs.best_score_) <= TOL
    assert ours.n_splits_ == theirs.n_splits_


# -- ParameterGrid --------------------------------------------------------------------------------
def test_parameter_grid_order_hand_example():
    grid = ParameterGrid({"b": [1, 2], "a": ["x", "y"]})
    assert list(grid) == [
        {"a": "x", "b": 1},
        {"a": "x", "b": 2},
        {"a": "y", "b": 1},
        {"a": "y", "b": 2},
    ]
    assert len(grid) == 4 and grid[2] == {"a": "y", "b": 1} and grid[-1] == {"a": "y", "b": 2}
    assert list(ParameterGrid({})) == [{}]


@pytest.mark.parametrize(
    "grid",
    [
        {"C": [0.1, 1.0, 10.0], "penalty": ["l1", "l2"], "tol": np.array([1e-3, 1e-4])},
        [
            {"kernel": ["linear"], "C": [1, 10]},
            {"kernel": ["rbf"], "gamma": [1e-3, 1e-4], "C": [1]},
        ],
        [{}, {"a": [1]}],
    ],
)
def test_parameter_grid_matches_sklearn(grid):
    ours, theirs = ParameterGrid(grid), skms.ParameterGrid(grid)
    assert list(ours) == list(theirs)
    assert len(ours) == len(theirs)
    assert [ours[i] for i in range(len(ours))] == list(theirs)
    with pytest.raises(IndexError):
        ours[len(ours)]
    assert ours[-len(ours)] == ours[0]
    with pytest.raises(IndexError):  # once wrapped round to a valid entry by divmod
        ours[-len(ours) - 1]


def test_parameter_grid_errors():
    with pytest.raises(TypeError, match="wrapped in a list"):
        ParameterGrid({"a": 1})
    with pytest.raises(TypeError, match="wrapped in a list"):
        ParameterGrid({"a": "abc"})
    with pytest.raises(ValueError, match="non-empty sequence"):
        ParameterGrid({"a": []})
    with pytest.raises(TypeError, match="dict or a list of dicts"):
        ParameterGrid(3)
    with pytest.raises(ValueError, match="one-dimensional"):
        ParameterGrid({"a": np.zeros((2, 2))})


# -- oracles: scikit-learn estimators, same folds -------------------------------------------
def test_grid_search_ridge_diabetes():
    X, y = load_diabetes(return_X_y=True)
    grid = {"alpha": [1e-3, 1e-2, 0.1, 1.0, 10.0], "fit_intercept": [True, False]}
    cv = list(skms.KFold(5, shuffle=True, random_state=0).split(X))
    for scoring in (None, _neg_mae):
        ours = GridSearchCV(Ridge(), grid, cv=cv, scoring=scoring, return_train_score=True)
        theirs = skms.GridSearchCV(Ridge(), grid, cv=cv, scoring=scoring, return_train_score=True)
        ours.fit(X, y)
        theirs.fit(X, y)
        _compare_results(ours, theirs)
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
        assert ours.score(X, y) == theirs.score(X, y)


def test_grid_search_logistic_iris_int_cv():
    # cv=4 is StratifiedKFold(4) for a classifier in both libraries
    X, y = load_iris(return_X_y=True)
    grid = [{"C": [0.01, 0.1, 1.0, 10.0]}, {"C": [1.0], "fit_intercept": [False]}]
    ours = GridSearchCV(LogisticRegression(max_iter=2000), grid, cv=4).fit(X, y)
    theirs = skms.GridSearchCV(LogisticRegression(max_iter=2000), grid, cv=4).fit(X, y)
    _compare_results(ours, theirs)
    assert ours.cv_results_["param_fit_intercept"].mask.tolist() == [True] * 4 + [False]
    np.testing.assert_array_equal(ours.classes_, [0, 1, 2])
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=0)
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), rtol=0, atol=0
    )


def test_grid_search_multimetric_breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)

    def recall(est, X, y):
        return float(np.mean(est.predict(X)[y == 1] == 1))

    def accuracy(est, X, y):
        return float(np.mean(est.predict(X) == y))

    scoring = {"acc": accuracy, "rec": recall}
    grid = {"C": [0.01, 0.1, 1.0]}
    ours = GridSearchCV(
        LogisticRegression(max_iter=1000), grid, cv=3, scoring=scoring, refit="rec"
    ).fit(X, y)
    theirs = skms.GridSearchCV(
        LogisticRegression(max_iter=1000), grid, cv=3, scoring=scoring, refit="rec"
    ).fit(X, y)
    _compare_results(ours, theirs)
    assert "mean_test_acc" in ours.cv_results_ and "rank_test_rec" in ours.cv_results_
    assert ours.score(X, y) == recall(ours.best_estimator_, X, y)


# -- our estimators inside, scikit-learn's search as the oracle --------------------------------
def test_grid_search_with_scratchlearn_estimators():
    X, y = load_iris(return_X_y=True)
    grid = {"shrink": [0.0, 0.25, 0.5, 0.9]}
    ours = GridSearchCV(_ShrunkCentroid(), grid, cv=5).fit(X, y)
    theirs = skms.GridSearchCV(_ShrunkCentroid(), grid, cv=5).fit(X, y)
    _compare_results(ours, theirs)
    assert ours.best_params_ == {"shrink": 0.0}  # shrinking only blurs iris's classes
    assert isinstance(ours.best_estimator_, _ShrunkCentroid)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))

    Xd, yd = load_diabetes(return_X_y=True)
    grid = {"alpha": [1e-4, 1e-2, 1.0, 100.0]}
    ours = GridSearchCV(_RidgeLite(), grid, cv=KFold(3)).fit(Xd, yd)
    theirs = skms.GridSearchCV(_RidgeLite(), grid, cv=skms.KFold(3)).fit(Xd, yd)
    _compare_results(ours, theirs)


def test_grid_search_with_real_scratchlearn_models():
    # the same scratchlearn models inside both searches: only the search machinery is compared
    lm = pytest.importorskip("scratchlearn.linear_model")
    pipeline = pytest.importorskip("scratchlearn.pipeline")
    prep = pytest.importorskip("scratchlearn.preprocessing")
    X, y = load_diabetes(return_X_y=True)
    grid = {"alpha": [0.01, 1.0, 10.0]}
    ours = GridSearchCV(lm.Ridge(), grid, cv=4).fit(X, y)
    theirs = skms.GridSearchCV(lm.Ridge(), grid, cv=4).fit(X, y)
    _compare_results(ours, theirs)
    # a pipeline ending in a classifier is a classifier: cv=5 must stratify sorted iris
    Xi, yi = load_iris(return_X_y=True)
    pipe = pipeline.make_pipeline(prep.StandardScaler(), lm.LogisticRegression())
    grid = {"logisticregression__C": [0.1, 1.0, 10.0]}
    ours = GridSearchCV(pipe, grid, cv=5).fit(Xi, yi)
    theirs = skms.GridSearchCV(pipe, grid, cv=5).fit(Xi, yi)
    _compare_results(ours, theirs)
    assert sk_is_classifier(ours) and ours.best_score_ > 0.9


def test_hand_checkable_selection():
    # y = 2x exactly: the least-penalised ridge wins, ranks follow alpha
    X = np.arange(1.0, 11.0).reshape(-1, 1)
    y = 2 * X.ravel()
    gs = GridSearchCV(_RidgeLite(), {"alpha": [100.0, 0.0, 1.0]}, cv=KFold(2)).fit(X, y)
    assert gs.best_params_ == {"alpha": 0.0}
    assert gs.cv_results_["rank_test_score"].tolist() == [3, 1, 2]
    assert gs.best_score_ == pytest.approx(1.0, abs=1e-12)  # R² of an exact fit
    assert gs.best_estimator_.coef_ == pytest.approx([2.0], abs=1e-12)
    assert gs.cv_results_["param_alpha"].dtype == np.float64


def test_ties_share_rank_and_first_wins():
    X = np.arange(1.0, 11.0).reshape(-1, 1)
    y = 2 * X.ravel()

    def constant(est, X, y):
        return 0.5

    gs = GridSearchCV(_RidgeLite(), {"alpha": [3.0, 1.0, 2.0]}, cv=KFold(2), scoring=constant)
    gs.fit(X, y)
    assert gs.cv_results_["rank_test_score"].tolist() == [1, 1, 1]
    assert gs.best_index_ == 0 and gs.best_params_ == {"alpha": 3.0}


# -- estimator behaviour --------------------------------------------------------------------------
def test_estimator_type_and_tags():
    clf = GridSearchCV(LogisticRegression(), {"C": [1.0]})
    reg = GridSearchCV(Ridge(), {"alpha": [1.0]})
    ours_clf = GridSearchCV(_ShrunkCentroid(), {"shrink": [0.0]})
    assert sk_is_classifier(clf) and not sk_is_regressor(clf)
    assert sk_is_regressor(reg) and not sk_is_classifier(reg)
    assert sk_is_classifier(ours_clf)
    assert clf._estimator_type == "classifier" and reg._estimator_type == "regressor"
    assert clf.__sklearn_tags__().target_tags.required
    # cloning by either library keeps the nested estimator and grid
    for c in (clone(clf), sk_clone(clf)):
        assert c.get_params()["estimator__C"] == 1.0 and c.param_grid == {"C": [1.0]}
    assert "estimator__alpha" in reg.get_params()


def test_delegation_and_refit_false():
    X, y = load_iris(return_X_y=True)
    gs = GridSearchCV(_ShrunkCentroid(), {"shrink": [0.0, 0.5]}, cv=3)
    assert hasattr(gs, "predict") and hasattr(gs, "decision_function")
    assert not hasattr(gs, "predict_proba") and not hasattr(gs, "transform")
    with pytest.raises(NotFittedError):
        gs.predict(X)
    gs.fit(X, y)
    np.testing.assert_array_equal(gs.decision_function(X), gs.best_estimator_.decision_function(X))
    assert gs.n_features_in_ == 4 and gs.refit_time_ >= 0
    gs.set_params(refit=False).fit(X, y)  # a refit from the earlier fit must not survive
    assert gs.best_params_ == {"shrink": 0.0} and not hasattr(gs, "best_estimator_")
    with pytest.raises(AttributeError, match="refit=False"):
        gs.predict(X)
    with pytest.raises(AttributeError, match="refit=False"):
        gs.classes_  # noqa: B018


def test_refit_callable():
    X, y = load_iris(return_X_y=True)

    def lowest_shrink_within_a_point(results):
        best = results["mean_test_score"].max()
        ok = np.flatnonzero(results["mean_test_score"] >= best - 0.01)
        return int(ok[np.argmax([results["params"][i]["shrink"] for i in ok])])

    grid = {"shrink": [0.0, 0.05, 0.1, 0.6]}
    ours = GridSearchCV(_ShrunkCentroid(), grid, cv=5, refit=lowest_shrink_within_a_point)
    theirs = skms.GridSearchCV(_ShrunkCentroid(), grid, cv=5, refit=lowest_shrink_within_a_point)
    ours.fit(X, y)
    theirs.fit(X, y)
    assert ours.best_index_ == theirs.best_index_
    assert ours.best_estimator_.shrink == theirs.best_estimator_.shrink
    assert not hasattr(ours, "best_score_")


def test_sample_weight_reaches_every_fit():
    X, y = load_diabetes(return_X_y=True)
    w = np.random.default_rng(1).uniform(0.1, 3.0, len(y))
    cv = list(skms.KFold(3).split(X))
    grid = {"alpha": [0.01, 1.0]}
    ours = GridSearchCV(Ridge(), grid, cv=cv).fit(X, y, sample_weight=w)
    theirs = skms.GridSearchCV(Ridge(), grid, cv=cv).fit(X, y, sample_weight=w)
    _compare_results(ours, theirs)
    np.testing.assert_array_equal(ours.best_estimator_.coef_, theirs.best_estimator_.coef_)
    # the default scorer (Ridge.score) takes sample_weight: test folds are scored weighted
    tr, te = cv[0]
    refit0 = Ridge(alpha=ours.cv_results_["params"][0]["alpha"]).fit(
        X[tr], y[tr], sample_weight=w[tr]
    )
    assert ours.cv_results_["split0_test_score"][0] == pytest.approx(
        refit0.score(X[te], y[te], sample_weight=w[te]), abs=TOL
    )
    # a scorer without sample_weight scores unweighted, with a warning, as scikit-learn does
    with pytest.warns(UserWarning, match="does not take sample_weight"):
        ours = GridSearchCV(Ridge(), grid, cv=cv, scoring=_neg_mae).fit(X, y, sample_weight=w)
    with pytest.warns(UserWarning):
        theirs = skms.GridSearchCV(Ridge(), grid, cv=cv, scoring=_neg_mae).fit(
            X, y, sample_weight=w
        )
    _compare_results(ours, theirs)
    if hasattr(pytest.importorskip("scratchlearn.metrics"), "get_scorer"):
        # a named scorer that takes sample_weight is weighted too; metrics differ in summation
        ours = GridSearchCV(Ridge(), grid, cv=cv, scoring="r2").fit(X, y, sample_weight=w)
        theirs = skms.GridSearchCV(Ridge(), grid, cv=cv, scoring="r2")
        theirs.fit(X, y, sample_weight=w)
        np.testing.assert_allclose(
            ours.cv_results_["split1_test_score"],
            theirs.cv_results_["split1_test_score"],
            rtol=0,
            atol=1e-12,
        )


def test_verbose_progress_bar_goes_to_stderr_only(capsys):
    X, y = load_iris(return_X_y=True)
    GridSearchCV(_ShrunkCentroid(), {"shrink": [0.0, 0.5]}, cv=3).fit(X, y)
    out, err = capsys.readouterr()
    assert out == "" and err == ""
    GridSearchCV(_ShrunkCentroid(), {"shrink": [0.0, 0.5]}, cv=3, verbose=1).fit(X, y)
    out, err = capsys.readouterr()
    assert out == "" and "6/6" in err


def test_groups_reach_the_splitter():
    X, y = load_diabetes(return_X_y=True)
    groups = np.arange(len(y)) % 9
    grid = {"alpha": [0.1, 1.0]}
    ours = GridSearchCV(Ridge(), grid, cv=skms.GroupKFold(3)).fit(X, y, groups=groups)
    theirs = skms.GridSearchCV(Ridge(), grid, cv=skms.GroupKFold(3)).fit(X, y, groups=groups)
    _compare_results(ours, theirs)
    with pytest.raises(ValueError, match="groups"):
        GridSearchCV(Ridge(), grid, cv=skms.GroupKFold(3)).fit(X, y)


def test_threads_give_identical_results():
    X, y = load_diabetes(return_X_y=True)
    grid = {"alpha": [0.01, 0.1, 1.0, 10.0]}
    a = GridSearchCV(Ridge(), grid, cv=4).fit(X, y)
    b = GridSearchCV(Ridge(), grid, cv=4, n_jobs=2).fit(X, y)
    for k in a.cv_results_:
        if "time" not in k and not k.startswith("param"):
            np.testing.assert_array_equal(a.cv_results_[k], b.cv_results_[k])


# -- scikit-learn's estimator checks on the search itself ---------------------------------------
NOT_FITTED = (
    "scikit-learn demands its own NotFittedError class; ours subclasses the same ValueError and "
    "AttributeError without importing scikit-learn (tests/test_common.py lists it for all)."
)

Y_2D = (
    "the inner scratchlearn estimator warns with scratchlearn's DataConversionWarning, which "
    "is not scikit-learn's class (a base-class matter, not a search issue)"
)


@pytest.mark.parametrize(
    "est, expected",
    [
        (
            GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=2),
            {"check_estimators_unfitted": NOT_FITTED},
        ),
        (
            GridSearchCV(_RidgeLite(), {"alpha": [0.1, 1.0]}, cv=2),
            {
                "check_estimators_unfitted": NOT_FITTED,
                "check_supervised_y_2d": Y_2D,
            },
        ),
    ],
    ids=["sklearn-logistic", "scratch-ridge"],
)
def test_sklearn_check_estimator(est, expected):
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(est, expected_failed_checks=expected, on_fail=None, on_skip=None)
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    assert failed == set(), failed


# -- bad input ----------------------------------------------------------------------------------
def test_bad_parameters():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="Invalid parameter 'shrinc'"):
        GridSearchCV(_ShrunkCentroid(), {"shrinc": [0.1]}, cv=3, error_score="raise").fit(X, y)
    with pytest.raises(InvalidParameterError, match="'verbose' parameter"):
        GridSearchCV(_ShrunkCentroid(), {"shrink": [0.1]}, verbose=-1).fit(X, y)
    with pytest.raises(InvalidParameterError, match="'estimator' parameter"):
        GridSearchCV(object(), {"shrink": [0.1]}).fit(X, y)
    with pytest.raises(ValueError, match="refit must be False"):
        GridSearchCV(
            LogisticRegression(), {"C": [1.0]}, scoring={"a": _neg_mae, "b": _neg_mae}
        ).fit(X, y)
    with pytest.raises(ValueError, match="must be >= 2"):
        GridSearchCV(_ShrunkCentroid(), {"shrink": [0.1]}, cv=1).fit(X, y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        GridSearchCV(_ShrunkCentroid(), {"shrink": [0.1]}).fit(X, y[:-1])
    with pytest.raises(TypeError, match="wrapped in a list"):
        GridSearchCV(_ShrunkCentroid(), {"shrink": 0.1}).fit(X, y)
