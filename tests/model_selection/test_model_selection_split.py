"""Splitters and train_test_split: hand-checked folds, scikit-learn oracles, properties, errors."""

import warnings
from math import ceil, floor

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import model_selection as skms
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from scratchlearn.model_selection import (
    GroupKFold,
    KFold,
    StratifiedKFold,
    check_cv,
    train_test_split,
)

_SK_VERSION = tuple(int(v) for v in sklearn.__version__.split(".")[:2])


def _tests(splitter, X, y=None, groups=None):
    return [te.tolist() for _, te in splitter.split(X, y, groups)]


def _assert_partition(splits, n):
    """Every sample in exactly one test fold; train is the complement of test in each fold."""
    seen = np.concatenate([te for _, te in splits])
    assert np.array_equal(np.sort(seen), np.arange(n))
    for tr, te in splits:
        assert np.intersect1d(tr, te).size == 0
        assert np.array_equal(np.sort(np.concatenate([tr, te])), np.arange(n))


# -- hand-checkable examples -------------------------------------------------------------------
def test_kfold_hand_example():
    # n=7, K=3: 7 = 3 + 2 + 2, the first 7 mod 3 = 1 fold is one larger
    assert _tests(KFold(3), np.zeros(7)) == [[0, 1, 2], [3, 4], [5, 6]]
    train, test = next(KFold(3).split(np.zeros(7)))
    assert train.tolist() == [3, 4, 5, 6]


def test_stratified_kfold_hand_example():
    # six of class "a", three of class "b", K=3: each fold gets two a's and one b, in order
    y = np.array(["a", "b", "a", "a", "b", "a", "a", "b", "a"])
    folds = _tests(StratifiedKFold(3), np.zeros(9), y)
    assert folds == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_group_kfold_hand_example():
    # group sizes a:4, b:3, c:2, d:1, K=2. Greedy: a->0 (4), b->1 (3), c->1 (5), d->0 (5)
    groups = np.array(list("aaaabbbccd"))
    folds = _tests(GroupKFold(2), np.zeros(10), groups=groups)
    assert folds == [[0, 1, 2, 3, 9], [4, 5, 6, 7, 8]]


# -- oracles ----------------------------------------------------------------------------------
@pytest.mark.parametrize("n, k", [(n, k) for n in (2, 7, 10, 11, 150) for k in (2, 3, 5) if k <= n])
def test_kfold_matches_sklearn(n, k):
    X = np.zeros((n, 2))
    assert _tests(KFold(k), X) == _tests(skms.KFold(k), X)


@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_stratified_kfold_matches_sklearn(loader, k):
    X, y = loader(return_X_y=True)
    # unshuffled: the very same test indices
    assert _tests(StratifiedKFold(k), X, y) == _tests(skms.StratifiedKFold(k), X, y)
    # shuffled: the RNGs differ, but the class counts of every test fold are the same
    ours = [
        np.bincount(y[te], minlength=y.max() + 1).tolist()
        for _, te in StratifiedKFold(k, shuffle=True, random_state=0).split(X, y)
    ]
    theirs = [
        np.bincount(y[te], minlength=y.max() + 1).tolist()
        for _, te in skms.StratifiedKFold(k, shuffle=True, random_state=0).split(X, y)
    ]
    assert ours == theirs


@settings(max_examples=25, deadline=None)
@given(labels=st.lists(st.sampled_from("abcd"), min_size=4, max_size=60), k=st.integers(2, 5))
def test_stratified_kfold_random_labels_match_sklearn(labels, k):
    y = np.array(labels)
    X = np.zeros(len(y))
    counts = np.unique(y, return_counts=True)[1]
    if k > len(y) or np.all(counts < k):
        for splitter in (StratifiedKFold(k), skms.StratifiedKFold(k)):
            with pytest.raises(ValueError), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                list(splitter.split(X, y))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _tests(StratifiedKFold(k), X, y) == _tests(skms.StratifiedKFold(k), X, y)


@settings(max_examples=25, deadline=None)
@given(groups=st.lists(st.integers(0, 9), min_size=3, max_size=60), k=st.integers(2, 4))
def test_group_kfold_matches_sklearn_and_keeps_groups(groups, k):
    groups = np.array(groups)
    X = np.zeros(len(groups))
    if len(np.unique(groups)) < k:
        # fewer groups (or samples) than folds
        with pytest.raises(ValueError, match="greater than the number of (groups|samples)"):
            list(GroupKFold(k).split(X, groups=groups))
        return
    splits = list(GroupKFold(k).split(X, groups=groups))
    _assert_partition(splits, len(groups))
    for tr, te in splits:  # a group is never on both sides
        assert np.intersect1d(groups[tr], groups[te]).size == 0
    ours = [te.tolist() for _, te in splits]
    ref = _tests(skms.GroupKFold(k), X, groups=groups)
    sizes = np.unique(groups, return_counts=True)[1]
    if len(np.unique(sizes)) == len(sizes) or _SK_VERSION >= (1, 9):
        assert ours == ref
    else:  # scikit-learn 1.8 orders groups of equal size by an unstable sort (1.9: stable, as
        # ours): which of two equal groups goes first differs, the load of each fold does not
        assert [len(t) for t in ours] == [len(t) for t in ref]


def test_group_kfold_shuffle_keeps_groups_and_balances_group_counts():
    groups = np.repeat(np.arange(11), np.arange(1, 12))  # 11 groups of sizes 1..11
    X = np.zeros(len(groups))
    splits = list(GroupKFold(3, shuffle=True, random_state=1).split(X, groups=groups))
    _assert_partition(splits, len(groups))
    n_groups = sorted(len(np.unique(groups[te])) for _, te in splits)
    assert n_groups == [3, 4, 4]  # 11 groups cut into runs of 4, 4, 3
    again = list(GroupKFold(3, shuffle=True, random_state=1).split(X, groups=groups))
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(splits, again))


# -- properties ---------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 80), k=st.integers(2, 10), seed=st.integers(0, 1000))
def test_kfold_shuffle_properties(n, k, seed):
    if k > n:
        return
    X = np.zeros(n)
    plain = list(KFold(k).split(X))
    shuffled = list(KFold(k, shuffle=True, random_state=seed).split(X))
    _assert_partition(shuffled, n)
    # same fold sizes as without shuffling: n mod k folds of ⌊n/k⌋+1, then ⌊n/k⌋
    assert [len(te) for _, te in shuffled] == [len(te) for _, te in plain]
    assert [len(te) for _, te in plain] == [n // k + 1] * (n % k) + [n // k] * (k - n % k)
    again = list(KFold(k, shuffle=True, random_state=seed).split(X))
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(shuffled, again))


def test_kfold_shuffle_actually_shuffles():
    X = np.zeros(100)
    folds = _tests(KFold(4, shuffle=True, random_state=0), X)
    assert folds != _tests(KFold(4), X)
    assert folds != _tests(KFold(4, shuffle=True, random_state=1), X)


@settings(max_examples=25, deadline=None)
@given(
    labels=st.lists(st.integers(0, 2), min_size=6, max_size=80),
    k=st.integers(2, 5),
    shuffle=st.booleans(),
)
def test_stratified_kfold_partition_and_balance(labels, k, shuffle):
    y = np.array(labels)
    counts = np.bincount(y)
    if k > len(y) or np.all(counts[counts > 0] < k):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        splits = list(
            StratifiedKFold(k, shuffle=shuffle, random_state=0 if shuffle else None).split(y, y)
        )
    _assert_partition(splits, len(y))
    per_fold = np.array([np.bincount(y[te], minlength=3) for _, te in splits])  # (k, 3)
    # each class is spread evenly: its fold counts differ by at most one
    assert np.all(per_fold.max(axis=0) - per_fold.min(axis=0) <= 1)
    sizes = per_fold.sum(axis=1)
    assert sizes.max() - sizes.min() <= 1


# -- train_test_split -------------------------------------------------------------------------
SIZES = [
    (None, None),
    (0.25, None),
    (0.3, None),
    (None, 0.6),
    (0.2, 0.5),
    (0.33, 0.67),
    (7, None),
    (None, 9),
    (5, 10),
    (0.5, 0.5),
    (0.9, 0.2),
    (0.0, None),
    (1.0, None),
    (30, None),
    (0, None),
    (-1, None),
    (None, 1.5),
    (25, 10),
    (29, None),
]


@pytest.mark.parametrize("test_size, train_size", SIZES)
def test_train_test_split_sizes_match_sklearn(test_size, train_size):
    X = np.arange(60).reshape(30, 2)
    try:
        Xtr_s, Xte_s = skms.train_test_split(
            X, test_size=test_size, train_size=train_size, random_state=0
        )
    except ValueError:
        with pytest.raises(ValueError):
            train_test_split(X, test_size=test_size, train_size=train_size, random_state=0)
        return
    Xtr, Xte = train_test_split(X, test_size=test_size, train_size=train_size, random_state=0)
    assert (len(Xtr), len(Xte)) == (len(Xtr_s), len(Xte_s))


def test_train_test_split_size_rule():
    # n=10, test 0.25 -> ⌈2.5⌉ = 3 test, 7 train; train 0.55 -> ⌊5.5⌋ = 5 train, 5 test
    X = np.arange(10)
    assert [len(a) for a in train_test_split(X, random_state=0)] == [7, 3]
    assert [len(a) for a in train_test_split(X, train_size=0.55, random_state=0)] == [5, 5]
    assert ceil(0.25 * 10) == 3 and floor(0.55 * 10) == 5


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 200), frac=st.floats(0.01, 0.99), seed=st.integers(0, 100))
def test_train_test_split_partition_property(n, frac, seed):
    if ceil(frac * n) >= n:
        return  # the training set would be empty: an error, tested elsewhere
    tr, te = train_test_split(np.arange(n), test_size=frac, random_state=seed)
    assert len(te) == ceil(frac * n) and len(tr) == n - len(te)
    assert np.intersect1d(tr, te).size == 0
    assert sorted(tr.tolist() + te.tolist()) == list(range(n))


def test_train_test_split_no_shuffle_is_a_cut():
    X = np.arange(10)
    tr, te = train_test_split(X, test_size=3, shuffle=False)
    assert tr.tolist() == list(range(7)) and te.tolist() == [7, 8, 9]
    tr, te = train_test_split(X, test_size=2, train_size=5, shuffle=False)
    assert tr.tolist() == [0, 1, 2, 3, 4] and te.tolist() == [5, 6]


def test_train_test_split_types_and_alignment():
    pd = pytest.importorskip("pandas")
    n = 20
    X = np.arange(2 * n).reshape(n, 2).astype(float)
    y = np.arange(n)
    lst = list(range(n))
    S = sp.coo_matrix(X)
    df = pd.DataFrame(X, columns=["a", "b"], index=np.arange(100, 100 + n))
    out = train_test_split(X, y, lst, S, df, test_size=0.3, random_state=4)
    Xtr, Xte, ytr, yte, ltr, lte, Str, Ste, dtr, dte = out
    assert isinstance(ltr, list) and sp.issparse(Str) and isinstance(dtr, pd.DataFrame)
    for a, b in ((Xtr, ytr), (Xte, yte)):
        assert np.array_equal(a[:, 0] // 2, b)  # rows stay aligned across arrays
    assert ltr == ytr.tolist() and np.array_equal(Str.toarray(), Xtr)
    assert np.array_equal(dtr.to_numpy(), Xtr) and np.array_equal(dtr.index - 100, ytr)
    assert sorted(ytr.tolist() + yte.tolist()) == list(range(n))
    again = train_test_split(X, test_size=0.3, random_state=4)
    assert np.array_equal(again[0], Xtr)


def test_train_test_split_stratified_matches_sklearn_counts():
    X, y = load_breast_cancer(return_X_y=True)  # 212 / 357: no ties in the apportionment
    for test_size in (0.1, 0.25, 0.5, 100):
        _, _, ytr, yte = train_test_split(X, y, test_size=test_size, stratify=y, random_state=0)
        _, _, str_, ste = skms.train_test_split(
            X, y, test_size=test_size, stratify=y, random_state=0
        )
        assert np.bincount(ytr).tolist() == np.bincount(str_).tolist()
        assert np.bincount(yte).tolist() == np.bincount(ste).tolist()


def test_train_test_split_stratified_proportions_iris():
    X, y = load_iris(return_X_y=True)
    _, _, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    assert np.bincount(yte).tolist() == [10, 10, 10]  # 30 test rows, 50/50/50 classes
    _, _, ytr, yte = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
    # 38 test rows: 38/3 = 12.67, so two classes get 13 and one gets 12; train gets the rest
    assert sorted(np.bincount(yte).tolist()) == [12, 13, 13]
    assert np.all(np.bincount(ytr) + np.bincount(yte) == 50)


def test_train_test_split_errors():
    X = np.arange(10)
    with pytest.raises(ValueError, match="least populated class"):
        train_test_split(X, stratify=[0] * 9 + [1], random_state=0)
    with pytest.raises(ValueError, match="shuffle=False"):
        train_test_split(X, stratify=[0, 1] * 5, shuffle=False)
    with pytest.raises(ValueError, match="sum of test_size"):
        train_test_split(X, test_size=0.6, train_size=0.6)
    with pytest.raises(ValueError, match=r"\(0, 1\) range"):
        train_test_split(X, test_size=1.5)
    with pytest.raises(ValueError, match="smaller than the number of samples"):
        train_test_split(X, test_size=10)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        train_test_split(X, np.arange(9))
    with pytest.raises(ValueError, match="at least one array"):
        train_test_split()
    with pytest.raises(ValueError, match="train set would be empty"):
        train_test_split(np.arange(3), test_size=0.9)
    with pytest.raises(ValueError, match="number of classes"):
        train_test_split(np.arange(20), stratify=np.arange(20) % 5, test_size=3)


# -- check_cv ---------------------------------------------------------------------------------
def test_check_cv():
    y_bin = np.array([0, 1] * 10)
    assert isinstance(check_cv(3, y_bin, classifier=True), StratifiedKFold)
    assert isinstance(check_cv(3, y_bin, classifier=False), KFold)
    assert isinstance(check_cv(3, np.linspace(0, 1, 20), classifier=True), KFold)
    assert check_cv(None).get_n_splits() == 5
    kf = KFold(4)
    assert check_cv(kf) is kf
    pairs = [(np.array([0, 1]), np.array([2])), (np.array([2]), np.array([0, 1]))]
    cv = check_cv(iter(pairs))
    assert cv.get_n_splits() == 2
    assert [te.tolist() for _, te in cv.split(np.zeros(3))] == [[2], [0, 1]]
    with pytest.raises(ValueError, match="cv must be"):
        check_cv("five")
    with pytest.raises(ValueError, match="at least one"):
        check_cv([])


# -- bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [KFold, StratifiedKFold, GroupKFold])
def test_bad_n_splits(cls):
    with pytest.raises(ValueError, match="must be >= 2"):
        cls(1)
    with pytest.raises(ValueError, match="must be >= 2"):
        cls(0)
    with pytest.raises(ValueError, match="must be an int"):
        cls(2.5)


def test_more_splits_than_samples():
    with pytest.raises(ValueError, match="greater than the number of samples"):
        list(KFold(5).split(np.zeros(4)))
    with pytest.raises(ValueError, match="greater than the number of samples"):
        list(StratifiedKFold(5).split(np.zeros(4), [0, 0, 1, 1]))


def test_stratified_kfold_class_warnings_and_errors():
    X = np.zeros(12)
    y = np.array([0] * 10 + [1] * 2)
    with pytest.warns(UserWarning, match="only 2 members, which is less than n_splits=3"):
        list(StratifiedKFold(3).split(X, y))
    with pytest.raises(ValueError, match="cannot be greater than the number of members"):
        list(StratifiedKFold(4).split(np.zeros(6), [0, 0, 0, 1, 1, 1]))
    with pytest.raises(ValueError, match="binary or multiclass"):
        list(StratifiedKFold(2).split(X, np.linspace(0, 1, 12)))
    with pytest.raises(ValueError, match="needs the class labels"):
        list(StratifiedKFold(2).split(X, None))


def test_group_kfold_errors():
    X = np.zeros(6)
    with pytest.raises(ValueError, match="needs the 'groups' parameter"):
        list(GroupKFold(2).split(X))
    with pytest.raises(ValueError, match="number of groups: 2"):
        list(GroupKFold(3).split(X, groups=[0, 0, 0, 1, 1, 1]))
    with pytest.raises(ValueError, match="inconsistent"):
        list(GroupKFold(2).split(X, groups=[0, 1, 2]))


def test_random_state_without_shuffle_is_an_error():
    with pytest.raises(ValueError, match="no effect since shuffle=False"):
        KFold(3, random_state=0)
    with pytest.raises(ValueError, match="no effect since shuffle=False"):
        StratifiedKFold(3, random_state=0)
