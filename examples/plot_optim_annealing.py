r"""
Simulated annealing against gradient descent on Rastrigin
=========================================================

The Rastrigin function :math:`J(x) = 10d + \sum_i (x_i^2 - 10\cos 2\pi x_i)` is a bowl
:math:`\sum_i x_i^2` covered in ripples: it has a local minimum near every point with integer
coordinates, and its only global minimum, :math:`J = 0`, at the origin. It is a standard test of
whether an optimiser can leave a local minimum.

Gradient descent steps against the gradient, :math:`x \leftarrow x - \eta \nabla J(x)`, so it
stops in the first dip it rolls into. Simulated annealing proposes random moves and accepts a move
that raises :math:`J` by :math:`\Delta J` with probability :math:`e^{-\Delta J / T}`: at a high
temperature :math:`T` it hops over the ripples, and as :math:`T` is lowered it settles into the
deepest basin it has found. Both start from the same random point below; compare the final
:math:`J`, and the price annealing pays for it in evaluations of :math:`J`.
"""

# %%
# The story's report
# ------------------
# Gradient descent ends near an integer point close to its start (a local minimum with
# :math:`J > 0`); annealing ends at the origin, after a few thousand evaluations of which only a
# small share were accepted moves.

from scratchlearn.optim import _showcase as story

print(story.showcase())
