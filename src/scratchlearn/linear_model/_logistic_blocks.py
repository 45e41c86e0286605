"""Logistic regression's data term as statistics of row blocks (symbols of ``_logistic``).

Every quantity a solver needs from the rows is a sum over them, so it is a block statistic
(:mod:`scratchlearn.utils._blocks`): for row blocks b of (X, Y, s̄) and the current θ,

.. math::

    F_{data} = \\sum_b \\sum_{i \\in b} \\bar s_i \\ell_i,\\qquad
    \\nabla F_{data} = \\sum_b (P_b - Y_b)^T \\operatorname{diag}(\\bar s_b) \\tilde X_b,\\qquad
    \\nabla^2 F_{data} = \\sum_b \\sum_{i \\in b} \\bar s_i\\,
        (\\operatorname{diag}(p_i) - p_i p_i^T) \\otimes \\tilde x_i \\tilde x_i^T

(binary: p(1 − p) x̃x̃ᵀ). The penalty (λ/2)‖W‖² is added once, after the sum. In memory the
sum has one block and each function below is called once on the whole data; on Dask each
runs where its block lives and only (1 + K′d̃ + (K′d̃)²) numbers per block travel.

The first pass on Dask gathers the classes and their weighted counts (for
``class_weight="balanced"`` and Σs); then Y and s̄ are derived per block, lazily, from y and
the sample weights (:func:`targets_block`, :func:`weights_block`). Prediction on Dask runs the
in-memory method on each block, as for every estimator (:mod:`scratchlearn.utils._dask_predict`).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import scipy.sparse as sp

from ..utils.extmath import expit, safe_sparse_dot, softmax
from ..utils.multiclass import class_codes

__all__ = [
    "scores",
    "one_hot",
    "loss_grad_block",
    "hessian_block",
    "newton_block",
    "unseparated_block",
    "class_counts_block",
    "merge_class_counts",
    "targets_block",
    "weights_block",
    "dask_targets_and_weights",
]


def scores(theta, X, Kp, fit_intercept):
    """Z = X Wᵀ + 1bᵀ, (n, K′), for θ = Θ.ravel() with Θ = [W, b] (K′, d̃)."""
    Theta = theta.reshape(Kp, -1)
    d = X.shape[1]
    # Wᵀ copied into a C-ordered (d, K′) array (K′d numbers): W is a strided view of Θ, for
    # which NumPy would fall back to its slow non-BLAS loop, and OpenBLAS multiplies X by a
    # stored Wᵀ faster than by the transpose of a C-ordered W (5,000 × 50, K′ = 3: 63 against
    # 157 µs; the same for digits and for one column)
    Z = safe_sparse_dot(X, np.ascontiguousarray(Theta[:, :d].T))
    if fit_intercept:
        Z += Theta[:, d]
    return Z


def one_hot(y_idx, Kp):
    """Y (n, K′): the indicator of class 1 when K′ = 1 (two classes), one-hot rows otherwise."""
    return (y_idx[:, None] == (np.arange(Kp) + (Kp == 1))).astype(np.float64)


def _row_max(Z):
    """maxₖ Zᵢₖ, column by column: NumPy reduces along a short last axis about 25 times slower
    than K − 1 elementwise maxima (5,000 × 3: 144 µs against 6 µs), as it sums along one
    about 15 times slower than a product with a vector of ones (the products above)."""
    m = Z[:, 0].copy()
    for k in range(1, Z.shape[1]):
        np.maximum(m, Z[:, k], out=m)
    return m


def _unseparated(Z, Y):
    """Rows not strictly on their side (0 for all rows: the unpenalised MLE does not exist,
    the likelihood keeps increasing as ‖w‖ → ∞)."""
    if Y.shape[1] == 1:
        return int(np.count_nonzero((2.0 * Y[:, 0] - 1.0) * Z[:, 0] <= 0))
    true = np.einsum("ik,ik->i", Z, Y)
    other = np.where(Y > 0, -np.inf, Z).max(axis=1)
    return int(np.count_nonzero(true <= other))


def loss_grad_block(X, Y, s_bar, theta, fit_intercept, count_unseparated=False):
    """Σᵢ s̄ᵢℓᵢ and (P − Y)ᵀ diag(s̄) X̃ (flattened like θ) over the rows of X: the data term
    of F and ∇F. With ``count_unseparated``, also the rows not strictly on their side.

    X (n, d) dense or sparse (the column of ones of X̃ is never formed), Y (n, K′) from
    :func:`one_hot`. One pass of exp and one of log over Z; the probabilities reuse the
    exponentials of the loss, and no exp overflows: ℓ = logsumexp(z) − z_y for K′ > 1, and for
    two classes, with e = exp(−|z|) ∈ (0, 1],

        ℓ = log(1 + e^z) − yz = max(z, 0) + log1p(e) − yz,
        σ(z) = 1/(1 + e) for z ≥ 0, e/(1 + e) for z < 0.

    Four vectorised passes (exp, log1p on (0, 1], max, the division) where logaddexp(0, z) and
    exp(z − logaddexp(0, z)) took 2.3 ms on 10⁵ scores: 1.4 ms.
    """
    Kp = Y.shape[1]
    d = X.shape[1]
    Z = scores(theta, X, Kp, fit_intercept)  # (n, K′)
    wrong = _unseparated(Z, Y) if count_unseparated else None
    if Kp == 1:
        z, y = Z[:, 0], Y[:, 0]
        e = np.exp(-np.abs(z))
        u = 1.0 + e
        loss = np.maximum(z, 0.0)
        loss -= y * z  # max(z, 0) − yz: exact for y ∈ {0, 1} (0, −z or max(z, 0))
        loss += np.log1p(e)  # ℓ = log(1 + e^z) − yz, one rounding
        G = np.where(z >= 0.0, 1.0, e)
        G /= u
        G -= y  # ∂ℓ/∂z = σ(z) − y
        G = G[:, None]
    else:
        Z -= _row_max(Z)[:, None]  # zᵢ − max zᵢ: softmax and ℓ are shift-invariant
        E = np.exp(Z)  # (n, K), entries in (0, 1]
        ones = np.ones(Kp)
        total = E @ ones  # Σₖ e^zᵢₖ
        loss = np.log(total) - (Z * Y) @ ones  # logsumexp(zᵢ) − z_{i,yᵢ}
        E /= total[:, None]
        G = np.subtract(E, Y, out=E)  # softmax(Z) − Y, (n, K)
    F = float(s_bar @ loss)
    G *= s_bar[:, None]  # diag(s̄)(P − Y), (n, K′)
    grad = np.empty((Kp, d + int(fit_intercept)))
    # Gᵀ X: OpenBLAS is faster with Gᵀ on the left than with Xᵀ (digits: 80 against 108 µs)
    grad[:, :d] = safe_sparse_dot(X.T, G).T if sp.issparse(X) else G.T @ X
    if fit_intercept:
        # Σᵢ Gᵢₖ: a contiguous sum for one column, a product with ones for several
        grad[:, d] = G.sum(axis=0) if Kp == 1 else np.ones(len(G)) @ G
    if count_unseparated:
        return F, grad.ravel(), wrong
    return F, grad.ravel()


def _weighted_gram(X, v, fit_intercept):
    """X̃ᵀ diag(v) X̃ with X̃ = [X, 1], from XᵀVX, XᵀV1 and Σv (X̃ never formed)."""
    if np.all(v >= 0):
        A = X * np.sqrt(v)[:, None]
        XVX = A.T @ A  # a symmetric rank-k update: half the flops of a general product
    else:
        XVX = X.T @ (X * v[:, None])
    if not fit_intercept:
        return XVX
    Xv = X.T @ v
    return np.block([[XVX, Xv[:, None]], [Xv[None, :], np.array([[v.sum()]])]])


def hessian_block(X, s_bar, theta, fit_intercept, Kp):
    """Σᵢ s̄ᵢ ∇²ℓᵢ over the rows of X: binary X̃ᵀ diag(s̄ p(1 − p)) X̃; multinomial blocks
    H_kl = X̃ᵀ diag(s̄ pₖ(δₖₗ − pₗ)) X̃. A sparse block is made dense (d̃ columns)."""
    if sp.issparse(X):
        X = X.toarray()
    d = X.shape[1]
    d1 = d + int(fit_intercept)
    Z = scores(theta, X, Kp, fit_intercept)
    if Kp == 1:
        p = expit(Z[:, 0])
        return _weighted_gram(X, s_bar * p * (1.0 - p), fit_intercept)
    P = softmax(Z, axis=1)  # (n, K)
    H = np.empty((Kp * d1, Kp * d1))
    for k in range(Kp):
        for m in range(k, Kp):
            v = s_bar * P[:, k] * ((k == m) - P[:, m])
            block = _weighted_gram(X, v, fit_intercept)
            H[k * d1 : (k + 1) * d1, m * d1 : (m + 1) * d1] = block
            H[m * d1 : (m + 1) * d1, k * d1 : (k + 1) * d1] = block.T
    return H


def newton_block(X, Y, s_bar, theta, fit_intercept, count_unseparated):
    """F_data, ∇F_data (, unseparated rows), ∇²F_data of one block: a Newton iteration's
    whole need of the data in one pass (Dask; in memory the Hessian is asked for only at the
    accepted point, where flops rather than passes are the cost)."""
    fg = loss_grad_block(X, Y, s_bar, theta, fit_intercept, count_unseparated)
    return (*fg, hessian_block(X, s_bar, theta, fit_intercept, Y.shape[1]))


def unseparated_block(X, Y, theta, fit_intercept):
    """Rows of the block not strictly on their side at θ (see :func:`_unseparated`)."""
    return _unseparated(scores(theta, X, Y.shape[1], fit_intercept), Y)


# -- Dask: classes, Y and s̄ per block; prediction per block -------------------------------------
def class_counts_block(y, w):
    """(labels, Σ w over the rows of each label) of one block, labels sorted (w None: 1)."""
    labels, idx = class_codes(y)
    w = np.ones(len(y)) if w is None else w
    return labels, np.bincount(idx, weights=w, minlength=len(labels))


def merge_class_counts(a, b):
    """The counts of two blocks on the sorted union of their labels."""
    labels = np.union1d(a[0], b[0])
    counts = np.zeros(len(labels))
    for lab, cnt in (a, b):
        counts[np.searchsorted(labels, lab)] += cnt
    return labels, counts


def targets_block(y, classes, Kp):
    """Y of one block (:func:`one_hot` of the labels' indices in ``classes``)."""
    return one_hot(np.searchsorted(classes, y), Kp)


def weights_block(y, w, classes, cw, total):
    """s̄ of one block: wᵢ · class_weight[yᵢ] / Σs (w None: 1)."""
    s = cw[np.searchsorted(classes, y)]
    return (s if w is None else w * s) / total


def dask_targets_and_weights(y, w, classes, Kp, cw, total):
    """Y (n, K′) and s̄ (n,) as lazy Dask arrays with y's row blocks (w None: unit weights)."""
    import dask.array as da

    Y = y.map_blocks(
        partial(targets_block, classes=classes, Kp=Kp),
        new_axis=1,
        chunks=(y.chunks[0], (Kp,)),
        dtype=np.float64,
        meta=np.empty((0, 0)),
    )
    fn = partial(weights_block, classes=classes, cw=cw, total=total)
    if w is None:
        return Y, y.map_blocks(partial(fn, w=None), dtype=np.float64, meta=np.empty((0,)))
    return Y, da.map_blocks(fn, y, w, dtype=np.float64, meta=np.empty((0,)))
