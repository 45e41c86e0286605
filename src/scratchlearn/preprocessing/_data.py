"""Feature scaling: standardisation, min-max scaling, per-sample normalisation, thresholding.

Symbols
-------
======  ==========================================================
n       number of samples (or, with weights, the sum of the weights)
d       number of features
x_ij    feature j of sample i
w_i     weight of sample i (1 without ``sample_weight``)
μ_j     weighted mean of feature j
σ²_j    weighted (biased, divide-by-n) variance of feature j
a, b    the target range ``feature_range = (a, b)`` of MinMaxScaler
======  ==========================================================
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import check_array, check_is_fitted, check_sample_weight

__all__ = ["StandardScaler", "MinMaxScaler", "Normalizer", "Binarizer"]

_EPS = np.finfo(np.float64).eps


# -- pure numerical helpers ---------------------------------------------------------------------
def _data_columns(X):
    """Column index of every stored value of a CSR or CSC matrix, shape (nnz,)."""
    if X.format == "csr":
        return X.indices
    return np.repeat(np.arange(X.shape[1]), np.diff(X.indptr))


def _data_rows(X):
    """Row index of every stored value of a CSR or CSC matrix, shape (nnz,)."""
    if X.format == "csc":
        return X.indices
    return np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))


def weighted_mean_var(X, w):
    """Two-pass weighted moments of each column.

    μ_j = Σ_i w_i x_ij / W,   σ²_j = Σ_i w_i (x_ij − μ_j)² / W,   W = Σ_i w_i.

    X may be dense or CSR/CSC; for a sparse X the implicit zeros contribute
    (W − Σ_{stored} w_i) μ_j² to the sum of squares. Returns (μ, σ², W).
    """
    if w is None:
        W = X.shape[0]
        if sp.issparse(X):
            w = np.ones(W)
    else:
        W = float(np.sum(w))
    if sp.issparse(X):
        cols = _data_columns(X)
        w_data = w[_data_rows(X)]  # (nnz,)
        d = X.shape[1]
        mu = np.bincount(cols, weights=w_data * X.data, minlength=d) / W
        w_stored = np.bincount(cols, weights=w_data, minlength=d)
        diff = X.data - mu[cols]
        ss = np.bincount(cols, weights=w_data * diff * diff, minlength=d)
        ss += (W - w_stored) * mu * mu
        return mu, ss / W, W
    if w is None:
        mu = X.mean(axis=0)
        centred = X - mu  # (n, d)
        np.square(centred, out=centred)
        return mu, centred.mean(axis=0), W
    mu = (w @ X) / W
    centred = X - mu
    np.square(centred, out=centred)
    return mu, (w @ centred) / W, W


def chan_merge(n_a, mu_a, var_a, n_b, mu_b, var_b):
    """Merge the moments of two disjoint batches (Chan, Golub & LeVeque, 1979).

    n = n_a + n_b,  δ = μ_b − μ_a,  μ = μ_a + δ n_b / n,
    σ² = (n_a σ²_a + n_b σ²_b + δ² n_a n_b / n) / n.

    Unlike accumulating Σx and Σx², no large nearly-equal quantities are subtracted.
    """
    n = n_a + n_b
    delta = mu_b - mu_a
    mu = mu_a + delta * (n_b / n)
    if var_a is None:
        return n, mu, None
    m2 = var_a * n_a + var_b * n_b + delta * delta * (n_a * n_b / n)
    return n, mu, m2 / n


def _is_constant(var, mu, n):
    """Variances that are zero up to rounding: σ² ≤ n ε σ² + (n μ ε)², the bound on the
    floating-point error of a two-pass variance of n numbers around a mean μ."""
    return var <= n * _EPS * var + (n * mu * _EPS) ** 2


def _safe_scale(scale, constant=None):
    """Scales of (numerically) zero become 1, so constant features are left unscaled."""
    scale = np.array(scale, dtype=np.float64, copy=True)
    if constant is None:
        constant = scale < 10 * _EPS
    scale[constant] = 1.0
    return scale


# -- StandardScaler -----------------------------------------------------------------------------
class StandardScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    r"""Standardise features: z_ij = (x_ij − μ_j) / σ_j.

    .. math:: \mu_j = \frac{\sum_i w_i x_{ij}}{\sum_i w_i}, \qquad
              \sigma_j^2 = \frac{\sum_i w_i (x_{ij} - \mu_j)^2}{\sum_i w_i}

    A feature whose variance is zero (to rounding) gets ``scale_ = 1``. ``partial_fit`` streams
    batches and merges their moments with Chan et al.'s pairwise update. Sparse input is accepted
    with ``with_mean=False`` (centring would destroy sparsity).

    Attributes
    ----------
    mean_ : ndarray (d,) or None;  var_ : ndarray (d,) or None;  scale_ : ndarray (d,) or None
    n_samples_seen_ : int (float when weighted)
    """

    _parameter_constraints = {
        "copy": ["boolean"],
        "with_mean": ["boolean"],
        "with_std": ["boolean"],
    }

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray"] if self.with_mean else ["2darray", "sparse"])
        return t

    def _reset(self):
        for name in ("mean_", "var_", "scale_", "n_samples_seen_"):
            if hasattr(self, name):
                delattr(self, name)

    def fit(self, X, y=None, sample_weight=None):
        """Compute μ and σ of X (optionally weighted)."""
        self._reset()
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X, y=None, sample_weight=None):
        """Update μ and σ with one more batch of rows."""
        self._validate_params()
        first = not hasattr(self, "n_samples_seen_")
        X = self._validate_data(X, reset=first, accept_sparse=("csr", "csc"), dtype=np.float64)
        if sp.issparse(X) and self.with_mean:
            raise ValueError(
                "Cannot center sparse matrices: pass `with_mean=False` instead (centring a "
                "sparse matrix would make it dense)."
            )
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X)
        if not (self.with_mean or self.with_std):
            n_b = X.shape[0]  # nothing is estimated, so rows are counted unweighted
            self.mean_ = self.var_ = self.scale_ = None
            self.n_samples_seen_ = n_b if first else self.n_samples_seen_ + n_b
            return self
        mu_b, var_b, W_b = weighted_mean_var(X, w)
        if not self.with_std:
            var_b = None
        if first:
            n, mu, var = W_b, mu_b, var_b
        else:
            n, mu, var = chan_merge(self.n_samples_seen_, self.mean_, self.var_, W_b, mu_b, var_b)
        self.n_samples_seen_, self.mean_, self.var_ = n, mu, var
        if self.with_std:
            self.scale_ = _safe_scale(np.sqrt(var), _is_constant(var, mu, n))
        else:
            self.scale_ = None
        return self

    def transform(self, X, copy=None):
        """z = (x − μ) / σ (centring and scaling as configured)."""
        check_is_fitted(self, "n_samples_seen_")
        copy = self.copy if copy is None else copy
        X_in = X
        X = self._validate_data(X, reset=False, accept_sparse="csr", dtype=np.float64)
        if sp.issparse(X):
            if self.with_mean:
                raise ValueError("Cannot center sparse matrices: pass `with_mean=False`.")
            if copy and X is X_in:
                X = X.copy()
            if self.scale_ is not None:
                X.data /= self.scale_[X.indices]
            return X
        # with copy, the first operation allocates the output (no separate copy pass)
        out = None if copy else X
        if self.with_mean:
            X = np.subtract(X, self.mean_, out=out)
            out = X
        if self.with_std:
            X = np.divide(X, self.scale_, out=out)
        elif out is None:
            X = X.copy()
        return X

    def inverse_transform(self, X, copy=None):
        """x = z σ + μ."""
        check_is_fitted(self, "n_samples_seen_")
        copy = self.copy if copy is None else copy
        X = check_array(X, accept_sparse="csr", dtype=np.float64, copy=copy, estimator=self)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but StandardScaler is expecting "
                f"{self.n_features_in_} features as input."
            )
        if sp.issparse(X):
            if self.with_mean:
                raise ValueError("Cannot uncenter sparse matrices: pass `with_mean=False`.")
            if self.scale_ is not None:
                X.data *= self.scale_[X.indices]
            return X
        if self.with_std:
            X *= self.scale_
        if self.with_mean:
            X += self.mean_
        return X


# -- MinMaxScaler -------------------------------------------------------------------------------
class MinMaxScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    r"""Rescale each feature linearly onto ``feature_range = (a, b)``.

    .. math:: x'_{ij} = (x_{ij} - \min_i x_{ij})\, s_j + a, \qquad
              s_j = \frac{b - a}{\max_i x_{ij} - \min_i x_{ij}}

    ``min_`` holds the offset m_j = a − s_j min_i x_ij of the equivalent form x s + m, as
    scikit-learn does, but the transform subtracts the minimum first: x s and m can both be far
    larger than b − a (a feature whose range is a few units in the last place of its values), and
    their sum then loses every digit of the answer (x = 1000 ± 1 ulp mapped to (−2, 3) gave 0
    and 8). With the minimum subtracted first each training value lands in [a, b] up to a few
    rounding errors of the size of max(|a|, |b|).

    A constant feature (range 0) gets s_j = b − a. With ``clip=True`` transformed values outside
    [a, b] (from data beyond the training range) are clipped.
    """

    _parameter_constraints = {
        "feature_range": [tuple],
        "copy": ["boolean"],
        "clip": ["boolean"],
    }

    def __init__(self, feature_range=(0, 1), *, copy=True, clip=False):
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def _reset(self):
        for name in ("data_min_", "data_max_", "data_range_", "scale_", "min_", "n_samples_seen_"):
            if hasattr(self, name):
                delattr(self, name)

    def fit(self, X, y=None):
        """Record the per-feature minimum and maximum."""
        self._reset()
        return self.partial_fit(X, y)

    def partial_fit(self, X, y=None):
        """Update the running minimum and maximum with one more batch."""
        self._validate_params()
        a, b = self.feature_range if len(self.feature_range) == 2 else (None, None)
        if a is None or not a < b:
            raise ValueError(
                "Minimum of desired feature range must be smaller than maximum. Got "
                f"{self.feature_range!r}."
            )
        first = not hasattr(self, "n_samples_seen_")
        X = self._validate_data(X, reset=first, dtype=np.float64)
        # fmin/fmax reduce with SIMD (NaN was rejected above, so they equal min/max)
        lo, hi = np.fmin.reduce(X, axis=0), np.fmax.reduce(X, axis=0)
        if first:
            self.n_samples_seen_ = X.shape[0]
        else:
            lo = np.minimum(self.data_min_, lo)
            hi = np.maximum(self.data_max_, hi)
            self.n_samples_seen_ += X.shape[0]
        self.data_min_, self.data_max_ = lo, hi
        self.data_range_ = hi - lo
        self.scale_ = (b - a) / _safe_scale(self.data_range_)
        self.min_ = a - lo * self.scale_
        return self

    def transform(self, X):
        """x' = (x − min) s + a (then clipped to the range if ``clip``)."""
        check_is_fitted(self, "scale_")
        X = self._validate_data(X, reset=False, dtype=np.float64)
        # with copy, the difference allocates the output: one pass fewer than copy-then-shift
        X = np.subtract(X, self.data_min_, out=None if self.copy else X)
        X *= self.scale_
        X += self.feature_range[0]
        if self.clip:
            np.clip(X, self.feature_range[0], self.feature_range[1], out=X)
        return X

    def inverse_transform(self, X):
        """x = (x' − a) / s + min."""
        check_is_fitted(self, "scale_")
        X = check_array(X, dtype=np.float64, copy=self.copy, estimator=self)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but MinMaxScaler is expecting "
                f"{self.n_features_in_} features as input."
            )
        X -= self.feature_range[0]
        X /= self.scale_
        X += self.data_min_
        return X


# -- stateless transformers ---------------------------------------------------------------------
def row_norms_of(X, norm: str):
    """‖x_i‖ for every row: l1 = Σ|x|, l2 = √Σx², max = max|x|; dense or CSR."""
    if sp.issparse(X):
        rows = _data_rows(X)
        n = X.shape[0]
        if norm == "l1":
            return np.bincount(rows, weights=np.abs(X.data), minlength=n)
        if norm == "l2":
            return np.sqrt(np.bincount(rows, weights=X.data * X.data, minlength=n))
        out = np.zeros(n)
        np.maximum.at(out, rows, np.abs(X.data))
        return out
    if norm == "l1":
        return np.abs(X).sum(axis=1)
    if norm == "l2":
        return np.sqrt(np.einsum("ij,ij->i", X, X))
    return np.abs(X).max(axis=1)


class Normalizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    r"""Scale every sample to unit norm: x'_i = x_i / ‖x_i‖ (rows of norm 0 are left as they are).

    ``norm`` is "l1" (Σ|x|), "l2" (√Σx²) or "max" (max|x|). Stateless: ``fit`` only records the
    number of features.
    """

    _parameter_constraints = {"norm": [StrOptions({"l1", "l2", "max"})], "copy": ["boolean"]}

    def __init__(self, norm="l2", *, copy=True):
        self.norm = norm
        self.copy = copy

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"], requires_fit=False, stateless=True)
        return t

    def fit(self, X, y=None):
        """Validate X and record ``n_features_in_``; nothing is learned."""
        self._validate_params()
        self._validate_data(X, accept_sparse="csr")
        return self

    def transform(self, X, copy=None):
        """Divide each row by its norm."""
        self._validate_params()
        copy = self.copy if copy is None else copy
        X = self._validate_data(X, reset=False, accept_sparse="csr", dtype=np.float64, copy=copy)
        norms = _safe_scale(row_norms_of(X, self.norm), constant=None)
        if sp.issparse(X):
            X.data /= norms[_data_rows(X)]
            return X
        X /= norms[:, None]
        return X


class Binarizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Threshold features: x' = 1 if x > threshold else 0. Stateless.

    For sparse input only the stored values are thresholded, so ``threshold`` must be ≥ 0
    (otherwise every implicit zero would become 1).
    """

    _parameter_constraints = {
        "threshold": [Interval(numbers.Real, None, None)],
        "copy": ["boolean"],
    }

    def __init__(self, *, threshold=0.0, copy=True):
        self.threshold = threshold
        self.copy = copy

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"], requires_fit=False, stateless=True)
        return t

    def fit(self, X, y=None):
        """Validate X and record ``n_features_in_``; nothing is learned."""
        self._validate_params()
        self._validate_data(X, accept_sparse=("csr", "csc"))
        return self

    def transform(self, X, copy=None):
        """1 where x > threshold, 0 elsewhere, in X's dtype."""
        self._validate_params()
        copy = self.copy if copy is None else copy
        X = self._validate_data(X, reset=False, accept_sparse=("csr", "csc"), copy=copy)
        if sp.issparse(X):
            if self.threshold < 0:
                raise ValueError("Cannot binarize a sparse matrix with threshold < 0.")
            X.data = (X.data > self.threshold).astype(X.dtype)
            X.eliminate_zeros()
            return X
        return (X > self.threshold).astype(X.dtype)
