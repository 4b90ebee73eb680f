"""Coverage of rocci.net_benefit's intervals for the population's net benefit (docs/decision.md, the
net_benefit docstring): percentile of the exact law, Wald, Agresti–Coull, full bootstrap, at thresholds
where many and where few instances are flagged.

A population of 2·10⁶ rows (10% positives, calibrated logistic risks rounded to 0.001) gives the true
NB(p); each of ``--reps`` samples of ``--n`` rows gives the three intervals; the share that covers the
truth is printed per threshold (its Monte Carlo standard error is about sqrt(0.95·0.05/reps)).

Usage: ``.venv/bin/python scripts/nb_coverage.py [--n 300] [--reps 400] [--seed 0]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import rocci  # noqa: E402

THRESHOLDS = np.array([0.05, 0.2, 0.5, 0.8, 0.9])
METHODS = ("percentile", "wald", "agresti-coull")


def population(rng, n: int, prevalence: float = 0.1):
    """Labels and calibrated risks: x | y ~ N(1.5·y, 1), risk = P(y = 1 | x) (rounded: ties)."""
    y = rng.random(n) < prevalence
    x = rng.normal(size=n) + 1.5 * y
    logit = np.log(prevalence / (1 - prevalence)) - 1.125 + 1.5 * x
    return y, np.round(1 / (1 + np.exp(-logit)), 3)


def coverage(n: int = 300, reps: int = 400, seed: int = 0, thresholds=THRESHOLDS) -> dict:
    """``{"truth": NB(p), "flagged": share flagged, method: coverage per threshold}``."""
    rng = np.random.default_rng(seed)
    big_y, big_s = population(rng, 2_000_000)
    odds = thresholds / (1 - thresholds)
    truth = np.array([np.mean(big_y & (big_s >= p)) - np.mean(~big_y & (big_s >= p)) * o
                      for p, o in zip(thresholds, odds)])
    hits = {m: np.zeros(thresholds.size) for m in METHODS}
    for _ in range(reps):
        y, s = population(rng, n)
        for m in METHODS:
            res = rocci.net_benefit(y, s, thresholds=thresholds, method=m)
            hits[m] += (res.net_benefit_low <= truth) & (truth <= res.net_benefit_high)
    out = {"truth": truth, "flagged": np.array([np.mean(big_s >= p) for p in thresholds])}
    out.update({m: h / reps for m, h in hits.items()})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    res = coverage(args.n, args.reps, args.seed)
    print("threshold      " + "  ".join(f"{p:>7.2f}" for p in THRESHOLDS))
    print("flagged share  " + "  ".join(f"{v:>7.4f}" for v in res["flagged"]))
    for m in METHODS:
        print(f"{m:<14} " + "  ".join(f"{v:>7.3f}" for v in res[m]))


if __name__ == "__main__":
    main()
