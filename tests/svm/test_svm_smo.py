"""The SMO solver on its own: KKT conditions, shrinking and cache invariance, an independent QP
solve, precomputed Gram matrices, the hard margin's unboundedness detection, the run record and
its thinning, ρ by hand.

Bounds used below (see scratchlearn.svm._smo's docstring)
---------------------------------------------------------
At the stop, m − M <= tol. For the optimum α* and d = α* − α (yᵀd = 0),
∇f(α)ᵀd >= −(m − M)‖d‖₁ (d_t y_t > 0 only where t may move up, < 0 only where it may move down),
so by convexity gap = f(α) − f(α*) <= tol·‖d‖₁ <= tol·(Σα + Σα*). Strong convexity in w:
gap >= ½‖w − w*‖², so ‖w − w*‖ <= √(2·gap); two runs' decision values then differ by at most
(‖Δw₁‖ + ‖Δw₂‖)·2·max_t √K_tt + tol (the w·φ term, and ρ: a mean of −y_t∇f_t over free t,
which spread over at most tol). Σα* is taken as the larger of the runs' Σα times 2 (the runs
agree on Σα to far better than a factor 2, which the first assertions check through the gap).
"""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.datasets import load_breast_cancer

from scratchlearn.metrics.pairwise import rbf_kernel
from scratchlearn.svm import _smo
from scratchlearn.svm._smo import KernelSpec, resolve_kernel, smo_solve

EPS = np.finfo(float).eps


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    idx = np.random.default_rng(0).choice(len(y), 240, replace=False)
    return np.ascontiguousarray(X[idx]), np.where(y[idx] == 1, 1.0, -1.0)


def _svc(X, y, C=1.0, kind="rbf", **kw):
    _, g, c0, deg = resolve_kernel(kind, "scale", 0.0, 3, X)
    spec = KernelSpec(kind, X, g, c0, deg)
    return smo_solve(spec, y, -np.ones(len(y)), np.full(len(y), C), **kw), g


def _violation(alpha, G, y, C):
    v = -y * G
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    return v[up].max() - v[low].min()


def test_kkt_conditions_hold_at_the_solution(cancer):
    X, y = cancer
    tol = 1e-3
    res, g = _svc(X, y, tol=tol)
    assert res.status == "converged"
    a, C = res.alpha, np.ones(len(y))
    assert np.all((a >= 0) & (a <= C))
    # yᵀα = 0: each step keeps it exactly up to one rounding of the two changed entries,
    # ≤ 2ε·C per iteration
    assert abs(y @ a) <= 2 * EPS * res.n_iter + 1e-300
    # the gradient recomputed from K (not the solver's incremental one): its error is the
    # solver's accumulated rounding, ≤ 4ε·C·max|K| per iteration, plus the recomputation's
    # n·ε·C·max|K| (max|K| = 1 for RBF)
    G = (y[:, None] * y[None, :] * rbf_kernel(X, gamma=g)) @ a - 1.0
    slack = 4 * EPS * res.n_iter + 2 * len(y) * EPS
    assert np.max(np.abs(G - res.grad)) <= slack
    assert _violation(a, G, y, C) <= tol + 2 * slack
    assert res.max_violation <= tol
    # ρ is LIBSVM's mean of y_t∇f_t over the free variables (so the offset b = −ρ is the mean
    # of −y_t∇f_t), all within m − M <= tol of each other
    free = (a > 0) & (a < C)
    assert np.ptp(y[free] * G[free]) <= tol + 2 * slack
    assert res.rho == pytest.approx(np.mean(y[free] * G[free]), abs=2 * slack)
    # the objective: ½αᵀQα − eᵀα = ½αᵀ(G + p)
    assert res.objective == pytest.approx(0.5 * a @ (G - 1.0), abs=len(y) * slack)


def test_shrinking_and_cache_size_do_not_change_the_solution(cancer):
    X, y = cancer
    tol = 1e-3
    runs = [
        _svc(X, y, tol=tol, shrinking=s, cache_size=c)[0]
        for s, c in ((True, 200.0), (False, 200.0), (True, 0.001))
    ]
    K = rbf_kernel(X, gamma=_svc(X, y, max_iter=0)[1])
    ref = runs[0]
    gap = tol * 2 * max(r.alpha.sum() for r in runs)  # tol·‖d‖₁, module docstring
    dw = np.sqrt(2 * gap)  # ‖w − w*‖ of one run
    F = [K @ (y * r.alpha) - r.rho for r in runs]
    for r, f in zip(runs[1:], F[1:]):
        assert r.status == "converged"
        assert abs(r.objective - ref.objective) <= gap  # both within gap above f(α*)
        assert np.max(np.abs(f - F[0])) <= 2 * dw * 2 * 1.0 + tol  # max √K_tt = 1 (RBF)
    # the tiny cache (two rows) really evicted: many more kernel entries were computed
    assert runs[2].n_kernel_evals > 2 * ref.n_kernel_evals


def test_precomputed_gram_gives_the_kernel_solution(cancer):
    X, y = cancer
    tol = 1e-3
    res, g = _svc(X, y, tol=tol)
    K = rbf_kernel(X, gamma=g)
    pre = smo_solve(KernelSpec("precomputed", K), y, -np.ones(len(y)), np.ones(len(y)), tol=tol)
    gap = tol * 2 * max(res.alpha.sum(), pre.alpha.sum())
    assert abs(pre.objective - res.objective) <= gap
    f1, f2 = K @ (y * res.alpha) - res.rho, K @ (y * pre.alpha) - pre.rho
    assert np.max(np.abs(f1 - f2)) <= 2 * np.sqrt(2 * gap) * 2 + tol


def test_objective_matches_an_independent_qp_solve():
    """A 12-point soft-margin dual solved by SLSQP (scipy) at 1e-14: SMO's objective is above
    f* by at most tol·‖d‖₁ and SLSQP's is a feasible point's value, so f_smo <= f_slsqp + gap;
    and SLSQP stops at a relative change of 1e-14, far below the 1e-9 we allow it below f_smo."""
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(0, 1, (6, 2)), rng.normal(1.5, 1, (6, 2))]
    y = np.r_[np.ones(6), -np.ones(6)]
    C, tol = 0.7, 1e-8
    res, g = _svc(X, y, C=C, tol=tol)
    Q = y[:, None] * y[None, :] * rbf_kernel(X, gamma=g)
    ref = minimize(
        lambda a: 0.5 * a @ Q @ a - a.sum(),
        np.full(12, C / 2),
        jac=lambda a: Q @ a - 1.0,
        bounds=[(0, C)] * 12,
        constraints=[{"type": "eq", "fun": lambda a: y @ a, "jac": lambda a: y}],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    assert ref.success
    gap = tol * 2 * 12 * C
    assert res.objective <= ref.fun + gap
    assert ref.fun <= res.objective + 1e-9
    assert res.objective == pytest.approx(0.5 * res.alpha @ Q @ res.alpha - res.alpha.sum())


@pytest.mark.parametrize("case", ["xor", "clouds", "duplicate"])
def test_hard_margin_on_non_separable_data_is_unbounded(case):
    rng = np.random.default_rng(0)
    if case == "xor":
        X, y = np.array([[0.0, 0], [1, 1], [0, 1], [1, 0]]), np.array([1.0, 1, -1, -1])
    elif case == "clouds":
        X = np.r_[rng.normal(0, 1, (60, 2)), rng.normal(1, 1, (60, 2))]
        y = np.r_[np.ones(60), -np.ones(60)]
    else:  # one point with both labels: rule 1, on the first step that pairs them
        X, y = np.array([[0.0, 0], [0, 0], [2, 0]]), np.array([1.0, -1, 1])
    res = smo_solve(KernelSpec("linear", X), y, -np.ones(len(y)), np.full(len(y), np.inf))
    assert res.status == "unbounded"
    assert res.n_iter < 1_000_000
    if case == "duplicate":
        assert res.n_iter <= 2


@pytest.mark.parametrize("kind", ["linear", "poly", "rbf", "sigmoid", "precomputed"])
def test_a_point_with_both_labels_is_caught_exactly_by_every_kernel(kind):
    """Rule 1 needs K_ii + K_jj − 2K_ij to be exactly 0 for x_i = x_j: Q_tt (computed once, from
    ‖x_t‖²) and the rows' entries (from the dot products) must round alike, for every kernel.
    The point is not at the origin, so that the dot products are not trivially exact."""
    X = np.array([[1.3, -0.7, 0.2], [1.3, -0.7, 0.2], [-0.4, 2.1, 0.9]])
    y = np.array([1.0, -1.0, 1.0])
    if kind == "precomputed":
        spec = KernelSpec(kind, rbf_kernel(X, gamma=0.3))
    else:
        spec = KernelSpec(kind, X, gamma=0.3, coef0=0.5, degree=3)
    res = smo_solve(spec, y, -np.ones(3), np.full(3, np.inf))
    assert res.status == "unbounded"
    # rule 1 fires on the first step that pairs the two copies (here the second: the first pairs
    # the third point, the last maximiser of −y_t G_t in I_up, with the negative copy); rule 2
    # alone would take thousands of iterations, and a ≠ 0 by one ulp would not stop at all
    assert res.n_iter <= 2


def test_hard_margin_on_separable_data_converges_to_the_max_margin():
    """XOR is separable by the degree-2 polynomial (x·z + 1)²; the four points are symmetric,
    so the hard-margin solution is unique and reached to tol; all four are support vectors."""
    X, y = np.array([[0.0, 0], [1, 1], [0, 1], [1, 0]]), np.array([1.0, 1, -1, -1])
    spec = KernelSpec("poly", X, gamma=1.0, coef0=1.0, degree=2)
    res = smo_solve(spec, y, -np.ones(4), np.full(4, np.inf), tol=1e-10)
    assert res.status == "converged"
    assert np.all(res.alpha > 0)
    # at the optimum every point sits on its margin: y_t f(x_t) = 1, i.e. G_t = y_t ρ
    assert np.max(np.abs(res.grad - y * res.rho)) <= 1e-9


def test_run_record(cancer):
    X, y = cancer
    res, _ = _svc(X, y, tol=1e-3, record_every=5)
    assert res.history_iter[0] == 0 and res.history_iter[-1] == res.n_iter
    assert np.all(np.diff(res.history_iter[:-1]) == 5)
    # SMO never increases f (each step minimises it exactly on a line, PSD kernel); the
    # incrementally kept values carry rounding ≤ n_iter·ε·|f|
    f = res.history_objective
    assert np.all(np.diff(f) <= res.n_iter * EPS * abs(f[-1]))
    assert f[-1] == res.objective and res.history_violation[-1] == res.max_violation
    assert res.n_cache_hits > 0
    short, _ = _svc(X, y, tol=1e-3, max_iter=7)
    assert short.status == "max_iter" and short.n_iter == 7 and short.max_violation > 1e-3


def test_a_full_record_is_thinned(cancer, monkeypatch):
    """Past RECORD_CAPACITY entries the record keeps every other one and doubles its spacing:
    the same run with a capacity of 8 records a subset of the full record, evenly spaced by
    record_every·2^k, and ends with the same final entry."""
    X, y = cancer
    full, _ = _svc(X, y, tol=1e-3, record_every=1)
    # thinned three times or more at a capacity of 8; never at the real one
    assert 64 < full.n_iter < _smo.RECORD_CAPACITY
    monkeypatch.setattr(_smo, "RECORD_CAPACITY", 8)
    thin, _ = _svc(X, y, tol=1e-3, record_every=1)
    assert thin.n_iter == full.n_iter and len(thin.history_iter) <= 9
    it = thin.history_iter[:-1]
    step = it[1] - it[0]
    assert it[0] == 0 and step >= 8 and step & (step - 1) == 0  # a power of two
    assert np.all(np.diff(it) == step)
    # the kept entries are the full run's entries at those iterations, bit for bit
    np.testing.assert_array_equal(thin.history_objective[:-1], full.history_objective[it])
    np.testing.assert_array_equal(thin.history_violation[:-1], full.history_violation[it])
    assert thin.history_iter[-1] == full.n_iter
    assert thin.history_objective[-1] == full.history_objective[-1]


def test_rho_by_hand():
    """ρ is the mean of y_t G_t over the free variables; with none free, the midpoint of the
    interval the bound ones leave: ub = min y_t G_t over {α_t = C_t, y_t < 0} ∪ {α_t = 0,
    y_t > 0}, lb = max over the others."""
    y = np.array([1.0, -1.0, 1.0, -1.0])
    G = np.array([0.5, -2.0, 3.0, 1.0])  # y G = (0.5, 2, 3, −1)
    C = np.full(4, 2.0)
    assert _smo._rho(y, G, np.array([1.0, 0.5, 0.0, 2.0]), C) == pytest.approx(1.25)
    # none free: t=0 at 0 with y > 0 → ub 0.5; t=1 at C with y < 0 → ub 2; t=2 at C, y > 0 →
    # lb 3; t=3 at 0 with y < 0 → lb −1; ρ = (min(0.5, 2) + max(3, −1)) / 2
    assert _smo._rho(y, G, np.array([0.0, 2.0, 2.0, 0.0]), C) == 1.75
    # α = 0 (C = inf): ub = min(0.5, 3) over y_t > 0, lb = max(2, −1) over y_t < 0
    assert _smo._rho(y, G, np.zeros(4), np.full(4, np.inf)) == 1.25


def test_a_run_stopped_while_shrunk_returns_the_whole_gradient():
    # l = 3000 > 1000 variables: the shrinking step runs every 1000 iterations, so a run stopped
    # at 1500 has set variables aside (the witness: its kernel rows, computed over the active
    # set only, took fewer entries than the same run without shrinking). The stop rebuilds
    # their gradient: G_t = (Qα)_t + p_t for every t, as recomputed here from the Gram matrix.
    # Bound: G_t gathers k rank-two updates and its rebuild sums l rows, each term at most
    # Σα + 2C + 1 in size, each addition rounding by ε of it: (k + l)·ε·(Σα + 2C + 1) (1e-8
    # here; a gradient left unbuilt is off by O(1)).
    rng = np.random.default_rng(0)
    n, d, C = 3000, 10, 10.0
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.8 * rng.standard_normal(n) > 0, 1.0, -1.0)
    spec = KernelSpec("rbf", X, 1.0 / d)
    runs = [
        smo_solve(spec, y, -np.ones(n), np.full(n, C), max_iter=1500, shrinking=s, cache_size=1.0)
        for s in (True, False)
    ]
    assert runs[0].n_kernel_evals < runs[1].n_kernel_evals  # variables were set aside
    K = rbf_kernel(X, gamma=1.0 / d)
    for r in runs:
        assert r.status == "max_iter" and r.n_iter == 1500
        G = y * (K @ (y * r.alpha)) - 1.0
        bound = (r.n_iter + n) * EPS * (r.alpha.sum() + 2 * C + 1)
        assert np.max(np.abs(r.grad - G)) <= bound
