"""Pipeline and make_pipeline: delegation, parameters, slicing, routing, validation, and
interoperation with scikit-learn estimators and tools."""

import numpy as np
import pytest
from sklearn import pipeline as skpipe
from sklearn import preprocessing as skp
from sklearn.base import clone as sk_clone
from sklearn.base import is_classifier as sk_is_classifier
from sklearn.base import is_regressor as sk_is_regressor
from sklearn.datasets import load_diabetes, load_iris, load_wine
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score

from _data import shared_data_dir  # tests/ is on sys.path (rootdir conftest)
from scratchlearn.base import BaseEstimator, ClassifierMixin, clone, is_classifier
from scratchlearn.linear_model import Ridge
from scratchlearn.pipeline import Pipeline, make_pipeline
from scratchlearn.preprocessing import MinMaxScaler, PolynomialFeatures, StandardScaler

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
X_WINE, Y_WINE = load_wine(return_X_y=True)
X_DIA, Y_DIA = load_diabetes(return_X_y=True)


class NearestCentroid(ClassifierMixin, BaseEstimator):
    """A tiny scratchlearn classifier for these tests (scores = −squared distance)."""

    def __init__(self, shrink=0.0):
        self.shrink = shrink

    def fit(self, X, y, sample_weight=None):
        X, y = self._validate_data(X, y)
        self.classes_ = np.unique(y)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight)
        self.centroids_ = np.array(
            [np.average(X[y == c], axis=0, weights=w[y == c]) for c in self.classes_]
        ) * (1 - self.shrink)
        self.seen_weights_ = sample_weight is not None
        return self

    def decision_function(self, X):
        X = self._validate_data(X, reset=False)
        return -((X[:, None, :] - self.centroids_[None]) ** 2).sum(axis=2)

    def predict(self, X):
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]


class NotATransformer:
    def fit(self, X, y=None):
        return self


# -- delegation -----------------------------------------------------------------------------
def test_predict_matches_manual_chain():
    pipe = Pipeline([("scale", StandardScaler()), ("clf", NearestCentroid())]).fit(X_WINE, Y_WINE)
    s = StandardScaler().fit(X_WINE)
    clf = NearestCentroid().fit(s.transform(X_WINE), Y_WINE)
    np.testing.assert_array_equal(pipe.predict(X_WINE), clf.predict(s.transform(X_WINE)))
    np.testing.assert_array_equal(
        pipe.decision_function(X_WINE), clf.decision_function(s.transform(X_WINE))
    )
    assert pipe.score(X_WINE, Y_WINE) == clf.score(s.transform(X_WINE), Y_WINE)
    np.testing.assert_array_equal(pipe.classes_, [0, 1, 2])
    assert is_classifier(pipe) and sk_is_classifier(pipe)
    assert pipe.n_features_in_ == 13
    assert not hasattr(pipe, "predict_proba")  # the final step has none
    assert not hasattr(pipe, "transform")


def test_matches_sklearn_pipeline_with_sklearn_steps():
    ours = make_pipeline(StandardScaler(), PolynomialFeatures(2), LogisticRegression(max_iter=500))
    ref = skpipe.make_pipeline(
        skp.StandardScaler(), skp.PolynomialFeatures(2), LogisticRegression(max_iter=500)
    )
    ours.fit(X_IRIS, Y_IRIS)
    ref.fit(X_IRIS, Y_IRIS)
    # identical transformed inputs (exact, see the preprocessing tests), same solver: only
    # lbfgs' own rounding differs; probabilities to 1e-10
    np.testing.assert_allclose(ours.predict_proba(X_IRIS), ref.predict_proba(X_IRIS), atol=1e-10)
    np.testing.assert_allclose(
        ours.predict_log_proba(X_IRIS), ref.predict_log_proba(X_IRIS), atol=1e-8
    )
    np.testing.assert_array_equal(ours.predict(X_IRIS), ref.predict(X_IRIS))
    assert sk_is_classifier(ours) and is_classifier(ours)
    assert list(ours.named_steps) == ["standardscaler", "polynomialfeatures", "logisticregression"]


def test_regressor_pipeline_and_transform_pipeline():
    pipe = make_pipeline(MinMaxScaler(), Ridge(alpha=0.5)).fit(X_DIA, Y_DIA)
    assert sk_is_regressor(pipe) and pipe._estimator_type == "regressor"
    manual = Ridge(alpha=0.5).fit(MinMaxScaler().fit_transform(X_DIA), Y_DIA)
    # the same arithmetic on the same arrays: 1e-9 absolute on targets of order 10² is rounding
    np.testing.assert_allclose(
        pipe.predict(X_DIA),
        manual.predict(MinMaxScaler().fit(X_DIA).transform(X_DIA)),
        rtol=0,
        atol=1e-9,
    )
    tr = make_pipeline(StandardScaler(), PolynomialFeatures(2, include_bias=False))
    Z = tr.fit_transform(X_DIA)
    np.testing.assert_array_equal(Z, tr.transform(X_DIA))
    assert tr.get_feature_names_out()[-1] == "x9^2"
    # inverse through two invertible steps
    inv = make_pipeline(StandardScaler(), MinMaxScaler()).fit(X_WINE)
    np.testing.assert_allclose(
        inv.inverse_transform(inv.transform(X_WINE)), X_WINE, rtol=1e-12, atol=1e-12
    )
    assert not hasattr(tr, "inverse_transform")


def test_passthrough_and_none_steps():
    for skip in ["passthrough", None]:
        pipe = Pipeline(
            [("scale", StandardScaler()), ("nothing", skip), ("clf", NearestCentroid())]
        ).fit(X_IRIS, Y_IRIS)
        ref = make_pipeline(StandardScaler(), NearestCentroid()).fit(X_IRIS, Y_IRIS)
        np.testing.assert_array_equal(pipe.predict(X_IRIS), ref.predict(X_IRIS))
    # a passthrough final step makes the pipeline a transformer
    tr = Pipeline([("scale", StandardScaler()), ("out", "passthrough")]).fit(X_IRIS)
    np.testing.assert_array_equal(tr.transform(X_IRIS), StandardScaler().fit_transform(X_IRIS))
    np.testing.assert_array_equal(tr.fit_transform(X_IRIS), tr.transform(X_IRIS))
    assert not hasattr(tr, "predict")


# -- structure and parameters -------------------------------------------------------------
def test_slicing_and_indexing():
    pipe = make_pipeline(StandardScaler(), PolynomialFeatures(), NearestCentroid())
    assert len(pipe) == 3
    assert isinstance(pipe[0], StandardScaler) and isinstance(pipe[-1], NearestCentroid)
    assert pipe["polynomialfeatures"] is pipe.steps[1][1]
    head = pipe[:2]
    assert isinstance(head, Pipeline) and len(head) == 2 and head.steps[0][1] is pipe[0]
    pipe.fit(X_IRIS, Y_IRIS)
    np.testing.assert_array_equal(
        pipe[:-1].transform(X_IRIS),
        PolynomialFeatures().fit_transform(StandardScaler().fit_transform(X_IRIS)),
    )
    with pytest.raises(ValueError, match="step of 1"):
        pipe[::2]


def test_get_and_set_params():
    pipe = make_pipeline(StandardScaler(), NearestCentroid(shrink=0.1))
    params = pipe.get_params()
    assert params["nearestcentroid__shrink"] == 0.1
    assert params["standardscaler__with_mean"] is True
    assert params["standardscaler"] is pipe.steps[0][1]
    assert set(pipe.get_params(deep=False)) == {"steps", "memory", "verbose"}
    pipe.set_params(nearestcentroid__shrink=0.5, standardscaler__with_std=False)
    assert pipe[-1].shrink == 0.5 and pipe[0].with_std is False
    new = MinMaxScaler()
    original_steps = pipe.steps
    pipe.set_params(standardscaler=new)
    assert pipe[0] is new and original_steps[0][1] is not new  # the user's list is untouched
    pipe.set_params(standardscaler="passthrough")
    pipe.fit(X_IRIS, Y_IRIS)
    with pytest.raises(ValueError, match="no step named"):
        pipe.set_params(bogus__x=1)
    with pytest.raises(ValueError, match="Invalid parameter"):
        pipe.set_params(bogus=1)
    # clone (ours and scikit-learn's) gives an unfitted copy with equal parameters
    for cl in (clone, sk_clone):
        c = cl(pipe)
        assert c is not pipe and c[-1] is not pipe[-1] and c[-1].shrink == 0.5
        assert not hasattr(c[-1], "centroids_")


def test_fit_params_routing():
    w = np.where(Y_IRIS == 0, 5.0, 1.0)
    pipe = make_pipeline(StandardScaler(), NearestCentroid())
    pipe.fit(X_IRIS, Y_IRIS, nearestcentroid__sample_weight=w)
    assert pipe[-1].seen_weights_
    manual = NearestCentroid().fit(StandardScaler().fit_transform(X_IRIS), Y_IRIS, sample_weight=w)
    np.testing.assert_array_equal(pipe[-1].centroids_, manual.centroids_)
    # routed to a transformer too
    pipe.fit(X_IRIS, Y_IRIS, standardscaler__sample_weight=w)
    ref = StandardScaler().fit(X_IRIS, sample_weight=w)
    np.testing.assert_array_equal(pipe[0].mean_, ref.mean_)
    with pytest.raises(ValueError, match="step name"):
        pipe.fit(X_IRIS, Y_IRIS, sample_weight=w)
    with pytest.raises(ValueError, match="step name"):
        pipe.fit(X_IRIS, Y_IRIS, nostep__sample_weight=w)


def test_sklearn_tools_accept_our_pipeline():
    pipe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
    ref = skpipe.make_pipeline(skp.StandardScaler(), LogisticRegression(max_iter=500))
    ours_scores = cross_val_score(pipe, X_WINE, Y_WINE, cv=3)
    ref_scores = cross_val_score(ref, X_WINE, Y_WINE, cv=3)
    np.testing.assert_allclose(ours_scores, ref_scores, atol=1e-12)  # same folds, same data
    grid = GridSearchCV(
        make_pipeline(StandardScaler(), NearestCentroid()),
        {"nearestcentroid__shrink": [0.0, 0.5], "standardscaler__with_std": [True, False]},
        cv=3,
    ).fit(X_WINE, Y_WINE)
    assert grid.best_params_["standardscaler__with_std"] is True
    # scikit-learn steps inside ours, ours inside scikit-learn's
    mixed = make_pipeline(PCA(n_components=3), StandardScaler(), NearestCentroid())
    same = skpipe.make_pipeline(PCA(n_components=3), skp.StandardScaler(), NearestCentroid())
    # accuracies are multiples of 1/n_test: any real difference is ≥ 0.02, rounding is ≪ 1e-12
    np.testing.assert_allclose(
        cross_val_score(mixed, X_IRIS, Y_IRIS, cv=3),
        cross_val_score(same, X_IRIS, Y_IRIS, cv=3),
        atol=1e-12,
    )
    nested = skpipe.make_pipeline(make_pipeline(StandardScaler()), LogisticRegression())
    assert nested.fit(X_IRIS, Y_IRIS).score(X_IRIS, Y_IRIS) > 0.9


def test_memory_caches_clones():
    class Memory:
        def __init__(self):
            self.calls = 0

        def cache(self, fn):
            def wrapped(*args, **kwargs):
                self.calls += 1
                return fn(*args, **kwargs)

            return wrapped

    mem = Memory()
    scaler = StandardScaler()
    pipe = Pipeline([("s", scaler), ("c", NearestCentroid())], memory=mem).fit(X_IRIS, Y_IRIS)
    assert mem.calls == 1
    assert pipe[0] is not scaler and not hasattr(scaler, "mean_")  # the step was cloned


def test_verbose_prints_progress(capsys):
    make_pipeline(StandardScaler(), NearestCentroid(), verbose=True).fit(X_IRIS, Y_IRIS)
    out = capsys.readouterr().out
    assert "(step 1 of 2) Processing standardscaler" in out
    assert "(step 2 of 2) Processing nearestcentroid" in out


def test_make_pipeline_names_duplicates():
    pipe = make_pipeline(StandardScaler(), StandardScaler(), MinMaxScaler())
    assert [n for n, _ in pipe.steps] == ["standardscaler-1", "standardscaler-2", "minmaxscaler"]


# -- validation ---------------------------------------------------------------------------
def test_invalid_steps():
    with pytest.raises(TypeError, match="intermediate steps should be transformers"):
        Pipeline([("bad", NotATransformer()), ("clf", NearestCentroid())]).fit(X_IRIS, Y_IRIS)
    with pytest.raises(TypeError, match="last step"):
        Pipeline([("s", StandardScaler()), ("bad", 3)]).fit(X_IRIS, Y_IRIS)
    with pytest.raises(ValueError, match="unique"):
        Pipeline([("a", StandardScaler()), ("a", NearestCentroid())]).fit(X_IRIS, Y_IRIS)
    with pytest.raises(ValueError, match="__"):
        Pipeline([("a__b", StandardScaler()), ("c", NearestCentroid())]).fit(X_IRIS, Y_IRIS)
    with pytest.raises(ValueError, match="constructor"):
        Pipeline([("steps", StandardScaler()), ("c", NearestCentroid())]).fit(X_IRIS, Y_IRIS)
    with pytest.raises(TypeError, match="tuples"):
        Pipeline([StandardScaler(), NearestCentroid()]).fit(X_IRIS, Y_IRIS)
    with pytest.raises(ValueError, match="13 features"):
        make_pipeline(StandardScaler(), NearestCentroid()).fit(X_WINE, Y_WINE).predict(X_IRIS)


def test_is_fitted_reflects_last_step():
    from sklearn.utils.validation import check_is_fitted

    pipe = make_pipeline(StandardScaler(), NearestCentroid())
    assert not pipe.__sklearn_is_fitted__()
    pipe.fit(X_IRIS, Y_IRIS)
    assert pipe.__sklearn_is_fitted__()
    check_is_fitted(pipe)


def test_encoder_pipeline_on_car_evaluation_matches_sklearn():
    from pathlib import Path

    from scratchlearn.preprocessing import OneHotEncoder

    path = Path(shared_data_dir()) / "car_evaluation" / "car.data"
    table = np.loadtxt(path, dtype=str, delimiter=",").astype(object)
    X, y = table[:, :-1], table[:, -1]
    ours = make_pipeline(OneHotEncoder(handle_unknown="ignore"), LogisticRegression(max_iter=300))
    ref = skpipe.make_pipeline(
        skp.OneHotEncoder(handle_unknown="ignore"), LogisticRegression(max_iter=300)
    )
    ours.fit(X[::2], y[::2])
    ref.fit(X[::2], y[::2])
    # identical indicator matrices go into the same solver: probabilities agree to 1e-10
    np.testing.assert_allclose(ours.predict_proba(X[1::2]), ref.predict_proba(X[1::2]), atol=1e-10)
    assert ours.classes_.tolist() == sorted(set(y))
