"""Ordinary least squares and polynomial regression.

Symbols
-------
n, d       samples, features;  k targets (y of shape (n, k) for multi-output)
X, Xc      design (n, d) and its weighted-centred version (see ``_base``)
s          sample weights; W = diag(s)
w, b       coefficients and intercept;  r = Xw + b − y the residuals
G          Gram matrix XcᵀWXc (d, d);  κ(·) a 2-norm condition number
Φ          polynomial basis of X (n, p), all monomials of degree 1..degree

Objective
---------
.. math::

    \\min_{w,b} \\sum_i s_i (x_i^T w + b - y_i)^2

Exact solvers. The normal equations G w = XcᵀW yc are solved by a Cholesky factorisation of
G when G is well conditioned, and otherwise by the singular value decomposition of √W Xc
(LAPACK ``gelsd``), which returns the minimum-norm solution when Xc is rank deficient.
Forming G squares the condition number (κ(G) = κ(Xc)²), so Cholesky loses about twice as many
digits as a factorisation of Xc itself; we therefore use it only when the condition number of
the *column-scaled* Gram matrix (its correlation matrix, which is what governs the accuracy of
Cholesky) is below 1e6, where its relative error is at most ~1e-10. Anything worse (NIST
Longley, Wampler, high-degree polynomials, collinear or constant columns) goes through the
SVD, which keeps about 16 − log10 κ(Xc) digits.
"""

from __future__ import annotations

import numbers
import warnings
from itertools import combinations, combinations_with_replacement

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ..base import BaseEstimator, RegressorMixin
from ..utils import Interval, StrOptions, check_is_fitted, check_sample_weight
from ._base import (
    LinearModel,
    center_data,
    gram,
    lipschitz_constant,
    rescale_rows,
    set_intercept,
)

__all__ = [
    "LinearRegression",
    "PolynomialRegression",
    "least_squares_loss_grad",
    "solve_lstsq",
    "solve_normal_equations",
]

# κ of the column-scaled Gram matrix above which Cholesky is not trusted (see module docstring).
_GRAM_COND_MAX = 1e6


def solve_lstsq(X, y):
    """w = argmin ‖Xw − y‖², minimum ‖w‖ among minimisers (SVD, LAPACK gelsd).

    Singular values below max(n, d)·ε·σ_max count as zero: centring makes Xc rank deficient
    by construction when n <= d, and keeping a rounding-level singular value would add an
    arbitrary O(1) component to w."""
    cond = max(X.shape) * np.finfo(np.float64).eps
    w, *_ = sla.lstsq(X, y, cond=cond, lapack_driver="gelsd", check_finite=False)
    return w


def gram_condition(G):
    """κ₂ of D^{-1/2} G D^{-1/2}, D = diag(G): the scale-free conditioning of a Gram matrix."""
    diag = np.diag(G)
    if np.any(diag <= 0):
        return np.inf
    root = np.sqrt(diag)
    ev = np.linalg.eigvalsh(G / np.outer(root, root))
    return np.inf if ev[0] <= 0 else ev[-1] / ev[0]


def solve_normal_equations(G, c):
    """w = G⁻¹c for a symmetric positive definite G (Cholesky G = LLᵀ, two triangular solves).

    Returns None when G is not numerically positive definite, so the caller can fall back.
    """
    try:
        factor = sla.cho_factor(G, lower=True, check_finite=False)
    except sla.LinAlgError:
        return None
    return sla.cho_solve(factor, c, check_finite=False)


def least_squares(X, y, s, *, fit_intercept, solver):
    """Exact weighted least squares; returns (w of shape (k, d) or (d,), b, solver used)."""
    Xc, yc, x_offset, y_offset = center_data(X, y, fit_intercept=fit_intercept, sample_weight=s)
    s_eff = None if np.all(s == 1.0) else s
    n, d = X.shape
    w, used = None, "lstsq"
    if solver in ("auto", "normal") and (n >= d or sp.issparse(X)):
        G, c = gram(Xc, yc, s_eff, x_offset, fit_intercept)
        if solver == "normal" or gram_condition(G) < _GRAM_COND_MAX:
            w = solve_normal_equations(G, c)
            used = "normal"
    if w is None:
        used = "lstsq"
        if sp.issparse(Xc):  # SVD needs the dense centred matrix
            Xc = Xc.toarray() - x_offset
        Xs, ys = (Xc, yc) if s_eff is None else rescale_rows(Xc, yc, s_eff)
        w = solve_lstsq(Xs, ys)
    w = w.T  # (d,) or (k, d)
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


def least_squares_gd(X, y, s, *, fit_intercept, learning_rate, max_iter, tol, gtol):
    """Batch gradient descent on J(θ) = (1/2Σs) Σ sᵢ (zᵢᵀv + c − yᵢ)², θ = (v, c), with
    the gradient of :func:`least_squares_loss_grad`, on standardised features
    zᵢ = (xᵢ − x̄)/σ (σ the weighted standard deviation, 1 for constant columns), so one
    learning rate suits every feature scale; the solution maps back as w = v/σ, b = c − x̄ᵀw.
    Returns (w, b, OptimizeResult).
    """
    from ..optim import GradientDescent

    s_bar = s / s.sum()
    x_mean = s_bar @ X if fit_intercept else np.zeros(X.shape[1])
    sigma = np.sqrt(s_bar @ (X - x_mean) ** 2)
    sigma[sigma == 0.0] = 1.0
    Z = (X - x_mean) / sigma
    d = X.shape[1]
    if learning_rate == "auto":
        learning_rate = 1.0 / max(lipschitz_constant(Z, s), 1.0)
    gd = GradientDescent(learning_rate=learning_rate, tol=tol, gtol=gtol, max_iter=max_iter)
    theta0 = np.zeros(d + int(fit_intercept))
    if fit_intercept:  # Z is centred, so ∂J/∂c = 0 at c = ȳ whatever v: start there
        theta0[d] = s_bar @ y
    res = gd.minimize(lambda th: least_squares_loss_grad(th, Z, y, s_bar, fit_intercept), theta0)
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
        "normal": Cholesky of the Gram matrix XcᵀWXc, with the SVD fallback when it is not
        positive definite. "lstsq": SVD of √W Xc, minimum-norm solution when rank deficient.
        "auto": "normal" when the column-scaled Gram matrix has κ < 1e6, otherwise "lstsq"
        (see the module docstring for why). "gd": batch gradient descent on
        J = (1/2Σs) Σ sᵢ(xᵢᵀw + b − yᵢ)² with :class:`scratchlearn.optim.GradientDescent`,
        on internally standardised features (single target only).
    learning_rate : float or "auto", default="auto"
        Step size for ``solver="gd"`` in the standardised coordinates; "auto" is 1/L with L the
        largest eigenvalue of the (standardised) Hessian, estimated by power iteration.
    max_iter : int, default=1000
        Iteration cap for ``solver="gd"``.
    tol : float, default=1e-8
        ``solver="gd"`` stops when |J(θₜ) − J(θₜ₋₁)| <= tol.
    gtol : float, default=1e-6
        ``solver="gd"`` stops when ‖∇J(θₜ)‖ <= gtol.
    copy_X : bool, default=True
        Kept for scikit-learn compatibility: X is never modified in place.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    solver_ : str
        The solver actually used ("normal", "lstsq" or "gd").
    n_iter_, history_, stop_reason_ : int, dict or None, str
        For ``solver="gd"``: iterations, {"J": [...], "grad_norm": [...]} and the stopping
        rule that fired. A direct solve reports 1, None and "converged".
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
        t.update(X_types=["2darray", "sparse"], multi_output=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Fit the least-squares coefficients; returns self."""
        self._validate_params()
        sparse_ok = self.solver != "gd"
        X, y = self._validate_data(
            X,
            y,
            accept_sparse=["csr", "csc"] if sparse_ok else False,
            dtype=np.float64,
            y_numeric=True,
            multi_output=True,
        )
        y = np.asarray(y, dtype=np.float64)
        s = check_sample_weight(sample_weight, X)
        self.n_iter_, self.history_, self.stop_reason_ = 1, None, "converged"  # direct solve
        if self.solver == "gd":
            if y.ndim > 1:
                raise ValueError("solver='gd' fits a single target; y must be 1-dimensional.")
            w, b, res = least_squares_gd(
                X,
                y,
                s,
                fit_intercept=self.fit_intercept,
                learning_rate=self.learning_rate,
                max_iter=self.max_iter,
                tol=self.tol,
                gtol=self.gtol,
            )
            self.n_iter_, self.history_, self.stop_reason_ = (
                res.n_iter,
                res.history,
                res.stop_reason,
            )
            used = "gd"
        else:
            w, b, used = least_squares(
                X, y, s, fit_intercept=self.fit_intercept, solver=self.solver
            )
        self.coef_, self.intercept_, self.solver_ = w, b, used
        return self


def polynomial_powers(d, degree, interaction_only=False):
    """Exponent matrix P (p, d) of every monomial ∏ⱼ xⱼ^{Pₘⱼ} with 1 <= Σⱼ Pₘⱼ <= degree, in
    graded order and, within a degree, in the lexicographic order of the feature indices
    (the column order of scikit-learn's PolynomialFeatures without its bias column)."""
    pick = combinations if interaction_only else combinations_with_replacement
    rows = []
    for deg in range(1, degree + 1):
        for idx in pick(range(d), deg):
            row = np.zeros(d, dtype=np.int64)
            np.add.at(row, list(idx), 1)
            rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(-1, d)


def polynomial_basis(X, powers):
    """Φ[i, m] = ∏ⱼ X[i, j] ** P[m, j], built column by column from lower-degree columns."""
    n = X.shape[0]
    Phi = np.empty((n, powers.shape[0]))  # (n, p)
    for m, p in enumerate(powers):
        nz = np.flatnonzero(p)
        col = np.ones(n)
        for j in nz:
            col = col * X[:, j] ** p[j]
        Phi[:, m] = col
    return Phi


class PolynomialRegression(LinearModel, RegressorMixin, BaseEstimator):
    """Least squares (optionally ridge) on the polynomial basis Φ(x).

    .. math::

        \\min_{w,b} \\sum_i s_i (\\phi(x_i)^T w + b - y_i)^2 + \\alpha \\|w\\|^2

    with φ(x) every monomial of the features of total degree 1..``degree`` (for one feature,
    φ(x) = [x, x², …, x^degree]), columns in scikit-learn's ``PolynomialFeatures`` order. The
    constant monomial is the intercept b, never penalised. alpha = 0 is solved like
    :class:`LinearRegression` (SVD when the basis is ill conditioned, as high degrees are);
    alpha > 0 like :class:`Ridge`.

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
        Exponents of each basis column.
    """

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
        """Expand X into the polynomial basis and fit; returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True, multi_output=True)
        self.powers_ = polynomial_powers(X.shape[1], self.degree, self.interaction_only)
        Phi = polynomial_basis(X, self.powers_)
        if self.alpha > 0:
            from ._ridge import Ridge

            inner = Ridge(alpha=self.alpha, fit_intercept=self.fit_intercept)
        else:
            inner = LinearRegression(fit_intercept=self.fit_intercept)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # Φ has no feature names
            inner.fit(Phi, y, sample_weight=sample_weight)
        self.coef_, self.intercept_ = inner.coef_, inner.intercept_
        return self

    def predict(self, X):
        """Predictions φ(X) w + b."""
        check_is_fitted(self, "coef_")
        X = self._validate_data(X, reset=False, dtype=np.float64)
        return polynomial_basis(X, self.powers_) @ self.coef_.T + self.intercept_
