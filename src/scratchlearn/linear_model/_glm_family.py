"""Exponential-dispersion families of generalized linear models.

Symbols: y the target, μ = E[y|x], V(μ) the variance function (Var[y] = φV(μ)/s), φ the
dispersion (scale), s the sample weight (number of trials for the binomial family),
d(y, μ) the unit deviance, ℓ the log-likelihood. Each family is a small class whose method
bodies are their docstring formulas; ``loglike`` follows statsmodels' definitions so that
``llf_``, ``aic_`` and ``bic_`` can be compared with ``statsmodels.api.GLM``.
"""

import math

import numpy as np
from scipy.special import gammaln, log_wright_bessel, xlogy

__all__ = ["Family", "Normal", "Binomial", "Poisson", "Gamma", "InverseGaussian", "Tweedie"]

_EPS = np.finfo(float).eps


def _positive_finite(mu):
    """0 < μᵢ < ∞ for every i, by two reductions (no boolean temporaries); NaN fails min > 0."""
    return bool(mu.min() > 0 and np.isfinite(mu.max()))


def _small_integers(y):
    """y as indices when it holds integers 0 <= y <= 10⁶ (counts), else None: a function of y
    is then a table of its max(y) + 1 values, gathered (a log per row costs ~5 ns)."""
    top = y.max(initial=0.0)
    if not 0 <= top <= 1e6 or y.min(initial=0.0) < 0:
        return None
    k = y.astype(np.intp)
    return k if np.array_equal(k, y) else None


def _log_factorial(y):
    """log y! = log Γ(y + 1), by a cumulative table when y holds small integers (fast path)."""
    k = _small_integers(y)
    if k is not None:
        top = int(y.max(initial=0.0))
        return np.concatenate([[0.0], np.cumsum(np.log(np.arange(1.0, top + 1.0)))])[k]
    return gammaln(y + 1.0)


def _xlogx(y):
    """y log y with 0 log 0 = 0, for y >= 0 (xlogy(y, y)); by a table for small integers."""
    k = _small_integers(y)
    if k is not None:
        v = np.arange(int(y.max(initial=0.0)) + 1.0)
        return xlogy(v, v)[k]
    return xlogy(y, y)


def _mean(y, s, ybar):
    """ȳ = Σ sᵢyᵢ / Σ sᵢ, unless given (the whole data's, when y is one row block)."""
    return np.average(y, weights=s) if ybar is None else ybar


class Family:
    """Base class. ``fixed_scale``: φ = 1 by definition (no dispersion to estimate)."""

    name = "family"
    canonical_link = "identity"
    fixed_scale = False

    def check_y(self, y, owner):
        """Raise ValueError if y is outside the family's support (overridden per family)."""

    def clip_mu(self, mu):
        """Domain guard: μ kept inside the open mean domain (identity for the normal family)."""
        return mu

    def valid_mu(self, mu):
        """True when every μ is inside the mean domain (all reals for the normal family)."""
        return bool(np.all(np.isfinite(mu)))

    def starting_mu(self, y, s, ybar=None, ymax=None):
        """μ₀ = (y + ȳ)/2: strictly inside the domain for any valid y, as statsmodels does.

        ``ybar`` (the s-weighted mean of y) and ``ymax`` (max y) are those of the whole data
        when y is one row block of it; None computes them from y and s."""
        return self.clip_mu((y + _mean(y, s, ybar)) / 2.0)

    def deviance(self, y, mu, s):
        """D = Σ sᵢ d(yᵢ, μᵢ)"""
        return float(s @ self.unit_deviance(y, mu))

    def deviance_split(self, y):
        """Fast path for optimisers: d(y, μ) = kernel(y, μ) + c(y), where ``c`` depends on y only
        and is computed once. Returns (kernel, c(y)); the default is (unit_deviance, 0).
        Every kernel is ``kernel(y, μ, log_mu=None)``: ``log_mu`` (log μ, known without a log
        under the log link) replaces log μ where the kernel has one. A kernel may overwrite
        ``log_mu`` (its callers pass a scratch array that they do not read again): Poisson's,
        Gamma's and Tweedie's build their result in it, saving n-sized temporaries."""

        def kernel(y, mu, log_mu=None):
            return self.unit_deviance(y, mu)

        return kernel, np.zeros_like(y)

    def loglike_from_kernel(self, k_sum, y, s, scale=1.0):
        """ℓ at φ = ``scale`` from Σ sᵢk(yᵢ, μᵢ), the kernel sum of :meth:`deviance_split` that
        the deviance has already made, where ℓ is −1/(2φ) of it plus terms of y, s and φ alone
        (Poisson, binomial, gamma): a pass over X and the logarithms of μ saved. None where it
        is not (the caller then evaluates :meth:`loglike`)."""
        return None

    def __repr__(self):
        return f"{type(self).__name__}()"


def _bad_y(owner, family, what, y, mask):
    k = int(np.count_nonzero(mask))
    bad = y[mask][0]
    return ValueError(
        f"{owner}: the {family} family needs {what}; y has {k} value(s) outside that range "
        f"(e.g. {bad!r})."
    )


class Normal(Family):
    """y ~ N(μ, φ/s)."""

    name = "normal"

    def variance(self, mu):
        """V(μ) = 1"""
        return np.ones_like(mu)

    def unit_deviance(self, y, mu):
        """d(y, μ) = (y − μ)²"""
        return (y - mu) ** 2

    def loglike(self, y, mu, s, scale):
        """ℓ = −½ Σ [sᵢ(yᵢ − μᵢ)²/φ + log(2πφ/sᵢ)]"""
        return float(-0.5 * np.sum(s * (y - mu) ** 2 / scale + np.log(2 * np.pi * scale / s)))


class Binomial(Family):
    """sᵢyᵢ ~ Binomial(sᵢ, μᵢ): y a proportion of successes out of s trials (s = 1: y ∈ {0, 1})."""

    name = "binomial"
    canonical_link = "logit"
    fixed_scale = True

    def valid_mu(self, mu):
        """0 ≤ μ ≤ 1"""
        return bool(np.all(np.isfinite(mu)) and np.all((mu >= 0) & (mu <= 1)))

    def check_y(self, y, owner):
        bad = (y < 0) | (y > 1)
        if bad.any():
            raise _bad_y(owner, "binomial", "proportions 0 <= y <= 1", y, bad)

    def clip_mu(self, mu):
        return np.clip(mu, _EPS, 1.0 - _EPS)

    def starting_mu(self, y, s, ybar=None, ymax=None):
        """μ₀ = (sy + ½)/(s + 1)"""
        return (s * y + 0.5) / (s + 1.0)

    def variance(self, mu):
        """V(μ) = μ(1 − μ)"""
        return mu * (1.0 - mu)

    def unit_deviance(self, y, mu):
        """d(y, μ) = 2[y log(y/μ) + (1 − y) log((1 − y)/(1 − μ))]"""
        mu = self.clip_mu(mu)
        return 2.0 * (xlogy(y, y / mu) + xlogy(1.0 - y, (1.0 - y) / (1.0 - mu)))

    def deviance_split(self, y):
        """d = −2[y log μ + (1 − y) log(1 − μ)] + 2[y log y + (1 − y) log(1 − y)]"""

        def kernel(y, mu, log_mu=None):
            mu = self.clip_mu(mu)
            return -2.0 * (y * np.log(mu) + (1.0 - y) * np.log1p(-mu))

        return kernel, 2.0 * (xlogy(y, y) + xlogy(1.0 - y, 1.0 - y))

    def loglike(self, y, mu, s, scale=1.0):
        """ℓ = Σ [log C(sᵢ, sᵢyᵢ) + sᵢyᵢ log μᵢ + sᵢ(1 − yᵢ) log(1 − μᵢ)]"""
        mu = self.clip_mu(mu)
        k = s * y
        return float(np.sum(self._log_comb(y, s) + xlogy(k, mu) + xlogy(s - k, 1.0 - mu)))

    @staticmethod
    def _log_comb(y, s):
        """log C(sᵢ, sᵢyᵢ)"""
        k = s * y
        return gammaln(s + 1) - gammaln(k + 1) - gammaln(s - k + 1)

    def loglike_from_kernel(self, k_sum, y, s, scale=1.0):
        """ℓ = Σ log C(sᵢ, sᵢyᵢ) − ½ Σ sᵢk(yᵢ, μᵢ), k = −2[y log μ + (1 − y) log(1 − μ)]"""
        return float(np.sum(self._log_comb(y, s))) - 0.5 * k_sum


class Poisson(Family):
    """y ~ Poisson(μ) (weights s multiply each observation's log-likelihood)."""

    name = "poisson"
    canonical_link = "log"
    fixed_scale = True

    def valid_mu(self, mu):
        """μ > 0 (and finite: min μ > 0 is False for NaN)"""
        return _positive_finite(mu)

    def check_y(self, y, owner):
        bad = y < 0
        if bad.any():
            raise _bad_y(owner, "poisson", "non-negative counts y >= 0", y, bad)

    def clip_mu(self, mu):
        return np.maximum(mu, np.finfo(float).tiny)

    def starting_mu(self, y, s, ybar=None, ymax=None):
        """μ₀ = (y + ȳ)/2, kept positive"""
        top = y.max() if ymax is None else ymax
        return np.maximum((y + _mean(y, s, ybar)) / 2.0, 1e-3 * max(top, 1.0))

    def variance(self, mu):
        """V(μ) = μ"""
        return mu

    def unit_deviance(self, y, mu):
        """d(y, μ) = 2[y log(y/μ) − (y − μ)]"""
        return 2.0 * (xlogy(y, y / self.clip_mu(mu)) - y + mu)

    def deviance_split(self, y):
        """d = 2(μ − y log μ) + 2(y log y − y)"""

        def kernel(y, mu, log_mu=None):
            # one buffer, in place: 2(μ − y log μ), in log_mu itself when given
            k = np.log(self.clip_mu(mu)) if log_mu is None else log_mu
            k *= y
            np.subtract(mu, k, out=k)
            k *= 2.0
            return k

        return kernel, 2.0 * (_xlogx(y) - y)

    def loglike(self, y, mu, s, scale=1.0):
        """ℓ = Σ sᵢ[yᵢ log μᵢ − μᵢ − log yᵢ!]"""
        return float(np.sum(s * (xlogy(y, mu) - mu - _log_factorial(y))))

    def log_link_objective(self, eta, y, s, sy, work):
        """Under the log link, in η itself (η within the link's guards, which then clip
        nothing): μ = e^η, Σ sᵢk(yᵢ, μᵢ) = 2(sᵀμ − (s ⊙ y)ᵀη), r = s ⊙ (y − μ) and
        Σr = sᵀy − sᵀμ. One exp, two dot products
        and one pass for r: the generic path's clips, log μ, in-place kernel and sums cost
        as many passes again. ``sy`` = (s ⊙ y, sᵀy, whether s = 1, Σs); ``work(i)`` the
        design's scratch vectors. Returns (Σ sᵢkᵢ, r, Σr)."""
        s_y, sum_sy, unit, _ = sy
        mu, r_out = np.exp(eta, out=work(0)), work(2)
        s_mu = float(s @ mu)
        k_sum = 2.0 * (s_mu - float(s_y @ eta))
        r = np.subtract(y, mu, out=r_out)
        if not unit:
            r *= s
        return k_sum, r, sum_sy - s_mu

    def loglike_from_kernel(self, k_sum, y, s, scale=1.0):
        """ℓ = −½ Σ sᵢk(yᵢ, μᵢ) − Σ sᵢ log yᵢ!, k = 2(μ − y log μ)"""
        return -0.5 * k_sum - float(s @ _log_factorial(y))


class Gamma(Family):
    """y ~ Gamma with mean μ and shape s/φ.  ``fixed_scale=True`` gives the exponential family."""

    name = "gamma"
    canonical_link = "inverse"

    def __init__(self, fixed_scale=False):
        self.fixed_scale = fixed_scale
        self.name = "exponential" if fixed_scale else "gamma"

    def valid_mu(self, mu):
        """μ > 0 (and finite: min μ > 0 is False for NaN)"""
        return _positive_finite(mu)

    def check_y(self, y, owner):
        bad = y <= 0
        if bad.any():
            raise _bad_y(owner, self.name, "strictly positive y > 0", y, bad)

    def clip_mu(self, mu):
        return np.maximum(mu, np.finfo(float).tiny)

    def variance(self, mu):
        """V(μ) = μ²"""
        return mu * mu

    def unit_deviance(self, y, mu):
        """d(y, μ) = 2[(y − μ)/μ − log(y/μ)]"""
        return 2.0 * ((y - mu) / mu - np.log(y / mu))

    def deviance_split(self, y):
        """d = 2(y/μ + log μ) − 2(1 + log y)"""

        def kernel(y, mu, log_mu=None):
            # 2(y/μ + log μ), in log_mu itself when given (one temporary, y/μ)
            k = np.log(mu) if log_mu is None else log_mu
            k += y / mu
            k *= 2.0
            return k

        return kernel, -2.0 * (1.0 + np.log(y))

    def log_link_objective(self, eta, y, s, sy, work):
        """Under the log link, in η (see :meth:`Poisson.log_link_objective`): with q = 1/μ =
        e^−η, Σ sᵢk(yᵢ, μᵢ) = 2((s ⊙ y)ᵀq + sᵀη), r = s ⊙ (y − μ)/μ = s ⊙ y ⊙ q − s and
        Σr = (s ⊙ y)ᵀq − Σs."""
        s_y, _, unit, S = sy
        q = np.exp(np.negative(eta, out=work(0)), out=work(0))
        r = np.multiply(y if unit else s_y, q, out=work(2))  # s ⊙ y ⊙ q
        syq = float(r.sum())
        k_sum = 2.0 * (syq + float(s @ eta))
        if unit:
            r -= 1.0
        else:
            r -= s
        return k_sum, r, syq - S

    def loglike(self, y, mu, s, scale):
        """ℓ = Σ [νᵢ log(νᵢyᵢ/μᵢ) − νᵢyᵢ/μᵢ − log Γ(νᵢ) − log yᵢ],  νᵢ = sᵢ/φ"""
        nu = s / scale
        r = y / mu
        return float(np.sum(nu * np.log(nu * r) - nu * r - gammaln(nu) - np.log(y)))

    def loglike_from_kernel(self, k_sum, y, s, scale=1.0):
        """ℓ = Σ [νᵢ log νᵢ − log Γ(νᵢ) + (νᵢ − 1) log yᵢ] − Σ sᵢk(yᵢ, μᵢ)/(2φ), νᵢ = sᵢ/φ and
        k = 2(y/μ + log μ): :meth:`loglike` with ν(log y − log μ − y/μ) = −νk/2 + ν log y.
        Equal weights (the usual case) make the first sum n times one term."""
        if s.min() == s.max():
            nu = s[0] / scale
            part = len(s) * (nu * math.log(nu) - gammaln(nu)) + (nu - 1.0) * np.log(y).sum()
        else:
            nu = s / scale
            part = np.sum(nu * np.log(nu) - gammaln(nu) + (nu - 1.0) * np.log(y))
        return float(part) - k_sum / (2.0 * scale)


class InverseGaussian(Family):
    """y ~ inverse Gaussian with mean μ and dispersion φ/s."""

    name = "inverse_gaussian"
    canonical_link = "inverse_squared"

    def valid_mu(self, mu):
        """μ > 0 (and finite: min μ > 0 is False for NaN)"""
        return _positive_finite(mu)

    def check_y(self, y, owner):
        bad = y <= 0
        if bad.any():
            raise _bad_y(owner, "inverse_gaussian", "strictly positive y > 0", y, bad)

    def clip_mu(self, mu):
        return np.maximum(mu, np.finfo(float).tiny)

    def variance(self, mu):
        """V(μ) = μ³"""
        return mu**3

    def unit_deviance(self, y, mu):
        """d(y, μ) = (y − μ)²/(yμ²)"""
        return (y - mu) ** 2 / (y * mu * mu)

    def loglike(self, y, mu, s, scale):
        """ℓ = −½ Σ [sᵢ(yᵢ − μᵢ)²/(φyᵢμᵢ²) + log(2πφyᵢ³/sᵢ)]"""
        return float(
            -0.5
            * np.sum(s * (y - mu) ** 2 / (scale * y * mu**2) + np.log(2 * np.pi * scale * y**3 / s))
        )


class Tweedie(Family):
    """Tweedie family with variance power p: p = 0 normal, 1 Poisson, (1, 2) compound
    Poisson-gamma, 2 gamma, 3 inverse Gaussian; 0 < p < 1 has no distribution and is refused."""

    name = "tweedie"
    canonical_link = "log"  # scikit-learn's choice for p > 0 ("auto" picks identity for p <= 0)

    def __init__(self, power=0.0):
        if 0 < power < 1:
            raise ValueError(f"Tweedie power must be <= 0 or >= 1; got {power}.")
        self.power = float(power)

    def __repr__(self):
        return f"Tweedie(power={self.power})"

    def valid_mu(self, mu):
        """μ > 0 when p > 0"""
        ok = np.all(np.isfinite(mu))
        return bool(ok and (self.power <= 0 or np.all(mu > 0)))

    def check_y(self, y, owner):
        p = self.power
        if 1 <= p < 2:
            bad, what = y < 0, f"y >= 0 (power {p})"
        elif p >= 2:
            bad, what = y <= 0, f"y > 0 (power {p})"
        else:
            return
        if bad.any():
            raise _bad_y(owner, "tweedie", what, y, bad)

    def clip_mu(self, mu):
        return mu if self.power == 0 else np.maximum(mu, np.finfo(float).tiny)

    def starting_mu(self, y, s, ybar=None, ymax=None):
        mu = (y + _mean(y, s, ybar)) / 2.0
        top = y.max() if ymax is None else ymax
        return mu if self.power <= 0 else np.maximum(mu, 1e-3 * max(top, 1.0))

    def variance(self, mu):
        """V(μ) = μᵖ"""
        return np.power(mu, self.power)

    def unit_deviance(self, y, mu):
        """d(y, μ) = 2[max(y,0)^(2−p)/((1−p)(2−p)) − yμ^(1−p)/(1−p) + μ^(2−p)/(2−p)]
        (limits at p = 0, 1, 2: normal, Poisson, gamma)"""
        p = self.power
        if p == 0:
            return (y - mu) ** 2
        if p == 1:
            return 2.0 * (xlogy(y, y / mu) - y + mu)
        if p == 2:
            return 2.0 * ((y - mu) / mu - np.log(y / mu))
        y_pos = np.maximum(y, 0.0)
        return 2.0 * (
            np.power(y_pos, 2 - p) / ((1 - p) * (2 - p))
            - y * np.power(mu, 1 - p) / (1 - p)
            + np.power(mu, 2 - p) / (2 - p)
        )

    def log_link_objective(self, eta, y, s, sy, work):
        """Under the log link, in η (see :meth:`Poisson.log_link_objective`): with
        a = μ^(1−p) = e^((1−p)η) and b = μ^(2−p) = e^((2−p)η), Σ sᵢk(yᵢ, μᵢ) =
        2[sᵀb/(2−p) − (s ⊙ y)ᵀa/(1−p)], r = s ⊙ (y − μ)/μ^(p−1) = s ⊙ y ⊙ a − s ⊙ b and
        Σr = (s ⊙ y)ᵀa − sᵀb. p = 0, 1, 2 are the normal (no η form), Poisson and gamma."""
        p = self.power
        if p in (0, 1, 2):
            same = getattr(
                make_family(("normal", "poisson", "gamma")[int(p)]), "log_link_objective", None
            )
            return None if same is None else same(eta, y, s, sy, work)
        s_y, _, unit, _ = sy
        a = np.exp(np.multiply(eta, 1.0 - p, out=work(0)), out=work(0))
        b = np.exp(np.multiply(eta, 2.0 - p, out=work(1)), out=work(1))
        r = np.multiply(y if unit else s_y, a, out=work(2))  # s ⊙ y ⊙ a
        sya, sb = float(r.sum()), float(s @ b)
        k_sum = 2.0 * (sb / (2.0 - p) - sya / (1.0 - p))
        if not unit:
            b *= s
        r -= b
        return k_sum, r, sya - sb

    def deviance_split(self, y):
        """d = 2[μ^(2−p)/(2−p) − yμ^(1−p)/(1−p)] + 2 max(y,0)^(2−p)/((1−p)(2−p))"""
        p = self.power
        if p in (0, 1, 2):
            return make_family(("normal", "poisson", "gamma")[int(p)]).deviance_split(y)

        def kernel(y, mu, log_mu=None):
            if log_mu is None:
                return 2.0 * (np.power(mu, 2 - p) / (2 - p) - y * np.power(mu, 1 - p) / (1 - p))
            # 2μ^(1−p)(μ/(2−p) − y/(1−p)), μ^(1−p) = exp((1−p) log μ) built in log_mu itself
            # (and μ^(2−p) = μ·μ^(1−p)): two temporaries where the plain formula makes six
            m1 = log_mu
            m1 *= 1 - p
            np.exp(m1, out=m1)
            t = mu / (2 - p)
            t -= y / (1 - p)
            m1 *= t
            m1 *= 2.0
            return m1

        return kernel, 2.0 * np.power(np.maximum(y, 0.0), 2 - p) / ((1 - p) * (2 - p))

    def loglike(self, y, mu, s, scale):
        """Exact log-density (statsmodels' definition): p = 0, 1, 2 normal, Poisson, gamma; for
        1 < p < 2 the compound Poisson-gamma density by Wright's Bessel function
        (Dunn & Smyth 2005), with φᵢ = φ/sᵢ, θ = μ^(1−p)/(1−p), κ = μ^(2−p)/(2−p),
        a = (2−p)/(1−p):
        ℓ = Σ [(yᵢθᵢ − κᵢ)/φᵢ + 1{yᵢ>0}(−log yᵢ + log W(−a, 0, ((p−1)φᵢ/yᵢ)^a/((2−p)φᵢ)))];
        NaN for other powers (no closed form)."""
        p = self.power
        if p == 0:
            return Normal().loglike(y, mu, s, scale)
        if p == 1:
            return Poisson().loglike(y, mu, s)
        if p == 2:
            return Gamma().loglike(y, mu, s, scale)
        if not 1 < p < 2:
            return float("nan")
        phi = scale / s
        theta = np.power(mu, 1 - p) / (1 - p)
        kappa = np.power(mu, 2 - p) / (2 - p)
        a = (2 - p) / (1 - p)
        ll = (y * theta - kappa) / phi
        pos = y > 0
        x = ((p - 1) * phi[pos] / y[pos]) ** a / ((2 - p) * phi[pos])
        ll[pos] += -np.log(y[pos]) + log_wright_bessel(-a, 0.0, x)
        return float(np.sum(ll))


FAMILIES = ("normal", "binomial", "poisson", "gamma", "exponential", "inverse_gaussian", "tweedie")


def make_family(name, power=0.0):
    """Family object for a ``family`` string (``power`` only used by "tweedie")."""
    if name == "normal":
        return Normal()
    if name == "binomial":
        return Binomial()
    if name == "poisson":
        return Poisson()
    if name == "gamma":
        return Gamma()
    if name == "exponential":
        return Gamma(fixed_scale=True)
    if name == "inverse_gaussian":
        return InverseGaussian()
    return Tweedie(power)
