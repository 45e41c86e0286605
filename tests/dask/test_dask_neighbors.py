"""Neighbours on Dask, on a real LocalCluster: queries answered block by block along the queries'
row chunks, and models fitted on a Dask training set (gathered, see
:mod:`scratchlearn.neighbors._dask`), against the in-memory queries.

Equality is exact (indices equal, distances equal bit for bit, predictions equal): a query's
answer depends on its own row and the training points alone (the k-d tree searches row by row;
the brute force recomputes each chosen neighbour's distance coordinate by coordinate), and a
gathered training set is the in-memory one. The data hold exact ties (a duplicated training row,
a query equal to a training row) so that the tie rule (lower index first) is exercised too.
"""

import warnings

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from _dask_cases import chunkings

import dask
from scratchlearn.neighbors import (
    KNeighborsClassifier,
    KNeighborsRegressor,
    NearestNeighbors,
    RadiusNeighborsClassifier,
    RadiusNeighborsRegressor,
)
from scratchlearn.neighbors import _dask as nd
from scratchlearn.utils._dask import SHARED_INLINE_BYTES, _pickles_within

M, N, D, K = 40, 23, 3, 5
METRICS = [{"metric": "euclidean"}, {"metric": "manhattan"}]
ALGORITHMS = ["brute", "kd_tree"]
pytestmark = pytest.mark.usefixtures("client")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(M, D))
    X[7] = X[3]  # a duplicated training row: an exact tie, broken by the lower index
    Q = rng.normal(size=(N, D))
    Q[4] = X[3]  # a query at distance 0 from two training rows
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    t = np.column_stack([X @ [1.0, -2.0, 0.5], np.sin(X[:, 0])])
    return X, Q, y, t


def _rows(A, chunks):
    return da.from_array(A, chunks=(chunks,) + A.shape[1:])


def _equal_ragged(got, want):
    assert got.dtype == object and got.shape == want.shape
    for a, b in zip(got, want):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("chunks", chunkings(N), ids=lambda c: f"{len(c)}blocks")
@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m["metric"])
def test_queries_block_by_block(data, metric, algorithm, chunks):
    X, Q, y, _ = data
    nn = NearestNeighbors(n_neighbors=K, radius=1.2, algorithm=algorithm, leaf_size=4, **metric)
    nn.fit(X)
    Qd = _rows(Q, chunks)
    dist, ind = nn.kneighbors(Qd)
    assert isinstance(dist, da.Array) and isinstance(ind, da.Array)  # lazy
    assert dist.chunks == ind.chunks == (chunks, (K,)) and ind.dtype == np.intp
    got_d, got_i = dask.compute(dist, ind)
    want_d, want_i = nn.kneighbors(Q)
    np.testing.assert_array_equal(got_i, want_i)
    np.testing.assert_array_equal(got_d, want_d)  # bit for bit
    assert got_i.dtype == np.intp
    np.testing.assert_array_equal(nn.kneighbors(Qd, 2, return_distance=False), want_i[:, :2])
    for sort in (False, True):
        rd, ri = nn.radius_neighbors(Qd, sort_results=sort)
        assert rd.dtype == object and rd.chunks == (chunks,)
        got_rd, got_ri = dask.compute(rd, ri)
        want_rd, want_ri = nn.radius_neighbors(Q, sort_results=sort)
        _equal_ragged(got_ri, want_ri)
        _equal_ragged(got_rd, want_rd)
    graph = nn.kneighbors_graph(Qd, mode="distance")  # computed into memory
    assert (graph != nn.kneighbors_graph(Q, mode="distance")).nnz == 0


@pytest.mark.parametrize("chunks", chunkings(N), ids=lambda c: f"{len(c)}blocks")
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_predict_block_by_block(data, algorithm, chunks):
    X, Q, y, t = data
    Qd = _rows(Q, chunks)
    models = [
        KNeighborsClassifier(n_neighbors=K, weights="distance"),
        KNeighborsRegressor(n_neighbors=K, metric="manhattan"),
        RadiusNeighborsClassifier(radius=1.5, outlier_label="most_frequent"),
        RadiusNeighborsRegressor(radius=1.5, weights="distance"),
    ]
    for model in models:
        model.set_params(algorithm=algorithm, leaf_size=4)
        model.fit(X, t if "Regressor" in type(model).__name__ else y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # radius regressor: rows left NaN
            want = model.predict(Q)
        got = model.predict(Qd)
        assert isinstance(got, da.Array) and got.chunks[0] == chunks
        np.testing.assert_array_equal(got.compute(), want)
        if hasattr(model, "predict_proba"):
            np.testing.assert_array_equal(model.predict_proba(Qd).compute(), model.predict_proba(Q))


@pytest.mark.parametrize("train_chunks", chunkings(M), ids=lambda c: f"{len(c)}blocks")
@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m["metric"])
def test_fit_on_dask_training_points(data, metric, algorithm, train_chunks):
    X, Q, y, t = data
    Xd, Qd = _rows(X, train_chunks), _rows(Q, (N // 3, N - N // 3 - 1, 1))
    kw = dict(algorithm=algorithm, leaf_size=4, **metric)
    for cls, target in [
        (NearestNeighbors, None),
        (KNeighborsClassifier, y),
        (KNeighborsRegressor, t),
    ]:
        ref = cls(n_neighbors=K, **kw).fit(X, target)
        got = cls(n_neighbors=K, **kw).fit(
            Xd, None if target is None else _rows(target, train_chunks)
        )
        assert got._fit_method == ref._fit_method == algorithm
        np.testing.assert_array_equal(got._fit_X, ref._fit_X)
        dist, ind = dask.compute(*got.kneighbors(Qd))
        want_d, want_i = ref.kneighbors(Q)
        np.testing.assert_array_equal(ind, want_i)
        np.testing.assert_array_equal(dist, want_d)
        # X=None: the gathered training points, queried in memory (each excluding itself)
        for a, b in zip(got.kneighbors(), ref.kneighbors()):
            assert isinstance(a, np.ndarray)
            np.testing.assert_array_equal(a, b)
        if target is not None:
            np.testing.assert_array_equal(got.predict(Qd).compute(), ref.predict(Q))
    ref = NearestNeighbors(radius=1.2, **kw).fit(X)
    got = NearestNeighbors(radius=1.2, **kw).fit(Xd)
    rd, ri = dask.compute(*got.radius_neighbors(Qd))
    want_rd, want_ri = ref.radius_neighbors(Q)
    _equal_ragged(ri, want_ri)
    _equal_ragged(rd, want_rd)


def test_dataframe_names_and_classes(data):
    X, Q, y, _ = data
    cols = ["a", "b", "c"]
    Xf = dd.from_pandas(pd.DataFrame(X, columns=cols), npartitions=3)
    labels = np.array(["no", "yes", "maybe"])[y]
    yf = dd.from_pandas(pd.Series(labels), npartitions=3)
    model = KNeighborsClassifier(n_neighbors=K).fit(Xf, yf)
    assert list(model.feature_names_in_) == cols and model.n_features_in_ == D
    np.testing.assert_array_equal(model.classes_, np.unique(labels))
    Qf = dd.from_pandas(pd.DataFrame(Q, columns=cols), npartitions=2)
    want = KNeighborsClassifier(n_neighbors=K).fit(X, labels).predict(Q)
    np.testing.assert_array_equal(model.predict(Qf).compute(), want)
    with pytest.raises(ValueError, match="feature names"):
        model.kneighbors(dd.from_pandas(pd.DataFrame(Q, columns=["c", "b", "a"]), npartitions=2))


def test_training_set_too_large_for_a_worker_is_refused(data, monkeypatch):
    X, _, y, _ = data

    def boom(block):
        raise AssertionError("the training set was computed before the size check")

    Xd = _rows(X, (20, 20)).map_blocks(boom, dtype=float)
    monkeypatch.setattr(nd, "GATHER_SHARE", 1e-12)
    with pytest.raises(ValueError, match="more than 1e-12 of the smallest worker's memory"):
        KNeighborsClassifier().fit(Xd, y)


def test_bad_queries_are_named(data):
    X, Q, y, _ = data
    model = RadiusNeighborsClassifier(radius=10.0).fit(X, y)  # no outlier label
    far = Q.copy()
    far[17] = 1e3  # the one row without a neighbour: named as a row of the whole array
    with pytest.raises(ValueError, match=r"query rows \[17\]"):
        model.predict(_rows(far, (10, 13))).compute()
    bad = Q.copy()
    bad[9, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KNeighborsClassifier().fit(X, y).kneighbors(_rows(bad, (5, 18)))[0].compute()
    with pytest.raises(ValueError, match="features"):
        NearestNeighbors().fit(X).kneighbors(_rows(Q[:, :2], (23,)))


def test_tagged_dask():
    for cls in (
        NearestNeighbors,
        KNeighborsClassifier,
        KNeighborsRegressor,
        RadiusNeighborsClassifier,
        RadiusNeighborsRegressor,
    ):
        assert cls()._scratch_tags()["dask"] is True


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_large_model_sent_as_one_node(algorithm):
    # 20 000 × 8 training points pickle to more than shared_arg's inline limit (1 MB): the model
    # is one graph node, sent once to each worker, where the k-d tree is rebuilt from it.
    rng = np.random.default_rng(1)
    X, Q = rng.normal(size=(20_000, 8)), rng.normal(size=(60, 8))
    nn = NearestNeighbors(n_neighbors=4, algorithm=algorithm).fit(X)
    assert not _pickles_within(nn, SHARED_INLINE_BYTES)
    dist, ind = dask.compute(*nn.kneighbors(_rows(Q, (25, 1, 34))))
    want_d, want_i = nn.kneighbors(Q)
    np.testing.assert_array_equal(ind, want_i)
    np.testing.assert_array_equal(dist, want_d)
