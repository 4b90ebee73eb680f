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


FULL = [("brief", None), ("ties", None), ("ties", 5)]


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
