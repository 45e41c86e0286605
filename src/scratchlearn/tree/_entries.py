"""Registry entries of the decision trees (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.tree."

FAMILY = Family(
    name="tree",
    order=60,
    title="Decision trees: CART and ID3, with pruning",
    stories=("scratchlearn.tree._showcase",),
    entries=[
        Entry(
            name="DecisionTreeClassifier",
            summary="CART: binary splits by Gini or entropy",
            dataset="breast_cancer",
            demo_params={"random_state": 0},
            sklearn=_SK + "DecisionTreeClassifier",
            check_params={"random_state": 0},
        ),
        Entry(
            name="DecisionTreeRegressor",
            summary="CART regression tree: splits by squared or absolute error",
            dataset="diabetes",
            demo_params={"random_state": 0, "max_depth": 4},
            sklearn=_SK + "DecisionTreeRegressor",
            check_params={"random_state": 0},
        ),
        Entry(
            name="ID3Classifier",
            summary="ID3: multiway splits on categories by information gain",
            dataset="play_tennis",
            expected_failed_checks={
                "check_sample_weight_equivalence_on_dense_data": (
                    "feeds uniform floats, which ID3 refuses by design (one branch per float); "
                    "tests/tree/test_tree_id3.py checks duplicated rows = integer weights on "
                    "categories"
                ),
                "check_classifiers_one_label_sample_weights": (
                    "feeds uniform floats, which ID3 refuses by design; the one-class and "
                    "weight cases are in tests/tree/test_tree_id3.py"
                ),
            },
        ),
    ],
)
