"""The CART estimators' pruning: ``ccp_alpha``, ``cost_complexity_pruning_path`` and ``prune``
wired to the pure functions of ``tree/_prune.py`` (tested there against scikit-learn's own
trees). Here: the estimator-level results against scikit-learn and against those functions."""

import numpy as np
import pytest
from sklearn import tree as skt
from sklearn.datasets import load_breast_cancer, load_diabetes

from scratchlearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, PruneReport
from scratchlearn.tree._prune import ARRAY_KEYS, ccp_prune

EPS = np.finfo(np.float64).eps


def _data(kind):
    # float32-representable values: both libraries see the same thresholds
    X, y = (load_breast_cancer if kind == "classifier" else load_diabetes)(return_X_y=True)
    return X.astype(np.float32).astype(np.float64), y


def _pair(kind, **params):
    if kind == "classifier":
        return DecisionTreeClassifier(**params), skt.DecisionTreeClassifier(**params)
    return DecisionTreeRegressor(**params), skt.DecisionTreeRegressor(**params)


@pytest.mark.parametrize("kind", ["classifier", "regressor"])
def test_path_matches_sklearn(kind):
    X, y = _data(kind)
    ours, ref = _pair(kind, random_state=0, min_samples_leaf=3)
    p, q = ours.cost_complexity_pruning_path(X, y), ref.cost_complexity_pruning_path(X, y)
    assert p.ccp_alphas.shape == q.ccp_alphas.shape
    # Both sum the same leaf impurities (ties between features change which feature splits,
    # not the impurities of this data's nodes: see test_tree_cart_oracle.py); the totals are
    # sums of at most n_nodes terms of size <= R(root), each path step one subtraction: the
    # rounding bound of tree/_prune.py's tests, 2·n_nodes·(depth + 4)·ε·R(root).
    full = ours.fit(X, y)
    bound = 2 * full.tree_.node_count * (full.get_depth() + 4) * EPS * q.impurities[-1]
    np.testing.assert_allclose(p.impurities, q.impurities, rtol=0, atol=bound)
    np.testing.assert_allclose(p.ccp_alphas, q.ccp_alphas, rtol=0, atol=bound)
    assert p.ccp_alphas[0] == 0 and np.all(np.diff(p.ccp_alphas) >= -bound)


@pytest.mark.parametrize("kind", ["classifier", "regressor"])
def test_ccp_alpha_fit_is_the_pruned_full_tree(kind):
    X, y = _data(kind)
    ours = _pair(kind, random_state=0, min_samples_leaf=3)[0]
    path = ours.cost_complexity_pruning_path(X, y)
    full = ours.fit(X, y).tree_
    # midpoints between consecutive path alphas: at an alpha equal to some g(t), whether t is
    # collapsed depends on the last bit of g(t), which the two libraries round differently
    # (node-by-node agreement with scikit-learn's pruned trees is tested on its own tree_ in
    # test_tree_prune.py: here the two libraries' full trees differ where splits tie, e.g.
    # 3 % of diabetes' nodes, so only our own full tree is a fair reference)
    a = path.ccp_alphas
    leaves = []
    for alpha in ((a[1:] + a[:-1]) / 2)[::2]:
        m = _pair(kind, random_state=0, min_samples_leaf=3, ccp_alpha=alpha)[0].fit(X, y)
        expected = ccp_prune(full, alpha)
        for key in ARRAY_KEYS:
            np.testing.assert_array_equal(getattr(m.tree_, key), expected[key], err_msg=key)
        leaves.append(m.get_n_leaves())
    assert np.all(np.diff(leaves) < 0)  # each step of the path removes at least one leaf
    root = _pair(kind, random_state=0, ccp_alpha=path.ccp_alphas[-1] * 1.01)[0].fit(X, y)
    assert root.tree_.node_count == 1


@pytest.mark.parametrize("kind", ["classifier", "regressor"])
def test_prune_reports_and_never_lowers_the_validation_score(kind):
    X, y = _data(kind)
    order = np.random.default_rng(0).permutation(len(y))
    tr, va = order[: len(y) * 7 // 10], order[len(y) * 7 // 10 :]
    m = _pair(kind, random_state=0)[0].fit(X[tr], y[tr])
    before_nodes, before_score = m.tree_.node_count, m.score(X[va], y[va])
    report = m.prune(X[va], y[va])
    assert isinstance(report, PruneReport)
    assert report.nodes_before == before_nodes and report.nodes_after == m.tree_.node_count
    assert report.leaves_after == m.get_n_leaves() < report.leaves_before
    # the report's scores are the estimator's own score (same sums: exact for accuracy; R²
    # through r2_score sums in another order: n·ε relative)
    assert report.score_before == pytest.approx(before_score, rel=len(va) * EPS, abs=0)
    after = m.score(X[va], y[va])
    assert report.score_after == pytest.approx(after, rel=len(va) * EPS, abs=0)
    assert after >= before_score
    assert m.feature_importances_.sum() == pytest.approx(1.0, abs=X.shape[1] * EPS)


def test_prune_rejects_an_empty_validation_set():
    X, y = _data("classifier")
    m = DecisionTreeClassifier(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="non-empty validation set"):
        m.prune(X[:0], y[:0])
