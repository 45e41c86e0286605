"""SVC against scikit-learn's SVC (LIBSVM) on real data, every kernel, binary and multi-class,
class_weight and sample_weight.

Tolerances (the same derivation for every quantity; both solvers run at tol = 1e-8)
-----------------------------------------------------------------------------------
Per pair, let f(α) = ½αᵀQα − eᵀα, α* its minimiser, v_t = −y_t∇f_t, and m − M <= tol the
stopping rule (m the largest v over the variables that may move up, M the smallest over those
that may move down). With d = α* − α, yᵀd = 0 and b = M,
∇f(α)ᵀd = −Σ (v_t − M) y_t d_t >= −(m − M)‖d‖₁, since y_t d_t > 0 only where t may move up
(v_t <= m) and y_t d_t < 0 only where it may move down (v_t − M >= 0). Convexity then gives

    gap = f(α) − f(α*) <= −∇f(α)ᵀd <= tol·‖α − α*‖₁ <= tol·Σ_t C_t.

LIBSVM solves the problem with its kernel cache in float32: a Q̃ with |Q̃ − Q| <= 2⁻²⁴|Q|
entrywise, which adds at most 2⁻²⁴·(Σα)²·max|K| to its gap on the true Q (we use its Σα for
the optimum's, which it matches to the same order). At the optimum ∇f(α*)ᵀ(α − α*) >= 0, so
gap >= ½(α − α*)ᵀQ(α − α*) = ½‖w − w*‖²: each solver's w is within √(2·gap) of w*, and

    |f_ours(x) − f_sk(x)| <= (‖Δw_ours‖ + ‖Δw_sk‖)(√K(x, x) + max_t √K_tt) + tol

(the x-term is w·φ(x); ρ is the mean of v_t over the free t, each within ‖Δw‖√K_tt of its
value at α*, where all equal ρ*; the free ones spread over at most tol). The same Δw bounds coef_
(linear kernel: ‖Δcoef‖ <= ‖Δw_ours‖ + ‖Δw_sk‖) and, where the support vectors' Gram is
positive definite (RBF on distinct points), dual_coef_: ‖Δα‖₂ <= ‖Δw‖/√λ_min(K_SV). The sigmoid
kernel is not PSD, so the convexity steps do not hold for it: its cases here (iris) end with every
α at its bound C, a vertex both solvers reach exactly, and the same bounds are asserted.
"""

import numpy as np
import pytest
from sklearn import svm as sk_svm
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from scratchlearn.svm import SVC

TOL = 1e-8
F32 = 2.0**-24


def _scaled(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _data(name):
    if name == "iris":
        return load_iris(return_X_y=True)
    X, y = (load_breast_cancer if name == "cancer" else load_wine)(return_X_y=True)
    return _scaled(X), y


def _kernel_diag(sk, X):
    """K(x_t, x_t) of every training row under the fitted scikit-learn model's kernel."""
    g, c0, deg = sk._gamma, sk.coef0, sk.degree
    xx = np.einsum("ij,ij->i", X, X)
    return {
        "linear": xx,
        "rbf": np.ones(X.shape[0]),
        "poly": (g * xx + c0) ** deg,
        "sigmoid": np.tanh(g * xx + c0),
    }[sk.kernel]


def _pair_alpha_sums(sk):
    """Σα per pair of scikit-learn's solution, from its dual_coef_ layout."""
    K = len(sk.classes_)
    ends = np.cumsum(sk.n_support_)
    S = [slice(e - m, e) for e, m in zip(ends, sk.n_support_)]
    D = np.abs(sk.dual_coef_)
    return np.array(
        [D[b - 1, S[a]].sum() + D[a, S[b]].sum() for a in range(K) for b in range(a + 1, K)]
    )


def _bounds(sk, X, y, C_i):
    """(Δw, decision bound) per pair, from the module docstring's derivation."""
    diag = _kernel_diag(sk, X)
    kappa = max(float(np.max(np.abs(diag))), 1.0 if sk.kernel == "sigmoid" else 0.0)
    K = len(sk.classes_)
    pairs = [(a, b) for a in range(K) for b in range(a + 1, K)]
    codes = np.searchsorted(sk.classes_, y)
    sum_C = np.array([C_i[(codes == a) | (codes == b)].sum() for a, b in pairs])
    A = _pair_alpha_sums(sk)
    gap_ours = TOL * sum_C
    gap_sk = TOL * sum_C + F32 * A**2 * kappa
    dw = np.sqrt(2 * gap_ours) + np.sqrt(2 * gap_sk)
    root = np.sqrt(np.abs(diag))
    return dw, dw[None, :] * (root[:, None] + root.max()) + TOL


CASES = [
    ("iris", {"kernel": "linear"}, None, None),
    ("iris", {"kernel": "poly", "degree": 2}, None, None),
    ("iris", {"kernel": "rbf", "gamma": "auto", "C": 10.0}, None, None),
    ("iris", {"kernel": "sigmoid"}, None, None),
    ("cancer", {"kernel": "rbf"}, None, None),
    ("cancer", {"kernel": "linear", "C": 0.1, "class_weight": "balanced"}, None, None),
    ("wine", {"kernel": "rbf", "C": 3.0, "class_weight": {0: 2.0, 2: 0.5}}, "weights", None),
    ("wine", {"kernel": "poly", "degree": 3, "coef0": 1.0}, None, "ovo"),
]


@pytest.mark.parametrize("name, params, weights, shape", CASES)
def test_svc_matches_libsvm(name, params, weights, shape):
    X, y = _data(name)
    sw = None
    if weights:
        sw = 0.5 + (np.arange(X.shape[0]) % 4) / 2.0  # 0.5, 1, 1.5, 2 in turn
        sw[::17] = 0.0  # zero weights: the sample leaves the problem (LIBSVM drops it)
    kw = dict(params, tol=TOL, decision_function_shape=shape or "ovr")
    ours = SVC(**kw).fit(X, y, sample_weight=sw)
    sk = sk_svm.SVC(**kw).fit(X, y, sample_weight=sw)

    C_i = ours.C * (np.ones(len(y)) if sw is None else sw)
    C_i = C_i * sk.class_weight_[np.searchsorted(sk.classes_, y)]
    np.testing.assert_allclose(ours.class_weight_, sk.class_weight_, rtol=1e-15)
    dw, bound = _bounds(sk, X, y, C_i)

    # scikit-learn numbers its support_ among the rows left after dropping zero weights;
    # ours indexes the rows of X as given
    kept = np.flatnonzero(np.ones(len(y)) if sw is None else sw > 0)
    np.testing.assert_array_equal(ours.support_, kept[sk.support_])
    np.testing.assert_array_equal(ours.n_support_, sk.n_support_)
    np.testing.assert_array_equal(ours.support_vectors_, sk.support_vectors_)
    assert ours.n_iter_.shape == sk.n_iter_.shape == (len(dw),)

    # the one-vs-one decision values: pair p within bound[:, p]
    F_ours = ours.set_params(decision_function_shape="ovo").decision_function(X)
    F_sk = sk.set_params(decision_function_shape="ovo").decision_function(X)
    F_ours, F_sk = F_ours.reshape(len(y), -1), F_sk.reshape(len(y), -1)
    assert np.all(np.abs(F_ours - F_sk) <= bound)
    # ρ: |Δρ| <= (‖Δw_ours‖ + ‖Δw_sk‖)·max √K_tt + tol (the decision bound without its x-term)
    rho_bound = bound.min(axis=0)
    assert np.all(np.abs(ours.intercept_ - sk.intercept_) <= rho_bound)
    # predictions agree wherever no pair's value is within its bound of 0
    sure = np.all(np.abs(F_sk) > bound, axis=1)
    assert sure.sum() >= 10  # measured: 11 % (iris sigmoid) to 100 % of the rows
    np.testing.assert_array_equal(ours.predict(X)[sure], sk.predict(X)[sure])
    if len(sk.classes_) > 2:  # "ovr": votes plus s/(3(|s| + 1)), s a sum of K − 1 values
        ovr_ours = ours.set_params(decision_function_shape="ovr").decision_function(X)
        ovr_sk = sk.set_params(decision_function_shape="ovr").decision_function(X)
        K = len(sk.classes_)
        assert np.all(
            np.abs(ovr_ours - ovr_sk)[sure] <= (K - 1) * bound.max(axis=1)[sure, None] / 3
        )
    if params["kernel"] == "linear":
        assert np.all(np.linalg.norm(ours.coef_ - sk.coef_, axis=1) <= dw)
    if params["kernel"] == "rbf":
        V = sk.support_vectors_
        Ksv = np.exp(-sk._gamma * ((V[:, None] - V) ** 2).sum(-1))
        lam = np.linalg.eigvalsh(Ksv)[0]
        assert lam > 0
        assert np.linalg.norm(ours.dual_coef_ - sk.dual_coef_) <= dw.sum() / np.sqrt(lam)
