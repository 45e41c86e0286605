"""The E- and M-steps of a Gaussian mixture, as pure functions of arrays.

Symbols
-------
n, d, K   samples, features, components
X         (n, d) data
π         (K,) mixing weights, Σ_k π_k = 1
μ         (K, d) means
Σ_k       covariance of component k; its shape depends on ``covariance_type``:
          "full" (K, d, d), "tied" (d, d) shared by all, "diag" (K, d), "spherical" (K,)
U_k       the Cholesky factor of the precision Σ_k⁻¹ = U_k U_kᵀ, upper triangular
          (U_k = L_k⁻ᵀ where Σ_k = L_k L_kᵀ); a vector 1/σ for "diag" and "spherical"
R         (n, K) responsibilities r_ik = p(z_i = k | x_i)
N_k       Σ_i r_ik, the effective size of component k

Log-density of component k, with the Mahalanobis term a product by the stored factor (the one
triangular solve per component happens in :func:`precision_cholesky`, once per M-step)::

    log N(x | μ_k, Σ_k) = −½ (d log 2π + ‖U_kᵀ (x − μ_k)‖²) + Σ_j log (U_k)_jj

because ``log |Σ_k⁻¹| = 2 Σ_j log (U_k)_jj``: the determinant is read off the factor's diagonal.
M-step (weighted maximum likelihood, plus ``reg_covar`` ε on the diagonal)::

    N_k = Σ_i r_ik,   μ_k = Σ_i r_ik x_i / N_k,   Σ_k = Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ / N_k + εI

computed from statistics of row blocks (:func:`block_statistics`), merged across blocks by
:func:`merge_statistics`: the in-memory fit is one block, a Dask fit one per block, and EM
reads the data once per iteration either way. The arithmetic follows scikit-learn's formulas
(N_k carries 10·machine-ε so that an empty component divides by a positive number), so the two
libraries agree to rounding; the full covariances are centred scatters (per block, merged by
Chan's update) and the Mahalanobis terms take the deviations x − μ_k first (scikit-learn forms
x U_k − μ_k U_k), which avoids those cancellations. The product by U_k
is a general one (gemm): BLAS's triangular product (trmm) does half the work at one thread,
but OpenBLAS threads it even for these small sizes, and on a busy 2-core machine it then ran
25 times slower (measured).

References
----------
Dempster, A. P., Laird, N. M. and Rubin, D. B. (1977). Maximum likelihood from incomplete data
via the EM algorithm. Journal of the Royal Statistical Society, Series B 39(1), 1–38.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg import cholesky, solve_triangular

from ..utils._moments import Moments, merge_moments

__all__ = [
    "block_statistics",
    "merge_statistics",
    "parameters_from_statistics",
    "gaussian_parameters",
    "precision_cholesky",
    "precision_cholesky_from_precisions",
    "covariances_from_precision_cholesky",
    "precisions_from_cholesky",
    "log_gaussian_prob",
]

COVARIANCE_TYPES = ("full", "tied", "diag", "spherical")


# -- M-step: per-block statistics, merged across blocks ---------------------------------------
def block_statistics(X, R, covariance_type):
    """The M-step's statistics of one block of rows, given its responsibilities R.

    ``{"N": (K,), "S": (K, d), ...}`` with N_k = Σ_i r_ik and S_k = Σ_i r_ik x_i, and

    * "full": ``"C"`` (K, d, d), C_k = Σ_i r_ik (x_i − m_k)(x_i − m_k)ᵀ centred at the block's
      own means m_k = S_k / N_k, merged across blocks by Chan's update;
    * "tied": ``"XX"`` = XᵀX (d, d), which blocks add;
    * "diag" and "spherical": ``"Q"`` (K, d), Q_kj = Σ_i r_ik x_ij², which blocks add.

    The whole data are one block (the in-memory fit); Dask blocks merge by
    :func:`merge_statistics`. "tied", "diag" and "spherical" keep scikit-learn's raw second
    moments (:func:`parameters_from_statistics` subtracts N_k μ_k μ_kᵀ), so that the in-memory
    fit stays its arithmetic to the bit; they lose about log₁₀(max‖x‖² / λ_min(Σ)) digits to
    that subtraction, in memory as on Dask (standardise data whose means dwarf their spread).
    """
    N = R.sum(axis=0)  # (K,)
    S = R.T @ X  # (K, d)
    if covariance_type == "full":
        return {"N": N, "S": S, "C": _scatter_full(X, R, _block_means(S, N))}
    if covariance_type == "tied":
        return {"N": N, "S": S, "XX": X.T @ X}
    return {"N": N, "S": S, "Q": R.T @ (X * X)}


def _block_means(S, N):
    """m_k = S_k / N_k; 0 for a component absent from the block (N_k = 0, whose C_k is 0)."""
    return S / np.where(N > 0, N, 1.0)[:, None]


def _scatter_full(X, R, m):
    """C_k = Σ_i r_ik (x_i − m_k)(x_i − m_k)ᵀ, one component at a time."""
    K, d = m.shape
    C = np.empty((K, d, d))
    sqrt_R = np.sqrt(R)
    for k in range(K):
        W = X - m[k]  # (n, d) deviations from m_k ...
        W *= sqrt_R[:, k : k + 1]  # ... scaled by √r_ik, so that WᵀW = Σ_i r_ik (x_i − m_k)(·)ᵀ
        C[k] = W.T @ W  # a symmetric rank-n update (BLAS syrk)
    return C


def merge_statistics(a, b, covariance_type):
    """The :func:`block_statistics` of the union of two blocks.

    Sums add (N_k, S_k, XᵀX, Q_k and the E-step's log-likelihood sum). The centred scatters
    of "full" merge by Chan, Golub and LeVeque's (1979) update, with δ_k = m_bk − m_ak the
    difference of the two blocks' means of component k::

        C_k = C_ak + C_bk + (N_ak N_bk / N_k) δ_k δ_kᵀ
    """
    out = {key: a[key] + b[key] for key in a}
    if covariance_type == "full":  # one row of moments per component k
        Na, Nb = a["N"], b["N"]
        ma = Moments(Na, _block_means(a["S"], Na), a["C"])
        mb = Moments(Nb, _block_means(b["S"], Nb), b["C"])
        out["C"] = merge_moments(ma, mb).m2  # (K, d, d); a component absent from a block: 0
    return out


def parameters_from_statistics(stats, reg_covar, covariance_type):
    """N_k, μ_k = S_k / N_k and Σ_k (plus εI) from merged statistics (``π_k ∝ N_k``).

    N_k carries 10·machine-ε, so that an empty component divides by a positive number.
    """
    N = stats["N"] + 10 * np.finfo(np.float64).eps  # (K,)
    mu = stats["S"] / N[:, None]  # (K, d)
    if covariance_type == "full":
        Sigma = stats["C"] / N[:, None, None]  # Σ_k = C_k / N_k + εI
        d = mu.shape[1]
        Sigma.reshape(len(N), -1)[:, :: d + 1] += reg_covar
        return N, mu, Sigma
    if covariance_type == "tied":  # Σ = (XᵀX − Σ_k N_k μ_k μ_kᵀ) / Σ_k N_k + εI
        Sigma = stats["XX"] - (N * mu.T) @ mu
        Sigma /= N.sum()
        Sigma.flat[:: Sigma.shape[0] + 1] += reg_covar
        return N, mu, Sigma
    Sigma = stats["Q"] / N[:, None] - mu**2 + reg_covar  # σ²_kj = Q_kj / N_k − μ_kj² + ε
    if covariance_type == "spherical":  # σ²_k, the mean over features of the σ²_kj
        Sigma = Sigma.mean(axis=1)
    return N, mu, Sigma


def gaussian_parameters(X, R, reg_covar, covariance_type):
    """N_k, μ_k and Σ_k from responsibilities R: the statistics of X as one block."""
    stats = block_statistics(X, R, covariance_type)
    return parameters_from_statistics(stats, reg_covar, covariance_type)


# -- the precision's Cholesky factor -----------------------------------------------------------
def _singular(which: str, reg_covar) -> ValueError:
    return ValueError(
        f"Fitting the Gaussian mixture failed: the covariance of {which} is not positive "
        f"definite even after adding reg_covar={reg_covar!r} to its diagonal (collapsed or "
        "duplicated samples, or a component left with a single point). Increase reg_covar, "
        "use fewer components, or scale the features."
    )


def _upper_inverse_factor(Sigma, which, reg_covar):
    """U = L⁻ᵀ with Σ = L Lᵀ: a Cholesky factorisation and one triangular solve, no inverse."""
    try:
        L = cholesky(Sigma, lower=True)
    except np.linalg.LinAlgError:
        raise _singular(which, reg_covar) from None
    return solve_triangular(L, np.eye(Sigma.shape[0]), lower=True).T


def precision_cholesky(covariances, covariance_type, reg_covar=None):
    """The factors U_k of the precisions Σ_k⁻¹ = U_k U_kᵀ (1/σ for "diag" and "spherical").

    Raises a ValueError naming the component whose covariance is not positive definite.
    """
    if covariance_type == "full":
        return np.stack(
            [
                _upper_inverse_factor(S, f"component {k}", reg_covar)
                for k, S in enumerate(covariances)
            ]
        )
    if covariance_type == "tied":
        return _upper_inverse_factor(covariances, "the shared (tied) covariance", reg_covar)
    bad = np.flatnonzero(np.reshape(covariances <= 0.0, (len(covariances), -1)).any(axis=1))
    if bad.size:
        raise _singular(f"component {bad[0]}", reg_covar)
    return 1.0 / np.sqrt(covariances)


def _upper_factor_of(P):
    """The upper-triangular U with P = U Uᵀ: the Cholesky factor of P with its rows and columns
    reversed (J P J = C Cᵀ gives P = (J C J)(J C J)ᵀ for the exchange matrix J)."""
    return cholesky(P[::-1, ::-1], lower=True)[::-1, ::-1]


def precision_cholesky_from_precisions(precisions, covariance_type):
    """U_k from user-given precisions Σ_k⁻¹ (upper triangular, as from covariances)."""
    if covariance_type == "full":
        return np.stack([_upper_factor_of(P) for P in precisions])
    if covariance_type == "tied":
        return _upper_factor_of(precisions)
    return np.sqrt(precisions)


def covariances_from_precision_cholesky(U, covariance_type):
    """Σ_k = (U_k U_kᵀ)⁻¹ = U_k⁻ᵀ U_k⁻¹, through a triangular solve of U_k."""

    def one(Uk):
        W = solve_triangular(Uk, np.eye(Uk.shape[0]), lower=False)  # U_k⁻¹
        return W.T @ W

    if covariance_type == "full":
        return np.stack([one(Uk) for Uk in U])
    if covariance_type == "tied":
        return one(U)
    return 1.0 / U**2


def precisions_from_cholesky(U, covariance_type):
    """Σ_k⁻¹ = U_k U_kᵀ (U_k² for the vector types)."""
    if covariance_type == "full":
        return U @ np.transpose(U, (0, 2, 1))
    if covariance_type == "tied":
        return U @ U.T
    return U**2


# -- E-step ------------------------------------------------------------------------------------
def log_det_cholesky(U, covariance_type, d):
    """½ log |Σ_k⁻¹| = Σ_j log (U_k)_jj, per component.

    The logarithm reads a contiguous copy of the diagonals: NumPy 1.25's ``log`` of the strided
    diagonal view, called from several threads at once, returned a value one ulp off in about
    1 call in 1,000 (the same U every time; tests/test_threads.py caught it in a fit's recorded
    objective), where the contiguous copy gave the same bits in 3,200 of 3,200."""
    if covariance_type == "full":
        return np.log(np.diagonal(U, axis1=1, axis2=2).copy()).sum(axis=1)
    if covariance_type == "tied":
        return np.log(np.diag(U).copy()).sum()
    if covariance_type == "diag":
        return np.log(U).sum(axis=1)
    return d * np.log(U)


def mahalanobis_sq(X, mu, U, covariance_type):
    """M_ik = ‖U_kᵀ (x_i − μ_k)‖², the squared Mahalanobis distance of x_i to component k."""
    n, d = X.shape
    K = mu.shape[0]
    if covariance_type in ("full", "tied"):
        M = np.empty((n, K))
        for k in range(K):
            Uk = U[k] if covariance_type == "full" else U
            Y = (X - mu[k]) @ Uk  # (n, d): rows (x_i − μ_k)ᵀ U_k
            M[:, k] = np.einsum("ij,ij->i", Y, Y)
        return M
    P = U**2  # precisions 1/σ²
    if covariance_type == "diag":  # Σ_j (x_j − μ_kj)² / σ²_kj, expanded
        return (mu**2 * P).sum(axis=1) - 2.0 * (X @ (mu * P).T) + (X**2) @ P.T
    # spherical: ‖x − μ_k‖² / σ²_k, expanded
    sq = np.einsum("ij,ij->i", X, X)
    return (mu**2).sum(axis=1) * P - 2.0 * (X @ mu.T) * P + np.outer(sq, P)


def log_gaussian_prob(X, mu, U, covariance_type):
    """(n, K) log N(x_i | μ_k, Σ_k) = −½ (d log 2π + M_ik) + Σ_j log (U_k)_jj."""
    d = X.shape[1]
    M = mahalanobis_sq(X, mu, U, covariance_type)
    return -0.5 * (d * math.log(2 * math.pi) + M) + log_det_cholesky(U, covariance_type, d)
