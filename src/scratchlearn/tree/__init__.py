"""Decision trees (CART): classification and regression trees grown by one shared split search."""

from ._classes import DecisionTreeClassifier, DecisionTreeRegressor

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor"]
