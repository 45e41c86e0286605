"""LogisticRegression on a real LocalCluster: the block statistic sums to the in-memory one,
and the Dask fit lands where the in-memory fit does (coefficients, probabilities, n_iter_) for
each option that changes the statistic (binary / multinomial, newton / lbfgs, fit_intercept,
sample weights, class_weight, penalty None) and each chunking of ``chunkings(n)``."""

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pytest
from _dask_cases import chunkings

import dask
from scratchlearn.datasets import load_breast_cancer, load_iris, load_wine
from scratchlearn.linear_model import LogisticRegression
from scratchlearn.linear_model._logistic import logistic_hessian, logistic_loss_grad
from scratchlearn.linear_model._logistic_blocks import newton_block, one_hot
from scratchlearn.utils._blocks import block_reduce

EPS = np.finfo(float).eps
# The fits stop at ‖∇F‖∞ <= TOL. The coefficient bound of assert_same_fit is proportional to
# it: at the default tol=1e-4 it is 1e-2 to 1 of ‖θ‖ here; at 1e-9, 1e-7 to 1e-5 (for two
# more Newton passes), and the gradient check there is sharp. L-BFGS gets LBFGS_TOL: its last
# steps near ‖∇F‖ = 1e-9 change F by ~‖∇F‖²/μ ≈ 1e-16, F's own resolution ε|F|, so whether its
# Wolfe line search succeeds is decided by last-bit rounding, which differs between runs when
# Dask re-materialises the blocks (another memory alignment, another SIMD summation order):
# it then stops "stalled". At 1e-6 the decrease (~1e-10) is far above that resolution.
TOL = 1e-9
LBFGS_TOL = 1e-6


def _scaled(loader):
    X, y = loader(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


CANCER = _scaled(load_breast_cancer)  # 569 × 30, binary
IRIS = _scaled(load_iris)  # 150 × 4, 3 classes
WINE = _scaled(load_wine)  # 178 × 13, 3 classes


def _chunked(X, chunks):
    return da.from_array(X, chunks=(chunks, X.shape[1]))


def _theta(est):
    return np.hstack([est.coef_, est.intercept_[:, None]]) if est.fit_intercept else est.coef_


def _sum_error(X, s_bar, Theta):
    """(2nε + δz, |X̃|ᵀs̄): a gradient summed over rows in another order, from scores that BLAS
    may sum in another order, moves by at most (2nε + δz)·|X̃|ᵀs̄ (derivation in the statistic
    test below)."""
    Xt = np.abs(np.hstack([X, np.ones((len(X), 1))])[:, : Theta.shape[1]])
    dz = Xt.shape[1] * EPS * np.max(Xt @ np.abs(Theta).T)
    return 2 * len(X) * EPS + dz, Xt.T @ s_bar


def _objective(est, X, y, sample_weight):
    """(∇F(Θ) as a function, ∇²F at est's Θ, s̄): F as est minimises it, with Newton's
    ½‖Σₖ Θₖ‖² over the coordinates the multinomial model leaves free. Both fits end on
    Σₖ Θₖ = 0, where that term and its gradient vanish; it makes ∇²F positive definite."""
    y_idx = np.searchsorted(est.classes_, y)
    K = len(est.classes_)
    Kp = 1 if K == 2 else K
    s = est._sample_weights(y_idx, sample_weight, X)
    lam = 0.0 if est.penalty is None else 1.0 / (est.C * s.sum())
    fi, d = est.fit_intercept, X.shape[1]
    d1 = d + int(fi)
    sel = np.arange(0 if est.penalty is None else d, d1) if Kp > 1 else np.arange(0)
    Y, s_bar = one_hot(y_idx, Kp), s / s.sum()

    def grad(Theta):
        g = logistic_loss_grad(Theta.ravel(), X, Y, s_bar, lam, fi)[1].reshape(Kp, d1)
        g[:, sel] += Theta[:, sel].sum(axis=0)
        return g

    H = logistic_hessian(_theta(est).ravel(), X, s_bar, lam, fi, Kp)
    idx = np.arange(Kp)[:, None] * d1 + sel[None, :]
    for a in range(Kp):
        for b in range(Kp):
            H[idx[a], idx[b]] += 1.0
    return grad, H, s_bar


def assert_same_fit(ref, est, X, y, sample_weight=None, X_named=None):
    """The Dask fit meets the in-memory stopping rule, and so lies near the in-memory fit.

    1. Gradient, computed here in memory at the Dask fit's Θ: its solver stopped at
       ‖∇F‖∞ <= tol as it summed ∇F; the in-memory sum differs by the order of summation
       (:func:`_sum_error`), and the multinomial re-centring after the last step (subtracting
       the mean over k, along which ∇F has no component) at most doubles ‖∇F‖∞. So
       ‖∇F(Θ)‖∞ <= f·tol + slack, f = 1 (binary) or 2. A wrong statistic (weights, classes,
       a lost block) moves the minimiser and fails here.
    2. Coefficients: for a μ-strongly convex F, ‖θ − θ*‖₂ <= ‖∇F(θ)‖₂/μ, so
       ‖θ_mem − θ_dask‖₂ <= 2√p (f·tol + slack)/μ, μ = λ_min(∇²F) at θ_mem halved (∇²F
       varies by O(‖θ − θ*‖) between the points). Probabilities: the softmax's Jacobian has
       2-norm <= ½ and Δzᵢ = ΔΘ x̃ᵢ, so |ΔP| <= ½ max‖x̃ᵢ‖₂ ‖Δθ‖₂.
    3. Newton from the same start takes the same steps up to rounding: the same n_iter_ and
       stop_reason_."""
    grad, H, s_bar = _objective(ref, X, y, sample_weight)
    mu = np.linalg.eigvalsh(H)[0] / 2
    Ta, Tb = _theta(ref), _theta(est)
    c, XtS = _sum_error(X, s_bar, Tb)
    f = 1 if Ta.shape[0] == 1 else 2
    g_max = f * ref.tol + c * np.max(XtS)
    for T in (Ta, Tb):
        assert np.max(np.abs(grad(T))) <= g_max, (np.max(np.abs(grad(T))), g_max)
    bound = 2 * np.sqrt(Ta.size) * g_max / mu
    diff = np.linalg.norm(Ta - Tb)
    assert diff <= bound, (diff, bound)
    x_norm = np.sqrt(np.max(np.sum(X * X, axis=1)) + ref.fit_intercept)
    X_named = X if X_named is None else X_named  # what the fits saw (feature names)
    dP = np.max(np.abs(ref.predict_proba(X_named) - est.predict_proba(X_named)))
    assert dP <= 0.5 * x_norm * bound, (dP, bound)
    assert list(est.classes_) == list(ref.classes_)
    if ref.solver_ == "newton":
        assert est.n_iter_[0] == ref.n_iter_[0] and est.stop_reason_ == ref.stop_reason_
    return diff / np.linalg.norm(Ta), bound / np.linalg.norm(Ta)  # (measured, bound) relative


def _slices():
    """24 rows each: breast cancer (binary, both classes) and iris (8 rows of each class)."""
    X, y = CANCER
    cancer = X[:24], y[:24]
    X, y = IRIS
    rows = np.r_[0:8, 50:58, 100:108]
    return [cancer, (X[rows], y[rows])]


def test_block_statistic_sums_to_the_in_memory_one(client):
    """F, ∇F, ∇²F and the unseparated-row count, binary and multinomial, at a θ where none of
    them is trivial, for every chunking of ``chunkings(24)`` (one compute for all six).

    Bound, for a sum of n terms in another order: 2nε·Σ|terms|. Besides, a row's score z is a
    dot product of d̃ terms that BLAS may order differently in a block of another shape (gemv for
    one row): |Δz| <= δz = d̃ε max_i Σⱼ|x̃ᵢⱼθⱼ|, which moves ℓ by <= δz and each gradient or
    Hessian weight by <= δz (derivatives of σ, softmax and p(1 − p) are <= 1). With
    |pᵢ − yᵢ| <= 1 and |pₖ(δₖₗ − pₗ)| <= 1: |ΔF| <= (2nε + δz)·Σs̄ℓ + δz,
    |Δ∇F| <= (2nε + δz)·|X̃|ᵀs̄, |Δ∇²F| <= (2nε + δz)·|X̃|ᵀdiag(s̄)|X̃| (per block of K′ × K′).
    """
    cases, lazy = [], []
    for X, y in _slices():
        n = len(y)
        classes, y_idx = np.unique(y, return_inverse=True)
        Kp = 1 if len(classes) == 2 else len(classes)
        Y = one_hot(y_idx, Kp)
        s = np.linspace(0.5, 2.0, n)
        s_bar = s / s.sum()
        # θ fitted to labels shifted by 5 rows: non-zero, and some rows on the wrong side
        theta = _theta(LogisticRegression(solver="newton").fit(X, np.roll(y, 5))).ravel()
        for chunks in chunkings(n):
            Yd = da.from_array(Y, chunks=(chunks, Kp))
            Xd, static = _chunked(X, chunks), (theta, True, True)
            lazy.append(block_reduce(newton_block, Xd, Yd, s_bar, static=static, compute=False))
            cases.append((X, Y, s_bar, theta))
    for (X, Y, s_bar, theta), got in zip(cases, dask.compute(*lazy)):
        n, Kp = Y.shape
        want = newton_block(X, Y, s_bar, theta, True, True)
        Xt = np.abs(np.hstack([X, np.ones((n, 1))]))
        c, XtS = _sum_error(X, s_bar, theta.reshape(Kp, -1))
        dz = c - 2 * n * EPS
        assert abs(got[0] - want[0]) <= c * want[0] + dz
        assert np.all(np.abs(got[1] - want[1]) <= np.tile(c * XtS, Kp))
        assert got[2] == want[2] > 0  # a count: exactly
        H_bound = np.tile(c * (Xt.T @ (Xt * s_bar[:, None])), (Kp, Kp))
        assert np.all(np.abs(got[3] - want[3]) <= H_bound)


def test_newton_binary_weights_and_balanced_classes(client):
    """Breast cancer, uneven blocks: sample weights (a Dask array) and class_weight="balanced",
    whose weighted class sizes come from the first pass."""
    X, y = CANCER
    w = np.linspace(0.2, 3.0, len(y))
    kw = {"solver": "newton", "class_weight": "balanced", "C": 0.5, "tol": TOL}
    ref = LogisticRegression(**kw).fit(X, y, sample_weight=w)
    chunks = chunkings(len(y))[1]
    wd = da.from_array(w, chunks=50)  # other chunks than X: realigned by the fit
    est = LogisticRegression(**kw).fit(_chunked(X, chunks), y, sample_weight=wd)
    assert est.solver_ == "newton"
    assert_same_fit(ref, est, X, y, w)


def test_newton_multinomial_one_row_per_block(client):
    """Iris, 8 rows of each class, one row per block (24 tasks per pass), L2 penalty: the fit
    itself, not only its statistic, does not notice how the rows are cut."""
    X, y = _slices()[1]
    kw = {"solver": "newton", "C": 0.5, "tol": TOL}
    ref = LogisticRegression(**kw).fit(X, y)
    est = LogisticRegression(**kw).fit(_chunked(X, chunkings(len(y))[2]), y)
    assert_same_fit(ref, est, X, y)


def test_lbfgs_binary_without_intercept(client):
    """Iris versicolor vs virginica (not separable), one block, fit_intercept=False, NumPy
    sample weights: the L-BFGS path (one pass per evaluation)."""
    X, y = IRIS
    X, y = X[y > 0], y[y > 0]
    w = np.linspace(1.0, 2.0, len(y))
    kw = {"solver": "lbfgs", "fit_intercept": False, "tol": LBFGS_TOL}
    ref = LogisticRegression(**kw).fit(X, y, sample_weight=w)
    est = LogisticRegression(**kw).fit(_chunked(X, (len(y),)), y, sample_weight=w)
    assert est.stop_reason_ == ref.stop_reason_ == "grad_norm"
    assert_same_fit(ref, est, X, y, w)


def test_newton_multinomial_unpenalised_dataframe(client):
    """Wine on 3 columns (no class separable: the unpenalised MLE exists), penalty=None,
    class_weight as a dict, a Dask DataFrame and y a Dask array in other blocks: feature
    names are recorded, the separation count travels with each pass; predict and friends are
    lazy and equal."""
    pd = pytest.importorskip("pandas")
    X, y = WINE
    X = X[:, :3]
    frame = pd.DataFrame(X, columns=["alcohol", "malic_acid", "ash"])
    kw = {"penalty": None, "class_weight": {0: 2.0, 2: 0.5}, "tol": TOL}
    ref = LogisticRegression(solver="newton", **kw).fit(frame, y)
    Xd = dd.from_pandas(frame, npartitions=3)
    yd = da.from_array(y, chunks=50)
    est = LogisticRegression(**kw).fit(Xd, yd)  # auto: newton on Dask (K′d̃ = 12)
    assert est.solver_ == "newton" and list(est.feature_names_in_) == list(frame.columns)
    assert_same_fit(ref, est, X, y, X_named=frame)

    methods = ["decision_function", "predict", "predict_proba", "predict_log_proba"]
    lazy = [getattr(est, m)(Xd) for m in methods]
    assert all(isinstance(a, da.Array) for a in lazy)
    # the same coefficients and the same code on each block; only a row's score
    # z = Θx̃ may be summed in another order by BLAS for another block shape:
    # |Δz| <= d̃ε max Σⱼ|x̃ⱼθⱼ|, and log-softmax and softmax move by <= 2|Δz|∞
    Xt = np.abs(np.hstack([X, np.ones((len(y), 1))]))
    dz = 4 * EPS * np.max(Xt @ np.abs(_theta(est)).T)
    for m, got in zip(methods, dask.compute(*lazy)):
        want = getattr(est, m)(frame)
        assert got.shape == want.shape, m
        if m == "predict":
            assert np.array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=0, atol=2 * dz, err_msg=m)


def test_nan_in_one_block_and_gd_are_refused(client):
    X, y = _slices()[1]
    X = X.copy()
    X[17, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LogisticRegression().fit(_chunked(X, (8, 8, 8)), y)
    with pytest.raises(ValueError, match=r"solver='gd'\) does not fit on Dask"):
        LogisticRegression(solver="gd").fit(_chunked(X, (24,)), y)
