"""rocci._core.sorting.argsort_scores: a permutation sorting the scores, exactly as numpy.argsort promises.

The packed-key sort is only right if its repair of rows that share the key's
high bits is right, so the repair is forced on (small sizes, no tie guess) and
fed values a few units in the last place apart, signed zeros, subnormals and
infinities, besides the everyday shapes (continuous, rounded, binary scores).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocci._core.sorting as sorting
from rocci._core.sorting import argsort_scores


def assert_sorts(x):
    p = argsort_scores(x)
    assert p.dtype == np.intp and p.shape == x.shape
    assert np.array_equal(np.sort(p), np.arange(x.size)), "not a permutation"
    assert np.array_equal(x[p], np.sort(x)), "does not sort"


@pytest.fixture
def forced(monkeypatch):
    """The packed-key path at every size, whatever the tie guess says."""
    monkeypatch.setattr(sorting, "_MIN_ROWS", 2)
    monkeypatch.setattr(sorting, "_looks_tied", lambda x: False)


SPECIAL = [
    [],
    [1.0],
    [0.0, -0.0, 0.0, -0.0, 1.0, -1.0],
    [2.0, 1.0],
    [-np.inf, np.inf, 0.0, -1e-310, 1e-310, 5e-324, -5e-324, 1.7e308, -1.7e308, -0.0],
]


@pytest.mark.parametrize("values", SPECIAL)
def test_special_values(values, forced):
    assert_sorts(np.array(values, dtype=float))


def _near_ulps(rng, n):
    """Values within a few units in the last place of each other (rows sharing high bits, different values)."""
    x = rng.normal(size=n)
    k = max(n // 50, 1)
    x[:k] = np.nextafter(x[k:2 * k], np.inf)
    x[k:2 * k:2] = np.nextafter(x[k:2 * k:2], -np.inf)
    return rng.permutation(x)


SHAPES = {
    "continuous": lambda rng, n: rng.normal(size=n),
    "rounded": lambda rng, n: np.round(rng.normal(size=n), 1),
    "three values": lambda rng, n: rng.integers(0, 3, n).astype(float),
    "one ulp apart": lambda rng, n: rng.permutation(1.0 + (np.arange(n) % 7) * np.finfo(float).eps),
    "near ulps": _near_ulps,
    "negative": lambda rng, n: -np.abs(rng.normal(size=n)),
    "pairs around each value": lambda rng, n: rng.permutation(np.concatenate(
        [x := rng.normal(size=n // 2 + 1), np.nextafter(x, -np.inf), np.nextafter(x, np.inf)])),
}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("n", [2, 3, 9, 1000, 4097, 50_000])
def test_shapes_forced(shape, n, forced):
    assert_sorts(SHAPES[shape](np.random.default_rng(n), n))


@pytest.mark.parametrize("shape", SHAPES)
def test_shapes_default_path(shape):
    assert_sorts(SHAPES[shape](np.random.default_rng(7), 200_000))


def test_a_million_rows_with_a_few_near_collisions():
    rng = np.random.default_rng(3)
    x = rng.normal(size=10**6)
    x[5] = np.nextafter(x[7], np.inf)
    x[9] = x[7]
    x[11] = np.nextafter(x[7], -np.inf)
    assert_sorts(x)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False), st.sampled_from([0.0, -0.0, 1.0, np.nextafter(1.0, 2.0)])),
                min_size=2, max_size=300))
def test_property(values):
    sorting_min, sorting_guess = sorting._MIN_ROWS, sorting._looks_tied
    sorting._MIN_ROWS, sorting._looks_tied = 2, (lambda x: False)
    try:
        assert_sorts(np.array(values, dtype=float))
    finally:
        sorting._MIN_ROWS, sorting._looks_tied = sorting_min, sorting_guess


def test_the_repair_runs_where_values_share_high_bits(forced, monkeypatch):
    """The near-ulp shapes do reach the repair (else the tests above would prove nothing about it)."""
    calls = []
    lexsort = np.lexsort
    monkeypatch.setattr(sorting.np, "lexsort", lambda keys: calls.append(len(keys[0])) or lexsort(keys))
    assert_sorts(SHAPES["near ulps"](np.random.default_rng(1), 50_000))
    assert calls and calls[0] >= 2
    calls.clear()
    assert_sorts(np.random.default_rng(2).normal(size=5000))  # continuous: no repair
    assert not calls


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("n", [3, 1000, 50_000])
@pytest.mark.parametrize("force", [False, True])
def test_tie_positions(shape, n, force, monkeypatch):
    if force:
        monkeypatch.setattr(sorting, "_MIN_ROWS", 2)
        monkeypatch.setattr(sorting, "_looks_tied", lambda x: False)
    x = SHAPES[shape](np.random.default_rng(n + 11), n)
    order, tied = argsort_scores(x, ties=True)
    assert np.array_equal(x[order], np.sort(x))
    s = x[order]
    assert np.array_equal(tied, np.flatnonzero(s[1:] == s[:-1]))
    assert tied.dtype.kind == "i"
