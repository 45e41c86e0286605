"""Exceptions and warnings raised by scratchlearn.

Each error subclasses the built-in exception that scikit-learn users already catch, so
``except ValueError`` keeps working when a scikit-learn estimator is swapped for ours.
"""

__all__ = [
    "NotFittedError",
    "InvalidParameterError",
    "ConvergenceWarning",
    "DataConversionWarning",
    "DataDimensionalityWarning",
    "UndefinedMetricWarning",
    "DivergenceError",
    "ModelFileError",
    "FitFailedWarning",
    "LinAlgWarning",
]


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before ``fit`` was called."""


class InvalidParameterError(ValueError, TypeError):
    """A hyperparameter, or an argument of a public function, has an invalid type or value."""


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped on its iteration budget before meeting its tolerance."""


class DataConversionWarning(UserWarning):
    """Input data were converted in a way the user may not expect (e.g. a column vector y)."""


class DataDimensionalityWarning(UserWarning):
    """The shape of the data is unusual for the requested computation."""


class UndefinedMetricWarning(UserWarning):
    """A metric is ill-defined for the given labels (e.g. precision with no predicted positive)."""


class DivergenceError(ArithmeticError, ValueError):
    """An iterative solver produced a non-finite objective: the step size is too large."""


class ModelFileError(ValueError):
    """A file given to :func:`scratchlearn.io.load` is not a valid scratchlearn model file."""


class FitFailedWarning(RuntimeWarning):
    """A fit inside cross-validation or a search raised; its scores were set to error_score."""


class LinAlgWarning(UserWarning):
    """A linear system was singular or indefinite in floating point and a declared fallback
    solved it instead (see :func:`scratchlearn.utils.spd_solve`)."""
