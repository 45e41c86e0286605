"""The mixture tests fit small problems (at most 600 × 13) hundreds of times: BLAS threads only
add hand-off overhead there, and on a busy 2-core machine OpenBLAS's spinning threads made these
tests 5-10 times slower (measured). Every test here runs with one BLAS thread; the benchmarks
measure both settings."""

import pytest
from threadpoolctl import threadpool_limits


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(limits=1):
        yield
