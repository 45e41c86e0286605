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
import warnings

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ..base import BaseEstimator, ClassifierMixin
from ..exceptions import ConvergenceWarning
from ..utils import Interval, StrOptions, check_is_fitted, check_sample_weight
from ..utils.extmath import expit, log_softmax, safe_sparse_dot, softmax
from ..utils.multiclass import check_classification_targets
from ._base import lipschitz_constant

__all__ = ["LogisticRegression", "logistic_loss_grad", "logistic_hessian", "newton_solve"]


def _scores(theta, X, Kp, fit_intercept):
    """Z = X Wᵀ + 1bᵀ, (n, K′), for θ = Θ.ravel() with Θ = [W, b] (K′, d̃)."""
    Theta = theta.reshape(Kp, -1)
    d = X.shape[1]
    Z = safe_sparse_dot(X, Theta[:, :d].T)
    return Z + Theta[:, d] if fit_intercept else Z


def logistic_loss_grad(theta, X, Y, s_bar, lam, fit_intercept):
    """F(θ) = Σ s̄ᵢℓᵢ + (λ/2)‖W‖² and ∇F = (P − Y)ᵀ diag(s̄) X̃ + λ[W, 0].

    X (n, d) dense or sparse (the column of ones of X̃ is never formed), Y (n, K′): a 0/1
    column when K′ = 1, one-hot rows otherwise. Returns (F, ∇F flattened like θ).
    """
    Kp = Y.shape[1]
    d = X.shape[1]
    W = theta.reshape(Kp, -1)[:, :d]
    Z = _scores(theta, X, Kp, fit_intercept)  # (n, K′)
    if Kp == 1:
        z, y = Z[:, 0], Y[:, 0]
        lae = np.logaddexp(0.0, z)  # log(1 + e^z)
        loss = lae - y * z
        G = (np.exp(z - lae) - y)[:, None]  # ∂ℓ/∂z = σ(z) − y, σ(z) = e^{z − log(1+e^z)}
    else:
        m = Z.max(axis=1, keepdims=True)
        E = np.exp(Z - m)  # (n, K), entries in (0, 1]
        total = E.sum(axis=1, keepdims=True)
        lse = (m + np.log(total))[:, 0]  # logsumexp(zᵢ)
        loss = lse - np.einsum("ik,ik->i", Z, Y)
        G = E / total - Y  # softmax(Z) − Y, (n, K)
    F = s_bar @ loss + 0.5 * lam * np.sum(W * W)
    Gs = G * s_bar[:, None]  # (n, K′)
    grad_W = np.asarray(safe_sparse_dot(X.T, Gs)).T + lam * W  # (K′, d)
    grad = np.hstack([grad_W, Gs.sum(axis=0)[:, None]]) if fit_intercept else grad_W
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


def _cholesky_solve(H, g):
    """Δ = −H⁻¹g by Cholesky, adding a growing multiple of I when H is numerically singular
    (collinear columns, or p(1 − p) ≈ 0 on nearly separable data)."""
    jitter = 0.0
    scale = max(np.max(np.abs(np.diag(H))), 1e-300)
    for _ in range(12):
        try:
            cf = sla.cho_factor(H + jitter * np.eye(len(g)), check_finite=False)
            return -sla.cho_solve(cf, g, check_finite=False)
        except sla.LinAlgError:
            jitter = scale * 1e-12 if jitter == 0.0 else jitter * 100.0
    return -g


def newton_solve(fun, hess, theta, *, tol, max_iter, stop_early=None):
    """Newton–Raphson with backtracking: Δ = −H(θ)⁻¹∇F(θ), θ ← θ + tΔ with t halved until
    F(θ + tΔ) <= F(θ) + 10⁻⁴ t ∇Fᵀ Δ (Armijo).

    Stops when ‖∇F‖∞ <= tol ("grad_norm"), when no step decreases F ("cost_change"), when
    ``stop_early(θ)`` is true ("separable") or after ``max_iter`` steps ("max_iter").
    Returns (θ, stop_reason, n_iter, history).
    """
    F, g = fun(theta)
    hist = {"J": [F], "grad_norm": [float(np.max(np.abs(g)))]}
    it, stop = 0, None
    while True:
        if hist["grad_norm"][-1] <= tol:
            stop = "grad_norm"
            break
        if it >= max_iter:
            stop = "max_iter"
            break
        delta = _cholesky_solve(hess(theta), g)
        slope = g @ delta
        if slope >= 0:
            delta, slope = -g, -(g @ g)
        t = 1.0
        for _ in range(40):
            F_new, g_new = fun(theta + t * delta)
            if F_new <= F + 1e-4 * t * slope:
                break
            t *= 0.5
        else:
            stop = "cost_change"
            break
        theta = theta + t * delta
        improvement = F - F_new
        F, g, it = F_new, g_new, it + 1
        hist["J"].append(F)
        hist["grad_norm"].append(float(np.max(np.abs(g))))
        if stop_early is not None and stop_early(theta):
            stop = "separable"
            break
        if improvement <= 1e-15 * max(abs(F), 1.0):
            stop = "cost_change"
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


class LogisticRegression(ClassifierMixin, BaseEstimator):
    """Logistic regression (binary sigmoid, multinomial softmax for K > 2).

    Minimises C·Σᵢ sᵢ ℓᵢ + ½‖W‖² (intercept unpenalised), ℓ the cross-entropy; see the module
    docstring for the exact objective, gradient and Hessian.

    Parameters
    ----------
    penalty : {"l2"} or None, default="l2"
    C : float, default=1.0
        Inverse penalty strength (ignored when penalty is None).
    fit_intercept : bool, default=True
    solver : {"auto", "newton", "lbfgs", "gd"}, default="auto"
        "newton": Newton–Raphson (IRLS) with a Cholesky solve of the full K′d̃ × K′d̃ Hessian
        and step halving. "lbfgs": :func:`scratchlearn.optim.lbfgs`. "gd": the seed's batch
        update θ ← θ − η ∇F with :class:`scratchlearn.optim.GradientDescent`, on standardised
        features for dense X (slow; for teaching). "auto": newton for dense X when K′d̃ <= 200
        and the Hessian is cheap (n(K′d̃)² <= 5e7), lbfgs otherwise (and for sparse X).
    max_iter : int, default=100
    tol : float, default=1e-4
        Stop when ‖∇F‖∞ <= tol (newton, lbfgs); gd stops when |ΔF| <= tol·1e-4 or
        ‖∇F‖ <= tol.
    class_weight : dict, "balanced" or None, default=None
        Multiplies each sample's weight by its class's weight; "balanced" uses
        Σs / (K·Σ_{i∈k} sᵢ) (n / (K·nₖ) without sample weights), as scikit-learn does.
    learning_rate : float or "auto", default="auto"
        Step of solver="gd"; "auto" is 1/L with L a bound on the Hessian's largest eigenvalue.
    random_state : None, int or Generator
        Unused by the deterministic solvers; kept for scikit-learn compatibility.
    warm_start : bool, default=False
        Start from the previous solution when the shapes agree.
    verbose : int, default=0
        Accepted for compatibility; models never print.

    Attributes
    ----------
    classes_ : ndarray (K,)
    coef_ : ndarray (1, d) for two classes, (K, d) otherwise
    intercept_ : ndarray (1,) or (K,)
    n_iter_ : ndarray (1,)
    history_ : dict {"J": [...], "grad_norm": [...]} of F per iteration
    stop_reason_ : str
        "grad_norm", "cost_change", "max_iter", "line_search" (lbfgs) or "separable" (no
        penalty and the classes were found perfectly separated: the fit stops there, with a
        ConvergenceWarning, since the unpenalised coefficients would diverge).
    solver_ : str
    """

    _parameter_constraints = {
        "penalty": [StrOptions({"l2"}), None],
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"auto", "newton", "lbfgs", "gd"})],
        "max_iter": [Interval(numbers.Integral, 0, None, closed="left")],
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
        max_iter=100,
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
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        K = len(self.classes_)
        if K < 2:
            raise ValueError(
                "LogisticRegression needs samples of at least 2 classes in the data, but the "
                f"data contain only one class: {self.classes_[0]!r}."
            )
        s = self._sample_weights(y_idx, sample_weight, X)
        n, d = X.shape
        Kp = 1 if K == 2 else K
        Y = (y_idx[:, None] == (np.arange(Kp) + (K == 2))).astype(np.float64)  # (n, K′)
        lam = 0.0 if self.penalty is None else 1.0 / (self.C * s.sum())
        s_bar = s / s.sum()
        d1 = d + int(self.fit_intercept)
        theta0 = np.zeros(Kp * d1)
        if self.warm_start and getattr(self, "coef_", None) is not None:
            prev = (
                np.hstack([self.coef_, self.intercept_[:, None]])
                if self.fit_intercept
                else self.coef_
            )
            if prev.size == theta0.size:
                theta0 = prev.ravel().copy()

        solver = self.solver
        if solver == "auto":
            # a Newton step costs n(K′d̃)² for the Hessian, an L-BFGS evaluation n·K′d̃
            small = Kp * d1 <= 200 and n * (Kp * d1) ** 2 <= 5e7
            solver = "newton" if (small and not sp.issparse(X)) else "lbfgs"
        fi = self.fit_intercept
        if solver == "newton" and sp.issparse(X):
            X = X.toarray()

        def fun(theta):
            return logistic_loss_grad(theta, X, Y, s_bar, lam, fi)

        def separated(theta):
            return _separated(_scores(theta, X, Kp, fi), Y)

        if solver == "newton":
            theta, stop, it, hist = self._fit_newton(fun, X, s_bar, lam, Kp, theta0, separated)
        elif solver == "lbfgs":
            from ..optim import lbfgs

            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ConvergenceWarning)
                res = lbfgs(fun, theta0, gtol=self.tol, ftol=0.0, max_iter=self.max_iter)
            theta, stop, it, hist = res.x, res.stop_reason, res.n_iter, res.history
            del caught  # re-issued below with this estimator's name
        else:
            theta, stop, it, hist = self._fit_gd(X, Y, s_bar, lam, theta0, Kp)

        Theta = theta.reshape(Kp, d1)
        if Kp > 1 and self.penalty is None:
            Theta = Theta - Theta.mean(axis=0)  # the Σₖ Θₖ = 0 representative
        elif Kp > 1 and self.fit_intercept:
            Theta[:, -1] -= Theta[:, -1].mean()
        if self.penalty is None and stop != "separable" and separated(Theta.ravel()):
            stop = "separable"
        if stop == "separable":
            warnings.warn(
                "The classes are perfectly separable and penalty=None: the maximum-likelihood "
                "coefficients are infinite, so the fit stopped at finite ones that already "
                "separate the data. Use penalty='l2' for a unique solution.",
                ConvergenceWarning,
                stacklevel=2,
            )
        elif stop == "max_iter":
            warnings.warn(
                f"LogisticRegression (solver={solver!r}) reached max_iter={self.max_iter} "
                f"before ‖∇F‖ <= tol={self.tol}; increase max_iter or scale the features.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.coef_ = Theta[:, :d].copy()
        self.intercept_ = Theta[:, d].copy() if self.fit_intercept else np.zeros(Kp)
        self.n_iter_ = np.array([it])
        self.history_, self.stop_reason_, self.solver_ = hist, stop, solver
        return self

    def _fit_newton(self, fun, X, s_bar, lam, Kp, theta0, separated):
        d = X.shape[1]
        d1 = d + int(self.fit_intercept)
        mu = 1.0 if Kp > 1 else 0.0  # weight of ½‖Σₖ Θₖ‖² (multinomial identifiability)
        cols = d1 if self.penalty is None else d1 - d  # coordinates that need it
        sel = np.arange(d1 - cols, d1)

        def fun_aug(theta):
            F, g = fun(theta)
            if mu:
                T = theta.reshape(Kp, d1)
                tot = T[:, sel].sum(axis=0)
                F += 0.5 * mu * tot @ tot
                g = g.reshape(Kp, d1)
                g[:, sel] += mu * tot
                g = g.ravel()
            return F, g

        def hess(theta):
            H = logistic_hessian(theta, X, s_bar, lam, self.fit_intercept, Kp)
            if mu:
                idx = np.arange(Kp)[:, None] * d1 + sel[None, :]  # (K, |sel|)
                for a in range(Kp):
                    for b in range(Kp):
                        H[idx[a], idx[b]] += mu
            return H

        stop_early = separated if self.penalty is None else None
        return newton_solve(
            fun_aug, hess, theta0, tol=self.tol, max_iter=self.max_iter, stop_early=stop_early
        )

    def _fit_gd(self, X, Y, s_bar, lam, theta0, Kp):
        """Gradient descent in standardised coordinates x′ = (x − m)/σ (dense X): same
        objective, with the penalty ½‖W′/σ‖² mapped back exactly."""
        from ..optim import GradientDescent

        n, d = X.shape
        if sp.issparse(X):
            m, sig = np.zeros(d), np.ones(d)
            Xs = X
        else:
            m = s_bar @ X if self.fit_intercept else np.zeros(d)
            sig = np.sqrt(s_bar @ (X - m) ** 2)
            sig[sig == 0.0] = 1.0
            Xs = (X - m) / sig
        fi = self.fit_intercept
        d1 = d + int(fi)
        pen = np.zeros(d1)
        pen[:d] = lam / sig**2  # λ‖W‖² = λ‖W′/σ‖²

        def fun(theta):
            F, g = logistic_loss_grad(theta, Xs, Y, s_bar, 0.0, fi)
            T = theta.reshape(Kp, d1)
            F += 0.5 * np.sum(pen * T * T)
            return F, g + (pen * T).ravel()

        lr = self.learning_rate
        if lr == "auto":  # 1/L with L >= ½λmax(X̃ᵀS̄X̃) + max penalty (softmax curvature <= ½)
            lr = 1.0 / (0.5 * (lipschitz_constant(Xs, s_bar) + fi) + pen.max())
        # map a warm start into the standardised coordinates: w′ = σw, b′ = b + mᵀw
        T0 = theta0.reshape(Kp, d1).copy()
        if self.fit_intercept:
            T0[:, -1] += T0[:, :d] @ m
        T0[:, :d] *= sig
        gd = GradientDescent(
            learning_rate=lr, tol=self.tol * 1e-4, gtol=self.tol, max_iter=max(self.max_iter, 1)
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # re-issued by fit
            res = gd.minimize(fun, T0.ravel())
        T = res.x.reshape(Kp, d1).copy()
        T[:, :d] /= sig
        if self.fit_intercept:
            T[:, -1] -= T[:, :d] @ m
        return T.ravel(), res.stop_reason, res.n_iter, res.history

    # -- prediction ------------------------------------------------------------------------
    def decision_function(self, X):
        """Scores Xw + b: (n,) for two classes (the log-odds of classes_[1]), else (n, K)."""
        check_is_fitted(self, "coef_")
        X = self._validate_data(X, reset=False, accept_sparse=["csr", "csc"], dtype=np.float64)
        Z = safe_sparse_dot(X, self.coef_.T) + self.intercept_
        return Z[:, 0] if Z.shape[1] == 1 else Z

    def predict_log_proba(self, X):
        """log P(class | x), (n, K), computed in log space."""
        Z = self.decision_function(X)
        if Z.ndim == 1:
            Z = np.column_stack([np.zeros_like(Z), Z])  # log-odds → two scores
        return log_softmax(Z, axis=1)

    def predict_proba(self, X):
        """P(class | x), (n, K); rows sum to one."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """Most probable class."""
        Z = self.decision_function(X)
        idx = (Z > 0).astype(int) if Z.ndim == 1 else np.argmax(Z, axis=1)
        return self.classes_[idx]
