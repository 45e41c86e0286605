"""Fits on Dask against the in-memory fit: slow cases, run only by ``--slow``.

``python -m benchmarks.run --slow`` (``make bench-dask``) measures each case of
``SLOW_CASES`` as :mod:`benchmarks.dask_harness` describes: in-memory fit time, the same fit on
a LocalCluster of 1 and of 2 worker processes, and the bytes the workers move per pass at n
and at n/4. ``--scale 0.01`` runs them on 1 % of the rows (to try the harness);
``--filter`` selects cases by name as for the ratio table. This module contributes no
``CASES``: the default ``make bench`` does not run it.

The estimators are called through their public API (``fit(dask_array)``); an estimator whose
fit does not accept Dask input yet is reported as such and skipped. Two stand-ins written
directly on :func:`scratchlearn.utils._blocks.block_reduce` (one pass of XᵀX; ten Lloyd
passes) measure the machinery alone and keep the harness testable before any estimator lands.
"""

from __future__ import annotations

import numpy as np

from benchmarks.dask_harness import DaskCase, TaskCase, block_values, dask_data, memory_data
from scratchlearn import cluster, linear_model, mixture
from scratchlearn.utils._blocks import block_reduce

CASES: list = []  # the ratio table against scikit-learn has no Dask case
N = 10_000_000


# -- stand-ins on block_reduce --------------------------------------------------------------------
def gram_stat(X, y):
    """[X 1]ᵀ[X 1] and [X 1]ᵀy of one block: the normal equations' sums."""
    Xb = np.column_stack([X, np.ones(X.shape[0])])  # (n_b, d + 1)
    return Xb.T @ Xb, Xb.T @ y


def lloyd_stat(X, C):
    """Per-centre sums and counts of one block's rows assigned to their nearest centre."""
    d2 = (X * X).sum(1)[:, None] - 2.0 * X @ C.T + (C * C).sum(1)  # (n_b, k)
    labels = d2.argmin(1)
    k = C.shape[0]
    sums = np.zeros_like(C)
    np.add.at(sums, labels, X)
    return sums, np.bincount(labels, minlength=k).astype(np.float64)


class GramStandIn:
    """Least squares from one reduction of ``gram_stat`` (what LinearRegression will do)."""

    def fit(self, X, y):
        G, b = block_reduce(gram_stat, X, y)
        w = np.linalg.solve(G, b)
        self.coef_, self.intercept_, self.n_iter_ = w[:-1], w[-1], 1
        return self


class LloydStandIn:
    """``max_iter`` Lloyd passes from given centres, one reduction of ``lloyd_stat`` each."""

    def __init__(self, init, max_iter=10):
        self.init, self.max_iter = init, max_iter

    def fit(self, X, y=None):
        C = np.array(self.init, dtype=np.float64)
        for _ in range(self.max_iter):
            sums, counts = block_reduce(lloyd_stat, X, static=(C,))
            C = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], C)
        self.cluster_centers_, self.n_iter_ = C, self.max_iter
        return self


def _first_rows(k, d=20):
    """The first k rows of block 0 of the "normal" data: the same start for every fit."""
    return block_values(0, 0, k, d, "normal")[:, :d]


_KMEANS_KW = {"init": _first_rows(8), "n_init": 1, "max_iter": 10, "tol": 0.0}
# The mixture from the same given start on both sides (weights, means at given rows, unit
# precisions): a k-means start would be drawn from random_state and differ by rounding between
# the one-block and the blocked fit. 10 EM passes.
_GMM_KW = {
    "means_init": _first_rows(4, 10),
    "weights_init": np.full(4, 0.25),
    "precisions_init": np.stack([np.eye(10)] * 4),
    "max_iter": 10,
    "tol": 0.0,
    "covariance_type": "full",
}


# -- GridSearchCV under parallel_backend("dask") ---------------------------------------------------
def _search_prepare(where, n):
    """The bundled digits (1,797 × 64) and a 6 × 4 grid of an RBF SVC behind a scaler."""
    from scratchlearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return X, y, where


def _search_run(state):
    from scratchlearn.model_selection import GridSearchCV
    from scratchlearn.pipeline import make_pipeline
    from scratchlearn.preprocessing import StandardScaler
    from scratchlearn.svm import SVC
    from scratchlearn.utils.parallel import parallel_backend

    X, y, where = state
    grid = {
        "svc__C": [0.1, 0.3, 1.0, 3.0, 10.0, 30.0],
        "svc__gamma": [0.003, 0.01, 0.03, 0.1],
    }
    search = GridSearchCV(make_pipeline(StandardScaler(), SVC()), grid, cv=5)
    if where == "memory":
        search.set_params(n_jobs=1)
        return search.fit(X, y)
    with parallel_backend("dask"):
        return search.fit(X, y)  # n_jobs=None: the whole cluster


def _search_agree(a, b):
    """Largest difference of the mean test scores; a different best candidate counts as 1."""
    d = np.max(np.abs(a.cv_results_["mean_test_score"] - b.cv_results_["mean_test_score"]))
    return float(d) if a.best_params_ == b.best_params_ else 1.0


# -- k-NN queries: a model fitted in memory on 10⁶ points, queries as Dask blocks -----------------
_KNN_D, _KNN_TRAIN = 5, 1_000_000


def _knn_prepare(where, n):
    import dask
    from scratchlearn.neighbors import KNeighborsClassifier

    X, y = memory_data(_KNN_TRAIN, _KNN_D, 4, "classification", seed=1)
    model = KNeighborsClassifier(n_neighbors=5, algorithm="kd_tree").fit(X, y)
    if where == "memory":
        return model, memory_data(n, _KNN_D, 20, "normal")[0]
    Q, _ = dask_data(n, _KNN_D, 20, "normal")
    (Q,) = dask.persist(Q)
    return model, Q


def _knn_run(state):
    model, Q = state
    labels = model.predict(Q)
    return labels if isinstance(labels, np.ndarray) else labels.compute()


def _labels_agree(a, b):
    return float(np.mean(np.asarray(a) != np.asarray(b)))


SLOW_CASES = [
    DaskCase(
        f"LinearRegression {N:.0e}x20",
        lambda: linear_model.LinearRegression(),
        "regression",
        N,
        fitted=("coef_", "intercept_"),
        target_speedup=None,
        note="one pass: XᵀX and Xᵀy per block",
    ),
    DaskCase(
        f"KMeans k=8 {N:.0e}x20",
        lambda: cluster.KMeans(8, **_KMEANS_KW),
        "normal",
        N,
        fitted=("cluster_centers_",),
        note="same explicit init, 10 Lloyd passes (no cluster structure: all run)",
    ),
    DaskCase(
        f"LogisticRegression {N:.0e}x20",
        # Newton on both sides: "auto" picks L-BFGS in memory at this n (its Hessian would cost
        # n·p² per iteration) but Newton on Dask (passes are the cost there), which would time
        # two different solvers.
        lambda: linear_model.LogisticRegression(solver="newton"),
        "classification",
        N,
        fitted=("coef_", "intercept_"),
        target_overhead=None,
        note="one pass per iteration",
    ),
    DaskCase(
        f"GaussianMixture k=4 full {N:.0e}x10",
        lambda: mixture.GaussianMixture(4, **_GMM_KW),
        "normal",
        N,
        d=10,
        fitted=("weights_", "means_", "covariances_"),
        note="same explicit start, 10 EM passes (block statistics per pass)",
    ),
    DaskCase(
        f"stand-in block_reduce XᵀX {N:.0e}x20",
        lambda: GramStandIn(),
        "regression",
        N,
        fitted=("coef_", "intercept_"),
        note="the machinery alone, one pass",
    ),
    DaskCase(
        f"stand-in block_reduce Lloyd k=8 {N:.0e}x20",
        lambda: LloydStandIn(_first_rows(8)),
        "normal",
        N,
        fitted=("cluster_centers_",),
        note="the machinery alone, 10 passes",
    ),
]
TASK_CASES = [
    TaskCase(
        "GridSearchCV 24 candidates x 5 folds (scaler + RBF SVC, digits)",
        _search_prepare,
        _search_run,
        _search_agree,
        n=1797,
        target_speedup=1.7,
        scales=False,
        repeat=1,  # 120 fits take tens of seconds: one timed search per side
        note="120 fits: local n_jobs=1, then parallel_backend('dask') on 1 and 2 workers",
    ),
    TaskCase(
        f"KNeighborsClassifier predict, {N // 100:.0e} queries x5 against 1e6 points (kd-tree)",
        _knn_prepare,
        _knn_run,
        _labels_agree,
        n=N // 100,
        note="lazy predict on 20 query blocks persisted on the workers; model sent once",
    ),
]
SLOW_CASES += TASK_CASES
