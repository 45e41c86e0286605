"""Vectorised lookup of categorical values: the shared core of every encoder.

A column of categories is numbers (any numeric dtype, NaN allowed and sorted last), fixed-width
strings, or Python objects (strings, or numbers, plus the missing markers None and NaN). Two
operations serve all encoders:

* ``column_categories(values)`` — the sorted distinct values (missing markers last);
* ``encode_column(values, categories)`` — for each value its index in ``categories`` and
  whether it was found, by binary search (``searchsorted``) for arrays with a native sort, and
  by one C-level dict lookup per value (``map(table.get, ...)``) for object columns.

``string_matrix_codes`` does the second for a whole object array of strings at once (see the
note above it).
"""

from __future__ import annotations

from itertools import repeat

import numpy as np

__all__ = [
    "column_categories",
    "encode_column",
    "split_columns",
    "string_matrix_codes",
]


def _check_uniform(present, column):
    kinds = {
        "str"
        if isinstance(v, str)
        else "number"
        if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
        else type(v).__name__
        for v in present
    }
    if len(kinds) > 1:
        raise TypeError(
            f"Encoders require the values of a column to be all strings or all numbers; "
            f"column {column} mixes {sorted(kinds)}."
        )


def _is_missing_value(v) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _packed_keys(values):
    """One uint64 per string of a short str column, ordered as the strings, or None.

    NumPy stores a str array (dtype ``U``) as L code points per string, 4 bytes each, shorter
    strings padded with code point 0. When L ≤ 8 and every code point is below 256, the string
    written as the big-endian bytes of a 64-bit integer, first character most significant, is
    a key that two strings share exactly when they are equal and that sorts as they do (a
    shorter string, padded with 0, before the strings it begins: NumPy's order). Sorting or
    searching these integers instead of the strings took 3.5 against 5.7 ms (unique) and 2
    against 4.4 ms (codes) on a column of 100,000 strings of up to 5 characters."""
    dt = values.dtype
    if dt.kind != "U" or not 0 < dt.itemsize <= 32 or not dt.isnative:
        return None
    n, L = values.shape[0], dt.itemsize // 4
    cp = np.ascontiguousarray(values).view(np.uint32).reshape(n, L)  # code points
    if cp.size and cp.max() > 255:
        return None
    b = np.zeros((n, 8), dtype=np.uint8)
    b[:, :L] = cp
    return b.view(">u8").ravel().astype(np.uint64)


def _unpacked(keys, dtype):
    """The strings of :func:`_packed_keys`' ``keys``, as an array of ``dtype`` (``U`` L)."""
    L = dtype.itemsize // 4
    b = keys.astype(">u8").view(np.uint8).reshape(-1, 8)[:, :L]
    return np.ascontiguousarray(b, dtype=np.uint32).view(dtype).ravel()


def column_categories(values, column=0):
    """Sorted distinct values of one column; None then NaN come last (object columns)."""
    keys = _packed_keys(values)
    if keys is not None:
        return _unpacked(np.unique(keys), values.dtype)
    if values.dtype.kind != "O":
        return np.unique(values)  # NaN collapses to one and sorts last
    distinct = set(values)  # hashing in C, no intermediate list; the distinct values are few
    missing = [v for v in distinct if _is_missing_value(v)]
    present = distinct.difference(missing)
    _check_uniform(present, column)
    cats = sorted(present)
    if any(v is None for v in missing):
        cats.append(None)
    if any(v is not None for v in missing):
        cats.append(np.nan)
    out = np.empty(len(cats), dtype=object)
    out[:] = cats
    return out


def encode_column(values, categories):
    """Index of each value in ``categories`` and a mask of the values found, both shape (n,).

    ``categories`` need not be sorted (user-given categories keep their order).
    """
    n = values.shape[0]
    if values.dtype.kind == "O" or categories.dtype.kind == "O":
        table = {}
        none_code = nan_code = -1
        for i, c in enumerate(categories.tolist()):
            if c is None:
                none_code = i
            elif isinstance(c, float) and c != c:
                nan_code = i
            else:
                table.setdefault(c, i)
        # one C-level dict lookup per value; misses (unknown or missing) come back as -1
        codes = np.fromiter(map(table.get, values.tolist(), repeat(-1)), dtype=np.intp, count=n)
        miss = np.flatnonzero(codes < 0)
        if miss.size and (none_code >= 0 or nan_code >= 0):
            for i in miss.tolist():
                v = values[i]
                if v is None:
                    codes[i] = none_code
                elif isinstance(v, (float, np.floating)) and v != v:
                    codes[i] = nan_code
        return codes, codes >= 0
    if len(categories) == 0:
        return np.zeros(n, dtype=np.intp), np.zeros(n, dtype=bool)
    packed = _packed_keys(values), _packed_keys(categories)
    if packed[0] is not None and packed[1] is not None:
        values, categories = packed  # the same order and equalities, as integers
    order = np.argsort(categories, kind="stable")
    sorted_cats = categories[order]
    pos = np.searchsorted(sorted_cats, values)  # (n,)
    np.minimum(pos, len(sorted_cats) - 1, out=pos)
    found_vals = sorted_cats[pos]
    known = found_vals == values
    if values.dtype.kind == "f" and sorted_cats.dtype.kind == "f":
        known |= np.isnan(found_vals) & np.isnan(values)
    return order[pos], known


def split_columns(X):
    """The columns of a 2-D array or DataFrame as 1-D arrays, each with its own dtype."""
    if hasattr(X, "iloc") and hasattr(X, "dtypes"):
        return [np.asarray(X.iloc[:, j].to_numpy()) for j in range(X.shape[1])]
    return [X[:, j] for j in range(X.shape[1])]


# -- fast path for 2-D object arrays of strings -------------------------------------------------
# Reading a column of an object array touches objects scattered over memory; at transform time,
# reading the whole array once in memory order with one dict of every known string, then
# remapping small integer ids column by column, is about twice as fast.
def _flat_in_memory_order(A):
    """(list of the n·d objects in memory order, function turning an (n·d,) array back into
    the (n, d) layout)."""
    n, d = A.shape
    if A.flags.f_contiguous and not A.flags.c_contiguous:
        return A.T.ravel().tolist(), lambda v: v.reshape(d, n).T
    return A.ravel().tolist(), lambda v: v.reshape(n, d)


def string_matrix_codes(A, categories):
    """Codes and known-mask, both (n, d), of an object array against per-column str
    categories (unsorted allowed); values not among a column's categories are unknown."""
    union = {}
    for cats in categories:
        for v in cats.tolist():
            union.setdefault(v, len(union))
    flat, shape_back = _flat_in_memory_order(A)
    ids = shape_back(
        np.fromiter(map(union.get, flat, repeat(len(union))), dtype=np.intp, count=len(flat))
    )
    codes = np.empty(A.shape, dtype=np.intp)
    for j, cats in enumerate(categories):
        lut = np.full(len(union) + 1, -1, dtype=np.intp)  # last slot: not in the union
        lut[[union[v] for v in cats.tolist()]] = np.arange(len(cats))
        codes[:, j] = lut[ids[:, j]]
    return codes, codes >= 0
