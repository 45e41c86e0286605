"""Class weights: the one place where ``class_weight`` becomes a multiplier per class.

Every classifier with a ``class_weight`` parameter (trees, forests, SVC, LinearSVC, logistic
regression) multiplies the weight of sample i by c_{yᵢ}, where

- ``None``: c_k = 1;
- a dict ``{label: weight}``: c_k = the weight given for class k, 1 for classes not named; a
  label that is not among the classes seen in y is an error (a typo would otherwise be ignored);
- ``"balanced"``: c_k = N / (K·N_k), so that every class carries the same total weight N/K.
  N_k counts the rows of class k; with ``sample_weight`` s it is the weighted count
  N_k = Σ_{i: yᵢ=k} sᵢ and N = Σᵢ sᵢ (what LinearSVC and LogisticRegression use, so that a
  weight of 2 acts as a repeated row).
"""

from __future__ import annotations

import numpy as np

__all__ = ["class_weights"]


def class_weights(class_weight, classes, counts) -> np.ndarray:
    """The multiplier c_k of each class, shape (K,).

    Parameters
    ----------
    class_weight : None, dict or "balanced"
    classes : ndarray of shape (K,)
        The sorted class labels (``classes_``).
    counts : ndarray of shape (K,)
        N_k, the size of each class: ``np.bincount(codes, minlength=K)``, or with
        ``weights=sample_weight`` for weighted sizes. Only "balanced" reads it.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.utils.class_weight import class_weights
    >>> classes, counts = np.array(["a", "b"]), np.array([3, 1])
    >>> class_weights("balanced", classes, counts)
    array([0.66666667, 2.        ])
    >>> class_weights({"b": 5.0}, classes, counts)
    array([1., 5.])
    """
    K = classes.shape[0]
    if class_weight is None:
        return np.ones(K)
    if isinstance(class_weight, str):  # "balanced": N / (K · N_k)
        return counts.sum() / (K * counts)
    known = set(classes.tolist())
    unknown = [label for label in class_weight if label not in known]
    if unknown:
        raise ValueError(
            f"class_weight has labels {unknown!r} that are not in y; the classes are "
            f"{classes.tolist()!r}."
        )
    return np.array([float(class_weight.get(label, 1.0)) for label in classes.tolist()])
