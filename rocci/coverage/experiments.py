"""The thesis's coverage experiments by name ("fig4.2" … "fig5.12").

Each :class:`Experiment` has a short description, the x axis of the thesis's
figure (total positive rate, FPR, or operating point ``w``), the target
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

from .._validation import InputError
from .. import populations as P
from .exact import cost_coverage, paired_threshold_coverage, threshold_coverage_curve
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


@dataclass(frozen=True)
class Experiment:
    """One named experiment.

    Attributes
    ----------
    name, title, description : str
    x : {"total_positive_rate", "fpr", "w"}
    kind : {"exact", "simulation", "mixed"}
    defaults : dict
        Parameters and their default values (tuples for lists).
    small : dict
        Overrides for a quick run (tests, smoke runs).
    runner : callable
        ``runner(params, progress) -> DataFrame`` with columns
        ``panel, series, x, coverage, se, kind, replicates``.
    """

    name: str
    title: str
    description: str
    x: str
    kind: str
    defaults: dict
    small: dict
    runner: Callable = field(repr=False)

    @property
    def x_label(self) -> str:
        return X_LABELS[self.x]


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
        out.append(_tidy(df, "fpr", label, f"shift {shift:g}", "simulation"))
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


def _register(name, title, description, x, kind, defaults, small, runner):
    EXPERIMENTS[name] = Experiment(name, title, description, x, kind, dict(defaults), dict(small), runner)


_register("fig4.2", "Shape: threshold averaging", "Five score-distribution pairs (normal, beta, exponential), "
          "100 + 100 instances, α = 5%: exact coverage of the rectangular region vs total positive rate.",
          "total_positive_rate", "exact", dict(_THR, shapes=tuple(SHAPES), n=100, level=0.95),
          dict(rates=(0.1, 0.5, 0.9), shapes=tuple(SHAPES)[:2]), _run_shape)
_register("fig4.3", "Dispersion: threshold averaging", "Binormal N(θ, 3.75) vs N(−θ, 3), θ ∈ {0.75, 1.5, 3, 5}, "
          "10,000 + 10,000, α = 10%: exact region coverage vs total positive rate (the 0.13 dip at θ = 5).",
          "total_positive_rate", "exact", dict(_THR, **_DISP, n=10000, level=0.9),
          dict(rates=(0.13, 0.14), thetas=(5.0,)), _run_dispersion)
_register("fig4.4", "Size: threshold averaging", "θ = 3, n ∈ {25, 250, 2,500, 10,000} per class, α = 10%: "
          "exact region coverage vs total positive rate.", "total_positive_rate", "exact",
          dict(_THR, sizes=(25, 250, 2500, 10000), theta=3.0, scale_pos=3.75, scale_neg=3.0, level=0.9),
          dict(rates=(0.1, 0.5), sizes=(25, 250)), _run_size)
_register("fig4.5", "Differences: paired threshold averaging", "Two correlated binormal models (Gaussian copula "
          "ρ ∈ {.3, .6, .9}), positives' location θ ∈ {1, 3} and θ + shift, shift ∈ {0, 2, 4}, n = 100, α = 10%: "
          "exact coverage of the ΔFPR × ΔTPR rectangle vs total positive rate.", "total_positive_rate", "exact",
          dict(_DIFF, rates=RATES, n=100, level=0.9, scale_pos=3.75, scale_neg=3.0),
          dict(rates=(0.2, 0.5), thetas=(1.0,), rhos=(0.6,), shifts=(0.0, 2.0)), _run_roc_differences)
_register("fig4.6", "Shape: vertical averaging", "The five shape pairs, n = 100, α = 5%: simulated coverage of "
          "the exact-bootstrap vertical interval beside kernel smoothing and the Monte Carlo percentile bootstrap "
          "(pROC), vs FPR.", "fpr", "simulation", dict(_VERT, shapes=tuple(SHAPES), n=100, level=0.95),
          dict(fpr=(0.2, 0.5), shapes=tuple(SHAPES)[:1], replicates=5, n_boot=50), _run_vertical_shape)
_register("fig4.7", "Dispersion: vertical averaging", "Binormal dispersion setup, α = 10%, vertical intervals vs "
          "kernel and bootstrap (reduced default: n = 1,000 per class and 100 test sets; the thesis used n = 10,000 "
          "and 1,000 test sets).",
          "fpr", "simulation", dict(_VERT, **_DISP, n=1000, level=0.9, replicates=100),
          dict(fpr=(0.2, 0.5), thetas=(0.75,), n=100, replicates=5, n_boot=50), _run_vertical_dispersion)
_register("fig4.8", "Size: vertical averaging", "θ = 3, n ∈ {25, 250, 2,500} (add 10,000 for the thesis's "
          "fourth panel), α = 10%: vertical intervals vs kernel and bootstrap.", "fpr", "simulation",
          dict(_VERT, sizes=(25, 250, 2500), theta=3.0, scale_pos=3.75, scale_neg=3.0, level=0.9, replicates=100),
          dict(fpr=(0.2, 0.5), sizes=(25,), replicates=5, n_boot=50), _run_vertical_size)
_register("fig4.9", "Differences: paired vertical averaging", "Exact paired vertical intervals for ΔTPR "
          "(compare_vertical), n = 100, α = 10% (reduced default: θ = 1, ρ ∈ {.3, .9}, shifts {0, 2}, 5 FPR "
          "levels, 10 test sets each: the exact paired law is costly).", "fpr", "simulation",
          dict(thetas=(1.0,), rhos=(0.3, 0.9), shifts=(0.0, 2.0), fpr=(0.1, 0.3, 0.5, 0.7, 0.9), n=100,
               level=0.9, replicates=10, seed=0, scale_pos=3.75, scale_neg=3.0),
          dict(fpr=(0.5,), rhos=(0.6,), shifts=(0.0,), n=30, replicates=2), _run_vertical_differences)
_register("fig4.10", "Full vs stratified: threshold averaging", "The size experiment with stratified test sets "
          "(fixed class counts; exact) and full ones (class counts ~ Bin(2n, ½); simulated), Wilson, α = 10%.",
          "total_positive_rate", "mixed",
          dict(_THR, sizes=(25, 250, 2500, 10000), theta=3.0, scale_pos=3.75, scale_neg=3.0, level=0.9,
               method="wilson", replicates=10000),
          dict(rates=(0.1, 0.5), sizes=(25,), replicates=50), _run_full_vs_stratified)
_register("fig5.1", "Dispersion: cost, stratified", "Cost intervals (Agresti +2) at the true optimal threshold, "
          "N(θ, 3) vs N(−θ, 3), θ ∈ {0.75, 1.5, 3, 5}, n = 1,000, α = 10%: exact coverage vs w.", "w", "exact",
          dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9), dict(w=(0.1, 0.5), thetas=(0.75,)),
          _run_cost_dispersion)
_register("fig5.2", "Size: cost, stratified", "θ = 3, n ∈ {25, 250, 2,500, 10,000}, Agresti +2, α = 10%: exact "
          "coverage vs w.", "w", "exact", dict(_COST, sizes=(25, 250, 2500, 10000), theta=3.0, level=0.9),
          dict(w=(0.1, 0.5), sizes=(25,)), _run_cost_size)
_register("fig5.3", "Differences: cost, stratified", "Paired cost-difference intervals (Agresti–Min +½), "
          "n = 1,000, α = 10%, θ ∈ {1, 3}, shifts {0, 2, 4}, ρ ∈ {.3, .6, .9}: simulated coverage vs w.", "w",
          "simulation", dict(_COST_DIFF), dict(w=(0.1, 0.5), thetas=(1.0,), shifts=(0.0,), rhos=(0.3,),
                                               replicates=50), _run_cost_differences)
_register("fig5.4", "Dispersion: cost, full bootstrap formulas", "As fig5.1 with full test sets (class counts vary) "
          "and the full-bootstrap interval (§5.2): simulated coverage vs w.", "w", "simulation",
          dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9, design="full", formulas="full", replicates=20000),
          dict(w=(0.1, 0.5), thetas=(0.75,), replicates=50), _run_cost_dispersion)
_register("fig5.5", "Dispersion: cost, full data, stratified formulas", "As fig5.4 but the interval uses the "
          "stratified formulas (§5.1).", "w", "simulation",
          dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9, design="full", formulas="stratified",
               replicates=20000),
          dict(w=(0.1, 0.5), thetas=(0.75,), replicates=50), _run_cost_dispersion)
_register("fig5.6", "Differences: cost, full data, stratified formulas", "As fig5.3 with full test sets.", "w",
          "simulation", dict(_COST_DIFF, design="full"),
          dict(w=(0.1, 0.5), thetas=(1.0,), shifts=(0.0,), rhos=(0.3,), replicates=50), _run_cost_differences)
for _name, _add, _what in (("fig5.7", 2.0, "2 (Agresti's value)"), ("fig5.8", 0.5, "0.5 (too few)"),
                           ("fig5.9", 3.0, "3 (too many)")):
    _register(_name, f"Adjustment {_add:g}: cost dispersion", f"fig5.1 with Agresti's pseudo-count {_what} per "
              "cell: exact coverage vs w.", "w", "exact", dict(_COST, thetas=_DISP["thetas"], n=1000, level=0.9,
                                                               add=_add),
              dict(w=(0.05, 0.5), thetas=(0.75,)), _run_cost_dispersion)
for _name, _add, _what in (("fig5.10", 0.5, "½ (Agresti–Min's value)"), ("fig5.11", 0.125, "⅛ (too few)"),
                           ("fig5.12", 1.0, "1 (too many)")):
    _register(_name, f"Adjustment {_add:g}: cost differences", f"fig5.3 with pseudo-count {_what} per paired "
              "cell: simulated coverage vs w.", "w", "simulation", dict(_COST_DIFF, add=_add),
              dict(w=(0.05, 0.5), thetas=(1.0,), shifts=(0.0,), rhos=(0.3,), replicates=50), _run_cost_differences)


def list_experiments() -> pd.DataFrame:
    """The registry as a table: ``name, title, x, kind, description``."""
    return pd.DataFrame([{"name": e.name, "title": e.title, "x": e.x, "kind": e.kind, "description": e.description}
                         for e in EXPERIMENTS.values()])


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
    frame = frame[cols].reset_index(drop=True)
    if progress is not None:
        progress(1.0, "done")
    return CoverageStudy(exp, p, frame)
