"""Timing scratchlearn against scikit-learn on the same arrays, in the same process.

A :class:`Case` says how to build the data, both estimators, and how to call them. The runner
times ``fit`` and then the case's ``method`` (predict, transform, ...) for each side: one warm-up
call, then the median of several timed samples, the two sides alternating sample by sample (a
sample loops a fast call until it lasts at least 50 ms, and a call under half a second is made
once, untimed, before each sample: see :data:`WARM_BELOW_SECONDS`). It reports the ratio ours /
scikit-learn (below 1 means we are faster) at one BLAS/OpenMP thread and at the library default,
since on a 2-core VM threading alone can change either side several-fold. Absolute seconds are
printed for context only: ratios are what is comparable across runs on a shared machine.

Each pair of samples (ours, then theirs, a few milliseconds apart) gives one ratio rₛ; the
reported ratio is their median and :func:`ratio_interval` brackets it with two of the sorted rₛ,
chosen so that the bracket holds the median of the pairs' ratio distribution with probability at
least :data:`COVERAGE` (a sign-test interval: it assumes only that the pairs are independent).
A row whose bracket holds the target is at the target within this run's noise: its mark is ≈,
neither ✓ nor ✗.
"""

from __future__ import annotations

import math
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
class Ratio:
    """ours / theirs over paired samples: the median of the pairs' ratios and its interval
    [low, high] of confidence ``coverage`` (see :func:`ratio_interval`)."""

    median: float
    low: float
    high: float
    coverage: float

    def mark(self, target: float | None) -> str:
        """✓ when the whole interval is at or under ``target``, ✗ when it is all above, ≈ when
        it holds the target (the run cannot tell), "" without a target."""
        if target is None:
            return ""
        if self.high <= target:
            return "✓"
        return "✗" if self.low > target else "≈"


@dataclass
class Timing:
    """One side's median seconds per call."""

    fit: float
    predict: float | None


COVERAGE = 0.9  # the least probability that a reported interval holds the pairs' median ratio


def ratio_interval(ratios, coverage: float = COVERAGE) -> Ratio:
    """The median of the paired ratios r₁..rₙ and a distribution-free interval for the median m
    of their distribution (the sign test's): with r₍₁₎ ≤ … ≤ r₍ₙ₎ sorted, [r₍ⱼ₎, r₍ₙ₊₁₋ⱼ₎]
    misses m only when fewer than j of the n ratios fall on one side of it, so

        P(r₍ⱼ₎ ≤ m ≤ r₍ₙ₊₁₋ⱼ₎) ≥ 1 − 2·P(B < j),   B ~ Binomial(n, ½),

    for independent pairs. j is the largest with that bound ≥ ``coverage``; when even j = 1
    (the full range) falls short (n ≤ 4 for 0.9), the full range is given with the bound it
    has, which ``coverage`` of the result reports (n = 3: 0.75)."""
    r = sorted(float(x) for x in ratios)
    n = len(r)
    if n == 0:
        raise ValueError("ratio_interval needs at least one paired ratio.")

    def bound(j):  # 1 − 2·P(B ≤ j − 1)
        return 1.0 - 2.0 * sum(math.comb(n, i) for i in range(j)) / 2.0**n

    j = 1
    while j + 1 <= (n + 1) // 2 and bound(j + 1) >= coverage:
        j += 1
    return Ratio(statistics.median(r), r[j - 1], r[n - j], max(bound(j), 0.0))


def _args(case: Case, data: tuple):
    fit_args = case.fit_args(data) if case.fit_args else data
    pred_args = case.predict_args(data) if case.predict_args else (data[0],)
    return fit_args, pred_args


MIN_SAMPLE_SECONDS = 0.05  # a timed sample loops a fast call until it lasts at least this
#: A call under this many seconds is made once more, untimed, before each of its samples. An
#: OpenMP runtime keeps its threads spinning for a few milliseconds after each parallel call
#: (libgomp's default wait policy), so a sample that starts right after the other side's shares
#: the two cores with the other side's spinning threads, and a sample that starts from idle
#: cores pays for waking them: the untimed call absorbs both, for both sides alike. Measured on
#: KMeans.predict, 100,000 × 20 at the default thread count, ours / scikit-learn's in 9 paired
#: samples: 0.89-1.12 back to back (10 runs; scikit-learn's threads spin after its calls, ours,
#: Python threads, sleep), 0.88-0.90 with the untimed call (3 runs); k-means++ on one thread
#: 0.82-0.97 and 0.88-0.92. (A pause of 20 ms instead gave 0.82-0.91 and 0.91-1.03: idle cores
#: then slow the first timed call, by an amount that varies from run to run.)
WARM_BELOW_SECONDS = 0.5


def _once(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _loops_for(seconds: float) -> int:
    """How many calls make one timed sample last MIN_SAMPLE_SECONDS (as timeit's autorange)."""
    return max(1, int(MIN_SAMPLE_SECONDS / max(seconds, 1e-7)) + 1)


def _paired_samples(fn_ours, fn_theirs, first_ours, first_theirs, repeat):
    """Seconds per call of each side in ``repeat`` samples, the two sides timed alternately
    sample by sample so that drift of the shared machine lands on both alike: sample s of ours
    and sample s of theirs are a pair."""
    k = _loops_for(min(first_ours, first_theirs))
    warm_ours, warm_theirs = first_ours < WARM_BELOW_SECONDS, first_theirs < WARM_BELOW_SECONDS
    ours, theirs = [], []
    for _ in range(repeat):
        if warm_ours:
            fn_ours()  # untimed: see WARM_BELOW_SECONDS
        ours.append(_once(lambda: [fn_ours() for _ in range(k)]) / k)
        if warm_theirs:
            fn_theirs()
        theirs.append(_once(lambda: [fn_theirs() for _ in range(k)]) / k)
    return ours, theirs


def time_pair(case: Case, data, repeat: int | None = None):
    """Time fit and then the case's method for both sides, interleaved.

    One warm-up call per side first (JIT compilation, caches, page faults). Returns
    (Timing ours, Timing theirs, Ratio of the fits, Ratio of the calls or None, fitted ours,
    fitted theirs): each Timing holds the median seconds of its side, each :class:`Ratio`
    ours / theirs over the paired samples.
    """
    fit_args, pred_args = _args(case, data)
    fit_o = lambda: case.ours().fit(*fit_args)  # noqa: E731
    fit_t = lambda: case.theirs().fit(*fit_args)  # noqa: E731
    first_o, first_t = _once(fit_o), _once(fit_t)
    if repeat is None:
        slow = max(first_o, first_t)
        repeat = case.repeat or (5 if slow > 0.2 else 9)  # n ≥ 5: see ratio_interval
    fit_times = _paired_samples(fit_o, fit_t, _once(fit_o), _once(fit_t), repeat)
    ours, theirs = fit_o(), fit_t()
    pred_times = None
    if case.method:
        m_o, m_t = getattr(ours, case.method), getattr(theirs, case.method)
        call_o = lambda: m_o(*pred_args)  # noqa: E731
        call_t = lambda: m_t(*pred_args)  # noqa: E731
        pred_times = _paired_samples(call_o, call_t, _once(call_o), _once(call_t), repeat)
    pred_ours, pred_theirs = pred_times or (None, None)
    return (
        Timing(_median(fit_times[0]), _median(pred_ours)),
        Timing(_median(fit_times[1]), _median(pred_theirs)),
        _ratio(fit_times),
        _ratio(pred_times),
        ours,
        theirs,
    )


def _median(seconds):
    return None if seconds is None else statistics.median(seconds)


def _ratio(samples):
    """The :class:`Ratio` of the paired samples ``(ours, theirs)`` (None when there are none)."""
    if samples is None:
        return None
    return ratio_interval([a / b for a, b in zip(*samples)])


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
