"""rocci.precision's exact laws against a seeded Monte Carlo bootstrap (resampled instances) at n = 200 and
n = 2,000: means, sds and percentile bounds within a few Monte Carlo standard errors."""

from __future__ import annotations

import numpy as np
import pytest

from rocci.precision import compare_precision, metric_ci, precision_ci

pytestmark = pytest.mark.montecarlo

Z = 4.5  # Monte Carlo standard errors allowed (each check; ~1e-5 chance of a false alarm)
ALPHA = 0.05


def _data(n, share, seed, digits, rho=None):
    rng = np.random.default_rng(seed)
    n_pos = int(n * share)
    y = np.r_[np.ones(n_pos, int), np.zeros(n - n_pos, int)]
    a = rng.normal(0, 1, n) + 1.2 * y
    if rho is None:
        return y, np.round(a, digits)
    b = rho * a + np.sqrt(1 - rho**2) * rng.normal(0, 1, n) + 0.3 * y
    return y, np.round(a, digits), np.round(b, digits)


def _check_sample(res, i, sample, stem):
    """Exact mean, sd and percentile bounds at row i against the Monte Carlo replicates ``sample``."""
    sample = sample[~np.isnan(sample)]
    b = sample.size
    frame = res.to_frame()
    mean, sd = frame[f"{stem}_mean"][i], frame[f"{stem}_std"][i]
    assert abs(sample.mean() - mean) < Z * sd / np.sqrt(b) + 1e-12
    assert abs(sample.std() - sd) < Z * sd * np.sqrt(2.0 / b) * 1.5 + 1e-12  # kurtosis margin
    values, probs = res.distribution(i)
    cdf = np.cumsum(probs)
    for q, col in ((ALPHA / 2, f"{stem}_low"), (1 - ALPHA / 2, f"{stem}_high")):
        bound = frame[col][i]
        # The exact bound is the smallest value whose CDF reaches q: the replicates' share below it must be
        # under q, and at or below it at least q, within Monte Carlo error.
        se = Z * np.sqrt(q * (1 - q) / b)
        assert np.mean(sample < bound - 1e-12) < q + se
        assert np.mean(sample <= bound + 1e-12) > q - se
        j = np.searchsorted(values, bound - 1e-12)
        assert cdf[j] >= q - 1e-9 and (j == 0 or cdf[j - 1] < q + 1e-9)


def _stratified_counts(rng, y, s, t, b, m=None):
    pos, neg = np.sort(s[y == 1])[::-1], np.sort(s[y == 0])[::-1]
    m_pos, m_neg = m or (pos.size, neg.size)
    ip = rng.integers(0, pos.size, (b, m_pos))
    ineg = rng.integers(0, neg.size, (b, m_neg))
    return (pos[ip] >= t).sum(1), (neg[ineg] >= t).sum(1), m_pos, m_neg


@pytest.mark.parametrize("n, share, digits, seed, b", [(200, 0.3, 1, 1, 40_000), (2000, 0.1, 2, 2, 8_000)])
def test_threshold_metrics_stratified(n, share, digits, seed, b):
    y, s = _data(n, share, seed, digits)
    t = np.quantile(s, [0.95, 0.7])
    rng = np.random.default_rng(seed + 100)
    for metric in ("precision", "f1", "mcc", "lift"):
        res = metric_ci(y, s, metric=metric, thresholds=t)
        for i, ti in enumerate(t):
            tp, fp, m_pos, m_neg = _stratified_counts(rng, y, s, ti, b)
            fn, tn = m_pos - tp, m_neg - fp
            with np.errstate(divide="ignore", invalid="ignore"):
                sample = {
                    "precision": tp / (tp + fp),
                    "f1": 2 * tp / (2 * tp + fp + fn),
                    "mcc": (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)),
                    "lift": tp / (tp + fp) / (m_pos / (m_pos + m_neg)),
                }[metric]
            _check_sample(res, i, sample.astype(float), metric)


@pytest.mark.parametrize("n, share, digits, seed, b", [(200, 0.3, 1, 3, 40_000), (2000, 0.1, 2, 4, 6_000)])
def test_precision_full_bootstrap(n, share, digits, seed, b):
    y, s = _data(n, share, seed, digits)
    t = np.quantile(s, [0.97, 0.8])
    res = precision_ci(y, s, thresholds=t, bootstrap="full")
    rng = np.random.default_rng(seed + 100)
    idx = rng.integers(0, n, (b, n))
    for i, ti in enumerate(t):
        pred, lab = s[idx] >= ti, y[idx] == 1
        with np.errstate(divide="ignore", invalid="ignore"):
            sample = (pred & lab).sum(1) / pred.sum(1)
        _check_sample(res, i, sample, "precision")
        assert abs(np.mean(pred.sum(1) == 0) - res.p_undefined[i]) < Z * np.sqrt(res.p_undefined[i] / b) + 1e-12


def test_f1_full_bootstrap_n200():
    y, s = _data(200, 0.3, 1, 5)
    t = np.quantile(s, [0.9])
    res = metric_ci(y, s, metric="f1", thresholds=t, bootstrap="full")
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 200, (40_000, 200))
    pred, lab = s[idx] >= t[0], y[idx] == 1
    tp, fp, fn = (pred & lab).sum(1), (pred & ~lab).sum(1), (~pred & lab).sum(1)
    _check_sample(res, 0, 2 * tp / (2 * tp + fp + fn), "f1")


def _recall_sample(rng, pos, neg, r, b, m_pos=None, m_neg=None):
    """Precision at recall r/m+ in each replicate: T_r = the r-th largest positive draw."""
    m_pos, m_neg = m_pos or pos.size, m_neg or neg.size
    draws = pos[rng.integers(0, pos.size, (b, m_pos))]
    t_r = -np.partition(-draws, r - 1, axis=1)[:, r - 1]
    neg_sorted = np.sort(neg)
    p_ge = (neg.size - np.searchsorted(neg_sorted, t_r, side="left")) / neg.size
    # FP* = negative draws >= T_r: resample the negatives and count.
    ineg = neg[rng.integers(0, neg.size, (b, m_neg))]
    fp = (ineg >= t_r[:, None]).sum(1)
    assert p_ge.shape == fp.shape
    return r / (r + fp)


@pytest.mark.parametrize("n, share, digits, seed, b", [(200, 0.3, 1, 6, 30_000), (2000, 0.1, 2, 7, 6_000)])
def test_precision_at_recall(n, share, digits, seed, b):
    y, s = _data(n, share, seed, digits)
    res = precision_ci(y, s, recall=[0.2, 0.5, 0.8])
    rng = np.random.default_rng(seed + 100)
    for i, r in enumerate(res.r):
        sample = _recall_sample(rng, s[y == 1], s[y == 0], int(r), b)
        _check_sample(res, i, sample, "precision")


def _paired_sample(rng, y, sa, sb, b, ta=None, tb=None, r=None, metric="precision"):
    pos = np.flatnonzero(y == 1)
    neg = np.flatnonzero(y == 0)
    ip = pos[rng.integers(0, pos.size, (b, pos.size))]
    ineg = neg[rng.integers(0, neg.size, (b, neg.size))]
    if r is not None:
        ta = -np.partition(-sa[ip], r - 1, axis=1)[:, r - 1:r]
        tb = -np.partition(-sb[ip], r - 1, axis=1)[:, r - 1:r]
        tpa = tpb = r
    else:
        tpa, tpb = (sa[ip] >= ta).sum(1), (sb[ip] >= tb).sum(1)
    fpa, fpb = (sa[ineg] >= ta).sum(1), (sb[ineg] >= tb).sum(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric == "precision":
            return tpa / (tpa + fpa) - tpb / (tpb + fpb)
        return 2 * tpa / (tpa + fpa + pos.size) - 2 * tpb / (tpb + fpb + pos.size)


@pytest.mark.parametrize("n, share, digits, seed, b, q",
                         [(200, 0.3, 1, 8, 30_000, 0.8), (2000, 0.1, 2, 9, 4_000, 0.99)])
def test_paired_thresholds(n, share, digits, seed, b, q):
    y, sa, sb = _data(n, share, seed, digits, rho=0.7)
    ta, tb = np.quantile(sa, q), np.quantile(sb, q)
    rng = np.random.default_rng(seed + 100)
    for metric in ("precision", "f1"):
        res = compare_precision(y, sa, sb, thresholds_a=[ta], thresholds_b=[tb], metric=metric)
        sample = _paired_sample(rng, y, sa, sb, b, ta=ta, tb=tb, metric=metric)
        _check_sample(res, 0, sample, f"delta_{metric}")
        better = np.mean(sample[~np.isnan(sample)] > 0)
        p = res.p_a_better[0]
        assert abs(better - p) < Z * np.sqrt(p * (1 - p) / b) + 1e-12


# n = 2,000 is left out: the paired law at a recall level costs one joint law of (FP*_a, FP*_b) per
# cell triple of the negatives (hundreds to thousands of them), ~15 s at n = 200 and minutes at 2,000.
@pytest.mark.parametrize("n, share, digits, seed, b", [(200, 0.3, 1, 10, 20_000)])
def test_paired_recall(n, share, digits, seed, b):
    y, sa, sb = _data(n, share, seed, digits, rho=0.7)
    res = compare_precision(y, sa, sb, recall=[0.5], metric="precision")
    rng = np.random.default_rng(seed + 100)
    sample = _paired_sample(rng, y, sa, sb, b, r=int(res.r[0]))
    _check_sample(res, 0, sample, "delta_precision")
    p = res.p_a_better[0]
    assert abs(np.mean(sample > 0) - p) < Z * np.sqrt(p * (1 - p) / b) + 1e-12
