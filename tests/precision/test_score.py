"""The score interval of the precision (``method="score"``, at recall levels and at thresholds): its inputs
(exact mean, variance and the harmonic mean M of the predicted positives) against enumeration of every
bootstrap sample on tiny tied data and against a seeded Monte Carlo bootstrap; its bounds' properties; the
Coverage lab preset with the score series."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import rocci
from precision import oracle
from reference.datasets import TINY, as_labels
from rocci.coverage import EXPERIMENTS, run_experiment
from rocci.coverage.pr import PR_METHODS
from rocci.precision import metric_ci, precision_ci
from rocci.precision._laws import score_interval

TOL = 1e-12
ALPHA = 0.1
Z = float(special.ndtri(1 - ALPHA / 2))

STRAT = [("brief", None), ("brief", (3, 6)), ("ties", None), ("ties", (4, 3)), ("brief", (5, 3))]


@pytest.mark.parametrize("name, m", STRAT)
def test_recall_score_bounds_from_enumeration(name, m):
    """At level r/m+: e, v from every bootstrap sample, M = r/e = 1/E[1/(r + FP*)], bounds to 1e-12."""
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    m_pos = m[0] if m else len(pos)
    mp, mn = m if m else (None, None)
    res = precision_ci(y, s, recall=np.arange(1, m_pos + 1) / m_pos, m=m, confidence_level=1 - ALPHA,
                       method="score")
    assert res.method == "score"
    for i, r in enumerate(res.r):
        law, _ = oracle.recall_law(pos, neg, int(r), mp, mn)
        e, v = oracle.exact_moments(law)
        # M = r/e: the harmonic mean of the predicted positives r + FP* (E[r/(r + FP*)] = r·E[1/(r + FP*)]).
        low, high = oracle.score_bounds(e, v, int(r) / e, Z)
        assert abs(res.precision_low[i] - low) < TOL and abs(res.precision_high[i] - high) < TOL
        assert abs(res.precision_mean[i] - float(e)) < TOL


@pytest.mark.parametrize("name, m", STRAT)
def test_threshold_score_bounds_from_enumeration(name, m):
    """At thresholds (stratified): e, v and M = 1/E[1/PP* | PP* > 0] from every bootstrap sample."""
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    mp, mn = m if m else (None, None)
    res = precision_ci(y, s, m=m, confidence_level=1 - ALPHA, method="score")
    for i, t in enumerate(res.thresholds):
        law, _ = oracle.stratified_law("precision", pos, neg, t, mp, mn)
        e, v = oracle.exact_moments(law)
        inv = oracle.predicted_inverse_mean(pos, neg, t, mp, mn)
        low, high = oracle.score_bounds(e, v, 1 / inv, Z)
        assert abs(res.low[i] - low) < TOL and abs(res.high[i] - high) < TOL


@pytest.mark.parametrize("name, m", [("brief", 6), ("ties", None), ("ties", 5)])
def test_full_bootstrap_score_bounds_from_enumeration(name, m):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    res = precision_ci(y, s, m=m, confidence_level=1 - ALPHA, method="score", bootstrap="full")
    for i, t in enumerate(res.thresholds):
        law, _ = oracle.full_law("precision", pos, neg, t, m)
        e, v = oracle.exact_moments(law)
        inv = oracle.predicted_inverse_mean(pos, neg, t, full_m=m or len(pos) + len(neg))
        low, high = oracle.score_bounds(e, v, 1 / inv, Z)
        assert abs(res.low[i] - low) < TOL and abs(res.high[i] - high) < TOL


def _data(n, share, seed, digits):
    rng = np.random.default_rng(seed)
    n_pos = int(n * share)
    y = np.r_[np.ones(n_pos, int), np.zeros(n - n_pos, int)]
    return y, np.round(rng.normal(0, 1, n) + 1.2 * y, digits)


@pytest.mark.montecarlo
def test_predicted_harmonic_mean_against_monte_carlo():
    """M at thresholds against resampled instances (n = 300, ties): within a few Monte Carlo errors."""
    from rocci._core.counts import score_counts
    from rocci.precision._cells import StratifiedLaw

    y, s = _data(300, 0.3, 3, 1)
    pos, neg = s[y == 1], s[y == 0]
    counts = score_counts(pos, neg)
    rng = np.random.default_rng(11)
    b = 40_000
    ip = rng.integers(0, pos.size, (b, pos.size))
    ineg = rng.integers(0, neg.size, (b, neg.size))
    for t in np.quantile(s, [0.97, 0.8, 0.4]):
        pp = (pos[ip] >= t).sum(1) + (neg[ineg] >= t).sum(1)
        inv = 1.0 / pp[pp > 0]
        law = StratifiedLaw("precision", int(counts.n_pos_ge(t)), int(counts.n_neg_ge(t)), pos.size, neg.size,
                            pos.size, neg.size)
        assert abs(inv.mean() - 1 / law.predicted_harmonic_mean()) < 4.5 * inv.std() / np.sqrt(inv.size)


def test_bounds_properties():
    """Inside [0, 1], ordered, containing the exact mean; a width of order z²/M where the law is a point mass."""
    y, s = _data(400, 0.2, 4, 1)
    levels = np.linspace(0.01, 1, 60)
    for kw in ({"recall": levels}, {}, {"bootstrap": "full"}):
        for cl in (0.5, 0.9, 0.99):
            res = precision_ci(y, s, method="score", confidence_level=cl, **kw)
            f = res.to_frame()
            ok = f["precision_mean"].notna()
            low, high, mean = f["precision_low"][ok], f["precision_high"][ok], f["precision_mean"][ok]
            assert ((0 <= low) & (low <= mean + 1e-15) & (mean <= high + 1e-15) & (high <= 1)).all()
            assert (high - low > 0).all()
    # No negative above the top scores: every bootstrap precision is 1, the percentile interval [1, 1].
    y = np.r_[np.ones(10, int), np.zeros(30, int)]
    s = np.r_[np.linspace(5, 6, 10), np.linspace(0, 4, 30)]
    pct = precision_ci(y, s, recall=[0.5, 1.0])
    sc = precision_ci(y, s, recall=[0.5, 1.0], method="score")
    np.testing.assert_array_equal(pct.precision_low, [1, 1])
    z = float(special.ndtri(0.975))
    np.testing.assert_allclose(sc.precision_low, 1 / (1 + z * z / sc.r), rtol=1e-14)
    np.testing.assert_array_equal(sc.precision_high, [1, 1])
    thr = precision_ci(y, s, thresholds=[5.5], method="score")
    m_pp = np.arange(0, 11)  # PP* = TP* ~ Bin(10, 1/2) given PP* > 0
    w = np.array([float(special.comb(10, k)) for k in m_pp])[1:]
    harmonic = w.sum() / (w / m_pp[1:]).sum()
    np.testing.assert_allclose(thr.low, 1 / (1 + z * z / harmonic), rtol=1e-13)
    # No positive above the threshold: every defined bootstrap precision is 0; the interval is [0, z²/M/(1 + z²/M)].
    res = precision_ci(np.r_[0, 0, 1, 1, 0], [5, 4, 3, 2, 1], thresholds=[4], method="score")
    assert res.low[0] == 0 and 0 < res.high[0] < 1 and res.mean[0] == 0


def test_score_interval_is_wilson_for_a_binomial_variance():
    """With v = e(1 − e)/M the formula is Wilson's interval (rocci._core.intervals, eq. 4.2 corrected)."""
    from rocci._core.intervals import proportion_interval

    e, m = np.array([0.0, 0.1, 0.5, 0.97, 1.0]), 37
    low, high = score_interval(e, e * (1 - e) / m, np.full(e.size, m), Z)
    w_low, w_high = proportion_interval(e, m, ALPHA, "wilson")
    np.testing.assert_allclose(low, w_low, atol=1e-15)
    np.testing.assert_allclose(high, w_high, atol=1e-15)


def test_score_is_for_precision_only():
    y, s = _data(60, 0.3, 1, 1)
    with pytest.raises(rocci.InputError, match="precision only"):
        metric_ci(y, s, metric="f1", method="score")
    with pytest.raises(rocci.InputError, match="method"):
        rocci.compare_precision(y, s, s[::-1].copy(), recall=[0.5], method="score")
    assert precision_ci(y, s, method="score").method == "score"
    # The default stays the percentile interval (shared/spec/api.md).
    assert precision_ci(y, s, recall=[0.5]).method == "percentile"
    assert precision_ci(y, s).method == "percentile"


def test_preset_compares_the_score_interval_at_its_defaults():
    """The pr_recall preset at its defaults (priors, n = 2,000, μ, recall grid, methods) with a few test sets."""
    exp = EXPERIMENTS["pr_recall"]
    assert "score" in exp.defaults["methods"] and PR_METHODS["score"] == "Exact bootstrap, score"
    study = run_experiment("pr_recall", replicates=3, n_boot=40)
    f = study.frame
    assert set(f["series"]) == set(PR_METHODS.values())
    assert set(f["panel"]) == {"1% positives (20 of 2,000)", "10% positives (200 of 2,000)",
                               "50% positives (1,000 of 2,000)"}
    assert len(f) == 3 * len(PR_METHODS) * 9
    assert ((f["coverage"] >= 0) & (f["coverage"] <= 1)).all()
