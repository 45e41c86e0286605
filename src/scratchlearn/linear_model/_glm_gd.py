"""Gradient descent for the GLM objective, in the coordinates of the standardised columns.

Symbols
-------
Z, m, σ   standardised columns Z = (X − m)/σ (:func:`._base.standardise`), Z̃ = [Z, 1]
θ         coefficients of Z̃: w = θ_w/σ, b = θ_b − mᵀw
J(θ)      L(β(θ)) = D/(2S) + ½ Σⱼ (α/σⱼ²) θⱼ², the GLM objective in θ
η         step size; Λ = λ_max(Z̃ᵀW₀Z̃/S + diag(α/σ²)) the curvature of J at the start θ₀

``learning_rate="auto"`` runs Nesterov's accelerated gradient (FISTA form) with step η = 1/Λ:

.. math::

    θ_{k+1} = y_k − η∇J(y_k), \\qquad
    t_{k+1} = \\tfrac12\\big(1 + \\sqrt{1 + 4t_k^2}\\big), \\qquad
    y_{k+1} = θ_{k+1} + \\frac{t_k − 1}{t_{k+1}}(θ_{k+1} − θ_k),

which needs about √κ log(1/tol) iterations where plain gradient descent needs κ log(1/tol)
(κ the condition number of the standardised curvature). Two safeguards, since the curvature of
a GLM changes with μ: a step that breaks the descent lemma J(θ_{k+1}) ≤ J(y_k) − ½η‖∇J(y_k)‖²
is retried with η halved (backtracking), and the momentum restarts (t = 1, y = θ) whenever J
rises (O'Donoghue and Candès' adaptive restart). It stops when ‖∇J(y_k)‖₂ ≤ tol and returns
y_k. A float ``learning_rate`` runs plain :class:`~scratchlearn.optim.GradientDescent` with that
step, unguarded.
"""

import numpy as np
from scipy import linalg

from ..exceptions import DivergenceError
from ..optim import GradientDescent
from ._base import standardise
from ._glm_solvers import Design, glm_objective, working_weights_response

__all__ = ["gradient_descent", "auto_step", "standardised_problem", "to_beta", "to_theta"]

_EPS = float(np.finfo(float).eps)
_MAX_HALVINGS = 60  # η shrinks by at most 2⁻⁶⁰ ≈ 1e-18: beyond that no step is representable


def auto_step(Zt, y, s, family, link, penalty, theta0):
    """η = 1/Λ, Λ = λ_max(Z̃ᵀW₀Z̃/S + diag(penalty)) with W₀ the IRLS weights at θ₀: the
    Lipschitz constant of ∇J near θ₀ (the Fisher information of J there). Computed exactly
    from the (p, p) Gram matrix, which costs one pass over the data like a gradient."""
    eta0 = Zt.dot(theta0)
    W0 = working_weights_response(family, link, y, s, eta0, link.inverse(eta0))[0]
    H = Zt.gram(W0) / s.sum()  # (p, p)
    H[np.diag_indices_from(H)] += penalty
    lam = float(linalg.eigvalsh(H)[-1])
    return 1.0 / lam if lam > 0 else 1.0


def _accelerated(fun, theta, step, max_iter, tol, noise_floor):
    """Nesterov / FISTA with backtracking and adaptive restart (see the module docstring).
    Returns (θ, n_iter, stop_reason, history, η); n_iter counts backtracked steps too."""
    J_x = fun(theta)[0]
    y, t = theta, 1.0
    J_y, g = fun(y)
    hist = {"objective": [J_y], "grad_norm": [float(np.linalg.norm(g))]}
    stop = "grad_norm" if hist["grad_norm"][0] <= tol else None
    n_iter, halvings = 0, 0
    while stop is None and n_iter < max_iter:
        n_iter += 1
        x_new = y - step * g
        J_new = fun(x_new)[0]
        noise = 64 * _EPS * (abs(J_y) + noise_floor)  # rounding noise of J
        if not J_new <= J_y - 0.5 * step * (g @ g) + noise:  # descent lemma broken: η too long
            if halvings == _MAX_HALVINGS:
                stop = "stalled"
                break
            step, halvings = 0.5 * step, halvings + 1
            continue
        if J_new > J_x:  # J rose: restart the momentum
            t, y_new = 1.0, x_new
        else:
            t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
            y_new, t = x_new + ((t - 1.0) / t_new) * (x_new - theta), t_new
        theta, J_x = x_new, J_new
        J_y, g = fun(y_new)
        if not np.isfinite(J_y):  # the extrapolation left the mean domain: restart there
            y_new, t = theta, 1.0
            J_y, g = fun(y_new)
        y = y_new
        hist["objective"].append(float(J_y))
        hist["grad_norm"].append(float(np.linalg.norm(g)))
        if hist["grad_norm"][-1] <= tol:
            stop = "grad_norm"
    return y, n_iter, stop or "max_iter", hist, step


def _plain(fun, theta, step, max_iter, tol, learning_rate):
    """Plain gradient descent θₜ₊₁ = θₜ − η∇J(θₜ) with the user's step, stopping at
    ‖∇J‖₂ ≤ tol; a diverging run raises DivergenceError."""
    hist, n_iter, stop = {"objective": [], "grad_norm": []}, 0, "cost_change"
    while stop == "cost_change" and n_iter < max_iter:
        # tol=0: GradientDescent also stops when J is exactly unchanged, while ‖∇J‖ > tol: L is
        # flat to rounding there but the iterates still move towards the minimiser: go on
        gd = GradientDescent(learning_rate=step, tol=0.0, gtol=tol, max_iter=max_iter - n_iter)
        try:
            res = gd.minimize(fun, theta, warn=False)
        except DivergenceError as exc:
            raise DivergenceError(
                f"gradient descent diverged with learning_rate={learning_rate}; use a smaller "
                "one or learning_rate='auto'."
            ) from exc
        first = 0 if not hist["objective"] else 1  # a resumed run repeats its start
        for key in hist:
            hist[key] += res.history[key][first:]
        theta, n_iter, stop = res.x, n_iter + res.n_iter, res.stop_reason
        if res.n_iter == 0:
            break
    return theta, n_iter, stop, hist, step


def standardised_problem(X, s, fit_intercept, penalty):
    """Z̃ = [(X − m)/σ, 1] (as a :class:`Design`) and the penalty of J in θ: ½α‖w‖² =
    ½Σⱼ (α/σⱼ²) θⱼ². Returns (Z̃, penalty_θ, m, σ)."""
    d = X.shape[1]
    Z, m, sigma = standardise(X, s / s.sum(), fit_intercept)  # (n, d), (d,), (d,)
    pen = penalty.copy()
    pen[:d] = penalty[:d] / sigma**2
    return Design(Z, fit_intercept), pen, m, sigma


def to_theta(beta, m, sigma, fit_intercept):
    """θ_w = σw, θ_b = b + mᵀw."""
    d = len(sigma)
    theta = beta.copy()
    theta[:d] = sigma * beta[:d]
    if fit_intercept:
        theta[d] = beta[d] + m @ beta[:d]
    return theta


def to_beta(theta, m, sigma, fit_intercept):
    """w = θ_w/σ, b = θ_b − mᵀw."""
    d = len(sigma)
    beta = theta.copy()
    beta[:d] = theta[:d] / sigma
    if fit_intercept:
        beta[d] = theta[d] - m @ beta[:d]
    return beta


def gradient_descent(
    Xt, y, s, family, link, penalty, beta0, learning_rate, max_iter, tol, split=None
):
    """min_θ J(θ) = L(β(θ)) by gradient descent on the standardised columns, stopping when
    ‖∇J(θ)‖₂ ≤ tol ("grad_norm"), after ``max_iter`` iterations ("max_iter"), or when no halved
    step decreases J ("stalled"). ``learning_rate``: "auto" (accelerated, η = 1/Λ with
    backtracking, see the module docstring) or a float (plain, unguarded).

    Returns (β, n_iter, stop_reason, history {"objective": J, "grad_norm": ‖∇J‖₂}, η).
    """
    fit_intercept = Xt.fit_intercept
    Zt, pen, m, sigma = standardised_problem(Xt.X, s, fit_intercept, penalty)
    theta0 = to_theta(beta0, m, sigma, fit_intercept)

    def fun(theta):
        with np.errstate(all="ignore"):  # points outside the mean domain give J = inf
            return glm_objective(theta, Zt, y, s, family, link, pen, split)

    if isinstance(learning_rate, str):  # "auto"
        step = auto_step(Zt, y, s, family, link, pen, theta0)
        # J is summed as Σ sᵢ kernel + Σ sᵢ c(yᵢ): its rounding scales with |Σ sᵢc(yᵢ)|/(2S) too
        floor = abs(split[1]) / (2.0 * s.sum()) if split is not None else 0.0
        theta, n_iter, stop, hist, step = _accelerated(fun, theta0, step, max_iter, tol, floor)
    else:
        theta, n_iter, stop, hist, step = _plain(
            fun, theta0, float(learning_rate), max_iter, tol, learning_rate
        )
    return to_beta(theta, m, sigma, fit_intercept), n_iter, stop, hist, step
