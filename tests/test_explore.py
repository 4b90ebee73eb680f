"""Threshold explorer backend (rocci.confusion.explorer): confusion matrix and indicators with intervals,
the Tanagra table, gain / precision-recall / reading-rate curves, threshold choosers, binomial test.

Every interval is checked three ways: against a hand computation of its formula, against
the exact law found by enumerating every bootstrap sample of tiny data with ties
(tests/reference/brute.py), and against a seeded Monte Carlo bootstrap.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import rocci
from rocci.confusion.explorer import INDICATORS
from reference import brute
from reference.datasets import TINY, as_labels, mc_tied

ROOT = Path(__file__).resolve().parents[1]
HEART = ROOT / "data" / "heart_disease_test20.csv"
METHODS = ["wilson", "wald", "agresti-coull", "percentile"]


def heart():
    df = pd.read_csv(HEART)
    return df["disease"].to_numpy(), df["score"].to_numpy()


# ---------------------------------------------------------------------------
# The Tanagra tutorial (seed 004)
# ---------------------------------------------------------------------------

# Seed /work/shared/seeds/004_856c8672b8b73c19.txt (Rakotomalala, Tanagra 1.4.33 / R 2.9.2
# tutorial on ROC, gain and precision-recall curves), section 1.3: the 20 test instances
# sorted by decreasing score with a, b, c, d, TRC, rappel, précision, TFP (two decimals).
TANAGRA = [
    # score,  a,  b,  c,  d,  TRC,  rappel, précision, TFP
    (0.9335, 1, 9, 0, 10, 0.05, 0.10, 1.00, 0.00),
    (0.9183, 2, 8, 0, 10, 0.10, 0.20, 1.00, 0.00),
    (0.8897, 2, 8, 1, 9, 0.15, 0.20, 0.67, 0.10),
    (0.8608, 3, 7, 1, 9, 0.20, 0.30, 0.75, 0.10),
    (0.8537, 4, 6, 1, 9, 0.25, 0.40, 0.80, 0.10),
    (0.6427, 4, 6, 2, 8, 0.30, 0.40, 0.67, 0.20),
    (0.5433, 5, 5, 2, 8, 0.35, 0.50, 0.71, 0.20),
    (0.4910, 6, 4, 2, 8, 0.40, 0.60, 0.75, 0.20),
    (0.4468, 7, 3, 2, 8, 0.45, 0.70, 0.78, 0.20),
    (0.4146, 7, 3, 3, 7, 0.50, 0.70, 0.70, 0.30),
    (0.3956, 8, 2, 3, 7, 0.55, 0.80, 0.73, 0.30),
    (0.3696, 8, 2, 4, 6, 0.60, 0.80, 0.67, 0.40),
    (0.3650, 8, 2, 5, 5, 0.65, 0.80, 0.62, 0.50),
    (0.3546, 8, 2, 6, 4, 0.70, 0.80, 0.57, 0.60),
    (0.3446, 9, 1, 6, 4, 0.75, 0.90, 0.60, 0.60),
    (0.2417, 9, 1, 7, 3, 0.80, 0.90, 0.56, 0.70),
    (0.2397, 10, 0, 7, 3, 0.85, 1.00, 0.59, 0.70),
    (0.1620, 10, 0, 8, 2, 0.90, 1.00, 0.56, 0.80),
    (0.1349, 10, 0, 9, 1, 0.95, 1.00, 0.53, 0.90),
    (0.0406, 10, 0, 10, 0, 1.00, 1.00, 0.50, 1.00),
]


def test_tanagra_threshold_table():
    y, s = heart()
    table = rocci.threshold_table(y, s, pos_label="positive").to_frame()
    ref = np.array(TANAGRA)
    assert len(table) == 20
    np.testing.assert_array_equal(table["threshold"], ref[:, 0])
    for col, j in (("tp", 1), ("fn", 2), ("fp", 3), ("tn", 4)):
        np.testing.assert_array_equal(table[col], ref[:, j].astype(int), err_msg=col)
    np.testing.assert_array_equal(table["n_predicted_positive"], np.arange(1, 21))  # #cible
    for col, j in (("total_positive_rate", 5), ("recall", 6), ("precision", 7), ("fpr", 8)):
        # the seed prints two decimals
        np.testing.assert_allclose(table[col], ref[:, j], atol=0.005 + 1e-12, err_msg=col)
    np.testing.assert_array_equal(table["n_at_threshold"], 1)


def test_tanagra_confusion_matrix_at_one_half():
    # Seed 004, section 1.1: at threshold 0.5, a = 5, b = 5, c = 2, d = 8; error 0.35,
    # #cible 7, recall 0.5, precision 5/7 = 0.71, TFP 0.2, specificity 0.8.
    y, s = heart()
    res = rocci.confusion_at(y, s, 0.5, pos_label="positive")
    assert (res.tp, res.fn, res.fp, res.tn) == (5, 5, 2, 8)
    assert res.error_rate == pytest.approx(0.35)
    assert res.n_predicted_positive == 7
    assert res.recall == 0.5 and res.precision == pytest.approx(5 / 7)
    assert res.fpr == pytest.approx(0.2) and res.specificity == pytest.approx(0.8)
    m = res.matrix()
    assert m.values.tolist() == [[5, 5, 10], [2, 8, 10], [7, 13, 20]]
    assert list(m.columns) == ["Predicted positive", "Predicted negative", "Total"]


# ---------------------------------------------------------------------------
# Hand computations
# ---------------------------------------------------------------------------


def _wilson(k, m, level):
    z = stats.norm.ppf(0.5 + level / 2)
    p = k / m
    centre = p + z * z / (2 * m)
    half = z * math.sqrt(p * (1 - p) / m + z * z / (4 * m * m))
    return (centre - half) / (1 + z * z / m), (centre + half) / (1 + z * z / m)


def test_values_and_wilson_intervals_by_hand():
    # positives 0.9 0.7 0.5 0.5, negatives 0.8 0.5 0.4 0.4 0.1; threshold 0.5 (ties at it count positive)
    pos, neg = TINY["brief"]
    y, s = as_labels(pos, neg)
    res = rocci.confusion_at(y, s, 0.5, confidence_level=0.9)
    assert (res.tp, res.fn, res.fp, res.tn) == (4, 0, 2, 3)
    expect = {  # indicator: (successes, trials, value)
        "accuracy": (7, 9, 7 / 9),
        "error_rate": (2, 9, 2 / 9),
        "precision": (4, 6, 4 / 6),
        "recall": (4, 4, 1.0),
        "specificity": (3, 5, 0.6),
        "fpr": (2, 5, 0.4),
        "f1": (4, 6, 8 / 10),  # J = 4/6, F1 = 2·4/(2·4 + 2 + 0)
        "total_positive_rate": (6, 9, 6 / 9),
    }
    frame = res.to_frame().set_index("indicator")
    assert list(frame.index) == list(INDICATORS)
    for name, (k, m, value) in expect.items():
        row = frame.loc[name]
        assert (row["successes"], row["trials"]) == (k, m), name
        assert row["value"] == pytest.approx(value), name
        lo, hi = _wilson(k, m, 0.9)
        if name == "f1":
            lo, hi = 2 * lo / (1 + lo), 2 * hi / (1 + hi)
        assert row["low"] == pytest.approx(lo, abs=1e-12), name
        assert row["high"] == pytest.approx(hi, abs=1e-12), name
    assert res.f1 == pytest.approx(2 * res.precision * res.recall / (res.precision + res.recall))
    assert res.interval("recall").high == 1.0  # k = m: Wilson's exact boundary
    assert set(frame["bootstrap"]) == {"stratified", "full", "full, given TP+FP", "full, given TP+FP+FN"}
    assert all(m.startswith("Wilson; ") for m in frame["method"])
    assert "Bin(TP + FP, precision)" in frame.loc["precision", "method"]
    assert "2J/(1 + J)" in frame.loc["f1", "method"]


@pytest.mark.parametrize("method", ["wilson", "wald", "agresti-coull"])
def test_accuracy_and_error_rate_intervals_are_complements(method):
    y, s = heart()
    res = rocci.confusion_at(y, s, 0.4, pos_label="positive", method=method)
    acc, err = res.interval("accuracy"), res.interval("error_rate")
    assert acc.low == pytest.approx(1 - err.high, abs=1e-12)
    assert acc.high == pytest.approx(1 - err.low, abs=1e-12)
    spec, fpr = res.interval("specificity"), res.interval("fpr")
    assert spec.low == pytest.approx(1 - fpr.high, abs=1e-12)


def test_agresti_coull_pseudo_counts_share_cost_ci_name_and_default():
    """``add``: the name and default (rocci.cost.AGRESTI_ADD, thesis table 5.1) of cost_ci's pseudo-counts."""
    import inspect

    from rocci.cost import AGRESTI_ADD

    default = inspect.signature(rocci.confusion_at).parameters["add"].default
    assert default == AGRESTI_ADD == inspect.signature(rocci.cost_ci).parameters["add"].default == 2.0
    pos, neg = TINY["brief"]
    y, s = as_labels(pos, neg)
    res = rocci.confusion_at(y, s, 0.5, method="agresti-coull", confidence_level=0.9)
    assert res.add == 2.0
    z = stats.norm.isf(0.05)
    for add in (2.0, 0.5, 0.0):
        got = rocci.confusion_at(y, s, 0.5, method="agresti-coull", confidence_level=0.9, add=add)
        # specificity: TN = 3 of n− = 5; p̃ = (3 + add)/(5 + 2·add), then Wald with 5 + 2·add.
        m = 5 + 2 * add
        p = (3 + add) / m
        half = z * math.sqrt(p * (1 - p) / m)
        assert got.interval("specificity") == pytest.approx((p - half, p + half), abs=1e-12)
    # Other methods ignore it.
    assert rocci.confusion_at(y, s, 0.5, add=0.5).interval("fpr") == rocci.confusion_at(y, s, 0.5).interval("fpr")
    with pytest.raises(rocci.InputError, match="add"):
        rocci.confusion_at(y, s, 0.5, add=-1)


def test_recall_and_fpr_intervals_are_threshold_ci_marginals():
    pos, neg = mc_tied()
    y, s = as_labels(pos, neg)
    for method in METHODS:
        for t in (0.2, 0.5, 0.8):
            res = rocci.confusion_at(y, s, t, method=method, confidence_level=0.9)
            ci = rocci.threshold_ci(y, s, thresholds=[t], method=method, region="marginal", confidence_level=0.9)
            assert res.interval("recall") == pytest.approx((ci.tpr_low[0], ci.tpr_high[0]))
            assert res.interval("fpr") == pytest.approx((ci.fpr_low[0], ci.fpr_high[0]))


def test_extreme_thresholds():
    pos, neg = TINY["brief"]
    y, s = as_labels(pos, neg)
    none = rocci.confusion_at(y, s, np.inf)
    assert (none.tp, none.fp, none.n_predicted_positive) == (0, 0, 0)
    assert np.isnan(none.precision)
    assert np.isnan(none.interval("precision").low) and np.isnan(none.interval("precision").high)
    assert none.f1 == 0.0 and none.interval("f1").low == 0.0
    above = rocci.confusion_at(y, s, 5.0)
    assert above.tp == 0 and np.isnan(above.precision)
    every = rocci.confusion_at(y, s, -np.inf)
    assert (every.tp, every.fp) == (4, 5) and every.recall == 1.0 and every.specificity == 0.0
    assert every.precision == pytest.approx(4 / 9)
    # a threshold between scores is the same as the next score up
    a, b = rocci.confusion_at(y, s, 0.45), rocci.confusion_at(y, s, 0.5)
    np.testing.assert_array_equal(a.value, b.value)


# ---------------------------------------------------------------------------
# Enumeration of every bootstrap sample (tiny data with ties)
# ---------------------------------------------------------------------------


def _full_bootstrap_cells(pos, neg, t):
    """Every full-bootstrap sample (n draws from the pooled data) as (TP*, FP*, FN*, TN*) and weights."""
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    n = pos.size + neg.size
    counts, weights = brute.class_samples(n, n)
    is_pos = np.r_[np.ones(pos.size, bool), np.zeros(neg.size, bool)]
    called = np.r_[pos >= t, neg >= t]
    cells = np.stack([
        counts @ (is_pos & called), counts @ (~is_pos & called),
        counts @ (is_pos & ~called), counts @ (~is_pos & ~called),
    ], axis=1)
    return cells, weights.tolist(), n**n


def _law(keys, weights, denom, keep=None):
    acc: dict = {}
    for i, (k, w) in enumerate(zip(keys, weights)):
        if keep is not None and not keep[i]:
            continue
        acc[k] = acc.get(k, 0) + w
    total = sum(acc.values())
    return {k: Fraction(w, total if keep is not None else denom) for k, w in sorted(acc.items())}


def _binomial_law(m, p):
    return {k: stats.binom.pmf(k, m, float(p)) for k in range(m + 1)}


def _assert_law(law, ref, what):
    for k in set(law) | set(ref):
        assert float(law.get(k, 0)) == pytest.approx(ref.get(k, 0.0), abs=1e-12), (what, k)


@pytest.mark.parametrize("name", list(TINY))
@pytest.mark.parametrize("t", [0.75, 0.5, 0.35])
def test_full_bootstrap_laws_by_enumeration(name, t):
    """Errors, correct decisions and predicted positives are Bin(n, ·); TP* given TP*+FP* = TP+FP is
    Bin(TP+FP, precision); TP* given TP*+FP*+FN* = TP+FP+FN is Bin(TP+FP+FN, J).  The percentile
    intervals are the quantiles of these enumerated laws."""
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    res = rocci.confusion_at(y, s, t, method="percentile", confidence_level=0.8)
    cells, w, denom = _full_bootstrap_cells(pos, neg, t)
    tp, fp, fn, tn = cells.T
    n = len(pos) + len(neg)
    laws = {
        "error_rate": (_law((fp + fn).tolist(), w, denom), res.errors, n),
        "accuracy": (_law((tp + tn).tolist(), w, denom), res.tp + res.tn, n),
        "total_positive_rate": (_law((tp + fp).tolist(), w, denom), res.n_predicted_positive, n),
    }
    k_pred = res.tp + res.fp
    if k_pred > 0:
        laws["precision"] = (_law(tp.tolist(), w, denom, keep=(tp + fp) == k_pred), res.tp, k_pred)
    k_nt = res.tp + res.fp + res.fn
    laws["f1"] = (_law(tp.tolist(), w, denom, keep=(tp + fp + fn) == k_nt), res.tp, k_nt)
    for what, (law, k, m) in laws.items():
        _assert_law(law, _binomial_law(m, Fraction(k, m)), what)
        lo = brute.law_quantile({Fraction(v, m): p for v, p in law.items()}, Fraction(1, 10))
        hi = brute.law_quantile({Fraction(v, m): p for v, p in law.items()}, 1 - Fraction(1, 10))
        if what == "f1":  # the J interval mapped by 2J/(1 + J)
            lo, hi = 2 * lo / (1 + lo), 2 * hi / (1 + hi)
        got = res.interval(what)
        assert got.low == pytest.approx(float(lo), abs=1e-12), what
        assert got.high == pytest.approx(float(hi), abs=1e-12), what
    # F1* itself, given TP*+FP*+FN* = k: 2TP*/(TP* + k), quantiles = the mapped J quantiles
    keep = (tp + fp + fn) == k_nt
    f1_law = _law([Fraction(2 * int(a_), int(a_) + k_nt) for a_ in tp], w, denom, keep=keep)
    assert float(brute.law_quantile(f1_law, Fraction(1, 10))) == pytest.approx(res.interval("f1").low, abs=1e-12)
    assert float(brute.law_quantile(f1_law, Fraction(9, 10))) == pytest.approx(res.interval("f1").high, abs=1e-12)


@pytest.mark.parametrize("name", list(TINY))
def test_stratified_laws_by_enumeration(name):
    """Recall, FPR and specificity: percentile intervals = quantiles of the enumerated stratified laws."""
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    ex = brute.enumerate_bootstrap(pos, neg, levels=[], auc=False)
    for j, t in enumerate(ex.thresholds):
        res = rocci.confusion_at(y, s, t, method="percentile", confidence_level=0.8)
        for what, law in (("recall", ex.tpr[j]), ("fpr", ex.fpr[j])):
            got = res.interval(what)
            assert got.low == pytest.approx(float(brute.law_quantile(law, Fraction(1, 10))), abs=1e-12)
            assert got.high == pytest.approx(float(brute.law_quantile(law, Fraction(9, 10))), abs=1e-12)
        spec_law = {1 - v: p for v, p in ex.fpr[j].items()}  # TN* = n− − FP*
        got = res.interval("specificity")
        assert got.low == pytest.approx(float(brute.law_quantile(spec_law, Fraction(1, 10))), abs=1e-12)
        assert got.high == pytest.approx(float(brute.law_quantile(spec_law, Fraction(9, 10))), abs=1e-12)


# ---------------------------------------------------------------------------
# Seeded Monte Carlo bootstrap
# ---------------------------------------------------------------------------


def _pmf_close(exact: dict, values: np.ndarray, what: str):
    """Empirical frequencies within n_se standard errors of the exact pmf (floored p, Bonferroni)."""
    B = values.size
    vals, cnt = np.unique(values, return_counts=True)
    emp = dict(zip(vals.tolist(), (cnt / B).tolist()))
    keys = set(exact) | set(emp)
    n_se = max(4.5, float(stats.norm.isf(1e-5 / (2 * len(keys)))))
    for k in keys:
        p, q = exact.get(k, 0.0), emp.get(k, 0.0)
        se = math.sqrt(max(p, 10.0 / B) * (1 - min(p, 0.999999)) / B)
        assert abs(p - q) <= n_se * se, (what, k, p, q)


@pytest.mark.montecarlo
def test_monte_carlo_full_bootstrap():
    pos, neg = mc_tied()
    y, s = as_labels(pos, neg)
    t = 0.5
    res = rocci.confusion_at(y, s, t)
    n = y.size
    is_pos = y == 1
    called = s >= t
    rng = np.random.default_rng(20261122)
    B = 200_000
    draws = rng.integers(0, n, size=(B, n))
    tp = (is_pos & called)[draws].sum(1)
    fp = (~is_pos & called)[draws].sum(1)
    fn = (is_pos & ~called)[draws].sum(1)
    _pmf_close({k: stats.binom.pmf(k, n, res.errors / n) for k in range(n + 1)}, fp + fn, "errors")
    k_pred = res.n_predicted_positive
    sel = (tp + fp) == k_pred
    assert sel.sum() > 5000
    _pmf_close({k: stats.binom.pmf(k, k_pred, res.precision) for k in range(k_pred + 1)}, tp[sel], "precision")
    k_nt = res.tp + res.fp + res.fn
    sel = (tp + fp + fn) == k_nt
    assert sel.sum() > 5000
    J = res.tp / k_nt
    _pmf_close({k: stats.binom.pmf(k, k_nt, J) for k in range(k_nt + 1)}, tp[sel], "f1 (J)")
    # the F1 percentile interval = Monte Carlo quantiles of F1* among those samples
    f1 = 2 * tp[sel] / (tp[sel] + k_nt)
    pct = rocci.confusion_at(y, s, t, method="percentile")
    lo_mc, hi_mc = brute.empirical_quantile(f1, 0.025), brute.empirical_quantile(f1, 0.975)
    step = 2 / (2 * k_nt)  # about one lattice step of F1 near the quantiles
    assert abs(pct.interval("f1").low - lo_mc) <= step and abs(pct.interval("f1").high - hi_mc) <= step


@pytest.mark.montecarlo
def test_monte_carlo_stratified_bootstrap():
    pos, neg = mc_tied()
    y, s = as_labels(pos, neg)
    t = 0.5
    res = rocci.confusion_at(y, s, t)
    rng = np.random.default_rng(7)
    B = 200_000
    tp = (pos >= t)[rng.integers(0, pos.size, size=(B, pos.size))].sum(1)
    fp = (neg >= t)[rng.integers(0, neg.size, size=(B, neg.size))].sum(1)
    _pmf_close({k: stats.binom.pmf(k, pos.size, res.recall) for k in range(pos.size + 1)}, tp, "recall")
    _pmf_close({k: stats.binom.pmf(k, neg.size, res.fpr) for k in range(neg.size + 1)}, fp, "fpr")


# ---------------------------------------------------------------------------
# Ties, table and curves
# ---------------------------------------------------------------------------


def test_table_groups_ties_and_matches_confusion_at():
    pos, neg = mc_tied()
    y, s = as_labels(pos, neg)
    table = rocci.threshold_table(y, s).to_frame()
    distinct = np.unique(s)[::-1]
    np.testing.assert_array_equal(table["threshold"], distinct)
    assert table["n_at_threshold"].sum() == y.size
    assert (table["n_at_threshold"] > 1).any()
    for i in (0, 3, len(table) // 2, len(table) - 1):
        row = table.iloc[i]
        res = rocci.confusion_at(y, s, row["threshold"])
        assert (row["tp"], row["fn"], row["fp"], row["tn"]) == (res.tp, res.fn, res.fp, res.tn)
        for name in ("recall", "precision", "fpr", "specificity", "accuracy", "error_rate", "f1"):
            assert row[name] == pytest.approx(getattr(res, name)), name
        assert row["total_positive_rate"] == pytest.approx(res.total_positive_rate)
        assert row["lift"] == pytest.approx(res.precision / (pos.size / y.size))
    # brute force counts
    t = table["threshold"].to_numpy()
    np.testing.assert_array_equal(table["tp"], [(pos >= v).sum() for v in t])
    np.testing.assert_array_equal(table["fp"], [(neg >= v).sum() for v in t])


def test_gain_and_precision_recall_curves():
    y, s = heart()
    table = rocci.threshold_table(y, s, pos_label="positive").to_frame()
    gain = rocci.gain_curve(y, s, pos_label="positive").to_frame()
    assert gain.iloc[0][["total_positive_rate", "recall", "tp"]].tolist() == [0.0, 0.0, 0]
    assert np.isinf(gain["threshold"].iloc[0]) and np.isnan(gain["lift"].iloc[0])
    np.testing.assert_allclose(gain["total_positive_rate"].iloc[1:], table["total_positive_rate"])
    np.testing.assert_allclose(gain["recall"].iloc[1:], table["recall"])
    assert gain.iloc[-1][["total_positive_rate", "recall"]].tolist() == [1.0, 1.0]
    # seed 004's R function cum_lift_curve: x = c(0, (1:n)/n), y = c(0, cumsum(sorted y)/pos)
    order = np.argsort(-s, kind="stable")
    yy = (y[order] == "positive").astype(int)
    np.testing.assert_allclose(gain["recall"], np.r_[0, np.cumsum(yy) / yy.sum()])
    pr = rocci.pr_curve(y, s, pos_label="positive", interpolate=False).to_frame()
    # seed 004's recall_prec: x = cumsum/pos, y = cumsum/(1:n)
    np.testing.assert_allclose(pr["recall"], np.cumsum(yy) / yy.sum())
    np.testing.assert_allclose(pr["precision"], np.cumsum(yy) / np.arange(1, 21))
    assert pr["precision"].iloc[-1] == 0.5  # the share of positives
    d = np.diff(pr["precision"].to_numpy())
    assert (d > 0).any() and (d < 0).any()  # not monotone


def test_reading_curve_is_mlstatpy_definition_and_not_monotone():
    # mlstatpy (seeds 001/002): R'(s) = (1/n) Σ 1{X_i >= s}, E'(s) = Σ (1 − θ_i) 1{X_i >= s} / (n R'(s)),
    # θ_i = 1 when the answer is right (our positive class).
    pos, neg = mc_tied()
    y, s = as_labels(pos, neg)
    curve = rocci.reading_curve(y, s).to_frame()
    for _, row in curve.iterrows():
        above = s >= row["threshold"]
        r = above.mean()
        assert row["total_positive_rate"] == pytest.approx(r)
        assert row["substitution_rate"] == pytest.approx(((1 - y) * above).sum() / (y.size * r))
    e = np.diff(curve["substitution_rate"].to_numpy())
    assert (e > 0).any() and (e < 0).any()
    assert (np.diff(curve["total_positive_rate"].to_numpy()) > 0).all()
    hy, hs = heart()
    hc = rocci.reading_curve(hy, hs, pos_label="positive").to_frame()
    # Tanagra table: the 3rd instance (0.8897) is wrong: E' goes 0, 0, 1/3, then 1/4 (right answer).
    np.testing.assert_allclose(hc["substitution_rate"].iloc[:4], [0, 0, 1 / 3, 1 / 4])


# ---------------------------------------------------------------------------
# Choosing a threshold
# ---------------------------------------------------------------------------


def _youden_brute(y, s):
    best, best_t = -np.inf, None
    n_pos, n_neg = (y == 1).sum(), (y == 0).sum()
    for t in sorted(set(s.tolist()), reverse=True):
        j = Fraction(int(((s >= t) & (y == 1)).sum()), int(n_pos)) - Fraction(int(((s >= t) & (y == 0)).sum()),
                                                                               int(n_neg))
        if j > best:
            best, best_t = j, t
    return best_t


def test_youden_threshold():
    y, s = heart()
    # J = 0.7 − 0.2 = 0.5 at 0.4468 and 0.8 − 0.3 = 0.5 at 0.3956: the tie goes to the higher one
    assert rocci.youden_threshold(y, s, pos_label="positive") == 0.4468
    rng = np.random.default_rng(3)
    for _ in range(20):
        n = int(rng.integers(5, 60))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = np.round(rng.normal(size=n) + 0.8 * y, 1)
        t = rocci.youden_threshold(y, s)
        assert t == _youden_brute(y, s)
        w_half = rocci.cost_threshold(y, s, w=0.5)
        if np.isfinite(w_half):
            assert t == w_half


def test_rate_threshold():
    y, s = heart()
    assert rocci.rate_threshold(y, s, 0.35, pos_label="positive") == 0.5433  # 7th largest
    assert rocci.rate_threshold(y, s, 0.0, pos_label="positive") == np.inf
    assert rocci.rate_threshold(y, s, 1.0, pos_label="positive") == 0.0406
    res = rocci.confusion_at(y, s, rocci.rate_threshold(y, s, 0.3, pos_label="positive"), pos_label="positive")
    assert res.total_positive_rate == pytest.approx(0.3)


def test_cost_threshold_minimises_expected_cost():
    pos, neg = mc_tied()
    y, s = as_labels(pos, neg)
    t_all = np.r_[np.inf, np.unique(s)[::-1]]
    for p_pos, c_fn, c_fp in [(None, 1.0, 1.0), (0.2, 5.0, 1.0), (0.5, 1.0, 1.0), (0.9, 1.0, 4.0), (0.05, 1.0, 1.0)]:
        t = rocci.cost_threshold(y, s, p_pos=p_pos, cost_fn=c_fn, cost_fp=c_fp)
        p = pos.size / y.size if p_pos is None else p_pos
        w = rocci.operating_point(p, c_fn, c_fp)
        assert t == rocci.cost_curve(y, s, w=[w]).threshold[0]
        nec = np.array([w * (1 - (pos >= v).mean()) + (1 - w) * (neg >= v).mean() for v in t_all])
        best = np.flatnonzero(nec <= nec.min() + 1e-12)[0]  # ties -> highest threshold
        assert t == t_all[best]
    assert rocci.cost_threshold(y, s, w=0.0) == np.inf
    # the data's own prior and equal costs: the threshold of highest accuracy (ties -> highest threshold)
    table = rocci.threshold_table(y, s).to_frame()
    acc = np.r_[neg.size / y.size, table["accuracy"]]
    best = np.flatnonzero(acc >= acc.max() - 1e-12)[0]
    assert rocci.cost_threshold(y, s) == np.r_[np.inf, table["threshold"]][best]


# ---------------------------------------------------------------------------
# Binomial test (seed 003) against scipy
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_binomial_test_against_scipy(alternative):
    cases = [(7, 20, 0.5), (0, 20, 0.1), (20, 20, 0.3), (3, 50, 0.1), (12, 50, 0.1), (5, 10, 0.5),
             (1, 1, 0.5), (40, 300, 0.2), (150, 1000, 0.15), (2, 7, 0.9999), (1, 9, 1e-4)]
    for k, n, p0 in cases:
        for level in (0.9, 0.95):
            res = rocci.binomial_test(k, n, p0, alternative=alternative, confidence_level=level)
            ref = stats.binomtest(k, n, p0, alternative=alternative)
            assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-15), (k, n, p0)
            ci = ref.proportion_ci(confidence_level=level, method="exact")
            assert res.error_rate_low == pytest.approx(ci.low, rel=1e-9, abs=1e-15), (k, n, p0)
            assert res.error_rate_high == pytest.approx(ci.high, rel=1e-9, abs=1e-15), (k, n, p0)
            assert res.error_rate == k / n


def test_binomial_test_by_hand():
    # seed 003: reject p <= p0 when P(X >= e) = Σ_{x=e}^{N} C(N, x) p0^x (1 − p0)^(N − x) < α
    e, N, p0 = 7, 20, 0.2
    tail = sum(Fraction(math.comb(N, x)) * Fraction(1, 5) ** x * Fraction(4, 5) ** (N - x) for x in range(e, N + 1))
    res = rocci.binomial_test(e, N, p0, alternative="greater")
    assert res.pvalue == pytest.approx(float(tail), rel=1e-12)
    assert res.error_rate_high == 1.0 and 0 < res.error_rate_low < e / N
    frame = res.to_frame()
    assert frame.iloc[0]["alternative"] == "greater" and frame.iloc[0]["errors"] == 7


# ---------------------------------------------------------------------------
# Bad input and scale
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda y, s: rocci.confusion_at(y, s, np.nan), "NaN"),
        (lambda y, s: rocci.confusion_at(y, s, "high"), "must be a number"),
        (lambda y, s: rocci.confusion_at(y, s, None), "needs a threshold"),
        (lambda y, s: rocci.confusion_at(y, s, [0.1, 0.2]), "one number"),
        (lambda y, s: rocci.confusion_at(y, s, 0.5, method="exact"), "method"),
        (lambda y, s: rocci.confusion_at(y, s, 0.5, confidence_level=95), "strictly between 0 and 1"),
        (lambda y, s: rocci.confusion_at(y[2:5], s, 0.5), "has 9 values but y_true has 3"),
        (lambda y, s: rocci.confusion_at(np.zeros(9), s, 0.5), "no positive"),
        (lambda y, s: rocci.rate_threshold(y, s, 1.5), "rate"),
        (lambda y, s: rocci.rate_threshold(y, s, "a lot"), "rate"),
        (lambda y, s: rocci.cost_threshold(y, s, p_pos=1.0), "p_pos"),
        (lambda y, s: rocci.cost_threshold(y, s, cost_fn=0, cost_fp=0), "both be 0"),
        (lambda y, s: rocci.cost_threshold(y, s, w=2), "w"),
        (lambda y, s: rocci.youden_threshold(y, s * np.nan), "missing"),
        (lambda y, s: rocci.binomial_test(3, 20, 0.0), "p0"),
        (lambda y, s: rocci.binomial_test(3, 20, 1.0), "p0"),
        (lambda y, s: rocci.binomial_test(3, 20, 1.5), "p0"),
        (lambda y, s: rocci.binomial_test(3, 20, "abc"), "p0"),
        (lambda y, s: rocci.binomial_test(3, 20, np.nan), "p0"),
        (lambda y, s: rocci.binomial_test(21, 20, 0.5), "cannot exceed"),
        (lambda y, s: rocci.binomial_test(-1, 20, 0.5), "at least 0"),
        (lambda y, s: rocci.binomial_test(2.5, 20, 0.5), "whole number"),
        (lambda y, s: rocci.binomial_test(0, 0, 0.5), "at least 1"),
        (lambda y, s: rocci.binomial_test(3, 20, 0.5, alternative="bigger"), "alternative"),
    ],
)
def test_bad_input(call, match):
    y, s = as_labels(*TINY["brief"])
    with pytest.raises(rocci.InputError, match=match):
        call(y, s)


def test_a_million_rows_run_fast():
    rng = np.random.default_rng(0)
    n = 1_000_000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    start = time.perf_counter()
    res = rocci.confusion_at(y, s, 0.5)
    table = rocci.threshold_table(y, s)
    rocci.gain_curve(y, s)
    rocci.pr_curve(y, s, interpolate=False)
    rocci.reading_curve(y, s)
    t_y = rocci.youden_threshold(y, s)
    rocci.cost_threshold(y, s, p_pos=0.1, cost_fn=5)
    rocci.rate_threshold(y, s, 0.2)
    rocci.binomial_test(res.errors, res.n, 0.3)
    elapsed = time.perf_counter() - start
    print(f"explorer backend at 1e6 rows: {elapsed:.1f} s (speed targets live in bench/)")
    assert len(table) == np.unique(s).size
    assert res.tp == int((s[y] >= 0.5).sum()) and res.fp == int((s[~y] >= 0.5).sum())
    assert np.isfinite(t_y)
