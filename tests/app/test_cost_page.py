"""Cost curves page, driven by AppTest: operating point, envelope, band, comparison, tables."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, traces, uploaded_app

import rocci
from rocci import data as rdata
from rocci.plots import cost as plots_cost
from ui.operating import money

PAGE = "app_pages/cost.py"


def _arrays(model, sample="breast_cancer_cv.csv"):
    """(is_positive, scores) of a bundled sample, prepared as the dashboard does."""
    df = rocci.load_table(ROOT / "data" / sample)
    g = rdata.guess_columns(df)
    pos = rdata.guess_pos_label(rdata.label_values(df, g["label"]))
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"], pos_label=pos)
    return prep.is_positive, prep.scores[model]


def table(at, key_column: str):
    return next(df.value for df in at.dataframe if key_column in df.value.columns)


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


@pytest.fixture
def cost_app():
    at = new_app(PAGE)
    assert_clean(at)
    return at


def test_default_page_draws_envelopes_band_and_comparison(cost_app):
    at = cost_app
    spec = figure(at, "cost_chart")
    assert [t["meta"][1] for t in traces(spec, "envelope")] == ["logistic", "naive_bayes"]
    assert len(traces(spec, "cost-band")) == 2
    assert len(traces(spec, "trivial")) == 2
    assert traces(spec, "cost-lines")  # default: some hull thresholds' cost lines
    assert traces(spec, "operating-range")
    # The envelope drawn is rocci's cost curve.
    y, s = _arrays("logistic")
    env = traces(spec, "envelope")[0]
    xs, ys = decode(env["x"]), decode(env["y"])
    direct = rocci.cost_curve(y, s, w=xs)
    np.testing.assert_allclose(ys, direct.cost)
    # Linked ROC view and the ΔC chart.
    roc = figure(at, "cost_roc")
    assert traces(roc, "hull") and traces(roc, "iso") and traces(roc, "selected")
    delta = figure(at, "cost_delta")
    assert traces(delta, "delta-band")
    cmp = rocci.compare_cost(y, s, _arrays("naive_bayes")[1])
    np.testing.assert_allclose(decode(traces(delta, "delta")[0]["y"]), cmp.delta_cost)
    captions = " ".join(c.value for c in at.caption)
    assert "is cheaper at the 95% level" in captions


def test_w_shown_equals_operating_point(cost_app):
    at = cost_app
    # Default prior: the share of positives in the data (said so), not 0.5.
    y, s = _arrays("logistic")
    share = float(np.mean(y))
    assert metrics(at)["Operating point w"] == f"{rocci.operating_point(share, 1.0, 1.0):.4f}"
    assert any("Prior from your data" in c.value and f"{100 * share:.1f}%" in c.value for c in at.caption)
    at.number_input(key="op_p").set_value(0.3).run()
    at.number_input(key="op_cfn").set_value(5.0).run()
    at.number_input(key="op_cfp").set_value(2.0).run()
    assert_clean(at)
    w = rocci.operating_point(0.3, 5.0, 2.0)
    assert metrics(at)["Operating point w"] == f"{w:.4f}"
    # The current w is the cost at that w, from rocci.
    ci = rocci.cost_ci(y, s, w=[w])
    assert metrics(at)[f"Cost at w = {w:.3f} · logistic"] == f"{ci.cost[0]:.4f}"
    captions = " ".join(c.value for c in at.caption)
    assert f"[{ci.cost_low[0]:.4f}, {ci.cost_high[0]:.4f}]" in captions
    assert "normalised so that the trivial classifiers cost w and 1 − w" in captions
    # The same cost in the user's units: scale = p(+)·C(−|+) + p(−)·C(+|−).
    k = 0.3 * 5.0 + 0.7 * 2.0
    assert f"expected cost **{money(k * ci.cost[0])}** per instance" in captions
    assert f"**{money(1000 * k * ci.cost[0])}** per 1,000 instances" in captions


def test_w_directly_and_zero_costs_warn(cost_app):
    at = cost_app
    at.number_input(key="op_cfn").set_value(0.0).run()
    at.number_input(key="op_cfp").set_value(0.0).run()
    assert not at.exception
    assert at.warning and "both be 0" in at.warning[0].value
    at.segmented_control(key="op_by").set_value("w").run()
    at.slider(key="op_w").set_value(0.27).run()
    assert_clean(at)
    assert metrics(at)["Operating point w"] == "0.2700"


def test_table_matches_cost_ci_with_chosen_method(cost_app):
    at = cost_app
    at.select_slider(key="cost_level").set_value(0.9).run()
    at.selectbox(key="cost_method").set_value("percentile").run()
    assert_clean(at)
    y, s = _arrays("logistic")
    direct = rocci.cost_ci(y, s, w=np.linspace(0, 1, 101), confidence_level=0.9, method="percentile")
    tab = table(at, "cost_high")
    rows = tab[tab.model == "logistic"].reset_index(drop=True)
    np.testing.assert_allclose(rows["cost_low"], direct.cost_low)
    np.testing.assert_allclose(rows["cost_high"], direct.cost_high)
    assert rows.loc[37, "cost_high"] == pytest.approx(direct.cost_high[37])
    captions = " ".join(c.value for c in at.caption)
    assert "90\\% percentile\\, stratified exact bootstrap" in captions


def test_full_bootstrap_and_single_model():
    at = new_app(PAGE)
    at.segmented_control(key="cost_bootstrap").set_value("full").run()
    assert_clean(at)
    at.selectbox(key="cost_model_b").set_value("—").run()
    assert_clean(at)
    y, s = _arrays("logistic")
    direct = rocci.cost_ci(y, s, w=np.linspace(0, 1, 101), bootstrap="full")
    tab = table(at, "cost_high")
    assert set(tab.model) == {"logistic"}
    np.testing.assert_allclose(tab["cost_high"], direct.cost_high)
    assert not at.get("plotly_chart") or all(not el.proto.id.endswith("-cost_delta") for el in at.get("plotly_chart"))


def test_thesis_sample_and_typed_thresholds():
    at = new_app()
    at.selectbox(key="sample").set_value("thesis_example.csv").run()
    at.switch_page(PAGE).run()
    assert_clean(at)
    at.text_input(key="cost_thr").input("0.48, 0.7").run()
    assert_clean(at)
    spec = figure(at, "cost_chart")
    lines = traces(spec, "cost-lines")[0]
    model = lines["meta"][1]
    y, s = _arrays(model, "thesis_example.csv")
    # Thesis point B: threshold 0.48 has TPR 0.65, FPR 0.175, so its line runs (0, 0.175) -> (1, 0.35).
    ys = [v for v in lines["y"] if v is not None]
    assert ys[:2] == pytest.approx([0.175, 0.35])
    direct = rocci.cost_ci(y, s, w=[0, 1, 0, 1], thresholds=[0.48, 0.48, 0.7, 0.7])
    assert ys == pytest.approx(list(direct.cost))
    at.text_input(key="cost_thr").input("0.4, abc").run()
    assert not at.exception and at.warning


def test_sign_runs():
    w = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    low = [-1, 0.1, 0.2, -1, -1, -1]
    high = [1, 1, 1, 1, -0.1, -0.2]
    # ΔC = C_a − C_b: an interval above 0 means b is cheaper, below 0 a.
    assert plots_cost.sign_runs(w, low, high) == [(0.1, 0.2, "b"), (0.4, 0.5, "a")]
    assert plots_cost.sign_runs(w, [-1] * 6, [1] * 6) == []


def test_comparison_reads_a_minus_b(cost_app):
    """0.2.0: ΔC = cost of A − cost of B and P(A cheaper), on the chart, in the table and in the words."""
    at = cost_app
    y, s = _arrays("logistic")
    cmp = rocci.compare_cost(y, s, _arrays("naive_bayes")[1])
    delta = traces(figure(at, "cost_delta"), "delta")[0]
    assert delta["name"] == "ΔC = cost of logistic − cost of naive_bayes"
    np.testing.assert_allclose(np.asarray(decode(delta["customdata"]), float).reshape(-1, 3)[:, 2], cmp.p_a_cheaper)
    assert "P(logistic cheaper)" in delta["hovertemplate"]
    rows = table(at, "p_a_cheaper")
    assert "p_b_cheaper" not in rows.columns
    np.testing.assert_allclose(rows["delta_cost"], cmp.delta_cost)
    np.testing.assert_allclose(rows["p_a_cheaper"], cmp.p_a_cheaper)
    # Where the whole interval is below 0, model A (logistic) is the cheaper one, and the words say so.
    below = cmp.delta_cost_high < 0
    assert below.any()
    assert np.all(cmp.p_a_cheaper[below] > 0.5)
    captions = " ".join(c.value for c in at.caption)
    assert "model **logistic** is cheaper at the 95% level" in captions
    assert "ΔC = cost of **logistic** (A) − cost of **naive\\_bayes** (B)" in captions


def test_bootstrap_size_controls_and_captions(cost_app):
    """m+ / m− (stratified) and m (full) reach rocci, are stated in the captions and the CSV columns."""
    at = cost_app
    y, s = _arrays("logistic")
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    captions = " ".join(c.value for c in at.caption)
    assert f"m+ = {n_pos:,}, m− = {n_neg:,}" in captions  # the default m± = n±, stated
    at.number_input(key="cost_m_pos").set_value(50).run()
    at.number_input(key="cost_m_neg").set_value(80).run()
    assert_clean(at)
    direct = rocci.cost_ci(y, s, w=np.linspace(0, 1, 101), m=(50, 80))
    rows = table(at, "cost_high")
    rows = rows[rows.model == "logistic"].reset_index(drop=True)
    np.testing.assert_allclose(rows["cost_low"], direct.cost_low)
    np.testing.assert_allclose(rows["cost_high"], direct.cost_high)
    captions = " ".join(c.value for c in at.caption)
    assert "m+ = 50, m− = 80" in captions
    cmp = rocci.compare_cost(y, s, _arrays("naive_bayes")[1], m=(50, 80))
    np.testing.assert_allclose(decode(traces(figure(at, "cost_delta"), "delta-band")[0]["y"])[:101],
                               cmp.delta_cost_high)
    # Full bootstrap: one m, from the pooled data.
    at.segmented_control(key="cost_bootstrap").set_value("full").run()
    at.number_input(key="cost_m").set_value(120).run()
    assert_clean(at)
    direct = rocci.cost_ci(y, s, w=np.linspace(0, 1, 101), bootstrap="full", m=120)
    rows = table(at, "cost_high")
    rows = rows[rows.model == "logistic"].reset_index(drop=True)
    np.testing.assert_allclose(rows["cost_high"], direct.cost_high)
    captions = " ".join(c.value for c in at.caption)
    assert "m = 120" in captions and "m+ = 50" not in captions
    assert "Resamples of m = 120 instances" in captions


def test_both_operating_ranges_drawn_and_stated(cost_app):
    at = cost_app
    spec = figure(at, "cost_chart")
    ranges = traces(spec, "operating-range")
    assert [t["meta"][1] for t in ranges] == ["logistic", "naive_bayes"]
    captions = " ".join(c.value for c in at.caption)
    for name in ("logistic", "naive_bayes"):
        y, s = _arrays(name)
        lo, hi = rocci.cost_curve(y, s).operating_range
        trace = next(t for t in ranges if t["meta"][1] == name)
        np.testing.assert_allclose(decode(trace["x"]), [lo, hi])
        assert f"w from {lo:.3f} to {hi:.3f}" in captions
        assert f"{lo:.3f}–{hi:.3f}" in trace["name"]
    # One model: only its range.
    at.selectbox(key="cost_model_b").set_value("—").run()
    assert [t["meta"][1] for t in traces(figure(at, "cost_chart"), "operating-range")] == ["logistic"]


def _fraud_csv(tmp_path, n=5000, share=0.16, seed=7):
    """An imbalanced three-model file with string labels, like the one issue 12 was found with."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    base = rng.normal(size=n)
    frame = pd.DataFrame({"outcome": np.where(y, "fraud", "ok")})
    for name, sep in (("gbm", 1.6), ("logit", 1.2), ("rules", 0.8)):
        z = sep * y + 0.6 * base + rng.normal(size=n)
        frame[name] = np.round(1 / (1 + np.exp(-(z - 1.5))), 4)
    path = tmp_path / "fraud.csv"
    frame.to_csv(path, index=False)
    return path, frame


def _upload(path):
    """The app with the file uploaded on the Data page (as a person does)."""
    return uploaded_app(path)


def test_prior_defaults_to_data_share_on_imbalanced_upload(tmp_path):
    """16% positives, a missed fraud costs 10 false alarms: the threshold is the w = 0.652 one, not w = 0.909."""
    path, frame = _fraud_csv(tmp_path)
    at = _upload(path)
    at.switch_page(PAGE).run()
    at.number_input(key="op_cfn").set_value(10.0).run()
    assert_clean(at)
    y = frame["outcome"].to_numpy() == "fraud"
    share = y.mean()
    w = rocci.operating_point(share, 10.0, 1.0)
    assert abs(w - 10 * share / (10 * share + 1 - share)) < 1e-12
    assert metrics(at)["Operating point w"] == f"{w:.4f}"
    s = frame["gbm"].to_numpy()
    best = rocci.cost_curve(y, s, w=[w]).threshold[0]
    wrong = rocci.cost_curve(y, s, w=[rocci.operating_point(0.5, 10.0, 1.0)]).threshold[0]
    assert best != wrong
    captions = " ".join(c.value for c in at.caption)
    assert f"score ≥ {best:g}".replace(".", "\\.") in captions or f"score ≥ {best:g}" in captions


def test_operating_condition_is_shared_with_the_explorer(cost_app):
    at = cost_app
    at.number_input(key="op_p").set_value(0.2).run()
    at.number_input(key="op_cfn").set_value(4.0).run()
    w = rocci.operating_point(0.2, 4.0, 1.0)
    assert metrics(at)["Operating point w"] == f"{w:.4f}"
    at.switch_page("app_pages/explorer.py").run()
    at.segmented_control(key="ex_by").set_value("cost").run()
    assert_clean(at)
    assert at.number_input(key="op_p").value == 0.2 and at.number_input(key="op_cfn").value == 4.0
    assert metrics(at)["Operating point w"] == f"{w:.4f}"
    # The explorer's lowest-cost threshold is the Cost page's optimal threshold at that w, with its interval.
    y, s = _arrays("logistic")
    t = rocci.cost_threshold(y, s, w=w)
    ci = rocci.cost_ci(y, s, w=[w], thresholds=[t])
    assert metrics(at)[f"Normalised cost at w = {w:.3f} · logistic"] == f"{ci.cost[0]:.4f}"
    captions = " ".join(c.value for c in at.caption)
    assert f"[{ci.cost_low[0]:.4f}, {ci.cost_high[0]:.4f}]" in captions
    k = 0.2 * 4.0 + 0.8 * 1.0
    assert f"**{money(1000 * k * ci.cost[0])}** per 1,000 instances" in captions
    # ... and back: a change on the explorer is the Cost page's condition.
    at.number_input(key="op_cfp").set_value(2.0).run()
    at.switch_page(PAGE).run()
    assert_clean(at)
    assert metrics(at)["Operating point w"] == f"{rocci.operating_point(0.2, 4.0, 2.0):.4f}"
