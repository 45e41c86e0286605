"""Limited-memory BFGS with a strong-Wolfe line search (Nocedal & Wright, 2nd ed., ch. 6-7;
the zoom's interpolation rule from Moré & Thuente, ACM TOMS 20(3), 1994).

Symbols
-------
x        current point, g = ∇J(x)
d        search direction, d = −H g with H the L-BFGS inverse-Hessian approximation
α        step length, φ(α) = J(x + αd), φ′(α) = ∇J(x + αd)ᵀd
s, y     sₖ = xₖ₊₁ − xₖ, yₖ = gₖ₊₁ − gₖ, ρₖ = 1/(yₖᵀsₖ); the last m pairs are kept
c1, c2   strong Wolfe constants: φ(α) ≤ φ(0) + c1αφ′(0) and |φ′(α)| ≤ c2|φ′(0)|

Two-loop recursion (alg. 7.4)::

    q = g;  for i = k−1 … k−m:  aᵢ = ρᵢsᵢᵀq;  q = q − aᵢyᵢ
    r = γ q, γ = sₖ₋₁ᵀyₖ₋₁ / yₖ₋₁ᵀyₖ₋₁
    for i = k−m … k−1:  β = ρᵢyᵢᵀr;  r = r + sᵢ(aᵢ − β)
    d = −r

First step (no pairs yet, H = I): the trial step α₀ = 1/‖g‖₂ moves x by a unit length along
−g, whatever the objective's scale (as L-BFGS-B does). Capping it at α₀ ≤ 1 shrank the first
step of averaged objectives, whose gradients are small: a logistic loss on 10⁵ rows took two
more iterations to reach the same ‖g‖∞. The line search shortens a step that is too long.

Stopping: ``‖g‖∞ ≤ gtol`` ("grad_norm"), ``(J_old − J)/max(|J_old|, |J|, 1) ≤ ftol``
("cost_change"), the iteration budget ("max_iter"), or "stalled" when even a steepest-descent
step finds no decrease satisfying the Wolfe conditions (the objective is flat to machine
precision along it). The returned x is always finite: trial points with a non-finite objective
are treated as too long a step.
"""

import numbers
from collections import deque

import numpy as np

from ..utils import Interval, validate_params
from ._result import _make_result, warn_unless_converged

__all__ = ["LBFGS", "lbfgs", "line_search_wolfe"]

_C1, _C2 = 1e-4, 0.9


def _interpolate(a_lo, a_hi, f_lo, f_hi, d_lo, d_hi):
    """The next trial step inside the bracket between a_lo (the best point) and a_hi.

    a_c minimises the cubic through (a_lo, f_lo, d_lo), (a_hi, f_hi, d_hi) (N&W eq. 3.59) and
    a_q the quadratic through f_lo, d_lo, f_hi. When f_hi > f_lo, Moré and Thuente's (1994)
    rule is taken: a_c if it is nearer a_lo than a_q, else the midpoint of the two (the cubic
    alone overshoots when the function rises steeply towards a_hi; this is the step SciPy's
    L-BFGS-B takes there, one evaluation fewer on a Poisson GLM). Otherwise a_c, else a_q.
    Safeguarded to the middle 80% of the interval, else the midpoint."""
    lo, hi = min(a_lo, a_hi), max(a_lo, a_hi)
    delta = hi - lo
    a_c = a_q = None
    with np.errstate(all="ignore"):
        if np.isfinite(f_hi) and np.isfinite(d_hi):
            d1 = d_lo + d_hi - 3.0 * (f_lo - f_hi) / (a_lo - a_hi)
            rad = d1 * d1 - d_lo * d_hi
            if rad >= 0:
                d2 = np.sign(a_hi - a_lo) * np.sqrt(rad)
                a_c = a_hi - (a_hi - a_lo) * (d_hi + d2 - d1) / (d_hi - d_lo + 2.0 * d2)
                a_c = a_c if np.isfinite(a_c) else None
        if np.isfinite(f_hi):
            dx = a_hi - a_lo
            c = (f_hi - f_lo - d_lo * dx) / (dx * dx)  # q(a_lo + u) = f_lo + d_lo u + c u²
            if c > 0:
                a_q = a_lo - d_lo / (2.0 * c)
                a_q = a_q if np.isfinite(a_q) else None
    if a_c is not None and a_q is not None and f_hi > f_lo:
        a = a_c if abs(a_c - a_lo) < abs(a_q - a_lo) else a_c + 0.5 * (a_q - a_c)
    else:
        a = a_c if a_c is not None else a_q
    if a is None or not np.isfinite(a) or a < lo + 0.1 * delta or a > hi - 0.1 * delta:
        a = 0.5 * (lo + hi)
    return float(a)


def line_search_wolfe(phi, f0, d0, alpha1, *, c1=_C1, c2=_C2, max_ls=25, alpha_max=1e10):
    """Step α satisfying the strong Wolfe conditions (N&W alg. 3.5, bracketing, and 3.6, zoom).

    ``phi(α) -> (φ(α), φ′(α), payload)``; returns ``(α, φ(α), payload, n_eval)`` or
    ``(None, None, None, n_eval)`` when no step decreasing φ was found within ``max_ls``
    evaluations. When the budget runs out after a step with sufficient decrease but without the
    curvature condition, that step is returned (its (s, y) pair may then be skipped).
    """
    n_eval = 0
    a_prev, f_prev, dp_prev, pay_prev = 0.0, f0, d0, None
    alpha = alpha1
    bracket = None
    for i in range(max_ls):
        f_a, dp_a, pay_a = phi(alpha)
        n_eval += 1
        if not (np.isfinite(f_a) and np.isfinite(dp_a)):
            bracket = (a_prev, alpha, f_prev, np.inf, dp_prev, np.nan, pay_prev)
            break
        if f_a > f0 + c1 * alpha * d0 or (i > 0 and f_a >= f_prev):
            bracket = (a_prev, alpha, f_prev, f_a, dp_prev, dp_a, pay_prev)
            break
        if abs(dp_a) <= -c2 * d0:
            return alpha, f_a, pay_a, n_eval
        if dp_a >= 0:
            bracket = (alpha, a_prev, f_a, f_prev, dp_a, dp_prev, pay_a)
            break
        a_prev, f_prev, dp_prev, pay_prev = alpha, f_a, dp_a, pay_a
        alpha = min(2.0 * alpha, alpha_max)
    if bracket is None:  # still descending after max_ls doublings: accept the last point
        return (a_prev, f_prev, pay_prev, n_eval) if a_prev > 0 else (None, None, None, n_eval)

    a_lo, a_hi, f_lo, f_hi, d_lo, d_hi, pay_lo = bracket
    while n_eval < max_ls + 10:  # zoom has its own small budget on top of bracketing
        a_j = _interpolate(a_lo, a_hi, f_lo, f_hi, d_lo, d_hi)
        if abs(a_hi - a_lo) <= 1e-14 * max(1.0, abs(a_hi)):
            break
        f_j, dp_j, pay_j = phi(a_j)
        n_eval += 1
        if not (np.isfinite(f_j) and np.isfinite(dp_j)):
            a_hi, f_hi, d_hi = a_j, np.inf, np.nan
        elif f_j > f0 + c1 * a_j * d0 or f_j >= f_lo:
            a_hi, f_hi, d_hi = a_j, f_j, dp_j
        else:
            if abs(dp_j) <= -c2 * d0:
                return a_j, f_j, pay_j, n_eval
            if dp_j * (a_hi - a_lo) >= 0:
                a_hi, f_hi, d_hi = a_lo, f_lo, d_lo
            a_lo, f_lo, d_lo, pay_lo = a_j, f_j, dp_j, pay_j
    if a_lo > 0 and pay_lo is not None:  # sufficient decrease holds at a_lo
        return a_lo, f_lo, pay_lo, n_eval
    return None, None, None, n_eval


def _two_loop(g, S, Y, rho):
    """d = −H g by the two-loop recursion (N&W alg. 7.4)."""
    q = g.copy()
    a = np.empty(len(S))
    for i in range(len(S) - 1, -1, -1):
        a[i] = rho[i] * (S[i] @ q)
        q -= a[i] * Y[i]
    gamma = (S[-1] @ Y[-1]) / (Y[-1] @ Y[-1]) if S else 1.0  # H₀ = γI
    r = gamma * q
    for i in range(len(S)):
        beta = rho[i] * (Y[i] @ r)
        r += S[i] * (a[i] - beta)
    return -r


def _restrict(f_and_g, x, d):
    """φ(α) = J(x + αd) and φ′(α) = ∇J(x + αd)ᵀd, with ∇J(x + αd) as payload."""

    def phi(alpha):
        J_a, g_a = f_and_g(x + alpha * d)
        return J_a, float(g_a @ d), g_a

    return phi


def lbfgs(fun, x0, *, m=10, gtol=1e-5, ftol=1e-10, max_iter=500, max_ls=25, warn=True):
    """Minimise ``fun(x) -> (J, ∇J)`` by L-BFGS from ``x0``; returns an OptimizeResult.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> (J, grad)`` with x of the shape of ``x0``.
    x0 : array-like
        Starting point (not modified).
    m : int, default=10
        Number of (s, y) pairs kept.
    gtol : float, default=1e-5
        Stop when ``‖∇J‖∞ ≤ gtol``.
    ftol : float, default=1e-10
        Stop when ``(J_old − J)/max(|J_old|, |J|, 1) ≤ ftol``.
    max_iter : int, default=500
        Iteration budget.
    max_ls : int, default=25
        Evaluation budget of one line search (bracketing phase; zoom may add 10).
    warn : bool, default=True
        Issue a ConvergenceWarning when the run stops on "max_iter" or "stalled" (before
        ``gtol`` or ``ftol`` was met). Estimators pass False and record the fit themselves.

    Notes
    -----
    A pair is skipped when ``yᵀs ≤ ε_mach‖y‖‖s‖`` (keeps H positive definite). If the line search
    fails along the quasi-Newton direction, the memory is cleared and steepest descent is tried;
    if that fails too the run stops with stop_reason "stalled" (converged=False: no descent
    step exists at the objective's floating-point resolution, yet ‖∇J‖∞ > gtol).

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.optim import lbfgs
    >>> A = np.array([[3.0, 1.0], [1.0, 2.0]])
    >>> b = np.array([1.0, 1.0])
    >>> res = lbfgs(lambda x: (0.5 * x @ A @ x - b @ x, A @ x - b), np.zeros(2))
    >>> print(np.round(res.x, 4), res.stop_reason)
    [0.2 0.4] grad_norm
    """
    x = np.array(x0, dtype=float)
    shape = x.shape
    x = x.ravel()

    def f_and_g(z):
        J, g = fun(z.reshape(shape))
        return float(J), np.asarray(g, dtype=float).ravel()

    J, g = f_and_g(x)
    if not np.isfinite(J) or not np.all(np.isfinite(g)):
        raise ValueError(f"lbfgs: the objective or its gradient is not finite at x0 (J = {J}).")
    n_fev = 1
    J_hist, g_hist = [J], [float(np.max(np.abs(g), initial=0.0))]
    S, Y, rho = deque(maxlen=m), deque(maxlen=m), deque(maxlen=m)
    eps = np.finfo(float).eps
    stop = "grad_norm" if g_hist[0] <= gtol else None
    k = 0
    while stop is None and k < max_iter:
        d = _two_loop(g, S, Y, rho) if S else -g
        dg = float(g @ d)
        if not (dg < 0 and np.isfinite(dg)):  # not a descent direction: restart
            S.clear(), Y.clear(), rho.clear()
            d, dg = -g, -float(g @ g)
        alpha0 = 1.0 if S else 1.0 / max(np.linalg.norm(g), eps)  # a unit-length first step
        phi = _restrict(f_and_g, x, d)
        alpha, J_new, g_new, n_ls = line_search_wolfe(phi, J, dg, alpha0, max_ls=max_ls)
        n_fev += n_ls
        if alpha is None and S:  # retry along steepest descent with a fresh memory
            S.clear(), Y.clear(), rho.clear()
            d, dg = -g, -float(g @ g)
            phi = _restrict(f_and_g, x, d)
            alpha0 = 1.0 / max(np.linalg.norm(g), eps)
            alpha, J_new, g_new, n_ls = line_search_wolfe(phi, J, dg, alpha0, max_ls=max_ls)
            n_fev += n_ls
        if alpha is None:
            stop = "stalled"
            break
        s = alpha * d
        y = g_new - g
        x = x + s
        k += 1
        rel = (J - J_new) / max(abs(J), abs(J_new), 1.0)
        J, g = J_new, g_new
        ys = float(y @ s)
        if ys > eps * np.linalg.norm(y) * np.linalg.norm(s):
            S.append(s), Y.append(y), rho.append(1.0 / ys)
        J_hist.append(J)
        g_hist.append(float(np.max(np.abs(g), initial=0.0)))
        if g_hist[-1] <= gtol:
            stop = "grad_norm"
        elif rel <= ftol:
            stop = "cost_change"
    if stop is None:
        stop = "max_iter"
    res = _make_result(x.reshape(shape), J, g.reshape(shape), k, n_fev, stop, J_hist, g_hist)
    if warn:
        criterion = f"‖∇J‖∞ <= gtol={gtol} or a relative change <= ftol={ftol}"
        advice = f"raise max_iter={max_iter} or rescale the problem"
        warn_unless_converged(res, "L-BFGS", criterion, advice, 2)
    return res


class LBFGS:
    """Object form of :func:`lbfgs`: ``LBFGS(m=5).minimize(fun, x0)``.

    Parameters are those of :func:`lbfgs` (``max_ls`` defaults to 25).

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.optim import LBFGS
    >>> def rosenbrock(x):
    ...     J = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
    ...     g = [-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2), 200 * (x[1] - x[0] ** 2)]
    ...     return J, np.array(g)
    >>> res = LBFGS(m=5).minimize(rosenbrock, np.array([-1.2, 1.0]))
    >>> print(np.round(res.x, 3), res.converged)
    [1. 1.] True
    """

    _parameter_constraints = {
        "m": [Interval(numbers.Integral, 1, None, closed="left")],
        "gtol": [Interval(numbers.Real, 0, None, closed="left")],
        "ftol": [Interval(numbers.Real, 0, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_ls": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(self, *, m=10, gtol=1e-5, ftol=1e-10, max_iter=500, max_ls=25):
        self.m = m
        self.gtol = gtol
        self.ftol = ftol
        self.max_iter = max_iter
        self.max_ls = max_ls

    def get_params(self, deep=True):
        return {k: getattr(self, k) for k in self._parameter_constraints}

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"LBFGS({inner})"

    def minimize(self, fun, x0):
        """Minimise ``fun(x) -> (J, ∇J)`` from ``x0``; returns an OptimizeResult."""
        validate_params(self._parameter_constraints, self.get_params(), "LBFGS")
        return lbfgs(fun, x0, **self.get_params())
