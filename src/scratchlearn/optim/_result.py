"""The result record every optimiser in :mod:`scratchlearn.optim` returns.

Symbols: ``x`` the final point, ``J`` the objective, ``∇J`` its gradient, ``t`` the iteration.
"""

import numpy as np

from ..utils import CONVERGED, STOP_REASONS, Bunch

__all__ = ["OptimizeResult", "STOP_REASONS"]

#: Why an optimiser stopped: the library's one vocabulary (see
#: :data:`scratchlearn.utils.STOP_REASONS`). The optimisers use "grad_norm", "cost_change",
#: "max_iter", "converged" (simulated annealing: its schedule ended) and "stalled" (L-BFGS: not
#: even a steepest-descent step decreased the objective, before ``gtol`` was met).


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
        True when the stopping criterion was met (``stop_reason`` in ``CONVERGED``).
    history : dict
        ``{"objective": [...], "grad_norm": [...]}``, one entry for the start and one per iteration.
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
        converged=stop_reason in CONVERGED,
        history={
            "objective": [float(v) for v in J_hist],
            "grad_norm": [float(v) for v in g_hist],
        },
    )
    res.update(extra)
    return res


def warn_unless_converged(res, who, criterion, advice, stacklevel):
    """The optimisers' side of the warning policy: a ConvergenceWarning whenever the run ended
    without meeting its criterion (callers that record the fit themselves pass warn=False)."""
    if res.converged:
        return
    import warnings

    from ..exceptions import ConvergenceWarning

    warnings.warn(
        f"{who} stopped on {res.stop_reason!r} before {criterion} "
        f"(final ‖∇J‖ = {res.history['grad_norm'][-1]:.3g}): {STOP_REASONS[res.stop_reason]}; "
        f"{advice}.",
        ConvergenceWarning,
        stacklevel=stacklevel + 1,
    )
