"""Bad-file corpus (issues 7 and 18, "Safety and reliability"): each bad file
gives a clear :class:`rocci.InputError` (or is read correctly, with the right
numbers), never a crash; compressed files cannot decode past the limit.

The small files are in tests/bad_files/ (see corpus.FILES for the expected
outcome of each); the large ones (Parquet and xlsx bombs, a 10,000-column CSV,
a 3·10⁵-row xlsx) are generated here, in memory or in tmp_path.
"""
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import rocci
from rocci._core.inputs import InputError, check_confidence_level, format_value, length_mismatch
from rocci.data import guess_columns, prepare_binary, suggest_pos_label

from bad_files import corpus
from bad_files.corpus import BAD, FILES, zip_bomb as _zip_bomb

BAD_DIR = Path(__file__).resolve().parents[1] / "bad_files"


def _load_prepare(data: bytes, name: str = "x.csv"):
    df = rocci.load_table(data, filename=name)
    return prepare_binary(df, label="y", scores="s")




@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_gives_input_error(name):
    with pytest.raises(rocci.InputError) as err:
        _load_prepare(BAD[name])
    assert len(str(err.value)) > 20


def test_latin1_read_or_clear_message():
    data = "y,s,note\n0,0.1,café\n1,0.9,élève\n0,0.3,à\n1,0.7,ü\n".encode("latin-1")
    try:
        df = rocci.load_table(data, filename="x.csv")
    except rocci.InputError as err:
        assert "encod" in str(err).lower() or "utf" in str(err).lower()
    else:
        assert list(df["note"])[0] == "café"


def test_zip_bomb_xlsx_refused_before_parsing():
    data = _zip_bomb(300 * 1024**2)
    assert len(data) < 1024**2  # small on disk
    with pytest.raises(rocci.InputError) as err:
        rocci.load_table(data, filename="bomb.xlsx")
    assert "unpack" in str(err.value)


def test_upload_size_limit_respected():
    with pytest.raises(rocci.InputError, match="too large"):
        rocci.load_table(b"y,s\n" + b"0,0.1\n" * 100, filename="x.csv", max_bytes=50)


def test_formula_and_html_labels_are_plain_text():
    data = (b'y,s,"<b>x</b>"\n"=HYPERLINK(""http://e"")",0.1,**y**\n'
            b"<script>,0.9,a\n\"=HYPERLINK(\"\"http://e\"\")\",0.2,b\n<script>,0.8,c\n")
    df = rocci.load_table(data, filename="x.csv")
    assert "<b>x</b>" in df.columns
    prep = prepare_binary(df, label="y", scores="s", pos_label="<script>")
    assert prep is not None


def test_million_identical_scores():
    n = 10**6
    y = np.tile([0, 1], n // 2)
    body = "y,s\n" + "".join(f"{v},0.5\n" for v in y)
    df = rocci.load_table(body.encode(), filename="x.csv")
    prepare_binary(df, label="y", scores="s")


def test_formula_neutralised_in_csv_download():
    import pandas as pd

    from ui.download import csv_bytes

    out = csv_bytes(pd.DataFrame({"label": ['=HYPERLINK("http://e")', "+1", "-2", "@x", "ok"]}))
    text = out.decode("utf-8-sig")
    for line in text.splitlines()[1:]:
        assert not line.lstrip('"').startswith(("=", "+", "-", "@")), line


# --------------------------------------------------------------------------
# the committed small files: each file's expected outcome (corpus.FILES)
# --------------------------------------------------------------------------


def test_committed_files_are_up_to_date():
    """The files on disk are what corpus.py writes (rerun it after changing a file there)."""
    for name, data in corpus._small_files().items():
        if name.endswith(".parquet"):
            continue  # pyarrow writes its version into the file
        assert (BAD_DIR / name).read_bytes() == data, name
    assert set(FILES) <= {p.name for p in BAD_DIR.iterdir()}


def _read_and_prepare(name: str):
    spec = FILES[name]
    data = (BAD_DIR / name).read_bytes()
    df = rocci.load_table(data, filename=spec.get("filename", name))
    label = spec.get("label", "y")
    scores = spec.get("scores", ["s"])
    guess = suggest_pos_label(df, label)
    prep = prepare_binary(df, label=label, scores=scores, pos_label=guess.value)
    return df, guess, prep


@pytest.mark.parametrize("name", sorted(n for n in FILES if "error" in FILES[n]))
def test_committed_bad_file_gives_a_useful_message(name):
    with pytest.raises(InputError) as err:
        _read_and_prepare(name)
    msg = str(err.value)
    for words in FILES[name]["error"]:
        assert words in msg, (name, words, msg)
    assert "Traceback" not in msg and len(msg) < 600


@pytest.mark.parametrize("name", sorted(n for n in FILES if "error" not in FILES[n]))
def test_committed_file_is_read_right(name):
    spec = FILES[name]
    df, guess, prep = _read_and_prepare(name)
    assert prep.n_rows_used == spec["rows"]
    warnings = " ".join(df.attrs["warnings"])
    for words in spec.get("warning", []):
        assert words in warnings, (name, words, warnings)
    if "warning" not in spec:
        assert df.attrs["warnings"] == []
    if "pos" in spec:
        assert prep.pos_label == spec["pos"] and type(prep.pos_label) is type(spec["pos"])
        assert prep.n_pos == spec["n_pos"]
    if "reason" in spec:
        assert guess.reason == spec["reason"]
    g = guess_columns(df)
    assert g["label"] == spec.get("label", "y")
    assert g["scores"] == spec.get("scores", ["s"])
    for col in spec.get("not_guessed", []):
        assert col not in g["scores"] and g["label"] != col
    if "score_sum" in spec:
        assert sum(prep.scores[spec["scores"][0]]) == pytest.approx(spec["score_sum"])


def test_no_header_file_loses_its_first_row_and_says_so():
    df = rocci.load_table(BAD_DIR / "no_header.csv")
    assert list(df.columns) == ["1", "0.82"]
    (msg,) = df.attrs["warnings"]
    assert "(1, 0.82)" in msg and "no header row" in msg and "Add a header row" in msg


def test_churn_file_positive_class_and_reason():
    df = rocci.load_table(BAD_DIR / "churn_labels.csv")
    g = suggest_pos_label(df, "status")
    assert (g.value, g.reason) == ("churn", "keyword")
    assert g.text == "a usual name for the positive class, 12%"
    rare = suggest_pos_label(rocci.load_table(BAD_DIR / "rare_class.csv"), "group")
    assert (rare.value, rare.text) == ("blue", "the rarer class, 20%")


# --------------------------------------------------------------------------
# large files, generated at test time
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def parquet_bomb():
    """2·10⁷ rows of (label, score) in ≈ 0.3 MB: 320 MB decoded (the audit's file had 2·10⁸)."""
    return corpus.parquet_bomb(2 * 10**7)


def test_parquet_bomb_refused_from_metadata(parquet_bomb):
    assert len(parquet_bomb) < 2 * 1024**2
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as err:
            rocci.load_table(parquet_bomb, filename="bomb.parquet")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(err.value)
    assert "would take about 305.2 MiB in memory" in msg and "20,000,000 rows" in msg
    assert "200.0 MiB" in msg and "columns=" in msg
    assert peak < 20 * 1024**2  # nothing decoded (pandas alone would need 320 MB); its time: bench/bench_limits.py


def test_parquet_bomb_columns_and_limit(parquet_bomb):
    # one column is still too large; a high enough limit reads it all
    with pytest.raises(InputError, match="1 column"):
        rocci.load_table(parquet_bomb, filename="b.parquet", columns=["s"], max_bytes=100 * 1024**2)
    small = corpus.parquet_bomb(300_000, block=100_000)
    df = rocci.load_table(small, filename="b.parquet", max_bytes=5 * 1024**2, columns=["s", "y"])
    assert list(df.columns) == ["s", "y"] and len(df) == 300_000
    assert int(df["y"].sum()) == 150_000 and float(df["s"].sum()) == 150_000.0
    with pytest.raises(InputError, match="4.6 MiB"):
        rocci.load_table(small, filename="b.parquet", max_bytes=4 * 1024**2)


def test_parquet_string_bomb_refused_while_reading():
    """One 1,000-character value repeated: tiny on disk, metadata small, counted exactly when read."""
    data = corpus.parquet_string_bomb(400_000)
    assert len(data) < 200 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as err:
            rocci.load_table(data, filename="strings.parquet", max_bytes=50 * 1024**2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "would take about 3" in str(err.value) and "400,000 rows" in str(err.value)
    assert peak < 60 * 1024**2  # the strings were never expanded (400 MB)
    # without the long column the file is small
    df = rocci.load_table(data, filename="strings.parquet", max_bytes=50 * 1024**2, columns=["s"])
    assert len(df) == 400_000


def test_xlsx_shared_string_bomb_refused_before_parsing():
    data = corpus.shared_string_bomb(20_000)
    assert len(data) < 300 * 1024
    with pytest.raises(InputError) as err:  # (its time: bench/bench_limits.py)
        rocci.load_table(data, filename="strings.xlsx")
    msg = str(err.value)
    assert "text cells" in msg and "610.7 MiB" in msg and "CSV" in msg
    # a sheet whose shared strings are short reads normally
    ok = corpus.shared_string_bomb(200, length=5)
    df = rocci.load_table(ok, filename="ok.xlsx")
    assert df.shape == (200, 2) and set(df["y"]) == {"xxxxx"}


@pytest.mark.slow
def test_xlsx_of_300_000_rows_reads_right():
    """The audit's 10⁶-row xlsx took 86 s; at 3·10⁵ rows this now takes a few seconds (bench/bench_limits.py)."""
    rows = 300_000
    data = corpus.big_xlsx(rows)
    df = rocci.load_table(data, filename="big.xlsx")
    assert df.shape == (rows, 3) and list(df.columns) == ["y", "a", "b"]
    i = np.arange(rows)
    np.testing.assert_array_equal(df["y"].to_numpy(), i % 2)
    np.testing.assert_array_equal(df["a"].to_numpy(), i / rows)
    np.testing.assert_array_equal(df["b"].to_numpy(), ((i * 7919) % rows) / rows)
    assert df.attrs["sheet_name"] == "scores"


def test_wide_csv_guesses_a_handful_of_models():
    data = corpus.wide_csv()
    assert 4 * 1024**2 < len(data) < 6 * 1024**2
    df = rocci.load_table(data, filename="wide.csv")
    assert df.shape == (100, 10_000)
    g = guess_columns(df)  # (its time: bench/bench_limits.py)
    assert g["label"] == "y"
    assert len(g["scores"]) == 6
    assert {"p_model_0", "score_b"} <= set(g["scores"])  # names that look like scores first
    assert "flag" not in g["scores"]  # two values: ranked last
    cols = list(df.columns)
    assert g["scores"] == sorted(g["scores"], key=cols.index)  # table order


# --------------------------------------------------------------------------
# validation messages (issue 13): exact values, one wording
# --------------------------------------------------------------------------


def test_offending_value_printed_exactly():
    w = 1 + 2**-52
    assert format_value(w) == "1.0000000000000002"
    assert format_value(np.float64(w)) == "1.0000000000000002"
    with pytest.raises(InputError, match=r"\(1\.0000000000000002\)"):
        check_confidence_level(w)
    with pytest.raises(InputError, match=r"^confidence_level \(95\.00000000000001\) must be"):
        check_confidence_level(np.float64(95.00000000000001))
    with pytest.raises(InputError, match=r"pos_label \(2\) is not among"):
        rocci.roc_curve([0, 1], [0.1, 0.9], pos_label=np.int64(2))


def test_length_mismatch_wording():
    msg = str(length_mismatch("y_score", 3, "y_true", 4, "give one score per label"))
    assert msg == "y_score has 3 values but y_true has 4: give one score per label."
    with pytest.raises(InputError, match="^y_score has 2 values but y_true has 3: give one score per label.$"):
        rocci.roc_curve([0, 1, 1], [0.1, 0.9])


@pytest.mark.parametrize("labels, pos", [(["0", "1", "1", "0"], "1"), (["-1", "1", "1", "-1"], "1"),
                                         (np.array(["0", "1", "1", "0"]), "1")])
def test_text_01_labels_need_no_pos_label(labels, pos):
    auc = rocci.roc_auc(labels, [0.2, 0.9, 0.6, 0.4]).auc
    assert auc == rocci.roc_auc([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4]).auc == 1.0
    curve = rocci.roc_curve(labels, [0.2, 0.9, 0.6, 0.4])
    assert (curve.n_pos, curve.n_neg) == (2, 2)


def test_other_text_labels_still_need_pos_label():
    with pytest.raises(InputError, match="as numbers or as text"):
        rocci.roc_curve(["a", "b"], [0.1, 0.9])
    with pytest.raises(InputError, match="say which one"):
        rocci.roc_curve(["0", "2"], [0.1, 0.9])


def test_one_class_message():
    with pytest.raises(InputError, match=r"^Only one label value found in y_true: 'x'; both classes are needed"):
        rocci.roc_curve(["x", "x"], [0.1, 0.9], pos_label="x")
