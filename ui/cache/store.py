"""A small in-process store of results too large or too unhashable for ``st.cache_data``, bounded by bytes."""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

import numpy as np
import pandas as pd

#: Byte budget of each :class:`ResultStore` unless told otherwise.
RESULT_STORE_BYTES = 256 * 1024**2


def nbytes(obj, _seen: set | None = None, _depth: int = 0) -> int:
    """Approximate memory held by ``obj``: its arrays' ``nbytes``, frames' memory, bytes and text.

    Walks dataclasses, mappings, sequences and plain objects' attributes (each
    object counted once, to a depth of 8); anything else counts its
    ``sys.getsizeof``.  Good enough to keep a store within a budget: the
    large parts of rocci's results are NumPy arrays and pandas frames.
    """
    import sys

    seen = set() if _seen is None else _seen
    if id(obj) in seen or _depth > 8:
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return int(obj.nbytes)
    if isinstance(obj, (pd.DataFrame, pd.Series)):
        usage = obj.memory_usage(index=True, deep=False)
        return int(usage.sum() if isinstance(usage, pd.Series) else usage)
    if isinstance(obj, pd.Index):
        return int(obj.memory_usage(deep=False))
    if isinstance(obj, (bytes, bytearray, memoryview, str)):
        return sys.getsizeof(obj)
    size = sys.getsizeof(obj, 64)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return size + sum(nbytes(getattr(obj, f.name, None), seen, _depth + 1) for f in dataclasses.fields(obj))
    if isinstance(obj, dict):
        return size + sum(nbytes(k, seen, _depth + 1) + nbytes(v, seen, _depth + 1) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return size + sum(nbytes(v, seen, _depth + 1) for v in obj)
    attrs = getattr(obj, "__dict__", None)
    if not isinstance(obj, type):  # attributes, in __dict__ and in __slots__ (e.g. ScoreCounts' table)
        values = list(attrs.values()) if isinstance(attrs, dict) else []
        slots = {name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())
                 if isinstance(name, str) and name not in ("__dict__", "__weakref__")}
        values += [getattr(obj, name, None) for name in slots]
        return size + sum(nbytes(v, seen, _depth + 1) for v in values)
    return size


class ResultStore:
    """A small, thread-safe LRU store of results bounded by count and by bytes, for work that drives a progress bar.

    A long computation reports its progress through a callback that updates a
    progress bar created by the page; ``st.cache_data`` cannot replay calls on
    elements created outside the cached function, so such results are kept
    here instead.  Keys are built like the cached functions' arguments (the
    data digest text, the model names and the options), so a changed cell of
    the data never returns a stale result.

    The store holds at most ``max_entries`` results whose sizes (:func:`nbytes`)
    add up to at most ``max_bytes``; the least recently used go first.  The
    result just put is always kept, even alone over the budget, so that a page
    can read back what it has just computed; it goes at the next ``put``.
    """

    def __init__(self, max_entries: int = 64, max_bytes: int = RESULT_STORE_BYTES):
        if max_entries < 1 or max_bytes < 1:
            raise ValueError("a ResultStore needs max_entries >= 1 and max_bytes >= 1")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._store: OrderedDict = OrderedDict()
        self._sizes: dict = {}
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        """Bytes held now (as estimated when each result was put)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._store)

    def get(self, key):
        with self._lock:
            if key in self._store:
                self._store.move_to_end(key)
                return self._store[key]
        return None

    def put(self, key, value) -> None:
        size = nbytes(value)  # outside the lock: may walk a large result
        with self._lock:
            if key in self._store:
                self._bytes -= self._sizes.pop(key)
            self._store[key] = value
            self._store.move_to_end(key)
            self._sizes[key] = size
            self._bytes += size
            while len(self._store) > 1 and (len(self._store) > self.max_entries or self._bytes > self.max_bytes):
                old, _ = self._store.popitem(last=False)
                self._bytes -= self._sizes.pop(old)

    def clear(self) -> None:
        with self._lock:
            self._store.clear()
            self._sizes.clear()
            self._bytes = 0
