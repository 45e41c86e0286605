"""Chan's merge of moments (utils._moments): by hand, and against the two-pass moments of the
union in each of its three shapes (per coordinate, rows side by side, cross-product matrix)."""

import numpy as np

from scratchlearn.utils._moments import Moments, merge_moments

EPS = np.finfo(np.float64).eps


def _two_pass(X, w):
    n = w.sum()
    mu = w @ X / n
    Xc = X - mu
    return n, mu, Xc


def test_merge_by_hand():
    # a = (0, 2): n 2, mean 1, M2 2; b = (4,): n 1, mean 4, M2 0. Union (0, 2, 4): mean 2, M2 8
    m = merge_moments(Moments(2, np.array([1.0]), np.array([2.0])), Moments(1, [4.0], [0.0]))
    assert m.weight == 3 and m.mean.tolist() == [2.0] and m.m2.tolist() == [8.0]
    # δ = 3, n_a n_b / n = 2/3: 2 + 0 + 6 = 8; the mean alone when M2 is not wanted
    assert merge_moments(Moments(2, np.array([1.0]), None), Moments(1, [4.0], None)).m2 is None


def test_vector_rows_and_matrix_forms_match_the_union():
    rng = np.random.default_rng(0)
    X = 1e4 + rng.normal(size=(40, 3))  # a large mean beside the spread
    w = rng.uniform(0.5, 2.0, 40)
    parts = [slice(0, 13), slice(13, 40)]
    n, mu, Xc = _two_pass(X, w)
    m2 = w @ (Xc * Xc)  # (d,)
    C = Xc.T @ (w[:, None] * Xc)  # (d, d)
    vec, mat = [], []
    for s in parts:
        n_s, mu_s, Xc_s = _two_pass(X[s], w[s])
        vec.append(Moments(n_s, mu_s, w[s] @ (Xc_s * Xc_s)))
        mat.append(Moments(n_s, mu_s, Xc_s.T @ (w[s][:, None] * Xc_s)))
    # a few roundings of O(n) sums of the spread, relative to the spread: 100 ε is ample
    v = merge_moments(*vec)
    np.testing.assert_allclose(v.mean, mu, rtol=100 * EPS)
    np.testing.assert_allclose(v.m2, m2, rtol=100 * 40 * EPS)
    M = merge_moments(*mat)
    assert M.weight == v.weight and np.array_equal(M.mean, v.mean)
    np.testing.assert_allclose(M.m2, C, atol=100 * 40 * EPS * np.abs(C).max())
    # the diagonal of the matrix merge is the per-coordinate merge of the diagonals
    diag = [Moments(m.weight, m.mean, np.diag(m.m2).copy()) for m in mat]
    assert np.array_equal(np.diag(M.m2), merge_moments(*diag).m2)
    # two samples side by side as rows, one of them empty on the second side
    a = Moments(np.array([vec[0].weight, 2.0]), np.stack([vec[0].mean, [1.0, 2.0, 3.0]]),
                np.stack([vec[0].m2, [0.5, 0.5, 0.5]]))  # fmt: skip
    b = Moments(np.array([vec[1].weight, 0.0]), np.stack([vec[1].mean, np.zeros(3)]),
                np.stack([vec[1].m2, np.zeros(3)]))  # fmt: skip
    r = merge_moments(a, b)
    assert np.array_equal(r.mean[0], v.mean) and np.array_equal(r.m2[0], v.m2)
    assert r.weight[1] == 2.0 and r.mean[1].tolist() == [1.0, 2.0, 3.0]
    assert r.m2[1].tolist() == [0.5, 0.5, 0.5]  # a side of weight 0 changes nothing
    # two empty rows stay empty (no division by n = 0)
    z = Moments(np.zeros(1), np.zeros((1, 3)), np.zeros((1, 3)))
    e = merge_moments(z, z)
    assert e.weight.tolist() == [0.0] and not e.mean.any() and not e.m2.any()
