"""The result record every optimiser in :mod:`scratchlearn.optim` returns.

Symbols: ``x`` the final point, ``J`` the objective, ``∇J`` its gradient, ``t`` the iteration.
"""

import numpy as np

from ..utils import Bunch

__all__ = ["OptimizeResult", "STOP_REASONS"]

#: Why an optimiser stopped.  Every value except ``"max_iter"`` counts as converged.
#:
#: - ``"cost_change"``: the change of the objective fell below ``tol`` (``ftol`` for L-BFGS);
#: - ``"grad_norm"``: the gradient norm fell below ``gtol``;
#: - ``"max_iter"``: the iteration budget ran out (a ``ConvergenceWarning`` is issued);
#: - ``"converged"``: a method-specific rule was met (simulated annealing: its schedule ended);
#: - ``"line_search"``: L-BFGS only: no step along the steepest-descent direction decreased the
#:   objective any further, which happens at the floating-point precision of the objective.
STOP_REASONS = ("cost_change", "grad_norm", "max_iter", "converged", "line_search")


class OptimizeResult(Bunch):
    """What a minimiser found, as a dict whose keys are also attributes.

    Attributes
    ----------
    x : ndarray
        The final point (for simulated annealing: the best point found).
    fun : float
        ``J(x)``.
    grad : ndarray or None
        ``∇J(x)``, or None for gradient-free methods.
    n_iter : int
        Iterations performed (epochs in mini-batch gradient descent).
    n_fev : int
        Objective evaluations (mini-batch evaluations count one each).
    stop_reason : str
        One of :data:`STOP_REASONS`.
    converged : bool
        False only when ``stop_reason == "max_iter"``.
    history : dict
        ``{"J": [...], "grad_norm": [...]}``, one entry for the start and one per iteration.
    """

    def __repr__(self):
        parts = []
        for key in ("fun", "n_iter", "n_fev", "stop_reason", "converged"):
            if key in self:
                parts.append(f"{key}={self[key]!r}")
        if "x" in self:
            x = np.asarray(self["x"])
            parts.insert(0, f"x={np.array2string(x, precision=6, threshold=8)}")
        return f"OptimizeResult({', '.join(parts)})"


def _make_result(x, J, grad, n_iter, n_fev, stop_reason, J_hist, g_hist, **extra):
    """Build an :class:`OptimizeResult` with the fields every optimiser shares."""
    res = OptimizeResult(
        x=x,
        fun=float(J),
        grad=grad,
        n_iter=int(n_iter),
        n_fev=int(n_fev),
        stop_reason=stop_reason,
        converged=stop_reason != "max_iter",
        history={"J": [float(v) for v in J_hist], "grad_norm": [float(v) for v in g_hist]},
    )
    res.update(extra)
    return res
