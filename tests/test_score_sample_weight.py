"""``score(X, y, sample_weight=w)`` refuses a ``w`` that does not fit X as ``fit`` does: naming
``sample_weight`` and the length X needs, before anything is predicted (issue 22: the metric's
"inconsistent numbers of samples: [442, 442, 3]" named neither)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

from scratchlearn._registry import all_estimators
from scratchlearn.datasets import make_blobs, make_classification, make_regression
from scratchlearn.pipeline import make_pipeline
from scratchlearn.preprocessing import StandardScaler

N = 40


def _data(task):
    """A small valid dataset for the task; every estimator of the task can fit it: non-negative
    integer features for the classifiers (count and categorical naive Bayes, ID3) and a positive
    target for the regressors (Poisson, Gamma, Tweedie)."""
    if task == "classifier":
        X, y = make_classification(n_samples=N, n_features=4, random_state=0)
        return np.rint(np.abs(X) * 2), y
    if task == "regressor":
        X, y = make_regression(n_samples=N, n_features=4, noise=1.0, random_state=0)
        return X, y - y.min() + 1.0
    X, _ = make_blobs(n_samples=N, n_features=2, centers=3, random_state=0)
    return X, None


def _takes_sample_weight(entry):
    score = getattr(entry.cls, "score", None)
    return score is not None and "sample_weight" in inspect.signature(score).parameters


def _params():
    for e in all_estimators():
        if _takes_sample_weight(e):
            yield pytest.param(e, id=e.name)
            continue
        score = getattr(e.cls, "score", None)
        if score is None:
            reason = f"{e.name} has no score (task: {e.task})"
        else:
            shown = ", ".join(list(inspect.signature(score).parameters)[1:])
            reason = f"{e.name}.score({shown}) takes no sample_weight"
        yield pytest.param(e, id=e.name, marks=pytest.mark.skip(reason=reason))


@pytest.mark.parametrize("entry", list(_params()))
def test_score_names_sample_weight_and_expected_length(entry):
    X, y = _data(entry.task)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence on 40 rows is beside the point here
        est = entry.make().fit(X, y) if y is not None else entry.make().fit(X)
        args = (X, y) if y is not None else (X,)
        unweighted = est.score(*args)
        # A valid weight still scores (unit weights: the unweighted score)...
        assert est.score(*args, sample_weight=np.ones(N)) == pytest.approx(unweighted, rel=1e-12)

    def no_predict(*a, **k):
        raise AssertionError("score predicted before checking sample_weight")

    est.predict = no_predict  # ...and a wrong one is refused before anything is predicted
    for wrong in (3, N + 1):
        with pytest.raises(ValueError) as info:
            est.score(*args, sample_weight=np.ones(wrong))
        message = str(info.value)
        assert message.startswith(f"sample_weight has {wrong} elements, but X has {N} samples")
        assert f"expected ({N},)" in message


def test_pipeline_score_checks_sample_weight_before_transforming():
    X, y = _data("regressor")
    pipe = make_pipeline(StandardScaler(), all_estimators(task="regressor")[0].make()).fit(X, y)
    pipe.steps[0][1].transform = None  # a transform would now fail: the check comes first
    with pytest.raises(ValueError, match=rf"^sample_weight has 3 elements, but X has {N} samples"):
        pipe.score(X, y, sample_weight=[1.0, 2.0, 3.0])


def test_score_message_matches_fit_message():
    """The same words as ``fit``'s, for the same mistake."""
    entry = all_estimators(task="regressor")[0]
    X, y = _data("regressor")
    with pytest.raises(ValueError) as at_fit:
        entry.make().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError) as at_score:
        entry.make().fit(X, y).score(X, y, sample_weight=np.ones(3))
    assert str(at_score.value) == str(at_fit.value)
