"""Synthetic data generators.

All randomness comes from ``random_state`` through :func:`~scratchlearn.utils.check_random_state`
(one generator per call), so the same seed gives the same arrays. Every generator returns
``X`` of shape (n, d) float64 and ``y`` of shape (n,): int64 class labels for the classification
generators, float64 for :func:`make_regression`.

Symbols: ``n`` samples, ``d`` features, ``k`` clusters (centres), ``σ`` standard deviation.

================== ==========================================================================
make_blobs         k isotropic Gaussians ``N(μ_c, σ_c² I)``; label = the cluster
make_classification clusters at hypercube vertices, random covariances, redundant and noise
                   features, label noise ``flip_y``
make_regression    ``y = Xw + b + ε``, ``X ~ N(0, I)``, ``ε ~ N(0, noise²)``
make_circles       two concentric circles of radii 1 and ``factor``
make_moons         two interleaving half circles
make_xor           four Gaussian clusters at (±1, ±1); label 1 where the signs differ
================== ==========================================================================
"""

from __future__ import annotations

import numbers

import numpy as np

from ..utils import check_random_state
from ..utils._param_validation import Interval, validate_params

__all__ = [
    "make_blobs",
    "make_classification",
    "make_regression",
    "make_circles",
    "make_moons",
    "make_xor",
]

_POS_INT = Interval(numbers.Integral, 1, None, closed="left")
_NONNEG_INT = Interval(numbers.Integral, 0, None, closed="left")
_NONNEG_REAL = Interval(numbers.Real, 0, None, closed="left")


def _split_evenly(n: int, k: int) -> np.ndarray:
    """``n`` items over ``k`` groups: ``n // k`` each, the first ``n % k`` groups one more."""
    counts = np.full(k, n // k, dtype=np.int64)
    counts[: n % k] += 1
    return counts


def _shuffle_rows(rng, X, y, shuffle):
    if not shuffle:
        return X, y
    perm = rng.permutation(X.shape[0])
    return X[perm], y[perm]


def _two_groups(n_samples, owner):
    """``n_samples`` as an int (split out/in, the outer group gets the floor) or a pair."""
    if isinstance(n_samples, numbers.Integral):
        return n_samples // 2, n_samples - n_samples // 2
    pair = tuple(n_samples)
    if len(pair) != 2 or not all(isinstance(v, numbers.Integral) and v >= 0 for v in pair):
        raise ValueError(
            f"{owner}: n_samples must be an int or a pair (n_outer, n_inner) of non-negative "
            f"ints; got {n_samples!r}."
        )
    return int(pair[0]), int(pair[1])


def make_blobs(
    n_samples=100,
    n_features=2,
    *,
    centers=None,
    cluster_std=1.0,
    center_box=(-10.0, 10.0),
    shuffle=True,
    random_state=None,
    return_centers=False,
):
    """Isotropic Gaussian clusters: ``x ~ N(μ_c, σ_c² I)`` for cluster ``c``, label ``c``.

    Parameters
    ----------
    n_samples : int or array-like of int
        Total number of points, split as evenly as possible over the clusters, or the number of
        points of each cluster.
    n_features : int
        Dimension d; ignored when ``centers`` is an array (its width is used).
    centers : None, int or array-like of shape (k, d)
        Number of centres drawn uniformly in ``center_box``, or the centres themselves. None
        means 3 (or one per entry of ``n_samples`` when that is a list).
    cluster_std : float or array-like of shape (k,)
        σ of each cluster.
    center_box : (float, float)
        Bounds of the uniform draw of random centres.
    shuffle : bool
        Shuffle the rows; otherwise rows are grouped by cluster.
    random_state : None, int or numpy.random.Generator
    return_centers : bool
        Also return the (k, d) centres.

    Returns
    -------
    X : ndarray (n, d); y : ndarray (n,) int64; centers : ndarray (k, d) if ``return_centers``.
    """
    validate_params(
        {
            "n_samples": [_POS_INT, "array-like"],
            "n_features": [_POS_INT],
            "centers": [None, _POS_INT, "array-like"],
            "cluster_std": [_NONNEG_REAL, "array-like"],
            "center_box": ["array-like"],
            "shuffle": ["boolean"],
            "random_state": ["random_state"],
            "return_centers": ["boolean"],
        },
        locals(),
        "make_blobs",
    )
    rng = check_random_state(random_state)
    per_cluster = None
    if not isinstance(n_samples, numbers.Integral):
        per_cluster = np.asarray(n_samples)
        if per_cluster.ndim != 1 or per_cluster.size == 0 or per_cluster.dtype.kind not in "iu":
            raise ValueError(
                f"make_blobs: n_samples must be an int or a 1-D list of ints; got {n_samples!r}."
            )
        if (per_cluster < 0).any() or per_cluster.sum() == 0:
            raise ValueError(
                "make_blobs: the per-cluster counts in n_samples must be >= 0 with a positive sum."
            )
    try:
        lo, hi = (float(v) for v in center_box)
    except (TypeError, ValueError):
        lo = hi = np.nan
    if not lo < hi:
        raise ValueError(
            f"make_blobs: center_box must be (low, high) with low < high; got {center_box!r}."
        )

    if centers is None or isinstance(centers, numbers.Integral):
        k = (3 if per_cluster is None else per_cluster.size) if centers is None else int(centers)
        C = rng.uniform(lo, hi, size=(k, n_features))  # (k, d)
    else:
        try:
            C = np.asarray(centers, dtype=np.float64)
        except (TypeError, ValueError):
            C = np.empty((0, 0))
        if C.ndim != 2 or C.shape[0] == 0 or not np.isfinite(C).all():
            raise ValueError("make_blobs: centers must be a finite 2-D array of shape (k, d).")
        k, n_features = C.shape
    if per_cluster is not None and per_cluster.size != k:
        raise ValueError(
            f"make_blobs: n_samples gives {per_cluster.size} cluster sizes but there are "
            f"{k} centers."
        )
    counts = (
        _split_evenly(int(n_samples), k) if per_cluster is None else per_cluster.astype(np.int64)
    )

    try:
        std = np.asarray(cluster_std, dtype=np.float64)
    except (TypeError, ValueError):
        std = np.empty(0)
    if std.ndim == 0:
        std = np.full(k, float(std))
    if std.shape != (k,) or (std < 0).any() or not np.isfinite(std).all():
        raise ValueError(f"make_blobs: cluster_std must be a float >= 0 or {k} such floats.")

    X = np.concatenate(
        [rng.normal(C[c], std[c], size=(counts[c], n_features)) for c in range(k)]
    )  # (n, d)
    y = np.repeat(np.arange(k, dtype=np.int64), counts)
    X, y = _shuffle_rows(rng, X, y, shuffle)
    return (X, y, C) if return_centers else (X, y)


def _hypercube_vertices(rng, n_vertices: int, dim: int) -> np.ndarray:
    """``n_vertices`` distinct random vertices of {-1, +1}^dim, shape (n_vertices, dim)."""
    if dim <= 30:
        codes = rng.choice(2**dim, size=n_vertices, replace=False)
        bits = (codes[:, None] >> np.arange(dim)) & 1  # (n_vertices, dim)
        return 2.0 * bits - 1.0
    rows: set = set()
    while len(rows) < n_vertices:  # 2**dim vertices: collisions are vanishingly rare
        rows.add(tuple(rng.integers(0, 2, size=dim)))
    return 2.0 * np.array(sorted(rows), dtype=np.float64)[rng.permutation(n_vertices)] - 1.0


def _class_counts(n: int, w: np.ndarray) -> np.ndarray:
    """Largest-remainder rounding of ``n * w`` to ints that sum to n."""
    exact = n * w
    counts = np.floor(exact).astype(np.int64)
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[: n - counts.sum()]] += 1
    return counts


def make_classification(
    n_samples=100,
    n_features=20,
    *,
    n_informative=2,
    n_redundant=2,
    n_repeated=0,
    n_classes=2,
    n_clusters_per_class=2,
    weights=None,
    flip_y=0.01,
    class_sep=1.0,
    shuffle=True,
    random_state=None,
):
    """A random n-class problem built from Gaussian clusters on hypercube vertices.

    Each class owns ``n_clusters_per_class`` clusters. Cluster centres are distinct vertices of
    the hypercube ``{-class_sep, +class_sep}^n_informative``; a cluster's points are
    ``z A + μ`` with ``z ~ N(0, I)`` and ``A`` a random matrix with entries in [-1, 1] (so each
    cluster has its own covariance ``AᵀA``). Columns, in this order: ``n_informative``
    informative features, ``n_redundant`` random linear combinations of them, ``n_repeated``
    copies of randomly chosen earlier columns, and ``N(0, 1)`` noise features up to
    ``n_features``. A fraction ``flip_y`` of the labels is then replaced by uniformly random
    classes. ``shuffle`` permutes rows only, so column roles stay as listed.

    ``weights`` are the class proportions (length ``n_classes``, or ``n_classes - 1`` with the
    last class taking the rest); class sizes are ``n * weights`` rounded to sum to n.
    """
    validate_params(
        {
            "n_samples": [_POS_INT],
            "n_features": [_POS_INT],
            "n_informative": [_POS_INT],
            "n_redundant": [_NONNEG_INT],
            "n_repeated": [_NONNEG_INT],
            "n_classes": [_POS_INT],
            "n_clusters_per_class": [_POS_INT],
            "weights": [None, "array-like"],
            "flip_y": [Interval(numbers.Real, 0, 1, closed="both")],
            "class_sep": [_NONNEG_REAL],
            "shuffle": ["boolean"],
            "random_state": ["random_state"],
        },
        locals(),
        "make_classification",
    )
    if n_informative + n_redundant + n_repeated > n_features:
        raise ValueError(
            "make_classification: n_informative + n_redundant + n_repeated = "
            f"{n_informative + n_redundant + n_repeated} exceeds n_features = {n_features}."
        )
    n_clusters = n_classes * n_clusters_per_class
    if n_clusters > 2**n_informative:
        raise ValueError(
            f"make_classification: n_classes * n_clusters_per_class = {n_clusters} clusters need "
            f"that many hypercube vertices, but n_informative = {n_informative} gives only "
            f"{2**n_informative}; raise n_informative."
        )
    if weights is None:
        w = np.full(n_classes, 1.0 / n_classes)
    else:
        w = np.asarray(weights, dtype=np.float64).ravel()
        if w.size == n_classes - 1:
            w = np.append(w, 1.0 - w.sum())
        if w.size != n_classes or not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
            raise ValueError(
                f"make_classification: weights must be {n_classes} (or {n_classes - 1}) "
                f"non-negative proportions; got {weights!r}."
            )
        w = w / w.sum()

    rng = check_random_state(random_state)
    centroids = class_sep * _hypercube_vertices(rng, n_clusters, n_informative)  # (K·C, p)
    cluster_class = np.arange(n_clusters) % n_classes  # cluster j belongs to class j mod K
    counts = np.zeros(n_clusters, dtype=np.int64)
    for c, n_c in enumerate(_class_counts(n_samples, w)):
        counts[cluster_class == c] = _split_evenly(int(n_c), n_clusters_per_class)

    X = np.empty((n_samples, n_features))
    y = np.repeat(cluster_class, counts).astype(np.int64)
    start = 0
    for j in range(n_clusters):
        Z = rng.standard_normal((counts[j], n_informative))
        A = rng.uniform(-1.0, 1.0, size=(n_informative, n_informative))
        X[start : start + counts[j], :n_informative] = Z @ A + centroids[j]
        start += counts[j]
    p, r = n_informative, n_informative + n_redundant
    if n_redundant:
        B = rng.uniform(-1.0, 1.0, size=(n_informative, n_redundant))
        X[:, p:r] = X[:, :p] @ B  # (n, n_redundant)
    if n_repeated:
        X[:, r : r + n_repeated] = X[:, rng.integers(0, r, size=n_repeated)]
    X[:, r + n_repeated :] = rng.standard_normal((n_samples, n_features - r - n_repeated))

    if flip_y > 0:
        flip = rng.random(n_samples) < flip_y
        y[flip] = rng.integers(0, n_classes, size=int(flip.sum()))
    return _shuffle_rows(rng, X, y, shuffle)


def make_regression(
    n_samples=100,
    n_features=100,
    *,
    n_informative=10,
    bias=0.0,
    noise=0.0,
    shuffle=True,
    coef=False,
    random_state=None,
):
    """A random linear regression problem ``y = Xw + b + ε``.

    ``X ~ N(0, I)`` (n, d); the first ``min(n_informative, d)`` entries of ``w`` are drawn
    uniformly in [0, 100), the others are 0; ``b = bias``; ``ε ~ N(0, noise²)``. ``shuffle``
    permutes rows only. With ``coef=True`` also returns ``w`` (d,).
    """
    validate_params(
        {
            "n_samples": [_POS_INT],
            "n_features": [_POS_INT],
            "n_informative": [_NONNEG_INT],
            "bias": [Interval(numbers.Real, None, None)],
            "noise": [_NONNEG_REAL],
            "shuffle": ["boolean"],
            "coef": ["boolean"],
            "random_state": ["random_state"],
        },
        locals(),
        "make_regression",
    )
    n_informative = min(n_informative, n_features)  # the default 10 must not break d < 10
    rng = check_random_state(random_state)
    X = rng.standard_normal((n_samples, n_features))  # (n, d)
    w = np.zeros(n_features)
    w[:n_informative] = 100.0 * rng.random(n_informative)
    y = X @ w + bias  # (n,)
    if noise > 0:
        y += noise * rng.standard_normal(n_samples)
    X, y = _shuffle_rows(rng, X, y, shuffle)
    return (X, y, w) if coef else (X, y)


def _add_noise(rng, X, noise):
    if noise:
        X += noise * rng.standard_normal(X.shape)
    return X


def make_circles(n_samples=100, *, shuffle=True, noise=None, random_state=None, factor=0.8):
    """Two concentric circles: label 0 on radius 1, label 1 on radius ``factor`` (< 1).

    Points are equally spaced in angle on each circle, then moved by ``N(0, noise² I)``.
    ``n_samples`` is a total (the outer circle gets ``n // 2``) or a pair (n_outer, n_inner).
    """
    validate_params(
        {
            "n_samples": [_POS_INT, "array-like"],
            "shuffle": ["boolean"],
            "noise": [None, _NONNEG_REAL],
            "random_state": ["random_state"],
            "factor": [Interval(numbers.Real, 0, 1, closed="left")],
        },
        locals(),
        "make_circles",
    )
    n_out, n_in = _two_groups(n_samples, "make_circles")
    rng = check_random_state(random_state)
    t_out = np.linspace(0.0, 2.0 * np.pi, n_out, endpoint=False)
    t_in = np.linspace(0.0, 2.0 * np.pi, n_in, endpoint=False)
    X = np.concatenate(
        [
            np.column_stack([np.cos(t_out), np.sin(t_out)]),
            factor * np.column_stack([np.cos(t_in), np.sin(t_in)]),
        ]
    )  # (n, 2)
    y = np.repeat(np.array([0, 1], dtype=np.int64), [n_out, n_in])
    return _shuffle_rows(rng, _add_noise(rng, X, noise), y, shuffle)


def make_moons(n_samples=100, *, shuffle=True, noise=None, random_state=None):
    """Two interleaving half circles: label 0 on ``(cos t, sin t)``, label 1 on
    ``(1 - cos t, 1/2 - sin t)``, ``t`` evenly spaced in [0, π]; then ``N(0, noise² I)`` noise.
    """
    validate_params(
        {
            "n_samples": [_POS_INT, "array-like"],
            "shuffle": ["boolean"],
            "noise": [None, _NONNEG_REAL],
            "random_state": ["random_state"],
        },
        locals(),
        "make_moons",
    )
    n_out, n_in = _two_groups(n_samples, "make_moons")
    rng = check_random_state(random_state)
    t_out = np.linspace(0.0, np.pi, n_out)
    t_in = np.linspace(0.0, np.pi, n_in)
    X = np.concatenate(
        [
            np.column_stack([np.cos(t_out), np.sin(t_out)]),
            np.column_stack([1.0 - np.cos(t_in), 0.5 - np.sin(t_in)]),
        ]
    )  # (n, 2)
    y = np.repeat(np.array([0, 1], dtype=np.int64), [n_out, n_in])
    return _shuffle_rows(rng, _add_noise(rng, X, noise), y, shuffle)


# the seed's XOR points, in its order A, B, C, D, with their class (1 where the signs differ)
_XOR_CORNERS = np.array([[1.0, -1.0], [-1.0, 1.0], [1.0, 1.0], [-1.0, -1.0]])
_XOR_LABELS = np.array([1, 1, 0, 0], dtype=np.int64)


def make_xor(n_samples=100, *, noise=0.25, shuffle=True, random_state=None):
    """XOR: Gaussian clusters ``N(corner, noise² I)`` around the four corners (±1, ±1).

    A point's label is its corner's: 1 when the corner's coordinates differ in sign, else 0
    (the seed's +1 / -1). Points are split as evenly as possible over the corners. No linear
    classifier separates the classes; a degree-2 polynomial or RBF kernel does.
    """
    validate_params(
        {
            "n_samples": [_POS_INT],
            "noise": [_NONNEG_REAL],
            "shuffle": ["boolean"],
            "random_state": ["random_state"],
        },
        locals(),
        "make_xor",
    )
    rng = check_random_state(random_state)
    counts = _split_evenly(n_samples, 4)
    X = np.repeat(_XOR_CORNERS, counts, axis=0)  # (n, 2)
    y = np.repeat(_XOR_LABELS, counts)
    return _shuffle_rows(rng, _add_noise(rng, X, noise), y, shuffle)
