r"""
Multi-class from binary learners: one-vs-rest against one-vs-one
================================================================

Many classifiers separate two classes only. Two strategies turn them into a :math:`K`-class
classifier. One-vs-rest trains :math:`K` learners, class :math:`k` against all the others, each on
every row, and predicts the class whose learner is most confident. One-vs-one trains
:math:`K(K-1)/2` learners, one per pair of classes on those two classes' rows only, and predicts
the class that wins most pairwise votes.

Which is better depends on the binary learner. With Gaussian naive Bayes on the handwritten
digits, "the rest" is a mixture of nine digits that one Gaussian per pixel describes badly, while
each pairwise learner only has to tell two digits apart: compare the held-out accuracies in the
report and the confusion matrices. With logistic regression on two wine measurements the two
strategies mostly agree, and the first figure shows where they do not.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.multiclass import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Decision regions on wine
# ------------------------
# Three cultivars, so both strategies train three learners. The boundaries coincide far from the
# centre and differ near the point where the three regions meet.

fig = plt.figure(figsize=(8, 5))
figures["ovr_ovo_regions.png"](fig)

# %%
# Confusion matrices on the digits
# --------------------------------
# One-vs-rest sends many digits to the classes 1, 3 and 5 (columns with large off-diagonal
# counts); one-vs-one's errors concentrate in the column of 8.

fig = plt.figure(figsize=(8, 5))
figures["ovr_ovo_confusion.png"](fig)

plt.show()
