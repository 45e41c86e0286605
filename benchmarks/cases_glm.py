"""Generalized linear models against scikit-learn on the same arrays.

Target (ratio ours / scikit-learn): PoissonRegressor on 100,000 x 20 fit <= 1.0, predict <= 1.0,
both with their default solver (L-BFGS) and tol=1e-4. The ``agree`` column is the relative
difference of the penalised objective L = (1/2n)Σ deviance + (α/2)‖w‖², which is what agreement
means when two L-BFGS runs stop at different points of the same tolerance.
"""

from __future__ import annotations

import numpy as np
from sklearn import linear_model as sk

from benchmarks.harness import Case
from scratchlearn.linear_model import _glm as ours
from scratchlearn.linear_model._glm import glm_objective
from scratchlearn.linear_model._glm_family import make_family
from scratchlearn.linear_model._glm_link import Log


def _counts(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.normal(scale=0.2, size=d)
    y = rng.poisson(np.exp(X @ w + 0.5)).astype(float)
    return X, y


def _positive(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.normal(scale=0.2, size=d)
    mu = np.exp(X @ w + 1.0)
    return X, rng.gamma(shape=2.0, scale=mu / 2.0)


def _objective_gap(family, alpha, power=0.0):
    def agree(a, b, data):
        X, y = data
        Xt = np.hstack([X, np.ones((len(y), 1))])
        pen = np.append(np.full(X.shape[1], alpha), 0.0)
        fam, s = make_family(family, power), np.ones(len(y))
        Ja = glm_objective(np.append(a.coef_, a.intercept_), Xt, y, s, fam, Log(), pen)[0]
        Jb = glm_objective(np.append(b.coef_, b.intercept_), Xt, y, s, fam, Log(), pen)[0]
        return abs(Ja - Jb) / abs(Jb)

    return agree


CASES = [
    Case(
        "PoissonRegressor 100000x20 lbfgs",
        lambda: _counts(100_000, 20),
        lambda: ours.PoissonRegressor(),
        lambda: sk.PoissonRegressor(),
        agree=_objective_gap("poisson", 1.0),
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "PoissonRegressor 100000x20 newton-cholesky",
        lambda: _counts(100_000, 20),
        lambda: ours.PoissonRegressor(solver="newton-cholesky"),
        lambda: sk.PoissonRegressor(solver="newton-cholesky"),
        agree=_objective_gap("poisson", 1.0),
        note="ours: IRLS (Fisher scoring = Newton for the log link)",
    ),
    Case(
        "GammaRegressor 50000x10 lbfgs",
        lambda: _positive(50_000, 10),
        lambda: ours.GammaRegressor(alpha=0.01),
        lambda: sk.GammaRegressor(alpha=0.01),
        agree=_objective_gap("gamma", 0.01),
    ),
    Case(
        "TweedieRegressor power=1.5 50000x10 lbfgs",
        lambda: _positive(50_000, 10),
        lambda: ours.TweedieRegressor(power=1.5, alpha=0.01),
        lambda: sk.TweedieRegressor(power=1.5, alpha=0.01),
        agree=_objective_gap("tweedie", 0.01, power=1.5),
    ),
]
