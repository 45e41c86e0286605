"""Learning-to-rank metrics: oracles (scikit-learn, hand-computed queries, brute force over tied
orderings), the documented conventions, invariance to row and query order, and bad input.

Tolerances. Every metric here is a sum of at most n ≤ 30 terms per query, each a product or
quotient of a few correctly rounded operations (log₂, 2^y, one division), so two implementations
that add the same terms in a different order differ by at most about 2nε·max|term|·(few) ≈ 1e-14
relative; the bound 1e-12 keeps a factor of more than 10 above that. The reciprocal-rank
probabilities go through exp(lgamma(·)) of arguments ≤ 10, relative error ≈ 1e-14 by the same
count, so the same bound holds.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from scratchlearn.metrics import (
    average_precision,
    dcg_score,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_score,
    precision_at_k,
)

RTOL = 1e-12  # see the module docstring


def _queries(seed, n_queries=12, tie_levels=3):
    """Random queries of 1–9 documents, graded labels 0–3, scores with many ties."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 10, n_queries)
    qid = np.repeat(rng.permutation(1000)[:n_queries], sizes)
    y = rng.integers(0, 4, qid.shape[0]).astype(float)
    s = rng.integers(0, tie_levels, qid.shape[0]).astype(float)
    return y, s, qid


@pytest.mark.parametrize("k", [None, 1, 2, 5, 50])
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_dcg_and_ndcg_match_sklearn_query_by_query(k, gain):
    y, s, qid = _queries(0)
    per_dcg = dcg_score(y, s, k=k, qid=qid, gain=gain, return_per_query=True)
    per_ndcg = ndcg_score(y, s, k=k, qid=qid, gain=gain, return_per_query=True)
    for i, q in enumerate(np.unique(qid)):
        rows = qid == q
        # exponential gain = linear gain of the transformed labels 2^y − 1 (same ideal order)
        yq = y[rows] if gain == "linear" else np.exp2(y[rows]) - 1
        sq = s[rows]
        if rows.sum() == 1:  # scikit-learn refuses a single document: DCG = its gain
            assert per_dcg[i] == yq[0] and per_ndcg[i] == (1.0 if yq[0] > 0 else 0.0)
            continue
        want = skm.dcg_score(yq[None], sq[None], k=k)
        assert per_dcg[i] == pytest.approx(want, rel=RTOL, abs=1e-300)
        want = skm.ndcg_score(yq[None], sq[None], k=k)
        assert per_ndcg[i] == pytest.approx(want, rel=RTOL, abs=1e-300)
    assert dcg_score(y, s, k=k, qid=qid, gain=gain) == pytest.approx(per_dcg.mean(), rel=RTOL)


def test_ignore_ties_ranks_tied_rows_in_the_given_order():
    y = np.array([0.0, 3.0, 1.0])
    s = np.array([1.0, 1.0, 0.0])  # rows 0 and 1 tied
    d2 = 1 / np.log2(3)
    assert dcg_score(y, s, ignore_ties=True) == pytest.approx(0 + 3 * d2 + 1 / 2, rel=RTOL)
    assert dcg_score(y, s) == pytest.approx(1.5 * (1 + d2) + 1 / 2, rel=RTOL)
    # without ties, ignoring them changes nothing (scikit-learn's ignore_ties as oracle)
    s = np.array([0.3, 0.9, 0.1])
    want = skm.ndcg_score(y[None], s[None], ignore_ties=True)
    assert ndcg_score(y, s, ignore_ties=True) == pytest.approx(want, rel=RTOL)


def test_average_precision_matches_sklearn_without_ties():
    rng = np.random.default_rng(1)
    for _ in range(20):
        y = rng.integers(0, 3, 15)
        if not y.any():
            continue
        s = rng.normal(size=15)
        want = skm.average_precision_score(y > 0, s)
        assert average_precision(y, s) == pytest.approx(want, rel=RTOL)


def test_hand_computed_query():
    # ranked by score the labels are 2, 1, 0, 0, 3: rel = [1, 1, 0, 0, 1], R = 3
    y = np.array([0, 3, 1, 0, 2])
    s = np.array([0.4, 0.1, 0.7, 0.2, 0.9])
    assert average_precision(y, s) == pytest.approx((1 / 1 + 2 / 2 + 3 / 5) / 3, rel=RTOL)
    # k = 3: two hits in the top 3, denominator min(k, R) = 3
    assert average_precision(y, s, k=3) == pytest.approx((1 + 1) / 3, rel=RTOL)
    # k = 1: denominator min(1, 3) = 1, so a relevant top document scores 1
    assert average_precision(y, s, k=1) == 1.0
    assert mean_reciprocal_rank(y, s) == 1.0
    assert mean_reciprocal_rank([0, 1, 0], [0.9, 0.5, 0.1]) == pytest.approx(1 / 2, rel=RTOL)
    assert precision_at_k(y, s, k=2) == 1.0
    assert precision_at_k(y, s, k=4) == 0.5
    # k larger than the query: the query is truncated, P@k over its 5 documents
    assert precision_at_k(y, s, k=9) == pytest.approx(3 / 5, rel=RTOL)


def test_two_queries_interleaved_give_the_mean_of_each():
    y = np.array([1, 0, 0, 1, 0, 1])
    s = np.array([3.0, 2.0, 1.0, 0.5, 0.4, 0.3])
    qid = np.array(["b", "a", "b", "a", "b", "a"])  # a: y 0,1,1; b: y 1,0,0
    per = mean_reciprocal_rank(y, s, qid=qid, return_per_query=True)
    np.testing.assert_allclose(per, [1 / 2, 1.0], rtol=RTOL)  # order of np.unique: a, b
    ap_a = (1 / 2 + 2 / 3) / 2
    assert mean_average_precision(y, s, qid=qid) == pytest.approx((ap_a + 1) / 2, rel=RTOL)


def _brute_over_ties(metric, y, s):
    """Mean of ``metric`` over every ordering of the rows that agrees with decreasing s."""
    values = []
    for perm in itertools.permutations(range(len(y))):
        order = sorted(range(len(y)), key=lambda i: (-s[i], perm.index(i)))
        strict = np.empty(len(y))
        strict[order] = np.arange(len(y), 0, -1)
        values.append(metric(y, strict))
    return np.mean(values)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=5),
    st.integers(1, 7),
)
def test_binary_metrics_average_over_tied_orderings(rows, k):
    y = np.array([r[0] for r in rows], dtype=float)
    s = np.array([r[1] for r in rows], dtype=float)
    cases = [
        lambda y, s: average_precision(y, s, k=k),
        lambda y, s: mean_reciprocal_rank(y, s),
        lambda y, s: precision_at_k(y, s, k=k),
        lambda y, s: dcg_score(y, s, k=k, gain="exponential"),
    ]
    for metric in cases:
        assert metric(y, s) == pytest.approx(_brute_over_ties(metric, y, s), rel=RTOL, abs=1e-15)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 6))
def test_scores_invariant_to_row_and_query_order(seed, k):
    y, s, qid = _queries(seed)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(y.shape[0])
    relabel = {q: 10_000 - q for q in np.unique(qid)}  # reverses the order of the queries
    qid2 = np.array([relabel[q] for q in qid[perm]])
    for f in (dcg_score, ndcg_score, mean_average_precision, precision_at_k):
        a = f(y, s, qid=qid, k=k, return_per_query=True)
        b = f(y[perm], s[perm], qid=qid2, k=k, return_per_query=True)
        np.testing.assert_allclose(a, b[::-1], rtol=RTOL)
    a = mean_reciprocal_rank(y, s, qid=qid)
    assert mean_reciprocal_rank(y[perm], s[perm], qid=qid2) == pytest.approx(a, rel=RTOL)


def test_query_without_relevant_documents_scores_zero_never_nan():
    y = np.array([0, 0, 0, 2, 1, 0])
    s = np.array([0.1, 0.5, 0.2, 0.9, 0.3, 0.1])
    qid = np.array([1, 1, 1, 2, 2, 2])
    for f in (ndcg_score, mean_average_precision, mean_reciprocal_rank):
        per = f(y, s, qid=qid, return_per_query=True)
        assert per[0] == 0.0 and per[1] == 1.0
        assert f(y, s, qid=qid) == 0.5
    assert skm.ndcg_score([[0, 0, 0]], [[0.1, 0.5, 0.2]]) == 0.0  # the same choice


def test_perfect_and_worst_rankings():
    y = np.array([3, 2, 1, 0, 0])
    assert ndcg_score(y, y) == 1.0
    assert ndcg_score(y, -y, k=2) == 0.0
    assert mean_average_precision(y, y) == 1.0
    # a constant score: every ordering equally likely, so the expected ranking of a random one
    assert mean_reciprocal_rank(y, np.zeros(5)) == pytest.approx(
        _brute_over_ties(mean_reciprocal_rank, y, np.zeros(5)), rel=RTOL
    )


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: ndcg_score([1, 0], [0.1, 0.2], k=0), "k must be at least 1"),
        (lambda: ndcg_score([1, 0], [0.1, 0.2], k=1.5), "k must be a positive int"),
        (lambda: precision_at_k([1, 0], [0.1, 0.2], k=None), "k must be a positive int"),
        (lambda: ndcg_score([1, 0], [0.1, 0.2], qid=[1, 1, 2]), "qid has 3 entries"),
        (lambda: ndcg_score([1, 0], [0.1]), "different lengths"),
        (lambda: ndcg_score([], []), "empty"),
        (lambda: ndcg_score([-1, 0], [0.1, 0.2]), "non-negative"),
        (lambda: dcg_score([1, 0], [np.nan, 0.2]), "y_score contains NaN"),
        (lambda: dcg_score([1, 0], [0.1, 0.2], gain="log"), "gain must be"),
        (lambda: dcg_score([[1, 0]], [[0.1, 0.2]]), "y_true should be a 1d array"),
        (lambda: dcg_score([1, 0], [0.1, 0.2], return_per_query="yes"), "return_per_query"),
    ],
)
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()
