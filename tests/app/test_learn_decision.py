"""Learn, section 6 (a decision curve is a cost curve read another way), driven by AppTest: its table is
checked from its own columns with a little numpy, and against rocci."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apphelpers import ROOT, assert_clean, figure, new_app, traces

import rocci

pytestmark = pytest.mark.apptest

PAGE = "app_pages/learn.py"


def identity_table(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "net_benefit_from_cost" in d.value.columns)


def test_table_is_one_law_read_two_ways():
    at = new_app(PAGE)
    assert_clean(at)
    df = identity_table(at)
    ex = pd.read_csv(ROOT / "data" / "thesis_example.csv")
    y, s = ex["label"].to_numpy() == 1, ex["score"].to_numpy(float)
    share = y.mean()
    p = df["p"].to_numpy()
    assert 0.2 in set(np.round(p, 2))  # the slider's default is a row
    # w(p) and K from the formula, not from the page
    odds = p / (1 - p)
    np.testing.assert_allclose(df["w"], share * (1 - p) / (share * (1 - p) + (1 - share) * p), rtol=1e-12)
    np.testing.assert_allclose(df["scale_k"], share + (1 - share) * odds, rtol=1e-12)
    # NB counted by hand at score >= p
    tp = np.array([(s[y] >= q).sum() for q in p])
    fp = np.array([(s[~y] >= q).sum() for q in p])
    np.testing.assert_allclose(df["net_benefit"], tp / y.size - fp / y.size * odds, atol=1e-12)
    # the cost columns give the net benefit columns, bounds swapped
    k = df["scale_k"].to_numpy()
    np.testing.assert_allclose(df["net_benefit"], share - k * df["cost"], atol=1e-12)
    np.testing.assert_allclose(df["net_benefit_low"], share - k * df["cost_high"], atol=1e-12)
    np.testing.assert_allclose(df["net_benefit_high"], share - k * df["cost_low"], atol=1e-12)
    # and both are rocci's stratified exact laws at the page's level
    ref = rocci.net_benefit(y, s, thresholds=p, bootstrap="stratified")
    np.testing.assert_allclose(df["net_benefit_low"], ref.net_benefit_low, atol=1e-12)
    spec = figure(at, "ln_decision")
    assert traces(spec, "current")[0]["x"] == [0.2, 0.2]


def test_slider_moves_p_and_the_cost_line():
    at = new_app(PAGE)
    at.slider(key="ln_p").set_value(0.37).run()
    assert_clean(at)
    df = identity_table(at)
    assert np.isclose(df["p"], 0.37).any()
    cards = {m.label: m.value for m in at.metric}
    row = df[np.isclose(df["p"], 0.37)].iloc[0]
    assert cards["w(p)"] == f"{row.w:.4f}" and cards["Net benefit at p = 0.37"] == f"{row.net_benefit:.4f}"
    spec = figure(at, "ln_decision_cost")
    assert traces(spec, "cost-line")


def test_scores_that_are_not_risks_get_a_note_not_an_error():
    at = new_app("app_pages/data.py")  # the breast-cancer sample's scores are probabilities: load margins
    frame = pd.DataFrame({"y": [0, 1] * 30, "margin": np.linspace(-3, 3, 60)})
    raw = frame.to_csv(index=False).encode()
    at.segmented_control(key="source").set_value("upload").run()
    at.file_uploader(key="upload").set_value(("margins.csv", raw, "text/csv")).run()
    at.switch_page(PAGE).run()
    at.segmented_control(key="ln_src").set_value("loaded").run()
    assert_clean(at)
    assert any("not predicted risks" in i.value for i in at.info)
