"""Feature extraction: bag of words and tf-idf (:mod:`scratchlearn.feature_extraction.text`)."""

from . import text
from .text import CountVectorizer, TfidfTransformer, TfidfVectorizer

__all__ = ["text", "CountVectorizer", "TfidfTransformer", "TfidfVectorizer"]
