"""Naive Bayes: partial_fit equals fit, robustness on awkward data, clear errors, properties."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_digits, load_wine

from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.feature_extraction.text import CountVectorizer
from scratchlearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB

# Chunked and whole fits sum the same numbers in a different order: rounding only. Sums over
# n ≤ 1,797 rows (digits) differ by at most n·ε ≈ 4e-13 relative; 1e-10 keeps a factor ~250 over
# that bound (seen: 2e-15 relative on the Gaussian moments, 1e-14 on probabilities).
TOL = 1e-10
# A joint log-likelihood of a few terms: log π + Σ_j x_j log p_jc (d = 3 here), each term
# rounded once (log) and once (product), then d additions: at most (3d + 2)·ε ≈ 2.4e-15 relative
# to |J| since every term has J's sign. 1e-14 is above that bound (seen: 1.7e-16).
JLL_RTOL = 1e-14


def _chunks(n, k=4):
    return np.array_split(np.random.default_rng(0).permutation(n), k)


def _assert_same_model(a, b, attrs, X):
    for name in attrs:
        va, vb = getattr(a, name), getattr(b, name)
        if isinstance(va, list):
            for pa, pb in zip(va, vb, strict=True):
                np.testing.assert_allclose(pa, pb, rtol=TOL, atol=TOL, err_msg=name)
        else:
            np.testing.assert_allclose(va, vb, rtol=TOL, atol=TOL, err_msg=name)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=TOL)


@pytest.mark.parametrize("ddof", [0, 1])
def test_gaussian_partial_fit_equals_fit(ddof):
    X, y = load_wine(return_X_y=True)
    sw = np.random.default_rng(2).uniform(0.5, 2.0, X.shape[0])
    whole = GaussianNB(ddof=ddof).fit(X, y, sample_weight=sw)
    parts = GaussianNB(ddof=ddof)
    for idx in _chunks(X.shape[0]):
        parts.partial_fit(X[idx], y[idx], classes=np.unique(y), sample_weight=sw[idx])
    _assert_same_model(whole, parts, ["theta_", "var_", "class_count_", "epsilon_"], X)


@pytest.mark.parametrize("cls", [BernoulliNB, MultinomialNB])
@pytest.mark.parametrize("sparse", [False, True])
def test_discrete_partial_fit_equals_fit(cls, sparse):
    X, y = load_digits(return_X_y=True)
    X = sp.csr_matrix(X) if sparse else X
    whole = cls().fit(X, y)
    parts = cls()
    for idx in _chunks(X.shape[0]):
        parts.partial_fit(X[idx], y[idx], classes=np.unique(y))
    _assert_same_model(
        whole, parts, ["class_count_", "feature_count_", "feature_log_prob_", "class_log_prior_"], X
    )


def test_categorical_partial_fit_equals_fit_with_categories_arriving_late():
    rng = np.random.default_rng(3)
    X = rng.choice(["a", "b", "c", "d", "e"], size=(200, 3)).astype(object)
    y = rng.integers(0, 3, 200)
    order = np.argsort(X[:, 0], kind="stable")  # later chunks bring categories not yet seen
    X, y = X[order], y[order]
    whole = CategoricalNB(min_categories=[6, 1, 1]).fit(X, y)
    parts = CategoricalNB(min_categories=[6, 1, 1])
    for idx in np.array_split(np.arange(200), 5):
        parts.partial_fit(X[idx], y[idx], classes=[0, 1, 2])
    for j in range(3):
        np.testing.assert_array_equal(whole.categories_[j], parts.categories_[j])
    _assert_same_model(
        whole, parts, ["class_count_", "category_count_", "feature_log_prob_", "n_categories_"], X
    )


def test_partial_fit_needs_classes_first_and_rejects_new_labels():
    X, y = load_wine(return_X_y=True)
    with pytest.raises(ValueError, match="classes must be passed"):
        GaussianNB().partial_fit(X, y)
    nb = MultinomialNB().partial_fit(X[:50], y[:50], classes=[0, 1])
    with pytest.raises(ValueError, match="not in classes_"):
        nb.partial_fit(X, y)
    with pytest.raises(ValueError, match="not the same"):
        nb.partial_fit(X[:10], y[:10], classes=[0, 1, 2])


# -- robustness -------------------------------------------------------------------------------
def test_gaussian_zero_variance_feature_and_one_sample_class():
    X, y = load_wine(return_X_y=True)
    X = np.c_[X, np.full(X.shape[0], 5.0)]  # a constant feature
    X, y = np.vstack([X, X[:1] + 1]), np.r_[y, 7]  # class 7 has one sample
    for ddof in (0, 1):
        nb = GaussianNB(ddof=ddof).fit(X, y)
        lp = nb.predict_log_proba(X)
        assert np.isfinite(lp).all()
        assert nb.predict(X[-1:])[0] == 7
        np.testing.assert_allclose(np.exp(lp).sum(axis=1), 1.0, atol=1e-12)


def test_multinomial_negative_counts_raise():
    X = np.array([[1, 2], [0, -1]])
    with pytest.raises(ValueError, match="Negative values in data passed to MultinomialNB"):
        MultinomialNB().fit(X, [0, 1])
    with pytest.raises(ValueError, match="Negative values in data passed to MultinomialNB"):
        MultinomialNB().fit(sp.csr_matrix(X), [0, 1])


def test_feature_never_seen_for_a_class_keeps_finite_probabilities():
    X = np.array([[3, 0], [2, 0], [0, 4], [0, 1]])
    y = [0, 0, 1, 1]
    for nb in (MultinomialNB(), BernoulliNB()):
        nb.fit(X, y)
        lp = nb.predict_log_proba([[5, 5], [0, 0]])
        assert np.isfinite(lp).all()


def test_alpha_zero_absent_unseen_features_contribute_nothing():
    # alpha = 0: P(w | c) is the raw frequency, so a word never seen in a class has log P = −inf.
    # An ABSENT such word contributes 0 · log 0 = 0; before this was handled, the product
    # 0 · (−inf) made every joint log-likelihood NaN (and BernoulliNB predicted class 0 for all).
    X = np.array([[2, 0, 1], [1, 0, 0], [0, 3, 1], [0, 1, 0]])
    y = [0, 0, 1, 1]
    # multinomial: class 0 totals (3, 0, 1) → P = (3/4, 0, 1/4); class 1 (0, 4, 1) → (0, 4/5, 1/5)
    expect = np.array(
        [
            [np.log(0.5) + 2 * np.log(3 / 4) + np.log(1 / 4), -np.inf],
            [np.log(0.5) + np.log(3 / 4), -np.inf],
            [-np.inf, np.log(0.5) + 3 * np.log(4 / 5) + np.log(1 / 5)],
            [-np.inf, np.log(0.5) + np.log(4 / 5)],
        ]
    )
    for Xin in (X, sp.csr_matrix(X)):
        nb = MultinomialNB(alpha=0.0).fit(Xin, y)
        np.testing.assert_allclose(nb.predict_joint_log_proba(Xin), expect, rtol=JLL_RTOL)
        np.testing.assert_array_equal(nb.predict_proba(Xin), np.eye(2)[y])
    # Bernoulli: class 0 presence (1, 0, 1/2), class 1 (0, 1, 1/2): each row fits only its class
    for Xin in (X, sp.csr_matrix(X)):
        nb = BernoulliNB(alpha=0.0).fit(Xin, y)
        jll = nb.predict_joint_log_proba(Xin)
        np.testing.assert_allclose(jll[[0, 1], 0], np.log(0.5) + np.log(0.5), rtol=JLL_RTOL)
        assert np.all(np.isneginf(jll[[0, 1], 1])) and np.all(np.isneginf(jll[[2, 3], 0]))
        np.testing.assert_array_equal(nb.predict(Xin), y)


def test_very_long_document_does_not_underflow():
    docs = ["free prize call now", "win cash now", "see you at lunch", "meeting moved to noon"]
    y = ["spam", "spam", "ham", "ham"]
    vec = CountVectorizer().fit(docs)
    nb = MultinomialNB().fit(vec.transform(docs), y)
    long_doc = " ".join(["free prize call now see you"] * 10_000)
    x = vec.transform([long_doc])
    jll = nb.predict_joint_log_proba(x)
    assert np.isfinite(jll).all() and jll.max() < -1e4  # the raw product would be 0.0
    lp = nb.predict_log_proba(x)
    assert np.isfinite(lp).all()
    assert nb.predict(x)[0] == "spam"  # "free prize call now" outweighs "see you"
    assert nb.predict_proba(x).sum() == pytest.approx(1.0)


def test_sparse_input_is_never_densified():
    X, y = load_digits(return_X_y=True)
    Xs = sp.csr_matrix(X)
    for nb in (MultinomialNB(), BernoulliNB(binarize=4.0)):
        dense = type(nb)(**nb.get_params()).fit(X, y).predict_proba(X)
        np.testing.assert_allclose(nb.fit(Xs, y).predict_proba(Xs), dense, atol=TOL)


def test_categorical_accepts_mixed_object_columns_and_unseen_values():
    X = np.array([["a", 1], ["b", 2], ["a", 2], ["c", 1]], dtype=object)
    nb = CategoricalNB().fit(X, [0, 1, 0, 1])
    lp = nb.predict_log_proba(np.array([["zzz", 99]], dtype=object))
    assert np.isfinite(lp).all()
    with pytest.raises(ValueError, match="missing values"):
        nb.predict(np.array([[None, 1]], dtype=object))
    with pytest.raises(TypeError, match="string or a number"):
        CategoricalNB().fit(np.array([[{"x": 1}], [2]], dtype=object), [0, 1])


# -- errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [GaussianNB, BernoulliNB, MultinomialNB, CategoricalNB])
def test_clear_errors(cls):
    X = np.abs(np.random.default_rng(0).normal(size=(10, 3))).round()
    y = np.arange(10) % 2
    with pytest.raises(NotFittedError):
        cls().predict(X)
    with pytest.raises(InvalidParameterError, match="alpha|var_smoothing"):
        bad = {"var_smoothing": -1} if cls is GaussianNB else {"alpha": -1.0}
        cls(**bad).fit(X, y)
    nb = cls().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        nb.predict(X[:, :2])
    with pytest.raises(ValueError, match="inconsistent"):
        cls().fit(X, y[:5])
    with pytest.raises(ValueError, match="priors|Number"):
        key = "priors" if cls is GaussianNB else "class_prior"
        cls(**{key: [0.2, 0.3, 0.5]}).fit(X, y)
    with pytest.raises(ValueError, match="Unknown label type"):
        cls().fit(X, np.linspace(0, 1, 10))
    if cls is not CategoricalNB:
        with pytest.raises(ValueError, match="NaN"):
            cls().fit(np.where(X > 1, np.nan, X), y)


def test_fitted_models_are_plain_data():
    X, y = load_digits(return_X_y=True)
    Xc = np.array(X > 4, dtype=int).astype(str).astype(object)
    models = [
        GaussianNB().fit(X, y),
        BernoulliNB().fit(X, y),
        MultinomialNB().fit(X, y),
        CategoricalNB().fit(Xc[:, :8], y),
    ]
    plain = (np.ndarray, list, dict, float, int, bool, str, np.floating, np.integer, type(None))
    for m in models:
        for name, value in vars(m).items():
            assert isinstance(value, plain), (type(m).__name__, name, type(value))
            if isinstance(value, list):
                assert all(isinstance(v, np.ndarray) for v in value), name


# -- properties -----------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10_000), st.sampled_from([GaussianNB, BernoulliNB, MultinomialNB, CategoricalNB])
)
def test_posteriors_sum_to_one_and_match_argmax(seed, cls):
    rng = np.random.default_rng(seed)
    n, d = rng.integers(3, 30), rng.integers(1, 6)
    X = rng.poisson(2.0, size=(n, d)).astype(float)
    y = rng.integers(0, 3, n)
    nb = cls().fit(X, y)
    P = nb.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_array_equal(nb.predict(X), nb.classes_[np.argmax(P, axis=1)])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_integer_weights_equal_repeated_rows(seed):
    rng = np.random.default_rng(seed)
    X = rng.poisson(2.0, size=(12, 3)).astype(float)
    y = np.arange(12) % 3
    w = rng.integers(1, 4, 12)
    for cls in (MultinomialNB, BernoulliNB, CategoricalNB):
        a = cls().fit(X, y, sample_weight=w.astype(float)).predict_proba(X)
        b = cls().fit(np.repeat(X, w, axis=0), np.repeat(y, w)).predict_proba(X)
        np.testing.assert_allclose(a, b, atol=1e-10)
    # GaussianNB's ε uses the unweighted variance of X (as scikit-learn), so compare the
    # weighted moments themselves: means and variances before the floor
    a = GaussianNB().fit(X, y, sample_weight=w.astype(float))
    b = GaussianNB().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(a.theta_, b.theta_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.var_ - a.epsilon_, b.var_ - b.epsilon_, rtol=1e-9, atol=1e-9)


def test_gaussian_fast_joint_log_likelihood_matches_the_plain_form():
    from scratchlearn.naive_bayes._gaussian import joint_log_likelihood_reference

    X, y = load_wine(return_X_y=True)
    X = X + 1e4  # a large offset: the expanded quadratic must not cancel catastrophically
    nb = GaussianNB().fit(X, y)
    ref = joint_log_likelihood_reference(X, nb.theta_, nb.var_, nb.class_log_prior_)
    # both are sums of d terms of size up to |J|: relative 1e-10 is rounding, not method error
    np.testing.assert_allclose(nb.predict_joint_log_proba(X), ref, rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.uint8, np.uint64])
def test_categorical_lookup_by_value_matches_the_encoded_lookup(dtype):
    """Integer codes are looked up by value in a table; the same values in an object array go
    through the general encoding. Same table entries, same order of addition: equal exactly,
    for seen values, unseen ones inside the range, below 0 and above the largest category."""
    rng = np.random.default_rng(0)
    X = (rng.integers(0, 6, (200, 4)) * [1, 2, 1, 3]).astype(dtype)
    y = rng.integers(0, 3, 200)
    nb = CategoricalNB(min_categories=[8, 1, 1, 1]).fit(X, y)
    low = 0 if np.dtype(dtype).kind == "u" else -3
    T = rng.integers(low, 20, (300, 4)).astype(dtype)
    T[0, 0] = np.iinfo(dtype).max
    T[1, 1] = np.iinfo(dtype).min
    fast = nb.predict_joint_log_proba(T)
    plain = nb.predict_joint_log_proba(T.astype(object))
    np.testing.assert_array_equal(fast, plain)
    unseen = ~np.isin(T[:, 1], nb.categories_[1])
    assert unseen.sum() > 10  # the unseen-value columns are exercised, not only the seen ones
