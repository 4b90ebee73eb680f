"""compare_precision at recall levels by blocks of ranks and the Lancaster series (rocci.precision._paired_recall)
against the former route (one joint law per cell triple, kept as paired._recall_law), against a seeded Monte
Carlo paired bootstrap at n = 2,000, and from a PairedCounts table (never expanded) against the raw arrays."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci.compare.vertical import _PairedData
from rocci.precision import compare_precision
from rocci.precision import paired as P

from .test_montecarlo import Z, _check_sample, _data, _paired_sample


def _old_law(y, sa, sb, r, metric, m=None):
    mask = y == 1
    pos_a, pos_b, neg_a, neg_b = sa[mask], sb[mask], sa[~mask], sb[~mask]
    n_pos, n_neg = int(mask.sum()), int((~mask).sum())
    m_pos, m_neg = m or (n_pos, n_neg)
    ctx = _PairedData(neg_a, neg_b, pos_a, pos_b, m_neg, m_pos)
    return P._recall_law(ctx, neg_a, neg_b, r, metric, n_pos, n_neg, m_pos, m_neg)


@pytest.mark.parametrize("n, share, rho, digits, m, recalls", [
    (100, 0.3, 0.7, 1, None, (0.05, 0.3, 0.6, 0.95, 1.0)), (240, 0.25, 0.95, 2, None, (0.05, 0.5, 1.0)),
    (200, 0.4, 0.5, 1, (50, 70), (0.1, 0.7)), (100, 0.5, -0.3, 6, None, (0.04, 0.5, 0.9))])
def test_series_route_equals_the_former_route(n, share, rho, digits, m, recalls):
    y, sa, sb = _data(n, share, 3, digits, rho=rho)
    n_pos = int((y == 1).sum())
    m_pos = m[0] if m else n_pos
    for rec in recalls:
        res = compare_precision(y, sa, sb, recall=[rec], metric="precision", m=m)
        r = int(res.r[0])
        for metric in ("precision", "f1"):
            res = compare_precision(y, sa, sb, recall=[rec], metric=metric, m=m)
            old = _old_law(y, sa, sb, r, metric, m)
            assert abs(res.delta_mean[0] - old.mean) < 1e-13
            assert abs(res.delta_std[0] - old.std) < 1e-13
            assert [res.delta_low[0], res.delta_high[0]] == old.quantiles([0.025, 0.975])
            assert abs(res.p_a_better[0] - old.prob(old.values > 0)) < 1e-13
            assert abs(res.p_tie[0] - old.prob(old.values == 0)) < 1e-13
            values, probs = res.distribution(0)
            # The two routes leave out different cells of less than 1e-17 in all: compare the CDFs.
            # (at points between values, away from the merging tolerance of 1e-14)
            grid = np.union1d(values, old.values)
            gap = np.diff(grid) > 1e-12
            grid = (grid[:-1][gap] + grid[1:][gap]) / 2
            mine = np.r_[0.0, np.cumsum(probs)][np.searchsorted(values, grid, side="right")]
            theirs = np.r_[0.0, np.cumsum(old.probs)][np.searchsorted(old.values, grid, side="right")]
            np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-13)
            assert res.truncated_mass[0] < 1e-14
    assert m_pos >= r


def test_series_handles_identical_and_reversed_models():
    y, sa = _data(150, 0.3, 5, 1)
    same = compare_precision(y, sa, sa.copy(), recall=[0.2, 0.5, 0.9])
    np.testing.assert_array_equal(same.delta_std, 0.0)
    np.testing.assert_array_equal(same.p_tie, 1.0)
    # Reversed rankings: neither the series nor the quadrature applies (the former route's quadrature gave
    # NaN weights, which it dropped); the multinomial formula over pairs of ranks, against a Monte Carlo.
    rev = compare_precision(y, sa, -sa, recall=[0.5])
    assert np.isfinite(rev.delta_std[0]) and rev.truncated_mass[0] < 1e-12
    b = 20_000
    sample = _paired_sample(np.random.default_rng(9), y, sa, -sa, b, r=int(rev.r[0]))
    _check_sample(rev, 0, sample, "delta_precision")


@pytest.mark.parametrize("n, share, digits, seed, b", [(2000, 0.1, 2, 11, 6_000), (2000, 0.3, 6, 12, 6_000)])
@pytest.mark.montecarlo
def test_paired_recall_montecarlo_n2000(n, share, digits, seed, b):
    y, sa, sb = _data(n, share, seed, digits, rho=0.7)
    res = compare_precision(y, sa, sb, recall=[0.5], metric="precision")
    rng = np.random.default_rng(seed + 100)
    sample = _paired_sample(rng, y, sa, sb, b, r=int(res.r[0]))
    _check_sample(res, 0, sample, "delta_precision")
    p = res.p_a_better[0]
    assert abs(np.mean(sample > 0) - p) < Z * np.sqrt(p * (1 - p) / b) + 1e-12


def _table(y, sa, sb):
    frame = pd.DataFrame({"a": sa, "b": sb, "n_pos": (y == 1).astype(int), "n_neg": (y == 0).astype(int)})
    frame = frame.groupby(["a", "b"], as_index=False)[["n_pos", "n_neg"]].sum().sample(frac=1.0, random_state=1)
    return rocci.PairedCounts.from_frame(frame, score_a="a", score_b="b")


@pytest.mark.parametrize("digits", [1, 2])
@pytest.mark.slow
def test_paired_counts_give_the_raw_results(digits):
    y, sa, sb = _data(300, 0.3, 21, digits, rho=0.8)
    table = _table(y, sa, sb)
    assert np.unique(sa).size < y.size and np.unique(sb).size < y.size  # ties within each model
    for kwargs in ({"recall": [0.1, 0.5, 0.93]}, {"recall": [0.5], "metric": "f1", "m": (40, 90)},
                   {"thresholds_a": [1.2, 1.6], "thresholds_b": [1.1, 1.5], "metric": "f1"},
                   {"thresholds_a": [1.4], "metric": "mcc"}):
        raw = compare_precision(y, sa, sb, **kwargs).to_frame()
        counts = compare_precision(table, **kwargs).to_frame()
        pd.testing.assert_frame_equal(raw, counts, check_exact=False, rtol=0, atol=1e-13)


@pytest.mark.slow
def test_large_table_is_not_expanded(monkeypatch):
    """10^9 instances in 2,000 distinct pairs: threshold pairs with a smaller m, and recall levels refuse
    clearly at the default m (the grid of (FP*_a, FP*_b)) and work at a smaller one."""
    rng = np.random.default_rng(4)
    k = 2000
    a = np.round(rng.normal(size=k), 3)
    b = np.round(0.8 * a + 0.6 * rng.normal(size=k), 3)
    n_pos = rng.integers(0, 100_000, k) * (a > 0) + rng.integers(0, 1000, k)
    n_neg = rng.integers(0, 900_000, k)
    table = rocci.PairedCounts(a, b, n_pos.astype(np.int64), n_neg.astype(np.int64))
    assert int(table.n_pos.sum() + table.n_neg.sum()) > 5 * 10**8

    def boom(*args, **kw):
        raise AssertionError("the table was expanded")

    monkeypatch.setattr(rocci.PairedCounts, "arrays", boom)
    with pytest.raises(rocci.InputError, match="compare_fpr_at_recall"):
        compare_precision(table, recall=[0.5])
    # which model has the higher precision at that recall: at the full m, from the table
    fpr = rocci.precision.compare_fpr_at_recall(table, recall=[0.5])
    assert 0 <= fpr.p_a_better[0] <= 1 and fpr.truncated_mass[0] < 1e-12
    assert fpr.delta_fpr_low[0] <= fpr.delta_fpr_mean[0] <= fpr.delta_fpr_high[0]
    res = compare_precision(table, recall=[0.5, 0.9], m=(2000, 20_000))
    assert np.all(np.isfinite(res.delta_std)) and np.all(res.truncated_mass < 1e-12)
    res = compare_precision(table, thresholds_a=[0.5], thresholds_b=[0.4], m=(30, 60))
    assert np.isfinite(res.delta_std[0])
