"""Emission features of a token in its sentence, and their indexing into integer ids.

A feature template maps ``(tokens, i)`` (the sentence and a position) to the strings that
describe token ``i``: ``φ(x, i) ⊂ F``. The perceptron conjoins each of them with a tag, so
feature ``f`` and tag ``t`` own one weight ``W[f, t]``. Strings are turned into rows of ``W``
once per sentence at fit (:func:`index_corpus`), so an epoch touches only integers; at predict
a string never seen in fit has no weight and is dropped.

The corpus is stored flat, as a compressed-sparse-row layout of three integer arrays::

    ids       (n_entries,)    feature ids of every token, token after token
    token_ptr (n_tokens + 1,) token k owns ids[token_ptr[k]:token_ptr[k + 1]]
    sent_ptr  (n_sent + 1,)   sentence s owns tokens sent_ptr[s]:sent_ptr[s + 1]
"""

from __future__ import annotations

import numpy as np

from ..utils._dask import refuse_dask

__all__ = ["default_features", "check_sequences", "index_corpus"]

BOUNDARY_BEFORE, BOUNDARY_AFTER = "<s>", "</s>"


def default_features(tokens, i):
    """The default template: word, affixes, shape, position and neighbouring words.

    ``bias`` (a per-tag prior), the lowercased word ``w``, its suffixes of 1-3 characters and
    prefixes of 1-2, capitalisation (initial or all), whether it holds a digit or a hyphen,
    whether it opens or closes the sentence, and the lowercased words before and after it
    (``<s>`` / ``</s>`` at the edges).
    """
    return _default_sentence(tokens)[i]


def _default_sentence(tokens):
    """:func:`default_features` of every position of one sentence (lowercasing each word once)."""
    lower = [t.lower() for t in tokens]
    n = len(tokens)
    out = []
    for i, (tok, w) in enumerate(zip(tokens, lower)):
        feats = ["bias", "w=" + w, "s1=" + w[-1:], "s2=" + w[-2:], "s3=" + w[-3:]]
        feats += ["p1=" + w[:1], "p2=" + w[:2]]
        if tok[:1].isupper():
            feats.append("cap=all" if tok.isupper() and len(tok) > 1 else "cap=init")
        if any(c.isdigit() for c in tok):
            feats.append("digit")
        if "-" in tok:
            feats.append("hyphen")
        if i == 0:
            feats.append("first")
        if i == n - 1:
            feats.append("last")
        feats.append("w-1=" + (lower[i - 1] if i > 0 else BOUNDARY_BEFORE))
        feats.append("w+1=" + (lower[i + 1] if i < n - 1 else BOUNDARY_AFTER))
        out.append(feats)
    return out


def _sentence_features(tokens, template):
    if template == "default":
        return _default_sentence(tokens)
    return [list(template(tokens, i)) for i in range(len(tokens))]


def _kind(value) -> str:
    return f"{type(value).__name__} {value!r}"[:60]


def check_sequences(sequences, name="sequences"):
    """``sequences`` as a list of lists of str, or a ValueError naming the first bad element.

    A sentence may be empty (it has no tokens to tag). The caller's lists are not modified.
    A Dask bag is refused by name (iterating it would compute it).
    """
    refuse_dask(sequences, "StructuredPerceptron", name)
    if isinstance(sequences, (str, bytes)) or not hasattr(sequences, "__iter__"):
        raise ValueError(
            f"{name} must be a list of sentences, each a list of token strings; got "
            f"{type(sequences).__name__}"
        )
    out = []
    for s, seq in enumerate(sequences):
        if isinstance(seq, (str, bytes)) or not hasattr(seq, "__iter__"):
            raise ValueError(
                f"{name}[{s}] is {_kind(seq)}, not a list of token strings (split the "
                "sentence into tokens first)"
            )
        seq = list(seq)
        for i, tok in enumerate(seq):
            if not isinstance(tok, str):
                raise ValueError(f"{name}[{s}][{i}] is {_kind(tok)}, not a str")
        out.append(seq)
    if not out:
        raise ValueError(f"{name} is empty: need at least one sentence")
    return out


def index_corpus(sequences, template, vocabulary, *, grow):
    """Feature ids of every token, in the flat layout of the module docstring.

    With ``grow`` (fit), features not yet in ``vocabulary`` (a dict str -> id) are added with
    the next id; without it (predict), they are dropped.
    """
    ids, token_ptr, sent_ptr = [], [0], [0]
    for tokens in sequences:
        for feats in _sentence_features(tokens, template):
            for f in feats:
                j = vocabulary.get(f)
                if j is None:
                    if not grow:
                        continue
                    j = vocabulary[f] = len(vocabulary)
                ids.append(j)
            token_ptr.append(len(ids))
        sent_ptr.append(len(token_ptr) - 1)
    return (
        np.asarray(ids, dtype=np.int64),
        np.asarray(token_ptr, dtype=np.int64),
        np.asarray(sent_ptr, dtype=np.int64),
    )
