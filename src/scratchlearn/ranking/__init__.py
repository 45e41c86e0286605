"""Learning to rank: pointwise (regression on the labels), pairwise (RankSVM) and listwise
(ListNet) rankers, all fitted with ``fit(X, y, qid=None)`` and scored by mean NDCG per query."""

from ._base import check_qid, group_queries
from ._listnet import ListNet
from ._pointwise import PointwiseRanker
from ._ranksvm import RankSVM

__all__ = ["ListNet", "PointwiseRanker", "RankSVM", "check_qid", "group_queries"]
