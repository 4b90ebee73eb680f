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
from ui.cache import large
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import label_text, md_escape
from ui.controls import error
from ui.frame import page_header
from ui.labels import column_config

UPLOAD_TYPES = ["csv", "tsv", "tab", "txt", "parquet", "pq", "xlsx"]
NONE = "\u2014 none \u2014"
#: Columns shown in the preview (a 10,000-column file would send a million cells per rerun).
PREVIEW_COLUMNS = 50
#: Models drawn in the score histograms at most: the page's work per rerun is bounded by this.
MAX_HISTOGRAMS = 12
#: The summary table's columns in this page's context (labels and formats: ui.labels).
SUMMARY_HELP = {
    "model": "The score column (one model per column).",
    "min": "Smallest score.",
    "max": "Largest score.",
}


CAPTION = "Load a table of classifier scores and true labels, then tell rocci which column is which."
SOURCES = {"sample": "Bundled sample", "upload": "Upload a file", "large": "Large data (server)"}


def histogram_choices(score_columns) -> tuple[str, list, list]:
    """The "Score distributions" heading and bar-height control: ``(scale, models, models shown)``."""
    report.subheader("Score distributions", anchor=False)
    scale = st.segmented_control(
        "Bar height", ["share", "count"], key="hist_scale", default="share", required=True,
        format_func={"share": "Share of each class", "count": "Counts"}.get,
        help="Share of each class: each class's bars add up to 100%, so a small class stays as "
        "visible as a large one. Counts: the number of rows in each bin. Hovering a bar shows both.",
    )
    models = list(score_columns)
    return scale, models, models[:MAX_HISTOGRAMS]


def source_section() -> state.Dataset | None:
    """Choose a bundled sample, upload a file, or (when the server has a data directory) large data;
    returns the session's dataset."""
    current = state.get_dataset()
    samples = state.sample_names()
    options = ["sample", "upload"] + (["large"] if large.data_dir() is not None else [])
    # The widgets follow the session's dataset when another page (Folds' sample buttons) changed it.
    shown = state.value(state.DATA_SHOWN)
    elsewhere = current is not None and shown is not None and shown != (current.digest, current.name)
    kind = current.kind if current is not None else None
    _shown(current)
    state.seed("source", kind if kind in ("upload", "large") and kind in options
               else "upload" if not samples else "sample", options, force=elsewhere)
    source = st.segmented_control(
        "Where the data comes from",
        options,
        format_func=SOURCES.get,
        key="source",
        required=True,
        help="Try a bundled example, or upload your own table: one row per instance, "
        "a column with the true class and one column of scores per model."
        + (" Large data (server): Parquet, CSV or DuckDB files in the server's data directory, or a SQL "
           "query, reduced to counts where they are (for files too large to upload)." if "large" in options else
           " Files too large to upload can be read from a directory on the server once its administrator "
           f"sets {large.ENV} (see the README)."),
    )
    if source == "large":
        return current
    if source == "sample" and samples:
        state.seed("sample", current.name if current is not None and current.kind == "sample" else samples[0],
                   samples, force=elsewhere and kind == "sample")
        name = st.selectbox(
            "Sample",
            samples,
            format_func=lambda n: f"{n} — {state.SAMPLES[n]}",
            key="sample",
            help="Small public data sets bundled with rocci (see data/README.md).",
        )
        _load(state.sample_dataset(name))
    else:
        up = st.file_uploader(
            "Upload a table (CSV, TSV, Parquet or Excel .xlsx)",
            type=UPLOAD_TYPES,
            key="upload",
            help="One row per scored instance, with a header row. The file stays in this "
            "browser session; nothing is stored on the server.",
        )
        if up is not None:
            _load(state.upload_dataset(up.name, up.getvalue()))
        cur = state.get_dataset()
        if cur is None:
            st.info("Upload a file to begin.")
        elif up is None and cur.kind == "upload":
            report.caption(f"Using **{md_escape(cur.name)}**, uploaded earlier in this session.")
        elif up is None and cur.kind == "large":
            report.caption(f"No file uploaded yet: the large data **{md_escape(cur.name)}** stays loaded.")
        elif up is None:
            report.caption(f"No file uploaded yet: the sample **{md_escape(cur.name)}** stays loaded.")
    return state.get_dataset()


def _shown(ds: state.Dataset | None) -> None:
    """Note the dataset this page's source widgets show, so that a change made on another page is seen."""
    if ds is not None:
        state.put(state.DATA_SHOWN, (ds.digest, ds.name))


def _load(ds: state.Dataset) -> None:
    """Make ``ds`` the session's dataset, from this page's widgets."""
    state.set_dataset(ds)
    _shown(ds)


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
    fresh = state.swap(state.MAPPING_FOR, ds.digest) != ds.digest
    cols = list(df.columns)

    state.seed("layout", stored.layout, ["wide", "long"], force=fresh)
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
        state.seed("model_col", stored.model or guess["model"], cols, force=fresh)
        state.seed("score_col", stored.score or guess["score"], cols, force=fresh)
        state.seed("id_col", stored.id if stored.layout == "long" else guess["id"], [None] + cols, force=fresh)
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
    state.seed("label", stored.label, label_options, force=fresh)
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
    state.seed("pos", pos_default if pos_default in values else None, force=fresh or state.value("pos") not in values)
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
    state.seed("fold", stored.fold, fold_options, force=fresh)
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
    state.seed_list("scores", default_scores, score_options, force=fresh)
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
    st.dataframe(table, hide_index=True, column_config=column_config(table, help=SUMMARY_HELP))
    download_csv(table, label="Download summary (CSV)", file_name="rocci_summary.csv", key="dl_summary")
    if p.fold is not None:
        folds = pd.Series(p.fold).value_counts(sort=False).sort_index()
        report.caption("Rows per fold: " + ", ".join(f"{md_escape(k)}: {v}" for k, v in folds.items()))

    scale, models, shown = histogram_choices(p.score_columns)
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


LARGE_HOW = {"file": "A file or glob", "query": "A SQL query"}
DIGIT_LABELS = {0: "No: exact scores"} | {d: f"To {d} significant digits" for d in large.DIGITS if d}


def _seed_large(ds: state.Dataset | None, files: list) -> None:
    """Put the current scan's choices back in the Large-data widgets (Streamlit forgets a widget's value
    while another page is shown)."""
    if state.has("lg_how") or ds is None or ds.kind != "large":
        return
    spec = ds.spec
    state.seed("lg_how", "query" if spec.path is None else "file", force=True)
    if spec.path is not None:
        state.seed("lg_file" if spec.path in files else "lg_glob", spec.path, force=True)
    if spec.table is not None:
        state.seed("lg_table", spec.table, force=True)
    if spec.query is not None:
        state.seed("lg_query", spec.query, force=True)
    for key, chosen in (("lg_label", spec.label), ("lg_pos", spec.pos_label), ("lg_scores", list(spec.scores)),
                        ("lg_digits", spec.digits or 0), ("lg_pairs", spec.pairs), ("lg_group", spec.group)):
        state.seed(key, chosen, force=True)
    state.put(state.LARGE_RESTORED, (spec.path, spec.table, spec.query))  # these choices are this source's


#: The Large-data widgets whose choices depend on the source's columns (guessed again for another source).
LARGE_COLUMN_KEYS = ("lg_label", "lg_pos", "lg_scores", "lg_group")


def _forget_other_sources_choices(chosen: tuple, cols: list) -> None:
    """Clear the column choices when the source is not the one they were made for, so that they are guessed
    from its own columns (kept across reruns on the same source).

    A source is its file and table (its columns too: a file rewritten with other columns is another source)
    or, for a query, its columns (editing a query's WHERE keeps the choices).  Choices just put back by
    :func:`_seed_large` belong to the scanned source: they are kept when that source is shown."""
    path, table, _ = chosen
    source = (path, table, tuple(cols))
    restored = state.take(state.LARGE_RESTORED)
    before = state.swap(state.LARGE_COLUMNS_FOR, source)
    if restored == chosen or before is None or before == source:
        return
    state.forget(*LARGE_COLUMN_KEYS)


def large_source(root) -> tuple[str | None, str | None, str | None] | None:
    """The file (or glob) and table, or the query, chosen under ``root``; None until one is chosen."""
    files, cut = large.list_files(str(root))
    _seed_large(state.get_dataset(), files)
    state.seed("lg_how", "file", list(LARGE_HOW))
    how = st.segmented_control(
        "Read", list(LARGE_HOW), format_func=LARGE_HOW.get, required=True, key="lg_how",
        help="A Parquet, CSV/TSV or DuckDB file of the data directory (or a glob such as scores/*.parquet), or "
        "a DuckDB SQL query over its files.",
    )
    path = table = query = None
    if how == "file":
        c1, c2 = st.columns([3, 2])
        state.seed("lg_file", files[0] if files else None, files)
        pick = c1.selectbox(
            "File in the data directory", files, key="lg_file",
            placeholder="No Parquet, CSV or DuckDB file found" if not files else "Choose a file",
            help="Parquet (.parquet), CSV/TSV (.csv, .tsv, .csv.gz) and DuckDB (.duckdb, .db) files under the "
            "data directory" + (f"; the first {large.MAX_LISTED:,} are listed, type others on the right." if cut
                                else "."),
        )
        typed = c2.text_input(
            "Or a path or glob", key="lg_glob", placeholder="e.g. scores/2026-*.parquet",
            help="Relative to the data directory; * and ? match any characters, ** any folders. Used instead of "
            "the file on the left when filled. Nothing outside the data directory can be read.",
        )
        text = (typed or "").strip() or pick
        if not text:
            st.info(f"Put Parquet, CSV or DuckDB files in the data directory ({md_escape(str(root))}), or write a "
                    "SQL query.", icon=":material/folder_open:")
            return None
        path = large.source_path(root, text)
        if path.lower().endswith(large.DATABASES):
            stamp = large.fingerprint(str(root), path)
            with st.spinner("Listing the database's tables…"):
                tables = large.inspect(str(root), path, None, None, stamp).tables
            if not tables:
                raise rocci.InputError(f"The database {path} has no table.")
            state.seed("lg_table", tables[0], tables)
            table = st.selectbox("Table", tables, key="lg_table", format_func=str,
                                 help="The table (or view) of the DuckDB database to read.")
    else:
        query = st.text_area(
            "SQL query (DuckDB)", key="lg_query", height=120,
            placeholder=f"SELECT * FROM read_parquet('{root}/scores/*.parquet') WHERE day >= '2026-11-01'",
            help="One SELECT statement, run by DuckDB on the server. Files are named by their full path, under "
            f"the data directory ({root}); nothing outside it can be read, and nothing can be written. "
            "Useful to filter rows, recode a label (CASE WHEN …) or join files.",
        )
        if not (query or "").strip():
            st.info("Write a query that returns one row per instance: a label column and one score column per "
                    "model.", icon=":material/edit_note:")
            return None
    return path, table, query


def large_section(current: state.Dataset | None) -> None:
    """The Large-data source: choose a file or a query, its columns, the rounding and the pairs; scan
    (with progress) and show what was read."""
    root = large.data_dir()
    if root is None or not root.is_dir():
        error(f"The data directory set by {large.ENV} ({root}) is not a directory on the server: ask its "
              "administrator to fix the setting.")
        return
    report.caption(
        f"Files in the server's data directory **{md_escape(str(root))}** are read where they are by DuckDB, "
        "one pass per model: only the table of distinct scores with their numbers of positives and negatives "
        "reaches the dashboard, and every page works from it. For files too large to upload.")
    try:
        chosen = large_source(root)
    except rocci.InputError as exc:
        error(str(exc))
        return
    if chosen is None:
        return
    path, table, query = chosen
    stamp = large.fingerprint(str(root), path)
    try:
        with st.spinner("Reading the columns…"):
            info = large.inspect(str(root), path, table, query, stamp)
    except rocci.InputError as exc:
        error(str(exc))
        return
    cols = list(info.columns)
    _forget_other_sources_choices((path, table, query), cols)
    with st.expander(f"Preview: first rows ({len(cols):,} columns)"):
        if len(cols) > PREVIEW_COLUMNS:
            st.caption(f"The first {PREVIEW_COLUMNS} of {len(cols):,} columns.")
        st.dataframe(info.preview.iloc[:100, :PREVIEW_COLUMNS], hide_index=True)
        st.caption("Column types: " + ", ".join(f"{md_escape(c)} ({md_escape(t)})" for c, t in
                                                list(info.columns.items())[:PREVIEW_COLUMNS]))
    if not cols:
        st.info("This source has no column.")
        return

    st.subheader("Columns", anchor=False)
    guess = rdata.guess_columns(info.preview) if len(info.preview) else {}
    c1, c2 = st.columns(2)
    state.seed("lg_label", guess.get("label"), cols, force=False)
    label = c1.selectbox("Label column", cols, format_func=str, key="lg_label",
                         help="The true class of each row: two values (rows missing it are dropped and counted).")
    try:
        with st.spinner("Counting the label values (one pass over the label column)…", show_time=True):
            counts = large.label_counts(str(root), path, table, query, label, stamp)
    except rocci.InputError as exc:
        error(str(exc))
        return
    if len(counts) > 50:
        error(f"The label column {label} has more than 50 different values; choose a column with two classes.")
        return
    if len(counts) < 2:
        only = ", ".join(label_text(v) for v in counts) or "none"
        error(f"The label column {label} holds a single value ({only}): ROC analysis needs two classes, "
              "positives and negatives. Choose another label column.")
        return
    values = list(counts)
    suggestion = rdata.suggest_pos_label_from_counts(counts)
    state.seed("lg_pos", suggestion.value if suggestion.value in values else None,
               force=state.value("lg_pos") not in values)
    pos_label = c2.selectbox("Positive label", values, format_func=label_text, key="lg_pos", index=None,
                             placeholder="Choose the positive class",
                             help="Which label value is the 'positive' class (the one high scores should find).")
    note = positive_note(suggestion, pos_label, counts) if len(values) == 2 else None
    if note:
        c2.caption(note)
    if len(values) > 2:
        st.warning(f"The label column holds {len(values)} classes; the Large-data source needs two. Recode it in "
                   "a SQL query (e.g. CASE WHEN label = 'x' THEN 1 ELSE 0 END AS y).", icon=":material/category:")

    numeric = [c for c in info.numeric() if c != label]
    others = [c for c in cols if c != label]
    state.seed_list("lg_scores", [c for c in guess.get("scores", []) if c in numeric][:rdata.MAX_GUESSED_SCORES],
                    others)
    c1, c2 = st.columns([2, 1])
    scores = c1.multiselect("Score columns (one per model)", others, format_func=str, key="lg_scores",
                            placeholder="Choose one or more",
                            help="Each score column is one model; higher scores mean 'more likely positive'.")
    group_options = [None] + [c for c in others if c not in scores]
    state.seed("lg_group", None, force=state.value("lg_group") not in group_options)
    group = c2.selectbox(
        "Fold / group column (optional)", group_options, format_func=_fmt_col, key="lg_group",
        help="For cross-validation output: the fold (or run) each row was scored in. Each fold's counts are "
        f"then made too (at most {large.MAX_GROUPS} folds), for the Folds & classes page; the other pages pool "
        "all folds. Rows missing the fold are dropped and counted.")
    c1, c2 = st.columns(2)
    state.seed("lg_digits", 0, force=state.value("lg_digits") not in large.DIGITS)
    digits = c1.selectbox(
        "Round the scores", list(large.DIGITS), format_func=DIGIT_LABELS.get, key="lg_digits",
        help="Scores with as many distinct values as rows do not reduce. Rounding inside the reduction makes "
        "the tables small; the summary then states the largest change of the AUC and of any rate that the "
        "rounding can have caused.")
    state.seed("lg_pairs", True, force=not isinstance(state.value("lg_pairs"), bool))
    pairs = c2.toggle(
        "Reduce pairs (compare models)", key="lg_pairs", disabled=len(scores) < 2,
        help="Also count the distinct pairs of two models' scores by class, for the Compare models page and the "
        "cost difference. With unrounded continuous scores a pair table has nearly one row per instance.")
    if not scores:
        st.info("Choose at least one score column.", icon=":material/view_column:")
        return
    bad = [c for c in scores if c not in numeric]
    if bad:
        error(f"Score column {bad[0]} holds {info.columns[bad[0]]} values, not numbers: scores must be numeric. "
              f"Choose another column, or cast it in a SQL query (CAST({bad[0]} AS DOUBLE)) if it holds numbers "
              "as text.")
        return
    if group is not None:
        try:
            with st.spinner(f"Counting the values of {md_escape(group)} (one pass over that column)…", show_time=True):
                folds = large.group_counts(str(root), path, table, query, group, stamp)
        except rocci.InputError as exc:
            error(str(exc))
            return
        if len(folds) > large.MAX_GROUPS:
            error(large.too_many_groups(group))
            return
        if len(folds) < 2:
            only = ", ".join(label_text(v) for v in folds) or "none"
            st.warning(f"The fold / group column **{md_escape(group)}** holds a single value ({md_escape(only)}): "
                       "averaging across folds needs at least two. Choose the column of folds, or none.",
                       icon=":material/stacks:")
    if pos_label is None:
        st.warning("Choose the **Positive label** above: which label value is the positive class.",
                   icon=":material/arrow_upward:")
        return
    spec = large.LargeSpec(root=str(root), path=path, table=table, query=query, label=label, pos_label=pos_label,
                           scores=tuple(scores), digits=int(digits) or None, pairs=bool(pairs and len(scores) > 1),
                           group=group)
    key = large.digest(spec, stamp)
    if large.stored(key) is None:
        waiting = current is not None and current.digest != key
        slot = st.empty()
        clicked = slot.button("Scan", type="primary", key="lg_scan", icon=":material/play_arrow:",
                              help="Reduce the rows to counts: one pass for the row counts and missing values, one "
                              "for the label values, one per model and one per pair.")
        if not clicked:
            if waiting:
                report.caption(f"Until you scan, the pages use **{md_escape(current.name)}**.")
            return
        slot.empty()
        try:
            large.run_scan(spec, key)
        except rocci.InputError as exc:
            error(str(exc))
            return
    _load(large.dataset(spec, stamp))
    try:
        an = cache.current_analysis()
    except rocci.InputError as exc:
        error(str(exc))
        return
    counts_summary_section(an)
    st.page_link("app_pages/roc.py", label="Go to the ROC curve", icon=":material/arrow_forward:")


def counts_summary_section(an: cache.Analysis) -> None:
    """What a scan read: rows, dropped rows, classes, each model's table, the rounding's effect, the pairs,
    and the score distributions drawn from the counts."""
    p = an.prepared
    report.subheader("Summary", anchor=False)
    report.caption(f"Scanned **{md_escape(an.dataset.name)}**: positive = **{md_escape(label_text(p.pos_label))}**"
                   f" in column **{md_escape(p.label)}**. Only these counts are in the dashboard; the rows stay "
                   "on the server's disk.")
    c = st.columns(5)
    report.metric_in(c[0], "Rows read", f"{p.n_rows_in:,}", help="Rows in the file(s) or returned by the query.")
    report.metric_in(c[1], "Rows used", f"{p.n_rows_used:,}",
                     help="Rows with no missing value in the label or any score column"
                     + (f" or the fold column {md_escape(p.fold_column)}." if p.fold_column is not None else "."))
    report.metric_in(c[2], "Positives", f"{p.n_pos:,}", help=f"Rows whose label is {md_escape(label_text(p.pos_label))}.")
    report.metric_in(c[3], "Negatives", f"{p.n_neg:,}",
                     help="Rows whose label is " + ", ".join(md_escape(label_text(v)) for v in p.negative_labels) + ".")
    report.metric_in(c[4], "Rows dropped", f"{p.n_dropped:,}",
                     help="Rows with a missing value in a used column are left out, and counted here.")
    if p.n_dropped:
        per_col = ", ".join(f"{md_escape(k)}: {v:,}" for k, v in p.dropped_by_column.items() if v)
        st.warning(f"{p.n_dropped:,} row(s) dropped because of missing values (missing per column — {per_col}).",
                   icon=":material/warning:")
    table = rdata.summarize_counts(p.counts)
    st.dataframe(table, hide_index=True, column_config=column_config(table, help=SUMMARY_HELP), key="lg_summary")
    download_csv(table, label="Download summary (CSV)", file_name="rocci_summary.csv", key="dl_lg_summary")
    if p.rounding:
        first = next(iter(p.rounding.values()))
        rows = [{"model": m, "auc_bound": e.auc_bound, "tpr_bound": float(e.table["tpr_bound"].max()),
                 "fpr_bound": float(e.table["fpr_bound"].max())} for m, e in p.rounding.items()]
        report.markdown(f"**Rounding**: {md_escape(first.description)}. Instances in different bins keep their "
                        "order; only those that share a bin became tied. The largest possible change that this "
                        "can have caused, computed exactly from the counts:")
        frame = pd.DataFrame(rows)
        st.dataframe(frame, hide_index=True, key="lg_rounding", column_config=column_config(frame))
        download_csv(frame, label="Download the rounding bounds (CSV)", file_name="rocci_rounding.csv",
                     key="dl_lg_rounding")
    if p.fold_column is not None:
        fold_sizes_caption(p)
    if p.pairs:
        report.caption("Pairs reduced for comparisons: " + "; ".join(
            f"{md_escape(a)} – {md_escape(b)} ({g.score_a.size:,} distinct score pairs)"
            for (a, b), g in p.pairs.items()) + ".")
    elif len(p.counts) > 1:
        report.caption("Pairs were not reduced: comparing two models (Compare models page, cost difference) needs "
                       "them; tick *Reduce pairs* and scan again.")

    scale, models, shown = histogram_choices(p.score_columns)
    report.caption("How the scores of positives and negatives are spread, per model, drawn from the counts (each "
                   "distinct score weighted by its rows): the less the two histograms overlap, the better the "
                   "model separates the classes.")
    if len(models) > len(shown):
        st.caption(f"Histograms of the first {len(shown)} of the {len(models)} chosen models.")
    neg = ", ".join(label_text(v) for v in p.negative_labels)
    fig = plots.count_histograms(
        {m: p.counts[m].table() for m in shown},
        positive_name=f"positives (label {label_text(p.pos_label)})", negative_name=f"negatives (label {neg})",
        bins=int(min(40, max(10, round(2 * p.n_rows_used ** 0.5)))), normalize=scale != "count",
    )
    report.plotly_chart(fig, config=plots.plotly_config(image_format=image_format(), filename="rocci_scores"),
                        key="hist")


def fold_sizes_caption(p) -> None:
    """The folds a scan with a fold / group column found: how many, their sizes, and the rows without one."""
    from ui.cache import folds as cache_folds

    report.caption(cache_folds.fold_sizes_text(p))


def main() -> None:
    page_header("Data", CAPTION)  # not page_frame: this page makes the data the others analyse
    ds = source_section()
    if state.value("source") == "large":
        large_section(ds)
        return
    if ds is None:
        return
    if ds.kind == "large":
        try:
            an = cache.current_analysis()
        except rocci.InputError as exc:
            error(str(exc))
            return
        counts_summary_section(an)
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
