"""One-vs-one: K(K − 1)/2 binary learners, one per pair of classes, and a vote.

Symbols as :mod:`scratchlearn.multiclass._base`. For each pair ``i < j`` (in the order
(0, 1), (0, 2), …, (0, K−1), (1, 2), …) learner ``h_ij`` is trained on the rows of classes
``c_i`` and ``c_j`` only, with target 0 for ``c_i`` and 1 for ``c_j``. At prediction each
learner votes for ``c_j`` when it predicts 1 and for ``c_i`` otherwise, and its score
``s_ij(x)`` (positive towards ``c_j``) is summed into a confidence per class,

.. math::  v_k(x) = \\#\\{\\text{votes for } c_k\\}, \\qquad
           S_k(x) = \\sum_{i < k} s_{ik}(x) - \\sum_{j > k} s_{kj}(x),

.. math::  D_k(x) = v_k(x) + \\frac{S_k(x)}{3(|S_k(x)| + 1)}, \\qquad
           \\hat y(x) = c_{\\arg\\max_k D_k(x)}.

The second term lies in (−1/3, 1/3), so it only breaks ties between classes with equal votes
and never overturns a difference of one vote (scikit-learn's aggregation, which LIBSVM's
multi-class SVC shares in its "ovr" decision shape). Each learner sees only two classes' rows,
so one-vs-one trains on smaller problems than one-vs-rest, but K(K − 1)/2 of them.
"""

from __future__ import annotations

import numpy as np

from ..utils.validation import check_is_fitted
from ._base import _BaseMultiClass, is_pairwise

__all__ = ["OneVsOneClassifier", "pairs", "ovo_votes", "ovo_scores"]


def pairs(K):
    """The K(K − 1)/2 pairs (i, j), i < j, in order (0, 1), (0, 2), …, (K − 2, K − 1)."""
    return [(i, j) for i in range(K) for j in range(i + 1, K)]


def ovo_votes(to_j, K):
    """``v`` (n, K): the votes of the pairs, from ``to_j`` (n, K(K − 1)/2), pairs in order,
    True where pair (i, j) votes for c_j (and so not for c_i)."""
    votes = np.zeros((to_j.shape[0], K))
    for p, (i, j) in enumerate(pairs(K)):
        votes[:, i] += ~to_j[:, p]
        votes[:, j] += to_j[:, p]
    return votes


def ovo_scores(to_j, scores, K):
    """``D = v + S / (3(|S| + 1))`` (n, K): the votes of :func:`ovo_votes` plus the squashed
    summed confidences ``S_k``, from ``scores`` (n, K(K − 1)/2), pair (i, j)'s confidence,
    positive towards c_j. The one-vs-one vote of :class:`OneVsOneClassifier` and of
    :class:`~scratchlearn.svm.SVC` (its "ovr" decision shape)."""
    S = np.zeros((scores.shape[0], K))  # summed confidences
    for p, (i, j) in enumerate(pairs(K)):
        S[:, i] -= scores[:, p]
        S[:, j] += scores[:, p]
    return ovo_votes(to_j, K) + S / (3.0 * (np.abs(S) + 1.0))


class OneVsOneClassifier(_BaseMultiClass):
    """One-vs-one: a learner per pair of classes; votes, ties broken by summed confidences.

    The mathematics is in the module docstring of :mod:`scratchlearn.multiclass._ovo`.

    Parameters
    ----------
    estimator : classifier or None
        A binary classifier with ``decision_function`` or ``predict_proba``, cloned for each
        pair. None means ``LogisticRegression()`` (scikit-learn requires one).
    n_jobs : int or None
        Threads fitting and scoring the learners; the results do not depend on it.

    Attributes
    ----------
    estimators_ : list of K(K − 1)/2 fitted learners, pairs (i, j), i < j, in lexicographic
        order, each trained on target 1 for ``classes_[j]`` and 0 for ``classes_[i]``.
    pairwise_indices_ : list of arrays or None
        For a learner that reads a precomputed kernel (its ``pairwise`` tag), the training rows
        of each pair, whose columns it reads at prediction; None otherwise (as scikit-learn).
    classes_, n_classes_, n_features_in_

    Notes
    -----
    No ``predict_proba`` (scikit-learn has none either): votes are not probabilities. For K = 2
    ``decision_function`` returns ``D_2`` only and ``predict`` thresholds it at 0 (learners with
    a decision function) or 1/2 (learners with probabilities only), as scikit-learn.

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.linear_model import LogisticRegression
    >>> from scratchlearn.multiclass import OneVsOneClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> ovo = OneVsOneClassifier(LogisticRegression()).fit(X, y)
    >>> print(len(ovo.estimators_), ovo.classes_.tolist())
    3 [0, 1, 2]
    >>> print(round(ovo.score(X, y), 3))
    0.973
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"pairwise_indices_": (None, None, "optional")}

    def _check_fitted_state(self):
        """One learner per pair of classes."""
        K = len(self.classes_)
        if len(self.estimators_) != K * (K - 1) // 2:
            raise ValueError(f"estimators_ has {len(self.estimators_)} learners for {K} classes")

    def fit(self, X, y):
        """Fit one clone of ``estimator`` per pair of classes on that pair's rows; returns self."""
        base, X, codes = self._check_fit(X, y)
        pairwise = is_pairwise(base)
        if pairwise and X.shape[0] != X.shape[1]:
            raise ValueError(
                f"{type(base).__name__} reads a precomputed (n, n) matrix, so X must be "
                f"square; got shape {X.shape}."
            )
        K = self.n_classes_
        rows = [np.flatnonzero((codes == i) | (codes == j)) for i, j in pairs(K)]
        targets = []
        for r in rows:
            Xr = X[np.ix_(r, r)] if pairwise else X[r]  # the Gram matrix of the pair's rows
            targets.append((Xr, (codes[r] != codes[r].min()).astype(np.int64)))
        self.estimators_ = self._fit_learners(base, X, targets)
        self.pairwise_indices_ = rows if pairwise else None
        return self

    def decision_function(self, X):
        """``D_k(x)`` (n, K), or ``D_2(x)`` (n,) when K = 2."""
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, accept_sparse=("csr", "csc"), dtype=np.float64)
        if self.pairwise_indices_ is None:
            Xs = [X] * len(self.estimators_)
        else:
            Xs = [X[:, r] for r in self.pairwise_indices_]
        predictions = np.column_stack([h.predict(Xk) for h, Xk in zip(self.estimators_, Xs)])
        D = ovo_scores(predictions == 1, self._scores(Xs), self.n_classes_)
        return D[:, 1] if self.n_classes_ == 2 else D

    def predict(self, X):
        """``c_{argmax_k D_k(x)}`` (first of equals)."""
        D = self.decision_function(X)
        if self.n_classes_ == 2:
            threshold = 0.0 if hasattr(self.estimators_[0], "decision_function") else 0.5
            return self.classes_[(D > threshold).astype(np.intp)]
        return self.classes_[np.argmax(D, axis=1)]
