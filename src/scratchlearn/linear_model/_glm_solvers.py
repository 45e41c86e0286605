"""Solvers of the penalised GLM objective: IRLS (Fisher scoring), its L-BFGS objective and
gradient, and gradient descent in standardised coordinates.

Symbols
-------
n, d     samples, features; p = d (+1 with an intercept) parameters β = (w, b)
X̃        design matrix with a column of ones appended when there is an intercept, (n, p)
s        sample weights (the number of trials for the binomial family); S = Σ sᵢ
μ, η     mean and linear predictor, η = X̃β, μ = g⁻¹(η)
V(μ)     variance function; d(y, μ) unit deviance; D = Σ sᵢ d(yᵢ, μᵢ) the deviance
penalty  per-parameter L2 weights: α for w, 0 for b

Objective:

.. math::

    L(β) = \\frac{D(β)}{2S} + \\tfrac12 β^T \\operatorname{diag}(\\text{penalty})\\, β,
    \\qquad
    ∇L = -\\frac1S \\tilde X^T\\Big[\\frac{s(y-μ)}{V(μ)g'(μ)}\\Big] + \\text{penalty} ⊙ β

IRLS / Fisher scoring: with the working response and weights at the current μ

    zᵢ = ηᵢ + g′(μᵢ)(yᵢ − μᵢ),    Wᵢ = sᵢ / (g′(μᵢ)² V(μᵢ)),

the next β solves the penalised weighted least squares (X̃ᵀWX̃ + S·diag(penalty))β = X̃ᵀWz
(:func:`scratchlearn.utils.spd_solve`: Cholesky, minimum-norm least squares when singular). A
step that increases L (or leaves the mean domain) is halved until it does not. It stops when
‖∇L‖∞ ≤ tol, which bounds the coefficient error (see :func:`irls`).

The solvers never see rows: every quantity they need from the data (D, X̃ᵀr, X̃ᵀWz, X̃ᵀWX̃)
comes from a block statistic of :mod:`._glm_blocks` summed over the row blocks of a
:class:`~._glm_blocks.GLMData` (one block in memory, the blocks of a Dask array otherwise):
one pass over the data per evaluation of β. Gradient descent lives in :mod:`._glm_gd`.
"""

import math

import numpy as np
from scipy import linalg

from ..optim import lbfgs
from ..utils import spd_solve
from ._glm_blocks import (  # noqa: F401  (Design, working_weights_response re-exported)
    Design,
    final_stat,
    loglike_stat,
    objective_stat,
    objective_value,
    working_weights_response,
)

__all__ = [
    "Design",
    "fit_statistics",
    "glm_objective",
    "irls",
    "lbfgs_solve",
    "working_weights_response",
]

_EPS = float(np.finfo(float).eps)
_WHAT = "the IRLS normal equations (X̃ᵀWX̃ + S·diag(penalty))β = X̃ᵀWz"


def _design(Xt):
    return Xt if isinstance(Xt, Design) else Design(Xt, False)


def glm_objective(beta, Xt, y, s, family, link, penalty, split=None):
    """L(β) = D(β)/(2S) + ½ βᵀ diag(penalty) β and its gradient
    ∇L = −(1/S) X̃ᵀ[s(y − μ)/(V(μ)g′(μ))] + penalty ⊙ β, on in-memory data (the one-block
    case of :meth:`GLMData.objective <._glm_blocks.GLMData.objective>`).

    ``split`` = (kernel, Σ sᵢc(yᵢ)) from :meth:`Family.deviance_split` is the fast path: the
    y-only part of the deviance is summed once instead of at every evaluation (same value).
    """
    Xt = _design(Xt)  # a plain (n, p) array, or a Design with an implicit intercept column
    kernel, const = split if split is not None else (None, 0.0)
    t = objective_stat(Xt, y, s, beta, family, link, Xt.fit_intercept, kernel)
    return objective_value(t, beta, s.sum(), const, penalty)


class _Point:
    """One IRLS evaluation at β (None: the starting μ₀): L, D, ‖∇L‖∞, the penalised
    X̃ᵀWX̃ + S·diag(penalty) and X̃ᵀWz of the next step, and the noise sum when known.

    In memory the normal equations wait for :meth:`step`: the last point of a fit (converged)
    and the rejected halvings never take a step, and their Gram product X̃ᵀWX̃ was most of
    an evaluation's cost (Poisson newton-cholesky 100,000 x 20: 4 products for 3 iterations,
    now 3). They then cost a second pass, which on Dask would be a second pass over the
    cluster's blocks: there the point gathers everything at once."""

    def __init__(self, data, beta, penalty):
        lazy = beta is not None and not data.dask
        t = data.irls(beta, "point" if lazy else "all")
        S, self.beta = data.S, beta
        self._data, self._penalty, self._system = data, penalty, None
        self.noise_sum = t.get("noise")
        if beta is not None and (t["n_bad"] or not np.isfinite(t["dev"])):
            self.L = self.dev = np.inf
            return
        self.dev = t["dev"]
        if beta is None:  # at μ₀ no coefficients exist to penalise
            self.L = self.dev / (2.0 * S)
            self.g = float(np.max(np.abs(-t["XTr"] / S)))
        else:
            self.L = self.dev / (2.0 * S) + 0.5 * beta @ (penalty * beta)
            self.g = float(np.max(np.abs(-t["XTr"] / S + penalty * beta)))
        if not lazy:
            self._system = self._penalised(t)

    def _penalised(self, t):
        H = t["H"]
        H[np.diag_indices_from(H)] += self._data.S * self._penalty
        return H, t["XTWz"]

    def step(self):
        """β of the penalised weighted least squares at this point."""
        if self._system is None:
            self._system = self._penalised(self._data.irls(self.beta, "system"))
        return spd_solve(*self._system, what=_WHAT)


def _irls_start(data, penalty, beta0, beta_fallback):
    """(β₀, its point, the μ₀ point or None): ``beta0`` when L is finite at it; else the
    weighted least squares at statsmodels' μ₀ = (y + ȳ)/2; else, when that leaves the mean
    domain, ``beta_fallback`` (the intercept-only fit)."""
    if beta0 is not None:
        point = _Point(data, beta0, penalty)
        if np.isfinite(point.L):
            return beta0, point, None
    at_mu0 = _Point(data, None, penalty)
    beta = at_mu0.step()
    point = _Point(data, beta, penalty)
    if np.isfinite(point.L):
        return beta, point, at_mu0
    if beta_fallback is not None:
        point = _Point(data, beta_fallback, penalty)
        if np.isfinite(point.L):
            return beta_fallback, point, None
    raise ValueError(
        "IRLS could not find coefficients with finite deviance from the starting values; try "
        "another link (e.g. 'log') or scale the features."
    )


def irls(data, penalty, beta0, max_iter, tol, beta_fallback=None):
    """(X̃ᵀWX̃ + S·diag(penalty))β = X̃ᵀWz with z = η + g′(μ)(y − μ), W = s/(g′(μ)²V(μ)).

    ``data`` is a :class:`~._glm_blocks.GLMData`: each evaluation of a β
    (:func:`~._glm_blocks.irls_stat`) gives L and ‖∇L‖∞ there, and the normal equations of the
    next step when one is taken from it (see :class:`_Point`: in memory a second pass, on Dask
    the same one).

    Stops when ‖∇L(β)‖∞ ≤ tol ("grad_norm"). That bounds the coefficient error: where L is
    μ-strongly convex around its minimiser β*, ‖β − β*‖₂ ≤ ‖∇L(β)‖₂/μ ≤ √p·tol/μ. (A rule on
    the change of the deviance, such as R's |ΔD| ≤ tol·(|D| + 0.1), only bounds the error by
    about √tol, since L is flat to second order at β*.)

    A step that raises L by more than its rounding noise (or leaves the mean domain) is halved,
    up to 40 times. That noise is 64ε(|L| + Σ sᵢ|kᵢ|/(2S) + |Σ sᵢcᵢ|/(2S)), with d = k(y, μ) +
    c(y) the family's split of the unit deviance: the rounding of the terms whose
    cancellation makes D, not just of their small difference L (a saturated binomial fit has
    L* = 0 from O(1) terms). Steps within the noise are taken, since Fisher scoring keeps
    contracting the coefficients below the objective's resolution. The run stops with
    "stalled" when no halved step is acceptable, or when three steps in a row leave L flat
    without lowering the best gradient norm by a tenth: ∇L has reached its own rounding floor
    above ``tol``. (A slow but steady contraction, ‖∇L‖ × 0.79 per step on star98's binomial-log
    fit, sets a new best every step and keeps going; an earlier rule that asked for a halving
    within three steps called it stalled.) The start β₀ is ``beta0``, else the weighted least
    squares at μ₀ = family.starting_mu, else (when that leaves the mean domain) ``beta_fallback``.

    Returns (β, n_iter, stop_reason, history) with history = {"objective": L, "deviance": D,
    "grad_norm": ‖∇L‖∞}, one entry for the start and one per iteration. A start at μ₀ counts
    its least squares as the first iteration; its entry has L = D(μ₀)/(2S) and the gradient's
    deviance part (no coefficients exist there to penalise).
    """
    S = data.S

    def noise_at(point):
        """64ε(|L| + Σ sᵢ|kᵢ|/(2S) + |Σ sᵢcᵢ|/(2S)): the rounding noise of L at the point."""
        k = point.noise_sum if point.noise_sum is not None else data.noise(point.beta)
        return 64 * _EPS * (abs(point.L) + float(k + abs(data.c_sum)) / (2.0 * S))

    def record(point):
        hist["objective"].append(float(point.L)), hist["deviance"].append(float(point.dev))
        hist["grad_norm"].append(point.g)

    hist = {"objective": [], "deviance": [], "grad_norm": []}
    beta, cur, at_mu0 = _irls_start(data, penalty, beta0, beta_fallback)
    it = 0
    if at_mu0 is not None:  # the start is μ₀ and the first iteration its least squares
        record(at_mu0)
        it = 1
    record(cur)
    g_best = cur.g
    stop = "grad_norm" if g_best <= tol else None
    n_stuck = 0
    while stop is None and it < max_iter:
        beta_new = cur.step()
        new = _Point(data, beta_new, penalty)
        noise = None  # rounding noise of L at the current point: only a rising step needs it
        if not (new.L <= cur.L):
            noise = noise_at(cur)
        halvings = 0
        while not (new.L <= cur.L + (noise or 0.0)) and halvings < 40:  # step halving
            beta_new = 0.5 * (beta + beta_new)
            new = _Point(data, beta_new, penalty)
            halvings += 1
        if not (new.L <= cur.L + (noise or 0.0)):
            stop = "stalled"  # no halved step keeps L from rising: at its resolution
            break
        it += 1
        old = cur
        beta, cur = beta_new, new
        record(cur)
        if cur.g > 0.9 * g_best:  # no new best: is L flat, |ΔL| within its noise?
            noise = noise_at(old) if noise is None else noise
            n_stuck = n_stuck + 1 if abs(old.L - cur.L) <= noise else 0
        else:
            n_stuck = 0
        g_best = min(g_best, cur.g)
        if cur.g <= tol:
            stop = "grad_norm"
        elif n_stuck >= 3:
            stop = "stalled"
    return beta, it, stop or "max_iter", hist


def lbfgs_solve(data, penalty, beta0, max_iter, tol):
    """min_β L(β) by L-BFGS (:func:`scratchlearn.optim.lbfgs`) on
    :meth:`GLMData.objective <._glm_blocks.GLMData.objective>` (one pass over the data per
    evaluation), stopping when ‖∇L‖∞ ≤ tol ("grad_norm"; no stop on the change of L, which is
    flat to second order at the minimum); a failed line search ends it with "stalled". Returns
    (β, n_iter, stop_reason, history {"objective", "grad_norm"})."""

    def fun(beta):
        return data.objective(beta, penalty)

    with np.errstate(all="ignore"):  # trial points outside the mean domain give L = inf
        res = lbfgs(fun, beta0, gtol=tol, ftol=0.0, max_iter=max_iter, warn=False)
    # ftol = 0 stops only on a step that left L exactly unchanged: no decrease, ‖∇L‖∞ > tol
    stop = "stalled" if res.stop_reason == "cost_change" else res.stop_reason
    return res.x, res.n_iter, stop, res.history


def _inverse_diagonal(A):
    """diag(A⁻¹) for symmetric positive definite A = LLᵀ: A⁻¹ = L⁻ᵀL⁻¹, so (A⁻¹)ⱼⱼ is the
    squared norm of column j of L⁻¹ (one triangular solve, no inverse of A). NaN when A is
    singular: the standard errors are then undefined."""
    try:
        Lc = linalg.cholesky(A, lower=True, check_finite=False)
    except (linalg.LinAlgError, ValueError):
        return np.full(A.shape[0], np.nan)
    Linv = linalg.solve_triangular(Lc, np.eye(A.shape[0]), lower=True, check_finite=False)
    return np.sum(Linv * Linv, axis=0)  # (p,)


# -- fit statistics -----------------------------------------------------------------------------
def fit_statistics(data, beta, alpha, series_loglike=True):
    """D = Σ sᵢ d(yᵢ, μᵢ), the null deviance (μ = weighted ȳ, or g⁻¹(0) without an intercept),
    φ̂ = Σ sᵢ(yᵢ − μᵢ)²/V(μᵢ) / (n − p), ℓ at φ = scale, AIC = −2ℓ + 2p, BIC = −2ℓ + p log n and
    se = √diag(φ(X̃ᵀWX̃)⁻¹) (NaN when alpha > 0). Keys: deviance, null_deviance, dispersion,
    scale, llf, aic, bic, bse, and n_edge (binomial μ within 10ε of 0 or 1). One pass over the
    data (:func:`~._glm_blocks.final_stat`); ℓ from its kernel sum where the family allows
    (:meth:`~._glm_family.Family.loglike_from_kernel`: Poisson, binomial, gamma), else a second
    pass (it needs φ, which the first pass estimates).

    ``series_loglike=False`` skips the one log-likelihood that is an infinite series, the
    compound Poisson-gamma (Tweedie 1 < p < 2: Wright's Bessel function per positive yᵢ, many
    times the cost of the fit), leaving ℓ, AIC and BIC NaN."""
    family, link = data.family, data.link
    n, p = data.n, data.p
    mu0 = data.ybar if data.fit_intercept else link.inverse(np.zeros(1))[0]
    normal_identity = family.name == "normal" and link.name == "identity"
    known = 1.0 if family.fixed_scale and not normal_identity else None  # ℓ in the same pass
    t = data._reduce(
        final_stat, beta, family, link, data.fit_intercept, data.kernel, mu0, alpha == 0, known
    )
    out = {"deviance": max(t["dev"] + data.c_sum, 0.0)}
    out["null_deviance"] = max(t["null"] + data.c_sum, 0.0)
    out["dispersion"] = float(t["pearson"] / (n - p)) if n > p else np.nan
    scale = out["scale"] = 1.0 if family.fixed_scale else out["dispersion"]
    if normal_identity:
        llf_scale = float(t["rss"] / n)  # concentrated likelihood
    else:
        llf_scale = scale
    skip = not series_loglike and family.name == "tweedie" and 1 < family.power < 2
    ok = llf_scale > 0 and not skip
    if not ok:
        llf = np.nan
    elif known is not None:
        llf = float(t["llf"])
    else:  # φ estimated from this pass's Pearson χ²: from the kernel sum, or a second pass
        llf = None
        if not data.dask and len(data.y):
            s = np.ones(data.n) if data.s is None else data.s
            llf = family.loglike_from_kernel(t["dev"], data.y, s, llf_scale)
        if llf is None:
            llf = data._reduce(loglike_stat, beta, family, link, data.fit_intercept, llf_scale)
        llf = float(llf)
    out["llf"] = llf
    out["aic"] = -2.0 * llf + 2.0 * p
    out["bic"] = -2.0 * llf + p * math.log(n)
    out["bse"] = np.full(p, np.nan)
    if alpha == 0 and np.isfinite(scale):
        out["bse"] = np.sqrt(scale * _inverse_diagonal(t["info"]))
    out["n_edge"] = t["n_edge"]
    return out
