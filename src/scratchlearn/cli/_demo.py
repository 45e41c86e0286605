"""``scratchlearn demo``: every registered estimator on its showcase dataset, then the stories.

Each estimator with a showcase ``dataset`` in the registry is built with its ``demo_params``,
seeded (every ``random_state`` in it set to ``--seed``), adapted to the data (text through
``CountVectorizer``, categories through ``OneHotEncoder``), fitted on 75% of at most
:data:`MAX_SAMPLES` rows and scored on the other 25% with the same seed, so that the table is
the same on every run but for its times. It is fitted twice and the second fit is timed: the
first compiles the Numba loops on a first run, which the line under the table reports.
A failure becomes an ``error: ...`` row instead of stopping the demo. Then each family's story
modules (``stories`` of its :class:`~scratchlearn._registry.Family`) print what their
``showcase()`` returns.

A story module may also define ``figures()``, returning ``[(file_name, draw), ...]`` where
``draw(fig)`` draws on an empty :class:`matplotlib.figure.Figure`; the demo saves each figure as
``<out>/<file_name>`` (PNG) and names the folder at the end. Without matplotlib the figures are
skipped with one line saying so.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
import warnings

import numpy as np

from ._common import (
    QUIET_WARNINGS,
    adapt_to_data,
    format_table,
    load_data,
    one_line,
    seed_estimator,
)
from ._tasks import stratify_for, task_spec

__all__ = ["MAX_SAMPLES", "QUICK_MAX_SAMPLES", "DEFAULT_OUT", "story_modules", "run_demo"]

#: Where the figures go unless ``--out`` says otherwise.
DEFAULT_OUT = "scratchlearn-demo"
#: Rows used per dataset (a seeded random subset of bigger datasets), to keep the demo short.
MAX_SAMPLES = 2000
QUICK_MAX_SAMPLES = 500
TEST_SIZE = 0.25


def story_modules() -> list[str]:
    """The families' story modules, in registry order."""
    from .._registry import all_families

    return [name for fam in all_families() for name in fam.stories]


def demo_entries(quick: bool = False):
    """Registered estimators that have a showcase dataset (``quick``: the first per family)."""
    from .._registry import all_estimators

    entries = [e for e in all_estimators() if e.dataset]
    if not quick:
        return entries
    chosen = {}
    for e in entries:  # per family, the first predictor (or the first entry if none)
        best = chosen.get(e.family)
        if best is None or (not _supervised(best) and _supervised(e)):
            chosen[e.family] = e
    return [e for e in entries if chosen.get(e.family) is e]


def _supervised(entry) -> bool:
    """Whether ``entry`` is a predictor (False when its class cannot be imported: an error row)."""
    try:
        return task_spec(entry.task).supervised
    except (ImportError, AttributeError):
        return False


def _subsample(bunch, max_samples, seed):
    X, y = bunch["data"], bunch.get("target")
    n = X.shape[0]
    if n <= max_samples:
        return X, y
    idx = np.sort(np.random.default_rng(seed).permutation(n)[:max_samples])
    return X[idx], (None if y is None else y[idx])


def _run_one(entry, bunch, seed, max_samples):
    """(metric, score text, fit seconds, first fit's extra seconds, note) of one estimator on
    its dataset. The estimator is fitted twice: the first fit compiles the Numba loops it
    needs (on a first run; later runs load them from Numba's cache), the second is timed."""
    from ..base import clone
    from ..model_selection import train_test_split

    X, y = _subsample(bunch, max_samples, seed)
    model = seed_estimator(entry.cls(**entry.demo_params), seed)
    estimator, adapted = adapt_to_data(model, bunch["kind"])
    spec = task_spec(entry.task)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if spec.supervised:
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=TEST_SIZE, random_state=seed, stratify=stratify_for(spec, y)
            )
        else:
            (X_tr, X_te), y_te = train_test_split(X, test_size=TEST_SIZE, random_state=seed), None
        times = []
        for fitted in (clone(estimator), estimator):  # a warm-up fit, then the timed one
            start = time.perf_counter()
            fitted.fit(X_tr, y_tr) if spec.supervised else fitted.fit(X_tr)
            times.append(time.perf_counter() - start)
        metric, score = spec.demo_score(estimator, X_te, y_te)
    notes = sorted(
        {w.category.__name__ for w in caught if not issubclass(w.category, QUIET_WARNINGS)}
    )
    if adapted:
        notes.insert(0, "via " + type(estimator.steps[0][1]).__name__)
    return metric, score, times[1], max(times[0] - times[1], 0.0), ", ".join(notes)


def _stories(out) -> list:
    """Print each family's story; return the story modules that loaded."""
    loaded = []
    for name in story_modules():
        short = name.split(".")[1] if name.count(".") >= 1 else name
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
                print(f"\n(story {name} skipped: module not available)", file=out)
                continue
            print(f"\n(story {name} skipped: error: {one_line(exc)})", file=out)
            continue
        loaded.append(module)
        try:
            text = module.showcase()
        except Exception as exc:  # noqa: BLE001 - a broken story must not stop the demo
            print(f"\n(story {name} failed: {type(exc).__name__}: {one_line(exc)})", file=out)
            continue
        heading = f"== {short}: story =="
        print(f"\n{heading}\n{str(text).rstrip()}", file=out)
    return loaded


def _figures(modules, folder: str, out) -> None:
    """Save the figures the story modules declare as PNG files in ``folder``."""
    declared = []
    for module in modules:
        try:
            declared += list(getattr(module, "figures", list)())
        except Exception as exc:  # noqa: BLE001 - a broken story must not stop the demo
            print(f"(figures of {module.__name__} failed: {one_line(exc)})", file=out)
    if not declared:
        return
    try:
        from matplotlib.figure import Figure  # the Agg canvas: no display needed
    except ImportError:
        print(
            f"\n{len(declared)} figures skipped: matplotlib is not installed "
            "(pip install 'scratchlearn[plot]')",
            file=out,
        )
        return
    os.makedirs(folder, exist_ok=True)
    written = []
    for file_name, draw in declared:
        fig = Figure(figsize=(6.4, 4.8), layout="constrained")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                draw(fig)
            fig.savefig(os.path.join(folder, file_name), format="png", dpi=100)
        except Exception as exc:  # noqa: BLE001 - one broken figure must not stop the demo
            print(f"(figure {file_name} failed: {type(exc).__name__}: {one_line(exc)})", file=out)
            continue
        written.append(file_name)
    if written:
        print(
            f"\n{len(written)} figures written to {folder}{os.sep}: {', '.join(written)}", file=out
        )


def run_demo(args, out=sys.stdout, err=sys.stderr) -> int:
    from tqdm import tqdm

    quick = bool(getattr(args, "quick", False))
    seed = getattr(args, "seed", 0)
    max_samples = QUICK_MAX_SAMPLES if quick else MAX_SAMPLES
    started = time.perf_counter()
    entries = demo_entries(quick)
    cache: dict = {}
    rows = []
    warm_up = 0.0  # what the first fits took more than the timed ones: mostly compilation
    bar = tqdm(entries, file=err, desc="demo", unit="model", dynamic_ncols=True, leave=False)
    for entry in bar:
        bar.set_postfix_str(entry.name)
        try:
            if entry.dataset not in cache:
                cache[entry.dataset] = load_data(entry.dataset)
            metric, score, seconds, extra, note = _run_one(
                entry, cache[entry.dataset], seed, max_samples
            )
            warm_up += extra
            rows.append((entry.name, entry.dataset, metric, score, f"{seconds:.3f} s", note))
        except Exception as exc:  # noqa: BLE001 - one failing estimator is a row, not a crash
            message = one_line(exc)
            message = message if len(message) <= 90 else message[:87] + "..."
            rows.append(
                (
                    entry.name,
                    entry.dataset,
                    "-",
                    "error",
                    "-",
                    f"error: {type(exc).__name__}: {message}",
                )
            )
    bar.close()
    print(
        format_table(
            ("estimator", "dataset", "metric", "score", "fit time", "notes"),
            rows,
            align=["<", "<", "<", ">", ">", "<"],
        ),
        file=out,
    )
    print(
        f"\nfit time: of a second fit; the first fits took {warm_up:.1f} s more (Numba compiles "
        "its loops on a first run, and loads them from its cache on later runs)",
        file=out,
    )
    _figures(_stories(out), getattr(args, "out", None) or DEFAULT_OUT, out)
    elapsed = time.perf_counter() - started
    n_err = sum(r[3] == "error" for r in rows)
    print(f"\ndemo: {len(rows)} estimators ({n_err} errors) in {elapsed:.1f} s", file=out)
    return 0
