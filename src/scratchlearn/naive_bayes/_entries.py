"""Registry entries of the naive Bayes classifiers (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.naive_bayes."

FAMILY = Family(
    name="naive_bayes",
    order=40,
    title="Naive Bayes for numbers, binary features, categories and text",
    stories=("scratchlearn.naive_bayes._showcase",),
    entries=[
        Entry(
            name="GaussianNB",
            summary="naive Bayes with per-class normal densities",
            dataset="wine",
            sklearn=_SK + "GaussianNB",
        ),
        Entry(
            name="BernoulliNB",
            summary="naive Bayes for binary features",
            dataset="congressional_voting",
            sklearn=_SK + "BernoulliNB",
        ),
        Entry(
            name="MultinomialNB",
            summary="naive Bayes for counts (bag of words)",
            dataset="sms_spam",
            sklearn=_SK + "MultinomialNB",
        ),
        Entry(
            name="CategoricalNB",
            summary="naive Bayes for categorical features",
            dataset="mushroom",
            sklearn=_SK + "CategoricalNB",
        ),
    ],
)
