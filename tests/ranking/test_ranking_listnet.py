"""Query grouping, ListNet and PointwiseRanker: gradient, invariances, oracles, bad input."""

import numpy as np
import pytest

from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.linear_model import Ridge
from scratchlearn.optim import check_gradient
from scratchlearn.ranking import ListNet, PointwiseRanker, RankSVM, group_queries
from scratchlearn.ranking._listnet import (
    listnet_hessian,
    listnet_loss_grad,
    segment_log_softmax,
    top_one_targets,
)
from scratchlearn.ranking._showcase import load_modechoice_ranking, split_by_queries


@pytest.fixture(scope="module")
def modechoice():
    """The mode-choice ranking set, standardised (its own statistics: a fit-only fixture)."""
    X, y, qid, _ = load_modechoice_ranking()
    return (X - X.mean(axis=0)) / X.std(axis=0), y, qid


# -- grouping and qid checks ---------------------------------------------------------------------
def test_group_queries_groups_interleaved_ids_by_value_keeping_row_order():
    qid = np.array([7, 3, 7, 3, 5, 7])
    g = group_queries(qid)
    assert g.n_queries == 3
    # sorted ids 3, 5, 7; within a query the original relative order is kept (stable sort)
    assert [g.rows(q).tolist() for q in range(3)] == [[1, 3], [4], [0, 2, 5]]
    np.testing.assert_array_equal(g.codes, [2, 0, 2, 0, 1, 2])


@pytest.mark.parametrize("cls", [PointwiseRanker, RankSVM, ListNet])
def test_qid_of_the_wrong_length_or_shape_is_refused_before_any_work(cls, modechoice):
    X, y, qid = modechoice
    with pytest.raises(ValueError, match="qid has 839 elements, but X has 840 samples"):
        cls().fit(X, y, qid=qid[:-1])
    with pytest.raises(ValueError, match=r"qid must be a 1-d array of query ids; got shape"):
        cls().fit(X, y, qid=qid[:, None])
    bad = qid.astype(float)
    bad[5] = np.nan
    with pytest.raises(ValueError, match="qid contains NaN or infinity"):
        cls().fit(X, y, qid=bad)


# -- ListNet -------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["softmax", "normalized"])
def test_listnet_gradient_matches_finite_differences(target, modechoice):
    X, y, qid = modechoice
    g = group_queries(qid)
    Xs, starts = X[g.order], g.starts
    T = top_one_targets(y[g.order], starts, target)
    w = np.random.default_rng(0).normal(size=X.shape[1])
    err = check_gradient(lambda v: listnet_loss_grad(v, Xs, T, starts, 0.3), w)
    # check_gradient: a correct gradient gives ~1e-7 or less (central differences, ε = 1e-6:
    # truncation O(ε²‖∇³J‖) and round-off O(ε_mach|J|/ε) ≈ 1e-10), a wrong one O(1).
    assert err < 1e-5


@pytest.mark.parametrize("target", ["softmax", "normalized"])
def test_listnet_hessian_matches_finite_differences_of_the_gradient(target, modechoice):
    X, y, qid = modechoice
    g = group_queries(qid)
    Xs, starts = X[g.order], g.starts
    T = top_one_targets(y[g.order], starts, target)
    w = np.random.default_rng(0).normal(size=X.shape[1])
    _, _, P = listnet_loss_grad(w, Xs, T, starts, 0.3, return_P=True)
    H = listnet_hessian(Xs, P, starts, 0.3)
    eps = 1e-5
    E = eps * np.eye(len(w))
    grad = lambda v: listnet_loss_grad(v, Xs, T, starts, 0.3)[1]  # noqa: E731
    H_fd = np.column_stack([(grad(w + E[k]) - grad(w - E[k])) / (2 * eps) for k in range(len(w))])
    # Central differences of ∇J: truncation c·ε² (measured c ≈ 0.35 from ε = 1e-4, where the
    # error is 3.5e-9) and round-off ≈ ε_mach·‖∇J‖/ε ≈ 1e-11, together 6e-11 at ε = 1e-5; a
    # wrong Hessian (a missing MᵀM term) is off by O(0.1) on entries of size ≈ 1.
    np.testing.assert_allclose(H, H_fd, rtol=0, atol=1e-8)


def test_segment_log_softmax_is_stable_and_matches_the_direct_formula():
    s = np.array([1000.0, 999.0, 998.0, -3.0, 2.0])
    starts = np.array([0, 3])
    out = segment_log_softmax(s, starts)
    shifted = [np.array([0.0, -1.0, -2.0]), np.array([-3.0, 2.0])]  # a constant per block
    direct = np.concatenate([b - np.log(np.exp(b).sum()) for b in shifted])
    # same rounding path up to the shift: a few ε of log(1 + e⁻¹ + e⁻²) ≈ 0.41
    np.testing.assert_allclose(out, direct, rtol=0, atol=1e-14)


def test_normalized_targets_of_an_all_zero_query_are_uniform():
    T = top_one_targets(np.array([2.0, 0.0, 0.0, 0.0, 0.0]), np.array([0, 2]), "normalized")
    np.testing.assert_array_equal(T, [1.0, 0.0, 1 / 3, 1 / 3, 1 / 3])


def test_listnet_normalized_refuses_negative_labels(modechoice):
    X, y, qid = modechoice
    with pytest.raises(ValueError, match="needs non-negative relevance labels"):
        ListNet(target="normalized").fit(X, y - 1, qid=qid)


def test_listnet_fit_record_and_convergence(modechoice):
    X, y, qid = modechoice
    est = ListNet(alpha=1e-2, tol=1e-6).fit(X, y, qid=qid)
    assert est.stop_reason_ == "grad_norm" and est.n_iter_ < 1000
    J = np.asarray(est.history_["objective"])
    assert len(J) == est.n_iter_ + 1 and est.history_["grad_norm"][-1] <= 1e-6
    assert J[-1] < J[0] == pytest.approx(np.log(4.0))  # w = 0: uniform P over 4 modes
    # at the minimum ∇J = 0: (1/Q) Xᵀ(P − T) = −αw, which is what stopped the run
    g = group_queries(qid)
    _, grad = listnet_loss_grad(
        est.coef_, X[g.order], top_one_targets(y[g.order], g.starts, "softmax"), g.starts, 1e-2
    )
    assert np.linalg.norm(grad) <= 1e-6
    # Newton converges in 3 steps here (‖∇J‖: 0.17, 0.018, 9e-5, 5e-9): one step is too few
    with pytest.warns(ConvergenceWarning, match="ListNet stopped on 'max_iter'"):
        short = ListNet(max_iter=1).fit(X, y, qid=qid)
    assert short.n_iter_ == 1 and short.stop_reason_ == "max_iter"
    with pytest.warns(ConvergenceWarning, match="ListNet stopped on 'max_iter'"):
        short = ListNet(solver="gd", max_iter=3).fit(X, y, qid=qid)
    assert short.n_iter_ == 3 and short.stop_reason_ == "max_iter"


@pytest.mark.parametrize("solver", ["newton", "gd"])
def test_listnet_solvers_stop_at_the_minimum(solver, modechoice):
    X, y, qid = modechoice
    est = ListNet(solver=solver, alpha=1e-2, tol=1e-6).fit(X, y, qid=qid)
    assert est.stop_reason_ == "grad_norm"
    if solver == "newton":  # every accepted step satisfies Armijo: J decreases strictly
        assert np.all(np.diff(est.history_["objective"]) < 0)  # (Nesterov's momentum need not)
    # the gradient recomputed at coef_ is the one that stopped the run (same computation)
    g = group_queries(qid)
    T = top_one_targets(y[g.order], g.starts, "softmax")
    _, grad = listnet_loss_grad(est.coef_, X[g.order], T, g.starts, 1e-2)
    assert np.linalg.norm(grad) == est.history_["grad_norm"][-1] <= 1e-6


def test_listnet_is_invariant_to_row_and_query_order_and_per_query_label_shifts(modechoice):
    X, y, qid = modechoice
    ref = ListNet(alpha=1e-2).fit(X, y, qid=qid).coef_
    perm = np.random.default_rng(1).permutation(len(y))  # interleaves the queries
    shuffled = ListNet(alpha=1e-2).fit(X[perm], y[perm], qid=qid[perm]).coef_
    # Same objective, sums taken in another order: each J and ∇J differs by O(nε); both runs
    # stop at ‖∇J‖ ≤ 1e-6 and J is α-strongly convex, so ‖w − w*‖ ≤ ‖∇J‖/α = 1e-4 each.
    np.testing.assert_allclose(shuffled, ref, rtol=0, atol=2e-4)
    # softmax targets of y + c_q equal those of y: exp is shifted by the block maximum, and
    # integer labels plus integer constants are exact, so the run is identical bit for bit
    shift = (qid % 5).astype(float) * 3.0
    np.testing.assert_array_equal(ListNet(alpha=1e-2).fit(X, y + shift, qid=qid).coef_, ref)


def test_listnet_ranks_held_out_travellers_better_than_the_constant_car(modechoice):
    X, y, qid = modechoice
    test = split_by_queries(qid)
    est = ListNet().fit(X[~test], y[~test], qid=qid[~test])
    s = est.predict(X[test])
    top = np.array([rows[np.argmax(s[rows])] for rows in _query_rows(qid[test])])
    car = X[test][:, :3].sum(axis=1) == X[test][:, :3].sum(axis=1).min()
    hit_model, hit_car = y[test][top].mean(), y[test][car].mean()
    assert hit_model > hit_car  # the chosen mode ranked first more often than "always car"


def _query_rows(qid):
    g = group_queries(qid)
    return [g.rows(q) for q in range(g.n_queries)]


# -- PointwiseRanker -----------------------------------------------------------------------------
def test_pointwise_ridge_equals_ridge(modechoice):
    X, y, qid = modechoice
    w = np.linspace(0.5, 2.0, len(y))
    ranker = PointwiseRanker(Ridge(alpha=2.0)).fit(X, y, qid=qid, sample_weight=w)
    ridge = Ridge(alpha=2.0).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(ranker.predict(X), ridge.predict(X))  # the same computation
    default = PointwiseRanker().fit(X, y)
    np.testing.assert_array_equal(default.predict(X), Ridge().fit(X, y).predict(X))
