r"""
Support vector regression: the epsilon-insensitive tube
=======================================================

Support vector regression fits a function :math:`f(x) = \sum_i \beta_i k(x_i, x) + b` that
ignores errors smaller than :math:`\varepsilon`: its loss is
:math:`\max(0, |y - f(x)| - \varepsilon)`, zero inside a tube of half-width
:math:`\varepsilon` around :math:`f`, plus a penalty that keeps :math:`f` smooth. The optimality
(KKT) conditions sort the training points into three groups: inside the tube
:math:`\beta_i = 0`, on its edge :math:`0 < |\beta_i| < C`, outside it :math:`|\beta_i| = C`.
Only the last two are support vectors.

So widening the tube leaves more points inside it, fewer support vectors, and a fit that follows
less of the noise; too wide a tube flattens the curve itself. The report counts the support
vectors for three values of :math:`\varepsilon`, and checks the same solver against
scikit-learn's LIBSVM on the diabetes data.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.svm import _showcase_svr as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# The tube for three epsilons
# ---------------------------
# Red circles are support vectors: every point on or outside the shaded tube. At
# :math:`\varepsilon = 0.5` only three points are left outside it, and the curve no longer
# reaches the peaks of the sine.

fig = plt.figure(figsize=(8, 5))
figures["svr_epsilon_tube.png"](fig)

plt.show()
