"""KMeans on Dask (a real LocalCluster) against the in-memory fit on real data: Lloyd's
iterations from the same centres agree up to summation order, the seeding is the in-memory one
when the data are smaller than the seeding sample and does not depend on the chunking when they
are larger, empty clusters are re-seeded as in memory, predict / transform stay lazy."""

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from _dask_cases import chunkings

from scratchlearn.cluster import KMeans, _kmeans_dask, kmeans_plusplus
from scratchlearn.datasets import load_iris, load_wine

EPS = np.finfo(float).eps


def _wine():
    X = load_wine().data
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _warm():
    """What a worker loads on its first KMeans task (the compiled kernel from Numba's cache)."""
    from scratchlearn.cluster._kmeans import lloyd_stat

    lloyd_stat(np.ones((2, 1)), None, None, np.ones((1, 1)), None, 1, None, 1)


@pytest.fixture(scope="module")
def iris(client):
    client.run(_warm)  # both workers at once, rather than each on its first block

    return load_iris().data


@pytest.fixture(scope="module")
def wine_w():
    """Scaled wine with integer weights 1..4 (as if rows were repeated)."""
    return _wine(), np.random.default_rng(5).integers(1, 5, 178).astype(float)


def _bounds(X, w, J):
    """Tolerances on the quantities of a fit whose sums were taken in another order.

    Centres: μ_j = S_j / W_j with S, W sums of ≤ n terms: |Δμ| ≤ 2nε·max|x| (the sum of each,
    relative nε); the centring x̄ (n terms) shifts every centre alike and is added back: another
    nε·max|x|. Inertia: the n terms in another order give nε·J; the centres' error enters only
    to second order (J is stationary at the cluster means); each term's d differences round
    with ε(|x − x̄| + |x − μ|) and enter as 2Σwᵢ|xᵢ − μ|·that ≤ 2ε(√(J·T) + J), T = Σw‖x − x̄‖².
    History (the expanded form, see _kmeans_kernels): per term (d + 2)ε(‖x‖² + max‖x‖²)·2.
    """
    n, d = X.shape
    Xc = X - np.average(X, axis=0, weights=w)
    T = float(np.einsum("ij,ij->i", Xc, Xc) @ w)
    sq = np.einsum("ij,ij->i", Xc, Xc)
    return {
        "centres": 3 * n * EPS * np.abs(X).max(),
        "J": EPS * (n * J + 2 * (np.sqrt(J * T) + J)),
        "history": 2 * (d + 2) * EPS * float(w.max()) * (sq.sum() + n * sq.max()) + n * EPS * T,
    }


def _assert_same_fit(got, want, X, w, measured):
    b = _bounds(X, w, want.inertia_)
    assert got.n_iter_ == want.n_iter_ and got.stop_reason_ == want.stop_reason_
    labels = got.labels_.compute()
    np.testing.assert_array_equal(labels, want.labels_)  # same partition: exactly
    dc = np.abs(got.cluster_centers_ - want.cluster_centers_).max()
    dJ = abs(got.inertia_ - want.inertia_)
    dh = np.abs(np.subtract(got.history_["objective"], want.history_["objective"])).max()
    assert dc <= b["centres"] and dJ <= b["J"] and dh <= b["history"]
    measured.append((dc / b["centres"], dJ / b["J"], dh / b["history"]))


MEASURED = []  # measured error / bound, printed by the last test (-s) for the report


def _dask(X, chunks):
    return da.from_array(X, chunks=(chunks, X.shape[1])).persist()  # as a user would


@pytest.mark.parametrize("chunks", chunkings(150), ids=lambda c: f"{len(c)}blocks")
def test_lloyd_from_given_centres_matches_in_memory(client, iris, chunks):
    # integer weights 1..4 (rows as if repeated), as NumPy for one chunking, as Dask (cut at
    # other rows, so they are rechunked to X's blocks) for the other
    w = np.random.default_rng(5).integers(1, 5, 150).astype(float)
    init = iris[[0, 50, 100]]
    want = KMeans(3, init=init).fit(iris, sample_weight=w)
    wd = w if len(chunks) == 1 else da.from_array(w, chunks=40)
    got = KMeans(3, init=init).fit(_dask(iris, chunks), sample_weight=wd)
    _assert_same_fit(got, want, iris, w, MEASURED)


def test_one_row_per_block_and_empty_clusters(client, iris):
    # 12 iris rows in 12 blocks (unit weights); then empty clusters: the centres at 100 and 200
    # get no row and take the two rows farthest from their centres, found across 6 blocks
    X = iris[::13]  # 12 rows, 4 of each species
    init = X[:3]
    want = KMeans(3, init=init).fit(X)
    got = KMeans(3, init=init).fit(_dask(X, 1))
    _assert_same_fit(got, want, X, np.ones(12), MEASURED)

    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [30.0]])
    init = np.array([[0.0], [100.0], [200.0], [10.0]])
    want = KMeans(4, init=init).fit(X)
    assert len(np.unique(want.labels_)) == 4
    got = KMeans(4, init=init).fit(_dask(X, 1))
    _assert_same_fit(got, want, X, np.ones(6), MEASURED)


def test_kmeans_plusplus_is_the_in_memory_seeding_below_the_sample_size(client, wine_w):
    # n = 178 ≤ the sample size: the sample is every row, drawn without using the generator, so
    # the same random_state gives the in-memory seeds; n_init=2 keeps the better run as in memory
    X, w = wine_w
    want = KMeans(3, n_init=2, random_state=7).fit(X, sample_weight=w)
    got = KMeans(3, n_init=2, random_state=7).fit(_dask(X, (60, 100, 18)), sample_weight=w)
    _assert_same_fit(got, want, X, w, MEASURED)


def test_seeding_sample_is_drawn_by_row_index(client, iris, monkeypatch):
    # A 40-row sample of iris (the real rule: max(10 000, 100k) rows): the rows depend on the
    # seed only, so every chunking gives the same fit, which is the in-memory fit from the
    # k-means++ seeds of those rows (weights 1), drawn by the same generator afterwards
    monkeypatch.setattr(_kmeans_dask, "INIT_SAMPLE_ROWS", 40)
    monkeypatch.setattr(_kmeans_dask, "INIT_SAMPLE_PER_CLUSTER", 10)
    rng = np.random.default_rng(3)
    rows = np.sort(rng.choice(150, size=40, replace=False))
    Xc = iris - iris.mean(axis=0)
    seeds = iris[rows][kmeans_plusplus(Xc[rows], 3, np.ones(40), rng)]
    want = KMeans(3, init=seeds).fit(iris)
    full = KMeans(3, random_state=3).fit(iris)
    for chunks in chunkings(150):  # the sample's rows do not depend on the chunking
        got = KMeans(3, random_state=3).fit(_dask(iris, chunks))
        _assert_same_fit(got, want, iris, np.ones(150), MEASURED)
        # and a clustering as good as the in-memory k-means++ one, up to a few per cent
        assert got.inertia_ <= 1.03 * full.inertia_


def test_dataframe_predict_transform_score_are_lazy_and_equal(client, iris):
    import dask.dataframe as dd
    import pandas as pd

    names = load_iris().feature_names
    pdf = pd.DataFrame(iris, columns=names)
    df = dd.from_pandas(pdf, npartitions=3)
    init = iris[[0, 50, 100]]
    want = KMeans(3, init=init).fit(pdf)
    got = KMeans(3, init=init).fit(df)
    assert list(got.feature_names_in_) == list(names)
    _assert_same_fit(got, want, iris, np.ones(150), MEASURED)

    labels, dist = got.predict(df), got.transform(df)
    assert isinstance(labels, da.Array) and isinstance(dist, da.Array)
    np.testing.assert_array_equal(labels.compute(), want.predict(pdf))
    # the same function on other rows' blocks: distances by ‖x‖² + ‖μ‖² − 2x·μ, each off by
    # (d + 2)ε(‖x‖² + ‖μ‖²) in the square, centres off by _bounds' "centres"
    D, D0 = dist.compute(), want.transform(pdf)
    sq_bound = 6 * EPS * 2 * (np.einsum("ij,ij->i", iris, iris).max())
    assert (
        np.abs(D**2 - D0**2).max()
        <= sq_bound + 2 * D0.max() * _bounds(iris, np.ones(150), want.inertia_)["centres"]
    )
    # J of 150 terms in another order (and the centres' error, second order): 150ε·J
    assert got.score(df) == pytest.approx(want.score(pdf), rel=150 * EPS)


@pytest.mark.parametrize("chunks", chunkings(30), ids=lambda c: f"{len(c)}blocks")
def test_csr_blocks_match_the_in_memory_sparse_fit(client, iris, chunks):
    # Dask blocks of CSR matrices: the sparse kernel on each block, not centred (origin 0), as
    # the in-memory CSR fit; k-means++ on the gathered CSR sample (all rows: n ≤ the sample
    # size), so the same seeds; sums in another order: the bounds of _bounds
    X = np.where(iris[::5] > 3.0, iris[::5], 0.0)  # 30 rows, about half the entries stored
    Xs = sp.csr_matrix(X)
    want = KMeans(3, random_state=2, n_init=2).fit(Xs)
    Xd = da.from_array(Xs, chunks=(chunks, 4), asarray=False)
    got = KMeans(3, random_state=2, n_init=2).fit(Xd)
    _assert_same_fit(got, want, X, np.ones(30), MEASURED)
    np.testing.assert_array_equal(got.predict(Xd).compute(), want.predict(Xs))
    assert got.score(Xd) == pytest.approx(want.score(Xs), rel=30 * EPS)


def test_nan_in_one_block_is_named_at_fit(client, iris):
    assert KMeans()._scratch_tags()["dask"]
    X = iris.copy()
    X[120, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KMeans(3, init=iris[:3]).fit(da.from_array(X, chunks=50))
    if MEASURED:  # measured / bound, worst over every comparison above (run the file with -s)
        worst = np.max(MEASURED, axis=0)
        print(f"\nKMeans Dask vs memory, worst error/bound: centres, J, history = {worst}")
