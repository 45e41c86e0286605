"""Viterbi decoding against brute-force search over all Kⁿ tag sequences."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scratchlearn.structured import viterbi

EPS = np.finfo(np.float64).eps


def path_score(E, T, y):
    """s(x, y) = T[K, y0] + Σ E[i, yi] + Σ T[y(i-1), yi] + T[y(n-1), K], and Σ|terms|."""
    K = E.shape[1]
    terms = [T[K, y[0]], T[y[-1], K]] + [E[i, t] for i, t in enumerate(y)]
    terms += [T[a, b] for a, b in zip(y[:-1], y[1:])]
    return float(np.sum(terms)), float(np.sum(np.abs(terms)))


@st.composite
def lattices(draw):
    n, K = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    values = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
    E = np.array(draw(st.lists(values, min_size=n * K, max_size=n * K))).reshape(n, K)
    T = np.array(draw(st.lists(values, min_size=(K + 1) ** 2, max_size=(K + 1) ** 2)))
    return E, T.reshape(K + 1, K + 1)


@settings(max_examples=60, deadline=None)
@given(lattices())
def test_viterbi_equals_brute_force(lattice):
    E, T = lattice
    n, K = E.shape
    scored = {y: path_score(E, T, y) for y in itertools.product(range(K), repeat=n)}
    best = max(scored, key=lambda y: scored[y][0])
    path, score = viterbi(E, T)
    path = tuple(path.tolist())
    # Both sides add the same 2n+1 terms in different orders: each sum is within
    # (2n+1)·ε·Σ|terms| of the exact one (recursive summation), so they agree within twice that.
    bound = 2 * (2 * n + 1) * EPS * max(scored[best][1], scored[path][1])
    assert abs(score - scored[best][0]) <= bound
    assert abs(scored[path][0] - scored[best][0]) <= bound  # the path found is a best path
    runner_up = max((s for y, (s, _) in scored.items() if y != best), default=-np.inf)
    if scored[best][0] - runner_up > 2 * bound:  # a unique best path: it is the one found
        assert path == best


def test_empty_sentence_has_the_empty_path():
    path, score = viterbi(np.zeros((0, 3)), np.ones((4, 4)))
    assert path.shape == (0,) and score == 0.0


def test_ties_go_to_the_lowest_tag():
    path, score = viterbi(np.zeros((3, 4)), np.zeros((5, 5)))
    assert path.tolist() == [0, 0, 0] and score == 0.0
