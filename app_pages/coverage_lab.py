"""Coverage lab: the thesis's simulation studies as a capability.

Pick a preset (a plain name beside its thesis figure number), adjust its
parameters, and see how often each interval method covers the truth.
Threshold-averaging and cost intervals at fixed true thresholds are computed
**exactly** (finite binomial sums, instant); everything else is a seeded
simulation run on a button press with a progress bar, every point carrying its
Monte Carlo standard error.  Plain words first; the thesis's equation and
algorithm numbers are in each preset's "Method" note.

Thin UI: numbers come from :mod:`rocci.coverage` through ui.cache.coverage,
the figure from rocci.plots.coverage.  Choices are bound to the URL.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rocci
from rocci.coverage import EXPERIMENTS
from rocci.bands.coverage import BAND_METHODS
from rocci.coverage.experiments import BANDS, SHAPES
from rocci.coverage.pr import PR_METHODS
from rocci.plots import plotly_config
from rocci.plots.coverage import SERIES_NAMES, coverage_figure
from ui import state
from ui.cache import coverage as cache_coverage
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import ParseError, md_escape, parse_numbers, percent
from ui.controls import error, method_note, page_columns
from ui.frame import page_header
from ui.labels import column_config

#: Short names of the bands for the method pills (the chart and table use BAND_METHODS' full names).
BAND_SHORT = {"exact": "Exact bootstrap", "monte-carlo": "Monte Carlo bootstrap", "sidak": "Šidák, thresholds",
              "vertical-sidak": "Šidák, FPR levels", "campbell-ks": "Campbell KS", "working-hotelling":
              "Working–Hotelling", "pointwise": "Pointwise, unadjusted"}
URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
THR_METHODS = ["wilson", "agresti-coull", "wald", "percentile"]
VERT_METHODS = ["score", "percentile", "kernel", "bootstrap"]
COST_METHODS = ["agresti-coull", "wald"]
#: Short names of the precision-at-recall intervals for the method pills (the chart uses PR_METHODS' names).
PR_SHORT = {"percentile": "Exact bootstrap, percentile", "score": "Exact bootstrap, score",
            "wald": "Wald (exact sd)", "bootstrap": "Monte Carlo bootstrap"}
THRESHOLD_SOURCES = {"true": "True threshold", "data": "From the data"}
NAMES = list(EXPERIMENTS)
#: Typed lists: at most this many values.  FPR (and recall) levels allow more: the vertical-averaging presets draw
#: coverage as a curve over 19 FPR levels (0.05, 0.10, …, 0.95), as the thesis's figures 4.6–4.8 do.
MAX_VALUES = 12
MAX_FPR_LEVELS = 25
#: Parameter widgets have one key per experiment ("fig4.3_n", …): each experiment keeps its own
#: choices (and its own URL parameters), and switching presets never shows another experiment's values.

CAPTION = (
    "A 95% interval should contain the true value in 95% of test sets: does it? Here the scores come from known "
    "populations, so the truth is known, and each preset repeats one of the thesis's checks. Where possible the "
    "answer is computed **exactly** (no randomness); otherwise test sets are **simulated** with a fixed seed and "
    "each point shows its simulation error."
)

#: How the numbers are made, for the Method note under every preset.
HOW = (
    "How coverage is computed: where the interval depends only on binomial counts at a fixed true threshold, "
    "the coverage is an exact finite sum over every possible test set (no simulation noise). Elsewhere it is a "
    "seeded simulation over many test sets, and each point shows ±1.96 Monte Carlo standard errors "
    "(se = √(c(1 − c)/R) for coverage c over R test sets)."
)

#: The summary table's columns in this page's context (labels and formats: ui.labels).
SUMMARY_HELP = {
    "min": "Lowest coverage along the curve.",
    "mean": "Average coverage along the curve.",
    "max": "Highest coverage along the curve.",
}


def _numbers_text(values) -> str:
    return ", ".join(f"{v:g}" for v in values)


def pick_experiment() -> str:
    """The preset, chosen by its plain name; the link keeps the short figure name (``?cov_exp=fig4.6``)."""
    if state.value("cov_exp") not in EXPERIMENTS:
        linked = st.query_params.get("cov_exp")
        state.seed("cov_exp", linked if linked in EXPERIMENTS else NAMES[0], force=True)
    name = st.selectbox(
        "Preset", NAMES, key="cov_exp", format_func=lambda n: EXPERIMENTS[n].choice,
        help="One preset per coverage figure of the thesis. Chapter 4: intervals on ROC curves (threshold and "
        "vertical averaging, one model or the difference of two). Chapter 5: intervals on costs. Then studies "
        "beyond the thesis: simultaneous bands, precision at fixed recall.",
    )
    st.query_params["cov_exp"] = name
    return name


def _text_list(label, key, default, help_, *, low=None, high=None, integer=False, what="value",
               max_count=MAX_VALUES):
    text = st.text_input(label, value=_numbers_text(default), key=key, bind=URL, help=help_)
    values = parse_numbers(text, what=what, low=low, high=high, max_count=max_count)
    if integer:
        if any(v != int(v) or v < 1 for v in values):
            raise ParseError(f"{label}: type whole numbers of at least 1.")
        values = [int(v) for v in values]
    return tuple(values)


def controls(name: str) -> tuple[dict, bool] | None:
    """Parameter widgets for the chosen experiment; None if a typed list is invalid."""
    exp = EXPERIMENTS[name]
    d = exp.defaults
    p: dict = {}
    try:
        small = st.toggle("Quick reduced size", value=False, key=f"{name}_small", bind=URL,
                          help="Start from a small version of the experiment (few points and configurations) "
                          "for a quick look.")
        base = dict(d, **exp.small) if small else d
        pre = f"{name}s" if small else name  # the reduced size has its own widgets (own defaults)
        p["level"] = st.select_slider(
            "Confidence level (target coverage)", LEVELS, value=base["level"] if base["level"] in LEVELS else 0.9,
            format_func=percent, key=f"{pre}_level", bind=URL,
            help="Nominal level of every interval; the dashed line in the chart.")
        if "n" in d and exp.x == "recall":  # n instances in all, a share π of them positive
            p["n"] = int(st.number_input("Instances per test set (n)", min_value=10, max_value=100_000,
                                         value=int(base["n"]), step=100, key=f"{pre}_n", bind=URL,
                                         help="Size of each simulated test set, both classes together: "
                                         "round(π·n) positives (fixed class counts), the rest negatives."))
        elif "n" in d:
            p["n"] = int(st.number_input("Instances per class (n)", min_value=5, max_value=100_000,
                                         value=int(base["n"]), step=10, key=f"{pre}_n", bind=URL,
                                         help="Size of each simulated test set: n positives and n negatives."))
        if "priors" in d:
            p["priors"] = _text_list("Shares of positives π", f"{pre}_priors", base["priors"],
                                     "Fraction of positives in each test set, e.g. 0.01 for 1%; one panel per "
                                     "value.", low=0.0, high=1.0, what="share")
        if "mu" in d:
            p["mu"] = float(st.number_input(
                "Positives' mean μ", min_value=-10.0, max_value=10.0, value=float(base["mu"]), step=0.25,
                format="%g", key=f"{pre}_mu", bind=URL,
                help="Positives score N(μ, 1), negatives N(0, 1): larger μ separates the classes more."))
        if "sizes" in d:
            p["sizes"] = _text_list("Sizes per class", f"{pre}_sizes", base["sizes"],
                                    "One panel per size (n positives and n negatives).", low=5, high=100_000,
                                    integer=True, what="size")
        if "thetas" in d:
            p["thetas"] = _text_list("Locations θ", f"{pre}_thetas", base["thetas"],
                                     "Positives' location θ (negatives at −θ); one panel per value.",
                                     low=0, high=50, what="location")
        if "rhos" in d:
            p["rhos"] = _text_list("Correlations ρ", f"{pre}_rhos", base["rhos"],
                                   "Gaussian-copula correlation of the two models' scores in each class.",
                                   low=-0.99, high=0.99, what="correlation")
        if "shifts" in d:
            p["shifts"] = _text_list("Shifts", f"{pre}_shifts", base["shifts"],
                                     "Model B's positives sit at θ + shift (model A's at θ).", low=0, high=50,
                                     what="shift")
        # Pills, not a multiselect: each choice shows its whole name at any width (multiselect tags are cut).
        if "shapes" in d:
            chosen = st.pills(
                "Score distributions (positives / negatives)", list(SHAPES), selection_mode="multi",
                default=list(base["shapes"]), key=f"{pre}_shapes", bind=URL,
                help="The thesis's five pairs of score distributions (normal, beta, exponential); one panel each.")
            p["shapes"] = tuple(s for s in SHAPES if s in chosen) or tuple(base["shapes"])
            if not chosen:
                st.caption("None chosen: showing the preset's own.")
        if "methods" in d:
            options = (list(BAND_METHODS) if name == BANDS else VERT_METHODS if exp.x == "fpr"
                       else list(PR_METHODS) if exp.x == "recall" else THR_METHODS)
            short = PR_SHORT if exp.x == "recall" else BAND_SHORT
            chosen = st.pills(
                "Interval methods", options, selection_mode="multi", default=list(base["methods"]),
                key=f"{pre}_methods", bind=URL, format_func=lambda m: short.get(m) or SERIES_NAMES.get(m, m),
                help="One line per method. Threshold averaging: the interval for each rate. Vertical averaging: "
                "rocci's exact bootstrap (its score interval, or the percentile of the exact law), kernel "
                "smoothing, and the usual random (Monte Carlo) bootstrap as pROC computes it. Precision at fixed "
                "recall: rocci's exact percentile and score intervals, a Wald interval on the exact bootstrap sd, and "
                "the usual random (Monte Carlo) bootstrap.")
            p["methods"] = tuple(m for m in options if m in chosen) or tuple(base["methods"])
            if not chosen:
                st.caption("None chosen: showing the preset's own.")
        if "method" in d:
            options = COST_METHODS if exp.x == "w" else THR_METHODS
            p["method"] = st.selectbox("Interval method", options, index=options.index(base["method"]),
                                       key=f"{pre}_method", bind=URL, format_func=lambda m: SERIES_NAMES.get(m, m),
                                       help="Agresti–Coull (the thesis's choice for costs) or Wald.")
        if "add" in d:
            p["add"] = float(st.number_input(
                "Agresti pseudo-count per cell", min_value=0.0, max_value=20.0, value=float(base["add"]),
                step=0.125, format="%g", key=f"{pre}_add", bind=URL,
                help="Added to each confusion cell (one model) or paired cell (two models) before the Wald "
                "interval; the thesis's defaults are 2 and ½."))
        if "threshold" in d:
            p["threshold"] = st.segmented_control(
                "Threshold", list(THRESHOLD_SOURCES), format_func=THRESHOLD_SOURCES.get,
                default=base["threshold"], required=True, key=f"{pre}_thr", bind=URL,
                help="True threshold: fixed from the population (exact coverage). From the data: each "
                "simulated test set picks its own threshold (simulation); the target is that threshold's "
                "true value.")
        if "fpr" in d:
            p["fpr"] = _text_list("FPR levels", f"{pre}_fpr", base["fpr"],
                                  f"False positive rates at which the TPR (or ΔTPR) interval is checked (at most "
                                  f"{MAX_FPR_LEVELS}). Each level adds to the simulation time.",
                                  low=0.0, high=1.0, what="FPR level", max_count=MAX_FPR_LEVELS)
        if "recall" in d:
            p["recall"] = _text_list("Recall levels", f"{pre}_recall", base["recall"],
                                     f"Recall values at which the precision interval is checked (at most "
                                     f"{MAX_FPR_LEVELS}); each maps to the nearest level r/n+ with r ≥ 1 positives "
                                     "found.", low=0.0, high=1.0, what="recall level", max_count=MAX_FPR_LEVELS)
        simulated = not cache_coverage.is_exact(name, dict(base, **p))
        if simulated:
            p["replicates"] = int(st.number_input(
                "Simulated test sets", min_value=2, max_value=1_000_000, value=int(base["replicates"]), step=50,
                key=f"{pre}_reps", bind=URL, help="More test sets shrink the Monte Carlo error (se ∝ 1/√R)."))
            p["seed"] = int(st.number_input("Seed", min_value=0, max_value=2**31 - 1, value=int(base["seed"]),
                                            step=1, key=f"{pre}_seed", bind=URL,
                                            help="Same seed and parameters → same numbers."))
            if "n_boot" in d and ({"bootstrap", "monte-carlo"} & set(p.get("methods", ()))):
                p["n_boot"] = int(st.number_input(
                    "Bootstrap resamples (Monte Carlo baseline)", min_value=20, max_value=10_000,
                    value=int(base["n_boot"]), step=100, key=f"{pre}_boot", bind=URL,
                    help="Resamples of the Monte Carlo percentile bootstrap (pROC's default is 2000)."))
    except ParseError as exc:
        st.warning(md_escape(str(exc)), icon=":material/warning:")
        return None
    return p, small


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (panel, series), part in frame.groupby(["panel", "series"], sort=False):
        i = part["coverage"].idxmin()
        rows.append({"panel": panel, "series": SERIES_NAMES.get(series, series), "min": part["coverage"].min(),
                     "mean": part["coverage"].mean(), "max": part["coverage"].max(),
                     "x_at_min": part.loc[i, "x"], "max_se": part["se"].max()})
    return pd.DataFrame(rows)


def show(study) -> None:
    exp = study.experiment
    frame = study.frame
    kinds = set(frame["kind"])
    if kinds == {"exact"}:
        how = "Exact coverage (finite binomial sums at the true thresholds; no simulation noise)"
    else:
        reps = int(frame.loc[frame["kind"] == "simulation", "replicates"].max())
        how = (f"Simulated coverage over {reps:,} test sets per configuration (seed {study.params['seed']}), "
               "error bars ±1.96 Monte Carlo standard errors")
        if "exact" in kinds:
            how += "; exact values without bars"
    st.caption(f"{how}. Target {percent(study.target)} (dashed line): a method whose line stays on it gives the "
               "coverage it promises; below it, its intervals are too narrow (overconfident); above, too wide.")
    fig = coverage_figure(study)
    st.plotly_chart(fig, key="cov_chart", width="stretch",
                    config=plotly_config(image_format=image_format(), filename=f"rocci_coverage_{exp.name}"))
    table = summary(frame)
    widths = {c: "small" for c in ("min", "mean", "max", "x_at_min", "max_se")}
    st.dataframe(table, hide_index=True, column_config=column_config(table, help=SUMMARY_HELP, width=widths),
                 key="cov_summary")
    params = ", ".join(f"{k}={v}" for k, v in study.params.items() if k not in ("rates", "w", "fpr", "recall"))
    download_csv(frame.assign(parameters=params), label="Download coverage (CSV)",
                 file_name=f"rocci_coverage_{exp.name}.csv", key="dl_cov",
                 help="One row per panel, series and x: coverage, Monte Carlo se, target, exact or simulated.")


def main() -> None:
    page_header("Coverage lab", CAPTION)  # not page_frame: no data, and the columns come after the preset
    name = pick_experiment()
    exp = EXPERIMENTS[name]
    st.markdown(f"#### {md_escape(exp.label)}")
    st.markdown(md_escape(exp.description))
    method_note(f"{md_escape(exp.method)} {md_escape(HOW)}")
    left, right = page_columns((1.3, 3))
    with left:
        with st.container(border=True):
            got = controls(name)
    if got is None:
        return
    params, small = got
    with right:
        try:
            study = cache_coverage.stored_study(name, small, params)
        except rocci.InputError as exc:
            error(str(exc))
            return
        if study is None:
            slot = st.empty()
            with slot.container():
                st.info("This preset is simulated. Press **Run simulation**; a progress bar shows how far it "
                        "is. At the defaults it takes from a few seconds to under a minute.",
                        icon=":material/science:")
                run = st.button("Run simulation", key="cov_run", icon=":material/play_arrow:", type="primary")
            if not run:
                return
            slot.empty()
            bar = st.progress(0.0, text="Simulating test sets…")
            try:
                study = cache_coverage.simulate_study(
                    name, small, params,
                    progress=lambda f, msg: bar.progress(min(max(float(f), 0.0), 1.0), text=md_escape(msg)))
            except rocci.InputError as exc:
                bar.empty()
                error(str(exc))
                return
            bar.empty()
        show(study)


main()
