"""Generalized linear models: g(E[y|x]) = xᵀw + b, fitted by IRLS (Fisher scoring) or L-BFGS.

Symbols
-------
n, d     samples, features; p = d (+1 with an intercept) parameters β = (w, b)
X̃        design matrix with a column of ones appended when there is an intercept, (n, p)
s        sample weights (the number of trials for the binomial family); S = Σ sᵢ
μ, η     mean and linear predictor, η = X̃β, μ = g⁻¹(η)
V(μ)     variance function; d(y, μ) unit deviance; D = Σ sᵢ d(yᵢ, μᵢ) the deviance
φ        dispersion (scale); α the L2 penalty on w (never on b)

Objective (scikit-learn's scaling):

.. math::

    L(w, b) = \\frac{1}{2S} \\sum_i s_i\\, d(y_i, \\mu_i) + \\frac{\\alpha}{2} \\lVert w \\rVert^2

IRLS / Fisher scoring: with the working response and weights at the current μ

    zᵢ = ηᵢ + g′(μᵢ)(yᵢ − μᵢ),    Wᵢ = sᵢ / (g′(μᵢ)² V(μᵢ)),

the next β solves the penalised weighted least squares (X̃ᵀWX̃ + SαI′)β = X̃ᵀWz (I′ the identity
with a zero for the intercept), by Cholesky, falling back to least squares when singular. A step
that increases L (or leaves the mean domain) is halved until it does not. It stops when the
penalised deviance D_α = 2S·L changes by |ΔD_α| ≤ tol·(|D_α| + 0.1) (R's glm criterion).
"""

import math
import numbers
import warnings

import numpy as np
from scipy import linalg

from ..base import BaseEstimator, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..optim import lbfgs
from ..utils import Interval, StrOptions, check_is_fitted, check_sample_weight
from ._glm_family import FAMILIES, make_family
from ._glm_link import LINKS

__all__ = ["GeneralizedLinearRegressor", "PoissonRegressor", "GammaRegressor", "TweedieRegressor"]


# -- solvers ----------------------------------------------------------------------------------
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


# -- estimators -------------------------------------------------------------------------------
def _normal_cdf_upper(z):
    """P(Z > z) = ½ erfc(z/√2) for the standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


class GeneralizedLinearRegressor(RegressorMixin, BaseEstimator):
    """Generalized linear model ``g(E[y|x]) = xᵀw + b`` with any family and link.

    Minimises

    .. math::

        \\frac{1}{2S}\\sum_i s_i\\, d(y_i, g^{-1}(x_i^T w + b))
        + \\frac{\\alpha}{2}\\lVert w\\rVert^2

    with d the family's unit deviance (the intercept b is not penalised).

    Parameters
    ----------
    family : {"normal", "binomial", "poisson", "gamma", "exponential", "inverse_gaussian", \
"tweedie"}, default="normal"
        "binomial": y is a proportion in [0, 1] and ``sample_weight`` the number of trials (or y
        is 0/1 with unit weights). "exponential" is the gamma family with the dispersion fixed
        at φ = 1 (so ``bse_``, ``llf_`` and ``aic_`` use φ = 1 instead of the Pearson estimate).
    link : {"auto", "identity", "log", "logit", "probit", "cloglog", "inverse", \
"inverse_squared"}, default="auto"
        "auto" is the canonical link (normal identity, binomial logit, poisson log, gamma and
        exponential inverse, inverse_gaussian inverse_squared: statsmodels' defaults), except for
        tweedie where it is scikit-learn's choice: identity for power <= 0, log otherwise.
    power : float, default=0.0
        Tweedie variance power (family="tweedie" only); 0 < power < 1 is invalid.
    alpha : float, default=0.0
        L2 penalty strength.
    fit_intercept : bool, default=True
    solver : {"irls", "lbfgs"}, default="irls"
        "irls": Fisher scoring (Newton's method for canonical links). "lbfgs": L-BFGS on L
        (:func:`scratchlearn.optim.lbfgs`) stopping when ‖∇L‖∞ ≤ tol.
    max_iter : int, default=100
    tol : float, default=1e-8
        IRLS: |ΔD_α| ≤ tol·(|D_α| + 0.1) with D_α = D + Sα‖w‖² (R's rule); L-BFGS: ‖∇L‖∞ ≤ tol.
    warm_start : bool, default=False
        Start from the previous fit's coefficients.

    Attributes
    ----------
    coef_, intercept_ : coefficients w (d,) and intercept b
    n_iter_, stop_reason_, history_ : iterations, why it stopped ("cost_change", "grad_norm",
        "max_iter", "converged" when no halved IRLS step decreases L any more, "line_search"
        when L-BFGS finds no descent step: both at the objective's floating-point resolution),
        and {"J": L per iteration, plus "deviance" (IRLS) or "grad_norm" (L-BFGS)}
    deviance_, null_deviance_ : D of the fit and of the intercept-only model (μ = weighted mean
        of y; μ = g⁻¹(0) without an intercept)
    dispersion_ : Pearson χ²/(n − p) = Σ sᵢ(yᵢ − μᵢ)²/V(μᵢ) / (n − p)
    scale_ : φ used for inference: 1 for poisson, binomial and exponential, else dispersion_
    llf_, aic_, bic_ : log-likelihood at φ = scale_ (normal + identity: the concentrated
        likelihood, φ = Σ sᵢ(yᵢ − μᵢ)²/n), −2ℓ + 2p and −2ℓ + p log n, as statsmodels' GLM
    bse_ : standard errors √diag(φ(X̃ᵀWX̃)⁻¹) (w then b); NaN when alpha > 0
    """

    _parameter_constraints = {
        "family": [StrOptions(set(FAMILIES))],
        "link": [StrOptions({"auto", *LINKS})],
        "power": [Interval(numbers.Real, None, None)],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"irls", "lbfgs"})],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "warm_start": ["boolean"],
    }

    def __init__(
        self,
        *,
        family="normal",
        link="auto",
        power=0.0,
        alpha=0.0,
        fit_intercept=True,
        solver="irls",
        max_iter=100,
        tol=1e-8,
        warm_start=False,
    ):
        self.family = family
        self.link = link
        self.power = power
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start

    # hooks the scikit-learn-signature subclasses override
    def _family_link(self):
        fam = make_family(self.family, self.power)
        name = self.link
        if name == "auto":
            if self.family == "tweedie":
                name = "identity" if self.power <= 0 else "log"
            else:
                name = fam.canonical_link
        return fam, LINKS[name]()

    def _irls_solver(self):
        return self.solver == "irls"

    def fit(self, X, y, sample_weight=None):
        """Fit the GLM by IRLS or L-BFGS. ``sample_weight``: binomial trials or case weights."""
        self._validate_params()
        owner = type(self).__name__
        try:
            family, link = self._family_link()
        except ValueError as exc:  # e.g. a Tweedie power in (0, 1)
            raise ValueError(f"{owner}: {exc}") from None
        X, y = self._validate_data(X, y, y_numeric=True)
        family.check_y(y, owner)
        s = check_sample_weight(sample_weight, X)
        n, d = X.shape
        Xt = Design(X, self.fit_intercept)  # X̃ = [X, 1], never formed
        p = Xt.shape[1]
        penalty = np.full(p, float(self.alpha))
        if self.fit_intercept:
            penalty[-1] = 0.0  # the intercept is never penalised
        beta0 = None
        if self.warm_start and hasattr(self, "coef_") and self.coef_.shape == (d,):
            beta0 = np.append(self.coef_, self.intercept_) if self.fit_intercept else self.coef_
        kernel, c = family.deviance_split(y)  # D = Σ sᵢ kernel(yᵢ, μᵢ) + Σ sᵢ c(yᵢ)
        split = (kernel, float(s @ c))
        beta, n_iter, stop, hist = self._solve(Xt, y, s, family, link, penalty, beta0, split)
        if stop == "max_iter":
            warnings.warn(
                f"{owner} reached max_iter={self.max_iter} before meeting tol={self.tol}; "
                "increase max_iter or scale the features.",
                ConvergenceWarning,
                stacklevel=2,
            )
        if family.name == "binomial":
            mu = link.inverse(Xt.dot(beta))
            edge = 10 * np.finfo(float).eps
            if np.any((mu < edge) | (mu > 1 - edge)):
                warnings.warn(
                    f"{owner}: fitted probabilities numerically 0 or 1: the classes are "
                    "(quasi-)separated, so the maximum-likelihood coefficients are infinite and "
                    "these are not; use alpha > 0 for a finite, unique solution.",
                    ConvergenceWarning,
                    stacklevel=2,
                )
        self.coef_ = beta[:d].copy()
        self.intercept_ = float(beta[d]) if self.fit_intercept else 0.0
        self.n_iter_, self.stop_reason_, self.history_ = int(n_iter), stop, hist
        self._inference(Xt, y, s, family, link, beta, split)
        return self

    def _solve(self, Xt, y, s, family, link, penalty, beta0, split):
        """Run IRLS or L-BFGS; returns (β, n_iter, stop_reason, history)."""
        p = Xt.shape[1]
        start = np.zeros(p)  # w = 0, b = g(ȳ): the intercept-only fit, inside the mean domain
        if self.fit_intercept:
            start[-1] = link.link(family.clip_mu(np.average(y, weights=s)))
        if self._irls_solver():
            return irls(Xt, y, s, family, link, penalty, beta0, self.max_iter, self.tol, start)

        def fun(beta):
            return glm_objective(beta, Xt, y, s, family, link, penalty, split)

        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", ConvergenceWarning)  # re-issued by fit
            res = lbfgs(
                fun,
                start if beta0 is None else beta0,
                gtol=self.tol,
                ftol=64 * np.finfo(float).eps,
                max_iter=self.max_iter,
            )
        return res.x, res.n_iter, res.stop_reason, res.history

    def _inference(self, Xt, y, s, family, link, beta, split):
        """deviance_, null_deviance_, dispersion_, scale_, llf_, aic_, bic_, bse_."""
        n, p = Xt.shape
        mu = link.inverse(Xt.dot(beta))
        kernel, const = split  # D = Σ sᵢ kernel(yᵢ, μᵢ) + const, the y-only part summed once
        self.deviance_ = max(float(s @ kernel(y, mu) + const), 0.0)
        mu0 = np.average(y, weights=s) if self.fit_intercept else link.inverse(np.zeros(1))[0]
        self.null_deviance_ = max(float(s @ kernel(y, np.full(n, mu0)) + const), 0.0)
        V = family.variance(mu)
        with np.errstate(divide="ignore", invalid="ignore"):
            self.dispersion_ = float(np.sum(s * (y - mu) ** 2 / V) / (n - p)) if n > p else np.nan
        self.scale_ = 1.0 if family.fixed_scale else self.dispersion_
        if family.name == "normal" and link.name == "identity":
            llf_scale = float(np.sum(s * (y - mu) ** 2) / n)  # concentrated likelihood
        else:
            llf_scale = self.scale_
        with np.errstate(all="ignore"):
            self.llf_ = family.loglike(y, mu, s, llf_scale) if llf_scale > 0 else np.nan
        self.aic_ = -2.0 * self.llf_ + 2.0 * p
        self.bic_ = -2.0 * self.llf_ + p * math.log(n)
        self.bse_ = np.full(p, np.nan)
        if self.alpha == 0 and np.isfinite(self.scale_):
            W = working_weights_response(family, link, y, s, Xt.dot(beta), mu)[0]
            info = Xt.gram(W)  # Fisher information I = X̃ᵀWX̃ (φ = 1)
            try:
                c = linalg.cho_factor(info, lower=True)
                cov_diag = np.diag(linalg.cho_solve(c, np.eye(p)))  # diag(I⁻¹) by Cholesky
                self.bse_ = np.sqrt(self.scale_ * cov_diag)
            except (linalg.LinAlgError, ValueError):
                pass  # singular information: standard errors undefined, left as NaN

    def _linear_predictor(self, X):
        check_is_fitted(self, "coef_")
        X = self._validate_data(X, reset=False)
        eta = X @ self.coef_  # (n,)
        eta += self.intercept_
        return eta

    def predict(self, X):
        """Predicted mean μ = g⁻¹(Xw + b)."""
        _, link = self._family_link()
        return link.inverse(self._linear_predictor(X))

    def score(self, X, y, sample_weight=None):
        """D² = 1 − D(y, μ̂)/D(y, ȳ): the fraction of deviance explained (R² for normal)."""
        family, _ = self._family_link()
        mu = self.predict(X)
        y = np.asarray(y, dtype=float)
        s = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        dev = family.deviance(y, mu, s)
        dev_null = family.deviance(y, np.full_like(y, np.average(y, weights=s)), s)
        if dev_null == 0:  # constant y: perfect or nothing, as scikit-learn's d2 scores
            return 1.0 if dev == 0 else 0.0
        return 1.0 - dev / dev_null

    def summary(self, feature_names=None):
        """Coefficient table: estimate, std err, z = coef/se, P>|z| = erfc(|z|/√2)."""
        check_is_fitted(self, "coef_")
        family, link = self._family_link()
        if feature_names is None:
            feature_names = getattr(self, "feature_names_in_", None)
        if feature_names is None:
            feature_names = [f"x{j}" for j in range(len(self.coef_))]
        names = [str(f) for f in feature_names] + (["intercept"] if self.fit_intercept else [])
        coef = np.append(self.coef_, self.intercept_) if self.fit_intercept else self.coef_
        width = max(12, max(len(nm) for nm in names) + 1)
        head = (
            f"{type(self).__name__}: family={family.name}, link={link.name}, alpha={self.alpha}\n"
            f"n_iter={self.n_iter_} ({self.stop_reason_})  deviance={self.deviance_:.6g}  "
            f"null deviance={self.null_deviance_:.6g}  dispersion={self.dispersion_:.6g}\n"
            f"log-likelihood={self.llf_:.6g}  AIC={self.aic_:.6g}  BIC={self.bic_:.6g}\n"
        )
        rule = "-" * (width + 48)
        lines = [head + rule, f"{'':<{width}}{'coef':>12}{'std err':>12}{'z':>10}{'P>|z|':>10}"]
        lines.append(rule)
        for nm, c, se in zip(names, coef, self.bse_, strict=True):
            z = c / se if np.isfinite(se) and se > 0 else np.nan
            pval = 2.0 * _normal_cdf_upper(abs(z)) if np.isfinite(z) else np.nan
            lines.append(f"{nm:<{width}}{c:>12.5g}{se:>12.4g}{z:>10.3f}{pval:>10.4f}")
        lines.append(rule)
        return "\n".join(lines)

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(
            positive_y=self.family in ("poisson", "gamma", "exponential", "inverse_gaussian")
            or (self.family == "tweedie" and self.power >= 1)
        )
        return t


class _SklearnGLM(GeneralizedLinearRegressor):
    """Shared body of the scikit-learn-signature regressors (solver "lbfgs" or
    "newton-cholesky", which here is IRLS: Newton's method for the canonical log link of
    Poisson, Fisher scoring otherwise). ``verbose`` is accepted and ignored: models never print."""

    _parameter_constraints = {
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"lbfgs", "newton-cholesky"})],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="neither")],
        "warm_start": ["boolean"],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
    }
    _family_name = "poisson"

    def __init__(
        self,
        *,
        alpha=1.0,
        fit_intercept=True,
        solver="lbfgs",
        max_iter=100,
        tol=1e-4,
        warm_start=False,
        verbose=0,
    ):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.verbose = verbose

    def _family_link(self):
        return make_family(self._family_name), LINKS["log"]()

    def _irls_solver(self):
        return self.solver == "newton-cholesky"

    def _scratch_tags(self):
        t = RegressorMixin._scratch_tags(self)
        t.update(positive_y=True)
        return t


class PoissonRegressor(_SklearnGLM):
    """Poisson GLM with log link: ``E[y|x] = exp(xᵀw + b)``, for counts.

    scikit-learn's signature and objective, ``(1/2S)Σsᵢd(yᵢ, μᵢ) + (α/2)‖w‖²`` with the Poisson
    unit deviance d = 2[y log(y/μ) − y + μ]; see :class:`GeneralizedLinearRegressor` for the
    attributes (``bse_`` is NaN unless alpha = 0).
    """

    _family_name = "poisson"


class GammaRegressor(_SklearnGLM):
    """Gamma GLM with log link, for positive right-skewed targets.

    Unit deviance d = 2[(y − μ)/μ − log(y/μ)]; otherwise as :class:`PoissonRegressor`.
    """

    _family_name = "gamma"


class TweedieRegressor(_SklearnGLM):
    """Tweedie GLM with variance power ``power`` (0 normal, 1 Poisson, (1, 2) compound
    Poisson-gamma, 2 gamma, 3 inverse Gaussian) and link "auto" (identity for power <= 0,
    log otherwise), "identity" or "log"."""

    _parameter_constraints = {
        **_SklearnGLM._parameter_constraints,
        "power": [Interval(numbers.Real, None, None)],
        "link": [StrOptions({"auto", "identity", "log"})],
    }

    def __init__(
        self,
        *,
        power=0.0,
        alpha=1.0,
        fit_intercept=True,
        link="auto",
        solver="lbfgs",
        max_iter=100,
        tol=1e-4,
        warm_start=False,
        verbose=0,
    ):
        super().__init__(
            alpha=alpha,
            fit_intercept=fit_intercept,
            solver=solver,
            max_iter=max_iter,
            tol=tol,
            warm_start=warm_start,
            verbose=verbose,
        )
        self.power = power
        self.link = link

    def _family_link(self):
        name = self.link
        if name == "auto":
            name = "identity" if self.power <= 0 else "log"
        return make_family("tweedie", self.power), LINKS[name]()

    def _scratch_tags(self):
        t = RegressorMixin._scratch_tags(self)
        t.update(positive_y=self.power >= 1)
        return t
