r"""
Learning to rank travel modes: pointwise, pairwise, listwise
============================================================

Each of 210 travellers chose one of four modes (air, train, bus, car); read each traveller as a
query whose four alternatives must be ranked, the chosen one first. A ranker learns a score
:math:`s(x) = w^\top x` from the features of an alternative, and three families differ in what
they ask of the scores. Pointwise: regress the relevance labels directly (ridge regression).
Pairwise: within a query, the chosen alternative must outscore each other one by a margin,
:math:`\max(0, 1 - w^\top(x_i - x_j))^2` summed over pairs (RankSVM). Listwise: the softmax of a
query's scores is its "top-one" probability distribution, and ListNet minimises its cross-entropy
with the distribution of the labels.

They are compared on held-out travellers by NDCG@1 (the share of travellers whose chosen mode is
ranked first) and MAP (here the mean of :math:`1/\mathrm{rank}` of the chosen mode), against the
floor of always ranking car first.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.ranking import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Scores and ListNet's training
# -----------------------------
# Left, the two scores of each approach: the three learners are close to each other and far
# above the constant ranking. Right, ListNet's objective falling under gradient descent.

fig = plt.figure(figsize=(8, 5))
figures["ranking_modechoice.png"](fig)

plt.show()
