"""Compiled passes of the scalers: StandardScaler's moments (two passes over X, no temporary)
and its map, MinMaxScaler's column ranges and its map, in one pass over X each.

Symbols: X (n, d) float64, C-ordered; ``lo``, ``hi``, ``z`` (d,) outputs.

:func:`range_pass` gives, per column j,

    lo_j = min_i x_ij,   hi_j = max_i x_ij   (over the values that are not NaN),
    z_j = Σ_i x_ij·0,

z_j being 0 when column j is finite and NaN as soon as it holds a NaN or ±inf (NaN·0 and ∞·0
are NaN): the pass that reads X for its ranges also tells whether it is finite. Of two equal
values the first one met is kept (+0.0 or −0.0 as it comes, where NumPy's minimum may return
the other; the scaler's min_ and its transform are the same). The loop over
the d columns of a row is the inner one, so the compiler keeps it in SIMD lanes over
contiguous memory. NumPy's ``minimum.reduce`` and ``maximum.reduce`` along axis 0 are two
passes: on 200,000 × 50, 13.8 ms against 3.4 ms for this one.

:func:`scale_pass` writes x'_ij = (x_ij − m_j)·s_j + a, clipped to [lo, hi] when asked, in the
order of operations (and so the bits) of the NumPy expression it replaces, which takes three
passes over the output.

:func:`moments_pass` is the two-pass mean and variance,

    μ_j = (Σ_i x_ij) / n,   σ²_j = (Σ_i (x_ij − μ_j)²) / n,

each sum taken row after row as NumPy reduces a C-ordered array along axis 0, so μ and σ² are
those of ``X.mean(axis=0)`` and ``((X − μ)**2).mean(axis=0)`` without their (n, d) temporary:
two reads of X instead of four reads and two writes (200,000 × 50: 5.3 against 23.2 ms).
:func:`standardise_pass` writes z_ij = (x_ij − μ_j) / σ_j in one pass, the bits of NumPy's
subtraction then division (two passes over the output). Both maps also sum x·0 per column, as
:func:`range_pass`, so that a transform into a new array can test X for NaN and infinity in the
same pass (the test of validation is a pass of its own).
"""

from __future__ import annotations

import numba

__all__ = ["moments_pass", "range_pass", "scale_pass", "standardise_pass"]


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def range_pass(X, lo, hi, z):  # pragma: no cover - compiled
    """lo, hi, z of the module docstring, for an X with at least one row."""
    n, d = X.shape
    for j in range(d):
        lo[j] = X[0, j]
        hi[j] = X[0, j]
        z[j] = 0.0
    for i in range(n):
        for j in range(d):
            x = X[i, j]
            lo[j] = x if x < lo[j] else lo[j]  # a NaN compares False: never taken
            hi[j] = x if x > hi[j] else hi[j]
            z[j] += x * 0.0


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def scale_pass(X, m, s, a, lo, hi, clip, out, z):  # pragma: no cover - compiled
    """out = (X − m)·s + a, then min(max(·, lo), hi) (NumPy's clip) when ``clip``; ``out``
    may be X; z_j = Σ_i x_ij·0 as in :func:`range_pass` (NaN when column j is not finite)."""
    n, d = X.shape
    for j in range(d):
        z[j] = 0.0
    for i in range(n):
        for j in range(d):
            z[j] += X[i, j] * 0.0
            v = (X[i, j] - m[j]) * s[j] + a
            if clip:
                v = lo if v < lo else v
                v = hi if v > hi else v
            out[i, j] = v


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def moments_pass(X, mu, var):  # pragma: no cover - compiled
    """μ and σ² of the module docstring into ``mu`` and ``var``, for an X with at least one
    row."""
    n, d = X.shape
    for j in range(d):
        mu[j] = X[0, j]
    for i in range(1, n):
        for j in range(d):
            mu[j] += X[i, j]
    for j in range(d):
        mu[j] /= n
        c = X[0, j] - mu[j]
        var[j] = c * c
    for i in range(1, n):
        for j in range(d):
            c = X[i, j] - mu[j]
            var[j] += c * c
    for j in range(d):
        var[j] /= n


@numba.njit(nogil=True, cache=True, no_cfunc_wrapper=True)
def standardise_pass(X, mu, sigma, centre, scale, out, z):  # pragma: no cover - compiled
    """out = X − μ (when ``centre``), then / σ (when ``scale``); ``out`` may be X; z as in
    :func:`scale_pass`."""
    n, d = X.shape
    for j in range(d):
        z[j] = 0.0
    for i in range(n):
        for j in range(d):
            v = X[i, j]
            z[j] += v * 0.0
            if centre:
                v = v - mu[j]
            if scale:
                v = v / sigma[j]
            out[i, j] = v
