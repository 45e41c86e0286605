"""Benchmark cases for ``scratchlearn.metrics.pairwise`` against ``sklearn.metrics.pairwise``.

Each function is wrapped in a tiny object whose ``fit(X, Y)`` stores ``Y`` and whose
``transform(X)`` computes the (n, m) matrix, so the harness times ``transform`` (the whole
computation, validation included) the same way as an estimator's predict. Data: X and Y of
5,000 × 50 standard normal values (a 5,000 × 5,000 result, 200 MB in float64).
"""

import numpy as np

from benchmarks.harness import Case
from scratchlearn.metrics import pairwise as ours_pw


class _PairwiseMatrix:
    """``fit(X, Y)`` keeps Y; ``transform(X)`` returns ``func(X, Y, **kwargs)``."""

    def __init__(self, func, **kwargs):
        self.func = func
        self.kwargs = kwargs

    def fit(self, X, Y=None):
        self.Y_ = Y
        return self

    def transform(self, X):
        return self.func(X, self.Y_, **self.kwargs)


def _data():
    rng = np.random.default_rng(0)
    return rng.standard_normal((5000, 50)), rng.standard_normal((5000, 50))


def _case(name, target, note=""):
    from sklearn.metrics import pairwise as sk_pw

    return Case(
        name=f"pairwise.{name}",
        make_data=_data,
        ours=lambda: _PairwiseMatrix(getattr(ours_pw, name)),
        theirs=lambda: _PairwiseMatrix(getattr(sk_pw, name)),
        fit_args=lambda d: (d[0], d[1]),
        predict_args=lambda d: (d[0],),
        method="transform",
        target_fit=None,
        target_predict=target,
        time_fit=False,
        note=note,
    )


CASES = [
    _case("euclidean_distances", 1.0, "one GEMM of augmented [−2x, ‖x‖², 1]·[y, 1, ‖y‖²]"),
    _case(
        "manhattan_distances",
        None,
        "not a matrix product: compiled parallel loop (Numba) vs SciPy cdist; ratio reported",
    ),
    _case("cosine_distances", 1.0),
    _case("rbf_kernel", 1.0, "exponent from one augmented GEMM"),
    _case("linear_kernel", 1.0),
    _case("polynomial_kernel", 1.0),
]
