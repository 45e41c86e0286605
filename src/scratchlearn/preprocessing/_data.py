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

Dask. StandardScaler and MinMaxScaler fit on Dask arrays and DataFrames through the same row
statistics as in memory (:func:`~scratchlearn.utils._blocks.block_reduce`): per row block
(W, μ, σ²) merged by Chan et al.'s update, or (min, max, n) merged by min and max. Their
``transform`` and ``inverse_transform`` map the same per-row formulas over the blocks lazily.
"""

from __future__ import annotations

import numbers
from functools import partial

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from ..utils._blocks import block_reduce
from ..utils._dask import check_dask_data, checked_block, dask_rows, is_dask_collection, map_rows
from ..utils._dask_predict import answers_dask
from ..utils._moments import Moments, merge_moments
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import (
    _assert_all_finite,
    check_array,
    check_is_fitted,
    check_sample_weight,
)

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


#: Values of X from which the scalers (and k-means's centring, through
#: :func:`weighted_mean_var`) take their compiled passes (:mod:`._scale_kernels`): the first call
#: in a process imports Numba and loads the kernels (about 0.3 s, 0.5–0.9 s more the first time
#: on a machine, when they compile), which the passes repay only on large arrays (at 2²⁰ values
#: they save about 7 ms a fit). Both paths give the same numbers.
COMPILED_MIN_VALUES = 1 << 20


def _compiled_rows(X):
    """Whether the scalers read X with the compiled passes of :mod:`._scale_kernels`: a
    C-ordered float64 ndarray of at least :data:`COMPILED_MIN_VALUES` values and two columns.
    (NumPy reduces a single column, a contiguous axis, by pairwise summation, which the
    compiled row-after-row sums would not reproduce.)"""
    return (
        isinstance(X, np.ndarray)
        and X.dtype == np.float64
        and X.ndim == 2
        and X.flags.c_contiguous
        and X.shape[0] > 0
        and X.shape[1] > 1
        and X.size >= COMPILED_MIN_VALUES
    )


def weighted_mean_var(X, w):
    """Two-pass weighted moments of each column.

    μ_j = Σ_i w_i x_ij / W,   σ²_j = Σ_i w_i (x_ij − μ_j)² / W,   W = Σ_i w_i.

    X may be dense or CSR/CSC; for a sparse X the implicit zeros contribute
    (W − Σ_{stored} w_i) μ_j² to the sum of squares. Returns (μ, σ², W).

    This is StandardScaler's row statistic: the whole fit in memory, one row block's share on
    Dask (a block of weight W = 0, e.g. empty, gives zeros, which :func:`merge_mean_var` skips).
    """
    if w is None:
        W = X.shape[0]
        if sp.issparse(X):
            w = np.ones(W)
    else:
        W = float(np.sum(w))
    if W == 0:
        return np.zeros(X.shape[1]), np.zeros(X.shape[1]), W
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
    if w is None and _compiled_rows(X):
        from ._scale_kernels import moments_pass  # the same μ, σ² without the (n, d) temporary

        mu, var = np.empty(X.shape[1]), np.empty(X.shape[1])
        moments_pass(X, mu, var)
        return mu, var, W
    if w is None:
        mu = X.mean(axis=0)
        centred = X - mu  # (n, d)
        np.square(centred, out=centred)
        return mu, centred.mean(axis=0), W
    mu = (w @ X) / W
    centred = X - mu
    np.square(centred, out=centred)
    return mu, (w @ centred) / W, W


def merge_mean_var(a, b):
    """(μ, σ², W) of two disjoint batches: Chan's merge
    (:func:`~scratchlearn.utils._moments.merge_moments`) of their moments, with M2 = W·σ²,

    W = W_a + W_b,  δ = μ_b − μ_a,  μ = μ_a + δ W_b / W,
    σ² = (W_a σ²_a + W_b σ²_b + δ² W_a W_b / W) / W.

    A side of weight 0 is returned as the other one; ``σ²`` may be None on both sides (nothing
    but μ is wanted). The one combine of StandardScaler: of row blocks on Dask, of the state and
    a new batch in ``partial_fit``.
    """
    (mu_a, var_a, n_a), (mu_b, var_b, n_b) = a, b
    if n_b == 0:
        return a
    if n_a == 0:
        return b
    if var_a is None:
        merged = merge_moments(Moments(n_a, mu_a, None), Moments(n_b, mu_b, None))
        return merged.mean, None, merged.weight
    merged = merge_moments(Moments(n_a, mu_a, var_a * n_a), Moments(n_b, mu_b, var_b * n_b))
    return merged.mean, merged.m2 / merged.weight, merged.weight


def column_range(X):
    """(min_i x_ij, max_i x_ij, n) of each column: MinMaxScaler's row statistic (the whole fit
    in memory, one block's share on Dask; an empty block gives (+inf, −inf, 0))."""
    if X.shape[0] == 0:
        return np.full(X.shape[1], np.inf), np.full(X.shape[1], -np.inf), 0
    # the min and max of a column are finite exactly when all of its values are, so the fit
    # needs no separate finiteness pass over X
    if _compiled_rows(X):
        from ._scale_kernels import range_pass  # one pass instead of two (Numba: imported late)

        lo, hi, z = (np.empty(X.shape[1]) for _ in range(3))
        range_pass(X, lo, hi, z)
        bad = np.isnan(z)  # a column with a NaN or ±inf
        lo[bad] = hi[bad] = np.nan
        return lo, hi, X.shape[0]
    # minimum and maximum propagate NaN
    return np.minimum.reduce(X, axis=0), np.maximum.reduce(X, axis=0), X.shape[0]


def merge_ranges(a, b):
    """(min, max, n) of two disjoint batches: elementwise min and max, exact in any order."""
    return np.minimum(a[0], b[0]), np.maximum(a[1], b[1]), a[2] + b[2]


def _fused(X, mean, scale, out):
    """Whether :func:`standardise` or :func:`min_max_scale` maps X in one compiled pass:
    :func:`_compiled_rows`, something to do, and an ``out`` that is new or a writable X (a
    read-only one keeps NumPy's error)."""
    writable = out is None or (out is X and X.flags.writeable)
    return _compiled_rows(X) and writable and not (mean is None and scale is None)


def _refuse_unless_finite(z, X):
    """Validation's error for X when the pass's z (Σ x·0 per column) says X is not finite."""
    if np.isnan(z).any():
        _assert_all_finite(X, allow_nan=False, input_name="X")


def standardise(X, mean, scale, out=None):
    """z = (x − μ) / σ, skipping μ or σ when None; ``out`` may be X (in place). A C-ordered
    float64 X is mapped in one compiled pass (:func:`._scale_kernels.standardise_pass`, the
    same bits), which also tests X for NaN and infinity when ``out`` is None (a new array)."""
    if _fused(X, mean, scale, out):
        from ._scale_kernels import standardise_pass  # Numba: imported when first needed

        new = out is None
        out = np.empty_like(X) if new else out
        d, z = X.shape[1], np.empty(X.shape[1])
        mu = np.zeros(d) if mean is None else np.ascontiguousarray(mean, dtype=np.float64)
        sigma = np.ones(d) if scale is None else np.ascontiguousarray(scale, dtype=np.float64)
        standardise_pass(X, mu, sigma, mean is not None, scale is not None, out, z)
        if new:
            _refuse_unless_finite(z, X)
        return out
    if mean is not None:
        X = np.subtract(X, mean, out=out)
        out = X
    if scale is not None:
        X = np.divide(X, scale, out=out)
    elif out is None:
        X = X.copy()
    return X


def unstandardise(X, mean, scale, out=None):
    """x = z σ + μ, skipping σ or μ when None; ``out`` may be X (in place)."""
    if scale is not None:
        X = np.multiply(X, scale, out=out)
    elif out is None:
        X = X.copy()
    if mean is not None:
        X += mean
    return X


def min_max_scale(X, data_min, scale, a, clip_to=None, out=None):
    """x' = (x − min) s + a, then clipped to ``clip_to = (a, b)`` if given. Not x s + m with
    m = a − min·s, which saves a pass but loses the range to cancellation when the range is
    small against the values (see test_min_max_output_in_range). A C-ordered float64 X is
    mapped in one compiled pass (:func:`._scale_kernels.scale_pass`, the same bits), which also
    tests X for NaN and infinity when ``out`` is None (a new array)."""
    if _fused(X, data_min, scale, out):
        from ._scale_kernels import scale_pass  # Numba: imported when first needed

        new = out is None
        out = np.empty_like(X) if new else out
        lo, hi = (0.0, 0.0) if clip_to is None else (float(clip_to[0]), float(clip_to[1]))
        m = np.ascontiguousarray(data_min, dtype=np.float64)
        s = np.ascontiguousarray(scale, dtype=np.float64)
        z = np.empty(X.shape[1])
        scale_pass(X, m, s, float(a), lo, hi, clip_to is not None, out, z)
        if new:
            _refuse_unless_finite(z, X)
        return out
    X = np.subtract(X, data_min, out=out)
    X *= scale
    X += a
    if clip_to is not None:
        np.clip(X, clip_to[0], clip_to[1], out=X)
    return X


def min_max_unscale(X, data_min, scale, a, out=None):
    """x = (x' − a) / s + min; ``out`` may be X (in place)."""
    X = np.subtract(X, a, out=out)
    X /= scale
    X += data_min
    return X


def _dask_inverse_input(est, X):
    """A Dask X for inverse_transform: d columns, finite (checked per block), float64."""
    (X,) = dask_rows(X)
    if X.ndim != 2 or X.shape[1] != est.n_features_in_:
        raise ValueError(
            f"X has {X.shape[1] if X.ndim == 2 else X.ndim} features, but {type(est).__name__} "
            f"is expecting {est.n_features_in_} features as input."
        )
    return X.astype(np.float64).map_blocks(checked_block, "X", False, dtype=np.float64)


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

    Dask: X may be a Dask array or DataFrame (``sample_weight`` NumPy or Dask). Each row block
    gives (μ_b, σ²_b, W_b) by :func:`weighted_mean_var`, where it lives; the blocks' triples
    are tree-merged by :func:`merge_mean_var` (Chan et al.), so one pass moves 2d + 1 floats per
    block, whatever the number of rows. ``partial_fit`` merges the state with a batch by the
    same function. ``transform`` / ``inverse_transform`` of a Dask array return a lazy Dask
    array; the fitted attributes are NumPy arrays.

    Attributes
    ----------
    mean_, var_, scale_ : ndarray (d,) or None
    n_samples_seen_ : int (float when weighted)

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.preprocessing import StandardScaler
    >>> X, y = load_iris(return_X_y=True)
    >>> scaler = StandardScaler().fit(X)
    >>> print(np.round(scaler.mean_, 3))
    [5.843 3.057 3.758 1.199]
    >>> print(np.round(scaler.transform(X).std(axis=0), 3))
    [1. 1. 1. 1.]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "n_samples_seen_": ("int", None),
        "mean_": ("float64", ("n_features_in_",), "optional"),
        "var_": ("float64", ("n_features_in_",), "optional"),
        "scale_": ("float64", ("n_features_in_",), "optional"),
    }

    _parameter_constraints = {
        "copy": ["boolean"],
        "with_mean": ["boolean"],
        "with_std": ["boolean"],
    }

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

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
        if is_dask_collection(X):
            X, _, w = check_dask_data(self, X, None, sample_weight, reset=first)
        else:
            # finiteness is read off μ and σ² where the compiled pass computes them (a column's
            # sums are finite only if all of its values are): one pass over X fewer
            told = sample_weight is None and (self.with_mean or self.with_std)
            X = self._validate_data(
                X,
                reset=first,
                accept_sparse=("csr", "csc"),
                dtype=np.float64,
                ensure_all_finite=not told,
            )
            if told and not _compiled_rows(X):
                check_array(X, accept_sparse=("csr", "csc"), estimator=self)
            if sp.issparse(X) and self.with_mean:
                raise ValueError(
                    "Cannot center sparse matrices: pass `with_mean=False` instead (centring a "
                    "sparse matrix would make it dense)."
                )
            w = None if sample_weight is None else check_sample_weight(sample_weight, X)
        if not (self.with_mean or self.with_std):
            n_b = X.shape[0]  # nothing is estimated, so rows are counted unweighted
            self.mean_ = self.var_ = self.scale_ = None
            self.n_samples_seen_ = n_b if first else self.n_samples_seen_ + n_b
            return self
        mu_b, var_b, W_b = block_reduce(weighted_mean_var, X, w, combine=merge_mean_var)
        if not (is_dask_collection(X) or (np.isfinite(mu_b).all() and np.isfinite(var_b).all())):
            check_array(X, accept_sparse=("csr", "csc"), estimator=self)  # names the column
        if W_b == 0:  # only reachable on Dask: in memory the weights were checked at once
            raise ValueError("The sample weights sum to zero: there is nothing to average.")
        batch = (mu_b, var_b if self.with_std else None, W_b)
        if first:
            mu, var, n = batch
        else:
            mu, var, n = merge_mean_var((self.mean_, self.var_, self.n_samples_seen_), batch)
        self.n_samples_seen_, self.mean_, self.var_ = n, mu, var
        if self.with_std:
            self.scale_ = _safe_scale(np.sqrt(var), _is_constant(var, mu, n))
        else:
            self.scale_ = None
        return self

    @answers_dask  # its blocks get μ, σ alone; copy=False must not write into a block
    def transform(self, X, copy=None):
        """z = (x − μ) / σ (centring and scaling as configured)."""
        check_is_fitted(self, "n_samples_seen_")
        if is_dask_collection(X):
            X, _, _ = check_dask_data(self, X, reset=False)
            return map_rows(partial(standardise, **self._kwargs()), X, n_out=X.shape[1])
        copy = self.copy if copy is None else copy
        X_in = X
        X = self._validate_data(
            X, reset=False, accept_sparse="csr", dtype=np.float64, ensure_all_finite=False
        )
        kw = self._kwargs()
        if copy and _fused(X, kw["mean"], kw["scale"], None):
            return standardise(X, **kw)  # tests X for NaN and infinity in its pass
        _assert_all_finite(X.data if sp.issparse(X) else X, allow_nan=False, input_name="X")
        if sp.issparse(X):
            if self.with_mean:
                raise ValueError("Cannot center sparse matrices: pass `with_mean=False`.")
            if copy and X is X_in:
                X = X.copy()
            if self.scale_ is not None:
                X.data /= self.scale_[X.indices]
            return X
        # with copy, the first operation allocates the output (no separate copy pass)
        return standardise(X, **self._kwargs(), out=None if copy else X)

    def _kwargs(self):
        return {
            "mean": self.mean_ if self.with_mean else None,
            "scale": self.scale_ if self.with_std else None,
        }

    def inverse_transform(self, X, copy=None):
        """x = z σ + μ."""
        check_is_fitted(self, "n_samples_seen_")
        if is_dask_collection(X):
            X = _dask_inverse_input(self, X)
            return map_rows(partial(unstandardise, **self._kwargs()), X, n_out=X.shape[1])
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
        return unstandardise(X, **self._kwargs(), out=X)  # X is ours to modify (copy)

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray"] if self.with_mean else ["2darray", "sparse"], dask=True)
        return t


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
    rounding errors of the size of ``max(|a|, |b|)``.

    A constant feature (range 0) gets s_j = b − a. With ``clip=True`` transformed values outside
    [a, b] (from data beyond the training range) are clipped.

    Dask: X may be a Dask array or DataFrame. Each row block gives its column minima and maxima
    (:func:`column_range`), merged by elementwise min and max (:func:`merge_ranges`): exact in
    any order, 2d + 1 numbers per block. ``transform`` / ``inverse_transform`` of a Dask array
    return a lazy Dask array.

    Examples
    --------
    >>> from scratchlearn.preprocessing import MinMaxScaler
    >>> X = [[1.0, -1.0], [2.0, 0.0], [3.0, 3.0]]
    >>> scaler = MinMaxScaler().fit(X)
    >>> print(scaler.data_min_, scaler.data_max_)
    [ 1. -1.] [3. 3.]
    >>> print(scaler.transform(X))
    [[0.   0.  ]
     [0.5  0.25]
     [1.   1.  ]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "n_samples_seen_": ("int", None),
        **{
            name: ("float64", ("n_features_in_",))
            for name in ("data_min_", "data_max_", "data_range_", "scale_", "min_")
        },
    }

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
        if is_dask_collection(X):
            X, _, _ = check_dask_data(self, X, reset=first)
        else:  # finiteness is read off the column ranges: two passes over X instead of three
            X = self._validate_data(X, reset=first, dtype=np.float64, ensure_all_finite=False)
        batch = block_reduce(column_range, X, combine=merge_ranges)
        if not (np.isfinite(batch[0]).all() and np.isfinite(batch[1]).all()):
            check_array(X, estimator=self)  # raises the usual error, naming the column
        if not first:
            batch = merge_ranges((self.data_min_, self.data_max_, self.n_samples_seen_), batch)
        lo, hi, self.n_samples_seen_ = batch
        self.data_min_, self.data_max_ = lo, hi
        self.data_range_ = hi - lo
        self.scale_ = (b - a) / _safe_scale(self.data_range_)
        self.min_ = a - lo * self.scale_
        return self

    def _kwargs(self):
        return {"data_min": self.data_min_, "scale": self.scale_, "a": self.feature_range[0]}

    @answers_dask
    def transform(self, X):
        """x' = (x − min) s + a (then clipped to the range if ``clip``)."""
        check_is_fitted(self, "scale_")
        clip_to = self.feature_range if self.clip else None
        if is_dask_collection(X):
            X, _, _ = check_dask_data(self, X, reset=False)
            fn = partial(min_max_scale, **self._kwargs(), clip_to=clip_to)
            return map_rows(fn, X, n_out=X.shape[1])
        X = self._validate_data(X, reset=False, dtype=np.float64, ensure_all_finite=False)
        kw = self._kwargs()
        if not (self.copy and _fused(X, kw["data_min"], kw["scale"], None)):
            _assert_all_finite(X, allow_nan=False, input_name="X")  # else tested in the pass
        # with copy, the difference allocates the output: one pass fewer than copy-then-shift
        return min_max_scale(X, **kw, clip_to=clip_to, out=None if self.copy else X)

    def inverse_transform(self, X):
        """x = (x' − a) / s + min."""
        check_is_fitted(self, "scale_")
        if is_dask_collection(X):
            X = _dask_inverse_input(self, X)
            return map_rows(partial(min_max_unscale, **self._kwargs()), X, n_out=X.shape[1])
        X = check_array(X, dtype=np.float64, copy=self.copy, estimator=self)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but MinMaxScaler is expecting "
                f"{self.n_features_in_} features as input."
            )
        return min_max_unscale(X, **self._kwargs(), out=X)  # X is ours to modify (copy)

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(dask=True)
        return t


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

    Examples
    --------
    >>> from scratchlearn.preprocessing import Normalizer
    >>> X = [[3.0, 4.0], [1.0, -1.0], [0.0, 0.0]]
    >>> print(Normalizer(norm="l2").fit_transform(X).round(3))
    [[ 0.6    0.8  ]
     [ 0.707 -0.707]
     [ 0.     0.   ]]
    >>> print(Normalizer(norm="l1").fit_transform(X).round(3))
    [[ 0.429  0.571]
     [ 0.5   -0.5  ]
     [ 0.     0.   ]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_features_in_": ("int", ())}

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

    Examples
    --------
    >>> from scratchlearn.preprocessing import Binarizer
    >>> X = [[0.5, -1.0, 2.0], [0.0, 3.0, 0.1]]
    >>> print(Binarizer(threshold=0.2).fit_transform(X))
    [[1. 0. 1.]
     [0. 1. 0.]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_features_in_": ("int", ())}

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
