"""dominance_map and mcnemar on a table of distinct score pairs (rocci.PairedCounts), never expanded (issue 16).

* On the tiny tied data of vector 4.1, the dominance map from the table equals the enumeration of every
  paired bootstrap sample (to 1e-12) and the map from the rows (exactly).
* On heavily tied data with string labels and a shuffled table, every field of both results equals the
  raw-rows call, bit for bit, at m = n and m != n, thresholds falling on scores (ties at the threshold).
* A table whose expansion raises still works; a table standing for 10⁹ instances gives its map in
  seconds, agreeing pair by pair with compare_thresholds (another code path over the same table); at
  4·10¹⁰ instances the cells are the small table's cells scaled, exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import rocci
from rocci import InputError, PairedCounts
from rocci.compare import compare_thresholds, dominance_map, mcnemar
from rocci.compare._grid import grid_cells
from reference import brute_paired

VECTORS_PATH = Path(__file__).resolve().parents[3] / "shared" / "vectors" / "vectors.json"
TINY = next(v for v in json.loads(VECTORS_PATH.read_text())["vectors"] if v["id"] == "4.1")["inputs"]
POS_A, POS_B = np.array(TINY["pos1"]), np.array(TINY["pos2"])
NEG_A, NEG_B = np.array(TINY["neg1"]), np.array(TINY["neg2"])


@dataclass(frozen=True, repr=False)
class NoRows(PairedCounts):
    """A pair table that refuses to become rows: what the dashboard's large source does above its limit."""

    def arrays(self):
        raise AssertionError("the pair table was expanded to one row per instance")


def _table(y, a, b, *, shuffle=True):
    """(score_a, score_b) -> n_pos, n_neg, as a database's GROUP BY returns it (rows in any order)."""
    frame = pd.DataFrame({"score_a": a, "score_b": b, "positive": np.asarray(y, bool)})
    g = frame.groupby(["score_a", "score_b"])["positive"].agg(["sum", "size"]).reset_index()
    if shuffle:
        g = g.sample(frac=1.0, random_state=3).reset_index(drop=True)
    return NoRows(g["score_a"].to_numpy(float), g["score_b"].to_numpy(float), g["sum"].to_numpy(np.int64),
                  (g["size"] - g["sum"]).to_numpy(np.int64), ("a", "b"))


def _tied(n=400, seed=8):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, "fraud", "ok")
    pos = y == "fraud"
    a = np.round(rng.normal(size=n) + 1.1 * pos, 1)  # about 50 distinct scores: heavy ties
    b = np.round(0.5 * a + rng.normal(size=n) + 0.6 * pos, 1)
    return y, a, b


def _same(x, y):
    for name in vars(x):
        vx, vy = getattr(x, name), getattr(y, name)
        if isinstance(vx, np.ndarray):
            np.testing.assert_array_equal(vx, vy, err_msg=name)
        else:
            assert vx == vy, name


def test_dominance_map_from_the_table_equals_the_enumeration_and_the_rows():
    y = np.r_[np.ones(POS_A.size, int), np.zeros(NEG_A.size, int)]
    a, b = np.r_[POS_A, NEG_A], np.r_[POS_B, NEG_B]
    ta, tb = np.r_[np.inf, np.unique(a)[::-1]], np.r_[np.inf, np.unique(b)[::-1]]
    pairs = [(s, t) for s in ta for t in tb]
    exact = brute_paired.enumerate_paired_bootstrap(POS_A, POS_B, NEG_A, NEG_B, pairs, 5, 6)
    table = _table(y, a, b)
    assert np.unique(a).size < a.size and np.unique(b).size < b.size  # tied scores in each model
    dm = dominance_map(table, thresholds_a=ta, thresholds_b=tb)
    np.testing.assert_allclose(dm.p_a_dominates.ravel(), [float(f) for f in exact.f1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(dm.p_b_dominates.ravel(), [float(f) for f in exact.f2], rtol=0, atol=1e-12)
    _same(dm, dominance_map(y, a, b, thresholds_a=ta, thresholds_b=tb))


@pytest.mark.parametrize("m", [None, (90, 300)], ids=["m=n", "m!=n"])
def test_dominance_map_from_the_table_is_the_raw_result_bit_for_bit(m):
    y, a, b = _tied()
    table = _table(y == "fraud", a, b)
    # thresholds on the scores (ties at the threshold), between them, and beyond both ends
    ta = np.r_[np.inf, np.quantile(a, np.linspace(0, 1, 23), method="inverted_cdf"), 0.05, -99.0]
    tb = np.r_[np.quantile(b, np.linspace(0, 1, 17), method="inverted_cdf"), 0.05, 99.0]
    from_rows = dominance_map(y, a, b, thresholds_a=ta, thresholds_b=tb, pos_label="fraud", m=m)
    from_table = dominance_map(table, thresholds_a=ta, thresholds_b=tb, m=m)
    _same(from_rows, from_table)
    assert ((from_table.p_a_dominates > 1e-3) & (from_table.p_a_dominates < 1 - 1e-3)).any()
    assert ((from_table.p_b_dominates > 1e-3) & (from_table.p_b_dominates < 1 - 1e-3)).any()


def test_grid_cells_weighted_equal_the_rows():
    y, a, b = _tied(seed=2)
    table = _table(y == "fraud", a, b)
    ta, tb = np.unique(a)[::3], np.unique(b)[::2]
    for cls, w in ((True, table.n_pos), (False, table.n_neg)):
        rows = (y == "fraud") == cls
        na, nb = grid_cells(a[rows], b[rows], ta, tb)
        wa, wb = grid_cells(table.score_a, table.score_b, ta, tb, w)
        np.testing.assert_array_equal(na, wa)
        np.testing.assert_array_equal(nb, wb)
        assert wa.dtype == np.int64
        # by definition, one cell: a >= ta[i] and b < tb[j]
        i, j = 3, 4
        assert wa[i, j] == int(np.sum((a[rows] >= ta[i]) & (b[rows] < tb[j])))


def _binormal_table(n, cells=300, seed=0, share=0.1, rho=0.6):
    """A pair table standing for ``n`` instances without making them: multinomial counts of two correlated
    binormal models' scores, binned on a ``cells`` × ``cells`` grid of probability-scale scores."""
    rng = np.random.default_rng(seed)
    g = (np.arange(cells) + 0.5) / cells
    z = stats.norm.ppf(g)
    za, zb = np.meshgrid(z, z, indexing="ij")

    def cell_probabilities(mu_a, mu_b):
        q = (za - mu_a) ** 2 - 2 * rho * (za - mu_a) * (zb - mu_b) + (zb - mu_b) ** 2
        d = np.exp(-q / (2 * (1 - rho**2)) + (za**2 + zb**2) / 2)  # density over the probability scale
        return (d / d.sum()).ravel()

    n_pos = int(n * share)
    p = rng.multinomial(n_pos, cell_probabilities(1.0, 1.2))
    q = rng.multinomial(n - n_pos, cell_probabilities(0.0, 0.0))
    keep = p + q > 0
    return NoRows(np.repeat(g, cells)[keep], np.tile(g, cells)[keep], p[keep].astype(np.int64),
                  q[keep].astype(np.int64), ("a", "b"))


@pytest.mark.slow
def test_dominance_map_at_a_billion_instances_from_the_table():
    table = _binormal_table(10**9)
    assert int(table.n_pos.sum() + table.n_neg.sum()) == 10**9 and table.score_a.size < 10**5
    ta = np.quantile(table.score_a, np.linspace(0.05, 0.95, 10))
    tb = np.quantile(table.score_b, np.linspace(0.05, 0.95, 9))
    dm = dominance_map(table, thresholds_a=ta, thresholds_b=tb)  # NoRows: no instance is ever made
    assert dm.n_pos == 10**8 and dm.m_neg == 9 * 10**8
    assert np.all((dm.p_a_dominates >= 0) & (dm.p_b_dominates >= 0) & (dm.p_a_dominates + dm.p_b_dominates <= 1))
    # model b is the better one: it dominates for sure somewhere, model a nowhere; elsewhere neither does
    assert (dm.p_b_dominates > 1 - 1e-9).any() and dm.p_a_dominates.max() < 1e-9
    assert ((dm.p_a_dominates < 1e-9) & (dm.p_b_dominates < 1e-9)).any()
    # pair by pair the same as compare_thresholds on the same table (its own cell counting)
    ga, gb = np.meshgrid(ta[::3], tb[::4], indexing="ij")
    sub = dominance_map(table, thresholds_a=ta[::3], thresholds_b=tb[::4])
    ct = compare_thresholds(table, thresholds_a=ga.ravel(), thresholds_b=gb.ravel())
    np.testing.assert_allclose(sub.p_a_dominates.ravel(), ct.p_a_dominates, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(sub.delta_tpr.ravel(), ct.delta_tpr)
    np.testing.assert_array_equal(sub.delta_fpr.ravel(), ct.delta_fpr)


def test_grid_cells_of_a_table_standing_for_ten_billion():
    """Cells of the small table × 10⁸ (4·10¹⁰ instances) are the small table's cells × 10⁸, exactly; and the
    sign probabilities' pair keys do not overflow (n_a·(n + 1) > 2⁶³ here)."""
    y, a, b = _tied()
    small = _table(y == "fraud", a, b)
    scale = 10**8
    ta, tb = np.unique(a)[::4], np.unique(b)[::4]
    for w in ("n_pos", "n_neg"):
        na, nb = grid_cells(small.score_a, small.score_b, ta, tb, getattr(small, w))
        big_a, big_b = grid_cells(small.score_a, small.score_b, ta, tb, getattr(small, w) * scale)
        np.testing.assert_array_equal(big_a, na * scale)
        np.testing.assert_array_equal(big_b, nb * scale)
    big = NoRows(small.score_a, small.score_b, small.n_pos * scale, small.n_neg * scale, ("a", "b"))
    # two thresholds, far apart: every probability is decided by the Chernoff bound (fast) and is 0 or 1
    dm = dominance_map(big, thresholds_a=[ta[2], ta[-3]], thresholds_b=[tb[2], tb[-3]])
    ref = dominance_map(small, thresholds_a=[ta[2], ta[-3]], thresholds_b=[tb[2], tb[-3]])
    np.testing.assert_array_equal(dm.delta_tpr, ref.delta_tpr)
    assert np.isfinite(dm.p_a_dominates).all() and set(np.unique(dm.p_a_dominates + dm.p_b_dominates)) <= {0.0, 1.0}


@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_from_the_table_is_the_raw_result(correction):
    y, a, b = _tied(seed=5)
    table = _table(y == "fraud", a, b)
    for ta, tb in ((0.5, None), (0.5, 0.2), (float(np.median(a)), float(np.median(b)))):  # medians are scores
        from_rows = mcnemar(y, a, b, thresholds_a=ta, thresholds_b=tb, pos_label="fraud", correction=correction)
        from_table = mcnemar(table, thresholds_a=ta, thresholds_b=tb, correction=correction)
        _same(from_rows, from_table)
    assert from_table.n_a_only_correct != from_table.n_b_only_correct


def test_mcnemar_from_a_table_standing_for_billions():
    """8 both right, 15 only a right, 5 only b right, 2 both wrong (the by-hand table), each × 10⁸."""
    scale = 10**8
    # one row per cell of the right/wrong table at threshold 0.5, positives and negatives
    # rows in pairs (a positive row, a negative row): both right, a only right, b only right, both wrong
    a = np.array([0.8, 0.2, 0.8, 0.2, 0.2, 0.8, 0.2, 0.8])
    b = np.array([0.7, 0.3, 0.3, 0.7, 0.7, 0.3, 0.3, 0.7])
    n_pos = np.array([4, 0, 8, 0, 3, 0, 1, 0]) * scale
    n_neg = np.array([0, 4, 0, 7, 0, 2, 0, 1]) * scale
    res = mcnemar(NoRows(a, b, n_pos, n_neg), thresholds_a=0.5)
    assert (res.n_both_correct, res.n_a_only_correct, res.n_b_only_correct, res.n_both_wrong) == (
        8 * scale, 15 * scale, 5 * scale, 2 * scale)
    k, diff = 20 * scale, 10 * scale
    assert res.statistic_uncorrected == pytest.approx(diff**2 / k, rel=1e-15)
    assert res.statistic == pytest.approx((diff - 1) ** 2 / k, rel=1e-15)
    assert res.pvalue == 0.0 and res.exact_pvalue == 0.0  # 10⁹ discordant instances: no doubt left
    assert res.accuracy_a == pytest.approx(23 / 30, rel=1e-15)
    with pytest.raises(InputError, match="discordant"):
        mcnemar(NoRows(a, a, n_pos, n_neg), thresholds_a=0.5)
    assert stats.chi2.sf(res.statistic, 1) == res.pvalue


def test_the_table_is_not_expanded():
    y, a, b = _tied(seed=1)
    table = _table(y == "fraud", a, b)
    with pytest.raises(AssertionError, match="expanded"):
        table.arrays()
    dominance_map(table, thresholds_a=[0.5], thresholds_b=[0.5])
    mcnemar(table, thresholds_a=0.5)
    with pytest.raises(InputError):
        mcnemar(table, a, b, thresholds_a=0.5)  # a table and scores: a clear error
    assert rocci.dominance_map is dominance_map and rocci.mcnemar is mcnemar
