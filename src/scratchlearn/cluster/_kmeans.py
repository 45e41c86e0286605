r"""k-means: Lloyd's and Elkan's algorithms, greedy k-means++ seeding, and :class:`KMeans`.

Symbols: ``X`` (n, d) the data, ``w`` (n,) sample weights, ``k`` clusters, ``μ_j`` (k, d) the
centres, ``c(i)`` the cluster of row i.

k-means minimises the weighted within-cluster sum of squares (the *inertia*)

.. math:: J(c, μ) = \sum_i w_i \, ‖x_i − μ_{c(i)}‖²

by alternating its two exact partial minimisations (Lloyd, 1957/1982):

1. assignment (E-step): c(i) = argmin_j ‖xᵢ − μ_j‖²;
2. update (M-step): μ_j = Σ_{c(i)=j} wᵢxᵢ / Σ_{c(i)=j} wᵢ, the weighted mean of cluster j.

Neither step can increase J, so ``history_["objective"]`` (J at μ₀, μ₁, …, J at the final
centres) never increases. A cluster left empty by step 1 is re-seeded with the row farthest from
its own centre, which also lowers J. Elkan's algorithm computes the same assignments while
skipping distances that the triangle inequality proves cannot win.

Sparse X (CSR). Every step reads only the stored entries (:func:`._kmeans_kernels.lloyd_pass`
on CSR): the rows are not centred (that would fill them in), so the arithmetic differs from the
dense fit of the same data only by rounding: the same argmin of ‖μ_j‖² − 2xᵢ·μ_j, each value
off by about (d + 2)ε(‖xᵢ‖² + ‖μ_j‖²) (uncentred norms), and centres that are the same means
summed in another order (≲ nε·max|x|). Elkan's algorithm runs Lloyd's iterations on sparse X
(the same assignments; its per-distance loop over d columns would undo the sparsity).
"""

from __future__ import annotations

import numbers
import warnings
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, ClusterMixin, TransformerMixin
from ..exceptions import ConvergenceWarning
from ..metrics.pairwise import euclidean_distances
from ..preprocessing._data import merge_mean_var, weighted_mean_var
from ..utils._blocks import block_reduce, is_dask_collection
from ..utils._dask_predict import answers_dask
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import (
    _assert_all_finite,
    check_array,
    check_is_fitted,
    check_random_state,
    check_sample_weight,
)
from ._kmeans_kernels import (
    J_DIRECT,
    J_EXPANDED,
    J_NONE,
    canonical_csr,
    elkan_pass,
    lloyd_pass,
)

__all__ = ["KMeans", "kmeans_plusplus"]


# -- seeding -----------------------------------------------------------------------------------
def row_sq_norms(X):
    """‖xᵢ‖² of each row of a dense or CSR X, shape (n,)."""
    if sp.issparse(X):
        X = canonical_csr(X)
        rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        return np.bincount(rows, weights=X.data * X.data, minlength=X.shape[0])
    return np.einsum("ij,ij->i", X, X)


def dense_rows(X):
    """Rows of X (dense or sparse) as a dense float64 array (centres are dense)."""
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)


def kmeans_plusplus(X, k, w, rng, n_local_trials=None):
    """Greedy k-means++ (Arthur & Vassilvitskii, 2007): row indices of k seeds.

    The first seed is drawn ∝ wᵢ. Each next one: draw L = 2 + ⌊ln k⌋ candidates ∝ wᵢ·D²(xᵢ)
    (D = distance to the nearest seed so far) and keep the candidate whose addition leaves the
    least potential φ = Σᵢ wᵢ D²(xᵢ). X may be dense or CSR (D² by ‖x‖² − 2x·y + ‖y‖²).
    """
    n = X.shape[0]
    L = 2 + int(np.log(k)) if n_local_trials is None else n_local_trials
    x_sq = row_sq_norms(X)
    idx = np.empty(k, dtype=np.intp)
    idx[0] = rng.choice(n, p=w / w.sum())
    D2 = _squared_distances_to_rows(X, idx[:1], x_sq)[0]  # (n,)
    phi = D2 @ w
    for c in range(1, k):
        u = rng.uniform(size=L) * phi
        cand = np.minimum(np.searchsorted(np.cumsum(w * D2), u), n - 1)  # (L,)
        D2_cand = _squared_distances_to_rows(X, cand, x_sq)  # (L, n)
        np.minimum(D2_cand, D2, out=D2_cand)
        phi_cand = D2_cand @ w  # (L,)
        best = int(np.argmin(phi_cand))
        idx[c], phi, D2 = cand[best], phi_cand[best], D2_cand[best]
    return idx


def _squared_distances_to_rows(X, rows, x_sq):
    """D²[l, i] = ‖x_{rows[l]} − xᵢ‖² = ‖x_r‖² − 2 x_r·xᵢ + ‖xᵢ‖², clipped at 0, shape (L, n).

    One product C Xᵀ with the L candidate rows C, reading X where it lies (X was validated by
    the fit; euclidean_distances would check it again and copy it into an augmented (n, d + 2)
    matrix at every seed)."""
    C = -2.0 * dense_rows(X[rows])  # (L, d), −2 times the rows: exact
    D2 = (X @ C.T).T if sp.issparse(X) else C @ X.T  # −2 C Xᵀ, (L, n)
    D2 += x_sq[rows][:, None]
    D2 += x_sq[None, :]
    return np.maximum(D2, 0.0, out=D2)


def _initial_centres(X, k, w, init, rng):
    """μ₀ from ``init``: "k-means++", "random" (k distinct rows drawn ∝ w), an array or callable."""
    if isinstance(init, str) and init == "k-means++":
        return dense_rows(X[kmeans_plusplus(X, k, w, rng)])
    if isinstance(init, str) and init == "random":
        return dense_rows(X[rng.choice(X.shape[0], size=k, replace=False, p=w / w.sum())])
    centres = init(X, k, rng) if callable(init) else init
    return _check_centres(centres, k, X.shape[1], "returned by the init callable")


def _check_centres(centres, k, d, what="given as init"):
    centres = check_array(centres, dtype=np.float64, copy=True, input_name="init")
    if centres.shape != (k, d):
        raise ValueError(
            f"The initial centres {what} must have shape (n_clusters, n_features) = ({k}, {d}); "
            f"got {centres.shape}."
        )
    return centres


# -- the statistics of a pass over a block of rows ---------------------------------------------
# Each is a pure function of one row block (the whole data in memory, one block per task on
# Dask, see :mod:`scratchlearn.utils._blocks`) whose results combine across blocks.
def lloyd_stat(X, w, x_sq, centres, x_mean=None, j_mode=J_EXPANDED, labels=None, n_threads=None):
    r"""The sums of one Lloyd pass over a block of rows, at the centres μ (shared by blocks).

    .. math::

        c(i) = \operatorname{argmin}_j ‖x_i − μ_j‖², \quad
        S_j = \sum_{c(i)=j} w_i x_i, \quad W_j = \sum_{c(i)=j} w_i, \quad
        J = \sum_i w_i ‖x_i − μ_{c(i)}‖²

    returned as ``{"S": (k, d), "W": (k,), "J": float}``: sums over rows, so blocks add; with
    ``labels`` given, also ``"changed"``: how many c(i) differ from what ``labels`` held.
    ``x_mean`` (d,) is subtracted from the rows as they are read (on Dask the data are centred
    block by block); ``w=None`` means unit weights; ``x_sq`` = ‖xᵢ‖² of the centred rows, for
    ``J_EXPANDED`` (summed row by row in the kernel when None); ``labels``, an optional (n_b,)
    int32 buffer, receives c(i) (kept by the in-memory fit; on Dask they stay in the block);
    ``n_threads`` for the kernel (Dask: 1, see :func:`._kmeans_kernels.lloyd_pass`). A CSR
    block is read as stored (``x_mean`` must then be None: sparse rows are not centred).
    """
    X = canonical_csr(X) if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    n, k = X.shape[0], centres.shape[0]
    w = np.ones(n) if w is None else np.ascontiguousarray(w, dtype=np.float64)
    kept = labels is not None
    labels = labels if kept else np.empty(n, np.int32)
    S, W = np.zeros_like(centres), np.zeros(k)
    changed = np.zeros(1, np.int64) if kept else None
    J = lloyd_pass(X, w, centres, labels, S, W, True, j_mode, x_sq, n_threads, x_mean, changed)
    st = {"S": S, "W": W, "J": float(J)}
    if kept:
        st["changed"] = int(changed[0])
    return st


_NO_WEIGHTS = np.empty(0)  # w of a pass that neither sums nor takes J: never read


def nearest_centre(X, centres, n_threads=None, x_shift=None):
    """c(i) = argmin_j ‖xᵢ − μ_j‖² of the rows of X (minus ``x_shift``), as int32."""
    X = canonical_csr(X) if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    n, k = X.shape[0], centres.shape[0]
    labels = np.empty(n, np.int32)
    S, W = np.empty_like(centres), np.empty(k)  # not filled (update=False)
    lloyd_pass(X, _NO_WEIGHTS, centres, labels, S, W, False, J_NONE, None, n_threads, x_shift)
    return labels


def farthest_rows(X, w, idx, centres, x_mean, m, labels=None):
    """The m rows of a block farthest from their own centre: r²ᵢ = ‖xᵢ − μ_{c(i)}‖².

    Returns ``{"m", "r2", "x", "w", "label", "idx"}`` for those rows, ordered by decreasing r²
    and, among equal r², increasing row index ``idx`` (global; None: 0..n_b−1), so that the
    choice does not depend on how the rows are cut into blocks (:func:`merge_farthest`).
    ``labels`` are the rows' clusters when known (in memory), else recomputed from μ. A CSR X
    (``x_mean`` None) gives r²ᵢ from its stored entries (:func:`_sparse_r2`) and its chosen
    rows densified.
    """
    if sp.issparse(X):
        X = canonical_csr(X)
    else:
        X = np.ascontiguousarray(X if x_mean is None else X - x_mean, dtype=np.float64)
    n = X.shape[0]
    w = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
    idx = np.arange(n) if idx is None else np.asarray(idx)
    labels = nearest_centre(X, centres, n_threads=1) if labels is None else labels  # Dask
    if sp.issparse(X):
        r2 = _sparse_r2(X, centres, labels)
        top = _top_rows({"m": m, "r2": r2, "x": np.arange(n), "w": w, "label": labels, "idx": idx})
        top["x"] = X[top["x"]].toarray()
        return top
    R = X - centres[labels]  # (n, d)
    r2 = np.einsum("ij,ij->i", R, R)
    return _top_rows({"m": m, "r2": r2, "x": X, "w": w, "label": labels, "idx": idx})


def _sparse_r2(X, centres, labels):
    """r²ᵢ = Σ_{f stored} (x_if − μ_f)² + ‖μ‖² − Σ_{f stored} μ_f², μ = μ_{c(i)}, for a CSR X:
    the kernel's direct form (:mod:`._kmeans_kernels`), O(nnz)."""
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))  # (nnz,)
    mu = centres[labels[rows], X.indices]  # (nnz,) the centre's value at each stored entry
    n = X.shape[0]
    stored = np.bincount(rows, weights=(X.data - mu) ** 2, minlength=n)
    mu_stored = np.bincount(rows, weights=mu * mu, minlength=n)
    c_sq = np.einsum("ij,ij->i", centres, centres)[labels]
    return stored + np.maximum(c_sq - mu_stored, 0.0)


def _top_rows(c):
    """The c["m"] candidates of largest r², ties to the smallest index, in that order."""
    r2, m = c["r2"], c["m"]
    if r2.size > m:
        t = np.partition(r2, r2.size - m)[r2.size - m]  # the m-th largest r²
        above = np.flatnonzero(r2 > t)
        keep = np.concatenate([above, np.flatnonzero(r2 == t)[: m - above.size]])
        keep = keep[np.lexsort((c["idx"][keep], -r2[keep]))]
    else:
        keep = np.lexsort((c["idx"], -r2))
    return {"m": m, **{key: c[key][keep] for key in ("r2", "x", "w", "label", "idx")}}


def merge_farthest(a, b):
    """Combine two blocks' :func:`farthest_rows`: the m farthest of their union."""
    both = {key: np.concatenate([a[key], b[key]]) for key in ("r2", "x", "w", "label", "idx")}
    return _top_rows({"m": a["m"], **both})


# -- the two algorithms ------------------------------------------------------------------------
def update_centres(centres, S, W, farthest):
    """μ_j = S_j / W_j, after re-seeding each empty cluster with a row far from its centre.

    ``farthest(centres, m)`` gives the m rows farthest from their own centre at the old centres
    (:func:`farthest_rows`); the row moved to an empty cluster leaves the sums of its own (its
    label is kept, as in scikit-learn). S and W are updated in place.
    """
    empty = np.flatnonzero(W == 0)
    if empty.size:
        far = farthest(centres, empty.size)
        if far["r2"].size and far["r2"][0] > 0:  # else: fewer distinct rows than clusters
            for j, x, wi, c in zip(empty, far["x"], far["w"], far["label"]):
                S[c] -= wi * x
                W[c] -= wi
                S[j], W[j] = wi * x, wi
    new = centres.copy()
    full = W > 0
    new[full] = S[full] / W[full, None]
    return new


def _m_step(X, w, centres, labels, S, W):
    """:func:`update_centres` for rows held in memory with their labels."""
    return update_centres(centres, S, W, lambda C, m: farthest_rows(X, w, None, C, None, m, labels))


class LloydRun(NamedTuple):
    """One run of Lloyd's (or Elkan's) iterations from one seeding, in centred coordinates."""

    inertia: float  # J at the final centres, in the direct form
    centres: np.ndarray  # (k, d)
    n_iter: int  # passes, counting the one that confirmed the stop
    history: list  # [J(μ⁽⁰⁾), …, J(μ⁽ⁿ⁾)]
    stop_reason: str  # "converged" or "max_iter"
    weights: np.ndarray  # W_j (k,), the weight of each cluster at the final centres
    labels: np.ndarray | None  # c(i) (n,) in memory; None on Dask (lazy, from the centres)

    def n_distinct(self) -> int:
        """Clusters that hold a row (in memory) or a positive weight (on Dask)."""
        if self.labels is not None:
            return len(np.unique(self.labels))
        return int(np.count_nonzero(self.weights))


def lloyd_iterations(sums, farthest, centres, max_iter, tol, labels=None):
    """Lloyd's iterations from ``centres``; returns a :class:`LloydRun`.

    ``sums(μ, j_mode)`` is the :func:`lloyd_stat` of the whole data at μ (one pass),
    ``farthest(μ, m)`` its :func:`farthest_rows` (a pass only when a cluster is empty). Stops
    when the centre shift Σ_j ‖μ_j⁽ᵗ⁺¹⁾ − μ_j⁽ᵗ⁾‖² ≤ tol or when the labels repeat (strict
    convergence; checked when ``labels``, the buffer ``sums`` fills, is given, by the pass's
    count of rows whose label changed, the buffer holding the previous pass's labels (−1 before
    the first): labels that repeat give bit-identical sums, hence a shift of 0, so without them
    the shift rule stops at the same pass unless a cluster was empty); ``n_iter`` counts the
    pass that confirmed it.
    """
    if labels is not None:
        labels[:] = -1  # no row "repeats" its label on the first pass
    history, converged = [], False
    for _ in range(max_iter):
        st = sums(centres, J_EXPANDED)
        history.append(st["J"])  # J(μ⁽ᵗ⁾)
        new = update_centres(centres, st["S"], st["W"], farthest)
        shift = float(((new - centres) ** 2).sum())
        centres = new
        strict = labels is not None and st["changed"] == 0
        converged = strict or shift <= tol
        if converged:
            break
    # one more E-step: the labels of the final centres (those of a strict stop do not change)
    # and J in the direct form, the reported inertia
    st = sums(centres, J_DIRECT)
    n_iter = len(history)
    history.append(st["J"])
    stop = "converged" if converged else "max_iter"
    return LloydRun(st["J"], centres, n_iter, history, stop, st["W"], labels)


def elkan(X, w, centres, max_iter, tol):
    """Elkan's (2003) k-means: Lloyd's iterations with triangle-inequality bounds.

    Each iteration is one :func:`._kmeans_kernels.elkan_pass` (the assignment the bounds leave
    open, the sums S, W of the M-step and J, in one parallel sweep over the rows), then the
    M-step μ_j = S_j / W_j (:func:`update_centres`) and the shifts pⱼ = ‖μ_j⁽ᵗ⁺¹⁾ − μ_j⁽ᵗ⁾‖
    that the next pass subtracts from the lower bounds, l_{ij} ← max(l_{ij} − pⱼ, 0).

    Same stopping rules and :class:`LloydRun` as :func:`lloyd_iterations`: the labels of each
    pass are the exact argmin at μ⁽ᵗ⁾, as Lloyd's (ties within rounding aside), so both stop
    at the same pass. ``history`` holds J(μ⁽ᵗ⁾) = Σᵢ wᵢ‖xᵢ − μ⁽ᵗ⁾_{c(i)}‖² with every term a
    direct distance (the pass computes uᵢ = ‖xᵢ − μ_{c(i)}‖ exactly for every row: one
    distance per row, the other k − 1 are the ones the bounds skip), so its entries are the
    inertia itself, where Lloyd's history uses the expanded form. The last entry is J at the
    final centres, from one more pass (the labels of the final centres, as Lloyd's).
    """
    n, d = X.shape
    k = centres.shape[0]
    labels, labels_old = np.zeros(n, np.int32), np.full(n, -1, np.int32)
    lower = np.zeros((n, k))  # l_{ij}: 0 bounds nothing, so the first pass is Elkan's start
    p = np.zeros(k)
    S, W = np.empty((k, d)), np.empty(k)
    history, strict, converged = [], False, False
    for _ in range(max_iter):
        history.append(elkan_pass(X, w, centres, p, labels, lower, S, W))  # J(μ⁽ᵗ⁾)
        new = _m_step(X, w, centres, labels, S, W)
        p = np.sqrt(((new - centres) ** 2).sum(axis=1))  # (k,)
        centres = new
        strict = np.array_equal(labels, labels_old)
        converged = strict or float((p**2).sum()) <= tol
        if converged:
            break
        labels_old[:] = labels
    # the labels and J of the final centres (those of a strict stop do not change)
    J = elkan_pass(X, w, centres, p, labels, lower, S, W)
    n_iter = len(history)
    history.append(J)
    stop = "converged" if converged else "max_iter"
    return LloydRun(J, centres, n_iter, history, stop, W, labels)


# -- the data of a fit: every pass a reduction over row blocks --------------------------------
class KMeansData:
    """The rows of one fit, seen through :func:`block_reduce`: here X in memory, one block.

    Every pass over the data is a reduction of a block statistic (:func:`lloyd_stat`,
    :func:`farthest_rows`, the column moments), so the Dask fit (:class:`._kmeans_dask.DaskData`:
    a Dask array, its row blocks) is this class with other placements and the same passes. In
    memory the rows are centred into a copy, ‖xᵢ‖² is kept for the expanded J of the history,
    and the labels of a run stay in a buffer the kernel fills (strict convergence, ``labels_``).
    """

    n_threads = None  # the kernel's threads: all of them (a Dask block: 1)
    keeps_labels = True  # each run's labels in a buffer (Dask: computed lazily after the fit)

    def __init__(self, X, w):
        self.X, self.w = X, w
        self.n, self.d = X.shape
        self.x_shift = None  # subtracted from the rows by the kernel (Dask: x̄)
        self.x_sq = None  # ‖xᵢ‖² of the centred rows (Dask: summed in the kernel)
        self.row_index = None  # global row indices, for the ties of farthest_rows (Dask)

    def centre(self, rng, k, seeding):
        """The origin of the iterations' coordinates, the variances, and the (centred) rows and
        weights the seeding draws from.

        Dense rows are centred once here (a new array: the caller's X is untouched), the origin
        being x̄; sparse rows are kept as they are (origin 0: centring would fill them in).
        ``rng``, ``k`` and ``seeding`` (False: the initial centres are given) matter on Dask.
        """
        x_mean, x_var, _ = block_reduce(weighted_mean_var, self.X, None, combine=merge_mean_var)
        if sp.issparse(self.X):
            self.X = canonical_csr(self.X)
            x_mean = np.zeros(self.d)
        else:
            self.X = self.X - x_mean
        self.x_sq = row_sq_norms(self.X)  # for the history's J (_kmeans_kernels)
        return x_mean, x_var, self.X, self.w

    def run(self, centres, max_iter, tol, algorithm):
        """One run from ``centres``: Elkan's iterations or Lloyd's (:class:`LloydRun`); Lloyd's
        on sparse X (the same assignments)."""
        if algorithm == "elkan" and not sp.issparse(self.X):
            return elkan(self.X, self.w, centres, max_iter, tol)
        return self.lloyd(centres, max_iter, tol)

    def lloyd(self, centres, max_iter, tol):
        """:func:`lloyd_iterations`, each pass one reduction over the row blocks."""
        # lloyd_iterations sets the labels to -1 before its first pass
        labels = np.empty(self.n, np.int32) if self.keeps_labels else None

        def sums(C, j_mode):
            static = (C, self.x_shift, j_mode, labels, self.n_threads)
            return block_reduce(lloyd_stat, self.X, self.w, self.x_sq, static=static)

        def farthest(C, m):  # a pass only when a cluster is empty
            static = (C, self.x_shift, m, labels)
            return block_reduce(
                farthest_rows, self.X, self.w, self.row_index, static=static, combine=merge_farthest
            )

        return lloyd_iterations(sums, farthest, centres, max_iter, tol, labels)

    def labels(self, run, x_mean):
        """``labels_`` of the kept run."""
        return run.labels


# -- the estimator -----------------------------------------------------------------------------
class _KMeansBase(ClusterMixin, TransformerMixin, BaseEstimator):
    """What KMeans and MiniBatchKMeans share: checks, seeding, predict, transform, score."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "cluster_centers_": ("float64", ("n_clusters", "n_features_in_")),
        "labels_": ("int", ("*",)),
        "inertia_": ("float64", ()),
    }

    def _check_fit_data(self, X, sample_weight):
        """(X, w, init) of an in-memory fit, checked: X dense or CSR."""
        X = self._validate_data(X, dtype=np.float64, order="C", accept_sparse="csr")
        self._check_n_samples(X.shape[0])
        w = check_sample_weight(sample_weight, X)
        return X, w, self._checked_init(X.shape[1])

    def _check_n_samples(self, n):
        if n < self.n_clusters:
            raise ValueError(
                f"n_samples={n} should be >= n_clusters={self.n_clusters}: "
                f"{type(self).__name__} cannot make more clusters than there are samples."
            )

    def _checked_init(self, d):
        """``init``: a name or a callable as given, an array checked to be (k, d) floats."""
        init = self.init
        if isinstance(init, str) or callable(init):
            return init
        return _check_centres(init, self.n_clusters, d)

    def _n_init(self, default):
        if self.n_init != "auto":
            return self.n_init
        return 1 if not (isinstance(self.init, str) and self.init == "random") else default

    def _warn_distinct(self, labels=None, n_distinct=None):
        m = len(np.unique(labels)) if n_distinct is None else n_distinct
        if m < self.n_clusters:
            warnings.warn(
                f"Number of distinct clusters ({m}) found smaller than n_clusters "
                f"({self.n_clusters}). Possibly due to duplicate points in X.",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _check_test_data(self, X, ensure_all_finite=True):
        check_is_fitted(self, "cluster_centers_")
        return self._validate_data(
            X,
            dtype=np.float64,
            order="C",
            accept_sparse="csr",
            reset=False,
            ensure_all_finite=ensure_all_finite,
        )

    def _assign(self, X, sample_weight=None, j_mode=J_DIRECT, nonfinite=None):
        """(labels, J) of the rows of X at the fitted centres (J_NONE: labels alone, and no
        weights are read); ``nonfinite`` as in :func:`lloyd_pass`."""
        w = _NO_WEIGHTS if j_mode == J_NONE else check_sample_weight(sample_weight, X)
        labels = np.empty(X.shape[0], np.int32)
        C = self.cluster_centers_
        J = lloyd_pass(
            X, w, C, labels, np.empty_like(C), np.empty(len(C)), False, j_mode, nonfinite=nonfinite
        )
        return labels, J

    @answers_dask  # its blocks need only the centres (a Dask-fitted model holds lazy labels_)
    def predict(self, X):
        """Index of the nearest centre of each row: argmin_j ‖xᵢ − μ_j‖ (lazy on Dask).

        A dense X is read once: the pass that assigns the rows also counts those whose nearest
        distance is not finite, which every row holding NaN or ±inf is when no centre has a
        zero coordinate (see :func:`._kmeans_kernels.lloyd_pass`). X is tested for finiteness,
        with validation's messages, only when that count is not 0 or a centre has a zero.
        """
        if is_dask_collection(X):
            from ._kmeans_dask import predict_dask

            return predict_dask(self, X)
        if sp.issparse(X):
            return self._assign(self._check_test_data(X), j_mode=J_NONE)[0]
        X = self._check_test_data(X, ensure_all_finite=False)
        nonfinite = np.zeros(1, np.int64)
        labels = self._assign(X, j_mode=J_NONE, nonfinite=nonfinite)[0]
        if nonfinite[0] or not self.cluster_centers_.all():
            _assert_all_finite(X, allow_nan=False, input_name="X")
        return labels

    @answers_dask
    def transform(self, X):
        """Distances ‖xᵢ − μ_j‖ of each row to each centre, shape (n, k) (lazy on Dask)."""
        if is_dask_collection(X):
            from ._kmeans_dask import transform_dask

            return transform_dask(self, X)
        return euclidean_distances(self._check_test_data(X), self.cluster_centers_)

    def fit_transform(self, X, y=None, sample_weight=None):
        """``fit(X).transform(X)``."""
        return self.fit(X, sample_weight=sample_weight).transform(X)

    def fit_predict(self, X, y=None, sample_weight=None):
        """``fit(X).labels_``."""
        return self.fit(X, sample_weight=sample_weight).labels_

    def score(self, X, y=None, sample_weight=None):
        """−J on X: minus the weighted sum of squared distances to the nearest centre."""
        if is_dask_collection(X):
            from ._kmeans_dask import score_dask

            return score_dask(self, X, sample_weight)
        return -float(self._assign(self._check_test_data(X), sample_weight)[1])

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(estimator_type="clusterer", non_deterministic=False, X_types=["2darray", "sparse"])
        return t


_INIT = [StrOptions({"k-means++", "random"}), "callable", "array-like"]


class KMeans(_KMeansBase):
    r"""k-means clustering by Lloyd's or Elkan's algorithm.

    Minimises :math:`J = \sum_i w_i ‖x_i − μ_{c(i)}‖²` by alternating the assignment
    c(i) = argmin_j ‖xᵢ − μ_j‖² and the update μ_j = weighted mean of cluster j (see the
    module docstring). Conventions follow scikit-learn so numbers compare: the data are centred
    before the iterations (for the precision of ‖x‖² − 2x·μ + ‖μ‖²) and the centres shifted
    back; ``tol`` is relative, the absolute tolerance on the centre shift Σⱼ‖Δμⱼ‖² being
    ``tol`` × the mean per-feature variance of X; identical consecutive labels stop at once;
    ``n_iter_`` counts the pass that confirmed the stop; after a stop on ``tol`` or
    ``max_iter`` one more assignment makes ``labels_`` and ``inertia_`` describe
    ``cluster_centers_``. Of ``n_init`` runs, the one of least J is kept.

    X may be dense or CSR (SciPy sparse; other sparse formats are converted). Sparse rows are
    not centred and are read by their stored entries (see the module docstring): the dense fit
    of the same data up to rounding, as scikit-learn's sparse KMeans; ``algorithm="elkan"``
    then runs Lloyd's iterations. ``predict``, ``transform`` and ``score`` take CSR too.

    Parameters
    ----------
    n_clusters : int, default=8
    init : {"k-means++", "random"}, array of shape (k, d) or callable, default="k-means++"
        Greedy k-means++ (2 + ⌊ln k⌋ candidates per seed, kept by least potential), k distinct
        rows drawn ∝ w, given centres, or ``init(X, k, rng) -> (k, d)``.
    n_init : "auto" or int, default="auto"
        Runs from different seeds; "auto" is 1 for k-means++ or an array, 10 for "random".
    max_iter : int, default=300
    tol : float, default=1e-4
    verbose : int, default=0
        Accepted for scikit-learn's signature; models never print (read ``history_``).
    random_state : None, int or numpy Generator
    copy_x : bool, default=True
        Accepted for scikit-learn's signature: the caller's X is never modified either way.
    algorithm : {"lloyd", "elkan"}, default="lloyd"

    Attributes
    ----------
    cluster_centers_ (k, d), labels_ (n,), inertia_ (J), n_iter_, history_ ({"objective":
    [J(μ⁽⁰⁾), …, J(μ⁽ⁿ⁾)]} of the kept run), stop_reason_ ("converged" or "max_iter"),
    n_features_in_.

    Dask
    ----
    A Dask array or DataFrame X (sample weights NumPy or Dask) is fitted block by block where
    it lives, by the same statistics: one pass for the column moments and a uniform sample of
    max(10 000, 100k) rows drawn by row index from ``random_state`` (so the seeding does not
    depend on the chunking, and is the in-memory one when n is smaller), on which
    ``init`` runs in memory; then one pass per Lloyd iteration, each block returning its
    cluster sums S (k, d), weights W (k,) and J, which add: (k·d + k + 1)·8 bytes per block,
    and the centres sent back. A cluster left empty costs one more pass (≤ k rows per block).
    ``algorithm="elkan"`` runs Lloyd's iterations (same assignments; Elkan's bounds are n×k
    state). ``labels_``, ``predict`` and ``transform`` are lazy Dask arrays; the rest is NumPy.
    Persist X first (``X.persist()``) if it fits in the cluster's memory: every pass reads it.
    A Dask array of CSR blocks (``da.from_array(X_csr, chunks=(r, d), asarray=False)``) is
    fitted the same way, block by block as stored (not centred), and seeded on a CSR sample.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.cluster import KMeans
    >>> from scratchlearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> km = KMeans(n_clusters=3, random_state=0).fit(X)
    >>> print(km.cluster_centers_.shape, km.labels_.shape, km.stop_reason_)
    (3, 4) (150,) converged
    >>> print(round(km.inertia_, 1))
    78.9
    """

    _parameter_constraints = {
        "n_clusters": [Interval(numbers.Integral, 1, None, closed="left")],
        "init": _INIT,
        "n_init": [StrOptions({"auto"}), Interval(numbers.Integral, 1, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
        "random_state": ["random_state"],
        "copy_x": ["boolean"],
        "algorithm": [StrOptions({"lloyd", "elkan"})],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        n_init="auto",
        max_iter=300,
        tol=1e-4,
        verbose=0,
        random_state=None,
        copy_x=True,
        algorithm="lloyd",
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.copy_x = copy_x
        self.algorithm = algorithm

    def fit(self, X, y=None, sample_weight=None):
        """Run ``n_init`` times from the seeding and keep the partition of least J.

        X in memory is one block of :class:`KMeansData`; a Dask X is its row blocks
        (:class:`._kmeans_dask.DaskData`): the same steps, each pass a reduction over blocks.
        """
        self._validate_params()
        if is_dask_collection(X):
            from ._kmeans_dask import DaskData

            data = DaskData(self, X, sample_weight)
            init = self._checked_init(data.d)
        else:
            X, w, init = self._check_fit_data(X, sample_weight)
            data = KMeansData(X, w)
        k, rng = self.n_clusters, check_random_state(self.random_state)
        given = not (isinstance(init, str) or callable(init))
        origin, x_var, Xs, ws = data.centre(rng, k, seeding=not given)  # x̄ (dense) or 0 (CSR)
        tol = float(np.mean(x_var)) * self.tol  # relative to the mean per-feature variance
        if given:
            init = init - origin
        best = None
        for _ in range(self._n_init(default=10)):
            centres = init.copy() if given else _initial_centres(Xs, k, ws, init, rng)
            run = data.run(centres, self.max_iter, tol, self.algorithm)
            if best is None or run.inertia < best.inertia:
                best = run
        self._warn_distinct(n_distinct=best.n_distinct())
        self.cluster_centers_ = best.centres + origin
        self.labels_ = data.labels(best, origin)
        self.inertia_ = float(best.inertia)
        criterion = f"Σ‖Δμ‖² <= {tol:.3g}"
        self._record_fit(
            best.n_iter, {"objective": best.history}, best.stop_reason, criterion=criterion
        )
        return self

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t["dask"] = True
        return t
