"""Cross-validation folds: per-fold curves, vertical and threshold averaging, the paired t-test.

The averages are checked against a direct computation written as plain loops
in exact rational arithmetic (vertical: the package's rule for the TPR at a
fixed FPR, docs/conventions.md, from sorted negative scores; threshold:
Fawcett 2004, Algorithm 4, with ROC points built by counting), on random folds
with many tied scores; against a small example worked by hand; against
``vertical_ci`` (the same rule, tied and untied data); and the t-test against
``scipy.stats.ttest_rel``.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from statistics import mean, stdev

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import rocci
from rocci import InputError
from rocci.folds.cv import default_fold_thresholds

# --------------------------------------------------------------------------
# direct computation (loops, fractions)
# --------------------------------------------------------------------------


def tpr_for_fpr(x, y, s):
    """The package's rule (thesis §4.4.1), literally: r = ⌈x·n−⌉; the threshold is the
    r-th largest negative score (+inf for r = 0); TPR = #positives scoring >= it / n+."""
    neg = sorted((si for yi, si in zip(y, s) if not yi), reverse=True)
    pos = [si for yi, si in zip(y, s) if yi]
    r = math.ceil(Fraction(x) * len(neg))
    t = math.inf if r == 0 else neg[r - 1]
    return Fraction(sum(1 for si in pos if si >= t), len(pos))


def split(y, s, f):
    out = {}
    for yi, si, fi in zip(y, s, f):
        out.setdefault(fi, ([], []))
        out[fi][0].append(bool(yi))
        out[fi][1].append(float(si))
    return [out[k] for k in sorted(out)]


def random_folds(seed, n=60, k=4, levels=6):
    """Labels, heavily tied scores and folds, every fold with both classes."""
    rng = np.random.default_rng(seed)
    while True:
        y = rng.integers(0, 2, n)
        s = rng.integers(0, levels, n) / (levels - 1) + 0.3 * y * rng.integers(0, 2, n)
        f = rng.integers(1, k + 1, n)
        ok = all(0 < y[f == j].sum() < (f == j).sum() for j in range(1, k + 1))
        if ok and len(set(f)) == k:
            return y, np.round(s, 6), f


# --------------------------------------------------------------------------
# per-fold curves
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_fold_curves_equal_roc_curve_of_each_fold(seed):
    y, s, f = random_folds(seed)
    res = rocci.fold_roc_curves(y, s, f)
    assert res.folds == [1, 2, 3, 4]
    for fold, curve in zip(res.folds, res.curves):
        direct = rocci.roc_curve(y[f == fold], s[f == fold])
        np.testing.assert_array_equal(curve.thresholds, direct.thresholds)
        np.testing.assert_array_equal(curve.tp, direct.tp)
        np.testing.assert_array_equal(curve.fp, direct.fp)
        assert curve.auc == direct.auc
    frame = res.to_frame()
    assert list(frame.columns) == ["fold", "n_pos", "n_neg", "auc"]
    assert frame["n_pos"].sum() == y.sum() and frame["n_neg"].sum() == (1 - y).sum()
    pts = res.points_frame()
    assert list(pts.columns) == ["fold", "threshold", "fpr", "tpr", "tp", "fp"]
    assert len(pts) == sum(len(c.thresholds) for c in res.curves)


def test_text_folds_and_labels():
    y = ["M", "B", "M", "B", "B", "M"]
    res = rocci.fold_roc_curves(y, [0.9, 0.1, 0.4, 0.5, 0.2, 0.8], ["b", "a", "a", "b", "a", "b"], pos_label="M")
    assert res.folds == ["a", "b"]
    assert res.curve("a").auc == 1.0 and res.curve("b").auc == 1.0


# --------------------------------------------------------------------------
# vertical averaging
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("spread", ["t", "sd", "se"])
def test_vertical_average_equals_direct_loops(seed, spread):
    y, s, f = random_folds(seed, k=3 + seed % 3)
    grid = [Fraction(j, 20) for j in range(21)] + [Fraction(1, 7), Fraction(5, 9)]
    res = rocci.fold_vertical_average(y, s, f, fpr=[float(x) for x in grid], spread=spread, confidence_level=0.9)
    folds = split(y, s, f)
    k = len(folds)
    for j, x in enumerate(grid):
        per_fold = []
        for yy, ss in folds:
            per_fold.append(tpr_for_fpr(x, yy, ss))
        np.testing.assert_allclose(res.fold_tpr[:, j], [float(v) for v in per_fold], rtol=0, atol=1e-12)
        m, sd = float(mean(per_fold)), float(stdev(per_fold))
        half = {"t": stats.t.ppf(0.95, k - 1) * sd / np.sqrt(k), "sd": sd, "se": sd / np.sqrt(k)}[spread]
        assert res.tpr_mean[j] == pytest.approx(m, abs=1e-12)
        assert res.tpr_std[j] == pytest.approx(sd, abs=1e-12)
        assert res.tpr_low[j] == pytest.approx(max(0.0, m - half), abs=1e-12)
        assert res.tpr_high[j] == pytest.approx(min(1.0, m + half), abs=1e-12)


def test_vertical_average_hand_example():
    """The package's rule on two folds worked by hand.

    Fold 1: positives 0.9, 0.6; negatives 0.7, 0.3.  Vertices (FPR, TPR):
    (0, 0), (0, ½) at 0.9, (½, ½) at 0.7, (½, 1) at 0.6, (1, 1) at 0.3.
    Fold 2: positives 0.8, 0.4, 0.4; negatives 0.4, 0.2.  Vertices:
    (0, 0), (0, ⅓) at 0.8, (½, 1) at 0.4 (a diagonal: a positive–negative tie), (1, 1).

    FPR 0: the threshold +inf, TPR 0 in both folds (the bottoms of the vertical segments).
    FPR ¼: r = ⌈¼·2⌉ = 1, the largest negative: fold 1's 0.7 gives ½; fold 2's 0.4 gives 1,
    the upper end of its diagonal (Fawcett would interpolate halfway up it, ⅔); mean ¾.
    FPR ½: r = 1 again: fold 1 reads the bottom of its vertical segment, ½ (Fawcett: the
    top, 1); fold 2 reads 1; mean ¾.
    FPR 1: r = 2, the smallest negative: 1 in both folds.
    """
    y = [1, 1, 0, 0, 1, 1, 1, 0, 0]
    s = [0.9, 0.6, 0.7, 0.3, 0.8, 0.4, 0.4, 0.4, 0.2]
    f = [1, 1, 1, 1, 2, 2, 2, 2, 2]
    res = rocci.fold_vertical_average(y, s, f, fpr=[0, 0.25, 0.5, 1])
    np.testing.assert_allclose(res.fold_tpr, [[0.0, 0.5, 0.5, 1.0], [0.0, 1.0, 1.0, 1.0]])
    np.testing.assert_allclose(res.tpr_mean, [0.0, 0.75, 0.75, 1.0])
    assert res.tpr_std[0] == 0.0 and res.tpr_std[3] == 0.0
    assert res.tpr_std[1] == pytest.approx(np.std([0.5, 1.0], ddof=1))
    frame = res.to_frame()
    assert list(frame.columns) == ["fpr", "tpr_mean", "tpr_std", "tpr_low", "tpr_high", "n_folds"]
    long = res.folds_frame()
    assert list(long.columns) == ["fold", "fpr", "tpr"] and len(long) == 8

    # Threshold averaging on the same folds.
    th = rocci.fold_threshold_average(y, s, f, thresholds=[0.4, 0.6])
    assert th.thresholds.tolist() == [0.6, 0.4]  # decreasing
    # t = 0.6: fold 1 (TPR 1, FPR ½), fold 2 (TPR ⅓, FPR 0).
    np.testing.assert_allclose(th.fold_tpr[:, 0], [1.0, 1 / 3])
    np.testing.assert_allclose(th.fold_fpr[:, 0], [0.5, 0.0])
    assert th.tpr_mean[0] == pytest.approx(2 / 3) and th.fpr_mean[0] == pytest.approx(0.25)
    # t = 0.4: fold 1 (1, ½) and fold 2 (1, ½): no spread.
    assert th.tpr_mean[1] == 1.0 and th.fpr_mean[1] == 0.5
    assert th.tpr_std[1] == 0.0 and th.fpr_std[1] == 0.0
    assert th.tpr_low[1] == th.tpr_high[1] == 1.0


@pytest.mark.parametrize("seed, ties", [(0, "untied"), (1, "tied"), (2, "tied negatives only"),
                                        (3, "ties across classes")])
def test_vertical_average_agrees_with_vertical_ci(seed, ties):
    """One rule for the TPR at a fixed FPR: each fold's TPR at r/n− is vertical_ci's observed TPR
    on that fold's data, at every level, with and without ties."""
    rng = np.random.default_rng(seed)
    n = 240
    y = rng.integers(0, 2, n)
    f = rng.integers(1, 4, n)
    if ties == "untied":
        s = rng.normal(size=n) + y
    elif ties == "tied":
        s = rng.integers(0, 8, n) + 2.0 * y
    elif ties == "tied negatives only":
        s = np.where(y == 1, rng.normal(size=n) + 3, rng.integers(0, 6, n).astype(float))
    else:  # every positive ties with some negative
        s = rng.integers(0, 5, n).astype(float) + y * rng.integers(0, 2, n)
    for fold in (1, 2, 3):
        yy, ss = y[f == fold], s[f == fold]
        n_neg = int((yy == 0).sum())
        levels = np.arange(1, n_neg) / n_neg
        ci = rocci.vertical_ci(yy, ss, fpr=levels)
        assert ci.r.tolist() == list(range(1, n_neg))
        avg = rocci.fold_vertical_average(y, s, f, fpr=levels)
        np.testing.assert_array_equal(avg.fold_tpr[fold - 1], ci.tpr)
        # ... and both equal the literal rule.
        assert [float(tpr_for_fpr(Fraction(r, n_neg), yy.tolist(), ss.tolist())) for r in (1, n_neg // 2)] == \
            [ci.tpr[0], ci.tpr[n_neg // 2 - 1]]


def test_vertical_average_reads_the_bottom_of_a_vertical_segment():
    """The case of issue 13 (ROCR's HIV data disagreed in 8 of 40 cells): at an FPR where the
    curve is vertical, both functions give the bottom, not the top that Fawcett and pROC give."""
    # Negatives 0.9, 0.5, 0.1; positives 0.8, 0.7, 0.6 sit between the first two negatives:
    # the curve is vertical at FPR 1/3, from TPR 0 (threshold 0.9) to TPR 1 (threshold 0.6).
    y = [0, 0, 0, 1, 1, 1] * 2
    s = [0.9, 0.5, 0.1, 0.8, 0.7, 0.6] * 2
    f = [1] * 6 + [2] * 6
    avg = rocci.fold_vertical_average(y, s, f, fpr=[1 / 3, 2 / 3])
    ci = rocci.vertical_ci(y[:6], s[:6], fpr=[1 / 3, 2 / 3])
    np.testing.assert_array_equal(avg.tpr_mean, [0.0, 1.0])
    np.testing.assert_array_equal(ci.tpr, [0.0, 1.0])


def test_vertical_average_default_grid_runs_corner_to_corner():
    y, s, f = random_folds(7)
    res = rocci.fold_vertical_average(y, s, f)
    assert res.fpr.size == 101 and res.fpr[0] == 0 and res.fpr[-1] == 1
    assert np.all(res.tpr_mean[0] == 0.0)  # FPR 0: the threshold +inf
    # FPR 1: the bottom of the last vertical segment, below 1 in a fold whose lowest score is a positive.
    expected = [tpr_for_fpr(1, yy, ss) for yy, ss in split(y, s, f)]
    assert min(expected) < 1
    assert res.tpr_mean[-1] == pytest.approx(float(mean(expected)), abs=1e-15)
    assert np.all(np.diff(res.tpr_mean) >= -1e-12)  # each fold's curve is monotone, so is the mean
    assert np.all(res.tpr_low <= res.tpr_mean + 1e-12) and np.all(res.tpr_mean <= res.tpr_high + 1e-12)


# --------------------------------------------------------------------------
# threshold averaging
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_threshold_average_equals_direct_loops(seed):
    y, s, f = random_folds(seed + 10, k=3)
    thresholds = sorted({float(v) for v in s} | {-1.0, 0.55, 2.0, float("inf")}, reverse=True)
    res = rocci.fold_threshold_average(y, s, f, thresholds=thresholds, spread="t", confidence_level=0.95)
    folds = split(y, s, f)
    k = len(folds)
    for j, t in enumerate(thresholds):
        tprs, fprs = [], []
        for yy, ss in folds:
            n_pos = sum(yy)
            tp = sum(1 for a, b in zip(yy, ss) if a and b >= t)
            fp = sum(1 for a, b in zip(yy, ss) if not a and b >= t)
            tprs.append(Fraction(tp, n_pos))
            fprs.append(Fraction(fp, len(yy) - n_pos))
            assert res.fold_tp[len(tprs) - 1, j] == tp and res.fold_fp[len(fprs) - 1, j] == fp
        q = stats.t.ppf(0.975, k - 1) / np.sqrt(k)
        for got_mean, got_sd, got_lo, got_hi, vals in (
            (res.tpr_mean, res.tpr_std, res.tpr_low, res.tpr_high, tprs),
            (res.fpr_mean, res.fpr_std, res.fpr_low, res.fpr_high, fprs),
        ):
            m, sd = float(mean(vals)), float(stdev(vals))
            assert got_mean[j] == pytest.approx(m, abs=1e-12)
            assert got_sd[j] == pytest.approx(sd, abs=1e-12)
            assert got_lo[j] == pytest.approx(max(0.0, m - q * sd), abs=1e-12)
            assert got_hi[j] == pytest.approx(min(1.0, m + q * sd), abs=1e-12)
    frame = res.to_frame()
    assert list(frame.columns) == ["threshold", "fpr_mean", "fpr_std", "fpr_low", "fpr_high",
                                   "tpr_mean", "tpr_std", "tpr_low", "tpr_high", "n_folds"]
    assert list(res.folds_frame().columns) == ["fold", "threshold", "fpr", "tpr", "tp", "fp"]


def test_default_thresholds_sample_pooled_scores_by_rank():
    scores = np.arange(1000) / 999
    t = default_fold_thresholds(scores, 11)
    assert t[0] == np.inf and t.size == 12
    np.testing.assert_allclose(t[1:], np.linspace(1, 0, 11), atol=1e-3)
    assert t[1] == 1.0 and t[-1] == 0.0
    few = default_fold_thresholds(np.array([0.2, 0.2, 0.5]), 50)
    assert few.tolist() == [np.inf, 0.5, 0.2]
    y, s, f = random_folds(3)
    res = rocci.fold_threshold_average(y, s, f, n_thresholds=5)
    assert res.thresholds[0] == np.inf and res.tpr_mean[0] == 0 and res.fpr_mean[0] == 0
    assert res.tpr_mean[-1] == 1 and res.fpr_mean[-1] == 1


# --------------------------------------------------------------------------
# paired t-test over folds
# --------------------------------------------------------------------------


def two_models(seed, n=300, k=10):
    rng = np.random.default_rng(seed)
    y = np.tile([0, 1], n // 2)
    f = np.repeat(np.arange(1, k + 1), n // k)
    rng.shuffle(f)
    a = y * 1.0 + rng.normal(size=n)
    b = y * 0.7 + rng.normal(size=n) + 0.3 * a
    return y, np.round(a, 1), np.round(b, 1), f


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("measure", ["auc", "error"])
def test_paired_t_test_matches_scipy(measure, alternative):
    y, a, b, f = two_models(1)
    kw = dict(thresholds_a=0.5, thresholds_b=0.3) if measure == "error" else {}
    res = rocci.compare_folds(y, a, b, f, measure=measure, alternative=alternative, confidence_level=0.9, **kw)
    # Direct per-fold values.
    for j, fold in enumerate(res.folds):
        m = f == fold
        if measure == "auc":
            va, vb = rocci.roc_auc(y[m], a[m]).auc, rocci.roc_auc(y[m], b[m]).auc
        else:
            va = np.mean((a[m] >= 0.5) != (y[m] == 1))
            vb = np.mean((b[m] >= 0.3) != (y[m] == 1))
        assert res.value_a[j] == pytest.approx(va, abs=1e-15)
        assert res.value_b[j] == pytest.approx(vb, abs=1e-15)
    ref = stats.ttest_rel(res.value_a, res.value_b, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.df == ref.df == len(res.folds) - 1
    ci = ref.confidence_interval(0.9)
    assert res.low == pytest.approx(ci.low, rel=1e-12)
    assert res.high == pytest.approx(ci.high, rel=1e-12)
    # The seed's formula: t = √k·d̄/S.
    d = res.value_a - res.value_b
    assert res.statistic == pytest.approx(np.sqrt(d.size) * d.mean() / d.std(ddof=1))
    assert list(res.to_frame().columns) == ["fold", "n_pos", "n_neg", "value_a", "value_b", "delta_value"]
    assert res.summary_frame().loc[0, "pvalue"] == res.pvalue


def test_paired_t_test_degenerate_differences():
    y = [0, 1, 0, 1, 0, 1, 0, 1]
    f = [1, 1, 2, 2, 3, 3, 4, 4]
    s = [0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.1, 0.5]
    same = rocci.compare_folds(y, s, s, f)
    assert np.isnan(same.statistic) and np.isnan(same.pvalue) and same.mean == 0
    flipped = rocci.compare_folds(y, s, [-v for v in s], f)  # AUC 1 vs 0 in every fold
    assert flipped.mean == 1.0 and flipped.std == 0.0
    assert flipped.statistic == np.inf and flipped.pvalue == 0.0


# --------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------


def test_bad_input_messages():
    y = [0, 1, 0, 1]
    s = [0.1, 0.9, 0.3, 0.4]
    with pytest.raises(InputError, match="only one fold"):
        rocci.fold_vertical_average(y, s, [1, 1, 1, 1])
    with pytest.raises(InputError, match=r"Fold 2 has no negative instances .*stratified folds"):
        rocci.fold_roc_curves([0, 1, 1, 1], s, [1, 1, 2, 2])
    with pytest.raises(InputError, match="Fold 'b' has no positive"):
        rocci.fold_threshold_average([0, 1, 0, 0], s, ["a", "a", "b", "b"])
    with pytest.raises(InputError, match="missing"):
        rocci.fold_roc_curves(y, s, [1, 1, None, 2])
    with pytest.raises(InputError, match="missing"):
        rocci.fold_roc_curves(y, s, [1.0, 1.0, np.nan, 2.0])
    with pytest.raises(InputError, match="3 values but y_true has 4"):
        rocci.fold_roc_curves(y, s, [1, 1, 2])
    with pytest.raises(InputError, match="spread"):
        rocci.fold_vertical_average(y, s, [1, 1, 2, 2], spread="boxplot")
    with pytest.raises(InputError, match=r"fpr values must be numbers in \[0, 1\]"):
        rocci.fold_vertical_average(y, s, [1, 1, 2, 2], fpr=[0.5, 1.5])
    with pytest.raises(InputError, match="n_thresholds"):
        rocci.fold_threshold_average(y, s, [1, 1, 2, 2], n_thresholds=1)
    with pytest.raises(InputError, match="needs thresholds_a"):
        rocci.compare_folds(y, s, s, [1, 1, 2, 2], measure="error")
    with pytest.raises(InputError, match="measure"):
        rocci.compare_folds(y, s, s, [1, 1, 2, 2], measure="f1")
    with pytest.raises(InputError, match="score_b has 3 values"):
        rocci.compare_folds(y, s, s[:3], [1, 1, 2, 2])
    with pytest.raises(InputError, match="exactly two classes"):
        rocci.fold_roc_curves([0, 1, 2, 1], s, [1, 1, 2, 2])


def test_million_rows_run():
    rng = np.random.default_rng(0)
    n = 1_000_000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    f = rng.integers(0, 10, n)
    start = time.perf_counter()
    rocci.fold_vertical_average(y, s, f)
    rocci.fold_threshold_average(y, s, f)
    rocci.compare_folds(y, s, -s, f)
    print(f"fold averages at 1e6 rows: {time.perf_counter() - start:.1f} s (speed targets live in bench/)")


def test_figures_draw_the_results_as_they_are():
    from rocci.plots import folds as plots_folds

    y, a, b, f = two_models(2, n=200, k=5)
    curves = rocci.fold_roc_curves(y, a, f)
    vert = rocci.fold_vertical_average(y, a, f, spread="se")
    thr = rocci.fold_threshold_average(y, a, f, n_thresholds=8)
    fig = plots_folds.folds_figure(curves, vertical=vert, threshold=thr, name="a<b>")
    by_meta = {tuple(t.meta): t for t in fig.data if t.meta}
    assert sum(1 for t in fig.data if t.meta and t.meta[0] == "fold") == 5
    np.testing.assert_array_equal(by_meta[("vertical-average", "mean")].y, vert.tpr_mean)
    np.testing.assert_array_equal(by_meta[("vertical-average", "band")].y, vert.tpr_high)
    pts = by_meta[("threshold-average", "points")]
    np.testing.assert_array_equal(pts.x, thr.fpr_mean)
    np.testing.assert_allclose(pts.error_y.array, thr.tpr_high - thr.tpr_mean)
    assert "a&lt;b&gt;" in pts.name  # user text is escaped
    assert plots_folds.spread_text("t", 0.9, 5) == "90% t-interval of the mean over 5 folds"
    cmp = rocci.compare_folds(y, a, b, f)
    vals = plots_folds.fold_values_figure(cmp, name_a="a", name_b="b")
    np.testing.assert_array_equal(vals.data[1].y, cmp.value_b)
    pooled = plots_folds.pooled_figure(rocci.roc_curve(y, a), threshold=rocci.threshold_ci(y, a, thresholds=thr.thresholds),
                                       corner=True)
    assert list(pooled.layout.xaxis.range) == pytest.approx([-0.005, 0.505])


# --------------------------------------------------------------------------
# the folds' counts in place of rows (a scan with group=, or {fold: counts})
# --------------------------------------------------------------------------


def cv_rows(seed, n=400, sizes=(0.05, 0.1, 0.15, 0.2, 0.2, 0.3), labels=("fraud", "ok")):
    """Two models with heavy ties (scores on a grid of 0.1), string labels, unequal folds numbered 1, 2, ..., 12
    in steps (so that the folds' text order, 1, 10, 11, 2, ..., differs from their order)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    folds = np.array([1, 2, 3, 10, 11, 12])[rng.choice(len(sizes), n, p=np.asarray(sizes) / sum(sizes))]
    pos = rng.random(n) < 0.35
    a = np.round(pos * 0.8 + rng.normal(size=n), 1)
    b = np.round(pos * 0.5 + rng.normal(size=n) + 0.4 * a, 1)
    return pd.DataFrame({"y": np.where(pos, labels[0], labels[1]), "a": a, "b": b, "fold": folds})


def counts_inputs(rows, model):
    """The folds' counts of ``model``, every way they can be given, each with the keyword arguments it needs."""
    result = rocci.scan(rows, label="y", scores=["a", "b"], pos_label="fraud", group="fold")
    tables = {f: rocci.ScoreCounts.from_frame(part.groupby(model, as_index=False).agg(
        n_pos=("y", lambda v: int((v == "fraud").sum())), n_neg=("y", lambda v: int((v != "fraud").sum()))),
        score=model, pos_label="fraud") for f, part in rows.groupby("fold")}
    arrays = {f: rocci.ScoreCounts.from_arrays(part["y"], part[model], pos_label="fraud")
              for f, part in rows.groupby("fold")}
    return [("scan", result, {"model": model}), ("tables", tables, {}), ("arrays", arrays, {})]


def assert_same_result(got, ref):
    """Every array and frame of two fold results identical (no tolerance)."""
    import pandas as pd

    assert type(got) is type(ref) and got.folds == ref.folds
    pd.testing.assert_frame_equal(got.to_frame(), ref.to_frame(), check_exact=True)
    for name in ("points_frame", "folds_frame", "summary_frame"):
        if hasattr(ref, name):
            pd.testing.assert_frame_equal(getattr(got, name)(), getattr(ref, name)(), check_exact=True)
    for field in ("fold_tpr", "fold_fpr", "fold_tp", "fold_fp", "thresholds", "value_a", "value_b", "n_pos", "n_neg"):
        if hasattr(ref, field):
            np.testing.assert_array_equal(getattr(got, field), getattr(ref, field))
    if hasattr(ref, "curves"):
        for c, r in zip(got.curves, ref.curves):
            for field in ("thresholds", "fpr", "tpr", "tp", "fp"):
                np.testing.assert_array_equal(getattr(c, field), getattr(r, field))
            assert (c.auc, c.n_pos, c.n_neg, c.pos_label) == (r.auc, r.n_pos, r.n_neg, r.pos_label)


@pytest.mark.parametrize("seed", range(3))
def test_fold_functions_from_counts_equal_the_rows(seed):
    rows = cv_rows(seed)
    y, a, f = rows["y"].to_numpy(), rows["a"].to_numpy(), rows["fold"].to_numpy()
    ref_curves = rocci.fold_roc_curves(y, a, f, pos_label="fraud")
    assert ref_curves.folds == [1, 2, 3, 10, 11, 12]
    sizes = ref_curves.to_frame()[["n_pos", "n_neg"]].sum(axis=1)
    assert sizes.max() > 3 * sizes.min()  # unequal folds
    calls = [
        (rocci.fold_roc_curves, {}),
        (rocci.fold_vertical_average, {}),
        (rocci.fold_vertical_average, dict(fpr=[0, 0.1, 0.3, 0.35, 1], spread="sd", confidence_level=0.9)),
        (rocci.fold_threshold_average, {}),
        (rocci.fold_threshold_average, dict(n_thresholds=7, spread="se")),
        (rocci.fold_threshold_average, dict(thresholds=[2.0, 0.5, 0.3, -0.25, -np.inf])),
    ]
    for name, counts, extra in counts_inputs(rows, "a"):
        for fn, kw in calls:
            ref = fn(y, a, f, pos_label="fraud", **kw)
            got = fn(counts, **extra, **kw)
            assert_same_result(got, ref)
            assert got.folds == [1, 2, 3, 10, 11, 12], name
    assert rocci.fold_roc_curves(counts_inputs(rows, "a")[0][1], model="a").pos_label == "fraud"


def test_compare_folds_takes_lists_of_threshold_pairs():
    """measure="error" with lists: one t-test per threshold pair, each the one-pair call's numbers."""
    y, a, b, f = two_models(2)
    ta, tb = [0.5, 0.0, 1.0], [0.3, 0.3, 0.8]
    res = rocci.compare_folds(y, a, b, f, measure="error", thresholds_a=ta, thresholds_b=tb, alternative="less")
    k = len(res.folds)
    assert res.value_a.shape == (3, k) and res.pvalue.shape == (3,) and res.thresholds_a.tolist() == ta
    summary, frame = res.summary_frame(), res.to_frame()
    assert list(summary.columns[:2]) == ["threshold_a", "threshold_b"] and len(summary) == 3
    assert list(frame.columns[:3]) == ["threshold_a", "threshold_b", "fold"] and len(frame) == 3 * k
    for i, (x, z) in enumerate(zip(ta, tb)):
        one = rocci.compare_folds(y, a, b, f, measure="error", thresholds_a=x, thresholds_b=z, alternative="less")
        assert isinstance(one.pvalue, float) and one.thresholds_a == x
        pd.testing.assert_frame_equal(summary.iloc[[i], 2:].reset_index(drop=True), one.summary_frame())
        pd.testing.assert_frame_equal(frame.iloc[i * k:(i + 1) * k, 2:].reset_index(drop=True), one.to_frame())
    assert "one test per threshold pair" in repr(res)
    with pytest.raises(InputError, match="as many of each"):
        rocci.compare_folds(y, a, b, f, measure="error", thresholds_a=[0.1, 0.2], thresholds_b=[0.1, 0.2, 0.3])


@pytest.mark.parametrize("measure,kw", [("auc", {}), ("error", dict(thresholds_a=0.3, thresholds_b=0.1)),
                                        ("error", dict(thresholds_a=[0.3, 0.6], thresholds_b=[0.1, 0.6])),
                                        ("auc", dict(alternative="less", confidence_level=0.8))])
def test_compare_folds_from_counts_equals_the_rows(measure, kw):
    rows = cv_rows(4)
    y, a, b, f = (rows[c].to_numpy() for c in ("y", "a", "b", "fold"))
    ref = rocci.compare_folds(y, a, b, f, pos_label="fraud", measure=measure, **kw)
    # a scan's per-group tables of each model (no pairs needed), and the per-group pair tables
    plain = rocci.scan(rows, label="y", scores=["a", "b"], pos_label="fraud", group="fold")
    assert_same_result(rocci.compare_folds(plain, model_a="a", model_b="b", measure=measure, **kw), ref)
    paired = rocci.scan(rows, label="y", scores=["a", "b"], pos_label="fraud", group="fold", paired=True)
    per_fold = {g: r.paired("a", "b") for g, r in paired.groups.items()}
    assert_same_result(rocci.compare_folds(per_fold, measure=measure, **kw), ref)
    # the other way round is the other difference
    back = {**kw, **({"thresholds_a": kw["thresholds_b"], "thresholds_b": kw["thresholds_a"]}
                     if "thresholds_a" in kw else {})}
    swapped = rocci.compare_folds(plain, model_a="b", model_b="a", measure=measure, **back)
    np.testing.assert_array_equal(swapped.delta_value, -ref.delta_value)


def test_folds_from_counts_with_text_folds_and_zero_one_labels():
    rows = cv_rows(5, labels=(1, 0))
    rows["fold"] = rows["fold"].map({1: "k1", 2: "k2", 3: "k3", 10: "k10", 11: "k11", 12: "k12"})
    y, a, f = rows["y"].to_numpy(), rows["a"].to_numpy(), rows["fold"].to_numpy()
    result = rocci.scan(rows, label="y", scores="a", group="fold")  # one model: model= not needed
    ref = rocci.fold_vertical_average(y, a, f)
    got = rocci.fold_vertical_average(result)
    assert got.folds == ref.folds == ["k1", "k10", "k11", "k12", "k2", "k3"]
    assert_same_result(got, ref)
    assert rocci.fold_roc_curves(result).pos_label == rocci.fold_roc_curves(y, a, f).pos_label == 1


def test_a_fold_with_one_class_gives_the_rows_error_from_counts():
    rows = cv_rows(6)
    rows.loc[rows["fold"] == 11, "y"] = "ok"  # fold 11: negatives only
    rows.loc[rows["fold"] == 2, "y"] = "fraud"  # fold 2: positives only
    y, a, b, f = (rows[c].to_numpy() for c in ("y", "a", "b", "fold"))
    with pytest.raises(InputError) as from_rows:
        rocci.fold_roc_curves(y, a, f, pos_label="fraud")
    message = str(from_rows.value)
    assert message.startswith("Fold 2 has no negative instances") and "2 folds are in this case: 2, 11" in message
    result = rocci.scan(rows, label="y", scores=["a", "b"], pos_label="fraud", group="fold")
    assert sorted(result.groups) == [1, 3, 10, 12]  # a group with one class has no counts of its own...
    assert result.group_sizes[11] == (0, int((rows["fold"] == 11).sum()))  # ...its sizes are kept
    assert result.group_sizes[2] == (int((rows["fold"] == 2).sum()), 0)
    one_class = {g: rocci.ScoreCounts(np.sort(a[(f == g) & (y == "fraud")]), np.sort(a[(f == g) & (y == "ok")]),
                                      pos_label="fraud") for g in np.unique(f)}
    for fn in (rocci.fold_roc_curves, rocci.fold_vertical_average, rocci.fold_threshold_average):
        with pytest.raises(InputError) as got:
            fn(result, model="a")
        assert str(got.value) == message
        with pytest.raises(InputError) as got:
            fn(one_class)
        assert str(got.value) == message
    with pytest.raises(InputError) as from_rows:
        rocci.compare_folds(y, a, b, f, pos_label="fraud")
    with pytest.raises(InputError) as got:
        rocci.compare_folds(result, model_a="a", model_b="b")
    assert str(got.value) == str(from_rows.value) == message


def test_counts_bad_input_messages():
    rows = cv_rows(7)
    result = rocci.scan(rows, label="y", scores=["a", "b"], pos_label="fraud", group="fold")
    pooled = rocci.scan(rows, label="y", scores=["a", "b"], pos_label="fraud")
    y, a, f = rows["y"].to_numpy(), rows["a"].to_numpy(), rows["fold"].to_numpy()
    with pytest.raises(InputError, match=r"2 models \('a', 'b'\): say which one with model="):
        rocci.fold_roc_curves(result)
    with pytest.raises(InputError, match="No model 'c' in this scan"):
        rocci.fold_vertical_average(result, model="c")
    with pytest.raises(InputError, match="no folds: scan again with group="):
        rocci.fold_threshold_average(pooled, model="a")
    with pytest.raises(InputError, match="pooled counts of all folds"):
        rocci.fold_roc_curves(pooled["a"])
    with pytest.raises(InputError, match="not both"):
        rocci.fold_roc_curves(result, a, f)
    with pytest.raises(InputError, match="model= names a model of a rocci.scan result"):
        rocci.fold_roc_curves(y, a, f, model="a", pos_label="fraud")
    with pytest.raises(InputError, match="folds is missing"):
        rocci.fold_roc_curves(y, a, pos_label="fraud")
    with pytest.raises(InputError, match="only one fold"):
        rocci.fold_roc_curves({1: result.groups[1]["a"]})
    with pytest.raises(InputError, match="no folds in these counts"):
        rocci.fold_vertical_average({})
    with pytest.raises(InputError, match=r"Fold 1 holds a PairedCounts: .*paired.model\('a'\)"):
        rocci.fold_roc_curves({1: rocci.PairedCounts(np.array([1.0]), np.array([2.0]), np.array([1]), np.array([1]))})
    with pytest.raises(InputError, match="different positive labels"):
        rocci.fold_roc_curves({1: rocci.ScoreCounts.from_arrays([0, 1], [0.1, 0.2]),
                               2: rocci.ScoreCounts.from_arrays(["x", "z"], [0.1, 0.2], pos_label="z")})
    with pytest.raises(InputError, match="model_a= and model_b="):
        rocci.compare_folds(result)
    with pytest.raises(InputError, match=r"not both \(name the scan's models with model_a= and model_b="):
        rocci.compare_folds(result, "a", "b")
    with pytest.raises(InputError, match="both 'a'"):
        rocci.compare_folds(result, model_a="a", model_b="a")
    with pytest.raises(InputError, match="needs each fold's rocci.PairedCounts"):
        rocci.compare_folds({g: r["a"] for g, r in result.groups.items()})
    with pytest.raises(InputError, match="model_a= and model_b= name models of a rocci.scan result given"):
        rocci.compare_folds(y, a, a, f, model_a="a", pos_label="fraud")
