"""Error bounds for coordinate-descent fits (Lasso, ElasticNet), for the linear-model tests.

The problem, in the unscaled form both scratchlearn and scikit-learn minimise (×n):
P(w) = ½‖ỹ − X̃w‖² + λ₁‖w‖₁ + ½λ₂‖w‖², X̃, ỹ centred and scaled by √s′ (s′ = s·n/Σs),
λ₁ = nαρ, λ₂ = nα(1 − ρ); the intercept is b = ȳ − x̄ᵀw. With X̂ = [X̃; √λ₂·I], ŷ = [ỹ; 0] it
is a lasso, whose dual is D(θ) = ½‖ŷ‖² − ½‖ŷ − θ‖² on ‖X̂ᵀθ‖∞ <= λ₁ (X̂ᵀθ <= λ₁ with
w >= 0). The residual r̂ = ŷ − X̂w, scaled into the feasible set, θ = c·r̂ with
c = min(1, λ₁/‖X̂ᵀr̂‖∞), gives the duality gap G(w) = P(w) − D(θ) >= P(w) − P*.

These bounds use the gap of each fit *as recomputed here* (in long double, so its rounding is
~nε_ld‖ỹ‖², 1e-7 of the smallest gap met below) rather than the stop tolerance: the check that
a fit is good is then `gap(ours) <= tol·‖ỹ‖²` on the true problem (not on the library's own
arithmetic), and the distance between two fits shrinks to what they actually reached.
"""

import numpy as np

LD = np.longdouble  # 80-bit on x86-64, ε_ld = 1.1e-19
EPS = np.finfo(float).eps
EPS_LD = np.finfo(LD).eps


def centred(X, y, sw=None, fit_intercept=True):
    """(X̃, ỹ, x̄, ȳ) in long double: centred by the s-weighted means and scaled by √s′."""
    n = X.shape[0]
    s = np.ones(n) if sw is None else np.asarray(sw, dtype=float) * n / np.sum(sw)
    Xl, yl, sl = X.astype(LD), np.asarray(y).astype(LD), s.astype(LD)
    xbar = sl @ Xl / n if fit_intercept else np.zeros(X.shape[1], dtype=LD)
    ybar = sl @ yl / n if fit_intercept else LD(0)
    root = np.sqrt(sl)
    return (Xl - xbar) * root[:, None], (yl - ybar) * root, xbar, ybar


def duality_gap(Xt, yt, w, *, lam1, lam2, positive=False):
    """G(w) = P(w) − D(c·r̂) (module docstring), in long double; >= P(w) − P*."""
    w = np.asarray(w).astype(LD)
    r = yt - Xt @ w  # (n,)
    corr = Xt.T @ r - lam2 * w  # X̂ᵀr̂, (d,)
    top = np.max(corr) if positive else np.max(np.abs(corr))
    c = min(LD(1), LD(lam1) / top) if top > 0 else LD(1)
    primal = 0.5 * (r @ r) + lam1 * np.sum(np.abs(w)) + 0.5 * lam2 * (w @ w)
    shifted = yt - c * r  # ŷ − c·r̂ = [ỹ − c·r; c√λ₂·w]
    dual = 0.5 * (yt @ yt) - 0.5 * (shifted @ shifted + c * c * lam2 * (w @ w))
    return float(primal - dual)


def gap_rounding(Xt, yt, *coefs):
    """Bound on the rounding of ``duality_gap`` in long double: r rounds by
    (d + 1)ε_ld(|X̃||w| + |ỹ|) per row, the sums of squares and ‖ỹ‖² − ‖ỹ − c·r‖² by nε_ld
    times their terms: <= 4(n + d)ε_ld‖|X̃||w| + |ỹ|‖², w the entrywise max of ``coefs``."""
    w = np.max(np.abs(np.asarray(coefs)), axis=0).astype(LD)
    mag = np.abs(Xt) @ w + np.abs(yt)
    return 4 * sum(Xt.shape) * EPS_LD * float(mag @ mag)


def support_curvature(Xt, coef, lam2):
    """μ = λ_min(X̃_SᵀX̃_S) + λ₂ on the support S of ``coef``, lowered by the eigensolver's
    backward error |S|²ε·tr (the Gram matrix is formed in long double and cast)."""
    S = np.flatnonzero(coef)
    if S.size == 0:
        return float(lam2)
    G = (Xt[:, S].T @ Xt[:, S]).astype(float)
    lam = np.linalg.eigvalsh(G)[0] - S.size**2 * EPS * np.trace(G)
    return float(lam + lam2)


def close_by_gap(
    ours,
    ref,
    X,
    y,
    *,
    alpha,
    l1_ratio=1.0,
    tol,
    sw=None,
    fit_intercept=True,
    positive=False,
    target=None,
):
    """Asserts that two CD fits of one problem are both optimal to their stop rule and agree.

    - each fit's gap, recomputed here, meets the criterion G <= tol·‖ỹ‖² (+ its rounding);
    - coefficients: P is μ-strongly convex on the common support S (asserted: the same exact
      zeros; the optimum is assumed to share them), and P(w) − P* >= ½(w − w*)ᵀ(X̃ᵀX̃ + λ₂I)(w − w*)
      for any w (P = quadratic + convex, 0 ∈ ∂P(w*)), so ‖w − w*‖₂ <= √(2G(w)/μ) and
      ‖w₁ − w₂‖₂ <= √(2G₁/μ) + √(2G₂/μ);
    - intercepts: both are ȳ − x̄ᵀw, so b₁ − b₂ = −x̄ᵀ(w₁ − w₂) up to the rounding of the two
      weighted means and dot products, <= 2(n + d + 2)ε(mean_s|y| + mean_s|X|ᵀ|w|) each.
    Returns the coefficient bound (the distance it allows)."""
    c1 = ours.coef_ if target is None else ours.coef_[target]
    c2 = ref.coef_ if target is None else ref.coef_[target]
    b1 = ours.intercept_ if target is None else ours.intercept_[target]
    b2 = ref.intercept_ if target is None else ref.intercept_[target]
    n, d = X.shape
    Xt, yt, xbar, _ = centred(X, y, sw, fit_intercept)
    lam1, lam2 = n * alpha * l1_ratio, n * alpha * (1.0 - l1_ratio)
    assert np.array_equal(c1 == 0, c2 == 0)
    yy = float(yt @ yt)
    g_round = gap_rounding(Xt, yt, c1, c2)
    gaps = [duality_gap(Xt, yt, c, lam1=lam1, lam2=lam2, positive=positive) for c in (c1, c2)]
    for g in gaps:
        assert -g_round <= g <= tol * yy + g_round
    # the gap ours reports (G/n) is the true one: float64 rounds G like the above with ε
    reported = ours.dual_gap_ if target is None else ours.dual_gap_[target]
    assert abs(n * reported - gaps[0]) <= g_round * (EPS / EPS_LD)
    mu = support_curvature(Xt, c2, lam2)
    assert mu > 0, "the bound needs P strongly convex on the support"
    dw = sum(np.sqrt(2 * max(g, 0.0) / mu) for g in gaps) + 2 * np.sqrt(2 * g_round / mu)
    assert np.linalg.norm(c1 - c2) <= dw
    s = np.ones(n) if sw is None else np.asarray(sw) / np.mean(sw)
    if fit_intercept:
        scale = (s @ np.abs(y) + s @ np.abs(X) @ np.maximum(np.abs(c1), np.abs(c2))) / n
        b_round = 2 * 2 * (n + d + 2) * EPS * scale + d * EPS * np.abs(xbar) @ np.abs(c1 - c2)
        assert abs((b1 - b2) + float(xbar.astype(float) @ (c1 - c2))) <= b_round
    else:
        assert b1 == b2 == 0.0
    return dw, gaps, mu
