"""Error bounds of the GLM solvers' stopping rule, for the GLM tests.

Every GLM solver stops when ‖∇L(β)‖∞ ≤ tol, and its history records the final ‖∇L‖∞ = g. Where
L is λ-strongly convex around its minimiser β* (λ = λ_min of the Hessian ∇²L),
‖∇L(β)‖₂ ≥ λ‖β − β*‖₂, so ‖β − β*‖₂ ≤ ‖∇L(β)‖₂/λ ≤ √p·g/λ. Two fits a and b of the same L
then agree to ‖β_a − β_b‖₂ ≤ √p·(g_a + g_b)/λ. λ is taken at the fitted β (the Hessian changes
by O(‖β − β*‖) between there and β*, negligible at these errors).
"""

import numpy as np

from scratchlearn.linear_model._glm_solvers import glm_objective

EPS = np.finfo(float).eps


def hessian(m, X, y, s=None):
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
    return H


def hessian_lambda_min(m, X, y, s=None):
    """λ_min(∇²L) at the fitted coefficients of GLM ``m`` (see ``hessian``)."""
    return float(np.linalg.eigvalsh(hessian(m, X, y, s))[0])


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


def gradient_with_rounding(m, X, y, s, beta):
    """(∇L(β), δg): the gradient on ``m``'s objective and a bound on its rounding. ∇L =
    −X̃ᵀr/S + penalty⊙β with rᵢ = sᵢ(yᵢ − μᵢ)/(V(μᵢ)g′(μᵢ)): each rᵢ rounds by a few ε of
    sᵢ(|yᵢ| + |μᵢ|)/|V g′| (μ = g⁻¹(η) carries (p + 4)ε|η|·|dμ/dη| more), the sum by nε."""
    family, link = m._family_link()
    y = np.asarray(y, dtype=float)
    s = np.ones(len(y)) if s is None else np.asarray(s, dtype=float)
    Xt = np.hstack([X, np.ones((len(y), 1))]) if m.fit_intercept else X
    pen = np.full(Xt.shape[1], float(m.alpha))
    if m.fit_intercept:
        pen[-1] = 0.0
    g = glm_objective(np.asarray(beta), Xt, y, s, family, link, pen)[1]
    eta = Xt @ beta
    mu = link.inverse(eta)
    vg = np.abs(family.variance(mu) * link.deriv(mu))
    d_mu = (Xt.shape[1] + 4) * np.abs(Xt) @ np.abs(beta) / np.abs(link.deriv(mu))
    parts = s * (np.abs(y) + np.abs(mu) + d_mu) / vg
    n = len(y)
    return g, (n + 8) * EPS * (np.abs(Xt).T @ parts) / s.sum() + 2 * EPS * pen * np.abs(beta)


def assert_same_optimum_scaled(a, X, y, s, beta_b, tol=1e-12):
    """Two points of one objective L (``a``'s fit and ``beta_b``), compared in the scaled
    coordinates u = Dβ, D = diag(√Hⱼⱼ) (H = ∇²L at a's fit): there ∇²L = D⁻¹HD⁻¹ with unit
    diagonal, so its λ_min, μ̃, is not dragged down by the columns' units as λ_min(H) is (1e-6
    on star98's raw covariates). Strong convexity in u gives
    ‖D(β − β*)‖₂ <= (‖D⁻¹∇L(β)‖₂ + ‖D⁻¹δg‖₂)/μ̃ for each point (actual 2-norms, with their
    rounding δg, instead of √p·‖∇L‖∞), so ‖D(β_a − β_b)‖₂ <= the sum of the two. H moves by a
    relative O(‖x̃ᵢ‖|Δβ|) between the points (< 1e-6 here), negligible against these bounds.
    Asserts that, and that a's gradient, recomputed here, meets a's stop rule |∂ⱼL| <= tol up
    to its rounding δgⱼ (a fit that "stalled" did so at that floor): what makes a wrong fit
    fail. Returns (the bound, D, μ̃), from which |Δβⱼ| <= bound/Dⱼ."""
    H = hessian(a, X, y, s)
    D = np.sqrt(np.diag(H))
    mu = np.linalg.eigvalsh(H / np.outer(D, D))[0]
    beta_a = np.append(a.coef_, a.intercept_) if a.fit_intercept else a.coef_
    bound = 0.0
    for beta in (beta_a, np.asarray(beta_b, dtype=float)):
        g, dg = gradient_with_rounding(a, X, y, s, beta)
        if beta is beta_a:
            assert np.all(np.abs(g) <= tol + dg)
        bound += (np.linalg.norm(g / D) + np.linalg.norm(dg / D)) / mu
    assert np.linalg.norm(D * (beta_a - beta_b)) <= bound
    return bound, D, mu


def stop_rule_bound(m, X, y, s=None):
    """Per-coordinate bound G on |∂ⱼL(β)| that ``m``'s stop reason guarantees at its β.

    "grad_norm": IRLS, L-BFGS and Newton stop at ‖∇L‖∞ ≤ tol, so Gⱼ = tol. Gradient descent
    stops at ‖∇J(θ)‖₂ ≤ tol in the standardised θ = Aβ (θ_w = σw, θ_b = b + mᵀw), and
    ∇L = Aᵀ∇J: ∂L/∂wⱼ = σⱼ∂J/∂θⱼ + mⱼ∂J/∂θ_b, ∂L/∂b = ∂J/∂θ_b, so by Cauchy–Schwarz
    Gⱼ = √(σⱼ² + mⱼ²)·tol and G_b = tol. "stalled" (L-BFGS): a steepest-descent line search
    found no decrease, while along −g the decrease available is ‖g‖²/(2q) with
    q = gᵀHg/‖g‖² (H = ∇²L); that is below the rounding 2ν of the two compared values of L,
    ν = 64ε(|L| + Σsᵢ|kᵢ|/(2S) + |Σsᵢcᵢ|/(2S)) (kernel k, constant c of the deviance), so
    every Gⱼ = ‖g‖₂ ≤ √(4qν), with q from the gradient recomputed here."""
    y = np.asarray(y, dtype=float)
    s = np.ones(len(y)) if s is None else np.asarray(s, dtype=float)
    p = len(m.coef_) + int(m.fit_intercept)
    beta = np.append(m.coef_, m.intercept_) if m.fit_intercept else m.coef_
    if m.stop_reason_ == "grad_norm" and m.solver != "gd":
        return np.full(p, float(m.tol))
    if m.stop_reason_ == "grad_norm":  # gd, tol on the standardised gradient's 2-norm
        from scratchlearn.linear_model._glm_gd import standardised_problem

        pen = np.zeros(p)
        _, _, mean, sigma = standardised_problem(X, s, m.fit_intercept, pen)
        return np.append(np.hypot(sigma, mean), 1.0)[:p] * m.tol
    assert m.stop_reason_ == "stalled" and m.solver == "lbfgs"
    g = gradient_with_rounding(m, X, y, s, beta)[0]
    q = g @ hessian(m, X, y, s) @ g / (g @ g)
    return np.full(p, np.sqrt(4 * q * objective_rounding(m, X, y, s)))


def objective_rounding(m, X, y, s=None, L=None):
    """ν = 64ε(|L| + Σsᵢ|kᵢ|/(2S) + |Σsᵢcᵢ|/(2S)): the rounding of L = D/(2S) + penalty summed
    as Σsᵢ kernel(yᵢ, μᵢ) + Σsᵢc(yᵢ), the allowance the solvers give it (L: the fit's last
    recorded objective unless given)."""
    family, _ = m._family_link()
    y = np.asarray(y, dtype=float)
    s = np.ones(len(y)) if s is None else np.asarray(s, dtype=float)
    kernel, c = family.deviance_split(y)
    L = m.history_["objective"][-1] if L is None else L
    scale = (np.sum(s * np.abs(kernel(y, m.predict(X)))) + abs(np.sum(s * c))) / (2 * s.sum())
    return 64 * EPS * (abs(L) + scale)
