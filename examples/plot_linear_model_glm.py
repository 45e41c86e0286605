r"""
A Poisson GLM on doctor visits
==============================

Counts (visits, claims, accidents) are not Gaussian: they are non-negative integers whose spread
grows with their mean. A Poisson generalised linear model says
:math:`y_i \sim \mathrm{Poisson}(\mu_i)` with :math:`\log \mu_i = x_i^\top \beta`, so a feature
multiplies the expected count by :math:`e^{\beta_j}` per unit. The fit maximises the
log-likelihood by iteratively reweighted least squares: each iteration solves a weighted least
squares problem on the working response :math:`z_i = \eta_i + (y_i - \mu_i)/\mu_i` with weights
:math:`\mu_i`, which is Newton's method written as regression.

The data are the RAND Health Insurance Experiment: outpatient visits against coinsurance and
health covariates. Read the coefficient table as you would statsmodels' (standard errors from the
inverse Fisher information, :math:`z = \hat\beta / \mathrm{se}`), then the last line: the Pearson
dispersion :math:`\frac{1}{n-p}\sum_i (y_i - \mu_i)^2/\mu_i` should be near 1 for Poisson data.
Here it is about 6, so the counts vary more than the model assumes and its standard errors are
too small.
"""

# %%
# The story's report
# ------------------

from scratchlearn.linear_model import _showcase_glm as story

print(story.showcase())
