r"""
Random forests: many trees against one
======================================

A single fully grown tree has low bias and high variance: a different sample of patients would
give a different tree. A random forest averages :math:`B` trees, each grown on a bootstrap sample
of the rows and choosing each split among a random subset of the features, which makes the trees
less alike. If each tree's prediction has variance :math:`\sigma^2` and two trees correlate by
:math:`\rho`, their average has variance :math:`\rho\sigma^2 + (1 - \rho)\sigma^2 / B`: more
trees remove the second term, less alike trees shrink the first. Extra trees go one step further
and draw the split thresholds at random too.

Each bootstrap sample leaves out about :math:`e^{-1} \approx 37\%` of the rows, so every training
row can be predicted by the trees that never saw it: the out-of-bag accuracy, an estimate of the
held-out accuracy that costs no held-out data. Compare the two in the report.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.ensemble import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Feature importances
# -------------------
# The mean decrease in Gini impurity that each feature's splits bring, averaged over the trees
# and normalised to sum to one. The concave points of the cell outlines and the size of the
# largest ("worst") cells dominate.

fig = plt.figure(figsize=(8, 5))
figures["forest_importances.png"](fig)

# %%
# Accuracy against the number of trees
# ------------------------------------
# One tree of a forest is worse than a plain tree (it saw a bootstrap sample and a random subset
# of features); five of them already beat the plain tree (the dashed line).

fig = plt.figure(figsize=(8, 5))
figures["forest_vs_tree.png"](fig)

# sphinx_gallery_thumbnail_number = 2
plt.show()
