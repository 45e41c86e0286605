"""Lasso and elastic net by cyclic coordinate descent, stopped on the duality gap.

Symbols
-------
n, d       samples, features
X, y       centred design and target, rows scaled by √(n·sᵢ/Σs) (so Σ weights = n)
α, ρ       ``alpha`` and ``l1_ratio``
λ₁, λ₂     λ₁ = nαρ and λ₂ = nα(1 − ρ): the penalties of the unscaled objective P below
w, R       coefficients (d,) and residual R = y − Xw (n,)
S(z, t)    soft thresholding sign(z)·max(|z| − t, 0)

Objective (scikit-learn's)
--------------------------
.. math::

    \\frac{1}{2n}\\|y - Xw - b\\|_2^2 + \\alpha\\rho\\|w\\|_1
    + \\frac{\\alpha(1-\\rho)}{2}\\|w\\|_2^2

which is P(w)/n with P(w) = ½‖R‖² + λ₁‖w‖₁ + ½λ₂‖w‖² (the Lasso is ρ = 1). The intercept is
removed by centring. Minimising P over wⱼ with the others fixed has the closed form

.. math::

    w_j \\leftarrow \\frac{S(X_j^T R + w_j \\|X_j\\|^2, \\lambda_1)}{\\|X_j\\|^2 + \\lambda_2},
    \\qquad R \\leftarrow R - X_j (w_j^{new} - w_j^{old}),

which sets wⱼ exactly to zero whenever |Xⱼᵀ(R + wⱼXⱼ)| <= λ₁. The duality gap

.. math::

    G(w) = P(w) - D(\\nu),\\quad \\nu = \\kappa R,\\quad
    \\kappa = \\min(1, \\lambda_1/\\|X^T R - \\lambda_2 w\\|_\\infty),\\quad
    D(\\nu) = -\\tfrac12\\|\\nu\\|^2 + y^T\\nu - \\tfrac{\\lambda_2}{2}\\kappa^2\\|w\\|^2

bounds P(w) − P(w*) from above. As in scikit-learn, it is evaluated only after a sweep whose
largest coefficient change is below ``tol`` times the largest coefficient, and the descent stops
when G <= tol·‖y‖² (so the same ``alpha`` and ``tol`` mean the same thing in both libraries).
The reported ``dual_gap_`` is G/n, the gap of the 1/n-scaled objective.
"""

from __future__ import annotations

import numbers

import numba
import numpy as np

from ..base import BaseEstimator, RegressorMixin
from ..utils import Interval, StrOptions, check_random_state, check_sample_weight
from ._base import LinearModel

__all__ = [
    "Lasso",
    "ElasticNet",
    "enet_coordinate_descent",
    "enet_primal_and_gap",
    "enet_subgradient_loss_grad",
]


# -- kernels: every sum over samples is a sum of per-block partial sums, in block order --------
#: Rows per block of every reduction over samples. Fixed (it depends on nothing but itself), so
#: each sum is the same sequence of floating-point additions whatever the number of threads.
BLOCK = 4096
#: The per-coordinate dot and axpy run over row blocks in parallel from this many rows. A
#: parallel region costs a few microseconds to start; a 2n-flop dot over n = 65,536 rows takes
#: about 40 µs on one core, so from here on the threads win and below it they mostly wait.
PARALLEL_MIN_ROWS = 65_536


@numba.njit(cache=True)
def _dot_range(X, j, r, lo, hi):
    """Σ_{lo <= i < hi} X[i, j]·r[i] in eight interleaved partial sums s₀…s₇, added as
    ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)): a fixed order of additions (no
    fastmath), whatever the CPU; eight independent chains keep the adder busy."""
    x, v = X[lo:hi, j], r[lo:hi]
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    m = (hi - lo) // 8 * 8
    for i in range(0, m, 8):
        s0 += x[i] * v[i]
        s1 += x[i + 1] * v[i + 1]
        s2 += x[i + 2] * v[i + 2]
        s3 += x[i + 3] * v[i + 3]
        s4 += x[i + 4] * v[i + 4]
        s5 += x[i + 5] * v[i + 5]
        s6 += x[i + 6] * v[i + 6]
        s7 += x[i + 7] * v[i + 7]
    s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    for i in range(m, hi - lo):
        s += x[i] * v[i]
    return s


@numba.njit(cache=True)
def _dot_serial(X, j, r):
    """Xⱼᵀr (‖Xⱼ‖² when r is None): block partial sums added in block order, the same
    arithmetic as :func:`_dot`."""
    n = X.shape[0]
    total = 0.0
    for lo in range(0, n, BLOCK):
        if r is None:
            total += _dot_range(X, j, X[:, j], lo, min(n, lo + BLOCK))
        else:
            total += _dot_range(X, j, r, lo, min(n, lo + BLOCK))
    return total


@numba.njit(cache=True, parallel=True)
def _dot(X, j, r, part, parallel):
    """Xⱼᵀr, the blocks' partial sums computed by the threads when ``parallel``, then added
    in block order: bit-for-bit :func:`_dot_serial` whatever the number of threads."""
    n = X.shape[0]
    nb = part.size
    if not parallel:
        return _dot_serial(X, j, r)
    for b in numba.prange(nb):
        part[b] = _dot_range(X, j, r, b * BLOCK, min(n, (b + 1) * BLOCK))
    total = 0.0
    for b in range(nb):
        total += part[b]
    return total


@numba.njit(cache=True, parallel=True)
def _axpy(X, j, a, r, parallel):
    """r ← r − a·Xⱼ (element by element: the same result in any order)."""
    n = X.shape[0]
    if parallel:
        for b in numba.prange((n + BLOCK - 1) // BLOCK):
            lo, hi = b * BLOCK, min(n, (b + 1) * BLOCK)
            r[lo:hi] -= a * X[lo:hi, j]
    else:
        r -= a * X[:, j]


@numba.njit(cache=True, parallel=True)
def _all_dots(X, r, out):
    """out[j] = Xⱼᵀr (‖Xⱼ‖² when r is None) for every column, shared among the threads."""
    for j in numba.prange(X.shape[1]):
        out[j] = _dot_serial(X, j, r)


@numba.njit(cache=True, parallel=True)
def _residual(X, y, w):
    """R = y − Xw, each Rᵢ updated column by column in column order."""
    n, d = X.shape
    R = y.copy()
    for b in numba.prange((n + BLOCK - 1) // BLOCK):
        for j in range(d):
            if w[j] != 0.0:
                for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
                    R[i] -= X[i, j] * w[j]
    return R


@numba.njit(cache=True, parallel=True)
def weighted_means(A, s):
    """Column means Σᵢ sᵢAᵢⱼ / Σᵢ sᵢ, summed by blocks of rows in block order (deterministic,
    unlike a threaded BLAS product)."""
    n, d = A.shape
    nb = (n + BLOCK - 1) // BLOCK
    part = np.zeros((nb, d + 1))
    for b in numba.prange(nb):
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            for j in range(d):
                part[b, j] += s[i] * A[i, j]
            part[b, d] += s[i]
    total = np.zeros(d + 1)
    for b in range(nb):
        for j in range(d + 1):
            total[j] += part[b, j]
    return total[:d] / total[d]


@numba.njit(cache=True, parallel=True)
def centred_fortran(A, m, root):
    """(A − m)·diag(root) row-wise, as a new Fortran-ordered (column-contiguous) array: the
    centring, the √s row scaling and the copy to column order in one pass."""
    n, d = A.shape
    out = np.empty((d, n)).T
    for b in numba.prange((n + BLOCK - 1) // BLOCK):
        for j in range(d):
            for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
                out[i, j] = (A[i, j] - m[j]) * root[i]
    return out


@numba.njit(cache=True)
def _sq_sums(R, y, w):
    """(‖R‖², Rᵀy, ‖w‖², ‖w‖₁), the sums over samples by blocks in block order."""
    n = R.shape[0]
    R2 = Ry = 0.0
    for lo in range(0, n, BLOCK):
        r2 = ry = 0.0
        for i in range(lo, min(n, lo + BLOCK)):
            r2 += R[i] * R[i]
            ry += R[i] * y[i]
        R2 += r2
        Ry += ry
    w2 = w1 = 0.0
    for j in range(w.shape[0]):
        w2 += w[j] * w[j]
        w1 += abs(w[j])
    return R2, Ry, w2, w1


@numba.njit(cache=True)
def enet_primal_and_gap(w, X, y, R, l1, l2, positive, with_gap):
    """P(w) = ½‖R‖² + λ₁‖w‖₁ + ½λ₂‖w‖², and G = P(w) − D(κR) (module docstring) when
    ``with_gap`` (NaN otherwise: the gap costs a pass over X). λ₁ = 0 uses the ridge dual;
    λ₁ = λ₂ = 0 reports ‖XᵀR‖², the first-order condition of least squares."""
    R2, Ry, w2, w1 = _sq_sums(R, y, w)
    P = 0.5 * R2 + l1 * w1 + 0.5 * l2 * w2
    if not with_gap:
        return P, np.nan
    XtR = np.empty(X.shape[1])
    _all_dots(X, R, XtR)
    if l1 == 0.0:
        xtr2 = 0.0
        for j in range(XtR.shape[0]):
            xtr2 += XtR[j] ** 2
        if l2 == 0.0:
            return P, xtr2
        return P, R2 + 0.5 * l2 * w2 - Ry + xtr2 / (2.0 * l2)
    dual_norm = 0.0
    for j in range(XtR.shape[0]):
        v = XtR[j] - l2 * w[j]
        dual_norm = max(dual_norm, v if positive else abs(v))
    kappa = min(1.0, l1 / dual_norm) if dual_norm > 0.0 else 1.0
    gap = 0.5 * R2 * (1.0 + kappa * kappa) + l1 * w1 - kappa * Ry
    return P, gap + 0.5 * l2 * (1.0 + kappa * kappa) * w2


@numba.njit(cache=True)
def _xorshift(state):
    """One step of xorshift64 (the random coordinate order, without NumPy's global state)."""
    state ^= state << np.uint64(13)
    state ^= state >> np.uint64(7)
    state ^= state << np.uint64(17)
    return state


@numba.njit(cache=True)
def enet_coordinate_descent(
    w, X, y, l1, l2, max_iter, tol, positive, random, seed, objective, gaps, parallel
):
    """Minimise P(w) = ½‖y − Xw‖² + λ₁‖w‖₁ + ½λ₂‖w‖² in place, one coordinate at a time:
    wⱼ ← S(Xⱼᵀ(R + wⱼXⱼ), λ₁) / (‖Xⱼ‖² + λ₂) with the residual R kept up to date.

    X must be Fortran-ordered (columns contiguous). ``objective[t]`` and ``gaps[t]`` receive
    P and G at the start (t = 0) and after sweep t (G is NaN where it was not evaluated).
    ``parallel``: the per-coordinate dot and axpy use the threads (results are the same either
    way). Returns (gap, sweeps, converged).
    """
    n, d = X.shape
    part = np.empty((n + BLOCK - 1) // BLOCK)
    state = np.uint64(seed) | np.uint64(1)
    norms = np.empty(d)
    _all_dots(X, None, norms)
    R = _residual(X, y, w)
    y2 = _sq_sums(y, y, w)[0]
    tol_gap = tol * y2
    P, gap = enet_primal_and_gap(w, X, y, R, l1, l2, positive, True)
    objective[0], gaps[0] = P, gap
    if gap <= tol_gap:
        return gap, 0, True
    for it in range(max_iter):
        w_max = dw_max = 0.0
        for f in range(d):
            j = f
            if random:
                state = _xorshift(state)
                j = np.int64(state % np.uint64(d))
            if norms[j] == 0.0:
                continue
            w_old = w[j]
            z = _dot(X, j, R, part, parallel) + w_old * norms[j]
            if positive and z < 0.0:
                w_new = 0.0
            else:
                w_new = np.sign(z) * max(abs(z) - l1, 0.0) / (norms[j] + l2)
            if w_new != w_old:
                _axpy(X, j, w_new - w_old, R, parallel)
                w[j] = w_new
            dw_max = max(dw_max, abs(w_new - w_old))
            w_max = max(w_max, abs(w_new))
        check = w_max == 0.0 or dw_max / w_max <= tol or it == max_iter - 1
        P, g = enet_primal_and_gap(w, X, y, R, l1, l2, positive, check)
        objective[it + 1], gaps[it + 1] = P, g
        if check:
            gap = g
            if gap <= tol_gap:
                return gap, it + 1, True
    return gap, max_iter, False


def enet_subgradient_loss_grad(theta, X, y, s_bar, l1_pen, l2_pen, fit_intercept):
    """J(w, b) = ½ Σ s̄ᵢ rᵢ² + αρ‖w‖₁ + (α(1−ρ)/2)‖w‖²,  r = Xw + b − y,  s̄ = s/Σs;
    ∇_w J = Xᵀ(s̄ ⊙ r) + αρ·sign(w) + α(1−ρ)w (sign(0) = 0),  ∂J/∂b = Σ s̄ᵢrᵢ."""
    d = X.shape[1]
    w, b = theta[:d], (theta[d] if fit_intercept else 0.0)
    r = X @ w + b - y
    sr = s_bar * r
    J = 0.5 * (sr @ r) + l1_pen * np.abs(w).sum() + 0.5 * l2_pen * (w @ w)
    g = X.T @ sr + l1_pen * np.sign(w) + l2_pen * w
    if fit_intercept:
        g = np.append(g, sr.sum())
    return J, g


def _enet_subgradient(
    X, y, s, l1_pen, l2_pen, *, fit_intercept, learning_rate, max_iter, tol, random_state
):
    """Subgradient descent (the seed's method) with :func:`enet_subgradient_loss_grad`."""
    from ..optim import GradientDescent

    n, d = X.shape
    s_bar = s / s.sum()
    if learning_rate == "auto":  # 1/L, L the Lipschitz constant of the smooth part
        Z = np.column_stack([X, np.ones(n)]) if fit_intercept else X
        learning_rate = 1.0 / (np.linalg.norm(Z * np.sqrt(s_bar)[:, None], 2) ** 2 + l2_pen)
    gd = GradientDescent(
        learning_rate=learning_rate, tol=tol, gtol=0.0, max_iter=max_iter, random_state=random_state
    )
    res = gd.minimize(
        lambda th: enet_subgradient_loss_grad(th, X, y, s_bar, l1_pen, l2_pen, fit_intercept),
        np.zeros(d + int(fit_intercept)),
        warn=False,
    )
    return res.x[:d], (res.x[d] if fit_intercept else 0.0), res


class ElasticNet(LinearModel, RegressorMixin, BaseEstimator):
    """Linear regression with combined L1 and L2 penalties (scikit-learn's objective).

    .. math::

        \\min_{w,b} \\frac{1}{2n}\\sum_i s_i' (y_i - x_i^T w - b)^2
        + \\alpha\\rho\\|w\\|_1 + \\frac{\\alpha(1-\\rho)}{2}\\|w\\|_2^2

    with ρ = ``l1_ratio`` and sample weights s′ rescaled to sum to n. See the module docstring
    for the coordinate update and the duality-gap stopping rule.

    Parameters
    ----------
    alpha : float, default=1.0
    l1_ratio : float in [0, 1], default=0.5
    fit_intercept : bool, default=True
    max_iter : int, default=1000
        Maximum number of sweeps (cd) or gradient steps (subgradient).
    tol : float, default=1e-4
        cd: stop when the duality gap G <= tol·‖y‖² (scikit-learn's rule). subgradient: the
        cost-change tolerance of GradientDescent.
    solver : {"cd", "subgradient"}, default="cd"
        "subgradient": gradient descent with the subgradient sign(w) (0 at wⱼ = 0); it never
        produces exact zeros and converges slowly; it is there to compare with the seed.
    warm_start : bool, default=False
        Start from the previous ``coef_`` (cd only).
    positive : bool, default=False
        Constrain w >= 0 (cd only).
    selection : {"cyclic", "random"}, default="cyclic"
    random_state : None, int or Generator
        Source of the random coordinate order when ``selection="random"``.
    learning_rate : float or "auto", default="auto"
        Step of the subgradient solver ("auto": 1/L, L the Lipschitz constant of the smooth
        part).

    Attributes
    ----------
    coef_, intercept_ : coefficients (d,) or (k, d), intercept
    dual_gap_ : float or ndarray
        Final duality gap of the 1/n-scaled objective (G/n); NaN for the subgradient solver.
    n_iter_ : int or list of int
    history_ : dict
        cd: {"dual_gap": gaps G/n after each sweep, NaN where not evaluated};
        subgradient: GradientDescent's {"J", "grad_norm"}.
    stop_reason_ : str
        "converged" (gap below tolerance), "cost_change", "grad_norm" or "max_iter".
    """

    _parameter_constraints = {
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "l1_ratio": [Interval(numbers.Real, 0, 1, closed="both")],
        "fit_intercept": ["boolean"],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "solver": [StrOptions({"cd", "subgradient"})],
        "warm_start": ["boolean"],
        "positive": ["boolean"],
        "selection": [StrOptions({"cyclic", "random"})],
        "random_state": ["random_state"],
        "learning_rate": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        alpha=1.0,
        *,
        l1_ratio=0.5,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        solver="cd",
        warm_start=False,
        positive=False,
        selection="cyclic",
        random_state=None,
        learning_rate="auto",
    ):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.warm_start = warm_start
        self.positive = positive
        self.selection = selection
        self.random_state = random_state
        self.learning_rate = learning_rate

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(multi_output=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Fit by coordinate descent (or subgradient descent); returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True, multi_output=True)
        y = np.asarray(y, dtype=np.float64)
        n, d = X.shape
        s = check_sample_weight(sample_weight, X)
        rng = check_random_state(self.random_state)
        one_target = y.ndim == 1
        Y = y.reshape(n, -1)
        k = Y.shape[1]
        l1_pen, l2_pen = self.alpha * self.l1_ratio, self.alpha * (1.0 - self.l1_ratio)
        if self.solver == "subgradient":
            if not one_target:
                raise ValueError("solver='subgradient' fits a single target; y must be 1-d.")
            w, b, res = _enet_subgradient(
                X,
                y,
                s,
                l1_pen,
                l2_pen,
                fit_intercept=self.fit_intercept,
                learning_rate=self.learning_rate,
                max_iter=self.max_iter,
                tol=self.tol,
                random_state=rng,
            )
            self.coef_, self.intercept_, self.dual_gap_ = w, b, np.nan
            self._record_fit(
                res.n_iter, res.history, res.stop_reason, criterion=f"|ΔJ| <= tol={self.tol}"
            )
            return self

        s_n = s * (n / s.sum())  # weights summing to n, as scikit-learn rescales them
        m_x, m_y = np.zeros(d), np.zeros(k)
        if self.fit_intercept:
            m_x, m_y = weighted_means(X, s_n), weighted_means(Y, s_n)
        root = np.sqrt(s_n)
        Xf, Yf = centred_fortran(X, m_x, root), centred_fortran(Y, m_y, root)
        W = np.zeros((k, d))
        if self.warm_start and getattr(self, "coef_", None) is not None:
            prev = np.reshape(self.coef_, (-1, d))
            if prev.shape == W.shape:
                W[:] = prev
        gaps, iters, hist, done = np.empty(k), [], [], True
        for t in range(k):
            objective, gap_trace = np.empty(self.max_iter + 1), np.empty(self.max_iter + 1)
            gap, it, ok = enet_coordinate_descent(
                W[t],
                Xf,
                Yf[:, t],
                n * l1_pen,
                n * l2_pen,
                self.max_iter,
                self.tol,
                self.positive,
                self.selection == "random",
                int(rng.integers(2**31 - 1)),
                objective,
                gap_trace,
                n >= PARALLEL_MIN_ROWS,
            )
            gaps[t], done = gap / n, done and ok
            iters.append(int(it))
            hist.append({"objective": objective[: it + 1] / n, "dual_gap": gap_trace[: it + 1] / n})
        self.coef_, self.intercept_ = W, m_y - W @ m_x
        self.dual_gap_ = gaps
        if one_target:
            self.coef_, self.intercept_, self.dual_gap_ = (
                W[0],
                float(self.intercept_[0]),
                float(gaps[0]),
            )
        self._record_fit(
            iters[0] if one_target else iters,
            hist[0] if one_target else hist,
            "converged" if done else "max_iter",
            criterion=f"duality gap G/n <= tol·‖y‖²/n with tol={self.tol}",
        )
        return self


class Lasso(ElasticNet):
    """Linear regression with an L1 penalty: ElasticNet with ``l1_ratio=1``.

    .. math::

        \\min_{w,b} \\frac{1}{2n}\\|y - Xw - b\\|_2^2 + \\alpha\\|w\\|_1

    Coordinate descent with soft thresholding gives exact zeros. Parameters and attributes
    are those of :class:`ElasticNet` without ``l1_ratio``.
    """

    _parameter_constraints = {
        k: v for k, v in ElasticNet._parameter_constraints.items() if k != "l1_ratio"
    }

    l1_ratio = 1.0  # fixed: a class attribute, not a hyperparameter

    def __init__(
        self,
        alpha=1.0,
        *,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        solver="cd",
        warm_start=False,
        positive=False,
        selection="cyclic",
        random_state=None,
        learning_rate="auto",
    ):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.warm_start = warm_start
        self.positive = positive
        self.selection = selection
        self.random_state = random_state
        self.learning_rate = learning_rate
