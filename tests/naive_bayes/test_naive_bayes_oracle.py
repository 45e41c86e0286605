"""Naive Bayes against scikit-learn on real data, for every option value.

Tolerance: the fitted attributes and probabilities are the same arithmetic as scikit-learn's
(counts, logs of smoothed counts, one log-sum-exp), so they agree to rounding: 1e-10 absolute on
probabilities and log-probabilities of moderate size, 1e-10 relative on the fitted parameters.
GaussianNB's variance merge is a different but equally exact summation order: same tolerance.
Predictions must be identical.
"""

import functools
import os

import numpy as np
import pytest
import sklearn.naive_bayes as sk
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.preprocessing import OrdinalEncoder

from _data import shared_data_dir  # tests/ is on sys.path (rootdir conftest)
from scratchlearn.feature_extraction.text import CountVectorizer
from scratchlearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB

DATA = shared_data_dir()
# Same closed-form arithmetic on both sides, summed in other orders. A sum of n terms carries a
# relative rounding error of at most n·ε (ε = 2.2e-16); the largest sums here are class counts and
# moments over n ≤ 8,124 rows (mushroom), so fitted statistics agree to n·ε ≈ 1.8e-12 relative.
# A log-probability of magnitude M built from m terms carries ~m·ε·M absolute, i.e. ~m·ε relative
# (m ≤ 64 dense digits features; SMS rows have fewer non-zero counts), and probabilities (≤ 1)
# inherit it absolutely. 1e-10 (relative, plus 1e-10 absolute) keeps a factor ≥ 20 over every
# difference seen (largest: 3e-12 relative on predict_log_proba, 1.2e-10 absolute on a Gaussian
# variance of 3.6e5, i.e. 3e-16 relative).
TOL = 1e-10


def _csv(path):
    with open(os.path.join(DATA, path), encoding="utf-8") as fh:
        return np.array([line.strip().split(",") for line in fh if line.strip()], dtype=object)


def voting(question_mark="zero"):
    """Congressional voting: y/n -> 1/0; '?' (no vote recorded) -> 0 ("zero"), or two columns
    per vote, voted-yes and not-recorded ("column")."""
    table = _csv("congressional_voting/house-votes-84.data")
    y, votes = table[:, 0], table[:, 1:]
    yes = (votes == "y").astype(float)
    if question_mark == "zero":
        return yes, y
    return np.hstack([yes, (votes == "?").astype(float)]), y


@functools.lru_cache(maxsize=1)
def mushroom():
    table = _csv("mushroom/agaricus-lepiota.data")
    return table[:, 1:], table[:, 0]  # '?' in stalk-root is a category of its own


def car():
    table = _csv("car_evaluation/car.data")
    return table[:, :-1], table[:, -1]


@functools.lru_cache(maxsize=1)
def sms_counts():
    with open(os.path.join(DATA, "sms_spam", "SMSSpamCollection"), encoding="utf-8") as fh:
        rows = [line.rstrip("\n").split("\t", 1) for line in fh if line.strip()]
    y = np.array([r[0] for r in rows])
    X = CountVectorizer().fit_transform([r[1] for r in rows])
    return X, y


def _compare(ours, theirs, X, attrs, X_theirs=None):
    X_theirs = X if X_theirs is None else X_theirs
    for a in attrs:
        np.testing.assert_allclose(
            getattr(ours, a), getattr(theirs, a), rtol=TOL, atol=TOL, err_msg=a
        )
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X_theirs), atol=TOL)
    lp_o, lp_t = ours.predict_log_proba(X), theirs.predict_log_proba(X_theirs)
    finite = np.isfinite(lp_t) & (lp_t > -700)
    np.testing.assert_allclose(lp_o[finite], lp_t[finite], rtol=TOL, atol=TOL)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X_theirs))


# -- Gaussian -------------------------------------------------------------------------------
@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
@pytest.mark.parametrize(
    "params", [{}, {"var_smoothing": 1e-3}, {"var_smoothing": 0.0}, {"priors": "uniform"}]
)
@pytest.mark.parametrize("weighted", [False, True])
def test_gaussian_matches_sklearn(loader, params, weighted):
    X, y = loader(return_X_y=True)
    K = np.unique(y).shape[0]
    params = dict(params)
    if params.get("priors") == "uniform":
        params["priors"] = np.full(K, 1.0 / K)
    sw = np.random.default_rng(0).uniform(0.2, 3.0, X.shape[0]) if weighted else None
    ours = GaussianNB(**params).fit(X, y, sample_weight=sw)
    theirs = sk.GaussianNB(**params).fit(X, y, sample_weight=sw)
    _compare(ours, theirs, X, ["theta_", "var_", "class_count_", "class_prior_", "epsilon_"])


# -- Bernoulli ------------------------------------------------------------------------------
@pytest.mark.parametrize("question_mark", ["zero", "column"])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"alpha": 0.5},
        {"alpha": 3.0, "fit_prior": False},
        {"class_prior": [0.3, 0.7]},
        {"binarize": None},
    ],
)
def test_bernoulli_on_voting_matches_sklearn(question_mark, params):
    X, y = voting(question_mark)
    ours = BernoulliNB(**params).fit(X, y)
    theirs = sk.BernoulliNB(**params).fit(X, y)
    _compare(
        ours, theirs, X, ["class_count_", "feature_count_", "feature_log_prob_", "class_log_prior_"]
    )


@pytest.mark.parametrize("params", [{"binarize": 7.5}, {"binarize": 0.0, "alpha": 0.1}])
def test_bernoulli_on_binarized_digits_matches_sklearn(params):
    X, y = load_digits(return_X_y=True)
    sw = np.random.default_rng(1).integers(1, 4, X.shape[0]).astype(float)
    ours = BernoulliNB(**params).fit(X, y, sample_weight=sw)
    theirs = sk.BernoulliNB(**params).fit(X, y, sample_weight=sw)
    _compare(
        ours, theirs, X, ["class_count_", "feature_count_", "feature_log_prob_", "class_log_prior_"]
    )


# -- Multinomial ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "params", [{}, {"alpha": 0.1}, {"alpha": 2.0, "fit_prior": False}, {"class_prior": [0.5, 0.5]}]
)
def test_multinomial_on_sms_counts_matches_sklearn(params):
    X, y = sms_counts()
    ours = MultinomialNB(**params).fit(X, y)
    theirs = sk.MultinomialNB(**params).fit(X, y)
    _compare(
        ours, theirs, X, ["class_count_", "feature_count_", "feature_log_prob_", "class_log_prior_"]
    )


@pytest.mark.parametrize("params", [{}, {"alpha": 0.01}])
def test_multinomial_on_digits_matches_sklearn(params):
    X, y = load_digits(return_X_y=True)
    ours = MultinomialNB(**params).fit(X, y)
    theirs = sk.MultinomialNB(**params).fit(X, y)
    _compare(
        ours, theirs, X, ["class_count_", "feature_count_", "feature_log_prob_", "class_log_prior_"]
    )
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(X), rtol=TOL
    )


# -- Categorical ----------------------------------------------------------------------------
@pytest.mark.parametrize("loader", [mushroom, car])
@pytest.mark.parametrize(
    "params", [{}, {"alpha": 0.3}, {"alpha": 2.0, "fit_prior": False}, {"min_categories": 12}]
)
def test_categorical_on_strings_matches_sklearn_on_ordinal_codes(loader, params):
    X, y = loader()
    codes = OrdinalEncoder(dtype=np.int64).fit_transform(X)  # sorted categories, as ours
    ours = CategoricalNB(**params).fit(X, y)  # the strings themselves
    theirs = sk.CategoricalNB(**params).fit(codes, y)
    for j in range(X.shape[1]):
        np.testing.assert_array_equal(ours.category_count_[j], theirs.category_count_[j])
        np.testing.assert_allclose(ours.feature_log_prob_[j], theirs.feature_log_prob_[j], rtol=TOL)
    np.testing.assert_array_equal(ours.n_categories_, theirs.n_categories_)
    _compare(ours, theirs, X, ["class_count_", "class_log_prior_"], X_theirs=codes)
    # integer codes given to ours directly give the same model
    on_codes = CategoricalNB(**params).fit(codes, y)
    np.testing.assert_allclose(on_codes.predict_proba(codes), ours.predict_proba(X), atol=TOL)


def test_pipeline_with_count_vectorizer_matches_sklearn_pipeline():
    from sklearn.feature_extraction.text import CountVectorizer as SkCV
    from sklearn.pipeline import make_pipeline

    with open(os.path.join(DATA, "sms_spam", "SMSSpamCollection"), encoding="utf-8") as fh:
        rows = [line.rstrip("\n").split("\t", 1) for line in fh if line.strip()]
    docs, y = [r[1] for r in rows], np.array([r[0] for r in rows])
    train, test = slice(0, 4500), slice(4500, None)
    ours = make_pipeline(CountVectorizer(), MultinomialNB()).fit(docs[train], y[train])
    theirs = make_pipeline(SkCV(), sk.MultinomialNB()).fit(docs[train], y[train])
    np.testing.assert_allclose(
        ours.predict_proba(docs[test]), theirs.predict_proba(docs[test]), atol=TOL
    )
    assert ours.score(docs[test], y[test]) > 0.97  # the classic result for this corpus
