"""Paired threshold comparison (rocci.compare): test vectors, large m, empty cells, API.

Vectors of kinds paired_threshold (2.1-2.3), diff_pmf (2.4-2.5) and
paired_ci (2.6-2.9) from ../shared/vectors/vectors.json, each within its own
absolute tolerance; the law of A - B at m = 10^6; the thesis's underflow
example (Algorithm 4.2 returns 0.49 where the truth is 0.9996); every empty
cell; result objects and bad input.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

from rocci import InputError
from rocci.compare import (
    ThresholdComparison,
    compare_thresholds,
    difference_pmf,
    difference_sign_probabilities,
    paired_score_interval,
)
from reference import brute_paired

VECTORS_PATH = Path(__file__).resolve().parents[3] / "shared" / "vectors" / "vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_text())["vectors"]


def of_kind(kind):
    found = [v for v in VECTORS if v["kind"] == kind]
    assert found, f"no vectors of kind {kind}"
    return pytest.mark.parametrize("vec", found, ids=[v["id"] for v in found])


def paired_data(inputs):
    pos1, neg1 = np.asarray(inputs["pos1"]), np.asarray(inputs["neg1"])
    pos2, neg2 = np.asarray(inputs["pos2"]), np.asarray(inputs["neg2"])
    y = np.r_[np.ones(pos1.size, int), np.zeros(neg1.size, int)]
    return y, np.r_[pos1, neg1], np.r_[pos2, neg2]


# ---------------------------------------------------------------------------
# Test vectors
# ---------------------------------------------------------------------------
@of_kind("paired_threshold")
def test_paired_threshold_vectors(vec):
    e, tol, i = vec["expected"], vec["abs_tol"], vec["inputs"]
    y, a, b = paired_data(i)
    res = compare_thresholds(y, a, b, thresholds_a=[i["t1"]], thresholds_b=[i["t2"]])
    assert (res.n_a_pos[0], res.n_b_pos[0], res.n_a_neg[0], res.n_b_neg[0]) == (
        e["na_pos"], e["nb_pos"], e["na_neg"], e["nb_neg"])
    got = {
        "P_dTP_ge0": res.p_tpr_gt[0] + res.p_tpr_eq[0],
        "P_dTP_eq0": res.p_tpr_eq[0],
        "P_dTP_le0": res.p_tpr_lt[0] + res.p_tpr_eq[0],
        "P_dFP_ge0": res.p_fpr_gt[0] + res.p_fpr_eq[0],
        "P_dFP_eq0": res.p_fpr_eq[0],
        "P_dFP_le0": res.p_fpr_lt[0] + res.p_fpr_eq[0],
        "f1": res.p_a_dominates[0],
        "f2": res.p_b_dominates[0],
        "mean_dTP": res.delta_tpr[0],
        "var_dTP": res.delta_tpr_std[0] ** 2,
        "mean_dFP": res.delta_fpr[0],
        "var_dFP": res.delta_fpr_std[0] ** 2,
    }
    for key, value in got.items():
        assert value == pytest.approx(e[key], abs=tol), key
    # The laws behind them, from distribution(): same probabilities, same moments.
    for axis, ge, eq, mean, var in (("tpr", "P_dTP_ge0", "P_dTP_eq0", "mean_dTP", "var_dTP"),
                                    ("fpr", "P_dFP_ge0", "P_dFP_eq0", "mean_dFP", "var_dFP")):
        values, probs = res.distribution(0, axis=axis)
        assert probs[values >= 0].sum() == pytest.approx(e[ge], abs=tol)
        assert probs[values == 0].sum() == pytest.approx(e[eq], abs=tol)
        mu = values @ probs
        assert mu == pytest.approx(e[mean], abs=tol)
        assert ((values - mu) ** 2) @ probs == pytest.approx(e[var], abs=tol)


@of_kind("diff_pmf")
def test_diff_pmf_vectors(vec):
    e, tol, i = vec["expected"], vec["abs_tol"], vec["inputs"]
    d, pmf = difference_pmf(i["m"], i["na"] / i["n"], i["nb"] / i["n"])
    assert d.tolist() == e["d"]
    np.testing.assert_allclose(pmf, e["pmf"], rtol=0, atol=tol)
    # and to full relative precision, even at 1e-53
    np.testing.assert_allclose(pmf, e["pmf"], rtol=1e-12)


@of_kind("paired_ci")
def test_paired_ci_vectors(vec):
    e, tol, i = vec["expected"], vec["abs_tol"], vec["inputs"]
    alpha = 1 - np.sqrt(1 - i["alpha"]) if i["rect2d"] else i["alpha"]
    assert special.ndtri(1 - alpha / 2) == pytest.approx(e["z"], abs=tol)
    low, high = paired_score_interval(i["na"], i["nb"], i["n"], i["m"], alpha, gamma=i["gamma"])
    assert low == pytest.approx(e["lo"], abs=tol)
    assert high == pytest.approx(e["hi"], abs=tol)


@of_kind("paired_ci")
def test_paired_ci_vectors_through_compare_thresholds(vec):
    """The same intervals from data whose cells hold na and nb (the rest agree)."""
    e, tol, i = vec["expected"], vec["abs_tol"], vec["inputs"]
    n, na, nb = i["n"], i["na"], i["nb"]
    # positives: na in cell a (a says +, b says -), nb in cell b, the rest both positive
    pos_a = np.r_[np.ones(na), np.zeros(nb), np.ones(n - na - nb)]
    pos_b = np.r_[np.zeros(na), np.ones(nb), np.ones(n - na - nb)]
    neg = np.zeros(7)
    y = np.r_[np.ones(n, int), np.zeros(neg.size, int)]
    res = compare_thresholds(
        y, np.r_[pos_a, neg], np.r_[pos_b, neg], thresholds_a=[0.5], m=(i["m"], 7),
        confidence_level=1 - i["alpha"], region="rectangle" if i["rect2d"] else "marginal", gamma=i["gamma"],
    )
    assert res.delta_tpr_low[0] == pytest.approx(e["lo"], abs=tol)
    assert res.delta_tpr_high[0] == pytest.approx(e["hi"], abs=tol)
    # no disagreement among the negatives: a point with the plug-in γ = 0, an
    # interval around 0 with the smoothed γ = 2/(n + 4)
    assert res.delta_fpr[0] == 0
    if i["gamma"] == "plugin":
        assert res.delta_fpr_low[0] == res.delta_fpr_high[0] == 0
    else:
        assert res.delta_fpr_low[0] < 0 < res.delta_fpr_high[0]


def test_score_interval_solves_eq_4_8():
    """Both bounds are roots of (δ̃ − δ)² = z²(γ − δ²)/m (plug-in and smoothed γ)."""
    for na, nb, n, m in [(3, 5, 20, 20), (0, 4, 40, 40), (7, 1, 30, 50), (12, 12, 25, 25)]:
        for gamma in ("plugin", "smoothed"):
            alpha = 0.1
            z = special.ndtri(1 - alpha / 2)
            g = (na + nb) / n if gamma == "plugin" else (na + nb + 2) / (n + 4)
            dt = (na - nb) / n
            for bound in paired_score_interval(na, nb, n, m, alpha, gamma=gamma):
                assert (dt - bound) ** 2 == pytest.approx(z * z * (g - bound**2) / m, abs=1e-14)


def test_variance_sign_error_of_eq_4_7():
    """The exact variance is (γ − δ²)/m; the thesis's printed (γ + δ²)/m is not."""
    m, pa, pb = 20, Fraction(3, 20), Fraction(5, 20)
    law = brute_paired.trinomial_difference_law(m, pa, pb)
    mean = sum(Fraction(d, m) * p for d, p in law.items())
    var = sum((Fraction(d, m) - mean) ** 2 * p for d, p in law.items())
    assert mean == pa - pb
    assert var == (pa + pb - (pa - pb) ** 2) / m
    assert var != (pa + pb + (pa - pb) ** 2) / m


# ---------------------------------------------------------------------------
# Large m: no underflow, no loss of accuracy
# ---------------------------------------------------------------------------
def test_thesis_underflow_example_m1000():
    """math.md §2: Algorithm 4.2's recursion returns 0.49 where the truth is 0.9996.

    p_a = .5, p_b = .4, p_c = .1, m = 1000: (1 − v)^m = .2^1000 underflows, the
    conditional CDF c never moves from 1 and the recursion returns
    P(A > m/2) = 0.487.  The exact answer is 0.99961.
    """
    m, n, na, nb = 1000, 10, 5, 4
    naive_ge, naive_eq = brute_paired.thesis_algorithm_4_2(na, nb, n, m)
    assert naive_ge == pytest.approx(0.487, abs=0.005)  # the thesis's "0.49"
    assert naive_eq == 0.0
    gt, eq, lt = difference_sign_probabilities(na, nb, n, m)
    truth = brute_paired.sign_probabilities_logspace(m, 0.5, 0.4)
    assert gt + eq == pytest.approx(0.99961, abs=1e-5)
    assert gt == pytest.approx(truth[0], rel=1e-10)
    assert eq == pytest.approx(truth[1], rel=1e-9)
    assert lt == pytest.approx(truth[2], rel=1e-9)
    # the corrected recursion is fine while nothing underflows
    for m_small in (20, 100):
        ge, eq_ = brute_paired.thesis_algorithm_4_2(na, nb, n, m_small)
        g2, e2, _ = difference_sign_probabilities(na, nb, n, m_small)
        assert ge == pytest.approx(g2 + e2, abs=1e-12)
        assert eq_ == pytest.approx(e2, abs=1e-12)


@pytest.mark.parametrize("p_a,p_b", [(0.3, 0.2), (0.5, 0.4999), (1e-4, 2e-4), (0.6, 0.4)])
def test_pmf_at_m_one_million(p_a, p_b):
    """m = 10^6: the pmf sums to 1 within 1e-12, has the exact mean and variance,
    agrees with its own sign probabilities and with a normal approximation."""
    m = 10**6
    d, pmf = difference_pmf(m, p_a, p_b)
    assert np.all(pmf >= 0)
    assert abs(pmf.sum() - 1.0) < 1e-12
    delta, gamma = p_a - p_b, p_a + p_b
    mean = d @ pmf / m
    var = ((d / m - mean) ** 2) @ pmf
    assert mean == pytest.approx(delta, abs=1e-13)
    assert var == pytest.approx((gamma - delta**2) / m, rel=1e-10)
    # the window is O(sqrt(m)), not O(m)
    assert d.size < 40 * np.sqrt(m * gamma) + 100
    # sign probabilities by the cheaper route (denominator 10^6 holds p exactly)
    gt, eq, lt = difference_sign_probabilities(round(p_a * m), round(p_b * m), m, m)
    assert gt == pytest.approx(pmf[d > 0].sum(), abs=1e-13)
    assert eq == pytest.approx(pmf[d == 0].sum(), abs=1e-13)
    assert lt == pytest.approx(pmf[d < 0].sum(), abs=1e-13)
    # normal approximation (continuity-corrected CDF), Berry–Esseen-sized slack
    sd = np.sqrt(m * (gamma - delta**2))
    cdf = np.cumsum(pmf)
    grid = np.linspace(-3, 3, 13)
    k = np.floor(m * delta + grid * sd).astype(np.int64)
    inside = (k >= d[0]) & (k <= d[-1])
    approx = stats.norm.cdf((k[inside] + 0.5 - m * delta) / sd)
    np.testing.assert_allclose(cdf[k[inside] - d[0]], approx, atol=2e-3)


def test_sign_probabilities_match_logspace_sums_moderate_m():
    """Against all trinomial terms summed in log space, m = 300 and 1500."""
    for m, na, nb, n in [(300, 11, 9, 40), (1500, 7, 6, 50), (1500, 1, 30, 60)]:
        got = difference_sign_probabilities(na, nb, n, m)
        want = brute_paired.sign_probabilities_logspace(m, na / n, nb / n)
        for g, w in zip(got, want):
            # relative accuracy down to the saturation level (1e-20), absolute below it
            assert g == pytest.approx(w, rel=1e-9, abs=1e-20)


def test_saturated_pairs_are_within_the_bound():
    """Pairs that the Chernoff bound decides (< 1e-20) come back as exact 0/1."""
    gt, eq, lt = difference_sign_probabilities([60, 40], [40, 60], 100, 10_000)
    assert gt.tolist() == [1.0, 0.0] and eq.tolist() == [0.0, 0.0] and lt.tolist() == [0.0, 1.0]
    # just below saturation it is still summed, and tiny but exact
    m, na, nb, n = 200, 30, 20, 100
    got = difference_sign_probabilities(na, nb, n, m)
    want = brute_paired.sign_probabilities_logspace(m, na / n, nb / n)
    assert got[2] == pytest.approx(want[2], rel=1e-9)


# ---------------------------------------------------------------------------
# Empty cells: p_c = 0, p_a = 0, p_b = 0, all in one cell
# ---------------------------------------------------------------------------
EMPTY = {
    "p_c=0": (3, 5, 8),
    "p_a=0": (0, 3, 8),
    "p_b=0": (4, 0, 8),
    "all in a": (8, 0, 8),
    "all in b": (0, 8, 8),
    "all in c": (0, 0, 8),
    "p_c=0,p_a=p_b": (4, 4, 8),
}


@pytest.mark.parametrize("name", EMPTY)
@pytest.mark.parametrize("m", [1, 6, 9])
def test_empty_cells_exact(name, m):
    na, nb, n = EMPTY[name]
    law = brute_paired.trinomial_difference_law(m, Fraction(na, n), Fraction(nb, n))
    d, pmf = difference_pmf(m, na / n, nb / n)
    assert np.all(np.isfinite(pmf))
    got = dict(zip(d.tolist(), pmf.tolist()))
    for value in set(got) | set(law):
        # boost's binomial pmf is good to a few 1e-15 relative (b(0; 6, .5) = 0.01562500000000012)
        assert got.get(value, 0.0) == pytest.approx(float(law.get(value, 0)), abs=1e-14)
    gt, eq, lt = difference_sign_probabilities(na, nb, n, m)
    assert gt == pytest.approx(float(sum(p for k, p in law.items() if k > 0)), abs=1e-14)
    assert eq == pytest.approx(float(law.get(0, 0)), abs=1e-14)
    assert lt == pytest.approx(float(sum(p for k, p in law.items() if k < 0)), abs=1e-14)


def test_empty_cells_large_m():
    """p_c = 0 at m = 10^6 (the recursion would divide by zero), p_a = 0, all in one cell."""
    m = 10**6
    d, pmf = difference_pmf(m, 0.5, 0.5)  # D = 2A − m, A ~ Bin(m, 1/2): only even d
    assert abs(pmf.sum() - 1) < 1e-12
    assert np.all(pmf[(d % 2) == 1] == 0)
    gt, eq, lt = difference_sign_probabilities(5, 5, 10, m)
    assert eq == pytest.approx(stats.binom.pmf(m // 2, m, 0.5), rel=1e-12)
    assert gt == pytest.approx(lt, rel=1e-12)
    assert gt + eq + lt == pytest.approx(1.0, abs=1e-14)
    d, pmf = difference_pmf(m, 0.0, 0.3)  # D = −S
    assert d.max() <= 0 and abs(pmf.sum() - 1) < 1e-12
    assert difference_pmf(m, 1.0, 0.0)[0].tolist() == [m]
    assert difference_pmf(m, 0.0, 0.0)[0].tolist() == [0]
    assert [float(x) for x in difference_sign_probabilities(10, 0, 10, m)] == [1.0, 0.0, 0.0]


def test_empty_cells_through_compare_thresholds():
    """+inf thresholds and identical models put every instance in one cell."""
    y = np.r_[np.ones(4, int), np.zeros(5, int)]
    a = np.array([0.9, 0.8, 0.3, 0.2, 0.7, 0.6, 0.4, 0.2, 0.1])
    b = np.array([0.1, 0.2, 0.8, 0.9, 0.3, 0.1, 0.9, 0.8, 0.5])
    res = compare_thresholds(y, a, b, thresholds_a=[np.inf, 0.0, 0.5, 0.5], thresholds_b=[0.0, np.inf, 0.5, 0.5])
    # (inf, 0): everything in cell b -> ΔTPR = ΔFPR = −1 surely; b "dominates" only
    # if not both zero: ΔTPR ≤ 0 and ΔFPR ≥ 0 fails (ΔFPR = −1), so neither.
    assert res.delta_tpr[0] == -1 and res.delta_fpr[0] == -1
    assert res.p_tpr_lt[0] == 1 and res.p_fpr_lt[0] == 1
    assert res.p_a_dominates[0] == 0 and res.p_b_dominates[0] == 0
    assert res.p_tpr_gt[1] == 1 and res.p_fpr_gt[1] == 1
    assert np.isfinite(res.to_frame().drop(columns=["threshold_a", "threshold_b"]).to_numpy(dtype=float)).all()
    same = compare_thresholds(y, a, a, thresholds_a=[0.5, 0.85])
    assert same.p_tpr_eq.tolist() == [1.0, 1.0] and same.p_a_dominates.tolist() == [0.0, 0.0]
    assert same.delta_tpr_std.tolist() == [0.0, 0.0]


# ---------------------------------------------------------------------------
# API: threshold pairs, result object, frame, distribution
# ---------------------------------------------------------------------------
def _worked():
    vec = next(v for v in VECTORS if v["id"] == "2.1")
    return paired_data(vec["inputs"])


def test_frame_columns_and_repr():
    y, a, b = _worked()
    res = compare_thresholds(y, a, b, thresholds_a=[0.3, 0.48, 0.66], thresholds_b=[0.3, 0.5, 0.6])
    assert isinstance(res, ThresholdComparison)
    frame = res.to_frame()
    required = ["threshold_a", "threshold_b", "p_a_dominates", "p_b_dominates", "delta_tpr", "delta_tpr_low",
                "delta_tpr_high", "delta_fpr", "delta_fpr_low", "delta_fpr_high"]
    assert list(frame.columns[: len(required)]) == required
    for extra in ("delta_tpr_std", "delta_fpr_std", "n_a_pos", "n_b_pos", "n_a_neg", "n_b_neg",
                  "tpr_a", "fpr_a", "tpr_b", "fpr_b"):
        assert extra in frame.columns
    assert len(frame) == 3 and len(res) == 3
    text = repr(res)
    assert text.startswith("ThresholdComparison(") and "p_a_dominates" in text
    # rates agree with the one-model counts
    assert frame.tpr_a.tolist() == pytest.approx([(y[a >= t] == 1).sum() / 20 for t in (0.3, 0.48, 0.66)])
    assert np.allclose(frame.tpr_a - frame.tpr_b, frame.delta_tpr)
    assert np.allclose(frame.fpr_a - frame.fpr_b, frame.delta_fpr)
    assert np.all(frame.delta_tpr_low <= frame.delta_tpr) and np.all(frame.delta_tpr <= frame.delta_tpr_high)


def test_rectangle_is_wider_than_marginal_and_levels():
    y, a, b = _worked()
    rect = compare_thresholds(y, a, b, thresholds_a=[0.48], thresholds_b=[0.5])
    marg = compare_thresholds(y, a, b, thresholds_a=[0.48], thresholds_b=[0.5], region="marginal")
    assert rect.axis_confidence_level == pytest.approx(np.sqrt(0.95))
    assert marg.axis_confidence_level == pytest.approx(0.95)
    assert rect.delta_tpr_low[0] < marg.delta_tpr_low[0] < marg.delta_tpr_high[0] < rect.delta_tpr_high[0]
    plug = compare_thresholds(y, a, b, thresholds_a=[0.48], thresholds_b=[0.5], gamma="plugin")
    assert plug.gamma == "plugin" and plug.delta_tpr_high[0] != rect.delta_tpr_high[0]


def test_equal_thresholds_by_default_and_broadcast():
    y, a, b = _worked()
    one = compare_thresholds(y, a, b, thresholds_a=[0.3, 0.5])
    two = compare_thresholds(y, a, b, thresholds_a=[0.3, 0.5], thresholds_b=[0.3, 0.5])
    assert one.to_frame().equals(two.to_frame())
    bc = compare_thresholds(y, a, b, thresholds_a=0.5, thresholds_b=[0.3, 0.5])
    assert bc.thresholds_a.tolist() == [0.5, 0.5]


def test_total_positive_rate_pairs():
    """Each model's ⌈q·n⌉-th largest score; both then call the same number of instances positive."""
    y, a, b = _worked()
    q = [0.1, 0.25, 0.5, 0.9]
    res = compare_thresholds(y, a, b, total_positive_rate=q)
    n = y.size
    for j, rate in enumerate(q):
        k = int(np.ceil(rate * n))
        assert res.thresholds_a[j] == np.sort(a)[::-1][k - 1]
        assert res.thresholds_b[j] == np.sort(b)[::-1][k - 1]
    frame = res.to_frame()
    assert frame.columns[0] == "total_positive_rate"
    assert frame.total_positive_rate.tolist() == q


def test_distribution_of_fpr_axis_and_values():
    y, a, b = _worked()
    res = compare_thresholds(y, a, b, thresholds_a=[0.3], m=(10, 13))
    values, probs = res.distribution(0, axis="fpr")
    assert values.min() == pytest.approx(-1) and values.max() == pytest.approx(1)
    assert np.allclose(values * 13, np.round(values * 13))
    na, nb = int(res.n_a_neg[0]), int(res.n_b_neg[0])
    law = brute_paired.trinomial_difference_law(13, Fraction(na, 40), Fraction(nb, 40))
    got = dict(zip(np.round(values * 13).astype(int).tolist(), probs.tolist()))
    for k, p in law.items():
        assert got[k] == pytest.approx(float(p), abs=1e-15)
    with pytest.raises(InputError, match="axis"):
        res.distribution(0, axis="both")


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------
def _msg(fn, *words):
    with pytest.raises(InputError) as info:
        fn()
    msg = str(info.value)
    for w in words:
        assert re.search(re.escape(w), msg, flags=re.IGNORECASE), f"{w!r} not in {msg!r}"
    return msg


def test_bad_input_messages():
    y, a, b = _worked()
    _msg(lambda: compare_thresholds(y, a, b[:-1], thresholds_a=[0.5]), "score_a", "score_b", "same instances")
    _msg(lambda: compare_thresholds(y[:-1], a, b, thresholds_a=[0.5]), "y_true")
    b_nan = b.copy()
    b_nan[3] = np.nan
    _msg(lambda: compare_thresholds(y, a, b_nan, thresholds_a=[0.5]), "score_b", "NaN")
    a_nan = a.copy()
    a_nan[0] = np.nan
    msg = _msg(lambda: compare_thresholds(y, a_nan, b, thresholds_a=[0.5]), "score_a", "NaN")
    assert "score_b" not in msg
    _msg(lambda: compare_thresholds(y, a, b), "thresholds_a", "total_positive_rate")
    _msg(lambda: compare_thresholds(y, a, b, thresholds_b=[0.5]), "thresholds_a")
    _msg(lambda: compare_thresholds(y, a, b, thresholds_a=[0.5], total_positive_rate=[0.5]), "not both")
    _msg(lambda: compare_thresholds(y, a, b, thresholds_a=[0.5, 0.4], thresholds_b=[0.1, 0.2, 0.3]), "pairs")
    _msg(lambda: compare_thresholds(y, a, b, thresholds_a=[0.5], gamma="smooth"), "gamma", "'smoothed'", "'plugin'")
    _msg(lambda: compare_thresholds(y, a, b, thresholds_a=[0.5], region="ellipse"), "region", "'rectangle'")
    _msg(lambda: compare_thresholds(y, a, b, thresholds_a=[0.5], confidence_level=95), "confidence_level")
    _msg(lambda: compare_thresholds(y, a, b, thresholds_a=[np.nan]), "thresholds_a")
    _msg(lambda: compare_thresholds(y, a, b, total_positive_rate=[1.5]), "total_positive_rate")


def test_constant_model_is_allowed():
    """A constant score is a legitimate (useless) model: the comparison is defined."""
    y, a, _ = _worked()
    const = np.full(a.size, 0.5)
    res = compare_thresholds(y, a, const, thresholds_a=[0.48], thresholds_b=[0.5])
    assert res.tpr_b[0] == 1 and res.fpr_b[0] == 1
    assert np.isfinite(res.p_a_dominates[0]) and 0 <= res.p_a_dominates[0] <= 1
