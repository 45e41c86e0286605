r"""
Naive Bayes: spam filtering, and measurements
=============================================

Naive Bayes classifies by Bayes' rule under one strong assumption: given the class, the features
are independent, so :math:`P(c \mid x) \propto P(c) \prod_j P(x_j \mid c)`. Each factor is
estimated by counting (words per class with Laplace smoothing,
:math:`(N_{cj} + \alpha) / (N_c + \alpha V)`), or by a Gaussian per feature and class for
measurements, and the product is computed as a sum of logarithms so that hundreds of small
probabilities do not underflow to zero.

The report trains a multinomial model on 4459 SMS messages, lists the words whose likelihood
ratio most favours spam and ham, and writes one message's posterior out factor by factor; then it
reproduces the lecture notes' four e-mails exactly, and runs Gaussian naive Bayes on wine and
categorical naive Bayes on mushrooms. The figures show Gaussian naive Bayes' curved boundaries on
the iris petals and the spam filter's errors.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.naive_bayes import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Decision regions of Gaussian naive Bayes
# ----------------------------------------
# Each class has its own variance per feature, so the boundary where two class densities are
# equal is a conic, not a line: look at the curved regions around setosa and versicolor.

fig = plt.figure(figsize=(8, 5))
figures["decision_regions.png"](fig)

# %%
# The spam filter's confusion matrix
# ----------------------------------
# Rows are the true labels, columns the predictions: the off-diagonal cells are the few ham
# messages sent to the spam folder and the spam messages let through.

fig = plt.figure(figsize=(8, 5))
figures["confusion_matrix.png"](fig)

plt.show()
