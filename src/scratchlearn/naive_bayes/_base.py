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
and data validation, ``classes_`` and sample weights. Every variant's fit is a *statistic of the
rows keyed by class*: a block of rows gives its sorted labels and, per label, counts, sums or
centred moments (built from the one-hot weighted label matrix ``Y`` (n, K), every count a
product ``Yᵀ X``); two blocks' statistics combine by taking the union of their labels and
adding (or Chan-merging) the rows of the same label. So

- ``fit`` in memory is the statistic of one block, the whole data;
- ``fit`` on a Dask array or DataFrame computes the statistic of every row block where it lives
  and tree-combines them (:func:`~scratchlearn.utils._blocks.block_reduce`): one pass over the
  data, the classes gathered in the same pass, only K·d-sized statistics travelling;
- ``partial_fit`` combines the running statistic with the new batch's, by the same function.

Subclasses implement the hooks: ``_block_stat`` and ``_combine`` (module-level functions, sent
to the workers), ``_stat_args`` (their extra arguments), ``_zero_state`` / ``_state`` /
``_set_state`` (the running statistic as attributes), ``_update_model`` (derive the
probabilities), ``_check_X`` (validation), ``_joint_log_likelihood`` and ``_explain_terms``.
"""

from __future__ import annotations

import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from ..utils._blocks import block_reduce
from ..utils._dask import check_dask_data, is_dask_collection
from ..utils.extmath import logsumexp
from ..utils.multiclass import check_classification_targets, class_codes
from ..utils.validation import (
    _assert_all_finite,
    check_is_fitted,
    check_sample_weight,
    column_or_1d,
)
from ._explain import NaiveBayesExplanation

__all__ = ["_BaseNB", "class_log_prior", "encode_labels", "one_hot", "align_classes"]


def encode_labels(y):
    """(classes (K,), idx (n,)): a block's sorted distinct labels and each row's index in them."""
    return class_codes(y)


def one_hot(idx, K, w):
    """Y (n, K): row i holds w_i (1 when ``w`` is None) in column idx_i, zeros elsewhere."""
    Y = np.zeros((idx.shape[0], K))
    Y[np.arange(idx.shape[0]), idx] = 1.0 if w is None else w
    return Y


def align_classes(a, b):
    """(classes, ia, ib): the sorted union of two blocks' labels, and where each block's rows
    go in it (None when both blocks have the same labels, the common case)."""
    if a.shape == b.shape and np.array_equal(a, b):
        return a, None, None
    classes = np.unique(np.concatenate([a, b]))
    return classes, np.searchsorted(classes, a), np.searchsorted(classes, b)


def expand_rows(M, idx, K):
    """M (K_b, ...) placed at rows ``idx`` of a zero (K, ...) array (M itself if idx is None)."""
    if idx is None:
        return M
    out = np.zeros((K,) + M.shape[1:])
    out[idx] = M
    return out


def _checked_labels(y):
    """One block of a Dask y, checked where it lives: labels, not continuous values."""
    check_classification_targets(y)
    return y


def _block_output(est, what, X):
    """The prediction ``what`` of the fitted ``est`` for validated rows X (all of them in
    memory, one row block on Dask), from the joint log-likelihood J (n, K)."""
    jll = est._joint_log_likelihood(X)
    if what == "predict":  # argmax_c J_ic: the evidence does not change it
        return est.classes_[np.argmax(jll, axis=1)]
    if what == "predict_joint_log_proba":
        return jll
    log_post = jll - logsumexp(jll, axis=1, keepdims=True)  # J − log P(x), log P(c | x)
    return log_post if what == "predict_log_proba" else np.exp(log_post)


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
    _block_stat = None  # staticmethod: (X_b, y_b, w_b, *args) -> keyed statistic (a dict)
    _combine = None  # staticmethod: (stat_a, stat_b) -> stat of the union of the two blocks

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "classes_": ("label", ("n_classes",)),
        "class_count_": ("float64", ("n_classes",)),
        "class_log_prior_": ("float64", ("n_classes",)),
    }

    def _stat_args(self) -> tuple:
        """The extra (non row-aligned) arguments of ``_block_stat``."""
        return ()

    def _check_X(self, X, *, reset: bool):
        """Validate X (fit: ``reset=True`` records n_features_in_; predict: checks it)."""
        raise NotImplementedError

    def _check_dask(self, X, y=None, sample_weight=None, *, reset: bool):
        """Validate Dask input lazily; returns row-aligned Dask (X, y, sample_weight)."""
        return check_dask_data(self, X, y, sample_weight, reset=reset)

    def _zero_state(self, d):
        """The statistic of no rows for the classes ``classes_`` and d features."""
        raise NotImplementedError

    def _state(self):
        """The running statistic, from the fitted attributes."""
        raise NotImplementedError

    def _set_state(self, stat) -> None:
        """Store a statistic (``stat["classes"]`` equals ``classes_``) as the fitted attributes."""
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

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(dask=True)
        return t

    # -- fitting ----------------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Fit on the whole of (X, y), forgetting any previous fit. Returns self.

        X may be a Dask array or DataFrame (y and sample_weight NumPy or Dask): the statistic
        is then computed block by block where the blocks live, in one pass.
        """
        self._validate_params()
        X, y, sw = self._check_data(X, y, sample_weight, reset=True)
        stat = self._batch_stat(X, y, sw)
        self.classes_ = stat["classes"]
        self._set_state(stat)
        self._update_model()
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Add one batch of (X, y) to the running statistics and refresh the model.

        ``classes`` (every label that will ever be seen) is required on the first call and, if
        passed again, must equal ``classes_``. Fitting in chunks gives the model that ``fit`` on
        the concatenated data gives (up to floating-point rounding). Returns self.
        """
        first = not hasattr(self, "classes_")
        self._validate_params()
        X, y, sw = self._check_data(X, y, sample_weight, reset=first)
        if first:
            if classes is None:
                raise ValueError(
                    "classes must be passed on the first call to partial_fit (every label that "
                    "any batch may contain)."
                )
            self.classes_ = np.unique(np.asarray(classes))
            self._set_state(self._zero_state(X.shape[1]))  # a failed first batch leaves zeros
        elif classes is not None:
            classes = np.unique(np.asarray(classes))
            if classes.shape != self.classes_.shape or np.any(classes != self.classes_):
                raise ValueError(
                    f"`classes={classes!r}` is not the same as on the first call to "
                    f"partial_fit (classes_={self.classes_!r})."
                )
        batch = self._batch_stat(X, y, sw)
        unknown = np.setdiff1d(batch["classes"], self.classes_)
        if unknown.size:
            raise ValueError(
                f"y contains labels not in classes_ {self.classes_!r}: {unknown[:5]!r}."
            )
        self._set_state(self._combine(self._state(), batch))
        self._update_model()
        return self

    def _batch_stat(self, X, y, sw):
        """The keyed statistic of one batch: in memory one call, on Dask one pass of blocks."""
        stat = block_reduce(
            self._block_stat, X, y, sw, combine=self._combine, static=self._stat_args()
        )
        if sw is not None and not np.any(self._class_weights(stat) != 0):
            # in memory check_sample_weight said so already; on Dask it is known only now
            raise ValueError("Sample weights must contain at least one non-zero weight.")
        return stat

    def _class_weights(self, stat):
        """N_c (K,) of a statistic."""
        return stat["class_count"]

    def _check_data(self, X, y, sample_weight, *, reset):
        if is_dask_collection(X):
            if y is None:
                self._check_y(y, X)  # the error for a missing y
            X, y, sw = self._check_dask(X, y, sample_weight, reset=reset)
            if y.ndim == 2 and y.shape[1] == 1:
                y = y[:, 0]
            if y.ndim != 1:
                raise ValueError(f"y should be a 1d array; got a Dask array of shape {y.shape}.")
            return X, y.map_blocks(_checked_labels, dtype=y.dtype), sw
        X = self._check_X(X, reset=reset)
        y = self._check_y(y, X)
        return X, y, check_sample_weight(sample_weight, X)

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

    # -- prediction: the posterior, normalised once -----------------------------------------
    def _output(self, X, what):
        """``what`` (a prediction method's name) of X (a Dask X is answered block by block
        before this, by :mod:`scratchlearn.utils._dask_predict`)."""
        check_is_fitted(self)
        return _block_output(self, what, self._check_X(X, reset=False))

    def predict_joint_log_proba(self, X):
        """J (n, K): log π_c + log P(x | c), the unnormalised log posterior."""
        return self._output(X, "predict_joint_log_proba")

    def predict_log_proba(self, X):
        """log P(c | x) = J − logsumexp(J): the log posterior, rows log-sum to 0."""
        return self._output(X, "predict_log_proba")

    def predict_proba(self, X):
        """P(c | x) (n, K); rows sum to one."""
        return self._output(X, "predict_proba")

    def predict(self, X):
        """The maximum a posteriori class argmax_c J_ic (the evidence does not change it)."""
        return self._output(X, "predict")

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
