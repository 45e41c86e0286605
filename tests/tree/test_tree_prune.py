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
