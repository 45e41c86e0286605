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

``kern`` is the tuple ``(X, sq, gram, rbf, poly, sigmoid)`` of :func:`new_kern`: ``gram`` is
True when X is a precomputed Gram matrix and None otherwise; of the last three, the kernel's
parameters, only the kernel's own is given and the others are None. ``cache`` is ``(data,
slot_of, slots, stats)``: ``slots`` the (3, slots) array of each slot's data row, last use and
validity (rows ``ROW``, ``LAST``, ``VALID``), ``stats = [kernel evaluations, hits, clock,
epoch]``. A slot's validity says how complete its cached row is: ``FULL`` (every variable's
entry is there), the current ``epoch`` (complete over the current active set), or stale. The
epoch advances whenever the active set grows back to all l variables (shrinking only removes
variables, so a row complete for an active set stays complete for its subsets); a complete row
is served without looking at its entries.

Compilation (what a first fit waits for, with an empty Numba cache). Numba compiles each
kernel in its own module and links its callees' modules into it, where they are optimised and
emitted again; an ``inline="always"`` helper is instead merged into its caller's IR at every
call site and typed and lowered there again. Counted in instructions (valgrind's callgrind, which
gives the same count on a busy machine; the process that imports scratchlearn and fits SVC on
the breast-cancer table), the cheapest layout is the one here: helpers of a dozen lines or more
are kernels of their own even when called from one place (``_max_violation``,
``_second_order``, ``_pair_step``, ``_add_rows``, ``_shrink``, ``_far_from_separable``:
merging five of them into ``smo_loop`` by ``inline="always"`` cost 10% more instructions,
writing three of them out in its body 6% more, as several of Numba's passes grow faster than
the function they run over), and only the few-line helpers are merged or written in place
(``_be_shrunk``; the fill of a kernel row, in ``kernel_row``; the record's thinning). No kernel
allocates (the record is thinned in place, not grown), ``** degree`` is written out (Numba
compiles its ``**`` as a kernel of its own), and ρ, f and the final record are computed in
Python by NumPy after the loop. ``_dot`` and ``_exp_nonpositive`` keep their own fastmath flags.
A fit compiles only its own kernel and only the tests it can reach: Numba decides a test
``x is not None`` of an argument that is None from the argument's type and drops the branch before
typing it, so the loops of the other kernels (the ``rbf``, ``poly`` and ``sigmoid`` arguments
of :func:`_transform`, the ``gram`` argument of :func:`kernel_row`) and the hard margin's test
(``all_inf`` of :func:`smo_loop`, None unless every C_t is infinite) are not compiled: 12%
fewer instructions in a cold SVC fit, each kernel its own cached specialisation. (Only an
argument's None is decided so: a tuple's entry is not, hence ``kern[2]`` passed apart.) The
per-variable arrays travel as the rows of two 2-D arrays, ``fl`` and ``it``, and the cache's
slot bookkeeping as one: a tuple of arrays is passed to a compiled callee as every field of
every array (seven for a vector), written out at each call site and in the entry point that
unboxes them, so fewer arrays compile into less code (1.5% fewer instructions). The gradient
of the shrunk variables is rebuilt at one place, the top of the loop, on request: LIBSVM calls its
reconstruct_gradient from three (the shrinking step's first unshrink, an optimal active set, the
stop), and a kernel called from three sites links the kernel-row code into one more module,
where it is optimised and emitted again, while an ``inline="always"`` one is typed and lowered
three times; the rebuild in place, once, is 5% fewer instructions than either. The three
requests leave the iteration with ``continue`` and come back to the step that follows the
rebuild (``held`` keeps the shrinking step's extremes from before it, ``counter`` skips the
shrinking step that the rebuilt iteration must not run), so the iterates, their order and the
cache's traffic are LIBSVM's.
Every array is allocated by the caller (:func:`._smo.smo_solve`, :func:`new_cache`), fresh and
writable, so that ``smo_loop`` has a single signature. The kernels only ever called from
compiled code are ``no_cpython_wrapper`` (Numba would compile, with every kernel, a Python entry
point that unboxes its arguments) and every kernel ``no_cfunc_wrapper`` (a C-callable wrapper
that nothing calls, linked into every caller's module). The running extrema are conditional
expressions (``a = b if b > a else a``, what Python's ``max(a, b)`` returns) and not the builtins
``max``/``min``, each of which Numba compiles as an implementation of its own per argument type.
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
RUNNING = -1  # the loop's status until it stops


@njit(cache=True, nogil=True, fastmath=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _dot(X, r, s):
    acc = 0.0
    for k in range(X.shape[1]):
        acc += X[r, k] * X[s, k]
    return acc


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


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _transform(v, c, r, where, bits, ib, sq, rbf, poly, sigmoid):
    """v[q] = K(x_r, x_s), s = where[q], q < c, from v[q] = x_r·x_s: exp(−γ‖x − z‖²) for
    ``rbf`` = γ, (γ x·z + r)^degree for ``poly`` = (γ, r, degree), tanh(γ x·z + r) for ``sigmoid``
    = (γ, r) (see :class:`._smo.KernelSpec`); the kernel's own is given, the others are None
    (all three None: linear or precomputed, v is K already). RBF through ‖x_r‖² + ‖x_s‖² − 2 x_r·x_s
    (``sq`` = ‖x‖²), as LIBSVM, exponentiated in one vectorised pass. One loop per kind over the
    entries, so that each vectorises; ``bits``, ``ib`` the scratch of :func:`_exp_nonpositive`."""
    if rbf is not None:
        for q in range(c):
            v[q] = -rbf * (sq[r] + sq[where[q]] - 2.0 * v[q])
        _exp_nonpositive(v, bits, ib, c)
    if poly is not None:
        gamma, coef0, degree = poly
        for q in range(c):  # (γ x·z + r)^degree by repeated squaring (Numba's ** would
            base, e, out = gamma * v[q] + coef0, degree, 1.0  # compile a kernel of its own)
            while e > 0:
                if e & 1:
                    out *= base
                base *= base
                e >>= 1
            v[q] = out
    if sigmoid is not None:
        gamma, coef0 = sigmoid
        for q in range(c):
            v[q] = np.tanh(gamma * v[q] + coef0)


def new_kern(X, kind, gamma, coef0, degree):
    """The tuple ``(X, sq, gram, rbf, poly, sigmoid)`` of the loop: X, the buffer ``sq`` that the
    loop fills with ‖x_r‖², ``gram`` True for a precomputed kernel (X is the Gram matrix) and
    None otherwise, and the kernel's parameters, given only to the kernel's own argument of
    :func:`_transform` (None to the others, so that a fit compiles only its kernel's loop)."""
    gamma, coef0, degree = float(gamma), float(coef0), int(degree)
    rbf = gamma if kind == RBF else None
    poly = (gamma, coef0, degree) if kind == POLY else None
    sigmoid = (gamma, coef0) if kind == SIGMOID else None
    gram = True if kind == PRECOMPUTED else None
    return X, np.zeros(X.shape[0]), gram, rbf, poly, sigmoid


def new_cache(n_rows, m):
    """The empty cache of ``n_rows`` rows of m entries (every slot's ``ROW``, ``LAST`` and
    ``VALID`` −1: unused) and its scratch ``(where, v, bits, ib)``,
    allocated in Python (Numba's np.empty/np.full inside a kernel cost seconds to compile), ``ib``
    the int64 view of ``bits`` (a ``.view`` inside the kernel is one more implementation to
    compile)."""
    data = np.empty((n_rows, m))
    slot_of = np.full(m, -1, dtype=np.int64)
    slots = np.full((3, n_rows), -1, dtype=np.int64)  # rows ROW, LAST, VALID
    stats = np.zeros(4, dtype=np.int64)
    bits = np.empty(m)
    scratch = (np.empty(m, dtype=np.int64), np.empty(m), bits, bits.view(np.int64))
    return (data, slot_of, slots, stats), scratch


FULL = np.iinfo(np.int64).max
ROW, LAST, VALID = 0, 1, 2  # the rows of the cache's ``slots``


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def kernel_row(kern, cache, scratch, r, idx, n, gram):
    """The cached row of data row r with the entries of variables ``0..n−1`` filled; ``gram``
    is ``kern[2]`` (see the module docstring).

    A miss takes the least recently used slot (LRU by a clock stamp; the scan over the slots
    costs far less than the m kernel entries that follow)."""
    data, slot_of, slots, stats = cache
    row_of, last, valid = slots[ROW], slots[LAST], slots[VALID]
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
    # the missing (NaN) entries of the variables 0..n−1: gathered, their dot products (Gram
    # entries if precomputed) formed, and the kernel applied to all of them at once
    X = kern[0]
    where, v, bits, ib = scratch  # m entries each: a row has at most m missing entries
    count = np.int64(0)
    for t in range(n):
        s = idx[t]
        if np.isnan(line[s]):
            line[s] = 0.0  # claimed: a repeated row index (SVR) is computed once
            where[count] = s
            count += 1
    if gram is not None:  # (None unless precomputed: this gather is not compiled)
        for q in range(count):
            v[q] = X[r, where[q]]
    else:
        for q in range(count):
            v[q] = _dot(X, r, where[q])
        _transform(v, count, r, where, bits, ib, kern[1], kern[3], kern[4], kern[5])
    for q in range(count):
        line[where[q]] = v[q]
    stats[0] += count
    valid[slot] = FULL if n == idx.shape[0] else stats[3]
    return line


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _max_violation(n, y, G, alpha, C):
    """``(i, m, −M)`` over the active set: i maximises −y_t G_t over I_up (the last one on ties;
    −1 when I_up is empty), m = −y_i G_i and −M = max of y_t G_t over I_low, so that m − M is
    the maximal violation. First-order quantities: no kernel entry is needed."""
    Gmax, Gmax2, i = -np.inf, -np.inf, -1
    for t in range(n):
        if y[t] > 0:
            if alpha[t] < C[t] and -G[t] >= Gmax:
                Gmax, i = -G[t], t
            if alpha[t] > 0:
                Gmax2 = G[t] if G[t] > Gmax2 else Gmax2
        else:
            if alpha[t] > 0 and G[t] >= Gmax:
                Gmax, i = G[t], t
            if alpha[t] < C[t]:
                Gmax2 = -G[t] if -G[t] > Gmax2 else Gmax2
    return i, Gmax, Gmax2


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _second_order(n, i, Gmax, y, G, alpha, C, QD, Ki, idx):
    """WSS 2's j: the t of I_low that minimises −b²/a, with b = m − (−y_t G_t) > 0 and
    a = K_ii + K_tt − 2K_it (τ when a ≤ 0), from i's kernel row Ki. −1 when no t gives b > 0,
    which a violation m − M > 0 rules out (its own t has b = m − M) unless an entry is NaN."""
    j, best = -1, np.inf
    for t in range(n):
        if y[t] > 0:
            if alpha[t] <= 0:
                continue
            b = Gmax + G[t]
        else:
            if alpha[t] >= C[t]:
                continue
            b = Gmax - G[t]
        if b > 0:
            a = QD[i] + QD[t] - 2.0 * Ki[idx[t]]
            obj = -b * b / (a if a > 0 else TAU)
            if obj <= best:
                j, best = t, obj
    return j


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _add_row(G, coef, y, yr, Kr, idx, lo, hi):
    """G_t += coef · y_t y_r K(x_r, x_t) for t in lo..hi−1."""
    c = coef * yr
    for t in range(lo, hi):
        G[t] += c * y[t] * Kr[idx[t]]


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _add_rows(G, ci, Ki, cj, Kj, y, idx, n):
    """G_t += Q_ti Δα_i + Q_tj Δα_j over the active set (ci = y_i Δα_i, cj = y_j Δα_j)."""
    for t in range(n):
        s = idx[t]
        G[t] += y[t] * (ci * Ki[s] + cj * Kj[s])


@njit(nogil=True, inline="always")
def _be_shrunk(t, y, G, alpha, C, Gmax1, Gmax2):
    if alpha[t] >= C[t]:
        return -G[t] > (Gmax1 if y[t] > 0 else Gmax2)
    if alpha[t] <= 0:
        return G[t] > (Gmax2 if y[t] > 0 else Gmax1)
    return False


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _shrink(n, fl, it, Gmax1, Gmax2):
    """LIBSVM's do_shrinking, given the active set's m = ``Gmax1`` and −M = ``Gmax2``: move the
    bound variables that these extreme violations say will stay at their bound past the end of
    the active set (every row of ``fl`` and ``it`` swapped together); returns the new n."""
    y, C, alpha, G = fl[0], fl[2], fl[3], fl[4]
    t = np.int64(0)
    while t < n:
        if _be_shrunk(t, y, G, alpha, C, Gmax1, Gmax2):
            n -= 1
            while n > t:
                if not _be_shrunk(n, y, G, alpha, C, Gmax1, Gmax2):
                    for A in fl:  # variables t and n trade places in every row
                        A[t], A[n] = A[n], A[t]
                    for B in it:
                        B[t], B[n] = B[n], B[t]
                    break
                n -= 1
        t += 1
    return n


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _far_from_separable(n, p, alpha, G, QD):
    """For C = inf everywhere: True when the iterate proves that any primal solution has
    ‖w*‖ R > 2/δ (classification: the classes' hulls are closer than δR, R² = max_t Q_tt), by
    −pᵀα ≤ ‖w*‖ ‖w(α)‖ and ‖w(α)‖² = αᵀ(G − p) (see _smo.py)."""
    gain, w2, R2 = 0.0, 0.0, 0.0
    for t in range(n):
        gain -= p[t] * alpha[t]
        w2 += alpha[t] * (G[t] - p[t])
    for t in range(QD.shape[0]):
        R2 = QD[t] if QD[t] > R2 else R2
    R = np.sqrt(R2)
    return gain > 0 and DELTA_SEPARABLE * gain * R > 2.0 * np.sqrt(w2 if w2 > 0.0 else 0.0)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def smo_loop(kern, fl, it, cache, scratch, H, tol, shrinking, max_iter, record_every, all_inf,
             diagonal):  # fmt: skip
    """Solve the SMO dual (see _smo.smo_solve) in place from α = 0, in arrays the caller
    allocates.

    ``kern`` from :func:`new_kern`; ``fl`` the (7, l) array of rows y, p, C, α, G, Ḡ, QD with
    α = 0, G = p, Ḡ = 0, and QD the diagonal Q_tt = K(x_t, x_t) when ``diagonal`` is None (RBF:
    1; precomputed: the Gram matrix's), anything when it is True (the loop forms it from
    ‖x_t‖², as the rows' entries are formed, so that the bits agree); ``it`` the (2, l) array of
    rows idx and perm, perm = 0..l−1; ``cache, scratch`` from :func:`new_cache`; ``H`` a (3, c)
    float64 array, c even and ≥ 2, for the record (every ``record_every`` iterations: the
    iteration, m − M and f; when H is full, every other column is dropped and the spacing
    doubles); ``all_inf``: True when every C_t is infinite (the hard margin's tests apply), None
    otherwise. The variables are left permuted (variable t is the caller's ``perm[t]``) and G
    complete; returns ``(k, status, m − M, n)``, n the columns of H recorded."""
    y, p, C, alpha, G, G_bar, QD = fl[0], fl[1], fl[2], fl[3], fl[4], fl[5], fl[6]
    idx = it[0]
    l = y.shape[0]
    X, sq = kern[0], kern[1]
    if kern[2] is None:  # not a Gram matrix
        for r in range(X.shape[0]):  # by the dot products' loop, so that K_RBF(x, x) is 1
            sq[r] = _dot(X, r, r)
    if diagonal is not None:  # (None when QD is given: this set-up is not compiled)
        for t in range(l):  # Q_tt = K(x_t, x_t) from x_t·x_t = ‖x_t‖², as the rows compute it
            QD[t] = sq[idx[t]]
        _transform(QD, l, np.int64(0), idx, scratch[2], scratch[3], sq, kern[3], kern[4], kern[5])
    f = 0.0  # at α = 0: G = p, Ḡ = 0
    stats = cache[3]  # stats[3], the epoch, advances when the active set grows back to all l
    # np.int64 / np.bool_ rather than literals: a literal argument makes Numba compile a
    # second specialisation of each callee that receives it
    n_rec, n, unshrink, status, k = np.int64(0), l, np.bool_(False), RUNNING, np.int64(0)
    stride = record_every
    counter = (l if l < 1000 else 1000) + 1
    violation, Gmax, Gmax2 = np.inf, np.inf, np.inf
    rebuild, held = np.bool_(False), np.bool_(False)
    while True:
        if rebuild or status != RUNNING:
            # G_t = Ḡ_t + p_t + Σ_{free s} α_s Q_ts for the shrunk t = n..l−1, then all l active
            # (LIBSVM's reconstruct_gradient): asked for by the shrinking step (once), by an
            # optimal active set and by the stop, all three here (see the module docstring)
            for t in range(n, l):
                G[t] = G_bar[t] + p[t]
            for s in range(n):
                if 0 < alpha[s] < C[s]:
                    Ks = kernel_row(kern, cache, scratch, idx[s], idx, l, kern[2])
                    _add_row(G, alpha[s], y, y[s], Ks, idx, n, l)
            n, rebuild = l, False
            stats[3] += 1
            if status != RUNNING:
                i, Gmax, Gmax2 = _max_violation(l, y, G, alpha, C)
                violation = Gmax + Gmax2
                break
        if max_iter >= 0 and k >= max_iter:
            status = MAX_ITER
            continue
        counter -= 1
        if counter == 0:
            counter = l if l < 1000 else 1000
            if shrinking:
                if not held:  # (held: the extremes from before the rebuild below)
                    i, Gmax, Gmax2 = _max_violation(n, y, G, alpha, C)
                if not unshrink and Gmax + Gmax2 <= 10.0 * tol:
                    # once: rebuild the shrunk gradients first, then come back here and shrink
                    # from all l with these extremes (LIBSVM's do_shrinking)
                    unshrink = rebuild = held = True
                    counter = 1
                    continue
                held = False
                n = _shrink(n, fl, it, Gmax, Gmax2)
            if all_inf is not None:  # (None unless every C_t is infinite: not compiled)
                if _far_from_separable(n, p, alpha, G, QD):
                    status = UNBOUNDED
                    continue
        i, Gmax, Gmax2 = _max_violation(n, y, G, alpha, C)
        violation = Gmax + Gmax2
        if not violation >= tol:  # (also when NaN) optimal on the active set
            if n == l:
                status = CONVERGED
                break
            rebuild = True  # then select again, over all l, in this same iteration
            counter = 2  # (the next iteration's shrinking step, not this one's)
            continue
        Ki = kernel_row(kern, cache, scratch, idx[i], idx, n, kern[2])
        j = _second_order(n, i, Gmax, y, G, alpha, C, QD, Ki, idx)
        if j < 0:  # only with NaN kernel entries (see _second_order): not converged
            status = MAX_ITER
            continue
        if k % stride == 0:
            if n_rec == H.shape[1]:  # the record is full: keep every other entry, and the
                n_rec, stride = n_rec // 2, 2 * stride  # next ones twice as far apart
                for q in range(n_rec):
                    H[0, q], H[1, q], H[2, q] = H[0, 2 * q], H[1, 2 * q], H[2, 2 * q]
            if k % stride == 0:
                H[0, n_rec], H[1, n_rec], H[2, n_rec] = k, violation, f
                n_rec += 1
        k += 1
        Kj = kernel_row(kern, cache, scratch, idx[j], idx, n, kern[2])
        Kij = Ki[idx[j]]
        if y[i] != y[j] and QD[i] + QD[j] - 2.0 * Kij <= 0 and np.isinf(C[i]) and np.isinf(C[j]):
            status = UNBOUNDED  # f decreases linearly along e_i + e_j without bound
            continue
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
                Ks = kernel_row(kern, cache, scratch, idx[s], idx, l, kern[2])
                _add_row(G_bar, -C[s] if was_up else C[s], y, y[s], Ks, idx, np.int64(0), l)
    return k, status, violation, n_rec
