"""Numba kernels of coordinate descent for the elastic net (see ``_coordinate_descent``).

P(w) = ½‖y − Xw‖² + λ₁‖w‖₁ + ½λ₂‖w‖², X Fortran-ordered, R = y − Xw the residual. The kernels
see X through its transpose Xᵀ (C-ordered, a free view), so column j is the contiguous row
``Xt[j]`` and every vector has one type (1-d, C order): each kernel compiles once.

Deterministic by construction: every sum over samples is a sum of partial sums over fixed
blocks of ``BLOCK`` rows added in block order, whether the blocks are computed by one thread or
by many. Within a block, :func:`_dot_range` lets the compiler split the sum into SIMD lanes
(the only ``fastmath`` flag here, ``reassoc``): results are the same on every run and with any
number of threads, and may differ in the last bits between CPUs of different vector widths.

Compilation is paid on a user's first call, so the threads cost nothing to those who do not use
them: the sweep kernel takes ``part``, None for one thread or an array of per-block sums for
the threaded path, and Numba prunes the ``part is None`` branches by type before compiling.
Only a tall problem (``PARALLEL_MIN_ROWS``) compiles the two ``parallel=True`` kernels,
:func:`_dot_threads` and :func:`_axpy_threads`; everything else is one-threaded and shared.
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
    "enet_working_set_descent",
    "weighted_means",
]


#: Rows per block of every reduction over samples. Fixed (it depends on nothing but itself), so
#: each sum is the same sequence of floating-point additions whatever the number of threads.
BLOCK = 4096
#: The per-coordinate dot and axpy run over row blocks in parallel from this many rows. A
#: parallel region costs a few microseconds to start; a 2n-flop dot over n = 65,536 rows takes
#: about 40 µs on one core, so from here on the threads win and below it they mostly wait.
PARALLEL_MIN_ROWS = 65_536


@numba.njit(cache=True, fastmath={"reassoc"}, no_cfunc_wrapper=True)
def _dot_range(x, v, lo, hi):
    """Σ_{lo <= i < hi} xᵢvᵢ, the one sum whose order the compiler may choose: ``reassoc``
    lets it split the sum into SIMD lanes (on 1,000 rows 0.08 µs against 0.25 µs for eight
    scalar chains in a fixed order; the dot is most of a coordinate's cost). The order it picks
    depends on the CPU's vector width, never on the data, the run or the threads (every caller
    sums the same fixed blocks through this one function)."""
    x, v = x[lo:hi], v[lo:hi]  # indices from 0: no negative-index wraparound to test
    s = 0.0
    for i in range(hi - lo):
        s += x[i] * v[i]
    return s


@numba.njit(cache=True, parallel=True, no_cfunc_wrapper=True)
def _dot_threads(x, v, part):
    """xᵀv with the blocks' partial sums computed by the threads into ``part`` (one entry
    per block), then added in block order: bit-for-bit the one-thread :func:`_dot`."""
    n = x.shape[0]
    for b in numba.prange(part.shape[0]):
        lo = np.int64(b) * BLOCK
        part[b] = _dot_range(x, v, lo, min(n, lo + BLOCK))
    total = 0.0
    for b in range(part.shape[0]):
        total += part[b]
    return total


@numba.njit(cache=True, parallel=True, no_cfunc_wrapper=True)
def _axpy_threads(x, a, r):
    """r ← r − a·x with the row blocks shared among the threads."""
    n = r.shape[0]
    for b in numba.prange((n + BLOCK - 1) // BLOCK):
        lo = np.int64(b) * BLOCK
        for i in range(lo, min(n, lo + BLOCK)):
            r[i] -= a * x[i]


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _dot(x, v, part):
    """xᵀv, the blocks' partial sums added in block order: on one thread when ``part`` is
    None, else by :func:`_dot_threads` (the branch is pruned by type: see the module
    docstring)."""
    if part is not None:
        return _dot_threads(x, v, part)
    n = x.shape[0]
    total = 0.0
    for lo in range(0, n, BLOCK):
        total += _dot_range(x, v, lo, min(n, lo + BLOCK))
    return total


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _axpy(x, a, r, part):
    """r ← r − a·x element by element (the same result in any order or split): on one thread
    when ``part`` is None, else by :func:`_axpy_threads`."""
    if part is not None:
        _axpy_threads(x, a, r)
    else:
        for i in range(r.shape[0]):
            r[i] -= a * x[i]


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _weighted_sums(A, s, block, total):
    """total ← (Σᵢ sᵢAᵢ₁, …, Σᵢ sᵢA_id, Σᵢ sᵢ), each sum the blocks' partial sums (built in
    ``block``) added in block order."""
    n, d = A.shape
    for lo in range(0, n, BLOCK):
        block[:] = 0.0
        for i in range(lo, min(n, lo + BLOCK)):
            for j in range(d):
                block[j] += s[i] * A[i, j]
            block[d] += s[i]
        for j in range(d + 1):
            total[j] += block[j]


def weighted_means(A, s):
    """Column means Σᵢ sᵢAᵢⱼ / Σᵢ sᵢ, summed by blocks of rows in block order (deterministic,
    unlike a threaded BLAS product)."""
    total = np.zeros(A.shape[1] + 1)
    _weighted_sums(A, s, np.empty_like(total), total)
    return total[:-1] / total[-1]


#: Bytes of A's rows that one block of :func:`_centre_into` spans. Each column of the block is
#: read at a stride of one row, so a block of wide rows touched a page per row per column: at
#: 4,096 rows of 2,000 features (64 MB) the copy ran at half the memory's speed. Measured, one
#: thread: 5,000 × 2,000 62 → 31 ms, 10,000 × 1,000 49 → 25-29 ms, 20,000 × 500 52 → 28-32
#: ms; 100,000 × 50 and 200,000 × 200 unchanged (their blocks stay at 4,096 and 2,621 rows).
CENTRE_SPAN_BYTES = 4 << 20


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _centre_into(A, m, root, out_t, rows):
    """outᵀ ← ((A − m)·diag(root))ᵀ, block of ``rows`` rows by block, column by column (out_t
    is C-ordered whatever the shape, so this compiles once)."""
    n, d = A.shape
    for lo in range(0, n, rows):
        a, r, o = A[lo : lo + rows], root[lo : lo + rows], out_t[:, lo : lo + rows]
        for j in range(d):
            for i in range(a.shape[0]):  # from 0: no negative-index wraparound to test
                o[j, i] = (a[i, j] - m[j]) * r[i]


def centred_fortran(A, m, root):
    """(A − m)·diag(root) row-wise, as a new Fortran-ordered (column-contiguous) array: the
    centring, the √s row scaling and the copy to column order in one pass, by blocks of rows
    that span at most ``CENTRE_SPAN_BYTES`` (at least 256 rows, at most ``BLOCK``). Each
    entry is computed alone, so the block size changes no bit of the result."""
    out = np.empty(A.shape, order="F")
    rows = max(256, min(BLOCK, CENTRE_SPAN_BYTES // (8 * max(A.shape[1], 1))))
    _centre_into(A, m, root, out.T, rows)
    return out


@numba.njit(cache=True, no_cfunc_wrapper=True)
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


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _primal(w, y, R, l1, l2):
    """P(w) = ½‖R‖² + λ₁‖w‖₁ + ½λ₂‖w‖²."""
    R2, _, w2, w1 = _sq_sums(R, y, w)
    return 0.5 * R2 + l1 * w1 + 0.5 * l2 * w2


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _primal_and_gap(w, Xt, y, R, l1, l2, positive, part):
    """P(w) and G = P(w) − D(κR) (``_coordinate_descent``'s docstring), a pass over X. λ₁ = 0
    uses the ridge dual; λ₁ = λ₂ = 0 reports ‖XᵀR‖², the first-order condition of least
    squares."""
    R2, Ry, w2, w1 = _sq_sums(R, y, w)
    P = 0.5 * R2 + l1 * w1 + 0.5 * l2 * w2
    xtr2 = dual_norm = 0.0
    for j in range(Xt.shape[0]):
        xtr = _dot(Xt[j], R, part)
        xtr2 += xtr * xtr
        v = xtr - l2 * w[j]
        dual_norm = max(dual_norm, v if positive else abs(v))
    if l1 == 0.0:
        if l2 == 0.0:
            return P, xtr2
        return P, R2 + 0.5 * l2 * w2 - Ry + xtr2 / (2.0 * l2)
    kappa = min(1.0, l1 / dual_norm) if dual_norm > 0.0 else 1.0
    gap = 0.5 * R2 * (1.0 + kappa * kappa) + l1 * w1 - kappa * Ry
    return P, gap + 0.5 * l2 * (1.0 + kappa * kappa) * w2


def enet_primal_and_gap(w, X, y, R, l1, l2, positive):
    """(P(w), G(w)) for Fortran-ordered X and its residual R = y − Xw, on one thread."""
    return _primal_and_gap(w, X.T, y, R, l1, l2, bool(positive), None)


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _sweeps(
    w, Xt, y, R, norms, l1, l2, max_iter, tol, positive, random, seed, objective, gaps, part
):
    """The descent of :func:`enet_coordinate_descent` on Xt = Xᵀ, R = y on entry; ``part``
    None (one thread) or the per-block partial sums of the threaded path."""
    d = Xt.shape[0]
    state = np.uint64(seed) | np.uint64(1)
    for j in range(d):
        norms[j] = _dot(Xt[j], Xt[j], part)
        if w[j] != 0.0:
            _axpy(Xt[j], w[j], R, part)
    tol_gap = tol * _sq_sums(y, y, w)[0]
    P, gap = _primal_and_gap(w, Xt, y, R, l1, l2, positive, part)
    objective[0], gaps[0] = P, gap
    if gap <= tol_gap:
        return gap, 0, True
    for it in range(max_iter):
        w_max = dw_max = 0.0
        for f in range(d):
            j = f
            if random:  # one step of xorshift64: the order without NumPy's global state
                state ^= state << np.uint64(13)
                state ^= state >> np.uint64(7)
                state ^= state << np.uint64(17)
                j = np.int64(state % np.uint64(d))
            if norms[j] == 0.0:
                continue
            w_old = w[j]
            z = _dot(Xt[j], R, part) + w_old * norms[j]  # S(z, λ₁) / (‖Xⱼ‖² + λ₂):
            w_new = 0.0
            if z > l1:
                w_new = (z - l1) / (norms[j] + l2)
            elif z < -l1 and not positive:
                w_new = (z + l1) / (norms[j] + l2)
            if w_new != w_old:
                _axpy(Xt[j], w_new - w_old, R, part)
                w[j] = w_new
            dw_max = max(dw_max, abs(w_new - w_old))
            w_max = max(w_max, abs(w_new))
        check = w_max == 0.0 or dw_max / w_max <= tol or it == max_iter - 1
        if check:
            P, gap = _primal_and_gap(w, Xt, y, R, l1, l2, positive, part)
            objective[it + 1], gaps[it + 1] = P, gap
            if gap <= tol_gap:
                return gap, it + 1, True
        else:
            objective[it + 1], gaps[it + 1] = _primal(w, y, R, l1, l2), np.nan
    return gap, max_iter, False


def enet_coordinate_descent(
    w, X, y, l1, l2, max_iter, tol, positive, random, seed, objective, gaps, parallel
):
    """Minimise P(w) = ½‖y − Xw‖² + λ₁‖w‖₁ + ½λ₂‖w‖² in place, one coordinate at a time:
    wⱼ ← S(Xⱼᵀ(R + wⱼXⱼ), λ₁) / (‖Xⱼ‖² + λ₂) with the residual R kept up to date.

    X must be Fortran-ordered (columns contiguous). ``objective[t]`` and ``gaps[t]`` receive
    P and G at the start (t = 0) and after sweep t (G is NaN where it was not evaluated).
    ``parallel``: the per-coordinate dot and axpy use the threads (results are the same either
    way; the threaded kernels are compiled on the first such call). Returns (gap, sweeps,
    converged).
    """
    n, d = X.shape
    part = np.empty((n + BLOCK - 1) // BLOCK) if parallel else None
    R, norms = np.array(y, dtype=np.float64), np.empty(d)
    return _sweeps(
        w,
        X.T,
        y,
        R,
        norms,
        float(l1),
        float(l2),
        int(max_iter),
        float(tol),
        bool(positive),
        bool(random),
        int(seed),
        objective,
        gaps,
        part,
    )


# -- working sets, gap-safe screening and Anderson extrapolation ------------------------------
#: Working-set size of the first outer iteration (at least; then twice the support).
WS_MIN = 10
#: Anderson extrapolation from the last ``ANDERSON_K`` coordinate-descent epochs.
ANDERSON_K = 5
#: An inner solve stops when its largest optimality violation is below this fraction of the
#: outer one (the violation that chose the working set).
INNER_FRACTION = 0.3


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _violation(g, w, l1, l2, positive):
    """dist(gⱼ − λ₂wⱼ, λ₁∂|wⱼ|), how far wⱼ is from optimality (0 at the optimum): gⱼ = XⱼᵀR
    and the optimality condition is gⱼ − λ₂wⱼ ∈ λ₁∂|wⱼ| (∂|0| = [−1, 1], or (−∞, 1] with
    w >= 0)."""
    v = g - l2 * w
    if w > 0.0:
        return abs(v - l1)
    if w < 0.0:
        return abs(v + l1)
    return max(v - l1, 0.0) if positive else max(abs(v) - l1, 0.0)


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _anderson_weights(U, c):
    """c = z / Σz with (UᵀU) z = 1 (U (K, m): the K last differences of the iterates, one per
    row), by Gaussian elimination with partial pivoting on the K × K system; False (and c
    untouched) when the system is numerically singular."""
    K = U.shape[0]
    A = np.empty((K, K + 1))
    for a in range(K):
        for b in range(K):
            A[a, b] = _dot_range(U[a], U[b], 0, U.shape[1])
        A[a, K] = 1.0
    scale = 0.0
    for a in range(K):
        scale = max(scale, A[a, a])
    if scale == 0.0:
        return False
    for col in range(K):
        p = col
        for a in range(col + 1, K):
            if abs(A[a, col]) > abs(A[p, col]):
                p = a
        if abs(A[p, col]) <= 1e-12 * scale:
            return False
        for b in range(K + 1):
            A[col, b], A[p, b] = A[p, b], A[col, b]
        for a in range(col + 1, K):
            f = A[a, col] / A[col, col]
            for b in range(col, K + 1):
                A[a, b] -= f * A[col, b]
    z = np.empty(K)
    for a in range(K - 1, -1, -1):
        t = A[a, K]
        for b in range(a + 1, K):
            t -= A[a, b] * z[b]
        z[a] = t / A[a, a]
    total = 0.0
    for a in range(K):
        total += z[a]
    if total == 0.0 or not np.isfinite(total):
        return False
    for a in range(K):
        c[a] = z[a] / total
    return True


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _epoch(w, Xt, R, norms, ws, l1, l2, positive, part):
    """One cyclic pass of the coordinate update over the working set ``ws``; returns the
    largest violation (:func:`_violation`) met before each update, a free optimality
    measure of the point the pass started from."""
    kkt = 0.0
    for j in ws:
        if norms[j] == 0.0:
            continue
        w_old = w[j]
        g = _dot(Xt[j], R, part)
        kkt = max(kkt, _violation(g, w_old, l1, l2, positive))
        z = g + w_old * norms[j]  # S(z, λ₁) / (‖Xⱼ‖² + λ₂)
        w_new = 0.0
        if z > l1:
            w_new = (z - l1) / (norms[j] + l2)
        elif z < -l1 and not positive:
            w_new = (z + l1) / (norms[j] + l2)
        if w_new != w_old:
            _axpy(Xt[j], w_new - w_old, R, part)
            w[j] = w_new
    return kkt


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _try_anderson(w, Xt, y, R, ws, last, last_R, l1, l2, positive, part, R_try):
    """Anderson extrapolation w_e = Σₖ cₖ w⁽ᵏ⁾ of the last K + 1 iterates on the working set
    (``last`` (K + 1, |W|), oldest first, and their residuals ``last_R`` (K + 1, n)), c from
    :func:`_anderson_weights` on the differences Uₖ = w⁽ᵏ⁺¹⁾ − w⁽ᵏ⁾; kept (w and R updated in
    place) only if P(w_e) < P(w). Returns whether it was kept.

    R is affine in w and Σₖ cₖ = 1, so the extrapolated residual is the same combination of the
    stored ones, R_e = y − Xw_e = Σₖ cₖ R⁽ᵏ⁾: K passes over n rows, where rebuilding it from w
    would take |W| (Bertrand and Massias 2021 extrapolate Xw alike). With w >= 0, a wₑ,ⱼ < 0 is
    set to 0 and R_e corrected by +wₑ,ⱼXⱼ."""
    K = last.shape[0] - 1
    U = np.empty((K, last.shape[1]))
    for k in range(K):
        for i in range(last.shape[1]):
            U[k, i] = last[k + 1, i] - last[k, i]
    c = np.empty(K)
    if not _anderson_weights(U, c):
        return False
    R_try[:] = 0.0
    for k in range(K):
        ck, r = c[k], last_R[k + 1]
        for i in range(R_try.shape[0]):
            R_try[i] += ck * r[i]
    w_e = np.zeros(ws.shape[0])
    for i in range(ws.shape[0]):
        for k in range(K):
            w_e[i] += c[k] * last[k + 1, i]
        if positive and w_e[i] < 0.0:
            _axpy(Xt[ws[i]], -w_e[i], R_try, part)  # R_e ← R_e + wₑ,ⱼXⱼ
            w_e[i] = 0.0
    P_now = _primal(w, y, R, l1, l2)
    w_keep = w[ws].copy()
    w[ws] = w_e
    if _primal(w, y, R_try, l1, l2) < P_now:
        R[:] = R_try
        return True
    w[ws] = w_keep
    return False


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _working_sets(w, Xt, y, R, norms, l1, l2, max_iter, tol, positive, objective, gaps, part):
    """The working-set descent of :func:`enet_working_set_descent` on Xt = Xᵀ, R = y on entry.
    Counts epochs (passes over the working set) against ``max_iter``; ``objective[t]`` is P
    after epoch t, ``gaps[t]`` G where it was evaluated (at the start of each outer
    iteration), NaN elsewhere."""
    d = Xt.shape[0]
    for j in range(d):
        norms[j] = _dot(Xt[j], Xt[j], part)
    tol_gap = tol * _sq_sums(y, y, w)[0]
    g = np.empty(d)
    score = np.empty(d)
    screened = norms == 0.0  # a zero column is 0 at the optimum
    R_try = np.empty_like(R)
    it, gap = 0, np.inf
    while True:
        # R = y − Xw afresh over the support (|S| axpys, fewer than the d dots below): the
        # epochs' updates and the extrapolated residuals drift from it by rounding, and the
        # gap that stops the descent must be the true one
        R[:] = y
        for j in range(d):
            if w[j] != 0.0:
                _axpy(Xt[j], w[j], R, part)
        # the full pass: g = XᵀR, the gap G = P(w) − D(κR), the gap-safe sphere radius √(2G)
        R2, Ry, w2, w1 = _sq_sums(R, y, w)
        P = 0.5 * R2 + l1 * w1 + 0.5 * l2 * w2
        dual_norm = kkt_out = 0.0
        for j in range(d):  # every feature, screened or not: G is the full problem's gap
            g[j] = _dot(Xt[j], R, part) if norms[j] > 0.0 else 0.0
            v = g[j] - l2 * w[j]
            dual_norm = max(dual_norm, v if positive else abs(v))
            kkt_out = max(kkt_out, _violation(g[j], w[j], l1, l2, positive))
            if screened[j] and _violation(g[j], 0.0, l1, l2, positive) > 0.0:
                screened[j] = norms[j] == 0.0  # a rounding slip of the test: back in play
        kappa = min(1.0, l1 / dual_norm) if dual_norm > 0.0 else 1.0
        gap = 0.5 * R2 * (1.0 + kappa * kappa) + l1 * w1 - kappa * Ry
        gap += 0.5 * l2 * (1.0 + kappa * kappa) * w2
        objective[it], gaps[it] = P, gap
        if gap <= tol_gap:
            return gap, it, True
        if it == max_iter:
            return gap, it, False
        # gap-safe screening and the working-set score: the distance of the dual point κR
        # to the constraint of feature j, (λ₁ − κ|Xⱼᵀ R − λ₂wⱼ|) / √(‖Xⱼ‖² + λ₂)
        radius = np.sqrt(2.0 * max(gap, 0.0))
        n_support = n_free = 0
        for j in range(d):
            if screened[j]:
                score[j] = np.inf
                continue
            v = kappa * (g[j] - l2 * w[j])
            score[j] = (l1 - (v if positive else abs(v))) / np.sqrt(norms[j] + l2)
            if score[j] > radius:  # outside the sphere's reach: wⱼ* = 0
                screened[j] = True
                score[j] = np.inf
                if w[j] != 0.0:
                    _axpy(Xt[j], -w[j], R, part)
                    w[j] = 0.0
                continue
            n_free += 1
            if w[j] != 0.0:
                score[j] = -np.inf  # the support is always in the working set
                n_support += 1
        ws_size = min(n_free, max(WS_MIN, 2 * n_support))
        ws = np.sort(np.argsort(score, kind="mergesort")[:ws_size])
        # the subproblem on W by cyclic coordinate descent with Anderson extrapolation
        last = np.empty((ANDERSON_K + 1, ws_size))
        last_R = np.empty((ANDERSON_K + 1, R.shape[0]))
        inner_tol = INNER_FRACTION * kkt_out
        for e in range(max_iter - it):
            kkt_in = _epoch(w, Xt, R, norms, ws, l1, l2, positive, part)
            it += 1
            slot = e % (ANDERSON_K + 1)
            last[slot] = w[ws]
            last_R[slot] = R
            if slot == ANDERSON_K:
                _try_anderson(w, Xt, y, R, ws, last, last_R, l1, l2, positive, part, R_try)
            objective[it], gaps[it] = _primal(w, y, R, l1, l2), np.nan
            if kkt_in <= inner_tol or it == max_iter:
                break


def enet_working_set_descent(w, X, y, l1, l2, max_iter, tol, positive, objective, gaps, parallel):
    """Minimise P(w) = ½‖y − Xw‖² + λ₁‖w‖₁ + ½λ₂‖w‖² in place by working sets (Celer,
    Massias, Gramfort and Salmon 2018): the outer loop evaluates the duality gap G(w) (the
    same G and stopping rule G <= tol·‖y‖² as :func:`enet_coordinate_descent`), discards the
    features the gap-safe sphere proves zero, and picks a working set W of the features whose
    dual constraint is nearest to violation; the inner loop runs cyclic coordinate-descent
    epochs on W, extrapolated every K epochs (Anderson), until W's optimality violation is a
    fraction of the outer one. The symbols and formulas are in ``_coordinate_descent``'s
    docstring.

    X must be Fortran-ordered; ``objective`` and ``gaps`` hold ``max_iter + 1`` entries.
    Returns (gap, epochs, converged).
    """
    n, d = X.shape
    part = np.empty((n + BLOCK - 1) // BLOCK) if parallel else None
    R, norms = np.array(y, dtype=np.float64), np.empty(d)
    return _working_sets(
        w,
        X.T,
        y,
        R,
        norms,
        float(l1),
        float(l2),
        int(max_iter),
        float(tol),
        bool(positive),
        objective,
        gaps,
        part,
    )
