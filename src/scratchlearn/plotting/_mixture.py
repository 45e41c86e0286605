"""Plots for Gaussian mixtures: each component's ellipses of equal density over the data."""

from __future__ import annotations

import numpy as np

from ._axes import as_2d, get_axes, palette

__all__ = ["plot_gmm", "component_covariances"]


def component_covariances(gmm) -> np.ndarray:
    """(K, d, d) covariance matrices of a fitted mixture, whatever its ``covariance_type``."""
    K, d = np.shape(gmm.means_)
    C = np.asarray(gmm.covariances_, dtype=np.float64)
    ctype = gmm.covariance_type
    if ctype == "full":
        return C
    if ctype == "tied":
        return np.broadcast_to(C, (K, d, d)).copy()
    if ctype == "diag":
        return np.stack([np.diag(c) for c in C])
    return C[:, None, None] * np.eye(d)  # spherical


def _ellipse_axes(S):
    """Semi-axis lengths (√λ₁ ≥ √λ₂) and the angle in degrees of the major axis of the 2×2
    covariance S: the ellipse (x − μ)ᵀ S⁻¹ (x − μ) = 1 has its axes along S's eigenvectors."""
    lam, V = np.linalg.eigh(S)  # ascending eigenvalues
    lam = np.maximum(lam, 0.0)
    major = V[:, 1]
    return np.sqrt(lam[1]), np.sqrt(lam[0]), np.degrees(np.arctan2(major[1], major[0]))


def plot_gmm(gmm, X, ax=None, features=(0, 1), n_std=(1.0, 2.0), s: float = 12, legend=True):
    """Samples coloured by their most probable component, and each component's ellipses.

    For a component N(μ, Σ), the ellipse at ``c`` standard deviations is
    {x : (x − μ)ᵀ Σ⁻¹ (x − μ) = c²}, drawn in the plane of two ``features`` with the 2×2
    block of Σ (the marginal of the Gaussian on those features): semi-axes c√λ along the
    eigenvectors of that block. Line widths grow with the weight π_k.

    Parameters
    ----------
    gmm : fitted GaussianMixture (any covariance_type)
    X : array-like of shape (n_samples, n_features)
    ax : matplotlib Axes, optional
    features : pair of int, default=(0, 1)
        The two features (columns of X) spanning the plane.
    n_std : sequence of float, default=(1, 2)
        The ellipses drawn, in standard deviations.
    s : float
        Marker size.
    legend : bool, default=True

    Returns
    -------
    ax : matplotlib Axes
        One scatter per component (in component order), then the ellipses as patches.
    """
    from matplotlib.patches import Ellipse

    d = np.shape(gmm.means_)[1]
    X = as_2d(X, "plot_gmm", d)
    i, j = (int(f) for f in features)
    if not (0 <= i < d and 0 <= j < d and i != j):
        raise ValueError(f"features must be two different columns in [0, {d}); got {features}")
    ax = get_axes(ax)
    labels = np.asarray(gmm.predict(X))
    covariances = component_covariances(gmm)
    weights = np.asarray(gmm.weights_)
    colours = palette(len(weights))
    for k, colour in enumerate(colours):
        mask = labels == k
        ax.scatter(X[mask, i], X[mask, j], s=s, color=colour, alpha=0.6, label=f"component {k}")
    block = np.ix_([i, j], [i, j])
    for k, colour in enumerate(colours):
        a, b, angle = _ellipse_axes(covariances[k][block])
        centre = (gmm.means_[k][i], gmm.means_[k][j])
        for c in n_std:
            ax.add_patch(
                Ellipse(
                    centre,
                    width=2 * c * a,
                    height=2 * c * b,
                    angle=angle,
                    fill=False,
                    color=colour,
                    linewidth=1.0 + 3.0 * weights[k],
                    linestyle="-" if c == n_std[0] else "--",
                )
            )
        ax.plot(*centre, marker="x", color="black", markersize=7)
    ax.set_xlabel(f"x{i}")
    ax.set_ylabel(f"x{j}")
    ax.set_title(f"Gaussian mixture ({gmm.covariance_type}): ellipses at {list(n_std)} std")
    if legend:
        ax.legend(loc="best", fontsize="small")
    return ax
