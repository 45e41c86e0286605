"""What a loaded estimator must look like: the fitted-state vocabulary and its checker.

Every estimator (and every helper object a model file stores, such as a fitted tree) states the
invariants of its fitted attributes once, beside them, in a class attribute::

    _fitted_spec = {
        "classes_": ("label", ("n_classes",)),
        "coef_": ("float64", ("n_rows?", "n_features_in_")),
        "intercept_": ("float64", ("n_rows?",)),
        "oob_score_": ("float64", (), "optional"),
    }

and, for what a table cannot say, a method ``_check_fitted_state(self)`` that raises
``ValueError`` naming the attribute (children of a tree node inside the tree, the number of
trees of a forest, ...). :func:`check_fitted_state` runs both on every estimator and helper
object :func:`scratchlearn.io.load` decodes, innermost first (the trees of a forest before the
forest), before the estimator is handed back.

An entry is ``name: (kind, shape)`` or ``name: (kind, shape, "optional")``:

kind
    ``"float64"``, ``"int32"``, ``"intp"``, ...: exactly that NumPy dtype (a float array read
    back as int or bool, or as float32, would predict differently);
    ``"int"``: any integer dtype (not bool); ``"bool"``; ``"str"``: a Python or NumPy string;
    ``"label"``: class labels, numbers or strings (anything but a nested array);
    ``"number"``: a bool, int or float;
    ``"estimator"``: a scratchlearn estimator; any other capitalised word: an instance of the
    class of that name (``"Tree"``); ``"dict"``.
    ``"[kind]"``: a list whose length is the first dimension and whose items are of ``kind``
    with the remaining dimensions as their shape.
shape
    ``None`` for no constraint, ``()`` for a scalar (a Python or NumPy scalar, or a 0-d array),
    else one entry per dimension: an int; ``"*"`` for any length; a name. A name that is an
    int attribute or hyperparameter of the object (``"n_features_in_"``, ``"n_estimators"``)
    must equal it; any other name is a symbol, bound where it is first met and equal wherever
    it is met again (``classes_`` and ``class_count_`` agree on ``"n_classes"``). A first
    dimension written ``"name?"`` may be absent: then it must be absent everywhere it is used
    (``coef_`` 1-D goes with a scalar ``intercept_``, 2-D with a 1-D one).

Entries of a class are required once the object is fitted (it has an attribute ending in
``_``), unless marked ``"optional"`` (absent or None). :data:`COMMON_SPEC` states the
scikit-learn names that many estimators share, once for all; it applies to an attribute of that
name wherever no class spec names it, and never requires it. A 1-D ``classes_`` must be
non-empty, sorted and distinct (what ``np.unique`` returns), whatever spec names it.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..exceptions import ModelFileError

__all__ = ["COMMON_SPEC", "fitted_spec", "check_fitted_state"]

#: The names many estimators share, with their meaning fixed by scikit-learn's conventions.
COMMON_SPEC = {
    "n_features_in_": ("int", ()),
    "feature_names_in_": ("str", ("n_features_in_",)),
    "n_classes_": ("int", ()),
    "classes_": ("label", ("n_classes_",)),
    "n_outputs_": ("int", ()),
    "coef_": ("float64", ("n_rows?", "n_features_in_")),
    "intercept_": ("float64", ("n_rows?",)),
    "n_iter_": ("int", None),
    "stop_reason_": ("str", ()),
    "history_": (None, None),
    "cluster_centers_": ("float64", ("n_clusters", "n_features_in_")),
    "labels_": ("int", ("*",)),
    "inertia_": ("float64", ()),
    "n_samples_seen_": ("int", None),
    "estimator_": ("estimator", None),
}


def fitted_spec(cls) -> dict:
    """``cls``'s spec: the ``_fitted_spec`` tables along its MRO, a subclass's entries last."""
    spec = {}
    for klass in reversed(cls.__mro__):
        spec.update(vars(klass).get("_fitted_spec", {}))
    return spec


def _is_fitted(obj) -> bool:
    from ..base import BaseEstimator

    if not isinstance(obj, BaseEstimator):
        return True  # a helper object exists only once fitted
    return any(k.endswith("_") and not k.startswith("__") for k in vars(obj))


class _Shapes:
    """Binds the symbolic dimensions of one object's spec as they are met."""

    def __init__(self, obj):
        self.obj = obj
        self.bound: dict[str, int | None] = {}

    def _known(self, name):
        if name in self.bound:
            return True, self.bound[name]
        value = vars(self.obj).get(name, None)
        if value is None and hasattr(self.obj, "get_params"):
            value = self.obj.get_params(deep=False).get(name)
        if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
            return True, int(value)
        return False, None

    def match(self, dims, shape) -> str | None:
        """None when ``shape`` matches ``dims``, else what is wrong."""
        dims = list(dims)
        if dims and isinstance(dims[0], str) and dims[0].endswith("?"):
            name = dims[0][:-1]
            present = len(shape) == len(dims)
            if not present and len(shape) != len(dims) - 1:
                return f"has {len(shape)} dimensions, expected {len(dims) - 1} or {len(dims)}"
            known, value = self._known(name)
            if known and (value is None) == present:
                return f"has {len(shape)} dimensions, inconsistent with the other attributes"
            if not present:
                self.bound[name] = None
                dims = dims[1:]
            else:
                dims[0] = name
        if len(shape) != len(dims):
            return f"has {len(shape)} dimensions, expected {len(dims)}"
        for axis, (dim, n) in enumerate(zip(dims, shape)):
            if dim == "*":
                continue
            if isinstance(dim, int):
                expected = dim
            else:
                known, expected = self._known(dim)
                if not known:
                    self.bound[dim] = n
                    continue
                if expected is None:
                    return f"has a dimension {dim!r} that the other attributes do not have"
            if n != expected:
                where = f" ({dim})" if isinstance(dim, str) else ""
                return f"has length {n} along axis {axis}, expected {expected}{where}"
        return None


def _kind_error(kind, value) -> str | None:  # noqa: C901 - one branch per kind
    """None when ``value`` (an element type or a whole array) is of ``kind``."""
    if kind is None:
        return None
    if isinstance(value, np.ndarray):
        dtype = value.dtype
        if kind == "int":
            ok = dtype.kind in "iu"
        elif kind == "bool":
            ok = dtype.kind == "b"
        elif kind == "number":
            ok = dtype.kind in "biuf" and dtype.isnative
        elif kind == "str":
            ok = dtype.kind == "U" or (
                dtype.kind == "O" and all(isinstance(v, str) for v in value.ravel())
            )
        elif kind == "label":
            ok = dtype.kind in "biufUSO" and (
                dtype.kind != "O"
                or not any(isinstance(v, (np.ndarray, list, dict)) for v in value.ravel())
            )
        else:
            try:
                ok = dtype == np.dtype(kind)
            except TypeError:
                ok = False
        return None if ok else f"has dtype {dtype}, expected {kind}"
    scalar_ok = {
        "int": lambda v: isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)),
        "bool": lambda v: isinstance(v, (bool, np.bool_)),
        "number": lambda v: isinstance(v, (numbers.Real, np.bool_)),
        "str": lambda v: isinstance(v, str),
        "label": lambda v: isinstance(v, (numbers.Real, np.bool_, str, bytes)),
        "dict": lambda v: isinstance(v, dict),
    }
    if kind in scalar_ok:
        ok = scalar_ok[kind](value)
    elif kind == "estimator":
        from ..base import BaseEstimator

        ok = isinstance(value, BaseEstimator)
    elif kind[:1].isupper():
        ok = type(value).__name__ == kind
    else:
        ok = isinstance(value, (float, np.generic)) and np.dtype(type(value)) == np.dtype(kind)
    return None if ok else f"is a {type(value).__name__}, expected {kind}"


def _entry_error(value, kind, dims, shapes: _Shapes) -> str | None:
    if kind is not None and kind.startswith("["):
        if not isinstance(value, list):
            return f"is a {type(value).__name__}, expected a list"
        if dims is None:
            dims = ("*",)
        problem = shapes.match(dims[:1], (len(value),))
        if problem:
            return problem.replace("has length", "has", 1)
        inner = kind[1:-1]
        for i, item in enumerate(value):
            problem = _entry_error(item, inner, dims[1:] if len(dims) > 1 else None, shapes)
            if problem:
                return f"item {i} {problem}"
        return None
    if isinstance(value, np.ndarray):
        problem = _kind_error(kind, value)
        if problem is None and dims is not None:
            problem = shapes.match(dims, value.shape)
        return problem
    if (
        dims is not None
        and len(dims) > 0
        and not (len(dims) == 1 and isinstance(dims[0], str) and dims[0].endswith("?"))
    ):
        return f"is a {type(value).__name__}, expected an array of {len(dims)} dimensions"
    if dims is not None and len(dims) == 1:  # an optional dimension, absent: a scalar
        problem = shapes.match(dims, ())
        if problem:
            return problem
    return _kind_error(kind, value)


def _sorted_distinct(labels: np.ndarray) -> bool:
    """Whether labels are non-empty, strictly increasing, as ``np.unique`` returns them."""
    try:
        return labels.size > 0 and bool(np.all(labels[1:] > labels[:-1]))
    except TypeError:  # labels of types that do not compare
        return False


def check_fitted_state(obj, where: str) -> None:
    """Raise :class:`ModelFileError` unless ``obj``'s fitted attributes match its spec and its
    ``_check_fitted_state``; ``where`` names the object in the message."""
    state = vars(obj) if hasattr(obj, "__dict__") else {}
    own = fitted_spec(type(obj))
    fitted = _is_fitted(obj)
    shapes = _Shapes(obj)
    names = list(own) + [k for k in COMMON_SPEC if k not in own and k in state]
    for name in names:
        entry = own.get(name) or COMMON_SPEC[name]
        kind, dims = entry[0], entry[1]
        optional = name not in own or (len(entry) > 2 and entry[2] == "optional")
        if name not in state:
            if fitted and not optional:
                raise ModelFileError(f"{where}.{name} is missing from the model file")
            continue
        if optional and state[name] is None:
            continue
        problem = _entry_error(state[name], kind, dims, shapes)
        if problem:
            raise ModelFileError(f"{where}.{name} {problem}")
    classes = state.get("classes_")
    if isinstance(classes, np.ndarray) and classes.ndim == 1 and not _sorted_distinct(classes):
        raise ModelFileError(f"{where}.classes_ must be sorted and distinct (np.unique of y)")
    check = getattr(obj, "_check_fitted_state", None)
    if fitted and check is not None:
        try:
            check()
        except ModelFileError:
            raise
        except (ValueError, TypeError, AttributeError, IndexError, KeyError) as exc:
            raise ModelFileError(f"{where}: {exc}") from None
