"""The error bound of two fits of one GLM objective L that both met the stopping rule.

IRLS and L-BFGS stop when ‖∇L(β)‖∞ ≤ tol. Where L is λ-strongly convex around its minimiser β*
(λ = λ_min of the Hessian ∇²L there), ‖∇L(β)‖₂ ≥ λ‖β − β*‖₂, so each fit is within
√p·‖∇L(β)‖∞/λ of β* and two fits a, b agree to

    ‖β_a − β_b‖₂ ≤ √p·(‖∇L(β_a)‖∞ + ‖∇L(β_b)‖∞)/λ.

Both gradients are recomputed here in memory (not read from the fits' records), so a Dask fit
that summed its blocks wrongly converges to another point, whose gradient on the true L is
large, and fails the bound.
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
