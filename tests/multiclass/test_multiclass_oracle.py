"""One-vs-rest and one-vs-one against scikit-learn's meta-estimators wrapping OUR learners.

Both sides clone the same scratchlearn learner and fit it on the same rows in the same order, so
they run the same floating-point operations on the same arrays: the results are compared for
equality, not within a tolerance. What the oracle checks is ours: the targets each learner is
given, the score it is read by (decision_function, else P(1 | x)), the vote and confidence
aggregation, the K = 2 special cases and the probability normalisation.
"""

import numpy as np
import pytest
import sklearn.multiclass as skm
from sklearn.datasets import load_digits, load_iris, load_wine

from scratchlearn.linear_model import LogisticRegression, Ridge
from scratchlearn.multiclass import OneVsOneClassifier, OneVsRestClassifier
from scratchlearn.naive_bayes import GaussianNB
from scratchlearn.tree import DecisionTreeClassifier


def _data(name):
    X, y = {"iris": load_iris, "wine": load_wine, "digits": load_digits}[name](return_X_y=True)
    if name == "digits":  # every other image: 899 rows halve 45 one-vs-one fits and scorings
        X, y = X[::2], y[::2]
    if name == "wine":  # features on scales from 0.1 to 1000: standardise for the solvers
        X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X, y


CASES = [
    ("iris", LogisticRegression()),  # decision_function path
    ("digits", GaussianNB()),  # predict_proba path (no decision_function), K = 10
    ("wine", DecisionTreeClassifier(max_depth=3, random_state=0)),  # a tree: proba path
    ("iris-binary", LogisticRegression()),  # K = 2: one learner for one-vs-rest
    ("wine-binary", GaussianNB()),  # K = 2 thresholds P at 1/2
]


def _case(name):
    X, y = _data(name.split("-")[0])
    if name.endswith("binary"):
        keep = y != 0
        X, y = X[keep], y[keep]
    return X, y


def _same_outputs(ours, theirs, X, methods):
    for method in methods:
        assert hasattr(ours, method) == hasattr(theirs, method), method
        if hasattr(theirs, method):
            a, b = getattr(ours, method)(X), getattr(theirs, method)(X)
            assert a.shape == b.shape, method
            np.testing.assert_array_equal(a, b, err_msg=method)


@pytest.mark.parametrize("name, base", CASES, ids=[c[0] for c in CASES])
def test_one_vs_rest_equals_sklearns_wrapping_our_learner(name, base):
    X, y = _case(name)
    ours = OneVsRestClassifier(base).fit(X, y)
    theirs = skm.OneVsRestClassifier(base).fit(X, y)
    assert len(ours.estimators_) == len(theirs.estimators_)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    _same_outputs(ours, theirs, X, ["decision_function", "predict_proba", "predict"])


@pytest.mark.parametrize("name, base", CASES, ids=[c[0] for c in CASES])
def test_one_vs_one_equals_sklearns_wrapping_our_learner(name, base):
    X, y = _case(name)
    ours = OneVsOneClassifier(base).fit(X, y)
    theirs = skm.OneVsOneClassifier(base).fit(X, y)
    K = len(theirs.classes_)
    assert len(ours.estimators_) == K * (K - 1) // 2 == len(theirs.estimators_)
    assert ours.pairwise_indices_ is None and theirs.pairwise_indices_ is None
    _same_outputs(ours, theirs, X, ["decision_function", "predict"])


class _GramLogistic(LogisticRegression):
    """A learner that reads a precomputed Gram matrix (its rows as features): pairwise tag."""

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(pairwise=True)
        return t


def test_one_vs_one_slices_a_precomputed_kernel_like_sklearn():
    X, y = _data("iris")
    train = np.arange(len(y)) % 3 != 0
    G = X @ X[train].T  # (n, n_train) linear kernel; the training block is square
    ours = OneVsOneClassifier(_GramLogistic()).fit(G[train], y[train])
    theirs = skm.OneVsOneClassifier(_GramLogistic()).fit(G[train], y[train])
    assert len(ours.pairwise_indices_) == 3
    for a, b in zip(ours.pairwise_indices_, theirs.pairwise_indices_):
        np.testing.assert_array_equal(a, b)
    _same_outputs(ours, theirs, G[~train], ["decision_function", "predict"])
    with pytest.raises(ValueError, match="must be square"):
        OneVsOneClassifier(_GramLogistic()).fit(G[train][:, :10], y[train])


def test_labels_of_any_type_and_threads_change_nothing():
    X, y = _data("iris")
    names = np.array(["setosa", "versicolor", "virginica"], dtype=object)[y]
    for cls in (OneVsRestClassifier, OneVsOneClassifier):
        coded = cls(LogisticRegression()).fit(X, y)
        named = cls(LogisticRegression(), n_jobs=2).fit(X, names)
        np.testing.assert_array_equal(named.classes_, ["setosa", "versicolor", "virginica"])
        np.testing.assert_array_equal(named.predict(X), named.classes_[coded.predict(X)])
        np.testing.assert_array_equal(named.decision_function(X), coded.decision_function(X))


def test_one_vs_one_learner_targets_follow_the_pair_order():
    # pair (i, j), i < j, in the order (0,1), (0,2), (1,2); target 1 means class j. A learner
    # trained on classes i and j predicts only 0/1, and on class-j rows it mostly says 1.
    X, y = _data("iris")
    model = OneVsOneClassifier(GaussianNB()).fit(X, y)
    for h, (i, j) in zip(model.estimators_, [(0, 1), (0, 2), (1, 2)]):
        np.testing.assert_array_equal(h.classes_, [0, 1])
        assert h.class_count_.tolist() == [np.sum(y == i), np.sum(y == j)]
        assert np.mean(h.predict(X[y == j]) == 1) > 0.9


def test_methods_exist_when_the_learner_has_them():
    assert not hasattr(OneVsRestClassifier(GaussianNB()), "decision_function")
    assert hasattr(OneVsRestClassifier(LogisticRegression()), "predict_proba")
    assert hasattr(OneVsOneClassifier(GaussianNB()), "decision_function")
    assert not hasattr(OneVsOneClassifier(), "predict_proba")


def test_a_learner_without_scores_is_refused_before_any_fit():
    X, y = _data("iris")
    for cls in (OneVsRestClassifier, OneVsOneClassifier):
        with pytest.raises(ValueError, match="decision_function or predict_proba; Ridge"):
            cls(Ridge()).fit(X, y)
