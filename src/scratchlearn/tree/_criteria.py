"""Node impurities and leaf values of the CART criteria (Numba helpers of the builder).

Symbols: a node's rows carry weights ``w_i``, ``N = Σ w_i``; for a classifier ``n_k`` is the
weighted count of class k and ``p_k = n_k / N``.

* ``GINI``:     ``I = 1 − Σ_k p_k²``, value ``p`` (the weighted class fractions);
* ``ENTROPY``:  ``I = −Σ_k p_k log₂ p_k`` (bits), value ``p``;
* ``SQUARED``:  ``I = Σ w_i (y_i − ȳ)² / N``, value ``ȳ = Σ w_i y_i / N``;
* ``ABSOLUTE``: ``I = Σ w_i |y_i − m| / N``, value ``m`` the weighted median: the smallest y whose
  cumulative weight (ys in increasing order) exceeds N/2; when some prefix weighs exactly N/2 the
  median is the mean of the last y of that prefix and the next y (so the unweighted median of an
  even count is the mean of the two middle values).
"""

from __future__ import annotations

import numba
import numpy as np

GINI, ENTROPY, SQUARED, ABSOLUTE = 0, 1, 2, 3
CRITERIA = {"gini": GINI, "entropy": ENTROPY, "log_loss": ENTROPY}
REG_CRITERIA = {"squared_error": SQUARED, "absolute_error": ABSOLUTE}


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def class_impurity(counts, wN, crit):
    """Gini or entropy (bits) of weighted class counts summing to ``wN``."""
    if crit == GINI:
        sq = 0.0
        for k in range(counts.shape[0]):
            sq += counts[k] * counts[k]
        return 1.0 - sq / (wN * wN)
    h = 0.0
    for k in range(counts.shape[0]):
        if counts[k] > 0.0:
            p = counts[k] / wN
            h -= p * np.log2(p)
    return h


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def weighted_median_ae(yv, wv):
    """(weighted median m, Σ w_i |y_i − m|) of node-local targets."""
    order = np.argsort(yv)
    W = 0.0
    for r in range(yv.shape[0]):
        W += wv[r]
    half = W / 2.0
    acc = 0.0
    med = yv[order[-1]]
    for q in range(order.shape[0]):
        acc += wv[order[q]]
        if acc == half and q + 1 < order.shape[0]:
            med = (yv[order[q]] + yv[order[q + 1]]) / 2.0
            break
        if acc > half:
            med = yv[order[q]]
            break
    ae = 0.0
    for r in range(yv.shape[0]):
        ae += wv[r] * abs(yv[r] - med)
    return med, ae


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def node_stats(samples, start, end, yc, yv, ya, w, crit, value):
    """Weighted size N and impurity I of the node ``samples[start:end]``; writes into ``value``
    its weighted class counts n_k (gini, entropy) or its weighted sum S = Σ w y (squared error),
    which the caller divides by N for the node's value and keeps for its split search, or its
    value, the weighted median (absolute error).

    The criterion's family is the one of ``yc``, ``yv``, ``ya`` given, the others None: a
    classifier passes its class codes ``yc`` (``crit`` then tells gini from entropy), a
    regressor its targets as ``yv`` (squared error) or ``ya`` (absolute error). Numba drops the
    branches of the other families when it compiles (a test ``x is not None`` of an argument
    that is None is decided from its type), so a classifier never compiles the regression code
    and the squared error never the weighted medians."""
    N, impurity = 0.0, 0.0
    if yc is not None:  # gini or entropy
        value[:] = 0.0
        for q in range(start, end):
            value[yc[samples[q]]] += w[samples[q]]
            N += w[samples[q]]
        impurity = class_impurity(value, N, crit)
    elif yv is not None:  # squared error
        S = 0.0
        for q in range(start, end):
            N += w[samples[q]]
            S += w[samples[q]] * yv[samples[q]]
        mean = S / N
        ss = 0.0  # two-pass: Σ w (y − ȳ)² without the cancellation of Σ w y² − N ȳ²
        for q in range(start, end):
            d = yv[samples[q]] - mean
            ss += w[samples[q]] * d * d
        value[0] = S
        impurity = ss / N
    elif ya is not None:  # absolute error
        m = end - start
        ys = np.empty(m)
        ws = np.empty(m)
        for q in range(m):
            ys[q] = ya[samples[start + q]]
            ws[q] = w[samples[start + q]]
            N += ws[q]
        med, ae = weighted_median_ae(ys, ws)
        value[0] = med
        impurity = ae / N
    return N, impurity


# -- absolute error: Σ w|y − m| of every prefix and suffix in O(m log m) -----------------------
@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _fenwick_add(tw, twy, i, w, wy):
    i += 1
    while i < tw.shape[0]:
        tw[i] += w
        twy[i] += wy
        i += i & (-i)


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _fenwick_descend(tw, twy, target, strict):
    """Largest prefix length L of ranks whose weight is < target (strict) or <= target."""
    n = tw.shape[0] - 1
    step = 1
    while step * 2 <= n:
        step *= 2
    pos = 0
    acc = 0.0
    accy = 0.0
    while step > 0:
        nxt = pos + step
        if nxt <= n:
            s = acc + tw[nxt]
            if (s < target) if strict else (s <= target):
                pos = nxt
                acc = s
                accy += twy[nxt]
        step //= 2
    return pos, acc, accy


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _prefix_ae(seq, rank, ysorted, yv, wv, out):
    """out[p] = Σ w|y − m| over the first p rows of ``seq`` (m their weighted median)."""
    m = seq.shape[0]
    tw = np.zeros(m + 1)
    twy = np.zeros(m + 1)
    W = 0.0
    WY = 0.0
    out[0] = 0.0
    strict, loose = np.bool_(True), np.bool_(False)  # not literals: one compiled descent
    for p in range(1, m + 1):
        r = seq[p - 1]
        _fenwick_add(tw, twy, rank[r], wv[r], wv[r] * yv[r])
        W += wv[r]
        WY += wv[r] * yv[r]
        half = W / 2.0
        below, _, _ = _fenwick_descend(tw, twy, half, strict)
        L, wl, wyl = _fenwick_descend(tw, twy, half, loose)
        med = ysorted[below] if L == below else (ysorted[below] + ysorted[L]) / 2.0
        # values of the ranks < L are <= m, the others >= m
        out[p] = (med * wl - wyl) + ((WY - wyl) - med * (W - wl))


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def split_stats_absolute(order, yv, wv, buf):
    """buf[p] = −(Σ_L w|y − m_L| + Σ_R w|y − m_R|) when the first p rows of ``order`` go left."""
    m = order.shape[0]
    by_y = np.argsort(yv)
    rank = np.empty(m, dtype=np.intp)
    ysorted = np.empty(m)
    for q in range(m):
        rank[by_y[q]] = q
        ysorted[q] = yv[by_y[q]]
    left = np.empty(m + 1)
    right = np.empty(m + 1)
    _prefix_ae(order, rank, ysorted, yv, wv, left)
    _prefix_ae(order[::-1].copy(), rank, ysorted, yv, wv, right)
    for p in range(m + 1):
        buf[p] = -(left[p] + right[m - p])
