"""Probabilities of :class:`~scratchlearn.svm.SVC`: Platt scaling on cross-validated decision
values, and pairwise coupling for K > 2 (LIBSVM's ``svm_binary_svc_probability`` and
``multiclass_probability``).

For each pair (a, b) the n_ab samples are split into 5 random folds; each fold's decision values
f come from the pair's SVM trained on the other four folds (same Cᵢ, same kernel), so the sigmoid

    P(a | x, pair a-or-b) = r_ab(x) = 1 / (1 + exp(A f_ab(x) + B))

is fitted on values the SVM did not see (in-sample values crowd at ±1 and make the sigmoid too
steep). A, B come from :func:`~scratchlearn.svm._platt.fit_platt`. At predict time
r_ab is clipped to [10⁻⁷, 1 − 10⁻⁷]; K = 2 gives (r_01, 1 − r_01); K > 2 couples the matrix
r[:, a, b] = r_ab, r[:, b, a] = 1 − r_ab into one distribution by
:func:`~scratchlearn.svm._platt.couple_pairwise` (Wu, Lin & Weng 2004, method 2).
"""

from __future__ import annotations

import numpy as np

from ..utils.validation import check_random_state
from . import _ovo
from ._base import kernel_block
from ._platt import couple_pairwise, fit_platt, platt_proba
from ._smo import smo_solve

__all__ = ["platt_cv", "couple"]

N_FOLDS = 5
MIN_PROB = 1e-7


def _fold_decisions(svc, spec, X, index, y_ab, C_ab, rng):
    """Out-of-fold f(x) (n_ab,) of the pair (index, y_ab), LIBSVM's 5-fold procedure."""
    l = index.size  # noqa: E741 - LIBSVM's name for the problem size
    perm = rng.permutation(l)
    f = np.zeros(l)
    for k in range(N_FOLDS):
        test = perm[k * l // N_FOLDS : (k + 1) * l // N_FOLDS]
        train = np.setdiff1d(perm, test, assume_unique=True)
        train = train[np.argsort(train)]
        n_pos = int(np.sum(y_ab[train] > 0))
        if n_pos == 0 or n_pos == train.size:  # one class in the training folds
            f[test] = 1.0 if n_pos else (-1.0 if train.size else 0.0)
            continue
        res = smo_solve(
            spec,
            y_ab[train],
            -np.ones(train.size),
            C_ab[train],
            index=index[train],
            tol=svc.tol,
            shrinking=svc.shrinking,
            cache_size=float(svc.cache_size),
            max_iter=svc.max_iter,
        )
        sv = res.alpha > 0
        rows, cols = index[test], index[train][sv]
        if svc.kernel == "precomputed" or callable(svc.kernel):
            Kt = spec.X[np.ix_(rows, cols)]  # the Gram the solver used
        else:
            Kt = kernel_block(svc.kernel, X[rows], X[cols], svc._gamma, svc.coef0, svc.degree)
        f[test] = Kt @ (y_ab[train][sv] * res.alpha[sv]) - res.rho
    return f


def platt_cv(svc, spec, X, y_idx, Ci, results):
    """(probA, probB) (P,): Platt's A, B of each pair on out-of-fold decision values."""
    rng = check_random_state(svc.random_state)
    A, B = np.empty(len(results)), np.empty(len(results))
    for p, (index, y_ab, _) in enumerate(results):
        f = _fold_decisions(svc, spec, X, index, y_ab, Ci[index], rng)
        A[p], B[p] = fit_platt(f, (y_ab > 0).astype(np.float64))
    return A, B


def couple(F, A, B, K):
    """P (m, K) from the pair decision values F (m, P), f_ab > 0 for class a."""
    R = np.clip(platt_proba(F, A[None, :], B[None, :]), MIN_PROB, 1.0 - MIN_PROB)  # (m, P)
    if K == 2:
        return np.column_stack([R[:, 0], 1.0 - R[:, 0]])
    r = np.zeros((F.shape[0], K, K))
    for p, (a, b) in enumerate(_ovo.pairs(K)):
        r[:, a, b] = R[:, p]
        r[:, b, a] = 1.0 - R[:, p]
    return couple_pairwise(r)
