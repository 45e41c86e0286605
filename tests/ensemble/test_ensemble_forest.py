"""Forests: exact identities (one tree, threads, warm start, OOB by hand), weights, bad input.

Every identity here is exact (``==`` on arrays): the forest is a deterministic function of its
seeds, and each identity recomputes the same floating-point operations in the same order.
"""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_wine

from scratchlearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from scratchlearn.exceptions import InvalidParameterError
from scratchlearn.metrics import r2_score
from scratchlearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

ARRAYS = ("children_left", "children_right", "feature", "threshold", "impurity", "value")


@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return X[:200], y[:200]


def _same_trees(a, b):
    assert len(a) == len(b)
    for ta, tb in zip(a, b):
        for name in ARRAYS:
            np.testing.assert_array_equal(getattr(ta.tree_, name), getattr(tb.tree_, name))


def _counts(seed, n, n_b):
    """The documented bootstrap of a tree of seed s: n_b draws from SeedSequence([s, 1])."""
    return np.bincount(np.random.default_rng([seed, 1]).integers(0, n, size=n_b), minlength=n)


# -- identities ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("forest", "tree"),
    [
        (RandomForestClassifier, DecisionTreeClassifier),
        (ExtraTreesRegressor, DecisionTreeRegressor),
    ],
)
def test_one_tree_forest_is_the_single_tree(forest, tree, wine, diabetes):
    X, y = wine if forest is RandomForestClassifier else diabetes
    f = forest(n_estimators=1, bootstrap=False, max_features=None, random_state=3).fit(X, y)
    splitter = "random" if forest is ExtraTreesRegressor else "best"
    t = tree(splitter=splitter, random_state=f.estimators_[0].random_state).fit(X, y)
    _same_trees(f.estimators_, [t])
    np.testing.assert_array_equal(f.predict(X), t.predict(X))


@pytest.mark.filterwarnings("ignore:.*no OOB prediction")  # NaN rows compare equal too
def test_threads_give_the_same_forest(wine):
    X, y = wine
    kw = dict(n_estimators=8, oob_score=True, random_state=0)
    one = RandomForestClassifier(n_jobs=1, **kw).fit(X, y)
    two = RandomForestClassifier(n_jobs=2, **kw).fit(X, y)
    _same_trees(one.estimators_, two.estimators_)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
    np.testing.assert_array_equal(one.oob_decision_function_, two.oob_decision_function_)
    np.testing.assert_array_equal(one.apply(X), two.apply(X))


@pytest.mark.parametrize("forest", [RandomForestRegressor, ExtraTreesClassifier])
def test_warm_start_five_plus_five_is_ten(forest, wine, diabetes):
    X, y = diabetes if forest is RandomForestRegressor else wine
    at_once = forest(n_estimators=10, random_state=7).fit(X, y)
    grown = forest(n_estimators=5, random_state=7, warm_start=True).fit(X, y)
    first_five = list(grown.estimators_)
    grown.set_params(n_estimators=10).fit(X, y)
    assert grown.estimators_[:5] == first_five  # the same objects: kept, not refitted
    _same_trees(at_once.estimators_, grown.estimators_)
    np.testing.assert_array_equal(at_once.predict(X), grown.predict(X))


def test_oob_decision_function_by_hand(wine):
    X, y = wine
    n, n_b = X.shape[0], 60
    f = RandomForestClassifier(n_estimators=8, max_samples=n_b, oob_score=True, random_state=1)
    f.fit(X, y)
    sums, seen = np.zeros((n, 3)), np.zeros(n)
    for tree in f.estimators_:
        c = _counts(tree.random_state, n, n_b)
        # the tree was grown on these counts: its root holds their class fractions
        root = np.bincount(y, weights=c, minlength=3) / n_b
        np.testing.assert_allclose(tree.tree_.value[0, 0], root, rtol=1e-15)
        out = c == 0
        sums[out] += tree.predict_proba(X[out])
        seen[out] += 1
    assert seen.min() > 0  # every row out of bag at least once: no NaN branch here
    np.testing.assert_allclose(f.oob_decision_function_, sums / seen[:, None], rtol=1e-15)
    assert f.oob_score_ == np.mean(f.classes_[np.argmax(sums, axis=1)] == y)


def test_oob_prediction_by_hand_and_rows_never_out_of_bag(diabetes):
    X, y = diabetes
    n = X.shape[0]
    with pytest.warns(UserWarning, match="no out-of-bag prediction"):
        f = RandomForestRegressor(n_estimators=2, oob_score=True, random_state=0).fit(X, y)
    sums, seen = np.zeros(n), np.zeros(n)
    for tree in f.estimators_:
        out = _counts(tree.random_state, n, n) == 0
        sums[out] += tree.predict(X[out])
        seen[out] += 1
    never = seen == 0
    assert never.any() and np.isnan(f.oob_prediction_[never]).all()
    ok = ~never
    np.testing.assert_allclose(f.oob_prediction_[ok], sums[ok] / seen[ok], rtol=1e-15)
    assert f.oob_score_ == pytest.approx(r2_score(y[ok], sums[ok] / seen[ok]), rel=1e-12)


def test_predictions_importances_apply_and_paths_by_hand(wine):
    X, y = wine
    f = ExtraTreesClassifier(n_estimators=4, random_state=2).fit(X, y)
    T = len(f.estimators_)
    # 4 probabilities averaged: |error| ≤ 4 ulp(1) in either summation order
    mean = sum(t.predict_proba(X) for t in f.estimators_) / T
    np.testing.assert_allclose(f.predict_proba(X), mean, rtol=0, atol=1e-15)
    imps = np.mean([t.feature_importances_ for t in f.estimators_], axis=0)
    np.testing.assert_allclose(f.feature_importances_, imps / imps.sum(), rtol=1e-14)
    leaves = f.apply(X)
    assert leaves.shape == (X.shape[0], T)
    indicator, ptr = f.decision_path(X)
    for t, tree in enumerate(f.estimators_):
        np.testing.assert_array_equal(leaves[:, t], tree.apply(X))
        own = indicator[:, ptr[t] : ptr[t + 1]].toarray()
        np.testing.assert_array_equal(own, tree.decision_path(X).toarray())


# -- weights -----------------------------------------------------------------------------------
def test_max_samples_sets_the_draws(wine):
    X, y = wine
    for max_samples, n_b in ((50, 50), (0.25, round(0.25 * X.shape[0]))):
        f = RandomForestClassifier(n_estimators=3, max_samples=max_samples, random_state=0)
        f.fit(X, y)
        for tree in f.estimators_:
            assert tree.tree_.weighted_n_node_samples[0] == n_b  # Σ counts, exact integers


def test_balanced_subsample_balances_every_bootstrap(wine):
    X, y = wine
    keep = np.r_[np.flatnonzero(y == 0), np.flatnonzero(y == 1)[:20], np.flatnonzero(y == 2)[:8]]
    X, y = X[keep], y[keep]  # 59 / 20 / 8 rows
    f = RandomForestClassifier(n_estimators=5, class_weight="balanced_subsample", random_state=0)
    f.fit(X, y)
    for tree in f.estimators_:
        c = _counts(tree.random_state, X.shape[0], X.shape[0])
        drawn = np.bincount(y, weights=c, minlength=3) > 0
        # each drawn class carries n_b / K_b of the weight: its root fraction is 1 / K_b
        np.testing.assert_allclose(tree.tree_.value[0, 0], drawn / drawn.sum(), rtol=1e-14)
    plain = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    assert plain.estimators_[0].tree_.value[0, 0, 2] < 0.2  # unbalanced without the option


# -- bad input and progress -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: RandomForestClassifier(max_samples=1000), "larger than the 178 rows"),
        (lambda: RandomForestClassifier(oob_score=True, bootstrap=False), "needs bootstrap"),
        (lambda: ExtraTreesClassifier(max_samples=0.5), "needs bootstrap=True"),
        (lambda: RandomForestClassifier(n_estimators=0), "'n_estimators' parameter"),
        (lambda: RandomForestClassifier(max_samples=1.5), "'max_samples' parameter"),
        (lambda: RandomForestClassifier(class_weight="subsample"), "'class_weight' parameter"),
    ],
)
def test_bad_parameters_fail_before_any_tree(make, match, wine):
    est = make()
    with pytest.raises(ValueError, match=match):
        est.fit(*wine)
    assert not hasattr(est, "estimators_")


def test_regressors_take_no_class_weight():
    with pytest.raises(TypeError, match="class_weight"):
        RandomForestRegressor(class_weight="balanced_subsample")


def test_warm_start_cannot_remove_trees(wine):
    f = RandomForestClassifier(n_estimators=4, warm_start=True, random_state=0).fit(*wine)
    with pytest.raises(ValueError, match="smaller than the 4 trees"):
        f.set_params(n_estimators=3).fit(*wine)
    assert len(f.estimators_) == 4
    with pytest.warns(UserWarning, match="no new tree"):
        f.set_params(n_estimators=4).fit(*wine)


def test_invalid_parameter_error_names_the_estimator(wine):
    with pytest.raises(InvalidParameterError, match="RandomForestRegressor"):
        RandomForestRegressor(criterion="gini").fit(*wine)


def test_verbose_draws_a_bar_on_stderr(wine, capsys):
    RandomForestClassifier(n_estimators=3, verbose=1, random_state=0).fit(*wine)
    captured = capsys.readouterr()
    assert "RandomForestClassifier" in captured.err and "3/3" in captured.err
    assert captured.out == ""


def test_importances_are_zeros_when_no_tree_splits(diabetes):
    X, _ = diabetes
    f = RandomForestRegressor(n_estimators=2, random_state=0).fit(X, np.ones(X.shape[0]))
    assert all(t.tree_.node_count == 1 for t in f.estimators_)
    np.testing.assert_array_equal(f.feature_importances_, np.zeros(X.shape[1]))


def test_the_kernels_threads_run_release_the_gil():
    """n_jobs threads only overlap where the compiled code drops the GIL (speed-up measured in
    benchmarks/cases_ensemble.py; a shared machine cannot time it reliably in a test)."""
    from scratchlearn.ensemble._forest_base import _kept_order
    from scratchlearn.tree._builder import build_tree
    from scratchlearn.tree._tree import apply_tree

    for kernel in (build_tree, apply_tree, _kept_order):
        assert kernel.targetoptions.get("nogil") is True, kernel
