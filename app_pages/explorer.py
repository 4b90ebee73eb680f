"""Threshold explorer page: one threshold's confusion matrix and indicators, with intervals.

Thin UI: every number comes from rocci (``confusion_at``, ``threshold_table``,
``gain_curve``, ``precision_recall_curve``, ``reading_curve``, the threshold
choosers, ``binomial_test``, and ``rocci.precision.metric_ci`` for the
indicators' exact bootstrap intervals) through the cached wrappers in
ui.cache.explore; figures come from rocci.plots.explore.  The page's choices
are bound to the URL query string (``bind="query-params"``), like the other
pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci
from rocci.plots import explore as plots_explore
from rocci.plots import plotly_config
from ui import cache, operating, report, state
from ui.cache import cost as cache_cost, decision as cache_decision, explore as cache_explore
from ui import controls as controls_ui
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import label_text, md_escape, number, percent, pvalue_text
from ui.controls import error
from ui.frame import page_frame
from ui.labels import COLUMNS, column_config, method_option, method_text

URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
#: Intervals of the exact stratified bootstrap law of each indicator (rocci.precision.metric_ci).
METHODS = ["percentile", "wald"]
BY = {"slider": "Slider", "value": "Type it", "rate": "Positive rate", "youden": "Youden", "cost": "Lowest cost"}
ALTERNATIVES = {"less": "Below p0", "greater": "Above p0", "two-sided": "Different from p0"}
#: Rows of the indicator table shown (rocci.INDICATORS order), with plain-words help.
INDICATOR_TEXT = {
    "accuracy": ("Accuracy", "(TP + TN) / n: share of all instances classified correctly."),
    "error_rate": ("Error rate", "(FP + FN) / n: share of all instances misclassified."),
    "precision": ("Precision", "TP / (TP + FP): share of the predicted positives that are positive."),
    "recall": ("Recall (sensitivity)", "TP / (TP + FN): share of the positives that are found."),
    "specificity": ("Specificity", "TN / (TN + FP): share of the negatives classified negative."),
    "fpr": ("False-positive rate", "FP / (FP + TN) = 1 − specificity: share of the negatives flagged positive."),
    "npv": ("Negative predictive value", "TN / (TN + FN): share of the predicted negatives that are negative."),
    "f1": ("F-measure (F1)", "2·TP / (2·TP + FP + FN): harmonic mean of precision and recall."),
    "mcc": ("Matthews correlation (MCC)", "(TP·TN − FP·FN) / √((TP + FP)(TP + FN)(TN + FP)(TN + FN)): from −1 "
            "to 1, 0 for no better than chance."),
    "total_positive_rate": ("Total-positive rate", "(TP + FP) / n: share of all instances predicted positive "
                            "(the target size, relative)."),
}
#: The indicator table's columns, in order, and their help in its context (labels and formats: ui.labels).
IND_ORDER = ["indicator", "value", "low", "high", "mean", "std", "p_undefined", "law"]
IND_HELP = {
    "indicator": "What is measured (definitions under the table).",
    "value": "The indicator on the data at this threshold.",
    "mean": "Exact bootstrap mean of the indicator (given that it is defined).",
    "p_undefined": "Exact probability that a resample leaves the indicator undefined (e.g. precision when nothing "
    "is predicted positive); the interval is given that it is defined.",
}
#: How far the exact intervals are from the conditional-binomial (Wilson) ones they replaced, on the bundled
#: heart sample at threshold 0.5 and 95% (computed with rocci.confusion_at and rocci.precision.metric_ci;
#: checked by tests/app/test_explorer_page.py).
HEART_CHANGE = (
    "On the bundled heart sample (20 patients, threshold 0.5, 95%), these exact intervals differ from the "
    "conditional-binomial Wilson intervals this page showed before by up to 0.08 at an end (precision: "
    "[0.40, 1.00] now, [0.36, 0.92] before) and by 0.05 on average over accuracy, error rate, precision, "
    "recall, specificity, FPR and F1."
)
#: The table of every threshold: the cells a, b, c, d of the confusion matrix (Tanagra's names).
TABLE_HELP = {
    "tp": "True positives (cell a).",
    "fn": "False negatives (cell b).",
    "fp": "False positives (cell c).",
    "tn": "True negatives (cell d).",
    "recall": "TP / (TP + FN).",
    "precision": "TP / (TP + FP).",
    "fpr": "FP / (FP + TN).",
    "lift": "Precision / share of positives = recall / target rate.",
}
MAX_TABLE_ROWS = 2000

CAPTION = (
    "Pick a **threshold**: instances scoring at or above it are predicted positive. See the confusion matrix "
    "and the usual indicators at that threshold, each with an interval, and where the threshold sits on the "
    "gain chart and the precision–recall curve."
)


@dataclass(frozen=True)
class Choice:
    model: str
    threshold: float
    how: str
    level: float
    method: str
    p0_text: str
    alternative: str
    condition: operating.OperatingCondition | None = None


def slider_scale(lo: float, hi: float) -> tuple[float, float, float, int]:
    """Slider bounds snapped to a round step (about 200–2000 steps), the step and its decimals."""
    span = hi - lo
    if not span > 0:
        span = max(abs(lo), 1.0)
    exponent = math.floor(math.log10(span / 200.0))
    step = 10.0 ** exponent
    decimals = max(0, -exponent)
    low = round(math.floor(lo / step) * step, decimals)
    high = round(math.ceil(hi / step) * step, decimals)
    if high <= low:
        high = round(low + step, decimals)
    return low, high, step, decimals


def threshold_controls(an: cache.Analysis, model: str) -> tuple | None:
    """The threshold, how it was chosen and the operating condition (lowest cost only); None if invalid."""
    y, s = an.arrays(model)  # from large data: (ScoreCounts, None); its distinct scores give the same numbers
    share = an.prepared.n_pos / (an.prepared.n_pos + an.prepared.n_neg)
    low_score, high_score, top_share = cache_explore.score_summary(y, s, 1.0 - share)
    lo, hi, step, decimals = slider_scale(low_score, high_score)
    # Scores on a probability scale: 0.5. Other scales: the score that flags as many instances as there
    # are positives (the median would flag half of them, whatever the positives' share).
    default = 0.5 if 0.0 <= lo and hi <= 1.0 else round(top_share, decimals)
    default = min(max(default, lo), hi)
    with st.container(border=True):
        st.markdown("**Threshold**")
        by = st.segmented_control(
            "Choose it by", list(BY), format_func=BY.get, default="slider", required=True, key="ex_by", bind=URL,
            help="Slider or typed value; or the threshold that predicts a given share of instances positive; "
            "or the one with the largest Youden index (sensitivity + specificity − 1); or the one with the "
            "lowest expected cost for a prior and two costs.",
        )
        try:
            if by == "slider":
                t = st.slider("Threshold", lo, hi, value=default, step=step, format=f"%.{decimals}f",
                              key="ex_t", bind=URL,
                              help="Instances with score ≥ threshold are predicted positive.")
                return round(float(t), decimals), "set with the slider", None
            if by == "value":
                t = st.number_input("Threshold", value=default, step=step, format="%g", key="ex_tv", bind=URL,
                                    help="Any number; scores ≥ it are predicted positive.")
                return float(t), "typed", None
            if by == "rate":
                rate = st.number_input(
                    "Total-positive rate", min_value=0.0, max_value=1.0, value=float(f"{share:.3g}"), step=0.01,
                    format="%.3f", key="ex_rate", bind=URL,
                    help="Share of all instances to predict positive, e.g. 0.1 = the top 10% of scores. The "
                    "threshold is the ⌈rate·n⌉-th largest score (ties may add a few more). It starts at the "
                    "positives' share of your data: as many flagged as there are positives.",
                )
                t = cache_explore.chosen_threshold(an.key, model, "rate", float(rate), y, s)
                return t, f"predicting {percent(rate)} of instances positive", None
            if by == "youden":
                t = cache_explore.chosen_threshold(an.key, model, "youden", None, y, s)
                report.caption("The threshold with the largest **sensitivity + specificity − 1** (Youden's index); "
                           "ties go to the highest threshold. It is also the lowest-cost threshold when both "
                           "classes are equally likely and both errors cost the same.")
                return t, "by Youden's index", None
        except rocci.InputError as exc:
            st.warning(md_escape(str(exc)), icon=":material/warning:")
            return None
    cond = operating.controls(an.prepared.n_pos, an.prepared.n_neg, title="Operating condition (lowest cost)")
    if cond is None:
        return None
    try:
        t = cache_explore.chosen_threshold(an.key, model, "cost", cond.w, y, s)
    except rocci.InputError as exc:
        st.warning(md_escape(str(exc)), icon=":material/warning:")
        return None
    report.caption(f"The threshold minimising w·(1 − recall) + (1 − w)·FPR at w = {cond.w:.4f} "
                   f"({md_escape(cond.describe())}), as on the Cost curves page; its cost and interval are "
                   "under the chart.")
    return t, "with the lowest expected cost", cond


def controls(an: cache.Analysis) -> Choice | None:
    models = an.models
    with st.container(border=True):
        st.markdown("**Model and intervals**")
        model = models[0]
        if len(models) > 1:
            model = st.selectbox("Model", models, format_func=str, key="ex_model", bind=URL,
                                 help="The score column whose threshold you explore.")
        level = st.select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="ex_level",
                                 bind=URL, help="Level of each interval on this page (each on its own).")
        method = st.selectbox(
            "Interval method", METHODS, format_func=method_option, key="ex_method", bind=URL,
            help="Percentile (default): the 2.5% and 97.5% points (at 95%) of each indicator's exact bootstrap "
            "law. Wald: its exact mean ± z·sd, clipped to the indicator's range.",
        )
    chosen = threshold_controls(an, model)
    with st.container(border=True):
        st.markdown("**Binomial test of the error rate**")
        p = an.prepared
        trivial = min(p.n_pos, p.n_neg) / (p.n_pos + p.n_neg)
        p0_text = st.text_input(
            "Reference error rate p0", value="", key="ex_p0", bind=URL,
            placeholder=f"{trivial:.4f} (always predict the larger class)",
            help="A number strictly between 0 and 1. Empty = the error rate of always predicting the larger "
            "class.",
        )
        alternative = st.selectbox("Is the error rate…", list(ALTERNATIVES), format_func=ALTERNATIVES.get,
                                   key="ex_alt", bind=URL,
                                   help="The alternative hypothesis; the null is that the error rate equals p0. "
                                   "Below p0: the model does better than the reference; above p0: worse.")
    if chosen is None:
        return None
    t, how, cond = chosen
    return Choice(model=model, threshold=float(t), how=how, level=level, method=method,
                  p0_text=p0_text.strip() or f"{trivial!r}", alternative=alternative, condition=cond)


def indicator_frame(exact: pd.DataFrame) -> pd.DataFrame:
    """ui.cache.explore.exact_indicators' frame with the indicators' names in words."""
    frame = exact.copy()
    frame["indicator"] = [INDICATOR_TEXT[k][0] for k in frame["indicator"]]
    return frame[IND_ORDER]


def intervals_of(exact: pd.DataFrame) -> dict:
    """indicator -> (low, high) of the exact table, for the charts' current point."""
    return {k: (lo, hi) for k, lo, hi in zip(exact["indicator"], exact["low"], exact["high"])}


def indicator_config(frame: pd.DataFrame, level: float) -> dict:
    interval = {c: f"{COLUMNS[c].help} {percent(level)} interval." for c in ("low", "high")}
    return column_config(frame, help=IND_HELP | interval, width={"law": "medium"})


def matrix_frame(conf, pos_text: str) -> pd.DataFrame:
    """The 2×2 matrix with totals; st.table renders Markdown, so the label from the file is escaped."""
    m = conf.matrix()
    m.index = [f"Actual positive ({md_escape(pos_text)})", "Actual negative", "Total"]
    return m


def main() -> None:
    page = page_frame("Threshold explorer", CAPTION)
    if page is None:
        return
    an = page.an

    left, right = page.columns()
    with left:
        choice = controls(an)
    if choice is None:
        with right:
            st.info("Fix the highlighted input on the left to update the results.")
        return

    y, s = an.arrays(choice.model)  # from large data: (ScoreCounts, None), never expanded
    try:
        conf = cache_explore.confusion_at(an.key, choice.model, choice.threshold, choice.level, choice.method, y, s)
        exact = cache_explore.exact_indicators(an.key, choice.model, conf.threshold, choice.level, choice.method,
                                               y, s)
        gain = cache_explore.gain_curve(an.key, choice.model, y, s)
        pr = cache_explore.precision_recall_curve(an.key, choice.model, y, s)
        reading = cache_explore.reading_curve(an.key, choice.model, y, s)
    except rocci.InputError as exc:
        with right:
            error(str(exc))
        return

    pos_text = label_text(an.prepared.pos_label)
    cfg = plotly_config(image_format=image_format(), filename="rocci_explorer")
    with right:
        thr = number(conf.threshold, 6)
        report.markdown(f"**{md_escape(choice.model)}** · threshold **score ≥ {md_escape(thr)}** "
                    f"({md_escape(choice.how)})")
        cols = st.columns(4)
        report.metric_in(cols[0], f"Predicted positive (of {conf.n:,})", f"{conf.n_predicted_positive:,}",
                       help="Instances with score ≥ threshold (the target).")
        report.metric_in(cols[1], "Accuracy", f"{conf.accuracy:.4f}", help=INDICATOR_TEXT["accuracy"][1])
        report.metric_in(cols[2], "Precision", "—" if np.isnan(conf.precision) else f"{conf.precision:.4f}",
                       help=INDICATOR_TEXT["precision"][1])
        report.metric_in(cols[3], "Recall", f"{conf.recall:.4f}", help=INDICATOR_TEXT["recall"][1])
        if choice.condition is not None:
            cost_at_threshold(an, choice, y, s)

        mcol, bcol = st.columns([1.15, 1], gap="medium")
        with mcol:
            report.markdown("**Confusion matrix**")
            report.table(matrix_frame(conf, pos_text))
            report.caption(f"Rows: the true class (positive = {md_escape(pos_text)}); columns: the prediction at "
                       "this threshold. The diagonal (true positives, true negatives) is correct.")
        with bcol:
            binomial(conf, choice)

        report.markdown("**Indicators with intervals**")
        shown = indicator_frame(exact)
        st.dataframe(shown, hide_index=True, column_config=indicator_config(shown, choice.level),
                     key="ex_indicators")
        report.caption(
            f"{percent(choice.level)} {method_text(choice.method)} intervals of each indicator's "
            "**exact bootstrap law** (resampling infinitely often, worked out by formula), with the threshold "
            "held fixed: each resample draws the positives and the negatives separately, so the positives and "
            "negatives it flags are two independent binomial counts, and every indicator is a function of them. "
            "The total-positive rate's interval is its count's law when all instances are resampled together. "
            + " ".join(f"{name}: {text}" for name, text in INDICATOR_TEXT.values())
        )
        undefined = exact[exact["p_undefined"] >= 1e-4]
        if len(undefined):
            report.caption("Undefined in some resamples (left out, as a Monte Carlo bootstrap drops them): "
                           + "; ".join(f"{INDICATOR_TEXT[k][0]} in {100 * p:.2g}% of them"
                                       for k, p in zip(undefined["indicator"], undefined["p_undefined"])) + ".")
        controls_ui.method_note(
            "At a fixed threshold, a stratified resample flags TP* ~ Bin(n+, TP/n+) positives and "
            "FP* ~ Bin(n−, FP/n−) negatives, independently; each indicator's exact law sums the products of "
            "the two binomial probabilities over the pairs of counts giving each value "
            "(rocci.precision.metric_ci). Error rate and FPR are one minus accuracy and specificity. "
            + HEART_CHANGE)
        download_csv(exact.assign(threshold=conf.threshold, confidence_level=conf.confidence_level,
                                  method=choice.method, model=choice.model),
                     label="Download the indicators (CSV)", file_name="rocci_indicators.csv", key="dl_ex_ind")
        clinical(an, choice, conf, y, s)
        stability(an, choice, y, s)

        if conf.n_predicted_positive == 0:
            st.info("No instance scores at or above this threshold: precision is undefined (no predicted "
                    "positive), so the current point is left off the precision–recall and reading-rate charts.")
        gcol, pcol = st.columns(2)
        with gcol:
            report.markdown("**Gain chart**")
            report.plotly_chart(plots_explore.gain_figure(gain, current=conf, intervals=intervals_of(exact),
                                                          name=choice.model, color_index=an.colors[choice.model]),
                                config=cfg, key="ex_gain")
            report.caption("Share of the positives found (recall) against the share of all instances targeted, "
                       "scores taken from the top. Diamond: the current threshold, with its intervals.")
        with pcol:
            report.markdown("**Precision–recall curve**")
            report.plotly_chart(plots_explore.pr_figure(pr, current=conf if conf.n_predicted_positive else None,
                                                        intervals=intervals_of(exact), name=choice.model,
                                                        color_index=an.colors[choice.model]),
                                config=cfg, key="ex_pr")
            report.caption("One point per threshold. Precision falls, not always steadily, as the threshold is "
                       "lowered and recall grows; the dotted line is the precision of random scores.")

    results(an, choice, conf, exact, reading, cfg)


#: Up to this many instances the clinical panel is computed as the page opens (its ratio laws sum over the
#: window of the false positives drawn: about a second at 10⁷ instances, up to a minute at 10⁸); beyond, on a click.
CLINICAL_AUTO_INSTANCES = 20_000_000

#: Rows of the clinical panel: (label, column of rocci.clinical_panel's frame, plain-words help).
CLINICAL_ROWS = [
    ("Sensitivity", "tpr", "Share of the positives flagged: TP/n+ (the true-positive rate)."),
    ("Specificity", "specificity", "Share of the negatives not flagged: TN/n−."),
    ("LR+", "lr_positive", "Positive likelihood ratio sens/(1 − spec): how many times likelier a positive test is "
     "in a positive than in a negative. ∞ when no negative is flagged."),
    ("LR−", "lr_negative", "Negative likelihood ratio (1 − sens)/spec: below 1, a negative test lowers the odds."),
    ("Diagnostic odds ratio", "diagnostic_odds_ratio", "LR+/LR−: the odds of a positive test in positives over "
     "those in negatives."),
    ("PPV", "ppv", "Positive predictive value at the prevalence entered: the chance that a flagged case is "
     "positive, π·LR+/(π·LR+ + 1 − π)."),
    ("NPV", "npv", "Negative predictive value at that prevalence: the chance that a case not flagged is negative."),
    ("Post-test, positive test", "post_test_positive", "Probability of being positive after a positive test, "
     "from the pre-test probability entered."),
    ("Post-test, negative test", "post_test_negative", "Probability of being positive after a negative test."),
]
CLINICAL_UNDEFINED = {"lr_positive": "p_lr_positive_undefined", "lr_negative": "p_lr_negative_undefined",
                      "diagnostic_odds_ratio": "p_diagnostic_odds_ratio_undefined",
                      "ppv": "p_lr_positive_undefined", "post_test_positive": "p_lr_positive_undefined",
                      "npv": "p_lr_negative_undefined", "post_test_negative": "p_lr_negative_undefined"}


def stability(an: cache.Analysis, choice: Choice, y, s) -> None:
    """How far the chosen threshold could move (issue 31): when the data chose it (Youden or lowest cost),
    the threshold re-chosen in seeded bootstrap worlds (rocci.threshold_stability, Monte Carlo)."""
    if choice.how == "by Youden's index":
        criterion, w = "youden", None
    elif choice.condition is not None and choice.how == "with the lowest expected cost":
        criterion, w = "cost", float(choice.condition.w)
    else:
        return
    report.markdown("**How stable is this threshold?**")
    try:
        res = cache_decision.threshold_stability(an.key, choice.model, criterion, w, choice.level, y, s)
    except rocci.InputError as exc:
        error(str(exc))
        return
    n = cache_decision.STABILITY_BOOT
    report.caption(
        f"The data chose **score ≥ {md_escape(number(res.threshold, 6))}** {md_escape(choice.how)}. Re-chosen the same "
        f"way in each of {n:,} bootstrap worlds (resampled rows; a seeded Monte Carlo, its standard errors shown), it "
        f"stays there in **{100 * res.p_same:.1f}%** (± {100 * res.p_same_se:.1f}) of them; the middle "
        f"{percent(choice.level)} of the worlds choose between **{md_escape(number(res.low, 6))}** and "
        f"**{md_escape(number(res.high, 6))}** (median {md_escape(number(res.median, 6))}). A wide range means the "
        "'best' threshold is partly noise: expect it to move on new data.")
    top = res.to_frame().sort_values("probability", ascending=False).head(10)
    st.dataframe(top, hide_index=True, key="ex_stability", column_config=column_config(top))
    download_csv(res.to_frame().assign(criterion=criterion, w=w, n_boot=n, seed=0, model=choice.model),
                 label="Download the re-chosen thresholds (CSV)", file_name="rocci_threshold_stability.csv",
                 key="dl_ex_stab")


def clinical_frame(panel) -> pd.DataFrame:
    """The panel's one row turned into one row per quantity: ``quantity, value, low, high, p_undefined``."""
    row = panel.to_frame().iloc[0]
    out = []
    for label, col, _ in CLINICAL_ROWS:
        if col not in row.index:
            continue
        out.append({"quantity": label, "value": float(row[col]), "low": float(row[col + "_low"]),
                    "high": float(row[col + "_high"]),
                    "p_undefined": float(row[CLINICAL_UNDEFINED[col]]) if col in CLINICAL_UNDEFINED else 0.0})
    return pd.DataFrame(out)


def clinical_inputs(an: cache.Analysis) -> tuple:
    """The prevalence (None: the data's) and the optional pre-test probability, bound to the URL."""
    share = an.prepared.n_pos / (an.prepared.n_pos + an.prepared.n_neg)
    c1, c2 = st.columns(2)
    prevalence = c1.number_input(
        "Prevalence for PPV and NPV", min_value=0.0001, max_value=0.9999, value=None, step=0.01, format="%.4f",
        key="ex_prev", bind=URL, placeholder=f"{share:.4f} (the data's share)",
        help="The share of positives in the population where the test will be used. Empty = the data's share of "
        "positives; enter the population's own when the data were enriched (case-control sampling).")
    pretest = c2.number_input(
        "Pre-test probability (optional)", min_value=0.0001, max_value=0.9999, value=None, step=0.01,
        format="%.4f", key="ex_pretest", bind=URL, placeholder="e.g. 0.3",
        help="One patient's probability of being positive before the test: the panel adds the post-test "
        "probabilities after a positive and after a negative test (Bayes' rule with LR+ and LR−).")
    return (None if prevalence is None else float(prevalence)), (None if pretest is None else float(pretest)), share


def clinical(an: cache.Analysis, choice: Choice, conf, y, s) -> None:
    """The clinical accuracy panel at the chosen threshold (rocci.clinical_panel), with the prevalence field."""
    report.markdown("**Clinical accuracy panel**")
    prevalence, pretest, share = clinical_inputs(an)
    done_key = f"{an.key}|{choice.model}|{conf.threshold!r}|{prevalence}|{pretest}|{choice.level}"
    if an.n_instances > CLINICAL_AUTO_INSTANCES and not state.done(state.CLINICAL_DONE, done_key):
        st.info(f"With {an.n_instances:,} instances the exact laws of the likelihood ratios take from seconds to "
                "about a minute; the panel runs when you ask.", icon=":material/schedule:")
        if not st.button("Compute the clinical panel", key="ex_clin_run", icon=":material/play_arrow:"):
            return
    try:
        panel = cache_decision.clinical_panel(an.key, choice.model, float(conf.threshold), prevalence, pretest,
                                              choice.level, y, s)
    except rocci.InputError as exc:
        error(str(exc))
        return
    state.mark_done(state.CLINICAL_DONE, done_key)
    frame = clinical_frame(panel)
    at = frame.set_index("quantity")
    prev = panel.prevalence
    cols = st.columns(4)
    for col, name in zip(cols, ("LR+", "LR−", "PPV", "NPV")):
        value, lo, hi = at.loc[name, ["value", "low", "high"]]
        report.metric_in(col, f"{name} · {md_escape(choice.model)}", ratio_text(value),
                         help=f"{percent(choice.level)} interval [{ratio_text(lo)}, {ratio_text(hi)}]. "
                         + next(h for lab, _, h in CLINICAL_ROWS if lab == name))
    cfg = column_config(frame, help={
        "quantity": "Clinical accuracy measure at this threshold.",
        "value": "The measure on the data at this threshold.",
        "low": f"Lower end of the {percent(choice.level)} interval.",
        "high": f"Upper end of the {percent(choice.level)} interval.",
        "p_undefined": "Share of the bootstrap resamples where the ratio is 0/0 (left out of its law)."})
    st.dataframe(frame, hide_index=True, column_config=cfg, key="ex_clinical")
    report.caption(
        f"At **score ≥ {md_escape(number(conf.threshold, 6))}**, PPV and NPV at a prevalence of **{prev:.4f}**"
        + (" (the data's share of positives)" if prevalence is None else
           f" (the prevalence you entered; the data's share of positives is {share:.4f})")
        + (f", post-test probabilities from a pre-test probability of **{pretest:.4f}**" if pretest else "")
        + f". {percent(choice.level)} percentile intervals of each quantity's **exact stratified bootstrap law** "
        "(the classes resampled separately, the threshold fixed): LR+ and LR− are ratios of two independent "
        "binomial proportions, and PPV, NPV and the post-test probabilities are monotone in one of them (Bayes' "
        "rule), so their bounds are its bounds mapped. ∞ (shown as inf) means no negative was flagged in the "
        "data or in some resamples: the test never raises a false alarm there.")
    download_csv(frame.assign(threshold=conf.threshold, prevalence=prev, pretest=pretest,
                              confidence_level=choice.level, model=choice.model),
                 label="Download the clinical panel (CSV)", file_name="rocci_clinical_panel.csv", key="dl_ex_clin")


def ratio_text(value: float) -> str:
    """A panel value for a card: '∞', '—' (undefined), else four significant digits (LR+ runs to the
    hundreds, LR− to the hundredths)."""
    value = float(value)
    if math.isnan(value):
        return "—"
    return "∞" if math.isinf(value) else f"{value:.4g}"


def cost_at_threshold(an: cache.Analysis, choice: Choice, y, s) -> None:
    """The lowest-cost threshold's normalised cost and expected cost, with their exact bootstrap interval
    (stratified, Agresti–Coull: the Cost curves page's defaults, at this page's confidence level)."""
    cond = choice.condition
    try:
        ci = cache_cost.cost_ci(an.key, choice.model, (cond.w,), (choice.threshold,), "stratified", choice.level,
                                "agresti-coull", None, y, s)
    except rocci.InputError as exc:
        error(str(exc))
        return
    cost, lo, hi = float(ci.cost[0]), float(ci.cost_low[0]), float(ci.cost_high[0])
    units = operating.units_text(cond, cost, lo, hi)
    report.metric(f"Normalised cost at w = {cond.w:.3f} · {md_escape(choice.model)}", f"{cost:.4f}",
              help="w·(1 − recall) + (1 − w)·FPR at this threshold: 0 is perfect; the better trivial classifier "
              "costs min(w, 1 − w).")
    report.caption(f"{percent(choice.level)} interval **[{lo:.4f}, {hi:.4f}]** (exact stratified bootstrap, "
                   f"Agresti–Coull, threshold held fixed)" + (f"; {units}." if units else ".")
                   + f" Calling everything negative would cost {cond.w:.4f}, everything positive "
                   f"{1 - cond.w:.4f}.")


def binomial(conf, choice: Choice) -> None:
    report.markdown("**Binomial test of the error rate**")
    text = choice.p0_text
    try:
        p0: object = float(text.replace("−", "-"))
    except ValueError:
        p0 = text  # rocci says what is wrong with it
    try:
        test = rocci.binomial_test(conf.errors, conf.n, p0, alternative=choice.alternative,
                                   confidence_level=choice.level)
    except rocci.InputError as exc:
        error(str(exc))
        return
    report.metric("Errors", f"{test.errors:,} of {test.n:,}", help="Misclassified instances, FP + FN; error rate "
              f"{test.error_rate:.4f}.")
    report.metric("P-value", pvalue_text(test.pvalue), help="Binomial test against the reference error rate p0.")
    outcome = {
        "less": f"at most {test.errors} errors out of {test.n}",
        "greater": f"at least {test.errors} errors out of {test.n}",
        "two-sided": f"an error count no likelier than {test.errors} out of {test.n}",
    }[choice.alternative]
    ci = f"[{test.error_rate_low:.4f}, {test.error_rate_high:.4f}]"
    kind = "" if choice.alternative == "two-sided" else "one-sided "
    report.caption(
        f"Error rate {test.error_rate:.4f}. "
        f"If each instance were misclassified with probability p0 = {test.p0:.4g}, independently, "
        f"{outcome} would happen with probability **{pvalue_text(test.pvalue)}** "
        f"(the p-value). {percent(choice.level)} {kind}Clopper–Pearson interval for the error rate: **{ci}**. "
        "The test treats the threshold as fixed in advance; a threshold tuned on these same data makes the "
        "error rate look better than it will be on new data."
    )


def results(an: cache.Analysis, choice: Choice, conf, exact, reading, cfg) -> None:
    report.subheader("More", anchor=False)
    tabs = st.tabs(["Reading-rate curve", "All thresholds"])
    y, s = an.arrays(choice.model)
    with tabs[0]:
        report.plotly_chart(plots_explore.reading_figure(reading, current=conf, intervals=intervals_of(exact),
                                                         name=choice.model, color_index=an.colors[choice.model]),
                            config=cfg, key="ex_reading")
        report.caption(
            "Read the positive class as \"the classifier's answer is right\" and the score as its confidence: "
            "answers scoring at or above the threshold are accepted. The **reading rate** is the share "
            "accepted, the **substitution rate** the share of accepted answers that are wrong. Lowering the "
            "threshold past a right answer lowers the substitution rate, past a wrong one raises it, so the "
            "curve zigzags: one substitution rate can go with several reading rates."
        )
    with tabs[1]:
        try:
            table = cache_explore.threshold_table(an.key, choice.model, y, s)
        except rocci.InputError as exc:
            error(str(exc))
            return
        shown = table if len(table) <= MAX_TABLE_ROWS else table.head(MAX_TABLE_ROWS)
        report.caption(
            "Every distinct score as a threshold, from the highest down (tied scores share a row), as in "
            "Tanagra's tutorial: the cells a, b, c, d of the confusion matrix and the indicators. "
            + (f"The first {MAX_TABLE_ROWS:,} of {len(table):,} rows are shown; the download has them all."
               if len(table) > MAX_TABLE_ROWS else "")
        )
        st.dataframe(shown, hide_index=True, column_config=column_config(shown, help=TABLE_HELP), height=360,
                     key="ex_table")
        # Built on click, in a thread outside the script run: rocci directly (the session-scoped cache
        # cannot be read there; Streamlit refuses it and the download would never start).
        download_csv(lambda: rocci.threshold_table(y, s).to_frame().assign(model=choice.model),
                     label="Download the full table (CSV)", file_name="rocci_thresholds.csv", key="dl_ex_table")


main()
