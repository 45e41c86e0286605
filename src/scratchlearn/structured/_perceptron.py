"""The structured perceptron for linear-chain sequence labelling (Collins, 2002).

Symbols
-------
x = (x_0..x_{n-1})  a sentence of n tokens; y = (y_0..y_{n-1}) its tags, one of K each
φ(x, i)             the emission features of token i (strings from the feature template)
W                   (n_features, K) emission weights: feature f with tag t scores W[f, t]
T                   (K+1, K+1) transition weights, index K the sentence boundary
s(x, y)             Σ_i Σ_{f ∈ φ(x,i)} W[f, y_i] + Σ_{i=0}^{n} T[y_{i-1}, y_i], y_{-1} = y_n = K
ŷ                   arg max_y s(x, y), found by Viterbi (:mod:`._viterbi`)
c                   sentences processed so far, over all epochs; C its final value

The update, for each training sentence in turn (in a fresh random order each epoch when
``shuffle``), is the perceptron's step on the joint feature vector Φ(x, y):

.. math::

    w \\leftarrow w + Φ(x, y) - Φ(x, ŷ) \\quad \\text{when } ŷ \\ne y,

that is ``W[f, y_i] += 1`` and ``W[f, ŷ_i] -= 1`` for f ∈ φ(x, i) at every token with
ŷ_i ≠ y_i, and ``T[y_{i-1}, y_i] += 1``, ``T[ŷ_{i-1}, ŷ_i] -= 1`` at every position whose tag
pair differs. Averaging returns w̄ = (1/C) Σ_{c=1}^{C} w^{(c)}, the mean of the weights after
every sentence, which generalises much better than the last w. It is computed lazily: each
weight keeps a running sum S and the time τ of its last change; before changing it at time c,
S += (c - τ)·w and τ = c; at the end w̄ = (S + (C - τ)·w) / C. An update then costs O(1) per
weight it touches instead of O(size of w) per sentence.

References
----------
Collins, M. (2002). Discriminative training methods for hidden Markov models: theory and
experiments with perceptron algorithms. Proceedings of EMNLP 2002, 1-8.
"""

from __future__ import annotations

import numbers

import numpy as np
from numba import njit

from ..base import BaseEstimator
from ..utils import check_random_state
from ..utils._param_validation import Interval, StrOptions
from ..utils.parallel import progress_bar
from ..utils.validation import check_is_fitted
from ._features import check_sequences, index_corpus
from ._viterbi import decode_corpus, emission_matrix, emission_scores, viterbi

__all__ = ["StructuredPerceptron"]


@njit(cache=True, no_cfunc_wrapper=True)
def _bump(w, S, tau, a, b, delta, c):
    """w[a, b] += delta, first adding its value's run since its last change to the sum S."""
    S[a, b] += (c - tau[a, b]) * w[a, b]
    w[a, b] += delta
    tau[a, b] = c


@njit(cache=True, no_cfunc_wrapper=True)
def _perceptron_epoch(order, y, ids, token_ptr, sent_ptr, W, T, W_sum, T_sum, W_tau, T_tau, c):
    """One pass over the sentences in ``order``: decode, update on mistakes. Returns
    (tokens mislabelled during the pass, the sentence counter c after it)."""
    K = W.shape[1]
    mistakes = 0
    for s in order:
        t0, t1 = sent_ptr[s], sent_ptr[s + 1]
        n = t1 - t0
        y_hat, _ = viterbi(emission_scores(W, ids, token_ptr, t0, t1), T)
        wrong = 0
        for i in range(n):
            if y_hat[i] != y[t0 + i]:
                wrong += 1
        if wrong > 0:
            mistakes += wrong
            for i in range(n):  # emissions: + Φ(x, y) - Φ(x, ŷ) where the tags differ
                g, p = y[t0 + i], y_hat[i]
                if g != p:
                    for j in range(token_ptr[t0 + i], token_ptr[t0 + i + 1]):
                        _bump(W, W_sum, W_tau, ids[j], g, 1.0, c)
                        _bump(W, W_sum, W_tau, ids[j], p, -1.0, c)
            g_prev, p_prev = K, K
            for i in range(n + 1):  # transitions, the boundary K at both ends
                g = y[t0 + i] if i < n else K
                p = y_hat[i] if i < n else K
                if g != p or g_prev != p_prev:
                    _bump(T, T_sum, T_tau, g_prev, g, 1.0, c)
                    _bump(T, T_sum, T_tau, p_prev, p, -1.0, c)
                g_prev, p_prev = g, p
        c += 1
    return mistakes, c


def _record(token, tag, emission, transition, cumulative):
    return {
        "token": token,
        "tag": tag,
        "emission": emission,
        "transition": transition,
        "cumulative": cumulative,
    }


class StructuredPerceptron(BaseEstimator):
    """Linear-chain sequence labeller trained by the (averaged) structured perceptron.

    Each token gets one tag; the tag sequence maximising s(x, y) (see the module docstring)
    is found by first-order Viterbi decoding, and the weights are learned by Collins' (2002)
    perceptron updates, averaged over every step (lazily, with timestamps).

    Parameters
    ----------
    max_iter : int, default=10
        Epochs (passes over the training sentences). Training stops earlier after an epoch
        without mistakes (``stop_reason_ = "converged"``); otherwise after ``max_iter`` epochs,
        which is the intended stopping rule of the averaged perceptron and does not warn.
    features : "default" or callable, default="default"
        The emission feature template: ``features(tokens, i) -> iterable of str`` for token
        ``i`` of the sentence ``tokens``; "default" is :func:`default_features` (word,
        suffixes, prefixes, capitalisation, digits, hyphen, position, neighbouring words).
    averaged : bool, default=True
        Predict with the averaged weights w̄ rather than the last ones.
    shuffle : bool, default=True
        Visit the sentences in a new random order every epoch.
    random_state : None, int or numpy.random.Generator
        Seeds the shuffling.
    verbose : int or bool, default=0
        Show a tqdm progress bar over the epochs (on stderr).

    Attributes
    ----------
    classes_ : (K,) object array of the tags, sorted
    vocabulary_ : dict str -> int, the row of ``coef_`` of each emission feature
    coef_ : (n_features, K) emission weights W (averaged when ``averaged``)
    transitions_ : (K+1, K+1) transition weights T; row / column K is the sentence boundary
    n_iter_ : int, epochs run
    history_ : {"objective": [...]}: training tokens mislabelled, by the zero weights first
        and then during each epoch's pass (the perceptron's mistake count)
    stop_reason_ : "converged" or "max_iter"

    Notes
    -----
    Inputs are lists of sentences, each a list of token strings; tags are strings. An empty
    sentence is allowed: it is skipped in training and gets the empty tag list at predict.
    Features never seen in fit are ignored at predict.

    Examples
    --------
    >>> from scratchlearn.structured import StructuredPerceptron
    >>> X = [["the", "dog", "barks"], ["a", "cat", "sleeps"], ["the", "cat", "barks"]]
    >>> y = [["DET", "NOUN", "VERB"], ["DET", "NOUN", "VERB"], ["DET", "NOUN", "VERB"]]
    >>> tagger = StructuredPerceptron(max_iter=5, random_state=0).fit(X, y)
    >>> print(tagger.classes_.tolist(), tagger.stop_reason_)
    ['DET', 'NOUN', 'VERB'] converged
    >>> print(tagger.predict([["a", "dog", "sleeps"]]))
    [['DET', 'NOUN', 'VERB']]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "classes_": ("label", ("n_tags",)),
        "vocabulary_": ("dict", None),
        "coef_": ("float64", ("n_features", "n_tags")),
        "transitions_": ("float64", ("*", "*")),
    }

    def _check_fitted_state(self):
        """One row of coef_ per feature of vocabulary_; transitions among the tags and the start."""
        K, F = len(self.classes_), self.coef_.shape[0]
        if self.transitions_.shape != (K + 1, K + 1):
            raise ValueError(
                f"transitions_ has shape {self.transitions_.shape}, expected {(K + 1, K + 1)}"
            )
        if sorted(self.vocabulary_.values()) != list(range(F)):
            raise ValueError(f"vocabulary_ does not map features to the {F} rows of coef_")

    _parameter_constraints = {
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "features": [StrOptions({"default"}), "callable"],
        "averaged": ["boolean"],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
    }

    def __init__(
        self,
        *,
        max_iter=10,
        features="default",
        averaged=True,
        shuffle=True,
        random_state=None,
        verbose=0,
    ):
        self.max_iter = max_iter
        self.features = features
        self.averaged = averaged
        self.shuffle = shuffle
        self.random_state = random_state
        self.verbose = verbose

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(X_types=["sequences"], requires_y=True, preserves_dtype=[])
        return t

    # -- fit ----------------------------------------------------------------------------------
    def _check_fit_input(self, sequences, label_sequences):
        X = check_sequences(sequences, "sequences")
        Y = check_sequences(label_sequences, "label_sequences")
        if len(X) != len(Y):
            raise ValueError(f"sequences has {len(X)} sentences but label_sequences has {len(Y)}")
        for s, (x, t) in enumerate(zip(X, Y)):
            if len(x) != len(t):
                raise ValueError(
                    f"sentence {s} has {len(x)} tokens but {len(t)} tags in label_sequences"
                )
        if not any(X):
            raise ValueError("every sentence is empty: there is no token to learn from")
        return X, Y

    def fit(self, sequences, label_sequences):
        """Learn W and T from tagged sentences (lists of tokens, lists of tags)."""
        self._validate_params()
        X, Y = self._check_fit_input(sequences, label_sequences)
        rng = check_random_state(self.random_state)
        self.classes_ = np.array(sorted({t for tags in Y for t in tags}), dtype=object)
        code = {t: k for k, t in enumerate(self.classes_)}
        y = np.array([code[t] for tags in Y for t in tags], dtype=np.int64)  # (n_tokens,)
        self.vocabulary_ = {}
        ids, token_ptr, sent_ptr = index_corpus(X, self.features, self.vocabulary_, grow=True)
        K, F = len(self.classes_), len(self.vocabulary_)
        W, T = np.zeros((F, K)), np.zeros((K + 1, K + 1))
        W_sum, T_sum = np.zeros_like(W), np.zeros_like(T)
        W_tau, T_tau = np.zeros(W.shape, np.int64), np.zeros(T.shape, np.int64)
        sentences = np.flatnonzero(np.diff(sent_ptr) > 0)  # empty sentences are skipped
        history = [float(np.sum(y != 0))]  # zero weights: Viterbi's ties pick tag 0 everywhere
        c, stop = 0, "max_iter"
        with progress_bar(self.verbose, self.max_iter, type(self).__name__, "epoch") as bar:
            for _ in range(self.max_iter):
                order = rng.permutation(sentences) if self.shuffle else sentences
                mistakes, c = _perceptron_epoch(
                    order, y, ids, token_ptr, sent_ptr, W, T, W_sum, T_sum, W_tau, T_tau, c
                )
                history.append(float(mistakes))
                if bar is not None:
                    bar.update(1)
                if mistakes == 0:
                    stop = "converged"
                    break
        if self.averaged:
            W = (W_sum + (c - W_tau) * W) / c  # w̄ = (S + (C - τ)·w) / C
            T = (T_sum + (c - T_tau) * T) / c
        self.coef_, self.transitions_ = W, T
        self._record_fit(
            len(history) - 1,
            {"objective": history},
            stop,
            criterion="an epoch without mistakes, or max_iter epochs",
            met={"converged", "max_iter"},
        )
        return self

    # -- predict ------------------------------------------------------------------------------
    def _decode(self, sequences):
        """(checked sentences, flat Viterbi tag indices, sentence offsets)."""
        check_is_fitted(self)
        X = check_sequences(sequences, "sequences")
        ids, token_ptr, sent_ptr = index_corpus(X, self.features, self.vocabulary_, grow=False)
        flat = decode_corpus(self.coef_, self.transitions_, ids, token_ptr, sent_ptr)
        return X, flat, sent_ptr

    def predict(self, sequences):
        """The Viterbi tag sequence of every sentence: a list of lists of tag strings."""
        _, flat, sent_ptr = self._decode(sequences)
        tags = self.classes_[flat].tolist()
        return [tags[a:b] for a, b in zip(sent_ptr[:-1], sent_ptr[1:])]

    def score(self, sequences, label_sequences):
        """Token accuracy: the fraction of tokens whose predicted tag is the given one.

        Raises ValueError if the label sequences hold tags never seen in fit (a different tag
        set), or do not match the sentences in number or length.
        """
        check_is_fitted(self)
        X, Y = self._check_fit_input(sequences, label_sequences)
        unseen = sorted({t for tags in Y for t in tags} - set(self.classes_.tolist()))
        if unseen:
            raise ValueError(
                f"label_sequences hold tags not seen in fit: {unseen[:5]} (the fitted tags "
                f"are {self.classes_.tolist()[:8]}...): a different tag set?"
            )
        _, flat, _ = self._decode(X)
        truth = np.array([t for tags in Y for t in tags], dtype=object)
        return float(np.mean(self.classes_[flat] == truth))

    def explain(self, sequence):
        """The best path of one sentence with its scores, one record per step.

        A list of dicts ``{"token", "tag", "emission", "transition", "cumulative"}``: the
        emission score E[i, y_i], the transition T[y_{i-1}, y_i] into the tag (from the
        boundary K for the first token) and the running total. A last record with token None
        and tag "</s>" holds the transition to the end boundary; its ``cumulative`` is s(x, ŷ),
        the Viterbi maximum.
        """
        check_is_fitted(self)
        (tokens,) = check_sequences([sequence], "sequence")
        ids, token_ptr, _ = index_corpus([tokens], self.features, self.vocabulary_, grow=False)
        E = emission_matrix(self.coef_, ids, token_ptr)  # (n, K)
        path, _ = viterbi(E, self.transitions_)
        K = len(self.classes_)
        records, total, prev = [], 0.0, K
        for i, (tok, t) in enumerate(zip(tokens, path.tolist())):
            emission, transition = float(E[i, t]), float(self.transitions_[prev, t])
            total += emission + transition
            records.append(_record(tok, self.classes_[t], emission, transition, total))
            prev = t
        transition = float(self.transitions_[prev, K])
        records.append(_record(None, "</s>", 0.0, transition, total + transition))
        return records
