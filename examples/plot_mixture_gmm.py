r"""
Gaussian mixtures against k-means on elongated clusters
=======================================================

A Gaussian mixture models the data as drawn from :math:`K` Gaussians,
:math:`p(x) = \sum_k \pi_k\,\mathcal{N}(x \mid \mu_k, \Sigma_k)`, each with its own covariance,
so a cluster can be a long tilted ellipse. EM fits it by alternating the E-step, the
responsibilities :math:`r_{ik} \propto \pi_k\,\mathcal{N}(x_i \mid \mu_k, \Sigma_k)` (how much
component :math:`k` explains point :math:`i`), and the M-step, the weighted means, covariances
and weights; each round cannot decrease the likelihood. k-means is the limit of equal round
components with hard assignments, which is why it cuts long clusters across.

The data are three parallel bars. The report scores each method against the true grouping with
the adjusted Rand index (1 is perfect, 0 is chance) and shows that EM started from the k-means
partition stays in that partition's local maximum. Then it chooses :math:`K` and the covariance
type by the Bayesian information criterion :math:`\mathrm{BIC} = -2\log L + p\log n`, the
likelihood penalised by the number of parameters :math:`p`.
"""

# %%
# The story's report
# ------------------

import matplotlib.pyplot as plt

from scratchlearn.mixture import _showcase as story

print(story.showcase())

figures = dict(story.figures())  # {file name: draw(fig)}, the demo's own figures

# %%
# k-means against the mixture
# ---------------------------
# Left, the k-means partition: each cluster takes pieces of two bars. Right, the mixture's
# components with their ellipses at one and two standard deviations, one per bar.

fig = plt.figure(figsize=(8, 5))
figures["gmm_vs_kmeans.png"](fig)

# %%
# BIC against the number of components
# ------------------------------------
# The full and tied covariances reach their minimum at :math:`K = 3`; the diagonal and spherical
# ones cannot describe a tilted bar with one component, so they keep adding components.

fig = plt.figure(figsize=(8, 5))
figures["gmm_bic.png"](fig)

plt.show()
