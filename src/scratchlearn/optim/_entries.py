"""Registry declaration of the optimisers (see :mod:`scratchlearn._registry`).

The optimisers are functions and classes for the estimators, not estimators themselves: the
family registers no entry, only its demo story.
"""

from scratchlearn._registry import Family

FAMILY = Family(
    name="optim",
    order=10,
    title="Gradient descent, L-BFGS and simulated annealing",
    stories=("scratchlearn.optim._showcase",),
)
