"""Cost curves page: operating conditions, the cost curve and its exact bootstrap band.

Thin UI: every number comes from rocci (``operating_point``, ``cost_curve``,
``cost_ci``, ``compare_cost``) through the cached wrappers in ui.cache.cost;
figures come from rocci.plots.cost.  The page's choices are bound to the URL
query string (``bind="query-params"``), like the ROC page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import rocci
from rocci.plots import cost as plots_cost
from ui import cache, operating, report
from ui.controls import error
from ui.frame import page_frame
from ui.labels import column_config, method_option
from ui.cache import cost as cache_cost
from ui import controls as controls_ui
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import ParseError, md_escape, number, parse_numbers, percent
from rocci.plots import plotly_config

URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
METHODS = ["agresti-coull", "wald", "percentile"]
BOOTSTRAPS = {"stratified": "Stratified", "full": "Full"}

CAPTION = (
    "A **cost curve** shows, for every operating condition w, the normalised expected cost of the best "
    "threshold. Intervals use the **exact bootstrap**: what infinitely many resamples would give, worked "
    "out by formula, with the threshold held fixed at each w."
)

#: The tables' columns in this page's context (labels and formats: ui.labels).
COST_HELP = {
    "threshold": "Optimal threshold at this w (score ≥ threshold → positive), held fixed in the bootstrap.",
    "tp": "True positives at the threshold.",
    "fp": "False positives at the threshold.",
}
CMP_HELP = {
    "threshold_a": "Model A's optimal threshold at this w.",
    "threshold_b": "Model B's optimal threshold at this w.",
}
#: The comparison table's columns, in order.
CMP_ORDER = ["w", "threshold_a", "threshold_b", "delta_cost", "delta_cost_std", "delta_cost_low", "delta_cost_high",
             "p_a_cheaper"]


@dataclass(frozen=True)
class Options:
    w: float
    model_a: str
    model_b: str | None
    level: float
    bootstrap: str
    method: str
    thresholds: tuple
    m: int | tuple | None = None
    condition: operating.OperatingCondition | None = None


def full_bootstrap_size(n: int) -> int | None:
    """The "Bootstrap size" box of the full bootstrap: one number m, bound to the URL
    (empty = n, the number of instances), like the m+ / m− box of the stratified one."""
    with st.container(border=True):
        st.markdown("**Bootstrap size**")
        m = st.number_input(
            "m", min_value=1, max_value=10_000_000, value=None, step=1, key="cost_m", bind=URL,
            placeholder=f"{n} (= n)",
            help=f"Instances drawn from the pooled data in each bootstrap resample (the class counts vary "
            f"between resamples). Empty = the number of instances in the data ({n}).",
        )
        if m is None:
            return None
        report.caption(f"Resamples of m = {int(m):,} instances drawn from both classes together.")
        return int(m)


def size_text(result) -> str:
    """'m+ = 1,000, m− = 2,000' (stratified) or 'm = 3,000' (full), from a CostCI or CostComparison."""
    if result.bootstrap == "stratified":
        return f"m+ = {result.m_pos:,}, m− = {result.m_neg:,}"
    return f"m = {result.m_total:,}"


def suggested_thresholds(curve) -> list[float]:
    """Up to six finite thresholds of the ROC hull (their cost lines form the envelope)."""
    t = np.asarray(curve.hull_thresholds, dtype=float)
    t = t[np.isfinite(t)]
    if t.size == 0:
        return []
    idx = np.unique(np.linspace(0, t.size - 1, min(6, t.size)).round().astype(int))
    return [float(t[i]) for i in idx]


def operating_controls(an: cache.Analysis) -> operating.OperatingCondition | None:
    """The shared operating condition (ui.operating), with this page's note on normalised costs."""
    cond = operating.controls(an.prepared.n_pos, an.prepared.n_neg)
    if cond is not None:
        report.caption(
            "Costs are **normalised so that the trivial classifiers cost w and 1 − w**: calling everything "
            "negative costs w, calling everything positive costs 1 − w."
            + (" With a prior and two costs, the expected cost in your units is the normalised cost × "
               f"{operating.money(cond.scale)} (= p(+)·C(−|+) + p(−)·C(+|−))." if cond.scale else "")
        )
    return cond


def controls(an: cache.Analysis, curves: dict) -> Options | None:
    cond = operating_controls(an)
    ok = cond is not None
    w = cond.w if ok else None
    models = an.models
    with st.container(border=True):
        st.markdown("**Models and intervals**")
        model_a = models[0]
        model_b = None
        if len(models) > 1:
            model_a = st.selectbox("Model A", models, format_func=str, key="cost_model_a", bind=URL,
                                   help="The model whose cost curve, interval band and ROC hull are shown.")
            others = ["—"] + [m for m in models if m != model_a]
            b = st.selectbox("Compare with model B", others, index=1 if len(others) > 1 else 0, format_func=str,
                             key="cost_model_b", bind=URL,
                             help="A second score column: both envelopes and the cost difference ΔC = A − B.")
            model_b = None if b == "—" else b
        level = st.select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="cost_level",
                                 bind=URL, help="Coverage of every interval on this page (pointwise in w).")
        bootstrap = st.segmented_control(
            "Bootstrap", list(BOOTSTRAPS), format_func=BOOTSTRAPS.get, default="stratified", required=True,
            key="cost_bootstrap", bind=URL,
            help="Stratified: resample the positives and the negatives separately (class sizes fixed). "
            "Full: resample all instances together (class sizes vary; slower).",
        )
        method = st.selectbox(
            "Interval method", METHODS, format_func=method_option, key="cost_method", bind=URL,
            help="Agresti–Coull or Wald: normal intervals from the exact bootstrap mean and variance. "
            "Percentile: quantiles of the exact bootstrap law (slower).",
        )
    first = curves[models[0]]
    if bootstrap == "stratified":
        m = controls_ui.bootstrap_size(first.n_pos, first.n_neg, keys=("cost_m_pos", "cost_m_neg"))
    else:
        m = full_bootstrap_size(first.n_pos + first.n_neg)
    with st.container(border=True):
        hint = ", ".join(number(t) for t in suggested_thresholds(curves[model_a]))
        text = st.text_input("Thresholds whose cost lines to draw", value="", key="cost_thr", bind=URL,
                             placeholder=f"e.g. {hint}",
                             help="Each threshold's cost line runs from (0, FPR) to (1, 1 − TPR). Leave empty "
                             "for a few thresholds of the ROC hull (their lines make up the envelope).")
        try:
            thresholds = tuple(parse_numbers(text, what="threshold", max_count=30)) if text.strip() else tuple(
                suggested_thresholds(curves[model_a]))
        except ParseError as exc:
            st.warning(md_escape(str(exc)), icon=":material/warning:")
            ok = False
    if not ok:
        return None
    return Options(w=w, model_a=model_a, model_b=model_b, level=level, bootstrap=bootstrap, method=method,
                   thresholds=thresholds, m=m, condition=cond)


def main() -> None:
    page = page_frame("Cost curves", CAPTION)
    if page is None:
        return
    an = page.an
    try:
        curves = {m: cache_cost.cost_curve(an.key, m, None, *an.arrays(m)) for m in an.models}
    except rocci.InputError as exc:
        error(str(exc))
        return

    left, right = page.columns()
    with left:
        opts = controls(an, curves)
    if opts is None:
        with right:
            st.info("Fix the highlighted input on the left to update the charts.")
        return

    shown = [opts.model_a] + ([opts.model_b] if opts.model_b else [])
    stats = dict(bootstrap=opts.bootstrap, confidence_level=opts.level, method=opts.method, m=opts.m)
    try:
        with st.spinner("Computing exact bootstrap intervals…"):
            envelopes, bands, lines, current = {}, {}, {}, {}
            for m in shown:
                y, s = an.arrays(m)
                grid = tuple(float(v) for v in np.union1d(cache_cost.W_GRID, curves[m].breakpoints))
                envelopes[m] = cache_cost.cost_curve(an.key, m, grid, y, s)
                bands[m] = cache_cost.cost_ci(an.key, m, cache_cost.W_GRID, None, **stats, _y=y, _s=s)
                current[m] = cache_cost.cost_ci_at(an.key, m, opts.w, bands[m], **stats, _y=y, _s=s)
            y, s = an.arrays(opts.model_a)
            if opts.thresholds:
                k = len(opts.thresholds)
                lines[opts.model_a] = cache_cost.cost_ci(
                    an.key, opts.model_a, (0.0, 1.0) * k, tuple(t for t in opts.thresholds for _ in (0, 1)),
                    **stats, _y=y, _s=s)
            cmp = cmp_note = None
            if opts.model_b:
                cmp_note = an.pair_refusal(opts.model_a, opts.model_b, "The cost difference of two models",
                                           expands=False)  # compare_cost works on the pair table
            if opts.model_b and cmp_note is None:
                py, pa, pb = an.paired(opts.model_a, opts.model_b)
                cmp = cache_cost.compare_cost(an.key, opts.model_a, opts.model_b, cache_cost.W_GRID, **stats,
                                              _y=py, _a=pa, _b=pb)
    except rocci.InputError as exc:
        with right:
            error(str(exc))
        return

    how = plots_cost.interval_text(opts.level, opts.method, opts.bootstrap)
    sizes = size_text(bands[opts.model_a])
    with right:
        cols = st.columns(len(shown))
        for col, m in zip(cols, shown):
            cur = current[m]
            with col:
                report.metric(f"Cost at w = {opts.w:.3f} · {md_escape(m)}", f"{float(cur.cost[0]):.4f}",
                          help="Normalised expected cost of the optimal threshold at this w.")
                lo, hi = float(cur.cost_low[0]), float(cur.cost_high[0])
                units = operating.units_text(opts.condition, float(cur.cost[0]), lo, hi)
                report.caption(f"**{md_escape(m)}**: optimal threshold **score ≥ "
                               f"{md_escape(number(cur.threshold[0], 6))}**; normalised cost "
                               f"{float(cur.cost[0]):.4f}, {md_escape(how)} interval **[{lo:.4f}, {hi:.4f}]**"
                               + (f"; {units}." if units else "."))
        ranges = [(m, curves[m].operating_range) for m in shown]
        fig = plots_cost.cost_figure(envelopes, bands=bands, lines=lines, current=current,
                                     operating_range=ranges, colors=an.colors)
        event = report.plotly_chart(fig, config=plotly_config(image_format=image_format(), filename="rocci_cost"),
                                key="cost_chart", on_select="rerun", selection_mode="points")
        picked = picked_w(event)
        report.caption(
            f"Bold: the cost curve (lower envelope of all cost lines); shaded band: {md_escape(how)} pointwise "
            f"intervals ({sizes}) at 101 values of w, each for the optimal threshold there. Thin lines: the "
            "chosen thresholds' cost lines. Dashed: the trivial classifiers. " + range_sentence(ranges)
        )

        roc_col, cmp_col = st.columns([1, 1.4] if cmp is not None else [1, 1])
        with roc_col:
            report.markdown(f"**ROC view · {md_escape(opts.model_a)}**")
            env = curves[opts.model_a]
            w_roc = opts.w if picked is None else picked
            at_w = current[opts.model_a] if picked is None else cache_cost.cost_curve(
                an.key, opts.model_a, (w_roc,), y, s)
            thr = float(at_w.threshold[0])
            hits = np.flatnonzero(np.asarray(env.hull_thresholds, float) == thr)
            vertex = int(hits[0]) if hits.size else 0
            roc = cache.roc_curve(an.key, opts.model_a, y, s)
            report.plotly_chart(plots_cost.roc_hull_figure(roc, env, w=w_roc, vertex=vertex, name=opts.model_a,
                                                         color_index=an.colors[opts.model_a]),
                            config=plotly_config(image_format=image_format(), filename="rocci_cost_roc"),
                            key="cost_roc")
            where = (f"the current w = {opts.w:.3f}" if picked is None else
                     f"w = {w_roc:.3f}, the point clicked on the cost chart (double-click the chart to clear)")
            hover_link(opts.model_a)
            report.caption(f"The hull vertex optimal at {where}, and its iso-performance line (slope (1 − w)/w): "
                       "every ROC point on that line has the same cost. Hovering a w on the cost chart outlines "
                       "that w's optimal ROC point and its line here in black; clicking keeps it.")
        if cmp is not None:
            with cmp_col:
                report.markdown(f"**Cost difference · {md_escape(opts.model_a)} − {md_escape(opts.model_b)}**")
                report.plotly_chart(
                    plots_cost.delta_cost_figure(cmp, name_a=opts.model_a, name_b=opts.model_b, current_w=opts.w),
                    config=plotly_config(image_format=image_format(), filename="rocci_cost_diff"), key="cost_delta")
                report.caption(comparison_sentence(cmp, opts))
        else:
            with cmp_col:
                if cmp_note is not None:
                    st.info(cmp_note, icon=":material/info:")
                elif len(an.models) > 1:
                    st.info("Choose a model B on the left to compare the two models' costs.")

    results(opts, bands, cmp, curves)


#: Hover link, in the browser: hovering a w on the cost chart draws, over the linked ROC view,
#: that w's optimal ROC point (from the hover markers' customdata: rocci's hull vertex) and its
#: iso-performance line of slope (1 − w)/w (drawing arithmetic only). Plain DOM/SVG on top of
#: Plotly's own axes mapping; re-attached when Streamlit redraws a chart.
HOVER_LINK_JS = """
<script>
(function () {
  window.__rocciCostModel = %s;
  if (window.__rocciCostLink) return;
  window.__rocciCostLink = true;
  const NS = "http://www.w3.org/2000/svg";
  function chart(key, nth) {
    const el = document.querySelector(".st-key-" + key + " .js-plotly-plot");
    if (el) return el;
    return document.querySelectorAll("[data-testid='stPlotlyChart'] .js-plotly-plot")[nth] || null;
  }
  function clear(roc) {
    if (roc) roc.querySelectorAll(".rocci-hover-link").forEach(function (n) { n.remove(); });
  }
  function el(name, attrs) {
    const node = document.createElementNS(NS, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    return node;
  }
  function draw(roc, w, fpr, tpr) {
    clear(roc);
    const fl = roc && roc._fullLayout;
    if (!fl || !fl.xaxis || !fl.yaxis) return;
    const xa = fl.xaxis, ya = fl.yaxis;
    const px = function (v) { return xa._offset + xa.l2p(v); };
    const py = function (v) { return ya._offset + ya.l2p(v); };
    let x0 = fpr, x1 = fpr, y0 = -1, y1 = 2;
    if (w > 0 && (1 - w) / w <= 1e6) {
      const s = (1 - w) / w;
      x0 = -1; x1 = 2; y0 = tpr + s * (x0 - fpr); y1 = tpr + s * (x1 - fpr);
    }
    const svg = el("svg", {"class": "rocci-hover-link", width: fl.width, height: fl.height,
                           "data-w": w, "data-fpr": fpr, "data-tpr": tpr});
    svg.style.cssText = "position:absolute;left:0;top:0;pointer-events:none";
    const clip = el("clipPath", {id: "rocci-hover-clip"});
    clip.appendChild(el("rect", {x: xa._offset, y: ya._offset, width: xa._length, height: ya._length}));
    svg.appendChild(clip);
    svg.appendChild(el("line", {x1: px(x0), y1: py(y0), x2: px(x1), y2: py(y1), stroke: "#000000",
                                "stroke-width": 2, "stroke-dasharray": "6,3", "clip-path": "url(#rocci-hover-clip)"}));
    svg.appendChild(el("circle", {cx: px(fpr), cy: py(tpr), r: 8, fill: "none", stroke: "#000000",
                                  "stroke-width": 3}));
    (roc.querySelector(".svg-container") || roc).appendChild(svg);
  }
  function attach() {
    const cost = chart("cost_chart", 0), roc = chart("cost_roc", 1);
    if (!cost || !roc || typeof cost.on !== "function" || cost.__rocciLinked) return;
    cost.__rocciLinked = true;
    cost.on("plotly_hover", function (ev) {
      const p = (ev.points || []).find(function (q) {
        const m = q.data && q.data.meta;
        return m && m[0] === "cost-band-hover" && m[1] === window.__rocciCostModel;
      });
      if (p && p.customdata) draw(chart("cost_roc", 1), p.x, +p.customdata[3], +p.customdata[4]);
    });
    cost.on("plotly_unhover", function () { clear(chart("cost_roc", 1)); });
  }
  setInterval(attach, 400);
})();
</script>
"""


def hover_link(model: str) -> None:
    """Hovering the cost chart highlights that w's ROC point and iso-performance line (see HOVER_LINK_JS)."""
    st.html(HOVER_LINK_JS % script_string(model), unsafe_allow_javascript=True)


def script_string(value) -> str:
    """``value`` as a JavaScript string literal safe inside an HTML <script>: every ``<``, ``>`` and ``&``
    written as a \\u escape, so no model name can end the script or open a comment (``</s``, ``<!--``)."""
    return json.dumps(str(value)).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def picked_w(event) -> float | None:
    """The w of the point clicked on the cost chart (None if nothing is selected)."""
    try:
        points = event.selection.points
    except AttributeError:
        return None
    for point in points or []:
        x = point.get("x") if isinstance(point, dict) else None
        if isinstance(x, (int, float)) and 0.0 <= float(x) <= 1.0:
            return float(x)
    return None


def range_sentence(ranges) -> str:
    """Plain words for each shown model's operating range (shaded in its colour on the chart)."""
    parts = []
    for name, rng in ranges:
        if rng is None:
            parts.append(f"**{md_escape(name)}** never beats both trivial classifiers.")
        else:
            parts.append(f"Operating range of **{md_escape(name)}** (the bar in its colour under the zero line): "
                         f"w from {rng[0]:.3f} to {rng[1]:.3f}, where it beats both trivial classifiers.")
    return " ".join(parts)


def comparison_sentence(cmp, opts: Options) -> str:
    """Plain words for where the ΔC interval excludes 0."""
    level = percent(opts.level)
    runs = plots_cost.sign_runs(cmp.w, cmp.delta_cost_low, cmp.delta_cost_high)
    how = md_escape(plots_cost.interval_text(opts.level, opts.method, opts.bootstrap)) + ", " + size_text(cmp)
    if not runs:
        return (f"At every w shown, the {how} interval for ΔC includes 0: neither model is cheaper at the "
                f"{level} level.")
    parts = []
    for w0, w1, side in runs:
        name = md_escape(opts.model_b if side == "b" else opts.model_a)
        where = f"For w = {w0:.2f}" if w0 == w1 else f"For w between {w0:.2f} and {w1:.2f}"
        parts.append(f"{where}, model **{name}** is cheaper at the {level} level.")
    return " ".join(parts) + f" ({how}, pointwise at 101 values of w; elsewhere the interval includes 0.)"


def results(opts: Options, bands: dict, cmp, curves: dict) -> None:
    report.subheader("Results", anchor=False)
    names = ["Cost intervals"] + (["Comparison"] if cmp is not None else []) + ["ROC hull"]
    tabs = dict(zip(names, st.tabs(names)))
    how = md_escape(plots_cost.interval_text(opts.level, opts.method, opts.bootstrap))
    with tabs["Cost intervals"]:
        frame = pd.concat([b.to_frame().assign(model=str(m)) for m, b in bands.items()], ignore_index=True)
        frame = frame[["model"] + [c for c in frame.columns if c != "model"]]
        report.caption(f"{how} intervals ({size_text(next(iter(bands.values())))}) for the normalised expected cost "
                   "of the optimal threshold at each w.")
        st.dataframe(frame, hide_index=True, column_config=column_config(frame, help=COST_HELP), height=300,
                     key="cost_table")
        first = next(iter(bands.values()))
        download_csv(frame.assign(confidence_level=first.confidence_level, method=first.method,
                                  bootstrap=first.bootstrap, m_pos=first.m_pos, m_neg=first.m_neg,
                                  m_total=first.m_total),
                     label="Download cost intervals (CSV)", file_name="rocci_cost_ci.csv", key="dl_cost")
    if cmp is not None:
        with tabs["Comparison"]:
            frame = cmp.to_frame()[CMP_ORDER]
            report.caption(f"ΔC = cost of **{md_escape(opts.model_a)}** (A) − cost of **{md_escape(opts.model_b)}** "
                       f"(B), each at its own optimal threshold; {how} intervals ({size_text(cmp)}).")
            st.dataframe(frame, hide_index=True, column_config=column_config(frame, help=CMP_HELP), height=300,
                         key="cost_cmp_table")
            download_csv(frame.assign(model_a=opts.model_a, model_b=opts.model_b,
                                      confidence_level=cmp.confidence_level, method=cmp.method,
                                      bootstrap=cmp.bootstrap, m_pos=cmp.m_pos, m_neg=cmp.m_neg,
                                      m_total=cmp.m_total),
                         label="Download the comparison (CSV)", file_name="rocci_cost_compare.csv", key="dl_cost_cmp")
    with tabs["ROC hull"]:
        frame = pd.concat([curves[m].hull_frame().assign(model=str(m)) for m in bands], ignore_index=True)
        frame = frame[["model", "threshold", "fpr", "tpr", "w_low", "w_high"]]
        report.caption("Vertices of the ROC convex hull; each one's cost line is the cost curve for w from w_low to w_high.")
        st.dataframe(frame, hide_index=True, height=300, key="cost_hull_table")
        download_csv(frame, label="Download the hull (CSV)", file_name="rocci_cost_hull.csv", key="dl_cost_hull")


main()
