"""Precision–recall page, driven by AppTest: curves, intervals at recall levels and at a threshold, regions,
the two-model verdict, URL round trip and bad typed lists.  Every number is checked against rocci."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, traces

import rocci
import rocci.precision as rp
from rocci import data as rdata
from rocci.precision.curve import pr_curve
from ui.text import md_escape

PAGE = "app_pages/precision.py"
#: app_pages/precision.py VERDICT_GRID (the page module runs on import, so it is read from its source)
VERDICT_GRID = int(next(line.split("=")[1] for line in (ROOT / PAGE).read_text().splitlines()
                        if line.startswith("VERDICT_GRID =")).replace("_", ""))
DEFAULT_RECALL = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
MODELS = ["gbm", "logit", "rules_v2"]


def _sample_arrays(model):
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"],
                                pos_label=rdata.guess_pos_label(rdata.label_values(df, g["label"])))
    return np.asarray(prep.is_positive, bool), np.asarray(prep.scores[model], float)


def fraud_frame(n: int = 800, n_pos: int = 20, seed: int = 4) -> pd.DataFrame:
    """An imbalanced file (2.5% fraud), three models, string labels."""
    rng = np.random.default_rng(seed)
    y = np.zeros(n, bool)
    y[rng.choice(n, n_pos, replace=False)] = True
    base = rng.normal(size=n)
    gbm = np.round(1 / (1 + np.exp(-(base + 2.6 * y - 3))), 4)
    logit = np.round(1 / (1 + np.exp(-(0.6 * base + 0.8 * rng.normal(size=n) + 1.8 * y - 3))), 4)
    rules = np.round(1 / (1 + np.exp(-(0.5 * base + rng.normal(size=n) + 1.6 * y - 2.5))), 1)  # coarse: ties
    return pd.DataFrame({"label": np.where(y, "fraud", "legit"), "gbm": gbm, "logit": logit, "rules_v2": rules})


def upload_app(frame: pd.DataFrame, query: dict | None = None, name: str = "fraud.csv"):
    at = new_app()
    at.segmented_control(key="source").set_value("upload").run()
    at.file_uploader(key="upload").set_value((name, frame.to_csv(index=False).encode(), "text/csv")).run()
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page(PAGE).run()
    return at


def fraud_arrays(frame: pd.DataFrame, model: str):
    return (frame["label"] == "fraud").to_numpy(), frame[model].to_numpy(float)


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def table(at, column: str) -> pd.DataFrame:
    return next(df.value for df in at.dataframe if column in df.value.columns)


def threshold_at(y, s, recall=0.8) -> float:
    curve = rocci.pr_curve(y, s, interpolate=False).to_frame()
    return float(curve["threshold"][curve["recall"] >= recall - 1e-12].iloc[0])


def check_panel(at, y, s, t, *, level=0.95, method="percentile", other="specificity"):
    """The metric cards and their captions are metric_ci's at threshold t."""
    labels = {"precision": "Precision", "recall": "Recall", "f1": "F1", "mcc": "MCC", "specificity": "Specificity",
              "npv": "NPV", "accuracy": "Accuracy", "balanced_accuracy": "Balanced accuracy", "youden": "Youden's J",
              "lift": "Lift"}
    shown = metrics(at)
    text = captions(at)
    table_ = table(at, "metric")
    for metric in ("precision", "recall", "f1", "mcc", other):
        ref = rp.metric_ci(y, s, metric=metric, thresholds=[t], confidence_level=level, method=method)
        v = float(ref.value[0])
        assert shown[labels[metric]] == ("—" if np.isnan(v) else f"{v:.3f}"), metric
        if np.isfinite(v):
            assert f"interval [{ref.low[0]:.3f}, {ref.high[0]:.3f}]" in text, metric
        row = table_[table_["metric"] == labels[metric]].iloc[0]
        np.testing.assert_allclose([row["low"], row["high"], row["mean"]], [ref.low[0], ref.high[0], ref.mean[0]])
        assert row["threshold"] == t


def check_chart(at, y, scores: dict, model: str, *, recall=DEFAULT_RECALL, level=0.95, method="percentile"):
    spec = figure(at, "pr_chart")
    pr = traces(spec, "pr")
    assert [t["meta"][1] for t in pr] == list(scores)
    for trace, (name, s) in zip(pr, scores.items()):
        ref = pr_curve(y, s).to_frame()
        np.testing.assert_allclose(decode(trace["x"]), ref["recall"])
        np.testing.assert_allclose(decode(trace["y"]), ref["precision"])
    base = traces(spec, "baseline")[0]
    np.testing.assert_allclose(decode(base["y"]), [y.mean(), y.mean()])
    bars = traces(spec, "recall-intervals")[0]
    ref = rp.precision_ci(y, scores[model], recall=recall, confidence_level=level, method=method)
    np.testing.assert_allclose(decode(bars["x"]), ref.recall)
    np.testing.assert_allclose(decode(bars["y"]), ref.precision)
    np.testing.assert_allclose(decode(bars["y"]) + decode(bars["error_y"]["array"]), ref.precision_high)
    np.testing.assert_allclose(decode(bars["y"]) - decode(bars["error_y"]["arrayminus"]), ref.precision_low)
    return spec


def test_defaults_on_the_bundled_sample():
    at = new_app(PAGE)
    assert_clean(at)
    y, a = _sample_arrays("logistic")
    _, b = _sample_arrays("naive_bayes")
    check_chart(at, y, {"logistic": a, "naive_bayes": b}, "logistic")
    t = threshold_at(y, a)
    check_panel(at, y, a, t)
    cur = traces(figure(at, "pr_chart"), "current")[0]
    assert decode(cur["x"])[0] == pytest.approx(rocci.confusion_at(y, a, t).recall)
    # the recall-level table is precision_ci's
    tab = table(at, "precision_high")
    ref = rp.precision_ci(y, a, recall=DEFAULT_RECALL).to_frame().drop_duplicates(subset=["r"])
    np.testing.assert_allclose(tab["precision_low"], ref["precision_low"])
    # precision 1 with no false positive: the zero-width interval is explained
    assert "Zero width" in captions(at)
    # the verdict on 212 × 357 instances runs by itself (its grid is within the page's limit): no button
    cmp = rp.compare_precision(y, a, b, recall=[0.8])
    assert rp.recall_grid_cells(y, a, b, recall=[0.8])[0] <= VERDICT_GRID
    assert metrics(at)[f"Δprecision, logistic − {md_escape('naive_bayes')}"] == f"{100 * cmp.delta[0]:+.1f} pts"
    assert not at.get("button") or not any(bt.key == "pr_run" for bt in at.button)


@pytest.fixture(scope="module")
def fraud():
    return fraud_frame()


def test_imbalanced_three_model_upload_defaults_and_verdict(fraud):
    at = upload_app(fraud)
    assert_clean(at)
    y, _ = fraud_arrays(fraud, "gbm")
    scores = {m: fraud_arrays(fraud, m)[1] for m in MODELS}
    spec = check_chart(at, y, scores, "gbm")
    # Okabe–Ito colour and dash per model, from the session's style index
    from rocci.plots import color_for, dash_for

    for i, trace in enumerate(traces(spec, "pr")):
        assert trace["line"]["color"] == color_for(i) and trace["line"]["dash"] == dash_for(i)
    assert "0.025" in traces(spec, "baseline")[0]["name"]
    t = threshold_at(y, scores["gbm"])
    check_panel(at, y, scores["gbm"], t)
    # the default threshold makes sense on 2.5% positives: it flags about 80% of them, not half the file
    conf = rocci.confusion_at(y, scores["gbm"], t)
    assert conf.recall >= 0.8 and conf.n_predicted_positive < 0.2 * len(y)
    # two models at 80% recall: compare_precision's numbers, the headline sentence
    cmp = rp.compare_precision(y, scores["gbm"], scores["logit"], recall=[0.8])
    shown = metrics(at)
    assert shown["Δprecision, gbm − logit"] == f"{100 * cmp.delta[0]:+.1f} pts"
    pa = float(cmp.p_a_better[0])
    text = " ".join(m.value for m in at.markdown)
    assert "At 80% recall" in text or f"At {100 * cmp.recall[0]:.1f}% recall" in text
    assert f"{100 * abs(cmp.delta[0]):.1f} percentage points" in text
    assert f"interval {100 * cmp.delta_low[0]:+.1f} to {100 * cmp.delta_high[0]:+.1f} points" in text
    pb = 1 - pa - float(cmp.p_tie[0])
    who, p = ("gbm", pa) if pa >= pb else ("logit", pb)
    assert f"**{who}** is better in **{prob(p)}** of bootstrap worlds" in text
    assert shown["P(gbm better)"] == prob(pa)


def prob(p: float) -> str:
    """The page's percentages of resamples (app_pages/precision.py percent_prob)."""
    if p < 0.001:
        return f"{100 * p:.2g}%"
    if p >= 1.0:
        return "100%"
    if p > 0.999:
        return "more than 99.9%"
    return f"{100 * p:.1f}%" if p < 0.1 or p > 0.99 else f"{100 * p:.0f}%"


def test_every_control_is_reachable(fraud):
    at = upload_app(fraud)
    y, _ = fraud_arrays(fraud, "gbm")
    s = fraud_arrays(fraud, "logit")[1]
    at.selectbox(key="pr_model").set_value("logit").run()
    at.select_slider(key="pr_level").set_value(0.9).run()
    at.selectbox(key="pr_method").set_value("wald").run()
    at.text_input(key="pr_recall").input("0.25, 0.5, 0.75").run()
    at.selectbox(key="pr_other").set_value("lift").run()
    assert_clean(at)
    check_chart(at, y, {m: fraud_arrays(fraud, m)[1] for m in MODELS}, "logit", recall=[0.25, 0.5, 0.75],
                level=0.9, method="wald")
    check_panel(at, y, s, threshold_at(y, s), level=0.9, method="wald", other="lift")
    # recall target, then a typed threshold
    at.number_input(key="pr_target").set_value(0.5).run()
    check_panel(at, y, s, threshold_at(y, s, 0.5), level=0.9, method="wald", other="lift")
    at.segmented_control(key="pr_by").set_value("value").run()
    at.number_input(key="pr_t").set_value(0.2).run()
    assert_clean(at)
    check_panel(at, y, s, 0.2, level=0.9, method="wald", other="lift")
    # regions at typed thresholds
    at.toggle(key="pr_regions").set_value(True).run()
    at.text_input(key="pr_thr").input("0.1, 0.3").run()
    assert_clean(at)
    spec = figure(at, "pr_chart")
    assert traces(spec, "threshold-region")
    pts = traces(spec, "threshold-points")[0]
    prec = rp.metric_ci(y, s, metric="precision", thresholds=[0.1, 0.3], confidence_level=0.9, method="wald")
    rec = rp.metric_ci(y, s, metric="recall", thresholds=[0.1, 0.3], confidence_level=0.9, method="wald")
    np.testing.assert_allclose(decode(pts["y"]), prec.value)
    np.testing.assert_allclose(decode(pts["x"]), rec.value)
    reg = table(at, "recall_high")
    np.testing.assert_allclose(reg["precision_low"], prec.low)
    np.testing.assert_allclose(reg["recall_high"], rec.high)
    # the pair and the verdict's recall
    at.selectbox(key="pr_a").set_value("rules_v2").run()
    at.selectbox(key="pr_b").set_value("gbm").run()
    at.number_input(key="pr_vrecall").set_value(0.5).run()
    assert_clean(at)
    cmp = rp.compare_precision(y, fraud_arrays(fraud, "rules_v2")[1], fraud_arrays(fraud, "gbm")[1], recall=[0.5],
                               confidence_level=0.9, method="wald")
    assert metrics(at)[f"Δprecision, {md_escape('rules_v2')} − gbm"] == f"{100 * cmp.delta[0]:+.1f} pts"
    at.selectbox(key="pr_b").set_value("rules_v2").run()
    assert not at.exception and any("two different models" in w.value for w in at.warning)


def test_score_method_for_precision_and_percentile_where_it_has_none(fraud):
    """method 'score': precision's score interval (chart, recall table, metric card, region); recall, F1, MCC
    and the two-model difference keep the percentile interval, and the captions say which is which."""
    at = upload_app(fraud)
    at.selectbox(key="pr_method").set_value("score").run()
    at.toggle(key="pr_regions").set_value(True).run()
    at.text_input(key="pr_thr").input("0.1, 0.3").run()
    assert_clean(at)
    y, g = fraud_arrays(fraud, "gbm")
    scores = {m: fraud_arrays(fraud, m)[1] for m in MODELS}
    check_chart(at, y, scores, "gbm", method="score")
    t = threshold_at(y, g)
    shown, text, tab = metrics(at), captions(at), table(at, "metric")
    for metric, label in (("precision", "Precision"), ("recall", "Recall"), ("f1", "F1"), ("mcc", "MCC")):
        used = "score" if metric == "precision" else "percentile"
        ref = rp.metric_ci(y, g, metric=metric, thresholds=[t], method=used)
        row = tab[tab["metric"] == label].iloc[0]
        np.testing.assert_allclose([row["low"], row["high"]], [ref.low[0], ref.high[0]])
    score = rp.metric_ci(y, g, metric="precision", thresholds=[t], method="score")
    pct = rp.metric_ci(y, g, metric="precision", thresholds=[t], method="percentile")
    assert (score.low[0], score.high[0]) != (pct.low[0], pct.high[0])  # the test can tell them apart
    assert "the other metrics have none and use the percentile interval" in text
    reg = table(at, "recall_high")
    prec = rp.metric_ci(y, g, metric="precision", thresholds=[0.1, 0.3], method="score")
    rec = rp.metric_ci(y, g, metric="recall", thresholds=[0.1, 0.3], method="percentile")
    np.testing.assert_allclose(reg["precision_low"], prec.low)
    np.testing.assert_allclose(reg["recall_high"], rec.high)
    assert "Score interval for precision, percentile for recall" in text
    # the verdict: compare_precision has no score interval, so the percentile one, named as such
    cmp = rp.compare_precision(y, g, scores["logit"], recall=[0.8], method="percentile")
    assert metrics(at)["Δprecision, gbm − logit"] == f"{100 * cmp.delta[0]:+.1f} pts"
    assert "95% percentile interval of Δ" in " ".join(m.value for m in at.caption)


def test_url_round_trip(fraud):
    query = {"pr_model": "logit", "pr_level": "90%", "pr_method": "Wald", "pr_recall": "0.3, 0.6",
             "pr_by": "Type it", "pr_t": "0.25", "pr_other": "NPV", "pr_a": "logit", "pr_b": "rules_v2",
             "pr_vrecall": "0.6", "pr_regions": "true", "pr_thr": "0.2"}
    at = upload_app(fraud, query)
    assert_clean(at)
    assert at.selectbox(key="pr_model").value == "logit"
    assert at.select_slider(key="pr_level").value == 0.9
    assert at.selectbox(key="pr_method").value == "wald"
    assert at.text_input(key="pr_recall").value == "0.3, 0.6"
    assert at.segmented_control(key="pr_by").value == "value"
    assert at.number_input(key="pr_t").value == pytest.approx(0.25)
    assert at.selectbox(key="pr_other").value == "npv"
    assert at.number_input(key="pr_vrecall").value == pytest.approx(0.6)
    assert at.toggle(key="pr_regions").value is True
    y, s = fraud_arrays(fraud, "logit")
    check_panel(at, y, s, 0.25, level=0.9, method="wald", other="npv")
    check_chart(at, y, {m: fraud_arrays(fraud, m)[1] for m in MODELS}, "logit", recall=[0.3, 0.6], level=0.9,
                method="wald")
    cmp = rp.compare_precision(y, s, fraud_arrays(fraud, "rules_v2")[1], recall=[0.6], confidence_level=0.9,
                               method="wald")
    assert metrics(at)[f"Δprecision, logit − {md_escape('rules_v2')}"] == f"{100 * cmp.delta[0]:+.1f} pts"


@pytest.mark.parametrize("key, text", [("pr_recall", "abc"), ("pr_recall", "0.5, 1.5"), ("pr_recall", ""),
                                       ("pr_recall", "0"), ("pr_thr", "0.2, x")])
def test_bad_typed_lists_give_an_error_box(key, text):
    at = new_app(PAGE, {"pr_regions": "true"})
    at.text_input(key=key).input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.error
    assert any("Fix the highlighted input" in i.value for i in at.info)


def test_typed_text_from_a_link_is_not_markup():
    at = new_app(PAGE, {"pr_recall": "**big** [x](http://e.org)"})
    assert not at.exception
    assert at.error and "\\*\\*big\\*\\*" in at.error[0].value


def test_verdict_on_a_larger_file_reads_the_false_positive_rates():
    """Past the page's grid the verdict is compare_fpr_at_recall's: the same P(A better) as the precision's
    law would give, the FPR difference's interval, and a caption that says why."""
    frame = fraud_frame(n=12_000, n_pos=600, seed=9)
    y, a = fraud_arrays(frame, "gbm")
    _, b = fraud_arrays(frame, "logit")
    cells = rp.recall_grid_cells(y, a, b, recall=[0.8])[0]
    assert cells > VERDICT_GRID
    at = upload_app(frame, name="bigger.csv")
    assert_clean(at)
    ref = rp.compare_fpr_at_recall(y, a, b, recall=[0.8])
    shown = metrics(at)
    assert shown["ΔFPR, gbm − logit"] == f"{100 * ref.delta_fpr[0]:+.1f} pts"
    assert shown["P(gbm better)"] == prob(float(ref.p_a_better[0]))
    text = " ".join(m.value for m in at.markdown)
    assert f"interval {100 * ref.delta_fpr_low[0]:+.1f} to {100 * ref.delta_fpr_high[0]:+.1f} points" in text
    assert "flags fewer negatives" in text or "flags more negatives" in text
    assert f"{cells:,} cells" in captions(at) and "false positive rates" in captions(at)
    # the same answer as the exact law of Δprecision, where that one is computed (smaller m−)
    small = rp.compare_precision(y, a, b, recall=[0.8], m=(600, 2_000))
    assert abs(rp.compare_fpr_at_recall(y, a, b, recall=[0.8], m=(600, 2_000)).p_a_better[0]
               - small.p_a_better[0]) < 1e-13


def test_average_precision_in_the_curve_tab_is_the_seeded_monte_carlo_and_says_so(fraud):
    at = upload_app(fraud)
    assert_clean(at)
    tab = table(at, "average_precision")
    assert list(tab["model"]) == MODELS
    for _, row in tab.iterrows():
        y, s = fraud_arrays(fraud, row["model"])
        ref = rocci.average_precision(y, s, n_boot=2000, seed=0)
        assert row["average_precision"] == pytest.approx(ref.average_precision, abs=1e-12)
        assert (row["low"], row["high"]) == pytest.approx((ref.average_precision_low, ref.average_precision_high), abs=1e-12)
        assert row["baseline"] == pytest.approx(y.mean())
    text = captions(at)
    assert "**Monte Carlo** bootstrap: 2,000 stratified resamples, seed 0" in text


# ------------------------------------------------------------------------------------------------------
# Gain and lift (Curves tab)
# ------------------------------------------------------------------------------------------------------
DEFAULT_DEPTHS = [0.05, 0.1, 0.2, 0.3, 0.5]


def depth_thresholds(y, s, depths):
    """The thresholds reaching each depth on the data: the ⌈depth·n⌉-th largest score (duplicates merged)."""
    ranked = np.sort(s)[::-1]
    rank = np.ceil(np.round(np.asarray(depths) * s.size, 9)).astype(int)
    return np.unique(ranked[rank - 1])[::-1]


def check_gain(at, y, scores: dict, model: str, *, depths=DEFAULT_DEPTHS, at_="threshold", level=0.95,
               method="percentile"):
    """The gain and lift charts and the table are rocci.gain_curve's and rocci.gain_ci's numbers."""
    from rocci.plots import color_for, dash_for

    gain, lift = figure(at, "pr_gain_chart"), figure(at, "pr_lift_chart")
    for spec, kind, col in ((gain, "gain", "recall"), (lift, "lift", "lift")):
        curves = traces(spec, kind)
        assert [t["meta"][1] for t in curves] == list(scores)
        for i, (trace, (name, s)) in enumerate(zip(curves, scores.items())):
            ref = rocci.gain_curve(y, s).to_frame()
            if kind == "lift":
                ref = ref[ref["n_predicted_positive"] > 0]
            np.testing.assert_allclose(decode(trace["x"]), ref["total_positive_rate"])
            np.testing.assert_allclose(decode(trace["y"]), ref[col])
            assert trace["line"]["color"] == color_for(i) and trace["line"]["dash"] == dash_for(i)
    np.testing.assert_allclose(decode(traces(gain, "baseline")[0]["y"]), [0, 1])
    np.testing.assert_allclose(decode(traces(lift, "baseline")[0]["y"]), [1, 1])
    s = scores[model]
    if at_ == "threshold":
        ref = rp.gain_ci(y, s, thresholds=depth_thresholds(y, s, depths), confidence_level=level, method=method)
    else:
        ref = rp.gain_ci(y, s, total_positive_rate=depths, confidence_level=level, method=method)
    for spec, q in ((gain, "gain"), (lift, "lift")):
        bars = traces(spec, f"{q}-intervals")[0]
        ok = np.isfinite(getattr(ref, q))
        np.testing.assert_allclose(decode(bars["x"]), ref.total_positive_rate[ok])
        y_ = decode(bars["y"])
        np.testing.assert_allclose(y_, getattr(ref, q)[ok])
        np.testing.assert_allclose(y_ + decode(bars["error_y"]["array"]), getattr(ref, f"{q}_high")[ok])
        np.testing.assert_allclose(y_ - decode(bars["error_y"]["arrayminus"]), getattr(ref, f"{q}_low")[ok])
        assert ("error_x" in bars) == (at_ == "threshold")
        if at_ == "threshold":
            x_ = decode(bars["x"])
            np.testing.assert_allclose(x_ + decode(bars["error_x"]["array"]), ref.total_positive_rate_high[ok])
            np.testing.assert_allclose(x_ - decode(bars["error_x"]["arrayminus"]), ref.total_positive_rate_low[ok])
    tab = table(at, "gain_high")
    want = ref.to_frame()
    for c in ("total_positive_rate", "gain", "gain_low", "gain_high", "lift", "lift_low", "lift_high"):
        np.testing.assert_allclose(tab[c], want[c], err_msg=c)
    return ref


def test_gain_and_lift_charts_on_the_imbalanced_upload(fraud):
    at = upload_app(fraud)
    assert_clean(at)
    y, _ = fraud_arrays(fraud, "gbm")
    scores = {m: fraud_arrays(fraud, m)[1] for m in MODELS}
    ref = check_gain(at, y, scores, "gbm")
    # the plain caption says what gain and lift are and what the interval promises
    text = captions(at)
    assert "**Gain**: target the top-scored share" in text and "**Lift** = gain ÷ depth" in text
    assert "95% percentile intervals for gbm at the chosen depths" in text
    assert "**the threshold held fixed**" in text and "not a band for the whole curve" in text
    # its entries in the HTML report: both charts, the caption and the table (with its numbers)
    rep = at.session_state["_rocci_report"]
    titles = [t for k, t, _ in rep.items if k == "figure"]
    assert "Gain chart" in titles and "Lift chart" in titles
    tables = [p for k, t, p in rep.items if k == "table" and "gain and lift" in t.lower()]
    assert tables
    frame = tables[0]() if callable(tables[0]) else tables[0]
    np.testing.assert_allclose(frame["gain_high"], ref.gain_high)
    assert set(frame["model"]) == {"gbm"} and set(frame["at"]) == {"threshold"}
    page = rep.html(dataset="fraud.csv")
    assert "Gain chart" in page and "Lift chart" in page


def test_gain_at_fixed_depths_other_model_and_wald(fraud):
    at = upload_app(fraud)
    at.selectbox(key="pr_model").set_value("logit").run()
    at.selectbox(key="pr_method").set_value("wald").run()
    at.select_slider(key="pr_level").set_value(0.9).run()
    at.text_input(key="pr_depths").input("0.02, 0.1, 0.25").run()
    at.segmented_control(key="pr_gain_at").set_value("depth").run()
    assert_clean(at)
    y, _ = fraud_arrays(fraud, "gbm")
    scores = {m: fraud_arrays(fraud, m)[1] for m in MODELS}
    ref = check_gain(at, y, scores, "logit", depths=[0.02, 0.1, 0.25], at_="depth", level=0.9, method="wald")
    assert list(ref.k) == [16, 80, 200]
    assert "**the depth held fixed**" in captions(at)
    # empty depths: the charts without intervals, and a hint
    at.text_input(key="pr_depths").input("").run()
    assert_clean(at)
    assert not traces(figure(at, "pr_gain_chart"), "gain-intervals")
    assert "Type depths on the left" in captions(at)


def test_gain_choices_round_trip_through_the_url(fraud):
    at = upload_app(fraud, {"pr_depths": "0.1, 0.4", "pr_gain_at": "The depth", "pr_model": "rules_v2"})
    assert_clean(at)
    assert at.text_input(key="pr_depths").value == "0.1, 0.4"
    assert at.segmented_control(key="pr_gain_at").value == "depth"
    y, _ = fraud_arrays(fraud, "gbm")
    check_gain(at, y, {m: fraud_arrays(fraud, m)[1] for m in MODELS}, "rules_v2", depths=[0.1, 0.4], at_="depth")


@pytest.mark.parametrize("text", ["abc", "0.5, 1.5", "0", "1"])
def test_bad_depths_give_an_error_box(text):
    at = new_app(PAGE)
    at.text_input(key="pr_depths").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.error and any("depth" in e.value.lower() for e in at.error)
    assert any("Fix the highlighted input" in i.value for i in at.info)
