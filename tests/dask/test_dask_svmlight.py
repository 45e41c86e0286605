"""load_svmlight_file(..., chunks=...): row blocks parsed from byte ranges by the workers of a
real LocalCluster, against the in-memory read of the same file.

Both readers run the same parser on the same lines, so every comparison is exact: the CSR
arrays (data, indices, indptr), shape and dtype of X, y and qid, and the text of every error.
"""

import io
import tracemalloc

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp

import dask
from scratchlearn.cluster import KMeans
from scratchlearn.datasets import (
    _svmlight,
    _svmlight_dask,
    dump_svmlight_file,
    load_modechoice,
    load_randhie,
    load_svmlight_file,
)
from scratchlearn.linear_model import LinearRegression

# comments, blank lines, a tab, CRLF line ends, a row without features, a line longer than
# the others, and no final newline; one-based (no index 0)
TEXT = (
    "# header: label qid features\n\n"
    "2 qid:10 1:0.5 3:-1.25 12:3 # docid = 1\r\n"
    "0 qid:10 2:1e-3\t3:7\r\n"
    "# a comment between rows\n"
    "1 qid:10\n"
    "\n\n"
    "3 qid:11 " + " ".join(f"{j}:{j / 8}" for j in range(1, 31)) + "\n"
    "0 qid:11 4:2.5 # end\n"
    "1 qid:12 2:1 30:-0.125"
)
TEXT0 = TEXT.replace("1:0.5", "0:0.5")  # the same with an index 0: zero-based for "auto"

CASES = {  # name: text, keyword arguments
    "auto-1": (TEXT, {}),  # "auto" reads it one-based
    "one-nfeat": (TEXT, {"zero_based": False, "n_features": 40}),
    "zero": (TEXT, {"zero_based": True}),
    "auto-0": (TEXT0, {}),  # "auto" reads it zero-based
    "zero-nfeat": (TEXT0, {"zero_based": True, "n_features": 31}),
}
# byte ranges of part of a line (9), of a few lines (60), larger than the file (10⁶); and of
# one byte, a range per byte of the file (about 350 tasks), for two of the cases
READS = [(case, c) for case in CASES for c in (9, 60, 10**6)] + [("auto-1", 1), ("zero-nfeat", 1)]


def _write(tmp_path, text, name="f.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def _same(got, want):
    """Computed results ``got`` are exactly ``want``: the same CSR arrays, shape and dtype."""
    assert len(got) == len(want)
    for u, v in zip(got, want):
        assert type(u) is type(v) and u.dtype == v.dtype and u.shape == v.shape
        if sp.issparse(v):
            np.testing.assert_array_equal(u.indptr, v.indptr)
            np.testing.assert_array_equal(u.indices, v.indices)
            np.testing.assert_array_equal(u.data, v.data)
        else:
            np.testing.assert_array_equal(u, v)


def _known_rows(X, *others):
    """Known row counts, the same for X, y and qid."""
    assert not any(np.isnan(c) for c in X.chunks[0])
    assert all(a.chunks[0] == X.chunks[0] for a in others)
    return X.chunks[0]


@pytest.mark.parametrize("case, chunks", READS)
def test_blocks_are_the_in_memory_read(client, tmp_path, case, chunks):
    text, kwargs = CASES[case]
    path = _write(tmp_path, text)
    want = load_svmlight_file(path, query_id=True, **kwargs)
    got = load_svmlight_file(path, query_id=True, chunks=chunks, **kwargs)
    rows = _known_rows(*got)
    # one block when a range holds the file; else several (one-byte ranges: a line each)
    assert rows == (6,) if chunks > len(text) else len(rows) > 1
    assert chunks != 1 or rows == (1,) * 6
    _same(dask.compute(*got), want)  # computed together: one parse per range


def test_dense_blocks_dtype_and_size_strings(client, tmp_path):
    path = _write(tmp_path, TEXT)
    X, y = load_svmlight_file(path, dtype=np.float32)
    Xd, yd = load_svmlight_file(path, dtype=np.float32, chunks="64 B", dense=True)
    assert isinstance(Xd._meta, np.ndarray) and Xd.dtype == np.float32
    assert len(_known_rows(Xd, yd)) > 1
    _same(dask.compute(Xd, yd), (X.toarray(), y))
    _same(load_svmlight_file(path, dtype=np.float32, dense=True), (X.toarray(), y))


def test_without_the_count_pass(client, tmp_path):
    """count_rows=False: nothing computed at call time, unknown row counts, same values."""
    path = _write(tmp_path, TEXT)
    want = load_svmlight_file(path, query_id=True, zero_based=False, n_features=30)
    X, y, q = load_svmlight_file(
        path, query_id=True, zero_based=False, n_features=30, chunks=20, count_rows=False
    )
    assert all(np.isnan(c) for c in X.chunks[0]) and X.shape[1] == 30
    _same(dask.compute(X, y, q), want)
    with pytest.raises(ValueError, match="count_rows=False needs n_features and zero_based"):
        load_svmlight_file(path, chunks=20, count_rows=False, n_features=30)


@pytest.fixture(scope="module")
def modechoice_file(tmp_path_factory):
    data = load_modechoice()  # 210 queries of 4 rows
    path = tmp_path_factory.mktemp("svm") / "modechoice.txt"
    dump_svmlight_file(data.data, data.target, path, query_id=data.qid, zero_based=False)
    return path


def test_queries_straddle_blocks_with_their_qid(client, modechoice_file):
    """A block boundary falls between lines, not between queries: some query has rows in two
    neighbouring blocks, and every row keeps its qid."""
    want = load_svmlight_file(modechoice_file, query_id=True)
    X, y, q = load_svmlight_file(modechoice_file, query_id=True, chunks="2 KiB")
    bounds = np.cumsum(_known_rows(X, y, q))[:-1]  # first row of every block but the first
    _same(dask.compute(X, y, q), want)
    qid = want[2]
    assert len(bounds) > 5 and np.any(qid[bounds - 1] == qid[bounds])
    np.testing.assert_array_equal(np.bincount(qid)[np.unique(qid)], 4)  # whole queries, by qid


@pytest.fixture(scope="module")
def randhie_file(tmp_path_factory):
    X, y = load_randhie(return_X_y=True)  # (20190, 9): about 0.9 MB of text
    path = tmp_path_factory.mktemp("svm") / "randhie.txt"
    dump_svmlight_file(X, y, path)
    return path


def test_dense_blocks_fit_linear_regression(client, randhie_file):
    """LinearRegression on the loaded dense blocks is the fit on the in-memory result cut into
    the same blocks: the same block statistics merged in the same tree, so bit for bit."""
    X, y = load_svmlight_file(randhie_file, chunks="128 KiB", dense=True)
    Xm, ym = load_svmlight_file(randhie_file)
    rows = X.chunks[0]
    assert len(rows) >= 6
    got = LinearRegression().fit(X, y)
    want = LinearRegression().fit(
        da.from_array(Xm.toarray(), chunks=(rows, -1)), da.from_array(ym, chunks=(rows,))
    )
    np.testing.assert_array_equal(got.coef_, want.coef_)
    assert got.intercept_ == want.intercept_


def test_csr_blocks_fit_kmeans(client, modechoice_file):
    """KMeans reads the CSR blocks as stored: the fit on the in-memory CSR cut into the same
    blocks, from the same initial centres, bit for bit."""
    X, _ = load_svmlight_file(modechoice_file, chunks="8 KiB")
    Xm, _ = load_svmlight_file(modechoice_file)
    assert len(_known_rows(X)) >= 4
    init = Xm[[0, 1, 2]].toarray()
    got = KMeans(3, init=init, n_init=1).fit(X)
    want = KMeans(3, init=init, n_init=1).fit(
        da.from_array(Xm, chunks=(X.chunks[0], -1), asarray=False)
    )
    np.testing.assert_array_equal(got.cluster_centers_, want.cluster_centers_)
    assert got.n_iter_ == want.n_iter_ and got.inertia_ == want.inertia_


# -- errors ----------------------------------------------------------------------------------

GOOD = "1 qid:1 1:0.5 2:0.25\n" * 30  # 30 lines of 21 bytes

# text, keyword arguments, and whether the lazy read (count_rows=False) can raise the same:
# not with two errors (the first task to fail names its own) nor without a sample (0 rows)
ERRORS = {
    "pair": (GOOD + "0 qid:2 1:x\n" + GOOD, {}, True),
    "order": (GOOD + "1 qid:1 2:1 1:3\n" + GOOD, {}, True),
    "first": (GOOD + "abc 1:1\n" + GOOD + "1 1:y\n", {}, False),  # the first in file order
    "qid": (GOOD + "1 1:1\n", {"query_id": True}, True),
    "utf8": (GOOD.encode() + b"1 1:1 # \xff\n" + GOOD.encode(), {}, True),
    "index0": (GOOD + "0 0:1\n" + GOOD, {"zero_based": False}, True),
    "n_features": (GOOD + "1 7:1\n" + GOOD + "1 9:1\n", {"n_features": 5}, False),
    "empty": ("# only\n\n# comments\n" * 20, {}, False),
}


@pytest.mark.parametrize("case", ERRORS)
@pytest.mark.parametrize("chunks", [40, 300])
def test_errors_are_the_in_memory_ones_at_the_files_line(client, tmp_path, case, chunks):
    text, kwargs, lazy = ERRORS[case]
    path = tmp_path / "bad.txt"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ValueError) as want:
        load_svmlight_file(path, **kwargs)
    message = str(want.value)
    assert message.startswith(f"{path}, line 31: ") or case == "empty", message
    with pytest.raises(ValueError) as got:
        load_svmlight_file(path, chunks=chunks, **kwargs)  # at call time: the count pass
    assert str(got.value) == message
    if lazy:  # at compute time: the failing task counts the lines before its range
        kwargs = {"n_features": 9, "zero_based": False, **kwargs}
        arrays = load_svmlight_file(path, chunks=chunks, count_rows=False, **kwargs)
        with pytest.raises(ValueError) as late:
            dask.compute(*arrays)
        assert str(late.value) == message


def test_lazy_errors_name_the_files_line(client, tmp_path):
    """The one error of a file, found at compute time by a task that starts deep in it."""
    path = _write(tmp_path, GOOD * 10 + "0 qid:2 1:x\n" + GOOD)
    X, _ = load_svmlight_file(path, chunks=100, n_features=3, zero_based=False, count_rows=False)
    with pytest.raises(ValueError, match=r"line 301: '1:x' is not an index:value pair"):
        X.compute()


def test_refusals(client, tmp_path):
    path = _write(tmp_path, TEXT)
    gz = tmp_path / "f.txt.gz"
    gz.write_bytes(b"")
    with pytest.raises(ValueError, match="compressed file cannot be split"):
        load_svmlight_file(gz, chunks=100)
    with pytest.raises(TypeError, match="by its path; got StringIO"):
        load_svmlight_file(io.StringIO(TEXT), chunks=100)
    for bad in (0, -1, True, 1.5, "lots"):
        with pytest.raises(ValueError, match="chunks must be None, a positive int"):
            load_svmlight_file(path, chunks=bad)
    with pytest.raises(ValueError, match="cannot read the file"):
        load_svmlight_file(tmp_path / "missing.txt", chunks=100)


# -- what the client reads ---------------------------------------------------------------------


def test_the_client_never_reads_the_file(client, monkeypatch, tmp_path, randhie_file):
    """The count pass and the blocks run on the workers. In this process, opening the file is
    made to fail, and the Python memory allocated during the call does not grow with the
    file: for a file 8 times larger cut into as many ranges, the peak grows by less than 10 %
    of the extra bytes (measured: by nothing, within ±30 kB of about 0.8 MB, which is the
    graph and the client's messages, about 13 kB per range). Reading the text here would add
    at least its size, and parsing it 25 times a block (see _BLOCK_BYTES)."""
    text = randhie_file.read_bytes()
    big = tmp_path / "big.txt"
    big.write_bytes(text * 8)
    want = load_svmlight_file(big)

    def refuse(*args, **kwargs):
        raise AssertionError(f"the client opened {args[0]}")

    for module in (_svmlight, _svmlight_dask):  # where the file could be opened in this process
        monkeypatch.setattr(module, "open", refuse, raising=False)

    def peak(path, chunks):
        tracemalloc.start()
        try:
            arrays = load_svmlight_file(path, chunks=chunks)
            return tracemalloc.get_traced_memory()[1], arrays
        finally:
            tracemalloc.stop()

    peak(randhie_file, 2**16)  # the first call imports what Dask needs: not measured
    small, (X, _) = peak(randhie_file, 2**16)
    large, (X8, y8) = peak(big, 2**19)
    assert len(X.chunks[0]) == len(_known_rows(X8, y8)) > 10
    assert large - small < 0.1 * 7 * len(text), (small, large)
    print(f"\nclient peak {small} B, with 8 times the file {large} B (-s to see)")
    _same(dask.compute(X8, y8), want)  # read by the workers, and gathered here
