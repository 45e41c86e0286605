"""Pairwise distances and kernels: scikit-learn oracles on real data, the compiled loop against
its NumPy reference, hand-checkable values, hypothesis properties and bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.metrics import pairwise as skp

from scratchlearn.metrics import pairwise as P
from scratchlearn.metrics._pairwise_kernels import (
    HAMMING,
    L1,
    LINF,
    LP,
    _coordinate_distances_numpy,
    coordinate_distances,
)

# Matrix-product metrics: same expansion as scikit-learn but a different BLAS call shape
# (augmented matrices), so entries agree to a few ulps of the largest term ‖x‖² + ‖y‖²:
# atol 1e-12 relative to the data scale (features standardised below). Coordinate-wise metrics
# do the same sums in the same order as SciPy: 1e-12.
TOL = 1e-12


@pytest.fixture(scope="module")
def wine_xy():
    X = load_wine().data
    X = (X - X.mean(0)) / X.std(0)
    return X[:120], X[120:]


@pytest.fixture(scope="module")
def digits_xy():
    X = load_digits().data[:300]
    return X[:200], X[200:]


DISTANCES = [
    "euclidean",
    "sqeuclidean",
    "manhattan",
    "cityblock",
    "l1",
    "l2",
    "chebyshev",
    "cosine",
    "hamming",
]


@pytest.mark.parametrize("metric", DISTANCES)
@pytest.mark.parametrize("with_y", [False, True])
def test_pairwise_distances_oracle(metric, with_y, wine_xy):
    X, Y = wine_xy
    Yy = Y if with_y else None
    ours = P.pairwise_distances(X, Yy, metric=metric)
    theirs = skp.pairwise_distances(X, Yy, metric=metric)
    scale = 1.0 if metric != "sqeuclidean" else theirs.max()
    np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL * scale)
    if not with_y:
        assert np.all(np.diag(ours) == 0.0)  # exactly zero, not round-off


@pytest.mark.parametrize("p", [1, 1.5, 2, 3, np.inf])
def test_minkowski_oracle(p, wine_xy):
    X, Y = wine_xy
    np.testing.assert_allclose(
        P.pairwise_distances(X, Y, metric="minkowski", p=p),
        skp.pairwise_distances(X, Y, metric="minkowski", p=p),
        rtol=TOL,
    )
    np.testing.assert_allclose(
        P.minkowski_distances(X, Y, p=p),
        skp.pairwise_distances(X, Y, metric="minkowski", p=p),
        rtol=TOL,
    )


def test_named_distance_functions_oracle(digits_xy):
    X, Y = digits_xy
    np.testing.assert_allclose(
        P.euclidean_distances(X, Y), skp.euclidean_distances(X, Y), rtol=TOL, atol=TOL * 100
    )  # digits pixels up to 16: ‖x‖² ~ 1e4
    np.testing.assert_allclose(
        P.euclidean_distances(X, Y, squared=True),
        skp.euclidean_distances(X, Y, squared=True),
        rtol=1e-10,
    )
    XX = (X**2).sum(1)
    np.testing.assert_allclose(
        P.euclidean_distances(X, Y, X_norm_squared=XX),
        skp.euclidean_distances(X, Y),
        rtol=TOL,
        atol=TOL * 100,
    )
    np.testing.assert_allclose(P.manhattan_distances(X, Y), skp.manhattan_distances(X, Y), rtol=TOL)
    np.testing.assert_allclose(
        P.cosine_similarity(X, Y), skp.cosine_similarity(X, Y), rtol=TOL, atol=TOL
    )
    np.testing.assert_allclose(P.cosine_distances(X), skp.cosine_distances(X), atol=TOL)
    # Hamming: the fraction of differing pixels; the seeds' bit count is d times it.
    H = P.hamming_distances(X, Y)
    np.testing.assert_allclose(H, skp.pairwise_distances(X, Y, metric="hamming"), rtol=TOL)
    np.testing.assert_array_equal(H * X.shape[1], (X[:, None] != Y[None]).sum(-1))


@pytest.mark.parametrize("with_y", [False, True])
def test_kernels_oracle(with_y, wine_xy):
    X, Y = wine_xy
    Yy = Y if with_y else None
    cases = [
        ("linear_kernel", {}),
        ("polynomial_kernel", {}),
        ("polynomial_kernel", dict(degree=2, gamma=0.3, coef0=0.5)),
        ("rbf_kernel", {}),
        ("rbf_kernel", dict(gamma=0.05)),
        ("sigmoid_kernel", {}),
        ("sigmoid_kernel", dict(gamma=0.01, coef0=-1)),
    ]
    for name, kw in cases:
        ours = getattr(P, name)(X, Yy, **kw)
        theirs = getattr(skp, name)(X, Yy, **kw)
        # polynomial values reach ~1e4: relative 1e-12; others are O(1): absolute 1e-12
        np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL)
    for metric in ["linear", "poly", "polynomial", "rbf", "sigmoid", "cosine"]:
        np.testing.assert_allclose(
            P.pairwise_kernels(X, Yy, metric=metric),
            skp.pairwise_kernels(X, Yy, metric=metric),
            rtol=TOL,
            atol=TOL,
        )
    np.testing.assert_allclose(
        P.pairwise_kernels(X, Yy, metric="rbf", gamma=0.2, degree=4, filter_params=True),
        skp.pairwise_kernels(X, Yy, metric="rbf", gamma=0.2, degree=4, filter_params=True),
        rtol=TOL,
        atol=TOL,
    )


def test_sparse_input_matches_dense():
    X = load_iris().data
    X[X < 2] = 0.0  # make it actually sparse
    Xs = sp.csr_matrix(X)
    for func in (
        P.euclidean_distances,
        P.cosine_similarity,
        P.cosine_distances,
        P.linear_kernel,
        P.polynomial_kernel,
        P.rbf_kernel,
        P.sigmoid_kernel,
    ):
        dense = func(X, X[:30])
        # sparse products sum in another order: 1e-12 relative to O(10) entries
        np.testing.assert_allclose(func(Xs, Xs[:30]), dense, rtol=1e-12, atol=1e-11)
        np.testing.assert_allclose(func(Xs, X[:30]), dense, rtol=1e-12, atol=1e-11)
    assert sp.issparse(P.linear_kernel(Xs, Xs, dense_output=False))
    with pytest.raises(TypeError, match="Sparse input is not supported for metric 'manhattan'"):
        P.manhattan_distances(Xs)


def test_compiled_loop_matches_numpy_reference(wine_xy):
    X, Y = wine_xy
    Xr = np.round(X)  # ties for Hamming
    for code, p in [(L1, 1.0), (LINF, 1.0), (LP, 3.0), (HAMMING, 1.0)]:
        A = Xr if code == HAMMING else X
        np.testing.assert_allclose(
            coordinate_distances(A, Y if code != HAMMING else np.round(Y), code, p),
            _coordinate_distances_numpy(A, Y if code != HAMMING else np.round(Y), code, p),
            rtol=TOL,
        )


def test_chunked_and_callable(wine_xy):
    X, Y = wine_xy
    full = P.pairwise_distances(X, metric="manhattan")
    blocks = list(P.pairwise_distances_chunked(X, metric="manhattan", working_memory=0.01))
    assert len(blocks) > 1  # 0.01 MiB holds ~10 rows of 120 entries
    np.testing.assert_array_equal(np.vstack(blocks), full)
    eu = np.vstack(list(P.pairwise_distances_chunked(X, working_memory=0.01)))
    assert np.all(np.diag(eu) == 0)
    mins = np.concatenate(
        list(
            P.pairwise_distances_chunked(
                X, Y, reduce_func=lambda D, start: D.min(axis=1), working_memory=0.01
            )
        )
    )
    np.testing.assert_allclose(mins, P.euclidean_distances(X, Y).min(axis=1), rtol=TOL)

    def l1(a, b):
        return np.abs(a - b).sum()

    np.testing.assert_allclose(
        P.pairwise_distances(X[:20], Y[:10], metric=l1),
        skp.pairwise_distances(X[:20], Y[:10], metric=l1),
        rtol=TOL,
    )
    np.testing.assert_allclose(
        P.pairwise_distances(X[:20], metric=l1), P.manhattan_distances(X[:20]), rtol=TOL
    )
    D = P.euclidean_distances(X)
    assert P.pairwise_distances(D, metric="precomputed") is not None


def test_hand_checkable():
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    np.testing.assert_array_equal(P.euclidean_distances(X), [[0, 5], [5, 0]])
    np.testing.assert_array_equal(P.manhattan_distances(X), [[0, 7], [7, 0]])
    np.testing.assert_array_equal(P.chebyshev_distances(X), [[0, 4], [4, 0]])
    np.testing.assert_array_equal(P.hamming_distances(X), [[0, 1], [1, 0]])
    assert P.rbf_kernel(X, gamma=0.5)[0, 1] == pytest.approx(np.exp(-12.5), rel=1e-15)
    assert P.polynomial_kernel(X, degree=2, gamma=1, coef0=1)[1, 1] == 26.0**2
    # gamma None = 1/d
    assert P.rbf_kernel(X)[0, 1] == pytest.approx(np.exp(-25 / 2), rel=1e-15)
    # zero rows have cosine similarity 0 with everything
    assert P.cosine_similarity(X)[0].tolist() == [0.0, 0.0]
    f32 = P.euclidean_distances(X.astype(np.float32))
    assert f32.dtype == np.float32


def test_float32_computed_in_float64(digits_xy):
    X, Y = (A.astype(np.float32) for A in digits_xy)
    for Yy in (None, Y):
        ours = P.euclidean_distances(X, Yy)
        assert ours.dtype == np.float32
        # both sides compute in float64 and round once to float32: within one float32 ulp
        np.testing.assert_allclose(ours, skp.euclidean_distances(X, Yy), rtol=2e-7, atol=1e-5)
    D = P.euclidean_distances(X)
    np.testing.assert_array_equal(D, D.T)


def test_bad_input():
    X = np.ones((3, 4))
    with pytest.raises(ValueError, match="X has 4 features .* Y has 3 features"):
        P.euclidean_distances(X, np.ones((2, 3)))
    with pytest.raises(ValueError, match="X has 4 features .* Y has 5 features"):
        P.manhattan_distances(X, np.ones((2, 5)))
    with pytest.raises(ValueError, match="NaN"):
        P.rbf_kernel(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="2-dimensional"):
        P.cosine_distances([1.0, 2.0])
    with pytest.raises(ValueError, match="Unknown metric 'foo'.*euclidean"):
        P.pairwise_distances(X, metric="foo")
    with pytest.raises(ValueError, match="Unknown metric"):
        P.pairwise_kernels(X, metric="euclidean")
    with pytest.raises(ValueError, match="p >= 1"):
        P.minkowski_distances(X, p=0.5)
    with pytest.raises(ValueError, match="Negative"):
        P.pairwise_distances(-np.ones((2, 2)), metric="precomputed")
    # A negative gamma once gave an RBF matrix of ones (the clipped exponent) without a word.
    with pytest.raises(ValueError, match="gamma must be"):
        P.rbf_kernel(X, gamma=-1.0)
    with pytest.raises(ValueError, match="gamma must be"):
        P.pairwise_kernels(X, metric="sigmoid", gamma="a")
    with pytest.raises(ValueError, match="degree must be"):
        P.polynomial_kernel(X, degree=-1)


# --- properties ------------------------------------------------------------------------------

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, width=64)


def _matrix(d):
    return arrays(np.float64, st.tuples(st.integers(1, 7), st.just(d)), elements=finite)


matrices = st.integers(2, 8).flatmap(lambda d: st.tuples(_matrix(d), _matrix(d)))


@settings(max_examples=25, deadline=None)
@given(matrices)
def test_distance_properties(XY):
    X, Y = XY
    Z = np.vstack([X, Y])
    # The euclidean expansion ‖x‖² − 2x·y + ‖y‖² loses up to half the digits for near-identical
    # rows: its error is about √ε·‖x‖, so comparisons between two different products of it
    # allow 1e-7·(1 + largest norm). Everything else is compared to 1e-12.
    loose = 1e-7 * (1 + np.linalg.norm(Z, axis=1).max())
    for metric in ("euclidean", "manhattan", "chebyshev", "cosine", "hamming"):
        D = P.pairwise_distances(Z, metric=metric)
        assert np.all(D >= 0)
        assert np.all(np.diag(D) == 0)
        np.testing.assert_array_equal(D, D.T)  # exactly symmetric
        DXY = P.pairwise_distances(X, Y, metric=metric)
        atol = loose if metric == "euclidean" else 1e-12
        np.testing.assert_allclose(
            DXY, P.pairwise_distances(Y, X, metric=metric).T, rtol=1e-12, atol=atol
        )
    for metric in ("euclidean", "manhattan"):
        D = P.pairwise_distances(Z, metric=metric)
        slack = loose if metric == "euclidean" else 1e-12 * (1 + D.max())
        # triangle inequality d(i, k) ≤ d(i, j) + d(j, k) for every i, j, k
        assert np.all(D[:, None, :] <= D[:, :, None] + D[None, :, :] + slack)


@settings(max_examples=25, deadline=None)
@given(matrices, st.floats(1e-3, 1.0))
def test_kernels_symmetric_psd(XY, gamma):
    X, Y = XY
    Z = np.vstack([X, Y]) / 100
    for K in (P.rbf_kernel(Z, gamma=gamma), P.linear_kernel(Z)):
        np.testing.assert_allclose(K, K.T, rtol=1e-12, atol=1e-12)
        eig = np.linalg.eigvalsh((K + K.T) / 2)
        assert eig.min() >= -1e-8 * max(1.0, eig.max())


@pytest.mark.parametrize("degree", [1, 2, 3, 4, 7, 16, 2.5, 17])
def test_power_by_squaring_matches_pow(degree, wine_xy):
    from scratchlearn.metrics.pairwise import _power_inplace

    X, Y = wine_xy
    K = np.abs(P.linear_kernel(X, Y)) / 20 + 0.5  # positive: fractional powers defined
    # repeated squaring rounds after each product: a few ulps per multiplication
    np.testing.assert_allclose(_power_inplace(K.copy(), degree), K**degree, rtol=1e-13)
    np.testing.assert_allclose(
        P.polynomial_kernel(X, Y, degree=degree, gamma=0.05, coef0=5),
        skp.polynomial_kernel(X, Y, degree=degree, gamma=0.05, coef0=5),
        rtol=1e-13,
    )
