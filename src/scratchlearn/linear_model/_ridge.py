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
* SVD:     w = V diag(σ / (σ² + α)) Uᵀyc            (robust, also for α = 0; taken of the
           d × d factor Rₓₓ of √W·[Xc yc] = QR, which shares σ and V, ``_block_stats``)
* CG:      conjugate gradients on the primal system with matrix-vector products only, so a
           sparse X is never densified; the centring is applied implicitly,
           Xc v = X v − 1 (x̄ᵀv).

The Cholesky solves go through :func:`scratchlearn.utils.spd_solve`. For α > 0 both systems
are positive definite in exact arithmetic; in floating point they can fail only when α is
below the rounding of the Gram (or kernel) matrix and that matrix is singular, α = 0 included.
The declared fallbacks, announced by a LinAlgWarning: the primal system takes the SVD of the
data √W Xc (the SVD formula above, exact for every α >= 0 and about twice the digits of an SVD
of the Gram matrix); the dual system takes its own minimum-norm solution c, which lies in the
range of Xc, so that w = Xcᵀc is the minimum-norm w.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ..base import BaseEstimator, RegressorMixin
from ..utils import Interval, StrOptions, check_sample_weight, spd_solve
from ..utils._dask import is_dask_collection
from ._base import LinearModel, center_data, rescale_rows, set_intercept
from ._block_stats import check_dask_fit, moments, r_factor

__all__ = ["Ridge", "ridge_primal", "ridge_dual", "ridge_svd", "ridge_cg"]


def ridge_primal(G, c, alpha, fallback):
    """w = (G + αI)⁻¹ c with G = XcᵀWXc, c = XcᵀWyc: add α to the diagonal, Cholesky solve.

    G (d, d), c (d, k), alpha (k,); one factorisation per distinct α. G + αI is positive
    definite in exact arithmetic for α > 0, but not in floating point when α is below the
    rounding of G's largest entries and G is singular (or α = 0): ``fallback(cols)`` then
    returns the solution of the targets ``cols`` by another route (Ridge: the SVD of √W Xc),
    announced by a LinAlgWarning."""
    d = G.shape[0]
    W = np.empty((d, c.shape[1]))
    for a in np.unique(alpha):
        cols = alpha == a
        W[:, cols] = spd_solve(
            G + a * np.eye(d),
            c[:, cols],
            fallback=lambda cols=cols: fallback(cols),
            what=f"the ridge system (XcᵀWXc + αI) w = XcᵀWyc with α={a:g}",
        )
    return W


def ridge_dual(X, Y, alpha):
    """w = Xᵀ (XXᵀ + αI)⁻¹ y: the kernel form, an n × n system (cheaper when d > n).

    Fallback when XXᵀ + αI is singular in floating point (α = 0, or α below the rounding of
    K's entries): the minimum-norm c of the dual system, announced by a LinAlgWarning. c then
    lies in the range of X, so w = Xᵀc is the minimum-norm w as well."""
    K = X @ X.T  # (n, n)
    n = K.shape[0]
    C = np.empty_like(Y)
    for a in np.unique(alpha):
        cols = alpha == a
        C[:, cols] = spd_solve(
            K + a * np.eye(n),
            Y[:, cols],
            fallback="lstsq",
            what=f"the dual ridge system (XcXcᵀ + αI) c = yc with α={a:g}",
        )
    return X.T @ C  # (d, k)


def ridge_svd(X, Y, alpha, n_rows=None):
    """w = V diag(σ/(σ² + α)) Uᵀ y; singular values below the rank cut-off
    max(n, d)·ε·σ_max are dropped, so α = 0 gives the minimum-norm least-squares solution.

    X may be the data √W·Xc (n, d) or its factor Rₓₓ (d, d) with Y = Rₓᵧ (``_block_stats``):
    same σ and V, and Uᵀy is the same. ``n_rows`` is then the data's n, for the same cut-off."""
    U, sig, Vt = sla.svd(X, full_matrices=False, check_finite=False)
    rows = X.shape[0] if n_rows is None else n_rows
    keep = sig > sig.max(initial=0.0) * max(rows, X.shape[1]) * np.finfo(float).eps
    U, sig, Vt = U[:, keep], sig[keep], Vt[keep]
    UtY = U.T @ Y  # (r, k)
    factor = sig[:, None] / (sig[:, None] ** 2 + alpha[None, :])  # (r, k)
    return Vt.T @ (factor * UtY)


def ridge_cg(matvec, rmatvec, Y, alpha, *, tol=1e-10, max_iter=None):
    """Conjugate gradients on (XcᵀXc + αI) w = Xcᵀy, one target at a time.

    ``matvec(v) = Xc v`` and ``rmatvec(u) = Xcᵀu`` (weights already folded into both and
    into Y). Stops when the residual r = Xcᵀy − (XcᵀXc + αI) w has ‖r‖₂ <= tol ‖Xcᵀy‖₂. The
    residual is half the negative gradient of the objective f(w) = ‖y − Xc w‖² + α‖w‖²,
    ∇f = −2r, and f itself costs O(d) from it: f(w) = ‖y‖² − wᵀ(Xcᵀy + r).

    Returns (W (d, k), iterations per target (k,), histories, converged per target), with one
    history per target: {"objective": f(w), "grad_norm": ‖r‖₂ = ‖∇f‖₂/2}, start included."""
    B = np.column_stack([rmatvec(Y[:, t]) for t in range(Y.shape[1])])  # (d, k)
    d, k = B.shape
    max_iter = max_iter or 10 * d
    W, n_iter, histories, converged = np.zeros_like(B), np.zeros(k, dtype=np.int64), [], []
    for t in range(k):
        a, w, b, yy = alpha[t], np.zeros(d), B[:, t], Y[:, t] @ Y[:, t]
        r = b.copy()
        p, rr = r.copy(), r @ r
        stop = tol**2 * rr
        hist = {"objective": [yy], "grad_norm": [np.sqrt(rr)]}
        while rr > stop and n_iter[t] < max_iter:
            Ap = rmatvec(matvec(p)) + a * p
            step = rr / (p @ Ap)
            w += step * p
            r -= step * Ap
            rr_new = r @ r
            p = r + (rr_new / rr) * p
            rr, n_iter[t] = rr_new, n_iter[t] + 1
            hist["objective"].append(yy - w @ (b + r))
            hist["grad_norm"].append(np.sqrt(rr))
        W[:, t] = w
        histories.append(hist)
        converged.append(bool(rr <= stop))
    return W, n_iter, histories, converged


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
        "auto" chooses, for dense X, "cholesky" (primal) when d <= n and "dual" when d > n;
        for sparse X, "cholesky" on the implicitly centred Gram matrix when d <= 2000, else
        "sparse_cg". "svd" densifies sparse X. XᵀWX + αI is positive definite in exact
        arithmetic for α > 0, but not in floating point for α = 0 (or α below the rounding of
        XᵀWX) on a singular design: "cholesky" then falls back to the SVD of √W Xc (``solver_``
        "svd") and "dual" to the minimum-norm solution of its n × n system, both announced
        by a :class:`~scratchlearn.exceptions.LinAlgWarning`.
    max_iter : int or None, default=None
        Iteration cap of "sparse_cg" (None: 10·d).
    tol : float, default=1e-10
        "sparse_cg" stops when ‖r‖₂ <= tol·‖XcᵀWyc‖₂, r the residual of the normal equations.
    copy_X : bool, default=True
        Kept for scikit-learn compatibility: X is never modified in place.

    Dask
    ----
    X may be a Dask array or DataFrame (y and ``sample_weight`` NumPy or Dask). "cholesky"
    and "svd" use the statistics of :class:`LinearRegression` ("normal" and "lstsq": per
    block, the weight, mean and centred cross-products of [x y], or its R factor, merged by
    Chan's update, (p² + p + 1)·8 bytes per block for p = d + k) and add α after the merge,
    in one pass over the data (a Cholesky breakdown adds one for R). "auto" means "cholesky"
    on Dask. "dual" (an n × n kernel matrix) and "sparse_cg" (a pass per iteration) refuse
    Dask input, as do blocks of sparse matrices. ``predict`` on a Dask array is lazy.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    solver_ : str
        Solver actually used.
    n_iter_ : ndarray of shape (n_targets,) or int
        CG iterations per target ("sparse_cg"); 1 for the direct solvers (scikit-learn's Ridge
        says None, but its common checks require ``n_iter_`` >= 1 of an estimator with max_iter).
    history_ : dict, list of dict, or None
        "sparse_cg": {"objective": Σ sᵢ(yᵢ − ȳ − (xᵢ − x̄)ᵀw)² + α‖w‖², "grad_norm": ‖r‖₂}
        per iteration, start included, where r = XcᵀWyc − (XcᵀWXc + αI)w is half the
        negative gradient of the objective (a list of such dicts for several targets); None
        for the direct solvers.
    stop_reason_ : str
        "converged" (direct solve, or every CG run met ``tol``) or "max_iter" (with a
        ConvergenceWarning).

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import Ridge
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = Ridge(alpha=1.0).fit(X, y)
    >>> print(model.solver_, model.coef_.shape)
    cholesky (10,)
    >>> print(round(model.score(X, y), 4))
    0.4512
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
        t.update(X_types=["2darray", "sparse"], multi_output=True, dask=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Solve the penalised least-squares problem; returns self."""
        self._validate_params()
        if is_dask_collection(X):
            self._choose_solver(X)  # refuses "dual" and "sparse_cg" before any work
            X, y, s = check_dask_fit(self, X, y, sample_weight)
        else:
            X, y = self._validate_data(
                X,
                y,
                accept_sparse=["csr", "csc"],
                dtype=np.float64,
                y_numeric=True,
                multi_output=True,
            )
            y = np.asarray(y, dtype=np.float64)
            s = check_sample_weight(sample_weight, X)
        one_target = y.ndim == 1
        k = 1 if one_target else y.shape[1]
        alpha = np.broadcast_to(np.asarray(self.alpha, dtype=np.float64), (k,))
        if np.any(alpha < 0) or alpha.ndim != 1:
            raise ValueError(f"alpha must be non-negative, one value per target; got {alpha}.")
        solver = self._choose_solver(X)
        if solver in ("cholesky", "svd"):
            s_eff = None if s is None or (isinstance(s, np.ndarray) and np.all(s == 1.0)) else s
            W, x_off, y_off, self.solver_ = self._solve_from_stats(solver, X, y, s_eff, alpha)
            self._record_fit(1, None, "converged", criterion="a direct solve")
        else:
            Y = y.reshape(len(y), -1)  # (n, k)
            Xc, Yc, x_off, y_off = center_data(
                X, Y, fit_intercept=self.fit_intercept, sample_weight=s
            )
            if solver == "sparse_cg":
                W, n_iter, histories, converged = self._solve_cg(Xc, Yc, s, x_off, alpha)
                self.solver_ = "sparse_cg"
                self._record_fit(
                    n_iter,
                    histories[0] if one_target else histories,
                    "converged" if all(converged) else "max_iter",
                    criterion=f"sparse_cg: ‖r‖₂ <= tol·‖XcᵀWyc‖₂ with tol={self.tol}",
                )
            else:
                Xs, Ys = (Xc, Yc) if np.all(s == 1.0) else rescale_rows(Xc, Yc, s)
                W, self.solver_ = ridge_dual(Xs, Ys, alpha), "dual"
                self._record_fit(1, None, "converged", criterion="a direct solve")
        coef = W.T  # (k, d)
        intercept = set_intercept(coef, x_off, y_off, self.fit_intercept)
        if one_target:
            coef, intercept = coef[0], float(np.ravel(intercept)[0])
        self.coef_, self.intercept_ = coef, intercept
        return self

    def _choose_solver(self, X):
        if is_dask_collection(X):
            if self.solver in ("dual", "sparse_cg"):
                raise ValueError(
                    f"Ridge(solver={self.solver!r}) does not fit on Dask input: its work grows "
                    "with the rows (an n × n kernel matrix, or one pass over the data per "
                    "conjugate-gradient step). 'auto' (= 'cholesky'), 'cholesky' and 'svd' "
                    "fit in one pass from (d + k)² statistics."
                )
            return "cholesky" if self.solver == "auto" else self.solver
        if self.solver != "auto":
            return self.solver
        n, d = X.shape
        if sp.issparse(X):
            return "cholesky" if d <= 2000 else "sparse_cg"
        return "cholesky" if d <= n else "dual"

    def _solve_from_stats(self, solver, X, y, s, alpha):
        """W (d, k) by "cholesky" (the moments: G = XcᵀWXc, c = XcᵀWYc) or "svd" (the R factor
        of √W·[Xc Yc]); returns (W, x̄, ȳ, solver used)."""
        n, d = X.shape
        fit_intercept = self.fit_intercept
        r_stats = []  # computed once, when first needed (on Dask: one more pass)

        def svd_of_r(cols):  # Rₓₓ has the σ and V of √W·Xc, and Rₓᵧ is its Uᵀ√W·Yc
            if not r_stats:
                r_stats.append(r_factor(X, y, s, fit_intercept=fit_intercept))
            R = r_stats[0]["R"]
            return ridge_svd(R[:d, :d], R[:d, d:][:, cols], alpha[cols], n_rows=n)

        if solver == "cholesky":
            st = moments(X, y, s, fit_intercept=fit_intercept)
            W = ridge_primal(st["C"][:d, :d], st["C"][:d, d:], alpha, svd_of_r)
        else:
            W = svd_of_r(slice(None))
            st = r_stats[0]
        return W, st["mean"][:d], st["mean"][d:], "svd" if r_stats else "cholesky"

    def _solve_cg(self, Xc, Yc, s, x_off, alpha):
        """:func:`ridge_cg` with the weights √s folded into Xc and Yc."""
        root = np.sqrt(s)
        sparse = sp.issparse(Xc)

        def matvec(v):  # √s ⊙ (Xc v), centring implicit for sparse X
            u = Xc @ v
            return root * (u - x_off @ v if sparse else u)

        def rmatvec(u):  # Xcᵀ (√s ⊙ u)
            su = root * u
            out = Xc.T @ su
            return out - x_off * su.sum() if sparse else out

        return ridge_cg(
            matvec, rmatvec, Yc * root[:, None], alpha, tol=self.tol, max_iter=self.max_iter
        )
