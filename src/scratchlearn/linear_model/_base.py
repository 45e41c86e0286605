"""Plumbing shared by every linear model: centring for the intercept, prediction.

Symbols
-------
n, d      number of samples, number of features
k         number of targets (multi-output regression) or classes
X         design matrix, (n, d); ``Xc`` the same matrix centred by weighted column means
y         target, (n,) or (n, k)
s         sample weights, (n,), sᵢ >= 0
x̄, ȳ      weighted means x̄ = Σ sᵢxᵢ / Σ sᵢ and ȳ = Σ sᵢyᵢ / Σ sᵢ
w, b      coefficients (d,) or (k, d) and intercept (scalar or (k,))

The intercept is never penalised. Every penalised least-squares problem in this package is
solved on centred data and the intercept recovered afterwards:

.. math::

    \\min_{w, b} \\sum_i s_i (y_i - x_i^T w - b)^2 + P(w)
    \\quad\\Longrightarrow\\quad
    w = \\arg\\min_w \\sum_i s_i (y_i - \\bar y - (x_i - \\bar x)^T w)^2 + P(w),
    \\qquad b = \\bar y - \\bar x^T w,

because for any fixed w the optimal b is ȳ − x̄ᵀw (set ∂/∂b = 0), and substituting it back
leaves a problem in w alone. Sample weights then enter by scaling the rows of (Xc, yc) by √sᵢ.
Sparse X is never centred explicitly (that would densify it); the solvers that accept sparse
input apply the centring implicitly, Xc v = X v − 1 (x̄ᵀv).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..base import ClassifierMixin
from ..utils import check_is_fitted
from ..utils._available_if import available_if
from ..utils.extmath import log_softmax, safe_sparse_dot
from ..utils.validation import _assert_all_finite, _finite_product

__all__ = [
    "center_data",
    "rescale_rows",
    "set_intercept",
    "lipschitz_constant",
    "standardise",
    "LinearModel",
    "LinearClassifierMixin",
]


def center_data(X, y, *, fit_intercept: bool, sample_weight=None, copy: bool = True):
    """x̄ = Σ sᵢxᵢ / Σ sᵢ, ȳ likewise; return (Xc, yc, x̄, ȳ).

    Dense X is centred (a copy unless ``copy=False``); sparse X is returned unchanged with its
    weighted means in x̄ so that callers can centre implicitly. Without an intercept x̄ and ȳ
    are zero and nothing is copied.
    """
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else sample_weight
    if not fit_intercept:
        y_offset = np.zeros(y.shape[1:]) if y.ndim > 1 else 0.0
        return X, y, np.zeros(d), y_offset
    s_sum = s.sum()
    x_offset = np.asarray(safe_sparse_dot(s, X)).ravel() / s_sum  # (d,)
    y_offset = (s @ y) / s_sum  # scalar or (k,)
    if sp.issparse(X):
        Xc = X
    else:
        Xc = X - x_offset if copy else np.subtract(X, x_offset, out=X)
    return Xc, y - y_offset, x_offset, y_offset


def rescale_rows(X, y, sample_weight):
    """(√s ⊙ X, √s ⊙ y): weighted least squares as ordinary least squares."""
    root = np.sqrt(sample_weight)
    if sp.issparse(X):
        Xs = sp.diags(root) @ X
    else:
        Xs = X * root[:, None]
    ys = y * (root[:, None] if y.ndim > 1 else root)
    return Xs, ys


def set_intercept(w, x_offset, y_offset, fit_intercept):
    """b = ȳ − x̄ᵀw (0 without intercept), for w of shape (d,) or (k, d)."""
    if not fit_intercept:
        return np.zeros(w.shape[0]) if w.ndim > 1 else 0.0
    return y_offset - w @ x_offset


def lipschitz_constant(Z, s, *, max_iter=50, rtol=1e-6):
    """L = λ_max(ZᵀWZ / Σs) by power iteration: the Lipschitz constant of the gradient of
    ½ Σ s̄ᵢ (zᵢᵀv − yᵢ)², so gradient descent with step η = 1/L never diverges.

    Each iterate ‖ZᵀWZv‖/Σs with ‖v‖ = 1 is at most λ_max; stopping at a relative change of
    ``rtol`` leaves L within a factor (1 − rtol) of it in practice, and any L > λ_max/2 keeps
    the step η = 1/L < 2/λ_max stable. Returns 1.0 for Z = 0."""
    v = np.ones(Z.shape[1]) / np.sqrt(Z.shape[1])
    lam = 1.0
    for _ in range(max_iter):
        u = Z.T @ (s * (Z @ v)) / s.sum()  # (d,)
        lam_new = float(np.linalg.norm(u))
        if lam_new == 0.0:
            return 1.0
        v = u / lam_new
        if abs(lam_new - lam) <= rtol * lam_new:
            return lam_new
        lam = lam_new
    return lam


def standardise(X, s_bar, fit_intercept):
    """Z = (X − m)/σ with m = Σ s̄ᵢxᵢ (0 without an intercept) and σ the weighted standard
    deviation about m (1 for constant columns); returns (Z, m, σ). Gradient descent runs in
    these coordinates so that one step size suits every feature; w = v/σ and b = c − mᵀw map
    the solution back."""
    m = s_bar @ X if fit_intercept else np.zeros(X.shape[1])
    sigma = np.sqrt(s_bar @ (X - m) ** 2)
    sigma[sigma == 0.0] = 1.0
    return (X - m) / sigma, m, sigma


class LinearModel:
    """Mixin giving ``f(x) = xᵀw + b`` to estimators that set ``coef_`` and ``intercept_``.

    ``coef_`` is (d,) for one target, (k, d) for k targets (scikit-learn's layout), so the
    decision values are ``X @ coef_.T + intercept_``.
    """

    _accept_sparse_predict = ("csr", "csc", "coo")

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "coef_": ("float64", ("n_rows?", "n_features_in_")),
        "intercept_": ("float64", ("n_rows?",)),
    }

    def _decision_function(self, X):
        """Xwᵀ + b for dense or sparse X, as float64: (n,) or (n, k) like ``coef_``."""
        check_is_fitted(self, "coef_")
        # sparse X keeps its dtype (counts, say): scipy's product converts each value as it
        # reads it, where converting X first (scipy's astype) would also scan it for duplicate
        # entries, a quarter of the time of a prediction on a bag of words
        sparse = sp.issparse(X)
        X = self._validate_data(
            X,
            reset=False,
            accept_sparse=self._accept_sparse_predict,
            dtype="numeric" if sparse else np.float64,
            ensure_all_finite=sparse,  # dense X: told by the product below
        )
        w = self.coef_
        if sparse:
            Z = safe_sparse_dot(X, w.T)  # (n,) or (n, k), read from X where it lies
        elif w.ndim == 1 and X.flags.c_contiguous and not np.all(w):
            # zeros in w (Lasso): the product would not prove X finite; one compiled pass
            # computes the scores and tests the rows (_score_kernels)
            from ._score_kernels import scores_and_nonfinite

            Z = np.empty(X.shape[0])
            if scores_and_nonfinite(X, np.ascontiguousarray(w), Z):
                _assert_all_finite(X, allow_nan=False, input_name="X")
        else:
            Z = _finite_product(X, w)  # X read once, unless Z does not prove it finite
        Z += self.intercept_  # in place: the only allocation is the output itself
        return Z

    def predict(self, X):
        """Predicted targets ``X @ coef_.T + intercept_``, (n,) or (n, k).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
            A Dask array for a Dask X, computed block by block when asked (nothing is
            computed here: :mod:`scratchlearn.utils._dask_predict`).
        """
        return self._decision_function(X)


def _has_logistic_link(estimator):
    return getattr(estimator, "_proba_link", None) == "logistic"


class LinearClassifierMixin(LinearModel, ClassifierMixin):
    """Classification by the scores Z = XWᵀ + b of a linear model (``coef_`` of shape (K′, d),
    K′ = 1 for two classes): ``decision_function``, ``predict``, and, for models whose scores
    are log-odds (``_proba_link = "logistic"``), ``predict_proba`` / ``predict_log_proba``.

    Two classes: z is the score of ``classes_[1]``, predicted when z > 0, and
    P(classes_[1] | x) = σ(z). K classes: the arg-max of the K scores, and
    P(k | x) = softmax(z)ₖ, computed in log space.
    """

    _proba_link = None

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"classes_": ("label", ("n_classes",))}

    def _check_fitted_state(self):
        """One row of coef_ for two classes, one per class otherwise."""
        K, rows = len(self.classes_), self.coef_.reshape(-1, self.coef_.shape[-1]).shape[0]
        if K < 2 or rows != (1 if K == 2 else K):
            raise ValueError(f"coef_ has {rows} rows for {K} classes_")

    def decision_function(self, X):
        """Scores Xwᵀ + b: (n,) for two classes (the score of ``classes_[1]``), else (n, K)."""
        Z = self._decision_function(X)
        return Z[:, 0] if Z.ndim == 2 and Z.shape[1] == 1 else Z

    def predict(self, X):
        """The class of highest score."""
        Z = self.decision_function(X)
        idx = (Z > 0).astype(np.intp) if Z.ndim == 1 else np.argmax(Z, axis=1)
        return self.classes_[idx]

    @available_if(_has_logistic_link, "its scores are not log-odds")
    def predict_log_proba(self, X):
        """log P(class | x), (n, K): log σ(±z) for two classes, log softmax(z) otherwise."""
        Z = self.decision_function(X)
        if Z.ndim == 1:
            Z = np.column_stack([np.zeros_like(Z), Z])  # log-odds → two scores
        return log_softmax(Z, axis=1)

    @available_if(_has_logistic_link, "its scores are not log-odds")
    def predict_proba(self, X):
        """P(class | x), (n, K); rows sum to one."""
        return np.exp(self.predict_log_proba(X))
