"""What kind of target a classifier was given."""

from __future__ import annotations

import numpy as np

from ._sparse import issparse

__all__ = ["type_of_target", "check_classification_targets", "encode_classes", "unique_labels"]


def type_of_target(y) -> str:
    """One of "binary", "multiclass", "continuous", "multilabel-indicator",
    "multiclass-multioutput", "continuous-multioutput" or "unknown".

    Floats that are all whole numbers count as class labels; any fractional value makes the
    target continuous.
    """
    if issparse(y):
        y = y.toarray()
    y = np.asarray(y)
    if (
        y.dtype == object
        and y.size
        and not all(
            isinstance(v, (str, int, np.integer, bool, np.bool_, float, np.floating))
            for v in y.ravel()[:1000]
        )
    ):
        return "unknown"
    if y.ndim > 2 or y.size == 0 and y.ndim != 1:
        return "unknown"
    _check_not_mixed(y)
    if y.ndim == 2 and y.shape[1] == 0:
        return "unknown"
    suffix = "-multioutput" if y.ndim == 2 and y.shape[1] > 1 else ""
    if y.dtype.kind == "f":
        if not np.all(np.isfinite(y)) or np.any(y != np.round(y)):
            return "continuous" + suffix
    if y.ndim == 2 and y.shape[1] > 1:
        if y.dtype.kind in "biuf" and np.isin(np.unique(y), [0, 1]).all():
            return "multilabel-indicator"
        return "multiclass-multioutput"
    n_unique = len(np.unique(y.ravel()))
    if n_unique > 2:
        return "multiclass"
    return "binary"


def _check_not_mixed(*ys) -> None:
    """Strings and numbers cannot be sorted together: say so instead of a TypeError from
    inside ``np.unique`` (object arrays) or a silent cast of the numbers to strings."""
    kinds = set()
    for y in ys:
        y = np.asarray(y)
        if y.dtype.kind in "US":
            kinds.add("string")
        elif y.dtype == object:
            kinds.update("string" if isinstance(v, str) else "number" for v in y.ravel())
        elif y.size:
            kinds.add("number")
    if len(kinds) > 1:
        raise ValueError(
            "Mix of label input types (string and number): class labels must be all strings "
            "or all numbers."
        )


def check_classification_targets(y) -> None:
    """Raise a ValueError naming the problem unless y holds class labels."""
    kind = type_of_target(y)
    if kind not in ("binary", "multiclass", "multiclass-multioutput", "multilabel-indicator"):
        raise ValueError(
            f"Unknown label type: {kind!r}. A classifier needs discrete class labels (ints, "
            "strings, or whole-valued floats); for a continuous target use a regressor."
        )


def class_codes(y):
    """``(classes, codes)`` of a target with few distinct values: the sorted distinct values and
    each sample's index into them, what ``np.unique(y, return_inverse=True)`` returns (codes
    flattened to (n,)).

    Found by np.unique and then a binary search of each value among the classes. NumPy's
    ``return_inverse`` argsorts y, and its default argsort is slow on skewed targets: 0.53 ms
    for the 5,574 labels of the SMS spam table (87% of one class) against 0.034 ms for an even
    split of the same size; this takes 0.085 ms on both. (With many distinct values, a binary
    search per sample loses: this is for class labels, not for group or query identifiers.)
    """
    classes = np.unique(y)
    return classes, np.searchsorted(classes, np.ravel(y))


def encode_classes(y, owner: str):
    """``(classes_, codes)``: the sorted classes of y and each sample's index into them.

    A classifier needs two classes at least: one class is a ValueError naming ``owner`` (the
    estimator) and the class found.
    """
    classes, codes = class_codes(y)
    if len(classes) < 2:
        raise ValueError(
            f"{owner} needs samples of at least 2 classes in the data, but the data contain "
            f"only one class: {str(classes[0])!r}."
        )
    return classes, codes


def unique_labels(*ys):
    """Sorted union of the labels found in every y (all strings or all numbers)."""
    _check_not_mixed(*ys)
    labels = np.unique(np.concatenate([np.asarray(y).ravel() for y in ys]))
    return labels
