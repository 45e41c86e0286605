"""Data and rounding bounds for the least-squares Dask tests (test_dask_linear.py).

Why a Dask fit may differ from the in-memory one at all: both solve the same equations from the
same statistic, C = ZcᵀWZc (or RᵀR = C), but the rows are summed in another order (per block,
then merged). Each entry of C then carries a rounding error of at most γ·Σᵢ sᵢ|zcᵢⱼ||zcᵢₗ| ≤
γ·σⱼσₗ (Cauchy–Schwarz; σⱼ² = Cⱼⱼ), with γ = n·ε for sums of n terms (Higham, *Accuracy and
Stability of Numerical Algorithms*, §3.1), and γ = n·p·ε for the R factor (Householder QR is
backward stable column by column with a constant of order n·p, Higham Thm 19.4). In the
scale-free coordinates v = σ ⊙ w, the system is G̃v = c̃ with G̃ = D⁻¹(G + αI)D⁻¹, D = diag(σ),
whose entries are perturbed by at most γ (so ‖δG̃‖₂ <= dγ) and those of c̃ = D⁻¹c by γσ_y;
to first order

    ‖δv‖₂ <= (dγ‖v‖₂ + √d γσ_y) / λ_min(G̃),

for each of the two fits, hence twice that between them. The merges add one more term: a
block mean z̄_b carries a rounding error e with |eⱼ| <= n·ε·max|zⱼ|, and the merge adds
(W_aW_b/W)(δⱼeₗ + eⱼδₗ) with |δ| <= 2·max|zc|; every unit of weight is on the lighter side of
at most log₂(n) merges, so relative to σⱼσₗ this is at most 4·log₂(n)·n·ε·κ·ρ, where
κ = maxⱼ max|zⱼ|/σ̂ⱼ (σ̂ⱼ² = Cⱼⱼ/W: the conditioning of a variance, large when the mean is
large beside the spread) and ρ = maxⱼ max|zcⱼ|/σ̂ⱼ. Hence γ = n·ε·(1 + 4·log₂(n)·κ·ρ) (times p
for the R factor). The intercept b = ȳ − x̄ᵀw moves by |x̄ᵀδw| <= ‖x̄ ⊘ σ‖₂‖δv‖₂ plus the
rounding of the means (2nε·Σ|terms|), and a prediction (xᵢ − x̄)ᵀw + ȳ by
‖(xᵢ − x̄) ⊘ σ‖₂‖δv‖₂ plus the same.

That bound on w grows with 1/λ_min, and on an ill-conditioned design it says little. What
stays small whatever the conditioning is the gradient of the objective, the residual of the
normal equations: a w computed from a C perturbed by γ·σσᵀ entrywise satisfies them to
|(D⁻¹(c − (G + αI)w))ⱼ| <= γ(Σₗ|vₗ| + σ_y) <= γ(√d‖v‖₂ + σ_y), and evaluating it in the check
adds n·ε·(√d‖v‖₂ + σ_y) more; a wrong w (beyond rounding) fails it at once.
"""

import numpy as np

EPS = np.finfo(np.float64).eps


def fit_bounds(X, Y, coef, s, *, fit_intercept, alpha=0.0, route="moments"):
    """Per target t: bounds on ‖σ ⊙ (w_a − w_b)‖₂, |b_a − b_b| and max|ŷ_a − ŷ_b| between two
    fits of the same statistic summed in two orders (module docstring), and σ for the check.
    ``coef`` (k, d) is the reference fit's, for the size of v = σ ⊙ w."""
    Y = Y.reshape(len(Y), -1)
    n, d = X.shape
    s = np.ones(n) if s is None else s
    W = s.sum()
    x_bar = s @ X / W if fit_intercept else np.zeros(d)
    y_bar = s @ Y / W if fit_intercept else np.zeros(Y.shape[1])
    Xc, Yc = X - x_bar, Y - y_bar
    G = Xc.T @ (s[:, None] * Xc)  # (d, d)
    sigma = np.sqrt(np.diag(G))  # (d,)
    Z, Zc = np.column_stack([X, Y]), np.column_stack([Xc, Yc])
    sd = np.sqrt(s @ Zc**2 / W)  # σ̂ⱼ, (p,)
    kappa, rho = np.max(np.abs(Z).max(axis=0) / sd), np.max(np.abs(Zc).max(axis=0) / sd)
    gamma = n * EPS * (1 + 4 * np.log2(n) * kappa * rho)
    if route != "moments":
        gamma *= Z.shape[1]
    alphas = np.broadcast_to(alpha, (Y.shape[1],))
    out = []
    for t in range(Y.shape[1]):
        Gt = (G + alphas[t] * np.eye(d)) / np.outer(sigma, sigma)
        lam_min = np.linalg.eigvalsh(Gt)[0]
        w = np.atleast_2d(coef)[t]
        sigma_y = np.sqrt(s @ Yc[:, t] ** 2)
        dv = 2 * (d * gamma * np.linalg.norm(sigma * w) + np.sqrt(d) * gamma * sigma_y) / lam_min
        means = 2 * n * EPS * (s @ np.abs(Y[:, t]) / W + (s @ np.abs(X) / W) @ np.abs(w))
        lever = np.linalg.norm(x_bar / sigma)
        spread = np.max(np.linalg.norm(Xc / sigma, axis=1))
        grad = (gamma + n * EPS) * (np.sqrt(d) * np.linalg.norm(sigma * w) + sigma_y) / sigma_y
        out.append(
            {
                "coef": dv,
                "intercept": lever * dv + means,
                "predict": spread * dv + means,
                "grad": grad,
            }
        )
    return out, sigma


def scaled_gradient(X, Y, coef, s, *, fit_intercept, alpha=0.0):
    """max_j |(D⁻¹(XcᵀW(yc − Xc w) − αw))ⱼ| / σ_y per target: the normal equations' residual,
    scale-free (D = diag(σ), σⱼ² = (XcᵀWXc)ⱼⱼ, σ_y² = Σ sᵢycᵢ²)."""
    Y = Y.reshape(len(Y), -1)
    s = np.ones(len(X)) if s is None else s
    W = s.sum()
    Xc = X - s @ X / W if fit_intercept else X
    Yc = Y - s @ Y / W if fit_intercept else Y
    sigma = np.sqrt(s @ Xc**2)
    alphas = np.broadcast_to(alpha, (Y.shape[1],))
    out = []
    for t, w in enumerate(np.atleast_2d(coef)):
        g = Xc.T @ (s * (Yc[:, t] - Xc @ w)) - alphas[t] * w
        out.append(np.max(np.abs(g / sigma)) / np.sqrt(s @ Yc[:, t] ** 2))
    return out


def assert_same_fit(got, ref, X, Y, s, *, fit_intercept, alpha=0.0, route="moments"):
    """The Dask fit ``got`` equals the in-memory ``ref`` within :func:`fit_bounds`, and solves
    the normal equations to rounding; returns the largest measured/bound ratio per quantity
    and the largest relative differences (for the report)."""
    bounds, sigma = fit_bounds(
        X, Y, ref.coef_, s, fit_intercept=fit_intercept, alpha=alpha, route=route
    )
    W_got, W_ref = np.atleast_2d(got.coef_), np.atleast_2d(ref.coef_)
    b_got, b_ref = np.atleast_1d(got.intercept_), np.atleast_1d(ref.intercept_)
    P_ref = ref.predict(X).reshape(len(X), -1)
    P_got = np.asarray(got.predict(X)).reshape(len(X), -1)
    grads = scaled_gradient(X, Y, got.coef_, s, fit_intercept=fit_intercept, alpha=alpha)
    worst = dict.fromkeys(("coef", "intercept", "predict", "grad"), 0.0)
    rel = {"coef": 0.0, "intercept": 0.0, "predict": 0.0, "grad": max(grads)}
    for t, bound in enumerate(bounds):
        assert grads[t] <= bound["grad"], ("grad", t, grads[t], bound["grad"])
        worst["grad"] = max(worst["grad"], grads[t] / bound["grad"])
        diffs = {
            "coef": np.linalg.norm(sigma * (W_got[t] - W_ref[t])),
            "intercept": abs(b_got[t] - b_ref[t]),
            "predict": np.max(np.abs(P_got[:, t] - P_ref[:, t])),
        }
        scales = {
            "coef": np.linalg.norm(sigma * W_ref[t]),
            "intercept": max(abs(b_ref[t]), 1e-300),
            "predict": np.max(np.abs(P_ref[:, t])),
        }
        for key, diff in diffs.items():
            assert diff <= bound[key], (key, t, diff, bound[key])
            worst[key] = max(worst[key], diff / bound[key])
            rel[key] = max(rel[key], diff / scales[key])
    return worst, rel
