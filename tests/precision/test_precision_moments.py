"""The stratified precision's moments at every threshold by quadrature (rocci/precision/_moments.py).

1. The integrals of the module docstring (raw and centred forms) equal the moments of the enumerated
   bootstrap samples of tiny tied data (exact fractions, mpmath at 40 digits); the quadrature equals exact
   integer sums over the whole binomial lattice for m± of 60-150, p and q from 0 to 1.
2. The quadrature equals the existing exact window sums (StratifiedLaw) on a grid up to m = 10^6 with p or q
   at 0, 1/n, 1 − 1/n and 1, and an accurate windowed reference (deviations formed from integers).
3. precision_ci(method="score" / "wald") at every threshold equals the per-threshold route on a few
   thousand rows (continuous, tied, 1% positives, a given m), builds no law object where the quadrature
   applies, and distribution(i) is still the exact law.
4. A seeded Monte Carlo bootstrap (resampled indices) at n = 2,000 agrees within a few standard errors.

Tolerances: mean and the harmonic mean M to 1e-14 relative.  The sd to 1e-14 relative against exact sums;
against the per-threshold route to 1e-14 relative plus 2e-16 absolute, because that route sums
``(v − mean)²`` over cell values ``v = TP*/(TP* + FP*)`` rounded to the nearest double: its sd is off by up to
one ulp of the values (~3e-17 measured at 3,000 rows, 9e-14 relative where the sd is 1e-4), which the
integer-deviation reference confirms (the quadrature agrees with it to ~3e-16).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from reference.brute import class_samples
from rocci.precision import precision_ci
from rocci.precision import _cells, _moments
from rocci.precision._cells import StratifiedLaw
from rocci.precision._moments import QUADRATURE_MIN, quadrature_moments, stratified_precision_columns
from rocci.precision.metrics import _interval

RTOL = 1e-14
SD_ATOL = 2e-16


# ---------------------------------------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------------------------------------
def lattice_moments(tp: int, fp: int, n_pos: int, n_neg: int, m_pos: int, m_neg: int):
    """Mean, variance and E[1/S | S > 0] (Fractions) of T/S over the whole lattice ``T ~ Bin(m+, p)``,
    ``F ~ Bin(m−, q)`` with ``p``, ``q`` the exact values of the doubles ``tp/n+``, ``fp/n−`` and
    ``a = 1 − p`` (the law rocci's binomial pmfs describe), in integer arithmetic grouped by ``S = T + F``."""
    p, q = Fraction(tp / n_pos), Fraction(fp / n_neg)
    a, b = 1 - p, 1 - q
    # Common denominators: p = pn/pd etc. (powers of two), so every weight is an integer over pd^m+·qd^m−.
    pn, pd, an = p.numerator, p.denominator, (a * p.denominator).numerator if a else 0
    qn, qd, bn = q.numerator, q.denominator, (b * q.denominator).numerator if b else 0
    assert Fraction(an, pd) == a and Fraction(bn, qd) == b
    wt = [math.comb(m_pos, k) * pn**k * an ** (m_pos - k) for k in range(m_pos + 1)]
    wf = [math.comb(m_neg, k) * qn**k * bn ** (m_neg - k) for k in range(m_neg + 1)]
    total = z1 = z2 = inv = Fraction(0)
    w_sum = 0
    for s in range(1, m_pos + m_neg + 1):
        w0 = w1 = w2 = 0
        for t in range(max(0, s - m_neg), min(m_pos, s) + 1):
            w = wt[t] * wf[s - t]
            w0 += w
            w1 += t * w
            w2 += t * t * w
        if w0:
            w_sum += w0
            z1 += Fraction(w1, s)
            z2 += Fraction(w2, s * s)
            inv += Fraction(w0, s)
    if not w_sum:
        return None
    total = Fraction(w_sum)
    mean = z1 / total
    return mean, z2 / total - mean * mean, inv / total


def integer_reference(tp: int, fp: int, n_pos: int, n_neg: int):
    """Windowed sums (the windows of StratifiedLaw, m = n) with the deviations ``T/S − tp/(tp + fp)`` formed
    from integers, ``(fp·T − tp·F)/((tp + fp)·S)``: mean, sd, M accurate to ~1e-16 relative."""
    t, pt, _ = _cells._window(n_pos, tp, n_pos)
    f, pf, _ = _cells._window(n_neg, fp, n_neg)
    T, F = t.astype(float)[:, None], f.astype(float)[None, :]
    S = T + F
    w = np.where(S > 0, pt[:, None] * pf[None, :], 0.0)
    S1 = np.where(S > 0, S, 1.0)
    d = (fp * T - tp * F) / ((tp + fp) * S1)
    z, a1, a2, h = w.sum(), (w * d).sum(), (w * d * d).sum(), (w / S1).sum()
    return tp / (tp + fp) + a1 / z, math.sqrt(a2 / z - (a1 / z) ** 2), z / h


def close(got, want, rtol=RTOL, atol=0.0):
    return abs(got - want) <= rtol * abs(want) + atol


# ---------------------------------------------------------------------------------------------------------
# 1. The integrals against enumeration; the quadrature against exact lattice sums
# ---------------------------------------------------------------------------------------------------------
POS = [0.9, 0.5, 0.5, 0.2]
NEG = [0.7, 0.5, 0.5, 0.1, 0.1]  # ties within and across the classes


def _integrals(tp, fp, n_pos, n_neg, m_pos, m_neg):
    """The module docstring's integrals by mpmath (40 digits): raw and centred forms."""
    mpmath.mp.dps = 40
    p, q = mpmath.mpf(tp) / n_pos, mpmath.mpf(fp) / n_neg
    a, b = 1 - p, 1 - q
    G = lambda u: (a + p * u) ** m_pos  # noqa: E731
    H = lambda u: (b + q * u) ** m_neg  # noqa: E731
    dG = lambda u: m_pos * p * (a + p * u) ** (m_pos - 1) if m_pos else 0  # noqa: E731
    # (u·G')' = m+·p·(a + p·u)^(m+ − 2)·[(a + p·u) + (m+ − 1)·p·u]
    duG = lambda u: m_pos * p * (a + p * u) ** (m_pos - 2) * ((a + p * u) + (m_pos - 1) * p * u)  # noqa: E731
    p_def = 1 - G(0) * H(0)
    raw_mean = mpmath.quad(lambda u: dG(u) * H(u), [0, 1]) / p_def
    raw_m2 = mpmath.quad(lambda u: -mpmath.log(u) * duG(u) * H(u), [0, 1]) / p_def
    inv = mpmath.quad(lambda u: (G(u) * H(u) - G(0) * H(0)) / u, [0, 1]) / p_def
    # Centred: X − c0 = D/S, D = α·T − β·F, integrals over t in [0, ∞) with u = e^{−t}.
    lam = m_pos * p + m_neg * q
    c0, alpha, beta = m_pos * p / lam, m_neg * q / lam, m_pos * p / lam

    def tilt(u):
        pu, qu = p * u / (a + p * u), q * u / (b + q * u)
        mu = alpha * m_pos * pu - beta * m_neg * qu
        v = alpha**2 * m_pos * pu * (1 - pu) + beta**2 * m_neg * qu * (1 - qu) + mu * mu
        return mu, v

    first = mpmath.quad(lambda t: G(mpmath.e**-t) * H(mpmath.e**-t) * tilt(mpmath.e**-t)[0], [0, 1, mpmath.inf])
    second = mpmath.quad(lambda t: t * G(mpmath.e**-t) * H(mpmath.e**-t) * tilt(mpmath.e**-t)[1],
                         [0, 1, mpmath.inf])
    shift = first / p_def
    return {"raw_mean": raw_mean, "raw_var": raw_m2 - raw_mean**2, "mean": c0 + shift,
            "var": second / p_def - shift**2, "inv": inv}


def enumerated_moments(pos, neg, t):
    """Mean, variance, E[1/PP* | PP* > 0] and P(PP* = 0) of the precision over every stratified bootstrap
    sample (multisets of draws with their multinomial weights), as exact fractions."""
    C, wc = class_samples(len(pos), len(pos))
    D, wd = class_samples(len(neg), len(neg))
    tp = (C @ (np.asarray(pos) >= t).astype(np.int64)).tolist()
    fp = (D @ (np.asarray(neg) >= t).astype(np.int64)).tolist()
    z = z1 = z2 = inv = Fraction(0)
    undefined = 0
    for a, wa in zip(tp, wc.tolist()):
        for b, wb in zip(fp, wd.tolist()):
            w = wa * wb
            if a + b == 0:
                undefined += w
                continue
            z += w
            z1 += Fraction(a, a + b) * w
            z2 += Fraction(a * a, (a + b) ** 2) * w
            inv += Fraction(w, a + b)
    mean = z1 / z
    return mean, z2 / z - mean * mean, inv / z, Fraction(undefined, len(pos) ** len(pos) * len(neg) ** len(neg))


@pytest.mark.parametrize("t", [0.9, 0.7, 0.5, 0.2, 0.1])
def test_integrals_equal_enumerated_bootstrap_samples(t):
    mean, var, inv, p_undef = enumerated_moments(POS, NEG, t)
    tp, fp = sum(s >= t for s in POS), sum(s >= t for s in NEG)
    got = _integrals(tp, fp, len(POS), len(NEG), len(POS), len(NEG))
    for key, want in (("raw_mean", mean), ("mean", mean), ("raw_var", var), ("var", var), ("inv", inv)):
        want = mpmath.mpf(want.numerator) / want.denominator
        assert abs(got[key] - want) <= mpmath.mpf(10) ** -30 * max(1, abs(want)), (key, t)
    # The binomial lattice is the enumerated law, and the package's columns (exact route: tiny λ) agree.
    lat = lattice_moments(tp, fp, len(POS), len(NEG), len(POS), len(NEG))
    assert abs(float(lat[0] - mean)) < 1e-15 and abs(float(lat[1] - var)) < 1e-15
    cols = stratified_precision_columns(np.array([tp]), np.array([fp]), len(POS), len(NEG), len(POS), len(NEG))
    assert close(cols[0][0], float(mean)) and close(cols[1][0], math.sqrt(float(var)), atol=1e-16)
    assert close(cols[2][0], float(1 / inv)) and close(cols[3][0], float(p_undef))


LATTICE_GRID = [(m_pos, m_neg, tp, fp)
                for m_pos, m_neg in ((60, 60), (150, 40), (40, 150), (100, 100))
                for tp, fp in ((0, m_neg), (m_pos, 0), (m_pos, m_neg), (1, m_neg - 1), (m_pos - 1, 1),
                               (m_pos // 2, m_neg // 3), (m_pos - 1, m_neg - 1), (m_pos, m_neg // 2),
                               (m_pos // 7, m_neg), (m_pos // 2, m_neg - 1))
                if tp + fp >= QUADRATURE_MIN]


@pytest.mark.parametrize("m_pos, m_neg, tp, fp", LATTICE_GRID)
def test_quadrature_equals_exact_lattice_sums(m_pos, m_neg, tp, fp):
    mean, var, inv = lattice_moments(tp, fp, m_pos, m_neg, m_pos, m_neg)
    g_mean, g_sd, g_m = (v[0] for v in quadrature_moments([tp], [fp], m_pos, m_neg, m_pos, m_neg))
    assert close(g_mean, float(mean))
    assert close(g_sd, math.sqrt(float(var))) or (g_sd == 0 and var == 0)
    assert close(g_m, float(1 / inv))


def test_single_valued_laws_have_sd_zero_and_undefined_is_nan():
    mean, sd, m = quadrature_moments([0, 200, 400, 400], [300, 0, 1000, 0], 400, 1000, 400, 1000)
    assert (mean[0], sd[0]) == (0.0, 0.0)                      # no positive predicted
    assert (mean[1], sd[1]) == (1.0, 0.0)                      # no negative predicted
    assert (mean[2], sd[2]) == (400 / 1400, 0.0)               # everything predicted positive
    assert (mean[3], sd[3]) == (1.0, 0.0)
    cols = stratified_precision_columns([0], [0], 400, 1000, 400, 1000)
    assert np.isnan(cols[0][0]) and np.isnan(cols[1][0]) and np.isnan(cols[2][0]) and cols[3][0] == 1.0


# ---------------------------------------------------------------------------------------------------------
# 2. Against the existing exact window sums, up to 10^6
# ---------------------------------------------------------------------------------------------------------
WINDOW_GRID = [(n_pos, n_neg, tp, fp)
               for n_pos, n_neg in ((1000, 1000), (100_000, 900_000), (1_000_000, 1000), (20, 5000))
               for tp, fp in ((1, n_neg - 1), (n_pos, n_neg - 1), (n_pos - 1, n_neg), (n_pos - 1, 1),
                              (n_pos // 10, n_neg // 100), (n_pos, 30), (0, n_neg // 2), (n_pos // 2, 0),
                              (n_pos // 3, 60), (3, 57), (n_pos, n_neg))
               if tp + fp >= QUADRATURE_MIN]


@pytest.mark.parametrize("n_pos, n_neg, tp, fp", WINDOW_GRID)
def test_quadrature_equals_window_sums(n_pos, n_neg, tp, fp):
    law = StratifiedLaw("precision", tp, fp, n_pos, n_neg, n_pos, n_neg)
    mean, sd, m = (v[0] for v in quadrature_moments([tp], [fp], n_pos, n_neg, n_pos, n_neg))
    assert close(mean, law.mean)
    assert close(sd, law.std, atol=SD_ATOL)
    assert close(m, law.predicted_harmonic_mean())
    if _cells._window(n_pos, tp, n_pos)[0].size * _cells._window(n_neg, fp, n_neg)[0].size <= 5e6:
        r_mean, r_sd, r_m = integer_reference(tp, fp, n_pos, n_neg)
        assert close(mean, r_mean) and close(sd, r_sd, rtol=2e-14) and close(m, r_m)


def test_orders_and_series_hold_over_a_dense_lambda_grid():
    """Every quadrature group (orders 16 down to 4, log and cumulant-series evaluation of Φ) at its smallest
    λ, p from 1% to 99%, against the integer reference."""
    n_pos, n_neg = 4000, 40_000
    for lam_min, _ in _moments.QUADRATURE_ORDERS:
        lam = int(math.ceil(lam_min))
        for share in (0.01, 0.3, 0.9, 0.99):
            tp = min(int(round(lam * share)), n_pos)
            fp = lam - tp
            got = [v[0] for v in quadrature_moments([tp], [fp], n_pos, n_neg, n_pos, n_neg)]
            want = integer_reference(tp, fp, n_pos, n_neg)
            assert close(got[0], want[0]) and close(got[1], want[1], rtol=2e-14) and close(got[2], want[2]), \
                (lam, share, got, want)


# ---------------------------------------------------------------------------------------------------------
# 3. precision_ci at every threshold against the per-threshold route
# ---------------------------------------------------------------------------------------------------------
def _data(n, share, ties, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    s = rng.normal(0, 1, n) + 1.5 * y
    return y, (np.round(s, 1) if ties else s)


@pytest.mark.parametrize("share, ties, m", [(0.3, False, None), (0.3, True, None), (0.01, False, None),
                                            (0.01, True, None), (0.2, False, (400, 5000))])
def test_every_threshold_equals_the_per_threshold_route(monkeypatch, share, ties, m):
    y, s = _data(3000, share, ties, seed=11)
    results = {}
    for method in ("score", "wald"):
        built = []
        real = StratifiedLaw.__init__

        def counting(self, *args, **kw):
            built.append(args[1:3])
            real(self, *args, **kw)

        monkeypatch.setattr(StratifiedLaw, "__init__", counting)
        res = results[method] = precision_ci(y, s, method=method, m=m)
        monkeypatch.setattr(StratifiedLaw, "__init__", real)
        lam = res.m_pos * res.tp / res.n_pos + res.m_neg * res.fp / res.n_neg
        assert len(built) == int((lam < QUADRATURE_MIN).sum()) < res.tp.size / 4  # only the top few thresholds
        assert list(res.to_frame().columns) == ["threshold", "tp", "fp", "precision", "precision_mean",
                                                "precision_std", "precision_low", "precision_high", "p_undefined",
                                                "truncated_mass"]
    res = results["score"]
    for i in range(res.tp.size):
        law = StratifiedLaw("precision", int(res.tp[i]), int(res.fp[i]), res.n_pos, res.n_neg, res.m_pos,
                            res.m_neg)
        for method, got in results.items():
            low, high = _interval(law, "precision", 1.0 - 0.95, method)
            assert close(got.mean[i], law.mean), (method, i)
            assert close(got.std[i], law.std, atol=SD_ATOL), (method, i)
            assert close(got.low[i], low, atol=4 * SD_ATOL) and close(got.high[i], high, atol=4 * SD_ATOL), \
                (method, i)
            if lam[i] >= QUADRATURE_MIN:  # the whole law: nothing left out, P(TP* + FP* = 0) exactly
                p, q = res.tp[i] / res.n_pos, res.fp[i] / res.n_neg
                assert got.truncated_mass[i] == 0.0, (method, i)
                assert close(got.p_undefined[i], (1 - p) ** res.m_pos * (1 - q) ** res.m_neg, rtol=1e-12), (method, i)
                assert got.p_undefined[i] < 1e-26 and law.p_undefined <= got.p_undefined[i] * (1 + 1e-12)
            else:
                assert close(got.p_undefined[i], law.p_undefined, rtol=1e-15), (method, i)
                assert got.truncated_mass[i] == law.truncated, (method, i)
    for i in (0, res.tp.size // 2, res.tp.size - 1):
        values, probs = res.distribution(i)
        law = StratifiedLaw("precision", int(res.tp[i]), int(res.fp[i]), res.n_pos, res.n_neg, res.m_pos,
                            res.m_neg)()
        np.testing.assert_array_equal(values, law.values)
        np.testing.assert_array_equal(probs, law.probs)


def test_given_thresholds_and_percentile_unchanged():
    y, s = _data(2000, 0.1, False, seed=3)
    t = np.sort(s)[::-1][[5, 200, 1000, 1800]]
    res = precision_ci(y, s, thresholds=t, method="score")
    every = precision_ci(y, s, method="score")
    for i, ti in enumerate(t):
        j = int(np.flatnonzero(every.thresholds == ti)[0])
        assert (res.tp[i], res.fp[i]) == (every.tp[j], every.fp[j])
        assert (res.mean[i], res.std[i], res.low[i], res.high[i]) == (every.mean[j], every.std[j], every.low[j],
                                                                      every.high[j])
    perc = precision_ci(y, s, thresholds=t)
    alpha = 1.0 - 0.95
    for i in range(t.size):
        law = StratifiedLaw("precision", int(perc.tp[i]), int(perc.fp[i]), perc.n_pos, perc.n_neg, perc.m_pos,
                            perc.m_neg)
        assert (perc.low[i], perc.high[i]) == tuple(law.quantiles([alpha / 2, 1 - alpha / 2]))
        assert perc.mean[i] == law.mean and perc.std[i] == law.std


# ---------------------------------------------------------------------------------------------------------
# 4. Monte Carlo
# ---------------------------------------------------------------------------------------------------------
@pytest.mark.montecarlo
def test_monte_carlo_mean_and_sd():
    y, s = _data(2000, 0.25, False, seed=21)
    pos, neg = s[y == 1], s[y == 0]
    t = np.quantile(s, [0.9, 0.6, 0.2])
    res = precision_ci(y, s, thresholds=t, method="wald")
    rng = np.random.default_rng(2026)
    b = 6000
    tp = (rng.choice(pos, size=(b, pos.size)) >= t[:, None, None]).sum(axis=2)
    fp = (rng.choice(neg, size=(b, neg.size)) >= t[:, None, None]).sum(axis=2)
    prec = tp / (tp + fp)  # every sample predicts some positive at these thresholds
    for i in range(t.size):
        mc_mean, mc_sd = prec[i].mean(), prec[i].std(ddof=1)
        se_mean, se_sd = mc_sd / math.sqrt(b), mc_sd / math.sqrt(2 * (b - 1))
        assert abs(res.mean[i] - mc_mean) < 4 * se_mean, (i, res.mean[i], mc_mean, se_mean)
        assert abs(res.std[i] - mc_sd) < 4 * se_sd, (i, res.std[i], mc_sd, se_sd)
