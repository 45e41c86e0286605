"""First-order Viterbi decoding of a linear-chain model (Numba kernels).

Symbols
-------
n        tokens in the sentence; K tags, numbered 0..K-1; index K is the sentence boundary
E        (n, K) emission scores, ``E[i, t] = Σ_{f ∈ φ(x, i)} W[f, t]``
T        (K+1, K+1) transition scores: ``T[a, b]`` for tag a followed by tag b, ``T[K, b]``
         for a sentence starting with b, ``T[a, K]`` for one ending with a

The score of a tag sequence y is

.. math::

    s(x, y) = T_{K, y_0} + \\sum_{i=0}^{n-1} E_{i, y_i} + \\sum_{i=1}^{n-1} T_{y_{i-1}, y_i}
              + T_{y_{n-1}, K},

and Viterbi finds its maximiser over all Kⁿ sequences in O(n K²) by dynamic programming:

.. math::

    δ_0(b) = T_{K,b} + E_{0,b}, \\quad
    δ_i(b) = \\max_a \\, [δ_{i-1}(a) + T_{a,b}] + E_{i,b}, \\quad
    \\max_y s(x, y) = \\max_a \\, [δ_{n-1}(a) + T_{a,K}],

keeping the arg max of each step to read the best path backwards. Ties go to the lowest tag
index. An empty sentence has the empty path and score 0.

References
----------
Viterbi, A. J. (1967). Error bounds for convolutional codes and an asymptotically optimum
decoding algorithm. IEEE Transactions on Information Theory 13(2), 260–269.

Collins, M. (2002). Discriminative training methods for hidden Markov models: theory and
experiments with perceptron algorithms. Proceedings of the 2002 Conference on Empirical Methods
in Natural Language Processing (EMNLP), 1–8.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numba import njit

__all__ = ["emission_scores", "emission_matrix", "viterbi", "decode_corpus"]


@njit(cache=True, no_cfunc_wrapper=True)
def emission_scores(W, ids, token_ptr, t0, t1):
    """E[i, :] = Σ_{f ∈ φ(token t0+i)} W[f, :] for the tokens t0..t1-1: (t1 - t0, K).

    Used inside the training kernel, where W changes after every sentence; prediction computes
    all rows at once with :func:`emission_matrix`.
    """
    K = W.shape[1]
    E = np.zeros((t1 - t0, K))
    for i in range(t1 - t0):
        for j in range(token_ptr[t0 + i], token_ptr[t0 + i + 1]):
            f = ids[j]
            for t in range(K):
                E[i, t] += W[f, t]
    return E


@njit(cache=True, no_cfunc_wrapper=True)
def viterbi(E, T):
    """(best path (n,) int64, its score s(x, y)) for emission scores E and transitions T."""
    n, K = E.shape
    path = np.zeros(n, dtype=np.int64)
    if n == 0:
        return path, 0.0
    delta = np.empty((n, K))  # δ_i(b)
    back = np.zeros((n, K), dtype=np.int64)  # arg max_a of step i
    for b in range(K):
        delta[0, b] = T[K, b] + E[0, b]
    for i in range(1, n):
        for b in range(K):
            best, arg = delta[i - 1, 0] + T[0, b], 0
            for a in range(1, K):
                s = delta[i - 1, a] + T[a, b]
                if s > best:
                    best, arg = s, a
            delta[i, b] = best + E[i, b]
            back[i, b] = arg
    best, arg = delta[n - 1, 0] + T[0, K], 0
    for a in range(1, K):
        s = delta[n - 1, a] + T[a, K]
        if s > best:
            best, arg = s, a
    path[n - 1] = arg
    for i in range(n - 1, 0, -1):
        path[i - 1] = back[i, path[i]]
    return path, best


def emission_matrix(W, ids, token_ptr):
    """E = Φ W for every token at once: Φ the (n_tokens, n_features) 0/1 count matrix (CSR)."""
    n_tokens = token_ptr.shape[0] - 1
    phi = sp.csr_array(
        (np.ones(ids.shape[0]), ids, token_ptr), shape=(n_tokens, W.shape[0])
    )  # duplicate ids in a row are summed, as in emission_scores
    return np.asarray(phi @ W)  # (n_tokens, K)


def decode_corpus(W, T, ids, token_ptr, sent_ptr):
    """The Viterbi path of every sentence, concatenated: (n_tokens,) int64 tag indices."""
    E = emission_matrix(W, ids, token_ptr)
    out = np.empty(E.shape[0], dtype=np.int64)
    for t0, t1 in zip(sent_ptr[:-1].tolist(), sent_ptr[1:].tolist()):
        out[t0:t1] = viterbi(E[t0:t1], T)[0]
    return out
