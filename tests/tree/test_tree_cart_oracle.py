"""CART against scikit-learn's trees on real data, node by node.

X is rounded to float32 and back: scikit-learn grows its trees on a float32 copy of X, so on
float32-representable data both libraries see the same values, the same candidate midpoints
(``a/2 + b/2`` of two float32 numbers is exact in float64) and hence the same thresholds, bit for
bit.

Ties. Two features (or two thresholds) can give the same impurity decrease at a node; each library
then keeps the first in its own random feature order, and the two orders cannot match (different
generators). :func:`_walk` therefore compares the trees from the root down: where the splits agree
it compares the node and descends; where they differ it checks that the two splits are an exact tie
(same proxy ``−N_L I_L − N_R I_R`` on that node's rows, recomputed by the plain reference) and stops
descending there. So every node compared agrees, and every disagreement is proven to be a tie. When
no tie occurred the whole tree, its predictions, probabilities and importances must agree.
"""

import numpy as np
import pytest
from sklearn import datasets
from sklearn import tree as sk_tree

from scratchlearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from scratchlearn.tree._splitter import _proxy_reference
from scratchlearn.utils.class_weight import class_weights

EPS = np.finfo(np.float64).eps


def _load(name):
    loader = {
        "breast_cancer": datasets.load_breast_cancer,
        "wine": datasets.load_wine,
        "digits": datasets.load_digits,
        "diabetes": datasets.load_diabetes,
    }[name]
    X, y = loader(return_X_y=True)
    return X.astype(np.float32).astype(np.float64), y


def _bounds(y, w):
    """Rounding bounds for a node's impurity and value.

    scikit-learn sums weights, w·y and w·y² sequentially over a node's n rows; the error of such a
    sum is at most n·ε·Σ|terms| (Higham, 2002, §4.2). Its squared-error impurity Σwy²/N − ȳ² thus
    errs by ≤ 2·n·ε·max y² and its mean by ≤ n·ε·max|y| (ours is computed in two passes, more
    accurately). Class fractions and Gini/entropy are bounded by 1 with the same n·ε relative
    error on the counts (times log₂ K ≤ 4 for entropy). A factor 4 on top covers the division and
    the final subtraction.
    """
    n = y.shape[0]
    scale = float(np.max(y**2)) if y.dtype.kind == "f" else 4.0
    return 4 * 2 * n * EPS * max(scale, 1.0) * float(w.max())


def _walk(ours, theirs, X, y, w, criterion):
    """Compare two fitted trees from the root; returns (nodes compared, verified ties)."""
    A, B = ours.tree_, theirs.tree_
    tol = _bounds(y, w)
    classes = np.unique(y)
    reach = theirs.decision_path(X).tocsc()
    stack, n_nodes, n_ties = [(0, 0)], 0, 0
    while stack:
        a, b = stack.pop()
        n_nodes += 1
        assert A.n_node_samples[a] == B.n_node_samples[b]
        assert A.weighted_n_node_samples[a] == pytest.approx(
            B.weighted_n_node_samples[b], rel=1e-12
        )
        assert A.impurity[a] == pytest.approx(B.impurity[b], abs=tol)
        np.testing.assert_allclose(A.value[a], B.value[b], rtol=0, atol=tol)
        assert (A.children_left[a] == -1) == (B.children_left[b] == -1)
        if A.children_left[a] == -1:
            continue
        if A.feature[a] == B.feature[b] and A.threshold[a] == B.threshold[b]:
            stack += [(A.children_left[a], B.children_left[b])]
            stack += [(A.children_right[a], B.children_right[b])]
            continue
        rows = reach[:, b].toarray().ravel().astype(bool)
        proxies = []
        for f, t in ((A.feature[a], A.threshold[a]), (B.feature[b], B.threshold[b])):
            left = X[rows, f] <= t
            yl, wl, yr, wr = y[rows][left], w[rows][left], y[rows][~left], w[rows][~left]
            proxies.append(_proxy_reference(yl, wl, yr, wr, criterion, classes))
        # a tie: the same proxy up to the rounding of two sums of n_t terms
        assert proxies[0] == pytest.approx(proxies[1], rel=1e-12, abs=tol)
        n_ties += 1
    return n_nodes, n_ties


CLASSIFICATION_LIMITS = [
    {},
    {"max_depth": 3},
    {"min_samples_leaf": 7},
    {"min_samples_split": 25},
    {"min_samples_leaf": 0.02},  # fractions: ceil(f·n) rows
    {"min_samples_split": 0.1},
    {"min_weight_fraction_leaf": 0.04},
    {"min_impurity_decrease": 0.005},
    {"class_weight": "balanced", "max_depth": 5},
    {"class_weight": {0: 2.0, 1: 0.5}},
]


def _split(X, y):
    idx = np.random.default_rng(0).permutation(X.shape[0])
    cut = int(0.75 * X.shape[0])
    return idx[:cut], idx[cut:]


def _check_pair(ours, theirs, X, y, w, criterion, train, test, classifier):
    _, n_ties = _walk(ours, theirs, X[train], y[train], w, criterion)
    if n_ties:
        return n_ties
    # no tie anywhere: the two trees are the same tree
    np.testing.assert_array_equal(ours.tree_.children_left, theirs.tree_.children_left)
    np.testing.assert_array_equal(ours.tree_.feature, theirs.tree_.feature)
    assert ours.tree_.max_depth == theirs.tree_.max_depth  # ours: the builder's node depths
    np.testing.assert_array_equal(ours.predict(X[test]), theirs.predict(X[test]))
    if classifier:
        np.testing.assert_allclose(
            ours.predict_proba(X[test]), theirs.predict_proba(X[test]), atol=1e-12
        )
    # importances: sums over nodes of N_t I_t − N_L I_L − N_R I_R, each within the impurity bound
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, atol=1e-9)
    return 0


@pytest.mark.parametrize("name", ["breast_cancer", "wine"])
@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("limits", CLASSIFICATION_LIMITS, ids=str)
def test_classifier_matches_sklearn_node_by_node(name, criterion, limits):
    X, y = _load(name)
    train, test = _split(X, y)
    w = np.ones(train.shape[0])
    ours = DecisionTreeClassifier(criterion=criterion, random_state=0, **limits)
    theirs = sk_tree.DecisionTreeClassifier(criterion=criterion, random_state=0, **limits)
    ours.fit(X[train], y[train])
    theirs.fit(X[train], y[train])
    if "class_weight" in limits:  # the walk compares weighted nodes: give it the weights
        codes = np.searchsorted(ours.classes_, y[train])
        N_k = np.bincount(codes, minlength=ours.n_classes_)
        w = class_weights(limits["class_weight"], ours.classes_, N_k)[codes]
    _check_pair(ours, theirs, X, y, w, criterion, train, test, classifier=True)


@pytest.mark.parametrize("name", ["breast_cancer", "wine", "diabetes"])
def test_sample_weight_matches_sklearn(name):
    X, y = _load(name)
    train, test = _split(X, y)
    w = np.random.default_rng(1).integers(1, 4, train.shape[0]).astype(np.float64)
    classifier = name != "diabetes"
    criterion = "gini" if classifier else "squared_error"
    ours = (DecisionTreeClassifier if classifier else DecisionTreeRegressor)(
        max_depth=6, random_state=0
    )
    theirs = (sk_tree.DecisionTreeClassifier if classifier else sk_tree.DecisionTreeRegressor)(
        max_depth=6, random_state=0
    )
    ours.fit(X[train], y[train], sample_weight=w)
    theirs.fit(X[train], y[train], sample_weight=w)
    _check_pair(ours, theirs, X, y, w, criterion, train, test, classifier)


REGRESSION_LIMITS = [
    {"max_depth": 4},
    {"min_samples_leaf": 10},
    {"min_samples_split": 40},
    {"min_weight_fraction_leaf": 0.03},
    {"min_impurity_decrease": 20.0},
    {"max_leaf_nodes": 12},
    {"max_leaf_nodes": 30, "min_samples_leaf": 3},
]


@pytest.mark.parametrize("criterion", ["squared_error", "absolute_error"])
@pytest.mark.parametrize("limits", REGRESSION_LIMITS, ids=str)
def test_regressor_matches_sklearn_without_ties(criterion, limits):
    X, y = _load("diabetes")
    train, test = _split(X, y)
    ours = DecisionTreeRegressor(criterion=criterion, random_state=0, **limits)
    theirs = sk_tree.DecisionTreeRegressor(criterion=criterion, random_state=0, **limits)
    ours.fit(X[train], y[train])
    theirs.fit(X[train], y[train])
    w = np.ones(train.shape[0])
    # diabetes has few ties (two features isolating the same 2 or 3 rows of a small node) and,
    # for the absolute error, more: y is integer, so Σ|y − m| is a multiple of 1/2 and different
    # splits of a small node often tie exactly. _walk verifies each tie; where there was none,
    # _check_pair has compared the whole trees.
    _check_pair(ours, theirs, X, y, w, criterion, train, test, classifier=False)


@pytest.mark.parametrize(
    "name, max_leaf_nodes",
    [("diabetes", 6), ("diabetes", 15), ("breast_cancer", 4), ("breast_cancer", 6)],
)
def test_best_first_numbering_matches_sklearn(name, max_leaf_nodes):
    # configurations whose growth meets no tied split (checked by the walk), so that the order
    # of expansion, and with it the node numbering, must be scikit-learn's exactly
    X, y = _load(name)
    train, _ = _split(X, y)
    X, y = X[train], y[train]
    limits = {"max_leaf_nodes": max_leaf_nodes}
    if name == "diabetes":
        ours = DecisionTreeRegressor(random_state=0, **limits).fit(X, y)
        theirs = sk_tree.DecisionTreeRegressor(random_state=0, **limits).fit(X, y)
        criterion = "squared_error"
    else:
        ours = DecisionTreeClassifier(random_state=0, **limits).fit(X, y)
        theirs = sk_tree.DecisionTreeClassifier(random_state=0, **limits).fit(X, y)
        criterion = "gini"
    assert _walk(ours, theirs, X, y, np.ones(len(y)), criterion)[1] == 0
    for name in ("children_left", "children_right", "feature", "threshold", "n_node_samples"):
        np.testing.assert_array_equal(getattr(ours.tree_, name), getattr(theirs.tree_, name))
    assert ours.get_n_leaves() == max_leaf_nodes
    assert ours.get_depth() == theirs.get_depth()  # best-first: depths recorded as nodes are made


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_digits_fully_grown_training_predictions(criterion):
    # digits' integer pixels tie constantly, so the trees differ; but a fully grown tree ends
    # each branch only when the node is pure or all its rows are identical, so its training
    # predictions are the majority label of each group of identical rows whatever the ties
    X, y = _load("digits")
    ours = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_array_equal(ours.predict_proba(X), theirs.predict_proba(X))
    _, n_ties = _walk(ours, theirs, X, y, np.ones(len(y)), criterion)
    assert n_ties > 0  # the reason this test exists: digits has ties, and they were verified
