"""Threshold explorer page, driven by AppTest: confusion matrix, indicators, charts, threshold choosers,
binomial test, URL round trip and bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, traces, uploaded_app

import rocci
import rocci.precision as rp
from rocci import data as rdata
from ui.text import pvalue_text

PAGE = "app_pages/explorer.py"


def _arrays(model, sample="breast_cancer_cv.csv"):
    """(is_positive, scores) of a bundled sample, prepared as the dashboard does."""
    df = rocci.load_table(ROOT / "data" / sample)
    g = rdata.guess_columns(df)
    scores = ["score"] if sample == "heart_disease_test20.csv" else g["scores"]
    pos = rdata.guess_pos_label(rdata.label_values(df, g["label"]))
    prep = rdata.prepare_binary(df, label=g["label"], scores=scores, pos_label=pos)
    return np.asarray(prep.is_positive, bool), np.asarray(prep.scores[model], float)


def table(at, column: str) -> pd.DataFrame:
    return next(df.value for df in at.dataframe if column in df.value.columns)


def matrix(at) -> pd.DataFrame:
    return next(t.value for t in at.table if "Predicted positive" in t.value.columns)


def metrics(at) -> dict:
    labels = [m.label for m in at.metric]
    assert len(labels) == len(set(labels)), labels  # each number shown once
    return {m.label: m.value for m in at.metric}


def heart_app():
    at = new_app()
    at.selectbox(key="sample").set_value("heart_disease_test20.csv").run()
    at.switch_page(PAGE).run()
    assert_clean(at)
    return at


#: Rows of the indicator table: (label, rocci.precision metric, one minus it?).
EXACT_ROWS = [("Accuracy", "accuracy", False), ("Error rate", "accuracy", True), ("Precision", "precision", False),
              ("Recall (sensitivity)", "recall", False), ("Specificity", "specificity", False),
              ("False-positive rate", "specificity", True), ("Negative predictive value", "npv", False),
              ("F-measure (F1)", "f1", False), ("Matthews correlation (MCC)", "mcc", False)]


def _assert_indicators(at, conf, y, s, *, level=0.95, method="percentile"):
    """The table's intervals are the exact bootstrap laws' (rocci.precision.metric_ci) at conf's threshold."""
    tab = table(at, "p_undefined").set_index("indicator")
    for label, metric, complement in EXACT_ROWS:
        ref = rp.metric_ci(y, s, metric=metric, thresholds=[conf.threshold], confidence_level=level, method=method)
        v, lo, hi = float(ref.value[0]), float(ref.low[0]), float(ref.high[0])
        if complement:
            v, lo, hi = 1 - v, 1 - hi, 1 - lo
        np.testing.assert_allclose(tab.loc[label, ["value", "low", "high"]].to_numpy(float), [v, lo, hi],
                                   err_msg=label)
        np.testing.assert_allclose(tab.loc[label, "p_undefined"], ref.p_undefined[0], err_msg=label)
        assert "stratified exact bootstrap" in tab.loc[label, "law"]
    # the total-positive rate: its count's full-bootstrap binomial law (rocci.confusion_at)
    rate = conf.interval("total_positive_rate")
    np.testing.assert_allclose(tab.loc["Total-positive rate", ["value", "low", "high"]].to_numpy(float),
                               [conf.total_positive_rate, rate.low, rate.high])
    # its sd is Bin(n, rate)/n's, checked against the law itself
    from scipy.stats import binom

    n, r = conf.n, conf.total_positive_rate
    np.testing.assert_allclose(tab.loc["Total-positive rate", "std"], binom.std(n, r) / n, rtol=1e-12)


def test_heart_sample_matches_the_api_and_tanagra():
    at = heart_app()
    y, s = _arrays("score", "heart_disease_test20.csv")
    conf = rocci.confusion_at(y, s, 0.5, method="percentile")
    # Tanagra's matrix at 0.5 (seed 004): 5 5 / 2 8
    assert matrix(at).values.tolist() == [[5, 5, 10], [2, 8, 10], [7, 13, 20]]
    _assert_indicators(at, conf, y, s)
    m = metrics(at)
    assert m["Predicted positive (of 20)"] == "7"
    assert m["Accuracy"] == f"{conf.accuracy:.4f}" and m["Precision"] == f"{conf.precision:.4f}"
    # charts: curves are rocci's, the current point sits at the confusion matrix's rates
    gain = figure(at, "ex_gain")
    curve = traces(gain, "gain")[0]
    np.testing.assert_allclose(decode(curve["y"]), rocci.gain_curve(y, s).recall)
    cur = traces(gain, "current")[0]
    assert decode(cur["x"])[0] == pytest.approx(0.35) and decode(cur["y"])[0] == pytest.approx(0.5)
    # the current point's recall bar is the exact law's interval
    rec = rp.metric_ci(y, s, metric="recall", thresholds=[0.5])
    assert 0.5 + decode(cur["error_y"]["array"])[0] == pytest.approx(rec.high[0])
    pr_cur = traces(figure(at, "ex_pr"), "current")[0]
    prec = rp.metric_ci(y, s, metric="precision", thresholds=[0.5])
    assert decode(pr_cur["y"])[0] - decode(pr_cur["error_y"]["arrayminus"])[0] == pytest.approx(prec.low[0])
    pr = figure(at, "ex_pr")
    np.testing.assert_allclose(decode(traces(pr, "pr")[0]["y"]), rocci.pr_curve(y, s, interpolate=False).precision)
    assert traces(figure(at, "ex_reading"), "reading")
    # the full table is threshold_table's
    full = table(at, "n_at_threshold")
    pd.testing.assert_frame_equal(full.reset_index(drop=True), rocci.threshold_table(y, s).to_frame(),
                                  check_dtype=False)
    # binomial test against the default p0 = error rate of always predicting the larger class (0.5 here)
    test = rocci.binomial_test(7, 20, 0.5, alternative="less")
    assert m["P-value"] == pvalue_text(test.pvalue) and m["Errors"] == "7 of 20"
    captions = " ".join(c.value for c in at.caption)
    assert f"[{test.error_rate_low:.4f}, {test.error_rate_high:.4f}]" in captions
    assert "Clopper–Pearson" in captions


@pytest.mark.parametrize(
    "by, setup, expected",
    [
        ("rate", {"ex_rate": 0.35}, lambda y, s: rocci.rate_threshold(y, s, 0.35)),
        ("youden", {}, lambda y, s: rocci.youden_threshold(y, s)),
        ("cost", {"op_p": 0.2, "op_cfn": 5.0}, lambda y, s: rocci.cost_threshold(y, s, p_pos=0.2, cost_fn=5.0)),
        ("cost", {}, lambda y, s: rocci.cost_threshold(y, s)),
        ("value", {"ex_tv": 0.3}, lambda y, s: 0.3),
    ],
)
def test_threshold_choosers(by, setup, expected):
    at = heart_app()
    at.segmented_control(key="ex_by").set_value(by).run()
    for key, value in setup.items():
        at.number_input(key=key).set_value(value).run()
    assert_clean(at)
    y, s = _arrays("score", "heart_disease_test20.csv")
    t = expected(y, s)
    _assert_indicators(at, rocci.confusion_at(y, s, t, method="percentile"), y, s)
    text = " ".join(m.value for m in at.markdown)
    assert f"score ≥ {rocci.confusion_at(y, s, t).threshold:g}".replace(".", "\\.") in text


def test_youden_on_heart_is_the_higher_of_two_ties():
    at = heart_app()
    at.segmented_control(key="ex_by").set_value("youden").run()
    assert_clean(at)
    assert matrix(at).values.tolist()[0][:2] == [7, 3]  # threshold 0.4468, not 0.3956


def test_model_level_and_method_follow_the_api():
    at = new_app(PAGE)
    assert_clean(at)
    at.selectbox(key="ex_model").set_value("naive_bayes").run()
    at.select_slider(key="ex_level").set_value(0.9).run()
    at.selectbox(key="ex_method").set_value("wald").run()
    assert_clean(at)
    y, s = _arrays("naive_bayes")
    conf = rocci.confusion_at(y, s, 0.5, confidence_level=0.9, method="wald")
    _assert_indicators(at, conf, y, s, level=0.9, method="wald")


def test_choices_restored_from_the_url():
    query = {"ex_model": "naive_bayes", "ex_by": "Positive rate", "ex_rate": "0.2", "ex_level": "90%",
             "ex_method": "Wald", "ex_p0": "0.3", "ex_alt": "Different from p0"}
    at = new_app(PAGE, query)
    assert_clean(at)
    assert at.selectbox(key="ex_model").value == "naive_bayes"
    assert at.segmented_control(key="ex_by").value == "rate"
    assert at.number_input(key="ex_rate").value == pytest.approx(0.2)
    assert at.select_slider(key="ex_level").value == 0.9
    assert at.selectbox(key="ex_method").value == "wald"
    assert at.text_input(key="ex_p0").value == "0.3"
    assert at.selectbox(key="ex_alt").value == "two-sided"
    y, s = _arrays("naive_bayes")
    t = rocci.rate_threshold(y, s, 0.2)
    conf = rocci.confusion_at(y, s, t, confidence_level=0.9, method="wald")
    _assert_indicators(at, conf, y, s, level=0.9, method="wald")
    test = rocci.binomial_test(conf.errors, conf.n, 0.3, alternative="two-sided", confidence_level=0.9)
    assert metrics(at)["P-value"] == pvalue_text(test.pvalue)
    # (writing the choices back into the URL is the browser's job: tests/browser/test_explorer.py)


@pytest.mark.parametrize("p0", ["1.5", "abc", "0", "1"])
def test_bad_p0_gives_an_error_box(p0):
    at = heart_app()
    at.text_input(key="ex_p0").input(p0).run()
    assert not at.exception
    assert at.error and "p0" in at.error[0].value
    # the rest of the page still works
    assert matrix(at).values.tolist()[0][:2] == [5, 5]


def test_p0_text_from_a_shared_link_is_not_markup():
    at = new_app(PAGE, {"ex_p0": "**big** [x](http://e.org)"})
    assert not at.exception
    assert at.error and "\\*\\*big\\*\\*" in at.error[0].value and "\\[x\\]" in at.error[0].value


def test_zero_costs_warn_and_all_negative_threshold():
    at = heart_app()
    at.segmented_control(key="ex_by").set_value("cost").run()
    at.number_input(key="op_cfn").set_value(0.0).run()
    at.number_input(key="op_cfp").set_value(0.0).run()
    assert not at.exception
    assert at.warning and "both be 0" in at.warning[0].value
    # a missed positive costs nothing: calling everything negative is cheapest (threshold +inf)
    at.number_input(key="op_cfp").set_value(1.0).run()
    assert_clean(at)
    assert matrix(at).values.tolist()[2][:2] == [0, 20]
    assert metrics(at)["Precision"] == "—"
    assert any("No instance scores at or above" in i.value for i in at.info)


def test_large_upload_stays_compact():
    """100,000 rows: charts drawn from a compact grid, the table shows its first rows, numbers are rocci's."""
    rng = np.random.default_rng(5)
    n = 100_000
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(size=n) + 1.1 * y, 4)
    csv = pd.DataFrame({"label": y, "score": s}).to_csv(index=False).encode()
    at = uploaded_app(csv, PAGE, name="big.csv")
    assert_clean(at)
    from rocci.plots import MAX_CURVE_POINTS

    for key, kind in (("ex_gain", "gain"), ("ex_pr", "pr"), ("ex_reading", "reading")):
        curve = traces(figure(at, key), kind)[0]
        assert len(decode(curve["x"])) <= MAX_CURVE_POINTS + 2, key
    shown = table(at, "n_at_threshold")
    assert len(shown) == 2000
    assert any("The first 2,000 of" in c.value for c in at.caption)
    t = at.slider(key="ex_t").value  # margins, not probabilities: as many flagged as there are positives
    assert t == pytest.approx(np.quantile(s, 1 - y.mean()), abs=0.005)  # on the slider's step, 0.01
    conf = rocci.confusion_at(y, s, t, method="percentile")
    _assert_indicators(at, conf, y, s)


def test_method_note_says_how_much_the_heart_intervals_moved():
    """The sentence in the method note is what rocci computes: the conditional-binomial Wilson intervals
    (rocci.confusion_at, the page's old default) against the exact laws (rocci.precision.metric_ci)."""
    at = heart_app()
    y, s = _arrays("score", "heart_disease_test20.csv")
    old = rocci.confusion_at(y, s, 0.5, method="wilson").to_frame().set_index("indicator")
    diffs = {}
    for label, metric, complement in EXACT_ROWS:
        if metric in ("npv", "mcc"):
            continue  # not shown before
        ref = rp.metric_ci(y, s, metric=metric, thresholds=[0.5])
        lo, hi = (1 - ref.high[0], 1 - ref.low[0]) if complement else (ref.low[0], ref.high[0])
        key = {"Error rate": "error_rate", "False-positive rate": "fpr"}.get(label, metric)
        diffs[key] = max(abs(old.loc[key, "low"] - lo), abs(old.loc[key, "high"] - hi))
    assert len(diffs) == 7
    prec = rp.metric_ci(y, s, metric="precision", thresholds=[0.5])
    text = " ".join(c.value for c in at.caption)
    assert f"by up to {max(diffs.values()):.2f} at an end" in text
    assert f"[{prec.low[0]:.2f}, {prec.high[0]:.2f}] now, [{old.loc['precision', 'low']:.2f}, " \
           f"{old.loc['precision', 'high']:.2f}] before" in text
    assert f"by {np.mean(list(diffs.values())):.2f} on average" in text


def test_defaults_follow_the_data_scale_and_positive_share(tmp_path):
    """Margins on (−4, 6) with 3% positives: the slider starts at the score that flags as many instances
    as there are positives (not 0.5, which happens to lie in the range, nor the median, which flags half);
    'Positive rate' starts at the positives' share. Probability-scale scores keep 0.5."""
    rng = np.random.default_rng(5)
    n = 3000
    y = rng.random(n) < 0.03
    frame = pd.DataFrame({"status": np.where(y, "default", "repaid"),
                          "margin": np.round(rng.normal(size=n) + 2.5 * y, 3)})
    path = tmp_path / "loans.csv"
    frame.to_csv(path, index=False)
    at = uploaded_app(path, PAGE)
    assert_clean(at)
    s = frame["margin"].to_numpy()
    share = y.mean()
    t = at.slider(key="ex_t").value
    assert t == pytest.approx(np.quantile(s, 1 - share), abs=0.005)  # on the slider's 0.01 step
    flagged = (s >= t).sum()
    assert abs(flagged - y.sum()) <= 0.2 * y.sum()  # about as many flagged as there are positives
    at.segmented_control(key="ex_by").set_value("rate").run()
    assert_clean(at)
    assert at.number_input(key="ex_rate").value == pytest.approx(float(f"{share:.3g}"))
    # the bundled breast-cancer sample's scores are probabilities: 0.5
    at2 = new_app(PAGE)
    assert at2.slider(key="ex_t").value == 0.5
