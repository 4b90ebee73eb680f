"""Coverage of rocci.compare_cost_unpaired's intervals for the population difference of two models' costs,
each model scored on its own independent test set: Agresti–Caffo (``add`` = 1, the default; 0.5 and 2 as a
sensitivity check), Wald on the exact moments, percentile of the exact law, at operating points from
w = 0.02 to 0.98, where a test set holds few errors of the heavily weighted kind.

Binormal models: negatives' scores N(0, 1), positives' N(1.2, 1) for model a and N(1.0, 1) for model b;
labels Bernoulli(0.3).  At each ``w`` each model's threshold is fixed at its population-optimal one,
``t(w) = μ/2 − log(w/(1 − w))/μ`` (an instance is predicted positive when ``score >= t``, as in rocci), so
the population's normalised cost is known in closed form,

``C(w, t) = w·FNR + (1 − w)·FPR = w·Φ(t − μ) + (1 − w)·(1 − Φ(t))``,

and the truth is ``ΔC(w) = C_a(w, t_a(w)) − C_b(w, t_b(w))``.  Two designs: test sets of 150 (model a) and
200 (model b) rows, and of 1000 and 800.  Each replicate draws both test sets, calls
``compare_cost_unpaired(..., w=W, thresholds_a=t_a, thresholds_b=t_b, method=M)`` once per method (stratified
bootstrap, 95%) and records whether ``[delta_cost_low, delta_cost_high]`` holds ``ΔC(w)`` and its width.
The printed coverage's Monte Carlo standard error is ``sqrt(c·(1 − c)/reps)`` (about 0.011 at 0.95 and 400
replicates).

Usage: ``.venv/bin/python scripts/cost_unpaired_coverage.py [--reps 400] [--seed 0] [--quick]``
(the default takes a few minutes, nearly all of it the percentile bounds of the 1000/800 design at w = 0.5).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import rocci  # noqa: E402

#: operating points: the two ends, where one kind of error weighs 49 times the other, and the middle
W = np.array([0.02, 0.1, 0.5, 0.9, 0.98])
#: mean of the positives' scores (negatives: N(0, 1)) of model a and model b
MU_A, MU_B = 1.2, 1.0
PREVALENCE = 0.3
#: (rows in model a's test set, rows in model b's)
DESIGNS = ((150, 200), (1000, 800))
#: label -> (method, add): the default Agresti–Caffo interval, Wald, percentile, and two other pseudo-counts
METHODS = {
    "agresti-coull": ("agresti-coull", 1.0),
    "wald": ("wald", 1.0),
    "percentile": ("percentile", 1.0),
    "ac add=0.5": ("agresti-coull", 0.5),
    "ac add=2": ("agresti-coull", 2.0),
}


def optimal_threshold(w, mu: float) -> np.ndarray:
    """The threshold minimising ``w·Φ(t − μ) + (1 − w)·(1 − Φ(t))``: ``w·φ(t − μ) = (1 − w)·φ(t)``."""
    w = np.asarray(w, dtype=float)
    return mu / 2 - np.log(w / (1 - w)) / mu


def population_rates(t, mu: float) -> tuple[np.ndarray, np.ndarray]:
    """``(FNR, FPR)`` of ``score >= t`` when positives score N(μ, 1) and negatives N(0, 1)."""
    return stats.norm.cdf(np.asarray(t) - mu), stats.norm.sf(t)


def population_cost(w, t, mu: float) -> np.ndarray:
    """The population's normalised cost ``w·FNR + (1 − w)·FPR`` at threshold ``t``."""
    fnr, fpr = population_rates(t, mu)
    return np.asarray(w) * fnr + (1 - np.asarray(w)) * fpr


def draw_sets(rng, reps: int, n: int, mu: float) -> tuple[np.ndarray, np.ndarray]:
    """``reps`` test sets of ``n`` rows at once: labels (reps, n) and scores; a set with one class only
    (probability below 1e-20 here) is drawn again."""
    y = rng.random((reps, n)) < PREVALENCE
    one_class = y.all(axis=1) | ~y.any(axis=1)
    while one_class.any():
        y[one_class] = rng.random((int(one_class.sum()), n)) < PREVALENCE
        one_class = y.all(axis=1) | ~y.any(axis=1)
    return y, rng.normal(size=(reps, n)) + mu * y


def coverage(design=DESIGNS[0], reps: int = 400, seed: int = 0, w=W, methods=tuple(METHODS)) -> dict:
    """Coverage of the population's ``ΔC(w)`` by each method's 95% interval over ``reps`` replicates.

    Returns ``{"w", "truth", "expected": {"fp_a", "fn_a", "fp_b", "fn_b"} (expected error counts per set),
    "coverage": {label: (k,)}, "width": {label: (k,)}, "reps", "design"}``; ``methods`` are keys of
    :data:`METHODS`.
    """
    w = np.atleast_1d(np.asarray(w, dtype=float))
    n_a, n_b = design
    ta, tb = optimal_threshold(w, MU_A), optimal_threshold(w, MU_B)
    truth = population_cost(w, ta, MU_A) - population_cost(w, tb, MU_B)
    (fnr_a, fpr_a), (fnr_b, fpr_b) = population_rates(ta, MU_A), population_rates(tb, MU_B)
    expected = {"fp_a": n_a * (1 - PREVALENCE) * fpr_a, "fn_a": n_a * PREVALENCE * fnr_a,
                "fp_b": n_b * (1 - PREVALENCE) * fpr_b, "fn_b": n_b * PREVALENCE * fnr_b}
    rng = np.random.default_rng([seed, n_a, n_b])
    ya, sa = draw_sets(rng, reps, n_a, MU_A)
    yb, sb = draw_sets(rng, reps, n_b, MU_B)
    hits = {label: np.zeros(w.size) for label in methods}
    width = {label: np.zeros(w.size) for label in methods}
    for r in range(reps):
        for label in methods:
            method, add = METHODS[label]
            res = rocci.compare_cost_unpaired(ya[r], sa[r], yb[r], sb[r], w=w, thresholds_a=ta, thresholds_b=tb,
                                              method=method, add=add)
            hits[label] += (res.delta_cost_low <= truth) & (truth <= res.delta_cost_high)
            width[label] += res.delta_cost_high - res.delta_cost_low
    return {"w": w, "truth": truth, "expected": expected, "reps": reps, "design": design,
            "coverage": {k: v / reps for k, v in hits.items()}, "width": {k: v / reps for k, v in width.items()}}


def monte_carlo_se(cov, reps: int) -> np.ndarray:
    """Binomial standard error of a coverage estimated from ``reps`` replicates."""
    return np.sqrt(np.asarray(cov) * (1 - np.asarray(cov)) / reps)


def print_table(res: dict) -> None:
    n_a, n_b = res["design"]
    e = res["expected"]
    print(f"\ndesign n_a={n_a}, n_b={n_b} ({res['reps']} replicates; expected errors per test set at the "
          "population-optimal thresholds)")
    print(f"{'w':>5}  {'true dC':>10}  {'E[FP_a]':>8} {'E[FN_a]':>8} {'E[FP_b]':>8} {'E[FN_b]':>8}")
    for i, w in enumerate(res["w"]):
        print(f"{w:>5.2f}  {res['truth'][i]:>+10.6f}  {e['fp_a'][i]:>8.3f} {e['fn_a'][i]:>8.3f} "
              f"{e['fp_b'][i]:>8.3f} {e['fn_b'][i]:>8.3f}")
    print(f"{'w':>5}  {'method':<14} {'coverage':>8} {'MC se':>6} {'mean width':>10}")
    for i, w in enumerate(res["w"]):
        for label, cov in res["coverage"].items():
            se = monte_carlo_se(cov[i], res["reps"])
            print(f"{w:>5.2f}  {label:<14} {cov[i]:>8.3f} {se:>6.3f} {res['width'][label][i]:>10.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=400, help="replicates per design (default 400)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="40 replicates per design (a smoke run)")
    args = parser.parse_args()
    reps = 40 if args.quick else args.reps
    print(f"compare_cost_unpaired coverage: model a positives N({MU_A}, 1), model b positives N({MU_B}, 1), "
          f"negatives N(0, 1), prevalence {PREVALENCE}; 95% intervals, stratified bootstrap; seed {args.seed}")
    for design in DESIGNS:
        start = time.perf_counter()
        print_table(coverage(design, reps, args.seed))
        print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
