"""Gradient descent: batch, mini-batch and stochastic, with momentum and step-size schedules.

Symbols
-------
θ      parameters (any shape; ``x0`` fixes it)
J(θ)   objective, ∇J(θ) its gradient
ηₜ     step size at iteration t (the learning rate after the schedule)
μ      momentum coefficient, v the velocity
b      mini-batch size, n number of samples, idx the rows of one mini-batch

Update (batch mode, no momentum)::

    θₜ₊₁ = θₜ − ηₜ ∇J(θₜ)

With momentum (heavy ball, velocity accumulating gradients)::

    vₜ₊₁ = μ vₜ + ∇J(θₜ)
    θₜ₊₁ = θₜ − ηₜ vₜ₊₁                      (classical)
    θₜ₊₁ = θₜ − ηₜ (∇J(θₜ) + μ vₜ₊₁)         (Nesterov, look-ahead written at θₜ)

Schedules: constant ``ηₜ = η``; invscaling ``ηₜ = η / (t + 1)^power_t``; exponential
``ηₜ = η · decay_rateᵗ``. Stopping rules, checked after every iteration in this order:
``|J(θₜ) − J(θₜ₋₁)| ≤ tol`` ("cost_change"), ``‖∇J(θₜ)‖₂ ≤ gtol`` ("grad_norm"),
``t = max_iter`` ("max_iter", with a ConvergenceWarning).
"""

import numbers

import numpy as np

from ..exceptions import DivergenceError, InvalidParameterError
from ..utils import Interval, StrOptions, check_random_state, validate_params
from ._result import _make_result, warn_unless_converged

__all__ = ["GradientDescent", "learning_rate_at"]


def learning_rate_at(t, learning_rate, schedule, power_t=0.5, decay_rate=0.99):
    """Step size ηₜ of iteration ``t`` (0-based) under ``schedule``."""
    if schedule == "constant":
        return learning_rate
    if schedule == "invscaling":
        return learning_rate / (t + 1.0) ** power_t
    return learning_rate * decay_rate**t  # exponential


def _params_repr(obj, names):
    return f"{type(obj).__name__}({', '.join(f'{k}={getattr(obj, k)!r}' for k in names)})"


class GradientDescent:
    """First-order minimiser of ``J(θ)``: batch, mini-batch (``batch_size=b``) or stochastic (b=1).

    Parameters
    ----------
    learning_rate : float, default=0.01
        Initial step size η > 0.
    schedule : {"constant", "invscaling", "exponential"}, default="constant"
        How ηₜ changes with the iteration (epoch in mini-batch mode) t.
    power_t : float, default=0.5
        Exponent of the invscaling schedule.
    decay_rate : float, default=0.99
        Factor of the exponential schedule, in (0, 1].
    momentum : float, default=0.0
        μ in [0, 1).
    nesterov : bool, default=False
        Use Nesterov's look-ahead form of momentum (only matters when momentum > 0).
    batch_size : int or None, default=None
        None: batch mode, ``fun(θ) -> (J, ∇J)``. An int b >= 1: ``fun(θ, idx) -> (J, ∇J)`` on the
        rows ``idx`` (an int array of at most b indices), and ``fun(θ, None)`` is the full
        objective, evaluated once per epoch for the history and the stopping rules.
    shuffle : bool, default=True
        Mini-batch mode: visit the rows in a fresh random order every epoch.
    tol : float, default=1e-6
        Cost-change tolerance.
    gtol : float, default=1e-5
        Gradient-norm tolerance (Euclidean norm).
    max_iter : int, default=1000
        Iteration budget (epochs in mini-batch mode).
    random_state : None, int or numpy.random.Generator
        Only used to shuffle mini-batches.

    Notes
    -----
    In mini-batch mode the schedule advances once per epoch, and the momentum velocity carries
    over from one mini-batch to the next.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.optim import GradientDescent
    >>> target = np.array([1.0, -2.0])
    >>> def fun(theta):
    ...     return np.sum((theta - target) ** 2), 2.0 * (theta - target)
    >>> res = GradientDescent(learning_rate=0.1, tol=0.0).minimize(fun, np.zeros(2))
    >>> print(np.round(res.x, 3), res.stop_reason, res.n_iter)
    [ 1. -2.] grad_norm 59
    """

    _parameter_constraints = {
        "learning_rate": [Interval(numbers.Real, 0, None, closed="neither")],
        "schedule": [StrOptions({"constant", "invscaling", "exponential"})],
        "power_t": [Interval(numbers.Real, 0, None, closed="left")],
        "decay_rate": [Interval(numbers.Real, 0, 1, closed="right")],
        "momentum": [Interval(numbers.Real, 0, 1, closed="left")],
        "nesterov": ["boolean"],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "shuffle": ["boolean"],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "gtol": [Interval(numbers.Real, 0, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        learning_rate=0.01,
        schedule="constant",
        power_t=0.5,
        decay_rate=0.99,
        momentum=0.0,
        nesterov=False,
        batch_size=None,
        shuffle=True,
        tol=1e-6,
        gtol=1e-5,
        max_iter=1000,
        random_state=None,
    ):
        self.learning_rate = learning_rate
        self.schedule = schedule
        self.power_t = power_t
        self.decay_rate = decay_rate
        self.momentum = momentum
        self.nesterov = nesterov
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.tol = tol
        self.gtol = gtol
        self.max_iter = max_iter
        self.random_state = random_state

    def get_params(self, deep=True):
        return {k: getattr(self, k) for k in self._parameter_constraints}

    def __repr__(self):
        return _params_repr(self, self._parameter_constraints)

    def _eta(self, t):
        return learning_rate_at(t, self.learning_rate, self.schedule, self.power_t, self.decay_rate)

    def _step(self, theta, g, v, eta):
        """One momentum update; returns the new θ and v (v is None when μ = 0)."""
        if self.momentum == 0.0:
            return theta - eta * g, None
        v = self.momentum * v + g
        direction = g + self.momentum * v if self.nesterov else v
        return theta - eta * direction, v

    def minimize(self, fun, x0, *, n_samples=None, warn=True):
        """Minimise ``fun`` from ``x0``; returns an :class:`OptimizeResult`.

        Raises
        ------
        DivergenceError
            When J becomes NaN or infinite (the step size is too large).
        """
        validate_params(self._parameter_constraints, self.get_params(), "GradientDescent")
        if self.batch_size is not None and n_samples is None:
            raise InvalidParameterError(
                "GradientDescent with batch_size set needs n_samples in minimize()."
            )
        theta = np.array(x0, dtype=float)  # copy: the caller's x0 is never modified
        if self.batch_size is None:
            res = self._minimize_batch(fun, theta)
        else:
            res = self._minimize_minibatch(fun, theta, int(n_samples))
        if warn:  # estimators pass warn=False and record the fit themselves
            criterion = f"|ΔJ| <= tol={self.tol} or ‖∇J‖ <= gtol={self.gtol}"
            advice = f"raise max_iter={self.max_iter}, or the learning_rate if J still falls"
            warn_unless_converged(res, "GradientDescent", criterion, advice, 2)
        return res

    def _diverged(self, J, t):
        if not np.isfinite(J):
            raise DivergenceError(
                f"GradientDescent: the objective diverged at iteration {t} (J = {J}). "
                f"Try a smaller learning_rate (currently {self.learning_rate})."
            )

    def _stop(self, J_prev, J, gnorm):
        if abs(J - J_prev) <= self.tol:
            return "cost_change"
        if gnorm <= self.gtol:
            return "grad_norm"
        return None

    def _minimize_batch(self, fun, theta):
        J, g = fun(theta)
        J, g = float(J), np.asarray(g, dtype=float)
        self._diverged(J, 0)
        J_hist, g_hist = [J], [float(np.linalg.norm(g))]
        n_fev, v = 1, np.zeros_like(theta)
        stop, t = ("grad_norm" if g_hist[0] <= self.gtol else None), 0
        while stop is None and t < self.max_iter:
            theta, v = self._step(theta, g, v, self._eta(t))  # θₜ₊₁ = θₜ − ηₜ∇J(θₜ)
            t += 1
            J_prev = J
            J, g = fun(theta)
            J, g = float(J), np.asarray(g, dtype=float)
            n_fev += 1
            self._diverged(J, t)
            J_hist.append(J)
            g_hist.append(float(np.linalg.norm(g)))
            stop = self._stop(J_prev, J, g_hist[-1])
        return self._finish(theta, J, g, t, n_fev, stop, J_hist, g_hist)

    def _minimize_minibatch(self, fun, theta, n):
        rng = check_random_state(self.random_state)
        b = min(self.batch_size, n)
        J, g = fun(theta, None)
        J, g = float(J), np.asarray(g, dtype=float)
        self._diverged(J, 0)
        J_hist, g_hist = [J], [float(np.linalg.norm(g))]
        n_fev, v = 1, np.zeros_like(theta)
        stop, t = ("grad_norm" if g_hist[0] <= self.gtol else None), 0
        while stop is None and t < self.max_iter:
            eta = self._eta(t)
            order = rng.permutation(n) if self.shuffle else np.arange(n)
            for start in range(0, n, b):
                idx = order[start : start + b]
                J_b, g_b = fun(theta, idx)
                n_fev += 1
                self._diverged(float(J_b), t + 1)
                theta, v = self._step(theta, np.asarray(g_b, dtype=float), v, eta)
            t += 1
            J_prev = J
            J, g = fun(theta, None)  # full objective once per epoch
            J, g = float(J), np.asarray(g, dtype=float)
            n_fev += 1
            self._diverged(J, t)
            J_hist.append(J)
            g_hist.append(float(np.linalg.norm(g)))
            stop = self._stop(J_prev, J, g_hist[-1])
        return self._finish(theta, J, g, t, n_fev, stop, J_hist, g_hist)

    def _finish(self, theta, J, g, t, n_fev, stop, J_hist, g_hist):
        if stop is None:
            stop = "max_iter"
        return _make_result(theta, J, g, t, n_fev, stop, J_hist, g_hist)
