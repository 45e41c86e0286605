"""``load_svmlight_file(..., chunks=...)``: row blocks of a svmlight file parsed on Dask workers.

The file is cut into byte ranges of ``chunks`` bytes; a range starts just after the first
newline at or after its offset (the first at 0), so every line belongs to exactly one range
(:func:`_line_start`). A first pass, computed at call time, counts each range's rows, lines and
index bounds (:func:`_count_range`): the row chunks are known, ``n_features`` and
``zero_based="auto"`` are decided as in memory, and each range knows the file's number of its
first line for its errors. Then each range is one lazy row block of X, y and qid
(:func:`_range_block`), parsed by the in-memory reader's own functions, so the blocks
concatenated are the in-memory result exactly.
"""

from __future__ import annotations

import numbers
import os

import numpy as np
import scipy.sparse as sp

from ._svmlight import _csr_rows, _line_blocks, _read_rows

_SEEK_BYTES = 2**16  # read at a time while looking for the newline that starts a range


def _line_start(fh, offset):
    """The first byte of the range whose start offset is ``offset``: 0 at 0, else just after
    the first newline at or after ``offset`` (the end of the file when there is none)."""
    if offset == 0:
        return 0
    fh.seek(offset)
    while True:
        data = fh.read(_SEEK_BYTES)
        if not data:
            return fh.tell()
        i = data.find(b"\n")
        if i >= 0:
            return fh.tell() - len(data) + i + 1


def _range_reader(fh, lo, hi):
    """``read(k)``: up to k more bytes of bytes lo..hi-1 of the binary file ``fh``."""
    fh.seek(lo)
    left = hi - lo

    def read(k):
        nonlocal left
        data = fh.read(min(k, left))
        left -= len(data)
        return data

    return read


def _on_range(path, name, offsets, first_line, block_bytes, work):
    """``work(read, first)``: ``read(k)`` reads the lines that the byte range ``offsets = (a, b)``
    of the file holds (from :func:`_line_start` of a to that of b), the first of them line
    ``first`` of the file. ``first_line`` None: not known; then work runs with 1 and, on a
    ValueError, again with the file's number, counted by reading the file up to the range, so
    that the error names the file's line."""
    a, b = offsets
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise ValueError(f"{name}: cannot read the file ({exc})") from exc
    with fh:
        lo, hi = _line_start(fh, a), _line_start(fh, b)
        try:
            return work(_range_reader(fh, lo, hi), first_line or 1)
        except ValueError:
            if first_line is not None:
                raise
        before = 0
        for start, lines in _line_blocks(name, _range_reader(fh, 0, lo), block_bytes):
            before = start + len(lines) - 1
        return work(_range_reader(fh, lo, hi), before + 1)  # the same error, at the file's line


def _count_range(path, name, offsets, query_id, dtype, block_bytes):
    """The count pass over one byte range: ``(n_rows, n_lines, smallest index, largest index)``
    (the indices None when no entry is stored), or the ValueError its text raises, returned
    rather than raised so that the caller raises the first one in file order."""

    def count(read, first):
        rows, n_lines = _read_rows(name, read, query_id, dtype, block_bytes, first)
        if rows is None or rows[3].size == 0:
            return 0 if rows is None else rows[0].shape[0], n_lines, None, None
        return rows[0].shape[0], n_lines, int(rows[3].min()), int(rows[3].max())

    try:
        return _on_range(path, name, offsets, None, block_bytes, count)
    except ValueError as exc:
        return exc


def _range_block(
    path, name, offsets, first_line, query_id, dtype, block_bytes, n_features, zero_based, dense
):
    """``(X, y, qids)`` of one byte range: one row block of each Dask array."""

    def block(read, first):
        rows, _ = _read_rows(name, read, query_id, dtype, block_bytes, first)
        return _csr_rows(rows, name, n_features, zero_based, query_id, dtype)

    X, y, qids = _on_range(path, name, offsets, first_line, block_bytes, block)
    return (X.toarray() if dense else X), y, qids


def _byte_step(chunks):
    """``chunks`` as a number of bytes: an int, or a size such as ``"64 MiB"``."""
    from dask.utils import parse_bytes

    try:
        step = parse_bytes(chunks) if isinstance(chunks, str) else chunks
    except ValueError:
        step = None
    if isinstance(step, numbers.Integral) and not isinstance(step, bool) and step >= 1:
        return int(step)
    raise ValueError(
        f"chunks must be None, a positive int (bytes of text per block) or a size such as "
        f"'64 MiB'; got {chunks!r}."
    )


def _count_pass(path, name, ranges, parse, n_features, zero_based):
    """The count pass, computed now: ``(first lines, row counts, n_features, zero_based)``, the
    first line of each range in the file and its sample rows, the width of X and whether its
    indices start at 0 (True or False: what "auto" decides). Raises the file's first error."""
    import dask

    counts = dask.compute(*[dask.delayed(_count_range)(path, name, r, *parse) for r in ranges])
    for c in counts:  # the first error in file order, as the in-memory reader raises it
        if isinstance(c, Exception):
            raise c
    n_rows, n_lines, lows, highs = (list(c) for c in zip(*counts))
    first = np.cumsum([1] + n_lines[:-1]).tolist()
    if sum(n_rows) == 0:
        raise ValueError(f"{name}: no samples (only blank or comment lines)")

    def raise_in(i, n_features, zero_based):  # a range's own error names its line
        dask.compute(
            dask.delayed(_range_block)(path, name, ranges[i], first[i], *parse, n_features,
                                       zero_based, False)
        )  # fmt: skip
        raise RuntimeError(f"{name}: the file has changed since its count pass.")

    stored = [i for i, low in enumerate(lows) if low is not None]  # ranges with entries
    one_based = zero_based is False or (zero_based == "auto" and 0 not in lows)
    if one_based and 0 in lows:
        raise_in(lows.index(0), n_features, False)
    shift = 1 if one_based else 0
    width = max(highs[i] for i in stored) + 1 - shift if stored else 0
    if n_features is None:
        n_features = width
    elif n_features < width:
        raise_in(next(i for i in stored if highs[i] - shift >= n_features), n_features, shift == 0)
    return first, n_rows, n_features, not one_based


def _load_dask(f, chunks, n_features, dtype, query_id, zero_based, block_bytes, dense, count_rows):
    """:func:`load_svmlight_file` with ``chunks``: see its Notes."""
    import dask.array as da
    from dask.base import tokenize
    from dask.delayed import delayed

    if not isinstance(f, (str, os.PathLike)):
        raise TypeError(
            f"chunks=... has the workers read the file by its path; got {type(f).__name__}. "
            "Pass the path, or read the open file into memory with chunks=None."
        )
    name = os.fspath(f)
    if name.endswith((".gz", ".bz2")):
        raise ValueError(
            f"{name}: a compressed file cannot be split into byte ranges (chunks=...): "
            "decompress it first, or read it into memory with chunks=None."
        )
    step = _byte_step(chunks)
    if not count_rows and (n_features is None or zero_based == "auto"):
        raise ValueError(
            "count_rows=False needs n_features and zero_based=True or False: without the count "
            "pass, the blocks cannot know the width of X nor how the file numbers its columns."
        )
    path = os.path.abspath(name)  # the workers' working directory may differ
    try:
        stat = os.stat(path)
    except OSError as exc:
        raise ValueError(f"{name}: cannot read the file ({exc})") from exc
    cuts = [*range(0, stat.st_size, step), stat.st_size] if stat.st_size else [0, 0]
    ranges = list(zip(cuts[:-1], cuts[1:]))
    parse = (query_id, dtype, block_bytes)
    if count_rows:
        first, n_rows, n_features, zero_based = _count_pass(
            path, name, ranges, parse, n_features, zero_based
        )
        blocks = [i for i, n in enumerate(n_rows) if n > 0]  # ranges of comments: left out
    else:
        first, n_rows, blocks = [None] * len(ranges), [np.nan] * len(ranges), range(len(ranges))

    # the file's identity in the keys: a changed file is not taken for one persisted before
    token = tokenize(path, stat.st_mtime_ns, stat.st_size, step, parse, n_features, zero_based)
    task = delayed(_range_block, pure=True)
    parts = [  # one task per range, for its X, y and qid blocks
        task(path, name, ranges[i], first[i], *parse, n_features, zero_based, dense,
             dask_key_name=f"load_svmlight_file-{token}-{dense:d}-{i}")
        for i in blocks
    ]  # fmt: skip
    n_rows = [n_rows[i] for i in blocks]
    meta = (
        np.empty((0, n_features), dtype) if dense else sp.csr_matrix((0, n_features), dtype=dtype)
    )

    def column(k, shape, dtype, meta=None):  # part k of every task, as one Dask array
        return da.concatenate(
            [da.from_delayed(p[k], shape(n), dtype=dtype, meta=meta) for p, n in zip(parts, n_rows)]
        )

    X = column(0, lambda n: (n, n_features), dtype, meta)
    y = column(1, lambda n: (n,), np.float64)
    return (X, y, column(2, lambda n: (n,), np.int64)) if query_id else (X, y)
