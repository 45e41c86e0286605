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
What ``tol`` bounds: the primal suboptimality of the 1/n-scaled objective,
P(w)/n − P(w*)/n <= G/n <= tol·‖y‖²/n (y centred and weighted). The reported ``dual_gap_`` is
G/n; ``history_`` holds P/n and G/n at the start and after every sweep (G/n is NaN after the
sweeps where it was not evaluated: it costs a pass over X).

Working sets, gap-safe screening, Anderson extrapolation
--------------------------------------------------------
With ``selection="cyclic"``, λ₁ > 0 and d >= ``WORKING_SET_MIN_FEATURES``, the same objective is
minimised by working sets (Celer: Massias, Gramfort and Salmon 2018), in
:func:`~._cd_kernels.enet_working_set_descent`; with fewer features every sweep visits all of
them, exactly as scikit-learn's (same sweeps, same ``n_iter_``). Each outer iteration:

1. one pass over X gives g = XᵀR (d,), the gap G above (over every feature, so the stopping rule
   G <= tol·‖y‖² and the reported gap are those of the full problem) and each feature's
   optimality violation vⱼ = dist(gⱼ − λ₂wⱼ, λ₁∂|wⱼ|) (0 at the optimum);
2. gap-safe screening (Fercoq, Gramfort and Salmon 2015; Ndiaye et al. 2017): the elastic net is
   a lasso on X̂ = [X; √λ₂·I], whose dual is 1-strongly concave, so the dual optimum lies within
   √(2G) of the feasible point κ[R; −√λ₂w], and

   .. math::

       s_j = \\frac{\\lambda_1 - \\kappa|g_j - \\lambda_2 w_j|}{\\sqrt{\\|X_j\\|^2 + \\lambda_2}}
       > \\sqrt{2G} \\quad\\Longrightarrow\\quad w_j^* = 0

   (without the absolute value when w >= 0): such features are set to 0 and left out;
3. the working set W is the support {j: wⱼ ≠ 0} and the features of smallest score sⱼ (the
   dual constraints nearest to violation, or violated: sⱼ < 0), |W| = min(#unscreened,
   max(``WS_MIN``, 2·|support|)). |W| follows the support down as well as up: a set that kept
   its largest size paid for features long since zero (on 1,000 × 20,000 with 960 non-zeros,
   2,974 features per epoch where 1,930 did);
4. the subproblem on W: epochs of the cyclic update above over j ∈ W only, until the largest
   violation met in an epoch is below ``INNER_FRACTION`` times the outer max vⱼ. Every
   K = ``ANDERSON_K`` epochs, with the last K + 1 iterates w⁽⁰⁾…w⁽ᴷ⁾ on W and their differences
   Uₖ = w⁽ᵏ⁺¹⁾ − w⁽ᵏ⁾ (Anderson extrapolation, Bertrand and Massias 2021):

   .. math::

       c = \\frac{(U^T U)^{-1}\\mathbf 1}{\\mathbf 1^T (U^T U)^{-1}\\mathbf 1},\\qquad
       w_e = \\sum_{k=1}^{K} c_k\\, w^{(k)},

   kept only if P(w_e) < P(w), so P never increases. Its residual needs no pass over X_W:
   R is affine in w and Σₖ cₖ = 1, so R_e = y − Xw_e = Σₖ cₖ R⁽ᵏ⁾ from the stored residuals.

``n_iter_`` then counts epochs (passes over W); ``history_`` has P/n after every epoch and G/n
at the start of every outer iteration (NaN elsewhere).

Arithmetic and threads
----------------------
Every sum over samples is split into blocks of ``BLOCK`` rows (a constant), each block summed
by :func:`_dot_range`, and the block sums added in block order. Inside a block the compiler may
split the sum into SIMD lanes (``fastmath={"reassoc"}`` on that one function, three times
faster than a fixed scalar order): the lanes depend on the CPU's vector width, so two CPUs may
differ in the last bits, but one machine gives the same bits on every run. On tall data
(n >= ``PARALLEL_MIN_ROWS``) the blocks of each coordinate's Xⱼᵀr and of the update
R ← R − δXⱼ are shared among Numba's threads; the additions are the same, so coefficients, gaps
and sweep counts are bit-for-bit the same with any number of threads and on either path. No
BLAS is called (the means are blocked sums too), so ``OPENBLAS_NUM_THREADS`` does not change
them either. The means and the centring are single passes on one thread; the threaded kernels
are compiled only when a tall problem is first seen,
so a user with small data never pays for their compilation.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..base import BaseEstimator, RegressorMixin
from ..utils import Interval, StrOptions, check_random_state, check_sample_weight
from ._base import LinearModel

__all__ = [
    "Lasso",
    "ElasticNet",
    "enet_subgradient_loss_grad",
    "WORKING_SET_MIN_FEATURES",
]

#: From this many features (and with ``selection="cyclic"`` and λ₁ > 0) the descent runs on
#: working sets; below it every sweep visits all features, exactly as scikit-learn's.
WORKING_SET_MIN_FEATURES = 50


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
    for the coordinate update, the duality-gap stopping rule, and the working sets (gap-safe
    screening, Anderson extrapolation) used from ``WORKING_SET_MIN_FEATURES`` features on.

    Parameters
    ----------
    alpha : float, default=1.0
    l1_ratio : float in [0, 1], default=0.5
    fit_intercept : bool, default=True
    max_iter : int, default=1000
        Maximum number of sweeps (cd; epochs over the working set when working sets are
        used) or gradient steps (subgradient).
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
    n_iter_ : int (one target) or list of int (one per target), as scikit-learn
    history_ : dict, or a list of one dict per target
        cd: {"objective": P(w)/n, "dual_gap": G/n}, at the start and after each sweep (G/n NaN
        where not evaluated); subgradient: GradientDescent's {"objective", "grad_norm"}.
    stop_reason_ : str
        cd: "converged" (G/n <= tol·‖y‖²/n for every target) or "max_iter"; subgradient:
        "cost_change", "grad_norm" or "max_iter". A fit that did not converge warns with
        ConvergenceWarning.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import ElasticNet
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = ElasticNet(alpha=0.01, l1_ratio=0.5).fit(X, y)
    >>> print(model.stop_reason_, int((model.coef_ == 0).sum()))
    converged 1
    >>> print(round(model.score(X, y), 3))
    0.379
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

        W, intercept, gaps, iters, hist, done = self._fit_cd(X, Y, s, rng)
        if one_target:
            W, intercept, gaps = W[0], float(intercept[0]), float(gaps[0])
            iters, hist = iters[0], hist[0]
        self.coef_, self.intercept_, self.dual_gap_ = W, intercept, gaps
        self._record_fit(
            iters,
            hist,
            "converged" if done else "max_iter",
            criterion=f"duality gap G/n <= tol·‖y‖²/n with tol={self.tol}",
        )
        return self

    def _fit_cd(self, X, Y, s, rng):
        """Coordinate descent on each column of Y, on X and Y centred, scaled by √s′ and copied
        to column order in one pass. Returns W (k, d), b (k,), G/n (k,), sweeps, histories
        and whether every target met the gap criterion."""
        # The compiled kernels are imported here: importing scratchlearn.linear_model (for a
        # Ridge, a GLM) does not import Numba, about 0.3 s.
        from ._cd_kernels import (
            PARALLEL_MIN_ROWS,
            centred_fortran,
            enet_coordinate_descent,
            enet_working_set_descent,
            weighted_means,
        )

        n, d = X.shape
        k = Y.shape[1]
        l1, l2 = n * self.alpha * self.l1_ratio, n * self.alpha * (1.0 - self.l1_ratio)
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
        working_sets = self.selection == "cyclic" and l1 > 0 and d >= WORKING_SET_MIN_FEATURES
        for t in range(k):
            objective, gap_trace = np.empty(self.max_iter + 1), np.empty(self.max_iter + 1)
            args = (W[t], Xf, Yf[:, t], l1, l2, self.max_iter, self.tol, self.positive)
            if working_sets:
                gap, it, ok = enet_working_set_descent(
                    *args, objective, gap_trace, n >= PARALLEL_MIN_ROWS
                )
            else:
                seed = int(rng.integers(2**31 - 1))
                gap, it, ok = enet_coordinate_descent(
                    *args,
                    self.selection == "random",
                    seed,
                    objective,
                    gap_trace,
                    n >= PARALLEL_MIN_ROWS,
                )
            gaps[t], done = gap / n, done and ok
            iters.append(int(it))
            hist.append({"objective": objective[: it + 1] / n, "dual_gap": gap_trace[: it + 1] / n})
        return W, m_y - W @ m_x, gaps, iters, hist, done


class Lasso(ElasticNet):
    """Linear regression with an L1 penalty: ElasticNet with ``l1_ratio=1``.

    .. math::

        \\min_{w,b} \\frac{1}{2n}\\|y - Xw - b\\|_2^2 + \\alpha\\|w\\|_1

    Coordinate descent with soft thresholding gives exact zeros. Parameters and attributes
    are those of :class:`ElasticNet` without ``l1_ratio``.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import Lasso
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = Lasso(alpha=1.0).fit(X, y)
    >>> print(np.flatnonzero(model.coef_).tolist(), model.stop_reason_)
    [2, 3, 8] converged
    >>> print(round(model.score(X, y), 3))
    0.357
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
