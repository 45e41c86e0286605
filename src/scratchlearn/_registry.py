"""The one list of public estimators.

The command line, the demo, the common checks, the model-file round trip and the benchmarks all
read this list, so an estimator is registered once, here. Classes are imported lazily: listing
the registry does not import any model module.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field

__all__ = ["Entry", "all_estimators", "get_entry", "kebab", "FAMILIES"]


def kebab(name: str) -> str:
    """``LogisticRegression`` → ``logistic-regression``, ``MultinomialNB`` → ``multinomial-nb``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", name).lower()


@dataclass(frozen=True)
class Entry:
    """One registered estimator.

    name : class name; module : public module exporting it; family : section of the feature
    table; task : "classifier", "regressor", "transformer", "clusterer" or "text";
    summary : one line; dataset : showcase dataset for the demo and ``scratchlearn fit``;
    demo_params : hyperparameters the demo uses; sklearn : dotted path of the scikit-learn
    counterpart (benchmarks and oracles); check_params : hyperparameters that keep the common
    checks fast; expected_failed_checks : common checks known to fail, each with its reason;
    common_checks : False for estimators outside the scikit-learn estimator API (e.g. fit(y)).
    """

    name: str
    module: str
    family: str
    task: str
    summary: str
    dataset: str | None = None
    demo_params: dict = field(default_factory=dict)
    sklearn: str | None = None
    check_params: dict = field(default_factory=dict)
    expected_failed_checks: dict = field(default_factory=dict)
    common_checks: bool = True

    @property
    def alias(self) -> str:
        return kebab(self.name)

    @property
    def cls(self):
        return getattr(importlib.import_module(self.module), self.name)

    def make(self, **params):
        """A new instance with ``check_params`` overridden by ``params``."""
        return self.cls(**{**self.check_params, **params})


FAMILIES = {
    "preprocessing": "Scaling, encoding and polynomial features",
    "linear_model": "Linear, polynomial, ridge, lasso, logistic regression and GLMs",
    "naive_bayes": "Naive Bayes for numbers, binary features, categories and text",
    "text": "Bag of words and tf-idf",
}

_P = "scratchlearn.preprocessing"
_L = "scratchlearn.linear_model"
_N = "scratchlearn.naive_bayes"
_T = "scratchlearn.feature_extraction.text"

_ENTRIES = [
    # -- preprocessing ---------------------------------------------------------------------
    Entry(
        "StandardScaler",
        _P,
        "preprocessing",
        "transformer",
        "centre each feature and divide by its standard deviation",
        "wine",
        sklearn="sklearn.preprocessing.StandardScaler",
    ),
    Entry(
        "MinMaxScaler",
        _P,
        "preprocessing",
        "transformer",
        "rescale each feature to a range, [0, 1] by default",
        "wine",
        sklearn="sklearn.preprocessing.MinMaxScaler",
    ),
    Entry(
        "Normalizer",
        _P,
        "preprocessing",
        "transformer",
        "scale each sample to unit l1, l2 or max norm",
        "iris",
        sklearn="sklearn.preprocessing.Normalizer",
    ),
    Entry(
        "Binarizer",
        _P,
        "preprocessing",
        "transformer",
        "threshold features to 0/1",
        "iris",
        sklearn="sklearn.preprocessing.Binarizer",
    ),
    Entry(
        "PolynomialFeatures",
        _P,
        "preprocessing",
        "transformer",
        "all monomials of the features up to a degree",
        "diabetes",
        sklearn="sklearn.preprocessing.PolynomialFeatures",
    ),
    Entry(
        "OneHotEncoder",
        _P,
        "preprocessing",
        "transformer",
        "one 0/1 column per category",
        "car_evaluation",
        sklearn="sklearn.preprocessing.OneHotEncoder",
    ),
    Entry(
        "OrdinalEncoder",
        _P,
        "preprocessing",
        "transformer",
        "categories to integers 0..k-1",
        "car_evaluation",
        sklearn="sklearn.preprocessing.OrdinalEncoder",
    ),
    Entry(
        "LabelEncoder",
        _P,
        "preprocessing",
        "transformer",
        "class labels to integers 0..K-1",
        None,
        sklearn="sklearn.preprocessing.LabelEncoder",
        common_checks=False,
    ),
    Entry(
        "LabelBinarizer",
        _P,
        "preprocessing",
        "transformer",
        "class labels to one-vs-all indicator columns",
        None,
        sklearn="sklearn.preprocessing.LabelBinarizer",
        common_checks=False,
    ),
    # -- linear models ---------------------------------------------------------------------
    Entry(
        "LinearRegression",
        _L,
        "linear_model",
        "regressor",
        "least squares by a factorisation of the normal equations, or gradient descent",
        "diabetes",
        sklearn="sklearn.linear_model.LinearRegression",
    ),
    Entry(
        "PolynomialRegression",
        _L,
        "linear_model",
        "regressor",
        "least squares on the polynomial basis [x, x², …, xᵏ], optional ridge penalty",
        "diabetes",
        demo_params={"degree": 2, "alpha": 1.0},
    ),
    Entry(
        "Ridge",
        _L,
        "linear_model",
        "regressor",
        "least squares with an L2 penalty, intercept unpenalised",
        "diabetes",
        sklearn="sklearn.linear_model.Ridge",
    ),
    Entry(
        "Lasso",
        _L,
        "linear_model",
        "regressor",
        "least squares with an L1 penalty by coordinate descent",
        "diabetes",
        demo_params={"alpha": 0.1},
        sklearn="sklearn.linear_model.Lasso",
    ),
    Entry(
        "ElasticNet",
        _L,
        "linear_model",
        "regressor",
        "least squares with mixed L1 and L2 penalties",
        "diabetes",
        demo_params={"alpha": 0.01},
        sklearn="sklearn.linear_model.ElasticNet",
    ),
    Entry(
        "LogisticRegression",
        _L,
        "linear_model",
        "classifier",
        "binary and multinomial logistic regression (gd, Newton, L-BFGS)",
        "breast_cancer",
        sklearn="sklearn.linear_model.LogisticRegression",
    ),
    Entry(
        "GeneralizedLinearRegressor",
        _L,
        "linear_model",
        "regressor",
        "GLM with any family and link, fitted by IRLS, L-BFGS or gradient descent",
        "diabetes",
        demo_params={"family": "normal", "link": "identity"},
    ),
    Entry(
        "PoissonRegressor",
        _L,
        "linear_model",
        "regressor",
        "Poisson GLM with log link for counts",
        "randhie",
        sklearn="sklearn.linear_model.PoissonRegressor",
    ),
    Entry(
        "GammaRegressor",
        _L,
        "linear_model",
        "regressor",
        "Gamma GLM with log link for positive skewed targets",
        "diabetes",
        demo_params={"alpha": 0.001},
        sklearn="sklearn.linear_model.GammaRegressor",
    ),
    Entry(
        "TweedieRegressor",
        _L,
        "linear_model",
        "regressor",
        "Tweedie GLM (power p) with log or identity link",
        "diabetes",
        demo_params={"power": 1.5, "alpha": 0.001},
        sklearn="sklearn.linear_model.TweedieRegressor",
    ),
    # -- naive Bayes -----------------------------------------------------------------------
    Entry(
        "GaussianNB",
        _N,
        "naive_bayes",
        "classifier",
        "naive Bayes with per-class normal densities",
        "wine",
        sklearn="sklearn.naive_bayes.GaussianNB",
    ),
    Entry(
        "BernoulliNB",
        _N,
        "naive_bayes",
        "classifier",
        "naive Bayes for binary features",
        "congressional_voting",
        sklearn="sklearn.naive_bayes.BernoulliNB",
    ),
    Entry(
        "MultinomialNB",
        _N,
        "naive_bayes",
        "classifier",
        "naive Bayes for counts (bag of words)",
        "sms_spam",
        sklearn="sklearn.naive_bayes.MultinomialNB",
    ),
    Entry(
        "CategoricalNB",
        _N,
        "naive_bayes",
        "classifier",
        "naive Bayes for categorical features",
        "mushroom",
        sklearn="sklearn.naive_bayes.CategoricalNB",
    ),
    # -- text ------------------------------------------------------------------------------
    Entry(
        "CountVectorizer",
        _T,
        "text",
        "text",
        "documents to a sparse matrix of token counts",
        "sms_spam",
        sklearn="sklearn.feature_extraction.text.CountVectorizer",
        common_checks=False,
    ),
    Entry(
        "TfidfTransformer",
        _T,
        "text",
        "transformer",
        "counts to tf-idf weights",
        "sms_spam",
        sklearn="sklearn.feature_extraction.text.TfidfTransformer",
    ),
    Entry(
        "TfidfVectorizer",
        _T,
        "text",
        "text",
        "documents to a sparse tf-idf matrix",
        "sms_spam",
        sklearn="sklearn.feature_extraction.text.TfidfVectorizer",
        common_checks=False,
    ),
]

_BY_KEY = {}
for _e in _ENTRIES:
    _BY_KEY[_e.name.lower()] = _e
    _BY_KEY[_e.alias] = _e


def all_estimators(family: str | None = None, task: str | None = None) -> list[Entry]:
    """Registered estimators, optionally of one family or task, in table order."""
    return [
        e
        for e in _ENTRIES
        if (family is None or e.family == family) and (task is None or e.task == task)
    ]


def get_entry(name: str) -> Entry:
    """Look up an estimator by class name (any case) or kebab-case alias.

    Raises ``KeyError`` whose message lists the valid names.
    """
    key = name.strip()
    entry = _BY_KEY.get(key.lower()) or _BY_KEY.get(key.lower().replace("_", "-"))
    if entry is None:
        choices = ", ".join(e.alias for e in _ENTRIES)
        raise KeyError(f"unknown estimator {name!r}; choose one of: {choices}")
    return entry
