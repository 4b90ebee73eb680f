"""The stratified metric laws at 10^8-10^10 instances (issues 14 and 16): CDF inversion on the monotone
lattice of ``(TP*, FP*)`` for every metric (MCC included), moments in closed form or by convolutions
(FFT for large windows).

* MCC's monotonicity, derived in :meth:`rocci.precision._cells.StratifiedLaw._staircase`, against exact
  fractions on every small lattice;
* the metric inverses (first ``FP*`` where the metric is ``<= c``) against a scan of the values;
* the routes forced on tiny data with ties against the enumeration of every bootstrap sample;
* at 10^5-10^6 instances against the routes they replace (table of cells reduced by ``Law``, MCC's chunked
  passes, direct convolutions): the same quantiles bit for bit, means and sds to 1e-13;
* at 10^8-10^10 instances: each bound is an atom of the exact law where the CDF crosses its level
  (checked with binary searches, not the inverses), within ~13 sd of the mean.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import rocci
from precision import oracle
from reference.datasets import TINY, as_labels
from rocci._core.exact import QUANTILE_TOL
from rocci.precision import METRICS, metric_ci
from rocci.precision import _cells, _laws
from rocci.precision._cells import StratifiedLaw, _fp_inverse, stratified_cells
from rocci.precision._laws import Law, StaircaseLattice, chunked_quantiles
from rocci.precision._metrics import merge_rtol, stratified_value

EXPLORER = ("accuracy", "precision", "recall", "specificity", "npv", "f1", "mcc")


def _mcc_key(a, b, P, N):
    """sign(MCC)·MCC² as an exact fraction (ordered as MCC); None where undefined."""
    M, s = P + N, a + b
    if s == 0 or s == M:
        return None
    num = N * a - P * b  # TP·TN − FP·FN = a(N − b) − b(P − a)
    return ((num > 0) - (num < 0)) * Fraction(num * num, P * N * s * (M - s))


def test_mcc_is_monotone_in_each_count_exactly():
    """Non-increasing in FP* at fixed TP*, non-decreasing in TP* at fixed FP*, on every lattice m± <= 13
    (the derivative's sign ``−E``, ``E = s·FN* + a·(M − s) >= 0``), and the identity for ``E`` itself."""
    for P in range(1, 14):
        for N in range(1, 14):
            M = P + N
            for a in range(P + 1):
                for b in range(N + 1):
                    s = a + b
                    assert P * s + M * a - 2 * a * s == s * (P - a) + a * (M - s) >= 0
                    k = _mcc_key(a, b, P, N)
                    if k is None:
                        continue
                    right = _mcc_key(a, b + 1, P, N) if b < N else None
                    up = _mcc_key(a + 1, b, P, N) if a < P else None
                    assert right is None or right <= k
                    assert up is None or up >= k


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("P, N", [(7, 5), (40, 300), (10**6, 3 * 10**6), (3 * 10**9, 7 * 10**9)])
def test_inverse_gives_the_first_column_at_or_below_the_level(metric, P, N):
    """``first_le`` with the metric's inverse = with binary searches = a scan of the row (the values as the
    table holds them), at levels on atoms, between atoms and outside the range."""
    rng = np.random.default_rng(P + N)
    beta2 = 1.7**2
    width = min(N + 1, 400)
    f0 = int(rng.integers(0, N + 2 - width))
    f = np.arange(f0, f0 + width)
    t = np.unique(np.r_[rng.integers(0, P + 1, 60), 0, P, min(P, 1)])
    values = np.broadcast_to(stratified_value(metric, t[:, None], f[None, :], P, N, beta2), (t.size, width))
    lo = np.zeros(t.size, np.int64)
    hi = np.full(t.size, width - 1, np.int64)
    for i in range(t.size):  # undefined corners out of the rows, as StratifiedLaw does
        while hi[i] >= lo[i] and np.isnan(values[i, hi[i]]):
            hi[i] -= 1
        while lo[i] <= hi[i] and np.isnan(values[i, lo[i]]):
            lo[i] += 1
    tf, ff = t.astype(float), f.astype(float)

    def value(rows, j):
        return stratified_value(metric, tf[rows], ff[j], P, N, beta2)

    pr, pc = np.full(t.size, 1.0 / t.size), np.full(width, 1.0 / width)
    fast = StaircaseLattice(value, lambda c: _fp_inverse(metric, t, c, P, N, beta2) - f0, pr, pc, lo, hi, 1.0)
    slow = StaircaseLattice(value, None, pr, pc, lo, hi, 1.0)
    finite = values[np.isfinite(values)]
    levels = np.r_[rng.choice(finite, 40), finite.min() - 1, finite.max() + 1, -1.0, 0.0, 1.0]
    levels = np.r_[levels, np.nextafter(levels[:20], np.inf), np.nextafter(levels[:20], -np.inf)]
    levels = np.r_[levels, rng.uniform(finite.min(), finite.max(), 20)]
    for c in levels:
        want = np.array([lo[i] + int(np.sum(~(values[i, lo[i]:hi[i] + 1] <= c))) if hi[i] >= lo[i] else lo[i]
                         for i in range(t.size)])
        # (each row's cells <= c are a suffix of it: the scan counts the cells before it)
        for i in range(t.size):
            row = values[i, lo[i]:hi[i] + 1]
            assert np.all(np.diff(row) <= 0), "values not monotone along a row"
        for lat in (fast, slow):
            got = lat.first_le(float(c), lo.copy(), hi + 1)
            np.testing.assert_array_equal(got[hi >= lo], want[hi >= lo])


@pytest.fixture
def forced(monkeypatch):
    """Every new route at tiny sizes: the quantile search down to one cell, FFT convolutions for the moments."""
    monkeypatch.setattr(_laws, "ENUM_CELLS", 1)
    monkeypatch.setattr(_cells, "DIRECT_CELLS", 0)
    monkeypatch.setattr(_cells, "FFT_CELLS", 0)
    _cells._window.cache_clear()


@pytest.mark.parametrize("name, m", [("brief", None), ("ties", None), ("ties", (4, 3))])
@pytest.mark.parametrize("metric", METRICS)
def test_forced_routes_equal_the_enumeration(forced, metric, name, m):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    alpha = 0.1
    res = metric_ci(y, s, metric=metric, confidence_level=1 - alpha, m=m, beta=2.0)
    mp, mn = m if m else (None, None)
    for i, t in enumerate(res.thresholds):
        law, undefined = oracle.stratified_law(metric, pos, neg, t, mp, mn, beta2=Fraction(4))
        if not law:
            assert np.isnan(res.mean[i])
            continue
        mean, sd = oracle.moments(law)
        assert abs(res.mean[i] - mean) < 1e-12 and abs(res.std[i] - sd) < 1e-12
        assert abs(res.low[i] - oracle.quantile(law, alpha / 2)) < 1e-12
        assert abs(res.high[i] - oracle.quantile(law, 1 - alpha / 2)) < 1e-12
        assert abs(res.p_undefined[i] - float(undefined)) < 1e-12


@pytest.mark.montecarlo
def test_forced_routes_against_monte_carlo(forced):
    """n = 300 with ties, MCC and F1 with the search forced to one cell: the exact bounds split a seeded
    Monte Carlo bootstrap at their levels within Monte Carlo error."""
    rng = np.random.default_rng(31)
    n = 300
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(0, 1, n) + y, 1)
    pos, neg = s[y == 1], s[y == 0]
    b = 20_000
    z = 4.5
    for t in np.quantile(s, [0.3, 0.8]):
        tp = (pos[rng.integers(0, pos.size, (b, pos.size))] >= t).sum(1)
        fp = (neg[rng.integers(0, neg.size, (b, neg.size))] >= t).sum(1)
        for metric in ("mcc", "f1"):
            res = metric_ci(y, s, metric=metric, thresholds=[t])
            sample = stratified_value(metric, tp, fp, pos.size, neg.size)
            assert abs(sample.mean() - res.mean[0]) < z * res.std[0] / np.sqrt(b)
            for q, bound in ((0.025, res.low[0]), (0.975, res.high[0])):
                se = z * np.sqrt(q * (1 - q) / b)
                assert np.mean(sample < bound) < q + se and np.mean(sample <= bound) > q - se


def _table(n, share, k=4000, seed=0):
    """Binormal counts on ``k`` distinct scores standing for ``n`` instances (numpy multinomial)."""
    from scipy.stats import norm

    rng = np.random.default_rng(seed)
    grid = np.linspace(-5, 6.5, k)
    edges = np.r_[-np.inf, (grid[1:] + grid[:-1]) / 2, np.inf]
    pp, pn = np.diff(norm.cdf(edges, 1.5)), np.diff(norm.cdf(edges, 0))
    n_pos = int(round(n * share))
    return rocci.ScoreCounts.from_counts(grid, rng.multinomial(n_pos, pp / pp.sum()),
                                         rng.multinomial(n - n_pos, pn / pn.sum()))


def _at_shares(counts, shares):
    """Thresholds where about each share of the instances is predicted positive."""
    v, p, q = counts.table()[:3]
    above = (p + q)[::-1].cumsum()[::-1]
    return [float(v[min(np.searchsorted(-above, -above[0] * x), v.size - 1)]) for x in shares]


@pytest.mark.slow
@pytest.mark.parametrize("n, share, places", [(200_000, 0.01, (0.5, 0.01, 0.95)), (100_000, 0.3, (0.5, 0.003))])
def test_against_the_table_of_cells(n, share, places):
    """At 10^5 instances every metric's bounds equal the table of every cell reduced by Law (bit for bit),
    the moments its sums to 1e-13."""
    counts = _table(n, share)
    for t in _at_shares(counts, places):
        tp, fp = int(counts.n_pos_ge(t)), int(counts.n_neg_ge(t))
        for metric in METRICS:
            beta2 = 1.3**2 if metric == "fbeta" else 1.0
            res = metric_ci(counts, metric=metric, thresholds=[t], beta=np.sqrt(beta2), confidence_level=0.9)
            law = Law(*stratified_cells(metric, tp, fp, counts.n_pos, counts.n_neg, counts.n_pos, counts.n_neg,
                                        beta2), merge_rtol=merge_rtol(metric, beta2))
            assert res.low[0] == law.quantile(0.05) and res.high[0] == law.quantile(0.95), (metric, t)
            scale = max(1.0, abs(law.mean))
            assert abs(res.mean[0] - law.mean) < 1e-13 * scale, metric
            assert abs(res.std[0] - law.std) < 1e-13 * scale, metric


def test_mcc_and_moments_at_a_million_against_the_routes_they_replace(monkeypatch):
    """10^6 instances, half positive, mid-ranking (2.8·10^7 cells): MCC's bounds as the two chunked passes
    gave them, every metric's moments as the direct convolutions gave them."""
    counts = _table(1_000_000, 0.5, seed=3)
    t = _at_shares(counts, [0.5])[0]
    tp, fp = int(counts.n_pos_ge(t)), int(counts.n_neg_ge(t))
    P, N = counts.n_pos, counts.n_neg
    law = StratifiedLaw("mcc", tp, fp, P, N, P, N, 1.0, merge_rtol("mcc", 1.0))
    qs = [0.025, 0.975, 0.5]
    assert law.quantiles(qs) == chunked_quantiles(law._chunks, qs, law.defined, law.rtol)
    for metric in METRICS:
        fft = StratifiedLaw(metric, tp, fp, P, N, P, N, 1.7**2, merge_rtol(metric, 1.7**2))
        monkeypatch.setattr(_cells, "FFT_CELLS", 1 << 62)
        direct = StratifiedLaw(metric, tp, fp, P, N, P, N, 1.7**2, merge_rtol(metric, 1.7**2))
        monkeypatch.undo()
        assert abs(fft.mean - direct.mean) < 1e-13 * max(1.0, abs(direct.mean)), metric
        assert abs(fft.std - direct.std) < 1e-13 * max(1.0, abs(direct.mean)), metric


def _cdf(law: StratifiedLaw, c: float) -> float:
    """P(metric* <= c) given defined, by binary searches along the rows (no inverse)."""
    lat = law._lattice
    slow = StaircaseLattice(lat.value, None, lat.pr, lat.pc, lat.lo, lat.hi, lat.defined)
    j = slow.first_le(c, np.where(lat.hi >= lat.lo, lat.lo, lat.hi + 1), lat.hi + 1)
    return slow.mass(j) / law.defined


@pytest.mark.parametrize("n, share", [(10**8, 0.01), (10**8, 0.5), pytest.param(10**9, 0.5, marks=pytest.mark.slow),
                                      pytest.param(10**10, 0.01, marks=pytest.mark.slow)])
def test_huge_tables_bounds_are_atoms_where_the_cdf_crosses(n, share):
    counts = _table(n, share, k=10_000, seed=1)
    for t in _at_shares(counts, [0.5, 0.001]):
        tp, fp = int(counts.n_pos_ge(t)), int(counts.n_neg_ge(t))
        P, N = counts.n_pos, counts.n_neg
        for metric in EXPLORER:
            res = metric_ci(counts, metric=metric, thresholds=[t])
            assert res.truncated_mass[0] <= 1e-15
            law = StratifiedLaw(metric, tp, fp, P, N, P, N, 1.0, merge_rtol(metric, 1.0))
            for q, bound in ((0.025, res.low[0]), (0.975, res.high[0])):
                below = np.nextafter(bound, -np.inf)
                # an atom (the CDF jumps at it), the first where the CDF reaches the level; MCC's values within
                # 1e-13 of each other are one value (MERGE_RTOL), whose mass may lie just above the first of them
                # (at 10^10 its atoms are ~5e-14 apart)
                above = bound + 1e-11 * abs(bound) if law.rtol else bound
                assert _cdf(law, above) >= q - QUANTILE_TOL > _cdf(law, below), (metric, q)
                if not law.rtol:
                    assert _cdf(law, bound) > _cdf(law, below)
                assert abs(bound - res.mean[0]) < 13 * res.std[0]
            assert res.low[0] <= res.mean[0] <= res.high[0]
