"""block_reduce: the one-block case is the in-memory call, the many-block case on a real
LocalCluster sums the same statistics; Dask input elsewhere is refused by name."""

import dask.array as da
import numpy as np
import pytest
from _dask_cases import chunkings

from scratchlearn.utils._blocks import add_stats, block_reduce
from scratchlearn.utils._dask import is_dask_collection


def _moments(X, y, w, shift):
    """Σw, Σw(x−shift), Σw y x: sums of rows (shift is a static argument)."""
    wx = w[:, None] * (X - shift)
    return {"n": float(w.sum()), "sx": wx.sum(axis=0), "xy": (X * (w * y)[:, None]).sum(axis=0)}


def test_one_block_is_the_in_memory_call(rng):
    X, y, w = rng.normal(size=(7, 3)), rng.normal(size=7), rng.random(7)
    got = block_reduce(_moments, X, y, w, static=(np.ones(3),))
    want = _moments(X, y, w, np.ones(3))
    for k in want:  # the same function on the same arrays: bit for bit
        assert np.array_equal(got[k], want[k])


@pytest.mark.parametrize("chunks", chunkings(23), ids=lambda c: f"{len(c)}blocks")
def test_blocks_on_a_cluster_sum_to_the_whole(client, rng, chunks):
    X, y, w = rng.normal(size=(23, 3)), rng.normal(size=23), rng.random(23)
    Xd = da.from_array(X, chunks=(chunks, 3))
    got = block_reduce(_moments, Xd, da.from_array(y, chunks=7), w, static=(np.ones(3),))
    want = _moments(X, y, w, np.ones(3))
    # Sums of 23 terms of size ≤ 3 in another order: |error| ≤ 23·ε·Σ|terms| ≈ 23·2.2e-16·69.
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=0, atol=1e-12)


def test_add_stats_adds_leaves_and_refuses_unknown_types():
    a = {"n": 1, "s": (np.ones(2), 2.0), "none": None}
    out = add_stats(a, a)
    assert out["n"] == 2 and np.array_equal(out["s"][0], [2, 2]) and out["s"][1] == 4.0
    with pytest.raises(TypeError, match="cannot add"):
        add_stats("a", "b")


def test_misaligned_lengths_are_named():
    Xd = da.zeros((10, 2), chunks=5)
    with pytest.raises(ValueError, match="X has 10 rows but array 1 has 9"):
        block_reduce(_moments, Xd, np.zeros(9), np.ones(10), static=(0.0,))


def test_dask_input_is_recognised_without_computing():
    assert is_dask_collection(da.zeros(3)) and not is_dask_collection(np.zeros(3))


def test_check_dask_data_checks_shape_now_and_values_per_block(client):
    from scratchlearn.linear_model import LinearRegression
    from scratchlearn.utils._dask import check_dask_data

    est = LinearRegression()
    X = np.arange(12.0).reshape(6, 2)
    Xd, yd, wd = check_dask_data(est, da.from_array(X, chunks=2), np.ones(6), np.ones(6))
    assert est.n_features_in_ == 2 and Xd.chunks[0] == yd.chunks[0] == wd.chunks[0] == (2, 2, 2)
    with pytest.raises(ValueError, match="2-D"):
        check_dask_data(est, da.zeros(3))
    X[4, 1] = np.nan
    Xd, _, _ = check_dask_data(est, da.from_array(X, chunks=2))
    with pytest.raises(ValueError, match="NaN in column 1"):
        Xd.sum().compute()
    _, _, wd = check_dask_data(est, da.ones((3, 2)), None, -np.ones(3))
    with pytest.raises(ValueError, match="Negative values in sample_weight"):
        wd.sum().compute()
