"""SVR against scikit-learn's SVR (LIBSVM) on the diabetes data, every kernel, and its own API.

Tolerances (both solvers at tol = 1e-8; the derivation of tests/svm/test_svm_smo.py)
-------------------------------------------------------------------------------
The ε-SVR dual has l = 2n variables (α, α*) and f = ½βᵀKβ + εΣ(α + α*) − yᵀβ with β = α − α*,
w = Σ β_i φ(x_i). For any feasible point with maximal KKT violation v = m − M, gap = f − f* <=
v·‖d‖₁ <= v·2·Σ|β| (at both solutions α_i α*_i = 0, so Σ(α + α*) = Σ|β|; we take twice the
larger of the two runs' Σ|β| for the sum over both). v is recomputed here for *both* solutions
from K in float64 (so LIBSVM's float32 kernel cache, |K̃ − K| <= 2⁻²⁴|K|, enters through its
measured violation on the true K rather than through a worst case); the recomputation's own
rounding, n·ε·Σ|β|·max|K|, is added. Then ‖w − w*‖ <= √(2·gap) per solver, and with
κ = max_t √K_tt:

* predictions differ by at most (Δw₁ + Δw₂)·2κ + v₁ + v₂ (the w·φ term, and ρ: a mean of
  free y_t G_t that spread over at most v around a value within Δw·κ of ρ*);
* the intercepts by (Δw₁ + Δw₂)·κ + v₁ + v₂; the linear kernel's coef_ by Δw₁ + Δw₂ (it is w);
* for RBF on distinct rows K is positive definite, so ‖Δβ‖₂ <= ‖Δw‖/√λ_min(K): dual_coef_ within
  that, and a row can be a support vector of one solution but not the other only if its |β|
  is below that bound;
* the dual objectives by gap₁ + gap₂.

The sigmoid kernel is not PSD: the inequalities above need convexity, and both solvers only reach
a KKT point. On diabetes they reach the same one (the same working sets from the same start),
and the same bounds are asserted as a check that this stays so.
"""

import numpy as np
import pytest
from sklearn import svm as sk_svm
from sklearn.datasets import load_diabetes

from scratchlearn.exceptions import ConvergenceWarning
from scratchlearn.svm._svr import SVR

TOL = 1e-8


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), (y - y.mean()) / y.std()


def _gram(sk, A, B):
    g, c0, deg = sk._gamma, sk.coef0, sk.degree
    dot = A @ B.T
    if sk.kernel == "linear":
        return dot
    if sk.kernel == "poly":
        return (g * dot + c0) ** deg
    if sk.kernel == "sigmoid":
        return np.tanh(g * dot + c0)
    sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * dot
    return np.exp(-g * np.maximum(sq, 0))


def _violation(beta, K, y, eps, C):
    """m − M of the 2n-variable dual at α = β⁺, α* = β⁻, with the gradient from K."""
    a, a_star, Kb = np.maximum(beta, 0), np.maximum(-beta, 0), K @ beta
    G = np.r_[Kb + eps - y, -Kb + eps + y]
    sign, alpha = np.r_[np.ones_like(y), -np.ones_like(y)], np.r_[a, a_star]
    v = -sign * G
    up = ((sign > 0) & (alpha < C)) | ((sign < 0) & (alpha > 0))
    low = ((sign > 0) & (alpha > 0)) | ((sign < 0) & (alpha < C))
    return max(v[up].max() - v[low].min(), 0.0)


def _beta(model, n):
    b = np.zeros(n)
    b[model.support_] = model.dual_coef_[0]
    return b


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
def test_svr_matches_libsvm_on_diabetes(diabetes, kernel):
    X, y = diabetes
    n = len(y)
    ours = SVR(kernel=kernel, tol=TOL).fit(X, y)
    sk = sk_svm.SVR(kernel=kernel, tol=TOL).fit(X, y)
    K = _gram(sk, X, X)
    kappa = np.sqrt(np.max(np.abs(np.diag(K))))
    b1, b2 = _beta(ours, n), _beta(sk, n)
    S = max(np.abs(b1).sum(), np.abs(b2).sum())
    rounding = n * np.finfo(float).eps * S * np.max(np.abs(K))
    v1 = _violation(b1, K, y, 0.1, 1.0) + rounding
    v2 = _violation(b2, K, y, 0.1, 1.0) + rounding
    gap1, gap2 = v1 * 2 * S, v2 * 2 * S
    dw = np.sqrt(2 * gap1) + np.sqrt(2 * gap2)
    assert ours.stop_reason_ == "converged" and ours.fit_status_ == 0
    assert np.max(np.abs(ours.predict(X) - sk.predict(X))) <= dw * 2 * kappa + v1 + v2
    assert abs(ours.intercept_[0] - sk.intercept_[0]) <= dw * kappa + v1 + v2

    def f(b):
        return 0.5 * b @ K @ b + 0.1 * np.abs(b).sum() - y @ b

    assert abs(f(b1) - f(b2)) <= gap1 + gap2
    assert ours.dual_objective_ == pytest.approx(f(b1), abs=1e-9 * abs(f(b1)))
    if kernel == "linear":
        assert np.max(np.abs(ours.coef_ - sk.coef_)) <= dw
    if kernel == "rbf":
        lam = np.linalg.eigvalsh(K)[0]
        assert lam > 0
        db = dw / np.sqrt(lam)
        assert np.linalg.norm(b1 - b2) <= db
        differ = np.setxor1d(ours.support_, sk.support_)
        assert np.all(np.abs(b1[differ] - b2[differ]) <= db)


def test_svr_attributes_and_weights(diabetes):
    X, y = diabetes
    m = SVR(kernel="linear", C=0.5, epsilon=0.2).fit(X, y)
    assert m.dual_coef_.shape == (1, m.support_.size) == (1, m.n_support_[0])
    assert np.all(np.abs(m.dual_coef_) <= 0.5)  # |α − α*| <= C
    np.testing.assert_array_equal(m.support_vectors_, X[m.support_])
    assert m.history_["objective"][-1] == pytest.approx(m.dual_objective_)
    assert m.history_["kkt_violation"][-1] <= 1e-3
    # the tube: rows strictly inside |y − f| < ε have β = 0 (KKT), up to the stop's tol
    r = np.abs(y - m.predict(X))
    inside = r < 0.2 - 1e-3
    assert not np.any(np.isin(np.flatnonzero(inside), m.support_))
    # sample_weight scales C: weights of 2 at C = 0.25 are C = 0.5 (the same dual, the same run)
    w = SVR(kernel="linear", C=0.25, epsilon=0.2).fit(X, y, sample_weight=np.full(len(y), 2.0))
    np.testing.assert_array_equal(w.dual_coef_, m.dual_coef_)
    # zero weights take rows out of the problem
    sw = np.ones(len(y))
    sw[:100] = 0
    z = SVR(kernel="linear", C=0.5, epsilon=0.2).fit(X, y, sample_weight=sw)
    ref = SVR(kernel="linear", C=0.5, epsilon=0.2).fit(X[100:], y[100:])
    np.testing.assert_array_equal(z.support_, ref.support_ + 100)


def test_svr_precomputed_and_callable(diabetes):
    X, y = diabetes
    Xtr, Xte, ytr = X[:300], X[300:], y[:300]
    m = SVR(kernel="linear", tol=TOL).fit(Xtr, ytr)
    p = SVR(kernel="precomputed", tol=TOL).fit(Xtr @ Xtr.T, ytr)
    c = SVR(kernel=lambda A, B: A @ B.T, tol=TOL).fit(Xtr, ytr)
    # three solves of one problem (the Grams differ by the rounding of their products only);
    # each w within √(2·gap) of w*, gap <= tol·2Σ|β| (module docstring); at a test row x the
    # outputs differ by Δw·(‖x‖ + κ) + tol
    S = max(np.abs(r.dual_coef_).sum() for r in (m, p, c))
    dw = 2 * np.sqrt(2 * TOL * 2 * S)
    bound = dw * (np.linalg.norm(Xte, axis=1) + np.linalg.norm(Xtr, axis=1).max()) + TOL
    assert np.all(np.abs(p.predict(Xte @ Xtr.T) - m.predict(Xte)) <= bound)
    assert np.all(np.abs(c.predict(Xte) - m.predict(Xte)) <= bound)
    with pytest.raises(ValueError, match="Gram matrix"):
        p.predict(Xte @ Xtr[:10].T)
    with pytest.raises(ValueError, match="square"):
        SVR(kernel="precomputed").fit(Xtr, ytr)


def test_svr_max_iter_warns(diabetes):
    X, y = diabetes
    with pytest.warns(ConvergenceWarning):
        m = SVR(max_iter=5).fit(X, y)
    assert m.n_iter_ == 5 and m.stop_reason_ == "max_iter" and m.fit_status_ == 1
