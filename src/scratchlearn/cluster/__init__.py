"""Clustering: k-means by Lloyd's and Elkan's algorithms with greedy k-means++ seeding, and
mini-batch k-means for data that do not fit at once."""

from ._kmeans import KMeans, kmeans_plusplus
from ._minibatch import MiniBatchKMeans

__all__ = ["KMeans", "MiniBatchKMeans", "kmeans_plusplus"]
