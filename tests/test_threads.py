"""One fitted model, many threads: every registered estimator gives exactly its serial results.

A deployed model is called from many request threads at once. For every registered estimator,
fitted once on its small problem (:func:`tests._data.problem_for`), 8 threads call every
method it has (``predict``, ``predict_proba``, ``predict_log_proba``, ``decision_function``,
``transform``, ``score_samples``, ``kneighbors``, ``score``) at the same moment (a barrier
releases them together), for a few rounds, each thread in its own order of methods so that
different methods overlap too; every result must equal the serial one bit for bit.

And fits do not interfere: fitting every registered estimator at once on 8 threads gives each
the fitted state and outputs of its serial fit.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

try:
    from tests._data import problem_for
    from tests.test_determinism import (
        ENTRIES,
        METHODS,
        call,
        differences,
        fit,
        fitted_state,
        make,
        outputs,
        same,
    )
except ImportError:  # pragma: no cover - running the file on its own
    from _data import problem_for
    from test_determinism import (
        ENTRIES,
        METHODS,
        call,
        differences,
        fit,
        fitted_state,
        make,
        outputs,
        same,
    )

N_THREADS = 8
ROUNDS = 3

#: Estimators that cannot be used from several threads at once, with the reason (their
#: docstrings say so too). Empty: every registered estimator is safe.
NOT_THREAD_SAFE: dict[str, str] = {}


def _hammer(est, X, y, methods):
    """Results of ``N_THREADS`` threads calling ``methods`` together, ``ROUNDS`` times:
    ``[(method, result), ...]`` from every thread and round."""
    barrier = threading.Barrier(N_THREADS)
    results, errors = [], []
    lock = threading.Lock()

    def worker(t):
        order = methods[t % len(methods) :] + methods[: t % len(methods)]
        for _ in range(ROUNDS):
            try:
                barrier.wait(timeout=60)
            except threading.BrokenBarrierError:
                return
            for m in order:
                try:
                    r = call(est, m, X, y)
                except BaseException as exc:  # reported below, with the method's name
                    with lock:
                        errors.append((m, repr(exc)))
                    barrier.abort()
                    return
                with lock:
                    results.append((m, r))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(N_THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == [], errors
    return results


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_concurrent_calls_give_the_serial_results(entry):
    if entry.name in NOT_THREAD_SAFE:
        pytest.xfail(NOT_THREAD_SAFE[entry.name])
    X, y = problem_for(entry)
    est = fit(make(entry), X, y)
    serial = outputs(est, X, y)
    assert serial, "no method to call"
    results = _hammer(est, X, y, list(serial))
    assert len(results) == N_THREADS * ROUNDS * len(serial)
    wrong = sorted({m for m, r in results if not same(r, serial[m])})
    assert wrong == [], f"methods whose concurrent results differ from the serial ones: {wrong}"


def test_fits_in_parallel_threads_do_not_interfere():
    """Every registered estimator fitted at once on 8 threads (twice over, so each also runs
    beside a copy of itself) gives the fitted state and outputs of its serial fit."""
    problems = {e.name: problem_for(e) for e in ENTRIES}
    serial = {}
    for e in ENTRIES:
        X, y = problems[e.name]
        est = fit(make(e), X, y)
        serial[e.name] = (fitted_state(est), outputs(est, X, y))

    def fit_one(e):
        X, y = problems[e.name]
        est = fit(make(e), X, y)
        return e.name, fitted_state(est), outputs(est, X, y)

    with ThreadPoolExecutor(max_workers=N_THREADS) as pool:
        parallel = list(pool.map(fit_one, ENTRIES + ENTRIES[::-1]))
    bad = {}
    for name, state, outs in parallel:
        diff = differences(serial[name][0], state) + differences(serial[name][1], outs)
        if diff:
            bad[name] = diff[:5]
    assert bad == {}


def test_methods_list_covers_the_issue():
    """The methods the issue names are all among those called."""
    wanted = {"predict", "predict_proba", "decision_function", "transform", "kneighbors", "score"}
    assert wanted <= set(METHODS)
    assert np.all([hasattr(e.cls, "fit") for e in ENTRIES])
