r"""
k-means step by step, and the elbow
===================================

k-means looks for :math:`k` centres :math:`\mu_1, \dots, \mu_k` that minimise the inertia
:math:`J = \sum_i \lVert x_i - \mu_{c_i}\rVert^2`, where :math:`c_i` is the centre assigned to
point :math:`x_i`. Lloyd's algorithm alternates two steps, and neither can increase :math:`J`:
assign each point to its nearest centre (the best :math:`c` for fixed centres), then move each
centre to the mean of its points (the best centres for a fixed assignment). It stops when no
assignment changes, at a local minimum that depends on the starting centres.

The report and the first figure start from four deliberately bad seeds, all at the left edge of
the data, and follow :math:`J` through the iterations. The elbow figure shows the usual informal
way to choose :math:`k`: :math:`J` always falls as :math:`k` grows, and one looks for the
:math:`k` after which it falls much more slowly. The last lines of the report compare Lloyd's
algorithm with Elkan's (the same result, fewer distance computations) and mini-batch k-means.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.cluster import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Lloyd's iterations
# ------------------
# Colours are the current assignment, crosses the centres, dashed lines the path of each centre
# so far. Within a few iterations one centre travels across the plot to the far blob.

fig = plt.figure(figsize=(8, 5))
figures["kmeans_lloyd_steps.png"](fig)

# %%
# The elbow on iris
# -----------------
# The inertia drops steeply up to :math:`k = 3` (iris has three species) and slowly after.

fig = plt.figure(figsize=(8, 5))
figures["kmeans_elbow.png"](fig)

plt.show()
