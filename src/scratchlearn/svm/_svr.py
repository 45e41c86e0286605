"""ε-support vector regression (LIBSVM's ε-SVR), solved by the SMO of :mod:`._smo`.

Primal: ``min_{w,b,ξ,ξ*} ½‖w‖² + Σᵢ Cᵢ(ξᵢ + ξᵢ*)`` s.t. ``yᵢ − w·φ(xᵢ) − b ≤ ε + ξᵢ``,
``w·φ(xᵢ) + b − yᵢ ≤ ε + ξᵢ*``, ``ξ, ξ* ≥ 0``. Dual over the 2n variables (α, α*):

    min ½(α − α*)ᵀK(α − α*) + Σᵢ (ε − yᵢ)αᵢ + Σᵢ (ε + yᵢ)αᵢ*   s.t.  Σᵢ (αᵢ − αᵢ*) = 0,
    0 ≤ αᵢ, αᵢ* ≤ Cᵢ,

which is the solver's form with l = 2n variables on n data rows (``index = [0..n−1, 0..n−1]``),
signs ``(+1, …, +1, −1, …, −1)``, ``p = (ε − y, ε + y)`` and ``C = (C·s, C·s)`` for sample
weights s. The regression function is ``f(x) = Σᵢ (αᵢ − αᵢ*) K(xᵢ, x) − ρ``: ``dual_coef_`` is
α − α* over the support vectors (the rows where it is not zero) and ``intercept_ = −ρ``.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..base import BaseEstimator, RegressorMixin
from ..metrics._pairwise_kernels import block_rows
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import check_is_fitted, check_sample_weight
from ._base import KernelSVMMixin
from ._smo import smo_solve

__all__ = ["SVR"]


class SVR(KernelSVMMixin, RegressorMixin, BaseEstimator):
    """ε-insensitive support vector regression by SMO (see the module docstring).

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        As :class:`SVC`: x·z, (γx·z + r)^degree, exp(−γ‖x − z‖²), tanh(γx·z + r), the (n, n)
        Gram matrix at fit and (m, n_train) at predict, or K(A, B) returning a Gram matrix.
    degree : int, default=3
    gamma : {"scale", "auto"} or float > 0, default="scale"
        "scale": 1/(d·X.var()); "auto": 1/d.
    coef0 : float, default=0.0
    tol : float, default=1e-3
        Stop when the maximal KKT violation m(α) − M(α) <= tol.
    C : float > 0, default=1.0
        Penalty of the errors beyond ε; per sample Cᵢ = C·sample_weightᵢ.
    epsilon : float >= 0, default=0.1
        Half-width of the tube inside which errors cost nothing.
    shrinking : bool, default=True
    cache_size : float, default=200
        Megabytes of kernel rows kept by the solver (float64 rows: half as many as LIBSVM's).
    max_iter : int, default=-1
        SMO iterations; −1: no limit.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
        Rows with αᵢ ≠ αᵢ*.
    support_vectors_ : ndarray of shape (n_SV, d)
        ((0, 0) for "precomputed").
    dual_coef_ : ndarray of shape (1, n_SV)
        αᵢ − αᵢ*.
    intercept_ : ndarray of shape (1,)
        −ρ.
    n_support_ : ndarray of shape (1,), int32
    coef_ : ndarray of shape (1, d)
        ``dual_coef_ @ support_vectors_``, linear kernel only.
    fit_status_ : int
        0 when SMO converged.
    shape_fit_ : tuple
    n_iter_ : int
        SMO iterations.
    stop_reason_ : str
        "converged" or "max_iter" (with a ConvergenceWarning).
    history_ : dict
        {"objective": the dual objective, "kkt_violation": the maximal KKT violation
        m(α) − M(α)} every 10 iterations (a fit that runs past 40,960 iterations keeps 4,096
        entries at most: every other one is dropped and the spacing doubles, as often as needed).
    dual_objective_ : float
        The final dual objective.

    Notes
    -----
    Reproducibility: the fitted state does not depend on the BLAS thread count, but
    ``predict`` sums kernel rows by BLAS products whose rounding does (predictions differed by
    2e-16 relative between 1 and 2 OpenBLAS threads).

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.svm import SVR
    >>> X = np.linspace(0.0, 6.0, 40).reshape(-1, 1)
    >>> y = np.sin(X[:, 0])
    >>> reg = SVR(C=10.0, epsilon=0.1).fit(X, y)
    >>> print(reg.stop_reason_, len(reg.support_) < len(X), round(reg.score(X, y), 3))
    converged True 0.989
    >>> print(np.round(reg.predict([[1.5]]), 2))
    [0.9]
    """

    _parameter_constraints = {
        "kernel": [StrOptions({"linear", "poly", "rbf", "sigmoid", "precomputed"}), "callable"],
        "degree": [Interval(numbers.Integral, 0, None, closed="left")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(numbers.Real, 0, None, closed="neither")],
        "coef0": [Interval(numbers.Real, None, None, closed="neither")],
        "tol": [Interval(numbers.Real, 0, None, closed="neither")],
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "epsilon": [Interval(numbers.Real, 0, None, closed="left")],
        "shrinking": ["boolean"],
        "cache_size": [Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, -1, None, closed="left")],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        C=1.0,
        epsilon=0.1,
        shrinking=True,
        cache_size=200,
        max_iter=-1,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.max_iter = max_iter

    def fit(self, X, y, sample_weight=None):
        """Solve the 2n-variable dual by SMO; returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(
                "SVR with kernel='precomputed' needs X to be the square (n, n) Gram matrix of "
                f"the training samples; got X of shape {X.shape}."
            )
        X = np.ascontiguousarray(X)
        n = X.shape[0]
        Ci = self.C * check_sample_weight(sample_weight, X)
        keep = np.flatnonzero(Ci > 0)  # zero-weight samples are out of the problem
        if keep.size == 0:
            raise ValueError("SVR: every sample has weight 0; nothing to fit.")
        yk = y[keep]
        res = smo_solve(
            self._kernel_spec(X),
            np.r_[np.ones(keep.size), -np.ones(keep.size)],
            np.r_[self.epsilon - yk, self.epsilon + yk],
            np.r_[Ci[keep], Ci[keep]],
            index=np.r_[keep, keep],
            tol=self.tol,
            shrinking=self.shrinking,
            cache_size=float(self.cache_size),
            max_iter=self.max_iter,
        )
        beta = np.zeros(n)
        beta[keep] = res.alpha[: keep.size] - res.alpha[keep.size :]  # α − α*
        self.support_ = np.flatnonzero(beta != 0).astype(np.int32)
        pre = self.kernel == "precomputed"
        self.support_vectors_ = np.empty((0, 0)) if pre else X[self.support_]
        self.dual_coef_ = beta[self.support_][None, :]
        self.intercept_ = np.array([-res.rho])
        self.n_support_ = np.array([self.support_.size], dtype=np.int32)
        self.shape_fit_ = X.shape
        self.dual_objective_ = res.objective
        self.fit_status_ = 0 if res.status == "converged" else 1
        self._record_fit(
            int(res.n_iter),
            {"objective": res.history_objective, "kkt_violation": res.history_violation},
            "converged" if res.status == "converged" else "max_iter",
            criterion=f"maximal KKT violation m(α) − M(α) <= tol={self.tol}",
            met={"converged"},
        )
        return self

    @property
    def coef_(self):
        """w = Σᵢ (αᵢ − αᵢ*) xᵢ (1, d), for the linear kernel only."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        return self.dual_coef_ @ self.support_vectors_

    def predict(self, X):
        """f(x) = Σᵢ (αᵢ − αᵢ*) K(xᵢ, x) + ``intercept_``, computed over blocks of rows."""
        X = self._check_test(X)
        out = np.full(X.shape[0], self.intercept_[0])
        if self.support_.size == 0:  # β = 0 (e.g. every target inside the tube): f = −ρ
            return out
        step = block_rows(max(1, self.support_.size))
        for start in range(0, X.shape[0], step):
            rows = slice(start, start + step)
            out[rows] += self._kernel_rows(X[rows]) @ self.dual_coef_[0]
        return out
