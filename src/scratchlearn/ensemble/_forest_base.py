"""The machinery shared by random forests and extra trees: bootstrap, seeds, threads, OOB.

Symbols: n rows, d features, T trees, w_i the user's sample weights. Tree t is a CART tree
(:mod:`scratchlearn.tree`) grown on the weights

.. math::  w_{ti} = w_i \\, c_{ti}, \\qquad c_t \\sim \\mathrm{Multinomial}(n_b; 1/n, …, 1/n),

the bootstrap counts of n_b draws with replacement (``max_samples``; n_b = n by default), or
c_ti = 1 without bootstrap. A count is an integer weight: a row drawn twice weighs twice, and no
copy of X is ever made. The rows of tree t with c_ti = 0 are its out-of-bag (OOB) rows O_t.

Averages: the forest predicts ``(1/T) Σ_t f_t(x)`` (class probabilities, or values); the OOB
prediction of row i averages only the trees that did not see it,
``(1/|T_i|) Σ_{t ∈ T_i} f_t(x_i)`` with ``T_i = {t : c_ti = 0}``.

Randomness, fixed before any thread starts: ``check_random_state(random_state)`` gives one
generator, from which :func:`~scratchlearn.utils.parallel.spawn_seeds` draws one seed s_t per
tree. Tree t splits with ``random_state=s_t`` and draws its bootstrap from the generator of
``SeedSequence([s_t, 1])`` (:func:`bootstrap_counts`), so ``n_jobs`` never changes a result, the
OOB rows can be recomputed from ``estimators_[t].random_state``, and ``warm_start`` continues
the same seed stream (T₁ trees then T₂ more equal T₁ + T₂ at once).

Sorting: X is sorted by every feature once per forest; tree t keeps the columns of that order
whose rows have w_ti > 0 (an O(d·n) filter that gives exactly the tree's own presort). Extra
trees sort nothing: their order is the one row 0..n−1 (:func:`~..tree._splitter.row_order`),
filtered the same way.
"""

from __future__ import annotations

import numbers
import sys
import warnings

import numba
import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator
from ..tree._classes import _BaseDecisionTree, _Fraction
from ..tree._splitter import presort, row_order
from ..utils._param_validation import Interval
from ..utils.parallel import run_tasks, spawn_seeds
from ..utils.validation import check_is_fitted, check_random_state, check_sample_weight

__all__ = ["BaseForest", "bootstrap_counts"]

#: The hyperparameters a forest hands to each of its trees as they are.
TREE_PARAMS = (
    "criterion",
    "max_depth",
    "min_samples_split",
    "min_samples_leaf",
    "min_weight_fraction_leaf",
    "max_features",
    "max_leaf_nodes",
    "min_impurity_decrease",
    "ccp_alpha",
)


def bootstrap_counts(seed, n: int, n_b: int) -> np.ndarray:
    """c (n,) int: how often each of n rows is drawn in n_b uniform draws with replacement,
    from the generator of ``SeedSequence([seed, 1])`` (tree ``seed`` splits with its own)."""
    rng = np.random.default_rng([int(seed), 1])
    return np.bincount(rng.integers(0, n, size=n_b), minlength=n)


@numba.njit(cache=True, nogil=True)
def _kept_order(order, keep):
    """The entries of each row of ``order`` (d, n) whose rows are kept, in the same order:
    (d, m), m = Σ keep. A new array (the builder partitions its order in place); compiled and
    without the GIL, as it runs once per tree on the forest's threads."""
    d, n = order.shape
    m = 0
    for i in range(keep.shape[0]):
        m += keep[i]
    out = np.empty((d, m), dtype=order.dtype)
    for j in range(d):
        k = 0
        for p in range(n):
            if keep[order[j, p]]:
                out[j, k] = order[j, p]
                k += 1
    return out


class BaseForest(BaseEstimator):
    """Fit, threads, OOB and the fitted-forest accessors; subclasses give the targets' hooks.

    Subclass hooks: ``_tree_class``, ``_splitter`` ("best" or "random"), ``_targets(y)`` →
    (codes, values, K, criterion id, per-row class weights or None), ``_tree_weights(w, c,
    codes)`` (balanced_subsample), ``_tree_output(tree, X)`` and ``_set_oob(y, sums, seen)``.
    """

    _parameter_constraints = {
        **{k: v for k, v in _BaseDecisionTree._parameter_constraints.items() if k != "splitter"},
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "bootstrap": ["boolean"],
        "oob_score": ["boolean"],
        "n_jobs": [None, numbers.Integral],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
        "warm_start": ["boolean"],
        "max_samples": [None, Interval(numbers.Integral, 1, None, closed="left"), _Fraction()],
    }

    # -- fit ----------------------------------------------------------------------------------
    def _check_forest_params(self, n: int) -> int:
        """Errors that need n, raised before any tree is grown; returns n_b."""
        name = type(self).__name__
        if self.oob_score and not self.bootstrap:
            raise ValueError(
                f"{name}: oob_score=True needs bootstrap=True (without bootstrap no row is "
                "out of bag)."
            )
        if self.max_samples is not None and not self.bootstrap:
            raise ValueError(
                f"{name}: max_samples={self.max_samples!r} needs bootstrap=True; with "
                "bootstrap=False every tree sees all rows (set max_samples=None)."
            )
        fitted = len(getattr(self, "estimators_", ())) if self.warm_start else 0
        if self.n_estimators < fitted:
            raise ValueError(
                f"{name}: n_estimators={self.n_estimators} is smaller than the "
                f"{fitted} trees already fitted; warm_start can only add trees."
            )
        if self.max_samples is None:
            return n
        if isinstance(self.max_samples, (float, np.floating)):
            return max(int(round(self.max_samples * n)), 1)
        if self.max_samples > n:
            raise ValueError(
                f"{name}: max_samples={self.max_samples} is larger than the {n} rows of X."
            )
        return int(self.max_samples)

    def fit(self, X, y, sample_weight=None):
        """Grow ``n_estimators`` trees (or the missing ones under ``warm_start``); returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=not self._is_clf)
        X = np.ascontiguousarray(X)
        n = X.shape[0]
        n_b = self._check_forest_params(n)
        sw = check_sample_weight(sample_weight, X)
        codes, values, K, crit, class_w = self._targets(y)
        if class_w is not None:
            sw *= class_w
        rng = check_random_state(self.random_state)
        if not self.warm_start or not hasattr(self, "estimators_"):
            self.estimators_ = []
        T0 = len(self.estimators_)
        if T0 == self.n_estimators:
            warnings.warn(
                "warm_start with n_estimators equal to the trees already fitted: no new tree.",
                UserWarning,
                stacklevel=2,
            )
        spawn_seeds(rng, T0)  # the seeds of the trees already there: the stream goes on
        seeds = spawn_seeds(rng, self.n_estimators - T0)
        order = None  # (d, n) sorted by each feature once per forest, or (1, n) for extra trees
        if len(seeds):
            rows = np.arange(n)
            order = presort(X, rows) if self._splitter == "best" else row_order(rows)
        Xt = np.ascontiguousarray(X.T)  # the builder reads features as rows: once per forest

        def grow(seed):
            c = bootstrap_counts(seed, n, n_b) if self.bootstrap else None
            w = sw if c is None else self._tree_weights(sw * c, c, codes)
            tree = self._make_tree(seed)
            tree._grow(X, codes, values, w, crit, K, order=_kept_order(order, w != 0.0), Xt=Xt)
            return tree

        self.estimators_ += self._run(grow, [(int(s),) for s in seeds], "trees")
        if self.oob_score:
            self._fit_oob(X, y, n_b)
        return self

    def _make_tree(self, seed: int):
        tree = self._tree_class(
            **{p: getattr(self, p) for p in TREE_PARAMS},
            splitter=self._splitter,
            random_state=seed,
        )
        tree.n_features_in_ = self.n_features_in_
        if self._is_clf:
            tree.classes_, tree.n_classes_ = self.classes_, self.n_classes_
        return tree

    def _run(self, func, tasks, unit: str):
        """``run_tasks`` with a tqdm bar on stderr when ``verbose``."""
        bar = None
        if self.verbose and tasks:
            from tqdm import tqdm

            bar = tqdm(total=len(tasks), file=sys.stderr, desc=type(self).__name__, unit=unit)
        try:
            return run_tasks(func, tasks, self.n_jobs, progress=bar)
        finally:
            if bar is not None:
                bar.close()

    # -- out of bag ---------------------------------------------------------------------------
    def _fit_oob(self, X, y, n_b: int):
        """Σ_{t ∈ T_i} f_t(x_i) and |T_i| for every row, then the subclass's OOB attributes."""
        n = X.shape[0]

        def oob_rows(tree):
            rows = np.flatnonzero(bootstrap_counts(tree.random_state, n, n_b) == 0)
            return rows, self._tree_output(tree, X[rows])

        sums, seen = None, np.zeros(n, dtype=np.intp)
        for rows, out in run_tasks(oob_rows, [(t,) for t in self.estimators_], self.n_jobs):
            if sums is None:
                sums = np.zeros((n,) + out.shape[1:])
            sums[rows] += out  # rows are distinct: no lost updates
            seen[rows] += 1
        if np.any(seen == 0):
            warnings.warn(
                f"{int(np.sum(seen == 0))} of {n} rows were drawn by every tree and have no OOB "
                "prediction (NaN); the OOB score uses the other rows. More trees help.",
                UserWarning,
                stacklevel=3,
            )
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = sums / (seen if sums.ndim == 1 else seen[:, None])
        self._set_oob(y, mean, seen > 0)

    # -- the fitted forest --------------------------------------------------------------------
    def _check_X(self, X):
        check_is_fitted(self)
        return np.ascontiguousarray(self._validate_data(X, reset=False, dtype=np.float64))

    def _leaves(self, X):
        """(n, T) leaf index of every row in every tree (trees walked on ``n_jobs`` threads)."""
        tasks = [(t.tree_,) for t in self.estimators_]
        cols = run_tasks(lambda tree: tree.apply(X), tasks, self.n_jobs)
        return np.stack(cols, axis=1)

    def _mean_value(self, X):
        """(1/T) Σ_t value_t[leaf_t(x)]: (n, K), summed in tree order whatever ``n_jobs``."""
        leaves = self._leaves(X)
        out = np.zeros((X.shape[0], self.estimators_[0].tree_.value.shape[2]))
        for t, tree in enumerate(self.estimators_):
            out += tree.tree_.value[leaves[:, t], 0, :]
        return out / len(self.estimators_)

    def apply(self, X):
        """(n, n_estimators) index of the leaf each row reaches in each tree."""
        return self._leaves(self._check_X(X))

    def decision_path(self, X):
        """(indicator, n_nodes_ptr): a CSR (n, Σ node counts) of the nodes each row passes
        through, the trees side by side; tree t owns columns ``n_nodes_ptr[t]:n_nodes_ptr[t+1]``."""
        X = self._check_X(X)
        paths = [t.tree_.decision_path(X) for t in self.estimators_]
        ptr = np.concatenate([[0], np.cumsum([p.shape[1] for p in paths])])
        return sp.hstack(paths, format="csr"), ptr

    @property
    def feature_importances_(self):
        """Mean over the trees with more than one node of their normalised importances,
        renormalised to sum to one (all zeros when no split decreased the impurity)."""
        check_is_fitted(self)
        imps = [t.feature_importances_ for t in self.estimators_ if t.tree_.node_count > 1]
        mean = np.mean(imps, axis=0) if imps else np.zeros(self.n_features_in_)
        total = mean.sum()
        return mean / total if total > 0.0 else mean
