"""Polynomial basis expansion.

Symbols
-------
======  =================================================================
n, d    samples, input features
k       degree of a monomial; degrees run from k_min to k_max
p       a power vector (p_0..p_{d-1}); the monomial is Π_j x_j^{p_j}, |p| = k
D       number of output columns (``n_output_features_``)
======  =================================================================

Columns come degree by degree; within a degree, monomials are the index combinations
(j_1 ≤ j_2 ≤ … ≤ j_k, or strictly increasing with ``interaction_only``) in lexicographic order.
In that order, the degree-k monomials whose first index is j are exactly x_j times the
contiguous run of degree-(k−1) monomials whose first index is ≥ j (> j for interactions), so each
degree is built from the previous one with one broadcast product per feature.
"""

from __future__ import annotations

import numbers
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np

from ..base import BaseEstimator, TransformerMixin, _check_input_features
from ..utils._param_validation import Interval
from ..utils.validation import check_is_fitted

__all__ = ["PolynomialFeatures"]


def _degree_range(degree):
    """(k_min, k_max) from an int or a (min, max) tuple, with clear errors."""
    if isinstance(degree, tuple):
        if len(degree) != 2 or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in degree
        ):
            raise ValueError(f"degree tuple must be (min_degree, max_degree) ints; got {degree}.")
        lo, hi = int(degree[0]), int(degree[1])
        if not 0 <= lo <= hi:
            raise ValueError(
                "degree=(min_degree, max_degree) must satisfy 0 <= min_degree <= max_degree; "
                f"got {degree}."
            )
        return lo, hi
    return 0, int(degree)


def monomial_combinations(d, k_min, k_max, interaction_only, include_bias):
    """The index tuple of every output column, in output order (the bias is ())."""
    comb = combinations if interaction_only else combinations_with_replacement
    out = [()] if include_bias else []
    for k in range(max(1, k_min), k_max + 1):
        out.extend(comb(range(d), k))
    return out


def _fill_degrees(X, full, k_max, interaction_only, bias):
    """Write the monomials of degrees 0..k_max of the rows X into ``full`` (same rows).

    Every degree k ≥ 2 block is written in place from the degree-(k−1) block: the monomials
    with leading index j are ``X[:, j] * prev[:, starts[j]:]`` (``starts[j + 1]:`` for
    interactions), where ``starts[j]`` is the offset in the previous block of its first monomial
    with leading index ≥ j.
    """
    d = X.shape[1]
    if bias:
        full[:, 0] = 1.0
    col = int(bias)
    if k_max >= 1:
        full[:, col : col + d] = X
    prev_start, prev_end = col, col + d
    starts = np.arange(d + 1)  # in the degree-1 block, leading index ≥ j starts at j
    col += d
    for _k in range(2, k_max + 1):
        new_starts, block_start = [], col
        for j in range(d):
            new_starts.append(col - block_start)
            first = prev_start + (starts[j + 1] if interaction_only else starts[j])
            width = prev_end - first
            if width > 0:
                np.multiply(
                    X[:, j : j + 1], full[:, first:prev_end], out=full[:, col : col + width]
                )
                col += width
        new_starts.append(col - block_start)
        prev_start, prev_end, starts = block_start, col, np.asarray(new_starts)


def expand(X, k_min, k_max, interaction_only, include_bias, D, chunk_bytes=1 << 21):
    """The monomial matrix, shape (n, D), built degree by degree (see the module docstring).

    Rows are processed in chunks of about ``chunk_bytes`` of output so that each degree block
    is still in cache when the next degree reads it (the arithmetic is unchanged).
    """
    n, d = X.shape
    # all degrees 0..k_max are built; with k_min > 1 the low ones are dropped at the end
    sizes = [comb(d, k) if interaction_only else comb(d + k - 1, k) for k in range(1, k_max + 1)]
    width = int(include_bias) + sum(sizes)
    full = np.empty((n, width), dtype=X.dtype)
    step = max(256, chunk_bytes // (8 * width))  # rows per chunk; fewer means Python overhead
    for r in range(0, n, step):
        _fill_degrees(X[r : r + step], full[r : r + step], k_max, interaction_only, include_bias)
    if k_min <= 1:
        return full
    keep = int(include_bias) + sum(sizes[: k_min - 1])  # columns of degrees 1..k_min−1
    out = np.empty((n, D), dtype=X.dtype)
    if include_bias:
        out[:, 0] = 1.0
    out[:, int(include_bias) :] = full[:, keep:]
    return out


class PolynomialFeatures(TransformerMixin, BaseEstimator):
    r"""All monomials of the features with degree between k_min and k_max.

    For d = 2, degree 2: [1, x_0, x_1, x_0², x_0 x_1, x_1²]. With ``interaction_only`` no
    feature is raised above power 1; ``include_bias`` adds the constant column.

    Attributes
    ----------
    powers_ : ndarray (D, d)
        Row r is the power vector p of output column r.
    n_output_features_ : int
        D.

    Examples
    --------
    >>> from scratchlearn.preprocessing import PolynomialFeatures
    >>> poly = PolynomialFeatures(degree=2).fit([[2.0, 3.0]])
    >>> print(poly.powers_.tolist())
    [[0, 0], [1, 0], [0, 1], [2, 0], [1, 1], [0, 2]]
    >>> print(poly.transform([[2.0, 3.0]]))
    [[1. 2. 3. 4. 6. 9.]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "n_output_features_": ("int", ()),
        "powers_": ("int", ("n_output_features_", "n_features_in_")),
        "_degrees": (None, None),
    }

    def _check_fitted_state(self):
        """The degree range is the one ``degree`` gives; every output column is a monomial of a
        degree in that range."""
        k_min, k_max = _degree_range(self.degree)
        degrees = self._degrees
        if (
            type(degrees) is not tuple
            or [type(k) for k in degrees] != [int, int]
            or degrees != (k_min, k_max)
        ):
            raise ValueError(
                f"_degrees is {self._degrees!r}, degree={self.degree!r} gives {(k_min, k_max)}"
            )
        total = self.powers_.sum(axis=1)
        if (
            np.any(self.powers_ < 0)
            or np.any(total > k_max)
            or np.any((total < k_min) & (total > 0))
        ):
            raise ValueError(f"powers_ holds monomials outside the degrees {k_min}..{k_max}")

    _parameter_constraints = {
        "degree": [Interval(numbers.Integral, 0, None), tuple],
        "interaction_only": ["boolean"],
        "include_bias": ["boolean"],
    }

    def __init__(self, degree=2, *, interaction_only=False, include_bias=True):
        self.degree = degree
        self.interaction_only = interaction_only
        self.include_bias = include_bias

    def fit(self, X, y=None):
        """Work out the output columns (their power vectors) for X's number of features."""
        self._validate_params()
        X = self._validate_data(X, dtype=np.float64)
        k_min, k_max = _degree_range(self.degree)
        if k_max == 0 and not self.include_bias:
            raise ValueError(
                "Setting degree to zero and include_bias to False would result in "
                "an empty output array."
            )
        d = X.shape[1]
        self._degrees = (k_min, k_max)
        combos = monomial_combinations(d, k_min, k_max, self.interaction_only, self.include_bias)
        powers = np.zeros((len(combos), d), dtype=np.int64)
        rows = np.repeat(np.arange(len(combos)), [len(c) for c in combos])
        cols = np.fromiter((j for c in combos for j in c), dtype=np.intp, count=rows.shape[0])
        np.add.at(powers, (rows, cols), 1)  # p_rj = number of times j appears in combo r
        self.powers_ = powers
        self.n_output_features_ = len(combos)
        return self

    def transform(self, X):
        """The (n, D) monomial matrix."""
        check_is_fitted(self, "powers_")
        X = self._validate_data(X, reset=False, dtype=np.float64)
        k_min, k_max = self._degrees
        return expand(
            X, k_min, k_max, self.interaction_only, self.include_bias, self.n_output_features_
        )

    def get_feature_names_out(self, input_features=None):
        """Names such as "1", "x0", "x0^2", "x0 x1"."""
        check_is_fitted(self, "powers_")
        names = _check_input_features(self, input_features)
        out = []
        for p in self.powers_:
            terms = [names[j] if p[j] == 1 else f"{names[j]}^{p[j]}" for j in np.flatnonzero(p)]
            out.append(" ".join(terms) if terms else "1")
        return np.asarray(out, dtype=object)
