"""Data page: load a table, map its columns, see what is in it.

Thin UI: reading, checking and summarising the data is done by rocci
(``load_table``, ``rocci.data``); this page only gathers the choices.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

import rocci
from rocci import data as rdata
from rocci import plots
from ui import cache, report, state
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import label_text, md_escape
from ui.controls import error

UPLOAD_TYPES = ["csv", "tsv", "tab", "txt", "parquet", "pq", "xlsx"]
NONE = "\u2014 none \u2014"
#: Columns shown in the preview (a 10,000-column file would send a million cells per rerun).
PREVIEW_COLUMNS = 50
#: Models drawn in the score histograms at most: the page's work per rerun is bounded by this.
MAX_HISTOGRAMS = 12
SUMMARY_HELP = {
    "model": "The score column (one model per column).",
    "rows": "Rows used for this model after dropping rows with missing values.",
    "positives": "Rows whose label is the positive value.",
    "negatives": "Rows with the other label value.",
    "distinct_scores": "Number of different score values. The ROC curve has one corner per distinct score.",
    "tied_scores": "Rows that share their score with at least one other row.",
    "pos_neg_ties": "Score values held by both a positive and a negative row; each makes a diagonal step in the ROC curve.",
    "min": "Smallest score.",
    "max": "Largest score.",
    "mean_positive": "Mean score of the positive rows.",
    "mean_negative": "Mean score of the negative rows.",
}


def source_section() -> state.Dataset | None:
    """Choose a bundled sample or upload a file; returns the session's dataset."""
    current = state.get_dataset()
    samples = state.sample_names()
    if "source" not in st.session_state:
        st.session_state["source"] = "upload" if (current is not None and current.kind == "upload") or not samples else "sample"
    source = st.segmented_control(
        "Where the data comes from",
        ["sample", "upload"],
        format_func={"sample": "Bundled sample", "upload": "Upload a file"}.get,
        key="source",
        required=True,
        help="Try a bundled example, or upload your own table: one row per instance, "
        "a column with the true class and one column of scores per model.",
    )
    if source == "sample" and samples:
        if st.session_state.get("sample") not in samples:
            st.session_state["sample"] = current.name if (current is not None and current.kind == "sample" and current.name in samples) else samples[0]
        name = st.selectbox(
            "Sample",
            samples,
            format_func=lambda n: f"{n} — {state.SAMPLES[n]}",
            key="sample",
            help="Small public data sets bundled with rocci (see data/README.md).",
        )
        state.set_dataset(state.sample_dataset(name))
    else:
        up = st.file_uploader(
            "Upload a table (CSV, TSV, Parquet or Excel .xlsx)",
            type=UPLOAD_TYPES,
            key="upload",
            help="One row per scored instance, with a header row. The file stays in this "
            "browser session; nothing is stored on the server.",
        )
        if up is not None:
            state.set_dataset(state.upload_dataset(up.name, up.getvalue()))
        cur = state.get_dataset()
        if cur is None:
            st.info("Upload a file to begin.")
        elif up is None and cur.kind == "upload":
            report.caption(f"Using **{md_escape(cur.name)}**, uploaded earlier in this session.")
        elif up is None:
            report.caption(f"No file uploaded yet: the sample **{md_escape(cur.name)}** stays loaded.")
    return state.get_dataset()


def _seed(key: str, value: Any, options: list, *, force: bool) -> None:
    """Put ``value`` in a widget's session-state slot if it is unset, stale or forced."""
    if force or key not in st.session_state or st.session_state[key] not in options:
        st.session_state[key] = value if value in options else (options[0] if options else None)


def _seed_multi(key: str, values: list, options: list, *, force: bool) -> None:
    if force or key not in st.session_state:
        st.session_state[key] = [v for v in values if v in options]
    else:
        st.session_state[key] = [v for v in st.session_state[key] if v in options]


def _fmt_col(c: Any) -> str:
    return NONE if c is None else str(c)


def _pct(share: float) -> str:
    pct = 100.0 * share
    return f"{pct:.0f}%" if pct >= 1 or pct == 0 else f"{pct:.2g}%"


def positive_note(suggestion: rdata.PosLabelGuess | None, pos_label: Any, counts: dict) -> str | None:
    """One line under the positive-label box: which class is positive and why (Markdown, escaped)."""
    if pos_label is None or suggestion is None:
        return None
    shown = md_escape(label_text(pos_label))
    total = sum(counts.values())
    share = f", {_pct(counts.get(pos_label, 0) / total)} of the rows" if total else ""
    if suggestion.value is not None and pos_label == suggestion.value and type(pos_label) is type(suggestion.value):
        return f"Positive = **{shown}** ({md_escape(suggestion.text)}). Change it here if needed."
    return f"Positive = **{shown}** (your choice{share})."


def mapping_section(ds: state.Dataset, df: pd.DataFrame) -> tuple[state.ColumnMapping, list]:
    """Widgets that map the table's columns; returns the chosen mapping and the label values."""
    stored = cache.current_mapping(ds)
    fresh = st.session_state.get("_mapping_for") != ds.digest
    st.session_state["_mapping_for"] = ds.digest
    cols = list(df.columns)

    _seed("layout", stored.layout, ["wide", "long"], force=fresh)
    layout = st.radio(
        "Layout",
        ["wide", "long"],
        format_func={
            "wide": "Wide — one score column per model",
            "long": "Long — a model column and a score column",
        }.get,
        key="layout",
        horizontal=True,
        help="Wide: columns label, model_a, model_b … Long: one row per (instance, model) "
        "with columns label, model, score (and optionally an instance id).",
    )

    c1, c2, c3 = st.columns(3)
    if layout == "long":
        guess = state.guess_long(df)
        _seed("model_col", stored.model or guess["model"], cols, force=fresh)
        _seed("score_col", stored.score or guess["score"], cols, force=fresh)
        _seed("id_col", stored.id if stored.layout == "long" else guess["id"], [None] + cols, force=fresh)
        model_col = c1.selectbox("Model column", cols, format_func=str, key="model_col",
                                 help="The column that names the model of each row.")
        score_col = c2.selectbox("Score column", cols, format_func=str, key="score_col",
                                 help="The column of scores (higher = more likely positive).")
        id_col = c3.selectbox("Instance id column (optional)", [None] + cols, format_func=_fmt_col, key="id_col", placeholder=NONE,
                              help="Matches the rows of the different models. Without it, the k-th row "
                              "of each model is taken to be the same instance.")
        label_options = [c for c in cols if c not in (model_col, score_col, id_col)]
    else:
        model_col = score_col = id_col = None
        label_options = cols

    c1, c2, c3 = st.columns(3)
    _seed("label", stored.label, label_options, force=fresh)
    label = c1.selectbox(
        "Label column", label_options, format_func=str, key="label",
        help="The true class of each row. It must hold exactly two values (missing values are dropped).",
    )
    suggestion = None
    counts: dict = {}
    try:
        values = rdata.label_values(df, label) if label is not None else []
        if 2 <= len(values) <= 50:
            suggestion = rdata.suggest_pos_label(df, label)
            counts = suggestion.counts
    except rocci.InputError as exc:
        error(str(exc))
        values = []
    guess_pos = suggestion.value if suggestion is not None else None
    pos_default = stored.pos_label if (not fresh and stored.label == label) else guess_pos
    if pos_default not in values:
        pos_default = stored.pos_label if stored.pos_label in values else guess_pos
    if fresh or st.session_state.get("pos") not in values:
        st.session_state["pos"] = pos_default if pos_default in values else None
    pos_label = c2.selectbox(
        "Positive label",
        values,
        format_func=label_text,
        key="pos",
        index=None,
        placeholder="Choose the positive class",
        help="Which label value is the 'positive' class (the one high scores should find).",
    ) if len(values) <= 50 else None
    if len(values) > 50:
        c2.warning(f"The label column has {len(values)} different values; choose a column with two classes.")
    note = positive_note(suggestion, pos_label, counts) if len(values) == 2 else None
    if note:
        c2.caption(note)
    one_vs_rest = 2 < len(values) <= 50
    if one_vs_rest:
        if pos_label is None:
            which = "the positive label you choose above is positive and every other class counts as negative"
        else:
            others = [md_escape(label_text(v)) for v in values if v != pos_label]
            which = (f"**{md_escape(label_text(pos_label))}** is positive and every other class ("
                     + ", ".join(others[:8]) + (", …" if len(others) > 8 else "") + ") counts as negative")
        st.info(
            f"The label column holds **{len(values)} classes**. The ROC, cost, comparison and explorer pages "
            f"analyse **one class against the rest**: {which}. Pick that class's score column below. The "
            "Folds & classes page shows every class at once.",
            icon=":material/category:",
        )

    fold_options = [None] + [c for c in cols if c not in (label, model_col, score_col)]
    _seed("fold", stored.fold, fold_options, force=fresh)
    fold = c3.selectbox(
        "Fold column (optional)", fold_options, format_func=_fmt_col, key="fold", placeholder=NONE,
        help="For cross-validation output: the fold or group each row was scored in. "
        "Shown in the summary; the curves pool all folds.",
    )

    if layout == "long":
        try:
            models = [str(v) for v in pd.unique(df[model_col].dropna())] if model_col is not None else []
        except Exception:
            models = []
        if len(models) > 50:
            error(f"The model column has {len(models)} different values. Choose the column that names the model.")
            models = []
        score_options = models
        default_scores = list(stored.scores) if stored.layout == "long" else models
    else:
        score_options = [c for c in cols if c not in (label, fold)]
        default_scores = list(stored.scores)
    _seed_multi("scores", default_scores, score_options, force=fresh)
    candidates = rdata.score_candidates(df, label=label, fold=fold) if layout == "wide" else score_options
    scores = st.multiselect(
        "Models to analyse" if layout == "long" else "Score columns (one per model)",
        score_options,
        format_func=str,
        key="scores",
        placeholder="Choose one or more",
        help="Each score column is one model; higher scores mean 'more likely positive'. "
        "The ROC page draws one curve per model.",
    )
    if len(candidates) > rdata.MAX_GUESSED_SCORES:
        what = "numeric columns" if layout == "wide" else "models"
        st.info(
            f"**{len(candidates):,} {what}** could be models; at most "
            f"{rdata.MAX_GUESSED_SCORES} are preselected"
            + (" (names that look like scores or probabilities first, then the columns with the "
               "most different values)" if layout == "wide" else "")
            + ". Add others in the box above; the score histograms show the first "
            f"{MAX_HISTOGRAMS} chosen.",
            icon=":material/view_column:",
        )
    mapping = state.ColumnMapping(
        layout=layout, label=label, pos_label=pos_label, scores=tuple(scores), fold=fold,
        model=model_col, score=score_col, id=id_col, one_vs_rest=one_vs_rest,
    )
    state.set_mapping(ds, mapping)
    return mapping, values


def negative_text(p) -> str:
    """The negative class(es), escaped, for a tooltip or caption."""
    if p.one_vs_rest:
        return "any of " + ", ".join(md_escape(label_text(v)) for v in p.negative_labels)
    return md_escape(label_text(p.neg_label))


def summary_section(an: cache.Analysis) -> None:
    p = an.prepared
    report.subheader("Summary", anchor=False)
    c = st.columns(5)
    report.metric_in(c[0], "Rows in the file", f"{p.n_rows_in:,}", help="Rows read from the table.")
    report.metric_in(c[1], "Rows used", f"{p.n_rows_used:,}", help="Rows with no missing value in the label, score or fold columns.")
    report.metric_in(c[2], "Positives", f"{p.n_pos:,}", help=f"Rows whose label is {md_escape(label_text(p.pos_label))}.")
    report.metric_in(c[3], "Negatives", f"{p.n_neg:,}", help="Rows whose label is " + negative_text(p) + ".")
    report.metric_in(c[4], "Rows dropped", f"{p.n_dropped:,}",
                help="Rows with a missing value in a used column are left out, and counted here.")
    if p.n_dropped:
        per_col = ", ".join(f"{md_escape(k)}: {v:,}" for k, v in p.dropped_by_column.items() if v)
        st.warning(f"{p.n_dropped:,} row(s) dropped because of missing values (missing per column — {per_col}).",
                   icon=":material/warning:")
    table = cache.summarize(an.key, p)
    st.dataframe(
        table,
        hide_index=True,
        column_config={
            k: st.column_config.Column(k.replace("_", " "), help=v) for k, v in SUMMARY_HELP.items()
        },
    )
    download_csv(table, label="Download summary (CSV)", file_name="rocci_summary.csv", key="dl_summary")
    if p.fold is not None:
        folds = pd.Series(p.fold).value_counts(sort=False).sort_index()
        report.caption("Rows per fold: " + ", ".join(f"{md_escape(k)}: {v}" for k, v in folds.items()))

    report.subheader("Score distributions", anchor=False)
    scale = st.segmented_control(
        "Bar height", ["share", "count"], key="hist_scale", default="share", required=True,
        format_func={"share": "Share of each class", "count": "Counts"}.get,
        help="Share of each class: each class's bars add up to 100%, so a small class stays as "
        "visible as a large one. Counts: the number of rows in each bin. Hovering a bar shows both.",
    )
    models = list(p.score_columns)
    shown = models[:MAX_HISTOGRAMS]
    report.caption("How the scores of positives and negatives are spread, per model: the less the two "
               "histograms overlap, the better the model separates the classes (the higher its AUC). "
               + ("Each class is drawn as a share of its own size, so a small class stays visible."
                  if scale != "count" else "Bars are counts of rows."))
    if len(models) > len(shown):
        st.caption(f"Histograms of the first {len(shown)} of the {len(models)} chosen models.")
    fig = plots.score_histograms(
        {m: p.scores[m] for m in shown}, p.is_positive,
        positive_name=f"positives (label {label_text(p.pos_label)})",
        negative_name=("negatives (the other classes)" if p.one_vs_rest
                       else f"negatives (label {label_text(p.neg_label)})"),
        bins=int(min(40, max(10, round(2 * p.n_rows_used ** 0.5)))),
        normalize=scale != "count",
    )
    report.plotly_chart(fig, config=plots.plotly_config(image_format=image_format(), filename="rocci_scores"),
                    key="hist")


def main() -> None:
    st.title("Data", anchor=False)
    report.caption("Load a table of classifier scores and true labels, then tell rocci which column is which.")
    ds = source_section()
    if ds is None:
        return
    try:
        df = cache.load_table(ds.digest, ds.name, ds.raw)
    except rocci.InputError as exc:
        error(str(exc))
        return
    for note in df.attrs.get("warnings", []):
        st.warning(md_escape(note), icon=":material/warning:")
    with st.expander(f"Preview: first rows of {md_escape(ds.name)} ({len(df):,} rows, {df.shape[1]:,} columns)"):
        if df.shape[1] > PREVIEW_COLUMNS:
            st.caption(f"The first {PREVIEW_COLUMNS} of {df.shape[1]:,} columns.")
        st.dataframe(df.iloc[:100, :PREVIEW_COLUMNS], hide_index=True)

    st.subheader("Columns", anchor=False)
    mapping, values = mapping_section(ds, df)
    try:
        an = cache.current_analysis()
    except rocci.InputError as exc:
        if mapping.pos_label is None and mapping.label is not None and len(values) >= 2:
            # Not a fault in the file: a choice is still to be made.
            st.warning("Choose the **Positive label** above: which label value is the positive class. "
                       + md_escape(str(exc)), icon=":material/arrow_upward:")
        else:
            error(str(exc))
        return
    if an is None:
        return
    summary_section(an)
    st.page_link("app_pages/roc.py", label="Go to the ROC curve", icon=":material/arrow_forward:")


main()
