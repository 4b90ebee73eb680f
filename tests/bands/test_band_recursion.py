"""The partial-sum recursion of rocci.bands against enumeration and simulation.

(a) On tiny data with ties, the probability that every bootstrap partial sum
    (TP* and FP* at every threshold) stays within bounds equals the sum over
    ALL ordered stratified bootstrap samples, to 1e-12.
(b) On larger cells, it agrees with direct multinomial simulation (seeded)
    within 4 Monte Carlo standard errors.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from rocci.bands import PartialSums, partial_sum_probability, poisson_pmf, roc_band
from rocci.bands.band import _Axis

TOL = 1e-12

# Tiny data with positive-positive, negative-negative and positive-negative ties.
TINY_POS = np.array([0.9, 0.7, 0.7, 0.4])
TINY_NEG = np.array([0.7, 0.5, 0.5, 0.2])


def _ge_counts(scores, thresholds):
    return np.array([[int(np.sum(s >= t)) for t in thresholds] for s in scores])


def _enumerate_axis(values, thresholds, m):
    """{tuple of counts >= t_k: exact probability} over all n^m ordered bootstrap samples."""
    n = values.size
    law: dict[tuple, Fraction] = {}
    weight = Fraction(1, n**m)
    for sample in itertools.product(range(n), repeat=m):
        counts = tuple(int(np.sum(values[list(sample)] >= t)) for t in thresholds)
        law[counts] = law.get(counts, 0) + weight
    return law


def _thresholds():
    scores = np.unique(np.r_[TINY_POS, TINY_NEG])[::-1]
    return np.r_[np.inf, scores]


@pytest.mark.parametrize("m", [4, 5, 3])
def test_recursion_equals_enumeration_one_class(m):
    t = _thresholds()
    rng = np.random.default_rng(m)
    for values in (TINY_POS, TINY_NEG):
        law = _enumerate_axis(values, t, m)
        ge = np.array([np.sum(values >= x) for x in t])
        q = np.diff(ge, prepend=0) / values.size
        sums = PartialSums(q, m)
        for _ in range(40):
            mu = m * ge / values.size
            lo = np.floor(mu - rng.uniform(0, 2.5, t.size)).astype(int)
            hi = np.ceil(mu + rng.uniform(0, 2.5, t.size)).astype(int)
            exact = sum(p for c, p in law.items() if all(lo[k] <= c[k] <= hi[k] for k in range(t.size)))
            assert abs(sums.probability(lo, hi) - float(exact)) < TOL
            assert abs(partial_sum_probability(q, lo, hi, m) - float(exact)) < TOL


@pytest.mark.parametrize("m", [(4, 4), (3, 5)])
def test_joint_band_probability_equals_enumeration(m):
    """P*(|TP*_k − μ_k| <= cσ_k and |FP*_k − μ'_k| <= cσ'_k for all k) = sum over all stratified samples."""
    t = _thresholds()
    m_pos, m_neg = m
    law_pos = _enumerate_axis(TINY_POS, t, m_pos)
    law_neg = _enumerate_axis(TINY_NEG, t, m_neg)
    tp = np.array([np.sum(TINY_POS >= x) for x in t])
    fp = np.array([np.sum(TINY_NEG >= x) for x in t])
    ax_pos, ax_neg = _Axis(tp, TINY_POS.size, m_pos), _Axis(fp, TINY_NEG.size, m_neg)

    def inside(counts, ax, c):
        x = np.array(counts, float)
        ok = np.where(ax.fixed, x == ax.mu, np.abs(x - ax.mu) <= c * ax.sd_safe)
        return bool(ok.all())

    for c in (0.5, 1.0, 1.2, 1.5, 2.0, 3.0):
        exact = Fraction(0)
        for cp, pp in law_pos.items():
            if not inside(cp, ax_pos, c):
                continue
            for cn, pn in law_neg.items():
                if inside(cn, ax_neg, c):
                    exact += pp * pn
        got = ax_pos.probability(c) * ax_neg.probability(c)
        assert abs(got - float(exact)) < TOL, c


def test_calibrated_value_equals_enumerated_quantile():
    """The calibrated c is the smallest c with P*(M* <= c) >= level, M* the enumerated sup statistic."""
    t = _thresholds()
    y = np.r_[np.ones(TINY_POS.size), np.zeros(TINY_NEG.size)]
    s = np.r_[TINY_POS, TINY_NEG]
    tp = np.array([np.sum(TINY_POS >= x) for x in t])
    fp = np.array([np.sum(TINY_NEG >= x) for x in t])
    ax_pos, ax_neg = _Axis(tp, 4, 4), _Axis(fp, 4, 4)

    def sup_law(values, ax):
        out: dict[float, Fraction] = {}
        for counts, p in _enumerate_axis(values, t, 4).items():
            x = np.array(counts, float)
            d = np.where(ax.fixed, 0.0, np.abs(x - ax.mu) / ax.sd_safe).max()
            out[float(d)] = out.get(float(d), 0) + p
        return out

    lp, ln = sup_law(TINY_POS, ax_pos), sup_law(TINY_NEG, ax_neg)
    joint: dict[float, Fraction] = {}
    for a, pa in lp.items():
        for b, pb in ln.items():
            joint[max(a, b)] = joint.get(max(a, b), 0) + pa * pb
    values = sorted(joint)
    cdf = np.cumsum([float(joint[v]) for v in values])
    for level in (0.5, 0.8, 0.9, 0.95):
        i = int(np.argmax(cdf >= level - 1e-15))
        band = roc_band(y, s, confidence_level=level)
        assert band.critical_value == pytest.approx(values[i], abs=1e-12)
        assert band.joint_probability == pytest.approx(cdf[i], abs=TOL)
        if i > 0:
            assert band.joint_probability_below == pytest.approx(cdf[i - 1], abs=TOL)


def test_recursion_matches_multinomial_simulation():
    rng = np.random.default_rng(11)
    K, m = 60, 400
    q = rng.dirichlet(np.ones(K + 1))[:K]
    cum = np.cumsum(q)
    mu, sd = m * cum, np.sqrt(m * cum * (1 - cum))
    lo = np.ceil(mu - 2.8 * sd).astype(int)
    hi = np.floor(mu + 2.8 * sd).astype(int)
    exact = partial_sum_probability(q, lo, hi, m)
    draws = 200_000
    pvals = np.r_[q, 1 - q.sum()]
    hits = 0
    for _ in range(4):
        sums = np.cumsum(rng.multinomial(m, pvals, size=draws // 4)[:, :K], axis=1)
        hits += int(np.all((sums >= lo) & (sums <= hi), axis=1).sum())
    est = hits / draws
    se = np.sqrt(exact * (1 - exact) / draws)
    assert abs(est - exact) < 4 * se, (est, exact, se)


def test_large_counts_fft_path_matches_simulation():
    """Kernels of thousands of counts (the FFT route) against simulation."""
    rng = np.random.default_rng(5)
    K, m = 12, 200_000
    q = np.full(K, 1 / (K + 1))
    cum = np.cumsum(q)
    mu, sd = m * cum, np.sqrt(m * cum * (1 - cum))
    lo = np.ceil(mu - 2.5 * sd).astype(int)
    hi = np.floor(mu + 2.5 * sd).astype(int)
    exact = partial_sum_probability(q, lo, hi, m)
    draws = 100_000
    sums = np.cumsum(rng.multinomial(m, np.r_[q, 1 - q.sum()], size=draws)[:, :K], axis=1)
    est = float(np.all((sums >= lo) & (sums <= hi), axis=1).mean())
    se = np.sqrt(exact * (1 - exact) / draws)
    assert abs(est - exact) < 4 * se, (est, exact, se)


def test_single_partial_sum_is_binomial():
    from scipy import stats

    for m, p, a, b in ((50, 0.3, 10, 20), (10_000, 0.42, 4100, 4300), (300_000, 0.5, 149_500, 150_300)):
        want = stats.binom.cdf(b, m, p) - stats.binom.cdf(a - 1, m, p)
        assert partial_sum_probability([p], [a], [b], m) == pytest.approx(want, abs=1e-12)


def test_poisson_pmf_against_mpmath():
    mpmath.mp.dps = 40
    for mu in (0.25, 1.0, 37.5, 5000.0, 2e6):
        d = np.unique(np.clip(np.round(mu + np.sqrt(mu) * np.linspace(-10, 10, 15)), 0, None)).astype(int)
        got = poisson_pmf(d, mu)
        for di, gi in zip(d, got):
            ref = mpmath.e ** (-mpmath.mpf(mu)) * mpmath.mpf(mu) ** int(di) / mpmath.factorial(int(di))
            assert abs(gi - float(ref)) <= 1e-13 * float(ref)
