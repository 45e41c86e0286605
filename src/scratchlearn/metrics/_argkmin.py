r"""Blocked nearest-neighbour reductions: the k smallest distances of each row, and the
neighbours within a radius, without ever holding the (n, m) distance matrix.

Symbols: queries ``X`` (n, d), indexed points ``Y`` (m, d), ``k`` neighbours, a tile of
``r`` query rows × ``c`` indexed rows, ``W`` worker threads, ``K' = min(m, k + e)`` candidates
per query (``e`` extra candidates, Euclidean family only, see below).

Squared Euclidean distances come from one matrix product per tile,

.. math:: ‖x − y‖² = ‖x‖² − 2\,x·y + ‖y‖²,

and since ``‖x‖²`` is the same for every candidate of a query, the ranking uses
``s(x, y) = ‖y‖² − 2x·y`` alone: the product ``(−2X_tile) Y_tileᵀ`` fills the tile and the
compiled selection adds ``‖y‖²`` as it reads it. Each query keeps a sorted buffer of its ``K'``
best ``(s, j)``; a value enters only when strictly below the buffer's last, and columns are read
in increasing ``j``, so among equal values the lower training index stays: ties are broken by
index, stably.

Cancellation. ``s`` is computed with an absolute error of about
``2(d + 3)ε(‖x‖² + ‖y‖²)`` (ε = 2⁻⁵², a rounded dot product of length d plus two additions), so
when ``‖x − y‖²`` is small compared with the squared norms (un-centred data), the *order* of two
candidates whose distances differ by less than that error is decided by rounding. Two
safeguards: the returned distances are never the expanded form but are recomputed exactly from
coordinate differences, ``Σₖ(xₖ − yₖ)²``, for the ``K'`` candidates; and the ``e`` extra
candidates are re-ranked by those exact values, so a true neighbour that rounding pushed just
past position ``k`` (but not past ``k + e``) is recovered. A neighbour pushed beyond ``k + e``
by rounding is still missed: centre the data, or use a coordinate-wise metric, when distances
are tiny compared with the norms.

Other metrics (Manhattan, Chebyshev, Minkowski p, Hamming, cosine, a callable) fill each tile
through :func:`scratchlearn.metrics.pairwise_distances` (its compiled coordinate loop or its
matrix product) and the same selection; their tile values are the returned distances.

Two ways to fill the tiles, one answer. For the Euclidean family with d ≤ ``COMPILED_MAX_D``
(64), each worker's whole search is one compiled call (:func:`_argkmin_euclidean`): tiles of
r = 64 queries × c indexed rows with ``r·c·d ≤ 2¹⁸``, a product small enough that OpenBLAS
computes it on the calling thread alone (it splits only products of more than 4 × 65,536
multiply-adds), so ``W`` workers use W cores rather than W times the BLAS's threads; the
selection, the exact recomputation and each row's final sort follow in the same call. The
radius search has its compiled path too (:func:`_radius_euclidean`): the same tiles, each
entry under the slackened threshold recomputed exactly, the hits grouped by query. With
``n_jobs=None`` the workers are Numba's thread count (``numba.get_num_threads()``: every core
unless limited), as scikit-learn's brute-force search uses every core whatever its ``n_jobs``.
Above d = 64 a tile would be under 64 columns wide; there, and for the other metrics, tiles of
up to 256 × 4096 come from NumPy (:func:`_argkmin_rows`), with ``n_jobs`` Python workers over
blocks of query rows (None: one, which drives the BLAS's own threads). Measured on 2,000
queries × 20,000 points, compiled over NumPy tiles (2-core VM): at one thread 0.88 (d = 20),
0.98 (32), 1.14 (48), 1.11 (64); at the default threads 0.3–0.93, since NumPy's products wait
for the BLAS's second thread at every tile (and ran at half speed in some processes). The
radius search on the same data, against scikit-learn, with 0.12% and 3.3% of the pairs within
r = 3.5 and 4.5: 0.80 and 1.14 at one thread, 0.87 and 1.04 at the default (NumPy's blocks of
whole rows: 2.4–4.7); each hit costs an exact recomputation that scikit-learn does not make. The
answer for a query does not depend on the number of workers: the blocks and the tiles are
fixed, and a worker takes whole blocks.

Memory bound. Besides the output (n·k indices and distances) and the m squared norms, each
worker holds one tile of ``r·c`` float64 values with ``8·r·c ≤ working_memory`` (MiB; by
default the library-wide setting ``scratchlearn.get_config()["working_memory"]``, 64 unless
changed, as :func:`~scratchlearn.metrics.pairwise_distances_chunked`; tiles are also capped at
256 × 4096 = 8 MiB so they stay near the cache), plus its ``r·K'`` candidate buffers. With
``W`` workers the peak is ``W·8(rc + rd) + 32·n·k + 16·W·r·K' + 16·W·r·K'·d + 8m`` bytes
(the −2X block; the output twice while the blocks are joined; the exact recomputation's
gathered candidates and their differences, two (r, K', d) arrays), never ``8nm``: measured
12.8 MiB by tracemalloc on 2,000 × 20,000 × 80 with k = 5 (bound 8.2 + 0.3 + 0.05 + 4.3 + 0.2
= 13.0 MiB, plus the queries; the full matrix would be 305 MiB). The compiled path holds less:
``W·8(rc + cd + rd) + 16·n·K' + 16·n·k + 8m`` bytes (its tiles are at most 64 × 4096 / d,
each with a copy of its c rows of Y transposed, 8·c·(r + d) ≤ working_memory, and the
candidates are recomputed in place). The last, narrower tile of a
row block reuses the first tile's memory. The radius search holds one block of whole rows
(``8·r·m ≤ working_memory``), its (r, m) boolean mask, plus the neighbours found; on the
compiled path (:func:`_radius_euclidean`, the same tiles as the k nearest), per worker five
arrays as long as the most hits of one block of 64 queries, at most twice that as they grow,
plus the neighbours found. ``tests/test_memory_budgets.py`` measures each in a subprocess.
"""

from __future__ import annotations

import numba
import numpy as np

from ..utils.parallel import n_workers, run_tasks
from ._pairwise_kernels import working_memory_bytes

__all__ = ["argkmin", "argkmin_reference", "radius_neighbors_blocked", "EUCLIDEAN_FAMILY"]

#: Metrics whose tiles come from the expanded form (and whose results are recomputed exactly).
EUCLIDEAN_FAMILY = ("euclidean", "l2", "sqeuclidean")

TILE_ROWS, TILE_COLS = 256, 4096  # cache-friendly cap on a tile (8 MiB of float64)
EXTRA_CANDIDATES = 8  # e: candidates re-ranked exactly beyond the k asked for
COMPILED_ROWS = 64  # r of the compiled path's tiles
SERIAL_PRODUCT = 2**18  # r·c·d at most this: OpenBLAS does not split the product over threads
COMPILED_MAX_D = SERIAL_PRODUCT // (COMPILED_ROWS * 64)  # tiles at least 64 columns wide: d ≤ 64
MIN_PAIRS_PER_THREAD = 2**20  # a thread is woken only for about a millisecond of work or more

_EPS = np.finfo(np.float64).eps


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def _push_tile(T, yy, j0, best_val, best_idx):  # pragma: no cover - compiled
    """Merge tile ``T`` (r, c) (plus ``yy[j]`` per column) into each row's sorted buffer.

    ``best_val[i]`` holds the ``K'`` smallest values seen so far in ascending order and
    ``best_idx[i]`` their column indices (offset by ``j0``); strict ``<`` keeps the lower index
    among equal values, since columns arrive in increasing order.
    """
    r, c = T.shape
    K = best_val.shape[1]
    for i in range(r):
        worst = best_val[i, K - 1]
        for j in range(c):
            v = T[i, j] + yy[j]
            if v < worst:
                pos = K - 1
                while pos > 0 and best_val[i, pos - 1] > v:
                    best_val[i, pos] = best_val[i, pos - 1]
                    best_idx[i, pos] = best_idx[i, pos - 1]
                    pos -= 1
                best_val[i, pos] = v
                best_idx[i, pos] = j0 + j
                worst = best_val[i, K - 1]


@numba.njit(nogil=True, cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sq_distance(X, i, Y, j):  # pragma: no cover - compiled
    """Σ_f (X[i, f] − Y[j, f])², in four running sums (f mod 4), added at the end: a chain of
    d dependent additions would take d times an addition's latency per candidate."""
    d = X.shape[1]
    s0 = s1 = s2 = s3 = 0.0
    f = 0
    while f + 4 <= d:
        a0, a1 = X[i, f] - Y[j, f], X[i, f + 1] - Y[j, f + 1]
        a2, a3 = X[i, f + 2] - Y[j, f + 2], X[i, f + 3] - Y[j, f + 3]
        s0 += a0 * a0
        s1 += a1 * a1
        s2 += a2 * a2
        s3 += a3 * a3
        f += 4
    while f < d:
        a0 = X[i, f] - Y[j, f]
        s0 += a0 * a0
        f += 1
    return (s0 + s1) + (s2 + s3)


@numba.njit(nogil=True, cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _transposed(Y, j0, j1, buf, at):  # pragma: no cover - compiled
    """Y[j0:j1]ᵀ copied into ``buf[at:]`` as a C-ordered (d, j1 − j0) array. OpenBLAS takes
    another kernel for (−2X) times a stored Yᵀ than for the transpose of C-ordered rows of Y:
    on tiles of 64 queries × c points (r·c·d = 2¹⁸) over 20,000 points, 0.25 against 0.37 ms
    (d = 3), 1.0 against 1.4 (d = 20), 3.3 against 5.6 (d = 64). The copy moves c·d numbers
    for the r·c·d multiply-adds of the product: 1/64 of its work."""
    d = Y.shape[1]
    Yt = buf[at : at + d * (j1 - j0)].reshape((d, j1 - j0))
    for s in range(j1 - j0):
        for f in range(d):
            Yt[f, s] = Y[j0 + s, f]
    return Yt


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def _argkmin_euclidean(X, Y, yy, r, c, best_val, best_idx, Xs, buf):
    """The K' nearest rows of Y to each row of X by squared Euclidean distance, sorted by
    (distance, index), into ``best_val`` (n, K') (exact squared distances) and ``best_idx``:
    blocks of ``r`` queries, tiles of ``c`` indexed rows (the compiled path of the module
    notes). ``yy`` holds ‖y‖²; ``Xs`` (r, d) and ``buf`` (≥ r·c + c·d) are this worker's
    scratch."""
    (n, d), m = X.shape, Y.shape[0]
    K = best_val.shape[1]
    for i0 in range(0, n, r):
        i1 = min(n, i0 + r)
        nb = i1 - i0
        for i in range(nb):  # −2x, exact (a power of two), and empty buffers
            for f in range(d):
                Xs[i, f] = -2.0 * X[i0 + i, f]
            for q in range(K):
                best_val[i0 + i, q] = np.inf
                best_idx[i0 + i, q] = 0
        for j0 in range(0, m, c):
            j1 = min(m, j0 + c)
            T = buf[: nb * (j1 - j0)].reshape((nb, j1 - j0))
            np.dot(Xs[:nb], _transposed(Y, j0, j1, buf, r * c), T)  # (−2X) Yᵀ: r·c·d ≤ 2¹⁸
            _push_tile(T, yy[j0:j1], j0, best_val[i0:i1], best_idx[i0:i1])
        for i in range(i0, i1):  # exact Σ(xₖ − yₖ)² of the K' candidates, then sort
            for q in range(K):
                best_val[i, q] = _sq_distance(X, i, Y, best_idx[i, q])
            for q in range(1, K):  # insertion sort by (distance, index): K' is small
                v, j = best_val[i, q], best_idx[i, q]
                p = q
                while p > 0 and (
                    best_val[i, p - 1] > v or (best_val[i, p - 1] == v and best_idx[i, p - 1] > j)
                ):
                    best_val[i, p] = best_val[i, p - 1]
                    best_idx[i, p] = best_idx[i, p - 1]
                    p -= 1
                best_val[i, p] = v
                best_idx[i, p] = j


def _compiled_tile(m, d, working_memory):
    """(r, c) of the compiled path: r = 64 queries, c indexed rows with r·c·d ≤ 2¹⁸ (one BLAS
    thread per product) and the tile with its copy of Yᵀ, 8·c·(r + d) bytes, within the working
    memory; at most 4096 columns."""
    budget = working_memory_bytes(working_memory)
    r = max(1, min(COMPILED_ROWS, int(budget // 8)))
    c = max(1, min(m, TILE_COLS, SERIAL_PRODUCT // (r * d), int(budget // (8 * (r + d)))))
    return r, c


def _compiled_plan(X, Y, working_memory, n_jobs):
    """What both compiled paths share: X and Y C-ordered, the tile (r, c), and W runs of whole
    blocks of r queries, (t0, t1) each: W = ``n_jobs`` (None: Numba's thread count), at most
    one per block and one per ``MIN_PAIRS_PER_THREAD`` query–point pairs."""
    X, Y = np.ascontiguousarray(X), np.ascontiguousarray(Y)
    (n, d), m = X.shape, Y.shape[0]
    r, c = _compiled_tile(m, d, working_memory)
    blocks = -(-n // r)
    W = numba.get_num_threads() if n_jobs is None else n_workers(n_jobs)
    W = max(1, min(W, blocks, n * m // MIN_PAIRS_PER_THREAD))
    return X, Y, r, c, [(w * blocks // W, (w + 1) * blocks // W) for w in range(W)]


def _argkmin_compiled(X, Y, yy, k, K, metric, working_memory, n_jobs):
    """The compiled path of :func:`argkmin` (Euclidean family, d ≤ ``COMPILED_MAX_D``)."""
    X, Y, r, c, runs = _compiled_plan(X, Y, working_memory, n_jobs)
    n, d = X.shape

    def run(t0, t1):  # whole blocks t0 .. t1 − 1: the same blocks for every W
        a, b = t0 * r, min(n, t1 * r)
        best_val, best_idx = np.empty((b - a, K)), np.empty((b - a, K), dtype=np.intp)
        Xs, buf = np.empty((r, d)), np.empty(r * c + c * d)  # the tile, then Yᵀ's
        _argkmin_euclidean(X[a:b], Y, yy, r, c, best_val, best_idx, Xs, buf)
        if metric != "sqeuclidean":
            np.sqrt(best_val, out=best_val)
        return best_val[:, :k], best_idx[:, :k]

    parts = run_tasks(run, runs, len(runs))
    if len(parts) == 1:
        return parts[0][0].copy(), parts[0][1].copy()  # (n, k), not views of (n, K')
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _tile_shape(n, m, working_memory):
    budget = working_memory_bytes(working_memory)  # the library-wide setting when None
    r = max(1, min(n, TILE_ROWS))
    c = max(1, min(m, TILE_COLS, int(budget // (8 * r))))
    return r, c


def _tile_values(Xb, Y, j0, j1, metric, kw, out=None):
    """The tile for rows ``j0:j1`` of Y: ``(−2X) Yᵀ`` for the Euclidean family, ``Xb`` being
    already scaled by −2 (the caller adds ‖y‖²); the distances themselves for other metrics.
    ``out`` (r, j1 − j0), when given, receives the product without a new allocation."""
    from .pairwise import pairwise_distances

    if metric in EUCLIDEAN_FAMILY:
        return np.matmul(Xb, Y[j0:j1].T, out=out)  # (r, c)
    return pairwise_distances(Xb, Y[j0:j1], metric=metric, **kw)


def _exact_squared(Xb, Y, idx):
    """Σₖ(xₖ − yₖ)² for the candidates ``idx`` (r, K') of each query row: no cancellation."""
    diff = Xb[:, None, :] - Y[idx]  # (r, K', d)
    return np.einsum("ijk,ijk->ij", diff, diff)


def _sort_by_distance_then_index(dist, idx):
    order = np.lexsort((idx, dist), axis=1)
    return np.take_along_axis(dist, order, 1), np.take_along_axis(idx, order, 1)


def _argkmin_rows(X, Y, yy, start, stop, k, K, metric, kw, c):
    """The k nearest of query rows ``start:stop``, tile by tile over the columns of Y."""
    Xb = X[start:stop]
    r, m = Xb.shape[0], Y.shape[0]
    euclid = metric in EUCLIDEAN_FAMILY
    best_val = np.full((r, K), np.inf)
    best_idx = np.zeros((r, K), dtype=np.intp)
    shift = yy if euclid else np.zeros(m)  # ‖y‖², added by the selection
    Xs = -2.0 * Xb if euclid else Xb  # (r, d)
    buf = np.empty(r * c) if euclid else None  # one tile, reused (the last, narrower one too)
    for j0 in range(0, m, c):
        j1 = min(m, j0 + c)
        out = buf[: r * (j1 - j0)].reshape(r, j1 - j0) if euclid else None  # C-ordered view
        T = _tile_values(Xs, Y, j0, j1, metric, kw, out)
        _push_tile(np.ascontiguousarray(T), shift[j0:j1], j0, best_val, best_idx)
    if euclid:
        best_val = _exact_squared(Xb, Y, best_idx)
        if metric != "sqeuclidean":
            np.sqrt(best_val, out=best_val)
        best_val, best_idx = _sort_by_distance_then_index(best_val, best_idx)
    return best_val[:, :k], best_idx[:, :k]


def argkmin(
    X,
    Y,
    k,
    *,
    metric="euclidean",
    metric_kwargs=None,
    return_distance=True,
    working_memory=None,
    n_jobs=None,
):
    """The ``k`` nearest rows of ``Y`` to each row of ``X``, in blocks (see the module notes).

    Parameters
    ----------
    X : (n, d) array, validated float64 (the queries).
    Y : (m, d) array, validated float64 (the indexed points).
    k : int, 1 ≤ k ≤ m.
    metric : str or callable: a name of ``pairwise.PAIRWISE_DISTANCE_FUNCTIONS``
        or ``f(x, y, **metric_kwargs) -> float``.
    metric_kwargs : dict, keywords for the metric (``p`` for "minkowski").
    working_memory : float, MiB per tile (default: ``scratchlearn.get_config()["working_memory"]``,
        64 unless changed; capped at 8 by the cache-sized tile).
    n_jobs : threads over blocks of query rows (matrix-product metrics only: the compiled
        coordinate loop already uses every core, and a callable holds the GIL). None: Numba's
        thread count for the Euclidean family with d ≤ 64, else one thread driving a threaded
        matrix product (see the module notes); -1: every core.

    Returns
    -------
    dist : (n, k) float64, ascending along each row (only with ``return_distance``).
    ind : (n, k) intp, ties between equal distances in increasing index order.
    """
    kw = dict(metric_kwargs or {})
    n, m = X.shape[0], Y.shape[0]
    if not 1 <= k <= m:
        raise ValueError(f"Expected 1 <= k <= m = {m} (the number of indexed points); got k={k}.")
    euclid = isinstance(metric, str) and metric in EUCLIDEAN_FAMILY
    K = min(m, k + EXTRA_CANDIDATES) if euclid else k
    yy = np.einsum("ij,ij->i", Y, Y) if euclid else None  # ‖y‖², (m,)
    if euclid and X.shape[1] <= COMPILED_MAX_D:
        dist, ind = _argkmin_compiled(X, Y, yy, k, K, metric, working_memory, n_jobs)
        return (dist, ind) if return_distance else ind
    r, c = _tile_shape(n, m, working_memory)
    threaded = euclid or metric == "cosine"
    workers = n_workers(n_jobs) if threaded else 1
    blocks = [(s, min(n, s + r)) for s in range(0, n, r)]
    parts = run_tasks(
        lambda s, e: _argkmin_rows(X, Y, yy, s, e, k, K, metric, kw, c), blocks, workers
    )
    dist = np.concatenate([p[0] for p in parts]) if parts else np.empty((0, k))
    ind = np.concatenate([p[1] for p in parts]) if parts else np.empty((0, k), dtype=np.intp)
    return (dist, ind) if return_distance else ind


def argkmin_reference(X, Y, k, *, metric="euclidean", metric_kwargs=None):
    """The plain version of :func:`argkmin`: the whole (n, m) matrix and a stable sort.

    Euclidean distances are taken coordinate-wise (``minkowski`` with p = 2), so that the
    reference has no cancellation. Kept for the tests.
    """
    from .pairwise import pairwise_distances

    kw = dict(metric_kwargs or {})
    if isinstance(metric, str) and metric in EUCLIDEAN_FAMILY:
        D = pairwise_distances(X, Y, metric="minkowski", p=2)
        if metric == "sqeuclidean":
            D = D**2
    else:
        D = pairwise_distances(X, Y, metric=metric, **kw)
    ind = np.argsort(D, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(D, ind, 1), ind


def _radius_rows(X, Y, yy, start, stop, radius, metric, kw):
    """Indices (and distances) within ``radius`` for query rows ``start:stop`` (whole rows)."""
    Xb = X[start:stop]
    if metric in EUCLIDEAN_FAMILY:
        T = _tile_values(-2.0 * Xb, Y, 0, Y.shape[0], metric, kw)
        # s = ‖y‖² − 2x·y; candidates within the error bound of the expanded form, then exact.
        d = X.shape[1]
        xx = np.einsum("ij,ij->i", Xb, Xb)
        r2 = radius**2 if metric != "sqeuclidean" else radius
        slack = 4.0 * (d + 3) * _EPS * (xx + (yy.max() if yy.size else 0.0))  # (r,)
        T += yy[None, :]
        rows, cols = np.nonzero(T <= (r2 - xx + slack)[:, None])
        diff = Xb[rows] - Y[cols]
        dist = np.einsum("ij,ij->i", diff, diff)
        if metric != "sqeuclidean":
            np.sqrt(dist, out=dist)
    else:
        T = _tile_values(Xb, Y, 0, Y.shape[0], metric, kw)
        rows, cols = np.nonzero(T <= radius)
        dist = T[rows, cols]
    keep = dist <= radius
    rows, cols, dist = rows[keep], cols[keep], dist[keep]
    bounds = np.searchsorted(rows, np.arange(Xb.shape[0] + 1))
    ind = [cols[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
    dst = [dist[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
    return ind, dst


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def _radius_euclidean(
    X, Y, yy, y_max, radius, squared, c, Xs, buf, thr, counts, nxt, cand, hit, tj, td, out_j, out_d
):  # fmt: skip
    """The rows of Y within ``radius`` of each row of X (one block of at most r query rows; the
    compiled path of :func:`radius_neighbors_blocked`), grouped by query in index order.

    Candidates are the entries with ‖y‖² − 2x·y ≤ r² − ‖x‖² + 4(d + 3)ε(‖x‖² + max‖y‖²) (the
    expanded form's error bound as slack); each is kept only if its exact distance
    (Σ(xₖ − yₖ)², its root unless ``squared``) is ≤ radius. Writes ``counts[i]`` (hits of row
    i) and the hits into ``out_j``, ``out_d``; ``Xs`` (r, d), ``buf`` (≥ r·c + c·d), ``thr`` (r,),
    ``nxt`` (r,), ``cand`` (c,), and ``hit``, ``tj``, ``td`` (as long as out_j: each hit's
    row, index and distance in the order found) are scratch.
    Returns the number h of hits, or −h when the arrays hold fewer than h
    (then nothing is valid: the caller grows them to h and calls again)."""
    (nb, d), m = X.shape, Y.shape[0]
    S = out_j.shape[0]
    r2 = radius if squared else radius * radius
    for i in range(nb):
        xx = 0.0
        for f in range(d):
            Xs[i, f] = -2.0 * X[i, f]
            xx += X[i, f] * X[i, f]
        thr[i] = r2 - xx + 4.0 * (d + 3) * _EPS * (xx + y_max)
        counts[i] = 0
    h = 0
    for j0 in range(0, m, c):
        j1 = min(m, j0 + c)
        T = buf[: nb * (j1 - j0)].reshape((nb, j1 - j0))
        np.dot(Xs[:nb], _transposed(Y, j0, j1, buf, Xs.shape[0] * c), T)  # (−2X) Yᵀ: r·c·d ≤ 2¹⁸
        yy_t = yy[j0:j1]
        for i in range(nb):
            t_i, n_cand = thr[i], 0
            for j in range(j1 - j0):  # the scan: candidates only
                if T[i, j] + yy_t[j] <= t_i:
                    cand[n_cand] = j0 + j
                    n_cand += 1
            for q in range(n_cand):  # each candidate's exact distance decides
                j = cand[q]
                s = _sq_distance(X, i, Y, j)
                dist = s if squared else np.sqrt(s)
                if dist <= radius:
                    if h < S:
                        hit[h], tj[h], td[h] = i, j, dist
                    h += 1
                    counts[i] += 1
    if h > S:
        return -h
    # Group by query, stably (a counting sort; within a query the tiles came in increasing j).
    for i in range(nb):
        nxt[i] = counts[i - 1] + nxt[i - 1] if i > 0 else 0  # where row i's hits start
    for q in range(h):
        p = nxt[hit[q]]
        nxt[hit[q]] += 1
        out_j[p], out_d[p] = tj[q], td[q]
    return h


def _radius_compiled(X, Y, yy, radius, metric, working_memory, n_jobs):
    """The compiled path of :func:`radius_neighbors_blocked` (Euclidean family, d ≤ 64): blocks
    of r queries, tiles as :func:`_argkmin_compiled`'s, workers over runs of whole blocks."""
    X, Y, r, c, runs = _compiled_plan(X, Y, working_memory, n_jobs)
    (n, d), m = X.shape, Y.shape[0]
    y_max = float(yy.max()) if m else 0.0
    squared = metric == "sqeuclidean"

    def run(t0, t1):  # blocks t0 .. t1 − 1; hits of each block copied out, grouped by query
        Xs, buf = np.empty((r, d)), np.empty(r * c + c * d)  # the tile, then Yᵀ's
        thr, counts, nxt = np.empty(r), np.empty(r, dtype=np.intp), np.empty(r, dtype=np.intp)
        cand = np.empty(c, dtype=np.intp)
        S = 8 * r  # hits a block may hold before the arrays grow

        def room(S):  # hit, tj, td (the hits as found), out_j, out_d (grouped by query)
            return [np.empty(S, t) for t in (np.intp, np.intp, np.float64, np.intp, np.float64)]

        hits = room(S)
        ind, dist = [], []
        for b in range(t0, t1):
            Xb = X[b * r : min(n, (b + 1) * r)]
            args = (Xb, Y, yy, y_max, radius, squared, c, Xs, buf, thr, counts, nxt, cand)
            h = _radius_euclidean(*args, *hits)
            if h < 0:  # more hits than room: grow (at least double), and run the block again
                S = max(-h, 2 * S)
                hits = room(S)
                h = _radius_euclidean(*args, *hits)
            cuts = np.cumsum(counts[: len(Xb) - 1])  # where each query's hits start
            out_j, out_d = hits[3:]
            ind += np.split(out_j[:h].copy(), cuts)  # one array per block, then views
            dist += np.split(out_d[:h].copy(), cuts)
        return ind, dist

    parts = run_tasks(run, runs, len(runs))
    return [a for p in parts for a in p[0]], [a for p in parts for a in p[1]]


def radius_neighbors_blocked(
    X, Y, radius, *, metric="euclidean", metric_kwargs=None, working_memory=None, n_jobs=None
):
    """For each row of ``X``, the rows of ``Y`` at distance ``≤ radius``, in index order.

    Whole rows of the distance matrix are formed in blocks of ``r`` rows with
    ``8·r·m ≤ working_memory`` MiB; for the Euclidean family with d ≤ ``COMPILED_MAX_D``, the
    compiled path instead (:func:`_radius_euclidean`: the small tiles and the threads of
    :func:`argkmin`'s, with ``n_jobs`` read the same way). Euclidean-family candidates are taken
    with the error bound of the expanded form as slack and kept only if their exactly
    recomputed distance is within the radius, so rounding never decides membership. Returns
    two lists of n arrays (indices as intp, distances as float64).
    """
    from ._pairwise_kernels import block_rows

    kw = dict(metric_kwargs or {})
    n = X.shape[0]
    euclid = isinstance(metric, str) and metric in EUCLIDEAN_FAMILY
    yy = np.einsum("ij,ij->i", Y, Y) if euclid else None
    if euclid and X.shape[1] <= COMPILED_MAX_D:
        return _radius_compiled(X, Y, yy, radius, metric, working_memory, n_jobs)
    rows = block_rows(Y.shape[0], working_memory)
    workers = n_workers(n_jobs) if (euclid or metric == "cosine") else 1
    blocks = [(s, min(n, s + rows)) for s in range(0, n, rows)]
    parts = run_tasks(
        lambda s, e: _radius_rows(X, Y, yy, s, e, radius, metric, kw), blocks, workers
    )
    ind = [a.astype(np.intp, copy=False) for p in parts for a in p[0]]
    dist = [a for p in parts for a in p[1]]
    return ind, dist
