"""Cost curves: the shared vectors (items 5.x), the envelope against brute force,
ROC/cost duality, the operating point, and bad input.

The full-bootstrap vectors (5.7–5.12) are given in the thesis's scale, with
costs ``c_fn = C(−|+)`` and ``c_fp = C(+|−)``: eq. 5.9 divides
``c_fn·FN* + c_fp·FP*`` by ``n·max(c_fn, c_fp)``.  rocci keeps the stratified
scale ``w·FN*/n+ + (1 − w)·FP*/n−`` with the observed class proportions
``π± = n±/n``; the two agree when

    ``w = operating_point(π+, c_fn, c_fp) = π+·c_fn / (π+·c_fn + π−·c_fp)``

and the thesis's cost is rocci's times the constant
``k = (π+·c_fn + π−·c_fp) / max(c_fn, c_fp)`` (so its variance is ``k²`` times
rocci's).  With ``c_fn = c_fp`` this is ``w = π+`` and ``k = 1``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from rocci import InputError
from rocci.cost import compare_cost, cost_ci, cost_curve, operating_point
from tests.reference.brute_cost import brute_envelope, envelope_kinks, roc_points

VECTORS_PATH = Path(__file__).resolve().parents[3] / "shared" / "vectors" / "vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_text())["vectors"]


def of_kind(kind):
    found = [v for v in VECTORS if v["kind"] == kind]
    assert found, f"no vectors of kind {kind}"
    return pytest.mark.parametrize("vec", found, ids=[v["id"] for v in found])


def labels(pos, neg):
    return np.r_[np.ones(len(pos), int), np.zeros(len(neg), int)]


def one_model(i):
    return labels(i["pos"], i["neg"]), np.r_[i["pos"], i["neg"]]


def two_models(i):
    return labels(i["pos1"], i["neg1"]), np.r_[i["pos1"], i["neg1"]], np.r_[i["pos2"], i["neg2"]]


def thesis_scale(n_pos, n_neg, c_fn, c_fp):
    """``(w, k)``: rocci's operating point and the thesis's constant factor."""
    pi = n_pos / (n_pos + n_neg)
    return operating_point(pi, c_fn, c_fp), (pi * c_fn + (1 - pi) * c_fp) / max(c_fn, c_fp)


# ---------------------------------------------------------------------------
# Vectors
# ---------------------------------------------------------------------------


@of_kind("cost_strat")
def test_cost_stratified(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, s = one_model(i)
    level = 1 - i["alpha"]
    wald = cost_ci(y, s, w=i["w"], thresholds=i["t"], method="wald", confidence_level=level)
    assert wald.cost[0] == pytest.approx(e["mean"], abs=tol)
    assert wald.cost_std[0] ** 2 == pytest.approx(e["var"], abs=tol)
    assert wald.cost_low[0] == pytest.approx(e["wald_lo"], abs=tol)
    assert wald.cost_high[0] == pytest.approx(e["wald_hi"], abs=tol)
    # Agresti–Coull, table 5.1: +2 in each of TP, FN, FP, TN, i.e. p̃ = (n_cell + 2)/(n± + 4),
    # then Wald with m± + 4.
    agr = cost_ci(y, s, w=i["w"], thresholds=i["t"], confidence_level=level)
    assert agr.method == "agresti-coull" and agr.add == 2.0
    assert agr.cost_low[0] == pytest.approx(e["agresti2_lo"], abs=tol)
    assert agr.cost_high[0] == pytest.approx(e["agresti2_hi"], abs=tol)
    # The same by hand.
    n_pos, n_neg = len(i["pos"]), len(i["neg"])
    q_fn = (n_pos - agr.tp[0] + 2) / (n_pos + 4)
    q_fp = (agr.fp[0] + 2) / (n_neg + 4)
    w = i["w"]
    mean = w * q_fn + (1 - w) * q_fp
    sd = np.sqrt(w**2 * q_fn * (1 - q_fn) / (n_pos + 4) + (1 - w) ** 2 * q_fp * (1 - q_fp) / (n_neg + 4))
    from scipy import stats

    z = stats.norm.isf(i["alpha"] / 2)
    assert agr.cost_low[0] == pytest.approx(mean - z * sd, abs=tol)


@of_kind("cost_strat_paired")
def test_cost_stratified_paired(vec):
    """The vectors hold the thesis's ``ΔC = C2 − C1`` (model 1 = a); rocci
    reports ``C_a − C_b`` (A − B, since 0.2.0): the negative, and the
    interval's ends negated and swapped."""
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, a, b = two_models(i)
    res = compare_cost(y, a, b, w=i["w"], thresholds_a=i["t1"], thresholds_b=i["t2"],
                       confidence_level=1 - i["alpha"])
    assert res.method == "agresti-coull" and res.add == 0.5
    assert (res.n_a_pos[0], res.n_b_pos[0], res.n_a_neg[0], res.n_b_neg[0]) == (
        e["na_pos"], e["nb_pos"], e["na_neg"], e["nb_neg"])
    assert res.delta_cost[0] == pytest.approx(-e["mean"], abs=tol)
    assert res.delta_cost_std[0] ** 2 == pytest.approx(e["var"], abs=tol)
    assert res.delta_cost_low[0] == pytest.approx(-e["agresti_half_hi"], abs=tol)
    assert res.delta_cost_high[0] == pytest.approx(-e["agresti_half_lo"], abs=tol)


@of_kind("cost_full")
def test_cost_full(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, s = one_model(i)
    w, k = thesis_scale(len(i["pos"]), len(i["neg"]), i["c_fn"], i["c_fp"])
    res = cost_ci(y, s, w=w, thresholds=i["t"], bootstrap="full", method="wald")
    assert res.m_total == len(y) and res.m_pos is None
    assert k * res.cost[0] == pytest.approx(e["mean"], abs=tol)
    assert (k * res.cost_std[0]) ** 2 == pytest.approx(e["var"], abs=tol)
    # Same mean as the stratified bootstrap, larger variance.
    strat = cost_ci(y, s, w=w, thresholds=i["t"], method="wald")
    assert strat.cost[0] == pytest.approx(res.cost[0], abs=1e-15)
    assert res.cost_std[0] > strat.cost_std[0]


@of_kind("cost_full_paired")
def test_cost_full_paired(vec):
    """Thesis direction ``C2 − C1`` in the vectors: rocci's ``C_a − C_b`` is its negative."""
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, a, b = two_models(i)
    w, k = thesis_scale(len(i["pos1"]), len(i["neg1"]), i["c_fn"], i["c_fp"])
    res = compare_cost(y, a, b, w=w, thresholds_a=i["t1"], thresholds_b=i["t2"], bootstrap="full",
                       method="wald")
    assert k * res.delta_cost[0] == pytest.approx(-e["mean"], abs=tol)
    assert (k * res.delta_cost_std[0]) ** 2 == pytest.approx(e["var"], abs=tol)


@of_kind("envelope")
def test_envelope_vector(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, s = one_model(i)
    curve = cost_curve(y, s, w=i["w"])
    np.testing.assert_allclose(curve.cost, e["nec"], rtol=0, atol=tol)
    assert curve.threshold.tolist() == [float(t) for t in e["threshold"]]
    np.testing.assert_allclose(curve.hull_thresholds, e["hull_thresholds"], rtol=0, atol=0)
    np.testing.assert_allclose(curve.hull_fpr, e["hull_fpr"], rtol=0, atol=tol)
    np.testing.assert_allclose(curve.hull_tpr, e["hull_tpr"], rtol=0, atol=tol)
    np.testing.assert_allclose(curve.breakpoints, e["w_breakpoints"], rtol=0, atol=tol)
    frame = curve.to_frame()
    assert list(frame.columns) == ["w", "cost", "threshold"]
    # math.md §5, worked example: .88 on (0, .1304), .56 on (.1304, .5385), .25 on
    # (.5385, .6667), .20 on (.6667, 1].
    hull = curve.hull_frame()
    assert hull["w_low"].iloc[1] == pytest.approx(0.1304, abs=1e-4)
    assert curve.operating_range == (0.0, 1.0)


def test_envelope_ties_at_a_decimal_breakpoint():
    """The breakpoint 2/3 of the worked example, typed three ways, is a tie → .25."""
    vec = next(v for v in VECTORS if v["kind"] == "envelope")
    y, s = one_model(vec["inputs"])
    curve = cost_curve(y, s, w=[2 / 3, 0.6666666666666665, 0.6666666666666667, 0.67])
    assert curve.threshold.tolist() == [0.25, 0.25, 0.25, 0.2]


# ---------------------------------------------------------------------------
# Envelope against brute force
# ---------------------------------------------------------------------------


def random_tied(seed):
    rng = np.random.default_rng(seed)
    n_pos, n_neg = rng.integers(1, 30, size=2)
    shift = rng.uniform(-2, 4)
    pos = np.round(rng.normal(shift, 3, n_pos))
    neg = np.round(rng.normal(0, 3, n_neg))
    return pos, neg


DEGENERATE = {
    "perfect": ([3.0, 4.0], [1.0, 2.0]),
    "reversed": ([1.0, 2.0], [3.0, 4.0]),
    "all tied": ([1.0, 1.0, 1.0], [1.0, 1.0]),
    "one each": ([0.7], [0.2]),
    "top tie": ([5.0, 3.0, 1.0], [5.0, 2.0, 0.0]),
    "chance": ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]),
}
CASES = [random_tied(seed) for seed in range(12)] + list(DEGENERATE.values())
CASE_IDS = [f"random{seed}" for seed in range(12)] + list(DEGENERATE)


@pytest.mark.parametrize("data", CASES, ids=CASE_IDS)
def test_envelope_equals_brute_force(data):
    pos, neg = data
    y, s = labels(pos, neg), np.r_[pos, neg]
    kinks = [float(k) for k in envelope_kinks(pos, neg)]
    w = np.unique(np.r_[np.linspace(0, 1, 10_001), kinks])  # ties at every kink
    curve = cost_curve(y, s, w=w)
    cost, threshold = brute_envelope(pos, neg, w)
    np.testing.assert_allclose(curve.cost, cost, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(curve.threshold, threshold)


@pytest.mark.parametrize("data", CASES, ids=CASE_IDS)
def test_duality_hull_and_envelope(data):
    pos, neg = data
    y, s = labels(pos, neg), np.r_[pos, neg]
    curve = cost_curve(y, s)
    thresholds, fpr, tpr = roc_points(pos, neg)
    points = dict(zip(thresholds, zip(fpr, tpr)))
    n_pos, n_neg = len(pos), len(neg)

    # Hull vertices are ROC points, with their own thresholds and counts.
    for t, f, r, tp, fp in zip(curve.hull_thresholds, curve.hull_fpr, curve.hull_tpr,
                               curve.hull_tp, curve.hull_fp):
        assert points[t] == (Fraction(int(fp), n_neg), Fraction(int(tp), n_pos))
        assert (f, r) == (fp / n_neg, tp / n_pos)
    # ... strictly convex, ending at (1, 1), and no ROC point lies above them (exact).
    hx = [Fraction(int(v), n_neg) for v in curve.hull_fp]
    hy = [Fraction(int(v), n_pos) for v in curve.hull_tp]
    assert (hx[-1], hy[-1]) == (1, 1)
    for k in range(1, len(hx) - 1):
        assert (hx[k] - hx[k - 1]) * (hy[k + 1] - hy[k - 1]) - (hy[k] - hy[k - 1]) * (hx[k + 1] - hx[k - 1]) < 0
    assert hx[0] == 0 and all(a < b for a, b in zip(hx, hx[1:]))
    for f, r in zip(fpr, tpr):
        k = min(max(j for j in range(len(hx)) if hx[j] <= f), len(hx) - 2)
        assert r <= hy[k] + (hy[k + 1] - hy[k]) * (f - hx[k]) / (hx[k + 1] - hx[k])

    # Each vertex's cost line maps back to its ROC point: FPR = intercept,
    # TPR = 1 − slope − FPR (eq. 3.6).
    ends = cost_ci(y, s, w=np.repeat([0.0, 1.0], len(curve.hull_thresholds)),
                   thresholds=np.tile(curve.hull_thresholds, 2), method="wald")
    h = len(curve.hull_thresholds)
    intercept, slope = ends.cost[:h], ends.cost[h:] - ends.cost[:h]
    np.testing.assert_allclose(intercept, curve.hull_fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(1 - slope - intercept, curve.hull_tpr, rtol=0, atol=1e-15)

    # The envelope's kinks are the hull's breakpoints inside (0, 1) ...
    kinks = np.array([float(k) for k in envelope_kinks(pos, neg)])
    inner = curve.breakpoints[(curve.breakpoints > 0) & (curve.breakpoints < 1)]
    np.testing.assert_allclose(np.unique(inner), kinks, rtol=0, atol=1e-15)
    # ... and between two breakpoints the brute-force minimiser is that hull vertex.
    edges = np.r_[0.0, curve.breakpoints, 1.0]
    for k, t in enumerate(curve.hull_thresholds):
        if edges[k + 1] > edges[k]:
            mid = 0.5 * (edges[k] + edges[k + 1])
            assert brute_envelope(pos, neg, [mid])[1][0] == t


@pytest.mark.parametrize("data", CASES, ids=CASE_IDS)
def test_operating_range(data):
    pos, neg = data
    y, s = labels(pos, neg), np.r_[pos, neg]
    w = np.linspace(0, 1, 2001)
    curve = cost_curve(y, s, w=w)
    beats = curve.cost < np.minimum(w, 1 - w) - 1e-12
    if curve.operating_range is None:
        assert not beats.any()
    else:
        low, high = curve.operating_range
        inside = (w > low + 1e-9) & (w < high - 1e-9)
        outside = (w < low - 1e-9) | (w > high + 1e-9)
        assert beats[inside].all() and not beats[outside].any()


def test_operating_range_examples():
    assert cost_curve(*_xy(DEGENERATE["perfect"])).operating_range == (0.0, 1.0)
    assert cost_curve(*_xy(DEGENERATE["chance"])).operating_range is None
    assert cost_curve(*_xy(DEGENERATE["reversed"])).operating_range is None


def _xy(data):
    pos, neg = data
    return labels(pos, neg), np.r_[pos, neg]


def test_cost_curve_defaults_and_labels():
    y = np.array(["sick", "well", "sick", "well", "well"])
    s = np.array([0.9, 0.1, 0.6, 0.7, 0.2])
    curve = cost_curve(y, s, pos_label="sick")
    assert len(curve.w) == 101 and curve.w[0] == 0 and curve.w[-1] == 1
    assert curve.threshold[0] == np.inf
    assert curve.pos_label == "sick"
    assert "CostCurve" in repr(curve) and "operating_range" in repr(curve)
    # The hull starts at (0, 0.5): (0, 0) is not listed because FPR = 0 is reached with TPR > 0.
    assert curve.hull_fpr[0] == 0 and curve.hull_tpr[0] == 0.5


def test_cost_curve_large_input_is_fast():
    rng = np.random.default_rng(3)
    n = 200_000
    y = np.r_[np.ones(n), np.zeros(n)]
    s = np.r_[rng.normal(1, 1, n), rng.normal(0, 1, n)]
    curve = cost_curve(y, s, w=np.linspace(0, 1, 10_001))
    assert np.all(np.diff(curve.breakpoints) > 0)
    assert np.all(curve.cost <= np.minimum(curve.w, 1 - curve.w) + 1e-12)


def brute_upper_hull(fp, tp):
    """Strict vertices of the upper hull of points sorted by (fp, tp), by definition: the
    two ends, and every point with no pair j < i < k making it lie on or below the chord."""
    n = len(fp)
    keep = [0]
    for i in range(1, n - 1):
        if not any((fp[i] - fp[j]) * (tp[k] - tp[j]) - (tp[i] - tp[j]) * (fp[k] - fp[j]) >= 0
                   for j in range(i) for k in range(i + 1, n)):
            keep.append(i)
    return keep + [n - 1] if n > 1 else keep


def concave_arc_then_jump(k):
    """A strictly concave chain of k lattice points, then a point far above: each
    vectorised pruning pass removes one point only, so the sequential chain finishes."""
    fp = np.r_[0, np.arange(1, k + 1), k + 1].astype(np.int64)
    tp = np.r_[0, np.cumsum(np.arange(k, 0, -1)), 10 * k * k].astype(np.int64)
    return fp, tp


@pytest.mark.parametrize("seed", range(40))
def test_upper_hull_equals_brute_force(seed):
    from rocci._core.counts import score_counts
    from rocci.cost.hull import _roc_counts, _upper_hull

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    y = np.r_[True, False, rng.random(n) < rng.uniform(0.1, 0.9)]
    s = rng.integers(0, int(rng.integers(1, 10)), y.size) + 2 * y * rng.random()
    if seed % 2:
        s = s + 0.1 * rng.standard_normal(y.size)
    counts = score_counts(s[y], s[~y])
    thresholds, tp, fp = _roc_counts(counts)
    np.testing.assert_array_equal(thresholds, counts.distinct_thresholds())
    np.testing.assert_array_equal(tp, counts.n_pos_ge(thresholds))
    np.testing.assert_array_equal(fp, counts.n_neg_ge(thresholds))
    assert _upper_hull(fp, tp).tolist() == brute_upper_hull(fp.tolist(), tp.tolist())


def test_upper_hull_slow_pruning_falls_back_to_the_chain():
    from rocci.cost.hull import _upper_hull

    fp, tp = concave_arc_then_jump(60)
    assert _upper_hull(fp, tp).tolist() == brute_upper_hull(fp.tolist(), tp.tolist()) == [0, 61]
    fp, tp = concave_arc_then_jump(200_000)  # a sequential pass at most: well under a second
    assert _upper_hull(fp, tp).tolist() == [0, fp.size - 1]


# ---------------------------------------------------------------------------
# Operating point
# ---------------------------------------------------------------------------


def test_operating_point():
    assert operating_point(0.5, 1, 1) == 0.5
    assert operating_point(0.2, 4, 1) == pytest.approx(0.5)
    assert operating_point(1 / 3, 0, 1) == 0.0
    assert operating_point(1 / 3, 1, 0) == 1.0
    assert operating_point(0.25, 2.0, 3.0) == pytest.approx(0.5 / (0.5 + 2.25))
    np.testing.assert_allclose(operating_point(np.array([0.1, 0.9]), 1, 1), [0.1, 0.9])


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

Y = [0, 0, 1, 1, 0, 1]
S = [0.1, 0.4, 0.35, 0.8, 0.5, 0.9]
S2 = [0.2, 0.3, 0.5, 0.7, 0.4, 0.6]


@pytest.mark.parametrize(
    "args",
    [(0.0, 1, 1), (1.0, 1, 1), (-0.1, 1, 1), (1.5, 1, 1), (float("nan"), 1, 1),
     (0.5, -1, 1), (0.5, 1, -2), (0.5, 0, 0), (0.5, float("inf"), 1), ("half", 1, 1), (None, 1, 1)],
)
def test_operating_point_bad_input(args):
    with pytest.raises(InputError):
        operating_point(*args)


@pytest.mark.parametrize("w", [-0.1, 1.2, [0.2, 2.0], float("nan"), float("inf"), "0.5", [], [[0.1, 0.2], [0.3, 0.4]]])
def test_bad_w(w):
    with pytest.raises(InputError, match="w"):
        cost_curve(Y, S, w=w)
    with pytest.raises(InputError, match="w"):
        cost_ci(Y, S, w=w)
    with pytest.raises(InputError, match="w"):
        compare_cost(Y, S, S2, w=w)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"bootstrap": "Stratified"}, "bootstrap"),
        ({"bootstrap": "complete"}, "bootstrap"),
        ({"method": "agresti"}, "method"),
        ({"method": "wilson"}, "method"),
        ({"confidence_level": 95}, "confidence_level"),
        ({"add": -1}, "add"),
        ({"add": "two"}, "add"),
        ({"m": 0}, "m"),
        ({"m": (3, 4), "bootstrap": "full"}, "m"),
        ({"m": 2.5, "bootstrap": "full"}, "m"),
        ({"thresholds": [0.1, 0.2], "w": [0.1, 0.2, 0.3]}, "thresholds"),
        ({"thresholds": [0.1, 0.2]}, "thresholds"),
        ({"thresholds": [float("nan")]}, "thresholds"),
        ({"thresholds": "high"}, "thresholds"),
    ],
)
def test_cost_ci_bad_input(kwargs, match):
    with pytest.raises(InputError, match=match):
        cost_ci(Y, S, **kwargs)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"thresholds_a": [0.1, 0.2], "w": [0.5]}, "thresholds_a"),
        ({"thresholds_b": [0.1, 0.2, 0.3], "w": [0.1, 0.5]}, "thresholds_b"),
        ({"method": "score"}, "method"),
        ({"bootstrap": "paired"}, "bootstrap"),
        ({"m": (3, 4), "bootstrap": "full"}, "m"),
    ],
)
def test_compare_cost_bad_input(kwargs, match):
    with pytest.raises(InputError, match=match):
        compare_cost(Y, S, S2, **kwargs)


def test_bad_data():
    with pytest.raises(InputError, match="score_b"):
        compare_cost(Y, S, S2[:-1])
    with pytest.raises(InputError, match="score_a"):
        compare_cost(Y, [0.1, float("nan")] + S[2:], S2)
    with pytest.raises(InputError, match="no positive"):
        cost_curve([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.raises(InputError, match="pos_label"):
        cost_ci(["a", "b", "a"], [0.1, 0.2, 0.3])
    with pytest.raises(InputError):
        cost_curve(Y, S[:-1])


@pytest.mark.parametrize("data", CASES, ids=CASE_IDS)
def test_cost_curve_at_other_w_equals_a_fresh_computation(data):
    pos, neg = data
    y, s = labels(pos, neg), np.r_[pos, neg]
    kinks = [float(k) for k in envelope_kinks(pos, neg)]
    w = np.unique(np.r_[np.linspace(0, 1, 1_001), kinks])
    curve = cost_curve(y, s)
    moved = curve.at(w)
    fresh = cost_curve(y, s, w=w)
    np.testing.assert_array_equal(moved.w, fresh.w)
    np.testing.assert_array_equal(moved.cost, fresh.cost)
    np.testing.assert_array_equal(moved.threshold, fresh.threshold)
    np.testing.assert_array_equal(moved.breakpoints, curve.breakpoints)
    assert moved.operating_range == fresh.operating_range
    import pickle
    assert pickle.loads(pickle.dumps(curve)).at(w).to_frame().equals(fresh.to_frame())


@pytest.mark.parametrize("bootstrap,method", [("stratified", "agresti-coull"), ("full", "percentile"),
                                              ("stratified", "wald")])
def test_cost_ci_rows_equal_a_call_at_that_w(bootstrap, method):
    pos, neg = random_tied(4)
    y, s = labels(pos, neg), np.r_[pos, neg]
    grid = np.linspace(0, 1, 21)
    band = cost_ci(y, s, w=grid, bootstrap=bootstrap, method=method)
    for j in (0, 7, 20):
        one = cost_ci(y, s, w=[grid[j]], bootstrap=bootstrap, method=method)
        row = band.take(j)
        assert row.to_frame().equals(one.to_frame())
        np.testing.assert_array_equal(row.distribution(0)[1], one.distribution(0)[1])
