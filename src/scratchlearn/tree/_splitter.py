"""The one split search of every CART tree: which feature, which threshold.

Symbols: a node t holds the rows ``S_t`` with weights ``w_i``; ``N_t = Σ_{i∈S_t} w_i``; a
candidate split (feature j, threshold θ) sends ``x_ij ≤ θ`` to the left child L and the rest to
the right child R. Node impurities ``I``:

* Gini:      ``I = 1 − Σ_k p_k²``            with ``p_k`` the weighted class fraction;
* entropy:   ``I = −Σ_k p_k log₂ p_k``      (in bits; "log_loss" is the same criterion);
* squared:   ``I = Σ w_i (y_i − ȳ)² / N_t``  (weighted MSE about the weighted mean ȳ);
* absolute:  ``I = Σ w_i |y_i − m| / N_t``   (about the weighted median m).

The best split maximises the decrease ``N_t I − N_L I_L − N_R I_R``. Within a node the first term
is constant, so the search compares the cheaper *proxy* ``−N_L I_L − N_R I_R``; for the squared
error ``N_L I_L + N_R I_R = Σ w y² − S_L²/N_L − S_R²/N_R`` (``S = Σ w y``), whose proxy is
``S_L²/N_L + S_R²/N_R``.

Candidate thresholds: sort the node's values of feature j, ``v_(1) ≤ … ≤ v_(m)``; between two
consecutive DISTINCT values the threshold is the midpoint ``θ = v_(p)/2 + v_(p+1)/2`` (halves
first, so two huge values cannot overflow); if rounding makes θ equal to the upper value, θ is the
lower value instead, so the split still separates them. A candidate is rejected when a child would
have fewer than ``min_samples_leaf`` rows or less than ``min_weight_leaf`` weight. Within a
feature the first (smallest) best threshold wins; ties between features go to the feature visited
first, and features are visited in a random order drawn per node from the tree's seed.

``max_features``: features are drawn without replacement; a drawn feature that is constant in the
node counts as visited but is not evaluated. The search stops once ``max_features`` features have
been visited AND at least one of them was non-constant (or every feature has been drawn), which is
scikit-learn's rule: it may therefore look at more than ``max_features`` features.

The random splitter (``splitter="random"``, extremely randomised trees) evaluates one threshold per
visited feature, drawn uniformly in ``[min, max)`` of the node's values (the maximum is replaced by
the minimum), instead of sweeping every midpoint.

:func:`node_split` is the Numba kernel; :func:`best_split_reference` is the plain NumPy version
(best splitter, squared error and class criteria) that the tests compare it against.
"""

from __future__ import annotations

import numba
import numpy as np

from ._criteria import ABSOLUTE, ENTROPY, GINI, SQUARED, split_stats_absolute
from ._sort import sort_pairs

__all__ = ["best_split_reference", "node_split", "rand_int", "rand_uniform"]


# -- the tree's own random stream (splitmix64, so the kernel needs no global state) ------------
@numba.njit(cache=True)
def _next_u64(state):
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def rand_uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return np.float64(_next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def rand_int(state, n):
    """An int in [0, n)."""
    return np.int64(_next_u64(state) % np.uint64(n))


# -- the sweep over one sorted feature ----------------------------------------------------------
@numba.njit(cache=True)
def _midpoint(lo, hi):
    theta = lo / 2.0 + hi / 2.0
    if theta == hi or not np.isfinite(theta):  # rounded up onto hi: hi would go left
        theta = lo
    return theta


@numba.njit(cache=True)
def _class_proxy(left, total, wL, wN, crit):
    """−N_L I_L − N_R I_R for class counts ``left`` and ``total − left``."""
    K = left.shape[0]
    wR = wN - wL
    if crit == GINI:
        sqL = 0.0
        sqR = 0.0
        for k in range(K):
            sqL += left[k] * left[k]
            r = total[k] - left[k]
            sqR += r * r
        return -wL * (1.0 - sqL / (wL * wL)) - wR * (1.0 - sqR / (wR * wR))
    hL = 0.0
    hR = 0.0
    for k in range(K):
        if left[k] > 0.0:
            p = left[k] / wL
            hL -= p * np.log2(p)
        r = total[k] - left[k]
        if r > 0.0:
            p = r / wR
            hR -= p * np.log2(p)
    return -wL * hL - wR * hR


@numba.njit(cache=True)
def _sweep(xs, order, yc, yv, wv, total, sum_total, wN, crit, min_leaf, min_wleaf, left, buf):
    """Best (proxy, threshold) over the midpoints of one feature's sorted node values.

    ``xs`` are the node's values in sorted order, ``order`` maps sorted position to node-local
    row; ``yc`` class codes, ``yv`` targets, ``wv`` weights (node-local). Returns (-inf, 0) when
    no candidate is valid.
    """
    m = xs.shape[0]
    best = -np.inf
    best_theta = 0.0
    if crit == ABSOLUTE:
        split_stats_absolute(order, yv, wv, buf)  # buf[p] = −(N_L I_L + N_R I_R) at p left rows
    left[:] = 0.0
    wL = 0.0
    sL = 0.0
    for p in range(1, m):
        r = order[p - 1]
        wL += wv[r]
        if crit == SQUARED:
            sL += wv[r] * yv[r]
        elif crit != ABSOLUTE:
            left[yc[r]] += wv[r]
        if xs[p] <= xs[p - 1]:
            continue
        if p < min_leaf:
            continue
        if m - p < min_leaf:
            break
        wR = wN - wL
        if wL < min_wleaf or wR < min_wleaf:
            continue
        if crit == SQUARED:
            sR = sum_total - sL
            proxy = sL * sL / wL + sR * sR / wR
        elif crit == ABSOLUTE:
            proxy = buf[p]
        else:
            proxy = _class_proxy(left, total, wL, wN, crit)
        if proxy > best:
            best = proxy
            best_theta = _midpoint(xs[p - 1], xs[p])
    return best, best_theta


@numba.njit(cache=True)
def _random_candidate(
    xs, yc, yv, wv, total, sum_total, wN, crit, min_leaf, min_wleaf, lo, hi, state, left, buf
):
    """Proxy of one uniform threshold θ ∈ [lo, hi) of one feature (unsorted node values xs)."""
    theta = lo + rand_uniform(state) * (hi - lo)
    if theta >= hi:
        theta = lo
    m = xs.shape[0]
    left[:] = 0.0
    nL = 0
    wL = 0.0
    sL = 0.0
    for r in range(m):
        if xs[r] <= theta:
            nL += 1
            wL += wv[r]
            if crit == SQUARED:
                sL += wv[r] * yv[r]
            elif crit != ABSOLUTE:
                left[yc[r]] += wv[r]
    wR = wN - wL
    if nL < min_leaf or m - nL < min_leaf or wL < min_wleaf or wR < min_wleaf:
        return -np.inf, theta
    if crit == SQUARED:
        sR = sum_total - sL
        return sL * sL / wL + sR * sR / wR, theta
    if crit == ABSOLUTE:
        order = np.empty(m, dtype=np.intp)  # the left rows first, then the right rows
        a, b = 0, nL
        for r in range(m):
            if xs[r] <= theta:
                order[a] = r
                a += 1
            else:
                order[b] = r
                b += 1
        split_stats_absolute(order, yv, wv, buf)
        return buf[nL], theta
    return _class_proxy(left, total, wL, wN, crit), theta


# -- the search over the features of one node --------------------------------------------------
@numba.njit(cache=True)
def node_split(X, samples, start, end, yc, yv, wv, total, sum_total, wN, params, min_wleaf,
               state, features, xs, ix, left, buf):  # fmt: skip
    """Best split (feature, threshold, proxy) of the node ``samples[start:end]``.

    ``yc``, ``yv``, ``wv`` are the node's class codes, targets and weights (node-local: entry r
    belongs to ``samples[start + r]``); ``total`` its weighted class counts, ``sum_total`` its
    ``Σ w y``, ``wN`` its weight; ``params`` = (crit, min_samples_leaf, max_features,
    random_splitter). ``features`` (a permutation of 0..d−1) is reshuffled as features are
    drawn: on return its first entries are the visit order. ``xs``, ``ix``, ``left``, ``buf`` are
    scratch buffers. Returns feature −1 when no valid split exists.
    """
    crit, min_leaf, max_features, random_splitter = params[0], params[1], params[2], params[3]
    m = end - start
    d = X.shape[1]
    best, best_f, best_theta = -np.inf, -1, 0.0
    visited, n_const, i = 0, 0, 0
    while i < d and (visited < max_features or visited <= n_const):
        k = i + rand_int(state, d - i)  # Fisher-Yates: draw without replacement
        f = features[k]
        features[k] = features[i]
        features[i] = f
        i += 1
        visited += 1
        for r in range(m):
            xs[r] = X[samples[start + r], f]
            ix[r] = r
        if random_splitter:
            lo, hi = xs[:m].min(), xs[:m].max()
            if hi <= lo:
                n_const += 1
                continue
            proxy, theta = _random_candidate(
                xs[:m], yc, yv, wv, total, sum_total, wN, crit, min_leaf, min_wleaf, lo, hi,
                state, left, buf,
            )  # fmt: skip
        else:
            sort_pairs(xs, ix, m)
            if xs[m - 1] <= xs[0]:
                n_const += 1
                continue
            proxy, theta = _sweep(
                xs[:m], ix[:m], yc, yv, wv, total, sum_total, wN, crit, min_leaf, min_wleaf,
                left, buf,
            )  # fmt: skip
        if proxy > best:
            best, best_f, best_theta = proxy, f, theta
    return best_f, best_theta, best


# -- the plain reference ------------------------------------------------------------------------
def _proxy_reference(yL, wL, yR, wR, criterion, classes):
    """−N_L I_L − N_R I_R (classes) or S_L²/N_L + S_R²/N_R (squared error), from scratch, with
    the kernel's formula for each impurity (so that exact ties stay exact ties)."""
    if criterion == "squared_error":
        return (wL @ yL) ** 2 / wL.sum() + (wR @ yR) ** 2 / wR.sum()
    out = 0.0
    for y_, w_ in ((yL, wL), (yR, wR)):
        N = w_.sum()
        counts = [w_[y_ == c].sum() for c in classes]
        impurity = 0.0
        if criterion == "gini":
            sq = 0.0
            for n_k in counts:
                sq += n_k * n_k
            impurity = 1.0 - sq / (N * N)
        else:
            for n_k in counts:
                if n_k > 0:
                    impurity -= (n_k / N) * np.log2(n_k / N)
        out -= N * impurity
    return out


def best_split_reference(
    X, y, w, *, criterion="gini", feature_order=None, min_samples_leaf=1, min_weight_leaf=0.0
):
    """The best split of one node by brute force: every feature (in ``feature_order``), every
    midpoint of consecutive distinct values, the proxy recomputed from scratch.

    Returns (feature, threshold, proxy) with feature −1 when no split is valid. Ties keep the
    first candidate found, as :func:`node_split` does.
    """
    X, y, w = np.asarray(X, dtype=np.float64), np.asarray(y), np.asarray(w, dtype=np.float64)
    classes = np.unique(y)
    order = range(X.shape[1]) if feature_order is None else feature_order
    best = (-1, 0.0, -np.inf)
    for f in order:
        values = np.unique(X[:, f])
        for lo, hi in zip(values[:-1], values[1:]):
            theta = lo / 2.0 + hi / 2.0
            if theta == hi or not np.isfinite(theta):
                theta = lo
            go_left = X[:, f] <= theta
            nL = int(go_left.sum())
            if min(nL, len(y) - nL) < min_samples_leaf:
                continue
            if min(w[go_left].sum(), w[~go_left].sum()) < min_weight_leaf:
                continue
            proxy = _proxy_reference(
                y[go_left], w[go_left], y[~go_left], w[~go_left], criterion, classes
            )
            if proxy > best[2]:
                best = (int(f), float(theta), float(proxy))
    return best
