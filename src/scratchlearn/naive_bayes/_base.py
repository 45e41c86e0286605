"""The shared shell of every naive Bayes classifier.

Symbols: ``n`` samples, ``d`` features, ``K`` classes, ``N_c`` the (weighted) number of training
samples of class c, ``π_c = P(y = c)`` the class prior.

Every variant reduces to one quantity, the joint log-likelihood

.. math::  J_{ic} = \\log π_c + \\sum_j \\log P(x_{ij} \\mid y = c),

which the subclass returns from ``_joint_log_likelihood(X)`` as an (n, K) array. This module turns
it into predictions and posteriors, normalising once in log space:

.. math::  \\log P(y = c \\mid x_i) = J_{ic} - \\log \\sum_{c'} \\exp J_{ic'}

(the subtracted term is the evidence ``log P(x_i)``), so no probability is ever multiplied raw.

The base class also owns the bookkeeping that ``fit`` and ``partial_fit`` share: the hyperparameter
and data validation, ``classes_``, the label-to-index encoding, sample weights and the one-hot
weighted label matrix ``Y`` (n, K) from which every count is a matrix product ``Yᵀ X``.
Subclasses implement four small hooks: ``_check_X`` (validation), ``_init_counters``,
``_update_counts`` (add one batch) and ``_update_model`` (derive the probabilities), plus
``_explain_terms`` for :meth:`explain`.
"""

from __future__ import annotations

import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from ..utils.extmath import logsumexp
from ..utils.multiclass import check_classification_targets
from ..utils.validation import (
    _assert_all_finite,
    check_is_fitted,
    check_sample_weight,
    column_or_1d,
)
from ._explain import NaiveBayesExplanation

__all__ = ["_BaseNB", "class_log_prior"]


def class_log_prior(class_count, *, class_prior=None, fit_prior=True, prior_alpha=0.0):
    """log π_c from the class counts N_c.

    * ``class_prior`` given: ``log class_prior`` (checked: K entries, non-negative);
    * ``fit_prior``: the (optionally Laplace-smoothed) frequency
      ``π_c = (N_c + a) / (Σ N_c' + a·K)`` with ``a = prior_alpha`` (0: maximum likelihood);
    * otherwise the uniform prior ``π_c = 1/K``.
    """
    K = class_count.shape[0]
    if class_prior is not None:
        prior = np.asarray(class_prior, dtype=np.float64)
        if prior.ndim != 1 or prior.shape[0] != K:
            raise ValueError(
                f"Number of priors ({prior.size}) must match the number of classes ({K})."
            )
        if np.any(prior < 0):
            raise ValueError("Class priors must be non-negative.")
        with np.errstate(divide="ignore"):
            return np.log(prior)
    if fit_prior:
        with np.errstate(divide="ignore"):
            return np.log(class_count + prior_alpha) - np.log(class_count.sum() + prior_alpha * K)
    return np.full(K, -np.log(K))


class _BaseNB(ClassifierMixin, BaseEstimator):
    """Validation, ``classes_``, ``partial_fit`` bookkeeping and the log-space posterior."""

    # -- hooks ------------------------------------------------------------------------------
    def _check_X(self, X, *, reset: bool):
        """Validate X (fit: ``reset=True`` records n_features_in_; predict: checks it)."""
        raise NotImplementedError

    def _init_counters(self, X) -> None:
        """Create zeroed sufficient statistics for ``len(self.classes_)`` classes."""
        raise NotImplementedError

    def _update_counts(self, X, Y) -> None:
        """Add one batch; ``Y`` (n, K) is the one-hot label matrix scaled by sample weights."""
        raise NotImplementedError

    def _update_model(self) -> None:
        """Recompute the fitted probabilities from the accumulated statistics."""
        raise NotImplementedError

    def _joint_log_likelihood(self, X):
        """J (n, K) = log π_c + Σ_j log P(x_ij | c) for validated X."""
        raise NotImplementedError

    def _explain_terms(self, X):
        """For one validated sample (1, d): (feature indices, shown values, log terms (m, K)),
        the log terms summing with ``class_log_prior_`` to the joint log-likelihood."""
        raise NotImplementedError

    def _log_prior(self):
        return self.class_log_prior_

    # -- fitting ----------------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Fit on the whole of (X, y), forgetting any previous fit. Returns self."""
        self._validate_params()
        X = self._check_X(X, reset=True)
        y = self._check_y(y, X)
        self.classes_ = np.unique(y)
        self._init_counters(X)
        self._add_batch(X, y, sample_weight)
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Add one batch of (X, y) to the running statistics and refresh the model.

        ``classes`` (every label that will ever be seen) is required on the first call and, if
        passed again, must equal ``classes_``. Fitting in chunks gives the model that ``fit`` on
        the concatenated data gives (up to floating-point rounding). Returns self.
        """
        first = not hasattr(self, "classes_")
        self._validate_params()
        X = self._check_X(X, reset=first)
        y = self._check_y(y, X)
        if first:
            if classes is None:
                raise ValueError(
                    "classes must be passed on the first call to partial_fit (every label that "
                    "any batch may contain)."
                )
            self.classes_ = np.unique(np.asarray(classes))
            self._init_counters(X)
        elif classes is not None:
            classes = np.unique(np.asarray(classes))
            if classes.shape != self.classes_.shape or np.any(classes != self.classes_):
                raise ValueError(
                    f"`classes={classes!r}` is not the same as on the first call to partial_fit "
                    f"(classes_={self.classes_!r})."
                )
        self._add_batch(X, y, sample_weight)
        return self

    def _check_y(self, y, X):
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None."
            )
        y = column_or_1d(y, warn=True)
        if y.dtype.kind == "f":  # a NaN label is missing, not "continuous": say so
            _assert_all_finite(y, allow_nan=False, input_name="y")
        check_classification_targets(y)
        if y.shape[0] != X.shape[0]:
            raise ValueError(
                f"Found input variables with inconsistent numbers of samples: "
                f"[{X.shape[0]}, {y.shape[0]}]"
            )
        return y

    def _add_batch(self, X, y, sample_weight) -> None:
        sw = check_sample_weight(sample_weight, X)
        K = self.classes_.shape[0]
        idx = np.searchsorted(self.classes_, y)
        idx = np.minimum(idx, K - 1)
        unknown = self.classes_[idx] != y
        if np.any(unknown):
            raise ValueError(
                f"y contains labels not in classes_ {self.classes_!r}: "
                f"{np.unique(y[unknown])[:5]!r}."
            )
        Y = np.zeros((X.shape[0], K))  # (n, K): row i is sw_i at column y_i
        Y[np.arange(X.shape[0]), idx] = sw
        self._update_counts(X, Y)
        self._update_model()

    # -- prediction: the posterior, normalised once -----------------------------------------
    def predict_joint_log_proba(self, X):
        """J (n, K): log π_c + log P(x | c), the unnormalised log posterior."""
        check_is_fitted(self)
        return self._joint_log_likelihood(self._check_X(X, reset=False))

    def predict_log_proba(self, X):
        """log P(c | x) = J − logsumexp(J): the log posterior, rows log-sum to 0."""
        jll = self.predict_joint_log_proba(X)
        log_evidence = logsumexp(jll, axis=1, keepdims=True)  # log P(x), (n, 1)
        return jll - log_evidence

    def predict_proba(self, X):
        """P(c | x) (n, K); rows sum to one."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The maximum a posteriori class argmax_c J_ic (the evidence does not change it)."""
        jll = self.predict_joint_log_proba(X)
        return self.classes_[np.argmax(jll, axis=1)]

    # -- explanation ------------------------------------------------------------------------
    def explain(self, x, *, feature_names=None, max_features=None) -> NaiveBayesExplanation:
        """The posterior of one sample written out factor by factor.

        Returns a :class:`NaiveBayesExplanation` holding, for every class, the prior, the
        likelihood factor of each feature that contributes, their product (the unnormalised
        score ``π_c Π_j P(x_j | c)``, computed in log space) and the posterior. ``str()`` of it is
        a readable table. ``max_features`` keeps the features whose factors differ most across
        classes and folds the rest into one "other features" row, so the product is unchanged.
        """
        check_is_fitted(self)
        X = self._check_X(_one_row(x), reset=False)
        if X.shape[0] != 1:
            raise ValueError(f"explain takes one sample; got {X.shape[0]}.")
        idx, values, terms = self._explain_terms(X)
        names = _feature_names(self, feature_names)
        return NaiveBayesExplanation.build(
            estimator=type(self).__name__,
            classes=self.classes_,
            log_prior=np.asarray(self._log_prior(), dtype=np.float64),
            names=[names[j] for j in idx],
            values=list(values),
            log_terms=np.asarray(terms, dtype=np.float64).reshape(len(idx), -1),
            max_features=max_features,
        )


def _one_row(x):
    if hasattr(x, "shape") and len(x.shape) == 2:
        return x
    if hasattr(x, "to_frame") and hasattr(x, "index"):  # a pandas Series: one row
        return x.to_frame().T
    arr = np.asarray(x, dtype=object if _has_str(x) else None)
    return arr.reshape(1, -1) if arr.ndim == 1 else arr


def _has_str(x) -> bool:
    try:
        return any(isinstance(v, (str, bytes)) for v in x)
    except TypeError:
        return False


def _feature_names(est, feature_names):
    d = est.n_features_in_
    if feature_names is None:
        feature_names = getattr(est, "feature_names_in_", None)
    if feature_names is None:
        return [f"x{j}" for j in range(d)]
    names = [str(f) for f in feature_names]
    if len(names) != d:
        raise ValueError(f"feature_names has {len(names)} entries; the model has {d} features.")
    return names
