"""LinearRegression and Ridge on Dask: the same block statistics (centred moments, R factor of
√W·[Xc Y]) as the in-memory fit, computed per block on a real LocalCluster and merged; the
fits agree within the rounding bounds derived in _dask_linear.py (summation order only)."""

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from _dask_cases import chunkings
from _dask_linear import EPS, assert_same_fit

from scratchlearn.datasets import load_diabetes, load_randhie
from scratchlearn.linear_model import LinearRegression, Ridge
from scratchlearn.linear_model._block_stats import (
    merge_cross_products,
    merge_r_factors,
    moments_block,
    r_factor_block,
)

_dia = load_diabetes()
X_DIA, Y_DIA = _dia.data, _dia.target  # (442, 10), standardised columns
Y2_DIA = np.column_stack([Y_DIA, np.log(Y_DIA)])  # two targets
SW_DIA = np.random.default_rng(0).uniform(0.5, 2.0, len(Y_DIA))


def _longley():
    from statsmodels.datasets import longley

    data = longley.load_pandas()  # 16 rows, raw years and GNP: κ(X) ~ 1e7
    return data.exog.to_numpy(float), data.endog.to_numpy(float)


X_LON, Y_LON = _longley()
SW_LON = np.linspace(0.5, 2.0, len(Y_LON))

# one column of RAND HIE (lpi, mean 5.2, sd 2.8) and its powers up to 4: the column-scaled
# Gram matrix has κ ≈ 8e8 > 1e6, so solver="auto" takes the R factor (SVD) route
_lpi = load_randhie().data[:300, 2]
X_POLY = np.column_stack([_lpi**k for k in range(1, 5)])
Y_POLY = load_randhie().target[:300]


def _dask(X, chunks):
    return da.from_array(X, chunks=(chunks,) + X.shape[1:])


# Every option that changes the statistic (intercept: centring; weights; solver: moments or R
# factor; several targets), once each, on the uneven chunking; the one-block chunking once (it
# is the in-memory call itself) and one-row blocks once, on Longley's 16 rows (each block is a
# task). Ridge adds α to the same statistics: its two routes once each.
LR_CASES = {  # name: (estimator, X, Y, weights, chunkings to run: 0 one block, 1 uneven, 2 rows)
    "normal-weighted-2targets": (LinearRegression(solver="normal"), X_DIA, Y2_DIA, SW_DIA, (0, 1)),
    "normal-no-intercept": (LinearRegression(fit_intercept=False), X_DIA, Y_DIA, None, (1,)),
    "lstsq-weighted": (LinearRegression(solver="lstsq"), X_DIA, Y_DIA, SW_DIA, (1,)),
    "lstsq-no-intercept-2targets": (
        LinearRegression(solver="lstsq", fit_intercept=False),
        X_DIA,
        Y2_DIA,
        None,
        (1,),
    ),
    "auto-ill-conditioned-poly": (LinearRegression(), X_POLY, Y_POLY, None, (1,)),
    "longley-normal-weighted": (LinearRegression(solver="normal"), X_LON, Y_LON, SW_LON, (1,)),
    "longley-lstsq-one-row-blocks": (LinearRegression(solver="lstsq"), X_LON, Y_LON, None, (2,)),
    "ridge-auto-weighted-2alphas": (Ridge(alpha=[0.5, 2.0]), X_DIA, Y2_DIA, SW_DIA, (1,)),
    "ridge-svd-weighted": (Ridge(alpha=0.5, solver="svd"), X_DIA, Y_DIA, SW_DIA, (1,)),
}


@pytest.mark.parametrize("case", list(LR_CASES))
def test_dask_fit_equals_in_memory_fit(client, case):
    est, X, Y, s, which = LR_CASES[case]
    ref = est.__class__(**est.get_params()).fit(X, Y, sample_weight=s)
    route = "moments" if ref.solver_ in ("normal", "cholesky") else "r"
    alpha = getattr(est, "alpha", 0.0)
    for i, chunks in enumerate(chunkings(len(X))):
        if i not in which:
            continue
        # y and the weights as NumPy in one case out of two, as Dask in the other
        y_in, s_in = (Y, s) if i % 2 else (_dask(Y, chunks[::-1]), s)
        if s is not None and i % 2 == 0:
            s_in = _dask(s, chunks[::-1])
        got = est.__class__(**est.get_params()).fit(_dask(X, chunks), y_in, sample_weight=s_in)
        assert got.solver_ == ref.solver_ and got.n_iter_ == ref.n_iter_ == 1
        assert_same_fit(
            got, ref, X, Y, s, fit_intercept=est.fit_intercept, alpha=alpha, route=route
        )
        if i == 0:  # one block: the very call of the in-memory fit, bit for bit
            assert np.array_equal(got.coef_, ref.coef_)


@pytest.mark.filterwarnings("ignore:X does not have valid feature names")
def test_dataframe_input_and_lazy_predict():
    # The DataFrame's way in (columns and names checked now, to_dask_array per partition) does
    # not depend on where blocks run: the local scheduler spares the workers pandas' import.
    import dask

    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    names = [f"x{j}" for j in range(X_DIA.shape[1])]
    df = pd.DataFrame(X_DIA, columns=names)
    ddf = dd.from_pandas(df, npartitions=3)
    ref = Ridge(alpha=0.5).fit(df, Y2_DIA, sample_weight=SW_DIA)
    with dask.config.set(scheduler="synchronous"):
        got = Ridge(alpha=0.5).fit(ddf, Y2_DIA, sample_weight=da.from_array(SW_DIA, chunks=100))
        assert list(got.feature_names_in_) == names
        assert_same_fit(got, ref, X_DIA, Y2_DIA, SW_DIA, fit_intercept=True, alpha=0.5)
        lazy = got.predict(ddf)  # a Dask array, nothing computed yet (not even the row counts)
        assert isinstance(lazy, da.Array) and lazy.shape[1] == 2
        # the same X wᵀ + b per row on the same coefficients: a sum of d + 1 = 11 terms per
        # entry in one order or another, |error| <= 11·ε·Σ|terms|, Σ|terms| <= 600 here
        np.testing.assert_allclose(lazy.compute(), got.predict(df), rtol=0, atol=11 * EPS * 600)
        with pytest.raises(ValueError, match="feature names"):
            got.predict(ddf[names[::-1]])
        one = LinearRegression().fit(X_DIA, Y_DIA)  # in memory, predicting a Dask array
        lazy = one.predict(_dask(X_DIA, (147, 294, 1)))
        assert isinstance(lazy, da.Array) and lazy.chunks == ((147, 294, 1),)
        # as above: sums of 11 terms per row, Σ|terms| <= 600
        np.testing.assert_allclose(lazy.compute(), one.predict(X_DIA), rtol=0, atol=11 * EPS * 600)


def test_nan_in_one_block_is_named_at_fit(client):
    X = X_DIA.copy()
    X[400, 3] = np.nan  # in the last of three blocks
    with pytest.raises(ValueError, match="NaN"):
        LinearRegression().fit(_dask(X, 150), Y_DIA)


def test_refused_options_say_what_works():
    Xd = _dask(X_DIA, 150)
    with pytest.raises(ValueError, match="solver='gd'.*'lstsq'"):
        LinearRegression(solver="gd").fit(Xd, Y_DIA)
    for solver in ("dual", "sparse_cg"):
        with pytest.raises(ValueError, match=f"solver='{solver}'.*'cholesky'"):
            Ridge(solver=solver).fit(Xd, Y_DIA)
    sparse_blocks = Xd.map_blocks(sp.csr_matrix)
    with pytest.raises(TypeError, match="dense NumPy blocks"):
        Ridge().fit(sparse_blocks, Y_DIA)


def _blocks(stat, merge, X, y, s, cuts):
    parts = [stat(X[a:b], y[a:b], s[a:b], True) for a, b in zip(cuts[:-1], cuts[1:])]
    out = parts[0]
    for part in parts[1:]:
        out = merge(out, part)
    return out


def test_merges_avoid_the_cancellation_of_large_means():
    # diabetes shifted by 1e6: Σ s z zᵀ − W z̄ z̄ᵀ cancels ~12 of 16 digits; Chan's update of
    # block-centred moments (and the TSQR of block-centred R's) keeps all but rounding
    X = X_DIA + 1e6
    cuts = [0, 100, 101, 300, 442]
    one = moments_block(X, Y_DIA, SW_DIA, True)
    merged = _blocks(moments_block, merge_cross_products, X, Y_DIA, SW_DIA, cuts)
    r_merged = _blocks(r_factor_block, merge_r_factors, X, Y_DIA, SW_DIA, cuts)
    C, W = one["C"], SW_DIA.sum()
    sd = np.sqrt(np.diag(C) / W)  # σ̂ⱼ, per-row standard deviations
    Z = np.column_stack([X, Y_DIA])
    kappa = np.abs(Z).max(axis=0) / sd  # max|zⱼ|/σ̂ⱼ: 2e7 for the shifted columns
    rho = np.abs(Z - one["mean"]).max(axis=0) / sd
    # Entries of C relative to W·σ̂ⱼσ̂ₗ: sums of n products, |error| <= n·ε (Cauchy–Schwarz) for
    # each computation; each merge adds (W_aW_b/W)(δⱼeₗ + eⱼδₗ) where e, the rounding of a block
    # mean, is at most n·ε·max|z|, and δ <= 2·max|zc|; a unit of weight is on the lighter side
    # of at most log₂(n) merges: 4·log₂(n)·n·ε·(κⱼρₗ + κₗρⱼ) in all. The R factor adds the QR's
    # backward error, of order n·p·ε.
    n, p = len(X), C.shape[0]
    scale = W * np.outer(sd, sd)
    bound = 2 * n * EPS + 4 * np.log2(n) * n * EPS * (np.outer(kappa, rho) + np.outer(rho, kappa))
    assert np.all(np.abs(merged["C"] - C) / scale <= bound)
    assert np.all(np.abs(r_merged["R"].T @ r_merged["R"] - C) / scale <= p * bound)
    np.testing.assert_allclose(merged["mean"], one["mean"], rtol=2 * n * EPS)
    # the one-pass formula Σ s z zᵀ − W z̄ z̄ᵀ loses κⱼκₗ·ε relative: what the merges avoid
    naive = Z.T @ (SW_DIA[:, None] * Z) - W * np.outer(one["mean"], one["mean"])
    assert np.max(np.abs(naive - C) / scale / bound) > 100
