"""The compiled loop of :func:`scratchlearn.metrics._pairwise_kernels.coordinate_distances`.

It lives in a module of its own, imported on the first call, so that ``import
scratchlearn.metrics`` does not import Numba (about 0.3 s) for the many users of metrics that
never ask for a coordinate-wise distance.
"""

from __future__ import annotations

import numba


# fastmath lets the compiler reorder the sums into SIMD lanes (≈3× faster); it is safe here
# because every input has been checked finite, and the order of a sum changes only its last bits.
@numba.njit(parallel=True, fastmath=True, cache=True, no_cfunc_wrapper=True)
def _coordinate_distances(X, Y, code, p, D):  # pragma: no cover - compiled
    """Fill ``D[i, j]`` with a coordinate-wise distance between rows ``X[i]`` and ``Y[j]``.

    code 0: Σₖ|xₖ − yₖ|;  1: maxₖ|xₖ − yₖ|;  2: (Σₖ|xₖ − yₖ|ᵖ)^(1/p);
    code 3: (1/d)·#{k : xₖ ≠ yₖ}.
    """
    n, d = X.shape
    m = Y.shape[0]
    for i in numba.prange(n):
        for j in range(m):
            s = 0.0
            if code == 0:
                for k in range(d):
                    s += abs(X[i, k] - Y[j, k])
            elif code == 1:
                for k in range(d):
                    s = max(s, abs(X[i, k] - Y[j, k]))
            elif code == 2:
                for k in range(d):
                    s += abs(X[i, k] - Y[j, k]) ** p
                s = s ** (1.0 / p)
            else:
                for k in range(d):
                    if X[i, k] != Y[j, k]:
                        s += 1.0
                s = s / d
            D[i, j] = s
