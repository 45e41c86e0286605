"""CART properties (hypothesis) and the bad-input catalogue."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from scratchlearn.exceptions import InvalidParameterError
from scratchlearn.tree import DecisionTreeClassifier, DecisionTreeRegressor


@st.composite
def _data(draw, regression=False):
    n = draw(st.integers(5, 40))
    d = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.integers(0, draw(st.integers(2, 8)), size=(n, d)).astype(np.float64)
    y = rng.normal(size=n).round(1) if regression else rng.integers(0, 3, n)
    return X, y, draw(st.integers(0, 1000))


def _structure(est):
    t = est.tree_
    return t.children_left, t.children_right, t.feature, t.n_node_samples


@settings(max_examples=40, deadline=None)
@given(data=_data(), criterion=st.sampled_from(["gini", "entropy"]))
def test_monotone_rescaling_maps_thresholds(data, criterion):
    X, y, seed = data
    a = DecisionTreeClassifier(criterion=criterion, random_state=seed).fit(X, y)
    # x ↦ 3x + 7 maps the integer grid to exact floats and midpoints to midpoints: same tree,
    # thresholds mapped exactly (3·(k + ½) + 7 is exact for these small k)
    b = DecisionTreeClassifier(criterion=criterion, random_state=seed).fit(3 * X + 7, y)
    for u, v in zip(_structure(a), _structure(b)):
        np.testing.assert_array_equal(u, v)
    split = a.tree_.feature >= 0
    np.testing.assert_array_equal(3 * a.tree_.threshold[split] + 7, b.tree_.threshold[split])
    np.testing.assert_array_equal(a.tree_.impurity, b.tree_.impurity)


@settings(max_examples=40, deadline=None)
@given(data=_data(regression=True))
def test_monotone_increasing_transform_same_partition(data):
    X, y, seed = data
    a = DecisionTreeRegressor(random_state=seed).fit(X, y)
    b = DecisionTreeRegressor(random_state=seed).fit(np.exp(X), y)  # order kept, gaps changed
    for u, v in zip(_structure(a), _structure(b)):
        np.testing.assert_array_equal(u, v)
    np.testing.assert_array_equal(a.apply(X), b.apply(np.exp(X)))


@settings(max_examples=40, deadline=None)
@given(data=_data(), perm_seed=st.integers(0, 1000))
def test_row_order_does_not_change_predictions(data, perm_seed):
    X, y, seed = data
    p = np.random.default_rng(perm_seed).permutation(len(y))
    a = DecisionTreeClassifier(random_state=seed).fit(X, y)
    b = DecisionTreeClassifier(random_state=seed).fit(X[p], y[p])
    # the split search sees a node's rows sorted by value and its counts are exact integers, so
    # with the same seed (same feature order) it makes the same choices
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


@settings(max_examples=40, deadline=None)
@given(data=_data(), reps_seed=st.integers(0, 1000), regression=st.booleans())
def test_duplicated_rows_equal_integer_weights(data, reps_seed, regression):
    X, y, seed = data
    y = y.astype(np.float64) if regression else y
    k = np.random.default_rng(reps_seed).integers(1, 4, len(y))
    Est = DecisionTreeRegressor if regression else DecisionTreeClassifier
    a = Est(random_state=seed).fit(X, y, sample_weight=k.astype(np.float64))
    b = Est(random_state=seed).fit(np.repeat(X, k, axis=0), np.repeat(y, k))
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    np.testing.assert_array_equal(a.tree_.weighted_n_node_samples, b.tree_.weighted_n_node_samples)
    # the same weighted sums in a different order: a few ulps of O(1) quantities
    np.testing.assert_allclose(a.tree_.value, b.tree_.value, rtol=0, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(data=_data(regression=True), splitter=st.sampled_from(["best", "random"]))
def test_fully_grown_tree_fits_distinct_points(data, splitter):
    X, y, seed = data
    X, idx = np.unique(X, axis=0, return_index=True)
    y = y[idx]
    reg = DecisionTreeRegressor(splitter=splitter, random_state=seed).fit(X, y)
    # A pure leaf may hold m rows of one equal y: its value Σy/m is y to within (m + 1)ε|y|
    # (m − 1 rounded additions and one division), not always exactly (three rows of 0.4 give
    # 0.4000000000000001); m ≤ n.
    np.testing.assert_allclose(reg.predict(X), y, rtol=(len(y) + 1) * np.finfo(float).eps, atol=0)
    labels = (y > 0).astype(int)
    clf = DecisionTreeClassifier(splitter=splitter, random_state=seed).fit(X, labels)
    np.testing.assert_array_equal(clf.predict(X), labels)


def test_probabilities_paths_and_accessors():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 5))
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    clf = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    with np.errstate(divide="ignore"):  # a pure leaf has probability 0 for the other classes
        np.testing.assert_array_equal(np.log(P), clf.predict_log_proba(X))
    path = clf.decision_path(X)
    assert sp.isspmatrix_csr(path) and path.shape == (200, clf.tree_.node_count)
    leaves = clf.apply(X)
    assert np.all(path[np.arange(200), leaves] == 1)
    assert np.all(path[:, 0].toarray() == 1)
    depth = np.asarray(path.sum(axis=1)).ravel() - 1
    assert depth.max() == clf.get_depth() <= 4
    assert clf.get_n_leaves() == np.sum(clf.tree_.children_left == -1)
    assert clf.feature_importances_.sum() == pytest.approx(1.0, abs=1e-12)
    assert clf.max_features_ == 5 and clf.n_features_in_ == 5


@pytest.mark.parametrize("splitter", ["best", "random"])
@pytest.mark.parametrize("max_leaf_nodes", [None, 7, 40])
@pytest.mark.parametrize("max_depth", [None, 3])
def test_max_depth_from_the_builder_is_the_deepest_node(splitter, max_leaf_nodes, max_depth):
    # the builder records each node's depth and hands Tree the maximum; Tree's own walk, level
    # by level from the root, must find the same depth (and does for trees it did not build)
    from scratchlearn.tree._tree import _max_depth

    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(int) + (X[:, 2] > 0.5)
    clf = DecisionTreeClassifier(
        splitter=splitter, max_leaf_nodes=max_leaf_nodes, max_depth=max_depth, random_state=0
    ).fit(X, y)
    t = clf.tree_
    assert t.node_count > 3
    assert t.max_depth == _max_depth(t.children_left, t.children_right)
    if max_depth is not None:
        assert t.max_depth <= max_depth


@pytest.mark.parametrize("max_leaf_nodes", [None, 90])
def test_builder_node_records_name_the_tree_arrays(max_leaf_nodes):
    """The builder's node records carry the fitted arrays' names (and each node's depth, of
    which the tree keeps the maximum), and trees larger than the builder's first capacity (64
    nodes) come through its doubling whole: every inner node's rows are its children's rows,
    every leaf is marked as one."""
    from scratchlearn.tree._builder import NODE

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(300, 3)), rng.integers(0, 2, size=300)  # noise: a large tree
    tree = DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes, random_state=0).fit(X, y).tree_
    assert set(NODE.names) - {"depth"} | {"value"} == set(tree.as_dict())
    assert tree.node_count > 64
    leaf = tree.children_left == -1
    inner = np.flatnonzero(~leaf)
    assert np.all(tree.children_right[leaf] == -1) and np.all(tree.feature[leaf] == -2)
    assert np.all(tree.threshold[leaf] == -2.0) and np.all(tree.feature[inner] >= 0)
    n = tree.n_node_samples
    L, R = tree.children_left[inner], tree.children_right[inner]
    np.testing.assert_array_equal(n[inner], n[L] + n[R])
    assert n[0] == 300
    if max_leaf_nodes is not None:
        assert tree.n_leaves == max_leaf_nodes


def test_max_features_draws_and_reproducibility():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 16))
    y = (X[:, :4].sum(axis=1) > 0).astype(int)
    for mf, expect in (("sqrt", 4), ("log2", 4), (0.5, 8), (3, 3), (None, 16)):
        clf = DecisionTreeClassifier(max_features=mf, random_state=1).fit(X, y)
        assert clf.max_features_ == expect
        np.testing.assert_array_equal(clf.predict(X), y)  # still grown until pure
    a = DecisionTreeClassifier(max_features=2, random_state=3).fit(X, y)
    b = DecisionTreeClassifier(max_features=2, random_state=3).fit(X, y)
    c = DecisionTreeClassifier(max_features=2, random_state=4).fit(X, y)
    np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    assert a.tree_.node_count != c.tree_.node_count or np.any(a.tree_.feature != c.tree_.feature)


def test_random_splitter_thresholds_lie_inside_the_node_range():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = X[:, 0] ** 2 + rng.normal(size=150)
    for crit in ("squared_error", "absolute_error"):
        reg = DecisionTreeRegressor(splitter="random", criterion=crit, max_depth=5, random_state=0)
        reg.fit(X, y)
        path = reg.decision_path(X).tocsc()
        for t in np.flatnonzero(reg.tree_.children_left != -1):
            rows = path[:, t].toarray().ravel().astype(bool)
            x = X[rows, reg.tree_.feature[t]]
            assert x.min() <= reg.tree_.threshold[t] < x.max()


def test_absolute_error_leaf_is_weighted_median():
    X = np.zeros((4, 1))
    reg = DecisionTreeRegressor(criterion="absolute_error").fit(X, [1.0, 2.0, 10.0, 11.0])
    assert reg.tree_.value[0, 0, 0] == 6.0  # even count: mean of the two middle values
    assert reg.tree_.impurity[0] == (5 + 4 + 4 + 5) / 4
    reg.fit(X, [1.0, 2.0, 10.0, 11.0], sample_weight=[1.0, 3.0, 1.0, 1.0])
    assert reg.tree_.value[0, 0, 0] == 2.0  # cumulative weights 1, 4 > 6/2


def test_one_class_is_a_single_leaf():
    clf = DecisionTreeClassifier().fit(np.arange(6.0).reshape(-1, 1), ["a"] * 6)
    assert clf.tree_.node_count == 1 and clf.get_depth() == 0
    assert list(clf.predict([[100.0]])) == ["a"]
    np.testing.assert_array_equal(clf.feature_importances_, [0.0])


def test_ccp_alpha_is_validated():
    X, y = np.arange(8.0).reshape(-1, 1), np.arange(8) % 2
    with pytest.raises(InvalidParameterError, match="ccp_alpha"):
        DecisionTreeClassifier(ccp_alpha=-1.0).fit(X, y)
    # alternating labels: every split of the full tree gains little; a large alpha keeps the root
    assert DecisionTreeClassifier(ccp_alpha=0.5).fit(X, y).tree_.node_count == 1


# -- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_or_inf_names_the_column(bad):
    X = np.ones((5, 3))
    X[2, 1] = bad
    with pytest.raises(ValueError, match="column 1"):
        DecisionTreeClassifier().fit(X, [0, 1, 0, 1, 0])
    clf = DecisionTreeClassifier().fit(np.ones((5, 3)), [0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="column 1"):
        clf.predict(X)


def test_max_depth_zero_is_rejected():
    with pytest.raises(InvalidParameterError, match="max_depth"):
        DecisionTreeRegressor(max_depth=0).fit(np.ones((3, 1)), [1.0, 2.0, 3.0])


def test_wrong_number_of_features_at_predict():
    clf = DecisionTreeClassifier().fit(np.ones((4, 3)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="3 features"):
        clf.predict(np.ones((2, 4)))


def test_negative_sample_weight():
    with pytest.raises(ValueError, match="Negative"):
        DecisionTreeClassifier().fit(np.ones((3, 1)), [0, 1, 0], sample_weight=[1.0, -1.0, 1.0])


@pytest.mark.parametrize(
    "params",
    [
        {"min_samples_split": 1},
        {"min_samples_leaf": 0},
        {"min_samples_split": 1.5},
        {"max_features": 0},
        {"max_features": "auto"},
        {"max_leaf_nodes": 1},
        {"criterion": "mse"},
        {"splitter": "worst"},
        {"min_weight_fraction_leaf": 0.6},
    ],
    ids=str,
)
def test_bad_hyperparameters(params):
    with pytest.raises(InvalidParameterError, match=next(iter(params))):
        DecisionTreeClassifier(**params).fit(np.ones((4, 2)), [0, 1, 0, 1])


def test_max_features_above_n_features():
    with pytest.raises(ValueError, match="max_features"):
        DecisionTreeClassifier(max_features=5).fit(np.ones((4, 2)), [0, 1, 0, 1])


def test_user_arrays_are_not_modified():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = rng.integers(0, 2, 30)
    w = rng.random(30)
    X0, y0, w0 = X.copy(), y.copy(), w.copy()
    DecisionTreeClassifier(class_weight="balanced", random_state=0).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(w, w0)


def test_edible_plants_gini_and_tree_as_the_seed_should_have_computed():
    """SPEC.md erratum: the per-value Gini uses proportions inside each subset. Root Gini
    1 − (½² + ½²) = ½; Color splits into Green {Yes, Yes, Yes} and Red {No, No, No}, Gini 0 each,
    weighted 0; Size into Small (2 Yes, 2 No: Gini ½) and Large (1 Yes, 1 No: ½), weighted ½.
    So the root splits on Color and the tree is Color -> {Green: Yes, Red: No}. Two categories
    per feature, ordinal-coded (Green 0 / Red 1, Large 0 / Small 1): exact in binary."""
    from scratchlearn.datasets import load_edible_plants
    from scratchlearn.preprocessing import OrdinalEncoder

    b = load_edible_plants()
    enc = OrdinalEncoder().fit(b.data)
    m = DecisionTreeClassifier(criterion="gini", random_state=0).fit(
        enc.transform(b.data), b.target
    )
    t = m.tree_
    assert t.impurity[0] == 0.5
    assert b.feature_names[t.feature[0]] == "Color" and t.threshold[0] == 0.5
    assert t.node_count == 3 and list(t.impurity[1:]) == [0.0, 0.0]
    green, red = (1, 2) if enc.categories_[0][0] == "Green" else (2, 1)
    assert b.target_names[int(np.argmax(t.value[green, 0]))] == "Yes"
    assert b.target_names[int(np.argmax(t.value[red, 0]))] == "No"
    # the rejected feature's weighted Gini, from the same counts the split search sweeps
    size = enc.transform(b.data)[:, 1]
    gini = [1 - np.sum(np.bincount(b.target[size == v], minlength=2) ** 2) / np.sum(size == v) ** 2
            for v in (0.0, 1.0)]  # fmt: skip
    weighted = sum(g * np.mean(size == v) for g, v in zip(gini, (0.0, 1.0), strict=True))
    assert weighted == pytest.approx(0.5, abs=4 * np.finfo(float).eps)


def test_apply_walks_every_row_to_the_leaf_of_a_plain_walk():
    """apply walks four rows at a time (rows i, i + q, i + 2q, i + 3q, q = ⌈n/4⌉, the last
    walk's missing rows repeating row n − 1): for every n from 0 to 9 and a few larger ones,
    each row reaches the leaf that a plain walk of children_left / children_right / feature /
    threshold reaches, on a tree whose leaves lie at many depths."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(1000, 6))
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=1000) > 0).astype(int)
    t = DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    depths = np.diff(t.decision_path(X).indptr) - 1
    assert np.ptp(depths) >= 5  # leaves at many depths: the four walks end at different steps

    def plain(x):
        node = 0
        while t.children_left[node] != -1:
            go_left = x[t.feature[node]] <= t.threshold[node]
            node = t.children_left[node] if go_left else t.children_right[node]
        return node

    Xt = rng.normal(size=(257, 6))
    expected = np.array([plain(x) for x in Xt])
    for n in [*range(10), 63, 64, 65, 66, 67, 257]:
        np.testing.assert_array_equal(t.apply(Xt[:n]), expected[:n])
