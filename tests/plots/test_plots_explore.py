"""Figure builders of the threshold explorer (rocci.plots.explore): they draw rocci's numbers as they are."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci.plots import explore as plots_explore
from rocci.plots import MAX_CURVE_POINTS

HEART = Path(__file__).resolve().parents[2] / "data" / "heart_disease_test20.csv"


@pytest.fixture(scope="module")
def heart():
    df = pd.read_csv(HEART)
    y, s = df["disease"].to_numpy(), df["score"].to_numpy()
    conf = rocci.confusion_at(y, s, 0.5, pos_label="positive")
    return y, s, conf


def _kind(fig, kind):
    return [t for t in fig.data if t.meta and t.meta[0] == kind]


def test_gain_figure_draws_the_curve_and_the_current_point(heart):
    y, s, conf = heart
    gain = rocci.gain_curve(y, s, pos_label="positive")
    fig = plots_explore.gain_figure(gain, current=conf, name="<b>logit</b>")
    (curve,) = _kind(fig, "gain")
    np.testing.assert_allclose(curve.x, gain.total_positive_rate)  # the result itself, or its frame: the same figure
    np.testing.assert_allclose(curve.y, gain.recall)
    assert fig.to_json() == plots_explore.gain_figure(gain.to_frame(), current=conf, name="<b>logit</b>").to_json()
    assert "&lt;b&gt;logit&lt;/b&gt;" in curve.name  # user text is escaped, never HTML
    assert "score ≥ %{customdata[0]}" in curve.hovertemplate
    assert curve.customdata[0][0].startswith("+∞")
    (ideal,) = _kind(fig, "ideal")
    assert list(ideal.x) == [0, 0.5, 1] and list(ideal.y) == [0, 1, 1]
    assert _kind(fig, "chance")
    (cur,) = _kind(fig, "current")
    assert cur.x[0] == conf.total_positive_rate and cur.y[0] == conf.recall
    lo, hi = conf.interval("recall")
    assert cur.error_y.array[0] == pytest.approx(hi - conf.recall)
    assert cur.error_y.arrayminus[0] == pytest.approx(conf.recall - lo)
    lo, hi = conf.interval("total_positive_rate")
    assert cur.error_x.array[0] == pytest.approx(hi - conf.total_positive_rate)
    assert "score ≥ 0.5" in cur.hovertemplate and "95% intervals" in cur.hovertemplate


def test_pr_figure_baseline_and_current_point(heart):
    y, s, conf = heart
    pr = rocci.pr_curve(y, s, pos_label="positive", interpolate=False)
    fig = plots_explore.pr_figure(pr, current=conf, name="logit")
    (curve,) = _kind(fig, "pr")
    np.testing.assert_allclose(curve.x, pr.recall)
    np.testing.assert_allclose(curve.y, pr.precision)
    assert curve.mode == "lines+markers"
    (base,) = _kind(fig, "baseline")
    assert list(base.y) == [0.5, 0.5]
    (cur,) = _kind(fig, "current")
    assert (cur.x[0], cur.y[0]) == (conf.recall, conf.precision)
    lo, hi = conf.interval("precision")
    assert cur.error_y.arrayminus[0] == pytest.approx(conf.precision - lo)
    assert not _kind(plots_explore.pr_figure(pr), "current")


def test_reading_figure_current_point_is_one_minus_precision(heart):
    y, s, conf = heart
    reading = rocci.reading_curve(y, s, pos_label="positive")
    fig = plots_explore.reading_figure(reading, current=conf, name="logit")
    (curve,) = _kind(fig, "reading")
    np.testing.assert_allclose(curve.x, reading.substitution_rate)
    np.testing.assert_allclose(curve.y, reading.total_positive_rate)
    (cur,) = _kind(fig, "current")
    assert cur.x[0] == pytest.approx(1 - conf.precision)
    lo, hi = conf.interval("precision")
    assert cur.error_x.array[0] == pytest.approx((1 - lo) - (1 - conf.precision))
    assert cur.error_x.arrayminus[0] == pytest.approx((1 - conf.precision) - (1 - hi))
    # nothing predicted positive: no current point (the substitution rate is undefined)
    none = rocci.confusion_at(y, s, np.inf, pos_label="positive")
    assert not _kind(plots_explore.reading_figure(reading, current=none), "current")


def test_large_curves_are_drawn_from_a_compact_grid():
    rng = np.random.default_rng(1)
    n = 200_000
    y = rng.random(n) < 0.2
    s = rng.normal(size=n) + 1.2 * y
    conf = rocci.confusion_at(y, s, 1.0)
    for fig in (
        plots_explore.gain_figure(rocci.gain_curve(y, s), current=conf),
        plots_explore.pr_figure(rocci.pr_curve(y, s, interpolate=False), current=conf),
        plots_explore.reading_figure(rocci.reading_curve(y, s), current=conf),
    ):
        curve = next(t for t in fig.data if t.meta and t.meta[0] in ("gain", "pr", "reading"))
        assert len(curve.x) <= MAX_CURVE_POINTS + 2
        assert "points drawn" in curve.name
        assert curve.mode == "lines"


def test_curve_indices_caps_a_zigzag_and_keeps_the_ends():
    x = np.linspace(0, 1, 50_000)
    y = (np.arange(50_000) % 2).astype(float)  # jumps across the whole grid at every step
    idx = plots_explore.curve_indices(x, y, max_points=1000)
    assert idx.size <= 1002
    assert idx[0] == 0 and idx[-1] == x.size - 1
    assert (np.diff(idx) > 0).all()
    small = plots_explore.curve_indices(x[:10], y[:10])
    np.testing.assert_array_equal(small, np.arange(10))
