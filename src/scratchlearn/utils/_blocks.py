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

``static`` arguments (current coefficients, centres, a family object, …) of at most 1 MB are
copied into each block's task, so that the task depends on its block alone and runs on the
worker that holds it; larger ones (a fitted forest) are one graph node, sent once to each
worker that needs them. A node costs bytes less but makes every task depend on two workers'
data, and the scheduler then balances its queues by moving blocks: k-means and Newton
iterations on 10⁵ rows moved 20–40 % of the data per pass between 2 workers so
(``benchmarks/dask_harness.py``, column "of which data blocks").
"""

from __future__ import annotations

import numbers

import numpy as np

from ._dask import dask_rows, is_dask_collection

__all__ = ["add_stats", "block_reduce", "is_dask_collection"]


_EMBED_STATIC_BYTES = 1_000_000  # static arguments up to this size are copied into each task


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


def _static_arg(v):
    """A static argument inline in each task when it pickles to at most
    ``_EMBED_STATIC_BYTES`` (see the module docstring), else as one graph node."""
    if v is None or isinstance(v, (numbers.Number, str, np.generic)):
        return v
    if isinstance(v, np.ndarray):
        size = v.nbytes
    else:
        import cloudpickle

        try:
            size = len(cloudpickle.dumps(v))
        except Exception:  # noqa: BLE001 - unpicklable here: let dask report it on submit
            size = np.inf
    if size <= _EMBED_STATIC_BYTES:
        return v
    import dask

    return dask.delayed(v, pure=False, traverse=False)


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
        Arguments shared by every block (not row-aligned).
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
    shared = [_static_arg(v) for v in static]
    # Fresh keys for every reduction (pure=False): an iterative fit may ask for the same
    # statistic at the same point twice in a row, and a key computed, released and asked again
    # makes the scheduler log "Couldn't gather keys … rescheduling" errors. Nothing is cached.
    node = dask.delayed(stat, pure=False)
    parts = [node(xb, *(ob[i] for ob in other_blocks), *shared) for i, xb in enumerate(X_blocks)]
    total = _tree(combine, parts, max(2, int(split_every)))
    return total.compute() if compute else total
