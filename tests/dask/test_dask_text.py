"""CountVectorizer, TfidfTransformer and TfidfVectorizer on Dask documents, against the
in-memory fit on SMS messages.

Everything compared here is a count, or the same floating-point operations on the same
counts: the vocabulary, the pruned terms, n and df_t are sums of integers (exact in any order),
idf_ is the same expression of the same integers, and each row's counts and tf-idf weights
are computed by the same code from the same row. So every equality is exact.
"""

import dask.array as da
import dask.bag as db
import numpy as np
import pytest
import scipy.sparse as sp
from _dask_cases import chunkings

import dask
from scratchlearn.datasets import load_sms_spam
from scratchlearn.feature_extraction.text import (
    CountVectorizer,
    TfidfTransformer,
    TfidfVectorizer,
)

DOCS = list(load_sms_spam().data[:300])


def bag_of(docs, sizes):
    """A bag of ``docs`` cut into partitions of the given sizes."""
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    parts = [dask.delayed(list)(docs[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    return db.from_delayed(parts)


def _same_matrix(got, want):
    """``got`` (a lazy Dask array of CSR blocks, or its value) is exactly ``want``."""
    if isinstance(got, da.Array):
        got = got.compute()
    assert sp.issparse(got) and got.shape == want.shape and got.dtype == want.dtype
    assert (got != want).nnz == 0


OPTIONS = [
    {},
    {"min_df": 2, "max_df": 0.5, "max_features": 150},  # pruning: by df, then by total count
    {"binary": True, "ngram_range": (1, 2), "stop_words": ["the", "to"]},  # per-document path
    {"analyzer": "char_wb", "ngram_range": (2, 3), "vocabulary": ["ab", " a", "ok", "xyz"]},
]


def test_count_vectorizer_fit_and_transform_are_the_in_memory_ones(client):
    cases = [(options, chunkings(300)[1]) for options in OPTIONS] + [({}, chunkings(300)[0])]
    lazy, wanted = [], []
    for options, sizes in cases:
        bag = bag_of(DOCS, sizes)
        want = CountVectorizer(**options)
        wanted.append(want.fit_transform(DOCS))
        got = CountVectorizer(**options).fit(bag)
        assert got.vocabulary_ == want.vocabulary_, (options, sizes)
        assert got.stop_words_ == want.stop_words_
        assert got.fixed_vocabulary_ == want.fixed_vocabulary_
        lazy.append(got.transform(bag))
    for got, want in zip(dask.compute(*lazy), wanted):  # one pass for all the transforms
        _same_matrix(got, want)


def test_one_document_per_partition(client):
    docs = DOCS[:20] + ["a b", ""]  # a partition without any token, and an empty document
    want = CountVectorizer(min_df=2)
    X = want.fit_transform(docs)
    got = CountVectorizer(min_df=2)
    lazy = got.fit_transform(bag_of(docs, chunkings(len(docs))[-1]))
    assert got.vocabulary_ == want.vocabulary_ and got.stop_words_ == want.stop_words_
    _same_matrix(lazy, X)


def test_a_dask_series_of_documents(client):
    # (the first Dask DataFrame of a session imports dask.dataframe and pandas in every worker)
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    docs = DOCS[:40]
    want = TfidfVectorizer()
    W = want.fit_transform(docs)
    got = TfidfVectorizer()
    lazy = got.fit_transform(dd.from_pandas(pd.Series(docs), npartitions=3))
    assert got.vocabulary_ == want.vocabulary_ and np.array_equal(got.idf_, want.idf_)
    _same_matrix(lazy, W)


def test_tfidf_vectorizer_idf_and_weights_are_the_in_memory_ones(client):
    bag = bag_of(DOCS, chunkings(300)[1])
    lazy, wanted = [], []
    for options in ({}, {"smooth_idf": False, "sublinear_tf": True, "norm": "l1", "min_df": 2}):
        want = TfidfVectorizer(**options)
        wanted.append(want.fit_transform(DOCS))
        got = TfidfVectorizer(**options).fit(bag)
        assert got.vocabulary_ == want.vocabulary_
        assert np.array_equal(got.idf_, want.idf_)
        lazy.append(got.transform(bag))
    for got, want in zip(dask.compute(*lazy), wanted):
        _same_matrix(got, want)


def test_tfidf_transformer_on_dask_count_blocks(client):
    bag = bag_of(DOCS, chunkings(300)[1])
    counts = CountVectorizer().fit(bag).transform(bag)  # (nan, V) CSR blocks, lazy
    assert np.isnan(counts.shape[0])
    counts = counts.persist()  # counted once for the fits and transforms below
    in_memory = CountVectorizer().fit_transform(DOCS)
    lazy, wanted = [], []
    for options in ({}, {"smooth_idf": False, "sublinear_tf": True}):
        want = TfidfTransformer(**options).fit(in_memory)
        got = TfidfTransformer(**options).fit(counts)
        assert got.n_features_in_ == want.n_features_in_ and np.array_equal(got.idf_, want.idf_)
        lazy.append(got.transform(counts))
        wanted.append(want.transform(in_memory))
    for got, want in zip(dask.compute(*lazy), wanted):
        _same_matrix(got, want)
    with pytest.raises(ValueError, match="X has 3 features"):
        TfidfTransformer().fit(counts).transform(da.zeros((4, 3), chunks=2))


def _boom(part):
    raise AssertionError("computed")


def test_transform_is_lazy_and_errors_match_the_in_memory_ones(client):
    vec = CountVectorizer().fit(DOCS)
    exploding = db.from_sequence(DOCS[:9], npartitions=3).map_partitions(_boom)
    lazy = vec.transform(exploding)  # nothing computed yet
    assert isinstance(lazy, da.Array) and lazy.shape[1] == len(vec.vocabulary_)
    with pytest.raises(ValueError, match="empty vocabulary"):
        CountVectorizer().fit(bag_of(["a", "b", "", "c"], (2, 2)))
    with pytest.raises(ValueError, match="no terms remain"):  # no term is in 29 of 30 messages
        CountVectorizer(min_df=29).fit(bag_of(DOCS[:30], (10, 20)))
    with pytest.raises(ValueError, match="Document 1 is nan .* within its Dask partition"):
        CountVectorizer().fit(bag_of(DOCS[:3] + [float("nan")], (2, 2)))
    with pytest.raises(TypeError, match="Dask bag or Series"):
        CountVectorizer().fit(da.zeros(3))
