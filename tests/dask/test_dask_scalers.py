"""StandardScaler and MinMaxScaler on Dask: fitted on a real LocalCluster, block by block, they
match the in-memory fit on the raw diabetes measurements, and transform lazily.

Bounds (ε = 2.2e-16, n rows, R_j the range of feature j):
- MinMaxScaler's (min, max) is a selection, not arithmetic: equal exactly in any block order.
- StandardScaler's μ_j: a sum of n positive terms (raw diabetes is positive) in another order,
  then a division, is off by ≤ (n + 1) ε relatively; the Chan merges add a few ε |μ| each, so
  two summation orders differ by ≤ 2 (n + 4) ε |μ_j|.
- σ²_j: the centred terms are non-negative (same bound relative to σ²); an error e ≤ n ε |μ| in
  a block mean shifts a merge's δ² n_a n_b / n term by ≤ 2 e |δ| n_a n_b / n ≤ e R_j n / 2, i.e.
  by ≤ n ε |μ_j| R_j / σ²_j relatively to n σ²_j. Hence the bound per feature
  2 (n + 4) ε (1 + |μ_j| R_j / σ²_j) (at most 1e-11 here; measured ≤ 4e-15, ≤ 3e-3 of it).
"""

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from _dask_cases import chunkings

from scratchlearn.datasets import load_diabetes
from scratchlearn.preprocessing import MinMaxScaler, StandardScaler

EPS = np.finfo(np.float64).eps


@pytest.fixture(scope="module")
def diabetes():
    X, _ = load_diabetes(return_X_y=True, scaled=False)  # (442, 10), every value positive
    w = np.random.default_rng(0).uniform(0.5, 2.0, X.shape[0])
    return X, w


def _moment_rtol(X):
    """2 (n + 4) ε (1 + |μ_j| R_j / σ²_j) per feature (see the module docstring)."""
    mu, var = X.mean(axis=0), X.var(axis=0)
    return 2 * (X.shape[0] + 4) * EPS * (1 + np.abs(mu) * np.ptp(X, axis=0) / var)


def _assert_within(got, want, rtol):
    assert np.all(np.abs(got - want) <= rtol * np.abs(want)), np.max(
        np.abs(got - want) / (rtol * np.abs(want))
    )


def _assert_same_moments(dask_fit, ref, rtol):
    assert dask_fit.n_samples_seen_ == pytest.approx(ref.n_samples_seen_, rel=4 * rtol.min())
    for name in ("mean_", "var_", "scale_"):
        got, want = getattr(dask_fit, name), getattr(ref, name)
        if want is None:
            assert got is None, name
        else:
            assert isinstance(got, np.ndarray), name
            _assert_within(got, want, rtol)


@pytest.mark.parametrize("chunks", chunkings(442), ids=lambda c: f"{len(c)}blocks")
def test_standard_scaler_matches_in_memory(client, diabetes, chunks):
    X, w = diabetes
    Xd = da.from_array(X, chunks=(chunks, 10))
    rtol = _moment_rtol(X)
    ref = StandardScaler().fit(X)
    _assert_same_moments(StandardScaler().fit(Xd), ref, rtol)
    # weights change the statistic (Dask weights, cut unlike X)
    ref = StandardScaler().fit(X, sample_weight=w)
    got = StandardScaler().fit(Xd, sample_weight=da.from_array(w, chunks=100))
    _assert_same_moments(got, ref, rtol)
    # the fitted model's transform of a Dask array is lazy and the NumPy transform row by row
    # (the same formula on the same numbers: exact); inverse_transform returns X up to rounding
    Z = got.transform(Xd)
    assert isinstance(Z, da.Array)
    Z_np, back = da.compute(Z, got.inverse_transform(Z))
    assert np.array_equal(Z_np, got.transform(X))
    # x − μ then + μ: two roundings of size ε max(|x|, |μ|) ≤ 2 ε max|x|
    np.testing.assert_allclose(back, X, rtol=0, atol=4 * EPS * np.abs(X).max())


def test_one_row_blocks_and_partial_fit(client, diabetes):
    X, w = diabetes[0][:12], diabetes[1][:12]
    rtol = _moment_rtol(X)
    # with_mean / with_std change what is kept of the statistic, not the statistic
    ref = StandardScaler(with_mean=False).fit(X, sample_weight=w)
    got = StandardScaler(with_mean=False).fit(da.from_array(X, chunks=(1, 10)), sample_weight=w)
    _assert_same_moments(got, ref, rtol)
    # partial_fit merges its state with each Dask batch by the same function
    part = StandardScaler(with_std=False)
    for rows in (slice(0, 5), slice(5, 12)):
        part.partial_fit(da.from_array(X[rows], chunks=4), sample_weight=w[rows])
    _assert_same_moments(part, StandardScaler(with_std=False).fit(X, sample_weight=w), rtol)


def test_min_max_scaler_is_exact(client, diabetes):
    X = diabetes[0]
    chunks = chunkings(442)[1]
    ref = MinMaxScaler(feature_range=(-2, 3), clip=True).fit(X)
    got = MinMaxScaler(feature_range=(-2, 3), clip=True).fit(da.from_array(X, chunks=(chunks, 5)))
    for name in ("data_min_", "data_max_", "data_range_", "scale_", "min_"):
        assert np.array_equal(getattr(got, name), getattr(ref, name)), name  # min / max: exact
    assert got.n_samples_seen_ == X.shape[0]
    X_new = X[::-1] * 1.5  # beyond the training range: clip acts
    Z = got.transform(da.from_array(X_new, chunks=(chunks, 10)))
    assert isinstance(Z, da.Array)
    Z_np, back = da.compute(Z, got.inverse_transform(Z))
    assert np.array_equal(Z_np, ref.transform(X_new))
    assert np.array_equal(back, ref.inverse_transform(ref.transform(X_new)))
    # one row per block (a short slice: each block is a task)
    got = MinMaxScaler().fit(da.from_array(X[:12], chunks=(1, 10)))
    ref = MinMaxScaler().fit(X[:12])
    assert np.array_equal(got.data_min_, ref.data_min_)
    assert np.array_equal(got.data_max_, ref.data_max_)


def test_dataframe_input_records_names(client, diabetes):
    X, w = diabetes
    names = [f"f{j}" for j in range(10)]
    ddf = dd.from_pandas(pd.DataFrame(X, columns=names), npartitions=3)
    got = StandardScaler().fit(ddf, sample_weight=w)
    ref = StandardScaler().fit(X, sample_weight=w)
    assert list(got.feature_names_in_) == names
    _assert_same_moments(got, ref, _moment_rtol(X))
    with pytest.raises(ValueError, match="feature names"):
        got.transform(ddf.rename(columns={"f0": "zz"}))


def test_nan_in_one_block_raises_at_fit(client, diabetes):
    X = diabetes[0][:30].copy()
    X[25, 3] = np.nan  # in the third of three blocks
    Xd = da.from_array(X, chunks=(10, 10))
    with pytest.raises(ValueError, match="NaN"):
        StandardScaler().fit(Xd)
    with pytest.raises(ValueError, match="sum to zero"):
        StandardScaler().fit(da.from_array(X[:20], chunks=10), sample_weight=np.zeros(20))
