"""AdaBoost for K ≥ 2 classes: SAMME (Zhu, Zou, Rosset & Hastie 2009).

Symbols: n training rows with weights ``w_i`` (normalised to Σw = 1), labels ``y_i`` among K
classes, T rounds. Round t fits a weak learner ``h_t`` to the weighted rows and measures its
weighted error

.. math::  ε_t = \\frac{Σ_i w_i\\, I(y_i ≠ h_t(x_i))}{Σ_i w_i},

gives it the vote

.. math::  α_t = ν \\Big(\\ln\\frac{1 − ε_t}{ε_t} + \\ln(K − 1)\\Big)     (ν = learning_rate)

and reweights the rows it got wrong, ``w_i ← w_i · e^{α_t I(y_i ≠ h_t(x_i))}``, then normalises.

Objective. With the class coded as the vector ``Y_k = 1`` for the true class and ``−1/(K−1)``
elsewhere, SAMME is forward stagewise additive modelling of ``f(x) = Σ_t α_t g_t(x)`` under the
multi-class exponential loss ``L = Σ_i w_i exp(−Y_i·f(x_i)/K)``: each round adds the learner and
the step that most decrease L with the earlier terms held fixed; the weights above are that loss's
per-row factors. For K = 2 the extra ``ln(K − 1)`` vanishes and ``α = ln((1 − ε)/ε)`` is twice the
seed's (and Freund & Schapire's) ``½ ln((1 − ε)/ε)``: every vote doubles, so the weighted vote and
its sign, the predictions and the normalised reweighting are the same.

Stopping, as scikit-learn (1.8 onwards): a learner with ``ε = 0`` is kept with ``α = 1`` and the
fit stops (it alone decides); a learner no better than chance, ``ε ≥ 1 − 1/K``, is dropped and the
fit stops (on the first round that is an error: there is no ensemble). The weights are clipped
below at the machine epsilon before every round (rows of zero weight stay zero), are not
reweighted after the last round, and boosting stops with a warning if they overflow.

Scores. ``decision_function`` is ``f(x)/Σα`` with ``g_t(x)_k = 1`` for the predicted class and
``−1/(K−1)`` elsewhere (K columns), and for K = 2 the single column ``f_2 − f_1``;
``predict_proba`` is ``softmax(f/(K − 1))`` (for K = 2 of ``(−f, f)/2``).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..base import ClassifierMixin, is_classifier
from ..tree import DecisionTreeClassifier
from ..tree._criteria import CRITERIA
from ..tree._splitter import presort
from ..utils.class_weight import class_weights
from ..utils.multiclass import check_classification_targets, encode_classes
from ..utils.parallel import spawn_seeds
from ..utils.validation import check_is_fitted, check_random_state
from ._adaboost import BaseAdaBoost, floor_weights
from ._base import accepts_sample_weight, seeded_clone

__all__ = ["AdaBoostClassifier"]


def samme_alpha(eps: float, K: int, learning_rate: float) -> float:
    """α = ν (ln((1 − ε)/ε) + ln(K − 1))."""
    return learning_rate * (np.log((1.0 - eps) / eps) + np.log(K - 1.0))


def samme_scores(codes, alpha: float, K: int):
    """α g(x) (n, K): α in the predicted class's column, −α/(K − 1) in the others."""
    g = np.full((codes.shape[0], K), -alpha / (K - 1))
    g[np.arange(codes.shape[0]), codes] = alpha
    return g


class _PresortedTrees:
    """Rounds of a :class:`DecisionTreeClassifier` base on rows sorted once per boosting fit.

    Fitting the tree afresh each round would validate X and sort every feature again; here the
    sort (:func:`~scratchlearn.tree._splitter.presort`) is done once, and each round grows the
    tree from a copy of it with the shared builder and split search. Gives the same tree as
    ``clone(base).set_params(random_state=seed).fit(X, y, sample_weight=w)``.
    """

    def __init__(self, base, X, codes, classes, w0):
        base._validate_params()
        self.base, self.X, self.codes, self.classes = base, np.ascontiguousarray(X), codes, classes
        self.params = base.get_params(deep=False)  # a tree's parameters are plain values
        N_k = np.bincount(codes, minlength=len(classes))  # the tree's class_weight, per row
        self.class_factor = class_weights(self.params.get("class_weight"), classes, N_k)[codes]
        self.order = presort(self.X, np.flatnonzero(self.weights(w0) != 0.0).astype(np.intp))

    def weights(self, w):
        """The round's weights as the tree's fit would see them (times class_weight)."""
        return w * self.class_factor

    def fit(self, w, seed):
        """(fitted tree, its predicted class codes on the training rows)."""
        tree = type(self.base)(**{**self.params, "random_state": seed})  # clone(base), cheaply
        tree.classes_, tree.n_classes_ = self.classes, len(self.classes)
        tree.n_features_in_ = self.X.shape[1]
        K, crit = len(self.classes), CRITERIA[tree.criterion]
        y_values = np.zeros(self.X.shape[0])
        w_round, order = self.weights(w), self.order.copy()
        tree._grow_tree(self.X, self.codes, y_values, w_round, crit, K, order=order)
        return tree, _tree_codes(tree, self.X)


def _tree_codes(tree, X):
    """Class codes a fitted tree predicts for validated X (its classes are the ensemble's)."""
    return np.argmax(tree.tree_.value[:, 0, :], axis=1)[tree.tree_.apply(X)]


class AdaBoostClassifier(ClassifierMixin, BaseAdaBoost):
    """AdaBoost-SAMME: a weighted vote of weak learners fitted to reweighted rows.

    The mathematics (objective, vote α, reweighting, stopping, scores) is in the module
    docstring of :mod:`scratchlearn.ensemble._adaboost_samme`.

    Parameters
    ----------
    estimator : classifier or None
        The weak learner; its ``fit`` must take ``sample_weight``. Default
        ``DecisionTreeClassifier(max_depth=1)``, a stump.
    n_estimators : int >= 1
        At most this many rounds.
    learning_rate : float > 0
        ν, scaling every α (also inside the reweighting ``e^α``).
    random_state : None, int or Generator
        Each round's learner gets a seed drawn from it before the first round.

    Attributes
    ----------
    estimators_ : the fitted learners (fewer than ``n_estimators`` after an early stop).
    estimator_weights_ : (n_estimators,) α_t, 0 for rounds not run.
    estimator_errors_ : (n_estimators,) ε_t, 1 for rounds not run.
    classes_, n_classes_, n_features_in_, feature_importances_.

    Notes
    -----
    With a :class:`~scratchlearn.tree.DecisionTreeClassifier` as learner (the default), X is
    sorted once per fit and every round grows its tree from that order; other learners are
    fitted by their own ``fit``.

    Examples
    --------
    >>> from scratchlearn.datasets import load_breast_cancer
    >>> from scratchlearn.ensemble import AdaBoostClassifier
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> boost = AdaBoostClassifier(n_estimators=20, random_state=0).fit(X_train, y_train)
    >>> print(len(boost.estimators_), round(boost.score(X_test, y_test), 3))
    20 0.937
    """

    _presorted = True  # the tests switch it off to compare with the plain path

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_classes_": ("int", ()), "classes_": ("label", ("n_classes_",))}

    def __init__(self, estimator=None, *, n_estimators=50, learning_rate=1.0, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.random_state = random_state

    def _base(self):
        """The learner to clone each round, checked before any work."""
        if self.estimator is None:
            return DecisionTreeClassifier(max_depth=1)
        name = type(self.estimator).__name__
        if not is_classifier(self.estimator):
            raise ValueError(f"AdaBoostClassifier needs a classifier as estimator; got {name}.")
        if not accepts_sample_weight(self.estimator):
            raise ValueError(
                f"AdaBoostClassifier needs an estimator whose fit accepts sample_weight; "
                f"{name}.fit does not."
            )
        return self.estimator

    def fit(self, X, y, sample_weight=None):
        """Boost for up to ``n_estimators`` rounds; returns self."""
        self._validate_params()
        base = self._base()
        X, y = self._validate_data(X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = encode_classes(y, "AdaBoostClassifier")
        self.n_classes_ = K = len(self.classes_)
        w = self._start(X, sample_weight)
        seeds = spawn_seeds(check_random_state(self.random_state), self.n_estimators)
        fast = self._presorted and type(base) is DecisionTreeClassifier
        rounds = _PresortedTrees(base, X, codes.astype(np.intp), self.classes_, w) if fast else None
        zero = w == 0.0
        for t, seed in enumerate(seeds):
            w = floor_weights(w, zero)
            if fast:
                h, h_codes = rounds.fit(w, int(seed))
            else:
                h = seeded_clone(base, seed)
                h.fit(X, y, sample_weight=w)
                h_codes = np.searchsorted(self.classes_, h.predict(X))
            self.estimators_.append(h)
            miss = h_codes != codes
            eps = np.sum(w * miss) / np.sum(w)  # ε_t
            if eps <= 0.0:  # a perfect learner decides alone
                self.estimator_weights_[t], self.estimator_errors_[t] = 1.0, 0.0
                break
            if eps >= 1.0 - 1.0 / K:  # no better than chance
                self.estimators_.pop()
                if not self.estimators_:
                    raise ValueError(
                        f"The first learner of AdaBoostClassifier has weighted error "
                        f"{eps:.4g} >= 1 - 1/K = {1 - 1 / K:.4g}: it is no better than chance, "
                        "so there is no ensemble to build."
                    )
                break
            alpha = samme_alpha(eps, K, self.learning_rate)
            self.estimator_weights_[t], self.estimator_errors_[t] = alpha, eps
            if t == self.n_estimators - 1:
                break
            w = w * np.exp(alpha * miss)  # w_i ← w_i e^{α I(miss)}
            total = np.sum(w)
            if not np.isfinite(total):
                warnings.warn(
                    f"AdaBoostClassifier: the sample weights overflowed at round {t}; boosting "
                    "stopped there. A smaller learning_rate avoids it.",
                    RuntimeWarning,
                    stacklevel=2,
                )
                break
            w /= total
        return self

    # -- scores ----------------------------------------------------------------------------
    def _learner_codes(self, h, X):
        if isinstance(h, DecisionTreeClassifier) and np.array_equal(h.classes_, self.classes_):
            return _tree_codes(h, X)
        return np.searchsorted(self.classes_, h.predict(X))

    def _staged_raw(self, X):
        """(Σ_{s≤t} α_s g_s(x), Σ_{s≤t} α_s) after each learner: one pass per learner."""
        check_is_fitted(self)
        X = np.ascontiguousarray(self._validate_data(X, reset=False, dtype=np.float64))
        f, norm = np.zeros((X.shape[0], self.n_classes_)), 0.0
        for h, alpha in zip(self.estimators_, self.estimator_weights_):
            f += samme_scores(self._learner_codes(h, X), alpha, self.n_classes_)
            norm += alpha
            yield f, norm

    def _decision(self, f, norm):
        d = f / norm
        return d[:, 1] - d[:, 0] if self.n_classes_ == 2 else d

    def _proba(self, decision):
        K = self.n_classes_
        z = np.column_stack([-decision, decision]) / 2.0 if K == 2 else decision / (K - 1)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def staged_decision_function(self, X):
        """``decision_function`` of the first 1, 2, … learners (a generator)."""
        for f, norm in self._staged_raw(X):
            yield self._decision(f, norm)

    def decision_function(self, X):
        """SAMME scores f(x)/Σα: (n, K), or (n,) ``f_2 − f_1`` for two classes."""
        *_, last = self._staged_raw(X)
        return self._decision(*last)

    def _label(self, decision):
        if self.n_classes_ == 2:
            return self.classes_[(decision > 0).astype(np.intp)]
        return self.classes_[np.argmax(decision, axis=1)]

    def predict(self, X):
        """The class of largest score (for two classes, the second when f > 0)."""
        return self._label(self.decision_function(X))

    def predict_proba(self, X):
        """softmax(f/(K − 1)) (n, K), scikit-learn's reading of the SAMME scores."""
        return self._proba(self.decision_function(X))

    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))

    def staged_predict(self, X):
        for d in self.staged_decision_function(X):
            yield self._label(d)

    def staged_predict_proba(self, X):
        for d in self.staged_decision_function(X):
            yield self._proba(d)

    def staged_score(self, X, y, sample_weight=None):
        """Accuracy of the first 1, 2, … learners on (X, y)."""
        from ..metrics import accuracy_score

        for pred in self.staged_predict(X):
            yield accuracy_score(y, pred, sample_weight=sample_weight)
