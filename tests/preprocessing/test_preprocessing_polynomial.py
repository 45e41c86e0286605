"""PolynomialFeatures: column order, powers, names, against scikit-learn on real data."""

from itertools import combinations_with_replacement

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn import preprocessing as skp
from sklearn.datasets import load_diabetes, load_iris

from scratchlearn.exceptions import InvalidParameterError
from scratchlearn.preprocessing import PolynomialFeatures

X_DIA = load_diabetes().data  # (442, 10)
X_IRIS = load_iris().data


def test_two_features_degree_two_by_hand():
    X = np.array([[2.0, 3.0], [-1.0, 0.5]])
    P = PolynomialFeatures(degree=2).fit(X)
    np.testing.assert_array_equal(P.transform(X), [[1, 2, 3, 4, 6, 9], [1, -1, 0.5, 1, -0.5, 0.25]])
    np.testing.assert_array_equal(P.powers_, [[0, 0], [1, 0], [0, 1], [2, 0], [1, 1], [0, 2]])
    assert P.get_feature_names_out().tolist() == ["1", "x0", "x1", "x0^2", "x0 x1", "x1^2"]
    assert P.n_output_features_ == 6
    Q = PolynomialFeatures(degree=3, interaction_only=True, include_bias=False).fit(X)
    np.testing.assert_array_equal(Q.transform(X), [[2, 3, 6], [-1, 0.5, -0.5]])


def test_column_count_is_binomial():
    # with replacement: C(d + k, k) monomials of degree <= k including the bias
    from math import comb

    for d, k in [(1, 4), (3, 3), (10, 3)]:
        assert PolynomialFeatures(k).fit(np.ones((2, d))).n_output_features_ == comb(d + k, k)


@pytest.mark.parametrize("degree", [0, 1, 2, 3, (2, 3), (0, 2), (1, 1), (3, 3)])
@pytest.mark.parametrize("interaction_only", [False, True])
@pytest.mark.parametrize("include_bias", [True, False])
def test_matches_sklearn_on_diabetes(degree, interaction_only, include_bias):
    kw = dict(degree=degree, interaction_only=interaction_only, include_bias=include_bias)
    if degree == 0 and not include_bias:
        with pytest.raises(ValueError):
            PolynomialFeatures(**kw).fit(X_DIA)
        return
    ours = PolynomialFeatures(**kw).fit(X_DIA)
    ref = skp.PolynomialFeatures(**kw).fit(X_DIA)
    np.testing.assert_array_equal(ours.powers_, ref.powers_)
    assert ours.n_output_features_ == ref.n_output_features_
    assert ours.get_feature_names_out().tolist() == ref.get_feature_names_out().tolist()
    # each monomial is the same chain of products in the same order: exact
    np.testing.assert_array_equal(ours.transform(X_DIA), ref.transform(X_DIA))


def test_names_from_dataframe_and_input_features():
    import pandas as pd

    df = pd.DataFrame(X_IRIS[:, :2], columns=["len", "wid"])
    P = PolynomialFeatures(2, include_bias=False).fit(df)
    assert P.get_feature_names_out().tolist() == ["len", "wid", "len^2", "len wid", "wid^2"]
    Q = PolynomialFeatures(2).fit(X_IRIS[:, :2])
    assert Q.get_feature_names_out(["a", "b"]).tolist()[-1] == "b^2"
    with pytest.raises(ValueError, match="length"):
        Q.get_feature_names_out(["a"])


@settings(max_examples=25, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 6), st.integers(1, 4)),
        elements=st.floats(-3, 3, allow_nan=False),
    ),
    st.integers(1, 3),
    st.booleans(),
)
def test_each_column_is_its_monomial(X, degree, interaction_only):
    # reference: the product Π x_j^{p_j} of each row of powers_, computed directly
    P = PolynomialFeatures(degree, interaction_only=interaction_only).fit(X)
    Z = P.transform(X)
    direct = np.prod(X[:, None, :] ** P.powers_[None, :, :], axis=2)
    np.testing.assert_allclose(Z, direct, rtol=1e-12, atol=1e-12)
    if not interaction_only:
        d = X.shape[1]
        expected = [()] + [
            c for k in range(1, degree + 1) for c in combinations_with_replacement(range(d), k)
        ]
        assert len(expected) == Z.shape[1]


def test_bad_input():
    with pytest.raises(InvalidParameterError, match="degree"):
        PolynomialFeatures(degree=-1).fit(X_IRIS)
    with pytest.raises(ValueError, match="min_degree"):
        PolynomialFeatures(degree=(3, 2)).fit(X_IRIS)
    with pytest.raises(ValueError, match="4 features"):
        PolynomialFeatures().fit(X_IRIS).transform(X_DIA)
    with pytest.raises(ValueError, match="NaN"):
        PolynomialFeatures().fit(np.array([[np.nan, 1.0]]))
    with pytest.raises(TypeError, match="dense data is required"):
        PolynomialFeatures().fit(sp.csr_matrix(X_IRIS))


def test_user_array_not_modified():
    X = X_DIA.copy()
    PolynomialFeatures(3).fit(X).transform(X)
    np.testing.assert_array_equal(X, X_DIA)


@pytest.mark.parametrize("interaction_only", [False, True])
def test_row_chunks_change_nothing(interaction_only):
    # 3000 rows of 56 output columns: the default chunking splits them into several chunks
    X = np.random.default_rng(0).standard_normal((3000, 5))
    P = PolynomialFeatures(3, interaction_only=interaction_only).fit(X)
    ref = skp.PolynomialFeatures(3, interaction_only=interaction_only).fit(X)
    from scratchlearn.preprocessing._polynomial import expand

    D = P.n_output_features_
    one_chunk = expand(X, 0, 3, interaction_only, True, D, chunk_bytes=1 << 40)
    many = expand(X, 0, 3, interaction_only, True, D, chunk_bytes=1)  # 256-row chunks
    np.testing.assert_array_equal(many, one_chunk)
    np.testing.assert_array_equal(P.transform(X), ref.transform(X))
    np.testing.assert_array_equal(
        PolynomialFeatures((2, 3)).fit(X[:700]).transform(X[:700]),
        skp.PolynomialFeatures((2, 3)).fit(X[:700]).transform(X[:700]),
    )
