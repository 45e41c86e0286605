"""RankSVM: the pairs, the oracle against LinearSVC on the pair differences, invariances, the
pair cap, and the score (mean NDCG)."""

import tracemalloc
from itertools import combinations

import numpy as np
import pytest
from sklearn.svm import LinearSVC

from scratchlearn.metrics import ndcg_score
from scratchlearn.ranking import ListNet, PointwiseRanker, RankSVM, group_queries
from scratchlearn.ranking._ranksvm import _upper_triangle_pairs, query_pairs, rank_pairs
from scratchlearn.ranking._showcase import load_modechoice_ranking


@pytest.fixture(scope="module")
def modechoice():
    X, y, qid, _ = load_modechoice_ranking()
    return (X - X.mean(axis=0)) / X.std(axis=0), y, qid


def _pairs_by_hand(X, y, qid):
    """Every unordered pair with different labels inside a query, built one pair at a time."""
    Z, t = [], []
    for q in np.unique(qid):
        rows = np.flatnonzero(qid == q)
        for i, j in combinations(rows, 2):
            if y[i] != y[j]:
                Z.append(X[i] - X[j])
                t.append(np.sign(y[i] - y[j]))
    return np.array(Z), np.array(t)


def _primal(w, Z, t, C, loss):
    xi = np.maximum(0.0, 1.0 - t * (Z @ w))
    return 0.5 * w @ w + C * np.sum(xi**2 if loss == "squared_hinge" else xi)


@pytest.mark.parametrize("loss, C", [("squared_hinge", 0.5), ("hinge", 2.0)])
def test_ranksvm_weights_equal_linearsvc_on_the_pair_differences(modechoice, loss, C):
    X, y, qid = modechoice
    part = qid <= 60  # 60 travellers: 180 pairs (the chosen mode against the other three)
    X, y, qid = X[part], y[part], qid[part]
    Z, t = _pairs_by_hand(X, y, qid)
    p, tol = len(t), 1e-9
    ours = RankSVM(C=C, loss=loss, tol=tol, max_iter=100_000, random_state=0).fit(X, y, qid=qid)
    assert ours.n_pairs_ == p == 180 and ours.stop_reason_ == "converged"
    sk = LinearSVC(fit_intercept=False, loss=loss, C=C, tol=tol, max_iter=100_000, dual=True)
    w_sk = sk.fit(Z, t).coef_.ravel()
    # Both solvers stop when every projected gradient |PGₚ| <= tol (liblinear's rule). The
    # primal P(w) is 1-strongly convex, so ‖w − w*‖ <= √(2 gap), with the duality gap summed
    # pair by pair from the stopping rule: hinge, C·max(0, uₚ) − αₚuₚ <= 2C·tol per pair
    # (uₚ = 1 − tₚwᵀzₚ), gap <= 2Cp·tol; squared hinge, Cξₚ² + αₚ²/(4C) − αₚuₚ <= C·tol²,
    # gap <= Cp·tol². Both solutions are within that of w*, so of each other within twice it.
    gap = 2 * C * p * tol if loss == "hinge" else C * p * tol**2
    bound = 2 * np.sqrt(2 * gap)
    assert np.linalg.norm(ours.coef_ - w_sk) <= bound
    # P(w) is evaluated in floating point as a sum of p + d non-negative terms, each rounded:
    # its computed value carries an error of at most about (p + d)·ε·P(w) (the dot products
    # inside add a few ε per term). With gap ~1e-16 for the squared hinge, that rounding, not
    # the solvers, dominates: P(w) ≈ 36 here gives (p + d)·ε·P ≈ 1.5e-12, against a measured
    # 7e-15 difference.
    P_ours, P_sk = _primal(ours.coef_, Z, t, C, loss), _primal(w_sk, Z, t, C, loss)
    rounding = (p + Z.shape[1]) * np.finfo(float).eps * max(P_ours, P_sk)
    assert P_ours - P_sk <= 2 * gap + 2 * rounding


def test_pairs_are_every_unordered_pair_with_different_labels_once(modechoice):
    X, y, qid = modechoice
    perm = np.random.default_rng(3).permutation(len(y))  # interleaved queries
    Z, t, _ = rank_pairs(X[perm], y[perm], group_queries(qid[perm]))
    Z_ref, t_ref = _pairs_by_hand(X, y, qid)

    def canonical(Z, t):  # orient every pair as (better − worse), then sort the rows
        D = Z * t[:, None]
        return D[np.lexsort(D.T[::-1])]

    # a difference xᵢ − xⱼ and its negation are exact in floating point: equal bit for bit
    np.testing.assert_array_equal(canonical(Z, t), canonical(Z_ref, t_ref))


@pytest.mark.parametrize("cap", [None, 3, 20])
def test_rank_pairs_lays_out_each_querys_pairs_query_after_query(cap):
    """The vectorised pairing equals query_pairs called query by query (same rng stream)."""
    rng = np.random.default_rng(4)
    qid = rng.integers(0, 9, size=120)  # interleaved queries of unequal sizes
    X, y = rng.normal(size=(120, 3)), rng.integers(0, 3, size=120).astype(float)
    g = group_queries(qid)
    Z, t, n_sampled = rank_pairs(X, y, g, max_pairs_per_query=cap, random_state=0)
    ref_rng, a, b, sampled = np.random.default_rng(0), [], [], 0
    for q in range(g.n_queries):
        rows = g.rows(q)
        i, j, was_sampled = query_pairs(y[rows], max_pairs=cap, rng=ref_rng)
        a, b, sampled = [*a, *rows[i]], [*b, *rows[j]], sampled + was_sampled
    np.testing.assert_array_equal(Z, X[a] - X[b])
    np.testing.assert_array_equal(t, np.sign(y[a] - y[b]))
    assert n_sampled == sampled and (sampled > 0) == (cap is not None)


@pytest.mark.parametrize("est", [RankSVM(C=0.1), ListNet()], ids=repr)
def test_linear_ranker_predict_reads_X_where_it_lies(est, modechoice):
    X, y, qid = modechoice
    est.fit(X, y, qid=qid)
    X_big = np.asfortranarray(np.tile(X, (20, 1)))  # (16800, 8)
    est.predict(X_big)
    tracemalloc.start()
    scores = est.predict(X_big)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2 * scores.nbytes  # the scores, not a copy of X (8 times their size)
    np.testing.assert_array_equal(scores, X_big @ est.coef_)


def test_linear_ranker_predict_fast_path_checks_what_validation_checks(modechoice):
    X, y, qid = modechoice
    est = RankSVM(C=0.1, random_state=0).fit(X, y, qid=qid)
    # a float64 ndarray skips the general conversions; a list and float32 take them
    np.testing.assert_array_equal(est.predict(X), est.predict(X.tolist()))
    X32 = X.astype(np.float32)
    np.testing.assert_array_equal(est.predict(X32), X32.astype(np.float64) @ est.coef_)
    bad = X.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN in column 2"):
        est.predict(bad)
    bad[3, 2] = -np.inf
    with pytest.raises(ValueError, match="Input X contains infinity"):
        est.predict(bad)
    with pytest.raises(ValueError, match="X has 7 features, but RankSVM is expecting 8"):
        est.predict(X[:, :7])
    with pytest.raises(ValueError, match="Found array with 0 sample"):
        est.predict(X[:0])


@pytest.mark.parametrize("m", [2, 3, 7])
def test_upper_triangle_pair_index_matches_triu_indices(m):
    i, j = _upper_triangle_pairs(m, np.arange(m * (m - 1) // 2))
    i_ref, j_ref = np.triu_indices(m, k=1)
    np.testing.assert_array_equal(i, i_ref)
    np.testing.assert_array_equal(j, j_ref)


def test_large_queries_are_sampled_up_to_the_cap_with_a_warning():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = rng.integers(0, 3, size=300).astype(float)
    qid = np.repeat([0, 1, 2], [200, 90, 10])  # 19900, 4005 and 45 unordered pairs
    with pytest.warns(UserWarning, match="sampled 500 pairs in each of 2 queries"):
        est = RankSVM(max_pairs_per_query=500, random_state=0).fit(X, y, qid=qid)
    labels_differ_10 = sum(y[280 + i] != y[280 + j] for i, j in combinations(range(10), 2))
    assert labels_differ_10 < est.n_pairs_ <= 500 + 500 + labels_differ_10
    again = RankSVM(max_pairs_per_query=500, random_state=0)
    with pytest.warns(UserWarning):
        np.testing.assert_array_equal(again.fit(X, y, qid=qid).coef_, est.coef_)  # seeded


def test_ranksvm_pairs_ignore_a_constant_added_per_query(modechoice):
    X, y, qid = modechoice
    ref = RankSVM(C=0.1, random_state=0).fit(X, y, qid=qid).coef_
    shifted = RankSVM(C=0.1, random_state=0).fit(X, 2 * y + qid % 4, qid=qid).coef_
    # sign(yᵢ − yⱼ) is unchanged by y → 2y + c_q: the same pairs in the same order, same run
    np.testing.assert_array_equal(shifted, ref)


def test_a_single_query_of_equal_labels_has_no_pairs(modechoice):
    X, _, _ = modechoice
    est = RankSVM().fit(X[:4], np.ones(4))
    assert est.n_pairs_ == 0 and est.stop_reason_ == "converged"
    np.testing.assert_array_equal(est.coef_, np.zeros(X.shape[1]))


@pytest.mark.parametrize("est", [PointwiseRanker(), RankSVM(C=0.1), ListNet()], ids=repr)
def test_score_is_the_mean_ndcg_over_queries(est, modechoice):
    X, y, qid = modechoice
    est.fit(X, y, qid=qid)
    assert est.score(X, y, qid=qid) == ndcg_score(y, est.predict(X), qid=qid)
    assert est.score(X, y) == ndcg_score(y, est.predict(X))  # no qid: one query
