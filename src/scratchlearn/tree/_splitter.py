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

Candidate thresholds: the node's values of feature j in increasing order, ``v_(1) ≤ … ≤ v_(m)``
(read from the per-feature sorted order the builder maintains, see :func:`presort`); between two
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

The random splitter (``splitter="random"``, extremely randomised trees) is a second node search,
:func:`random_node_split`: it visits features by the same rule and the same draws (both loops are
headed by the inlined helpers :func:`_draws_left` and :func:`_draw_feature`), but evaluates one
threshold per visited non-constant feature, drawn uniformly in ``[min, max)`` of the node's values
(``θ = min + u·(max − min)``, u the stream's next uniform; a draw that rounds onto the maximum
becomes the minimum), instead of sweeping every midpoint; the threshold is the draw itself, not a
midpoint. It needs no sorted order: the node's rows are one array, read once per visited feature
for (min, max) and once more to sum the left child ``x_ij ≤ θ``, so a node of m rows costs
O(max_features·m), not O(d·m). Its draws come from the tree's own generator, so a seed reproduces
our trees but not scikit-learn's.

Absolute error: the sweep needs ``Σ w|y − m|`` of every prefix and suffix of the sorted rows, each
about its own weighted median; :func:`._criteria.split_stats_absolute` gets all of them in
O(m log m) with a Fenwick tree over the ranks of y (the random splitter's one candidate takes the
two medians directly).

:func:`best_node_split` and :func:`random_node_split` are the Numba kernels;
:func:`best_split_reference` is the plain NumPy version of the best splitter (every criterion) that
the tests compare it against through :func:`best_split`.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from ..utils.multiclass import class_codes
from ._criteria import ENTROPY, GINI, SQUARED, split_stats_absolute, weighted_median_ae

__all__ = [
    "Split",
    "SplitRule",
    "best_node_split",
    "best_split_reference",
    "presort",
    "rand_int",
    "rand_uniform",
    "random_node_split",
    "row_order",
    "split_rule",
]


def presort(X, samples):
    """order (d, m) int32: row j lists ``samples`` sorted by feature j (stable, so equal values
    keep their row order). Sorted once per tree; the builder keeps every node's slice sorted."""
    if X.shape[0] >= 2**31:
        raise ValueError(f"At most 2**31 - 1 rows are supported; got {X.shape[0]}.")
    Xs = X[samples]  # (m, d)
    order = samples[np.argsort(Xs, axis=0, kind="stable")].T  # (d, m)
    return np.ascontiguousarray(order, dtype=np.int32)  # 4·d·m bytes: half of intp's


def row_order(samples):
    """order (1, m) int32: ``samples`` in increasing row order, the one array of row indices that
    :func:`random_node_split` needs (the builder partitions it in place like a presort)."""
    if samples.shape[0] and samples.max() >= 2**31:
        raise ValueError(f"At most 2**31 - 1 rows are supported; got {samples.max() + 1}.")
    if np.any(samples[1:] < samples[:-1]):  # a forest's rows come sorted: no sort per tree
        samples = np.sort(samples)
    return samples.astype(np.int32)[None, :]  # a new array: the builder partitions it in place


# -- what a split search is told, and what it finds ---------------------------------------------
class SplitRule(NamedTuple):
    """How a node may be split (plain scalars: a record, not an array, crosses the compiled calls
    at no cost). ``criterion`` is :data:`._criteria.GINI`, ``ENTROPY``, ``SQUARED`` or
    ``ABSOLUTE``; ``random`` picks :func:`random_node_split` over :func:`best_node_split`; a child
    needs ``min_samples_leaf`` rows and ``min_weight_leaf`` weight; ``max_features`` features are
    drawn per node (see the module docstring for the rule)."""

    criterion: int
    random: bool
    min_samples_leaf: int
    min_weight_leaf: float
    max_features: int


class Split(NamedTuple):
    """The best split found in a node: ``feature`` j (−1: no valid split), ``threshold`` θ, its
    ``proxy`` −N_L I_L − N_R I_R (S_L²/N_L + S_R²/N_R for the squared error), and the random
    stream's ``state`` after the node's draws."""

    feature: int
    threshold: float
    proxy: float
    state: np.uint64


def split_rule(criterion, random, min_samples_leaf, min_weight_leaf, max_features) -> SplitRule:
    """A :class:`SplitRule` with the field types the kernels are compiled for (so every tree
    shares one compiled signature)."""
    return SplitRule(
        int(criterion), bool(random), int(min_samples_leaf), float(min_weight_leaf),
        int(max_features),
    )  # fmt: skip


# -- the tree's own random stream (splitmix64, so the kernel needs no global state) ------------
# The state is a uint64 scalar threaded through the calls (s, draw = f(s)): a scalar costs no
# reference counting, where an array argument costs ~20 ns a call (atomic incref and decref).
@numba.njit(cache=True, inline="always")
def _next_u64(s):
    s = s + np.uint64(0x9E3779B97F4A7C15)
    z = (s ^ (s >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return s, z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def rand_uniform(s):
    """(next state, a float in [0, 1) with 53 random bits)."""
    s, z = _next_u64(s)
    return s, np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True, inline="always")
def rand_int(s, n):
    """(next state, an int in [0, n))."""
    s, z = _next_u64(s)
    return s, np.int64(z % np.uint64(n))


# -- which features a node visits --------------------------------------------------------------
@numba.njit(cache=True, inline="always")
def _draws_left(n_drawn, n_const, d, max_features):
    """Whether to draw another feature: until ``max_features`` are drawn AND one of them was not
    constant in the node, or all d are drawn (scikit-learn's rule)."""
    return n_drawn < d and (n_drawn < max_features or n_drawn <= n_const)


@numba.njit(cache=True, inline="always")
def _draw_feature(features, n_drawn, s):
    """One Fisher–Yates step: swap a uniform draw from ``features[n_drawn:]`` into place
    ``n_drawn`` and return (next state, that feature). After k draws ``features[:k]`` is the
    node's visit order, a uniformly random ordered sample without replacement."""
    s, k = rand_int(s, features.shape[0] - n_drawn)
    f = features[n_drawn + k]
    features[n_drawn + k] = features[n_drawn]
    features[n_drawn] = f
    return s, f


# -- the sweep over one sorted feature ----------------------------------------------------------
@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _identity(m):
    """0, 1, …, m − 1 (a loop: cheaper to compile than ``np.arange``)."""
    out = np.empty(m, dtype=np.intp)
    for q in range(m):
        out[q] = q
    return out


@numba.njit(cache=True, inline="always")
def _midpoint(lo, hi):
    theta = lo / 2.0 + hi / 2.0
    if theta == hi or not np.isfinite(theta):  # rounded up onto hi: hi would go left
        theta = lo
    return theta


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sweep(xs, ss, yc, yv, ya, w, total, sum_total, wN, crit, min_leaf, min_wleaf, left, buf):
    """Best (proxy, threshold) of one feature over its sorted node values.

    ``xs`` (m,) are the node's values of the feature in increasing order and ``ss`` the rows
    they belong to (indices into ``yc`` class codes, ``yv`` or ``ya`` targets, ``w`` weights;
    the one of ``yc``, ``yv``, ``ya`` given is the criterion's family, see
    :func:`._criteria.node_stats`). Every midpoint is a candidate. Returns
    (−inf, 0) when no candidate is valid.
    """
    m = xs.shape[0]
    best = -np.inf
    best_theta = 0.0
    if ya is not None:
        ys = np.empty(m)
        ws = np.empty(m)
        for p in range(m):
            ys[p] = ya[ss[p]]
            ws[p] = w[ss[p]]
        split_stats_absolute(_identity(m), ys, ws, buf)  # buf[p] = −(N_L I_L + N_R I_R)
    left[:] = 0.0
    wL = 0.0
    sL = 0.0
    for p in range(1, m):
        r = ss[p - 1]
        wL += w[r]
        if yc is not None:
            left[yc[r]] += w[r]
        elif yv is not None:
            sL += w[r] * yv[r]
        if xs[p] <= xs[p - 1]:
            continue
        if p < min_leaf:
            continue
        if m - p < min_leaf:
            break
        wR = wN - wL
        # A side whose weight cancels to 0 in wN − wL (rows whose weights are below wN's
        # rounding, as late AdaBoost rounds make them) defines no split: skip it, rather than
        # divide by zero (the proxies below divide by wL and wR).
        if wL < min_wleaf or wR < min_wleaf or wL <= 0.0 or wR <= 0.0:
            continue
        if yc is not None:
            proxy = _class_proxy(left, total, wL, wN, crit)
        elif yv is not None:
            sR = sum_total - sL
            proxy = sL * sL / wL + sR * sR / wR
        else:
            proxy = buf[p]
        if proxy > best:
            best = proxy
            best_theta = _midpoint(xs[p - 1], xs[p])
    return best, best_theta


# -- the search over the features of one node --------------------------------------------------
@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def best_node_split(Xt, order, start, end, yc, yv, ya, w, total, sum_total, wN, rule, s, features,
                    xs, left, buf):  # fmt: skip
    """Best :class:`Split` of the node owning ``order[:, start:end]``.

    ``order[j, start:end]`` are the node's rows sorted by feature j (kept sorted by the builder,
    which partitions every row of ``order`` stably at each split: no sort happens here).
    ``total`` are the node's weighted class counts, ``sum_total`` its ``Σ w y``, ``wN`` its
    weight; ``rule`` a :class:`SplitRule`; ``s`` the random stream's state.
    ``features`` (a permutation of 0..d−1) is reshuffled as features are drawn: on return its
    first entries are the visit order. ``xs``, ``left``, ``buf`` are scratch buffers.
    """
    crit, min_leaf, min_wleaf = rule.criterion, rule.min_samples_leaf, rule.min_weight_leaf
    m, d = end - start, Xt.shape[0]
    best, best_f, best_theta = -np.inf, -1, 0.0
    n_drawn, n_const = 0, 0
    while _draws_left(n_drawn, n_const, d, rule.max_features):
        s, f = _draw_feature(features, n_drawn, s)
        n_drawn += 1
        ss = order[f, start:end]
        if Xt[f, ss[m - 1]] <= Xt[f, ss[0]]:
            n_const += 1
            continue
        for p in range(m):
            xs[p] = Xt[f, ss[p]]
        proxy, mid = _sweep(
            xs[:m], ss, yc, yv, ya, w, total, sum_total, wN, crit, min_leaf, min_wleaf, left, buf
        )
        if proxy > best:
            best, best_f, best_theta = proxy, f, mid
    return Split(best_f, best_theta, best, s)


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _absolute_proxy(xs, m, samples, start, theta, nL, yv, w):
    """−(Σ_L w|y − m_L| + Σ_R w|y − m_R|) of the split ``x ≤ θ`` of the node's m rows (values
    ``xs[:m]``), each child about its own weighted median; the left child has nL rows."""
    ys, ws = np.empty(m), np.empty(m)
    q, k = 0, nL  # the left rows fill ys[:nL], the right rows ys[nL:]
    for p in range(m):
        if xs[p] <= theta:
            at, q = q, q + 1
        else:
            at, k = k, k + 1
        r = samples[start + p]
        ys[at], ws[at] = yv[r], w[r]
    return -(weighted_median_ae(ys[:nL], ws[:nL])[1] + weighted_median_ae(ys[nL:], ws[nL:])[1])


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def random_node_split(Xt, samples, start, end, yc, yv, ya, w, total, sum_total, wN, rule, s,
                      features, xs, left):  # fmt: skip
    """Extremely randomised :class:`Split` of the node ``samples[start:end]``.

    The rows may be in any order (no sorted order is read). Features are drawn as in
    :func:`best_node_split`; each visited feature j costs one pass for (lo, hi) = (min, max) of
    its node values and, when lo < hi, one draw θ = lo + u·(hi − lo) (θ := lo if that rounds onto
    hi, or overflows) and one pass summing the left child ``x_j ≤ θ`` for its proxy. The largest
    proxy wins, the first visited on a tie. Arguments as :func:`best_node_split`. (One function
    on purpose: each call of a helper taking arrays costs reference counting per feature.)
    """
    crit, min_leaf, min_wleaf = rule.criterion, rule.min_samples_leaf, rule.min_weight_leaf
    m, d = end - start, Xt.shape[0]
    best, best_f, best_theta = -np.inf, -1, 0.0
    n_drawn, n_const = 0, 0
    while _draws_left(n_drawn, n_const, d, rule.max_features):
        s, f = _draw_feature(features, n_drawn, s)
        n_drawn += 1
        lo = hi = Xt[f, samples[start]]
        for p in range(m):
            x = Xt[f, samples[start + p]]
            xs[p] = x
            lo = min(lo, x)
            hi = max(hi, x)
        if hi <= lo:
            n_const += 1
            continue
        s, u = rand_uniform(s)
        theta = lo + u * (hi - lo)
        if not theta < hi:  # rounded onto hi (hi would go left), or hi − lo overflowed
            theta = lo
        nL, wL, sL = np.intp(0), 0.0, 0.0  # np.intp: one compiled _absolute_proxy
        for c in range(left.shape[0]):
            left[c] = 0.0
        for p in range(m):
            if xs[p] <= theta:  # (a branch measured faster than a 0/1 product here)
                r = samples[start + p]
                nL += 1
                wL += w[r]
                if yc is not None:
                    left[yc[r]] += w[r]
                elif yv is not None:
                    sL += w[r] * yv[r]
        wR = wN - wL
        if nL < min_leaf or m - nL < min_leaf or wL < min_wleaf or wR < min_wleaf:
            continue
        if yc is not None:
            proxy = _class_proxy(left, total, wL, wN, crit)
        elif yv is not None:
            sR = sum_total - sL
            proxy = sL * sL / wL + sR * sR / wR
        elif ya is not None:
            proxy = _absolute_proxy(xs, m, samples, start, theta, nL, ya, w)
        if proxy > best:
            best, best_f, best_theta = proxy, f, theta
    return Split(best_f, best_theta, best, s)


# -- the plain reference ------------------------------------------------------------------------
def _proxy_reference(yL, wL, yR, wR, criterion, classes):
    """−N_L I_L − N_R I_R (classes) or S_L²/N_L + S_R²/N_R (squared error), from scratch, with
    the kernel's formula for each impurity (so that exact ties stay exact ties)."""
    if criterion == "squared_error":
        return (wL @ yL) ** 2 / wL.sum() + (wR @ yR) ** 2 / wR.sum()
    if criterion == "absolute_error":
        return -sum(_abs_deviation(y_, w_) for y_, w_ in ((yL, wL), (yR, wR)))
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


def _abs_deviation(y, w):
    """Σ w |y − m| about the weighted median m (the rule of :mod:`._criteria`), plainly."""
    o = np.argsort(y, kind="stable")
    ys, cum = y[o], np.cumsum(w[o])
    half = cum[-1] / 2.0
    q = int(np.argmax(cum >= half))
    m = (ys[q] + ys[q + 1]) / 2.0 if cum[q] == half and q + 1 < len(ys) else ys[q]
    return float(np.sum(w * np.abs(y - m)))


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


# Python entry points of the node searches, for the tests: the searches themselves are compiled
# without one (``no_cpython_wrapper``: a fit only calls them from compiled code, and the wrapper
# that unboxes their twenty arguments would be compiled at every cold first fit).
@numba.njit(cache=True, no_cfunc_wrapper=True)
def _best_node_split_from_python(Xt, order, start, end, yc, yv, ya, w, total, sum_total, wN,
                                 rule, s, features, xs, left, buf):  # fmt: skip
    return best_node_split(Xt, order, start, end, yc, yv, ya, w, total, sum_total, wN, rule, s,
                           features, xs, left, buf)  # fmt: skip


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _random_node_split_from_python(Xt, samples, start, end, yc, yv, ya, w, total, sum_total,
                                   wN, rule, s, features, xs, left):  # fmt: skip
    return random_node_split(Xt, samples, start, end, yc, yv, ya, w, total, sum_total, wN, rule,
                             s, features, xs, left)  # fmt: skip


def best_split(
    X, y, w, *, criterion="gini", min_samples_leaf=1, min_weight_leaf=0.0, seed=0, splitter="best"
):
    """The Numba search on one node holding every row of (X, y, w), all features visited.

    Returns (feature, threshold, proxy, visit order): the Python face of
    :func:`best_node_split` (or :func:`random_node_split`), for the tests (compared with
    :func:`best_split_reference` given the same visit order).
    """
    from ._criteria import CRITERIA, REG_CRITERIA

    X = np.ascontiguousarray(X, dtype=np.float64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    n, d = X.shape
    crit = {**CRITERIA, **REG_CRITERIA}[criterion]
    yc = yv = ya = None  # the one given is the criterion's family (see _criteria.node_stats)
    if crit in (GINI, ENTROPY):
        classes, codes = class_codes(y)
        yc, K = codes, classes.shape[0]  # intp, one per row (class_codes)
        total, sum_total = np.bincount(yc, weights=w, minlength=K).astype(np.float64), 0.0
    else:
        y, K = np.asarray(y, dtype=np.float64), 1
        total, sum_total = np.zeros(K), float(w @ y) if crit == SQUARED else 0.0
        yv, ya = (y, None) if crit == SQUARED else (None, y)
    features = np.arange(d)
    rule = split_rule(crit, splitter == "random", min_samples_leaf, min_weight_leaf, d)
    node = dict(yc=yc, yv=yv, ya=ya, w=w, total=total, sum_total=sum_total, wN=float(w.sum()))
    scratch = dict(features=features, xs=np.empty(n), left=np.empty(K))
    Xt, s = X.T.copy(), np.uint64(seed)
    if splitter == "random":
        samples = row_order(np.arange(n))[0]
        split = _random_node_split_from_python(Xt, samples, 0, n, **node, rule=rule, s=s, **scratch)
    else:
        order = presort(X, np.arange(n))
        split = _best_node_split_from_python(
            Xt, order, 0, n, **node, rule=rule, s=s, **scratch, buf=np.empty(n + 1)
        )
    return int(split.feature), float(split.threshold), float(split.proxy), features
