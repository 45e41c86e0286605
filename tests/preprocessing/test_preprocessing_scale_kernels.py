"""The scalers' compiled passes (``_scale_kernels``) against their NumPy path: the same numbers
to the bit, the same refusals of NaN and infinity, the same in-place behaviour.

The compiled passes start at ``COMPILED_MIN_VALUES`` values; the tests lower that threshold to 0
to run them on real data of any size, and one test takes them at the real threshold."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_wine

from scratchlearn.preprocessing import MinMaxScaler, StandardScaler, _data

X_WINE = load_wine().data  # (178, 13): features from about 0.1 to 1700
X_DIA = load_diabetes().data


@pytest.fixture
def compiled(monkeypatch):
    monkeypatch.setattr(_data, "COMPILED_MIN_VALUES", 0)


def _both_paths(fit_and_read, monkeypatch):
    """What ``fit_and_read()`` returns on the NumPy path, then on the compiled one."""
    numpy_way = fit_and_read()
    monkeypatch.setattr(_data, "COMPILED_MIN_VALUES", 0)
    return numpy_way, fit_and_read()


def _assert_same(a, b):
    for u, v in zip(a, b):
        assert (u is None and v is None) or np.array_equal(u, v)


@pytest.mark.parametrize(
    "X",
    [X_WINE, X_DIA, X_WINE[:, :2].copy(), X_WINE[:, :1].copy()],
    ids=["wine", "dia", "d2", "d1"],
)
@pytest.mark.parametrize(
    "kw", [{}, {"with_mean": False}, {"with_std": False}], ids=["both", "no-mean", "no-std"]
)
def test_standard_scaler_paths_agree_to_the_bit(X, kw, monkeypatch):
    # the compiled sums run row after row, the order in which NumPy reduces a C-ordered array
    # along axis 0, and z = (x − μ) / σ rounds the same two operations: equal bits, no tolerance
    Xt = X[::-1] * 1.5 + 2.0  # other rows to transform

    def run():
        m = StandardScaler(**kw).fit(X)
        return m.mean_, m.var_, m.scale_, m.transform(Xt), m.transform(X)

    _assert_same(*_both_paths(run, monkeypatch))


@pytest.mark.parametrize("X", [X_WINE, X_DIA], ids=["wine", "diabetes"])
@pytest.mark.parametrize("clip", [False, True])
def test_min_max_scaler_paths_agree_to_the_bit(X, clip, monkeypatch):
    Xt = X[::-1] * 1.5 - 0.25  # partly outside the fitted range: clip has work to do

    def run():
        m = MinMaxScaler(feature_range=(-1, 3), clip=clip).fit(X)
        return m.data_min_, m.data_max_, m.scale_, m.transform(Xt)

    _assert_same(*_both_paths(run, monkeypatch))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("scaler", [StandardScaler, MinMaxScaler])
def test_compiled_fits_refuse_nan_and_infinity_naming_the_column(scaler, bad, compiled):
    for column in (0, 6, 12):
        X = X_WINE.copy()
        X[100, column] = bad
        kind = "NaN" if np.isnan(bad) else "infinity"
        with pytest.raises(ValueError, match=f"contains {kind}.* in column {column}"):
            scaler().fit(X)


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("scaler", [StandardScaler, MinMaxScaler])
def test_compiled_transforms_refuse_nan_and_infinity_and_leave_x_alone(scaler, bad, copy, compiled):
    """A new output tests X in the compiled pass; in place (copy=False) X is tested before the
    pass writes into it. Either way the error names the column and X is not modified."""
    m = scaler(copy=copy).fit(X_WINE)
    for column in (0, 6, 12):
        X = X_WINE.copy()
        X[100, column] = bad
        before = X.copy()
        kind = "NaN" if np.isnan(bad) else "infinity"
        with pytest.raises(ValueError, match=f"contains {kind}.* in column {column}"):
            m.transform(X)
        assert np.array_equal(X, before, equal_nan=True)


def test_compiled_standard_scaler_takes_huge_finite_values(compiled):
    """Finite values whose sums overflow make μ non-finite without a NaN in X: the check then
    finds X finite and the fit goes on, as on the NumPy path."""
    X = X_WINE / X_WINE.max() * 1e307  # finite, the largest 1e307: 178 of them overflow a sum
    assert np.isfinite(X).all()
    with np.errstate(over="ignore", invalid="ignore"):
        m = StandardScaler().fit(X)
    assert not np.isfinite(m.mean_).all()


@pytest.mark.parametrize("scaler", [StandardScaler, MinMaxScaler])
def test_compiled_transform_in_place(scaler, compiled):
    m = scaler(copy=False).fit(X_WINE)
    expected = scaler().fit(X_WINE).transform(X_WINE)
    X = X_WINE.copy()
    out = m.transform(X)
    assert np.shares_memory(out, X) and np.array_equal(out, expected)


@pytest.mark.parametrize("scaler", [StandardScaler, MinMaxScaler])
def test_compiled_transform_of_a_read_only_array_in_place_is_numpys_error(scaler, compiled):
    X = X_WINE.copy()
    X.setflags(write=False)
    m = scaler(copy=False).fit(X)
    with pytest.raises(ValueError, match="read-only"):
        m.transform(X)
    assert np.array_equal(scaler().fit(X).transform(X), scaler().fit(X_WINE).transform(X_WINE))


def test_the_real_threshold_takes_the_compiled_passes(monkeypatch):
    """At COMPILED_MIN_VALUES values the scalers call the kernels (spied), with the results
    of the formulas they replace."""
    from scratchlearn.preprocessing import _scale_kernels

    called = []
    for name in ("moments_pass", "range_pass", "scale_pass", "standardise_pass"):
        real = getattr(_scale_kernels, name)
        monkeypatch.setattr(
            _scale_kernels, name, lambda *a, _r=real, _n=name: (called.append(_n), _r(*a))[1]
        )
    d = 8
    X = np.random.default_rng(0).standard_normal((_data.COMPILED_MIN_VALUES // d, d)) * 3 + 5
    s = StandardScaler().fit(X)
    assert np.array_equal(s.mean_, X.mean(axis=0))
    assert np.array_equal(s.var_, ((X - X.mean(axis=0)) ** 2).mean(axis=0))
    assert np.array_equal(s.transform(X), (X - s.mean_) / s.scale_)
    m = MinMaxScaler().fit(X)
    assert np.array_equal(m.data_min_, X.min(axis=0)) and np.array_equal(m.data_max_, X.max(0))
    assert np.array_equal(m.transform(X), (X - m.data_min_) * m.scale_ + 0.0)
    assert sorted(set(called)) == ["moments_pass", "range_pass", "scale_pass", "standardise_pass"]
    # one value fewer: NumPy's path
    called.clear()
    StandardScaler().fit(X[:, :-1].copy()[: _data.COMPILED_MIN_VALUES // (d - 1) - 1])
    assert called == []
