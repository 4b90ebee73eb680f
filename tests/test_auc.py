"""AUC point estimate, DeLong and Hanley-McNeil variances, and pROC's aSAH output.

References are direct O(n_pos n_neg) computations from the definitions
(tests/reference/brute.py) and pROC's published numbers on its aSAH data
(tests/reference/asah.csv, provenance in tests/reference/README.md).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from scipy import stats

import rocci
from reference import brute
from reference.datasets import (
    PROC_S100B_SENS_COUNTS,
    PROC_S100B_SPEC_COUNTS,
    as_labels,
    load_asah,
)

SEEDS = range(8)


def _random_tied(seed):
    """Random sizes and scores on a coarse grid (many ties within and across classes)."""
    rng = np.random.default_rng(1000 + seed)
    n_pos, n_neg = rng.integers(2, 40, size=2)
    levels = int(rng.integers(2, 12))
    pos = rng.integers(0, levels, n_pos) + rng.integers(0, 3) * 0.5
    neg = rng.integers(0, levels, n_neg)
    return pos.astype(float), neg.astype(float)


@pytest.mark.parametrize("seed", SEEDS)
def test_auc_equals_pair_count(seed):
    pos, neg = _random_tied(seed)
    y, s = as_labels(pos, neg)
    expected = float(brute.mann_whitney_auc(pos, neg))
    assert rocci.roc_auc(y, s).auc == pytest.approx(expected, abs=1e-12)
    assert rocci.roc_curve(y, s).auc == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_delong_variance_equals_direct_formula(seed):
    pos, neg = _random_tied(seed)
    y, s = as_labels(pos, neg)
    res = rocci.roc_auc(y, s, method="delong")
    assert res.method == "delong"
    assert res.auc_std**2 == pytest.approx(brute.delong_variance_direct(pos, neg), rel=1e-10, abs=1e-15)


@pytest.mark.parametrize("seed", SEEDS)
def test_hanley_mcneil_variance_equals_textbook_formula(seed):
    pos, neg = _random_tied(seed)
    y, s = as_labels(pos, neg)
    res = rocci.roc_auc(y, s, method="hanley-mcneil")
    a = float(brute.mann_whitney_auc(pos, neg))
    assert res.method == "hanley-mcneil"
    assert res.auc_std**2 == pytest.approx(
        brute.hanley_mcneil_variance(a, pos.size, neg.size), rel=1e-10, abs=1e-15
    )


@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
@pytest.mark.parametrize("seed", SEEDS)
def test_delong_ci_is_auc_pm_z_std_clipped(seed, level):
    pos, neg = _random_tied(seed)
    y, s = as_labels(pos, neg)
    res = rocci.roc_auc(y, s, confidence_level=level)
    z = stats.norm.ppf(0.5 + level / 2)
    assert res.auc_low == pytest.approx(max(0.0, res.auc - z * res.auc_std), abs=1e-12)
    assert res.auc_high == pytest.approx(min(1.0, res.auc + z * res.auc_std), abs=1e-12)


def test_delong_ci_clips_at_one():
    """AUC = 15/16 with a DeLong std large enough that auc + z std > 1."""
    pos, neg = [0.9, 0.8, 0.7, 0.35], [0.4, 0.3, 0.2, 0.1]
    y, s = as_labels(pos, neg)
    res = rocci.roc_auc(y, s)
    assert res.auc == pytest.approx(15 / 16, abs=1e-15)
    std = math.sqrt(brute.delong_variance_direct(pos, neg))
    assert res.auc_std == pytest.approx(std, rel=1e-12)
    assert res.auc + 1.959963984540054 * std > 1  # the case really needs clipping
    assert res.auc_high == 1.0
    assert res.auc_low == pytest.approx(res.auc - 1.959963984540054 * std, abs=1e-12)


def test_hand_computed_delong_case():
    """pos = (0.9, 0.7, 0.5), neg = (0.5, 0.3): AUC = 11/12, DeLong var = 1/72,
    Hanley-McNeil var = 671/32292 (worked in tests/reference/test_oracles.py)."""
    y, s = as_labels([0.9, 0.7, 0.5], [0.5, 0.3])
    res = rocci.roc_auc(y, s, method="delong")
    assert res.auc == pytest.approx(11 / 12, abs=1e-15)
    assert res.auc_std == pytest.approx(math.sqrt(1 / 72), rel=1e-12)
    z = 1.959963984540054
    assert res.auc_low == pytest.approx(11 / 12 - z / math.sqrt(72), abs=1e-12)
    assert res.auc_high == 1.0  # 11/12 + 1.96 * 0.118 > 1
    hm = rocci.roc_auc(y, s, method="hanley-mcneil")
    assert hm.auc_std == pytest.approx(math.sqrt(671 / 32292), rel=1e-12)


def test_thesis_worked_example_auc():
    """math.md section 6: the thesis's worked example (data/thesis_example.csv,
    20 positives, 40 negatives) has AUC 0.844375."""
    import pandas as pd

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    d = pd.read_csv(os.path.join(root, "data", "thesis_example.csv"))
    pos = d.loc[d.label == 1, "score"].to_numpy()
    neg = d.loc[d.label == 0, "score"].to_numpy()
    assert float(brute.mann_whitney_auc(pos, neg)) == 0.844375
    res = rocci.roc_auc(d["label"].to_numpy(), d["score"].to_numpy())
    assert res.auc == pytest.approx(0.844375, abs=1e-12)
    assert res.auc_std**2 == pytest.approx(brute.delong_variance_direct(pos, neg), rel=1e-10)


# ---------------------------------------------------------------------------
# pROC's aSAH data
# ---------------------------------------------------------------------------
def _asah(col="s100b"):
    d = load_asah()
    return d["outcome"].to_numpy(), d[col].to_numpy(dtype=float)


def test_asah_auc_and_delong_ci_match_proc():
    """roc(aSAH$outcome, aSAH$s100b): AUC 0.7314, 95% CI 0.6301-0.8326 (DeLong)."""
    y, s = _asah()
    res = rocci.roc_auc(y, s, pos_label="Poor")
    assert round(res.auc, 4) == 0.7314
    assert round(res.auc_low, 4) == 0.6301
    assert round(res.auc_high, 4) == 0.8326
    # and to full precision against the direct computation
    assert res.auc == pytest.approx(0.73136856368563685, abs=1e-14)
    # pROC tests/testthat/test-var.R: var(r.s100b) == 0.00266868245717244
    assert res.auc_std**2 == pytest.approx(0.00266868245717244, rel=1e-10)


@pytest.mark.parametrize(
    "col,auc,var",
    [("ndka", 0.61195799457994582, 0.0031908105493913), ("wfns", 0.82367886178861793, 0.00146991470882363)],
)
def test_asah_other_markers(col, auc, var):
    """pROC's AUCs (helper-roc-expected.R) and DeLong variances (test-var.R)."""
    y, s = _asah(col)
    res = rocci.roc_auc(y, s, pos_label="Poor")
    assert res.auc == pytest.approx(auc, abs=1e-14)
    assert res.auc_std**2 == pytest.approx(var, rel=1e-10)


def test_asah_roc_curve_matches_proc_coordinates():
    """rocci's counts at each distinct score = pROC's sensitivities and
    specificities at the midpoints (pROC lists them with increasing threshold)."""
    y, s = _asah()
    rc = rocci.roc_curve(y, s, pos_label="Poor")
    assert rc.n_pos == 41 and rc.n_neg == 72
    assert list(np.asarray(rc.tp)[::-1]) == PROC_S100B_SENS_COUNTS
    assert list((72 - np.asarray(rc.fp))[::-1]) == PROC_S100B_SPEC_COUNTS


@pytest.mark.parametrize("method", ["delong", "hanley-mcneil", "exact-bootstrap"])
def test_confidence_interval_equals_a_fresh_computation(method):
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300) + y, 1)
    base = rocci.roc_auc(y, s, method=method)
    for level in (0.8, 0.9, 0.99, 0.999999):
        fresh = rocci.roc_auc(y, s, method=method, confidence_level=level)
        moved = base.confidence_interval(level)
        assert moved.to_frame().equals(fresh.to_frame())
        assert moved.auc_std == base.auc_std and moved.auc == base.auc
    with pytest.raises(rocci.InputError):
        base.confidence_interval(1.5)
    with pytest.raises(rocci.InputError, match="must be one of"):  # another method's sd needs the data
        base.confidence_interval(0.9, method="wald")
    with pytest.warns(DeprecationWarning, match=r"AucResult.confidence_interval\(confidence_level\)"):
        old = base.at_level(0.9)  # rocci 0.2's name (goes in 0.4)
    assert old == base.confidence_interval(0.9)
