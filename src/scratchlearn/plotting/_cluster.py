"""Plots for clusterings: the points coloured by cluster with their centres, and the elbow."""

from __future__ import annotations

import numpy as np

from ._axes import as_2d, get_axes, palette

__all__ = ["plot_clusters", "plot_elbow"]


def _principal_plane(X):
    """(mean, V) with V (d, 2) the first two principal directions of X (right singular
    vectors of the centred data), so that (X − mean) @ V are the plotted coordinates."""
    mean = X.mean(axis=0)
    _, _, Vt = np.linalg.svd(X - mean, full_matrices=False)
    return mean, Vt[:2].T


def plot_clusters(X, labels, centers=None, ax=None, s: float = 20, title=None):
    """Scatter the rows of X coloured by cluster, with the centres as black crosses.

    2-D data are drawn as they are; for d > 2 the rows (and centres) are projected on the first
    two principal directions of X, and the axes say so.

    Returns
    -------
    ax : matplotlib Axes
        One scatter per cluster (in label order), then one for the centres when given.
    """
    X = as_2d(X, "plot_clusters")
    labels = np.asarray(labels)
    if labels.shape != (X.shape[0],):
        raise ValueError(f"labels must have shape ({X.shape[0]},); got {labels.shape}")
    names = ("x0", "x1")
    C = None if centers is None else as_2d(centers, "plot_clusters (centers)", X.shape[1])
    if X.shape[1] == 1:
        raise ValueError("plot_clusters needs at least 2 features")
    if X.shape[1] > 2:
        mean, V = _principal_plane(X)
        X = (X - mean) @ V  # (n, 2)
        C = None if C is None else (C - mean) @ V
        names = ("first principal direction", "second principal direction")
    ax = get_axes(ax)
    values = np.unique(labels)
    for colour, v in zip(palette(len(values)), values, strict=True):
        pts = X[labels == v]
        ax.scatter(pts[:, 0], pts[:, 1], s=s, color=colour, label=f"cluster {v}")
    if C is not None:
        ax.scatter(C[:, 0], C[:, 1], marker="X", s=8 * s, c="black", label="centres")
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    if title:
        ax.set_title(title)
    return ax


def plot_elbow(X, ks, ax=None, random_state=0, **kmeans_params):
    """Inertia J of :class:`~scratchlearn.cluster.KMeans` against the number of clusters k.

    J falls as k grows; the "elbow", where adding a cluster stops paying much, is the usual
    informal choice of k. Returns ``(ax, inertias)``.
    """
    from ..cluster import KMeans

    X = as_2d(X, "plot_elbow")
    ks = [int(k) for k in ks]
    if not ks or min(ks) < 1 or max(ks) > X.shape[0]:
        raise ValueError(f"ks must be cluster counts between 1 and n_samples={X.shape[0]}")
    inertias = np.array(
        [KMeans(k, random_state=random_state, **kmeans_params).fit(X).inertia_ for k in ks]
    )
    ax = get_axes(ax)
    ax.plot(ks, inertias, marker="o")
    ax.set_xlabel("number of clusters k")
    ax.set_ylabel("inertia J = Σ‖x − μ‖²")
    ax.set_title("Elbow curve")
    return ax, inertias
