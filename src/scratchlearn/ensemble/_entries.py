"""Registry entries of the forests (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.ensemble."
_CHECK = {"n_estimators": 5, "random_state": 0}
_BOOTSTRAP_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data": (
        "a bootstrap draws a row repeated twice at two chances, a row of weight 2 at one chance "
        "of double weight: the two forests differ in distribution, not only in the seed "
        "(scikit-learn's forests are marked so too); without bootstrap the check passes (extra "
        "trees)"
    ),
}

FAMILY = Family(
    name="ensemble",
    title="Ensembles: random forests and extra trees",
    stories=("scratchlearn.ensemble._showcase",),
    entries=[
        Entry(
            name="RandomForestClassifier",
            summary="Bootstrap trees with a random feature subset at every split; OOB score",
            dataset="breast_cancer",
            demo_params={"n_estimators": 100, "oob_score": True, "random_state": 0},
            sklearn=_SK + "RandomForestClassifier",
            check_params=_CHECK,
            expected_failed_checks=_BOOTSTRAP_XFAIL,
        ),
        Entry(
            name="RandomForestRegressor",
            summary="The mean of bootstrap regression trees; OOB R²",
            dataset="diabetes",
            demo_params={"n_estimators": 100, "oob_score": True, "random_state": 0},
            sklearn=_SK + "RandomForestRegressor",
            check_params=_CHECK,
            expected_failed_checks=_BOOTSTRAP_XFAIL,
        ),
        Entry(
            name="ExtraTreesClassifier",
            summary="Extremely randomised trees: one random threshold per feature and node",
            dataset="breast_cancer",
            demo_params={"n_estimators": 100, "random_state": 0},
            sklearn=_SK + "ExtraTreesClassifier",
            check_params=_CHECK,
        ),
        Entry(
            name="ExtraTreesRegressor",
            summary="Extremely randomised regression trees, averaged",
            dataset="diabetes",
            demo_params={"n_estimators": 100, "random_state": 0},
            sklearn=_SK + "ExtraTreesRegressor",
            check_params=_CHECK,
        ),
    ],
)
