"""Kernels of the exact laws against slow, direct evaluations."""

import numpy as np
import pytest
from scipy import special, stats

from rocci._core.exact import (
    BinomialMixture,
    binomial_cdf,
    binomial_pmf,
    binomial_quantile,
    mixture_quantile,
    order_statistic_law,
)


def _beta_cell_probabilities(r, m, n, k):
    """P(K = k) as incomplete-beta differences, each from the tail that keeps
    precision.  Good to ~1e-14 absolute: boost's incomplete beta carries that
    much error in the bulk at large parameters."""
    a, b = r, m - r + 1
    lo, hi = (k - 1) / n, k / n
    cdf_lo, cdf_hi = special.betainc(a, b, lo), special.betainc(a, b, hi)
    return np.where(cdf_hi < 0.5, cdf_hi - cdf_lo, special.betaincc(a, b, lo) - special.betaincc(a, b, hi))


def _gl20_cell_probabilities(r, m, n, k):
    """P(K = k) by 20-point Gauss–Legendre of the Beta(r, m−r+1) density over
    each cell: exact to rounding when cells are narrow against the spread."""
    nodes, gl_w = np.polynomial.legendre.leggauss(20)
    x = ((2 * k - 1) / (2 * n))[:, None] + nodes[None, :] / (2 * n)
    return (m * stats.binom.pmf(r - 1, m - 1, x)) @ gl_w / (2 * n)


@pytest.mark.parametrize("m,n", [(40, 40), (500, 500), (700, 300), (5000, 5000), (20000, 60000), (200000, 200000)])
def test_order_statistic_weights_equal_direct_cell_probabilities(m, n):
    """Window weights equal P(K = k) = I_{k/n}(r, m−r+1) − I_{(k−1)/n}(r, m−r+1).

    Where cells are narrow (spread of U over 30 cells or more) the reference is
    a 20-point quadrature per cell, and the kernel's 2–4-point rule must agree
    to 5e-13 relative (the density itself is evaluated to about that at
    m = 2e5).  Elsewhere the reference is a difference of incomplete
    beta functions, good to 1e-14 absolute (30-digit checks are in the next
    test).  The window holds all but the reported truncated mass.
    """
    for r in sorted({1, 2, m // 100 + 1, m // 3, m // 2, m - 2, m - 1}):
        k, w, truncated = order_statistic_law(r, m, n)
        spread = np.sqrt(r * (m - r + 1) / ((m + 1) ** 2 * (m + 2)))
        if spread * n >= 30:
            np.testing.assert_allclose(w, _gl20_cell_probabilities(r, m, n, k), rtol=5e-13, atol=1e-17)
        else:
            np.testing.assert_allclose(w, _beta_cell_probabilities(r, m, n, k), rtol=5e-13, atol=1e-14)
        assert abs(1.0 - w.sum() - truncated) < 1e-13
        assert truncated < 1e-14


@pytest.mark.parametrize("r", [2, 51, 1667, 2500])
def test_order_statistic_weights_against_30_digit_arithmetic(r):
    """m = n = 5000, both paths (incomplete beta for small r, quadrature for
    large r): cells against 30-digit arithmetic, to 5e-14 relative."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    m = n = 5000
    k, w, _ = order_statistic_law(r, m, n)
    for i in np.unique(np.linspace(0, k.size - 1, 5).round().astype(int).tolist() + [int(np.argmax(w))]):
        kk = int(k[i])
        truth = float(mp.betainc(r, m - r + 1, mp.mpf(kk - 1) / n, mp.mpf(kk) / n, regularized=True))
        assert w[i] == pytest.approx(truth, rel=5e-14, abs=1e-17)


def test_binomial_kernels_match_scipy_including_out_of_range():
    k = np.array([-3, -1, 0, 1, 7, 10, 11, 40])
    for p in (0.0, 1e-9, 0.3, 1 - 1e-9, 1.0):
        np.testing.assert_allclose(binomial_pmf(k, 10, p), stats.binom.pmf(k, 10, p), rtol=1e-13, atol=1e-300)
        np.testing.assert_allclose(binomial_cdf(k, 10, p), stats.binom.cdf(k, 10, p), rtol=1e-13, atol=1e-300)


@pytest.mark.parametrize("m", [1, 7, 50, 1000, 10**6])
def test_binomial_quantile_is_the_smallest_k_reaching_the_level(m):
    p = np.array([0.0, 1e-7, 0.01, 0.2, 0.5, 0.93, 1.0])
    for q in (1e-6, 0.025, 0.5, 0.975, 1 - 1e-6):
        k = binomial_quantile(q, m, p)
        assert np.all(stats.binom.cdf(k, m, p) >= q - 1e-12)
        below = stats.binom.cdf(k - 1, m, p)
        assert np.all((k == 0) | (below < q - 1e-12))


@pytest.mark.parametrize("m", [30, 3000, 300000])
def test_mixture_cdf_and_quantile_against_direct_sums(m):
    rng = np.random.default_rng(m)
    p = np.unique(np.clip(rng.normal(0.6, 3 / np.sqrt(m), 400), 0, 1))
    w = rng.random(p.size)
    w /= w.sum()
    law = BinomialMixture(w, p, m)
    mean = float(w @ p)
    sd = float(np.sqrt(w @ ((p - mean) ** 2 + p * (1 - p) / m)))
    for l in np.unique(np.clip(np.round(m * (mean + sd * np.linspace(-5, 5, 11))), 0, m)).astype(int):
        assert law.cdf(l) == pytest.approx(float(w @ stats.binom.cdf(l, m, p)), abs=1e-14)
    for q in (0.005, 0.025, 0.5, 0.975):
        l = mixture_quantile(q, w, p, m, mean, sd)
        assert float(w @ stats.binom.cdf(l, m, p)) >= q - 1e-12
        assert l == 0 or float(w @ stats.binom.cdf(l - 1, m, p)) < q - 1e-12


def test_binomial_quantile_of_a_tiny_tail():
    """A window's tail (q = 1e-17, below QUANTILE_TOL): the smallest k whose CDF reaches q (within q/2),
    not 0. Checked against the exact CDF on both sides of k, at small and large m."""
    from scipy import stats

    from rocci._core.exact import binomial_quantile

    for m, p in [(50, 0.3), (5000, 0.5), (200_000, 0.01), (10**6, 0.37)]:
        for q in (1e-17, 1e-14):
            k = int(binomial_quantile(q, m, p)[0])
            assert (k > 0) == (stats.binom.cdf(0, m, p) < q / 2)  # 0.7^50 = 1.8e-8 reaches 1e-17: k = 0
            assert stats.binom.cdf(k, m, p) >= q / 2
            assert k == 0 or stats.binom.cdf(k - 1, m, p) < q
            upper = m - int(binomial_quantile(q, m, 1 - p)[0])  # the mirror tail
            assert stats.binom.sf(upper, m, p) < q


@pytest.mark.parametrize(
    "m,n,x_num,j",
    [
        (497, 497, 250, 200),  # 4 sd below the mode
        (497, 497, 250, 245),  # just below the mode: a long sum
        (497, 497, 467, 414),  # x > 1/2: the heavier left tail, B ~ 5e-16
        (2000, 300, 292, 1891),  # m > n, B ~ 7e-12
        (1000, 1000, 999, 960),  # x = 0.999
        (1000, 1000, 37, 3),  # near j = 0
        (50, 400, 399, 8),  # far tail, B ~ 1e-90: geometric decay
        (5000, 5000, 2500, 2300),  # B ~ 1e-19
    ],
)
def test_binomial_lower_tails_against_40_digit_sums(m, n, x_num, j):
    """The CDF at a row's lowest level in order_statistic_laws (below the mode of Bin(m, x)):
    I_{1−x}(m − j, j + 1) with 1 − x = (n − x_num)/n from the integers, within 5e-14 relative of
    40-digit values, and the same value through the table (_binomial_tails_by_column)."""
    mp = pytest.importorskip("mpmath")
    from rocci._core.exact import _binomial_tails_by_column, _upper_tail

    mp.mp.dps = 40
    x = mp.mpf(x_num) / n
    truth = float(mp.betainc(m - j, j + 1, 0, 1 - x, regularized=True))
    tail = _upper_tail(j + 1.0, float(m - j), np.array([float(x_num)]), n)
    assert tail[0] == pytest.approx(truth, rel=5e-14)
    assert j < (m + 1) * x_num / n  # (below the mode: the route under test)
    cdf, _ = _binomial_tails_by_column(np.array([float(x_num)]), n, m, np.array([j, j + 1]), np.array([0]),
                                       np.array([1]))
    assert cdf[0, 0] == tail[0]
