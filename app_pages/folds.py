"""Folds & classes page: cross-validation folds, and classifiers with more than two classes.

Thin UI: every number comes from rocci (``fold_roc_curves``,
``fold_vertical_average``, ``fold_threshold_average``, ``compare_folds``,
``one_vs_rest``, ``top_score_curve``, and ``vertical_ci`` / ``threshold_ci``
on the pooled data) through the cached wrappers in ui.cache.folds and
ui.cache; figures come from rocci.plots.folds.  The page's choices are bound
to the URL query string (``bind="query-params"``).

The fold column is the one mapped on the Data page (pre-filled when a column
is named fold, cv, run...).  The class column is picked here, from the loaded
table, because the Data page maps a binary label.

For the Large-data source the fold column is the scan's *Fold / group
column*: ``rocci.scan(group=...)`` made each fold's counts where the rows
live, and the fold functions take the scan as it is (``model=``); the pooled
side works from the pooled counts.  Several classes need rows, so only the
folds view is offered there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci
from rocci import data as rdata
from rocci.plots import folds as plots_folds
from rocci.folds.multiclass import class_columns, match_score_columns
from rocci.plots import plotly_config
from ui import cache, report, state
from ui.cache import folds as cache_folds
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import label_text, md_escape, percent
from ui.controls import error
from ui.frame import page_header
from ui.labels import column_config, method_option, method_text

URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
VIEWS = {"folds": "Cross-validation folds", "classes": "Several classes"}
AVERAGES = {"vertical": "Vertical", "threshold": "Threshold"}
SPREADS = {"t": "t-interval of the mean", "sd": "± 1 standard deviation", "se": "± 1 standard error"}
MEASURES = {"auc": "AUC", "error": "Error rate"}
AUC_METHODS = ["delong", "hanley-mcneil", "exact-bootstrap"]
#: FPR levels of the exact bootstrap bands (pooled data, one-vs-rest, top score).
BAND_FPR = tuple(float(v) for v in np.round(np.linspace(0.01, 0.99, 99), 2))
FOLD_SAMPLE = "breast_cancer_cv.csv"
CLASS_SAMPLE = "wine_cv.csv"

CAPTION = (
    "Results of **cross-validation** (one ROC curve per fold, averaged two ways) and of classifiers with **more "
    "than two classes** (one curve per class, and whether the top score can tell right answers from wrong ones)."
)

#: The tables' columns in this page's context (labels and formats: ui.labels).
FOLD_HELP = {
    "n_pos": "Positive rows in this fold.",
    "n_neg": "Negative rows in this fold.",
    "auc": "Area under this fold's ROC curve.",
}
VERT_HELP = {
    "fpr": "The fixed false-positive rate.",
    "tpr_mean": "Mean over folds of each fold's true-positive rate at this FPR.",
    "tpr_std": "Standard deviation of the folds' TPRs at this FPR.",
    "tpr_low": "Lower end of the across-fold band.",
    "tpr_high": "Upper end of the across-fold band.",
}
THR_HELP = {
    "threshold": "Rows with score ≥ threshold are predicted positive, in every fold.",
    "fpr_mean": "Mean over folds of the false-positive rate at this threshold.",
    "fpr_std": "Standard deviation of the folds' FPRs.",
    "fpr_low": "Lower end of the across-fold band on the FPR.",
    "fpr_high": "Upper end of the across-fold band on the FPR.",
    "tpr_mean": "Mean over folds of the true-positive rate at this threshold.",
    "tpr_std": "Standard deviation of the folds' TPRs.",
    "tpr_low": "Lower end of the across-fold band on the TPR.",
    "tpr_high": "Upper end of the across-fold band on the TPR.",
}
POOLED_HELP = {
    "fpr": "The fixed false-positive rate r / m− (the FPR level).",
    "tpr": "True-positive rate of the pooled data at this FPR.",
    "tpr_low": "Lower end of the exact bootstrap interval.",
    "tpr_high": "Upper end of the exact bootstrap interval.",
}
CMP_HELP = {"fold": "The fold.", "n_pos": "Positive rows in this fold.", "n_neg": "Negative rows in this fold."}
OVR_HELP = {
    "n_pos": "Rows whose class is this one (the positives of one-vs-rest).",
    "n_neg": "Rows of every other class (the negatives).",
    "auc": "Area under the one-vs-rest ROC curve.",
}


def table(frame: pd.DataFrame, help: dict, *, key: str, file_name: str, label: str) -> None:
    st.dataframe(frame, hide_index=True, column_config=column_config(frame, help=help),
                 height=min(320, 40 + 35 * len(frame)), key=key)
    download_csv(frame, label=label, file_name=file_name, key=f"dl_{key}")


def _load_sample(name: str) -> None:
    """Load a bundled sample (a button's callback); the Data page's widgets follow the dataset (ui.state)."""
    state.set_dataset(state.sample_dataset(name))


def needs_data(reason: str | None) -> None:
    """What this page needs, and the bundled samples that have it."""
    st.info(
        "This page needs **cross-validation output** — a **fold column** giving the fold (or run) each row was "
        "scored in, chosen as *Fold column* on the Data page — or a **class column with more than two values** "
        "and one score column per class (named like the class, e.g. `setosa` or `p_setosa`)."
        + (f"\n\n{md_escape(reason)}" if reason else ""),
        icon=":material/info:",
    )
    names = state.sample_names()
    c1, c2 = st.columns(2)
    if FOLD_SAMPLE in names:
        c1.button("Load the breast-cancer sample (5 folds, two models)", key="fc_load_folds",
                  on_click=_load_sample, args=(FOLD_SAMPLE,), icon=":material/stacks:")
    if CLASS_SAMPLE in names:
        c2.button("Load the wine sample (3 classes)", key="fc_load_classes",
                  on_click=_load_sample, args=(CLASS_SAMPLE,), icon=":material/category:")
    st.page_link("app_pages/data.py", label="Or map your own columns on the Data page", icon=":material/table:")


# --------------------------------------------------------------------------
# folds
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class FoldOptions:
    model: str
    average: str
    spread: str
    level: float
    show_folds: bool
    n_thresholds: int
    corner: bool = False


def fold_controls(an: cache.Analysis) -> FoldOptions:
    models = an.models
    with st.container(border=True):
        c = st.columns([1.1, 1.1, 1.2, 1.1, 0.9])
        model = models[0]
        if len(models) > 1:
            model = c[0].selectbox("Model", models, format_func=str, key="fc_model", bind=URL,
                                   help="The model whose fold curves and averages are drawn.")
        else:
            c[0].markdown(f"**Model**  \n{md_escape(model)}")
        average = c[1].segmented_control(
            "Average the folds", list(AVERAGES), format_func=AVERAGES.get, default="vertical", required=True,
            key="fc_avg", bind=URL,
            help="Vertical: at each false-positive rate, the mean of the folds' true-positive rates. "
            "Threshold: at each threshold, the mean of the folds' (FPR, TPR) points — every fold uses the "
            "same threshold, so each averaged point is a classifier you could actually use.",
        )
        spread = c[2].selectbox("Across-fold band", list(SPREADS), format_func=SPREADS.get, key="fc_spread", bind=URL,
                                help="t-interval of the mean: where the mean curve of the folds would lie with the "
                                "chosen confidence (the folds taken as independent repeats). ± 1 standard deviation: "
                                "how far a single fold's curve typically is from the mean (ROCR's 'stddev'). "
                                "± 1 standard error: the standard deviation divided by √(number of folds).")
        level = c[3].select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="fc_level",
                                   bind=URL, help="Level of the t-interval and of the exact bootstrap intervals.")
        with c[4]:
            show_folds = st.toggle("Fold curves", value=True, key="fc_show", bind=URL,
                                   help="Thin lines: one ROC curve per fold.")
            corner = st.toggle("Zoom corner", value=False, key="fc_corner", bind=URL,
                               help="Zoom on FPR 0–0.5 and TPR 0.5–1, where good models' curves are.")
        n_thresholds = 20
        if average == "threshold":
            n_thresholds = c[1].slider("Number of thresholds", 5, 100, value=20, step=1, key="fc_nthr", bind=URL,
                                       help="Thresholds taken from all folds' scores, evenly spaced by rank.")
    return FoldOptions(model=model, average=average, spread=spread, level=level, show_folds=show_folds,
                       n_thresholds=int(n_thresholds), corner=corner)


def folds_section(an: cache.Analysis) -> None:
    p = an.prepared
    fold = None if an.from_counts else np.asarray(p.fold)
    if an.from_counts:
        report.caption(cache_folds.fold_sizes_text(p) + " Each fold's counts were made by the scan, where the rows "
                       "are; the curves and averages below are computed from them exactly.")
    opts = fold_controls(an)
    right = st.container()
    y, s = an.arrays(opts.model)
    stats = dict(confidence_level=opts.level, spread=opts.spread)
    try:
        if an.from_counts:  # each fold's counts, from the scan with a group column
            curves = cache_folds.fold_roc_curves_counts(an.key, opts.model, p.scan)
            vert = cache_folds.fold_vertical_average_counts(an.key, opts.model, None, **stats, _scan=p.scan)
            thr = cache_folds.fold_threshold_average_counts(an.key, opts.model, opts.n_thresholds, **stats,
                                                            _scan=p.scan)
        else:
            curves = cache_folds.fold_roc_curves(an.key, opts.model, y, s, fold)
            vert = cache_folds.fold_vertical_average(an.key, opts.model, None, **stats, _y=y, _s=s, _f=fold)
            thr = cache_folds.fold_threshold_average(an.key, opts.model, opts.n_thresholds, **stats, _y=y, _s=s,
                                                     _f=fold)
        pooled = cache.roc_curve(an.key, opts.model, y, s)
        pooled_v = pooled_t = None
        if opts.average == "vertical":
            pooled_v = cache.vertical_ci(an.key, opts.model, BAND_FPR, opts.level, "percentile", None, y, s)
        else:
            pooled_t = cache.threshold_ci(an.key, opts.model, tuple(float(t) for t in thr.thresholds), None,
                                          opts.level, "wilson", "marginal", None, y, s)
    except rocci.InputError as exc:
        with right:
            error(str(exc))
            st.page_link("app_pages/data.py", label="Check the fold column on the Data page", icon=":material/table:")
        return

    k = curves.n_folds
    band = plots_folds.spread_text(opts.spread, opts.level, k)
    with right:
        auc = curves.auc
        c = st.columns(3)
        report.metric_in(c[0], "Folds", f"{k}", help=f"Distinct values of the fold column {md_escape(p.fold_column)}.")
        report.metric_in(c[1], "Mean of the fold AUCs", f"{auc.mean():.4f}",
                    help=f"Average of the {k} folds' AUCs; their standard deviation is {auc.std(ddof=1):.4f}.")
        report.metric_in(c[2], "AUC of the pooled data", f"{pooled.auc:.4f}",
                    help="AUC of all out-of-fold scores taken together as one test set.")
        g1, g2 = st.columns(2)
        with g1:
            report.markdown(f"**Fold by fold · {md_escape(opts.model)}**")
            fig = plots_folds.folds_figure(
                curves, vertical=vert if opts.average == "vertical" else None,
                threshold=thr if opts.average == "threshold" else None,
                name=opts.model, show_folds=opts.show_folds, height=620, corner=opts.corner,
                color_index=an.colors.get(str(opts.model), 0))
            report.plotly_chart(fig, config=plotly_config(image_format=image_format(), filename="rocci_folds"),
                            key="fc_folds_chart")
        with g2:
            report.markdown(f"**All folds pooled · {md_escape(opts.model)}**")
            fig = plots_folds.pooled_figure(pooled, vertical=pooled_v, threshold=pooled_t, name=f"{opts.model} (pooled)",
                                            height=620, corner=opts.corner, color_index=an.colors.get(str(opts.model), 0))
            report.plotly_chart(fig, config=plotly_config(image_format=image_format(), filename="rocci_folds_pooled"),
                            key="fc_pooled_chart")
        if opts.average == "vertical":
            left_words = (f"the bold line is the **mean of the {k} folds' true-positive rates** at each false-positive "
                          f"rate; its band is the {md_escape(band)}")
            right_words = (f"the band is the {percent(opts.level)} **exact bootstrap** percentile interval of the "
                           "pooled curve's TPR at each FPR")
        else:
            left_words = (f"each square is the **mean (FPR, TPR) of the {k} folds** at one threshold; its bars are the "
                          f"{md_escape(band)}")
            right_words = (f"the squares are the pooled data at the same thresholds, with {percent(opts.level)} "
                           "**exact bootstrap** Wilson intervals on each axis")
        report.caption(
            f"**Two kinds of uncertainty.** Left: {left_words}. It shows how much the curve changes from one "
            "training run and test fold to the next — each fold's model was trained on different rows and tested "
            f"on different rows (with only {k} folds the band is itself rough). Right: {right_words}. It treats "
            f"all {p.n_rows_used:,} out-of-fold scores as one test set and shows how much the curve would move if "
            "the test rows were drawn again, the models held fixed; it does not include the variability of "
            "training."
        )
    fold_results(an, opts, curves, vert, thr, pooled_v, pooled_t)
    if len(an.models) > 1:
        fold_test(an, fold)


def fold_results(an, opts: FoldOptions, curves, vert, thr, pooled_v, pooled_t) -> None:
    report.subheader("Results", anchor=False)
    names = ["Per fold", "Vertical average", "Threshold average", "Pooled exact bootstrap"]
    tabs = dict(zip(names, st.tabs(names)))
    band = md_escape(plots_folds.spread_text(opts.spread, opts.level, curves.n_folds))
    with tabs["Per fold"]:
        report.caption("One row per fold: its class sizes and the area under its own ROC curve.")
        table(curves.to_frame().assign(fold=lambda d: d["fold"].map(label_text)), FOLD_HELP, key="fc_tab_folds",
              file_name="rocci_folds.csv", label="Download per-fold AUCs (CSV)")
        download_csv(lambda: curves.points_frame(), label="Download every fold's curve (CSV)",
                     file_name="rocci_fold_curves.csv", key="dl_fc_fold_points")
    with tabs["Vertical average"]:
        report.caption(f"Vertical averaging (Fawcett 2004, §8.1): at each FPR, each fold's TPR at the highest "
                   f"threshold reaching that FPR (the bottom of a vertical step, as the pooled exact bootstrap "
                   f"reads it), averaged; band: {band}.")
        table(vert.to_frame(), VERT_HELP, key="fc_tab_vert", file_name="rocci_folds_vertical.csv",
              label="Download the vertical average (CSV)")
    with tabs["Threshold average"]:
        report.caption(f"Threshold averaging (Fawcett 2004, Algorithm 4): at each threshold, each fold's (FPR, TPR) "
                   f"point, averaged; bands: {band}.")
        table(thr.to_frame(), THR_HELP, key="fc_tab_thr", file_name="rocci_folds_threshold.csv",
              label="Download the threshold average (CSV)")
    with tabs["Pooled exact bootstrap"]:
        if pooled_v is not None:
            report.caption(f"All folds pooled: {percent(opts.level)} exact bootstrap percentile intervals for the TPR at "
                       "fixed FPR levels (vertical averaging of the resamples, in closed form).")
            table(pooled_v.to_frame(), POOLED_HELP, key="fc_tab_pooled", file_name="rocci_folds_pooled.csv",
                  label="Download the pooled intervals (CSV)")
        else:
            report.caption(f"All folds pooled, at the same thresholds: {percent(opts.level)} exact bootstrap Wilson "
                       "intervals for the FPR and the TPR (each axis).")
            frame = pooled_t.to_frame()
            table(frame, {}, key="fc_tab_pooled", file_name="rocci_folds_pooled.csv",
                  label="Download the pooled intervals (CSV)")


def fold_test(an: cache.Analysis, fold: np.ndarray | None) -> None:
    report.subheader("Two models, fold by fold: paired t-test", anchor=False)
    models = an.models
    with st.container(border=True):
        c = st.columns([1, 1, 1.3, 1, 1])
        a = c[0].selectbox("Model A", models, format_func=str, key="fc_a", bind=URL)
        others = [m for m in models if m != a]
        b = c[1].selectbox("Model B", others, format_func=str, key="fc_b", bind=URL)
        measure = c[2].segmented_control(
            "Compare", list(MEASURES), format_func=MEASURES.get, default="auc", required=True, key="fc_measure",
            bind=URL, help="AUC: each fold's area under the ROC curve. Error rate: the share of the fold's rows "
            "misclassified when score ≥ threshold is called positive.")
        ta = tb = None
        if measure == "error":
            ta = c[3].number_input("Threshold of model A", value=0.5, step=0.05, format="%.4f", key="fc_ta",
                                   bind=URL, help="Rows with score ≥ threshold are predicted positive.")
            tb = c[4].number_input("Threshold of model B", value=0.5, step=0.05, format="%.4f", key="fc_tb",
                                   bind=URL, help="Rows with score ≥ threshold are predicted positive.")
    try:
        if an.from_counts:  # each model's counts per fold: no pair table needed
            cmp = cache_folds.compare_folds_counts(an.key, a, b, measure, ta, tb, 0.95, an.prepared.scan)
        else:
            y, sa = an.arrays(a)
            _, sb = an.arrays(b)
            cmp = cache_folds.compare_folds(an.key, a, b, measure, ta, tb, 0.95, y, sa, sb, fold)
    except rocci.InputError as exc:
        error(str(exc))
        return
    what = "AUC" if measure == "auc" else "error rate"
    c = st.columns([1.2, 1.6, 0.8, 1.0])
    report.metric_in(c[0], f"Mean {what} difference (A − B)", f"{cmp.mean:+.4f}",
                help=f"Average over the {len(cmp.folds)} folds of A's {what} minus B's.")
    report.metric_in(c[1], "95% interval", f"[{cmp.low:.4f}, {cmp.high:.4f}]",
                help="t-interval for the mean difference: mean ± t(0.975, folds − 1) × sd / √folds.")
    report.metric_in(c[2], "t statistic", "—" if np.isnan(cmp.statistic) else f"{cmp.statistic:.3f}",
                help=f"√folds × mean / sd of the per-fold differences, with {cmp.df} degrees of freedom.")
    report.metric_in(c[3], "p-value (two-sided)", "—" if np.isnan(cmp.pvalue) else f"{cmp.pvalue:.4f}",
                help="The probability of a t at least this far from 0 if the two models were equally good.")
    left, right = st.columns([1, 1.4], gap="medium")
    with left:
        report.caption(test_sentence(cmp, a, b))
        report.caption("The folds' training sets overlap, so the folds are not independent and this test rejects too "
                   "often (Dietterich, 1998): treat a small p-value as a hint, not a proof.")
        frame = cmp.to_frame().assign(fold=lambda d: d["fold"].map(label_text))
        table(frame, CMP_HELP, key="fc_tab_ttest", file_name="rocci_folds_ttest.csv",
              label="Download the per-fold values (CSV)")
    with right:
        report.plotly_chart(plots_folds.fold_values_figure(cmp, name_a=a, name_b=b),
                        config=plotly_config(image_format=image_format(), filename="rocci_folds_ttest"),
                        key="fc_ttest_chart")


def test_sentence(cmp, a: str, b: str) -> str:
    what = "AUC" if cmp.measure == "auc" else "error rate"
    if np.isnan(cmp.pvalue):
        return f"The two models have the same {what} in every fold: there is nothing to test."
    better = a if (cmp.mean > 0) == (cmp.measure == "auc") else b
    if cmp.pvalue < 0.05:
        return (f"Over the {len(cmp.folds)} folds, **{md_escape(better)}** has the better {what} on average "
                f"(mean difference {cmp.mean:+.4f}, 95% interval [{cmp.low:.4f}, {cmp.high:.4f}]), and the "
                f"difference is significant at the 5% level (p = {cmp.pvalue:.4f}).")
    return (f"Over the {len(cmp.folds)} folds the mean difference in {what} is {cmp.mean:+.4f} (95% interval "
            f"[{cmp.low:.4f}, {cmp.high:.4f}]): not significant at the 5% level (p = {cmp.pvalue:.4f}), so the "
            "folds do not show one model to be better.")


# --------------------------------------------------------------------------
# several classes
# --------------------------------------------------------------------------


def score_choices(df: pd.DataFrame, label) -> list:
    return [c for c in df.columns if c != label and pd.api.types.is_numeric_dtype(df[c])
            and not pd.api.types.is_bool_dtype(df[c])]


def class_controls(ds: state.Dataset, df: pd.DataFrame, candidates: list):
    with st.container(border=True):
        c = st.columns([1.2, 1.2, 1.2, 1.0])
        label = c[0].selectbox("Class column", candidates, format_func=str, key="fc_class", bind=URL,
                               help="The true class of each row: a column with more than two values.")
        level = c[1].select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="fc_clevel",
                                   bind=URL, help="Level of the AUC intervals and of the exact bootstrap bands.")
        auc_method = c[2].selectbox("AUC interval method", AUC_METHODS, format_func=method_option,
                                    key="fc_auc_method", bind=URL,
                                    help="DeLong or Hanley–McNeil standard errors, or the exact bootstrap "
                                    "variance (normal approximation in each case).")
        with c[3]:
            bands = st.toggle("Bootstrap bands", value=True, key="fc_bands", bind=URL,
                              help="Exact bootstrap bands: pointwise percentile intervals of each curve's TPR at fixed FPR levels.")
        classes = rdata.label_values(df, label)
        choices = score_choices(df, label)
        guess = match_score_columns(choices, classes)
        missing = [k for k, col in guess.items() if col is None]
        digest = hashlib.sha1(repr((ds.digest, label)).encode()).hexdigest()[:10]
        with st.expander("Score column of each class: " + ", ".join(
                f"{md_escape(label_text(k))} → {'?' if v is None else md_escape(v)}" for k, v in guess.items()),
                expanded=bool(missing)):
            report.caption("Matched by name; change any that is wrong.")
            cols = []
            grid = st.columns(min(4, max(1, len(classes))))
            for i, cls in enumerate(classes):
                options = [None] + choices
                col = grid[i % len(grid)].selectbox(
                    f"Class {md_escape(label_text(cls))}", options, index=options.index(guess.get(cls)),
                    format_func=lambda v: "— choose —" if v is None else str(v), key=f"fc_col_{digest}_{i}",
                    help="The column holding the model's score (e.g. probability) for this class.",
                )
                cols.append(col)
    opts = dict(level=level, auc_method=auc_method, bands=bands)
    if any(v is None for v in cols):
        st.warning("Choose a score column for every class (open *Score column of each class*).",
                   icon=":material/arrow_upward:")
        return None, opts
    if len(set(cols)) != len(cols):
        st.warning("Each class needs its own score column: a column is chosen twice.", icon=":material/warning:")
        return None, opts
    return (label, tuple(classes), tuple(cols)), opts


def classes_section(ds: state.Dataset, df: pd.DataFrame, candidates: list) -> None:
    chosen, opts = class_controls(ds, df, candidates)
    if chosen is None:
        return
    level, auc_method, bands = opts["level"], opts["auc_method"], opts["bands"]
    right = st.container()
    label, classes, cols = chosen
    key = cache_folds.multiclass_key(ds.digest, label, classes, cols)
    try:
        mc = cache_folds.multiclass_data(key, ds.digest, ds.name, label, classes, cols, ds.raw)
        ovr = cache_folds.one_vs_rest(key, level, auc_method, BAND_FPR, mc.y, mc.scores, classes)
        top = cache_folds.top_score_curve(key, mc.y, mc.scores, classes)
    except rocci.InputError as exc:
        error(str(exc))
        return
    top_v = None
    if bands:
        try:
            top_v = cache.vertical_ci(key + ":top", "top", BAND_FPR, level, "percentile", None, top.correct,
                                      top.top_score)
        except rocci.InputError as exc:
            with right:
                st.warning(md_escape(str(exc)), icon=":material/warning:")

    with right:
        if mc.n_dropped:
            report.caption(f"{mc.n_dropped:,} of {mc.n_rows_in:,} rows left out: missing class or score.")
        c = st.columns(3)
        report.metric_in(c[0], "Classes", f"{len(classes)}", help=f"Values of the column {md_escape(label)}.")
        report.metric_in(c[1], "Accuracy", f"{top.accuracy:.1%}",
                    help="Share of rows whose true class has the highest score (the prediction is correct).")
        report.metric_in(c[2], "AUC of correct vs top score", f"{top.auc:.4f}",
                    help="How well the top score separates correct predictions from wrong ones (0.5: not at all).")
        g1, g2 = st.columns(2)
        how = f"{percent(level)} exact bootstrap percentile bands" if bands else "no bands"
        with g1:
            report.markdown("**One class against the rest**")
            report.plotly_chart(plots_folds.one_vs_rest_figure(ovr, show_bands=bands, height=620),
                            config=plotly_config(image_format=image_format(), filename="rocci_one_vs_rest"),
                            key="fc_ovr_chart")
            report.caption(f"One ROC curve per class: that class is positive, all the others negative, scored by the "
                       f"class's own score column. Legend: AUC with its {percent(level)} "
                       f"{method_text(auc_method)} interval; shaded: {how}.")
        with g2:
            report.markdown("**Is the prediction correct? (top score)**")
            report.plotly_chart(plots_folds.top_score_figure(top, vertical=top_v, height=620),
                            config=plotly_config(image_format=image_format(), filename="rocci_top_score"),
                            key="fc_top_chart")
            report.caption(
                f"Each row is predicted as the class with the highest score; {top.n_correct:,} predictions are "
                f"correct and {top.n_wrong:,} wrong. Accepting only predictions whose top score is at least a "
                "threshold keeps the share of correct predictions shown up the side and the share of wrong ones "
                "along the bottom. A curve near the top-left corner means the top score is a good warning sign of "
                f"mistakes. Shaded: {how}."
            )
    report.subheader("Results", anchor=False)
    names = ["Per class", "Curves", "Correct vs top score"]
    tabs = dict(zip(names, st.tabs(names)))
    with tabs["Per class"]:
        report.caption(f"One row per class: its one-vs-rest AUC with its {percent(level)} "
                       f"{method_text(auc_method)} interval.")
        frame = ovr.to_frame().assign(**{"class": lambda d: d["class"].map(label_text)})
        table(frame, OVR_HELP, key="fc_tab_ovr", file_name="rocci_one_vs_rest.csv",
              label="Download per-class AUCs (CSV)")
        if ovr.vertical:
            download_csv(lambda: ovr.vertical_frame(), label="Download the per-class exact bootstrap bands (CSV)",
                         file_name="rocci_one_vs_rest_bands.csv", key="dl_fc_ovr_bands")
    with tabs["Curves"]:
        report.caption("Every class's one-vs-rest ROC curve: threshold, rates and counts.")
        frame = ovr.curve_frame()
        st.dataframe(frame, hide_index=True, height=300, key="fc_tab_ovr_curves")
        download_csv(frame, label="Download the curves (CSV)", file_name="rocci_one_vs_rest_curves.csv",
                     key="dl_fc_ovr_curves")
    with tabs["Correct vs top score"]:
        report.caption("The correct-vs-top-score curve: at each threshold on the top score, the correct (tp) and wrong "
                   "(fp) predictions accepted, and their shares.")
        frame = top.to_frame()
        st.dataframe(frame, hide_index=True, height=300, key="fc_tab_top")
        download_csv(frame, label="Download the curve (CSV)", file_name="rocci_top_score.csv", key="dl_fc_top")


# --------------------------------------------------------------------------


def large_folds() -> None:
    """The Large-data source: the folds view from the scan's per-fold counts, or what is missing for it."""
    try:
        an = cache.current_analysis()
    except rocci.InputError as exc:
        error(str(exc))
        st.page_link("app_pages/data.py", label="Check the scan on the Data page", icon=":material/table:")
        return
    p = an.prepared
    if p.fold_column is None:
        needs_data("The loaded data come from the Large-data source and were scanned without a fold column, so "
                   "they hold only the counts of the pooled rows. On the Data page, choose the “Fold / group "
                   "column” and scan again: each fold's counts are then made where the rows are. (Several "
                   "classes need the rows themselves: that view is not available for large data.)")
        return
    if p.n_folds < 2:
        needs_data(f"The fold column {p.fold_column} holds {p.n_folds} value(s) among the rows used: averaging "
                   "needs at least two folds.")
        return
    folds_section(an)


def main() -> None:
    page_header("Folds & classes", CAPTION)  # not page_frame: see ui.frame
    ds = state.get_dataset()
    if ds is None:
        needs_data(None)
        return
    if ds.kind == "large":
        large_folds()
        return
    try:
        df = cache.load_table(ds.digest, ds.name, ds.raw)
    except rocci.InputError as exc:
        error(str(exc))
        st.page_link("app_pages/data.py", label="Load another file on the Data page", icon=":material/table:")
        return

    an, reason = None, None
    try:
        an = cache.current_analysis()
    except rocci.InputError as exc:
        reason = str(exc)
    has_folds = (an is not None and an.prepared.fold is not None
                 and pd.unique(np.asarray(an.prepared.fold)).size >= 2)
    mapping = cache.current_mapping(ds)
    candidates = class_columns(df) if mapping.layout == "wide" else []
    available = [v for v, ok in (("folds", has_folds), ("classes", bool(candidates))) if ok]
    if not available:
        if an is not None and an.prepared.fold is not None:
            reason = "The fold column holds a single value: averaging needs at least two folds."
        elif an is not None:
            reason = None
        needs_data(("The current data cannot be used for folds: " + reason) if reason else None)
        return
    view = available[0]
    if len(available) > 1:
        view = st.segmented_control("Show", available, format_func=VIEWS.get, default=available[0], required=True,
                                    key="fc_view", bind=URL, help="This table has both a fold column and a class "
                                    "column with more than two values.")
    if view == "folds":
        folds_section(an)
    else:
        classes_section(ds, df, candidates)


main()
