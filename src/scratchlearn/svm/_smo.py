"""Sequential minimal optimisation (SMO): the solver behind :class:`SVC` and :class:`SVR`.

The problem
-----------
Over l variables α,

    min_α  f(α) = ½ αᵀQα + pᵀα    subject to   yᵀα = Δ,   0 ≤ α_t ≤ C_t,

with ``Q_ts = y_t y_s K(x_idx[t], x_idx[s])``, ``y_t ∈ {−1, +1}`` and ``idx`` mapping a variable
to its data row. SVC is ``p = −e`` (one variable per sample); ε-SVR has 2n variables on n rows,
``p = (ε − y, ε + y)`` with signs ``(+1, −1)`` (LIBSVM's solve_epsilon_svr). ``C_t = inf`` is
the hard margin.

Optimality and the stopping rule
--------------------------------
With ``G = ∇f = Qα + p``, let ``I_up = {t : y_t = +1, α_t < C_t} ∪ {t : y_t = −1, α_t > 0}`` and
``I_low = {t : y_t = +1, α_t > 0} ∪ {t : y_t = −1, α_t < C_t}``, and
``m(α) = max_{I_up} −y_t G_t``, ``M(α) = min_{I_low} −y_t G_t``. α is optimal iff
``m(α) ≤ M(α)`` (KKT with the multiplier b of the equality constraint lying between M and m).
SMO stops at ``m − M < tol`` (Fan, Chen & Lin 2005; LIBSVM's ``eps``); ``max_violation`` is
that ``m − M``.

What the stop guarantees about f: let α* be a minimiser, d = α* − α (so yᵀd = 0) and
v_t = −y_t G_t. Then ``Gᵀd = −Σ_t (v_t − M) y_t d_t`` and y_t d_t > 0 only where t may move up
(v_t <= m), y_t d_t < 0 only where it may move down (v_t >= M), so ``Gᵀd >= −(m − M)‖d‖₁``.
Convexity gives ``f(α) − f(α*) <= −Gᵀd <= tol · ‖α − α*‖₁ <= tol · (Σα + Σα*)``, and since
``f(α) − f(α*) >= ½‖w(α) − w(α*)‖²`` the weight vector is within √(2·gap) of the optimum's.
The tests derive their tolerances from these two inequalities.

The offset: ``rho`` is LIBSVM's ρ, the mean of y_t G_t over the free variables (0 < α_t < C_t),
or the midpoint of the interval the bound variables leave for it when none is free; the
decision function is ``Σ_t y_t α_t K(x_t, ·) − ρ``.

One iteration
-------------
Working set by the second-order rule (WSS 2 of Fan, Chen & Lin): i maximises −y_t G_t over
I_up; j minimises ``−b_tj² / a_tj`` over the t in I_low with ``b = m + y_t G_t > 0`` and
``a = K_ii + K_jj − 2K_ij`` (replaced by τ = 1e−12 when not positive). The two-variable
subproblem is minimised exactly along the line that keeps yᵀα fixed and clipped to the box;
G is updated with the two kernel rows: ``G += Q_i Δα_i + Q_j Δα_j``. The objective is kept
up to date in O(1) from the same numbers, ``Δf = Δα_i G_i + Δα_j G_j + ½(Δα_i² Q_ii +
Δα_j² Q_jj) + Δα_i Δα_j Q_ij``, and recorded every ``record_every`` iterations with m − M
(past :data:`RECORD_CAPACITY` entries, every other entry is dropped and the spacing doubles).

Kernel rows, cache and shrinking
--------------------------------
Kernel rows are computed entry by entry in the compiled loop, only over the active variables,
and kept in an LRU cache of rows bounded by ``cache_size`` MB. Our rows are float64; LIBSVM's
cache holds float32 (its ``Qfloat``), so the same ``cache_size`` holds twice as many rows there.
Shrinking is LIBSVM's: every min(l, 1000) iterations the bound variables that cannot enter a
violating pair are set aside; when m − M first falls below 10·tol, and before the final check,
the gradient of the set-aside variables is reconstructed from ``Ḡ_t = Σ_{α_s = C_s} C_s Q_ts``
(kept up to date when a variable reaches or leaves its upper bound) and the free variables.

The hard margin (C = inf) and unboundedness
-------------------------------------------
For C = inf the dual is unbounded below exactly when the primal ``min ½‖w‖²`` s.t.
``y_t(w·φ_t + b) ≥ −p_t`` is infeasible (data not separable in the kernel's feature space).
Two detectors, both sufficient conditions:

1. A pair step with ``y_i ≠ y_j``, both upper bounds infinite and curvature
   ``K_ii + K_jj − 2K_ij ≤ 0`` (φ_i = φ_j with opposite labels): f decreases linearly along
   e_i + e_j without bound. Exact.
2. For any primal feasible (w*, b*) and any feasible α:
   ``−pᵀα ≤ Σ α_t y_t (w*·φ_t + b*) = w*·w(α) ≤ ‖w*‖ ‖w(α)‖`` (yᵀα = 0), with
   ``‖w(α)‖² = αᵀQα = αᵀ(G − p)``. So ``‖w*‖ ≥ −pᵀα / ‖w(α)‖``; for SVC this reads
   "the hull distance D = 2/‖w*‖ is at most 2‖w(α)‖ / Σα". Every min(l, 1000) iterations we
   declare the problem unbounded when this proves ``D < δR`` with δ = 1e−6 and ``R² = max_t
   K_tt``: the classes' convex hulls (in feature space) are closer than a millionth of the
   data's radius. On non-separable data Σα grows (about linearly in the iterations) while
   ‖w‖ stays bounded, so the bound falls like 1/Σα and the test fires once Σα ≈ 2‖w‖/(δR):
   after 3.5·10⁵ iterations on the four XOR points (Σα ≈ 2.8·10⁶, under a second) and
   1.8·10⁵ on two overlapping clouds of 60 points; separable data with ``D ≥ δR`` are never
   flagged (an RBF kernel on distinct points is always separable: K is positive definite).
   δ is about 70·√ε: K's entries carry a relative rounding ε,
   so squared hull distances below ~ε R² (D below ~√ε R) cannot be resolved at all.

References
----------
Platt, J. C. (1998). Sequential minimal optimization: a fast algorithm for training support
vector machines. Technical report MSR-TR-98-14, Microsoft Research.

Keerthi, S. S., Shevade, S. K., Bhattacharyya, C. and Murthy, K. R. K. (2001). Improvements to
Platt's SMO algorithm for SVM classifier design. Neural Computation 13(3), 637–649.

Fan, R.-E., Chen, P.-H. and Lin, C.-J. (2005). Working set selection using second order
information for training support vector machines. Journal of Machine Learning Research 6,
1889–1918.

Chang, C.-C. and Lin, C.-J. (2011). LIBSVM: a library for support vector machines. ACM
Transactions on Intelligent Systems and Technology 2(3), 27:1–27:27.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from . import _smo_kernels as _k

__all__ = ["KernelSpec", "SMOResult", "smo_solve", "resolve_kernel", "STATUSES"]

STATUSES = ("converged", "max_iter", "unbounded")
KERNELS = ("linear", "poly", "rbf", "sigmoid", "precomputed")
#: Entries of a run's record (one every ``record_every`` iterations): when it is full, every
#: other entry is dropped and the spacing doubles, so that a long run keeps a bounded record.
RECORD_CAPACITY = 4096


@dataclass(frozen=True)
class KernelSpec:
    """A kernel for the solver: ``kind`` in :data:`KERNELS`, ``X`` the (m, d) training rows
    (the (m, m) Gram matrix if "precomputed"), and the kernels' parameters γ ``gamma``,
    r ``coef0`` and d ``degree``: linear ``x·z``, poly ``(γ x·z + r)ᵈ``, rbf ``exp(−γ‖x − z‖²)``,
    sigmoid ``tanh(γ x·z + r)`` (LIBSVM's and scikit-learn's parametrisation).
    """

    kind: str
    X: np.ndarray
    gamma: float = 0.0
    coef0: float = 0.0
    degree: int = 3


@dataclass(frozen=True)
class SMOResult:
    """The solution and the run's record (see the module docstring for each quantity)."""

    alpha: np.ndarray
    rho: float
    grad: np.ndarray
    objective: float
    n_iter: int
    status: str
    max_violation: float
    history_iter: np.ndarray
    history_violation: np.ndarray
    history_objective: np.ndarray
    n_kernel_evals: int
    n_cache_hits: int


def resolve_kernel(kernel, gamma, coef0, degree, X):
    """``(kind, γ, coef0, degree)`` for an estimator's parameters on training rows X.

    ``gamma="scale"`` is ``1/(d·Var(X))`` (the variance of all entries, 1 when it is 0, as
    scikit-learn), ``"auto"`` is ``1/d``; a number must be > 0. A callable kernel is returned
    as itself: the caller computes its Gram matrix and solves it as "precomputed"."""
    if callable(kernel) or kernel in ("linear", "precomputed"):
        return kernel, 0.0, float(coef0), int(degree)
    d = X.shape[1]
    if isinstance(gamma, str):
        if gamma == "scale":
            var = float(np.var(X)) if X.size else 0.0
            g = 1.0 / (d * var) if var != 0 else 1.0
        elif gamma == "auto":
            g = 1.0 / d
        else:
            raise ValueError(f"gamma must be 'scale', 'auto' or a number > 0; got {gamma!r}.")
    elif isinstance(gamma, numbers.Real) and not isinstance(gamma, bool) and gamma > 0:
        g = float(gamma)
    else:
        raise ValueError(f"gamma must be 'scale', 'auto' or a number > 0; got {gamma!r}.")
    return kernel, g, float(coef0), int(degree)


def _cache_rows(cache_size, m):
    """Rows of m float64 entries that fit in ``cache_size`` MB (at least 2, at most m)."""
    rows = int(float(cache_size) * 2**20 // (8 * max(m, 1)))
    return int(min(max(rows, 2), max(m, 2)))


def _rho(y, G, alpha, C):
    """LIBSVM's ρ: the mean of y_t G_t over the free variables (0 < α_t < C_t); when none is
    free, the midpoint of the interval [lb, ub] that the bound variables leave for it (a
    variable at its upper bound, or at 0, bounds ρ from above or below by the sign of y_t)."""
    yG = y * G
    upper = alpha >= C
    lower = (alpha <= 0) & ~upper
    free = ~(upper | lower)
    if free.any():
        return float(np.mean(yG[free]))
    below = (upper & (y < 0)) | (lower & (y > 0))  # y_t G_t >= ρ
    ub = float(np.min(yG[below])) if below.any() else np.inf
    lb = float(np.max(yG[~below])) if (~below).any() else -np.inf
    return 0.5 * (ub + lb)


def smo_solve(
    kernel,
    y,
    p,
    C,
    *,
    index=None,
    tol=1e-3,
    shrinking=True,
    cache_size=200.0,
    max_iter=-1,
    record_every=10,
):
    """Solve ``min ½αᵀQα + pᵀα`` s.t. ``yᵀα = 0``, ``0 ≤ α ≤ C`` by SMO (module docstring),
    from α = 0.

    ``kernel`` a :class:`KernelSpec`; ``y`` (l,) of ±1; ``p``, ``C`` (l,); ``index`` (l,) data
    row of each variable (default ``arange(l)``). Returns an :class:`SMOResult` whose decision
    function is ``Σ_t y_t α_t K(x_t, ·) − ρ``."""
    if kernel.kind not in KERNELS:
        raise ValueError(f"kernel kind must be one of {KERNELS}; got {kernel.kind!r}.")
    X = np.ascontiguousarray(kernel.X, dtype=np.float64).view()
    X.flags.writeable = False  # a read-only view, whatever the caller's X: one signature
    y = np.where(np.asarray(y, dtype=np.float64) > 0, 1.0, -1.0)
    l = y.shape[0]
    p = np.ascontiguousarray(p, dtype=np.float64)
    C = np.ascontiguousarray(np.broadcast_to(np.asarray(C, dtype=np.float64), (l,)))
    index = np.arange(l) if index is None else index
    index = np.ascontiguousarray(index, dtype=np.int64)
    if p.shape != (l,) or index.shape != (l,):
        raise ValueError("y, p, C and index must all have one entry per variable.")
    if np.any(C < 0):
        raise ValueError("C must be >= 0.")
    kind = _k.KIND_CODES[kernel.kind]
    m = X.shape[0]
    # every array the loop writes is allocated here, fresh and writable (one signature of
    # smo_loop whatever the caller passed; Numba's allocations compile slowly)
    kern = _k.new_kern(X, kind, kernel.gamma, kernel.coef0, kernel.degree)
    # (y, p, C, α, G, Ḡ, QD) at α = 0: G = Qα + p = p, Ḡ = 0; Q_tt = K(x_t, x_t) given here for
    # RBF (exp(0) = 1, as a row's own entry) and a Gram matrix (its diagonal), formed by the
    # loop for the others (from ‖x_t‖², as the rows form their entries)
    diagonal = None  # the loop's argument: None when QD is given here, True when it forms QD
    if kind == _k.RBF:
        QD = np.ones(l)
    elif kind == _k.PRECOMPUTED:
        QD = X[index, index]
    else:
        QD, diagonal = np.empty(l), True
    fl = np.stack([y, p, C, np.zeros(l), p, np.zeros(l), QD])  # rows y, p, C, α, G, Ḡ, QD
    it = np.stack([index, np.arange(l, dtype=np.int64)])  # rows idx, perm
    cache, scratch = _k.new_cache(_cache_rows(cache_size, m), m)
    H = np.empty((3, RECORD_CAPACITY))
    out = _k.smo_loop(
        kern, fl, it, cache, scratch, H, float(tol), bool(shrinking),
        int(max_iter), max(int(record_every), 1), True if np.all(np.isinf(C)) else None, diagonal,
    )  # fmt: skip
    k, status, viol, n_rec = out
    perm = it[1]
    alpha, grad = np.empty(l), np.empty(l)
    alpha[perm], grad[perm] = fl[3], fl[4]  # back to the original order of the variables
    f = 0.5 * float(np.dot(alpha, grad + p))  # f = ½αᵀQα + pᵀα = ½αᵀ(G + p)
    # the record, and its last entry: the final iteration
    h_it, h_v, h_f = np.concatenate([H[:, :n_rec], [[k], [viol], [f]]], axis=1)
    n_eval, n_hit = cache[3][0], cache[3][1]
    return SMOResult(
        alpha=alpha,
        rho=_rho(y, grad, alpha, C),
        grad=grad,
        objective=float(f),
        n_iter=int(k),
        status=STATUSES[status],
        max_violation=float(viol),
        history_iter=h_it.astype(np.int64),
        history_violation=h_v,
        history_objective=h_f,
        n_kernel_evals=int(n_eval),
        n_cache_hits=int(n_hit),
    )
