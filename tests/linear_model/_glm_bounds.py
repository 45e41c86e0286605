"""Error bounds of the GLM solvers' stopping rule, for the GLM tests.

Every GLM solver stops when ‖∇L(β)‖∞ ≤ tol, and its history records the final ‖∇L‖∞ = g. Where
L is λ-strongly convex around its minimiser β* (λ = λ_min of the Hessian ∇²L),
‖∇L(β)‖₂ ≥ λ‖β − β*‖₂, so ‖β − β*‖₂ ≤ ‖∇L(β)‖₂/λ ≤ √p·g/λ. Two fits a and b of the same L
then agree to ‖β_a − β_b‖₂ ≤ √p·(g_a + g_b)/λ. λ is taken at the fitted β (the Hessian changes
by O(‖β − β*‖) between there and β*, negligible at these errors).
"""

import numpy as np

from scratchlearn.linear_model._glm_solvers import glm_objective


def hessian_lambda_min(m, X, y, s=None):
    """λ_min(∇²L) at the fitted coefficients of GLM ``m``: ∇L = −X̃ᵀr(η)/S + α w with
    rᵢ(η) = sᵢ(yᵢ − μᵢ)/(V(μᵢ)g′(μᵢ)), so ∇²L = X̃ᵀ diag(−r′(η)) X̃/S + diag(penalty); r′ by
    central differences in each ηᵢ alone (relative step 1e-5: error ~1e-10 relative)."""
    family, link = m._family_link()
    y = np.asarray(y, dtype=float)
    s = np.ones(len(y)) if s is None else np.asarray(s, dtype=float)
    Xt = np.hstack([X, np.ones((len(y), 1))]) if m.fit_intercept else X
    beta = np.append(m.coef_, m.intercept_) if m.fit_intercept else m.coef_
    eta = Xt @ beta

    def r(e):
        mu = link.inverse(e)
        return s * (y - mu) / (family.variance(mu) * link.deriv(mu))

    h = 1e-5 * np.maximum(np.abs(eta), 1e-3)
    w = -(r(eta + h) - r(eta - h)) / (2 * h)  # (n,)
    H = (Xt.T * w) @ Xt / s.sum()
    H[np.diag_indices(len(m.coef_))] += m.alpha
    return float(np.linalg.eigvalsh(H)[0])


def final_grad(m):
    """‖∇L‖∞ at the returned coefficients, as the fit recorded it."""
    return m.history_["grad_norm"][-1]


def grad_inf(m, X, y, s=None, beta=None):
    """‖∇L(β)‖∞ for any β (default: the fitted one), e.g. at statsmodels' coefficients."""
    family, link = m._family_link()
    y = np.asarray(y, dtype=float)
    s = np.ones(len(y)) if s is None else np.asarray(s, dtype=float)
    Xt = np.hstack([X, np.ones((len(y), 1))]) if m.fit_intercept else X
    if beta is None:
        beta = np.append(m.coef_, m.intercept_) if m.fit_intercept else m.coef_
    pen = np.full(Xt.shape[1], float(m.alpha))
    if m.fit_intercept:
        pen[-1] = 0.0
    return float(np.max(np.abs(glm_objective(np.asarray(beta), Xt, y, s, family, link, pen)[1])))


def coef_distance_bound(p, g_a, g_b, lam):
    """‖β_a − β_b‖₂ ≤ √p·(g_a + g_b)/λ (module docstring)."""
    return np.sqrt(p) * (g_a + g_b) / lam


def assert_same_optimum(a, b, X, y, s=None):
    """Two fits of the same L: ‖β_a − β_b‖₂ ≤ √p·(g_a + g_b)/λ (λ at a's fit). Returns the
    bound."""
    beta_a = np.append(a.coef_, a.intercept_) if a.fit_intercept else a.coef_
    beta_b = np.append(b.coef_, b.intercept_) if b.fit_intercept else b.coef_
    lam = hessian_lambda_min(a, X, y, s)
    g_b = grad_inf(a, X, y, s, beta=beta_b)  # b's gradient, measured on a's objective
    bound = coef_distance_bound(len(beta_a), grad_inf(a, X, y, s), g_b, lam)
    assert np.linalg.norm(beta_a - beta_b) <= bound
    return bound


def objective_excess(m, X, y, s=None):
    """L(β) − L* ≤ ‖∇L(β)‖₂²/(2λ) ≤ p·g²/(2λ) for λ-strongly convex L."""
    p = len(m.coef_) + int(m.fit_intercept)
    return p * grad_inf(m, X, y, s) ** 2 / (2 * hessian_lambda_min(m, X, y, s))
