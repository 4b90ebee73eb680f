"""Two test sets on the Compare page (issue 32): split the rows by a column of the file and compare a model
on one set with a model (the same or another) on the other. The sets share no instance, so the comparison
is **unpaired**: rocci.compare_auc_unpaired (DeLong, V_A + V_B), rocci.compare_vertical_unpaired (the
convolution of the two exact TPR laws) and rocci.compare_cost_unpaired (the difference of the two exact cost
laws at the shared operating condition)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci

from . import cache, operating, report, state
from .cache import compare as cache_compare
from .controls import error
from .download import download_csv
from .text import md_escape, percent, pvalue_text, signed_interval

URL = "query-params"
NONE = "— (one test set: paired)"
#: A column with more distinct values than this is not offered as a split (it is an ID or a measurement).
MAX_GROUPS = 24


SPLIT = "split"
SECOND = "second"
MODES = {"one": "One test set (paired)", SPLIT: "Split the rows by a column", SECOND: "A second file"}


@dataclass(frozen=True)
class Split:
    """Two test sets: the rows of the loaded file whose ``column`` is ``set_a`` and ``set_b``; or, with a
    second file (``column`` None), all the loaded rows (set A) and the second file's rows (set B)."""

    column: str | None
    set_a: str
    set_b: str
    model_a: str
    model_b: str
    second: object = None  # the second file: (name, digest, raw bytes)

    def key(self) -> tuple:
        second = None if self.second is None else self.second[1]
        return (self.column, self.set_a, self.set_b, self.model_a, self.model_b, second)


def split_values(an) -> dict:
    """{column: the used rows' values as text (None where missing)} for the file's columns that could split
    the rows into test sets: not the label or a score, between 2 and :data:`MAX_GROUPS` distinct values."""
    if an.from_counts:
        return {}
    table = cache.load_table(an.dataset.digest, an.dataset.name, an.dataset.raw)
    used = {an.prepared.label, *an.prepared.score_columns}
    rows = np.asarray(an.prepared.row_index)
    out = {}
    for col in table.columns:
        if col in used:
            continue
        values = table[col].iloc[rows]
        distinct = values.dropna().unique()
        if 2 <= distinct.size <= MAX_GROUPS:
            out[str(col)] = np.array([None if pd.isna(v) else str(v) for v in values.tolist()], dtype=object)
    return out


LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]


def controls(an) -> tuple[str, Split | None]:
    """The left column's "Test sets" box, first on the page: ``("one", None)`` for one test set (the paired
    page), else the mode and the two sets (None while the second file is not uploaded)."""
    if an.from_counts:
        return "one", None
    columns = split_values(an)
    with st.container(border=True):
        st.markdown("**Test sets**")
        options = [k for k in MODES if k != SPLIT or columns]
        mode = st.segmented_control(
            "Compare", options, format_func=MODES.get, default="one", required=True, key="cmp_sets", bind=URL,
            help="One test set: both models scored the same instances (paired, the sharper comparison). Split "
            "the rows by a column (a month, a hospital) or add a second file (say last quarter's): a model on "
            "one set against a model on the other, which share no instance (unpaired).")
        if mode == SPLIT:
            return mode, _split_controls(an, columns)
        if mode == SECOND:
            return mode, _second_file_controls(an)
    return "one", None


def interval_controls() -> tuple[float, float]:
    """The unpaired verdict's two choices (the paired page's keys: they carry over when switching back)."""
    with st.container(border=True):
        st.markdown("**Intervals**")
        level = st.select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="cmp_level",
                                 bind=URL, help="Coverage of every interval of the verdict.")
        at_fpr = st.number_input(
            "False-positive rate for the verdict", min_value=0.001, max_value=0.999, value=0.10, step=0.01,
            format="%.3f", key="cmp_at_fpr", bind=URL,
            help="Each model's share of positives found when allowed this share of false alarms on its own "
            "test set (moved to each set's nearest attainable value).")
    return float(level), float(at_fpr)


def _split_controls(an, columns: dict) -> Split:
    col = st.selectbox("Split the rows by", list(columns), key="cmp_split", bind=URL,
                       help="A column that says which test set each row belongs to; columns with 2 to "
                       f"{MAX_GROUPS} distinct values (not the label or a score) are offered.")
    groups = sorted({v for v in columns[col] if v is not None})
    set_a = st.selectbox("Test set A", groups, index=0, key="cmp_set_a", bind=URL,
                         help=f"Rows whose {col} is this value.")
    set_b = st.selectbox("Test set B", [g for g in groups if g != set_a], index=0, key="cmp_set_b", bind=URL,
                         help=f"Rows whose {col} is this value.")
    model_a = st.selectbox("Model on set A", an.models, key="cmp_umodel_a", bind=URL)
    model_b = st.selectbox("Model on set B", an.models, key="cmp_umodel_b", bind=URL,
                           help="The same score column (one model on two test sets) or another one.")
    return Split(column=col, set_a=set_a, set_b=set_b, model_a=model_a, model_b=model_b)


def _second_file_controls(an) -> Split | None:
    upload = st.file_uploader(
        "Second file (test set B)", type=["csv", "tsv", "txt", "parquet", "xlsx"], key="cmp_second_file",
        help=f"Read like the first: the label column **{an.prepared.label}** with positive = "
        f"**{an.prepared.pos_label}**, and the score column you choose below.")
    if upload is None:
        st.caption("Upload the second test set (the same label column) to compare.")
        return None
    raw = upload.getvalue()
    second = (upload.name, state.digest_bytes(raw), raw)
    model_a = st.selectbox("Model on this file (A)", an.models, key="cmp_umodel_a", bind=URL)
    try:
        table = cache.load_table(second[1], second[0], raw)
    except rocci.InputError as exc:
        error(str(exc))
        return None
    label = an.prepared.label
    candidates = [str(c) for c in table.columns if c != label and pd.api.types.is_numeric_dtype(table[c])]
    if not candidates:
        error(f"The second file {upload.name} has no numeric column to use as a score.")
        return None
    default = candidates.index(model_a) if model_a in candidates else 0
    model_b = st.selectbox("Model on the second file (B)", candidates, index=default, key="cmp_umodel_b2",
                           help="A score column of the second file (the same model or another one).")
    return Split(column=None, set_a=an.dataset.name, set_b=upload.name, model_a=model_a, model_b=model_b,
                 second=second)


def _second_arrays(an, split: Split):
    """Set B from the second file, read with the first file's label column and positive class."""
    from rocci import data as rdata

    name, digest, raw = split.second
    table = cache.load_table(digest, name, raw)
    if an.prepared.label not in table.columns:
        raise rocci.InputError(f"The second file {name} has no column {an.prepared.label!r}, the label column of "
                               f"{an.dataset.name}. Use the same column names in both files.")
    prep = rdata.prepare_binary(table, label=an.prepared.label, scores=[split.model_b], pos_label=an.prepared.pos_label)
    return np.asarray(prep.is_positive, bool), np.asarray(prep.scores[split.model_b], float), prep.n_dropped


def panel(an, split: Split, level: float, at_fpr: float, cond=None) -> None:
    """The unpaired verdict: ΔAUC, ΔTPR at the verdict's FPR and Δcost at the operating condition ``cond``
    (a :class:`ui.operating.OperatingCondition`, None when its box is invalid), with why they are wider."""
    y = np.asarray(an.prepared.is_positive, dtype=bool)
    if split.second is None:
        values = split_values(an)[split.column]
        in_a, in_b = values == split.set_a, values == split.set_b
        ya, sa = y[in_a], np.asarray(an.prepared.scores[split.model_a], float)[in_a]
        yb, sb = y[in_b], np.asarray(an.prepared.scores[split.model_b], float)[in_b]
        A = f"**{md_escape(split.model_a)}** on {md_escape(split.column)} = {md_escape(split.set_a)}"
        B = f"**{md_escape(split.model_b)}** on {md_escape(split.column)} = {md_escape(split.set_b)}"
        n_out = int((~in_a & ~in_b).sum())
        left_out = (f"{n_out:,} rows are in neither set (another value of {md_escape(split.column)}, or none) "
                    "and are not used here." if n_out else "Every row is in set A or set B.")
    else:
        try:
            yb, sb, dropped = _second_arrays(an, split)
        except rocci.InputError as exc:
            error(str(exc))
            return
        ya, sa = y, np.asarray(an.prepared.scores[split.model_a], float)
        in_a, in_b = np.ones(ya.size, bool), np.ones(yb.size, bool)
        A = f"**{md_escape(split.model_a)}** on {md_escape(split.set_a)}"
        B = f"**{md_escape(split.model_b)}** on {md_escape(split.set_b)}"
        left_out = (f"{dropped:,} rows of {md_escape(split.set_b)} had a missing label or score and are not used "
                    "here." if dropped else f"Every row of {md_escape(split.set_b)} is used.")
    st.subheader(f"Is {md_escape(split.model_a)} on {md_escape(split.set_a)} better than {md_escape(split.model_b)} "
                 f"on {md_escape(split.set_b)}?", anchor=False)
    report.markdown(
        f"**Unpaired comparison**: test set A has {int(in_a.sum()):,} rows ({int(ya.sum()):,} positive), test set "
        f"B {int(in_b.sum()):,} ({int(yb.sum()):,} positive), and no row is in both. So nothing cancels: the "
        "uncertainty of the difference is the two sets' uncertainties added, and its interval is wider than a "
        "paired comparison of two models on one test set would be.")
    try:
        auc = cache_compare.compare_auc_unpaired(an.key, split.key(), level, ya, sa, yb, sb)
        vc = cache_compare.compare_vertical_unpaired(an.key, split.key(), float(at_fpr), level, ya, sa, yb, sb)
    except rocci.InputError as exc:
        error(str(exc))
        return
    c1, c2, c3 = st.columns(3)
    with c1.container(border=True, key="unpaired_auc"):
        st.markdown("**Overall ranking (AUC)**")
        d, lo, hi = signed_interval(auc.delta_auc, auc.delta_auc_low, auc.delta_auc_high, 3)
        report.metric("ΔAUC, A − B (unpaired)", d, help="AUC of A on its test set − AUC of B on its test set.")
        report.caption(
            f"AUC {A}: {auc.auc_a:.3f} (sd {auc.auc_std_a:.4f}); {B}: {auc.auc_b:.3f} (sd {auc.auc_std_b:.4f}). "
            f"sd of the difference √({auc.auc_std_a:.4f}² + {auc.auc_std_b:.4f}²) = {auc.delta_auc_std:.4f}; "
            f"{percent(level)} DeLong "
            f"interval [{lo}, {hi}], p {_p(auc.pvalue)} (pROC's t version: p {_p(auc.pvalue_t)}, "
            f"{auc.df:.1f} df).")
    with c2.container(border=True, key="unpaired_tpr"):
        st.markdown(f"**Positives found at {percent(at_fpr)} false alarms**")
        d, lo, hi = signed_interval(vc.delta_tpr[0], vc.delta_tpr_low[0], vc.delta_tpr_high[0], 1, scale=100.0)
        report.metric("ΔTPR, A − B (unpaired)", f"{d} pts", help="TPR of A − TPR of B, each at its own set's FPR "
                      "level nearest the one asked for.")
        report.caption(
            f"At FPR {vc.fpr_a[0]:.4f} on set A and {vc.fpr_b[0]:.4f} on set B: TPR {vc.tpr_a[0]:.4f} and "
            f"{vc.tpr_b[0]:.4f}; {percent(level)} interval of the exact law of the difference (the convolution of "
            f"the two sets' exact bootstrap laws) [{lo}, {hi}] points; A finds more positives in "
            f"**{100 * vc.p_a_better[0]:.1f}%** of bootstrap worlds, they tie in {100 * vc.p_tie[0]:.1f}%.")
    with c3.container(border=True, key="unpaired_cost"):
        st.markdown("**Cost at your operating condition**")
        cost = _cost_card(an, split, level, cond, (ya, sa, yb, sb), A, B)
    names = {"statistic": "auc_statistic", "pvalue": "auc_pvalue", "df": "auc_df", "pvalue_t": "auc_pvalue_t"}
    parts = [auc.to_frame().rename(columns=names).drop(columns=["method", "confidence_level"]), vc.to_frame()]
    if cost is not None:
        parts.append(cost.to_frame()[["w", "threshold_a", "threshold_b", "cost_a", "cost_b", "delta_cost",
                                      "delta_cost_std", "delta_cost_low", "delta_cost_high", "p_a_cheaper"]])
    frame = pd.concat(parts, axis=1)
    download_csv(frame.assign(confidence_level=level, column=split.column or "", set_a=split.set_a, set_b=split.set_b, model_a=split.model_a,
                              model_b=split.model_b),
                 label="Download the unpaired comparison (CSV)", file_name="rocci_unpaired.csv", key="dl_unpaired")
    report.caption(left_out + " Choose *One test set* in the left column for the paired page.")


def _cost_card(an, split: Split, level: float, cond, arrays, A: str, B: str):
    """ΔCost, A − B, each model at its cheapest threshold on its own set (rocci.compare_cost_unpaired); the
    result, or None when the operating condition is invalid or the comparison refused."""
    if cond is None:
        st.info("Set a valid operating condition on the left.")
        return None
    try:
        cc = cache_compare.compare_cost_unpaired(an.key, split.key(), float(cond.w), level, *arrays)
    except rocci.InputError as exc:
        error(str(exc))
        return None
    d, lo, hi = float(cc.delta_cost[0]), float(cc.delta_cost_low[0]), float(cc.delta_cost_high[0])
    k = cond.scale
    d_txt, lo_txt, hi_txt = signed_interval(d, lo, hi, 4)
    report.metric(f"ΔCost{' per 1,000' if k else ''}, A − B (unpaired)",
                  operating.signed_money(1000 * k * d) if k else d_txt,
                  help="Expected cost of A on its test set − expected cost of B on its own, each at its own "
                  "lowest-cost threshold there (below 0: A is cheaper)." + (
                      " In your cost units per 1,000 instances." if k else " Normalised cost (w set directly)."))
    units = ""
    if k:
        per = [operating.signed_money(1000 * k * x) for x in (d, lo, hi)]
        units = f" = {per[0]} per 1,000 instances [{per[1]}, {per[2]}]"
    report.caption(
        f"{md_escape(cond.describe()).capitalize()}. Normalised cost of {A}: {float(cc.cost_a[0]):.4f} (threshold "
        f"{float(cc.threshold_a[0]):.4g}); of {B}: {float(cc.cost_b[0]):.4f} (threshold "
        f"{float(cc.threshold_b[0]):.4g}). ΔC {d_txt}, {percent(level)} interval [{lo_txt}, {hi_txt}]{units} "
        f"(Agresti–Caffo, the two sets' variances added); A is cheaper in **{100 * float(cc.p_a_cheaper[0]):.1f}%** "
        "of bootstrap worlds (the exact law of the difference of the two sets' cost laws).")
    return cc


def _p(p: float) -> str:
    text = pvalue_text(p)
    return text if text.startswith("<") else f"= {text}"
