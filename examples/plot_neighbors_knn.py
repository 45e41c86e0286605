r"""
k-nearest neighbours: the choice of k, the distance and the weights
===================================================================

A :math:`k`-nearest-neighbour classifier stores the training set and predicts the class that
wins a vote among the :math:`k` training points closest to the query,
:math:`\hat y(x) = \arg\max_c \sum_{i \in N_k(x)} w_i\,[y_i = c]`, with :math:`w_i = 1`
(uniform) or :math:`w_i = 1/d(x, x_i)` (distance weighting). Nothing is learnt but the
standardisation of the features, which matters: a distance adds up the features' scales.

:math:`k` sets the bias-variance balance. With :math:`k = 1` every training point is its own
nearest neighbour (training accuracy 1) and the boundary follows every noisy point; with
:math:`k` near the size of the training set the vote tends to the majority class. The report
shows this on wine, then compares five distances and the two weightings; the figures show the
accuracy against :math:`k`, and what distance weighting does to the decision regions.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.neighbors import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Accuracy against k
# ------------------
# The held-out accuracy is lowest at the two ends, :math:`k = 1` (variance) and
# :math:`k = 91`, three quarters of the training set (bias).

fig = plt.figure(figsize=(8, 5))
figures["knn_accuracy_k.png"](fig)

# %%
# Uniform against distance weighting
# ----------------------------------
# The same :math:`k = 15` on two features. With :math:`1/d` votes, a query that coincides with
# a training point (distance 0) takes that point's class, so every training point is predicted
# correctly (training accuracy 1), and small islands appear around points surrounded by another
# class.

fig = plt.figure(figsize=(8, 5))
figures["knn_regions.png"](fig)

# sphinx_gallery_thumbnail_number = 2
plt.show()
