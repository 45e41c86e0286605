"""KDTree against brute force (the plain reference below) and scikit-learn's KDTree.

Tolerance of distances (``_RTOL``): a distance is (Σ_j |x_j − q_j|^p)^(1/p) over d coordinates.
Each subtraction rounds once (relative ε/2), the power carries that error times p plus its own
rounding (≤ ε), the d − 1 additions of non-negative terms add at most (d − 1)ε relative, and the
root divides the relative error of the sum by p and rounds once more. One computation is thus
within (p/2 + 1 + d − 1)/p · ε + ε ≤ (d + 2)ε of the exact value for p ≥ 1 (Chebyshev: ε/2),
and two independent computations differ by at most 2(d + 2)ε relative. Our tree and our brute
force perform the same operations in the same order and agree exactly, which the tests against
``_brute`` assert (indices included, ties in index order); scikit-learn is held to the bound.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.neighbors import KDTree as SkKDTree

from scratchlearn.exceptions import InvalidParameterError
from scratchlearn.neighbors import KDTree

EPS = np.finfo(np.float64).eps
P_VALUES = [1, 2, 3, np.inf]


def _rtol(d):
    return 2 * (d + 2) * EPS


# ---------------------------------------------------------------------------------- reference


# |Δ|^p by the C library's scalar pow, which the compiled kernel calls too. NumPy's array power
# is not a reference for the last bit: NumPy 2.4 computes D**3 differently (1 ulp apart on
# iris, wine and digits), and its SIMD paths depend on the CPU.
_scalar_pow = np.vectorize(lambda v, p: v**p, otypes=[np.float64])


def _brute_rho(Q, X, p):
    """ρ(q, x) = Σ_j |q_j − x_j|^p (max for p = ∞), summed over j in order, for every pair."""
    D = np.abs(Q[:, None, :] - X[None, :, :])  # (m, n, d)
    if p == np.inf:
        return D.max(axis=2)
    T = D * D if p == 2 else (D if p == 1 else _scalar_pow(D, float(p)))
    rho = T[:, :, 0].copy()
    for j in range(1, X.shape[1]):
        rho += T[:, :, j]
    return rho


def _root(rho, p):
    return rho if p in (1, np.inf) else (np.sqrt(rho) if p == 2 else rho ** (1.0 / p))


def _brute(Q, X, k, p):
    """The k smallest ρ by a stable sort: ties in increasing training index."""
    rho = _brute_rho(Q, X, p)
    ind = np.argsort(rho, axis=1, kind="stable")[:, :k]
    return _root(np.take_along_axis(rho, ind, axis=1), p), ind


def _brute_radius(Q, X, r, p):
    """Rows with ρ ≤ r^p (dist ≤ r), r one radius or one per query."""
    rho = _brute_rho(Q, X, p)
    r = np.broadcast_to(np.asarray(r, float), (len(Q),))
    r_rho = r if p in (1, np.inf) else (r * r if p == 2 else r**p)
    return [np.flatnonzero(row <= r_i) for row, r_i in zip(rho, r_rho, strict=True)]


# ---------------------------------------------------------------------------------- data


@functools.cache
def _iris():
    return load_iris().data  # 150 × 4, with duplicate rows (ties)


@functools.cache
def _wine():
    X = load_wine().data
    return (X - X.mean(axis=0)) / X.std(axis=0)  # 178 × 13


@functools.cache
def _digits():
    X = load_digits().data[:600]
    Xc = X - X.mean(axis=0)
    V = np.linalg.svd(Xc, full_matrices=False)[2][:4]
    return Xc @ V.T  # 600 × 4, principal components


@functools.cache
def _ties():
    return np.random.default_rng(0).integers(0, 4, size=(300, 3)).astype(float)


# cached: each is loaded once and never modified (test_options_and_attributes checks KDTree
# leaves its input alone)
DATASETS = {"iris": _iris, "wine": _wine, "digits": _digits, "ties": _ties}


# ---------------------------------------------------------------------------------- k nearest


@pytest.mark.parametrize("p", P_VALUES)
@pytest.mark.parametrize("name", list(DATASETS))
def test_query_equals_brute_force_and_scikit_learn(name, p):
    X = DATASETS[name]()
    n, d = X.shape
    Q = X[::3] + 0.25 * (X[1::3][: len(X[::3])].mean(axis=0) - X[::3])  # off the training set
    Q = np.vstack([Q, X[:20]])  # and some queries equal to training points
    tree = KDTree(X, leaf_size=8, p=p)
    sk = SkKDTree(X, leaf_size=8, metric="minkowski", p=p)
    for k in (1, 5, n):
        dist, ind = tree.query(Q, k=k)
        ref_dist, ref_ind = _brute(Q, X, k, p)
        assert dist.dtype == np.float64 and ind.dtype == np.intp and ind.shape == (len(Q), k)
        np.testing.assert_array_equal(dist, ref_dist)  # same operations in the same order
        np.testing.assert_array_equal(ind, ref_ind)  # ties in index order
        sk_dist, sk_ind = sk.query(Q, k=k)
        np.testing.assert_allclose(dist, sk_dist, rtol=_rtol(d), atol=0)
        # scikit-learn breaks ties by tree order: compare indices where the distance is distinct
        # from its neighbours in the full sorted list (so the position is determined).
        full = np.sort(_root(_brute_rho(Q, X, p), p), axis=1)
        gap = np.diff(full, axis=1) > _rtol(d) * full[:, 1:]
        distinct = np.ones((len(Q), n), bool)
        distinct[:, 1:] &= gap
        distinct[:, :-1] &= gap
        mask = distinct[:, :k]
        if name != "ties":  # integer data: nearly every position is tied; brute force covers it
            assert mask.sum() >= len(Q) // 2  # the comparison is not vacuous
        np.testing.assert_array_equal(ind[mask], sk_ind[mask])


@pytest.mark.parametrize("leaf_size", [1, 7, 300, 10_000])
def test_leaf_sizes_with_many_ties(leaf_size):
    X = _ties()
    Q = np.random.default_rng(1).integers(-1, 5, size=(60, 3)).astype(float)
    tree = KDTree(X, leaf_size=leaf_size)
    dist, ind = tree.query(Q, k=12)
    ref_dist, ref_ind = _brute(Q, X, 12, 2)
    np.testing.assert_array_equal(dist, ref_dist)
    np.testing.assert_array_equal(ind, ref_ind)
    leaf_rows = tree._end - tree._start
    assert leaf_rows[tree._left < 0].max() <= leaf_size
    assert np.array_equal(np.sort(tree._perm), np.arange(len(X)))


def test_identical_points():
    # every box bound is 0 = the heap's worst ρ: only the index rule can prune
    X = np.zeros((500, 2))
    dist, ind = KDTree(X, leaf_size=3).query(np.zeros((3, 2)), k=7)
    np.testing.assert_array_equal(ind, np.tile(np.arange(7), (3, 1)))
    np.testing.assert_array_equal(dist, 0.0)
    np.testing.assert_array_equal(KDTree(X).query_radius(X[:2], 0.0, count_only=True), [500, 500])


def test_options_and_attributes():
    X = _iris()
    X_before = X.copy()
    tree = KDTree(X, metric="manhattan")
    assert tree.p == 1.0 and tree.metric == "manhattan" and tree.leaf_size == 40
    assert KDTree(X, metric="chebyshev").p == np.inf and KDTree(X, metric="euclidean").p == 2.0
    assert KDTree(X, p=np.inf)._code == KDTree(X, metric="chebyshev")._code
    np.testing.assert_array_equal(tree.data, X)
    assert not tree.data.flags.writeable
    dist, ind = tree.query(X[:30], k=6)
    np.testing.assert_array_equal(tree.query(X[:30], k=6, return_distance=False), ind)
    d2, i2 = tree.query(X[:30], k=6, dualtree=True, breadth_first=True)
    np.testing.assert_array_equal(d2, dist)
    np.testing.assert_array_equal(i2, ind)
    d3, i3 = tree.query(X[:30], k=6, sort_results=False)  # heap order: same pairs
    order = np.lexsort((i3, d3), axis=1)
    np.testing.assert_array_equal(np.take_along_axis(i3, order, axis=1), ind)
    np.testing.assert_array_equal(X, X_before)


# ---------------------------------------------------------------------------------- radius


@pytest.mark.parametrize("p", P_VALUES)
@pytest.mark.parametrize("name", ["iris", "digits", "ties"])
def test_query_radius_equals_brute_force_and_scikit_learn(name, p):
    X = DATASETS[name]()
    Q = X[::4]
    rho = _brute_rho(Q, X, p)
    dist = _root(rho, p)
    # one radius per query, its 10th smallest distance: points lie on the boundary (to rounding)
    r = np.sort(dist, axis=1)[:, 10]
    tree = KDTree(X, leaf_size=5, p=p)
    sk = SkKDTree(X, leaf_size=5, metric="minkowski", p=p)
    ind = tree.query_radius(Q, r)
    expected = _brute_radius(Q, X, r, p)
    for got, want in zip(ind, expected, strict=True):
        np.testing.assert_array_equal(np.sort(got), want)
    counts = tree.query_radius(Q, r, count_only=True)
    np.testing.assert_array_equal(counts, [len(w) for w in expected])
    sk_counts = sk.query_radius(Q, r, count_only=True)
    if p in (1, 2, np.inf):  # sums of |Δ| or Δ², or a max: the same arithmetic as scikit-learn's
        np.testing.assert_array_equal(counts, sk_counts)
    else:  # its pow may differ in the last bit: points within rounding of r may flip
        tol = _rtol(X.shape[1]) * r[:, None]
        assert np.all((dist < r[:, None] - tol).sum(axis=1) <= sk_counts)
        assert np.all(sk_counts <= (dist <= r[:, None] + tol).sum(axis=1))
    ind_s, dist_s = tree.query_radius(Q, r, return_distance=True, sort_results=True)
    for i, (got_i, got_d) in enumerate(zip(ind_s, dist_s, strict=True)):
        # by ρ (so by distance: two ρ may round to one distance), then by index
        order = np.lexsort((expected[i], rho[i, expected[i]]))
        np.testing.assert_array_equal(got_i, expected[i][order])
        np.testing.assert_array_equal(got_d, dist[i, got_i])


def test_radius_includes_points_at_exactly_r_and_scalar_r():
    X = np.array([[0.0, 0, 0], [2, 0, 0], [0, 2, 0], [1, 1, 1], [3, 0, 0]])
    tree = KDTree(X, leaf_size=1)
    # distance 2 exactly from the origin (2² = 4 and 2³ = 8 are exact): included, as scikit-learn
    for p, expect in [(1, [0, 1, 2]), (2, [0, 1, 2, 3]), (3, [0, 1, 2, 3]), (np.inf, [0, 1, 2, 3])]:
        got = KDTree(X, leaf_size=1, p=p).query_radius(X[:1], 2.0)[0]
        np.testing.assert_array_equal(np.sort(got), expect)
    ind, dist = tree.query_radius(X[:2], 0.0, return_distance=True)
    assert [list(a) for a in ind] == [[0], [1]] and all(np.all(dd == 0) for dd in dist)
    assert ind.dtype == object and ind[0].dtype == np.intp


# ---------------------------------------------------------------------------------- properties


@st.composite
def _small_problem(draw):
    n = draw(st.integers(1, 25))
    d = draw(st.integers(1, 3))
    cells = st.integers(-2, 2).map(float)
    X = np.array(draw(st.lists(cells, min_size=n * d, max_size=n * d))).reshape(n, d)
    Q = np.array(draw(st.lists(cells, min_size=4 * d, max_size=4 * d))).reshape(4, d)
    return X, Q, draw(st.integers(1, n)), draw(st.integers(1, 4)), draw(st.sampled_from(P_VALUES))


@settings(max_examples=40, deadline=None)
@given(problem=_small_problem(), r=st.sampled_from([0.0, 1.0, 1.5, 2.0]))
def test_tree_equals_brute_force_on_duplicates(problem, r):
    X, Q, k, leaf_size, p = problem
    tree = KDTree(X, leaf_size=leaf_size, p=p)
    dist, ind = tree.query(Q, k=k)
    ref_dist, ref_ind = _brute(Q, X, k, p)
    np.testing.assert_array_equal(dist, ref_dist)
    np.testing.assert_array_equal(ind, ref_ind)
    for got, want in zip(tree.query_radius(Q, r), _brute_radius(Q, X, r, p), strict=True):
        np.testing.assert_array_equal(np.sort(got), want)


# ---------------------------------------------------------------------------------- bad input


def test_bad_input():
    X = _iris()
    with pytest.raises(InvalidParameterError, match="'metric'.*cosine"):
        KDTree(X, metric="cosine")
    with pytest.raises(InvalidParameterError, match="'p'"):
        KDTree(X, p=0.5)
    with pytest.raises(InvalidParameterError, match="'leaf_size'"):
        KDTree(X, leaf_size=0)
    X_nan = X.copy()
    X_nan[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KDTree(X_nan)
    tree = KDTree(X)
    with pytest.raises(ValueError, match="larger than the number of training points"):
        tree.query(X, k=151)
    with pytest.raises(ValueError, match="positive int"):
        tree.query(X, k=0)
    with pytest.raises(ValueError, match="3 features.*4"):
        tree.query(X[:, :3])
    with pytest.raises(ValueError, match="NaN"):
        tree.query(X_nan)
    with pytest.raises(ValueError, match="NaN"):
        tree.query_radius(X_nan, 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        tree.query_radius(X, -1.0)
    with pytest.raises(ValueError, match="one radius per query"):
        tree.query_radius(X, [1.0, 2.0])
    with pytest.raises(ValueError, match="requires return_distance"):
        tree.query_radius(X, 1.0, sort_results=True)
    with pytest.raises(ValueError, match="count_only and return_distance"):
        tree.query_radius(X, 1.0, count_only=True, return_distance=True)
