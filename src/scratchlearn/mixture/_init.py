"""Starting points of EM: initial responsibilities, and the checks of user-given parameters.

``init_params`` chooses the responsibilities R⁰ from which the first M-step computes π, μ, Σ:

* "kmeans": one-hot on a k-means labelling (k-means++ seeds, then Lloyd's iterations);
* "k-means++": one-hot on the nearest of the k-means++ seeds (no Lloyd iterations);
* "random": rows of uniform random numbers, normalised to sum to one;
* "random_from_data": one-hot on the nearest of K distinct rows of X drawn uniformly.

scikit-learn's "k-means++" and "random_from_data" put a one on the K seed rows only, so that its
first model has covariances of ``reg_covar`` and weights summing to K/n; its first E-step then
gives the one-hot nearest-seed responsibilities used here. We start one EM iteration later
with sensible parameters, so ``n_iter_`` is one less than scikit-learn's from the same seeds.
"""

from __future__ import annotations

import math

import numpy as np

from ..utils.validation import check_array

__all__ = ["initial_responsibilities", "check_initial_parameters", "kmeans_plusplus"]


def _sq_distances(X, C):
    """(n, K) ‖x_i − c_k‖² = ‖x_i‖² − 2 x_iᵀc_k + ‖c_k‖², clipped at zero against rounding."""
    D = np.einsum("ij,ij->i", X, X)[:, None] - 2.0 * (X @ C.T) + np.einsum("kj,kj->k", C, C)
    return np.maximum(D, 0.0, out=D)


def kmeans_plusplus(X, K, rng):
    """Indices of K seeds by greedy k-means++ (Arthur & Vassilvitskii, 2007).

    The first seed is uniform; each next one is the best, by the potential Σ_i min_c ‖x_i − c‖²,
    of 2 + ⌊log K⌋ candidates drawn with probability proportional to D(x)², the squared distance
    to the nearest seed chosen so far.
    """
    n = X.shape[0]
    n_trials = 2 + int(math.log(K))
    seeds = [int(rng.integers(n))]
    D2 = _sq_distances(X, X[seeds])[:, 0]  # (n,) D(x)²
    for _ in range(1, K):
        total = D2.sum()
        if total <= 0.0:  # every point sits on a seed: the rest are uniform
            candidates = rng.integers(n, size=n_trials)
        else:
            cumulative = np.cumsum(D2)
            candidates = np.searchsorted(cumulative, rng.uniform(size=n_trials) * cumulative[-1])
            candidates = np.minimum(candidates, n - 1)
        D2_new = np.minimum(D2[None, :], _sq_distances(X, X[candidates]).T)  # (trials, n)
        best = int(np.argmin(D2_new.sum(axis=1)))
        seeds.append(int(candidates[best]))
        D2 = D2_new[best]
    return np.asarray(seeds)


# The k-means labelling of init_params="kmeans". A private Lloyd (LEAD: the one place to switch
# to scratchlearn.cluster.KMeans(n_clusters=K, n_init=1, random_state=rng).fit(X).labels_ once
# it is merged; the EM fit only needs a reasonable partition, not scikit-learn's exact one).
def _kmeans_labels(X, K, rng, max_iter=300):
    """Lloyd's iterations from k-means++ seeds, until no label changes (or ``max_iter``)."""
    C = X[kmeans_plusplus(X, K, rng)].copy()  # (K, d) centres
    labels = np.argmin(_sq_distances(X, C), axis=1)
    for _ in range(max_iter):
        for k in range(K):
            members = labels == k
            if members.any():  # an empty cluster keeps its centre
                C[k] = X[members].mean(axis=0)
        new = np.argmin(_sq_distances(X, C), axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
    return labels


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
        seeds = kmeans_plusplus(X, K, rng)
    else:  # "random_from_data"
        seeds = rng.choice(n, size=K, replace=False)
    return _one_hot(np.argmin(_sq_distances(X, X[seeds]), axis=1), K)


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
