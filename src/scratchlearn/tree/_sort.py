"""In-place introsort of (value, index) pairs, for the split search.

Sorting a node's values together with their row indices, in the node's own buffers, avoids the
two allocations (the permutation, the gathered copy) of ``argsort`` + fancy indexing at every node
and feature. Quicksort with a median-of-three pivot and a three-way partition (runs of equal
values, common in real features, are finished in one pass), insertion sort below 16 elements, and
heapsort when the recursion depth passes 2·log₂ m, so the worst case stays O(m log m).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _swap(v, ix, a, b):
    v[a], v[b] = v[b], v[a]
    ix[a], ix[b] = ix[b], ix[a]


@numba.njit(cache=True)
def _insertion(v, ix, lo, hi):
    for i in range(lo + 1, hi):
        x, k = v[i], ix[i]
        j = i - 1
        while j >= lo and v[j] > x:
            v[j + 1] = v[j]
            ix[j + 1] = ix[j]
            j -= 1
        v[j + 1] = x
        ix[j + 1] = k


@numba.njit(cache=True)
def _sift_down(v, ix, lo, root, end):
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and v[lo + child] < v[lo + child + 1]:
            child += 1
        if v[lo + root] >= v[lo + child]:
            return
        _swap(v, ix, lo + root, lo + child)
        root = child


@numba.njit(cache=True)
def _heapsort(v, ix, lo, hi):
    n = hi - lo
    for root in range(n // 2 - 1, -1, -1):
        _sift_down(v, ix, lo, root, n)
    for end in range(n - 1, 0, -1):
        _swap(v, ix, lo, lo + end)
        _sift_down(v, ix, lo, 0, end)


@numba.njit(cache=True)
def _median3(v, lo, hi):
    a, b, c = v[lo], v[(lo + hi) // 2], v[hi - 1]
    if a < b:
        if b < c:
            return b
        return c if a < c else a
    if a < c:
        return a
    return c if b < c else b


@numba.njit(cache=True)
def sort_pairs(v, ix, n):
    """Sort v[:n] increasingly, applying the same permutation to ix[:n]."""
    stack = np.empty((128, 3), dtype=np.intp)  # (lo, hi, depth budget); log-depth by design
    top = 1
    stack[0, 0], stack[0, 1] = 0, n
    stack[0, 2] = 2 * int(np.log2(max(n, 1)) + 1)
    while top > 0:
        top -= 1
        lo, hi, budget = stack[top, 0], stack[top, 1], stack[top, 2]
        while hi - lo > 16:
            if budget == 0:
                _heapsort(v, ix, lo, hi)
                break
            budget -= 1
            pivot = _median3(v, lo, hi)
            lt, i, gt = lo, lo, hi  # v[lo:lt] < pivot, v[lt:i] == pivot, v[gt:hi] > pivot
            while i < gt:
                if v[i] < pivot:
                    _swap(v, ix, i, lt)
                    lt += 1
                    i += 1
                elif v[i] > pivot:
                    gt -= 1
                    _swap(v, ix, i, gt)
                else:
                    i += 1
            if lt - lo < hi - gt:  # recurse into the larger part later: the stack stays short
                stack[top, 0], stack[top, 1], stack[top, 2] = gt, hi, budget
                hi = lt
            else:
                stack[top, 0], stack[top, 1], stack[top, 2] = lo, lt, budget
                lo = gt
            top += 1
        if hi - lo <= 16:
            _insertion(v, ix, lo, hi)
