"""Coverage lab: how often do the interval methods cover the truth? (thesis §4.5, 4.6, 5.3–5.5).

* :mod:`rocci.coverage.exact` — exact coverage (finite binomial / trinomial
  sums) wherever an interval depends on finitely many counts at a fixed
  threshold: threshold averaging (one and two models), cost intervals.
* :mod:`rocci.coverage.simulate` — seeded, vectorised simulations with Monte
  Carlo standard errors elsewhere (thresholds from the data, vertical
  averaging, paired cost intervals, random class counts).
* :mod:`rocci.coverage.baselines` — kernel-smoothing and Monte Carlo
  percentile-bootstrap intervals to compare against.
* :mod:`rocci.coverage.pr` — precision at fixed recall (issue 14): the
  population's true precision, a Monte Carlo percentile bootstrap of rocci's
  statistic, and the simulated coverage of the exact, Wald and Monte Carlo intervals.
* :mod:`rocci.coverage.experiments` — the thesis's figures by name, and the
  studies beyond it (:func:`run_experiment`, :data:`EXPERIMENTS`).

Command line: ``python -m rocci.coverage EXPERIMENT [--param value …]``
writes a CSV and an HTML figure.
"""

from .exact import (
    CoverageResult,
    axis_coverage,
    cost_coverage,
    cost_interval,
    paired_cost_coverage,
    paired_cost_interval,
    paired_threshold_coverage,
    threshold_coverage,
    threshold_coverage_curve,
)
from .simulate import (
    simulate_cost_coverage,
    simulate_paired_cost_coverage,
    simulate_paired_threshold_coverage,
    simulate_paired_vertical_coverage,
    simulate_threshold_coverage,
    simulate_vertical_coverage,
)
from .baselines import bootstrap_vertical_interval, kernel_vertical_interval, reference_bandwidth
from .pr import bootstrap_precision_interval, simulate_precision_coverage, true_precision_at_recall
from .experiments import EXPERIMENTS, CoverageStudy, Experiment, list_experiments, run_experiment

__all__ = [
    "CoverageResult",
    "threshold_coverage",
    "axis_coverage",
    "threshold_coverage_curve",
    "paired_threshold_coverage",
    "cost_coverage",
    "paired_cost_coverage",
    "cost_interval",
    "paired_cost_interval",
    "simulate_threshold_coverage",
    "simulate_paired_threshold_coverage",
    "simulate_cost_coverage",
    "simulate_paired_cost_coverage",
    "simulate_vertical_coverage",
    "simulate_paired_vertical_coverage",
    "kernel_vertical_interval",
    "bootstrap_vertical_interval",
    "reference_bandwidth",
    "true_precision_at_recall",
    "bootstrap_precision_interval",
    "simulate_precision_coverage",
    "EXPERIMENTS",
    "Experiment",
    "CoverageStudy",
    "list_experiments",
    "run_experiment",
]
