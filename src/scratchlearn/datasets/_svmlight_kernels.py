"""The compiled parser of a block of svmlight text (see ``_svmlight``): one pass over its bytes.

It reads exactly the files that the reference parser reads without an error, and gives the
same numbers, bit for bit; on anything else it declines, and the block goes to the Python
parsers, which name the offending line. It reads ASCII text only, line ends ``\\n``, ``\\r\\n``
or ``\\r`` (what ``str.splitlines`` splits on in ASCII, bar the rarer form feeds and separators,
which make it decline), fields split by spaces and tabs, ``#`` opening a comment to the line's
end, and numbers in this grammar::

    int   = [+-] digit+
    float = [+-] (digit+ [. digit*] | . digit+) [(e|E) [+-] digit+]

Python's ``int`` and ``float`` read more (``1_000``, ``inf``, ``nan``): such a token makes it
decline too, and the Python parsers read it.

**Exact conversion.** A float token is read as m·10ᵉ with m the integer of its digits and e
the exponent less the number of digits after the point. When m ≤ 2⁵³ and |e| ≤ 22, both m and
10^|e| are exact doubles, so the single rounded operation m × 10ᵉ (or m / 10⁻ᵉ) is the
correctly rounded value of the decimal number: what ``float`` returns (Clinger 1990, "How to
read floating point numbers accurately"; the "fast path" of every exact reader).

Otherwise (17-digit reprs, tiny and huge exponents), when m has at most 18 digits, the
Eisel–Lemire step (Lemire 2021, "Number parsing at a gigabyte per second") finds the double:
m shifted left until its top bit is set, times the 128-bit truncation t of 10ᵉ (``POW10_128``),
gives the 54 leading bits of m·10ᵉ and the binary exponent ⌊e log₂10⌋ + 64 + 1023 − (shift).
Because t is rounded down, the true product lies within m of the computed one; the step
declines when that margin (or a second product with t's lower 64 bits) could carry into the
leading bits, when m·10ᵉ is a near halfway case between two doubles, or when it is subnormal
or overflows. A token it declines, or one with more digits, is left for ``float`` itself: its
text is copied into a buffer of such tokens, and the caller converts them all in one pass of
``float``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

__all__ = ["POW10", "POW10_128", "parse_block"]

#: 10⁰ … 10²², each an exact double (10ᵏ = 5ᵏ·2ᵏ, and 5²² < 2⁵³ < 5²³).
POW10 = np.array([float(10**k) for k in range(23)])
#: The smallest and largest e of ``POW10_128``: beyond them m·10ᵉ (m < 2⁶⁴) is 0 or inf.
E_MIN, E_MAX = -348, 347


def _truncated_128(e):
    """⌊10ᵉ · 2ᵏ⌋ for the k that gives it 128 bits: (high 64 bits, low 64 bits)."""
    if e >= 0:
        v = 10**e
        t = v >> (v.bit_length() - 128) if v.bit_length() > 128 else v << (128 - v.bit_length())
    else:
        d = 10**-e  # 2^(128 + L − 1) / d lies in (2¹²⁷, 2¹²⁸): d is not a power of two
        t = (1 << (128 + d.bit_length() - 1)) // d
    return t >> 64, t & (2**64 - 1)


#: Row e − E_MIN: the 128-bit mantissa of 10ᵉ, rounded down, as (high, low) 64-bit words.
POW10_128 = np.array([_truncated_128(e) for e in range(E_MIN, E_MAX + 1)], dtype=np.uint64)
_MAX_EXACT = 2**53
_DIGITS_CAP = 10**17  # m stops growing here (its digits beyond go to ``float``)

_SPACE, _TAB, _LF, _CR = 32, 9, 10, 13
_HASH, _COLON, _DOT, _PLUS, _MINUS, _ZERO, _NINE = 35, 58, 46, 43, 45, 48, 57
_E, _e, _QID = 69, 101, np.frombuffer(b"qid:", dtype=np.uint8)
# 64-bit unsigned constants: Numba types an operation of uint64 with a signed int as float64
_U0, _U1, _U9, _U32, _U63 = (np.uint64(v) for v in (0, 1, 9, 32, 63))
_LOW32, _LOW9, _ALL64 = np.uint64(2**32 - 1), np.uint64(0x1FF), np.uint64(2**64 - 1)


@numba.njit(cache=True, nogil=True, inline="always")
def _ends_field(c):
    """Whether byte c closes a field: a space, a tab, a line end or a comment."""
    return c == _SPACE or c == _TAB or c == _LF or c == _CR or c == _HASH


@numba.njit(cache=True, nogil=True, inline="always")
def _closed(b, i, n):
    """Whether a token read up to position i (−1: not in the grammar) ends there, at a field's
    end or the text's."""
    return i >= 0 and (i == n or _ends_field(b[i]))


@numba.njit(cache=True, nogil=True, inline="always")
def _is_qid(b, i, n):
    """Whether ``b[i:]`` opens with ``qid:``."""
    if i + 4 > n:
        return False
    for k in range(4):
        if b[i + k] != _QID[k]:
            return False
    return True


@numba.njit(cache=True, nogil=True, inline="always")
def _read_int(b, i, n):
    """``(value, next position)`` of the int at ``b[i:]``; next position -1 when there is none
    or it does not fit 63 bits (the Python parsers then judge the token)."""
    negative = False
    if i < n and (b[i] == _PLUS or b[i] == _MINUS):
        negative = b[i] == _MINUS
        i += 1
    start, value = i, 0
    while i < n and _ZERO <= b[i] <= _NINE:
        if value >= 10**17:
            return 0, -1
        value = 10 * value + (b[i] - _ZERO)
        i += 1
    if i == start:
        return 0, -1
    return (-value if negative else value), i


@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _read_float(b, i, n, pow10, pow10_128):
    """``(value, next position, exact)`` of the float at ``b[i:]``: ``exact`` False when the
    value must come from ``float`` (see the module notes); next position -1 when the text is
    not in the grammar."""
    negative = False
    if i < n and (b[i] == _PLUS or b[i] == _MINUS):
        negative = b[i] == _MINUS
        i += 1
    m, e, n_digits, capped = 0, 0, 0, False
    while i < n and _ZERO <= b[i] <= _NINE:  # the integer part
        if m < _DIGITS_CAP:
            m = 10 * m + (b[i] - _ZERO)
        else:
            capped = True
        n_digits += 1
        i += 1
    if i < n and b[i] == _DOT:
        i += 1
        while i < n and _ZERO <= b[i] <= _NINE:  # the fraction: each digit lowers e by one
            if m < _DIGITS_CAP:
                m = 10 * m + (b[i] - _ZERO)
                e -= 1
            else:
                capped = True
            n_digits += 1
            i += 1
    if n_digits == 0:
        return 0.0, -1, False
    if i < n and (b[i] == _e or b[i] == _E):
        exponent, i = _read_int(b, i + 1, n)
        if i < 0:
            return 0.0, -1, False
        e += exponent
    if capped:
        return 0.0, i, False
    exact = True
    if m == 0:
        value = 0.0  # 0, 0.000, 0e999: a zero whatever the exponent
    elif m <= _MAX_EXACT and 0 <= e <= 22:
        value = m * pow10[e]
    elif m <= _MAX_EXACT and -22 <= e < 0:
        value = m / pow10[-e]
    else:
        value, exact = _eisel_lemire(m, e, pow10_128)
    return (-value if negative else value), i, exact


@numba.njit(cache=True, nogil=True, inline="always")
def _mul_128(a, b):
    """``(high, low)`` 64-bit words of the 128-bit product of the uint64 a and b, from four
    32 × 32-bit products."""
    a_lo, a_hi, b_lo, b_hi = a & _LOW32, a >> _U32, b & _LOW32, b >> _U32
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    middle = (p0 >> _U32) + (p1 & _LOW32) + (p2 & _LOW32)
    return p3 + (p1 >> _U32) + (p2 >> _U32) + (middle >> _U32), (middle << _U32) | (p0 & _LOW32)


@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _eisel_lemire(m, e, pow10_128):
    """``(m·10ᵉ rounded to the nearest double, True)`` for 0 < m < 2⁶³, or ``(0, False)``
    when the step cannot be sure (see the module notes)."""
    if e < E_MIN or e > E_MAX:
        return 0.0, False
    w = np.uint64(m)
    shift = 0
    while (w >> _U63) == _U0:  # normalised: the top bit set
        w = w << _U1
        shift += 1
    t_hi, t_lo = pow10_128[e - E_MIN, 0], pow10_128[e - E_MIN, 1]
    x_hi, x_lo = _mul_128(w, t_hi)
    if (x_hi & _LOW9) == _LOW9 and x_lo + w < w:  # the margin w could carry: look closer
        y_hi, y_lo = _mul_128(w, t_lo)
        merged_hi, merged_lo = x_hi, x_lo + y_hi
        if merged_lo < x_lo:
            merged_hi += _U1
        if (merged_hi & _LOW9) == _LOW9 and merged_lo == _ALL64 and y_lo + w < w:
            return 0.0, False
        x_hi, x_lo = merged_hi, merged_lo
    top = x_hi >> _U63  # the product's top bit: 54 bits from there
    mantissa = x_hi >> (top + _U9)
    exponent = ((217706 * e) >> 16) + 64 + 1023 - shift - (1 - np.int64(top))
    if x_lo == _U0 and (x_hi & _LOW9) == _U0 and (mantissa & np.uint64(3)) == _U1:
        return 0.0, False  # a halfway case the truncation may hide
    mantissa = (mantissa + (mantissa & _U1)) >> _U1  # 54 bits to 53, to nearest
    if (mantissa >> np.uint64(53)) != _U0:
        mantissa = mantissa >> _U1
        exponent += 1
    if exponent <= 0 or exponent >= 0x7FF:  # subnormal, or beyond the largest double
        return 0.0, False
    return math.ldexp(float(mantissa), exponent - 1075), True


@numba.njit(cache=True, nogil=True, inline="always")
def _set_aside(b, start, end, far_text, n_text):
    """Append the token ``b[start:end]`` and a space to ``far_text[:n_text]``; its new length."""
    for k in range(start, end):
        far_text[n_text] = b[k]
        n_text += 1
    far_text[n_text] = _SPACE
    return n_text + 1


@numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def parse_block(
    b, query_id, pow10, pow10_128, y, qids, counts, cols, vals, linenos, far_text, far_slot
):
    """Parse the ASCII bytes ``b`` of whole svmlight lines into the arrays given.

    Per sample row r: ``y[r]``, ``qids[r]`` (0 without a qid), ``counts[r]`` entries and its
    line ``linenos[r]`` (from 1, as ``str.splitlines`` counts); per entry t: ``cols[t]`` and
    ``vals[t]``. The f-th value that must come from ``float`` is stored as 0, its text appended
    to ``far_text`` followed by a space, and ``far_slot[f]`` is the entry t it belongs to, or
    −1 − r for the label of row r.

    Returns ``(rows, entries, lines, far tokens, bytes of far_text)``; ``rows`` is −1 when the
    block must go to the Python parsers: a byte or a token outside the grammar, a negative
    index, indices that do not increase, a missing qid under ``query_id``. The arrays must hold
    one row per line, one entry per colon of ``b``, one far token per both, and ``far_text``
    as many bytes as ``b`` and one (each far token is followed by a byte of ``b`` or its end).
    """
    n = b.shape[0]
    rows, t, line, n_far, n_text = 0, 0, 0, 0, 0
    i = 0
    while i < n:
        line += 1
        field, previous = 0, -1  # field 0: the label; 1: qid or an entry; then entries
        while i < n and b[i] != _LF and b[i] != _CR:
            c = b[i]
            if c == _SPACE or c == _TAB:
                i += 1
                continue
            if c == _HASH:  # a comment: skip to the line's end, in ASCII still (in Unicode,
                while i < n and b[i] != _LF and b[i] != _CR:  # U+2028 ends a line too)
                    if (b[i] < _SPACE and b[i] != _TAB) or b[i] > 126:
                        return -1, 0, 0, 0, 0
                    i += 1
                break
            if c < _SPACE or c > 126:  # other control bytes, non-ASCII: the Python parsers
                return -1, 0, 0, 0, 0
            start = i
            if field == 0:
                value, i, exact = _read_float(b, i, n, pow10, pow10_128)
                if not _closed(b, i, n):
                    return -1, 0, 0, 0, 0
                y[rows], qids[rows], counts[rows], linenos[rows] = value, 0, 0, line
                if not exact:
                    n_text = _set_aside(b, start, i, far_text, n_text)
                    far_slot[n_far] = -1 - rows
                    n_far += 1
                rows += 1
            elif field == 1 and _is_qid(b, i, n):
                qid, i = _read_int(b, i + 4, n)
                if not _closed(b, i, n):
                    return -1, 0, 0, 0, 0
                qids[rows - 1] = qid
            else:
                if field == 1 and query_id:
                    return -1, 0, 0, 0, 0
                index, i = _read_int(b, i, n)
                if i < 0 or i >= n or b[i] != _COLON or index < 0 or index <= previous:
                    return -1, 0, 0, 0, 0
                start = i + 1  # the value's text
                value, i, exact = _read_float(b, start, n, pow10, pow10_128)
                if not _closed(b, i, n):
                    return -1, 0, 0, 0, 0
                cols[t], vals[t], previous = index, value, index
                if not exact:
                    n_text = _set_aside(b, start, i, far_text, n_text)
                    far_slot[n_far] = t
                    n_far += 1
                counts[rows - 1] += 1
                t += 1
            field += 1
        if field == 1 and query_id:  # a label alone, no qid
            return -1, 0, 0, 0, 0
        if i < n and b[i] == _CR and i + 1 < n and b[i + 1] == _LF:
            i += 1
        i += 1  # past the line end
    return rows, t, line, n_far, n_text
