"""Decision curve page, driven by AppTest: what the chart, the tables, the verdict and the report show is
rocci's net benefit, read back from the page and checked against the results' own columns."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, traces, uploaded_app
from realistic import clinic_frame

import rocci
from rocci import data as rdata
from ui import decision as words

pytestmark = pytest.mark.apptest

PAGE = "app_pages/decision.py"


def _arrays(model, sample="breast_cancer_cv.csv"):
    df = rocci.load_table(ROOT / "data" / sample)
    g = rdata.guess_columns(df)
    pos = rdata.guess_pos_label(rdata.label_values(df, g["label"]))
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"], pos_label=pos)
    return prep.is_positive, prep.scores[model]


def upload(tmp_path, frame: pd.DataFrame, name="clinic.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    at = uploaded_app(path, PAGE)
    return at


def table(at, column: str) -> pd.DataFrame:
    return next(df.value for df in at.dataframe if column in df.value.columns)


def verdict_text(at) -> str:
    return next(m.value for m in at.markdown if "gives more net benefit" in m.value or "neither model" in m.value)


def claims(text: str) -> list[tuple[str, list[float], float]]:
    """The verdict's claims read back: (model, the threshold probabilities named, the probability stated)."""
    out = []
    for who, where, prob in re.findall(r"\*\*(.+?)\*\* gives more net benefit at threshold probabilities (.+?): "
                                       r"exact bootstrap probability (?:at least )?([\d.]+)", text):
        named = []
        for a, b in re.findall(r"from (\d+)% to (\d+)%", where):
            named += [k / 100 for k in range(int(a), int(b) + 1)]
        for listed in re.findall(r"isolated thresholds? \(([^)]*)\)", where):
            named += [int(v.strip().rstrip("%")) / 100 for v in listed.split(",")]
        out.append((who.replace("\\_", "_"), named, float(prob)))
    return out


def test_default_page_draws_rocci_net_benefit_and_verdict():
    at = new_app(PAGE)
    assert_clean(at)
    spec = figure(at, "dc_chart")
    assert [t["meta"][1] for t in traces(spec, "net-benefit")] == ["logistic", "naive_bayes"]
    y, s = _arrays("logistic")
    ref = rocci.net_benefit(y, s, thresholds=list(words.GRID))
    curve = traces(spec, "net-benefit")[0]
    np.testing.assert_allclose(decode(curve["x"]), ref.thresholds)
    np.testing.assert_allclose(decode(curve["y"]), ref.net_benefit, rtol=1e-12, atol=1e-15)
    band = {t["meta"][2]: decode(t["y"]) for t in traces(spec, "net-benefit-band") if t["meta"][1] == "logistic"}
    np.testing.assert_allclose(band["low"], ref.net_benefit_low, atol=1e-15)
    np.testing.assert_allclose(band["high"], ref.net_benefit_high, atol=1e-15)
    np.testing.assert_allclose(decode(traces(spec, "treat-all")[0]["y"]), ref.treat_all, atol=1e-15)
    # The table is the results' frame, one block per model.
    tab = table(at, "net_benefit")
    mine = tab[tab["model"] == "logistic"].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine.drop(columns="model"), ref.to_frame(), check_dtype=False)
    # The ΔNB chart and the comparison table are compare_net_benefit's.
    cmp = rocci.compare_net_benefit(y, s, _arrays("naive_bayes")[1], thresholds=list(words.GRID))
    delta = figure(at, "dc_delta")
    np.testing.assert_allclose(decode(traces(delta, "delta-net-benefit")[0]["y"]), cmp.delta_net_benefit,
                               atol=1e-15)
    np.testing.assert_allclose(table(at, "p_a_better")["p_a_better"], cmp.p_a_better, atol=1e-15)
    assert verdict_text(at) == words.verdict(cmp, 0.01, 0.99, "logistic", "naive_bayes")


def test_clinic_upload_refuses_the_points_score_and_compares_the_risk_models(tmp_path):
    frame = clinic_frame()
    at = upload(tmp_path, frame)
    assert_clean(at)
    spec = figure(at, "dc_chart")
    assert [t["meta"][1] for t in traces(spec, "net-benefit")] == ["risk_v2", "risk_v1"]
    note = " ".join(i.value for i in at.info)
    assert "points" in note and "not probabilities" in note and "Cost curves" in note
    # The default range: 1% to a little past the last threshold with a positive net benefit.
    y = frame["outcome"].to_numpy() == "disease"
    refs = {m: rocci.net_benefit(y, frame[m].to_numpy(float), thresholds=list(words.GRID))
            for m in ("risk_v2", "risk_v1")}
    low, high = at.slider(key="dc_range").value
    assert (low, high) == words.default_range(refs)
    last = max(float(r.thresholds[r.net_benefit_low > 0].max()) for r in refs.values())
    assert last < high <= last + 0.10 + 1e-9 and high < 0.99  # the range is the data's, not 1%-99%
    # The table holds only the chosen range.
    tab = table(at, "net_benefit")
    assert tab["threshold"].min() == pytest.approx(low) and tab["threshold"].max() == pytest.approx(high)
    # The chart's x axis is the chosen range.
    assert spec["layout"]["xaxis"]["range"] == pytest.approx([low, high])


def test_verdict_agrees_with_the_comparison_table(tmp_path):
    """Outside check: every threshold the verdict names has the interval of ΔNB on the named model's side of
    0, and the probability it states is at most that model's exact probability of being better there; the
    verdict names every such threshold of the range, and no other."""
    frame = clinic_frame()
    at = upload(tmp_path, frame)
    at.slider(key="dc_range").set_value((0.01, 0.99)).run()
    assert_clean(at)
    text = verdict_text(at)
    cmp = table(at, "p_a_better")
    found = claims(text)
    assert found, text
    named = np.zeros(len(cmp), bool)
    for who, where, prob in found:
        sel = np.isin(np.round(cmp["threshold"].to_numpy(), 2), np.round(where, 2))
        assert sel.sum() == len(where), (who, where)  # every named threshold is a row of the table
        rows = cmp[sel]
        if who == "risk_v2":  # model A
            assert (rows["delta_net_benefit_low"] > 0).all()
            assert (rows["p_a_better"] >= prob).all()
        else:
            assert who == "risk_v1"
            assert (rows["delta_net_benefit_high"] < 0).all()
            assert (1 - rows["p_a_better"] - rows["p_tie"] >= prob).all()
        named |= sel
    clear = ((cmp["delta_net_benefit_low"] > 0) | (cmp["delta_net_benefit_high"] < 0)).to_numpy()
    np.testing.assert_array_equal(named, clear)
    assert "isolated" in text or clear.sum() == sum(len(w) for _, w, _ in found)


def test_verdict_words_for_both_sides_and_for_no_winner():
    """ui.decision.verdict on made-up columns: B's side, isolated thresholds, and no clear winner."""
    class Cmp:
        thresholds = np.round(np.arange(1, 11) / 100, 2)
        confidence_level = 0.95
        p_tie = np.zeros(10)
    c = Cmp()
    c.delta_net_benefit_low = np.array([-3, -3, -3, -3, 1, 1, 1, -1, 1, -1], float)
    c.delta_net_benefit_high = np.array([-1, -1, -1, 1, 2, 2, 2, 1, 2, 1], float)
    c.p_a_better = np.array([0.01, 0.02, 0.005, 0.4, 0.99, 0.985, 0.999, 0.5, 0.98, 0.6])
    text = words.verdict(c, 0.01, 0.10, "A", "B")
    got = claims(text)
    assert got[0][0] == "B" and got[0][1] == [0.01, 0.02, 0.03] and got[0][2] <= 1 - 0.02
    assert got[1][0] == "A" and sorted(got[1][1]) == [0.05, 0.06, 0.07, 0.09] and got[1][2] == 0.98
    assert "isolated threshold (9%)" in text and "Elsewhere between 1% and 10%" in text
    c.delta_net_benefit_low = -np.ones(10)
    c.delta_net_benefit_high = np.ones(10)
    text = words.verdict(c, 0.03, 0.06, "A", "B")
    assert "neither model gives clearly more net benefit" in text and "from 0.01 to 0.99" in text


@pytest.mark.parametrize("bootstrap,method,level", [("stratified", "percentile", 0.9), ("full", "wald", 0.99),
                                                    ("stratified", "wald", 0.8)])
def test_every_option_gives_rocci_numbers(tmp_path, bootstrap, method, level):
    frame = clinic_frame(n=900, seed=5)
    at = upload(tmp_path, frame)
    at.segmented_control(key="dc_bootstrap").set_value(bootstrap).run()
    at.selectbox(key="dc_method").set_value(method).run()
    at.select_slider(key="dc_level").set_value(level).run()
    assert_clean(at)
    y = frame["outcome"].to_numpy() == "disease"
    ref = rocci.net_benefit(y, frame["risk_v2"].to_numpy(float), thresholds=list(words.GRID), bootstrap=bootstrap,
                            method=method, confidence_level=level)
    low, high = at.slider(key="dc_range").value
    keep = words.in_range(ref.thresholds, low, high)
    tab = table(at, "net_benefit")
    mine = tab[tab["model"] == "risk_v2"]
    np.testing.assert_allclose(mine["net_benefit_low"], ref.net_benefit_low[keep], atol=1e-15)
    np.testing.assert_allclose(mine["net_benefit_high"], ref.net_benefit_high[keep], atol=1e-15)
    cmp = rocci.compare_net_benefit(y, frame["risk_v2"].to_numpy(float), frame["risk_v1"].to_numpy(float),
                                    thresholds=list(words.GRID), bootstrap=bootstrap, confidence_level=level)
    np.testing.assert_allclose(table(at, "p_a_better")["delta_net_benefit_low"], cmp.delta_net_benefit_low[keep],
                               atol=1e-15)
    cap = " ".join(c.value for c in at.caption)
    assert f"{level:.0%}" in cap and bootstrap in cap


def test_one_model_and_no_model_b(tmp_path):
    at = upload(tmp_path, clinic_frame(n=600))
    at.selectbox(key="dc_model_b").set_value("—").run()
    assert_clean(at)
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("-dc_delta")]
    assert any("Choose a model B" in i.value for i in at.info)
    at.multiselect(key="dc_models").set_value([]).run()
    assert any("at least one model" in i.value for i in at.info)


def test_only_non_probability_scores_point_to_the_cost_page(tmp_path):
    frame = clinic_frame(n=600)[["outcome", "points"]]
    at = upload(tmp_path, frame)
    assert_clean(at)
    assert not at.get("plotly_chart")
    assert any("not probabilities" in i.value for i in at.info)


def test_report_carries_the_decision_curve_and_its_tables():
    at = new_app(PAGE)
    assert_clean(at)
    rep = at.session_state["_rocci_report"]
    assert rep.page == "Decision curve"
    kinds = [k for k, _, _ in rep.items]
    assert kinds.count("figure") == 2 and kinds.count("table") == 2
    page = rep.html(dataset="breast_cancer_cv.csv", link="")
    assert "net benefit" in page.lower() and "gives more net benefit" in page


def test_default_range_rule():
    class R:  # the two fields default_range reads
        def __init__(self, last):
            self.thresholds = np.array(words.GRID)
            self.net_benefit_low = np.where(self.thresholds <= last, 0.01, -0.1)
    assert words.default_range({"a": R(0.12)}) == (0.01, 0.20)  # at least 20%
    assert words.default_range({"a": R(0.31), "b": R(0.12)}) == (0.01, 0.40)  # 0.36 rounded up to 5%
    assert words.default_range({"a": R(0.97)}) == (0.01, 0.99)
    assert words.default_range({"a": R(0.0)}) == (0.01, 0.20)  # never useful: still a readable range


def test_agresti_coull_is_offered_and_few_flagged_thresholds_say_so(tmp_path):
    frame = clinic_frame(n=900, seed=5)
    at = upload(tmp_path, frame)
    at.slider(key="dc_range").set_value((0.01, 0.99)).run()
    y = frame["outcome"].to_numpy() == "disease"
    ref = rocci.net_benefit(y, frame["risk_v2"].to_numpy(float), thresholds=list(words.GRID))
    few = ref.thresholds[(ref.tp + ref.fp) < 10]
    assert few.size  # high thresholds flag few on 900 rows
    note = " ".join(i.value for i in at.info)
    assert "fewer than 10 instances" in note and "Agresti–Coull" in note
    at.selectbox(key="dc_method").set_value("agresti-coull").run()
    assert_clean(at)
    assert not any("fewer than 10 instances" in i.value for i in at.info)
    ac = rocci.net_benefit(y, frame["risk_v2"].to_numpy(float), thresholds=list(words.GRID), method="agresti-coull")
    tab = table(at, "net_benefit")
    mine = tab[tab["model"] == "risk_v2"]
    np.testing.assert_allclose(mine["net_benefit_low"], ac.net_benefit_low, atol=1e-15)
    np.testing.assert_allclose(mine["net_benefit_high"], ac.net_benefit_high, atol=1e-15)
