"""Ridge regression: least squares with an L2 penalty on the coefficients (not the intercept).

Symbols
-------
n, d, k    samples, features, targets
Xc, yc     weighted-centred design and target, rows scaled by √sᵢ (see ``_base``)
α          penalty strength (scalar, or one per target)
w, b       coefficients, intercept;  c the dual coefficients (n,)
U, σ, V    thin SVD Xc = U diag(σ) Vᵀ

Objective (scikit-learn's convention)
-------------------------------------
.. math::

    \\min_{w,b} \\sum_i s_i (y_i - x_i^T w - b)^2 + \\alpha \\|w\\|_2^2

The seed's form (1/2n)‖y − Xw − b‖² + λ‖w‖² is the same problem scaled by 1/(2n), so it is
α = 2nλ here. Centring removes b (b = ȳ − x̄ᵀw); w then solves any of the equivalent systems

* primal:  (XcᵀXc + αI) w = Xcᵀyc                   (d × d, Cholesky; best when d <= n)
* dual:    (XcXcᵀ + αI) c = yc,  w = Xcᵀc           (n × n, Cholesky; best when d > n)
* SVD:     w = V diag(σ / (σ² + α)) Uᵀyc            (robust, also for α = 0)
* CG:      conjugate gradients on the primal system with matrix-vector products only, so a
           sparse X is never densified; the centring is applied implicitly,
           Xc v = X v − 1 (x̄ᵀv).
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ..base import BaseEstimator, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..utils import Interval, StrOptions, check_sample_weight
from ._base import LinearModel, center_data, gram, rescale_rows, set_intercept

__all__ = ["Ridge", "ridge_primal", "ridge_dual", "ridge_svd", "ridge_cg"]


def ridge_primal(G, c, alpha):
    """w = (G + αI)⁻¹ c with G = XcᵀXc, c = Xcᵀyc: add α to the diagonal, Cholesky solve.

    G (d, d), c (d, k), alpha (k,); one factorisation per distinct α. Returns None if
    G + αI is not numerically positive definite (α = 0 on a singular G)."""
    d = G.shape[0]
    W = np.empty((d, c.shape[1]))
    for a in np.unique(alpha):
        cols = alpha == a
        A = G + a * np.eye(d)
        try:
            W[:, cols] = sla.cho_solve(
                sla.cho_factor(A, check_finite=False), c[:, cols], check_finite=False
            )
        except sla.LinAlgError:
            return None
    return W


def ridge_dual(X, Y, alpha):
    """w = Xᵀ (XXᵀ + αI)⁻¹ y: the kernel form, an n × n system (cheaper when d > n)."""
    K = X @ X.T  # (n, n)
    n = K.shape[0]
    C = np.empty_like(Y)
    for a in np.unique(alpha):
        cols = alpha == a
        try:
            C[:, cols] = sla.cho_solve(
                sla.cho_factor(K + a * np.eye(n), check_finite=False),
                Y[:, cols],
                check_finite=False,
            )
        except sla.LinAlgError:
            return None
    return X.T @ C  # (d, k)


def ridge_svd(X, Y, alpha):
    """w = V diag(σ/(σ² + α)) Uᵀ y; singular values below the rank cut-off are dropped, so
    α = 0 gives the minimum-norm least-squares solution."""
    U, sig, Vt = sla.svd(X, full_matrices=False, check_finite=False)
    keep = sig > sig.max(initial=0.0) * max(X.shape) * np.finfo(float).eps
    U, sig, Vt = U[:, keep], sig[keep], Vt[keep]
    UtY = U.T @ Y  # (r, k)
    factor = sig[:, None] / (sig[:, None] ** 2 + alpha[None, :])  # (r, k)
    return Vt.T @ (factor * UtY)


def ridge_cg(matvec, rmatvec, Y, alpha, *, tol=1e-10, max_iter=None, trace=None):
    """Conjugate gradients on (XcᵀXc + αI) w = Xcᵀy, one target at a time.

    ``matvec(v) = Xc v`` and ``rmatvec(u) = Xcᵀu``. Stops when ‖residual‖ <= tol ‖Xcᵀy‖.
    ``trace``, a list, receives per target the relative residuals ‖r‖/‖Xcᵀy‖ (start, then one
    per iteration). Returns (W (d, k), iterations per target)."""
    B = np.column_stack([rmatvec(Y[:, t]) for t in range(Y.shape[1])])  # (d, k)
    d = B.shape[0]
    max_iter = max_iter or 10 * d
    W, n_iter = np.zeros_like(B), []
    for t in range(B.shape[1]):
        a, w = alpha[t], np.zeros(d)
        r = B[:, t].copy()
        p, rr = r.copy(), r @ r
        stop = tol**2 * rr
        norm0 = np.sqrt(rr) if rr > 0 else 1.0
        hist = [float(np.sqrt(rr) / norm0)]
        it = 0
        while rr > stop and it < max_iter:
            Ap = rmatvec(matvec(p)) + a * p
            step = rr / (p @ Ap)
            w += step * p
            r -= step * Ap
            rr_new = r @ r
            p = r + (rr_new / rr) * p
            rr, it = rr_new, it + 1
            hist.append(float(np.sqrt(rr) / norm0))
        W[:, t], n_iter = w, n_iter + [it]
        if trace is not None:
            trace.append(hist)
    return W, n_iter


class Ridge(LinearModel, RegressorMixin, BaseEstimator):
    """Linear least squares with an L2 penalty, intercept unpenalised.

    .. math::

        \\min_{w,b} \\sum_i s_i (y_i - x_i^T w - b)^2 + \\alpha \\|w\\|_2^2

    The seed's (1/2n)‖y − Xw − b‖² + λ‖w‖² is the same problem with α = 2nλ.

    Parameters
    ----------
    alpha : float or array of shape (n_targets,), default=1.0
        Penalty strength; an array gives each target its own α.
    fit_intercept : bool, default=True
        Fit b by centring (b = ȳ − x̄ᵀw): the intercept is never penalised.
    solver : {"auto", "cholesky", "dual", "svd", "sparse_cg"}, default="auto"
        "auto": for dense X, "cholesky" (primal) when d <= n and "dual" when d > n; for sparse
        X, "cholesky" on the implicitly centred Gram matrix when d <= 2000, else "sparse_cg".
        "svd" densifies sparse X. A failed Cholesky (α = 0 and a singular design) falls back
        to "svd".
    max_iter : int or None, default=None
        Iteration cap of "sparse_cg" (None: 10·d).
    tol : float, default=1e-10
        Relative residual at which "sparse_cg" stops.
    copy_X : bool, default=True
        Kept for scikit-learn compatibility: X is never modified in place.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    solver_ : str
        Solver actually used.
    n_iter_ : int or list of int
        CG iterations per target ("sparse_cg"); 1 for the direct solvers.
    history_ : dict or None
        "sparse_cg": {"residual_norm": relative residuals ‖r‖/‖Xcᵀy‖ per iteration} (a list
        of such lists for several targets); None for the direct solvers.
    stop_reason_ : str
        "converged" (direct solve, or every CG run met ``tol``) or "max_iter".
    """

    _parameter_constraints = {
        "alpha": [Interval(numbers.Real, 0, None, closed="left"), "array-like"],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"auto", "cholesky", "dual", "svd", "sparse_cg"})],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "copy_X": ["boolean"],
    }

    def __init__(
        self, alpha=1.0, *, fit_intercept=True, solver="auto", max_iter=None, tol=1e-10, copy_X=True
    ):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.copy_X = copy_X

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"], multi_output=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Solve the penalised least-squares problem; returns self."""
        self._validate_params()
        X, y = self._validate_data(
            X, y, accept_sparse=["csr", "csc"], dtype=np.float64, y_numeric=True, multi_output=True
        )
        y = np.asarray(y, dtype=np.float64)
        s = check_sample_weight(sample_weight, X)
        one_target = y.ndim == 1
        Y = y.reshape(len(y), -1)  # (n, k)
        alpha = np.broadcast_to(np.asarray(self.alpha, dtype=np.float64), (Y.shape[1],))
        if np.any(alpha < 0) or alpha.ndim != 1:
            raise ValueError(f"alpha must be non-negative, one value per target; got {alpha}.")
        Xc, Yc, x_off, y_off = center_data(X, Y, fit_intercept=self.fit_intercept, sample_weight=s)
        self.history_, self.stop_reason_ = None, "converged"  # direct solvers
        W, used, n_iter = self._solve(Xc, Yc, s, x_off, alpha)
        coef = W.T  # (k, d)
        intercept = set_intercept(coef, x_off, y_off, self.fit_intercept)
        if one_target:
            coef, intercept = coef[0], float(np.ravel(intercept)[0])
        self.coef_, self.intercept_, self.solver_ = coef, intercept, used
        self.n_iter_ = 1 if n_iter is None else n_iter
        return self

    def _solve(self, Xc, Yc, s, x_off, alpha):
        """Dispatch to a solver; returns (W (d, k), solver used, CG iterations or None)."""
        s_eff = None if np.all(s == 1.0) else s
        n, d = Xc.shape
        solver = self.solver
        if solver == "auto":
            if sp.issparse(Xc):
                solver = "cholesky" if d <= 2000 else "sparse_cg"
            else:
                solver = "cholesky" if d <= n else "dual"
        if solver == "sparse_cg":
            return self._solve_cg(Xc, Yc, s, x_off, alpha)
        if solver == "cholesky":
            G, c = gram(Xc, Yc, s_eff, x_off, self.fit_intercept)
            W = ridge_primal(G, c, alpha)
            if W is not None:
                return W, "cholesky", None
        if sp.issparse(Xc):
            Xc = Xc.toarray() - x_off
        Xs, Ys = (Xc, Yc) if s_eff is None else rescale_rows(Xc, Yc, s_eff)
        if solver == "dual":
            W = ridge_dual(Xs, Ys, alpha)
            if W is not None:
                return W, "dual", None
        return ridge_svd(Xs, Ys, alpha), "svd", None

    def _solve_cg(self, Xc, Yc, s, x_off, alpha):
        root = np.sqrt(s)
        sparse = sp.issparse(Xc)

        def matvec(v):  # √s ⊙ (Xc v), centring implicit for sparse X
            u = Xc @ v
            return root * (u - x_off @ v if sparse else u)

        def rmatvec(u):  # Xcᵀ (√s ⊙ u)
            su = root * u
            out = Xc.T @ su
            return out - x_off * su.sum() if sparse else out

        Ys = Yc * root[:, None]
        trace = []
        W, n_iter = ridge_cg(
            matvec, rmatvec, Ys, alpha, tol=self.tol, max_iter=self.max_iter, trace=trace
        )
        self.history_ = {"residual_norm": trace[0] if len(trace) == 1 else trace}
        # a run that hit the cap without meeting tol (a run may meet tol on its last step)
        if any(h[-1] > self.tol for h in trace) and max(n_iter) >= (
            self.max_iter or 10 * Xc.shape[1]
        ):
            import warnings

            self.stop_reason_ = "max_iter"
            warnings.warn(
                "Ridge sparse_cg reached max_iter before converging.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return W, "sparse_cg", n_iter
