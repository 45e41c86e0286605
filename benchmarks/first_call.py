"""What a user pays on the first call: every registered estimator in fresh processes, cold and warm.

``python -m benchmarks.first_call [--filter NAME] [--jobs N] [--verify-cold]`` (``make
bench-first-call``). For each estimator of the registry, a new Python process imports
scratchlearn, loads the estimator's showcase dataset (at most :data:`MAX_ROWS` rows), fits once,
calls ``predict`` (or ``transform``, or ``kneighbors``) once, then fits once more in the same
process. It runs twice, with ``NUMBA_CACHE_DIR`` naming one new temporary folder:

- **cold**: the folder is empty, so every Numba kernel the estimator runs is compiled (the
  kernels' default cache, ``__pycache__`` beside the source, is not read while
  ``NUMBA_CACHE_DIR`` is set);
- **warm**: the same folder, now holding what the cold run compiled, so kernels are loaded.

Each process reports wall and process-CPU seconds of ``import scratchlearn`` (plus the
estimator's public module), the first fit, the first call and the second fit (its compute alone),
and Numba's own counts of cache misses (compilations) and hits (loads), read from every
dispatcher of the package after the calls: a cold run has no hits, a warm run no misses, which
is the proof that cold was cold. ``--repeat N`` (default 3) measures each estimator N times,
each cold run in a new empty folder and each warm run in its cold run's, and reports the fastest
first call of each kind with the range of the N: a neighbour's load on a shared machine only ever
adds time, so the minimum estimates the cost itself, as ``timeit`` does; the range shows the
noise. ``--verify-cold`` adds a second cold run in another new folder. The table goes to
``benchmarks/results_first_call.md`` (a filtered run replaces its own rows).

``python -m benchmarks.first_call --kernels NAME`` profiles the compilation of one estimator's
first fit and first call in a cold process: every ``Dispatcher.compile`` of Numba is timed, and
each kernel's own seconds, wall and CPU of the compiling thread (its compilation minus the
kernels compiled inside it, as callees are compiled while their caller is typed), are listed
with the signatures compiled.

Processes run one at a time by default: two at once on two cores distort each other's wall time.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results_first_call.md")
#: Rows (sentences for a sequence labeller) of the showcase dataset used: a seeded subset.
MAX_ROWS = 2000
#: Targets of the issue: a cold first call (fit + call), a warm one, the import.
TARGET_COLD, TARGET_WARM, TARGET_IMPORT = 3.0, 0.5, 0.3
#: A child process that takes longer than this is reported as failed.
TIMEOUT = 900


# -- child process ---------------------------------------------------------------------------
def _clock():
    return time.perf_counter(), time.process_time()


def _since(start):
    wall, cpu = _clock()
    return {"wall": wall - start[0], "cpu": cpu - start[1]}


def _workload(entry):
    """``(fit, call)``: ``fit()`` fits a new estimator on the entry's data (the data of
    ``scratchlearn compile``, :func:`scratchlearn.cli._compile.workload`) and returns it;
    ``call(model)`` calls its predict (or transform, or kneighbors) on the same rows."""
    from scratchlearn.cli._common import final_step
    from scratchlearn.cli._compile import workload

    fit, X = workload(entry, MAX_ROWS)

    def call(model):
        for method in ("predict", "transform"):
            if callable(getattr(final_step(model), method, None)):
                return getattr(model, method)(X)
        return model.kneighbors(X)

    return fit, call


def _dispatchers():
    """Every Numba dispatcher defined in an imported module of the package."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("scratchlearn") or module is None:
            continue
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == name:
                found[id(value)] = value
    return list(found.values())


def _child(name: str) -> dict:
    start = _clock()
    import scratchlearn  # noqa: F401

    import_package = _since(start)
    from scratchlearn._registry import get_entry

    entry = get_entry(name)
    start = _clock()
    entry.cls  # noqa: B018  (imports the estimator's public module)
    import_module = _since(start)
    fit, call = _workload(entry)
    numba_before_fit = "numba" in sys.modules
    start = _clock()
    model = fit()
    first_fit = _since(start)
    start = _clock()
    call(model)
    first_call = _since(start)
    start = _clock()
    fit()
    second_fit = _since(start)
    misses = hits = 0
    if "numba" in sys.modules:
        for disp in _dispatchers():
            misses += sum(disp._cache_misses.values())
            hits += sum(disp._cache_hits.values())
    return {
        "import": import_package,
        "import_module": import_module,
        "fit": first_fit,
        "call": first_call,
        "second_fit": second_fit,
        "misses": misses,
        "hits": hits,
        "numba_before_fit": numba_before_fit,
    }


def _child_kernels(name: str) -> dict:
    """Time every compilation of a Numba dispatcher during one first fit and first call."""
    from numba.core import dispatcher

    records, stack, phase = [], [], {"now": "import"}
    compile_ = dispatcher.Dispatcher.compile

    def timed_compile(self, sig):
        misses = sum(self._cache_misses.values())
        frame = {"children": 0.0, "children_cpu": 0.0}
        stack.append(frame)
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return compile_(self, sig)
        finally:
            seconds, cpu = time.perf_counter() - t0, time.thread_time() - c0
            stack.pop()
            if stack:
                stack[-1]["children"] += seconds
                stack[-1]["children_cpu"] += cpu
            if sum(self._cache_misses.values()) > misses:  # compiled (not loaded, not known)
                func = self.py_func
                records.append(
                    {
                        "kernel": f"{func.__module__}.{func.__qualname__}",
                        "signature": _short_signature(sig),
                        "phase": phase["now"],
                        "self": seconds - frame["children"],
                        "self_cpu": cpu - frame["children_cpu"],
                        "inclusive": seconds,
                        "nested": bool(stack),
                    }
                )

    dispatcher.Dispatcher.compile = timed_compile
    from scratchlearn._registry import get_entry

    entry = get_entry(name)
    fit, call = _workload(entry)
    phase["now"] = "fit"
    start = _clock()
    model = fit()
    fit_time = _since(start)
    phase["now"] = "call"
    start = _clock()
    call(model)
    call_time = _since(start)
    return {"records": records, "fit": fit_time, "call": call_time}


def _short_signature(sig) -> str:
    text = ", ".join(str(t) for t in (sig if isinstance(sig, tuple) else (sig,)))
    return text.replace("array(", "a(").replace(", C)", ")").replace("readonly ", "ro ")


# -- parent process --------------------------------------------------------------------------
def _run_child(flag: str, name: str, cache_dir: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    env.pop("NUMBA_DISABLE_JIT", None)
    try:
        res = subprocess.run(
            [sys.executable, "-m", "benchmarks.first_call", flag, name],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {TIMEOUT} s"}
    try:
        return json.loads(res.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        lines = (res.stderr or res.stdout).strip().splitlines()
        return {"error": lines[-1] if lines else f"exit status {res.returncode}"}


def _index_files(folder: str) -> int:
    return sum(f.endswith(".nbi") for _, _, files in os.walk(folder) for f in files)


def _first_call(run: dict) -> float:
    """Wall seconds of a run's first fit and first call (inf for a run that failed)."""
    if "error" in run:
        return float("inf")
    return run["fit"]["wall"] + run["call"]["wall"]


def measure(name: str, verify: bool = False, repeat: int = 1) -> dict:
    """``repeat`` pairs of a cold then a warm run of one estimator (and a second cold with
    ``verify``); ``cold`` and ``warm`` are the runs of fastest first call (a failed run, if
    any), ``cold_all`` and ``warm_all`` every run's first call."""
    colds, warms, kernels = [], [], 0
    for _ in range(max(1, repeat)):
        folder = tempfile.mkdtemp(prefix="scratchlearn-first-call-")
        try:
            colds.append(_run_child("--child", name, folder))
            kernels = max(kernels, _index_files(folder))
            warms.append(_run_child("--child", name, folder))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    failed = [r for r in colds + warms if "error" in r]  # shown: never hidden by a faster run
    result = {
        "name": name,
        "cold": failed[0] if failed else min(colds, key=_first_call),
        "warm": failed[0] if failed else min(warms, key=_first_call),
        "kernels": kernels,
        "cold_all": [_first_call(r) for r in colds],
        "warm_all": [_first_call(r) for r in warms],
    }
    if verify:
        folder = tempfile.mkdtemp(prefix="scratchlearn-first-call-")
        try:
            result["cold2"] = _run_child("--child", name, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return result


def _mark(value, target):
    return " ✓" if value <= target else " ✗"


HEADER = (
    "| estimator | cold first call s (fit + call) | warm first call s (fit + call) | "
    "cold CPU s | second fit s | import s (+ module) | compiled cold / warm, loaded warm | "
    "kernels cached |"
)
RULE = "|---|---|---|---|---|---|---|---|"


def _cell(run: dict, target: float, every=()) -> str:
    """``total ✓ (fit + call)`` of one run's first fit and first call, then the range of
    ``every`` run's first call when there were several."""
    fit, call = run["fit"]["wall"], run["call"]["wall"]
    cell = f"{fit + call:.2f}{_mark(fit + call, target)} ({fit:.2f} + {call:.2f})"
    if len(every) > 1:
        cell += f"; {len(every)} runs {min(every):.2f}–{max(every):.2f}"
    return cell


def row(result: dict) -> str:
    """A table row: targets marked on the first call (fit + call) and ``import scratchlearn``."""
    name, cold, warm = result["name"], result["cold"], result["warm"]
    for run in (cold, warm, result.get("cold2", {})):
        if "error" in run:
            return f"| {name} | error: {run['error'][:100]} |  |  |  |  |  |  |"
    cold_cell = _cell(cold, TARGET_COLD, result.get("cold_all", ()))
    if "cold2" in result:
        again = result["cold2"]["fit"]["wall"] + result["cold2"]["call"]["wall"]
        cold_cell += f"; again: {again:.2f}"
    cpu = cold["fit"]["cpu"] + cold["call"]["cpu"]
    imp = warm["import"]["wall"]
    return (
        f"| {name} | {cold_cell} | {_cell(warm, TARGET_WARM, result.get('warm_all', ()))} | "
        f"{cpu:.2f} | "
        f"{warm['second_fit']['wall']:.3f} | "
        f"{imp:.2f}{_mark(imp, TARGET_IMPORT)} (+{warm['import_module']['wall']:.2f}) | "
        f"{cold['misses']} / {warm['misses']} / {warm['hits']} | {result['kernels']} |"
    )


def _merge(new_rows: dict, order: list, path=RESULTS) -> list:
    """A filtered run replaces its own rows of the existing table and keeps the others."""
    rows = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("| ") and not line.startswith("| estimator "):
                    rows[line.split("|")[1].strip()] = line.rstrip("\n")
    rows.update(new_rows)
    return [rows[n] for n in order if n in rows]


PREAMBLE = """\
First calls of every registered estimator in fresh processes (`python -m benchmarks.first_call`,
see benchmarks/README.md). Run {stamp}{merged}; {machine}.

- **cold**: `NUMBA_CACHE_DIR` is a new empty folder, every kernel the estimator runs is compiled;
  **warm**: a fresh process with the same folder, now filled: kernels are loaded.
- first call = first `fit` + first `predict` (or `transform`, `kneighbors`) on the showcase data
  (≤ {rows} rows); targets ✓/✗: cold ≤ {cold:g} s, warm ≤ {warm:g} s, `import scratchlearn`
  ≤ {imp:g} s (the import of the estimator's module, which brings Numba, follows the +).
- {repeat_line}
- cold CPU s: process CPU of the cold first call; second fit s: a fit after the first in the
  warm process (the computation alone). compiled cold / warm, loaded warm: Numba's cache misses
  (signatures compiled) in the cold and in the warm run, and its cache hits in the warm run (only
  the kernels called from Python are loaded: their callees are linked into them); kernels
  cached: index files (`*.nbi`) the cold run wrote.
- Wall seconds on a shared 2-core machine are noisy; the lead reruns this on a quiet machine.

"""


def _machine() -> str:
    import numba

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"Python {sys.version.split()[0]}, numba {numba.__version__}, {os.cpu_count()} cores, "
        f"load average {load} at the end"
    )


def run_table(filter_text, jobs, verify, out=RESULTS, repeat=3) -> int:
    from scratchlearn._registry import all_estimators

    names = [e.name for e in all_estimators()]
    chosen = [
        n
        for n in names
        if filter_text is None
        or any(p.strip().lower() in n.lower() for p in filter_text.split("|"))
    ]
    if not chosen:
        print(f"no estimator matches {filter_text!r}", file=sys.stderr)
        return 2
    print(HEADER + "\n" + RULE, flush=True)
    rows = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(lambda n: measure(n, verify, repeat), chosen):
            rows[result["name"]] = row(result)
            print(rows[result["name"]], flush=True)
    lines = _merge(rows, names, out) if filter_text is not None else [rows[n] for n in chosen]
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    preamble = PREAMBLE.format(
        stamp=stamp,
        merged=f" (--filter {filter_text!r}; other rows from earlier runs)" if filter_text else "",
        machine=_machine(),
        rows=MAX_ROWS,
        cold=TARGET_COLD,
        warm=TARGET_WARM,
        imp=TARGET_IMPORT,
        repeat_line=(
            "each estimator measured `--repeat` times (3 by default; each cell gives the count\n"
            "  and the range of the first calls), each cold run in a new empty cache folder: the\n"
            "  fastest cold and warm runs are shown (a neighbour's load only adds time)"
        ),
    )
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(preamble + HEADER + "\n" + RULE + "\n" + "\n".join(lines) + "\n")
    print(f"\nwritten to {out}")
    return 0


def run_kernels(name: str, top: int) -> int:
    from scratchlearn._registry import get_entry

    name = get_entry(name).name
    folder = tempfile.mkdtemp(prefix="scratchlearn-kernels-")
    try:
        result = _run_child("--child-kernels", name, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if "error" in result:
        print(f"{name}: error: {result['error']}", file=sys.stderr)
        return 1
    kernels = {}
    for r in result["records"]:
        k = kernels.setdefault(
            (r["kernel"].removeprefix("scratchlearn."), r["phase"]),
            {"self": 0.0, "cpu": 0.0, "sigs": []},
        )
        k["self"] += r["self"]
        k["cpu"] += r["self_cpu"]
        k["sigs"].append(r["signature"])
    total = sum(k["self"] for k in kernels.values())
    total_cpu = sum(k["cpu"] for k in kernels.values())
    top_level = sum(r["inclusive"] for r in result["records"] if not r["nested"])
    fit, call = result["fit"]["wall"], result["call"]["wall"]
    print(
        f"{name}, cold: first fit {fit:.2f} s, first call {call:.2f} s; {len(result['records'])} "
        f"signatures of {len(kernels)} kernels compiled in {total:.2f} s ({total_cpu:.2f} s CPU) "
        f"({fit + call - top_level:.2f} s of the first calls outside compilation)\n"
    )
    print(
        "| kernel | phase | own compile s | own CPU s | share | signatures |\n"
        "|---|---|---|---|---|---|"
    )
    ranked = sorted(kernels.items(), key=lambda kv: -kv[1]["self"])
    for (kernel, phase), k in ranked[:top]:
        sigs = "; ".join(k["sigs"])
        sigs = sigs if len(sigs) <= 160 else sigs[:157] + "..."
        share = k["self"] / total if total else 0.0
        print(f"| {kernel} | {phase} | {k['self']:.2f} | {k['cpu']:.2f} | {share:.0%} | {sigs} |")
    if len(ranked) > top:
        rest = sum(k["self"] for _, k in ranked[top:])
        rest_cpu = sum(k["cpu"] for _, k in ranked[top:])
        more = f"({len(ranked) - top} more)"
        print(f"| {more} |  | {rest:.2f} | {rest_cpu:.2f} | {rest / total:.0%} |  |")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--filter", help='estimators whose name contains this ("A|B": either)')
    parser.add_argument("--jobs", type=int, default=1, help="processes at once (default 1)")
    parser.add_argument(
        "--verify-cold", action="store_true", help="a second cold run in another new folder"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="cold and warm runs per estimator (default 3)"
    )
    parser.add_argument("--kernels", metavar="NAME", help="compile profile of one estimator")
    parser.add_argument("--top", type=int, default=15, help="kernels listed by --kernels")
    parser.add_argument("--out", default=RESULTS, help="table file (default results_first_call.md)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-kernels", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child or args.child_kernels:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = _child(args.child) if args.child else _child_kernels(args.child_kernels)
        print(json.dumps(result))
        return 0
    if args.kernels:
        return run_kernels(args.kernels, args.top)
    return run_table(args.filter, max(1, args.jobs), args.verify_cold, args.out, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
