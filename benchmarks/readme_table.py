"""Copy the one-thread columns of ``benchmarks/results.md`` into the README's performance table.

``python -m benchmarks.readme_table`` (run by hand after ``make bench``) rewrites the table
that follows the line ``| case | fit | predict / transform | target fit / predict |
agreement |`` in README.md, row for row from results.md, and the line after it that gives the
geometric mean of the fit ratios (the issue's target: at most 0.5). Rows are never edited by
hand, so the README says what the last run measured.
"""

from __future__ import annotations

import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, os.pardir, "README.md")
HEADER = "| case | fit | predict / transform | target fit / predict | agreement |"
GEOMEAN = re.compile(r"^Geometric mean of the fit ratios.*$", re.M)


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def rows(results_path):
    """(case, fit 1 thread, predict 1 thread, target, agreement) of each results.md row."""
    with open(results_path, encoding="utf-8") as fh:
        lines = [ln for ln in fh if ln.startswith("| ") and not ln.startswith("| case")]
    out = []
    for ln in lines:
        c = _cells(ln)
        out.append((c[0], c[1], c[3], c[8], c[7]))
    return out


def geometric_mean(values):
    """exp(mean(log r)) over the ratios that are numbers (rows without a fit time are '—')."""
    logs = [math.log(float(v.split()[0])) for v in values if re.match(r"^\d", v)]
    return math.exp(sum(logs) / len(logs)), len(logs)


def main(argv=None) -> int:
    results = os.path.join(HERE, "results.md")
    table = rows(results)
    body = "\n".join(f"| {' | '.join(r)} |" for r in table)
    g, k = geometric_mean([r[1] for r in table])
    with open(README, encoding="utf-8") as fh:
        text = fh.read()
    start = text.index(HEADER)
    end = text.index("\n\n", start)
    new_table = f"{HEADER}\n|---|---|---|---|---|\n{body}"
    text = text[:start] + new_table + text[end:]
    line = f"Geometric mean of the fit ratios at one thread: {g:.2f} over {k} rows (target ≤ 0.5)."
    if GEOMEAN.search(text):
        text = GEOMEAN.sub(line, text, count=1)
    else:
        print("README has no 'Geometric mean of the fit ratios' line to update", file=sys.stderr)
    with open(README, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"{len(table)} rows; {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
