"""The command line's notice that Numba is compiling scratchlearn's kernels (cli/_compile_notice).

The listener is exercised in-process with tiny probe functions compiled by Numba under a module
name of the package (a fraction of a second each, no cache on disk); the commands are checked
once end to end in subprocesses sharing a new ``NUMBA_CACHE_DIR``: the first run compiles and
says so once, the second loads from the cache and says nothing.
"""

from __future__ import annotations

import importlib
import io
import os
import subprocess
import sys

import numba
import pytest
from numba.core import event

from scratchlearn.cli import _fit, main
from scratchlearn.cli._compile_notice import NOTICE, compile_notice
from scratchlearn.utils._compile_events import AfterImport


def _probe(module: str):
    """A new jitted function whose Python function belongs to ``module`` (not compiled yet)."""
    namespace = {"__name__": module}
    exec("def probe(x):\n    return x + 1\n", namespace)
    return numba.njit(namespace["probe"])


def test_the_first_compilation_of_a_package_kernel_prints_the_notice_once():
    err = io.StringIO()
    first, second = _probe("scratchlearn._probe"), _probe("scratchlearn.cluster._probe")
    with compile_notice(err) as listener:
        first(1)
        first(1.5)  # a second signature: compiled again, not announced again
        second(1)
    assert err.getvalue() == NOTICE + "\n"
    assert listener.shown


def test_no_notice_when_every_kernel_is_already_compiled():
    err = io.StringIO()
    kernel = _probe("scratchlearn._probe")
    kernel(1)  # compiled before the block
    with compile_notice(err) as listener:
        assert kernel(2) == 3
    assert err.getvalue() == ""
    assert not listener.shown


@pytest.mark.parametrize("module", ["other_package._probe", "scratchlearnish", "__main__"])
def test_compilations_of_other_packages_are_silent(module):
    err = io.StringIO()
    with compile_notice(err):
        _probe(module)(1)
    assert err.getvalue() == ""


def test_the_listener_is_removed_after_the_block():
    err = io.StringIO()
    registered = list(event._registered["numba:compile"])
    with compile_notice(err):
        pass
    assert event._registered["numba:compile"] == registered
    _probe("scratchlearn._probe")(1)
    assert err.getvalue() == ""


def test_without_numba_loaded_the_listener_waits_for_its_import(monkeypatch):
    # Importing Numba only to listen would cost a fit without kernels (naive Bayes, Ridge) a few
    # tenths of a second: the block watches for the import instead, and leaves nothing behind.
    monkeypatch.delitem(sys.modules, "numba")
    registered = list(event._registered["numba:compile"])
    finders = list(sys.meta_path)
    with compile_notice(io.StringIO()) as notice:
        assert "numba" not in sys.modules
        assert event._registered["numba:compile"] == registered
        assert len(sys.meta_path) == len(finders) + 1
    assert sys.meta_path == finders and not notice.shown


def test_the_import_hook_runs_after_the_watched_module(tmp_path, monkeypatch):
    (tmp_path / "watched_probe_module.py").write_text("VALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = []
    hook = AfterImport("watched_probe_module", lambda: seen.append(sys.modules[hook.name].VALUE))
    monkeypatch.setattr(sys, "meta_path", [hook, *sys.meta_path])
    assert seen == []
    module = importlib.import_module("watched_probe_module")
    monkeypatch.delitem(sys.modules, "watched_probe_module")
    assert module.VALUE == 42 and seen == [42]  # called once the module was executed


def _compiling_first(monkeypatch, name):
    """Make the command's step ``name`` of cli/_fit compile a new package kernel first."""
    original = getattr(_fit, name)

    def compiling(*args, **kwargs):
        _probe("scratchlearn._probe")(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(_fit, name, compiling)


def test_fit_and_predict_show_the_notice_when_their_work_compiles(capsys, tmp_path, monkeypatch):
    model = tmp_path / "nb.slm"
    rows = tmp_path / "rows.csv"
    rows.write_text("5.1,3.5,1.4,0.2\n6.7,3.0,5.2,2.3\n")  # no header: read as data
    with monkeypatch.context() as patch:
        _compiling_first(patch, "_fit_and_report")
        code = main(["fit", "gaussian-nb", "--data", "iris", "--save", str(model)])
        out, err = capsys.readouterr()
    assert code == 0, err
    assert err.splitlines().count(NOTICE) == 1 and NOTICE not in out
    with monkeypatch.context() as patch:
        _compiling_first(patch, "_answers")
        code = main(["predict", str(model), "--data", str(rows)])
        out, err = capsys.readouterr()
    assert code == 0, err
    assert err.splitlines().count(NOTICE) == 1 and len(out.splitlines()) == 2
    code = main(["predict", str(model), "--data", str(rows)])  # GaussianNB compiles nothing
    out, err = capsys.readouterr()
    assert code == 0 and NOTICE not in err


def _cli(cache_dir, *argv):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)}
    env.pop("NUMBA_DISABLE_JIT", None)
    return subprocess.run(
        [sys.executable, "-m", "scratchlearn", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def test_a_cold_cache_is_announced_once_and_a_warm_one_not_at_all(tmp_path):
    # RankSVM: few, small kernels (the dual coordinate descent of liblinear, 3 signatures, a few
    # seconds to compile), and Numba imported only inside its fit: the import hook's case.
    cache = tmp_path / "numba-cache"
    argv = ("fit", "rank-svm", "--data", "modechoice", "--set", "max_iter=50")
    cold = _cli(cache, *argv)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.splitlines().count(NOTICE) == 1
    assert any(name.endswith(".nbi") for _, _, files in os.walk(cache) for name in files)
    warm = _cli(cache, *argv)
    assert warm.returncode == 0, warm.stderr
    assert NOTICE not in warm.stderr
    strip = lambda text: [ln for ln in text.splitlines() if not ln.startswith("fit time:")]
    assert strip(warm.stdout) == strip(cold.stdout)  # the same fit, only loaded, not compiled
    plain = _cli(tmp_path / "other-cache", "fit", "ridge", "--data", "diabetes")
    assert plain.returncode == 0 and NOTICE not in plain.stderr  # Ridge has no kernels
