"""rocci.precision's exact laws equal a full enumeration of every bootstrap sample (tiny data with ties,
m = n and m != n), to 1e-12."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from precision import oracle
from reference.datasets import TINY, as_labels
from rocci.precision import METRICS, compare_precision, metric_ci, precision_ci

TOL = 1e-12
ALPHA = 0.1  # 90% intervals: the quantiles move more on tiny laws than at 95%


def _check(res, i, law, undefined):
    values, probs = res.distribution(i)
    want_v = np.array(list(law.keys()), float)
    want_p = np.array([float(p) for p in law.values()])
    assert values.size == want_v.size
    np.testing.assert_allclose(values, want_v, atol=TOL, rtol=0)
    np.testing.assert_allclose(probs, want_p, atol=TOL, rtol=0)
    frame = res.to_frame()
    cols = [c for c in frame.columns if c.endswith("_mean")]
    stem = cols[0][: -len("_mean")]
    mean, sd = oracle.moments(law)
    assert abs(frame[f"{stem}_mean"][i] - mean) < TOL
    assert abs(frame[f"{stem}_std"][i] - sd) < TOL
    assert abs(frame[f"{stem}_low"][i] - oracle.quantile(law, ALPHA / 2)) < TOL
    assert abs(frame[f"{stem}_high"][i] - oracle.quantile(law, 1 - ALPHA / 2)) < TOL
    assert abs(frame["p_undefined"][i] - float(undefined)) < TOL
    assert frame["truncated_mass"][i] < 1e-15


STRAT = [("brief", None), ("brief", (3, 6)), ("ties", None), ("ties", (4, 3))]


@pytest.mark.parametrize("name, m", STRAT)
@pytest.mark.parametrize("metric", METRICS)
def test_stratified_metrics(name, m, metric):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    beta = 2.0
    res = metric_ci(y, s, metric=metric, confidence_level=1 - ALPHA, m=m, beta=beta)
    mp, mn = m if m else (None, None)
    for i, t in enumerate(res.thresholds):
        law, undefined = oracle.stratified_law(metric, pos, neg, t, mp, mn, beta2=Fraction(4))
        if not law:
            assert np.isnan(res.mean[i]) and abs(res.p_undefined[i] - 1) < TOL
            continue
        _check(res, i, law, undefined)


FULL = [("brief", 6), ("ties", None), ("ties", 5)]


@pytest.mark.parametrize("name, m", FULL)
@pytest.mark.parametrize("metric", ["precision", "f1", "mcc", "recall", "lift", "npv", "fbeta", "youden"])
def test_full_metrics(name, m, metric):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    res = metric_ci(y, s, metric=metric, confidence_level=1 - ALPHA, m=m, bootstrap="full", beta=0.5)
    for i, t in enumerate(res.thresholds):
        law, undefined = oracle.full_law(metric, pos, neg, t, m, beta2=Fraction(1, 4))
        if not law:
            assert abs(res.p_undefined[i] - 1) < TOL
            continue
        _check(res, i, law, undefined)


@pytest.mark.parametrize("name, m", STRAT + [("brief", (5, 3))])
def test_precision_at_recall(name, m):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    m_pos = m[0] if m else len(pos)
    res = precision_ci(y, s, recall=np.arange(1, m_pos + 1) / m_pos, m=m, confidence_level=1 - ALPHA)
    mp, mn = m if m else (None, None)
    for i, r in enumerate(res.r):
        law, undefined = oracle.recall_law(pos, neg, int(r), mp, mn)
        _check(res, i, law, undefined)


def test_precision_ci_thresholds_is_metric_ci():
    pos, neg = TINY["brief"]
    y, s = as_labels(pos, neg)
    a = precision_ci(y, s).to_frame()
    b = metric_ci(y, s, metric="precision").to_frame()
    assert a.equals(b)
    assert list(a.columns[3:8]) == ["precision", "precision_mean", "precision_std", "precision_low",
                                    "precision_high"]


def _paired_tiny(name):
    """Model A = the tiny data; model B = the same instances rescored with ties of its own."""
    pos, neg = TINY[name]
    pos_b = np.round(np.asarray(pos) * 0.5 + np.linspace(0.3, 0.1, len(pos)), 1)
    neg_b = np.round(np.asarray(neg) * 0.5 + np.linspace(0.1, 0.35, len(neg)), 1)
    return np.asarray(pos, float), pos_b, np.asarray(neg, float), neg_b


PAIRED = [("brief", None), ("ties", (4, 3)), ("ties", None)]


@pytest.mark.parametrize("name, m", PAIRED)
@pytest.mark.parametrize("metric", ["precision", "f1", "youden"])
def test_paired_thresholds(name, m, metric):
    pos_a, pos_b, neg_a, neg_b = _paired_tiny(name)
    y, sa = as_labels(pos_a, neg_a)
    sb = np.r_[pos_b, neg_b]
    tb = np.unique(sb)[::-1][1:]
    ta = np.resize(np.unique(sa)[::-1], tb.size)
    res = compare_precision(y, sa, sb, thresholds_a=ta, thresholds_b=tb, metric=metric, m=m,
                            confidence_level=1 - ALPHA)
    mp, mn = m if m else (None, None)
    frame = res.to_frame()
    for i in range(ta.size):
        law, undefined = oracle.paired_law(metric, pos_a, pos_b, neg_a, neg_b, ta[i], tb[i], mp, mn)
        _check(res, i, law, undefined)
        better = sum(float(p) for v, p in law.items() if v > 0)
        assert abs(frame["p_a_better"][i] - better) < TOL


@pytest.mark.parametrize("name, m", PAIRED + [("brief", (5, 3))])
@pytest.mark.parametrize("metric", ["precision", "f1"])
def test_paired_recall(name, m, metric):
    pos_a, pos_b, neg_a, neg_b = _paired_tiny(name)
    y, sa = as_labels(pos_a, neg_a)
    sb = np.r_[pos_b, neg_b]
    m_pos = m[0] if m else pos_a.size
    res = compare_precision(y, sa, sb, recall=np.arange(1, m_pos + 1) / m_pos, metric=metric, m=m,
                            confidence_level=1 - ALPHA)
    mp, mn = m if m else (None, None)
    for i, r in enumerate(res.r):
        law, undefined = oracle.paired_recall_law(pos_a, pos_b, neg_a, neg_b, int(r), mp, mn, metric)
        _check(res, i, law, undefined)
        better = sum(float(p) for v, p in law.items() if v > 0)
        assert abs(res.p_a_better[i] - better) < TOL
