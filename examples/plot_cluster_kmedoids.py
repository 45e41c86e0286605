r"""
k-medoids against k-means with an outlier
=========================================

k-means represents a cluster by its mean, and a mean moves with every point: one point far away
drags it along. k-medoids represents a cluster by a medoid, the member of the cluster with the
smallest total distance to the others, :math:`m = \arg\min_{x_j \in S} \sum_{x_i \in S}
d(x_i, x_j)`. A far point adds the same large distance to every candidate, so it hardly changes
which candidate wins, and the medoid is always an actual data point.

The story puts three blobs of 60 points in the plane and adds one point at :math:`(50, 0)`. The
mean of the cluster that takes it moves by :math:`1/61` of the distance to the outlier; the
medoids do not move at all. The second half of the report compares three k-medoids algorithms on
the wine data: the simple alternating one (like Lloyd's), PAM (the best single swap of a medoid
with a non-medoid per pass) and FasterPAM (the first improving swap), by their total distance
TD and passes.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.cluster import _showcase_kmedoids as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Centroids and medoids with the outlier
# --------------------------------------
# The black plus marks each centre computed without the outlier. In the k-means panel the
# centroid of the right-hand blob has left its plus, towards the outlier; in the k-medoids
# panel every medoid still sits on its plus.

fig = plt.figure(figsize=(8, 5))
figures["kmeans_vs_kmedoids_outlier.png"](fig)

plt.show()
