"""Registry entries of the ensembles (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.ensemble."
_WEIGHTS = {
    "check_sample_weight_equivalence_on_dense_data": (
        "a bootstrap draws m row indices from n rows: repeating rows changes n and so every "
        "draw (scikit-learn's bagging fails it alike); tests/ensemble/test_bagging.py checks "
        "that the draws reach the learner as integer weights"
    ),
}

FAMILY = Family(
    name="ensemble",
    title="Ensembles: bagging and AdaBoost",
    stories=("scratchlearn.ensemble._showcase_boosting",),
    entries=[
        Entry(
            name="AdaBoostClassifier",
            summary="AdaBoost-SAMME: a weighted vote of decision stumps",
            dataset="breast_cancer",
            demo_params={"random_state": 0},
            sklearn=_SK + "AdaBoostClassifier",
            check_params={"n_estimators": 10, "random_state": 0},
        ),
        Entry(
            name="AdaBoostRegressor",
            summary="AdaBoost.R2: a weighted median of trees on weighted bootstrap samples",
            dataset="diabetes",
            demo_params={"random_state": 0},
            sklearn=_SK + "AdaBoostRegressor",
            check_params={"n_estimators": 10, "random_state": 0},
            expected_failed_checks={
                "check_sample_weight_equivalence_on_dense_data": (
                    "each round draws a weighted bootstrap of n rows: repeating rows changes n "
                    "and so every draw (scikit-learn's AdaBoostRegressor fails it alike); "
                    "tests/ensemble/test_adaboost.py replays the weight recurrence instead"
                ),
            },
        ),
        Entry(
            name="BaggingClassifier",
            summary="bagging: class probabilities averaged over trees on bootstrap samples",
            dataset="breast_cancer",
            demo_params={"random_state": 0, "oob_score": True, "n_estimators": 25},
            sklearn=_SK + "BaggingClassifier",
            check_params={"n_estimators": 5, "random_state": 0},
            expected_failed_checks=_WEIGHTS,
        ),
        Entry(
            name="BaggingRegressor",
            summary="bagging: predictions averaged over trees on bootstrap samples",
            dataset="diabetes",
            demo_params={"random_state": 0, "oob_score": True, "n_estimators": 25},
            sklearn=_SK + "BaggingRegressor",
            check_params={"n_estimators": 5, "random_state": 0},
            expected_failed_checks=_WEIGHTS,
        ),
    ],
)
