"""Link functions of generalized linear models: η = g(μ).

Symbols: μ the mean of y given x, η = xᵀw + b the linear predictor, g the link, g⁻¹ its
inverse, g′(μ) = dη/dμ its derivative. Each link is a small class whose method bodies are the
formulas of their docstrings. Domain guards (clipping μ into the open domain, capping η before
exp) live in these classes and nowhere else.
"""

import numpy as np
from scipy.special import expit, ndtr, ndtri

__all__ = ["Link", "Identity", "Log", "Logit", "Inverse", "InverseSquared", "Probit", "CLogLog"]

_EPS = np.finfo(float).eps
_TINY = np.finfo(float).tiny
_ETA_MAX = np.log(np.finfo(float).max) - 1.0  # exp(η) stays finite below this
_LOG_TINY = float(np.log(_TINY))


def _clip01(mu):
    return np.clip(mu, _EPS, 1.0 - _EPS)


class Link:
    """Base class: ``link(μ) = g(μ)``, ``inverse(η, out=None) = g⁻¹(η)``, ``deriv(μ) = g′(μ)``.

    ``out`` of ``inverse``: an array of η's shape that μ may be written into and returned (a
    fit's evaluations lend one, see :meth:`._glm_blocks.Design.work`); a link whose formula
    has no in-place form (identity: μ is η itself) returns its own array instead."""

    name = "link"

    def inverse_deriv(self, eta):
        """dμ/dη = 1 / g′(g⁻¹(η))."""
        return 1.0 / self.deriv(self.inverse(eta))

    def __repr__(self):
        return f"{type(self).__name__}()"


class Identity(Link):
    """g(μ) = μ."""

    name = "identity"

    def link(self, mu):
        """η = μ"""
        return np.asarray(mu, dtype=float)

    def inverse(self, eta, out=None):
        """μ = η"""
        return np.asarray(eta, dtype=float)

    def deriv(self, mu):
        """g′(μ) = 1"""
        return np.ones_like(mu, dtype=float)


class Log(Link):
    """g(μ) = log μ."""

    name = "log"

    def link(self, mu):
        """η = log μ"""
        return np.log(np.maximum(mu, _TINY))

    def inverse(self, eta, out=None):
        """μ = exp η  (η capped so that μ stays finite)"""
        eta = np.minimum(eta, _ETA_MAX, out=out)  # a new array (or out): exp works in place
        return np.exp(eta, out=eta) if isinstance(eta, np.ndarray) else np.exp(eta)

    def deriv(self, mu):
        """g′(μ) = 1/μ"""
        return 1.0 / np.maximum(mu, _TINY)

    def log_inverse(self, eta, out=None):
        """log μ = η, within the guards of ``inverse`` and ``link``: clip(η, log tiny, η_max).
        Saves the families' deviance kernels a log of exp(η) (and its rounding). ``out`` as
        in :meth:`inverse`."""
        out = np.minimum(eta, _ETA_MAX, out=out)  # two in-place passes: np.clip costs three
        return np.maximum(out, _LOG_TINY, out=out)


class Logit(Link):
    """g(μ) = log(μ / (1 − μ))."""

    name = "logit"

    def link(self, mu):
        """η = log(μ / (1 − μ))"""
        mu = _clip01(mu)
        return np.log(mu / (1.0 - mu))

    def inverse(self, eta, out=None):
        """μ = 1 / (1 + exp(−η))"""
        return expit(eta, out=out)

    def deriv(self, mu):
        """g′(μ) = 1 / (μ(1 − μ))"""
        mu = _clip01(mu)
        return 1.0 / (mu * (1.0 - mu))


class Probit(Link):
    """g(μ) = Φ⁻¹(μ), Φ the standard normal CDF."""

    name = "probit"

    def link(self, mu):
        """η = Φ⁻¹(μ)"""
        return ndtri(_clip01(mu))

    def inverse(self, eta, out=None):
        """μ = Φ(η)"""
        return ndtr(eta, out=out)

    def deriv(self, mu):
        """g′(μ) = 1 / φ(Φ⁻¹(μ)),  φ the standard normal density"""
        q = ndtri(_clip01(mu))
        return np.sqrt(2.0 * np.pi) * np.exp(0.5 * q * q)


class CLogLog(Link):
    """g(μ) = log(−log(1 − μ))."""

    name = "cloglog"

    def link(self, mu):
        """η = log(−log(1 − μ))"""
        return np.log(-np.log1p(-_clip01(mu)))

    def inverse(self, eta, out=None):
        """μ = 1 − exp(−exp η)"""
        return -np.expm1(-np.exp(np.minimum(eta, _ETA_MAX)))

    def deriv(self, mu):
        """g′(μ) = −1 / ((1 − μ) log(1 − μ))"""
        mu = _clip01(mu)
        return -1.0 / ((1.0 - mu) * np.log1p(-mu))


class Inverse(Link):
    """g(μ) = 1/μ (canonical for the gamma family)."""

    name = "inverse"

    def link(self, mu):
        """η = 1/μ"""
        return 1.0 / np.asarray(mu, dtype=float)

    def inverse(self, eta, out=None):
        """μ = 1/η"""
        with np.errstate(divide="ignore"):
            return 1.0 / np.asarray(eta, dtype=float)

    def deriv(self, mu):
        """g′(μ) = −1/μ²"""
        return -1.0 / np.asarray(mu, dtype=float) ** 2


class InverseSquared(Link):
    """g(μ) = 1/μ² (canonical for the inverse Gaussian family)."""

    name = "inverse_squared"

    def link(self, mu):
        """η = 1/μ²"""
        return 1.0 / np.asarray(mu, dtype=float) ** 2

    def inverse(self, eta, out=None):
        """μ = η^(−1/2)  (NaN for η ≤ 0: outside the family's domain)"""
        eta = np.asarray(eta, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(eta > 0, 1.0 / np.sqrt(np.abs(eta)), np.nan)

    def deriv(self, mu):
        """g′(μ) = −2/μ³"""
        return -2.0 / np.asarray(mu, dtype=float) ** 3


LINKS = {cls.name: cls for cls in (Identity, Log, Logit, Probit, CLogLog, Inverse, InverseSquared)}
