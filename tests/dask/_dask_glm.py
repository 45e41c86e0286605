"""The error bound of two fits of one GLM objective L that both met the stopping rule.

IRLS and L-BFGS stop when ‖∇L(β)‖∞ ≤ tol. Where L is λ-strongly convex around its minimiser β*
(λ = λ_min of the Hessian ∇²L there), ‖∇L(β)‖₂ ≥ λ‖β − β*‖₂, so each fit is within
√p·‖∇L(β)‖∞/λ of β* and two fits a, b agree to

    ‖β_a − β_b‖₂ ≤ √p·(‖∇L(β_a)‖∞ + ‖∇L(β_b)‖∞)/λ.

That bound holds for any two points (a far one has a large gradient), so it is not what makes
a wrong fit fail: :func:`check_stop_rule` is. It recomputes the Dask fit's gradient in memory,
on the whole data, and asks that it meet the stopping rule ‖∇L‖∞ ≤ tol up to the rounding of
that recomputation. A Dask fit that summed its blocks wrongly (a block lost, weights dropped)
stops at the optimum of another objective, where the true gradient is far above tol.
"""

import numpy as np

from scratchlearn.linear_model._glm_solvers import Design, glm_objective


def _penalty(m, p):
    pen = np.full(p, float(m.alpha))
    if m.fit_intercept:
        pen[-1] = 0.0
    return pen


def beta_of(m):
    return np.append(m.coef_, m.intercept_) if m.fit_intercept else m.coef_.copy()


def grad_inf(m, X, y, s, beta):
    """‖∇L(β)‖∞ on m's objective, in memory."""
    family, link = m._family_link()
    Xt = Design(X, m.fit_intercept)
    pen = _penalty(m, Xt.shape[1])
    return float(np.max(np.abs(glm_objective(beta, Xt, y, s, family, link, pen)[1])))


def lambda_min(m, X, y, s):
    """λ_min(∇²L) at m's fit: ∇L = −X̃ᵀr(η)/S + penalty ⊙ β with
    rᵢ(η) = sᵢ(yᵢ − μᵢ)/(V(μᵢ)g′(μᵢ)), so ∇²L = X̃ᵀ diag(−r′(η)) X̃/S + diag(penalty); r′ by
    central differences in each ηᵢ (relative step 1e-5: error ~1e-10 relative)."""
    family, link = m._family_link()
    Xt = np.hstack([X, np.ones((len(y), 1))]) if m.fit_intercept else X
    eta = Xt @ beta_of(m)

    def r(e):
        mu = link.inverse(e)
        return s * (y - mu) / (family.variance(mu) * link.deriv(mu))

    h = 1e-5 * np.maximum(np.abs(eta), 1e-3)
    w = -(r(eta + h) - r(eta - h)) / (2 * h)  # (n,)
    H = (Xt.T * w) @ Xt / s.sum() + np.diag(_penalty(m, Xt.shape[1]))
    return float(np.linalg.eigvalsh(H)[0])


def coef_gap_and_bound(mem, dsk, X, y, s=None):
    """(‖β_mem − β_dask‖₂, √p·(g_mem + g_dask)/λ) with both gradients recomputed in memory."""
    y = np.asarray(y, dtype=float)
    s = np.ones(len(y)) if s is None else np.asarray(s, dtype=float)
    a, b = beta_of(mem), beta_of(dsk)
    g = grad_inf(mem, X, y, s, a) + grad_inf(mem, X, y, s, b)
    return float(np.linalg.norm(a - b)), np.sqrt(len(a)) * g / lambda_min(mem, X, y, s)


def check_stop_rule(mem, dsk, X, y, s=None):
    """‖∇L(β_dask)‖∞ ≤ tol + δ, ∇L on the whole data in memory; δ its rounding: each
    ∂ⱼL = −Σᵢ x̃ᵢⱼrᵢ/S + penalty term sums n terms, each rᵢ rounded by a few ε, so
    |δⱼ| ≤ (n + 8)·ε·Σᵢ|x̃ᵢⱼrᵢ|/S. Returns ‖∇L(β_dask)‖∞/tol."""
    y = np.asarray(y, dtype=float)
    s = np.ones(len(y)) if s is None else np.asarray(s, dtype=float)
    family, link = mem._family_link()
    beta = beta_of(dsk)
    Xt = np.hstack([X, np.ones((len(y), 1))]) if mem.fit_intercept else X
    mu = link.inverse(Xt @ beta)
    r = s * (y - mu) / (family.variance(mu) * link.deriv(mu))
    delta = (len(y) + 8) * np.finfo(float).eps * np.max(np.abs(Xt).T @ np.abs(r)) / s.sum()
    g = grad_inf(mem, X, y, s, beta)
    assert g <= mem.tol + delta
    return g / mem.tol
