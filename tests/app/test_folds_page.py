"""Folds & classes page, driven by AppTest: fold curves, averages, pooled band, t-test, classes, URL."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, traces, uploaded_app

import rocci
from rocci import data as rdata
from ui.text import md_escape

PAGE = "app_pages/folds.py"
BAND_FPR = list(np.round(np.linspace(0.01, 0.99, 99), 2))
WINE_COLUMNS = ["cultivar_1", "cultivar_2", "cultivar_3"]


def _cv(model="logistic"):
    """(is_positive, scores, folds) of the breast-cancer sample, prepared as the dashboard does."""
    df = rocci.load_table(ROOT / "data" / "breast_cancer_cv.csv")
    g = rdata.guess_columns(df)
    pos = rdata.guess_pos_label(rdata.label_values(df, g["label"]))
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"], pos_label=pos, fold=g["fold"])
    return np.asarray(prep.is_positive), prep.scores, np.asarray(prep.fold)


def _wine():
    df = rocci.load_table(ROOT / "data" / "wine_cv.csv")
    return df["class"].to_numpy(), df[WINE_COLUMNS].to_numpy()


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def table(at, key_column: str):
    return next(df.value for df in at.dataframe if key_column in df.value.columns)


def wine_app(query=None):
    at = new_app()
    at.selectbox(key="sample").set_value("wine_cv.csv").run()
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture
def folds_app():
    at = new_app(PAGE)
    assert_clean(at)
    return at


def test_default_sample_fold_curves_average_and_pooled_band(folds_app):
    at = folds_app
    y, scores, f = _cv()
    s = scores["logistic"]
    curves = rocci.fold_roc_curves(y, s, f)
    m = metrics(at)
    assert m["Folds"] == "5"
    assert m["Mean of the fold AUCs"] == f"{curves.auc.mean():.4f}"
    assert m["AUC of the pooled data"] == f"{rocci.roc_curve(y, s).auc:.4f}"
    spec = figure(at, "fc_folds_chart")
    assert [t["meta"][1] for t in traces(spec, "fold")] == ["1", "2", "3", "4", "5"]
    vert = rocci.fold_vertical_average(y, s, f)
    mean = next(t for t in traces(spec, "vertical-average") if t["meta"][1] == "mean")
    np.testing.assert_allclose(decode(mean["y"]), vert.tpr_mean)
    band = {t["meta"][1]: t for t in traces(spec, "vertical-average")}
    np.testing.assert_allclose(decode(band["low"]["y"]), vert.tpr_low)
    np.testing.assert_allclose(decode(band["band"]["y"]), vert.tpr_high)
    # The pooled chart's band is rocci.vertical_ci on all folds together.
    pooled = figure(at, "fc_pooled_chart")
    vci = rocci.vertical_ci(y, s, fpr=BAND_FPR, method="percentile")  # the page's band
    hi = next(t for t in traces(pooled, "vertical-band") if t["meta"][1] == "high")
    np.testing.assert_allclose(decode(hi["y"]), vci.tpr_high)
    # Tables: per fold, and the vertical average.
    per_fold = table(at, "auc")
    np.testing.assert_allclose(per_fold["auc"], curves.auc)
    assert per_fold["n_pos"].tolist() == [c.n_pos for c in curves.curves]
    np.testing.assert_allclose(table(at, "tpr_mean")["tpr_high"], vert.tpr_high)
    captions = " ".join(c.value for c in at.caption)
    assert "Two kinds of uncertainty" in captions and "exact bootstrap" in captions
    assert md_escape("95% t-interval of the mean over 5 folds") in captions


def test_paired_t_test_equals_compare_folds(folds_app):
    at = folds_app
    y, scores, f = _cv()
    cmp = rocci.compare_folds(y, scores["logistic"], scores["naive_bayes"], f)
    m = metrics(at)
    assert m["Mean AUC difference (A − B)"] == f"{cmp.mean:+.4f}"
    assert m["95% interval"] == f"[{cmp.low:.4f}, {cmp.high:.4f}]"
    assert m["t statistic"] == f"{cmp.statistic:.3f}"
    assert m["p-value (two-sided)"] == f"{cmp.pvalue:.4f}"
    tab = table(at, "delta_value")
    np.testing.assert_allclose(tab["value_b"], cmp.value_b)
    at.segmented_control(key="fc_measure").set_value("error").run()
    at.number_input(key="fc_tb").set_value(0.3).run()
    assert_clean(at)
    err = rocci.compare_folds(y, scores["logistic"], scores["naive_bayes"], f, measure="error",
                              thresholds_a=0.5, thresholds_b=0.3)
    assert metrics(at)["p-value (two-sided)"] == f"{err.pvalue:.4f}"
    np.testing.assert_allclose(table(at, "delta_value")["delta_value"], err.delta_value)


def test_threshold_average_with_sd_band(folds_app):
    at = folds_app
    at.segmented_control(key="fc_avg").set_value("threshold").run()
    at.selectbox(key="fc_spread").set_value("sd").run()
    at.select_slider(key="fc_level").set_value(0.9).run()
    at.selectbox(key="fc_model").set_value("naive_bayes").run()
    assert_clean(at)
    y, scores, f = _cv()
    s = scores["naive_bayes"]
    thr = rocci.fold_threshold_average(y, s, f, n_thresholds=20, spread="sd", confidence_level=0.9)
    spec = figure(at, "fc_folds_chart")
    pts = traces(spec, "threshold-average")[0]
    np.testing.assert_allclose(decode(pts["x"]), thr.fpr_mean)
    np.testing.assert_allclose(decode(pts["y"]), thr.tpr_mean)
    np.testing.assert_allclose(decode(pts["error_y"]["array"]), thr.tpr_high - thr.tpr_mean)
    tci = rocci.threshold_ci(y, s, thresholds=thr.thresholds, confidence_level=0.9, region="marginal")
    pooled = traces(figure(at, "fc_pooled_chart"), "pooled-threshold")[0]
    np.testing.assert_allclose(decode(pooled["y"]), tci.tpr)
    np.testing.assert_allclose(decode(pooled["error_x"]["array"]), tci.fpr_high - tci.fpr)
    tab = table(at, "fpr_mean")
    np.testing.assert_allclose(tab["tpr_low"], thr.tpr_low)
    assert "± 1 standard deviation over 5 folds" in " ".join(c.value for c in at.caption)


def test_choices_restored_from_the_url():
    query = {"fc_model": "naive_bayes", "fc_avg": "Threshold", "fc_spread": "± 1 standard error",
             "fc_level": "90%", "fc_nthr": "10", "fc_show": "false", "fc_measure": "Error rate",
             "fc_ta": "0.4"}
    at = new_app(PAGE, query)
    assert_clean(at)
    assert at.selectbox(key="fc_model").value == "naive_bayes"
    assert at.segmented_control(key="fc_avg").value == "threshold"
    assert at.selectbox(key="fc_spread").value == "se"
    assert at.select_slider(key="fc_level").value == 0.9
    assert at.slider(key="fc_nthr").value == 10
    assert at.toggle(key="fc_show").value is False
    assert at.segmented_control(key="fc_measure").value == "error"
    assert at.number_input(key="fc_ta").value == pytest.approx(0.4)
    spec = figure(at, "fc_folds_chart")
    assert not traces(spec, "fold")  # the folds' curves are hidden
    y, scores, f = _cv()
    thr = rocci.fold_threshold_average(y, scores["naive_bayes"], f, n_thresholds=10, spread="se",
                                       confidence_level=0.9)
    np.testing.assert_allclose(decode(traces(spec, "threshold-average")[0]["y"]), thr.tpr_mean)


def test_several_classes_with_the_wine_sample():
    at = wine_app()
    assert not at.error, [e.value for e in at.error]
    y, S = _wine()
    ovr = rocci.one_vs_rest(y, S, fpr=BAND_FPR, vertical_method="percentile")  # the page's percentile bands
    top = rocci.top_score_curve(y, S)
    m = metrics(at)
    assert m["Classes"] == "3"
    assert m["Accuracy"] == f"{top.accuracy:.1%}"
    assert m["AUC of correct vs top score"] == f"{top.auc:.4f}"
    tab = table(at, "auc_low")
    np.testing.assert_allclose(tab["auc"], [a.auc for a in ovr.aucs])
    np.testing.assert_allclose(tab["auc_high"], [a.auc_high for a in ovr.aucs])
    spec = figure(at, "fc_ovr_chart")
    assert [t["meta"][1] for t in traces(spec, "roc")] == [f"{c} vs rest" for c in WINE_COLUMNS]
    highs = [t for t in traces(spec, "vertical-band") if t["meta"][1] == "high"]
    for h, v in zip(highs, ovr.vertical):
        np.testing.assert_allclose(decode(h["y"]), v.tpr_high)
    top_spec = figure(at, "fc_top_chart")
    band = next(t for t in traces(top_spec, "vertical-band") if t["meta"][1] == "high")
    np.testing.assert_allclose(decode(band["y"]), rocci.vertical_ci(top.correct, top.top_score, fpr=BAND_FPR,
                                                                  method="percentile").tpr_high)
    curve_table = next(df.value for df in at.dataframe if "tp" in df.value.columns and "class" not in df.value.columns)
    np.testing.assert_allclose(curve_table["tp"], top.curve.tp)


def test_classes_choices_from_the_url_and_a_wrong_score_column():
    at = wine_app({"fc_clevel": "90%", "fc_auc_method": "Hanley-McNeil", "fc_bands": "false"})
    assert not at.error
    assert at.select_slider(key="fc_clevel").value == 0.9
    y, S = _wine()
    ovr = rocci.one_vs_rest(y, S, confidence_level=0.9, auc_method="hanley-mcneil", intervals=False)
    np.testing.assert_allclose(table(at, "auc_low")["auc_low"], [a.auc_low for a in ovr.aucs])
    assert not traces(figure(at, "fc_ovr_chart"), "vertical-band")
    # Two classes given the same score column: a warning, not an exception.
    boxes = [s for s in at.selectbox if str(s.key).startswith("fc_col_")]
    assert [b.value for b in boxes] == WINE_COLUMNS
    boxes[1].set_value("cultivar_1").run()
    assert not at.exception and at.warning and "chosen twice" in at.warning[0].value


def test_data_without_folds_or_classes_gives_the_info():
    at = new_app()
    at.selectbox(key="sample").set_value("heart_disease_test20.csv").run()
    at.switch_page(PAGE).run()
    assert_clean(at)
    assert at.info and "fold column" in at.info[0].value
    assert not at.get("plotly_chart")
    # The offered sample loads and the page then shows the folds.
    at.button(key="fc_load_folds").click().run()
    assert_clean(at)
    assert metrics(at)["Folds"] == "5"


def test_thesis_sample_gives_the_info_and_the_wine_button_loads():
    at = new_app()
    at.selectbox(key="sample").set_value("thesis_example.csv").run()
    at.switch_page(PAGE).run()
    assert_clean(at)
    assert at.info
    at.button(key="fc_load_classes").click().run()
    assert not at.exception
    assert metrics(at)["Classes"] == "3"


def _upload(text: str):
    at = uploaded_app(text.encode(), PAGE, name="cv.csv")
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_one_fold_and_a_fold_with_one_class():
    rows = "\n".join(f"{i % 2},{0.1 * (i % 7)},{f}" for i, f in enumerate([1] * 12))
    at = _upload("label,score,fold\n" + rows + "\n")
    assert at.info and "single value" in at.info[0].value
    rows = "\n".join(f"{lab},{0.1 * (i % 7)},{f}" for i, (lab, f) in
                     enumerate([(0, 1), (1, 1), (0, 1), (1, 1), (1, 2), (1, 2), (1, 2)]))
    at = _upload("label,score,fold\n" + rows + "\n")
    assert at.error and "Fold 2 has no negative instances" in at.error[0].value
