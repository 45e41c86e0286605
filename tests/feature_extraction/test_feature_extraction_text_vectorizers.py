"""Bag of words and tf-idf: identical to scikit-learn on the SMS collection, and clear errors.

Count matrices and vocabularies must be identical (integers). Tf-idf values agree to 1e-12: the
same logs and products, only the order of a row's sum of squares may differ (≤ a few ulps).
"""

import functools
import os

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.feature_extraction.text as sk

from _data import shared_data_dir  # tests/ is on sys.path (rootdir conftest)
from scratchlearn.exceptions import NotFittedError
from scratchlearn.feature_extraction.text import CountVectorizer, TfidfTransformer, TfidfVectorizer

DATA = shared_data_dir()


@functools.lru_cache(maxsize=1)
def sms():
    with open(os.path.join(DATA, "sms_spam", "SMSSpamCollection"), encoding="utf-8") as fh:
        return tuple(line.rstrip("\n").split("\t", 1)[1] for line in fh if line.strip())


def assert_same_matrix(ours, theirs, tol=0.0):
    assert type(ours) is type(theirs) and ours.format == "csr"
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    assert ours.has_canonical_format  # sorted indices, no duplicates
    theirs = theirs.copy()
    theirs.sort_indices()  # scikit-learn leaves each row's columns in first-seen order
    np.testing.assert_array_equal(ours.indptr, theirs.indptr)
    np.testing.assert_array_equal(ours.indices, theirs.indices)
    if tol == 0.0:
        np.testing.assert_array_equal(ours.data, theirs.data)
    else:
        np.testing.assert_allclose(ours.data, theirs.data, rtol=tol, atol=tol)


OPTIONS = [
    {},
    {"ngram_range": (1, 2)},
    {"ngram_range": (2, 3), "min_df": 2},
    {"min_df": 3, "max_df": 0.5},
    {"min_df": 0.001, "max_df": 40},
    {"max_features": 500},
    {"max_features": 300, "binary": True},
    {"binary": True},
    {"lowercase": False},
    {"stop_words": ["the", "to", "you", "a", "i"]},
    {"stop_words": ["the", "to"], "ngram_range": (1, 3), "max_features": 2000},
    {"token_pattern": r"(?u)\b\w+\b"},
    {"token_pattern": r"([a-z]+)\d"},
    {"analyzer": "char", "ngram_range": (2, 4)},
    {"analyzer": "char_wb", "ngram_range": (1, 5), "min_df": 2},
    {"strip_accents": "unicode"},
    {"strip_accents": "ascii", "lowercase": False},
    {"vocabulary": ["free", "call", "now", "prize", "lunch"]},
    {"dtype": np.float32},
]


@pytest.mark.parametrize("params", OPTIONS, ids=lambda p: str(p)[:60])
def test_count_vectorizer_is_identical_to_sklearn(params):
    heavy = "analyzer" in params or params.get("ngram_range", (1, 1))[1] > 1
    docs = list(sms()[:1500] if heavy else sms())  # n-gram options: a slice keeps tests fast
    ours, theirs = CountVectorizer(**params), sk.CountVectorizer(**params)
    assert_same_matrix(ours.fit_transform(docs), theirs.fit_transform(docs))
    assert ours.vocabulary_ == theirs.vocabulary_
    np.testing.assert_array_equal(ours.get_feature_names_out(), theirs.get_feature_names_out())
    assert_same_matrix(ours.transform(docs[:300]), theirs.transform(docs[:300]))
    if "vocabulary" not in params:  # fit then transform = fit_transform
        assert_same_matrix(
            CountVectorizer(**params).fit(docs).transform(docs), theirs.transform(docs)
        )


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"norm": "l1"},
        {"norm": None},
        {"use_idf": False},
        {"smooth_idf": False},
        {"sublinear_tf": True, "ngram_range": (1, 2)},
        {"min_df": 2, "max_features": 1000, "sublinear_tf": True, "norm": "l1"},
        {"analyzer": "char_wb", "ngram_range": (2, 3), "smooth_idf": False},
        {"dtype": np.float32},
    ],
    ids=lambda p: str(p)[:60],
)
def test_tfidf_vectorizer_matches_sklearn(params):
    docs = list(sms()[:2000] if "ngram_range" in params else sms())
    tol = 1e-5 if params.get("dtype") == np.float32 else 1e-12
    ours, theirs = TfidfVectorizer(**params), sk.TfidfVectorizer(**params)
    assert_same_matrix(ours.fit_transform(docs), theirs.fit_transform(docs), tol)
    assert ours.vocabulary_ == theirs.vocabulary_
    if params.get("use_idf", True):
        np.testing.assert_allclose(ours.idf_, theirs.idf_, rtol=tol)
    assert_same_matrix(ours.transform(docs[:200]), theirs.transform(docs[:200]), tol)


@pytest.mark.parametrize(
    "params", [{}, {"norm": "l1", "sublinear_tf": True}, {"smooth_idf": False, "norm": None}]
)
@pytest.mark.parametrize("sparse", [True, False])
def test_tfidf_transformer_matches_sklearn(params, sparse):
    counts = sk.CountVectorizer(min_df=5).fit_transform(sms())
    X = counts if sparse else counts.toarray()
    ours, theirs = TfidfTransformer(**params).fit(X), sk.TfidfTransformer(**params).fit(X)
    np.testing.assert_allclose(ours.idf_, theirs.idf_, rtol=1e-12)
    assert_same_matrix(ours.transform(X), theirs.transform(X), 1e-12)


def test_idf_formulas_by_hand():
    X = np.array([[1, 0, 2], [0, 0, 1], [3, 1, 1]])  # n = 3, df = [2, 1, 3]
    smooth = TfidfTransformer().fit(X)
    np.testing.assert_allclose(smooth.idf_, np.log(4 / np.array([3, 2, 4])) + 1, rtol=1e-15)
    raw = TfidfTransformer(smooth_idf=False, norm=None).fit(X)
    np.testing.assert_allclose(raw.idf_, np.log(3 / np.array([2, 1, 3])) + 1, rtol=1e-15)
    np.testing.assert_allclose(raw.transform(X).toarray(), X * raw.idf_, rtol=1e-15)
    rows = TfidfTransformer().fit_transform(X).toarray()
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-15)


# -- awkward documents and clear errors -----------------------------------------------------
def test_empty_strings_give_empty_rows():
    X = CountVectorizer().fit_transform(["", "hello world", "", "  "])
    np.testing.assert_array_equal(np.diff(X.indptr), [0, 2, 0, 0])
    T = TfidfVectorizer().fit_transform(["", "hello world"])
    assert np.isfinite(T.data).all() and T[0].nnz == 0


def test_empty_vocabulary_is_a_clear_error():
    with pytest.raises(ValueError, match="empty vocabulary"):
        CountVectorizer().fit(["", " ", "a b c"])  # single letters are not tokens
    with pytest.raises(ValueError, match="empty vocabulary"):
        CountVectorizer(stop_words=["the", "and"]).fit(["the and", "and the"])
    with pytest.raises(ValueError, match="no terms remain"):
        CountVectorizer(min_df=5).fit(["apple pie", "banana split"] * 3)


def test_non_string_input_is_a_clear_error():
    with pytest.raises(ValueError, match="single str"):
        CountVectorizer().fit("just one document")
    with pytest.raises(ValueError, match="Document 1 is NoneType"):
        CountVectorizer().fit(["fine text", None])
    with pytest.raises(ValueError, match="Document 0 is int"):
        TfidfVectorizer().fit([12, "text here"])
    with pytest.raises(ValueError, match="nan"):
        CountVectorizer().fit(["ok text", float("nan")])
    with pytest.raises(ValueError, match="iterable"):
        CountVectorizer().fit(None)
    with pytest.raises(ValueError, match="english"):
        CountVectorizer(stop_words="english").fit(["some text"])
    with pytest.raises(ValueError, match="ngram_range"):
        CountVectorizer(ngram_range=(2, 1)).fit(["some text"])
    with pytest.raises(ValueError, match="capturing groups"):
        CountVectorizer(token_pattern=r"(a)(b)").fit(["ab ab"])
    with pytest.raises(ValueError, match="fewer documents"):
        CountVectorizer(min_df=3, max_df=2).fit(["aa bb", "aa", "bb"])
    with pytest.raises(NotFittedError):
        CountVectorizer().transform(["text"])


def test_bytes_files_and_callables():
    docs = [b"caf\xc3\xa9 au lait", "Tea for two"]
    vec = CountVectorizer(strip_accents="unicode").fit(docs)
    assert "cafe" in vec.vocabulary_
    words = CountVectorizer(analyzer=str.split).fit(["a b a", "c"])
    assert words.vocabulary_ == {"a": 0, "b": 1, "c": 2}
    upper = CountVectorizer(preprocessor=str.upper, tokenizer=str.split, token_pattern=None)
    assert set(upper.fit(["x yy"]).vocabulary_) == {"X", "YY"}


def test_fitted_vectorizers_are_plain_data_and_inverse_transform():
    vec = TfidfVectorizer(max_features=50).fit(sms())
    assert all(type(k) is str and type(v) is int for k, v in vec.vocabulary_.items())
    assert isinstance(vec.idf_, np.ndarray) and isinstance(vec.stop_words_, list)
    counts = CountVectorizer().fit(["aa bb", "bb cc"])
    inv = counts.inverse_transform(counts.transform(["bb cc cc", "zz"]))
    assert list(inv[0]) == ["bb", "cc"] and list(inv[1]) == []
    assert sp.issparse(counts.transform(["aa"]))


def test_one_pass_and_per_document_counting_agree():
    from scratchlearn.feature_extraction._text import count_documents

    docs = list(sms()[:800]) + ["nul\x00inside cc", "", "ÉCOLE été"]  # \x00 forces the fallback
    vec = CountVectorizer(strip_accents="unicode")
    fast = vec.fit_transform(docs[:800] + docs[-2:])  # one pass over the joined corpus
    slow, vocab = count_documents(docs[:800] + docs[-2:], vec.build_analyzer())
    assert vocab == vec.vocabulary_
    assert_same_matrix(fast, slow)
    with_nul = CountVectorizer().fit(docs)
    assert "nul" in with_nul.vocabulary_ and "inside" in with_nul.vocabulary_
    assert_same_matrix(with_nul.transform(docs), sk.CountVectorizer().fit(docs).transform(docs))
