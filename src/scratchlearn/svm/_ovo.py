"""One-vs-one bookkeeping of :class:`~scratchlearn.svm.SVC`, in LIBSVM's layout.

K classes give P = K(K−1)/2 binary problems, one per pair (a, b), a < b, in the order
(0, 1), (0, 2), …, (0, K−1), (1, 2), …, (K−2, K−1). Pair (a, b) labels class a with y = +1 and
class b with y = −1; its SMO solution α gives

    f_ab(x) = Σ_t y_t α_t K(x_t, x) − ρ_ab        (f_ab > 0 votes for a, otherwise for b).

Layout of the fitted arrays (LIBSVM's, kept by scikit-learn):

``support_`` (n_SV,)
    the samples with α_t > 0 in at least one pair, grouped by class, increasing index inside a
    class; ``n_support_`` (K,) counts them per class.
``dual_coef_`` (K − 1, n_SV)
    the column of a support vector of class c holds its y_t α_t of pair (c, o) in row o − 1 when
    o > c and in row o when o < c: every row index but its own class's. Positive for the
    lower-indexed class of the pair.
``intercept_`` (P,)
    −ρ_ab per pair.

The functions here are pure: they turn per-pair solutions into that layout, and the layout back
into per-pair decision values f_ab (:func:`pairwise_decisions`) and primal weights. The pairs'
order, their vote and its scores are those of every one-vs-one classifier
(:mod:`scratchlearn.multiclass._ovo`): pair (a, b) votes for b where f_ab < 0 (LIBSVM's
``predict``: unless f_ab > 0), with confidence −f_ab towards b.
"""

from __future__ import annotations

import numpy as np

from ..multiclass._ovo import pairs

__all__ = ["pairs", "assemble", "pairwise_decisions", "ovo_coef"]


def assemble(y_idx, K, solutions):
    """LIBSVM's arrays from per-pair solutions.

    Parameters
    ----------
    y_idx : ndarray (n,) class index of each training sample
    K : int
    solutions : list of P tuples ``(index, alpha, rho)``: the pair's samples (n_ab,), their
        α (n_ab,) and ρ, in :func:`pairs` order.

    Returns
    -------
    support (n_SV,) int32, n_support (K,) int32, dual_coef (K − 1, n_SV), intercept (P,)
    """
    n = y_idx.shape[0]
    is_sv = np.zeros(n, dtype=bool)
    for index, alpha, _ in solutions:
        is_sv[index[alpha > 0]] = True
    support = np.concatenate([np.flatnonzero(is_sv & (y_idx == c)) for c in range(K)])
    n_support = np.bincount(y_idx[support], minlength=K).astype(np.int32)
    column = np.full(n, -1)
    column[support] = np.arange(support.size)
    dual_coef = np.zeros((K - 1, support.size))
    intercept = np.empty(len(solutions))
    for p, ((a, b), (index, alpha, rho)) in enumerate(zip(pairs(K), solutions)):
        t = index[alpha > 0]  # support vectors of this pair
        y = np.where(y_idx[t] == a, 1.0, -1.0)
        row = np.where(y_idx[t] == a, b - 1, a)
        dual_coef[row, column[t]] = y * alpha[alpha > 0]
        intercept[p] = -rho
    return support.astype(np.int32), n_support, dual_coef, intercept


def _class_slices(n_support):
    ends = np.cumsum(n_support)
    return [slice(int(e - m), int(e)) for e, m in zip(ends, n_support)]


def pairwise_decisions(Ksv, dual_coef, intercept, n_support):
    """f_ab for every pair: Ksv (m, n_SV) kernel rows against the support vectors → (m, P).

    f_ab(x) = Σ_{t ∈ SV_a} dual_coef[b−1, t] K(x_t, x) + Σ_{t ∈ SV_b} dual_coef[a, t] K(x_t, x)
    + intercept[p].
    """
    K = n_support.shape[0]
    S = _class_slices(n_support)
    F = np.empty((Ksv.shape[0], len(intercept)))  # (m, P)
    for p, (a, b) in enumerate(pairs(K)):
        F[:, p] = Ksv[:, S[a]] @ dual_coef[b - 1, S[a]] + Ksv[:, S[b]] @ dual_coef[a, S[b]]
        F[:, p] += intercept[p]
    return F


def ovo_coef(dual_coef, support_vectors, n_support):
    """Primal weights w_ab = Σ_t y_t α_t x_t per pair (linear kernel): (P, d)."""
    K = n_support.shape[0]
    S = _class_slices(n_support)
    W = np.empty((K * (K - 1) // 2, support_vectors.shape[1]))
    for p, (a, b) in enumerate(pairs(K)):
        W[p] = dual_coef[b - 1, S[a]] @ support_vectors[S[a]]
        W[p] += dual_coef[a, S[b]] @ support_vectors[S[b]]
    return W
