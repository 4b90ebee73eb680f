"""Paired vertical averaging: vectors 4.1–4.5 and enumeration of every bootstrap sample."""

import itertools
import json
from math import factorial
from pathlib import Path

import numpy as np
import pytest

from rocci.compare.vertical import _PairedData, compare_vertical

VECTORS = json.loads((Path(__file__).resolve().parents[3] / "shared" / "vectors" / "vectors.json").read_text())
PAIRED = [v for v in VECTORS["vectors"] if v["kind"] == "vertical_paired"]


def _arrays(i):
    y = np.r_[np.ones(len(i["pos1"]), int), np.zeros(len(i["neg1"]), int)]
    return y, np.r_[i["pos1"], i["neg1"]], np.r_[i["pos2"], i["neg2"]]


@pytest.mark.parametrize("vec", PAIRED, ids=[v["id"] for v in PAIRED])
def test_vertical_paired_vectors(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, a, b = _arrays(i)
    n_pos, n_neg = len(i["pos1"]), len(i["neg1"])
    # r = m− (FPR 1) lies outside the public range 1..m−−1; the kernel handles it.
    ctx = _PairedData(a[y == 1], b[y == 1], a[y == 0], b[y == 0], n_pos, n_neg)
    lv = ctx.level(i["r"])
    got = dict(zip(lv["d"].tolist(), lv["pmf"]))
    for d, p in zip(e["d"], e["pmf"]):
        assert got.get(d, 0.0) == pytest.approx(p, abs=tol)
    assert lv["mean"] == pytest.approx(e["mean_dtpr"], abs=tol)
    assert lv["std"] ** 2 == pytest.approx(e["var_dtpr"], abs=tol)
    if "f_joint" in e:
        k, j, f = lv["joint"]
        full = np.zeros((n_neg, n_neg))
        full[np.ix_(k - 1, j - 1)] = f
        np.testing.assert_allclose(full, e["f_joint"], rtol=0, atol=tol)
    if i["r"] < n_neg:
        res = compare_vertical(y, a, b, fpr=[i["r"] / n_neg])
        assert res.delta_tpr_mean[0] == pytest.approx(e["mean_dtpr"], abs=tol)


def _multisets(n, m):
    """Every multiset of m draws from n items, with its multinomial probability."""
    for combo in itertools.combinations_with_replacement(range(n), m):
        counts = np.bincount(combo, minlength=n)
        w = factorial(m) / np.prod([factorial(c) for c in counts]) / n**m
        yield np.array(combo), w


@pytest.mark.parametrize("m", [None, (4, 5), (3, 7)])
def test_enumeration_of_every_paired_bootstrap_sample(m):
    """Tiny paired data with ties in both models: the exact law equals the
    average over every stratified bootstrap sample, to 1e-12."""
    pos_a = np.array([0.9, 0.6, 0.5, 0.5])
    pos_b = np.array([0.4, 0.8, 0.5, 0.2])
    neg_a = np.array([0.7, 0.5, 0.5, 0.3, 0.1])
    neg_b = np.array([0.6, 0.3, 0.55, 0.3, 0.9])
    y = np.r_[np.ones(4, int), np.zeros(5, int)]
    a, b = np.r_[pos_a, neg_a], np.r_[pos_b, neg_b]
    m_pos, m_neg = (4, 5) if m is None else m
    for r in range(1, m_neg):
        law: dict[int, float] = {}
        for neg_idx, w_neg in _multisets(5, m_neg):
            t_a = np.sort(neg_a[neg_idx])[::-1][r - 1]
            t_b = np.sort(neg_b[neg_idx])[::-1][r - 1]
            for pos_idx, w_pos in _multisets(4, m_pos):
                pa, pb = pos_a[pos_idx], pos_b[pos_idx]
                d = int(np.sum((pa >= t_a) & (pb < t_b)) - np.sum((pa < t_a) & (pb >= t_b)))
                law[d] = law.get(d, 0.0) + w_neg * w_pos
        res = compare_vertical(y, a, b, fpr=[r / m_neg], m=m)
        values, probs = res.distribution(0)
        got = dict(zip(np.rint(values * m_pos).astype(int).tolist(), probs))
        for d in set(law) | set(got):
            assert got.get(d, 0.0) == pytest.approx(law.get(d, 0.0), abs=1e-12), (r, d)
        mean = sum(d * p for d, p in law.items()) / m_pos
        assert res.delta_tpr_mean[0] == pytest.approx(mean, abs=1e-12)
        assert res.p_a_better[0] == pytest.approx(sum(p for d, p in law.items() if d > 0), abs=1e-12)
        assert res.p_tie[0] == pytest.approx(law.get(0, 0.0), abs=1e-12)


@pytest.mark.parametrize("m", [None, (4, 5), (3, 7)])
def test_score_interval_moments_by_enumeration(m):
    """method="score" (the default): the interval's ingredients, δ̄ = E[δ_KJ], V_b = Var(δ_KJ) and
    E[γ_KJ] (δ = p_a − p_b, γ = p_a + p_b, the positives' discordant shares at the two thresholds
    T_r drawn with the negatives), averaged over every stratified bootstrap sample of negatives, with
    ties; the bounds solve (δ̄ − δ)² = z²[V_b(1 − 1/m+) + (γ̃ − δ²)/m+], γ̃ = (n+·E[γ] + 2)/(n+ + 4)."""
    from scipy.special import ndtri

    pos_a = np.array([0.9, 0.6, 0.5, 0.5])
    pos_b = np.array([0.4, 0.8, 0.5, 0.2])
    neg_a = np.array([0.7, 0.5, 0.5, 0.3, 0.1])
    neg_b = np.array([0.6, 0.3, 0.55, 0.3, 0.9])
    y = np.r_[np.ones(4, int), np.zeros(5, int)]
    a, b = np.r_[pos_a, neg_a], np.r_[pos_b, neg_b]
    m_pos, m_neg = (4, 5) if m is None else m
    z = float(ndtri(1 - 0.2 / 2))
    for r in range(1, m_neg):
        ws, deltas, gammas = [], [], []
        for neg_idx, w_neg in _multisets(5, m_neg):
            t_a = np.sort(neg_a[neg_idx])[::-1][r - 1]
            t_b = np.sort(neg_b[neg_idx])[::-1][r - 1]
            only_a = np.mean((pos_a >= t_a) & (pos_b < t_b))
            only_b = np.mean((pos_a < t_a) & (pos_b >= t_b))
            ws.append(w_neg), deltas.append(only_a - only_b), gammas.append(only_a + only_b)
        w, d, g = np.array(ws), np.array(deltas), np.array(gammas)
        mean = np.sum(w * d)
        between = np.sum(w * (d - mean) ** 2)
        disc = np.sum(w * g)
        res = compare_vertical(y, a, b, fpr=[r / m_neg], m=m, confidence_level=0.8)
        assert res.method == "score"
        assert res.delta_tpr_mean[0] == pytest.approx(mean, abs=1e-12)
        assert res.delta_tpr_std[0] ** 2 == pytest.approx(
            between * (1 - 1 / m_pos) + (disc - mean**2) / m_pos, abs=1e-12)
        gamma = (4 * disc + 2) / (4 + 4)
        for bound in (res.delta_tpr_low[0], res.delta_tpr_high[0]):
            if -1 < bound < 1:  # clipped bounds need not solve the equation
                assert (mean - bound) ** 2 == pytest.approx(
                    z**2 * (between * (1 - 1 / m_pos) + (gamma - bound**2) / m_pos), abs=1e-12)
        assert res.delta_tpr_low[0] < res.delta_tpr_high[0]


@pytest.mark.montecarlo
def test_monte_carlo_correlated_binormal():
    """ρ = 0.6 binormal scores, 30 + 30 instances: 2·10⁵ seeded resamples agree
    with the exact mean, variance, P(Δ > 0), P(Δ = 0) and law within 4.5 SE."""
    rng = np.random.default_rng(7)
    n_pos = n_neg = 30
    cov = [[1.0, 0.6], [0.6, 1.0]]
    pos = rng.multivariate_normal([1.0, 1.5], cov, n_pos).round(1)  # ties
    neg = rng.multivariate_normal([0.0, 0.0], cov, n_neg).round(1)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    a, b = np.r_[pos[:, 0], neg[:, 0]], np.r_[pos[:, 1], neg[:, 1]]
    fprs = [0.1, 0.5]
    res = compare_vertical(y, a, b, fpr=fprs)
    B = 200_000
    for i, r in enumerate(res.r):
        d = np.empty(B)
        for start in range(0, B, 50_000):
            size = min(50_000, B - start)
            ni = rng.integers(0, n_neg, (size, n_neg))
            t_a = -np.partition(-neg[ni, 0], r - 1, axis=1)[:, r - 1]
            t_b = -np.partition(-neg[ni, 1], r - 1, axis=1)[:, r - 1]
            pi = rng.integers(0, n_pos, (size, n_pos))
            pa, pb = pos[pi, 0], pos[pi, 1]
            ta, tb = t_a[:, None], t_b[:, None]
            d[start:start + size] = ((pa >= ta) & (pb < tb)).sum(1) - ((pa < ta) & (pb >= tb)).sum(1)
        delta = d / n_pos
        se_mean = delta.std() / np.sqrt(B)
        assert abs(delta.mean() - res.delta_tpr_mean[i]) < 4.5 * se_mean
        fourth = np.mean((delta - delta.mean()) ** 4)
        se_var = np.sqrt((fourth - delta.var() ** 2) / B)
        assert abs(delta.var() - res.delta_tpr_std[i] ** 2) < 4.5 * se_var
        for got, exact in ((np.mean(delta > 0), res.p_a_better[i]), (np.mean(delta == 0), res.p_tie[i])):
            assert abs(got - exact) < 4.5 * np.sqrt(exact * (1 - exact) / B) + 1e-12
        values, probs = res.distribution(i)
        counts = np.bincount((d + n_pos).astype(int), minlength=2 * n_pos + 1) / B
        # Bonferroni over the support: 5.3 SE keeps a chance failure below 1e-5.
        assert np.all(np.abs(counts - probs) <= 5.3 * np.sqrt(probs * (1 - probs) / B) + 1e-12)


# ---------------------------------------------------------------------------
# The fast route (quadrature over the order statistic, Fourier mixture)
# against the direct multinomial formula and against plain enumeration.
# ---------------------------------------------------------------------------
from scipy import stats  # noqa: E402

from rocci.compare import vertical as vp  # noqa: E402
from rocci._core import paired_order as po  # noqa: E402
from rocci.compare import _mixtures as mix  # noqa: E402


def _paired(n_pos, n_neg, seed, rho=0.6, digits=None):
    rng = np.random.default_rng(seed)
    z = rng.multivariate_normal([0.0, 0.0], [[1.0, rho], [rho, 1.0]], n_pos + n_neg)
    z[:n_pos] += [1.0, 0.7]
    if digits is not None:
        z = z.round(digits)  # ties within and across classes
    return z[:n_pos, 0], z[:n_pos, 1], z[n_pos:, 0], z[n_pos:, 1]


@pytest.mark.parametrize(
    "n_pos, n_neg, m, digits, seed",
    [(5, 6, None, 1, 0), (8, 9, (6, 11), 1, 1), (20, 25, None, None, 2), (30, 40, (25, 33), 1, 3),
     pytest.param(40, 60, None, None, 4, marks=pytest.mark.slow)],
)
def test_quadrature_route_equals_direct_formula(n_pos, n_neg, m, digits, seed):
    """Joint law of the ranks, the law of ΔTPR*, its mean and sd: fast route = direct formula to 1e-12."""
    pa, pb, na, nb = _paired(n_pos, n_neg, seed, digits=digits)
    m_pos, m_neg = (n_pos, n_neg) if m is None else m
    ctx = _PairedData(pa, pb, na, nb, m_pos, m_neg)
    for r in sorted({1, 2, max(1, m_neg // 10), m_neg // 2, m_neg - 1, m_neg}):
        direct, fast = ctx.level(r, route="direct"), ctx.level(r)
        np.testing.assert_allclose(fast["joint"][2], direct["joint"][2], rtol=0, atol=1e-12, err_msg=f"r={r}")
        np.testing.assert_allclose(fast["pmf"], direct["pmf"], rtol=0, atol=1e-12, err_msg=f"r={r}")
        assert fast["mean"] == pytest.approx(direct["mean"], abs=1e-12)
        assert fast["std"] == pytest.approx(direct["std"], abs=1e-12)
        assert fast["trunc"] <= 1e-13


def test_sum_tail_against_scipy():
    """P(X + Y >= s) for independent binomials, including empty and certain cells."""
    rng = np.random.default_rng(5)
    for n1, n2 in [(0, 7), (9, 0), (1, 1), (30, 50), (400, 250)]:
        q_lo = np.r_[0.0, 1.0, rng.uniform(0, 1, 60), 1e-9, 1 - 1e-9]
        q_hi = np.r_[1.0, 0.0, rng.uniform(0, 1, 60), 0.5, 0.5]
        s = rng.integers(-1, n1 + n2 + 2, q_lo.size).astype(float)
        got = po._sum_tail(q_lo, q_hi, s, n1, n2)
        x = np.arange(n1 + 1)
        want = np.array([
            np.sum(stats.binom.pmf(x, n1, a) * stats.binom.sf(si - x - 1, n2, b)) for a, b, si in zip(q_lo, q_hi, s)
        ])
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)


def test_chernoff_windows_are_bounds():
    """The windows ``[floor(n·p − lo), ceil(n·p + up)]`` built from :func:`_kl_bound`
    leave at most 1e-16 on each side (what _sum_tail relies on)."""
    rng = np.random.default_rng(6)
    n = rng.integers(0, 3000, 400).astype(float)
    p = np.r_[rng.uniform(0, 1, 300), rng.uniform(0, 1e-3, 50), 1 - rng.uniform(0, 1e-3, 50)]
    up = po._kl_bound(n, p, upper=True)
    lo = po._kl_bound(n, p, upper=False)
    assert np.all(stats.binom.sf(np.ceil(n * p + up), n, p) <= 1.01e-16)
    assert np.all(stats.binom.cdf(np.floor(n * p - lo) - 1, n, p) <= 1.01e-16)
    # and they are not wasteful: within 15% of the exact quantile distance (+2) for large n·p(1 − p)
    big = n * p * (1 - p) > 100
    exact = stats.binom.isf(1e-16, n[big], p[big]) - n[big] * p[big]
    assert np.all(up[big] <= 1.15 * exact + 2)


def test_fourier_mixture_equals_exact_components():
    """The mixture of difference laws by one FFT equals the sum of exact components."""
    rng = np.random.default_rng(8)
    for n, m, size in [(7, 7, 5), (40, 55, 300), (300, 300, 600)]:
        n_a = rng.integers(0, n + 1, size)
        n_b = np.minimum(rng.integers(0, n + 1, size), n - n_a)
        n_a[:2], n_b[:2] = (n, 0), (0, n)  # every draw in one cell
        w = rng.dirichlet(np.ones(size))
        d, pmf = mix._difference_mixture_pmf(w, n_a.astype(float), n_b.astype(float), n, m)
        want = mix._mixture_difference_pmf(w, n_a / n, n_b / n, m)
        full = np.zeros(2 * m + 1)
        full[d + m] = pmf
        np.testing.assert_allclose(full, want, rtol=0, atol=1e-13)


@pytest.mark.montecarlo
def test_monte_carlo_correlated_binormal_n200():
    """ρ = 0.6, 100 + 100 instances with ties: 10⁵ seeded resamples agree with the exact
    mean, variance and P(ΔTPR* > 0) within 4.5 SE, and with the law (Bonferroni 5.3 SE)."""
    rng = np.random.default_rng(11)
    n_pos = n_neg = 100
    pa, pb, na, nb = _paired(n_pos, n_neg, 12, digits=1)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    a, b = np.r_[pa, na], np.r_[pb, nb]
    res = compare_vertical(y, a, b, fpr=[0.2])
    r = int(res.r[0])
    B = 100_000
    d = np.empty(B)
    for start in range(0, B, 10_000):
        ni = rng.integers(0, n_neg, (10_000, n_neg))
        t_a = -np.partition(-na[ni], r - 1, axis=1)[:, r - 1][:, None]
        t_b = -np.partition(-nb[ni], r - 1, axis=1)[:, r - 1][:, None]
        pi = rng.integers(0, n_pos, (10_000, n_pos))
        xa, xb = pa[pi], pb[pi]
        d[start:start + 10_000] = ((xa >= t_a) & (xb < t_b)).sum(1) - ((xa < t_a) & (xb >= t_b)).sum(1)
    delta = d / n_pos
    assert abs(delta.mean() - res.delta_tpr_mean[0]) < 4.5 * delta.std() / np.sqrt(B)
    fourth = np.mean((delta - delta.mean()) ** 4)
    assert abs(delta.var() - res.delta_tpr_std[0] ** 2) < 4.5 * np.sqrt((fourth - delta.var() ** 2) / B)
    p = res.p_a_better[0]
    assert abs(np.mean(delta > 0) - p) < 4.5 * np.sqrt(p * (1 - p) / B)
    values, probs = res.distribution(0)
    counts = np.bincount((d + n_pos).astype(int), minlength=2 * n_pos + 1) / B
    assert np.all(np.abs(counts - probs) <= 5.3 * np.sqrt(probs * (1 - probs) / B) + 1e-12)


def test_thousands_of_negatives_progress_and_mass():
    """n− = 2000 at one level: runs, reports progress, the law sums to 1 and nothing is truncated."""
    pa, pb, na, nb = _paired(500, 2000, 13)
    y = np.r_[np.ones(500, int), np.zeros(2000, int)]
    seen = []
    res = compare_vertical(y, np.r_[pa, na], np.r_[pb, nb], fpr=[0.1], progress=lambda f, msg: seen.append(f))
    values, probs = res.distribution(0)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    assert res.truncated_mass[0] <= 1e-12
    assert seen[0] == 0.0 and seen[-1] == 1.0 and np.all(np.diff(seen) >= 0) and len(seen) > 2
    assert np.sum(values * probs) == pytest.approx(res.delta_tpr_mean[0], abs=1e-12)


def test_bad_input_and_constant_model():
    """Clear messages for unpaired or missing scores; a constant model is a legitimate comparison."""
    from rocci import InputError

    pa, pb, na, nb = _paired(6, 8, 14, digits=1)
    y = np.r_[np.ones(6, int), np.zeros(8, int)]
    a, b = np.r_[pa, na], np.r_[pb, nb]
    with pytest.raises(InputError, match="same instances"):
        compare_vertical(y, a, b[:-1], fpr=[0.5])
    b_nan = b.copy()
    b_nan[2] = np.nan
    with pytest.raises(InputError, match="score_b") as err:
        compare_vertical(y, a, b_nan, fpr=[0.5])
    assert "score_a" not in str(err.value)
    with pytest.raises(InputError, match="fpr"):
        compare_vertical(y, a, b, fpr=[1.5])
    const = np.full(a.size, 0.3)
    res = compare_vertical(y, a, const, fpr=[0.25, 0.5])
    # Model b predicts every instance positive at every level: TPR_b* = 1, so ΔTPR* = TPR_a* − 1.
    tpr_a = compare_vertical(y, a, a, fpr=[0.25, 0.5])  # identical models: ΔTPR* = 0 surely
    assert np.all(tpr_a.p_tie == pytest.approx(1.0, abs=1e-12))
    assert np.all(res.p_a_better == 0.0) and np.all(res.delta_tpr_mean <= 0)


# ---------------------------------------------------------------------------
# The series route (Lancaster expansion of the bivariate binomial, corners of
# blocks of ranks) against the direct formula, the quadrature route, 80-digit
# arithmetic, and the outputs recorded before it replaced the quadrature as default.
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n_pos, n_neg, m_neg, levels, seed, rho",
    [(40, 120, 120, (30, 60, 90), 21, 0.3), (50, 300, 250, (50, 75, 150), 22, 0.6), (60, 300, 300, (150,), 24, 0.9)],
)
def test_series_joint_cdf_equals_direct_formula(n_pos, n_neg, m_neg, levels, seed, rho):
    """F(k, j) = P(N1_k >= r, N2_j >= r) by the series = the multinomial formula, to 1e-13, on sampled pairs."""
    rng = np.random.default_rng(seed)
    _, _, na, nb = _paired(n_pos, n_neg, seed, rho=rho)
    ctx = _PairedData(np.zeros(1), np.zeros(1), na, nb, 1, m_neg)
    k = np.arange(0, n_neg + 1)
    overlap = vp.joint_ge_counts(-ctx.rank_a, -ctx.rank_b, -k.astype(float), -k.astype(float)).astype(float)
    for r in levels:
        win, _, _ = vp.order_statistic_law(r, m_neg, n_neg)
        grid = np.arange(win[0] - 1, win[-1] + 1)
        g = po._joint_cdf_series(grid.astype(float), grid.astype(float), overlap[np.ix_(grid, grid)], n_neg, m_neg, r)
        assert g is not None, r
        p = stats.binom.sf(r - 1, m_neg, grid / n_neg)
        pick = rng.integers(0, grid.size, (2, 80))
        kk, jj = grid[pick[0]], grid[pick[1]]
        want = po._joint_cdf(kk, jj, overlap[kk, jj].astype(np.int64), n_neg, m_neg, r)
        got = g[pick[0], pick[1]] + p[pick[0]] * p[pick[1]]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13, err_msg=f"r={r}")


@pytest.mark.parametrize(
    "n_pos, n_neg, m, digits, seed, rho, r, joint",
    [(30, 50, (25, 64), None, 10, 0.3, 22, True), (30, 50, (25, 64), None, 10, 0.3, 22, False),
     (40, 70, None, 1, 9, 0.5, 47, False)],
)
def test_series_route_equals_direct_formula(n_pos, n_neg, m, digits, seed, rho, r, joint):
    """Law of ΔTPR*, mean, sd and joint law of the ranks: series route (cells or blocks) = direct formula."""
    pa, pb, na, nb = _paired(n_pos, n_neg, seed, rho=rho, digits=digits)
    m_pos, m_neg = (n_pos, n_neg) if m is None else m
    ctx = _PairedData(pa, pb, na, nb, m_pos, m_neg)
    series, direct = ctx.level(r, route="series", joint=joint), ctx.level(r, route="direct")
    np.testing.assert_allclose(series["pmf"], direct["pmf"], rtol=0, atol=1e-12)
    assert series["mean"] == pytest.approx(direct["mean"], abs=1e-12)
    assert series["std"] == pytest.approx(direct["std"], abs=1e-12)
    assert series["trunc"] <= 1e-13
    if joint:
        np.testing.assert_allclose(series["joint"][2], direct["joint"][2], rtol=0, atol=1e-12)
    else:
        assert series["joint"] is None


@pytest.mark.parametrize("n_pos, n_neg, digits, seed, rho", [(300, 1000, None, 31, 0.6), (400, 1200, 2, 32, 0.8)])
def test_series_route_equals_quadrature_route(n_pos, n_neg, digits, seed, rho):
    """Thousand negatives, continuous and tied scores: the two fast routes agree to 1e-12 (the
    series summed over blocks of ranks, the quadrature cell by cell)."""
    pa, pb, na, nb = _paired(n_pos, n_neg, seed, rho=rho, digits=digits)
    ctx = _PairedData(pa, pb, na, nb, n_pos, n_neg)
    for r in (n_neg // 10, n_neg // 2):
        series, quad = ctx.level(r, route="series", joint=False), ctx.level(r, route="quadrature")
        np.testing.assert_allclose(series["pmf"], quad["pmf"], rtol=0, atol=1e-12, err_msg=f"r={r}")
        assert series["mean"] == pytest.approx(quad["mean"], abs=1e-12)
        assert series["std"] == pytest.approx(quad["std"], abs=1e-12)
        assert abs(series["trunc"] - quad["trunc"]) <= 1e-13
    cells = ctx.level(n_neg // 10, route="series", joint=True)["joint"][2]
    np.testing.assert_allclose(cells, ctx.level(n_neg // 10, route="quadrature")["joint"][2], rtol=0, atol=1e-13)


def test_krawtchouk_coefficients_against_80_digits():
    """The series coefficients a_ℓ(x) (three-term recurrence, cut at the stable degree) equal the
    same recurrence run in 80-digit arithmetic to 1e-15, and obey Bessel's inequality."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 80

    def exact(x, m, r, terms):
        x = mpmath.mpf(x)
        s, big_n, big_x = mpmath.sqrt(x * (1 - x)), m - 1, r - 1
        base = s * mpmath.sqrt(m) * mpmath.binomial(big_n, big_x) * x**big_x * (1 - x) ** (big_n - big_x)
        k_prev, k_cur, out = mpmath.mpf(0), mpmath.mpf(1), [base]
        for deg in range(terms - 1):
            nxt = ((x * (big_n - deg) + deg * (1 - x) - big_x) * k_cur
                   - mpmath.sqrt(deg * (big_n - deg + 1) * x * (1 - x)) * k_prev) / mpmath.sqrt(
                (deg + 1) * (big_n - deg) * x * (1 - x))
            k_prev, k_cur = k_cur, nxt
            out.append((-1) ** (deg + 1) * mpmath.sqrt(mpmath.mpf(1) / (deg + 2)) * base * k_cur)
        return np.array([float(v) for v in out])

    for m, r in [(5000, 50), (5000, 500), (8400, 4200), (300, 12)]:
        sd = np.sqrt(r / m * (1 - r / m) / m)
        x = np.clip(r / m + np.array([-6.0, -2.0, 0.0, 2.0, 6.0]) * sd, 1e-4, 1 - 1e-4)
        p, q, stable = po._series_cut(x, m, r)
        terms = np.minimum(stable, 600)
        coef = po._rank_tail_coefficients(x, m, r, terms)
        assert np.all((coef**2).sum(axis=1) <= p * q * (1 + 1e-12) + 1e-300)
        for i in range(x.size):
            want = exact(x[i], m, r, int(terms[i]))
            np.testing.assert_allclose(coef[i, : terms[i]], want, rtol=0, atol=1e-15, err_msg=f"m={m} r={r} x={x[i]}")


def test_identical_rankings_give_a_sure_tie_exactly():
    """Identical rankings (ρ = 1 on the diagonal; every pair of top sets nested): the series route
    gives ΔTPR* = 0 surely, with sd exactly 0 (the quadrature route leaves ~1e-7 of round-off there),
    and agrees with the quadrature route on the law."""
    pa, _, na, _ = _paired(30, 60, 41, digits=1)
    ctx = _PairedData(pa, pa * 2.0, na, na * 2.0, 30, 60)
    for r in (3, 20, 45):
        series, quad = ctx.level(r, route="series", joint=False), ctx.level(r, route="quadrature")
        assert series["pmf"][30] == pytest.approx(1.0, abs=1e-13)  # ΔTPR* = 0 surely
        assert series["std"] == 0.0 and series["mean"] == 0.0
        np.testing.assert_allclose(series["pmf"], quad["pmf"], rtol=0, atol=1e-12)


@pytest.mark.parametrize("n, m, r, seed",
                         [(60, 60, 20, 61), (200, 180, 50, 62), (500, 500, 20, 63), (400, 400, 300, 64)])
def test_disagreement_sum_equals_direct_formula(n, m, r, seed):
    """F(k, j) summed over the draws in the difference of two nearly equal top sets = the multinomial
    formula, to 1e-14 (boost's incomplete beta itself is good to ~1e-14 relative there)."""
    rng = np.random.default_rng(seed)
    k = rng.integers(max(1, r // 2), min(n - 12, 2 * r + 20), 80).astype(float)
    c = np.maximum(k - rng.integers(0, 6, k.size), 0)
    j = np.minimum(c + rng.integers(0, 6, k.size), n)
    keep = n - (k + j - 2 * c) - c > 0
    k, j, c = k[keep], j[keep], c[keep]
    width = int(po._disagreement_window(k, j, c, n, m).max())
    got = po._joint_cdf_disagreement(k, j, c, n, m, r, width)
    want = po._joint_cdf(k.astype(np.int64), j.astype(np.int64), c.astype(np.int64), n, m, r)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-14)


@pytest.mark.parametrize("noise, digits", [(0.002, None), (0.05, None), (0.05, 2)])
def test_near_identical_models_series_equals_quadrature(noise, digits):
    """Model b = model a plus a little noise (ρ of the top-set counts near 1 next to the diagonal: the
    series and the disagreement sums share the pairs): same law as the quadrature route, to 1e-12."""
    rng = np.random.default_rng(65)
    pa, _, na, _ = _paired(300, 900, 66, digits=digits)
    pb, nb = pa + noise * rng.standard_normal(pa.size), na + noise * rng.standard_normal(na.size)
    if digits is not None:
        pb, nb = pb.round(digits), nb.round(digits)
    ctx = _PairedData(pa, pb, na, nb, 300, 900)
    for r in (9, 90, 450):
        series, quad = ctx.level(r, route="series", joint=False), ctx.level(r, route="quadrature")
        np.testing.assert_allclose(series["pmf"], quad["pmf"], rtol=0, atol=1e-12, err_msg=f"r={r}")
        assert series["mean"] == pytest.approx(quad["mean"], abs=1e-12)
        # The variance is ~1e-8 here: compare it, not the sd (√ doubles small relative errors' weight).
        assert series["std"] ** 2 == pytest.approx(quad["std"] ** 2, abs=1e-14)


def test_joint_law_is_computed_on_demand_and_consistent():
    """compare_vertical keeps only the blocks it needs; joint_threshold_law(i) computes the cells when
    asked, and they sum to 1 − truncated_mass and to the mean of the returned law."""
    pa, pb, na, nb = _paired(200, 600, 42, digits=2)
    y = np.r_[np.ones(200, int), np.zeros(600, int)]
    res = compare_vertical(y, np.r_[pa, na], np.r_[pb, nb], fpr=[0.1, 0.5])
    ctx = _PairedData(pa, pb, na, nb, 200, 600)
    for i, r in enumerate(res.r):
        k, j, f = res.joint_threshold_law(i)
        assert res.joint_threshold_law(i)[2] is f  # kept after the first call
        ref = ctx.level(int(r), joint=True)["joint"]
        np.testing.assert_array_equal(k, ref[0])
        np.testing.assert_allclose(f, ref[2], rtol=0, atol=1e-15)
        assert f.sum() == pytest.approx(1.0 - res.truncated_mass[i], abs=1e-13)


def test_fourier_mixture_with_cut_frequencies():
    """m in the thousands, weights over 30 orders of magnitude, laws on one parity (p_a + p_b = 1)
    and point masses: the mixture with per-component frequency cuts = the exact components, to 1e-13."""
    rng = np.random.default_rng(43)
    n, m, size = 400, 2500, 60
    n_a = rng.integers(0, n + 1, size)
    n_b = np.minimum(rng.integers(0, n + 1, size), n - n_a)
    n_a[:4], n_b[:4] = (n, 0, 250, 0), (0, n, n - 250, 0)  # all in one cell; one parity; all ties
    w = 10.0 ** rng.uniform(-30, 0, size)
    w /= w.sum()
    d, pmf = mix._difference_mixture_pmf(w, n_a.astype(float), n_b.astype(float), n, m)
    want = mix._mixture_difference_pmf(w, n_a / n, n_b / n, m)
    full = np.zeros(2 * m + 1)
    full[d + m] = pmf
    np.testing.assert_allclose(full, want, rtol=0, atol=1e-13)


@pytest.mark.parametrize("n_pos, n_neg, digits, rho", [(5000, 5000, None, 0.6), (1600, 8400, 2, 0.9)])
def test_ten_thousand_instances_fast_and_consistent(n_pos, n_neg, digits, rho):
    """n = 10⁴ at FPR 0.01, 0.1 and 0.5 runs on the series route (no fallback) with the law summing to
    1, nothing truncated and the mean of the law equal to the exact mean."""
    pa, pb, na, nb = _paired(n_pos, n_neg, 44, rho=rho, digits=digits)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    ctx = _PairedData(pa, pb, na, nb, n_pos, n_neg)
    for fpr in (0.01, 0.1, 0.5):
        lv = ctx.level(int(round(fpr * n_neg)), route="series", joint=False)
        assert lv["pmf"].sum() == pytest.approx(1.0, abs=1e-12)
        assert lv["trunc"] <= 1e-12
        assert np.sum(lv["d"] * lv["pmf"]) / n_pos == pytest.approx(lv["mean"], abs=1e-12)
    res = compare_vertical(y, np.r_[pa, na], np.r_[pb, nb], fpr=[0.1])
    assert res.delta_tpr_low[0] <= res.delta_tpr_mean[0] <= res.delta_tpr_high[0]


# ---------------------------------------------------------------------------
# method="score": a score interval on the exact paired moments.
# ---------------------------------------------------------------------------


@pytest.mark.slow
def test_score_interval_solves_its_equation_on_the_exact_moments():
    """The bounds solve (δ̄ − δ)² = z²[V_b(1 − 1/m+) + (γ̃ − δ²)/m+], with δ̄, V_b = Var(p_a − p_b) and
    E[p_a + p_b] over the joint law of the thresholds' ranks, computed here from that law directly;
    Var ΔTPR* = V_b(1 − 1/m+) + (E[p_a + p_b] − δ̄²)/m+."""
    from scipy.special import ndtri

    pa, pb, na, nb = _paired(60, 90, 51, rho=0.5, digits=1)
    y = np.r_[np.ones(60, int), np.zeros(90, int)]
    a, b = np.r_[pa, na], np.r_[pb, nb]
    res = compare_vertical(y, a, b, fpr=[0.1, 0.4, 0.8], method="score", confidence_level=0.9)
    assert res.method == "score"
    pct = compare_vertical(y, a, b, fpr=[0.1, 0.4, 0.8], confidence_level=0.9, method="percentile")
    np.testing.assert_array_equal(res.delta_tpr_mean, pct.delta_tpr_mean)
    ctx = _PairedData(pa, pb, na, nb, 60, 90)
    z = ndtri(0.95)
    for i, r in enumerate(res.r):
        k, _, f = ctx.level(int(r), route="direct")["joint"]
        t_a, t_b = np.sort(na)[::-1][k - 1], np.sort(nb)[::-1][k - 1]
        ge_a = (pa[None, :] >= t_a[:, None]).sum(1)
        ge_b = (pb[None, :] >= t_b[:, None]).sum(1)
        both = ((pa[None, :] >= t_a[:, None])[:, None, :] & (pb[None, :] >= t_b[:, None])[None, :, :]).sum(2)
        p_a, p_b = (ge_a[:, None] - both) / 60, (ge_b[None, :] - both) / 60
        w = f / f.sum()
        mean = np.sum(w * (p_a - p_b))
        between = np.sum(w * (p_a - p_b - mean) ** 2)
        disc = np.sum(w * (p_a + p_b))
        assert res.delta_tpr_mean[i] == pytest.approx(mean, abs=1e-12)
        assert res.delta_tpr_std[i] ** 2 == pytest.approx(between * (1 - 1 / 60) + (disc - mean**2) / 60, abs=1e-12)
        gamma = (60 * disc + 2) / 64
        for bound in (res.delta_tpr_low[i], res.delta_tpr_high[i]):
            assert -1 < bound < 1
            assert (mean - bound) ** 2 == pytest.approx(
                z**2 * (between * (1 - 1 / 60) + (gamma - bound**2) / 60), abs=1e-12)
        assert res.delta_tpr_low[i] < mean < res.delta_tpr_high[i]


def test_score_interval_keeps_its_width_where_the_percentile_interval_collapses():
    """Both models rank every positive above every negative: ΔTPR* = 0 surely, the percentile interval is
    [0, 0]; the score interval is the fixed-threshold paired score interval (eq. 4.8–4.9) of empty
    discordant cells, of positive width."""
    from rocci.compare import paired_score_interval

    rng = np.random.default_rng(52)
    y = np.r_[np.ones(40, int), np.zeros(50, int)]
    a = np.r_[rng.uniform(2, 3, 40), rng.uniform(0, 1, 50)]
    b = np.r_[rng.uniform(5, 6, 40), rng.uniform(0, 1, 50)]
    pct = compare_vertical(y, a, b, fpr=[0.2, 0.9], method="percentile")
    score = compare_vertical(y, a, b, fpr=[0.2, 0.9], method="score")
    assert np.all(pct.delta_tpr_low == 0) and np.all(pct.delta_tpr_high == 0)
    low, high = paired_score_interval(0, 0, 40, 40, 0.05)
    np.testing.assert_allclose(score.delta_tpr_low, low, rtol=0, atol=1e-15)
    np.testing.assert_allclose(score.delta_tpr_high, high, rtol=0, atol=1e-15)
    assert np.all(score.delta_tpr_high - score.delta_tpr_low > 0.05)
    with pytest.raises(Exception, match="method"):
        compare_vertical(y, a, b, fpr=[0.2], method="wald")


# Outputs of compare_vertical recorded with the quadrature route (the default before the series route),
# at FPR 0.01, 0.1, 0.5: (mean, sd, low, high, P(ΔTPR* > 0), P(ΔTPR* = 0)).
RECORDED = {
    (500, 1500, None, 0.6, 41): [
        (0.06498643827217193, 0.03446043072165258, 0.008, 0.134, 0.9878581194281496, 0.0026272301767732505),
        (0.09054531701604238, 0.029252451293864636, 0.032, 0.146, 0.9986138097661666, 0.0002722346572786338),
        (0.08463970968820958, 0.023494450848182653, 0.04, 0.132, 0.9998515222277232, 4.267957049408327e-05)],
    (1000, 1000, 1, 0.6, 42): [
        (0.05370537716935537, 0.03249697065508255, 0.003, 0.13, 0.9810743834033172, 0.0021946596783887886),
        (0.11672098870332448, 0.032596993507980496, 0.053, 0.182, 0.9998045233870123, 2.2516607928592536e-05),
        (0.06824811742026125, 0.018793621970446872, 0.03, 0.106, 0.9999265402885583, 1.6869028279461896e-05)],
    (300, 1700, 2, 0.9, 43): [
        (0.04982923393883307, 0.025176913685654955, 0.0, 0.09333333333333334, 0.9663092067870288, 0.010537075547387352),
        (0.11318772360817567, 0.024020776399692093, 0.06666666666666667, 0.16, 0.9999969014724026,
         1.44039795556493e-06),
        (0.07600123006796448, 0.020933278331361296, 0.03666666666666667, 0.11666666666666667, 0.9999096395780693,
         4.640198308417453e-05)],
}


@pytest.mark.parametrize("key", list(RECORDED), ids=[f"{k[0]}-{k[1]}-d{k[2]}-rho{k[3]}" for k in RECORDED])
def test_same_results_as_the_recorded_quadrature_route(key):
    """Two thousand instances, continuous and tied scores: the same interval bounds and, to 1e-12,
    the same moments and probabilities as recorded before the series route became the default."""
    n_pos, n_neg, digits, rho, seed = key
    pa, pb, na, nb = _paired(n_pos, n_neg, seed, rho=rho, digits=digits)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    res = compare_vertical(y, np.r_[pa, na], np.r_[pb, nb], fpr=[0.01, 0.1, 0.5], method="percentile")
    got = np.c_[res.delta_tpr_mean, res.delta_tpr_std, res.delta_tpr_low, res.delta_tpr_high, res.p_a_better,
                res.p_tie]
    want = np.array(RECORDED[key])
    np.testing.assert_array_equal(got[:, 2:4], want[:, 2:4])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert np.all(res.truncated_mass <= 1e-13)


def _near_pairs(n, k_lo, k_hi, apart_lo, apart_hi, count, seed):
    """Pairs of top sets (k, j, overlap c) of n negatives with k + j − 2c in [apart_lo, apart_hi]."""
    rng = np.random.default_rng(seed)
    k = rng.integers(k_lo, k_hi, count).astype(float)
    apart = rng.integers(apart_lo, apart_hi + 1, count).astype(float)
    a_only = np.floor(apart * rng.uniform(0.2, 0.8, count))
    c = k - a_only
    j = c + apart - a_only
    keep = (j <= n) & (n - apart - c > 0) & (c >= 0)
    return k[keep], j[keep], c[keep]


@pytest.mark.slow
def test_disagreement_sum_up_to_its_widest_window_equals_direct_formula():
    """Windows of 160-400 draws in the two sets' difference (beyond the limit of 0.2.0, when such pairs
    fell to the quadrature): the sum over them still equals the multinomial formula to 1e-14."""
    n = m = 2000
    r = 900
    k, j, c = _near_pairs(n, 800, 1100, 80, 220, 24, 71)
    width = po._disagreement_window(k, j, c, n, m)
    assert width.min() > 160 and width.max() <= po._DISAGREE_MAX
    got = po._joint_cdf_disagreement(k, j, c, n, m, r, int(width.max()))
    want = po._joint_cdf(k.astype(np.int64), j.astype(np.int64), c.astype(np.int64), n, m, r)
    assert np.ptp(want) > 0.5  # pairs from F ≈ 0 to F ≈ 1
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-14)


@pytest.mark.slow
def test_series_with_up_to_ten_thousand_terms_equals_disagreement_sum(monkeypatch):
    """Top sets 25-45 draws apart at ρ ≈ 0.993-0.995 among 10,000 negatives (5,000-9,000 terms, beyond the
    limit of 0.2.0; the sum over the sets' difference turned off so that the series takes every pair):
    the series equals the sum over the difference (itself checked against the multinomial formula
    above) to 1e-13."""
    n = m = 10000
    r = 5000
    k, j, c = _near_pairs(n, 4900, 5100, 25, 45, 12, 72)
    alpha, beta = k / n, j / n
    rho = (c / n - alpha * beta) / np.sqrt(alpha * (1 - alpha) * beta * (1 - beta))
    need = np.log(1e-20) / np.log(rho)
    assert need.min() > 4000 and need.max() < po._SERIES_MAX_TERMS
    want = po._joint_cdf_disagreement(k, j, c, n, m, r, int(po._disagreement_window(k, j, c, n, m).max()))
    assert np.ptp(want) > 0.5
    monkeypatch.setattr(po, "_DISAGREE_MAX", -1)
    p_k, p_j = stats.binom.sf(r - 1, m, alpha), stats.binom.sf(r - 1, m, beta)
    got = np.array([po._joint_cdf_series(k[i:i + 1], j[i:i + 1], c[i:i + 1, None], n, m, r)[0, 0]
                    for i in range(k.size)]) + p_k * p_j
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)


@pytest.mark.slow
def test_quadrature_nodes_follow_the_conditional_spread_of_near_copies():
    """Model b = model a + N(0, 0.003²) on 5,000 instances: next to the diagonal the tail
    P(N2_j >= r | u) moves across a cell by a sizeable share of its few-draw spread, and the two or three
    nodes that suit the order statistic's density left 2e-10 (0.2.0); the nodes now follow that spread
    (_conditional_nodes): the quadrature route equals the series route to 1e-13."""
    rng = np.random.default_rng(1)
    y = rng.random(5000) < 0.1
    a = rng.normal(size=y.size) + 1.2 * y
    b = a + 0.003 * rng.normal(size=y.size)
    ctx = _PairedData(a[y], b[y], a[~y], b[~y], int(y.sum()), int((~y).sum()))
    r = int(round(0.2 * ctx.n_neg))
    series, quad = ctx.level(r, route="series", joint=False), ctx.level(r, route="quadrature")
    np.testing.assert_allclose(quad["pmf"], series["pmf"], rtol=0, atol=1e-13)
    assert quad["std"] ** 2 == pytest.approx(series["std"] ** 2, abs=1e-14)
