"""Registry entries of the rankers (see :mod:`scratchlearn._registry`).

No showcase ``dataset``: the demo table splits rows, which would cut queries apart; the
rankers' story (``_showcase``) splits the mode-choice data by queries instead. Without ``qid``
a ranker treats all rows as one query, so scikit-learn's common checks run on it as on a
regressor (``poor_score``: its score is NDCG, not R²).
"""

from scratchlearn._registry import Entry, Family

FAMILY = Family(
    name="ranking",
    order=130,
    title="Learning to rank: pointwise, pairwise (RankSVM), listwise (ListNet)",
    stories=("scratchlearn.ranking._showcase",),
    entries=[
        Entry(
            name="PointwiseRanker",
            summary="regression on the relevance labels (Ridge by default)",
            sklearn="sklearn.linear_model.Ridge",
        ),
        Entry(
            name="RankSVM",
            summary="linear SVM on pair differences inside each query",
            sklearn="sklearn.svm.LinearSVC",
            demo_params={"C": 0.1, "random_state": 0},
            check_params={"C": 0.1, "random_state": 0},
        ),
        Entry(
            name="ListNet",
            summary="top-one cross-entropy per query, by Newton's method",
            check_params={"alpha": 0.1},
        ),
    ],
)
