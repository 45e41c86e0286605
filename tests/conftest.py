"""Shared fixtures. Plots use the Agg backend; scikit-learn's note that our estimators do not
inherit from its BaseEstimator is expected (we implement the protocol, not the class)."""

import os
import warnings

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

warnings.filterwarnings("ignore", message=".*does not inherit from `sklearn.base.BaseEstimator`")

SHARED_DATA = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")


@pytest.fixture
def rng():
    return np.random.default_rng(0)
