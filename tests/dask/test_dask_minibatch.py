"""MiniBatchKMeans on Dask (a real LocalCluster) against the in-memory fit.

Every batch's row indices are drawn on the client by the same generator as in memory, over the
whole array, and the rows gathered from their blocks; the steps run in memory on those rows.
So the same random_state gives the same seeding, the same batches and bit-identical centres,
step count, history and stop reason, whatever the chunking. Only the final inertia is summed
over the blocks in another order: |ΔJ| ≤ nε·J (n terms reordered; the per-row terms are the
same arithmetic). The labels are the nearest of identical centres: equal.
"""

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from _dask_cases import chunkings

from scratchlearn.cluster import MiniBatchKMeans, _kmeans_dask
from scratchlearn.datasets import load_iris, load_wine

EPS = np.finfo(float).eps


@pytest.fixture(scope="module")
def iris(client):
    return load_iris().data


def _dask(X, chunks):
    return da.from_array(X, chunks=(chunks, X.shape[1])).persist()


def _assert_same_fit(got, want, n):
    np.testing.assert_array_equal(got.cluster_centers_, want.cluster_centers_)  # exactly
    assert got.n_steps_ == want.n_steps_ and got.n_iter_ == want.n_iter_
    assert got.stop_reason_ == want.stop_reason_
    assert got.history_["objective"] == want.history_["objective"]
    np.testing.assert_array_equal(got._counts, want._counts)
    if want.compute_labels:
        assert isinstance(got.labels_, da.Array)
        np.testing.assert_array_equal(got.labels_.compute(), want.labels_)
        assert abs(got.inertia_ - want.inertia_) <= n * EPS * want.inertia_
    else:
        assert got.inertia_ == want.inertia_


@pytest.mark.parametrize("rows", [30, 150], ids=lambda n: f"{n}rows")
def test_same_batches_same_centres_on_every_chunking(client, iris, rows):
    # weights 1..3 (NumPy for one chunking, Dask cut at other rows for the others); k = 5 with a
    # high reassignment ratio, so that reassignments (which also draw from the generator, and
    # break the prefetched batches' prediction) happen during the fit
    X = iris[:: 150 // rows]
    w = np.random.default_rng(2).integers(1, 4, rows).astype(float)
    kw = {"batch_size": 10, "random_state": 0, "reassignment_ratio": 0.3, "max_iter": 20}
    want = MiniBatchKMeans(5, **kw).fit(X, sample_weight=w)
    for chunks in chunkings(rows):
        wd = w if len(chunks) == 1 else da.from_array(w, chunks=7)
        got = MiniBatchKMeans(5, **kw).fit(_dask(X, chunks), sample_weight=wd)
        _assert_same_fit(got, want, rows)


@pytest.mark.parametrize(
    "kw",
    [
        {"init": "random", "n_init": 3, "compute_labels": False},
        {"init": "k-means++", "tol": 1e-3, "max_no_improvement": None},
    ],
    ids=["random-n_init3-nolabels", "kmeans++-tol"],
)
def test_seeding_and_stopping_rules_as_in_memory(client, kw):
    # wine (178 × 13, scaled): the seeding's sample and validation rows gathered by index, the
    # k-means++ or random seeding then run in memory on them as in the in-memory fit. With
    # tol > 0 the stop compares the centre shift to tol × the mean variance, summed by blocks
    # here: within 178ε of the in-memory value, far from any measured shift (checked below).
    X = load_wine().data
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    want = MiniBatchKMeans(4, batch_size=32, random_state=3, **kw).fit(X)
    got = MiniBatchKMeans(4, batch_size=32, random_state=3, **kw).fit(_dask(X, (60, 100, 18)))
    _assert_same_fit(got, want, 178)
    if "tol" in kw:
        assert want.stop_reason_ == "converged"


def test_csr_blocks(client, iris):
    # Dask blocks of CSR matrices: the batches gathered as CSR, each step the sparse kernel on
    # the same rows as the in-memory CSR fit, so the same centres exactly
    Xs = sp.csr_matrix(np.where(iris > 3.0, iris, 0.0))  # about half the entries stored
    kw = {"batch_size": 16, "random_state": 1, "max_iter": 10}
    want = MiniBatchKMeans(3, **kw).fit(Xs)
    for chunks in ((150,), (50, 99, 1)):
        X = da.from_array(Xs, chunks=(chunks, 4), asarray=False)
        got = MiniBatchKMeans(3, **kw).fit(X)
        _assert_same_fit(got, want, 150)
        np.testing.assert_array_equal(got.predict(X).compute(), want.predict(Xs))


@pytest.mark.filterwarnings("ignore::scratchlearn.exceptions.ConvergenceWarning")
def test_batches_are_gathered_several_steps_at_a_time(client, iris, monkeypatch):
    # Without reassignments the predicted batches hold: 2 computations for the seeding (the
    # validation rows, the seeding sample) and one per 64 steps (the lookahead of batches of
    # 8 rows), not one per step
    calls = []
    gather = _kmeans_dask.gather_rows
    monkeypatch.setattr(_kmeans_dask, "gather_rows", lambda X, r: calls.append(1) or gather(X, r))
    kw = {"batch_size": 8, "reassignment_ratio": 0.0, "max_iter": 10, "max_no_improvement": None}
    m = MiniBatchKMeans(3, random_state=0, **kw).fit(_dask(iris, 50))
    assert m.n_steps_ == 187 and len(calls) == 2 + 3


def test_tag_and_a_nan_in_one_block(client, iris):
    assert MiniBatchKMeans()._scratch_tags()["dask"]
    X = iris.copy()
    X[120, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        MiniBatchKMeans(3, batch_size=10).fit(da.from_array(X, chunks=50))
