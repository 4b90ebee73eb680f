"""Which net-benefit interval holds its level where (issue 31): the Agresti–Coull interval's formula, its
identity with the cost's, and a seeded coverage simulation (scripts/nb_coverage.py) where few are flagged."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import rocci

ROOT = Path(__file__).resolve().parents[2]


def _risky(n, seed, share=0.2):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    return y, np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.4 * y - 1.6))), 2)


def test_agresti_coull_full_is_its_formula():
    y, s = _risky(500, 1)
    p = np.array([0.05, 0.3, 0.7, 0.95])
    res = rocci.net_benefit(y, s, thresholds=p, method="agresti-coull", add=2)
    n, o, z = y.size, p / (1 - p), 1.959963984540054
    tp = np.array([(s[y] >= q).sum() for q in p])
    fp = np.array([(s[~y] >= q).sum() for q in p])
    t, f = (tp + 2) / (n + 8), (fp + 2) / (n + 8)
    sd = np.sqrt((t * (1 - t) + o**2 * f * (1 - f) + 2 * o * t * f) / (n + 8))
    np.testing.assert_allclose(res.net_benefit_low, np.maximum(t - o * f - z * sd, -o), rtol=1e-12)
    np.testing.assert_allclose(res.net_benefit_high, np.minimum(t - o * f + z * sd, 1), rtol=1e-12)
    assert res.method == "agresti-coull"
    # the point and the exact sd are the same as with the other methods
    ref = rocci.net_benefit(y, s, thresholds=p)
    np.testing.assert_array_equal(res.net_benefit, ref.net_benefit)
    np.testing.assert_array_equal(res.net_benefit_std, ref.net_benefit_std)


@pytest.mark.parametrize("m", [None, (40, 90)])
def test_agresti_coull_stratified_is_the_costs_read_through_nb(m):
    """Stratified, NB = pi+ - K*NEC with w = pi+/K: the cost's Agresti–Coull interval (its own code) mapped."""
    y, s = _risky(300, 2)
    share = y.mean()
    p = np.array([0.1, 0.25, 0.5, 0.8])
    k = share + (1 - share) * p / (1 - p)
    nb = rocci.net_benefit(y, s, thresholds=p, bootstrap="stratified", method="agresti-coull", m=m)
    cost = rocci.cost_ci(y, s, w=share / k, thresholds=p, bootstrap="stratified", method="agresti-coull", m=m)
    np.testing.assert_allclose(nb.net_benefit_low, share - k * cost.cost_high, atol=1e-12)
    np.testing.assert_allclose(nb.net_benefit_high, share - k * cost.cost_low, atol=1e-12)


def test_a_bad_pseudo_count_is_refused():
    y, s = _risky(100, 3)
    with pytest.raises(rocci.InputError, match="pseudo-count"):
        rocci.net_benefit(y, s, thresholds=[0.5], method="agresti-coull", add=-1)


@pytest.mark.montecarlo
def test_where_few_are_flagged_agresti_coull_covers_and_the_percentile_does_not():
    """Seeded simulation (the docstring's numbers come from scripts/nb_coverage.py at 400 samples): at the
    thresholds flagging about 0.6% and 0.16% of 300 rows, the percentile interval misses the population's net
    benefit far more often than 5%; Agresti–Coull does not; where many are flagged both hold about 95%."""
    spec = importlib.util.spec_from_file_location("nb_coverage", ROOT / "scripts" / "nb_coverage.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    res = mod.coverage(n=300, reps=200, seed=1)
    se = np.sqrt(0.95 * 0.05 / 200)  # about 0.015
    pct, ac = res["percentile"], res["agresti-coull"]
    assert pct[3] < 0.95 - 5 * se and pct[4] < 0.95 - 5 * se, pct  # 0.8 and 0.9: few flagged
    assert ac[3] >= 0.95 - 3 * se and ac[4] >= 0.95 - 3 * se, ac
    assert np.all(np.abs(pct[:2] - 0.95) < 4 * se) and np.all(np.abs(ac[:2] - 0.95) < 4 * se), (pct, ac)


@pytest.mark.parametrize("bootstrap", ["full", "stratified"])
def test_confidence_interval_recomputes_agresti_coull_from_the_counts(bootstrap):
    y, s = _risky(400, 4)
    p = [0.1, 0.5, 0.8]
    res = rocci.net_benefit(y, s, thresholds=p, bootstrap=bootstrap, add=1.5)
    again = res.confidence_interval(0.9, method="agresti-coull")
    direct = rocci.net_benefit(y, s, thresholds=p, bootstrap=bootstrap, confidence_level=0.9,
                               method="agresti-coull", add=1.5)
    np.testing.assert_array_equal(again.net_benefit_low, direct.net_benefit_low)
    np.testing.assert_array_equal(again.net_benefit_high, direct.net_benefit_high)
    assert again.method == "agresti-coull" and again.add == 1.5
