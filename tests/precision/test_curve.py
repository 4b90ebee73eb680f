"""rocci.pr_curve: Davis and Goadrich's interpolated precision–recall curve (and its ROC points alone)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import rocci


def pr_curve(*args, **kwargs) -> pd.DataFrame:
    return rocci.pr_curve(*args, **kwargs).to_frame()


def test_hand_computed_example_with_ties():
    # positives 0.9, 0.8, 0.8, 0.6, 0.3, 0.3; negatives 0.8, 0.8, 0.5, 0.3  (n+ = 6, n− = 4)
    y = [1, 1, 1, 0, 0, 1, 0, 1, 1, 0]
    s = [0.9, 0.8, 0.8, 0.8, 0.8, 0.6, 0.5, 0.3, 0.3, 0.3]
    # ROC points (TP, FP): +inf (0, 0); 0.9 (1, 0); 0.8 (3, 2); 0.6 (4, 2); 0.5 (4, 3); 0.3 (6, 4).
    # Segments with ΔTP > 1: 0.9 → 0.8 (ΔTP 2, ΔFP 2): x = 1 gives (2, 1);
    #                        0.5 → 0.3 (ΔTP 2, ΔFP 1): x = 1 gives (5, 3.5).
    expected = [  # (threshold, TP, FP, interpolated)
        (0.9, 1, Fraction(0), False),
        (None, 2, Fraction(1), True),
        (0.8, 3, Fraction(2), False),
        (0.6, 4, Fraction(2), False),
        (0.5, 4, Fraction(3), False),
        (None, 5, Fraction(7, 2), True),
        (0.3, 6, Fraction(4), False),
    ]
    f = pr_curve(y, s)
    assert len(f) == len(expected)
    for row, (t, tp, fp, interp) in zip(f.itertuples(), expected):
        assert row.interpolated == interp
        if t is None:
            assert np.isnan(row.threshold)
        else:
            assert row.threshold == t
        assert row.tp == tp and row.fp == float(fp)
        assert row.recall == pytest.approx(tp / 6)
        assert row.precision == pytest.approx(float(Fraction(tp) / (tp + fp)))
    # precision at the interpolated point (2, 1) is 2/3, not the mean of 1 and 3/5
    assert f["precision"].iloc[1] == pytest.approx(2 / 3)
    # the interpolated rows name the segment they lie on
    assert f[["threshold_above", "threshold_below"]].iloc[1].tolist() == [0.9, 0.8]
    assert f[["threshold_above", "threshold_below"]].iloc[5].tolist() == [0.5, 0.3]
    assert f.attrs == {"n_pos": 6, "n_neg": 4, "baseline": 0.6}


def test_first_segment_from_the_origin_is_flat():
    # the three top scores are positives tied with one negative: (0, 0) → (3, 1)
    f = pr_curve([1, 1, 1, 0, 0], [0.9, 0.9, 0.9, 0.9, 0.1])
    assert f["tp"].tolist()[:3] == [1, 2, 3]
    np.testing.assert_allclose(f["precision"].iloc[:3], 0.75)
    np.testing.assert_allclose(f["fp"].iloc[:3], [1 / 3, 2 / 3, 1])
    assert f["threshold_above"].iloc[0] == np.inf


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_its_roc_points_and_lies_on_the_roc_segments(seed):
    rng = np.random.default_rng(seed)
    n = 400
    y = rng.random(n) < 0.2
    s = np.round(rng.normal(size=n) + y, 1)  # many ties
    f = pr_curve(y, s)
    ref = pr_curve(y, s, interpolate=False)
    roc = rocci.roc_curve(y, s)  # the ROC points, +inf (no precision) left out; integer counts
    assert not ref["interpolated"].any() and ref["tp"].dtype == ref["fp"].dtype == np.int64
    np.testing.assert_array_equal(ref["threshold"], roc.thresholds[1:])
    np.testing.assert_array_equal(ref["tp"], roc.tp[1:])
    np.testing.assert_array_equal(ref["fp"], roc.fp[1:])
    np.testing.assert_array_equal(ref["precision"], roc.tp[1:] / (roc.tp[1:] + roc.fp[1:]))
    np.testing.assert_array_equal(ref["recall"], roc.tp[1:] / roc.n_pos)
    roc_rows = f[~f["interpolated"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(roc_rows[["threshold", "recall", "precision"]], ref[["threshold", "recall",
                                                                                          "precision"]])
    np.testing.assert_array_equal(roc_rows["tp"], ref["tp"])
    np.testing.assert_array_equal(roc_rows["fp"], ref["fp"])
    # every interpolated point lies on the straight ROC segment between its two thresholds
    curve = rocci.roc_curve(y, s)
    idx = {t: i for i, t in enumerate(curve.thresholds)}
    inner = f[f["interpolated"]]
    assert len(inner) <= y.sum()
    assert len(inner) == sum(max(d - 1, 0) for d in np.diff(curve.tp))
    for row in inner.itertuples():
        a, b = idx[row.threshold_above], idx[row.threshold_below]
        assert b == a + 1
        lam = (row.tp - curve.tp[a]) / (curve.tp[b] - curve.tp[a])
        assert 0 < lam < 1
        assert row.fp == pytest.approx(curve.fp[a] + lam * (curve.fp[b] - curve.fp[a]), abs=1e-9)
        # recall/FPR on the ROC segment
        fpr = row.fp / curve.n_neg
        assert fpr == pytest.approx(curve.fpr[a] + lam * (curve.fpr[b] - curve.fpr[a]), abs=1e-12)
    assert f["recall"].is_monotonic_increasing
    assert f.attrs["baseline"] == pytest.approx(y.mean())


def test_pos_label_and_string_labels():
    f = pr_curve(["fraud", "ok", "fraud", "ok"], [0.9, 0.7, 0.6, 0.1], pos_label="fraud")
    assert f["recall"].tolist() == [0.5, 0.5, 1.0, 1.0]
    assert f["precision"].tolist() == pytest.approx([1.0, 0.5, 2 / 3, 0.5])


def test_a_million_rows():
    """Every threshold kept, the interpolation bounded (its time against numpy.argsort: bench/bench_limits.py)."""
    rng = np.random.default_rng(3)
    n = 1_000_000
    y = rng.random(n) < 0.02
    s = np.round(rng.normal(size=n) + 2 * y, 3)
    f = pr_curve(y, s)
    n_thr = np.unique(s).size
    assert len(f) <= n_thr + y.sum()
    assert (~f["interpolated"]).sum() == n_thr
