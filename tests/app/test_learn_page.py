"""Learn page, driven by AppTest: each section renders with rocci's numbers, the controls move them,
the bootstrap worlds are seeded and reproducible."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, traces

import rocci

from ui.cache.learn import draw_worlds

PAGE = "app_pages/learn.py"
CHARTS = ("ln_roc_point", "ln_strip", "ln_cost_line", "ln_roc_iso", "ln_hull", "ln_envelope", "ln_worlds",
          "ln_worlds_law", "ln_avg_thr", "ln_avg_vert", "ln_decision", "ln_decision_cost")


def _example():
    df = pd.read_csv(ROOT / "data" / "thesis_example.csv")
    return df["label"].to_numpy() == 1, df["score"].to_numpy(dtype=float)


Y, S = _example()


@pytest.fixture
def learn_app():
    at = new_app(PAGE)
    assert_clean(at)
    return at


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def matrix(at) -> pd.DataFrame:
    return next(t.value for t in at.table if "Predicted positive" in t.value.columns)


def markdown(at) -> str:
    return " ".join(m.value for m in at.markdown)


def captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def test_every_section_renders(learn_app):
    at = learn_app
    assert [h.value for h in at.header] == [
        "1 · A ROC point and its confusion matrix",
        "2 · A cost line and the ROC point it maps to",
        "3 · The cost curve is the ROC convex hull",
        "4 · Why one ROC curve is not enough",
        "5 · Threshold averaging or vertical averaging?",
        "6 · A decision curve is a cost curve read another way",
    ]
    for key in CHARTS:
        assert figure(at, key)["data"], key
    assert "20 positives, 40 negatives, AUC 0.8444" in markdown(at)
    # The observed curve in section 1 is rocci's.
    roc = rocci.roc_curve(Y, S)
    tr = traces(figure(at, "ln_roc_point"), "roc")[0]
    np.testing.assert_array_equal(decode(tr["x"]), roc.fpr)
    np.testing.assert_array_equal(decode(tr["y"]), roc.tpr)


@pytest.mark.parametrize("t", [0.56, 0.88, 0.2])
def test_threshold_slider_moves_the_confusion_matrix(learn_app, t):
    at = learn_app
    at.select_slider(key="ln_t").set_value(t).run()
    assert_clean(at)
    conf = rocci.confusion_at(Y, S, t)
    m = matrix(at)
    assert m.iloc[0, 0] == f"TP = {conf.tp}" and m.iloc[0, 1] == f"FN = {conf.fn}"
    assert m.iloc[1, 0] == f"FP = {conf.fp}" and m.iloc[1, 1] == f"TN = {conf.tn}"
    got = metrics(at)
    assert got["TPR"] == f"{conf.recall:.4f}" and got["FPR"] == f"{conf.fpr:.4f}"
    assert f"TP / n+ = {conf.tp} / 20 = **{conf.recall:.4f}**" in markdown(at)
    point = traces(figure(at, "ln_roc_point"), "roc-point")[0]
    assert (decode(point["x"])[0], decode(point["y"])[0]) == (conf.fpr, conf.recall)
    strip = traces(figure(at, "ln_strip"), "strip")
    assert {tr["meta"][2]: len(decode(tr["x"])) for tr in strip} == {
        "TP": conf.tp, "FN": conf.fn, "FP": conf.fp, "TN": conf.tn}


def set_w(at, w: float) -> None:
    """Section 2's w: the shared operating condition, set directly (its slider)."""
    at.segmented_control(key="op_by").set_value("w").run()
    at.slider(key="op_w").set_value(w).run()


def test_shared_condition_defaults_to_the_data_share_and_follows_the_cost_page(learn_app):
    at = learn_app
    share = float(np.mean(Y))
    w = rocci.operating_point(share, 1.0, 1.0)
    assert metrics(at)["Operating point w"] == f"{w:.4f}"
    opt = traces(figure(at, "ln_cost_line"), "optimum")[0]
    assert f"threshold {rocci.cost_curve(Y, S, w=[w]).threshold[0]:g}" in opt["name"]
    # set on the Cost page (prior and costs): the Learn page uses it
    at.switch_page("app_pages/cost.py").run()
    at.number_input(key="op_cfn").set_value(3.0).run()
    at.switch_page(PAGE).run()
    assert_clean(at)
    assert metrics(at)["Operating point w"] == f"{rocci.operating_point(share, 3.0, 1.0):.4f}"


def test_w_03_gives_the_minimiser_056(learn_app):
    at = learn_app
    set_w(at, 0.3)
    assert_clean(at)
    curve = rocci.cost_curve(Y, S, w=[0.3])
    assert curve.threshold[0] == 0.56
    opt = traces(figure(at, "ln_cost_line"), "optimum")[0]
    assert "threshold 0.56" in opt["name"]
    assert decode(opt["y"])[0] == pytest.approx(curve.cost[0], abs=1e-15)
    roc_opt = traces(figure(at, "ln_roc_iso"), "optimum")[0]
    assert (decode(roc_opt["x"])[0], decode(roc_opt["y"])[0]) == (0.075, 0.65)
    assert f"The cheapest threshold there is **0\\.56** with cost **{curve.cost[0]:.4f}**" in markdown(at)


def test_moving_w_then_using_the_cheapest_threshold(learn_app):
    at = learn_app
    at.select_slider(key="ln_t2").set_value(0.88).run()
    set_w(at, 0.6)
    assert_clean(at)
    curve = rocci.cost_curve(Y, S, w=[0.6])
    assert curve.threshold[0] == 0.25
    # The chosen threshold (0.88) stays; its line and the duality numbers are rocci's.
    assert at.select_slider(key="ln_t2").value == 0.88
    line = rocci.cost_ci(Y, S, w=[0.0, 1.0, 0.6], thresholds=[0.88], method="wald")
    got = metrics(at)
    assert got["FPR (intercept at w = 0)"] == f"{line.cost[0]:.4f}"
    assert got["1 − TPR (value at w = 1)"] == f"{line.cost[1]:.4f}"
    assert got["TPR = 1 − slope − FPR"] == "0.1500"  # TPR of threshold 0.88
    assert f"the chosen threshold costs {line.cost[2] - curve.cost[0]:.4f} more" in markdown(at)
    assert "Threshold 0\\.88 is a hull vertex: the cheapest for **w from 0.0000 to 0.1304**" in markdown(at)
    at.button(key="ln_use_best").click().run()
    assert_clean(at)
    assert at.select_slider(key="ln_t2").value == 0.25
    assert "the chosen threshold is the cheapest" in markdown(at)
    assert "the cheapest for **w from 0.5385 to 0.6667**" in markdown(at)
    at.select_slider(key="ln_t2").set_value(0.32).run()  # under the hull
    assert "Threshold 0\\.32 is **never the cheapest**" in markdown(at)
    at.select_slider(key="ln_t2").set_value(0.25).run()
    cl = traces(figure(at, "ln_cost_line"), "cost-line")[0]
    np.testing.assert_allclose(decode(cl["y"]), [0.425, 0.05], atol=1e-15)  # (0, FPR), (1, 1 − TPR) of 0.25


def test_w_from_the_url():
    at = new_app(PAGE, {"op_by": "w directly", "op_w": "0.6", "ln_t": "0.56"})
    assert_clean(at)
    assert at.slider(key="op_w").value == pytest.approx(0.6)
    assert at.select_slider(key="ln_t").value == 0.56
    assert "threshold 0.25" in traces(figure(at, "ln_cost_line"), "optimum")[0]["name"]
    # A threshold that is not one of the scores is shown as a score, never an error.
    odd = new_app(PAGE, {"ln_t": "0.555"})
    assert_clean(odd)
    assert odd.select_slider(key="ln_t").value in set(S.tolist())


def test_hull_section_shows_the_worked_example(learn_app):
    at = learn_app
    text = markdown(at)
    assert "Breakpoints: **0.1304**, **0.5385**, **0.6667**" in text
    for t, lo, hi in (("0\\.88", "0.0000", "0.1304"), ("0\\.56", "0.1304", "0.5385"),
                      ("0\\.25", "0.5385", "0.6667"), ("0\\.2", "0.6667", "1.0000")):
        assert f"**{t}** on w ∈ [{lo}, {hi}]" in text
    hull = next(d.value for d in at.dataframe if "w_low" in d.value.columns)
    assert hull["threshold"].tolist() == [0.88, 0.56, 0.25, 0.2]
    segs = traces(figure(at, "ln_envelope"), "envelope-segment")
    assert len(segs) == 4


def test_worlds_are_seeded_and_reproducible(learn_app):
    at = learn_app
    first = figure(at, "ln_worlds")
    again = new_app(PAGE)
    assert traces(figure(again, "ln_worlds"), "world") == traces(first, "world")
    world = traces(first, "world")[0]
    assert world["meta"] == ["world", 20]
    # The page's worlds are draw_worlds with the page's seed, K and threshold.
    t = at.select_slider(key="ln_t4").value
    expected = draw_worlds(Y, S, 20, 1, t)
    pts = traces(first, "world-points")[0]
    np.testing.assert_array_equal(decode(pts["x"]), expected.fpr)
    np.testing.assert_array_equal(decode(pts["y"]), expected.tpr)
    exact = rocci.threshold_ci(Y, S, thresholds=[t])
    table = next(d.value for d in at.dataframe if "quantity" in d.value.columns)
    np.testing.assert_allclose(table["tpr"], [expected.tpr_mean, expected.tpr_sd, exact.tpr[0], exact.tpr_std[0]])
    np.testing.assert_allclose(table["fpr"], [expected.fpr_mean, expected.fpr_sd, exact.fpr[0], exact.fpr_std[0]])
    # The exact band is rocci's vertical_ci.
    band = rocci.vertical_ci(Y, S, fpr=np.linspace(0.01, 0.99, 99), method="percentile")  # the page's band
    by = decode(traces(first, "vertical-band")[0]["y"])
    np.testing.assert_allclose(by[: band.fpr.size], band.tpr_high)
    # A new draw: seed 2, other worlds; seed 2 from the URL gives the same ones.
    at.button(key="ln_draw").click().run()
    assert_clean(at)
    assert at.number_input(key="ln_seed").value == 2
    second = traces(figure(at, "ln_worlds"), "world")
    assert second != traces(first, "world")
    linked = new_app(PAGE, {"ln_seed": "2"})
    assert traces(figure(linked, "ln_worlds"), "world") == second
    # More worlds.
    at.selectbox(key="ln_k").set_value(50).run()
    assert_clean(at)
    assert traces(figure(at, "ln_worlds"), "world")[0]["meta"] == ["world", 50]
    assert len(decode(traces(figure(at, "ln_worlds"), "world-points")[0]["x"])) == 50


def test_averaging_section_and_level(learn_app):
    at = learn_app
    assert traces(figure(at, "ln_avg_thr"), "threshold-region")
    assert traces(figure(at, "ln_avg_vert"), "vertical-bars")
    assert "95% Wilson exact bootstrap confidence rectangles" in captions(at)
    at.select_slider(key="ln_level").set_value(0.9).run()
    assert_clean(at)
    vci = rocci.vertical_ci(Y, S, fpr=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], confidence_level=0.9,
                            method="percentile")
    bars = traces(figure(at, "ln_avg_vert"), "vertical-bars")[0]
    np.testing.assert_allclose(decode(bars["error_y"]["array"]), vci.tpr_high - vci.tpr)
    assert "90% percentile intervals" in captions(at)
    assert "90% Wilson exact bootstrap confidence rectangles" in captions(at)


def test_loaded_data_source(learn_app):
    at = learn_app
    at.segmented_control(key="ln_src").set_value("loaded").run()
    assert_clean(at)
    assert "breast\\_cancer\\_cv\\.csv" in markdown(at)
    assert at.selectbox(key="ln_model").value == "logistic"
    # More distinct scores than the slider shows: the thinned slider still offers every hull vertex, so
    # section 2 starts at the cheapest threshold at w = 0.3, as cost_curve says.
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    y = (df["label"] == "malignant").to_numpy()
    s = df["logistic"].to_numpy(dtype=float)
    assert np.unique(s).size > 400
    best = rocci.cost_curve(y, s, w=[0.3]).threshold[0]
    assert at.select_slider(key="ln_t2").value == best
    assert "the chosen threshold is the cheapest" in markdown(at)
    at.selectbox(key="ln_model").set_value("naive_bayes").run()
    assert_clean(at)
    assert "model **naive\\_bayes**" in markdown(at)
    for key in CHARTS:
        assert figure(at, key)["data"], key
    # Back to the worked example: its own thresholds again.
    at.segmented_control(key="ln_src").set_value("example").run()
    assert_clean(at)
    assert at.select_slider(key="ln_t2").value == 0.56
    assert at.select_slider(key="ln_t").value in set(S.tolist())


def test_large_upload_is_drawn_compactly():
    """20,000 rows: the strip plot, sliders and cost lines are thinned; numbers still rocci's."""
    from apphelpers import AppTest, APP, TIMEOUT

    from ui import state

    rng = np.random.default_rng(7)
    n = 20_000
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(y * 1.2, 1.0), 5)
    raw = pd.DataFrame({"label": y.astype(int), "score": s}).to_csv(index=False).encode()
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page(PAGE)
    at.session_state["dataset"] = state.upload_dataset("big.csv", raw)
    at.query_params["ln_src"] = "Loaded data"
    at.query_params["ln_k"] = "5"
    at.run()
    assert_clean(at)
    assert "big\\.csv" in markdown(at)
    strip = traces(figure(at, "ln_strip"), "strip")
    for cls in ("pos", "neg"):
        assert sum(len(decode(t["x"])) for t in strip if t["meta"][1] == cls) <= 1500
    assert "evenly spaced scores" in captions(at)
    env = rocci.cost_curve(y, s)
    options = at.select_slider(key="ln_t").options
    assert 400 <= len(options) <= 400 + len(env.hull_thresholds)
    env_fig = figure(at, "ln_envelope")
    assert len(traces(env_fig, "hull-line")) + traces(env_fig, "cost-lines")[0]["meta"][1] <= 12
    t = float(at.select_slider(key="ln_t").value)
    conf = rocci.confusion_at(y, s, t)
    assert matrix(at).iloc[0, 0] == f"TP = {conf.tp:,}"
    assert traces(figure(at, "ln_worlds"), "world")[0]["meta"] == ["world", 5]


def _fraud_csv(n: int = 5000, seed: int = 2024) -> tuple[bytes, pd.DataFrame]:
    """A real-looking upload: three models, 16% positives, string labels 'fraud'/'ok', an id column, scores
    rounded as a scoring system would (about 3,000 distinct values; an integer rules score with many ties)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.16
    z1 = rng.normal(np.where(y, 1.4, 0.0), 1.0)
    z2 = rng.normal(np.where(y, 1.0, 0.0), 1.0) * 0.7 + 0.3 * z1
    z3 = rng.normal(np.where(y, 0.6, 0.0), 1.0)

    def sig(z):
        return 1 / (1 + np.exp(-(z - 2)))

    df = pd.DataFrame({"transaction_id": np.arange(n) + 10001, "is_fraud": np.where(y, "fraud", "ok"),
                       "gradient_boosting": np.round(sig(1.5 * z1), 4), "logistic": np.round(sig(1.3 * z2), 4),
                       "rules_score": np.round(np.clip(50 + 15 * z3, 0, 100)).astype(int)})
    return df.to_csv(index=False).encode(), df


def _loaded_app(name: str, raw: bytes, query: dict | None = None):
    from apphelpers import APP, TIMEOUT, AppTest

    from ui import state

    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page(PAGE)
    at.session_state["dataset"] = state.upload_dataset(name, raw)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    return at


def _check_sections(at, y, s):
    """Every section drawn, with the data line under each heading; section 3 readable; section 6 (decision
    curves) only for scores that are risks, else a note that says why."""
    assert_clean(at)
    risks = 0 <= np.min(s) and np.max(s) <= 1
    for key in CHARTS if risks else [c for c in CHARTS if not c.startswith("ln_decision")]:
        assert figure(at, key)["data"], key
    if not risks:
        assert any("not predicted risks" in i.value for i in at.info)
    notes = [c.value for c in at.caption if c.value.startswith(":material/dataset: Data:")]
    assert len(notes) == 6  # one per section
    env = rocci.cost_curve(y, s)
    fig = figure(at, "ln_envelope")
    hull_lines = traces(fig, "hull-line")
    others = traces(fig, "cost-lines")
    assert hull_lines and len(hull_lines) + (others[0]["meta"][1] if others else 0) <= 12
    colors = [t["line"]["color"] for t in hull_lines]
    assert len(set(colors)) == len(colors)
    for t in hull_lines:  # each featured line is a hull vertex's cost line
        i = t["meta"][1]
        np.testing.assert_allclose(decode(t["y"]), [env.hull_fpr[i], 1 - env.hull_tpr[i]])
    verts = traces(figure(at, "ln_hull"), "hull-vertex")
    assert len(verts) == len(env.hull_thresholds)
    assert {v["meta"][1]: v["marker"]["color"] for v in verts if v["meta"][2]} == {
        t["meta"][1]: t["line"]["color"] for t in hull_lines}
    return notes


def test_learn_on_a_real_looking_5000_row_upload():
    """Three models, 16% positives, string labels: every section works, says which data it uses, and section 3
    draws at most 12 cost lines (the hull vertices' first, one colour each) instead of 400."""
    raw, df = _fraud_csv()
    at = _loaded_app("fraud_5000.csv", raw, {"ln_src": "Loaded data", "ln_k": "5"})
    assert_clean(at)
    assert at.selectbox(key="ln_model").options == ["gradient_boosting", "logistic", "rules_score"]
    y = (df["is_fraud"] == "fraud").to_numpy()
    text = markdown(at)
    assert ("Every section below uses **fraud\\_5000\\.csv**, model **gradient\\_boosting**, positive class "
            f"**fraud**: {int(y.sum()):,} positives, {int((~y).sum()):,} negatives") in text
    notes = _check_sections(at, y, df["gradient_boosting"].to_numpy(float))
    assert all("fraud\\_5000\\.csv" in n and "gradient\\_boosting" in n for n in notes)
    # The confusion matrix names the positive class from the file.
    assert matrix(at).index[0] == "Actual positive (fraud)"
    # Many tied integer scores: the rules model works too.
    at.selectbox(key="ln_model").set_value("rules_score").run()
    _check_sections(at, y, df["rules_score"].to_numpy(float))
    assert "model **rules\\_score**" in markdown(at)


def test_worked_example_says_it_is_not_the_loaded_file():
    raw, _ = _fraud_csv(600)
    at = _loaded_app("fraud_600.csv", raw)
    assert_clean(at)
    text = markdown(at)
    assert "Every section below uses the thesis's worked example" in text
    assert "not **fraud\\_600\\.csv**, the file loaded on the Data page" in text
    notes = _check_sections(at, Y, S)
    assert all(n.endswith("the thesis's worked example") for n in notes)


@pytest.mark.parametrize("sample", ["breast_cancer_cv.csv", "heart_disease_test20.csv", "wine_cv.csv"])
def test_learn_on_each_bundled_sample(sample):
    raw = (ROOT / "data" / sample).read_bytes()
    at = _loaded_app(sample, raw, {"ln_src": "Loaded data", "ln_k": "5"})
    assert not at.exception, [e.value for e in at.exception]
    if at.error:  # a sample the page cannot use as mapped must say why, not fail
        assert "Data page" in " ".join(e.value for e in at.error) or at.get("page_link")
        return
    assert "Every section below uses **" + sample.replace("_", "\\_").replace(".", "\\.") in markdown(at)
    not_risks = any("not predicted risks" in i.value for i in at.info)  # section 6 says why it stops
    for key in CHARTS:
        if not (not_risks and key.startswith("ln_decision")):
            assert figure(at, key)["data"], key
    fig = figure(at, "ln_envelope")
    assert len(traces(fig, "hull-line")) + sum(t["meta"][1] for t in traces(fig, "cost-lines")) <= 12


def test_w_comes_from_the_shared_operating_condition():
    """The Learn page has no w slider of its own: w is the shared condition's, read in one place."""
    import ast

    tree = ast.parse((ROOT / PAGE).read_text())
    sliders = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "slider"]
    keys = [next((k.value.value for k in n.keywords if k.arg == "key"), None) for n in sliders]
    # The only slider is section 6's threshold probability p (a clinician's choice, not an operating point of
    # its own: the section shows the w it maps to).
    assert keys == ["ln_p"]
    calls = {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
             for n in ast.walk(f) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "controls"
             and getattr(n.func.value, "id", "") == "operating"}
    assert calls == {"operating_point_w"}
    at = new_app(PAGE, {"op_by": "w directly", "op_w": "0.6"})
    assert at.slider(key="op_w").value == pytest.approx(0.6)


def test_worlds_against_the_pointwise_and_the_simultaneous_band(learn_app):
    """Section 4 draws the simultaneous band's bootstrap event (hatched) over the worlds and counts the worlds
    inside each band, from rocci (roc_band, vertical_ci, worlds_in_bands with the page's seed)."""
    from rocci.coverage.worlds import worlds_in_bands

    at = learn_app
    distinct = np.unique(S)[::-1]
    thr = distinct if distinct.size <= 200 else distinct[
        np.unique(np.linspace(0, distinct.size - 1, 200).round().astype(int))]
    band = rocci.roc_band(Y, S, thresholds=thr)
    vci = rocci.vertical_ci(Y, S, fpr=np.linspace(0.01, 0.99, 99), method="percentile")
    lower, upper = traces(figure(at, "ln_worlds"), "band")
    from rocci.bands.region import band_envelope
    x, lo, hi = band_envelope(band.fp_min / band.m_neg, band.fp_max / band.m_neg,
                              band.tp_min / band.m_pos, band.tp_max / band.m_pos)
    np.testing.assert_allclose(decode(upper["y"])[:-1], hi)
    np.testing.assert_allclose(decode(lower["y"])[:-1], lo)
    got = worlds_in_bands(Y, S, 20, 1, thresholds=band.thresholds, tp_range=(band.tp_min, band.tp_max),
                          fp_range=(band.fp_min, band.fp_max), levels=vci.fpr, tpr_range=(vci.tpr_low, vci.tpr_high))
    text = " ".join(m.value for m in at.markdown)
    assert (f"**{int(got['levels'].sum())}** ({got['levels'].mean():.0%}) stay inside the pointwise band at all "
            f"{len(vci.fpr)} FPR levels") in text
    assert f"**{int(got['boxes'].sum())}** ({got['boxes'].mean():.0%}) stay inside the simultaneous band" in text
    at.toggle(key="ln_sim").set_value(False).run()
    assert_clean(at)
    assert not traces(figure(at, "ln_worlds"), "band")


def test_worlds_inside_the_simultaneous_band_from_outside():
    """Issue 34: the count of worlds 'inside the simultaneous band' is read against the drawn worlds and the
    drawn hatched band: every world the boxes hold lies in the drawn region, and the share agrees with the
    band's exact probability within the binomial error of K = 200 worlds."""
    import re

    from tests.outside import curves_inside_envelope

    at = new_app(PAGE, {"ln_k": "200"})
    assert_clean(at)
    text = markdown(at)
    found = re.search(r"\*\*(\d+)\*\* \((\d+)%\) stay inside the simultaneous band everywhere \(exactly ([\d.]+)%",
                      text)
    assert found, text[:500]
    n_sim, exact = int(found.group(1)), float(found.group(3)) / 100
    spec = figure(at, "ln_worlds")
    world = traces(spec, "world")[0]
    wx = np.array([np.nan if v is None else v for v in decode(world["x"])], float)
    wy = np.array([np.nan if v is None else v for v in decode(world["y"])], float)
    # one trace for all K curves, separated by gaps (None -> NaN)
    breaks = np.flatnonzero(np.isnan(wx))
    pieces = np.split(np.arange(wx.size), breaks)
    curves = [(wx[p[~np.isnan(wx[p])]], wy[p[~np.isnan(wx[p])]]) for p in pieces]
    curves = [c for c in curves if c[0].size]
    assert len(curves) == 200
    lower, upper = traces(spec, "band")
    x, lo, hi = decode(lower["x"]), decode(lower["y"])[:-1], decode(upper["y"])[:-1]
    width = max(c[0].size for c in curves)
    F = np.array([np.r_[c[0], np.full(width - c[0].size, c[0][-1])] for c in curves])
    T = np.array([np.r_[c[1], np.full(width - c[1].size, c[1][-1])] for c in curves])
    drawn = curves_inside_envelope(F, T, x, lo, hi)
    assert drawn.sum() >= n_sim
    assert abs(n_sim / 200 - exact) <= 3.5 * np.sqrt(exact * (1 - exact) / 200) + 1 / 200
