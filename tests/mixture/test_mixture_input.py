"""Bad input to GaussianMixture: refused before any work with a message naming what is wrong;
a singular covariance handled by reg_covar, or refused naming the component."""

import numpy as np
import pytest
from sklearn import datasets

from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.mixture import GaussianMixture

X = datasets.load_iris().data  # (150, 4)
K, D = 3, 4


def test_more_components_than_samples():
    with pytest.raises(ValueError, match="n_samples=5 < n_components=6"):
        GaussianMixture(6).fit(X[:5])


@pytest.mark.parametrize(
    "param, value",
    [("reg_covar", -1e-6), ("tol", -1.0), ("n_components", 0), ("n_init", 0), ("max_iter", -1)],
)
def test_out_of_range_hyperparameters(param, value):
    with pytest.raises(InvalidParameterError, match=f"The '{param}' parameter of GaussianMixture"):
        GaussianMixture(**{param: value}).fit(X)


def test_nan_in_X_or_in_a_start():
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        GaussianMixture(K).fit(bad)
    means = X[:3].copy()
    means[0, 0] = np.nan
    with pytest.raises(ValueError, match="Input means_init contains NaN"):
        GaussianMixture(K, means_init=means).fit(X)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (
            {"weights_init": np.ones(4) / 4},
            r"weights_init must have shape \(3,\); got shape \(4,\)",
        ),
        ({"weights_init": [0.5, 0.6, -0.1]}, r"weights_init must lie in \[0, 1\]"),
        ({"weights_init": [0.5, 0.3, 0.1]}, "weights_init must sum to 1; got sum 0.9"),
        ({"means_init": np.zeros((3, 5))}, r"means_init must have shape \(3, 4\); got shape"),
        ({"precisions_init": np.ones((3, 4))}, r"precisions_init must have shape \(3, 4, 4\)"),
        (
            {"precisions_init": np.ones(3), "covariance_type": "diag"},
            r"precisions_init must have shape \(3, 4\); got shape \(3,\)",
        ),
        (
            {"precisions_init": np.eye(4)[None].repeat(3, 0), "covariance_type": "tied"},
            r"precisions_init must have shape \(4, 4\)",
        ),
        (
            {"precisions_init": np.ones((3, 4)), "covariance_type": "spherical"},
            r"precisions_init must have shape \(3,\)",
        ),
    ],
)
def test_starting_parameters_of_the_wrong_shape_or_range(kwargs, match):
    with pytest.raises(ValueError, match=match):
        GaussianMixture(K, **kwargs).fit(X)


def test_precisions_that_are_not_positive_definite():
    P = np.eye(4)[None].repeat(3, 0)
    P[1, 2, 2] = -1.0
    with pytest.raises(ValueError, match=r"precisions_init \(component 1\) must be positive def"):
        GaussianMixture(K, precisions_init=P).fit(X)
    P = np.eye(4)[None].repeat(3, 0)
    P[2, 0, 1] = 0.5
    with pytest.raises(ValueError, match=r"precisions_init \(component 2\) must be symmetric"):
        GaussianMixture(K, precisions_init=P).fit(X)
    with pytest.raises(ValueError, match="must be positive; got a minimum of 0"):
        GaussianMixture(K, covariance_type="spherical", precisions_init=[1.0, 0.0, 2.0]).fit(X)


def test_user_arrays_and_hyperparameters_are_left_alone():
    w, P = [0.2, 0.3, 0.5], np.eye(4)[None].repeat(3, 0)
    P_before = P.copy()
    gm = GaussianMixture(K, weights_init=w, precisions_init=P, random_state=0).fit(X)
    assert gm.weights_init is w and w == [0.2, 0.3, 0.5]
    np.testing.assert_array_equal(P, P_before)
    assert gm.precisions_init is P


def _collapsed():
    """Three groups of 20 identical points on the line y = 0: each component's scatter, and
    the pooled one's y-variance, are exactly zero (the tied covariance's raw-moment formula
    leaves rounding residue in x, but y is 0 − 0)."""
    centres = np.array([[0.0, 0.0], [5.0, 0.0], [9.0, 0.0]])
    return np.repeat(centres, 20, axis=0), centres


@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
def test_a_singular_covariance_is_handled_by_reg_covar(covariance_type):
    X2, centres = _collapsed()
    gm = GaussianMixture(
        3, covariance_type=covariance_type, means_init=centres, random_state=0
    ).fit(X2)
    assert np.all(np.isfinite(gm.precisions_cholesky_))
    np.testing.assert_array_equal(np.sort(gm.predict(centres)), [0, 1, 2])


@pytest.mark.parametrize(
    "covariance_type, which",
    [
        ("full", "component 0"),
        ("tied", "the shared"),
        ("diag", "component 0"),
        ("spherical", "component 0"),
    ],
)
def test_a_singular_covariance_without_reg_covar_names_the_component(covariance_type, which):
    X2, centres = _collapsed()
    unit = {"full": np.eye(2)[None].repeat(3, 0), "tied": np.eye(2), "diag": np.ones((3, 2))}
    start = {  # the whole start given: the first M-step meets the collapsed groups in order
        "weights_init": np.full(3, 1 / 3),
        "means_init": centres,
        "precisions_init": unit.get(covariance_type, np.ones(3)),
    }
    gm = GaussianMixture(3, covariance_type=covariance_type, reg_covar=0.0, **start)
    with pytest.raises(ValueError, match=f"covariance of {which}.*Increase reg_covar"):
        gm.fit(X2)


def test_sample_and_predict_need_a_fit_and_a_positive_count():
    gm = GaussianMixture(K)
    for call in (lambda: gm.predict(X), lambda: gm.score_samples(X), lambda: gm.sample(3)):
        with pytest.raises(NotFittedError, match="This GaussianMixture instance is not fitted"):
            call()
    gm.fit(X)
    with pytest.raises(ValueError, match="n_samples must be an int >= 1; got 0"):
        gm.sample(0)
    with pytest.raises(ValueError, match="X has 3 features, but GaussianMixture is expecting 4"):
        gm.predict(X[:, :3])
