r"""Mini-batch k-means (Sculley, 2010): k-means on random batches, for data too large to sweep.

Each step draws a batch B of ``batch_size`` rows (∝ w, with replacement), assigns them to their
nearest centres and moves each centre towards the mean of its batch rows with a per-centre
learning rate: with Wⱼ the weight centre j has absorbed so far and
B_j = {i ∈ B : c(i) = j},

.. math:: μ_j ← \frac{W_j μ_j + \sum_{i∈B_j} w_i x_i}{W_j + \sum_{i∈B_j} w_i},
          \qquad W_j ← W_j + \sum_{i∈B_j} w_i

so μ_j is the running mean of every row it has ever been given. Fitting stops when an
exponentially weighted average (EWA) of the per-row batch inertia has not improved for
``max_no_improvement`` steps, when the squared centre shift falls to ``tol`` (relative to the
data's mean variance, as in :class:`KMeans`; 0 disables it), or after ``max_iter`` passes.
Centres whose weight falls below ``reassignment_ratio`` × the largest are moved to random
rows of the batch every 10·k rows seen (an empty centre always).

The fit sees its data only through a few operations (:class:`MemoryRows`): the column
variances (for ``tol``), the rows of given indices (the seeding sample, each batch), and the
final labels and inertia. A Dask X is the same fit with those operations done on its blocks
(:class:`._kmeans_dask.DaskRows`): every batch's indices are drawn on the client from the same
generator as in memory, from the whole array, and its rows gathered from the blocks that hold
them; the steps themselves run in memory on the batch, the same arithmetic on the same rows.
X may be dense or CSR (in memory or as Dask blocks of CSR); centres are dense.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..preprocessing._data import merge_mean_var, weighted_mean_var
from ..utils._blocks import block_reduce, is_dask_collection
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import check_random_state, check_sample_weight
from ._kmeans import _INIT, _initial_centres, _KMeansBase, dense_rows
from ._kmeans_kernels import lloyd_pass

__all__ = ["MiniBatchKMeans"]


def minibatch_step(X, w, centres, counts, rng, reassign, ratio):
    """One step on the batch (X, w): update ``centres`` and ``counts`` in place; return J_B."""
    k = centres.shape[0]
    labels = np.empty(X.shape[0], np.int32)
    S, W = np.empty_like(centres), np.empty(k)
    J = lloyd_pass(X, w, centres, labels, S, W, True)
    hit = W > 0
    centres[hit] = (counts[hit, None] * centres[hit] + S[hit]) / (counts[hit] + W[hit])[:, None]
    counts += W
    if reassign and ratio > 0:
        low = counts < ratio * counts.max()
        if low.sum() > 0.5 * X.shape[0]:  # move at most half a batch of centres
            low[np.argsort(counts)[int(0.5 * X.shape[0]) :]] = False
        if low.any():
            centres[low] = dense_rows(X[rng.choice(X.shape[0], size=int(low.sum()), replace=False)])
            counts[low] = np.min(counts[~low])  # not too small, or they would move again at once
    return J


class MemoryRows:
    """The rows of an in-memory fit (X dense or CSR, w): what the fit asks of its data.

    :class:`._kmeans_dask.DaskRows` answers the same questions for a Dask X; ``w`` is in
    memory in both (the batches are drawn ∝ w on the caller's side).
    """

    def __init__(self, est, X, sample_weight):
        self.X, self.w, _ = est._check_fit_data(X, sample_weight)
        self.n, self.d = self.X.shape

    def variances(self):
        """σ²_f of each column (unweighted), for ``tol``."""
        return block_reduce(weighted_mean_var, self.X, None, combine=merge_mean_var)[1]

    def take(self, rows):
        """X[rows], for the global row indices ``rows`` (any order, repeats)."""
        return self.X[rows]

    def batches(self, batch, draw):
        """The source of the batches: ``take_batch(rows, rng)``."""
        return self

    def take_batch(self, rows, rng):
        return self.X[rows]

    def final(self, est, centres):
        """(labels, J at ``centres``, number of non-empty clusters) over all of X."""
        labels, J = est._assign(self.X, self.w)
        return labels, J, len(np.unique(labels))


class MiniBatchKMeans(_KMeansBase):
    r"""k-means fitted on mini-batches, with ``partial_fit`` for streams.

    Approximately minimises :math:`J = \sum_i w_i ‖x_i − μ_{c(i)}‖²` by the per-centre
    running-mean updates of the module docstring. ``n_iter_`` counts passes over the data
    (⌈steps · batch_size / n⌉), ``n_steps_`` the batches; ``history_["objective"]`` holds the
    mean batch inertia ``J_B / |B|`` of every step (noisy, not monotone: it is an estimate on a
    fresh batch each time); ``stop_reason_`` is "cost_change" (the EWA inertia stopped
    improving), "converged" (centre shift ≤ tol) or "max_iter". With ``compute_labels`` the
    final ``labels_`` and ``inertia_`` are computed on the whole X.

    Parameters
    ----------
    n_clusters : int, default=8
    init : {"k-means++", "random"}, array (k, d) or callable, default="k-means++"
        Seeding is done on ``init_size`` random rows (default 3·batch_size, at least 3k).
    max_iter : int, default=100 (passes over the data)
    batch_size : int, default=1024
    verbose : int, default=0 (accepted for scikit-learn's signature; models never print)
    compute_labels : bool, default=True
    random_state : None, int or numpy Generator
    tol : float, default=0.0
    max_no_improvement : int or None, default=10
    init_size : int or None
    n_init : "auto" or int, default="auto" (1 for k-means++ or an array, 3 for "random"); the
        seeding of least inertia on the ``init_size`` validation rows is kept
    reassignment_ratio : float, default=0.01

    X may be dense or CSR (SciPy sparse): the steps read a sparse batch's stored entries only
    (see :mod:`._kmeans`); the same batches give the dense fit's centres up to rounding.

    Dask
    ----
    A Dask array or DataFrame X (dense or with CSR blocks; sample weights NumPy or Dask) is
    fitted from its blocks without being gathered: one pass for the column variances (``tol``),
    then, for the seeding and every step, the rows of indices drawn on the client from the
    same generator as in memory and over the whole array (the n draw probabilities ∝ w are on
    the client: 8 bytes a row), gathered from the blocks that hold them (several steps' batches
    per computation, see :class:`._kmeans_dask.BatchRows`). The steps then run in memory on
    the same rows as the in-memory fit, so the same ``random_state`` gives the same batches and
    exactly the same centres, ``n_steps_``, ``history_`` and ``stop_reason_`` (``tol`` > 0:
    the variances are summed in another order, so a shift within rounding of ``tol`` could
    stop one step apart). With ``compute_labels``, one last pass gives ``inertia_`` (summed by
    blocks: within nε·J of the in-memory value) and ``labels_``, a lazy Dask array.
    ``partial_fit`` takes in-memory batches. Persist X (``X.persist()``) when it fits in the
    cluster's memory: a step reads a few blocks.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.cluster import MiniBatchKMeans
    >>> from scratchlearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> mbk = MiniBatchKMeans(n_clusters=3, batch_size=30, random_state=0).fit(X)
    >>> print(mbk.cluster_centers_.shape, mbk.labels_.shape)
    (3, 4) (150,)
    >>> print(round(mbk.inertia_))
    81
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "_counts": ("float64", ("n_clusters",)),
        "n_steps_": ("int", ()),
        "_n_since_reassign": ("int", ()),
    }

    _parameter_constraints = {
        "n_clusters": [Interval(numbers.Integral, 1, None, closed="left")],
        "init": _INIT,
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
        "compute_labels": ["boolean"],
        "random_state": ["random_state"],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "max_no_improvement": [Interval(numbers.Integral, 0, None, closed="left"), None],
        "init_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "n_init": [StrOptions({"auto"}), Interval(numbers.Integral, 1, None, closed="left")],
        "reassignment_ratio": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        max_iter=100,
        batch_size=1024,
        verbose=0,
        compute_labels=True,
        random_state=None,
        tol=0.0,
        max_no_improvement=10,
        init_size=None,
        n_init="auto",
        reassignment_ratio=0.01,
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.verbose = verbose
        self.compute_labels = compute_labels
        self.random_state = random_state
        self.tol = tol
        self.max_no_improvement = max_no_improvement
        self.init_size = init_size
        self.n_init = n_init
        self.reassignment_ratio = reassignment_ratio

    def _sizes(self, n):
        batch = min(self.batch_size, n)
        init_size = self.init_size if self.init_size is not None else 3 * batch
        return batch, min(max(init_size, 3 * self.n_clusters), n)

    def _seed(self, data, init, rng, init_size):
        """The best of ``n_init`` seedings, each on ``init_size`` random rows, judged by the
        inertia on one shared set of ``init_size`` validation rows (rows taken by index from
        ``data``, :class:`MemoryRows` or :class:`._kmeans_dask.DaskRows`)."""
        w = data.w
        valid = rng.integers(0, data.n, init_size)
        X_valid = data.take(valid)
        best, best_J = None, np.inf
        for _ in range(self._n_init(default=3)):
            rows = rng.integers(0, data.n, init_size)
            centres = _initial_centres(data.take(rows), self.n_clusters, w[rows], init, rng)
            labels = np.empty(init_size, np.int32)
            J = lloyd_pass(
                X_valid, w[valid], centres, labels, centres.copy(), np.empty(len(centres)), False
            )
            if J < best_J:
                best, best_J = centres, J
        return best

    def _reassign_due(self, batch):
        self._n_since_reassign += batch
        if (self._counts == 0).any() or self._n_since_reassign >= 10 * self.n_clusters:
            self._n_since_reassign = 0
            return True
        return False

    def fit(self, X, y=None, sample_weight=None):
        """Run mini-batch steps until the EWA inertia stalls, the centres settle or max_iter.

        X in memory is read through :class:`MemoryRows`, a Dask X through
        :class:`._kmeans_dask.DaskRows`: the same steps on the same batches.
        """
        self._validate_params()
        if is_dask_collection(X):
            from ._kmeans_dask import DaskRows

            data = DaskRows(self, X, sample_weight)
        else:
            data = MemoryRows(self, X, sample_weight)
        init = self._checked_init(data.d)
        rng = self._rng = check_random_state(self.random_state)  # partial_fit continues it
        n, w = data.n, data.w
        batch, init_size = self._sizes(n)
        tol = float(np.mean(data.variances())) * self.tol
        centres = self._seed(data, init, rng, init_size)
        self._counts, self._n_since_reassign = np.zeros(self.n_clusters), 0
        n_steps = (self.max_iter * n) // batch
        ewa, ewa_min, no_improvement, history, stop = None, np.inf, 0, [], "max_iter"
        alpha = min(1.0, 2.0 * batch / (n + 1))  # EWA weight of one batch
        unit = np.ones(batch)
        # A batch: B row indices ∝ w, with replacement, over the whole X, by inverse-CDF
        # sampling: rows = searchsorted(F, u, right) for u ~ U[0, 1)^B, F the cumulative sum of
        # p = w / Σw (the arithmetic of Generator.choice(n, B, p=p), so the same draws). F is
        # made once: choice(p=p) rebuilds and re-checks it at every call, O(n) per step (1 ms
        # of a 1.5 ms step on 100,000 rows) where the search is O(B log n).
        F = (w / w.sum()).cumsum()
        F /= F[-1]

        def draw(g):
            return F.searchsorted(g.random(batch), side="right")

        source = data.batches(batch, draw)
        for step in range(n_steps):
            rows = draw(rng)
            old = centres.copy()
            J_B = minibatch_step(
                source.take_batch(rows, rng), unit, centres, self._counts, rng,
                self._reassign_due(batch), self.reassignment_ratio,
            )  # fmt: skip
            history.append(J_B / batch)
            if step == 0:  # its inertia measures the seeding, not the steps
                continue
            ewa = history[-1] if ewa is None else (1 - alpha) * ewa + alpha * history[-1]
            if tol > 0 and ((centres - old) ** 2).sum() <= tol:
                stop = "converged"
                break
            no_improvement = 0 if ewa < ewa_min else no_improvement + 1
            ewa_min = min(ewa, ewa_min)
            if self.max_no_improvement is not None and no_improvement >= self.max_no_improvement:
                stop = "cost_change"
                break
        self.cluster_centers_ = centres
        self.n_steps_ = len(history)
        self._finish(data, ewa, stop, history)
        return self

    def _finish(self, data, ewa, stop, history):
        if self.compute_labels:
            self.labels_, J, n_distinct = data.final(self, self.cluster_centers_)
            self.inertia_ = float(J)
            self._warn_distinct(n_distinct=n_distinct)
        else:
            self.inertia_ = float(ewa * data.w.sum()) if ewa is not None else np.nan
        n_iter = int(np.ceil(self.n_steps_ * self._sizes(data.n)[0] / data.n))
        self._record_fit(
            n_iter,
            {"objective": history},
            stop,
            criterion="EWA batch inertia improving, or centre shift <= tol",
        )

    def partial_fit(self, X, y=None, sample_weight=None):
        """One mini-batch step on X (seeding the centres from X on the first call)."""
        first = not hasattr(self, "cluster_centers_")
        if first:
            self._validate_params()
            X, w, init = self._check_fit_data(X, sample_weight)
            self._rng = check_random_state(self.random_state)
            centres = _initial_centres(X, self.n_clusters, w, init, self._rng)
            self.cluster_centers_ = centres
            self._counts, self._n_since_reassign, self.n_steps_ = np.zeros(len(centres)), 0, 0
        else:
            X = self._check_test_data(X)
            w = check_sample_weight(sample_weight, X)
        minibatch_step(
            X, w, self.cluster_centers_, self._counts, self._rng,
            self._reassign_due(X.shape[0]), self.reassignment_ratio,
        )  # fmt: skip
        self.n_steps_ += 1
        if self.compute_labels:
            self.labels_, J = self._assign(X, w)
            self.inertia_ = float(J)
        return self

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t["dask"] = True
        return t
