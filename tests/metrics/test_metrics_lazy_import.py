"""Importing the metrics must not import Numba (about 0.3 s) nor the brute-force neighbour
search: the compiled loops are imported on their first call."""

import subprocess
import sys

import numpy as np

CHECK = """
import sys
import scratchlearn.metrics
loaded = [m for m in ("numba", "scratchlearn.metrics._argkmin",
                      "scratchlearn.metrics._coordinate_kernel") if m in sys.modules]
print(",".join(loaded))
"""


def test_import_metrics_leaves_numba_out():
    out = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "", f"imported eagerly: {out.stdout.strip()}"


def test_coordinate_distances_still_compiled_on_first_call():
    from scratchlearn.metrics._pairwise_kernels import L1, coordinate_distances

    # Manhattan distances of small integers are exact in float64: 0+0, 3+4, 1+1.
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    Y = np.array([[0.0, 0.0], [1.0, 1.0]])
    D = coordinate_distances(X, Y, L1)
    assert np.array_equal(D, [[0.0, 2.0], [7.0, 5.0]])
    assert "scratchlearn.metrics._coordinate_kernel" in sys.modules
