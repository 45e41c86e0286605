"""Library-wide settings: :func:`get_config`, :func:`set_config`, :func:`config_context`.

One setting today:

``working_memory`` (MiB, default 64)
    The most memory one block of a blocked computation may take: the rows of a distance or
    kernel matrix that :func:`~scratchlearn.metrics.pairwise_distances_chunked` yields at
    once, the tiles of the brute-force neighbour search (``metrics._argkmin``, itself capped
    at an 8 MiB cache-sized tile), the blocks of SVM decision values at predict time, the
    silhouette's rows. A function that takes its own ``working_memory`` argument uses that
    value instead. It bounds the *extra* memory of those computations, on top of their inputs
    and outputs.

Which value a computation sees (the rule):

* :func:`set_config` changes the process-wide value, seen by every thread;
* ``with config_context(working_memory=...):`` overrides it for the code run inside the block,
  in the thread that entered it and in the tasks the library itself runs on threads from
  there (:func:`scratchlearn.utils.parallel.run_tasks`), and is undone when the block ends;
  other threads keep seeing the process-wide value. (The override is a
  :class:`contextvars.ContextVar`, so it also follows asyncio tasks.)

A computation reads the value once, when it starts (to size its blocks).

This module imports only the standard library, so that ``import scratchlearn`` stays cheap.
"""

from __future__ import annotations

import math
import numbers
import threading
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["get_config", "set_config", "config_context"]

_DEFAULTS = {"working_memory": 64}

_global_config = dict(_DEFAULTS)
_global_lock = threading.Lock()  # set_config from two threads at once: one wins whole

#: The overrides of the innermost ``config_context`` of the current context (None: none).
_OVERRIDES: ContextVar[dict | None] = ContextVar("scratchlearn_config_overrides", default=None)


def _check_working_memory(value):
    """A positive, finite number of MiB; returned as given (int or float)."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or value <= 0:
        from .exceptions import InvalidParameterError

        raise InvalidParameterError(
            f"The 'working_memory' setting must be a positive finite number of MiB; got "
            f"{value!r} instead."
        )
    return value


def _checked(settings: dict) -> dict:
    unknown = sorted(set(settings) - set(_DEFAULTS))
    if unknown:
        raise TypeError(f"Unknown setting(s) {unknown}; the settings are {sorted(_DEFAULTS)}.")
    return {
        name: _check_working_memory(value) for name, value in settings.items() if value is not None
    }


def get_config() -> dict:
    """The settings seen here: the process-wide ones, with the current ``config_context``'s
    overrides applied. Returns a new dict (changing it changes nothing).

    Examples
    --------
    >>> import scratchlearn
    >>> scratchlearn.get_config()["working_memory"]
    64
    """
    overrides = _OVERRIDES.get()
    with _global_lock:
        config = dict(_global_config)
    if overrides:
        config.update(overrides)
    return config


def set_config(*, working_memory=None) -> None:
    """Change the process-wide settings; a setting left at None keeps its value.

    Parameters
    ----------
    working_memory : float, MiB, > 0
        Memory bound of one block of the library's blocked computations (module docstring).
    """
    new = _checked({"working_memory": working_memory})
    with _global_lock:
        _global_config.update(new)


@contextmanager
def config_context(*, working_memory=None):
    """Override settings inside a ``with`` block (this thread and the library's own tasks
    started from it; module docstring). Nested blocks override the outer ones; on exit the
    previous values come back, however the block ends.

    Examples
    --------
    >>> import scratchlearn
    >>> with scratchlearn.config_context(working_memory=8):
    ...     print(scratchlearn.get_config()["working_memory"])
    8
    >>> scratchlearn.get_config()["working_memory"]
    64
    """
    new = _checked({"working_memory": working_memory})
    token = _OVERRIDES.set({**(_OVERRIDES.get() or {}), **new})
    try:
        yield
    finally:
        _OVERRIDES.reset(token)
