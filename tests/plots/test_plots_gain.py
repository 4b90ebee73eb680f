"""Gain and lift figures of rocci.plots.precision: curves as rocci.gain_curve gives them, Okabe–Ito colour
and dash per model, the baselines, and the intervals of a GainCI (both bars at thresholds, vertical bars at
fixed depths); model names are text, never markup."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci.plots import color_for, dash_for
from rocci.plots import precision as plots_pr


def _kind(fig, kind):
    return [t for t in fig.data if t.meta and t.meta[0] == kind]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(8)
    n = 1500
    y = rng.random(n) < 0.05
    a = np.round(rng.normal(size=n) + 1.8 * y, 3)
    b = np.round(rng.normal(size=n) + 1.0 * y, 1)
    return y, {"gbm": a, "<b>rules</b>": b}


def test_gain_figure_curves_baselines_and_styles(data):
    y, scores = data
    curves = {m: rocci.gain_curve(y, s) for m, s in scores.items()}
    fig = plots_pr.gain_figure(curves, positive_share=y.mean(), colors={"gbm": 2, "<b>rules</b>": 0})
    gains = _kind(fig, "gain")
    assert [t.meta[1] for t in gains] == list(scores)
    for t, (m, c), style in zip(gains, curves.items(), (2, 0)):
        np.testing.assert_allclose(t.x, c.total_positive_rate)
        np.testing.assert_allclose(t.y, c.recall)
        assert t.line.color == color_for(style) and t.line.dash == dash_for(style)
    assert "&lt;b&gt;rules" in gains[1].name and "<b>rules" not in gains[1].name
    base = _kind(fig, "baseline")[0]
    assert list(base.x) == [0, 1] and list(base.y) == [0, 1]
    ideal = _kind(fig, "ideal")[0]
    np.testing.assert_allclose(ideal.x, [0, y.mean(), 1])
    assert not _kind(plots_pr.gain_figure(curves), "ideal")


def test_lift_figure_leaves_out_the_empty_target(data):
    y, scores = data
    curves = {m: rocci.gain_curve(y, s) for m, s in scores.items()}
    fig = plots_pr.lift_figure(curves, y_max=8.0)
    for t, c in zip(_kind(fig, "lift"), curves.values()):
        c = c.to_frame()
        c = c[c["n_predicted_positive"] > 0]
        np.testing.assert_allclose(t.x, c["total_positive_rate"])
        np.testing.assert_allclose(t.y, c["lift"])
        assert "points drawn" not in t.name
    assert list(_kind(fig, "baseline")[0].y) == [1, 1]
    assert tuple(fig.layout.yaxis.range) == (0, 8.0)


def test_intervals_at_thresholds_have_both_bars_and_at_depths_vertical_bars_only(data):
    y, scores = data
    s = scores["gbm"]
    curves = {"gbm": rocci.gain_curve(y, s)}
    at_t = rocci.gain_ci(y, s, thresholds=[s.max() + 1, 2.0, 1.0, 0.0], confidence_level=0.9)
    fig = plots_pr.add_gain_intervals(plots_pr.gain_figure(curves), at_t, name="gbm", color_index=1)
    bars = _kind(fig, "gain-intervals")[0]
    np.testing.assert_allclose(bars.y, at_t.gain)  # the gain is defined everywhere, even with nothing targeted
    np.testing.assert_allclose(np.asarray(bars.y) + bars.error_y.array, at_t.gain_high)
    np.testing.assert_allclose(np.asarray(bars.x) - bars.error_x.arrayminus, at_t.total_positive_rate_low)
    assert bars.marker.color == color_for(1) and "90% intervals at fixed thresholds" in bars.name
    lift = plots_pr.add_gain_intervals(plots_pr.lift_figure(curves), at_t, quantity="lift")
    lbars = _kind(lift, "lift-intervals")[0]
    assert len(lbars.x) == 3  # the first threshold targets nothing: no lift there
    np.testing.assert_allclose(np.asarray(lbars.y) - lbars.error_y.arrayminus, at_t.lift_low[1:])
    at_d = rocci.gain_ci(y, s, total_positive_rate=[0.05, 0.2])
    fig = plots_pr.add_gain_intervals(plots_pr.gain_figure(curves), at_d)
    bars = _kind(fig, "gain-intervals")[0]
    assert bars.error_x is None or bars.error_x.array is None
    np.testing.assert_allclose(bars.x, at_d.total_positive_rate)
    assert "fixed depths" in bars.name and "fixed depths" not in bars.hovertemplate.split("<br>")[0]
