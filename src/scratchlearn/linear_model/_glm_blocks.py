"""The GLM fits' row statistics: one pure function of a row block each, summed over blocks.

Symbols (as in :mod:`._glm`)
----------------------------
X̃_b, y_b, s_b  one row block of the design, the target and the weights (s = 1 when absent)
β              current coefficients (w, b), static: the same for every block
η, μ           η = X̃_bβ, μ = g⁻¹(η) on the block
W, z, r        IRLS weights W = s/(g′(μ)²V(μ)), working response z = η + g′(μ)(y − μ),
               gradient residual r = s(y − μ)/(V(μ)g′(μ)), so that ∇L = −X̃ᵀr/S + penalty ⊙ β
d = k + c      the family's unit deviance split into a μ-kernel k(y, μ) and a y-only part c(y)

Every quantity an iteration of IRLS or L-BFGS needs from the data is a sum over rows, so a
statistic of the whole data is the sum of the statistics of its blocks
(:func:`scratchlearn.utils._blocks.block_reduce`):

- :func:`setup_stat`: S = Σ s, Σ sy (ȳ), max y, Σ s c(y), n (max y combines by max), and the
  family's check of y, once per fit;
- :func:`irls_stat`: D = Σ s d(y, μ), X̃ᵀr, X̃ᵀWz and X̃ᵀWX̃ at β (or at the starting μ₀):
  everything one IRLS iteration needs, (p² + 2p + 2) numbers, in one pass (or in two parts:
  the point, then its normal equations only when a step is taken from it);
- :func:`objective_stat`: Σ s k(y, μ) and X̃ᵀr at β: L and ∇L for L-BFGS, p + 2 numbers (in
  η itself under the log link where the family has the form: ``log_link_objective``);
- :func:`noise_stat`: Σ s|k(y, μ)|, the scale of L's rounding (IRLS's flat-step test);
- :func:`final_stat`, :func:`loglike_stat`: deviance, null deviance, Pearson χ², the Fisher
  information X̃ᵀWX̃ and the log-likelihood at the solution.

In memory the data is one block (a :class:`Design`, whose last X̃β is reused); on Dask each
block's statistic is computed on the worker that holds the block and only these small sums
travel. :class:`GLMData` runs the reductions for the solvers, which never see rows.
"""

import math

import numpy as np

from ..utils._blocks import block_reduce, is_dask_collection
from ._glm_link import _ETA_MAX, _LOG_TINY

__all__ = [
    "Design",
    "GLMData",
    "final_stat",
    "irls_stat",
    "loglike_stat",
    "noise_stat",
    "objective_stat",
    "setup_stat",
    "working_weights_response",
]

_UNIT_VG = {("normal", "identity"), ("poisson", "log"), ("binomial", "logit")}


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
        self._work = []  # scratch vectors (work), and _A the scaled copy of X (gram)
        self._A = None

    def work(self, i):
        """The i-th (n,) scratch vector of this design, allocated at its first use and reused by
        every later evaluation of the fit (μ, log μ, r). Fresh n-sized temporaries at each of a
        fit's evaluations cost page faults: the allocator hands freed memory back to the system
        and takes new pages (a Poisson fit on 100,000 x 20 in a fresh process spent 40% of its
        time there). Whatever is written here must not outlive the statistic that wrote it."""
        while len(self._work) <= i:
            self._work.append(np.empty(self.X.shape[0]))
        return self._work[i]

    def memo(self, name, y, s, make):
        """make(y, s), computed once per (y, s) of this design (e.g. s ⊙ y, which every
        evaluation of a fit would otherwise rebuild); the entry holds y and s, so that another
        array can never be taken for them."""
        memos = self.__dict__.setdefault("_memos", {})
        entry = memos.get(name)
        if entry is None or entry[0] is not y or entry[1] is not s:
            entry = memos[name] = (y, s, make(y, s))
        return entry[2]

    def _scaled(self, r):
        """A = diag(r) X in an (n, d) buffer kept for the fit's later Gram products (IRLS makes
        one per iteration: a fresh X-sized array each time is X's size in page faults)."""
        A = self._A
        if A is None:
            A = self._A = np.empty(self.X.shape)
        return np.multiply(self.X, r[:, None], out=A)

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

    def tdot(self, r, r_sum=None):
        """X̃ᵀr = (Xᵀr, Σr); r of shape (n,) or (n, k) (k products in one pass over X); ``r_sum``
        Σr when the caller knows it (a pass saved)."""
        if not self.fit_intercept:
            return self.X.T @ r
        if r_sum is None:
            return np.concatenate([self.X.T @ r, r.sum(axis=0, keepdims=True)])
        return np.append(self.X.T @ r, r_sum)

    def gram(self, W):
        """X̃ᵀ diag(W) X̃ = AᵀA with A = diag(√W) X̃, (p, p): one scaled copy of X and a symmetric
        product (BLAS syrk: half the flops of X̃ᵀ(WX̃)). Weights that are not all ≥ 0 (a Tweedie
        power < 0 at μ < 0, or NaN) take the general product (X̃ᵀ diag(W)) X̃."""
        d = self.X.shape[1]
        if W.min() >= 0:
            r = np.sqrt(W)  # (n,)
            A = self._scaled(r) if isinstance(self.X, np.ndarray) else self.X * r[:, None]
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


def residual(y, s, family, link, mu, out=None):
    """r = s(y − μ)/(V(μ)g′(μ)), so that ∇L = −(1/S) X̃ᵀr + penalty ⊙ β (μ clipped into the
    open domain), built in one buffer (in-place ufuncs; ``out`` an (n,) array to use)."""
    r = np.subtract(y, mu, out=out)  # (n,)
    r *= s
    if (family.name, link.name) not in _UNIT_VG:  # V(μ)g′(μ) = 1 for the canonical pairs
        mu_c = family.clip_mu(mu)  # domain guard: V(μ)g′(μ) stays finite and non-zero
        vg = family.variance(mu_c)
        if vg is mu:  # V(μ) = μ, and μ not clipped: the caller's array, not to be written
            vg = vg * link.deriv(mu_c)
        else:  # a new array (or the clipped copy of μ): it takes the product
            vg *= link.deriv(mu_c)
        r /= vg
    return r


def deviance_kernel(family):
    """k of d(y, μ) = k(y, μ) + c(y) (:meth:`Family.deviance_split`; k does not depend on the
    rows it was split on)."""
    return family.deviance_split(np.zeros(0))[0]


# -- block statistics ---------------------------------------------------------------------------
def _block(X, y, s, fit_intercept):
    """(X̃_b, s_b): a Design of the block (the in-memory Design itself), unit weights if None."""
    Xt = X if isinstance(X, Design) else Design(X, fit_intercept)
    return Xt, (np.ones(len(y)) if s is None else s)


def setup_stat(X, y, s, family, owner):
    """n, S = Σ sᵢ, Σ sᵢyᵢ, max yᵢ and Σ sᵢc(yᵢ) of a block, after the family's check of y
    (raised on the worker that holds a bad block). Combine with :func:`combine_setup`."""
    s = np.ones(len(y)) if s is None else s
    family.check_y(y, owner)
    c = family.deviance_split(y)[1]
    return {
        "n": len(y),
        "S": s.sum(),
        "sy": np.multiply(y, s).sum(),  # as np.average(y, weights=s) sums
        "ymax": y.max() if len(y) else -np.inf,
        "c_sum": float(s @ c),
    }


def combine_setup(a, b):
    """Sums, except max y: the maximum of the two."""
    out = {k: a[k] + b[k] for k in a if k != "ymax"}
    out["ymax"] = max(a["ymax"], b["ymax"])
    return out


def _invalid(p):
    """The statistic of a block whose μ left the mean domain: L = ∞ once summed."""
    return {"n_bad": 1, "dev": 0.0, "XTr": np.zeros(p), "XTWz": np.zeros(p),
            "H": np.zeros((p, p))}  # fmt: skip


def irls_stat(X, y, s, beta, family, link, fit_intercept, start, kernel=None, parts="all"):
    """D = Σ sᵢd(yᵢ, μᵢ), X̃ᵀr, X̃ᵀWz and X̃ᵀWX̃ of a block: one IRLS iteration's data.

    ``beta`` None: at the starting means μ₀ = family.starting_mu(y, s, ȳ, max y) with
    η = g(μ₀), ``start`` = (ȳ, max y) of the whole data. Otherwise at η = X̃β; μ outside the
    mean domain gives ``n_bad`` = 1. ``kernel`` (Dask fits) adds "noise" = Σ sᵢ|k(yᵢ, μᵢ)|
    (see :func:`noise_stat`), so that no second pass is needed for it. ``parts``: "all", or
    "point" (D and X̃ᵀr: they alone decide whether a point is accepted and whether the fit has
    converged) and "system" (X̃ᵀWz and X̃ᵀWX̃, whose Gram product is most of the cost) apart.
    """
    Xt, s = _block(X, y, s, fit_intercept)
    p = Xt.shape[1]
    if len(y) == 0:
        noise = {"noise": 0.0} if kernel is not None and beta is not None else {}
        return {**_invalid(p), "n_bad": 0, **noise}
    if beta is None:
        mu = family.starting_mu(y, s, *start)
        eta = link.link(mu)
    else:
        eta = Xt.dot(beta)
        mu = link.inverse(eta)
        if not family.valid_mu(mu):
            return {**_invalid(p), **({"noise": 0.0} if kernel is not None else {})}
    if parts == "system":
        W, z = working_weights_response(family, link, y, s, eta, mu)
        return {"XTWz": Xt.tdot(W * z), "H": Xt.gram(W)}
    out = {"n_bad": 0, "dev": family.deviance(y, mu, s)}  # exact form: the stop rule's precision
    if parts == "point":
        out["XTr"] = Xt.tdot(residual(y, s, family, link, mu))
        return out
    W, z = working_weights_response(family, link, y, s, eta, mu)
    if beta is None:  # at μ₀: the gradient and the right-hand side as two products
        out["XTr"] = Xt.tdot(residual(y, s, family, link, mu))
        out["XTWz"] = Xt.tdot(W * z)
    else:  # X̃ᵀ applied to [r, Wz] in one pass over X
        T = Xt.tdot(np.column_stack([residual(y, s, family, link, mu), W * z]))  # (p, 2)
        out["XTr"], out["XTWz"] = T[:, 0], T[:, 1]
    out["H"] = Xt.gram(W)  # X̃ᵀWX̃, (p, p)
    if kernel is not None and beta is not None:
        out["noise"] = noise_stat(Xt, y, s, beta, family, link, fit_intercept, kernel)
    return out


def noise_stat(X, y, s, beta, family, link, fit_intercept, kernel):
    """Σ sᵢ|k(yᵢ, μᵢ)|: the size of the terms whose cancellation makes D (IRLS's rounding noise
    of L is 64ε(|L| + (Σ sᵢ|kᵢ| + |Σ sᵢcᵢ|)/(2S)))."""
    Xt, s = _block(X, y, s, fit_intercept)
    if len(y) == 0:
        return 0.0
    mu = link.inverse(Xt.dot(beta))
    with np.errstate(all="ignore"):
        return float(s @ np.abs(kernel(y, family.clip_mu(mu))))


def _weighted_target(y, s):
    """(s ⊙ y, sᵀy, whether every sᵢ = 1, Σs): what the η forms of the objective
    (``Family.log_link_objective``) read at every evaluation, made once per fit."""
    return s * y, float(s @ y), bool(np.all(s == 1.0)), float(s.sum())


def objective_stat(X, y, s, beta, family, link, fit_intercept, kernel=None):
    """Σ sᵢk(yᵢ, μᵢ) (Σ sᵢd(yᵢ, μᵢ) when ``kernel`` is None) and X̃ᵀr of a block at β:
    L = (that + Σ sᵢcᵢ)/(2S) + ½βᵀdiag(penalty)β and ∇L = −X̃ᵀr/S + penalty ⊙ β."""
    Xt, s = _block(X, y, s, fit_intercept)
    p = Xt.shape[1]
    if len(y) == 0:
        return {"n_bad": 0, "dev": 0.0, "XTr": np.zeros(p)}
    eta = Xt.dot(beta)  # (n,)
    in_eta = getattr(family, "log_link_objective", None) if link.name == "log" else None
    if (
        in_eta is not None
        and kernel is not None
        and _LOG_TINY <= eta.min() <= eta.max() <= _ETA_MAX
    ):
        # the family's kernel and residual written in η (no guard clips anything here)
        dev, r, r_sum = in_eta(eta, y, s, Xt.memo("sy", y, s, _weighted_target), Xt.work)
        return {"n_bad": 0, "dev": dev, "XTr": Xt.tdot(r, r_sum)}
    mu = link.inverse(eta, out=Xt.work(0))
    if not family.valid_mu(mu):  # outside the mean domain: an infinitely bad point
        return {"n_bad": 1, "dev": 0.0, "XTr": np.zeros(p)}
    if kernel is None:
        dev = s @ family.unit_deviance(y, mu)
    else:
        log_mu = link.log_inverse(eta, out=Xt.work(1)) if link.name == "log" else None
        dev = s @ kernel(y, mu, log_mu)  # (which the kernel may overwrite)
    r = residual(y, s, family, link, mu, out=Xt.work(2))
    return {"n_bad": 0, "dev": float(dev), "XTr": Xt.tdot(r)}


def final_stat(X, y, s, beta, family, link, fit_intercept, kernel, mu0, info, scale=None):
    """At the solution: Σ sᵢk(yᵢ, μᵢ), Σ sᵢk(yᵢ, μ₀) (null model), Pearson Σ sᵢ(yᵢ − μᵢ)²/V(μᵢ),
    Σ sᵢ(yᵢ − μᵢ)², the count of binomial μ within 10ε of 0 or 1, (``info``) the Fisher
    information X̃ᵀWX̃, and (``scale`` not None: a family whose φ is known) ℓ at φ = scale."""
    Xt, s = _block(X, y, s, fit_intercept)
    p, n = Xt.shape[1], len(y)
    out = {"dev": 0.0, "null": 0.0, "pearson": 0.0, "rss": 0.0, "n_edge": 0,
           "info": np.zeros((p, p)) if info else None,
           "llf": None if scale is None else 0.0}  # fmt: skip
    if n == 0:
        return out
    eta = Xt.dot(beta)
    mu = link.inverse(eta, out=Xt.work(0))
    log_mu = link.log_inverse(eta, out=Xt.work(1)) if link.name == "log" else None  # log μ = η
    out["dev"] = float(s @ kernel(y, mu, log_mu))
    # the null model's constant μ₀ and its one log, in the scratch vectors (log μ is spent)
    mu0_n = Xt.work(2)
    mu0_n.fill(mu0)
    log_mu0 = Xt.work(1) if mu0 > 0 else None
    if log_mu0 is not None:
        log_mu0.fill(math.log(mu0))
    out["null"] = float(s @ kernel(y, mu0_n, log_mu0))
    d2 = np.subtract(y, mu, out=Xt.work(1))  # (y − μ)², in place
    d2 *= d2
    out["rss"] = float(s @ d2)
    with np.errstate(divide="ignore", invalid="ignore"):
        d2 /= family.variance(mu)
    out["pearson"] = float(s @ d2)
    if family.name == "binomial":
        edge = 10 * np.finfo(float).eps
        out["n_edge"] = int(np.count_nonzero((mu < edge) | (mu > 1 - edge)))
    if info:
        out["info"] = Xt.gram(working_weights_response(family, link, y, s, eta, mu)[0])
    if scale is not None:  # φ known (= 1): ℓ from the kernel sum where the family can
        llf = family.loglike_from_kernel(out["dev"], y, s, scale)
        if llf is None:
            llf = loglike_stat(Xt, y, s, beta, family, link, fit_intercept, scale)
        out["llf"] = llf
    return out


def loglike_stat(X, y, s, beta, family, link, fit_intercept, scale):
    """ℓ of a block at φ = scale (:meth:`Family.loglike`: a sum over rows)."""
    Xt, s = _block(X, y, s, fit_intercept)
    if len(y) == 0:
        return 0.0
    with np.errstate(all="ignore"):
        return family.loglike(y, link.inverse(Xt.dot(beta)), s, scale)


# -- the data of a fit, seen through its statistics ---------------------------------------------
class GLMData:
    """X̃, y, s of one fit, reduced by block statistics (one block in memory, the row blocks of
    a Dask array otherwise). The setup pass gives n, S, ȳ, max y and Σ sᵢc(yᵢ)."""

    def __init__(self, X, y, s, family, link, fit_intercept, owner):
        self.dask = is_dask_collection(X)
        self.X = X if self.dask else Design(X, fit_intercept)
        self.y, self.s = y, s
        self.family, self.link, self.fit_intercept = family, link, fit_intercept
        self.d = X.shape[1]
        self.p = self.d + int(fit_intercept)
        self.kernel = deviance_kernel(family)
        t = self._reduce(setup_stat, family, owner, combine=combine_setup)
        self.n, self.S, self.ymax, self.c_sum = int(t["n"]), t["S"], t["ymax"], t["c_sum"]
        self.ybar = t["sy"] / t["S"]  # the s-weighted mean ȳ
        self.split = (self.kernel, self.c_sum)
        self.start = (self.ybar, self.ymax)  # what μ₀ needs from the whole data

    def _reduce(self, stat, *static, combine=None):
        """``stat`` summed over the blocks (one in memory); the static arguments (β, the
        family, the link, the kernel) are placed by :func:`~scratchlearn.utils._dask.shared_arg`
        on Dask."""
        kw = {} if combine is None else {"combine": combine}
        return block_reduce(stat, self.X, self.y, self.s, static=static, **kw)

    def irls(self, beta, parts="all"):
        """:func:`irls_stat` summed over blocks (with the noise sum on Dask: no extra pass)."""
        return self._reduce(
            irls_stat, beta, self.family, self.link, self.fit_intercept, self.start,
            self.kernel if self.dask else None, parts,
        )  # fmt: skip

    def noise(self, beta):
        """Σ sᵢ|k(yᵢ, μᵢ)| at β."""
        return self._reduce(
            noise_stat, beta, self.family, self.link, self.fit_intercept, self.kernel
        )

    def objective(self, beta, penalty):
        """L(β) = D/(2S) + ½βᵀdiag(penalty)β and ∇L = −X̃ᵀr/S + penalty ⊙ β, in one pass; L = ∞
        (and ∇L NaN) outside the mean domain."""
        t = self._reduce(
            objective_stat, beta, self.family, self.link, self.fit_intercept, self.kernel
        )
        return objective_value(t, beta, self.S, self.c_sum, penalty)

    def statistics(self, beta, alpha, series_loglike=True):
        """deviance, null deviance, dispersion, scale, llf, aic, bic, bse (see
        :func:`._glm_solvers.fit_statistics`) and n_edge."""
        from ._glm_solvers import fit_statistics

        return fit_statistics(self, beta, alpha, series_loglike)


def objective_value(t, beta, S, c_sum, penalty):
    """(L, ∇L) from the summed :func:`objective_stat` ``t``."""
    if t["n_bad"]:
        return np.inf, np.full_like(beta, np.nan)
    dev = t["dev"] + c_sum
    J = dev / (2.0 * S) + 0.5 * beta @ (penalty * beta)
    return float(J), -t["XTr"] / S + penalty * beta
