"""Counts as a first-class input: every single-model function given a ``ScoreCounts`` and every two-model
function given a ``PairedCounts`` returns exactly what it returns on the raw rows the counts were made from
(issue 16), with ties, string labels and a chosen positive label; bad tables get a clear InputError."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rocci
import rocci.precision as rp


def _raw(n=300, seed=4):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.35, "bad", "good")
    pos = y == "bad"
    a = np.round(rng.normal(size=n) + 1.2 * pos, 1)  # heavy ties
    b = np.round(rng.normal(size=n) + 0.8 * pos + 0.3 * a, 1)
    return y, a, b


def _table(y, s, pos_label):
    frame = pd.DataFrame({"score": s, "positive": y == pos_label})
    g = frame.groupby("score")["positive"].agg(["sum", "size"]).reset_index()
    # shuffled rows, as a database returns them
    g = g.sample(frac=1.0, random_state=1).reset_index(drop=True)
    return pd.DataFrame({"score": g["score"], "n_pos": g["sum"], "n_neg": g["size"] - g["sum"]})


def _paired_table(y, a, b, pos_label):
    frame = pd.DataFrame({"score_a": a, "score_b": b, "positive": y == pos_label})
    g = frame.groupby(["score_a", "score_b"])["positive"].agg(["sum", "size"]).reset_index()
    return pd.DataFrame({"score_a": g["score_a"], "score_b": g["score_b"], "n_pos": g["sum"],
                         "n_neg": g["size"] - g["sum"]})


def _same(x, y, rtol=0.0):
    """Results equal: frames, arrays and dataclass fields exactly (``rtol=0``) or to ``rtol``."""
    if isinstance(x, pd.DataFrame):
        pd.testing.assert_frame_equal(x.reset_index(drop=True), y.reset_index(drop=True),
                                      check_exact=rtol == 0, rtol=rtol or 1e-5, atol=0)
    elif hasattr(x, "to_frame"):
        _same(x.to_frame(), y.to_frame(), rtol)
    elif isinstance(x, float):
        np.testing.assert_allclose(x, y, rtol=rtol, atol=0)
    else:
        for name in vars(x):
            vx, vy = getattr(x, name), getattr(y, name)
            if isinstance(vx, (np.ndarray, float)):
                np.testing.assert_allclose(vx, vy, rtol=rtol, atol=0, err_msg=name)


SINGLE = [
    ("roc_curve", lambda f, *a: f(*a, pos_label="bad"), rocci.roc_curve),
    ("roc_auc delong", lambda f, *a: f(*a, pos_label="bad"), rocci.roc_auc),
    ("roc_auc exact", lambda f, *a: f(*a, pos_label="bad", method="exact-bootstrap"), rocci.roc_auc),
    ("threshold_ci", lambda f, *a: f(*a, pos_label="bad", method="percentile"), rocci.threshold_ci),
    ("vertical_ci", lambda f, *a: f(*a, pos_label="bad", fpr=[0.1, 0.3, 0.5]), rocci.vertical_ci),
    ("cost_curve", lambda f, *a: f(*a, pos_label="bad", w=[0.2, 0.5]), rocci.cost_curve),
    ("cost_ci", lambda f, *a: f(*a, pos_label="bad", w=[0.2, 0.5, 0.8]), rocci.cost_ci),
    ("metric_ci", lambda f, *a: f(*a, pos_label="bad", metric="f1", thresholds=[0.0, 0.5]), rocci.metric_ci),
    ("precision_ci", lambda f, *a: f(*a, pos_label="bad", recall=[0.5, 0.8]), rocci.precision_ci),
    ("pr_curve", lambda f, *a: f(*a, pos_label="bad"), rp.pr_curve),
    ("roc_band", lambda f, *a: f(*a, pos_label="bad", thresholds=[1.0, 0.5, 0.0]), rocci.roc_band),
    ("threshold_table", lambda f, *a: f(*a, pos_label="bad"), rocci.threshold_table),
    ("gain_curve", lambda f, *a: f(*a, pos_label="bad"), rocci.gain_curve),
    ("youden_threshold", lambda f, *a: f(*a, pos_label="bad"), rocci.youden_threshold),
    ("cost_threshold", lambda f, *a: f(*a, pos_label="bad", w=0.3), rocci.cost_threshold),
]


@pytest.mark.parametrize("name,call,fn", SINGLE, ids=[s[0] for s in SINGLE])
def test_single_model_functions_give_the_raw_data_results(name, call, fn):
    y, a, _ = _raw()
    counts = rocci.ScoreCounts.from_frame(_table(y, a, "bad"), pos_label="bad")
    assert counts.n_pos == int((y == "bad").sum()) and counts.n_neg == int((y != "bad").sum())
    from_raw = call(fn, y, a)
    from_counts = call(fn, counts)
    # A table's DeLong and exact-bootstrap variances sum over distinct scores with weights: the same
    # numbers up to the order of the floating-point sums. Everything else is identical.
    _same(from_raw, from_counts, rtol=1e-12 if name.startswith("roc_auc") else 0.0)


def test_positional_threshold_functions_take_counts_with_none():
    y, a, _ = _raw()
    counts = rocci.ScoreCounts.from_arrays(y, a, pos_label="bad")
    _same(rocci.confusion_at(y, a, 0.3, pos_label="bad"), rocci.confusion_at(counts, None, 0.3))
    assert rocci.rate_threshold(y, a, 0.2, pos_label="bad") == rocci.rate_threshold(counts, None, 0.2)


PAIRED = [
    ("compare_thresholds", lambda f, *a: f(*a, total_positive_rate=[0.2, 0.5])),
    ("compare_auc", lambda f, *a: f(*a)),
    ("compare_vertical", lambda f, *a: f(*a, fpr=[0.2])),
    ("mcnemar", lambda f, *a: f(*a, thresholds_a=[0.5, 0.2], thresholds_b=[0.4, 0.6])),
    ("compare_cost", lambda f, *a: f(*a, w=[0.3, 0.6])),
    ("compare_precision", lambda f, *a: f(*a, thresholds_a=[0.5], thresholds_b=[0.4])),
]
#: each one's case; compare_precision's exact laws take ~4 s here: in the slow tier
PAIRED_CASES = [pytest.param(*p, id=p[0], marks=[pytest.mark.slow] if p[0] == "compare_precision" else [])
                for p in PAIRED]


@pytest.mark.parametrize("name,call", PAIRED_CASES)
def test_two_model_functions_give_the_raw_data_results(name, call):
    y, a, b = _raw(n=160)
    fn = getattr(rocci, name)
    paired = rocci.PairedCounts.from_frame(_paired_table(y, a, b, "bad"), names=("a", "b"))
    from_raw = call(fn, y == "bad", a, b)
    from_counts = call(fn, paired)
    # The counts expand to the same instances in another order (positives first): sums over instances
    # (DeLong's placements) may differ in their last bits, nothing more.
    _same(from_raw, from_counts, rtol=1e-12)


def test_paired_margins_are_each_models_counts():
    y, a, b = _raw()
    paired = rocci.PairedCounts.from_frame(_paired_table(y, a, b, "bad"), names=("gbm", "logit"))
    for which, s in (("gbm", a), ("b", b)):
        margin = paired.model(which)
        direct = rocci.ScoreCounts.from_arrays(y == "bad", s)
        np.testing.assert_array_equal(margin.pos, direct.pos)
        np.testing.assert_array_equal(margin.neg, direct.neg)
    with pytest.raises(rocci.InputError, match="No model 'x'"):
        paired.model("x")


def test_to_frame_round_trips_and_sums_repeated_scores():
    y, a, _ = _raw()
    counts = rocci.ScoreCounts.from_arrays(y, a, pos_label="bad")
    table = counts.to_frame()
    assert table["score"].is_monotonic_increasing and table["score"].is_unique
    assert table["n_pos"].sum() == counts.n_pos and table["n_neg"].sum() == counts.n_neg
    again = rocci.ScoreCounts.from_frame(table)
    np.testing.assert_array_equal(again.pos, counts.pos)
    np.testing.assert_array_equal(again.neg, counts.neg)
    doubled = rocci.ScoreCounts.from_frame(pd.concat([table, table]))  # the same scores twice: added up
    assert doubled.n_pos == 2 * counts.n_pos and doubled.n_neg == 2 * counts.n_neg


@pytest.mark.parametrize("table,message", [
    (pd.DataFrame({"score": [0.1, 0.2], "n_pos": [1, -1], "n_neg": [2, 3]}), "negative count"),
    (pd.DataFrame({"score": [0.1, 0.2], "n_pos": [1, 1.5], "n_neg": [2, 3]}), "whole numbers"),
    (pd.DataFrame({"score": [0.1, np.nan], "n_pos": [1, 1], "n_neg": [2, 3]}), "missing or infinite"),
    (pd.DataFrame({"score": ["a", "b"], "n_pos": [1, 1], "n_neg": [2, 3]}), "numeric scores"),
    (pd.DataFrame({"score": [0.1, 0.2], "n_pos": [0, 0], "n_neg": [2, 3]}), "no positive instance"),
    (pd.DataFrame({"s": [0.1, 0.2], "n_pos": [1, 1], "n_neg": [2, 3]}), "no column 'score'"),
])
def test_bad_count_tables_are_refused_with_a_clear_message(table, message):
    with pytest.raises(rocci.InputError, match=message):
        rocci.ScoreCounts.from_frame(table)


def test_mixing_counts_and_arrays_is_refused():
    y, a, b = _raw()
    counts = rocci.ScoreCounts.from_arrays(y, a, pos_label="bad")
    with pytest.raises(rocci.InputError, match="either a ScoreCounts alone"):
        rocci.roc_auc(counts, a)
    with pytest.raises(rocci.InputError, match="PairedCounts"):
        rocci.compare_auc(counts)
    paired = rocci.PairedCounts.from_frame(_paired_table(y, a, b, "bad"))
    with pytest.raises(rocci.InputError, match="one model's counts"):
        rocci.threshold_ci(paired)
    with pytest.raises(rocci.InputError, match="either a PairedCounts alone"):
        rocci.compare_auc(paired, a, b)


def test_a_table_answers_counting_questions_natively_with_the_raw_integers():
    """The table representation's counting methods give the sorted arrays' integers, at every distinct
    score, between them, beyond them and at ±inf, and its rank lookup the same scores."""
    y, a, _ = _raw(n=500, seed=8)
    raw = rocci.ScoreCounts.from_arrays(y, a, pos_label="bad")
    tab = rocci.ScoreCounts.from_frame(_table(y, a, "bad"), pos_label="bad")
    assert tab._pos is None and tab._neg is None
    values = np.unique(a)
    t = np.concatenate([values, (values[1:] + values[:-1]) / 2, [-np.inf, np.inf, values[0] - 1, values[-1] + 1]])
    np.testing.assert_array_equal(tab.n_pos_ge(t), raw.n_pos_ge(t))
    np.testing.assert_array_equal(tab.n_neg_ge(t), raw.n_neg_ge(t))
    for x, r in zip(tab.threshold_counts(), raw.threshold_counts()):
        np.testing.assert_array_equal(x, r)
    np.testing.assert_array_equal(tab.distinct_thresholds(), raw.distinct_thresholds())
    ranks = np.arange(1, raw.n_pos + raw.n_neg + 1)
    np.testing.assert_array_equal(tab.score_at_rank(ranks), raw.score_at_rank(ranks))
    neg_ranks = np.arange(1, raw.n_neg + 1)
    np.testing.assert_array_equal(tab.neg_at_rank(neg_ranks), raw.neg_desc())
    assert tab.n_pos == raw.n_pos and tab.n_neg == raw.n_neg
    for x, r in zip(tab.table(), raw.table()):
        np.testing.assert_array_equal(x, r)


def test_threshold_and_cost_functions_do_not_expand_a_table():
    """threshold_ci, vertical_ci, roc_curve, roc_auc, cost_curve and cost_ci work on the distinct scores only: the table's
    per-instance arrays are never built (memory follows the distinct scores, not the instances)."""
    rng = np.random.default_rng(2)
    scores = np.round(rng.random(1000), 3)
    table = pd.DataFrame({"score": scores, "n_pos": rng.integers(0, 10**6, 1000),
                          "n_neg": rng.integers(0, 10**7, 1000)})  # ~5.5e9 instances
    counts = rocci.ScoreCounts.from_frame(table)
    ci = rocci.threshold_ci(counts, total_positive_rate=[0.01, 0.1, 0.5])
    assert ci.n_pos == int(table.n_pos.sum()) and ci.n_neg == int(table.n_neg.sum())
    rocci.threshold_ci(counts, method="percentile")
    rocci.roc_curve(counts)
    rocci.cost_curve(counts, w=[0.1, 0.5])
    rocci.cost_ci(counts, w=[0.1, 0.5])
    rocci.vertical_ci(counts, fpr=[0.01, 0.1, 0.5])
    rocci.vertical_ci(counts, fpr=[0.1], method="percentile")
    for method in ("delong", "exact-bootstrap", "hanley-mcneil"):
        rocci.roc_auc(counts, method=method)
    assert counts._pos is None and counts._neg is None


def test_paired_threshold_and_auc_comparisons_do_not_expand_a_table(monkeypatch):
    """compare_thresholds and compare_auc work on a PairedCounts table's rows with their counts as weights:
    the per-instance arrays are never built, and the results are the raw data's (tied scores)."""
    rng = np.random.default_rng(5)
    n = 4000
    y = rng.random(n) < 0.25
    a = np.round(rng.normal(size=n) + y, 1)
    b = np.round(0.6 * a + rng.normal(size=n), 1)
    frame = pd.DataFrame({"a": a, "b": b, "y": y})
    table = frame.groupby(["a", "b"]).agg(n_pos=("y", "sum"), n_neg=("y", lambda v: int((~v).sum()))).reset_index()
    pairs = rocci.PairedCounts.from_frame(table, score_a="a", score_b="b")
    monkeypatch.setattr(rocci.PairedCounts, "arrays", lambda self: (_ for _ in ()).throw(AssertionError("expanded")))
    q = [0.02, 0.1, 0.3, 0.6]
    for kwargs in ({"total_positive_rate": q}, {"thresholds_a": [0.0, 0.5, 1.2], "thresholds_b": [0.3, 0.3, 0.9]}):
        got = rocci.compare_thresholds(pairs, **kwargs).to_frame()
        want = rocci.compare_thresholds(y, a, b, **kwargs).to_frame()
        pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-12, atol=1e-14)
    got, want = rocci.compare_auc(pairs), rocci.compare_auc(y, a, b)
    for field in ("auc_a", "auc_b", "delta_auc", "delta_auc_std", "statistic", "pvalue", "correlation"):
        assert getattr(got, field) == pytest.approx(getattr(want, field), rel=1e-12, abs=1e-14), field
    # 10^9 instances in 40 rows: the same calls stay O(rows)
    big = table.head(40).assign(n_pos=lambda t: t.n_pos * 10**7 + 1, n_neg=lambda t: t.n_neg * 10**7 + 1)
    huge = rocci.PairedCounts.from_frame(big, score_a="a", score_b="b")
    res = rocci.compare_thresholds(huge, total_positive_rate=[0.1, 0.5])
    assert res.n_pos == int(big.n_pos.sum()) and res.n_neg == int(big.n_neg.sum())
    assert np.isfinite(rocci.compare_auc(huge).delta_auc_std)
