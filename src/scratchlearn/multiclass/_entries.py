"""Registry entries of the multi-class strategies (see :mod:`scratchlearn._registry`).

``estimator=None`` means ``LogisticRegression()``, so the common checks, the CLI and the model
files use that default; the tests wrap other learners (naive Bayes, trees, SVMs).
"""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.multiclass."

FAMILY = Family(
    name="multiclass",
    order=100,
    title="One-vs-rest and one-vs-one: binary classifiers made multi-class",
    stories=("scratchlearn.multiclass._showcase",),
    entries=[
        Entry(
            name="OneVsRestClassifier",
            summary="one binary learner per class against the rest; the largest score wins",
            dataset="wine",
            sklearn=_SK + "OneVsRestClassifier",
        ),
        Entry(
            name="OneVsOneClassifier",
            summary="one binary learner per pair of classes; votes, ties broken by confidence",
            dataset="wine",
            sklearn=_SK + "OneVsOneClassifier",
        ),
    ],
)
