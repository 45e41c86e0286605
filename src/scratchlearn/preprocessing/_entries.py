"""Registry entries of the preprocessing transformers (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.preprocessing."

FAMILY = Family(
    name="preprocessing",
    order=20,
    title="Scaling, encoding and polynomial features",
    entries=[
        Entry(
            name="StandardScaler",
            summary="centre each feature and divide by its standard deviation",
            dataset="wine",
            sklearn=_SK + "StandardScaler",
        ),
        Entry(
            name="MinMaxScaler",
            summary="rescale each feature to a range, [0, 1] by default",
            dataset="wine",
            sklearn=_SK + "MinMaxScaler",
        ),
        Entry(
            name="Normalizer",
            summary="scale each sample to unit l1, l2 or max norm",
            dataset="iris",
            sklearn=_SK + "Normalizer",
        ),
        Entry(
            name="Binarizer",
            summary="threshold features to 0/1",
            dataset="iris",
            sklearn=_SK + "Binarizer",
        ),
        Entry(
            name="PolynomialFeatures",
            summary="all monomials of the features up to a degree",
            dataset="diabetes",
            sklearn=_SK + "PolynomialFeatures",
        ),
        Entry(
            name="OneHotEncoder",
            summary="one 0/1 column per category",
            dataset="car_evaluation",
            sklearn=_SK + "OneHotEncoder",
        ),
        Entry(
            name="OrdinalEncoder",
            summary="categories to integers 0..k-1",
            dataset="car_evaluation",
            sklearn=_SK + "OrdinalEncoder",
        ),
        Entry(
            name="LabelEncoder",
            summary="class labels to integers 0..K-1",
            sklearn=_SK + "LabelEncoder",
            common_checks=False,
        ),
        Entry(
            name="LabelBinarizer",
            summary="class labels to one-vs-all indicator columns",
            sklearn=_SK + "LabelBinarizer",
            common_checks=False,
        ),
    ],
)
