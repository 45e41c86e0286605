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

from ..utils import check_is_fitted
from ..utils.extmath import safe_sparse_dot

__all__ = ["center_data", "rescale_rows", "LinearModel", "set_intercept"]


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


class LinearModel:
    """Mixin giving ``f(x) = xᵀw + b`` to estimators that set ``coef_`` and ``intercept_``.

    ``coef_`` is (d,) for one target, (k, d) for k targets (scikit-learn's layout), so the
    decision values are ``X @ coef_.T + intercept_``.
    """

    _accept_sparse_predict = ("csr", "csc", "coo")

    def _decision_function(self, X):
        check_is_fitted(self, "coef_")
        X = self._validate_data(X, reset=False, accept_sparse=self._accept_sparse_predict)
        return safe_sparse_dot(X, self.coef_.T) + self.intercept_

    def predict(self, X):
        """Predicted targets ``X @ coef_.T + intercept_``, (n,) or (n, k).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        return self._decision_function(X)
