"""The counting block against direct counting, with ties and thresholds off the data."""

import numpy as np
import pytest

from rocci._core.counts import joint_ge_counts, paired_cells, score_counts


@pytest.mark.parametrize("seed", range(5))
def test_joint_and_paired_counts_equal_direct_counting(seed):
    rng = np.random.default_rng(seed)
    n = 200
    a = np.round(rng.normal(size=n), 1)  # many ties
    b = np.round(0.6 * a + rng.normal(size=n), 1)
    ta = np.r_[np.inf, rng.choice(a, 7), 0.05, -np.inf]
    tb = np.r_[rng.choice(b, 9), 10.0, 0.123]
    got = joint_ge_counts(a, b, ta, tb)
    direct = ((a[None, :, None] >= ta[:, None, None]) & (b[None, :, None] >= tb[None, None, :])).sum(axis=1)
    np.testing.assert_array_equal(got, direct)
    pa, pb = rng.choice(ta, 15), rng.choice(tb, 15)
    n_a, n_b, both = paired_cells(a, b, pa, pb)
    np.testing.assert_array_equal(n_a, [np.sum((a >= x) & (b < y)) for x, y in zip(pa, pb)])
    np.testing.assert_array_equal(n_b, [np.sum((a < x) & (b >= y)) for x, y in zip(pa, pb)])
    np.testing.assert_array_equal(both, [np.sum((a >= x) & (b >= y)) for x, y in zip(pa, pb)])


def test_score_counts_with_ties():
    c = score_counts(np.array([0.5, 0.9, 0.5]), np.array([0.5, 0.1]))
    assert c.n_pos_ge(0.5) == 3 and c.n_neg_ge(0.5) == 1 and c.n_pos_ge(np.inf) == 0
    assert c.distinct_thresholds().tolist() == [np.inf, 0.9, 0.5, 0.1]
