r"""
Decision trees: information gain and cost-complexity pruning
============================================================

A decision tree splits the data on the question that makes its children purest. ID3 measures
purity by entropy :math:`H(S) = -\sum_c p_c \log_2 p_c` and picks the attribute of largest
information gain :math:`H(S) - \sum_v \frac{|S_v|}{|S|} H(S_v)`; the report prints these gains on
the PlayTennis tables, the numbers you would compute by hand.

A tree grown until its leaves are pure fits its training set perfectly and over-fits. Minimal
cost-complexity pruning trades error for size: for each :math:`\alpha` it keeps the subtree that
minimises :math:`R(T) + \alpha\,|\mathrm{leaves}(T)|`, so raising :math:`\alpha` removes the
weakest branches first and traces a path from the full tree to the root. A validation set picks
:math:`\alpha`; a separate test set says how well that choice generalises. Reduced-error pruning,
at the end of the report, is the older alternative: cut any branch whose removal does not lower
the validation accuracy.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.tree import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Accuracy along the pruning path
# -------------------------------
# On the left the full tree: perfect training accuracy, poorer validation and test accuracy. As
# :math:`\alpha` grows the training accuracy falls step by step while the validation accuracy
# peaks; the dashed line marks the :math:`\alpha` the validation set chooses.

fig = plt.figure(figsize=(8, 5))
figures["tree_ccp_path.png"](fig)

# %%
# The chosen tree
# ---------------
# Each box is a node: its split, its Gini impurity, the number of training rows reaching it,
# the class proportions and the class it predicts (the colour).

fig = plt.figure(figsize=(8, 5))
figures["decision_tree.png"](fig)

# sphinx_gallery_thumbnail_number = 2
plt.show()
