"""Gaussian mixture models fitted by expectation-maximisation (EM), in log space.

The model: x ~ Σ_k π_k N(μ_k, Σ_k). EM alternates

* E-step: log r_ik = log π_k + log N(x_i | μ_k, Σ_k) − log p(x_i), with
  log p(x_i) = logsumexp_k (log π_k + log N(x_i | μ_k, Σ_k)): responsibilities never leave
  log space until the M-step exponentiates them;
* M-step: π_k = N_k / n, μ_k and Σ_k the responsibility-weighted mean and covariance (plus
  ``reg_covar`` on the diagonal), each Σ_k stored through the Cholesky factor U_k of its
  precision (see :mod:`._em` for the formulas and the symbols).

Each E-step yields the mean log-likelihood L(θ) = (1/n) Σ_i log p(x_i | θ) of the current
parameters; EM stops when one iteration changes it by less than ``tol``. EM never decreases L
when ``reg_covar`` = 0. With ε = ``reg_covar`` > 0 the M-step takes S_k + εI instead of the
maximising scatter S_k, which costs ½ Σ_j [log(1 + t_j) − t_j/(1 + t_j)] ≈ ¼ Σ_j t_j² per unit of
N_k/n (t_j = ε/λ_j, λ_j the eigenvalues of S_k): L may then dip by that much in one step, which
shows only for a component squeezed onto nearly collinear points (a dip of 2e-8 on iris from a
random start, where rounded measurements leave variances of ~1e-3).

One EM iteration is one pass over the data: :func:`em_block` turns a block of rows into its
E-step log-likelihood sum and its M-step statistics, which
:func:`~scratchlearn.utils._blocks.block_reduce` merges over the blocks of a Dask array (the
in-memory fit is the one-block case); the M-step then needs the merged statistics only.
"""

from __future__ import annotations

import numbers
from functools import partial

import numpy as np

from ..base import BaseEstimator, ClusterMixin
from ..utils._blocks import block_reduce
from ..utils._dask import check_dask_data, is_dask_collection, map_rows, persist_on_cluster
from ..utils._dask_predict import answers_dask
from ..utils._fit_record import CONVERGED
from ..utils._param_validation import Interval, StrOptions
from ..utils.extmath import logsumexp
from ..utils.validation import check_is_fitted, check_random_state
from . import _em
from ._init import check_dask_init, check_initial_parameters, initial_statistics

__all__ = ["GaussianMixture"]


def _log_joint(X, params, covariance_type):
    """(n, K) log π_k + log N(x_i | μ_k, Σ_k) = log p(x_i, z_i = k)."""
    w, mu, _, U = params
    with np.errstate(divide="ignore"):  # a weight of 0 gives log π_k = −inf, r_ik = 0
        return _em.log_gaussian_prob(X, mu, U, covariance_type) + np.log(w)


def _e_step(X, params, covariance_type):
    """(log p(x_i), log r_ik): the per-sample log-likelihoods and log-responsibilities."""
    log_joint = _log_joint(X, params, covariance_type)  # (n, K)
    log_px = logsumexp(log_joint, axis=1)  # (n,)
    log_joint -= log_px[:, None]
    return log_px, log_joint


#: Bytes of rows that one E-step and M-step statistic handles at a time. A block is visited in
#: row chunks whose (rows, d) deviations and (rows, K) log-densities stay in the core's cache;
#: whole, a block of 10⁷ × 10 made an 800 MB temporary per component and an EM pass ran at the
#: speed of memory (and two workers on one machine competed for it). Measured at 10⁶ × 10,
#: K = 4, one thread: the pass 3.5× faster for "full", 3× "tied", 1.5× "diag", 2× "spherical".
_CHUNK_BYTES = 1 << 20
_MIN_CHUNK_ROWS = 1024  # below this, the per-chunk overhead in Python shows


def _row_chunks(X, K):
    """X as consecutive row slices (views) of about ``_CHUNK_BYTES`` of temporaries each."""
    n, d = X.shape
    step = max(_MIN_CHUNK_ROWS, _CHUNK_BYTES // (8 * (d + K)))
    return [X[i : i + step] for i in range(0, n, step)] or [X]


def _per_row(fn, X, params, covariance_type):
    """``fn(X_c, θ, covariance_type)`` on each row chunk, concatenated: one sample's output
    does not depend on the other rows, so computing it chunk-wise changes nothing but speed."""
    parts = [fn(Xc, params, covariance_type) for Xc in _row_chunks(X, len(params[0]))]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _log_px(X, params, covariance_type):
    return _e_step(X, params, covariance_type)[0]


def _proba(X, params, covariance_type):
    return np.exp(_e_step(X, params, covariance_type)[1])


def _labels(X, params, covariance_type):
    return np.argmax(_log_joint(X, params, covariance_type), axis=1)


def _log_px_block(X, params, covariance_type):
    """(n_b,) log p(x_i) of one block."""
    return _per_row(_log_px, X, params, covariance_type)


def _proba_block(X, params, covariance_type):
    """(n_b, K) r_ik of one block."""
    return _per_row(_proba, X, params, covariance_type)


def _labels_block(X, params, covariance_type):
    """(n_b,) argmax_k log p(x_i, z_i = k) of one block."""
    return _per_row(_labels, X, params, covariance_type)


def em_block(X, params, covariance_type):
    """One block's share of an EM iteration at θ: the E-step's Σ_i log p(x_i) and the M-step's
    statistics of the responsibilities (:func:`._em.block_statistics`), which blocks merge.

    The block's row chunks (:func:`_row_chunks`) are merged as blocks are, by
    :func:`._em.merge_statistics`: a chunk is a block that stays in cache."""
    stats = None
    for Xc in _row_chunks(X, len(params[0])):
        log_px, log_R = _e_step(Xc, params, covariance_type)
        chunk = _em.block_statistics(Xc, np.exp(log_R), covariance_type)
        chunk["log_lik"] = float(np.sum(log_px))
        stats = chunk if stats is None else _em.merge_statistics(stats, chunk, covariance_type)
    return stats


def log_likelihood_block(X, params, covariance_type):
    """Σ_i log p(x_i) over one block, which blocks add."""
    return float(np.sum(_log_px_block(X, params, covariance_type)))


def _m_step(stats, covariance_type, reg_covar):
    """θ = (π, μ, Σ, U) maximising the expected complete-data log-likelihood, from the merged
    statistics of the responsibilities."""
    N, mu, Sigma = _em.parameters_from_statistics(stats, reg_covar, covariance_type)
    U = _em.precision_cholesky(Sigma, covariance_type, reg_covar)
    return N / N.sum(), mu, Sigma, U


def _em_run(em_pass, n, params, gm, lower_bound):
    """EM from ``params`` until |ΔL| < tol or max_iter: (params, bounds, n_iter, converged).

    ``em_pass(θ)`` is :func:`em_block` of the whole data at θ: one pass, over one block in
    memory or over every block of a Dask array. ``bounds[t]`` is L(θ_t), computed by the
    E-step of iteration t + 1 (so, as in scikit-learn, the last bound belongs to the parameters
    before the last M-step).
    """
    bounds, converged = [], False
    for _ in range(gm.max_iter):
        previous = lower_bound
        stats = em_pass(params)
        params = _m_step(stats, gm.covariance_type, gm.reg_covar)
        lower_bound = stats["log_lik"] / n
        bounds.append(lower_bound)
        if abs(lower_bound - previous) < gm.tol:
            converged = True
            break
    return params, bounds, len(bounds), converged


class GaussianMixture(ClusterMixin, BaseEstimator):
    """A mixture of K Gaussians fitted by EM; clusters are the most probable components.

    Maximises the mean log-likelihood

    .. math::  L(θ) = \\frac{1}{n} \\sum_i \\log \\sum_k π_k \\, N(x_i \\mid μ_k, Σ_k)

    by EM (module docstring), from ``n_init`` starting points; the run of largest final bound is
    kept.

    Parameters
    ----------
    n_components : int, default=1
        K, the number of Gaussians.
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        Each component's own full matrix, one full matrix shared by all, a diagonal per
        component, or one variance per component.
    tol : float, default=1e-3
        EM stops when an iteration changes L (a per-sample mean) by less than ``tol``.
    reg_covar : float, default=1e-6
        ε added to the diagonal of every covariance, keeping it positive definite.
    max_iter : int, default=100
        EM iterations per initialisation (0 keeps the initial parameters).
    n_init : int, default=1
        Initialisations; the one reaching the largest lower bound is kept.
    init_params : {"kmeans", "k-means++", "random", "random_from_data"}, default="kmeans"
        Initial responsibilities (see :mod:`._init`).
    weights_init, means_init, precisions_init : array-like, optional
        Starting π, μ and Σ⁻¹ (shape (K, d, d) "full", (d, d) "tied", (K, d) "diag", (K,)
        "spherical"); when all three are given no initial responsibilities are drawn.
    random_state : None, int or numpy.random.Generator
        Seeds the initialisation and :meth:`sample`.
    warm_start : bool, default=False
        Refit from the previous fit's parameters (one initialisation).
    verbose, verbose_interval : int
        Accepted for compatibility; models never print (``history_`` records each iteration).

    Attributes
    ----------
    weights_, means_, covariances_, precisions_, precisions_cholesky_
        π, μ, Σ, Σ⁻¹ and U (Σ⁻¹ = U Uᵀ).
    converged_ : bool
    n_iter_ : int
        EM iterations of the kept initialisation.
    lower_bound_ : float
        The last L on which the stopping rule acted (scikit-learn's convention).
    lower_bounds_ : list of float
        L per iteration of the kept initialisation.
    history_ : dict
        ``history_["objective"][t]`` = −L(θ_t), the mean negative log-likelihood after t
        M-steps, from t = 0 (the starting point) to ``n_iter_`` (the fitted model).
    stop_reason_ : "cost_change" or "max_iter"

    Dask
    ----
    A Dask array or DataFrame X is fitted block by block where it lives, one pass per EM
    iteration: each block runs the E-step at the current θ and returns the M-step's statistics
    of its responsibilities (N_k, Σ_i r_ik x_i, and the per-component scatter centred at the
    block's means for "full", merged by Chan's update; XᵀX for "tied"; Σ_i r_ik x_i² for "diag"
    and "spherical") with its Σ_i log p(x_i); the statistics add up to the in-memory ones,
    (K + K·d + K·d² or d² or K·d + 1)·8 bytes per block, and θ goes back to the blocks. The
    start: "kmeans" fits :class:`~scratchlearn.cluster.KMeans` on the cluster (the in-memory
    one below its seeding sample of 10 000 rows); "random" draws each block's rows of the
    in-memory stream on its worker (a PCG64 generator jumped ahead); "random_from_data"
    gathers its K rows; "k-means++" is refused (it needs all rows in one place), as are
    non-PCG64 generators for "random". From the same start the fit is the in-memory one up to
    summation order. One more pass gives the final bound; ``fit_predict``, ``predict``,
    ``predict_proba`` and ``score_samples`` are lazy Dask arrays; ``score``, ``bic`` and
    ``aic`` are numbers (one pass). X is kept in the workers' memory during the fit when it
    fills at most half of it; otherwise every pass reads it again.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.mixture import GaussianMixture
    >>> X, y = load_iris(return_X_y=True)
    >>> gm = GaussianMixture(n_components=3, random_state=0).fit(X)
    >>> print(gm.converged_, gm.means_.shape, gm.covariances_.shape)
    True (3, 4) (3, 4, 4)
    >>> print(np.sort(gm.weights_).round(2))
    [0.3  0.33 0.37]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "weights_": ("float64", ("n_components",)),
        "means_": ("float64", ("n_components", "n_features_in_")),
        "covariances_": ("float64", None),
        "precisions_cholesky_": ("float64", None),
        "precisions_": ("float64", None),
    }

    def _check_fitted_state(self):
        """The covariance arrays have the shape covariance_type implies."""
        k, d = self.n_components, self.n_features_in_
        shape = {"full": (k, d, d), "tied": (d, d), "diag": (k, d), "spherical": (k,)}[
            self.covariance_type
        ]
        for name in ("covariances_", "precisions_cholesky_", "precisions_"):
            if getattr(self, name).shape != shape:
                raise ValueError(f"{name} has shape {getattr(self, name).shape}, expected {shape}")

    _parameter_constraints = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "covariance_type": [StrOptions(set(_em.COVARIANCE_TYPES))],
        "tol": [Interval(numbers.Real, 0.0, None, closed="left")],
        "reg_covar": [Interval(numbers.Real, 0.0, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 0, None, closed="left")],
        "n_init": [Interval(numbers.Integral, 1, None, closed="left")],
        "init_params": [StrOptions({"kmeans", "k-means++", "random", "random_from_data"})],
        "weights_init": ["array-like", None],
        "means_init": ["array-like", None],
        "precisions_init": ["array-like", None],
        "random_state": ["random_state"],
        "warm_start": ["boolean"],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
        "verbose_interval": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        n_components=1,
        *,
        covariance_type="full",
        tol=1e-3,
        reg_covar=1e-6,
        max_iter=100,
        n_init=1,
        init_params="kmeans",
        weights_init=None,
        means_init=None,
        precisions_init=None,
        random_state=None,
        warm_start=False,
        verbose=0,
        verbose_interval=10,
    ):
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.tol = tol
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.weights_init = weights_init
        self.means_init = means_init
        self.precisions_init = precisions_init
        self.random_state = random_state
        self.warm_start = warm_start
        self.verbose = verbose
        self.verbose_interval = verbose_interval

    # -- fitting ------------------------------------------------------------------------------
    def _initial_parameters(self, X, given, rng):
        """θ₀ = (π, μ, Σ, U): one M-step from initial responsibilities, overridden by the
        user-given weights, means and precisions."""
        w0, mu0, P0 = given
        ctype = self.covariance_type
        if w0 is None or mu0 is None or P0 is None:
            stats = initial_statistics(X, self.n_components, self.init_params, ctype, rng)
            N, mu, Sigma = _em.parameters_from_statistics(stats, self.reg_covar, ctype)
            w = N / X.shape[0]
        if w0 is not None:
            w = w0
        if mu0 is not None:
            mu = mu0
        if P0 is None:
            U = _em.precision_cholesky(Sigma, ctype, self.reg_covar)
        else:
            U = _em.precision_cholesky_from_precisions(P0, ctype)
            Sigma = _em.covariances_from_precision_cholesky(U, ctype)
        return w, mu, Sigma, U

    def _fit_data(self, X):
        """(X to read at every pass, X the lazy labels are drawn from): validated NumPy, or a
        Dask array checked block by block and kept in the workers' memory when it fits."""
        if not is_dask_collection(X):
            X = self._validate_data(X, dtype=np.float64)
            return X, X
        X = check_dask_data(self, X)[0]
        return persist_on_cluster(X)[0], X

    def fit(self, X, y=None):
        """Fit the mixture by EM (see :meth:`fit_predict`). Returns self."""
        self.fit_predict(X, y)
        return self

    def fit_predict(self, X, y=None):
        """Fit by EM and return each sample's most probable component under the fitted model.

        The labels come from a final E-step with the kept parameters, so they equal
        ``fit(X).predict(X)`` whatever ``max_iter`` and ``tol`` (a lazy Dask array on Dask
        input).
        """
        self._validate_params()
        warm = self.warm_start and hasattr(self, "converged_")
        starts = (self.weights_init, self.means_init, self.precisions_init)
        rng = check_random_state(self.random_state)
        if is_dask_collection(X) and not warm and any(v is None for v in starts):
            check_dask_init(self.init_params, rng)  # before any pass over the data
        X, X_source = self._fit_data(X)
        n, d = X.shape
        if n < self.n_components:
            raise ValueError(
                f"GaussianMixture needs at least as many samples as components: got "
                f"n_samples={n} < n_components={self.n_components}."
            )
        given = check_initial_parameters(self, d)
        ctype = self.covariance_type
        merge = partial(_em.merge_statistics, covariance_type=ctype)

        def em_pass(params):  # one pass over the data; the in-memory fit is one block
            return block_reduce(em_block, X, static=(params, ctype), combine=merge)

        best = None
        for _ in range(1 if warm else self.n_init):
            if warm:
                start, bound0 = self._parameters(), self.lower_bound_
            else:
                start, bound0 = self._initial_parameters(X, given, rng), -np.inf
            run = _em_run(em_pass, n, start, self, bound0)
            last = run[1][-1] if run[1] else -np.inf
            if best is None or last > best[0]:
                best = (last, *run)
        lower_bound, params, bounds, n_iter, converged = best
        self._set_parameters(params)
        self.converged_ = converged
        self.lower_bound_ = lower_bound
        self.lower_bounds_ = bounds
        if is_dask_collection(X):  # the final E-step: one more pass, and lazy labels
            final = block_reduce(log_likelihood_block, X, static=(params, ctype)) / n
            labels = self._map_rows(_labels_block, X_source)
        else:
            final = log_likelihood_block(X, params, ctype) / n
            labels = _labels_block(X, params, ctype)
        reason = "cost_change" if converged else "max_iter"
        self._record_fit(
            n_iter,
            {"objective": [-b for b in bounds] + [-final]},
            reason,
            criterion=f"|ΔL| < tol={self.tol}",
            met=CONVERGED | ({"max_iter"} if self.max_iter == 0 else set()),
        )
        return labels

    def _parameters(self):
        return self.weights_, self.means_, self.covariances_, self.precisions_cholesky_

    def _set_parameters(self, params):
        self.weights_, self.means_, self.covariances_, self.precisions_cholesky_ = params
        self.precisions_ = _em.precisions_from_cholesky(params[3], self.covariance_type)

    # -- using the fitted model --------------------------------------------------------------
    def _check_X(self, X):
        check_is_fitted(self, "means_")
        if is_dask_collection(X):
            return check_dask_data(self, X, reset=False)[0]
        return self._validate_data(X, reset=False, dtype=np.float64)

    def _map_rows(self, block_fn, X, n_out=None, dtype=np.intp):
        """``block_fn(X_b, θ, covariance_type)`` on each row block of a Dask X, lazily."""
        fn = partial(block_fn, params=self._parameters(), covariance_type=self.covariance_type)
        return map_rows(fn, X, n_out=n_out, dtype=dtype)

    @answers_dask  # its blocks need only θ (a Dask-fitted model holds lazy labels_)
    def score_samples(self, X):
        """log p(x_i) = logsumexp_k (log π_k + log N(x_i | μ_k, Σ_k)), per sample (lazy on
        Dask)."""
        X = self._check_X(X)
        if is_dask_collection(X):
            return self._map_rows(_log_px_block, X, dtype=np.float64)
        return _log_px_block(X, self._parameters(), self.covariance_type)

    def _mean_log_likelihood(self, X):
        """(L(θ) on X, n): one pass over the blocks of a Dask X, one block in memory."""
        X = self._check_X(X)
        params = (self._parameters(), self.covariance_type)
        return block_reduce(log_likelihood_block, X, static=params) / X.shape[0], X.shape[0]

    def score(self, X, y=None):
        """L(θ) on X: the mean of :meth:`score_samples` (a number, also on Dask)."""
        return self._mean_log_likelihood(X)[0]

    @answers_dask
    def predict_proba(self, X):
        """(n, K) responsibilities r_ik = p(z = k | x_i) (lazy on Dask)."""
        X = self._check_X(X)
        if is_dask_collection(X):
            return self._map_rows(_proba_block, X, n_out=len(self.weights_), dtype=np.float64)
        return _proba_block(X, self._parameters(), self.covariance_type)

    @answers_dask
    def predict(self, X):
        """The most probable component argmax_k r_ik = argmax_k log p(x_i, z_i = k) (lazy on
        Dask)."""
        X = self._check_X(X)
        if is_dask_collection(X):
            return self._map_rows(_labels_block, X)
        return _labels_block(X, self._parameters(), self.covariance_type)

    def sample(self, n_samples=1):
        """(X, labels): n_samples draws, component counts multinomial(n_samples, π).

        Component k's draws are μ_k + Lᵀ-transformed standard normals (Σ_k = L Lᵀ), in blocks
        ordered by component; the generator is ``random_state``'s, as for the fit.
        """
        check_is_fitted(self, "means_")
        if isinstance(n_samples, (bool, np.bool_)) or not isinstance(n_samples, numbers.Integral):
            raise ValueError(f"n_samples must be an int >= 1; got {n_samples!r}.")
        if n_samples < 1:
            raise ValueError(f"n_samples must be an int >= 1; got {n_samples}.")
        rng = check_random_state(self.random_state)
        K, d = self.means_.shape
        counts = rng.multinomial(n_samples, self.weights_ / self.weights_.sum())
        blocks = []
        for k in range(K):
            Z = rng.standard_normal(size=(counts[k], d))  # (n_k, d) standard normal rows
            blocks.append(self.means_[k] + self._correlate(Z, k))
        labels = np.repeat(np.arange(K), counts)
        return np.vstack(blocks), labels

    def _correlate(self, Z, k):
        """Rows z Lᵀ ~ N(0, Σ_k) from standard normal rows z (Σ_k = L Lᵀ; √σ² scaling for the
        vector types)."""
        ctype = self.covariance_type
        if ctype in ("full", "tied"):
            Sigma = self.covariances_[k] if ctype == "full" else self.covariances_
            return Z @ np.linalg.cholesky(Sigma).T
        return Z * np.sqrt(self.covariances_[k])

    # -- model selection ---------------------------------------------------------------------
    def _n_parameters(self):
        """Free parameters: K − 1 weights, K·d means, and the covariances' entries."""
        K, d = self.means_.shape
        cov = {
            "full": K * d * (d + 1) / 2,
            "tied": d * (d + 1) / 2,
            "diag": K * d,
            "spherical": K,
        }[self.covariance_type]
        return int(cov + K * d + K - 1)

    def bic(self, X):
        """Bayesian information criterion −2 n L(θ) + p log n (lower is better)."""
        L, n = self._mean_log_likelihood(X)
        return -2.0 * L * n + self._n_parameters() * np.log(n)

    def aic(self, X):
        """Akaike information criterion −2 n L(θ) + 2p (lower is better)."""
        L, n = self._mean_log_likelihood(X)
        return -2.0 * L * n + 2.0 * self._n_parameters()

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t["dask"] = True  # EM as one reduction of block statistics per iteration
        return t
