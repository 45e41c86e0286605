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

Tasks: growing tree t is the module-level :func:`grow_tree` of its seed s_t, a
:class:`TreeRecipe` (the tree's hyperparameters, n_b, the class bookkeeping), the forest's
data (:func:`forest_data`: X, Xᵀ and the sort below) and its targets (codes, values, weights).
The same function runs on this process's threads (``n_jobs``) or, for Dask input with a
``dask.distributed`` client, on the cluster's workers (:mod:`._forest_dask`); the OOB sums are
:func:`oob_sums` in both cases, averaged by :func:`~._base.oob_mean` as bagging's are.

Sorting: X is sorted by every feature once per forest; tree t keeps the columns of that order
whose rows have w_ti > 0 (an O(d·n) filter that gives exactly the tree's own presort). Extra
trees sort nothing: their order is the one row 0..n−1 (:func:`~..tree._splitter.row_order`),
filtered the same way.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator
from ..tree._classes import _BaseDecisionTree
from ..tree._splitter import presort, row_order
from ..utils._dask import is_dask_collection
from ..utils._param_validation import N_JOBS, Fraction, Interval
from ..utils.parallel import progress_bar, run_tasks, spawn_seeds
from ..utils.validation import check_is_fitted, check_random_state, check_sample_weight
from ._base import accumulate_oob, as_count, check_grows, check_oob_needs_bootstrap, oob_mean

__all__ = [
    "BaseForest",
    "ForestData",
    "TreeRecipe",
    "bootstrap_counts",
    "forest_data",
    "grow_tree",
    "oob_sums",
]

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


def subsample_class_weights(c, codes, K: int) -> np.ndarray:
    """cw (K,): ``n_b / (K_b · n_bk)`` for each class k drawn in the bootstrap counts c (n_bk
    its draws, K_b the classes drawn at all), 0 for a class not drawn ("balanced_subsample")."""
    n_bk = np.bincount(codes, weights=c, minlength=K)  # (K,)
    drawn = n_bk > 0
    cw = np.zeros(K)
    cw[drawn] = c.sum() / (drawn.sum() * n_bk[drawn])
    return cw


@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _kept_order(order, keep, out):
    """Write in ``out`` (d, m), m = Σ keep, the entries of each row of ``order`` (d, n) whose
    rows are kept, in the same order. Compiled and without the GIL, as it runs once per tree on
    the forest's threads; ``out`` is allocated by :func:`kept_order`, so that no NumPy allocator
    is compiled into the kernel."""
    d, n = order.shape
    for j in range(d):
        k = 0
        for p in range(n):
            if keep[order[j, p]]:
                out[j, k] = order[j, p]
                k += 1


def kept_order(order, keep):
    """The entries of each row of ``order`` (d, n) whose rows are kept (``keep`` (n,) bool), in
    the same order: a new (d, m) array, m = Σ keep (the builder partitions its order in place)."""
    out = np.empty((order.shape[0], int(np.count_nonzero(keep))), dtype=order.dtype)
    _kept_order(order, keep, out)
    return out


class ForestData(NamedTuple):
    """What every tree reads and none modifies: X (n, d) C-contiguous float64, Xt = Xᵀ (d, n)
    C-contiguous (the builder reads features as rows), and ``order``: (d, n) int32 rows sorted
    by each feature, (1, n) rows 0..n−1 for extra trees, or None when no tree is to be grown.
    20·n·d bytes for a random forest, 16·n·d for extra trees."""

    X: np.ndarray
    Xt: np.ndarray
    order: np.ndarray | None


def forest_data(X, splitter: str | None) -> ForestData:
    """The transpose and the sort, once per forest (``splitter`` None: no order, no tree)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    rows = np.arange(X.shape[0])
    order = None
    if splitter == "best":
        order = presort(X, rows)
    elif splitter == "random":
        order = row_order(rows)
    return ForestData(X, np.ascontiguousarray(X.T), order)


@dataclass(frozen=True)
class TreeRecipe:
    """Everything but the data and the seed that tree t needs (a few hundred bytes pickled).

    ``n_b`` None means no bootstrap; ``rebalance`` applies :func:`subsample_class_weights` to
    each tree's draws; ``classes`` is None for a regressor."""

    tree_class: type
    params: dict
    n_features_in: int
    classes: np.ndarray | None
    n_b: int | None
    rebalance: bool

    def make(self, seed: int):
        tree = self.tree_class(**self.params, random_state=seed)
        tree.n_features_in_ = self.n_features_in
        if self.classes is not None:
            tree.classes_, tree.n_classes_ = self.classes, self.classes.shape[0]
        return tree


def grow_tree(seed: int, recipe: TreeRecipe, data: ForestData, targets: tuple):
    """Tree t of the forest, grown on the weights ``w_ti = w_i c_ti`` (module-level: it is
    pickled to the workers of a cluster). ``targets`` = (codes, values, w, criterion id, K).

    A pure function of its arguments: the same seed gives the same tree on any thread,
    process or machine."""
    X, Xt, order = data
    codes, values, sw, crit, K = targets
    w = sw
    if recipe.n_b is not None:
        c = bootstrap_counts(seed, X.shape[0], recipe.n_b)
        w = sw * c
        if recipe.rebalance:
            w = w * subsample_class_weights(c, codes, K)[codes]
    tree = recipe.make(seed)
    tree._grow_tree(X, codes, values, w, crit, K, order=kept_order(order, w != 0.0), Xt=Xt)
    return tree


def oob_sums(trees, X, n_b: int, n_jobs=None):
    """(sums (n, K), seen (n,)): Σ_{t ∈ T_i} p_t(x_i) (leaf values) and |T_i| for every row,
    summed in tree order whatever ``n_jobs`` (so the sums are the same bit for bit wherever
    they are computed). The OOB rows of tree t are recomputed from its seed."""
    n = X.shape[0]

    def oob_rows(tree):
        rows = np.flatnonzero(bootstrap_counts(tree.random_state, n, n_b) == 0)
        return rows, tree.tree_.predict(X[rows])[:, 0, :]  # (|O_t|, K)

    pieces = run_tasks(oob_rows, [(t,) for t in trees], n_jobs)
    return accumulate_oob(pieces, n, trees[0].tree_.value.shape[2])


class LocalTrees:
    """Where a forest grows its trees for in-memory input: this process, ``n_jobs`` threads.
    :mod:`._forest_dask` has the same three methods for a ``dask.distributed`` cluster."""

    def __init__(self, forest):
        self.forest = forest

    def data(self, X, splitter):
        return forest_data(X, splitter)

    def grow(self, seeds, recipe, data, targets):
        tasks = [(int(s), recipe, data, targets) for s in seeds]
        return self.forest._run(grow_tree, tasks, "trees")

    def oob(self, trees, data, n_b):
        return oob_sums(trees, data.X, n_b, self.forest.n_jobs)


class BaseForest(BaseEstimator):
    """Fit, threads, OOB and the fitted-forest accessors; subclasses give the targets' hooks.

    Subclass hooks: ``_tree_class``, ``_splitter`` ("best" or "random"), ``_targets(y)`` →
    (codes, values, K, criterion id, per-row class weights or None) and ``_set_oob(y, mean,
    ok)``, with mean the (n, K) OOB averages.
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "estimators_": ("[estimator]", ("n_estimators",)),
        "oob_score_": ("float64", (), "optional"),
        "oob_decision_function_": ("float64", ("n_samples", "n_classes_"), "optional"),
        "oob_prediction_": ("float64", ("n_samples",), "optional"),
    }

    def _check_fitted_state(self):
        """n_estimators trees, each fitted on n_features_in_ features (and n_classes_ classes)."""
        K = getattr(self, "n_classes_", None)
        for i, tree in enumerate(self.estimators_):
            if (
                getattr(tree, "n_features_in_", None) != self.n_features_in_
                or getattr(tree, "n_classes_", None) != K
            ):
                raise ValueError(
                    f"estimators_[{i}] does not match the forest's n_features_in_ or n_classes_"
                )

    _parameter_constraints = {
        **{k: v for k, v in _BaseDecisionTree._parameter_constraints.items() if k != "splitter"},
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "bootstrap": ["boolean"],
        "oob_score": ["boolean"],
        "n_jobs": N_JOBS,
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
        "warm_start": ["boolean"],
        "max_samples": [None, Interval(numbers.Integral, 1, None, closed="left"), Fraction()],
    }

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t["dask"] = True  # X gathered on the workers once, trees grown there (._forest_dask)
        return t

    # -- fit ----------------------------------------------------------------------------------
    def _check_forest_params(self, n: int) -> int:
        """Errors that need n, raised before any tree is grown; returns n_b."""
        name = type(self).__name__
        check_oob_needs_bootstrap(self)
        if self.max_samples is not None and not self.bootstrap:
            raise ValueError(
                f"{name}: max_samples={self.max_samples!r} needs bootstrap=True; with "
                "bootstrap=False every tree sees all rows (set max_samples=None)."
            )
        fitted = len(getattr(self, "estimators_", ())) if self.warm_start else 0
        check_grows(self, fitted, "trees")
        if self.max_samples is None:
            return n
        return as_count(self.max_samples, n, f"{name}: max_samples", "rows", to_int=round)

    def fit(self, X, y, sample_weight=None):
        """Grow ``n_estimators`` trees (or the missing ones under ``warm_start``); returns self.

        X may be a Dask array or DataFrame (y and ``sample_weight`` NumPy or Dask): with a
        ``dask.distributed`` client the trees grow on its workers, the same trees as here (see
        :mod:`._forest_dask`)."""
        self._validate_params()
        if is_dask_collection(X):
            from ._forest_dask import dask_fit_input

            X, y, sw, where = dask_fit_input(self, X, y, sample_weight)
        else:
            if is_dask_collection(y) or is_dask_collection(sample_weight):
                from ._forest_dask import computed

                y, sample_weight = computed(y, sample_weight)  # n values each
            X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=not self._is_clf)
            X = np.ascontiguousarray(X)
            self._check_forest_params(X.shape[0])
            sw, where = check_sample_weight(sample_weight, X), LocalTrees(self)
        return self._fit_validated(X, y, sw, where)

    def _fit_validated(self, X, y, sw, where):
        """The fit after validation: targets and seeds here, trees and OOB sums ``where`` X is
        (:class:`LocalTrees`: X an array in memory; ``_forest_dask.ClusterTrees``: a future)."""
        n = y.shape[0]
        n_b = self._check_forest_params(n)
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
                stacklevel=3,
            )
        spawn_seeds(rng, T0)  # the seeds of the trees already there: the stream goes on
        seeds = spawn_seeds(rng, self.n_estimators - T0)
        if len(seeds) or self.oob_score:  # (X, Xᵀ, the sort when trees are to grow)
            data = where.data(X, self._splitter if len(seeds) else None)
        if len(seeds):
            recipe = TreeRecipe(
                tree_class=self._tree_class,
                params={p: getattr(self, p) for p in TREE_PARAMS} | {"splitter": self._splitter},
                n_features_in=self.n_features_in_,
                classes=self.classes_ if self._is_clf else None,
                n_b=n_b if self.bootstrap else None,
                rebalance=self.bootstrap
                and getattr(self, "class_weight", None) == "balanced_subsample",
            )
            self.estimators_ += where.grow(seeds, recipe, data, (codes, values, sw, crit, K))
        if self.oob_score:
            self._fit_oob(where.oob(self.estimators_, data, n_b), y)
        return self

    def _run(self, func, tasks, unit: str):
        """``run_tasks`` on ``n_jobs`` threads, with a progress bar when ``verbose``."""
        with self._progress(len(tasks), unit) as bar:
            return run_tasks(func, tasks, self.n_jobs, progress=bar)

    def _progress(self, total: int, unit: str):
        """:func:`~scratchlearn.utils.parallel.progress_bar` over ``total`` tasks named after
        the forest: a context giving a tqdm bar on stderr when ``verbose``, else None."""
        return progress_bar(self.verbose, total, type(self).__name__, unit)

    # -- out of bag ---------------------------------------------------------------------------
    def _fit_oob(self, sums_seen, y):
        """The OOB means from :func:`oob_sums`, then the subclass's OOB attributes."""
        mean, ok = oob_mean(*sums_seen, "tree", stacklevel=4)  # (the caller of fit)
        self._set_oob(y, mean, ok)

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

    def _on_rows(self, method: str, X):
        """``self.<method>`` of the validated rows of X: an array for NumPy input; for a Dask
        array or DataFrame, a Dask array computed lazily, one task per row block
        (:func:`._forest_dask.predict_blocks`)."""
        if is_dask_collection(X):
            from ._forest_dask import predict_blocks

            return predict_blocks(self, method, X)
        return getattr(self, method)(self._check_X(X))

    def apply(self, X):
        """(n, n_estimators) index of the leaf each row reaches in each tree."""
        return self._on_rows("_leaves", X)

    def decision_path(self, X):
        """(indicator, n_nodes_ptr): a CSR (n, Σ node counts) of the nodes each row passes
        through, the trees side by side; tree t owns columns ``n_nodes_ptr[t]:n_nodes_ptr[t+1]``."""
        if is_dask_collection(X):  # the fit took Dask input: say why this method does not
            raise TypeError(
                f"{type(self).__name__}.decision_path returns a SciPy sparse matrix, which a "
                "Dask array does not hold: pass an in-memory X (`X.compute()`), or call it "
                "on each block (`X.map_blocks`). apply() of a Dask X is lazy."
            )
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
