"""Text to numbers: bag-of-words counts and tf-idf weights.

Symbols: ``n`` documents, ``V`` the vocabulary size, ``tf_dt`` the count of term t in document d,
``df_t`` the number of documents containing t.

* :class:`CountVectorizer`: documents → sparse (n, V) matrix of ``tf_dt`` (CSR), with the
  vocabulary ``vocabulary_`` (term → column, columns in sorted term order).
* :class:`TfidfTransformer`: counts → ``w_dt = tf_dt · idf_t``, each row scaled to unit norm, with

  .. math::  \\text{idf}_t = \\ln\\frac{1 + n}{1 + df_t} + 1 \\;\\;(\\text{smooth\\_idf}),
             \\qquad \\text{idf}_t = \\ln\\frac{n}{df_t} + 1 \\;\\;(\\text{otherwise}),

  and ``tf_dt`` replaced by ``1 + ln tf_dt`` when ``sublinear_tf``.
* :class:`TfidfVectorizer`: both in one step.

Fitted vectorisers hold plain data only: ``vocabulary_`` a dict of str → int, ``idf_`` a NumPy
array, ``stop_words_`` a sorted list.
"""

from __future__ import annotations

import numbers
import re
from functools import partial

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, clone
from ..utils._blocks import block_reduce
from ..utils._dask import is_dask_collection
from ..utils._dask_predict import answers_dask
from ..utils._param_validation import Interval, StrOptions
from ..utils.validation import check_is_fitted
from . import _text_dask
from ._text import (
    char_ngrams,
    char_wb_ngrams,
    check_documents,
    count_documents,
    count_joined,
    doc_count_bound,
    document_frequency,
    joinable_pattern,
    kept_terms,
    limit_features,
    reindex_vocabulary,
    strip_accents_ascii,
    strip_accents_unicode,
    word_ngrams,
)

__all__ = ["CountVectorizer", "TfidfTransformer", "TfidfVectorizer"]


class CountVectorizer(TransformerMixin, BaseEstimator):
    """Documents to a sparse matrix of token counts (bag of words).

    Each document is decoded, preprocessed (lower-cased, accents stripped), split into tokens
    by the regular expression ``token_pattern`` (default: runs of two or more word characters),
    stripped of stop words and expanded into word n-grams; or, with ``analyzer="char"`` /
    ``"char_wb"``, cut into character n-grams. Terms whose document frequency falls outside
    [min_df, max_df] are dropped, then only the ``max_features`` most frequent are kept.

    Parameters
    ----------
    input : {"content", "filename", "file"}
        The documents themselves, paths to read, or open files.
    encoding, decode_error : how bytes are decoded (``bytes.decode`` arguments).
    strip_accents : {None, "ascii", "unicode"}
    lowercase : bool, default True
    preprocessor : callable or None
        str → str, replacing lower-casing and accent stripping.
    tokenizer : callable or None
        str → list of tokens, replacing ``token_pattern``.
    stop_words : list of str or None
        Tokens to drop (after preprocessing). No built-in list is shipped: "english" raises.
    token_pattern : str or None, default r"(?u)\\b\\w\\w+\\b"
        At most one capturing group (then the group is the token).
    ngram_range : (min_n, max_n), default (1, 1)
    analyzer : {"word", "char", "char_wb"} or callable
        A callable receives the decoded raw document and returns its features.
    max_df, min_df : float in [0, 1] (proportion of documents) or int (number of documents)
    max_features : int or None
        Keep the terms with the largest total counts.
    vocabulary : dict of term → index, iterable of terms, or None
        A fixed vocabulary; df limits and max_features are then ignored.
    binary : bool, default False
        Record presence (1) instead of counts.
    dtype : NumPy dtype of the matrix, default int64

    Attributes
    ----------
    vocabulary_ : dict str → int
    fixed_vocabulary_ : bool
    stop_words_ : list of str
        Terms dropped by max_df, min_df or max_features (sorted).

    Dask
    ----
    ``fit`` also takes a Dask bag or Series of documents. Each partition is counted by the
    in-memory code above and reduced to (n_b, its sorted terms, df_t, Σ_d tf_dt); partials are
    merged term by term in a tree of fan-in 8, so what travels is a few bytes per distinct term
    of a partition, never a document. The sorted union, pruned by the same rule, is exactly the
    in-memory vocabulary. ``transform`` (and ``fit_transform``, a second pass) returns a Dask
    array of CSR blocks, one per partition, of shape (nan, V), computed lazily.

    Examples
    --------
    >>> from scratchlearn.feature_extraction.text import CountVectorizer
    >>> docs = ["the cat sat", "the cat sat on the mat", "dogs sit"]
    >>> vec = CountVectorizer().fit(docs)
    >>> print(sorted(vec.vocabulary_, key=vec.vocabulary_.get))
    ['cat', 'dogs', 'mat', 'on', 'sat', 'sit', 'the']
    >>> print(vec.transform(docs).toarray())
    [[1 0 0 0 1 0 1]
     [1 0 1 1 1 0 2]
     [0 1 0 0 0 1 0]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "vocabulary_": ("dict", None),
        "fixed_vocabulary_": ("bool", ()),
        "stop_words_": (None, None, "optional"),
    }

    def _check_fitted_state(self):
        """vocabulary_ maps each term (str) to its own column 0..n-1; idf_ has one per term."""
        columns = sorted(self.vocabulary_.values())
        if (
            not all(isinstance(t, str) for t in self.vocabulary_)
            or columns != list(range(len(columns)))
            or not all(type(c) is int for c in columns)
        ):
            raise ValueError("vocabulary_ does not map terms to the columns 0..n-1")
        idf = getattr(self, "idf_", None)
        if idf is not None and (
            not isinstance(idf, np.ndarray)
            or idf.dtype != np.float64
            or idf.shape != (len(columns),)
        ):
            raise ValueError(f"idf_ must be float64 of shape ({len(columns)},)")

    _parameter_constraints = {
        "input": [StrOptions({"content", "filename", "file"})],
        "encoding": [str],
        "decode_error": [StrOptions({"strict", "ignore", "replace"})],
        "strip_accents": [StrOptions({"ascii", "unicode"}), None, "callable"],
        "lowercase": ["boolean"],
        "preprocessor": ["callable", None],
        "tokenizer": ["callable", None],
        "stop_words": [str, list, tuple, set, frozenset, None],
        "token_pattern": [str, None],
        "ngram_range": [tuple],
        "analyzer": [StrOptions({"word", "char", "char_wb"}), "callable"],
        "max_df": [
            Interval(numbers.Real, 0, 1, closed="both"),
            Interval(numbers.Integral, 1, None, closed="left"),
        ],
        "min_df": [
            Interval(numbers.Real, 0, 1, closed="both"),
            Interval(numbers.Integral, 1, None, closed="left"),
        ],
        "max_features": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "vocabulary": ["array-like", dict, None],
        "binary": ["boolean"],
        "dtype": [type, np.dtype, str],
    }

    def __init__(
        self,
        *,
        input="content",
        encoding="utf-8",
        decode_error="strict",
        strip_accents=None,
        lowercase=True,
        preprocessor=None,
        tokenizer=None,
        stop_words=None,
        token_pattern=r"(?u)\b\w\w+\b",
        ngram_range=(1, 1),
        analyzer="word",
        max_df=1.0,
        min_df=1,
        max_features=None,
        vocabulary=None,
        binary=False,
        dtype=np.int64,
    ):
        self.input = input
        self.encoding = encoding
        self.decode_error = decode_error
        self.strip_accents = strip_accents
        self.lowercase = lowercase
        self.preprocessor = preprocessor
        self.tokenizer = tokenizer
        self.stop_words = stop_words
        self.token_pattern = token_pattern
        self.ngram_range = ngram_range
        self.analyzer = analyzer
        self.max_df = max_df
        self.min_df = min_df
        self.max_features = max_features
        self.vocabulary = vocabulary
        self.binary = binary
        self.dtype = dtype

    # -- building the analyser --------------------------------------------------------------
    def decode(self, doc) -> str:
        """The document as str: read from a path or file if ``input`` says so, bytes decoded."""
        if self.input == "filename":
            with open(doc, "rb") as fh:
                doc = fh.read()
        elif self.input == "file":
            doc = doc.read()
        if isinstance(doc, bytes):
            doc = doc.decode(self.encoding, self.decode_error)
        return doc

    def build_preprocessor(self):
        """str → str: the user's preprocessor, or lower-casing then accent stripping."""
        if self.preprocessor is not None:
            return self.preprocessor
        strip = {"ascii": strip_accents_ascii, "unicode": strip_accents_unicode, None: None}.get(
            self.strip_accents, self.strip_accents
        )
        if strip is None:
            return str.lower if self.lowercase else _identity
        if self.lowercase:
            return lambda s: strip(s.lower())
        return strip

    def build_tokenizer(self):
        """str → list of tokens: the user's tokenizer or ``token_pattern``'s ``findall``."""
        if self.tokenizer is not None:
            return self.tokenizer
        pattern = re.compile(self.token_pattern)
        if pattern.groups > 1:
            raise ValueError(
                f"token_pattern {self.token_pattern!r} has {pattern.groups} capturing groups; at "
                "most one is allowed (it then selects the token)."
            )
        return pattern.findall

    def get_stop_words(self):
        """The stop list as a frozenset, or None."""
        sw = self.stop_words
        if sw is None:
            return None
        if isinstance(sw, str):
            raise ValueError(
                f"stop_words={sw!r} is not supported: scratchlearn ships no built-in stop list. "
                "Pass your own list of words, e.g. stop_words=['the', 'a', 'to']."
            )
        return frozenset(sw)

    def build_analyzer(self):
        """raw document → list of features (decoding included)."""
        self._check_ngram_range()
        if callable(self.analyzer):
            return lambda doc: self.analyzer(self.decode(doc))
        preprocess = self.build_preprocessor()
        min_n, max_n = self.ngram_range
        if self.analyzer == "char":
            split = partial(char_ngrams, min_n=min_n, max_n=max_n)
        elif self.analyzer == "char_wb":
            split = partial(char_wb_ngrams, min_n=min_n, max_n=max_n)
        else:
            tokenize = self.build_tokenizer()
            stop = self.get_stop_words()
            if stop is None and max_n == 1:  # the common case: no per-token Python work
                split = tokenize
            else:

                def split(text):
                    return word_ngrams(tokenize(text), min_n, max_n, stop)

        if self.input == "content":

            def analyze(doc):
                if type(doc) is not str:
                    doc = self.decode(doc) if isinstance(doc, bytes) else doc
                return split(preprocess(doc))
        else:

            def analyze(doc):
                return split(preprocess(self.decode(doc)))

        return analyze

    def _check_ngram_range(self):
        r = self.ngram_range
        if (
            len(r) != 2
            or not all(isinstance(v, numbers.Integral) for v in r)
            or r[0] < 1
            or r[0] > r[1]
        ):
            raise ValueError(
                f"Invalid value for ngram_range={r!r}: it must be (min_n, max_n) with "
                "1 <= min_n <= max_n."
            )

    def _count(self, docs, vocabulary):
        """(counts, vocabulary): one pass over the joined corpus when the analyser is the plain
        word tokeniser, else document by document."""
        if (
            self.input == "content"
            and not callable(self.analyzer)
            and self.analyzer == "word"
            and self.tokenizer is None
            and self.stop_words is None
            and self.preprocessor is None
            and not callable(self.strip_accents)
            and tuple(self.ngram_range) == (1, 1)
            and len(docs) > 1
        ):
            pattern = joinable_pattern(self.token_pattern)
            if pattern is not None:
                self._check_ngram_range()
                out = count_joined(docs, self.build_preprocessor(), pattern, vocabulary)
                if out is not None:
                    return out
        return count_documents(docs, self.build_analyzer(), vocabulary)

    def _fixed_vocabulary(self):
        vocab = self.vocabulary
        if vocab is None:
            return None
        if isinstance(vocab, dict):
            out = dict(vocab)
            idx = sorted(out.values())
            if idx != list(range(len(out))):
                missing = sorted(set(range(len(out))) - set(idx))
                raise ValueError(
                    f"The vocabulary's indices must be 0..{len(out) - 1} without gaps or repeats"
                    f"{f'; index {missing[0]} is missing' if missing else ''}."
                )
        else:
            out = {}
            for i, term in enumerate(vocab):
                if out.setdefault(term, i) != i:
                    raise ValueError(f"Duplicate term in vocabulary: {term!r}.")
        if not out:
            raise ValueError("The vocabulary passed to the vectoriser is empty.")
        return {str(t): int(i) for t, i in out.items()}

    # -- fitting ----------------------------------------------------------------------------
    def fit(self, raw_documents, y=None):
        """Learn the vocabulary of the documents. Returns self."""
        if is_dask_collection(raw_documents):
            self._fit_dask(raw_documents)
            return self
        self.fit_transform(raw_documents)
        return self

    def fit_transform(self, raw_documents, y=None):
        """Learn the vocabulary and return the (n, V) CSR count matrix (on Dask documents:
        the fit, then the lazy transform)."""
        if is_dask_collection(raw_documents):
            self._fit_dask(raw_documents)
            return self.transform(raw_documents)
        self._validate_params()
        docs = check_documents(raw_documents, type(self).__name__)
        self.build_analyzer()  # validates ngram_range, token_pattern, stop_words first
        fixed = self._fixed_vocabulary()
        X, vocabulary = self._count(docs, fixed)
        if self.binary:
            X.data.fill(1)
        removed = []
        if fixed is None:
            high, low = self._document_bounds(X.shape[0])
            X, removed = limit_features(X, vocabulary, high, low, self.max_features)
        self.vocabulary_ = vocabulary
        self.fixed_vocabulary_ = fixed is not None
        self.stop_words_ = removed
        return X.astype(self.dtype, copy=False)

    def _document_bounds(self, n):
        """(max_df, min_df) as numbers of documents out of n."""
        high = doc_count_bound(self.max_df, n)
        low = doc_count_bound(self.min_df, n)
        if high < low:
            raise ValueError(f"max_df corresponds to fewer documents ({high}) than min_df ({low}).")
        return high, low

    def _fit_dask(self, raw_documents):
        """Fit on a Dask bag or Series: the corpus statistics (n, terms, df_t, Σ_d tf_dt)
        reduced over the partitions, then the in-memory pruning rule. Returns (n, df) of the
        kept terms, for the idf of TfidfVectorizer."""
        self._validate_params()
        bag = _text_dask.as_bag(raw_documents, type(self).__name__)
        self.build_analyzer()
        fixed = self._fixed_vocabulary()
        n, terms, df, totals = _text_dask.corpus_stats(bag, clone(self), fixed)
        removed = []
        vocabulary = fixed
        if fixed is None:
            vocabulary = {t: i for i, t in enumerate(terms)}
            high, low = self._document_bounds(n)
            mask = kept_terms(df, lambda: totals, high, low, self.max_features)
            removed = reindex_vocabulary(vocabulary, mask)
            df = df[mask]
        self.vocabulary_ = vocabulary
        self.fixed_vocabulary_ = fixed is not None
        self.stop_words_ = removed
        return n, df

    def transform(self, raw_documents):
        """Count the fitted vocabulary's terms in each document (other terms are ignored).

        Dask bag or Series: a Dask array of CSR blocks, one per partition, of shape (nan, V),
        computed lazily."""
        check_is_fitted(self, "vocabulary_")
        if is_dask_collection(raw_documents):
            bag = _text_dask.as_bag(raw_documents, type(self).__name__)
            return _text_dask.count_blocks(bag, clone(self), self.vocabulary_, self.dtype)
        docs = check_documents(raw_documents, type(self).__name__)
        X, _ = self._count(docs, self.vocabulary_)
        if self.binary:
            X.data.fill(1)
        return X.astype(self.dtype, copy=False)

    def inverse_transform(self, X):
        """For each row of X, the array of terms with a non-zero entry."""
        check_is_fitted(self, "vocabulary_")
        X = sp.csr_matrix(X)
        terms = self.get_feature_names_out()
        return [
            terms[
                X.indices[X.indptr[i] : X.indptr[i + 1]][X.data[X.indptr[i] : X.indptr[i + 1]] != 0]
            ]
            for i in range(X.shape[0])
        ]

    def get_feature_names_out(self, input_features=None):
        """The terms as an object array, in column order."""
        check_is_fitted(self, "vocabulary_")
        out = np.empty(len(self.vocabulary_), dtype=object)
        for term, i in self.vocabulary_.items():
            out[i] = term
        return out

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["text"], preserves_dtype=[], dask=True)
        return t


def _identity(s):
    return s


# -- tf-idf ---------------------------------------------------------------------------------
def inverse_document_frequency(X, smooth_idf: bool, dtype=np.float64):
    """idf_t = ln((n + s)/(df_t + s)) + 1 with s = 1 if ``smooth_idf`` (one extra document
    containing every term, so no division by zero) else 0."""
    return idf_from_counts(X.shape[0], document_frequency(X), smooth_idf, dtype)


def idf_from_counts(n, df, smooth_idf: bool, dtype=np.float64):
    """idf_t from the number of documents n and the document frequencies df (the statistic a
    fit on Dask reduces the corpus to)."""
    n = int(n)  # a Python int: it must not promote a float32 df to float64
    df = np.asarray(df).astype(dtype)
    s = int(smooth_idf)
    with np.errstate(divide="ignore"):
        return np.log((n + s) / (df + s)) + 1.0


def tfidf_weights(X, idf, norm, sublinear_tf: bool):
    """w_dt = tf'_dt · idf_t then each row divided by its l1 or l2 norm (in place on X, CSR),
    with tf' = 1 + ln tf when ``sublinear_tf``. Rows of norm 0 are left as zeros."""
    if sublinear_tf:
        np.log(X.data, out=X.data)
        X.data += 1.0
    if idf is not None:
        X.data *= idf[X.indices]
    if norm is not None:
        nnz_per_row = np.diff(X.indptr)
        row_of = np.repeat(np.arange(X.shape[0]), nnz_per_row)  # row of every stored entry
        sq = X.data * X.data if norm == "l2" else np.abs(X.data)
        row_norm = np.bincount(row_of, weights=sq, minlength=X.shape[0]).astype(X.dtype)
        if norm == "l2":
            row_norm = np.sqrt(row_norm)
        row_norm[row_norm == 0] = 1.0
        X.data /= row_norm[row_of]
    return X


class TfidfTransformer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Counts → tf-idf weights, rows normalised.

    .. math::  w_{dt} = \\frac{tf_{dt}\\, idf_t}{\\lVert tf_d \\odot idf \\rVert},\\qquad
               idf_t = \\ln\\frac{1 + n}{1 + df_t} + 1 \\;\\text{(smooth)}

    Parameters
    ----------
    norm : {"l2", "l1"} or None, default "l2"
    use_idf : bool, default True
    smooth_idf : bool, default True
        Add one to n and to every df_t (as if one document held every term).
    sublinear_tf : bool, default False
        Use 1 + ln(tf) instead of tf.

    Attributes
    ----------
    idf_ : ndarray (V,) (only when ``use_idf``), ``n_features_in_``.

    Dask
    ----
    On a Dask array of count blocks (sparse or dense, e.g. ``CountVectorizer.transform`` of a
    Dask bag), ``fit`` reduces each block to (n_b, df_b) and adds them (one pass; V + 1
    integers travel per block); ``transform`` weights each block lazily.

    Examples
    --------
    >>> from scratchlearn.feature_extraction.text import TfidfTransformer
    >>> counts = [[3, 0, 1], [2, 0, 0], [3, 0, 0], [4, 0, 0], [3, 2, 0], [3, 0, 2]]
    >>> tfidf = TfidfTransformer().fit(counts)
    >>> print(tfidf.idf_.round(3))
    [1.    2.253 1.847]
    >>> print(tfidf.transform(counts[:2]).toarray().round(3))
    [[0.852 0.    0.524]
     [1.    0.    0.   ]]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "idf_": ("float64", ("n_features_in_",), "optional"),
    }

    _parameter_constraints = {
        "norm": [StrOptions({"l1", "l2"}), None],
        "use_idf": ["boolean"],
        "smooth_idf": ["boolean"],
        "sublinear_tf": ["boolean"],
    }

    def __init__(self, *, norm="l2", use_idf=True, smooth_idf=True, sublinear_tf=False):
        self.norm = norm
        self.use_idf = use_idf
        self.smooth_idf = smooth_idf
        self.sublinear_tf = sublinear_tf

    def fit(self, X, y=None):
        """Learn ``idf_`` from the document frequencies of a count matrix. Returns self."""
        self._validate_params()
        if is_dask_collection(X):
            return self._fit_dask(X)
        X = self._validate_data(X, accept_sparse=("csr", "csc"), reset=True)
        if not sp.issparse(X):
            X = sp.csr_matrix(X)
        dtype = X.dtype if X.dtype in (np.float64, np.float32) else np.float64
        if self.use_idf:
            self.idf_ = inverse_document_frequency(X, self.smooth_idf, dtype)
        elif hasattr(self, "idf_"):
            del self.idf_
        return self

    def _check_dask(self, X, reset):
        """A Dask count matrix: a 2-D Dask array (of sparse or dense blocks), its width checked
        or recorded; its float dtype as in memory (float32 kept, anything else float64)."""
        import dask.array as da

        if not isinstance(X, da.Array) or X.ndim != 2:
            raise TypeError(
                f"{type(self).__name__} takes a Dask count matrix as a 2-D Dask array (e.g. "
                f"from CountVectorizer.transform of a Dask bag); got a Dask {type(X).__name__}."
            )
        self._check_feature_names(X, reset=reset)
        self._check_n_features(X, reset=reset)
        return X.dtype if X.dtype in (np.float64, np.float32) else np.dtype(np.float64)

    def _fit_dask(self, X):
        """idf_ from (n, df_t) reduced over the row blocks (``_text_dask.df_stats``)."""
        dtype = self._check_dask(X, reset=True)
        if self.use_idf:
            n, df = block_reduce(_text_dask.df_stats, X)
            self.idf_ = idf_from_counts(n, df, self.smooth_idf, dtype)
        elif hasattr(self, "idf_"):
            del self.idf_
        return self

    @answers_dask  # sparse blocks, by _text_dask.lazy_tfidf
    def transform(self, X, copy=True):
        """The tf-idf matrix (CSR, float) of a count matrix (lazily block by block for a Dask
        array)."""
        check_is_fitted(self, "n_features_in_")
        if is_dask_collection(X):
            dtype = self._check_dask(X, reset=False)
            idf = self.idf_ if self.use_idf else None
            return _text_dask.lazy_tfidf(X, idf, self.norm, self.sublinear_tf, dtype)
        X = self._validate_data(
            X, accept_sparse="csr", dtype=[np.float64, np.float32], copy=copy, reset=False
        )
        if not sp.issparse(X):
            X = sp.csr_matrix(X, dtype=X.dtype)
        idf = self.idf_ if self.use_idf else None
        return tfidf_weights(X, idf, self.norm, self.sublinear_tf)

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"], preserves_dtype=["float64", "float32"], dask=True)
        return t


class TfidfVectorizer(CountVectorizer):
    """Documents → tf-idf matrix: :class:`CountVectorizer` then :class:`TfidfTransformer`.

    Takes every parameter of both (``dtype`` must be a float type, default float64).

    Attributes
    ----------
    vocabulary_, fixed_vocabulary_, stop_words_
        As :class:`CountVectorizer`.
    idf_ : ndarray of shape (V,)
        Inverse document frequencies (only when ``use_idf``).

    Dask
    ----
    On a Dask bag or Series, the vocabulary and ``idf_`` come from the one reduction of
    CountVectorizer (n and df_t of the kept terms); ``transform`` weights the lazy count
    blocks block by block.

    Examples
    --------
    >>> from scratchlearn.feature_extraction.text import TfidfVectorizer
    >>> docs = ["the cat sat", "the cat sat on the mat", "dogs sit"]
    >>> vec = TfidfVectorizer().fit(docs)
    >>> print(sorted(vec.vocabulary_, key=vec.vocabulary_.get))
    ['cat', 'dogs', 'mat', 'on', 'sat', 'sit', 'the']
    >>> print(vec.idf_.round(3))
    [1.288 1.693 1.693 1.693 1.288 1.693 1.288]
    >>> print(vec.transform(["the dogs"]).toarray().round(3))
    [[0.    0.796 0.    0.    0.    0.    0.605]]
    """

    _parameter_constraints = {
        **CountVectorizer._parameter_constraints,
        **TfidfTransformer._parameter_constraints,
    }

    def __init__(
        self,
        *,
        input="content",
        encoding="utf-8",
        decode_error="strict",
        strip_accents=None,
        lowercase=True,
        preprocessor=None,
        tokenizer=None,
        analyzer="word",
        stop_words=None,
        token_pattern=r"(?u)\b\w\w+\b",
        ngram_range=(1, 1),
        max_df=1.0,
        min_df=1,
        max_features=None,
        vocabulary=None,
        binary=False,
        dtype=np.float64,
        norm="l2",
        use_idf=True,
        smooth_idf=True,
        sublinear_tf=False,
    ):
        super().__init__(
            input=input,
            encoding=encoding,
            decode_error=decode_error,
            strip_accents=strip_accents,
            lowercase=lowercase,
            preprocessor=preprocessor,
            tokenizer=tokenizer,
            analyzer=analyzer,
            stop_words=stop_words,
            token_pattern=token_pattern,
            ngram_range=ngram_range,
            max_df=max_df,
            min_df=min_df,
            max_features=max_features,
            vocabulary=vocabulary,
            binary=binary,
            dtype=dtype,
        )
        self.norm = norm
        self.use_idf = use_idf
        self.smooth_idf = smooth_idf
        self.sublinear_tf = sublinear_tf

    def _float_dtype(self):
        dt = np.dtype(self.dtype)
        if dt not in (np.float64, np.float32):
            raise ValueError(f"TfidfVectorizer needs a float dtype (float64 or float32); got {dt}.")
        return dt

    def fit(self, raw_documents, y=None):
        """Learn the vocabulary and ``idf_``. Returns self."""
        if is_dask_collection(raw_documents):
            self._fit_dask(raw_documents)
            return self
        self.fit_transform(raw_documents)
        return self

    def _fit_dask(self, raw_documents):
        """The vocabulary and ``idf_`` from one reduction of the corpus statistics (n, df_t)."""
        self._validate_params()
        dt = self._float_dtype()
        n, df = super()._fit_dask(raw_documents)
        if self.use_idf:
            self.idf_ = idf_from_counts(n, df, self.smooth_idf, dt)
        elif hasattr(self, "idf_"):
            del self.idf_
        return n, df

    def fit_transform(self, raw_documents, y=None):
        """Learn the vocabulary and ``idf_``; return the (n, V) tf-idf matrix."""
        if is_dask_collection(raw_documents):
            self._fit_dask(raw_documents)
            return self.transform(raw_documents)
        self._validate_params()
        dt = self._float_dtype()
        X = super().fit_transform(raw_documents).astype(dt, copy=False)
        if self.use_idf:
            self.idf_ = inverse_document_frequency(X, self.smooth_idf, dt)
        elif hasattr(self, "idf_"):
            del self.idf_
        return tfidf_weights(X, getattr(self, "idf_", None), self.norm, self.sublinear_tf)

    def transform(self, raw_documents):
        """The tf-idf matrix of new documents with the fitted vocabulary and ``idf_``."""
        check_is_fitted(self, "vocabulary_")
        idf = self.idf_ if self.use_idf else None
        if is_dask_collection(raw_documents):
            counts = super().transform(raw_documents)
            return _text_dask.lazy_tfidf(
                counts, idf, self.norm, self.sublinear_tf, self._float_dtype()
            )
        X = super().transform(raw_documents).astype(self._float_dtype(), copy=False)
        return tfidf_weights(X, idf, self.norm, self.sublinear_tf)
