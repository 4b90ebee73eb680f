"""rocci.plots.decision: the figures draw the results' own numbers (nothing is computed), escape model
names, and keep each model's colour."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci.plots import COLORS
from rocci.plots.decision import decision_curve_figure, delta_net_benefit_figure


def _data():
    rng = np.random.default_rng(6)
    y = rng.random(300) < 0.25
    z = rng.normal(size=300) + 1.3 * y - 1.2
    return y, 1 / (1 + np.exp(-z)), 1 / (1 + np.exp(-(z + rng.normal(0, 0.6, 300))))


def _traces(fig, kind):
    return [t for t in fig.data if t.meta and t.meta[0] == kind]


def test_decision_curve_draws_each_models_numbers_and_the_references():
    y, a, b = _data()
    p = np.round(np.arange(0.05, 0.61, 0.05), 2)
    res = {"gbm <b>": rocci.net_benefit(y, a, thresholds=p), "logit": rocci.net_benefit(y, b, thresholds=p)}
    fig = decision_curve_figure(res, colors={"gbm <b>": 2, "logit": 0})
    curves = _traces(fig, "net-benefit")
    assert [t.meta[1] for t in curves] == ["gbm <b>", "logit"]
    np.testing.assert_array_equal(curves[0].y, res["gbm <b>"].net_benefit)
    assert curves[0].name == "gbm &lt;b&gt;" and curves[0].line.color == COLORS[2] and curves[1].line.color == COLORS[0]
    bands = _traces(fig, "net-benefit-band")
    np.testing.assert_array_equal(bands[0].y, res["gbm <b>"].net_benefit_low)
    np.testing.assert_array_equal(bands[1].y, res["gbm <b>"].net_benefit_high)
    np.testing.assert_array_equal(_traces(fig, "treat-all")[0].y, res["logit"].treat_all)
    assert np.all(_traces(fig, "treat-none")[0].y == 0)
    low, high = fig.layout.yaxis.range
    assert low <= min(r.net_benefit_low.min() for r in res.values()) and high >= res["gbm <b>"].net_benefit_high.max()


def test_current_threshold_is_marked_across_the_y_range():
    y, a, _ = _data()
    res = {"gbm": rocci.net_benefit(y, a, thresholds=[0.1, 0.2, 0.3])}
    assert not _traces(decision_curve_figure(res), "current")
    fig = decision_curve_figure(res, current=0.2)
    mark = _traces(fig, "current")[0]
    assert list(mark.x) == [0.2, 0.2] and tuple(mark.y) == tuple(fig.layout.yaxis.range)


def test_delta_figure_draws_the_comparison():
    y, a, b = _data()
    cmp = rocci.compare_net_benefit(y, a, b, thresholds=[0.1, 0.2, 0.3])
    fig = delta_net_benefit_figure(cmp, name_a="gbm", name_b="logit")
    np.testing.assert_array_equal(_traces(fig, "delta-net-benefit")[0].y, cmp.delta_net_benefit)
    np.testing.assert_array_equal(_traces(fig, "p-a-better")[0].y, cmp.p_a_better)
    assert fig.layout.yaxis2.range == (0, 1)


def test_empty_input_is_refused():
    with pytest.raises(ValueError):
        decision_curve_figure({})
