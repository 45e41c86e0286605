"""Ordinary least squares and polynomial regression.

Symbols
-------
n, d       samples, features;  k targets (y of shape (n, k) for multi-output)
X, Xc      design (n, d) and its weighted-centred version (see ``_base``)
s          sample weights; W = diag(s)
w, b       coefficients and intercept;  r = Xw + b − y the residuals
G          Gram matrix XcᵀWXc (d, d);  κ(·) a 2-norm condition number
Z, H       standardised design (gradient descent) and the Hessian ZᵀWZ/Σs of its objective
λ₋, λ₊     smallest positive and largest eigenvalues of H;  κ = λ₊/λ₋

Objective
---------
.. math::

    \\min_{w,b} \\sum_i s_i (x_i^T w + b - y_i)^2

Exact solvers. The normal equations G w = XcᵀW yc are solved by a Cholesky factorisation of
G (:func:`scratchlearn.utils.spd_solve`), or by the singular value decomposition of √W Xc
(LAPACK ``gelsd``), which returns the minimum-norm solution when Xc is rank deficient. Both see
the data only through a statistic of its rows (``_block_stats``): G and XcᵀWyc are blocks of
the centred moments of [X y]; the SVD is taken of the d × d factor Rₓₓ of the QR of
√W·[Xc yc], which has the singular values and right singular vectors of √W·Xc itself.
Forming G squares the condition number (κ(G) = κ(Xc)²), so Cholesky loses about twice as many
digits as a factorisation of Xc itself. ``solver="auto"`` therefore *chooses* Cholesky only
when the condition number of the column-scaled Gram matrix (its correlation matrix, which is
what governs the accuracy of Cholesky) is below 1e6, where its relative error is at most
~1e-10, and the SVD otherwise (NIST Longley, Wampler, high-degree polynomials, collinear or
constant columns): the SVD keeps about 16 − log10 κ(Xc) digits. That choice is silent. A
*fallback* is not: ``solver="normal"`` on a Gram matrix that is singular in floating point
(Cholesky breaks down, or n < d makes it singular by construction) solves by the SVD of
√W Xc instead, with a :class:`~scratchlearn.exceptions.LinAlgWarning`.

Gradient descent (``solver="gd"``) minimises J(θ) = (1/2Σs) Σ sᵢ (zᵢᵀv + c − yᵢ)², a
quadratic with Hessian H (in v; 1 in c), in the standardised coordinates zᵢ = (xᵢ − x̄)/σ.
Plain steps of 1/λ₊ contract the error by (1 − 1/κ) per iteration, O(κ) iterations; the
default uses Nesterov's accelerated gradient with the same step and the momentum
β = (√κ − 1)/(√κ + 1), which contracts it by about (1 − 1/√κ), O(√κ) iterations
(Nesterov, *Introductory Lectures on Convex Optimization*, 2004, §2.2).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, RegressorMixin
from ..exceptions import LinAlgWarning
from ..optim import GradientDescent
from ..preprocessing import PolynomialFeatures
from ..utils import (
    Interval,
    StrOptions,
    check_is_fitted,
    check_sample_weight,
    spd_solve,
)
from ..utils._dask import is_dask_collection
from ._base import LinearModel, set_intercept, standardise
from ._block_stats import check_dask_fit, lstsq_from_r, moments, r_factor
from ._ridge import Ridge

__all__ = [
    "LinearRegression",
    "PolynomialRegression",
    "least_squares",
    "least_squares_gd",
    "least_squares_loss_grad",
    "nesterov_step_and_momentum",
]

# κ of the column-scaled Gram matrix above which "auto" prefers the SVD (module docstring).
_GRAM_COND_MAX = 1e6


def gram_condition(G):
    """κ₂ of D^{-1/2} G D^{-1/2}, D = diag(G): the scale-free conditioning of a Gram matrix."""
    diag = np.diag(G)
    if np.any(diag <= 0):
        return np.inf
    root = np.sqrt(diag)
    ev = np.linalg.eigvalsh(G / np.outer(root, root))
    return np.inf if ev[0] <= 0 else ev[-1] / ev[0]


def _singular_by_shape_warning(n, d):
    warnings.warn(
        f"the normal equations XcᵀWXc w = XcᵀWyc are singular by construction with n={n} "
        f"samples and d={d} features; took the minimum-norm solution from the SVD of √W·Xc.",
        LinAlgWarning,
        stacklevel=4,
    )


def least_squares(X, y, s, *, fit_intercept, solver):
    """Exact weighted least squares; returns (w of shape (k, d) or (d,), b, solver used).

    The data enter only through the block statistics of ``_block_stats``: the centred moments
    (G = XcᵀWXc and c = XcᵀWyc) for Cholesky, the R factor of √W·[Xc yc] for the SVD. X may be
    NumPy, sparse (s None for unit weights, else an array) or Dask (s None or Dask).

    "auto" chooses Cholesky of G when the column-scaled κ(G) < 1e6 (and never for a dense X
    with fewer samples than features, where G is singular), the SVD of √W Xc otherwise, taken
    as the SVD of its d × d factor Rₓₓ. "normal" insists on Cholesky and falls back to that SVD,
    with a LinAlgWarning, when G is singular. "lstsq" always takes the SVD (densifying a sparse
    X). On Dask each statistic is one pass over the data: "auto" on an ill-conditioned X and a
    Cholesky breakdown cost a second one."""
    n, d = X.shape
    singular = n - int(fit_intercept) < d and not sp.issparse(X)  # rank(Xc) < d for sure
    w, used, st = None, "lstsq", None
    if solver == "normal" and singular:
        _singular_by_shape_warning(n, d)
    elif solver == "normal" or (solver == "auto" and not singular):
        st = moments(X, y, s, fit_intercept=fit_intercept)
        G, c = st["C"][:d, :d], st["C"][:d, d:]  # XcᵀWXc (d, d), XcᵀWyc (d, k)
        if solver == "normal" or gram_condition(G) < _GRAM_COND_MAX:
            used = "normal"

            def svd_fallback():  # the SVD of √W·Xc keeps twice the digits of one of G
                nonlocal used
                used = "lstsq"
                return lstsq_from_r(r_factor(X, y, s, fit_intercept=fit_intercept)["R"], d, n)

            w = spd_solve(
                G, c, fallback=svd_fallback, what="the normal equations XcᵀWXc w = XcᵀWyc"
            )
    if w is None:
        st = r_factor(X, y, s, fit_intercept=fit_intercept)
        w = lstsq_from_r(st["R"], d, n)
    x_offset, y_offset = st["mean"][:d], st["mean"][d:]  # x̄ (d,), ȳ (k,)
    w = w.T  # (k, d)
    if y.ndim == 1:
        w, y_offset = w[0], y_offset[0]
    return w, set_intercept(w, x_offset, y_offset, fit_intercept), used


def least_squares_loss_grad(theta, Z, y, s_bar, fit_intercept):
    """J(θ) = ½ Σ s̄ᵢ (zᵢᵀv + c − yᵢ)² and ∇J = (Zᵀ(s̄ ⊙ r), Σ s̄ᵢrᵢ), θ = (v, c), s̄ = s/Σs."""
    d = Z.shape[1]
    v, c = theta[:d], (theta[d] if fit_intercept else 0.0)
    r = Z @ v + c - y  # (n,)
    sr = s_bar * r
    grad = Z.T @ sr
    if fit_intercept:
        grad = np.append(grad, sr.sum())
    return 0.5 * (sr @ r), grad


def nesterov_step_and_momentum(Z, s_bar):
    """η = 1/λ₊ and β = (√κ − 1)/(√κ + 1), κ = λ₊/λ₋, for J's Hessian H = Zᵀdiag(s̄)Z.

    These are the step and constant momentum with which Nesterov's method contracts the error
    of a quadratic by about (1 − 1/√κ) per iteration. λ₋ is the smallest *positive* eigenvalue
    (above d·ε·λ₊): directions of H's null space get no gradient from the start θ₀ = 0, so
    they never move. λ₊ is floored at 1, the curvature of J in the intercept c. The spectrum
    comes from ``eigvalsh`` of the d × d matrix H, O(nd² + d³): the price of one direct solve.
    """
    d = Z.shape[1]
    H = Z.T @ (s_bar[:, None] * Z)  # (d, d)
    lam = np.linalg.eigvalsh(H)
    lam_max = max(lam[-1], 1.0)
    positive = lam[lam > d * np.finfo(np.float64).eps * lam_max]
    if positive.size == 0:  # every column constant: the gradient in v is zero throughout
        return 1.0 / lam_max, 0.0
    root_kappa = np.sqrt(lam_max / positive[0])
    return 1.0 / lam_max, (root_kappa - 1.0) / (root_kappa + 1.0)


def least_squares_gd(X, y, s, *, fit_intercept, learning_rate, max_iter, tol, gtol):
    """Gradient descent on J(θ) = (1/2Σs) Σ sᵢ (zᵢᵀv + c − yᵢ)², θ = (v, c), on standardised
    features zᵢ = (xᵢ − x̄)/σ (``standardise``), so one step size suits every feature scale;
    the solution maps back as w = v/σ, b = c − x̄ᵀw. Returns (w, b, OptimizeResult).

    learning_rate="auto": Nesterov's accelerated gradient with η = 1/λ₊ and the momentum of
    :func:`nesterov_step_and_momentum`, O(√κ) iterations. A float: plain gradient descent
    θₜ₊₁ = θₜ − η∇J(θₜ), O(κ) iterations, stable for η < 2/λ₊.
    """
    s_bar = s / s.sum()
    Z, x_mean, sigma = standardise(X, s_bar, fit_intercept)
    d = X.shape[1]
    if learning_rate == "auto":
        eta, beta = nesterov_step_and_momentum(Z, s_bar)
    else:
        eta, beta = learning_rate, 0.0
    gd = GradientDescent(
        learning_rate=eta, momentum=beta, nesterov=True, tol=tol, gtol=gtol, max_iter=max_iter
    )
    theta0 = np.zeros(d + int(fit_intercept))
    if fit_intercept:  # Z is centred, so ∂J/∂c = c − ȳ whatever v: start (and stay) at c = ȳ
        theta0[d] = s_bar @ y
    res = gd.minimize(
        lambda th: least_squares_loss_grad(th, Z, y, s_bar, fit_intercept), theta0, warn=False
    )
    w = res.x[:d] / sigma
    b = (res.x[d] - x_mean @ w) if fit_intercept else 0.0
    return w, b, res


class LinearRegression(LinearModel, RegressorMixin, BaseEstimator):
    """Ordinary least squares, ``min_{w,b} Σᵢ sᵢ (xᵢᵀw + b − yᵢ)²``.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Fit b by centring X and y (weighted means), so that b = ȳ − x̄ᵀw.
    solver : {"auto", "normal", "lstsq", "gd"}, default="auto"
        "normal": Cholesky of the Gram matrix XcᵀWXc; when it is singular in floating point,
        the SVD of √W Xc instead, announced by a LinAlgWarning (``solver_`` is then "lstsq").
        "lstsq": SVD of √W Xc, minimum-norm solution when rank deficient (densifies sparse X).
        "auto": chooses "normal" when the column-scaled Gram matrix has κ < 1e6, "lstsq"
        otherwise, silently (see the module docstring for why). "gd": gradient descent on
        J = (1/2Σs) Σ sᵢ(xᵢᵀw + b − yᵢ)² with :class:`scratchlearn.optim.GradientDescent`,
        on internally standardised features (dense X, single target only).
    learning_rate : float or "auto", default="auto"
        ``solver="gd"``, in the standardised coordinates. "auto": step 1/λ₊ with Nesterov's
        momentum β = (√κ − 1)/(√κ + 1) from the Hessian's spectrum, O(√κ) iterations. A float:
        plain gradient descent with that step (no momentum), O(κ) iterations.
    max_iter : int, default=1000
        Iteration cap for ``solver="gd"``. Nesterov's method needs about
        √κ · ln(‖∇J(θ₀)‖/gtol) iterations: 1000 covers κ up to ~3000 for a gradient reduced
        by 1e8 (standardised diabetes: κ = 470, 248 iterations).
    tol : float, default=1e-8
        ``solver="gd"`` stops when ``|J(θₜ) − J(θₜ₋₁)| <= tol``.
    gtol : float, default=1e-6
        ``solver="gd"`` stops when ‖∇J(θₜ)‖₂ <= gtol.
    copy_X : bool, default=True
        Kept for scikit-learn compatibility: X is never modified in place.

    Dask
    ----
    X may be a Dask array or DataFrame (y and ``sample_weight`` NumPy or Dask; the exact
    solvers only). Each row block computes its statistic where it lives: for "normal" its
    weight N = Σsᵢ, mean z̄ and centred cross-products C = Σ sᵢ(zᵢ − z̄)(zᵢ − z̄)ᵀ of z = [x y];
    for "lstsq" the same weight and mean with the R factor of √W·(Z − z̄) instead of C. Blocks
    merge pairwise, in a tree, by Chan, Golub and LeVeque's update (C gains (N_aN_b/N)δδᵀ,
    δ the difference of the means; R is re-factorised from [R_a; R_b; √(N_aN_b/N)δᵀ]), so only
    (p² + p + 1)·8 bytes travel per block, p = d + k, whatever the rows. One pass over the
    data; "auto" makes a second (for R) when the Gram matrix is ill conditioned, and so does
    a Cholesky breakdown. The fitted model holds NumPy arrays; ``predict`` on a Dask array
    returns a Dask array, computed block by block. ``solver="gd"`` refuses Dask input.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    solver_ : str
        The solver actually used ("normal", "lstsq" or "gd").
    n_iter_ : int
        Iterations of ``solver="gd"``; 1 for a direct solve (one factorisation: an estimator
        with ``max_iter`` reports ``n_iter_`` >= 1 in scikit-learn's contract).
    history_ : dict or None
        ``solver="gd"``: {"objective": J per iteration, "grad_norm": ‖∇J‖₂}, start included;
        None for a direct solve.
    stop_reason_ : str
        ``solver="gd"``: "cost_change" or "grad_norm" (criterion met) or "max_iter" (with a
        ConvergenceWarning); "converged" for a direct solve.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import LinearRegression
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = LinearRegression().fit(X, y)
    >>> print(model.solver_, round(float(model.intercept_), 2))
    normal 152.13
    >>> print(round(model.score(X, y), 4))
    0.5177
    """

    _parameter_constraints = {
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"auto", "normal", "lstsq", "gd"})],
        "learning_rate": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "gtol": [Interval(numbers.Real, 0, None, closed="left")],
        "copy_X": ["boolean"],
    }

    def __init__(
        self,
        *,
        fit_intercept=True,
        solver="auto",
        learning_rate="auto",
        max_iter=1000,
        tol=1e-8,
        gtol=1e-6,
        copy_X=True,
    ):
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.gtol = gtol
        self.copy_X = copy_X

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"], multi_output=True, dask=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Fit the least-squares coefficients; returns self."""
        self._validate_params()
        if is_dask_collection(X):
            if self.solver == "gd":
                raise ValueError(
                    "LinearRegression(solver='gd') does not fit on Dask input (an iteration "
                    "would be a pass over the data); the exact solvers 'auto', 'normal' and "
                    "'lstsq' do, in one pass (two for an ill-conditioned 'auto')."
                )
            X, y, s = check_dask_fit(self, X, y, sample_weight)
        else:
            X, y = self._validate_data(
                X,
                y,
                accept_sparse=["csr", "csc"] if self.solver != "gd" else False,
                dtype=np.float64,
                y_numeric=True,
                multi_output=True,
            )
            y = np.asarray(y, dtype=np.float64)
            s = check_sample_weight(sample_weight, X)
            if self.solver == "gd":
                if y.ndim > 1:
                    raise ValueError("solver='gd' fits a single target; y must be 1-dimensional.")
                self.coef_, self.intercept_, res = least_squares_gd(
                    X,
                    y,
                    s,
                    fit_intercept=self.fit_intercept,
                    learning_rate=self.learning_rate,
                    max_iter=self.max_iter,
                    tol=self.tol,
                    gtol=self.gtol,
                )
                self.solver_ = "gd"
                self._record_fit(
                    res.n_iter,
                    res.history,
                    res.stop_reason,
                    criterion=f"|ΔJ| <= tol={self.tol} or ‖∇J‖₂ <= gtol={self.gtol}",
                    met={"cost_change", "grad_norm"},
                )
                return self
            s = None if np.all(s == 1.0) else s  # unit weights: the cheaper statistics
        w, b, self.solver_ = least_squares(
            X, y, s, fit_intercept=self.fit_intercept, solver=self.solver
        )
        self.coef_, self.intercept_ = w, b
        self._record_fit(1, None, "converged", criterion="a direct solve")
        return self


class PolynomialRegression(LinearModel, RegressorMixin, BaseEstimator):
    """Least squares (optionally ridge) on the polynomial basis Φ(x).

    .. math::

        \\min_{w,b} \\sum_i s_i (\\phi(x_i)^T w + b - y_i)^2 + \\alpha \\|w\\|^2

    with φ(x) every monomial of the features of total degree 1..``degree`` (for one feature,
    φ(x) = [x, x², …, x^degree]). The model is the composition of
    :class:`~scratchlearn.preprocessing.PolynomialFeatures` (``include_bias=False``: the
    constant monomial is the intercept b, never penalised) with :class:`LinearRegression`
    (alpha = 0; the SVD when the basis is ill conditioned, as high degrees are) or
    :class:`Ridge` (alpha > 0).

    Parameters
    ----------
    degree : int, default=2
    alpha : float, default=0.0
    interaction_only : bool, default=False
        Keep only products of distinct features (no xⱼ²).
    fit_intercept : bool, default=True

    Attributes
    ----------
    coef_ : ndarray of shape (n_output_features,) or (n_targets, n_output_features)
    intercept_ : float or ndarray
    powers_ : ndarray of shape (n_output_features, n_features)
        Exponents of each basis column (``PolynomialFeatures.powers_``, no bias row).
    features_ : PolynomialFeatures
        The fitted basis expansion.
    solver_ : str
        The linear solver's ``solver_``.
    n_iter_, history_, stop_reason_ : None, None, "converged"
        Both linear solvers used here are direct solves.

    Notes
    -----
    Reproducibility: the solve forms its products with BLAS, whose rounding depends on how many
    threads split them, and the basis's condition number multiplies that rounding: ``coef_``
    differed by 4e-12 relative (predictions by 5e-11) between 1 and 2 OpenBLAS threads for
    degree 2 on 20 to 70 features.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.linear_model import PolynomialRegression
    >>> x = np.linspace(-2.0, 2.0, 9).reshape(-1, 1)
    >>> y = 1.0 + 2.0 * x[:, 0] - 0.5 * x[:, 0] ** 2
    >>> model = PolynomialRegression(degree=2).fit(x, y)
    >>> print(np.round(model.coef_, 3), round(float(model.intercept_), 3))
    [ 2.  -0.5] 1.0
    >>> print(model.powers_.tolist())
    [[1], [2]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "coef_": ("float64", ("n_rows?", "n_terms")),
        "powers_": ("int", ("n_terms", "n_features_in_")),
        "features_": ("PolynomialFeatures", None),
    }

    _parameter_constraints = {
        "degree": [Interval(numbers.Integral, 1, None, closed="left")],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "interaction_only": ["boolean"],
        "fit_intercept": ["boolean"],
    }

    def __init__(self, *, degree=2, alpha=0.0, interaction_only=False, fit_intercept=True):
        self.degree = degree
        self.alpha = alpha
        self.interaction_only = interaction_only
        self.fit_intercept = fit_intercept

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(multi_output=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Expand X into the polynomial basis Φ and fit the linear model on Φ; returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True, multi_output=True)
        self.features_ = PolynomialFeatures(
            self.degree, interaction_only=self.interaction_only, include_bias=False
        ).fit(X)
        Phi = self.features_.transform(X)  # (n, p)
        if self.alpha > 0:
            inner = Ridge(alpha=self.alpha, fit_intercept=self.fit_intercept)
        else:
            inner = LinearRegression(fit_intercept=self.fit_intercept)
        inner.fit(Phi, y, sample_weight=sample_weight)
        self.powers_ = self.features_.powers_
        self.coef_, self.intercept_, self.solver_ = inner.coef_, inner.intercept_, inner.solver_
        self._record_fit(None, None, "converged", criterion="a direct solve")
        return self

    def predict(self, X):
        """Predictions φ(X) w + b."""
        check_is_fitted(self, "coef_")
        X = self._validate_data(X, reset=False, dtype=np.float64)
        return self.features_.transform(X) @ self.coef_.T + self.intercept_
