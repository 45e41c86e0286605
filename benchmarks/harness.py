"""Timing scratchlearn against scikit-learn on the same arrays, in the same process.

A :class:`Case` says how to build the data, both estimators, and how to call them. The runner
times ``fit`` and then the case's ``method`` (predict, transform, ...) for each side: one warm-up
call, then the median of several timed calls. It reports the ratio ours / scikit-learn (below 1
means we are faster) at one BLAS/OpenMP thread and at the library default, since on a 2-core VM
threading alone can change either side several-fold. Absolute seconds are printed for context
only: ratios are what is comparable across runs on a shared machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass
class Case:
    name: str
    make_data: Callable[[], tuple]
    ours: Callable[[], object]
    theirs: Callable[[], object]
    fit_args: Callable[[tuple], tuple] | None = None
    predict_args: Callable[[tuple], tuple] | None = None
    method: str = "predict"
    agree: Callable[[object, object, tuple], float] | None = None
    target_fit: float | None = None
    target_predict: float | None = None
    note: str = ""
    repeat: int | None = None
    # False when fit does no real work (e.g. a pairwise function wrapped as fit = store Y):
    # its ratio of microseconds is noise, so the table shows "—".
    time_fit: bool = True


@dataclass
class Timing:
    fit: float
    predict: float | None


def _median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _args(case: Case, data: tuple):
    fit_args = case.fit_args(data) if case.fit_args else data
    pred_args = case.predict_args(data) if case.predict_args else (data[0],)
    return fit_args, pred_args


def time_side(case: Case, factory, data, repeat: int | None = None):
    """Warm up once, then time fit and the case's method; returns (Timing, fitted estimator)."""
    fit_args, pred_args = _args(case, data)
    t0 = time.perf_counter()
    est = factory().fit(*fit_args)  # warm-up: JIT compilation, caches, page faults
    first = time.perf_counter() - t0
    if repeat is None:
        repeat = case.repeat or (3 if first > 2.0 else 5 if first > 0.2 else 9)
    fit_t = _median_time(lambda: factory().fit(*fit_args), repeat)
    est = factory().fit(*fit_args)
    pred_t = None
    if case.method:
        method = getattr(est, case.method)
        method(*pred_args)
        pred_t = _median_time(lambda: method(*pred_args), repeat)
    return Timing(fit_t, pred_t), est


def default_agreement(case: Case, ours, theirs, data) -> float:
    """Max absolute difference of the two sides' outputs of ``case.method`` (or mismatch rate
    for labels)."""
    if case.agree is not None:
        return float(case.agree(ours, theirs, data))
    if not case.method:
        return float("nan")
    _, pred_args = _args(case, data)
    a = getattr(ours, case.method)(*pred_args)
    b = getattr(theirs, case.method)(*pred_args)
    a = a.toarray() if hasattr(a, "toarray") else np.asarray(a)
    b = b.toarray() if hasattr(b, "toarray") else np.asarray(b)
    if a.dtype.kind in "fc" and b.dtype.kind in "fc":
        return float(np.max(np.abs(a - b))) if a.size else 0.0
    return float(np.mean(a != b))


def first_call(case: Case, data) -> float:
    """Seconds for the first fit + method call of ours in this process (Numba compile or cache
    load included)."""
    fit_args, pred_args = _args(case, data)
    t0 = time.perf_counter()
    est = case.ours().fit(*fit_args)
    if case.method:
        getattr(est, case.method)(*pred_args)
    return time.perf_counter() - t0
