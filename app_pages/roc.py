"""ROC page: the empirical curve, its AUC, and exact bootstrap intervals.

Thin UI: every number comes from rocci (``roc_curve``, ``roc_auc``,
``threshold_ci``, ``vertical_ci``) through the cached wrappers in ui.cache;
figures come from rocci.plots.  The page's choices are bound to the URL
query string (``bind="query-params"``), so reloading or sharing the link
restores them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci
from rocci import plots
from ui import cache, report
from ui.controls import error
from ui.frame import page_frame
from ui.labels import column_config, method_option, method_text
from ui.download import download_csv, with_provenance
from ui import controls as controls_ui
from ui.sidebar import image_format
from ui.text import REGION_NAMES, ParseError, md_escape, number, parse_numbers, percent

URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
AUC_METHODS = ["delong", "hanley-mcneil", "exact-bootstrap"]
THR_METHODS = ["wilson", "agresti-coull", "wald", "percentile"]
REGIONS = ["rectangle", "ellipse", "marginal"]
#: Score first (the default): in the Coverage lab (docs/coverage.md, figures 4.6-4.8) it holds its level
#: everywhere, while the percentile interval of the exact law has zero width and under-covers where the
#: true TPR is within about 1/n+ of 1.
VERT_METHODS = ["score", "percentile", "wald"]
THR_BY = {"grid": "Even grid", "rate": "By rate", "thr": "Thresholds"}
VIEWS = controls_ui.VIEWS
BAND_KINDS = {"threshold": "Exact (thresholds)", "vertical": "Šidák (FPR levels)"}
#: FPR levels of the vertical (Šidák) band: 0.01, 0.02, …, 0.99.
BAND_FPR = tuple(float(v) for v in np.round(np.linspace(0.01, 0.99, 99), 2))
# Option labels of the bound widgets: these are also what the URL shows (?region=Ellipse); the methods'
# are ui.labels.method_option's.
REGION_LABELS = {"rectangle": "Rectangle", "ellipse": "Ellipse", "marginal": "Marginal"}

EXACT_CAPTION = (
    "Intervals use the **exact bootstrap**: what you would get by resampling the data "
    "infinitely many times, worked out by formula — no random draws, so the same data always "
    "gives the same intervals."
)

AUC_HELP = {
    "delong": "DeLong's nonparametric standard error (normal approximation).",
    "hanley-mcneil": "Hanley and McNeil's standard error from the AUC and the class sizes (normal approximation).",
    "exact-bootstrap": "Standard error of the AUC under the exact (infinite-resample) stratified bootstrap, "
    "with m+ positives and m− negatives per resample (normal approximation).",
}

#: The vertical-averaging table's columns, in its context (labels and formats: ui.labels).
VERT_HELP = {
    "fpr": "The fixed false-positive rate r / m− (the FPR level).",
    "tpr": "Observed true-positive rate at this FPR level.",
}


@dataclass(frozen=True)
class Options:
    model: str
    level: float
    auc_method: str
    m: tuple | None
    view: str
    thr_show: bool
    thresholds: tuple | None
    rates: tuple | None
    thr_method: str
    region: str
    vert_show: bool
    vert_style: str
    fpr: tuple | None
    vert_method: str
    band_show: bool = False
    band_kind: str = "threshold"
    band_k: int = 200


def suggested_thresholds(curve) -> list[float]:
    """Five of the curve's own thresholds, evenly spaced along it (for the input's placeholder)."""
    finite = np.asarray(curve.thresholds, dtype=float)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        return []
    idx = np.unique(np.linspace(0, finite.size - 1, 7).round().astype(int)[1:-1])
    return [float(finite[i]) for i in idx]


def controls(an: cache.Analysis, curves: dict) -> Options | None:
    """The left-hand column of choices; returns them (None if a typed list is invalid)."""
    models = an.models
    p = an.prepared
    ok = True

    with st.container(border=True):
        st.markdown("**Curve and AUC**")
        model = models[0]
        if len(models) > 1:
            model = st.selectbox(
                "Model for the intervals", models, format_func=str, key="model", bind=URL,
                help="Every model's curve is drawn; confidence regions are drawn for this one.",
            )
        level = st.select_slider(
            "Confidence level", LEVELS, value=0.95, format_func=percent, key="level", bind=URL,
            help="Coverage of every interval and region on this page.",
        )
        auc_method = st.selectbox(
            "AUC interval method", AUC_METHODS, format_func=method_option, key="auc_method", bind=URL,
            help="How the AUC's interval is computed. " + " ".join(
                f"{method_text(k)}: {v}" for k, v in AUC_HELP.items()),
        )
        view = controls_ui.chart_view("view")

    with st.container(border=True):
        thr_show = st.toggle(
            "Threshold averaging", value=True, key="thr_show", bind=URL,
            help="Fix a threshold; the exact bootstrap gives a joint confidence region for its (FPR, TPR) point.",
        )
        thresholds = rates = None
        thr_method, region = "wilson", "rectangle"
        if thr_show:
            thr_by = st.segmented_control(
                "Choose the points", list(THR_BY), format_func=THR_BY.get, default="grid", required=True,
                key="thr_by", bind=URL,
                help="Even grid: points spread along the curve (equal steps of total-positive rate). "
                "By rate: the thresholds that classify the given fractions of all instances "
                "as positive. Thresholds: type score thresholds.",
            )
            if thr_by == "grid":
                k = st.number_input("Number of points", 1, 50, value=9, step=1, key="grid", bind=URL,
                                    help="Points at total-positive rates 1/(k+1), …, k/(k+1).")
                rates = tuple(i / (int(k) + 1) for i in range(1, int(k) + 1))
            elif thr_by == "rate":
                text = st.text_input("Total-positive rates (0–1, comma-separated)", value="0.1, 0.25, 0.4, 0.6",
                                     key="rate", bind=URL,
                                     help="Fraction of all instances predicted positive, e.g. 0.1 = the top 10% of scores.")
                try:
                    rates = tuple(parse_numbers(text, what="total-positive rate", low=0.0, high=1.0))
                except ParseError as exc:
                    st.warning(md_escape(str(exc)), icon=":material/warning:")
                    ok = False
            else:
                hint = ", ".join(number(t) for t in suggested_thresholds(curves[model]))
                text = st.text_input("Thresholds (comma-separated)", value="", key="thr", bind=URL,
                                     placeholder=f"e.g. {hint}",
                                     help="An instance is predicted positive when its score is ≥ the threshold. "
                                     "Leave empty to use the suggested thresholds shown in grey.")
                try:
                    thresholds = tuple(parse_numbers(text, what="threshold")) if text.strip() else tuple(
                        suggested_thresholds(curves[model]))
                except ParseError as exc:
                    st.warning(md_escape(str(exc)), icon=":material/warning:")
                    ok = False
            region = st.selectbox(
                "Region", REGIONS, format_func=REGION_LABELS.get,
                key="region", bind=URL,
                help="Rectangle: FPR and TPR intervals each at level √(confidence), so the box covers "
                "both at the confidence level. Ellipse: joint normal-approximation ellipse. Marginal: "
                "each axis's interval at the confidence level (not a joint region).",
            )
            thr_method = st.selectbox(
                "Interval method", THR_METHODS, format_func=method_option, key="thr_method", bind=URL,
                help="How each axis's interval is computed from its exact bootstrap (binomial) law: "
                "Wilson, Agresti–Coull and Wald intervals, or the percentile interval (quantiles of the "
                "exact law). Not used by ellipses.",
                disabled=region == "ellipse",
            )

    with st.container(border=True):
        vert_show = st.toggle(
            "Vertical averaging", value=False, key="vert_show", bind=URL,
            help="Fix a false-positive rate; the exact bootstrap gives an interval for the TPR there.",
        )
        fpr = None
        band_k = 0
        vert_style, vert_method = "bars", VERT_METHODS[0]
        if vert_show:
            vert_style = st.segmented_control(
                "Show as", ["bars", "band"], format_func={"bars": "Interval bars", "band": "Pointwise band"}.get,
                default="bars", required=True, key="vert_style", bind=URL,
                help="Bars at chosen FPR levels, or a band joining the intervals at many levels "
                "(pointwise: each level is covered at the confidence level, not the whole curve at once).",
            )
            if vert_style == "bars":
                text = st.text_input("FPR levels (between 0 and 1)", value="0.05, 0.1, 0.2, 0.3, 0.5",
                                     key="fpr", bind=URL,
                                     help="Each level is moved to the nearest r / m− (1 ≤ r ≤ m− − 1).")
                try:
                    fpr = tuple(parse_numbers(text, what="FPR level", low=0.0, high=1.0, inclusive=False))
                except ParseError as exc:
                    st.warning(md_escape(str(exc)), icon=":material/warning:")
                    ok = False
            else:
                band_k = int(st.number_input(
                    "Number of FPR levels in the band", 2, 400, value=60, step=1, key="band_n", bind=URL,
                    help="Levels r / m− evenly spaced in (0, 1) (at most m− − 1 of them); more levels give a "
                    "smoother band."))
            vert_method = st.selectbox(
                "Interval method", VERT_METHODS, format_func=method_option, key="vert_method", bind=URL,
                help="Score (default): thesis Algorithm 4.3 on the exact mean and variance, clipped to [0, 1]; "
                "it holds its level in every study of the Coverage lab. Percentile: quantiles of the exact law "
                "of the TPR; near TPR = 1 every bootstrap world can give the same TPR, and the interval then "
                "has zero width and misses the truth (as any bootstrap percentile interval does). "
                "Wald: mean ± z·sd.",
            )

    with st.container(border=True):
        band_show = st.toggle(
            "Simultaneous band", value=False, key="band_show", bind=URL,
            help="Where could the whole curve be? A band that holds the entire ROC curve at the confidence "
            "level, all thresholds at once (the regions above hold one point each).",
        )
        band_kind, band_k = "threshold", cache.BAND_THRESHOLDS
        if band_show:
            band_kind = st.segmented_control(
                "Band", list(BAND_KINDS), format_func=BAND_KINDS.get, default="threshold", required=True,
                key="band_kind", bind=URL,
                help="Exact: boxes at thresholds, calibrated so that the bootstrap curve passes through all of "
                "them with exact probability ≥ the level (no random draws). Šidák: the vertical intervals at 99 FPR "
                "levels, each at the Šidák-adjusted level (exact per level, conservative for the whole).",
            )
            if band_kind == "threshold":
                band_k = int(st.number_input(
                    "Thresholds in the band", 10, 1000, value=cache.BAND_THRESHOLDS, step=10, key="band_k",
                    bind=URL, help="Every distinct score if there are fewer; else this many, evenly spaced by rank. "
                    "More thresholds give a tighter band between them and take longer to calibrate."))

    m = controls_ui.bootstrap_size(p.n_pos, p.n_neg)

    if vert_show and vert_style == "band":
        # The band's levels are the attainable FPR values r / m−, 1 ≤ r ≤ m− − 1, evenly spread.
        m_neg = m[1] if m is not None else p.n_neg
        if m_neg < 2:
            st.warning("Vertical averaging needs at least 2 negatives per resample (m− ≥ 2).")
            ok = False
        else:
            r = np.unique(np.round(np.linspace(1, m_neg - 1, min(band_k, m_neg - 1))).astype(int))
            fpr = tuple(float(v) for v in r / m_neg)

    if not ok:
        return None
    return Options(
        model=model, level=float(level), auc_method=auc_method, m=m, view=view,
        thr_show=thr_show, thresholds=thresholds, rates=rates, thr_method=thr_method, region=region,
        vert_show=vert_show, vert_style=vert_style, fpr=fpr, vert_method=vert_method,
        band_show=band_show, band_kind=band_kind, band_k=band_k,
    )


def auc_metrics(aucs: dict, opts: Options) -> None:
    items = list(aucs.items())
    per_row = 4
    for start in range(0, len(items), per_row):
        cols = st.columns(per_row)
        for col, (model, res) in zip(cols, items[start:start + per_row]):
            with col:
                report.metric(
                    f"AUC · {md_escape(model)}",
                    f"{res.auc:.3f}",
                    help="Area under the empirical ROC curve: the probability that a random positive scores "
                    "higher than a random negative (ties count one half). " + AUC_HELP[res.method],
                )
                report.caption(
                    f"{md_escape(model)}: AUC {res.auc:.3f}, {percent(res.confidence_level)} "
                    f"{method_text(res.method)} interval **[{res.auc_low:.3f}, {res.auc_high:.3f}]** (sd {res.auc_std:.3f})"
                )


def main() -> None:
    page = page_frame("ROC curve", EXACT_CAPTION)
    if page is None:
        return
    an = page.an

    try:
        curves = {m: cache.roc_curve(an.key, m, *an.arrays(m)) for m in an.models}
    except rocci.InputError as exc:
        error(str(exc))
        return

    left, right = page.columns()
    with left:
        opts = controls(an, curves)
    if opts is None:
        with right:
            st.info("Fix the highlighted input on the left to update the chart.")
        return

    y, s = an.arrays(opts.model)
    band_note = None  # the band works on the counts at any size (rocci.roc_band never expands a table)
    try:
        aucs = {
            m: cache.roc_auc(an.key, m, opts.auc_method, opts.level,
                             opts.m if opts.auc_method == "exact-bootstrap" else None, *an.arrays(m))
            for m in an.models
        }
        tci = (
            cache.threshold_ci(an.key, opts.model, opts.thresholds, None if opts.thresholds else opts.rates,
                               opts.level, opts.thr_method, opts.region, opts.m, y, s)
            if opts.thr_show else None
        )
        vci = (
            cache.vertical_ci(an.key, opts.model, opts.fpr, opts.level, opts.vert_method, opts.m, y, s)
            if opts.vert_show else None
        )
        band = (
            cache.roc_band(an.key, opts.model, opts.band_kind, opts.band_k,
                           BAND_FPR if opts.band_kind == "vertical" else None, opts.level, opts.m, y, s)
            if opts.band_show and band_note is None else None
        )
    except rocci.InputError as exc:
        with right:
            error(str(exc))
        return

    color_index = an.models.index(opts.model)
    with right:
        if band_note is not None:
            st.info(band_note, icon=":material/info:")
        auc_metrics(aucs, opts)
        _, fpr_range, tpr_range = VIEWS[opts.view]
        fig = cache.roc_base_figure(an.key, tuple(an.models), tuple((m, f"AUC {r.auc:.3f}") for m, r in aucs.items()),
                                    tuple(fpr_range), tuple(tpr_range), curves)
        if tci is not None:
            plots.add_threshold_ci(fig, tci, name=opts.model if len(an.models) > 1 else "", color_index=color_index)
        if vci is not None:
            plots.add_vertical_ci(fig, vci, style=opts.vert_style,
                                  name=opts.model if len(an.models) > 1 else "", color_index=color_index)
        if band is not None:
            plots.add_band(fig, band, name=opts.model if len(an.models) > 1 else "", color_index=color_index)
        report.plotly_chart(fig, config=plots.plotly_config(image_format=image_format(), filename="rocci_roc"),
                        key="roc_chart")
        notes = []
        if tci is not None:
            notes.append(
                f"Threshold averaging: {percent(tci.confidence_level)} "
                + ("confidence ellipses" if tci.region == "ellipse" else
                   f"{method_text(tci.method)} {REGION_NAMES[tci.region]}")
                + (f", each axis at {percent(tci.axis_confidence_level)}" if tci.region == "rectangle" else "")
                + "."
            )
        if vci is not None:
            notes.append(
                f"Vertical averaging: {percent(vci.confidence_level)} {method_text(vci.method)} "
                f"intervals for the TPR at fixed FPR levels r / m−"
                + (" (pointwise band)." if opts.vert_style == "band" else ".")
            )
        if band is not None:
            notes.append(band_sentence(band, opts.model if len(an.models) > 1 else ""))
        m_used = tci or vci or band
        if m_used is not None:
            notes.append(f"Exact bootstrap with m+ = {m_used.m_pos:,}, m− = {m_used.m_neg:,}.")
        if notes:
            report.caption(" ".join(notes) + " Hover a point for its threshold, rates, counts and interval.")
            method = []
            if tci is not None:
                method.append("Threshold averaging (Gadoury 2009, ch. 4.3): at a fixed threshold the bootstrap "
                              "counts are binomial, so each axis's interval is a binomial interval on the exact law.")
            if band is not None:
                method.append(BAND_METHOD[band.kind])
            if vci is not None:
                method.append("Vertical averaging (§4.4.1): the exact law of the TPR at level r / m− mixes binomials "
                              "over the law of the r-th highest resampled negative score"
                              + ("; the score interval is Algorithm 4.3 on its exact mean and variance, clipped to "
                                 "[0, 1]." if vci.method == "score" else "."))
            controls_ui.method_note(" ".join(method))

    results(an, opts, curves, aucs, tci, vci, band)


BAND_METHOD = {
    "threshold": "Simultaneous band: under the bootstrap, the counts above the band's thresholds are partial sums "
    "of one multinomial per class, so the probability that the bootstrap curve passes through every box is exact "
    "(a Steck–Noé recursion); the boxes' common width c is the smallest giving at least the confidence level.",
    "vertical": "Simultaneous band (Šidák): at each FPR level the percentile interval of the exact law of the "
    "bootstrap TPR at level (confidence)^(1/L) over the L levels (where that law is a single point at 0 or 1, the "
    "interval reaches the score bound instead); the exact per-level laws bound the joint probability from below "
    "(Bonferroni).",
}


def band_sentence(band, model: str) -> str:
    """One plain sentence on what the simultaneous band promises, and how it was calibrated."""
    who = f" for {md_escape(model)}" if model else ""
    whole = (f"Simultaneous band{who} (hatched): the **whole** ROC curve lies inside it with "
             f"{percent(band.confidence_level)} confidence (a pointwise region or interval holds one point "
             "only).")
    if band.kind == "threshold":
        return whole + (f" Calibrated exactly on the bootstrap over {len(band.thresholds):,} thresholds: each box "
                        f"holds the counts within c = {band.critical_value:.3f} standard deviations of the observed "
                        "ones (where an observed rate is 0 or 1, up to the score bound); the bootstrap curve passes "
                        f"through all of the boxes in the table with probability {band.joint_probability:.6f}.")
    return whole + (f" Šidák over {len(band.fpr):,} FPR levels: each interval the percentile interval of its "
                    f"exact law at {100 * band.pointwise_level:.3f}%; all hold with bootstrap probability at least "
                    f"{band.joint_probability:.4f} (exact Bonferroni bound).")


def results(an, opts: Options, curves: dict, aucs: dict, tci, vci, band=None) -> None:
    st.subheader("Results", anchor=False)
    names = []
    if tci is not None:
        names.append("Threshold averaging")
    if vci is not None:
        names.append("Vertical averaging")
    if band is not None:
        names.append("Simultaneous band")
    names += ["AUC", "Exact ROC curve"]
    tabs = dict(zip(names, st.tabs(names)))
    level = percent(opts.level)

    if tci is not None:
        with tabs["Threshold averaging"]:
            frame = tci.to_frame()
            n_requested = len(frame)
            frame = frame.drop_duplicates(ignore_index=True)
            report.caption(
                f"Model **{md_escape(opts.model)}**: {level} "
                + ("ellipses (columns low/high are the ellipse's bounding box)" if tci.region == "ellipse"
                   else f"{method_text(tci.method)} {REGION_NAMES[tci.region]}")
                + f"; exact bootstrap, m+ = {tci.m_pos:,}, m− = {tci.m_neg:,}."
                + (f" {n_requested - len(frame)} of the {n_requested} requested points fall on the same "
                   "threshold as another one (tied scores) and are listed once." if len(frame) < n_requested else "")
            )
            order = [c for c in ["threshold", "total_positive_rate", "fpr", "fpr_low", "fpr_high", "tpr",
                                 "tpr_low", "tpr_high", "tp", "fp", "fpr_std", "tpr_std"] if c in frame.columns]
            st.dataframe(frame, hide_index=True, column_order=order, column_config=column_config(frame),
                         key="thr_table")
            download_csv(
                with_provenance(frame, opts.model, confidence_level=tci.confidence_level, method=tci.method,
                                region=tci.region, m_pos=tci.m_pos, m_neg=tci.m_neg),
                label="Download threshold averaging (CSV)", file_name="rocci_threshold_ci.csv", key="dl_thr",
            )

    if vci is not None:
        with tabs["Vertical averaging"]:
            frame = vci.to_frame()
            n_requested = len(frame)
            frame = frame.drop_duplicates(ignore_index=True)
            report.caption(
                f"Model **{md_escape(opts.model)}**: {level} {method_text(vci.method)} intervals for the TPR "
                f"at FPR levels r / m−; exact bootstrap, m+ = {vci.m_pos:,}, m− = {vci.m_neg:,}."
                + (f" {n_requested - len(frame)} of the {n_requested} requested levels round to the same r / m− "
                   "as another one and are listed once." if len(frame) < n_requested else "")
            )
            shown = ["fpr", "r", "tpr", "tpr_low", "tpr_high", "tpr_mean", "tpr_std"]
            if "truncated_mass" in frame.columns and frame["truncated_mass"].max() >= 1e-9:
                shown.append("truncated_mass")  # only when it matters (always in the CSV)
            order = [c for c in shown if c in frame.columns]
            st.dataframe(frame, hide_index=True, column_order=order,
                         column_config=column_config(frame, help=VERT_HELP),
                         key="vert_table")
            flat = frame[frame["tpr_high"] - frame["tpr_low"] <= 0]
            if len(flat):
                st.warning(
                    f"At {len(flat)} FPR level(s) (e.g. {flat['fpr'].iloc[0]:.3f}) the interval has zero width: "
                    "every bootstrap world gives the same TPR there, so a bootstrap interval cannot show the "
                    "uncertainty and under-covers (Coverage lab, figures 4.6–4.8). The score interval keeps a "
                    "width of order z²/m+.", icon=":material/warning:")
            download_csv(
                with_provenance(frame, opts.model, confidence_level=vci.confidence_level, method=vci.method,
                                m_pos=vci.m_pos, m_neg=vci.m_neg),
                label="Download vertical averaging (CSV)", file_name="rocci_vertical_ci.csv", key="dl_vert",
            )

    if band is not None:
        with tabs["Simultaneous band"]:
            frame = band.to_frame()
            report.caption(band_sentence(band, opts.model if len(an.models) > 1 else "")
                           + f" Band area {band.area:.4f} (of the unit square).")
            order = [c for c in ["threshold", "fpr", "fpr_low", "fpr_high", "tpr", "tpr_low", "tpr_high"]
                     if c in frame.columns]
            st.dataframe(frame, hide_index=True, column_order=order,
                         column_config=column_config(frame), key="band_table")
            download_csv(
                with_provenance(frame, opts.model, confidence_level=band.confidence_level, kind=band.kind,
                                method=band.method, critical_value=band.critical_value,
                                pointwise_level=band.pointwise_level, joint_probability=band.joint_probability,
                                joint_probability_kind=band.joint_probability_kind, m_pos=band.m_pos,
                                m_neg=band.m_neg),
                label="Download the simultaneous band (CSV)", file_name="rocci_roc_band.csv", key="dl_band",
            )

    with tabs["AUC"]:
        frame = pd.concat(
            [r.to_frame().assign(model=str(m)) for m, r in aucs.items()], ignore_index=True
        )
        frame = frame[["model"] + [c for c in frame.columns if c != "model"]]
        report.caption(f"{level} intervals for the area under each model's ROC curve.")
        st.dataframe(
            frame, hide_index=True,
            column_config=column_config(frame, help={"auc": "Area under the empirical ROC curve.",
                                                     "std": "Standard error of the AUC (by the method)."}),
            key="auc_table",
        )
        download_csv(frame, label="Download AUC (CSV)", file_name="rocci_auc.csv", key="dl_auc")

    with tabs["Exact ROC curve"]:
        sizes = ", ".join(f"{md_escape(m)}: {len(c.fpr):,} points" for m, c in curves.items())
        report.caption(
            "Every vertex of the empirical ROC curve (one per distinct score, plus (0, 0)); the chart draws "
            f"at most {plots.MAX_CURVE_POINTS:,} of them per curve. {sizes}."
        )

        def exact_frame() -> pd.DataFrame:
            return pd.concat(
                [c.to_frame().assign(model=str(m)) for m, c in curves.items()], ignore_index=True
            )[["model", "threshold", "fpr", "tpr", "tp", "fp"]]

        first = next(iter(curves.values()))
        if len(first.fpr) <= 2000:
            st.dataframe(exact_frame(), hide_index=True, height=260, key="curve_table")
        download_csv(exact_frame, label="Download the exact ROC curve(s) (CSV)", file_name="rocci_roc_curve.csv",
                     key="dl_curve")


main()
