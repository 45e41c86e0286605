"""The statistics of least squares, per row block: centred moments and the R factor of [X Y].

Symbols (as in ``_base``)
-------------------------
n, d, k    rows, features, targets;  p = d + k
z          a row [xᵀ yᵀ] of Z = [X Y], (n, p)
s          sample weights (None: all ones);  W = diag(s);  N = Σ sᵢ their total
z̄          the weighted mean Σ sᵢzᵢ / N = [x̄ ȳ];  Zc = Z − 1z̄ᵀ (with an intercept; else z̄ = 0)
C          centred cross-products Σ sᵢ (zᵢ − z̄)(zᵢ − z̄)ᵀ = ZcᵀWZc, (p, p)
R          an upper-triangular (p, p) factor with RᵀR = C: the R of a QR of √W·Zc

Exact least squares and ridge need the data only through these. With G = C[:d, :d] =
XcᵀWXc and c = C[:d, d:] = XcᵀWYc the normal equations are (G + αI) w = c; and since
√W·Zc = QR with R = [[Rₓₓ, Rₓᵧ], [0, Rᵧᵧ]],

.. math::

    \\|\\sqrt{W}(X_c w - Y_c)\\|^2 = \\|R_{xx} w - R_{xy}\\|^2 + \\|R_{yy}\\|^2,

so Rₓₓ (d × d) has the singular values and right singular vectors of √W·Xc: the minimum-norm
(or ridge) solution from the SVD of Rₓₓ equals the one from the SVD of √W·Xc, without the n
rows. b = ȳ − x̄ᵀw in both cases.

Each statistic is a triple (N, z̄, C) or (N, z̄, R) of one block, and two blocks merge exactly
(Chan, Golub and LeVeque, 1979; :func:`~scratchlearn.utils._moments.merge_moments` in its
matrix form): with δ = z̄_b − z̄_a and N = N_a + N_b,

.. math::

    \\bar z = \\bar z_a + \\frac{N_b}{N}\\delta, \\qquad
    C = C_a + C_b + \\frac{N_a N_b}{N}\\delta\\delta^T,

because each block is centred at its own mean and the term in δ moves both to the common
one; it avoids the cancellation of Σsz zᵀ − N z̄z̄ᵀ when the means are large beside the
spread. For R the same identity reads RᵀR = [R_a; R_b; √(N_aN_b/N) δᵀ]ᵀ[…], so the merged R
is the R factor of that (2p + 1) × p stack (TSQR). Without an intercept z̄ is held at 0, δ = 0,
and both merges reduce to C_a + C_b and the R of [R_a; R_b].

On NumPy (or SciPy sparse) input :func:`~scratchlearn.utils._blocks.block_reduce` calls the
block function once on the whole data: that one-block case *is* the in-memory fit (centre,
then Gram; or centre, then QR). On Dask it runs per row block on the workers and only these
p² + p + 1 numbers per block travel.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ..utils._blocks import block_reduce
from ..utils._moments import Moments, merge_moments
from ..utils.extmath import safe_sparse_dot

__all__ = [
    "moments_block",
    "merge_cross_products",
    "r_factor_block",
    "merge_r_factors",
    "moments",
    "r_factor",
    "lstsq_from_r",
    "check_dask_fit",
]


def _means(X, Y, s, center):
    """N = Σ sᵢ and the weighted means x̄ = Σ sᵢxᵢ / N, ȳ = Σ sᵢyᵢ / N (0 without ``center``)."""
    s1 = np.ones(X.shape[0]) if s is None else s
    N = float(s1.sum())
    if not (center and N > 0):
        return N, np.zeros(X.shape[1]), np.zeros(Y.shape[1])
    return N, np.asarray(safe_sparse_dot(s1, X)).ravel() / N, (s1 @ Y) / N


def _sparse_moments(X, y, s, center):
    """(N, z̄, C) for sparse X without densifying it: C_xx = XᵀWX − N x̄x̄ᵀ (implicit centring),
    C_xy = XᵀW Yc (Σ sᵢ ycᵢ = 0, so x̄ drops out), C_yy = YcᵀW Yc."""
    Y = y.reshape(len(y), -1)
    n, d = X.shape
    s1 = np.ones(n) if s is None else s
    N, x_mean, y_mean = _means(X, Y, s, center)
    Yc = Y - y_mean
    XW = X.T.multiply(s1[None, :]).tocsr() if s is not None else X.T.tocsr()  # (d, n)
    C = np.empty((d + Y.shape[1],) * 2)
    C[:d, :d] = np.asarray((XW @ X).todense()) - N * np.outer(x_mean, x_mean)
    C[:d, d:] = np.asarray(XW @ Yc)
    C[d:, :d] = C[:d, d:].T
    C[d:, d:] = Yc.T @ (s1[:, None] * Yc)
    return {"weight": N, "mean": np.concatenate([x_mean, y_mean]), "C": C}


def moments_block(X, y, s, center):
    """(N, z̄, C) of one block: N = Σ sᵢ, z̄ = Σ sᵢzᵢ / N (0 when ``center`` is False) and
    C = Σ sᵢ (zᵢ − z̄)(zᵢ − z̄)ᵀ = (√W Zc)ᵀ(√W Zc) for z = [x y] (``s`` None: unit weights).
    Scaling the rows by √sᵢ makes C a symmetric product AᵀA (BLAS syrk), half the work of
    the general ZcᵀWZc."""
    if sp.issparse(X):
        return _sparse_moments(X, y, s, center)
    Y = y.reshape(len(y), -1)  # (n, k)
    N, x_mean, y_mean = _means(X, Y, s, center)
    Xc, Yc = X - x_mean, Y - y_mean  # new arrays, scaled in place below
    if s is not None:
        root = np.sqrt(s)[:, None]
        Xc *= root
        Yc *= root
    d, p = X.shape[1], X.shape[1] + Y.shape[1]
    C = np.empty((p, p))  # by blocks: [XcᵀWXc, XcᵀWYc; ·, YcᵀWYc]
    C[:d, :d] = Xc.T @ Xc  # a symmetric product AᵀA: BLAS syrk
    C[:d, d:] = Xc.T @ Yc
    C[d:, :d] = C[:d, d:].T
    C[d:, d:] = Yc.T @ Yc
    return {"weight": N, "mean": np.concatenate([x_mean, y_mean]), "C": C}


def _moments(stat, key):
    """The (N, z̄, ·) of a block statistic as :class:`~scratchlearn.utils._moments.Moments`,
    with ``stat[key]`` as its M2 (``key`` None: the mean alone)."""
    return Moments(stat["weight"], stat["mean"], None if key is None else stat[key])


def merge_cross_products(a, b):
    """(N, z̄, C) of two blocks together: Chan's merge
    (:func:`~scratchlearn.utils._moments.merge_moments`) in its matrix form,
    N = N_a + N_b, δ = z̄_b − z̄_a, z̄ = z̄_a + (N_b/N)δ, C = C_a + C_b + (N_aN_b/N) δδᵀ."""
    merged = merge_moments(_moments(a, "C"), _moments(b, "C"))
    return {"weight": merged.weight, "mean": merged.mean, "C": merged.m2}


def _r_of(A, p):
    """The R factor of A's QR (Householder, LAPACK geqrf, in place on A, which must be ours),
    padded with zero rows to (p, p). geqrf is called directly: for a tall A it is the whole
    cost, and scipy.linalg.qr would add a copy of A and a workspace query."""
    m = A.shape[0]
    if m == 0:  # an empty block
        return np.zeros((p, p))
    A = np.asfortranarray(A)
    (geqrf,) = sla.get_lapack_funcs(("geqrf",), (A,))
    qr, _, _, info = geqrf(A, lwork=64 * p, overwrite_a=True)
    if info != 0:
        raise np.linalg.LinAlgError(f"the QR factorisation of a block failed (info={info}).")
    R = np.triu(qr[: min(m, p)])
    if m < p:  # fewer rows than columns: R is trapezoidal
        R = np.vstack([R, np.zeros((p - m, p))])
    return R


def r_factor_block(X, y, s, center):
    """(N, z̄, R) of one block: R upper triangular (p, p) with RᵀR = C, the R of √W·Zc
    (sparse X is densified: a QR has no sparse form here)."""
    Y = y.reshape(len(y), -1)  # (n, k)
    if sp.issparse(X):
        X = X.toarray()
    N, x_mean, y_mean = _means(X, Y, s, center)
    n, d = X.shape
    Zc = np.empty((n, d + Y.shape[1]), order="F")  # [Xc Yc], laid out for LAPACK, (n, p)
    np.subtract(X, x_mean, out=Zc[:, :d])
    np.subtract(Y, y_mean, out=Zc[:, d:])
    mean = np.concatenate([x_mean, y_mean])
    if s is not None:
        Zc *= np.sqrt(s)[:, None]
    return {"weight": N, "mean": mean, "R": _r_of(Zc, Zc.shape[1])}


def merge_r_factors(a, b):
    """(N, z̄, R) of two blocks together: N and z̄ by Chan's merge, R the R factor of the stack
    [R_a; R_b; √(N_aN_b/N) δᵀ], so that RᵀR = C_a + C_b + (N_aN_b/N) δδᵀ, Chan's C."""
    merged = merge_moments(_moments(a, None), _moments(b, None))
    rows = [a["R"], b["R"]]
    if a["weight"] > 0 and b["weight"] > 0:  # a block of zero weight has no mean to move
        delta = b["mean"] - a["mean"]  # (p,)
        rows.append(np.sqrt(a["weight"] * b["weight"] / merged.weight) * delta[None, :])
    R = _r_of(np.vstack(rows), a["R"].shape[1])
    return {"weight": merged.weight, "mean": merged.mean, "R": R}


def moments(X, y, s, *, fit_intercept):
    """(N, z̄, C) of all rows: one call in memory, per block and merged on Dask."""
    return block_reduce(
        moments_block, X, y, s, combine=merge_cross_products, static=(fit_intercept,)
    )


def r_factor(X, y, s, *, fit_intercept):
    """(N, z̄, R) of all rows: one call in memory, per block and merged (TSQR) on Dask."""
    return block_reduce(r_factor_block, X, y, s, combine=merge_r_factors, static=(fit_intercept,))


def lstsq_from_r(R, d, n):
    """w = argmin ‖Rₓₓ w − Rₓᵧ‖ of least norm (SVD, LAPACK gelsd): the minimum-norm solution of
    min ‖√W(Xc w − Yc)‖, (d, k). Singular values below max(n, d)·ε·σ_max count as zero: the
    cut-off of an SVD of the n × d matrix √W·Xc itself, whose singular values Rₓₓ shares."""
    cond = max(n, d) * np.finfo(np.float64).eps
    w, *_ = sla.lstsq(R[:d, :d], R[:d, d:], cond=cond, lapack_driver="gelsd", check_finite=False)
    return w


def check_dask_fit(estimator, X, y, sample_weight):
    """(X, y, s) of a Dask least-squares fit as row-aligned Dask arrays, validated lazily by
    :func:`~scratchlearn.utils._dask.check_dask_data` (shapes now, values per block); y as
    float64, 1-D or 2-D. Sparse blocks are refused: the R factor would densify them anyway."""
    from ..utils._dask import check_dask_data

    owner = type(estimator).__name__
    if y is None:
        raise ValueError(f"{owner} requires y to be passed, but the target y is None.")
    X, y, s = check_dask_data(estimator, X, y, sample_weight)
    if not isinstance(X._meta, np.ndarray):
        raise TypeError(
            f"{owner} fits on Dask arrays of dense NumPy blocks; got blocks of type "
            f"{type(X._meta).__name__}. Densify them first (X.map_blocks(lambda b: b.toarray())) "
            "or fit the sparse matrix in memory."
        )
    if y.ndim not in (1, 2) or y.dtype.kind not in "biuf":
        raise ValueError(
            f"{owner} needs a numeric target y of 1 or 2 dimensions; got {y.ndim} "
            f"dimension(s) of dtype {y.dtype}."
        )
    return X, y.astype(np.float64), s
