"""The Compare page's figure builders draw exactly what the comparison results say."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

import rocci
from rocci.plots import compare as plots_compare


def _data(seed=3, n=120):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    a = rng.normal(size=n) + y
    b = 0.6 * a + 0.8 * rng.normal(size=n) + 0.5 * y
    return y, np.round(a, 1), np.round(b, 1)  # rounded: ties


def _kind(fig, kind):
    return [t for t in fig.data if t.meta and t.meta[0] == kind]


def test_pair_links_join_each_models_point():
    y, a, b = _data()
    cmp = rocci.compare_thresholds(y, a, b, total_positive_rate=[0.2, 0.5, 0.8])
    fig = plots_compare.add_pair_links(go.Figure(), cmp, name_a="A<b>", name_b="B")
    link = _kind(fig, "pair-link")[0]
    xs = np.array([np.nan if v is None else v for v in link.x], float).reshape(-1, 3)
    ys = np.array([np.nan if v is None else v for v in link.y], float).reshape(-1, 3)
    np.testing.assert_allclose(xs[:, 0], cmp.fpr_a)
    np.testing.assert_allclose(xs[:, 1], cmp.fpr_b)
    np.testing.assert_allclose(ys[:, 0], cmp.tpr_a)
    np.testing.assert_allclose(ys[:, 1], cmp.tpr_b)
    label = _kind(fig, "pair-label")[0]
    np.testing.assert_allclose(np.asarray(label.customdata)[:, 0], cmp.p_a_dominates)
    np.testing.assert_allclose(np.asarray(label.customdata)[:, 1], cmp.p_b_dominates)
    assert list(label.text) == ["1", "2", "3"]
    assert "A&lt;b&gt;" in label.hovertemplate and "<b>pair" in label.hovertemplate  # data text escaped


def test_dominance_heatmap_is_the_difference_of_the_probabilities():
    y, a, b = _data()
    ta, tb = np.unique(a)[::3], np.unique(b)[::4]
    dmap = rocci.dominance_map(y, a, b, thresholds_a=ta, thresholds_b=tb)
    fig = plots_compare.dominance_heatmap(dmap, name_a="a", name_b="b")
    hm = _kind(fig, "dominance-map")[0]
    z = np.asarray(hm.z)
    assert z.shape == (ta.size, tb.size)
    np.testing.assert_allclose(z, dmap.p_a_dominates - dmap.p_b_dominates)
    custom = np.asarray(hm.customdata)
    np.testing.assert_allclose(custom[..., 2], np.broadcast_to(ta[:, None], z.shape))
    np.testing.assert_allclose(custom[..., 3], np.broadcast_to(tb[None, :], z.shape))
    assert (hm.zmin, hm.zmax, hm.zmid) == (-1.0, 1.0, 0.0)
    assert list(fig.layout.yaxis.ticktext)[0] == f"{ta[0]:.3g}"


def test_delta_distribution_keeps_the_mass_and_shades_the_interval():
    y, a, b = _data()
    vc = rocci.compare_vertical(y, a, b, fpr=[0.3])
    values, probs = vc.distribution(0)
    fig = plots_compare.delta_distribution_figure(values, probs, low=float(vc.delta_tpr_low[0]),
                                                  high=float(vc.delta_tpr_high[0]), level=0.95)
    bars = _kind(fig, "delta-law")[0]
    keep = np.flatnonzero(probs > 1e-6)
    np.testing.assert_allclose(bars.x, values[keep[0]:keep[-1] + 1])
    assert abs(np.sum(bars.y) - 1.0) < 1e-4  # only the negligible tails are cut
    rect = [s for s in fig.layout.shapes if s.type == "rect"][0]
    assert (rect.x0, rect.x1) == (float(vc.delta_tpr_low[0]), float(vc.delta_tpr_high[0]))
