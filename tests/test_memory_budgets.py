"""Every memory budget the library promises, measured in a subprocess.

The budgets:

* brute-force neighbours hold one tile of the distance matrix within the working memory
  (``scratchlearn.get_config()["working_memory"]``, capped at an 8 MiB tile), never the
  (n, m) matrix (``metrics._argkmin``);
* the radius search holds one block of whole rows within the working memory (NumPy's blocks),
  or small tiles and the hits found (the compiled path, d ≤ 64);
* the SVM's kernel-row cache stays within ``cache_size`` MiB, never the (n, n) kernel;
* ``KMedoids`` on a precomputed (n, n) matrix makes no second n × n array (a symmetric or
  Fortran-ordered matrix is read in place; only a non-symmetric C-ordered one is transposed
  into one copy, as its docstring says);
* ``pairwise_distances_chunked`` yields blocks within the working memory.

How: one child process builds the data, runs each computation once to compile and import what
it needs, then runs it twice more, measuring (1) the peak of traced allocations (tracemalloc:
NumPy reports its array buffers to it, and so do the compiled kernels' arrays) and (2) the rise
of the resident set's high-water mark (``VmHWM`` after resetting it through
``/proc/self/clear_refs``), which counts every allocation. ``MALLOC_MMAP_THRESHOLD_`` makes
large blocks come from mmap, so a freed array leaves the resident set at once. Each figure must
stay within the bound derived beside it: the budget plus the computation's own inputs, outputs
and O(n) vectors, plus ``SLACK`` for interpreter objects and page granularity.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

MiB = 2**20
SLACK = 1 * MiB  # Python objects, allocator headers, 4 KiB pages

_CHILD = r"""
import gc, json, re, sys, tracemalloc, warnings
import numpy as np
import scratchlearn
from scratchlearn.cluster import KMedoids
from scratchlearn.metrics import pairwise_distances, pairwise_distances_chunked
from scratchlearn.neighbors import NearestNeighbors
from scratchlearn.svm import SVC

warnings.simplefilter("ignore")
P = json.loads(sys.argv[1])


def status(key):
    text = open("/proc/self/status").read()
    return int(re.search(key + r":\s+(\d+) kB", text).group(1)) * 1024


def measure(fn):
    fn()  # compile, import, warm the caches
    gc.collect()
    rss = None
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # the high-water mark restarts from the current resident set
        before = status("VmRSS")
        fn()
        rss = status("VmHWM") - before
    except OSError:
        pass
    gc.collect()
    tracemalloc.start()
    fn()
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"traced": traced, "rss": rss}


rng = np.random.default_rng(0)
out = {}

# brute-force k nearest neighbours: n queries, m indexed points, d features
n, m, d, k = P["knn"]
Y, Q = rng.normal(size=(m, d)), rng.normal(size=(n, d))
nn = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(Y)
out["knn_default"] = measure(lambda: nn.kneighbors(Q))
out["threads"] = __import__("numba").get_num_threads()
with scratchlearn.config_context(working_memory=P["knn_wm"]):
    out["knn_small"] = measure(lambda: nn.kneighbors(Q))
    out["radius"] = measure(lambda: nn.radius_neighbors(Q, radius=P["radius"]))
    out["radius_found"] = int(sum(len(i) for i in nn.radius_neighbors(Q, radius=P["radius"])[1]))

# the same with more features than the compiled path takes: NumPy's tiles
n, m, d, k = P["knn_wide"]
Yw, Qw = rng.normal(size=(m, d)), rng.normal(size=(n, d))
nn = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(Yw)
out["knn_wide_default"] = measure(lambda: nn.kneighbors(Qw))
with scratchlearn.config_context(working_memory=P["knn_wm"]):
    out["knn_wide_small"] = measure(lambda: nn.kneighbors(Qw))
    out["radius_wide"] = measure(lambda: nn.radius_neighbors(Qw, radius=P["radius_wide"]))
    found = nn.radius_neighbors(Qw, radius=P["radius_wide"])[1]
    out["radius_wide_found"] = int(sum(len(i) for i in found))
del Yw, Qw, nn

# SVM kernel cache
n, d = P["svc"]
X = rng.normal(size=(n, d))
y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
out["svc"] = measure(lambda: SVC(cache_size=P["cache_size"]).fit(X, y))

# KMedoids on a precomputed matrix: symmetric, non-symmetric in C order, in Fortran order
n = P["kmedoids"]
D = pairwise_distances(rng.normal(size=(n, 5)))
fit = lambda A: KMedoids(5, metric="precomputed", init="build", method="fasterpam").fit(A)
out["kmedoids"] = measure(lambda: fit(D))
A = D + np.triu(np.full((n, n), 1e-3), 1)  # not symmetric
del D
out["kmedoids_asym_C"] = measure(lambda: fit(A))
A = np.asfortranarray(A)
out["kmedoids_asym_F"] = measure(lambda: fit(A))
del A

# pairwise_distances_chunked, reduced block by block
n, d = P["chunked"]
W = rng.normal(size=(n, d))
with scratchlearn.config_context(working_memory=P["chunked_wm"]):
    rows = lambda D, start: D.sum(axis=1)
    blocks = lambda: list(pairwise_distances_chunked(W, reduce_func=rows))
    out["chunked"] = measure(lambda: np.concatenate(blocks()))
    out["chunk_bytes"] = max(b.nbytes for b in pairwise_distances_chunked(W))
print(json.dumps(out))
"""

PARAMS = {
    "knn": (2000, 20000, 20, 5),  # the full matrix would be 305 MiB; the compiled path
    "knn_wide": (2000, 20000, 80, 5),  # d > COMPILED_MAX_D: NumPy's tiles
    "knn_wm": 1,
    "radius": 3.0,
    "radius_wide": 10.5,  # about 1.4% of the pairs at d = 80
    "svc": (2000, 10),  # the full kernel would be 31 MiB
    "cache_size": 4,
    "kmedoids": 2000,  # D is 31 MiB
    "chunked": (4000, 20),  # the full matrix would be 122 MiB
    "chunked_wm": 2,
}


@pytest.fixture(scope="module")
def peaks(tmp_path_factory):
    if not sys.platform.startswith("linux"):
        pytest.skip("measures /proc/self: Linux only")
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536", "OPENBLAS_NUM_THREADS": "1"}
    env.pop("PYTEST_XDIST_WORKER", None)
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(PARAMS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _within(measured, bound):
    for how in ("traced", "rss"):
        if measured[how] is not None:
            assert measured[how] <= bound + SLACK, (
                f"{how} peak {measured[how] / MiB:.2f} MiB > bound {bound / MiB:.2f} MiB + slack"
            )


def _knn_bound(wm_bytes):
    """NumPy's tiles (d = 80): one worker's tile, 8·r·c ≤ min(working memory, 8 MiB) with
    r = 256 query rows, and its −2X block, 8·r·d; the output, (n, k) distances and indices,
    twice while the row blocks are joined: 32·n·k; the K' = k + 8 candidate buffers, 16·r·K';
    the exact recomputation's gathered candidates and their differences, two (r, K', d)
    arrays, 16·r·K'·d; the m squared norms, 8·m; the validated queries, 8·n·d."""
    n, m, d, k = PARAMS["knn_wide"]
    r, K = 256, k + 8
    tile = min(wm_bytes, 8 * MiB) + 8 * r * d
    return tile + 32 * n * k + 16 * r * K + 16 * r * K * d + 8 * m + 8 * n * d


def _compiled_knn_bound(wm_bytes, threads):
    """The compiled path (d = 20): per worker a tile of 8·r·c bytes, r = 64 and r·c·d ≤ 2¹⁸
    (or less within the working memory), and its −2X block, 8·r·d; the candidates of every
    query, (n, K') distances and indices, 16·n·K'; the joined output, 16·n·k; the m squared
    norms, 8·m; the validated queries, 8·n·d."""
    n, m, d, k = PARAMS["knn"]
    r, K = 64, k + 8
    tile = min(wm_bytes, 8 * 2**18 // d)
    return threads * (tile + 8 * r * d) + 16 * n * K + 16 * n * k + 8 * m + 8 * n * d


def test_brute_force_neighbours_default_working_memory(peaks):
    _within(peaks["knn_default"], _compiled_knn_bound(64 * MiB, peaks["threads"]))
    _within(peaks["knn_wide_default"], _knn_bound(64 * MiB))


def test_brute_force_neighbours_follow_the_configured_working_memory(peaks):
    _within(peaks["knn_small"], _compiled_knn_bound(PARAMS["knn_wm"] * MiB, peaks["threads"]))
    _within(peaks["knn_wide_small"], _knn_bound(PARAMS["knn_wm"] * MiB))
    # the setting is what bounds NumPy's tiles: 1 MiB instead of the 8 MiB default
    assert peaks["knn_wide_small"]["traced"] < peaks["knn_wide_default"]["traced"] - 5 * MiB


def test_radius_neighbours_within_working_memory(peaks):
    """NumPy's blocks (d = 80): one block of whole rows, 8·r·m ≤ working memory, and its (r, m)
    boolean mask (1/8 of it); the neighbours found (index and distance, 16 bytes each, twice
    while joined); the m squared norms and the validated queries."""
    n, m, d, _ = PARAMS["knn_wide"]
    wm = PARAMS["knn_wm"] * MiB
    bound = wm + wm // 8 + 32 * peaks["radius_wide_found"] + 8 * m + 8 * n * d
    _within(peaks["radius_wide"], bound)


def test_compiled_radius_neighbours_hold_small_tiles_and_the_hits(peaks):
    """The compiled path (d = 20): per worker a tile and its −2X block, as for the k nearest;
    five arrays as long as the most hits of a block (at most twice that, as they grow: 80 bytes
    per hit at most, the hits of all blocks counted); the neighbours found, 16 bytes each, in
    the per-block copies and their views; the m squared norms and the validated queries."""
    n, m, d, _ = PARAMS["knn"]
    found = peaks["radius_found"]
    tile = 8 * 2**18 // d + 8 * 64 * d
    bound = peaks["threads"] * tile + 80 * found + 16 * found + 8 * m + 8 * n * d
    _within(peaks["radius"], bound)


def test_svm_kernel_cache_within_cache_size(peaks):
    """The cache, ``cache_size`` MiB of kernel rows; the validated X, 8·n·d; the solver's
    vectors of length n (α, gradient, labels, squared norms, the active set and its
    bookkeeping): fewer than 32 of 8 bytes each."""
    n, d = PARAMS["svc"]
    bound = PARAMS["cache_size"] * MiB + 8 * n * d + 32 * 8 * n
    _within(peaks["svc"], bound)


def test_kmedoids_reads_a_precomputed_matrix_in_place(peaks):
    """Nothing of size n²: the caches (nearest and second medoid, their distances), BUILD's
    distances and flags, the labels: fewer than 12 vectors of n values of 8 bytes."""
    n = PARAMS["kmedoids"]
    bound = 12 * 8 * n
    _within(peaks["kmedoids"], bound)
    _within(peaks["kmedoids_asym_F"], bound)  # Fortran order: Dᵀ is a C-ordered view


def test_kmedoids_copies_only_a_non_symmetric_c_ordered_matrix(peaks):
    """The documented exception: one transposed copy, 8n², and nothing more."""
    n = PARAMS["kmedoids"]
    measured = peaks["kmedoids_asym_C"]["traced"]
    assert 8 * n * n <= measured <= 8 * n * n + 12 * 8 * n + SLACK


def test_pairwise_distances_chunked_within_working_memory(peaks):
    """One block, 8·r·n ≤ working memory; the Euclidean product's augmented operands,
    8·(n + r)·(d + 2); the reduced values (n, twice while joined) and the norms: 8·4·n."""
    n, d = PARAMS["chunked"]
    wm = PARAMS["chunked_wm"] * MiB
    assert peaks["chunk_bytes"] <= wm
    r = wm // (8 * n)
    bound = wm + 8 * (n + r) * (d + 2) + 8 * 4 * n
    _within(peaks["chunked"], bound)


# -- the setting itself ------------------------------------------------------------------------
def test_config_default_set_and_context():
    import threading

    import scratchlearn
    from scratchlearn.exceptions import InvalidParameterError
    from scratchlearn.metrics._pairwise_kernels import block_rows

    assert scratchlearn.get_config() == {"working_memory": 64}
    assert block_rows(1000) == 64 * MiB // 8000
    with scratchlearn.config_context(working_memory=1):
        assert block_rows(1000) == MiB // 8000
        with scratchlearn.config_context(working_memory=2):
            assert scratchlearn.get_config()["working_memory"] == 2
        seen = []
        t = threading.Thread(target=lambda: seen.append(scratchlearn.get_config()))
        t.start()
        t.join()
        assert seen == [{"working_memory": 64}]  # other threads keep the process-wide value
        assert block_rows(1000, working_memory=4) == 4 * MiB // 8000  # an explicit argument wins
    assert scratchlearn.get_config()["working_memory"] == 64
    scratchlearn.set_config(working_memory=16)
    try:
        assert block_rows(1000) == 16 * MiB // 8000
        scratchlearn.set_config()  # None keeps the value
        assert scratchlearn.get_config()["working_memory"] == 16
    finally:
        scratchlearn.set_config(working_memory=64)
    for bad in (0, -1, float("nan"), float("inf"), "64", True):
        with pytest.raises(InvalidParameterError, match="working_memory"):
            scratchlearn.set_config(working_memory=bad)
        with pytest.raises(InvalidParameterError, match="working_memory"):
            with scratchlearn.config_context(working_memory=bad):
                pass
    assert scratchlearn.get_config()["working_memory"] == 64


def test_config_context_reaches_the_library_threads():
    """``run_tasks`` runs each task in a copy of the caller's context, so a task started inside
    ``config_context`` sees its value (a cross-validation of k-NN on threads sizes its tiles
    from it)."""
    import scratchlearn
    from scratchlearn.utils.parallel import run_tasks

    def task(_):
        return scratchlearn.get_config()["working_memory"]

    with scratchlearn.config_context(working_memory=3):
        assert run_tasks(task, [(i,) for i in range(4)], n_jobs=2) == [3, 3, 3, 3]
    assert run_tasks(task, [(i,) for i in range(4)], n_jobs=2) == [64] * 4


def test_the_settings_module_imports_only_the_standard_library():
    """``import scratchlearn`` stays cheap: the settings add no third-party import."""
    import scratchlearn._config as config

    with open(config.__file__, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    modules = {
        line.split()[1].split(".")[0] for line in lines if line.startswith(("import ", "from "))
    }
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}, modules


# -- KMedoids reads the precomputed matrix in place: the results do not change ------------------
def test_kmedoids_in_place_reading_gives_the_transposed_copy_results(monkeypatch):
    """The kernels read ``DT = Dᵀ``. Reading a symmetric D itself, a Fortran-ordered D's
    transpose view, or the transposed copy of a non-symmetric one gives, bit for bit, the fit
    made on the explicit copy ``np.ascontiguousarray(D.T)`` (what fit always did before)."""
    import numpy as np

    from scratchlearn.cluster import KMedoids
    from scratchlearn.cluster import _kmedoids as kmed
    from scratchlearn.metrics import pairwise_distances

    rng = np.random.default_rng(0)
    D = pairwise_distances(rng.normal(size=(120, 3)))
    A = D + np.triu(rng.uniform(0, 0.5, size=D.shape), 1)  # non-symmetric dissimilarities
    F = np.asfortranarray(A)
    assert kmed._transposed(D) is D  # symmetric: read in place
    assert np.shares_memory(kmed._transposed(F), F)  # Fortran order: a view
    assert not np.shares_memory(kmed._transposed(A), A)  # non-symmetric C order: the copy
    for M in (D, A):
        for method in ("alternate", "pam", "fasterpam"):
            params = dict(n_clusters=4, metric="precomputed", method=method, init="build")
            with monkeypatch.context() as mp:
                mp.setattr(kmed, "_transposed", lambda X: np.ascontiguousarray(X.T))
                ref = KMedoids(**params).fit(M)
            spread = np.zeros((2 * M.shape[0], 2 * M.shape[1]))
            spread[::2, ::2] = M  # a strided view of it holds M
            for given in (M, np.asfortranarray(M), spread[::2, ::2]):
                km = KMedoids(**params).fit(given)
                np.testing.assert_array_equal(km.medoid_indices_, ref.medoid_indices_)
                np.testing.assert_array_equal(km.labels_, ref.labels_)
                assert km.inertia_ == ref.inertia_
                assert km.history_["objective"] == ref.history_["objective"]


def test_is_symmetric_against_numpy():
    """The tiled comparison agrees with ``array_equal(D, Dᵀ)``, for a difference anywhere
    (inside a tile, on a tile's edge, in the last partial tile)."""
    import numpy as np

    from scratchlearn.cluster._kmedoids_kernels import is_symmetric

    rng = np.random.default_rng(1)
    for n in (1, 2, 63, 64, 65, 130):
        S = rng.uniform(size=(n, n))
        S = S + S.T
        assert is_symmetric(S)
        for i, j in {(0, n - 1), (n - 1, 0), (n // 2, n // 3), (63 % n, 64 % n)}:
            if i == j:
                continue
            B = S.copy()
            B[i, j] += 1.0
            assert is_symmetric(B) == np.array_equal(B, B.T) is False
