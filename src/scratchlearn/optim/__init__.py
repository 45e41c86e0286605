"""Optimisers: gradient descent, L-BFGS, simulated annealing, and a gradient checker.

Every minimiser returns an :class:`OptimizeResult` (``x``, ``fun``, ``grad``, ``n_iter``,
``n_fev``, ``stop_reason``, ``converged``, ``history``). Gradient-based ones take
``fun(x) -> (J, ∇J)``; simulated annealing takes ``fun(x) -> J``.
"""

from ._annealing import SimulatedAnnealing, compass_search, temperature_at
from ._check import check_gradient, numerical_gradient
from ._gradient_descent import GradientDescent, learning_rate_at
from ._lbfgs import LBFGS, lbfgs, line_search_wolfe
from ._result import STOP_REASONS, OptimizeResult

__all__ = [
    "GradientDescent",
    "LBFGS",
    "OptimizeResult",
    "SimulatedAnnealing",
    "STOP_REASONS",
    "check_gradient",
    "compass_search",
    "lbfgs",
    "learning_rate_at",
    "line_search_wolfe",
    "numerical_gradient",
    "temperature_at",
]
