"""The vectorised routes behind the fixed costs at n = 10^3 (issue 17) against the per-level and
per-term routes they replace: vertical_ci's laws at all levels at once, the paired sign
probabilities over the full support by recurrences, and the label classes without a sort."""

import numpy as np
import pytest
from scipy import special

import rocci
from rocci._core.inputs import _label_classes
from rocci.compare.laws import difference_sign_probabilities
from rocci._core.counts import score_counts
from rocci._core.exact import (
    compress_mixture,
    mixture_moments,
    mixture_quantile,
    mixture_skewness,
    order_statistic_law,
    order_statistic_laws,
)
from rocci.roc.vertical import fpr_levels


@pytest.mark.parametrize(
    "m,n,r",
    [
        (500, 500, np.unique(np.clip(np.rint(np.linspace(0.01, 0.99, 99) * 500), 1, 499)).astype(int)),
        (480, 520, np.arange(1, 480, 7)),
        (2000, 300, np.arange(5, 2000, 37)),  # m > n: wide cells
        (50, 400, np.arange(1, 50)),  # m < n
        (300, 30, [1, 299, 150, 150, 20]),  # unsorted, repeated, windows apart
        (100000, 20, np.arange(1000, 99000, 4900)),  # rows spanning > 300 decades of the pmf
        (1000, 5000, np.arange(10, 1000, 10)),  # quadrature at some levels, beta functions at others
        (7, 7, np.arange(1, 7)),
    ],
)
def test_order_statistic_laws_equal_the_per_level_law(m, n, r):
    r = np.asarray(r)
    k, w, offsets, truncated = order_statistic_laws(r, m, n)
    assert offsets[0] == 0 and offsets[-1] == k.size == w.size
    for i, level in enumerate(r.tolist()):
        k0, w0, t0 = order_statistic_law(level, m, n)
        sl = slice(offsets[i], offsets[i + 1])
        np.testing.assert_array_equal(k[sl], k0)
        assert truncated[i] == t0
        np.testing.assert_allclose(w[sl], w0, rtol=0, atol=1e-13)
        # and where a weight matters, relative precision too
        big = w0 > 1e-6
        np.testing.assert_allclose(w[sl][big], w0[big], rtol=1e-11)


def test_order_statistic_runs_equal_the_cells_merged():
    """order_statistic_runs (only the edges where the value changes, the window's ends from the truncated
    mass) against order_statistic_laws' cells merged over runs of equal value: same runs, weights within
    1e-13; sorted and unsorted levels, m != n, one to many runs, quadrature levels (n = 5000)."""
    from rocci._core.exact import order_statistic_runs

    rng = np.random.default_rng(3)
    for trial in range(120):
        n = int(rng.integers(2, 1500)) if trial < 110 else 5000
        m = int(rng.choice([n, int(rng.integers(2, 1500))]))
        values = np.sort(rng.integers(0, int(rng.integers(1, n + 1)), n))  # runs over cells 1 … n
        if rng.random() < 0.5:
            r = np.unique(rng.integers(1, m + 1, int(rng.integers(1, 100))))
        else:
            r = rng.integers(1, m + 1, int(rng.integers(1, 30)))
        start, v, w, off, trunc = order_statistic_runs(r, m, n, lambda k: values[k - 1])
        k, w0, off0, trunc0 = order_statistic_laws(r, m, n)
        np.testing.assert_allclose(trunc, trunc0, rtol=1e-12, atol=1e-300)
        for i in range(r.size):
            kk, ww = k[off0[i]:off0[i + 1]], w0[off0[i]:off0[i + 1]]
            vv = values[kk - 1]
            st = np.flatnonzero(np.r_[True, vv[1:] != vv[:-1]])
            sl = slice(off[i], off[i + 1])
            np.testing.assert_array_equal(start[sl], kk[st])
            np.testing.assert_array_equal(v[sl], vv[st])
            np.testing.assert_allclose(w[sl], np.add.reduceat(ww, st), rtol=0, atol=1e-13)


def _random_mixtures(rng):
    """Random binomial mixtures for the table route: ``n, m``, ``levels`` mixtures of ``sizes`` components
    ``Bin(m, v/n)`` (``level`` of each component, ``v`` sorted per level) with weights ``w`` summing to 1."""
    n, m = int(rng.integers(5, 300)), int(rng.integers(1, 400))
    levels = int(rng.integers(1, 12))
    sizes = rng.integers(1, 20, levels)
    level = np.repeat(np.arange(levels), sizes)
    v = np.concatenate([np.sort(rng.choice(n + 1, s_, replace=s_ > n + 1)) for s_ in sizes])
    w = rng.random(v.size)
    w /= np.add.reduceat(w, np.r_[0, np.cumsum(sizes)[:-1]])[level]
    return n, m, levels, sizes, level, v, w


def test_mixture_quantiles_by_table_any_guess():
    """The guess only saves evaluations: exact, wrong by a few, far off or at the ends, the same answers
    as the bisection from [0, m], which are mixture_quantile's."""
    from rocci._core.exact import mixture_quantiles_by_table

    rng = np.random.default_rng(11)
    for _ in range(30):
        n, m, levels, sizes, level, v, w = _random_mixtures(rng)
        qs = [0.025, 0.5, 0.975]
        plain = mixture_quantiles_by_table(qs, w, v, level, levels, n, m)
        for i in range(levels):
            sel = level == i
            cw, cp = compress_mixture(w[sel], v[sel] / n)
            mean, var = mixture_moments(cw, cp, m)
            for j, q in enumerate(qs):
                assert plain[j, i] == mixture_quantile(q, cw, cp, m, mean, np.sqrt(max(var, 0.0)))
        for guess in (plain, plain + rng.integers(-3, 4, plain.shape), rng.integers(-5, m + 6, plain.shape),
                      np.zeros_like(plain), np.full_like(plain, m)):
            np.testing.assert_array_equal(mixture_quantiles_by_table(qs, w, v, level, levels, n, m, guess=guess),
                                          plain)


def _per_level_vertical(y, s, *, fpr=None, method="score", m=None, confidence_level=0.95):
    """vertical_ci as it was: one order_statistic_law and one compressed mixture per level."""
    y = np.asarray(y, bool)
    counts = score_counts(s[y], s[~y])
    n_pos, n_neg = counts.n_pos, counts.n_neg
    m_pos, m_neg = (n_pos, n_neg) if m is None else m
    r_levels = fpr_levels(fpr, m_neg)
    s_desc = counts.neg_desc()
    alpha = 1 - confidence_level
    z = float(special.ndtri(1 - alpha / 2))
    rows = []
    for r in r_levels.tolist():
        k, w, trunc = order_statistic_law(r, m_neg, n_neg)
        t_scores = s_desc[k - 1]
        cw, cp = compress_mixture(w, counts.n_pos_ge(t_scores) / n_pos)
        mean, var = mixture_moments(cw, cp, m_pos)
        sd = np.sqrt(max(var, 0.0))
        if method == "percentile":
            skew = mixture_skewness(cw, cp, m_pos, mean, sd)
            low, high = (mixture_quantile(q, cw, cp, m_pos, mean, sd, skew=skew) / m_pos
                         for q in (alpha / 2, 1 - alpha / 2))
        else:
            zm = z * z / m_pos
            half = z * np.sqrt(var + (z / (2 * m_pos)) ** 2)
            low, high = np.clip([(mean + zm / 2 - half) / (1 + zm), (mean + zm / 2 + half) / (1 + zm)], 0, 1)
        tw, ts = compress_mixture(w, -t_scores)
        rows.append((mean, sd, low, high, trunc, (cw, cp), (-ts, tw)))
    return rows


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("m", [None, (300, 700), (90, 40)])
@pytest.mark.parametrize("method", ["score", "percentile"])
def test_vertical_ci_all_levels_equal_the_per_level_route(ties, m, method):
    rng = np.random.default_rng(17 + 7 * ties + (m is None))
    n = 1000
    y = rng.random(n) < 0.45
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(2 * s) / 2  # about 15 distinct scores, positives tied with negatives
    fpr = None if m is None else [0.9, 0.05, 0.5, 0.5, 0.01, 0.99]
    res = rocci.vertical_ci(y, s, fpr=fpr, method=method, m=m)
    want = _per_level_vertical(y, s, fpr=fpr, method=method, m=m)
    for i, (mean, sd, low, high, trunc, (cw, cp), (ts, tw)) in enumerate(want):
        assert res.tpr_mean[i] == pytest.approx(mean, abs=1e-13)
        assert res.tpr_std[i] == pytest.approx(sd, abs=1e-13)
        assert res.truncated_mass[i] == trunc
        if method == "percentile":  # lattice points: identical
            assert (res.tpr_low[i], res.tpr_high[i]) == (low, high)
        else:
            assert res.tpr_low[i] == pytest.approx(low, abs=1e-13)
            assert res.tpr_high[i] == pytest.approx(high, abs=1e-13)
        lw, lp = res._laws[i]
        np.testing.assert_array_equal(lp, cp)
        np.testing.assert_allclose(lw, cw, rtol=0, atol=1e-13)
        t_scores, t_probs = res.threshold_distribution(i)
        np.testing.assert_array_equal(t_scores, ts)
        np.testing.assert_allclose(t_probs, tw, rtol=0, atol=1e-13)



def test_fpr_levels_default_equal_numpy_unique():
    """The default levels (sorted: the distinct ones where r changes) are np.unique's, dtype included."""
    from rocci.roc.vertical import DEFAULT_FPR

    for m_neg in list(range(2, 400)) + [997, 1000, 1001, 4999, 10**6]:
        got = fpr_levels(None, m_neg)
        want = np.unique(np.clip(np.rint(DEFAULT_FPR * m_neg), 1, m_neg - 1).astype(np.int64))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_cdf_band_table_holds_the_band():
    """Each row of the percentile table: B(l) <= exp(-46) below its band and 1 − B(l) <= exp(-46) above it
    (the narrower of the Bernstein and Hoeffding bounds), scipy's CDF within 5e-14 on the band (the table
    before Hoeffding's bound and the division by the row's sum: up to 1.6e-14 here, as now), 0 and 1 in
    the padding; rows at p = 0 and p = 1."""
    from scipy import stats

    from rocci._core.exact import _PAD, _cdf_band_table

    rng = np.random.default_rng(23)
    for n, m in [(500, 500), (300, 700), (1000, 90), (40, 2000), (7, 3), (2, 20000)] + [
            (int(rng.integers(2, 900)), int(rng.integers(1, 900))) for _ in range(10)]:
        used = np.unique(np.r_[rng.integers(0, n + 1, 30), 0, n, n // 2])
        table, band_lo, width = _cdf_band_table(used, n, m)
        assert table.shape == (used.size, width + 2 * _PAD)
        assert np.all(table[:, :_PAD] == 0.0) and np.all(table[:, _PAD + width:] == 1.0)
        l = np.arange(m + 1)
        bound = np.exp(-46.0) * (1 + 1e-9)
        for i, v in enumerate(used.tolist()):
            cdf, sf = stats.binom.cdf(l, m, v / n), stats.binom.sf(l, m, v / n)
            lo, hi = int(band_lo[i]), int(band_lo[i]) + width - 1
            assert np.all(cdf[:lo] <= bound)
            assert np.all(sf[hi + 1:] <= bound)
            band = l[lo:min(hi, m) + 1]
            np.testing.assert_allclose(table[i, _PAD + band - lo], cdf[band], rtol=0, atol=5e-14)


def test_mixture_quantiles_by_table_offsets_and_wide_rows(monkeypatch):
    """``offsets`` (the levels' first components, as vertical_ci has them) and the safeguard that redoes a
    row outwards from its mode (forced here for every row): the same quantiles as without."""
    import rocci._core.exact as exact

    rng = np.random.default_rng(31)
    for _ in range(30):
        n, m, levels, sizes, level, v, w = _random_mixtures(rng)
        qs = [0.025, 0.5, 0.975]
        offsets = np.r_[0, np.cumsum(sizes)]
        guess = rng.integers(-3, m + 4, (len(qs), levels))
        want = exact.mixture_quantiles_by_table(qs, w, v, level, levels, n, m)
        np.testing.assert_array_equal(exact.mixture_quantiles_by_table(qs, w, v, level, levels, n, m, offsets=offsets),
                                      want)
        used = np.unique(v)
        table, _, _ = exact._cdf_band_table(used, n, m)
        monkeypatch.setattr(exact, "_TABLE_WIDE", 0.0)
        redone, _, _ = exact._cdf_band_table(used, n, m)
        np.testing.assert_allclose(redone, table, rtol=0, atol=1e-14)
        np.testing.assert_array_equal(exact.mixture_quantiles_by_table(qs, w, v, level, levels, n, m, guess=guess,
                                                                       offsets=offsets), want)
        monkeypatch.undo()


@pytest.mark.parametrize("seed", range(40))
def test_vertical_percentile_table_equals_the_per_level_route_random(seed):
    """The table route of the percentile intervals on random data: continuous or tied scores (positives tied
    with negatives), 3% to 97% positives, m = n or m != n (larger and smaller), the default levels or a
    sorted subset: bounds identical to the per-level search, moments within 1e-13."""
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(30, 700))
    share = float(rng.choice([0.03, 0.2, 0.5, 0.8, 0.97]))
    y = rng.random(n) < share
    y[:2] = [True, False]
    y[2:4] = [True, False]
    s = rng.normal(size=n) + float(rng.uniform(0, 2.5)) * y
    if seed % 3 == 0:
        s = np.round(2 * s) / 2
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    m = None if seed % 2 else (int(rng.integers(2, 2 * n_pos + 2)), int(rng.integers(2, 2 * n_neg + 2)))
    fpr = None if seed % 4 < 2 else np.unique(rng.uniform(0, 1, int(rng.integers(1, 25))))
    res = rocci.vertical_ci(y, s, fpr=fpr, method="percentile", m=m)
    want = _per_level_vertical(y, s, fpr=fpr, method="percentile", m=m)
    assert len(want) == res.r.size
    for i, (mean, sd, low, high, *_rest) in enumerate(want):
        assert (res.tpr_low[i], res.tpr_high[i]) == (low, high)
        assert res.tpr_mean[i] == pytest.approx(mean, abs=1e-13)
        assert res.tpr_std[i] == pytest.approx(sd, abs=1e-13)


def _sign_grid(seed, size):
    rng = np.random.default_rng(seed)
    for _ in range(size):
        n = int(rng.integers(2, 1001))
        m = int(rng.choice([n, int(rng.integers(1, 1001))]))
        na = rng.integers(0, n + 1, 12)
        nb = (rng.random(12) * (n + 1 - na)).astype(int)
        yield n, m, na, nb
        yield n, m, na, np.clip(na + rng.integers(-3, 4, 12), 0, n - na)  # near ties: π close to 1/2


def test_full_support_sign_probabilities_equal_the_per_term_sums():
    """m <= 1000: recurrences over s (default) against three boost evaluations per term
    (the windowed route, with a window that leaves out nothing a double can hold)."""
    for n, m, na, nb in _sign_grid(2009, 60):
        got = difference_sign_probabilities(na, nb, n, m)
        want = difference_sign_probabilities(na, nb, n, m, eps=1e-60)
        for g, w in zip(got, want):
            assert np.all(np.isfinite(g))
            np.testing.assert_allclose(g, w, rtol=0, atol=5e-15)
            # the small side keeps its relative precision down to the saturation level
            small = w > 1e-20
            np.testing.assert_allclose(g[small], w[small], rtol=1e-11)


def test_sign_probabilities_by_class_equal_one_class_at_a_time():
    """Both classes' pairs in one pass (per-pair m and n; compare_thresholds, dominance_map): the per-term
    sums of each class (within 5e-15, small sides 1e-11 relative), one class at a time within 1e-15; a
    class with m > 1000 (the windowed route) alongside one that is summed over the whole support."""
    from rocci.compare.laws import difference_sign_probabilities_by_class

    rng = np.random.default_rng(44)
    grid = list(_sign_grid(77, 40))
    sizes = [(n, m, 1001 + int(rng.integers(0, 500))) for n, m, _, _ in grid]
    for (n, m, na, nb), (n2, m2, big_m) in zip(grid, sizes[::-1]):
        na2 = rng.integers(0, n2 + 1, 7)
        nb2 = np.minimum(rng.integers(0, n2 + 1, 7), n2 - na2)
        nb2[:2] = n2 - na2[:2]  # no cell c
        for other_m in (m2, big_m):
            classes = [(na, nb, n, m), (na2, nb2, n2, other_m)]
            got = difference_sign_probabilities_by_class(classes)
            for (a, b, nn, mm), g3 in zip(classes, got):
                one = difference_sign_probabilities(a, b, nn, mm)
                want = difference_sign_probabilities(a, b, nn, mm, eps=1e-60)
                for g, o, w in zip(g3, one, want):
                    assert g.shape == np.shape(a)
                    np.testing.assert_allclose(g, o, rtol=0, atol=1e-15)
                    np.testing.assert_allclose(g, w, rtol=0, atol=5e-15)
                    small = w > 1e-20
                    np.testing.assert_allclose(g[small], w[small], rtol=1e-11)


def test_full_support_sign_probabilities_edge_cells():
    """Empty cell c (γ = 1), a = b, one-sided and empty disagreements, m = 1 and 2."""
    n = 10
    na = np.array([5, 3, 4, 0, 0, 7, 1, 9])
    nb = np.array([5, 7, 4, 0, 6, 0, 1, 1])
    for m in (1, 2, 3, 10, 999):
        got = difference_sign_probabilities(na, nb, n, m)
        want = difference_sign_probabilities(na, nb, n, m, eps=1e-60)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got[0] + got[1] + got[2], 1.0, atol=1e-14)


def test_full_support_sign_probabilities_far_tail_windows(monkeypatch):
    """Windows of S starting at s = 0 far below the mode (1 − γ = 1e-6, m << n): the products from the
    window's start would overflow, so those rows go outwards from the mode; same sums as per term."""
    import rocci.compare.laws as laws

    calls = []
    original = laws._outward_products
    monkeypatch.setattr(laws, "_outward_products", lambda *a: calls.append(a[0].shape[0]) or original(*a))
    for n, m, na, nb in [(10**6, 60, [600000, 500000, 999990, 3], [399999, 499999, 9, 999996]),
                         (10**7, 200, [5 * 10**6, 10], [5 * 10**6 - 1, 7])]:
        na, nb = np.array(na), np.array(nb)
        got = difference_sign_probabilities(na, nb, n, m)
        want = difference_sign_probabilities(na, nb, n, m, eps=1e-60)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-15)
    assert calls  # the fallback ran


def test_full_support_sign_probabilities_against_50_digit_sums():
    """P(D > 0), P(D = 0), P(D < 0) of D = A − B, (A, B, C) ~ Multinomial(m; n_a/n, n_b/n, rest), against
    the multinomial summed cell by cell in 50-digit arithmetic: within 1e-15, and the small ones
    (above 1e-20) within 1e-13 relative."""
    import mpmath

    mpmath.mp.dps = 50
    rng = np.random.default_rng(5)
    for _ in range(12):
        n = int(rng.integers(2, 400))
        m = min(int(rng.choice([n, int(rng.integers(1, 60))])), 60)
        na = int(rng.integers(0, n + 1))
        nb = int(rng.integers(0, n + 1 - na))
        pa, pb = mpmath.mpf(na) / n, mpmath.mpf(nb) / n
        want = [mpmath.mpf(0)] * 3
        for a in range(m + 1):
            for b in range(m + 1 - a):
                pr = (mpmath.factorial(m) / (mpmath.factorial(a) * mpmath.factorial(b) * mpmath.factorial(m - a - b))
                      * pa**a * pb**b * (1 - pa - pb) ** (m - a - b))
                want[0 if a > b else 1 if a == b else 2] += pr
        got = difference_sign_probabilities(np.array([na]), np.array([nb]), n, m)
        for g, w in zip(got, want):
            w = float(w)
            assert abs(g[0] - w) <= 1e-15
            if w > 1e-20:
                assert abs(g[0] - w) <= 1e-13 * w


@pytest.mark.parametrize(
    "labels",
    [
        np.r_[np.zeros(500, bool), np.ones(300, bool)],
        np.ones(100, bool),
        np.zeros(100, np.int32),
        np.where(np.arange(1000) % 3 == 0, -1, 1).astype(np.int8),
        np.r_[np.zeros(70, np.int16), [5, -7]],
        np.arange(300, dtype=np.uint16) % 7,
        np.array([3] * 100, np.uint64),
        np.r_[np.zeros(80, np.int64), [2**40, -(2**40)]],
        np.arange(10),
    ],
)
def test_label_classes_equal_numpy_unique(labels):
    got, want = _label_classes(labels), np.unique(labels)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
