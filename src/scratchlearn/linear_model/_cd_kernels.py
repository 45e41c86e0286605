"""Numba kernels of coordinate descent for the elastic net (see ``_coordinate_descent``).

P(w) = ½‖y − Xw‖² + λ₁‖w‖₁ + ½λ₂‖w‖², X Fortran-ordered, R = y − Xw the residual.

Deterministic by construction: no ``fastmath``, and every sum over samples is a sum of partial
sums over fixed blocks of ``BLOCK`` rows added in block order, whether the blocks are computed
by one thread or by many. Parallel regions (``parallel=True`` functions) are used per
coordinate only on tall data (``PARALLEL_MIN_ROWS``) and once per pass over X otherwise.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "BLOCK",
    "PARALLEL_MIN_ROWS",
    "centred_fortran",
    "enet_coordinate_descent",
    "enet_primal_and_gap",
    "weighted_means",
]


#: Rows per block of every reduction over samples. Fixed (it depends on nothing but itself), so
#: each sum is the same sequence of floating-point additions whatever the number of threads.
BLOCK = 4096
#: The per-coordinate dot and axpy run over row blocks in parallel from this many rows. A
#: parallel region costs a few microseconds to start; a 2n-flop dot over n = 65,536 rows takes
#: about 40 µs on one core, so from here on the threads win and below it they mostly wait.
PARALLEL_MIN_ROWS = 65_536


@numba.njit(cache=True)
def _dot_range(X, j, r, lo, hi):
    """Σ_{lo <= i < hi} X[i, j]·r[i] in eight interleaved partial sums s₀…s₇, added as
    ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)): a fixed order of additions (no
    fastmath), whatever the CPU; eight independent chains keep the adder busy."""
    x, v = X[lo:hi, j], r[lo:hi]
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    m = (hi - lo) // 8 * 8
    for i in range(0, m, 8):
        s0 += x[i] * v[i]
        s1 += x[i + 1] * v[i + 1]
        s2 += x[i + 2] * v[i + 2]
        s3 += x[i + 3] * v[i + 3]
        s4 += x[i + 4] * v[i + 4]
        s5 += x[i + 5] * v[i + 5]
        s6 += x[i + 6] * v[i + 6]
        s7 += x[i + 7] * v[i + 7]
    s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    for i in range(m, hi - lo):
        s += x[i] * v[i]
    return s


@numba.njit(cache=True)
def _dot_serial(X, j, r):
    """Xⱼᵀr (‖Xⱼ‖² when r is None): block partial sums added in block order, the same
    arithmetic as :func:`_dot`."""
    n = X.shape[0]
    total = 0.0
    for lo in range(0, n, BLOCK):
        if r is None:
            total += _dot_range(X, j, X[:, j], lo, min(n, lo + BLOCK))
        else:
            total += _dot_range(X, j, r, lo, min(n, lo + BLOCK))
    return total


@numba.njit(cache=True, parallel=True)
def _dot(X, j, r, part, parallel):
    """Xⱼᵀr, the blocks' partial sums computed by the threads when ``parallel``, then added
    in block order: bit-for-bit :func:`_dot_serial` whatever the number of threads."""
    n = X.shape[0]
    nb = part.size
    if not parallel:
        return _dot_serial(X, j, r)
    for b in numba.prange(nb):
        part[b] = _dot_range(X, j, r, b * BLOCK, min(n, (b + 1) * BLOCK))
    total = 0.0
    for b in range(nb):
        total += part[b]
    return total


@numba.njit(cache=True, parallel=True)
def _axpy(X, j, a, r, parallel):
    """r ← r − a·Xⱼ (element by element: the same result in any order)."""
    n = X.shape[0]
    if parallel:
        for b in numba.prange((n + BLOCK - 1) // BLOCK):
            lo, hi = b * BLOCK, min(n, (b + 1) * BLOCK)
            r[lo:hi] -= a * X[lo:hi, j]
    else:
        r -= a * X[:, j]


@numba.njit(cache=True, parallel=True)
def _all_dots(X, r, out):
    """out[j] = Xⱼᵀr (‖Xⱼ‖² when r is None) for every column, shared among the threads."""
    for j in numba.prange(X.shape[1]):
        out[j] = _dot_serial(X, j, r)


@numba.njit(cache=True, parallel=True)
def _residual(X, y, w):
    """R = y − Xw, each Rᵢ updated column by column in column order."""
    n, d = X.shape
    R = y.copy()
    for b in numba.prange((n + BLOCK - 1) // BLOCK):
        for j in range(d):
            if w[j] != 0.0:
                for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
                    R[i] -= X[i, j] * w[j]
    return R


@numba.njit(cache=True, parallel=True)
def weighted_means(A, s):
    """Column means Σᵢ sᵢAᵢⱼ / Σᵢ sᵢ, summed by blocks of rows in block order (deterministic,
    unlike a threaded BLAS product)."""
    n, d = A.shape
    nb = (n + BLOCK - 1) // BLOCK
    part = np.zeros((nb, d + 1))
    for b in numba.prange(nb):
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            for j in range(d):
                part[b, j] += s[i] * A[i, j]
            part[b, d] += s[i]
    total = np.zeros(d + 1)
    for b in range(nb):
        for j in range(d + 1):
            total[j] += part[b, j]
    return total[:d] / total[d]


@numba.njit(cache=True, parallel=True)
def centred_fortran(A, m, root):
    """(A − m)·diag(root) row-wise, as a new Fortran-ordered (column-contiguous) array: the
    centring, the √s row scaling and the copy to column order in one pass."""
    n, d = A.shape
    out = np.empty((d, n)).T
    for b in numba.prange((n + BLOCK - 1) // BLOCK):
        for j in range(d):
            for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
                out[i, j] = (A[i, j] - m[j]) * root[i]
    return out


@numba.njit(cache=True)
def _sq_sums(R, y, w):
    """(‖R‖², Rᵀy, ‖w‖², ‖w‖₁), the sums over samples by blocks in block order."""
    n = R.shape[0]
    R2 = Ry = 0.0
    for lo in range(0, n, BLOCK):
        r2 = ry = 0.0
        for i in range(lo, min(n, lo + BLOCK)):
            r2 += R[i] * R[i]
            ry += R[i] * y[i]
        R2 += r2
        Ry += ry
    w2 = w1 = 0.0
    for j in range(w.shape[0]):
        w2 += w[j] * w[j]
        w1 += abs(w[j])
    return R2, Ry, w2, w1


@numba.njit(cache=True)
def enet_primal_and_gap(w, X, y, R, l1, l2, positive, with_gap):
    """P(w) = ½‖R‖² + λ₁‖w‖₁ + ½λ₂‖w‖², and G = P(w) − D(κR) (module docstring) when
    ``with_gap`` (NaN otherwise: the gap costs a pass over X). λ₁ = 0 uses the ridge dual;
    λ₁ = λ₂ = 0 reports ‖XᵀR‖², the first-order condition of least squares."""
    R2, Ry, w2, w1 = _sq_sums(R, y, w)
    P = 0.5 * R2 + l1 * w1 + 0.5 * l2 * w2
    if not with_gap:
        return P, np.nan
    XtR = np.empty(X.shape[1])
    _all_dots(X, R, XtR)
    if l1 == 0.0:
        xtr2 = 0.0
        for j in range(XtR.shape[0]):
            xtr2 += XtR[j] ** 2
        if l2 == 0.0:
            return P, xtr2
        return P, R2 + 0.5 * l2 * w2 - Ry + xtr2 / (2.0 * l2)
    dual_norm = 0.0
    for j in range(XtR.shape[0]):
        v = XtR[j] - l2 * w[j]
        dual_norm = max(dual_norm, v if positive else abs(v))
    kappa = min(1.0, l1 / dual_norm) if dual_norm > 0.0 else 1.0
    gap = 0.5 * R2 * (1.0 + kappa * kappa) + l1 * w1 - kappa * Ry
    return P, gap + 0.5 * l2 * (1.0 + kappa * kappa) * w2


@numba.njit(cache=True)
def _xorshift(state):
    """One step of xorshift64 (the random coordinate order, without NumPy's global state)."""
    state ^= state << np.uint64(13)
    state ^= state >> np.uint64(7)
    state ^= state << np.uint64(17)
    return state


@numba.njit(cache=True)
def enet_coordinate_descent(
    w, X, y, l1, l2, max_iter, tol, positive, random, seed, objective, gaps, parallel
):
    """Minimise P(w) = ½‖y − Xw‖² + λ₁‖w‖₁ + ½λ₂‖w‖² in place, one coordinate at a time:
    wⱼ ← S(Xⱼᵀ(R + wⱼXⱼ), λ₁) / (‖Xⱼ‖² + λ₂) with the residual R kept up to date.

    X must be Fortran-ordered (columns contiguous). ``objective[t]`` and ``gaps[t]`` receive
    P and G at the start (t = 0) and after sweep t (G is NaN where it was not evaluated).
    ``parallel``: the per-coordinate dot and axpy use the threads (results are the same either
    way). Returns (gap, sweeps, converged).
    """
    n, d = X.shape
    part = np.empty((n + BLOCK - 1) // BLOCK)
    state = np.uint64(seed) | np.uint64(1)
    norms = np.empty(d)
    _all_dots(X, None, norms)
    R = _residual(X, y, w)
    y2 = _sq_sums(y, y, w)[0]
    tol_gap = tol * y2
    P, gap = enet_primal_and_gap(w, X, y, R, l1, l2, positive, True)
    objective[0], gaps[0] = P, gap
    if gap <= tol_gap:
        return gap, 0, True
    for it in range(max_iter):
        w_max = dw_max = 0.0
        for f in range(d):
            j = f
            if random:
                state = _xorshift(state)
                j = np.int64(state % np.uint64(d))
            if norms[j] == 0.0:
                continue
            w_old = w[j]
            z = _dot(X, j, R, part, parallel) + w_old * norms[j]
            if positive and z < 0.0:
                w_new = 0.0
            else:
                w_new = np.sign(z) * max(abs(z) - l1, 0.0) / (norms[j] + l2)
            if w_new != w_old:
                _axpy(X, j, w_new - w_old, R, parallel)
                w[j] = w_new
            dw_max = max(dw_max, abs(w_new - w_old))
            w_max = max(w_max, abs(w_new))
        check = w_max == 0.0 or dw_max / w_max <= tol or it == max_iter - 1
        P, g = enet_primal_and_gap(w, X, y, R, l1, l2, positive, check)
        objective[it + 1], gaps[it + 1] = P, g
        if check:
            gap = g
            if gap <= tol_gap:
                return gap, it + 1, True
    return gap, max_iter, False
