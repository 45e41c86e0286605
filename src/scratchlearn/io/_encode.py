"""Turning an estimator into JSON nodes plus ``.npy`` arrays, without pickle.

Every value is written as a JSON node. Values JSON can hold directly (str, bool, None, int,
finite float, lists, dicts with str keys) are written as themselves; everything else becomes a
tagged object ``{"$type": <tag>, ...}``:

=========== ==================================================================================
tag         value
=========== ==================================================================================
float       NaN, inf or -inf (``"value": "nan" | "inf" | "-inf"``)
complex     a Python complex (``real``, ``imag``)
scalar      a NumPy bool / int / float scalar (``dtype``, ``value``)
tuple       a tuple (``items``)
set         a set or frozenset (``items``, ``frozen``)
dict        a dict whose keys are not all str, or that has a ``"$type"`` key (``items``: pairs)
mapping     a dict subclass defined in scratchlearn, e.g. ``Bunch`` (``class``, ``items``)
ndarray     an array stored as a ``.npy`` member (``member``; ``object``: restore as object)
objarray    an object array of non-str values (``shape``, flat ``items``)
sparse      a SciPy sparse matrix or array (``format``, ``shape``, component arrays)
dtype       a NumPy dtype (``value``: its ``str``)
type        a type used as a value, e.g. ``np.float64`` (``value``: "numpy.float64")
generator   a NumPy random generator and its bit generator's state
randomstate a legacy ``numpy.random.RandomState`` and its state
estimator   a scratchlearn estimator (``class``, ``params``, ``attributes``)
object      another opted-in scratchlearn object (``class``, ``state``)
=========== ==================================================================================

Anything else is refused when saving, with the attribute path of the offending value. Loading
resolves classes by name with ``getattr`` only, inside ``scratchlearn`` modules, and only classes
that are estimators or declare ``_scratchlearn_serializable = True``.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from ._classes import BUILTIN_TYPES, SPARSE_PARTS, TAG, allowed, class_ref

__all__ = ["Encoder"]


class Encoder:
    """Encode values to JSON nodes; arrays are collected in ``self.arrays`` (member -> array)."""

    def __init__(self):
        self.arrays: dict[str, np.ndarray] = {}
        self._active: set[int] = set()  # ids of containers being encoded, to catch cycles

    def _refuse(self, value, path, why=""):
        kind = type(value)
        name = kind.__name__ if kind.__module__ == "builtins" else class_ref(kind).replace(":", ".")
        raise TypeError(
            f"cannot save {path} of type {name}: model files hold only numbers, strings, "
            f"containers, arrays and scratchlearn objects{why}"
        )

    def _member(self, array: np.ndarray) -> str:
        name = f"arrays/{len(self.arrays)}.npy"
        self.arrays[name] = array
        return name

    def encode(self, value, path: str = "estimator"):
        if value is None or type(value) in (bool, str, int):
            return value
        if id(value) in self._active:
            raise TypeError(f"cannot save {path}: it contains itself (a reference cycle)")
        self._active.add(id(value))
        try:
            return self._encode(value, path)
        finally:
            self._active.discard(id(value))

    def _encode(self, value, path):  # noqa: C901 - one branch per kind
        if type(value) is float:
            if math.isfinite(value):
                return value
            return {TAG: "float", "value": "nan" if math.isnan(value) else repr(value)}
        if type(value) is complex:
            return {
                TAG: "complex",
                "real": self.encode(value.real, path),
                "imag": self.encode(value.imag, path),
            }
        if isinstance(value, np.generic):
            return self._encode_scalar(value, path)
        if type(value) is list:
            return [self.encode(v, f"{path}[{i}]") for i, v in enumerate(value)]
        if type(value) is tuple:
            return {
                TAG: "tuple",
                "items": [self.encode(v, f"{path}[{i}]") for i, v in enumerate(value)],
            }
        if type(value) in (set, frozenset):
            return {
                TAG: "set",
                "frozen": type(value) is frozenset,
                "items": [self.encode(v, f"{path}{{...}}") for v in value],
            }
        if type(value) is dict:
            return self._encode_dict(value, path)
        if type(value) is np.ndarray:
            return self._encode_array(value, path)
        if sp.issparse(value):
            return self._encode_sparse(value, path)
        if isinstance(value, np.dtype):
            if value.fields is not None or value.hasobject:
                self._refuse(value, path, " (structured dtypes are not supported)")
            return {TAG: "dtype", "value": value.str}
        if isinstance(value, type):
            return self._encode_type(value, path)
        if isinstance(value, np.random.RandomState):
            return {
                TAG: "randomstate",
                "state": self.encode(value.get_state(legacy=False), f"{path}.state"),
            }
        if isinstance(value, np.random.Generator):
            bitgen = value.bit_generator
            return {
                TAG: "generator",
                "bit_generator": type(bitgen).__name__,
                "state": self.encode(bitgen.state, f"{path}.bit_generator.state"),
            }
        if isinstance(value, dict) and allowed(type(value)):
            return {
                TAG: "mapping",
                "class": class_ref(type(value)),
                "items": self._pairs(value, path),
            }
        if allowed(type(value)):
            return self._encode_object(value, path)
        self._refuse(value, path)

    def _encode_scalar(self, value, path):
        kind = value.dtype.kind
        if kind == "b":
            return {TAG: "scalar", "dtype": "bool", "value": bool(value)}
        if kind in "iu":
            return {TAG: "scalar", "dtype": value.dtype.str, "value": int(value)}
        if kind == "f" and value.dtype.itemsize <= 8:
            # float16/32/64 embed exactly in a Python float, which JSON writes exactly
            return {
                TAG: "scalar",
                "dtype": value.dtype.str,
                "value": self.encode(float(value), path),
            }
        if kind in "fcUSmM":
            return {
                TAG: "scalar",
                "dtype": value.dtype.str,
                "array": self._encode_array(np.asarray(value), path),
            }
        self._refuse(value, path)

    def _pairs(self, mapping, path):
        return [
            [self.encode(k, f"{path} key"), self.encode(v, f"{path}[{k!r}]")]
            for k, v in mapping.items()
        ]

    def _encode_dict(self, value, path):
        if all(type(k) is str for k in value) and TAG not in value:
            return {k: self.encode(v, f"{path}[{k!r}]") for k, v in value.items()}
        return {TAG: "dict", "items": self._pairs(value, path)}

    def _encode_array(self, value, path):
        if value.dtype.hasobject:
            if value.dtype != object:
                self._refuse(value, path, " (structured arrays with objects are not supported)")
            flat = value.ravel(order="C")
            # str elements become a unicode array; numpy strips trailing NULs, so keep those
            # (and every mixed array) as JSON items instead
            if all(type(v) is str and not v.endswith("\x00") for v in flat):
                text = np.array(list(flat), dtype=str).reshape(value.shape)
                return {TAG: "ndarray", "object": True, "member": self._member(text)}
            return {
                TAG: "objarray",
                "shape": list(value.shape),
                "items": [self.encode(v, f"{path}[{i}]") for i, v in enumerate(flat)],
            }
        return {TAG: "ndarray", "member": self._member(value)}

    def _encode_sparse(self, value, path):
        fmt = value.format
        stored = value if fmt in SPARSE_PARTS else value.tocsr()
        parts = SPARSE_PARTS[stored.format]
        node = {
            TAG: "sparse",
            "format": fmt,
            "stored_as": stored.format,
            "array": isinstance(value, sp.sparray),
            "shape": list(value.shape),
        }
        for part in parts:
            node[part] = self._encode_array(np.asarray(getattr(stored, part)), f"{path}.{part}")
        return node

    def _encode_type(self, value, path):
        if value.__module__ == "builtins" and value.__name__ in BUILTIN_TYPES:
            return {TAG: "type", "value": value.__name__}
        if issubclass(value, np.generic) and getattr(np, value.__name__, None) is value:
            return {TAG: "type", "value": f"numpy.{value.__name__}"}
        self._refuse(value, path, " (only builtin and NumPy scalar types can be stored)")

    def _state(self, value, path):
        getstate = getattr(value, "__getstate__", None)
        state = getstate() if getstate is not None else None
        if not isinstance(state, dict):
            if not hasattr(value, "__dict__"):
                self._refuse(value, path, " (it has no __dict__)")
            state = vars(value)
        return state

    def _encode_object(self, value, path):
        state = self._state(value, path)
        ref = class_ref(type(value))
        if hasattr(value, "get_params"):
            params = value.get_params(deep=False)
            return {
                TAG: "estimator",
                "class": ref,
                "params": {k: self.encode(v, f"{path}.{k}") for k, v in params.items()},
                "attributes": {
                    k: self.encode(v, f"{path}.{k}") for k, v in state.items() if k not in params
                },
            }
        return {
            TAG: "object",
            "class": ref,
            "state": {k: self.encode(v, f"{path}.{k}") for k, v in state.items()},
        }
