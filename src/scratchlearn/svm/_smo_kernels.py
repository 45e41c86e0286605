"""The SMO loop in Numba: kernel entries, the LRU row cache, working-set selection, shrinking.

Read :mod:`scratchlearn.svm._smo` first: it states the problem, the algorithm and the stopping
rule; this module is its inner loop, one ``@njit`` call per solve with no Python per iteration.

Layout. The l variables are permuted in place (as LIBSVM does) so that the active set is the
prefix ``0..n_active−1``; every per-variable array (``y``, ``p``, ``C``, ``alpha``, ``G``,
``G_bar``, ``idx``, ``perm``) is swapped together. The cache is keyed by *data row* (``idx[t]``),
not by variable, so swapping variables never touches it, and SVR's two variables per data row
share one row. A cached row holds the kernel values ``K(x_r, x_s)`` for all m data rows, NaN
where not yet computed; asking for row r over the active set computes only the missing entries
(this is how shrinking saves kernel evaluations). ``Q_ts = y_t y_s K(x_idx[t], x_idx[s])`` is
never stored: the loops multiply by the signs.

``kern`` is the tuple ``(X, sq, kind, gamma, coef0, degree)``; ``cache`` is
``(data, slot_of, row_of, last, valid, stats)`` with ``stats = [kernel evaluations, hits,
clock, epoch]``. ``valid[slot]`` says how complete a cached row is: ``FULL`` (every variable's
entry is there), the current ``epoch`` (complete over the current active set), or stale. The
epoch advances whenever the active set grows back to all l variables (shrinking only removes
variables, so a row complete for an active set stays complete for its subsets); a complete row
is served without looking at its entries.

Compilation (what a first fit waits for, with an empty Numba cache). Every function Numba
compiles on its own costs about half a second however small it is, so the helpers called from
one place, or tiny, are ``inline="always"``: merged into their caller's IR, compiled with it,
never on their own. ``kernel_row``, ``_select`` and ``_reconstruct`` are called from several
places and stay separate (inlining them measured slower), as do ``_dot`` and
``_exp_nonpositive``, whose fastmath flags must stay theirs. Every array is allocated by the
caller (:func:`._smo.smo_solve`, :func:`new_cache`), fresh and writable, so that ``smo_loop``
has a single signature and compiles none of Numba's allocators. The kernels only ever called
from compiled code are ``no_cpython_wrapper``: Numba compiles, with every kernel, a Python entry
point that unboxes its arguments (here tuples of up to seven arrays), unless told not to; without
them a cold fit writes 12% less machine code (0.73 MB instead of 0.83 MB of cached objects).
Every kernel is also ``no_cfunc_wrapper``: Numba would otherwise compile a C-callable wrapper
beside each one, which nothing calls, and link it into every caller's module (6% of the LLVM IR
a cold fit optimises; a cold SVC fit 5.6 → 5.35 s, median of four interleaved pairs).
For the same reason the running extrema are conditional expressions (``a = b if b > a else a``,
what Python's ``max(a, b)`` returns) and not the builtins ``max``/``min``, each of which Numba
compiles as an implementation of its own per argument type.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED = 0, 1, 2, 3, 4
KIND_CODES = {"linear": LINEAR, "poly": POLY, "rbf": RBF, "sigmoid": SIGMOID}
KIND_CODES["precomputed"] = PRECOMPUTED
TAU = 1e-12  # curvature used in place of a non-positive one (Fan, Chen & Lin 2005, WSS 2)
DELTA_SEPARABLE = 1e-6  # relative hull distance below which C = inf is declared unbounded
CONVERGED, MAX_ITER, UNBOUNDED = 0, 1, 2


@njit(cache=True, nogil=True, fastmath=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _dot(X, r, s):
    acc = 0.0
    for k in range(X.shape[1]):
        acc += X[r, k] * X[s, k]
    return acc


@njit(nogil=True, inline="always")
def _entry(kern, r, s):
    """K(x_r, x_s): x·z, (γ x·z + r)^degree, exp(−γ‖x − z‖²) or tanh(γ x·z + r) (see
    :class:`._smo.KernelSpec`); RBF through ‖x_r‖² + ‖x_s‖² − 2 x_r·x_s, as LIBSVM."""
    X, sq, kind, gamma, coef0, degree = kern
    if kind == PRECOMPUTED:
        return X[r, s]
    dot = _dot(X, r, s)
    if kind == LINEAR:
        return dot
    if kind == RBF:
        return np.exp(-gamma * (sq[r] + sq[s] - 2.0 * dot))
    if kind == POLY:
        return (gamma * dot + coef0) ** degree
    return np.tanh(gamma * dot + coef0)


_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10  # fdlibm's split
_MAGIC = 6755399441055744.0 + 1023.0  # 1.5·2⁵²: k + 1023 lands in the low mantissa bits


@njit(
    cache=True,
    nogil=True,
    fastmath={"nnan", "ninf", "nsz", "contract"},
    no_cpython_wrapper=True,
    no_cfunc_wrapper=True,
)
def _exp_nonpositive(v, bits, ib, c):
    """v[:c] = exp(v[:c]) for v <= 0 (clipped to [−708, 0]), in loops the compiler vectorises.

    exp(x) = 2ᵏ·exp(r), k = round(x/ln 2), r = x − k ln 2 with ln 2 in two parts (so r is exact
    to ~1 ulp; hence no reassociation in the fastmath flags) and |r| <= ln2/2; exp(r) by its
    Taylor series to r¹³ (remainder (ln2/2)¹⁴/14! ≈ 4e−18, below half an ulp); 2ᵏ written into
    the exponent bits. Error below 1 ulp over [−708, 0] against libm (checked on 2·10⁶ points).
    An RBF exponent is never positive except by rounding (then K = 1)."""
    for q in range(c):
        x = v[q] if v[q] > -708.0 else -708.0  # clipped to [−708, 0] (no min/max: see above)
        x = x if x < 0.0 else 0.0
        k = np.floor(x * 1.4426950408889634 + 0.5)
        r = (x - k * _LN2_HI) - k * _LN2_LO
        p = 1.0 / 6227020800.0
        p = p * r + 1.0 / 479001600.0
        p = p * r + 1.0 / 39916800.0
        p = p * r + 1.0 / 3628800.0
        p = p * r + 1.0 / 362880.0
        p = p * r + 1.0 / 40320.0
        p = p * r + 1.0 / 5040.0
        p = p * r + 1.0 / 720.0
        p = p * r + 1.0 / 120.0
        p = p * r + 1.0 / 24.0
        p = p * r + 1.0 / 6.0
        p = p * r + 0.5
        p = p * r + 1.0
        v[q] = p * r + 1.0
        bits[q] = k + _MAGIC
    for q in range(c):  # ib: bits read as int64 (a view made in Python: see new_cache)
        ib[q] = ib[q] << 52
    for q in range(c):
        v[q] *= bits[q]


@njit(nogil=True, inline="always")
def _fill(line, kern, r, idx, n, scratch):
    """Compute the missing (NaN) entries K(x_r, x_idx[t]), t < n; returns how many. RBF, the
    kernel that matters most for speed, gathers its missing entries, forms the exponents
    −γ(‖x_r‖² + ‖x_s‖² − 2x_r·x_s) and exponentiates them in one vectorised pass.
    ``scratch = (where, v, bits, ib)``, m entries each (a row has at most m missing entries;
    ``ib`` is ``bits`` read as int64)."""
    X, sq, kind, gamma, coef0, degree = kern
    if kind == RBF:
        where, v, bits, ib = scratch
        count = np.int64(0)
        for t in range(n):
            s = idx[t]
            if np.isnan(line[s]):
                line[s] = 0.0  # claimed: a repeated row index (SVR) is computed once
                where[count] = s
                count += 1
        for q in range(count):
            s = where[q]
            v[q] = -gamma * (sq[r] + sq[s] - 2.0 * _dot(X, r, s))
        _exp_nonpositive(v, bits, ib, count)
        for q in range(count):
            line[where[q]] = v[q]
        return count
    count = 0
    for t in range(n):
        s = idx[t]
        if np.isnan(line[s]):
            line[s] = _entry(kern, r, s)
            count += 1
    return count


def new_cache(n_rows, m):
    """The empty cache of ``n_rows`` rows of m entries and its scratch ``(where, v, bits, ib)``,
    allocated in Python (Numba's np.empty/np.full inside a kernel cost seconds to compile), ``ib``
    the int64 view of ``bits`` (a ``.view`` inside the kernel is one more implementation to
    compile)."""
    data = np.empty((n_rows, m))
    slot_of = np.full(m, -1, dtype=np.int64)
    row_of = np.full(n_rows, -1, dtype=np.int64)
    last = np.full(n_rows, -1, dtype=np.int64)
    valid = np.full(n_rows, -1, dtype=np.int64)
    stats = np.zeros(4, dtype=np.int64)
    bits = np.empty(m)
    scratch = (np.empty(m, dtype=np.int64), np.empty(m), bits, bits.view(np.int64))
    return (data, slot_of, row_of, last, valid, stats), scratch


FULL = np.iinfo(np.int64).max


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def kernel_row(kern, cache, scratch, r, idx, n):
    """The cached row of data row r with the entries of variables ``0..n−1`` filled.

    A miss takes the least recently used slot (LRU by a clock stamp; the scan over the slots
    costs far less than the m kernel entries that follow)."""
    data, slot_of, row_of, last, valid, stats = cache
    stats[2] += 1
    slot = slot_of[r]
    if slot >= 0:
        stats[1] += 1
        last[slot] = stats[2]
        if valid[slot] == FULL or (valid[slot] == stats[3] and n < idx.shape[0]):
            return data[slot]
    else:
        slot = np.int64(0)  # argmin of last, the first one on ties (a loop compiles faster)
        for q in range(1, last.shape[0]):
            if last[q] < last[slot]:
                slot = q
        if row_of[slot] >= 0:
            slot_of[row_of[slot]] = -1
        row_of[slot] = r
        slot_of[r] = slot
        for q in range(data.shape[1]):
            data[slot, q] = np.nan
    last[slot] = stats[2]
    line = data[slot]
    stats[0] += _fill(line, kern, r, idx, n, scratch)
    valid[slot] = FULL if n == idx.shape[0] else stats[3]
    return line


@njit(nogil=True, inline="always")
def _swap(arrays_f, arrays_i, a, b):
    for A in arrays_f:
        A[a], A[b] = A[b], A[a]
    for A in arrays_i:
        A[a], A[b] = A[b], A[a]


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _select(n, y, G, alpha, C, QD, kern, cache, scratch, idx):
    """WSS 2: i maximises −y_t G_t over I_up; j minimises −b²/a over the t in I_low with
    b = m − (−y_t G_t) > 0, a = K_ii + K_jj − 2K_ij (τ when a ≤ 0). Returns (i, j, m − M);
    j = −1 when no pair gives descent."""
    Gmax, i = -np.inf, -1
    for t in range(n):
        if y[t] > 0:
            if alpha[t] < C[t] and -G[t] >= Gmax:
                Gmax, i = -G[t], t
        elif alpha[t] > 0 and G[t] >= Gmax:
            Gmax, i = G[t], t
    Gmax2, j, best = -np.inf, -1, np.inf
    if i < 0:
        return i, j, Gmax + Gmax2
    Ki = kernel_row(kern, cache, scratch, idx[i], idx, n)
    for t in range(n):
        if y[t] > 0:
            if alpha[t] <= 0:
                continue
            b = Gmax + G[t]
            Gmax2 = G[t] if G[t] > Gmax2 else Gmax2
        else:
            if alpha[t] >= C[t]:
                continue
            b = Gmax - G[t]
            Gmax2 = -G[t] if -G[t] > Gmax2 else Gmax2
        if b > 0:
            a = QD[i] + QD[t] - 2.0 * Ki[idx[t]]
            obj = -b * b / (a if a > 0 else TAU)
            if obj <= best:
                j, best = t, obj
    return i, j, Gmax + Gmax2


@njit(nogil=True, inline="always")
def _pair_step(i, j, y, C, alpha, G, QD, Kij):
    """New (α_i, α_j): the two-variable subproblem minimised exactly and clipped to the box,
    as LIBSVM's Solver::Solve (a ≤ 0 is replaced by τ)."""
    Ci, Cj, ai, aj = C[i], C[j], alpha[i], alpha[j]
    a = QD[i] + QD[j] - 2.0 * Kij
    if a <= 0:
        a = TAU
    if y[i] != y[j]:
        delta = (-G[i] - G[j]) / a
        diff = ai - aj
        ai += delta
        aj += delta
        if diff > 0:
            if aj < 0:
                aj, ai = 0.0, diff
        elif ai < 0:
            ai, aj = 0.0, -diff
        if diff > Ci - Cj:
            if ai > Ci:
                ai, aj = Ci, Ci - diff
        elif aj > Cj:
            aj, ai = Cj, Cj + diff
    else:
        delta = (G[i] - G[j]) / a
        total = ai + aj
        ai -= delta
        aj += delta
        if total > Ci:
            if ai > Ci:
                ai, aj = Ci, total - Ci
        elif aj < 0:
            aj, ai = 0.0, total
        if total > Cj:
            if aj > Cj:
                aj, ai = Cj, total - Cj
        elif ai < 0:
            ai, aj = 0.0, total
    return ai, aj


@njit(nogil=True, inline="always")
def _add_row(G, coef, y, yr, Kr, idx, lo, hi):
    """G_t += coef · y_t y_r K(x_r, x_t) for t in lo..hi−1."""
    c = coef * yr
    for t in range(lo, hi):
        G[t] += c * y[t] * Kr[idx[t]]


@njit(nogil=True, inline="always")
def _add_rows(G, ci, Ki, cj, Kj, y, idx, n):
    """G_t += Q_ti Δα_i + Q_tj Δα_j over the active set (ci = y_i Δα_i, cj = y_j Δα_j)."""
    for t in range(n):
        s = idx[t]
        G[t] += y[t] * (ci * Ki[s] + cj * Kj[s])


@njit(nogil=True, inline="always")
def _init_gradient(y, C, alpha, G, G_bar, kern, cache, scratch, idx):
    """G = Qα + p and Ḡ = Σ_{α_s = C_s} C_s Q_{·s} for a (feasible) starting α, in place from
    G = p and Ḡ = 0."""
    l = y.shape[0]
    for s in range(l):
        if alpha[s] > 0:
            Ks = kernel_row(kern, cache, scratch, idx[s], idx, l)
            _add_row(G, alpha[s], y, y[s], Ks, idx, np.int64(0), l)
            if alpha[s] >= C[s]:
                _add_row(G_bar, C[s], y, y[s], Ks, idx, np.int64(0), l)


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _reconstruct(n, y, p, C, alpha, G, G_bar, kern, cache, scratch, idx):
    """Gradient of the shrunk variables n..l−1: G_t = Ḡ_t + p_t + Σ_{free s} α_s Q_ts."""
    l = y.shape[0]
    if n == l:
        return
    for t in range(n, l):
        G[t] = G_bar[t] + p[t]
    for s in range(n):
        if 0 < alpha[s] < C[s]:
            Ks = kernel_row(kern, cache, scratch, idx[s], idx, l)
            _add_row(G, alpha[s], y, y[s], Ks, idx, n, l)


@njit(nogil=True, inline="always")
def _be_shrunk(t, y, G, alpha, C, Gmax1, Gmax2):
    if alpha[t] >= C[t]:
        return -G[t] > (Gmax1 if y[t] > 0 else Gmax2)
    if alpha[t] <= 0:
        return G[t] > (Gmax2 if y[t] > 0 else Gmax1)
    return False


@njit(nogil=True, inline="always")
def _shrink(n, unshrink, tol, fl, it, kern, cache, scratch):
    """LIBSVM's do_shrinking: drop bound variables that the current extreme violations say
    will stay at their bound; once m − M ≤ 10 tol, reconstruct and restart from all l."""
    y, p, C, alpha, G, G_bar, QD = fl
    idx = it[0]
    Gmax1, Gmax2 = -np.inf, -np.inf  # max −y G over I_up, max y G over I_low
    for t in range(n):
        up, low = alpha[t] < C[t], alpha[t] > 0
        if y[t] > 0:
            if up:
                Gmax1 = -G[t] if -G[t] > Gmax1 else Gmax1
            if low:
                Gmax2 = G[t] if G[t] > Gmax2 else Gmax2
        else:
            if up:
                Gmax2 = -G[t] if -G[t] > Gmax2 else Gmax2
            if low:
                Gmax1 = G[t] if G[t] > Gmax1 else Gmax1
    if not unshrink and Gmax1 + Gmax2 <= 10.0 * tol:
        unshrink = True
        _reconstruct(n, y, p, C, alpha, G, G_bar, kern, cache, scratch, idx)
        n = y.shape[0]
        cache[5][3] += 1  # new epoch: rows complete for the old active set are stale
    t = np.int64(0)
    while t < n:
        if _be_shrunk(t, y, G, alpha, C, Gmax1, Gmax2):
            n -= 1
            while n > t:
                if not _be_shrunk(n, y, G, alpha, C, Gmax1, Gmax2):
                    _swap(fl, it, t, n)
                    break
                n -= 1
        t += 1
    return n, unshrink


@njit(nogil=True, inline="always")
def _rho(y, G, alpha, C):
    """LIBSVM's ρ: the mean of y_t G_t over free variables, else the midpoint of its bounds."""
    ub, lb, total, n_free = np.inf, -np.inf, 0.0, 0
    for t in range(y.shape[0]):
        yG = y[t] * G[t]
        if alpha[t] >= C[t]:
            if y[t] < 0:
                ub = yG if yG < ub else ub
            else:
                lb = yG if yG > lb else lb
        elif alpha[t] <= 0:
            if y[t] > 0:
                ub = yG if yG < ub else ub
            else:
                lb = yG if yG > lb else lb
        else:
            n_free += 1
            total += yG
    return total / n_free if n_free > 0 else 0.5 * (ub + lb)


@njit(nogil=True, inline="always")
def _far_from_separable(n, p, alpha, G, R):
    """For C = inf everywhere: True when the iterate proves that any primal solution has
    ‖w*‖ R > 2/δ (classification: the classes' hulls are closer than δR), by
    −pᵀα ≤ ‖w*‖ ‖w(α)‖ and ‖w(α)‖² = αᵀ(G − p) (see _smo.py)."""
    gain, w2 = 0.0, 0.0
    for t in range(n):
        gain -= p[t] * alpha[t]
        w2 += alpha[t] * (G[t] - p[t])
    return gain > 0 and DELTA_SEPARABLE * gain * R > 2.0 * np.sqrt(w2 if w2 > 0.0 else 0.0)


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _grow(h, k):
    """h, or h copied into an array twice as long when entry k does not fit (an element loop:
    a slice assignment would compile Numba's shape-mismatch error message, seconds of work).
    Float64 only (the iteration counts too, exact below 2⁵³): one signature to compile."""
    if k < h.shape[0]:
        return h
    out = np.empty(2 * h.shape[0])
    for q in range(h.shape[0]):
        out[q] = h[q]
    return out


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def smo_loop(kern, fl, it, cache, scratch, hist, tol, shrinking, max_iter, record_every):
    """Solve the SMO dual (see _smo.smo_solve) in place, from arrays the caller allocates.

    ``kern = (X, sq, ...)`` with ``sq`` to be filled with ‖x_r‖²; ``fl = (y, p, C, α, G, Ḡ,
    QD)`` with α the feasible start, G = p, Ḡ = 0, QD anything; ``it = (idx, perm)`` with
    perm = 0..l−1; ``cache, scratch`` from :func:`new_cache`; ``hist`` three float64 arrays
    of any positive length for the record. The variables are left permuted (variable t
    is the caller's ``perm[t]``); returns ``(ρ, f, k, status, m − M, (iterations,
    violations, objectives))``."""
    y, p, C, alpha, G, G_bar, QD = fl
    idx, perm = it
    l = y.shape[0]
    X, sq, kind = kern[0], kern[1], kern[2]
    if kind != PRECOMPUTED:
        for r in range(X.shape[0]):  # by the dot products' loop, so that K_RBF(x, x) is 1
            sq[r] = _dot(X, r, r)
    all_inf = True
    QD_max = 0.0  # max(max_t Q_tt, 0); element loops compile faster than QD.max()
    for t in range(l):
        QD[t] = _entry(kern, idx[t], idx[t])
        QD_max = QD[t] if QD[t] > QD_max else QD_max
        all_inf = all_inf and np.isinf(C[t])
    R = np.sqrt(QD_max)
    _init_gradient(y, C, alpha, G, G_bar, kern, cache, scratch, idx)
    f = 0.0
    for t in range(l):
        f += 0.5 * alpha[t] * (G[t] + p[t])
    h_it, h_v, h_f = hist
    # np.int64 / np.bool_ rather than literals: a literal argument makes Numba compile a
    # second specialisation of each callee that receives it
    n_rec, n, unshrink, status, k = np.int64(0), l, np.bool_(False), MAX_ITER, np.int64(0)
    counter = (l if l < 1000 else 1000) + 1
    violation = np.inf
    while max_iter < 0 or k < max_iter:
        counter -= 1
        if counter == 0:
            counter = l if l < 1000 else 1000
            if shrinking:
                n, unshrink = _shrink(n, unshrink, tol, fl, it, kern, cache, scratch)
            if all_inf and _far_from_separable(n, p, alpha, G, R):
                status = UNBOUNDED
                break
        i, j, violation = _select(n, y, G, alpha, C, QD, kern, cache, scratch, idx)
        if violation < tol or j < 0:
            _reconstruct(n, y, p, C, alpha, G, G_bar, kern, cache, scratch, idx)
            n = l
            cache[5][3] += 1  # new epoch: rows complete for the old active set are stale
            i, j, violation = _select(n, y, G, alpha, C, QD, kern, cache, scratch, idx)
            if violation < tol or j < 0:
                status = CONVERGED
                break
            counter = 1
        if k % record_every == 0:
            h_it, h_v, h_f = _grow(h_it, n_rec), _grow(h_v, n_rec), _grow(h_f, n_rec)
            h_it[n_rec], h_v[n_rec], h_f[n_rec] = k, violation, f
            n_rec += 1
        k += 1
        Ki = kernel_row(kern, cache, scratch, idx[i], idx, n)
        Kj = kernel_row(kern, cache, scratch, idx[j], idx, n)
        Kij = Ki[idx[j]]
        if y[i] != y[j] and QD[i] + QD[j] - 2.0 * Kij <= 0 and np.isinf(C[i]) and np.isinf(C[j]):
            status = UNBOUNDED  # f decreases linearly along e_i + e_j without bound
            break
        ai, aj = _pair_step(i, j, y, C, alpha, G, QD, Kij)
        dai, daj = ai - alpha[i], aj - alpha[j]
        Qij = y[i] * y[j] * Kij
        f += dai * G[i] + daj * G[j] + 0.5 * (dai * dai * QD[i] + daj * daj * QD[j])
        f += dai * daj * Qij
        up_i, up_j = alpha[i] >= C[i], alpha[j] >= C[j]
        alpha[i], alpha[j] = ai, aj
        _add_rows(G, dai * y[i], Ki, daj * y[j], Kj, y, idx, n)
        for s, was_up in ((i, up_i), (j, up_j)):
            if was_up != (alpha[s] >= C[s]):
                Ks = kernel_row(kern, cache, scratch, idx[s], idx, l)
                _add_row(G_bar, -C[s] if was_up else C[s], y, y[s], Ks, idx, np.int64(0), l)
    if status != CONVERGED:
        _reconstruct(n, y, p, C, alpha, G, G_bar, kern, cache, scratch, idx)
        n = l
        violation = _select(n, y, G, alpha, C, QD, kern, cache, scratch, idx)[2]
    f = 0.0
    for t in range(l):
        f += 0.5 * alpha[t] * (G[t] + p[t])
    h_it, h_v, h_f = _grow(h_it, n_rec), _grow(h_v, n_rec), _grow(h_f, n_rec)
    h_it[n_rec], h_v[n_rec], h_f[n_rec] = k, violation, f
    n_rec += 1
    rho = _rho(y, G, alpha, C)
    return rho, f, k, status, violation, (h_it[:n_rec], h_v[:n_rec], h_f[:n_rec])
