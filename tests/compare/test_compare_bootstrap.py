"""Paired comparisons against brute force: enumeration, Monte Carlo, DeLong, McNemar.

* Every paired stratified bootstrap sample of tiny tied data (vector 4.1's
  two models: 5 positives, 6 negatives) is visited; the laws of ΔTPR* and
  ΔFPR* and the dominance probabilities f1, f2 of compare_thresholds must
  equal the enumeration to 1e-12, for m = n and m != n, at every pair of
  distinct thresholds.
* Seeded Monte Carlo (100,000 resamples, vectorised) on correlated binormal
  data (ρ = 0.6) at n = 50 and n = 200 must agree within a few standard errors.
* dominance_map equals compare_thresholds pair by pair.
* compare_auc: DeLong's paired variance against the O(n²) definition, and
  pROC's roc.test on aSAH.
* mcnemar: a table worked by hand, and the course notes' 3.84 critical value.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import rocci
from rocci import InputError
from rocci.compare import compare_auc, compare_thresholds, dominance_map, mcnemar
from reference import brute_paired
from reference.datasets import load_asah

VECTORS_PATH = Path(__file__).resolve().parents[3] / "shared" / "vectors" / "vectors.json"
TINY = next(v for v in json.loads(VECTORS_PATH.read_text())["vectors"] if v["id"] == "4.1")["inputs"]
POS_A, POS_B = np.array(TINY["pos1"]), np.array(TINY["pos2"])
NEG_A, NEG_B = np.array(TINY["neg1"]), np.array(TINY["neg2"])
TOL = 1e-12


def _labels_scores(pos_a, pos_b, neg_a, neg_b):
    y = np.r_[np.ones(len(pos_a), int), np.zeros(len(neg_a), int)]
    return y, np.r_[pos_a, neg_a], np.r_[pos_b, neg_b]


def _grid(scores):
    return np.r_[np.inf, np.unique(scores)[::-1]]


TA, TB = _grid(np.r_[POS_A, NEG_A]), _grid(np.r_[POS_B, NEG_B])
PAIRS = [(ta, tb) for ta in TA for tb in TB]

_ENUM: dict = {}


def _enumerated(m_pos, m_neg):
    key = (m_pos, m_neg)
    if key not in _ENUM:
        _ENUM[key] = brute_paired.enumerate_paired_bootstrap(POS_A, POS_B, NEG_A, NEG_B, PAIRS, m_pos, m_neg)
    return _ENUM[key]


# ---------------------------------------------------------------------------
# Exact enumeration
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("m", [(5, 6), (7, 4), (3, 8)], ids=["m=n", "m=(7,4)", "m=(3,8)"])
def test_enumeration_equals_exact_laws(m):
    m_pos, m_neg = m
    exact = _enumerated(m_pos, m_neg)
    y, a, b = _labels_scores(POS_A, POS_B, NEG_A, NEG_B)
    ta = np.array([p[0] for p in PAIRS])
    tb = np.array([p[1] for p in PAIRS])
    res = compare_thresholds(y, a, b, thresholds_a=ta, thresholds_b=tb, m=(m_pos, m_neg))
    assert len(PAIRS) == 81
    for i in range(len(PAIRS)):
        for axis, law, mm in (("tpr", exact.d_tp[i], m_pos), ("fpr", exact.d_fp[i], m_neg)):
            values, probs = res.distribution(i, axis=axis)
            got = dict(zip(np.round(values * mm).astype(int).tolist(), probs.tolist()))
            for k in set(got) | set(law):
                assert got.get(k, 0.0) == pytest.approx(float(law.get(k, 0)), abs=TOL), (i, axis, k)
            # sign probabilities and moments of the same law
            gt, eq, lt = (getattr(res, f"p_{axis}_{s}")[i] for s in ("gt", "eq", "lt"))
            assert gt == pytest.approx(float(sum(p for k, p in law.items() if k > 0)), abs=TOL)
            assert eq == pytest.approx(float(law.get(0, 0)), abs=TOL)
            assert lt == pytest.approx(float(sum(p for k, p in law.items() if k < 0)), abs=TOL)
            mean = sum(Fraction(k, mm) * p for k, p in law.items())
            var = sum((Fraction(k, mm) - mean) ** 2 * p for k, p in law.items())
            delta = getattr(res, f"delta_{axis}")[i]
            std = getattr(res, f"delta_{axis}_std")[i]
            assert delta == pytest.approx(float(mean), abs=TOL)
            assert std**2 == pytest.approx(float(var), abs=TOL)
        assert res.p_a_dominates[i] == pytest.approx(float(exact.f1[i]), abs=TOL), i
        assert res.p_b_dominates[i] == pytest.approx(float(exact.f2[i]), abs=TOL), i
    # the enumeration is not trivial: ties, both signs, both dominance directions
    assert max(exact.f1) > 0.3 and max(exact.f2) > 0.3
    assert any(0 < f < 1 for f in exact.f1)


def test_dominance_map_equals_enumeration_and_compare_thresholds():
    exact = _enumerated(5, 6)
    y, a, b = _labels_scores(POS_A, POS_B, NEG_A, NEG_B)
    dm = dominance_map(y, a, b, thresholds_a=TA, thresholds_b=TB)
    assert dm.p_a_dominates.shape == (TA.size, TB.size)
    np.testing.assert_allclose(dm.p_a_dominates.ravel(), [float(f) for f in exact.f1], rtol=0, atol=TOL)
    np.testing.assert_allclose(dm.p_b_dominates.ravel(), [float(f) for f in exact.f2], rtol=0, atol=TOL)
    frame = dm.to_frame()
    assert list(frame.columns[:4]) == ["threshold_a", "threshold_b", "p_a_dominates", "p_b_dominates"]
    assert list(zip(frame.threshold_a, frame.threshold_b)) == PAIRS
    assert repr(dm).startswith("DominanceMap(")


def _binormal(n_per_class, seed, rho=0.6):
    rng = np.random.default_rng(seed)
    cov = [[1.0, rho], [rho, 1.0]]
    pos = rng.multivariate_normal([1.0, 1.3], cov, n_per_class)
    neg = rng.multivariate_normal([0.0, 0.0], cov, n_per_class)
    return pos[:, 0], pos[:, 1], neg[:, 0], neg[:, 1]


def test_dominance_map_equals_compare_thresholds_pairwise():
    pa, pb, na, nb = _binormal(300, 11)
    y, a, b = _labels_scores(pa, pb, na, nb)
    ta = np.quantile(a, np.linspace(0.05, 0.95, 17))
    tb = np.quantile(b, np.linspace(0.05, 0.95, 13))
    dm = dominance_map(y, a, b, thresholds_a=ta, thresholds_b=tb, m=(250, 400))
    ga, gb = np.meshgrid(ta, tb, indexing="ij")
    ct = compare_thresholds(y, a, b, thresholds_a=ga.ravel(), thresholds_b=gb.ravel(), m=(250, 400))
    np.testing.assert_allclose(dm.p_a_dominates.ravel(), ct.p_a_dominates, rtol=0, atol=1e-15)
    np.testing.assert_allclose(dm.p_b_dominates.ravel(), ct.p_b_dominates, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(dm.delta_tpr.ravel(), ct.delta_tpr)
    np.testing.assert_array_equal(dm.delta_fpr.ravel(), ct.delta_fpr)
    assert ((dm.p_a_dominates > 1e-6) & (dm.p_a_dominates < 1 - 1e-6)).any()


def test_dominance_map_50x50_at_n_1e5():
    """A 50 × 50 grid at n = 10⁵ runs and gives probabilities (its time is measured in bench/)."""
    pa, pb, na, nb = _binormal(50_000, 5)
    y, a, b = _labels_scores(pa, pb, na, nb)
    ta = np.quantile(a, np.linspace(0.01, 0.99, 50))
    tb = np.quantile(b, np.linspace(0.01, 0.99, 50))
    dominance_map(y[::100], a[::100], b[::100], thresholds_a=ta, thresholds_b=tb)  # warm-up
    start = time.perf_counter()
    dm = dominance_map(y, a, b, thresholds_a=ta, thresholds_b=tb)
    elapsed = time.perf_counter() - start
    assert dm.p_a_dominates.shape == (50, 50)
    assert np.all((dm.p_a_dominates >= 0) & (dm.p_a_dominates <= 1))
    print(f"50x50 dominance map at n = 1e5: {elapsed:.2f} s (speed targets live in bench/)")


# ---------------------------------------------------------------------------
# Monte Carlo, correlated binormal data
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [50, 200])
@pytest.mark.montecarlo
def test_monte_carlo_agrees(n):
    pa, pb, na, nb = _binormal(n // 2, 100 + n)
    y, a, b = _labels_scores(pa, pb, na, nb)
    q = [0.3, 0.5, 0.7]
    res_q = compare_thresholds(y, a, b, total_positive_rate=q)
    ta = np.r_[res_q.thresholds_a, 0.4]
    tb = np.r_[res_q.thresholds_b, 0.9]
    res = compare_thresholds(y, a, b, thresholds_a=ta, thresholds_b=tb)
    B = 100_000
    d_tp, d_fp = brute_paired.monte_carlo_paired(pa, pb, na, nb, list(zip(ta, tb)), n_resamples=B, seed=n)
    m_pos, m_neg = n // 2, n // 2

    def close(est, exact, se, what):
        assert abs(est - exact) <= 5 * se + 1e-12, f"{what}: MC {est} vs exact {exact} (SE {se:.2g})"

    for j in range(ta.size):
        tp, fp = d_tp[:, j], d_fp[:, j]
        events = {
            "P(dTPR>=0)": (tp >= 0, res.p_tpr_gt[j] + res.p_tpr_eq[j]),
            "P(dTPR=0)": (tp == 0, res.p_tpr_eq[j]),
            "P(dFPR<=0)": (fp <= 0, res.p_fpr_lt[j] + res.p_fpr_eq[j]),
            "P(dFPR=0)": (fp == 0, res.p_fpr_eq[j]),
            "f1": ((tp >= 0) & (fp <= 0) & ~((tp == 0) & (fp == 0)), res.p_a_dominates[j]),
            "f2": ((tp <= 0) & (fp >= 0) & ~((tp == 0) & (fp == 0)), res.p_b_dominates[j]),
        }
        for what, (hits, exact) in events.items():
            p = hits.mean()
            close(p, exact, np.sqrt(max(exact * (1 - exact), 1e-12) / B), f"pair {j} {what}")
        for x, mm, mean, std in ((tp, m_pos, res.delta_tpr[j], res.delta_tpr_std[j]),
                                 (fp, m_neg, res.delta_fpr[j], res.delta_fpr_std[j])):
            r = x / mm
            close(r.mean(), mean, std / np.sqrt(B), f"pair {j} mean")
            mu4 = np.mean((r - mean) ** 4)
            close(r.var(), std**2, np.sqrt(max(mu4 - std**4, 0) / B), f"pair {j} variance")


# ---------------------------------------------------------------------------
# compare_auc (DeLong, paired)
# ---------------------------------------------------------------------------
def test_compare_auc_matches_proc_roc_test_on_asah():
    """pROC: roc.test(roc(aSAH$outcome, aSAH$s100b), roc(aSAH$outcome, aSAH$wfns))
    gives Z = -2.209, p-value = 0.02718, 95% CI -0.17421442 to -0.01040618
    (roc1 − roc2, roc1 = s100b): the same sign as delta = auc_a − auc_b."""
    d = load_asah()
    res = compare_auc(d["outcome"], d["s100b"], d["wfns"], pos_label="Poor")
    assert round(res.statistic, 3) == -2.209
    assert round(res.pvalue, 4) == 0.0272
    assert res.pvalue == pytest.approx(0.02718, abs=5e-6)
    assert res.delta_auc_low == pytest.approx(-0.17421442, abs=5e-8)
    assert res.delta_auc_high == pytest.approx(-0.01040618, abs=5e-8)
    assert res.auc_a == pytest.approx(0.73136856368563685, abs=1e-14)
    assert res.auc_b == pytest.approx(0.82367886178861793, abs=1e-14)
    assert res.delta_auc == pytest.approx(res.auc_a - res.auc_b, abs=1e-15)
    swapped = compare_auc(d["outcome"], d["wfns"], d["s100b"], pos_label="Poor")
    assert swapped.statistic == pytest.approx(-res.statistic, rel=1e-12)
    assert swapped.pvalue == pytest.approx(res.pvalue, rel=1e-12)
    frame = res.to_frame()
    for col in ("delta_auc", "delta_auc_std", "delta_auc_low", "delta_auc_high", "statistic", "pvalue"):
        assert col in frame.columns
    assert "AucComparison(" in repr(res)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compare_auc_matches_quadratic_delong(seed):
    rng = np.random.default_rng(seed)
    n_pos, n_neg = 37, 52
    pa, pb, na, nb = _binormal(60, seed)
    pa, pb, na, nb = pa[:n_pos], pb[:n_pos], na[:n_neg], nb[:n_neg]
    # ties within and between classes and models
    pa, na = np.round(pa, 1), np.round(na, 1)
    y, a, b = _labels_scores(pa, pb, na, nb)
    order = rng.permutation(y.size)  # instance order must not matter
    res = compare_auc(y[order], a[order], b[order])
    auc_a, auc_b, var, z = brute_paired.delong_paired_direct(pa, na, pb, nb)
    assert res.auc_a == pytest.approx(auc_a, abs=1e-14)
    assert res.auc_b == pytest.approx(auc_b, abs=1e-14)
    assert res.delta_auc_std**2 == pytest.approx(var, rel=1e-10)
    assert res.statistic == pytest.approx(z, rel=1e-10)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-10)
    # each AUC agrees with the one-model roc_auc
    assert res.auc_a == pytest.approx(rocci.roc_auc(y, a).auc, abs=1e-15)
    zc = stats.norm.ppf(0.975)
    assert (res.delta_auc_low, res.delta_auc_high) == pytest.approx((res.delta_auc - zc * res.delta_auc_std, res.delta_auc + zc * res.delta_auc_std), abs=1e-14)


def test_compare_auc_constant_and_identical_models():
    y, a, b = _labels_scores(POS_A, POS_B, NEG_A, NEG_B)
    const = np.full(a.size, 0.3)
    res = compare_auc(y, a, const)  # allowed: the constant model has AUC 1/2
    assert res.auc_b == 0.5 and np.isfinite(res.statistic)
    with pytest.raises(InputError, match="variance"):
        compare_auc(y, a, a)
    with pytest.raises(InputError, match="score_b"):
        compare_auc(y, a, b[:-1])
    with pytest.raises(InputError, match="method"):
        compare_auc(y, a, b, method="bootstrap")


# ---------------------------------------------------------------------------
# McNemar
# ---------------------------------------------------------------------------
def _mcnemar_data(both_right, a_only, b_only, both_wrong):
    """Instances in each cell of the right/wrong table at threshold 0.5, both classes mixed."""
    y, a, b = [], [], []
    for count, right_a, right_b in ((both_right, 1, 1), (a_only, 1, 0), (b_only, 0, 1), (both_wrong, 0, 0)):
        for k in range(count):
            label = k % 2  # alternate positives and negatives
            y.append(label)
            # a right on a positive: score above 0.5; right on a negative: below
            a.append(0.8 if (right_a == label) else 0.2)
            b.append(0.7 if (right_b == label) else 0.3)
    return np.array(y), np.array(a), np.array(b)


def test_mcnemar_by_hand():
    """Table: 8 both right, 15 only a right (e10), 5 only b right (e01), 2 both wrong.

    Corrected χ² = (|5 − 15| − 1)²/20 = 81/20 = 4.05 > 3.84 (the course notes'
    χ²_{0.05,1}): reject at 5%.  Uncorrected 100/20 = 5.  Exact two-sided
    p = 2·P(Bin(20, ½) <= 5) = 2·21700/2^20.
    """
    y, a, b = _mcnemar_data(8, 15, 5, 2)
    res = mcnemar(y, a, b, thresholds_a=0.5)
    assert (res.n_both_correct, res.n_a_only_correct, res.n_b_only_correct, res.n_both_wrong) == (8, 15, 5, 2)
    assert res.statistic == pytest.approx(4.05, abs=1e-14)
    assert res.statistic_uncorrected == pytest.approx(5.0, abs=1e-14)
    assert stats.chi2.ppf(0.95, 1) == pytest.approx(3.84, abs=0.005)
    assert res.statistic > 3.84 and res.pvalue < 0.05
    assert res.pvalue == pytest.approx(stats.chi2.sf(4.05, 1), rel=1e-12)
    assert res.pvalue_uncorrected == pytest.approx(stats.chi2.sf(5.0, 1), rel=1e-12)
    exact = 2 * Fraction(sum(comb(20, k) for k in range(6)), 2**20)
    assert exact == Fraction(2 * 21700, 2**20)
    assert res.exact_pvalue == pytest.approx(float(exact), rel=1e-12)
    assert res.accuracy_a == pytest.approx(23 / 30) and res.accuracy_b == pytest.approx(13 / 30)
    unc = mcnemar(y, a, b, thresholds_a=0.5, correction=False)
    assert unc.statistic == pytest.approx(5.0) and unc.pvalue == pytest.approx(res.pvalue_uncorrected)
    assert res.table().to_numpy().tolist() == [[8, 15], [5, 2]]
    assert "McNemarResult(" in repr(res) and len(res.to_frame()) == 1


def test_mcnemar_takes_lists_of_threshold_pairs_one_row_each():
    """thresholds_a/thresholds_b as lists: one test per pair, the numbers of the one-pair calls, as arrays."""
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.4
    a, b = rng.normal(size=300) + y, rng.normal(size=300) + 0.6 * y
    ta, tb = [0.5, 0.0, 1.0], [0.5, 0.3, -0.2]
    res = mcnemar(y, a, b, thresholds_a=ta, thresholds_b=tb, correction=False)
    frame = res.to_frame()
    assert len(frame) == 3 and list(frame.columns[:2]) == ["threshold_a", "threshold_b"]
    assert isinstance(res.statistic, np.ndarray) and res.thresholds_a.tolist() == ta
    for i, (x, z) in enumerate(zip(ta, tb)):
        one = mcnemar(y, a, b, thresholds_a=x, thresholds_b=z, correction=False)
        assert isinstance(one.statistic, float) and one.thresholds_a == x
        pd.testing.assert_frame_equal(frame.iloc[[i]].reset_index(drop=True), one.to_frame())
        assert res.table(i).equals(one.table())
        assert (res.accuracy_a[i], res.accuracy_b[i]) == (one.accuracy_a, one.accuracy_b)
    # one threshold for model b pairs with every threshold of model a
    np.testing.assert_array_equal(mcnemar(y, a, b, thresholds_a=ta, thresholds_b=0.3).thresholds_b, [0.3] * 3)
    assert "McNemarResult(" in repr(res)


def test_mcnemar_thresholds_and_edge_cases():
    y, a, b = _mcnemar_data(4, 3, 3, 1)
    res = mcnemar(y, a, b, thresholds_a=0.5)
    # e01 = e10: no evidence; the continuity correction is not applied (R's mcnemar.test)
    assert res.statistic == 0 and res.statistic_uncorrected == 0
    assert res.pvalue == 1.0 and res.exact_pvalue == 1.0
    # threshold_b moves only model b: at 0.0 model b calls everything positive
    res_b = mcnemar(y, a, b, thresholds_a=0.5, thresholds_b=0.0)
    right_a = (a >= 0.5) == (y == 1)
    right_b = y == 1
    assert res_b.n_a_only_correct == int(np.sum(right_a & ~right_b))
    assert res_b.n_b_only_correct == int(np.sum(~right_a & right_b))
    with pytest.raises(InputError, match="discordant"):
        mcnemar(y, a, a, thresholds_a=0.5)
    with pytest.raises(InputError, match="as many of each"):
        mcnemar(y, a, b, thresholds_a=[0.5, 0.6], thresholds_b=[0.1, 0.2, 0.3])
    with pytest.raises(InputError, match="thresholds_a"):
        mcnemar(y, a, b)
    with pytest.raises(InputError, match="score_a"):
        mcnemar(y, np.r_[a[:-1], np.nan], b, thresholds_a=0.5)
