"""Distances and kernels between the rows of two matrices.

Symbols: ``X`` of shape (n, d), ``Y`` of shape (m, d) (``Y=None`` means ``Y = X``); a distance
matrix ``D`` and a kernel (Gram) matrix ``K`` are both (n, m) with entry (i, j) for the pair
(xᵢ, yⱼ). ``γ`` (gamma) defaults to ``1/d`` for every kernel that has one, as scikit-learn.

=========================  ============================================  =====================
name                       entry (i, j)                                  computed by
=========================  ============================================  =====================
euclidean                  ‖x − y‖ = √(‖x‖² − 2x·y + ‖y‖²)               one matrix product
manhattan (cityblock, l1)  Σₖ|xₖ − yₖ|                                    compiled loop
chebyshev                  maxₖ|xₖ − yₖ|                                  compiled loop
minkowski(p)               (Σₖ|xₖ − yₖ|ᵖ)^(1/p)                           compiled loop
hamming                    (1/d)·#{k : xₖ ≠ yₖ}                           compiled loop
cosine                     1 − x·y/(‖x‖‖y‖)                               one matrix product
linear kernel              x·y                                            one matrix product
polynomial kernel          (γ x·y + c₀)^degree                            one matrix product
RBF kernel                 exp(−γ‖x − y‖²)                                one matrix product
sigmoid kernel             tanh(γ x·y + c₀)                               one matrix product
=========================  ============================================  =====================

Hamming follows scikit-learn and SciPy: the *fraction* of coordinates that differ. The
bit-count form used in the lecture notes (the number of differing coordinates) is ``d`` times
this value.

The expansion ``‖x‖² − 2x·y + ‖y‖²`` cancels: it loses about ``log₁₀(‖x‖²/‖x − y‖²)`` digits,
so rows far from the origin compared with their distance (un-centred data) come out with few
correct digits, or as 0 (``[1e8, 1]`` and ``[1e8, 1.0001]``), and near-identical rows can come
out slightly negative. Negatives are clipped to 0 and, when ``Y`` is None, the diagonal is set to
exactly 0. Centre the data first, or use ``metric="minkowski", p=2`` (coordinate differences,
no cancellation) when such distances matter.

Sparse CSR input is accepted by the matrix-product metrics (euclidean, cosine and the kernels).
"""

from __future__ import annotations

import inspect
import numbers

import numpy as np
import scipy.sparse as sp

from ..utils.extmath import row_norms, safe_sparse_dot
from ..utils.validation import check_array
from ._pairwise_kernels import (
    HAMMING,
    L1,
    LINF,
    LP,
    block_rows,
    check_pairwise_arrays,
    coordinate_distances,
    reject_sparse,
)

__all__ = [
    "check_pairwise_arrays",
    "euclidean_distances",
    "manhattan_distances",
    "chebyshev_distances",
    "minkowski_distances",
    "hamming_distances",
    "cosine_similarity",
    "cosine_distances",
    "pairwise_distances",
    "pairwise_distances_chunked",
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
    "pairwise_kernels",
    "PAIRWISE_DISTANCE_FUNCTIONS",
    "PAIRWISE_KERNEL_FUNCTIONS",
]


def _dense(A):
    return A.toarray() if sp.issparse(A) else np.asarray(A)


def _squared_norms(A, given, name):
    if given is None:
        return row_norms(A, squared=True).astype(np.float64, copy=False)
    sq = np.asarray(given, dtype=np.float64).reshape(-1)
    if sq.shape[0] != A.shape[0]:
        raise ValueError(f"{name} has {sq.shape[0]} entries, but there are {A.shape[0]} rows.")
    return sq


def _inner_products(X, Y, scale=1.0):
    """scale · X Yᵀ as a dense float64 (n, m) array; the scale multiplies X (n·d values)
    rather than the (n, m) result."""
    X64 = X.astype(np.float64, copy=False)
    Y64 = Y.astype(np.float64, copy=False)
    if scale != 1.0:
        X64 = X64 * scale
    return _dense(safe_sparse_dot(X64, Y64.T))


def _scaled_squared_distances(X, Y, XX, YY, s=1.0):
    r"""s·‖xᵢ − yⱼ‖² for every pair, unclipped, as a dense float64 (n, m) array.

    Dense input uses one product of augmented matrices, so the norms are added by the BLAS call
    rather than by two extra passes over the (n, m) result:

    .. math:: [−2s\,x,\; s‖x‖²,\; s] · [y,\; 1,\; ‖y‖²] = s(‖x‖² − 2x·y + ‖y‖²)
    """
    if sp.issparse(X) or sp.issparse(Y):
        D = _inner_products(X, Y, scale=-2.0 * s)  # (n, m) = −2s X Yᵀ
        D += (s * XX)[:, None]
        D += (s * YY)[None, :]
        return D
    if Y is X:
        # X Xᵀ is computed symmetric (BLAS syrk, half the work); adding the symmetric outer sum
        # of the norms keeps D exactly symmetric.
        X64 = X.astype(np.float64, copy=False)
        D = X64 @ X64.T  # (n, n)
        D *= -2.0 * s
        D += np.add.outer(s * XX, s * XX)
        return D
    n, d = X.shape
    A = np.empty((n, d + 2))  # (n, d + 2)
    np.multiply(X, -2.0 * s, out=A[:, :d])
    A[:, d] = s * XX
    A[:, d + 1] = s
    m = Y.shape[0]
    B = np.empty((m, d + 2))  # (m, d + 2)
    B[:, :d] = Y
    B[:, d] = 1.0
    B[:, d + 1] = YY
    return A @ B.T


def euclidean_distances(X, Y=None, *, Y_norm_squared=None, squared=False, X_norm_squared=None):
    r"""Euclidean distances ``D[i, j] = ‖xᵢ − yⱼ‖`` (or their squares with ``squared=True``).

    .. math:: ‖x − y‖² = ‖x‖² − 2\,x·y + ‖y‖²

    computed with one matrix product. Negative round-off is clipped to 0 and the diagonal is
    exactly 0 when ``Y`` is None. Precomputed squared row norms may be passed to save work.
    """
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=True)
    same = Y is X
    out_dtype = X.dtype
    XX = _squared_norms(X, X_norm_squared, "X_norm_squared")
    YY = (
        XX
        if same and Y_norm_squared is None
        else _squared_norms(Y, Y_norm_squared, "Y_norm_squared")
    )
    D = _scaled_squared_distances(X, Y, XX, YY)  # (n, m)
    np.maximum(D, 0.0, out=D)
    if same:
        np.fill_diagonal(D, 0.0)
    if not squared:
        np.sqrt(D, out=D)
    return D.astype(out_dtype, copy=False)


def _coordinate(X, Y, code, p, name):
    reject_sparse(X, Y, name)
    X, Y = check_pairwise_arrays(X, Y)
    return coordinate_distances(X, Y, code, p)


def manhattan_distances(X, Y=None):
    """Manhattan (city-block, L1) distances ``D[i, j] = Σₖ|xᵢₖ − yⱼₖ|``."""
    return _coordinate(X, Y, L1, 1.0, "manhattan")


def chebyshev_distances(X, Y=None):
    """Chebyshev (L∞) distances ``D[i, j] = maxₖ|xᵢₖ − yⱼₖ|``."""
    return _coordinate(X, Y, LINF, 1.0, "chebyshev")


def minkowski_distances(X, Y=None, p=2):
    """Minkowski distances ``D[i, j] = (Σₖ|xᵢₖ − yⱼₖ|ᵖ)^(1/p)`` for ``p ≥ 1``.

    ``p=1`` is Manhattan, ``p=2`` Euclidean (computed coordinate-wise here, without the
    cancellation of the matrix-product form) and ``p=inf`` Chebyshev.
    """
    if not isinstance(p, numbers.Real) or isinstance(p, bool) or np.isnan(p) or p < 1:
        raise ValueError(f"Minkowski distance needs a real p >= 1; got p={p!r}.")
    if np.isinf(p):
        return chebyshev_distances(X, Y)
    if p == 1:
        return manhattan_distances(X, Y)
    return _coordinate(X, Y, LP, float(p), "minkowski")


def hamming_distances(X, Y=None):
    """Hamming distances: the fraction of coordinates that differ, ``#{k : xₖ ≠ yₖ}/d``.

    This is scikit-learn's and SciPy's convention; the count of differing coordinates (the
    form in the lecture notes) is ``d`` times this value.
    """
    return _coordinate(X, Y, HAMMING, 1.0, "hamming")


def _normalize_rows(A):
    """Rows scaled to unit Euclidean norm; all-zero rows stay zero."""
    norms = row_norms(A).astype(np.float64, copy=False)
    norms[norms == 0.0] = 1.0
    if sp.issparse(A):
        return sp.csr_matrix(sp.diags(1.0 / norms) @ A.astype(np.float64))
    return A.astype(np.float64, copy=False) / norms[:, None]


def cosine_similarity(X, Y=None, dense_output=True):
    """Cosine similarities ``K[i, j] = xᵢ·yⱼ/(‖xᵢ‖‖yⱼ‖)``; an all-zero row has similarity 0
    with everything. With two sparse inputs and ``dense_output=False`` the result is sparse."""
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=True)
    Xn = _normalize_rows(X)
    Yn = Xn if Y is X else _normalize_rows(Y)
    K = Xn @ Yn.T
    if dense_output or not sp.issparse(K):
        K = _dense(K)
    return K


def cosine_distances(X, Y=None):
    """Cosine distances ``D[i, j] = 1 − xᵢ·yⱼ/(‖xᵢ‖‖yⱼ‖)``, clipped to [0, 2]; the diagonal is
    exactly 0 when ``Y`` is None."""
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=True)
    S = cosine_similarity(X, Y)
    np.subtract(1.0, S, out=S)
    np.clip(S, 0.0, 2.0, out=S)
    if Y is X:
        np.fill_diagonal(S, 0.0)
    return S


# --- kernels -------------------------------------------------------------------------------


def _gamma(gamma, X):
    """γ, defaulting to 1/d. A negative γ is refused: for RBF it would turn the clipped
    exponent −γ‖x − y‖² into a matrix of ones, a silent wrong answer."""
    if gamma is None:
        return 1.0 / X.shape[1]
    if not isinstance(gamma, numbers.Real) or isinstance(gamma, bool) or not gamma >= 0:
        raise ValueError(f"gamma must be a real number >= 0 or None; got {gamma!r}.")
    return float(gamma)


def linear_kernel(X, Y=None, dense_output=True):
    """Linear kernel ``K = X Yᵀ``."""
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=True)
    K = safe_sparse_dot(X, Y.T)
    return _dense(K) if dense_output else K


def _affine_inner_products(X, Y, g, c0):
    """γ X Yᵀ + c₀ as a dense float64 (n, m) array; for dense input c₀ rides in the product
    (``[γx, c₀]·[y, 1]``) instead of costing a pass over the result."""
    if sp.issparse(X) or sp.issparse(Y):
        K = _inner_products(X, Y, scale=g)
        K += c0
        return K
    n, d = X.shape
    A = np.empty((n, d + 1))  # (n, d + 1)
    np.multiply(X, g, out=A[:, :d])
    A[:, d] = c0
    B = np.empty((Y.shape[0], d + 1))  # (m, d + 1)
    B[:, :d] = Y
    B[:, d] = 1.0
    return A @ B.T


def _power_inplace(K, degree):
    """K ** degree, overwriting K. Whole degrees up to 16 use repeated squaring: a few
    multiplications cost far less than the general ``pow`` of every entry."""
    if not (float(degree).is_integer() and 1 <= degree <= 16):
        K **= degree
        return K
    e, base, result = int(degree), K, None
    while True:
        if e & 1:
            if e == 1:  # last factor: no copy needed
                return base if result is None else np.multiply(result, base, out=result)
            result = base.copy() if result is None else np.multiply(result, base, out=result)
        e >>= 1
        np.multiply(base, base, out=base)


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1):
    """Polynomial kernel ``K = (γ X Yᵀ + c₀)^degree``."""
    if not isinstance(degree, numbers.Real) or isinstance(degree, bool) or not degree >= 1:
        raise ValueError(f"degree must be a real number >= 1; got {degree!r}.")
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=True)
    K = _affine_inner_products(X, Y, _gamma(gamma, X), float(coef0))  # (n, m)
    return _power_inplace(K, degree)


def rbf_kernel(X, Y=None, gamma=None):
    """Gaussian (RBF) kernel ``K = exp(−γ‖x − y‖²)``.

    The exponent ``−γ(‖x‖² − 2x·y + ‖y‖²)`` is formed by one matrix product; it is clipped
    at 0 (a squared distance is never negative) and the diagonal is exactly 1 when ``Y`` is None.
    """
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=True)
    g = _gamma(gamma, X)
    XX = _squared_norms(X, None, "")
    YY = XX if Y is X else _squared_norms(Y, None, "")
    E = _scaled_squared_distances(X, Y, XX, YY, -g)  # (n, m) = −γ‖x − y‖²
    np.minimum(E, 0.0, out=E)
    if Y is X:
        np.fill_diagonal(E, 0.0)
    np.exp(E, out=E)
    return E


def sigmoid_kernel(X, Y=None, gamma=None, coef0=1):
    """Sigmoid (hyperbolic tangent) kernel ``K = tanh(γ X Yᵀ + c₀)``."""
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=True)
    K = _affine_inner_products(X, Y, _gamma(gamma, X), float(coef0))  # (n, m)
    np.tanh(K, out=K)
    return K


# --- dispatchers ---------------------------------------------------------------------------


def _sqeuclidean(X, Y=None):
    return euclidean_distances(X, Y, squared=True)


PAIRWISE_DISTANCE_FUNCTIONS = {
    "euclidean": euclidean_distances,
    "l2": euclidean_distances,
    "sqeuclidean": _sqeuclidean,
    "manhattan": manhattan_distances,
    "cityblock": manhattan_distances,
    "l1": manhattan_distances,
    "chebyshev": chebyshev_distances,
    "minkowski": minkowski_distances,
    "hamming": hamming_distances,
    "cosine": cosine_distances,
}

PAIRWISE_KERNEL_FUNCTIONS = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "polynomial": polynomial_kernel,
    "rbf": rbf_kernel,
    "sigmoid": sigmoid_kernel,
    "cosine": cosine_similarity,
}


def _check_precomputed(X, Y):
    D = check_array(Y if Y is not None else X, accept_sparse=False, input_name="X")
    if Y is not None:
        X = check_array(X, input_name="X")
        if D.shape[1] != X.shape[0]:
            raise ValueError(
                f"Precomputed matrix must be (n_queries, n_indexed): got shape {D.shape}, but "
                f"{X.shape[0]} indexed samples."
            )
    return D


def _callable_matrix(X, Y, func, kwds, ensure_all_finite=True):
    """Apply a user function ``func(x, y, **kwds) -> float`` to every pair of rows."""
    X, Y = check_pairwise_arrays(X, Y, ensure_all_finite=ensure_all_finite)
    same = Y is X
    Xd, Yd = _dense(X), _dense(Y)
    n, m = Xd.shape[0], Yd.shape[0]
    out = np.empty((n, m))
    for i in range(n):
        start = i if same else 0
        for j in range(start, m):
            out[i, j] = func(Xd[i], Yd[j], **kwds)
            if same:
                out[j, i] = out[i, j]
    return out


def _unknown(metric, table):
    valid = sorted(table) + ["precomputed", "a callable"]
    return ValueError(f"Unknown metric {metric!r}. Valid metrics are: {', '.join(valid)}.")


def pairwise_distances(
    X, Y=None, metric="euclidean", *, n_jobs=None, ensure_all_finite=True, **kwds
):
    """Distance matrix between the rows of ``X`` and ``Y`` (or of ``X`` with itself).

    ``metric`` is one of :data:`PAIRWISE_DISTANCE_FUNCTIONS`, "precomputed" (``X`` is already a
    distance matrix and is returned validated) or a callable ``f(x, y, **kwds) -> float``
    applied to every pair of rows. Extra keywords (e.g. ``p`` for "minkowski") go to the metric.
    ``n_jobs`` is accepted for compatibility; the compiled loops already use every core.
    """
    if metric == "precomputed":
        D = _check_precomputed(X, Y)
        if D.size and D.min() < 0:  # D is finite; min allocates nothing, unlike D < 0
            raise ValueError("Negative values in data passed to precomputed distances.")
        return D
    if callable(metric):
        return _callable_matrix(X, Y, metric, kwds, ensure_all_finite)
    if not isinstance(metric, str) or metric not in PAIRWISE_DISTANCE_FUNCTIONS:
        raise _unknown(metric, PAIRWISE_DISTANCE_FUNCTIONS)
    return PAIRWISE_DISTANCE_FUNCTIONS[metric](X, Y, **kwds)


def pairwise_distances_chunked(
    X, Y=None, *, reduce_func=None, metric="euclidean", n_jobs=None, working_memory=None, **kwds
):
    """Yield the distance matrix in blocks of rows, each under ``working_memory`` MiB (by
    default the library-wide setting ``scratchlearn.get_config()["working_memory"]``, 64 MiB
    unless changed), optionally reduced by ``reduce_func(D_block, start)``.

    Used where only a summary of each row of ``D`` is needed (silhouette, nearest neighbours),
    so the full (n, m) matrix never exists at once.
    """
    if metric == "precomputed":
        X, Y = check_array(X, input_name="X"), None
    else:
        X, Y_checked = check_pairwise_arrays(X, Y, accept_sparse=True)
        Y = None if Y_checked is X else Y_checked
    n = X.shape[0]
    m = n if Y is None else Y.shape[0]
    rows = block_rows(m, working_memory)
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        if metric == "precomputed":
            D = X[start:stop]
        else:
            D = pairwise_distances(X[start:stop], X if Y is None else Y, metric=metric, **kwds)
            if Y is None and metric in ("euclidean", "l2", "sqeuclidean", "cosine"):
                # The block is not recognised as "X with itself": zero its slice of the diagonal.
                idx = np.arange(start, stop)
                D[idx - start, idx] = 0.0
        if reduce_func is not None:
            D = reduce_func(D, start)
        yield D


def pairwise_kernels(X, Y=None, metric="linear", *, filter_params=False, n_jobs=None, **kwds):
    """Kernel matrix between the rows of ``X`` and ``Y``.

    ``metric`` is one of :data:`PAIRWISE_KERNEL_FUNCTIONS`, "precomputed" or a callable
    ``k(x, y, **kwds) -> float``. With ``filter_params=True`` keywords the chosen kernel does not
    take (e.g. ``degree`` for "rbf") are dropped instead of raising.
    """
    if metric == "precomputed":
        return _check_precomputed(X, Y)
    if callable(metric):
        return _callable_matrix(X, Y, metric, kwds)
    if not isinstance(metric, str) or metric not in PAIRWISE_KERNEL_FUNCTIONS:
        raise _unknown(metric, PAIRWISE_KERNEL_FUNCTIONS)
    func = PAIRWISE_KERNEL_FUNCTIONS[metric]
    if filter_params:
        accepted = set(inspect.signature(func).parameters) - {"X", "Y"}
        kwds = {k: v for k, v in kwds.items() if k in accepted}
    return func(X, Y, **kwds)
