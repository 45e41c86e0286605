"""SVC: the student table solved exactly, the hard margin against an independent QP, inspection
(slack, margin width, fit record), kernels (precomputed, callable), probabilities, bad input."""

import warnings

import numpy as np
import pytest
from scipy.optimize import linprog, minimize
from sklearn.datasets import load_breast_cancer, load_iris

from scratchlearn.datasets import load_student_pass, load_xor
from scratchlearn.exceptions import ConvergenceWarning, InvalidParameterError
from scratchlearn.metrics.pairwise import rbf_kernel
from scratchlearn.svm import SVC
from scratchlearn.svm._platt import couple_pairwise, platt_proba

EPS = np.finfo(np.float64).eps


def _iris_two_classes():
    """Setosa vs versicolor on sepal length and width: separable, 100 points."""
    X, y = load_iris(return_X_y=True)
    keep = y < 2
    return X[keep][:, :2], y[keep]


def _cancer(n=200):
    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X[:n], y[:n]


def test_student_table_exact_hard_margin():
    # Only C(3, 70) and E(5, 80) touch the margin: w = 2(E − C)/‖E − C‖² = (1/26, 5/26),
    # b = −1 − w·C = −379/26, α_C = α_E = 2/‖E − C‖² = 1/52, margin ‖E − C‖ = √104; the other
    # three points have y f = 2.96, 3.04, 2.04 > 1. SMO stops at m − M <= tol = 1e-3 on a
    # problem whose Q entries are up to ~10⁴: α is exact to tol/λ with λ = ‖E − C‖² = 104 the
    # curvature along the one free direction, so w = α(E − C) within 1e-5·‖E − C‖ ≈ 1e-4.
    X, y = load_student_pass(return_X_y=True)
    m = SVC(kernel="linear", C=np.inf).fit(X, y)
    np.testing.assert_array_equal(m.support_, [2, 4])
    np.testing.assert_allclose(m.coef_[0], [1 / 26, 5 / 26], atol=1e-4)
    np.testing.assert_allclose(np.abs(m.dual_coef_[0]), [1 / 52, 1 / 52], atol=1e-5)
    # b: y f = ±1 at both support vectors → b = −1 − w·C within ‖Δw‖·‖C‖ ≈ 1e-4·70
    np.testing.assert_allclose(m.intercept_[0], -379 / 26, atol=1e-2)
    np.testing.assert_allclose(m.margin_width_[0], np.sqrt(104), rtol=1e-3)
    np.testing.assert_allclose(m.slack_, 0.0, atol=1e-3)  # hard margin: no slack (to tol)
    assert m.stop_reason_ == "converged" and m.fit_status_ == 0


def test_hard_margin_is_the_max_margin_qp():
    # The primal ½‖w‖² s.t. y(w·x + b) >= 1 solved by SLSQP (no SVM code involved). Both
    # optima are the unique maximum-margin (w, b). SMO's gap <= tol·‖α − α*‖₁ bounds
    # ½‖w − w*‖² (test_svm_svc_oracle.py derives it); ‖α − α*‖₁ <= Σα + Σα* ≈ 2‖w‖² ≈ 136 here,
    # so at tol = 1e-9 ‖Δw‖ <= √(2·1e-9·136) = 5.2e-4, and |Δb| <= ‖Δw‖·max‖x‖ (7.3) + tol.
    X, y = _iris_two_classes()
    s = 2.0 * y - 1
    A = s[:, None] * np.c_[X, np.ones(len(y))]  # constraint rows: A v >= 1
    # SLSQP from v = 0 (infeasible) stopped on "Positive directional derivative for linesearch"
    # on some machines: it starts from a feasible point, found by a linear program.
    lp = linprog(np.zeros(3), A_ub=-A, b_ub=-np.ones(len(y)), bounds=[(None, None)] * 3)
    assert lp.success
    qp = minimize(
        lambda v: 0.5 * v[:2] @ v[:2],
        lp.x,
        jac=lambda v: np.r_[v[:2], 0.0],
        constraints=[{"type": "ineq", "fun": lambda v: A @ v - 1, "jac": lambda v: A}],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    assert qp.success
    m = SVC(kernel="linear", C=np.inf, tol=1e-9).fit(X, y)
    dw = np.sqrt(2e-9 * 2 * (qp.x[:2] @ qp.x[:2]))
    assert np.linalg.norm(m.coef_[0] - qp.x[:2]) <= dw
    assert abs(m.intercept_[0] - qp.x[2]) <= dw * np.linalg.norm(X, axis=1).max() + 1e-9
    active = np.flatnonzero(np.abs(A @ qp.x - 1) < 1e-6)
    assert set(m.support_) <= set(active)


def test_hard_margin_not_separable_raises():
    X, y = load_xor(return_X_y=True)
    with pytest.raises(ValueError, match="not linearly separable in the kernel's feature space"):
        SVC(kernel="linear", C=np.inf).fit(X, y)
    m = SVC(kernel="poly", degree=2, gamma=1.0, C=np.inf).fit(X, y)  # x1·x2 separates XOR
    assert m.score(X, y) == 1.0


def test_slack_and_margin_from_the_decision_function():
    X, y = _cancer()
    m = SVC(kernel="linear", C=0.05).fit(X, y)
    s = 2.0 * y - 1
    xi = np.maximum(0.0, 1.0 - s * m.decision_function(X))
    # from the solver's gradient vs from the kernel rows: both O(ε·Σ|αK|), Σα|K| <= 200·0.05·
    # max‖x‖² ≈ 2e4 here
    np.testing.assert_allclose(m.slack_, xi, atol=1e4 * EPS * 2e4)
    np.testing.assert_allclose(m.margin_width_[0], 2 / np.linalg.norm(m.coef_), rtol=1e-10)
    # KKT at tol: α = 0 → y f >= 1 − tol, α = C → y f <= 1 + tol
    a = np.zeros(len(y))
    a[m.support_] = np.abs(m.dual_coef_[0])
    yf = s * m.decision_function(X)
    assert np.all(yf[a == 0] >= 1 - m.tol) and np.all(yf[np.isclose(a, 0.05)] <= 1 + m.tol)


def test_multiclass_slack_is_nan_outside_the_pair():
    X, y = load_iris(return_X_y=True)
    m = SVC(kernel="rbf").fit(X, y)
    assert m.slack_.shape == (150, 3) and m.margin_width_.shape == (3,)
    assert np.all(np.isnan(m.slack_[y == 2, 0])) and np.all(np.isfinite(m.slack_[y < 2, 0]))


def test_shrinking_and_cache_do_not_change_the_solution():
    X, y = _cancer()
    ref = SVC(tol=1e-8).fit(X, y).decision_function(X)
    for kw in ({"shrinking": False}, {"cache_size": 0.01}):
        f = SVC(tol=1e-8, **kw).fit(X, y).decision_function(X)
        np.testing.assert_allclose(f, ref, atol=1e-4)  # Δw <= 2√(2·1e-8·200), √K = 1


def test_precomputed_and_callable_equal_the_kernel():
    X, y = load_iris(return_X_y=True)
    train, test = np.arange(150) % 3 > 0, np.arange(150) % 3 == 0
    # The solver's own RBF rows and the BLAS Gram differ in the last bits, so ties in the
    # working-set choice may part the runs: each is within √(2·tol·ΣC) of w* per pair
    # (ΣC <= 100), so decision values agree to 2·2√(2·1e-10·100) + tol = 5.7e-4 (√K = 1).
    tol = 1e-10
    ref = SVC(kernel="rbf", gamma=0.5, tol=tol).fit(X[train], y[train])
    G = rbf_kernel(X[train], gamma=0.5)
    pre = SVC(kernel="precomputed", tol=tol).fit(G, y[train])
    fun = SVC(kernel=lambda A, B: rbf_kernel(A, B, gamma=0.5), tol=tol).fit(X[train], y[train])
    f_ref = ref.decision_function(X[test])
    for m, Xt in ((pre, rbf_kernel(X[test], X[train], gamma=0.5)), (fun, X[test])):
        np.testing.assert_array_equal(m.support_, ref.support_)
        np.testing.assert_allclose(m.decision_function(Xt), f_ref, atol=5.7e-4)
    assert pre.support_vectors_.shape == (0, 0)
    with pytest.raises(ValueError, match=r"\(m, n_train\) Gram matrix .* 100 training"):
        pre.predict(rbf_kernel(X[test], X[test], gamma=0.5))
    with pytest.raises(ValueError, match="square"):
        SVC(kernel="precomputed").fit(X, y)


def test_max_iter_warns_and_records():
    X, y = _cancer()
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        m = SVC(max_iter=5).fit(X, y)
    assert m.stop_reason_ == "max_iter" and m.fit_status_ == 1 and m.n_iter_[0] == 5
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = SVC().fit(X, y)
    h = m.history_
    assert m.stop_reason_ == "converged" and set(h) == {"objective", "kkt_violation"}
    assert h["kkt_violation"][-1] <= m.tol < h["kkt_violation"][0]
    assert np.all(np.diff(h["objective"]) <= 0)  # SMO decreases the dual objective


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_probability_platt_and_coupling():
    X, y = load_iris(return_X_y=True)
    m = SVC(probability=True, random_state=0).fit(X, y)
    P = m.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(m.predict_log_proba(X), np.log(P))
    # the composition the docstring states, rebuilt here from the fitted A, B
    F = m.set_params(decision_function_shape="ovo").decision_function(X)
    R = np.clip(platt_proba(F, m.probA_, m.probB_), 1e-7, 1 - 1e-7)
    r = np.zeros((150, 3, 3))
    for p, (a, b) in enumerate([(0, 1), (0, 2), (1, 2)]):
        r[:, a, b], r[:, b, a] = R[:, p], 1 - R[:, p]
    np.testing.assert_allclose(P, couple_pairwise(r), atol=1e-12)
    assert np.all(m.probA_ < 0)  # a larger decision value means a likelier first class
    assert np.mean(P.argmax(axis=1) == y) > 0.9
    again = SVC(probability=True, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.probA_, m.probA_)  # the folds come from random_state
    assert not hasattr(SVC().fit(X, y), "predict_proba")


@pytest.mark.parametrize(
    "params, match",
    [
        ({"gamma": 0.0}, "gamma"),
        ({"gamma": -1.0}, "gamma"),
        ({"C": 0.0}, "'C' parameter"),
        ({"kernel": "cubic"}, "kernel"),
    ],
)
def test_bad_parameters(params, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(InvalidParameterError, match=match):
        SVC(**params).fit(X, y)


def test_one_class_and_zero_weight_class():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="only one class"):
        SVC().fit(X[:50], y[:50])
    with pytest.raises(ValueError, match="class 2 has no sample with a positive weight"):
        SVC().fit(X, y, sample_weight=(y < 2).astype(float))


def test_non_psd_callable_is_solved_like_libsvm():
    # K(x, z) = −x·z is negative semi-definite: SMO's τ rule keeps every step bounded, the run
    # ends (converged or at a vertex) and the fitted model predicts both classes' labels.
    X, y = _cancer(100)
    m = SVC(kernel=lambda A, B: -(A @ B.T), max_iter=10_000).fit(X, y)
    assert set(np.unique(m.predict(X))) <= {0, 1}
    assert np.isnan(m.margin_width_[0]) or m.margin_width_[0] > 0


def test_integer_weights_equal_repeated_rows():
    # Same primal problem, so the same w*; each run is within √(2·tol·ΣC) of it (ΣC = 300 with
    # weights 1–3 on 150 rows): decision values agree to 2·2√(2·1e-10·300) + tol = 1e-3 (√K = 1).
    X, y = load_iris(return_X_y=True)
    w = 1 + np.arange(150) % 3
    a = SVC(tol=1e-10).fit(X, y, sample_weight=w)
    b = SVC(tol=1e-10).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=1e-3)
