r"""
A linear SVM on text: hinge against squared hinge
=================================================

On a bag of words (one column per word of the vocabulary, thousands of sparse columns) a linear
model is usually enough, and :class:`~scratchlearn.svm.LinearSVC` trains it by dual coordinate
descent: one training message's dual variable at a time, in closed form. Two losses of the margin
:math:`m_i = y_i f(x_i)` are compared: the hinge :math:`\max(0, 1 - m_i)` charges a violation
linearly, the squared hinge :math:`\max(0, 1 - m_i)^2` quadratically.

The difference shows in where the training messages end up. Under the hinge many messages sit
exactly on the margin :math:`m_i = 1` (their dual variable strictly between 0 and :math:`C`);
under the squared hinge a small violation costs almost nothing but a large one a lot, so the
worst violators are pulled in and more messages sit a little inside the margin. The report also
lists the words with the heaviest weights towards spam and towards ham.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.svm import _showcase_linear as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Where the training messages sit
# -------------------------------
# Histograms of the margins :math:`y_i f(x_i)` (log scale). The hinge's spike at 1 is the
# messages on the margin; left of 0 are the misclassified ones, fewer under the squared hinge.

fig = plt.figure(figsize=(8, 5))
figures["linear_svc_margins.png"](fig)

plt.show()
