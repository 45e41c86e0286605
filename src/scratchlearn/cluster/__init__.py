"""Clustering: k-means by Lloyd's and Elkan's algorithms with greedy k-means++ seeding,
mini-batch k-means for data that do not fit at once, and k-medoids by alternate, PAM and
FasterPAM."""

from ._kmeans import KMeans, kmeans_plusplus
from ._kmedoids import KMedoids
from ._minibatch import MiniBatchKMeans

__all__ = ["KMeans", "KMedoids", "MiniBatchKMeans", "kmeans_plusplus"]
