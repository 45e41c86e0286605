r"""
AdaBoost and bagging on breast cancer
=====================================

Bagging and boosting both combine many trees, for opposite reasons. Bagging averages deep trees
grown on bootstrap samples to reduce their variance. Boosting adds weak learners (here stumps,
trees of one split) one at a time, each trained on reweighted data that stresses the rows the
ensemble still gets wrong, to reduce bias.

In AdaBoost, round :math:`t` fits a stump :math:`h_t` with weighted error :math:`\varepsilon_t`,
gives it the vote :math:`\alpha_t = \ln\frac{1 - \varepsilon_t}{\varepsilon_t}` (SAMME adds
:math:`\ln(K-1)`, zero for two classes), and multiplies the weight of every row it misclassifies
by :math:`e^{\alpha_t}`. Watch the report and the first figure: the training error reaches zero
after a few dozen stumps, yet the held-out error keeps moving afterwards, because later rounds
still widen the margins of the vote.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.ensemble import _showcase_boosting as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Staged errors and votes
# -----------------------
# Top: training and held-out error after each stump. Bottom: each stump's vote
# :math:`\alpha_t`; the first stumps are accurate and earn large votes, later ones work on the
# hard rows and earn less.

fig = plt.figure(figsize=(8, 5))
figures["adaboost_staged_error.png"](fig)

# %%
# Bagging against one tree
# ------------------------
# The held-out accuracy of the first :math:`B` bagged trees' vote against :math:`B`, beside one
# fully grown tree and the out-of-bag estimate of all 50.

fig = plt.figure(figsize=(8, 5))
figures["bagging_vs_one_tree.png"](fig)

plt.show()
