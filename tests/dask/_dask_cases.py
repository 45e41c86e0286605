"""Helpers shared by the Dask tests (tests/dask is on sys.path while they run)."""


def chunkings(n):
    """Row chunkings of n rows that a block fit must not notice: one block, uneven blocks, and
    one row per block (kept for small n: each block is a task)."""
    out = [(n,), (n // 3, n - n // 3 - 1, 1) if n >= 4 else (n,)]
    if n <= 40:
        out.append((1,) * n)
    return out
