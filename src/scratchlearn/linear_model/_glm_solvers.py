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

Gradient descent lives in :mod:`._glm_gd`.
"""

import math

import numpy as np
from scipy import linalg

from ..optim import lbfgs
from ..utils import spd_solve

__all__ = [
    "Design",
    "fit_statistics",
    "glm_objective",
    "irls",
    "lbfgs_solve",
    "working_weights_response",
]


class Design:
    """X̃ = [X, 1] without forming it: products with the intercept column done separately.

    Appending the column would copy X (16 MB for 100,000 x 20) at every fit. The last product
    X̃β is kept, read-only: the fit statistics ask again for η at the solution, which the
    solver's last evaluation computed.
    """

    def __init__(self, X, fit_intercept):
        self.X, self.fit_intercept = X, fit_intercept
        self.shape = (X.shape[0], X.shape[1] + int(fit_intercept))
        self._last = (None, None)  # (β, X̃β) of the last product

    def dot(self, beta):
        """η = X̃β = Xw + b (read-only; the same array again for the same β)"""
        last_beta, last_eta = self._last
        if last_beta is not None and np.array_equal(beta, last_beta):
            return last_eta
        if not self.fit_intercept:
            eta = self.X @ beta
        else:
            eta = self.X @ beta[:-1]  # (n,)
            eta += beta[-1]
        eta.flags.writeable = False
        self._last = (np.array(beta, dtype=float), eta)
        return eta

    def tdot(self, r):
        """X̃ᵀr = (Xᵀr, Σr); r of shape (n,) or (n, k) (k products in one pass over X)"""
        if not self.fit_intercept:
            return self.X.T @ r
        return np.concatenate([self.X.T @ r, r.sum(axis=0, keepdims=True)])

    def gram(self, W):
        """X̃ᵀ diag(W) X̃ = AᵀA with A = diag(√W) X̃, (p, p): one scaled copy of X and a symmetric
        product (BLAS syrk: half the flops of X̃ᵀ(WX̃)). Weights that are not all ≥ 0 (a Tweedie
        power < 0 at μ < 0, or NaN) take the general product (X̃ᵀ diag(W)) X̃."""
        d = self.X.shape[1]
        if W.min() >= 0:
            r = np.sqrt(W)  # (n,)
            A = self.X * r[:, None]  # (n, d)
            XWX, XW1 = A.T @ A, A.T @ r
        else:
            XW = self.X.T * W  # (d, n)
            XWX, XW1 = XW @ self.X, XW.sum(axis=1)
        if not self.fit_intercept:
            return XWX
        H = np.empty((d + 1, d + 1))
        H[:d, :d] = XWX
        H[:d, d] = H[d, :d] = XW1  # X̃ᵀW1: the intercept column
        H[d, d] = W.sum()
        return H


_EPS = float(np.finfo(float).eps)
_WHAT = "the IRLS normal equations (X̃ᵀWX̃ + S·diag(penalty))β = X̃ᵀWz"
_UNIT_VG = {("normal", "identity"), ("poisson", "log"), ("binomial", "logit")}


def _design(Xt):
    return Xt if isinstance(Xt, Design) else Design(Xt, False)


def glm_objective(beta, Xt, y, s, family, link, penalty, split=None):
    """L(β) = D(β)/(2S) + ½ βᵀ diag(penalty) β and its gradient
    ∇L = −(1/S) X̃ᵀ[s(y − μ)/(V(μ)g′(μ))] + penalty ⊙ β.

    ``split`` = (kernel, Σ sᵢc(yᵢ)) from :meth:`Family.deviance_split` is the fast path: the
    y-only part of the deviance is summed once instead of at every evaluation (same value).
    """
    Xt = _design(Xt)  # a plain (n, p) array, or a Design with an implicit intercept column
    S = s.sum()
    eta = Xt.dot(beta)  # (n,)
    mu = link.inverse(eta)
    if not family.valid_mu(mu):  # outside the mean domain: an infinitely bad point
        return np.inf, np.full_like(beta, np.nan)
    if split is None:
        dev = s @ family.unit_deviance(y, mu)
    else:
        kernel, const = split
        log_mu = link.log_inverse(eta) if link.name == "log" else None  # log μ = η
        dev = s @ kernel(y, mu, log_mu) + const
    J = dev / (2.0 * S) + 0.5 * beta @ (penalty * beta)
    return float(J), _gradient(Xt, y, s, family, link, penalty, beta, mu, S)


def working_weights_response(family, link, y, s, eta, mu):
    """W = s/(g′(μ)²V(μ)) and z = η + g′(μ)(y − μ), with μ clipped into the open domain; rows
    whose W or z is not finite (μ at the edge of the domain, e.g. under separation) get W = 0."""
    mu = family.clip_mu(mu)
    gp = link.deriv(mu)  # g′(μ)
    with np.errstate(all="ignore"):
        W = s / (gp * gp * family.variance(mu))  # (n,)
        z = eta + gp * (y - mu)
    bad = ~(np.isfinite(W) & np.isfinite(z))
    if bad.any():
        W, z = np.where(bad, 0.0, W), np.where(bad, 0.0, z)
    return W, z


def _residual(y, s, family, link, mu):
    """r = s(y − μ)/(V(μ)g′(μ)), so that ∇L = −(1/S) X̃ᵀr + penalty ⊙ β (μ clipped into the
    open domain), built in one buffer (in-place ufuncs)."""
    r = np.subtract(y, mu)  # (n,)
    r *= s
    if (family.name, link.name) not in _UNIT_VG:  # V(μ)g′(μ) = 1 for the canonical pairs
        mu_c = family.clip_mu(mu)  # domain guard: V(μ)g′(μ) stays finite and non-zero
        r /= family.variance(mu_c) * link.deriv(mu_c)
    return r


def _gradient(Xt, y, s, family, link, penalty, beta, mu, S=None):
    """∇L = −(1/S) X̃ᵀ[s(y − μ)/(V(μ)g′(μ))] + penalty ⊙ β (μ clipped into the open domain)."""
    S = s.sum() if S is None else S
    return -Xt.tdot(_residual(y, s, family, link, mu)) / S + penalty * beta


def _irls_start(evaluate, Xt, family, link, y, s, penalty, beta0, beta_fallback):
    """β₀, (η, μ, L, D) there, and μ₀ when β₀ came from one weighted least squares at μ₀:
    ``beta0`` when L is finite at it; else the weighted least squares at statsmodels'
    μ₀ = (y + ȳ)/2; else, when that leaves the mean domain, ``beta_fallback`` (the
    intercept-only fit)."""
    if beta0 is not None:
        state = evaluate(beta0)
        if np.isfinite(state[2]):
            return beta0, state, None
    mu0 = family.starting_mu(y, s)
    W, z = working_weights_response(family, link, y, s, link.link(mu0), mu0)
    H = Xt.gram(W)  # X̃ᵀWX̃, (p, p)
    H[np.diag_indices_from(H)] += s.sum() * penalty
    beta = spd_solve(H, Xt.tdot(W * z), what=_WHAT)
    state = evaluate(beta)
    if np.isfinite(state[2]):
        return beta, state, mu0
    if beta_fallback is not None:
        state = evaluate(beta_fallback)
        if np.isfinite(state[2]):
            return beta_fallback, state, None
    raise ValueError(
        "IRLS could not find coefficients with finite deviance from the starting values; try "
        "another link (e.g. 'log') or scale the features."
    )


def irls(Xt, y, s, family, link, penalty, beta0, max_iter, tol, beta_fallback=None, split=None):
    """(X̃ᵀWX̃ + S·diag(penalty))β = X̃ᵀWz with z = η + g′(μ)(y − μ), W = s/(g′(μ)²V(μ)).

    Stops when ‖∇L(β)‖∞ ≤ tol ("grad_norm"). That bounds the coefficient error: where L is
    μ-strongly convex around its minimiser β*, ‖β − β*‖₂ ≤ ‖∇L(β)‖₂/μ ≤ √p·tol/μ. (A rule on
    the change of the deviance, such as R's |ΔD| ≤ tol·(|D| + 0.1), only bounds the error by
    about √tol, since L is flat to second order at β*.)

    A step that raises L by more than its rounding noise (or leaves the mean domain) is halved,
    up to 40 times. That noise is 64ε(|L| + Σ sᵢ|kᵢ|/(2S) + |Σ sᵢcᵢ|/(2S)), with d = k(y, μ) +
    c(y) the family's split of the unit deviance (``split``): the rounding of the terms whose
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
    Xt = _design(Xt)
    S = s.sum()

    def evaluate(beta):
        eta = Xt.dot(beta)
        mu = link.inverse(eta)
        if not family.valid_mu(mu):
            return eta, mu, np.inf, np.inf
        dev = family.deviance(y, mu, s)  # exact form: the stopping rule needs its precision
        if not np.isfinite(dev):
            return eta, mu, np.inf, np.inf
        return eta, mu, dev / (2.0 * S) + 0.5 * beta @ (penalty * beta), dev

    kernel, c_sum = split if split is not None else (family.unit_deviance, 0.0)

    def noise_at(L, mu):
        """64ε(|L| + Σ sᵢ|kᵢ|/(2S) + |Σ sᵢcᵢ|/(2S)): the rounding noise of L at μ."""
        with np.errstate(all="ignore"):
            res = float(s @ np.abs(kernel(y, family.clip_mu(mu))) + abs(c_sum)) / (2.0 * S)
        return 64 * _EPS * (abs(L) + res)

    def record(beta, eta, mu, L, dev):
        """History entry at β; returns ‖∇L‖∞ and the next step's W and X̃ᵀWz at the same μ
        (X̃ᵀ applied to [r, Wz] in one pass over X, r as in :func:`_residual`)."""
        W, z = working_weights_response(family, link, y, s, eta, mu)
        T = Xt.tdot(np.column_stack([_residual(y, s, family, link, mu), W * z]))  # (p, 2)
        g = float(np.max(np.abs(-T[:, 0] / S + penalty * beta)))
        hist["objective"].append(float(L)), hist["deviance"].append(float(dev))
        hist["grad_norm"].append(g)
        return g, W, T[:, 1]

    hist = {"objective": [], "deviance": [], "grad_norm": []}
    beta, (eta, mu, L, dev), mu0 = _irls_start(
        evaluate, Xt, family, link, y, s, penalty, beta0, beta_fallback
    )
    it = 0
    if mu0 is not None:  # the start is μ₀ and the first iteration its least squares
        dev0 = family.deviance(y, mu0, s)
        g0 = float(
            np.max(np.abs(_gradient(Xt, y, s, family, link, penalty, np.zeros_like(beta), mu0, S)))
        )
        hist["objective"].append(dev0 / (2.0 * S)), hist["deviance"].append(float(dev0))
        hist["grad_norm"].append(g0)
        it = 1
    g_best, W, rhs = record(beta, eta, mu, L, dev)
    stop = "grad_norm" if g_best <= tol else None
    n_stuck = 0
    while stop is None and it < max_iter:
        H = Xt.gram(W)  # X̃ᵀWX̃, (p, p)
        H[np.diag_indices_from(H)] += S * penalty
        beta_new = spd_solve(H, rhs, what=_WHAT)
        eta_new, mu_new, L_new, dev_new = evaluate(beta_new)
        noise = None  # rounding noise of L at μ: only a rising or flat step needs it
        if not (L_new <= L):
            noise = noise_at(L, mu)
        halvings = 0
        while not (L_new <= L + (noise or 0.0)) and halvings < 40:  # step halving
            beta_new = 0.5 * (beta + beta_new)
            eta_new, mu_new, L_new, dev_new = evaluate(beta_new)
            halvings += 1
        if not (L_new <= L + (noise or 0.0)):
            stop = "stalled"  # no halved step keeps L from rising: at its resolution
            break
        it += 1
        L_old, mu_old = L, mu
        beta, eta, mu, L = beta_new, eta_new, mu_new, L_new
        g, W, rhs = record(beta, eta, mu, L, dev_new)
        if g > 0.9 * g_best:  # no new best: is L flat, |ΔL| within its noise?
            noise = noise_at(L_old, mu_old) if noise is None else noise
            n_stuck = n_stuck + 1 if abs(L_old - L) <= noise else 0
        else:
            n_stuck = 0
        g_best = min(g_best, g)
        if g <= tol:
            stop = "grad_norm"
        elif n_stuck >= 3:
            stop = "stalled"
    return beta, it, stop or "max_iter", hist


def lbfgs_solve(Xt, y, s, family, link, penalty, beta0, max_iter, tol, split=None):
    """min_β L(β) by L-BFGS (:func:`scratchlearn.optim.lbfgs`) on :func:`glm_objective`, stopping
    when ‖∇L‖∞ ≤ tol ("grad_norm"; no stop on the change of L, which is flat to second order
    at the minimum); a failed line search ends it with "stalled". Returns (β, n_iter,
    stop_reason, history {"objective", "grad_norm"})."""

    def fun(beta):
        return glm_objective(beta, Xt, y, s, family, link, penalty, split)

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
def fit_statistics(Xt, y, s, family, link, beta, split, alpha, series_loglike=True):
    """D = Σ sᵢ d(yᵢ, μᵢ), the null deviance (μ = weighted ȳ, or g⁻¹(0) without an intercept),
    φ̂ = Σ sᵢ(yᵢ − μᵢ)²/V(μᵢ) / (n − p), ℓ at φ = scale, AIC = −2ℓ + 2p, BIC = −2ℓ + p log n and
    se = √diag(φ(X̃ᵀWX̃)⁻¹) (NaN when alpha > 0). Keys: deviance, null_deviance, dispersion,
    scale, llf, aic, bic, bse.

    ``series_loglike=False`` skips the one log-likelihood that is an infinite series, the
    compound Poisson-gamma (Tweedie 1 < p < 2: Wright's Bessel function per positive yᵢ, many
    times the cost of the fit), leaving ℓ, AIC and BIC NaN."""
    Xt = _design(Xt)
    n, p = Xt.shape
    eta = Xt.dot(beta)
    mu = link.inverse(eta)
    log_mu = link.log_inverse(eta) if link.name == "log" else None  # log μ = η
    kernel, const = split  # D = Σ sᵢ kernel(yᵢ, μᵢ) + const, the y-only part summed once
    out = {"deviance": max(float(s @ kernel(y, mu, log_mu) + const), 0.0)}
    mu0 = np.average(y, weights=s) if Xt.fit_intercept else link.inverse(np.zeros(1))[0]
    log_mu0 = np.full(n, math.log(mu0)) if mu0 > 0 else None  # one log for the constant μ₀
    out["null_deviance"] = max(float(s @ kernel(y, np.full(n, mu0), log_mu0) + const), 0.0)
    V = family.variance(mu)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["dispersion"] = float(np.sum(s * (y - mu) ** 2 / V) / (n - p)) if n > p else np.nan
    scale = out["scale"] = 1.0 if family.fixed_scale else out["dispersion"]
    if family.name == "normal" and link.name == "identity":
        llf_scale = float(np.sum(s * (y - mu) ** 2) / n)  # concentrated likelihood
    else:
        llf_scale = scale
    skip = not series_loglike and family.name == "tweedie" and 1 < family.power < 2
    with np.errstate(all="ignore"):
        ok = llf_scale > 0 and not skip
        llf = out["llf"] = family.loglike(y, mu, s, llf_scale) if ok else np.nan
    out["aic"] = -2.0 * llf + 2.0 * p
    out["bic"] = -2.0 * llf + p * math.log(n)
    out["bse"] = np.full(p, np.nan)
    if alpha == 0 and np.isfinite(scale):
        W = working_weights_response(family, link, y, s, Xt.dot(beta), mu)[0]
        info = Xt.gram(W)  # Fisher information I = X̃ᵀWX̃ (φ = 1)
        out["bse"] = np.sqrt(scale * _inverse_diagonal(info))
    return out
