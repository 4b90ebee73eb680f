"""The thesis's coverage experiments by name ("fig4.2" … "fig5.12"), and studies beyond it ("bands", "pr_recall").

Each :class:`Experiment` has a short description, the x axis of the thesis's
figure (total positive rate, FPR, operating point ``w``; beyond the thesis: ``n``, recall), the target
level, default parameters (the thesis's, except where noted as reduced for
speed) and a runner.  :func:`run_experiment` returns a :class:`CoverageStudy`
whose :meth:`~CoverageStudy.to_frame` is tidy: one row per
``(panel, series, x)`` with ``coverage``, Monte Carlo ``se`` (0 for exact
values), ``target`` and ``kind`` ("exact" or "simulation").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from .._core.inputs import InputError
from . import populations as P
from .exact import cost_coverage, paired_threshold_coverage, threshold_coverage_curve
from .pr import PR_METHODS, simulate_precision_coverage
from .simulate import (
    simulate_cost_coverage,
    simulate_paired_cost_coverage,
    simulate_paired_vertical_coverage,
    simulate_threshold_coverage,
    simulate_vertical_coverage,
)

__all__ = ["Experiment", "CoverageStudy", "EXPERIMENTS", "run_experiment", "list_experiments", "SHAPES"]

X_LABELS = {
    "total_positive_rate": "Total positive rate",
    "fpr": "False positive rate",
    "w": "Operating point w",
    "n": "Instances per class (n)",
    "recall": "Recall",
}

#: The shape experiment's five pairs (thesis §4.5.1).
SHAPES = {
    "N(1,1) / N(0,1)": (P.normal(1, 1), P.normal(0, 1)),
    "N(2,2) / N(0,1)": (P.normal(2, 2), P.normal(0, 1)),
    "β(2,4) / β(2,3)": (P.beta(2, 4), P.beta(2, 3)),
    "β(1.2,2) / β(1.2,3)": (P.beta(1.2, 2), P.beta(1.2, 3)),
    "exp(3) / exp(2)": (P.exponential(3), P.exponential(2)),
}

RATES = tuple(np.round(np.arange(1, 100) / 100, 2))
W_GRID = tuple(np.round(np.arange(0, 101) / 100, 2))
FPR_GRID = tuple(np.round(np.arange(1, 20) / 20, 2))
RECALL_GRID = tuple(np.round(np.arange(1, 10) / 10, 2))


@dataclass(frozen=True)
class Experiment:
    """One named experiment.

    Attributes
    ----------
    name : str
        The thesis's figure ("fig4.6").
    title : str
        A plain name: what is checked, against what, over which settings
        ("Vertical averaging: coverage vs FPR, score shapes").
    description : str
        In plain words: the question the experiment answers and its size.
    x : {"total_positive_rate", "fpr", "w", "n", "recall"}
    kind : {"exact", "simulation", "mixed"}
    defaults : dict
        Parameters and their default values (tuples for lists).
    small : dict
        Overrides for a quick run (tests, smoke runs).
    runner : callable
        ``runner(params, progress) -> DataFrame`` with columns
        ``panel, series, x, coverage, se, kind, replicates``.
    method : str
        The technical note: distributions, parameters, the thesis's
        equations, algorithms and sections, and any reduction of its setup.
    short : str
        A compact plain name for a chooser on a phone ("Vertical averaging,
        score shapes"; at most 40 characters).
    """

    name: str
    title: str
    description: str
    x: str
    kind: str
    defaults: dict
    small: dict
    runner: Callable = field(repr=False)
    method: str = ""
    short: str = ""

    @property
    def x_label(self) -> str:
        return X_LABELS[self.x]

    @property
    def figure(self) -> str:
        """The thesis's figure number: "fig4.6" -> "4.6" ("" for an experiment beyond the thesis)."""
        return self.name.removeprefix("fig") if self.name.startswith("fig") else ""

    @property
    def label(self) -> str:
        """Plain name beside the figure: "Vertical averaging: … (thesis fig. 4.6)"."""
        return f"{self.title} (thesis fig. {self.figure})" if self.figure else self.title

    @property
    def choice(self) -> str:
        """Compact name beside the figure, for a chooser: "Vertical averaging, score shapes (fig. 4.6)"."""
        return f"{self.short or self.title} (fig. {self.figure})" if self.figure else (self.short or self.title)


@dataclass(repr=False)
class CoverageStudy:
    """Result of :func:`run_experiment`.

    Attributes
    ----------
    experiment : Experiment
    params : dict
        The parameters used (defaults updated by the caller's).
    frame : pandas.DataFrame
        Tidy: ``experiment, panel, series, x, coverage, se, target, kind, replicates``.
    """

    experiment: Experiment
    params: dict
    frame: pd.DataFrame

    @property
    def target(self) -> float:
        return float(self.params["level"])

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()

    def __len__(self) -> int:
        return len(self.frame)

    def __repr__(self) -> str:
        return (f"CoverageStudy({self.experiment.name!r}: {self.experiment.title}; "
                f"{len(self.frame)} rows, target {self.target:g})")


def _tidy(df, x, panel, series, kind, replicates=0):
    return pd.DataFrame({
        "panel": panel, "series": series, "x": df[x].to_numpy(), "coverage": df["coverage"].to_numpy(),
        "se": df["se"].to_numpy() if "se" in df else 0.0, "kind": kind,
        "replicates": df["replicates"].to_numpy() if "replicates" in df else replicates,
    })


class _Steps:
    """Splits the progress bar over the configurations of an experiment."""

    def __init__(self, progress, total):
        self.progress, self.total, self.i = progress, max(total, 1), 0

    def sub(self, label):
        i = self.i
        self.i += 1
        if self.progress is None:
            return None
        return lambda f, msg: self.progress((i + f) / self.total, f"{label}: {msg}")

    def done(self, label):
        if self.progress is not None:
            self.progress(min(self.i / self.total, 1.0), label)


# ---------------------------------------------------------------------------
# Runners
# ---------------------------------------------------------------------------


def _threshold_rows(pop, n, p, panel, steps, label_prefix=""):
    out = []
    for method in p["methods"]:
        series = f"{label_prefix}{method}" if len(p["methods"]) > 1 or label_prefix else method
        if p["threshold"] == "true" and p.get("design", "stratified") == "stratified":
            df = threshold_coverage_curve(pop, n, n, p["rates"], confidence_level=p["level"], method=method,
                                          add=p["add"])
            out.append(_tidy(df, "total_positive_rate", panel, series, "exact"))
            steps.done(f"{panel} ({series})")
        else:
            df = simulate_threshold_coverage(pop, n, n, p["rates"], confidence_level=p["level"], method=method,
                                             add=p["add"], threshold=p["threshold"],
                                             design=p.get("design", "stratified"), replicates=p["replicates"],
                                             seed=p["seed"], progress=steps.sub(f"{panel} ({series})"))
            out.append(_tidy(df, "total_positive_rate", panel, series, "simulation"))
    return out


def _run_shape(p, progress):
    shapes = [s for s in p["shapes"]]
    steps = _Steps(progress, len(shapes) * len(p["methods"]))
    out = []
    for name in shapes:
        if name not in SHAPES:
            raise InputError(f"Unknown shape {name!r}; choose from {', '.join(SHAPES)}.")
        pos, neg = SHAPES[name]
        out += _threshold_rows(P.Population(pos, neg), p["n"], p, name, steps)
    return pd.concat(out, ignore_index=True)


def _run_dispersion(p, progress):
    steps = _Steps(progress, len(p["thetas"]) * len(p["methods"]))
    out = []
    for theta in p["thetas"]:
        pop = P.binormal(theta, p["scale_pos"], p["scale_neg"])
        out += _threshold_rows(pop, p["n"], p, f"θ = {theta:g}", steps)
    return pd.concat(out, ignore_index=True)


def _run_size(p, progress):
    steps = _Steps(progress, len(p["sizes"]) * len(p["methods"]))
    out = []
    pop = P.binormal(p["theta"], p["scale_pos"], p["scale_neg"])
    for n in p["sizes"]:
        out += _threshold_rows(pop, int(n), p, f"n = {int(n):,}", steps)
    return pd.concat(out, ignore_index=True)


def _run_full_vs_stratified(p, progress):
    steps = _Steps(progress, len(p["sizes"]) * 2)
    out = []
    pop = P.binormal(p["theta"], p["scale_pos"], p["scale_neg"])
    for n in p["sizes"]:
        panel = f"n = {int(n):,}"
        for design in ("stratified", "full"):
            q = dict(p, design=design, methods=(p["method"],))
            rows = _threshold_rows(pop, int(n), q, panel, steps)
            for r in rows:
                r["series"] = design
            out += rows
    return pd.concat(out, ignore_index=True)


def _pairs(p, scale_pos, scale_neg):
    for theta in p["thetas"]:
        for rho in p["rhos"]:
            for shift in p["shifts"]:
                a = P.binormal(theta, scale_pos, scale_neg)
                b = P.Population(P.normal(theta + shift, scale_pos), P.normal(-theta, scale_neg))
                yield theta, rho, shift, P.CorrelatedPair(a, b, rho)


def _run_roc_differences(p, progress):
    configs = list(_pairs(p, p["scale_pos"], p["scale_neg"]))
    steps = _Steps(progress, len(configs))
    out = []
    for theta, rho, shift, pair in configs:
        df = paired_threshold_coverage(pair, p["n"], p["n"], p["rates"], confidence_level=p["level"])
        out.append(_tidy(df, "total_positive_rate", f"θ = {theta:g}, ρ = {rho:g}", f"shift {shift:g}", "exact"))
        steps.done(f"θ = {theta:g}, ρ = {rho:g}, shift {shift:g}")
    return pd.concat(out, ignore_index=True)


def _run_vertical(populations, p, progress):
    steps = _Steps(progress, len(populations))
    out = []
    for panel, pop, n in populations:
        df = simulate_vertical_coverage(pop, n, n, p["fpr"], confidence_level=p["level"], methods=p["methods"],
                                        n_boot=p["n_boot"], replicates=p["replicates"], seed=p["seed"],
                                        progress=steps.sub(panel))
        df = df.rename(columns={"method": "series"})
        df["panel"] = panel
        df["kind"] = "simulation"
        out.append(df.rename(columns={"fpr": "x"}))
    return pd.concat(out, ignore_index=True)


def _run_vertical_shape(p, progress):
    return _run_vertical([(s, P.Population(*SHAPES[s]), p["n"]) for s in p["shapes"]], p, progress)


def _run_vertical_dispersion(p, progress):
    return _run_vertical([(f"θ = {t:g}", P.binormal(t, p["scale_pos"], p["scale_neg"]), p["n"])
                          for t in p["thetas"]], p, progress)


def _run_vertical_size(p, progress):
    pop = P.binormal(p["theta"], p["scale_pos"], p["scale_neg"])
    return _run_vertical([(f"n = {int(n):,}", pop, int(n)) for n in p["sizes"]], p, progress)


def _run_vertical_differences(p, progress):
    configs = list(_pairs(p, p["scale_pos"], p["scale_neg"]))
    steps = _Steps(progress, len(configs))
    out = []
    for theta, rho, shift, pair in configs:
        label = f"θ = {theta:g}, ρ = {rho:g}"
        df = simulate_paired_vertical_coverage(pair, p["n"], p["n"], p["fpr"], confidence_level=p["level"],
                                               replicates=p["replicates"], seed=p["seed"],
                                               progress=steps.sub(f"{label}, shift {shift:g}"))
        for method, part in df.groupby("method", sort=False):
            name = {"score": "Score interval", "percentile": "Percentile"}[method]
            out.append(_tidy(part, "fpr", label, f"{name}, shift {shift:g}", "simulation"))
    return pd.concat(out, ignore_index=True)


def _cost_rows(pop, n, p, panel, series, steps):
    design, formulas = p["design"], p["formulas"]
    if design == "stratified" and p["threshold"] == "true":
        df = cost_coverage(pop, n, n, p["w"], confidence_level=p["level"], method=p["method"], add=p["add"],
                           formulas=formulas)
        steps.done(panel)
        return _tidy(df, "w", panel, series, "exact")
    df = simulate_cost_coverage(pop, n, n, p["w"], confidence_level=p["level"], method=p["method"], add=p["add"],
                                formulas=formulas, design=design, threshold=p["threshold"],
                                replicates=p["replicates"], seed=p["seed"], progress=steps.sub(panel))
    return _tidy(df, "w", panel, series, "simulation")


def _run_cost_dispersion(p, progress):
    steps = _Steps(progress, len(p["thetas"]))
    series = f"{p['design']} data, {p['formulas']} formulas"
    return pd.concat([_cost_rows(P.binormal(t, p["scale"], p["scale"]), p["n"], p, f"θ = {t:g}", series, steps)
                      for t in p["thetas"]], ignore_index=True)


def _run_cost_size(p, progress):
    steps = _Steps(progress, len(p["sizes"]))
    pop = P.binormal(p["theta"], p["scale"], p["scale"])
    series = f"{p['design']} data, {p['formulas']} formulas"
    return pd.concat([_cost_rows(pop, int(n), p, f"n = {int(n):,}", series, steps) for n in p["sizes"]],
                     ignore_index=True)


def _run_cost_differences(p, progress):
    configs = list(_pairs(p, p["scale"], p["scale"]))
    steps = _Steps(progress, len(configs))
    out = []
    for theta, rho, shift, pair in configs:
        label = f"θ = {theta:g}, shift {shift:g}"
        df = simulate_paired_cost_coverage(pair, p["n"], p["n"], p["w"], confidence_level=p["level"],
                                           method=p["method"], add=p["add"], formulas=p["formulas"],
                                           design=p["design"], replicates=p["replicates"], seed=p["seed"],
                                           progress=steps.sub(f"{label}, ρ = {rho:g}"))
        out.append(_tidy(df, "w", label, f"ρ = {rho:g}", "simulation"))
    return pd.concat(out, ignore_index=True)


# ---------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------

_THR = dict(rates=RATES, methods=("wilson",), add=2.0, threshold="true", replicates=1000, seed=0)
_DISP = dict(thetas=(0.75, 1.5, 3.0, 5.0), scale_pos=3.75, scale_neg=3.0)
_VERT = dict(fpr=FPR_GRID, methods=("score", "percentile", "kernel", "bootstrap"), n_boot=500, replicates=200,
             seed=0)
_DIFF = dict(thetas=(1.0, 3.0), rhos=(0.3, 0.6, 0.9), shifts=(0.0, 2.0, 4.0))
_COST = dict(w=W_GRID, method="agresti-coull", add=2.0, design="stratified", formulas="stratified",
             threshold="true", replicates=2000, seed=0, scale=3.0)
_COST_DIFF = dict(_COST, add=0.5, n=1000, level=0.9, replicates=4000, **_DIFF)

EXPERIMENTS: dict[str, Experiment] = {}


#: Compact names for the preset chooser (the full plain name is the title).
_SHORT = {
    "fig4.2": "Threshold averaging, score shapes",
    "fig4.3": "Threshold averaging, class separation",
    "fig4.4": "Threshold averaging, sample size",
    "fig4.5": "Two models, threshold averaging",
    "fig4.6": "Vertical averaging, score shapes",
    "fig4.7": "Vertical averaging, class separation",
    "fig4.8": "Vertical averaging, sample size",
    "fig4.9": "Two models, vertical averaging",
    "fig4.10": "Fixed vs random class counts",
    "fig5.1": "Cost, class separation",
    "fig5.2": "Cost, sample size",
    "fig5.3": "Two models, cost",
    "fig5.4": "Cost, random counts, full interval",
    "fig5.5": "Cost, random counts, fixed-n interval",
    "fig5.6": "Two models, cost, random counts",
    "fig5.7": "Cost, +2 per cell (the usual)",
    "fig5.8": "Cost, +0.5 per cell (too few)",
    "fig5.9": "Cost, +3 per cell (too many)",
    "fig5.10": "Two models, +½ per cell (the usual)",
    "fig5.11": "Two models, +⅛ per cell (too few)",
    "fig5.12": "Two models, +1 per cell (too many)",
}


def _register(name, title, description, x, kind, defaults, small, runner, method):
    EXPERIMENTS[name] = Experiment(name, title, description, x, kind, dict(defaults), dict(small), runner,
                                   method=method, short=_SHORT[name])


_SHAPES_TEXT = ("N(1,1)/N(0,1), N(2,2)/N(0,1), β(2,4)/β(2,3), β(1.2,2)/β(1.2,3) and exp(3)/exp(2) for "
                "positives/negatives (§4.5.1)")
_RATES_TEXT = "Total positive rates 0.01, 0.02, …, 0.99."
_W_TEXT = "Operating points w = 0, 0.01, …, 1."
_VERT_TEXT = (" Intervals for the TPR at a fixed FPR: rocci's exact bootstrap with the score interval of Algorithm "
              "4.3 and with the percentile of the exact law, kernel smoothing (Gaussian kernels, Hall–Hyndman "
              "reference bandwidth, as in the thesis) and the Monte Carlo percentile bootstrap as pROC computes it. "
              "FPR levels 0.05, 0.10, …, 0.95 (19 levels, so that coverage is drawn as a curve like the thesis's "
              "figure). Simulated coverage, ±1.96 Monte Carlo standard errors.")
_COST_TEXT = (" Cost intervals at the true cost-minimising threshold from the mean and variance of eqs. 5.4–5.5, "
              "adjusted Wald (Agresti–Coull, §5.4) with a pseudo-count per confusion cell.")

_register("fig4.2", "Threshold averaging: coverage vs positive rate, score shapes",
          "Does the confidence box around a ROC point hold its level? Five pairs of score distributions of "
          "different shapes, 100 positives and 100 negatives, 95% target.",
          "total_positive_rate", "exact", dict(_THR, shapes=tuple(SHAPES), n=100, level=0.95),
          dict(rates=(0.1, 0.5, 0.9), shapes=tuple(SHAPES)[:2]), _run_shape,
          f"Score pairs {_SHAPES_TEXT}; n = 100 per class; α = 5%. Rectangular region at the true threshold: a Wilson "
          "score interval (eq. 4.2) on each axis at level √(1 − α) (Algorithm 4.1); exact coverage as a finite "
          "binomial sum. " + _RATES_TEXT)
_register("fig4.3", "Threshold averaging: coverage vs positive rate, class separation",
          "Does the confidence box around a ROC point hold its level when the classes overlap a lot or hardly "
          "at all? 10,000 positives and 10,000 negatives, 90% target (note the dip at positive rate 0.13 for the "
          "best-separated classes).",
          "total_positive_rate", "exact", dict(_THR, **_DISP, n=10000, level=0.9),
          dict(rates=(0.13, 0.14), thetas=(5.0,)), _run_dispersion,
          "Binormal N(θ, 3.75) positives vs N(−θ, 3) negatives, θ ∈ {0.75, 1.5, 3, 5}; n = 10,000 per class; "
          "α = 10%. Wilson region at the true threshold (eq. 4.2, each axis at √(1 − α)), exact coverage "
          "(finite binomial sum). "
          + _RATES_TEXT)
_register("fig4.4", "Threshold averaging: coverage vs positive rate, sample size",
          "Does the confidence box around a ROC point hold its level for small and large test sets? 25 to "
          "10,000 instances per class, 90% target.", "total_positive_rate", "exact",
          dict(_THR, sizes=(25, 250, 2500, 10000), theta=3.0, scale_pos=3.75, scale_neg=3.0, level=0.9),
          dict(rates=(0.1, 0.5), sizes=(25, 250)), _run_size,
          "Binormal N(3, 3.75) vs N(−3, 3); n ∈ {25, 250, 2,500, 10,000} per class; α = 10%. Wilson region at the "
          "true threshold (eq. 4.2, each axis at √(1 − α)), exact coverage. " + _RATES_TEXT)
_register("fig4.5", "Two models, threshold averaging: coverage vs positive rate",
          "Does the confidence box for the difference between two correlated models hold its level? 100 "
          "instances per class, 90% target; one panel per class separation and correlation, one line per gap "
          "between the models.", "total_positive_rate", "exact",
          dict(_DIFF, rates=RATES, n=100, level=0.9, scale_pos=3.75, scale_neg=3.0),
          dict(rates=(0.2, 0.5), thetas=(1.0,), rhos=(0.6,), shifts=(0.0, 2.0)), _run_roc_differences,
          "Two binormal models joined by a Gaussian copula (ρ ∈ {.3, .6, .9}); model A's positives at "
          "θ ∈ {1, 3}, model B's at θ + shift, shift ∈ {0, 2, 4}; negatives at −θ; scales 3.75 and 3; n = 100; "
          "α = 10%. Rectangle ΔFPR × ΔTPR, each side a score interval at √(1 − α) (eqs. 4.8–4.9); exact coverage "
          "(trinomial sums). " + _RATES_TEXT)
_register("fig4.6", "Vertical averaging: coverage vs FPR, score shapes",
          "Do the intervals for the true-positive rate at a fixed false-positive rate hold their level? rocci's "
          "exact bootstrap beside kernel smoothing and the usual random bootstrap, for five shapes of score "
          "distributions, 100 instances per class, 95% target.",
          "fpr", "simulation", dict(_VERT, shapes=tuple(SHAPES), n=100, level=0.95),
          dict(fpr=(0.2, 0.5), shapes=tuple(SHAPES)[:1], replicates=5, n_boot=50), _run_vertical_shape,
          f"Score pairs {_SHAPES_TEXT}; n = 100 per class; α = 5%; 200 test sets by default (the thesis: 1,000)."
          + _VERT_TEXT)
_register("fig4.7", "Vertical averaging: coverage vs FPR, class separation",
          "Do the intervals for the true-positive rate at a fixed false-positive rate hold their level when the "
          "classes overlap a lot or hardly at all? 1,000 instances per class, 90% target.",
          "fpr", "simulation", dict(_VERT, **_DISP, n=1000, level=0.9, replicates=100),
          dict(fpr=(0.2, 0.5), thetas=(0.75,), n=100, replicates=5, n_boot=50), _run_vertical_dispersion,
          "Binormal N(θ, 3.75) vs N(−θ, 3), θ ∈ {0.75, 1.5, 3, 5}; α = 10%. Reduced default for speed: "
          "n = 1,000 per class and 100 test sets (the thesis: n = 10,000 and 1,000 test sets)." + _VERT_TEXT)
_register("fig4.8", "Vertical averaging: coverage vs FPR, sample size",
          "Do the intervals for the true-positive rate at a fixed false-positive rate hold their level for small "
          "and large test sets? 25 to 2,500 instances per class, 90% target.", "fpr", "simulation",
          dict(_VERT, sizes=(25, 250, 2500), theta=3.0, scale_pos=3.75, scale_neg=3.0, level=0.9, replicates=100),
          dict(fpr=(0.2, 0.5), sizes=(25,), replicates=5, n_boot=50), _run_vertical_size,
          "Binormal N(3, 3.75) vs N(−3, 3); n ∈ {25, 250, 2,500} per class (add 10,000 for the thesis's fourth "
          "panel); α = 10%; 100 test sets by default." + _VERT_TEXT)
_register("fig4.9", "Two models, vertical averaging: coverage vs FPR",
          "Does the interval for the difference in true-positive rate between two correlated models, at a fixed "
          "false-positive rate, hold its level? 100 instances per class, 90% target. A small default: the exact "
          "paired computation is slow.", "fpr", "simulation",
          dict(thetas=(1.0,), rhos=(0.3, 0.9), shifts=(0.0, 2.0), fpr=(0.1, 0.3, 0.5, 0.7, 0.9), n=100,
               level=0.9, replicates=10, seed=0, scale_pos=3.75, scale_neg=3.0),
          dict(fpr=(0.5,), rhos=(0.6,), shifts=(0.0,), n=30, replicates=2), _run_vertical_differences,
          "Exact paired vertical intervals for ΔTPR (Algorithm 4.4, rocci.compare_vertical) on the copula pairs of "
          "fig. 4.5; n = 100; α = 10%. Reduced default: θ = 1, ρ ∈ {.3, .9}, shifts {0, 2}, 5 FPR levels, 10 test "
          "sets each (the thesis: every θ, ρ, shift and 1,000 test sets). Simulated coverage.")
_register("fig4.10", "Threshold averaging: fixed vs random class counts",
          "Does it matter whether each test set has exactly n positives and n negatives (stratified) or a random "
          "mix (full)? The sample-size setting, 90% target.",
          "total_positive_rate", "mixed",
          dict(_THR, sizes=(25, 250, 2500, 10000), theta=3.0, scale_pos=3.75, scale_neg=3.0, level=0.9,
               method="wilson", replicates=10000),
          dict(rates=(0.1, 0.5), sizes=(25,), replicates=50), _run_full_vs_stratified,
          "The fig. 4.4 setting with stratified test sets (fixed class counts; exact coverage) and full ones "
          "(class counts ~ Bin(2n, ½); simulated, 10,000 test sets), Wilson region, α = 10% (§4.6). " + _RATES_TEXT)
_register("fig5.1", "Cost: coverage vs w, class separation",
          "Does the interval for a classifier's expected cost hold its level across operating conditions? "
          "1,000 instances per class, 90% target, one panel per class separation.", "w", "exact",
          dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9), dict(w=(0.1, 0.5), thetas=(0.75,)),
          _run_cost_dispersion,
          "N(θ, 3) vs N(−θ, 3), θ ∈ {0.75, 1.5, 3, 5}; n = 1,000 per class; α = 10%; stratified test sets; "
          "exact coverage (finite binomial sum)." + _COST_TEXT + " Pseudo-count 2. " + _W_TEXT)
_register("fig5.2", "Cost: coverage vs w, sample size",
          "Does the interval for a classifier's expected cost hold its level for small and large test sets? "
          "25 to 10,000 instances per class, 90% target.", "w", "exact",
          dict(_COST, sizes=(25, 250, 2500, 10000), theta=3.0, level=0.9),
          dict(w=(0.1, 0.5), sizes=(25,)), _run_cost_size,
          "N(3, 3) vs N(−3, 3); n ∈ {25, 250, 2,500, 10,000}; α = 10%; stratified test sets; exact coverage."
          + _COST_TEXT + " Pseudo-count 2. " + _W_TEXT)
_register("fig5.3", "Two models, cost difference: coverage vs w",
          "Does the interval for the cost difference between two correlated models hold its level? 1,000 "
          "instances per class, 90% target.", "w", "simulation", dict(_COST_DIFF),
          dict(w=(0.1, 0.5), thetas=(1.0,), shifts=(0.0,), rhos=(0.3,), replicates=50), _run_cost_differences,
          "Paired cost-difference interval (eqs. 5.7–5.8) with Agresti–Min's pseudo-count ½ per paired cell; "
          "copula pairs with θ ∈ {1, 3}, shifts {0, 2, 4}, ρ ∈ {.3, .6, .9}; scale 3; n = 1,000; α = 10%; "
          "stratified; 4,000 simulated test sets. " + _W_TEXT)
_register("fig5.4", "Cost, random class counts, full interval: coverage vs w",
          "As the four class separations of fig. 5.1, but each test set has a random mix of classes and the "
          "interval allows for it. 90% target.", "w", "simulation",
          dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9, design="full", formulas="full", replicates=20000),
          dict(w=(0.1, 0.5), thetas=(0.75,), replicates=50), _run_cost_dispersion,
          "fig. 5.1's setting with full test sets (class counts ~ Bin(2n, ½)) and the full-bootstrap interval "
          "(§5.2, eqs. 5.10–5.11); 20,000 simulated test sets." + _COST_TEXT + " " + _W_TEXT)
_register("fig5.5", "Cost, random class counts, fixed-count interval: coverage vs w",
          "As fig. 5.4 (random mix of classes), but the interval assumes fixed class counts. 90% target.", "w",
          "simulation",
          dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9, design="full", formulas="stratified",
               replicates=20000),
          dict(w=(0.1, 0.5), thetas=(0.75,), replicates=50), _run_cost_dispersion,
          "fig. 5.4's full test sets with the stratified interval (§5.1, eqs. 5.4–5.5); 20,000 simulated test sets."
          + _COST_TEXT + " " + _W_TEXT)
_register("fig5.6", "Two models, cost, random class counts: coverage vs w",
          "As fig. 5.3 (two models' cost difference), with a random mix of classes in each test set. 90% "
          "target.", "w", "simulation", dict(_COST_DIFF, design="full"),
          dict(w=(0.1, 0.5), thetas=(1.0,), shifts=(0.0,), rhos=(0.3,), replicates=50), _run_cost_differences,
          "fig. 5.3's paired interval (eqs. 5.7–5.8, stratified formulas) on full test sets (class counts "
          "~ Bin(2n, ½)); 4,000 simulated test sets. " + _W_TEXT)
for _name, _add, _what, _plain in (("fig5.7", 2.0, "2 (Agresti's value)", "2 added per cell (usual)"),
                                   ("fig5.8", 0.5, "0.5 (too few)", "0.5 added per cell (too few)"),
                                   ("fig5.9", 3.0, "3 (too many)", "3 added per cell (too many)")):
    _register(_name, f"Cost: coverage vs w, {_plain}",
              f"The cost interval of fig. 5.1 when {_add:g} is added to each count of the confusion matrix before "
              "computing it: does the level still hold? 90% target.", "w", "exact",
              dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9, add=_add),
              dict(w=(0.05, 0.5), thetas=(0.75,)), _run_cost_dispersion,
              f"fig. 5.1 with Agresti's pseudo-count {_what} per confusion cell (§5.4); exact coverage. " + _W_TEXT)
for _name, _add, _what, _plain in (("fig5.10", 0.5, "½ (Agresti–Min's value)", "½ added per cell (usual)"),
                                   ("fig5.11", 0.125, "⅛ (too few)", "⅛ added per cell (too few)"),
                                   ("fig5.12", 1.0, "1 (too many)", "1 added per cell (too many)")):
    _register(_name, f"Two models, cost: coverage vs w, {_plain}",
              f"The cost-difference interval of fig. 5.3 when {_add:g} is added to each paired count before "
              "computing it: does the level still hold? 90% target.", "w", "simulation", dict(_COST_DIFF, add=_add),
              dict(w=(0.05, 0.5), thetas=(1.0,), shifts=(0.0,), rhos=(0.3,), replicates=50), _run_cost_differences,
              f"fig. 5.3 with pseudo-count {_what} per paired cell (Agresti–Min, §5.4); 4,000 simulated test sets. "
              + _W_TEXT)


def _run_bands(p, progress):
    from ..bands.coverage import BAND_METHODS, simulate_band_coverage

    pops = {f"θ = {theta:g}": P.binormal(theta) for theta in p["thetas"]}
    df = simulate_band_coverage(pops, ns=tuple(int(n) for n in p["sizes"]), methods=p["methods"],
                                confidence_level=p["level"], replicates=p["replicates"], seed=p["seed"],
                                n_boot=p["n_boot"], progress=progress)
    return pd.DataFrame({
        "panel": df["population"], "series": df["method"].map(BAND_METHODS), "x": df["n"].astype(float),
        "coverage": df["coverage"], "se": df["se"], "kind": "simulation", "replicates": df["replicates"],
        "area": df["area"],
    })


#: The simultaneous-band study (issue 15; beyond the thesis).
BANDS = "bands"
_SHORT[BANDS] = "Simultaneous bands: the whole curve"
_register(BANDS, "Simultaneous bands: is the whole ROC curve inside?",
          "Does a band hold the entire true ROC curve at its level? rocci's exact bootstrap band beside a Monte Carlo "
          "bootstrap band, Šidák-adjusted pointwise intervals, Campbell's Kolmogorov–Smirnov band, Working–Hotelling "
          "on the binormal fit, and unadjusted pointwise rectangles. 95% target.", "n", "simulation",
          dict(thetas=(0.75, 3.0), sizes=(50.0, 200.0, 1000.0),
               methods=("exact", "monte-carlo", "sidak", "vertical-sidak", "campbell-ks", "working-hotelling",
                        "pointwise"),
               level=0.95, replicates=30, seed=0, n_boot=200),
          dict(thetas=(3.0,), sizes=(50.0,), replicates=5), _run_bands,
          "Binormal populations of the dispersion setup (positives N(θ, 3.75), negatives N(−θ, 3); AUC ≈ 0.62 at "
          "θ = 0.75, 0.90 at θ = 3), n positives and n negatives. A band covers when the true curve lies in its "
          "region at every FPR (rocci.bands.region: between the staircases its boxes define), the same rule for "
          "every method. Exact: rocci.roc_band at every distinct score, calibrated exactly on the bootstrap; Monte "
          "Carlo: the same sup-t calibration from seeded resamples; Šidák: percentile intervals of the exact laws at "
          "the adjusted level, at the thresholds or at 99 FPR levels (corners widened to the score bound). Simulated coverage, ±1.96 Monte Carlo "
          "standard errors; the CSV has each band's mean area. docs/bands.md has the full study.")


def _class_counts(prior: float, n: int) -> tuple[int, int]:
    """Positives ``round(π·n)`` (halves up) and negatives of a stratified test set of ``n`` instances."""
    if not 0.0 < prior < 1.0:
        raise InputError(f"Shares of positives must lie strictly between 0 and 1; got {prior!r}.")
    n_pos = int(np.floor(prior * n + 0.5))
    if not 1 <= n_pos <= n - 1:
        raise InputError(f"{prior:g} of {n:,} instances rounds to {n_pos:,} positives: a test set needs at least "
                         "one positive and one negative; take more instances (n).")
    return n_pos, n - n_pos


def _run_precision_recall(p, progress):
    n, mu = int(p["n"]), float(p["mu"])
    if not np.isfinite(mu):
        raise InputError(f"mu ({mu!r}) must be a finite number.")
    methods = tuple(p["methods"])
    for m in methods:
        if m not in PR_METHODS:
            raise InputError(f"Unknown method {m!r}; choose from {', '.join(PR_METHODS)}.")
    counts = [(prior, *_class_counts(prior, n)) for prior in p["priors"]]
    steps = _Steps(progress, len(counts))
    out = []
    for prior, n_pos, n_neg in counts:
        panel = f"{100 * prior:g}% positives ({n_pos:,} of {n:,})"
        pop = P.Population(P.normal(mu, 1.0), P.normal(0.0, 1.0), n_pos / n)
        df = simulate_precision_coverage(pop, n_pos, n_neg, p["recall"], confidence_level=p["level"],
                                         methods=methods, n_boot=p["n_boot"], replicates=p["replicates"],
                                         seed=p["seed"], progress=steps.sub(panel))
        for m in methods:
            out.append(_tidy(df[df["method"] == m], "recall", panel, PR_METHODS[m], "simulation"))
    return pd.concat(out, ignore_index=True)


#: Precision at fixed recall (issue 14; beyond the thesis).
PR_RECALL = "pr_recall"
_SHORT[PR_RECALL] = "Precision at fixed recall"
_register(PR_RECALL, "Precision at fixed recall: coverage, 1%/10%/50% positives",
          "Does the interval for the precision at a fixed recall hold its level, from balanced classes down to 1% "
          "positives? rocci's exact bootstrap percentile and score intervals beside a Wald interval on the exact "
          "bootstrap standard deviation and the usual random (Monte Carlo) bootstrap, 2,000 instances per test set (20 "
          "positives at 1%), recall 0.1 to 0.9, 95% target.", "recall", "simulation",
          dict(priors=(0.01, 0.1, 0.5), n=2000, mu=1.5, recall=RECALL_GRID, methods=tuple(PR_METHODS),
               n_boot=1000, level=0.95, replicates=200, seed=0),
          dict(priors=(0.1, 0.5), n=400, recall=(0.3, 0.5, 0.7), n_boot=200, replicates=40),
          _run_precision_recall,
          "Binormal scores: positives N(μ, 1), negatives N(0, 1), μ = 1.5 (AUC 0.86; at 1% positives the true "
          "precision then runs from 0.27 at recall 0.1 to 0.02 at 0.9, at 50% from 0.97 to 0.69). Each test set "
          "has n = 2,000 instances with the class counts fixed at round(π·n) positives (stratified, as the "
          "bootstrap is), π ∈ {1%, 10%, 50%}, one panel each. Truth at recall r: the threshold t_r with "
          "P(S+ ≥ t_r) = r, FPR(r) = P(S− ≥ t_r) and precision(r) = π·r / (π·r + (1 − π)·FPR(r)), π the test "
          "set's share n+/n. Intervals (rocci.precision_ci with recall=, stratified bootstrap): the percentile "
          "interval of the exact law of r/(r + FP*), T_r the r-th largest resampled positive score (r = recall·n+ "
          "rounded, at least 1); its score interval (precision_ci's method=\"score\": Algorithm 4.3's "
          "[e + z²/2M ± z·sqrt(v + z²/4M²)]/(1 + z²/M) on the exact mean e and variance v, M = r/e the harmonic "
          "mean of the predicted positives); the Wald interval mean ± z·sd of that exact law, clipped to [0, 1] "
          "(precision_ci's method=\"wald\"); "
          "and a Monte Carlo percentile bootstrap of the same statistic with 1,000 stratified resamples "
          "(type-7 quantiles). Recall 0.1, 0.2, …, 0.9; α = 5%; 200 simulated test sets per panel, ±1.96 Monte "
          "Carlo standard errors.")


def list_experiments() -> pd.DataFrame:
    """The registry as a table: ``name, title, x, kind, description, method``."""
    return pd.DataFrame([{"name": e.name, "title": e.title, "x": e.x, "kind": e.kind, "description": e.description,
                          "method": e.method} for e in EXPERIMENTS.values()])


def _coerce(name, default, value):
    if isinstance(default, tuple):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            value = (value,)
        value = tuple(value)
        if not value:
            raise InputError(f"{name} needs at least one value.")
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in default):
            try:
                value = tuple(float(v) for v in value)
            except (TypeError, ValueError):
                raise InputError(f"{name} must be numbers; got {value!r}.") from None
        return value
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, int):
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise InputError(f"{name} must be a whole number; got {value!r}.") from None
        if not v.is_integer():
            raise InputError(f"{name} must be a whole number; got {value!r}.")
        return int(v)
    if isinstance(default, float):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise InputError(f"{name} must be a number; got {value!r}.") from None
    return value


def run_experiment(name: str, *, small: bool = False, progress=None, **params: Any) -> CoverageStudy:
    """Run a named experiment.

    Parameters
    ----------
    name : str
        A key of :data:`EXPERIMENTS` ("fig4.2" … "fig5.12").
    small : bool, default False
        Start from the experiment's quick reduced-size parameters.
    progress : callable, optional
        ``progress(fraction, message)``, called as the work advances.
    **params
        Overrides of the defaults (see ``EXPERIMENTS[name].defaults``), e.g.
        ``n=1000, replicates=500, thetas=(1.5,)``.

    Returns
    -------
    CoverageStudy
    """
    if name not in EXPERIMENTS:
        raise InputError(f"Unknown experiment {name!r}; choose from {', '.join(EXPERIMENTS)}.")
    exp = EXPERIMENTS[name]
    p = dict(exp.defaults)
    if small:
        p.update(exp.small)
    for key, value in params.items():
        if key not in exp.defaults:
            raise InputError(f"{name} has no parameter {key!r}; its parameters are {', '.join(exp.defaults)}.")
        p[key] = _coerce(key, exp.defaults[key], value)
    if not 0 < p["level"] < 1:
        raise InputError(f"level ({p['level']!r}) must be a confidence level strictly between 0 and 1.")
    frame = exp.runner(p, progress)
    frame.insert(0, "experiment", name)
    frame["target"] = p["level"]
    cols = ["experiment", "panel", "series", "x", "coverage", "se", "target", "kind", "replicates"]
    frame = frame[cols + [c for c in ("area",) if c in frame.columns]].reset_index(drop=True)
    if progress is not None:
        progress(1.0, "done")
    return CoverageStudy(exp, p, frame)
