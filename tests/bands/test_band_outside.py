"""The simultaneous band's table, checked from outside (issue 34).

A reader who has only the rows and ``band.to_frame()`` resamples the rows of
each class, counts at the frame's own thresholds (or FPR levels), and asks how
often every resampled rate is inside its row's ``[low, high]``.  That share is
the band's joint probability: at least the level for every calibration, and
for the exact calibration no more than one small step above it.  The drawn
region (``band.envelope()``) must hold every resampled curve that the boxes
hold.  Before issue 34 the boxes were Wilson intervals at ``z = c`` while the
probability was computed for the count bounds: 14% instead of 90% on the
first data set below.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import rocci
from rocci.bands import partial_sum_probability
from tests.outside import issue_sample, counts_at_thresholds, curves_inside_envelope, resampled_curves, share, tpr_at_fpr_levels

DRAWS = 40_000


def _issue_data():
    """The issue's sample: 70 positives ~ N(0.9, 1), 95 negatives ~ N(0, 1.1), rounded to 0.1 (48 thresholds)."""
    return issue_sample()


def _untied_data():
    rng = np.random.default_rng(7)
    s = np.r_[rng.normal(1.2, 1, 40), rng.normal(0, 1, 60)]
    return np.r_[np.ones(40, bool), np.zeros(60, bool)], s


def _imbalanced_data():
    """Few positives, many tied negatives: degenerate rows at both ends."""
    rng = np.random.default_rng(11)
    s = np.r_[np.round(rng.normal(1.5, 1, 25), 1), np.round(rng.normal(0, 1, 120), 1)]
    return np.r_[np.ones(25, bool), np.zeros(120, bool)], s


DATA = {"ties": _issue_data, "untied": _untied_data, "imbalanced": _imbalanced_data}
SIZES = {"m=n": None, "m!=n": (50, 80)}


def _threshold_boxes_inside(y, s, band, rng):
    f = band.to_frame()
    t = f["threshold"].to_numpy()
    tp = counts_at_thresholds(s[y], t, band.m_pos, DRAWS, rng)
    fp = counts_at_thresholds(s[~y], t, band.m_neg, DRAWS, rng)
    tpr, fpr = tp / band.m_pos, fp / band.m_neg
    tol = 1e-12
    return np.all((tpr >= f["tpr_low"].to_numpy() - tol) & (tpr <= f["tpr_high"].to_numpy() + tol)
                  & (fpr >= f["fpr_low"].to_numpy() - tol) & (fpr <= f["fpr_high"].to_numpy() + tol), axis=1)


def _frame_columns_agree(band):
    """tp_min … fp_max are the lattice points inside the rate boxes: the two describe one region."""
    f = band.to_frame()
    for rate, count, m in (("tpr", "tp", band.m_pos), ("fpr", "fp", band.m_neg)):
        if f"{count}_min" not in f:
            continue
        np.testing.assert_array_equal(f[f"{count}_min"], np.ceil(np.round(f[f"{rate}_low"] * m, 9)))
        np.testing.assert_array_equal(f[f"{count}_max"], np.floor(np.round(f[f"{rate}_high"] * m, 9)))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("method", ["exact", "monte-carlo", "sidak", "bonferroni"])
def test_threshold_band_table_holds_its_joint_level(method, data, size):
    y, s = DATA[data]()
    level = 0.9
    kw = {"n_boot": 20_000, "seed": 3} if method == "monte-carlo" else {}
    band = rocci.roc_band(y, s, confidence_level=level, method=method, m=SIZES[size], **kw)
    _frame_columns_agree(band)
    rng = np.random.default_rng(zlib.crc32(f"{method}/{data}/{size}".encode()))
    inside = _threshold_boxes_inside(y, s, band, rng)
    cov, se = share(inside)
    # A Monte Carlo calibration misses the level by its own error, sqrt(level(1 − level)/n_boot).
    se_cal = np.sqrt(level * (1 - level) / band.n_boot) if method == "monte-carlo" else 0.0
    assert cov >= level - 3 * np.hypot(se, se_cal), (cov, se)
    if method == "monte-carlo":
        # The calibration's own Monte Carlo error (n_boot draws) and the check's.
        assert abs(cov - band.joint_probability) <= 4 * np.hypot(se, band.joint_probability_se)
    else:
        # The probability the frame reports is that of its boxes.
        assert abs(cov - band.joint_probability) <= 4 * se, (cov, band.joint_probability, se)
    if method == "exact":
        assert band.joint_probability >= level
        assert cov <= level + 0.02
    # What is drawn: every resampled curve that meets every box lies in the drawn region.
    F, T = resampled_curves(s[y], s[~y], band.m_pos, band.m_neg, 4000, np.random.default_rng(5))
    x, lower, upper = band.envelope()
    drawn = curves_inside_envelope(F, T, x, lower, upper)
    assert drawn.mean() >= level - 3 * np.sqrt(level * (1 - level) / drawn.size)


def test_curves_meeting_every_box_are_inside_the_drawing():
    """Deterministic: the same resampled curves, judged by the boxes at the frame's thresholds and by the
    drawn envelope; a curve in every box is in the region (the region rule of docs/bands.md)."""
    y, s = _issue_data()
    band = rocci.roc_band(y, s, confidence_level=0.9)
    F, T = resampled_curves(s[y], s[~y], band.m_pos, band.m_neg, 5000, np.random.default_rng(9))
    # Read the same curves at the band's thresholds: vertex j is the (j)-th largest distinct score.
    values = np.unique(s)[::-1]
    f = band.to_frame()
    finite = np.isfinite(f["threshold"].to_numpy())
    j = np.searchsorted(-values, -f["threshold"].to_numpy()[finite]) + 1
    fpr, tpr = F[:, j], T[:, j]
    in_boxes = np.all((tpr >= f["tpr_low"][finite].to_numpy() - 1e-12) & (tpr <= f["tpr_high"][finite].to_numpy() + 1e-12)
                      & (fpr >= f["fpr_low"][finite].to_numpy() - 1e-12) & (fpr <= f["fpr_high"][finite].to_numpy() + 1e-12),
                      axis=1)
    x, lower, upper = band.envelope()
    drawn = curves_inside_envelope(F, T, x, lower, upper)
    assert in_boxes.mean() > 0.8
    assert np.all(drawn[in_boxes])


def test_issue_example_is_the_calibrated_event():
    """The row the issue quoted: TP = 1 of 70 at threshold 3.0; the box now holds TP* = 0 (probability 0.37)."""
    y, s = _issue_data()
    band = rocci.roc_band(y, s, confidence_level=0.9)
    f = band.to_frame()
    row = f[(f["tpr"] * 70).round() == 1].iloc[0]
    assert row["tp_min"] == 0 and row["tpr_low"] == 0.0
    assert row["tpr_high"] == row["tp_max"] / 70


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("method,interval", [("sidak", "percentile"), ("bonferroni", "percentile"),
                                             ("sidak", "score"), ("monte-carlo", "percentile")])
def test_vertical_band_table_holds_its_joint_level(method, interval, data, size):
    y, s = DATA[data]()
    level = 0.9
    kw = {"n_boot": 20_000, "seed": 4} if method == "monte-carlo" else {"interval": interval}
    fpr = np.linspace(0.05, 0.95, 19)
    if interval == "score":
        with pytest.warns(FutureWarning, match=r"interval='score'\) is deprecated"):
            band = rocci.roc_band(y, s, kind="vertical", method=method, confidence_level=level, m=SIZES[size],
                                  fpr=fpr, **kw)
    else:
        band = rocci.roc_band(y, s, kind="vertical", method=method, confidence_level=level, m=SIZES[size], fpr=fpr,
                              **kw)
    _frame_columns_agree(band)
    f = band.to_frame()
    r = np.rint(f["fpr"].to_numpy() * band.m_neg).astype(np.int64)
    rng = np.random.default_rng(zlib.crc32(f"{method}/{interval}/{data}/{size}".encode()))
    tpr = tpr_at_fpr_levels(s[y], s[~y], r, band.m_pos, band.m_neg, DRAWS, rng)
    inside = np.all((tpr >= f["tpr_low"].to_numpy() - 1e-12) & (tpr <= f["tpr_high"].to_numpy() + 1e-12), axis=1)
    cov, se = share(inside)
    if band.joint_probability_kind == "lower bound":
        assert cov >= band.joint_probability - 3 * se, (cov, band.joint_probability)
    else:
        assert abs(cov - band.joint_probability) <= 4 * np.hypot(se, band.joint_probability_se)
    if interval == "score":
        return  # deprecated: its bound is honest (checked above) but need not reach the level
    se_cal = np.sqrt(level * (1 - level) / band.n_boot) if method == "monte-carlo" else 0.0
    assert cov >= level - 3 * np.hypot(se, se_cal), (cov, se)


def test_widened_corner_rows_keep_the_probability():
    """Where an observed rate is 0 or 1 the box reaches the score bound c²/(m + c²); the bootstrap count
    there never moves, so the exact probability of the widened bounds equals the reported one."""
    y, s = _imbalanced_data()
    band = rocci.roc_band(y, s, confidence_level=0.9)
    f = band.to_frame()
    finite = np.isfinite(f["threshold"])
    c = band.critical_value
    corner = finite & (f["fpr"] == 0)
    assert corner.any()
    assert (f.loc[corner, "fpr_high"] > 0).all()
    assert np.allclose(f.loc[corner, "fp_max"], np.floor(c * c * band.m_neg / (band.m_neg + c * c)))
    assert (f.loc[~finite, "tpr_high"] == 0).all()  # +inf: no instance is ever flagged
    probs = 1.0
    for vals, lo, hi, m in ((s[y], f.tp_min, f.tp_max, band.m_pos), (s[~y], f.fp_min, f.fp_max, band.m_neg)):
        ge = np.array([np.sum(vals >= t) for t in band.thresholds])
        probs *= partial_sum_probability(np.diff(ge, prepend=0) / vals.size, lo.to_numpy(), hi.to_numpy(), m)
    assert probs == pytest.approx(band.joint_probability, abs=1e-12)
