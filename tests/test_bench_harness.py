"""The benchmark harness's statistics: the paired ratios' interval and the row marks.

Timing itself is not tested here (a shared machine cannot time reliably in a test); what is
tested is the arithmetic that turns paired samples into a reported ratio, its interval and its
mark, since the README's performance table and the issue's targets are read through it.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # benchmarks/ is a package of the repository, not of the wheel
    sys.path.insert(0, str(ROOT))

from benchmarks.harness import Ratio, ratio_interval  # noqa: E402
from benchmarks.run import _earlier_first_calls, _ratio_cell  # noqa: E402


def _sign_test_bound(n, j):
    """1 − 2·P(B ≤ j − 1) for B ~ Binomial(n, ½), summed directly."""
    return 1 - 2 * sum(math.comb(n, i) for i in range(j)) / 2**n


@pytest.mark.parametrize(
    "n, j, coverage",
    [
        (3, 1, 0.75),  # even the full range is short of 0.9: reported as it is
        (5, 1, 0.9375),
        (7, 1, 0.984375),  # j = 2 would give 0.875 < 0.9
        (9, 2, 0.9609375),  # j = 3 would give 0.8203125
        (15, 4, 0.96484375),
    ],
)
def test_interval_takes_the_order_statistics_of_the_sign_test(n, j, coverage):
    ratios = np.random.default_rng(n).permutation(np.arange(1.0, n + 1))  # r₍ᵢ₎ = i
    r = ratio_interval(ratios)
    assert (r.low, r.high) == (float(j), float(n + 1 - j))
    assert r.median == (n + 1) / 2
    assert r.coverage == pytest.approx(coverage, abs=1e-15)
    assert r.coverage == pytest.approx(_sign_test_bound(n, j), abs=1e-15)
    if j + 1 <= (n + 1) // 2:  # the next narrower interval would miss the coverage asked for
        assert _sign_test_bound(n, j + 1) < 0.9


def test_interval_holds_the_median_as_often_as_it_claims():
    """Simulated runs: 9 paired ratios with a lognormal noise of 15% around a true median 1.0.
    The interval's bound for n = 9 is 0.961; over 4,000 runs the observed rate has a standard
    error of √(0.961·0.039/4000) ≈ 0.003, so 0.94 leaves seven of them below the bound."""
    rng = np.random.default_rng(0)
    runs = np.exp(0.15 * rng.standard_normal((4000, 9)))
    held = [r.low <= 1.0 <= r.high for r in map(ratio_interval, runs)]
    assert np.mean(held) >= 0.94


def test_interval_of_one_sample_and_of_none():
    r = ratio_interval([0.8])
    assert (r.median, r.low, r.high, r.coverage) == (0.8, 0.8, 0.8, 0.0)
    with pytest.raises(ValueError, match="at least one"):
        ratio_interval([])


@pytest.mark.parametrize(
    "low, high, mark",
    [(0.80, 0.95, "✓"), (0.80, 1.00, "✓"), (0.95, 1.10, "≈"), (1.01, 1.20, "✗")],
)
def test_mark_reads_the_whole_interval_against_the_target(low, high, mark):
    r = Ratio(median=(low + high) / 2, low=low, high=high, coverage=0.96)
    assert r.mark(1.0) == mark
    assert r.mark(None) == ""


def test_ratio_cell_shows_median_mark_and_interval():
    r = Ratio(median=1.04, low=0.86, high=1.18, coverage=0.98)
    assert _ratio_cell(r, 1.0) == "1.04 ≈ (0.86–1.18)"
    assert _ratio_cell(r) == "1.04 (0.86–1.18)"
    assert _ratio_cell(None, 1.0) == "—"


def test_a_run_without_cold_keeps_the_rows_first_call_figures(tmp_path):
    table = tmp_path / "results.md"
    table.write_text(
        "header line\n\n| case | a | b | c | d | e | first call s | g | h |\n|---|\n"
        "| KMeans lloyd k=8 100000x20 | 1.06 ✗ | 1.09 | 0.93 ✓ | 1.03 | 0.347 | 0.40 | 0 | 1 |\n",
        encoding="utf-8",
    )
    assert _earlier_first_calls(table) == {"KMeans lloyd k=8 100000x20": "0.40"}
    assert _earlier_first_calls(tmp_path / "none.md") == {}


def _run(fit=0.0, call=0.0, error=None):
    """A child's report as benchmarks.first_call reads it (only the fields a row uses)."""
    if error is not None:
        return {"error": error}
    return {
        "fit": {"wall": fit, "cpu": fit},
        "call": {"wall": call, "cpu": call},
        "second_fit": {"wall": 0.001},
        "import": {"wall": 0.07},
        "import_module": {"wall": 0.2},
        "misses": 3,
        "hits": 1,
    }


def _measured(monkeypatch, runs):
    from benchmarks import first_call

    runs = iter(runs)  # cold, warm, cold, warm, ...
    monkeypatch.setattr(first_call, "_run_child", lambda flag, name, folder: next(runs))
    monkeypatch.setattr(first_call, "_index_files", lambda folder: 3)
    result = first_call.measure("SVC", repeat=3)
    return result, first_call.row(result)


def test_a_repeated_first_call_row_shows_the_fastest_run_and_the_range(monkeypatch):
    # the fastest of the runs is the estimate (a neighbour's load only adds time); the range of
    # the runs is printed beside it
    result, row = _measured(
        monkeypatch, [_run(3.4), _run(0.3), _run(2.9, 0.05), _run(0.2), _run(3.1), _run(0.4)]
    )
    assert result["cold"]["fit"]["wall"] == 2.9 and result["warm"]["fit"]["wall"] == 0.2
    assert result["cold_all"] == [3.4, 2.9 + 0.05, 3.1]  # fit + call of each cold run
    assert "| SVC | 2.95 ✓ (2.90 + 0.05); 3 runs 2.95–3.40 | 0.20 ✓ (0.20 + 0.00); 3 runs" in row


def test_a_failed_run_is_shown_not_hidden_by_a_faster_one(monkeypatch):
    _, row = _measured(
        monkeypatch, [_run(2.9), _run(0.3), _run(error="boom"), _run(0.2), _run(3.1), _run(0.4)]
    )
    assert row.startswith("| SVC | error: boom |")
