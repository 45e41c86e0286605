"""GradientDescent: exact steps on quadratics, schedules, momentum, mini-batches, stopping rules."""

import warnings

import numpy as np
import pytest

from scratchlearn.exceptions import ConvergenceWarning, DivergenceError, InvalidParameterError
from scratchlearn.optim import GradientDescent, OptimizeResult, check_gradient, learning_rate_at


def quad(A, b):
    """J(θ) = ½θᵀAθ − bᵀθ, ∇J = Aθ − b."""
    return lambda th: (0.5 * th @ A @ th - b @ th, A @ th - b)


def test_one_step_by_hand():
    # J = ½(θ₁² + 10θ₂²); from (1, 1) with η = 0.1: θ₁ = (1 − 0.1·1, 1 − 0.1·10) = (0.9, 0.0)
    fun = quad(np.diag([1.0, 10.0]), np.zeros(2))
    with pytest.warns(ConvergenceWarning):
        res = GradientDescent(learning_rate=0.1, max_iter=1).minimize(fun, [1.0, 1.0])
    np.testing.assert_allclose(res.x, [0.9, 0.0], rtol=0, atol=1e-15)
    assert res.stop_reason == "max_iter" and not res.converged
    assert res.n_iter == 1 and res.n_fev == 2
    # history: J(θ₀) = ½(1 + 10) = 5.5, J(θ₁) = ½·0.81 = 0.405
    np.testing.assert_allclose(res.history["objective"], [5.5, 0.405], rtol=1e-15)
    np.testing.assert_allclose(res.history["grad_norm"], [np.sqrt(101.0), 0.9], rtol=1e-15)
    assert isinstance(res, OptimizeResult) and res.fun == res.history["objective"][-1]


def test_schedules_values():
    assert learning_rate_at(3, 0.5, "constant") == 0.5
    assert learning_rate_at(3, 0.5, "invscaling", power_t=0.5) == pytest.approx(0.5 / 2.0)
    assert learning_rate_at(2, 0.5, "exponential", decay_rate=0.9) == pytest.approx(0.5 * 0.81)


@pytest.mark.parametrize("schedule", ["constant", "invscaling", "exponential"])
@pytest.mark.parametrize("momentum,nesterov", [(0.0, False), (0.5, False), (0.5, True)])
def test_converges_to_solution(schedule, momentum, nesterov):
    A = np.array([[3.0, 1.0], [1.0, 2.0]])
    b = np.array([1.0, -1.0])
    gd = GradientDescent(
        learning_rate=0.2,
        schedule=schedule,
        power_t=0.1,
        decay_rate=0.999,
        momentum=momentum,
        nesterov=nesterov,
        tol=0.0,
        gtol=1e-9,
        max_iter=5000,
    )
    res = gd.minimize(quad(A, b), np.zeros(2))
    # tol=0 still fires once J stops changing in floating point (|ΔJ| = 0), where
    # ‖∇J‖ ~ √(ε_mach·|J|) ~ 1e-8; λ_min(A) ≈ 1.38 then bounds the error by ~1e-8
    assert res.stop_reason in ("grad_norm", "cost_change")
    np.testing.assert_allclose(res.x, np.linalg.solve(A, b), atol=1e-7)


def test_momentum_speeds_up_ill_conditioned():
    fun = quad(np.diag([1.0, 50.0]), np.zeros(2))
    kw = dict(learning_rate=0.019, tol=0.0, gtol=1e-8, max_iter=10000)
    plain = GradientDescent(**kw).minimize(fun, [1.0, 1.0])
    heavy = GradientDescent(momentum=0.8, **kw).minimize(fun, [1.0, 1.0])
    assert heavy.n_iter < plain.n_iter / 2


def test_cost_change_rule():
    res = GradientDescent(learning_rate=0.1, tol=1e-3, gtol=0.0).minimize(
        quad(np.eye(2), np.zeros(2)), [1.0, 1.0]
    )
    assert res.stop_reason == "cost_change" and res.converged
    J = res.history["objective"]
    assert abs(J[-1] - J[-2]) <= 1e-3 < abs(J[-2] - J[-3])


def test_grad_norm_rule_after_iterations():
    # tol = 0 disables the cost-change rule until J stops changing in floating point, which
    # happens far below ‖∇J‖ = 1e-3 here; the gradient-norm rule must fire first
    res = GradientDescent(learning_rate=0.05, tol=0.0, gtol=1e-3).minimize(
        quad(np.diag([1.0, 10.0]), np.zeros(2)), [1.0, 1.0]
    )
    g = res.history["grad_norm"]
    assert res.stop_reason == "grad_norm" and res.converged and res.n_iter > 10
    assert g[-1] <= 1e-3 < g[-2] and len(g) == res.n_iter + 1


def test_grad_norm_at_start():
    res = GradientDescent().minimize(quad(np.eye(2), np.zeros(2)), np.zeros(2))
    assert res.stop_reason == "grad_norm" and res.n_iter == 0


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the overflow is the point
def test_divergence_error():
    with pytest.raises(DivergenceError, match="diverged at iteration .* smaller learning_rate"):
        GradientDescent(learning_rate=10.0, max_iter=10000).minimize(
            quad(np.eye(2), np.zeros(2)), [1.0, 1.0]
        )


def _least_squares(X, y):
    n = len(y)

    def fun(th, idx=None):
        Xi, yi = (X, y) if idx is None else (X[idx], y[idx])
        r = Xi @ th - yi
        return 0.5 * r @ r / len(yi), Xi.T @ r / len(yi)

    return fun, n


@pytest.mark.parametrize("batch_size", [1, 16, 1000])
def test_minibatch_least_squares(batch_size):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    w = np.array([1.0, -2.0, 0.5])
    y = X @ w  # noise-free: every mini-batch gradient vanishes at w, so SGD converges exactly
    fun, n = _least_squares(X, y)
    assert check_gradient(fun, rng.normal(size=3)) < 1e-6
    gd = GradientDescent(
        learning_rate=0.05,
        batch_size=batch_size,
        tol=0.0,
        gtol=1e-8,
        max_iter=3000,
        random_state=0,
    )
    res = gd.minimize(fun, np.zeros(3), n_samples=n)
    assert res.stop_reason == "grad_norm"
    np.testing.assert_allclose(res.x, w, atol=1e-7)  # ‖∇J‖ ≤ 1e-8, λ_min(XᵀX/n) ≈ 0.8


def test_minibatch_reproducible_and_visits_all_rows():
    X = np.arange(10.0).reshape(10, 1)
    seen = []

    def fun(th, idx=None):
        if idx is not None:
            seen.append(np.sort(idx))
        return 0.5 * float(th @ th), th.copy()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        GradientDescent(batch_size=3, max_iter=2, tol=0, gtol=0, random_state=1).minimize(
            fun, [1.0], n_samples=len(X)
        )
    assert [len(s) for s in seen] == [3, 3, 3, 1] * 2
    np.testing.assert_array_equal(np.sort(np.concatenate(seen[:4])), np.arange(10))
    a = GradientDescent(batch_size=3, random_state=5).minimize(
        _least_squares(X, X[:, 0])[0], [0.0], n_samples=10
    )
    b = GradientDescent(batch_size=3, random_state=5).minimize(
        _least_squares(X, X[:, 0])[0], [0.0], n_samples=10
    )
    np.testing.assert_array_equal(a.x, b.x)


def test_x0_not_modified_and_shape_kept():
    x0 = np.ones((2, 2))
    res = GradientDescent(learning_rate=0.5).minimize(lambda th: (0.5 * np.sum(th**2), th), x0)
    np.testing.assert_array_equal(x0, np.ones((2, 2)))
    assert res.x.shape == (2, 2)


@pytest.mark.parametrize(
    "kw",
    [
        {"learning_rate": 0.0},
        {"learning_rate": -1},
        {"schedule": "cosine"},
        {"momentum": 1.0},
        {"batch_size": 0},
        {"max_iter": 0},
        {"tol": -1.0},
        {"decay_rate": 1.5},
        {"nesterov": "yes"},
    ],
)
def test_invalid_params(kw):
    with pytest.raises(InvalidParameterError, match="parameter of GradientDescent"):
        GradientDescent(**kw).minimize(lambda th: (0.0, th), [1.0])


def test_minibatch_needs_n_samples():
    with pytest.raises(InvalidParameterError, match="n_samples"):
        GradientDescent(batch_size=2).minimize(lambda th, idx: (0.0, th), [1.0])
