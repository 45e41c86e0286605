"""One solve of symmetric positive definite systems, with one declared fallback policy.

Normal equations (least squares, ridge), Newton and IRLS steps (logistic regression, GLMs) all
solve A x = b with A = XᵀWX (+ a penalty) symmetric positive semi-definite. They share
:func:`spd_solve`: Cholesky when A is numerically positive definite, and otherwise a fallback
the caller declares, announced by a :class:`~scratchlearn.exceptions.LinAlgWarning` so that a
singular design is never hidden. No explicit inverse is ever formed.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..exceptions import LinAlgWarning

__all__ = ["spd_solve", "min_norm_lstsq"]

_JITTER_START = 1e-12  # first τ / max diag(A): below the rounding of A's largest entries
_JITTER_GROWTH = 100.0
_JITTER_TRIES = 12  # τ reaches 1e10·max diag(A): A + τI is then positive definite for sure


def min_norm_lstsq(A, b):
    """x = argmin ‖Ax − b‖ of least norm (SVD, LAPACK gelsd); singular values below
    max(A.shape)·ε·σ_max count as zero."""
    import scipy.linalg as sla  # here, not at import: see utils._sparse

    cond = max(A.shape) * np.finfo(np.float64).eps
    x, *_ = sla.lstsq(A, b, cond=cond, lapack_driver="gelsd", check_finite=False)
    return x


def _cholesky(A, b):
    """A = LLᵀ, then Lz = b and Lᵀx = z; None when the factorisation breaks down."""
    import scipy.linalg as sla

    try:
        factor = sla.cho_factor(A, lower=True, check_finite=False)
    except (sla.LinAlgError, ValueError):
        return None
    x = sla.cho_solve(factor, b, check_finite=False)
    return x if np.all(np.isfinite(x)) else None


def spd_solve(A, b, *, fallback="lstsq", what="the linear system"):
    """x = A⁻¹b for symmetric positive definite A, by Cholesky A = LLᵀ and two triangular solves.

    Parameters
    ----------
    A : ndarray (p, p), symmetric positive semi-definite. Not modified.
    b : ndarray (p,) or (p, k)
    fallback : {"lstsq", "jitter", "raise"} or callable
        What to do when the Cholesky factorisation fails (A singular or indefinite in floating
        point):

        - "lstsq": the minimum-norm solution of A x = b (SVD), the right answer for singular
          normal equations (collinear columns): among all minimisers, the shortest;
        - "jitter": Cholesky of A + τI with τ = 10⁻¹²·max diag(A), ×100 until it factors: the
          right answer for a Newton step, where any descent direction does;
        - "raise": :class:`numpy.linalg.LinAlgError` naming ``what``;
        - a callable ``f()`` returning x: the caller's own, better-conditioned route (e.g. the
          SVD of the data matrix itself rather than of its Gram matrix).

        Every fallback is announced with a :class:`~scratchlearn.exceptions.LinAlgWarning`.
    what : str
        Names the system in messages ("the normal equations XᵀWX w = XᵀWy").

    Returns
    -------
    x : ndarray like b
    """
    x = _cholesky(A, b)
    if x is not None:
        return x
    if fallback == "raise":
        raise np.linalg.LinAlgError(
            f"{what} is singular or not positive definite: the Cholesky factorisation failed."
        )
    if fallback == "jitter":
        scale = max(float(np.max(np.abs(np.diag(A)))), np.finfo(np.float64).tiny)
        tau = _JITTER_START * scale
        eye = np.eye(A.shape[0])
        for _ in range(_JITTER_TRIES):
            x = _cholesky(A + tau * eye, b)
            if x is not None:
                break
            tau *= _JITTER_GROWTH
        note = f"solved (A + τI) x = b with τ = {tau:.1e}"
    elif fallback == "lstsq":
        x = min_norm_lstsq(A, b)
        note = "took the minimum-norm least-squares solution"
    elif callable(fallback):
        x = fallback()
        note = "used the caller's fallback solver"
    else:
        raise ValueError(f"unknown fallback {fallback!r}")
    warnings.warn(
        f"{what} is singular or not positive definite in floating point (collinear or "
        f"constant columns?); {note}.",
        LinAlgWarning,
        stacklevel=3,
    )
    return x
