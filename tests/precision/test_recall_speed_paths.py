"""The faster paths of the precision at recall levels give the results of the components' routes: the percentile
bounds searched in the interpolated mixtures (rocci.precision._laws.interpolated_mixtures, with the fallback to
the components near the level) are the per-level searches' bit for bit, and the moments summed on coarse
lattices (rocci.precision.recall._lattice_moments) are the sums over every count of the windows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rocci._core.exact import QUANTILE_TOL, _boost_binom_pmf, binomial_cdf, binomial_pmf, mixture_moments, mixture_skewness
from rocci.precision import precision_ci
from rocci.precision import recall as recall_mod
from rocci.precision._laws import CELL_EPS, SaturatedMixture, bernstein_bounds, interpolated_mixtures


def _no_interpolation(weights, q, offsets, m, *args, **kwargs):
    return [None] * (len(offsets) - 1)


def _dense_mixtures(seed):
    """Mixtures like the recall levels' (sorted distinct q, smooth weights), dense enough to be interpolated,
    with components at 0 and 1 now and then."""
    rng = np.random.default_rng(seed)
    for m in (500, 3_000, 40_000, 900_000, 5_000_000):
        for _ in range(4):
            centre = rng.uniform(0.002, 0.95)
            spread = np.sqrt(centre * (1 - centre) / m) * rng.uniform(0.5, 40)
            j = int(rng.integers(200, 3000))
            q = np.unique(np.clip(centre + spread * rng.normal(0, 1, j), 1e-9, 1 - 1e-9))
            if rng.random() < 0.3:
                q = np.r_[0.0, q]
            if rng.random() < 0.3:
                q = np.r_[q, 1.0]
            w = np.exp(-0.5 * ((q - centre) / spread) ** 2) * rng.uniform(0.5, 1.5, q.size)
            w *= (1 - 1e-16) / w.sum()
            yield m, w, q


@pytest.mark.parametrize("seed", [0, 1])
def test_interpolated_mixture_cdf_and_pmf(seed):
    """CDF and pmf of the interpolated mixture equal the components' within 1e-13 at every count tried."""
    used = 0
    mixtures = list(_dense_mixtures(seed))
    sizes = np.array([q.size for _, _, q in mixtures])
    for (m, w, q) in mixtures:
        (reduced,) = interpolated_mixtures(w, q, np.array([0, q.size]), m)
        if reduced is None:
            continue
        used += 1
        rw, rq = reduced
        assert rq.size < q.size and (np.diff(rq) >= 0).all()
        assert abs(rw.sum() - w.sum()) < 1e-14
        mean, var = mixture_moments(w, q, m)
        sd = np.sqrt(var)
        ls = np.unique(np.clip(np.floor(m * (mean + sd * np.linspace(-6, 6, 41))), 0, m).astype(np.int64))
        for l in ls.tolist():
            assert abs(float(rw @ binomial_cdf(l, m, rq)) - float(w @ binomial_cdf(l, m, q))) < 1e-13
            assert abs(float(rw @ binomial_pmf(l, m, rq)) - float(w @ binomial_pmf(l, m, q))) < 1e-13
    assert used >= 10 and sizes.size >= 20
    # All mixtures at once: each the one computed alone.
    offsets = np.r_[0, np.cumsum(sizes)]
    together = interpolated_mixtures(np.concatenate([w for _, w, _ in mixtures[:4]]),
                                     np.concatenate([q for _, _, q in mixtures[:4]]), offsets[:5], mixtures[0][0])
    for (m, w, q), got in zip(mixtures[:4], together):
        (alone,) = interpolated_mixtures(w, q, np.array([0, q.size]), m)
        assert (alone is None) == (got is None)
        if alone is not None:
            np.testing.assert_array_equal(alone[1], got[1])
            np.testing.assert_allclose(alone[0], got[0], rtol=0, atol=1e-17)


def test_interpolated_mixture_none_when_sparse():
    """Too few components per standard deviation, or only components at 0 and 1: nothing to interpolate."""
    q = np.linspace(0.1, 0.9, 50)
    assert interpolated_mixtures(np.ones(50), q, np.array([0, 50]), 100) == [None]
    q = np.r_[0.0, 1.0]
    assert interpolated_mixtures(np.ones(2), q, np.array([0, 2]), 10**6) == [None]


@pytest.mark.parametrize("seed", [0, 1])
def test_percentile_counts_equal_the_components_search(seed, monkeypatch):
    """The counts searched in the interpolated mixture are the components' search's, with and without the
    fallback (margin 1: every answer searched again in the components)."""
    levels = (0.0005, 0.005, 0.025, 0.1, 0.5, 0.9, 0.975, 0.995, 0.9995)
    for m, w, q in _dense_mixtures(seed):
        mean, var = mixture_moments(w, q, m)
        sd = np.sqrt(max(var, 0.0))
        skew = mixture_skewness(w, q, m, mean, sd)
        law = SaturatedMixture(w, q, m)
        want = [law.quantile(p + 2 * QUANTILE_TOL, mean, sd, skew) for p in levels]
        (reduced,) = interpolated_mixtures(w, q, np.array([0, q.size]), m)
        got = recall_mod._percentile_counts(w, q, m, levels, mean, sd, skew, reduced)
        assert got == want
        if reduced is not None:
            fast = SaturatedMixture(reduced[0], reduced[1], m)
            for p, f in zip(levels, want):
                assert fast.quantile(p + 2 * QUANTILE_TOL, mean, sd, skew) == f
                assert fast.margin > recall_mod.INTERPOLATION_MARGIN
    monkeypatch.setattr(recall_mod, "INTERPOLATION_MARGIN", 1.0)
    for m, w, q in list(_dense_mixtures(seed))[:6]:
        mean, var = mixture_moments(w, q, m)
        sd = np.sqrt(max(var, 0.0))
        law = SaturatedMixture(w, q, m)
        (reduced,) = interpolated_mixtures(w, q, np.array([0, q.size]), m)
        got = recall_mod._percentile_counts(w, q, m, levels, mean, sd, 0.0, reduced)
        assert got == [law.quantile(p + 2 * QUANTILE_TOL, mean, sd, 0.0) for p in levels]


def test_saturated_mixture_margin():
    """``margin`` is the distance of F(answer) and F(answer − 1) from the level."""
    rng = np.random.default_rng(2)
    m = 20_000
    q = np.sort(rng.uniform(0.2, 0.3, 300))
    w = rng.random(300)
    w /= w.sum()
    law = SaturatedMixture(w, q, m)
    mean, var = mixture_moments(w, q, m)
    for p in (0.001, 0.025, 0.5, 0.975):
        for guess in (mean, 1 - mean):  # found by a walk, or by the bracket
            f = law.quantile(p, guess, np.sqrt(var))
            target = p - QUANTILE_TOL
            want = min(float(w @ binomial_cdf(f, m, q)) - target, target - float(w @ binomial_cdf(f - 1, m, q)))
            assert want > 0
            assert abs(law.margin - want) < 1e-13


def _data(n, share, digits, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    s = rng.normal(0, 1, n) + 1.5 * y
    return y, (s if digits is None else np.round(s, digits))


@pytest.mark.parametrize("n, share, digits, m, seed", [
    (200_000, 0.1, None, None, 0),
    (200_000, 0.5, 3, (20_000, 5_000), 1),
    (200_000, 0.01, None, (2_000, 2_000), 2),
    (100_000, 0.5, None, (30_000, 80_000), 3),
    (150_000, 0.3, 3, (200_000, 2_000), 4),
])
def test_recall_levels_equal_the_components_routes(n, share, digits, m, seed, monkeypatch):
    """Tied and continuous scores, 1%, 10%, 30% and 50% positives, m != n, several confidence levels: the
    bounds bit for bit those of the per-level search in the components, the means and sds within 1e-12 of
    the sums over every count (rocci.precision.recall._component_moments at the Chebyshev nodes)."""
    y, s = _data(n, share, digits, seed)
    levels = np.round(np.linspace(0.01, 0.99, 99), 2)
    calls = []
    real = recall_mod.interpolated_mixtures

    def counting(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append(sum(x is not None for x in out))
        return out

    monkeypatch.setattr(recall_mod, "interpolated_mixtures", counting)
    for level in (0.8, 0.95, 0.999):
        new = precision_ci(y, s, recall=levels, confidence_level=level, m=m).to_frame()
        with monkeypatch.context() as mp:
            mp.setattr(recall_mod, "interpolated_mixtures", _no_interpolation)
            mp.setattr(recall_mod, "_lattice_moments", recall_mod._component_moments)
            old = precision_ci(y, s, recall=levels, confidence_level=level, m=m).to_frame()
        for col in ("precision_low", "precision_high", "precision"):
            np.testing.assert_array_equal(new[col].to_numpy(), old[col].to_numpy())
        # the same terms (a dot product's last bit may depend on its operands' alignment)
        np.testing.assert_allclose(new["truncated_mass"].to_numpy(), old["truncated_mass"].to_numpy(), rtol=1e-13)
        for col in ("precision_mean", "precision_std"):
            np.testing.assert_allclose(new[col].to_numpy(), old[col].to_numpy(), rtol=0, atol=1e-12)
    assert min(calls) >= 20  # the interpolated mixtures were searched at many levels


@pytest.mark.parametrize("m", [10, 300, 5_000, 900_000, 10**7])
def test_lattice_moments_equal_the_sums(m):
    """The coarse lattice's sums equal the sums over every count of the windows (math.fsum of the boost pmf),
    and the windows' left-out mass is _component_moments'."""
    rng = np.random.default_rng(m)
    for r in (1, 3, 40, 2_000, 10**6):
        q = np.sort(np.r_[rng.uniform(1e-4, 1 - 1e-4, 6), 10 ** rng.uniform(-7, -1, 4)])
        centre = rng.uniform(0.05, 1)
        h1, h2, left = recall_mod._lattice_moments(r, q, m, centre)
        _, _, want_left = recall_mod._component_moments(r, q, m, centre)
        np.testing.assert_array_equal(left, want_left)
        lo, hi, _ = bernstein_bounds(m, q, CELL_EPS)
        for j in range(q.size):
            f = np.arange(lo[j], hi[j] + 1, dtype=np.float64)
            pmf = _boost_binom_pmf(f, float(m), q[j])
            d = r / (r + f) - centre
            e1, e2 = math.fsum(pmf * d), math.fsum(pmf * d * d)
            # the boost pmf's own rounding (the sum over every count averages it, a lattice does not)
            tol = 1.5e-14 if m >= 10**6 else 6e-15
            assert abs(h1[j] - e1) <= tol * max(abs(e1), math.fsum(pmf * np.abs(d)))
            assert abs(h2[j] - e2) <= tol * e2
