"""Starting points of EM: initial responsibilities, and the checks of user-given parameters.

``init_params`` chooses the responsibilities R⁰ from which the first M-step computes π, μ, Σ:

* "kmeans": one-hot on the labels of :class:`~scratchlearn.cluster.KMeans` (one k-means++ start);
* "k-means++": one-hot on the nearest of the k-means++ seeds
  (:func:`~scratchlearn.cluster.kmeans_plusplus`, no Lloyd iterations);
* "random": rows of uniform random numbers, normalised to sum to one;
* "random_from_data": one-hot on the nearest of K distinct rows of X drawn uniformly.

scikit-learn's "k-means++" and "random_from_data" put a one on the K seed rows only, so that its
first model has covariances of ``reg_covar`` and weights summing to K/n; its first E-step then
gives the one-hot nearest-seed responsibilities used here. We start one EM iteration later
with sensible parameters, so ``n_iter_`` is one less than scikit-learn's from the same seeds.
"""

from __future__ import annotations

import numpy as np

from ..cluster import KMeans, kmeans_plusplus
from ..metrics.pairwise import euclidean_distances
from ..utils.validation import check_array

__all__ = ["initial_responsibilities", "check_initial_parameters"]


def _nearest(X, C):
    """(n,) index of the nearest row of C for each row of X (squared Euclidean distance)."""
    return np.argmin(euclidean_distances(X, C, squared=True), axis=1)


def _kmeans_labels(X, K, rng):
    """The k-means partition of init_params="kmeans": one k-means++ start, Lloyd to the end."""
    return KMeans(n_clusters=K, n_init=1, random_state=rng).fit(X).labels_


def _one_hot(labels, K):
    R = np.zeros((labels.shape[0], K))
    R[np.arange(labels.shape[0]), labels] = 1.0
    return R


def initial_responsibilities(X, K, init_params, rng):
    """(n, K) responsibilities R⁰ for the first M-step (see the module docstring)."""
    n = X.shape[0]
    if init_params == "kmeans":
        return _one_hot(_kmeans_labels(X, K, rng), K)
    if init_params == "random":
        R = rng.uniform(size=(n, K))
        return R / R.sum(axis=1, keepdims=True)
    if init_params == "k-means++":
        seeds = kmeans_plusplus(X, K, np.ones(X.shape[0]), rng)
    else:  # "random_from_data"
        seeds = rng.choice(n, size=K, replace=False)
    return _one_hot(_nearest(X, X[seeds]), K)


# -- user-given starting parameters -------------------------------------------------------------
def _as_array(value, name, shape):
    A = check_array(value, ensure_2d=False, allow_nd=True, dtype=np.float64, input_name=name)
    if A.shape != shape:
        raise ValueError(f"{name} must have shape {shape}; got shape {A.shape}.")
    return A


def _check_weights(w, K):
    w = _as_array(w, "weights_init", (K,))
    if np.any(w < 0.0) or np.any(w > 1.0):
        raise ValueError(
            f"weights_init must lie in [0, 1]; got min {w.min():.5g}, max {w.max():.5g}."
        )
    if abs(1.0 - w.sum()) > 1e-8:
        raise ValueError(f"weights_init must sum to 1; got sum {w.sum():.10g}.")
    return w


def _check_precisions(P, covariance_type, K, d):
    shape = {"full": (K, d, d), "tied": (d, d), "diag": (K, d), "spherical": (K,)}
    P = _as_array(P, "precisions_init", shape[covariance_type])
    if covariance_type in ("diag", "spherical"):
        if np.any(P <= 0.0):
            raise ValueError(
                f"precisions_init for covariance_type={covariance_type!r} must be positive; "
                f"got a minimum of {P.min():.5g}."
            )
        return P
    for k, Pk in enumerate(P if covariance_type == "full" else [P]):
        where = f" (component {k})" if covariance_type == "full" else ""
        if not np.allclose(Pk, Pk.T):
            raise ValueError(f"precisions_init{where} must be symmetric.")
        smallest = np.linalg.eigvalsh(Pk)[0]
        if not smallest > 0.0:
            raise ValueError(
                f"precisions_init{where} must be positive definite; its smallest eigenvalue "
                f"is {smallest:.5g}."
            )
    return P


def check_initial_parameters(gm, d):
    """(weights_init, means_init, precisions_init) of ``gm`` as checked float arrays (or None)."""
    K = gm.n_components
    w = None if gm.weights_init is None else _check_weights(gm.weights_init, K)
    mu = None if gm.means_init is None else _as_array(gm.means_init, "means_init", (K, d))
    P = (
        None
        if gm.precisions_init is None
        else _check_precisions(gm.precisions_init, gm.covariance_type, K, d)
    )
    return w, mu, P
