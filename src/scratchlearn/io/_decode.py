"""Turning the JSON nodes of a model file back into values (the inverse of ``_encode``).

Classes are resolved by :func:`~scratchlearn.io._classes.resolve_class` only; every malformed
node raises :class:`~scratchlearn.exceptions.ModelFileError`.
"""

from __future__ import annotations

import builtins

import numpy as np
import scipy.sparse as sp

from ..exceptions import ModelFileError
from ._classes import BUILTIN_TYPES, MEMBER, SPARSE_PARTS, TAG, resolve_class
from ._invariants import check_fitted_state

__all__ = ["Decoder"]


class Decoder:
    """Decode JSON nodes; ``read_array(member)`` returns the array stored under that name.

    Every estimator and helper object is checked against its declared fitted state
    (:func:`~scratchlearn.io._invariants.check_fitted_state`) as soon as it is rebuilt, so the
    trees of a forest are checked before the forest; a fitted estimator's hyperparameters are
    checked against its ``_parameter_constraints``.
    """

    def __init__(self, read_array):
        self._read_array = read_array
        self._where: list[str] = []  # the attribute path being decoded, for messages

    def where(self) -> str:
        return "".join(p if p.startswith("[") else "." + p for p in self._where).lstrip(".")

    def _named(self, name, node):
        self._where.append(name)
        try:
            return self.decode(node)
        finally:
            self._where.pop()

    def array(self, member):
        if not isinstance(member, str) or not MEMBER.match(member):
            raise ModelFileError(f"invalid array member name {member!r}")
        return self._read_array(member)

    def decode(self, node):  # noqa: C901 - one branch per tag
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if isinstance(node, list):
            return [self._named(f"[{i}]", v) for i, v in enumerate(node)]
        if not isinstance(node, dict):
            raise ModelFileError(f"unexpected JSON value {node!r}")
        tag = node.get(TAG)
        if tag is None:
            return {k: self._named(f"[{k!r}]", v) for k, v in node.items()}
        try:
            method = getattr(self, "_decode_" + tag) if isinstance(tag, str) else None
        except AttributeError:
            method = None
        if method is None:
            raise ModelFileError(f"unknown value type {tag!r} in the model file")
        try:
            return method(node)
        except ModelFileError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as exc:
            at = f" at {self.where()}" if self._where else ""
            raise ModelFileError(f"malformed {tag!r} value in the model file{at}: {exc}") from None

    def _decode_float(self, node):
        value = node["value"]
        if value not in ("nan", "inf", "-inf"):
            raise ValueError(f"bad float {value!r}")
        return float(value)

    def _decode_complex(self, node):
        return complex(self.decode(node["real"]), self.decode(node["imag"]))

    def _decode_scalar(self, node):
        dtype = np.dtype(node["dtype"]) if node["dtype"] != "bool" else np.dtype(bool)
        if dtype.hasobject:
            raise ValueError("object scalar")
        if "array" in node:
            arr = self.decode(node["array"])
            if not isinstance(arr, np.ndarray) or arr.shape != () or arr.dtype != dtype:
                raise ValueError("scalar array does not match its dtype")
            return arr[()]
        value = self.decode(node["value"])
        # the JSON value must be of the dtype's kind: np.float64(None) would be NaN and
        # np.float64("1.5") would parse a string
        kinds = {"b": (bool,), "i": (int,), "u": (int,), "f": (float,)}  # save writes 1.0
        if dtype.kind not in kinds or not isinstance(value, kinds[dtype.kind]):
            raise ValueError(f"a {type(value).__name__} cannot be a {dtype} scalar")
        if dtype.kind != "b" and isinstance(value, bool):
            raise ValueError(f"a bool cannot be a {dtype} scalar")
        return dtype.type(value)

    def _decode_tuple(self, node):
        return tuple(self.decode(v) for v in node["items"])

    def _decode_set(self, node):
        items = [self.decode(v) for v in node["items"]]
        return frozenset(items) if node.get("frozen") else set(items)

    def _decode_dict(self, node):
        return {self.decode(k): self.decode(v) for k, v in node["items"]}

    def _decode_mapping(self, node):
        cls = resolve_class(node["class"])
        if not issubclass(cls, dict):
            raise ModelFileError(f"{node['class']!r} is not a mapping class")
        out = cls()
        for k, v in node["items"]:
            out[self.decode(k)] = self.decode(v)
        return out

    def _decode_ndarray(self, node):
        arr = self.array(node["member"])
        return arr.astype(object) if node.get("object") else arr

    def _decode_objarray(self, node):
        items = [self.decode(v) for v in node["items"]]
        out = np.empty(len(items), dtype=object)
        out[:] = items
        return out.reshape(tuple(node["shape"]))

    def _decode_sparse(self, node):
        stored, fmt = node["stored_as"], node["format"]
        if stored not in SPARSE_PARTS:
            raise ValueError(f"unknown sparse format {stored!r}")
        parts = [self.decode(node[p]) for p in SPARSE_PARTS[stored]]
        shape = tuple(node["shape"])
        kind = {"csr": "csr", "csc": "csc", "coo": "coo"}[stored]
        suffix = "array" if node.get("array") else "matrix"
        cls = getattr(sp, f"{kind}_{suffix}")
        mat = (
            cls((parts[0], (parts[1], parts[2])), shape=shape)
            if kind == "coo"
            else cls(tuple(parts), shape=shape)
        )
        return mat if fmt == stored else mat.asformat(fmt)

    def _decode_dtype(self, node):
        dtype = np.dtype(node["value"])
        if dtype.hasobject:
            raise ValueError("object dtypes cannot be stored")
        return dtype

    def _decode_type(self, node):
        name = node["value"]
        if name in BUILTIN_TYPES:
            return getattr(builtins, name)
        if isinstance(name, str) and name.startswith("numpy."):
            obj = getattr(np, name[6:], None)
            if isinstance(obj, type) and issubclass(obj, np.generic):
                return obj
        raise ModelFileError(f"refusing type {name!r}: only builtin and NumPy scalar types")

    def _decode_generator(self, node):
        name = node["bit_generator"]
        if name not in ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"):
            raise ModelFileError(f"unknown bit generator {name!r}")
        bitgen = getattr(np.random, name)()
        bitgen.state = self.decode(node["state"])
        return np.random.Generator(bitgen)

    def _decode_randomstate(self, node):
        rs = np.random.RandomState()
        rs.set_state(self.decode(node["state"]))
        return rs

    def _decode_estimator(self, node):
        cls = resolve_class(node["class"])
        if not self._where:
            self._where.append(cls.__name__)
        params = {k: self._named(k, v) for k, v in node["params"].items()}
        try:
            obj = cls(**params)
        except TypeError as exc:
            raise ModelFileError(
                f"the parameters stored for {cls.__name__} do not fit this version: {exc}"
            ) from None
        self._set_state(obj, {k: self._named(k, v) for k, v in node["attributes"].items()})
        self._check(obj)
        return obj

    def _decode_object(self, node):
        cls = resolve_class(node["class"])
        obj = cls.__new__(cls)
        self._set_state(obj, {k: self._named(k, v) for k, v in node["state"].items()})
        self._check(obj)
        return obj

    def _check(self, obj):
        where = self.where() or type(obj).__name__
        fitted = any(k.endswith("_") and not k.startswith("__") for k in vars(obj))
        validate = getattr(obj, "_validate_params", None)
        if fitted and validate is not None:
            try:
                validate()
            except (ValueError, TypeError) as exc:
                raise ModelFileError(f"{where}: {exc}") from None
        check_fitted_state(obj, where)

    @staticmethod
    def _set_state(obj, state):
        bad = [k for k in state if not isinstance(k, str) or k.startswith("__")]
        if bad:
            raise ModelFileError(f"invalid attribute name {bad[0]!r} in the model file")
        if getattr(type(obj), "__setstate__", None) is not None:
            obj.__setstate__({**vars(obj), **state})
        else:
            vars(obj).update(state)
