"""Fits that reduce the data to statistics of row blocks, combined associatively.

Many fits see the rows only through a statistic S(X, y, s) that is a *sum over rows*, or more
generally one that can be computed on disjoint blocks of rows and combined:

.. math::

    S(X) = S(X_1) \\oplus S(X_2) \\oplus \\dots \\oplus S(X_B)

with ⊕ associative: plain addition for XᵀWX, Xᵀ W y, gradients and Hessians, deviances, class
counts and per-class sums, per-cluster sums and counts; a pairwise update for centred moments
(Chan, Golub and LeVeque 1979) or for the R factor of a QR decomposition (a stacked R is
re-factorised). :func:`block_reduce` evaluates such a statistic:

- on NumPy (or SciPy sparse) input, ``stat`` runs once on the whole data: the in-memory fit is
  the one-block case of the same code, not a second implementation;
- on Dask input, ``stat`` runs on each row block where the block lives (a worker of a
  ``dask.distributed`` cluster when a ``Client`` is active, threads otherwise), and the partial
  statistics are combined by a tree reduction of fan-in ``split_every``. Only the statistics
  travel between workers: their size does not grow with the number of rows.

``static`` arguments (current coefficients, centres, a family object, …) are shared by every
block's task and placed by :func:`~scratchlearn.utils._dask.shared_arg`: copied into each task
when small (so that the task depends on its block alone and runs on the worker that holds it),
one graph node sent once to each worker when large.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._dask import dask_rows, is_dask_collection, shared_arg

__all__ = ["add_stats", "block_reduce", "is_dask_collection"]


def add_stats(a, b):
    """Leaf-wise a + b of two statistics: arrays, numbers, or dicts / tuples / lists of them."""
    if isinstance(a, dict):
        return {k: add_stats(a[k], b[k]) for k in a}
    if isinstance(a, (tuple, list)):
        return type(a)(add_stats(u, v) for u, v in zip(a, b))
    if a is None:
        return None
    if isinstance(a, (np.ndarray, numbers.Number, np.generic)):
        return a + b
    raise TypeError(f"add_stats cannot add statistics of type {type(a).__name__}.")


def _tree(combine, parts, split_every):
    """Combine delayed partial statistics in a tree of fan-in ``split_every``."""
    import dask

    def combine_many(*xs):
        out = xs[0]
        for x in xs[1:]:
            out = combine(out, x)
        return out

    node = dask.delayed(combine_many, pure=False)
    while len(parts) > 1:
        parts = [
            node(*parts[i : i + split_every]) if len(parts[i : i + split_every]) > 1 else parts[i]
            for i in range(0, len(parts), split_every)
        ]
    return parts[0]


def block_reduce(stat, X, *others, combine=add_stats, static=(), split_every=8, compute=True):
    """S = ⊕_b stat(X_b, *others_b, *static) over the row blocks b of X.

    Parameters
    ----------
    stat : callable
        ``stat(X_b, *others_b, *static)`` returns the statistic of one block: an array, a
        number, or a dict / tuple of them. It must be a module-level function (it is pickled to
        the workers) and must not modify its inputs.
    X : ndarray, sparse matrix, or Dask array / DataFrame
        NumPy or sparse input: ``stat(X, *others, *static)`` once. Dask input: one call per
        row block, combined by ``combine``.
    *others : arrays or None
        Row-aligned arrays (y, sample weights, labels); None is passed through as None.
    combine : callable
        Associative ``combine(a, b)`` of two block statistics; addition by default.
    static : tuple
        Arguments shared by every block (not row-aligned), placed by
        :func:`~scratchlearn.utils._dask.shared_arg`.
    split_every : int
        Fan-in of the tree reduction.
    compute : bool
        False returns the Dask delayed object (to compute several reductions in one pass).
    """
    if not is_dask_collection(X):
        return stat(X, *others, *static)
    import dask

    names = tuple(f"array {i + 1}" for i in range(len(others)))
    arrays = dask_rows(X, *others, names=names, known_rows=False)  # X alone: chunks may stay nan
    X_blocks = arrays[0].to_delayed().ravel()
    other_blocks = [
        [None] * len(X_blocks) if a is None else list(a.to_delayed().ravel()) for a in arrays[1:]
    ]
    shared = [shared_arg(v) for v in static]
    # Fresh keys for every reduction (pure=False): an iterative fit may ask for the same
    # statistic at the same point twice in a row, and a key computed, released and asked again
    # makes the scheduler log "Couldn't gather keys … rescheduling" errors. Nothing is cached.
    node = dask.delayed(stat, pure=False)
    parts = [node(xb, *(ob[i] for ob in other_blocks), *shared) for i, xb in enumerate(X_blocks)]
    total = _tree(combine, parts, max(2, int(split_every)))
    return total.compute() if compute else total
