r"""
Under- and over-fitting with polynomial regression
==================================================

A polynomial of degree :math:`p` is a linear model on the features
:math:`1, x, x^2, \dots, x^p`, fitted by least squares,
:math:`\min_w \sum_i (y_i - \sum_{j=0}^{p} w_j x_i^j)^2`. Each degree contains the one before it,
so the training error can only fall as :math:`p` grows; the error on new data first falls
(the model becomes flexible enough) and then rises (it starts fitting the noise). That U shape is
the bias-variance trade-off.

The report measures it on a noisy sine (20 training points, 200 held out): look for the degree
whose held-out error is closest to the noise variance 0.09, which no model can beat. The first
figure shows the same effect on real patients; the second shows logistic regression trained by
plain gradient descent, the objective and its gradient norm falling until the stopping rule fires.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.linear_model import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Polynomials on the diabetes data
# --------------------------------
# Disease progression against body-mass index for 40 patients. Degree 1 and degree 3 give almost
# the same training :math:`R^2`; degree 12 earns a higher training :math:`R^2` by swinging
# wildly between and beyond the points, which would be useless for a new patient.

fig = plt.figure(figsize=(8, 5))
figures["polynomial_fits.png"](fig)

# %%
# Gradient descent on the logistic loss
# -------------------------------------
# The L2-penalised mean log-loss on the standardised breast-cancer data,
#
# .. math::
#
#    J(w) = -\frac{1}{n}\sum_i \bigl[y_i \log \sigma(w^\top x_i)
#           + (1 - y_i)\log\bigl(1 - \sigma(w^\top x_i)\bigr)\bigr]
#           + \frac{1}{2Cn}\lVert w\rVert^2 .
#
# The objective (left axis) drops fast and flattens; the gradient norm (right axis, log scale)
# keeps shrinking geometrically, which is what the ``grad_norm`` stopping rule watches.

fig = plt.figure(figsize=(8, 5))
figures["loss_curve.png"](fig)

plt.show()
