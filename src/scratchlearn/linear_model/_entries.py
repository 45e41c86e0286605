"""Registry entries of the linear models and GLMs (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.linear_model."

FAMILY = Family(
    name="linear_model",
    order=30,
    title="Linear, polynomial, ridge, lasso, logistic regression and GLMs",
    stories=("scratchlearn.linear_model._showcase", "scratchlearn.linear_model._showcase_glm"),
    entries=[
        Entry(
            name="LinearRegression",
            summary="least squares by a factorisation of the normal equations, or gradient descent",
            dataset="diabetes",
            sklearn=_SK + "LinearRegression",
        ),
        Entry(
            name="PolynomialRegression",
            summary="least squares on the polynomial basis [x, x², …, xᵏ], optional ridge penalty",
            dataset="diabetes",
            demo_params={"degree": 2, "alpha": 1.0},
        ),
        Entry(
            name="Ridge",
            summary="least squares with an L2 penalty, intercept unpenalised",
            dataset="diabetes",
            sklearn=_SK + "Ridge",
        ),
        Entry(
            name="Lasso",
            summary="least squares with an L1 penalty by coordinate descent",
            dataset="diabetes",
            demo_params={"alpha": 0.1},
            sklearn=_SK + "Lasso",
        ),
        Entry(
            name="ElasticNet",
            summary="least squares with mixed L1 and L2 penalties",
            dataset="diabetes",
            demo_params={"alpha": 0.01},
            sklearn=_SK + "ElasticNet",
        ),
        Entry(
            name="LogisticRegression",
            summary="binary and multinomial logistic regression (gd, Newton, L-BFGS)",
            dataset="breast_cancer",
            sklearn=_SK + "LogisticRegression",
        ),
        Entry(
            name="GeneralizedLinearRegressor",
            summary="GLM with any family and link, fitted by IRLS, L-BFGS or gradient descent",
            dataset="diabetes",
            demo_params={"family": "normal", "link": "identity"},
        ),
        Entry(
            name="PoissonRegressor",
            summary="Poisson GLM with log link for counts",
            dataset="randhie",
            sklearn=_SK + "PoissonRegressor",
        ),
        Entry(
            name="GammaRegressor",
            summary="Gamma GLM with log link for positive skewed targets",
            dataset="diabetes",
            demo_params={"alpha": 0.001},
            sklearn=_SK + "GammaRegressor",
        ),
        Entry(
            name="TweedieRegressor",
            summary="Tweedie GLM (power p) with log or identity link",
            dataset="diabetes",
            demo_params={"power": 1.5, "alpha": 0.001},
            sklearn=_SK + "TweedieRegressor",
        ),
    ],
)
