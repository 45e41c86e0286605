"""GroupShuffleSplit, and a ranker's qid through cross_validate / cross_val_score / GridSearchCV."""

import numpy as np
import pytest
from sklearn.model_selection import GroupShuffleSplit as SkGroupShuffleSplit

from scratchlearn.metrics import ndcg_score
from scratchlearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    GroupShuffleSplit,
    cross_val_score,
    cross_validate,
    validation_curve,
)


@pytest.mark.parametrize(
    "test_size, train_size", [(None, None), (0.3, None), (None, 0.5), (3, 4), (0.25, 0.5)]
)
def test_group_shuffle_split_keeps_groups_whole_with_sklearn_sizes(test_size, train_size):
    rng = np.random.default_rng(0)
    groups = rng.permutation(np.repeat(np.arange(11) * 7, rng.integers(1, 5, 11)))
    X = np.zeros((groups.shape[0], 2))
    ours = GroupShuffleSplit(4, test_size=test_size, train_size=train_size, random_state=0)
    theirs = SkGroupShuffleSplit(4, test_size=test_size, train_size=train_size, random_state=0)
    pairs = list(ours.split(X, groups=groups))
    assert len(pairs) == ours.get_n_splits() == 4
    for (tr, te), (str_, ste) in zip(pairs, theirs.split(X, groups=groups), strict=True):
        assert not set(groups[tr]) & set(groups[te])
        # whole groups: every row of a group drawn is on its side
        assert np.array_equal(np.sort(tr), np.flatnonzero(np.isin(groups, groups[tr])))
        assert np.array_equal(np.sort(te), np.flatnonzero(np.isin(groups, groups[te])))
        # the same numbers of groups as scikit-learn (not the same draw)
        assert len(set(groups[tr])) == len(set(groups[str_]))
        assert len(set(groups[te])) == len(set(groups[ste]))
    again = list(ours.split(X, groups=groups))  # an int seed repeats the splits
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(pairs, again, strict=True))
    assert len({tuple(te) for _, te in pairs}) > 1  # ... but the splits differ from each other


def test_group_shuffle_split_bad_input():
    X = np.zeros((6, 1))
    with pytest.raises(ValueError, match="needs the 'groups' parameter"):
        next(GroupShuffleSplit().split(X))
    with pytest.raises(ValueError, match="one label per sample"):
        next(GroupShuffleSplit().split(X, groups=[1, 2]))
    with pytest.raises(ValueError, match="sizes count groups"):
        next(GroupShuffleSplit(test_size=5).split(X, groups=[1, 1, 2, 2, 3, 3]))
    with pytest.raises(ValueError, match="n_splits must be a positive int"):
        GroupShuffleSplit(0)


class _MeanRanker:
    """A stand-in ranker: scores x·w with w the per-query-centred least squares fit; it records
    the qid it was fitted and scored with."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def get_params(self, deep=True):
        return {"alpha": self.alpha}

    def set_params(self, **params):
        self.alpha = params.get("alpha", self.alpha)
        return self

    def fit(self, X, y, qid=None):
        if qid is None or len(qid) != len(y):
            raise ValueError("qid must have one id per row")
        self.fit_qid_ = np.asarray(qid)
        A = X.T @ X + self.alpha * np.eye(X.shape[1])
        self.coef_ = np.linalg.solve(A, X.T @ y)
        return self

    def predict(self, X):
        return X @ self.coef_

    def score(self, X, y, qid=None):
        return ndcg_score(y, self.predict(X), qid=qid, k=3)


def _ltr_data():
    rng = np.random.default_rng(3)
    qid = np.repeat(np.arange(20), 6)[rng.permutation(120)]  # queries interleaved
    X = rng.normal(size=(120, 3))
    y = np.clip(np.round(X @ [1.0, -0.5, 0.2] + rng.normal(scale=0.5, size=120)), 0, 3)
    return X, y, qid


def test_cross_validate_slices_qid_for_fit_and_score():
    X, y, qid = _ltr_data()
    cv = GroupKFold(4)
    out = cross_validate(
        _MeanRanker(), X, y, groups=qid, cv=cv, params={"qid": qid}, return_estimator=True
    )
    for est, (tr, te), score in zip(
        out["estimator"], cv.split(X, y, qid), out["test_score"], strict=True
    ):
        assert np.array_equal(est.fit_qid_, qid[tr])
        assert score == pytest.approx(ndcg_score(y[te], est.predict(X[te]), qid=qid[te], k=3))
        # scored per query: differs from treating the test rows as one query
        assert score != pytest.approx(ndcg_score(y[te], est.predict(X[te]), k=3))
    scores = cross_val_score(_MeanRanker(), X, y, groups=qid, cv=cv, params={"qid": qid})
    np.testing.assert_array_equal(scores, out["test_score"])


def test_grid_search_passes_qid_and_refits_with_it():
    X, y, qid = _ltr_data()
    cv = GroupShuffleSplit(3, test_size=0.25, random_state=0)
    search = GridSearchCV(_MeanRanker(), {"alpha": [0.1, 1e4]}, cv=cv).fit(
        X, y, groups=qid, qid=qid
    )
    assert np.array_equal(search.best_estimator_.fit_qid_, qid)
    for j, alpha in enumerate([0.1, 1e4]):
        for k, (tr, te) in enumerate(cv.split(X, y, qid)):
            est = _MeanRanker(alpha).fit(X[tr], y[tr], qid=qid[tr])
            want = ndcg_score(y[te], est.predict(X[te]), qid=qid[te], k=3)
            assert search.cv_results_[f"split{k}_test_score"][j] == pytest.approx(want)
    assert search.score(X, y, qid=qid) == pytest.approx(search.best_estimator_.score(X, y, qid))


def test_a_scorer_without_qid_is_refused():
    X, y, qid = _ltr_data()
    with pytest.raises(ValueError, match="does not take qid"):
        cross_validate(
            _MeanRanker(), X, y, scoring="r2", cv=GroupKFold(3), groups=qid, params={"qid": qid}
        )


def test_validation_curve_scores_per_query():
    X, y, qid = _ltr_data()
    cv = GroupKFold(3)
    _, test = validation_curve(
        _MeanRanker(),
        X,
        y,
        param_name="alpha",
        param_range=[1.0],
        cv=cv,
        groups=qid,
        params={"qid": qid},
    )
    for k, (tr, te) in enumerate(cv.split(X, y, qid)):
        est = _MeanRanker().fit(X[tr], y[tr], qid=qid[tr])
        assert test[0, k] == pytest.approx(est.score(X[te], y[te], qid=qid[te]))


def test_a_ranker_in_a_pipeline_is_scored_per_query():
    """``params={"<step>__qid": qid}`` fits the ranker inside a pipeline with its queries; the
    test folds must be scored per query too (they were scored as one query each: a silently
    wrong number, 0.977 against 0.930 in the report that found it)."""
    from scratchlearn.pipeline import make_pipeline
    from scratchlearn.preprocessing import StandardScaler
    from scratchlearn.ranking import ListNet

    X, y, qid = _ltr_data()
    cv = GroupKFold(3)
    pipe = make_pipeline(StandardScaler(), ListNet())
    out = cross_validate(
        pipe, X, y, groups=qid, cv=cv, params={"listnet__qid": qid}, return_estimator=True
    )
    for est, (_, te), score in zip(
        out["estimator"], cv.split(X, y, qid), out["test_score"], strict=True
    ):
        want = est.score(X[te], y[te], qid=qid[te])
        assert score == want  # the same computation: exactly equal
        assert score != pytest.approx(est.score(X[te], y[te]))  # not the one-query number


def test_several_query_ids_among_the_fit_parameters_are_refused():
    from scratchlearn.pipeline import make_pipeline
    from scratchlearn.preprocessing import StandardScaler

    X, y, qid = _ltr_data()
    pipe = make_pipeline(StandardScaler(), _MeanRanker())
    with pytest.raises(ValueError, match="several query ids"):
        cross_validate(
            pipe, X, y, cv=GroupKFold(3), groups=qid,
            params={"_meanranker__qid": qid, "standardscaler__qid": qid.copy()},
        )  # fmt: skip
