"""Regression metrics and deviances.

Symbols: targets ``y`` and predictions ``μ`` (``y_pred``) of shape (n,) or (n, q) for ``q``
outputs; weights ``wᵢ`` (1 when ``sample_weight`` is None); weighted means
``ȳ = Σwᵢyᵢ/Σwᵢ``.

==========================  ==========================================================
mean_squared_error          Σwᵢ(yᵢ − μᵢ)²/Σwᵢ
root_mean_squared_error     √MSE (per output, then averaged)
mean_absolute_error         Σwᵢ|yᵢ − μᵢ|/Σwᵢ
r2_score                    1 − Σwᵢ(yᵢ − μᵢ)² / Σwᵢ(yᵢ − ȳ)²
mean_tweedie_deviance(p)    Σwᵢ d_p(yᵢ, μᵢ)/Σwᵢ with the unit deviance d_p below
d2_tweedie_score(p)         1 − Σwᵢd_p(yᵢ, μᵢ) / Σwᵢd_p(yᵢ, ȳ)
==========================  ==========================================================

Unit deviance of the Tweedie family with power ``p`` (``p = 0`` normal, 1 Poisson, 2 gamma,
3 inverse Gaussian):

.. math::
    d_p(y, μ) = 2\\left(\\frac{\\max(y,0)^{2-p}}{(1-p)(2-p)} - \\frac{y μ^{1-p}}{1-p}
                + \\frac{μ^{2-p}}{2-p}\\right),
    \\quad d_0 = (y-μ)^2,\\quad d_1 = 2(y\\log(y/μ) - y + μ),\\quad d_2 = 2(\\log(μ/y) + y/μ - 1).

``multioutput`` combines the q per-output values: "uniform_average" (mean), "raw_values" (the
array), an array of q weights, or for ``r2_score`` "variance_weighted" (weights = the
denominators Σwᵢ(yᵢ − ȳ)²).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..exceptions import UndefinedMetricWarning
from ..utils.extmath import xlogy
from ..utils.validation import check_array, check_consistent_length, check_sample_weight

__all__ = [
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "r2_score",
    "mean_tweedie_deviance",
    "mean_poisson_deviance",
    "mean_gamma_deviance",
    "d2_tweedie_score",
    "d2_binomial_score",
]


def _check_reg_targets(y_true, y_pred, sample_weight, multioutput, allowed):
    """Validate; return y_true, y_pred as (n, q) float arrays, weights (n,) or None, and the
    ``multioutput`` option (a string or an array of q weights)."""
    check_consistent_length(y_true, y_pred, sample_weight)
    y_true = check_array(y_true, ensure_2d=False, dtype=np.float64, input_name="y_true")
    y_pred = check_array(y_pred, ensure_2d=False, dtype=np.float64, input_name="y_pred")
    if y_true.ndim == 1:
        y_true = y_true.reshape(-1, 1)
    if y_pred.ndim == 1:
        y_pred = y_pred.reshape(-1, 1)
    if y_true.shape[1] != y_pred.shape[1]:
        raise ValueError(
            f"y_true and y_pred have different number of output ({y_true.shape[1]}!="
            f"{y_pred.shape[1]})"
        )
    w = None if sample_weight is None else check_sample_weight(sample_weight, y_true.shape[0])
    if isinstance(multioutput, str):
        if multioutput not in allowed:
            raise ValueError(
                f"multioutput must be one of {allowed} or an array of weights; got {multioutput!r}."
            )
    elif multioutput is not None:
        multioutput = np.asarray(multioutput, dtype=np.float64)
        if y_true.shape[1] == 1:
            raise ValueError("Custom weights are useful only in multi-output cases.")
        if multioutput.shape != (y_true.shape[1],):
            raise ValueError(
                f"There must be equally many custom weights ({multioutput.shape}) as outputs "
                f"({y_true.shape[1]})."
            )
    return y_true, y_pred, w, multioutput


def _combine(per_output, multioutput):
    """Turn q per-output values into what ``multioutput`` asks for."""
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return per_output
        return float(np.mean(per_output))
    return float(np.average(per_output, weights=multioutput))


_BASIC = ("raw_values", "uniform_average")


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean squared error Σwᵢ(yᵢ − μᵢ)²/Σwᵢ (per output, then combined)."""
    y, mu, w, mo = _check_reg_targets(y_true, y_pred, sample_weight, multioutput, _BASIC)
    return _combine(np.average((y - mu) ** 2, axis=0, weights=w), mo)


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Root mean squared error √(Σwᵢ(yᵢ − μᵢ)²/Σwᵢ), the root taken per output."""
    y, mu, w, mo = _check_reg_targets(y_true, y_pred, sample_weight, multioutput, _BASIC)
    return _combine(np.sqrt(np.average((y - mu) ** 2, axis=0, weights=w)), mo)


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean absolute error Σwᵢ|yᵢ − μᵢ|/Σwᵢ (per output, then combined)."""
    y, mu, w, mo = _check_reg_targets(y_true, y_pred, sample_weight, multioutput, _BASIC)
    return _combine(np.average(np.abs(y - mu), axis=0, weights=w), mo)


def r2_score(
    y_true, y_pred, *, sample_weight=None, multioutput="uniform_average", force_finite=True
):
    """Coefficient of determination R² = 1 − SS_res/SS_tot per output, then combined.

    A constant ``y_true`` makes SS_tot = 0: R² is then 1 for a perfect prediction and 0
    otherwise when ``force_finite`` (the default), NaN or −inf when not. Fewer than two
    samples give NaN with an UndefinedMetricWarning.

    Examples
    --------
    >>> from scratchlearn.metrics import r2_score
    >>> y_true = [3.0, -0.5, 2.0, 7.0]
    >>> y_pred = [2.5, 0.0, 2.0, 8.0]
    >>> print(round(r2_score(y_true, y_pred), 4))
    0.9486
    >>> print(r2_score(y_true, y_true))
    1.0
    """
    y, mu, w, mo = _check_reg_targets(
        y_true, y_pred, sample_weight, multioutput, _BASIC + ("variance_weighted",)
    )
    if y.shape[0] < 2:
        warnings.warn(
            "R^2 score is not well-defined with less than two samples.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return float("nan")
    ww = np.ones(y.shape[0]) if w is None else w
    ss_res = ww @ (y - mu) ** 2  # (q,)
    ss_tot = ww @ (y - np.average(y, axis=0, weights=ww)) ** 2  # (q,)
    with np.errstate(divide="ignore", invalid="ignore"):
        r2 = 1.0 - ss_res / ss_tot
    if force_finite:
        flat = ss_tot == 0
        r2[flat & (ss_res == 0)] = 1.0
        r2[flat & (ss_res != 0)] = 0.0
    if isinstance(mo, str) and mo == "variance_weighted":
        if not np.any(ss_tot != 0):
            # Every output is constant: fall back to the plain mean (weights are all zero).
            return float(np.mean(r2))
        return float(np.average(r2, weights=ss_tot))
    return _combine(r2, mo)


def _check_power(power):
    if (
        not isinstance(power, numbers.Real)
        or isinstance(power, bool)
        or not -np.inf < power < np.inf
        or 0 < power < 1
    ):
        raise ValueError(
            f"Tweedie deviance is only defined for power <= 0 and power >= 1; got power={power!r}."
        )
    return float(power)


def _check_domain(y, mu, p):
    """Each power has its own support; say which condition failed."""
    if p < 0:
        ok, need = np.all(mu > 0), "strictly positive y_pred"
    elif p == 0:
        ok, need = True, ""
    elif p < 2:
        ok, need = np.all(y >= 0) and np.all(mu > 0), "non-negative y and strictly positive y_pred"
    else:
        ok, need = np.all(y > 0) and np.all(mu > 0), "strictly positive y and y_pred"
    if not ok:
        raise ValueError(
            f"Mean Tweedie deviance error with power={p:g} can only be used on {need}."
        )


def _unit_deviance(y, mu, p):
    """d_p(y, μ) element-wise (see the module docstring)."""
    if p == 0:
        return (y - mu) ** 2
    if p == 1:
        return 2 * (xlogy(y, y / mu) - y + mu)
    if p == 2:
        return 2 * (np.log(mu / y) + y / mu - 1)
    return 2 * (
        np.maximum(y, 0) ** (2 - p) / ((1 - p) * (2 - p))
        - y * mu ** (1 - p) / (1 - p)
        + mu ** (2 - p) / (2 - p)
    )


def mean_tweedie_deviance(y_true, y_pred, *, sample_weight=None, power=0):
    """Mean Tweedie deviance Σwᵢ d_p(yᵢ, μᵢ)/Σwᵢ; power 0 is the MSE, 1 Poisson, 2 gamma."""
    p = _check_power(power)
    y, mu, w, _ = _check_reg_targets(y_true, y_pred, sample_weight, None, ())
    if y.shape[1] != 1:
        raise ValueError("Multioutput not supported in mean_tweedie_deviance.")
    y, mu = y[:, 0], mu[:, 0]
    _check_domain(y, mu, p)
    return float(np.average(_unit_deviance(y, mu, p), weights=w))


def mean_poisson_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean Poisson deviance: ``mean_tweedie_deviance`` with power 1."""
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=1)


def mean_gamma_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean gamma deviance: ``mean_tweedie_deviance`` with power 2."""
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=2)


def _d2_targets(y_true, y_pred, sample_weight, name):
    """(y, μ, w) as 1-d arrays for a D² score, or None (with an UndefinedMetricWarning) when
    fewer than two samples leave D(y, ȳ) undefined."""
    y, mu, w, _ = _check_reg_targets(y_true, y_pred, sample_weight, None, ())
    if y.shape[1] != 1:
        raise ValueError(f"Multioutput not supported in {name}.")
    if y.shape[0] < 2:
        warnings.warn(
            "D^2 score is not well-defined with less than two samples.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return None
    return y[:, 0], mu[:, 0], w


def _deviance_explained(unit_deviance, y, mu, w) -> float:
    """D² = 1 − D(y, μ)/D(y, ȳ), D the weighted mean unit deviance and ȳ = Σwᵢyᵢ/Σwᵢ."""
    y_bar = np.full_like(y, np.average(y, weights=w))
    numerator = np.average(unit_deviance(y, mu), weights=w)
    return float(1 - numerator / np.average(unit_deviance(y, y_bar), weights=w))


def d2_tweedie_score(y_true, y_pred, *, sample_weight=None, power=0):
    """Fraction of Tweedie deviance explained, ``1 − D(y, μ)/D(y, ȳ)`` (R² when power = 0).

    Fewer than two samples give NaN with an UndefinedMetricWarning.
    """
    p = _check_power(power)
    targets = _d2_targets(y_true, y_pred, sample_weight, "d2_tweedie_score")
    if targets is None:
        return float("nan")
    y, mu, w = targets
    _check_domain(y, mu, p)
    return _deviance_explained(lambda a, m: _unit_deviance(a, m, p), y, mu, w)


def _binomial_unit_deviance(y, mu):
    """d(y, μ) = 2[y log(y/μ) + (1 − y) log((1 − y)/(1 − μ))], with 0·log 0 = 0."""
    with np.errstate(divide="ignore"):
        return 2 * (xlogy(y, y) - xlogy(y, mu) + xlogy(1 - y, 1 - y) - xlogy(1 - y, 1 - mu))


def d2_binomial_score(y_true, y_pred, *, sample_weight=None):
    """Fraction of binomial deviance explained, ``1 − D(y, μ)/D(y, ȳ)``, for proportions
    y ∈ [0, 1] with ``sample_weight`` the numbers of trials and predicted probabilities μ.

    The binomial unit deviance is d(y, μ) = 2[y log(y/μ) + (1 − y) log((1 − y)/(1 − μ))] and ȳ
    the weighted mean Σsᵢyᵢ/Σsᵢ; for 0/1 targets D = 2 × the log loss, so this equals
    scikit-learn's ``d2_log_loss_score`` of the two-column probabilities. Fewer than two samples
    give NaN with an UndefinedMetricWarning.
    """
    targets = _d2_targets(y_true, y_pred, sample_weight, "d2_binomial_score")
    if targets is None:
        return float("nan")
    y, mu, w = targets
    if np.any((y < 0) | (y > 1)) or np.any((mu < 0) | (mu > 1)):
        raise ValueError("d2_binomial_score needs y_true and y_pred in [0, 1].")
    return _deviance_explained(_binomial_unit_deviance, y, mu, w)
