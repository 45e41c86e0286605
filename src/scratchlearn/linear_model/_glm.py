"""Generalized linear models: g(E[y|x]) = xᵀw + b, fitted by IRLS, L-BFGS or gradient descent.

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

Solvers (pure functions in :mod:`._glm_solvers`): IRLS / Fisher scoring (the default), L-BFGS
on L and its gradient, and gradient descent on L in standardised coordinates.
"""

import math
import numbers
import warnings

import numpy as np

from ..base import BaseEstimator, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..utils import Interval, StrOptions, check_is_fitted, check_sample_weight
from ._glm_family import FAMILIES, make_family
from ._glm_link import LINKS
from ._glm_solvers import (  # noqa: F401  (glm_objective, irls re-exported for tests/benchmarks)
    Design,
    fit_statistics,
    glm_objective,
    gradient_descent,
    irls,
    lbfgs_solve,
)

__all__ = ["GeneralizedLinearRegressor", "PoissonRegressor", "GammaRegressor", "TweedieRegressor"]


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
    solver : {"irls", "lbfgs", "gd"}, default="irls"
        "irls": Fisher scoring (Newton's method for canonical links). "lbfgs": L-BFGS on L
        (:func:`scratchlearn.optim.lbfgs`) stopping when ‖∇L‖∞ ≤ tol. "gd": batch gradient
        descent (:class:`scratchlearn.optim.GradientDescent`) on L in the coordinates of the
        standardised columns (x − m)/σ, stopping when that gradient's ‖·‖₂ ≤ tol; first-order,
        so it needs a max_iter in the thousands (see :func:`._glm_solvers.gradient_descent`).
    learning_rate : "auto" or float, default="auto"
        Step size of solver="gd" in the standardised coordinates. "auto": 1/λ_max of the
        standardised Fisher information at the start, halved (and the run restarted from the
        best point) whenever L rises. A float is used as given; divergence then raises
        :class:`~scratchlearn.exceptions.DivergenceError`.
    max_iter : int, default=100
    tol : float, default=1e-8
        IRLS: |ΔD_α| ≤ tol·(|D_α| + 0.1) with D_α = D + Sα‖w‖² (R's rule); L-BFGS: ‖∇L‖∞ ≤ tol;
        gradient descent: ‖∇_θL‖₂ ≤ tol in the standardised coordinates θ.
    warm_start : bool, default=False
        Start from the previous fit's coefficients.

    Attributes
    ----------
    coef_, intercept_ : coefficients w (d,) and intercept b
    n_iter_, stop_reason_, history_ : iterations, why it stopped ("cost_change", "grad_norm",
        "max_iter", "converged" when no halved IRLS step decreases L any more, "line_search"
        when L-BFGS finds no descent step: both at the objective's floating-point resolution),
        and {"J": L per iteration, plus "deviance" (IRLS) or "grad_norm" (L-BFGS, gd)}
    learning_rate_ : the final gradient-descent step size (solver="gd" only)
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
        "solver": [StrOptions({"irls", "lbfgs", "gd"})],
        "learning_rate": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="neither")],
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
        learning_rate="auto",
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
        self.learning_rate = learning_rate
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
        """Fit by IRLS, L-BFGS or gradient descent. ``sample_weight``: binomial trials or case
        weights."""
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
        stats = fit_statistics(
            Xt, y, s, family, link, beta, split, self.alpha, self._series_loglike
        )
        for name, value in stats.items():  # deviance_, dispersion_, llf_, bse_, ...
            setattr(self, name + "_", value)
        return self

    def _solve(self, Xt, y, s, family, link, penalty, beta0, split):
        """Run IRLS, L-BFGS or gradient descent; returns (β, n_iter, stop_reason, history)."""
        p = Xt.shape[1]
        start = np.zeros(p)  # w = 0, b = g(ȳ): the intercept-only fit, inside the mean domain
        if self.fit_intercept:
            start[-1] = link.link(family.clip_mu(np.average(y, weights=s)))
        if self._irls_solver():
            return irls(Xt, y, s, family, link, penalty, beta0, self.max_iter, self.tol, start)
        beta0 = start if beta0 is None else beta0
        if self.solver == "gd":  # never for the scikit-learn-signature subclasses
            beta, n_iter, stop, hist, self.learning_rate_ = gradient_descent(
                Xt, y, s, family, link, penalty, beta0, self.learning_rate, self.max_iter,
                self.tol, split,
            )  # fmt: skip
            return beta, n_iter, stop, hist
        return lbfgs_solve(Xt, y, s, family, link, penalty, beta0, self.max_iter, self.tol, split)

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

    #: Evaluate the Tweedie 1 < p < 2 log-likelihood (an infinite series) for llf_/aic_/bic_.
    _series_loglike = True

    #: What ``score`` measures, for reports such as ``scratchlearn demo``.
    _score_name = "D² (deviance)"

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
    # Like scikit-learn's, these regressors do not evaluate the compound Poisson-gamma density
    # (an infinite series) for llf_/aic_/bic_: GeneralizedLinearRegressor does.
    _series_loglike = False

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
    log otherwise), "identity" or "log".

    For 1 < power < 2, ``llf_``, ``aic_`` and ``bic_`` are NaN: the compound Poisson-gamma
    density is an infinite series whose evaluation costs many times the fit itself (scikit-learn
    does not compute it either). ``GeneralizedLinearRegressor(family="tweedie", power=p)``
    computes them exactly."""

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
