"""The vectorisers on Dask: documents in a Dask bag or Series, counts in sparse row blocks.

Symbols as in :mod:`scratchlearn.feature_extraction.text`: ``n`` documents, ``df_t`` the
number of documents containing term t, ``tf_dt`` the count of t in document d.

Fitting needs, of the whole corpus, only

.. math::  S = \\bigl(n,\\; \\{t\\},\\; (df_t)_t,\\; (\\textstyle\\sum_d tf_{dt})_t\\bigr),

and S of a union of partitions is the union of their term sets with n, df and the totals
added term by term (:func:`merge_term_stats`: associative). Each partition is counted by the
vectoriser's own in-memory code (``_count``), so its terms are exactly the in-memory ones; the
partial statistics are merged in a tree of fan-in 8; the vocabulary is the sorted union,
pruned by the in-memory rule (:func:`~._text.kept_terms`) from df and the totals. What travels
is one entry per distinct term of a partition (a few bytes per term, independent of the
number of documents beyond the vocabulary's growth). ``idf_`` comes from the same n and df.

Transforming is lazy: each partition becomes one CSR block of a Dask array of shape
(nan, V) (partition lengths are not known before counting), so a transform costs nothing
until computed and ``TfidfTransformer`` reduces its blocks to (n, df) the same way.
"""

from __future__ import annotations

from functools import partial, reduce

import numpy as np
import scipy.sparse as sp

from ._text import document_frequency

__all__ = [
    "as_bag",
    "term_stats",
    "merge_term_stats",
    "corpus_stats",
    "count_blocks",
    "df_stats",
    "tfidf_block",
    "lazy_tfidf",
]

_EMPTY = "empty vocabulary"


def as_bag(raw_documents, owner):
    """A Dask bag of the documents of a Dask bag or Series (one partition per partition)."""
    if hasattr(raw_documents, "to_bag") and getattr(raw_documents, "ndim", 1) == 1:
        return raw_documents.to_bag()
    if hasattr(raw_documents, "map_partitions") and hasattr(raw_documents, "pluck"):
        return raw_documents  # a bag
    raise TypeError(
        f"{owner} takes Dask documents as a Dask bag or Series of str; got a Dask "
        f"{type(raw_documents).__name__}."
    )


def term_stats(docs, vectorizer, vocabulary=None):
    """S of one partition: (n_b, sorted terms or None, df, totals).

    ``vocabulary`` None: the partition's own terms (sorted); a dict: the columns of that fixed
    vocabulary (terms None). Counted by the vectoriser's in-memory code, ``binary`` applied as
    in the in-memory fit (before the totals).
    """
    docs = list(docs)
    V = 0 if vocabulary is None else len(vocabulary)
    if not docs:
        return 0, [] if vocabulary is None else None, np.zeros(V, np.int64), np.zeros(V, np.int64)
    try:
        X, vocab = _count(vectorizer, docs, vocabulary)
    except ValueError as exc:
        if vocabulary is None and str(exc).startswith(_EMPTY):
            return len(docs), [], np.zeros(0, np.int64), np.zeros(0, np.int64)
        raise
    if vectorizer.binary:
        X.data.fill(1)
    df = document_frequency(X).astype(np.int64)
    totals = np.asarray(X.sum(axis=0)).ravel().astype(np.int64)
    return (
        len(docs),
        (sorted(vocab, key=vocab.__getitem__) if vocabulary is None else None),
        df,
        totals,
    )


def _count(vectorizer, docs, vocabulary):
    """The in-memory count of one partition; a bad document's index is the partition's."""
    try:
        return vectorizer._count(docs, vocabulary)
    except ValueError as exc:
        if str(exc).startswith("Document "):
            raise ValueError(f"{exc} (The index counts within its Dask partition.)") from None
        raise


def merge_term_stats(a, b):
    """S_a ⊕ S_b: n added; terms united (sorted), df and totals added term by term."""
    n_a, terms_a, df_a, tot_a = a
    n_b, terms_b, df_b, tot_b = b
    if terms_a is None:  # fixed vocabulary: the same columns on both sides
        return n_a + n_b, None, df_a + df_b, tot_a + tot_b
    terms = sorted(set(terms_a).union(terms_b))
    index = {t: i for i, t in enumerate(terms)}
    df, tot = np.zeros(len(terms), np.int64), np.zeros(len(terms), np.int64)
    for ts, d, c in ((terms_a, df_a, tot_a), (terms_b, df_b, tot_b)):
        at = np.fromiter(map(index.__getitem__, ts), np.int64, len(ts))
        df[at] += d
        tot[at] += c
    return n_a + n_b, terms, df, tot


def _merge_all(parts):
    return reduce(merge_term_stats, parts)


def corpus_stats(bag, vectorizer, vocabulary=None, split_every=8):
    """S of the whole corpus, reduced on the cluster: (n, terms, df, totals)."""
    per_partition = partial(term_stats, vectorizer=vectorizer, vocabulary=vocabulary)
    n, terms, df, tot = bag.reduction(per_partition, _merge_all, split_every=split_every).compute()
    if vocabulary is None and not terms:
        raise ValueError(
            "empty vocabulary: the documents contain no tokens (perhaps they are empty, or "
            "contain only stop words, or the token pattern matches nothing)."
        )
    return n, terms, df, tot


def _count_partition(docs, vectorizer, vocabulary, dtype):
    docs = list(docs)
    if not docs:
        return sp.csr_matrix((0, len(vocabulary)), dtype=dtype)
    X, _ = _count(vectorizer, docs, vocabulary)
    if vectorizer.binary:
        X.data.fill(1)
    return X.astype(dtype, copy=False)


def count_blocks(bag, vectorizer, vocabulary, dtype):
    """The (nan, V) Dask array of CSR count blocks, one per partition, lazily."""
    import dask.array as da

    V = len(vocabulary)
    blocks = bag.map_partitions(_count_partition, vectorizer, vocabulary, dtype).to_delayed()
    meta = sp.csr_matrix((0, V), dtype=dtype)
    parts = [da.from_delayed(b, shape=(np.nan, V), dtype=dtype, meta=meta) for b in blocks]
    return da.concatenate(parts, axis=0)


def df_stats(X):
    """(n_b, df) of one block of a count matrix (sparse or dense)."""
    X = X if sp.issparse(X) else sp.csr_matrix(X)
    return np.array(X.shape[0]), document_frequency(X.tocsr()).astype(np.int64)


def tfidf_block(X, idf, norm, sublinear_tf, dtype):
    """tf-idf weights of one block (CSR), as the in-memory transform computes them."""
    from .text import tfidf_weights

    X = sp.csr_matrix(X, dtype=dtype, copy=True)
    return tfidf_weights(X, idf, norm, sublinear_tf)


def lazy_tfidf(X, idf, norm, sublinear_tf, dtype):
    """tf-idf of every block of the Dask array X, lazily (CSR blocks)."""
    meta = sp.csr_matrix((0, X.shape[1]), dtype=dtype)
    return X.map_blocks(tfidf_block, idf, norm, sublinear_tf, dtype, dtype=dtype, meta=meta)
