"""Coverage lab, precision at fixed recall (issue 14): the truth, the Monte Carlo statistic, the "pr_recall" preset."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, optimize

import rocci
from rocci import populations as P
from rocci.coverage import EXPERIMENTS, run_experiment
from rocci.coverage.pr import (
    PR_METHODS,
    bootstrap_precision_interval,
    bootstrap_precision_values,
    resample_precision,
    simulate_precision_coverage,
    true_precision_at_recall,
    score_precision_interval,
    wald_precision_interval,
)
from rocci.plots.coverage import coverage_figure
from rocci.precision.recall import recall_levels

COLUMNS = ["experiment", "panel", "series", "x", "coverage", "se", "target", "kind", "replicates"]


def _labels(n_pos, n_neg):
    return np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]


def _tied_sample(rng, n_pos, n_neg, step):
    """Binormal scores rounded to a grid of ``step``: many ties within and across the classes."""
    return np.round(rng.normal(1, 1, n_pos) / step) * step, np.round(rng.normal(0, 1, n_neg) / step) * step


# ---------------------------------------------------------------------------
# (a) the truth
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("mu", [1.0, 1.5])
def test_true_precision_equals_quadrature(mu):
    """Threshold and FPR by numerical integration of the normal densities (no closed-form quantile or tail)."""
    recall = np.array([0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99])

    def tail(loc, t):
        return integrate.quad(lambda x: np.exp(-0.5 * (x - loc) ** 2) / np.sqrt(2 * np.pi), t, loc + 40,
                              epsabs=1e-15, epsrel=1e-13)[0]

    fpr = np.array([tail(0.0, optimize.brentq(lambda t: tail(mu, t) - r, -20, 20, xtol=1e-14)) for r in recall])
    for prior in (0.01, 0.1, 0.5):
        pop = P.Population(P.normal(mu, 1), P.normal(0, 1), prior)
        ref = prior * recall / (prior * recall + (1 - prior) * fpr)
        np.testing.assert_allclose(true_precision_at_recall(pop, recall), ref, rtol=1e-8)
        # At recall 1 every negative is called positive: the precision is the share of positives.
        assert true_precision_at_recall(pop, [1.0])[0] == pytest.approx(prior)


@pytest.mark.parametrize("prior", [0.01, 0.1, 0.5])
def test_true_precision_equals_a_huge_sample(prior):
    """Empirical precision at recall r on 3·10⁶ instances drawn from the mixture (random class labels), with rocci's
    rule (the ⌈r·n+⌉-th largest positive score as threshold, ties counted positive): within 4 binomial standard
    errors of the truth (the threshold's own noise makes the real error larger still, so this is not loose)."""
    rng = np.random.default_rng(11)
    pop = P.Population(P.normal(1.5, 1), P.normal(0, 1), prior)
    recall = np.array([0.1, 0.3, 0.5, 0.7, 0.9])
    n = 3_000_000
    y = rng.random(n) < prior
    s = np.where(y, rng.normal(1.5, 1, n), rng.normal(0, 1, n))
    pos, neg = np.sort(s[y])[::-1], np.sort(s[~y])
    k = np.ceil(recall * pos.size).astype(np.int64)
    fp = neg.size - np.searchsorted(neg, pos[k - 1], side="left")
    empirical = k / (k + fp)
    truth = true_precision_at_recall(pop, recall, prior=pos.size / n)
    se = np.sqrt(truth * (1 - truth) / (k + fp))
    assert np.all(np.abs(empirical - truth) < 4 * se), (empirical, truth, se)
    # The share of positives matters: the balanced formula would be far off (by hundreds of se at 1% or 10%).
    if prior != 0.5:
        assert np.all(np.abs(empirical - true_precision_at_recall(pop, recall, prior=0.5)) > 20 * se)


def test_true_precision_rejects_bad_input():
    pop = P.Population(P.normal(1, 1), P.normal(0, 1), 0.1)
    with pytest.raises(rocci.InputError, match="recall"):
        true_precision_at_recall(pop, [0.0, 0.5])
    with pytest.raises(rocci.InputError, match="prior"):
        true_precision_at_recall(pop, [0.5], prior=1.0)


# ---------------------------------------------------------------------------
# (b) the Monte Carlo statistic is rocci's
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_statistic_on_the_data_is_rocci_point_estimate(seed):
    """On the identity "resample" (the data themselves) the Monte Carlo statistic is precision_ci's observed
    precision, on small tied samples and at recall values that round (including below 1/n+)."""
    rng = np.random.default_rng(seed)
    n_pos, n_neg = int(rng.integers(1, 16)), int(rng.integers(1, 25))
    pos, neg = _tied_sample(rng, n_pos, n_neg, step=float(rng.choice([0.25, 0.5, 1.0])))
    recall = np.r_[rng.uniform(0, 1, 6), 0.01, 1.0]
    res = rocci.precision_ci(_labels(n_pos, n_neg), np.r_[pos, neg], recall=recall)
    r = recall_levels(recall, n_pos)
    np.testing.assert_array_equal(r, res.r)
    mine = resample_precision(pos, neg, r, np.arange(n_pos)[None], np.arange(n_neg)[None])[0]
    np.testing.assert_array_equal(mine, res.precision)


def test_statistic_equals_a_plain_loop_with_ties():
    """resample_precision on explicit resamples equals the definition written out: the r-th largest resampled
    positive score as threshold, resampled negatives scoring >= it as false positives."""
    rng = np.random.default_rng(3)
    pos, neg = _tied_sample(rng, 13, 19, step=0.5)
    r = np.array([1, 2, 5, 9, 13])
    ip, ineg = rng.integers(0, 13, (200, 13)), rng.integers(0, 19, (200, 19))
    fast = resample_precision(pos, neg, r, ip, ineg)
    for b in range(200):
        t = np.sort(pos[ip[b]])[::-1][r - 1]
        fp = np.array([(neg[ineg[b]] >= tt).sum() for tt in t])
        np.testing.assert_array_equal(fast[b], r / (r + fp))


@pytest.mark.montecarlo
def test_monte_carlo_law_is_the_exact_law():
    """The Monte Carlo bootstrap (multinomial shortcut for the negatives) and explicit resamples (one draw per
    negative) both reproduce precision_ci's exact law of r/(r + FP*): Kolmogorov distance within 2.5 times the
    1.36/√B of a 5% Kolmogorov–Smirnov test, at every level, on tied data."""
    rng = np.random.default_rng(7)
    pos, neg = _tied_sample(rng, 12, 30, step=0.2)
    res = rocci.precision_ci(_labels(12, 30), np.r_[pos, neg], recall=[0.1, 0.25, 0.5, 0.75, 1.0])
    B = 20_000
    fast = bootstrap_precision_values(pos, neg, res.r, n_boot=B, rng=1)
    g = np.random.default_rng(2)
    plain = resample_precision(pos, neg, res.r, g.integers(0, 12, (B, 12)), g.integers(0, 30, (B, 30)))
    for i in range(res.r.size):
        values, probs = res.distribution(i)
        cdf = np.cumsum(probs)
        for draws in (fast[:, i], plain[:, i]):
            ecdf = np.searchsorted(np.sort(draws), values + 1e-12, side="right") / B
            assert np.abs(ecdf - cdf).max() < 2.5 * 1.36 / np.sqrt(B)
        np.testing.assert_allclose(fast[:, i].mean(), res.precision_mean[i], atol=5 * res.precision_std[i] / np.sqrt(B))


def test_monte_carlo_interval_is_seeded_quantiles():
    rng = np.random.default_rng(5)
    pos, neg = _tied_sample(rng, 20, 60, step=0.1)
    r = np.array([2, 10, 18])
    low, high = bootstrap_precision_interval(pos, neg, r, confidence_level=0.9, n_boot=300, rng=8)
    values = bootstrap_precision_values(pos, neg, r, n_boot=300, rng=8)
    np.testing.assert_allclose(low, np.quantile(values, 0.05, axis=0), rtol=1e-15)
    np.testing.assert_allclose(high, np.quantile(values, 0.95, axis=0), rtol=1e-15)
    assert np.all(low <= high)


def test_wald_series_is_precision_ci_wald():
    rng = np.random.default_rng(9)
    pos, neg = _tied_sample(rng, 30, 300, step=0.1)
    y, s = _labels(30, 300), np.r_[pos, neg]
    pct = rocci.precision_ci(y, s, recall=[0.1, 0.5, 0.9], confidence_level=0.9)
    wald = rocci.precision_ci(y, s, recall=[0.1, 0.5, 0.9], confidence_level=0.9, method="wald")
    low, high = wald_precision_interval(pct.precision_mean, pct.precision_std, 0.9)
    np.testing.assert_allclose(low, wald.precision_low, rtol=0, atol=1e-15)
    np.testing.assert_allclose(high, wald.precision_high, rtol=0, atol=1e-15)


def test_score_series_is_precision_ci_score():
    rng = np.random.default_rng(10)
    pos, neg = _tied_sample(rng, 30, 300, step=0.1)
    y, s = _labels(30, 300), np.r_[pos, neg]
    pct = rocci.precision_ci(y, s, recall=[0.1, 0.5, 0.9, 1.0], confidence_level=0.9)
    score = rocci.precision_ci(y, s, recall=[0.1, 0.5, 0.9, 1.0], confidence_level=0.9, method="score")
    low, high = score_precision_interval(pct.precision_mean, pct.precision_std, pct.r, 0.9)
    np.testing.assert_allclose(low, score.precision_low, rtol=0, atol=1e-15)
    np.testing.assert_allclose(high, score.precision_high, rtol=0, atol=1e-15)


# ---------------------------------------------------------------------------
# (c) the preset
# ---------------------------------------------------------------------------


def test_small_run_is_tidy():
    exp = EXPERIMENTS["pr_recall"]
    assert exp.x == "recall" and exp.x_label == "Recall" and exp.kind == "simulation"
    assert exp.title == "Precision at fixed recall: coverage, 1%/10%/50% positives"
    assert exp.choice == exp.short and len(exp.short) <= 40 and exp.label == exp.title
    assert exp.defaults["priors"] == (0.01, 0.1, 0.5) and exp.defaults["recall"] == tuple(np.arange(1, 10) / 10)
    calls = []
    study = run_experiment("pr_recall", small=True, progress=lambda f, m: calls.append((f, m)))
    f = study.to_frame()
    assert list(f.columns) == COLUMNS
    assert list(dict.fromkeys(f["panel"])) == ["10% positives (40 of 400)", "50% positives (200 of 400)"]
    assert set(f["series"]) == set(PR_METHODS.values())
    for _, part in f.groupby(["panel", "series"]):
        assert list(part["x"]) == [0.3, 0.5, 0.7]
    assert ((f["coverage"] >= 0) & (f["coverage"] <= 1)).all()
    assert (f["kind"] == "simulation").all() and (f["replicates"] == 40).all() and (f["target"] == 0.95).all()
    np.testing.assert_allclose(f["se"], np.sqrt(f["coverage"] * (1 - f["coverage"]) / 40))
    assert calls[-1][0] == 1.0 and all(0 <= c <= 1 for c, _ in calls)
    assert any("10% positives" in m for _, m in calls) and any("50% positives" in m for _, m in calls)
    # Seeded: the same run gives the same numbers; another seed other numbers.
    pd.testing.assert_frame_equal(run_experiment("pr_recall", small=True).frame, study.frame)
    assert not run_experiment("pr_recall", small=True, seed=1).frame["coverage"].equals(f["coverage"])
    fig = coverage_figure(study)
    assert fig.layout.xaxis.title.text == "Recall"
    assert {t.meta[0] for t in fig.data} == {"target", "simulation"}


def test_preset_rows_are_the_simulation():
    """The preset relabels simulate_precision_coverage: binormal N(μ, 1)/N(0, 1), round(π·n) positives."""
    study = run_experiment("pr_recall", priors=[0.05], n=250, mu=1.0, recall=[0.2, 0.6], replicates=6, n_boot=50,
                           methods=["bootstrap", "percentile"], seed=4)
    pop = P.Population(P.normal(1.0, 1), P.normal(0, 1), 0.05)  # 12.5 rounds up to 13 positives
    ref = simulate_precision_coverage(pop, 13, 237, [0.2, 0.6], methods=["bootstrap", "percentile"], replicates=6,
                                      n_boot=50, seed=4)
    f = study.frame
    assert set(f["panel"]) == {"5% positives (13 of 250)"}
    assert list(f["series"]) == [PR_METHODS[m] for m in ref["method"]]
    np.testing.assert_array_equal(f["coverage"], ref["coverage"])
    np.testing.assert_array_equal(ref["level"][:2], [3 / 13, 8 / 13])  # recall levels r/n+ as rocci maps them
    np.testing.assert_allclose(ref["truth"], true_precision_at_recall(pop, ref["level"], prior=13 / 250))


def test_bad_parameters():
    with pytest.raises(rocci.InputError, match="at least one positive"):
        run_experiment("pr_recall", small=True, priors=[0.001])
    with pytest.raises(rocci.InputError, match="strictly between 0 and 1"):
        run_experiment("pr_recall", small=True, priors=[1.0])
    with pytest.raises(rocci.InputError, match="Unknown method"):
        run_experiment("pr_recall", small=True, methods=["kernel"])
    with pytest.raises(rocci.InputError, match="no parameter"):
        run_experiment("pr_recall", small=True, thetas=[1.0])


# ---------------------------------------------------------------------------
# (d) a statistical property
# ---------------------------------------------------------------------------


@pytest.mark.montecarlo
def test_exact_and_monte_carlo_percentile_agree_and_hold_the_level():
    """The Monte Carlo percentile bootstrap estimates the exact percentile interval, so on the same test sets the
    two cover equally often up to Monte Carlo noise: the paired difference of their coverage (pooled over the
    levels) is within 3.5 of its standard errors.  And at 50% positives (200 per test set) the exact interval
    holds its level: pooled coverage within 4 binomial standard errors (of R test sets, the levels being
    correlated) of 95%.  Both could be false: a Monte Carlo statistic that differs from rocci's (another r, ties
    counted otherwise), or a wrong target, moves one series away from the other or from the level."""
    R, n_pos, n_neg, level = 150, 200, 200, 0.95
    pop = P.Population(P.normal(1.5, 1), P.normal(0, 1), 0.5)
    recall = np.array([0.3, 0.5, 0.7])
    r = recall_levels(recall, n_pos)
    target = true_precision_at_recall(pop, r / n_pos, prior=0.5)
    rng = np.random.default_rng(2024)
    pos, neg = pop.sample(n_pos, n_neg, rng, size=R)
    exact = np.empty((R, r.size), dtype=bool)
    mc = np.empty((R, r.size), dtype=bool)
    for i in range(R):
        res = rocci.precision_ci(_labels(n_pos, n_neg), np.r_[pos[i], neg[i]], recall=recall, confidence_level=level)
        exact[i] = (res.precision_low <= target) & (target <= res.precision_high)
        lo, hi = bootstrap_precision_interval(pos[i], neg[i], r, confidence_level=level, n_boot=400, rng=rng)
        mc[i] = (lo <= target) & (target <= hi)
    d = (exact.astype(float) - mc).mean(axis=1)  # per test set, pooled over the levels
    se_d = d.std(ddof=1) / np.sqrt(R)
    assert abs(d.mean()) <= 3.5 * se_d + 1e-12, (d.mean(), se_d)
    c = exact.mean()
    assert abs(c - level) <= 4 * np.sqrt(level * (1 - level) / R), c
