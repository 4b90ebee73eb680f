"""The faster routes of the precision at recall levels (issue 14 speed work) give the results of the plain
definitions: quantiles of the binomial mixture with saturated components skipped (against
rocci._core.exact.mixture_quantile), the order statistic's law with anchored density ratios (against
rocci._core.exact.order_statistic_laws), the windows' left-out mass (against the binomial CDF), and
precision_at_recall as a whole (against a plain reference: one order-statistic law per level, every component
summed over its window, rocci._core.exact's quantile search); and a ScoreCounts table is used as it is."""

from __future__ import annotations

import numpy as np
import pytest

from rocci._core.counts import ScoreCounts
from rocci._core.exact import (QUANTILE_TOL, binomial_cdf, binomial_pmf, compress_mixture, mixture_moments,
                         mixture_quantile, mixture_skewness, order_statistic_law, order_statistic_laws)
from rocci.precision import metric_ci, pr_curve, precision_ci
from rocci.precision import recall as recall_mod
from rocci.precision._laws import (CELL_EPS, SaturatedMixture, bernstein_bounds, bernstein_window,
                                   order_statistic_weights, window_tails)
from rocci.precision.recall import recall_levels

TOL = 1e-12


def _mixtures(seed):
    rng = np.random.default_rng(seed)
    for m in (1, 2, 7, 60, 900, 40_000):
        for _ in range(6):
            j = int(rng.integers(1, 400))
            q = np.unique(np.round(rng.beta(2, 5, j), int(rng.integers(2, 6))))
            if rng.random() < 0.3:
                q = np.unique(np.r_[0.0, q])
            if rng.random() < 0.3:
                q = np.unique(np.r_[q, 1.0])
            w = rng.gamma(0.5, 1, q.size)
            w *= (1 - 1e-16) / w.sum()
            yield m, w, q


@pytest.mark.parametrize("seed", [0, 1])
def test_saturated_mixture_quantiles_equal_exact(seed):
    for m, w, q in _mixtures(seed):
        mean, var = mixture_moments(w, q, m)
        sd = np.sqrt(max(var, 0.0))
        skew = mixture_skewness(w, q, m, mean, sd)
        law = SaturatedMixture(w, q, m)
        for level in (0.0005, 0.025, 0.3, 0.5, 0.975, 0.9999):
            qq = level + 2 * QUANTILE_TOL
            want = mixture_quantile(qq, w, q, m, mean, sd, skew=skew)
            assert law.quantile(qq, mean, sd, skew) == want
            # Far-off guesses (a wrong mean and sd): the bracketing and bisection find the same value.
            assert law.quantile(qq, 1 - mean, 3 * sd + 0.1, 0.0) == want
            assert law.quantile(qq, mean, 0.0, 0.0) == want


def test_saturated_cdf_equals_the_binomial_cdfs():
    rng = np.random.default_rng(3)
    m = 50_000
    q = np.sort(rng.uniform(0.1, 0.2, 500))
    w = rng.random(500)
    law = SaturatedMixture(w, q, m)
    for l in (0, 4000, 5000, 7500, 9000, 12_000, m - 1, m):
        want = float(w @ binomial_cdf(l, m, q))
        assert abs(law.cdf(l) - want) < 1e-15 * w.sum() + 1e-16


@pytest.mark.parametrize("n, m", [(99_974, None), (20_000, None), (3_000, None), (300, None), (40, None),
                                  (20_000, 5_000), (8_000, 40_000)])
def test_order_statistic_weights_equal_exact(n, m):
    m = n if m is None else m
    levels = np.round(np.linspace(0.01, 0.99, 99), 2)
    r = np.r_[recall_levels(levels, m), [1, m, 5, 5]]
    k0, w0, off0, t0 = order_statistic_laws(r, m, n)
    k1, w1, off1, t1 = order_statistic_weights(r, m, n)
    np.testing.assert_array_equal(k0, k1)
    np.testing.assert_array_equal(off0, off1)
    big = w0 > 1e-12
    np.testing.assert_allclose(w1[big], w0[big], rtol=1e-11, atol=0)
    np.testing.assert_allclose(w1, w0, rtol=0, atol=1e-14)
    np.testing.assert_allclose(t1, t0, rtol=1e-9, atol=1e-25)


def test_window_tails_are_the_binomial_tails():
    rng = np.random.default_rng(4)
    for m in (1, 3, 50, 900, 20_000, 900_000):
        p = np.r_[0.0, 1.0, rng.uniform(0, 1, 300), rng.integers(1, 1000, 200) / 1000]
        lo, hi, left = bernstein_window(m, p)
        inner = (p > 0) & (p < 1)
        q = np.where(inner, p, 0.5)
        want = np.where(inner, binomial_cdf(lo - 1, m, q) + binomial_cdf(m - hi - 1, m, 1 - q), 0.0)
        np.testing.assert_allclose(left, want, rtol=1e-10, atol=0)
        assert (left <= 2 * CELL_EPS).all()
        np.testing.assert_array_equal(window_tails(m, p, lo, hi), left)
        lo2, hi2, _ = bernstein_bounds(m, p, CELL_EPS)
        np.testing.assert_array_equal(lo, lo2)
        np.testing.assert_array_equal(hi, hi2)


def _reference_recall(y, s, recall, confidence_level=0.95):
    """precision_at_recall by its definition, as the code before the speed work computed it: per level the
    order statistic's law, every component's binomial summed over its Bernstein window (boost pmf at each
    point), rocci._core.exact.mixture_quantile for the percentile bounds."""
    pos, neg = np.sort(s[y == 1]), np.sort(s[y == 0])
    n_pos, n_neg = pos.size, neg.size
    s_desc = pos[::-1]
    alpha = 1 - confidence_level
    out = []
    for r in recall_levels(recall, n_pos):
        r = int(r)
        k, w, trunc_k = order_statistic_law(r, n_pos, n_pos)
        q = (n_neg - np.searchsorted(neg, s_desc[k - 1], side="left")) / n_neg
        cw, cq = compress_mixture(w, q)
        k_obs = int(np.clip(np.ceil(np.round(r / n_pos * n_pos, 9)), 1, n_pos))
        centre = k_obs / (k_obs + n_neg - np.searchsorted(neg, s_desc[k_obs - 1], side="left"))
        lo, hi, _ = bernstein_window(n_neg, cq)
        s1 = s2 = 0.0
        for wj, qj, a, b in zip(cw, cq, lo, hi):
            f = np.arange(a, b + 1)
            pmf = binomial_pmf(f, n_neg, qj)
            d = r / (r + f) - centre
            s1 += wj * float(pmf @ d)
            s2 += wj * float(pmf @ (d * d))
        mean_d = s1 / cw.sum()
        var = s2 / cw.sum() - mean_d**2
        fm, fv = mixture_moments(cw, cq, n_neg)
        skew = mixture_skewness(cw, cq, n_neg, fm, np.sqrt(fv))
        f_hi = mixture_quantile(1 - alpha / 2 + 2 * QUANTILE_TOL, cw, cq, n_neg, fm, np.sqrt(fv), skew=skew)
        f_lo = mixture_quantile(alpha / 2 + 2 * QUANTILE_TOL, cw, cq, n_neg, fm, np.sqrt(fv), skew=skew)
        out.append((centre + mean_d, np.sqrt(var), r / (r + f_hi), r / (r + f_lo)))
    return np.array(out)


@pytest.mark.parametrize("n, share, digits, seed", [(40_000, 0.2, 2, 1), (30_000, 0.05, None, 2),
                                                    (20_000, 0.5, 1, 3)])
def test_precision_at_recall_equals_the_reference(n, share, digits, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    s = rng.normal(0, 1, n) + 1.5 * y
    if digits is not None:
        s = np.round(s, digits)
    recall = [0.01, 0.1, 0.35, 0.6, 0.9, 0.99]
    ref = _reference_recall(y, s, recall)
    f = precision_ci(y, s, recall=recall).to_frame()
    np.testing.assert_allclose(f["precision_mean"], ref[:, 0], rtol=0, atol=TOL)
    np.testing.assert_allclose(f["precision_std"], ref[:, 1], rtol=0, atol=TOL)
    np.testing.assert_array_equal(f["precision_low"], ref[:, 2])
    np.testing.assert_array_equal(f["precision_high"], ref[:, 3])
    assert (f["truncated_mass"] < 1e-15).all()


def test_component_moments_blocks_and_work_arrays(monkeypatch):
    """Many rows (gathered by index) and few (copied as slices), in several blocks, give the same sums."""
    rng = np.random.default_rng(5)
    m, r, centre = 5_000, 700, 0.3
    q = np.sort(rng.uniform(0.02, 0.4, 300))
    h1, h2, left = recall_mod._component_moments(r, q, m, centre)
    monkeypatch.setattr(recall_mod, "_FEW_ROWS", 10**9)
    monkeypatch.setattr(recall_mod, "_BLOCK", 50_000)
    work = recall_mod._Work()
    g1, g2, gl = recall_mod._component_moments(r, q, m, centre, work)
    g1b, g2b, _ = recall_mod._component_moments(r, q[:7], m, centre, work)  # the work arrays reused
    np.testing.assert_allclose(g1, h1, rtol=0, atol=1e-15)
    np.testing.assert_allclose(g2, h2, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(gl, left)
    np.testing.assert_allclose(g1b, h1[:7], rtol=0, atol=1e-15)
    for j in (0, 150, 299):
        lo, hi, _ = bernstein_window(m, q[j])
        f = np.arange(lo, hi + 1)
        pmf = binomial_pmf(f, m, q[j])
        d = r / (r + f) - centre
        assert abs(h1[j] - pmf @ d) < 1e-15 and abs(h2[j] - pmf @ (d * d)) < 1e-15


def _table(y, s):
    values = np.unique(s)
    n_pos = np.bincount(np.searchsorted(values, s[y == 1]), minlength=values.size)
    n_neg = np.bincount(np.searchsorted(values, s[y == 0]), minlength=values.size)
    return ScoreCounts.from_counts(values, n_pos, n_neg)


@pytest.mark.parametrize("n, digits", [(3_000, 1), (20_000, 2)])
def test_score_counts_table_is_used_as_it_is(n, digits):
    rng = np.random.default_rng(6)
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(0, 1, n) + y, digits)
    counts = _table(y, s)
    t = np.quantile(s, [0.1, 0.5, 0.95])
    pairs = [
        (precision_ci(y, s, recall=[0.05, 0.5, 0.9, 1.0]), precision_ci(counts, recall=[0.05, 0.5, 0.9, 1.0])),
        (precision_ci(y, s, recall=[0.3, 0.8], method="score"), precision_ci(counts, recall=[0.3, 0.8],
                                                                             method="score")),
        (precision_ci(y, s, thresholds=t), precision_ci(counts, thresholds=t)),
        (precision_ci(y, s, thresholds=t, bootstrap="full"), precision_ci(counts, thresholds=t, bootstrap="full")),
        (metric_ci(y, s, metric="mcc", thresholds=t), metric_ci(counts, metric="mcc", thresholds=t)),
    ]
    for a, b in pairs:
        assert a.to_frame().equals(b.to_frame())
    assert precision_ci(y, s, thresholds=t[:1]).to_frame().equals(precision_ci(counts, thresholds=t[:1]).to_frame())
    assert pr_curve(y, s).to_frame().equals(pr_curve(counts).to_frame())
    v1, p1 = pairs[0][0].distribution(1)
    v2, p2 = pairs[0][1].distribution(1)
    np.testing.assert_array_equal(v1, v2)
    np.testing.assert_array_equal(p1, p2)
    assert counts._pos is None and counts._neg is None  # never expanded to one row per instance


def test_a_large_table_is_never_expanded():
    """~10^7 instances in 500 rows: the precision functions answer from the distinct scores."""
    rng = np.random.default_rng(8)
    values = np.round(np.sort(rng.random(500)), 4)
    values = np.unique(values)
    n_pos = rng.integers(0, 2_000, values.size) * (values > 0.3)
    n_neg = rng.integers(0, 20_000, values.size) * (values < 0.9)
    counts = ScoreCounts.from_counts(values, n_pos, n_neg)
    rec = precision_ci(counts, recall=[0.1, 0.5, 0.9])
    assert rec.n_pos == int(n_pos.sum()) and rec.n_neg == int(n_neg.sum())
    assert np.isfinite(rec.to_frame()[["precision_mean", "precision_low", "precision_high"]].to_numpy()).all()
    precision_ci(counts, recall=[0.5], method="score")
    precision_ci(counts, thresholds=[0.95, 0.5])
    metric_ci(counts, metric="f1", thresholds=[0.95])
    pr_curve(counts)
    assert counts._pos is None and counts._neg is None
