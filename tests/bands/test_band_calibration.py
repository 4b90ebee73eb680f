"""roc_band: calibration (smallest band reaching the level, both neighbours shown), other methods,
the band region, baselines, the coverage simulation, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci.bands import RocBand, band_area, curve_inside, partial_sum_probability, roc_band
from rocci.bands.band import _Axis
from rocci.bands.baselines import campbell_ks_band, working_hotelling_band
from rocci.bands.coverage import simulate_band_coverage


def _data(n, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    s = np.r_[rng.normal(1, 1, n // 2), rng.normal(0, 1, n - n // 2)]
    if ties:
        s = np.round(s, 1)
    return np.r_[np.ones(n // 2), np.zeros(n - n // 2)], s


def _joint(band, y, s):
    """Exact joint probability of the band's count bounds, recomputed from its frame."""
    pos, neg = s[y == 1], s[y == 0]
    f = band.to_frame()
    out = 1.0
    for vals, lo, hi, m in ((pos, f.tp_min, f.tp_max, band.m_pos), (neg, f.fp_min, f.fp_max, band.m_neg)):
        ge = np.array([np.sum(vals >= t) for t in band.thresholds])
        q = np.diff(ge, prepend=0) / vals.size
        out *= partial_sum_probability(q, lo.to_numpy(), hi.to_numpy(), m)
    return out


@pytest.mark.parametrize("n,ties,level,m", [(60, False, 0.95, None), (300, True, 0.9, None),
                                             (200, False, 0.95, (150, 250))])
def test_calibrated_band_is_the_smallest_reaching_the_level(n, ties, level, m):
    y, s = _data(n, seed=n, ties=ties)
    band = roc_band(y, s, confidence_level=level, m=m)
    assert band.joint_probability >= level > band.joint_probability_below
    assert band.critical_value_below < band.critical_value
    # The frame's count bounds are the event whose probability is reported (recomputed independently).
    assert _joint(band, y, s) == pytest.approx(band.joint_probability, abs=1e-12)
    # No breakpoint strictly between the two neighbours: the bounds at c_below and just under c are equal.
    pos_counts = np.array([np.sum(s[y == 1] >= t) for t in band.thresholds])
    ax = _Axis(pos_counts, int((y == 1).sum()), band.m_pos)
    mid = np.nextafter(band.critical_value, 0)
    assert all((a == b).all() for a, b in zip(ax.bounds(mid), ax.bounds(band.critical_value_below)))
    narrower = roc_band(y, s, confidence_level=band.joint_probability_below, m=m)
    assert narrower.critical_value <= band.critical_value_below


def test_large_band_gap_between_neighbours_is_one_lattice_step():
    y, s = _data(10_000, seed=3)
    band = roc_band(y, s)
    assert band.joint_probability >= 0.95 > band.joint_probability_below
    # The achieved probability exceeds the target by less than one jump of the step function.
    assert band.joint_probability - 0.95 < band.joint_probability - band.joint_probability_below < 1e-5


def test_frame_and_fields():
    y, s = _data(80)
    band = roc_band(y, s)
    assert isinstance(band, RocBand)
    f = band.to_frame()
    assert list(f.columns) == ["threshold", "fpr", "tpr", "fpr_low", "fpr_high", "tpr_low", "tpr_high",
                               "tp_min", "tp_max", "fp_min", "fp_max"]
    assert len(f) == np.unique(s).size + 1 and np.isinf(f.threshold[0])
    assert (f.tpr_low <= f.tpr).all() and (f.tpr <= f.tpr_high).all()
    assert (f.fpr_low <= f.fpr).all() and (f.fpr <= f.fpr_high).all()
    assert band.pointwise_level == pytest.approx(2 * rocci.bands.band.special.ndtr(band.critical_value) - 1)
    assert band.area == pytest.approx(band_area(band.fpr_low, band.fpr_high, band.tpr_low, band.tpr_high))
    x, lo, hi = band.envelope()
    assert x[0] == 0 and x[-1] == 1 and lo.size == hi.size == x.size - 1
    # The boxes are the calibrated event: the counts within c standard deviations, as rates (issue 34).
    np.testing.assert_array_equal(f.tpr_low, f.tp_min / band.m_pos)
    np.testing.assert_array_equal(f.fpr_high, f.fp_max / band.m_neg)
    assert "joint_probability" in repr(band)


def test_simultaneous_is_wider_than_pointwise_and_sidak_wider_than_exact():
    y, s = _data(400, seed=2)
    exact = roc_band(y, s)
    sidak = roc_band(y, s, method="sidak")
    assert sidak.critical_value > exact.critical_value > 1.96
    assert sidak.joint_probability > exact.joint_probability  # sidak's exact probability, same event family
    assert sidak.joint_probability_kind == "exact"


def test_montecarlo_threshold_band_agrees_with_exact():
    y, s = _data(300, seed=4)
    exact = roc_band(y, s)
    mc = roc_band(y, s, method="monte-carlo", seed=7, n_boot=4000)
    assert mc.joint_probability_kind == "monte carlo" and mc.n_boot == 4000
    assert mc.critical_value_mc_low <= exact.critical_value <= mc.critical_value_mc_high
    again = roc_band(y, s, method="monte-carlo", seed=7, n_boot=4000)
    assert again.critical_value == mc.critical_value  # seeded


def test_vertical_bands():
    y, s = _data(400, seed=5)
    bon = roc_band(y, s, kind="vertical", method="bonferroni", fpr=[0.1, 0.3, 0.5])
    assert bon.joint_probability_kind == "lower bound" and bon.joint_probability >= 0.95
    ci = rocci.vertical_ci(y, s, fpr=[0.1, 0.3, 0.5], method="percentile", confidence_level=1 - 0.05 / 3)
    np.testing.assert_allclose(bon.tpr_low, ci.tpr_low)
    np.testing.assert_allclose(bon.tpr_high, ci.tpr_high)
    assert (bon.fpr_low == bon.fpr).all() and list(bon.to_frame().columns)[-2:] == ["tp_min", "tp_max"]
    sid = roc_band(y, s, kind="vertical", method="sidak")
    assert sid.fpr.size == 99 and sid.joint_probability > 0.9
    mc = roc_band(y, s, kind="vertical", method="monte-carlo", seed=1, n_boot=500)
    assert mc.joint_probability_kind == "monte carlo" and 0 < mc.joint_probability_se < 0.02
    assert mc.critical_value_mc_low <= mc.critical_value <= mc.critical_value_mc_high


def test_region_rules():
    # Boxes [0.2, 0.3] × [0.1, 0.5] and [0.6, 0.6] × [0.4, 0.9]: U = 0.5 on [0, 0.2], 0.9 on (0.2, 0.6],
    # 1 beyond; L = 0 before 0.3, 0.1 on [0.3, 0.6), 0.4 from 0.6.
    boxes = (np.array([0.2, 0.6]), np.array([0.3, 0.6]), np.array([0.1, 0.4]), np.array([0.5, 0.9]))
    assert curve_inside(lambda x: np.minimum(1, 2 * np.asarray(x)), *boxes) is False  # R(0.6) = 1 > U(0.6) = 0.9
    assert curve_inside(lambda x: np.sqrt(np.asarray(x)) * 0.9, *boxes)
    assert not curve_inside(lambda x: np.asarray(x) * 0.5, *boxes)  # 0.3 < L(0.6) = 0.4
    assert band_area(*boxes) == pytest.approx(0.2 * 0.5 + 0.1 * 0.9 + 0.3 * (0.9 - 0.1) + 0.4 * (1 - 0.4))


def test_baselines():
    rng = np.random.default_rng(0)
    pos, neg = rng.normal(1, 1, 200), rng.normal(0, 1, 200)
    ks = campbell_ks_band(pos, neg)
    from scipy import stats

    d = stats.kstwo.ppf(np.sqrt(0.95), 200)
    assert np.max(ks.tpr_high - ks.tpr_low) == pytest.approx(2 * d)
    wh = working_hotelling_band(pos, neg)
    assert (wh.tpr_low <= wh.tpr_high).all() and wh.fpr_low.size == 401
    truth = rocci.coverage.populations.Population(rocci.coverage.populations.normal(1, 1), rocci.coverage.populations.normal(0, 1)).roc
    assert curve_inside(truth, *wh) and curve_inside(truth, *ks)


def test_coverage_simulation_small():
    df = simulate_band_coverage(ns=(30,), replicates=3, seed=1, methods=("exact", "campbell-ks", "pointwise"))
    assert list(df.columns) == ["population", "n", "method", "label", "coverage", "se", "area", "area_se",
                                "replicates", "seconds"]
    assert len(df) == 6 and df.coverage.between(0, 1).all() and (df.area > 0).all()
    again = simulate_band_coverage(ns=(30,), replicates=3, seed=1, methods=("exact", "campbell-ks", "pointwise"))
    assert df.drop(columns="seconds").equals(again.drop(columns="seconds"))


@pytest.mark.parametrize("kwargs,words", [
    (dict(kind="diagonal"), "kind"),
    (dict(kind="vertical", method="exact"), "not available for kind='vertical'"),
    (dict(method="wilson"), "method"),
    (dict(n_boot=100), "n_boot and seed are for method='monte-carlo'"),
    (dict(method="monte-carlo", n_boot=5), "at least 20"),
    (dict(thresholds=[0.5, np.nan]), "NaN"),
    (dict(thresholds=["a"]), "numbers"),
    (dict(fpr=[0.1]), "fpr is for kind='vertical'"),
    (dict(kind="vertical", method="sidak", thresholds=[0.1]), "thresholds is for kind='threshold'"),
    (dict(confidence_level=95), "strictly between 0 and 1"),
    (dict(m=0), "at least 1"),
    (dict(kind="vertical", method="sidak", interval="wald"), "interval"),
])
def test_bad_input(kwargs, words):
    y, s = _data(20)
    with pytest.raises(rocci.InputError, match=None) as err:
        roc_band(y, s, **kwargs)
    assert words in str(err.value)
