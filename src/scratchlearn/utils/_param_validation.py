"""Declarative hyperparameter constraints.

Each estimator declares ``_parameter_constraints = {"name": [constraint, ...]}``; a value is
valid when it satisfies at least one constraint of its list. :func:`validate_params` checks a
whole dict at once and raises :class:`InvalidParameterError` naming the owner, the parameter, what
it must be and what it got, e.g.::

    The 'C' parameter of SVC must be a float in the range (0.0, inf). Got -1 instead.

The same constraints drive :func:`parse_param_string`, which the command line uses to turn
``--set C=0.5`` into a typed value.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ..exceptions import InvalidParameterError

__all__ = [
    "Interval",
    "StrOptions",
    "Options",
    "HasMethods",
    "Fraction",
    "N_JOBS",
    "validate_params",
    "parse_param_string",
]


def _is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def _is_real(x):
    return isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))


@dataclass(frozen=True)
class Interval:
    """Numbers of ``type`` (``numbers.Integral`` or ``numbers.Real``) within ``[left, right]``.

    ``None`` for a bound means unbounded; ``closed`` is "left", "right", "both" or "neither".
    An ``Integral`` interval accepts only integers; a ``Real`` interval accepts ints and floats.
    """

    type: type
    left: float | None
    right: float | None
    closed: str = "both"

    def is_satisfied_by(self, value) -> bool:
        ok_type = _is_int(value) if self.type is numbers.Integral else _is_real(value)
        if not ok_type:
            return False
        if np.isnan(value):
            return False
        lo_closed = self.closed in ("left", "both")
        hi_closed = self.closed in ("right", "both")
        if self.left is not None and (value < self.left or (value == self.left and not lo_closed)):
            return False
        if self.right is not None and (
            value > self.right or (value == self.right and not hi_closed)
        ):
            return False
        return True

    def __str__(self) -> str:
        kind = "an int" if self.type is numbers.Integral else "a float"
        lb = "[" if self.closed in ("left", "both") else "("
        rb = "]" if self.closed in ("right", "both") else ")"
        left = "-inf" if self.left is None else self.left
        right = "inf" if self.right is None else self.right
        if self.left is not None and self.right is None and self.closed in ("left", "both"):
            if self.type is numbers.Integral and self.left in (0, 1):
                return "a non-negative int" if self.left == 0 else "a positive int (>= 1)"
        return f"{kind} in the range {lb}{left}, {right}{rb}"


@dataclass(frozen=True)
class StrOptions:
    """One of a fixed set of strings."""

    options: frozenset

    def __init__(self, options):
        object.__setattr__(self, "options", frozenset(options))

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, str) and value in self.options

    def __str__(self) -> str:
        return "a str among " + "{" + ", ".join(repr(o) for o in sorted(self.options)) + "}"


@dataclass(frozen=True)
class Options:
    """A fixed set of non-string values, e.g. ``Options(type, {np.float32, np.float64})``."""

    type: type
    options: frozenset

    def __init__(self, type, options):
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "options", frozenset(options))

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, self.type) and value in self.options

    def __str__(self) -> str:
        return "one of {" + ", ".join(repr(o) for o in self.options) + "}"


@dataclass(frozen=True)
class HasMethods:
    """Any object that has all the named methods (e.g. an estimator with ``fit``)."""

    methods: tuple

    def __init__(self, methods):
        if isinstance(methods, str):
            methods = (methods,)
        object.__setattr__(self, "methods", tuple(methods))

    def is_satisfied_by(self, value) -> bool:
        return all(callable(getattr(value, m, None)) for m in self.methods)

    def __str__(self) -> str:
        return "an object implementing " + ", ".join(repr(m) for m in self.methods)


class Fraction:
    """A float (not an int) in (0, 1]: a fraction of the training rows or features.

    Beside an ``Interval(numbers.Integral, 1, None)`` it lets one parameter be a count (an int)
    or a share (a float), as ``max_samples``, ``max_features`` and ``min_samples_leaf`` are.
    """

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, (float, np.floating)) and 0.0 < value <= 1.0

    def __str__(self) -> str:
        return "a float in the range (0.0, 1.0]"


#: ``n_jobs`` everywhere: None (one thread), -1 (one per CPU) or a positive number of threads,
#: the values :func:`scratchlearn.utils.parallel.n_workers` reads.
N_JOBS = [None, Options(numbers.Integral, {-1}), Interval(numbers.Integral, 1, None, closed="left")]


def _check_simple(constraint, value) -> bool:
    """Constraints given as plain objects: None, types, and a few keyword strings."""
    if constraint is None:
        return value is None
    if isinstance(constraint, type):
        return isinstance(value, constraint)
    if constraint == "boolean":
        return isinstance(value, (bool, np.bool_))
    if constraint == "random_state":
        return (
            value is None
            or (_is_int(value) and value >= 0)  # NumPy seeds are non-negative
            or isinstance(value, (np.random.Generator, np.random.RandomState))
        )
    if constraint == "array-like":
        # Strings are sequences but never array-likes of numbers (as in scikit-learn).
        return not isinstance(value, (str, bytes)) and (
            hasattr(value, "__len__") or hasattr(value, "__array__")
        )
    if constraint == "sparse matrix":
        import scipy.sparse as sp

        return sp.issparse(value)
    if constraint == "callable":
        return callable(value)
    if constraint == "dict":
        return isinstance(value, dict)
    if constraint == "no_validation":
        return True
    raise TypeError(f"unknown constraint {constraint!r}")


def _satisfies(constraint, value) -> bool:
    if hasattr(constraint, "is_satisfied_by"):
        return constraint.is_satisfied_by(value)
    return _check_simple(constraint, value)


def _describe(constraint) -> str:
    if constraint is None:
        return "None"
    if isinstance(constraint, type):
        return f"an instance of {constraint.__name__!r}"
    if isinstance(constraint, str):
        return {
            "boolean": "an instance of 'bool'",
            "random_state": "a non-negative int, a numpy.random.Generator or None",
            "array-like": "an array-like",
            "sparse matrix": "a sparse matrix",
            "callable": "a callable",
            "dict": "a dict",
        }.get(constraint, constraint)
    return str(constraint)


def validate_params(constraints: dict, params: dict, owner: str) -> None:
    """Check every entry of ``params`` that has a constraint; raise on the first invalid one."""
    for name, value in params.items():
        if name not in constraints:
            continue
        allowed = constraints[name]
        if any(_satisfies(c, value) for c in allowed):
            continue
        descs = [_describe(c) for c in allowed if c != "no_validation"]
        must = descs[0] if len(descs) == 1 else ", ".join(descs[:-1]) + " or " + descs[-1]
        raise InvalidParameterError(
            f"The {name!r} parameter of {owner} must be {must}. Got {value!r} instead."
        )


def parse_param_string(constraints: list, text: str):
    """Turn the command-line text of a parameter into the first typed value its constraints take.

    Tried in order: None, booleans, ints, floats, then the string itself; the first candidate
    that satisfies one of ``constraints`` wins. Raises ``InvalidParameterError`` otherwise.
    """
    candidates = []
    low = text.strip().lower()
    if low in ("none", "null"):
        candidates.append(None)
    if low in ("true", "false"):
        candidates.append(low == "true")
    try:
        candidates.append(int(text))
    except ValueError:
        pass
    try:
        candidates.append(float(text))
    except ValueError:
        pass
    candidates.append(text)
    for value in candidates:
        if any(_satisfies(c, value) for c in constraints if c != "no_validation"):
            return value
    descs = [_describe(c) for c in constraints if c != "no_validation"]
    raise InvalidParameterError(f"must be {' or '.join(descs)}; got {text!r}")
