"""One-vs-rest: K binary learners, class k against all the others.

Symbols as :mod:`scratchlearn.multiclass._base`: learner ``h_k`` is trained on the targets
``t_i = [y_i = c_k]`` and scores ``s_k(x)``.

.. math::  \\hat y(x) = c_{\\arg\\max_k s_k(x)}, \\qquad
           P(c_k \\mid x) = \\frac{P_{h_k}(1 \\mid x)}{\\sum_j P_{h_j}(1 \\mid x)}.

The scores of different learners are only comparable if they are calibrated alike (the known
weakness of one-vs-rest), and the normalised probabilities are a heuristic, not a fitted model.
With two classes a single learner (class ``c_2`` against ``c_1``) is trained, as scikit-learn
does.
"""

from __future__ import annotations

import numpy as np

from ..utils.validation import check_is_fitted
from ._base import _BaseMultiClass, has_method

__all__ = ["OneVsRestClassifier"]


class OneVsRestClassifier(_BaseMultiClass):
    """One-vs-rest: one binary learner per class, the class of the largest score wins.

    The mathematics is in the module docstring of :mod:`scratchlearn.multiclass._ovr`.

    Parameters
    ----------
    estimator : classifier or None
        A binary classifier with ``decision_function`` or ``predict_proba``, cloned for each
        class. None means ``LogisticRegression()`` (scikit-learn has no default: it requires
        one).
    n_jobs : int or None
        Threads fitting and scoring the learners; the results do not depend on it.

    Attributes
    ----------
    estimators_ : list of K fitted learners (one when K = 2), learner k trained on the targets
        ``[y = classes_[k]]`` as 0/1 (for K = 2 on ``[y = classes_[1]]``).
    classes_, n_classes_, n_features_in_

    Notes
    -----
    ``predict`` takes the first class of largest score (``np.argmax``) and ``predict_proba``
    divides each row by its sum (a row of zeros stays zero), both as scikit-learn. One class in
    ``y`` is an error here; scikit-learn instead warns and fits a constant predictor.

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.linear_model import LogisticRegression
    >>> from scratchlearn.multiclass import OneVsRestClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> ovr = OneVsRestClassifier(LogisticRegression()).fit(X, y)
    >>> print(len(ovr.estimators_), ovr.classes_.tolist())
    3 [0, 1, 2]
    >>> print(round(ovr.score(X, y), 3))
    0.953
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    def _check_fitted_state(self):
        """One learner per class, or one for two classes."""
        K = len(self.classes_)
        if len(self.estimators_) != (1 if K == 2 else K):
            raise ValueError(f"estimators_ has {len(self.estimators_)} learners for {K} classes")

    def fit(self, X, y):
        """Fit one clone of ``estimator`` per class on ``[y = c_k]``; returns self."""
        base, X, codes = self._check_fit(X, y)
        positives = [1] if self.n_classes_ == 2 else range(self.n_classes_)
        targets = [(X, (codes == k).astype(np.int64)) for k in positives]
        self.estimators_ = self._fit_learners(base, X, targets)
        return self

    def _ovr_scores(self, X):
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, accept_sparse=("csr", "csc"), dtype=np.float64)
        return X, self._scores([X] * len(self.estimators_))  # (n, L)

    @has_method("decision_function")
    def decision_function(self, X):
        """``s_k(x)`` (n, K), or the one learner's (n,) scores when K = 2."""
        S = self._ovr_scores(X)[1]
        return S[:, 0] if self.n_classes_ == 2 else S

    def predict(self, X):
        """``c_{argmax_k s_k(x)}``; for K = 2, ``c_2`` where ``s(x) > 0`` (or P > 1/2)."""
        S = self._ovr_scores(X)[1]
        if self.n_classes_ == 2:
            threshold = 0.0 if hasattr(self.estimators_[0], "decision_function") else 0.5
            return self.classes_[(S[:, 0] > threshold).astype(np.intp)]
        return self.classes_[np.argmax(S, axis=1)]

    @has_method("predict_proba")
    def predict_proba(self, X):
        """``P_{h_k}(1 | x) / Σ_j P_{h_j}(1 | x)`` (n, K)."""
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, accept_sparse=("csr", "csc"), dtype=np.float64)
        # (n, L), stored column by column so that each row sums left to right, as scikit-learn
        P = np.array([h.predict_proba(X)[:, 1] for h in self.estimators_]).T
        if self.n_classes_ == 2:
            P = np.column_stack([1.0 - P[:, 0], P[:, 0]])
        total = P.sum(axis=1, keepdims=True)
        return np.divide(P, total, out=P, where=total != 0)

    @has_method("predict_proba")
    def predict_log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))
