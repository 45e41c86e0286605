"""Scorers: every registered name against scikit-learn's scorer of the same name, called on the
same fitted scikit-learn estimators (our scorers only need predict / predict_proba /
decision_function). Tolerance 1e-12: same metric arithmetic, see the metric tests."""

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.cluster import KMeans
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine
from sklearn.linear_model import LogisticRegression, PoissonRegressor, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from scratchlearn import metrics as M

TOL = 1e-12


def _clf(loader):
    X, y = loader(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.01, max_iter=2000))
    return model.fit(X, y), X, y


@pytest.fixture(scope="module")
def fitted():
    cancer, wine = _clf(load_breast_cancer), _clf(load_wine)
    Xd, yd = load_diabetes(return_X_y=True)
    Xi, yi = load_iris(return_X_y=True)
    return {
        "binary": cancer,
        "multiclass": wine,
        "regression": (Ridge(alpha=0.1).fit(Xd, yd), Xd, yd),
        "counts": (PoissonRegressor(alpha=1e-3, max_iter=1000).fit(Xd, yd), Xd, yd),
        "clusters": (KMeans(3, n_init=3, random_state=0).fit(Xi), Xi, yi),
    }


BINARY = [
    "accuracy",
    "balanced_accuracy",
    "f1",
    "precision",
    "recall",
    "roc_auc",
    "neg_log_loss",
    "f1_macro",
    "f1_micro",
    "f1_weighted",
    "precision_macro",
    "recall_weighted",
]
MULTICLASS = [
    "accuracy",
    "balanced_accuracy",
    "f1_macro",
    "f1_micro",
    "f1_weighted",
    "precision_macro",
    "precision_micro",
    "precision_weighted",
    "recall_macro",
    "recall_micro",
    "recall_weighted",
    "neg_log_loss",
    "roc_auc_ovr",
    "roc_auc_ovo",
]
REGRESSION = [
    "r2",
    "neg_mean_squared_error",
    "neg_root_mean_squared_error",
    "neg_mean_absolute_error",
]


@pytest.mark.parametrize(
    "kind,names",
    [
        ("binary", BINARY),
        ("multiclass", MULTICLASS),
        ("regression", REGRESSION),
        ("counts", ["neg_mean_poisson_deviance", "neg_mean_gamma_deviance"]),
        ("clusters", ["rand_score", "adjusted_rand_score"]),
    ],
)
def test_scorers_match_sklearn(kind, names, fitted):
    est, X, y = fitted[kind]
    w = np.random.default_rng(0).uniform(0.5, 2.0, y.shape[0])
    for name in names:
        ours, theirs = M.get_scorer(name), skm.get_scorer(name)
        assert ours(est, X, y) == pytest.approx(theirs(est, X, y), rel=TOL), name
        if kind != "clusters" and name != "roc_auc_ovo":
            assert ours(est, X, y, sample_weight=w) == pytest.approx(
                theirs(est, X, y, sample_weight=w), rel=TOL
            ), name


def test_roc_auc_uses_decision_function():
    X, y = load_breast_cancer(return_X_y=True)
    svc = make_pipeline(StandardScaler(), LinearSVC(C=0.01)).fit(X, y)  # no predict_proba
    assert M.get_scorer("roc_auc")(svc, X, y) == pytest.approx(
        skm.roc_auc_score(y, svc.decision_function(X)), rel=TOL
    )


def test_names_and_errors(fitted):
    names = M.get_scorer_names()
    required = [
        "accuracy",
        "balanced_accuracy",
        "f1",
        "f1_macro",
        "f1_micro",
        "f1_weighted",
        "precision",
        "recall",
        "roc_auc",
        "neg_log_loss",
        "r2",
        "neg_mean_squared_error",
        "neg_root_mean_squared_error",
        "neg_mean_absolute_error",
    ]
    assert set(required) <= set(names)
    # same meaning as scikit-learn's names; the rankers' names are ours (scikit-learn has no
    # scorer that scores query by query)
    assert set(names) - {"ndcg", "map"} <= set(skm.get_scorer_names())
    with pytest.raises(ValueError, match="'acuracy' is not a valid scoring value.*accuracy"):
        M.get_scorer("acuracy")
    assert M.get_scorer(None) is None
    est, X, y = fitted["binary"]
    assert M.check_scoring(est)(est, X, y) == est.score(X, y)
    assert M.check_scoring(est, "accuracy")(est, X, y) == est.score(X, y)

    def my_scorer(e, X_, y_):
        return 1.0

    assert M.check_scoring(est, my_scorer) is my_scorer
    with pytest.raises(TypeError, match="'score' method"):
        M.check_scoring(KMeansLike())
    assert M.check_scoring(KMeansLike(), allow_none=True) is None
    with pytest.raises(TypeError, match="implementing 'fit'"):
        M.check_scoring(object(), "accuracy")
    multi = M.check_multimetric_scoring(est, ["accuracy", "f1"])
    assert set(multi) == {"accuracy", "f1"}
    assert multi["f1"](est, X, y) == pytest.approx(skm.f1_score(y, est.predict(X)), rel=TOL)
    with pytest.raises(ValueError, match="Duplicate"):
        M.check_multimetric_scoring(est, ["f1", "f1"])
    # losses are negated: greater is better
    reg, Xd, yd = fitted["regression"]
    assert M.get_scorer("neg_mean_squared_error")(reg, Xd, yd) < 0
    custom = M.make_scorer(M.mean_absolute_error, greater_is_better=False)
    assert custom(reg, Xd, yd) == pytest.approx(-skm.mean_absolute_error(yd, reg.predict(Xd)))
    assert "greater_is_better=False" in repr(custom)


class KMeansLike:
    def fit(self, X, y=None):
        return self


# -- the rankers' scorers: query by query ------------------------------------------------------
@pytest.fixture(scope="module")
def ranked():
    from scratchlearn.ranking._showcase import load_modechoice_ranking

    X, y, qid, _ = load_modechoice_ranking()
    keep = qid <= 90  # 90 travellers, four modes each: quick fits
    X, y, qid = X[keep], y[keep], qid[keep]
    return (X - X.mean(axis=0)) / X.std(axis=0), y, qid


def test_ndcg_scorer_is_the_rankers_own_score(ranked):
    from scratchlearn.ranking import RankSVM

    X, y, qid = ranked
    est = RankSVM(C=0.1, random_state=0).fit(X, y, qid=qid)
    s = est.predict(X)
    assert M.get_scorer("ndcg")(est, X, y, qid=qid) == est.score(X, y, qid=qid)
    assert M.get_scorer("ndcg")(est, X, y) == est.score(X, y)  # no qid: one query, as score
    for k in (1, 5, 10):
        want = M.ndcg_score(y, s, qid=qid, k=k)
        assert M.get_scorer(f"ndcg@{k}")(est, X, y, qid=qid) == want
    assert M.get_scorer("map")(est, X, y, qid=qid) == M.mean_average_precision(y, s, qid=qid)
    want = M.mean_average_precision(y, s, qid=qid, k=2)
    assert M.get_scorer("map@2")(est, X, y, qid=qid) == want
    # scored per query: not the number of one query of all rows
    assert M.get_scorer("ndcg@1")(est, X, y, qid=qid) != M.get_scorer("ndcg@1")(est, X, y)


def test_ranking_scorer_names_and_errors():
    assert {"ndcg", "map"} <= set(M.get_scorer_names())
    with pytest.raises(ValueError, match=r"'ndcg@0': the cut-off k of ndcg@k must be at least 1"):
        M.get_scorer("ndcg@0")
    for bad in ("ndcg@", "ndcg@x", "mrr@3", "NDCG"):
        with pytest.raises(ValueError, match=rf"^{bad!r} is not a valid scoring value.*ndcg@k"):
            M.get_scorer(bad)
    assert "ndcg_score" in repr(M.get_scorer("ndcg@5")) and "k=5" in repr(M.get_scorer("ndcg@5"))


def test_grid_search_over_ranksvm_by_name_equals_by_callable(ranked):
    from scratchlearn.model_selection import GridSearchCV, GroupKFold
    from scratchlearn.ranking import RankSVM

    X, y, qid = ranked

    def ndcg_at_5(est, X, y, qid=None):
        return M.ndcg_score(y, est.predict(X), qid=qid, k=5)

    searches = [
        GridSearchCV(
            RankSVM(random_state=0), {"C": [0.001, 0.01, 0.1]}, cv=GroupKFold(3), scoring=s
        ).fit(X, y, groups=qid, qid=qid)
        for s in ("ndcg@5", ndcg_at_5)
    ]
    by_name, by_callable = (s.cv_results_ for s in searches)
    for key in ("split0_test_score", "split1_test_score", "split2_test_score", "mean_test_score"):
        np.testing.assert_array_equal(by_name[key], by_callable[key])
    assert searches[0].best_params_ == searches[1].best_params_
    # and per query: a fold's score is the mean NDCG@5 over its test queries
    train, test = next(GroupKFold(3).split(X, y, qid))
    est = RankSVM(C=0.001, random_state=0).fit(X[train], y[train], qid=qid[train])
    want = M.ndcg_score(y[test], est.predict(X[test]), qid=qid[test], k=5)
    assert by_name["split0_test_score"][0] == pytest.approx(want, rel=1e-12)
