"""AdaBoost.R2 for regression (Drucker 1997).

Symbols: n rows with weights ``w_i`` (Σw = 1), T rounds, ν = ``learning_rate``. Round t draws a
weighted bootstrap sample (n rows drawn with replacement, row i with probability w_i), fits the
learner ``h_t`` to it and scores every training row by its error relative to the worst one,

.. math::  e_i = |h_t(x_i) − y_i| / \\max_j |h_t(x_j) − y_j|,

through the loss ``L_i = e_i`` (linear), ``e_i²`` (square) or ``1 − e^{−e_i}`` (exponential), all
in [0, 1]. The round's error, confidence and vote are

.. math::  \\bar L_t = Σ_i w_i L_i, \\qquad β_t = \\bar L_t / (1 − \\bar L_t), \\qquad
           α_t = ν \\ln(1/β_t),

and the rows it predicted well lose weight: ``w_i ← w_i β_t^{ν(1 − L_i)}``, normalised. The
prediction is the weighted median of the learners' predictions with weights α_t: the smallest
prediction at which the cumulative α of the sorted predictions reaches half of Σα.

Stopping, as scikit-learn: ``\\bar L_t = 0`` keeps the learner with α = 1 and stops;
``\\bar L_t ≥ 1/2`` (β ≥ 1: no confidence) stops, dropping the learner unless it is the only one
(then it stays, with α = 0, and alone makes the predictions). Weights are clipped below at the
machine epsilon before every round (zero weights stay zero) and not reweighted after the last.

Randomness: each round's bootstrap draw and its learner's seed are drawn from ``random_state``
before the first round. scikit-learn draws its samples from a different generator, so the two
agree only statistically.
"""

from __future__ import annotations

import numpy as np

from ..base import RegressorMixin
from ..tree import DecisionTreeRegressor
from ..utils._param_validation import StrOptions
from ..utils.parallel import spawn_seeds
from ..utils.validation import check_is_fitted, check_random_state
from ._adaboost import BaseAdaBoost, floor_weights
from ._base import seeded_clone

__all__ = ["AdaBoostRegressor", "weighted_median_predictions"]

LOSSES = {
    "linear": lambda e: e,
    "square": lambda e: e**2,
    "exponential": lambda e: 1.0 - np.exp(-e),
}


def weighted_median_predictions(P, alpha):
    """Row-wise weighted median of P (n, T) with weights α (T,): for each row, the smallest
    prediction whose cumulative α (over predictions sorted increasingly) reaches Σα/2."""
    order = np.argsort(P, axis=1)  # (n, T)
    cum = np.cumsum(alpha[order], axis=1)  # (n, T)
    first = np.argmax(cum >= 0.5 * cum[:, -1:], axis=1)  # (n,)
    rows = np.arange(P.shape[0])
    return P[rows, order[rows, first]]


class AdaBoostRegressor(RegressorMixin, BaseAdaBoost):
    """AdaBoost.R2: a weighted median of regressors fitted to weighted bootstrap samples.

    The mathematics is in the module docstring of :mod:`scratchlearn.ensemble._adaboost_r2`.

    Parameters
    ----------
    estimator : regressor or None
        Default ``DecisionTreeRegressor(max_depth=3)``.
    n_estimators : int >= 1
    learning_rate : float > 0
        ν: scales every α and the exponent of the reweighting.
    loss : {"linear", "square", "exponential"}
    random_state : None, int or Generator

    Attributes
    ----------
    estimators_, estimator_weights_ ((n_estimators,) α, 0 for rounds not run),
    estimator_errors_ ((n_estimators,) the mean loss, 1 for rounds not run), n_features_in_,
    feature_importances_.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.ensemble import AdaBoostRegressor
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> boost = AdaBoostRegressor(n_estimators=10, random_state=0).fit(X_train, y_train)
    >>> print(len(boost.estimators_), round(boost.score(X_test, y_test), 2))
    10 0.42
    """

    _parameter_constraints = {
        **BaseAdaBoost._parameter_constraints,
        "loss": [StrOptions(set(LOSSES))],
    }

    def __init__(
        self, estimator=None, *, n_estimators=50, learning_rate=1.0, loss="linear",
        random_state=None,
    ):  # fmt: skip
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.loss = loss
        self.random_state = random_state

    def _round(self, base, X, y, w, seeds):
        """Fit one learner on a weighted bootstrap sample; return it and its losses L (n,)."""
        h = seeded_clone(base, seeds[0])
        rows = np.random.default_rng(seeds[1]).choice(len(y), size=len(y), p=w / w.sum())
        h.fit(X[rows], y[rows])
        err = np.abs(h.predict(X) - y)
        worst = err[w > 0].max()
        return h, LOSSES[self.loss](err / worst if worst != 0 else err)

    def fit(self, X, y, sample_weight=None):
        """Boost for up to ``n_estimators`` rounds; returns self."""
        self._validate_params()
        base = DecisionTreeRegressor(max_depth=3) if self.estimator is None else self.estimator
        if getattr(base, "_estimator_type", None) == "classifier":
            raise ValueError(
                f"AdaBoostRegressor needs a regressor as estimator; got {type(base).__name__}."
            )
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True)
        y = np.asarray(y, dtype=np.float64)
        w = self._start(X, sample_weight)
        seeds = spawn_seeds(check_random_state(self.random_state), 2 * self.n_estimators)
        zero = w == 0.0
        for t in range(self.n_estimators):
            w = floor_weights(w, zero)
            h, L = self._round(base, X, y, w, seeds[2 * t : 2 * t + 2])
            self.estimators_.append(h)
            mean_loss = np.sum(w * L) / np.sum(w)  # L̄_t
            if mean_loss <= 0.0:  # a perfect learner decides alone
                self.estimator_weights_[t], self.estimator_errors_[t] = 1.0, 0.0
                break
            if mean_loss >= 0.5:  # β ≥ 1: no confidence
                if len(self.estimators_) > 1:
                    self.estimators_.pop()
                break
            beta = mean_loss / (1.0 - mean_loss)
            self.estimator_weights_[t] = self.learning_rate * np.log(1.0 / beta)
            self.estimator_errors_[t] = mean_loss
            if t == self.n_estimators - 1:
                break
            w = w * beta ** ((1.0 - L) * self.learning_rate)  # w_i β^{ν(1 − L_i)}
            w /= np.sum(w)
        return self

    def _predictions(self, X):
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, dtype=np.float64)
        return np.column_stack([h.predict(X) for h in self.estimators_])  # (n, T)

    def predict(self, X):
        """The α-weighted median of the learners' predictions."""
        P = self._predictions(X)
        return weighted_median_predictions(P, self.estimator_weights_[: P.shape[1]])

    def staged_predict(self, X):
        """``predict`` of the first 1, 2, … learners (a generator)."""
        P = self._predictions(X)
        for t in range(1, P.shape[1] + 1):
            yield weighted_median_predictions(P[:, :t], self.estimator_weights_[:t])

    def staged_score(self, X, y, sample_weight=None):
        """R² of the first 1, 2, … learners on (X, y)."""
        from ..metrics import r2_score

        for pred in self.staged_predict(X):
            yield r2_score(y, pred, sample_weight=sample_weight)
