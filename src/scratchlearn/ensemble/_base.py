"""Helpers every ensemble uses: a learner's own seed, its sample weights, sizes given as a count
or a fraction, and the out-of-bag average.

Symbols: n rows, T learners, s_t the seed of learner t, O_t the rows learner t did not see (its
out-of-bag rows) and f_t(x_i) its output on row i (a row of K class probabilities, or one value).
The out-of-bag (OOB) prediction of row i averages only the learners that did not see it,

.. math::  \\hat f_{\\mathrm{oob}}(x_i) = \\frac{S_i}{c_i}, \\qquad
           S_i = \\sum_{t : i \\in O_t} f_t(x_i), \\qquad c_i = |\\{t : i \\in O_t\\}|,

and is undefined (NaN) for a row that every learner saw (c_i = 0).
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np

from ..base import clone

__all__ = [
    "accepts_sample_weight",
    "accumulate_oob",
    "as_count",
    "check_grows",
    "check_oob_needs_bootstrap",
    "oob_mean",
    "seeded_clone",
]


def seeded_clone(estimator, seed):
    """A clone of ``estimator`` with ``random_state = s_t`` (learner t's seed) when it has that
    parameter; a plain clone of a learner without randomness."""
    learner = clone(estimator)
    if "random_state" in learner.get_params(deep=False):
        learner.set_params(random_state=int(seed))
    return learner


def accepts_sample_weight(estimator) -> bool:
    """Whether ``estimator.fit`` takes a ``sample_weight`` argument."""
    return "sample_weight" in inspect.signature(estimator.fit).parameters


def as_count(value, total: int, name: str, what: str, to_int=int) -> int:
    """A size given as a count or as a fraction of ``total``: an int m ≤ total as it is, a
    float f as ``max(1, to_int(f · total))``. scikit-learn's forests round f·n (``to_int=round``)
    and its bagging truncates it (``int``); each ensemble keeps its reference's rule."""
    if isinstance(value, (float, np.floating)):
        return max(1, int(to_int(value * total)))
    if value > total:
        raise ValueError(f"{name}={value} is larger than the {total} {what} of X.")
    return int(value)


def check_oob_needs_bootstrap(ensemble) -> None:
    """``oob_score=True`` needs ``bootstrap=True``: the out-of-bag rows are those a bootstrap
    sample missed."""
    if ensemble.oob_score and not ensemble.bootstrap:
        raise ValueError(
            f"{type(ensemble).__name__}: oob_score=True needs bootstrap=True (the out-of-bag "
            "rows are those a bootstrap sample missed)."
        )


def check_grows(ensemble, fitted: int, learners: str) -> None:
    """``warm_start`` only adds learners: ``n_estimators`` below the ``fitted`` ones is an error
    (``learners``: "trees", "learners")."""
    if ensemble.n_estimators < fitted:
        raise ValueError(
            f"{type(ensemble).__name__}: n_estimators={ensemble.n_estimators} is smaller than "
            f"the {fitted} {learners} already fitted; warm_start can only add {learners}."
        )


def accumulate_oob(pieces, n: int, width: int):
    """(S (n, width), c (n,)): ``S_i = Σ_{t : i ∈ O_t} f_t(x_i)`` and ``c_i = |{t : i ∈ O_t}|``
    from the pairs (O_t as distinct row indices, f_t(x_{O_t}) of shape (|O_t|, width)), added in
    the order of the pairs, so the sums are the same bit for bit wherever the pieces were
    computed."""
    sums, seen = np.zeros((n, width)), np.zeros(n, dtype=np.intp)
    for rows, out in pieces:
        sums[rows] += out  # rows are distinct: no lost updates
        seen[rows] += 1
    return sums, seen


def oob_mean(sums, seen, learners: str, stacklevel: int = 2):
    """(S_i / c_i (n, width), the mask c_i > 0): the OOB predictions, NaN for the rows every
    learner saw, with a warning naming how many there are (``learners``: "tree", "estimator")."""
    never = int(np.sum(seen == 0))
    if never:
        warnings.warn(
            f"{never} of {seen.shape[0]} rows were drawn by every {learners} and have no "
            "out-of-bag prediction: they are NaN in the out-of-bag arrays and left out of "
            f"oob_score_. More {learners}s make this rarer.",
            UserWarning,
            stacklevel=stacklevel + 1,
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / seen[:, None], seen > 0
