"""Memory bounds of the dashboard's caches (issue 18, item 3).

The byte-bounded :class:`ui.cache.ResultStore`, its size estimate
:func:`ui.cache.nbytes`, and the rule that every cache whose entries grow
with the data is per session (dropped when the session disconnects) with a
few entries, while shared caches expire.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from ui import cache
from ui.cache import compare as cache_compare, cost as cache_cost, coverage as cache_coverage, explore as cache_explore, folds as cache_folds, learn as cache_learn

MB = 1024**2


def _array(mb: float) -> np.ndarray:
    return np.zeros(int(mb * MB) // 8)


def test_nbytes_counts_arrays_frames_and_containers():
    a = _array(1)
    assert cache.nbytes(a) == MB
    df = pd.DataFrame({"x": np.zeros(1000), "y": np.ones(1000)})
    assert 16_000 <= cache.nbytes(df) <= 17_000

    @dataclass(frozen=True)
    class Result:
        fpr: np.ndarray
        tpr: np.ndarray
        note: str

    r = Result(fpr=_array(1), tpr=_array(2), note="x")
    assert 3 * MB <= cache.nbytes(r) < 3 * MB + 4096
    # containers and plain objects, each object counted once
    assert 2 * MB <= cache.nbytes({"a": a, "b": [a, a], "c": (_array(1),)}) < 2 * MB + 4096

    class Plain:
        def __init__(self):
            self.big = _array(1)

    assert MB <= cache.nbytes(Plain()) < MB + 4096
    assert cache.nbytes(b"x" * MB) >= MB


def test_store_keeps_within_its_byte_budget_least_recently_used_first():
    store = cache.ResultStore(max_entries=100, max_bytes=int(3.5 * MB))
    for k in "abc":
        store.put(k, _array(1))
    assert len(store) == 3 and 3 * MB <= store.nbytes <= 3.5 * MB
    assert store.get("a") is not None  # "a" is now the most recent
    store.put("d", _array(1))  # 4 MB > 3.5 MB: "b" goes
    assert store.get("b") is None
    assert all(store.get(k) is not None for k in "acd")
    assert store.nbytes <= store.max_bytes
    store.put("e", _array(2))  # "c" and "a" go
    assert [k for k in "acde" if store.get(k) is not None] == ["d", "e"]
    assert store.nbytes <= store.max_bytes


def test_store_keeps_the_newest_result_even_over_budget():
    """A page reads back what it has just computed: the newest result stays, alone."""
    store = cache.ResultStore(max_entries=10, max_bytes=MB)
    store.put("small", _array(0.1))
    store.put("huge", _array(4))
    assert store.get("huge") is not None and store.get("small") is None
    assert len(store) == 1
    store.put("next", _array(0.1))  # the huge one goes at the next put
    assert store.get("huge") is None and store.get("next") is not None
    assert store.nbytes < MB


def test_store_replacing_a_key_and_clear_keep_the_count_right():
    store = cache.ResultStore(max_entries=10, max_bytes=10 * MB)
    store.put("a", _array(2))
    store.put("a", _array(1))
    assert len(store) == 1 and MB <= store.nbytes < 2 * MB
    store.clear()
    assert len(store) == 0 and store.nbytes == 0 and store.get("a") is None


def test_store_is_still_bounded_by_count():
    store = cache.ResultStore(max_entries=2)
    for k in "abc":
        store.put(k, k)
    assert store.get("a") is None and store.get("b") == "b" and store.get("c") == "c"


def test_store_refuses_empty_bounds():
    with pytest.raises(ValueError):
        cache.ResultStore(max_entries=0)
    with pytest.raises(ValueError):
        cache.ResultStore(max_bytes=0)


def test_store_is_thread_safe_and_stays_bounded():
    store = cache.ResultStore(max_entries=1000, max_bytes=2 * MB)

    def work(t):
        for i in range(200):
            store.put((t, i), _array(0.05))
            store.get((t, i // 2))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.nbytes <= 2 * MB
    assert store.nbytes == sum(cache.nbytes(v) for v in store._store.values())


def test_the_dashboards_stores_have_a_byte_budget():
    for s in (cache_compare.VERTICAL_LEVELS, cache_coverage.SIMULATIONS, cache_learn.WORLDS):
        assert s.max_bytes <= cache.RESULT_STORE_BYTES


#: Cached functions whose entries grow with the data (one value per row or threshold).
DATA_SIZED = [
    cache._load_table, cache.prepare, cache.summarize, cache.roc_curve, cache.roc_base_figure,
    cache_cost._cost_curve, cache_explore.threshold_table, cache_explore.gain_curve,
    cache_explore.precision_recall_curve, cache_explore.reading_curve, cache_folds.fold_roc_curves,
    cache_folds.multiclass_data, cache_folds.one_vs_rest, cache_folds.top_score_curve,
]


@pytest.mark.parametrize("func", DATA_SIZED, ids=lambda f: f._info.func.__qualname__)
def test_data_sized_caches_are_per_session_and_small(func):
    info = func._info
    assert info.scope == "session"  # dropped when the session disconnects
    assert info.max_entries is not None and info.max_entries <= 12
    if func in (cache._load_table, cache.prepare, cache_folds.multiclass_data):
        assert info.max_entries <= 2  # a copy of the whole table each


def _all_cached_functions():
    mods = (cache, cache_compare, cache_cost, cache_coverage, cache_explore, cache_folds, cache_learn)
    for mod in mods:
        for name, obj in vars(mod).items():
            if hasattr(obj, "_info") and hasattr(obj._info, "max_entries"):
                yield f"{mod.__name__}.{name}", obj


def test_every_cache_is_bounded():
    found = dict(_all_cached_functions())
    assert len(found) >= 30
    for name, func in found.items():
        info = func._info
        assert info.max_entries is not None and info.max_entries <= 64, name
        # shared caches expire; per-session ones go with the session
        assert info.scope == "session" or info.ttl is not None or name.startswith(
            ("ui.cache.coverage.", "ui.cache.learn._example")), name


def test_server_config_bounds_cached_data_and_disconnected_sessions():
    import tomllib
    from pathlib import Path

    from streamlit import byte_util

    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    server = config["server"]
    # every st.cache_data entry of every session together
    budget = byte_util.config_max_cache_data_size_to_bytes(server["maxCacheDataSize"])
    assert budget is not None and budget <= 1024**3
    # a session that has gone keeps its upload this long (Streamlit's default: 120 s)
    assert 30 <= server["disconnectedSessionTTL"] <= 120
