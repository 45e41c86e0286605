"""AdaBoost-SAMME against scikit-learn's AdaBoostClassifier with stumps, round by round.

X is rounded to float32 and back: scikit-learn grows its trees on float32 copies of X, and on
float32-representable data both libraries see the same candidate thresholds (a/2 + b/2 of two
float32 numbers is exact in float64), so the same stump must come out of every round as long as
the best stump is unique; on breast cancer and wine it is (continuous measurements), which the
per-round (feature, threshold) comparison checks.

Tolerance of the per-round numbers (1e-12 relative). Both libraries compute each round's
ε = Σ w·miss / Σ w with NumPy's pairwise sums (relative error ≤ ⌈log₂ n⌉·u each, u = 1.1e-16),
α = ν(ln((1 − ε)/ε) + ln(K − 1)) with a few correctly rounded log calls, and reweight by
w·e^{α·miss} (ours) or exp(ln w + α·miss) (theirs), which differ by a few ulps. Linearised, each
round adds at most about c·⌈log₂ n⌉·u with c ≈ 4 to the relative difference of the weights, and
it carries into ε and α. After T = 50 rounds on n = 569 rows: 50·4·10·1.1e-16 ≈ 2e-13. Measured:
≤ 3e-15; the bound 1e-12 is five times the estimate and 300 times the measurement. The decision
function is f/Σα with |f/Σα| ≤ 2, so its differences are absolute, under the same 1e-12.
"""

import numpy as np
import pytest
from sklearn import datasets
from sklearn.ensemble import AdaBoostClassifier as SkAdaBoost
from sklearn.ensemble import AdaBoostRegressor as SkAdaBoostRegressor
from sklearn.tree import DecisionTreeClassifier as SkTree

from scratchlearn.base import BaseEstimator, ClassifierMixin
from scratchlearn.ensemble import AdaBoostClassifier, AdaBoostRegressor
from scratchlearn.exceptions import InvalidParameterError
from scratchlearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

TOL = 1e-12


def _load(name):
    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    return X.astype(np.float32).astype(np.float64), y


@pytest.fixture(scope="module", params=[("breast_cancer", 1.0), ("wine", 0.5)], ids=str)
def fitted(request):
    name, rate = request.param
    X, y = _load(name)
    ours = AdaBoostClassifier(n_estimators=50, learning_rate=rate, random_state=0).fit(X, y)
    theirs = SkAdaBoost(SkTree(max_depth=1), n_estimators=50, learning_rate=rate, random_state=0)
    return X, y, ours, theirs.fit(X, y)


def test_rounds_match_scikit_learn(fitted):
    X, y, ours, theirs = fitted
    assert len(ours.estimators_) == len(theirs.estimators_) == 50
    stumps = [(h.tree_.feature[0], h.tree_.threshold[0]) for h in ours.estimators_]
    assert stumps == [(h.tree_.feature[0], h.tree_.threshold[0]) for h in theirs.estimators_]
    np.testing.assert_allclose(ours.estimator_errors_, theirs.estimator_errors_, rtol=TOL)
    np.testing.assert_allclose(ours.estimator_weights_, theirs.estimator_weights_, rtol=TOL)


def test_staged_outputs_match_scikit_learn(fitted):
    X, y, ours, theirs = fitted
    stages = zip(
        ours.staged_decision_function(X),
        theirs.staged_decision_function(X),
        ours.staged_predict(X),
        theirs.staged_predict(X),
        ours.staged_predict_proba(X),
        theirs.staged_predict_proba(X),
    )
    n_stages = 0
    for d_ours, d_theirs, p_ours, p_theirs, q_ours, q_theirs in stages:
        np.testing.assert_allclose(d_ours, d_theirs, rtol=0, atol=TOL)
        np.testing.assert_array_equal(p_ours, p_theirs)
        np.testing.assert_allclose(q_ours, q_theirs, rtol=0, atol=TOL)
        n_stages += 1
    assert n_stages == 50
    np.testing.assert_allclose(ours.decision_function(X), d_theirs, rtol=0, atol=TOL)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    # importances: α-weighted means of the stumps' (one non-zero entry each), same rounding
    np.testing.assert_allclose(
        ours.feature_importances_, theirs.feature_importances_, rtol=0, atol=TOL
    )


def test_staged_score_is_the_accuracy_of_each_stage(fitted):
    X, y, ours, _ = fitted
    scores = list(ours.staged_score(X, y))
    expected = [np.mean(p == y) for p in ours.staged_predict(X)]
    assert scores == expected and scores[-1] == ours.score(X, y)


def test_presorted_rounds_equal_fitting_the_tree_each_round(monkeypatch):
    """The fast path (one sort per boosting fit) grows exactly the trees that fitting a fresh
    DecisionTreeClassifier each round grows: same seeds, same weights, same builder."""
    X, y = _load("wine")
    w = np.linspace(1.0, 2.0, len(y))
    base = DecisionTreeClassifier(max_depth=2, class_weight="balanced")
    fast = AdaBoostClassifier(base, n_estimators=8, random_state=3).fit(X, y, sample_weight=w)
    monkeypatch.setattr(AdaBoostClassifier, "_presorted", False)
    plain = AdaBoostClassifier(base, n_estimators=8, random_state=3).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(fast.estimator_weights_, plain.estimator_weights_)
    for a, b in zip(fast.estimators_, plain.estimators_):
        np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
        np.testing.assert_array_equal(a.tree_.value, b.tree_.value)


def test_perfect_first_learner_decides_alone():
    """ε = 0: the learner is kept with α = 1, ε = 0, and boosting stops (scikit-learn's rule)."""
    X, y = _load("breast_cancer")
    y = (X[:, 0] > np.median(X[:, 0])).astype(int)
    ours = AdaBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    theirs = SkAdaBoost(SkTree(max_depth=1), n_estimators=5, random_state=0).fit(X, y)
    assert len(ours.estimators_) == len(theirs.estimators_) == 1
    np.testing.assert_array_equal(ours.estimator_weights_, [1.0, 0, 0, 0, 0])
    np.testing.assert_array_equal(ours.estimator_errors_, [0.0, 1, 1, 1, 1])
    np.testing.assert_array_equal(ours.decision_function(X), theirs.decision_function(X))
    np.testing.assert_array_equal(ours.predict(X), y)


class _MajorityThenMinority(ClassifierMixin, BaseEstimator):
    """Predicts the weighted majority class under uniform weights, else the minority class:
    a learner that is useful on round one and worse than chance afterwards."""

    def fit(self, X, y, sample_weight=None):
        self.classes_ = np.unique(y)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight)
        mass = np.array([w[y == c].sum() for c in self.classes_])
        uniform = np.ptp(w) == 0.0
        self.label_ = self.classes_[np.argmax(mass) if uniform else np.argmin(mass)]
        return self

    def predict(self, X):
        return np.full(len(X), self.label_)


def test_learner_no_better_than_chance_is_dropped():
    """Classes 5/3/2 (K = 3): round one predicts class 0, ε = 0.5, α = ln((1 − ε)/ε) + ln 2 =
    ln 2; the missed rows double, giving class masses 5 : 6 : 4; round two predicts class 2,
    ε = 1 − 4/15 ≥ 2/3: dropped, and boosting stops."""
    X = np.arange(10.0)[:, None]
    y = np.array([0] * 5 + [1] * 3 + [2] * 2)
    model = AdaBoostClassifier(_MajorityThenMinority(), n_estimators=4).fit(X, y)
    assert len(model.estimators_) == 1
    np.testing.assert_allclose(model.estimator_errors_, [0.5, 1, 1, 1], rtol=1e-15)
    np.testing.assert_allclose(model.estimator_weights_, [np.log(2.0), 0, 0, 0], rtol=1e-15)
    np.testing.assert_array_equal(model.predict(X), np.zeros(10))


def test_first_learner_no_better_than_chance_is_an_error():
    X = np.ones((6, 2))  # no split possible: the stump predicts one class, ε = 1/2 = 1 − 1/K
    y = np.array([0, 1] * 3)
    with pytest.raises(ValueError, match="first learner.*no better than chance"):
        AdaBoostClassifier(n_estimators=3).fit(X, y)


def test_decision_function_shapes_and_probabilities():
    X, y = _load("wine")
    model = AdaBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    assert model.decision_function(X).shape == (len(y), 3)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0, rtol=1e-15)
    binary = AdaBoostClassifier(n_estimators=5, random_state=0).fit(X[y < 2], y[y < 2])
    assert binary.decision_function(X).shape == (len(y),)


class _NoWeights(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"estimator": _NoWeights()}, ValueError, "fit accepts sample_weight; _NoWeights"),
        ({"estimator": DecisionTreeRegressor()}, ValueError, "needs a classifier as estimator"),
        ({"learning_rate": 0.0}, InvalidParameterError, "'learning_rate' parameter"),
        ({"learning_rate": -1.0}, InvalidParameterError, "'learning_rate' parameter"),
    ],
)
def test_bad_options_fail_before_any_work(params, error, match):
    """Raised before X is even looked at: X here is not valid data at all."""
    with pytest.raises(error, match=match):
        AdaBoostClassifier(**params).fit("not an array", None)


# -- AdaBoost.R2 ----------------------------------------------------------------------------------
def test_r2_held_out_score_close_to_scikit_learn():
    """Each round draws its own weighted bootstrap, from a different generator than
    scikit-learn's: the two agree only in distribution. With 20 rounds on diabetes the held-out
    R² of one seed has a standard deviation of about 0.017 (measured over 30 seeds, both
    libraries), so the difference of two 10-seed means has σ ≈ 0.017·√(2/10) ≈ 0.008; the bound
    0.04 is 5σ. Measured: 0.011 over these 10 seeds, 0.001 over 30."""
    X, y = datasets.load_diabetes(return_X_y=True)
    X_tr, X_te, y_tr, y_te = X[:310], X[310:], y[:310], y[310:]
    means = []
    for cls in (AdaBoostRegressor, SkAdaBoostRegressor):
        scores = [
            cls(n_estimators=20, random_state=s).fit(X_tr, y_tr).score(X_te, y_te)
            for s in range(10)
        ]
        means.append(np.mean(scores))
    assert abs(means[0] - means[1]) <= 0.04, means


@pytest.mark.parametrize("loss", ["linear", "square", "exponential"])
def test_r2_rounds_follow_the_recurrence(loss):
    """Replay the fit from its learners: L_i from each learner's errors on the training rows,
    L̄ = Σ w L, β = L̄/(1 − L̄), α = ν ln(1/β), w ← w β^{ν(1 − L)} normalised. The replay does
    the same operations in the same order, except for the clip (a no-op here: no weight falls
    below ε in 12 rounds), so the numbers agree to a few ulps of accumulated reassociation."""
    X, y = datasets.load_diabetes(return_X_y=True)
    nu = 0.7
    model = AdaBoostRegressor(n_estimators=12, learning_rate=nu, loss=loss, random_state=0)
    model.fit(X, y)
    w = np.full(len(y), 1.0 / len(y))
    for t, h in enumerate(model.estimators_):
        e = np.abs(h.predict(X) - y)
        e = e / e.max()
        L = {"linear": e, "square": e**2, "exponential": 1 - np.exp(-e)}[loss]
        mean_loss = np.sum(w * L) / np.sum(w)
        beta = mean_loss / (1 - mean_loss)
        np.testing.assert_allclose(model.estimator_errors_[t], mean_loss, rtol=1e-13)
        np.testing.assert_allclose(model.estimator_weights_[t], nu * np.log(1 / beta), rtol=1e-13)
        w = w * beta ** ((1 - L) * nu)
        w /= w.sum()
    assert len(model.estimators_) == 12


def test_r2_prediction_is_the_weighted_median():
    X, y = datasets.load_diabetes(return_X_y=True)
    model = AdaBoostRegressor(n_estimators=7, random_state=0).fit(X, y)
    P = np.column_stack([h.predict(X[:20]) for h in model.estimators_])
    alpha = model.estimator_weights_[:7]
    for i, pred in enumerate(model.predict(X[:20])):
        # the smallest prediction with at least half of Σα at or below it
        at_or_below = np.array([alpha[P[i] <= p].sum() for p in P[i]])
        assert pred == P[i][at_or_below >= alpha.sum() / 2].min()
    staged = list(model.staged_predict(X[:20]))
    assert len(staged) == 7 and np.array_equal(staged[-1], model.predict(X[:20]))
    np.testing.assert_array_equal(staged[0], model.estimators_[0].predict(X[:20]))


def test_r2_rejects_a_classifier():
    with pytest.raises(ValueError, match="needs a regressor as estimator"):
        AdaBoostRegressor(DecisionTreeClassifier()).fit("not an array", None)


def test_integer_weights_equal_repeated_rows_on_real_data():
    """SAMME with weight m on a row is SAMME on the row repeated m times (a weight of 0 drops
    it): the same stumps, learner weights and errors, and the same probabilities. Wine's
    thresholds and weighted errors are distinct at every round here (no tie left to the last
    bit of the weights, unlike scikit-learn's random 15-row check, see ensemble/_entries.py).
    The weights sum in another order: errors agree to n·ε, learner weights to that over
    err·(1 − err), far below 1e-12."""
    X, y = datasets.load_wine(return_X_y=True)
    m = np.random.default_rng(0).integers(0, 4, size=len(y))
    weighted = AdaBoostClassifier(n_estimators=20, random_state=0).fit(X, y, sample_weight=m)
    repeated = AdaBoostClassifier(n_estimators=20, random_state=0).fit(
        X.repeat(m, axis=0), y.repeat(m)
    )
    for a, b in zip(weighted.estimators_, repeated.estimators_, strict=True):
        assert a.tree_.feature[0] == b.tree_.feature[0]
        assert a.tree_.threshold[0] == b.tree_.threshold[0]
    np.testing.assert_allclose(weighted.estimator_errors_, repeated.estimator_errors_, atol=1e-12)
    np.testing.assert_allclose(weighted.estimator_weights_, repeated.estimator_weights_, rtol=1e-12)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), atol=1e-12)
