"""Two test sets on the Compare page (issue 32): split the rows by a column of the file and compare a model
on one set with a model (the same or another) on the other. The sets share no instance, so the comparison
is **unpaired**: rocci.compare_auc_unpaired (DeLong, V_A + V_B) and rocci.compare_vertical_unpaired (the
convolution of the two exact TPR laws)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci

from . import cache, report
from .cache import compare as cache_compare
from .controls import error
from .download import download_csv
from .text import md_escape, percent, pvalue_text, signed_interval

URL = "query-params"
NONE = "— (one test set: paired)"
#: A column with more distinct values than this is not offered as a split (it is an ID or a measurement).
MAX_GROUPS = 24


@dataclass(frozen=True)
class Split:
    column: str
    set_a: str
    set_b: str
    model_a: str
    model_b: str

    def key(self) -> tuple:
        return (self.column, self.set_a, self.set_b, self.model_a, self.model_b)


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


def controls(an) -> Split | None:
    """The left column's "Two test sets" box; None when the rows are one test set (the paired page)."""
    columns = split_values(an)
    if not columns:
        return None
    with st.container(border=True):
        st.markdown("**Two test sets (unpaired)**")
        col = st.selectbox("Split the rows by", [NONE] + list(columns), key="cmp_split", bind=URL,
                           help="A column that says which test set each row belongs to (a month, a hospital, a "
                           "site). Then a model on one set is compared with a model on the other: no instance is "
                           "shared, so the comparison is unpaired.")
        if col == NONE:
            return None
        groups = sorted({v for v in columns[col] if v is not None})
        set_a = st.selectbox("Test set A", groups, index=0, key="cmp_set_a", bind=URL,
                             help=f"Rows whose {col} is this value.")
        set_b = st.selectbox("Test set B", [g for g in groups if g != set_a], index=0, key="cmp_set_b", bind=URL,
                             help=f"Rows whose {col} is this value.")
        model_a = st.selectbox("Model on set A", an.models, key="cmp_umodel_a", bind=URL)
        model_b = st.selectbox("Model on set B", an.models, key="cmp_umodel_b", bind=URL,
                               help="The same score column (one model on two test sets) or another one.")
    return Split(column=col, set_a=set_a, set_b=set_b, model_a=model_a, model_b=model_b)


def panel(an, split: Split, level: float, at_fpr: float) -> None:
    """The unpaired verdict: ΔAUC and ΔTPR at the verdict's FPR, with why the intervals are wider."""
    values = split_values(an)[split.column]
    y = np.asarray(an.prepared.is_positive, dtype=bool)
    in_a, in_b = values == split.set_a, values == split.set_b
    ya, sa = y[in_a], np.asarray(an.prepared.scores[split.model_a], float)[in_a]
    yb, sb = y[in_b], np.asarray(an.prepared.scores[split.model_b], float)[in_b]
    A = f"**{md_escape(split.model_a)}** on {md_escape(split.column)} = {md_escape(split.set_a)}"
    B = f"**{md_escape(split.model_b)}** on {md_escape(split.column)} = {md_escape(split.set_b)}"
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
    c1, c2 = st.columns(2)
    with c1.container(border=True, key="unpaired_auc"):
        st.markdown("**Overall ranking (AUC)**")
        d, lo, hi = signed_interval(auc.delta, auc.low, auc.high, 3)
        report.metric("ΔAUC, A − B (unpaired)", d, help="AUC of A on its test set − AUC of B on its test set.")
        report.caption(
            f"AUC {A}: {auc.auc_a:.3f} (sd {auc.std_a:.4f}); {B}: {auc.auc_b:.3f} (sd {auc.std_b:.4f}). "
            f"sd of the difference √({auc.std_a:.4f}² + {auc.std_b:.4f}²) = {auc.std:.4f}; {percent(level)} DeLong "
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
    names = {"delta": "delta_auc", "std": "delta_auc_std", "low": "delta_auc_low", "high": "delta_auc_high",
             "statistic": "auc_statistic", "pvalue": "auc_pvalue", "df": "auc_df", "pvalue_t": "auc_pvalue_t"}
    frame = pd.concat([auc.to_frame().rename(columns=names).drop(columns=["method", "confidence_level"]),
                       vc.to_frame()], axis=1)
    download_csv(frame.assign(confidence_level=level, column=split.column, set_a=split.set_a, set_b=split.set_b, model_a=split.model_a,
                              model_b=split.model_b),
                 label="Download the unpaired comparison (CSV)", file_name="rocci_unpaired.csv", key="dl_unpaired")
    missing = int((~in_a & ~in_b).sum())
    st.caption(f"{missing:,} rows are in neither set (another value of {md_escape(split.column)}, or none) and are "
               "not used here. Choose *one test set* in the left column for the paired page.")


def _p(p: float) -> str:
    text = pvalue_text(p)
    return text if text.startswith("<") else f"= {text}"
