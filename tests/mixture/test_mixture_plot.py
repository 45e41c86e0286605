"""plot_gmm: one scatter per component and each component's 1- and 2-std ellipses, whose axes
are the eigen-decomposition of the component's 2×2 covariance block."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Ellipse  # noqa: E402
from sklearn import datasets  # noqa: E402

from scratchlearn.mixture import GaussianMixture  # noqa: E402
from scratchlearn.plotting import plot_gmm  # noqa: E402
from scratchlearn.plotting._mixture import component_covariances  # noqa: E402

X = datasets.load_iris().data


@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
def test_ellipses_follow_each_components_covariance(covariance_type):
    gm = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    ax = plot_gmm(gm, X, ax=Figure().add_subplot(), features=(2, 3))
    assert len(ax.collections) == 3  # one scatter per component
    ellipses = [p for p in ax.patches if isinstance(p, Ellipse)]
    assert len(ellipses) == 6
    covs = component_covariances(gm)
    for k in range(3):
        S = covs[k][np.ix_([2, 3], [2, 3])]
        lam, V = np.linalg.eigh(S)
        one, two = ellipses[2 * k], ellipses[2 * k + 1]
        np.testing.assert_allclose(one.center, gm.means_[k, [2, 3]])
        # widths are 2c√λ_max and 2c√λ_min at c = 1 and 2 standard deviations
        np.testing.assert_allclose([one.width, one.height], 2 * np.sqrt(lam[::-1]), rtol=1e-12)
        np.testing.assert_allclose([two.width, two.height], 4 * np.sqrt(lam[::-1]), rtol=1e-12)
        major = np.array([np.cos(np.radians(one.angle)), np.sin(np.radians(one.angle))])
        assert abs(abs(major @ V[:, 1]) - 1) < 1e-10  # along the leading eigenvector


def test_bad_features_or_data_are_refused():
    gm = GaussianMixture(2, random_state=0).fit(X)
    with pytest.raises(ValueError, match="features must be two different columns in"):
        plot_gmm(gm, X, ax=Figure().add_subplot(), features=(1, 1))
    with pytest.raises(ValueError, match=r"plot_gmm needs X of shape \(n_samples, 4\)"):
        plot_gmm(gm, X[:, :2], ax=Figure().add_subplot())
