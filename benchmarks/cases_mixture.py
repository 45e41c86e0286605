"""Gaussian mixtures against scikit-learn on the same arrays, from the same explicit start.

Targets (ratio ours / scikit-learn): fit <= 1.0. Both sides start from the same weights_init,
means_init and precisions_init (K rows of X as means, unit precisions), so they run the same EM
iterations (``agreement`` is the largest difference of the fitted means, and the case fails
loudly if the iteration counts differ).
"""

from __future__ import annotations

import functools

import numpy as np
from sklearn import mixture as sk_mixture

from benchmarks.harness import Case
from scratchlearn import mixture

K = 8


@functools.lru_cache(maxsize=2)
def _blobs(n, d=10, seed=0):
    """K elongated Gaussian clusters in d dimensions (random centres and covariance factors)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, K, n)
    centres = rng.normal(scale=4.0, size=(K, d))
    factors = rng.normal(scale=0.6, size=(K, d, d))
    X = centres[labels] + np.einsum("ij,ijk->ik", rng.standard_normal((n, d)), factors[labels])
    return (X,)


def _start(X):
    """The explicit start both libraries share: K rows of X, equal weights, unit precisions."""
    rows = np.random.default_rng(1).choice(X.shape[0], size=K, replace=False)
    d = X.shape[1]
    return {
        "weights_init": np.full(K, 1.0 / K),
        "means_init": X[rows].copy(),
        "precisions_init": np.tile(np.eye(d), (K, 1, 1)),
    }


def _pair(n):
    data = _blobs(n)
    start = _start(data[0])
    kw = {"n_components": K, "covariance_type": "full", **start}
    return (
        lambda: mixture.GaussianMixture(**kw),
        lambda: sk_mixture.GaussianMixture(**kw),
    )


def _agree(ours, theirs, data):
    if ours.n_iter_ != theirs.n_iter_:
        raise AssertionError(f"n_iter_ differ: ours {ours.n_iter_}, theirs {theirs.n_iter_}")
    return float(np.max(np.abs(ours.means_ - theirs.means_)))


def _case(n):
    ours, theirs = _pair(n)
    return Case(
        f"GaussianMixture full K=8 {n}x10",
        lambda: _blobs(n),
        ours,
        theirs,
        method="predict",
        agree=_agree,
        target_fit=1.0,
        note="same explicit start; iteration counts checked equal",
    )


CASES = [_case(5_000), _case(40_000)]
