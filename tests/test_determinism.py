"""The same result every run, for every registered estimator.

* Two fits with the same integer ``random_state`` are bit-identical: every fitted attribute
  (recursively through nested estimators, tree structures, lists and dicts) has the same bytes,
  and so has every output (``predict``, ``predict_proba``, ``transform``, ...).
* ``n_jobs`` = 1, 2 and −1 give bit-identical fits wherever the estimator has ``n_jobs``: every
  task's seed is drawn before any thread starts (``utils.parallel.spawn_seeds``) and results are
  joined in task order.
* The BLAS thread count (``threadpoolctl``): a fit under one BLAS thread equals the fit under
  two, bit for bit, on the small problems for every estimator; on a problem large enough for
  OpenBLAS to split its products, the estimators of :data:`BLAS_DEPENDENT` differ by rounding,
  within the bound listed there (which their docstrings must state).

The helpers here (:func:`fit`, :func:`outputs`, :func:`fitted_state`, :func:`same`) are shared
with ``test_threads.py`` and ``test_common_clustering.py``.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from scratchlearn._registry import all_estimators

try:
    from tests._data import problem_for
except ImportError:  # pragma: no cover - running the file on its own
    from _data import problem_for

#: The methods whose results are compared (``score`` gets y when the problem has one).
METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "transform",
    "score_samples",
    "kneighbors",
    "score",
)

#: Estimators whose results depend on the number of BLAS threads, with the largest relative
#: difference of their outputs seen between one and two OpenBLAS threads on the 800 × 40 problem
#: of :func:`_medium_problem`, times 10. OpenBLAS splits a long product (a sum over samples in a
#: Gram matrix or a gradient, over support vectors in a decision value) between threads, which
#: changes the order of the sum: a few ulps per product, amplified by a solve by the condition
#: number of its matrix. Measured (1 vs 2 threads, 1000 × 40): LogisticRegression (Newton)
#: coef_ 1.8e-16, decision values 3.4e-16; SVC decision values 2.0e-16 (fitted state
#: identical); SVR predictions 2.0e-16 on 2652 × 70 (state identical); PolynomialRegression
#: (degree 2 on 20 features) coef_ 4.3e-12, predictions 3.4e-13, and 5.2e-11 on 2652 × 70.
#: Every other estimator gave identical bits on the same problems.
BLAS_DEPENDENT: dict[str, float] = {
    "LogisticRegression": 1e-14,
    "SVC": 1e-14,
    "SVR": 1e-14,
    "PolynomialRegression": 1e-9,
}


def _importable(entry):
    try:
        _ = entry.cls
    except (ImportError, AttributeError):
        return False
    return True


ENTRIES = [e for e in all_estimators() if _importable(e)]
LABEL_TRANSFORMERS = ("LabelEncoder", "LabelBinarizer")


def make(entry, **params):
    """A new instance with the common checks' parameters, ``random_state=0`` where it exists."""
    est = entry.make()
    if "random_state" in est.get_params(deep=False):
        est.set_params(random_state=0)
    return est.set_params(**params)


def fit(est, X, y):
    """``est`` fitted on the problem (X, y) of :func:`tests._data.problem_for`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if X is None:
            return est.fit(y)  # label transformers fit y alone
        if y is None:
            return est.fit(X)
        return est.fit(X, y)


def _as_comparable(result):
    if isinstance(result, tuple):  # kneighbors: (distances, indices)
        return tuple(_as_comparable(r) for r in result)
    if isinstance(result, list):  # a sequence labeller's tag lists
        return np.asarray([t for seq in result for t in seq] + [len(seq) for seq in result])
    if sp.issparse(result):
        return result.toarray()
    return np.asarray(result)


def call(est, method, X, y):
    """``est.method`` on the training problem, as an array (tuple for kneighbors), or None when
    the estimator does not offer it (no such method, or not for these parameters)."""
    if not hasattr(est, method):
        return None
    arg = y if type(est).__name__ in LABEL_TRANSFORMERS else X
    if method == "score" and type(est).__name__ in LABEL_TRANSFORMERS:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if method == "score" and y is not None:
                result = est.score(X, y)
            else:
                result = getattr(est, method)(arg)
    except (AttributeError, NotImplementedError):  # e.g. predict_proba only for some params
        return None
    return _as_comparable(result)


def outputs(est, X, y, methods=METHODS):
    """``{method: result}`` for every method of ``methods`` that ``est`` offers."""
    out = {}
    for m in methods:
        r = call(est, m, X, y)
        if r is not None:
            out[m] = r
    return out


def same(a, b) -> bool:
    """Bit-identical: same type, dtype, shape and bytes (NaN equal to NaN, −0.0 ≠ 0.0)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (
            isinstance(a, tuple)
            and isinstance(b, tuple)
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b))
        )
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype == object:
        return all(
            same(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a.flat, b.flat)
        )
    return a.tobytes() == b.tobytes()


def fitted_state(obj, path="", out=None, depth=0) -> dict:
    """``{path: value}`` of everything an estimator learned: its attributes ending in ``_``,
    followed into nested estimators (``estimators_``, ``estimator_``), tree structures and other
    objects, lists, tuples and dicts, down to arrays and scalars."""
    out = {} if out is None else out
    if depth > 12:
        raise RecursionError(f"fitted state deeper than 12 levels at {path}")
    if isinstance(obj, np.ndarray):
        if obj.dtype == object:
            for i, v in enumerate(obj.flat):
                fitted_state(v, f"{path}[{i}]", out, depth + 1)
        else:
            out[path] = obj
    elif sp.issparse(obj):
        out[path] = obj.toarray()
    elif isinstance(obj, dict):
        for k, v in obj.items():
            fitted_state(v, f"{path}[{k!r}]", out, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            fitted_state(v, f"{path}[{i}]", out, depth + 1)
    elif obj is None or isinstance(obj, (numbers.Number, str, bytes, np.generic, type)):
        out[path] = obj
    elif hasattr(obj, "get_params"):  # an estimator: its learned attributes
        out[f"{path}<{type(obj).__name__}>"] = obj.get_params(deep=False).keys()
        for k, v in sorted(vars(obj).items()):
            if k.endswith("_") and not k.startswith("__"):
                fitted_state(v, f"{path}.{k}", out, depth + 1)
    elif hasattr(obj, "__dict__"):  # a helper object (tree nodes, a solver record)
        for k, v in sorted(vars(obj).items()):
            fitted_state(v, f"{path}.{k}", out, depth + 1)
    elif hasattr(obj, "__slots__"):
        for k in obj.__slots__:
            fitted_state(getattr(obj, k, None), f"{path}.{k}", out, depth + 1)
    else:
        out[path] = repr(obj)
    return out


def differences(a: dict, b: dict) -> list:
    """Paths whose values differ between two :func:`fitted_state` (or :func:`outputs`) dicts."""
    if a.keys() != b.keys():
        return sorted(set(a) ^ set(b))
    diff = []
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, (np.ndarray, tuple, np.generic)) or isinstance(y, np.ndarray):
            equal = same(x, y)
        elif isinstance(x, float) and isinstance(y, float):
            equal = np.float64(x).tobytes() == np.float64(y).tobytes()
        else:
            equal = type(x) is type(y) and x == y
        if not equal:
            diff.append(k)
    return diff


def _relative_difference(a, b) -> float:
    """max |a − b| / max(|a|) over the float outputs (0 for identical ones)."""
    worst = 0.0
    for k in a:
        x, y = a[k], b[k]
        for u, v in zip(x if isinstance(x, tuple) else (x,), y if isinstance(y, tuple) else (y,)):
            if u.dtype.kind == "f" and u.size:
                scale = max(np.max(np.abs(u)), np.finfo(float).tiny)
                worst = max(worst, float(np.max(np.abs(u - v)) / scale))
            elif not same(u, v):
                return np.inf
    return worst


# -- the tests ---------------------------------------------------------------------------------
@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_two_fits_with_the_same_random_state_are_bit_identical(entry):
    X, y = problem_for(entry)
    a = fit(make(entry), X, y)
    b = fit(make(entry), X, y)
    assert differences(fitted_state(a), fitted_state(b)) == []
    out_a, out_b = outputs(a, X, y), outputs(b, X, y)
    assert out_a, "no output method to compare"
    assert differences(out_a, out_b) == []


N_JOBS_ENTRIES = [e for e in ENTRIES if "n_jobs" in e.make().get_params(deep=False)]


@pytest.mark.parametrize("entry", N_JOBS_ENTRIES, ids=lambda e: e.name)
def test_n_jobs_does_not_change_the_fit(entry):
    X, y = problem_for(entry)
    fits = {n: fit(make(entry, n_jobs=n), X, y) for n in (1, 2, -1)}
    states = {n: fitted_state(est) for n, est in fits.items()}
    outs = {n: outputs(est, X, y) for n, est in fits.items()}
    for n in (2, -1):
        assert differences(states[1], states[n]) == [], f"n_jobs={n}"
        assert differences(outs[1], outs[n]) == [], f"n_jobs={n}"


def test_n_jobs_entries_are_found():
    """The forests, bagging, one-vs-rest/one, and the neighbours have n_jobs: a registry change
    that hid them would make the test above vacuous."""
    assert len(N_JOBS_ENTRIES) >= 8, [e.name for e in N_JOBS_ENTRIES]


def _under_blas_threads(threads, entry, X, y):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    with threadpoolctl.threadpool_limits(limits=threads, user_api="blas"):
        est = fit(make(entry), X, y)
        return fitted_state(est), outputs(est, X, y)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_blas_thread_count_on_small_problems(entry):
    """On the small problems one BLAS thread and two give identical bits for every estimator
    whose docstring does not say otherwise. The four that say so (``BLAS_DEPENDENT``) stay
    within their stated bound: whether OpenBLAS splits a small product between threads depends
    on its build (identical with NumPy 2.4's, not with the pinned minimum versions' for SVR and
    PolynomialRegression)."""
    X, y = problem_for(entry)
    (state1, out1), (state2, out2) = (_under_blas_threads(t, entry, X, y) for t in (1, 2))
    if entry.name in BLAS_DEPENDENT:
        assert _relative_difference(out1, out2) <= BLAS_DEPENDENT[entry.name]
        return
    assert differences(state1, state2) == []
    assert differences(out1, out2) == []


def _medium_problem(entry):
    """800 rows of the diabetes features with 30 noise columns: long enough sums for OpenBLAS
    to split them between threads. A 3-class target for classifiers."""
    from sklearn.datasets import load_diabetes

    X0, y0 = load_diabetes(return_X_y=True)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, X0.shape[0], 800)
    X = np.hstack([X0[idx], 0.05 * rng.normal(size=(800, 30))])
    X += 1e-3 * rng.normal(size=X.shape)
    y = y0[idx]
    if entry.task == "classifier":
        y = (y > np.median(y)).astype(int) + (y > np.percentile(y, 80))
    if entry.name == "PolynomialRegression":
        X = X[:, :20]  # 230 monomials of degree ≤ 2
    return X, y


@pytest.mark.parametrize("name", sorted(BLAS_DEPENDENT))
def test_blas_dependent_estimators_stay_within_their_bound(name):
    entry = next(e for e in ENTRIES if e.name == name)
    X, y = _medium_problem(entry)
    (_, out1), (_, out2) = (_under_blas_threads(t, entry, X, y) for t in (1, 2))
    assert _relative_difference(out1, out2) <= BLAS_DEPENDENT[name]


@pytest.mark.parametrize("name", sorted(BLAS_DEPENDENT))
def test_blas_dependence_is_documented(name):
    entry = next(e for e in ENTRIES if e.name == name)
    assert "BLAS" in (entry.cls.__doc__ or "")
