"""Stable numerics against scipy.special, at values where the naive formulas overflow."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import special

from scratchlearn.utils.extmath import (
    expit,
    log_expit,
    log_softmax,
    logsumexp,
    row_norms,
    safe_sparse_dot,
    softmax,
    xlogy,
)

finite = st.floats(-700, 700, allow_nan=False)


@settings(max_examples=30, deadline=None)
@given(arrays(np.float64, (5, 4), elements=finite))
def test_against_scipy(a):
    # 1e-12 relative: both are the max-shifted formula; differences are rounding only. SciPy
    # < 1.15 takes m + log(s) with s = Σ exp(aᵢ − m) ∈ [1, 4] instead of log1p(s − 1): s carries
    # a relative error ≤ 4u (four exps, three adds), so log(s) an absolute one ≤ 4u·(1 + log 4)
    # ≈ 2e-15, which is not small relative to a result near 0; atol=1e-14 covers it 5 times over.
    np.testing.assert_allclose(
        logsumexp(a, axis=1), special.logsumexp(a, axis=1), rtol=1e-12, atol=1e-14
    )
    np.testing.assert_allclose(softmax(a), special.softmax(a, axis=1), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(
        log_softmax(a), special.log_softmax(a, axis=1), rtol=1e-12, atol=1e-9
    )
    np.testing.assert_allclose(expit(a), special.expit(a), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(log_expit(a), special.log_expit(a), rtol=1e-12)


def test_extremes():
    z = np.array([-1000.0, 0.0, 1000.0])
    np.testing.assert_array_equal(expit(z), [0.0, 0.5, 1.0])
    assert log_expit(np.array([-1000.0]))[0] == -1000.0
    assert logsumexp(np.array([-np.inf, -np.inf])) == -np.inf
    assert logsumexp(np.array([1000.0, 1000.0])) == pytest.approx(1000.0 + np.log(2))
    np.testing.assert_allclose(softmax(np.array([[1000.0, 0.0]])), [[1.0, 0.0]])
    assert xlogy(0.0, 0.0) == 0.0


def test_row_norms_sparse_and_dense():
    import scipy.sparse as sp

    X = np.array([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(row_norms(X), [5.0, 0.0])
    np.testing.assert_allclose(row_norms(sp.csr_matrix(X), squared=True), [25.0, 0.0])
    out = safe_sparse_dot(sp.csr_matrix(X), np.ones(2))
    assert isinstance(out, np.ndarray)
    np.testing.assert_allclose(out, [7.0, 0.0])
