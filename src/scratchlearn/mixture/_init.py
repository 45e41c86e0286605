"""Starting points of EM: the statistics of the initial responsibilities, and the checks of
user-given parameters.

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

R⁰ is never formed whole: each row block turns its share of it into the M-step's statistics
(:func:`~._em.block_statistics`), through :func:`~scratchlearn.utils._blocks.block_reduce`, so
that the in-memory start is the one-block case of the Dask one. On a Dask array, "kmeans" fits
our KMeans on the cluster (its labels stay a lazy Dask array beside X's blocks);
"random_from_data" gathers its K rows; "random" regenerates each block's rows of the in-memory
draw ``rng.uniform(size=(n, K))`` on the worker, from the generator's state advanced by
(first row)·K draws (PCG64 jumps ahead in O(log n) steps, one double per draw), so the start
is the in-memory one whatever the chunking. "k-means++" needs every row in one place to draw
its seeds, and is refused on Dask input.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..cluster import KMeans, kmeans_plusplus
from ..metrics.pairwise import euclidean_distances
from ..utils._blocks import block_reduce, is_dask_collection
from ..utils.validation import check_array
from ._em import block_statistics, merge_statistics

__all__ = ["initial_statistics", "check_dask_init", "check_initial_parameters"]

_JUMPING_GENERATORS = ("PCG64", "PCG64DXSM")  # advance(δ) skips δ 64-bit draws (= δ doubles)


def _nearest(X, C):
    """(n,) index of the nearest row of C for each row of X (squared Euclidean distance)."""
    return np.argmin(euclidean_distances(X, C, squared=True), axis=1)


def _kmeans_labels(X, K, rng):
    """The k-means partition of init_params="kmeans": one k-means++ start, Lloyd to the end
    (a lazy Dask array of labels when X is a Dask array)."""
    return KMeans(n_clusters=K, n_init=1, random_state=rng).fit(X).labels_


def _one_hot(labels, K):
    R = np.zeros((labels.shape[0], K))
    R[np.arange(labels.shape[0]), labels] = 1.0
    return R


# -- the statistics of R⁰ on one block of rows ----------------------------------------------------
def _labels_block(X, labels, K, covariance_type):
    """R⁰ one-hot on given labels (k-means)."""
    return block_statistics(X, _one_hot(np.asarray(labels), K), covariance_type)


def _nearest_seed_block(X, seeds, K, covariance_type):
    """R⁰ one-hot on the nearest seed row."""
    return block_statistics(X, _one_hot(_nearest(X, seeds), K), covariance_type)


def _uniform_rows(rng, n, K):
    """Rows of uniform numbers normalised to sum to one."""
    R = rng.uniform(size=(n, K))
    return R / R.sum(axis=1, keepdims=True)


def _uniform_block(X, rows, K, covariance_type, state):
    """R⁰ of the rows ``rows`` (global indices, consecutive) of the in-memory uniform draw: the
    generator of ``state`` advanced past the rows before them, K doubles per row."""
    bit_generator = getattr(np.random, state["bit_generator"])()
    bit_generator.state = state
    if len(rows):
        bit_generator.advance(int(rows[0]) * K)
    R = _uniform_rows(np.random.Generator(bit_generator), X.shape[0], K)
    return block_statistics(X, R, covariance_type)


def check_dask_init(init_params, rng):
    """Refuse, before any pass, the starts that a Dask array cannot reproduce."""
    if init_params == "k-means++":
        raise ValueError(
            "GaussianMixture cannot use init_params='k-means++' on a Dask array: its seeds are "
            "drawn from all rows in one place. On Dask input use init_params='kmeans' (KMeans "
            "fitted on the cluster), 'random' or 'random_from_data', or give weights_init, "
            "means_init and precisions_init."
        )
    name = type(rng.bit_generator).__name__
    if init_params == "random" and name not in _JUMPING_GENERATORS:
        raise ValueError(
            "GaussianMixture with init_params='random' on a Dask array draws each block's rows "
            "by jumping a PCG64 generator ahead (numpy.random.default_rng, or an int "
            f"random_state); got a {name} generator. Pass an int or a PCG64 Generator as "
            "random_state, or use init_params='kmeans' or 'random_from_data'."
        )


def initial_statistics(X, K, init_params, covariance_type, rng):
    """The M-step statistics of the initial responsibilities R⁰ (see the module docstring)."""
    n = X.shape[0]
    merge = partial(merge_statistics, covariance_type=covariance_type)
    if init_params == "kmeans":
        labels = _kmeans_labels(X, K, rng)
        return block_reduce(_labels_block, X, labels, static=(K, covariance_type), combine=merge)
    if init_params == "random":
        if not is_dask_collection(X):
            return block_statistics(X, _uniform_rows(rng, n, K), covariance_type)
        import dask.array as da

        bit_generator = rng.bit_generator
        state = bit_generator.state
        rows = da.arange(n, chunks=X.chunks[0])
        stats = block_reduce(
            _uniform_block, X, rows, static=(K, covariance_type, state), combine=merge
        )
        # leave the generator as if the n·K draws had been made here
        buffer = _buffered(bit_generator.state)
        bit_generator.advance(n * K)
        bit_generator.state = {**bit_generator.state, **buffer}
        return stats
    if init_params == "k-means++":
        seeds = X[kmeans_plusplus(X, K, np.ones(n), rng)]
    else:  # "random_from_data"
        seeds = X[rng.choice(n, size=K, replace=False)]
        seeds = seeds.compute() if is_dask_collection(seeds) else seeds
    return block_reduce(_nearest_seed_block, X, static=(seeds, K, covariance_type), combine=merge)


def _buffered(state):
    """The generator's buffered 32-bit half-draw, which drawing doubles leaves untouched and
    ``advance`` would clear."""
    return {key: state[key] for key in ("has_uint32", "uinteger") if key in state}


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
