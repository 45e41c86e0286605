"""The README tells the truth, and these tests prove it (issue 22).

* Every ```python block of README.md runs as a script, in a fresh process, in a temporary folder
  holding a copy of ``examples/data/`` (the README's commands run from the repository root, so
  its paths start with ``examples/data/``). A comment after a ``print(...)`` states what that
  call prints: the whole output, exactly; or, when the comment starts with ``...``, text that
  the output contains (white space collapsed), for a print of many lines. Every such comment is
  checked; a print without a comment is only run.
* Every command of the README's plain and ```console blocks (lines starting ``scratchlearn ``)
  runs through ``scratchlearn.cli.main`` in README order, in one temporary folder, so the model
  that ``--save`` writes exists for the ``predict`` after it; each must exit 0 and write the
  files its ``--save``, ``--plot`` and ``--out`` name.
* The example files in ``examples/data/`` are what the seeded generator below writes.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import numpy as np
import pytest

from scratchlearn.cli import _demo, main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DATA = ROOT / "examples" / "data"
#: Brackets around the output of each checked print; no README output contains them.
MARK = "@@readme-check {} {}@@"


# -- the example data ----------------------------------------------------------------------------


def churn_table(n: int, seed: int, *, label: bool = True) -> str:
    """A made-up phone company's customers as CSV text: ``examples/data/churn.csv`` is
    ``churn_table(60, 0)`` and ``churn_new.csv`` is ``churn_table(5, 1, label=False)``.

    Churn is drawn from a logistic model, P(yes) = σ(z) with
    z = 1.5·(calls − 3) − 0.06·(tenure − 36) + 0.5 (basic) or −0.5 (premium): support calls
    (0 to 6) matter most but vary least, so a distance on the raw columns, dominated by the
    tenure (1 to 72 months) and the fee (about 15 to 95), hardly sees them. The fee follows the
    plan (25, 55 or 85, ± 10).
    """
    rng = np.random.default_rng(seed)
    plans = np.array(["basic", "standard", "premium"])
    tenure = rng.integers(1, 73, size=n)
    plan = plans[rng.integers(0, 3, size=n)]
    fee = np.select([plan == "basic", plan == "standard"], [25.0, 55.0], 85.0)
    fee = np.round(fee + rng.uniform(-10.0, 10.0, size=n), 2)
    calls = rng.integers(0, 7, size=n)
    z = 1.5 * (calls - 3) - 0.06 * (tenure - 36)
    z += np.select([plan == "basic", plan == "standard"], [0.5, 0.0], -0.5)
    churned = np.where(rng.random(n) < 1.0 / (1.0 + np.exp(-z)), "yes", "no")
    header = ["tenure_months", "monthly_fee", "plan", "support_calls"]
    rows = [header + ["churned"] if label else header]
    for i in range(n):
        row = [str(tenure[i]), f"{fee[i]:.2f}", str(plan[i]), str(calls[i])]
        rows.append(row + [str(churned[i])] if label else row)
    return "".join(",".join(row) + "\n" for row in rows)


EXAMPLE_FILES = {
    "churn.csv": lambda: churn_table(60, 0),
    "churn_new.csv": lambda: churn_table(5, 1, label=False),
}


@pytest.mark.parametrize("name", sorted(EXAMPLE_FILES))
def test_example_data_is_what_its_seeded_generator_writes(name):
    assert (DATA / name).read_text(encoding="utf-8") == EXAMPLE_FILES[name]()


def test_example_data_folder_is_data_only():
    """sphinx-gallery makes a gallery section of each subfolder of examples/ with a README.rst,
    README.txt or GALLERY_HEADER.rst, and runs its scripts: this folder must have neither."""
    assert sorted(p.suffix for p in DATA.iterdir()) == [".csv"] * 3


def test_every_example_file_is_used_by_the_readme():
    text = README.read_text(encoding="utf-8")
    for path in sorted(DATA.iterdir()):
        assert f"examples/data/{path.name}" in text, f"{path.name} is not in the README"


# -- reading the README ---------------------------------------------------------------------------


def fenced_blocks(text: str):
    """``(info string, first line number, body, section)`` of every fenced block of a Markdown
    text; ``section`` is the heading above the block."""
    blocks, info, start, body, section = [], None, 0, [], ""
    for k, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            if info is None:
                info, start, body = line[3:].strip(), k + 1, []
            else:
                blocks.append((info, start, "\n".join(body) + "\n", section))
                info = None
        elif info is not None:
            body.append(line)
        elif line.startswith("#"):
            section = line.lstrip("#").strip()
    assert info is None, f"README.md: the block opened on line {start - 1} is never closed"
    return blocks


def python_blocks():
    """``(test id, body)`` of every python block: its section's name, numbered within it."""
    text = README.read_text(encoding="utf-8")
    found, seen = [], {}
    for info, _, body, section in fenced_blocks(text):
        if info == "python":
            name = re.sub(r"\W+", "-", section).strip("-").lower()
            seen[name] = seen.get(name, 0) + 1
            found.append((name if seen[name] == 1 else f"{name}-{seen[name]}", body))
    return found


def cli_commands():
    """``(README line, argv after "scratchlearn")`` of every command, in README order."""
    text = README.read_text(encoding="utf-8")
    found = []
    for info, start, body, _ in fenced_blocks(text):
        if info not in ("", "console", "shell", "sh"):
            continue
        for k, line in enumerate(body.splitlines(), start=start):
            if line.startswith("scratchlearn "):
                found.append((k, shlex.split(line, comments=True)[1:]))
    return found


def expected_prints(source: str):
    """``[(line, col, end line, expected text)]`` of every print statement with a comment."""
    comments = {
        tok.start[0]: tok.string[1:].strip()
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    }
    found = []
    for node in ast.walk(ast.parse(source)):
        call = node.value if isinstance(node, ast.Expr) else None
        is_print = isinstance(call, ast.Call) and getattr(call.func, "id", None) == "print"
        if is_print and node.end_lineno in comments:
            found.append((node.lineno, node.col_offset, node.end_lineno, comments[node.end_lineno]))
    return sorted(found)


def instrument(source: str):
    """The block with a marker printed before and after each checked print (at its indent, so a
    print inside ``if __name__ == "__main__":`` stays inside), and the list of expectations."""
    checks = expected_prints(source)
    lines = source.splitlines()
    before, after = {}, {}
    for k, (first, col, last, _) in enumerate(checks):
        before[first] = f"{' ' * col}print({MARK.format(k, 'start')!r}, flush=True)"
        after[last] = f"{' ' * col}print({MARK.format(k, 'end')!r}, flush=True)"
    out = []
    for number, line in enumerate(lines, start=1):
        out += [before[number]] if number in before else []
        out.append(line)
        out += [after[number]] if number in after else []
    return "\n".join(out) + "\n", [text for *_, text in checks]


def printed(stdout: str, k: int) -> str:
    start, end = MARK.format(k, "start"), MARK.format(k, "end")
    assert start in stdout and end in stdout, f"print {k} never ran:\n{stdout}"
    return stdout.split(start + "\n", 1)[1].split(end, 1)[0].rstrip("\n")


def agrees(output: str, expected: str) -> bool:
    if expected.startswith("..."):
        part = " ".join(expected.strip(".").split())
        return part in " ".join(output.split())
    return output == expected


def test_the_output_convention_can_fail():
    assert agrees("{'C': 1.0}", "{'C': 1.0}") and not agrees("{'C': 0.1}", "{'C': 1.0}")
    report = "    accuracy                          0.979       143"
    assert agrees(report, "... accuracy 0.979 ...") and not agrees(report, "... accuracy 0.958")
    source = 'if __name__ == "__main__":\n    print(1 + 1)  # 2\n    print(3)\n'
    script, expected = instrument(source)
    assert expected == ["2"]
    stdout = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True).stdout
    assert printed(stdout, 0) == "2"


def test_the_readme_has_what_these_tests_run():
    """A parser that finds nothing would pass everything: count what it finds."""
    blocks = python_blocks()
    assert len(blocks) >= 4
    assert sum(len(expected_prints(body)) for _, body in blocks) >= 6
    commands = [argv for _, argv in cli_commands()]
    assert len(commands) >= 15
    predicts = [argv for argv in commands if argv[0] == "predict"]
    assert len(predicts) >= 2
    for argv in predicts:  # README order: each model is saved by a command above its predict
        above = commands[: commands.index(argv)]
        assert any(a[a.index("--save") + 1] == argv[1] for a in above if "--save" in a), argv


# -- running the README ---------------------------------------------------------------------------


@pytest.fixture
def readme_folder(tmp_path, monkeypatch):
    """A temporary folder laid out as the repository root for the README: examples/data/."""
    shutil.copytree(DATA, tmp_path / "examples" / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _needs(source: str):
    """The reason to skip a block whose optional dependency is not installed, or None."""
    for module in ("dask", "distributed", "matplotlib"):
        uses = re.search(rf"^\s*(import|from) {module}\b", source, re.MULTILINE)
        if uses and importlib.util.find_spec(module) is None:
            return f"the README block needs {module}, which is not installed"
    return None


@pytest.mark.parametrize("source", [pytest.param(body, id=name) for name, body in python_blocks()])
def test_readme_python_block_runs_and_prints_what_it_says(source, readme_folder):
    reason = _needs(source)
    if reason:
        pytest.skip(reason)
    script, expected = instrument(source)
    (readme_folder / "example.py").write_text(script, encoding="utf-8")
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, "example.py"],
        cwd=readme_folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    for k, text in enumerate(expected):
        output = printed(done.stdout, k)
        assert agrees(output, text), f"the README says {text!r}; the script printed:\n{output}"


def test_readme_commands_run_in_order_and_write_their_files(readme_folder, monkeypatch, capsys):
    # `scratchlearn demo` runs as `demo --quick` (one estimator per family) with one story:
    # the full demo, every story and figure, takes minutes and has its own test in
    # tests/test_cli.py; here it is the command line that is checked, not the stories. For the
    # same reason `scratchlearn compile` compiles one estimator's kernels here, not all of them.
    monkeypatch.setattr(_demo, "story_modules", lambda: ["scratchlearn.naive_bayes._showcase"])
    failures = []
    for line, argv in cli_commands():
        if argv[:1] == ["demo"] and "--quick" not in argv:
            argv = [*argv, "--quick"]
        if argv == ["compile"]:  # every estimator's kernels: tests/test_cli_compile.py runs it
            argv = [*argv, "gaussian-nb"]
        code = main(list(argv))
        out, err = capsys.readouterr()
        shown = f"README line {line}: scratchlearn {shlex.join(argv)}"
        if code != 0:
            failures.append(f"{shown} exited {code}\n{out}\n{err}")
            continue
        for option in ("--save", "--plot", "--out"):
            if option in argv and argv[0] != "demo":
                written = readme_folder / argv[argv.index(option) + 1]
                if not written.is_file() or written.stat().st_size == 0:
                    failures.append(f"{shown} did not write {written.name}")
    assert not failures, "\n\n".join(failures)
