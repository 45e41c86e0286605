"""Learning-to-rank metrics, scored query by query: DCG, NDCG, MAP, MRR, precision at k.

Rows are documents; ``qid`` gives each row its query (``None``: all rows are one query). Rows of a
query need not be contiguous and queries may come in any order: rows are grouped by the value of
``qid``. Every metric scores each query alone and returns the plain mean over queries;
``return_per_query=True`` returns the per-query array instead, in the order of the sorted distinct
ids (``numpy.unique(qid)``).

Symbols, for one query of ``n`` documents ranked by decreasing score ``s`` (rank ``i = 1 … n``):
relevance label ``yᵢ`` of the document at rank i; gain ``g(y) = y`` ("linear") or ``2^y − 1``
("exponential"); discount ``dᵢ = 1/log₂(i + 1)`` for ``i ≤ k`` and 0 beyond (``k = None``: no
cut-off; ``k`` larger than the query: the whole query); binary relevance ``relᵢ = [yᵢ > 0]`` and
``R = Σ relᵢ`` for MAP, MRR and P@k.

* ``DCG@k = Σᵢ g(yᵢ) dᵢ``; ``NDCG@k = DCG@k / IDCG@k`` with IDCG the DCG of the labels sorted
  decreasingly (the best possible ranking).
* ``AP@k = (1/min(k, R)) Σ_{i ≤ k} relᵢ · P@i`` with ``P@i = (1/i) Σ_{j ≤ i} relⱼ``: the
  standard denominator, so that a ranking placing ``min(k, R)`` relevant documents first scores 1.
* ``RR = 1/(rank of the first relevant document)``; ``P@k = (1/min(k, n)) Σ_{i ≤ k} relᵢ``
  (a query shorter than k is truncated, so a query of relevant documents only scores 1).

Tied scores. A metric of a ranking with tied scores is the mean of the metric over all orderings
of the tied documents (scikit-learn's convention for DCG). For DCG a run of m tied documents that
occupies ranks ``a+1 … a+m`` contributes ``mean(g) · Σ d`` over those ranks. For the binary
metrics the expectation over the orderings is exact too: a tied run holding r relevant documents,
with c relevant ranked before it, contributes to AP at its j-th position (j = 0 … m − 1, rank i)
``(r/m)(c + 1 + j(r − 1)/(m − 1))/i`` — the probability that rank i is relevant times the expected
number of relevant documents up to rank i given that it is; RR takes the first run holding a
relevant document and sums ``P(first relevant at its j-th position)/i`` with that probability
``C(m − r, j)/C(m, j) · r/(m − j)``; P@k counts ``r/m`` for every rank of a run. The result never
depends on the order of the rows. ``ignore_ties=True`` (DCG/NDCG) ranks tied rows in the order
they are given, which is faster but then depends on it.

A query without any relevant document (all labels 0, so ``IDCG = 0`` and ``R = 0``) scores **0**
under every metric here, as scikit-learn's ``ndcg_score`` does: no ranking of it can be told from
another, the value is the same for every model so it never changes which model a search picks,
and 0 (rather than LightGBM/XGBoost's 1) keeps the mean from crediting a model for queries it had
nothing to find in. The mean therefore counts such a query as a miss; a perfect ranker's mean NDCG
is the fraction of queries with a relevant document. Drop those queries before scoring if that is
not wanted. Nothing is ever NaN.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.special import gammaln

from ..utils.validation import column_or_1d

__all__ = [
    "dcg_score",
    "ndcg_score",
    "average_precision",
    "mean_average_precision",
    "mean_reciprocal_rank",
    "precision_at_k",
]


def _check_flag(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}.")


def _check_k(k, required=False):
    if k is None and not required:
        return None
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise ValueError(f"k must be a positive int{'' if required else ' or None'}; got {k!r}.")
    if k < 1:
        raise ValueError(f"k must be at least 1; got {k}.")
    return int(k)


def _check_vector(y, name):
    y = column_or_1d(y, input_name=name)
    if y.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric; got dtype {y.dtype}.")
    y = y.astype(np.float64)
    if not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or infinity.")
    return y


class _Ranking:
    """Rows sorted by (query, decreasing score), with what every metric needs.

    ``q`` query index of each sorted row (0 … Q−1, in the order of ``numpy.unique(qid)``),
    ``y`` its label, ``pos`` its 0-based rank in its query, ``tie`` the index of its run of tied
    scores (runs never cross queries), ``sizes`` the number of rows of each query.
    """

    def __init__(self, y_true, y_score, qid, ignore_ties=False):
        y_true = _check_vector(y_true, "y_true")
        y_score = _check_vector(y_score, "y_score")
        if y_true.shape[0] != y_score.shape[0]:
            raise ValueError(
                f"y_true and y_score have different lengths: {y_true.shape[0]} and "
                f"{y_score.shape[0]}."
            )
        if y_true.shape[0] == 0:
            raise ValueError("Found empty input arrays: y_true and y_score have 0 samples.")
        n = y_true.shape[0]
        if qid is None:
            codes = np.zeros(n, dtype=np.intp)
        else:
            qid = column_or_1d(qid, input_name="qid")
            if qid.shape[0] != n:
                raise ValueError(f"qid has {qid.shape[0]} entries but y_true has {n} rows.")
            codes = np.unique(qid, return_inverse=True)[1].ravel()
        order = np.lexsort((-y_score, codes))
        self.n_queries = int(codes.max()) + 1
        self.y_true, self.codes = y_true, codes
        self.q, self.y, s = codes[order], y_true[order], y_score[order]
        self.sizes = np.bincount(codes, minlength=self.n_queries)
        self.starts = np.concatenate(([0], np.cumsum(self.sizes)[:-1]))
        self.pos = np.arange(n) - self.starts[self.q]
        new_run = np.ones(n, dtype=bool)
        if not ignore_ties:
            new_run[1:] = (self.q[1:] != self.q[:-1]) | (s[1:] != s[:-1])
        self.tie = np.cumsum(new_run) - 1

    def per_query(self, values):
        """Sum of per-row values within each query."""
        return np.bincount(self.q, weights=values, minlength=self.n_queries)

    def per_run(self, values):
        return np.bincount(self.tie, weights=values)

    def discount(self, k):
        """``1/log₂(rank + 1)`` for ranks up to k, 0 beyond."""
        d = 1.0 / np.log2(self.pos + 2.0)
        return d if k is None else np.where(self.pos < k, d, 0.0)


def _gain(y, gain):
    if gain == "linear":
        return y
    if gain == "exponential":
        return np.exp2(y) - 1.0
    raise ValueError(f"gain must be 'linear' or 'exponential'; got {gain!r}.")


def _dcg(r, k, gain):
    """DCG@k of every query: each tied run contributes its mean gain times its summed discount."""
    g, d = _gain(r.y, gain), r.discount(k)
    run_mean_gain = r.per_run(g) / np.bincount(r.tie)
    return r.per_query(run_mean_gain[r.tie] * d)


def _ideal_dcg(r, k, gain):
    """DCG@k of the labels sorted decreasingly within each query (rank positions as in r)."""
    order = np.lexsort((-r.y_true, r.codes))
    return r.per_query(_gain(r.y_true[order], gain) * r.discount(k))


def _finish(per_query, return_per_query):
    _check_flag(return_per_query, "return_per_query")
    return per_query if return_per_query else float(per_query.mean())


def dcg_score(
    y_true, y_score, *, k=None, qid=None, gain="linear", ignore_ties=False, return_per_query=False
):
    """Discounted cumulative gain ``DCG@k = Σ_{i ≤ k} g(yᵢ)/log₂(i + 1)``, mean over queries.

    See the module docstring for the gains, the tie rule and ``qid``. Labels may be negative.
    """
    _check_flag(ignore_ties, "ignore_ties")
    k = _check_k(k)
    r = _Ranking(y_true, y_score, qid, ignore_ties)
    return _finish(_dcg(r, k, gain), return_per_query)


def ndcg_score(
    y_true, y_score, *, k=None, qid=None, gain="linear", ignore_ties=False, return_per_query=False
):
    """Normalised DCG ``DCG@k / IDCG@k`` in [0, 1], mean over queries.

    ``IDCG@k`` is the DCG@k of the ideal ranking (labels sorted decreasingly). Labels must be
    non-negative. A query with ``IDCG = 0`` (no positive label) scores 0; the module docstring
    says why.

    Examples
    --------
    >>> from scratchlearn.metrics import ndcg_score
    >>> y_true = [3, 2, 0, 1, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.7, 0.1, 0.4, 0.6, 0.3]
    >>> qid = [1, 1, 1, 1, 2, 2, 2]
    >>> print(round(ndcg_score(y_true, y_score, qid=qid), 4))
    0.9927
    >>> print(ndcg_score(y_true, y_score, qid=qid, k=2, return_per_query=True).round(4))
    [1. 1.]
    """
    _check_flag(ignore_ties, "ignore_ties")
    k = _check_k(k)
    r = _Ranking(y_true, y_score, qid, ignore_ties)
    if np.any(r.y < 0):
        raise ValueError("ndcg_score needs non-negative relevance labels y_true.")
    dcg, ideal = _dcg(r, k, gain), _ideal_dcg(r, k, gain)
    safe = np.where(ideal > 0, ideal, 1.0)
    return _finish(np.where(ideal > 0, dcg / safe, 0.0), return_per_query)


def _runs(r):
    """Per row: relevant documents ``r_run`` and size ``m`` of its tied run, relevant ``c``
    ranked before the run in its query, and its 0-based offset ``j`` inside the run."""
    rel = (r.y > 0).astype(np.float64)
    m = np.bincount(r.tie).astype(np.float64)
    r_run = r.per_run(rel)
    first = np.flatnonzero(np.r_[True, r.tie[1:] != r.tie[:-1]])  # first row of each run
    before = np.cumsum(rel) - rel  # relevant rows before this one, over all queries
    c = before[first] - before[r.starts[r.q[first]]]
    j = np.arange(r.q.shape[0]) - first[r.tie]
    return r_run[r.tie], m[r.tie], c[r.tie], j, rel


def _average_precision(r, k):
    r_run, m, c, j, rel = _runs(r)
    same = np.where(m > 1, j * (r_run - 1) / np.maximum(m - 1, 1), 0.0)
    term = (r_run / m) * (c + 1 + same) / (r.pos + 1)
    if k is not None:
        term = np.where(r.pos < k, term, 0.0)
    R = r.per_query(rel)
    denom = R if k is None else np.minimum(R, k)
    return np.where(R > 0, r.per_query(term) / np.maximum(denom, 1), 0.0)


def average_precision(y_true, y_score, *, k=None):
    """Average precision ``AP@k`` of one query, relevance ``y > 0``, denominator ``min(k, R)``.

    0 when no document is relevant; ties averaged over their orderings (module docstring).
    """
    k = _check_k(k)
    return float(_average_precision(_Ranking(y_true, y_score, None), k)[0])


def mean_average_precision(y_true, y_score, *, qid=None, k=None, return_per_query=False):
    """Mean over queries of ``AP@k`` (see :func:`average_precision`)."""
    k = _check_k(k)
    return _finish(_average_precision(_Ranking(y_true, y_score, qid), k), return_per_query)


def mean_reciprocal_rank(y_true, y_score, *, qid=None, return_per_query=False):
    """Mean over queries of ``1/rank`` of the first relevant (``y > 0``) document; 0 if none.

    With ties, the expected reciprocal rank over the orderings of the first tied run holding a
    relevant document (module docstring).
    """
    r = _Ranking(y_true, y_score, qid)
    r_run, m, c, j, _ = _runs(r)
    in_first = (r_run > 0) & (c == 0)
    # P(the first j of the run are not relevant) = C(m − r, j)/C(m, j), zero once j > m − r
    free = m - r_run
    ok = in_first & (j <= free)
    jj, ff = np.where(ok, j, 0), np.where(ok, free, 0)
    log_none = gammaln(ff + 1) - gammaln(ff - jj + 1) - gammaln(m + 1) + gammaln(m - jj + 1)
    p_first = np.where(ok, np.exp(log_none) * r_run / (m - jj), 0.0)
    return _finish(r.per_query(p_first / (r.pos + 1)), return_per_query)


def precision_at_k(y_true, y_score, *, k, qid=None, return_per_query=False):
    """Mean over queries of ``P@k``: the fraction of the top ``min(k, n)`` documents that are
    relevant (``y > 0``); each rank of a tied run counts its run's fraction of relevant ones."""
    k = _check_k(k, required=True)
    r = _Ranking(y_true, y_score, qid)
    r_run, m, _, _, _ = _runs(r)
    hits = r.per_query(np.where(r.pos < k, r_run / m, 0.0))
    return _finish(hits / np.minimum(r.sizes, k), return_per_query)
