"""Simulated annealing: a gradient-free global minimiser of any ``J(x)``.

Symbols
-------
x, x′    current point and proposed neighbour;  x* the best point seen
J        objective (any callable returning a float; no gradient needed)
ΔE       J(x′) − J(x)
Tₖ       temperature of level k (n_per_temp moves per level, K = ⌈max_iter / n_per_temp⌉ levels)
σₖ       step scale of level k

Move and acceptance (Metropolis rule)::

    x′ = x + σₖ·ξ,   ξ ~ N(0, I),   σₖ = step_size·√(Tₖ/T0)
    accept x′ with probability min(1, exp(−ΔE/Tₖ))

Schedules: exponential ``Tₖ = T0·cooling_rateᵏ``; linear ``Tₖ = T0·(1 − k/K)``; logarithmic
``Tₖ = T0·ln 2 / ln(k + 2)``. With ``bounds``, a proposal that leaves the box is reflected back
into it. Shrinking σ with √T makes the early moves jump between basins and the late moves refine
inside one, so the same ``step_size`` serves the whole run.

Polish (``polish=True``): after the schedule, a compass search from x* (try ±h along every
coordinate, keep any improvement, halve h when none helps, stop when h < 1e-9·max(1, ‖x*‖)) takes
x* to the bottom of its basin. It is gradient-free and uses a few hundred evaluations, counted in
``n_fev``.
"""

import math
import numbers

import numpy as np

from ..utils import Interval, StrOptions, check_random_state, validate_params
from ._result import _make_result

__all__ = ["SimulatedAnnealing", "temperature_at", "compass_search"]


def temperature_at(k, n_levels, T0, schedule, cooling_rate):
    """Temperature Tₖ of level ``k`` (0-based) out of ``n_levels``."""
    if schedule == "exponential":
        return T0 * cooling_rate**k
    if schedule == "linear":
        return T0 * (1.0 - k / n_levels)
    return T0 * math.log(2.0) / math.log(k + 2.0)  # logarithmic


def _reflect(x, lo, hi):
    """Fold x back into [lo, hi] by reflection at the walls (repeatedly, for long steps)."""
    width = hi - lo
    z = np.mod(x - lo, 2.0 * width)
    return lo + np.where(z > width, 2.0 * width - z, z)


def compass_search(J, x, fx, *, h=0.1, xtol=1e-9, max_fev=2000, lo=None, hi=None):
    """Gradient-free local polish: coordinate moves of ±h, halving h when none improves J."""
    x = x.copy()
    n_fev = 0
    h_min = xtol * max(1.0, float(np.linalg.norm(x)))
    while h >= h_min and n_fev < max_fev:
        improved = False
        for i in range(x.size):
            for sign in (1.0, -1.0):
                z = x.copy()
                z[i] += sign * h
                if lo is not None:
                    z = np.clip(z, lo, hi)
                fz = float(J(z))
                n_fev += 1
                if fz < fx:
                    x, fx, improved = z, fz, True
                    break
        if not improved:
            h *= 0.5
    return x, fx, n_fev


class SimulatedAnnealing:
    """Metropolis simulated annealing with a temperature schedule and an optional local polish.

    Parameters
    ----------
    T0 : float, default=1.0
        Initial temperature, in the units of J (a typical uphill ΔE worth accepting early on).
    schedule : {"exponential", "linear", "logarithmic"}, default="exponential"
        Cooling schedule (see the module docstring); ``cooling_rate`` is used by "exponential".
    cooling_rate : float, default=0.95
        Factor in (0, 1) of the exponential schedule.
    step_size : float, default=1.0
        Scale of the Gaussian moves at temperature T0 (in the units of x).
    bounds : None or sequence of (low, high) pairs, default=None
        Box constraints, one pair per coordinate (or a single pair for all).
    max_iter : int, default=10000
        Number of proposed moves (one evaluation of J each) of the annealing phase.
    n_per_temp : int, default=100
        Moves per temperature level.
    polish : bool, default=True
        Finish with a compass search from the best point (extra evaluations, counted in n_fev).
    random_state : None, int or numpy.random.Generator

    Notes
    -----
    The result's ``x``/``fun`` are the best point found (after polish), ``n_iter`` the number of
    moves, ``stop_reason`` is "converged" when the schedule ran to its end, ``grad`` is None,
    ``history`` holds the best J and 0.0 per level (no gradient), and ``trace`` holds arrays
    ``T``, ``J`` (current J after each move) and ``accepted`` (bool per move).

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.optim import SimulatedAnnealing
    >>> def fun(x):
    ...     return float((x[0] - 1) ** 2 + 10 * (1 - np.cos(2 * np.pi * (x[0] - 1))))
    >>> sa = SimulatedAnnealing(T0=10.0, max_iter=2000, bounds=(-5, 5), random_state=0)
    >>> res = sa.minimize(fun, np.array([4.0]))
    >>> print(np.round(res.x, 3), round(res.fun, 4), res.stop_reason)
    [1.] 0.0 converged
    """

    _parameter_constraints = {
        "T0": [Interval(numbers.Real, 0, None, closed="neither")],
        "schedule": [StrOptions({"exponential", "linear", "logarithmic"})],
        "cooling_rate": [Interval(numbers.Real, 0, 1, closed="neither")],
        "step_size": [Interval(numbers.Real, 0, None, closed="neither")],
        "bounds": ["array-like", None],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_per_temp": [Interval(numbers.Integral, 1, None, closed="left")],
        "polish": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        T0=1.0,
        schedule="exponential",
        cooling_rate=0.95,
        step_size=1.0,
        bounds=None,
        max_iter=10000,
        n_per_temp=100,
        polish=True,
        random_state=None,
    ):
        self.T0 = T0
        self.schedule = schedule
        self.cooling_rate = cooling_rate
        self.step_size = step_size
        self.bounds = bounds
        self.max_iter = max_iter
        self.n_per_temp = n_per_temp
        self.polish = polish
        self.random_state = random_state

    def get_params(self, deep=True):
        return {k: getattr(self, k) for k in self._parameter_constraints}

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"SimulatedAnnealing({inner})"

    def _box(self, d):
        if self.bounds is None:
            return None, None
        b = np.asarray(self.bounds, dtype=float)
        if b.shape == (2,):
            b = np.tile(b, (d, 1))
        if b.shape != (d, 2) or not np.all(np.isfinite(b)) or np.any(b[:, 0] >= b[:, 1]):
            raise ValueError(
                f"SimulatedAnnealing: bounds must be {d} finite (low, high) pairs with "
                f"low < high; got shape {b.shape}."
            )
        return b[:, 0], b[:, 1]

    def minimize(self, fun, x0):
        """Minimise ``fun(x) -> float`` from ``x0``; returns an OptimizeResult with ``trace``."""
        validate_params(self._parameter_constraints, self.get_params(), "SimulatedAnnealing")
        rng = check_random_state(self.random_state)
        x = np.array(x0, dtype=float).ravel()
        shape = np.shape(x0)
        lo, hi = self._box(x.size)
        if lo is not None:
            x = np.clip(x, lo, hi)

        def J(z):
            return float(fun(z.reshape(shape)))

        Ex = J(x)
        if not np.isfinite(Ex):
            raise ValueError(f"SimulatedAnnealing: J(x0) is not finite ({Ex}).")
        best_x, best_E = x.copy(), Ex
        n_levels = -(-self.max_iter // self.n_per_temp)
        T_tr = np.empty(self.max_iter)
        E_tr = np.empty(self.max_iter)
        acc_tr = np.zeros(self.max_iter, dtype=bool)
        J_hist, g_hist = [best_E], [0.0]
        t = 0
        for k in range(n_levels):
            T = temperature_at(k, n_levels, self.T0, self.schedule, self.cooling_rate)
            sigma = self.step_size * math.sqrt(T / self.T0)
            for _ in range(min(self.n_per_temp, self.max_iter - t)):
                x_new = x + sigma * rng.standard_normal(x.size)
                if lo is not None:
                    x_new = _reflect(x_new, lo, hi)
                E_new = J(x_new)
                dE = E_new - Ex
                # Metropolis: downhill always, uphill with probability exp(−ΔE/T)
                if np.isfinite(E_new) and (dE <= 0 or rng.random() < math.exp(-dE / T)):
                    x, Ex = x_new, E_new
                    acc_tr[t] = True
                    if Ex < best_E:
                        best_x, best_E = x.copy(), Ex
                T_tr[t], E_tr[t] = T, Ex
                t += 1
            J_hist.append(best_E)
            g_hist.append(0.0)
        n_fev = 1 + t
        if self.polish:
            best_x, best_E, n_polish = compass_search(
                J, best_x, best_E, h=0.1 * self.step_size, lo=lo, hi=hi
            )
            n_fev += n_polish
            J_hist.append(best_E)
            g_hist.append(0.0)
        trace = {"T": T_tr, "objective": E_tr, "accepted": acc_tr}
        return _make_result(
            best_x.reshape(shape), best_E, None, t, n_fev, "converged", J_hist, g_hist, trace=trace
        )
