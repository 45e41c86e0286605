"""Methods that exist only when a condition on the instance holds.

A meta-estimator (a pipeline, a grid search) offers ``predict_proba`` only when the estimator it
wraps does, so that ``hasattr(meta, "predict_proba")`` answers the question callers actually ask
("can I get probabilities here?"). ``available_if(check, reason)`` decorates such a method: reading
the attribute calls ``check(instance)``; when it is false the read raises ``AttributeError``
(which is what makes ``hasattr`` false) with a message ending in ``reason``.
"""

from __future__ import annotations

import functools

__all__ = ["available_if"]


class _AvailableIf:
    """Descriptor behind :func:`available_if`: binds ``fn`` only while ``check(obj)`` holds."""

    def __init__(self, fn, check, reason):
        self.fn, self.check, self.reason = fn, check, reason
        functools.update_wrapper(self, fn)

    def __get__(self, obj, owner=None):
        if obj is None:  # read on the class: the plain function (for docs and introspection)
            return self.fn
        if not self.check(obj):
            raise AttributeError(
                f"This {type(obj).__name__} has no attribute {self.fn.__name__!r}: {self.reason}"
            )
        return self.fn.__get__(obj, owner)


def available_if(check, reason):
    """Decorator: the method is an attribute of an instance only when ``check(instance)`` is true.

    Parameters
    ----------
    check : callable
        ``check(instance) -> bool``, called on every attribute read; it must not raise.
    reason : str
        Completes the ``AttributeError`` message "This <class> has no attribute '<name>': ...",
        so each caller says in its own words why the method is missing.

    Examples
    --------
    >>> class Wrapper:
    ...     def __init__(self, inner):
    ...         self.inner = inner
    ...     @available_if(lambda w: hasattr(w.inner, "upper"), "the wrapped object has no upper.")
    ...     def upper(self):
    ...         return self.inner.upper()
    >>> Wrapper("ab").upper(), hasattr(Wrapper(1), "upper")
    ('AB', False)
    """
    return lambda fn: _AvailableIf(fn, check, reason)
