"""Rankers on the mode-choice data (210 queries x 4 alternatives, 8 standardised features).

scikit-learn has no ranker; its counterpart of RankSVM is ``LinearSVC(fit_intercept=False)`` on
the pair differences materialised beforehand (630 pairs), so "theirs" times the SVM alone while
ours includes building the pairs from (X, y, qid). ListNet has no counterpart at all: its row
uses the same LinearSVC on the pairs as a reference for what a linear ranker costs here.

Predict: both sides score the 840 rows with one matrix-vector product after validating X (the
finiteness of X, its number of columns), theirs by the fitted LinearSVC's own
``decision_function``. A bare ``X @ coef_`` is no reference for a validated predict: the
finiteness check alone reads X once more, as long as the product itself, so no validated
predict can match it. (scikit-learn 1.9's ``check_array`` is itself slow on small arrays: about
0.25 ms for these 840 x 8, most of it in ``inspect.getattr_static``; ours validates in one pass
over X, see ``BaseRanker.predict``.)

``agree`` is |NDCG_ours − NDCG_theirs| (mean NDCG over the 210 queries, training data): 0 when
both rank every query the same way. RankSVM uses C = 0.1, where both dual coordinate descents
converge (at C = 1 both stop on max_iter on this data); ListNet alpha = 1e-3.
Target: fit well under a second (the issue); ratios are reported, not targeted.
"""

from __future__ import annotations

import functools

from sklearn.svm import LinearSVC

from benchmarks.harness import Case
from scratchlearn.metrics import ndcg_score
from scratchlearn.ranking import ListNet, RankSVM, group_queries
from scratchlearn.ranking._ranksvm import rank_pairs
from scratchlearn.ranking._showcase import load_modechoice_ranking

C = 0.1


@functools.cache
def _modechoice():
    X, y, qid, _ = load_modechoice_ranking()
    return (X - X.mean(axis=0)) / X.std(axis=0), y, qid


class _SVCOnPairs:
    """LinearSVC on pairs built before timing: fit(X, y, qid) ignores its arguments; predict
    scores rows by the fitted LinearSVC's decision function."""

    def __init__(self, Z, t):
        self.Z, self.t = Z, t

    def fit(self, X, y, qid):
        svc = LinearSVC(fit_intercept=False, C=C, dual=True, tol=1e-4, max_iter=1000)
        self.svc_ = svc.fit(self.Z, self.t)
        self.coef_ = svc.coef_.ravel()
        return self

    def predict(self, X):
        return self.svc_.decision_function(X)  # validated X, then X coef_ᵀ: (n,)


def _theirs():
    X, y, qid = _modechoice()
    Z, t, _ = rank_pairs(X, y, group_queries(qid))
    return _SVCOnPairs(Z, t)


def _ndcg_gap(ours, theirs, data):
    X, y, qid = data
    return abs(ndcg_score(y, ours.predict(X), qid=qid) - ndcg_score(y, theirs.predict(X), qid=qid))


CASES = [
    Case(
        "RankSVM squared hinge modechoice 840x8 (630 pairs)",
        _modechoice,
        lambda: RankSVM(C=C, random_state=0),
        _theirs,
        agree=_ndcg_gap,
        note="theirs: LinearSVC on the materialised pairs; predict its decision_function",
    ),
    Case(
        "ListNet softmax modechoice 840x8",
        _modechoice,
        lambda: ListNet(alpha=1e-3),
        _theirs,
        agree=_ndcg_gap,
        note="no counterpart: LinearSVC on the pairs (and its decision_function) as a reference",
    ),
]
