"""Prediction on Dask input for every fitted estimator of the registry.

Each estimator of 2-D arrays is fitted once, in memory, on a small real problem
(``tests/_data.problem_for``); each of its prediction methods (``ROW_METHODS``) is then asked
with Dask arrays of several row chunkings (one block, uneven blocks, one row per block on a
short array) and a Dask DataFrame. The answer must be lazy (a Dask collection) and, computed,
be the in-memory method's answer:

* exactly, block for block, for the generic path (the in-memory method on each row block):
  equal to ``np.concatenate`` of the method on each block of X, and so, with one block, equal
  to the method on X itself;
* exactly on X itself for discrete outputs (labels, cluster indices), and within 1e-12
  relative for real outputs with several blocks: BLAS sums a row's products in an order that
  depends on the block's row count and memory alignment, so the in-memory method itself
  answers a slice of X within a few ulps of its answer on the whole (LinearRegression on
  diabetes: 1e-16 relative; SVC's decision function: 1e-14 near zero).

``score(X, y)`` with Dask X and y is the in-memory score (exactly with one block). ``fit`` on
Dask input is still refused by the estimators not tagged "dask".

Computation runs on the synchronous scheduler (what is tested is the block decomposition, not
the cluster); one test computes on the session's LocalCluster, and one checks the fitted
model is placed in the graph once.
"""

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from _dask_cases import chunkings
from dask.utils import key_split

import dask
from _data import problem_for  # tests/ is on sys.path (rootdir conftest)
from scratchlearn._registry import all_estimators, dask_estimators
from scratchlearn.exceptions import NotFittedError
from scratchlearn.utils import _dask
from scratchlearn.utils._dask import is_dask_collection
from scratchlearn.utils._dask_predict import ROW_METHODS, by_blocks

pytestmark = [
    pytest.mark.filterwarnings("ignore::scratchlearn.exceptions.ConvergenceWarning"),
    pytest.mark.filterwarnings("ignore:X has feature names"),  # _cases: fitted on NumPy
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),  # log(0) of a zero probability
]


def _two_d(entry) -> bool:
    """Estimators of 2-D arrays: not documents, sentences or labels alone."""
    return entry.task not in ("text", "sequence") and problem_for(entry)[0] is not None


ENTRIES = [e for e in all_estimators() if _two_d(e)]
_FITTED = {}


def fitted(entry):
    """(estimator fitted in memory, X, y): one fit per estimator, shared by every case."""
    if entry.name not in _FITTED:
        X, y = problem_for(entry)
        est = entry.make()
        est = est.fit(X) if y is None else est.fit(X, y)
        _FITTED[entry.name] = est, X, y
    return _FITTED[entry.name]


def _dense(a):
    return a.toarray() if sp.issparse(a) else np.asarray(a)


def _cases(X):
    """(name, X in memory, Dask X): one block, uneven blocks, one row per block (on the
    first 12 rows), and a Dask DataFrame of three partitions."""
    n, d = X.shape
    out = [(f"chunks{c[:3]}", X, da.from_array(X, chunks=(c, d))) for c in chunkings(n)[:2]]
    short = X[:12]
    out.append(("one row per block", short, da.from_array(short, chunks=(1, d))))
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(d)])
    out.append(("dataframe", X, dd.from_pandas(frame, npartitions=3)))
    return out


def _blocks(X, Xd):
    """The row blocks of the Dask array Xd as the in-memory method receives them: X's slices."""
    edges = np.concatenate([[0], np.cumsum(Xd.chunks[0])]).astype(int)
    return [X[a:b] for a, b in zip(edges[:-1], edges[1:])]


def _check_method(est, method, X, Xd, case):
    where = f"{type(est).__name__}.{method} ({case})"
    own = not by_blocks(getattr(type(est), method))
    if own and case == "dataframe":  # an own Dask path may take arrays only (tf-idf's counts)
        try:
            getattr(est, method)(Xd)
        except TypeError as exc:
            assert str(exc).startswith(type(est).__name__), where
            return
    out = getattr(est, method)(Xd)
    assert is_dask_collection(out), f"{where} returned {type(out).__name__}, not lazy"
    got = _dense(out.compute())
    whole = _dense(getattr(est, method)(X))
    assert got.shape == whole.shape and got.dtype == whole.dtype, where
    # The in-memory method on each block, exactly. (Not checked for a DataFrame: its blocks
    # are strided views of pandas' column-major storage, which BLAS may round differently from
    # any copy of them; the comparison with X below still holds.)
    if not own and isinstance(Xd, da.Array):
        blocks = [_dense(getattr(est, method)(b)) for b in _blocks(X, Xd)]
        assert np.array_equal(got, np.concatenate(blocks)), where
    if got.dtype.kind not in "fc" or case.startswith(f"chunks({X.shape[0]},)"):
        assert np.array_equal(got, whole), where
    else:
        scale = max(1.0, float(np.nanmax(np.abs(whole), initial=0.0)))
        np.testing.assert_allclose(got, whole, rtol=1e-12, atol=1e-12 * scale, err_msg=where)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_every_prediction_method_on_dask_is_the_in_memory_one(entry):
    est, X, y = fitted(entry)
    methods = [m for m in ROW_METHODS if hasattr(est, m)]
    has_score = hasattr(est, "score")
    assert methods or has_score or entry.task == "neighbors"
    with dask.config.set(scheduler="sync"):
        for case, Xc, Xd in _cases(np.asarray(X)):
            for method in methods:
                _check_method(est, method, Xc, Xd, case)
            if not has_score or case == "dataframe":
                continue
            n = Xc.shape[0]
            args = () if y is None else (da.from_array(y[:n], chunks=Xd.chunks[0]),)
            got = est.score(Xd, *args)
            want = est.score(Xc, *(() if y is None else (y[:n],)))
            assert np.isscalar(got) and np.isfinite(want), entry.name
            if n == X.shape[0] and len(Xd.chunks[0]) == 1:
                assert got == want, f"{entry.name}.score ({case})"
            else:
                assert got == pytest.approx(want, rel=1e-12, abs=1e-12), entry.name


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_fit_on_dask_is_refused_unless_tagged(entry):
    if entry.name in dask_estimators():
        return  # their block fits: the other test modules of tests/dask
    X, y = problem_for(entry)
    Xd = da.from_array(np.asarray(X), chunks=(50, X.shape[1]))
    with pytest.raises(TypeError, match=rf"^{entry.name} does not accept a Dask Array as X.*"):
        entry.make().fit(Xd) if y is None else entry.make().fit(Xd, y)


def test_pipeline_predicts_lazily_step_by_step():
    from scratchlearn.pipeline import make_pipeline
    from scratchlearn.preprocessing import PolynomialFeatures, StandardScaler
    from scratchlearn.svm import SVC

    X, y = problem_for(next(e for e in ENTRIES if e.name == "SVC"))
    pipe = make_pipeline(StandardScaler(), PolynomialFeatures(2), SVC(probability=True))
    pipe.fit(X, y)
    Xd = da.from_array(X, chunks=(40, 4))
    with dask.config.set(scheduler="sync"):
        for method in ("predict", "predict_proba", "decision_function"):
            out = getattr(pipe, method)(Xd)
            assert is_dask_collection(out)
            whole = getattr(pipe, method)(X)
            np.testing.assert_allclose(out.compute(), whole, rtol=1e-12, atol=1e-12)
        assert pipe.score(Xd, da.from_array(y, chunks=40)) == pipe.score(X, y)
    # every step of the chain is lazy: the pipeline's own method computes nothing
    assert is_dask_collection(pipe[:-1].transform(Xd))


def test_an_unfitted_estimator_or_a_wrong_width_fails_at_once():
    from scratchlearn.svm import SVC
    from scratchlearn.tree import DecisionTreeClassifier

    Xd = da.from_array(np.arange(40.0).reshape(20, 2), chunks=(7, 2))
    with pytest.raises(NotFittedError):
        SVC().predict(Xd)
    tree = DecisionTreeClassifier().fit(np.arange(30.0).reshape(10, 3), np.arange(10) % 2)
    with pytest.raises(ValueError, match="X has 2 features, but DecisionTreeClassifier"):
        tree.predict(Xd)
    with pytest.raises(ValueError, match="NaN"):  # a value error: when its block is computed
        out = tree.predict(da.from_array(np.full((6, 3), np.nan), chunks=(3, 3)))
        out.compute(scheduler="sync")


def test_a_large_model_is_one_node_of_the_graph(monkeypatch):
    from scratchlearn.svm import SVC

    X, y = problem_for(next(e for e in ENTRIES if e.name == "SVC"))
    svc = SVC().fit(X, y)
    monkeypatch.setattr(_dask, "SHARED_INLINE_BYTES", 100)  # the model counts as large
    out = svc.predict(da.from_array(X, chunks=(30, 4)))
    graph = dict(out.__dask_graph__())
    model_nodes = [k for k in graph if key_split(k) == "predict"]
    assert len(model_nodes) == 1  # the bound method, sent once, not copied into 5 tasks
    assert np.array_equal(out.compute(scheduler="sync"), svc.predict(X))


def test_prediction_and_score_on_the_cluster(client):
    from scratchlearn.linear_model import Lasso
    from scratchlearn.naive_bayes import CategoricalNB
    from scratchlearn.svm import SVC

    for name, est_cls in (("SVC", SVC), ("Lasso", Lasso), ("CategoricalNB", CategoricalNB)):
        X, y = problem_for(next(e for e in ENTRIES if e.name == name))
        est = est_cls().fit(X, y)
        Xd = da.from_array(np.asarray(X), chunks=(25, X.shape[1]))
        out = est.predict(Xd)
        assert is_dask_collection(out)
        got = client.compute(out).result()
        blocks = [est.predict(X[a : a + 25]) for a in range(0, X.shape[0], 25)]
        assert np.array_equal(got, np.concatenate(blocks)), name
        assert est.score(Xd, da.from_array(y, chunks=25)) == pytest.approx(
            est.score(X, y), rel=1e-12
        )


def test_a_dask_dataframe_is_checked_by_its_column_names():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from scratchlearn.tree import DecisionTreeClassifier

    X, y = problem_for(next(e for e in ENTRIES if e.name == "DecisionTreeClassifier"))
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    tree = DecisionTreeClassifier(random_state=0).fit(frame, y)
    ddf = dd.from_pandas(frame, npartitions=4)
    out = tree.predict_proba(ddf)  # the names agree: no warning, nothing computed
    assert is_dask_collection(out)
    assert np.array_equal(out.compute(scheduler="sync"), tree.predict_proba(frame))
    with pytest.raises(ValueError, match="feature names should match"):
        tree.predict(ddf[["b", "a", "c", "d"]])
