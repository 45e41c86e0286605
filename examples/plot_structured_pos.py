r"""
Part-of-speech tagging with a structured perceptron
===================================================

A tagger predicts a whole sequence of tags :math:`y_1, \dots, y_T` for a sentence at once. The
structured perceptron scores a candidate sequence as a sum of emission scores (features of each
word, such as the word itself, its suffixes, its capitalisation and its neighbours, paired with a
tag) and transition scores (tag after tag), :math:`\mathrm{score}(x, y) = w^\top \Phi(x, y)`,
and finds the best of the exponentially many sequences with the Viterbi algorithm, dynamic
programming over positions and tags. Training is the perceptron rule on whole sequences: when
the predicted sequence :math:`\hat y` is wrong,
:math:`w \leftarrow w + \Phi(x, y) - \Phi(x, \hat y)`. Averaging the weights over all updates
makes the result much less sensitive to the last few sentences seen.

The report trains on the development part of the Universal Dependencies English treebank and
tests on its test part, against the baseline that gives each word its most frequent tag, then
writes the Viterbi path of one sentence step by step. The figure breaks the accuracy down by tag:
look for the tags where context matters (proper nouns, numbers, verbs).
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.structured import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# Accuracy per tag
# ----------------
# Tags from the most to the least frequent. The baseline is weak where a word's commonest tag is
# often wrong, or where words are rare or unseen (PROPN, NUM); the perceptron uses the
# neighbouring tags and the word's shape.

fig = plt.figure(figsize=(8, 5))
figures["pos_tagging_per_tag.png"](fig)

plt.show()
