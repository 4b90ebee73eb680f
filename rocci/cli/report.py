"""``rocci report``: one self-contained HTML file of a table's models, like the dashboard's report.

The report holds, each with its table (attached in full as CSV):

1. the data: rows read, used and dropped, the classes, one summary row per model
   (:func:`rocci.data.summarize`);
2. the ROC curves with each model's AUC and DeLong interval (:func:`rocci.roc_auc`) and exact bootstrap
   threshold-averaging regions at a few total positive rates (:func:`rocci.threshold_ci`);
3. the cost curves with their pointwise exact bootstrap band (:func:`rocci.cost_ci`, least-cost threshold at
   each of 101 operating points) and each model's cost at the operating condition (by default the data's
   prior with equal costs, so ``w`` = the share of positives);
4. two models: the verdict of ``rocci compare`` (:mod:`rocci.cli.verdict`) and the exact law of ΔTPR;
   three or more: the leaderboard and every pair (:func:`rocci.compare_many`).

The HTML is :class:`rocci.plots.report.Report`'s, the dashboard's own: plotly.js inlined once (the file works
offline and loads nothing), everything from the data escaped.  Figures need plotly, imported only here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pandas as pd

from .._core.errors import InputError
from ..compare import compare_many
from ..cost import cost_ci, cost_curve
from ..data import summarize
from ..roc import roc_auc, roc_curve, threshold_ci
from .options import EXIT_OK, percent
from .sources import Dataset, is_scan_source, load_data
from .verdict import GATE_KEYS, Condition, compute_verdict, condition, winner

#: Total positive rates (share of instances flagged) where each model's threshold region is drawn.
TOTAL_POSITIVE_RATES = (0.1, 0.2, 0.3, 0.5)
#: Operating points of the cost band (101 values, 0.3 written 0.3).
W_GRID = tuple(round(float(v), 10) for v in np.linspace(0.0, 1.0, 101))


def run_report(args: Any, out: TextIO, err: TextIO) -> int:
    """Run ``rocci report``: build the report, write the HTML file and say where it is.

    Parameters
    ----------
    args : argparse.Namespace
        The options of ``rocci report`` (:func:`rocci.cli.build_parser`).
    out, err : text streams
        Where the one line naming the file goes; ``err`` is unused.

    Returns
    -------
    int
        0 (bad input, a missing plotly or a file that cannot be written raise :class:`rocci.InputError`).
    """
    plots = _plots()
    if is_scan_source(args.source):
        raise InputError("rocci report reads one file (CSV, TSV, Parquet or xlsx) into memory; for a folder, a glob "
                         "or a database use rocci scan and rocci compare.")
    if args.prior is not None and args.cost is None:
        raise InputError("--prior goes with --cost FN,FP; with --w give the operating point alone.")
    data = load_data(args.source, label=args.label, models=args.models, pos=args.pos)
    cond = condition(cost=args.cost, w=args.w, prior=args.prior, n_pos=data.n_pos, n_neg=data.n_neg)
    if cond is None:
        cond = condition(cost=(1.0, 1.0), w=None, prior=None, n_pos=data.n_pos, n_neg=data.n_neg)
    rep = plots.Report(page=f"report on {Path(args.source).name}")
    level = args.level
    data_section(rep, data, plots)
    roc_section(rep, data, level, plots)
    cost_section(rep, data, level, cond, plots)
    if len(data.models) == 2:
        pair_section(rep, data, level, args.fpr, cond, plots)
    elif len(data.models) > 2:
        many_section(rep, data, level, args.fpr, plots)
    md = plots.md_escape
    page = rep.html(dataset=data.source, details=[
        f"Label column **{md(data.label)}**, {md(data.pos_text())}; models {', '.join(md(m) for m in data.models)}; "
        f"every interval at {md(percent(level))}. Made by the command rocci report."])
    path = Path(args.output)
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"Cannot write the report to {path}: {exc.strerror or exc}.") from None
    n_fig = sum(kind == "figure" for kind, _, _ in rep.items)
    n_tab = sum(kind == "table" for kind, _, _ in rep.items)
    k = len(data.models)
    out.write(f"Wrote {path} ({len(page.encode('utf-8')) / 1024:,.0f} kB): {k} model{'s' * (k != 1)}, {n_fig} figures, "
              f"{n_tab} tables with their CSV.\n")
    return EXIT_OK


class _Plots:
    """rocci.plots' builders the report uses, imported on demand (plotly is optional)."""

    def __init__(self):
        from ..plots import add_threshold_ci, roc_figure
        from ..plots.compare import delta_distribution_figure
        from ..plots.cost import cost_figure, interval_text
        from ..plots.report import Report, md_escape

        self.roc_figure, self.add_threshold_ci = roc_figure, add_threshold_ci
        self.cost_figure, self.interval_text = cost_figure, interval_text
        self.delta_distribution_figure = delta_distribution_figure
        self.Report, self.md_escape = Report, md_escape


def _plots() -> _Plots:
    try:
        return _Plots()
    except ImportError as exc:
        raise InputError("rocci report draws its figures with plotly, which is not installed here: pip install "
                         f"plotly (or pip install 'rocci-exact[app]'). ({exc})") from None


def data_section(rep, data: Dataset, plots: _Plots) -> None:
    """Rows, classes, dropped rows; one summary row per model."""
    md = plots.md_escape
    rep.add_heading("Data")
    rep.add_metric("Rows used", f"{data.n_used:,}", help="Rows with the label and every score present.")
    rep.add_metric("Positives", f"{data.n_pos:,}")
    rep.add_metric("Negatives", f"{data.n_neg:,}")
    rep.add_metric("Rows dropped", f"{data.rows_dropped:,}", help="Rows missing the label or a score.")
    per_column = ", ".join(f"{md(k)} {v:,}" for k, v in data.dropped_by_column.items() if v)
    rep.add_caption(f"{data.n_rows:,} rows read from {md(data.source)}; label column **{md(data.label)}**, "
                    f"{md(data.pos_text())}. {data.rows_dropped:,} rows dropped for a missing value"
                    + (f" ({per_column})." if per_column else "."))
    rep.add_table(summarize(data.prepared), "Data summary")


def roc_section(rep, data: Dataset, level: float, plots: _Plots) -> None:
    """The ROC curves, each model's AUC with its DeLong interval, and threshold regions."""
    md = plots.md_escape
    rep.add_heading("ROC curves")
    curves, aucs, cis = {}, {}, {}
    for m in data.models:
        curves[m] = roc_curve(*data.single(m))
        aucs[m] = roc_auc(*data.single(m), confidence_level=level)
        cis[m] = threshold_ci(*data.single(m), total_positive_rate=list(TOTAL_POSITIVE_RATES),
                              confidence_level=level)
        rep.add_metric(f"AUC · {md(m)}", f"{aucs[m].auc:.4f}", help="Area under the ROC curve.")
        rep.add_caption(f"{percent(level)} DeLong interval [{aucs[m].auc_low:.4f}, {aucs[m].auc_high:.4f}]")
    fig = plots.roc_figure(curves, auc_text={m: f"AUC {aucs[m].auc:.3f}" for m in data.models})
    for i, m in enumerate(data.models):
        plots.add_threshold_ci(fig, cis[m], name=m, color_index=i)
    rep.add_figure(fig, "ROC curves with threshold regions")
    rates = ", ".join(f"{100 * r:g}%" for r in TOTAL_POSITIVE_RATES)
    rep.add_caption(f"Each model's empirical ROC curve; around its points at the thresholds that flag {rates} of "
                    f"the instances, {percent(level)} exact bootstrap Wilson rectangles (threshold averaging).")
    rep.add_table(pd.DataFrame({
        "model": list(data.models), "auc": [aucs[m].auc for m in data.models],
        "auc_std": [aucs[m].auc_std for m in data.models], "auc_low": [aucs[m].auc_low for m in data.models],
        "auc_high": [aucs[m].auc_high for m in data.models], "method": "delong", "confidence_level": level,
    }), "AUC with DeLong intervals")
    rep.add_table(_stacked({m: cis[m].to_frame() for m in data.models}), "Threshold regions")


def cost_section(rep, data: Dataset, level: float, cond: Condition, plots: _Plots) -> None:
    """The cost curves with their exact band, and each model's cost at the operating condition."""
    md = plots.md_escape
    rep.add_heading("Cost curves")
    envelopes, bands, current, ranges = {}, {}, {}, []
    for m in data.models:
        curve = cost_curve(*data.single(m))
        envelopes[m] = curve.at(list(np.union1d(W_GRID, curve.breakpoints)))
        bands[m] = cost_ci(*data.single(m), w=list(W_GRID), confidence_level=level)
        current[m] = cost_ci(*data.single(m), w=[cond.w], confidence_level=level)
        ranges.append((m, curve.operating_range))
        cur = current[m]
        rep.add_metric(f"Cost at w = {cond.w:.3f} · {md(m)}", f"{float(cur.cost[0]):.4f}",
                       help="Normalised expected cost of the least-cost threshold at this w.")
        rep.add_caption(f"threshold score ≥ {float(cur.threshold[0]):.6g}; interval "
                        f"[{float(cur.cost_low[0]):.4f}, {float(cur.cost_high[0]):.4f}]")
    how = plots.interval_text(level, "agresti-coull", "stratified")
    fig = plots.cost_figure(envelopes, bands=bands, current=current, operating_range=ranges)
    rep.add_figure(fig, "Cost curves with their bands")
    rep.add_caption(f"Bold: each model's cost curve (the lower envelope of its cost lines); shaded: {md(how)} "
                    f"pointwise intervals at 101 values of w, each for the least-cost threshold there; the marked "
                    f"operating condition: {md(cond.describe())}. Dashed: the trivial classifiers.")
    rep.add_table(_stacked({m: current[m].to_frame() for m in data.models}), "Cost at the operating condition")
    rep.add_table(_stacked({m: bands[m].to_frame() for m in data.models}), "Cost band")


def pair_section(rep, data: Dataset, level: float, fpr: float, cond: Condition, plots: _Plots) -> None:
    """Two models: the verdict of ``rocci compare`` and the exact law of ΔTPR."""
    md = plots.md_escape
    a, b = data.models
    v, results = compute_verdict(data, a, b, fpr=fpr, level=level, cond=cond)
    rep.add_heading(f"{md(a)} (A) against {md(b)} (B)")
    if v["delta_auc"] is not None:
        rep.add_metric("ΔAUC, A − B", f"{v['delta_auc']:+.4f}", help="Difference of the areas under the ROC curves.")
        rep.add_caption(f"{percent(level)} DeLong interval [{v['delta_auc_low']:+.4f}, {v['delta_auc_high']:+.4f}], "
                        f"p = {v['pvalue']:.3g}: {md(winner(v['delta_auc_low'], v['delta_auc_high'], a, b))}")
    if v["delta_tpr"] is not None:
        rep.add_metric(f"ΔTPR at FPR {v['fpr']:.3f}, A − B", f"{v['delta_tpr']:+.4f}",
                       help="Difference of the true positive rates, both models at the same false positive rate.")
        rep.add_caption(f"exact paired bootstrap percentile interval [{v['delta_tpr_low']:+.4f}, "
                        f"{v['delta_tpr_high']:+.4f}]; P(A better) = {v['p_a_better']:.4f}: "
                        f"{md(winner(v['delta_tpr_low'], v['delta_tpr_high'], a, b))}")
    if v["delta_cost"] is not None:
        rep.add_metric(f"ΔCost at w = {cond.w:.3f}, A − B", f"{v['delta_cost']:+.4f}",
                       help="Normalised expected cost of A − that of B, each at its least-cost threshold.")
        rep.add_caption(f"Agresti–Coull interval [{v['delta_cost_low']:+.4f}, {v['delta_cost_high']:+.4f}]; "
                        f"P(A cheaper) = {v['p_a_cheaper']:.4f}: "
                        + md(winner(v["delta_cost_low"], v["delta_cost_high"], a, b, higher_is_better=False,
                                    better="cheaper")))
    for what, why in v["unavailable"].items():
        rep.add_caption(f"Not available ({what}): {md(why)}")
    if "vertical" in results:
        vc = results["vertical"]
        values, probs = vc.distribution(0)
        rep.add_figure(plots.delta_distribution_figure(values, probs, low=v["delta_tpr_low"],
                                                       high=v["delta_tpr_high"], level=level),
                       f"Exact bootstrap law of ΔTPR at FPR {v['fpr']:.3f}")
    rows = [(k, v[k], GATE_KEYS[k]) for k in GATE_KEYS if v.get(k) is not None]
    rep.add_caption("The numbers of rocci compare (its --json keys, which --gate can test).")
    rep.add_table(pd.DataFrame(rows, columns=["key", "value", "meaning"]), "Comparison of the two models")


def many_section(rep, data: Dataset, level: float, fpr: float, plots: _Plots) -> None:
    """Three models or more: the leaderboard, the test that all AUCs are equal, every pair."""
    prep = data.prepared
    many = compare_many(prep.is_positive, {m: prep.scores[m] for m in data.models}, confidence_level=level, fpr=fpr)
    rep.add_heading("All models compared")
    rep.add_metric("All AUCs equal: p-value", f"{many.pvalue:.3g}",
                   help="DeLong's chi-squared test that every model has the same AUC.")
    rep.add_caption(f"χ² = {many.chi2:.4g} with {many.df} degrees of freedom.")
    rep.add_caption(f"Highest AUC first, with {percent(level)} DeLong intervals, P(best AUC) and each model's TPR "
                    f"at FPR {fpr:g}.")
    rep.add_table(many.leaderboard(), "Leaderboard")
    rep.add_caption(f"Every pair (A − B): DeLong's test with {many.adjust}-adjusted p-values and simultaneous "
                    "intervals; ΔTPR at the FPR with its exact paired law.")
    rep.add_table(many.to_frame(), "Every pair")


def _stacked(frames: dict) -> pd.DataFrame:
    """One table of several models' tables, with a ``model`` column first."""
    return pd.concat([f.assign(model=m)[["model", *f.columns]] for m, f in frames.items()], ignore_index=True)
