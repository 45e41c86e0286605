"""KMedoids: alternate against scikit-learn-extra's alternate algorithm, and FasterPAM against PAM.

scikit-learn-extra is not a dependency (its wheels are built against NumPy 1), so the "theirs"
side of the alternate rows is its algorithm written plainly in NumPy, as its
``method="alternate"`` runs (that part of it is pure NumPy): scikit-learn's
``pairwise_distances`` for D, ``argmin`` over the medoid rows of D, and in each cluster the sum of
the ``D[members][:, members]`` block. Both sides start from the same k rows of X.

The FasterPAM rows compare two of our methods from the same start: "theirs" is our best-
improvement PAM (the O(n²)-per-pass SWAP). FasterPAM makes its exchanges eagerly and needs far
fewer passes; the two may stop at different local optima (tests/cluster/test_cluster_kmedoids.py).

Both fits include building the n × n distance matrix (8n² bytes: 0.8 GB at n = 10,000), the
same work on both sides; at n = 10,000 it dominates the fit (measured under load: D 6.9 s,
then the searches from the same start: FasterPAM 1.2 s in 2 passes, PAM 5.6 s in 9 passes,
alternate 0.5 s in 5 iterations), so the FasterPAM/PAM fit ratio understates the searches'.

``agree`` is the relative difference of TD, (TD_ours − TD_theirs)/TD_theirs: 0 when both reach
the same medoids (alternate), and the gap between the two local optima (FasterPAM vs PAM).
Target (alternate, ratio ours / reference): fit <= 1.0, predict <= 1.0.

When the ``kmedoids`` package (FasterPAM by its authors, Rust; ``pip install kmedoids``) is
installed, one more row fits FasterPAM on a precomputed 5,000 × 5,000 Euclidean matrix with
both libraries, each starting from its own BUILD (deterministic: the same medoids up to ties),
so both sides time BUILD + the swaps on the same matrix; target fit <= 1.0. Its thread count
follows the column: ``n_cpu=1`` in the one-thread column (the harness sets Numba's pool to 1
there), its default ``n_cpu=-1`` in the default one (our FasterPAM is serial). The row is
skipped with a printed reason when the package is missing.
"""

from __future__ import annotations

import functools
import sys

import numba
import numpy as np
from sklearn.metrics import pairwise_distances as sk_pairwise_distances

from benchmarks.harness import Case
from scratchlearn.cluster import KMedoids
from scratchlearn.datasets import make_blobs

K = 8


@functools.lru_cache(maxsize=4)
def _blobs(n, d=10, seed=0):
    X, _ = make_blobs(n_samples=n, n_features=d, centers=K, cluster_std=2.0, random_state=seed)
    start = np.random.default_rng(seed).choice(n, size=K, replace=False)
    return X, start


def _start_rows(n):
    X, start = _blobs(n)
    return X[start]


class PlainAlternate:
    """scikit-learn-extra's alternate k-medoids, plainly: the reference of the alternate rows."""

    def __init__(self, init, max_iter=300):
        self.init = init
        self.max_iter = max_iter

    def fit(self, X):
        D = sk_pairwise_distances(X)
        M = np.array([np.flatnonzero(np.all(X == row, axis=1))[0] for row in self.init])
        for _ in range(self.max_iter):
            old = M.copy()
            labels = np.argmin(D[M, :], axis=0)
            for j in range(M.shape[0]):
                members = np.flatnonzero(labels == j)
                costs = D[np.ix_(members, members)].sum(axis=1)
                if costs.min() < D[M[j], members].sum():
                    M[j] = members[np.argmin(costs)]
            if np.array_equal(old, M):
                break
        self.medoid_indices_ = M
        self.cluster_centers_ = X[M]
        self.inertia_ = float(D[:, M].min(axis=1).sum())
        return self

    def predict(self, X):
        return np.argmin(sk_pairwise_distances(X, self.cluster_centers_), axis=1)


def _td_gap(ours, theirs, data):
    return (ours.inertia_ - theirs.inertia_) / theirs.inertia_


def _fit_args(data):
    return (data[0],)


def _alternate_case(n):
    return Case(
        f"KMedoids alternate {n}x10 k={K}",
        lambda: _blobs(n),
        lambda: KMedoids(K, method="alternate", init=_start_rows(n)),
        lambda: PlainAlternate(init=_start_rows(n)),
        fit_args=_fit_args,
        agree=_td_gap,
        target_fit=1.0,
        target_predict=1.0,
        note="reference: scikit-learn-extra's alternate loop in NumPy",
    )


def _fasterpam_case(n):
    return Case(
        f"KMedoids fasterpam vs pam {n}x10 k={K}",
        lambda: _blobs(n),
        lambda: KMedoids(K, method="fasterpam", init=_start_rows(n)),
        lambda: KMedoids(K, method="pam", init=_start_rows(n)),
        fit_args=_fit_args,
        method=None,
        agree=_td_gap,
        note="theirs = our best-improvement PAM (FasterPAM's speed-up over PAM)",
    )


@functools.lru_cache(maxsize=1)
def _precomputed(n):
    X, _ = _blobs(n)
    return (sk_pairwise_distances(X),)


class PackageFasterPAM:
    """``kmedoids.fasterpam`` from its own BUILD, with our estimator's ``fit`` / ``inertia_``."""

    def __init__(self, k):
        self.k = k

    def fit(self, D):
        import kmedoids

        n_cpu = 1 if numba.get_num_threads() == 1 else -1  # the column's threads (see above)
        result = kmedoids.fasterpam(D, self.k, max_iter=300, init="build", n_cpu=n_cpu)
        self.medoid_indices_, self.inertia_ = result.medoids, float(result.loss)
        return self


def _package_case(n):
    return Case(
        f"KMedoids fasterpam precomputed {n}x{n} k={K} vs kmedoids",
        lambda: _precomputed(n),
        lambda: KMedoids(K, metric="precomputed", method="fasterpam", init="build"),
        lambda: PackageFasterPAM(K),
        fit_args=_fit_args,
        method=None,
        agree=_td_gap,
        target_fit=1.0,
        note="reference: the kmedoids package (FasterPAM's authors); both from BUILD",
    )


CASES = [
    _alternate_case(2_000),
    _alternate_case(10_000),
    _fasterpam_case(2_000),
    _fasterpam_case(10_000),
]
try:
    import kmedoids  # noqa: F401
except ImportError:
    print(
        "benchmarks/cases_kmedoids.py: kmedoids is not installed (pip install kmedoids): "
        "the FasterPAM row against it is skipped",
        file=sys.stderr,
    )
else:
    CASES.append(_package_case(5_000))
