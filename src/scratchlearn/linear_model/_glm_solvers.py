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
T, θ     standardising map β = Tθ (gradient descent only), θ the standardised coefficients

Objective:

.. math::

    L(β) = \\frac{D(β)}{2S} + \\tfrac12 β^T \\operatorname{diag}(\\text{penalty})\\, β,
    \\qquad
    ∇L = -\\frac1S \\tilde X^T\\Big[\\frac{s(y-μ)}{V(μ)g'(μ)}\\Big] + \\text{penalty} ⊙ β

IRLS / Fisher scoring: with the working response and weights at the current μ

    zᵢ = ηᵢ + g′(μᵢ)(yᵢ − μᵢ),    Wᵢ = sᵢ / (g′(μᵢ)² V(μᵢ)),

the next β solves the penalised weighted least squares (X̃ᵀWX̃ + S·diag(penalty))β = X̃ᵀWz, by
Cholesky, falling back to least squares when singular. A step that increases L (or leaves the
mean domain) is halved until it does not. It stops when the penalised deviance D_α = 2S·L
changes by |ΔD_α| ≤ tol·(|D_α| + 0.1) (R's glm criterion).

Gradient descent: θₜ₊₁ = θₜ − η Tᵀ∇L(Tθₜ) on the standardised columns (x − m)/σ; see
:func:`gradient_descent`.
"""

import math
import warnings

import numpy as np
from scipy import linalg

from ..exceptions import ConvergenceWarning, DivergenceError
from ..optim import GradientDescent, lbfgs

__all__ = [
    "Design",
    "fit_statistics",
    "glm_objective",
    "gradient_descent",
    "irls",
    "lbfgs_solve",
    "standardised_objective",
    "standardising_map",
    "working_weights_response",
]


class Design:
    """X̃ = [X, 1] without forming it: products with the intercept column done separately.

    Appending the column would copy X (16 MB for 100,000 x 20) at every fit.
    """

    def __init__(self, X, fit_intercept):
        self.X, self.fit_intercept = X, fit_intercept
        self.shape = (X.shape[0], X.shape[1] + int(fit_intercept))

    def dot(self, beta):
        """η = X̃β = Xw + b"""
        if not self.fit_intercept:
            return self.X @ beta
        eta = self.X @ beta[:-1]  # (n,)
        eta += beta[-1]
        return eta

    def tdot(self, r):
        """X̃ᵀr = (Xᵀr, Σr)"""
        if not self.fit_intercept:
            return self.X.T @ r
        return np.append(self.X.T @ r, r.sum())

    def gram(self, W):
        """X̃ᵀ diag(W) X̃, (p, p)"""
        XW = self.X.T * W  # (d, n)
        if not self.fit_intercept:
            return XW @ self.X
        d = self.X.shape[1]
        H = np.empty((d + 1, d + 1))
        H[:d, :d] = XW @ self.X
        H[:d, d] = H[d, :d] = XW.sum(axis=1)
        H[d, d] = W.sum()
        return H


_SQRT_EPS = float(np.sqrt(np.finfo(float).eps))
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
        dev = s @ kernel(y, mu) + const
    J = dev / (2.0 * S) + 0.5 * beta @ (penalty * beta)
    if (family.name, link.name) in _UNIT_VG:
        r = s * (y - mu)  # V(μ)g′(μ) = 1 for these canonical pairs
    else:
        mu_c = family.clip_mu(mu)  # domain guard: V(μ)g′(μ) stays finite and non-zero
        r = s * (y - mu) / (family.variance(mu_c) * link.deriv(mu_c))  # (n,)
    grad = -Xt.tdot(r) / S + penalty * beta
    return float(J), grad


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


def _solve_spd(H, r):
    """β = H⁻¹r by Cholesky; minimum-norm least squares when H is singular."""
    try:
        return linalg.cho_solve(linalg.cho_factor(H, lower=True), r)
    except linalg.LinAlgError:
        return linalg.lstsq(H, r)[0]


def irls(Xt, y, s, family, link, penalty, beta0, max_iter, tol, beta_fallback=None):
    """(X̃ᵀWX̃ + S·diag(penalty))β = X̃ᵀWz with z = η + g′(μ)(y − μ), W = s/(g′(μ)²V(μ)).

    Returns (β, n_iter, stop_reason, history) with history = {"J": L per iteration,
    "deviance": D per iteration}. ``beta0`` None starts from μ₀ = family.starting_mu; when the
    first solution leaves the mean domain, the step is halved from ``beta_fallback`` (the
    intercept-only fit) instead. The stopping test is R's, on the penalised deviance
    D_α = 2S·L: |ΔD_α| ≤ tol·(|D_α| + 0.1) ("cost_change"). Steps that change L by less than
    its rounding noise 64ε|L| are taken (Fisher scoring still contracts the coefficients), and
    the run stops with "converged" once such a step also moves β by at most √ε(1 + ‖β‖∞), or
    after three of them.
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

    if beta0 is None:
        beta, L = None, np.inf
        mu = family.starting_mu(y, s)
        eta = link.link(mu)
    else:
        beta = beta0
        eta, mu, L, _ = evaluate(beta)
        if not np.isfinite(L):
            beta, L = None, np.inf
            mu = family.starting_mu(y, s)
            eta = link.link(mu)
    hist = {"J": [], "deviance": []}
    stop, n_flat = None, 0
    for it in range(1, max_iter + 1):
        W, z = working_weights_response(family, link, y, s, eta, mu)
        H = Xt.gram(W)  # X̃ᵀWX̃, (p, p)
        H[np.diag_indices_from(H)] += S * penalty
        beta_new = _solve_spd(H, Xt.tdot(W * z))
        eta_new, mu_new, L_new, dev_new = evaluate(beta_new)
        if beta is None and not np.isfinite(L_new) and beta_fallback is not None:
            L_fb = evaluate(beta_fallback)[2]
            if np.isfinite(L_fb):
                beta, L = beta_fallback, L_fb
        # rounding noise of L: a full step that "increases" L by less is still taken, since
        # Fisher scoring keeps contracting the coefficients below the objective's resolution
        noise = 64 * np.finfo(float).eps * abs(L) if np.isfinite(L) else 0.0
        halvings = 0
        while beta is not None and not (L_new <= L + noise) and halvings < 40:  # step halving
            beta_new = 0.5 * (beta + beta_new)
            eta_new, mu_new, L_new, dev_new = evaluate(beta_new)
            halvings += 1
        if not np.isfinite(L_new) or (beta is not None and not (L_new <= L + noise)):
            if beta is None:
                raise ValueError(
                    "IRLS could not find coefficients with finite deviance from the starting "
                    "values; try another link (e.g. 'log') or scale the features."
                )
            stop = "converged"  # no halved step decreases L: at the precision limit
            it -= 1
            break
        converged = 2.0 * S * abs(L - L_new) <= tol * (2.0 * S * abs(L_new) + 0.1)
        # flat to rounding: stop once the coefficients have stopped moving too (or after three
        # flat steps, for ill-conditioned X whose solves are themselves noisy)
        n_flat = n_flat + 1 if abs(L - L_new) <= noise else 0
        step = np.max(np.abs(beta_new - beta)) if beta is not None else np.inf
        still = step <= _SQRT_EPS * (1.0 + np.max(np.abs(beta_new)))
        at_resolution = n_flat > 0 and (still or n_flat >= 3)
        beta, eta, mu, L = beta_new, eta_new, mu_new, L_new
        hist["J"].append(float(L))
        hist["deviance"].append(float(dev_new))
        if converged or at_resolution:
            stop = "cost_change" if converged else "converged"
            break
    return beta, it, stop or "max_iter", hist


def lbfgs_solve(Xt, y, s, family, link, penalty, beta0, max_iter, tol, split=None):
    """min_β L(β) by L-BFGS (:func:`scratchlearn.optim.lbfgs`) on :func:`glm_objective`, stopping
    when ‖∇L‖∞ ≤ tol; returns (β, n_iter, stop_reason, history {"J", "grad_norm"})."""

    def fun(beta):
        return glm_objective(beta, Xt, y, s, family, link, penalty, split)

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", ConvergenceWarning)  # re-issued by the caller
        res = lbfgs(fun, beta0, gtol=tol, ftol=64 * np.finfo(float).eps, max_iter=max_iter)
    return res.x, res.n_iter, res.stop_reason, res.history


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
    mu = link.inverse(Xt.dot(beta))
    kernel, const = split  # D = Σ sᵢ kernel(yᵢ, μᵢ) + const, the y-only part summed once
    out = {"deviance": max(float(s @ kernel(y, mu) + const), 0.0)}
    mu0 = np.average(y, weights=s) if Xt.fit_intercept else link.inverse(np.zeros(1))[0]
    out["null_deviance"] = max(float(s @ kernel(y, np.full(n, mu0)) + const), 0.0)
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
        try:
            c = linalg.cho_factor(info, lower=True)
            cov_diag = np.diag(linalg.cho_solve(c, np.eye(p)))  # diag(I⁻¹) by Cholesky
            out["bse"] = np.sqrt(scale * cov_diag)
        except (linalg.LinAlgError, ValueError):
            pass  # singular information: standard errors undefined, left as NaN
    return out


# -- gradient descent ---------------------------------------------------------------------------
def standardising_map(X, s, fit_intercept):
    """β = Tθ with w = θ_w/σ, b = θ_b − mᵀ(θ_w/σ): θ are the coefficients of the standardised
    columns (x − m)/σ, m and σ the s-weighted column means and standard deviations (m = 0 and σ
    the root mean square without an intercept; σ = 1 for constant columns). Returns T, (p, p).
    """
    S = s.sum()
    d = X.shape[1]
    m = (s @ X) / S if fit_intercept else np.zeros(d)  # (d,)
    sigma = np.sqrt((s @ (X - m) ** 2) / S)
    sigma = np.where(sigma > 0, sigma, 1.0)
    p = d + int(fit_intercept)
    T = np.zeros((p, p))
    T[np.arange(d), np.arange(d)] = 1.0 / sigma
    if fit_intercept:
        T[d, :d] = -m / sigma
        T[d, d] = 1.0
    return T


def standardised_objective(theta, T, Xt, y, s, family, link, penalty, split=None):
    """J(θ) = L(Tθ) and ∇J(θ) = Tᵀ∇L(Tθ), with L and ∇L from :func:`glm_objective`."""
    J, g = glm_objective(T @ theta, Xt, y, s, family, link, penalty, split)
    return J, T.T @ g


class _Overshoot(Exception):
    """L rose above its best value so far: the step size is too large here."""


def gradient_descent(
    Xt, y, s, family, link, penalty, beta0, learning_rate, max_iter, tol, split=None
):
    """θₜ₊₁ = θₜ − η Tᵀ∇L(Tθₜ), β = Tθ (:func:`standardising_map`), ∇L from :func:`glm_objective`.

    Plain batch :class:`~scratchlearn.optim.GradientDescent` on J(θ) = L(Tθ), stopping when
    ‖∇J(θ)‖₂ = ‖Tᵀ∇L‖₂ ≤ tol ("grad_norm") or after ``max_iter`` iterations in total
    ("max_iter"; restarts share the budget).

    ``learning_rate="auto"``: η = 1/λ_max(Tᵀ H₀ T) with H₀ = X̃ᵀW₀X̃/S + diag(penalty) the Fisher
    information of L at β₀ (W₀ the IRLS weights there): the 1/L step of a function whose
    curvature is H₀. Standardising makes Tᵀ H₀ T far better conditioned than H₀ (for the
    Poisson and gamma log links at the intercept-only start it is W₀ times the correlation
    matrix of the columns, with the intercept decoupled). The curvature changes with μ, so
    whenever J rises above its best value so far by more than its rounding noise (or overflows),
    the run restarts from the best point with η halved, at most 30 times: L decreases
    monotonically along the kept iterates.
    A run that stops because J did not change at all (L is flat to rounding near the minimum,
    while ‖∇J‖ > tol) is continued: only the gradient norm or the budget ends it.
    A float ``learning_rate`` is used as given (in the standardised coordinates) without
    restarts; a diverging run then raises :class:`~scratchlearn.exceptions.DivergenceError`.

    Returns (β, n_iter, stop_reason, history, η): n_iter counts every step taken, rejected ones
    included; history = {"J": L, "grad_norm": ‖∇J‖₂} has one entry for the start and one per
    kept step; η is the final step size.
    """
    Xt = _design(Xt)
    T = standardising_map(Xt.X, s, Xt.fit_intercept)
    S = s.sum()
    auto = isinstance(learning_rate, str)  # "auto"
    if auto:
        eta0 = Xt.dot(beta0)
        W0 = working_weights_response(family, link, y, s, eta0, link.inverse(eta0))[0]
        H = Xt.gram(W0) / S
        H[np.diag_indices_from(H)] += penalty
        lam = linalg.eigvalsh(T.T @ H @ T)[-1]  # λ_max of the standardised curvature
        step = 1.0 / lam if lam > 0 else 1.0
    else:
        step = float(learning_rate)

    # rounding noise of J: D/(2S) is summed as Σ sᵢ kernel + Σ sᵢ c(yᵢ), whose terms can be
    # much larger than J itself (gamma: c(y) = −2 log y − 2)
    c_abs = abs(split[1]) / (2.0 * S) if split is not None else 0.0
    hist = {"J": [], "grad_norm": []}
    state = {"best_J": np.inf, "best": None, "n_eval": 0, "restart": False}

    def fun(theta):
        J, g = standardised_objective(theta, T, Xt, y, s, family, link, penalty, split)
        restart, state["restart"] = state["restart"], False
        if restart:  # the kept best point, evaluated again by a restarted run
            return J, g
        state["n_eval"] += 1
        gnorm = float(np.linalg.norm(g))
        if auto:
            best = state["best_J"]
            noise = 64 * np.finfo(float).eps * (abs(best) + c_abs) if np.isfinite(best) else 0.0
            if not np.isfinite(J) or J > best + noise:
                raise _Overshoot
            if J <= best:
                state["best_J"], state["best"] = J, theta.copy()
        hist["J"].append(float(J))
        hist["grad_norm"].append(gnorm)
        return J, g

    theta = linalg.solve_triangular(T, beta0, lower=True)  # θ₀ = T⁻¹β₀, T lower triangular
    stop, halvings = None, 0
    while (budget := max_iter - max(state["n_eval"] - 1, 0)) > 0:  # iterations left
        gd = GradientDescent(learning_rate=step, tol=0.0, gtol=tol, max_iter=budget)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)  # re-issued by the caller
                res = gd.minimize(fun, theta)
        except _Overshoot:
            if state["best"] is None:
                raise ValueError("gradient descent: L is not finite at the start.") from None
            if halvings == 30:
                break
            theta, step, halvings = state["best"], 0.5 * step, halvings + 1
            state["restart"] = True
            continue
        except DivergenceError as exc:
            raise DivergenceError(
                f"gradient descent diverged with learning_rate={learning_rate}; use a smaller "
                "one or learning_rate='auto'."
            ) from exc
        theta, stop = res.x, res.stop_reason
        if stop != "cost_change":
            break
        # J unchanged to the last bit while ‖∇J‖ > tol: L is flat to rounding (quadratic in the
        # coefficient error) but the iterates still move towards the minimiser; keep stepping
        state["restart"], stop = True, None
    if stop is None:  # budget spent: keep the best point
        stop = "max_iter"
        theta = state["best"] if state["best"] is not None else theta
    return T @ theta, max(state["n_eval"] - 1, 0), stop, hist, step
