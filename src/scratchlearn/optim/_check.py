"""Finite-difference check of an analytic gradient.

Central differences, one coordinate at a time:

    ĝᵢ = (J(x + εeᵢ) − J(x − εeᵢ)) / 2ε,

whose truncation error is O(ε²) and round-off error about ε_mach·|J|/ε.
"""

import numpy as np

__all__ = ["check_gradient", "numerical_gradient"]


def numerical_gradient(f, x, *, eps=1e-6):
    """Central-difference gradient ĝ of a scalar function ``f(x) -> float`` (same shape as x)."""
    x = np.array(x, dtype=float)
    g = np.empty_like(x)
    flat_x, flat_g = x.reshape(-1), g.reshape(-1)  # views
    for i in range(flat_x.size):
        xi = flat_x[i]
        flat_x[i] = xi + eps
        f_plus = float(f(x))
        flat_x[i] = xi - eps
        f_minus = float(f(x))
        flat_x[i] = xi
        flat_g[i] = (f_plus - f_minus) / (2.0 * eps)
    return g


def check_gradient(fun, x, *, eps=1e-6, grad=None):
    """Largest relative error between an analytic gradient and central finite differences.

    .. math::

        \\text{err} = \\max_i \\frac{|g_i - \\hat g_i|}
                                    {\\max(|g_i|, |\\hat g_i|, \\tau)},
        \\qquad \\tau = 10^{-6}(1 + |J(x)|)

    The floor ``τ`` keeps components whose true value is zero from turning round-off noise
    (about ``ε_mach·|J|/ε ≈ 1e-10·|J|``) into a large relative error. A correct gradient gives
    an error around 1e-7 or smaller; a wrong one gives an error of order 1 (at most 2).

    Parameters
    ----------
    fun : callable
        ``fun(x) -> (J, grad)`` (the optimisers' convention) when ``grad`` is None;
        otherwise ``fun(x) -> J`` and ``grad(x) -> ∇J``.
    x : array-like
        Point at which to compare (any shape; the gradient has the same shape).
    eps : float, default=1e-6
        Finite-difference step ``ε``.
    grad : callable, optional
        Separate gradient function.

    Returns
    -------
    float
        The maximum relative error ``err``.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.optim import check_gradient
    >>> def fun(x):
    ...     return np.sum(x ** 3), 3 * x ** 2
    >>> print(check_gradient(fun, np.array([1.0, -2.0])) < 1e-6)
    True
    >>> def wrong(x):
    ...     return np.sum(x ** 3), 2 * x ** 2
    >>> print(round(check_gradient(wrong, np.array([1.0, -2.0])), 3))
    0.333
    """
    x = np.array(x, dtype=float)
    if grad is None:

        def f(z):
            return fun(z)[0]

        J, g = fun(x.copy())
    else:
        f = fun
        J, g = fun(x.copy()), grad(x.copy())
    g = np.asarray(g, dtype=float).reshape(x.shape)
    g_hat = numerical_gradient(f, x, eps=eps)
    tau = 1e-6 * (1.0 + abs(float(J)))
    denom = np.maximum(np.maximum(np.abs(g), np.abs(g_hat)), tau)
    return float(np.max(np.abs(g - g_hat) / denom)) if g.size else 0.0
