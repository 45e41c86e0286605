"""The machinery behind the bag-of-words vectorisers: analysers and the sparse count build.

An *analyser* turns one raw document into its list of features (tokens, word n-grams or character
n-grams). Counting then needs no per-token Python loop: each document's features are mapped to
column indices by a C-level ``map`` over a dict (new terms get the next free index, through a
``defaultdict`` whose factory is the dict's own length), appended to a typed ``array``, and the
matrix is assembled once as CSR with duplicate (document, term) pairs summed by scipy.

Symbols: ``n`` documents, ``V`` the vocabulary size, ``df_t`` the number of documents containing
term t, ``tf_dt`` the count of term t in document d.
"""

from __future__ import annotations

import numbers
import re
import unicodedata
from array import array
from collections import defaultdict
from itertools import repeat

import numpy as np
import scipy.sparse as sp

from ..utils._dask import refuse_dask

__all__ = [
    "strip_accents_ascii",
    "strip_accents_unicode",
    "word_ngrams",
    "char_ngrams",
    "char_wb_ngrams",
    "count_documents",
    "limit_features",
    "check_documents",
]

_RUNS_OF_SPACE = re.compile(r"\s\s+")


def strip_accents_unicode(s: str) -> str:
    """Remove combining marks after canonical decomposition (é → e); ASCII is returned as is."""
    if s.isascii():
        return s
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch))


def strip_accents_ascii(s: str) -> str:
    """Decompose, then drop every character without an ASCII representation."""
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode("ascii")


def word_ngrams(tokens, min_n: int, max_n: int, stop=None) -> list:
    """Tokens minus stop words, then every run of n consecutive tokens for min_n ≤ n ≤ max_n,
    joined by one space (stop words are removed first, so n-grams bridge them)."""
    if stop:
        tokens = [t for t in tokens if t not in stop]
    if max_n == 1:
        return tokens
    out = list(tokens) if min_n == 1 else []
    for n in range(max(min_n, 2), min(max_n, len(tokens)) + 1):
        out += map(" ".join, zip(*[tokens[k:] for k in range(n)]))
    return out


def char_ngrams(text: str, min_n: int, max_n: int) -> list:
    """Every substring of length min_n..max_n, after collapsing runs of white space."""
    text = _RUNS_OF_SPACE.sub(" ", text)
    L = len(text)
    out = []
    for n in range(min_n, min(max_n, L) + 1):
        out += [text[i : i + n] for i in range(L - n + 1)]
    return out


def char_wb_ngrams(text: str, min_n: int, max_n: int) -> list:
    """Character n-grams inside word boundaries: each word is padded with one space on each
    side; a padded word no longer than n yields itself once and stops the growth of n."""
    text = _RUNS_OF_SPACE.sub(" ", text)
    out = []
    for word in text.split():
        w = f" {word} "
        L = len(w)
        for n in range(min_n, max_n + 1):
            if L <= n:
                out.append(w)
                break
            out += [w[i : i + n] for i in range(L - n + 1)]
    return out


def _describe_bad_document(i, doc) -> str:
    if isinstance(doc, float) and doc != doc:
        what = "nan (a missing value)"
    else:
        what = f"{type(doc).__name__} {doc!r:.60}"
    return (
        f"Document {i} is {what}; the vectoriser expects an iterable of str (or bytes) "
        "documents. Replace missing documents by '' or drop them."
    )


def check_documents(raw_documents, owner: str) -> list:
    """The documents as a list, or a clear error for a single string or a non-iterable.

    A Dask bag or Series is refused by name (listing it would compute it)."""
    refuse_dask(raw_documents, owner, "raw_documents")
    if isinstance(raw_documents, (str, bytes)):
        raise ValueError(
            f"{owner} expects an iterable of documents (e.g. a list of str), but a single "
            f"{type(raw_documents).__name__} was passed. Wrap it in a list: [text]."
        )
    if raw_documents is None or sp.issparse(raw_documents):
        raise ValueError(
            f"{owner} expects an iterable of str documents; got {raw_documents!r:.60}."
        )
    if isinstance(raw_documents, np.ndarray) and raw_documents.ndim != 1:
        raise ValueError(
            f"{owner} expects a 1-d iterable of documents; got an array of shape "
            f"{raw_documents.shape}."
        )
    try:
        return raw_documents if isinstance(raw_documents, list) else list(raw_documents)
    except TypeError:
        raise ValueError(
            f"{owner} expects an iterable of str documents; got {type(raw_documents).__name__}."
        ) from None


def count_documents(docs, analyze, vocabulary=None):
    """Term counts of every document as CSR (n, V), and the vocabulary.

    ``vocabulary`` None: learn it (terms indexed in sorted order, as ``vocabulary_``); a dict:
    count only its terms, ignoring the others. Returns ``(X, vocabulary)`` with X of int64
    counts, sorted column indices and no duplicate entries.
    """
    learn = vocabulary is None
    j = array("i")  # column index of every feature occurrence, document after document
    indptr = array("q", [0])
    if learn:
        vocab = defaultdict()
        vocab.default_factory = vocab.__len__  # a new term gets the next free index
        index = vocab.__getitem__
        for i, doc in enumerate(docs):
            try:
                j.extend(map(index, analyze(doc)))
            except (TypeError, AttributeError) as exc:
                _raise_for(i, doc, exc)
            indptr.append(len(j))
        if not vocab:
            raise ValueError(
                "empty vocabulary: the documents contain no tokens (perhaps they are empty, or "
                "contain only stop words, or the token pattern matches nothing)."
            )
        terms = list(vocab)  # insertion order = provisional index
        order = sorted(range(len(terms)), key=terms.__getitem__)
        remap = np.empty(len(terms), dtype=np.int32)
        remap[order] = np.arange(len(terms), dtype=np.int32)  # provisional -> sorted index
        vocabulary = {terms[k]: i for i, k in enumerate(order)}
        indices = remap[np.frombuffer(j, dtype=np.int32)] if len(j) else np.empty(0, np.int32)
        ptr = np.frombuffer(indptr, dtype=np.int64)
    else:
        get = vocabulary.get
        for i, doc in enumerate(docs):
            try:
                j.extend(map(get, analyze(doc), repeat(-1)))
            except (TypeError, AttributeError) as exc:
                _raise_for(i, doc, exc)
            indptr.append(len(j))
        indices = np.frombuffer(j, dtype=np.int32) if len(j) else np.empty(0, np.int32)
        ptr = np.frombuffer(indptr, dtype=np.int64)
        known = indices >= 0
        if not known.all():  # drop out-of-vocabulary tokens, then rebuild the row pointers
            doc_of = np.repeat(np.arange(ptr.shape[0] - 1), np.diff(ptr))
            per_doc = np.bincount(doc_of[known], minlength=ptr.shape[0] - 1)
            ptr = np.concatenate([[0], np.cumsum(per_doc)])
            indices = indices[known]
    return _assemble(indices, ptr, ptr.shape[0] - 1, len(vocabulary)), vocabulary


SEP = "\x00"  # joins documents for the one-pass tokeniser; never part of a \w token
_WORD_ONLY = re.compile(r"(\(\?u\))?(\\b|\\w|[+*?]|\{\d*,?\d*\})+")


def joinable_pattern(token_pattern):
    """A compiled ``SEP|(?:pattern)`` when ``token_pattern`` is built only of \\w, \\b and
    repetitions (the default is), so no token can contain or cross ``SEP``; else None."""
    if not isinstance(token_pattern, str) or not _WORD_ONLY.fullmatch(token_pattern):
        return None
    body = token_pattern[4:] if token_pattern.startswith("(?u)") else token_pattern
    if body == r"\b\w\w+\b":
        # the same tokens under findall: a greedy run of 2+ word characters can only start at
        # a word's first character and always runs to its end; the \b tests cost time
        body = r"\w\w+"
    return re.compile(f"{SEP}|(?:{body})")


def count_joined(docs, preprocess, pattern, vocabulary=None):
    """:func:`count_documents` for the default word analyser, in one pass over the corpus.

    The documents are joined by ``SEP``, preprocessed and tokenised with a single ``findall``
    whose pattern also matches ``SEP``; the separators then give the row pointers. Returns None
    when this does not apply (a non-str document, or a document containing ``SEP``), so the
    caller falls back to the document-by-document path.
    """
    try:
        text = SEP.join(docs)
    except TypeError:
        return None
    if text.count(SEP) != max(len(docs) - 1, 0):
        return None
    tokens = pattern.findall(preprocess(text))
    n = len(docs)
    learn = vocabulary is None
    if learn:
        vocab = defaultdict()
        vocab.default_factory = vocab.__len__
        vocab[SEP] = 0  # separators get index 0, terms 1..V
        ids = np.fromiter(map(vocab.__getitem__, tokens), np.int64, len(tokens))
        del vocab[SEP]
    else:
        lookup = dict(vocabulary)
        lookup[SEP] = -2
        ids = np.fromiter(map(lookup.get, tokens, repeat(-1)), np.int64, len(tokens))
    seps = np.flatnonzero(ids == (0 if learn else -2))  # (n − 1,) positions of separators
    # tokens of document k lie between separators k−1 and k; drop the separators
    ends = np.concatenate([seps, [ids.shape[0]]]) - np.arange(n)
    ptr = np.concatenate([[0], ends])
    ids = np.delete(ids, seps)
    if learn:
        terms = list(vocab)
        order = sorted(range(len(terms)), key=terms.__getitem__)
        if not terms:
            raise ValueError(
                "empty vocabulary: the documents contain no tokens (perhaps they are empty, or "
                "contain only stop words, or the token pattern matches nothing)."
            )
        remap = np.empty(len(terms) + 1, dtype=np.int64)
        remap[np.asarray(order) + 1] = np.arange(len(terms))  # provisional 1..V -> sorted
        indices = remap[ids]
        vocabulary = {terms[k]: i for i, k in enumerate(order)}
    else:
        indices = ids
        known = indices >= 0
        if not known.all():
            doc_of = np.repeat(np.arange(n), np.diff(ptr))
            per_doc = np.bincount(doc_of[known], minlength=n)
            ptr = np.concatenate([[0], np.cumsum(per_doc)])
            indices = indices[known]
    return _assemble(indices, ptr, n, len(vocabulary)), vocabulary


def _assemble(indices, ptr, n, V):
    """CSR (n, V) of counts from each occurrence's column and the row pointers."""
    idx_dtype = np.int32 if ptr[-1] < np.iinfo(np.int32).max and V < 2**31 else np.int64
    X = sp.csr_matrix(
        (
            np.ones(indices.shape[0], dtype=np.int64),
            indices.astype(idx_dtype),
            np.asarray(ptr).astype(idx_dtype),
        ),
        shape=(n, V),
    )
    X.sum_duplicates()  # tf_dt: sorts each row's indices and adds repeated terms
    return X


def _raise_for(i, doc, exc):
    if isinstance(doc, (str, bytes)):
        raise exc  # the document was fine: the error comes from a user callable
    raise ValueError(_describe_bad_document(i, doc)) from None


def document_frequency(X) -> np.ndarray:
    """df_t: the number of rows with a stored entry in column t (CSR or CSC)."""
    if X.format == "csr":
        return np.bincount(X.indices, minlength=X.shape[1])
    return np.diff(X.tocsc().indptr)


def limit_features(X, vocabulary, high, low, limit):
    """Keep the terms with low ≤ df_t ≤ high and then, if ``limit``, the ``limit`` terms of
    largest total count; reindex the vocabulary in place. Returns (X, removed terms)."""
    mask = kept_terms(
        document_frequency(X), lambda: np.asarray(X.sum(axis=0)).ravel(), high, low, limit
    )
    removed = reindex_vocabulary(vocabulary, mask)
    return X[:, np.flatnonzero(mask)], removed


def kept_terms(df, total_count, high, low, limit):
    """The mask of the terms kept: low ≤ df_t ≤ high, then the ``limit`` of largest total
    count Σ_d tf_dt (``total_count()`` is called only when the limit binds). One rule for the
    in-memory fit and for the Dask fit, which has df and the totals without the matrix."""
    mask = np.ones(df.shape[0], dtype=bool)
    if high is not None:
        mask &= df <= high
    if low is not None:
        mask &= df >= low
    if limit is not None and mask.sum() > limit:
        tf = total_count()  # total count of each term
        best = (-tf[mask]).argsort()[:limit]
        keep = np.zeros_like(mask)
        keep[np.flatnonzero(mask)[best]] = True
        mask = keep
    if not mask.any():
        raise ValueError("After pruning, no terms remain. Try a lower min_df or a higher max_df.")
    return mask


def reindex_vocabulary(vocabulary, mask):
    """Drop the terms whose column is not in ``mask`` and renumber the others in place, in
    column order. Returns the removed terms, sorted."""
    new_index = np.cumsum(mask) - 1
    removed = []
    for term, old in list(vocabulary.items()):
        if mask[old]:
            vocabulary[term] = int(new_index[old])
        else:
            del vocabulary[term]
            removed.append(term)
    return sorted(removed)


def doc_count_bound(value, n_docs):
    """min_df / max_df as a number of documents: an int is a count, a float a proportion."""
    if isinstance(value, numbers.Integral):
        return value
    return value * n_docs
