r"""
Support vector machines: the exact margin, kernels and soft margins
===================================================================

A linear SVM looks for the line (hyperplane) :math:`w^\top x + b = 0` that separates two classes
with the widest margin: minimise :math:`\tfrac12\lVert w\rVert^2` subject to
:math:`y_i(w^\top x_i + b) \ge 1`, which makes the margin :math:`2/\lVert w\rVert`. The solution
depends only on the points that touch the margin, the support vectors. On the lecture notes' five
students the problem can be solved by hand, and the report prints the solver's
:math:`w`, :math:`b`, margin and dual weights beside the exact fractions.

Kernels replace the inner product :math:`x_i^\top x_j` by :math:`k(x_i, x_j)`, a linear
separation in a richer feature space: no line separates the four XOR points, but a degree-2
polynomial or an RBF kernel does. Finally the soft margin allows violations at a price,
:math:`\tfrac12\lVert w\rVert^2 + C\sum_i \xi_i` with slacks :math:`\xi_i \ge 0`: a small
:math:`C` buys a wide margin with many points inside it, a large :math:`C` a narrow one.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.svm import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# The students' maximum-margin line
# ---------------------------------
# Students C and E sit exactly on the dashed lines :math:`f(x) = \pm 1`; moving any other
# student (without crossing a dashed line) would not change the solution.

fig = plt.figure(figsize=(8, 5))
figures["svm_students.png"](fig)

# %%
# XOR with three kernels
# ----------------------
# The linear kernel can only predict one class everywhere here (accuracy 0.5); the polynomial
# kernel, whose features include :math:`x_0 x_1`, and the RBF kernel both separate the corners.

fig = plt.figure(figsize=(8, 5))
figures["svm_xor_kernels.png"](fig)

# %%
# Soft margins on two iris species
# --------------------------------
# Versicolor and virginica overlap, so no hard margin exists. Every circled point is a support
# vector: on the margin or inside it. Their number falls as :math:`C` grows.

fig = plt.figure(figsize=(8, 5))
figures["svm_soft_margins.png"](fig)

# sphinx_gallery_thumbnail_number = 3
plt.show()
