"""Lasso and ElasticNet: soft thresholding by hand, scikit-learn's oracle, exact zeros, gaps."""

import numpy as np
import pytest
from _cd_bounds import EPS, centred, close_by_gap, duality_gap, gap_rounding
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.linear_model import ElasticNet, Lasso
from scratchlearn.linear_model._coordinate_descent import enet_subgradient_loss_grad
from scratchlearn.optim import check_gradient

X_DIA, Y_DIA = load_diabetes(return_X_y=True)
SW = np.random.default_rng(0).uniform(0.5, 2.0, len(Y_DIA))


MARGINS = []  # (‖Δw‖/bound, bound/‖w‖) of every comparison (printed by the last test with -s)


def assert_close_by_gap(ours, ref, X, y, **kw):
    """Both fits meet the gap criterion on the true problem and agree within what their
    recomputed gaps allow (``_cd_bounds.close_by_gap``: strong convexity on the support, and
    b = ȳ − x̄ᵀw to rounding)."""
    dw, _, _ = close_by_gap(ours, ref, X, y, **kw)
    t = kw.get("target")
    c = ref.coef_ if t is None else ref.coef_[t]
    o = ours.coef_ if t is None else ours.coef_[t]
    MARGINS.append((np.linalg.norm(o - c) / dw, dw / np.linalg.norm(c)))


# -- 1. hand-checkable ------------------------------------------------------------------------
def test_orthonormal_design_is_soft_thresholding():
    # With XᵀX = n·I (orthogonal columns, ‖Xⱼ‖² = n) the lasso solution is
    # wⱼ = S(Xⱼᵀy/n, α) exactly, reached in one sweep: here Xᵀy/n = (3, −0.5, 1.2).
    # Tolerance: rounding only. Each wⱼ is one soft threshold of a sum of 4 products of small
    # integers and of wⱼ ~ 3 (error a few ulp(3) ~ 1e-15); 1e-12 leaves a factor 1000.
    n = 4
    X = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], dtype=float)
    np.testing.assert_array_equal(X.T @ X, n * np.eye(3))  # the premise: orthogonal design
    y = X @ np.array([3.0, -0.5, 1.2])
    m = Lasso(alpha=1.0, fit_intercept=False, tol=1e-12).fit(X, y)
    assert m.coef_.tolist() == pytest.approx([2.0, 0.0, 0.2], abs=1e-12)
    assert m.coef_[1] == 0.0  # an exact zero, not a small number
    # one sweep reaches the optimum: the objective after sweep 1 is already the final one,
    # and sweep 2 (no coefficient moves, so the gap is checked) confirms it
    obj = m.history_["objective"]
    assert m.n_iter_ == 2 and obj[1] == obj[2]
    # elastic net: wⱼ = S(zⱼ, αρ) / (1 + α(1 − ρ)) with α = 1, ρ = 0.5
    m = ElasticNet(alpha=1.0, l1_ratio=0.5, fit_intercept=False, tol=1e-12).fit(X, y)
    assert m.coef_.tolist() == pytest.approx([2.5 / 1.5, 0.0, 0.7 / 1.5], abs=1e-12)


# -- 2. oracles -------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [0.01, 0.1, 1.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("l1_ratio", [1.0, 0.3])
def test_cd_matches_sklearn(alpha, fit_intercept, weighted, l1_ratio):
    sw = SW if weighted else None
    kw = dict(alpha=alpha, fit_intercept=fit_intercept, tol=1e-12, max_iter=100_000)
    ours = ElasticNet(l1_ratio=l1_ratio, **kw).fit(X_DIA, Y_DIA, sw)
    ref = sk.ElasticNet(l1_ratio=l1_ratio, **kw).fit(X_DIA, Y_DIA, sample_weight=sw)
    assert np.array_equal(ours.coef_ == 0, ref.coef_ == 0)  # the same exact zeros
    # both stop at a duality gap <= 1e-12‖ỹ‖²; recomputed, the gaps bound the distance
    # (_cd_bounds.close_by_gap): 2.8e-7–4e-5 relative here (was 8.4e-6–1.2e-4 from the tol)
    kw.pop("max_iter")
    assert_close_by_gap(ours, ref, X_DIA, Y_DIA, l1_ratio=l1_ratio, sw=sw, **kw)


@pytest.mark.parametrize("alpha", [0.05, 0.5])
def test_same_alpha_and_tol_mean_the_same(alpha):
    # default tol: identical sweep counts show that the stopping rule (gap <= tol·‖y‖²,
    # evaluated when max|Δw| <= tol·max|w|) is scikit-learn's. The count is an integer
    # decision that rounding (the order of a dot product's additions, which the SIMD lanes of
    # _dot_range choose per CPU) could change only if max|Δw|/max|w| or the gap landed within
    # ~1e-15 relative of its threshold.
    ours = Lasso(alpha=alpha).fit(X_DIA, Y_DIA)
    ref = sk.Lasso(alpha=alpha).fit(X_DIA, Y_DIA)
    assert ours.n_iter_ == ref.n_iter_
    yc = Y_DIA - Y_DIA.mean()
    assert ours.dual_gap_ <= 1e-4 * (yc @ yc) / 442  # the criterion met (1/n-scaled)
    # the recomputed gaps (5.3 and 19.6) allow ‖Δw‖ <= 12 and 17 (1.4 % and 2.7 % of ‖w‖, was
    # ~10 % from the tol): a fit stopped at this gap may lie that far from w*, so no theorem
    # about the optimum gives less. The two codes agree to ~1e-13 because they take the same
    # sweeps (n_iter_ above), which is what catches a change of the iteration itself.
    assert_close_by_gap(ours, ref, X_DIA, Y_DIA, alpha=alpha, tol=1e-4)


def test_positive_and_multi_output():
    ours = Lasso(alpha=0.05, positive=True, tol=1e-10).fit(X_DIA, Y_DIA)
    ref = sk.Lasso(alpha=0.05, positive=True, tol=1e-10).fit(X_DIA, Y_DIA)
    assert np.all(ours.coef_ >= 0)
    # with w >= 0 the gap still bounds P(w) − P*, and both fits share the support
    assert_close_by_gap(ours, ref, X_DIA, Y_DIA, alpha=0.05, tol=1e-10, positive=True)
    Y = np.column_stack([Y_DIA, -Y_DIA])
    ours = ElasticNet(alpha=0.1, tol=1e-10).fit(X_DIA, Y)
    ref = sk.ElasticNet(alpha=0.1, tol=1e-10).fit(X_DIA, Y)
    assert ours.coef_.shape == (2, 10) and isinstance(ours.n_iter_, list)
    assert len(ours.history_) == 2 and ours.stop_reason_ == "converged"
    for t, y in enumerate(Y.T):  # each target is its own problem, with its own gap stop
        assert_close_by_gap(ours, ref, X_DIA, y, alpha=0.1, l1_ratio=0.5, tol=1e-10, target=t)
        assert len(ours.history_[t]["objective"]) == ours.n_iter_[t] + 1


def test_random_selection_reaches_the_same_solution():
    a = Lasso(alpha=0.1, selection="random", random_state=0, tol=1e-12).fit(X_DIA, Y_DIA)
    b = Lasso(alpha=0.1, selection="random", random_state=0, tol=1e-12).fit(X_DIA, Y_DIA)
    c = Lasso(alpha=0.1, tol=1e-12).fit(X_DIA, Y_DIA)
    assert np.array_equal(a.coef_, b.coef_)  # same seed, same path
    assert_close_by_gap(a, c, X_DIA, Y_DIA, alpha=0.1, tol=1e-12)  # same optimum


def test_exact_zeros_and_history():
    m = Lasso(alpha=1.0).fit(X_DIA, Y_DIA)
    assert np.sum(m.coef_ == 0.0) == 7  # scikit-learn also zeroes 7 of 10 at α = 1
    assert m.stop_reason_ == "converged"
    obj, gaps = np.array(m.history_["objective"]), np.array(m.history_["dual_gap"])
    assert len(obj) == len(gaps) == m.n_iter_ + 1  # the start and one per sweep
    assert gaps[-1] == m.dual_gap_ and not np.isnan(gaps[0])
    # coordinate descent never increases P: each update minimises it exactly in wⱼ. Each
    # recorded P/n rounds by <= (n + d + 2)ε(‖|X̃||w| + |ỹ|‖²/(2n) + α‖w‖₁) (residuals of
    # d + 1 terms, a sum of n squares), and every iterate has α‖w‖₁ <= P(w)/n <= obj[0], so
    # |X̃ᵢ||w| <= max|X̃ᵢ|·obj[0]/α: a rise may only be twice that (here 1.1e-8, was
    # 1e-9·obj[0] = 3e-6)
    Xt, yt, _, _ = centred(X_DIA, Y_DIA)
    mag = np.max(np.abs(Xt), axis=1) * obj[0] / 1.0 + np.abs(yt)
    rise = 2 * (442 + 12) * EPS * (float(mag @ mag) / 884 + obj[0])
    assert np.all(np.diff(obj) <= rise)
    # objective is P(w)/n, recomputed from the fitted model
    r = Y_DIA - X_DIA @ m.coef_ - m.intercept_
    assert obj[-1] == pytest.approx(0.5 * r @ r / 442 + np.abs(m.coef_).sum(), rel=1e-12)
    yc = Y_DIA - Y_DIA.mean()
    assert m.dual_gap_ <= 1e-4 * (yc @ yc) / 442  # the documented criterion, met
    # α above α_max = ‖Xcᵀyc‖∞ / n gives w = 0 and b = ȳ immediately
    alpha_max = np.max(np.abs((X_DIA - X_DIA.mean(0)).T @ yc)) / 442
    m = Lasso(alpha=alpha_max * 1.001).fit(X_DIA, Y_DIA)
    assert np.all(m.coef_ == 0.0) and m.n_iter_ == 0
    assert m.intercept_ == pytest.approx(Y_DIA.mean(), rel=1e-14)  # a mean of 442 values


def test_n_less_than_d_with_collinear_and_constant_columns():
    # 30 samples, 100 features, a duplicated column and a constant one: the lasso solution
    # still exists (and is the one scikit-learn's cd finds), the constant column gets exactly 0
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 100))
    y = X[:, :5] @ np.array([3.0, -2.0, 1.5, 1.0, -1.0]) + 0.1 * rng.standard_normal(30)
    X[:, 7] = X[:, 3]
    X[:, 9] = 4.0
    for l1_ratio in [1.0, 0.5]:
        kw = dict(alpha=0.05, l1_ratio=l1_ratio, tol=1e-12)
        ours = ElasticNet(max_iter=100_000, **kw).fit(X, y)
        ref = sk.ElasticNet(max_iter=100_000, **kw).fit(X, y)
        assert ours.coef_[9] == 0.0 and np.array_equal(ours.coef_ == 0, ref.coef_ == 0)
        assert np.sum(ours.coef_ == 0) > 50  # sparse: most of the 100 columns are exact zeros
        if l1_ratio < 1.0:  # λ₂ > 0: P is strongly convex, w* is unique
            assert_close_by_gap(ours, ref, X, y, **kw)
            continue
        # the lasso with duplicated columns: w* need not be unique, the fitted values are.
        # P(w) − P* >= ½‖X̃(w − w*)‖² (½‖ỹ − u‖² is 1-strongly convex in u = X̃w), so fits with
        # recomputed gaps G₁, G₂ (each <= tol·‖ỹ‖², the criterion) give
        # ‖ŷ₁ − ŷ₂‖ <= √(2G₁) + √(2G₂) (+ the gaps' rounding, see _cd_bounds)
        Xt, yt, _, _ = centred(X, y)
        yy = float(yt @ yt)
        g_round = gap_rounding(Xt, yt, ours.coef_, ref.coef_)
        bound = 2 * np.sqrt(2 * g_round)
        for m in (ours, ref):
            g = duality_gap(Xt, yt, m.coef_, lam1=30 * 0.05, lam2=0.0)
            assert g <= 1e-12 * yy + g_round
            bound += np.sqrt(2 * max(g, 0.0))
        diff = ours.predict(X) - ref.predict(X)
        MARGINS.append((np.linalg.norm(diff) / bound, bound / np.linalg.norm(ref.predict(X))))
        assert np.linalg.norm(diff) <= bound


def test_max_iter_warns_and_warm_start():
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        m = Lasso(alpha=0.001, max_iter=2, tol=1e-12).fit(X_DIA, Y_DIA)
    assert m.stop_reason_ == "max_iter" and m.n_iter_ == 2
    cold = Lasso(alpha=0.01, tol=1e-10).fit(X_DIA, Y_DIA)
    warm = Lasso(alpha=0.01, tol=1e-10, warm_start=True).fit(X_DIA, Y_DIA)
    warm.fit(X_DIA, Y_DIA)  # restarts at its own optimum: converges at once
    assert warm.n_iter_ <= 2
    assert_close_by_gap(warm, cold, X_DIA, Y_DIA, alpha=0.01, tol=1e-10)


def _ar1(n, d, rho=0.9, seed=0):
    """Correlated AR(1) columns (corr(Xⱼ, Xₖ) = ρ^|j−k|) and y from 10 % of them plus noise."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    for j in range(1, d):
        X[:, j] = rho * X[:, j - 1] + np.sqrt(1.0 - rho**2) * X[:, j]
    w = np.zeros(d)
    w[rng.choice(d, d // 10, replace=False)] = rng.standard_normal(d // 10)
    return X, X @ w + 1.0 + 0.5 * rng.standard_normal(n)


@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
@pytest.mark.parametrize("positive", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_working_sets_match_sklearn(l1_ratio, positive, weighted):
    # d >= WORKING_SET_MIN_FEATURES: working sets, gap-safe screening and Anderson
    # extrapolation. A different iteration, the same stopping rule (the full problem's gap):
    # the same exact zeros, and the distance the recomputed gaps allow (_cd_bounds).
    from scratchlearn.linear_model._coordinate_descent import WORKING_SET_MIN_FEATURES

    X, y = _ar1(150, 300)
    assert X.shape[1] >= WORKING_SET_MIN_FEATURES
    sw = np.random.default_rng(1).uniform(0.5, 2.0, 150) if weighted else None
    kw = dict(alpha=0.05, l1_ratio=l1_ratio, tol=1e-12, positive=positive)
    ours = ElasticNet(max_iter=100_000, **kw).fit(X, y, sw)
    ref = sk.ElasticNet(max_iter=100_000, **kw).fit(X, y, sample_weight=sw)
    assert ours.stop_reason_ == "converged" and np.sum(ours.coef_ == 0) > 150
    obj = np.array(ours.history_["objective"])
    assert len(obj) == ours.n_iter_ + 1 and not np.isnan(ours.history_["dual_gap"][-1])
    # P never rises: each coordinate step minimises it, an extrapolation is kept only if lower
    # (1e-12 relative: the rounding of P/n, a sum of 150 squares, by a factor > 100)
    assert np.all(np.diff(obj) <= 1e-12 * obj[0])
    assert_close_by_gap(ours, ref, X, y, sw=sw, **kw)


def test_working_sets_multi_output_and_warm_start():
    X, y = _ar1(120, 200, seed=2)
    Y = np.column_stack([y, -2.0 * y + X[:, 5]])
    kw = dict(alpha=0.02, tol=1e-10, max_iter=100_000)
    ours, ref = Lasso(**kw).fit(X, Y), sk.Lasso(**kw).fit(X, Y)
    assert ours.coef_.shape == (2, 200) and len(ours.n_iter_) == 2
    for t, yt in enumerate(Y.T):
        assert_close_by_gap(ours, ref, X, yt, alpha=0.02, tol=1e-10, target=t)
    warm = Lasso(warm_start=True, **kw).fit(X, y)
    warm.fit(X, y)  # starts at its own optimum: the first gap check already meets the rule
    assert warm.n_iter_ == 0
    cold = sk.Lasso(**kw).fit(X, y)
    assert_close_by_gap(warm, cold, X, y, alpha=0.02, tol=1e-10)


# -- 3. the same numbers whatever the threads -------------------------------------------------
def test_results_do_not_depend_on_the_thread_count():
    # n above PARALLEL_MIN_ROWS and not a multiple of BLOCK: the parallel path with a partial
    # last block. Fixed blocks summed in block order: bit-for-bit the same with 1 or 2 Numba
    # threads, with 1 or the default BLAS threads, and on the serial path.
    import numba
    from threadpoolctl import threadpool_limits

    from scratchlearn.linear_model import _cd_kernels as cd

    rng = np.random.default_rng(1)
    n = cd.PARALLEL_MIN_ROWS + 1234
    X = rng.standard_normal((n, 12))
    y = X[:, :3] @ np.array([1.0, -2.0, 0.5]) + rng.standard_normal(n)
    sw = rng.uniform(0.5, 2.0, n)
    fits = []
    before = numba.get_num_threads()
    try:
        for numba_threads, blas_threads in [(1, 1), (min(2, numba.config.NUMBA_NUM_THREADS), None)]:
            numba.set_num_threads(numba_threads)
            with threadpool_limits(limits=blas_threads):
                fits.append(ElasticNet(alpha=0.01, tol=1e-10).fit(X, y, sw))
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(fits[0].coef_, fits[1].coef_)
    assert fits[0].intercept_ == fits[1].intercept_
    for key in ("objective", "dual_gap"):  # NaN where the gap was not evaluated
        np.testing.assert_array_equal(fits[0].history_[key], fits[1].history_[key])
    # the serial path (parallel=False) does the same additions in the same order
    Xf = cd.centred_fortran(X, np.zeros(12), np.ones(n))
    runs = []
    for parallel in (False, True):
        w, obj, gap = np.zeros(12), np.full(101, np.nan), np.empty(101)
        cd.enet_coordinate_descent(
            w, Xf, y, 5.0, 1.0, 100, 1e-8, False, False, 1, obj, gap, parallel
        )
        runs.append((w, obj[:100]))  # (the kernel fills it up to its sweep count)
    assert np.array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])  # NaN-aware
    runs = []  # and so does the working-set descent
    for parallel in (False, True):
        w, obj, gap = np.zeros(12), np.full(101, np.nan), np.empty(101)
        cd.enet_working_set_descent(w, Xf, y, 5.0, 1.0, 100, 1e-8, False, obj, gap, parallel)
        runs.append((w, obj))
    assert np.array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])


def test_small_fits_compile_each_kernel_once_and_no_threaded_kernel():
    # Numba compiles on a user's first call: one signature per kernel whatever the options
    # (weights, positive, random order, several targets, F-ordered y columns), and the
    # parallel=True kernels only for tall data. A fresh process, so no earlier test counts.
    # (A kernel called only by other kernels shows 0 when its callers come from the cache.)
    import subprocess
    import sys

    code = """
import numpy as np
from scratchlearn.linear_model import ElasticNet, Lasso, _cd_kernels as K
rng = np.random.default_rng(0)
X = rng.standard_normal((300, 5)); y = X[:, 0] + rng.standard_normal(300)
Lasso(alpha=0.01).fit(X, y)
Lasso(alpha=0.01, positive=True, selection="random", random_state=0).fit(X, y, np.ones(300))
ElasticNet(alpha=0.01, fit_intercept=False).fit(X, np.column_stack([y, -y]))
for name in dir(K):
    sigs = getattr(getattr(K, name), "signatures", None)
    if sigs is not None:
        print(name, len(sigs))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    counts = dict(line.split() for line in out.splitlines())
    assert counts.pop("_dot_threads") == "0" and counts.pop("_axpy_threads") == "0"
    entries = ("_sweeps", "_weighted_sums", "_centre_into")
    assert all(counts[k] == "1" for k in entries) and set(counts.values()) <= {"0", "1"}, counts


# -- 4. the subgradient solver ----------------------------------------------------------------
def test_subgradient_solver():
    ref = Lasso(alpha=0.5, tol=1e-12).fit(X_DIA, Y_DIA)
    sub = Lasso(alpha=0.5, solver="subgradient", max_iter=3000, tol=1e-9)
    with pytest.warns(ConvergenceWarning):  # subgradient methods rarely meet a cost tolerance
        sub.fit(X_DIA, Y_DIA)
    assert sub.stop_reason_ == "max_iter" and set(sub.history_) == {"objective", "grad_norm"}

    # subgradient descent oscillates around the kinks: close in objective, no exact zeros.
    # The 1e-3 is a statement about this method on this problem (no a-priori bound for a fixed
    # step on a non-smooth objective), not a tolerance of rounding.
    def objective(m):
        r = Y_DIA - X_DIA @ m.coef_ - m.intercept_
        return 0.5 * r @ r / 442 + 0.5 * np.abs(m.coef_).sum()

    assert objective(sub) <= objective(ref) * (1 + 1e-3)
    # the intercept: J is ½(b − b̂(w))² above its minimum over b, b̂(w) = ȳ − x̄ᵀw, so
    # (b − b̂(w))² <= 2(J(sub) − J*) <= 2(J(sub) − J(ref) + G_ref/n); b_ref = b̂(w_ref) and
    # diabetes is centred (‖x̄‖₁ ~ 1e-16), so b_sub − b_ref is that plus ‖x̄‖₁·max|Δw| and the
    # rounding of ȳ (nε·max|y|). Bound 1.1 (0.7 % of b, the old rel 1e-2 derived); measured
    # 3e-14: b's own gradient is smooth and goes to zero, so this side of the bound is loose
    x_bar = X_DIA.mean(axis=0)
    excess = objective(sub) - objective(ref) + ref.dual_gap_
    b_tol = np.sqrt(2 * excess) + np.abs(x_bar).sum() * np.max(np.abs(sub.coef_ - ref.coef_))
    assert abs(sub.intercept_ - ref.intercept_) <= b_tol + 442 * EPS * np.max(Y_DIA)
    # the recorded objective is J at the returned point: rounding of a 442-term sum (~1e-13)
    assert sub.history_["objective"][-1] == pytest.approx(objective(sub), rel=1e-9)


def test_subgradient_with_sample_weights_reaches_the_cd_solution():
    # All wⱼ* far from 0 (α small, strong signal): near the optimum sign(w) is constant, so the
    # "subgradient" method is gradient descent on a smooth F with step 1/L. F is μ-strongly
    # convex in θ = (w, b), μ = λ_min(ZᵀS̄Z) + λ₂ on the w block, Z = [X, 1], S̄ = diag(s/Σs).
    # A step 1/L lowers F by >= ‖∇F‖²/(2L), so the stop |ΔJ| <= tol gives ‖∇F‖ <= √(2L·tol)
    # and ‖θ − θ*‖ <= ‖∇F‖/μ. cd's gap stop adds √(2ε/μ) (ε = its gap, 1/n-scaled).
    rng = np.random.default_rng(3)
    n, d = 200, 4
    X = rng.standard_normal((n, d))
    y = X @ np.array([2.0, -1.0, 0.5, 1.5]) + 1.0 + 0.1 * rng.standard_normal(n)
    sw = rng.uniform(0.5, 2.0, n)
    kw = dict(alpha=0.05, l1_ratio=0.5)
    cd = ElasticNet(tol=1e-14, max_iter=100_000, **kw).fit(X, y, sw)
    sub = ElasticNet(solver="subgradient", tol=1e-14, max_iter=100_000, **kw).fit(X, y, sw)
    assert sub.stop_reason_ == "cost_change" and np.all(np.abs(cd.coef_) > 0.1)
    Z, s_bar = np.column_stack([X, np.ones(n)]), sw / sw.sum()
    H = Z.T @ (Z * s_bar[:, None]) + np.diag([0.025] * d + [0.0])  # λ₂ = α(1 − ρ) = 0.025
    eig = np.linalg.eigvalsh(H)
    L = np.linalg.norm(Z * np.sqrt(s_bar)[:, None], 2) ** 2 + 0.025  # the solver's own L
    mu = eig[0]
    bound = np.sqrt(2 * L * 1e-14) / mu + np.sqrt(2 * cd.dual_gap_ / mu)
    theta_sub = np.append(sub.coef_, sub.intercept_)
    theta_cd = np.append(cd.coef_, cd.intercept_)
    assert np.linalg.norm(theta_sub - theta_cd) <= bound


def test_subgradient_objective_gradient():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((25, 5)), rng.standard_normal(25)
    s = rng.uniform(0.1, 1, 25)
    s /= s.sum()
    for fi in [True, False]:
        theta = rng.standard_normal(5 + fi)  # away from wⱼ = 0 the objective is smooth
        # central differences with h = 1e-6 on an O(1) quadratic-plus-|·| objective: truncation
        # 0 (quadratic) and round-off ~ u·J/h ~ 1e-10, so 1e-6 leaves a factor 1e4
        err = check_gradient(
            lambda t, fi=fi: enet_subgradient_loss_grad(t, X, y, s, 0.3, 0.2, fi), theta
        )
        assert err < 1e-6
    # SPEC errata: at wⱼ = 0 the subgradient of αρ|wⱼ| is taken as 0, and ∂J/∂b is the
    # (weighted, 1/n-scaled) sum of residuals Σ s̄ᵢrᵢ, not a norm. The same terms added in
    # another order: a few ulps of O(1) values, below 1e-14 relative by a factor >= 10.
    theta = np.array([0.0, 0.7, 0.0, -0.2, 0.0, 0.4])
    _, g = enet_subgradient_loss_grad(theta, X, y, s, 0.3, 0.2, True)
    w, b = theta[:5], theta[5]
    r = X @ w + b - y
    smooth = X.T @ (s * r) + 0.2 * w
    np.testing.assert_allclose(g[:5], smooth + 0.3 * np.sign(w), rtol=1e-14, atol=1e-15)
    np.testing.assert_array_equal(g[[0, 2, 4]], smooth[[0, 2, 4]])
    assert g[5] == pytest.approx(np.sum(s * r), rel=1e-14)


def test_bad_input():
    with pytest.raises(ValueError, match="l1_ratio"):
        ElasticNet(l1_ratio=1.5).fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="selection"):
        Lasso(selection="greedy").fit(X_DIA, Y_DIA)
    with pytest.raises(ValueError, match="subgradient"):
        ElasticNet(solver="subgradient").fit(X_DIA, np.column_stack([Y_DIA, Y_DIA]))
    with pytest.raises(TypeError):
        Lasso(l1_ratio=0.5)  # not a Lasso parameter
    assert "l1_ratio" not in Lasso().get_params()


def test_report_margins():
    m = np.array(MARGINS).reshape(-1, 2)
    print(
        f"\n{len(m)} comparisons: max ‖Δw‖/bound {m[:, 0].max():.2e}, "
        f"bound/‖w‖ {m[:, 1].min():.1e}–{m[:, 1].max():.1e}"
    )


@pytest.mark.parametrize("shape", [(5, 3), (4097, 3), (700, 3000), (1300, 2100)])
def test_centred_fortran_is_the_centred_scaled_copy_in_column_order(shape):
    """Whatever the row blocks (4,096 rows for narrow X, 256 for wide X, the last one partial),
    every entry is (a_ij − m_j)·√s_i computed alone: exactly NumPy's."""
    from scratchlearn.linear_model import _cd_kernels as cd

    rng = np.random.default_rng(0)
    A = rng.standard_normal(shape)
    m, root = rng.standard_normal(shape[1]), np.sqrt(rng.uniform(0.5, 2.0, shape[0]))
    out = cd.centred_fortran(A, m, root)
    assert out.flags.f_contiguous
    np.testing.assert_array_equal(out, (A - m) * root[:, None])


@pytest.mark.parametrize("positive", [False, True])
def test_anderson_residual_is_the_combination_of_the_stored_residuals(positive):
    """The extrapolated residual is built as Σₖ cₖR⁽ᵏ⁾ without touching X; it must be the
    residual y − Xw_e of the point kept, also where w >= 0 clips an entry of w_e to 0.

    Iterates w⁽ᵏ⁾ = a + Σₘ ρₘᵏbₘ converge to a, which has entries below 0 that the iterates
    (the bₘ large and positive) never reach; the extrapolation lands near a, so with
    ``positive`` some of its entries are clipped. y = X·w_e, with w_e computed here by the same
    formula, makes P(w_e) ≈ 0 < P(w) (λ₁ = λ₂ = 0), so the extrapolation is kept.

    Tolerance: each R⁽ᵏ⁾ = y − Xw⁽ᵏ⁾ here, and y − Xw at the end, is exact to (d + 1)ε·s per
    row, s = max over rows of |y| + |X|·max(|w⁽ᵏ⁾|, |w_e|); the kernel's combination multiplies
    those errors by Σ|cₖ| and adds K roundings of size Σ|cₖ|·ε·s, and each clipped entry one
    more of size ε·s: at most (Σ|cₖ| + 1)(d + K + |W| + 2)·ε·s."""
    from scratchlearn.linear_model import _cd_kernels as cd

    K = cd.ANDERSON_K
    rng = np.random.default_rng(3)
    n, d = 40, 12
    ws = np.array([1, 2, 4, 5, 7, 8, 10, 11])
    X = rng.standard_normal((n, d))
    a = rng.standard_normal(ws.size)
    a[:3] = -1.0 - np.abs(a[:3])
    B = 10.0 + rng.uniform(size=(K, ws.size))
    rates = np.array([0.9, 0.7, 0.5, 0.3, 0.1])
    last = np.array([a + (rates**k) @ B for k in range(K + 1)])
    assert np.all(last >= 0)  # the iterates are feasible for w >= 0
    U = np.diff(last, axis=0)
    z = np.linalg.solve(U @ U.T, np.ones(K))
    c = z / z.sum()
    w_e = c @ last[1:]
    if positive:
        assert np.sum(w_e < 0) >= 2  # the premise: the clipping correction is exercised
        w_e = np.maximum(w_e, 0.0)
    w_full_e = np.zeros(d)
    w_full_e[ws] = w_e
    y = X @ w_full_e
    w, last_R = np.zeros(d), np.empty((K + 1, n))
    for k in range(K + 1):
        w[ws] = last[k]
        last_R[k] = y - X @ w
    R = last_R[K].copy()
    Xt = np.asfortranarray(X).T
    assert cd._try_anderson(w, Xt, y, R, ws, last, last_R, 0.0, 0.0, positive, None, np.empty(n))
    if positive:
        assert np.all(w >= 0) and np.all(w[ws][w_e == 0] == 0)
    big = np.maximum(np.abs(last).max(axis=0), np.abs(c @ last[1:]))
    s = np.max(np.abs(y) + np.abs(X[:, ws]) @ big)
    bound = (np.abs(c).sum() + 1) * (d + K + ws.size + 2) * EPS * s
    assert np.max(np.abs(R - (y - X @ w))) <= bound
