"""Structured outputs: predicting a whole sequence of labels at once.

:class:`StructuredPerceptron` tags every token of a sentence (part-of-speech tagging, chunking,
named entities) with a linear-chain model: emission features of each token conjoined with its
tag, transition weights between consecutive tags, first-order Viterbi decoding, and Collins'
averaged perceptron training.
"""

from ._features import default_features
from ._perceptron import StructuredPerceptron
from ._viterbi import viterbi

__all__ = ["StructuredPerceptron", "default_features", "viterbi"]
