"""Average precision: the estimate against a brute-force formula, the Monte Carlo bootstrap against the
exact bootstrap moments found by enumerating every resample of tiny data with ties."""

import itertools

import numpy as np
import pytest

import rocci
from rocci.precision.average import _ap_from_counts


def brute_ap(y, s):
    """scikit-learn's definition, instance by instance: Σ over thresholds (ΔR)·P, ties one threshold."""
    y, s = np.asarray(y, bool), np.asarray(s, float)
    total = 0.0
    prev_recall = 0.0
    for t in sorted(set(s.tolist()), reverse=True):
        flagged = s >= t
        tp = int((flagged & y).sum())
        recall = tp / y.sum()
        total += (recall - prev_recall) * (tp / flagged.sum())
        prev_recall = recall
    return total


@pytest.mark.parametrize("digits", [0, 1, 3])
def test_estimate_is_the_step_wise_area(digits):
    rng = np.random.default_rng(digits)
    for n in (7, 60, 500):
        y = rng.random(n) < 0.3
        y[:2] = [True, False]
        s = np.round(rng.normal(size=n) + y, digits)
        assert rocci.average_precision(y, s, n_boot=10).average_precision == pytest.approx(brute_ap(y, s), abs=1e-14)


def _exact_moments(y, s, bootstrap):
    """Mean and sd of AP* over every bootstrap resample (ordered draws, equally likely)."""
    y, s = np.asarray(y, bool), np.asarray(s, float)
    values = []
    if bootstrap == "stratified":
        pos, neg = s[y], s[~y]
        for draw_p in itertools.product(range(pos.size), repeat=pos.size):
            for draw_n in itertools.product(range(neg.size), repeat=neg.size):
                values.append(brute_ap(np.r_[np.ones(pos.size, bool), np.zeros(neg.size, bool)],
                                       np.r_[pos[list(draw_p)], neg[list(draw_n)]]))
    else:
        for draw in itertools.product(range(y.size), repeat=y.size):
            yy = y[list(draw)]
            if yy.any():
                values.append(brute_ap(yy, s[list(draw)]))
    v = np.array(values)
    return v.mean(), v.std()


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
@pytest.mark.montecarlo
def test_monte_carlo_moments_match_enumeration_of_every_resample(bootstrap):
    # Ties within and across classes; the exact moments from all resamples (3^3·3^3 or 6^6 ordered draws).
    if bootstrap == "stratified":
        y, s = [1, 1, 1, 0, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.9]
    else:
        y, s = [1, 1, 0, 1, 0, 0], [0.8, 0.4, 0.4, 0.3, 0.1, 0.8]
    mean, sd = _exact_moments(y, s, bootstrap)
    res = rocci.average_precision(y, s, n_boot=40_000, seed=3, bootstrap=bootstrap)
    assert res.method == "monte-carlo"
    assert abs(res.average_precision_mean - mean) < 4 * res.average_precision_mean_se, (res.average_precision_mean, mean, res.average_precision_mean_se)
    assert abs(res.average_precision_std - sd) < 4 * res.average_precision_std_se, (res.average_precision_std, sd, res.average_precision_std_se)
    assert res.low_range[0] <= res.average_precision_low <= res.low_range[1] and res.high_range[0] <= res.average_precision_high <= res.high_range[1]


def test_seeded_reproducible_and_counts_input():
    rng = np.random.default_rng(9)
    y = rng.random(800) < 0.15
    s = np.round(rng.normal(size=800) + y, 2)
    a = rocci.average_precision(y, s, n_boot=300, seed=11)
    b = rocci.average_precision(y, s, n_boot=300, seed=11)
    c = rocci.average_precision(y, s, n_boot=300, seed=12)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    assert not np.array_equal(a.replicates, c.replicates)
    t = rocci.average_precision(rocci.ScoreCounts.from_arrays(y, s), n_boot=300, seed=11)
    np.testing.assert_array_equal(a.replicates, t.replicates)
    assert a.baseline == pytest.approx(y.mean())
    frame = a.to_frame()
    assert frame.loc[0, "method"] == "monte-carlo" and frame.loc[0, "n_boot"] == 300


def test_ap_from_counts_rows():
    pos = np.array([[1, 0, 2], [0, 3, 0]])
    neg = np.array([[0, 1, 1], [1, 0, 2]])
    got = _ap_from_counts(pos, neg, pos.sum(axis=1))
    assert got[0] == pytest.approx((1 * 1 + 2 * 3 / 5) / 3)
    assert got[1] == pytest.approx(3 * (3 / 4) / 3)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_boot": 5}, "n_boot"), ({"n_boot": 2.5}, "n_boot"), ({"seed": "x"}, "seed"),
    ({"bootstrap": "paired"}, "bootstrap"), ({"confidence_level": 1.5}, "confidence"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(rocci.InputError, match=message):
        rocci.average_precision([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4], **kwargs)
