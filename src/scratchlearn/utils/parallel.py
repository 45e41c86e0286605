"""Threads for independent work: one place that reads ``n_jobs`` and runs tasks.

Used by the searches and curves of :mod:`scratchlearn.model_selection` and by every
estimator with ``n_jobs`` (forests, bagging, one-vs-rest, neighbours). Tasks run on threads,
not processes: the compiled kernels release the GIL, and the data are shared, never copied.

Reproducibility rule: a task's randomness is fixed *before* any thread starts
(:func:`spawn_seeds`), so the results do not depend on ``n_jobs`` or on the order in which
threads finish.
"""

from __future__ import annotations

import numbers
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np

__all__ = ["n_workers", "progress_bar", "run_tasks", "spawn_seeds"]


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


def run_tasks(func, tasks, n_jobs=None, progress=None) -> list:
    """``[func(*t) for t in tasks]``, on threads when ``n_jobs`` > 1, results in task order.

    Each task must work on its own objects (read-only shared data), so threads return exactly
    the sequential results. ``progress`` is a tqdm bar advanced once per finished task.
    """
    workers = n_workers(n_jobs)
    if workers == 1 or len(tasks) <= 1:
        out = []
        for t in tasks:
            out.append(func(*t))
            if progress is not None:
                progress.update(1)
        return out
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(func, *t) for t in tasks]
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
