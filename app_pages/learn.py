"""Learn page: a guided walk through the thesis's worked example, for teaching.

Six sections, each a short text, an interactive chart and the numbers:
a ROC point and its confusion matrix; a cost line and the ROC point it maps
to; the envelope as the convex hull; bootstrap worlds and the exact bootstrap;
threshold vs vertical averaging; a decision curve as a cost curve read
another way.

Thin UI: every number comes from rocci (``roc_curve``, ``confusion_at``,
``cost_curve``, ``cost_ci``, ``threshold_ci``, ``vertical_ci``) through cached
wrappers (ui.cache, ui.cache.cost, ui.cache.learn); figures come from
rocci.plots.learn.  The random bootstrap worlds are drawn, seeded, in
ui.cache.learn.  The page's choices are bound to the URL query string.

Every section says which data it uses (the worked example or the loaded
file and model): the sidebar always shows the loaded file, which the page
does not use unless asked.  The operating point w of section 2 comes from
one small function, :func:`operating_point_w`, so that a shared operating
condition (prior, costs, w) can drive it later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import rocci
from rocci import plots
from rocci.plots import decision as plots_decision
from rocci.plots import learn as plots_learn
from rocci.plots import plotly_config
from ui import cache, operating, report, state
from ui.cache import cost as cache_cost, decision as cache_decision, learn as cache_learn
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import label_text, md_escape, number, percent
from ui.controls import error, method_note
from ui.frame import page_header
from ui.labels import column_config

URL = "query-params"
#: Short labels: both fit a phone-wide segmented control.
SOURCES = {"example": "Worked example", "loaded": "Loaded data"}
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
WORLD_COUNTS = [5, 10, 20, 50, 100, 200]
#: At most this many thresholds are offered on a slider (evenly spaced among the distinct scores).
MAX_SLIDER = 400
#: Hull vertices listed in words (longer hulls: the table only).
MAX_LISTED = 12
AVG_RATES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
AVG_FPR = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)

CAPTION = (
    "A guided tour for the classroom: what a ROC point is, how a cost line and a ROC point are two views of "
    "the same classifier, why the cost curve is the ROC convex hull in disguise, and why one ROC curve is "
    "not enough — by default with the worked example of Gadoury (2009), 20 positives and 40 negatives."
)
#: The default operating point of section 2.
DEFAULT_W = 0.3


@dataclass(frozen=True)
class Source:
    """The data the sections use: ``(y, s)`` the labels and scores, or from large data ``(ScoreCounts, None)``
    (every rocci function and figure of the page takes it; nothing expands it to instances)."""

    key: str
    model: str
    y: Any
    s: np.ndarray | None
    name: str
    pos_text: str
    example: bool

    @property
    def counts(self) -> bool:
        return isinstance(self.y, rocci.ScoreCounts)

    @property
    def n_pos(self) -> int:
        return self.y.n_pos if self.counts else int(np.count_nonzero(self.y))

    @property
    def n_neg(self) -> int:
        return self.y.n_neg if self.counts else int(np.asarray(self.y).size) - self.n_pos


def data_text(src: Source) -> str:
    """Which data a section uses, in a few words (Markdown; names from the file escaped)."""
    if src.example:
        return "the thesis's worked example"
    return f"**{md_escape(src.name)}**, model **{md_escape(src.model)}**"


def data_banner(src: Source, roc) -> None:
    """Say once, clearly, which data every section uses; with the worked example, that it is not the file the
    sidebar shows."""
    counts = f"{int(roc.n_pos):,} positives, {int(roc.n_neg):,} negatives, AUC {roc.auc:.4f}"
    if src.example:
        ds = state.get_dataset()
        other = (f" — not **{md_escape(ds.name)}**, the file loaded on the Data page (shown in the sidebar); "
                 "choose *Loaded data* above to use it" if ds is not None else "")
        text = f"Every section below uses {data_text(src)} (data/thesis\\_example.csv: {counts}){other}."
    else:
        text = (f"Every section below uses {data_text(src)}, positive class **{md_escape(src.pos_text)}**: "
                f"{counts}.")
    with st.container(border=True):
        report.markdown(f":material/dataset: {text}")


def section_data(src: Source) -> None:
    """The data line under a section's heading."""
    st.caption(f":material/dataset: Data: {data_text(src)}")


def cfg(name: str) -> dict:
    return plotly_config(image_format=image_format(), filename=f"rocci_learn_{name}")


def choose_source() -> Source | None:
    """The worked example, or the loaded data and one of its models."""
    src = st.segmented_control(
        "Data for this page", list(SOURCES), format_func=SOURCES.get, default="example", required=True,
        key="ln_src", bind=URL,
        help="Worked example: the thesis's 20 positives and 40 negatives (data/thesis_example.csv), whatever is "
        "loaded. Loaded data: the file and a model from the Data page (the one the sidebar shows).",
    )
    if src == "loaded":
        try:
            an = cache.current_analysis()
        except rocci.InputError as exc:
            error(str(exc))
            st.page_link("app_pages/data.py", label="Fix the data on the Data page", icon=":material/table:")
            return None
        if an is None:
            st.info("No data loaded: showing the worked example.")
        else:
            model = an.models[0]
            if len(an.models) > 1:
                model = st.selectbox("Model", an.models, format_func=str, key="ln_model", bind=URL,
                                     help="The score column to use on this page.")
            y, s = an.arrays(model)  # from large data: (ScoreCounts, None), drawn from its counts
            return Source(key=an.key, model=model, y=y, s=s, name=an.dataset.name,
                          pos_text=label_text(an.prepared.pos_label), example=False)
    key, y, s = cache_learn.example()
    return Source(key=key, model=cache_learn.EXAMPLE_MODEL, y=y, s=s, name=cache_learn.EXAMPLE, pos_text="1",
                  example=True)


def slider_thresholds(roc, env) -> list[float]:
    """The distinct finite scores, increasing; beyond MAX_SLIDER, evenly thinned with the hull vertices kept
    (they are the thresholds that are ever cheapest, which section 2 offers)."""
    t = np.asarray(roc.thresholds, float)
    t = np.sort(t[np.isfinite(t)])
    if t.size > MAX_SLIDER:
        hull = np.asarray(env.hull_thresholds, float)
        t = np.union1d(t[plots_learn.thin_indices(t.size, MAX_SLIDER)], hull[np.isfinite(hull)])
    return [float(v) for v in t]


def nearest(options: list[float], value: float) -> float:
    return options[int(np.argmin(np.abs(np.asarray(options) - value)))]


THRESHOLD_KEYS = ("ln_t", "ln_t2", "ln_t4")


def forget_thresholds_on_new_data(src: Source) -> None:
    """Thresholds belong to one dataset: when the data or the model changes, the sliders start afresh."""
    ident = f"{src.key}|{src.model}"
    last = state.swap(state.LEARN_DATA, ident)
    if last is not None and last != ident:
        state.forget(*THRESHOLD_KEYS)


def threshold_slider(label: str, options: list[float], default: float, key: str, help: str) -> float:
    current = state.value(key)
    if current is not None and current not in options:
        # A threshold from a link or another dataset that is not a score here: snap to the nearest one.
        try:
            state.seed(key, nearest(options, float(current)), force=True)
        except (TypeError, ValueError):
            state.forget(key)
    # A value set by a button (session state) is not given a default as well (Streamlit warns about both).
    value = {} if state.has(key) else {"value": nearest(options, default)}
    return float(st.select_slider(label, options=options, format_func=lambda v: number(v, 6), key=key,
                                  bind=URL, help=help, **value))


def matrix_frame(conf, pos_text: str) -> pd.DataFrame:
    """The 2×2 matrix with each cell named (st.table renders Markdown: the label from the file is escaped)."""
    return pd.DataFrame(
        [[f"TP = {conf.tp:,}", f"FN = {conf.fn:,}", f"n+ = {conf.n_pos:,}"],
         [f"FP = {conf.fp:,}", f"TN = {conf.tn:,}", f"n− = {conf.n_neg:,}"],
         [f"{conf.tp + conf.fp:,}", f"{conf.fn + conf.tn:,}", f"n = {conf.n:,}"]],
        index=[f"Actual positive ({md_escape(pos_text)})", "Actual negative", "Total"],
        columns=["Predicted positive", "Predicted negative", "Total"],
    )


# ---------------------------------------------------------------------------
# 1. A ROC point
# ---------------------------------------------------------------------------


def section_point(src: Source, roc, options: list[float]) -> None:
    report.header("1 · A ROC point and its confusion matrix", anchor=False)
    section_data(src)
    report.markdown(
        "A classifier gives each instance a **score**. Choose a **threshold**: every instance scoring at or "
        "above it is *predicted positive*. Counting the four outcomes gives the **confusion matrix**; two "
        "shares of it make one **point** of the ROC curve: the true-positive rate (the share of positives "
        "found) and the false-positive rate (the share of negatives wrongly flagged). Move the threshold "
        "and watch the point walk along the curve."
    )
    t = threshold_slider("Threshold", options, float(np.median(options)), "ln_t",
                         "Scores at or above the threshold are predicted positive. The slider visits the "
                         "distinct scores.")
    conf = cache_learn.confusion_at(src.key, src.model, t, src.y, src.s)
    c1, c2 = st.columns([1, 1.3], gap="medium")
    with c1:
        report.markdown(f"**Confusion matrix at score ≥ {md_escape(number(t, 6))}**")
        report.table(matrix_frame(conf, src.pos_text))
        report.caption("Rows: the true class; columns: the prediction at this threshold. TP: positives found; "
                   "FN: positives missed; FP: negatives flagged (false alarms); TN: negatives left alone.")
        download_csv(pd.DataFrame([{"threshold": t, "tp": conf.tp, "fn": conf.fn, "fp": conf.fp, "tn": conf.tn,
                                    "tpr": conf.recall, "fpr": conf.fpr}]),
                     label="Download the matrix (CSV)", file_name="rocci_learn_confusion.csv", key="ln_dl_conf")
        a, b = st.columns(2)
        report.metric_in(a, "TPR", f"{conf.recall:.4f}",
                 help=f"True-positive rate = TP / n+ = {conf.tp} / {conf.n_pos}: share of positives found "
                 "(sensitivity, recall).")
        report.metric_in(b, "FPR", f"{conf.fpr:.4f}",
                 help=f"False-positive rate = FP / n− = {conf.fp} / {conf.n_neg}: share of negatives flagged "
                 "(1 − specificity).")
        report.markdown(
            f"**TPR** = TP / n+ = {conf.tp} / {conf.n_pos} = **{conf.recall:.4f}**  \n"
            f"**FPR** = FP / n− = {conf.fp} / {conf.n_neg} = **{conf.fpr:.4f}**"
        )
    with c2:
        report.plotly_chart(plots_learn.roc_point_figure(roc, conf), config=cfg("roc_point"), key="ln_roc_point")
        report.caption("The empirical ROC curve: one point per threshold. Orange: the current threshold's point "
                   "(FPR, TPR).")
    scores, labels = (src.y, None) if src.counts else (src.s, src.y)  # a table: its own order statistics
    report.plotly_chart(plots_learn.strip_figure(scores, labels, t, positive_name=f"positives ({src.pos_text})",
                                             negative_name="negatives"),
                    config=cfg("scores"), key="ln_strip")
    biggest = max(int(roc.n_pos), int(roc.n_neg))
    thinned = (f" A class with more than {plots_learn.MAX_STRIP_POINTS:,} instances is drawn from "
               f"{plots_learn.MAX_STRIP_POINTS:,} evenly spaced scores (its sorted scores thinned); the legend counts "
               "every instance." if biggest > plots_learn.MAX_STRIP_POINTS else "")
    report.caption("Each dot is an instance, by true class (jittered up and down so ties stay visible). Filled: "
               "predicted positive (right of the dashed threshold); open: predicted negative. Filled "
               "red-orange dots are the true positives, filled blue dots the false positives." + thinned)


# ---------------------------------------------------------------------------
# 2. Cost line ↔ ROC point
# ---------------------------------------------------------------------------


def use_optimal(key: str, value: float) -> None:
    state.seed(key, value, force=True)


def operating_point_w(src: Source) -> float:
    """Section 2's operating point w: the operating condition shared with the Cost curves and Threshold
    explorer pages (ui.operating; prior and two costs, or w directly with a slider), kept in the link.

    The prior starts at the share of positives in the data this section uses. Without a valid condition
    (both costs 0) the section falls back to w = DEFAULT_W, and says so.
    """
    cond = operating.controls(src.n_pos, src.n_neg, title="Operating condition (shared with the Cost "
                              "curves and Threshold explorer pages)")
    if cond is None:
        st.caption(f"Using w = {DEFAULT_W} until the costs are fixed.")
        return DEFAULT_W
    report.caption("Choose *w directly* for a slider that moves the cost line's optimum along the hull.")
    return float(cond.w)


def section_duality(src: Source, roc, env, options: list[float]) -> None:
    report.header("2 · A cost line and the ROC point it maps to", anchor=False)
    section_data(src)
    report.markdown(
        "Costs depend on the situation: how common positives are and what each mistake costs. They boil "
        "down to one number, the **operating point w** between 0 and 1 (large w: missing a positive is what "
        "hurts). A threshold's **normalised expected cost** is NEC(w) = w·(1 − TPR) + (1 − w)·FPR: a "
        "**straight line** in w, from FPR at w = 0 to 1 − TPR at w = 1. So each ROC *point* is a cost "
        "*line*, and back: **TPR = 1 − slope − FPR**. Move the threshold to see its line; move w "
        "to see which threshold is cheapest there — on the ROC plot, the hull vertex that a line of slope "
        "(1 − w)/w touches."
    )
    c1, c2 = st.columns(2)
    with c1:
        w = operating_point_w(src)
    optimum = cache_learn.cost_at(src.key, src.model, (w,), None, src.y, src.s)
    best = float(optimum.threshold[0])
    # Default: the cheapest threshold at the default w (fixed, so that moving w leaves the threshold alone).
    default = float(cache_learn.cost_at(src.key, src.model, (DEFAULT_W,), None, src.y, src.s).threshold[0])
    with c2:
        t = threshold_slider("Threshold whose cost line to draw", options, default if np.isfinite(default) else
                             options[-1], "ln_t2", "Scores at or above the threshold are predicted positive.")
        if np.isfinite(best):
            st.button(f"Use the cheapest threshold at w = {w:.2f} ({number(best, 6)})", key="ln_use_best",
                      on_click=use_optimal, args=("ln_t2", nearest(options, best)),
                      help="Set the threshold to the envelope's minimiser at this w.")
    line = cache_learn.cost_at(src.key, src.model, (0.0, 1.0, w), (t,), src.y, src.s)
    point = cache.threshold_ci(src.key, src.model, (t,), None, 0.95, "wilson", "rectangle", None, src.y, src.s)
    hits = np.flatnonzero(np.asarray(env.hull_thresholds, float) == best)
    vertex = int(hits[0]) if hits.size else 0
    grid = tuple(float(v) for v in np.union1d(cache_cost.W_GRID, env.breakpoints))
    curve = cache_cost.cost_curve(src.key, src.model, grid, src.y, src.s)

    f1, f2 = st.columns(2)
    with f1:
        report.plotly_chart(plots_learn.cost_duality_figure(curve, line, optimum), config=cfg("cost_line"),
                        key="ln_cost_line")
        report.caption("Cost space: x = operating point w, y = normalised expected cost. Orange: the chosen "
                   "threshold's cost line; green: the lower envelope (the cheapest threshold at each w); "
                   "dashed grey: the trivial classifiers.")
    with f2:
        report.plotly_chart(plots_learn.roc_duality_figure(roc, env, point, w=w, vertex=vertex),
                        config=cfg("roc_iso"), key="ln_roc_iso")
        report.caption("ROC space: orange, the chosen threshold's point; green, the convex hull and the "
                   "iso-performance line of slope (1 − w)/w through the vertex that is cheapest at w (every "
                   "point on that line has the same cost).")

    fpr, tpr = float(point.fpr[0]), float(point.tpr[0])
    c0, c1w, cw = (float(v) for v in line.cost)
    slope = c1w - c0
    a, b, c, d = st.columns(4)
    report.metric_in(a, "FPR (intercept at w = 0)", f"{c0:.4f}", help="The cost line's value at w = 0 is the FPR.")
    report.metric_in(b, "1 − TPR (value at w = 1)", f"{c1w:.4f}", help="The cost line's value at w = 1 is 1 − TPR.")
    report.metric_in(c, "Slope", f"{slope:.4f}", help="Slope of the cost line: (1 − TPR) − FPR.")
    report.metric_in(d, "TPR = 1 − slope − FPR", f"{1.0 - slope - c0:.4f}",
             help="The ROC point read back from the line.")
    report.markdown(
        f"**In words.** Threshold **{md_escape(number(t, 6))}** is the ROC point "
        f"(FPR {fpr:.4f}, TPR {tpr:.4f}) and, in cost space, the line from ({0}, {c0:.4f}) to (1, {c1w:.4f}): "
        f"intercept FPR = {c0:.4f}, slope 1 − TPR − FPR = {slope:.4f}, and back, TPR = 1 − {slope:.4f} − "
        f"{c0:.4f} = {1.0 - slope - c0:.4f}. At w = {w:.2f} it costs **{cw:.4f}**. The cheapest threshold "
        f"there is **{md_escape(number(best, 6))}** with cost **{float(optimum.cost[0]):.4f}**"
        + ("  — the chosen threshold is the cheapest." if abs(cw - float(optimum.cost[0])) < 1e-12 else
           f"; the chosen threshold costs {cw - float(optimum.cost[0]):.4f} more.")
        + " " + where_cheapest(env, t)
    )
    method_note(
        "Thesis §3.1–3.3. Operating point w = p(+)C(−|+) / (p(+)C(−|+) + p(−)C(+|−)) (eq. 3.1); normalised "
        "expected cost NEC(w) = (1 − w)·FPR + w·(1 − TPR) (eq. 3.12); the ROC point read back from its cost "
        "line, TPR = 1 − slope − FPR (eq. 3.6); points of equal cost lie on an iso-performance line (eq. 3.3), of "
        "slope (1 − w)/w in ROC space. The cheapest threshold at w is the envelope's minimiser (rocci.cost_curve)."
    )


def where_cheapest(env, t: float) -> str:
    """Plain words: the range of w where threshold t is the envelope (a hull vertex), or that it never is."""
    frame = env.hull_frame()
    rows = frame[(frame["threshold"] == t) & (frame["w_high"] > frame["w_low"])]
    if rows.empty:
        return (f"Threshold {md_escape(number(t, 6))} is **never the cheapest**, whatever w: its ROC point is "
                "not a vertex of the convex hull, so its cost line never touches the envelope.")
    r = rows.iloc[0]
    return (f"Threshold {md_escape(number(t, 6))} is a hull vertex: the cheapest for **w from {r.w_low:.4f} to "
            f"{r.w_high:.4f}**.")


# ---------------------------------------------------------------------------
# 3. Envelope = convex hull
# ---------------------------------------------------------------------------


def section_hull(src: Source, roc, env) -> None:
    report.header("3 · The cost curve is the ROC convex hull", anchor=False)
    section_data(src)
    report.markdown(
        "Every threshold has a cost line. At each w, the cheapest one is at the bottom: the **lower "
        "envelope** of the lines is the **cost curve**. Only a few thresholds ever reach it — exactly the "
        "**vertices of the upper convex hull** of the ROC curve. Each hull vertex owns one segment of the "
        "envelope, and consecutive vertices swap at a **breakpoint** w*. Points under the hull are never the "
        "cheapest choice, whatever the costs."
    )
    featured = plots_learn.featured_vertices(env)
    owning = int(np.count_nonzero(np.diff(np.concatenate([[0.0], env.breakpoints, [1.0]])) > 0))
    f1, f2 = st.columns(2)
    with f1:
        report.plotly_chart(plots_learn.hull_figure(roc, env), config=cfg("hull"), key="ln_hull")
        report.caption(
            "The ROC curve (thin) and its upper convex hull. Coloured: "
            + ("each hull vertex that is ever the cheapest" if featured.size == owning else
               f"the {featured.size} hull vertices that are cheapest over the widest ranges of w (of {owning}); "
               "grey: the others (hover for each)")
            + ", in the colour of its cost line on the right.")
    with f2:
        report.plotly_chart(plots_learn.envelope_figure(roc, env), config=cfg("envelope"), key="ln_envelope")
        others = int(np.count_nonzero(np.isfinite(roc.thresholds))) - len(env.hull_thresholds)
        report.caption(
            "Wide grey band: the lower envelope, the cheapest cost at each w (the cost curve). Coloured: the cost "
            "lines of those hull vertices, bold where each is the cheapest. Thin grey: "
            + (f"a few of the {others:,} other thresholds" if others > plots_learn.MAX_COST_LINES else
               "other thresholds")
            + ", never the cheapest. ×: the breakpoints. Hover a line for its threshold.")
    frame = env.hull_frame()
    frame = frame[frame["w_high"] > frame["w_low"]].reset_index(drop=True)
    parts = [f"**{md_escape(number(r.threshold, 6))}** on w ∈ [{r.w_low:.4f}, {r.w_high:.4f}]"
             for r in frame.itertuples()]
    bps = [float(v) for v in env.breakpoints if 0 < v < 1]
    if len(parts) <= MAX_LISTED:
        report.markdown("Hull vertices and the stretch of w where each is cheapest: " + "; ".join(parts) + ". "
                    + ("Breakpoints: " + ", ".join(f"**{v:.4f}**" for v in bps) + "." if bps else ""))
    else:
        report.markdown(f"The hull has **{len(parts)}** vertices that are cheapest somewhere, with {len(bps)} "
                    "breakpoints between them: see the table (hover the charts for each one).")
    st.dataframe(frame, hide_index=True, key="ln_hull_table", column_config=column_config(frame, help={
        "threshold": "Hull vertex: score ≥ threshold.", "fpr": "False-positive rate of the vertex.",
        "tpr": "True-positive rate of the vertex."}))
    download_csv(frame, label="Download the hull (CSV)", file_name="rocci_learn_hull.csv", key="ln_dl_hull")
    method_note(
        "Thesis §3.3. Threshold t's cost line runs from (0, FPR) to (1, 1 − TPR) (eq. 3.12); two consecutive hull "
        "vertices cost the same at the breakpoint w* = ΔFPR / (ΔFPR + ΔTPR). The chart draws at most "
        f"{plots_learn.MAX_COST_LINES} cost lines: the hull vertices' first (at most {plots_learn.MAX_FEATURED}, "
        "one colour each from the colour-blind-safe Okabe–Ito palette; on longer hulls those cheapest over the "
        "widest ranges of w), then other thresholds evenly spaced by rank. The envelope itself is exact "
        "(rocci.cost_curve), whatever is drawn."
    )


# ---------------------------------------------------------------------------
# 4. Bootstrap worlds
# ---------------------------------------------------------------------------


def new_worlds() -> None:
    state.seed("ln_seed", int(state.value("ln_seed", 1) or 0) % 1_000_000 + 1, force=True)


def section_worlds(src: Source, roc, options: list[float], level: float) -> None:
    report.header("4 · Why one ROC curve is not enough", anchor=False)
    section_data(src)
    report.markdown(
        "Our data are one sample. Another sample from the same population would give another curve. The "
        "**bootstrap** imitates this: draw, with replacement, as many positives and as many negatives as we "
        "have — a new **world** — and redraw the ROC curve. Each world's curve differs a little. The "
        "**exact bootstrap** works out by formula what **infinitely many** worlds would give: no random "
        "draws, no Monte Carlo noise. Below, K random worlds and the exact band they fill in."
    )
    c1, c2, c3, c4 = st.columns([1, 1, 1.4, 1.6])
    k = int(c1.selectbox("Worlds K", WORLD_COUNTS, index=WORLD_COUNTS.index(20), key="ln_k", bind=URL,
                         help="How many random bootstrap resamples to draw."))
    value = {} if state.has("ln_seed") else {"value": 1}
    seed = int(c2.number_input("Seed", min_value=0, max_value=1_000_000, step=1, key="ln_seed", bind=URL,
                               help="The random seed: the same seed draws the same worlds.", **value))
    with c3:
        st.button(f"Draw {k} new worlds", key="ln_draw", on_click=new_worlds, icon=":material/casino:",
                  help="Draw another set of K worlds (the seed goes up by one).")
    with c4:
        t = threshold_slider("Threshold to follow", options, float(np.median(options)), "ln_t4",
                             "The threshold held fixed in every world: its point moves from world to world.")
    if cache_learn.WORLDS.get((src.key, src.model, int(k), int(seed), float(t))) is None:
        bar = st.progress(0.0, text=f"Drawing {k} bootstrap worlds…")
        worlds = cache_learn.bootstrap_worlds(
            src.key, src.model, k, seed, t, src.y, src.s,
            progress=lambda f, msg: bar.progress(min(max(float(f), 0.0), 1.0), text=f"Drawing bootstrap worlds: {msg}"))
        bar.empty()
    else:
        worlds = cache_learn.bootstrap_worlds(src.key, src.model, k, seed, t, src.y, src.s)
    band = cache.vertical_ci(src.key, src.model, tuple(float(v) for v in np.linspace(0.01, 0.99, 99)), level,
                             "percentile", None, src.y, src.s)
    at = cache.threshold_ci(src.key, src.model, (t,), None, level, "wilson", "rectangle", None, src.y, src.s)
    show_sim = st.toggle("Show the simultaneous band", value=True, key="ln_sim", bind=URL,
                         help="Where 95% of worlds' whole curves lie, beside the pointwise band, which holds 95% "
                         "of worlds at each FPR on its own.")
    sim = inside = None
    if show_sim:
        sim = cache.roc_band(src.key, src.model, "threshold", cache.BAND_THRESHOLDS, None, level, None, src.y, src.s)
        inside = cache_learn.worlds_in_bands(src.key, src.model, k, seed, level, sim, band, src.y, src.s)
    f1, f2 = st.columns([1.3, 1])
    with f1:
        fig = plots_learn.worlds_figure(roc, worlds.curves, band=band, at=at, world_points=(worlds.fpr, worlds.tpr))
        if sim is not None:
            plots.add_band(fig, sim)
        report.plotly_chart(fig, config=cfg("worlds"), key="ln_worlds")
        report.caption(
            f"Red-orange: {k} bootstrap worlds (seed {seed}), each one random resample's ROC curve. Blue "
            f"shading: the exact bootstrap band, {percent(level)} pointwise percentile intervals of the TPR at fixed "
            f"FPR (vertical averaging). Blue box: the {percent(level)} Wilson exact bootstrap confidence rectangle "
            f"at threshold {md_escape(number(t, 6))} (each axis at {percent(float(at.axis_confidence_level))}); "
            "red-orange dots: the worlds' points at that threshold. The exact bootstrap is the limit of infinitely "
            "many such worlds."
            + (" From large data each world draws the number of positives and of negatives at every distinct "
               "score (a multinomial: the same law as drawing the instances one by one, with other random "
               "numbers than the rows would give)." if src.counts else "")
            + (" Hatched: the simultaneous band, where the **whole** curve of "
               f"{percent(sim.joint_probability)} of all bootstrap worlds lies (its exact probability "
               f"{sim.joint_probability:.4f}), at {len(sim.thresholds):,} thresholds." if sim is not None else "")
        )
        if inside is not None:
            n_sim, n_pw = int(inside["boxes"].sum()), int(inside["levels"].sum())
            report.markdown(
                f"**Pointwise or simultaneous?** Of these {k} worlds, **{n_pw}** ({n_pw / k:.0%}) stay inside the "
                f"pointwise band at all {len(band.fpr)} FPR levels, although at each single level it holds "
                f"{percent(level)} of worlds; **{n_sim}** ({n_sim / k:.0%}) stay inside the simultaneous band "
                f"everywhere (exactly {sim.joint_probability:.1%} of infinitely many worlds would). To say where the "
                "whole curve could be, use the simultaneous band; to read one point, the pointwise intervals. "
                "Draw more worlds to see the shares settle.")
    with f2:
        report.plotly_chart(plots_learn.worlds_law_figure(worlds.tpr, at.distribution(0, "tpr")),
                        config=cfg("worlds_law"), key="ln_worlds_law")
        report.caption(f"TPR at threshold {md_escape(number(t, 6))}: bars, the share of the {k} worlds at each "
                   "value; blue, its exact bootstrap law Bin(n+, TPR)/n+. More worlds, closer bars.")
        table = pd.DataFrame({
            "quantity": [f"Mean over {k} worlds", f"SD over {k} worlds", "Exact bootstrap mean",
                         "Exact bootstrap SD"],
            "tpr": [worlds.tpr_mean, worlds.tpr_sd, float(at.tpr[0]), float(at.tpr_std[0])],
            "fpr": [worlds.fpr_mean, worlds.fpr_sd, float(at.fpr[0]), float(at.fpr_std[0])],
        })
        st.dataframe(table, hide_index=True, key="ln_worlds_table",
                     column_config=column_config(table, width={"quantity": "medium"}, help={
                         "quantity": "At this threshold. Monte Carlo: mean and standard deviation (divisor K − 1) "
                         "over the K random worlds. Exact: the exact bootstrap mean (the observed rate) and "
                         "standard deviation sqrt(p(1 − p)/m)."}))
        report.caption("Monte Carlo (K worlds) against exact (infinitely many worlds). With more worlds the two "
                   "columns agree more closely; the exact numbers do not change.")
        download_csv(table.assign(threshold=t, k=k, seed=seed), label="Download this table (CSV)",
                     file_name="rocci_learn_worlds.csv", key="ln_dl_worlds")


# ---------------------------------------------------------------------------
# 5. Threshold vs vertical averaging
# ---------------------------------------------------------------------------


def section_averaging(src: Source, roc, level: float) -> None:
    report.header("5 · Threshold averaging or vertical averaging?", anchor=False)
    section_data(src)
    report.markdown(
        "Two ways to put intervals on a ROC curve, answering two different questions."
    )
    tci = cache.threshold_ci(src.key, src.model, None, AVG_RATES, level, "wilson", "rectangle", None, src.y,
                             src.s)
    vci = cache.vertical_ci(src.key, src.model, AVG_FPR, level, "percentile", None, src.y, src.s)
    left, right = plots_learn.averaging_figures(roc, tci, vci)
    f1, f2 = st.columns(2)
    with f1:
        report.markdown("**Threshold averaging: rectangles at fixed thresholds**")
        report.plotly_chart(left, config=cfg("threshold_avg"), key="ln_avg_thr")
        report.markdown(
            "*If I use this threshold, what true- and false-positive rates should I expect?* The threshold "
            "is fixed, so **both** rates vary: a rectangle."
        )
        report.caption(f"{percent(level)} Wilson exact bootstrap confidence rectangles (each axis at "
                   f"{percent(float(tci.axis_confidence_level))}), at the thresholds that predict 10%, 20%, …, "
                   "90% of all instances positive.")
    with f2:
        report.markdown("**Vertical averaging: bars at fixed FPR**")
        report.plotly_chart(right, config=cfg("vertical_avg"), key="ln_avg_vert")
        report.markdown(
            "*If I allow this false-alarm rate, what share of positives will I find?* The FPR is fixed "
            "(the threshold moves with the sample), so only the TPR varies: a vertical bar."
        )
        report.caption(f"{percent(level)} percentile intervals of the exact bootstrap law of the TPR at FPR = "
                   "0.1, 0.2, …, 0.9 (stratified bootstrap, m± = n±).")


# ---------------------------------------------------------------------------
# 6. Decision curve = cost curve read another way
# ---------------------------------------------------------------------------

#: Threshold probabilities of section 6's table.
DECISION_PS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5)


def decision_identity(share: float, nb, cost, ps) -> pd.DataFrame:
    """Section 6's table: for each threshold probability p, the operating point w(p), the net benefit with
    its interval, the normalised cost of the same threshold (score >= p) at w(p) with its interval, and the
    net benefit read back from the cost, pi - K*NEC (its bounds are the cost's bounds swapped)."""
    p = np.asarray(ps, float)
    k = share + (1 - share) * p / (1 - p)
    return pd.DataFrame({
        "p": p, "w": share / k, "net_benefit": nb.net_benefit, "net_benefit_low": nb.net_benefit_low,
        "net_benefit_high": nb.net_benefit_high, "cost": cost.cost, "cost_low": cost.cost_low,
        "cost_high": cost.cost_high, "scale_k": k, "net_benefit_from_cost": share - k * cost.cost,
        "net_benefit_low_from_cost": share - k * cost.cost_high,
        "net_benefit_high_from_cost": share - k * cost.cost_low,
    })


def section_decision(src: Source, level: float) -> None:
    report.header("6 · A decision curve is a cost curve read another way", anchor=False)
    section_data(src)
    if src.counts:
        lo, hi = (float(v) for v in src.y.table()[0][[0, -1]])
    else:
        lo, hi = float(np.min(src.s)), float(np.max(src.s))
    if lo < 0 or hi > 1:
        st.info(f"These scores run from {number(lo)} to {number(hi)}: they are not predicted risks, and a decision "
                "curve reads each score as one. The thesis's example (*Data for this page*, above) has risks "
                "and shows this section.")
        return
    share = src.n_pos / (src.n_pos + src.n_neg)
    report.markdown(
        "Clinicians read models with **decision curves**. Acting on everyone whose predicted risk is at least a "
        "**threshold probability p** says that one true case found is worth (1 − p)/p false alarms; the "
        "**net benefit** is NB(p) = TP/n − FP/n · p/(1 − p), compared with treating everyone and treating no "
        "one. That is an operating condition in disguise: with π the share of positives, the cost curve's "
        "**w = π(1 − p)/(π(1 − p) + (1 − π)p)** and, for the same threshold, "
        "**NB(p) = π − K·NEC(w)** with K = π + (1 − π)·p/(1 − p). Treating no one is calling everything "
        "negative (NEC = w, NB = 0); treating everyone is calling everything positive (NEC = 1 − w). Higher "
        "net benefit is lower cost: the two charts are one fact read two ways."
    )
    p = st.slider("Threshold probability p", min_value=0.01, max_value=0.99, value=0.2, step=0.01,
                  format="percent", key="ln_p", bind=URL,
                  help="The risk at or above which the model's flag is acted on; the cost chart shows the same "
                  "threshold (score ≥ p) at its operating point w(p).")
    k = share + (1 - share) * p / (1 - p)
    w = share / k
    ps = tuple(sorted(set(DECISION_PS) | {round(p, 2)}))
    grid = tuple(round(v / 100, 2) for v in range(1, 100))
    nb = cache_decision.net_benefit(src.key, src.model, grid, "stratified", level, "percentile", src.y, src.s)
    nb_ps = cache_decision.net_benefit(src.key, src.model, ps, "stratified", level, "percentile", src.y, src.s)
    cost_ps = cache_cost.cost_ci(src.key, src.model, tuple(share / (share + (1 - share) * q / (1 - q)) for q in ps),
                                 ps, "stratified", level, "percentile", None, src.y, src.s)
    line = cache_learn.cost_at(src.key, src.model, (0.0, 1.0, w), (p,), src.y, src.s)
    optimum = cache_learn.cost_at(src.key, src.model, (w,), None, src.y, src.s)
    env = cache_cost.cost_curve(src.key, src.model, None, src.y, src.s)
    curve = cache_cost.cost_curve(src.key, src.model, tuple(float(v) for v in np.union1d(cache_cost.W_GRID,
                                                                                         env.breakpoints)),
                                  src.y, src.s)
    f1, f2 = st.columns(2)
    with f1:
        report.plotly_chart(plots_decision.decision_curve_figure({src.model: nb}, current=p, height=400),
                            config=cfg("decision"), key="ln_decision")
        report.caption(f"Decision curve: net benefit against p, with its {percent(level)} exact stratified "
                       "bootstrap band; dashed, treat everyone; dotted, treat no one; the vertical line is p.")
    with f2:
        report.plotly_chart(plots_learn.cost_duality_figure(curve, line, optimum, height=400),
                            config=cfg("decision_cost"), key="ln_decision_cost")
        report.caption(f"Cost space: the cost line of the same threshold (score ≥ {p:.2f}), marked at w(p) = "
                       f"{w:.4f}; green, the envelope (the cheapest threshold at each w).")
    frame = decision_identity(share, nb_ps, cost_ps, ps)
    row = frame[np.isclose(frame["p"], round(p, 2))].iloc[0]
    a, b, c = st.columns(3)
    report.metric_in(a, "w(p)", f"{w:.4f}", help="The cost curve's operating point for this threshold probability.")
    report.metric_in(b, f"Net benefit at p = {p:.2f}", f"{row.net_benefit:.4f}",
                     help=f"{percent(level)} interval [{row.net_benefit_low:.4f}, {row.net_benefit_high:.4f}].")
    report.metric_in(c, f"π − K·NEC(w) = {share:.4f} − {k:.4f}·{row.cost:.4f}", f"{row.net_benefit_from_cost:.4f}",
                     help="The net benefit read back from the normalised cost of the same threshold.")
    report.markdown(
        f"**In words.** At p = {p:.2f}, one true case is worth {(1 - p) / p:.3f} false alarms; with π = {share:.4f} "
        f"that is the operating point w = {w:.4f}. Threshold score ≥ {p:.2f} costs NEC = {row.cost:.4f} there, so "
        f"NB = {share:.4f} − {k:.4f} × {row.cost:.4f} = **{row.net_benefit_from_cost:.4f}**, the decision curve's "
        f"value. With the classes held fixed (stratified bootstrap) the **exact laws** are the same law read "
        f"two ways: the {percent(level)} interval of the net benefit, [{row.net_benefit_low:.4f}, "
        f"{row.net_benefit_high:.4f}], is the cost's interval [{row.cost_low:.4f}, {row.cost_high:.4f}] mapped "
        "through π − K·NEC (which turns it round). The cheapest threshold at w is not always score ≥ p: it is "
        "when the risks are calibrated.")
    report.caption("The same identity at a few threshold probabilities (the columns *from cost* are computed "
                   "from the cost columns; they equal the net-benefit columns).")
    st.dataframe(frame, hide_index=True, key="ln_decision_table", column_config=column_config(frame, help={
        "w": "The cost curve's operating point for this threshold probability: π(1 − p)/(π(1 − p) + (1 − π)p).",
        "cost": "Normalised expected cost of the threshold score ≥ p at w(p).",
        "net_benefit_low": "Lower end of the net benefit's interval (stratified exact bootstrap).",
        "net_benefit_high": "Upper end of that interval."}))
    download_csv(frame, label="Download the table (CSV)", file_name="rocci_learn_decision.csv",
                 key="dl_ln_decision")
    method_note(
        "Vickers & Elkin (2006): NB(p) = TP/n − FP/n·p/(1 − p). With π = n+/n, TPR = TP/n+, FPR = FP/n−: "
        "NB = π·TPR − (1 − π)·FPR·p/(1 − p) = π − K·[w(1 − TPR) + (1 − w)FPR] with K = π + (1 − π)p/(1 − p) "
        "and w = π/K (thesis eq. 3.1 with C(+|−)/C(−|+) = p/(1 − p) and the data's prior). In a stratified "
        "bootstrap π is fixed, so NB* = π − K·NEC* resample by resample (rocci.net_benefit, "
        "bootstrap=\"stratified\", and rocci.cost_ci at the same threshold). The full bootstrap lets π vary; "
        "the Decision curve page uses it by default, as the decision-curve literature does.")


def main() -> None:
    page_header("Learn", CAPTION)  # not page_frame: see ui.frame
    top1, top2 = st.columns([2, 1])
    with top1:
        src = choose_source()
    if src is None:
        return
    with top2:
        level = st.select_slider("Confidence level (sections 4 to 6)", LEVELS, value=0.95, format_func=percent,
                                 key="ln_level", bind=URL,
                                 help="Level of the intervals, bands and rectangles in sections 4 to 6.")
    try:
        roc = cache.roc_curve(src.key, src.model, src.y, src.s)
        env = cache_cost.cost_curve(src.key, src.model, None, src.y, src.s)
    except rocci.InputError as exc:
        error(str(exc))
        return
    data_banner(src, roc)
    options = slider_thresholds(roc, env)
    forget_thresholds_on_new_data(src)
    if not options:
        error("The scores have no finite value to use as a threshold.")
        return
    sections = (
        lambda: section_point(src, roc, options),
        lambda: section_duality(src, roc, env, options),
        lambda: section_hull(src, roc, env),
        lambda: section_worlds(src, roc, options, level),
        lambda: section_averaging(src, roc, level),
        lambda: section_decision(src, level),
    )
    for run in sections:
        try:
            run()
        except rocci.InputError as exc:
            error(str(exc))
        st.divider()


main()
