"""Compiled kernels of k-means: one Lloyd pass and one Elkan iteration (both threaded).

Symbols: ``X`` (n, d) the (centred) data, ``w`` (n,) sample weights, ``C`` (k, d) the centres
μ₁..μ_k, ``labels`` (n,) the assignment c(i).

:func:`lloyd_pass` is the E-step and the sufficient statistics of the M-step in one sweep over
the rows::

    c(i) = argmin_j ‖xᵢ − μ_j‖² = argmin_j (‖μ_j‖² − 2 xᵢ·μ_j)       (‖xᵢ‖² is common to all j)
    S_j = Σ_{c(i)=j} wᵢ xᵢ,   W_j = Σ_{c(i)=j} wᵢ,   J = Σᵢ wᵢ ‖xᵢ − μ_{c(i)}‖²

The rows are cut into chunks of 256; each thread takes a contiguous run of chunks and
accumulates its own partial S, W, J, added at the end in thread order, so a fit is
deterministic for a given thread count. Per chunk the inner products xᵢ·μ_j come from one small
matrix product (256, d) @ (d, k) (BLAS; measured 1.25 times faster than (k, d) @ (d, 256) for
k = 8 and d = 20 with OpenBLAS on one thread; the argmin then reads each row's k products
contiguously). Its right factor −2Cᵀ is stored as a C-ordered (d, k) array, not read as the
transpose of the (k, d) centres: OpenBLAS (0.3.30, scipy's build) takes another kernel for
the two layouts, and on the 391 products of a pass over 100,000 × 20 (k = 8, one thread) the
stored one took 0.86 ms against 1.5-2.4 ms (0.3-0.73 of the time for d = 2 to 100 and k = 3
to 50, the same for d = 784 or k = 256); a Lloyd fit there went from 1.03 to 0.81 of
scikit-learn's, which reads the centres transposed. J is computed one of
three ways (``j_mode``):

* ``J_NONE``: not at all (``predict`` needs only the labels);
* ``J_EXPANDED``: ‖xᵢ‖² + min_j(‖μ_j‖² − 2xᵢ·μ_j), free once ‖xᵢ‖² is known (``x_sq``); each
  term carries an absolute error of about (d + 2)·ε·(‖xᵢ‖² + ‖μ‖²), so it serves the per-iteration
  history of the centred data, not the reported inertia;
* ``J_DIRECT``: Σ_f (x_if − μ_f)², no cancellation: the reported ``inertia_`` and ``score``.

A CSR ``X`` (SciPy sparse) goes to :func:`_lloyd_rows_csr`, the same pass over the stored
entries only: xᵢ·μ_j = Σ_{f stored} x_if μ_jf (O(nnzᵢ·k) per row, no dense copy), the same
argmin of ‖μ_j‖² − 2xᵢ·μ_j, and J_DIRECT in the form that needs only the stored entries,

    ‖xᵢ − μ‖² = Σ_{f stored} (x_if − μ_f)² + (‖μ‖² − Σ_{f stored} μ_f²)

(the second term is Σ over the row's zero columns of μ_f², computed by difference: absolute
error ≤ (nnzᵢ + 1)·ε·‖μ‖², clipped at 0). Sparse rows are not centred (``x_shift`` is refused):
centring would fill them in.

:func:`elkan_pass` is one iteration of Elkan's (2003) algorithm: the same c(i), S, W and J,
with the distances ‖xᵢ − μ_j‖ that the triangle inequality proves cannot win skipped by lower
bounds l_{ij} ≤ ‖xᵢ − μ_j‖ (k per row, moved by the centres' shifts inside the pass) and the
half distances between centres. Each distance is direct (Σ_f (x_if − μ_jf)², no cancellation),
one row at a time (a row needs about one distance besides its own centre's once the centres
settle: a matrix product of all k would do k); rows are split over threads as in
:func:`lloyd_pass`. Elkan's upper bound uᵢ ≥ ‖xᵢ − μ_{c(i)}‖ is made exact at the start of
every pass, one distance per row: J needs that distance anyway, and the exact uᵢ closes more
centres than a bound carried from the last pass (measured: a fit as fast or faster on
100,000 × 20 and 300,000 × 5, with no structure or in 8 blobs), so no upper bound is stored.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
import scipy.sparse as sp

__all__ = ["lloyd_pass", "elkan_pass", "canonical_csr", "J_NONE", "J_EXPANDED", "J_DIRECT"]

CHUNK = 256  # rows per block of inner products: the (k, 256) block stays in cache
MIN_ROWS_PER_THREAD = 8192  # a default pass wakes a thread only for this much work (lloyd_pass)
J_NONE, J_EXPANDED, J_DIRECT = 0, 1, 2


def lloyd_pass(
    X,
    w,
    C,
    labels,
    S,
    W,
    update,
    j_mode=J_DIRECT,
    x_sq=None,
    n_threads=None,
    x_shift=None,
    changed=None,
    nonfinite=None,
):
    """Assign each row to its nearest centre; fill S (k, d), W (k,) when ``update``; return J
    (0.0 for ``J_NONE``; ``x_sq`` = ‖xᵢ‖² for ``J_EXPANDED``, summed row by row when None).

    ``changed`` (1,) int64, when given, receives the number of rows whose new c(i) differs from
    what ``labels`` held before the pass: 0 means the labels repeat (strict convergence), told
    while they are written, with no copy of the previous labels and no second pass to compare
    them (the comparison and the copy took 0.22 ms an iteration on 10⁶ rows, about 1% of a
    pass, and the copy held 4n bytes more).

    ``nonfinite`` (1,) int64, when given, receives the number of rows whose nearest squared
    distance min_j(‖μ_j‖² − 2xᵢ·μ_j) is not finite. With no zero in C, a row holding NaN or ±inf
    counts, whatever the BLAS: NaN·μ_jf is NaN and ±inf·μ_jf (μ_jf ≠ 0) is ±inf, so every one
    of the row's k products is NaN or infinite, and so is their minimum (a BLAS may skip the
    products with a zero μ_jf, where IEEE arithmetic would give NaN). So ``predict`` checks X
    only when the count is not 0 (a NaN or inf, or finite values whose products overflow) or C
    holds a zero: the pass that reads X anyway stands in for the pass of the finiteness test
    (18% of a predict on 10⁶ × 20, one thread).

    ``x_shift`` (d,): the rows are taken as xᵢ − x_shift, each chunk of 256 centred into a
    buffer of the thread (the Dask blocks are centred this way, with no centred copy of the
    block: the same numbers as centring first, without an allocation per pass).

    Rows are split over ``n_threads`` threads (at most one per chunk of rows), by default
    Numba's current thread count (read here: reading it inside compiled code would stop the
    kernel from being cached) with at least ``MIN_ROWS_PER_THREAD`` rows each: waking a
    thread costs about as much as a pass over 4,000 rows (measured on 2 shared cores, k = 8,
    d = 20: 1,024 rows 43 µs on one thread, 117-137 µs on two; 4,096 rows 150 µs on either;
    16,384 rows 0.56 ms on one, 0.37-0.52 ms on two), and mini-batch steps and predictions
    on a few rows are passes that small. Dask blocks pass 1 (the cluster's threads already run
    one block each).

    Thread t takes the contiguous run of chunks t·⌈m/T⌉ .. (t+1)·⌈m/T⌉ − 1 (m chunks) and the
    serial kernel :func:`_lloyd_rows` (which releases the GIL) adds its S, W, J into its own
    slot; the slots are then added in thread order, so the result depends on T only, not on
    which thread finishes first. (Python threads rather than a ``prange``: a parallel kernel
    compiles in seconds, this serial one in a fraction of that.)
    """
    C = np.ascontiguousarray(C, dtype=np.float64)
    x_sq = _EMPTY if x_sq is None else x_sq
    sparse = sp.issparse(X)
    if sparse and x_shift is not None:
        raise ValueError("lloyd_pass does not centre sparse rows (x_shift must be None).")
    if sparse and nonfinite is not None:
        raise ValueError("lloyd_pass counts non-finite rows of dense X only (nonfinite=None).")
    x_shift = _EMPTY if x_shift is None else np.asarray(x_shift, dtype=np.float64)
    n, (k, d) = X.shape[0], C.shape
    T = _thread_count(n, n_threads)
    S_t, W_t, J_t = (
        np.empty((T, k, d)),
        np.empty((T, k)),
        np.empty((T, 3)),
    )  # J, changes, non-finite
    update, j_mode = bool(update), int(j_mode)
    if sparse:
        X = canonical_csr(X)
        per_thread = (n + T - 1) // T

        def run(t):
            _lloyd_rows_csr(
                X.data,
                X.indices,
                X.indptr,
                w,
                C,
                np.empty(k),
                np.empty(k),
                labels,
                S_t[t],
                W_t[t],
                J_t[t],
                t * per_thread,
                min(n, (t + 1) * per_thread),
                update,
                j_mode,
                x_sq,
            )
    else:
        n_chunks = (n + CHUNK - 1) // CHUNK
        per_thread = (n_chunks + T - 1) // T

        Mt = np.ascontiguousarray(-2.0 * C.T)  # (d, k), the product's right factor: see below

        def run(t):
            G = np.empty((CHUNK, k))  # Gᵣⱼ = −2 x_r·μ_j, this thread's buffer
            Xb = np.empty((CHUNK if x_shift.size else 0, d))  # this thread's centred rows
            _lloyd_rows(
                X,
                w,
                C,
                Mt,
                np.empty(k),
                labels,
                S_t[t],
                W_t[t],
                J_t[t],
                G,
                Xb,
                t * per_thread,
                min(n_chunks, (t + 1) * per_thread),
                update,
                j_mode,
                x_sq,
                x_shift,
                changed is not None,
            )

    _run_threads(run, T)
    if changed is not None:
        changed[0] = int(J_t[:, 1].sum())  # counts below 2⁵³: exact in float64
    if nonfinite is not None:
        nonfinite[0] = int(J_t[:, 2].sum())
    return _merge(S_t, W_t, J_t[:, 0], S, W, update)


def _run_threads(run, T):
    """run(0), …, run(T − 1) on T threads: run(0) on the calling thread, the others on the
    pool's (the kernels release the GIL). The caller works while the pool's threads wake, so a
    pass waits for one wake-up fewer than if it only waited for T pool threads."""
    others = []
    if T > 1:
        pool = _executor(T - 1)
        others = [pool.submit(run, t) for t in range(1, T)]
    try:
        run(0)
    finally:
        for f in others:
            f.result()  # re-raises a thread's error (after every thread has stopped)


def _merge(S_t, W_t, J_t, S, W, update):
    """S = Σ_t S_t, W = Σ_t W_t (when ``update``) and J = Σ_t J_t, each added in thread order
    from 0.0, as the former parallel kernels reduced them: the result depends on T only."""
    if update:
        S[...] = 0.0
        W[...] = 0.0
        for t in range(len(J_t)):
            S += S_t[t]
            W += W_t[t]
    J = 0.0
    for t in range(len(J_t)):
        J += float(J_t[t])
    return J


_EMPTY = np.empty(0)
_POOL: list = []  # [executor, its thread count], made on the first pass with T > 1


def _executor(T):
    """A pool of at least T threads kept between passes (a fit makes hundreds of passes)."""
    if not _POOL or _POOL[1] < T:
        if _POOL:
            _POOL[0].shutdown(wait=False)
        _POOL[:] = [ThreadPoolExecutor(max_workers=T, thread_name_prefix="lloyd"), T]
    return _POOL[0]


def _thread_count(n, n_threads):
    """Threads for a pass over n rows: ``n_threads``, or Numba's current count with at least
    ``MIN_ROWS_PER_THREAD`` rows each; at most one per chunk of rows (see :func:`lloyd_pass`)."""
    if n_threads is None:
        T = min(numba.get_num_threads(), n // MIN_ROWS_PER_THREAD)
    else:
        T = min(int(n_threads), numba.config.NUMBA_NUM_THREADS)
    return max(1, min(T, (n + CHUNK - 1) // CHUNK))


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def _lloyd_rows(
    X, w, C, Mt, c_sq, labels, S, W, J, G, Xb, first, stop, update, j_mode, x_sq, x_shift, count
):  # pragma: no cover - compiled
    """The chunks ``first`` .. ``stop`` − 1 of :func:`lloyd_pass`, serial: S (k, d), W (k,),
    J[0] are this thread's sums, J[1] the number of its rows whose label changed and J[2] the
    number whose nearest distance is not finite (all overwritten); Mt = −2Cᵀ (d, k); c_sq (k,)
    receives ‖μ_j‖², G (256, k) the products −2xᵣ·μ_j of a chunk (scaling by −2 is exact, so
    ‖μ_j‖² + Gᵣⱼ has the bits of ‖μ_j‖² − 2xᵣ·μ_j, one multiplication fewer per entry), Xb
    (256, d) its centred rows when ``x_shift`` is given. ``count``: J[1] counts the changed
    labels (else 0, and the previous labels are not read: 1.7-1.9% of a predict pass on 10⁶ ×
    20, one thread)."""
    n, d = X.shape
    shifted, have_sq = x_shift.size > 0, x_sq.size > 0
    k = C.shape[0]
    # loops, not np.zeros or array expressions: each of those is a Numba implementation to
    # compile on a first call
    for j in range(k):
        W[j] = 0.0
        for f in range(d):
            S[j, f] = 0.0
    for j in range(k):
        c_sq[j] = 0.0
        for f in range(d):
            c_sq[j] += C[j, f] * C[j, f]
    J_loc, changes = 0.0, 0  # changes: rows whose label differs from the one labels held
    nonfinite = 0  # rows whose best is NaN or ±inf (see lloyd_pass)
    for chunk in range(first, stop):
        a, b = chunk * CHUNK, min(n, (chunk + 1) * CHUNK)
        if shifted:
            for r in range(b - a):
                for f in range(d):
                    Xb[r, f] = X[a + r, f] - x_shift[f]
            xs = Xb[: b - a]
        else:
            xs = X[a:b]
        np.dot(xs, Mt, G[: b - a])  # Gᵣⱼ = −2 x_r·μ_j
        for r in range(b - a):
            i = a + r
            c = 0
            best = c_sq[0] + G[r, 0]
            for j in range(1, k):
                dist = c_sq[j] + G[r, j]
                if dist < best:
                    best, c = dist, j
            if count:
                changes += labels[i] != c
            nonfinite += not (best - best == 0.0)  # False for NaN and ±inf alone
            labels[i] = c
            if j_mode == 1:  # J_EXPANDED
                if have_sq:
                    sq = x_sq[i]
                else:
                    sq = 0.0
                    for f in range(d):
                        sq += xs[r, f] * xs[r, f]
                J_loc += w[i] * max(sq + best, 0.0)
            elif j_mode == 2:  # J_DIRECT
                r2 = 0.0
                for f in range(d):
                    diff = xs[r, f] - C[c, f]
                    r2 += diff * diff
                J_loc += w[i] * r2
        if update:
            _add_to_sums(xs, w, labels, a, S, W)
    J[0] = J_loc
    J[1] = changes
    J[2] = nonfinite


@numba.njit(nogil=True, cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _add_to_sums(xs, w, labels, a, S, W):  # pragma: no cover - compiled
    """S_c += wᵢ xᵢ and W_c += wᵢ, c = c(i), for the rows i = a + r of a chunk ``xs``, in row
    order. A loop of its own after the chunk's argmin, rather than inside it: the compiler
    keeps its few values in registers (measured about 3% of a Lloyd pass, d = 20)."""
    d = xs.shape[1]
    for r in range(xs.shape[0]):
        i = a + r
        c = labels[i]
        wi = w[i]
        W[c] += wi
        for f in range(d):
            S[c, f] += wi * xs[r, f]


def canonical_csr(X):
    """X as a float64 CSR matrix with sorted, unique column indices per row (a copy only when
    it is not already one): the kernels read ``data``, ``indices``, ``indptr`` directly."""
    X = sp.csr_matrix(X, dtype=np.float64) if X.format != "csr" or X.dtype != np.float64 else X
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def _lloyd_rows_csr(
    data, indices, indptr, w, C, c_sq, g, labels, S, W, J, first, stop, update, j_mode, x_sq
):  # pragma: no cover - compiled
    """:func:`_lloyd_rows` for the rows ``first`` .. ``stop`` − 1 of a CSR X (``data``,
    ``indices``, ``indptr``), rows not shifted; g (k,) receives gⱼ = xᵢ·μ_j."""
    k, d = C.shape[0], C.shape[1]
    have_sq = x_sq.size > 0
    for j in range(k):
        c_sq[j] = 0.0
        for f in range(d):
            c_sq[j] += C[j, f] * C[j, f]
    for j in range(k):
        W[j] = 0.0
        for f in range(d):
            S[j, f] = 0.0
    J_loc, changes = 0.0, 0
    for i in range(first, stop):
        a, b = indptr[i], indptr[i + 1]
        for j in range(k):
            acc = 0.0
            for p in range(a, b):
                acc += data[p] * C[j, indices[p]]
            g[j] = acc
        c = 0
        best = c_sq[0] - 2.0 * g[0]
        for j in range(1, k):
            dist = c_sq[j] - 2.0 * g[j]
            if dist < best:
                best, c = dist, j
        changes += labels[i] != c
        labels[i] = c
        if j_mode == 1:  # J_EXPANDED
            if have_sq:
                sq = x_sq[i]
            else:
                sq = 0.0
                for p in range(a, b):
                    sq += data[p] * data[p]
            J_loc += w[i] * max(sq + best, 0.0)
        elif j_mode == 2:  # J_DIRECT on the stored entries, the zeros by difference
            r2, mu_nz = 0.0, 0.0
            for p in range(a, b):
                m = C[c, indices[p]]
                diff = data[p] - m
                r2 += diff * diff
                mu_nz += m * m
            J_loc += w[i] * (r2 + max(c_sq[c] - mu_nz, 0.0))
        if update:
            W[c] += w[i]
            for p in range(a, b):
                S[c, indices[p]] += w[i] * data[p]
    J[0] = J_loc
    J[1] = changes


def elkan_pass(X, w, C, p, labels, lower, S, W, n_threads=None):
    r"""One iteration of Elkan's k-means over the rows: the assignment at the centres ``C``
    that the bounds leave open, and the sums of the M-step; returns J at ``C``.

    ``labels`` (n,) hold c(i) from the last pass (zeros before the first), ``lower`` (n, k) the
    lower bounds l_{ij} ≤ ‖xᵢ − μ_j‖ (zeros before the first pass), ``p`` (k,) how far each
    centre moved since: pⱼ = ‖μ_j − μ_j^old‖ (zeros on the first pass). Per row:

    1. the bounds follow the move (triangle inequality): l_{ij} ← max(l_{ij} − pⱼ, 0);
    2. uᵢ = ‖xᵢ − μ_{c(i)}‖, computed exactly (one distance per row: J needs it);
    3. centre j ≠ c(i) is *open* when uᵢ > l_{ij} and uᵢ > ½‖μ_{c(i)} − μ_j‖ (otherwise
       ‖xᵢ − μ_j‖ ≥ uᵢ, by the bound or because ‖μ_c − μ_j‖ ≥ 2uᵢ); a row with no open centre
       keeps c(i) (Elkan's first test, uᵢ ≤ s_c = min_{j≠c} ½‖μ_c − μ_j‖, is the case where
       the second test closes every j);
    4. for each open j, in order, the tests are redone with the current c(i) and uᵢ, and if j
       is still open, l_{ij} = ‖xᵢ − μ_j‖ is computed, and j becomes c(i) when nearer
       (ties to the lower index).

    The same pass adds the M-step's sums and J over the rows with their new c(i):

    .. math::

        S_j = \sum_{c(i)=j} w_i x_i, \quad W_j = \sum_{c(i)=j} w_i, \quad
        J = \sum_i w_i u_i^2 = \sum_i w_i ‖x_i − μ_{c(i)}‖²

    (J in the direct form, each uᵢ² from one exact distance: no bound enters it). Rows are
    split into contiguous runs, one per thread (``n_threads``, by default Numba's count with
    at least ``MIN_ROWS_PER_THREAD`` rows each; at most one per 256 rows), each with its own
    S, W, J added in thread order: a fit is deterministic for a given thread count.
    """
    C = np.ascontiguousarray(C, dtype=np.float64)
    n, (k, d) = X.shape[0], C.shape
    T = _thread_count(n, n_threads)
    S_t, W_t, J_t = np.empty((T, k, d)), np.empty((T, k)), np.empty(T)
    per_thread = (n + T - 1) // T

    def run(t):
        first, stop = t * per_thread, min(n, (t + 1) * per_thread)
        _elkan_rows(
            X, w, C, p, labels, lower, np.empty((k, k)), S_t[t], W_t[t], J_t[t:], first, stop
        )

    _run_threads(run, T)
    return _merge(S_t, W_t, J_t, S, W, True)


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def _elkan_rows(
    X, w, C, p, labels, lower, half, S, W, J, first, stop
):  # pragma: no cover - compiled
    """The rows ``first`` .. ``stop`` − 1 of :func:`elkan_pass`, serial: S (k, d), W (k,), J[0]
    are this thread's sums (overwritten); half (k, k) receives ½‖μ_j − μ_j'‖."""
    d = X.shape[1]
    k = C.shape[0]
    for j in range(k):
        for jj in range(k):
            half[j, jj] = 0.5 * np.sqrt(_sq_dist(C, j, C, jj))
    for j in range(k):
        W[j] = 0.0
        for f in range(d):
            S[j, f] = 0.0
    J_loc = 0.0
    for i in range(first, stop):
        c = labels[i]
        u2 = _sq_dist(X, i, C, c)  # uᵢ² = ‖xᵢ − μ_c‖²
        u = np.sqrt(u2)
        n_open = 0
        for j in range(k):  # one loop without branches: it vectorises
            lij = lower[i, j] - p[j]
            lij = lij if lij > 0.0 else 0.0
            lower[i, j] = lij
            n_open += (u > lij) & (u > half[c, j]) & (j != c)
        if n_open > 0:
            lower[i, c] = u  # the bound of the centre the row may leave
            for j in range(k):
                if j == c or u <= lower[i, j] or u <= half[c, j]:
                    continue
                dj2 = _sq_dist(X, i, C, j)
                lower[i, j] = np.sqrt(dj2)
                if dj2 < u2 or (dj2 == u2 and j < c):
                    c, u2, u = j, dj2, lower[i, j]
            labels[i] = c
        J_loc += w[i] * u2
        W[c] += w[i]
        for f in range(d):
            S[c, f] += w[i] * X[i, f]
    J[0] = J_loc


@numba.njit(cache=True, fastmath={"reassoc", "contract"}, no_cfunc_wrapper=True)
def _sq_dist(X, i, C, j):  # pragma: no cover - compiled
    """‖xᵢ − μ_j‖², the sum reassociated so that it vectorises over the d features (only
    these two flags: no assumption about infinities or NaN)."""
    r2 = 0.0
    for f in range(X.shape[1]):
        diff = X[i, f] - C[j, f]
        r2 += diff * diff
    return r2
