"""The bad-input catalogue of DESIGN.md, applied to every registered estimator.

Each case must raise the documented exception, with a message naming the problem, before any
work is done; and fitting or predicting must never modify the caller's arrays.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from _data import problem_for  # tests/ is on sys.path (rootdir conftest)
from scratchlearn._registry import all_estimators
from scratchlearn.exceptions import NotFittedError

ENTRIES = [e for e in all_estimators() if e.common_checks or e.task == "text"]


def _importable(entry):
    try:
        _ = entry.cls
    except (ImportError, AttributeError):
        return False
    return True


ENTRIES = [e for e in ENTRIES if _importable(e)]
NUMERIC = [
    e
    for e in ENTRIES
    if e.task != "text" and e.name not in ("OneHotEncoder", "OrdinalEncoder", "CategoricalNB")
]
ids = lambda entries: [e.name for e in entries]  # noqa: E731


def _fit(est, X, y, **kw):
    return est.fit(X, **kw) if y is None else est.fit(X, y, **kw)


def _apply(est, X):
    for method in ("predict", "transform"):
        if hasattr(est, method):
            return getattr(est, method)(X)
    raise AssertionError(f"{type(est).__name__} has neither predict nor transform")


def _good_fit(entry):
    X, y = problem_for(entry)
    return _fit(entry.make(), X, y), X, y


@pytest.mark.parametrize("entry", NUMERIC, ids=ids(NUMERIC))
@pytest.mark.parametrize(
    "case, match",
    [
        ("nan", "NaN"),
        ("inf", "infinity"),
        ("empty", r"0 sample\(s\)"),
        ("3d", "dim 3"),
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
    with pytest.raises(ValueError, match=match):
        _fit(entry.make(), X, y)


@pytest.mark.parametrize("entry", NUMERIC, ids=ids(NUMERIC))
def test_predict_rejects_bad_X(entry):
    est, X, _ = _good_fit(entry)
    X = np.array(X, dtype=float)
    with pytest.raises(ValueError, match=f"X has {X.shape[1] - 1} features, but {entry.name}"):
        _apply(est, X[:, :-1])
    bad = X[:5].copy()
    bad[0, 0] = np.nan
    if not est._scratch_tags()["allow_nan"]:
        with pytest.raises(ValueError, match="NaN"):
            _apply(est, bad)
    with pytest.raises(ValueError, match="2-dimensional"):
        _apply(est, X[0])


@pytest.mark.parametrize("entry", NUMERIC, ids=ids(NUMERIC))
def test_single_sample_and_single_class(entry):
    """One sample (or one class) either fits to a well-defined model or fails clearly."""
    X, y = problem_for(entry)
    est = entry.make()
    try:
        _fit(est, X[:1], None if y is None else y[:1])
    except ValueError as exc:
        assert any(w in str(exc) for w in ("sample", "class")), str(exc)
    else:
        out = np.asarray(_apply(est, X[:2]))
        if out.dtype.kind == "f":
            assert np.all(np.isfinite(out))


@pytest.mark.parametrize("entry", ENTRIES, ids=ids(ENTRIES))
def test_predict_before_fit(entry):
    X, y = problem_for(entry)
    est = entry.make()
    if not est._scratch_tags()["requires_fit"]:
        # Stateless transformers (as in scikit-learn) must work unfitted, and equal a fitted one.
        np.testing.assert_array_equal(_apply(est, X), _apply(_fit(entry.make(), X, y), X))
        return
    with pytest.raises(NotFittedError, match=f"This {entry.name} instance is not fitted yet"):
        _apply(est, X)


FIT_WITH_WEIGHTS = [
    e for e in ENTRIES if "sample_weight" in inspect.signature(e.cls.fit).parameters
]


@pytest.mark.parametrize("entry", FIT_WITH_WEIGHTS, ids=ids(FIT_WITH_WEIGHTS))
def test_sample_weight_of_wrong_length_or_sign(entry):
    X, y = problem_for(entry)
    n = len(X)
    with pytest.raises(ValueError, match="sample_weight"):
        _fit(entry.make(), X, y, sample_weight=np.ones(n - 1))
    w = np.ones(n)
    w[0] = -1.0
    with pytest.raises(ValueError, match="sample_weight"):
        _fit(entry.make(), X, y, sample_weight=w)


@pytest.mark.parametrize("entry", ENTRIES, ids=ids(ENTRIES))
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
    "docs",
    [
        pytest.param("a single string, not a list of documents", id="bare-string"),
        pytest.param([1, 2, 3], id="numbers"),
        pytest.param(["fine text", None], id="none-entry"),
        pytest.param([], id="empty"),
        pytest.param(["", "  "], id="no-tokens"),
    ],
)
def test_text_input_errors(entry, docs):
    with pytest.raises(ValueError):
        entry.make().fit(docs)
