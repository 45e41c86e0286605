"""k-medoids: k representative data points minimising the total distance to them.

Symbols: ``X`` (n, d) the samples, ``D`` the (n, n) matrix ``D[o, j] = d(x_o, x_j)`` of any
metric, ``M = (m_1, …, m_k)`` the medoid indices, ``c(o)`` the position of the medoid nearest to
``x_o``. The objective is the total deviation

    TD(M) = Σ_o min_i D[o, m_i] = Σ_o D[o, m_{c(o)}].

Unlike k-means' centroids, medoids are rows of X, so any dissimilarity works (no mean is ever
taken) and a far outlier cannot drag a medoid toward itself. Three local searches:

``alternate``
    Assign every point to its nearest medoid; in each cluster make the member of least total
    distance to the other members the medoid; repeat until no medoid changes (the k-means-like
    loop of the lecture notes; scikit-learn-extra's ``method="alternate"``).
``pam``
    Kaufman & Rousseeuw's SWAP: each pass evaluates every (medoid, non-medoid) exchange and makes
    the one that lowers TD the most; stops when none lowers it. ΔTD of all k exchanges with one
    candidate comes from one scan of D (see :mod:`._kmedoids_kernels`), so a pass is O(n²).
``fasterpam``
    Schubert & Rousseeuw (2021): the same exchanges, made eagerly, as soon as a candidate's best
    exchange lowers TD. Stops when no single exchange lowers TD — the same kind of local
    optimum as PAM, usually reached in far fewer passes (possibly a different one).

Each step never increases TD, which ``history_["objective"]`` records (the start, then after
every pass). ``init``: "k-medoids++" (k-means++ seeding on squared distances with 2 + ⌊ln k⌋
greedy trials, as scikit-learn-extra), "build" (PAM's greedy BUILD), "random" (k distinct
points) or an array of k rows of X.

Memory: D is held whole, 8n² bytes (0.8 GB at n = 10,000), and nothing else of size n²; fit
refuses n > ``MAX_SAMPLES`` (30,000: 7.2 GB). The kernels stream the rows of ``Dᵀ`` (all the
distances to one point), and :func:`_transposed` finds them without a copy wherever it can: a
computed D is exactly symmetric, so it is its own transpose; a precomputed D is read in place
when it is exactly symmetric (checked) or in Fortran order (its transpose is then a C-ordered
view). Only a non-symmetric precomputed matrix in C order is transposed into a copy, a second
8n² bytes: pass it as ``np.asfortranarray(D)`` (or build it in Fortran order) to avoid that.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..base import BaseEstimator, ClusterMixin, TransformerMixin
from ..exceptions import ConvergenceWarning
from ..metrics.pairwise import PAIRWISE_DISTANCE_FUNCTIONS, pairwise_distances
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import check_is_fitted, check_random_state
from . import _kmedoids_kernels as kern

__all__ = ["KMedoids", "MAX_SAMPLES"]

#: Largest n for which fit builds the (n, n) distance matrix (8n² bytes = 7.2 GB).
MAX_SAMPLES = 30_000


def _threshold(td):
    """A swap or medoid update must lower TD by more than this: a few hundred ulps of TD, so
    rounding in the O(n) sums of ΔTD cannot make a no-change exchange look like a gain."""
    return 256 * np.finfo(np.float64).eps * max(td, np.finfo(np.float64).tiny)


def _kmedoids_pp(DT, k, rng):
    """k-means++ seeding on squared distances: each next medoid among 2 + ⌊ln k⌋ draws ∝
    d(x, M)², keeping the draw that lowers Σ_o min_i d(x_o, x_{m_i})² the most."""
    n = DT.shape[0]
    trials = 2 + int(np.log(k))
    M = np.empty(k, dtype=np.int64)
    M[0] = rng.integers(n)
    chosen = np.zeros(n, dtype=bool)
    chosen[M[0]] = True
    closest = DT[M[0]] ** 2  # (n,)
    for m in range(1, k):
        cum = np.cumsum(closest)
        # side="right" never lands on a zero-probability point (a medoid, or its duplicate)
        draws = np.minimum(np.searchsorted(cum, rng.random(trials) * cum[-1], "right"), n - 1)
        draws = draws[~chosen[draws]]
        if draws.size == 0:  # every point coincides with a medoid: take the first unchosen
            draws = np.flatnonzero(~chosen)[:1]
        candidates = np.minimum(closest[None, :], DT[draws] ** 2)  # (trials, n)
        best = int(np.argmin(candidates.sum(axis=1)))
        M[m] = draws[best]
        chosen[M[m]] = True
        closest = candidates[best]
    return M


def _transposed(D):
    """``DT = Dᵀ`` as a C-ordered array, without copying D where possible (module docstring).

    The kernels read ``DT[j, o] = D[o, j]``; values are never changed, so the results are the
    same whichever way DT is obtained.
    """
    if D.flags.f_contiguous:
        return D.T  # (n, n) C-ordered view
    if D.flags.c_contiguous and kern.is_symmetric(D):
        return D  # D[o, j] == D[j, o] for every pair: D is its own transpose
    return np.ascontiguousarray(D.T)  # non-symmetric in C order (or strided): one copy


def _rows_of_X(X, init, k):
    """Indices of the rows of X equal to the rows of ``init`` (the first equal row of X)."""
    init = np.asarray(init, dtype=np.float64)
    if init.ndim != 2 or init.shape != (k, X.shape[1]):
        raise ValueError(
            f"init array must have shape (n_clusters, n_features) = ({k}, {X.shape[1]}); got "
            f"{init.shape}."
        )
    M = np.empty(k, dtype=np.int64)
    for i, row in enumerate(init):
        hits = np.flatnonzero(np.all(X == row, axis=1))
        if hits.size == 0:
            raise ValueError(f"init row {i} is not a row of X: medoids must be data points.")
        M[i] = hits[0]
    if np.unique(M).size < k:
        raise ValueError("init has repeated rows: the k medoids must be k different points.")
    return M


class KMedoids(ClusterMixin, TransformerMixin, BaseEstimator):
    """k-medoids clustering by alternate, PAM or FasterPAM (module docstring for the algorithms).

    Minimises ``TD(M) = Σ_o min_i d(x_o, x_{m_i})`` over sets M of k data points.

    Parameters
    ----------
    n_clusters : int, number of medoids k.
    metric : str or callable
        Any metric of :func:`scratchlearn.metrics.pairwise.pairwise_distances`, a callable
        ``f(x, y) -> float``, or "precomputed" (X is then the (n, n) distance matrix, read in
        place, never copied, when it is symmetric or in Fortran order; a non-symmetric
        C-ordered matrix is transposed into one copy: see the module docstring).
    method : "alternate", "pam" or "fasterpam".
    init : "k-medoids++", "build", "random" or an array of k rows of X, each read as the first
        equal row of X (not with "precomputed").
    max_iter : int, passes of the method (alternate iterations, SWAP or FasterPAM passes).
    random_state : None, int or Generator, for "k-medoids++" and "random".

    Attributes
    ----------
    medoid_indices_ : (k,) indices of the medoids in the training X.
    cluster_centers_ : (k, d) the medoids, ``X[medoid_indices_]``; None for "precomputed".
    labels_ : (n,) position of each sample's nearest medoid (the first one on ties).
    inertia_ : float, TD of the final medoids.
    n_iter_, history_, stop_reason_ : the fit record; ``history_["objective"]`` is TD at the
        start and after each pass; ``n_iter_`` counts passes including the last one, which
        changed nothing (``stop_reason_`` "converged"), or ``max_iter`` ("max_iter", with a
        ConvergenceWarning).

    Ties: the nearest medoid is the first of equal distance in ``medoid_indices_`` order; an
    exchange or a medoid update is made only when it lowers TD by more than 256 ulps of TD;
    among equal best exchanges PAM takes the first candidate by index, then the first position.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.cluster import KMedoids
    >>> from scratchlearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> km = KMedoids(n_clusters=3, method="pam", init="build").fit(X)
    >>> print(km.cluster_centers_)
    [[6.  2.9 4.5 1.5]
     [5.  3.4 1.5 0.2]
     [6.8 3.  5.5 2.1]]
    >>> print(sorted(np.bincount(km.labels_).tolist()), round(km.inertia_, 2), km.stop_reason_)
    [38, 50, 62] 98.13 converged
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "medoid_indices_": ("int", ("n_clusters",)),
        "labels_": ("int", ("n_samples",)),
        "cluster_centers_": ("float64", ("n_clusters", "n_features_in_"), "optional"),
        "inertia_": ("float64", ()),
    }

    def _check_fitted_state(self):
        """Medoids are rows of the training set."""
        if np.any(self.medoid_indices_ < 0) or np.any(self.medoid_indices_ >= len(self.labels_)):
            raise ValueError("medoid_indices_ points outside the training set")

    _parameter_constraints = {
        "n_clusters": [Interval(numbers.Integral, 1, None, closed="left")],
        "metric": [StrOptions(set(PAIRWISE_DISTANCE_FUNCTIONS) | {"precomputed"}), "callable"],
        "method": [StrOptions({"alternate", "pam", "fasterpam"})],
        "init": [StrOptions({"k-medoids++", "build", "random"}), "array-like"],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        metric="euclidean",
        method="alternate",
        init="k-medoids++",
        max_iter=300,
        random_state=None,
    ):
        self.n_clusters = n_clusters
        self.metric = metric
        self.method = method
        self.init = init
        self.max_iter = max_iter
        self.random_state = random_state

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(pairwise=self.metric == "precomputed")
        return t

    # -- fit ------------------------------------------------------------------------------------
    def _distances(self, X):
        """Validated X and ``DT = Dᵀ`` (C-ordered: ``DT[j]`` holds every d(x_o, x_j)), which
        is D itself, or a view of it, whenever possible (see :func:`_transposed`)."""
        precomputed = isinstance(self.metric, str) and self.metric == "precomputed"
        X = self._validate_data(X, dtype=np.float64)
        n, k = X.shape[0], self.n_clusters
        if precomputed and X.shape[0] != X.shape[1]:
            raise ValueError(f"A precomputed distance matrix must be square; got {X.shape}.")
        if k > n:
            raise ValueError(f"n_samples={n} should be >= n_clusters={k}.")
        if n > MAX_SAMPLES:
            raise ValueError(
                f"KMedoids holds the {n} x {n} distance matrix ({8 * n * n / 1e9:.1f} GB); it "
                f"refuses n_samples > {MAX_SAMPLES}. Subsample, or use KMeans."
            )
        if precomputed and not isinstance(self.init, str):
            raise ValueError("init as an array needs rows of X; with precomputed, use a str.")
        D = pairwise_distances(X, metric=self.metric)
        if not precomputed:
            return X, D  # computed here, and exactly symmetric for Y = X: D is its own DT
        return X, _transposed(D)  # the user's matrix, read in place unless it is asymmetric

    def _initial_medoids(self, X, DT, rng):
        k = self.n_clusters
        if not isinstance(self.init, str):
            return _rows_of_X(X, self.init, k)
        if self.init == "build":
            return kern.build(DT, k)
        if self.init == "random":
            return rng.choice(DT.shape[0], size=k, replace=False).astype(np.int64)
        return _kmedoids_pp(DT, k, rng)

    def fit(self, X, y=None):
        """Find k medoids of X (or of the precomputed matrix X). Returns self."""
        self._validate_params()
        X, DT = self._distances(X)  # DT[j, o] = d(x_o, x_j)
        rng = check_random_state(self.random_state)
        M = self._initial_medoids(X, DT, rng)
        search = {"alternate": _alternate, "pam": _pam, "fasterpam": _fasterpam}[self.method]
        M, history, n_iter, converged = search(DT, M, self.max_iter)
        n, k = DT.shape[0], M.shape[0]
        near, second = np.empty(n, np.int64), np.empty(n, np.int64)
        dn, ds = np.empty(n), np.empty(n)
        self.inertia_ = float(kern.nearest_two(DT, M, near, second, dn, ds))
        self.labels_ = near
        self.medoid_indices_ = M
        self.cluster_centers_ = None if self._scratch_tags()["pairwise"] else X[M].copy()
        distinct = k - int(np.sum(np.triu(DT[np.ix_(M, M)] == 0, 1).any(axis=0)))
        if distinct < k:
            warnings.warn(
                f"Number of distinct medoids ({distinct}) found smaller than n_clusters ({k}): "
                "X has fewer distinct points than clusters.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self._record_fit(
            n_iter,
            {"objective": history},
            "converged" if converged else "max_iter",
            criterion=f"a pass that changes no medoid within max_iter={self.max_iter}",
        )
        return self

    # -- use ------------------------------------------------------------------------------------
    def transform(self, X):
        """(m, k) distances to the medoids; with "precomputed", X holds the (m, n_train)
        distances to the training points."""
        check_is_fitted(self, "medoid_indices_")
        X = self._validate_data(X, dtype=np.float64, reset=False)
        if self._scratch_tags()["pairwise"]:
            return X[:, self.medoid_indices_].copy()
        return pairwise_distances(X, self.cluster_centers_, metric=self.metric)

    def predict(self, X):
        """Position of the nearest medoid of each row of X (the first one on ties)."""
        return np.argmin(self.transform(X), axis=1)


# -- the three searches: (DT, M, max_iter) -> (M, TD history, passes, converged) ---------------


def _caches(DT, M):
    n = DT.shape[0]
    near, second = np.empty(n, np.int64), np.empty(n, np.int64)
    dn, ds = np.empty(n), np.empty(n)
    td = kern.nearest_two(DT, M, near, second, dn, ds)
    return td, (near, second, dn, ds)


def _alternate(DT, M, max_iter):
    """Assign to the nearest medoid, move each medoid to its cluster's most central member."""
    M = M.copy()
    td, (near, second, dn, ds) = _caches(DT, M)
    history = [td]
    for it in range(1, max_iter + 1):
        old = M.copy()
        empty = kern.update_medoids(DT, near, M, _threshold(td))
        if empty:
            warnings.warn(f"{empty} cluster(s) are empty: their medoids are kept.", stacklevel=3)
        td = kern.nearest_two(DT, M, near, second, dn, ds)
        history.append(td)
        if np.array_equal(old, M):
            return M, history, it, True
    return M, history, max_iter, False


def _pam(DT, M, max_iter):
    """Best-improvement SWAP: per pass, the exchange of least ΔTD, made if it lowers TD."""
    M = M.copy()
    td, (near, second, dn, ds) = _caches(DT, M)
    is_medoid = np.zeros(DT.shape[0], dtype=np.bool_)
    is_medoid[M] = True
    history = [td]
    for it in range(1, max_iter + 1):
        loss = kern.removal_loss(near, dn, ds, M.shape[0])
        delta, i, c = kern.best_swap(DT, is_medoid, near, dn, ds, loss)
        if c < 0 or not delta < -_threshold(td):
            history.append(td)
            return M, history, it, True
        td = kern.apply_swap(DT, M, is_medoid, i, c, near, second, dn, ds)
        history.append(td)
    return M, history, max_iter, False


def _fasterpam(DT, M, max_iter):
    """Eager swaps, candidate by candidate, until n candidates in a row give none."""
    M = M.copy()
    td, (near, second, dn, ds) = _caches(DT, M)
    is_medoid = np.zeros(DT.shape[0], dtype=np.bool_)
    is_medoid[M] = True
    history = [td]
    start, since_swap = 0, 0
    for it in range(1, max_iter + 1):
        td, _, start, since_swap, converged = kern.fasterpam_pass(
            DT, M, is_medoid, near, second, dn, ds, start, since_swap, _threshold(td)
        )
        history.append(td)
        if converged:
            return M, history, it, True
    return M, history, max_iter, False
