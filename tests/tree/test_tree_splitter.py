"""The Numba split search against the plain NumPy reference, on random data with ties."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scratchlearn.tree._splitter import best_split, best_split_reference


@st.composite
def _node(draw, regression):
    n = draw(st.integers(2, 25))
    d = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    # few distinct values per feature: many tied values and many tied candidate splits
    X = rng.integers(0, draw(st.integers(1, 5)), size=(n, d)).astype(np.float64) * 0.5
    y = rng.integers(0, 3, n).astype(np.float64) if regression else rng.integers(0, 3, n)
    w = rng.integers(1, 4, n).astype(np.float64)  # integers: every sum below is exact
    return X, y, w, draw(st.integers(1, 3)), seed


@settings(max_examples=150, deadline=None)
@given(data=_node(regression=False), criterion=st.sampled_from(["gini", "entropy"]))
def test_classification_split_matches_reference(data, criterion):
    X, y, w, min_leaf, seed = data
    f, theta, proxy, visit = best_split(
        X, y, w, criterion=criterion, min_samples_leaf=min_leaf, seed=seed
    )
    ref = best_split_reference(
        X, y, w, criterion=criterion, feature_order=visit, min_samples_leaf=min_leaf
    )
    # Integer weights make the class counts exact and the two implementations evaluate the
    # same formula on them in the same order, so the choice (feature, θ) must be identical
    # (ties included: both keep the first). The proxy is a sum of a few terms of size ≤ Σw ≤ 75
    # with relative rounding ~1e-16 each: 1e-12 absolute is > 1000x that.
    assert (f, theta) == ref[:2]
    if f >= 0:
        assert proxy == pytest.approx(ref[2], abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(data=_node(regression=True), criterion=st.sampled_from(["squared_error", "absolute_error"]))
def test_regression_split_matches_reference(data, criterion):
    X, y, w, min_leaf, seed = data
    f, theta, proxy, visit = best_split(
        X, y, w, criterion=criterion, min_samples_leaf=min_leaf, seed=seed
    )
    ref = best_split_reference(
        X, y, w, criterion=criterion, feature_order=visit, min_samples_leaf=min_leaf
    )
    # y and w small integers: S_L, N_L and Σ w|y − m| (m a half-integer) are exact, so equal
    # proxies are bitwise equal on both sides and the first of a tie wins on both.
    assert (f, theta) == ref[:2]
    if f >= 0:
        assert proxy == pytest.approx(ref[2], abs=1e-9)


def test_min_weight_leaf_rejects_light_children():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 1, 1, 1])
    w = np.array([1.0, 5.0, 5.0, 5.0])
    assert best_split(X, y, w)[:2] == (0, 0.5)
    # the left child {x=0} weighs 1 < 2: the best allowed split isolates nothing lighter
    f, theta, _, _ = best_split(X, y, w, min_weight_leaf=2.0)
    assert (f, theta) == (0, 1.5)
    assert best_split_reference(X, y, w, min_weight_leaf=2.0)[:2] == (0, 1.5)


def test_midpoint_that_rounds_up_uses_the_lower_value():
    lo = np.nextafter(1.0, 2.0)  # 1 + 2⁻⁵²
    hi = np.nextafter(lo, 2.0)  # 1 + 2⁻⁵¹: the midpoint 1 + 3·2⁻⁵³ rounds (to even) onto hi
    assert lo / 2.0 + hi / 2.0 == hi
    X = np.array([[lo], [hi]])
    f, theta, _, _ = best_split(X, np.array([0, 1]), np.ones(2))
    assert (f, theta) == (0, lo)
    assert best_split_reference(X, np.array([0, 1]), np.ones(2))[:2] == (0, lo)


def test_constant_node_has_no_split():
    X = np.ones((5, 3))
    assert best_split(X, np.array([0, 1, 0, 1, 0]), np.ones(5))[0] == -1
