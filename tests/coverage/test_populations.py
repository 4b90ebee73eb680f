"""rocci.coverage.populations: true rates, thresholds, copula cells, sampling."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, special, stats

import rocci
from rocci import populations as P

SHAPES = [
    P.Population(P.normal(1, 1), P.normal(0, 1)),
    P.Population(P.normal(2, 2), P.normal(0, 1)),
    P.Population(P.beta(2, 4), P.beta(2, 3)),
    P.Population(P.beta(1.2, 2), P.beta(1.2, 3)),
    P.Population(P.exponential(3), P.exponential(2)),
]


def test_worked_example_threshold_and_rates():
    """math.md §7: θ = 5, rate .13 → threshold 7.412748, TPR .2599825, FPR 1.754920e-5."""
    pop = P.binormal(5.0)
    t = pop.threshold_for_rate([0.13])[0]
    assert t == pytest.approx(7.412748, abs=1e-6)
    assert pop.tpr(t) == pytest.approx(0.2599825, abs=1e-7)
    assert pop.fpr(t) == pytest.approx(1.754920e-5, rel=1e-6)


@pytest.mark.parametrize("pop", SHAPES + [P.binormal(0.75), P.binormal(5.0, prior=0.2)], ids=lambda p: p.label)
def test_threshold_for_rate_inverts_total_positive_rate(pop):
    q = np.array([0.001, 0.01, 0.13, 0.5, 0.87, 0.99, 0.999])
    t = pop.threshold_for_rate(q)
    np.testing.assert_allclose(pop.total_positive_rate(t), q, rtol=1e-9, atol=1e-12)
    assert np.all(np.diff(t) < 0)
    assert pop.threshold_for_rate([0.0])[0] == np.inf and pop.threshold_for_rate([1.0])[0] == -np.inf


def test_distribution_rates_match_scipy():
    for d, ref in ((P.normal(1, 2), stats.norm(1, 2)), (P.beta(1.2, 3), stats.beta(1.2, 3)),
                   (P.exponential(3), stats.expon(scale=3))):
        x = ref.ppf([0.01, 0.3, 0.7, 0.99])
        np.testing.assert_allclose(d.sf(x), ref.sf(x), rtol=1e-12)
        np.testing.assert_allclose(d.isf([0.2, 1e-9]), ref.isf([0.2, 1e-9]), rtol=1e-10)
        np.testing.assert_allclose(d.from_z(d.z(x)), x, rtol=1e-9)


def test_roc_is_tpr_at_the_fpr_threshold():
    pop = SHAPES[1]
    f = np.array([0.05, 0.3, 0.8])
    t = pop.neg.isf(f)
    np.testing.assert_allclose(pop.fpr(t), f, rtol=1e-12)
    np.testing.assert_allclose(pop.roc(f), pop.tpr(t), rtol=1e-12)


def test_optimal_threshold_closed_form_equal_scales():
    """N(θ, σ) vs N(−θ, σ): w·f+(t) = (1 − w)·f−(t) gives t = σ² ln((1 − w)/w) / (2θ)."""
    theta, sigma = 1.5, 3.0
    pop = P.binormal(theta, sigma, sigma)
    w = np.array([0.2, 0.3, 0.5, 0.7, 0.8])
    expected = sigma**2 * np.log((1 - w) / w) / (2 * theta)
    np.testing.assert_allclose(pop.optimal_threshold(w), expected, atol=1e-6)
    # and it beats every threshold of a fine grid
    grid = np.linspace(-30, 30, 20001)
    for wi, ti in zip(w, pop.optimal_threshold(w)):
        assert pop.cost(ti, wi) <= pop.cost(grid, wi).min() + 1e-12


def test_optimal_threshold_trivial_at_the_ends():
    pop = P.binormal(0.75, 3, 3)
    t = pop.optimal_threshold([0.0, 0.01, 0.99, 1.0])
    assert t[0] == np.inf and t[3] == -np.inf
    c = pop.cost(t, [0.0, 0.01, 0.99, 1.0])
    assert c[0] == 0 and c[3] == 0
    assert c[1] <= 0.01 + 1e-12 and c[2] <= 0.01 + 1e-12


@pytest.mark.parametrize("rho", [-0.5, 0.0, 0.3, 0.9])
def test_bivariate_normal_cdf_against_quadrature(rho):
    s = np.sqrt(1 - rho**2)
    for h, k in [(0.3, -0.7), (-1.2, -2.0), (2.0, 1.5), (0.0, 0.8), (-0.4, 0.0), (3.5, -3.5), (-6.0, 1.0)]:
        ref, _ = integrate.quad(lambda x: stats.norm.pdf(x) * special.ndtr((k - rho * x) / s), -np.inf, h,
                                epsabs=1e-14, epsrel=1e-12)
        assert P.bivariate_normal_cdf(h, k, rho) == pytest.approx(ref, abs=1e-12)


def test_bivariate_normal_cdf_at_zero():
    for rho in (-0.9, 0.0, 0.6):
        assert P.bivariate_normal_cdf(0.0, 0.0, rho) == pytest.approx(0.25 + np.arcsin(rho) / (2 * np.pi), abs=1e-14)


@pytest.mark.montecarlo
def test_copula_cells_match_monte_carlo():
    """Cell frequencies of 400,000 sampled pairs within 4 standard errors of the copula's probabilities."""
    pair = P.CorrelatedPair(P.Population(P.beta(1.2, 2), P.beta(1.2, 3)), P.binormal(1.0), 0.6)
    ta, tb = 0.3, 0.5
    rng = np.random.default_rng(7)
    pa_s, pb_s, na_s, nb_s = pair.sample(400_000, 400_000, rng)
    for cls, sa, sb in (("pos", pa_s, pb_s), ("neg", na_s, nb_s)):
        pa, pb, both = pair.cells(ta, tb, cls)
        freq = {"a": np.mean((sa >= ta) & (sb < tb)), "b": np.mean((sa < ta) & (sb >= tb)),
                "both": np.mean((sa >= ta) & (sb >= tb))}
        for key, p in (("a", pa), ("b", pb), ("both", both)):
            se = np.sqrt(p * (1 - p) / sa.size)
            assert abs(freq[key] - p) < 4 * se, (cls, key, freq[key], p)
    # correlation of the normal scores is rho
    z = np.corrcoef(pair.a.pos.z(pa_s), pair.b.pos.z(pb_s))[0, 1]
    assert z == pytest.approx(0.6, abs=4 * (1 - 0.36) / np.sqrt(400_000))


def test_cells_add_up():
    pair = P.CorrelatedPair(P.binormal(1.0), P.binormal(3.0), 0.9)
    ta, tb = np.array([-5.0, 0.0, 2.0, 9.0]), np.array([-4.0, 1.0, 2.5, 12.0])
    pa, pb, both = pair.cells(ta, tb, "pos")
    np.testing.assert_allclose(pa + both, pair.a.tpr(ta), atol=1e-15)
    np.testing.assert_allclose(pb + both, pair.b.tpr(tb), atol=1e-15)


@pytest.mark.parametrize("pop", SHAPES, ids=lambda p: p.label)
def test_sampling_matches_survival_function(pop):
    rng = np.random.default_rng(3)
    pos, neg = pop.sample(200_000, 200_000, rng)
    for d, x in ((pop.pos, pos), (pop.neg, neg)):
        for q in (0.1, 0.5, 0.9):
            t = d.isf(q)
            assert abs(np.mean(x >= t) - q) < 4 * np.sqrt(q * (1 - q) / x.size)
    pos2, neg2 = pop.sample(5, 7, rng, size=3)
    assert pos2.shape == (3, 5) and neg2.shape == (3, 7)


def test_bad_parameters_raise_input_error():
    with pytest.raises(rocci.InputError, match="scale"):
        P.normal(0, -1)
    with pytest.raises(rocci.InputError, match="positive number"):
        P.beta(0, 2)
    with pytest.raises(rocci.InputError, match="prior"):
        P.Population(P.normal(), P.normal(), prior=1.0)
    with pytest.raises(rocci.InputError, match="rho"):
        P.CorrelatedPair(P.binormal(1), P.binormal(2), 1.0)
    with pytest.raises(rocci.InputError, match="total positive rates"):
        P.binormal(1).threshold_for_rate([1.5])
