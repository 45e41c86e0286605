"""``scratchlearn compile``: compile every estimator's Numba kernels into Numba's cache, now.

The compiled loops of scratchlearn are cached (``cache=True``): the first fit of a tree, a
forest, an SVM or a k-means on a machine compiles them (one to three seconds per estimator), and
every later process loads them from the cache in a fraction of that. This command pays that
price once, up front, for every estimator, so that no later first fit waits: run it after
installing, or in the build of a container image (``RUN scratchlearn compile``), where the
compiled code is kept with the installed package. Numba keys its cache by CPU model: a machine
with another kind of CPU compiles again, on its first fit (or its own run of this command).

What is compiled is what first calls compile: each registered estimator (or each one named) is
fitted as :func:`workload` says, on at most :data:`MAX_ROWS` rows of its showcase data, then
once more for each of its :data:`VARIANTS` (the options and inputs that run compiled code of
their own: Elkan's k-means, PAM, best-first trees, the absolute error, working-set Lasso on 64
features, brute-force neighbours, sparse rows, precomputed distances, the SVMs' kernels), and
each fit is asked for what it offers of :data:`METHODS` (``predict``, ``predict_proba``,
``decision_function``, ``transform``, ``score_samples``, ``kneighbors``, ``decision_path``). A
kernel has one signature per kind of input (the estimators convert a user's arrays to float64
first; the SMO loop has one per kernel function), so this compiles every kernel of the package
but the few of :data:`NOT_WARMED` (measured: 77 of 89), and
``tests/test_cli_compile.py`` keeps it so: a kernel added without a warm-up fails there.

The work runs in ``--jobs`` new processes (one per core by default: Numba compiles on one
thread), one family of estimators per task, the trees and the ensembles of trees together as
they share their kernels. Numba's cache of a function is one index file that each process
rewrites: two processes that save different signatures of one kernel at the same moment can
lose one of them. So this process, which has compiled nothing itself, then runs every
estimator again: each kernel must now load from the cache, and whatever compiles instead (a
lost signature, or a cache that cannot be written) is compiled and reported here.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import time
import warnings

from ._common import (
    adapt_to_data,
    format_table,
    load_data,
    one_line,
    resolve_entry,
    seed_estimator,
)

__all__ = [
    "MAX_ROWS",
    "METHODS",
    "VARIANTS",
    "NOT_WARMED",
    "workload",
    "warm_estimators",
    "report",
    "run_compile",
]

#: Rows (sentences for a sequence labeller) of a showcase dataset that a warm-up fit uses.
MAX_ROWS = 2000
#: The methods asked of each fitted estimator, when it has them, after ``fit``.
METHODS = (
    "predict",
    "predict_proba",
    "decision_function",
    "transform",
    "score_samples",
    "kneighbors",
    "decision_path",
)
#: Options and inputs that take compiled code of their own, warmed after the showcase fit:
#: ``{estimator: [variant, ...]}``, a variant being keyword arguments of :func:`workload`
#: (``params`` set on the estimator, ``data`` another bundled dataset, ``sparse`` CSR rows).
VARIANTS = {
    "KMeans": [{"params": {"algorithm": "elkan"}}, {"sparse": True}],
    "KMedoids": [
        {"params": {"method": "pam"}},
        {"params": {"method": "alternate"}},
        {"params": {"metric": "precomputed"}, "precomputed": True},
    ],
    "DecisionTreeClassifier": [{"params": {"max_leaf_nodes": 16}}],  # best-first growth
    "DecisionTreeRegressor": [
        {"params": {"criterion": "absolute_error"}},
        {"params": {"max_leaf_nodes": 16}},
    ],
    # working sets, from 50 features on (digits has 64)
    "Lasso": [{"data": "digits"}],
    "ElasticNet": [{"data": "digits"}],
    "ExtraTreesRegressor": [{"params": {"criterion": "absolute_error"}}],
    "NearestNeighbors": [
        {"params": {"algorithm": "brute"}},
        {"params": {"algorithm": "brute", "metric": "manhattan"}},
    ],
    "RadiusNeighborsClassifier": [{"params": {"algorithm": "brute"}}],  # the compiled radius
    "LinearSVC": [{"sparse": True}],
    # each kernel compiles its own loop (SVR shares them; "precomputed" shares linear's)
    "SVC": [{"params": {"kernel": k}} for k in ("linear", "poly", "sigmoid")],
}
#: The kernels that no warm-up compiles, and why: ``tests/test_cli_compile.py`` checks that
#: every other kernel of the package is in the cache after the command.
NOT_WARMED = {
    "scratchlearn.linear_model._cd_kernels._axpy_threads": "Lasso on 65,536 rows or more",
    "scratchlearn.linear_model._cd_kernels._dot_threads": "Lasso on 65,536 rows or more",
    "scratchlearn.datasets._svmlight_kernels.parse_block": "load_svmlight_file: a reader",
    "scratchlearn.datasets._svmlight_kernels._read_float": "load_svmlight_file: a reader",
    "scratchlearn.datasets._svmlight_kernels._eisel_lemire": "load_svmlight_file: a reader",
    "scratchlearn.neighbors._kd_tree_kernels.sort_segments": "radius_neighbors(sort_results=True)",
    "scratchlearn.svm._smo_kernels._far_from_separable": "SVC or SVR with C = inf, a hard margin",
    "scratchlearn.tree._splitter._best_node_split_from_python": "tree.best_split, for teaching",
    "scratchlearn.tree._splitter._random_node_split_from_python": "tree.best_split, for teaching",
    "scratchlearn.preprocessing._scale_kernels.moments_pass": "a scaler or k-means, 2²⁰ values",
    "scratchlearn.preprocessing._scale_kernels.range_pass": "a scaler on 2²⁰ values or more",
    "scratchlearn.preprocessing._scale_kernels.scale_pass": "a scaler on 2²⁰ values or more",
    "scratchlearn.preprocessing._scale_kernels.standardise_pass": "a scaler on 2²⁰ values or more",
}
#: Families whose estimators share compiled kernels: compiled in one task, one process.
SHARED = {"ensemble": "tree"}


def _counting(package: str = "scratchlearn"):
    """A context that collects ``module.function`` of every function of ``package`` that Numba
    compiles inside it (loads from the cache are not compilations: they are not counted)."""
    from numba.core import event

    from ..utils._compile_events import kernel_of, listener

    compiled: list[str] = []

    def count(ev):
        name = kernel_of(ev, package)
        if name is not None:
            compiled.append(name)  # list.append: safe from a forest's threads

    @contextlib.contextmanager
    def block():
        forward = listener(count)
        event.register("numba:compile", forward)
        try:
            yield compiled
        finally:
            event.unregister("numba:compile", forward)

    return block()


def workload(
    entry, max_rows: int = MAX_ROWS, params=None, data=None, sparse=False, precomputed=False
):
    """``(fit, X)`` for the first call of ``entry``: ``fit()`` returns a new fitted estimator
    (built as the demo builds it, seeded), ``X`` the rows to call it on. The data is the
    entry's showcase dataset (a seeded subset of at most ``max_rows`` rows, documents and
    categories through the demo's converters); the modechoice queries for a ranker, the first
    ``max_rows`` sentences of EWT's dev portion for a sequence labeller, and iris's labels
    for the label encoders, which have no dataset (they fit on y). ``params`` are set on the
    estimator, ``data`` names another bundled dataset, ``sparse`` passes the rows as CSR and
    ``precomputed`` their Euclidean distances (n, n) instead."""
    from ._demo import _subsample
    from ._tasks import task_spec

    def make():
        return seed_estimator(entry.cls(**{**entry.demo_params, **(params or {})}), 0)

    task = entry.task
    if entry.dataset is None and task == "transformer":  # LabelEncoder, LabelBinarizer: fit(y)
        from ..datasets import load_iris

        y = load_iris().target
        return (lambda: make().fit(y)), y
    if task == "ranker":
        from ..ranking._showcase import load_modechoice_ranking

        X, y, qid, _ = load_modechoice_ranking()
        return (lambda: make().fit(X, y, qid=qid)), X
    if task == "sequence":
        from ..datasets import load_ud_english_ewt

        bunch = load_ud_english_ewt("dev")
        X, y = list(bunch.data)[:max_rows], list(bunch.target)[:max_rows]
        return (lambda: make().fit(X, y)), X
    bunch = load_data(data or entry.dataset)
    X, y = _subsample(bunch, max_rows, 0)  # the demo's seeded subset
    if sparse:
        import scipy.sparse as sp

        X = sp.csr_matrix(X)
    if precomputed:
        from ..metrics import euclidean_distances

        X = euclidean_distances(X)
    supervised = task_spec(task).supervised

    def fit():
        estimator, _ = adapt_to_data(make(), bunch["kind"])
        return estimator.fit(X, y) if supervised else estimator.fit(X)

    return fit, X


def warm_estimators(names: list[str]) -> list[tuple[str, list[str], float, str]]:
    """``(name, compiled, seconds, error)`` of each estimator named, warmed in this process in
    that order: fitted by its :func:`workload` and each of its :data:`VARIANTS`, each fit
    followed by the :data:`METHODS` it has, called on the same rows (``compiled``: the
    functions Numba compiled; ``error`` "" when none)."""
    from .._registry import get_entry

    rows = []
    for name in names:
        entry = get_entry(name)
        start = time.perf_counter()
        error = ""
        with _counting() as compiled, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence and the like: not what this is for
            for variant in [{}, *VARIANTS.get(entry.name, [])]:
                try:
                    fit, X = workload(entry, **variant)
                    model = fit()
                    for method in METHODS:
                        call = getattr(model, method, None)  # None where available_if says no
                        if call is not None:
                            call(X)
                except Exception as exc:  # noqa: BLE001 - reported in the estimator's row
                    shown = f" ({variant})" if variant else ""
                    error = error or f"{type(exc).__name__}{shown}: {one_line(exc)}"
        rows.append((entry.name, list(compiled), time.perf_counter() - start, error))
    return rows


def _tasks(entries) -> list[list[str]]:
    """The estimators' names by family (a family in :data:`SHARED` with the one it shares
    kernels with), those with the most estimators first, so that the processes end at about
    the same time."""
    tasks: dict[str, list[str]] = {}
    for entry in entries:
        tasks.setdefault(SHARED.get(entry.family, entry.family), []).append(entry.name)
    return sorted(tasks.values(), key=len, reverse=True)


def _cache_dir() -> str:
    """Where Numba keeps the compiled kernels of scratchlearn: ``NUMBA_CACHE_DIR``, or the
    ``__pycache__`` folders beside the package's source, or (when those cannot be written) a
    folder of the user's, as Numba's locator of one loaded kernel says."""
    import numba
    from numba.core.registry import CPUDispatcher

    import scratchlearn

    if numba.config.CACHE_DIR:
        return numba.config.CACHE_DIR
    for name, module in list(sys.modules.items()):
        if not name.startswith("scratchlearn.") or module is None:
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher) or getattr(value, "_cache", None) is None:
                continue
            path = value._cache._impl.locator.get_cache_path()
            package = os.path.dirname(scratchlearn.__file__)
            if os.path.basename(path) == "__pycache__" and path.startswith(package):
                return f"the __pycache__ folders of {package}"
            return path
    return "Numba's cache"


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_compile(args, out=sys.stdout, err=sys.stderr) -> int:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from tqdm import tqdm

    from .._registry import all_estimators

    jobs = getattr(args, "jobs", None) or default_jobs()
    names = getattr(args, "estimators", None) or []
    if names:
        entries = list({e.name: e for e in map(resolve_entry, names)}.values())
    else:
        entries = all_estimators()
    started = time.perf_counter()
    tasks = _tasks(entries)
    jobs = min(jobs, len(tasks))
    print(
        f"compiling the Numba kernels of {len(entries)} estimators in {jobs} processes ...",
        file=err,
        flush=True,
    )
    results: dict[str, tuple] = {}
    bar = tqdm(total=len(entries), file=err, desc="compile", unit="model", leave=False)
    context = multiprocessing.get_context("spawn")  # no fork of a process holding threads
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(warm_estimators, task) for task in tasks]
        for future in as_completed(futures):
            for row in future.result():
                results[row[0]] = row
                bar.update(1)
    bar.close()
    compile_seconds = time.perf_counter() - started

    check = warm_estimators([e.name for e in entries])  # every kernel should load now
    text, status = report(entries, results, check, compile_seconds, jobs, _cache_dir())
    print(text, file=out)
    return status


def report(entries, results, check, seconds, jobs, where) -> tuple[str, int]:
    """The command's table and summary, and its exit status (1 when an estimator failed).

    ``results`` maps each estimator's name to its row of :func:`warm_estimators` in the
    compiling processes, ``check`` holds the rows of the same estimators run again in this
    process (each should have compiled nothing), ``where`` says where the cache is."""
    rows, failed = [], 0
    for entry, (_, _, _, late) in zip(entries, check):
        name, compiled, took, error = results[entry.name]
        error = error or late
        failed += bool(error)
        if compiled or error:  # the others had nothing to compile: left out of the table
            note = f"error: {error}" if error else ""
            rows.append((name, entry.family, str(len(set(compiled))), f"{took:.1f} s", note))
    n_kernels = len({k for _, compiled, _, _ in results.values() for k in compiled})
    lines = []
    if rows:
        header = ("estimator", "family", "kernels compiled", "time", "note")
        lines += [format_table(header, rows, align=["<", "<", ">", ">", "<"]), ""]
    others = len(entries) - len(rows)
    lines.append(
        f"Compiled {_count(n_kernels, 'kernel')} for {_count(len(entries), 'estimator')} in "
        f"{seconds:.1f} s on {_count(jobs, 'process', 'processes')}, into {where}."
        + (
            f" {'The other' if rows else 'The'} {_count(others, 'estimator')} had nothing to "
            "compile (no compiled loops, or in the cache already)."
            if others
            else ""
        )
    )
    lost = sorted({k for _, compiled, _, _ in check for k in compiled})
    if lost:
        lines.append(
            f"Check: {_count(len(lost), 'kernel')} did not load from the cache in a new process "
            f"and compiled again ({', '.join(k.rpartition('.')[2] for k in lost)}). If this "
            "command says so again, Numba's cache is not being written (a read-only folder? "
            "NUMBA_CACHE_DIR names another)."
        )
    else:
        lines.append(
            "Check: a new process loaded every kernel from the cache (0 compiled), so no "
            "first fit will wait for compilation."
        )
    if failed:
        failures = _count(failed, "estimator")
        lines.append(f"{failures} failed (see the table): a bug of scratchlearn.")
    return "\n".join(lines), 1 if failed else 0
