"""Pruning over flat arrays: hand-checked trees, scikit-learn's fitted trees as the oracle,
and properties of reduced-error pruning."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, load_diabetes, load_wine
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from scratchlearn.tree._prune import (
    ARRAY_KEYS,
    ccp_path,
    ccp_prune,
    reduced_error_prune,
)

U = np.finfo(np.float64).eps / 2  # unit roundoff


def _hand_tree():
    """Two classes, 8 rows; counts [4,4] → x0 ≤ .5: [3,1] (→ x1 ≤ .5: [3,0] | [0,1])
    | [1,3] (→ x1 ≤ .5: [1,1] | [0,2]). Every number is dyadic, so every step is exact."""
    counts = np.array([[4, 4], [3, 1], [3, 0], [0, 1], [1, 3], [1, 1], [0, 2]], dtype=float)
    n = counts.sum(axis=1)
    p = counts / n[:, None]
    return SimpleNamespace(
        children_left=np.array([1, 2, -1, -1, 5, -1, -1]),
        children_right=np.array([4, 3, -1, -1, 6, -1, -1]),
        feature=np.array([0, 1, -2, -2, 1, -2, -2]),
        threshold=np.array([0.5, 0.5, -2, -2, 0.5, -2, -2]),
        impurity=1 - np.sum(p**2, axis=1),  # gini: .5, .375, 0, 0, .375, .5, 0
        n_node_samples=n.astype(np.intp),
        weighted_n_node_samples=n,
        value=p[:, None, :],
    )


def _tree(d: dict):
    return SimpleNamespace(**d)


def _same(d: dict, tree) -> bool:
    return all(np.array_equal(d[k], getattr(tree, k)) for k in ARRAY_KEYS)


# -- cost-complexity pruning by hand ----------------------------------------------------------
def test_ccp_path_by_hand():
    # R(t) = w_t/8 · gini_t: R(0) = .5, R(1) = R(4) = .1875, R(5) = .125, other leaves 0.
    # g(1) = .1875/1, g(4) = (.1875 − .125)/1 = .0625, g(0) = (.5 − .125)/3 = .125: node 4 goes
    # first; then g(0) = (.5 − .1875)/2 = .15625 < g(1) = .1875, so the root goes next.
    alphas, impurities = ccp_path(_hand_tree())
    np.testing.assert_array_equal(alphas, [0.0, 0.0625, 0.15625])
    np.testing.assert_array_equal(impurities, [0.125, 0.1875, 0.5])


@pytest.mark.parametrize(
    ("alpha", "kept"),
    [(0.0, [0, 1, 2, 3, 4, 5, 6]), (0.06, [0, 1, 2, 3, 4, 5, 6]), (0.0625, [0, 1, 2, 3, 4]),
     (0.15, [0, 1, 2, 3, 4]), (0.15625, [0]), (7.0, [0])],
)  # fmt: skip
def test_ccp_prune_by_hand(alpha, kept):
    tree = _hand_tree()
    d = ccp_prune(tree, alpha)
    assert set(d) == set(ARRAY_KEYS)
    np.testing.assert_array_equal(d["n_node_samples"], tree.n_node_samples[kept])
    np.testing.assert_array_equal(d["value"], tree.value[kept])
    leaves = d["children_left"] == -1
    assert np.all(d["children_right"][leaves] == -1) and np.all(d["feature"][leaves] == -2)
    assert np.all(d["threshold"][leaves] == -2.0)
    assert leaves.sum() == (len(kept) + 1) // 2


def test_ccp_prune_renumbers_depth_first_left_first():
    # The hand tree numbered breadth-first (0; 1, 4; 2, 3, 5, 6 → 0; 1, 2; 3, 4, 5, 6) comes
    # back in depth-first, left-first order, which is the hand tree itself.
    tree = _hand_tree()
    bfs = np.array([0, 1, 4, 2, 3, 5, 6])  # old id of each new (breadth-first) id
    new = np.argsort(bfs)  # new id of each old id
    relabel = lambda c: np.where(c == -1, -1, new[np.maximum(c, 0)])
    shuffled = _tree({k: getattr(tree, k)[bfs] for k in ARRAY_KEYS})
    shuffled.children_left = relabel(shuffled.children_left)
    shuffled.children_right = relabel(shuffled.children_right)
    assert _same(ccp_prune(shuffled, 0.0), tree)
    np.testing.assert_array_equal(ccp_path(shuffled)[0], ccp_path(tree)[0])


def test_ccp_bad_input():
    with pytest.raises(ValueError, match="ccp_alpha must be a finite float >= 0"):
        ccp_prune(_hand_tree(), -0.1)
    with pytest.raises(TypeError, match="lacks"):
        ccp_path(SimpleNamespace(children_left=np.array([-1])))


# -- cost-complexity pruning against scikit-learn ---------------------------------------------
def _real(name):
    loader, model = {
        "breast_cancer": (load_breast_cancer, DecisionTreeClassifier),
        "wine": (load_wine, DecisionTreeClassifier),
        "diabetes": (load_diabetes, DecisionTreeRegressor),
    }[name]
    X, y = loader(return_X_y=True)
    return X, y, model


def _weights(n, weighted):
    return np.random.default_rng(1).uniform(0.5, 2.0, n) if weighted else None


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", ["breast_cancer", "wine", "diabetes"])
def test_ccp_path_matches_sklearn(name, weighted):
    X, y, model = _real(name)
    sw = _weights(len(y), weighted)
    est = model(random_state=0).fit(X, y, sample_weight=sw)
    expected = est.cost_complexity_pruning_path(X, y, sample_weight=sw)
    alphas, impurities = ccp_path(est.tree_)
    # Both sides compute R(t) = w_t·impurity_t/w_root (2 roundings), sum the leaves' R into
    # every R(T_t) (≤ n_nodes additions) and, at each of ≤ n_nodes collapses, form R(t) − R(T_t)
    # and add it to ≤ max_depth ancestors. Every partial result lies in [−R(root), R(root)]
    # (impurity is concave, so 0 ≤ R(T_t) ≤ R(t) ≤ R(root)), so each rounding is at most
    # u·R(root), and any value carries at most n_nodes·(max_depth + 4) of them; the same holds
    # after dividing by |T_t| − 1 ≥ 1. The two implementations differ by at most twice that.
    # Measured: 0 for every alpha, 1e-28 for one impurity (bound 4e-9 for diabetes' R(root)
    # of 5.9e3, 1.6e-12 for breast cancer).
    t = est.tree_
    bound = 2 * t.node_count * (t.max_depth + 4) * U * t.impurity[0]
    assert alphas.shape == expected.ccp_alphas.shape
    np.testing.assert_allclose(alphas, expected.ccp_alphas, rtol=0, atol=bound)
    np.testing.assert_allclose(impurities, expected.impurities, rtol=0, atol=bound)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", ["breast_cancer", "wine", "diabetes"])
def test_ccp_prune_matches_sklearn_tree_node_by_node(name, weighted):
    X, y, model = _real(name)
    sw = _weights(len(y), weighted)
    full = model(random_state=0).fit(X, y, sample_weight=sw)
    ours = ccp_path(full.tree_)[0]
    theirs = full.cost_complexity_pruning_path(X, y, sample_weight=sw).ccp_alphas
    # Each side at its own k-th alpha has collapsed the same k weakest links when the two
    # sequences agree, so the comparison never hinges on an alpha within rounding of a g(t);
    # midpoints between distinct alphas test the "g ≤ α" rule away from any boundary.
    step = max(1, len(ours) // 12)
    for k in range(1, len(ours), step):
        if theirs[k] <= 0:  # g(t) = 0 up to rounding (−3e-18 on weighted diabetes): not an α
            continue
        pruned = model(random_state=0, ccp_alpha=theirs[k]).fit(X, y, sample_weight=sw)
        assert _same(ccp_prune(full.tree_, ours[k]), pruned.tree_), f"alpha #{k}"
        if k + 1 < len(ours) and ours[k + 1] > ours[k]:
            mid = (ours[k] + ours[k + 1]) / 2
            pruned = model(random_state=0, ccp_alpha=mid).fit(X, y, sample_weight=sw)
            assert _same(ccp_prune(full.tree_, mid), pruned.tree_), f"midpoint after #{k}"


# -- reduced-error pruning by hand ------------------------------------------------------------
# Rows of the hand tree's validation set: (0,0) → leaf 2, (0,1) → leaf 3, (1,0) → leaf 5,
# (1,1) → leaf 6. Training majorities (argmax of value, first index on a tie): node 0 → 0,
# 1 → 0, 2 → 0, 3 → 1, 4 → 1, 5 → 0 (tie), 6 → 1.
X_HAND = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)


def test_reduced_error_prune_by_hand():
    # y = 0, 0, 1, 1. Node 1: leaf 0 errors, branch 1 (row (0,1) at leaf 3) → pruned.
    # Node 4: leaf 0 errors, branch 1 (row (1,0) at leaf 5) → pruned. Root: leaf 2 errors,
    # branch (leaves 1 and 4) 0 → kept. Accuracy 2/4 → 4/4.
    d, report = reduced_error_prune(_hand_tree(), X_HAND, [0, 0, 1, 1], classes=[0, 1])
    np.testing.assert_array_equal(d["children_left"], [1, -1, -1])
    np.testing.assert_array_equal(d["n_node_samples"], [8, 4, 4])
    assert (report.nodes_before, report.nodes_after) == (7, 3)
    assert (report.leaves_before, report.leaves_after) == (4, 2)
    assert (report.score_before, report.score_after) == (0.5, 1.0)
    assert report.nodes_removed == 4


def test_reduced_error_prune_keeps_a_split_that_helps_and_uses_weights():
    # y = 0, 1, 1, 1 with weights 1, 3, 1, 1: at node 1 the leaf (class 0) misses row (0,1)
    # of weight 3 while the branch misses nothing → kept; node 4 pruned as before (leaf 0
    # errors vs 1 of weight 1). Root: leaf (class 0) misses weight 5, branch 0 → kept.
    # Weighted accuracy before: leaf 5 misses (1,0) of weight 1 → 5/6.
    w = [1.0, 3.0, 1.0, 1.0]
    d, report = reduced_error_prune(
        _hand_tree(), X_HAND, ["a", "b", "b", "b"], classes=["a", "b"], sample_weight=w
    )
    np.testing.assert_array_equal(d["n_node_samples"], [8, 4, 3, 1, 4])
    assert (report.score_before, report.score_after) == (5 / 6, 1.0)


def test_a_node_no_validation_row_reaches_is_pruned():
    # Only rows (0,0) and (0,1), both class 0: node 4 is reached by none (its loss sum is 0 ≤ 0),
    # node 1's leaf is right on both, and then the root's leaf is right on both: one leaf.
    d, report = reduced_error_prune(_hand_tree(), X_HAND[:2], [0, 0])
    assert d["children_left"].tolist() == [-1] and report.nodes_after == 1
    assert report.score_before == 0.5 and report.score_after == 1.0


def _stump(values):
    """A regression stump x0 ≤ 0.5 with root value values[0] and leaf values values[1:]."""
    return SimpleNamespace(
        children_left=np.array([1, -1, -1]),
        children_right=np.array([2, -1, -1]),
        feature=np.array([0, -2, -2]),
        threshold=np.array([0.5, -2.0, -2.0]),
        impurity=np.array([1.0, 0.0, 0.0]),
        n_node_samples=np.array([4, 2, 2]),
        weighted_n_node_samples=np.array([4.0, 2.0, 2.0]),
        value=np.array(values, dtype=float).reshape(3, 1, 1),
    )


@pytest.mark.parametrize(
    ("y", "n_after", "r2_before", "r2_after"),
    [
        ([1.0, 3.0], 3, 1.0, 1.0),  # the leaves are exact; the root (2) would miss by 1 each
        ([1.5, 2.5], 1, 0.0, 0.0),  # SSE .25 + .25 for the leaves and for the root: a tie, pruned
        ([2.0, 2.5], 1, -9.0, -1.0),  # SSE 1 + .25 vs 0 + .25: R² = 1 − SSE/.125
    ],
)
def test_reduced_error_prune_regressor_by_hand(y, n_after, r2_before, r2_after):
    d, report = reduced_error_prune(_stump([2.0, 1.0, 3.0]), [[0.0], [1.0]], y)
    assert report.nodes_after == n_after
    assert (report.score_before, report.score_after) == (r2_before, r2_after)


def test_reduced_error_prune_bad_input():
    tree = _hand_tree()
    with pytest.raises(ValueError, match="non-empty validation set"):
        reduced_error_prune(tree, np.empty((0, 2)), [])
    with pytest.raises(ValueError, match="X_val has 1 features"):
        reduced_error_prune(tree, [[0.0]], [0])
    with pytest.raises(ValueError, match="y_val must have shape"):
        reduced_error_prune(tree, X_HAND, [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        reduced_error_prune(tree, [[np.nan, 0.0]], [0])
    with pytest.raises(ValueError, match="sample_weight"):
        reduced_error_prune(tree, X_HAND, [0, 0, 1, 1], sample_weight=[1, -1, 1, 1])
    with pytest.raises(ValueError, match="classes must hold the tree's 2"):
        reduced_error_prune(tree, X_HAND, [0, 0, 1, 1], classes=[0, 1, 2])
    X = X_HAND.copy()
    reduced_error_prune(tree, X, [0, 0, 1, 1])
    np.testing.assert_array_equal(X, X_HAND)  # user arrays are never modified


# -- reduced-error pruning: properties and real data -------------------------------------------
def _predict(d: dict, X: np.ndarray) -> np.ndarray:
    """The leaf each row reaches in a tree given as a dict of arrays (a plain reference loop)."""
    leaves = np.empty(len(X), dtype=np.intp)
    for i, x in enumerate(X):
        t = 0
        while d["children_left"][t] != -1:
            go_left = x[d["feature"][t]] <= d["threshold"][t]
            t = d["children_left"][t] if go_left else d["children_right"][t]
        leaves[i] = t
    return leaves


def _is_subtree(small: dict, big: dict) -> bool:
    """Walk both trees from the root: every node of ``small`` is the matching node of ``big``
    (same split, counts, impurity and value); a leaf of ``small`` may be internal in ``big``."""
    stack = [(0, 0)]
    while stack:
        s, b = stack.pop()
        for k in ("impurity", "n_node_samples", "weighted_n_node_samples", "value"):
            if not np.array_equal(small[k][s], big[k][b]):
                return False
        if small["children_left"][s] != -1:
            if big["children_left"][b] == -1 or small["feature"][s] != big["feature"][b]:
                return False
            if small["threshold"][s] != big["threshold"][b]:
                return False
            stack.append((small["children_left"][s], big["children_left"][b]))
            stack.append((small["children_right"][s], big["children_right"][b]))
    return True


def _arrays_of(tree) -> dict:
    return {k: np.asarray(getattr(tree, k)) for k in ARRAY_KEYS}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_val=st.integers(1, 40))
def test_reduced_error_prune_properties_classifier(seed, n_val):
    # Small integer features (many ties and unreached nodes) and noisy labels of 3 classes.
    # With unit weights every loss sum is an integer, so "accuracy does not drop" is exact.
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(60 + n_val, 3)).astype(float)
    y = np.where(rng.random(len(X)) < 0.7, (X[:, 0] + X[:, 1] > 4).astype(int), 2)
    est = DecisionTreeClassifier(random_state=0).fit(X[:60], y[:60])
    X_val, y_val = X[60:], y[60:]
    d, report = reduced_error_prune(est.tree_, X_val, y_val, classes=est.classes_)
    assert report.score_after >= report.score_before
    assert report.score_before == est.score(X_val, y_val)  # integer X: float32 routing is exact
    assert _is_subtree(d, _arrays_of(est.tree_))
    pred = est.classes_[np.argmax(d["value"][_predict(d, X_val), 0], axis=1)]
    assert report.score_after == np.mean(pred == y_val)
    d2, report2 = reduced_error_prune(_tree(d), X_val, y_val, classes=est.classes_)
    assert all(np.array_equal(d[k], d2[k]) for k in ARRAY_KEYS)  # pruning twice: no-op
    assert report2.nodes_before == report2.nodes_after == report.nodes_after


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_val=st.integers(2, 40))
def test_reduced_error_prune_properties_regressor(seed, n_val):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(60 + n_val, 2)).astype(float)
    y = X[:, 0] ** 2 - X[:, 1] + rng.normal(scale=2.0, size=len(X))
    est = DecisionTreeRegressor(random_state=0).fit(X[:60], y[:60])
    X_val, y_val = X[60:], y[60:]
    d, report = reduced_error_prune(est.tree_, X_val, y_val)
    # Each decision sums ≤ n_val terms wᵢ·Δℓᵢ with |Δℓᵢ| ≤ M = max squared error, so its
    # rounding is ≤ n_val·u·n_val·M; ≤ n_nodes decisions, then R² = 1 − SSE/SST adds
    # 2·n_val·u relative to SSE/SST. Measured shortfall: none (after ≥ before in every draw).
    M = np.max((y_val[:, None] - est.tree_.value[:, 0, 0][None, :]) ** 2)
    sst = np.sum((y_val - y_val.mean()) ** 2)
    slack = (est.tree_.node_count * n_val**2 + 2 * n_val) * U * n_val * M / max(sst, 1e-300)
    if sst > 0:
        assert report.score_after >= report.score_before - slack
    assert _is_subtree(d, _arrays_of(est.tree_))
    d2, report2 = reduced_error_prune(_tree(d), X_val, y_val)
    assert all(np.array_equal(d[k], d2[k]) for k in ARRAY_KEYS)
    assert report2.nodes_before == report2.nodes_after


@pytest.mark.parametrize("name", ["breast_cancer", "wine", "diabetes"])
def test_reduced_error_prune_on_real_data(name):
    X, y, model = _real(name)
    X_tr, X_val, y_tr, y_val = train_test_split(X, y, test_size=0.3, random_state=0)
    est = model(random_state=0).fit(X_tr, y_tr)
    classes = getattr(est, "classes_", None)
    # scikit-learn routes X as float32; passing the same float32 values makes the unpruned
    # tree's score here the estimator's own score (exactly: same rows, same leaves).
    X_val32 = X_val.astype(np.float32).astype(np.float64)
    d, report = reduced_error_prune(est.tree_, X_val32, y_val, classes=classes)
    assert report.score_before == est.score(X_val, y_val)
    assert report.score_after >= report.score_before
    assert report.nodes_after < report.nodes_before  # a fully grown tree overfits these sets
    assert report.leaves_after == np.sum(d["children_left"] == -1)
    assert _is_subtree(d, _arrays_of(est.tree_))
    leaf = _predict(d, X_val32)
    if classes is None:
        resid, tot = y_val - d["value"][leaf, 0, 0], y_val - y_val.mean()
        ratio = resid @ resid / (tot @ tot)
        # Two summation orders of n non-negative terms each, for SSE and for SST: each sum is
        # within n·u relative, so the ratio within ~4n·u of itself (measured: 0 or 1 ulp).
        atol = 4 * len(y_val) * U * ratio
        np.testing.assert_allclose(report.score_after, 1 - ratio, rtol=0, atol=atol)
    else:
        pred = classes[np.argmax(d["value"][leaf, 0], axis=1)]
        assert report.score_after == np.mean(pred == y_val)
