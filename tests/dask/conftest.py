"""One real dask.distributed LocalCluster per test process (per xdist worker), shared by every
Dask test: two worker processes of one thread each, so block statistics really cross process
boundaries (pickling, tree reduction, scheduling) as on a cluster of machines.

The dashboard takes a free port (":0"): two xdist workers each start a cluster, and a fixed
port would clash."""

import numpy as np
import pytest

distributed = pytest.importorskip(
    "distributed", reason="the dask extra is not installed (make test installs it)"
)


@pytest.fixture(scope="session")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=40,  # logging.ERROR: a killed-worker test logs warnings by design
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


@pytest.fixture
def rng():
    return np.random.default_rng(0)
