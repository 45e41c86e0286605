"""The mixtures part of the demo: ``showcase()`` returns a printable report.

1. Three long parallel clusters: k-means (spherical clusters of equal size) cuts across them;
   a full-covariance Gaussian mixture recovers them from k-means++ seeds (adjusted Rand index
   of each against the true grouping), but started from the k-means partition itself EM stays
   in that partition's local maximum: the starting point matters.
2. BIC against the number of components for the four covariance types: the minimum picks the
   number of clusters and the shape.
"""

from __future__ import annotations

import functools

import numpy as np

from ..cluster import KMeans
from ._gaussian_mixture import GaussianMixture

__all__ = ["showcase", "figures", "elongated_clusters"]

_TYPES = ("full", "tied", "diag", "spherical")


def elongated_clusters(n_per=200, seed=0):
    """(X, y): three parallel bars (standard deviations 2 along, 0.3 across), 2.5 apart,
    tilted by 30°."""
    rng = np.random.default_rng(seed)
    theta = np.radians(30.0)
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    scale = np.array([2.0, 0.3])  # standard deviations along and across the bars
    blocks = [rng.standard_normal((n_per, 2)) * scale + [0.0, 2.5 * k] for k in range(3)]
    return np.vstack(blocks) @ rotation.T, np.repeat(np.arange(3), n_per)


@functools.cache
def _fits():
    """(X, y, k-means labels, GMM from k-means++ seeds, GMM from the k-means partition)."""
    X, y = elongated_clusters()
    kmeans_labels = KMeans(3, n_init=10, random_state=0).fit(X).labels_
    gmm = GaussianMixture(3, init_params="k-means++", n_init=10, random_state=0).fit(X)
    from_kmeans = GaussianMixture(3, init_params="kmeans", random_state=0).fit(X)
    return X, y, kmeans_labels, gmm, from_kmeans


_KS = tuple(range(1, 7))


@functools.cache
def _bic_table():
    """{covariance_type: [BIC for K in _KS]} on the bars (k-means++ seeds, best of 5)."""
    X, _ = elongated_clusters()
    fit = lambda k, ct: GaussianMixture(  # noqa: E731
        k, covariance_type=ct, init_params="k-means++", n_init=5, random_state=0
    ).fit(X)
    return {ct: [fit(k, ct).bic(X) for k in _KS] for ct in _TYPES}


def showcase() -> str:
    """The mixtures demo as text (no printing: the caller decides where it goes)."""
    from ..metrics import adjusted_rand_score

    X, y, km, gmm, from_kmeans = _fits()
    lines = [
        "Three long parallel clusters (600 points in 2-D; std 2 along, 0.3 across, 2.5 apart)",
        f"  k-means (Lloyd, k-means++ seeds, best of 10 starts): adjusted Rand index "
        f"{adjusted_rand_score(y, km):.3f}",
        f"  Gaussian mixture (full, k-means++ seeds, best of 10 starts): adjusted Rand index "
        f"{adjusted_rand_score(y, gmm.predict(X)):.3f}",
        f"  Gaussian mixture started from the k-means partition: adjusted Rand index "
        f"{adjusted_rand_score(y, from_kmeans.predict(X)):.3f} (EM climbs to the nearest "
        "local maximum)",
        f"  EM: {gmm.n_iter_} iterations, stop {gmm.stop_reason_!r}, mean log-likelihood "
        f"{-gmm.history_['objective'][0]:.4f} -> {-gmm.history_['objective'][-1]:.4f}",
        "  weights " + ", ".join(f"{w:.3f}" for w in gmm.weights_),
        "",
        "BIC against the number of components (lower is better)",
    ]
    table = _bic_table()
    lines.append("  K          " + "".join(f"{k:>10d}" for k in _KS))
    for ct, row in table.items():
        best = _KS[int(np.argmin(row))]
        lines.append(f"  {ct:<10} " + "".join(f"{b:10.1f}" for b in row) + f"   best K={best}")
    ct = min(table, key=lambda c: min(table[c]))
    lines.append(f"  overall minimum: covariance_type={ct!r}, K={_KS[int(np.argmin(table[ct]))]}")
    return "\n".join(lines) + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _kmeans_vs_gmm_figure(fig) -> None:
    from ..metrics import adjusted_rand_score
    from ..plotting import plot_gmm
    from ..plotting._axes import palette

    fig.set_layout_engine("constrained")
    X, y, km, gmm, _ = _fits()
    fig.set_size_inches(11, 4.8)
    left, right = fig.subplots(1, 2, sharex=True, sharey=True)
    for k, colour in enumerate(palette(3)):
        left.scatter(X[km == k, 0], X[km == k, 1], s=10, color=colour, alpha=0.6)
    left.set_title(
        f"k-means cuts across the bars\n(adjusted Rand index {adjusted_rand_score(y, km):.2f})"
    )
    plot_gmm(gmm, X, ax=right, legend=False)
    right.set_title(
        "Gaussian mixture (full covariances), ellipses at 1 and 2 std\n"
        f"(adjusted Rand index {adjusted_rand_score(y, gmm.predict(X)):.2f})"
    )
    left.set_xlabel("x0")
    left.set_ylabel("x1")
    right.set_ylabel("")
    for ax in (left, right):
        ax.set_aspect("equal")
    fig.suptitle("Three long parallel clusters: spheres (k-means) against ellipses (EM)")


def _bic_figure(fig) -> None:
    fig.set_layout_engine("constrained")
    ax = fig.add_subplot()
    for ct, row in _bic_table().items():
        ax.plot(_KS, row, marker="o", label=ct)
    ax.set_xlabel("number of components K")
    ax.set_ylabel("BIC (lower is better)")
    ax.set_title("Choosing K and the covariance type by BIC")
    ax.legend(title="covariance_type", loc="center right")


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("gmm_vs_kmeans.png", _kmeans_vs_gmm_figure), ("gmm_bic.png", _bic_figure)]
