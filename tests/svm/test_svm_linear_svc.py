"""LinearSVC and its dual coordinate-descent solver against scikit-learn's liblinear.

Tolerances come from the duality gap, which bounds the distance to the optimum. For one binary
problem (see ``scratchlearn.svm._liblinear``) with primal P(w̃) and dual f(α):

1. P is 1-strongly convex, so for any w̃: ½‖w̃ − w̃*‖² ≤ P(w̃) − P*; and for any feasible α,
   with w = Σαᵢyᵢxᵢ: ½‖w(α) − w̃*‖² ≤ f(α) − f* (f − f* = ∇f(α*)ᵀδ + ½δᵀQ̄δ ≥ ½δᵀQδ).
2. Weak duality P* = −f* ≤ P(w̃_ref) and f* ≥ −P(w̃_ref), so both right-hand sides are bounded by
   computable gaps: r_sk² = 2(P(w̃_sk) + f(α_ref)) and r_ours² = 2(f(α_ours) + P(w̃_ref)).
   Hence ‖w̃_ours − w̃_sk‖ ≤ r_ours + r_sk is a theorem, and |Δ(x̃ᵀw̃)| ≤ (r_ours + r_sk)·max‖x̃‖.
3. Those gaps are small because both solvers stop on the same rule: the duality gap at α equals
   Σᵢ αᵢGᵢ + Cᵢ max(0, −Gᵢ) (hinge) ≤ Σ Cᵢ|PGᵢ|, or Σᵢ Cᵢ(…)² ≤ Σ CᵢPGᵢ² (squared hinge), so
   a solver ending with ‖PG‖∞ ≤ κ·tol is within g = κ·tol·ΣCᵢ (hinge) or κ²tol²ΣCᵢ (squared
   hinge) of the optimum. liblinear's rule bounds the range of PG met during the last pass, not
   the exact PG at the end: we measured ‖PG‖∞ up to 10.3·tol on these data, and take κ = 10
   for the band (the measured gaps sit 60 to 2000 times below g with κ = 1). A solver solving
   another problem (other weights, another intercept) would be O(1) away and fail this check.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC as SkLinearSVC

from scratchlearn.datasets import load_sms_spam
from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.feature_extraction.text import CountVectorizer
from scratchlearn.svm._liblinear import _box, dual_cd, dual_objective, projected_gradient
from scratchlearn.svm._linear import LinearSVC

TOL = 1e-4
KAPPA = 10.0  # the stopping band ‖PG‖∞ ≤ κ·tol (module docstring, point 3)


def _breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def _iris():
    X, y = load_iris(return_X_y=True)
    return StandardScaler().fit_transform(X), y


_SMS = {}


def _sms():
    if not _SMS:
        b = load_sms_spam()
        _SMS["Xy"] = (CountVectorizer().fit_transform(b.data).tocsr(), np.asarray(b.target))
    return _SMS["Xy"]


def _augment(X, B):
    """X̃ = [X, B] (B = 0: X itself)."""
    if B == 0.0:
        return X
    col = np.full((X.shape[0], 1), B)
    return sp.hstack([X, col]).tocsr() if sp.issparse(X) else np.hstack([X, col])


def _primal(Xa, y, C, w, loss):
    """P(w̃) = ½‖w̃‖² + Σ Cᵢ ℓ(1 − yᵢ w̃ᵀx̃ᵢ)."""
    xi = np.maximum(0.0, 1.0 - y * np.asarray(Xa @ w).ravel())
    return 0.5 * (w @ w) + C @ (xi if loss == "hinge" else xi**2)


def _problems(y, classes, C, s, cw):
    """(row, ±1 labels, Cᵢ) of each binary problem, liblinear's weighting (see _linear.py)."""
    K = len(classes)
    for row, k in enumerate([1] if K == 2 else range(K)):
        pos = y == classes[k]
        rest = cw[0] if K == 2 else 1.0
        yield row, np.where(pos, 1.0, -1.0), C * s * np.where(pos, cw[k], rest)


CASES = [
    # (data, loss, params, sample weights?)
    ("breast_cancer", "squared_hinge", {}, False),
    ("breast_cancer", "hinge", {"fit_intercept": False, "class_weight": {0: 2.0}}, False),
    ("breast_cancer", "squared_hinge", {"intercept_scaling": 3.0, "class_weight": {1: 0.5}}, True),
    ("iris", "hinge", {"class_weight": {2: 3.0}}, False),
    ("iris", "squared_hinge", {"fit_intercept": False}, True),
    ("sms", "squared_hinge", {}, False),
    ("sms", "hinge", {"fit_intercept": False}, False),
]


@pytest.mark.parametrize("data, loss, params, weighted", CASES)
def test_matches_sklearn_within_the_duality_gap(data, loss, params, weighted):
    X, y = {"breast_cancer": _breast_cancer, "iris": _iris, "sms": _sms}[data]()
    C = 0.1
    s = np.random.default_rng(0).uniform(0.5, 2.0, len(y)) if weighted else np.ones(len(y))
    sw = s if weighted else None
    ours = LinearSVC(loss=loss, C=C, tol=TOL, random_state=0, **params).fit(X, y, sw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = SkLinearSVC(loss=loss, C=C, tol=TOL, dual=True, random_state=0, **params)
        sk.fit(X, y, sample_weight=sw)
    assert ours.stop_reason_ == "converged"
    classes = ours.classes_
    cw = np.array([params.get("class_weight", {}).get(c, 1.0) for c in classes])
    fit_b = params.get("fit_intercept", True)
    B = params.get("intercept_scaling", 1.0) if fit_b else 0.0
    Xa = _augment(X, B)
    x_norm = np.sqrt(np.asarray(Xa.multiply(Xa).sum(1)) if sp.issparse(Xa) else (Xa**2).sum(1))
    sk_b = np.broadcast_to(sk.intercept_, (len(ours.intercept_),))
    for row, y_pm, C_i in _problems(y, classes, C, s, cw):
        ref = dual_cd(X, y_pm, C_i, loss=loss, tol=1e-9, max_iter=100_000, random_state=1, bias=B)
        run = dual_cd(X, y_pm, C_i, loss=loss, tol=TOL, random_state=0, bias=B)
        _, D = _box(C_i, loss)
        PG_ref = projected_gradient(X, y_pm, C_i, ref.w, ref.alpha, loss=loss, bias=B)
        assert ref.status == "converged" and np.abs(PG_ref).max() <= 1e-8  # measured ≤ 1.0e-9
        f_ref = dual_objective(ref.w, ref.alpha, D)
        P_ref = _primal(Xa, y_pm, C_i, ref.w, loss)

        w_ours = np.r_[ours.coef_[row], ours.intercept_[row] / B] if B else ours.coef_[row]
        w_sk = np.r_[sk.coef_[row], sk_b[row] / B] if B else sk.coef_[row]
        # our estimator's problem k ran on a generator already advanced by problems < k, so its
        # gap is bounded through the one-problem run with the same rule (point 2 for both)
        gap_ours = dual_objective(run.w, run.alpha, D) + P_ref
        gap_est = _primal(Xa, y_pm, C_i, w_ours, loss) + f_ref
        gap_sk = _primal(Xa, y_pm, C_i, w_sk, loss) + f_ref
        band = KAPPA * TOL * C_i.sum() if loss == "hinge" else (KAPPA * TOL) ** 2 * C_i.sum()
        assert -1e-9 <= gap_sk <= band  # scikit-learn solved this very problem, to its tol
        assert -1e-9 <= gap_ours <= band  # and so did we (the dual objective of point 3)
        assert -1e-9 <= gap_est <= band  # and the estimator's (primal) solution
        r = np.sqrt(2 * max(gap_est, 0.0)) + np.sqrt(2 * max(gap_sk, 0.0))
        assert np.linalg.norm(w_ours - w_sk) <= r
        assert np.linalg.norm(run.w - ref.w) <= np.sqrt(2 * max(gap_ours, 0.0)) + 1e-12
        Z_ours = np.atleast_2d(ours.decision_function(X).T).T[:, row]
        Z_sk = np.atleast_2d(sk.decision_function(X).T).T[:, row]
        assert np.abs(Z_ours - Z_sk).max() <= r * x_norm.max()
    assert np.mean(ours.predict(X) == sk.predict(X)) >= 0.99


def test_sparse_and_dense_give_the_same_iterates():
    # the kernel reads a CSR row by its stored entries and a dense row entirely, both in the same
    # four interleaved partial sums; standardised iris has no zero, so each CSR row stores all d
    # entries, the same products are added in the same order, and the runs agree bit for bit
    X, y = _iris()
    dense = LinearSVC(random_state=3).fit(X, y)
    for fmt in (sp.csr_matrix, sp.csc_matrix):
        est = LinearSVC(random_state=3).fit(fmt(X), y)
        np.testing.assert_array_equal(est.coef_, dense.coef_)
        np.testing.assert_array_equal(est.intercept_, dense.intercept_)


def test_fit_record_and_convergence_warning():
    X, y = _breast_cancer()
    X0, y0 = X.copy(), y.copy()
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        est = LinearSVC(C=0.1, max_iter=3, random_state=0).fit(X, y)
    assert est.n_iter_ == 3 and est.stop_reason_ == "max_iter"
    np.testing.assert_array_equal(X, X0)  # the user's arrays are left alone
    np.testing.assert_array_equal(y, y0)
    est = LinearSVC(C=0.1, random_state=0).fit(X, y)
    f = np.array(est.history_["objective"])
    assert len(f) == len(est.history_["kkt_violation"]) == est.n_iter_
    assert est.history_["kkt_violation"][-1] <= TOL
    # exact coordinate minimisation never raises f; rounding of the recomputed f is ~1e-15·|f|
    assert np.all(np.diff(f) <= 1e-12 * np.abs(f).max())
    iris = LinearSVC(C=0.1, random_state=0).fit(*_iris())
    assert isinstance(iris.history_, list) and len(iris.history_) == 3
    assert iris.coef_.shape == (3, 4) and est.coef_.shape == (1, 30)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"penalty": "l1"}, "penalty='l2' only"),
        ({"dual": False}, "dual solver only"),
        ({"multi_class": "crammer_singer"}, "multi_class='ovr' only"),
        ({"C": -1.0}, "'C' parameter"),
    ],
)
def test_unsupported_options_say_what_is_supported(params, match):
    X, y = _iris()
    with pytest.raises(ValueError, match=match):
        LinearSVC(**params).fit(X, y)


def test_one_class_is_refused():
    X, y = _iris()
    with pytest.raises(ValueError, match="only one class"):
        LinearSVC().fit(X[:40], y[:40])


def test_dual_cd_empty_rows_and_zero_weights():
    # an all-zero row under the hinge has G = −1 whatever w: its αᵢ goes to Cᵢ (f is −αᵢ there);
    # a zero Cᵢ fixes αᵢ = 0 under both losses
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [2.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    C = np.array([1.0, 1.0, 0.5, 0.0])
    for loss in ("hinge", "squared_hinge"):
        r = dual_cd(sp.csr_matrix(X), y, C, loss=loss, tol=1e-10, random_state=0)
        assert r.status == "converged" and r.alpha[3] == 0.0
        np.testing.assert_allclose(r.w, X.T @ (r.alpha * y), atol=1e-12)
        assert np.abs(projected_gradient(X, y, C, r.w, r.alpha, loss=loss)).max() <= 1e-9
    assert dual_cd(X, y, C, loss="hinge", tol=1e-10, random_state=0).alpha[2] == 0.5
