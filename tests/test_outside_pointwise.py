"""Pointwise tables checked from outside (issue 34): a direct bootstrap of rows, the frame's own columns.

For each row of ``threshold_ci``, ``cost_ci`` and ``precision_ci`` the share of resampled data sets whose
statistic lies in ``[low, high]`` is compared with the exact bootstrap probability of that interval
(``ThresholdCI.bootstrap_probability()``, or the sum of ``distribution(i)`` over the interval) and, for the
percentile intervals, with the level.  Wilson, Wald, Agresti–Coull and score intervals are intervals for the
true value built on the exact bootstrap moments: their bootstrap probability is reported, not promised.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import rocci
from rocci.cost import cost_ci
from tests.outside import counts_at_thresholds, issue_sample, share

DRAWS = 40_000


def _ties():
    return issue_sample()


def _untied():
    rng = np.random.default_rng(8)
    s = np.r_[rng.normal(1.0, 1, 45), rng.normal(0, 1, 70)]
    return np.r_[np.ones(45, bool), np.zeros(70, bool)], s


def _rng(*key) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(map(str, key)).encode()))


def _law_mass(values, probs, low, high):
    return float(probs[(values >= low - 1e-12) & (values <= high + 1e-12)].sum())


@pytest.mark.parametrize("m", [None, (50, 80)])
@pytest.mark.parametrize("region", ["rectangle", "marginal", "ellipse"])
@pytest.mark.parametrize("method", ["wilson", "percentile", "wald", "agresti-coull"])
def test_threshold_ci_boxes_from_outside(method, region, m):
    y, s = _ties()
    thresholds = np.quantile(s, np.linspace(0.02, 0.98, 12))
    res = rocci.threshold_ci(y, s, thresholds=thresholds, method=method, region=region, confidence_level=0.9, m=m)
    f = res.to_frame()
    rng = _rng("thr", method, region, m)
    t = f["threshold"].to_numpy()
    tpr = counts_at_thresholds(s[y], t, res.m_pos, DRAWS, rng) / res.m_pos
    fpr = counts_at_thresholds(s[~y], t, res.m_neg, DRAWS, rng) / res.m_neg
    if region == "ellipse":  # the ellipse's semi-axes are attributes (the frame holds its bounding box)
        inside = ((fpr - res.fpr) / np.where(res.fpr_radius > 0, res.fpr_radius, np.inf)) ** 2 + (
            (tpr - res.tpr) / np.where(res.tpr_radius > 0, res.tpr_radius, np.inf)) ** 2 <= 1 + 1e-12
        inside &= np.where(res.fpr_radius > 0, True, np.isclose(fpr, res.fpr))
        inside &= np.where(res.tpr_radius > 0, True, np.isclose(tpr, res.tpr))
    else:
        inside = ((tpr >= f["tpr_low"].to_numpy() - 1e-12) & (tpr <= f["tpr_high"].to_numpy() + 1e-12)
                  & (fpr >= f["fpr_low"].to_numpy() - 1e-12) & (fpr <= f["fpr_high"].to_numpy() + 1e-12))
    cov = inside.mean(axis=0)
    se = np.sqrt(np.maximum(cov * (1 - cov), 1e-6) / DRAWS)
    exact = res.bootstrap_probability()
    assert np.all(np.abs(cov - exact) <= 4.5 * se), np.c_[cov, exact]
    if method == "percentile" and region != "ellipse":
        target = 0.9 if region == "rectangle" else 0.81  # marginal: each axis at 0.9, independent axes
        assert np.all(exact >= target - 1e-12)
        assert np.all(cov >= target - 3 * se)


def _cost_draws(y, s, thr, w, bootstrap, sizes, rng):
    """Resampled normalised costs at one threshold per w (rows resampled directly)."""
    pos, neg = s[y], s[~y]
    out = np.empty((DRAWS, w.size))
    if bootstrap == "stratified":
        m_pos, m_neg = sizes
        tp = counts_at_thresholds(pos, thr, m_pos, DRAWS, rng)
        fp = counts_at_thresholds(neg, thr, m_neg, DRAWS, rng)
        return w * (m_pos - tp) / m_pos + (1 - w) * fp / m_neg
    m = sizes
    pi_pos, pi_neg = y.mean(), 1 - y.mean()
    idx = rng.integers(0, s.size, size=(DRAWS, m))
    ys, ss = y[idx], s[idx]
    for j in range(w.size):
        fn = np.sum(ys & (ss < thr[j]), axis=1)
        fp = np.sum(~ys & (ss >= thr[j]), axis=1)
        out[:, j] = w[j] * fn / (m * pi_pos) + (1 - w[j]) * fp / (m * pi_neg)
    return out


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
@pytest.mark.parametrize("method", ["agresti-coull", "wald", "percentile"])
def test_cost_ci_intervals_from_outside(method, bootstrap):
    y, s = _ties()
    w = np.linspace(0.1, 0.9, 9)
    res = cost_ci(y, s, w=w, method=method, bootstrap=bootstrap, confidence_level=0.9)
    f = res.to_frame()
    sizes = (res.m_pos, res.m_neg) if bootstrap == "stratified" else res.m_total
    c = _cost_draws(y, s, f["threshold"].to_numpy(), f["w"].to_numpy(), bootstrap, sizes, _rng("cost", method, bootstrap))
    inside = (c >= f["cost_low"].to_numpy() - 1e-12) & (c <= f["cost_high"].to_numpy() + 1e-12)
    cov = inside.mean(axis=0)
    se = np.sqrt(np.maximum(cov * (1 - cov), 1e-6) / DRAWS)
    exact = np.array([_law_mass(*res.distribution(i), f["cost_low"][i], f["cost_high"][i]) for i in range(len(f))])
    assert np.all(np.abs(cov - exact) <= 4.5 * se), np.c_[cov, exact]
    if method == "percentile":
        assert np.all(exact >= 0.9 - 1e-9) and np.all(cov >= 0.9 - 3 * se)


@pytest.mark.parametrize("method", ["percentile", "score", "wald"])
def test_precision_ci_at_thresholds_from_outside(method):
    y, s = _ties()
    thresholds = np.quantile(s, np.linspace(0.1, 0.95, 10))
    res = rocci.precision_ci(y, s, thresholds=thresholds, method=method, confidence_level=0.9)
    f = res.to_frame()
    rng = _rng("prec", method)
    t = f["threshold"].to_numpy()
    tp = counts_at_thresholds(s[y], t, 70, DRAWS, rng)
    fp = counts_at_thresholds(s[~y], t, 95, DRAWS, rng)
    defined = tp + fp > 0  # the law is conditional on a defined precision
    prec = np.where(defined, tp / np.maximum(tp + fp, 1), np.nan)
    inside = (prec >= f["precision_low"].to_numpy() - 1e-12) & (prec <= f["precision_high"].to_numpy() + 1e-12)
    cov = inside.sum(axis=0) / defined.sum(axis=0)
    se = np.sqrt(np.maximum(cov * (1 - cov), 1e-6) / defined.sum(axis=0))
    exact = np.array([_law_mass(*res.distribution(i), f["precision_low"][i], f["precision_high"][i])
                      for i in range(len(f))])
    assert np.all(np.abs(cov - exact) <= 4.5 * se), np.c_[cov, exact]
    if method == "percentile":
        assert np.all(exact >= 0.9 - 1e-9) and np.all(cov >= 0.9 - 3 * se)


def test_precision_ci_at_recall_levels_from_outside():
    """Precision r/(r + FP*) at the r-th largest resampled positive (untied classes)."""
    y, s = _untied()
    res = rocci.precision_ci(y, s, recall=[0.2, 0.5, 0.8], confidence_level=0.9)
    f = res.to_frame()
    rng = _rng("recall")
    pos, neg = s[y], s[~y]
    pd_ = np.sort(rng.choice(pos, size=(DRAWS, pos.size)), axis=1)[:, ::-1]
    r = f["r"].to_numpy().astype(int)
    t_r = pd_[:, r - 1]
    nd = np.sort(rng.choice(neg, size=(DRAWS, neg.size)), axis=1)
    fp = neg.size - np.stack([np.searchsorted(row, t, side="left") for row, t in zip(nd, t_r)])
    prec = r / (r + fp)
    inside = (prec >= f["precision_low"].to_numpy() - 1e-12) & (prec <= f["precision_high"].to_numpy() + 1e-12)
    cov = inside.mean(axis=0)
    se = np.sqrt(np.maximum(cov * (1 - cov), 1e-6) / DRAWS)
    exact = np.array([_law_mass(*res.distribution(i), f["precision_low"][i], f["precision_high"][i])
                      for i in range(len(f))])
    assert np.all(np.abs(cov - exact) <= 4.5 * se), np.c_[cov, exact]
    assert np.all(exact >= 0.9 - 1e-9) and np.all(cov >= 0.9 - 3 * se)
