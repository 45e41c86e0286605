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
ℓ is evaluated as logaddexp(0, z) − yz and logsumexp(z) − z_y, so no exp overflows. The data
term of F, ∇F and ∇²F is a sum over rows, computed by the row-block statistics of
``_logistic_blocks`` (the whole data as one block in memory, each block where it lives on Dask);
the penalty is added once, after the sum.

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
from ..utils._blocks import block_reduce
from ..utils._dask import check_dask_data, is_dask_collection, persist_on_cluster
from ..utils.class_weight import class_weights
from ..utils.multiclass import check_classification_targets, encode_classes
from ._base import LinearClassifierMixin, lipschitz_constant, standardise
from ._logistic_blocks import (
    class_counts_block,
    dask_targets_and_weights,
    hessian_block,
    loss_grad_block,
    merge_class_counts,
    newton_block,
    one_hot,
    unseparated_block,
)

__all__ = ["LogisticRegression", "logistic_loss_grad", "logistic_hessian", "newton_solve"]


def _penalise(F, g, theta, lam, Kp, d):
    """F_data + (λ/2)‖W‖² and ∇F_data + λ[W, 0]: the penalty, added once after the data sum."""
    W = theta.reshape(Kp, -1)[:, :d]
    F = F + 0.5 * lam * float(np.sum(W * W))
    g.reshape(Kp, -1)[:, :d] += lam * W
    return F, g


def logistic_loss_grad(theta, X, Y, s_bar, lam, fit_intercept):
    """F(θ) = Σ s̄ᵢℓᵢ + (λ/2)‖W‖² and ∇F = (P − Y)ᵀ diag(s̄) X̃ + λ[W, 0].

    X (n, d) dense or sparse, Y (n, K′): a 0/1 column when K′ = 1, one-hot rows otherwise.
    Returns (F, ∇F flattened like θ): :func:`~._logistic_blocks.loss_grad_block` on the whole
    data (one block) plus the penalty.
    """
    F, g = loss_grad_block(X, Y, s_bar, theta, fit_intercept)
    return _penalise(F, g, theta, lam, Y.shape[1], X.shape[1])


def _penalise_hessian(H, lam, Kp, d, d1):
    """∇²F_data + λI on the coordinates of W."""
    idx = (np.arange(Kp)[:, None] * d1 + np.arange(d)[None, :]).ravel()
    H[idx, idx] += lam
    return H


def logistic_hessian(theta, X, s_bar, lam, fit_intercept, Kp):
    """∇²F: binary X̃ᵀ diag(s̄ p(1 − p)) X̃ + λI_W; multinomial blocks
    H_kl = X̃ᵀ diag(s̄ pₖ(δₖₗ − pₗ)) X̃ (+ λI_W on the diagonal blocks)."""
    d = X.shape[1]
    H = hessian_block(X, s_bar, theta, fit_intercept, Kp)
    return _penalise_hessian(H, lam, Kp, d, d + int(fit_intercept))


def newton_solve(fun, hess, theta, *, tol, max_iter, stop_early=None):
    """Newton–Raphson with backtracking: Δ = −H(θ)⁻¹∇F(θ), θ ← θ + tΔ with t halved until
    F(θ + tΔ) <= F(θ) + 10⁻⁴ t ∇Fᵀ Δ (Armijo).

    H Δ = −∇F is solved by :func:`~scratchlearn.utils.spd_solve` with the "jitter" fallback
    (H + τI when H is numerically singular: collinear columns, or p(1 − p) ≈ 0 on nearly
    separable data; announced by a LinAlgWarning).

    Near θ* a step that leaves F unchanged to rounding (4ε|F|) but lowers ‖∇F‖∞ is accepted:
    F's values cannot resolve the last quadratic steps, the gradient can.

    ``hess=None``: ``fun(θ)`` returns (F, ∇F, ∇²F), so that each trial point costs one
    evaluation (one pass over the data on Dask); the Hessian of a rejected trial is discarded,
    that of the accepted one drives the next step. The iterates are the same either way.

    Stops when ‖∇F‖∞ <= tol ("grad_norm", the criterion), when ``stop_early(θ)`` is true
    ("separable"), after ``max_iter`` steps ("max_iter"), or "stalled" before the criterion
    is met: no step decreases F nor ‖∇F‖∞, or a step improves F by <= 10⁻¹⁵|F| (F's
    floating-point resolution) without lowering ‖∇F‖∞. Returns (θ, stop_reason, n_iter,
    history), history {"objective": F, "grad_norm": ‖∇F‖∞}: the start, then one per step.
    """

    def evaluate(theta):  # (F, ∇F, ∇²F or None)
        return fun(theta) if hess is None else (*fun(theta), None)

    F, g, H = evaluate(theta)
    hist = {"objective": [F], "grad_norm": [float(np.max(np.abs(g)))]}
    it, stop = 0, None
    while True:
        if hist["grad_norm"][-1] <= tol:
            stop = "grad_norm"
            break
        if it >= max_iter:
            stop = "max_iter"
            break
        H = hess(theta) if H is None else H
        delta = spd_solve(H, -g, fallback="jitter", what="the Newton system H Δ = −∇F")
        slope = g @ delta
        if slope >= 0:
            delta, slope = -g, -(g @ g)
        t, resolution = 1.0, 4.0 * np.finfo(float).eps * max(abs(F), 1.0)
        for _ in range(40):
            F_new, g_new, H_new = evaluate(theta + t * delta)
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
        F, g, H, it = F_new, g_new, H_new, it + 1
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


class LogisticRegression(LinearClassifierMixin, BaseEstimator):
    """Logistic regression (binary sigmoid, multinomial softmax for K > 2).

    Minimises C·Σᵢ sᵢ ℓᵢ + ½‖W‖² (intercept unpenalised), ℓ the cross-entropy; see the module
    docstring for the exact objective, gradient and Hessian. Prediction (``decision_function``,
    ``predict``, ``predict_proba``, ``predict_log_proba``) comes from
    :class:`~scratchlearn.linear_model._base.LinearClassifierMixin` with the logistic link.

    Dask
    ----
    ``fit`` also takes a Dask array or DataFrame X (dense blocks; y and sample_weight NumPy or
    Dask, realigned to X's row blocks). Each block computes where it lives the sums of
    :mod:`~scratchlearn.linear_model._logistic_blocks` at the current θ: Σ s̄ᵢℓᵢ, the gradient
    (K′d̃ numbers), for newton the Hessian ((K′d̃)² numbers) and, without penalty, the count of
    rows on the wrong side; the blocks' sums are added in a tree and the penalty is added once,
    on the client. A pass thus moves 8(1 + K′d̃ + (K′d̃)²) bytes per block (no Hessian for
    lbfgs), whatever n. Passes: one first for the classes and their weighted counts (from which
    Σs and "balanced" follow without another), one at θ₀, then one per evaluation of F:
    newton gets F, ∇F and ∇²F of a trial point in the same pass, so an iteration costs one pass
    plus one per halving of its step; lbfgs costs one per evaluation of its line search
    (mostly one per iteration; a tol below what F resolves, ~1e-9 here, makes the last line
    search fail, "stalled", after up to ~35 passes). penalty=None adds a pass at the end (the
    separation check).
    X, Y and s̄ are persisted in the workers for the fit when they fill at most half of their
    memory (read and checked once); larger data are re-read from the source at every pass.
    The iterates, ``n_iter_``, ``history_`` and ``stop_reason_`` are the in-memory ones up to
    the order of the sums. "auto" picks newton on Dask whenever K′d̃ <= 200 (passes, not
    flops, are the cost there); "gd" is refused (a pass per step, hundreds of steps).
    ``predict``, ``predict_proba``, ``predict_log_proba`` and ``decision_function`` of a Dask
    X return lazy Dask arrays: the in-memory method, run on each block.

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

    Notes
    -----
    Reproducibility: the gradient and Hessian are BLAS products, whose rounding depends on
    how many threads split them: ``coef_`` differed by 2e-16 relative (decision values by
    3e-16) between 1 and 2 OpenBLAS threads on 1000 × 40. Same thread count, same bits.

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = LogisticRegression().fit(X, y)
    >>> print(clf.classes_.tolist(), clf.coef_.shape, clf.solver_, clf.stop_reason_)
    [0, 1, 2] (3, 4) newton grad_norm
    >>> print(clf.predict_proba(X[:1]).round(3))
    [[0.982 0.018 0.   ]]
    >>> print(round(clf.score(X, y), 3))
    0.973
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
        t.update(X_types=["2darray", "sparse"], dask=True)
        return t

    # -- fitting ---------------------------------------------------------------------------
    def _sample_weights(self, y_idx, sample_weight, X):
        s = check_sample_weight(sample_weight, X).copy()
        if self.class_weight is None:
            return s
        N_k = np.bincount(y_idx, weights=s, minlength=len(self.classes_))  # weighted class sizes
        return s * class_weights(self.class_weight, self.classes_, N_k)[y_idx]

    def fit(self, X, y, sample_weight=None):
        """Fit Θ by the chosen solver; returns self. X may be a Dask array or DataFrame (y and
        sample_weight then NumPy or Dask): see "Dask" in the class docstring."""
        self._validate_params()
        fit = self._fit_dask if is_dask_collection(X) else self._fit_numpy
        it, hist, stop, criterion = fit(X, y, sample_weight)
        self._record_fit(np.array([it]), hist, stop, criterion=criterion, met={"grad_norm"})
        return self

    def _fit_numpy(self, X, y, sample_weight):
        X, y = self._validate_data(X, y, accept_sparse=["csr"], dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_idx = encode_classes(y, "LogisticRegression")
        K = len(self.classes_)
        s = self._sample_weights(y_idx, sample_weight, X)
        Kp = 1 if K == 2 else K
        Y = one_hot(y_idx, Kp)  # (n, K′)
        lam = 0.0 if self.penalty is None else 1.0 / (self.C * s.sum())
        s_bar = s / s.sum()
        solver = self._choose_solver(X, Kp, X.shape[1] + int(self.fit_intercept))
        if solver == "newton" and sp.issparse(X):
            X = X.toarray()
        return self._solve(solver, X, Y, s_bar, lam)

    def _fit_dask(self, X, y, sample_weight):
        """The Dask fit: one pass for the classes and their weighted counts, then Y and s̄
        derived per block, lazily, and the solver's passes (class docstring, "Dask")."""
        if self.solver == "gd":
            raise ValueError(
                "LogisticRegression(solver='gd') does not fit on Dask input (it needs a pass "
                "per gradient step, hundreds of them): use solver='newton' or 'lbfgs' (or "
                "'auto')."
            )
        if y is None:
            raise ValueError("LogisticRegression requires y to be passed, but it is None.")
        if isinstance(sample_weight, numbers.Number):
            sample_weight = np.full(X.shape[0], float(sample_weight))
        X, y, w = check_dask_data(self, X, y, sample_weight)
        if y.ndim != 1:
            raise ValueError(f"y must be 1-D on Dask input; got shape {y.shape}.")
        labels, counts = block_reduce(class_counts_block, y, w, combine=merge_class_counts)
        check_classification_targets(labels)
        self.classes_, _ = encode_classes(labels, "LogisticRegression")
        if not np.any(counts != 0):
            raise ValueError("Sample weights must contain at least one non-zero weight.")
        K = len(self.classes_)
        Kp = 1 if K == 2 else K
        cw = class_weights(self.class_weight, self.classes_, counts)
        total = float(cw @ counts)  # Σs = Σₖ class_weight[k]·Σ_{i∈k} wᵢ, with no pass
        Y, s_bar = dask_targets_and_weights(y, w, self.classes_, Kp, cw, total)
        X, Y, s_bar = persist_on_cluster(X, Y, s_bar)  # read and checked once if they fit
        lam = 0.0 if self.penalty is None else 1.0 / (self.C * total)
        solver = self._choose_solver(X, Kp, X.shape[1] + int(self.fit_intercept))
        return self._solve(solver, X, Y, s_bar, lam)

    def _solve(self, solver, X, Y, s_bar, lam):
        """Run ``solver`` from θ₀ on the data (NumPy or Dask); set the coefficients and return
        (n_iter, history, stop_reason, criterion) for the fit record."""
        Kp, d, fi = Y.shape[1], X.shape[1], self.fit_intercept
        d1 = d + int(fi)
        theta0 = self._start(Kp, d1)
        max_iter = self.max_iter
        if max_iter is None:
            max_iter = 1000 if solver == "gd" else 100
        if solver == "newton":
            out = self._fit_newton(X, Y, s_bar, lam, theta0, max_iter)
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
        if self.penalty is None and stop != "separable" and self._separated(X, Y, Theta):
            stop = "separable"
        self.coef_ = Theta[:, :d].copy()
        self.intercept_ = Theta[:, d].copy() if fi else np.zeros(Kp)
        self.solver_ = solver
        norm = "‖∇F‖₂ (standardised coordinates)" if solver == "gd" else "‖∇F‖∞"
        return it, hist, stop, f"{norm} <= tol={self.tol}"

    def _separated(self, X, Y, Theta):
        """Every row strictly on its side at Θ (one pass on Dask)."""
        static = (Theta.ravel(), self.fit_intercept)
        return block_reduce(unseparated_block, X, Y, static=static) == 0

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
        if is_dask_collection(X):  # passes are the cost: Newton ~7, L-BFGS ~20-100
            return "newton" if Kp * d1 <= 200 else "lbfgs"
        # a Newton step costs n(K′d̃)² for the Hessian, an L-BFGS evaluation n·K′d̃
        small = Kp * d1 <= 200 and X.shape[0] * (Kp * d1) ** 2 <= 5e7
        return "newton" if (small and not sp.issparse(X)) else "lbfgs"

    def _fit_lbfgs(self, X, Y, s_bar, lam, theta0, max_iter):
        """L-BFGS on F with gtol = tol and ftol = 0. With ftol = 0 its "cost_change" stop means
        an accepted step left F unchanged in floating point: recorded as "stalled"."""
        from ..optim import lbfgs

        fi, Kp, d = self.fit_intercept, Y.shape[1], X.shape[1]
        seen = {}  # θ → (F, ∇F): a failing line search may ask for a point twice

        def fun(theta):  # one pass over the data
            key = theta.tobytes()
            if key not in seen:
                F, g = block_reduce(loss_grad_block, X, Y, s_bar, static=(theta, fi))
                seen.clear()  # only the latest point: duplicates are consecutive
                seen[key] = _penalise(F, g, theta, lam, Kp, d)
            F, g = seen[key]
            return F, g.copy()

        res = lbfgs(fun, theta0, gtol=self.tol, ftol=0.0, max_iter=max_iter, warn=False)
        stop = "stalled" if res.stop_reason == "cost_change" else res.stop_reason
        return res.x, stop, res.n_iter, res.history

    def _fit_newton(self, X, Y, s_bar, lam, theta0, max_iter):
        fi, Kp = self.fit_intercept, Y.shape[1]
        d = X.shape[1]
        d1 = d + int(fi)
        mu = 1.0 if Kp > 1 else 0.0  # weight of ½‖Σₖ Θₖ‖² (multinomial identifiability)
        cols = d1 if self.penalty is None else d1 - d  # coordinates that need it
        sel = np.arange(d1 - cols, d1)
        count = self.penalty is None  # rows on the wrong side, for the separation stop
        one_pass = is_dask_collection(X)  # F, ∇F and ∇²F in one pass at each trial point
        last = {}  # θ and its count of unseparated rows, from the latest evaluation

        def augment(F, g, theta):
            F, g = _penalise(F, g, theta, lam, Kp, d)
            if mu:
                T = theta.reshape(Kp, d1)
                tot = T[:, sel].sum(axis=0)
                F += 0.5 * mu * tot @ tot
                g = g.reshape(Kp, d1)
                g[:, sel] += mu * tot
                g = g.ravel()
            return F, g

        def augment_hessian(H):
            H = _penalise_hessian(H, lam, Kp, d, d1)
            if mu:
                idx = np.arange(Kp)[:, None] * d1 + sel[None, :]  # (K, |sel|)
                for a in range(Kp):
                    for b in range(Kp):
                        H[idx[a], idx[b]] += mu
            return H

        def fun(theta):
            stat = newton_block if one_pass else loss_grad_block
            out = block_reduce(stat, X, Y, s_bar, static=(theta, fi, count))
            if count:
                last["theta"], last["unseparated"] = theta, out[2]
            F, g = augment(out[0], out[1], theta)
            return (F, g, augment_hessian(out[-1])) if one_pass else (F, g)

        def hess(theta):
            return augment_hessian(block_reduce(hessian_block, X, s_bar, static=(theta, fi, Kp)))

        def separated(theta):  # the count of the evaluation at θ (the accepted point)
            if np.array_equal(last.get("theta"), theta):
                return last["unseparated"] == 0
            return self._separated(X, Y, theta)

        return newton_solve(
            fun,
            None if one_pass else hess,
            theta0,
            tol=self.tol,
            max_iter=max_iter,
            stop_early=separated if count else None,
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
