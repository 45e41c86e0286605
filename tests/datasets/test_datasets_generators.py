"""Synthetic generators: shapes, determinism under random_state, class balance, geometry,
and clear errors on bad arguments."""

import numpy as np
import pytest

from scratchlearn.datasets import (
    make_blobs,
    make_circles,
    make_classification,
    make_moons,
    make_regression,
    make_xor,
)
from scratchlearn.exceptions import InvalidParameterError

GENERATORS = [
    (make_blobs, {}),
    (make_classification, {}),
    (make_regression, {"noise": 1.0}),
    (make_circles, {"noise": 0.1}),
    (make_moons, {"noise": 0.1}),
    (make_xor, {}),
]


@pytest.mark.parametrize("gen, kw", GENERATORS, ids=lambda g: getattr(g, "__name__", ""))
def test_deterministic_under_random_state(gen, kw):
    a, b, c = gen(random_state=3, **kw), gen(random_state=3, **kw), gen(random_state=4, **kw)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[0], c[0])
    # a Generator is accepted and advanced
    rng = np.random.default_rng(0)
    first, second = gen(random_state=rng, **kw), gen(random_state=rng, **kw)
    assert not np.array_equal(first[0], second[0])


@pytest.mark.parametrize("gen, kw", GENERATORS, ids=lambda g: getattr(g, "__name__", ""))
def test_shapes_and_dtypes(gen, kw):
    X, y = gen(n_samples=37, random_state=0, **kw)[:2]
    assert X.shape[0] == 37 and y.shape == (37,) and X.dtype == np.float64
    assert np.isfinite(X).all()
    assert y.dtype == (np.float64 if gen is make_regression else np.int64)


# ----------------------------------------------------------------------------- blobs


def test_blobs_counts_centres_and_spread():
    X, y, C = make_blobs(
        n_samples=3000,
        n_features=3,
        centers=4,
        cluster_std=0.5,
        random_state=0,
        return_centers=True,
    )
    assert X.shape == (3000, 3) and C.shape == (4, 3)
    assert np.bincount(y).tolist() == [750, 750, 750, 750]
    assert (C >= -10).all() and (C <= 10).all()
    for c in range(4):
        # mean within 5 standard errors (0.5 / sqrt(750) ~ 0.018) of its centre
        np.testing.assert_allclose(X[y == c].mean(axis=0), C[c], atol=5 * 0.5 / np.sqrt(750))
        assert X[y == c].std(axis=0) == pytest.approx(np.full(3, 0.5), rel=0.1)


def test_blobs_given_centres_sizes_and_stds():
    centres = [[0.0, 0.0], [10.0, 10.0]]
    X, y = make_blobs(
        n_samples=[3, 5], centers=centres, cluster_std=[0.0, 1.0], shuffle=False, random_state=0
    )
    assert y.tolist() == [0, 0, 0, 1, 1, 1, 1, 1]
    np.testing.assert_array_equal(X[:3], 0.0)  # zero spread -> exactly the centre
    X, y = make_blobs(n_samples=10, centers=3, random_state=0)
    assert np.bincount(y).tolist() == [4, 3, 3]


@pytest.mark.parametrize(
    "kw, msg",
    [
        ({"n_samples": 0}, "'n_samples' parameter of make_blobs"),
        ({"n_features": -1}, "'n_features' parameter of make_blobs"),
        ({"centers": 0}, "'centers' parameter of make_blobs"),
        ({"cluster_std": -1.0}, "'cluster_std' parameter of make_blobs"),
        ({"cluster_std": [1.0, 2.0]}, "cluster_std must be a float >= 0 or 3"),
        ({"center_box": (5, 1)}, "center_box must be"),
        ({"n_samples": [2, 3], "centers": 3}, "2 cluster sizes but there are 3 centers"),
        ({"n_samples": [2, -3]}, "must be >= 0"),
        ({"centers": [1.0, 2.0]}, "centers must be a finite 2-D array"),
        ({"random_state": "seed"}, "'random_state' parameter of make_blobs"),
    ],
)
def test_blobs_errors(kw, msg):
    with pytest.raises(ValueError, match=msg):
        make_blobs(**kw)


# ----------------------------------------------------------------------------- classification


def test_classification_balance_and_structure():
    X, y = make_classification(
        n_samples=1000,
        n_features=8,
        n_informative=3,
        n_redundant=2,
        n_repeated=1,
        n_classes=3,
        n_clusters_per_class=2,
        flip_y=0.0,
        random_state=0,
    )
    assert X.shape == (1000, 8)
    assert np.bincount(y).tolist() == [334, 333, 333]
    # redundant columns are exact linear combinations of the informative ones
    coef, res, *_ = np.linalg.lstsq(X[:, :3], X[:, 3:5], rcond=None)
    np.testing.assert_allclose(X[:, :3] @ coef, X[:, 3:5], atol=1e-10)
    # the repeated column duplicates one of the first five
    assert any(np.array_equal(X[:, 5], X[:, j]) for j in range(5))
    # noise columns: standard normal, uncorrelated with the label
    assert abs(X[:, 6:].mean()) < 0.1 and X[:, 6:].std() == pytest.approx(1.0, abs=0.1)


def test_classification_classes_are_separated_by_class_sep():
    # one cluster per class at distinct hypercube vertices: class means differ by ~2*class_sep
    X, y = make_classification(
        n_samples=2000,
        n_features=2,
        n_informative=2,
        n_redundant=0,
        n_clusters_per_class=1,
        class_sep=5.0,
        flip_y=0.0,
        random_state=1,
    )
    m0, m1 = X[y == 0].mean(axis=0), X[y == 1].mean(axis=0)
    d = np.abs(m0 - m1)
    # vertices of {-5, 5}^2 differ by 10 in at least one coordinate (sampling error << 1)
    assert d.max() == pytest.approx(10.0, abs=0.5)


def test_classification_weights_and_flip_y():
    X, y = make_classification(n_samples=1000, weights=[0.9], flip_y=0.0, random_state=0)
    assert np.bincount(y).tolist() == [900, 100]
    _, y3 = make_classification(
        n_samples=999, n_classes=3, n_informative=3, weights=[1, 1, 2], flip_y=0.0, random_state=0
    )
    assert np.bincount(y3).tolist() == [250, 250, 499]
    _, y0 = make_classification(n_samples=2000, flip_y=0.0, shuffle=False, random_state=5)
    _, y1 = make_classification(n_samples=2000, flip_y=0.5, shuffle=False, random_state=5)
    changed = (y0 != y1).mean()
    # half the labels are redrawn uniformly, so about a quarter change; +-0.05 is ~5 sigma
    assert changed == pytest.approx(0.25, abs=0.05)


@pytest.mark.parametrize(
    "kw, msg",
    [
        ({"n_features": 3}, "exceeds n_features = 3"),
        ({"n_informative": 1, "n_redundant": 0}, "need that many hypercube vertices"),
        ({"weights": [0.5, 0.2, 0.3]}, "weights must be 2"),
        ({"weights": [-0.5, 1.5]}, "weights must be 2"),
        ({"flip_y": 1.5}, "'flip_y' parameter of make_classification"),
        ({"n_classes": 0}, "'n_classes' parameter"),
        ({"class_sep": -1}, "'class_sep' parameter"),
    ],
)
def test_classification_errors(kw, msg):
    with pytest.raises(ValueError, match=msg):
        make_classification(**kw)


def test_classification_many_informative_features():
    X, y = make_classification(
        n_samples=50, n_features=40, n_informative=35, n_redundant=0, random_state=0
    )
    assert X.shape == (50, 40) and set(y) <= {0, 1}


# ----------------------------------------------------------------------------- regression


def test_regression_is_linear_with_given_coef():
    X, y, w = make_regression(
        n_samples=200, n_features=6, n_informative=3, bias=2.5, coef=True, random_state=0
    )
    assert (w[3:] == 0).all() and (w[:3] > 0).all() and (w[:3] < 100).all()
    np.testing.assert_allclose(y, X @ w + 2.5, rtol=1e-12)  # noise=0: exact up to round-off
    X, y, w = make_regression(n_samples=5000, n_features=3, noise=2.0, coef=True, random_state=0)
    resid = y - X @ w
    assert resid.std() == pytest.approx(2.0, rel=0.05)  # sampling error of a std over 5000


def test_regression_errors_and_cap():
    # n_informative is capped at n_features (the default 10 must work for d = 2)
    _, _, w = make_regression(n_features=2, coef=True, random_state=0)
    assert (w > 0).all()
    with pytest.raises(InvalidParameterError, match="'noise' parameter of make_regression"):
        make_regression(noise=-1)


# ----------------------------------------------------------------------------- circles, moons, xor


def test_circles_geometry():
    X, y = make_circles(n_samples=100, factor=0.3, random_state=0)
    r = np.hypot(X[:, 0], X[:, 1])
    # points are (r cos t, r sin t): the radius comes back to a few ulps
    np.testing.assert_allclose(r[y == 0], 1.0, rtol=1e-12)
    np.testing.assert_allclose(r[y == 1], 0.3, rtol=1e-12)
    assert np.bincount(y).tolist() == [50, 50]
    X, y = make_circles(n_samples=(7, 3), shuffle=False)
    assert y.tolist() == [0] * 7 + [1] * 3
    with pytest.raises(ValueError, match="'factor' parameter of make_circles"):
        make_circles(factor=1.0)
    with pytest.raises(ValueError, match="n_samples must be an int or a pair"):
        make_circles(n_samples=(1, 2, 3))


def test_moons_geometry():
    X, y = make_moons(n_samples=101, shuffle=False)
    assert np.bincount(y).tolist() == [50, 51]
    # points on unit half-circles (cos t, sin t): radii to a few ulps
    np.testing.assert_allclose(np.hypot(X[y == 0, 0], X[y == 0, 1]), 1.0, rtol=1e-12)
    np.testing.assert_allclose(np.hypot(X[y == 1, 0] - 1, X[y == 1, 1] - 0.5), 1.0, rtol=1e-12)
    assert (X[y == 0, 1] >= 0).all() and (X[y == 1, 1] <= 0.5).all()
    with pytest.raises(ValueError, match="'noise' parameter of make_moons"):
        make_moons(noise=-0.1)


def test_xor_corners_and_labels():
    X, y = make_xor(n_samples=10, noise=0.0, shuffle=False)
    assert np.bincount(y).tolist() == [4, 6]
    np.testing.assert_array_equal(y, (X[:, 0] * X[:, 1] < 0).astype(int))
    X, y = make_xor(n_samples=4000, noise=0.2, random_state=0)
    # with noise 0.2, a point leaves its quadrant with probability < 2 * P(z > 5) ~ 6e-7
    np.testing.assert_array_equal(y, (X[:, 0] * X[:, 1] < 0).astype(int))
    assert np.bincount(y).tolist() == [2000, 2000]
    with pytest.raises(ValueError, match="'n_samples' parameter of make_xor"):
        make_xor(n_samples=0)
