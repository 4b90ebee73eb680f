"""Several classes: one-vs-rest curves and the correct-vs-top-score curve (seed 002)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci import InputError
from rocci.folds.multiclass import class_columns, match_score_columns

DATA = Path(__file__).resolve().parents[1] / "data"


def three_classes(seed=0, n=90):
    rng = np.random.default_rng(seed)
    y = np.array(["x", "y", "z"])[rng.integers(0, 3, n)]
    raw = rng.integers(0, 5, (n, 3)).astype(float)  # many ties
    raw[np.arange(n), np.searchsorted(["x", "y", "z"], y)] += rng.integers(0, 3, n)
    return y, raw / raw.sum(axis=1, keepdims=True).clip(min=1)


@pytest.mark.parametrize("seed", range(3))
def test_one_vs_rest_equals_binary_functions_on_relabelled_data(seed):
    y, S = three_classes(seed)
    res = rocci.one_vs_rest(y, S, confidence_level=0.9, fpr=[0.1, 0.3, 0.5], total_positive_rate=[0.2, 0.5])
    assert res.classes == ["x", "y", "z"]
    for j, cls in enumerate(res.classes):
        b = (y == cls).astype(int)  # relabel by hand: this class 1, the rest 0
        s = S[:, j]
        direct = rocci.roc_curve(b, s)
        np.testing.assert_array_equal(res.curves[j].thresholds, direct.thresholds)
        np.testing.assert_array_equal(res.curves[j].tp, direct.tp)
        np.testing.assert_array_equal(res.curves[j].fp, direct.fp)
        auc = rocci.roc_auc(b, s, confidence_level=0.9)
        assert (res.aucs[j].auc, res.aucs[j].auc_low, res.aucs[j].auc_high) == (auc.auc, auc.auc_low, auc.auc_high)
        v = rocci.vertical_ci(b, s, fpr=[0.1, 0.3, 0.5], confidence_level=0.9)  # one_vs_rest uses vertical_ci's default
        np.testing.assert_array_equal(res.vertical[j].tpr_low, v.tpr_low)
        np.testing.assert_array_equal(res.vertical[j].tpr_high, v.tpr_high)
        t = rocci.threshold_ci(b, s, total_positive_rate=[0.2, 0.5], confidence_level=0.9)
        np.testing.assert_array_equal(res.threshold[j].tpr_low, t.tpr_low)
        np.testing.assert_array_equal(res.threshold[j].fpr_high, t.fpr_high)
    frame = res.to_frame()
    assert list(frame.columns) == ["class", "n_pos", "n_neg", "auc", "auc_std", "auc_low", "auc_high", "auc_method"]
    assert frame["n_pos"].sum() == y.size
    assert set(res.curve_frame()["class"]) == {"x", "y", "z"}
    assert len(res.vertical_frame()) == 9


def test_one_vs_rest_with_explicit_column_order_and_numeric_labels():
    y, S = three_classes(4)
    codes = np.searchsorted(["x", "y", "z"], y) + 1  # labels 1, 2, 3
    order = [3, 1, 2]
    res = rocci.one_vs_rest(codes, S[:, [2, 0, 1]], classes=order, intervals=False)
    assert res.classes == order and res.vertical is None
    for j, cls in enumerate(order):
        assert res.curves[j].auc == rocci.roc_curve(codes == cls, S[:, cls - 1]).auc
    # A DataFrame works too.
    df = pd.DataFrame(S, columns=["x", "y", "z"])
    assert rocci.one_vs_rest(y, df, intervals=False).curves[1].auc == res.curves[2].auc


def test_top_score_curve_hand_example():
    """Seed 002, case 2: b = [S(y) is the top score], s = the top score.

    Row 1 (a): top 0.8 for a, correct.   Row 2 (b): top 0.6 for a, wrong.
    Row 3 (c): top 0.5 for c, correct.   Row 4 (a): 0.45 for a and b tied at the top, correct.
    Row 5 (c): top 0.7 for b, wrong.
    Correct scores 0.8, 0.5, 0.45; wrong scores 0.6, 0.7.  Pairs (correct > wrong): 0.8 beats both,
    so AUC = 2/6; the curve: t = 0.8 (TPR ⅓, FPR 0), 0.7 (⅓, ½), 0.6 (⅓, 1), 0.5 (⅔, 1), 0.45 (1, 1).
    """
    y = ["a", "b", "c", "a", "c"]
    S = [[0.8, 0.1, 0.1], [0.6, 0.3, 0.1], [0.2, 0.3, 0.5], [0.45, 0.45, 0.1], [0.1, 0.7, 0.2]]
    res = rocci.top_score_curve(y, S)
    assert res.correct.tolist() == [True, False, True, True, False]
    assert res.top_score.tolist() == [0.8, 0.6, 0.5, 0.45, 0.7]
    assert res.predicted.tolist() == ["a", "a", "c", "a", "b"]
    assert res.accuracy == 0.6 and res.n_correct == 3 and res.n_wrong == 2
    assert res.auc == pytest.approx(2 / 6)
    assert res.curve.thresholds.tolist() == [np.inf, 0.8, 0.7, 0.6, 0.5, 0.45]
    np.testing.assert_allclose(res.curve.tpr, [0, 1 / 3, 1 / 3, 1 / 3, 2 / 3, 1])
    np.testing.assert_allclose(res.curve.fpr, [0, 0, 0.5, 1, 1, 1])
    assert list(res.to_frame().columns) == ["threshold", "fpr", "tpr", "tp", "fp"]
    assert list(res.predictions_frame().columns) == ["predicted", "top_score", "correct"]
    # Any binary interval applies to (correct, top score).
    v = rocci.vertical_ci(res.correct, res.top_score, fpr=[0.5])
    assert v.n_pos == 3 and v.n_neg == 2


def test_top_score_curve_equals_direct_definition():
    y, S = three_classes(9)
    res = rocci.top_score_curve(y, S)
    idx = np.searchsorted(["x", "y", "z"], y)
    correct = np.array([S[i, idx[i]] == S[i].max() for i in range(y.size)])
    top = np.array([S[i].max() for i in range(y.size)])
    np.testing.assert_array_equal(res.correct, correct)
    np.testing.assert_array_equal(res.top_score, top)
    direct = rocci.roc_curve(correct, top)
    np.testing.assert_array_equal(res.curve.tp, direct.tp)
    assert res.auc == direct.auc


def test_bundled_wine_sample():
    df = rocci.load_table(DATA / "wine_cv.csv")
    assert len(df) == 178 and class_columns(df) == ["class"]
    classes = sorted(df["class"].unique())
    cols = match_score_columns(df.columns, classes)
    assert cols == {c: c for c in classes}
    S = df[list(cols.values())].to_numpy()
    res = rocci.one_vs_rest(df["class"], S, classes=classes, intervals=False)
    assert res.to_frame()["n_pos"].tolist() == [59, 71, 48]
    assert all(0.9 < a.auc < 1 for a in res.aucs)
    top = rocci.top_score_curve(df["class"], S, classes=classes)
    assert 0.8 < top.accuracy < 0.9


def test_match_score_columns_rules():
    cols = ["id", "label", "score_a", "a_prob", "B", "prob.c"]
    # Two columns fit class 'a' by the affix rule: ambiguous, so no guess.
    assert match_score_columns(cols, ["a", "b", "c"]) == {"a": None, "b": "B", "c": "prob.c"}
    assert match_score_columns(["1", "2", "p_3"], [1, 2, 3]) == {1: "1", 2: "2", 3: "p_3"}
    assert match_score_columns(["x"], ["y"]) == {"y": None}


def test_class_columns():
    df = pd.DataFrame({
        "id": range(6), "fold": [1, 2, 3, 1, 2, 3], "species": list("abcabc"), "label": [1, 2, 3, 4, 1, 2],
        "score": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "binary": list("ababab"), "count": [3, 4, 5, 6, 7, 8],
    })
    # 'label' by its name; 'species' only once each of its values has a score column; never 'count'.
    assert class_columns(df) == ["label"]
    df = df.assign(p_a=0.1, p_b=0.2, p_c=0.7)
    assert class_columns(df) == ["label", "species"]
    heart = rocci.load_table(DATA / "heart_disease_test20.csv")
    assert class_columns(heart) == []  # integer predictors are not classes


def test_bad_input_messages():
    y = ["a", "b", "c", "a"]
    S = [[0.8, 0.1, 0.1], [0.6, 0.3, 0.1], [0.2, 0.3, 0.5], [0.4, 0.5, 0.1]]
    with pytest.raises(InputError, match="two-dimensional"):
        rocci.one_vs_rest(y, [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(InputError, match="3 rows but y_true has 4"):
        rocci.one_vs_rest(y, S[:3])
    with pytest.raises(InputError, match="holds 3 classes .* but y_score has 2 columns"):
        rocci.one_vs_rest(y, [r[:2] for r in S])
    with pytest.raises(InputError, match="'d', which is not among the classes"):
        rocci.top_score_curve(["a", "b", "c", "d"], S, classes=["a", "b", "c"])
    with pytest.raises(InputError, match="Class 'c' has no instances"):
        rocci.one_vs_rest(["a", "b", "b", "a"], S, classes=["a", "b", "c"])
    with pytest.raises(InputError, match="Class 'a' against the rest: DeLong"):
        rocci.one_vs_rest(["a", "b", "c", "b"], S)
    with pytest.raises(InputError, match="lists a class twice"):
        rocci.one_vs_rest(y, S, classes=["a", "a", "b"])
    with pytest.raises(InputError, match="NaN"):
        rocci.top_score_curve(y, [[np.nan, 0.1, 0.1]] + S[1:])
    with pytest.raises(InputError, match="Every one of the 3 predictions is correct"):
        rocci.top_score_curve(["a", "c", "b"], [[0.8, 0.1, 0.1], [0.2, 0.3, 0.5], [0.1, 0.6, 0.3]])
    with pytest.raises(InputError, match="is wrong"):
        rocci.top_score_curve(["b", "a"], [[0.8, 0.1, 0.1], [0.2, 0.3, 0.5]], classes=["a", "b", "c"])
