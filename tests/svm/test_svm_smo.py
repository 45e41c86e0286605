"""The SMO solver on its own: KKT conditions, shrinking and cache invariance, an independent QP
solve, precomputed Gram matrices, the hard margin's unboundedness detection, the run record.

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
