"""The listeners on Numba's compilations (utils/_compile_events): the garbage collector's pause
while a kernel of the package compiles, and the import hook that installs listeners lazily.

Probe functions are compiled by Numba under a module name of the package or of another one (a
fraction of a second each, no cache on disk); a second listener, registered after the package's
own (which ``import scratchlearn`` installed), reads the collector's state at each event.
"""

from __future__ import annotations

import gc
import importlib
import subprocess
import sys

import numba
import pytest
from numba.core import event

import scratchlearn  # noqa: F401 - installs the pause
from scratchlearn.utils import _compile_events
from scratchlearn.utils._compile_events import AfterImport, pause_gc_while_compiling


def _probe(module: str, source: str = "def probe(x):\n    return x + 1\n", **names):
    """A new jitted function whose Python function belongs to ``module`` (not compiled yet)."""
    namespace = {"__name__": module, **names}
    exec(source, namespace)
    return numba.njit(namespace["probe"])


class _Seen(event.Listener):
    """Records, per event, the compiled function's module and whether the collector ran."""

    def __init__(self):
        self.starts, self.ends = [], []

    def on_start(self, ev):
        self.starts.append((ev.data["dispatcher"].py_func.__module__, gc.isenabled()))

    def on_end(self, ev):
        self.ends.append(gc.isenabled())


@pytest.fixture
def seen():
    listener = _Seen()
    event.register("numba:compile", listener)
    yield listener
    event.unregister("numba:compile", listener)


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_the_collector_is_paused_while_a_package_kernel_compiles(seen, collector_on):
    assert _probe("scratchlearn._probe")(1) == 2
    assert seen.starts == [("scratchlearn._probe", False)]
    assert gc.isenabled()  # restarted at the end of the compilation


def test_other_packages_compilations_leave_the_collector_alone(seen, collector_on):
    _probe("other_package._probe")(1)
    assert seen.starts == [("other_package._probe", True)]
    assert gc.isenabled()


def test_a_kernel_and_its_callees_compile_in_one_pause(seen, collector_on):
    inner = _probe("scratchlearn._inner")
    outer = _probe("scratchlearn._outer", "def probe(x):\n    return inner(x) * 2\n", inner=inner)
    assert outer(1) == 4
    assert seen.starts == [("scratchlearn._outer", False), ("scratchlearn._inner", False)]
    # the callee's end (first) keeps the pause; the caller's end restarts the collector; this
    # listener, registered after the package's, hears each end after it
    assert seen.ends == [False, True] and gc.isenabled()


def test_a_failed_compilation_restarts_the_collector(collector_on):
    broken = _probe("scratchlearn._probe", "def probe(x):\n    return x + undefined_name\n")
    with pytest.raises(numba.core.errors.TypingError):
        broken(1)
    assert gc.isenabled()


def test_a_program_that_disabled_the_collector_keeps_it_disabled(seen):
    was = gc.isenabled()
    gc.disable()
    try:
        _probe("scratchlearn._probe")(1)
        assert seen.starts == [("scratchlearn._probe", False)] and not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_the_pause_is_installed_once():
    listeners = list(event._registered["numba:compile"])
    pause_gc_while_compiling()
    assert event._registered["numba:compile"] == listeners
    assert len(_compile_events._installed) == 1


def test_without_numba_loaded_the_pause_is_installed_by_its_import():
    # a fresh interpreter: importing scratchlearn does not load Numba; the hook registers the
    # listener when Numba is imported, then leaves sys.meta_path
    code = (
        "import sys, scratchlearn\n"
        "from scratchlearn.utils import _compile_events as c\n"
        "assert 'numba' not in sys.modules and not c._installed\n"
        "hooks = [f for f in sys.meta_path if isinstance(f, c.AfterImport)]\n"
        "assert len(hooks) == 1\n"
        "import numba\n"
        "assert len(c._installed) == 1\n"
        "assert not any(isinstance(f, c.AfterImport) for f in sys.meta_path)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_two_hooks_on_one_module_both_run(tmp_path, monkeypatch):
    # each hook asks the other finders for the module's spec; the other hook, asked in turn,
    # must not ask back (that recursed without end)
    (tmp_path / "watched_twice_module.py").write_text("VALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = []
    first = AfterImport("watched_twice_module", lambda: seen.append("first"))
    second = AfterImport("watched_twice_module", lambda: seen.append("second"))
    monkeypatch.setattr(sys, "meta_path", [first, second, *sys.meta_path])
    module = importlib.import_module("watched_twice_module")
    monkeypatch.delitem(sys.modules, "watched_twice_module")
    assert module.VALUE == 7 and sorted(seen) == ["first", "second"]
