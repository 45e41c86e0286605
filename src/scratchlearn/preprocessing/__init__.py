"""Preprocessing: feature scaling, polynomial features and categorical encoders.

======================  ==============================================================
``StandardScaler``      z = (x − μ) / σ per feature; streaming ``partial_fit``
``MinMaxScaler``        x' = x s + m onto a range, (0, 1) by default
``Normalizer``          each row divided by its l1, l2 or max norm
``Binarizer``           1 where x > threshold, else 0
``PolynomialFeatures``  every monomial of the features up to a degree
``OneHotEncoder``       one 0/1 column per category
``OrdinalEncoder``      one integer code per category
``LabelEncoder``        class labels of y to 0..K−1
``LabelBinarizer``      class labels of y to one-vs-all indicator columns
======================  ==============================================================
"""

from ._data import Binarizer, MinMaxScaler, Normalizer, StandardScaler
from ._encoders import OneHotEncoder, OrdinalEncoder
from ._label import LabelBinarizer, LabelEncoder
from ._polynomial import PolynomialFeatures

__all__ = [
    "Binarizer",
    "LabelBinarizer",
    "LabelEncoder",
    "MinMaxScaler",
    "Normalizer",
    "OneHotEncoder",
    "OrdinalEncoder",
    "PolynomialFeatures",
    "StandardScaler",
]
