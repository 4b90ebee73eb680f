"""A million rows without a Python loop over instances, and bad input."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import rocci
from rocci.precision import compare_precision, metric_ci, precision_ci


def _count_lines(fn):
    """Run fn, counting the lines executed in rocci's code (a loop over 10^6 instances would run >10^6)."""
    count = [0]

    def tracer(frame, event, arg):
        if "rocci" not in frame.f_code.co_filename:
            return None
        if event == "line":
            count[0] += 1
        return tracer

    sys.settrace(tracer)
    try:
        out = fn()
    finally:
        sys.settrace(None)
    return out, count[0]


def test_million_rows():
    rng = np.random.default_rng(12)
    n = 1_000_000
    y = (rng.random(n) < 0.1).astype(int)
    s = rng.normal(0, 1, n) + 1.5 * y
    top = np.sort(s)[::-1][[99, 999, 9999]]
    res, lines = _count_lines(lambda: precision_ci(y, s, thresholds=top))
    assert lines < 50_000
    f = res.to_frame()
    n_pos, n_neg = int(y.sum()), n - int(y.sum())
    tp, fp = f["tp"].to_numpy(), f["fp"].to_numpy()
    assert (tp + fp == [100, 1000, 10000]).all()
    # Delta method for TP/(TP + FP) with independent binomials: the exact law is close to it at these sizes.
    p = tp / (tp + fp)
    var = (fp**2 * tp * (1 - tp / n_pos) + tp**2 * fp * (1 - fp / n_neg)) / (tp + fp) ** 4
    # The ratio's bias is O(1/(TP + FP)) of its sd.
    assert (np.abs(f["precision_mean"] - p) <= 0.15 * np.sqrt(var)).all()
    np.testing.assert_allclose(f["precision_std"], np.sqrt(var), rtol=0.05)
    assert (f["precision_low"] <= p).all() and (p <= f["precision_high"]).all()
    assert (f["truncated_mass"] < 1e-14).all()
    rec, lines = _count_lines(lambda: precision_ci(y, s, recall=[0.5]))
    assert lines < 50_000
    assert abs(rec.precision_mean[0] - rec.precision[0]) < 3 * rec.precision_std[0]
    assert 0 < rec.precision_std[0] < 0.01


@pytest.mark.parametrize("call, words", [
    (lambda y, s: metric_ci(y, s, metric="auc"), "metric"),
    (lambda y, s: metric_ci(y, s, metric="fbeta", beta=-1), "beta"),
    (lambda y, s: metric_ci(y, s, thresholds=["a"]), "thresholds"),
    (lambda y, s: metric_ci(y, s, thresholds=[np.nan]), "NaN"),
    (lambda y, s: metric_ci(y, s, bootstrap="full", m=(3, 4)), "full bootstrap"),
    (lambda y, s: metric_ci(y, s, bootstrap="jackknife"), "bootstrap"),
    (lambda y, s: metric_ci(y, s, method="bca"), "method"),
    (lambda y, s: precision_ci(y, s, recall=[1.5]), "recall"),
    (lambda y, s: precision_ci(y, s, recall=[0.5], thresholds=[0.5]), "not both"),
    (lambda y, s: precision_ci(y, s, recall=[0.5], bootstrap="full"), "stratified"),
    (lambda y, s: precision_ci(y, s, confidence_level=95), "confidence_level"),
    (lambda y, s: compare_precision(y, s, s[:-1], thresholds_a=[0.5]), "same instances"),
    (lambda y, s: compare_precision(y, s, s), "thresholds_a"),
    (lambda y, s: compare_precision(y, s, s, recall=[0.5], metric="mcc"), "recall levels"),
    (lambda y, s: compare_precision(y, s, s, thresholds_a=[1, 2], thresholds_b=[1, 2, 3]), "pairs"),
])
def test_bad_input(call, words):
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.7, 0.4, 0.3, 0.1])
    with pytest.raises(rocci.InputError, match=words):
        call(y, s)


def test_too_many_cells_says_what_to_do():
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(40_000, int), np.zeros(40_000, int)]
    s = rng.normal(0, 1, y.size) + y
    with pytest.raises(rocci.InputError, match="smaller bootstrap sample size m"):
        metric_ci(y, s, metric="mcc", thresholds=[0.5], bootstrap="full")
