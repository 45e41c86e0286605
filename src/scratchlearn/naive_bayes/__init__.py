"""Naive Bayes classifiers: numbers, binary features, counts and categories.

Every model computes the joint log-likelihood ``log P(y = c) + Σ_j log P(x_j | y = c)`` and
normalises it once with log-sum-exp (:mod:`scratchlearn.naive_bayes._base`); each learns by
counting, so ``partial_fit`` streams data in batches. ``explain(x)`` writes one posterior out
factor by factor.
"""

from ._categorical import CategoricalNB
from ._discrete import BernoulliNB, MultinomialNB
from ._explain import NaiveBayesExplanation
from ._gaussian import GaussianNB

__all__ = ["GaussianNB", "BernoulliNB", "MultinomialNB", "CategoricalNB", "NaiveBayesExplanation"]
