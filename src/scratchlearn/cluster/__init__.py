"""Clustering: k-medoids by alternate, PAM and FasterPAM."""

from ._kmedoids import KMedoids

__all__ = ["KMedoids"]
