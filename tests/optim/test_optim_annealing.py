"""SimulatedAnnealing: global minima of Rastrigin and Ackley, schedules, bounds, trace."""

import numpy as np
import pytest
from scipy.optimize import dual_annealing

from scratchlearn.exceptions import InvalidParameterError
from scratchlearn.optim import SimulatedAnnealing, check_gradient, temperature_at
from scratchlearn.optim._showcase import rastrigin, rastrigin_and_grad, showcase


def ackley(x):
    x = np.asarray(x, dtype=float)
    r = np.sqrt(np.mean(x * x))
    return float(-20 * np.exp(-0.2 * r) - np.exp(np.mean(np.cos(2 * np.pi * x))) + np.e + 20)


# Budget: 5000 annealing moves + the compass polish (~160 evaluations) ≈ 5,170 evaluations/run.
# Measured on these 20 seeds: 20/20 runs reach ‖x‖ ≤ 1e-2 and J ≤ 1e-2 on both functions.
CASES = [("rastrigin", rastrigin, 5.12, 10.0), ("ackley", ackley, 5.0, 3.0)]


@pytest.mark.parametrize("name,f,B,T0", CASES)
def test_global_minimum_20_seeds(name, f, B, T0):
    hits, fevs = 0, []
    for seed in range(20):
        x0 = np.random.default_rng(1000 + seed).uniform(-B, B, size=2)
        sa = SimulatedAnnealing(
            T0=T0, step_size=2.0, bounds=(-B, B), max_iter=5000, n_per_temp=50, random_state=seed
        )
        res = sa.minimize(f, x0)
        hits += np.linalg.norm(res.x) <= 1e-2 and res.fun <= 1e-2
        fevs.append(res.n_fev)
    assert hits >= 18  # the requirement: ≥ 90 % of 20 runs
    assert max(fevs) <= 5500  # the stated budget


@pytest.mark.parametrize("name,f,B,T0", CASES)
def test_same_answer_as_dual_annealing(name, f, B, T0):
    ref = dual_annealing(f, bounds=[(-B, B)] * 2, seed=0)
    res = SimulatedAnnealing(
        T0=T0, step_size=2.0, bounds=(-B, B), max_iter=5000, n_per_temp=50, random_state=0
    ).minimize(f, np.full(2, 0.8 * B))
    # both find the global minimiser; 1e-6 is far below the 1e-2 requirement
    np.testing.assert_allclose(res.x, ref.x, atol=1e-6)
    assert res.fun <= ref.fun + 1e-8
    # budgets are comparable: SciPy uses ~4,100-4,300 evaluations here, ours ~5,170
    assert res.n_fev < 1.5 * ref.nfev


def test_gradient_descent_is_stuck_but_annealing_is_not():
    assert check_gradient(rastrigin_and_grad, np.array([0.3, -1.7])) < 1e-7
    text = showcase()
    assert "stuck in a local minimum" in text and "J = 0.0e+00" in text


def test_schedules():
    assert temperature_at(2, 10, 4.0, "exponential", 0.5) == 1.0
    assert temperature_at(5, 10, 4.0, "linear", 0.5) == 2.0
    assert temperature_at(0, 10, 4.0, "logarithmic", 0.5) == pytest.approx(4.0)
    T2 = temperature_at(2, 10, 4.0, "logarithmic", 0.5)
    assert T2 == pytest.approx(4.0 * np.log(2) / np.log(4))


@pytest.mark.parametrize("schedule", ["exponential", "linear", "logarithmic"])
def test_trace_and_bounds(schedule):
    sa = SimulatedAnnealing(
        schedule=schedule,
        bounds=[(0.5, 2.0), (-1.0, 1.0)],
        max_iter=300,
        n_per_temp=30,
        random_state=0,
    )
    res = sa.minimize(lambda x: float(np.sum(x**2)), [1.5, 0.5])
    T, J, acc = res.trace["T"], res.trace["objective"], res.trace["accepted"]
    assert T.shape == J.shape == acc.shape == (300,)
    assert np.all(np.diff(T) <= 0) and T[0] == 1.0
    assert 0 < acc.sum() < 300
    # the constrained minimum is the box corner (0.5, 0); the polish reaches it
    np.testing.assert_allclose(res.x, [0.5, 0.0], atol=1e-8)
    assert res.converged and res.stop_reason == "converged" and res.grad is None
    assert res.fun <= J.min() + 1e-15  # best point, not the last one


def test_reproducible_and_polish_off():
    kw = dict(max_iter=200, n_per_temp=20, random_state=3, polish=False)
    a = SimulatedAnnealing(**kw).minimize(rastrigin, [2.0, 2.0])
    b = SimulatedAnnealing(**kw).minimize(rastrigin, [2.0, 2.0])
    np.testing.assert_array_equal(a.x, b.x)
    assert a.n_fev == 201 and a.fun == min(a.trace["objective"].min(), rastrigin([2.0, 2.0]))


def test_metropolis_rule_accepts_uphill_at_high_temperature():
    # J = x: every other move is uphill; at T ≫ |ΔE| nearly all are accepted
    hot = SimulatedAnnealing(
        T0=1e6, cooling_rate=0.999, step_size=1e-3, max_iter=500, polish=False, random_state=0
    ).minimize(lambda x: float(x[0]), [0.0])
    cold = SimulatedAnnealing(
        T0=1e-9, cooling_rate=0.999, step_size=1e-3, max_iter=500, polish=False, random_state=0
    ).minimize(lambda x: float(x[0]), [0.0])
    assert hot.trace["accepted"].mean() > 0.95
    assert 0.3 < cold.trace["accepted"].mean() < 0.7  # only the downhill half


def test_bad_input():
    with pytest.raises(InvalidParameterError, match="'T0' parameter of SimulatedAnnealing"):
        SimulatedAnnealing(T0=0).minimize(rastrigin, [1.0, 1.0])
    with pytest.raises(InvalidParameterError, match="schedule"):
        SimulatedAnnealing(schedule="fast").minimize(rastrigin, [1.0, 1.0])
    with pytest.raises(ValueError, match="bounds"):
        SimulatedAnnealing(bounds=[(1, 0), (0, 1)]).minimize(rastrigin, [1.0, 1.0])
    with pytest.raises(ValueError, match="not finite"):
        SimulatedAnnealing().minimize(lambda x: np.nan, [1.0])
