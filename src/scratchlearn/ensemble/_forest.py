"""Random forests (Breiman 2001) and extremely randomised trees (Geurts et al. 2006).

A forest averages T decorrelated CART trees. Each tree of a **random forest** is grown on a
bootstrap sample (integer weights c_ti, see :mod:`._forest_base`) and, at every node, searches
only a fresh random subset of ``max_features`` features (not one subset per tree). **Extra
trees** go further: every visited feature gets a single threshold drawn uniformly between its
minimum and maximum in the node (``splitter="random"``), and by default each tree sees every row.

Averaging lowers the variance of the ensemble: for T identically distributed trees of variance
σ² and pairwise correlation ρ, the variance of their mean is ``ρσ² + (1 − ρ)σ²/T``; bootstrap
and feature subsets lower ρ, more trees shrink the second term.

Classifier: ``p(k | x) = (1/T) Σ_t p_t(k | x)`` (each p_t the weighted class fractions of the
leaf x reaches), and the class of largest mean probability. Regressor: ``ŷ(x) = (1/T) Σ_t
ŷ_t(x)``. The out-of-bag estimate scores each training row with the trees that did not draw it:
``oob_score_`` is the accuracy (classifier) or R² (regressor) of those predictions.
"""

from __future__ import annotations

import numpy as np

from ..base import ClassifierMixin, RegressorMixin
from ..metrics import accuracy_score, r2_score
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ..tree._criteria import CRITERIA, REG_CRITERIA
from ..utils._param_validation import StrOptions
from ..utils.class_weight import class_weights
from ..utils.multiclass import check_classification_targets, class_codes
from ._forest_base import BaseForest

__all__ = [
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]


def _store(est, params: dict) -> None:
    """``__init__``'s only work: each keyword argument stored under its own name."""
    for name, value in params.items():
        if name not in ("self", "__class__"):
            setattr(est, name, value)


class _ForestClassifier(ClassifierMixin, BaseForest):
    """Class targets, class weights, averaged probabilities and the OOB decision function."""

    _is_clf = True
    _tree_class = DecisionTreeClassifier
    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_classes_": ("int", ()), "classes_": ("label", ("n_classes_",))}

    _parameter_constraints = {
        **BaseForest._parameter_constraints,
        "criterion": [StrOptions(set(CRITERIA))],
        "class_weight": ["dict", StrOptions({"balanced", "balanced_subsample"}), None],
    }

    def _targets(self, y):
        check_classification_targets(y)
        self.classes_, codes = class_codes(y)
        self.n_classes_ = K = self.classes_.shape[0]
        cw = self.class_weight
        if cw == "balanced_subsample" and self.bootstrap:
            row_w = None  # per tree, from its bootstrap (subsample_class_weights)
        elif cw is not None:  # "balanced" (or "balanced_subsample" without bootstrap), a dict
            cw = "balanced" if cw == "balanced_subsample" else cw
            row_w = class_weights(cw, self.classes_, np.bincount(codes, minlength=K))[codes]
        else:
            row_w = None
        return codes, np.zeros(codes.shape[0]), K, CRITERIA[self.criterion], row_w

    def _set_oob(self, y, mean, ok):
        self.oob_decision_function_ = mean  # (n, K), NaN rows: never out of bag
        pred = self.classes_[np.argmax(mean[ok], axis=1)]
        self.oob_score_ = float(accuracy_score(y[ok], pred))

    def predict_proba(self, X):
        """``(1/T) Σ_t p_t(k | x)``: (n, K), columns in the order of ``classes_``."""
        return self._on_rows("_proba", X)

    def predict_log_proba(self, X):
        return self._on_rows("_log_proba", X)

    def predict(self, X):
        """The class of largest mean probability (the first of ``classes_`` on ties)."""
        return self._on_rows("_predict", X)

    def _proba(self, X):
        return self._mean_value(X)

    def _log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self._proba(X))

    def _predict(self, X):
        return self.classes_[np.argmax(self._proba(X), axis=1)]


class _ForestRegressor(RegressorMixin, BaseForest):
    """Real targets, averaged predictions and the OOB prediction."""

    _is_clf = False
    _tree_class = DecisionTreeRegressor
    _parameter_constraints = {
        **BaseForest._parameter_constraints,
        "criterion": [StrOptions(set(REG_CRITERIA))],
    }

    def _targets(self, y):
        y = np.ascontiguousarray(y, dtype=np.float64)
        return np.zeros(y.shape[0], dtype=np.intp), y, 1, REG_CRITERIA[self.criterion], None

    def _set_oob(self, y, mean, ok):
        self.oob_prediction_ = mean = mean[:, 0]  # (n,), NaN rows: never out of bag
        self.oob_score_ = float(r2_score(y[ok], mean[ok]))

    def predict(self, X):
        """``(1/T) Σ_t ŷ_t(x)``: the mean of the trees' leaf values (n,)."""
        return self._on_rows("_predict", X)

    def _predict(self, X):
        return self._mean_value(X)[:, 0]


_PARAMS_DOC = """

    Parameters
    ----------
    n_estimators : int >= 1, default 100
        T, the number of trees.
    criterion, max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf,
    max_leaf_nodes, min_impurity_decrease, ccp_alpha
        Passed to every tree (see :class:`~scratchlearn.tree.DecisionTreeClassifier`); the
        fractions of ``min_samples_*`` are of the n rows of X.
    max_features : int, float, "sqrt", "log2" or None
        Features drawn afresh at every node of every tree.
    bootstrap : bool
        Grow each tree on n_b draws with replacement (integer weights) instead of every row.
    oob_score : bool
        Score the out-of-bag predictions (needs ``bootstrap=True``).
    n_jobs : None, int >= 1 or -1
        Threads growing (and walking) the trees; the result does not depend on it. On a Dask
        cluster the workers' threads grow the trees.
    random_state : None, int or Generator
        Seeds every tree's bootstrap and splits (see :mod:`._forest_base`).
    verbose : int or bool
        > 0: a progress bar over the trees on stderr.
    warm_start : bool
        Keep the fitted trees and add ``n_estimators − len(estimators_)`` more.
    max_samples : None, int or float in (0, 1]
        n_b, the draws per bootstrap (a fraction of n, rounded; None: n).
"""

_ATTRS_DOC = """
    Attributes
    ----------
    estimators_ : list of fitted trees, ``estimators_[t].random_state`` the seed s_t of tree t.
    feature_importances_ : (d,) mean of the trees' normalised impurity decreases, renormalised.
    oob_score_ : float, with ``oob_score``; computed on the rows that have an OOB prediction.
    n_features_in_ : int.
"""

_NOTES_DOC = """
    Notes
    -----
    A row that every tree drew has no OOB prediction: it is NaN (scikit-learn writes 0 there)
    and is left out of ``oob_score_``, with a warning. The trees use X as float64 (scikit-learn
    rounds X to float32) and their own random streams, so a seed does not reproduce
    scikit-learn's trees, only their accuracy (see the tests).

    Dask: X may be a Dask array or DataFrame (y and ``sample_weight`` NumPy or Dask). With a
    ``dask.distributed`` client active, X's blocks are concatenated on one worker and copied
    once to every worker with X's transpose and sort (20·n·d bytes per worker, 16·n·d for
    extra trees: the rows must fit in one worker's memory, which is checked before anything is
    sent); each tree is one task that receives its seed and a recipe of a few hundred bytes and
    returns its arrays (56 + 8K bytes per node), and the OOB sums are one more task. The trees
    are bit for bit those of the in-memory fit with the same ``random_state``. Without a
    client the Dask input is computed into this process. ``predict``, ``predict_proba``,
    ``predict_log_proba`` and ``apply`` of a Dask X return a lazy Dask array, one task per
    row block, the forest copied into each task when small, else sent once to each worker
    (see :mod:`._forest_dask`).
"""


_CLF_ATTRS = """    classes_, n_classes_, oob_decision_function_ (n, K): mean OOB probabilities.
"""


class RandomForestClassifier(_ForestClassifier):
    """Random forest classifier: bootstrap samples, a random feature subset at every node.

    ``p(k | x) = (1/T) Σ_t p_t(k | x)``, tree t grown on the weights ``w_i c_ti`` (bootstrap
    counts c_t of n_b draws) searching ``max_features`` features drawn afresh at each node;
    the prediction is the class of largest p(k | x).

    Examples
    --------
    >>> from scratchlearn.datasets import load_breast_cancer
    >>> from scratchlearn.ensemble import RandomForestClassifier
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X_train, y_train)
    >>> print(len(forest.estimators_), forest.feature_importances_.shape)
    10 (30,)
    >>> print(round(forest.score(X_test, y_test), 3))
    0.965
    """

    __doc__ += _PARAMS_DOC + """    class_weight : dict, "balanced", "balanced_subsample" or None
        Multiplies each row's weight: "balanced" is ``n / (K · n_c)`` over the whole y;
        "balanced_subsample" is ``n_b / (K_b · n_bc)`` over each tree's bootstrap draws (K_b
        the classes drawn, n_bc the draws of class c; without bootstrap it is "balanced").
""" + _ATTRS_DOC + _CLF_ATTRS + _NOTES_DOC  # fmt: skip

    _splitter = "best"

    def __init__(self, *, n_estimators=100, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt", max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None, verbose=0,
                 warm_start=False, class_weight=None, ccp_alpha=0.0, max_samples=None):  # fmt: skip
        _store(self, locals())


class ExtraTreesClassifier(_ForestClassifier):
    """Extremely randomised trees: one uniform threshold per visited feature, no bootstrap.

    ``p(k | x) = (1/T) Σ_t p_t(k | x)``; at each node tree t draws ``max_features`` features
    and for each one threshold ``θ ~ U[min, max)`` of the node's values, keeping the pair of
    largest impurity decrease; every tree sees every row unless ``bootstrap=True``.

    Examples
    --------
    >>> from scratchlearn.datasets import load_breast_cancer
    >>> from scratchlearn.ensemble import ExtraTreesClassifier
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> forest = ExtraTreesClassifier(n_estimators=10, random_state=0).fit(X_train, y_train)
    >>> print(len(forest.estimators_), round(forest.score(X_test, y_test), 3))
    10 0.958
    """

    __doc__ += _PARAMS_DOC + """    class_weight : dict, "balanced", "balanced_subsample" or None
        As :class:`RandomForestClassifier`.
""" + _ATTRS_DOC + _CLF_ATTRS + _NOTES_DOC  # fmt: skip

    _splitter = "random"

    def __init__(self, *, n_estimators=100, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt", max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=False, oob_score=False, n_jobs=None, random_state=None, verbose=0,
                 warm_start=False, class_weight=None, ccp_alpha=0.0, max_samples=None):  # fmt: skip
        _store(self, locals())


class RandomForestRegressor(_ForestRegressor):
    """Random forest regressor: the mean of bootstrap trees, every feature by default.

    ``ŷ(x) = (1/T) Σ_t ŷ_t(x)``, tree t a CART regression tree grown on the weights
    ``w_i c_ti`` (bootstrap counts c_t of n_b draws); ``max_features=1.0`` searches every
    feature at each node, so only the bootstrap decorrelates the trees.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.ensemble import RandomForestRegressor
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> forest = RandomForestRegressor(n_estimators=10, random_state=0).fit(X_train, y_train)
    >>> print(len(forest.estimators_), round(forest.score(X_test, y_test), 2))
    10 0.36
    """

    __doc__ += _PARAMS_DOC + _ATTRS_DOC + """    oob_prediction_ (n,): mean OOB predictions.
""" + _NOTES_DOC  # fmt: skip

    _splitter = "best"

    def __init__(self, *, n_estimators=100, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None, verbose=0,
                 warm_start=False, ccp_alpha=0.0, max_samples=None):  # fmt: skip
        _store(self, locals())


class ExtraTreesRegressor(_ForestRegressor):
    """Extremely randomised regression trees: random thresholds, every row, every feature.

    ``ŷ(x) = (1/T) Σ_t ŷ_t(x)``; at each node every feature gets one threshold
    ``θ ~ U[min, max)`` and the pair of largest decrease of the squared error is kept.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.ensemble import ExtraTreesRegressor
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> forest = ExtraTreesRegressor(n_estimators=10, random_state=0).fit(X_train, y_train)
    >>> print(len(forest.estimators_), round(forest.score(X_test, y_test), 2))
    10 0.38
    """

    __doc__ += _PARAMS_DOC + _ATTRS_DOC + """    oob_prediction_ (n,): mean OOB predictions.
""" + _NOTES_DOC  # fmt: skip

    _splitter = "random"

    def __init__(self, *, n_estimators=100, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=False, oob_score=False, n_jobs=None, random_state=None, verbose=0,
                 warm_start=False, ccp_alpha=0.0, max_samples=None):  # fmt: skip
        _store(self, locals())
