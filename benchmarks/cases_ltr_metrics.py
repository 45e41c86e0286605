"""Learning-to-rank metrics over queries of 20 documents against scikit-learn.

scikit-learn scores one query per call (or a dense (queries × documents) matrix, when every query
has the same number of documents, as here), so the references are a Python loop over the queries
calling ``sklearn.metrics.ndcg_score`` / ``average_precision_score``, and for NDCG also the one
matrix call. scratchlearn sorts once by (query, −score) and reduces with ``bincount``: no loop
over queries. Each metric is wrapped in a tiny object whose ``transform`` computes it, so the
harness times the whole call, validation included. Labels 0–4; NDCG scores are rounded to one
decimal so that ties occur (both sides average over tied orderings); the AP scores are
continuous (scikit-learn's average_precision_score groups ties by threshold, a different rule).
``agree`` is the largest difference between the per-query (or mean) values. The per-query
loops run on 1,000 queries (the harness repeats each side several times; both sides are linear
in the number of queries), the matrix case on 10,000.

The svmlight rows read and write a LETOR-like file of 20,000 rows × 136 features with ``qid``
(MSLR-WEB10K's shape; 90% of the entries non-zero, values with four decimals, as in MSLR):
``load_svmlight_file`` against ``sklearn.datasets.load_svmlight_file`` on the same file, and
``dump_svmlight_file`` against scikit-learn's, each side writing its own file. The
"17-digit" row reads the same rows with values of full precision, as ``dump_svmlight_file``
writes any float data (``repr``: 16 or 17 significant digits). ``agree`` is the largest
difference between the matrices read back (by scikit-learn's reader for the dumps).
"""

import os
import tempfile

import numpy as np

from benchmarks.harness import Case
from scratchlearn.datasets import dump_svmlight_file, load_svmlight_file
from scratchlearn.metrics import mean_average_precision, ndcg_score

N_DOCS = 20


def _data(n_queries):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, (n_queries, N_DOCS)).astype(float)
    s_continuous = (y + rng.normal(scale=2.0, size=y.shape)).ravel()
    qid = np.repeat(np.arange(n_queries), N_DOCS)
    perm = rng.permutation(qid.shape[0])  # rows of a query scattered, as in real files
    s = np.round(s_continuous, 1)
    return y.ravel()[perm], s[perm], qid[perm], s_continuous[perm]


class _Metric:
    """``fit`` stores the labels; ``transform(data)`` returns the metric's values."""

    def __init__(self, func):
        self.func = func

    def fit(self, *data):
        return self

    def transform(self, y, s, qid, s_continuous):
        return np.atleast_1d(self.func(y, s, qid, s_continuous))


def _ours_ndcg(y, s, qid, _):
    return ndcg_score(y, s, qid=qid, k=10, return_per_query=True)


def _ours_ndcg_mean(y, s, qid, _):
    return ndcg_score(y, s, qid=qid, k=10)


def _by_query(y, s, qid):
    order = np.argsort(qid, kind="stable")
    return y[order].reshape(-1, N_DOCS), s[order].reshape(-1, N_DOCS)


def _sk_ndcg_loop(y, s, qid, _):
    from sklearn.metrics import ndcg_score as sk_ndcg

    Y, S = _by_query(y, s, qid)
    return np.array([sk_ndcg(Y[i : i + 1], S[i : i + 1], k=10) for i in range(Y.shape[0])])


def _sk_ndcg_matrix(y, s, qid, _):
    from sklearn.metrics import ndcg_score as sk_ndcg

    Y, S = _by_query(y, s, qid)
    return sk_ndcg(Y, S, k=10)


def _ours_map(y, _, qid, sc):
    return mean_average_precision(y, sc, qid=qid, return_per_query=True)


def _sk_ap_loop(y, _, qid, sc):
    from sklearn.metrics import average_precision_score

    Y, S = _by_query(y, sc, qid)
    return np.array([average_precision_score(Y[i] > 0, S[i]) for i in range(Y.shape[0])])


def _case(name, ours, theirs, note, n_queries):
    return Case(
        name=f"ltr.{name} {n_queries}x{N_DOCS}",
        make_data=lambda: _data(n_queries),
        ours=lambda: _Metric(ours),
        theirs=lambda: _Metric(theirs),
        predict_args=lambda d: d,
        method="transform",
        target_fit=None,
        target_predict=1.0,
        time_fit=False,
        repeat=3,
        note=note,
    )


N_ROWS, N_FEATURES = 20_000, 136
_DIR = tempfile.mkdtemp(prefix="bench-svmlight-")


def _letor():
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(N_ROWS, N_FEATURES)) * 10, 4)
    X *= rng.random(X.shape) < 0.9
    y = rng.integers(0, 5, N_ROWS).astype(float)
    qid = np.repeat(np.arange(N_ROWS // 100), 100)
    return X, y, qid


def _letor_file():
    path = os.path.join(_DIR, "letor.txt")
    if not os.path.exists(path):
        X, y, qid = _letor()
        dump_svmlight_file(X, y, path, query_id=qid, zero_based=False)
    return (path,)


def _repr_file():
    """The same rows with full-precision values (``repr``: 16 or 17 significant digits), as
    ``dump_svmlight_file`` writes any float data."""
    path = os.path.join(_DIR, "letor-repr.txt")
    if not os.path.exists(path):
        X, y, qid = _letor()
        X = X / 10 + np.random.default_rng(1).random(X.shape) * (X != 0)
        dump_svmlight_file(X, y, path, query_id=qid, zero_based=False)
    return (path,)


class _Loader:
    def __init__(self, load):
        self.load = load

    def fit(self, *data):
        return self

    def transform(self, path):
        return self.load(path, query_id=True)


class _Dumper:
    def __init__(self, dump, side):
        self.dump, self.path = dump, os.path.join(_DIR, f"dump-{side}.txt")

    def fit(self, *data):
        return self

    def transform(self, X, y, qid):
        self.dump(X, y, self.path, query_id=qid, zero_based=False)
        return self.path


def _sk_load(path, query_id):
    from sklearn.datasets import load_svmlight_file as sk_load

    return sk_load(path, query_id=query_id)


def _sk_dump(X, y, path, query_id, zero_based):
    from sklearn.datasets import dump_svmlight_file as sk_dump

    sk_dump(X, y, path, query_id=query_id, zero_based=zero_based)


def _same_matrices(ours, theirs, data):
    if isinstance(data[0], str):  # load: compare what each side read
        a, b = ours.transform(*data), theirs.transform(*data)
    else:  # dump: read both files back with one reader
        a, b = (_sk_load(side.transform(*data), True) for side in (ours, theirs))
    return max(abs(a[0] - b[0]).max(), np.abs(a[1] - b[1]).max(), np.abs(a[2] - b[2]).max())


def _file_case(name, make_data, ours, theirs, note):
    return Case(
        name=f"svmlight.{name} {N_ROWS}x{N_FEATURES} qid",
        make_data=make_data,
        ours=ours,
        theirs=theirs,
        predict_args=lambda d: d,
        method="transform",
        agree=_same_matrices,
        target_fit=None,
        target_predict=1.0,
        time_fit=False,
        repeat=3,
        note=note,
    )


CASES = [
    _case("ndcg@10 per-query loop", _ours_ndcg, _sk_ndcg_loop, "sklearn: a call per query", 1_000),
    _case("ndcg@10 matrix", _ours_ndcg_mean, _sk_ndcg_matrix, "sklearn: one (Q, 20) call", 10_000),
    _case("map per-query loop", _ours_map, _sk_ap_loop, "sklearn AP, a call per query", 1_000),
    _file_case(
        "load",
        _letor_file,
        lambda: _Loader(load_svmlight_file),
        lambda: _Loader(_sk_load),
        "sklearn: Cython reader",
    ),
    _file_case(
        "load 17-digit",
        _repr_file,
        lambda: _Loader(load_svmlight_file),
        lambda: _Loader(_sk_load),
        "sklearn: Cython reader",
    ),
    _file_case(
        "dump",
        _letor,
        lambda: _Dumper(dump_svmlight_file, "ours"),
        lambda: _Dumper(_sk_dump, "sklearn"),
        "sklearn: Cython writer, %.16g",
    ),
]
