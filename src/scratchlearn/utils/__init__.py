"""Validation, randomness and numerics shared by every family."""

from ._fit_record import CONVERGED, HISTORY_KEYS, STOP_REASONS, record_fit
from ._linalg import min_norm_lstsq, spd_solve
from ._param_validation import (
    HasMethods,
    Interval,
    Options,
    StrOptions,
    parse_param_string,
    validate_params,
)
from .extmath import expit, log_expit, log_softmax, logsumexp, row_norms, safe_sparse_dot, softmax
from .multiclass import check_classification_targets, type_of_target, unique_labels
from .validation import (
    check_array,
    check_consistent_length,
    check_is_fitted,
    check_non_negative,
    check_random_state,
    check_sample_weight,
    check_scalar,
    check_X_y,
    check_y,
    column_or_1d,
    get_feature_names,
    num_samples,
)


class Bunch(dict):
    """A dict whose keys are also attributes: ``b.data is b["data"]``."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self[key] = value

    def __dir__(self):
        return list(self.keys())


__all__ = [
    "Bunch",
    "CONVERGED",
    "HISTORY_KEYS",
    "STOP_REASONS",
    "record_fit",
    "min_norm_lstsq",
    "spd_solve",
    "HasMethods",
    "Interval",
    "Options",
    "StrOptions",
    "parse_param_string",
    "validate_params",
    "expit",
    "log_expit",
    "log_softmax",
    "logsumexp",
    "row_norms",
    "safe_sparse_dot",
    "softmax",
    "check_classification_targets",
    "type_of_target",
    "unique_labels",
    "check_array",
    "check_consistent_length",
    "check_is_fitted",
    "check_non_negative",
    "check_random_state",
    "check_sample_weight",
    "check_scalar",
    "check_X_y",
    "check_y",
    "column_or_1d",
    "get_feature_names",
    "num_samples",
]
