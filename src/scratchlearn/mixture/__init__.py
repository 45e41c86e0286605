"""Gaussian mixture models fitted by expectation-maximisation: soft clustering and density
estimation with full, tied, diagonal or spherical covariances."""

from ._gaussian_mixture import GaussianMixture

__all__ = ["GaussianMixture"]
