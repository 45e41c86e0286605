"""Demo story: simulated annealing escapes the local minima of Rastrigin; gradient descent cannot.

Rastrigin in 2-D, ``J(x) = 20 + Σᵢ (xᵢ² − 10 cos 2πxᵢ)``, has a local minimum near every integer
point and its global minimum J = 0 at the origin.
"""

import numpy as np

from ._annealing import SimulatedAnnealing
from ._gradient_descent import GradientDescent

__all__ = ["showcase", "rastrigin", "rastrigin_and_grad"]


def rastrigin(x):
    """J(x) = 10d + Σᵢ (xᵢ² − 10 cos 2πxᵢ)."""
    x = np.asarray(x, dtype=float)
    return float(10.0 * x.size + np.sum(x * x - 10.0 * np.cos(2.0 * np.pi * x)))


def rastrigin_and_grad(x):
    """(J, ∇J) with ∂J/∂xᵢ = 2xᵢ + 20π sin 2πxᵢ."""
    x = np.asarray(x, dtype=float)
    return rastrigin(x), 2.0 * x + 20.0 * np.pi * np.sin(2.0 * np.pi * x)


def showcase(random_state=7) -> str:
    """Run both optimisers from the same random start on [-5.12, 5.12]² and describe the result."""
    rng = np.random.default_rng(random_state)
    x0 = rng.uniform(-5.12, 5.12, size=2)
    gd = GradientDescent(learning_rate=1e-3, max_iter=5000, tol=1e-12).minimize(
        rastrigin_and_grad, x0
    )
    sa = SimulatedAnnealing(
        T0=10.0,
        step_size=2.0,
        bounds=(-5.12, 5.12),
        max_iter=5000,
        n_per_temp=50,
        random_state=random_state,
    ).minimize(rastrigin, x0)
    acc = sa.trace["accepted"].mean()
    lines = [
        "Global optimisation: 2-D Rastrigin, J(x) = 20 + Σ(xᵢ² − 10cos 2πxᵢ), minimum 0 at (0, 0)",
        f"  random start          x0 = ({x0[0]:+.3f}, {x0[1]:+.3f})   J = {rastrigin(x0):.3f}",
        f"  gradient descent      x  = ({gd.x[0]:+.3f}, {gd.x[1]:+.3f})   J = {gd.fun:.3f}"
        f"   ({gd.n_fev} evaluations, stop: {gd.stop_reason}) -> stuck in a local minimum",
        f"  simulated annealing   x  = ({sa.x[0]:+.1e}, {sa.x[1]:+.1e})   J = {sa.fun:.1e}"
        f"   ({sa.n_fev} evaluations, {acc:.0%} of moves accepted, T: 10 -> "
        f"{sa.trace['T'][-1]:.2g})",
    ]
    return "\n".join(lines)
