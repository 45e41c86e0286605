"""Decision trees: CART classification and regression trees grown by one shared split search,
ID3 with multiway splits on categories, cost-complexity and reduced-error pruning, export."""

from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._export import export_graphviz, export_text, plot_tree
from ._id3 import ID3Classifier
from ._prune import PruneReport

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ID3Classifier",
    "PruneReport",
    "export_graphviz",
    "export_text",
    "plot_tree",
]
