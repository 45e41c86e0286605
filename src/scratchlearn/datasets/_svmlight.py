"""The svmlight / libsvm text format, with query ids: the format of LETOR and MSLR ranking data.

One sample per line::

    <label> [qid:<int>] <index>:<value> <index>:<value> ... [# comment]

Only non-zero features need be written; indices are strictly increasing within a line. Text
after ``#`` is a comment, and blank or comment-only lines are skipped. Indices are one-based in
most published files (svmlight, LETOR, MSLR) and zero-based in some (libsvm tools, files
written by ``dump_svmlight_file`` by default); ``zero_based="auto"`` reads a file as zero-based
exactly when some index is 0, as scikit-learn does.

The file is read in blocks of about ``block_bytes`` bytes, cut at line ends
(:func:`_line_blocks`), and each block is parsed into its rows' arrays before the next is read,
so the text of the whole file is never in memory at once: the peak is the parsed arrays of the
blocks plus the final matrix assembled from them, about twice the result (a 1.2-million-row
MSLR-WEB10K fold is gigabytes of text, and a few hundred MB as CSR).

A block of at least ``_COMPILED_MIN_BYTES`` (of bytes, or of ASCII text from a file opened in
text mode) goes to the compiled parser first
(:func:`._svmlight_kernels.parse_block`): one pass over the bytes, each number converted
exactly (one rounded operation for short decimals, the Eisel–Lemire step for up to 18 digits,
``float`` for the rare rest), so the numbers are exactly those of the line-by-line reference
parser (:func:`_parse_slow`); on 20,000 LETOR-like rows it reads in a tenth of the time of
scikit-learn's Cython reader, 17-digit reprs included. What it declines (the
rest of Python's number syntax, non-ASCII text, anything malformed) and small blocks take
the Python fast path (:func:`_parse_fast`): the ``index:value`` text of
its lines is checked for its shape with byte masks, then every index is converted by ``int``
and every value by ``float`` in one pass each. Anything that path cannot vouch for (a
malformed token, non-ASCII text, indices out of order) sends the block to the reference
parser, which raises its error naming the line.

With ``chunks``, the same reading runs on Dask workers, one task per byte range of the file
(:mod:`._svmlight_dask`).
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import numbers
import os

import numpy as np
import scipy.sparse as sp

from ..utils.validation import check_array, column_or_1d

__all__ = ["load_svmlight_file", "dump_svmlight_file"]


#: Text read and parsed at a time. The Python parsers hold the block's lines as str and, on
#: the fast path, one str per index and value: about 25 bytes of memory per byte of text,
#: briefly; the compiled parser at most 9 (24 bytes per colon, a token being at least 4 bytes,
#: and the text, its carry and the tokens it sets aside).
_BLOCK_BYTES = 2**20
#: Blocks of bytes this long or longer go to the compiled parser: a shorter one (a small file)
#: takes the Python parsers' 2 ms or less rather than Numba's import and, on a machine's very
#: first read, its 2.5 s of compilation.
_COMPILED_MIN_BYTES = 2**16


@contextlib.contextmanager
def _open_source(f):
    """``(name, read)``: ``read(k)`` returns up to k more bytes or characters of ``f``, a path
    (``.gz`` / ``.bz2`` decompressed as they are read) or an open file (text or binary)."""
    if isinstance(f, (str, os.PathLike)):
        name = os.fspath(f)
        opener = gzip.open if name.endswith(".gz") else bz2.open if name.endswith(".bz2") else open
        try:
            fh = opener(name, "rb")
        except OSError as exc:
            raise ValueError(f"{name}: cannot read the file ({exc})") from exc
        with fh:
            yield name, fh.read
    elif hasattr(f, "read"):
        yield str(getattr(f, "name", "<file>")), f.read
    else:
        raise TypeError(f"f must be a path or an open file; got {type(f).__name__}.")


def _text_blocks(name, read, block_bytes):
    """Successive blocks of whole lines of the source, as read (bytes, or str from a text
    file). A block ends at the last line end of what was read, so no line is cut; the rest
    waits for the next read."""
    carry = None
    while True:
        try:
            chunk = read(block_bytes)
        except OSError as exc:
            raise ValueError(f"{name}: cannot read the file ({exc})") from exc
        last = not chunk
        if carry is not None:
            chunk = carry + chunk
        if not chunk:
            return
        cut = len(chunk) if last else chunk.rfind(b"\n" if isinstance(chunk, bytes) else "\n") + 1
        if cut == 0:  # one line longer than a block: read on
            carry = chunk
            continue
        text, carry = chunk[:cut], chunk[cut:]
        yield text
        if last:
            return


def _decoded_lines(name, text, start):
    """The lines of one block of text (``str.splitlines``), bytes decoded as UTF-8 (a newline
    byte is never inside a multi-byte character, so a block cut there never splits one); the
    block's first line is line ``start`` of the file."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = start + text[: exc.start].count(b"\n")
            raise ValueError(f"{name}, line {line}: not UTF-8 text") from exc
    return text.splitlines()


def _line_blocks(name, read, block_bytes, first_line=1):
    """``(first line number, lines)`` of successive blocks of whole lines of the source, whose
    first line is line ``first_line`` of the file (a byte range of it starts further on)."""
    start = first_line
    for text in _text_blocks(name, read, block_bytes):
        lines = _decoded_lines(name, text, start)
        yield start, lines
        start += len(lines)


def _parse_line(tokens, where):
    """``(label, qid or None, indices, values)`` of the tokens of one sample line."""
    try:
        label = float(tokens[0])
    except ValueError:
        raise ValueError(f"{where}: the label {tokens[0]!r} is not a number") from None
    rest, qid = tokens[1:], None
    if rest and rest[0].startswith("qid:"):
        try:
            qid = int(rest[0][4:])
        except ValueError:
            raise ValueError(f"{where}: the query id {rest[0]!r} is not an integer") from None
        rest = rest[1:]
    indices, values = np.empty(len(rest), np.int64), np.empty(len(rest), np.float64)
    for t, token in enumerate(rest):
        index, colon, value = token.partition(":")
        try:
            if not colon:
                raise ValueError
            indices[t], values[t] = int(index), float(value)
        except (ValueError, OverflowError):
            raise ValueError(f"{where}: {token!r} is not an index:value pair") from None
    if len(rest) > 1 and np.any(np.diff(indices) <= 0):
        raise ValueError(f"{where}: feature indices must be strictly increasing")
    if len(rest) and indices[0] < 0:
        raise ValueError(f"{where}: negative feature index {indices[0]}")
    return label, qid, indices, values


_CHUNK = 8192  # lines converted at a time: bounds the temporary token strings of big files
_SPACE, _TAB, _NEWLINE, _COLON = 32, 9, 10, 58


def _split_line_heads(lines, query_id):
    """Per sample line: its number, label text, qid text (or None) and the ``index:value`` text
    after them; None when ``query_id`` asks for a qid some line lacks."""
    linenos, labels, qids, rests = [], [], [], []
    for lineno, line in enumerate(lines, 1):
        if "#" in line:
            line = line[: line.index("#")]
        parts = line.split(None, 2)
        if not parts:
            continue
        if len(parts) > 1 and parts[1].startswith("qid:"):
            qid, rest = parts[1][4:], parts[2] if len(parts) == 3 else ""
        elif query_id:
            return None
        else:
            qid, rest = None, " ".join(parts[1:])
        linenos.append(lineno)
        labels.append(parts[0])
        qids.append(qid)
        rests.append(rest)
    return linenos, labels, qids, rests


def _pairs_fast(rests):
    """``(counts, cols, vals)`` of the ``index:value`` texts of some lines, converted in one
    pass each by ``int`` and ``float`` (so exactly as the reference parser converts them); None
    unless every token is ``<text>:<text>`` and indices are non-negative and increase."""
    text = "\n".join(rests)
    if not text.isascii():  # Unicode digits and spaces: left to the reference parser
        return None
    b = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    if b.size == 0:
        return np.zeros(len(rests), np.int64), np.zeros(0, np.int64), np.zeros(0)
    space = (b == _SPACE) | (b == _TAB) | (b == _NEWLINE)
    if np.any((b < _SPACE) & ~space):  # other control characters split tokens differently
        return None
    colon = b == _COLON
    # one colon per token, with text on both sides: "1:" ":2" "1:2:3" "3" all fail here
    edges = np.concatenate([[True], space | colon, [True]])
    if np.any(colon & (edges[:-2] | edges[2:])):
        return None
    spaces_before = np.cumsum(space, dtype=np.int32)[colon]  # a space between any two colons
    if np.any(np.diff(spaces_before) == 0):
        return None
    # so each token has at most one colon, which splits it in two words; a token without
    # one adds a single word: 2 words per colon means every token is index:value
    counts = np.array([r.count(":") for r in rests], dtype=np.int64)  # tokens per line
    n_tokens = int(counts.sum())
    words = text.replace(":", " ").split()  # index, value, index, value, ...
    if len(words) != 2 * n_tokens:
        return None
    cols = np.fromiter(map(int, words[0::2]), dtype=np.int64, count=n_tokens)
    vals = np.fromiter(map(float, words[1::2]), dtype=np.float64, count=n_tokens)
    first = np.cumsum(counts) - counts  # each line's first token
    rises = np.diff(cols, prepend=-1) > 0
    rises[first[counts > 0]] = True
    if np.any(cols < 0) or not np.all(rises):
        return None
    return counts, cols, vals


def _parse_fast(lines, query_id):
    """The same result as :func:`_parse_slow` on a valid file, by whole-column conversions; None
    at the first doubt, so that the reference parser reports the malformed line."""
    heads = _split_line_heads(lines, query_id)
    if heads is None or not heads[0]:
        return None
    linenos, labels, qids, rests = heads
    try:
        y = np.fromiter(map(float, labels), dtype=np.float64, count=len(labels))
        given = [q for q in qids if q is not None]  # read (and checked) even if then dropped
        qids = np.fromiter(map(int, given), dtype=np.int64, count=len(given))
        chunks = [_pairs_fast(rests[i : i + _CHUNK]) for i in range(0, len(rests), _CHUNK)]
    except (ValueError, OverflowError):
        return None
    if any(c is None for c in chunks):
        return None
    counts, cols, vals = (np.concatenate(part) for part in zip(*chunks))
    return y, qids if query_id else None, counts, cols, vals, np.asarray(linenos)


def _parse_slow(lines, name, query_id, start=1):
    """The reference parser, line by line: ``(labels, qids, counts, cols, vals, linenos)``,
    or a ValueError naming the first malformed line (``lines[0]`` is line ``start``); None when
    the lines hold no sample."""
    labels, qids, counts, cols, vals, linenos = [], [], [], [], [], []
    for lineno, raw in enumerate(lines, start):
        tokens = raw.split("#", 1)[0].split()
        if not tokens:
            continue
        label, qid, idx, val = _parse_line(tokens, f"{name}, line {lineno}")
        if query_id and qid is None:
            raise ValueError(f"{name}, line {lineno}: no qid:<id> (query_id=True needs one)")
        labels.append(label)
        qids.append(qid)
        linenos.append(lineno)
        counts.append(idx.shape[0])
        cols.append(idx)
        vals.append(val)
    if not labels:
        return None
    qids = np.asarray(qids, dtype=np.int64) if query_id else None
    return (
        np.asarray(labels, dtype=np.float64),
        qids,
        np.asarray(counts, dtype=np.int64),
        np.concatenate(cols),
        np.concatenate(vals),
        np.asarray(linenos, dtype=np.int64),
    )


def _parse_compiled(text, query_id):
    """The rows of one block of bytes by the compiled parser
    (:func:`._svmlight_kernels.parse_block`): ``((y, qids, counts, cols, vals, linenos),
    n_lines)`` with line numbers from 1, rows None when the block holds no sample; None when
    the parser declines the block."""
    from ._svmlight_kernels import POW10, POW10_128, parse_block

    b = np.frombuffer(text, dtype=np.uint8)
    max_rows = int(np.count_nonzero(b == 10)) + int(np.count_nonzero(b == 13)) + 1
    max_entries = int(np.count_nonzero(b == 58))
    y, linenos = np.empty(max_rows), np.empty(max_rows, np.int64)
    qids, counts = np.empty(max_rows, np.int64), np.empty(max_rows, np.int64)
    cols, vals = np.empty(max_entries, np.int64), np.empty(max_entries)
    far_text, far_slot = (
        np.empty(b.shape[0] + 1, np.uint8),
        np.empty(max_rows + max_entries, np.int64),
    )
    arrays = (y, qids, counts, cols, vals, linenos, far_text, far_slot)
    # query_id as a bool: an int from the caller would compile a second signature
    n_rows, n_entries, n_lines, n_far, n_text = parse_block(
        b, bool(query_id), POW10, POW10_128, *arrays
    )
    if n_rows < 0:
        return None
    if n_far:  # the tokens of the grammar that need float: it reads them (exactly), in one pass
        far = np.fromiter(map(float, far_text[:n_text].tobytes().split()), np.float64, n_far)
        slot = far_slot[:n_far]
        vals[slot[slot >= 0]] = far[slot >= 0]
        y[-1 - slot[slot < 0]] = far[slot < 0]
    if n_rows == 0:
        return None, n_lines
    r, t = slice(n_rows), slice(n_entries)
    return (y[r], qids[r] if query_id else None, counts[r], cols[t], vals[t], linenos[r]), n_lines


def _parse_block(text, name, query_id, start, dtype):
    """One block of text parsed: ``((y, qids, counts, cols, vals as dtype, linenos), n_lines)``
    with file line numbers, the rows None when the block holds no sample. Bytes go to the
    compiled parser first (ASCII text from a text file too, as its bytes); what it declines to
    the Python parsers: the fast one, then the reference parser, which names a malformed
    line."""
    if len(text) >= _COMPILED_MIN_BYTES and (isinstance(text, bytes) or text.isascii()):
        raw = text if isinstance(text, bytes) else text.encode("ascii")  # from a text file
        compiled = _parse_compiled(raw, query_id)
        if compiled is not None:
            parsed, n_lines = compiled
            return _stored(parsed, dtype, start), n_lines
    lines = _decoded_lines(name, text, start)
    parsed = _parse_fast(lines, query_id)
    if parsed is not None:
        return _stored(parsed, dtype, start), len(lines)
    # malformed somewhere (or unusual text, or no sample): the reference parser names the line
    return _stored(_parse_slow(lines, name, query_id, start), dtype), len(lines)


def _stored(parsed, dtype, start=1):
    """Parsed rows (None: none) with their columns as the CSR matrix stores them (int32 when
    they fit: no conversion at the end), their values as ``dtype``, and the line numbers of a
    block whose first line is line ``start`` moved on to the file's."""
    if parsed is None:
        return None
    y, qids, counts, cols, vals, linenos = parsed
    linenos = linenos + (start - 1)
    if cols.size == 0 or cols.max() < np.iinfo(np.int32).max:
        cols = cols.astype(np.int32)
    return y, qids, counts, cols, vals.astype(dtype, copy=False), linenos


def _read_rows(name, read, query_id, dtype, block_bytes, first_line=1):
    """``(rows, n_lines)``: the parsed sample lines of a source, ``rows = (y, qids, counts,
    cols, vals, linenos)`` concatenated over its blocks of text (None when it holds no sample),
    and its number of lines (``str.splitlines``'s count, as the line numbers are)."""
    blocks, start = [], first_line
    for text in _text_blocks(name, read, block_bytes):
        rows, n_lines = _parse_block(text, name, query_id, start, dtype)
        blocks.append(rows)
        start += n_lines
    blocks, n_lines = [b for b in blocks if b is not None], start - first_line
    if not blocks:
        return None, n_lines
    # the pieces are freed on return: the matrix made from these arrays is the second copy
    return tuple(None if p[0] is None else np.concatenate(p) for p in zip(*blocks)), n_lines


def _csr_rows(rows, name, n_features, zero_based, query_id, dtype):
    """``(X, y, qids)`` of parsed rows: the columns shifted to zero-based, checked against
    ``n_features`` (None: the largest index read, plus one), X in CSR; rows None: no sample,
    0 × n_features. Each error names the file line of the first offending entry."""
    if rows is None:
        X = sp.csr_matrix((0, n_features or 0), dtype=dtype)
        return X, np.empty(0), (np.empty(0, np.int64) if query_id else None)
    y, qids, counts, cols, vals, lines = rows
    indptr = np.concatenate([[0], np.cumsum(counts)])  # CSR rows: indices strictly increase

    def line_of(k):  # the file line of stored entry k
        return lines[np.searchsorted(indptr, k, side="right") - 1]

    one_based = zero_based is False or (zero_based == "auto" and not np.any(cols == 0))
    if one_based and cols.size:
        if np.any(cols == 0):
            bad = line_of(np.argmax(cols == 0))
            raise ValueError(f"{name}, line {bad}: index 0 in a one-based file (zero_based=False)")
        cols -= 1  # in place: the array is ours, and a copy would raise the peak
    width = int(cols.max()) + 1 if cols.size else 0
    if n_features is None:
        n_features = width
    elif n_features < width:
        k = np.argmax(cols >= n_features)  # the first entry that does not fit, in file order
        raise ValueError(
            f"{name}, line {line_of(k)}: feature index {int(cols[k]) + (1 if one_based else 0)} "
            f"does not fit n_features={n_features}"
        )
    X = sp.csr_matrix((vals, cols, indptr), shape=(y.shape[0], n_features))
    return X, y, qids


def load_svmlight_file(
    f,
    *,
    n_features=None,
    dtype=np.float64,
    query_id=False,
    zero_based="auto",
    block_bytes=None,
    chunks=None,
    dense=False,
    count_rows=True,
):
    """Read a svmlight / libsvm file (with ``qid:``) into a sparse matrix, or into Dask arrays
    of row blocks parsed on the workers (``chunks``).

    Parameters
    ----------
    f : path (``.gz`` and ``.bz2`` are decompressed) or open file (text or binary); a path
        of an uncompressed file with ``chunks``.
    n_features : int or None
        Number of columns of X; None: the largest index read, plus one.
    dtype : dtype of X (y is float64).
    query_id : bool, default=False
        Also return the ``qid`` of each row (then every sample line needs one); with False, query
        ids in the file are read and dropped.
    zero_based : True, False or "auto"
        Whether index 0 is the first column; "auto": zero-based if some index is 0.
    block_bytes : int or None
        How much text is read and parsed at a time (default 1 MiB), by this process or, with
        ``chunks``, by each Dask task within its byte range. Memory peaks at about twice the
        returned arrays (the task's block) plus one block of text.
    chunks : None, int or str
        None: read into memory. Otherwise the bytes of text per Dask block (an int, or a
        string such as ``"64 MiB"``), not rows: see the Notes.
    dense : bool, default=False
        X as NumPy arrays (with ``chunks``: dense blocks) instead of CSR.
    count_rows : bool, default=True
        With ``chunks``: run the count pass at call time, so that the blocks have known row
        counts. False needs ``n_features`` and ``zero_based`` True or False.

    Returns
    -------
    X : scipy.sparse.csr_matrix (n_samples, n_features), or a Dask array of CSR blocks
    y : ndarray (n_samples,) of float64, or a Dask array
    qid : ndarray of int64 (n_samples,), or a Dask array; only with ``query_id=True``.

    Malformed input raises a ValueError naming the file and line.

    Notes
    -----
    Dask arrays are asked for by a keyword of this function rather than by a second one: the
    file, its options, its errors and its result are the same, only delivered in row blocks.
    With ``chunks``, the file is cut into byte ranges of ``chunks`` bytes, and each range
    becomes one row block, parsed by a task on the workers with this module's parser (the
    same text, so the same numbers): ``X.compute()``, ``y.compute()`` and ``qid.compute()``
    are the in-memory result exactly. The workers open the file by its absolute path, so it
    must be on a filesystem they share with this process (as a LocalCluster does). Choices:

    - **Line boundaries.** A range starts just after the first newline at or after its start
      offset (the first range at byte 0) and ends where the next one starts: at the end of
      the line that straddles its end offset. Every line is read whole, by one task; a range
      smaller than a line may hold none. CRLF line ends and a last line without its newline
      read as in memory.
    - **The count pass, at call time.** One task per range parses its text and returns four
      numbers: its sample rows, its lines, its smallest and largest feature index. This
      process then knows each block's row count (no ``nan`` chunks: what the Dask fits need
      to line X, y and weights up), ``n_features``, what ``zero_based="auto"`` decides, and
      the file line number at which each range starts, and it raises the file's first error in
      file order (a malformed line, an index 0 with ``zero_based=False``, an index beyond
      ``n_features``) as the in-memory reader does. The cost is one parse of the whole file,
      in parallel on the workers: computing the blocks then parses it a second time. Ranges
      without a sample row (comments, blank lines, or none at all) are left out of the arrays.
    - **Skipping it** (``count_rows=False``, with ``n_features`` and ``zero_based`` True or
      False given): nothing runs at call time, the row chunks are unknown (``nan``), and an
      error is raised when its block is computed; a task that fails counts the lines before
      its range (reading the file up to there) to name the file's line.
    - **Compressed files** (``.gz``, ``.bz2``) are refused: a compressed stream cannot be
      entered at a byte offset, so it would be one block read whole by one task, which is
      what ``chunks`` is asked to avoid. Decompress it first, or read it in memory. An open
      file is refused too: the workers need a path.
    - **X's blocks** are SciPy CSR matrices (the Dask array's ``meta`` is a 0-row CSR
      matrix), as ``KMeans``, ``MiniBatchKMeans`` and ``MultinomialNB`` fit them; with
      ``dense=True`` NumPy blocks, as most Dask fits (``LinearRegression``, ``Ridge``,
      ``LogisticRegression``, ...) need. One task per range yields X, y and qid blocks
      together: computed together (``dask.compute(X, y)``, or a fit), each range is parsed
      once.
    - **Query groups** are not kept whole: the rows of one query may lie in two neighbouring
      blocks. Every row keeps its own qid, so grouping the computed rows by qid sees whole
      queries; a computation per block that needs whole queries must regroup first.

    This process never reads the file: it takes its size (``os.stat``) and receives only the
    four numbers of each range. The file must not change until the blocks are computed.
    """
    if zero_based not in (True, False, "auto"):
        raise ValueError(f"zero_based must be True, False or 'auto'; got {zero_based!r}.")
    if n_features is not None and (
        not isinstance(n_features, numbers.Integral) or isinstance(n_features, bool)
    ):
        raise ValueError(f"n_features must be None or a positive int; got {n_features!r}.")
    if block_bytes is not None and (
        not isinstance(block_bytes, numbers.Integral)
        or isinstance(block_bytes, bool)
        or block_bytes < 1
    ):
        raise ValueError(f"block_bytes must be None or a positive int; got {block_bytes!r}.")
    if chunks is not None:
        from ._svmlight_dask import _load_dask

        return _load_dask(
            f,
            chunks,
            n_features,
            np.dtype(dtype),
            query_id,
            zero_based,
            block_bytes or _BLOCK_BYTES,
            dense,
            count_rows,
        )
    with _open_source(f) as (name, read):
        rows, _ = _read_rows(name, read, query_id, dtype, block_bytes or _BLOCK_BYTES)
    if rows is None:
        raise ValueError(f"{name}: no samples (only blank or comment lines)")
    X, y, qids = _csr_rows(rows, name, n_features, zero_based, query_id, dtype)
    del rows
    if dense:
        X = X.toarray()
    return (X, y, qids) if query_id else (X, y)


def _format_rows(X, y, query_id, offset):
    """The sample lines of CSR X (sorted, no stored zeros), y and query ids, as one text.

    Every value is written by ``repr`` (the shortest text that reads back to the same double),
    with a trailing ``.0`` dropped (``3`` rather than ``3.0``). The text is assembled by one
    ``join`` over an array of pieces: ``" j:"`` prefixes come from a table of the columns, each
    row opens with ``"\n<label>[ qid:<id>]"``.
    """
    n, d = X.shape
    prefixes = np.array([f" {j + offset}:" for j in range(d)], dtype=object)
    pieces = np.empty(2 * X.nnz, dtype=object)  # " j:", "v", " j:", "v", ...
    pieces[0::2] = prefixes[X.indices]
    pieces[1::2] = list(map(repr, X.data.astype(np.float64).tolist()))
    heads = [f"\n{v!r}" for v in y.astype(np.float64).tolist()]
    if query_id is not None:
        heads = [f"{h} qid:{q}" for h, q in zip(heads, query_id.tolist(), strict=True)]
    pieces = np.insert(pieces, 2 * X.indptr[:-1], heads)
    text = "".join(pieces.tolist())[1:] + "\n"
    # a value's ".0" is followed by a space or the line's end; indices and qids have no "."
    return text.replace(".0 ", " ").replace(".0\n", "\n")


def dump_svmlight_file(X, y, f, *, query_id=None, zero_based=True, comment=None):
    """Write X (dense or sparse), y and optional query ids in the svmlight / libsvm format.

    Only the non-zero entries of each row are written, with indices from 0 (``zero_based=True``)
    or 1. Values are written in the shortest form that reads back to the same double, so
    ``load_svmlight_file`` returns exactly X (as float64) and y. ``comment`` (str, may span
    lines) goes at the top of the file as ``#`` lines. ``f`` is a path or an open file.
    """
    X = check_array(X, accept_sparse=True, dtype="numeric")
    X = sp.csr_matrix(X, copy=True)  # sorted and pruned below: never the caller's matrix
    X.sort_indices()
    y = column_or_1d(y, input_name="y")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels.")
    if y.dtype.kind not in "biuf" or not np.all(np.isfinite(y)):
        raise ValueError("y must hold finite numbers.")
    if query_id is not None:
        query_id = column_or_1d(query_id, input_name="query_id")
        if query_id.shape[0] != X.shape[0]:
            raise ValueError(f"query_id has {query_id.shape[0]} ids but X has {X.shape[0]} rows.")
        if query_id.dtype.kind not in "iu":
            raise ValueError(f"query_id must hold integers; got dtype {query_id.dtype}.")
    if zero_based not in (True, False):
        raise ValueError(f"zero_based must be True or False; got {zero_based!r}.")
    header = ""
    if comment is not None:
        header = "".join(f"# {line}".rstrip() + "\n" for line in str(comment).splitlines())
    X.eliminate_zeros()
    offset = 0 if zero_based else 1
    with _text_writer(f) as write:
        write(header)
        for a in range(0, X.shape[0], _CHUNK):  # a block of rows at a time: bounded memory
            rows = slice(a, a + _CHUNK)
            qid = None if query_id is None else query_id[rows]
            write(_format_rows(X[rows], y[rows], qid, offset))


@contextlib.contextmanager
def _text_writer(f):
    """A function writing text to ``f``: a path (UTF-8), a text file or a binary file."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "w", encoding="utf-8") as fh:
            yield fh.write
    elif isinstance(f, io.TextIOBase):
        yield f.write
    elif hasattr(f, "write"):
        yield lambda text: f.write(text.encode("utf-8"))
    else:
        raise TypeError(f"f must be a path or an open file; got {type(f).__name__}.")
