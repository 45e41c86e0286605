"""Plots that compose: each function takes ``ax=None`` and returns the Axes it drew on.

matplotlib is an optional dependency (``pip install 'scratchlearn[plot]'``), imported inside each
function, so importing this module does not need it.

========================== ==============================================================
function                   draws
========================== ==============================================================
plot_decision_regions      the class a 2-feature classifier predicts over the plane + data
plot_confusion_matrix      counts (or rates) of true class × predicted class
plot_loss_curve            objective J per iteration and the gradient norm ‖∇J‖
plot_learning_curve        training and validation score against training-set size
plot_regression_fit        a 1-feature regressor's curve over its data
plot_predicted_vs_true     a regressor's predictions against the true targets
plot_clusters              points coloured by cluster with their centres (PCA plane if d > 2)
plot_elbow                 k-means inertia against the number of clusters k
plot_gmm                   a Gaussian mixture's components as ellipses over the data
========================== ==============================================================
"""

from ._classification import plot_confusion_matrix, plot_decision_regions
from ._cluster import plot_clusters, plot_elbow
from ._curves import (
    plot_learning_curve,
    plot_loss_curve,
    plot_predicted_vs_true,
    plot_regression_fit,
)
from ._mixture import plot_gmm

__all__ = [
    "plot_decision_regions",
    "plot_confusion_matrix",
    "plot_loss_curve",
    "plot_learning_curve",
    "plot_regression_fit",
    "plot_predicted_vs_true",
    "plot_clusters",
    "plot_elbow",
    "plot_gmm",
]
