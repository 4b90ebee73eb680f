"""Unpaired comparisons (issue 32): two models on different, independent test sets.

* compare_auc_unpaired: against pROC (committed output of tests/reference/proc_roc_test_unpaired.R, and
  live when Rscript with pROC is installed), a direct O(n+·n−) numpy formula, and the candidate variance
  definitions on tiny data (only pROC's ddof = 1 one matches, and it is compare_auc's);
* compare_vertical_unpaired and compare_thresholds_unpaired: against the enumeration of every pair of
  stratified bootstrap resamples of the two test sets (exact fractions), with m = n and m ≠ n, and a seeded
  Monte Carlo of the unpaired bootstrap.
"""

from __future__ import annotations

import itertools
import math
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

import rocci
from reference.brute import class_samples, law_mean, law_quantile, law_var
from reference.datasets import load_asah

REFERENCE = Path(__file__).resolve().parents[1] / "reference"


# ---------------------------------------------------------------------------
# AUC
# ---------------------------------------------------------------------------


def _asah_parts():
    d = load_asah()
    return d.iloc[:60], d.iloc[60:]


def test_matches_procs_committed_output():
    """roc.test(roc1, roc2, paired = FALSE, method = "delong") on aSAH rows 1-60 against rows 61-113
    (pROC 1.18.0; tests/reference/proc_roc_test_unpaired.R)."""
    a, b = _asah_parts()
    proc = pd.read_csv(REFERENCE / "proc_roc_test_unpaired.csv", comment="#")
    assert len(proc) == 4
    for row in proc.itertuples():
        res = rocci.compare_auc_unpaired(a["outcome"], a[row.marker_a], b["outcome"], b[row.marker_b],
                                         pos_label="Poor")
        assert (res.auc_a, res.auc_b) == pytest.approx((row.auc_a, row.auc_b), rel=1e-15)
        assert (res.auc_std_a**2, res.auc_std_b**2) == pytest.approx((row.var_a, row.var_b), rel=1e-12)
        assert res.statistic == pytest.approx(row.statistic, rel=1e-12)
        assert res.df == pytest.approx(row.df, rel=1e-12)
        assert res.pvalue_t == pytest.approx(row.p_value, rel=1e-10)
        assert res.pvalue == pytest.approx(2 * special.ndtr(-abs(row.statistic)), rel=1e-12)


def _has_proc() -> bool:
    if shutil.which("Rscript") is None:
        return False
    return subprocess.run(["Rscript", "-e", "suppressMessages(library(pROC))"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _has_proc(), reason="Rscript with pROC is not installed (apt-get install r-cran-proc)")
def test_matches_proc_live(tmp_path):
    """Fresh tied data through pROC itself: the statistic, pROC's df and its t p-value."""
    rng = np.random.default_rng(32)
    ya, yb = rng.random(90) < 0.4, rng.random(130) < 0.25
    sa, sb = np.round(ya + rng.normal(size=90), 1), np.round(0.6 * yb + rng.normal(size=130), 1)
    pd.DataFrame({"y": ya.astype(int), "s": sa}).to_csv(tmp_path / "a.csv", index=False)
    pd.DataFrame({"y": yb.astype(int), "s": sb}).to_csv(tmp_path / "b.csv", index=False)
    code = (
        "suppressMessages(library(pROC)); a <- read.csv('a.csv'); b <- read.csv('b.csv');"
        "r1 <- roc(a$y, a$s, levels = c(0, 1), direction = '<', quiet = TRUE);"
        "r2 <- roc(b$y, b$s, levels = c(0, 1), direction = '<', quiet = TRUE);"
        "t <- roc.test(r1, r2, paired = FALSE, method = 'delong');"
        "cat(sprintf('%.17g', c(t$statistic, t$parameter, t$p.value)))"
    )
    out = subprocess.run(["Rscript", "-e", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    stat, df, p = (float(x) for x in out.stdout.split())
    res = rocci.compare_auc_unpaired(ya, sa, yb, sb)
    assert res.statistic == pytest.approx(stat, rel=1e-12)
    assert res.df == pytest.approx(df, rel=1e-12)
    assert res.pvalue_t == pytest.approx(p, rel=1e-10)


def _psi_placements(y, s):
    y = np.asarray(y, bool)
    psi = (s[y][:, None] > s[~y][None, :]) + 0.5 * (s[y][:, None] == s[~y][None, :])
    return psi.mean(1), psi.mean(0), psi.mean()


def test_direct_numpy_formula():
    rng = np.random.default_rng(4)
    ya, yb = rng.random(120) < 0.5, rng.random(80) < 0.35
    sa, sb = np.round(ya + rng.normal(size=120), 1), np.round(yb * 0.3 + rng.normal(size=80), 2)
    res = rocci.compare_auc_unpaired(ya, sa, yb, sb, confidence_level=0.9)
    var = {}
    for key, y, s in (("a", ya, sa), ("b", yb, sb)):
        v10, v01, auc = _psi_placements(y, s)
        var[key] = (auc, v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size)
    delta = var["a"][0] - var["b"][0]
    sd = math.sqrt(var["a"][1] + var["b"][1])
    z = special.ndtri(0.95)
    assert res.delta_auc == pytest.approx(delta, abs=1e-15)
    assert res.delta_auc_std == pytest.approx(sd, rel=1e-12)
    assert res.statistic == pytest.approx(delta / sd, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(delta / sd)), rel=1e-10)
    assert (res.delta_auc_low, res.delta_auc_high) == pytest.approx((delta - z * sd, delta + z * sd), rel=1e-12)
    assert list(res.to_frame().columns) == ["auc_a", "auc_b", "delta_auc", "delta_auc_std", "delta_auc_low",
                                            "delta_auc_high", "statistic", "pvalue", "df", "pvalue_t", "method",
                                            "confidence_level"]


def test_variance_definition_among_the_candidates():
    """Tiny tied data: of the variance definitions in use (DeLong with ddof = 1 as pROC and compare_auc,
    the V-statistic ddof = 0, the exact-bootstrap variance, Hanley–McNeil), rocci's is the first and only
    the first; and compare_auc against a constant model (variance 0, covariance 0) gives the same."""
    y = np.array([1, 1, 1, 0, 0, 0, 0])
    s = np.array([0.9, 0.5, 0.5, 0.5, 0.4, 0.4, 0.1])
    res = rocci.compare_auc_unpaired(y, s, y, np.zeros(7) + 0.3)  # b: constant, variance 0
    v10, v01, auc = _psi_placements(y, s)
    candidates = {
        "ddof1": v10.var(ddof=1) / 3 + v01.var(ddof=1) / 4,
        "ddof0": v10.var() / 3 + v01.var() / 4,
        "bootstrap": rocci.roc_auc(y, s, method="exact-bootstrap").auc_std ** 2,
        "hanley": rocci.roc_auc(y, s, method="hanley-mcneil").auc_std ** 2,
    }
    got = res.auc_std_a**2
    assert res.auc_std_b == 0
    match = [k for k, v in candidates.items() if abs(v - got) <= 1e-15 * v]
    assert match == ["ddof1"], (got, candidates)
    assert min(abs(v - got) / got for k, v in candidates.items() if k != "ddof1") > 1e-3
    assert rocci.compare_auc(y, s, np.zeros(7) + 0.3).delta_auc_std ** 2 == pytest.approx(got, rel=1e-14)


def test_auc_bad_input():
    y, s = np.array([1, 1, 0, 0, 0]), np.array([0.9, 0.8, 0.2, 0.1, 0.3])
    with pytest.raises(rocci.InputError, match="score_b has 4 values but y_b has 5"):
        rocci.compare_auc_unpaired(y, s, y, s[:4])
    with pytest.raises(rocci.InputError, match="undefined"):
        rocci.compare_auc_unpaired(y, s, y, s)  # both perfect
    with pytest.raises(rocci.InputError, match="at least 2 positives"):
        rocci.compare_auc_unpaired(y, s, np.array([1, 0, 0]), np.array([0.2, 0.1, 0.3]))


# ---------------------------------------------------------------------------
# Enumeration of every pair of resamples
# ---------------------------------------------------------------------------

#: two tiny test sets with ties (positive–negative and among negatives)
SAMPLE_A = ([0.9, 0.5, 0.3], [0.5, 0.4, 0.4])  # n+ = 3, n− = 3
SAMPLE_B = ([0.6, 0.4], [0.7, 0.4, 0.2, 0.2])  # n+ = 2, n− = 4


def _one_sample_resamples(pos, neg, m_pos, m_neg):
    """Every stratified resample of one test set: ``(weight, drawn positive scores, drawn negative scores)``
    with the multinomial weights of :func:`reference.brute.class_samples` (they sum to ``n+^m+ · n−^m−``)."""
    pos, neg = np.asarray(pos), np.asarray(neg)
    cp, wp = class_samples(pos.size, m_pos)
    cn, wn = class_samples(neg.size, m_neg)
    out = []
    for i, j in itertools.product(range(len(wp)), range(len(wn))):
        out.append((int(wp[i]) * int(wn[j]), np.repeat(pos, cp[i]), np.repeat(neg, cn[j])))
    return out, pos.size**m_pos * neg.size**m_neg


def _vertical_count(xs, ys, r):
    """``#(positive draws >= T_r)``, ``T_r`` the r-th largest negative draw (math.md §3)."""
    t_r = np.sort(ys)[::-1][r - 1]
    return int((xs >= t_r).sum())


def _enumerated_law(stat_a, stat_b, sample_a, sample_b):
    """Exact law of ``stat_a(resample of a) − stat_b(resample of b)`` over every pair of resamples."""
    (ra, ta), (rb, tb) = sample_a, sample_b
    law: dict[Fraction, int] = {}
    values_b = [(w, stat_b(x, y)) for w, x, y in rb]
    for wa, xa, ya in ra:
        va = stat_a(xa, ya)
        for wb, vb in values_b:
            law[va - vb] = law.get(va - vb, 0) + wa * wb
    return {v: Fraction(w, ta * tb) for v, w in sorted(law.items())}


def _level(fpr, m_neg):
    return min(max(round(fpr * m_neg), 1), m_neg - 1)  # nearest r (half to even, as numpy's rint)


def _as_arrays(sample):
    pos, neg = sample
    return np.r_[np.ones(len(pos), int), np.zeros(len(neg), int)], np.r_[pos, neg]


@pytest.mark.parametrize("m_a, m_b", [(None, None), ((2, 4), (3, 3))])
@pytest.mark.parametrize("level", [0.95, 0.8])
def test_vertical_against_enumeration(m_a, m_b, level):
    (ma_pos, ma_neg), (mb_pos, mb_neg) = m_a or (3, 3), m_b or (2, 4)
    sa = _one_sample_resamples(*SAMPLE_A, ma_pos, ma_neg)
    sb = _one_sample_resamples(*SAMPLE_B, mb_pos, mb_neg)
    fpr = [0.3, 0.5, 0.7]
    (ya, xa), (yb, xb) = _as_arrays(SAMPLE_A), _as_arrays(SAMPLE_B)
    res = rocci.compare_vertical_unpaired(ya, xa, yb, xb, fpr=fpr, m_a=m_a, m_b=m_b, confidence_level=level)
    for i, f in enumerate(fpr):
        r_a, r_b = _level(f, ma_neg), _level(f, mb_neg)
        assert (res.r_a[i], res.r_b[i]) == (r_a, r_b)
        law = _enumerated_law(lambda x, y: Fraction(_vertical_count(x, y, r_a), ma_pos),
                              lambda x, y: Fraction(_vertical_count(x, y, r_b), mb_pos), sa, sb)
        values, probs = res.distribution(i)
        assert [Fraction(v).limit_denominator(1000) for v in values] == list(law)
        np.testing.assert_allclose(probs, [float(p) for p in law.values()], rtol=1e-13, atol=1e-16)
        assert res.p_a_better[i] == pytest.approx(float(sum(p for v, p in law.items() if v > 0)), abs=1e-15)
        assert res.p_tie[i] == pytest.approx(float(law.get(Fraction(0), 0)), abs=1e-15)
        alpha = 1 - level
        assert res.delta_tpr_low[i] == float(law_quantile(law, alpha / 2))
        assert res.delta_tpr_high[i] == float(law_quantile(law, 1 - alpha / 2))
        assert res.delta_tpr_mean[i] == pytest.approx(float(law_mean(law)), abs=1e-15)
        assert res.delta_tpr_std[i] ** 2 == pytest.approx(float(law_var(law)), abs=1e-15)
    assert 0 < res.p_tie.min() and res.p_a_better.max() < 1  # the data exercise ties and both signs


def _observed_tpr(sample, fpr_level):
    pos, neg = np.asarray(sample[0]), np.sort(sample[1])[::-1]
    k = min(max(math.ceil(round(fpr_level * neg.size, 9)), 1), neg.size)
    return np.mean(pos >= neg[k - 1])


def test_vertical_observed_difference_and_frame():
    (ya, xa), (yb, xb) = _as_arrays(SAMPLE_A), _as_arrays(SAMPLE_B)
    res = rocci.compare_vertical_unpaired(ya, xa, yb, xb, fpr=[0.3, 0.7])
    for i in range(2):
        want = _observed_tpr(SAMPLE_A, res.fpr_a[i]) - _observed_tpr(SAMPLE_B, res.fpr_b[i])
        assert res.delta_tpr[i] == want
    assert (res.fpr_a[1], res.fpr_b[1]) == (2 / 3, 3 / 4)  # each test set's own nearest level
    assert list(res.to_frame().columns) == ["fpr", "fpr_a", "fpr_b", "tpr_a", "tpr_b", "delta_tpr", "delta_tpr_mean",
                                            "delta_tpr_std", "delta_tpr_low", "delta_tpr_high", "p_a_better",
                                            "p_tie", "truncated_mass"]
    with pytest.raises(rocci.InputError, match="false positive rates"):
        rocci.compare_vertical_unpaired(ya, xa, yb, xb, fpr=None)


@pytest.mark.parametrize("m_a, m_b", [(None, None), ((4, 2), (3, 5))])
def test_thresholds_against_enumeration(m_a, m_b):
    (ma_pos, ma_neg), (mb_pos, mb_neg) = m_a or (3, 3), m_b or (2, 4)
    sa = _one_sample_resamples(*SAMPLE_A, ma_pos, ma_neg)
    sb = _one_sample_resamples(*SAMPLE_B, mb_pos, mb_neg)
    (ya, xa), (yb, xb) = _as_arrays(SAMPLE_A), _as_arrays(SAMPLE_B)
    ta, tb = [0.5, 0.4, 0.9], [0.4, 0.6, 0.2]
    res = rocci.compare_thresholds_unpaired(ya, xa, yb, xb, thresholds_a=ta, thresholds_b=tb, m_a=m_a, m_b=m_b,
                                            confidence_level=0.9)
    for i in range(3):
        tpr = _enumerated_law(lambda x, y: Fraction(int((x >= ta[i]).sum()), ma_pos),
                              lambda x, y: Fraction(int((x >= tb[i]).sum()), mb_pos), sa, sb)
        fpr = _enumerated_law(lambda x, y: Fraction(int((y >= ta[i]).sum()), ma_neg),
                              lambda x, y: Fraction(int((y >= tb[i]).sum()), mb_neg), sa, sb)
        for axis, law in (("tpr", tpr), ("fpr", fpr)):
            values, probs = res.distribution(i, axis)
            assert [Fraction(v).limit_denominator(1000) for v in values] == list(law)
            np.testing.assert_allclose(probs, [float(p) for p in law.values()], rtol=1e-13, atol=1e-16)
            assert getattr(res, f"delta_{axis}_low")[i] == float(law_quantile(law, 0.05))
            assert getattr(res, f"delta_{axis}_high")[i] == float(law_quantile(law, 0.95))
            assert getattr(res, f"delta_{axis}")[i] == pytest.approx(float(law_mean(law)), abs=1e-15)
            assert getattr(res, f"delta_{axis}_std")[i] ** 2 == pytest.approx(float(law_var(law)), abs=1e-15)

        def p(law, keep):
            return float(sum(q for v, q in law.items() if keep(v)))

        assert res.p_tpr_a_higher[i] == pytest.approx(p(tpr, lambda v: v > 0), abs=1e-15)
        assert res.p_tpr_tie[i] == pytest.approx(p(tpr, lambda v: v == 0), abs=1e-15)
        assert res.p_fpr_a_lower[i] == pytest.approx(p(fpr, lambda v: v < 0), abs=1e-15)
        assert res.p_fpr_tie[i] == pytest.approx(p(fpr, lambda v: v == 0), abs=1e-15)
        # eq. 4.5 over the joint law of (ΔTPR*, ΔFPR*): every pair of resamples again
        dom_a = dom_b = Fraction(0)
        (ra, t_a), (rb, t_b) = sa, sb
        for wa, xa_, ya_ in ra:
            for wb, xb_, yb_ in rb:
                dt = Fraction(int((xa_ >= ta[i]).sum()), ma_pos) - Fraction(int((xb_ >= tb[i]).sum()), mb_pos)
                df = Fraction(int((ya_ >= ta[i]).sum()), ma_neg) - Fraction(int((yb_ >= tb[i]).sum()), mb_neg)
                w = Fraction(wa * wb, t_a * t_b)
                dom_a += w if (dt >= 0 and df <= 0 and (dt > 0 or df < 0)) else 0
                dom_b += w if (dt <= 0 and df >= 0 and (dt < 0 or df > 0)) else 0
        assert res.p_a_dominates[i] == pytest.approx(float(dom_a), abs=1e-15)
        assert res.p_b_dominates[i] == pytest.approx(float(dom_b), abs=1e-15)


# ---------------------------------------------------------------------------
# Larger data: the two routes agree, and a Monte Carlo of the unpaired bootstrap
# ---------------------------------------------------------------------------


def _two_test_sets(seed=21, n_a=(30, 40), n_b=(25, 45)):
    rng = np.random.default_rng(seed)
    pos_a, neg_a = np.round(rng.normal(0.6, 0.25, n_a[0]), 1), np.round(rng.normal(0.4, 0.25, n_a[1]), 1)
    pos_b, neg_b = np.round(rng.normal(0.55, 0.25, n_b[0]), 1), np.round(rng.normal(0.4, 0.25, n_b[1]), 1)
    return (pos_a, neg_a), (pos_b, neg_b)


def test_bisection_route_equals_the_whole_law():
    """Bounds and sign probabilities by bisection on the lattice equal those read off the sorted k_a·k_b law
    (m+ 7,000 and 6,000, past the 4,000 where the one-model laws become windows)."""
    rng = np.random.default_rng(2)
    ya, yb = rng.random(14_000) < 0.5, rng.random(15_000) < 0.4
    sa, sb = ya + rng.normal(size=ya.size), np.round(0.9 * yb + rng.normal(size=yb.size), 2)
    res = rocci.compare_vertical_unpaired(ya, sa, yb, sb, fpr=[0.05, 0.5])
    assert res.m_pos_a != res.m_pos_b and res.m_pos_a > 4000
    for i in range(2):
        values, probs = res.distribution(i)
        cdf = np.cumsum(probs)
        assert abs(cdf[-1] - 1) < 1e-12
        assert res.delta_tpr_low[i] == values[np.argmax(cdf >= 0.025 - 1e-12)]
        assert res.delta_tpr_high[i] == values[np.argmax(cdf >= 0.975 - 1e-12)]
        assert res.p_a_better[i] == pytest.approx(probs[values > 0].sum(), abs=1e-13)
        assert res.p_tie[i] == pytest.approx(probs[values == 0].sum(), abs=1e-15)
        assert res.delta_tpr_mean[i] == pytest.approx(values @ probs, abs=1e-12)


@pytest.mark.montecarlo
def test_vertical_against_monte_carlo():
    """400,000 seeded unpaired bootstrap resamples (each test set resampled on its own): P(Δ* > 0),
    P(Δ* = 0), the mean, and the bounds' CDF levels within 4 Monte Carlo standard errors."""
    (pos_a, neg_a), (pos_b, neg_b) = _two_test_sets()
    ya, xa = np.r_[np.ones(pos_a.size), np.zeros(neg_a.size)], np.r_[pos_a, neg_a]
    yb, xb = np.r_[np.ones(pos_b.size), np.zeros(neg_b.size)], np.r_[pos_b, neg_b]
    fpr = [0.2, 0.5]
    res = rocci.compare_vertical_unpaired(ya, xa, yb, xb, fpr=fpr)
    rng = np.random.default_rng(20261127)
    n_boot, deltas = 400_000, {f: [] for f in fpr}
    for _ in range(n_boot // 50_000):
        tpr = {}
        for key, pos, neg in (("a", pos_a, neg_a), ("b", pos_b, neg_b)):
            xs = pos[rng.integers(0, pos.size, (50_000, pos.size))]
            ys = -np.sort(-neg[rng.integers(0, neg.size, (50_000, neg.size))], axis=1)
            for f in fpr:
                t_r = ys[:, _level(f, neg.size) - 1]
                tpr[key, f] = (xs >= t_r[:, None]).sum(axis=1) / pos.size
        for f in fpr:
            deltas[f].append(tpr["a", f] - tpr["b", f])
    for i, f in enumerate(fpr):
        d = np.concatenate(deltas[f])
        for got, p in ((res.p_a_better[i], np.mean(d > 1e-12)), (res.p_tie[i], np.mean(np.abs(d) <= 1e-12))):
            assert abs(got - p) < 4 * math.sqrt(max(p * (1 - p), 1e-6) / n_boot)
        assert abs(res.delta_tpr_mean[i] - d.mean()) < 4 * d.std() / math.sqrt(n_boot)
        assert abs(res.delta_tpr_std[i] - d.std()) < 0.01 * d.std()
        se = 4 * math.sqrt(0.025 * 0.975 / n_boot)
        low, high = res.delta_tpr_low[i], res.delta_tpr_high[i]
        assert np.mean(d < low - 1e-12) < 0.025 + se and np.mean(d <= low + 1e-12) > 0.025 - se
        assert np.mean(d < high - 1e-12) < 0.975 + se and np.mean(d <= high + 1e-12) > 0.975 - se
        assert 0.05 < res.p_a_better[i] < 0.95 and res.p_tie[i] > 0.01  # a case where the checks can fail
