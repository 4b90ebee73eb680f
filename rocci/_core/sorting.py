"""An index sort of float scores by one value sort: the row index packed into an order-preserving key.

``numpy.argsort`` moves indices and compares the values they point to (a
random memory access per comparison); ``numpy.sort`` of a contiguous integer
array runs the SIMD sorting networks NumPy ships (x86-simd-sort, Highway) and
is 3-4 times faster on 10⁶ float64 values.  :func:`argsort_scores` gets the
permutation from such a value sort:

1. each float64 ``x`` maps to a 64-bit unsigned key ``k(x)`` whose integer order
   is the order of the floats (IEEE 754: flip every bit of a negative number,
   set the sign bit of a non-negative one; ``−0.0`` lands just below ``+0.0``,
   which compare equal, so nothing sorts between them);
2. the low ``b = bit_length(n − 1)`` bits of the key are replaced by the row
   index, and the packed keys are sorted as values; the index comes back out of
   the low bits;
3. rows whose keys agree above those ``b`` bits are sorted by their index, not
   by their value: floats within ``2^b`` units in the last place of each other.
   Those runs are checked, and the runs whose values differ are sorted again by
   value (``numpy.lexsort`` on those rows only).  Exact ties need no repair.

The result is a permutation ``p`` with ``x[p]`` non-decreasing, exactly what
``numpy.argsort(x)`` promises (neither is stable).  When more than an eighth of
the rows would need the repair (values packed within a few units in the last
place), with more than 2²⁶ rows, under 4,096 rows, or when a sample of the
scores repeats values (few distinct scores: introsort is fast on them),
``numpy.argsort`` is used instead.  Which sort runs never changes the result
beyond the order of exactly tied rows.
"""

from __future__ import annotations

import numpy as np

__all__ = ["argsort_scores"]

#: Above this many index bits the packed key keeps too few bits of the value to be worth it.
_MAX_INDEX_BITS = 26
#: Below this many rows numpy.argsort's fixed cost is smaller than the extra passes.
_MIN_ROWS = 4096
#: Rows sampled by :func:`_looks_tied`.
_SAMPLE = 2048


def argsort_scores(x: np.ndarray, *, ties: bool = False):
    """A permutation sorting finite float64 scores increasingly (as ``numpy.argsort(x)``), by one value sort.

    Parameters
    ----------
    x : ndarray of float64, one dimension, no NaN
        Validated scores (every caller has checked them finite).
    ties : bool, default False
        Also return where the sorted scores repeat.

    Returns
    -------
    order : ndarray of intp
        ``p`` with ``x[p[0]] <= x[p[1]] <= ...``.  Rows with equal scores come
        in no particular order, as with ``numpy.argsort``'s default kind.
    tied : ndarray of intp, only with ``ties=True``
        The sorted positions ``i`` (increasing) with ``x[p[i]] == x[p[i + 1]]``.
        From the packed keys they cost nothing when the scores have no ties:
        equal values share their keys' high bits, so only those positions are
        compared.

    Notes
    -----
    The key of a float with bit pattern ``u`` (as an unsigned 64-bit integer)
    is ``~u`` when its sign bit is set and ``u | 2⁶³`` otherwise; the packed key
    of row ``i`` is ``(k(x_i) & ~(2^b − 1)) | i``.  Sorting packed keys orders
    rows by ``(k(x_i) >> b, i)``, which is the order of the values except
    inside runs sharing ``k >> b``; those are repaired as the module says.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    n = x.size
    bits = max(int(n - 1).bit_length(), 1)
    if n < _MIN_ROWS or bits > _MAX_INDEX_BITS or _looks_tied(x):
        return _numpy_argsort(x, ties)
    signed = x.view(np.int64)
    key = np.right_shift(signed, 63)  # −1 (every bit) for a negative number, 0 otherwise
    key |= np.int64(-(1 << 63))  # ... and the sign bit for every number
    key ^= signed  # negative: every bit flipped; non-negative: the sign bit set
    key = key.view(np.uint64)
    low = np.uint64((1 << bits) - 1)
    key &= ~low
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    order = (key & low).astype(np.intp)
    # Sorted positions i whose row shares its high bits with the row at i + 1: ordered by index so far.
    at = np.flatnonzero(np.bitwise_xor(key[1:], key[:-1]) <= low)
    del key
    if 8 * at.size > n:  # heavily tied after all: the checks below would cost more than they save
        return _numpy_argsort(x, ties)
    equal = x.take(order.take(at)) == x.take(order.take(at + 1))
    if not equal.all():  # runs holding two different values: their rows, sorted again by (run, value)
        differ = at[~equal]
        rows = np.union1d(at, at + 1)  # sorted positions in some run
        run = np.cumsum(~np.isin(rows - 1, at)) - 1  # a row starts a run unless the row before shares its bits
        bad = np.zeros(int(run[-1]) + 1, dtype=bool)
        bad[run[np.searchsorted(rows, differ)]] = True
        keep = bad[run]
        rows, run = rows[keep], run[keep]
        sub = np.lexsort((x.take(order.take(rows)), run))
        order[rows] = order.take(rows.take(sub))
        equal = x.take(order.take(at)) == x.take(order.take(at + 1))  # ties only among the candidates
    return (order, at[equal]) if ties else order


def _numpy_argsort(x: np.ndarray, ties: bool):
    order = np.argsort(x)
    if not ties:
        return order
    values = x.take(order)
    return order, np.flatnonzero(values[1:] == values[:-1])


def _looks_tied(x: np.ndarray) -> bool:
    """True when a sample of the scores repeats values: then ``numpy.argsort`` is the faster sort.

    Only the speed depends on this guess, never the result.  2,048 evenly
    spaced rows; more than 1/16 of them repeated means few distinct scores
    (rounded or discrete scores), which introsort handles in fewer passes.
    """
    sample = x[:: max(x.size // _SAMPLE, 1)]
    return 16 * (sample.size - np.unique(sample).size) > sample.size
