"""Run the benchmark cases: ``python -m benchmarks.run [--filter TEXT] [--no-cold]``
(``--filter "A|B"``: the cases whose name contains A or B).

Every ``benchmarks/cases_*.py`` module contributes a ``CASES`` list, and may contribute
``SLOW_CASES`` (fits on Dask, minutes each) that only ``--slow`` runs, with ``--scale`` to
shrink their sizes; they are written to ``benchmarks/results_dask.md``. Results are printed as a
markdown table and written to ``benchmarks/results.md``. ``make bench`` runs this with glibc's
malloc told to keep freed memory (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import pkgutil
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))


def load_cases(filter_text: str | None = None, kind: str = "CASES"):
    import benchmarks

    cases = []
    for mod in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if not mod.name.startswith("cases_"):
            continue
        module = importlib.import_module(f"benchmarks.{mod.name}")
        for case in getattr(module, kind, []):
            if filter_text is None or any(
                part.strip().lower() in case.name.lower() for part in filter_text.split("|")
            ):
                cases.append(case)
    return cases


def _cold(name: str) -> None:
    """Child process: time the first call of one case and print it as JSON."""
    from benchmarks.harness import first_call

    (case,) = [c for c in load_cases() if c.name == name]
    data = case.make_data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print(json.dumps({"first_call": first_call(case, data)}))


@contextlib.contextmanager
def _numba_threads(threads):
    """threadpoolctl limits BLAS and OpenMP, not Numba's own pool: limit that one too."""
    try:
        import numba
    except ImportError:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(threads or numba.config.NUMBA_NUM_THREADS)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def thread_report() -> str:
    """The thread counts of the "default" columns: Numba's pool and each BLAS/OpenMP library
    (threadpoolctl), so that a ratio can be read against the cores it ran on."""
    import numba
    import numpy  # noqa: F401  (loads the BLAS that threadpoolctl inspects)
    from threadpoolctl import threadpool_info

    layer = ""
    with contextlib.suppress(ValueError):  # raised until a parallel region has run
        layer = f" ({numba.threading_layer()} layer)"
    parts = [f"{os.cpu_count()} cores", f"numba {numba.get_num_threads()} threads{layer}"]
    for lib in threadpool_info():
        parts.append(f"{lib['internal_api']} {lib['num_threads']} threads")
    return ", ".join(parts)


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table_rows(path):
    """{case: its line} of the table at ``path``, in the table's order (empty when there is
    none)."""
    rows = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("| ") and not line.startswith("| case "):
                    rows[_cells(line)[0]] = line.rstrip("\n")
    return rows


def _earlier_first_calls(path):
    """{case: its "first call s" cell} of the table at ``path``: a run with ``--no-cold`` keeps
    a row's earlier figure rather than blanking it."""
    return {name: _cells(line)[6] for name, line in _table_rows(path).items()}


def _merge_rows(path, new_rows):
    """A filtered run replaces its own rows of an existing table and keeps the others, in the
    order of the full case list. Rows of cases that this run could not load (an optional
    reference such as skglm not installed here) are kept where they stood."""
    old = _table_rows(path)
    order = [c.name for c in load_cases()]
    prev = None  # an unloaded case goes after the row it followed in the table
    for n in old:
        if n not in order:
            order.insert(order.index(prev) + 1 if prev is not None else 0, n)
        prev = n
    old.update({_cells(r)[0]: r for r in new_rows})
    return [old[n] for n in order if n in old]


def _fmt(x, digits=2):
    return "—" if x is None else f"{x:.{digits}f}"


def _ratio_cell(ratio, target=None):
    """'0.93 ✓ (0.90–0.95)': the median paired ratio, its mark against ``target`` (✓ under it,
    ✗ over it, ≈ the interval holds it: see benchmarks.harness.Ratio.mark) and its interval."""
    if ratio is None:
        return "—"
    mark = ratio.mark(target)
    mark = f" {mark}" if mark else ""
    return f"{ratio.median:.2f}{mark} ({ratio.low:.2f}–{ratio.high:.2f})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--filter", default=None, help="run only cases whose name contains this")
    parser.add_argument(
        "--no-cold",
        action="store_true",
        help="skip the fresh-process timing (a row keeps the first-call figure it had)",
    )
    parser.add_argument("--cold", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", default=None, help="results file (default results.md)")
    parser.add_argument(
        "--slow", action="store_true", help="run the slow Dask cases (SLOW_CASES) instead"
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="with --slow: fraction of the rows to use"
    )
    args = parser.parse_args(argv)
    if args.cold:
        _cold(args.cold)
        return 0
    if args.slow:
        from benchmarks.dask_harness import run_slow

        out = args.out or os.path.join(HERE, "results_dask.md")
        return run_slow(load_cases(args.filter, "SLOW_CASES"), args.scale, out)
    args.out = args.out or os.path.join(HERE, "results.md")

    from threadpoolctl import threadpool_limits

    from benchmarks.harness import default_agreement, time_pair

    cases = load_cases(args.filter)
    header = (
        "| case | fit ratio (1 thread) | fit ratio (default) | predict ratio (1 thread) | "
        "predict ratio (default) | ours fit s (1 thread) | first call s | agreement | target "
        "fit / predict |\n|---|---|---|---|---|---|---|---|---|"
    )
    rows = []
    earlier_cold = _earlier_first_calls(args.out) if args.no_cold else {}
    threads = thread_report()
    print(f"Threads (default columns; the 1-thread columns limit all to 1): {threads}\n")
    print(header, flush=True)
    for case in cases:
        data = case.make_data()
        ratios = {}
        ours_fit_1 = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for threads in (1, None):
                with threadpool_limits(limits=threads), _numba_threads(threads):
                    t_ours, _, fit_ratio, pred_ratio, ours, theirs = time_pair(case, data)
                ratios[threads] = (fit_ratio, pred_ratio)
                if threads == 1:
                    ours_fit_1 = t_ours.fit
                    agreement = default_agreement(case, ours, theirs, data)
        cold = None
        if not args.no_cold:
            res = subprocess.run(
                [sys.executable, "-m", "benchmarks.run", "--cold", case.name],
                capture_output=True,
                text=True,
                cwd=os.path.dirname(HERE),
            )
            try:
                cold = json.loads(res.stdout.strip().splitlines()[-1])["first_call"]
            except (IndexError, ValueError, KeyError):
                cold = None
        fit1, pred1 = ratios[1]
        fitd, predd = ratios[None]
        if not case.time_fit:
            fit1 = fitd = ours_fit_1 = None
        row = (
            f"| {case.name} | {_ratio_cell(fit1, case.target_fit)} | {_ratio_cell(fitd)} | "
            f"{_ratio_cell(pred1, case.target_predict)} | {_ratio_cell(predd)} | "
            f"{_fmt(ours_fit_1, 3)} | {earlier_cold.get(case.name, _fmt(cold, 2))} | "
            f"{agreement:.2g} | "
            f"{_fmt(case.target_fit, 1)} / {_fmt(case.target_predict, 1)} |"
        )
        rows.append(row)
        print(row, flush=True)
        del data
    if args.filter is not None:
        rows = _merge_rows(args.out, rows)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if args.filter is not None:  # say which rows this run measured
        stamp += f" (--filter {args.filter!r}; other rows from earlier runs)"
    with open(args.out, "w") as fh:
        fh.write(
            f"Benchmark run {stamp}; threads in the default columns: {thread_report()}. "
            "Ratios are ours / scikit-learn (lower is better): the median over paired samples, "
            "then its interval (the run's noise, at least 90% confidence); ✓: the interval is at "
            "or under the target, ✗: above it, ≈: it holds the target.\n\n"
        )
        fh.write(header + "\n" + "\n".join(rows) + "\n")
    print(f"\nwritten to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
