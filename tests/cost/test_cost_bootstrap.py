"""The exact bootstrap of costs against brute force.

* Enumeration (tests/reference/brute_cost.py): every stratified and every
  full bootstrap sample of tiny data with ties, one model and paired, gives
  the exact law of ``C*`` (``ΔC*``) in Fractions; rocci's mean, variance,
  law, percentile bounds and ``P(ΔC* < 0)`` must match to 1e-12.
* Monte Carlo: 100,000 seeded, vectorised resamples of data with many ties
  agree with the exact moments, CDF and ``P(ΔC* < 0)`` within 5 standard
  errors.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from rocci.cost import compare_cost, cost_ci, cost_curve
from tests.reference.brute import law_mean, law_quantile, law_var
from tests.reference.brute_cost import (
    enumerate_cost,
    enumerate_delta_cost,
    law_lt,
    monte_carlo_cost,
    monte_carlo_delta_cost,
)
from tests.reference.datasets import mc_tied

TOL = 1e-12

# Ties: a positive and a negative at 0.5, two negatives at 0.4, two positives at 0.5.
POS_A, NEG_A = [0.9, 0.5, 0.5], [0.8, 0.5, 0.4, 0.4]
POS_B, NEG_B = [0.7, 0.7, 0.2], [0.3, 0.6, 0.6, 0.1]
Y = np.r_[np.ones(3, int), np.zeros(4, int)]
SA, SB = np.r_[POS_A, NEG_A], np.r_[POS_B, NEG_B]

SIZES = [("stratified", None), ("stratified", (2, 5)), ("full", None), ("full", 5)]
SIZE_IDS = ["strat", "strat-m25", "full", "full-m5"]
LEVELS = (0.5, 0.8, 0.95)


def merged(law):
    """An exact law as floats, values closer than 1e-12 merged (as rocci does)."""
    v = np.array([float(x) for x in law])
    p = np.array([float(x) for x in law.values()])
    start = np.flatnonzero(np.r_[True, np.diff(v) > TOL])
    return v[start], np.add.reduceat(p, start)


def quantile(law, level):
    # rocci counts a CDF within 1e-12 of the level as reaching it.
    return float(law_quantile(law, Fraction(level) - Fraction(1, 10**12)))


def check_law(got, law):
    values, probs = got
    ev, ep = merged(law)
    assert values.size == ev.size
    np.testing.assert_allclose(values, ev, rtol=0, atol=TOL)
    np.testing.assert_allclose(probs, ep, rtol=0, atol=TOL)


@pytest.mark.parametrize("bootstrap, m", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("t", [0.5, 0.45, np.inf, -np.inf])
def test_one_model_enumeration(bootstrap, m, t):
    w = np.array([0.0, 0.3, 1 / 3, 0.5, 0.8, 1.0])
    wald = cost_ci(Y, SA, w=w, thresholds=t, bootstrap=bootstrap, m=m, method="wald")
    pct = {lv: cost_ci(Y, SA, w=w, thresholds=t, bootstrap=bootstrap, m=m, method="percentile",
                       confidence_level=lv) for lv in LEVELS}
    for i, wi in enumerate(w):
        law = enumerate_cost(POS_A, NEG_A, t, wi, bootstrap=bootstrap, m=m)
        mean, var = float(law_mean(law)), float(law_var(law))
        assert wald.cost[i] == pytest.approx(mean, abs=TOL)
        assert wald.cost_std[i] ** 2 == pytest.approx(var, abs=TOL)
        z = stats.norm.isf(0.025)
        assert wald.cost_low[i] == pytest.approx(max(0.0, mean - z * np.sqrt(var)), abs=TOL)
        assert wald.cost_high[i] == pytest.approx(min(1.0, mean + z * np.sqrt(var)), abs=TOL)
        check_law(wald.distribution(i), law)
        for lv, res in pct.items():
            assert res.cost_low[i] == pytest.approx(quantile(law, (1 - lv) / 2), abs=TOL)
            assert res.cost_high[i] == pytest.approx(quantile(law, (1 + lv) / 2), abs=TOL)


PAIRS = [(0.5, 0.6), (0.45, 0.2), (np.inf, 0.6), (0.5, 0.5)]


@pytest.mark.parametrize("bootstrap, m", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("ta, tb", PAIRS)
def test_paired_enumeration(bootstrap, m, ta, tb):
    w = np.array([0.0, 0.3, 0.5, 0.7, 1.0])
    wald = compare_cost(Y, SA, SB, w=w, thresholds_a=ta, thresholds_b=tb, bootstrap=bootstrap,
                        m=m, method="wald")
    pct = {lv: compare_cost(Y, SA, SB, w=w, thresholds_a=ta, thresholds_b=tb, bootstrap=bootstrap,
                            m=m, method="percentile", confidence_level=lv) for lv in LEVELS}
    for i, wi in enumerate(w):
        law = enumerate_delta_cost(POS_A, POS_B, NEG_A, NEG_B, ta, tb, wi, bootstrap=bootstrap, m=m)
        assert wald.delta_cost[i] == pytest.approx(float(law_mean(law)), abs=TOL)
        assert wald.delta_cost_std[i] ** 2 == pytest.approx(float(law_var(law)), abs=TOL)
        assert wald.p_a_cheaper[i] == pytest.approx(float(law_lt(law, 0)), abs=TOL)
        check_law(wald.distribution(i), law)
        for lv, res in pct.items():
            assert res.p_a_cheaper[i] == wald.p_a_cheaper[i]
            assert res.delta_cost_low[i] == pytest.approx(quantile(law, (1 - lv) / 2), abs=TOL)
            assert res.delta_cost_high[i] == pytest.approx(quantile(law, (1 + lv) / 2), abs=TOL)


def test_paired_ties_and_symmetry():
    """Swapping the models negates ΔC; P(a cheaper) + P(b cheaper) + P(tie) = 1."""
    w = np.linspace(0, 1, 11)
    ab = compare_cost(Y, SA, SB, w=w, thresholds_a=0.5, thresholds_b=0.6, method="wald")
    ba = compare_cost(Y, SB, SA, w=w, thresholds_a=0.6, thresholds_b=0.5, method="wald")
    np.testing.assert_allclose(ab.delta_cost, -ba.delta_cost, atol=1e-15)
    np.testing.assert_allclose(ab.delta_cost_std, ba.delta_cost_std, atol=1e-15)
    for i in range(w.size):
        values, probs = ab.distribution(i)
        tie = probs[np.abs(values) <= TOL].sum()
        assert ab.p_a_cheaper[i] + ba.p_a_cheaper[i] + tie == pytest.approx(1.0, abs=1e-12)
    same = compare_cost(Y, SA, SA, w=w, thresholds_a=0.5, thresholds_b=0.5)
    assert np.all(same.delta_cost == 0) and np.all(same.delta_cost_std == 0)
    assert np.all(same.p_a_cheaper == 0)


@pytest.mark.parametrize("bootstrap, m", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("method", ["agresti-coull", "wald", "percentile"])
def test_direction_is_a_minus_b_and_the_law_is_the_mirror_of_the_thesis(bootstrap, m, method):
    """0.2.0: ΔC = C_a − C_b.  The thesis's ΔC = C2 − C1 (model 1 = a) is what
    the same call gives with the models swapped (and rocci gave before 0.2.0):
    the new law is its mirror image, the interval its negative reversed, and
    ``p_a_cheaper = P(C2* − C1* > 0)``."""
    w = np.array([0.0, 0.2, 0.45, 0.7, 1.0])
    new = compare_cost(Y, SA, SB, w=w, thresholds_a=0.5, thresholds_b=0.6, bootstrap=bootstrap, m=m,
                       method=method, confidence_level=0.8)
    thesis = compare_cost(Y, SB, SA, w=w, thresholds_a=0.6, thresholds_b=0.5, bootstrap=bootstrap, m=m,
                          method=method, confidence_level=0.8)
    np.testing.assert_allclose(new.delta_cost, -thesis.delta_cost, atol=1e-15)
    np.testing.assert_allclose(new.delta_cost_std, thesis.delta_cost_std, atol=1e-15)
    np.testing.assert_allclose(new.delta_cost_low, -thesis.delta_cost_high, atol=TOL)
    np.testing.assert_allclose(new.delta_cost_high, -thesis.delta_cost_low, atol=TOL)
    for i in range(w.size):
        (v, p), (tv, tp) = new.distribution(i), thesis.distribution(i)
        np.testing.assert_allclose(v, -tv[::-1], atol=TOL)
        np.testing.assert_allclose(p, tp[::-1], atol=TOL)
        assert new.p_a_cheaper[i] == pytest.approx(float(tp[tv > TOL].sum()), abs=TOL)
    # The sign on the observed costs: C_a − C_b at each model's threshold.
    ca = cost_ci(Y, SA, w=w, thresholds=0.5, method="wald").cost
    cb = cost_ci(Y, SB, w=w, thresholds=0.6, method="wald").cost
    np.testing.assert_allclose(new.delta_cost, ca - cb, atol=1e-15)


def test_a_clearly_cheaper_gives_negative_delta_and_high_p_a_cheaper():
    """Model a separates the classes, model b is noise: ΔC < 0, P(a cheaper) near 1."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(60, int), np.zeros(60, int)]
    a = y + rng.normal(0, 0.3, y.size)
    b = rng.normal(0, 1, y.size)
    res = compare_cost(y, a, b, w=[0.5])
    assert res.delta_cost[0] < 0 and res.delta_cost_high[0] < 0
    assert res.p_a_cheaper[0] > 0.999


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
def test_agresti_coull(bootstrap):
    """Pseudo-counts in every cell, then Wald; add = 0 is plain Wald."""
    w = np.linspace(0, 1, 21)
    # add = 0 is Wald.
    one = cost_ci(Y, SA, w=w, bootstrap=bootstrap, add=0.0)
    wald = cost_ci(Y, SA, w=w, bootstrap=bootstrap, method="wald")
    np.testing.assert_allclose(one.cost_low, wald.cost_low, atol=1e-15)
    np.testing.assert_allclose(one.cost_high, wald.cost_high, atol=1e-15)
    two = compare_cost(Y, SA, SB, w=w, bootstrap=bootstrap, add=0.0)
    wald2 = compare_cost(Y, SA, SB, w=w, bootstrap=bootstrap, method="wald")
    np.testing.assert_allclose(two.delta_cost_low, wald2.delta_cost_low, atol=1e-15)
    np.testing.assert_allclose(two.delta_cost_high, wald2.delta_cost_high, atol=1e-15)
    # With m = n the full bootstrap's adjusted centre equals the stratified one (same p̃).
    full = cost_ci(Y, SA, w=w, bootstrap="full")
    strat = cost_ci(Y, SA, w=w)
    unclipped = (full.cost_low > 0) & (strat.cost_low > 0) & (full.cost_high < 1) & (strat.cost_high < 1)
    assert unclipped.sum() > 5
    np.testing.assert_allclose((full.cost_low + full.cost_high)[unclipped],
                               (strat.cost_low + strat.cost_high)[unclipped], atol=1e-14)
    assert np.all((full.cost_high - full.cost_low)[unclipped] > (strat.cost_high - strat.cost_low)[unclipped])
    # Agresti keeps a non-degenerate interval where the cost is 0 (w = 0, threshold +inf).
    assert strat.cost[0] == 0 and strat.cost_std[0] == 0 and strat.cost_high[0] > 0
    assert full.cost_high[0] > 0


def test_default_thresholds_follow_the_envelope():
    w = np.linspace(0, 1, 41)
    curve_a, curve_b = cost_curve(Y, SA, w=w), cost_curve(Y, SB, w=w)
    res = cost_ci(Y, SA, w=w)
    np.testing.assert_array_equal(res.threshold, curve_a.threshold)
    np.testing.assert_allclose(res.cost, curve_a.cost, atol=1e-15)
    cmp_ = compare_cost(Y, SA, SB, w=w)
    np.testing.assert_array_equal(cmp_.threshold_a, curve_a.threshold)
    np.testing.assert_array_equal(cmp_.threshold_b, curve_b.threshold)
    np.testing.assert_allclose(cmp_.delta_cost, curve_a.cost - curve_b.cost, atol=1e-15)  # A − B
    # Thresholds given for one model only: the other still uses its own envelope.
    half = compare_cost(Y, SA, SB, w=w, thresholds_a=0.5)
    np.testing.assert_array_equal(half.threshold_b, curve_b.threshold)
    frame = cmp_.to_frame()
    assert list(frame.columns[:8]) == ["w", "threshold_a", "threshold_b", "delta_cost", "delta_cost_std",
                                       "delta_cost_low", "delta_cost_high", "p_a_cheaper"]
    assert list(res.to_frame().columns[:6]) == ["w", "threshold", "cost", "cost_std", "cost_low", "cost_high"]
    assert "CostCI" in repr(res) and "CostComparison" in repr(cmp_)


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------

B = 100_000
MC_POS, MC_NEG = mc_tied()
_rng = np.random.default_rng(11)
MC_POS_B = np.round(MC_POS + _rng.normal(0, 0.2, MC_POS.size), 1)
MC_NEG_B = np.round(MC_NEG + _rng.normal(0, 0.2, MC_NEG.size), 1)
MC_Y = np.r_[np.ones(MC_POS.size, int), np.zeros(MC_NEG.size, int)]


def check_against_mc(sample, mean, sd, values, probs, level_lo, level_hi):
    se = sd / np.sqrt(B)
    assert abs(sample.mean() - mean) <= 5 * se
    mu4 = float(probs @ (values - mean) ** 4)
    assert abs(sample.var() - sd**2) <= 5 * np.sqrt(max(mu4 - sd**4, 0) / B)
    cdf = np.cumsum(probs)
    for v in (level_lo, level_hi, mean):
        exact = cdf[np.searchsorted(values, v + TOL, side="right") - 1]
        freq = np.mean(sample <= v + TOL)
        assert abs(freq - exact) <= 5 * np.sqrt(exact * (1 - exact) / B) + 1e-9


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
@pytest.mark.montecarlo
def test_one_model_monte_carlo(bootstrap):
    t, w = 0.5, 0.4
    res = cost_ci(MC_Y, np.r_[MC_POS, MC_NEG], w=w, thresholds=t, bootstrap=bootstrap,
                  method="percentile", confidence_level=0.9)
    values, probs = res.distribution(0)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    sample = monte_carlo_cost(MC_POS, MC_NEG, t, w, bootstrap=bootstrap, n_resamples=B, seed=5)
    check_against_mc(sample, res.cost[0], res.cost_std[0], values, probs, res.cost_low[0], res.cost_high[0])
    inside = np.mean((sample >= res.cost_low[0] - TOL) & (sample <= res.cost_high[0] + TOL))
    assert inside >= 0.9 - 5 * np.sqrt(0.09 / B)


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
@pytest.mark.montecarlo
def test_paired_monte_carlo(bootstrap):
    ta, tb, w = 0.5, 0.6, 0.45
    res = compare_cost(MC_Y, np.r_[MC_POS, MC_NEG], np.r_[MC_POS_B, MC_NEG_B], w=w, thresholds_a=ta,
                       thresholds_b=tb, bootstrap=bootstrap, method="percentile", confidence_level=0.9)
    values, probs = res.distribution(0)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    sample = monte_carlo_delta_cost(MC_POS, MC_POS_B, MC_NEG, MC_NEG_B, ta, tb, w, bootstrap=bootstrap,
                                    n_resamples=B, seed=6)
    check_against_mc(sample, res.delta_cost[0], res.delta_cost_std[0], values, probs,
                     res.delta_cost_low[0], res.delta_cost_high[0])
    p = res.p_a_cheaper[0]
    assert 0.01 < p < 0.99
    assert abs(np.mean(sample < -TOL) - p) <= 5 * np.sqrt(p * (1 - p) / B)


def test_larger_data_laws_are_proper():
    """n = 3000: the windowed laws keep all their mass and agree with the moments."""
    rng = np.random.default_rng(8)
    n = 1500
    y = np.r_[np.ones(n, int), np.zeros(n, int)]
    a = np.r_[rng.normal(1, 1, n), rng.normal(0, 1, n)]
    b = a + rng.normal(0, 0.7, 2 * n)
    for bootstrap in ("stratified", "full"):
        one = cost_ci(y, a, w=[0.3], bootstrap=bootstrap, method="percentile")
        v, p = one.distribution(0)
        assert p.sum() == pytest.approx(1.0, abs=1e-12)
        assert float(p @ v) == pytest.approx(one.cost[0], abs=1e-12)
        assert float(p @ (v - one.cost[0]) ** 2) == pytest.approx(one.cost_std[0] ** 2, rel=1e-9)
        two = compare_cost(y, a, b, w=[0.6], bootstrap=bootstrap, method="percentile")
        v, p = two.distribution(0)
        assert p.sum() == pytest.approx(1.0, abs=1e-12)
        assert float(p @ v) == pytest.approx(two.delta_cost[0], abs=1e-12)
        assert float(p @ (v - two.delta_cost[0]) ** 2) == pytest.approx(two.delta_cost_std[0] ** 2, rel=1e-9)
        cdf = np.cumsum(p)
        lo, hi = two.delta_cost_low[0], two.delta_cost_high[0]
        assert cdf[np.searchsorted(v, lo + TOL, side="right") - 1] >= 0.025 - 1e-12
        assert cdf[np.searchsorted(v, lo - TOL, side="left") - 1] < 0.025
        assert float(p[v < -TOL].sum()) == pytest.approx(two.p_a_cheaper[0], abs=1e-12)
