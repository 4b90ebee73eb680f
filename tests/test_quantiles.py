"""Binomial quantiles of the percentile interval: the CDF chain against the exact walk and SciPy.

``rocci._core.intervals._chained_quantiles`` must return exactly
``rocci._core.exact.binomial_quantile`` (the smallest ``k`` with
``B(k; m, p) >= q − 1e-12``) and ``scipy.stats.binom.ppf`` on dense grids of
``(n, k, q)`` with ``p = k/n`` and ``m = n``: every ``k`` from 0 to ``n``,
tiny and large ``n``, and levels from 1e-6 to 1 − 1e-6.
"""

import numpy as np
import pytest
from scipy import stats

from rocci._core.exact import binomial_cdf, binomial_quantile
from rocci._core.intervals import _CHAIN_MARGIN, _binomial_quantiles, _chained_quantiles, proportion_interval

LEVELS = (1e-6, 0.0005, 0.0125, 0.0253, 0.05, 0.3, 0.5, 0.7, 0.95, 0.9747, 0.9875, 0.9995, 1 - 1e-6)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 10, 37, 100, 511, 512, 1000, 4097, 20_000, 200_000])
def test_chain_equals_scipy_and_exact_walk_at_every_k(n):
    p = np.arange(n + 1) / n
    qs = LEVELS if n <= 20_000 else (0.0125, 0.0253, 0.9747, 0.9875)
    for q, k in zip(qs, _chained_quantiles(qs, n, p)):
        expected = stats.binom.ppf(q, n, p)
        np.testing.assert_array_equal(k, expected, err_msg=f"n={n} q={q}")
        if n <= 20_000:
            np.testing.assert_array_equal(k, binomial_quantile(q, n, p), err_msg=f"n={n} q={q}")


@pytest.mark.parametrize("n", [10**6, 10**7, 10**9, 10**12])
def test_chain_huge_n_sampled_k(n):
    rng = np.random.default_rng(n % 1000)
    k = np.unique(np.concatenate([np.arange(600), n - np.arange(600), rng.integers(0, n + 1, 1000),
                                  n // 2 + np.arange(-600, 600)]))
    p = k / n
    qs = (0.0125, 0.5, 0.9875)
    for q, got in zip(qs, _chained_quantiles(qs, n, np.unique(p))):
        np.testing.assert_array_equal(got, binomial_quantile(q, n, np.unique(p)), err_msg=f"n={n} q={q}")
        if n <= 10**7:
            np.testing.assert_array_equal(got, stats.binom.ppf(q, n, np.unique(p)), err_msg=f"n={n} q={q}")


@pytest.mark.parametrize("m", [1000, 50_000, 1_000_000])
def test_chained_cdf_error_far_below_the_margin(m):
    # The chain's CDF at its rows, against boost's incomplete beta at every column.
    p = np.arange(m + 1) / m
    for q, (g, pmf, cdf) in zip((0.0125, 0.9875), _chained_quantiles((0.0125, 0.9875), m, p, lattice=True)):
        ok = np.isfinite(cdf) & np.isfinite(pmf)
        assert ok.mean() > 0.99
        exact = binomial_cdf(g[ok], m, p[ok])
        assert np.max(np.abs(cdf[ok] - exact)) < _CHAIN_MARGIN / 100


def test_columns_with_ties_other_m_and_unsorted_input():
    rng = np.random.default_rng(7)
    n = 3000
    tp = np.sort(rng.integers(0, n + 1, 5000))[::-1]  # a ROC column: repeated, decreasing
    for m in (n, 2 * n + 1, n // 3):
        for p in (tp / n, rng.permutation(tp / n)):
            low, high = _binomial_quantiles((0.025, 0.975), m, p)
            np.testing.assert_array_equal(low, binomial_quantile(0.025, m, p))
            np.testing.assert_array_equal(high, binomial_quantile(0.975, m, p))


def test_percentile_interval_unchanged_at_the_ends():
    n = 10_000
    p = np.arange(n + 1) / n
    low, high = proportion_interval(p, n, 0.05, "percentile")
    assert low[0] == 0 and high[0] == 0 and low[-1] == 1 and high[-1] == 1
    np.testing.assert_array_equal(np.round(low * n), stats.binom.ppf(0.025, n, p))
    np.testing.assert_array_equal(np.round(high * n), stats.binom.ppf(0.975, n, p))


@pytest.mark.parametrize("n", [512, 1000, 4097, 50_000])
def test_two_levels_on_a_symmetric_column_share_one_chain(n):
    # q and 1 − q on p = k/n: the upper quantile is m minus the lower one at 1 − p (mirror path),
    # with the exact walk deciding wherever a CDF is near the level.  m = n, m > n and m < n.
    p = np.arange(n + 1) / n
    for m in (n, 3 * n + 1, n // 2 + 7):
        for a in ((0.0125, 0.01266, 0.025) if n <= 4097 else (0.01266,)):
            low, high = _chained_quantiles((a, 1 - a), m, p)
            np.testing.assert_array_equal(low, stats.binom.ppf(a, m, p), err_msg=f"n={n} m={m} a={a}")
            np.testing.assert_array_equal(high, stats.binom.ppf(1 - a, m, p), err_msg=f"n={n} m={m} a={a}")
            if n <= 4097:
                np.testing.assert_array_equal(low, binomial_quantile(a, m, p))
                np.testing.assert_array_equal(high, binomial_quantile(1 - a, m, p))


@pytest.mark.parametrize("n", [512, 4097, 300_001, 1_000_000])
def test_lattice_column_has_the_stated_symmetry(n):
    # symmetric=True takes |(1 − p[n − i]) − p[i]| <= 3·2⁻⁵³ for p = (0..n)/n instead of measuring it.
    p = np.arange(n + 1) / n
    assert np.max(np.abs((1.0 - p[::-1]) - p)) <= 3 * 2.0 ** -53


@pytest.mark.parametrize("ties", [False, True])
def test_percentile_interval_from_counts_equals_from_proportions(ties):
    # threshold_ci passes (tp, n_pos): the distinct proportions come from a presence table, not a sort;
    # the bounds must be those of the proportions themselves (dense counts, sparse counts, other m).
    from rocci import ScoreCounts
    from rocci._core.intervals import _distinct_counts
    rng = np.random.default_rng(11)
    for n in (600, 5_000, 40_000):
        y = rng.random(n) < 0.3
        s = rng.normal(size=n) + y
        if ties:
            s = np.round(s, 1)
        _, k, _ = ScoreCounts.from_arrays(y, s).threshold_counts()  # a ROC column of counts
        n_pos = int(y.sum())
        distinct, index = _distinct_counts(k, n_pos)
        np.testing.assert_array_equal(distinct[index], k)
        assert (distinct.size == n_pos + 1) == (not ties)
        for m in (n_pos, 2 * n_pos + 3, n_pos // 3 + 1):
            for a in (0.05, 0.0253):
                got = proportion_interval(k / n_pos, m, a, "percentile", counts=(k, n_pos))
                want = proportion_interval(k / n_pos, m, a, "percentile")
                np.testing.assert_array_equal(got[0], want[0], err_msg=f"n={n} m={m} a={a}")
                np.testing.assert_array_equal(got[1], want[1], err_msg=f"n={n} m={m} a={a}")
