"""rocci.data: column guesses, prepare_binary, long_to_wide and summarize."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci import data as rdata
from rocci._core.inputs import InputError
from rocci.data import (
    SUMMARY_COLUMNS,
    PreparedData,
    guess_columns,
    guess_pos_label,
    label_values,
    long_to_wide,
    prepare_binary,
    summarize,
)
from rocci.data.io import load_table

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


def _error(func, *args, **kw) -> str:
    with pytest.raises(InputError) as info:
        func(*args, **kw)
    return str(info.value)


# --------------------------------------------------------------------------
# guess_columns
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["label", "Label", "y", "Y", "target", "CLASS", "outcome", "Disease", "diagnosis",
             "y_true", "true label"]
)

def test_guess_label_by_name(name):
    df = pd.DataFrame({"a": [0.1, 0.2, 0.3], name: ["x", "z", "w"], "s": [1.0, 2.0, 3.0]})
    assert guess_columns(df)["label"] == name


def test_guess_label_by_two_values_and_none():
    df = pd.DataFrame({"id": [1, 2, 3], "s": [0.1, 0.5, 0.7], "grp": ["a", "b", "a"]})
    g = guess_columns(df)
    assert g["label"] == "grp"
    assert g["scores"] == ["s"]
    df3 = pd.DataFrame({"s": [0.1, 0.5, 0.7], "t": [1.0, 2.0, 3.0]})
    assert guess_columns(df3) == {"label": None, "scores": ["s", "t"], "fold": None}


def test_guess_label_prefers_name_over_position():
    df = pd.DataFrame({"sex": ["m", "f"], "s": [0.1, 0.5], "outcome": [0, 1]})
    assert guess_columns(df)["label"] == "outcome"


@pytest.mark.parametrize("name", ["fold", "Folds", "cv", "run", "split", "cv_fold"])
def test_guess_fold(name):
    df = pd.DataFrame({"label": [0, 1, 0, 1], name: [1, 1, 2, 2], "m": [0.1, 0.9, 0.4, 0.6]})
    g = guess_columns(df)
    assert g["fold"] == name
    assert g["scores"] == ["m"]


def test_guess_scores_excludes_id_like_and_text_and_bool():
    df = pd.DataFrame(
        {
            "patient_id": [1, 2],
            "ID": [3, 4],
            "Unnamed: 0": [0, 1],
            "index": [0, 1],
            "label": [0, 1],
            "note": ["a", "b"],
            "flag": [True, False],
            "m1": [0.2, 0.8],
            "m2": [1, 5],
        }
    )
    assert guess_columns(df) == {"label": "label", "scores": ["m1", "m2"], "fold": None}


# --------------------------------------------------------------------------
# label_values, guess_pos_label
# --------------------------------------------------------------------------


def test_label_values_sorted_without_missing():
    df = pd.DataFrame({"y": ["b", None, "a", "b", np.nan]})
    assert label_values(df, "y") == ["a", "b"]
    num = pd.DataFrame({"y": [1.0, np.nan, 0.0]})
    vals = label_values(num, "y")
    assert vals == [0.0, 1.0] and all(type(v) is float for v in vals)
    mixed = pd.DataFrame({"y": pd.Series([1, "a", 1], dtype=object)})
    assert label_values(mixed, "y") == [1, "a"]
    assert "not in the table" in _error(label_values, df, "nope")


@pytest.mark.parametrize(
    "values, expected",
    [
        ([0, 1], 1),
        ([-1, 1], 1),
        ([0.0, 1.0], 1.0),
        ([False, True], True),
        (["0", "1"], "1"),
        (["no", "yes"], "yes"),
        (["No", "Yes"], "Yes"),
        (["negative", "positive"], "positive"),
        (["neg", "pos"], "pos"),
        (["benign", "malignant"], "malignant"),
        (["healthy", "disease"], "disease"),
        (["case", "control"], "case"),
        (["-", "+"], "+"),
        (["False", "True"], "True"),
        ([1, 2], None),
        (["a", "b"], None),
        (["yes", "positive"], None),  # two candidates: let the user choose
        ([], None),
    ],
)
def test_guess_pos_label(values, expected):
    got = guess_pos_label(values)
    assert got == expected and type(got) is type(expected)


def test_guess_pos_label_numpy_values():
    assert guess_pos_label(np.array([0, 1])) == 1
    assert guess_pos_label(np.array(["benign", "malignant"], dtype=object)) == "malignant"


# --------------------------------------------------------------------------
# prepare_binary
# --------------------------------------------------------------------------


def test_prepare_basic_fields_and_repr():
    df = pd.DataFrame(
        {"y": ["a", "b", "b", "a"], "s1": [0.1, 0.8, 0.6, 0.3], "s2": [1, 2, 3, 4], "f": [1, 1, 2, 2]}
    )
    p = prepare_binary(df, label="y", scores=["s2", "s1"], pos_label="b", fold="f")
    assert isinstance(p, PreparedData)
    assert list(p.scores) == ["s2", "s1"] and p.score_columns == ["s2", "s1"]
    assert p.scores["s2"].dtype == np.float64
    np.testing.assert_array_equal(p.scores["s1"], [0.1, 0.8, 0.6, 0.3])
    np.testing.assert_array_equal(p.is_positive, [False, True, True, False])
    np.testing.assert_array_equal(p.y_true, ["a", "b", "b", "a"])
    np.testing.assert_array_equal(p.fold, [1, 1, 2, 2])
    assert p.pos_label == "b" and p.label == "y" and p.fold_column == "f"
    assert (p.n_rows_in, p.n_rows_used, p.n_dropped) == (4, 4, 0)
    assert p.dropped_by_column == {"y": 0, "s2": 0, "s1": 0, "f": 0}
    assert (p.n_pos, p.n_neg, p.neg_label) == (2, 2, "a")
    text = repr(p)
    assert "PreparedData(" in text and "pos_label='b'" in text and "n_rows_used=4" in text
    assert "array" not in text  # no long arrays in the repr


def test_prepare_single_score_name():
    df = pd.DataFrame({"y": [0, 1], "s": [0.2, 0.4]})
    p = prepare_binary(df, label="y", scores="s")
    assert p.score_columns == ["s"] and p.pos_label == 1 and p.fold is None


def test_prepare_drops_and_counts_missing_per_column():
    df = pd.DataFrame(
        {
            "y": [0, 1, None, 1, 0, 1, 0],
            "s1": [0.1, np.nan, 0.3, 0.4, np.nan, 0.6, 0.7],
            "s2": [0.1, np.nan, 0.3, 0.4, 0.5, 0.6, 0.7],
            "f": [1, 1, 1, None, 2, 2, 2],
            "other": [None] * 7,  # not used: not counted
        }
    )
    p = prepare_binary(df, label="y", scores=["s1", "s2"], fold="f")
    assert p.n_rows_in == 7
    assert p.n_rows_used == 3 and p.n_dropped == 4
    assert p.dropped_by_column == {"y": 1, "s1": 2, "s2": 1, "f": 1}
    np.testing.assert_array_equal(p.row_index, [0, 5, 6])
    np.testing.assert_array_equal(p.scores["s1"], [0.1, 0.6, 0.7])
    np.testing.assert_array_equal(p.is_positive, [False, True, False])
    assert "n_dropped=4" in repr(p)


def test_prepare_numeric_text_scores_are_converted():
    df = pd.DataFrame({"y": [0, 1, 1], "s": ["0.5", "1e-3", " 2 "]})
    p = prepare_binary(df, label="y", scores="s")
    np.testing.assert_array_equal(p.scores["s"], [0.5, 0.001, 2.0])


def test_prepare_non_numeric_scores():
    df = pd.DataFrame({"y": [0, 1, 1, 0], "s": ["0.5", "high", "low", "high"]})
    msg = _error(prepare_binary, df, label="y", scores="s")
    assert "'s'" in msg and "'high'" in msg and "'low'" in msg and "3 rows" in msg


def test_prepare_decimal_comma_hint():
    df = pd.DataFrame({"y": [0, 1], "s": ["0,5", "0,7"]})
    assert "decimal comma" in _error(prepare_binary, df, label="y", scores="s")


def test_prepare_infinite_scores():
    df = pd.DataFrame({"y": [0, 1, 1, 0], "s": [0.1, np.inf, -np.inf, 0.2]})
    msg = _error(prepare_binary, df, label="y", scores="s")
    assert "'s'" in msg and "2 infinite values" in msg


def test_prepare_one_class():
    df = pd.DataFrame({"y": ["a", "a", None], "s": [0.1, 0.2, 0.3]})
    msg = _error(prepare_binary, df, label="y", scores="s", pos_label="a")
    assert "only one label value found: 'a'" in msg.lower() and "both classes are needed" in msg


def test_prepare_one_class_after_dropping():
    df = pd.DataFrame({"y": [0, 1, 0], "s": [0.1, np.nan, 0.3]})
    assert "only one label value found: 0" in _error(prepare_binary, df, label="y", scores="s").lower()


def test_prepare_more_than_two_classes():
    df = pd.DataFrame({"y": ["a", "b", "c"], "s": [0.1, 0.2, 0.3]})
    msg = _error(prepare_binary, df, label="y", scores="s", pos_label="a")
    assert "3 distinct values" in msg and "'a', 'b', 'c'" in msg and "exactly two" in msg


def test_prepare_pos_label_checks():
    df = pd.DataFrame({"y": ["benign", "malignant"], "s": [0.1, 0.9]})
    msg = _error(prepare_binary, df, label="y", scores="s", pos_label="Malignant")
    assert "'Malignant'" in msg and "'benign', 'malignant'" in msg
    msg = _error(prepare_binary, df, label="y", scores="s")
    assert "positive class" in msg and "pos_label='malignant'" in msg
    ints = pd.DataFrame({"y": [1, 2], "s": [0.1, 0.9]})
    assert "1, 2" in _error(prepare_binary, ints, label="y", scores="s")
    assert "'1'" in _error(prepare_binary, ints, label="y", scores="s", pos_label="1")
    p = prepare_binary(ints, label="y", scores="s", pos_label=np.int64(2))
    assert p.pos_label == 2 and p.is_positive.tolist() == [False, True]


@pytest.mark.parametrize(
    "labels, pos",
    [([0, 1, 1], 1), ([-1, 1, -1], 1), ([False, True, True], True), ([0.0, 1.0, np.nan], 1)],
)
def test_prepare_pos_label_defaults(labels, pos):
    df = pd.DataFrame({"y": labels, "s": [0.1, 0.5, 0.9]})
    p = prepare_binary(df, label="y", scores="s")
    assert p.pos_label == pos
    np.testing.assert_array_equal(p.is_positive, np.asarray(labels[: p.n_rows_used]) == pos)


def test_prepare_column_errors():
    df = pd.DataFrame({"y": [0, 1], "s": [0.1, 0.9], "f": [1, 2]})
    msg = _error(prepare_binary, df, label="nope", scores="s")
    assert "'nope'" in msg and "'y', 's', 'f'" in msg
    assert "'t'" in _error(prepare_binary, df, label="y", scores=["s", "t"])
    assert "at least one score" in _error(prepare_binary, df, label="y", scores=[])
    assert "more than once" in _error(prepare_binary, df, label="y", scores=["s", "s"])
    assert "both the label" in _error(prepare_binary, df, label="y", scores=["s", "y"])
    assert "fold column" in _error(prepare_binary, df, label="y", scores="s", fold="s")
    assert "'g'" in _error(prepare_binary, df, label="y", scores="s", fold="g")
    assert "DataFrame" in _error(prepare_binary, [1, 2], label="y", scores="s")


def test_prepare_no_rows_left():
    df = pd.DataFrame({"y": [0, 1], "s": [np.nan, np.nan]})
    msg = _error(prepare_binary, df, label="y", scores="s")
    assert "No rows are left" in msg and "'s': 2" in msg


def test_prepare_duplicate_columns():
    df = pd.DataFrame([[0, 0.1, 0.2], [1, 0.3, 0.4]], columns=["y", "s", "s"])
    assert "duplicate" in _error(prepare_binary, df, label="y", scores="s")


# --------------------------------------------------------------------------
# bundled samples
# --------------------------------------------------------------------------


def _prepare_guessed(name: str) -> PreparedData:
    df = load_table(DATA / name)
    g = guess_columns(df)
    pos = guess_pos_label(label_values(df, g["label"]))
    return prepare_binary(df, label=g["label"], scores=g["scores"], pos_label=pos, fold=g["fold"])


def test_sample_thesis_example():
    p = _prepare_guessed("thesis_example.csv")
    assert p.label == "label" and p.pos_label == 1 and p.score_columns == ["score"]
    assert (p.n_pos, p.n_neg, p.n_dropped) == (20, 40, 0)
    s = summarize(p).iloc[0]
    assert s["pos_neg_ties"] == 1 and s["tied_scores"] == 2  # 0.80 is a positive and a negative


def test_sample_heart_disease():
    df = load_table(DATA / "heart_disease_test20.csv")
    g = guess_columns(df)
    assert g["label"] == "disease" and g["fold"] is None and "score" in g["scores"]
    assert label_values(df, "disease") == ["negative", "positive"]
    assert guess_pos_label(label_values(df, "disease")) == "positive"
    p = prepare_binary(df, label="disease", scores="score", pos_label="positive")
    assert (p.n_pos, p.n_neg) == (10, 10)


def test_sample_breast_cancer():
    p = _prepare_guessed("breast_cancer_cv.csv")
    assert p.label == "label" and p.pos_label == "malignant"
    assert p.score_columns == ["logistic", "naive_bayes"]
    assert p.fold_column == "fold" and sorted(set(p.fold.tolist())) == [1, 2, 3, 4, 5]
    assert (p.n_pos, p.n_neg, p.n_rows_used) == (212, 357, 569)
    summary = summarize(p).set_index("model")
    # naive Bayes has many tied scores (at 0 and 1), more than logistic regression
    assert summary.loc["naive_bayes", "distinct_scores"] < summary.loc["logistic", "distinct_scores"]
    assert summary.loc["naive_bayes", "tied_scores"] > 100


# --------------------------------------------------------------------------
# long_to_wide
# --------------------------------------------------------------------------

WIDE = pd.DataFrame(
    {
        "id": [10, 11, 12],
        "label": ["pos", "neg", "pos"],
        "fold": [1, 2, 1],
        "A": [0.9, 0.2, 0.6],
        "B": [0.7, 0.4, 0.5],
    }
)


def _long() -> pd.DataFrame:
    parts = []
    for m in ("A", "B"):
        part = WIDE[["id", "label", "fold"]].copy()
        part["model"] = m
        part["score"] = WIDE[m]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def test_long_to_wide_by_order():
    wide = long_to_wide(_long().drop(columns="id"), model="model", score="score")
    pd.testing.assert_frame_equal(wide, WIDE.drop(columns="id"))


def test_long_to_wide_by_id_any_order():
    long = _long().sample(frac=1.0, random_state=3).reset_index(drop=True)
    wide = long_to_wide(long, model="model", score="score", id="id")
    first = long[long["model"] == long["model"].iloc[0]]["id"].tolist()
    expected = WIDE.set_index("id").loc[first].reset_index()
    expected = expected[["id", "label", "fold", *wide.columns[3:]]]
    pd.testing.assert_frame_equal(wide, expected)
    assert set(wide.columns[3:]) == {"A", "B"}


def test_long_to_wide_numeric_model_names():
    long = _long()
    long["model"] = long["model"].map({"A": 1, "B": 2})
    wide = long_to_wide(long, model="model", score="score", id="id")
    assert list(wide.columns) == ["id", "label", "fold", "1", "2"]


def test_long_to_wide_then_prepare():
    wide = long_to_wide(_long(), model="model", score="score", id="id")
    p = prepare_binary(wide, label="label", scores=["A", "B"], pos_label="pos", fold="fold")
    np.testing.assert_array_equal(p.scores["B"], [0.7, 0.4, 0.5])


def test_long_to_wide_errors_with_id():
    long = _long()
    rep = pd.concat([long, long.iloc[[0]]], ignore_index=True)
    msg = _error(long_to_wide, rep, model="model", score="score", id="id")
    assert "more than once" in msg and "(10, 'A')" in msg
    miss = long.drop(index=4).reset_index(drop=True)  # model B misses id 11
    msg = _error(long_to_wide, miss, model="model", score="score", id="id")
    assert "'B'" in msg and "11" in msg
    extra = long.drop(index=1).reset_index(drop=True)  # model A misses id 11
    msg = _error(long_to_wide, extra, model="model", score="score", id="id")
    assert "11" in msg and "same instances" in msg
    bad = long.copy()
    bad.loc[4, "label"] = "pos"
    msg = _error(long_to_wide, bad, model="model", score="score", id="id")
    assert "same label" in msg and "11" in msg


def test_long_to_wide_errors_by_order():
    long = _long().drop(columns="id")
    short = long.drop(index=5).reset_index(drop=True)
    msg = _error(long_to_wide, short, model="model", score="score")
    assert "different numbers of rows" in msg and "'A': 3" in msg and "'B': 2" in msg
    swapped = long.copy()
    swapped.loc[[3, 4], "label"] = ["neg", "pos"]
    msg = _error(long_to_wide, swapped, model="model", score="score")
    assert "Row 1" in msg and "same order" in msg
    # explicit label column
    msg = _error(long_to_wide, swapped, model="model", score="score", label="label")
    assert "same order" in msg


def test_long_to_wide_argument_errors():
    long = _long()
    assert "'mod'" in _error(long_to_wide, long, model="mod", score="score")
    assert "different columns" in _error(long_to_wide, long, model="score", score="score")
    clash = long.copy()
    clash.loc[clash["model"] == "A", "model"] = "fold"
    assert "also the name of another column" in _error(
        long_to_wide, clash, model="model", score="score", id="id"
    )
    nomodel = long.copy()
    nomodel.loc[0, "model"] = None
    assert "empty in 1 row" in _error(long_to_wide, nomodel, model="model", score="score")


# --------------------------------------------------------------------------
# summarize
# --------------------------------------------------------------------------


def test_summarize_hand_computed():
    df = pd.DataFrame(
        {
            "y": [1, 1, 1, 0, 0, 0],
            "s": [0.9, 0.5, 0.5, 0.5, 0.2, 0.2],
            "t": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )
    out = summarize(prepare_binary(df, label="y", scores=["s", "t"]))
    assert tuple(out.columns) == SUMMARY_COLUMNS
    s = out.iloc[0].to_dict()
    assert s["model"] == "s" and s["rows"] == 6 and s["positives"] == 3 and s["negatives"] == 3
    assert s["distinct_scores"] == 3
    assert s["tied_scores"] == 5  # three at 0.5, two at 0.2
    assert s["pos_neg_ties"] == 1  # 0.5 held by both classes
    assert (s["min"], s["max"]) == (0.2, 0.9)
    assert s["mean_positive"] == pytest.approx((0.9 + 0.5 + 0.5) / 3)
    assert s["mean_negative"] == pytest.approx((0.5 + 0.2 + 0.2) / 3)
    t = out.iloc[1].to_dict()
    assert t["model"] == "t" and t["tied_scores"] == 0 and t["pos_neg_ties"] == 0


def test_summarize_rejects_other_input():
    assert "prepare_binary" in _error(summarize, pd.DataFrame())


def test_one_vs_rest_counts_every_other_class_as_negative():
    df = pd.DataFrame({"y": ["a", "b", "c", "b", "c", None, "a"], "s": [0.9, 0.2, 0.4, 0.3, 0.1, 0.5, 0.8]})
    with pytest.raises(rocci.InputError, match="one_vs_rest"):
        rdata.prepare_binary(df, label="y", scores="s", pos_label="a")
    with pytest.raises(rocci.InputError, match="which of the 3 classes"):
        rdata.prepare_binary(df, label="y", scores="s", one_vs_rest=True)
    p = rdata.prepare_binary(df, label="y", scores="s", pos_label="b", one_vs_rest=True)
    assert p.n_rows_used == 6 and p.n_dropped == 1
    np.testing.assert_array_equal(p.is_positive, [False, True, False, True, False, False])
    assert p.negative_labels == ("a", "c") and p.one_vs_rest
    assert list(p.y_true) == ["a", "b", "c", "b", "c", "a"]  # labels kept as read
    # the same analysis as recoding the labels by hand
    recoded = df.dropna().assign(y=lambda d: np.where(d["y"] == "b", "pos", "neg"))
    q = rdata.prepare_binary(recoded, label="y", scores="s", pos_label="pos")
    np.testing.assert_array_equal(p.is_positive, q.is_positive)
    assert rocci.roc_auc(p.is_positive, p.scores["s"]).auc == rocci.roc_auc(q.is_positive, q.scores["s"]).auc
    # two classes: one_vs_rest changes nothing
    two = rdata.prepare_binary(df[df["y"] != "c"], label="y", scores="s", pos_label="a", one_vs_rest=True)
    assert two.negative_labels == ("b",) and not two.one_vs_rest and two.neg_label == "b"


# --------------------------------------------------------------------------
# issue 18 and 12: nested columns, a handful of guessed models, the positive class
# --------------------------------------------------------------------------


def _nested_frame():
    return pd.DataFrame({
        "y": [1, 0, 1, 0],
        "tags": pd.Series([np.array(["a"]), np.array(["b", "c"]), np.array([]), np.array(["d"])]),
        "meta": pd.Series([{"k": 1}, {"k": 2}, {"k": 3}, {"k": 4}]),
        "s": [0.9, 0.2, 0.7, 0.4],
    })


def test_nested_columns_give_input_errors_naming_column_and_type():
    df = _nested_frame()
    msg = _error(prepare_binary, df, label="y", scores=["s", "tags"])
    assert "score column 'tags' holds lists" in msg and "not single values" in msg
    msg = _error(prepare_binary, df, label="meta", scores="s", pos_label=1)
    assert "label column 'meta' holds structs" in msg and "struct<k>" in msg
    assert "'meta'" in _error(label_values, df, "meta")
    assert "fold column 'tags'" in _error(prepare_binary, df, label="y", scores="s", fold="tags")
    assert "'tags'" in _error(long_to_wide, df, model="tags", score="s")


def test_nested_arrow_dtypes_are_named():
    import pyarrow as pa

    df = _nested_frame().astype({"tags": pd.ArrowDtype(pa.list_(pa.string()))})
    msg = _error(prepare_binary, df, label="y", scores="tags")
    assert "lists" in msg and "list<item: string>" in msg


def test_nested_columns_are_never_guessed():
    df = _nested_frame()[["tags", "meta", "s"]]
    df["y2"] = ["a", "b", "a", "b"]
    g = guess_columns(df)
    assert g["label"] == "y2" and g["scores"] == ["s"]


def _wide(n_cols: int, rows: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    cols = {"label": np.arange(rows) % 2}
    for i in range(n_cols):
        cols[f"x{i}"] = np.round(rng.random(rows), 1 if i % 2 else 3)
    return pd.DataFrame(cols)


def test_guess_columns_caps_the_models_and_ranks_them():
    df = _wide(12)
    df["prob_churn"] = np.linspace(0, 1, 40)
    df["hard_pred"] = np.arange(40) % 2  # a score-like name, but two values
    g = guess_columns(df)
    assert len(g["scores"]) == 6
    # score-like names first, then the columns with the most distinct values, in table order
    assert "prob_churn" in g["scores"] and "hard_pred" in g["scores"]
    assert all(int(c[1:]) % 2 == 0 for c in g["scores"] if c.startswith("x"))
    assert g["scores"] == [c for c in df.columns if c in g["scores"]]
    assert guess_columns(df, max_scores=None)["scores"] == rdata.score_candidates(df, label="label")
    assert len(rdata.score_candidates(df, label="label")) == 14
    assert guess_columns(df, max_scores=2)["scores"] == ["prob_churn", "hard_pred"]
    assert guess_columns(_wide(5), max_scores=6)["scores"] == [f"x{i}" for i in range(5)]


def test_guess_label_in_a_file_sorted_by_class():
    """The first 10,000 rows may all be negatives: the label is still found."""
    n = 25_000
    df = pd.DataFrame({"a": np.linspace(0, 1, n), "grp": np.where(np.arange(n) < 20_000, "no", "yes")})
    assert guess_columns(df)["label"] == "grp"
    df["three"] = np.where(np.arange(n) < 24_000, "a", np.where(np.arange(n) % 2, "b", "c"))
    assert guess_columns(df[["a", "three"]])["label"] is None


@pytest.mark.parametrize(
    "labels, value, reason, text",
    [
        (["stay"] * 44 + ["churn"] * 6, "churn", "keyword", "a usual name for the positive class, 12%"),
        (["Stay"] * 10 + ["Churn"] * 40, "Churn", "keyword", "a usual name for the positive class, 80%"),
        (["red"] * 8 + ["blue"] * 2, "blue", "rarer", "the rarer class, 20%"),
        ([1] * 3 + [2] * 97, 1, "rarer", "the rarer class, 3%"),
        ([0] * 9 + [1], 1, "numeric", "0/1 labels: 1 is positive, 10%"),
        ([-1] * 3 + [1], 1, "numeric", "-1/1 labels: 1 is positive, 25%"),
        ([True, False, False], True, "boolean", "True/False labels: True is positive, 33%"),
        (["a", "b"], "b", "tie", "the two classes are the same size, so the last value in sorted order "
                                  "is preselected; check it"),
        (["x", "x", None], None, "one-class", "only one label value found; both classes are needed"),
        (["a", "b", "c"], None, "many", "more than two classes: choose the class to analyse against the rest"),
        (["a", "b", "fraud"], "fraud", "keyword", "a usual name for the positive class, 33%"),
        ([None, None], None, "unknown", "no value looks like the positive class"),
    ],
)
def test_suggest_pos_label(labels, value, reason, text):
    df = pd.DataFrame({"y": labels})
    g = rdata.suggest_pos_label(df, "y")
    assert (g.value, g.reason, g.text) == (value, reason, text)
    assert type(g.value) is type(value)


def test_suggest_pos_label_share_and_errors():
    g = rdata.suggest_pos_label(pd.DataFrame({"y": ["no"] * 7 + ["yes"] * 1 + [None] * 2}), "y")
    assert g.value == "yes" and g.share == 1 / 8 and g.n_classes == 2
    assert "'nope'" in _error(rdata.suggest_pos_label, pd.DataFrame({"y": [1]}), "nope")


@pytest.mark.parametrize("words", ["churn", "default", "fail", "spam", "fraud", "left", "bad"])
def test_more_positive_words(words):
    assert guess_pos_label(["other", words]) == words


def test_prepare_text_01_labels_need_no_pos_label():
    df = pd.DataFrame({"y": ["1", "0", "1", "0"], "s": [0.9, 0.2, 0.7, 0.4]})
    p = prepare_binary(df, label="y", scores="s")
    assert p.pos_label == "1" and p.n_pos == 2
    df = pd.DataFrame({"y": ["-1", "1", "1"], "s": [0.9, 0.2, 0.7]})
    assert prepare_binary(df, label="y", scores="s").pos_label == "1"


def test_prepare_suggests_rarer_class_in_message():
    df = pd.DataFrame({"y": ["stay"] * 3 + ["go"], "s": [0.1, 0.2, 0.3, 0.9]})
    msg = _error(prepare_binary, df, label="y", scores="s")
    assert "pos_label='go' (the rarer class, 25%)" in msg


def test_integer_key_columns_are_not_preselected_as_models():
    """A customer number (distinct integers) is offered as a column but not guessed as a model;
    integer scores with repeated values, and a key named like a score, still are."""
    import numpy as np
    import pandas as pd

    from rocci import data as rdata

    rng = np.random.default_rng(2)
    n = 400
    df = pd.DataFrame({
        "customer": rng.permutation(10_000)[:n] + 1000,
        "status": np.where(rng.random(n) < 0.12, "churn", "stay"),
        "xgb_prob": rng.random(n).round(3),
        "points": rng.integers(0, 40, n),  # an integer score with ties
    })
    g = rdata.guess_columns(df)
    assert g["scores"] == ["xgb_prob", "points"]
    assert "customer" in rdata.score_candidates(df, label="status")
    df["rank_score"] = np.arange(n)  # distinct integers, but named a score
    assert "rank_score" in rdata.guess_columns(df)["scores"]
    # only one numeric column, a key: it is still the guess (something to show and correct)
    small = df[["customer", "status"]]
    assert rdata.guess_columns(small)["scores"] == ["customer"]
