"""Naive Bayes for counts (multinomial) and for binary features (Bernoulli).

Symbols: ``n`` samples, ``d`` features (vocabulary size V for text), ``K`` classes; ``N_cj`` the
(weighted) total of feature j over the samples of class c (``feature_count_``), ``N_c`` the
(weighted) number of samples of class c (``class_count_``), ``α`` the additive (Laplace)
smoothing, ``π_c`` the class prior.

Multinomial, for word counts x (the seeds' Laplace-smoothed word probabilities):

.. math::  P(w_j \\mid c) = \\frac{N_{cj} + α}{\\sum_{j'} N_{cj'} + α V}, \\qquad
           J_c = \\log π_c + \\sum_j x_j \\log P(w_j \\mid c)

Bernoulli, for presence/absence x ∈ {0, 1}:

.. math::  p_{jc} = \\frac{N_{cj} + α}{N_c + 2α}, \\qquad
           J_c = \\log π_c + \\sum_j \\big[x_j \\log p_{jc} + (1 - x_j) \\log(1 - p_{jc})\\big]

Both are linear in x, so the joint log-likelihood of a whole (sparse) matrix is one product
``X @ Wᵀ + b``. The counts are sums ``Yᵀ X`` over a one-hot label matrix, so ``partial_fit`` just
adds them up, and so does a Dask fit over row blocks (:func:`class_feature_counts`,
:func:`add_counts`).
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..utils import Bunch
from ..utils._param_validation import Interval
from ..utils.extmath import logsumexp
from ..utils.validation import check_is_fitted, check_non_negative
from ._base import (
    _BaseNB,
    _feature_names,
    align_classes,
    class_log_prior,
    encode_labels,
    expand_rows,
    one_hot,
)

__all__ = ["MultinomialNB", "BernoulliNB"]


def _log_linear(X, log_p):
    """Σ_j x_ij log p_cj (n, K) with the convention 0 · log 0 = 0.

    With ``alpha=0`` a count never seen in a class has log p = −inf; a plain product would
    turn the absent features' 0 · (−inf) into NaN. Here those zeros contribute nothing and a
    present feature of probability 0 makes the class impossible (−inf), as the formula says.
    """
    finite = np.isfinite(log_p)  # (K, d)
    if finite.all():
        return np.asarray(X @ log_p.T)
    J = np.asarray(X @ np.where(finite, log_p, 0.0).T)  # (n, K)
    present = (X != 0).astype(np.float64)  # sparse stays sparse
    impossible = np.asarray(present @ (~finite).T.astype(np.float64)) > 0  # (n, K)
    J[impossible] = -np.inf
    return J


def class_feature_counts(X, y, w):
    """The counting statistic of a block of rows (the whole data in memory), keyed by class:
    its labels, N_c = Σ_i w_i [y_i = c] and N_cj = Σ_i w_i [y_i = c] x_ij (Yᵀ X, (K, d))."""
    classes, idx = encode_labels(y)
    Y = one_hot(idx, classes.shape[0], w)  # (n, K)
    if sp.issparse(X):  # (Xᵀ Y)ᵀ: the sparse X is never densified
        counts = np.asarray((X.T @ Y).T)
    else:
        counts = Y.T @ X
    return {"classes": classes, "class_count": Y.sum(axis=0), "feature_count": counts}


def multinomial_counts(X, y, w):
    """:func:`class_feature_counts` of counts X, which must be non-negative."""
    check_non_negative(X, "MultinomialNB (input X)")
    return class_feature_counts(X, y, w)


def binarize_block(X, threshold):
    """[x > threshold] as floats (sparse stays sparse); X itself when threshold is None."""
    if threshold is None:
        return X
    if sp.issparse(X):
        X = X.copy()
        X.data = (X.data > threshold).astype(np.float64)
        return X
    return (np.asarray(X) > threshold).astype(np.float64)


def bernoulli_counts(X, y, w, threshold):
    """:func:`class_feature_counts` of the binarised X: N_cj counts the x_ij = 1 of class c."""
    return class_feature_counts(binarize_block(X, threshold), y, w)


def add_counts(a, b):
    """The counting statistic of two disjoint blocks: union of the labels, counts added."""
    classes, ia, ib = align_classes(a["classes"], b["classes"])
    K = classes.shape[0]
    out = {"classes": classes}
    for key in ("class_count", "feature_count"):
        out[key] = expand_rows(a[key], ia, K) + expand_rows(b[key], ib, K)
    return out


class _BaseDiscreteNB(_BaseNB):
    """Counting naive Bayes: ``class_count_``, ``feature_count_`` and their smoothed logs."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "feature_count_": ("float64", ("n_classes", "n_features_in_")),
        "feature_log_prob_": ("float64", ("n_classes", "n_features_in_")),
    }

    _parameter_constraints = {
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "fit_prior": ["boolean"],
        "class_prior": ["array-like", None],
    }

    def _check_X(self, X, *, reset):
        return self._validate_data(X, reset=reset, accept_sparse="csr")

    _combine = staticmethod(add_counts)

    def _zero_state(self, d):
        K = self.classes_.shape[0]
        return {
            "classes": self.classes_,
            "class_count": np.zeros(K),
            "feature_count": np.zeros((K, d)),
        }

    def _state(self):
        return {
            "classes": self.classes_,
            "class_count": self.class_count_,
            "feature_count": self.feature_count_,
        }

    def _set_state(self, stat):
        self.class_count_, self.feature_count_ = stat["class_count"], stat["feature_count"]

    def _update_model(self):
        self._update_feature_log_prob()
        self.class_log_prior_ = class_log_prior(
            self.class_count_,
            class_prior=self.class_prior,
            fit_prior=self.fit_prior,
            prior_alpha=self.alpha if getattr(self, "prior_smoothing", False) else 0.0,
        )

    # -- the log-likelihood-ratio view and the most indicative features --------------------
    def log_likelihood_ratio(self, pos_label=None) -> Bunch:
        """The seeds' two-class view: ``log P(pos)/P(neg) + Σ_j x_j · log P(w_j|pos)/P(w_j|neg)``.

        Returns a Bunch with ``feature`` (d,) = log P(w_j | pos) − log P(w_j | neg) (for
        BernoulliNB, of the feature being present) and ``prior`` = log π_pos − log π_neg.
        ``pos_label`` defaults to ``classes_[1]``. Only for two classes.
        """
        check_is_fitted(self)
        if self.classes_.shape[0] != 2:
            raise ValueError(
                f"The log-likelihood ratio needs exactly two classes; this model has "
                f"{self.classes_.shape[0]}."
            )
        pos = 1 if pos_label is None else self._class_index(pos_label)
        neg = 1 - pos
        flp, clp = self.feature_log_prob_, self.class_log_prior_
        return Bunch(
            feature=flp[pos] - flp[neg],
            prior=float(clp[pos] - clp[neg]),
            pos_label=self.classes_[pos],
            neg_label=self.classes_[neg],
        )

    def top_features(self, n=10, class_=None, *, feature_names=None) -> list:
        """The ``n`` features that most indicate ``class_`` (default: ``classes_[-1]``).

        A feature's score is ``log P(w | c) − log mean_{c' ≠ c} P(w | c')``: for two classes,
        exactly the log-likelihood ratio of :meth:`log_likelihood_ratio`. Returns a list of
        ``(name, score)`` sorted by decreasing score. ``feature_names`` (e.g. a vectoriser's
        ``get_feature_names_out()``) names the columns; default ``feature_names_in_`` or x0, x1...
        """
        check_is_fitted(self)
        c = self.classes_.shape[0] - 1 if class_ is None else self._class_index(class_)
        flp = self.feature_log_prob_
        others = np.delete(flp, c, axis=0)
        if others.shape[0] == 0:
            score = flp[c]
        else:
            score = flp[c] - (logsumexp(others, axis=0) - np.log(others.shape[0]))
        names = _feature_names(self, feature_names)
        order = np.argsort(-score, kind="stable")[: int(n)]
        return [(names[j], float(score[j])) for j in order]

    def _class_index(self, label) -> int:
        hits = np.flatnonzero(self.classes_ == label)
        if hits.size == 0:
            raise ValueError(f"{label!r} is not one of the classes {self.classes_!r}.")
        return int(hits[0])

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"], poor_score=True)
        return t


class MultinomialNB(_BaseDiscreteNB):
    """Naive Bayes for counts (bag of words), with additive smoothing.

    .. math::

        \\hat y = \\arg\\max_c \\; \\log π_c + \\sum_j x_j \\log
                  \\frac{N_{cj} + α}{\\sum_{j'} N_{cj'} + α d}

    Parameters
    ----------
    alpha : float ≥ 0, default 1.0
        Additive smoothing; 1 is the seeds' Laplace (add-one) smoothing. It is used as given:
        0 means no smoothing, and a feature never seen in a class then has log-probability −inf
        (absent, it contributes 0 · log 0 = 0; present, it makes the class impossible).
    fit_prior : bool, default True
        Learn π_c as the class frequency; False: uniform prior.
    class_prior : array-like (K,) or None
        Fixed priors (override ``fit_prior``).

    Attributes
    ----------
    classes_, class_count_ (K,), feature_count_ (K, d), feature_log_prob_ (K, d) = log P(w_j|c),
    class_log_prior_ (K,), n_features_in_.

    X may be a scipy sparse matrix (kept sparse throughout). Negative counts raise.

    Dask: X may be a Dask array or DataFrame (y, sample_weight NumPy or Dask). Each row block
    gives its labels with N_c and N_cj (:func:`multinomial_counts`); blocks add up by label
    (:func:`add_counts`), in one pass, K·(d + 1) floats per block. The counts equal the
    in-memory ones exactly when the weights are integers. Predictions of a Dask array are lazy.

    Examples
    --------
    >>> from scratchlearn.datasets import load_sms_spam
    >>> from scratchlearn.feature_extraction.text import CountVectorizer
    >>> from scratchlearn.model_selection import train_test_split
    >>> from scratchlearn.naive_bayes import MultinomialNB
    >>> docs, y = load_sms_spam(return_X_y=True)
    >>> d_train, d_test, y_train, y_test = train_test_split(docs, y, random_state=0)
    >>> vec = CountVectorizer().fit(d_train)
    >>> clf = MultinomialNB().fit(vec.transform(d_train), y_train)
    >>> print(round(clf.score(vec.transform(d_test), y_test), 3))
    0.986
    """

    _block_stat = staticmethod(multinomial_counts)

    def __init__(self, *, alpha=1.0, fit_prior=True, class_prior=None):
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior

    def _update_feature_log_prob(self):
        smoothed = self.feature_count_ + self.alpha  # N_cj + α, (K, d)
        # log P(w_j | c) = log(N_cj + α) − log(Σ_j' N_cj' + α d)
        with np.errstate(divide="ignore"):
            self.feature_log_prob_ = np.log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True))

    def _joint_log_likelihood(self, X):
        # J = X · log P(w | c)ᵀ + log π, (n, K)
        return _log_linear(X, self.feature_log_prob_) + self.class_log_prior_

    def _explain_terms(self, X):
        x = X.toarray()[0] if sp.issparse(X) else np.asarray(X)[0]
        idx = np.flatnonzero(x)
        values = [int(v) if float(v).is_integer() else float(v) for v in x[idx]]
        terms = x[idx, None] * self.feature_log_prob_[:, idx].T  # x_j log P(w_j|c), (m, K)
        return idx, values, terms

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(positive_X=True)
        return t


class BernoulliNB(_BaseDiscreteNB):
    """Naive Bayes for binary features: presence and absence both count.

    .. math::

        \\hat y = \\arg\\max_c \\; \\log π_c + \\sum_j x_j \\log p_{jc}
                  + (1 - x_j) \\log(1 - p_{jc}), \\qquad p_{jc} = \\frac{N_{cj} + α}{N_c + 2α}

    Parameters
    ----------
    alpha : float ≥ 0, default 1.0
        Additive smoothing of p_jc (and of the prior when ``prior_smoothing``).
    binarize : float or None, default 0.0
        Threshold: x_j > binarize counts as present. None: X is taken to be 0/1 already.
    fit_prior : bool, default True
        Learn π_c from the data; False: uniform prior.
    class_prior : array-like (K,) or None
        Fixed priors (override ``fit_prior``).
    prior_smoothing : bool, default False
        Laplace-smooth the learned prior as the seeds write it, π_c = (N_c + α)/(n + αK).
        Off by default, as in scikit-learn (π_c = N_c / n).

    Attributes
    ----------
    classes_, class_count_ (K,), feature_count_ (K, d) (weighted count of x_j = 1 in class c),
    feature_log_prob_ (K, d) = log p_jc, class_log_prior_ (K,), n_features_in_.

    Dask: as :class:`MultinomialNB`, each row block counting its binarised rows
    (:func:`bernoulli_counts`).

    Examples
    --------
    >>> from scratchlearn.datasets import load_spam_emails
    >>> from scratchlearn.feature_extraction.text import CountVectorizer
    >>> from scratchlearn.naive_bayes import BernoulliNB
    >>> docs, y = load_spam_emails(return_X_y=True)
    >>> vec = CountVectorizer(binary=True).fit(docs)
    >>> clf = BernoulliNB().fit(vec.transform(docs), y)
    >>> X_new = vec.transform(["cheap meds at the meeting"])
    >>> print(clf.predict(X_new).tolist(), clf.predict_proba(X_new).round(3))
    [1] [[0.308 0.692]]
    """

    _block_stat = staticmethod(bernoulli_counts)

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"_neg_log_prob": ("float64", ("n_classes", "n_features_in_"))}

    _parameter_constraints = {
        **_BaseDiscreteNB._parameter_constraints,
        "binarize": [None, Interval(numbers.Real, None, None)],
        "prior_smoothing": ["boolean"],
    }

    def __init__(
        self, *, alpha=1.0, binarize=0.0, fit_prior=True, class_prior=None, prior_smoothing=False
    ):
        self.alpha = alpha
        self.binarize = binarize
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.prior_smoothing = prior_smoothing

    def _stat_args(self):
        return (self.binarize,)

    def _prepare(self, X):
        return binarize_block(X, self.binarize)

    def _update_feature_log_prob(self):
        denom = np.log(self.class_count_ + 2.0 * self.alpha)[:, None]  # log(N_c + 2α)
        with np.errstate(divide="ignore"):
            # log p_jc and log(1 − p_jc), both straight from the counts (no 1 − exp(·) rounding)
            self.feature_log_prob_ = np.log(self.feature_count_ + self.alpha) - denom
            self._neg_log_prob = (
                np.log(self.class_count_[:, None] - self.feature_count_ + self.alpha) - denom
            )

    def _joint_log_likelihood(self, X):
        X = self._prepare(X)
        finite = np.isfinite(self.feature_log_prob_).all() and np.isfinite(self._neg_log_prob).all()
        if not finite:
            # alpha = 0 left some p_jc at 0 or 1: J = x·log p + (1 − x)·log(1 − p) with
            # 0 · log 0 = 0, on a dense X (this degenerate case only)
            X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
            jll = _log_linear(X, self.feature_log_prob_)
            return jll + _log_linear(1.0 - X, self._neg_log_prob) + self.class_log_prior_
        # J = Σ_j log(1 − p_jc) + x · [log p − log(1 − p)]ᵀ + log π, (n, K)
        W = self.feature_log_prob_ - self._neg_log_prob
        b = self._neg_log_prob.sum(axis=1) + self.class_log_prior_
        return np.asarray(X @ W.T) + b

    def _explain_terms(self, X):
        X = self._prepare(X)
        x = X.toarray()[0] if sp.issparse(X) else np.asarray(X)[0]
        present = x[:, None] != 0
        terms = np.where(present, self.feature_log_prob_.T, self._neg_log_prob.T)  # (d, K)
        return np.arange(x.shape[0]), [int(v != 0) for v in x], terms
