"""ListNet: listwise learning to rank by the top-one cross-entropy (Cao et al. 2007).

Symbols
-------
X (n, d), y (n,)   rows and their relevance labels; Q queries
w (d,)             weights; scores s = Xw (no intercept: it cancels in every softmax)
Pⱼ                 top-one probability of row j in its query q: exp(sⱼ) / Σ_{k∈q} exp(sₖ)
Tⱼ                 target distribution from the labels: exp(yⱼ)/Σ_{k∈q} exp(yₖ) ("softmax")
                   or yⱼ/Σ_{k∈q} yₖ ("normalized")
α                  L2 penalty

Objective and gradient (Σ_{j∈q} Tⱼ = 1 gives ∂L_q/∂sⱼ = Pⱼ − Tⱼ)::

    J(w)  = (1/Q) Σ_q L_q(w) + (α/2)‖w‖²,    L_q = −Σ_{j∈q} Tⱼ log Pⱼ
    ∇J(w) = (1/Q) Xᵀ(P − T) + α w

Vectorised over queries: the rows are sorted by query once, and the per-query sums (the
log-sum-exp of the scores, the label sums) are segment sums ``np.add.reduceat`` over the
contiguous blocks, with the block maximum subtracted first (a stable log-softmax).

Hessian (the softmax cross-entropy's Hessian in s_q is diag(P_q) − P_qP_qᵀ)::

    ∇²J(w) = (1/Q) Σ_q X_qᵀ(diag(P_q) − P_qP_qᵀ)X_q + αI = (1/Q)(Xᵀdiag(P)X − MᵀM) + αI,
    M (Q, d): M_q = Σ_{j∈q} Pⱼ xⱼ, the P-weighted sum of each query's rows.

``solver="newton"`` (default): Newton's method with backtracking, w ← w + tΔ, ∇²J(w)Δ = −∇J(w)
(a Cholesky solve, d × d), t the first of 1, ½, ¼, … with J(w + tΔ) ≤ J(w) + c·t·∇JᵀΔ (Armijo,
c = 10⁻⁴). J is convex and smooth with a Lipschitz Hessian, so the steps reach t = 1 and
converge quadratically near the minimum: a handful of iterations, each O(nd²) — the method for
the few features (d ≲ 1000) of ranking data.

``solver="gd"``, the step size: diag(P) − PPᵀ ≼ ½I (Böhning 1992), so ∇J is L-Lipschitz with
L ≤ ‖X‖₂²/(2Q) + α, and J is α-strongly convex. ``learning_rate="auto"`` takes η = 1/L with
Nesterov's momentum β = (√κ − 1)/(√κ + 1), κ = L/α (β = 0 when α = 0): O(√κ log 1/ε) steps
instead of plain gradient descent's O(κ log 1/ε). A float η runs plain gradient descent
θₜ₊₁ = θₜ − η∇J(θₜ), which decreases J at every step for η ≤ 1/L.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..utils._param_validation import Interval, StrOptions
from ._base import BaseRanker

__all__ = [
    "ListNet",
    "listnet_hessian",
    "listnet_loss_grad",
    "newton_listnet",
    "segment_log_softmax",
    "top_one_targets",
]


def segment_log_softmax(s, starts, sizes=None):
    """log Pⱼ = sⱼ − log Σ_{k∈q} exp(sₖ) over contiguous blocks beginning at ``starts``.

    The block maximum m_q is subtracted before exponentiating: log Σ exp(sₖ) = m + log Σ
    exp(sₖ − m), with every exponent ≤ 0. ``sizes`` (the block lengths) is derived from
    ``starts`` when not given; a fit passes it once for all its iterations.
    """
    if sizes is None:
        sizes = np.diff(np.r_[starts, len(s)])
    shifted = s - np.maximum.reduceat(s, starts).repeat(sizes)  # (n,) sⱼ − m_q, all ≤ 0
    log_z = np.log(np.add.reduceat(np.exp(shifted), starts))  # (Q,)
    return shifted - log_z.repeat(sizes)


def top_one_targets(y, starts, target):
    """The target distribution T per block: softmax of y, or y over its block sum.

    "normalized" needs y ≥ 0 (checked by the caller); a block whose labels are all zero has no
    preferred row and gets the uniform distribution (as the softmax target would).
    """
    sizes = np.diff(np.r_[starts, len(y)])
    if target == "softmax":
        return np.exp(segment_log_softmax(y, starts, sizes))
    totals = np.add.reduceat(y, starts)  # (Q,)
    T = y / np.repeat(np.where(totals > 0, totals, 1.0), sizes)
    return np.where(np.repeat(totals > 0, sizes), T, 1.0 / np.repeat(sizes, sizes))


def listnet_loss_grad(w, X, T, starts, alpha, sizes=None, *, return_P=False):
    """(J, ∇J) of the module docstring on rows sorted by query (blocks begin at ``starts``,
    of lengths ``sizes``, derived from ``starts`` when not given); with ``return_P``,
    (J, ∇J, P) for the Hessian."""
    Q = len(starts)
    s = X @ w  # (n,)
    log_P = segment_log_softmax(s, starts, sizes)
    P = np.exp(log_P)  # (n,) top-one probabilities
    J = -(T @ log_P) / Q + 0.5 * alpha * (w @ w)
    grad = X.T @ (P - T) / Q + alpha * w  # (d,)
    return (J, grad, P) if return_P else (J, grad)


def listnet_hessian(X, P, starts, alpha):
    """∇²J = (1/Q)(Xᵀdiag(P)X − MᵀM) + αI, M_q = Σ_{j∈q} Pⱼ xⱼ (module docstring)."""
    Q, d = len(starts), X.shape[1]
    XP = X * P[:, None]  # (n, d) rows scaled by their top-one probability
    M = np.add.reduceat(XP, starts)  # (Q, d)
    H = (X.T @ XP - M.T @ M) / Q  # (d, d)
    H[np.diag_indices(d)] += alpha
    return H


def newton_listnet(X, T, starts, sizes, alpha, *, tol, max_iter, c=1e-4):
    """Minimise J by Newton's method with Armijo backtracking from w = 0 (module docstring).

    Returns (w, n_iter, history, stop): history the lists "objective" J and "grad_norm" ‖∇J‖₂
    from w = 0 on; stop "grad_norm" (‖∇J‖₂ ≤ tol), "stalled" (no step t ≥ 2⁻⁵⁰ decreases J:
    J is flat to rounding along Δ) or "max_iter".
    """
    from ..utils._linalg import spd_solve

    w = np.zeros(X.shape[1])
    J, g, P = listnet_loss_grad(w, X, T, starts, alpha, sizes, return_P=True)
    history = {"objective": [J], "grad_norm": [float(np.linalg.norm(g))]}
    for it in range(max_iter):
        if history["grad_norm"][-1] <= tol:
            return w, it, history, "grad_norm"
        H = listnet_hessian(X, P, starts, alpha)
        delta = spd_solve(H, -g, fallback="lstsq", what="ListNet's Newton system ∇²J Δ = −∇J")
        slope = g @ delta  # ∇JᵀΔ < 0: Δ is a descent direction (H positive semi-definite)
        t, accepted = 1.0, False
        while not accepted and t >= 2.0**-50:
            w_new = w + t * delta
            J_new, g_new, P_new = listnet_loss_grad(
                w_new, X, T, starts, alpha, sizes, return_P=True
            )
            accepted = J_new <= J + c * t * slope and J_new < J
            t *= 0.5
        if not accepted:
            return w, it, history, "stalled"
        w, J, g, P = w_new, J_new, g_new, P_new
        history["objective"].append(J)
        history["grad_norm"].append(float(np.linalg.norm(g)))
    stop = "grad_norm" if history["grad_norm"][-1] <= tol else "max_iter"
    return w, max_iter, history, stop


class ListNet(BaseRanker):
    """Listwise ranking: linear scores trained by the top-one cross-entropy of each query.

    .. math::

        J(w) = \\frac{1}{Q}\\sum_q \\Big(-\\sum_{j \\in q} T_j \\log
        \\frac{e^{x_j^T w}}{\\sum_{k \\in q} e^{x_k^T w}}\\Big) + \\frac{\\alpha}{2}\\|w\\|^2

    minimised from w = 0 (deterministic) by Newton's method with backtracking (default) or by
    full-batch :class:`scratchlearn.optim.GradientDescent`. ``target="softmax"``:
    Tⱼ = exp(yⱼ)/Σₖ exp(yₖ) (Cao et al. 2007), unchanged when a constant is added to a
    query's labels; ``target="normalized"``: Tⱼ = yⱼ/Σₖ yₖ (labels must be ≥ 0; an all-zero
    query gets the uniform target).

    Parameters
    ----------
    solver : {"newton", "gd"}, default="newton"
        "newton": Newton steps ∇²J Δ = −∇J with Armijo backtracking, a handful of iterations
        on d features (each O(nd² + d³)); "gd": gradient descent with ``learning_rate``.
    learning_rate : float or "auto", default="auto"
        ``solver="gd"`` only. Step size η; "auto" is 1/L with L = ‖X‖₂²/(2Q) + α and
        Nesterov's momentum from κ = L/α (module docstring); a float runs plain gradient
        descent with that step.
    max_iter : int, default=1000
        Newton or gradient steps.
    alpha : float, default=1e-3
        L2 penalty (α/2)‖w‖².
    target : {"softmax", "normalized"}, default="softmax"
    tol : float, default=1e-6
        Stop when ‖∇J(w)‖₂ <= tol.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    n_iter_, history_, stop_reason_ :
        ``history_`` holds J ("objective") and ‖∇J‖₂ ("grad_norm") from w = 0 on, one entry
        per step; ``stop_reason_`` is "grad_norm", "stalled" (no step decreases J in floating
        point) or "max_iter" (with a ConvergenceWarning).

    Examples
    --------
    >>> from scratchlearn.datasets import load_modechoice
    >>> from scratchlearn.preprocessing import StandardScaler
    >>> from scratchlearn.ranking import ListNet
    >>> data = load_modechoice()
    >>> X, y, qid = StandardScaler().fit_transform(data.data), data.target, data.qid
    >>> ranker = ListNet(alpha=0.01).fit(X, y, qid=qid)
    >>> print(ranker.coef_.shape, ranker.stop_reason_)
    (7,) grad_norm
    >>> print(round(ranker.score(X, y, qid=qid), 3))
    0.86
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_features_in_": ("int", ()), "coef_": ("float64", ("n_features_in_",))}

    _parameter_constraints = {
        "solver": [StrOptions({"newton", "gd"})],
        "learning_rate": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "target": [StrOptions({"softmax", "normalized"})],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        solver="newton",
        learning_rate="auto",
        max_iter=1000,
        alpha=1e-3,
        target="softmax",
        tol=1e-6,
    ):
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.alpha = alpha
        self.target = target
        self.tol = tol

    def _step_and_momentum(self, Xs, Q):
        """(η, β): the given step without momentum, or 1/L and Nesterov's β for "auto"."""
        if self.learning_rate != "auto":
            return self.learning_rate, 0.0
        L = np.linalg.norm(Xs, 2) ** 2 / (2 * Q) + self.alpha  # ‖X‖₂: largest singular value
        if L == 0:  # X = 0 and α = 0: J is constant, any step leaves w = 0
            return 1.0, 0.0
        if self.alpha == 0:
            return 1.0 / L, 0.0
        root_kappa = np.sqrt(L / self.alpha)
        return 1.0 / L, (root_kappa - 1.0) / (root_kappa + 1.0)

    def fit(self, X, y, qid=None):
        """Minimise J(w) from w = 0 by Newton's method or gradient descent; returns self."""
        from ..optim import GradientDescent

        self._validate_params()
        X, y, queries = self._validate_ranking_data(X, y, qid)
        if self.target == "normalized" and np.any(y < 0):
            raise ValueError(
                "ListNet(target='normalized') needs non-negative relevance labels y; "
                f"got a minimum of {y.min()}."
            )
        # rows sorted by query (a copy), and the query blocks' first positions and lengths
        Xs, starts, sizes = X[queries.order], queries.starts, queries.sizes
        T = top_one_targets(y[queries.order], starts, self.target)
        if self.solver == "newton":
            self.coef_, n_iter, history, stop = newton_listnet(
                Xs, T, starts, sizes, self.alpha, tol=self.tol, max_iter=self.max_iter
            )
            self._record_fit(
                n_iter, history, stop, criterion=f"‖∇J‖₂ <= tol={self.tol}", met={"grad_norm"}
            )
            return self
        eta, beta = self._step_and_momentum(Xs, len(starts))
        # tol=0: the cost-change rule fires only when J is exactly unchanged (reported "stalled")
        gd = GradientDescent(
            learning_rate=eta,
            momentum=beta,
            nesterov=True,
            tol=0.0,
            gtol=self.tol,
            max_iter=self.max_iter,
        )
        res = gd.minimize(
            lambda w: listnet_loss_grad(w, Xs, T, starts, self.alpha, sizes),
            np.zeros(X.shape[1]),
            warn=False,
        )
        self.coef_ = res.x
        stop = "stalled" if res.stop_reason == "cost_change" else res.stop_reason
        self._record_fit(
            res.n_iter, res.history, stop, criterion=f"‖∇J‖₂ <= tol={self.tol}", met={"grad_norm"}
        )
        return self
