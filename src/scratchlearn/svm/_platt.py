"""Probabilities from decision values: Platt scaling and pairwise coupling.

Symbols: ``n`` samples, ``f`` their decision values, ``t`` their binary targets, ``K`` classes.

Platt scaling (Platt 1999, in the numerically careful form of Lin, Lin & Weng 2007, which is
LIBSVM's ``sigmoid_train``) maps a binary SVM's decision value to a probability through a
sigmoid with two fitted parameters,

.. math::  P(t = 1 \\mid f) = \\frac{1}{1 + \\exp(A f + B)},

chosen by maximum likelihood on decision values that the model did not see in training (SVC
obtains them by internal cross-validation). With ``K > 2`` classes, SVC fits one sigmoid per
pair of classes, giving ``r_ij ≈ P(y = i | y ∈ {i, j}, x)``, and :func:`couple_pairwise` turns the
``K(K − 1)/2`` pairwise probabilities into one distribution over the K classes (Wu, Lin & Weng
2004, method 2).

References
----------
1. J. Platt, "Probabilistic outputs for support vector machines and comparisons to regularized
   likelihood methods", Advances in Large Margin Classifiers, 1999.
2. H.-T. Lin, C.-J. Lin and R. C. Weng, "A note on Platt's probabilistic outputs for support
   vector machines", Machine Learning 68, 2007.
3. T.-F. Wu, C.-J. Lin and R. C. Weng, "Probability estimates for multi-class classification by
   pairwise coupling", JMLR 5, 2004.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.special import expit

from ..exceptions import ConvergenceWarning

__all__ = ["couple_pairwise", "fit_platt", "platt_proba"]

# Lin, Lin & Weng (2007), Algorithm 1 (LIBSVM's constants).
_MIN_STEP = 1e-10  # smallest backtracking step before the line search gives up
_SIGMA = 1e-12  # added to the Hessian's diagonal, so that it is positive definite
_EPS = 1e-5  # stop when both gradient components are below this
_ARMIJO = 1e-4  # sufficient-decrease constant of the backtracking line search


def platt_proba(f, A, B):
    """``P(t = 1 | f) = 1/(1 + exp(A f + B))``, without overflow for any ``A f + B``.

    ``1/(1 + exp(z)) = expit(−z)``, and :func:`scipy.special.expit` never evaluates an
    exponential of a positive argument; an ``A f`` beyond the float range becomes ±inf, whose
    limit 0 or 1 is the right answer.
    """
    f = np.asarray(f, dtype=np.float64)
    with np.errstate(over="ignore"):
        z = A * f + B
    return expit(-z)


def _platt_objective(z, t):
    """The cross-entropy ``F = Σ −t log p − (1 − t) log(1 − p)`` at ``z = A f + B``.

    With ``p = 1/(1 + e^z)``: ``−log p = log(1 + e^z)`` and ``−log(1 − p) = log(1 + e^z) − z``,
    so each term is ``log(1 + e^z) − (1 − t) z``; ``logaddexp(0, z)`` is ``log(1 + e^z)``
    without overflow.
    """
    return float(np.sum(np.logaddexp(0.0, z) - (1.0 - t) * z))


def fit_platt(f, t, *, max_iter=100):
    """Fit Platt's sigmoid ``P(t = 1 | f) = 1/(1 + exp(A f + B))``; return ``(A, B)``.

    Parameters
    ----------
    f : array-like of shape (n,)
        Decision values (from data the classifier was not trained on).
    t : array-like of shape (n,)
        Binary labels: 1 for the positive class, 0 for the negative one.
    max_iter : int, default=100
        Newton iterations; a :class:`~scratchlearn.exceptions.ConvergenceWarning` is raised if
        they run out before the gradient is below ``1e-5``.

    Notes
    -----
    Platt's two improvements against overfitting the ``n`` decision values: the targets are not
    0 and 1 but the smoothed

    .. math::  t_+ = \\frac{N_+ + 1}{N_+ + 2}, \\qquad t_- = \\frac{1}{N_- + 2}

    (a Bayesian estimate under a uniform prior on the out-of-sample label; ``N_±`` count the
    positives and negatives), and the start ``A = 0``, ``B = \\log((N_- + 1)/(N_+ + 1))`` (the
    sigmoid that is constant at the smoothed prior). Lin, Lin & Weng then minimise the
    cross-entropy

    .. math::  F(A, B) = \\sum_i \\log(1 + e^{z_i}) - (1 - t_i) z_i, \\qquad z_i = A f_i + B,

    by Newton's method: the gradient is ``g = Σ (t_i − p_i) (f_i, 1)``, the Hessian
    ``H = Σ p_i (1 − p_i) (f_i, 1)(f_i, 1)ᵀ + σI`` (``σ = 10⁻¹²`` keeps it positive definite
    when all ``f_i`` are equal), and the step ``−H⁻¹g`` is halved until the Armijo condition
    ``F(new) < F + 10⁻⁴·step·gᵀd`` holds. Every quantity is evaluated in a form that cannot
    overflow. The iteration stops when ``|g₁|, |g₂| < 10⁻⁵``, or when the line search cannot
    decrease F any further (F's floating-point resolution is reached: no warning).
    """
    f = np.asarray(f, dtype=np.float64)
    t = np.asarray(t)
    n_pos = int(np.count_nonzero(t == 1))
    n_neg = t.shape[0] - n_pos
    t_smooth = np.where(t == 1, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))  # (n,)
    A, B = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))
    F = _platt_objective(A * f + B, t_smooth)
    for _ in range(max_iter):
        p = platt_proba(f, A, B)  # (n,)
        w = p * (1.0 - p)  # the Hessian's weights, (n,)
        H = np.array([[w @ (f * f) + _SIGMA, w @ f], [w @ f, w.sum() + _SIGMA]])
        g = np.array([(t_smooth - p) @ f, (t_smooth - p).sum()])
        if np.all(np.abs(g) < _EPS):
            return A, B
        d = -np.linalg.solve(H, g)
        step = 1.0
        while step >= _MIN_STEP:
            A_new, B_new = A + step * d[0], B + step * d[1]
            F_new = _platt_objective(A_new * f + B_new, t_smooth)
            if F_new < F + _ARMIJO * step * (g @ d):
                A, B, F = float(A_new), float(B_new), F_new
                break
            step /= 2.0
        else:  # no step decreases F: its floating-point resolution is reached
            return A, B
    warnings.warn(
        f"Platt scaling reached max_iter={max_iter} Newton iterations before its gradient fell "
        f"below {_EPS:g}; increase max_iter.",
        ConvergenceWarning,
        stacklevel=2,
    )
    return A, B


def couple_pairwise(r):
    """Class probabilities from pairwise ones (Wu, Lin & Weng 2004, method 2), exactly.

    Parameters
    ----------
    r : array-like of shape (n, K, K)
        ``r[:, i, j] ≈ P(y = i | y ∈ {i, j}, x)``, with ``r[:, j, i] = 1 − r[:, i, j]``; the
        diagonal is ignored.

    Returns
    -------
    P : ndarray of shape (n, K)
        Non-negative rows summing to 1.

    Notes
    -----
    Method 2 asks ``p`` to satisfy ``r_ji p_i ≈ r_ij p_j`` for every pair, in least squares:

    .. math::  \\min_p \\; \\tfrac12 \\sum_{i} \\sum_{j \\ne i} (r_{ji} p_i - r_{ij} p_j)^2
               = p^\\top Q p
               \\quad \\text{s.t.} \\; \\textstyle\\sum_i p_i = 1,

    with ``Q_ii = Σ_{j≠i} r_ji²`` and ``Q_ij = −r_ji r_ij``. The constraint ``p ≥ 0`` can be
    dropped: Wu, Lin & Weng show the minimiser satisfies it. The optimality (KKT) conditions are
    the bordered linear system

    .. math::  \\begin{pmatrix} Q & e \\\\ e^\\top & 0 \\end{pmatrix}
               \\begin{pmatrix} p \\\\ b \\end{pmatrix}
               = \\begin{pmatrix} 0 \\\\ 1 \\end{pmatrix},

    which is non-singular for any ``r`` with ``r_ij + r_ji = 1``: the null space of Q is at most
    one-dimensional and spanned by a vector of one sign, so it never meets ``eᵀp = 0``. We solve
    it directly (one batched LU of size K + 1 per sample) instead of LIBSVM's fixed-point
    iteration, which stops at ``max_i |(Qp)_i − pᵀQp| < 0.005/K``; the two therefore agree to
    that order, not to rounding. For ``K = 2`` the solution is ``p = (r_12, r_21)``.
    """
    r = np.asarray(r, dtype=np.float64)
    n, K = r.shape[0], r.shape[1]
    off = ~np.eye(K, dtype=bool)
    rt = np.where(off, np.swapaxes(r, 1, 2), 0.0)  # rt[:, i, j] = r_ji, zero diagonal
    Q = -rt * np.swapaxes(rt, 1, 2)  # Q_ij = −r_ji r_ij, (n, K, K)
    Q[:, ~off] = np.sum(rt**2, axis=2)  # Q_ii = Σ_j r_ji²
    M = np.zeros((n, K + 1, K + 1))
    M[:, :K, :K] = Q
    M[:, :K, K] = M[:, K, :K] = 1.0
    rhs = np.zeros((n, K + 1, 1))
    rhs[:, K] = 1.0
    P = np.linalg.solve(M, rhs)[:, :K, 0]  # (n, K)
    P = np.clip(P, 0.0, None)  # rounding may leave −ε where the exact p_i is 0
    return P / P.sum(axis=1, keepdims=True)
