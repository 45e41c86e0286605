"""Numerically stable elementary functions shared by the models.

Probabilities are handled in log space: ``logsumexp`` subtracts the row maximum before
exponentiating, the sigmoid branches on the sign of its argument so ``exp`` never overflows, and
``softmax`` is ``exp(z - logsumexp(z))``.
"""

from __future__ import annotations

import numpy as np

from ._sparse import issparse

__all__ = [
    "logsumexp",
    "expit",
    "log_expit",
    "softmax",
    "log_softmax",
    "row_norms",
    "safe_sparse_dot",
    "xlogy",
]


def logsumexp(a, axis=None, keepdims: bool = False):
    """log Σ exp(aᵢ), computed as m + log1p(Σ_{i≠i*} exp(aᵢ − m)) with m = a_{i*} = max aᵢ.

    Taking the maximal term out of the sum and using log1p keeps full relative accuracy when
    the result is close to zero. Rows that are entirely −inf give −inf (not NaN).
    """
    a = np.asarray(a, dtype=np.float64)
    if axis is None:
        out = logsumexp(a.reshape(-1), axis=0)
        return out.reshape((1,) * a.ndim) if keepdims else out[()]
    i_max = np.expand_dims(np.argmax(a, axis=axis), axis)
    m = np.take_along_axis(a, i_max, axis=axis)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(a - m)
    np.put_along_axis(e, i_max, 0.0, axis=axis)
    top = np.take_along_axis(a, i_max, axis=axis) - m  # 0, or ±inf for degenerate rows
    with np.errstate(divide="ignore", invalid="ignore"):
        out = m + np.where(
            top == 0.0,
            np.log1p(np.sum(e, axis=axis, keepdims=True)),
            np.log(np.exp(top) + np.sum(e, axis=axis, keepdims=True)),
        )
    return out if keepdims else np.squeeze(out, axis=axis)


def expit(z):
    """σ(z) = 1 / (1 + e⁻ᶻ), evaluated as e^z / (1 + e^z) for z < 0 so nothing overflows."""
    z = np.asarray(z, dtype=np.float64)
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    ez = np.exp(z[~pos])
    out[~pos] = ez / (1.0 + ez)
    return out


def log_expit(z):
    """log σ(z) = −log(1 + e⁻ᶻ) = −logaddexp(0, −z), exact for large ``|z|``."""
    z = np.asarray(z, dtype=np.float64)
    return -np.logaddexp(0.0, -z)


def log_softmax(Z, axis: int = 1):
    """log softmax(Z) = Z − logsumexp(Z) along ``axis``."""
    Z = np.asarray(Z, dtype=np.float64)
    return Z - logsumexp(Z, axis=axis, keepdims=True)


def softmax(Z, axis: int = 1):
    """softmax(Z)ₖ = exp(Zₖ − logsumexp(Z)); rows sum to one."""
    return np.exp(log_softmax(Z, axis=axis))


def row_norms(X, squared: bool = False):
    """‖xᵢ‖ (or ‖xᵢ‖²) for every row of a dense or sparse X, without forming X²'s copy twice."""
    if issparse(X):
        import scipy.sparse as sp

        X = sp.csr_matrix(X)
        sq = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    else:
        X = np.asarray(X)
        sq = np.einsum("ij,ij->i", X, X)
    return sq if squared else np.sqrt(sq)


def safe_sparse_dot(a, b):
    """a @ b for any mix of dense arrays and sparse matrices, returning a dense array when the
    result of a sparse product would be dense anyway."""
    out = a @ b
    if issparse(out) and not (issparse(a) and issparse(b)):
        out = out.toarray()
    return out


def xlogy(x, y):
    """x·log(y) with the convention 0·log(0) = 0 (entropies, deviances)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = x * np.log(y)
    return np.where(x == 0, 0.0, out)
