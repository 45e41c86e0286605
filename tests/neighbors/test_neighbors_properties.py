"""Properties of the neighbour estimators, and bad input."""

import numpy as np
import pytest
from sklearn import datasets
from sklearn import neighbors as skn

from scratchlearn.exceptions import InvalidParameterError
from scratchlearn.neighbors import (
    KNeighborsClassifier,
    KNeighborsRegressor,
    NearestNeighbors,
    RadiusNeighborsClassifier,
)


def _iris():
    return datasets.load_iris(return_X_y=True)


def test_duplicates_and_query_equal_to_a_training_point():
    X, y = _iris()
    X2, y2 = np.vstack([X, X[:5]]), np.concatenate([y, (y[:5] + 1) % 3])  # rows 150..154 dup 0..4
    m = KNeighborsClassifier(n_neighbors=3, weights="distance").fit(X2, y2)
    d, i = m.kneighbors(X[:1])
    assert d[0, 0] == 0.0 and d[0, 1] == 0.0  # exactly, not the expanded form's rounding
    assert i[0, 0] < i[0, 1]  # equal distances: lower index first
    # the two exact matches (classes 0 and 1) take all the weight, the third neighbour none
    np.testing.assert_array_equal(m.predict_proba(X[:1]), [[0.5, 0.5, 0.0]])
    # X=None: each duplicate pair finds its twin at distance 0 and not itself
    d, i = NearestNeighbors(n_neighbors=1).fit(X2).kneighbors()
    assert i[0, 0] == 150 and i[150, 0] == 0 and d[0, 0] == 0.0


def test_n_neighbors_equal_to_n_samples():
    X, y = _iris()
    m = KNeighborsClassifier(n_neighbors=len(y)).fit(X, y)
    np.testing.assert_allclose(m.predict_proba(X[:3]), [[1 / 3, 1 / 3, 1 / 3]] * 3)
    d, i = m.kneighbors(X[:2])
    assert sorted(i[0]) == list(range(len(y))) and np.all(np.diff(d, axis=1) >= 0)
    r = KNeighborsRegressor(n_neighbors=len(y)).fit(X, y)
    np.testing.assert_allclose(r.predict(X[:2]), [1.0, 1.0])


def test_hamming_on_integer_and_boolean_input():
    X = datasets.load_digits().data
    B = X > 7
    y = datasets.load_digits().target
    a = KNeighborsClassifier(n_neighbors=5, metric="hamming", algorithm="brute").fit(B, y)
    b = KNeighborsClassifier(n_neighbors=5, metric="hamming", algorithm="brute")
    b.fit(B.astype(int), y)
    np.testing.assert_array_equal(a.kneighbors(B[:50])[0], b.kneighbors(B[:50].astype(int))[0])
    d, _ = a.kneighbors(B[:50])
    assert np.all(d * 64 == np.round(d * 64))  # fractions of the 64 coordinates
    s = skn.KNeighborsClassifier(n_neighbors=5, metric="hamming", algorithm="brute").fit(B, y)
    np.testing.assert_array_equal(d, s.kneighbors(B[:50])[0])  # integer counts / 64: exact


def test_callable_metric_and_weights():
    X, y = _iris()

    def l1(a, b):
        return float(np.abs(a - b).sum())

    a = KNeighborsClassifier(n_neighbors=4, metric=l1, weights=lambda d: np.exp(-d)).fit(X, y)
    b = KNeighborsClassifier(n_neighbors=4, metric="manhattan", weights=lambda d: np.exp(-d))
    b.fit(X, y)
    Q = X[::10] + 0.05
    np.testing.assert_allclose(a.kneighbors(Q)[0], b.kneighbors(Q)[0], rtol=1e-14)
    np.testing.assert_allclose(a.predict_proba(Q), b.predict_proba(Q), rtol=1e-12)


def test_outlier_label():
    X, y = _iris()
    far = X[:3] + 100.0
    m = RadiusNeighborsClassifier(radius=0.5).fit(X, y)
    with pytest.raises(ValueError, match=r"query rows \[0, 1, 2\]"):
        m.predict(far)
    m = RadiusNeighborsClassifier(radius=0.5, outlier_label="most_frequent").fit(X, y)
    np.testing.assert_array_equal(m.predict(far), [0, 0, 0])  # iris: 50 each, lowest wins
    m = RadiusNeighborsClassifier(radius=0.5, outlier_label=2).fit(X, y)
    np.testing.assert_array_equal(m.predict_proba(far), [[0, 0, 1.0]] * 3)
    m = RadiusNeighborsClassifier(radius=0.5, outlier_label=-1).fit(X, y)
    assert list(m.predict(far)) == [-1, -1, -1]
    with pytest.warns(UserWarning, match="not a class"):
        np.testing.assert_array_equal(m.predict_proba(far), np.zeros((3, 3)))


def test_bad_input():
    X, y = _iris()
    with pytest.raises(ValueError, match="n_neighbors = 151.*n_samples = 150"):
        KNeighborsClassifier(n_neighbors=151).fit(X, y)
    with pytest.raises(ValueError, match="n_neighbors = 151 .*n_samples_fit = 150"):
        NearestNeighbors(n_neighbors=150).fit(X).kneighbors()  # X=None asks for one more
    with pytest.raises(ValueError, match="'cosine' is not valid for algorithm 'kd_tree'"):
        KNeighborsClassifier(metric="cosine", algorithm="kd_tree").fit(X, y)
    with pytest.raises(ValueError, match="'hamming' is not valid for algorithm 'kd_tree'"):
        KNeighborsClassifier(metric="hamming", algorithm="kd_tree").fit(X, y)
    with pytest.raises(ValueError, match="'l1' is not valid for algorithm 'kd_tree'"):

        def l1(a, b):
            return float(np.abs(a - b).sum())

        KNeighborsClassifier(metric=l1, algorithm="kd_tree").fit(X, y)
    with pytest.raises(InvalidParameterError, match="'p' parameter"):
        KNeighborsClassifier(p=0.5).fit(X, y)
    with pytest.raises(ValueError, match="p >= 1"):
        KNeighborsClassifier(metric_params={"p": 0.5}).fit(X, y)
    with pytest.raises(InvalidParameterError, match="'radius' parameter"):
        RadiusNeighborsClassifier(radius=0.0).fit(X, y)
    with pytest.raises(ValueError, match="radius must be a real number > 0"):
        NearestNeighbors().fit(X).radius_neighbors(X, radius=-1.0)
    Xn = X.copy()
    Xn[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KNeighborsClassifier().fit(Xn, y)
    with pytest.raises(ValueError, match="NaN"):
        KNeighborsClassifier().fit(X, y).predict(Xn)


def test_user_arrays_untouched_and_copied():
    X, y = _iris()
    X0 = X.copy()
    m = KNeighborsClassifier().fit(X, y)
    m.predict(X)
    np.testing.assert_array_equal(X, X0)
    X[:] = 0.0  # editing the caller's array afterwards changes nothing in the model
    assert m.kneighbors(X0[:1])[0][0, 0] == 0.0
