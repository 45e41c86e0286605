"""Listening to Numba's compilations of scratchlearn's kernels, without importing Numba first.

Numba announces a ``"numba:compile"`` event each time it compiles a function (a signature
neither compiled in this process nor found in its cache), under its global compiler lock, with
the callees that the compilation reaches announced inside their caller's event. Three parts of
the package listen: the command line's notice (``cli/_compile_notice``), ``scratchlearn
compile``'s count of what it compiled, and :func:`pause_gc_while_compiling` below, which
``import scratchlearn`` installs.

* :func:`kernel_of` names the package function that an event compiles;
* :func:`listener` wraps functions into the ``numba.core.event.Listener`` that Numba registers;
* :func:`when_imported` runs a function now if a module is loaded, else right after its first
  import (by an :class:`AfterImport` hook): a listener is registered the moment Numba is loaded,
  since importing Numba only to listen would cost a fit without kernels (naive Bayes, Ridge) a
  few tenths of a second.

The cyclic garbage collector during a compilation. Numba's compiler allocates hundreds of
thousands of objects, many of them in reference cycles (its IR, its typing graphs). CPython's
collector answers with full collections, each of which walks every object of the process, some
180,000 once NumPy, SciPy and Numba are imported: the cold first fit of an ``SVC`` ran four
of them (0.27 s of its 3 s) and a ``RandomForestClassifier``'s five (0.35 s). While Numba
compiles a kernel of the package, the collector is paused; the cycles left behind are freed by
the next collection after it (one, 0.06 s). Two full collections remain, in 0.10 s. The price
is memory: the garbage of one compilation waits for its end, 17–22 MB more at the peak (RSS
201 → 218 MB for SVC). The collector's state is restored as it was found: a program that
disabled it keeps it disabled, and the compilations of other packages' functions are left
alone.
"""

from __future__ import annotations

import gc
import sys

__all__ = ["AfterImport", "kernel_of", "listener", "pause_gc_while_compiling", "when_imported"]


def kernel_of(event, package: str = "scratchlearn") -> str | None:
    """``module.function`` of the function that a ``"numba:compile"`` event compiles, when it
    belongs to ``package``; None for any other (Numba's own implementations included)."""
    dispatcher = (event.data or {}).get("dispatcher")
    function = getattr(dispatcher, "py_func", None)
    module = getattr(function, "__module__", "") or ""
    if module != package and not module.startswith(package + "."):
        return None
    return f"{module}.{getattr(function, '__qualname__', '?')}"


class AfterImport:
    """On ``sys.meta_path``: calls ``then()`` right after the module ``name`` is first executed
    (it finds the module's real spec with the other finders and wraps its loader), then leaves
    ``sys.meta_path``. Several hooks on the same module each wrap the loader in turn; each looks
    past itself while it asks the others. (A finder needs only ``find_spec``; importing
    ``importlib.abc`` for its base class would add 9 ms to ``import scratchlearn``.)"""

    def __init__(self, name, then):
        self.name, self.then = name, then
        self._asking = False

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name or self._asking:
            return None
        self._asking = True
        try:
            for finder in sys.meta_path:  # (this hook, asked again, answers None)
                find = getattr(finder, "find_spec", None)
                spec = None if find is None else find(fullname, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            self._asking = False
        exec_module = getattr(spec.loader, "exec_module", None)
        if exec_module is None:
            return spec

        def exec_then(module):
            exec_module(module)
            sys.meta_path[:] = [f for f in sys.meta_path if f is not self]
            try:
                self.then()
            except Exception:  # noqa: BLE001 - a listener must never break the import it watches
                pass

        spec.loader.exec_module = exec_then  # the loader is this spec's own instance
        return spec


def when_imported(name, then):
    """Call ``then()`` now if the module ``name`` is loaded, else right after its first import;
    returns the :class:`AfterImport` hook waiting on ``sys.meta_path`` (None if called now)."""
    if name in sys.modules:
        then()
        return None
    hook = AfterImport(name, then)
    sys.meta_path.insert(0, hook)
    return hook


def listener(on_start, on_end=None):
    """A ``numba.core.event.Listener`` (Numba registers only its subclasses) that calls
    ``on_start(event)`` and ``on_end(event)`` (None: nothing) at a compilation's start and end."""
    from numba.core import event

    class Forward(event.Listener):
        def on_start(self, ev):
            on_start(ev)

        def on_end(self, ev):
            if on_end is not None:
                on_end(ev)

    return Forward()


class _GCPause:
    """What the listener does: at the start of an outermost compilation of a package function,
    note whether the collector runs and stop it; at that compilation's end, restart it if it
    ran. Events arrive under Numba's compiler lock, one compilation at a time, and nested
    ones (callees) in the thread of their caller, so one depth counter suffices."""

    def __init__(self):
        self.depth, self.resume = 0, False

    def on_start(self, event):
        if self.depth == 0:
            if kernel_of(event) is None:
                return  # another package's function: not ours to pause for
            self.resume = gc.isenabled()
            gc.disable()
        self.depth += 1

    def on_end(self, event):
        if self.depth == 0:
            return
        self.depth -= 1
        if self.depth == 0 and self.resume:
            gc.enable()


_installed: list = []


def _register():
    from numba.core import event

    if _installed:
        return
    pause = _GCPause()
    _installed.append(listener(pause.on_start, pause.on_end))
    event.register("numba:compile", _installed[0])


def pause_gc_while_compiling():
    """Pause the cyclic garbage collector while Numba compiles a kernel of the package (module
    docstring), from now on: at once if Numba is loaded, else right after its import."""
    if not _installed:
        when_imported("numba", _register)
