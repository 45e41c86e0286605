"""What AdaBoost's two variants share: the parameters, the starting weights and their floor, the
per-round records and the vote-weighted feature importances.

Symbols: n rows, T = ``n_estimators`` rounds, w_i the weight of row i, α_t the vote of round t.
SAMME for classes is :mod:`._adaboost_samme`, R2 for regression :mod:`._adaboost_r2`; both
start from ``w_i = s_i / Σ_j s_j`` (s the user's ``sample_weight``), floor the weights at the
machine epsilon before every round, and record α_t and the round's error for every round run
(α = 0 and error 1 for the rounds not run).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..base import BaseEstimator
from ..utils._param_validation import HasMethods, Interval
from ..utils.validation import check_is_fitted, check_sample_weight

__all__ = ["BaseAdaBoost", "EPS", "floor_weights"]

EPS = np.finfo(np.float64).eps


def floor_weights(w, zero):
    """``w_i ← max(w_i, ε_mach)`` for the rows of positive weight, 0 for the rows in ``zero``
    (the rows the user weighted 0 stay out; the others never vanish by underflow)."""
    w = np.maximum(w, EPS)
    w[zero] = 0.0
    return w


class BaseAdaBoost(BaseEstimator):
    """Parameters, starting weights, records and importances; subclasses write the rounds."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "estimators_": ("[estimator]", ("*",)),
        "estimator_weights_": ("float64", ("n_estimators",)),
        "estimator_errors_": ("float64", ("n_estimators",)),
    }

    def _check_fitted_state(self):
        """At most n_estimators rounds, those not run weighing 0; learners of n_features_in_."""
        T = len(self.estimators_)
        if T > self.n_estimators or np.any(self.estimator_weights_[T:] != 0):
            raise ValueError(f"estimators_ has {T} learners, but estimator_weights_ weighs others")
        if any(getattr(h, "n_features_in_", None) != self.n_features_in_ for h in self.estimators_):
            raise ValueError("an estimator of estimators_ does not match n_features_in_")

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "learning_rate": [Interval(numbers.Real, 0.0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def _start(self, X, sample_weight):
        """The weights of round 1, ``w = s / Σ s`` (n,), and empty records: no learner yet,
        ``estimator_weights_`` α = 0 and ``estimator_errors_`` 1 for every round."""
        w = check_sample_weight(sample_weight, X)
        w /= w.sum()
        self.estimators_ = []
        self.estimator_weights_ = np.zeros(self.n_estimators)
        self.estimator_errors_ = np.ones(self.n_estimators)
        return w

    @property
    def feature_importances_(self):
        """``Σ_t α_t imp_t / Σ_t α_t``: the learners' importances weighted by their votes."""
        check_is_fitted(self)
        imp = np.array([h.feature_importances_ for h in self.estimators_])  # (T_run, d)
        return self.estimator_weights_[: len(imp)] @ imp / self.estimator_weights_.sum()
