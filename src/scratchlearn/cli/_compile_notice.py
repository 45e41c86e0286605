"""One line on stderr when a command is about to wait for Numba to compile scratchlearn's kernels.

The compiled loops are cached (``cache=True``): the first fit of a tree, a forest, an SVM or a
k-means on a machine compiles them, which takes seconds, and every later run loads them from
Numba's cache (``__pycache__`` beside the package's source, or ``NUMBA_CACHE_DIR``). So that a
first run does not look hung, ``scratchlearn fit`` and ``scratchlearn predict`` say so, once, when
it happens.

The notice listens to what Numba does rather than guessing it from the cache's files: Numba
announces a ``"numba:compile"`` event only when it compiles (a signature neither compiled in this
process nor found in the cache), so the first such event for a kernel of the package prints the
line, and a run whose kernels all load from the cache prints nothing. Guessing from the index
files (``*.nbi``) would be wrong both ways: a module's kernels that this estimator never calls
stay uncached for ever, and an index whose source has changed since is stale.

Numba is not imported for this (it costs a fit that needs none, naive Bayes or Ridge, a few
tenths of a second): when it is not loaded by the time the work starts, the listener is installed
the moment something imports it (RankSVM imports its kernels inside ``fit``); see
:mod:`scratchlearn.utils._compile_events`, which the package's other listeners share.
"""

from __future__ import annotations

import contextlib
import sys
import threading

from ..utils._compile_events import kernel_of, listener, when_imported

__all__ = ["NOTICE", "compile_notice", "kernel_of"]

#: The line printed (once) when the first kernel of the package starts compiling.
NOTICE = (
    "scratchlearn: compiling its Numba kernels on first use; this happens once (later runs "
    "load them from Numba's cache; `scratchlearn compile` compiles every estimator's at once) "
    "and can take several seconds ..."
)


class _FirstCompile:
    """What the Numba event listener does (a ``numba.core.event.Listener`` forwards to it once
    Numba is loaded): print :data:`NOTICE` at the start of the first compilation of a function of
    ``package`` (a forest compiles on several threads, hence the lock)."""

    def __init__(self, err, package):
        self.err, self.package = err, package
        self.shown = False
        self._lock = threading.Lock()

    def on_start(self, event):
        if self.shown or kernel_of(event, self.package) is None:
            return  # None: e.g. Numba's own implementation of np.empty, compiled in our kernel
        with self._lock:
            if self.shown:
                return
            self.shown = True
        print(NOTICE, file=self.err, flush=True)


@contextlib.contextmanager
def compile_notice(err, package: str = "scratchlearn"):
    """Within the block, print :data:`NOTICE` to ``err`` when Numba first compiles a function of
    ``package``. Yields the listener's state: its ``shown`` says whether it printed."""
    notice = _FirstCompile(err, package)
    installed = []

    def install():
        from numba.core import event

        installed.append((event, listener(notice.on_start)))
        event.register("numba:compile", installed[-1][1])

    hook = when_imported("numba", install)
    try:
        yield notice
    finally:
        if hook is not None and hook in sys.meta_path:
            sys.meta_path.remove(hook)
        for event, forward in installed:
            event.unregister("numba:compile", forward)
