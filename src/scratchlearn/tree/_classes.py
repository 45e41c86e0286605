"""CART decision trees: :class:`DecisionTreeClassifier` and :class:`DecisionTreeRegressor`.

A CART tree splits each node t in two with the test ``x_j ≤ θ``, choosing (j, θ) to maximise the
weighted impurity decrease

.. math::  ΔI = \\frac{N_t}{N}\\Big(I_t - \\frac{N_L}{N_t} I_L - \\frac{N_R}{N_t} I_R\\Big),

where N_t, N_L, N_R are the weighted sizes of the node and its children and N that of the whole
training set; θ runs over the midpoints ``v_(p)/2 + v_(p+1)/2`` of consecutive distinct sorted
values (the lower value if rounding lands the midpoint on the upper one). The impurities
(:mod:`._criteria`) are Gini ``1 − Σ p_k²`` or entropy ``−Σ p_k log₂ p_k`` (bits) for
classification, the weighted MSE about the mean or the weighted mean absolute deviation about the
median for regression. The search is :mod:`._splitter`, the growth :mod:`._builder`, the fitted
arrays :mod:`._tree`. Rows of zero weight take no part in the tree (as in scikit-learn).

References
----------
Breiman, L., Friedman, J. H., Olshen, R. A. and Stone, C. J. (1984). Classification and
Regression Trees. Wadsworth, Belmont, CA.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..base import BaseEstimator, ClassifierMixin, RegressorMixin
from ..utils import Bunch
from ..utils._param_validation import Fraction, Interval, StrOptions
from ..utils.class_weight import class_weights
from ..utils.multiclass import check_classification_targets, class_codes
from ..utils.validation import check_is_fitted, check_random_state, check_sample_weight
from ._builder import NODE, Limits, grow
from ._criteria import ABSOLUTE, CRITERIA, ENTROPY, GINI, REG_CRITERIA, SQUARED
from ._prune import ccp_path, ccp_prune, reduced_error_prune
from ._splitter import presort, row_order, split_rule
from ._tree import Tree

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor"]

_NO_LIMIT = np.iinfo(np.int32).max


class _BaseDecisionTree(BaseEstimator):
    """Validation, the growth call and the fitted-tree accessors shared by both trees."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "max_features_": ("int", ()),
        "tree_": ("Tree", None),
    }

    def _check_fitted_state(self):
        """tree_ splits on the fitted features; a classifier's nodes hold n_classes_ values."""
        if self.tree_.feature.max(initial=-1) >= self.n_features_in_:
            raise ValueError(
                f"tree_ splits on a feature beyond n_features_in_={self.n_features_in_}"
            )
        K = getattr(self, "n_classes_", 1)
        if self.tree_.value.shape[2] != K:
            raise ValueError(
                f"tree_.value holds {self.tree_.value.shape[2]} values per node, expected {K}"
            )

    _parameter_constraints = {
        "splitter": [StrOptions({"best", "random"})],
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "min_samples_split": [Interval(numbers.Integral, 2, None, closed="left"), Fraction()],
        "min_samples_leaf": [Interval(numbers.Integral, 1, None, closed="left"), Fraction()],
        "min_weight_fraction_leaf": [Interval(numbers.Real, 0.0, 0.5, closed="both")],
        "max_features": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Fraction(),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "random_state": ["random_state"],
        "max_leaf_nodes": [Interval(numbers.Integral, 2, None, closed="left"), None],
        "min_impurity_decrease": [Interval(numbers.Real, 0.0, None, closed="left")],
        "ccp_alpha": [Interval(numbers.Real, 0.0, None, closed="left")],
    }

    def _check_X(self, X, reset: bool):
        return self._validate_data(X, reset=reset, dtype=np.float64)

    def _max_features(self, d: int) -> int:
        mf = self.max_features
        if mf is None:
            return d
        if mf == "sqrt":
            return max(1, int(np.sqrt(d)))
        if mf == "log2":
            return max(1, int(np.log2(d)))
        if isinstance(mf, (float, np.floating)):
            return max(1, int(mf * d))
        if mf > d:
            raise ValueError(f"max_features must be in (0, n_features={d}]; got {mf}.")
        return int(mf)

    def _grow_tree(self, X, y_codes, y_values, sw, crit: int, K: int, order=None, Xt=None):
        """Resolve the limits, grow the tree in Numba and store ``tree_``.

        ``order`` (d, m) int32, when given, is :func:`presort` of the rows of non-zero weight,
        partitioned in place: a forest filters one sort of all rows per tree, AdaBoost sorts once
        per fit and hands every round a copy, instead of a sort per tree or round. The random
        splitter reads no sorted order: it grows from its row 0 put back in increasing row order
        (:func:`row_order`), so a given order and none give the same tree. ``Xt``, when given,
        is ``X.T`` C-contiguous (a forest transposes once for all its trees)."""
        n, d = X.shape
        leaf = self.min_samples_leaf
        min_leaf = int(np.ceil(leaf * n)) if isinstance(leaf, float) else int(leaf)
        split = self.min_samples_split
        min_split = max(2, int(np.ceil(split * n))) if isinstance(split, float) else int(split)
        min_split = max(min_split, 2 * min_leaf)
        min_wleaf = self.min_weight_fraction_leaf * float(sw.sum())
        self.max_features_ = self._max_features(d)
        seed = check_random_state(self.random_state).integers(0, 2**63, dtype=np.uint64)
        rule = split_rule(crit, self.splitter == "random", min_leaf, min_wleaf, self.max_features_)
        max_depth = _NO_LIMIT if self.max_depth is None else self.max_depth
        limits = Limits(
            max_depth=int(max_depth),
            min_samples_split=int(min_split),
            min_impurity_decrease=float(self.min_impurity_decrease),
            max_leaf_nodes=int(self.max_leaf_nodes or 0),  # 0: depth-first, no leaf limit
        )
        if self.splitter == "random":  # (1, m): the rows in increasing order, no presort
            order = row_order(np.flatnonzero(sw != 0.0) if order is None else order[0])
        elif order is None:
            samples = np.flatnonzero(sw != 0.0).astype(np.intp)  # zero-weight rows: no part
            order = presort(X, samples)  # (d, m) rows sorted by each feature
        if Xt is None:  # (d, n): each feature one contiguous row; one layout, one compiled builder
            Xt = np.ascontiguousarray(X.T)
        # None for what this tree does not use, so that Numba compiles only the code it runs:
        # the targets or class codes of the other criteria, the order or the rows of a splitter
        yc = y_codes if crit in (GINI, ENTROPY) else None
        yv = y_values if crit == SQUARED else None
        ya = y_values if crit == ABSOLUTE else None
        best = self.splitter != "random"
        nodes, value = grow(
            Xt, yc, yv, ya, sw, order if best else None, None if best else order[0], K, rule,
            limits, np.uint64(seed),
        )  # fmt: skip
        # the records' fields are named after the tree's arrays, but for each node's depth
        arrays = {name: nodes[name] for name in NODE.names if name != "depth"}
        max_depth = int(nodes["depth"].max())  # a tree has at least its root
        self.tree_ = Tree(**arrays, value=value, n_features=d, max_depth=max_depth)
        self._prune_ccp()

    def _prune_ccp(self) -> None:
        """Minimal cost-complexity pruning of ``tree_`` at ``ccp_alpha``: the subtree T_α of
        least R(T) + α|T|, found by collapsing weakest links while g(t) <= α
        (:func:`~scratchlearn.tree._prune.ccp_prune`)."""
        if self.ccp_alpha == 0.0:
            return
        pruned = ccp_prune(self.tree_, self.ccp_alpha)
        self.tree_ = Tree(**pruned, n_features=self.tree_.n_features)

    # -- pruning ---------------------------------------------------------------------------
    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The weakest-link path of minimal cost-complexity pruning (Breiman et al. 1984).

        Grows the full tree with these parameters (``ccp_alpha`` ignored) and returns a
        :class:`~scratchlearn.utils.Bunch` with ``ccp_alphas``, the increasing effective alphas
        g(t) = (R(t) − R(T_t)) / (|T_t| − 1) at which each collapse breaks even, starting at 0
        for the full tree, and ``impurities``, the total leaf impurity R(T_α) =
        Σ_leaves (w_l / w) I_l of each pruned subtree (the last one is the root alone). Any alpha
        between two consecutive entries gives the same tree as the lower one.
        """
        from ..base import clone

        full = clone(self).set_params(ccp_alpha=0.0).fit(X, y, sample_weight=sample_weight)
        alphas, impurities = ccp_path(full.tree_)
        return Bunch(ccp_alphas=alphas, impurities=impurities)

    def prune(self, X_val, y_val, sample_weight=None):
        """Reduced-error pruning on a validation set (Quinlan 1987), in place.

        Bottom-up, a branch becomes a leaf predicting its node's training value (majority
        class, or mean / median) whenever the weighted validation accuracy (classifier) or the
        squared error (regressor, so R²) does not get worse; a node no validation row reaches
        is pruned. Returns a :class:`~scratchlearn.tree.PruneReport` (nodes and leaves before
        and after, validation score before and after, ``nodes_removed``).
        """
        check_is_fitted(self)
        if len(X_val) == 0:
            raise ValueError("prune needs a non-empty validation set; X_val has 0 rows.")
        X = self._check_X(X_val, reset=False)
        pruned, report = reduced_error_prune(
            self.tree_,
            X,
            y_val,
            classes=getattr(self, "classes_", None),
            sample_weight=sample_weight,
        )
        self.tree_ = Tree(**pruned, n_features=self.tree_.n_features)
        return report

    # -- the fitted tree -------------------------------------------------------------------
    def apply(self, X):
        """Index of the leaf each row of X lands in."""
        check_is_fitted(self)
        return self.tree_.apply(self._check_X(X, reset=False))

    def decision_path(self, X):
        """CSR indicator (n, node_count) of the nodes each row of X passes through."""
        check_is_fitted(self)
        return self.tree_.decision_path(self._check_X(X, reset=False))

    def get_depth(self) -> int:
        """Depth of the deepest leaf (the root has depth 0)."""
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        check_is_fitted(self)
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        """Σ_t (N_t I_t − N_L I_L − N_R I_R) over the nodes splitting on each feature,
        normalised to sum to one."""
        check_is_fitted(self)
        return self.tree_.compute_feature_importances()


class DecisionTreeClassifier(ClassifierMixin, _BaseDecisionTree):
    """CART classification tree.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss"}, default "gini"
        Gini ``1 − Σ_k p_k²`` or entropy ``−Σ_k p_k log₂ p_k`` in bits ("log_loss" is the same
        criterion as "entropy"), with ``p_k`` the weighted fraction of class k in the node.
    splitter : {"best", "random"}
        Sweep every midpoint of every visited feature, or one uniform threshold per feature.
    max_depth : int >= 1 or None
    min_samples_split : int >= 2 or float in (0, 1]
        A node with fewer rows (``ceil(f·n)`` for a fraction) is a leaf.
    min_samples_leaf : int >= 1 or float in (0, 1]
        A split must leave at least this many rows on each side.
    min_weight_fraction_leaf : float in [0, 0.5]
        A split must leave at least this fraction of the total weight on each side.
    max_features : int, float, "sqrt", "log2" or None
        Features drawn per node (without replacement, in a random order); the search goes on past
        ``max_features`` until one non-constant feature has been evaluated (scikit-learn's rule:
        constant features count as visited).
    random_state : None, int or Generator
        Seeds the feature order of every node (also with ``max_features=None``: ties between
        features are resolved by that order) and the thresholds of ``splitter="random"``.
    max_leaf_nodes : int >= 2 or None
        Grow best-first (largest ΔI first) until this many leaves.
    min_impurity_decrease : float >= 0
        Split only when ``ΔI + ε ≥ min_impurity_decrease`` (ΔI defined in the module docstring).
    class_weight : dict, "balanced" or None
        Multiplies each row's weight by the weight of its class; "balanced" is
        ``n / (K · n_c)`` with ``n_c`` the unweighted count of class c.
    ccp_alpha : float >= 0
        Cost-complexity pruning strength (0: no pruning).

    Attributes
    ----------
    classes_, n_classes_, n_features_in_, max_features_, tree_ (:class:`~._tree.Tree`),
    feature_importances_.

    Notes
    -----
    ``fit`` sorts the rows once by every feature and keeps that order through the splits (no
    sort per node: a node of m rows costs O(d·m)); the order takes 4·d·n bytes besides X.
    ``splitter="random"`` sorts nothing: it partitions one array of the n row indices, and a node
    of m rows costs O(max_features·m).
    X is used as float64: unlike scikit-learn (which rounds X to float32), thresholds are
    midpoints of the float64 values. No missing values: NaN or ±inf in X is an error.

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    >>> print(tree.get_depth(), tree.get_n_leaves(), tree.feature_importances_.round(3))
    2 3 [0. 0. 0. 1.]
    >>> print(round(tree.score(X, y), 3))
    0.96
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_classes_": ("int", ()), "classes_": ("label", ("n_classes_",))}

    _parameter_constraints = {
        **_BaseDecisionTree._parameter_constraints,
        "criterion": [StrOptions(set(CRITERIA))],
        "class_weight": ["dict", StrOptions({"balanced"}), None],
    }

    def __init__(
        self,
        *,
        criterion="gini",
        splitter="best",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features=None,
        random_state=None,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        class_weight=None,
        ccp_alpha=0.0,
    ):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(estimator_type="classifier", requires_y=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y); returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = class_codes(y)
        self.n_classes_ = K = self.classes_.shape[0]
        sw = check_sample_weight(sample_weight, X)
        N_k = np.bincount(codes, minlength=K)
        sw *= class_weights(self.class_weight, self.classes_, N_k)[codes]
        codes = codes.astype(np.intp)
        self._grow_tree(X, codes, np.zeros(X.shape[0]), sw, CRITERIA[self.criterion], K)
        return self

    def predict_proba(self, X):
        """The weighted class fractions of the leaf each row lands in (n, K)."""
        check_is_fitted(self)
        return self.tree_.predict(self._check_X(X, reset=False))[:, 0, :]

    def predict_log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The class of largest weighted fraction in each row's leaf (first on ties)."""
        check_is_fitted(self)
        leaves = self.tree_.apply(self._check_X(X, reset=False))
        return self.classes_[np.argmax(self.tree_.value[:, 0, :], axis=1)[leaves]]


class DecisionTreeRegressor(RegressorMixin, _BaseDecisionTree):
    """CART regression tree.

    ``criterion="squared_error"``: impurity ``Σ w (y − ȳ)² / N`` and leaf value the weighted mean
    ȳ (the split minimises the total weighted SSE of the children); ``"absolute_error"``:
    impurity ``Σ w |y − m| / N`` and leaf value the weighted median m. Other parameters as
    :class:`DecisionTreeClassifier` (without ``class_weight``).

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.tree import DecisionTreeRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    >>> print(tree.get_depth(), tree.get_n_leaves())
    3 8
    >>> print(round(tree.score(X, y), 3))
    0.501
    """

    _parameter_constraints = {
        **_BaseDecisionTree._parameter_constraints,
        "criterion": [StrOptions(set(REG_CRITERIA))],
    }

    def __init__(
        self,
        *,
        criterion="squared_error",
        splitter="best",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features=None,
        random_state=None,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
    ):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(estimator_type="regressor", requires_y=True)
        return t

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y); returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True)
        sw = check_sample_weight(sample_weight, X)
        y = np.ascontiguousarray(y, dtype=np.float64)
        codes = np.zeros(X.shape[0], dtype=np.intp)
        self._grow_tree(X, codes, y, sw, REG_CRITERIA[self.criterion], 1)
        return self

    def predict(self, X):
        """The value (mean or median) of the leaf each row lands in."""
        check_is_fitted(self)
        return self.tree_.value[:, 0, 0][self.tree_.apply(self._check_X(X, reset=False))]
