"""rocci.plots: figure builders draw result objects as they are."""

from __future__ import annotations

import numpy as np
import pytest

go = pytest.importorskip("plotly.graph_objects")

import rocci  # noqa: E402
from rocci import plots  # noqa: E402


def _meta(fig, kind):
    return [t for t in fig.data if t.meta and t.meta[0] == kind]


@pytest.fixture
def toy():
    y = np.array([1, 1, 0, 1, 0, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.1])
    return y, s


def test_compact_indices_keeps_small_curves_whole():
    fpr = np.linspace(0, 1, 50)
    np.testing.assert_array_equal(plots.compact_indices(fpr, fpr, max_points=100), np.arange(50))


def test_compact_indices_bounds_and_accuracy():
    rng = np.random.default_rng(1)
    n = 200_000
    y = rng.random(n) < 0.4
    s = rng.normal(y * 1.0, 1.0)
    curve = rocci.roc_curve(y, s)
    idx = plots.compact_indices(curve.fpr, curve.tpr, max_points=4000)
    assert idx[0] == 0 and idx[-1] == curve.fpr.size - 1
    assert idx.size <= 4000 + 2
    assert np.all(np.diff(idx) > 0)
    # Every dropped vertex lies within one grid cell (1/k) of the drawn step curve:
    # between kept vertices a and b, the exact curve stays inside [fpr_a, fpr_b] x [tpr_a, tpr_b],
    # and consecutive kept vertices that skip points are in the same cell.
    k = 4000 // 4
    fx, fy = curve.fpr[idx], curve.tpr[idx]
    gaps = np.flatnonzero(np.diff(idx) > 1)
    assert np.all(fx[gaps + 1] - fx[gaps] <= 1 / k + 1e-12)
    assert np.all(fy[gaps + 1] - fy[gaps] <= 1 / k + 1e-12)


def test_roc_figure_draws_the_exact_vertices(toy):
    y, s = toy
    curve = rocci.roc_curve(y, s)
    fig = plots.roc_figure({"m": curve})
    (trace,) = _meta(fig, "roc")
    assert trace.line.shape == "hv"
    np.testing.assert_allclose(trace.x, curve.fpr)
    np.testing.assert_allclose(trace.y, curve.tpr)
    assert "+∞" in trace.customdata[0][0]  # threshold of (0, 0)


def test_threshold_regions_are_the_result_bounds(toy):
    y, s = toy
    fig = plots.roc_figure({"m": rocci.roc_curve(y, s)})
    ci = rocci.threshold_ci(y, s, thresholds=[0.6, 0.35])
    plots.add_threshold_ci(fig, ci)
    (region,) = _meta(fig, "threshold-region")
    xs = [v for v in region.x if v is not None]
    ys = [v for v in region.y if v is not None]
    assert set(np.round(xs, 12)) == set(np.round(np.r_[ci.fpr_low, ci.fpr_high], 12))
    assert set(np.round(ys, 12)) == set(np.round(np.r_[ci.tpr_low, ci.tpr_high], 12))
    # Regions and points are drawn under the curve (trace order), curves keep their legend rank.
    kinds = [t.meta[0] for t in fig.data if t.meta]
    assert kinds.index("threshold-region") < kinds.index("roc")


def test_ellipse_outline_touches_its_bounding_box(toy):
    y, s = toy
    fig = plots.roc_figure({"m": rocci.roc_curve(y, s)})
    ci = rocci.threshold_ci(y, s, thresholds=[0.6], region="ellipse")
    plots.add_threshold_ci(fig, ci)
    (region,) = _meta(fig, "threshold-region")
    xs = np.array([v for v in region.x if v is not None])
    np.testing.assert_allclose(xs.max() - ci.fpr[0], ci.fpr_radius[0], rtol=1e-9)


def test_vertical_bars_and_band(toy):
    y, s = toy
    vci = rocci.vertical_ci(y, s, fpr=[0.25, 0.5])
    fig = plots.add_vertical_ci(plots.roc_figure({"m": rocci.roc_curve(y, s)}), vci, style="bars")
    (bars,) = _meta(fig, "vertical-bars")
    np.testing.assert_allclose(np.asarray(bars.y) + bars.error_y.array, vci.tpr_high)
    np.testing.assert_allclose(np.asarray(bars.y) - bars.error_y.arrayminus, vci.tpr_low)
    fig = plots.add_vertical_ci(plots.roc_figure({"m": rocci.roc_curve(y, s)}), vci, style="band")
    band = _meta(fig, "vertical-band")
    assert {t.meta[1] for t in band} == {"low", "high", "points"}


def test_user_text_is_escaped():
    y = np.array([0, 1, 0, 1])
    s = np.array([0.1, 0.9, 0.4, 0.6])
    fig = plots.roc_figure({"<b>x</b>": rocci.roc_curve(y, s)})
    (trace,) = _meta(fig, "roc")
    assert "<b>x" not in trace.name and "&lt;b&gt;x" in trace.name


def test_score_histograms_count_every_instance():
    y = np.array([True, False, True, False, False])
    fig = plots.score_histograms({"a": np.array([0.1, 0.2, 0.3, 0.4, 0.5])}, y, bins=4)
    pos, neg = fig.data
    assert sum(pos.y) == 2 and sum(neg.y) == 3


def test_plotly_config_export_format():
    assert plots.plotly_config(image_format="svg")["toImageButtonOptions"]["format"] == "svg"
    assert plots.plotly_config(image_format="bogus")["toImageButtonOptions"]["format"] == "png"


def test_count_histograms_match_the_instances_they_stand_for():
    rng = np.random.default_rng(3)
    y = rng.random(400) < 0.3
    s = np.round(rng.normal(size=400) + y, 1)
    counts = rocci.ScoreCounts.from_arrays(y, s)
    by_rows = plots.score_histograms({"m": s}, y, bins=12, normalize=True)
    by_counts = plots.count_histograms({"m": counts.table()}, bins=12, normalize=True)
    for a, b in zip(by_rows.data, by_counts.data):
        np.testing.assert_allclose(np.asarray(a.x), np.asarray(b.x))
        np.testing.assert_allclose(np.asarray(a.y), np.asarray(b.y))
        np.testing.assert_allclose(np.asarray(a.customdata), np.asarray(b.customdata))
