"""rocci.data.io.load_table (rocci.load_table): every supported format round-trips, every bad file is an InputError."""

from __future__ import annotations

import io
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rocci._core.inputs import InputError
from rocci.data.io import SUPPORTED_FORMATS, load_table

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"

FRAME = pd.DataFrame(
    {
        "label": ["pos", "neg", "pos", "neg"],
        "score": [0.9, 0.25, 0.5, -1.5],
        "n": [1, 2, 3, 4],
    }
)



def _csv_bytes(sep: str, frame: pd.DataFrame = FRAME, **kw) -> bytes:
    return frame.to_csv(index=False, sep=sep, lineterminator="\n", **kw).encode("utf-8")


def _check_frame(df: pd.DataFrame, expected: pd.DataFrame = FRAME) -> None:
    assert list(df.columns) == list(expected.columns)
    assert isinstance(df.index, pd.RangeIndex)
    assert df["label"].tolist() == expected["label"].tolist()
    np.testing.assert_array_equal(df["score"].to_numpy(dtype=float), expected["score"].to_numpy())
    np.testing.assert_array_equal(df["n"].to_numpy(), expected["n"].to_numpy())
    assert pd.api.types.is_float_dtype(df["score"])
    assert pd.api.types.is_integer_dtype(df["n"])


# --------------------------------------------------------------------------
# round trips
# --------------------------------------------------------------------------


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
@pytest.mark.parametrize("ext", [".csv", ".txt"])
def test_delimited_round_trip(tmp_path, sep, ext):
    path = tmp_path / f"table{ext}"
    path.write_bytes(_csv_bytes(sep))
    _check_frame(load_table(path))
    _check_frame(load_table(str(path)))


@pytest.mark.parametrize("ext", [".tsv", ".tab"])
def test_tsv_round_trip(tmp_path, ext):
    path = tmp_path / f"table{ext}"
    path.write_bytes(_csv_bytes("\t"))
    _check_frame(load_table(path))


def test_tsv_is_always_tab_delimited():
    # commas inside fields of a TSV must not be taken as delimiters
    data = b"label\tnote\tscore\n1\ta,b,c\t0.5\n0\td,e,f\t0.25\n"
    df = load_table(data, filename="x.tsv")
    assert list(df.columns) == ["label", "note", "score"]
    assert df["note"].tolist() == ["a,b,c", "d,e,f"]


def test_whitespace_delimited_txt():
    df = load_table(b"label score\n1 0.5\n0  0.25\n", filename="x.txt")
    assert list(df.columns) == ["label", "score"]
    assert df["score"].tolist() == [0.5, 0.25]


def test_quoted_fields_with_delimiters_and_newlines():
    data = b'name,score,label\n"Smith, J.",0.5,1\n"two\nlines",0.25,0\n'
    df = load_table(data, filename="x.csv")
    assert df["name"].tolist() == ["Smith, J.", "two\nlines"]
    assert df["score"].tolist() == [0.5, 0.25]


def test_semicolon_with_decimal_comma():
    data = "label;score\n1;0,75\n0;0,125\n".encode()
    df = load_table(data, filename="x.csv")
    assert df["score"].tolist() == [0.75, 0.125]
    assert pd.api.types.is_float_dtype(df["score"])


def test_semicolon_with_decimal_point_is_left_alone():
    df = load_table(b"label;score;note\n1;0.75;a,b\n0;0.125;c\n", filename="x.csv")
    assert df["score"].tolist() == [0.75, 0.125]
    assert df["note"].tolist() == ["a,b", "c"]


def test_parquet_round_trip(tmp_path):
    path = tmp_path / "t.parquet"
    FRAME.to_parquet(path, index=False)
    _check_frame(load_table(path))
    pq = tmp_path / "t.pq"
    FRAME.to_parquet(pq)
    _check_frame(load_table(pq))


def test_parquet_named_index_becomes_column(tmp_path):
    path = tmp_path / "t.parquet"
    FRAME.set_index(pd.Index([10, 11, 12, 13], name="id")).to_parquet(path)
    df = load_table(path)
    assert list(df.columns) == ["id", "label", "score", "n"]
    assert df["id"].tolist() == [10, 11, 12, 13]
    assert isinstance(df.index, pd.RangeIndex)


def test_xlsx_round_trip_reads_first_sheet(tmp_path):
    path = tmp_path / "t.xlsx"
    other = pd.DataFrame({"a": [1], "b": [2]})
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        FRAME.to_excel(writer, sheet_name="results", index=False)
        other.to_excel(writer, sheet_name="other", index=False)
    df = load_table(path)
    _check_frame(df)
    assert df.attrs["sheet_name"] == "results"
    assert df.attrs["sheet_names"] == ["results", "other"]


def test_bytes_source_needs_no_name_for_text_parquet_xlsx(tmp_path):
    _check_frame(load_table(_csv_bytes(";")))
    buf = io.BytesIO()
    FRAME.to_parquet(buf, index=False)
    _check_frame(load_table(buf.getvalue()))
    _check_frame(load_table(bytearray(buf.getvalue())))
    xbuf = io.BytesIO()
    FRAME.to_excel(xbuf, index=False, engine="openpyxl")
    _check_frame(load_table(xbuf.getvalue()))


class FakeUpload:
    """Like Streamlit's UploadedFile: .name, .size and .getvalue()."""

    def __init__(self, data: bytes, name: str):
        self._data = data
        self.name = name
        self.size = len(data)

    def getvalue(self) -> bytes:
        return self._data


def test_uploaded_file_like_sources(tmp_path):
    _check_frame(load_table(FakeUpload(_csv_bytes("\t"), "upload.tsv")))
    buf = io.BytesIO()
    FRAME.to_parquet(buf, index=False)
    _check_frame(load_table(FakeUpload(buf.getvalue(), "upload.parquet")))
    # filename= overrides the object's name
    _check_frame(load_table(FakeUpload(_csv_bytes(","), "upload.bin"), filename="x.csv"))


def test_open_file_sources(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(_csv_bytes(","))
    with open(path, "rb") as fh:  # .read() and .name
        _check_frame(load_table(fh))
    with open(path, "r", encoding="utf-8") as fh:  # text mode
        _check_frame(load_table(fh))
    _check_frame(load_table(io.BytesIO(_csv_bytes(";")), filename="x.csv"))
    _check_frame(load_table(io.BytesIO(_csv_bytes(";"))))  # no name: sniffed as text


def test_utf8_bom_and_non_ascii():
    data = "\ufeffdiagnostic,score\nmalin,0.5\nbénin,0.25\n".encode("utf-8")
    df = load_table(data, filename="x.csv")
    assert list(df.columns) == ["diagnostic", "score"]
    assert df["diagnostic"].tolist() == ["malin", "bénin"]


def test_latin1_fallback():
    data = "diagnostic;score\nbénin;0.5\nmalin;0.25\n".encode("latin-1")
    df = load_table(data, filename="x.csv")
    assert df["diagnostic"].tolist() == ["bénin", "malin"]


def test_utf16_with_bom():
    data = "label\tscore\n1\t0.5\n0\t0.25\n".encode("utf-16")
    df = load_table(data, filename="x.txt")
    assert list(df.columns) == ["label", "score"]


def test_column_names_stripped_values_kept():
    data = b" label , score ,id\n 1 ,0.5,007\nyes,0.25,010\n"
    df = load_table(data, filename="x.csv")
    assert list(df.columns) == ["label", "score", "id"]
    # values are not touched beyond pandas' parsing
    assert df["label"].tolist() == [" 1 ", "yes"]
    assert df["id"].tolist() == [7, 10]


def test_missing_cells_stay_missing():
    df = load_table(b"label,score\n1,\n,0.5\n0,0.1\n", filename="x.csv")
    assert df["score"].isna().tolist() == [True, False, False]
    assert df["label"].isna().tolist() == [False, True, False]


def test_blank_header_cell_is_allowed():
    # pandas' to_csv with its index writes a blank first header cell
    df = load_table(FRAME.to_csv().encode(), filename="x.csv")
    assert list(df.columns) == ["Unnamed: 0", "label", "score", "n"]


# --------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------


def _error(source, **kw) -> str:
    with pytest.raises(InputError) as info:
        load_table(source, **kw)
    assert isinstance(info.value, ValueError)
    return str(info.value)


@pytest.mark.parametrize("ext", [".csv", ".tsv", ".txt", ".parquet", ".xlsx"])
def test_empty_file(tmp_path, ext):
    path = tmp_path / f"empty{ext}"
    path.write_bytes(b"")
    msg = _error(path)
    assert "empty" in msg and f"empty{ext}" in msg


def test_blank_text_file():
    assert "empty" in _error(b"\n\n  \n", filename="x.csv")


@pytest.mark.parametrize("ext", [".csv", ".tsv"])
def test_header_only(ext):
    msg = _error(b"label,score\n" if ext == ".csv" else b"label\tscore\n", filename=f"h{ext}")
    assert "no data rows" in msg


def test_header_only_parquet_and_xlsx(tmp_path):
    empty = FRAME.iloc[:0]
    p = tmp_path / "h.parquet"
    empty.to_parquet(p, index=False)
    assert "no data rows" in _error(p)
    x = tmp_path / "h.xlsx"
    empty.to_excel(x, index=False)
    assert "no data rows" in _error(x)


def test_empty_xlsx_sheet(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    path = tmp_path / "blank.xlsx"
    wb.save(path)
    msg = _error(path)
    assert "empty" in msg and "first sheet" in msg


def test_binary_garbage_as_csv():
    rng = np.random.default_rng(0)
    garbage = rng.integers(0, 256, 5000, dtype=np.uint8).tobytes()
    msg = _error(garbage, filename="x.csv")
    assert "binary" in msg and "supported formats" in msg.lower()


def test_control_characters_without_nul_are_binary():
    garbage = bytes([1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 16, 17] * 50)
    assert "binary" in _error(garbage, filename="x.csv")


def test_xlsx_or_parquet_named_csv_says_so(tmp_path):
    xbuf = io.BytesIO()
    FRAME.to_excel(xbuf, index=False, engine="openpyxl")
    assert ".xlsx" in _error(xbuf.getvalue(), filename="data.csv")
    pbuf = io.BytesIO()
    FRAME.to_parquet(pbuf)
    assert ".parquet" in _error(pbuf.getvalue(), filename="data.csv")


def test_truncated_parquet(tmp_path):
    buf = io.BytesIO()
    FRAME.to_parquet(buf, index=False)
    data = buf.getvalue()
    for cut in (data[: len(data) // 2], data[:3], data[:-10]):
        msg = _error(cut, filename="x.parquet")
        assert "Parquet" in msg and ("truncated" in msg or "corrupt" in msg)


def test_corrupt_parquet_body():
    buf = io.BytesIO()
    FRAME.to_parquet(buf, index=False)
    data = bytearray(buf.getvalue())
    data[8 : len(data) - 8] = b"\x00" * (len(data) - 16)
    assert "Parquet" in _error(bytes(data), filename="x.parquet")


def test_truncated_and_corrupt_xlsx():
    buf = io.BytesIO()
    FRAME.to_excel(buf, index=False, engine="openpyxl")
    data = buf.getvalue()
    assert "xlsx" in _error(data[: len(data) // 2], filename="x.xlsx")
    assert "xlsx" in _error(b"label,score\n1,0.5\n", filename="x.xlsx")
    # a valid zip that is not a workbook
    zbuf = io.BytesIO()
    import zipfile

    with zipfile.ZipFile(zbuf, "w") as z:
        z.writestr("hello.txt", "hi")
    assert "xlsx" in _error(zbuf.getvalue(), filename="x.xlsx")


@pytest.mark.parametrize("name", ["data.json", "data.xls", "data", "data.csv.gz"])
def test_unknown_extension_lists_formats(name):
    msg = _error(b"label,score\n1,0.5\n", filename=name)
    assert "Supported formats" in msg
    for fmt in (".csv", ".tsv", ".parquet", ".xlsx"):
        assert fmt in msg
    if name.endswith(".xls"):
        assert "legacy" in msg


def test_supported_formats_constant():
    assert ".txt" in SUPPORTED_FORMATS and ".pq" in SUPPORTED_FORMATS


def test_too_large(tmp_path):
    data = _csv_bytes(",")
    msg = _error(data, max_bytes=10)
    assert "too large" in msg and "10 bytes" in msg
    path = tmp_path / "big.csv"
    path.write_bytes(data)
    msg = _error(path, max_bytes=10)
    assert "too large" in msg and "big.csv" in msg
    assert "too large" in _error(FakeUpload(data, "u.csv"), max_bytes=10)
    assert "too large" in _error(io.BytesIO(data), filename="x.csv", max_bytes=10)
    with open(path, "rb") as fh:
        assert "too large" in _error(fh, max_bytes=10)
    # the default limit is 200 MiB, and the message says so
    assert "200.0 MiB" in _error(_Sized(201 * 1024**2))


class _Sized(FakeUpload):
    def __init__(self, size):
        super().__init__(b"", "huge.csv")
        self.size = size


def test_bad_max_bytes():
    assert "max_bytes" in _error(b"a,b\n1,2\n", max_bytes=0)


def test_duplicate_column_names():
    msg = _error(b"label,score,score\n1,0.5,0.6\n", filename="x.csv")
    assert "duplicate" in msg and "'score'" in msg
    # after stripping surrounding whitespace
    assert "duplicate" in _error(b"label,score , score\n1,0.5,0.6\n", filename="x.csv")


def test_duplicate_column_names_xlsx(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["label", "s", "s"])
    ws.append([1, 0.5, 0.6])
    path = tmp_path / "dup.xlsx"
    wb.save(path)
    assert "duplicate" in _error(path)


def test_duplicate_column_names_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_arrays([pa.array([1, 0]), pa.array([0.5, 0.2]), pa.array([0.1, 0.2])],
                                 names=["label", "s", "s"])
    path = tmp_path / "dup.parquet"
    pq.write_table(table, path)
    assert "duplicate" in _error(path)


def test_single_column_says_delimiter():
    msg = _error(b"label score\n1 0.5\n0 0.25\n", filename="x.csv")
    assert "single column" in msg and "delimiter" in msg


def test_single_column_parquet(tmp_path):
    path = tmp_path / "one.parquet"
    FRAME[["score"]].to_parquet(path, index=False)
    msg = _error(path)
    assert "single column" in msg and "label column and a score column" in msg


def test_ragged_rows():
    msg = _error(b"label,score\n1,0.5,9\n0,0.25,8\n", filename="x.csv")
    assert "more fields than the header" in msg
    msg = _error(b"a,b,c\n1,2,3\n4,5,6,7\n1,2,3\n", filename="x.csv")
    assert "could not be read" in msg or "more fields" in msg


def test_missing_path_and_folder(tmp_path):
    assert "not found" in _error(tmp_path / "nope.csv")
    assert "folder" in _error(tmp_path)


def test_unsupported_source_type():
    assert "Cannot read a table" in _error(12345)


# --------------------------------------------------------------------------
# bundled samples
# --------------------------------------------------------------------------


def test_bundled_thesis_example():
    df = load_table(DATA / "thesis_example.csv")
    assert list(df.columns) == ["label", "score"]
    assert len(df) == 60
    assert (df["label"] == 1).sum() == 20 and (df["label"] == 0).sum() == 40


def test_bundled_heart_disease():
    df = load_table(DATA / "heart_disease_test20.csv")
    assert list(df.columns) == ["cholesterol", "thalac", "oldpeak", "disease", "score"]
    assert len(df) == 20
    assert sorted(df["disease"].unique()) == ["negative", "positive"]


def test_bundled_breast_cancer():
    df = load_table(DATA / "breast_cancer_cv.csv")
    assert list(df.columns) == ["id", "fold", "label", "logistic", "naive_bayes"]
    assert len(df) == 569
    assert (df["label"] == "malignant").sum() == 212
    assert sorted(df["fold"].unique()) == [1, 2, 3, 4, 5]
    for c in ("logistic", "naive_bayes"):
        assert pd.api.types.is_float_dtype(df[c])
        assert df[c].between(0, 1).all()


# --------------------------------------------------------------------------
# issue 18: Excel's sep= line, a missing header row, documents that are not
# tables, memory, Parquet limits and checksums, xlsx reading, columns=
# --------------------------------------------------------------------------


@pytest.mark.parametrize("line, sep", [("sep=;", ";"), ("SEP=|", "|"), ("sep=,", ","), ("sep=\t", "\t")])
def test_excel_sep_line_sets_the_delimiter_and_is_skipped(line, sep):
    body = f"{line}\r\nlabel{sep}score\r\n1{sep}0.5\r\n0{sep}0.25\r\n"
    df = load_table(body.encode(), filename="x.csv")
    assert list(df.columns) == ["label", "score"]
    assert df["score"].tolist() == [0.5, 0.25]
    assert df.attrs["warnings"] == []


def test_excel_sep_line_with_bom_and_decimal_comma():
    df = load_table("\ufeffsep=;\nlabel;score\n1;0,75\n0;0,125\n".encode("utf-8"), filename="x.csv")
    assert df["score"].tolist() == [0.75, 0.125]
    assert "empty" in _error(b"sep=;\n", filename="x.csv")
    # a column genuinely named "sep=x" in a one-line-header table is not Excel's line
    df = load_table(b"sep=a,score\n1,0.5\n0,0.2\n", filename="x.csv")
    assert list(df.columns) == ["sep=a", "score"]


def test_tsv_ignores_sep_line_only_when_it_is_not_excels():
    df = load_table(b"sep=;\tx\nlabel\tscore\n", filename="x.tsv")
    assert list(df.columns) == ["sep=;", "x"]


@pytest.mark.parametrize("first", ["1,0.82", "0;0.5", "-1,3e-2", "1.5,.25"])
def test_headerless_csv_warns(first):
    sep = ";" if ";" in first else ","
    rows = [first] + [f"1{sep}0{',' if sep == ';' else '.'}7", f"0{sep}0{',' if sep == ';' else '.'}2"]
    df = load_table(("\n".join(rows) + "\n").encode(), filename="x.csv")
    (msg,) = df.attrs["warnings"]
    assert "no header row" in msg and "'x.csv'" in msg and len(df) == 2


def test_header_with_a_name_does_not_warn():
    assert load_table(b"1,score\n1,0.5\n0,0.2\n", filename="x.csv").attrs["warnings"] == []
    assert load_table(b"2019,2020\n1,0.5\n0,0.2\n", filename="x.csv").attrs["warnings"] != []


def test_headerless_csv_with_repeated_numbers_says_so():
    msg = _error(b"1,0.5,0.5\n0,0.2,0.3\n", filename="x.csv")
    assert "duplicate column names: '0.5'" in msg and "no header row" in msg


def test_headerless_xlsx_warns(tmp_path):
    path = tmp_path / "h.xlsx"
    pd.DataFrame([[1, 0.9], [0, 0.2], [1, 0.7]]).to_excel(path, index=False, header=False)
    df = load_table(path)
    (msg,) = df.attrs["warnings"]
    assert "first sheet ('Sheet1')" in msg and "no header row" in msg
    assert len(df) == 2


@pytest.mark.parametrize(
    "text, words",
    [
        (b"<!DOCTYPE html>\n<html><body>Sign in</body></html>\n", ["web page (HTML)", "sign-in"]),
        (b"  <html>\n<head></head></html>", ["web page (HTML)"]),
        (b'<?xml version="1.0"?>\n<rows><r y="1"/></rows>\n', ["XML document"]),
        (b'{"y": [1, 0], "s": [0.9, 0.2]}\n', ["JSON"]),
        (b'[\n {"y": 1, "s": 0.9}\n]\n', ["JSON"]),
    ],
)
def test_documents_that_are_not_tables(text, words):
    msg = _error(text, filename="data.csv")
    assert "is not a table" in msg
    for w in words:
        assert w in msg


def test_bracketed_header_is_still_a_table():
    df = load_table(b"[label],[score]\n1,0.5\n0,0.2\n", filename="x.csv")
    assert list(df.columns) == ["[label]", "[score]"]


def test_windows_1252_and_invalid_utf8_after_bom():
    df = load_table("label;score;note\n1;0,5;5 €\n0;0,2;“x”\n".encode("cp1252"), filename="x.csv")
    assert df["note"].tolist() == ["5 €", "“x”"]
    df = load_table(b"\xef\xbb\xbflabel,note\n1,caf\xe9\n0,x\n", filename="x.csv")
    assert df["note"].tolist()[0] == "café"


def test_csv_is_parsed_from_bytes_without_a_text_copy():
    """Peak memory of load_table stays near pandas' own (a StringIO copy took ~5x the file)."""
    import tracemalloc

    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"y": rng.integers(0, 2, 200_000), "a": rng.random(200_000),
                          "b": rng.random(200_000)})
    data = frame.to_csv(index=False, float_format="%.17g").encode()
    assert len(data) > 8 * 1024**2
    tracemalloc.start()
    try:
        df = load_table(data, filename="x.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(df["a"].to_numpy(), frame["a"].to_numpy())
    assert peak < 1.5 * len(data), (peak, len(data))  # before: ~5.5x the file (93 MB -> 515 MB)


def test_parquet_checksums_are_verified():
    import pyarrow as pa
    import pyarrow.parquet as pq

    values = np.arange(1000, dtype=np.float64) / 7
    table = pa.table({"y": pa.array(np.arange(1000) % 2), "s": pa.array(values)})
    for checksum in (True, False):
        buf = io.BytesIO()
        pq.write_table(table, buf, compression="none", use_dictionary=False, write_page_checksum=checksum)
        data = bytearray(buf.getvalue())
        at = bytes(data).index(values[500].tobytes())
        data[at + 7] ^= 0x01  # flip one bit of one score
        if checksum:
            msg = _error(bytes(data), filename="x.parquet")
            assert "could not be read as Parquet" in msg and "checksum verification failed" in msg
        else:  # without checksums the change cannot be seen
            df = load_table(bytes(data), filename="x.parquet")
            assert df["s"].iloc[500] != values[500]


def test_parquet_keeps_types_and_reads_nested_columns():
    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = pd.DataFrame({"label": ["pos", "neg", None], "cat": pd.Categorical(["a", "b", "a"]),
                          "s": [0.5, 0.25, 0.75], "i": pd.array([1, None, 3], dtype="Int64")})
    buf = io.BytesIO()
    frame.to_parquet(buf)
    df = load_table(buf.getvalue(), filename="x.parquet")
    expected = pd.read_parquet(io.BytesIO(buf.getvalue()))
    pd.testing.assert_frame_equal(df, expected)
    nested = pa.table({"y": [1, 0], "tags": pa.array([["a"], []]), "s": [0.9, 0.1]})
    nbuf = io.BytesIO()
    pq.write_table(nested, nbuf)
    df = load_table(nbuf.getvalue(), filename="n.parquet")
    assert list(df.columns) == ["y", "tags", "s"] and list(df["tags"].iloc[0]) == ["a"]


def test_columns_argument_every_format(tmp_path):
    paths = {".csv": tmp_path / "t.csv", ".parquet": tmp_path / "t.parquet", ".xlsx": tmp_path / "t.xlsx"}
    paths[".csv"].write_bytes(b" label , score ,n\npos,0.9,1\nneg,0.25,2\n")
    FRAME.to_parquet(paths[".parquet"], index=False)
    FRAME.to_excel(paths[".xlsx"], index=False)
    for ext, path in paths.items():
        df = load_table(path, columns=["score", "label"])
        assert list(df.columns) == ["score", "label"], ext
        assert df["label"].tolist()[:2] == ["pos", "neg"]
        assert list(load_table(path, columns="label").columns) == ["label"]  # one is allowed here
        msg = _error(path, columns=["label", "nope"])
        assert "no column 'nope'" in msg and "'score'" in msg
    assert "list of column names" in _error(paths[".csv"], columns=[1])
    assert "more than once" in _error(paths[".csv"], columns=["label", "label"])
    assert "non-empty" in _error(paths[".csv"], columns=[])


def test_parquet_index_columns_with_columns_argument(tmp_path):
    path = tmp_path / "t.parquet"
    FRAME.set_index(pd.Index([10, 11, 12, 13], name="id")).to_parquet(path)
    assert list(load_table(path, columns=["score"]).columns) == ["score"]
    assert load_table(path, columns=["id", "score"])["id"].tolist() == [10, 11, 12, 13]


def test_xlsx_header_is_read_without_scanning_the_sheet():
    """The first row comes from the start of the sheet, with shared strings and entities."""
    from bad_files import corpus

    sheet = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
             '<row r="1"><c r="A1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>s &amp; t</t></is></c></row>'
             '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>7</v></c><c r="C2"><v>0.5</v></c></row>'
             '<row r="3"><c r="A3" t="s"><v>0</v></c><c r="B3"><v>8</v></c><c r="C3"><v>0.25</v></c></row>'
             "</sheetData></worksheet>")
    shared = ('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>yes</t></si>'
              '<si><r><t>lab</t></r><r><t>el</t></r></si></sst>')
    data = corpus._xlsx_bytes(sheet, shared=shared, sheet_name="S &amp; P")
    df = load_table(data, filename="x.xlsx")
    assert list(df.columns) == ["label", "Unnamed: 1", "s & t"]
    assert df["label"].tolist() == ["yes", "yes"] and df["s & t"].tolist() == [0.5, 0.25]
    assert df.attrs["sheet_name"] == "S & P"
    # a sheet whose first row is empty: the table must start in row 1
    below = sheet.replace('r="1"', 'r="5"').replace('r="A1"', 'r="A5"').replace('r="C1"', 'r="C5"')
    msg = _error(corpus._xlsx_bytes(below, shared=shared), filename="x.xlsx")
    assert "first row" in msg and "row 1" in msg


def test_xlsx_calamine_and_openpyxl_agree(tmp_path, monkeypatch):
    import datetime

    import rocci.data._binary as rio  # the xlsx reader and its engine choice

    frame = pd.DataFrame({"label": ["pos", "neg", None, "pos"], "score": [0.9, 0.25, 0.5, -1.5],
                          "n": [1, 2, 3, 4], "flag": [True, False, True, False],
                          "when": [datetime.datetime(2024, 1, d) for d in (1, 2, 3, 4)]})
    path = tmp_path / "t.xlsx"
    frame.to_excel(path, index=False)
    assert rio._xlsx_engine() == "calamine"
    fast = load_table(path)
    monkeypatch.setattr(rio, "_xlsx_engine", lambda: "openpyxl")
    slow = load_table(path)
    pd.testing.assert_frame_equal(fast, slow, check_dtype=False)
    assert fast["n"].tolist() == [1, 2, 3, 4] and fast["score"].tolist() == [0.9, 0.25, 0.5, -1.5]
