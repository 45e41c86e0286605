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
import warnings

import numba
import numpy as np

from ..base import BaseEstimator, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..utils import Interval, StrOptions, check_random_state, check_sample_weight
from ._base import LinearModel, center_data, rescale_rows, set_intercept

__all__ = [
    "Lasso",
    "ElasticNet",
    "enet_coordinate_descent",
    "enet_duality_gap",
    "enet_subgradient_loss_grad",
]


@numba.njit(cache=True, fastmath=True)
def enet_duality_gap(w, X, y, R, l1, l2, positive):
    """G = P(w) − D(κR) (module docstring); λ₁ = 0 uses the ridge dual, λ₁ = λ₂ = 0 ‖XᵀR‖²."""
    n, d = X.shape
    XtA = np.empty(d)
    for j in range(d):
        acc = 0.0
        for i in range(n):
            acc += X[i, j] * R[i]
        XtA[j] = acc - l2 * w[j]
    R2 = 0.0
    Ry = 0.0
    for i in range(n):
        R2 += R[i] * R[i]
        Ry += R[i] * y[i]
    w2 = 0.0
    w1 = 0.0
    for j in range(d):
        w2 += w[j] * w[j]
        w1 += abs(w[j])
    if l1 == 0.0:
        xtr2 = 0.0
        for j in range(d):
            xtr2 += (XtA[j] + l2 * w[j]) ** 2
        if l2 == 0.0:
            return xtr2  # least squares: first-order condition only
        return R2 + 0.5 * l2 * w2 - Ry + xtr2 / (2.0 * l2)
    dual_norm = 0.0
    for j in range(d):
        v = XtA[j] if positive else abs(XtA[j])
        dual_norm = max(dual_norm, v)
    if dual_norm > l1:
        kappa = l1 / dual_norm
        gap = 0.5 * R2 * (1.0 + kappa * kappa)
    else:
        kappa = 1.0
        gap = R2
    return gap + l1 * w1 - kappa * Ry + 0.5 * l2 * (1.0 + kappa * kappa) * w2


@numba.njit(cache=True, fastmath=True)
def enet_coordinate_descent(w, X, y, l1, l2, max_iter, tol, positive, random, seed, gaps):
    """Minimise P(w) = ½‖y − Xw‖² + λ₁‖w‖₁ + ½λ₂‖w‖² in place, one coordinate at a time:
    wⱼ ← S(Xⱼᵀ(R + wⱼXⱼ), λ₁) / (‖Xⱼ‖² + λ₂) with the residual R kept up to date.

    X must be Fortran-ordered (columns contiguous). ``gaps[t]`` receives the gap after sweep t
    when it is evaluated (NaN otherwise). Returns (gap, sweeps, converged).
    """
    n, d = X.shape
    state = np.uint64(seed) | np.uint64(1)  # xorshift64 state for selection="random"
    norms = np.zeros(d)
    for j in range(d):
        for i in range(n):
            norms[j] += X[i, j] * X[i, j]
    R = y.copy()
    for j in range(d):
        if w[j] != 0.0:
            for i in range(n):
                R[i] -= X[i, j] * w[j]
    y2 = 0.0
    for i in range(n):
        y2 += y[i] * y[i]
    tol_gap = tol * y2
    gap = enet_duality_gap(w, X, y, R, l1, l2, positive)
    if gap <= tol_gap:
        return gap, 0, True
    for it in range(max_iter):
        w_max = 0.0
        dw_max = 0.0
        for f in range(d):
            j = f
            if random:  # xorshift64: a uniform coordinate, drawn without NumPy's global state
                state ^= state << np.uint64(13)
                state ^= state >> np.uint64(7)
                state ^= state << np.uint64(17)
                j = np.int64(state % np.uint64(d))
            if norms[j] == 0.0:
                continue
            w_old = w[j]
            z = 0.0
            for i in range(n):
                z += X[i, j] * R[i]
            z += w_old * norms[j]
            if positive and z < 0.0:
                w_new = 0.0
            else:
                w_new = np.sign(z) * max(abs(z) - l1, 0.0) / (norms[j] + l2)
            if w_new != w_old:
                delta = w_new - w_old
                for i in range(n):
                    R[i] -= X[i, j] * delta
                w[j] = w_new
            dw_max = max(dw_max, abs(w_new - w_old))
            w_max = max(w_max, abs(w_new))
        if w_max == 0.0 or dw_max / w_max <= tol or it == max_iter - 1:
            gap = enet_duality_gap(w, X, y, R, l1, l2, positive)
            gaps[it] = gap
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
            self.n_iter_, self.history_, self.stop_reason_ = (
                res.n_iter,
                res.history,
                res.stop_reason,
            )
            return self

        s_n = s * (n / s.sum())  # weights summing to n, as scikit-learn rescales them
        Xc, Yc, x_off, y_off = center_data(
            X, Y, fit_intercept=self.fit_intercept, sample_weight=s_n
        )
        if not np.all(s_n == 1.0):
            Xc, Yc = rescale_rows(Xc, Yc, s_n)
        Xf = np.asfortranarray(Xc)
        W = np.zeros((k, d))
        if self.warm_start and getattr(self, "coef_", None) is not None:
            prev = np.reshape(self.coef_, (-1, d))
            if prev.shape == W.shape:
                W[:] = prev
        gaps, iters, hist, done = np.empty(k), [], [], True
        for t in range(k):
            trace = np.full(self.max_iter, np.nan)
            seed = int(rng.integers(2**31 - 1))
            gap, it, ok = enet_coordinate_descent(
                W[t],
                Xf,
                np.ascontiguousarray(Yc[:, t]),
                n * l1_pen,
                n * l2_pen,
                self.max_iter,
                self.tol,
                self.positive,
                self.selection == "random",
                seed,
                trace,
            )
            gaps[t], done = gap / n, done and ok
            iters.append(int(it))
            hist.append(trace[: max(it, 1)] / n)
        if not done:
            warnings.warn(
                f"{type(self).__name__} did not converge in {self.max_iter} sweeps: duality gap "
                f"{gaps.max():.3e} > tol·‖y‖²/n. Increase max_iter or tol, or scale the "
                "features.",
                ConvergenceWarning,
                stacklevel=2,
            )
        intercept = set_intercept(W, x_off, y_off, self.fit_intercept)
        self.stop_reason_ = "converged" if done else "max_iter"
        if one_target:
            self.coef_, self.intercept_ = W[0], float(intercept[0])
            self.dual_gap_, self.n_iter_ = float(gaps[0]), iters[0]
            self.history_ = {"dual_gap": hist[0]}
        else:
            self.coef_, self.intercept_, self.dual_gap_, self.n_iter_ = W, intercept, gaps, iters
            self.history_ = {"dual_gap": hist}
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
