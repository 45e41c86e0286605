"""Clustering metrics: agreement between two labellings (pair counting, information) and
geometric indices of one labelling (silhouette, Calinski–Harabasz, Davies–Bouldin).

Symbols: ``n`` samples; a contingency table ``N[a, b]`` = number of samples in true class ``a``
and predicted cluster ``b``, with row sums ``Aₐ`` and column sums ``B_b``; ``C(m, 2) = m(m−1)/2``.

Pair counting looks at the ``C(n, 2)`` unordered pairs of samples:

* pairs together in both labellings: ``T = Σₐ_b C(N[a,b], 2)``;
* together in the first / the second: ``Σₐ C(Aₐ, 2)`` / ``Σ_b C(B_b, 2)``.

Rand index ``RI = (pairs on which both labellings agree)/C(n, 2)``; the adjusted Rand index
``ARI = (T − E[T])/(max T − E[T])`` removes the agreement expected by chance under a random
permutation of the labels (Hubert & Arabie 1985), so random labellings score ≈ 0.

Information measures come from the same table, with ``p_ab = N[a, b]/n``: the entropies
``H(C) = −Σₐ (Aₐ/n) log(Aₐ/n)`` and ``H(K) = −Σ_b (B_b/n) log(B_b/n)`` (natural logarithms) and
the mutual information ``MI = Σₐ_b p_ab log(n N[a, b]/(Aₐ B_b))``; homogeneity ``h = MI/H(C)``
(each cluster holds one class), completeness ``c = MI/H(K)`` (each class in one cluster), the
V-measure ``(1 + β) h c/(β h + c)`` and NMI ``= MI/mean(H(C), H(K))``.

Geometric indices (no ground truth) use the centroids ``μ_k`` of the clusters and ``μ`` of X:
Calinski–Harabasz ``[Σ_k n_k‖μ_k − μ‖²/(K − 1)] / [Σᵢ‖xᵢ − μ_{k(i)}‖²/(n − K)]`` (higher is
better), Davies–Bouldin ``(1/K) Σ_k max_{j≠k} (s_k + s_j)/‖μ_k − μ_j‖`` with ``s_k`` the mean
distance of cluster k's members to ``μ_k`` (lower is better).

Silhouette of sample i: ``a(i)`` its mean distance to the other members of its cluster,
``b(i)`` the smallest mean distance to the members of another cluster,
``s(i) = (b − a)/max(a, b)`` (0 for a sample alone in its cluster). Distances are computed by
row blocks of bounded memory, so the n × n matrix never exists at once.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..utils.validation import (
    check_array,
    check_consistent_length,
    check_random_state,
    column_or_1d,
)
from .pairwise import euclidean_distances, pairwise_distances_chunked

__all__ = [
    "contingency_matrix",
    "pair_confusion_matrix",
    "rand_score",
    "adjusted_rand_score",
    "silhouette_samples",
    "silhouette_score",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "completeness_score",
    "v_measure_score",
    "calinski_harabasz_score",
    "davies_bouldin_score",
]


def _check_labellings(labels_true, labels_pred):
    labels_true = column_or_1d(labels_true, input_name="labels_true")
    labels_pred = column_or_1d(labels_pred, input_name="labels_pred")
    check_consistent_length(labels_true, labels_pred)
    for name, lab in (("labels_true", labels_true), ("labels_pred", labels_pred)):
        if lab.dtype.kind == "f" and not np.all(np.isfinite(lab)):
            raise ValueError(f"Input {name} contains NaN or infinity.")
    return labels_true, labels_pred


def contingency_matrix(labels_true, labels_pred, *, eps=None, sparse=False, dtype=np.int64):
    """Table ``N[a, b]`` of samples in class ``a`` (sorted labels of ``labels_true``) and cluster
    ``b`` (sorted labels of ``labels_pred``); ``eps`` is added to every cell of the dense table."""
    labels_true, labels_pred = _check_labellings(labels_true, labels_pred)
    if eps is not None and sparse:
        raise ValueError("Cannot set 'eps' when sparse=True")
    classes, rows = np.unique(labels_true, return_inverse=True)
    clusters, cols = np.unique(labels_pred, return_inverse=True)
    N = sp.coo_matrix(
        (np.ones(rows.shape[0]), (rows, cols)), shape=(classes.shape[0], clusters.shape[0])
    ).tocsr()
    N.sum_duplicates()
    if sparse:
        return N.astype(dtype)
    N = N.toarray()
    if eps is not None:
        return N + eps
    return N.astype(dtype)


def pair_confusion_matrix(labels_true, labels_pred):
    """2 × 2 counts of ordered sample pairs: ``[[apart in both, together only in pred],
    [together only in true, together in both]]`` (each unordered pair counted twice)."""
    labels_true, labels_pred = _check_labellings(labels_true, labels_pred)
    n = np.int64(labels_true.shape[0])
    N = contingency_matrix(labels_true, labels_pred, sparse=True).astype(np.int64)
    both = int(np.sum(N.data.astype(np.int64) ** 2)) - int(n)
    in_true = int(np.sum(np.asarray(N.sum(axis=1)).ravel().astype(np.int64) ** 2)) - int(n)
    in_pred = int(np.sum(np.asarray(N.sum(axis=0)).ravel().astype(np.int64) ** 2)) - int(n)
    C = np.empty((2, 2), dtype=np.int64)
    C[1, 1] = both
    C[0, 1] = in_pred - both
    C[1, 0] = in_true - both
    C[0, 0] = int(n) * int(n) - int(n) - in_pred - in_true + both
    return C


def rand_score(labels_true, labels_pred):
    """Rand index: fraction of sample pairs on which the two labellings agree (together in both
    or apart in both). One sample, or identical trivial labellings, score 1."""
    C = pair_confusion_matrix(labels_true, labels_pred)
    agree = C[0, 0] + C[1, 1]
    total = C.sum()
    if agree == total or total == 0:
        return 1.0
    return float(agree / total)


def adjusted_rand_score(labels_true, labels_pred):
    """Adjusted Rand index in [−0.5, 1]: 1 for identical partitions, ≈ 0 for random ones.

    With the pair counts ``tn, fp, fn, tp`` of :func:`pair_confusion_matrix`:
    ``ARI = 2(tp·tn − fn·fp) / ((tp + fn)(fn + tn) + (tp + fp)(fp + tn))``.
    """
    (tn, fp), (fn, tp) = pair_confusion_matrix(labels_true, labels_pred).astype(np.float64)
    if fn == 0 and fp == 0:
        return 1.0
    return float(2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)))


def _check_silhouette_labels(labels, n):
    codes = np.unique(labels, return_inverse=True)[1]
    K = int(codes.max()) + 1 if n else 0
    if not 2 <= K <= n - 1:
        raise ValueError(
            f"Number of labels is {K}. Valid values are 2 to n_samples - 1 (inclusive), with "
            f"n_samples = {n}."
        )
    return codes, K


def silhouette_samples(X, labels, *, metric="euclidean", **kwds):
    """Silhouette ``s(i) = (b(i) − a(i))/max(a(i), b(i))`` of every sample (module docstring).

    ``metric`` is any metric of :func:`~scratchlearn.metrics.pairwise.pairwise_distances` or
    "precomputed" (then ``X`` is the n × n distance matrix, with a zero diagonal).
    """
    accept = metric != "precomputed"
    X = check_array(X, accept_sparse="csr" if accept else False, input_name="X")
    labels = column_or_1d(labels, input_name="labels")
    check_consistent_length(X, labels)
    n = X.shape[0]
    codes, K = _check_silhouette_labels(labels, n)
    if metric == "precomputed":
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"A precomputed distance matrix must be square; got {X.shape}.")
        if np.any(np.abs(np.diag(X)) > 100 * np.finfo(np.float64).eps * np.abs(X).max()):
            raise ValueError(
                "The precomputed distance matrix contains non-zero elements on "
                "the diagonal. Use np.fill_diagonal(X, 0)."
            )
    onehot = np.zeros((n, K))
    onehot[np.arange(n), codes] = 1.0  # (n, K)
    sizes = onehot.sum(axis=0)  # (K,)

    def reduce(D, start):  # D: (rows, n) -> per-cluster sums of distances (rows, K)
        return D @ onehot

    sums = np.vstack(
        list(pairwise_distances_chunked(X, reduce_func=reduce, metric=metric, **kwds))
    )  # (n, K)
    own = sums[np.arange(n), codes]
    own_size = sizes[codes]
    with np.errstate(divide="ignore", invalid="ignore"):
        a = own / (own_size - 1)
        means = sums / sizes[None, :]
    means[np.arange(n), codes] = np.inf
    b = means.min(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (b - a) / np.maximum(a, b)
    s[own_size == 1] = 0.0  # a sample alone in its cluster
    return np.nan_to_num(s)


def silhouette_score(X, labels, *, metric="euclidean", sample_size=None, random_state=None, **kwds):
    """Mean silhouette over all samples, or over ``sample_size`` samples drawn without
    replacement with ``check_random_state(random_state).permutation(n)[:sample_size]``."""
    if sample_size is not None:
        X = check_array(X, accept_sparse="csr" if metric != "precomputed" else False)
        labels = column_or_1d(labels, input_name="labels")
        check_consistent_length(X, labels)
        if (
            isinstance(sample_size, (bool, np.bool_))
            or not isinstance(sample_size, numbers.Integral)
            or not 1 <= sample_size <= X.shape[0]
        ):
            raise ValueError(
                f"sample_size must be an int in [1, {X.shape[0]}]; got {sample_size!r}."
            )
        idx = check_random_state(random_state).permutation(X.shape[0])[: int(sample_size)]
        X = X[idx][:, idx] if metric == "precomputed" else X[idx]
        labels = labels[idx]
    return float(np.mean(silhouette_samples(X, labels, metric=metric, **kwds)))


# -- information-theoretic agreement ------------------------------------------------------------


def _entropy(counts):
    """H = −Σ (m/n) log(m/n) of positive counts m summing to n (0 for one group or none)."""
    counts = counts[counts > 0].astype(np.float64)
    if counts.size <= 1:
        return 0.0
    n = counts.sum()
    return float(-np.sum((counts / n) * (np.log(counts) - np.log(n))))


def _mutual_info(N):
    """MI = Σ p_ab (log N_ab + log n − log Aₐ − log B_b) over the non-zero cells of the table N
    (dense or sparse); 0 when either labelling has one group. Clipped at 0 (rounding)."""
    N = sp.coo_matrix(N)
    A = np.asarray(N.sum(axis=1), dtype=np.float64).ravel()  # class sizes Aₐ
    B = np.asarray(N.sum(axis=0), dtype=np.float64).ravel()  # cluster sizes B_b
    if A.size <= 1 or B.size <= 1:
        return 0.0
    keep = N.data > 0
    a, b, Nab = N.row[keep], N.col[keep], N.data[keep].astype(np.float64)
    n = Nab.sum()
    terms = (Nab / n) * (np.log(Nab) + np.log(n) - np.log(A[a]) - np.log(B[b]))
    return float(max(np.sum(terms), 0.0))


def mutual_info_score(labels_true, labels_pred, *, contingency=None):
    """Mutual information ``MI = Σₐ_b p_ab log(n N[a, b]/(Aₐ B_b))`` in nats (module docstring).

    ``contingency`` (dense or sparse counts) replaces the two labellings when given.
    """
    if contingency is None:
        contingency = contingency_matrix(labels_true, labels_pred, sparse=True)
    else:
        contingency = check_array(contingency, accept_sparse=["csr", "csc", "coo"], dtype=None)
        data = contingency.data if sp.issparse(contingency) else contingency
        if np.any(data < 0):
            raise ValueError("contingency must hold non-negative counts.")
    return _mutual_info(contingency)


_AVERAGES = {
    "min": min,
    "geometric": lambda u, v: np.sqrt(u * v),
    "arithmetic": lambda u, v: (u + v) / 2,
    "max": max,
}


def normalized_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic"):
    """NMI = MI / mean(H(C), H(K)), the mean chosen by ``average_method`` ("min", "geometric",
    "arithmetic" (default) or "max"); in [0, 1].

    As scikit-learn: two labellings with one group each (or no samples) score 1; otherwise
    MI = 0 scores 0 (including one labelling with a single group against a split one).
    """
    if average_method not in _AVERAGES:
        raise ValueError(
            f"average_method must be one of {sorted(_AVERAGES)}; got {average_method!r}."
        )
    N = contingency_matrix(labels_true, labels_pred, sparse=True)
    if N.shape[0] == N.shape[1] and N.shape[0] <= 1:
        return 1.0
    mi = _mutual_info(N)
    if mi == 0.0:
        return 0.0
    H_C = _entropy(np.asarray(N.sum(axis=1)).ravel())
    H_K = _entropy(np.asarray(N.sum(axis=0)).ravel())
    return float(mi / _AVERAGES[average_method](H_C, H_K))


def homogeneity_completeness_v_measure(labels_true, labels_pred, *, beta=1.0):
    """(h, c, V): homogeneity ``h = MI/H(C)``, completeness ``c = MI/H(K)`` and the V-measure
    ``(1 + β) h c/(β h + c)`` (Rosenberg & Hirschberg 2007, with scikit-learn's β weighting).

    A labelling with zero entropy (one group) makes its ratio 1 (nothing to explain); V is 0
    when h + c = 0. No samples give (1, 1, 1).
    """
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real) or beta < 0:
        raise ValueError(f"beta must be a non-negative float; got {beta!r}.")
    N = contingency_matrix(labels_true, labels_pred, sparse=True)
    if N.sum() == 0:
        return 1.0, 1.0, 1.0
    H_C = _entropy(np.asarray(N.sum(axis=1)).ravel())
    H_K = _entropy(np.asarray(N.sum(axis=0)).ravel())
    mi = _mutual_info(N)
    h = mi / H_C if H_C else 1.0
    c = mi / H_K if H_K else 1.0
    v = 0.0 if h + c == 0 else (1 + beta) * h * c / (beta * h + c)
    return float(h), float(c), float(v)


def homogeneity_score(labels_true, labels_pred):
    """Homogeneity ``h = MI/H(C)``: 1 when every cluster holds members of one class only."""
    return homogeneity_completeness_v_measure(labels_true, labels_pred)[0]


def completeness_score(labels_true, labels_pred):
    """Completeness ``c = MI/H(K)``: 1 when all members of a class fall in one cluster."""
    return homogeneity_completeness_v_measure(labels_true, labels_pred)[1]


def v_measure_score(labels_true, labels_pred, *, beta=1.0):
    """V-measure ``(1 + β) h c/(β h + c)``, equal to NMI with the arithmetic mean when β = 1."""
    return homogeneity_completeness_v_measure(labels_true, labels_pred, beta=beta)[2]


# -- geometric indices of one labelling ------------------------------------------------------


def _centroids(X, labels):
    """Validated X, label codes, sizes n_k and centroids μ_k (K, d) via a one-hot product."""
    X = check_array(X, input_name="X")
    labels = column_or_1d(labels, input_name="labels")
    check_consistent_length(X, labels)
    codes, K = _check_silhouette_labels(labels, X.shape[0])
    onehot = np.zeros((X.shape[0], K))
    onehot[np.arange(X.shape[0]), codes] = 1.0  # (n, K)
    sizes = onehot.sum(axis=0)  # (K,)
    mu = (onehot.T @ X) / sizes[:, None]  # (K, d)
    return X, codes, sizes, mu


def calinski_harabasz_score(X, labels):
    """Calinski–Harabasz: between-cluster over within-cluster dispersion, each per degree of
    freedom, ``[Σ_k n_k‖μ_k − μ‖²/(K − 1)] / [Σᵢ‖xᵢ − μ_{k(i)}‖²/(n − K)]``.

    Needs 2 ≤ K ≤ n − 1 labels; a zero within-cluster dispersion scores 1 (as scikit-learn).
    """
    X, codes, sizes, mu = _centroids(X, labels)
    n, K = X.shape[0], mu.shape[0]
    between = float(np.sum(sizes * np.sum((mu - X.mean(axis=0)) ** 2, axis=1)))
    within = float(np.sum((X - mu[codes]) ** 2))
    if within == 0.0:
        return 1.0
    return between * (n - K) / (within * (K - 1))


def davies_bouldin_score(X, labels):
    """Davies–Bouldin ``(1/K) Σ_k max_{j≠k} (s_k + s_j)/‖μ_k − μ_j‖``, ``s_k`` the mean distance
    of cluster k's members to its centroid. 0 is best.

    Needs 2 ≤ K ≤ n − 1 labels. As scikit-learn: 0 when every s_k or every centroid distance
    is (close to) 0; coinciding centroids of distinct clusters are ignored in the max.
    """
    X, codes, sizes, mu = _centroids(X, labels)
    s = np.bincount(codes, weights=np.sqrt(np.sum((X - mu[codes]) ** 2, axis=1))) / sizes
    M = euclidean_distances(mu)  # (K, K) centroid distances
    if np.allclose(s, 0) or np.allclose(M, 0):
        return 0.0
    M[M == 0] = np.inf
    R = (s[:, None] + s[None, :]) / M  # (K, K); the diagonal is (2 s_k)/inf = 0
    return float(np.mean(np.max(R, axis=1)))
