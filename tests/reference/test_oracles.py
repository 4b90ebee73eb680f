"""Self-checks of the brute-force oracles (no rocci involved).

The oracles are only useful if they are right, so they are checked against
each other (multisets vs ordered draw sequences, enumeration vs Monte Carlo),
against hand computations, and against the closed forms of math.md that the
package implements (binomial law, eq. 4.12 mixture, section 6 AUC variance).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from reference import brute
from reference.datasets import (
    PROC_S100B_SENS_COUNTS,
    PROC_S100B_SPEC_COUNTS,
    TINY,
    TINY_M,
    load_asah,
)

TINY_CASES = [(name, m) for name in TINY for m in TINY_M[name]]


def _m(name, m):
    pos, neg = TINY[name]
    return (len(pos), len(neg)) if m is None else m


@pytest.mark.parametrize("n,m", [(1, 4), (3, 1), (3, 4), (5, 6)])
def test_class_samples_are_all_multisets(n, m):
    counts, w = brute.class_samples(n, m)
    assert counts.shape == (math.comb(n + m - 1, m), n)
    assert (counts.sum(axis=1) == m).all()
    assert len({tuple(c) for c in counts.tolist()}) == counts.shape[0]
    assert sum(w.tolist()) == n**m


@pytest.mark.parametrize("m_pos,m_neg", [(3, 3), (2, 4), (4, 2)])
def test_multisets_match_ordered_draw_sequences(m_pos, m_neg):
    pos, neg = [0.9, 0.5, 0.5], [0.8, 0.5, 0.4]
    for t in (0.8, 0.5):
        for r in range(1, m_neg):
            ex = brute.enumerate_bootstrap(pos, neg, m_pos, m_neg, thresholds=[t], levels=[r])
            od = brute.enumerate_ordered_draws(pos, neg, m_pos, m_neg, t=t, r=r)
            assert ex.tpr[0] == od["tpr"]
            assert ex.fpr[0] == od["fpr"]
            assert ex.vertical[0] == od["vertical"]
            assert ex.auc == od["auc"]


@pytest.mark.parametrize("name,m", TINY_CASES)
def test_laws_are_probability_distributions(name, m):
    pos, neg = TINY[name]
    m_pos, m_neg = _m(name, m)
    ex = brute.enumerate_bootstrap(pos, neg, m_pos, m_neg)
    for law in ex.tpr + ex.fpr + ex.vertical + ex.threshold_law + [ex.auc]:
        assert sum(law.values()) == 1
        assert all(p > 0 for p in law.values())


@pytest.mark.parametrize("name,m", TINY_CASES)
def test_threshold_laws_are_binomial(name, m):
    """math.md section 1: m+ TPR* ~ Bin(m+, n_t+/n+), m- FPR* ~ Bin(m-, n_t-/n-)."""
    pos, neg = TINY[name]
    m_pos, m_neg = _m(name, m)
    ex = brute.enumerate_bootstrap(pos, neg, m_pos, m_neg, levels=[], auc=False)
    for j, t in enumerate(ex.thresholds):
        for law, scores, mm in ((ex.tpr[j], pos, m_pos), (ex.fpr[j], neg, m_neg)):
            p = Fraction(sum(s >= t for s in scores), len(scores))
            binom = {
                Fraction(k, mm): math.comb(mm, k) * p**k * (1 - p) ** (mm - k)
                for k in range(mm + 1)
            }
            binom = {v: q for v, q in binom.items() if q != 0}
            assert law == binom


def _binom_cdf(r_minus_1, m, p):
    return sum(
        (math.comb(m, j) * p**j * (1 - p) ** (m - j) for j in range(r_minus_1 + 1)),
        Fraction(0),
    )


@pytest.mark.parametrize("name,m", TINY_CASES)
def test_vertical_law_is_the_eq_4_12_mixture(name, m):
    """math.md section 3: P(T_r = s_k) = B(r-1; m-, (k-1)/n-) - B(r-1; m-, k/n-),
    and given T_r = s_k the positive count is Bin(m+, n_k+/n+)."""
    pos, neg = TINY[name]
    m_pos, m_neg = _m(name, m)
    n_pos, n_neg = len(pos), len(neg)
    ex = brute.enumerate_bootstrap(pos, neg, m_pos, m_neg, thresholds=[], auc=False)
    s = sorted(neg, reverse=True)
    for j, r in enumerate(ex.levels):
        mix = {}
        tlaw = {}
        for k in range(1, n_neg + 1):
            w = _binom_cdf(r - 1, m_neg, Fraction(k - 1, n_neg)) - _binom_cdf(
                r - 1, m_neg, Fraction(k, n_neg)
            )
            if w == 0:
                continue
            tlaw[s[k - 1]] = tlaw.get(s[k - 1], Fraction(0)) + w
            pk = Fraction(sum(x >= s[k - 1] for x in pos), n_pos)
            for l in range(m_pos + 1):
                q = w * math.comb(m_pos, l) * pk**l * (1 - pk) ** (m_pos - l)
                if q:
                    v = Fraction(l, m_pos)
                    mix[v] = mix.get(v, Fraction(0)) + q
        assert ex.vertical[j] == dict(sorted(mix.items()))
        assert ex.threshold_law[j] == tlaw
        # eqs 4.13 and 4.14 (corrected): mean and second moment of the mixture
        mean = sum(
            (tlaw[t] * Fraction(sum(x >= t for x in pos), n_pos) for t in tlaw), Fraction(0)
        )
        assert brute.law_mean(ex.vertical[j]) == mean


@pytest.mark.parametrize("name,m", TINY_CASES)
def test_auc_variance_matches_section_6_closed_form(name, m):
    """Var(AUC*) = [(m- - 1) xi10 + (m+ - 1) xi01 + xi11] / (m+ m-) (V-statistic forms)."""
    pos, neg = TINY[name]
    m_pos, m_neg = _m(name, m)
    ex = brute.enumerate_bootstrap(pos, neg, m_pos, m_neg, thresholds=[], levels=[])
    psi = [[Fraction(2 if x > y else (1 if x == y else 0), 2) for y in neg] for x in pos]
    n_pos, n_neg = len(pos), len(neg)
    a = sum((sum(row) for row in psi), Fraction(0)) / (n_pos * n_neg)
    v10 = [sum(row) / n_neg for row in psi]
    v01 = [sum(psi[i][j] for i in range(n_pos)) / n_pos for j in range(n_neg)]
    xi10 = sum((v - a) ** 2 for v in v10) / n_pos
    xi01 = sum((v - a) ** 2 for v in v01) / n_neg
    xi11 = sum((psi[i][j] - a) ** 2 for i in range(n_pos) for j in range(n_neg)) / (n_pos * n_neg)
    closed = ((m_neg - 1) * xi10 + (m_pos - 1) * xi01 + xi11) / (m_pos * m_neg)
    assert brute.law_var(ex.auc) == closed
    assert brute.law_mean(ex.auc) == a


def _pmf_close(law: dict, mc_values: np.ndarray, B: int):
    """Every value of the exact law (and every MC value) within n_se standard errors.

    SE of an empirical frequency is sqrt(p(1-p)/B); p is floored at 10/B so that
    values of tiny probability (a handful of expected hits) are not judged by a
    normal approximation that does not hold there. With K values compared,
    n_se = max(4.5, z(1e-5 / (2K))) (Bonferroni): a correct law fails by
    chance with probability <= 1e-5.
    """
    vals, cnt = np.unique(mc_values, return_counts=True)
    emp = dict(zip(vals.tolist(), (cnt / B).tolist()))
    keys = {float(v) for v in law} | set(emp)
    n_se = max(4.5, float(stats.norm.isf(1e-5 / (2 * len(keys)))))
    exact = {float(v): float(p) for v, p in law.items()}
    bad = []
    for v in sorted(keys):
        p = exact.get(v, 0.0)
        q = emp.get(v, 0.0)
        se = math.sqrt(max(p, 10.0 / B) * (1 - min(p, 0.999999)) / B)
        if abs(p - q) > n_se * se:
            bad.append((v, p, q, (q - p) / se))
    assert not bad, f"exact vs MC frequency off by > {n_se} SE: {bad}"


@pytest.mark.montecarlo
def test_enumeration_agrees_with_monte_carlo():
    pos, neg = TINY["brief"]
    m_pos, m_neg = 3, 6
    ex = brute.enumerate_bootstrap(pos, neg, m_pos, m_neg)
    B = 200_000
    mc = brute.monte_carlo_bootstrap(
        pos, neg, m_pos, m_neg, thresholds=ex.thresholds, levels=ex.levels, n_resamples=B, seed=11
    )
    # values are compared as floats: k/m computed identically on both sides
    for j in range(len(ex.thresholds)):
        _pmf_close(ex.tpr[j], mc.tp[:, j] / m_pos, B)
        _pmf_close(ex.fpr[j], mc.fp[:, j] / m_neg, B)
    for j in range(len(ex.levels)):
        _pmf_close(ex.vertical[j], mc.vertical_tp[:, j] / m_pos, B)
        _pmf_close(ex.threshold_law[j], mc.t_r[:, j], B)
    # AUC values: k/(2 m+ m-) as floats may differ in the last bit between the
    # rank route and Fraction->float; compare on the integer lattice.
    lattice = 2 * m_pos * m_neg
    auc_law = {Fraction(round(float(v) * lattice)): p for v, p in ex.auc.items()}
    _pmf_close(auc_law, np.rint(mc.auc * lattice), B)
    # moments
    mu, var = float(brute.law_mean(ex.auc)), float(brute.law_var(ex.auc))
    assert abs(mc.auc.mean() - mu) < 4.5 * math.sqrt(var / B)
    c = mc.auc - mc.auc.mean()
    se_var = math.sqrt(max((c**4).mean() - c.var() ** 2, 0) / B)
    assert abs(mc.auc.var() - var) < 4.5 * se_var


def test_midranks_match_scipy():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 6, size=(50, 17)).astype(float)
    assert np.array_equal(brute._midranks(x), stats.rankdata(x, axis=1))


def test_monte_carlo_is_seeded():
    pos, neg = TINY["brief"]
    a = brute.monte_carlo_bootstrap(pos, neg, thresholds=[0.5], levels=[2], n_resamples=1000, seed=3)
    b = brute.monte_carlo_bootstrap(pos, neg, thresholds=[0.5], levels=[2], n_resamples=1000, seed=3)
    assert np.array_equal(a.tp, b.tp) and np.array_equal(a.auc, b.auc)
    assert np.array_equal(a.vertical_tp, b.vertical_tp)


def test_law_quantile_definition():
    law = {Fraction(0): Fraction(1, 4), Fraction(1, 2): Fraction(1, 2), Fraction(1): Fraction(1, 4)}
    assert brute.law_quantile(law, 0.25) == 0  # P(X <= 0) = 1/4 >= 1/4 exactly
    assert brute.law_quantile(law, Fraction(1, 4) + Fraction(1, 10**9)) == Fraction(1, 2)
    assert brute.law_quantile(law, 0.75) == Fraction(1, 2)
    assert brute.law_quantile(law, 0.975) == 1
    assert brute.empirical_quantile(np.array([3.0, 1.0, 2.0, 4.0]), 0.5) == 2.0
    assert brute.empirical_quantile(np.array([3.0, 1.0, 2.0, 4.0]), 0.51) == 3.0


def test_hand_computed_auc_delong_hanley_mcneil():
    """pos = (0.9, 0.7, 0.5), neg = (0.5, 0.3).

    psi rows: 0.9 -> (1, 1), 0.7 -> (1, 1), 0.5 -> (1/2, 1); AUC = 5.5/6 = 11/12.
    V10 = (1, 1, 3/4): var(ddof=1) = (1 + 1 + 4)/144/2 = 1/48, /3 = 1/144.
    V01 = (5/6, 1): var(ddof=1) = 2/144, /2 = 1/144.  DeLong var = 1/72.
    Hanley-McNeil with A = 11/12, Q1 = 11/13, Q2 = 121/138:
    (11/144 + 2 (11/13 - 121/144) + (121/138 - 121/144)) / 6 = 671/32292.
    """
    pos, neg = [0.9, 0.7, 0.5], [0.5, 0.3]
    assert brute.mann_whitney_auc(pos, neg) == Fraction(11, 12)
    assert brute.delong_variance_direct(pos, neg) == pytest.approx(1 / 72, rel=1e-14)
    assert brute.hanley_mcneil_variance(11 / 12, 3, 2) == pytest.approx(671 / 32292, rel=1e-14)


def test_asah_transcription_matches_proc():
    """The saved aSAH file reproduces pROC's own expected s100b ROC curve
    (xrobin/pROC tests/testthat/helper-roc-expected.R) and published AUCs."""
    d = load_asah()
    assert len(d) == 113
    assert set(d["outcome"]) == {"Good", "Poor"}
    assert (d["outcome"] == "Poor").sum() == 41
    pos = d.loc[d.outcome == "Poor", "s100b"].to_numpy()
    neg = d.loc[d.outcome == "Good", "s100b"].to_numpy()
    u = np.unique(np.r_[pos, neg])
    thr = np.r_[-np.inf, (u[:-1] + u[1:]) / 2, np.inf]  # pROC's thresholds
    assert [int((pos > t).sum()) for t in thr] == PROC_S100B_SENS_COUNTS
    assert [int((neg < t).sum()) for t in thr] == PROC_S100B_SPEC_COUNTS
    assert float(brute.mann_whitney_auc(pos, neg)) == pytest.approx(0.73136856368563685, abs=1e-15)
    for col, auc in (("ndka", 0.61195799457994582), ("wfns", 0.82367886178861793)):
        p = d.loc[d.outcome == "Poor", col].to_numpy()
        n = d.loc[d.outcome == "Good", col].to_numpy()
        assert float(brute.mann_whitney_auc(p, n)) == pytest.approx(auc, abs=1e-15)
