"""Independent work: one place that reads ``n_jobs`` and runs tasks.

Used by the searches and curves of :mod:`scratchlearn.model_selection` and by every
estimator with ``n_jobs`` (forests, bagging, one-vs-rest, neighbours). Tasks run on threads,
not processes: the compiled kernels release the GIL, and the data are shared, never copied.

Inside ``with parallel_backend("dask"):`` (and a ``distributed.Client`` active) the same tasks
run on the cluster's workers instead: the task function, with the data it closes over (X, y,
the estimator), is scattered to every worker once, and each task ships only its own small
arguments (a candidate's parameters, a fold's indices, a seed). There ``n_jobs=None`` or -1
means the whole cluster, as in joblib's Dask backend, and a positive ``n_jobs`` caps how many
tasks run at once. Results come back in task order, so they equal the local run's.

Reproducibility rule: a task's randomness is fixed *before* any thread starts
(:func:`spawn_seeds`), so the results do not depend on ``n_jobs`` or on the order in which
threads finish.
"""

from __future__ import annotations

import numbers
import os
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar, copy_context

import numpy as np

from ._dask import active_client

__all__ = ["n_workers", "parallel_backend", "progress_bar", "run_tasks", "spawn_seeds"]

#: Where :func:`run_tasks` runs its tasks: "threads" (this process) or "dask" (the workers of
#: the active ``distributed.Client``). A context variable: set by :func:`parallel_backend` for
#: the code that runs inside the ``with`` block, not for threads started elsewhere.
_BACKEND: ContextVar[str] = ContextVar("scratchlearn_parallel_backend", default="threads")


def n_workers(n_jobs) -> int:
    """Threads to use: None → 1, -1 → one per CPU, k > 0 → k; anything else is an error."""
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise ValueError(f"n_jobs must be None, a positive int or -1; got {n_jobs!r}.")
    if n_jobs < -1:
        raise ValueError(f"n_jobs must be None, a positive int or -1; got {n_jobs!r}.")
    return (os.cpu_count() or 1) if n_jobs == -1 else int(n_jobs)


@contextmanager
def progress_bar(enabled, total: int, desc: str, unit: str):
    """A tqdm bar on stderr while the block runs, when ``enabled`` and there is work; else None.

    The one way the library shows progress: ``with progress_bar(self.verbose, n, name, "fit")
    as bar: run_tasks(..., progress=bar)``. The bar is closed however the block ends.
    """
    if not (enabled and total):
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, file=sys.stderr, desc=desc, unit=unit)
    try:
        yield bar
    finally:
        bar.close()


@contextmanager
def parallel_backend(backend: str = "dask"):
    """Run the library's independent tasks on ``backend`` inside the ``with`` block.

    ``"dask"``: on the workers of the active ``distributed.Client`` (searches, curves,
    ``cross_validate``, forests, bagging, one-vs-rest and one-vs-one, neighbour queries; every
    caller of :func:`run_tasks`). ``"threads"``: in this process, the default. Results are
    the same either way: every task's seed is drawn before any task starts.

    Examples
    --------
    >>> from scratchlearn.utils.parallel import parallel_backend, run_tasks
    >>> with parallel_backend("threads"):
    ...     run_tasks(lambda a, b: a + b, [(1, 2), (3, 4)], n_jobs=2)
    [3, 7]
    """
    if backend not in ("threads", "dask"):
        raise ValueError(f"backend must be 'threads' or 'dask'; got {backend!r}.")
    if backend == "dask" and active_client() is None:
        raise ValueError(
            "parallel_backend('dask') needs an active dask.distributed Client: create one "
            "first (distributed.Client(...) or with distributed.Client(...) as client:)."
        )
    token = _BACKEND.set(backend)
    try:
        yield
    finally:
        _BACKEND.reset(token)


def _call(func, *args):
    return func(*args)


#: How many times :func:`_run_on_cluster` scatters the task function again after the cluster
#: lost every copy of it (each worker that held it died) before it gives up with a clear error.
_MAX_RESCATTERS = 3


def _run_on_cluster(client, func, tasks, n_jobs, progress) -> list:
    """:func:`run_tasks` on the workers: ``func`` scattered once, at most ``n_jobs`` in flight.

    A task whose worker dies is rerun by the scheduler. Scattered data have no recipe, though:
    when every worker that held ``func`` dies at once (both of a two-worker cluster, say), the
    scheduler cancels the tasks that need it. Those tasks are submitted again here with
    ``func`` scattered anew, at most ``_MAX_RESCATTERS`` times; the results are the same,
    because a task's inputs (and seeds) were fixed before it first started.
    """
    from distributed import as_completed

    cap = len(tasks) if n_jobs in (None, -1) else n_workers(n_jobs)
    prefix = f"scratchlearn-task-{uuid.uuid4().hex}"
    generation = 0  # how many times func was scattered again after being lost
    [shared] = client.scatter([func], broadcast=True, hash=False)  # func and its data, once
    index, out = {}, [None] * len(tasks)
    queue = iter(range(len(tasks)))
    running = as_completed()

    def submit(i):
        key = f"{prefix}-{i}" if generation == 0 else f"{prefix}-{i}-again{generation}"
        future = client.submit(_call, shared, *tasks[i], key=key, pure=False)
        index[future.key] = (i, generation)
        running.add(future)

    def submit_next():
        i = next(queue, None)
        if i is not None:
            submit(i)

    for _ in range(cap):
        submit_next()
    try:
        for future in running:
            i, used = index.pop(future.key)
            if future.status == "cancelled":  # we cancel nothing here: func was lost
                if used == generation:
                    if generation == _MAX_RESCATTERS:
                        raise RuntimeError(
                            f"the cluster lost the task data {generation + 1} times (every "
                            "worker holding it died; out of memory?); task "
                            f"{i} of {len(tasks)} did not run. Give the workers more memory "
                            "or run fewer tasks at once (n_jobs)."
                        )
                    client.cancel([shared])
                    generation += 1
                    [shared] = client.scatter([func], broadcast=True, hash=False)
                submit(i)
                continue
            out[i] = future.result()  # a task's exception is raised here
            if progress is not None:
                progress.update(1)
            submit_next()
    except BaseException:
        client.cancel(list(running.futures))
        raise
    finally:
        client.cancel([shared])
    return out


def run_tasks(func, tasks, n_jobs=None, progress=None) -> list:
    """``[func(*t) for t in tasks]``, on threads when ``n_jobs`` > 1, results in task order.

    Each task must work on its own objects (read-only shared data), so threads return exactly
    the sequential results. ``progress`` is a tqdm bar advanced once per finished task.
    Inside :func:`parallel_backend` ("dask") the tasks run on the cluster's workers instead.
    """
    if _BACKEND.get() == "dask" and len(tasks) > 1:
        client = active_client()
        if client is None:
            raise ValueError(
                "parallel_backend('dask') is active but no dask.distributed Client is: it was "
                "closed inside the with block."
            )
        return _run_on_cluster(client, func, tasks, n_jobs, progress)
    workers = n_workers(n_jobs)
    if workers == 1 or len(tasks) <= 1:
        out = []
        for t in tasks:
            out.append(func(*t))
            if progress is not None:
                progress.update(1)
        return out
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # Each task runs in a copy of the caller's context, so a config_context or
        # parallel_backend entered by the caller holds inside the tasks too.
        futures = [pool.submit(copy_context().run, func, *t) for t in tasks]
        out = []
        for f in futures:
            out.append(f.result())
            if progress is not None:
                progress.update(1)
        return out


def spawn_seeds(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` independent seeds in [0, 2⁶³) drawn from ``rng``, before any work starts.

    Task ``i`` seeds its own generator with ``seeds[i]``; adding tasks later (``warm_start``)
    draws further seeds from the same stream, so task ``i`` gets the same seed whether the
    tasks are made at once or in two calls.
    """
    # 64-bit draws: one generator output per seed, no buffered halves, so the stream split
    # into two calls gives the same seeds as one call.
    return rng.integers(0, 2**63 - 1, size=n, dtype=np.int64)
