"""rocci.threshold_stability: the Monte Carlo law of the re-chosen threshold against the exact law by
enumeration of every stratified bootstrap sample (tiny data with ties), the data's own choice, seeding."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

import rocci

Y = np.array([1, 1, 0, 1, 0, 0, 1, 0])
S = np.array([0.8, 0.4, 0.4, 0.3, 0.6, 0.1, 0.7, 0.2])


def _enumerated(criterion, w=None):
    pos, neg = S[Y == 1], S[Y == 0]
    values = np.unique(S)[::-1]
    law = Counter()
    total = pos.size**pos.size * neg.size**neg.size
    for ip in itertools.product(pos, repeat=pos.size):
        tp = np.array([np.sum(np.array(ip) >= t) for t in values])
        for ineg in itertools.product(neg, repeat=neg.size):
            fp = np.array([np.sum(np.array(ineg) >= t) for t in values])
            if criterion == "youden":
                score = tp * neg.size - fp * pos.size
            else:
                score = -(w * (1 - tp / pos.size) + (1 - w) * fp / neg.size)
            law[float(values[int(np.argmax(score))])] += 1 / total
    return law


@pytest.mark.montecarlo
@pytest.mark.parametrize("criterion,w", [("youden", None), ("cost", 0.3)])
def test_monte_carlo_law_agrees_with_every_sample(criterion, w):
    exact = _enumerated(criterion, w)
    res = rocci.threshold_stability(Y, S, criterion=criterion, w=w, n_boot=40_000, seed=5)
    got = dict(zip(res.thresholds.tolist(), res.probability.tolist()))
    for t in set(exact) | set(got):
        p = exact.get(t, 0.0)
        se = max(np.sqrt(p * (1 - p) / res.n_boot), 1e-12)
        assert abs(got.get(t, 0.0) - p) <= 4.5 * se + 1e-12, (t, got.get(t), p)
    assert res.probability.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(res.probability_se, np.sqrt(res.probability * (1 - res.probability) / res.n_boot))


def test_the_data_choice_is_youden_and_cost_threshold():
    rng = np.random.default_rng(2)
    y = rng.random(400) < 0.3
    s = np.round(rng.normal(size=400) + 1.1 * y, 2)
    assert rocci.threshold_stability(y, s, n_boot=200).threshold == rocci.youden_threshold(y, s)
    res = rocci.threshold_stability(y, s, criterion="cost", w=0.3, n_boot=200)
    assert res.threshold == rocci.cost_threshold(y, s, w=0.3)
    assert res.low <= res.median <= res.high
    again = rocci.threshold_stability(y, s, criterion="cost", w=0.3, n_boot=200)
    np.testing.assert_array_equal(again.probability, res.probability)  # seeded


@pytest.mark.parametrize("kwargs,words", [(dict(criterion="cost"), "needs the operating point"),
                                          (dict(w=0.3), "w is for criterion='cost'"),
                                          (dict(n_boot=10), "at least 100"),
                                          (dict(criterion="f1"), "criterion")])
def test_bad_input(kwargs, words):
    with pytest.raises(rocci.InputError, match=words):
        rocci.threshold_stability(Y, S, **kwargs)
