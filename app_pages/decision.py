"""Decision curve page: net benefit of each risk model with its exact bootstrap band, treat-all and
treat-none, and the two-model verdict.

Thin UI: every number comes from rocci (``net_benefit``, ``compare_net_benefit``) through the cached
wrappers in ui.cache.decision; figures from rocci.plots.decision; sentences from ui.decision. The
choices are bound to the URL query string, like the other pages.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

import rocci
from rocci.plots import decision as plots_decision
from rocci.plots import plotly_config
from ui import cache, report
from ui import decision as words
from ui.cache import decision as cache_decision
from ui.controls import error
from ui.frame import page_frame
from ui.labels import column_config, method_option, method_text
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import md_escape, percent

URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
BOOTSTRAPS = {"full": "Full", "stratified": "Stratified"}
METHODS = ["percentile", "agresti-coull", "wald"]
#: Below this many flagged instances the percentile band undercovers (docs/decision.md, "Which interval where").
FEW_FLAGGED = 10

CAPTION = (
    "A **decision curve** shows, for each threshold probability p (the risk above which you would act), "
    "the **net benefit** of acting on the model: true positives per instance, minus false positives weighted "
    "by the odds p/(1 − p) (acting at p says one true case found is worth (1 − p)/p false alarms). It is compared with "
    "treating everyone and treating no one. Bands use the **exact bootstrap**: what infinitely many resamples "
    "would give, worked out by formula."
)

#: The tables' columns in this page's context (labels and formats: ui.labels).
NB_HELP = {
    "threshold": "Threshold probability p: act when the predicted risk is ≥ p.",
    "tp": "Positives flagged (risk ≥ p).",
    "fp": "Negatives flagged (risk ≥ p).",
}
CMP_HELP = {
    "threshold": NB_HELP["threshold"],
    "p_a_better": "Exact bootstrap probability that A's net benefit is strictly larger.",
    "p_tie": "Exact bootstrap probability that the two net benefits are equal.",
}
#: The comparison table's columns, in order.
CMP_ORDER = ["threshold", "net_benefit_a", "net_benefit_b", "delta_net_benefit", "delta_net_benefit_std",
             "delta_net_benefit_low", "delta_net_benefit_high", "p_a_better", "p_tie"]


@dataclass(frozen=True)
class Options:
    models: tuple
    model_a: str | None
    model_b: str | None
    level: float
    bootstrap: str
    method: str
    low: float
    high: float


def risk_models(an: cache.Analysis) -> tuple[dict, dict]:
    """``({model: NetBenefit on the default settings}, {model: why not})``: models whose scores are not
    probabilities are refused by rocci with a message that points to the cost curves."""
    ok, refused = {}, {}
    for m in an.models:
        y, s = an.arrays(m)
        try:
            ok[m] = cache_decision.net_benefit(an.key, m, words.GRID, "full", 0.95, "percentile", y, s)
        except rocci.InputError as exc:
            refused[m] = str(exc)
    return ok, refused


def controls(an: cache.Analysis, usable: list, first: dict) -> Options:
    with st.container(border=True):
        st.markdown("**Models**")
        models = st.multiselect("Models shown", usable, default=usable, key="dc_models", bind=URL,
                                help="Risk models (scores that are probabilities) whose decision curves to draw.")
        model_a = model_b = None
        if len(usable) > 1:
            model_a = st.selectbox("Model A", usable, key="dc_model_a", bind=URL,
                                   help="The verdict compares A with B: ΔNB = NB of A − NB of B.")
            others = ["—"] + [m for m in usable if m != model_a]
            b = st.selectbox("Compare with model B", others, index=1, key="dc_model_b", bind=URL,
                             help="A second risk model scored on the same instances.")
            model_b = None if b == "—" else b
    low0, high0 = words.default_range(first)
    with st.container(border=True):
        st.markdown("**Threshold probabilities**")
        low, high = st.slider(
            "Range of risk thresholds", min_value=0.01, max_value=0.99, value=(low0, high0), step=0.01,
            format="percent", key="dc_range", bind=URL,
            help="The risks at which someone might reasonably act. The chart and the verdict cover this range. "
            f"Default: 1% to {words.pct(high0)}, a little past the last threshold where a model's band lies "
            "above 0 on these data.")
    with st.container(border=True):
        st.markdown("**Intervals**")
        level = st.select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="dc_level",
                                 bind=URL, help="Coverage of every band and interval on this page (pointwise in p).")
        bootstrap = st.segmented_control(
            "Bootstrap", list(BOOTSTRAPS), format_func=BOOTSTRAPS.get, default="full", required=True,
            key="dc_bootstrap", bind=URL,
            help="Full: resample the rows (the prevalence varies between resamples, as in the decision-curve "
            "literature). Stratified: resample positives and negatives separately (prevalence fixed).")
        method = st.selectbox("Interval method", METHODS, format_func=method_option, key="dc_method",
                              bind=URL, help="Percentile: quantiles of the exact bootstrap law (default). "
                              "Agresti–Coull: Wald after two pseudo-counts in each cell of the confusion matrix; it "
                              "keeps its level where few instances are flagged (high thresholds), where the "
                              "percentile band is too narrow. Wald: net benefit ± z·sd from its exact standard "
                              "deviation.")
    return Options(models=tuple(models), model_a=model_a, model_b=model_b, level=level, bootstrap=bootstrap,
                   method=method, low=float(low), high=float(high))


def refused_note(refused: dict) -> None:
    if not refused:
        return
    names = ", ".join(f"**{md_escape(m)}**" for m in refused)
    st.info(f"Not drawn: {names}. Their scores are not probabilities between 0 and 1, and net benefit reads each "
            "score as a predicted risk. Calibrate them first, or read them by costs: on the Cost curves page the "
            "threshold probability follows from the misclassification costs, p = C(+|−)/(C(+|−) + C(−|+)).",
            icon=":material/info:")
    st.page_link("app_pages/cost.py", label="Open the Cost curves page", icon=":material/payments:")


def main() -> None:
    page = page_frame("Decision curve", CAPTION)
    if page is None:
        return
    an = page.an
    with st.spinner("Computing net benefit…"):
        first, refused = risk_models(an)
    if not first:
        refused_note(refused)
        return
    left, right = page.columns()
    with left:
        opts = controls(an, list(first), first)
    if not opts.models:
        with right:
            st.info("Choose at least one model on the left.")
        return
    stats = dict(bootstrap=opts.bootstrap, confidence_level=opts.level)
    try:
        with st.spinner("Computing exact bootstrap intervals…"):
            results = {m: cache_decision.net_benefit(an.key, m, words.GRID, method=opts.method, **stats,
                                                     _y=an.arrays(m)[0], _s=an.arrays(m)[1])
                       for m in opts.models}
            cmp = cmp_note = None
            if opts.model_b:
                cmp_note = an.pair_refusal(opts.model_a, opts.model_b, "The net-benefit difference of two models",
                                           expands=False)
            if opts.model_b and cmp_note is None:
                y, a, b = an.paired(opts.model_a, opts.model_b)
                cmp = cache_decision.compare_net_benefit(an.key, opts.model_a, opts.model_b, words.GRID, **stats,
                                                         _y=y, _a=a, _b=b)
    except rocci.InputError as exc:
        with right:
            error(str(exc))
        return
    with right:
        show(an, opts, results, cmp, cmp_note)
        refused_note(refused)
    tables(opts, results, cmp)


def interval_words(opts: Options) -> str:
    return f"{percent(opts.level)} {method_text(opts.method)} intervals, {opts.bootstrap} exact bootstrap"


def show(an, opts: Options, results: dict, cmp, cmp_note) -> None:
    x_range = (opts.low, opts.high)
    if cmp is not None:
        report.markdown(words.verdict(cmp, opts.low, opts.high, opts.model_a, opts.model_b))
    fig = plots_decision.decision_curve_figure(results, colors=an.colors, x_range=x_range)
    report.plotly_chart(fig, config=plotly_config(image_format=image_format(), filename="rocci_decision"),
                        key="dc_chart")
    first = next(iter(results.values()))
    sizes = (f"m = n = {first.n_pos + first.n_neg:,} rows" if opts.bootstrap == "full" else
             f"m+ = {first.n_pos:,} positives, m− = {first.n_neg:,} negatives")
    report.caption(
        f"Bold: each model's net benefit; shaded: its {interval_words(opts)} ({sizes}), pointwise at each 1% step "
        "of the threshold probability. Dashed: treat everyone; dotted: treat no one (net benefit 0). "
        + words.useful_sentence(results, opts.low, opts.high))
    few = words.few_flagged(results, opts.low, opts.high, FEW_FLAGGED)
    if few is not None and opts.method != "agresti-coull":
        st.info(few + " There the exact bootstrap law is nearly a point and its band too narrow to hold its level "
                "for the population; choose **Agresti–Coull** on the left for those thresholds.",
                icon=":material/info:")
    if cmp is not None:
        report.markdown(f"**Net-benefit difference · {md_escape(opts.model_a)} − {md_escape(opts.model_b)}**")
        report.plotly_chart(
            plots_decision.delta_net_benefit_figure(cmp, name_a=opts.model_a, name_b=opts.model_b, x_range=x_range),
            config=plotly_config(image_format=image_format(), filename="rocci_decision_diff"), key="dc_delta")
        report.caption(
            f"ΔNB = NB of **{md_escape(opts.model_a)}** − NB of **{md_escape(opts.model_b)}**, the two models flagging "
            f"the same instances' risks; band: {percent(opts.level)} percentile interval of its exact paired law "
            f"({opts.bootstrap} bootstrap). Dotted, right axis: the exact probability that A gives more net "
            "benefit. Pointwise: each threshold on its own.")
    elif cmp_note is not None:
        st.info(cmp_note, icon=":material/info:")
    elif len(an.models) > 1 and opts.model_a is not None:
        st.info("Choose a model B on the left to compare the two models' net benefit.")


def tables(opts: Options, results: dict, cmp) -> None:
    report.subheader("Results", anchor=False)
    names = ["Net benefit"] + (["Comparison"] if cmp is not None else [])
    tabs = dict(zip(names, st.tabs(names)))
    first = next(iter(results.values()))
    with tabs["Net benefit"]:
        frame = pd.concat([r.to_frame().assign(model=str(m)) for m, r in results.items()], ignore_index=True)
        frame = frame[["model"] + [c for c in frame.columns if c != "model"]]
        keep = words.in_range(frame["threshold"], opts.low, opts.high)
        shown = frame[keep].reset_index(drop=True)
        report.caption(f"Net benefit per threshold probability, {interval_words(opts)}; the rows of the "
                       f"chosen range ({words.pct(opts.low)} to {words.pct(opts.high)}).")
        st.dataframe(shown, hide_index=True, column_config=column_config(shown, help=NB_HELP), height=300,
                     key="dc_table")
        download_csv(shown.assign(confidence_level=first.confidence_level, method=first.method,
                                  bootstrap=first.bootstrap, n_pos=first.n_pos, n_neg=first.n_neg),
                     label="Download net benefit (CSV)", file_name="rocci_net_benefit.csv", key="dl_dc")
    if cmp is not None:
        with tabs["Comparison"]:
            frame = cmp.to_frame()[CMP_ORDER]
            frame = frame[words.in_range(frame["threshold"], opts.low, opts.high)].reset_index(drop=True)
            report.caption(f"ΔNB = NB of **{md_escape(opts.model_a)}** (A) − NB of **{md_escape(opts.model_b)}** (B); "
                           f"{percent(opts.level)} percentile intervals of the exact paired law, {opts.bootstrap} "
                           "bootstrap.")
            st.dataframe(frame, hide_index=True, column_config=column_config(frame, help=CMP_HELP), height=300,
                         key="dc_cmp_table")
            download_csv(frame.assign(model_a=opts.model_a, model_b=opts.model_b,
                                      confidence_level=cmp.confidence_level, bootstrap=cmp.bootstrap,
                                      n_pos=cmp.n_pos, n_neg=cmp.n_neg),
                         label="Download the comparison (CSV)", file_name="rocci_net_benefit_compare.csv",
                         key="dl_dc_cmp")


main()
