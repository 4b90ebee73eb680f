"""load_table's faster paths for delimited text (issue 17) give exactly what the plain paths give.

* UTF-8 text read by the C parser is handed to pandas whole (``_WholeFile``) instead of through
  ``io.BytesIO``; any failure there is read again through ``io.BytesIO`` so that errors are unchanged.
* the control-character count of the binary-data check is a regex;
* ``_sample_records`` stops after 201 records when the csv module cannot fail further on.

Each test compares with the plain path (the fast one switched off) or with the former code, kept
here as a reference.
"""

from __future__ import annotations

import csv
import io
import random
import warnings

import numpy as np
import pandas as pd
import pytest

from rocci import InputError, load_table
from rocci.data import io as rio


class _Refused:
    """Stands in for _WholeFile: pandas fails on it, so load_table takes the io.BytesIO read."""

    def __init__(self, data):
        pass

    def read(self, size=-1):
        raise RuntimeError("fast path switched off")

    def __iter__(self):
        return iter(())


def _count_whole_reads(monkeypatch):
    calls = []

    class Counting(rio._WholeFile):
        def read(self, size=-1):
            calls.append(size)
            return super().read(size)

    monkeypatch.setattr(rio, "_WholeFile", Counting)
    return calls


def _load_both(monkeypatch, data, filename, **kw):
    """(result or InputError text, warnings) with the fast path, then without it."""
    out = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(rio, "_WholeFile", _Refused)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    got = load_table(data, filename=filename, **kw)
                except InputError as exc:
                    got = str(exc)
        out.append((got, [(w.category, str(w.message)) for w in caught]))
    return out


def _assert_same(monkeypatch, data, filename="x.csv", **kw):
    (fast, fast_warn), (plain, plain_warn) = _load_both(monkeypatch, data, filename, **kw)
    assert fast_warn == plain_warn
    if isinstance(plain, str):
        assert fast == plain
        return plain
    pd.testing.assert_frame_equal(fast, plain, check_exact=True)
    assert list(fast.columns) == list(plain.columns)
    assert fast.columns.dtype == plain.columns.dtype
    assert fast.attrs == plain.attrs
    for col in fast.columns:  # bit for bit, NaN included
        a, b = fast[col].to_numpy(), plain[col].to_numpy()
        if a.dtype.kind == "f":
            assert a.tobytes() == b.tobytes()
    return fast


# --------------------------------------------------------------------------
# which path is taken
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, whole",
    [
        (b"label,score\n1,0.5\n0,0.25\n", True),  # ASCII
        ("diagnostic,score\nbénin,0.5\nmalin,0.25\n".encode("utf-8"), True),  # UTF-8, not ASCII
        ("label\tscore\n1\t0.5\n0\t0.25\n".encode("utf-16"), True),  # UTF-16: re-encoded as UTF-8
        ("\ufeffdiagnostic,score\nbénin,0.5\nmalin,0.25\n".encode("utf-8"), False),  # BOM: utf-8-sig
        ("diagnostic;score\nbénin;0.5\nmalin;0.25\n".encode("latin-1"), False),  # latin-1 / cp1252
        ("label;score;note\n1;0,5;5 €\n0;0,2;“x”\n".encode("cp1252"), False),
    ],
)
def test_whole_file_read_only_for_utf8(monkeypatch, data, whole):
    calls = _count_whole_reads(monkeypatch)
    load_table(data, filename="x.csv")
    assert bool(calls) is whole


def test_whitespace_delimited_text_uses_the_python_engine(monkeypatch):
    calls = _count_whole_reads(monkeypatch)
    df = load_table(b"label score\n1 0.5\n0 0.25\n", filename="x.txt")
    assert list(df.columns) == ["label", "score"]
    assert calls == []


def test_whole_file_is_handed_over_without_a_copy():
    data = b"label,score\n1,0.5\n"
    reader = rio._WholeFile(data)
    assert reader.read(262144) is data
    assert reader.read(262144) == b""


# --------------------------------------------------------------------------
# same frames, warnings and errors with and without the fast path
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, filename",
    [
        (b"label,score\n1,0.5\n0,0.25\n", "x.csv"),
        ("diagnostic,score,note\nbénin,0.5,très bien\nmalin,0.25,日本語\n".encode("utf-8"), "x.csv"),
        ("\ufeffdiagnostic,score\nbénin,0.5\nmalin,0.25\n".encode("utf-8"), "x.csv"),
        ("diagnostic;score\nbénin;0,5\nmalin;0,25\n".encode("latin-1"), "x.csv"),
        ("label;score;note\n1;0,5;5 €\n0;0,2;“x”\n".encode("cp1252"), "x.csv"),
        ("label\tscore\n1\t0.5\n0\t0.25\n".encode("utf-16"), "x.tsv"),
        (b"\xff\xfe" + "label\tscore\tnote\n1\t0.5\tgrüß\n0\t0.25\tx\n".encode("utf-16-le"), "x.tsv"),
        ("sep=;\nlabel;score\n1;0,75\n0;0,125\n".encode(), "x.csv"),
        ("\ufeffsep=;\nlabel;score\n1;0,75\n0;0,125\n".encode(), "x.csv"),
        (b" label , score \r\n1,0.5\r\n0,\r\n\r\n1,NaN\r\n", "x.csv"),
        (b'label,score,note\n1,0.5,"a, b"\n0,0.25,"multi\nline"\n', "x.csv"),
        (b"1,0.5\n0,0.25\n1,0.75\n", "x.csv"),  # no header row: a warning
        (b"label|score\n1|1e-300\n0|-0.0\n1|inf\n0|0.30000000000000004\n", "x.csv"),
    ],
)
def test_same_result_as_the_plain_read(monkeypatch, data, filename):
    got = _assert_same(monkeypatch, data, filename)
    assert not isinstance(got, str)


def test_same_result_with_columns(monkeypatch):
    data = "a,label,score,note\n1,1,0.5,é\n2,0,0.25,x\n".encode("utf-8")
    got = _assert_same(monkeypatch, data, columns=["score", "label"])
    assert list(got.columns) == ["score", "label"]


@pytest.mark.parametrize(
    "data",
    [
        b"label,score\n1,0.5\n0,0.25,7\n",  # more fields than the header
        b'label,score\n1,"0.5\n0,0.25\n',  # unbalanced quote
        b"label,score\n",  # header only
        b"label,label\n1,2\n",  # duplicate names
        b"label\n1\n0\n",  # one column
    ],
)
def test_same_error_as_the_plain_read(monkeypatch, data):
    got = _assert_same(monkeypatch, data)
    assert isinstance(got, str)


def test_a_failing_fast_read_is_read_again_the_plain_way(monkeypatch):
    calls = []
    real = pd.read_csv

    def read_csv(source, **kw):
        calls.append(type(source).__name__)
        if isinstance(source, rio._WholeFile):
            raise pd.errors.ParserError("from the fast path")
        return real(source, **kw)

    monkeypatch.setattr(rio.pd, "read_csv", read_csv)
    df = load_table(b"label,score\n1,0.5\n0,0.25\n", filename="x.csv")
    assert calls == ["_WholeFile", "BytesIO"]
    assert df["score"].tolist() == [0.5, 0.25]


def _big_csv(rows: int, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)
    frame = pd.DataFrame({"label": y, "model_a": rng.normal(size=rows) + y, "model_b": rng.normal(size=rows)})
    frame.loc[rng.choice(rows, 50, replace=False), "model_b"] = np.nan
    return frame.to_csv(index=False, float_format="%.17g").encode()


def test_same_result_on_many_chunks(monkeypatch):
    # several of pandas' low-memory chunks (2**18 rows for three columns), 17-digit floats, NaN
    _assert_same(monkeypatch, _big_csv(600_000))


def test_same_mixed_type_warning_on_many_chunks(monkeypatch):
    # a column that is numbers in pandas' first chunks and text later: DtypeWarning, object column
    rows = 600_000
    note = np.arange(rows).astype(str).astype(object)
    note[-10:] = "text"
    data = pd.DataFrame({"label": np.arange(rows) % 2, "score": np.linspace(0, 1, rows), "note": note})
    data = data.to_csv(index=False).encode()
    (fast, fast_warn), _ = _load_both(monkeypatch, data, "x.csv")
    assert any("mixed types" in text for _, text in fast_warn)
    _assert_same(monkeypatch, data)


def test_same_error_late_in_a_large_file(monkeypatch):
    data = _big_csv(300_000) + b"1,0.5,0.5,9\n"
    got = _assert_same(monkeypatch, data)
    assert "Expected 3 fields in line 300002, saw 4" in got


def test_latin1_after_the_sniffed_head_falls_back_as_before(monkeypatch):
    # the only non-UTF-8 byte is far past the sniffed head: the whole file is still read as cp1252
    data = _big_csv(20_000) + "1,0.5,0.25\n".encode() + "0,0.5,0.25\n".encode()
    data = b"label,model_a,model_b,note\n" + b"\n".join(
        line + b",x" for line in data.split(b"\n")[1:] if line
    ) + "\n1,0.5,0.5,café\n".encode("latin-1")
    assert len(data) > 4 * (rio._SNIFF_CHARS + 2)
    calls = _count_whole_reads(monkeypatch)
    df = load_table(data, filename="x.csv")
    assert calls == []  # not UTF-8: not the fast path
    assert df["note"].iloc[-1] == "café"
    _assert_same(monkeypatch, data)


# --------------------------------------------------------------------------
# the head checks: same answers as the former code
# --------------------------------------------------------------------------


def _old_control_count(sample: str) -> int:
    return sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\r\n\f\v")


def test_control_character_count_is_unchanged():
    every = "".join(chr(i) for i in range(0x3000))
    assert len(rio._CONTROL.findall(every)) == _old_control_count(every) == 27
    rng = random.Random(0)
    for _ in range(200):
        sample = "".join(chr(rng.choice([rng.randrange(0, 40), rng.randrange(0, 0x250)])) for _ in range(300))
        assert len(rio._CONTROL.findall(sample)) == _old_control_count(sample)


def _old_sample_records(text: str, delimiter: str) -> list[list[str]]:
    sample = text[: rio._SNIFF_CHARS]
    truncated = len(text) > len(sample)
    if truncated and "\n" in sample:
        sample = sample[: sample.rindex("\n") + 1]
    try:
        rows = list(csv.reader(io.StringIO(sample), delimiter=delimiter))
    except csv.Error:
        return []
    rows = [r for r in rows if r and any(cell.strip() for cell in r)]
    if truncated and len(rows) > 1:
        rows = rows[:-1]
    return rows[:200]


def _texts():
    rng = random.Random(1)
    pieces = ["1", "0.5", "a b", "", " ", '"q,;\t|"', '"multi\nline"', '"open', "é", "x\x00y", "\r"]
    ends = ["\n", "\r\n", "\r", "\n\n", "\n \n"]
    for n in (1, 5, 150, 199, 200, 201, 202, 250, 3000, 40000):
        for d in ",;\t|":
            for _ in range(3):
                rows = []
                for _ in range(n):
                    cells = [rng.choice(pieces[:4]) if rng.random() < 0.97 else rng.choice(pieces) for _ in range(3)]
                    end = "\n" if rng.random() < 0.98 else rng.choice(ends)
                    rows.append(d.join(cells) + end)
                yield "".join(rows)
    yield "a,b\n" + "1,2\r\n" * 5000
    yield "a,b\n" + "1,2\n" * 300 + "3\r4,5\n" * 10
    yield "a,b\n" + "1,2\n" * 300 + '"x\x00",1\n'
    yield "a,b\n" + "1,2\n" * 30000  # longer than the sample: truncated
    yield "a,b\n" + "1," + "9" * 70000 + "\n"  # one field longer than the sample


def test_sample_records_are_unchanged():
    for text in _texts():
        for d in ",;\t|":
            assert rio._sample_records(text, d) == _old_sample_records(text, d), (text[:80], d)


def test_sniffing_is_unchanged_on_the_bench_table():
    text = _big_csv(5000).decode()
    for d in ",;\t|":
        assert rio._sample_records(text, d) == _old_sample_records(text, d)
    assert rio._sniff_delimiter(text, allow_whitespace=False) == ","
