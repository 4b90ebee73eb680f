"""Precision–recall page: the PR curve drawn correctly, exact bootstrap intervals for the precision at recall
levels and at thresholds, the usual metrics at one threshold, and two models' verdict at a recall.

Thin UI: every number comes from rocci (``rocci.precision.curve.pr_curve``, ``precision_ci``,
``metric_ci``, ``compare_precision``) through the cached wrappers in ui.cache.precision; figures come
from rocci.plots.precision.  The page's choices are bound to the URL query string, like the other pages.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci
from rocci.plots import plotly_config
from rocci.plots import precision as plots_pr
from rocci.precision import UNDEFINED
from rocci.precision.gain import METHODS as GAIN_METHODS
from ui import cache, report
from ui.controls import error
from ui.frame import page_frame
from ui.labels import column_config, method_label, method_option, method_text
from ui.download import download_csv, with_provenance
from ui import controls as controls_ui
from ui.cache import precision as cache_pr
from ui.cache.large import TooLarge
from ui.sidebar import image_format
from ui.text import ParseError, md_escape, number, parse_numbers, percent, signed_interval

URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
METHODS = ["percentile", "score", "wald"]
#: Metrics with a score interval (rocci.metric_ci and compare_precision refuse method="score" for the others):
#: with "score" chosen, the other metrics and the two-model difference use the percentile interval, and say so.
SCORE_METRICS = frozenset({"precision"})


def method_of(metric: str, method: str) -> str:
    """The interval method used for ``metric``: the chosen one, or percentile where a score interval does not exist."""
    return method if method != "score" or metric in SCORE_METRICS else "percentile"

DEFAULT_RECALL = "0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9"
#: Recall used to pick the default threshold and the two models' verdict: "catch 80% of the positives" is
#: the question a fraud or screening team asks first; the precision there says how many alerts are wasted.
TARGET_RECALL = 0.8
BY = {"recall": "Recall reached", "value": "Type it"}
#: Largest grid of (FP*_a, FP*_b) cells summed for the verdict's exact law of Δprecision (about 1–2 s and
#: 250 MB at the limit); beyond it the verdict comes from the FPR difference at the same recall
#: (rocci.precision.compare_fpr_at_recall: the same P(A better), exact, at any size).
VERDICT_GRID = 4_000_000
#: An undefined-metric probability at or above this is stated next to the number.
UNDEFINED_SHOWN = 1e-4
#: Depths (shares of the population targeted) of the gain and lift intervals: the marketer's "top 5%, 10%…".
DEFAULT_DEPTH = "0.05, 0.1, 0.2, 0.3, 0.5"
GAIN_AT = {"threshold": "The threshold", "depth": "The depth"}

#: Metrics of the "At a threshold" panel: name -> (label, plain-words help).
METRIC_TEXT = {
    "precision": ("Precision", "TP / (TP + FP): share of the flagged instances that are positive."),
    "recall": ("Recall", "TP / (TP + FN): share of the positives that are flagged (sensitivity)."),
    "f1": ("F1", "2·TP / (2·TP + FP + FN): the harmonic mean of precision and recall."),
    "mcc": ("MCC", "Matthews correlation coefficient, from −1 to 1: 0 is no better than chance, 1 perfect. "
            "(TP·TN − FP·FN) / √((TP + FP)(TP + FN)(TN + FP)(TN + FN))."),
    "specificity": ("Specificity", "TN / (TN + FP): share of the negatives left unflagged."),
    "npv": ("NPV", "TN / (TN + FN): share of the unflagged instances that are negative."),
    "accuracy": ("Accuracy", "(TP + TN) / n: share of all instances classified correctly (misleading when "
                 "positives are rare: flagging nothing is already accurate)."),
    "balanced_accuracy": ("Balanced accuracy", "(recall + specificity) / 2."),
    "youden": ("Youden's J", "recall + specificity − 1."),
    "lift": ("Lift", "precision / positive share: how many times more positives among the flagged than when "
             "flagging at random."),
}
MAIN_METRICS = ("precision", "recall", "f1", "mcc")
OTHER_METRICS = ("specificity", "npv", "accuracy", "balanced_accuracy", "youden", "lift")

#: The tables' columns, in order, and their help in this page's context (labels and formats: ui.labels).
RECALL_ORDER = ["recall", "r", "threshold", "precision", "precision_low", "precision_high", "precision_mean",
                "precision_std"]
RECALL_HELP = {
    "recall": "The recall r / m+ (each typed level moves to the nearest one).",
    "r": "Positives flagged: the threshold is the r-th highest positive score.",
    "threshold": "The threshold reaching this recall on the data (score ≥ threshold).",
    "precision": "Precision on the data at this recall.",
}
METRIC_HELP = {
    "value": "The metric on the data at this threshold.",
    "mean": "Exact bootstrap mean (given that the metric is defined).",
    "p_undefined": "Exact probability that a bootstrap resample leaves the metric undefined (e.g. precision when "
    "nothing is flagged); the interval is given that it is defined.",
}
REGION_HELP = {
    "threshold": "score ≥ threshold is flagged.",
    "tp": "Positives flagged.",
    "fp": "Negatives flagged.",
    "recall": "TP / n+.",
    "precision": "TP / (TP + FP).",
    "p_undefined": "Probability that a resample flags nothing (precision undefined).",
}
GAIN_ORDER = ["total_positive_rate", "k", "threshold", "tp", "total_positive_rate_low", "total_positive_rate_high",
              "gain", "gain_low", "gain_high", "lift", "lift_low", "lift_high", "p_undefined"]
GAIN_HELP = {
    "total_positive_rate": "The depth: share of the population targeted, (TP + FP) / n.",
    "total_positive_rate_low": "Lower end of the depth's interval (the threshold held fixed).",
    "total_positive_rate_high": "Upper end of the depth's interval.",
    "threshold": "score ≥ threshold is targeted (at a fixed depth: the threshold reaching it on the data).",
    "tp": "Positives targeted on the data (at a fixed depth cutting through tied scores: the expected number, ties "
    "in random order).",
    "lift": "Gain ÷ depth: times more positives than a random target of the same size.",
    "p_undefined": "Probability that a resample targets nothing (lift undefined).",
}

#: Said under an interval of zero width (e.g. precision 1 with no false positive: every resample has none).
ZERO_WIDTH = " Zero width: every resample gives this value (a bootstrap interval cannot show the uncertainty)."

CAPTION = (
    "When positives are rare (fraud, screening, retrieval), read **precision** (how many of the flagged are "
    "positive) against **recall** (how many positives are flagged). Every interval is the **exact "
    "bootstrap**: what infinitely many resamples of the data would give, worked out by formula."
)


@dataclass(frozen=True)
class Options:
    model: str
    level: float
    method: str
    recall: tuple
    thresholds: tuple | None
    by: str
    target: float
    typed: float | None
    other: str
    pair: tuple | None
    verdict_recall: float
    depths: tuple = ()
    gain_at: str = "threshold"


def suggested_thresholds(curve: pd.DataFrame) -> list[float]:
    """Three thresholds of the curve, evenly spaced in recall (the regions input's placeholder)."""
    rows = curve[~curve["interpolated"]]
    out = []
    for q in (0.25, 0.5, 0.75):
        hit = rows[rows["recall"] >= q]
        if len(hit):
            out.append(float(hit["threshold"].iloc[0]))
    return sorted(set(out), reverse=True)


def controls(an: cache.Analysis, curves: dict) -> Options | None:
    models = an.models
    ok = True
    with st.container(border=True):
        st.markdown("**Curves and intervals**")
        model = models[0]
        if len(models) > 1:
            model = st.selectbox("Model for the intervals", models, format_func=str, key="pr_model", bind=URL,
                                 help="Every model's curve is drawn; the intervals and the threshold panel are "
                                 "for this one.")
        level = st.select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="pr_level",
                                 bind=URL, help="Level of every interval on this page (each on its own).")
        method = st.selectbox(
            "Interval method", METHODS, format_func=method_option, key="pr_method", bind=URL,
            help="Percentile: the 2.5% and 97.5% points (at 95%) of the exact bootstrap law. Score: a Wilson-type "
            "interval on the law's exact mean and variance (precision only; it keeps its level at high recall "
            "with few positives, where the percentile interval fell to 86% coverage in the Coverage lab's "
            "'Precision at fixed recall' preset; other metrics and the two-model difference then use the "
            "percentile interval). Wald: its mean ± z·sd, clipped to the metric's range.")
        text = st.text_input("Recall levels (between 0 and 1)", value=DEFAULT_RECALL, key="pr_recall", bind=URL,
                             help="An interval for the precision at each recall; each level moves to the "
                             "nearest r / m+ (r positives flagged).")
        recall: tuple = ()
        try:
            recall = tuple(parse_numbers(text, what="recall level", low=0.0, high=1.0, inclusive=False))
        except ParseError as exc:
            error(str(exc))
            ok = False
        regions = st.toggle("Regions at thresholds", value=False, key="pr_regions", bind=URL,
                            help="At fixed thresholds, the recall interval × the precision interval, as boxes.")
        thresholds = None
        if regions:
            hint = ", ".join(number(t) for t in suggested_thresholds(curves[model]))
            t_text = st.text_input("Thresholds (comma-separated)", value="", key="pr_thr", bind=URL,
                                   placeholder=f"e.g. {hint}",
                                   help="score ≥ threshold is flagged. Empty: the thresholds in grey, where "
                                   "the recall first reaches 25%, 50% and 75%.")
            try:
                thresholds = tuple(parse_numbers(t_text, what="threshold")) if t_text.strip() else tuple(
                    suggested_thresholds(curves[model]))
            except ParseError as exc:
                error(str(exc))
                ok = False

    with st.container(border=True):
        st.markdown("**At a threshold**")
        by = st.segmented_control(
            "Choose the threshold by", list(BY), format_func=BY.get, default="recall", required=True,
            key="pr_by", bind=URL,
            help="Recall reached: the highest threshold that flags at least this share of the positives (the "
            "fewest alerts for it). Type it: any score.")
        target, typed = TARGET_RECALL, None
        if by == "recall":
            target = float(st.number_input(
                "Recall to reach", min_value=0.01, max_value=1.0, value=TARGET_RECALL, step=0.05, format="%.2f",
                key="pr_target", bind=URL, help="e.g. 0.8: catch 80% of the positives."))
        else:
            typed = st.number_input("Threshold", value=None, format="%g", key="pr_t", bind=URL,
                                    placeholder="a score, e.g. 0.5",
                                    help="score ≥ threshold is flagged. Empty: the threshold reaching "
                                    f"{percent(TARGET_RECALL)} recall.")
        other = st.selectbox("Another metric", OTHER_METRICS, format_func=lambda k: METRIC_TEXT[k][0],
                             key="pr_other", bind=URL, help="Shown beside precision, recall, F1 and MCC.")

    with st.container(border=True):
        st.markdown("**Gain and lift**")
        d_text = st.text_input("Depths: shares targeted (between 0 and 1)", value=DEFAULT_DEPTH, key="pr_depths",
                               bind=URL, help="Intervals on the gain and lift charts (Curves tab) where the "
                               "top-scored share d of the population is targeted, e.g. 0.1 = the top 10%.")
        depths: tuple = ()
        try:
            depths = tuple(parse_numbers(d_text, what="depth", low=0.0, high=1.0, inclusive=False,
                                         max_count=20)) if d_text.strip() else ()
        except ParseError as exc:
            error(str(exc))
            ok = False
        gain_at = st.segmented_control(
            "Hold fixed", list(GAIN_AT), format_func=GAIN_AT.get, default="threshold", required=True,
            key="pr_gain_at", bind=URL,
            help="The threshold: the score cut-off reaching each depth on the data is kept, so a resample's depth "
            "moves too (bars both ways). The depth: each resample targets its own top share d (bars up and down "
            "only; tied scores in random order).")

    pair = None
    verdict_recall = TARGET_RECALL
    if len(models) > 1:
        with st.container(border=True):
            st.markdown("**Two models**")
            a = st.selectbox("Model A", models, index=0, format_func=str, key="pr_a", bind=URL,
                             help="Differences are A − B.")
            b = st.selectbox("Model B", models, index=1, format_func=str, key="pr_b", bind=URL)
            verdict_recall = float(st.number_input(
                "Recall for the verdict", min_value=0.01, max_value=1.0, value=TARGET_RECALL, step=0.05,
                format="%.2f", key="pr_vrecall", bind=URL,
                help="Compare the two precisions where both models flag this share of the positives."))
            if a == b:
                st.warning("Pick two different models to compare.", icon=":material/warning:")
            else:
                pair = (a, b)
    if not ok:
        return None
    return Options(model=model, level=float(level), method=method, recall=recall, thresholds=thresholds, by=by,
                   target=target, typed=None if typed is None else float(typed), other=other, pair=pair,
                   verdict_recall=verdict_recall, depths=depths, gain_at=gain_at or "threshold")


def metric_value_text(v: float) -> str:
    return "—" if not np.isfinite(v) else f"{v:.3f}"


def undefined_text(metric: str, p: float) -> str:
    """Plain words for the probability that the metric is undefined in a resample ('' if negligible)."""
    if p < UNDEFINED_SHOWN:
        return ""
    return (f" Undefined ({UNDEFINED[metric]}) in {percent_prob(p)} of bootstrap resamples; the interval is "
            "given that it is defined.")


def percent_prob(p: float) -> str:
    """A probability of resamples as a percentage: two significant digits below 0.1% (ties are often tiny),
    one decimal below 10% and above 99% (so 99.6% is not shown as 100%), "more than 99.9%" short of 1."""
    p = float(p)
    if p < 0.001:
        return f"{100 * p:.2g}%"
    if p >= 1.0:
        return "100%"
    if p > 0.999:
        return "more than 99.9%"
    return f"{100 * p:.1f}%" if p < 0.1 or p > 0.99 else f"{100 * p:.0f}%"


def threshold_panel(an, opts: Options, t: float, how: str, results: dict) -> None:
    """Precision, recall, F1, MCC and the chosen other metric at one threshold, with exact intervals."""
    res = results
    first = res["precision"]
    report.markdown(f"**At a threshold** · {md_escape(opts.model)} · score ≥ **{md_escape(number(t, 6))}** "
                    f"({md_escape(how)}): TP {int(first.tp[0]):,}, FP {int(first.fp[0]):,} flagged of "
                    f"{first.n_pos + first.n_neg:,} (n+ = {first.n_pos:,}).")
    names = list(MAIN_METRICS) + [opts.other]
    cols = st.columns(len(names))
    for col, name in zip(cols, names):
        r = res[name]
        label, help_ = METRIC_TEXT[name]
        v, lo, hi = float(r.value[0]), float(r.low[0]), float(r.high[0])
        with col:
            report.metric(label, metric_value_text(v), help=help_)
            if not np.isfinite(v):
                report.caption(f"Undefined on the data: {UNDEFINED[name]}.")
            elif np.isfinite(lo) and np.isfinite(hi):
                report.caption(f"{percent(opts.level)} interval [{lo:.3f}, {hi:.3f}]."
                               + (ZERO_WIDTH if hi <= lo else "") + undefined_text(name, float(r.p_undefined[0])))
            else:
                report.caption("No interval: the metric is undefined in every bootstrap resample.")


def verdict_panel(an, opts: Options) -> dict | None:
    """Two models at one recall: Δprecision A − B with its exact paired interval and P(A better); where that
    law is too large (many negatives), the FPR difference at the same recall, which has the same P(A better)."""
    a, b = opts.pair
    A, B = f"**{md_escape(a)}**", f"**{md_escape(b)}**"
    report.subheader(f"Which has the higher precision at {percent(opts.verdict_recall)} recall?", anchor=False)
    # from large data: the pair table (both laws work on its rows; if they cannot, it says so below)
    refusal = an.pair_refusal(a, b, "Comparing two models' precision", expands=False)
    if refusal is not None:
        st.info(refusal, icon=":material/info:")
        return None
    y, sa, sb = an.paired(a, b)
    try:
        cells = cache_pr.recall_cells(an.key, a, b, opts.verdict_recall, y, sa, sb)
        by_fpr = cells > VERDICT_GRID
        with st.spinner("Computing the exact paired law…", show_time=True):
            if by_fpr:
                method = "score" if opts.method == "score" else "percentile"
                cmp = cache_pr.compare_fpr_at_recall(an.key, a, b, opts.verdict_recall, opts.level, method,
                                                     y, sa, sb)
            else:
                cmp = cache_pr.compare_at_recall(an.key, a, b, opts.verdict_recall, opts.level,
                                                 method_of("difference", opts.method), y, sa, sb)
        each = {m: cache_pr.precision_at_recall(an.key, m, (opts.verdict_recall,), opts.level, opts.method,
                                                *an.arrays(m)) for m in (a, b)}
    except TooLarge as exc:  # large data: a law that still needs one row per instance (the rest of the page runs)
        st.info(str(exc), icon=":material/info:")
        return None
    except rocci.InputError as exc:
        error(str(exc))
        return None
    pa, tie = float(cmp.p_a_better[0]), float(cmp.p_tie[0])
    level_r = float(cmp.recall[0])
    prec_a, prec_b = float(each[a].precision[0]), float(each[b].precision[0])
    if by_fpr:
        d, lo, hi = float(cmp.delta_fpr[0]), float(cmp.delta_fpr_low[0]), float(cmp.delta_fpr_high[0])
        headline = fpr_verdict_sentence(a, b, level_r, float(cmp.fpr_a[0]), float(cmp.fpr_b[0]), prec_a, prec_b,
                                        lo, hi, pa, tie, opts.level)
    else:
        d, lo, hi = float(cmp.delta[0]), float(cmp.delta_low[0]), float(cmp.delta_high[0])
        headline = verdict_sentence(a, b, level_r, d, lo, hi, pa, tie, opts.level)
    st.markdown(headline)
    report.current().add_caption(headline)
    c1, c2, c3 = st.columns(3)
    d_txt, lo_txt, hi_txt = signed_interval(d, lo, hi, 1, scale=100.0)
    if by_fpr:
        report.metric_in(c1, f"ΔFPR, {md_escape(a)} − {md_escape(b)}", f"{d_txt} pts",
                         help="False positive rate of A minus that of B, in percentage points, both at the same "
                         "recall: negative when A flags fewer negatives, i.e. when its precision is higher.")
    else:
        report.metric_in(c1, f"Δprecision, {md_escape(a)} − {md_escape(b)}", f"{d_txt} pts",
                         help="Precision of A minus precision of B, in percentage points, both at the same recall.")
    report.metric_in(c2, f"P({md_escape(a)} better)", percent_prob(pa),
                     help="Share of bootstrap resamples in which A's precision is higher than B's at this recall "
                     "(exact, paired: both models on the same resample).")
    report.metric_in(c3, "Precision A · B", f"{prec_a:.3f} · {prec_b:.3f}",
                     help="Each model's precision on the data at this recall.")
    each_text = (f"{A} {prec_a:.4f} [{float(each[a].precision_low[0]):.4f}, "
                 f"{float(each[a].precision_high[0]):.4f}], {B} {prec_b:.4f} "
                 f"[{float(each[b].precision_low[0]):.4f}, {float(each[b].precision_high[0]):.4f}]")
    where = f"At recall {level_r:.3f} (r = {int(cmp.r[0])} of m+ = {cmp.m_pos:,} positives flagged by each model)"
    if by_fpr:
        report.caption(
            f"{where}: precision {each_text}. The exact law of Δprecision here spans {cells:,} cells of the two "
            f"models' false-positive counts (the page sums up to {VERDICT_GRID:,}), so the verdict is read on "
            "the **false positive rates** at the same recall: both models flag the same number of positives, so "
            "A's precision is higher exactly when it flags fewer negatives, and P(A better) and P(tie) are the "
            f"precision's, exact. {percent(opts.level)} {method_text(cmp.method)} interval of ΔFPR "
            f"[{lo_txt}, {hi_txt}] points; the two tie in {percent_prob(tie)} of resamples. Exact "
            "paired bootstrap: both thresholds come from the same resample of positives.")
    else:
        report.caption(
            f"{where}: {each_text}; {percent(opts.level)} {method_text(cmp.method)} interval of Δ "
            f"[{lo_txt}, {hi_txt}] points; the two tie in {percent_prob(tie)} of resamples. Exact "
            "paired bootstrap: both thresholds come from the same resample of positives.")
    frame = cmp.to_frame()
    frame.insert(0, "model_b", str(b))
    frame.insert(0, "model_a", str(a))
    frame["confidence_level"], frame["method"] = cmp.confidence_level, cmp.method
    frame["m_pos"], frame["m_neg"] = cmp.m_pos, cmp.m_neg
    return {"frame": frame, "by_fpr": by_fpr}


def fpr_verdict_sentence(a: str, b: str, recall: float, fpr_a: float, fpr_b: float, prec_a: float, prec_b: float,
                         lo: float, hi: float, pa: float, tie: float, level: float) -> str:
    """The headline when the verdict is read on the false positive rates at the recall level: 'At 80% recall,
    A flags fewer negatives (FPR … vs …, … points lower, interval …); its precision is higher in …'."""
    A, B = f"**{md_escape(a)}**", f"**{md_escape(b)}**"
    where = f"At {percent(round(recall, 3))} recall"
    interval = "{} interval {} to {} points".format(percent(level), *signed_interval(0.0, lo, hi, 1, scale=100.0)[1:])
    rates = f"false positive rate {100 * fpr_a:.1f}% against {100 * fpr_b:.1f}%"
    if fpr_a < fpr_b:
        words = f"{A} flags fewer negatives than {B} ({rates}, ΔFPR {interval})"
    elif fpr_a > fpr_b:
        words = f"{A} flags more negatives than {B} ({rates}, ΔFPR {interval})"
    else:
        words = f"{A} and {B} flag as many negatives on the data ({rates}, ΔFPR {interval})"
    pb = max(0.0, 1.0 - pa - tie)
    better = f"{A}'s precision ({prec_a:.3f} against {prec_b:.3f}) is higher in **{percent_prob(pa)}** of " \
             "bootstrap worlds"
    if pb > pa:
        better = f"{B}'s precision ({prec_b:.3f} against {prec_a:.3f}) is higher in **{percent_prob(pb)}** of " \
                 "bootstrap worlds"
    clear = ("the interval excludes 0" if lo > 0 or hi < 0 else "the interval contains 0: no clear winner")
    return f"{where}, {words}; {better} ({clear})."


def verdict_sentence(a: str, b: str, recall: float, d: float, lo: float, hi: float, pa: float, tie: float,
                     level: float) -> str:
    """The plain headline: 'At 80% recall, A's precision is higher by … (95% interval …); A is better in …'."""
    A, B = f"**{md_escape(a)}**", f"**{md_escape(b)}**"
    where = f"At {percent(round(recall, 3))} recall"
    d_txt, lo_txt, hi_txt = signed_interval(d, lo, hi, 1, scale=100.0)
    interval = f"{percent(level)} interval {lo_txt} to {hi_txt} points"
    if d > 0:
        words = f"{A}'s precision is higher by {d_txt.lstrip('+')} percentage points ({interval})"
    elif d < 0:
        words = f"{A}'s precision is lower by {d_txt.lstrip('-')} percentage points ({interval})"
    else:
        words = f"the two precisions are equal on the data ({interval})"
    better = f"{A} is better in **{percent_prob(pa)}** of bootstrap worlds"
    pb = max(0.0, 1.0 - pa - tie)
    if pb > pa:
        better = f"{B} is better in **{percent_prob(pb)}** of bootstrap worlds"
    clear = ("the interval excludes 0" if lo > 0 or hi < 0 else "the interval contains 0: no clear winner")
    return f"{where}, {words}; {better} ({clear})."


def metrics_frame(results: dict, names: list) -> pd.DataFrame:
    """One row per metric at the threshold (the metric_ci frames, renamed to common columns)."""
    rows = []
    for name in names:
        f = results[name].to_frame().rename(columns={name: "value", f"{name}_mean": "mean", f"{name}_std": "std",
                                                     f"{name}_low": "low", f"{name}_high": "high"})
        f.insert(0, "metric", METRIC_TEXT[name][0])
        rows.append(f)
    return pd.concat(rows, ignore_index=True)


def main() -> None:
    page = page_frame("Precision–recall", CAPTION)
    if page is None:
        return
    an = page.an
    try:
        curves = {m: cache_pr.pr_curve(an.key, m, *an.arrays(m)) for m in an.models}
    except rocci.InputError as exc:
        error(str(exc))
        return

    left, right = page.columns()
    with left:
        opts = controls(an, curves)
    if opts is None:
        with right:
            st.info("Fix the highlighted input on the left to update the page.")
        return

    y, s = an.arrays(opts.model)
    names = list(MAIN_METRICS) + [opts.other]
    try:
        if opts.by == "value" and opts.typed is not None:
            t, how = opts.typed, "typed"
        else:
            target = opts.target if opts.by == "recall" else TARGET_RECALL
            t = cache_pr.threshold_for_recall(an.key, opts.model, target, y, s)
            how = f"the highest threshold reaching {percent(target)} recall"
        at_t = {k: cache_pr.metric_at(an.key, opts.model, k, (t,), opts.level, method_of(k, opts.method), y, s)
                for k in names}
        rci = cache_pr.precision_at_recall(an.key, opts.model, opts.recall, opts.level, opts.method, y, s)
        regions = None
        if opts.thresholds:
            regions = {k: cache_pr.metric_at(an.key, opts.model, k, opts.thresholds, opts.level,
                                             method_of(k, opts.method), y, s)
                       for k in ("precision", "recall")}
    except rocci.InputError as exc:
        with right:
            error(str(exc))
        return

    cfg = plotly_config(image_format=image_format(), filename="rocci_precision_recall")
    many = len(an.models) > 1
    color = an.colors[opts.model]
    verdict = None
    with right:
        baseline = float(next(iter(curves.values())).attrs["baseline"])
        fig = plots_pr.pr_figure(curves, baseline=baseline, colors=an.colors)
        plots_pr.add_recall_intervals(fig, rci, name=opts.model if many else "", color_index=color)
        if regions is not None:
            plots_pr.add_threshold_regions(fig, regions["precision"], regions["recall"],
                                           name=opts.model if many else "", color_index=color)
        plots_pr.add_current_point(fig, at_t["precision"], at_t["recall"], name=opts.model)
        report.plotly_chart(fig, config=cfg, key="pr_chart")
        report.caption(
            f"Curves: every threshold, joined as Davis and Goadrich (2006) interpolate between two thresholds "
            f"(precision is not a straight line in recall). Dashed grey: the baseline, the positive share "
            f"{baseline:.4f} (random scores). Bars: {percent(opts.level)} {method_text(opts.method)} intervals "
            f"for {md_escape(opts.model)}'s precision at the recall levels; diamond: the threshold below, with "
            "its recall and precision intervals."
            + (" Boxes: recall interval × precision interval at each chosen threshold (each axis at the level, "
               "not a joint region)." if regions is not None else "")
            + " Hover a point for its threshold, counts and interval.")
        threshold_panel(an, opts, t, how, at_t)
        if opts.pair is not None:
            verdict = verdict_panel(an, opts)
        method_note(opts, rci)

    results(an, opts, curves, rci, at_t, names, regions, verdict)


def method_note(opts: Options, rci) -> None:
    controls_ui.method_note(
        "**The exact bootstrap law.** Each resample draws m+ positives and m− negatives with replacement "
        f"(stratified; here m+ = {rci.m_pos:,}, m− = {rci.m_neg:,}); the intervals are what infinitely many "
        "resamples would give, computed by formula. **At a fixed threshold** the positives flagged in a "
        "resample follow a binomial law Bin(m+, TP/n+) and the negatives flagged Bin(m−, FP/n−), "
        "independently; precision, F1, MCC and the rest are functions of these two counts, so each has a "
        "finite law, the sum of the two binomial probabilities over the pairs of counts that give each value. "
        "**At a fixed recall** r/m+ the threshold moves with the resample: it is the r-th highest positive "
        "score drawn (an order statistic); given it, the negatives flagged are binomial and the precision is "
        "r/(r + FP*), a mixture of binomials, the law of the ROC page's vertical averaging with the classes' "
        "roles swapped. **Two models**: both thresholds come from the same resample of positives, so the "
        "law of the difference is paired and exact; with many negatives (its grid of the two models' "
        "false-positive counts past 4 million cells) the verdict reads the difference of false positive rates "
        "at the same recall instead, which says which precision is higher in exactly the same resamples. "
        "The percentile interval takes the law's "
        f"{percent((1 - opts.level) / 2)} and {percent(1 - (1 - opts.level) / 2)} points; Wald, its mean ± z·sd. "
        "**Undefined cases**: a resample that flags nothing has no precision (and MCC, NPV or lift can be "
        "undefined the same way); such resamples are left out, as a Monte Carlo bootstrap drops them, and "
        "their exact probability is shown when it is at least 0.01%. **Gain and lift** (Curves tab): at a fixed "
        "threshold the gain is TP*/m+ and the depth (TP* + FP*)/(m+ + m−), from the same two binomial counts, "
        "and the lift their ratio (undefined when a resample targets nothing); at a fixed depth k/(m+ + m−) the "
        "g-th positive drawn is in the top k when at most k − g negative draws rank above it, an order "
        "statistic mixed with a binomial as at a fixed recall (draws sharing a score in random order: an "
        "integral along the ROC curve, straight across tied scores). **The curve** between two thresholds is "
        "Davis and Goadrich's (2006) interpolation: TP grows by one at a time and FP in proportion, along the "
        "ROC segment.")


#: Resamples of the average precision's Monte Carlo bootstrap, and its seed (shown on the page).
AP_RESAMPLES, AP_SEED = 2000, 0
#: Above this many distinct scores × resamples the average precision waits for a click.
AP_AUTO_CELLS = 2 * 10**8


def average_precision_panel(an, opts: Options) -> None:
    """Each model's average precision, with its Monte Carlo bootstrap interval labelled as such."""
    level = percent(opts.level)
    st.markdown("**Average precision**")
    report.caption(
        f"Average precision = Σ (increase in recall) × precision over the thresholds (scikit-learn's definition). "
        f"Its bootstrap law has no closed form here, so unlike the rest of this page its {level} interval comes "
        f"from a **Monte Carlo** bootstrap: {AP_RESAMPLES:,} stratified resamples, seed {AP_SEED} (the same "
        "numbers on every run). The Monte Carlo error is shown beside it; the baseline is the AP of random scores.")
    size, unit = an.prepared.n_pos + an.prepared.n_neg, "rows"
    if an.from_counts:  # a resample of a table draws the counts at each distinct score (a multinomial)
        size, unit = max(an.arrays(m)[0].table()[0].size for m in an.models), "distinct scores"
    if max(size, 1) * AP_RESAMPLES > AP_AUTO_CELLS and not st.button(
            f"Compute the average precision ({AP_RESAMPLES:,} resamples of {size:,} {unit})", key="ap_go"):
        return
    rows = []
    for m in an.models:
        try:
            res = cache_pr.average_precision(an.key, m, opts.level, AP_RESAMPLES, AP_SEED, *an.arrays(m))
        except rocci.InputError as exc:
            error(f"{m}: {exc}")
            continue
        rows.append({"model": str(m), "average_precision": res.average_precision,
                     "interval": f"{res.average_precision_low:.4f} – {res.average_precision_high:.4f}",
                     "low": res.average_precision_low, "high": res.average_precision_high,
                     "std": res.average_precision_std, "mc_se_std": res.average_precision_std_se,
                     "low_mc": f"{res.low_range[0]:.4f}–{res.low_range[1]:.4f}",
                     "high_mc": f"{res.high_range[0]:.4f}–{res.high_range[1]:.4f}", "baseline": res.baseline})
    if not rows:
        return
    frame = pd.DataFrame(rows)
    # the estimate and its interval first (what a phone shows without scrolling); the bounds' numbers in the CSV
    order = ["model", "average_precision", "interval", "baseline", "std", "mc_se_std", "low_mc", "high_mc"]
    st.dataframe(frame, hide_index=True, key="pr_ap_table", column_order=order, column_config=column_config(frame, help={
        "interval": f"{level} interval: percentile bounds of the {AP_RESAMPLES:,} Monte Carlo resamples.",
        "std": "Bootstrap standard deviation of the average precision, from the Monte Carlo resamples."}))
    provenance = dict(confidence_level=opts.level, method="monte-carlo", bootstrap="stratified",
                      n_boot=AP_RESAMPLES, seed=AP_SEED)
    download_csv(frame.drop(columns="interval").assign(**provenance),
                 label="Download the average precision (CSV)", file_name="rocci_average_precision.csv",
                 key="dl_pr_ap")


def gain_caption(res, opts: Options, method: str, model: str) -> str:
    """What the gain and lift charts show and what their bars promise, in plain words."""
    level = percent(res.confidence_level)
    held = ("**the threshold held fixed** (the score cut-off reaching each depth on the data): in a new sample "
            "of the same size both the depth and the gain move, so the bars go both ways"
            if res.at == "threshold" else
            "**the depth held fixed**: each resample targets its own top share d, so only the gain moves (draws "
            "sharing a score in random order)")
    return (
        "**Gain**: target the top-scored share of the population (the **depth**, across) and read the share of "
        "all positives you capture (up). Random targeting follows the dashed diagonal. **Lift** = gain ÷ depth: "
        "how many times more positives your target holds than a random target of the same size (1 = no better "
        f"than random). Bars: {level} {method} intervals for {md_escape(model)} at the chosen depths, with "
        f"{held}. Each bar is the range that {level} of bootstrap resamples of your data would give (exact, "
        "computed by formula): the sampling uncertainty of a new dataset of the same size drawn like this one, "
        "each bar on its own (not a band for the whole curve).")


def gain_lift_panel(an, opts: Options) -> None:
    """Gain and lift charts of every model with the chosen model's exact intervals, a table and its CSV."""
    report.markdown("**Gain and lift**")
    method = opts.method if opts.method in GAIN_METHODS else "percentile"
    try:
        gains = {m: cache_pr.gain_curve(an.key, m, *an.arrays(m)) for m in an.models}
    except rocci.InputError as exc:
        error(str(exc))
        return
    res, failed = None, False
    if opts.depths:
        try:
            res = cache_pr.gain_intervals(an.key, opts.model, opts.depths, opts.gain_at, opts.level, method,
                                          *an.arrays(opts.model))
        except rocci.InputError as exc:  # the curves are still drawn
            error(str(exc))
            failed = True
    p = an.prepared
    share = p.n_pos / (p.n_pos + p.n_neg)
    many = len(an.models) > 1
    color = an.colors[opts.model]
    cfg = plotly_config(image_format=image_format(), filename="rocci_gain_lift")
    gain_fig = plots_pr.gain_figure(gains, positive_share=share, colors=an.colors, height=440)
    lift_fig = plots_pr.lift_figure(gains, colors=an.colors, height=440)
    if res is not None:
        plots_pr.add_gain_intervals(gain_fig, res, name=opts.model if many else "", color_index=color)
        plots_pr.add_gain_intervals(lift_fig, res, quantity="lift", name=opts.model if many else "",
                                    color_index=color)
    left, right = st.columns(2)
    with left:
        report.plotly_chart(gain_fig, config=cfg, key="pr_gain_chart", title="Gain chart")
    with right:
        report.plotly_chart(lift_fig, config=cfg, key="pr_lift_chart", title="Lift chart")
    if res is None:
        if not failed:
            report.caption("Type depths on the left (e.g. 0.1 for the top 10%) for intervals on these charts.")
        return
    report.caption(gain_caption(res, opts, method_text(method), opts.model)
                   + ("" if method == opts.method else f" (The {method_label(opts.method)} method is "
                      "for the precision; these bars are percentile intervals.)"))
    frame = res.to_frame()
    if res.at == "threshold":
        frame = frame.drop(columns=["total_positive_rate_mean", "total_positive_rate_std"])
    else:  # the depth is fixed and the lift always defined
        frame = frame.drop(columns=["total_positive_rate_mean", "total_positive_rate_std", "total_positive_rate_low",
                                    "total_positive_rate_high", "p_undefined"])
    order = [c for c in GAIN_ORDER if c in frame.columns]
    st.dataframe(frame, hide_index=True, column_order=order, column_config=column_config(frame, help=GAIN_HELP),
                 key="pr_gain_table")
    download_csv(with_provenance(frame, opts.model, at=res.at, confidence_level=res.confidence_level,
                                 method=res.method, bootstrap=res.bootstrap, m_pos=res.m_pos, m_neg=res.m_neg),
                 label="Download gain and lift intervals (CSV)", file_name="rocci_gain_lift.csv", key="dl_pr_gain")


def results(an, opts: Options, curves: dict, rci, at_t: dict, names: list, regions, verdict) -> None:
    report.subheader("Results", anchor=False)
    tabs = ["Recall levels", "Threshold"]
    if regions is not None:
        tabs.append("Regions")
    if verdict is not None:
        tabs.append("Two models")
    tabs.append("Curves")
    tab = dict(zip(tabs, st.tabs(tabs)))
    level = percent(opts.level)
    method = method_text(opts.method)

    with tab["Recall levels"]:
        frame = rci.to_frame()
        n_requested = len(frame)
        frame = frame.drop_duplicates(subset=["r"], ignore_index=True)
        report.caption(
            f"Model **{md_escape(opts.model)}**: {level} {method} intervals for the precision at recall levels "
            f"r / m+; exact stratified bootstrap, m+ = {rci.m_pos:,}, m− = {rci.m_neg:,}."
            + (f" {n_requested - len(frame)} of the {n_requested} levels round to the same r / m+ as another "
               "one and are listed once." if len(frame) < n_requested else ""))
        order = [c for c in RECALL_ORDER if c in frame.columns]
        st.dataframe(frame, hide_index=True, column_order=order, column_config=column_config(frame, help=RECALL_HELP),
                     key="pr_recall_table")
        download_csv(with_provenance(frame, opts.model, confidence_level=rci.confidence_level, method=rci.method,
                                     bootstrap="stratified", m_pos=rci.m_pos, m_neg=rci.m_neg),
                     label="Download precision at recall levels (CSV)", file_name="rocci_precision_at_recall.csv",
                     key="dl_pr_recall")

    with tab["Threshold"]:
        frame = metrics_frame(at_t, names)
        report.caption(f"Model **{md_escape(opts.model)}** at score ≥ {md_escape(number(frame['threshold'][0], 6))}: "
                       f"{level} {method} intervals of each metric's exact stratified bootstrap law."
                       + (" (Score interval for precision; the other metrics have none and use the percentile "
                          "interval.)" if opts.method == "score" else ""))
        cfg = column_config(frame, help=METRIC_HELP | {"metric": "; ".join(
            f"{METRIC_TEXT[k][0]}: {METRIC_TEXT[k][1]}" for k in names)})
        st.dataframe(frame, hide_index=True, column_order=["metric", "value", "low", "high", "mean", "std",
                                                           "p_undefined"],
                     column_config=cfg, key="pr_metric_table")
        first = at_t["precision"]
        download_csv(with_provenance(frame, opts.model, confidence_level=first.confidence_level,
                                     method=first.method, bootstrap=first.bootstrap, m_pos=first.m_pos,
                                     m_neg=first.m_neg),
                     label="Download the metrics at the threshold (CSV)", file_name="rocci_metrics_at_threshold.csv",
                     key="dl_pr_metrics")

    if regions is not None:
        with tab["Regions"]:
            p, r = regions["precision"].to_frame(), regions["recall"].to_frame()
            frame = p[["threshold", "tp", "fp"]].copy()
            for c in ("recall", "recall_low", "recall_high"):
                frame[c] = r[c]
            for c in ("precision", "precision_low", "precision_high", "p_undefined"):
                frame[c] = p[c]
            report.caption(f"Model **{md_escape(opts.model)}**: {level} {method} intervals for recall and "
                           "precision at each threshold (each on its own; the box on the chart is their product)."
                           + (" Score interval for precision, percentile for recall." if opts.method == "score"
                              else ""))
            st.dataframe(frame, hide_index=True, column_config=column_config(frame, help=REGION_HELP),
                         key="pr_region_table")
            download_csv(with_provenance(frame, opts.model, confidence_level=opts.level, method=opts.method,
                                         bootstrap="stratified"),
                         label="Download the regions (CSV)", file_name="rocci_precision_regions.csv",
                         key="dl_pr_regions")

    if verdict is not None:
        with tab["Two models"]:
            frame = verdict["frame"]
            report.caption("ΔFPR = false positive rate of A − that of B at the recall level (the exact law of "
                           "Δprecision is too large here; P(A better) is the precision's), with P(A better) and "
                           "P(tie): exact paired stratified bootstrap." if verdict["by_fpr"] else
                           "Δprecision = precision of A − precision of B at the recall level, with P(A better) "
                           "and P(tie): exact paired stratified bootstrap.")
            st.dataframe(frame, hide_index=True, key="pr_verdict_table")
            download_csv(frame, label="Download the two-model comparison (CSV)",
                         file_name="rocci_precision_compare.csv", key="dl_pr_verdict")

    with tab["Curves"]:
        gain_lift_panel(an, opts)
        average_precision_panel(an, opts)  # the PR curve's one-number summary first
        st.markdown("**Points of the curve**")
        sizes = ", ".join(f"{md_escape(m)}: {len(c):,} points ({int(c['interpolated'].sum()):,} interpolated)"
                          for m, c in curves.items())
        thinned = ("" if not an.from_counts else
                   f" From large data the interpolated points are thinned, evenly in TP, to at most "
                   f"{cache_pr.CURVE_MAX_POINTS:,} rows per curve (every threshold is kept).")
        report.caption("Every point of each curve: one per threshold, and Davis and Goadrich's interpolated "
                       f"points between them (threshold empty). {sizes}.{thinned}")

        def curve_frame() -> pd.DataFrame:
            return pd.concat([c.assign(model=str(m)) for m, c in curves.items()], ignore_index=True)[
                ["model", "threshold", "recall", "precision", "tp", "fp", "interpolated", "threshold_above",
                 "threshold_below"]]

        if len(next(iter(curves.values()))) <= 2000:
            st.dataframe(curve_frame(), hide_index=True, height=260, key="pr_curve_table")
        download_csv(curve_frame, label="Download the PR curve(s) (CSV)", file_name="rocci_pr_curve.csv",
                     key="dl_pr_curve")


main()
