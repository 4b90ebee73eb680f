"""Compare models page, driven by AppTest: every number on the page is the Python API's, the choices
live in the URL, only the open tab runs, bad input gives a message."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, traces, uploaded_app

import rocci
from rocci import data as rdata
from ui.cache import compare as cache_compare
from ui.text import pvalue_text

PAGE = "app_pages/compare.py"


def _arrays(sample="breast_cancer_cv.csv"):
    """(is_positive, scores of model a, scores of model b) of a bundled sample, as the dashboard prepares them."""
    df = rocci.load_table(ROOT / "data" / sample)
    g = rdata.guess_columns(df)
    pos = rdata.guess_pos_label(rdata.label_values(df, g["label"]))
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"], pos_label=pos)
    a, b = g["scores"][:2]
    return np.asarray(prep.is_positive, bool), np.asarray(prep.scores[a], float), np.asarray(prep.scores[b], float)


def table(at, column: str) -> pd.DataFrame:
    return next(df.value for df in at.dataframe if column in df.value.columns)


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_pairs_dominance_and_chart_are_the_api_numbers():
    at = new_app(PAGE)
    assert_clean(at)
    y, a, b = _arrays()
    ref = rocci.compare_thresholds(y, a, b, total_positive_rate=[0.1, 0.2, 0.3, 0.5])
    tab = table(at, "p_a_dominates")
    for col in ["threshold_a", "threshold_b", "p_a_dominates", "p_b_dominates", "delta_tpr", "delta_tpr_low",
                "delta_tpr_high", "delta_fpr_low", "delta_fpr_high"]:
        np.testing.assert_allclose(tab[col], ref.to_frame()[col], rtol=1e-12, atol=1e-15, err_msg=col)
    # the achieved fraction flagged by each model (ties can make it exceed the rate asked for)
    n = y.size
    np.testing.assert_allclose(tab["rate_a"], [(a >= t).sum() / n for t in ref.thresholds_a], rtol=1e-12)
    np.testing.assert_allclose(tab["rate_b"], [(b >= t).sum() / n for t in ref.thresholds_b], rtol=1e-12)
    # one plain-language sentence per pair, with the probabilities written as percentages
    sentences = [m.value for m in at.markdown if m.value.startswith("**Pair ")]
    assert len(sentences) == 4
    assert f"in {round(100 * ref.p_a_dominates[2])}% of bootstrap worlds model **logistic**" in sentences[2]
    # naive_bayes has 31% of its scores tied at 1: at rate 0.1 it flags them all, and the sentence says so
    flagged = 100 * (b >= ref.thresholds_b[0]).mean()
    assert flagged > 30
    assert f"Tied scores: naive\\_bayes flags {flagged:.1f}% of the instances, not 10%" in sentences[0]
    assert "logistic flags" not in sentences[0]
    # the chart: both ROC curves, both models' rectangles, and the pair links at the compared points
    spec = figure(at, "cmp_chart")
    assert len(traces(spec, "roc")) == 2
    labels = traces(spec, "pair-label")[0]
    np.testing.assert_allclose(decode(labels["x"]), (ref.fpr_a + ref.fpr_b) / 2, rtol=1e-12)
    np.testing.assert_allclose(decode(labels["y"]), (ref.tpr_a + ref.tpr_b) / 2, rtol=1e-12)


def test_equal_thresholds_and_bootstrap_size_from_the_url():
    at = new_app(PAGE, query={"cmp_by": "Equal thresholds", "cmp_thr": "0.3, 0.7", "cmp_m_pos": "100", "cmp_level": "90%"})
    assert_clean(at)
    y, a, b = _arrays()
    ref = rocci.compare_thresholds(y, a, b, thresholds_a=[0.3, 0.7], m=[100, int((~y).sum())],
                                   confidence_level=0.9)
    tab = table(at, "p_a_dominates")
    np.testing.assert_allclose(tab["threshold_a"], [0.3, 0.7])
    np.testing.assert_allclose(tab["threshold_b"], [0.3, 0.7])
    np.testing.assert_allclose(tab["p_b_dominates"], ref.p_b_dominates, rtol=1e-12)
    np.testing.assert_allclose(tab["delta_fpr_high"], ref.delta_fpr_high, rtol=1e-12)
    # the same numbers differ from those at m = n, so the control is really used
    full = rocci.compare_thresholds(y, a, b, thresholds_a=[0.3, 0.7], confidence_level=0.9)
    assert not np.allclose(full.delta_tpr_low, ref.delta_tpr_low)
    assert any("m+ = 100" in c.value for c in at.caption)


def test_dominance_map_tab():
    at = new_app(PAGE)
    y, a, b = _arrays()
    spec = figure(at, "cmp_map")  # the first tab is open by default
    z = decode(traces(spec, "dominance-map")[0]["z"])
    ta, tb = cache_compare.quantile_grid(a), cache_compare.quantile_grid(b)
    ref = rocci.dominance_map(y, a, b, thresholds_a=list(ta), thresholds_b=list(tb))
    np.testing.assert_allclose(z, ref.p_a_dominates - ref.p_b_dominates, atol=1e-12)
    assert z.shape == (len(ta), len(tb))


def test_only_the_open_tab_runs_and_auc_tab_is_delong():
    at = new_app(PAGE)
    # AUC and McNemar tabs are closed: their code did not run (the verdict panel's metrics are not theirs)
    assert "z (DeLong)" not in metrics(at) and "χ² (McNemar, 1 df)" not in metrics(at)
    at = new_app(PAGE, query={"cmp_tab": "AUC (DeLong)"})
    assert_clean(at)
    y, a, b = _arrays()
    ref = rocci.compare_auc(y, a, b)
    got = metrics(at)
    assert got["ΔAUC (A − B)"] == f"{ref.delta_auc:+.4f}"
    assert got["95% DeLong interval"] == f"[{ref.delta_auc_low:+.4f}, {ref.delta_auc_high:+.4f}]"
    assert got["p-value (DeLong, two-sided)"] == pvalue_text(ref.pvalue)
    assert not at.get("plotly_chart") or all(not el.proto.id.endswith("-cmp_map") for el in at.get("plotly_chart"))


@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_tab(correction):
    at = new_app(PAGE, query={"cmp_tab": "McNemar"})
    at.selectbox(key="cmp_mc_pair").set_value(2)
    at.toggle(key="cmp_mc_corr").set_value(correction).run()
    assert_clean(at)
    y, a, b = _arrays()
    pairs = rocci.compare_thresholds(y, a, b, total_positive_rate=[0.1, 0.2, 0.3, 0.5])
    ref = rocci.mcnemar(y, a, b, thresholds_a=pairs.thresholds_a[2], thresholds_b=pairs.thresholds_b[2],
                        correction=correction)
    got = metrics(at)
    assert got["χ² (McNemar, 1 df)"] == f"{ref.statistic:.3f}"
    assert got["p-value (χ²)"] == pvalue_text(ref.pvalue)
    assert got["Exact p-value (binomial)"] == pvalue_text(ref.exact_pvalue)
    cells = at.dataframe[-1].value.to_numpy()
    np.testing.assert_array_equal(cells, ref.table().to_numpy())


def test_vertical_tab_table_and_distribution():
    cache_compare.VERTICAL_LEVELS.clear()
    at = new_app(PAGE, query={"cmp_tab": "TPR at fixed FPR", "cmp_vfpr": "0.05, 0.2", "cmp_vdist": "true"})
    assert_clean(at)
    y, a, b = _arrays()
    ref = rocci.compare_vertical(y, a, b, fpr=[0.05, 0.2])
    tab = table(at, "delta_tpr_mean")
    for col in ["r", "delta_tpr_mean", "delta_tpr_std", "delta_tpr_low", "delta_tpr_high", "p_a_better", "p_tie"]:
        np.testing.assert_allclose(tab[col], getattr(ref, col), rtol=1e-10, atol=1e-13, err_msg=col)
    # the bar chart is the exact law of the first level (bars above 1e-6 only)
    values, probs = ref.distribution(0)
    bars = traces(figure(at, "cmp_vchart"), "delta-law")[0]
    x, p = decode(bars["x"]), decode(bars["y"])
    keep = np.flatnonzero(probs > 1e-6)
    np.testing.assert_allclose(x, values[keep[0]:keep[-1] + 1], rtol=1e-12)
    np.testing.assert_allclose(p, probs[keep[0]:keep[-1] + 1], rtol=1e-12)
    # each level is stored once: asking again computes nothing new (the verdict's FPR 0.1 is a third level)
    assert len(cache_compare.VERTICAL_LEVELS._store) == 3
    at.text_input(key="cmp_vfpr").set_value("0.2, 0.3").run()
    assert_clean(at)
    assert len(cache_compare.VERTICAL_LEVELS._store) == 4
    np.testing.assert_allclose(table(at, "delta_tpr_mean")["delta_tpr_mean"],
                               rocci.compare_vertical(y, a, b, fpr=[0.2, 0.3]).delta_tpr_mean, rtol=1e-10)
    # the verdict's level is shared with the tab: asking the tab for FPR 0.1 computes nothing new
    at.text_input(key="cmp_vfpr").set_value("0.1").run()
    assert len(cache_compare.VERTICAL_LEVELS._store) == 4


def test_vertical_tab_waits_for_a_button_on_large_bootstrap_samples():
    cache_compare.VERTICAL_LEVELS.clear()
    at = new_app(PAGE, query={"cmp_tab": "TPR at fixed FPR", "cmp_m_neg": "150000"})
    assert_clean(at)
    assert not [d for d in at.dataframe if "delta_tpr_mean" in d.value.columns]
    assert any("150,000 negatives" in i.value for i in at.info)
    assert len(cache_compare.VERTICAL_LEVELS._store) == 0  # neither the tab's levels nor the verdict's
    assert at.button(key="cmp_verdict_run") is not None and at.button(key="cmp_vrun") is not None
    # the verdict's button computes its one level (and only it)
    at.button(key="cmp_verdict_run").click().run()
    assert_clean(at)
    y, a, b = _arrays()
    ref = rocci.compare_vertical(y, a, b, fpr=[0.1], m=[int(y.sum()), 150000])
    assert metrics(at)["ΔTPR, logistic − naive\\_bayes"] == f"{100 * ref.delta_tpr_mean[0]:+.1f} pts"
    assert len(cache_compare.VERTICAL_LEVELS._store) == 1


def test_bad_input_gives_messages_not_tracebacks():
    at = new_app(PAGE, query={"cmp_rates": "0.1, 1.7"})
    assert not at.exception
    assert any("1\\.7 is outside" in w.value for w in at.warning)  # md-escaped
    at = new_app(PAGE, query={"cmp_tab": "TPR at fixed FPR", "cmp_vfpr": "0.1, zero"})
    assert not at.exception
    assert any("zero" in w.value for w in at.warning)


def test_needs_two_models():
    at = new_app()
    at.selectbox(key="sample").set_value("heart_disease_test20.csv").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert any("two models" in i.value for i in at.info)


def test_corner_view_zooms_the_overlay():
    at = new_app(PAGE, query={"cmp_view": "Top-left corner"})
    assert_clean(at)
    layout = figure(at, "cmp_chart")["layout"]
    assert layout["xaxis"]["range"][1] <= 0.51 and layout["yaxis"]["range"][0] >= 0.49
    full = figure(new_app(PAGE), "cmp_chart")["layout"]
    assert full["xaxis"]["range"][1] >= 0.99


def test_where_the_percentile_interval_collapses_the_page_shows_the_score_interval():
    """At FPR .95 both models find every positive in (almost) every bootstrap world: the exact law is a
    point mass at 0 and the percentile interval is [0, 0]. The page shows compare_vertical's default, the
    score interval, which keeps a width there, and no zero-width warning."""
    cache_compare.VERTICAL_LEVELS.clear()
    at = new_app(PAGE, query={"cmp_tab": "TPR at fixed FPR", "cmp_vfpr": "0.2, 0.95"})
    assert_clean(at)
    y, a, b = _arrays()
    pct = rocci.compare_vertical(y, a, b, fpr=[0.2, 0.95], method="percentile")
    assert pct.delta_tpr_low[1] == pct.delta_tpr_high[1] == 0.0  # both models find every positive at FPR .95
    ref = rocci.compare_vertical(y, a, b, fpr=[0.2, 0.95])
    assert ref.method == "score" and ref.delta_tpr_low[1] < 0 < ref.delta_tpr_high[1]
    tab = table(at, "delta_tpr_mean")
    for col in ["delta_tpr_low", "delta_tpr_high"]:
        np.testing.assert_allclose(tab[col], getattr(ref, col), rtol=1e-10, atol=1e-13, err_msg=col)
    assert not [w.value for w in at.warning if "zero width" in w.value]
    assert any("score intervals on the exact paired law" in c.value for c in at.caption)


def test_verdict_panel_answers_first_with_the_api_numbers():
    """The page opens with the question answered: ΔAUC (DeLong), ΔTPR at 10% FPR (exact paired law) and the
    cost difference at the shared operating condition (prior = the data's share), each from rocci."""
    cache_compare.VERTICAL_LEVELS.clear()
    at = new_app(PAGE)
    assert_clean(at)
    y, a, b = _arrays()
    got = metrics(at)
    auc = rocci.compare_auc(y, a, b)
    assert got["ΔAUC, logistic − naive\\_bayes"] == f"{auc.delta_auc:+.3f}"
    vc = rocci.compare_vertical(y, a, b, fpr=[0.1])
    assert got["ΔTPR, logistic − naive\\_bayes"] == f"{100 * vc.delta_tpr_mean[0]:+.1f} pts"
    w = rocci.operating_point(float(np.mean(y)), 1.0, 1.0)
    cc = rocci.compare_cost(y, a, b, w=[w])
    k = float(np.mean(y)) * 1.0 + (1 - float(np.mean(y))) * 1.0
    from ui.operating import money

    assert got["ΔCost per 1,000, logistic − naive\\_bayes"].lstrip("+") == money(1000 * k * cc.delta_cost[0])
    captions = " ".join(c.value for c in at.caption)
    assert f"[{auc.delta_auc_low:+.3f}, {auc.delta_auc_high:+.3f}]" in captions
    assert f"[{100 * vc.delta_tpr_low[0]:+.1f}, {100 * vc.delta_tpr_high[0]:+.1f}] points" in captions
    assert f"[{cc.delta_cost_low[0]:+.4f}, {cc.delta_cost_high[0]:+.4f}]" in captions
    # the headline sentence sits above the cards and names the winner of each verdict or says it is unclear
    heads = [m.value for m in at.markdown if m.value.startswith("At the 95% level:")]
    assert len(heads) == 1
    if auc.delta_auc_low > 0:
        assert "**logistic** has the higher AUC" in heads[0]
    elif auc.delta_auc_high < 0:
        assert "**naive\\_bayes** has the higher AUC" in heads[0]
    else:
        assert "no clear winner on the higher AUC" in heads[0]


def test_verdict_follows_the_chosen_fpr_and_operating_condition():
    cache_compare.VERTICAL_LEVELS.clear()
    at = new_app(PAGE, query={"cmp_at_fpr": "0.05", "op_p": "0.1", "op_cfn": "10"})
    assert_clean(at)
    y, a, b = _arrays()
    vc = rocci.compare_vertical(y, a, b, fpr=[0.05])
    assert metrics(at)["ΔTPR, logistic − naive\\_bayes"] == f"{100 * vc.delta_tpr_mean[0]:+.1f} pts"
    w = rocci.operating_point(0.1, 10.0, 1.0)
    assert metrics(at)["Operating point w"] == f"{w:.4f}"
    cc = rocci.compare_cost(y, a, b, w=[w])
    captions = " ".join(c.value for c in at.caption)
    assert f"[{cc.delta_cost_low[0]:+.4f}, {cc.delta_cost_high[0]:+.4f}]" in captions
    assert f"in **" in captions and "of bootstrap worlds" in captions


def test_pair_rates_default_follows_a_rare_positive_share(tmp_path):
    """2% positives: the pairs are offered at 1, 2, 5 and 10 times that share, not at 10–50% of the rows,
    and the table is the API's at those rates; a balanced sample keeps the 10–50% grid."""
    from ui.controls import default_pair_rates

    assert default_pair_rates(212, 569) == "0.1, 0.2, 0.3, 0.5"
    assert default_pair_rates(19, 1000) == "0.019, 0.038, 0.095, 0.19"
    assert default_pair_rates(1, 10**6) == "1e-06, 2e-06, 5e-06, 1e-05"
    assert default_pair_rates(80, 1000) == "0.08, 0.16, 0.4, 0.8"
    rng = np.random.default_rng(3)
    n = 4000
    y = rng.random(n) < 0.02
    frame = pd.DataFrame({"status": np.where(y, "churned", "retained"),
                          "xgb": np.round(rng.normal(size=n) + 2.0 * y, 5),
                          "logreg": np.round(rng.normal(size=n) + 1.4 * y, 5)})
    path = tmp_path / "churn.csv"
    frame.to_csv(path, index=False)
    at = uploaded_app(path, PAGE)
    assert_clean(at)
    share = y.mean()
    expected = default_pair_rates(int(y.sum()), n)
    assert at.text_input(key="cmp_rates").value == expected
    rates = [float(r) for r in expected.split(",")]
    assert rates[0] == float(f"{share:.2g}")
    yy = frame["status"].to_numpy() == "churned"
    ref = rocci.compare_thresholds(yy, frame["xgb"].to_numpy(), frame["logreg"].to_numpy(), total_positive_rate=rates)
    tab = table(at, "p_a_dominates")
    np.testing.assert_allclose(tab["p_a_dominates"], ref.p_a_dominates, rtol=1e-12)
