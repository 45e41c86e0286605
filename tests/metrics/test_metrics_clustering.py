"""Clustering metrics against scikit-learn on real data and clusterings, by hand, properties and
bad input. Pair counts are integers (exact); silhouettes sum the same distances in another
order (block-wise matrix products): 1e-12 relative."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from _data import real_clusterings  # tests/ is on sys.path (rootdir conftest)
from scratchlearn import metrics as M
from scratchlearn.metrics.pairwise import euclidean_distances

TOL = 1e-12


@pytest.fixture(scope="module")
def clusterings():
    return real_clusterings(standardise=False)


def test_by_hand():
    # Pairs of 4 samples: {0,1} together in both; all other 5 pairs apart in both -> RI = 1
    assert M.rand_score([0, 0, 1, 2], [5, 5, 6, 7]) == 1.0
    assert M.adjusted_rand_score([0, 0, 1, 1], [1, 1, 0, 0]) == 1.0
    # [0,0,1,1] vs [0,1,0,1]: together in neither for every pair except... 2 of 6 pairs agree
    # ({0,3} and {1,2} apart in both): RI = 2/6, ARI = −0.5
    assert M.rand_score([0, 0, 1, 1], [0, 1, 0, 1]) == pytest.approx(2 / 6, rel=1e-15)
    assert M.adjusted_rand_score([0, 0, 1, 1], [0, 1, 0, 1]) == -0.5
    assert M.contingency_matrix([0, 0, 1], ["a", "b", "b"]).tolist() == [[1, 1], [0, 1]]
    # Two points per cluster on a line: 0, 1 | 10, 11.  s(0) = (mean(10, 11) − 1)/9.5
    X = np.array([[0.0], [1.0], [10.0], [11.0]])
    s = M.silhouette_samples(X, [0, 0, 1, 1])
    assert s[0] == pytest.approx((10.5 - 1) / 10.5, rel=1e-15)


@pytest.mark.parametrize("data", ["iris", "wine", "digits"])
def test_pair_counting_oracle(data, clusterings):
    _, y, pred = clusterings[data]
    np.testing.assert_array_equal(
        M.contingency_matrix(y, pred), skm.cluster.contingency_matrix(y, pred)
    )
    np.testing.assert_array_equal(
        M.contingency_matrix(y, pred, sparse=True).toarray(),
        skm.cluster.contingency_matrix(y, pred, sparse=True).toarray(),
    )
    np.testing.assert_allclose(
        M.contingency_matrix(y, pred, eps=0.5),
        skm.cluster.contingency_matrix(y, pred, eps=0.5),
        rtol=TOL,
    )
    np.testing.assert_array_equal(
        M.pair_confusion_matrix(y, pred), skm.cluster.pair_confusion_matrix(y, pred)
    )
    assert M.rand_score(y, pred) == pytest.approx(skm.rand_score(y, pred), rel=TOL)
    assert M.adjusted_rand_score(y, pred) == pytest.approx(
        skm.adjusted_rand_score(y, pred), rel=TOL
    )


@pytest.mark.parametrize("data", ["iris", "wine", "digits"])
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine", "precomputed"])
def test_silhouette_oracle(data, metric, clusterings):
    X, _, pred = clusterings[data]
    A = euclidean_distances(X) if metric == "precomputed" else X
    np.testing.assert_allclose(
        M.silhouette_samples(A, pred, metric=metric),
        skm.silhouette_samples(A, pred, metric=metric),
        rtol=TOL,
        atol=TOL,
    )
    assert M.silhouette_score(A, pred, metric=metric) == pytest.approx(
        skm.silhouette_score(A, pred, metric=metric), rel=TOL
    )
    # sample_size: the documented subset, scored by scikit-learn on the same rows
    idx = np.random.default_rng(7).permutation(X.shape[0])[:60]
    sub = A[idx][:, idx] if metric == "precomputed" else A[idx]
    assert M.silhouette_score(
        A, pred, metric=metric, sample_size=60, random_state=7
    ) == pytest.approx(skm.silhouette_score(sub, pred[idx], metric=metric), rel=TOL)


def test_silhouette_blocks_and_singletons(clusterings):
    X, _, pred = clusterings["iris"]
    labels = pred.copy()
    labels[0] = labels.max() + 1  # a singleton cluster scores 0
    ours = M.silhouette_samples(X, labels)
    np.testing.assert_allclose(ours, skm.silhouette_samples(X, labels), rtol=TOL, atol=TOL)
    assert ours[0] == 0.0
    # a tiny working memory forces many blocks; the answer is unchanged
    from scratchlearn import config_context

    with config_context(working_memory=8 * 150 * 7 / 2**20):  # 7 rows per block
        # Smaller blocks change the shapes of the BLAS products, hence the summation order:
        # a few ulps of the O(1) distance sums (values near 0 need the absolute term).
        np.testing.assert_allclose(M.silhouette_samples(X, labels), ours, rtol=1e-13, atol=1e-14)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=40), st.integers(0, 1000))
def test_ari_properties(labels, seed):
    labels = np.array(labels)
    perm = np.random.default_rng(seed).permutation(5)
    # renaming clusters changes nothing; symmetry; identical labellings score 1
    assert M.adjusted_rand_score(labels, perm[labels]) == 1.0
    other = np.random.default_rng(seed).integers(0, 3, labels.shape[0])
    assert M.adjusted_rand_score(labels, other) == pytest.approx(
        M.adjusted_rand_score(other, labels), rel=1e-12
    )
    assert 0.0 <= M.rand_score(labels, other) <= 1.0
    assert M.adjusted_rand_score(labels, other) == pytest.approx(
        skm.adjusted_rand_score(labels, other), rel=1e-12, abs=1e-15
    )


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(ValueError, match="Number of labels is 1"):
        M.silhouette_score(X, [0] * 6)
    with pytest.raises(ValueError, match="Number of labels is 6"):
        M.silhouette_score(X, np.arange(6))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        M.silhouette_samples(X, [0, 1, 0])
    with pytest.raises(ValueError, match="NaN"):
        M.silhouette_samples(np.array([[np.nan], [1.0], [2.0]]), [0, 1, 1])
    D = euclidean_distances(X)
    D[0, 0] = 1.0
    with pytest.raises(ValueError, match="diagonal"):
        M.silhouette_samples(D, [0, 0, 0, 1, 1, 1], metric="precomputed")
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        M.adjusted_rand_score([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="NaN"):
        M.rand_score([0.0, np.nan], [0, 1])
    # a fractional sample size was once truncated silently (2.5 -> 2)
    with pytest.raises(ValueError, match="sample_size must be an int"):
        M.silhouette_score(X, [0, 0, 0, 1, 1, 1], sample_size=2.5)
