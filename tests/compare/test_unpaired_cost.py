"""compare_cost_unpaired (issue 32): two models' costs on two independent test sets.

The exact law of ``ΔC* = C*_a − C*_b`` against the enumeration of every pair of bootstrap resamples of the
two test sets (exact fractions; stratified with m = n and m ≠ n, and the full bootstrap of each set), the
interval methods against their formulas, and a seeded Monte Carlo of the unpaired bootstrap.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import special

import rocci
from reference.brute import class_samples, law_mean, law_quantile, law_var
from rocci.cost import unpaired as unpaired_cost

#: two tiny test sets with ties (positive–negative and within a class)
SAMPLE_A = ([0.9, 0.5, 0.3], [0.5, 0.4, 0.4])  # n+ = 3, n− = 3
SAMPLE_B = ([0.6, 0.4], [0.7, 0.4, 0.2, 0.2])  # n+ = 2, n− = 4


def _as_arrays(sample):
    pos, neg = sample
    return np.r_[np.ones(len(pos), int), np.zeros(len(neg), int)], np.r_[pos, neg]


def _stratified_law(sample, t, w: Fraction, m_pos, m_neg) -> dict:
    """Exact law of one set's ``C* = w·FN*/m+ + (1 − w)·FP*/m−`` over every stratified resample."""
    pos, neg = (np.asarray(x) for x in sample)
    cp, wp = class_samples(pos.size, m_pos)
    cn, wn = class_samples(neg.size, m_neg)
    fn = cp @ (pos < t).astype(int)  # positives drawn below the threshold
    fp = cn @ (neg >= t).astype(int)
    law: dict = {}
    for i, j in itertools.product(range(len(wp)), range(len(wn))):
        c = w * Fraction(int(fn[i]), m_pos) + (1 - w) * Fraction(int(fp[j]), m_neg)
        law[c] = law.get(c, 0) + int(wp[i]) * int(wn[j])
    total = pos.size**m_pos * neg.size**m_neg
    return {v: Fraction(k, total) for v, k in law.items()}


def _full_law(sample, t, w: Fraction, m) -> dict:
    """Exact law of one set's full-bootstrap cost ``w·FN*/(m·π+) + (1 − w)·FP*/(m·π−)`` (m pooled draws)."""
    pos, neg = (np.asarray(x) for x in sample)
    n = pos.size + neg.size
    counts, weights = class_samples(n, m)
    fn = counts @ np.r_[pos < t, np.zeros(neg.size, bool)].astype(int)
    fp = counts @ np.r_[np.zeros(pos.size, bool), neg >= t].astype(int)
    scale_pos, scale_neg = Fraction(m * pos.size, n), Fraction(m * neg.size, n)
    law: dict = {}
    for k, wt in enumerate(weights):
        c = w * int(fn[k]) / scale_pos + (1 - w) * int(fp[k]) / scale_neg
        law[c] = law.get(c, 0) + int(wt)
    return {v: Fraction(k, n**m) for v, k in law.items()}


def _difference(law_a: dict, law_b: dict) -> dict:
    out: dict = {}
    for va, pa in law_a.items():
        for vb, pb in law_b.items():
            out[va - vb] = out.get(va - vb, 0) + pa * pb
    return dict(sorted(out.items()))


def _check_against(res, i, law, level):
    values, probs = res.distribution(i)
    np.testing.assert_allclose(values, [float(v) for v in law], atol=1e-13)
    np.testing.assert_allclose(probs, [float(p) for p in law.values()], rtol=1e-12, atol=1e-16)
    assert res.p_a_cheaper[i] == pytest.approx(float(sum(p for v, p in law.items() if v < 0)), abs=1e-15)
    assert res.p_tie[i] == pytest.approx(float(law.get(Fraction(0), 0)), abs=1e-15)
    assert res.delta_cost[i] == pytest.approx(float(law_mean(law)), abs=1e-15)
    assert res.delta_cost_std[i] ** 2 == pytest.approx(float(law_var(law)), abs=1e-15)
    alpha = 1 - level
    assert res.delta_cost_low[i] == pytest.approx(float(law_quantile(law, alpha / 2)), abs=1e-13)
    assert res.delta_cost_high[i] == pytest.approx(float(law_quantile(law, 1 - alpha / 2)), abs=1e-13)


W = [0.5, 0.3, 0.8]
TA, TB = [0.5, 0.4, 0.9], [0.4, 0.6, 0.2]


@pytest.mark.parametrize("m_a, m_b", [(None, None), ((4, 2), (3, 5))])
@pytest.mark.parametrize("level", [0.95, 0.8])
def test_stratified_against_enumeration(m_a, m_b, level):
    (ma_pos, ma_neg), (mb_pos, mb_neg) = m_a or (3, 3), m_b or (2, 4)
    (ya, xa), (yb, xb) = _as_arrays(SAMPLE_A), _as_arrays(SAMPLE_B)
    res = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=W, thresholds_a=TA, thresholds_b=TB, m_a=m_a, m_b=m_b,
                                      confidence_level=level, method="percentile")
    ties = 0.0
    for i, w in enumerate(W):
        law = _difference(_stratified_law(SAMPLE_A, TA[i], Fraction(str(w)), ma_pos, ma_neg),
                          _stratified_law(SAMPLE_B, TB[i], Fraction(str(w)), mb_pos, mb_neg))
        _check_against(res, i, law, level)
        ties = max(ties, res.p_tie[i])
    assert ties > 0.01 and 0 < res.p_a_cheaper.min() and res.p_a_cheaper.max() < 1  # ties and both signs


@pytest.mark.parametrize("m_a, m_b", [(None, None), (5, 7)])
def test_full_bootstrap_against_enumeration(m_a, m_b):
    (ya, xa), (yb, xb) = _as_arrays(SAMPLE_A), _as_arrays(SAMPLE_B)
    res = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=W, thresholds_a=TA, thresholds_b=TB, m_a=m_a, m_b=m_b,
                                      bootstrap="full", method="percentile", confidence_level=0.9)
    assert (res.m_a, res.m_b) == (m_a or 6, m_b or 6)
    for i, w in enumerate(W):
        law = _difference(_full_law(SAMPLE_A, TA[i], Fraction(str(w)), m_a or 6),
                          _full_law(SAMPLE_B, TB[i], Fraction(str(w)), m_b or 6))
        _check_against(res, i, law, 0.9)


def _cells(sample, t):
    pos, neg = (np.asarray(x) for x in sample)
    return int((pos < t).sum()), pos.size, int((neg >= t).sum()), neg.size


def test_wald_and_agresti_caffo_against_their_formulas():
    """Wald: ΔC ± z·sqrt(Var_a + Var_b) with each set's exact variance; Agresti–Caffo: add 1 to each
    confusion cell of each set (p̃ = (fn + 1)/(n+ + 2), …), the adjusted costs' difference
    ± z·sqrt(Ṽ_a + Ṽ_b)."""
    rng = np.random.default_rng(4)
    ya, yb = rng.random(80) < 0.3, rng.random(120) < 0.2
    xa, xb = rng.random(80) + 0.6 * ya, rng.random(120) + 0.5 * yb
    w, ta, tb = np.array([0.2, 0.5, 0.9]), 0.8, 0.7
    z = special.ndtri(0.975)
    wald = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=w, thresholds_a=ta, thresholds_b=tb, method="wald")
    ac = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=w, thresholds_a=ta, thresholds_b=tb)
    assert ac.method == "agresti-coull" and ac.add == 1.0  # the default: Agresti–Caffo's one per cell

    def moments(y, x, t, add):
        fn, n_pos, fp, n_neg = int((x[y] < t).sum()), int(y.sum()), int((x[~y] >= t).sum()), int((~y).sum())
        q_fn, q_fp = (fn + add) / (n_pos + 2 * add), (fp + add) / (n_neg + 2 * add)
        mean = w * q_fn + (1 - w) * q_fp
        var = w**2 * q_fn * (1 - q_fn) / (n_pos + 2 * add) + (1 - w) ** 2 * q_fp * (1 - q_fp) / (n_neg + 2 * add)
        return mean, var

    (ma, va), (mb, vb) = moments(ya, xa, ta, 0), moments(yb, xb, tb, 0)
    np.testing.assert_allclose(wald.delta_cost, ma - mb, atol=1e-15)
    np.testing.assert_allclose(wald.delta_cost_std, np.sqrt(va + vb), rtol=1e-12)
    np.testing.assert_allclose(wald.delta_cost_low, ma - mb - z * np.sqrt(va + vb), atol=1e-14)
    np.testing.assert_allclose(wald.delta_cost_high, ma - mb + z * np.sqrt(va + vb), atol=1e-14)
    (ma, va), (mb, vb) = moments(ya, xa, ta, 1), moments(yb, xb, tb, 1)
    np.testing.assert_allclose(ac.delta_cost_low, ma - mb - z * np.sqrt(va + vb), atol=1e-14)
    np.testing.assert_allclose(ac.delta_cost_high, ma - mb + z * np.sqrt(va + vb), atol=1e-14)
    # every method reports the same exact probabilities
    np.testing.assert_array_equal(wald.p_a_cheaper, ac.p_a_cheaper)
    np.testing.assert_array_equal(wald.p_tie, ac.p_tie)


def test_confidence_interval_equals_a_direct_call():
    rng = np.random.default_rng(8)
    ya, yb = rng.random(60) < 0.4, rng.random(50) < 0.3
    xa, xb = np.round(rng.random(60) + 0.5 * ya, 1), np.round(rng.random(50) + 0.4 * yb, 1)
    base = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=[0.3, 0.6])
    for level, method in ((0.9, "percentile"), (0.8, "wald"), (0.99, "agresti-coull")):
        direct = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=[0.3, 0.6], confidence_level=level, method=method)
        again = base.confidence_interval(level, method)
        np.testing.assert_array_equal(again.delta_cost_low, direct.delta_cost_low)
        np.testing.assert_array_equal(again.delta_cost_high, direct.delta_cost_high)
        assert (again.method, again.confidence_level) == (method, level)


def test_default_thresholds_are_each_sets_lowest_cost_threshold():
    """Without thresholds each model sits at its own envelope minimiser on its own test set (cost_ci's), and
    cost_a, cost_b are cost_ci's costs there."""
    rng = np.random.default_rng(12)
    ya, yb = rng.random(200) < 0.25, rng.random(150) < 0.4
    xa, xb = rng.random(200) + 0.7 * ya, rng.random(150) + 0.3 * yb
    w = [0.1, 0.4, 0.75]
    res = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=w)
    one_a, one_b = rocci.cost_ci(ya, xa, w=w), rocci.cost_ci(yb, xb, w=w)
    np.testing.assert_array_equal(res.threshold_a, one_a.threshold)
    np.testing.assert_array_equal(res.threshold_b, one_b.threshold)
    np.testing.assert_allclose(res.cost_a, one_a.cost, atol=1e-15)
    np.testing.assert_allclose(res.cost_b, one_b.cost, atol=1e-15)
    np.testing.assert_allclose(res.delta_cost_std, np.hypot(one_a.cost_std, one_b.cost_std), rtol=1e-12)
    frame = res.to_frame()
    assert list(frame.columns[:11]) == ["w", "threshold_a", "threshold_b", "cost_a", "cost_b", "delta_cost",
                                        "delta_cost_std", "delta_cost_low", "delta_cost_high", "p_a_cheaper",
                                        "p_tie"]
    # counts pass through: a ScoreCounts per test set gives the same numbers
    counts_a, counts_b = rocci.ScoreCounts.from_arrays(ya, xa), rocci.ScoreCounts.from_arrays(yb, xb)
    again = rocci.compare_cost_unpaired(counts_a, None, counts_b, None, w=w)
    np.testing.assert_array_equal(again.delta_cost_low, res.delta_cost_low)
    np.testing.assert_array_equal(again.p_a_cheaper, res.p_a_cheaper)


def test_bisection_then_listing_equals_the_whole_law(monkeypatch):
    """The quantile search (bisection down to a few atoms, then listing them) gives the bound read off the
    sorted k_a·k_b law, on laws of a few thousand points each with atoms a few ulps apart."""
    rng = np.random.default_rng(3)
    ya, yb = rng.random(230) < 0.3, rng.random(180) < 0.35
    xa, xb = np.round(rng.random(230) + 0.4 * ya, 2), np.round(rng.random(180) + 0.45 * yb, 2)
    res = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=[0.37, 0.5], thresholds_a=0.7, thresholds_b=0.75,
                                      method="percentile", confidence_level=0.9)
    monkeypatch.setattr(unpaired_cost, "_ENUMERATE", 50)  # force a long bisection
    forced = res.confidence_interval(0.9, "percentile")
    for i in range(2):
        values, probs = res.distribution(i)
        cdf = np.cumsum(probs)
        for q, got, again in ((0.05, res.delta_cost_low[i], forced.delta_cost_low[i]),
                              (0.95, res.delta_cost_high[i], forced.delta_cost_high[i])):
            want = values[np.argmax(cdf >= q - 1e-12)]
            assert got == pytest.approx(want, abs=1e-12) and again == pytest.approx(want, abs=1e-12)
        assert res.p_a_cheaper[i] == pytest.approx(probs[values < -1e-12].sum(), abs=1e-12)
        assert res.p_tie[i] == pytest.approx(probs[np.abs(values) <= 1e-12].sum(), abs=1e-12)
        assert values.size > 100_000  # distinct values of the difference


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
def test_chernoff_decided_points_agree_with_the_law(monkeypatch, bootstrap):
    """Where the Chernoff bound settles P(ΔC* < 0) at 0 or 1 (no law built), the exact law gives the same
    value within 1e-15 and no tie; elsewhere both routes are the law's."""
    rng = np.random.default_rng(17)
    ya, yb = rng.random(3000) < 0.3, rng.random(2500) < 0.3
    xa, xb = rng.random(3000) + 0.9 * ya, rng.random(2500) + 0.3 * yb
    w = np.linspace(0.05, 0.95, 7)
    fast = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=w, thresholds_a=0.8, thresholds_b=0.8, bootstrap=bootstrap)
    monkeypatch.setattr(unpaired_cost, "_decided_below_zero", lambda groups: np.full(w.size, np.nan))
    slow = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=w, thresholds_a=0.8, thresholds_b=0.8, bootstrap=bootstrap)
    np.testing.assert_allclose(fast.p_a_cheaper, slow.p_a_cheaper, atol=1e-15)
    np.testing.assert_allclose(fast.p_tie, slow.p_tie, atol=1e-15)
    decided = (fast.p_a_cheaper == 1.0) | (fast.p_a_cheaper == 0.0)
    assert decided.sum() >= 3 and (~decided).sum() >= 1  # both routes are exercised


@pytest.mark.montecarlo
def test_against_monte_carlo():
    """400,000 seeded unpaired bootstrap resamples (each test set resampled on its own, stratified):
    P(ΔC* < 0), P(ΔC* = 0), the mean, the sd and the percentile bounds' CDF levels within 4 standard errors."""
    rng = np.random.default_rng(31)
    # 30 + 40 and 60 + 80 instances: a's lattice lies on b's, so the costs can tie
    ya = rng.permutation(np.r_[np.ones(30, bool), np.zeros(40, bool)])
    yb = rng.permutation(np.r_[np.ones(60, bool), np.zeros(80, bool)])
    xa, xb = np.round(rng.random(70) + 0.5 * ya, 1), np.round(rng.random(140) + 0.5 * yb, 1)
    w, ta, tb = [0.5, 0.6], [0.8, 0.8], [0.7, 0.9]
    res = rocci.compare_cost_unpaired(ya, xa, yb, xb, w=w, thresholds_a=ta, thresholds_b=tb, method="percentile")
    mc = np.random.default_rng(20261128)
    n_boot, chunk = 400_000, 50_000
    deltas = [[] for _ in w]
    for _ in range(n_boot // chunk):
        costs = {}
        for key, y, x, t in (("a", ya, xa, ta), ("b", yb, xb, tb)):
            pos, neg = x[y], x[~y]
            xs = pos[mc.integers(0, pos.size, (chunk, pos.size))]
            ys = neg[mc.integers(0, neg.size, (chunk, neg.size))]
            for i, wi in enumerate(w):
                costs[key, i] = wi * (xs < t[i]).mean(axis=1) + (1 - wi) * (ys >= t[i]).mean(axis=1)
        for i in range(len(w)):
            deltas[i].append(costs["a", i] - costs["b", i])
    for i in range(len(w)):
        d = np.concatenate(deltas[i])
        for got, p in ((res.p_a_cheaper[i], np.mean(d < -1e-12)), (res.p_tie[i], np.mean(np.abs(d) <= 1e-12))):
            assert abs(got - p) < 4 * math.sqrt(max(p * (1 - p), 1e-6) / n_boot)
        assert abs(res.delta_cost[i] - d.mean()) < 4 * d.std() / math.sqrt(n_boot)
        assert abs(res.delta_cost_std[i] - d.std()) < 0.01 * d.std()
        se = 4 * math.sqrt(0.025 * 0.975 / n_boot)
        low, high = res.delta_cost_low[i], res.delta_cost_high[i]
        assert np.mean(d < low - 1e-12) < 0.025 + se and np.mean(d <= low + 1e-12) > 0.025 - se
        assert np.mean(d < high - 1e-12) < 0.975 + se and np.mean(d <= high + 1e-12) > 0.975 - se
        assert 0.05 < res.p_a_cheaper[i] < 0.95 and res.p_tie[i] > 0.001  # a case where the checks can fail


def test_bad_input():
    (ya, xa), (yb, xb) = _as_arrays(SAMPLE_A), _as_arrays(SAMPLE_B)
    with pytest.raises(rocci.InputError, match="two test sets"):
        rocci.compare_cost_unpaired(ya, xa)
    with pytest.raises(rocci.InputError, match="score_b"):
        rocci.compare_cost_unpaired(ya, xa, yb, xb[:-1])
    with pytest.raises(rocci.InputError, match=r"w values must lie in \[0, 1\]"):
        rocci.compare_cost_unpaired(ya, xa, yb, xb, w=1.5)
    with pytest.raises(rocci.InputError, match="method"):
        rocci.compare_cost_unpaired(ya, xa, yb, xb, method="bca")
    with pytest.raises(rocci.InputError, match="thresholds_b"):
        rocci.compare_cost_unpaired(ya, xa, yb, xb, w=[0.2, 0.4], thresholds_b=[0.1, 0.2, 0.3])
