"""Splitting samples into training and test sets: hold-out splits and K-fold cross-validation.

Symbols
-------
n : number of samples            K : number of folds (``n_splits``)
C : number of classes            n_c : number of samples of class c
G : number of groups             n_test, n_train : sizes of a hold-out split

Every splitter yields pairs ``(train, test)`` of integer index arrays into the n samples. Over
the K folds of a cross-validation splitter each sample is in exactly one test set, and train and
test never share a sample.

* :class:`KFold` cuts ``0..n-1`` (shuffled or not) into K consecutive blocks; the first
  ``n mod K`` blocks hold ``⌊n/K⌋ + 1`` samples and the rest ``⌊n/K⌋``.
* :class:`StratifiedKFold` deals each class out over the folds so that every fold holds close to
  ``n_c / K`` samples of class c: lay the labels out sorted by class and give position j to fold
  ``j mod K``; fold sizes then differ by at most one and so do the per-class counts.
* :class:`GroupKFold` never splits a group: groups are taken from largest to smallest and each
  is put into the fold that currently holds the fewest samples.
* :class:`GroupShuffleSplit` draws random hold-out splits of the groups (sizes count groups).
* :func:`train_test_split` takes ``n_test = ⌈test_size·n⌉`` and ``n_train = ⌊train_size·n⌋``
  when the sizes are fractions; stratified, it apportions both sizes over the classes by the
  largest-remainder rule (Hamilton's method), so each class keeps its share to within one sample.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable
from math import ceil, floor

import numpy as np
import scipy.sparse as sp

from ..utils._dask import refuse_dask
from ..utils.multiclass import class_codes, type_of_target
from ..utils.validation import check_random_state, num_samples

__all__ = [
    "KFold",
    "StratifiedKFold",
    "GroupKFold",
    "GroupShuffleSplit",
    "check_cv",
    "train_test_split",
]


# --------------------------------------------------------------------------------------------
# indexing helpers shared with _validation and _search
# --------------------------------------------------------------------------------------------
def _safe_indexing(X, indices):
    """Rows ``indices`` of X, whatever X is: None, list, NumPy array, sparse matrix, DataFrame."""
    if X is None:
        return None
    if hasattr(X, "iloc"):
        return X.iloc[indices]
    if sp.issparse(X):
        if X.format not in ("csr", "csc", "lil", "dok"):
            X = X.tocsr()
        return X[indices]
    if isinstance(X, np.ndarray):
        return X[indices]
    if hasattr(X, "shape") and hasattr(X, "__getitem__"):
        # other array types that support fancy indexing (e.g. dask or memmap)
        return X[indices]
    return [X[i] for i in indices]


def _refuse_dask_rows(owner, **arrays):
    """Refuse Dask collections by name: cross-validation and splitting index rows fold by fold,
    which on a Dask collection would compute it again for every fold."""
    for name, a in arrays.items():
        refuse_dask(a, owner, name, list_accepted=False)


def _indexable(X):
    """X in a form that :func:`_safe_indexing` can slice by rows (objects that only offer
    ``__array__`` become arrays; sparse formats without row indexing become CSR)."""
    if X is None or hasattr(X, "iloc"):
        return X
    if sp.issparse(X):
        return X if X.format in ("csr", "csc", "lil", "dok") else X.tocsr()
    if hasattr(X, "__getitem__") and (hasattr(X, "shape") or hasattr(X, "__len__")):
        return X
    return np.asarray(X)


def _check_n_splits(n_splits, owner: str) -> int:
    if not isinstance(n_splits, numbers.Integral) or isinstance(n_splits, (bool, np.bool_)):
        raise ValueError(
            f"The number of folds must be an int, got n_splits={n_splits!r} "
            f"({type(n_splits).__name__}) for {owner}."
        )
    if n_splits < 2:
        raise ValueError(
            f"{owner} needs at least two folds (one to train on and one to test on): "
            f"n_splits={n_splits} must be >= 2."
        )
    return int(n_splits)


def _check_shuffle(shuffle, random_state, owner: str) -> None:
    if not isinstance(shuffle, (bool, np.bool_)):
        raise TypeError(f"shuffle must be True or False; got {shuffle!r} for {owner}.")
    if not shuffle and random_state is not None:
        raise ValueError(
            f"{owner}: random_state={random_state!r} has no effect since shuffle=False. "
            "Set shuffle=True to shuffle the samples, or leave random_state=None."
        )


# --------------------------------------------------------------------------------------------
# K-fold splitters
# --------------------------------------------------------------------------------------------
class _BaseKFold:
    """Shared plumbing: ``split`` turns the test folds of ``_test_folds`` into (train, test)."""

    def __init__(self, n_splits, *, shuffle, random_state):
        self.n_splits = _check_n_splits(n_splits, type(self).__name__)
        _check_shuffle(shuffle, random_state, type(self).__name__)
        self.shuffle = bool(shuffle)
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """The number of (train, test) pairs ``split`` yields: ``n_splits``."""
        return self.n_splits

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays, one pair per fold."""
        _refuse_dask_rows(type(self).__name__, X=X, y=y, groups=groups)
        n = num_samples(X)
        for arr, name in ((y, "y"), (groups, "groups")):
            if arr is not None and num_samples(arr) != n:
                raise ValueError(
                    f"Found input variables with inconsistent numbers of samples: X has {n}, "
                    f"{name} has {num_samples(arr)}."
                )
        if self.n_splits > n:
            raise ValueError(
                f"Cannot have number of splits n_splits={self.n_splits} greater than the number "
                f"of samples: n_samples={n}."
            )
        all_idx = np.arange(n)
        for test in self._test_folds(n, y, groups):
            mask = np.zeros(n, dtype=bool)
            mask[test] = True
            yield all_idx[~mask], np.asarray(test, dtype=np.intp)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"


class KFold(_BaseKFold):
    """K-fold cross-validation: K consecutive blocks of the (optionally shuffled) samples.

    Each block is the test set once while the other K − 1 blocks train. The first ``n mod K``
    blocks hold ``⌊n/K⌋ + 1`` samples, the others ``⌊n/K⌋``.

    Parameters
    ----------
    n_splits : int, default=5
        K, at least 2 and at most the number of samples.
    shuffle : bool, default=False
        Permute the samples once before cutting the blocks.
    random_state : None, int or numpy.random.Generator
        Seed of the permutation (only with ``shuffle=True``).

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.model_selection import KFold
    >>> X = np.arange(10).reshape(5, 2)
    >>> for train, test in KFold(n_splits=3).split(X):
    ...     print(train.tolist(), test.tolist())
    [2, 3, 4] [0, 1]
    [0, 1, 4] [2, 3]
    [0, 1, 2, 3] [4]
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        super().__init__(n_splits, shuffle=shuffle, random_state=random_state)

    def _test_folds(self, n, y, groups):
        order = np.arange(n)
        if self.shuffle:
            order = check_random_state(self.random_state).permutation(n)
        K = self.n_splits
        sizes = np.full(K, n // K)
        sizes[: n % K] += 1
        start = 0
        for size in sizes:
            yield order[start : start + size]
            start += size


def _encode_by_first_appearance(y):
    """Class codes 0..C-1 numbered in the order the classes first appear in y."""
    _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.intp)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse.ravel()]


def _stratified_allocation(class_counts, K):
    """Counts ``A[k, c]`` of class c in fold k when the sorted labels are dealt round-robin.

    Class c occupies positions ``[s_c, s_c + n_c)`` of the sorted label list and position j goes
    to fold ``j mod K``, so fold k receives the positions j ≡ k (mod K) inside that range.
    """
    starts = np.concatenate([[0], np.cumsum(class_counts)[:-1]])
    k = np.arange(K)[:, None]  # (K, 1)

    def upto(m):  # number of j in [0, m) with j mod K == k   -> (K, C)
        return (m[None, :] - k + K - 1) // K

    return upto(starts + class_counts) - upto(starts)  # (K, C)


class StratifiedKFold(_BaseKFold):
    """K-fold cross-validation that keeps the class proportions of y in every fold.

    Labels sorted by class are dealt round-robin over the folds, so fold k receives about
    ``n_c / K`` samples of each class c (never more than one away). Within a class the samples
    keep their order (or a random order with ``shuffle=True``).

    Warns when the smallest class has fewer than K members (some folds then miss it) and raises
    when every class does.

    Parameters
    ----------
    n_splits : int, default=5
        K, at least 2.
    shuffle : bool, default=False
        Shuffle the samples of each class before dealing them out.
    random_state : None, int or numpy.random.Generator
        Seed of the shuffle (only with ``shuffle=True``).
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        super().__init__(n_splits, shuffle=shuffle, random_state=random_state)

    def split(self, X, y, groups=None):
        """Yield ``(train, test)`` index arrays stratified on the class labels y."""
        if y is None:
            raise ValueError("StratifiedKFold needs the class labels y to stratify on; got None.")
        return super().split(X, y, groups)

    def _test_folds(self, n, y, groups):
        y = np.asarray(y)
        kind = type_of_target(y)
        if kind not in ("binary", "multiclass"):
            raise ValueError(
                f"StratifiedKFold needs binary or multiclass labels y, but y is {kind!r}. "
                "Use KFold for continuous or multi-output targets."
            )
        K = self.n_splits
        codes = _encode_by_first_appearance(y.ravel())  # (n,)
        class_counts = np.bincount(codes)  # (C,)
        if np.all(class_counts < K):
            raise ValueError(
                f"n_splits={K} cannot be greater than the number of members in each class "
                f"(the largest class has {class_counts.max()})."
            )
        if class_counts.min() < K:
            warnings.warn(
                f"The least populated class in y has only {class_counts.min()} members, which "
                f"is less than n_splits={K}; some test folds will not contain it.",
                UserWarning,
                stacklevel=3,
            )
        alloc = _stratified_allocation(class_counts, K)  # (K, C)
        rng = check_random_state(self.random_state) if self.shuffle else None
        fold_of = np.empty(n, dtype=np.intp)
        for c in range(len(class_counts)):
            folds_c = np.repeat(np.arange(K), alloc[:, c])  # (n_c,)
            if rng is not None:
                folds_c = rng.permutation(folds_c)
            fold_of[codes == c] = folds_c
        for k in range(K):
            yield np.flatnonzero(fold_of == k)


class GroupKFold(_BaseKFold):
    """K-fold cross-validation in which no group is split between training and test.

    Groups are placed from the largest to the smallest, each into the fold that holds the fewest
    samples so far (ties: the lowest fold number), which keeps the fold sizes close. Among groups
    of equal size the one with the larger label is placed first (scikit-learn's order, so the
    folds coincide with its GroupKFold). With ``shuffle=True`` the groups are instead permuted
    at random and cut into K runs of nearly equal numbers of groups. Use it when rows are not
    independent, e.g. all documents of one query in learning to rank.

    Parameters
    ----------
    n_splits : int, default=5
        K, at least 2 and at most the number of distinct groups.
    shuffle : bool, default=False
    random_state : None, int or numpy.random.Generator
        Seed of the group permutation (only with ``shuffle=True``).
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        super().__init__(n_splits, shuffle=shuffle, random_state=random_state)

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays with every group wholly on one side."""
        if groups is None:
            raise ValueError(
                "GroupKFold needs the 'groups' parameter: one group label per sample, so that "
                "the samples of a group stay together. Got groups=None."
            )
        return super().split(X, y, groups)

    def _test_folds(self, n, y, groups):
        groups = np.asarray(groups)
        if groups.ndim == 2 and groups.shape[1] == 1:
            groups = groups.ravel()
        if groups.ndim != 1:
            raise ValueError(f"groups must be 1-dimensional; got shape {groups.shape}.")
        _, codes, sizes = np.unique(groups, return_inverse=True, return_counts=True)
        codes = codes.ravel()
        G, K = len(sizes), self.n_splits
        if G < K:
            raise ValueError(
                f"Cannot have number of splits n_splits={K} greater than the number of groups: {G}."
            )
        fold_of_group = np.empty(G, dtype=np.intp)
        if self.shuffle:
            order = check_random_state(self.random_state).permutation(G)
            for k, run in enumerate(np.array_split(order, K)):
                fold_of_group[run] = k
        else:
            fold_load = np.zeros(K, dtype=np.int64)
            for g in np.argsort(sizes, kind="stable")[::-1]:  # largest group first
                k = int(np.argmin(fold_load))
                fold_of_group[g] = k
                fold_load[k] += sizes[g]
        fold_of = fold_of_group[codes]  # (n,)
        for k in range(K):
            yield np.flatnonzero(fold_of == k)


class GroupShuffleSplit:
    """Random train/test splits of the groups: no group is ever on both sides.

    Each of the ``n_splits`` splits draws a random permutation of the G distinct groups, puts
    the first ``G_test`` groups in the test set and the next ``G_train`` in the training set, and
    yields the rows of those groups. The sizes count *groups*, as in scikit-learn: a fraction
    gives ``G_test = ⌈test_size·G⌉`` and ``G_train = ⌊train_size·G⌋``, an int a number of
    groups; when one is None it is the complement of the other, when both are, test_size = 0.2.
    Unlike the K-fold splitters, the test sets of different splits may overlap. In learning to
    rank pass ``groups=qid`` so that every query stays whole.

    Parameters
    ----------
    n_splits : int, default=5
        Number of (train, test) pairs, at least 1.
    test_size, train_size : float in (0, 1), int, or None
    random_state : None, int or numpy.random.Generator
        An int gives the same splits on every call of ``split``.
    """

    def __init__(self, n_splits=5, *, test_size=None, train_size=None, random_state=None):
        if (
            not isinstance(n_splits, numbers.Integral)
            or isinstance(n_splits, (bool, np.bool_))
            or n_splits < 1
        ):
            raise ValueError(f"n_splits must be a positive int; got {n_splits!r}.")
        self.n_splits = int(n_splits)
        self.test_size = test_size
        self.train_size = train_size
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """The number of (train, test) pairs ``split`` yields: ``n_splits``."""
        return self.n_splits

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays (sorted) with every group wholly on one side."""
        if groups is None:
            raise ValueError(
                "GroupShuffleSplit needs the 'groups' parameter: one group label per sample. "
                "Got groups=None."
            )
        _refuse_dask_rows(type(self).__name__, X=X, y=y, groups=groups)
        n = num_samples(X)
        groups = np.asarray(groups)
        if groups.ndim == 2 and groups.shape[1] == 1:
            groups = groups.ravel()
        if groups.ndim != 1 or groups.shape[0] != n:
            raise ValueError(
                f"groups must be 1-dimensional with one label per sample (X has {n}); got "
                f"shape {groups.shape}."
            )
        codes = np.unique(groups, return_inverse=True)[1].ravel()
        G = int(codes.max()) + 1 if n else 0
        try:
            G_train, G_test = _split_sizes(G, self.test_size, self.train_size, default_test=0.2)
        except ValueError as exc:
            raise ValueError(f"GroupShuffleSplit sizes count groups (G={G}): {exc}") from None
        rng = check_random_state(self.random_state)
        for _ in range(self.n_splits):
            perm = rng.permutation(G)
            side = np.full(G, -1)
            side[perm[:G_test]] = 1
            side[perm[G_test : G_test + G_train]] = 0
            yield np.flatnonzero(side[codes] == 0), np.flatnonzero(side[codes] == 1)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"


class _PredefinedSplits:
    """A fixed list of (train, test) pairs, such as an iterable passed as ``cv``."""

    def __init__(self, cv):
        self.cv = [(np.asarray(tr), np.asarray(te)) for tr, te in cv]

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return len(self.cv)

    def split(self, X=None, y=None, groups=None):
        yield from ((tr.copy(), te.copy()) for tr, te in self.cv)

    def __repr__(self) -> str:
        return f"_PredefinedSplits(n_splits={len(self.cv)})"


def check_cv(cv=5, y=None, classifier=False):
    """Turn the ``cv`` argument of the search and validation functions into a splitter.

    None means 5 folds. An int K gives ``StratifiedKFold(K)`` for a classifier whose y is binary or
    multiclass, and ``KFold(K)`` otherwise. An object with ``split`` and ``get_n_splits`` is
    returned unchanged; any other iterable of ``(train, test)`` pairs is used as given.
    """
    cv = 5 if cv is None else cv
    if isinstance(cv, numbers.Integral) and not isinstance(cv, (bool, np.bool_)):
        if classifier and y is not None and type_of_target(y) in ("binary", "multiclass"):
            return StratifiedKFold(cv)
        return KFold(cv)
    if hasattr(cv, "split") and hasattr(cv, "get_n_splits"):
        return cv
    if isinstance(cv, Iterable) and not isinstance(cv, str):
        pairs = list(cv)
        if not pairs or any(len(p) != 2 for p in pairs):
            raise ValueError("cv as an iterable must yield at least one (train, test) pair.")
        return _PredefinedSplits(pairs)
    raise ValueError(
        "cv must be None, an int number of folds, a splitter with split() and get_n_splits(), "
        f"or an iterable of (train, test) index pairs; got {cv!r}."
    )


# --------------------------------------------------------------------------------------------
# hold-out split
# --------------------------------------------------------------------------------------------
def _size_kind(size, name, n):
    """Validate one of test_size / train_size; return it as a fraction, a count or None."""
    if size is None:
        return None
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, numbers.Real):
        raise ValueError(
            f"{name} must be a float in (0, 1), an int in [1, n_samples) or None; got {size!r}."
        )
    if isinstance(size, numbers.Integral):
        if not 0 < size < n:
            raise ValueError(
                f"{name}={size} should be either positive and smaller than the number of "
                f"samples {n} or a float in the (0, 1) range."
            )
        return int(size)
    if not 0.0 < size < 1.0:
        raise ValueError(
            f"{name}={size} should be a float in the (0, 1) range or an int in [1, {n})."
        )
    return float(size)


def _split_sizes(n, test_size, train_size, default_test=0.25):
    """``(n_train, n_test)``: fractions become ``⌊train·n⌋`` and ``⌈test·n⌉``."""
    test = _size_kind(test_size, "test_size", n)
    train = _size_kind(train_size, "train_size", n)
    if test is None and train is None:
        test = default_test
    if isinstance(test, float) and isinstance(train, float) and test + train > 1:
        raise ValueError(
            f"The sum of test_size={test} and train_size={train} should be in the (0, 1] "
            "range. Reduce test_size and/or train_size."
        )
    n_test = None if test is None else (ceil(test * n) if isinstance(test, float) else test)
    n_train = None if train is None else (floor(train * n) if isinstance(train, float) else train)
    if n_train is None:
        n_train = n - n_test
    if n_test is None:
        n_test = n - n_train
    if n_train + n_test > n:
        raise ValueError(
            f"The sum of train_size and test_size = {n_train + n_test} samples, should be "
            f"smaller than the number of samples {n}. Reduce test_size and/or train_size."
        )
    if n_train == 0 or n_test == 0:
        which = "train" if n_train == 0 else "test"
        raise ValueError(
            f"With n_samples={n}, test_size={test_size} and train_size={train_size}, the "
            f"resulting {which} set would be empty. Adjust the sizes."
        )
    return n_train, n_test


def _apportion(counts, total, rng):
    """Integers ``m_c ≤ n_c`` summing to ``total``, each as close to ``total·n_c/n`` as possible.

    Largest-remainder rule: floor every quota, then give the missing units to the classes with
    the largest fractional parts (ties drawn at random).
    """
    quota = counts * (total / counts.sum())  # (C,)
    m = np.floor(quota).astype(np.int64)
    missing = int(total - m.sum())
    if missing > 0:
        frac = quota - m
        # random tie-break: shuffle, then stable sort by descending remainder
        perm = rng.permutation(len(counts))
        order = perm[np.argsort(-frac[perm], kind="stable")]
        order = order[m[order] < counts[order]]
        m[order[:missing]] += 1
    return m


def _stratified_indices(y, n_train, n_test, rng):
    y = np.asarray(y)
    if y.ndim == 2:  # multi-output: stratify on the row as a whole
        y = np.array([" ".join(map(str, row)) for row in y])
    classes, codes = class_codes(y)
    counts = np.bincount(codes)
    if counts.min() < 2:
        raise ValueError(
            f"The least populated class in y has only {counts.min()} member, which is too few "
            "to stratify: every class needs at least 2 members (one for each side)."
        )
    C = len(classes)
    if n_train < C or n_test < C:
        side, size = ("train", n_train) if n_train < C else ("test", n_test)
        raise ValueError(
            f"The {side} size {size} is smaller than the number of classes {C}; a stratified "
            "split needs at least one sample of each class on each side."
        )
    train_c = _apportion(counts, n_train, rng)
    test_c = _apportion(counts - train_c, n_test, rng)
    train, test = [], []
    for c in range(C):
        members = rng.permutation(np.flatnonzero(codes == c))
        train.append(members[: train_c[c]])
        test.append(members[train_c[c] : train_c[c] + test_c[c]])
    return rng.permutation(np.concatenate(train)), rng.permutation(np.concatenate(test))


def train_test_split(
    *arrays,
    test_size=None,
    train_size=None,
    random_state=None,
    shuffle=True,
    stratify=None,
):
    """Split arrays into a random training part and test part, row for row.

    Parameters
    ----------
    *arrays : lists, NumPy arrays, sparse matrices or DataFrames with the same number of rows.
    test_size, train_size : float in (0, 1), int, or None
        Fractions (``n_test = ⌈test_size·n⌉``, ``n_train = ⌊train_size·n⌋``) or counts. When
        one is None it is the complement of the other; when both are, test_size is 0.25.
    random_state : None, int or numpy.random.Generator
    shuffle : bool, default=True
        With False the first ``n_train`` rows train and the next ``n_test`` rows test.
    stratify : array-like or None
        Class labels whose proportions both parts keep (each class needs two members).

    Returns
    -------
    list of ``2 * len(arrays)`` items: ``train_0, test_0, train_1, test_1, ...``, each the same
    type as its input.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_iris(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(
    ...     X, y, test_size=0.2, stratify=y, random_state=0)
    >>> print(X_train.shape, X_test.shape, np.bincount(y_test).tolist())
    (120, 4) (30, 4) [10, 10, 10]
    """
    if not arrays:
        raise ValueError("train_test_split needs at least one array to split.")
    _refuse_dask_rows(
        "train_test_split", **{f"arrays[{i}]": a for i, a in enumerate(arrays)}, stratify=stratify
    )
    arrays = [_indexable(a) for a in arrays]
    lengths = [num_samples(a) for a in arrays if a is not None]
    if stratify is not None:
        lengths.append(num_samples(stratify))
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}")
    n = lengths[0]
    if n == 0:
        raise ValueError("train_test_split got arrays with 0 samples; nothing to split.")
    n_train, n_test = _split_sizes(n, test_size, train_size)
    if not shuffle:
        if stratify is not None:
            raise ValueError(
                "Stratified train/test split is not implemented for shuffle=False: a stratified "
                "split draws each class's rows at random. Pass shuffle=True or stratify=None."
            )
        train, test = np.arange(n_train), np.arange(n_train, n_train + n_test)
    else:
        rng = check_random_state(random_state)
        if stratify is not None:
            train, test = _stratified_indices(stratify, n_train, n_test, rng)
        else:
            perm = rng.permutation(n)
            test, train = perm[:n_test], perm[n_test : n_test + n_train]
    out = []
    for a in arrays:
        out.extend([_safe_indexing(a, train), _safe_indexing(a, test)])
    return out
