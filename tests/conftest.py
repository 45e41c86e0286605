"""Shared fixtures. Plots use the Agg backend; scikit-learn's note that our estimators do not
inherit from its BaseEstimator is expected (we implement the protocol, not the class)."""

import os
import warnings

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402
from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: E402

warnings.filterwarnings("ignore", message=".*does not inherit from `sklearn.base.BaseEstimator`")

# `make test-min` runs an old Hypothesis, which cannot replay the examples a newer one saved in
# .hypothesis/ (they overrun and fail its data_too_large health check): it names its own folder.
if os.environ.get("SCRATCHLEARN_HYPOTHESIS_DB"):
    _db = DirectoryBasedExampleDatabase(os.environ["SCRATCHLEARN_HYPOTHESIS_DB"])
    settings.register_profile("own-database", database=_db)
    settings.load_profile("own-database")

# CI (.ci/run sets SCRATCHLEARN_CI=1) draws the same Hypothesis examples on every run, so a red CI
# is reproducible and not a new random draw; `make test` on a developer's machine keeps exploring
# (that is how a MinMaxScaler rounding defect was found) and saves what fails in its database.
if os.environ.get("SCRATCHLEARN_CI"):
    settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
    settings.load_profile("ci")


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture(autouse=True, scope="session")
def _one_thread_per_xdist_worker():
    """Under ``pytest -n N`` (``make test``: two workers on two cores) each worker already has a
    core: a second BLAS or Numba thread per worker only oversubscribes the machine, and Numba's
    parallel k-means pass and OpenBLAS's spinning threads were measured 3-10 times slower so.
    A plain ``pytest`` run keeps the library's defaults; the benchmarks measure both."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    import numba
    from threadpoolctl import threadpool_limits

    numba.set_num_threads(1)
    with threadpool_limits(limits=1):
        yield
