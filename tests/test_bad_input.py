"""The bad-input catalogue of DESIGN.md, applied to every registered estimator.

Each case must raise the documented exception, with a message naming the problem, before any
work is done; and fitting or predicting must never modify the caller's arrays.
"""

from __future__ import annotations

import inspect
import numbers
import re

import numpy as np
import pytest

from _data import problem_for  # tests/ is on sys.path (rootdir conftest)
from scratchlearn._registry import all_estimators
from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.utils._param_validation import Interval, StrOptions

ENTRIES = [e for e in all_estimators() if e.common_checks or e.task in ("text", "sequence")]


def _importable(entry):
    try:
        _ = entry.cls
    except (ImportError, AttributeError):
        return False
    return True


ENTRIES = [e for e in ENTRIES if _importable(e)]


def _categorical(entry) -> bool:
    """Reads categories (strings or codes): declared by its X_types tag, not by its name."""
    return "categorical" in entry.cls()._scratch_tags()["X_types"]


NUMERIC = [e for e in ENTRIES if e.task not in ("text", "sequence") and not _categorical(e)]
ids = lambda entries: [e.name for e in entries]  # noqa: E731


def _fit(est, X, y, **kw):
    return est.fit(X, **kw) if y is None else est.fit(X, y, **kw)


def _apply(est, X):
    """What the fitted estimator answers for X: its predictions, its transform, or (a neighbour
    index, task "neighbors") the distances and indices of the nearest training rows."""
    for method in ("predict", "transform", "kneighbors"):
        if hasattr(est, method):
            return getattr(est, method)(X)
    raise AssertionError(f"{type(est).__name__} has neither predict, transform nor kneighbors")


# Every method that uses a fitted model (scikit-learn's check_estimators_unfitted covers the
# first six; it is skipped in test_common.py because it wants its own NotFittedError class).
PREDICT_METHODS = (
    "predict",
    "decision_function",
    "predict_proba",
    "predict_log_proba",
    "predict_joint_log_proba",
    "transform",
    "inverse_transform",
    "score",
    "kneighbors",
    "radius_neighbors",
)


def _methods(est):
    found = [m for m in PREDICT_METHODS if hasattr(est, m)]
    assert found, f"{type(est).__name__} has no prediction method"
    return found


def _call(est, method, X, y):
    if method == "score":
        return est.score(X, y) if y is not None else est.score(X)
    return getattr(est, method)(X)


def _good_fit(entry):
    X, y = problem_for(entry)
    return _fit(entry.make(), X, y), X, y


@pytest.mark.parametrize("entry", NUMERIC, ids=ids(NUMERIC))
@pytest.mark.parametrize(
    "case, match",
    [
        ("nan", "Input X contains NaN"),
        ("inf", "Input X contains infinity"),
        pytest.param("empty", r"Found array with 0 sample\(s\) \(shape=\(0, \d+\)\)", id="empty"),
        ("3d", "Found array with dim 3 for X"),
        ("strings", "not numbers"),
    ],
)
def test_fit_rejects_bad_X(entry, case, match):
    X, y = problem_for(entry)
    X = np.array(X, dtype=float)
    if case == "nan":
        X[3, 1] = np.nan
    elif case == "inf":
        X[3, 1] = np.inf
    elif case == "empty":
        X, y = X[:0], None if y is None else y[:0]
    elif case == "3d":
        X = X[:, :, None]
    elif case == "strings":
        X = X.astype(object)
        X[0, 0] = "seven"
    if case in ("nan",) and entry.make()._scratch_tags()["allow_nan"]:
        pytest.skip(f"{entry.name} supports NaN")  # reason: declared by its allow_nan tag
    if case == "empty":  # the message names the estimator that refused the empty array
        match += f" while a minimum of 1 is required by {entry.name}"
    with pytest.raises(ValueError, match=match):
        _fit(entry.make(), X, y)


@pytest.mark.parametrize("entry", NUMERIC, ids=ids(NUMERIC))
def test_predict_rejects_bad_X(entry):
    """Every prediction method checks its X: feature count, NaN, infinity, 1-d, empty."""
    est, X, y = _good_fit(entry)
    X = np.array(X, dtype=float)
    y5 = None if y is None else y[:5]
    nan, inf = X[:5].copy(), X[:5].copy()
    nan[0, 0], inf[0, 0] = np.nan, np.inf
    for method in _methods(est):
        if method == "inverse_transform":
            continue  # its input lives in the output space: checked by the module's own tests
        d = X.shape[1] - 1
        with pytest.raises(ValueError, match=f"X has {d} features, but {entry.name} is expecting"):
            _call(est, method, X[:, :-1], y)
        if not est._scratch_tags()["allow_nan"]:
            with pytest.raises(ValueError, match="Input X contains NaN"):
                _call(est, method, nan, y5)
        with pytest.raises(ValueError, match="Input X contains infinity"):
            _call(est, method, inf, y5)
        with pytest.raises(ValueError, match="Expected a 2-dimensional array for X"):
            _call(est, method, X[0], None if y is None else y[:1])
        with pytest.raises(ValueError, match=f"0 sample.*required by {entry.name}"):
            _call(est, method, X[:0], None if y is None else y[:0])


CATEGORICAL = [e for e in ENTRIES if _categorical(e)]


@pytest.mark.parametrize("entry", CATEGORICAL, ids=ids(CATEGORICAL))
def test_categorical_predict_rejects_bad_X(entry):
    est, X, _ = _good_fit(entry)
    with pytest.raises(ValueError, match=f"X has 2 features, but {entry.name} is expecting 3"):
        _apply(est, X[:, :2])
    with pytest.raises(ValueError, match="Expected a 2-dimensional array for X"):
        _apply(est, X[0])
    with pytest.raises(ValueError, match=f"0 sample.*required by {entry.name}"):
        _apply(est, X[:0])
    missing = X[:5].copy()
    missing[0, 1] = None
    # a category never seen in fit: the encoders refuse it by default (handle_unknown="error");
    # naive Bayes scores unseen values, but a missing one (None) it refuses
    match = (
        "missing values \\(None or NaN\\) in feature 1"
        if entry.task == "classifier"
        else ("Found unknown categories \\[None\\] in column 1")
    )
    with pytest.raises(ValueError, match=match):
        _apply(est, missing)


@pytest.mark.parametrize("entry", NUMERIC, ids=ids(NUMERIC))
def test_single_sample(entry):
    """One sample fits a well-defined model (finite output), or, for a classifier that needs
    two classes or a clusterer asked for more clusters than samples, fails saying so."""
    X, y = problem_for(entry)
    est = entry.make()
    try:
        _fit(est, X[:1], None if y is None else y[:1])
    except ValueError as exc:
        if entry.task == "clusterer":  # more clusters than samples: refused, saying so
            assert "n_clusters" in str(exc), str(exc)
            return
        assert entry.task == "classifier", f"{entry.name} refused one sample: {exc}"
        assert "at least 2 classes" in str(exc), str(exc)
    else:
        out = np.asarray(_apply(est, X[:2]))
        if out.dtype.kind == "f":
            assert np.all(np.isfinite(out))


CLASSIFIERS = [e for e in ENTRIES if e.task == "classifier"]


@pytest.mark.parametrize("entry", CLASSIFIERS, ids=ids(CLASSIFIERS))
def test_single_class(entry):
    """Labels of one class: refused with a message saying two are needed, or a model that
    predicts that class with probability one."""
    X, y = problem_for(entry)
    one = np.full(len(y), y[0])
    est = entry.make()
    try:
        est.fit(X, one)
    except ValueError as exc:
        assert re.search(r"at least 2 classes.*only one class", str(exc)), str(exc)
    else:
        np.testing.assert_array_equal(est.predict(X), one)
        if hasattr(est, "predict_proba"):
            np.testing.assert_array_equal(est.predict_proba(X), np.ones((len(y), 1)))


@pytest.mark.parametrize("entry", CLASSIFIERS, ids=ids(CLASSIFIERS))
def test_classifier_rejects_nan_labels(entry):
    X, y = problem_for(entry)
    y = np.asarray(y, dtype=float)
    y[3] = np.nan
    with pytest.raises(ValueError, match="Input y contains NaN"):
        entry.make().fit(X, y)


REGRESSORS = [e for e in ENTRIES if e.task == "regressor"]


@pytest.mark.parametrize("entry", REGRESSORS, ids=ids(REGRESSORS))
@pytest.mark.parametrize(
    "case, match",
    [
        ("nan", "Input y contains NaN"),
        ("inf", "Input y contains infinity"),
        ("string", "y contains strings or other values that are not numbers"),
        ("short", r"inconsistent numbers of samples: \[\d+, \d+\]"),
    ],
)
def test_regressor_rejects_bad_y(entry, case, match):
    X, y = problem_for(entry)
    y = np.asarray(y, dtype=float)
    if case == "nan":
        y[3] = np.nan
    elif case == "inf":
        y[3] = np.inf
    elif case == "string":
        y = y.astype(object)
        y[3] = "seven"
    elif case == "short":
        y = y[:-1]
    with pytest.raises(ValueError, match=match):
        entry.make().fit(X, y)


@pytest.mark.parametrize("entry", ENTRIES, ids=ids(ENTRIES))
def test_predict_before_fit(entry):
    """Every method that needs a fitted model raises scratchlearn's NotFittedError naming the
    estimator (the replacement for scikit-learn's check_estimators_unfitted)."""
    X, y = problem_for(entry)
    est = entry.make()
    if not est._scratch_tags()["requires_fit"]:
        # Stateless transformers (as in scikit-learn) must work unfitted, and equal a fitted one.
        np.testing.assert_array_equal(_apply(est, X), _apply(_fit(entry.make(), X, y), X))
        return
    for method in _methods(est):
        with pytest.raises(NotFittedError, match=f"This {entry.name} instance is not fitted yet"):
            _call(est, method, X, y)
    if hasattr(est, "explain"):
        with pytest.raises(NotFittedError, match=f"This {entry.name} instance is not fitted yet"):
            est.explain(X[0])


def _out_of_range(constraints):
    """(value, what) pairs outside a parameter's declared range: below an Interval's left end,
    above its right end, or a string that is not among its StrOptions. None when every
    constraint is open (a value outside cannot be built from the declaration alone)."""
    for c in constraints:
        if isinstance(c, Interval) and c.left is not None:
            step = 1 if c.type is numbers.Integral else 0.5
            return c.left - step
        if isinstance(c, Interval) and c.right is not None:
            return c.right + (1 if c.type is numbers.Integral else 0.5)
        if isinstance(c, StrOptions):
            return "no-such-option"
    return None


HYPER = [
    pytest.param(e, name, bad, id=f"{e.name}-{name}")
    for e in ENTRIES
    for name, constraints in getattr(e.cls, "_parameter_constraints", {}).items()
    if (bad := _out_of_range(constraints)) is not None
    and not any(isinstance(c, Interval) and c.is_satisfied_by(bad) for c in constraints)
    and not any(isinstance(c, StrOptions) and bad in c.options for c in constraints)
]


@pytest.mark.parametrize("entry, param, bad", HYPER)
def test_out_of_range_hyperparameter(entry, param, bad):
    X, y = problem_for(entry)
    est = entry.make()
    est.set_params(**{param: bad})
    with pytest.raises(
        InvalidParameterError, match=f"The '{param}' parameter of {entry.name} must be"
    ):
        _fit(est, X, y)
    assert getattr(est, param) == bad  # fit never rewrites a hyperparameter


FIT_WITH_WEIGHTS = [
    e for e in ENTRIES if "sample_weight" in inspect.signature(e.cls.fit).parameters
]


@pytest.mark.parametrize("entry", FIT_WITH_WEIGHTS, ids=ids(FIT_WITH_WEIGHTS))
def test_sample_weight_of_wrong_length_sign_or_shape(entry):
    X, y = problem_for(entry)
    n = len(X)
    with pytest.raises(ValueError, match=f"sample_weight has {n - 1} elements, but X has {n}"):
        _fit(entry.make(), X, y, sample_weight=np.ones(n - 1))
    w = np.ones(n)
    w[0] = -1.0
    with pytest.raises(ValueError, match="Negative values in sample_weight are not allowed"):
        _fit(entry.make(), X, y, sample_weight=w)
    w[0] = np.nan
    with pytest.raises(ValueError, match="Input sample_weight contains NaN"):
        _fit(entry.make(), X, y, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight must be a 1D array or a scalar"):
        _fit(entry.make(), X, y, sample_weight=np.ones((n, 2)))


ARRAY_INPUT = [e for e in ENTRIES if e.task != "sequence"]  # sequences: see the end


@pytest.mark.parametrize("entry", ARRAY_INPUT, ids=ids(ARRAY_INPUT))
def test_caller_arrays_are_not_modified(entry):
    X, y = problem_for(entry)
    X_before = X.copy()
    y_before = None if y is None else np.copy(y)
    kw = {}
    if entry in FIT_WITH_WEIGHTS:
        w = np.linspace(0.5, 2.0, len(X))
        kw["sample_weight"] = w
        w_before = w.copy()
    est = _fit(entry.make(), X, y, **kw)
    _apply(est, X)
    np.testing.assert_array_equal(X, X_before)
    if y is not None:
        np.testing.assert_array_equal(y, y_before)
    if kw:
        np.testing.assert_array_equal(kw["sample_weight"], w_before)


TEXT = [e for e in ENTRIES if e.task == "text"]


@pytest.mark.parametrize("entry", TEXT, ids=ids(TEXT))
@pytest.mark.parametrize(
    "docs, match",
    [
        pytest.param(
            "a single string, not a list", "but a single str was passed", id="bare-string"
        ),
        pytest.param([1, 2, 3], "Document 0 is int 1", id="numbers"),
        pytest.param(["fine text", None], "Document 1 is NoneType None", id="none-entry"),
        pytest.param([], "empty vocabulary", id="empty"),
        pytest.param(
            ["", "  "], "empty vocabulary: the documents contain no tokens", id="no-tokens"
        ),
    ],
)
def test_text_input_errors(entry, docs, match):
    with pytest.raises(ValueError, match=match):
        entry.make().fit(docs)


SEQUENCE = [e for e in ENTRIES if e.task == "sequence"]


def _bad_sequences(case, X, y):
    """(sequences, label sequences) with one defect; the good ones are lists of token lists."""
    X, y = [list(s) for s in X], [list(t) for t in y]
    if case == "lengths":
        y[2] = y[2][:-1]
    elif case == "count":
        y = y[:-1]
    elif case == "non-string":
        X[1][0] = 3.5
    elif case == "bare-string":
        X[0] = " ".join(X[0])
    elif case == "empty":
        X, y = [], []
    return X, y


@pytest.mark.parametrize("entry", SEQUENCE, ids=ids(SEQUENCE))
@pytest.mark.parametrize(
    "case, match",
    [
        pytest.param(
            "lengths", r"sentence 2 has \d+ tokens but \d+ tags in label_sequences", id="lengths"
        ),
        pytest.param(
            "count", r"sequences has \d+ sentences but label_sequences has \d+", id="count"
        ),
        pytest.param("non-string", r"sequences\[1\]\[0\] is float 3.5, not a str", id="non-string"),
        pytest.param(
            "bare-string",
            r"sequences\[0\] is str '.*', not a list of token strings",
            id="bare-string",
        ),
        pytest.param("empty", "sequences is empty", id="empty"),
    ],
)
def test_sequence_input_errors(entry, case, match):
    X, y = _bad_sequences(case, *problem_for(entry))
    with pytest.raises(ValueError, match=match):
        entry.make().fit(X, y)


@pytest.mark.parametrize("entry", SEQUENCE, ids=ids(SEQUENCE))
def test_sequence_predict_and_score_errors(entry):
    X, y = problem_for(entry)
    est = entry.make().fit(X, y)
    with pytest.raises(ValueError, match=r"sequences\[0\]\[1\] is NoneType None, not a str"):
        est.predict([["a", None]])
    unseen = [["TAG-NEVER-SEEN"] * len(s) for s in X]
    with pytest.raises(ValueError, match=r"tags not seen in fit: \['TAG-NEVER-SEEN'\]"):
        est.score(X, unseen)


@pytest.mark.parametrize("entry", SEQUENCE, ids=ids(SEQUENCE))
def test_caller_sequences_are_not_modified(entry):
    import copy

    X, y = problem_for(entry)
    X_before, y_before = copy.deepcopy(X), copy.deepcopy(y)
    est = entry.make().fit(X, y)
    est.predict(X)
    est.score(X, y)
    assert X == X_before and y == y_before
