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

Every solver stops when the gradient of L is small, ‖∇L‖∞ ≤ tol (gradient descent: ‖∇_θL‖₂ ≤ tol
in the standardised coordinates θ), so ``tol`` bounds the coefficient error: ‖β − β*‖₂ ≤
√p·tol/λ_min(∇²L) near the optimum β*.

Classes: :class:`_GLMBase` holds fit / predict / score / summary; its two kinds of subclass are
:class:`GeneralizedLinearRegressor` (any family and link, IRLS by default, statsmodels-style
inference) and the scikit-learn-signature regressors (:class:`PoissonRegressor`,
:class:`GammaRegressor`, :class:`TweedieRegressor`). Solvers are pure functions in
:mod:`._glm_solvers` and :mod:`._glm_gd`; the rows reach IRLS and L-BFGS only through the
block statistics of :mod:`._glm_blocks` (one block in memory, the row blocks of a Dask array
otherwise).
"""

import math
import numbers

import numpy as np

from ..base import BaseEstimator, RegressorMixin, _check_score_weight, _predicted
from ..metrics import d2_binomial_score, d2_tweedie_score
from ..utils import Interval, StrOptions, check_is_fitted, check_sample_weight
from ..utils._dask import (
    check_dask_data,
    is_dask_collection,
    persist_on_cluster,
)
from ._base import LinearModel
from ._glm_blocks import GLMData
from ._glm_family import FAMILIES, make_family
from ._glm_gd import gradient_descent
from ._glm_link import LINKS
from ._glm_solvers import (  # noqa: F401  (glm_objective, irls re-exported for tests/benchmarks)
    glm_objective,
    irls,
    lbfgs_solve,
)

__all__ = ["GeneralizedLinearRegressor", "PoissonRegressor", "GammaRegressor", "TweedieRegressor"]

_GD_MAX_ITER = 5_000  # max_iter="auto" for solver="gd" (see the max_iter parameter)

#: Tweedie power of each family's unit deviance (binomial has its own D² metric).
_TWEEDIE_POWER = {"normal": 0.0, "poisson": 1.0, "gamma": 2.0, "exponential": 2.0,
                  "inverse_gaussian": 3.0}  # fmt: skip


def _normal_cdf_upper(z):
    """P(Z > z) = ½ erfc(z/√2) for the standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


class _GLMBase(LinearModel, RegressorMixin, BaseEstimator):
    """fit / predict / score / summary of every GLM. Subclasses provide the hooks
    ``_family_link()`` -> (family, link), ``_solver_name()`` -> "irls" | "lbfgs" | "gd",
    ``_iteration_budget()`` and ``_positive_y()``, and the parameters alpha, fit_intercept,
    max_iter, tol, warm_start (and learning_rate for "gd")."""

    #: Evaluate the Tweedie 1 < p < 2 log-likelihood (an infinite series) for llf_/aic_/bic_.
    _series_loglike = True

    #: What ``score`` measures, for reports such as ``scratchlearn demo``.
    _score_name = "D² (deviance)"

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"bse_": ("float64", ("*",), "optional")}

    def _iteration_budget(self):
        return self.max_iter

    def fit(self, X, y, sample_weight=None):
        """Fit by IRLS, L-BFGS or gradient descent. ``sample_weight``: binomial trials or case
        weights. X may be a Dask array or DataFrame (y and the weights NumPy or Dask): solvers
        "irls" / "newton-cholesky" and "lbfgs" then run block by block (class docstring)."""
        self._validate_params()
        owner = type(self).__name__
        try:
            family, link = self._family_link()
        except ValueError as exc:  # e.g. a Tweedie power in (0, 1)
            raise ValueError(f"{owner}: {exc}") from None
        if is_dask_collection(X):
            X, y, s = self._dask_data(X, y, sample_weight)
        else:
            X, y = self._validate_data(X, y, y_numeric=True)
            s = check_sample_weight(sample_weight, X)
        # the setup pass checks y's domain, and sums S, ȳ and the y-only part of D
        data = GLMData(X, y, s, family, link, self.fit_intercept, owner)
        d = data.d
        penalty = np.full(data.p, float(self.alpha))
        if self.fit_intercept:
            penalty[-1] = 0.0  # the intercept is never penalised
        beta0 = None
        if self.warm_start and hasattr(self, "coef_") and self.coef_.shape == (d,):
            beta0 = np.append(self.coef_, self.intercept_) if self.fit_intercept else self.coef_
        beta, n_iter, stop, hist = self._solve(data, penalty, beta0)
        stats = data.statistics(beta, self.alpha, self._series_loglike)
        if family.name == "binomial" and self.alpha == 0 and stats["n_edge"]:
            stop = "separable"  # fitted probabilities at 0 or 1: β* at infinity
        self.coef_ = beta[:d].copy()
        self.intercept_ = float(beta[d]) if self.fit_intercept else 0.0
        norm = "‖∇_θL‖₂ (standardised θ)" if self._solver_name() == "gd" else "‖∇L‖∞"
        self._record_fit(
            int(n_iter), hist, stop, criterion=f"{norm} <= tol={self.tol}", met={"grad_norm"}
        )
        del stats["n_edge"]
        for name, value in stats.items():  # deviance_, dispersion_, llf_, bse_, ...
            setattr(self, name + "_", value)
        return self

    def _dask_data(self, X, y, sample_weight):
        """Dask X, y, s checked lazily (:func:`~scratchlearn.utils._dask.check_dask_data`),
        y as float64; solver "gd" (thousands of passes over standardised columns) refused."""
        owner = type(self).__name__
        if self._solver_name() == "gd":
            raise ValueError(
                f"{owner}(solver='gd') does not fit on Dask input (each of its thousands of "
                "iterations would be a pass over the data); use solver='irls' or 'lbfgs', "
                "which fit block by block."
            )
        if y is None:
            raise ValueError(f"{owner} requires y to be passed, but the target y is None.")
        X, y, s = check_dask_data(self, X, y, sample_weight)
        X, y, s = persist_on_cluster(X, y, s)  # read and checked once, not at every pass
        if y.ndim != 1:
            raise ValueError(f"{owner} expects a 1-D target y; got shape {y.shape}.")
        if y.dtype.kind not in "biuf":
            raise ValueError(f"{owner} needs a numeric target y; got dtype {y.dtype}.")
        return X, y.astype(np.float64), s

    def _solve(self, data, penalty, beta0):
        """Run IRLS, L-BFGS or gradient descent; returns (β, n_iter, stop_reason, history)."""
        family, link = data.family, data.link
        start = np.zeros(data.p)  # w = 0, b = g(ȳ): the intercept-only fit
        if self.fit_intercept:
            start[-1] = link.link(family.clip_mu(data.ybar))
        solver, budget = self._solver_name(), self._iteration_budget()
        if solver == "irls":
            return irls(data, penalty, beta0, budget, self.tol, start)
        beta0 = start if beta0 is None else beta0
        if solver == "gd":  # in memory only (refused on Dask by _dask_data)
            beta, n_iter, stop, hist, self.learning_rate_ = gradient_descent(
                data.X, data.y, data.s, family, link, penalty, beta0, self.learning_rate,
                budget, self.tol, data.split,
            )  # fmt: skip
            return beta, n_iter, stop, hist
        return lbfgs_solve(data, penalty, beta0, budget, self.tol)

    def _linear_predictor(self, X):
        """η = Xw + b (dense or sparse X, float64), by :class:`LinearModel`."""
        return self._decision_function(X)

    def predict(self, X):
        """Predicted mean μ = g⁻¹(Xw + b); a Dask X gives a lazy Dask array, block by block."""
        _, link = self._family_link()
        return link.inverse(self._linear_predictor(X))

    def score(self, X, y, sample_weight=None):
        """D² = 1 − D(y, μ̂)/D(y, ȳ) (ȳ the s-weighted mean): the fraction of deviance
        explained, R² for the normal family (:func:`scratchlearn.metrics.d2_tweedie_score`,
        or :func:`~scratchlearn.metrics.d2_binomial_score` for binomial proportions). A constant
        y (D(y, ȳ) = 0) scores 1.0 when predicted exactly, else 0.0, as ``r2_score``."""
        family, _ = self._family_link()
        _check_score_weight(sample_weight, X)
        y, mu, sample_weight = _predicted(self, X, y, sample_weight)  # a Dask X: μ computed
        with np.errstate(divide="ignore", invalid="ignore"):
            if family.name == "binomial":
                d2 = d2_binomial_score(y, mu, sample_weight=sample_weight)
            else:
                power = _TWEEDIE_POWER.get(family.name, getattr(family, "power", 0.0))
                d2 = d2_tweedie_score(y, mu, sample_weight=sample_weight, power=power)
        if not np.isfinite(d2) and len(mu) >= 2:  # 0/0 or x/0: a constant y
            return 1.0 if np.array_equal(np.asarray(y, dtype=float), mu) else 0.0
        return d2

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
        t.update(positive_y=self._positive_y(), dask=True)
        return t


class GeneralizedLinearRegressor(_GLMBase):
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
        "irls": Fisher scoring (Newton's method for canonical links) with step halving.
        "lbfgs": L-BFGS on L (:func:`scratchlearn.optim.lbfgs`). "gd": Nesterov-accelerated
        gradient descent on L in the coordinates θ of the standardised columns (x − m)/σ
        (:mod:`._glm_gd`).
    learning_rate : "auto" or float, default="auto"
        Step size of solver="gd" in the standardised coordinates. "auto": 1/Λ with Λ the
        largest eigenvalue of the standardised Fisher information of L at the start (the
        Lipschitz constant of ∇L there), halved whenever a step breaks the descent lemma, with
        Nesterov momentum restarted whenever L rises. A float runs plain gradient descent with
        that step; divergence then raises :class:`~scratchlearn.exceptions.DivergenceError`.
    max_iter : int or "auto", default="auto"
        Iteration budget. "auto": 100 for "irls" and "lbfgs", 5,000 for "gd" (a first-order
        method needs about √κ·log(1/tol) accelerated steps, κ the condition number of the
        standardised curvature: 60-1,700 measured on standardised real data).
    tol : float, default=1e-8
        Stop when ‖∇L‖∞ ≤ tol ("irls", "lbfgs") or ‖∇_θL‖₂ ≤ tol ("gd", standardised θ). This
        bounds the coefficient error: where L is λ-strongly convex near its minimiser β*
        (λ = λ_min of its Hessian), ‖β − β*‖₂ ≤ ‖∇L‖₂/λ ≤ √p·tol/λ.
    warm_start : bool, default=False
        Start from the previous fit's coefficients.

    Attributes
    ----------
    coef_, intercept_ : coefficients w (d,) and intercept b
    n_iter_, stop_reason_, history_ : the fit record (:mod:`scratchlearn.utils._fit_record`):
        iterations; why it stopped ("grad_norm": the criterion was met; "max_iter"; "stalled":
        no halved step decreases L while ‖∇L‖ > tol, i.e. tol is below the gradient's rounding
        floor; "separable": binomial fitted probabilities numerically 0 or 1 with alpha = 0, so
        the coefficients are infinite); and {"objective": L, "grad_norm": ‖∇L‖, plus
        "deviance": D for IRLS}, one entry for the start and one per iteration. Every stop but
        "grad_norm" warns with :class:`~scratchlearn.exceptions.ConvergenceWarning`.
    learning_rate_ : the final gradient-descent step size (solver="gd" only)
    deviance_, null_deviance_ : D of the fit and of the intercept-only model (μ = weighted mean
        of y; μ = g⁻¹(0) without an intercept)
    dispersion_ : Pearson χ²/(n − p) = Σ sᵢ(yᵢ − μᵢ)²/V(μᵢ) / (n − p)
    scale_ : φ used for inference: 1 for poisson, binomial and exponential, else ``dispersion_``
    llf_, aic_, bic_ : log-likelihood at φ = ``scale_`` (normal + identity: the concentrated
        likelihood, φ = Σ sᵢ(yᵢ − μᵢ)²/n), −2ℓ + 2p and −2ℓ + p log n, as statsmodels' GLM
    bse_ : standard errors √diag(φ(X̃ᵀWX̃)⁻¹) (w then b); NaN when alpha > 0

    Notes
    -----
    Dask. ``fit`` accepts a Dask array or DataFrame X (y and ``sample_weight`` NumPy or
    Dask) with solver "irls" or "lbfgs" ("gd" is refused: thousands of passes). The solvers
    see the data only through row-block statistics (:mod:`._glm_blocks`), the in-memory fit
    being their one-block case. A setup pass sums S, Σsy, Σs·c(y) and takes max y (and checks
    y's domain on each block); each IRLS iteration is then one pass in which every block
    returns its D, X̃ᵀr, X̃ᵀWz and X̃ᵀWX̃ at the current β (p² + 2p + 3 numbers, 8(p² + 2p + 3)
    bytes, whatever the block's size), summed in a tree; the (p, p) solve, the step halving
    and the stopping rule run on the client, so ``n_iter_``, ``history_`` and ``stop_reason_`` are
    those of the in-memory fit. An L-BFGS evaluation is one pass returning D and X̃ᵀr
    (p + 2 numbers).
    Two final passes give the deviances, Pearson χ², X̃ᵀWX̃ for ``bse_`` and ℓ (one pass when
    φ is fixed). On a ``dask.distributed`` cluster the checked blocks are persisted for the
    fit's duration. ``predict`` on a Dask X returns a lazy Dask array, block by block;
    ``score`` refuses Dask input (compute y and the predictions first).

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.linear_model import GeneralizedLinearRegressor
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    >>> y = np.array([2.0, 3.0, 6.0, 7.0, 15.0])
    >>> glm = GeneralizedLinearRegressor(family="poisson").fit(X, y)
    >>> print(np.round(glm.coef_, 3), round(float(glm.intercept_), 3), glm.n_iter_)
    [0.502] 0.643 4
    >>> print(np.round(glm.bse_, 3), round(glm.aic_, 2))
    [0.143 0.451] 22.12
    """

    _parameter_constraints = {
        "family": [StrOptions(set(FAMILIES))],
        "link": [StrOptions({"auto", *LINKS})],
        "power": [Interval(numbers.Real, None, None)],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"irls", "lbfgs", "gd"})],
        "learning_rate": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [StrOptions({"auto"}), Interval(numbers.Integral, 1, None, closed="left")],
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
        max_iter="auto",
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

    def _solver_name(self):
        return self.solver

    def _iteration_budget(self):
        if self.max_iter == "auto":
            return _GD_MAX_ITER if self.solver == "gd" else 100
        return self.max_iter

    def _positive_y(self):
        return self.family in ("poisson", "gamma", "exponential", "inverse_gaussian") or (
            self.family == "tweedie" and self.power >= 1
        )


class _SklearnGLM(_GLMBase):
    """Shared body of the scikit-learn-signature regressors (solver "lbfgs" or
    "newton-cholesky", which here is IRLS: Newton's method for the canonical log link of
    Poisson, Fisher scoring otherwise). Both stop when ‖∇L‖∞ ≤ tol, so that ``tol`` bounds the
    coefficient error, ‖β − β*‖₂ ≤ √p·tol/λ_min(∇²L) near the optimum β*. ``verbose`` is
    accepted and ignored: models never print. Both solvers fit on Dask input, one pass of
    block statistics per IRLS iteration or L-BFGS evaluation (see the Notes of
    :class:`GeneralizedLinearRegressor`)."""

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

    def _solver_name(self):
        return "irls" if self.solver == "newton-cholesky" else "lbfgs"

    def _positive_y(self):
        return True


class PoissonRegressor(_SklearnGLM):
    """Poisson GLM with log link: ``E[y|x] = exp(xᵀw + b)``, for counts.

    scikit-learn's signature and objective, ``(1/2S)Σsᵢd(yᵢ, μᵢ) + (α/2)‖w‖²`` with the Poisson
    unit deviance d = 2[y log(y/μ) − y + μ]. ``tol``: both solvers stop when ‖∇L‖∞ ≤ tol. See
    :class:`GeneralizedLinearRegressor` for the attributes (``bse_`` is NaN unless alpha = 0)
    and for fitting on Dask input (its Notes).

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.linear_model import PoissonRegressor
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    >>> y = np.array([2.0, 3.0, 6.0, 7.0, 15.0])
    >>> model = PoissonRegressor(alpha=0.0).fit(X, y)
    >>> print(np.round(model.coef_, 3), round(float(model.intercept_), 3))
    [0.502] 0.643
    >>> print(np.round(model.predict([[5.0]]), 2))
    [23.44]
    """

    _family_name = "poisson"


class GammaRegressor(_SklearnGLM):
    """Gamma GLM with log link, for positive right-skewed targets.

    Unit deviance d = 2[(y − μ)/μ − log(y/μ)]; otherwise as :class:`PoissonRegressor`.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import GammaRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = GammaRegressor(alpha=0.0).fit(X, y)
    >>> print(model.stop_reason_, round(float(model.intercept_), 3))
    grad_norm 4.956
    >>> print(round(model.score(X, y), 3))
    0.479
    """

    _family_name = "gamma"


class TweedieRegressor(_SklearnGLM):
    """Tweedie GLM with variance power ``power`` (0 normal, 1 Poisson, (1, 2) compound
    Poisson-gamma, 2 gamma, 3 inverse Gaussian) and link "auto" (identity for power <= 0,
    log otherwise), "identity" or "log".

    For 1 < power < 2, ``llf_``, ``aic_`` and ``bic_`` are NaN: the compound Poisson-gamma
    density is an infinite series whose evaluation costs many times the fit itself (scikit-learn
    does not compute it either). ``GeneralizedLinearRegressor(family="tweedie", power=p)``
    computes them exactly.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import TweedieRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = TweedieRegressor(power=1.5, alpha=0.0).fit(X, y)
    >>> print(model.stop_reason_, round(float(model.intercept_), 3))
    grad_norm 4.956
    >>> print(round(model.score(X, y), 3))
    0.499
    """

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

    def _positive_y(self):
        return self.power >= 1
