"""A million rows: results stay sane and memory stays O(n).

Speed is measured in bench/, not here (these machines are shared and noisy);
this file checks that n = 10⁶ works, that the answers agree with the known
binormal ROC curve, and that peak memory is a bounded number of bytes per
instance.
"""

import tracemalloc

import numpy as np
import pytest
from scipy import special

import rocci
from rocci._core.counts import score_counts
from rocci._core.exact import binomial_cdf, order_statistic_law

N = 1_000_000


@pytest.fixture(scope="module")
def binormal():
    rng = np.random.default_rng(20261122)
    y = rng.random(N) < 0.5
    s = np.where(y, rng.normal(1.0, 1.0, N), rng.normal(0.0, 1.0, N))
    return y, s


def _peak_bytes(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_threshold_ci_all_thresholds_million_rows(binormal):
    y, s = binormal
    res = rocci.threshold_ci(y, s)
    assert res.thresholds.size == np.unique(s).size + 1
    assert np.all(np.diff(res.tpr) >= 0) and np.all(np.diff(res.fpr) >= 0)
    assert np.all(res.tpr_low <= res.tpr) and np.all(res.tpr <= res.tpr_high)
    assert np.all(res.fpr_low <= res.fpr) and np.all(res.fpr <= res.fpr_high)
    # The rectangle's half-width at the middle of the curve is about z·sqrt(pq/m).
    i = np.searchsorted(res.fpr, 0.5)
    half = (res.tpr_high[i] - res.tpr_low[i]) / 2
    assert half == pytest.approx(2.236 * np.sqrt(res.tpr[i] * (1 - res.tpr[i]) / res.n_pos), rel=1e-3)
    peak = _peak_bytes(lambda: rocci.threshold_ci(y, s))
    assert peak / N < 400, f"{peak / N:.0f} bytes per instance"


def test_vertical_ci_99_levels_million_rows(binormal):
    y, s = binormal
    res = rocci.vertical_ci(y, s, method="percentile")
    assert res.r.size == 99
    assert np.all(res.truncated_mass <= 1e-14)
    # True binormal curve TPR(f) = Φ(1 + Φ⁻¹(f)); the exact bootstrap mean is
    # within a few bootstrap SDs of it (sampling error of the data itself).
    truth = special.ndtr(1.0 + special.ndtri(res.fpr))
    z = (res.tpr_mean - truth) / res.tpr_std
    assert np.all(np.abs(z) < 5)
    assert np.all(res.tpr_low <= res.tpr_mean) and np.all(res.tpr_mean <= res.tpr_high)
    # The percentile bounds are exact quantiles of the mixture law: check the
    # defining property with the CDF summed directly over binomial CDFs
    # (the slow route, independent of the quadrature used inside vertical_ci).
    counts = score_counts(s[y], s[~y])
    s_desc = counts.neg_desc()
    for i in (0, 1, 49, 98):
        k, w, _ = order_statistic_law(int(res.r[i]), res.m_neg, res.n_neg)
        p = counts.n_pos_ge(s_desc[k - 1]) / res.n_pos
        def cdf(l):
            return float(w @ binomial_cdf(l, res.m_pos, p))
        for q, bound in ((0.025, res.tpr_low[i]), (0.975, res.tpr_high[i])):
            l = int(round(bound * res.m_pos))
            assert cdf(l - 1) < q <= cdf(l) + 1e-12, (i, q)
    peak = _peak_bytes(lambda: rocci.vertical_ci(y, s, method="percentile"))
    assert peak / N < 200, f"{peak / N:.0f} bytes per instance"
