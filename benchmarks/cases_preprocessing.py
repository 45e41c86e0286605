"""Preprocessing against scikit-learn on the same arrays.

Targets (ratio ours / scikit-learn): fit <= 1.0 and transform <= 1.0 for the scalers on a
200,000 x 50 Gaussian matrix, the encoders on the car-evaluation table repeated to 100,000 rows
(as an object array of Python strings, which is what a CSV reader gives, and as a fixed-width
NumPy string array), and PolynomialFeatures of degree 3 on 50,000 x 10. ``agree`` is the
largest absolute difference of the transformed matrices (0 means identical output).
"""

from __future__ import annotations

import os

import numpy as np
from sklearn import preprocessing as sk

from benchmarks.harness import Case
from scratchlearn import preprocessing as ours

_CAR = os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "data", "car_evaluation", "car.data"
)


def _gaussian(n, d, seed=0):
    return (np.random.default_rng(seed).standard_normal((n, d)) * 3.0 + 1.0,)


def _car(n=100_000, as_object=True):
    table = np.loadtxt(_CAR, dtype=str, delimiter=",")
    X = np.tile(table, (n // len(table) + 1, 1))[:n]
    return (X.astype(object) if as_object else X,)


CASES = [
    Case(
        "StandardScaler 200000x50",
        lambda: _gaussian(200_000, 50),
        ours.StandardScaler,
        sk.StandardScaler,
        method="transform",
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "MinMaxScaler 200000x50",
        lambda: _gaussian(200_000, 50),
        ours.MinMaxScaler,
        sk.MinMaxScaler,
        method="transform",
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "OneHotEncoder car x100k (object)",
        _car,
        ours.OneHotEncoder,
        sk.OneHotEncoder,
        method="transform",
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "OneHotEncoder car x100k (str array)",
        lambda: _car(as_object=False),
        ours.OneHotEncoder,
        sk.OneHotEncoder,
        method="transform",
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "OrdinalEncoder car x100k (object)",
        _car,
        ours.OrdinalEncoder,
        sk.OrdinalEncoder,
        method="transform",
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "OrdinalEncoder car x100k (str array)",
        lambda: _car(as_object=False),
        ours.OrdinalEncoder,
        sk.OrdinalEncoder,
        method="transform",
        target_fit=1.0,
        target_predict=1.0,
    ),
    Case(
        "PolynomialFeatures deg 3 50000x10",
        lambda: _gaussian(50_000, 10),
        lambda: ours.PolynomialFeatures(degree=3),
        lambda: sk.PolynomialFeatures(degree=3),
        method="transform",
        target_fit=None,
        target_predict=1.0,
        time_fit=False,  # fit only tabulates the exponents: microseconds, noise
    ),
]
