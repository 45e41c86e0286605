"""Weighted moments of disjoint samples, merged by the pairwise update of Chan, Golub and LeVeque.

Symbols
-------
n       the weight of a sample, Σᵢ wᵢ (its size, with unit weights)
μ       its weighted mean Σᵢ wᵢ xᵢ / n, (d,)
M2      its centred second moment, as a sum: Σᵢ wᵢ (xᵢ − μ)² per coordinate, (d,), or the
        matrix of centred cross-products Σᵢ wᵢ (xᵢ − μ)(xᵢ − μ)ᵀ, (d, d)

Two disjoint samples a and b merge exactly into the moments of their union:

.. math::

    n = n_a + n_b, \\qquad δ = μ_b − μ_a, \\qquad μ = μ_a + δ \\, \\frac{n_b}{n},

    M2 = M2_a + M2_b + \\frac{n_a n_b}{n} \\, δ^2
    \\quad\\text{(per coordinate), or}\\quad
    M2 = M2_a + M2_b + \\frac{n_a n_b}{n} \\, δ δ^T \\quad\\text{(cross-products)}.

Each sample is centred at its own mean; the term in δ moves both to the common mean. Unlike
accumulating Σx and Σx² (or Σxxᵀ), it never subtracts two large, nearly equal numbers, so the
merge is as accurate as a two-pass computation on the union. This is how StandardScaler and
GaussianNB fit in batches (``partial_fit``) and on Dask (row blocks merged in a tree), and how
least squares merges the cross-products of row blocks.

References
----------
Chan, T. F., Golub, G. H. and LeVeque, R. J. (1979). Updating formulae and a pairwise algorithm
for computing sample variances. Technical report STAN-CS-79-773, Stanford University.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Moments", "merge_moments"]


class Moments(NamedTuple):
    """``(weight, mean, m2)``: n, μ and M2 of a sample (see the module docstring).

    Several samples side by side (e.g. one per class) are rows: ``weight`` (K,), ``mean``
    (K, d), ``m2`` (K, d). ``m2`` may be None when only the mean is wanted. A sample of weight
    0 has mean 0 and M2 0.
    """

    weight: object
    mean: np.ndarray
    m2: np.ndarray | None


def _ratio(num, n):
    """num / n, and 0 where n = 0 (two empty samples: nothing to move)."""
    n = np.asarray(n, dtype=np.float64)
    return np.divide(np.asarray(num, dtype=np.float64), n, out=np.zeros(n.shape), where=n > 0)


def merge_moments(a: Moments, b: Moments) -> Moments:
    """The moments of the union of two disjoint samples (Chan, Golub and LeVeque 1979).

    n = n_a + n_b,  δ = μ_b − μ_a,  μ = μ_a + δ·n_b/n,  M2 = M2_a + M2_b + (n_a n_b/n)·δ²,
    with δδᵀ in place of δ² when M2 is a matrix of cross-products (``m2`` with one more
    dimension than ``mean``). Rows (a weight per row) merge row by row; a side of weight 0
    leaves the other unchanged.
    """
    n = a.weight + b.weight
    delta = b.mean - a.mean  # (…, d)
    mean = a.mean + delta * _ratio(b.weight, n)[..., None]
    if a.m2 is None:
        return Moments(n, mean, None)
    f = _ratio(a.weight * b.weight, n)  # n_a n_b / n
    if a.m2.ndim == a.mean.ndim + 1:  # cross-products: δδᵀ, (…, d, d)
        m2 = a.m2 + b.m2 + f[..., None, None] * (delta[..., :, None] * delta[..., None, :])
    else:  # per coordinate: δ², (…, d)
        m2 = a.m2 + b.m2 + f[..., None] * (delta * delta)
    return Moments(n, mean, m2)
