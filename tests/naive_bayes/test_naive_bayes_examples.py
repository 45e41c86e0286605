"""Naive Bayes: the seeds' worked examples and other hand-computable tables, with exact numbers."""

from fractions import Fraction as F

import numpy as np
import pytest

from scratchlearn.feature_extraction.text import CountVectorizer
from scratchlearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB

# Seed 002's four e-mails (SPEC errata: exact scores 1/750 and 1/3375, prediction Spam).
SPAM_DOCS = [
    "buy cheap meds",
    "cheap meds available",
    "meeting at noon",
    "project meeting tomorrow",
]
SPAM_Y = ["Spam", "Spam", "Not spam", "Not spam"]
NEW_EMAIL = "cheap project meds"

# Exact rationals are compared to floats computed in log space: a few ulps of rounding.
RTOL = 1e-13


def _spam_model():
    vec = CountVectorizer().fit(SPAM_DOCS)
    nb = MultinomialNB(alpha=1.0).fit(vec.transform(SPAM_DOCS), SPAM_Y)
    return vec, nb


def test_spam_vocabulary_is_the_seeds_nine_words():
    vec, nb = _spam_model()
    assert sorted(vec.vocabulary_) == sorted(
        ["buy", "cheap", "meds", "available", "meeting", "at", "noon", "project", "tomorrow"]
    )
    # N_c = 6 words in each class, so every denominator is 6 + V = 15
    np.testing.assert_array_equal(nb.feature_count_.sum(axis=1), [6, 6])


def test_spam_example_scores_are_1_750_and_1_3375():
    vec, nb = _spam_model()
    x = vec.transform([NEW_EMAIL])
    ex = nb.explain(x, feature_names=vec.get_feature_names_out())
    spam, ham = list(ex.classes).index("Spam"), list(ex.classes).index("Not spam")
    # the table line by line: prior, then each word of the e-mail
    np.testing.assert_allclose(ex.prior, [0.5, 0.5], rtol=RTOL)
    factors = dict(zip(ex.features, ex.likelihood, strict=True))
    expected = {  # (P(w | Spam), P(w | Not spam)) from seed 002 with Laplace smoothing
        "cheap": (F(3, 15), F(1, 15)),
        "project": (F(1, 15), F(2, 15)),
        "meds": (F(3, 15), F(1, 15)),
    }
    assert sorted(factors) == sorted(expected)
    for word, (p_spam, p_ham) in expected.items():
        np.testing.assert_allclose(
            factors[word][[spam, ham]], [float(p_spam), float(p_ham)], rtol=RTOL
        )
    np.testing.assert_allclose(ex.score[spam], 1 / 750, rtol=RTOL)
    np.testing.assert_allclose(ex.score[ham], 1 / 3375, rtol=RTOL)
    # posterior: (1/750) / (1/750 + 1/3375) = 9/11
    np.testing.assert_allclose(ex.posterior[spam], 9 / 11, rtol=RTOL)
    assert ex.prediction == "Spam"
    assert nb.predict(x)[0] == "Spam"
    np.testing.assert_allclose(nb.predict_proba(x)[0, spam], 9 / 11, rtol=RTOL)
    # the joint log-likelihood is exactly the log of the score
    np.testing.assert_allclose(
        nb.predict_joint_log_proba(x)[0, [spam, ham]], np.log([1 / 750, 1 / 3375]), rtol=RTOL
    )


def test_spam_explanation_prints_the_seed_numbers():
    vec, nb = _spam_model()
    text = str(nb.explain(vec.transform([NEW_EMAIL]), feature_names=vec.get_feature_names_out()))
    assert "0.00133333" in text and "0.00029630" in text
    assert "prediction: Spam" in text
    assert "P(cheap | c)" in text  # a word seen once: the factor is P(w | c)^1
    lines = text.splitlines()
    score_line = next(line for line in lines if line.startswith("score"))
    assert "0.00029630" in score_line and "0.00133333" in score_line


def test_log_likelihood_ratio_view_of_the_spam_example():
    vec, nb = _spam_model()
    llr = nb.log_likelihood_ratio(pos_label="Spam")
    names = list(vec.get_feature_names_out())
    # log P(cheap|Spam)/P(cheap|Not spam) = log 3; balanced classes: log prior ratio 0
    assert llr.prior == pytest.approx(0.0, abs=1e-15)
    assert llr.feature[names.index("cheap")] == pytest.approx(np.log(3), rel=RTOL)
    assert llr.feature[names.index("meeting")] == pytest.approx(-np.log(3), rel=RTOL)
    # the seed's decision rule: log prior ratio + Σ x_j · ratio_j > 0 -> Spam
    x = vec.transform([NEW_EMAIL]).toarray()[0]
    assert llr.prior + x @ llr.feature == pytest.approx(np.log((1 / 750) / (1 / 3375)), rel=RTOL)
    top = nb.top_features(2, class_="Spam", feature_names=names)
    assert [t for t, _ in top] == ["cheap", "meds"]
    assert top[0][1] == pytest.approx(np.log(3), rel=RTOL)
    assert nb.top_features(1, class_="Not spam", feature_names=names)[0][0] == "meeting"


def test_bernoulli_formulas_on_a_hand_table():
    X = np.array([[1, 0], [1, 1], [0, 1]])
    y = np.array(["a", "a", "b"])
    nb = BernoulliNB(alpha=1.0).fit(X, y)
    # p_jc = (count + α)/(N_c + 2α)
    p = np.array([[3 / 4, 2 / 4], [1 / 3, 2 / 3]])
    np.testing.assert_allclose(np.exp(nb.feature_log_prob_), p, rtol=RTOL)
    np.testing.assert_allclose(np.exp(nb.class_log_prior_), [2 / 3, 1 / 3], rtol=RTOL)
    # x = [0, 1]: absent feature 0 contributes 1 − p. a: 2/3·1/4·1/2 = 1/12, b: 1/3·2/3·2/3
    ex = nb.explain([0, 1])
    np.testing.assert_allclose(ex.score, [1 / 12, 4 / 27], rtol=RTOL)
    np.testing.assert_allclose(nb.predict_proba([[0, 1]])[0], [9 / 25, 16 / 25], rtol=RTOL)
    # the seeds' smoothed prior (N_c + α)/(n + αK)
    smooth = BernoulliNB(alpha=1.0, prior_smoothing=True).fit(X, y)
    np.testing.assert_allclose(np.exp(smooth.class_log_prior_), [3 / 5, 2 / 5], rtol=RTOL)
    np.testing.assert_allclose(smooth.explain([0, 1]).score, [3 / 5 / 8, 2 / 5 * 4 / 9], rtol=RTOL)


CAT_X = np.array(
    [["red", "S"], ["red", "L"], ["green", "S"], ["blue", "L"], ["green", "L"]], dtype=object
)
CAT_Y = np.array(["yes", "yes", "no", "no", "no"])


def test_categorical_formulas_on_a_hand_table():
    nb = CategoricalNB(alpha=1.0).fit(CAT_X, CAT_Y)  # classes_ = [no, yes]
    assert list(nb.categories_[0]) == ["blue", "green", "red"]
    np.testing.assert_array_equal(nb.category_count_[0], [[1, 2, 0], [0, 0, 2]])
    # P(x_j = v | c) = (N_jvc + α)/(N_c + α n_j): colour n_j = 3, size n_j = 2
    np.testing.assert_allclose(
        np.exp(nb.feature_log_prob_[0]), [[2 / 6, 3 / 6, 1 / 6], [1 / 5, 1 / 5, 3 / 5]], rtol=RTOL
    )
    np.testing.assert_allclose(
        np.exp(nb.feature_log_prob_[1]), [[3 / 5, 2 / 5], [2 / 4, 2 / 4]], rtol=RTOL
    )
    # [red, S]: no: 3/5·1/6·2/5 = 1/25, yes: 2/5·3/5·1/2 = 3/25 -> P(yes) = 3/4
    ex = nb.explain(["red", "S"])
    np.testing.assert_allclose(ex.score, [1 / 25, 3 / 25], rtol=RTOL)
    np.testing.assert_allclose(
        nb.predict_proba(np.array([["red", "S"]], dtype=object))[0], [1 / 4, 3 / 4], rtol=RTOL
    )


def test_categorical_unseen_category_has_count_zero():
    nb = CategoricalNB(alpha=1.0).fit(CAT_X, CAT_Y)
    # "purple" never seen: α/(N_c + α n_j) = 1/6 (no), 1/5 (yes)
    ex = nb.explain(["purple", "S"])
    np.testing.assert_allclose(ex.likelihood[0], [1 / 6, 1 / 5], rtol=RTOL)
    np.testing.assert_allclose(ex.score, [3 / 5 * 1 / 6 * 2 / 5, 2 / 5 * 1 / 5 * 1 / 2], rtol=RTOL)
    assert np.isfinite(nb.predict_log_proba(np.array([["purple", "XL"]], dtype=object))).all()


def test_categorical_min_categories_widens_the_denominator():
    nb = CategoricalNB(alpha=1.0, min_categories=[4, 2]).fit(CAT_X, CAT_Y)
    np.testing.assert_array_equal(nb.n_categories_, [4, 2])
    # colour: N_c + α·4: no 3 + 4 = 7, yes 2 + 4 = 6; the phantom category gets α/(N_c + 4α)
    np.testing.assert_allclose(
        np.exp(nb.feature_log_prob_[0]),
        [[2 / 7, 3 / 7, 1 / 7, 1 / 7], [1 / 6, 1 / 6, 3 / 6, 1 / 6]],
        rtol=RTOL,
    )


GAUSS_X = np.array([[1.0], [2.0], [3.0], [6.0], [10.0]])
GAUSS_Y = np.array([0, 0, 0, 0, 1])


def test_gaussian_biased_and_unbiased_variance():
    # class 0: mean 3, Σ(x − μ)² = 4 + 1 + 0 + 9 = 14
    ml = GaussianNB(var_smoothing=0.0).fit(GAUSS_X, GAUSS_Y)
    unbiased = GaussianNB(var_smoothing=0.0, ddof=1).fit(GAUSS_X, GAUSS_Y)
    assert ml.theta_[0, 0] == pytest.approx(3.0, rel=RTOL)
    assert ml.var_[0, 0] == pytest.approx(14 / 4, rel=RTOL)
    assert unbiased.var_[0, 0] == pytest.approx(14 / 3, rel=RTOL)
    # class 1 has one sample: ddof=0 gives variance 0, ddof=1 leaves it undefined -> 0;
    # with no smoothing the floor is the smallest positive float, still finite log-probs
    assert unbiased.var_[1, 0] == np.finfo(float).tiny
    assert np.isfinite(unbiased.predict_joint_log_proba([[10.0]])).all()
    # density of x = 4 under class 0 with the unbiased variance, written out by hand
    v = 14 / 3
    expected = np.log(0.8) - 0.5 * np.log(2 * np.pi * v) - (4 - 3) ** 2 / (2 * v)
    assert unbiased.predict_joint_log_proba([[4.0]])[0, 0] == pytest.approx(expected, rel=RTOL)


def test_gaussian_epsilon_is_var_smoothing_times_the_largest_variance():
    X = np.c_[GAUSS_X, 100 * GAUSS_X]
    nb = GaussianNB(ddof=1).fit(X, GAUSS_Y)
    assert nb.epsilon_ == pytest.approx(1e-9 * np.var(X[:, 1]), rel=RTOL)
    # one-sample class under ddof=1: only the floor ε remains
    np.testing.assert_allclose(nb.var_[1], [nb.epsilon_, nb.epsilon_], rtol=RTOL)


def test_gaussian_explain_sums_to_the_joint_log_likelihood():
    nb = GaussianNB().fit(GAUSS_X, GAUSS_Y)
    ex = nb.explain([4.0])
    np.testing.assert_allclose(
        ex.joint_log_likelihood, nb.predict_joint_log_proba([[4.0]])[0], rtol=RTOL
    )
    np.testing.assert_allclose(ex.posterior, nb.predict_proba([[4.0]])[0], rtol=RTOL)


def test_explain_folds_features_without_changing_the_score():
    rng = np.random.default_rng(0)
    X = rng.poisson(2.0, size=(40, 12))
    y = rng.integers(0, 3, 40)
    nb = MultinomialNB().fit(X, y)
    full, short = nb.explain(X[0]), nb.explain(X[0], max_features=3)
    assert len(short.features) == 4 and short.features[-1].startswith("other features")
    np.testing.assert_allclose(short.joint_log_likelihood, full.joint_log_likelihood, rtol=RTOL)
    assert "prediction:" in str(short)


def test_multinomial_explanation_raises_repeated_words_to_their_count():
    X = np.array([[2, 0], [0, 1], [1, 1]])
    nb = MultinomialNB().fit(X, [0, 1, 1])
    exp = nb.explain(np.array([[3, 1]]), feature_names=["a", "b"])
    rows = dict(exp.to_rows())
    # P(a | c)^3: the likelihood row is the cube of the smoothed word probability
    p_a = np.exp(nb.feature_log_prob_[:, 0])
    np.testing.assert_allclose(rows["P(a | c)^3"], p_a**3, rtol=1e-12)
    assert "P(b | c)" in rows
