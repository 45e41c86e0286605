"""StandardScaler, MinMaxScaler, Normalizer, Binarizer: by hand, against scikit-learn on real
data, streaming, sparse, round trips, and bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn import preprocessing as skp
from sklearn.datasets import load_diabetes, load_iris, load_wine

from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.preprocessing import Binarizer, MinMaxScaler, Normalizer, StandardScaler
from scratchlearn.preprocessing._data import merge_mean_var, weighted_mean_var

X_WINE = load_wine().data  # (178, 13), features from ~0.1 to ~1700: a real scale spread
X_DIA = load_diabetes().data
X_IRIS = load_iris().data
SW = np.random.default_rng(0).uniform(0.2, 3.0, X_WINE.shape[0])
EPS = np.finfo(np.float64).eps


def sparse_wine(fmt="csr"):
    A = np.where(X_WINE > np.median(X_WINE, axis=0), X_WINE, 0.0)  # about half zeros
    return sp.csr_matrix(A) if fmt == "csr" else sp.csc_matrix(A)


def dense(A):
    return A.toarray() if sp.issparse(A) else A


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_standard_scaler_by_hand():
    # column 0: (1, 2, 3, 6), mean 3, variance (4 + 1 + 0 + 9)/4 = 3.5;
    # column 1 constant 5 -> variance 0, scale 1, output 0
    X = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 5.0], [6.0, 5.0]])
    s = StandardScaler().fit(X)
    assert s.mean_.tolist() == [3.0, 5.0]
    assert s.var_.tolist() == [3.5, 0.0]
    assert s.scale_.tolist() == [np.sqrt(3.5), 1.0]
    assert s.n_samples_seen_ == 4
    Z = s.transform(X)
    np.testing.assert_allclose(Z[:, 0], np.array([-2, -1, 0, 3]) / np.sqrt(3.5), rtol=0, atol=1e-15)
    assert np.all(Z[:, 1] == 0.0)


def test_weighted_moments_by_hand():
    # weights (1, 3) on values (0, 4): mean = 12/4 = 3, var = (1*9 + 3*1)/4 = 3
    mu, var, W = weighted_mean_var(np.array([[0.0], [4.0]]), np.array([1.0, 3.0]))
    assert (mu[0], var[0], W) == (3.0, 3.0, 4.0)


def test_chan_merge_by_hand():
    # batch a = (0, 2): n 2, mean 1, var 1; batch b = (4,): n 1, mean 4, var 0
    # all three: mean 2, var (4 + 0 + 4)/3 = 8/3
    mu, var, n = merge_mean_var(
        (np.array([1.0]), np.array([1.0]), 2), (np.array([4.0]), np.array([0.0]), 1)
    )
    assert n == 3 and mu[0] == 2.0 and var[0] == pytest.approx(8 / 3, abs=1e-15)


def test_min_max_by_hand():
    X = np.array([[0.0, -1.0], [5.0, 1.0], [10.0, 1.0]])
    m = MinMaxScaler(feature_range=(-1, 1)).fit(X)
    assert m.data_min_.tolist() == [0.0, -1.0] and m.data_range_.tolist() == [10.0, 2.0]
    np.testing.assert_array_equal(m.transform(X), [[-1.0, -1.0], [0.0, 1.0], [1.0, 1.0]])
    # beyond the training range: 20 -> 3, clipped to 1
    assert m.transform([[20.0, 0.0]])[0, 0] == 3.0
    assert MinMaxScaler(feature_range=(-1, 1), clip=True).fit(X).transform([[20.0, 0]])[0, 0] == 1


def test_normalizer_and_binarizer_by_hand():
    X = np.array([[3.0, -4.0], [0.0, 0.0]])
    np.testing.assert_array_equal(Normalizer().fit_transform(X), [[0.6, -0.8], [0, 0]])
    np.testing.assert_array_equal(Normalizer(norm="l1").fit_transform(X), [[3 / 7, -4 / 7], [0, 0]])
    np.testing.assert_array_equal(Normalizer(norm="max").fit_transform(X), [[0.75, -1], [0, 0]])
    np.testing.assert_array_equal(Binarizer(threshold=0.0).fit_transform(X), [[1, 0], [0, 0]])
    np.testing.assert_array_equal(Binarizer(threshold=-5).fit_transform(X), [[1, 1], [1, 1]])


# -- 2. oracles on real data ------------------------------------------------------------------
@pytest.mark.parametrize("with_mean", [True, False])
@pytest.mark.parametrize("with_std", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_standard_scaler_matches_sklearn(with_mean, with_std, weighted):
    kw = dict(with_mean=with_mean, with_std=with_std)
    sw = SW if weighted else None
    ours = StandardScaler(**kw).fit(X_WINE, sample_weight=sw)
    ref = skp.StandardScaler(**kw).fit(X_WINE, sample_weight=sw)
    for name in ("mean_", "var_", "scale_"):
        a, b = getattr(ours, name), getattr(ref, name)
        assert (a is None) == (b is None), name
        if a is not None:
            # same formulas, different summation order: relative 1e-13 (wine's proline
            # variance is ~1e5, so absolute differences reach ~1e-11)
            np.testing.assert_allclose(a, b, rtol=1e-13, atol=0, err_msg=name)
    assert ours.n_samples_seen_ == pytest.approx(ref.n_samples_seen_, rel=1e-14)
    # transform: z = (x − μ)/σ. μ and σ² are (weighted) sums over n = 178 rows: numerator,
    # weights and their products each add up to n·ε relative, at most 4·n·ε in all, so z differs
    # by 4·n·ε·(|μ| + max|x − μ|)/σ per feature: 2.9e-12 on wine (a feature has |μ|/σ ≈ 16).
    # Seen: 2.3e-13, a factor ~13 inside.
    n = X_WINE.shape[0]
    spread = (np.abs(X_WINE.mean(0)) + np.abs(X_WINE - X_WINE.mean(0)).max(0)) / X_WINE.std(0)
    atol = 4 * n * np.finfo(float).eps * spread.max()
    np.testing.assert_allclose(ours.transform(X_WINE), ref.transform(X_WINE), rtol=0, atol=atol)
    np.testing.assert_allclose(
        ours.inverse_transform(ours.transform(X_WINE)), X_WINE, rtol=1e-13, atol=1e-12
    )


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("weighted", [False, True])
def test_standard_scaler_sparse_matches_sklearn_and_dense(fmt, weighted):
    Xs = sparse_wine(fmt)
    sw = SW if weighted else None
    ours = StandardScaler(with_mean=False).fit(Xs, sample_weight=sw)
    ref = skp.StandardScaler(with_mean=False).fit(Xs, sample_weight=sw)
    dns = StandardScaler(with_mean=False).fit(Xs.toarray(), sample_weight=sw)
    # sums in a different order: relative 1e-13
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=1e-13)
    np.testing.assert_allclose(ours.var_, dns.var_, rtol=1e-13)
    np.testing.assert_allclose(ours.mean_, dns.mean_, rtol=1e-13)
    Z = ours.transform(Xs)
    assert sp.issparse(Z)
    np.testing.assert_allclose(Z.toarray(), dns.transform(Xs.toarray()), rtol=1e-13, atol=0)
    np.testing.assert_allclose(Z.toarray(), dense(ref.transform(Xs)), rtol=1e-13, atol=0)
    np.testing.assert_allclose(ours.inverse_transform(Z).toarray(), Xs.toarray(), rtol=1e-13)


@pytest.mark.parametrize("feature_range", [(0, 1), (-3, 2.5)])
@pytest.mark.parametrize("clip", [False, True])
@pytest.mark.parametrize("data", ["wine", "diabetes"])
def test_min_max_matches_sklearn(feature_range, clip, data):
    X = X_WINE if data == "wine" else X_DIA
    fit_part, other = X[: len(X) // 2], X[len(X) // 2 :]
    ours = MinMaxScaler(feature_range=feature_range, clip=clip).fit(fit_part)
    ref = skp.MinMaxScaler(feature_range=feature_range, clip=clip).fit(fit_part)
    for name in ("data_min_", "data_max_", "data_range_", "scale_", "min_"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(ref, name), err_msg=name)
    # scikit-learn computes fl(fl(x s) + m), error <= ε(|x| s + |x s + m|) <= ε(2|x| s + |m|);
    # ours fl(fl(fl(x - lo) s) + a), error <= ε(|x - lo| s + 2|x s + m| + |a|) (two roundings of
    # the product chain, one of the sum). Their difference is below the sum of both, bounded by
    # 4ε(|x| s + |m| + |a| + |b|) per entry.
    a, b = feature_range
    bound = 4 * EPS * (np.abs(other) * ours.scale_ + np.abs(ours.min_) + abs(a) + abs(b))
    assert np.all(np.abs(ours.transform(other) - ref.transform(other)) <= bound)
    np.testing.assert_allclose(
        ours.inverse_transform(ours.transform(fit_part)), fit_part, rtol=1e-13, atol=1e-13
    )


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("data", ["wine", "iris"])
def test_normalizer_matches_sklearn_dense_and_sparse(norm, data):
    X = X_WINE if data == "wine" else X_IRIS
    ref = skp.Normalizer(norm=norm).fit_transform(X)
    # x_ij/‖x_i‖ ≤ 1: the norm is a sum of d non-negative terms (relative error ≤ d·ε; the square
    # root halves it, max is exact) and the division adds ε, so each side is within (d + 1)·ε of
    # the exact value and the two within 2(d + 1)·ε: 6.2e-15 for wine, 2.2e-15 for iris
    # (seen: 2.2e-16, one ulp of 1).
    atol = 2 * (X.shape[1] + 1) * np.finfo(float).eps
    np.testing.assert_allclose(Normalizer(norm=norm).fit_transform(X), ref, rtol=0, atol=atol)
    Xs = sp.csr_matrix(np.where(X > np.median(X), X, 0.0))
    Zs = Normalizer(norm=norm).fit_transform(Xs)
    assert sp.issparse(Zs)
    np.testing.assert_allclose(
        Zs.toarray(), Normalizer(norm=norm).fit_transform(Xs.toarray()), rtol=0, atol=atol
    )
    np.testing.assert_allclose(
        Zs.toarray(), skp.Normalizer(norm=norm).fit_transform(Xs).toarray(), rtol=0, atol=atol
    )


@pytest.mark.parametrize("threshold", [0.0, 1.5, 100.0])
def test_binarizer_matches_sklearn_dense_and_sparse(threshold):
    np.testing.assert_array_equal(
        Binarizer(threshold=threshold).fit_transform(X_WINE),
        skp.Binarizer(threshold=threshold).fit_transform(X_WINE),
    )
    Xs = sparse_wine()
    Zs = Binarizer(threshold=threshold).fit_transform(Xs)
    assert sp.issparse(Zs)
    np.testing.assert_array_equal(
        Zs.toarray(), Binarizer(threshold=threshold).fit_transform(Xs.toarray())
    )


# -- streaming ----------------------------------------------------------------------------
@pytest.mark.parametrize("chunks", [2, 7, 178])
@pytest.mark.parametrize("weighted", [False, True])
def test_standard_scaler_partial_fit_equals_fit(chunks, weighted):
    ours = StandardScaler()
    for idx in np.array_split(np.arange(len(X_WINE)), chunks):
        ours.partial_fit(X_WINE[idx], sample_weight=SW[idx] if weighted else None)
    full = StandardScaler().fit(X_WINE, sample_weight=SW if weighted else None)
    # Chan's merge is exact in real arithmetic; rounding differs from the one-batch two-pass
    # sums by a few ulps per merge: relative 1e-12
    np.testing.assert_allclose(ours.mean_, full.mean_, rtol=1e-12)
    np.testing.assert_allclose(ours.var_, full.var_, rtol=1e-12)
    assert ours.n_samples_seen_ == pytest.approx(full.n_samples_seen_, rel=1e-13)
    ref = skp.StandardScaler()
    for idx in np.array_split(np.arange(len(X_WINE)), chunks):
        ref.partial_fit(X_WINE[idx], sample_weight=SW[idx] if weighted else None)
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=1e-12)


def test_standard_scaler_partial_fit_sparse_and_large_offset():
    Xs = sparse_wine()
    s = StandardScaler(with_mean=False)
    for idx in np.array_split(np.arange(Xs.shape[0]), 5):
        s.partial_fit(Xs[idx])
    full = StandardScaler(with_mean=False).fit(Xs)
    np.testing.assert_allclose(s.var_, full.var_, rtol=1e-12)
    # stability: data around 1e9 with unit spread; the naive E[x²] − E[x]² loses every digit
    rng = np.random.default_rng(1)
    X = 1e9 + rng.standard_normal((4000, 3))
    s = StandardScaler()
    for idx in np.array_split(np.arange(4000), 40):
        s.partial_fit(X[idx])
    # each centred value carries ≈ ε·1e9 ≈ 2e-7 of rounding, so σ² ≈ 1 is good to ~1e-6
    np.testing.assert_allclose(s.var_, np.var(X, axis=0), rtol=1e-6)


def test_min_max_partial_fit_equals_fit():
    m = MinMaxScaler(feature_range=(2, 5))
    for idx in np.array_split(np.arange(len(X_DIA)), 9):
        m.partial_fit(X_DIA[idx])
    full = MinMaxScaler(feature_range=(2, 5)).fit(X_DIA)
    for name in ("data_min_", "data_max_", "scale_", "min_"):
        np.testing.assert_array_equal(getattr(m, name), getattr(full, name))
    assert m.n_samples_seen_ == len(X_DIA)


def test_refit_resets_state():
    s = StandardScaler().fit(X_WINE)
    s.fit(X_IRIS)
    assert s.n_samples_seen_ == 150 and s.mean_.shape == (4,)


# -- properties -------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(2, 30), st.integers(1, 4)),
        elements=st.floats(-1e3, 1e3, allow_nan=False),
    )
)
def test_standardised_columns_have_zero_mean_unit_variance(X):
    Z = StandardScaler().fit_transform(X)
    spread = np.ptp(X, axis=0) > 1e-6 * (1 + np.abs(X).max(axis=0))
    # |x| ≤ 1e3 and the spread may be as small as 1e-6·|x|: z = (x − μ)/σ then carries
    # ≈ ε·|x|/σ ≈ 1e-10 of rounding, hence 1e-9 absolute for means and 1e-7 relative for σ²
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-9)
    np.testing.assert_allclose(Z.var(axis=0)[spread], 1, rtol=1e-7)
    np.testing.assert_allclose(
        StandardScaler().fit(X).inverse_transform(Z), X, rtol=1e-9, atol=1e-9
    )


@settings(max_examples=25, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 20), st.integers(1, 4)),
        elements=st.floats(-1e3, 1e3, allow_nan=False),
    )
)
@example(np.array([[1000.0], [np.nextafter(1000.0, 0.0)]]))  # range of one ulp: was (0, 8)
def test_min_max_output_in_range(X):
    """Training values land in [a, b] up to rounding, however small the range relative to the
    values (x = 1000 ± 1 ulp once gave 0 and 8 for (−2, 3) through x s + m). fl(x − lo) has
    relative error ε, s = (b − a)/fl(hi − lo) has 2ε, the product ε and the sum + a ε of its
    result: |error| <= 4ε(b − a) + ε max(|a|, |b|) < 8ε·3 for (a, b) = (−2, 3)."""
    Z = MinMaxScaler(feature_range=(-2, 3)).fit_transform(X)
    slack = 24 * EPS
    assert Z.min() >= -2 - slack and Z.max() <= 3 + slack


# -- user arrays and copies -----------------------------------------------------------------
@pytest.mark.parametrize("make", [StandardScaler, MinMaxScaler, Normalizer, Binarizer])
def test_user_arrays_not_modified(make):
    X = X_WINE.copy()
    est = make().fit(X)
    est.transform(X)
    if hasattr(est, "inverse_transform"):
        est.inverse_transform(X)
    np.testing.assert_array_equal(X, X_WINE)
    Xs = sparse_wine()
    before = Xs.toarray()
    if make is not MinMaxScaler:
        e = make(with_mean=False) if make is StandardScaler else make()
        e.fit(Xs).transform(Xs)
        np.testing.assert_array_equal(Xs.toarray(), before)


def test_copy_false_works_in_place():
    X = X_WINE.copy()
    Z = StandardScaler(copy=False).fit(X).transform(X)
    assert Z is X or np.shares_memory(Z, X)


# -- bad input ------------------------------------------------------------------------------
def test_bad_input():
    with pytest.raises(ValueError, match="Cannot center sparse"):
        StandardScaler().fit(sparse_wine())
    with pytest.raises(ValueError, match="NaN"):
        StandardScaler().fit(np.array([[1.0], [np.nan]]))
    with pytest.raises(ValueError, match="NaN"):
        MinMaxScaler().fit(np.array([[1.0], [np.nan]]))
    with pytest.raises(ValueError, match="13 features"):
        StandardScaler().fit(X_WINE).transform(X_IRIS)
    with pytest.raises(ValueError, match="13 features"):
        MinMaxScaler().fit(X_WINE).transform(X_IRIS)
    with pytest.raises(ValueError, match="features"):
        StandardScaler().fit(X_WINE).inverse_transform(X_IRIS)
    with pytest.raises(ValueError, match="smaller than maximum"):
        MinMaxScaler(feature_range=(2, 1)).fit(X_WINE)
    with pytest.raises(InvalidParameterError, match="norm"):
        Normalizer(norm="l3").fit(X_WINE)
    with pytest.raises(InvalidParameterError, match="with_mean"):
        StandardScaler(with_mean="yes").fit(X_WINE)
    with pytest.raises(ValueError, match="threshold < 0"):
        Binarizer(threshold=-1).fit_transform(sparse_wine())
    with pytest.raises(ValueError, match="sample_weight"):
        StandardScaler().fit(X_WINE, sample_weight=np.ones(3))
    with pytest.raises(NotFittedError):
        StandardScaler().transform(X_WINE)
    with pytest.raises(TypeError, match="dense data is required"):
        MinMaxScaler().fit(sparse_wine())
    with pytest.raises(ValueError, match="strings"):
        StandardScaler().fit([["a", "b"]])


def test_stateless_transformers_work_unfitted():
    # Normalizer and Binarizer learn nothing: transform works without fit
    np.testing.assert_allclose(
        Normalizer().transform(X_IRIS), skp.Normalizer().fit_transform(X_IRIS), atol=1e-15
    )
    assert Binarizer().transform(X_IRIS).shape == X_IRIS.shape
    assert Normalizer().fit(X_IRIS).n_features_in_ == 4


def test_feature_names_out():
    import pandas as pd

    df = pd.DataFrame(X_IRIS, columns=["a", "b", "c", "d"])
    assert StandardScaler().fit(df).get_feature_names_out().tolist() == ["a", "b", "c", "d"]
    assert MinMaxScaler().fit(X_IRIS).get_feature_names_out().tolist() == ["x0", "x1", "x2", "x3"]
