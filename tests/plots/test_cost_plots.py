"""Figure builders of rocci.plots.cost against the results they draw."""

from __future__ import annotations

import numpy as np

from rocci import cost_ci, cost_curve, roc_curve
from rocci.plots import cost as plots_cost


def _data(seed=4, n=400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    a = np.round(rng.normal(size=n) + 1.2 * y, 1)  # ties
    b = np.round(rng.normal(size=n) + 0.6 * y, 1)
    return y, a, b


def _traces(fig, kind):
    return [t for t in fig.data if t.meta and t.meta[0] == kind]


def test_envelope_hover_gives_the_roc_point_of_each_threshold():
    y, a, _ = _data()
    curve = cost_curve(y, a, w=np.linspace(0, 1, 41))
    fig = plots_cost.cost_figure({"a": curve})
    env = _traces(fig, "envelope")[0]
    np.testing.assert_array_equal(np.asarray(env.y, float), curve.cost)
    roc = roc_curve(y, a)
    custom = np.asarray(env.customdata)
    for k, t in enumerate(curve.threshold):
        j = np.flatnonzero(roc.thresholds == t)[0]
        assert float(custom[k, 1]) == roc.fpr[j] and float(custom[k, 2]) == roc.tpr[j]
        # Its cost line passes through the envelope at this w: NEC = w(1 − TPR) + (1 − w)FPR.
        w = curve.w[k]
        assert abs(w * (1 - roc.tpr[j]) + (1 - w) * roc.fpr[j] - curve.cost[k]) < 1e-12
    assert "ROC point" in env.hovertemplate  # no band: the envelope carries the hover
    # With a band, its markers carry the same ROC points (and the hover; the envelope skips it).
    w = np.linspace(0, 1, 21)
    fig = plots_cost.cost_figure({"a": curve}, bands={"a": cost_ci(y, a, w=w)})
    hover = np.asarray(_traces(fig, "cost-band-hover")[0].customdata)
    ci = cost_ci(y, a, w=w)
    np.testing.assert_array_equal(hover[:, 3].astype(float), ci.fp / ci.n_neg)
    np.testing.assert_array_equal(hover[:, 4].astype(float), ci.tp / ci.n_pos)
    assert _traces(fig, "envelope")[0].hoverinfo == "skip"


def test_operating_range_bars_one_per_model():
    y, a, b = _data()
    ca, cb = cost_curve(y, a), cost_curve(y, b)
    bands = {"a": cost_ci(y, a), "b": cost_ci(y, b)}
    fig = plots_cost.cost_figure({"a": ca, "b": cb}, bands=bands,
                                 operating_range=[("a", ca.operating_range), ("b", cb.operating_range)])
    bars = _traces(fig, "operating-range")
    assert [t.meta[1] for t in bars] == ["a", "b"]
    for bar, curve in zip(bars, (ca, cb)):
        np.testing.assert_array_equal(bar.x, list(curve.operating_range))
        assert bar.y[0] == bar.y[1] < 0  # under the zero line, inside the y range
        assert fig.layout.yaxis.range[0] < bar.y[0]
    assert bars[0].y[0] != bars[1].y[0]  # two separate bars
    assert not fig.layout.shapes or all(s.type != "rect" for s in fig.layout.shapes)  # no overlapping tints
    one = plots_cost.cost_figure({"a": ca}, operating_range=("a", ca.operating_range))
    assert len(_traces(one, "operating-range")) == 1
    assert any(s.type == "rect" for s in one.layout.shapes)  # one model: its range is shaded too
    none = plots_cost.cost_figure({"a": ca}, operating_range=[("a", None)])
    assert not _traces(none, "operating-range")
