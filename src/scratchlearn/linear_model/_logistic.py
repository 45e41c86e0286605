"""Logistic regression: binary (sigmoid) and multinomial (softmax), L2-penalised or not.

Symbols
-------
n, d, K    samples, features, classes;  K′ = 1 for two classes, K′ = K otherwise
x̃ᵢ         xᵢ with a trailing 1 when the intercept is fitted; d̃ = d + 1 (else d)
Θ          parameters (K′, d̃): row k is (wₖ, bₖ);  θ = Θ.ravel()
zᵢ         scores Θ x̃ᵢ (K′,);  pᵢ = σ(zᵢ) (binary) or softmax(zᵢ) (multinomial)
yᵢ         0/1 label (binary) or one-hot row (multinomial)
sᵢ         sample weight × class weight;  s̄ᵢ = sᵢ / Σs
C          inverse penalty strength;  λ = 1/(C Σs) (0 without penalty)

Objective (scikit-learn's, for every solver)
--------------------------------------------
.. math::

    C \\sum_i s_i \\ell_i(\\Theta) + \\tfrac12 \\|W\\|_F^2,
    \\qquad \\ell_i = \\log(1 + e^{z_i}) - y_i z_i \\;\\text{(binary)},\\quad
    \\ell_i = \\operatorname{logsumexp}(z_i) - z_{i, y_i} \\;\\text{(multinomial)}

Intercepts are not penalised. The solvers minimise the same problem divided by CΣs,

.. math::

    F(\\theta) = \\sum_i \\bar s_i \\ell_i + \\tfrac{\\lambda}{2}\\|W\\|_F^2,\\qquad
    \\nabla_\\Theta F = (P - Y)^T \\operatorname{diag}(\\bar s) \\tilde X + \\lambda [W, 0],

so that ``tol`` is a tolerance on the gradient of a per-sample average, as in scikit-learn.
ℓ is evaluated as logaddexp(0, z) − yz and logsumexp(z) − z_y, so no exp overflows.

The multinomial model is over-parametrised: adding one vector to every Θₖ leaves P unchanged.
With the penalty the optimal W has Σₖ wₖ = 0; the intercepts (and, without penalty, W) are
chosen with Σₖ Θₖ = 0, which is where gradient methods started at zero stay, and which Newton
enforces by adding ½‖Σₖ Θₖ‖² (zero at that solution) to make its Hessian positive definite.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator
from ..utils import Interval, StrOptions, check_sample_weight, spd_solve
from ..utils.extmath import expit, safe_sparse_dot, softmax
from ..utils.multiclass import check_classification_targets, encode_classes
from ._base import LinearClassifierMixin, lipschitz_constant, standardise

__all__ = ["LogisticRegression", "logistic_loss_grad", "logistic_hessian", "newton_solve"]


def _scores(theta, X, Kp, fit_intercept):
    """Z = X Wᵀ + 1bᵀ, (n, K′), for θ = Θ.ravel() with Θ = [W, b] (K′, d̃)."""
    Theta = theta.reshape(Kp, -1)
    d = X.shape[1]
    # W is a strided view of Θ; a contiguous copy (K′d numbers) lets BLAS do X Wᵀ, where numpy
    # would otherwise fall back to its slow non-BLAS loop
    Z = safe_sparse_dot(X, np.ascontiguousarray(Theta[:, :d]).T)
    if fit_intercept:
        Z += Theta[:, d]
    return Z


def logistic_loss_grad(theta, X, Y, s_bar, lam, fit_intercept):
    """F(θ) = Σ s̄ᵢℓᵢ + (λ/2)‖W‖² and ∇F = (P − Y)ᵀ diag(s̄) X̃ + λ[W, 0].

    X (n, d) dense or sparse (the column of ones of X̃ is never formed), Y (n, K′): a 0/1
    column when K′ = 1, one-hot rows otherwise. Returns (F, ∇F flattened like θ). One pass of
    exp and one of log over Z; the probabilities reuse the exponentials of the loss.
    """
    Kp = Y.shape[1]
    d = X.shape[1]
    W = theta.reshape(Kp, -1)[:, :d]
    Z = _scores(theta, X, Kp, fit_intercept)  # (n, K′)
    if Kp == 1:
        z, y = Z[:, 0], Y[:, 0]
        lae = np.logaddexp(0.0, z)  # log(1 + e^z)
        loss = lae - y * z
        G = np.exp(z - lae) - y  # ∂ℓ/∂z = σ(z) − y, σ(z) = e^{z − log(1+e^z)}
        G = G[:, None]
    else:
        Z -= Z.max(axis=1, keepdims=True)  # zᵢ − max zᵢ: softmax and ℓ are shift-invariant
        E = np.exp(Z)  # (n, K), entries in (0, 1]
        total = E.sum(axis=1)
        loss = np.log(total) - np.einsum("ik,ik->i", Z, Y)  # logsumexp(zᵢ) − z_{i,yᵢ}
        E /= total[:, None]
        G = np.subtract(E, Y, out=E)  # softmax(Z) − Y, (n, K)
    F = float(s_bar @ loss) + 0.5 * lam * float(np.sum(W * W))
    G *= s_bar[:, None]  # diag(s̄)(P − Y), (n, K′)
    grad = np.empty((Kp, d + int(fit_intercept)))
    grad[:, :d] = np.asarray(safe_sparse_dot(X.T, G)).T
    grad[:, :d] += lam * W
    if fit_intercept:
        grad[:, d] = G.sum(axis=0)
    return F, grad.ravel()


def _weighted_gram(X, v, fit_intercept):
    """X̃ᵀ diag(v) X̃ with X̃ = [X, 1], from XᵀVX, XᵀV1 and Σv (X̃ never formed)."""
    if np.all(v >= 0):
        A = X * np.sqrt(v)[:, None]
        XVX = A.T @ A  # a symmetric rank-k update: half the flops of a general product
    else:
        XVX = X.T @ (X * v[:, None])
    if not fit_intercept:
        return XVX
    Xv = X.T @ v
    return np.block([[XVX, Xv[:, None]], [Xv[None, :], np.array([[v.sum()]])]])


def logistic_hessian(theta, X, s_bar, lam, fit_intercept, Kp):
    """∇²F: binary X̃ᵀ diag(s̄ p(1 − p)) X̃ + λI_W; multinomial blocks
    H_kl = X̃ᵀ diag(s̄ pₖ(δₖₗ − pₗ)) X̃ (+ λI_W on the diagonal blocks). Dense X only."""
    d = X.shape[1]
    d1 = d + int(fit_intercept)
    Z = _scores(theta, X, Kp, fit_intercept)
    if Kp == 1:
        p = expit(Z[:, 0])
        H = _weighted_gram(X, s_bar * p * (1.0 - p), fit_intercept)
    else:
        P = softmax(Z, axis=1)  # (n, K)
        H = np.empty((Kp * d1, Kp * d1))
        for k in range(Kp):
            for m in range(k, Kp):
                v = s_bar * P[:, k] * ((k == m) - P[:, m])
                block = _weighted_gram(X, v, fit_intercept)
                H[k * d1 : (k + 1) * d1, m * d1 : (m + 1) * d1] = block
                H[m * d1 : (m + 1) * d1, k * d1 : (k + 1) * d1] = block.T
    idx = (np.arange(Kp)[:, None] * d1 + np.arange(d)[None, :]).ravel()
    H[idx, idx] += lam
    return H


def newton_solve(fun, hess, theta, *, tol, max_iter, stop_early=None):
    """Newton–Raphson with backtracking: Δ = −H(θ)⁻¹∇F(θ), θ ← θ + tΔ with t halved until
    F(θ + tΔ) <= F(θ) + 10⁻⁴ t ∇Fᵀ Δ (Armijo).

    H Δ = −∇F is solved by :func:`~scratchlearn.utils.spd_solve` with the "jitter" fallback
    (H + τI when H is numerically singular: collinear columns, or p(1 − p) ≈ 0 on nearly
    separable data; announced by a LinAlgWarning).

    Near θ* a step that leaves F unchanged to rounding (4ε|F|) but lowers ‖∇F‖∞ is accepted:
    F's values cannot resolve the last quadratic steps, the gradient can.

    Stops when ‖∇F‖∞ <= tol ("grad_norm", the criterion), when ``stop_early(θ)`` is true
    ("separable"), after ``max_iter`` steps ("max_iter"), or "stalled" before the criterion
    is met: no step decreases F nor ‖∇F‖∞, or a step improves F by <= 10⁻¹⁵|F| (F's
    floating-point resolution) without lowering ‖∇F‖∞. Returns (θ, stop_reason, n_iter,
    history), history {"objective": F, "grad_norm": ‖∇F‖∞}: the start, then one per step.
    """
    F, g = fun(theta)
    hist = {"objective": [F], "grad_norm": [float(np.max(np.abs(g)))]}
    it, stop = 0, None
    while True:
        if hist["grad_norm"][-1] <= tol:
            stop = "grad_norm"
            break
        if it >= max_iter:
            stop = "max_iter"
            break
        delta = spd_solve(hess(theta), -g, fallback="jitter", what="the Newton system H Δ = −∇F")
        slope = g @ delta
        if slope >= 0:
            delta, slope = -g, -(g @ g)
        t, resolution = 1.0, 4.0 * np.finfo(float).eps * max(abs(F), 1.0)
        for _ in range(40):
            F_new, g_new = fun(theta + t * delta)
            if F_new <= F + 1e-4 * t * slope:
                break
            # F flat to rounding but ‖∇F‖ smaller: near θ* the quadratic model is exact to
            # rounding, so the step is progress that F's values can no longer show
            if F_new - F <= resolution and np.max(np.abs(g_new)) < hist["grad_norm"][-1]:
                break
            t *= 0.5
        else:
            stop = "stalled"
            break
        theta = theta + t * delta
        improvement = F - F_new
        F, g, it = F_new, g_new, it + 1
        hist["objective"].append(F)
        hist["grad_norm"].append(float(np.max(np.abs(g))))
        if stop_early is not None and stop_early(theta):
            stop = "separable"
            break
        no_progress = hist["grad_norm"][-1] >= hist["grad_norm"][-2]
        if hist["grad_norm"][-1] > tol and no_progress and improvement <= 1e-15 * abs(F):
            stop = "stalled"
            break
    return theta, stop, it, hist


def _separated(Z, Y):
    """True when every sample is strictly on the right side: the unpenalised MLE does not
    exist (the likelihood keeps increasing as ‖w‖ → ∞)."""
    if Y.shape[1] == 1:
        return bool(np.all((2.0 * Y[:, 0] - 1.0) * Z[:, 0] > 0))
    true = np.einsum("ik,ik->i", Z, Y)
    other = np.where(Y > 0, -np.inf, Z).max(axis=1)
    return bool(np.all(true > other))


class LogisticRegression(LinearClassifierMixin, BaseEstimator):
    """Logistic regression (binary sigmoid, multinomial softmax for K > 2).

    Minimises C·Σᵢ sᵢ ℓᵢ + ½‖W‖² (intercept unpenalised), ℓ the cross-entropy; see the module
    docstring for the exact objective, gradient and Hessian. Prediction (``decision_function``,
    ``predict``, ``predict_proba``, ``predict_log_proba``) comes from
    :class:`~scratchlearn.linear_model._base.LinearClassifierMixin` with the logistic link.

    Parameters
    ----------
    penalty : {"l2"} or None, default="l2"
    C : float, default=1.0
        Inverse penalty strength (ignored when penalty is None).
    fit_intercept : bool, default=True
    solver : {"auto", "newton", "lbfgs", "gd"}, default="auto"
        "newton": Newton–Raphson (IRLS) with a Cholesky solve of the full K′d̃ × K′d̃ Hessian
        and step halving. "lbfgs": :func:`scratchlearn.optim.lbfgs`. "gd": gradient descent
        with :class:`scratchlearn.optim.GradientDescent` on standardised features (dense X;
        sparse X is used as is, since centring would densify it). "auto": newton for dense X
        when K′d̃ <= 200 and the Hessian is cheap (n(K′d̃)² <= 5e7), lbfgs otherwise (and for
        sparse X).
    max_iter : int or None, default=None
        Iteration budget. None means 100 for newton and lbfgs (scikit-learn's default) and
        1000 for gd: gradient descent needs about √κ times more steps than Newton (κ the
        condition number of ∇²F), and 100 steps do not reach tol=1e-4 even on standardised
        data (breast cancer: 443 accelerated steps, 4709 plain ones).
    tol : float, default=1e-4
        The stopping criterion: ‖∇F‖∞ <= tol (newton, lbfgs) or ‖∇F‖₂ <= tol in the
        standardised coordinates (gd), F the objective divided by CΣs (module docstring).
    class_weight : dict, "balanced" or None, default=None
        Multiplies each sample's weight by its class's weight; "balanced" uses
        Σs / (K·Σ_{i∈k} sᵢ) (n / (K·nₖ) without sample weights), as scikit-learn does.
    learning_rate : float or "auto", default="auto"
        Step of solver="gd". "auto": η = 1/L, L = c(λ_max(ZᵀS̄Z) + 1) + λ/min σ², an upper
        bound on the largest eigenvalue of ∇²F in standardised coordinates (c = ¼ for the
        sigmoid, ½ for the softmax, whose curvature never exceeds it), with Nesterov momentum
        β = 0.9: θ ← θ − η(∇F(θ) + βv), v ← βv + ∇F(θ). On a quadratic (F's local model near the
        optimum) this is stable for every β < 1 when η <= 1/L, and it needs about √κ·log(1/ε)
        steps where plain descent needs κ·log(1/ε). A float: plain descent θ ← θ − η∇F with
        that step, no momentum (a step above 1/L with momentum could diverge).
    random_state : None, int or Generator
        Unused by the deterministic solvers; kept for scikit-learn compatibility.
    warm_start : bool, default=False
        Start from the previous solution when the shapes agree (from zero otherwise).
    verbose : int, default=0
        Accepted for compatibility; models never print.

    Attributes
    ----------
    classes_ : ndarray (K,)
    coef_ : ndarray (1, d) for two classes, (K, d) otherwise
    intercept_ : ndarray (1,) or (K,)
    n_iter_ : ndarray (1,)
        Newton steps, L-BFGS iterations or gradient steps (scikit-learn's type).
    history_ : dict
        {"objective": F, "grad_norm": ...}, the start then one entry per iteration; F is the
        objective divided by CΣs (for multinomial newton, plus ½‖Σₖ Θₖ‖², which stays 0);
        "grad_norm" is ‖∇F‖∞ for newton and lbfgs, ‖∇F‖₂ in standardised coordinates for gd.
    stop_reason_ : str
        "grad_norm" (the criterion was met), or, with a ConvergenceWarning: "max_iter";
        "stalled" (no step decreased F any more, or F stopped changing in floating point,
        before ‖∇F‖ <= tol: F's resolution ε|F| limits ‖∇F‖ to about √(2ε|F|λ_max(∇²F)));
        "separable" (no penalty and the classes are perfectly separated: the fit stops at
        finite coefficients, since the unpenalised ones would diverge).
    solver_ : str
    """

    _proba_link = "logistic"

    _parameter_constraints = {
        "penalty": [StrOptions({"l2"}), None],
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"auto", "newton", "lbfgs", "gd"})],
        "max_iter": [Interval(numbers.Integral, 0, None, closed="left"), None],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "learning_rate": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
        "warm_start": ["boolean"],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
    }

    def __init__(
        self,
        penalty="l2",
        *,
        C=1.0,
        fit_intercept=True,
        solver="auto",
        max_iter=None,
        tol=1e-4,
        class_weight=None,
        learning_rate="auto",
        random_state=None,
        warm_start=False,
        verbose=0,
    ):
        self.penalty = penalty
        self.C = C
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.class_weight = class_weight
        self.learning_rate = learning_rate
        self.random_state = random_state
        self.warm_start = warm_start
        self.verbose = verbose

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"])
        return t

    # -- fitting ---------------------------------------------------------------------------
    def _sample_weights(self, y_idx, sample_weight, X):
        s = check_sample_weight(sample_weight, X).copy()
        K = len(self.classes_)
        if self.class_weight is None:
            return s
        if self.class_weight == "balanced":
            counts = np.bincount(y_idx, weights=s, minlength=K)  # weighted class sizes
            cw = s.sum() / (K * counts)
        else:
            cw = np.ones(K)
            for label, weight in self.class_weight.items():
                hit = np.flatnonzero(self.classes_ == label)
                if hit.size == 0:
                    raise ValueError(f"class_weight has label {label!r}, not found in y.")
                cw[hit[0]] = weight
        return s * cw[y_idx]

    def fit(self, X, y, sample_weight=None):
        """Fit Θ by the chosen solver; returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, accept_sparse=["csr"], dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_idx = encode_classes(y, "LogisticRegression")
        K = len(self.classes_)
        s = self._sample_weights(y_idx, sample_weight, X)
        n, d = X.shape
        Kp = 1 if K == 2 else K
        Y = (y_idx[:, None] == (np.arange(Kp) + (K == 2))).astype(np.float64)  # (n, K′)
        lam = 0.0 if self.penalty is None else 1.0 / (self.C * s.sum())
        s_bar = s / s.sum()
        fi = self.fit_intercept
        d1 = d + int(fi)
        theta0 = self._start(Kp, d1)
        solver = self._choose_solver(X, Kp, d1)
        max_iter = self.max_iter
        if max_iter is None:
            max_iter = 1000 if solver == "gd" else 100
        if solver == "newton" and sp.issparse(X):
            X = X.toarray()

        def separated(theta):
            return _separated(_scores(theta, X, Kp, fi), Y)

        if solver == "newton":
            out = self._fit_newton(X, Y, s_bar, lam, theta0, max_iter, separated)
        elif solver == "lbfgs":
            out = self._fit_lbfgs(X, Y, s_bar, lam, theta0, max_iter)
        else:
            out = self._fit_gd(X, Y, s_bar, lam, theta0, max_iter)
        theta, stop, it, hist = out

        Theta = theta.reshape(Kp, d1)
        if Kp > 1 and self.penalty is None:
            Theta = Theta - Theta.mean(axis=0)  # the Σₖ Θₖ = 0 representative
        elif Kp > 1 and fi:
            Theta[:, -1] -= Theta[:, -1].mean()
        if self.penalty is None and stop != "separable" and separated(Theta.ravel()):
            stop = "separable"
        self.coef_ = Theta[:, :d].copy()
        self.intercept_ = Theta[:, d].copy() if fi else np.zeros(Kp)
        self.solver_ = solver
        norm = "‖∇F‖₂ (standardised coordinates)" if solver == "gd" else "‖∇F‖∞"
        self._record_fit(
            np.array([it]),
            hist,
            stop,
            criterion=f"{norm} <= tol={self.tol}",
            met={"grad_norm"},
        )
        return self

    def _start(self, Kp, d1):
        """θ₀: the previous solution under warm_start when its shape agrees, else 0."""
        theta0 = np.zeros(Kp * d1)
        if self.warm_start and getattr(self, "coef_", None) is not None:
            prev = self.coef_
            if self.fit_intercept:
                prev = np.hstack([self.coef_, self.intercept_[:, None]])
            if prev.size == theta0.size:
                theta0 = prev.ravel().copy()
        return theta0

    def _choose_solver(self, X, Kp, d1):
        if self.solver != "auto":
            return self.solver
        # a Newton step costs n(K′d̃)² for the Hessian, an L-BFGS evaluation n·K′d̃
        small = Kp * d1 <= 200 and X.shape[0] * (Kp * d1) ** 2 <= 5e7
        return "newton" if (small and not sp.issparse(X)) else "lbfgs"

    def _fit_lbfgs(self, X, Y, s_bar, lam, theta0, max_iter):
        """L-BFGS on F with gtol = tol and ftol = 0. With ftol = 0 its "cost_change" stop means
        an accepted step left F unchanged in floating point: recorded as "stalled"."""
        from ..optim import lbfgs

        fi = self.fit_intercept

        def fun(theta):
            return logistic_loss_grad(theta, X, Y, s_bar, lam, fi)

        res = lbfgs(fun, theta0, gtol=self.tol, ftol=0.0, max_iter=max_iter, warn=False)
        stop = "stalled" if res.stop_reason == "cost_change" else res.stop_reason
        return res.x, stop, res.n_iter, res.history

    def _fit_newton(self, X, Y, s_bar, lam, theta0, max_iter, separated):
        fi, Kp = self.fit_intercept, Y.shape[1]
        d = X.shape[1]
        d1 = d + int(fi)
        mu = 1.0 if Kp > 1 else 0.0  # weight of ½‖Σₖ Θₖ‖² (multinomial identifiability)
        cols = d1 if self.penalty is None else d1 - d  # coordinates that need it
        sel = np.arange(d1 - cols, d1)

        def fun_aug(theta):
            F, g = logistic_loss_grad(theta, X, Y, s_bar, lam, fi)
            if mu:
                T = theta.reshape(Kp, d1)
                tot = T[:, sel].sum(axis=0)
                F += 0.5 * mu * tot @ tot
                g = g.reshape(Kp, d1)
                g[:, sel] += mu * tot
                g = g.ravel()
            return F, g

        def hess(theta):
            H = logistic_hessian(theta, X, s_bar, lam, fi, Kp)
            if mu:
                idx = np.arange(Kp)[:, None] * d1 + sel[None, :]  # (K, |sel|)
                for a in range(Kp):
                    for b in range(Kp):
                        H[idx[a], idx[b]] += mu
            return H

        stop_early = separated if self.penalty is None else None
        return newton_solve(
            fun_aug, hess, theta0, tol=self.tol, max_iter=max_iter, stop_early=stop_early
        )

    def _fit_gd(self, X, Y, s_bar, lam, theta0, max_iter):
        """Gradient descent in standardised coordinates x′ = (x − m)/σ (dense X): the same
        objective, with the penalty ½λ‖W‖² = ½λ‖W′/σ‖² mapped exactly (w′ = σw, b′ = b + mᵀw).
        A GradientDescent "cost_change" (tol = 0: F unchanged in floating point) is "stalled"."""
        from ..optim import GradientDescent

        Kp, fi = Y.shape[1], self.fit_intercept
        d = X.shape[1]
        d1 = d + int(fi)
        if sp.issparse(X):
            Z, m, sig = X, np.zeros(d), np.ones(d)
        else:
            Z, m, sig = standardise(X, s_bar, fi)
        pen = np.zeros(d1)
        pen[:d] = lam / sig**2

        def fun(theta):
            F, g = logistic_loss_grad(theta, Z, Y, s_bar, 0.0, fi)
            T = theta.reshape(Kp, d1)
            return F + 0.5 * np.sum(pen * T * T), g + (pen * T).ravel()

        stop_rule = {"tol": 0.0, "gtol": self.tol, "max_iter": max(max_iter, 1)}
        if self.learning_rate == "auto":
            c = 0.25 if Kp == 1 else 0.5  # σ′ <= ¼; the softmax Jacobian's norm <= ½
            L = c * (lipschitz_constant(Z, s_bar) + fi) + pen.max()
            gd = GradientDescent(learning_rate=1.0 / L, momentum=0.9, nesterov=True, **stop_rule)
        else:
            gd = GradientDescent(learning_rate=self.learning_rate, **stop_rule)
        T0 = theta0.reshape(Kp, d1).copy()
        if fi:
            T0[:, -1] += T0[:, :d] @ m
        T0[:, :d] *= sig
        res = gd.minimize(fun, T0.ravel(), warn=False)
        T = res.x.reshape(Kp, d1).copy()
        T[:, :d] /= sig
        if fi:
            T[:, -1] -= T[:, :d] @ m
        stop = "stalled" if res.stop_reason == "cost_change" else res.stop_reason
        return T.ravel(), stop, res.n_iter, res.history
