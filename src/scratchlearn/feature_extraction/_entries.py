"""Registry entries of the text vectorisers (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.feature_extraction.text."

FAMILY = Family(
    name="text",
    order=50,
    title="Bag of words and tf-idf",
    module="scratchlearn.feature_extraction.text",
    entries=[
        Entry(
            name="CountVectorizer",
            summary="documents to a sparse matrix of token counts",
            dataset="sms_spam",
            sklearn=_SK + "CountVectorizer",
            common_checks=False,
        ),
        Entry(
            name="TfidfTransformer",
            summary="counts to tf-idf weights",
            dataset="sms_spam",
            sklearn=_SK + "TfidfTransformer",
        ),
        Entry(
            name="TfidfVectorizer",
            summary="documents to a sparse tf-idf matrix",
            dataset="sms_spam",
            sklearn=_SK + "TfidfVectorizer",
            common_checks=False,
        ),
    ],
)
