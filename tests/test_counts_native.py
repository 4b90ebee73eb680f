"""Counts that stay counts (issue 16): compare_cost and compare_vertical given a PairedCounts, the threshold
explorer's functions and roc_band given a ScoreCounts work on the table itself, never on one row per instance.

For each function: the results from the table equal the results from the raw rows the table was made from
(ties within and across classes, m = n and m ≠ n, a chosen positive label), with every expansion of the
table turned into an error; and a table standing for billions of instances on a few hundred distinct scores
(or score pairs) runs without ever being expanded (how long it takes: bench/bench_limits.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci._core.counts import PairedCounts, ScoreCounts


def _raw(n=260, seed=3):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, "churn", "stay")
    pos = y == "churn"
    a = np.round(rng.normal(size=n) + 1.1 * pos, 1)  # ties within and across the classes
    b = np.round(0.5 * a + rng.normal(size=n) + 0.6 * pos, 1)
    return y, a, b


def _table(y, s, pos_label):
    frame = pd.DataFrame({"score": s, "positive": y == pos_label})
    g = frame.groupby("score")["positive"].agg(["sum", "size"]).reset_index()
    g = g.sample(frac=1.0, random_state=2).reset_index(drop=True)  # rows in no order, as a database gives them
    return ScoreCounts.from_frame(pd.DataFrame({"score": g["score"], "n_pos": g["sum"],
                                                "n_neg": g["size"] - g["sum"]}), pos_label=pos_label)


def _pairs(y, a, b, pos_label):
    frame = pd.DataFrame({"score_a": a, "score_b": b, "positive": y == pos_label})
    g = frame.groupby(["score_a", "score_b"])["positive"].agg(["sum", "size"]).reset_index()
    g = g.sample(frac=1.0, random_state=3).reset_index(drop=True)
    return PairedCounts.from_frame(pd.DataFrame({"score_a": g["score_a"], "score_b": g["score_b"],
                                                 "n_pos": g["sum"], "n_neg": g["size"] - g["sum"]}),
                                   pos_label=pos_label)


@pytest.fixture
def no_expansion(monkeypatch):
    """Every expansion of a table to one row per instance fails the test."""

    def refuse(name):
        def getter(self):
            if getattr(self, "_" + name) is None:
                raise AssertionError(f"a table of counts was expanded ({name})")
            return getattr(self, "_" + name)
        return property(getter)

    monkeypatch.setattr(ScoreCounts, "pos", refuse("pos"))
    monkeypatch.setattr(ScoreCounts, "neg", refuse("neg"))
    monkeypatch.setattr(PairedCounts, "arrays",
                        lambda self: (_ for _ in ()).throw(AssertionError("a pair table was expanded")))


def _frames_equal(x, y):
    pd.testing.assert_frame_equal(x.reset_index(drop=True), y.reset_index(drop=True), check_exact=True)


# --- compare_cost --------------------------------------------------------------------------------------

COST_CASES = [
    dict(),
    dict(method="wald"),
    dict(method="percentile"),
    dict(m=(40, 70)),
    dict(m=(40, 70), method="percentile"),
    dict(bootstrap="full"),
    dict(bootstrap="full", method="wald"),
    dict(bootstrap="full", method="percentile"),
    dict(bootstrap="full", m=180),
    dict(bootstrap="full", m=180, method="percentile"),
    dict(thresholds_a=[0.4, 1.2], thresholds_b=0.8, w=[0.3, 0.6]),
    dict(thresholds_a=[0.4, 1.2], thresholds_b=0.8, w=[0.3, 0.6], bootstrap="full", method="percentile"),
]


@pytest.mark.parametrize("kwargs", COST_CASES, ids=[str(c) for c in COST_CASES])
def test_compare_cost_from_the_pair_table_is_the_raw_result(kwargs, no_expansion):
    y, a, b = _raw()
    pairs = _pairs(y, a, b, "churn")
    from_raw = rocci.compare_cost(y, a, b, pos_label="churn", **kwargs)
    from_table = rocci.compare_cost(pairs, **kwargs)
    _frames_equal(from_raw.to_frame(), from_table.to_frame())
    for name in ("n_a_pos", "n_b_pos", "n_a_neg", "n_b_neg", "threshold_a", "threshold_b"):
        np.testing.assert_array_equal(getattr(from_raw, name), getattr(from_table, name), err_msg=name)
    assert (from_raw.n_pos, from_raw.n_neg) == (from_table.n_pos, from_table.n_neg)
    # the exact law behind a point, from the stored cells
    i = len(from_raw.w) // 2
    for left, right in zip(from_raw.distribution(i), from_table.distribution(i)):
        np.testing.assert_array_equal(left, right)


def test_compare_cost_equal_class_sizes_and_a_table_with_one_class_per_row(no_expansion):
    """m = n with n+ = n−, and rows that hold only positives or only negatives (the common case of a
    pair table made from continuous scores)."""
    rng = np.random.default_rng(8)
    y = np.r_[np.ones(90, bool), np.zeros(90, bool)]
    a = rng.normal(size=180) + y
    b = rng.normal(size=180) + 0.8 * y
    pairs = _pairs(y, a, b, True)
    assert ((pairs.n_pos == 0) | (pairs.n_neg == 0)).all()
    for bootstrap in ("stratified", "full"):
        _frames_equal(rocci.compare_cost(y, a, b, bootstrap=bootstrap).to_frame(),
                      rocci.compare_cost(pairs, bootstrap=bootstrap).to_frame())


def test_compare_cost_refuses_scores_beside_a_pair_table():
    y, a, b = _raw()
    with pytest.raises(rocci.InputError, match="either a PairedCounts alone"):
        rocci.compare_cost(_pairs(y, a, b, "churn"), a, b)
    with pytest.raises(rocci.InputError, match="PairedCounts"):
        rocci.compare_cost(_table(y, a, "churn"))


# --- compare_vertical ----------------------------------------------------------------------------------

VERTICAL = [
    dict(fpr=[0.02, 0.1, 0.3, 0.5, 0.9]),
    dict(fpr=[0.05, 0.4], method="percentile"),
    dict(fpr=[0.2, 0.7], m=(60, 110)),
    dict(fpr=[0.15], m=(200, 90), method="percentile", confidence_level=0.8),
]


@pytest.mark.parametrize("kwargs", VERTICAL, ids=[str(v) for v in VERTICAL])
def test_compare_vertical_from_the_pair_table_is_the_raw_result(kwargs, no_expansion):
    """The table route takes the blocks of ranks to whole runs of tied negatives (its top sets are sets of
    scores): the same law up to round-off and the mass outside the window (both ~1e-16)."""
    y, a, b = _raw()
    from_raw = rocci.compare_vertical(y, a, b, pos_label="churn", **kwargs)
    from_table = rocci.compare_vertical(_pairs(y, a, b, "churn"), **kwargs)
    pd.testing.assert_frame_equal(from_raw.to_frame(), from_table.to_frame(), check_exact=False, rtol=1e-12,
                                  atol=1e-14)
    for i in range(from_raw.fpr.size):
        for left, right in zip(from_raw.distribution(i), from_table.distribution(i)):
            np.testing.assert_allclose(left, right, rtol=0, atol=1e-14)


def test_compare_vertical_pair_table_with_continuous_scores_and_large_ties(no_expansion):
    """Rows with one instance each (continuous scores), then the same table with every count times 40 (each
    score a run of ties): the table gives the raw result of its own expansion both times."""
    rng = np.random.default_rng(12)
    y = rng.random(150) < 0.45
    a = rng.normal(size=150) + y
    b = 0.6 * a + rng.normal(size=150) + 0.4 * y
    pairs = _pairs(y, a, b, True)
    kwargs = dict(fpr=[0.1, 0.5])
    pd.testing.assert_frame_equal(rocci.compare_vertical(y, a, b, **kwargs).to_frame(),
                                  rocci.compare_vertical(pairs, **kwargs).to_frame(),
                                  check_exact=False, rtol=1e-12, atol=1e-14)
    tied = PairedCounts(pairs.score_a, pairs.score_b, pairs.n_pos * 40, pairs.n_neg * 40)
    yy = np.r_[np.ones(int(tied.n_pos.sum()), bool), np.zeros(int(tied.n_neg.sum()), bool)]
    aa = np.r_[np.repeat(tied.score_a, tied.n_pos), np.repeat(tied.score_a, tied.n_neg)]
    bb = np.r_[np.repeat(tied.score_b, tied.n_pos), np.repeat(tied.score_b, tied.n_neg)]
    pd.testing.assert_frame_equal(rocci.compare_vertical(yy, aa, bb, **kwargs).to_frame(),
                                  rocci.compare_vertical(tied, **kwargs).to_frame(),
                                  check_exact=False, rtol=1e-12, atol=1e-14)


def test_compare_vertical_joint_law_of_a_table_comes_from_its_instances():
    """joint_threshold_law(i) is per rank, which a table does not order: it is computed on the table's
    instances (the one expansion left), and sums to 1 − truncated_mass as for raw data."""
    y, a, b = _raw(n=120)
    res = rocci.compare_vertical(_pairs(y, a, b, "churn"), fpr=[0.3])
    k, j, f = res.joint_threshold_law(0)
    assert f.sum() == pytest.approx(1.0 - res.truncated_mass[0], abs=1e-13)


# --- the threshold explorer -----------------------------------------------------------------------------

def _explore_calls():
    """(name, call): ``call(data)`` with ``data`` = ``(y, a)`` (raw, positive label "churn") or ``(table,)``."""
    def kw(data):
        return {"pos_label": "churn"} if len(data) == 2 else {}

    def pair(data):
        return data if len(data) == 2 else (data[0], None)

    return [
        ("threshold_table", lambda d: rocci.threshold_table(*d, **kw(d)).to_frame()),
        ("gain_curve", lambda d: rocci.gain_curve(*d, **kw(d)).to_frame()),
        ("pr_curve", lambda d: rocci.pr_curve(*d, interpolate=False, **kw(d)).to_frame()),
        ("reading_curve", lambda d: rocci.reading_curve(*d, **kw(d)).to_frame()),
        ("confusion_at", lambda d: rocci.confusion_at(*pair(d), 0.35, method="percentile", **kw(d)).to_frame()),
        ("confusion_at agresti", lambda d: rocci.confusion_at(*pair(d), -0.6, method="agresti-coull", add=1,
                                                               **kw(d)).to_frame()),
        ("confusion_at +inf", lambda d: rocci.confusion_at(*pair(d), np.inf, **kw(d)).to_frame()),
        ("confusion_at -inf", lambda d: rocci.confusion_at(*pair(d), -np.inf, method="wald", **kw(d)).to_frame()),
        ("rate_threshold", lambda d: rocci.rate_threshold(*pair(d), 0.3, **kw(d))),
        ("rate_threshold 0", lambda d: rocci.rate_threshold(*pair(d), 0.0, **kw(d))),
        ("youden_threshold", lambda d: rocci.youden_threshold(*d, **kw(d))),
        ("cost_threshold w", lambda d: rocci.cost_threshold(*d, w=0.7, **kw(d))),
        ("cost_threshold costs", lambda d: rocci.cost_threshold(*d, cost_fn=5.0, cost_fp=1.0, **kw(d))),
        ("cost_threshold prior", lambda d: rocci.cost_threshold(*d, p_pos=0.1, **kw(d))),
    ]


EXPLORE = _explore_calls()


@pytest.mark.parametrize("name,call", EXPLORE, ids=[e[0] for e in EXPLORE])
def test_explorer_functions_from_the_table_are_the_raw_results(name, call, no_expansion):
    y, a, _ = _raw()
    from_raw, from_table = call((y, a)), call((_table(y, a, "churn"),))
    if isinstance(from_raw, pd.DataFrame):
        _frames_equal(from_raw, from_table)
    else:
        assert from_raw == from_table


def test_threshold_table_counts_the_instances_at_each_score():
    """``n_at_threshold`` from the cumulative counts is what ``numpy.unique`` counts on the raw scores."""
    y, a, _ = _raw(seed=9)
    table = rocci.threshold_table(_table(y, a, "churn")).to_frame()
    values, counts = np.unique(a, return_counts=True)
    np.testing.assert_array_equal(table["threshold"], values[::-1])
    np.testing.assert_array_equal(table["n_at_threshold"], counts[::-1])


# --- roc_band -------------------------------------------------------------------------------------------

BANDS = [
    dict(),
    dict(thresholds=[1.5, 0.7, 0.2, -0.4]),
    dict(method="sidak"),
    dict(method="bonferroni", m=(60, 90)),
    dict(thresholds=[1.0, 0.0], m=(60, 90)),
    dict(method="monte-carlo", n_boot=300, seed=4),
    dict(kind="vertical", method="sidak", fpr=[0.1, 0.3, 0.6]),
    dict(kind="vertical", method="bonferroni", fpr=[0.2, 0.5], m=(70, 120)),
    dict(kind="vertical", method="monte-carlo", n_boot=200, seed=5, fpr=[0.1, 0.5, 0.9]),
    dict(kind="vertical", method="monte-carlo", n_boot=200, seed=5, fpr=[0.25], m=(50, 80)),
]


@pytest.mark.parametrize("kwargs", BANDS, ids=[str(b) for b in BANDS])
def test_roc_band_from_the_table_is_the_raw_result(kwargs, no_expansion):
    y, a, _ = _raw()
    from_raw = rocci.roc_band(y, a, pos_label="churn", **kwargs)
    from_table = rocci.roc_band(_table(y, a, "churn"), **kwargs)
    _frames_equal(from_raw.to_frame(), from_table.to_frame())
    for name in ("critical_value", "pointwise_level", "joint_probability", "joint_probability_se", "area",
                 "critical_value_below", "joint_probability_below", "critical_value_mc_low",
                 "critical_value_mc_high", "n_pos", "n_neg", "m_pos", "m_neg"):
        assert getattr(from_raw, name) == getattr(from_table, name), name


@pytest.mark.montecarlo
def test_vertical_montecarlo_band_draws_follow_the_exact_moments():
    """The Monte Carlo vertical band draws counts per distinct score (two multinomials): its resampled
    TPR at a level has the exact law's mean and standard deviation (eqs. 4.13–4.14)."""
    from rocci.bands.band import _mc_vertical_tpr
    from rocci._core.counts import score_counts

    y, a, _ = _raw(n=300, seed=6)
    pos = y == "churn"
    counts = score_counts(a[pos], a[~pos])
    r = np.array([4, 40, 120])
    draws = _mc_vertical_tpr(counts, r, counts.n_pos, counts.n_neg, 60_000, np.random.default_rng(1))
    exact = rocci.vertical_ci(counts, fpr=r / counts.n_neg)
    se_mean = exact.tpr_std / np.sqrt(draws.shape[0])
    assert np.all(np.abs(draws.mean(axis=0) - exact.tpr_mean) < 5 * se_mean)
    np.testing.assert_allclose(draws.std(axis=0), exact.tpr_std, rtol=0.03)


# --- billions of instances in a few hundred rows ------------------------------------------------------

def _huge_scores(seed=2, scale=10):
    """~1.5·10⁸·scale positives and ~1.5·10⁹ negatives on 267 distinct scores, positives higher."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random(300), 3)
    n_pos = (rng.integers(0, 10**6, 300) * (0.2 + scores)).astype(np.int64) * scale
    n_neg = (rng.integers(0, 10**7, 300) * (1.2 - scores)).astype(np.int64)
    return ScoreCounts.from_counts(scores, n_pos, n_neg)


def _huge_pairs(scale=10**5, seed=4):
    """Two equally good models in 2,000-odd pair rows (the table made symmetric, so that some
    operating points are undecided and need the exact law), each row's counts times ``scale``."""
    rng = np.random.default_rng(seed)
    n = 6000
    y = rng.random(n) < 0.5
    a, b = np.round(rng.normal(size=n) + y, 1), np.round(rng.normal(size=n) + y, 1)
    frame = pd.DataFrame({"a": np.r_[a, b], "b": np.r_[b, a], "y": np.r_[y, y]})
    t = frame.groupby(["a", "b"]).agg(n_pos=("y", "sum"), n_neg=("y", lambda v: int((~v).sum()))).reset_index()
    return PairedCounts.from_frame(t.assign(n_pos=t.n_pos * scale, n_neg=t.n_neg * scale), score_a="a", score_b="b")


def test_a_table_of_billions_runs_without_expanding(no_expansion):
    counts = _huge_scores(scale=100)
    n = counts.n_pos + counts.n_neg
    assert n > 10**10 and counts.table()[0].size < 300
    for call in (lambda: rocci.threshold_table(counts), lambda: rocci.gain_curve(counts),
                 lambda: rocci.pr_curve(counts, interpolate=False), lambda: rocci.reading_curve(counts),
                 lambda: rocci.confusion_at(counts, None, 0.5, method="percentile"),
                 lambda: rocci.rate_threshold(counts, None, 0.1), lambda: rocci.youden_threshold(counts),
                 lambda: rocci.cost_threshold(counts, w=0.3)):
        call()
    table = rocci.threshold_table(counts).to_frame()
    assert table["n_at_threshold"].sum() == n and table["tp"].iloc[-1] == counts.n_pos
    # n+·n− > 2⁶³ here, so TP·n− − FP·n+ leaves int64: Youden's threshold is still the exact maximiser
    assert counts.n_pos * counts.n_neg > 2**63
    t, tp, fp = table["threshold"].to_numpy(), table["tp"].to_numpy(), table["fp"].to_numpy()
    best = max(range(t.size), key=lambda i: (int(tp[i]) * counts.n_neg - int(fp[i]) * counts.n_pos, -i))
    assert rocci.youden_threshold(counts) == t[best]
    counts = _huge_scores()  # ~3·10⁹ instances: the bands' laws are O(sqrt(m)) counts wide
    assert counts.n_pos + counts.n_neg > 2 * 10**9
    for kwargs in (dict(thresholds=[0.97, 0.95, 0.9]), dict(thresholds=[0.97, 0.9, 0.5], method="sidak"),
                   dict(method="monte-carlo", n_boot=500, seed=1),
                   dict(kind="vertical", method="sidak", fpr=[0.01, 0.05]),
                   dict(kind="vertical", method="monte-carlo", n_boot=100, seed=1, fpr=[0.05])):
        band = rocci.roc_band(counts, **kwargs)
        assert band.n_pos == counts.n_pos and np.isfinite(band.critical_value)


def test_a_pair_table_of_billions_runs_without_expanding(no_expansion):
    pairs = _huge_pairs()
    n = int(pairs.n_pos.sum() + pairs.n_neg.sum())
    assert n > 10**9 and pairs.score_a.size < 3000
    w = [0.2, 0.5, 0.8]
    for kwargs in (dict(), dict(bootstrap="full"), dict(m=(10**6, 2 * 10**6)), dict(bootstrap="full", m=10**7)):
        res = rocci.compare_cost(pairs, w=w, **kwargs)
        assert res.n_pos + res.n_neg == n
        open_ = (res.p_a_cheaper > 0) & (res.p_a_cheaper < 1)
        assert open_.any()  # equally good models: the exact law is needed at some w, and built
        assert np.all(res.delta_cost_low <= res.delta_cost) and np.all(res.delta_cost <= res.delta_cost_high)
    for kwargs in (dict(fpr=[0.01, 0.1, 0.5]), dict(fpr=[0.2], method="percentile", m=(10**8, 10**8))):
        res = rocci.compare_vertical(pairs, **kwargs)
        assert np.all(res.delta_tpr_low <= res.delta_tpr_mean) and np.all(res.delta_tpr_mean <= res.delta_tpr_high)
        assert np.all(res.truncated_mass < 1e-12) and np.all(np.abs(res.delta_tpr_mean) < 1e-12)  # equal models
        values, probs = res.distribution(0)  # the law on its window, not on −m+ … m+
        assert values.size < 10**6 and probs.sum() == pytest.approx(1.0, abs=1e-12)
    # many operating points of two different models: the Chernoff bound settles most, the rest are laws
    rng = np.random.default_rng(1)
    table = pd.DataFrame({"a": np.round(rng.random(400), 2), "b": np.round(rng.random(400), 2)})
    table["n_pos"] = (rng.integers(0, 10**7, 400) * (table.a + 0.2)).astype(np.int64)
    table["n_neg"] = (rng.integers(0, 10**7, 400) * (1.2 - table.a)).astype(np.int64)
    different = PairedCounts.from_frame(table, score_a="a", score_b="b")
    res = rocci.compare_cost(different, bootstrap="full")
    assert res.w.size == 101 and np.all((res.p_a_cheaper >= 0) & (res.p_a_cheaper <= 1))


def test_the_cost_hull_is_exact_when_counts_pass_int64_products():
    """With n+·n− above 2⁶³ the hull's cross products leave int64; the envelope is still the exact hull
    (the vertices of Andrew's chain in Python integers) and its breakpoints are finite."""
    from rocci.cost.hull import _Envelope, _monotone_chain, _upper_hull

    rng = np.random.default_rng(0)
    for _ in range(30):
        k = int(rng.integers(5, 300))
        steps = rng.integers(0, 10**10, (2, k))
        if k % 2:  # each step twice: every other point on the chord of its neighbours (collinear)
            steps = np.repeat(steps[:, : k // 2 + 1], 2, axis=1)[:, :k]
        tp = np.r_[0, np.cumsum(steps[0])].astype(np.int64)
        fp = np.r_[0, np.cumsum(steps[1])].astype(np.int64)
        keep = np.r_[True, (np.diff(fp) > 0) | (np.diff(tp) > 0)]
        tp, fp = tp[keep], fp[keep]
        assert int(tp[-1]) * int(fp[-1]) > 2**63
        np.testing.assert_array_equal(_upper_hull(fp, tp), _monotone_chain(fp, tp, np.arange(fp.size)))
    counts = _huge_scores(scale=10**4)
    assert counts.n_pos * counts.n_neg > 2**63
    env = _Envelope.from_counts(counts)
    assert np.all(np.isfinite(env.breakpoints)) and np.all(np.diff(env.breakpoints) >= 0)
