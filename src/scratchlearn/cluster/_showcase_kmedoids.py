"""The k-medoids part of the demo: ``showcase()`` returns a printable report.

1. k-means against k-medoids on three 2-D blobs, then with one far outlier added: the centroid
   of the outlier's cluster is pulled toward it (a mean), the medoid stays put (a data point).
2. alternate, PAM and FasterPAM on standardised wine, from the same BUILD start and from
   k-medoids++ starts: TD, passes and time.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from ._kmeans import KMeans
from ._kmedoids import KMedoids

__all__ = ["showcase", "figures"]


def _blobs_with_outlier():
    """Three blobs of 60 points (σ = 0.6) around known centres, plus one point far to the right."""
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [5.0, 0.0], [2.5, 4.0]])
    X = np.vstack([c + 0.6 * rng.standard_normal((60, 2)) for c in centres])
    return np.vstack([X, [[50.0, 0.0]]])


def _kmeans(X, init):
    """(centres, labels) of k-means from ``init``."""
    km = KMeans(n_clusters=init.shape[0], init=init, n_init=1).fit(X)
    return km.cluster_centers_, km.labels_


def _outlier_fits():
    """k-means and k-medoids (PAM from BUILD) with and without the outlier (the last row)."""
    X = _blobs_with_outlier()
    init = X[[0, 60, 120]]
    fits = {}
    for name, data in (("without", X[:-1]), ("with", X)):
        C, labels = _kmeans(data, init)
        kmed = KMedoids(3, method="pam", init="build").fit(data)
        order = np.argsort(kmed.cluster_centers_[:, 0] + kmed.cluster_centers_[:, 1])
        fits[name] = (C, labels, kmed, order)
    return X, fits


def _outlier_section(lines):
    X, fits = _outlier_fits()
    lines.append(
        "k-means against k-medoids: three blobs of 60 points, then one outlier at (50, 0) added"
    )
    lines.append("  cluster of   k-means centroid moves   k-medoid moves")
    for j in range(3):
        c0 = fits["without"][0][j]
        c1 = fits["with"][0][np.argmin(((fits["with"][0] - c0) ** 2).sum(axis=1))]
        m0 = fits["without"][2].cluster_centers_[j]
        medoids = fits["with"][2].cluster_centers_
        m1 = medoids[np.argmin(((medoids - m0) ** 2).sum(axis=1))]
        lines.append(
            f"  ({c0[0]:5.2f}, {c0[1]:5.2f})   {np.linalg.norm(c1 - c0):18.3f}   "
            f"{np.linalg.norm(m1 - m0):14.3f}"
        )
    lines.append("  a centroid is a mean: the outlier pulls it by 1/61 of their distance;")
    lines.append("  a medoid is the data point of least total distance: it stays in the blob")


def _methods_section(lines):
    from ..datasets import load_wine

    X = load_wine().data
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    lines.append(f"alternate, PAM and FasterPAM on standardised wine ({X.shape[0]} x {X.shape[1]})")
    lines.append("  k   init           method      TD        passes  ms")
    for method in ("alternate", "pam", "fasterpam"):  # compile (or load) the kernels first
        KMedoids(2, method=method, init="build").fit(X[:10])
    for k in (3, 8):
        for init in ("build", "k-medoids++"):
            for method in ("alternate", "pam", "fasterpam"):
                t0 = time.perf_counter()
                km = KMedoids(k, method=method, init=init, random_state=0).fit(X)
                ms = 1e3 * (time.perf_counter() - t0)
                lines.append(
                    f"  {k}   {init:12s}   {method:10s}  {km.inertia_:8.3f}  {km.n_iter_:6d}"
                    f"  {ms:5.1f}"
                )


def showcase() -> str:
    """The k-medoids demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    for section in (_outlier_section, _methods_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _matching_colours(centres, reference) -> np.ndarray:
    """For each of the k centres, the index of the reference centre it stands for: the
    assignment (a permutation) of least total distance, so a cluster keeps its colour."""
    k = centres.shape[0]
    best = min(
        itertools.permutations(range(k)),
        key=lambda p: sum(np.linalg.norm(centres[i] - reference[p[i]]) for i in range(k)),
    )
    return np.array(best)


def _outlier_figure(fig) -> None:
    """Both partitions with the outlier, side by side: centroids against medoids, the centres
    without the outlier marked, each cluster in the same colour in both panels."""
    from matplotlib.lines import Line2D

    from ..plotting._axes import legend_outside, palette

    fig.set_layout_engine("constrained")
    fig.set_size_inches(11, 5.2)
    X, fits = _outlier_fits()
    kmeans_C, kmeans_labels, kmed, _ = fits["with"]
    reference = fits["without"][0]  # the k-means centroids of the three blobs alone
    colours = np.array(palette(3))
    panels = (
        ("k-means: the centroid of one cluster\nfollows the outlier",
         kmeans_labels, kmeans_C, fits["without"][0], "X"),
        ("k-medoids (PAM): the medoids stay put",
         kmed.labels_, kmed.cluster_centers_, fits["without"][2].cluster_centers_, "s"),
    )  # fmt: skip
    axes = fig.subplots(1, 2, sharey=True)
    for ax, (title, labels, C, before, marker) in zip(axes, panels):
        colour_of = _matching_colours(C, reference)  # cluster j is drawn in colours[colour_of[j]]
        inliers = slice(0, X.shape[0] - 1)
        ax.scatter(X[inliers, 0], X[inliers, 1], c=colours[colour_of[labels[inliers]]], s=12)
        ax.scatter(
            C[:, 0], C[:, 1], c=colours[colour_of], marker=marker, s=160, edgecolors="black",
            linewidths=1.5, zorder=3,
        )  # fmt: skip
        ax.scatter(before[:, 0], before[:, 1], c="black", marker="+", s=220, zorder=4)
        ax.set_xlim(-2, 8)  # the outlier at (50, 0) is off to the right: an arrow points at it
        outlier_colour = colours[colour_of[labels[-1]]]  # the cluster the outlier joined
        ax.annotate(
            "outlier at (50, 0)", xy=(1.0, 0.0), xycoords=("axes fraction", "data"),
            xytext=(7.8, -1.5), textcoords="data", ha="right", va="center",
            fontsize="small", color=outlier_colour,
            arrowprops={"arrowstyle": "-|>", "color": outlier_colour},
        )  # fmt: skip
        ax.set_title(title)
        ax.set_xlabel("x₁")
    axes[0].set_ylabel("x₂")
    grey = "0.45"
    handles = [
        Line2D([], [], linestyle="", marker="o", markersize=5, color=grey,
               label="points (colour: cluster,\nthe same in both panels)"),
        Line2D([], [], linestyle="", marker="X", markersize=11, color=grey,
               markeredgecolor="black", label="k-means centroid"),
        Line2D([], [], linestyle="", marker="s", markersize=10, color=grey,
               markeredgecolor="black", label="k-medoids medoid"),
        Line2D([], [], linestyle="", marker="+", markersize=14, color="black",
               markeredgewidth=1.5, label="the same centre\nwithout the outlier"),
    ]  # fmt: skip
    legend_outside(axes[1], handles=handles, labelspacing=1.2)
    fig.suptitle("Three blobs of 60 points and one outlier far to the right, at (50, 0)")


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("kmeans_vs_kmedoids_outlier.png", _outlier_figure)]
