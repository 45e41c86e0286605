"""Gaussian naive Bayes: each feature is normal within each class.

Symbols: ``n`` samples, ``d`` features, ``K`` classes; ``N_c`` the (weighted) count of class c;
``μ_jc`` (``theta_``) and ``σ²_jc`` (``var_``) the mean and variance of feature j in class c;
``ε`` (``epsilon_``) the variance floor; ``π_c`` the class prior.

.. math::

    \\log P(x_j \\mid c) = -\\tfrac12 \\log(2π σ^2_{jc}) - \\frac{(x_j - μ_{jc})^2}{2 σ^2_{jc}}

Streaming statistics: each class keeps ``N_c``, ``μ_c`` and ``M2_c = Σ_i w_i (x_i − μ_c)²``;
a new batch is merged with the pairwise update of Chan, Golub and LeVeque
(:func:`~scratchlearn.utils._moments.merge_moments`), row by row over the classes,

.. math::

    N = N_a + N_b,\\quad δ = μ_b − μ_a,\\quad μ = μ_a + δ N_b / N,\\quad
    M2 = M2_a + M2_b + δ^2 N_a N_b / N,

which never subtracts two large sums, so ``partial_fit`` in chunks gives ``fit``'s answer, and
a Dask fit (row blocks merged in a tree) gives it too.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..utils._moments import Moments, merge_moments
from ..utils._param_validation import Interval
from ._base import _BaseNB, align_classes, encode_labels, expand_rows, one_hot

__all__ = ["GaussianNB"]


def class_moments(X, Y, idx):
    """Per-class weighted (N_c, μ_c, M2_c) of one batch, two-pass for accuracy.

    X (n, d); Y (n, K) one-hot labels scaled by the sample weights; idx (n,) each row's class.
    """
    N = Y.sum(axis=0)  # (K,)
    safe = np.where(N > 0, N, 1.0)[:, None]
    mu = (Y.T @ X) / safe  # μ_c = Σ_i w_i x_i / N_c, (K, d)
    R = mu[idx]  # each row's class mean, (n, d)
    np.subtract(X, R, out=R)
    R *= R
    m2 = Y.T @ R  # M2_c = Σ_i w_i (x_i − μ_c)², (K, d)
    return Moments(N, mu, m2)


def gaussian_stats(X, y, w):
    """GaussianNB's statistic of a block of rows (the whole data in memory), keyed by class.

    ``classes`` the block's labels; ``class`` their (N_c, μ_c, M2_c) with weights w; ``rows``
    the unweighted (n, m, M2) of all the block's rows, for the variance floor ε.
    """
    X = np.asarray(X, dtype=np.float64)
    classes, idx = encode_labels(y)
    per_class = class_moments(X, one_hot(idx, classes.shape[0], w), idx)
    d = X.shape[1]
    if w is None or np.all(w == 1.0):  # unit weights: the rows' moments merge the classes'
        rows = Moments(np.zeros(1), np.zeros((1, d)), np.zeros((1, d)))
        for c in range(per_class.weight.shape[0]):
            rows = merge_moments(rows, Moments(*(v[c : c + 1] for v in per_class)))
    else:
        rows = class_moments(X, np.ones((X.shape[0], 1)), np.zeros(X.shape[0], int))
    return {"classes": classes, "class": per_class, "rows": rows}


def merge_gaussian_stats(a, b):
    """The statistic of two disjoint blocks: per class, and over all rows, Chan's merge (a class
    absent from a block is a zero row there, which the merge leaves exactly unchanged)."""
    classes, ia, ib = align_classes(a["classes"], b["classes"])
    K = classes.shape[0]
    per_class = merge_moments(
        Moments(*(expand_rows(v, ia, K) for v in a["class"])),
        Moments(*(expand_rows(v, ib, K) for v in b["class"])),
    )
    return {"classes": classes, "class": per_class, "rows": merge_moments(a["rows"], b["rows"])}


def joint_log_likelihood_reference(X, theta, var, log_prior):
    """J_ic = log π_c − ½ Σ_j [log(2π σ²_jc) + (x_ij − μ_jc)²/σ²_jc], class by class (the
    plain form; :meth:`GaussianNB._joint_log_likelihood` is the fast one, tested against it)."""
    jll = np.empty((X.shape[0], theta.shape[0]))
    with np.errstate(over="ignore"):  # σ² at the float floor: a distant x is impossible, −inf
        for c in range(theta.shape[0]):
            jll[:, c] = log_prior[c] - 0.5 * np.sum(
                np.log(2.0 * np.pi * var[c]) + (X - theta[c]) ** 2 / var[c], axis=1
            )
    return jll


class GaussianNB(_BaseNB):
    """Naive Bayes with a normal density per feature and class.

    .. math::

        \\hat y = \\arg\\max_c \\; \\log π_c + \\sum_j \\Big[-\\tfrac12\\log(2πσ^2_{jc})
                 - \\frac{(x_j-μ_{jc})^2}{2σ^2_{jc}}\\Big],
        \\qquad σ^2_{jc} = \\frac{M2_{jc}}{N_c - \\text{ddof}} + ε

    Parameters
    ----------
    priors : array-like (K,) or None
        Fixed class priors π_c (non-negative, summing to 1); None uses the class frequencies.
    var_smoothing : float, default 1e-9
        ε = var_smoothing · max_j Var(x_j) (the largest variance of any feature over all the
        training rows, unweighted) is added to every variance, for stability. The variance is
        that of every row seen so far, so ``partial_fit`` in chunks gives ``fit``'s ε
        (scikit-learn's ``partial_fit`` uses the latest batch's).
    ddof : int, default 0
        Delta degrees of freedom of the variance: 0 is the maximum-likelihood estimate
        (scikit-learn's), 1 the unbiased estimate ``Σ(x − μ)²/(N_c − 1)`` of the seeds. A class
        whose weighted count ``N_c`` is not larger than ``ddof`` (e.g. one sample with ddof=1)
        has no defined variance: its variance is taken as 0, so only the floor ε remains. If ε
        is 0 too (every feature constant), the smallest positive float is used instead of 0,
        which keeps every log-probability a number.

    Attributes
    ----------
    classes_ : ndarray (K,)
    class_count_ : ndarray (K,)   weighted N_c
    class_prior_ : ndarray (K,)   π_c
    theta_ : ndarray (K, d)       μ_jc
    var_ : ndarray (K, d)         σ²_jc including ε
    epsilon_ : float              ε
    n_features_in_ : int

    Dask: X may be a Dask array or DataFrame, y and sample_weight NumPy or Dask. Each row
    block gives its labels, per-label (N_c, μ_c, M2_c) and its rows' unweighted (n, m, M2)
    (:func:`gaussian_stats`); blocks merge by the union of their labels and Chan's update
    (:func:`merge_gaussian_stats`). One pass; (2K + 2)·d + 2K + 1 floats per block travel.
    ``predict``, ``predict_proba``… of a Dask array are lazy Dask arrays.

    Examples
    --------
    >>> import numpy as np
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = GaussianNB().fit(X, y)
    >>> print(clf.class_prior_.round(3), clf.theta_.shape)
    [0.333 0.333 0.333] (3, 4)
    >>> print(np.round(clf.theta_[:, 2], 3))
    [1.462 4.26  5.552]
    >>> print(round(clf.score(X, y), 3))
    0.96
    """

    _block_stat = staticmethod(gaussian_stats)
    _combine = staticmethod(merge_gaussian_stats)

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "theta_": ("float64", ("n_classes", "n_features_in_")),
        "var_": ("float64", ("n_classes", "n_features_in_")),
        "_m2": ("float64", ("n_classes", "n_features_in_")),
        "class_prior_": ("float64", ("n_classes",)),
        "epsilon_": ("float64", ()),
        "_n_seen": ("float64", ("n_blocks",)),
        "_x_mean": ("float64", ("n_blocks", "n_features_in_")),
        "_x_m2": ("float64", ("n_blocks", "n_features_in_")),
    }

    _parameter_constraints = {
        "priors": ["array-like", None],
        "var_smoothing": [Interval(numbers.Real, 0, None, closed="left")],
        "ddof": [Interval(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, *, priors=None, var_smoothing=1e-9, ddof=0):
        self.priors = priors
        self.var_smoothing = var_smoothing
        self.ddof = ddof

    def _check_X(self, X, *, reset):
        return self._validate_data(X, reset=reset, dtype=[np.float64, np.float32])

    def _zero_state(self, d):
        K = self.classes_.shape[0]
        per_class = Moments(np.zeros(K), np.zeros((K, d)), np.zeros((K, d)))
        rows = Moments(np.zeros(1), np.zeros((1, d)), np.zeros((1, d)))
        return {"classes": self.classes_, "class": per_class, "rows": rows}

    def _state(self):
        return {
            "classes": self.classes_,
            "class": Moments(self.class_count_, self.theta_, self._m2),
            "rows": Moments(self._n_seen, self._x_mean, self._x_m2),
        }

    def _class_weights(self, stat):
        return stat["class"].weight

    def _set_state(self, stat):
        self.class_count_, self.theta_, self._m2 = stat["class"]
        # unweighted moments of every row seen, for ε = var_smoothing · max_j Var(x_j)
        self._n_seen, self._x_mean, self._x_m2 = stat["rows"]

    def _update_model(self):
        self.epsilon_ = float(self.var_smoothing * np.max(self._x_m2[0] / self._n_seen[0]))
        dof = self.class_count_ - self.ddof  # (K,)
        ok = dof > 0
        var = np.zeros_like(self._m2)
        var[ok] = self._m2[ok] / dof[ok, None]  # σ² = M2 / (N_c − ddof); undefined -> 0
        var += self.epsilon_
        self.var_ = np.where(var > 0, var, np.finfo(np.float64).tiny)
        if self.priors is not None:
            priors = np.asarray(self.priors, dtype=np.float64)
            K = self.classes_.shape[0]
            if priors.ndim != 1 or priors.shape[0] != K:
                raise ValueError(
                    f"Number of priors ({priors.size}) must match number of classes ({K})."
                )
            if not np.isclose(priors.sum(), 1.0):
                raise ValueError(f"The sum of the priors should be 1; got {priors.sum()}.")
            if np.any(priors < 0):
                raise ValueError("Priors must be non-negative.")
            self.class_prior_ = priors
        else:
            self.class_prior_ = self.class_count_ / self.class_count_.sum()
        with np.errstate(divide="ignore"):
            self.class_log_prior_ = np.log(self.class_prior_)

    def _joint_log_likelihood(self, X):
        # Σ_j (x_j − μ_jc)²/σ²_jc expanded as Σ x²/σ² − 2 Σ x μ/σ² + Σ μ²/σ²: two products
        # with K columns instead of K passes over X. X and μ are first shifted by the training
        # mean m, so the expansion's terms stay of the order of the spread (no cancellation).
        if self.var_.min() < 1e-100:  # a degenerate variance floor: 1/σ² would overflow
            return joint_log_likelihood_reference(
                np.asarray(X, dtype=np.float64), self.theta_, self.var_, self.class_log_prior_
            )
        m = self._x_mean[0]
        inv_var = 1.0 / self.var_  # (K, d)
        T = self.theta_ - m  # (K, d)
        Xc = np.asarray(X, dtype=np.float64) - m  # (n, d)
        cross = Xc @ (T * inv_var).T  # Σ_j x_j μ_jc / σ²_jc, (n, K)
        Xc *= Xc
        quad = Xc @ inv_var.T  # Σ_j x_j² / σ²_jc, (n, K)
        # log π_c − ½ Σ_j log(2π σ²_jc) − ½ Σ_j μ²_jc/σ²_jc, (K,)
        const = self.class_log_prior_ - 0.5 * np.sum(
            np.log(2.0 * np.pi * self.var_) + T * T * inv_var, axis=1
        )
        return const - 0.5 * quad + cross

    def _explain_terms(self, X):
        x = np.asarray(X, dtype=np.float64)[0]
        terms = -0.5 * np.log(2.0 * np.pi * self.var_) - (x - self.theta_) ** 2 / (
            2.0 * self.var_
        )  # (K, d)
        return np.arange(x.shape[0]), [float(v) for v in x], terms.T
