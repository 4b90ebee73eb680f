"""Property tests (hypothesis) of the public API on small data with many ties.

Hypothesis runs derandomized (a fixed seed derived from each test), so the
suite is deterministic. Scores are multiples of 1/16 so that ``1 - score`` is
exact in floating point.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rocci

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
EPS = 1e-12
LEVELS = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99])


@st.composite
def tied_data(draw, min_pos=1, min_neg=1, max_n=12):
    n_pos = draw(st.integers(min_pos, max_n))
    n_neg = draw(st.integers(min_neg, max_n))
    top = draw(st.integers(1, 16))
    pos = draw(st.lists(st.integers(0, top), min_size=n_pos, max_size=n_pos))
    neg = draw(st.lists(st.integers(0, top), min_size=n_neg, max_size=n_neg))
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    s = np.r_[pos, neg].astype(float) / 16.0
    perm = draw(st.permutations(range(n_pos + n_neg)))
    perm = np.asarray(perm, dtype=int)
    return y[perm], s[perm]


def _bounds(ci):
    return (
        np.asarray(ci.tpr_low), np.asarray(ci.tpr_high), np.asarray(ci.fpr_low), np.asarray(ci.fpr_high)
    )


# ---------------------------------------------------------------------------
# threshold averaging
# ---------------------------------------------------------------------------
@SETTINGS
@given(
    data=tied_data(),
    # wald is included because threshold_ci's docstring (Notes) says Wald and
    # Agresti-Coull are clipped to [0, 1]
    method=st.sampled_from(["wilson", "agresti-coull", "percentile", "wald"]),
    region=st.sampled_from(["rectangle", "marginal", "ellipse"]),
    level=LEVELS,
    mult=st.sampled_from([None, 1, 3]),
)
def test_threshold_intervals_lie_in_unit_interval(data, method, region, level, mult):
    y, s = data
    m = None if mult is None else (mult * int(y.sum()), mult * int((1 - y).sum()))
    ci = rocci.threshold_ci(y, s, method=method, region=region, confidence_level=level, m=m)
    tl, th, fl, fh = _bounds(ci)
    for lo, hi in ((tl, th), (fl, fh)):
        assert np.all(lo >= 0) and np.all(hi <= 1), (lo, hi)
        assert np.all(lo <= hi + EPS)


@SETTINGS
@given(
    data=tied_data(),
    method=st.sampled_from(["wilson", "wald", "percentile"]),
    region=st.sampled_from(["rectangle", "marginal", "ellipse"]),
    level=LEVELS,
)
def test_threshold_intervals_contain_the_estimate(data, method, region, level):
    y, s = data
    ci = rocci.threshold_ci(y, s, method=method, region=region, confidence_level=level)
    tl, th, fl, fh = _bounds(ci)
    tpr, fpr = np.asarray(ci.tpr), np.asarray(ci.fpr)
    assert np.all(tl <= tpr + EPS) and np.all(tpr <= th + EPS), (tl, tpr, th)
    assert np.all(fl <= fpr + EPS) and np.all(fpr <= fh + EPS), (fl, fpr, fh)


@SETTINGS
@given(
    data=tied_data(),
    method=st.sampled_from(["wilson", "wald", "agresti-coull", "percentile"]),
    region=st.sampled_from(["rectangle", "marginal"]),
    level=LEVELS,
)
def test_threshold_width_does_not_grow_with_m(data, method, region, level):
    y, s = data
    n_pos, n_neg = int(y.sum()), int((1 - y).sum())
    a = rocci.threshold_ci(y, s, method=method, region=region, confidence_level=level)
    b = rocci.threshold_ci(
        y, s, method=method, region=region, confidence_level=level, m=(4 * n_pos, 4 * n_neg)
    )
    al, ah, afl, afh = _bounds(a)
    bl, bh, bfl, bfh = _bounds(b)
    assert np.all(bh - bl <= ah - al + EPS), (ah - al, bh - bl)
    assert np.all(bfh - bfl <= afh - afl + EPS), (afh - afl, bfh - bfl)


# ---------------------------------------------------------------------------
# vertical averaging
# ---------------------------------------------------------------------------
@SETTINGS
@given(
    data=tied_data(min_neg=2),
    method=st.sampled_from(["percentile", "score"]),
    level=LEVELS,
    fpr=st.lists(st.floats(0, 1), min_size=1, max_size=4),
)
def test_vertical_intervals_lie_in_unit_interval(data, method, level, fpr):
    y, s = data
    vc = rocci.vertical_ci(y, s, fpr=fpr, method=method, confidence_level=level)
    lo, hi = np.asarray(vc.tpr_low), np.asarray(vc.tpr_high)
    assert np.all(lo >= 0) and np.all(hi <= 1), (lo, hi)
    assert np.all(lo <= hi + EPS)
    n_neg = vc.m_neg
    assert np.all((np.asarray(vc.r) >= 1) & (np.asarray(vc.r) <= n_neg - 1))
    assert np.all((vc.tpr_mean >= -EPS) & (vc.tpr_mean <= 1 + EPS))


@SETTINGS
@given(data=tied_data(min_neg=2), level=LEVELS)
def test_vertical_percentile_interval_contains_the_bootstrap_median(data, level):
    """The percentile interval brackets the median of the exact law."""
    y, s = data
    vc = rocci.vertical_ci(y, s, method="percentile", confidence_level=level)
    for i in range(len(vc.r)):
        vals, probs = vc.distribution(i)
        order = np.argsort(vals)
        vals, cdf = np.asarray(vals)[order], np.cumsum(np.asarray(probs)[order])
        med = vals[np.argmax(cdf >= 0.5 - 1e-12)]
        assert vc.tpr_low[i] - EPS <= med <= vc.tpr_high[i] + EPS


# ---------------------------------------------------------------------------
# ROC curve and AUC
# ---------------------------------------------------------------------------
@SETTINGS
@given(data=tied_data())
def test_roc_curve_is_monotone(data):
    y, s = data
    rc = rocci.roc_curve(y, s)
    t = np.asarray(rc.thresholds)
    assert t[0] == np.inf
    assert np.all(np.diff(t) < 0), "thresholds must be strictly decreasing"
    assert np.array_equal(t[1:], np.unique(s)[::-1])
    tpr, fpr = np.asarray(rc.tpr), np.asarray(rc.fpr)
    assert np.all(np.diff(tpr) >= 0) and np.all(np.diff(fpr) >= 0)
    assert tpr[0] == 0 and fpr[0] == 0 and tpr[-1] == 1 and fpr[-1] == 1
    assert rc.n_pos == int(y.sum()) and rc.n_neg == int((1 - y).sum())
    assert np.array_equal(rc.tp, [(s[y == 1] >= th).sum() for th in t])
    assert np.array_equal(rc.fp, [(s[y == 0] >= th).sum() for th in t])
    assert np.allclose(tpr, np.asarray(rc.tp) / rc.n_pos, rtol=0, atol=1e-15)
    assert np.allclose(fpr, np.asarray(rc.fp) / rc.n_neg, rtol=0, atol=1e-15)


@SETTINGS
@given(data=tied_data(min_pos=2, min_neg=2))  # DeLong (the default) needs 2 of each class
def test_auc_in_unit_interval_and_antisymmetric(data):
    y, s = data
    a = rocci.roc_auc(y, s)
    assert 0 <= a.auc <= 1
    assert 0 <= a.auc_low <= a.auc + EPS and a.auc - EPS <= a.auc_high <= 1
    assert rocci.roc_curve(y, s).auc == pytest.approx(a.auc, abs=EPS)
    flipped = rocci.roc_auc(y, 1.0 - s)
    assert flipped.auc == pytest.approx(1.0 - a.auc, abs=EPS)


@SETTINGS
@given(
    data=tied_data(min_pos=2, min_neg=2),
    method=st.sampled_from(["delong", "hanley-mcneil", "exact-bootstrap"]),
)
def test_auc_interval_in_unit_interval(data, method):
    y, s = data
    a = rocci.roc_auc(y, s, method=method)
    assert a.method == method
    assert 0 <= a.auc_low <= a.auc_high <= 1
    assert a.auc_std >= 0


@SETTINGS
@given(data=tied_data(), method=st.sampled_from(["hanley-mcneil", "exact-bootstrap"]))
def test_auc_interval_in_unit_interval_single_instance_classes(data, method):
    """Methods other than DeLong also work with a single instance in a class."""
    y, s = data
    a = rocci.roc_auc(y, s, method=method)
    assert 0 <= a.auc <= 1
    assert 0 <= a.auc_low <= a.auc_high <= 1


@SETTINGS
@given(data=tied_data())
def test_exact_bootstrap_auc_std_does_not_grow_with_m(data):
    y, s = data
    n_pos, n_neg = int(y.sum()), int((1 - y).sum())
    a = rocci.roc_auc(y, s, method="exact-bootstrap")
    b = rocci.roc_auc(y, s, method="exact-bootstrap", m=(4 * n_pos, 4 * n_neg))
    assert b.auc_std <= a.auc_std + EPS
