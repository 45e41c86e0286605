"""Nearest neighbours."""

from ._kd_tree import KDTree

__all__ = ["KDTree"]
