"""Linear models: least squares, polynomial, ridge, lasso, elastic net, logistic regression, GLMs.

Every model here predicts through f(x) = xᵀw + b (or a link of it) and fits its intercept by
centring or as an unpenalised parameter, never through the penalty.
"""

from ._coordinate_descent import ElasticNet, Lasso
from ._glm import GammaRegressor, GeneralizedLinearRegressor, PoissonRegressor, TweedieRegressor
from ._least_squares import LinearRegression, PolynomialRegression
from ._logistic import LogisticRegression
from ._ridge import Ridge

__all__ = [
    "LinearRegression",
    "PolynomialRegression",
    "Ridge",
    "Lasso",
    "ElasticNet",
    "LogisticRegression",
    "GeneralizedLinearRegressor",
    "PoissonRegressor",
    "GammaRegressor",
    "TweedieRegressor",
]
