"""rocci.coverage: exact coverage sums against brute-force enumeration and seeded simulation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rocci
from rocci import populations as P
from rocci.coverage import (
    cost_coverage,
    cost_interval,
    paired_cost_coverage,
    paired_cost_interval,
    paired_threshold_coverage,
    simulate_cost_coverage,
    simulate_paired_cost_coverage,
    simulate_paired_threshold_coverage,
    simulate_threshold_coverage,
    threshold_coverage,
    threshold_coverage_curve,
)
from rocci.coverage.exact import _trinomial_coverage
from rocci.coverage.simulate import vertical_score_interval
from rocci._core.intervals import axis_alpha


# ---------------------------------------------------------------------------
# The thesis's worked example (math.md §7)
# ---------------------------------------------------------------------------


def test_dispersion_example_exact_to_1e6():
    """θ = 5, n = 10,000, α = 10%, rate .13 → .796038; at .14 ≈ .9248."""
    df = threshold_coverage_curve(P.binormal(5.0), 10_000, 10_000, [0.13, 0.14], confidence_level=0.9)
    row = df.iloc[0]
    assert row["threshold"] == pytest.approx(7.412748, abs=1e-6)
    assert row["tpr"] == pytest.approx(0.2599825, abs=1e-7)
    assert row["fpr"] == pytest.approx(1.754920e-5, rel=1e-6)
    assert row["coverage_tpr"] == pytest.approx(0.948746, abs=1e-6)
    assert row["coverage_fpr"] == pytest.approx(0.839043, abs=1e-6)
    assert row["coverage"] == pytest.approx(0.796038, abs=1e-6)
    assert df.iloc[1]["coverage"] == pytest.approx(0.9248, abs=1e-4)
    # the FPR axis at .13 covers only when no false positive is seen: (1 − FPR)^n
    assert row["coverage_fpr"] == pytest.approx((1 - row["fpr"]) ** 10_000, rel=1e-12)


def test_fig43_experiment_has_the_dip():
    study = rocci.coverage.run_experiment("fig4.3")
    f = study.frame
    at = f[(f["panel"] == "θ = 5") & np.isclose(f["x"], 0.13)]
    assert at["coverage"].iloc[0] == pytest.approx(0.796038, abs=1e-6)
    assert set(f["kind"]) == {"exact"} and (f["se"] == 0).all()


# ---------------------------------------------------------------------------
# Brute force: enumerate every test set, run rocci's own interval functions
# ---------------------------------------------------------------------------


def _bits(n):
    return [np.array(v, dtype=bool) for v in itertools.product([False, True], repeat=n)]


@pytest.mark.parametrize("method", ["wilson", "wald", "agresti-coull", "percentile"])
def test_threshold_coverage_equals_enumeration_with_ties(method):
    """Every one of the 2^(n+ + n−) test sets; instances 'above' score exactly t (ties count as positive)."""
    n_pos, n_neg, p_pos, p_neg, t = 5, 4, 0.62, 0.27, 0.5
    covered = 0.0
    for above_p in _bits(n_pos):
        for above_n in _bits(n_neg):
            prob = np.prod(np.where(above_p, p_pos, 1 - p_pos)) * np.prod(np.where(above_n, p_neg, 1 - p_neg))
            y = np.r_[np.ones(n_pos), np.zeros(n_neg)]
            s = np.r_[np.where(above_p, t, t - 1), np.where(above_n, t, t - 1)]
            ci = rocci.threshold_ci(y, s, thresholds=[t], confidence_level=0.9, method=method)
            ok = (ci.tpr_low[0] <= p_pos <= ci.tpr_high[0]) and (ci.fpr_low[0] <= p_neg <= ci.fpr_high[0])
            covered += prob * ok
    exact = threshold_coverage(p_pos, p_neg, n_pos, n_neg, confidence_level=0.9, method=method)
    assert exact.region == pytest.approx(covered, abs=1e-12)


def test_paired_axis_coverage_equals_enumeration_with_ties():
    """All 4^n assignments of the positives to the paired cells, through rocci.compare_thresholds."""
    n, p_a, p_b, p_both = 5, 0.2, 0.1, 0.4
    probs = {"a": p_a, "b": p_b, "both": p_both, "none": 1 - p_a - p_b - p_both}
    score = {"a": (0.5, 0.0), "b": (0.0, 0.5), "both": (0.5, 0.5), "none": (0.0, 0.0)}
    neg_a, neg_b = np.array([0.5, 0.0, 0.5]), np.array([0.0, 0.5, 0.5])
    covered = 0.0
    for cells in itertools.product(probs, repeat=n):
        prob = np.prod([probs[c] for c in cells])
        sa = np.r_[[score[c][0] for c in cells], neg_a]
        sb = np.r_[[score[c][1] for c in cells], neg_b]
        y = np.r_[np.ones(n), np.zeros(neg_a.size)]
        res = rocci.compare_thresholds(y, sa, sb, thresholds_a=[0.5], thresholds_b=[0.5], confidence_level=0.9)
        covered += prob * (res.delta_tpr_low[0] <= p_a - p_b <= res.delta_tpr_high[0])
    exact = _trinomial_coverage(n, p_a, p_b, axis_alpha(0.9, "rectangle"), "smoothed")
    assert exact == pytest.approx(covered, abs=1e-12)


@pytest.mark.parametrize("formulas", ["stratified", "full"])
@pytest.mark.parametrize("method", ["agresti-coull", "wald"])
def test_cost_coverage_equals_enumeration_with_ties(formulas, method):
    pop = P.binormal(0.5, 1.0, 1.0)
    t, w, n_pos, n_neg = 0.3, 0.35, 4, 5
    p_pos, p_neg = float(pop.tpr(t)), float(pop.fpr(t))
    target = float(pop.cost(t, w))
    covered = 0.0
    for above_p in _bits(n_pos):
        for above_n in _bits(n_neg):
            prob = np.prod(np.where(above_p, p_pos, 1 - p_pos)) * np.prod(np.where(above_n, p_neg, 1 - p_neg))
            y = np.r_[np.ones(n_pos), np.zeros(n_neg)]
            s = np.r_[np.where(above_p, t, t - 1), np.where(above_n, t, t - 1)]
            ci = rocci.cost_ci(y, s, w=[w], thresholds=[t], bootstrap=formulas, confidence_level=0.9, method=method)
            covered += prob * (ci.cost_low[0] <= target <= ci.cost_high[0])
    exact = cost_coverage(pop, n_pos, n_neg, [w], thresholds=[t], confidence_level=0.9, method=method,
                          formulas=formulas)
    assert exact["coverage"].iloc[0] == pytest.approx(covered, abs=1e-12)


# ---------------------------------------------------------------------------
# The interval formulas used by the sums are rocci's own
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
@pytest.mark.parametrize("method,add", [("agresti-coull", 2.0), ("agresti-coull", 0.5), ("wald", 2.0)])
def test_cost_interval_matches_cost_ci(bootstrap, method, add):
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(37), np.zeros(23)]
    s = np.round(rng.normal(y, 1.0), 1)  # ties
    w = np.linspace(0, 1, 11)
    t = np.quantile(s, np.linspace(0.05, 0.95, 11))
    ci = rocci.cost_ci(y, s, w=w, thresholds=t, bootstrap=bootstrap, method=method, add=add, confidence_level=0.8)
    fn = 37 - ci.tp
    low, high = cost_interval(fn, ci.fp, 37, 23, w, confidence_level=0.8, method=method, add=add, formulas=bootstrap)
    np.testing.assert_allclose(low, ci.cost_low, atol=1e-14)
    np.testing.assert_allclose(high, ci.cost_high, atol=1e-14)


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
@pytest.mark.parametrize("method,add", [("agresti-coull", 0.5), ("agresti-coull", 0.125), ("wald", 0.5)])
def test_paired_cost_interval_matches_compare_cost(bootstrap, method, add):
    rng = np.random.default_rng(2)
    y = np.r_[np.ones(31), np.zeros(29)]
    a = np.round(rng.normal(y, 1.0), 1)
    b = np.round(0.6 * a + rng.normal(y, 0.8), 1)
    w = np.linspace(0, 1, 9)
    ta, tb = np.quantile(a, np.linspace(0.1, 0.9, 9)), np.quantile(b, np.linspace(0.9, 0.1, 9))
    res = rocci.compare_cost(y, a, b, w=w, thresholds_a=ta, thresholds_b=tb, bootstrap=bootstrap, method=method,
                             add=add, confidence_level=0.9)
    low, high = paired_cost_interval(res.n_a_pos, res.n_b_pos, res.n_a_neg, res.n_b_neg, 31, 29, w,
                                     confidence_level=0.9, method=method, add=add, formulas=bootstrap)
    np.testing.assert_allclose(low, res.delta_cost_low, atol=1e-14)
    np.testing.assert_allclose(high, res.delta_cost_high, atol=1e-14)


def test_vertical_score_interval_matches_vertical_ci():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(40), np.zeros(50)]
    s = np.round(rng.normal(y, 1.0), 1)
    f = [0.1, 0.3, 0.5, 0.9]
    pct = rocci.vertical_ci(y, s, fpr=f, confidence_level=0.9, method="percentile")
    score = rocci.vertical_ci(y, s, fpr=f, confidence_level=0.9, method="score")
    low, high = vertical_score_interval(pct.tpr_mean, pct.tpr_std, 40, 0.9)
    np.testing.assert_allclose(low, score.tpr_low, atol=1e-14)
    np.testing.assert_allclose(high, score.tpr_high, atol=1e-14)


# ---------------------------------------------------------------------------
# Exact sums against seeded simulation (within a few Monte Carlo standard errors)
# ---------------------------------------------------------------------------


@pytest.mark.montecarlo
def test_exact_threshold_coverage_equals_score_level_simulation():
    """Draw scores from the population, call rocci.threshold_ci at the true threshold: 4,000 test sets."""
    pop = P.Population(P.beta(1.2, 2), P.beta(1.2, 3))
    n, q = 20, 0.3
    t = pop.threshold_for_rate([q])[0]
    exact = threshold_coverage_curve(pop, n, n, [q], confidence_level=0.9)["coverage"].iloc[0]
    rng = np.random.default_rng(11)
    R = 4000
    pos, neg = pop.sample(n, n, rng, size=R)
    y = np.r_[np.ones(n), np.zeros(n)]
    tp, fp = pop.tpr(t), pop.fpr(t)
    hits = 0
    for i in range(R):
        ci = rocci.threshold_ci(y, np.r_[pos[i], neg[i]], thresholds=[t], confidence_level=0.9)
        hits += (ci.tpr_low[0] <= tp <= ci.tpr_high[0]) and (ci.fpr_low[0] <= fp <= ci.fpr_high[0])
    se = np.sqrt(exact * (1 - exact) / R)
    assert abs(hits / R - exact) < 4 * se


@pytest.mark.montecarlo
def test_exact_threshold_curve_equals_count_simulation():
    pop = P.binormal(3.0)
    q = np.array([0.05, 0.2, 0.5, 0.8])
    exact = threshold_coverage_curve(pop, 25, 25, q, confidence_level=0.9)["coverage"].to_numpy()
    sim = simulate_threshold_coverage(pop, 25, 25, q, confidence_level=0.9, threshold="true", replicates=40_000,
                                      seed=5)
    se = np.sqrt(exact * (1 - exact) / 40_000)
    assert np.all(np.abs(sim["coverage"].to_numpy() - exact) < 4.5 * se)
    np.testing.assert_allclose(sim["se"], np.sqrt(sim["coverage"] * (1 - sim["coverage"]) / 40_000))


@pytest.mark.montecarlo
def test_exact_paired_coverage_equals_simulation():
    pair = P.CorrelatedPair(P.binormal(1.0), P.binormal(3.0), 0.6)
    q = np.array([0.1, 0.4, 0.7])
    exact = paired_threshold_coverage(pair, 30, 30, q)["coverage"].to_numpy()
    sim = simulate_paired_threshold_coverage(pair, 30, 30, q, replicates=40_000, seed=3)
    se = np.sqrt(exact * (1 - exact) / 40_000)
    assert np.all(np.abs(sim["coverage"].to_numpy() - exact) < 4.5 * se)


@pytest.mark.montecarlo
def test_exact_paired_coverage_equals_score_level_simulation():
    """Sampled copula scores through rocci.compare_thresholds at the true thresholds."""
    pair = P.CorrelatedPair(P.binormal(1.0), P.binormal(2.0), 0.9)
    q = 0.4
    ta, tb = pair.a.threshold_for_rate([q])[0], pair.b.threshold_for_rate([q])[0]
    exact = paired_threshold_coverage(pair, 15, 15, [q])["coverage"].iloc[0]
    R = 2000
    pa, pb, na, nb = pair.sample(15, 15, np.random.default_rng(9), size=R)
    dp = np.subtract(*pair.cells(ta, tb, "pos")[:2])
    dn = np.subtract(*pair.cells(ta, tb, "neg")[:2])
    y = np.r_[np.ones(15), np.zeros(15)]
    hits = 0
    for i in range(R):
        r = rocci.compare_thresholds(y, np.r_[pa[i], na[i]], np.r_[pb[i], nb[i]], thresholds_a=[ta],
                                     thresholds_b=[tb], confidence_level=0.9)
        hits += (r.delta_tpr_low[0] <= dp <= r.delta_tpr_high[0]) and (r.delta_fpr_low[0] <= dn <= r.delta_fpr_high[0])
    assert abs(hits / R - exact) < 4 * np.sqrt(exact * (1 - exact) / R)


@pytest.mark.parametrize("formulas", ["stratified", "full"])
@pytest.mark.montecarlo
def test_exact_cost_coverage_equals_simulation(formulas):
    pop = P.binormal(1.0, 3.0, 3.0)
    w = np.array([0.05, 0.3, 0.5, 0.9])
    exact = cost_coverage(pop, 40, 40, w, formulas=formulas)["coverage"].to_numpy()
    sim = simulate_cost_coverage(pop, 40, 40, w, formulas=formulas, replicates=40_000, seed=4)
    se = np.sqrt(exact * (1 - exact) / 40_000)
    assert np.all(np.abs(sim["coverage"].to_numpy() - exact) <= 4.5 * se + 1e-12)


@pytest.mark.montecarlo
def test_paired_cost_simulation_equals_exact_quadruple_sum():
    """Small n: the four-fold sum over (a+, b+, a−, b−) done by brute force equals the simulation."""
    pair = P.CorrelatedPair(P.binormal(1.0, 3, 3), P.binormal(2.0, 3, 3), 0.6)
    n, w = 6, 0.4
    ta, tb = pair.a.optimal_threshold([w])[0], pair.b.optimal_threshold([w])[0]
    (pap, pbp, _), (pan, pbn, _) = pair.cells(ta, tb, "pos"), pair.cells(ta, tb, "neg")
    target = w * (pbp - pap) + (1 - w) * (pan - pbn)  # C_a − C_b
    from rocci._core.exact import binomial_pmf

    def tri(a, b, pa, pb):
        return binomial_pmf(a, n, pa) * binomial_pmf(b, n - a, pb / (1 - pa))

    exact = 0.0
    for ap, bp, an, bn in itertools.product(range(n + 1), repeat=4):
        if ap + bp > n or an + bn > n:
            continue
        lo, hi = paired_cost_interval(ap, bp, an, bn, n, n, w, confidence_level=0.9)
        exact += tri(ap, bp, pap, pbp) * tri(an, bn, pan, pbn) * (lo <= target + 1e-12 and target - 1e-12 <= hi)
    sim = simulate_paired_cost_coverage(pair, n, n, [w], replicates=40_000, seed=8)
    assert abs(sim["coverage"].iloc[0] - exact) < 4.5 * np.sqrt(exact * (1 - exact) / 40_000)
    fast = paired_cost_coverage(pair, n, n, [w], confidence_level=0.9)
    assert fast["coverage"].iloc[0] == pytest.approx(exact, abs=1e-13)
    assert fast["delta_cost"].iloc[0] == pytest.approx(target, abs=1e-15)


@pytest.mark.parametrize("formulas", ["stratified", "full"])
@pytest.mark.montecarlo
def test_exact_paired_cost_coverage_equals_simulation(formulas):
    pair = P.CorrelatedPair(P.binormal(1.0, 3, 3), P.binormal(3.0, 3, 3), 0.3)
    w = np.array([0.02, 0.3, 0.6, 0.97])
    exact = paired_cost_coverage(pair, 40, 40, w, formulas=formulas, add=0.5)
    assert (exact["truncated_mass"] < 1e-12).all()
    sim = simulate_paired_cost_coverage(pair, 40, 40, w, formulas=formulas, add=0.5, replicates=40_000, seed=2)
    c = exact["coverage"].to_numpy()
    assert np.all(np.abs(sim["coverage"].to_numpy() - c) <= 4.5 * np.sqrt(c * (1 - c) / 40_000) + 1e-12)


def test_exact_paired_cost_refuses_beyond_its_budget():
    pair = P.CorrelatedPair(P.binormal(1.0, 3, 3), P.binormal(3.0, 3, 3), 0.3)
    with pytest.raises(rocci.InputError, match="simulate_paired_cost_coverage"):
        paired_cost_coverage(pair, 1000, 1000, [0.5])


# ---------------------------------------------------------------------------
# Simulations: determinism, progress, designs
# ---------------------------------------------------------------------------


def test_simulations_are_seeded_and_report_progress():
    pop = P.binormal(1.0)
    calls = []
    a = simulate_threshold_coverage(pop, 50, 50, [0.2, 0.6], replicates=300, seed=1,
                                    progress=lambda f, m: calls.append((f, m)))
    b = simulate_threshold_coverage(pop, 50, 50, [0.2, 0.6], replicates=300, seed=1)
    c = simulate_threshold_coverage(pop, 50, 50, [0.2, 0.6], replicates=300, seed=2)
    assert a.equals(b) and not a.equals(c)
    fractions = [f for f, _ in calls]
    assert fractions and fractions[-1] == 1.0 and all(0 <= f <= 1 for f in fractions)
    assert fractions == sorted(fractions)


def test_data_threshold_targets_the_chosen_threshold():
    """Thresholds picked from each test set: at the middle of the curve the region covers the chosen
    threshold's true point about as often as the nominal 90 % (n = 10,000, so the normal theory holds there)."""
    sim = simulate_threshold_coverage(P.binormal(5.0), 10_000, 10_000, [0.5], confidence_level=0.9,
                                      threshold="data", replicates=300, seed=0)
    # At the centre the data threshold's truth is covered near the nominal 90 %.
    assert abs(sim["coverage"].iloc[0] - 0.9) < 4 * np.sqrt(0.09 / 300)


def test_full_design_varies_class_counts():
    pop = P.binormal(3.0)
    strat = simulate_threshold_coverage(pop, 25, 25, [0.5], confidence_level=0.9, design="stratified",
                                        threshold="true", replicates=20_000, seed=1)
    full = simulate_threshold_coverage(pop, 25, 25, [0.5], confidence_level=0.9, design="full",
                                       threshold="true", replicates=20_000, seed=1)
    exact = threshold_coverage_curve(pop, 25, 25, [0.5], confidence_level=0.9)["coverage"].iloc[0]
    assert abs(strat["coverage"].iloc[0] - exact) < 4.5 * np.sqrt(exact * (1 - exact) / 20_000)
    assert not strat["coverage"].equals(full["coverage"])


def test_bad_simulation_input():
    pop = P.binormal(1.0)
    with pytest.raises(rocci.InputError, match="replicates"):
        simulate_threshold_coverage(pop, 10, 10, [0.5], replicates=1)
    with pytest.raises(rocci.InputError, match="design"):
        simulate_cost_coverage(pop, 10, 10, [0.5], design="pooled")
    with pytest.raises(rocci.InputError, match="n_pos"):
        cost_coverage(pop, 0, 10, [0.5])


def test_data_threshold_cost_simulation_equals_a_plain_loop():
    """threshold="data": each test set's envelope minimiser (cost_ci's default), target its true cost."""
    pop = P.binormal(0.75, 3.0, 3.0)
    w = np.array([0.1, 0.5, 0.8])
    sim = simulate_cost_coverage(pop, 30, 30, w, threshold="data", replicates=25, seed=6)
    rng = np.random.default_rng(6)
    y = np.r_[np.ones(30), np.zeros(30)]
    hits = np.zeros(w.size)
    for _ in range(25):
        s = np.r_[pop.pos.rvs(30, rng), pop.neg.rvs(30, rng)]
        ci = rocci.cost_ci(y, s, w=w, confidence_level=0.9)
        truth = pop.cost(ci.threshold, w)
        hits += (ci.cost_low <= truth + 1e-12) & (truth - 1e-12 <= ci.cost_high)
    np.testing.assert_allclose(sim["coverage"], hits / 25)


def test_paired_vertical_coverage_gives_score_and_percentile_from_one_law():
    """simulate_paired_vertical_coverage (fig. 4.9) measures both intervals from one exact computation
    per test set: the percentile bounds taken from the score result's law equal compare_vertical's own
    percentile bounds, and the frame has one row per (method, level)."""
    from rocci.coverage.simulate import paired_percentile_bounds, simulate_paired_vertical_coverage

    pair = P.CorrelatedPair(P.binormal(1.0), P.binormal(1.6), 0.6)
    rng = np.random.default_rng(3)
    pa, pb, na, nb = pair.sample(30, 40, rng, size=1)
    y = np.r_[np.ones(30, int), np.zeros(40, int)]
    a, b = np.r_[pa[0], na[0]], np.r_[pb[0], nb[0]]
    fpr = [0.1, 0.5, 0.9]
    score = rocci.compare_vertical(y, a, b, fpr=fpr, confidence_level=0.9)
    pct = rocci.compare_vertical(y, a, b, fpr=fpr, confidence_level=0.9, method="percentile")
    assert score.method == "score"
    lo, hi = paired_percentile_bounds(score, 0.1)
    np.testing.assert_array_equal(lo, pct.delta_tpr_low)
    np.testing.assert_array_equal(hi, pct.delta_tpr_high)
    df = simulate_paired_vertical_coverage(pair, 30, 40, fpr, confidence_level=0.9, replicates=2, seed=1)
    assert sorted(df["method"].unique()) == ["percentile", "score"]
    assert len(df) == 2 * len(fpr)
    assert ((df["coverage"] >= 0) & (df["coverage"] <= 1)).all()
