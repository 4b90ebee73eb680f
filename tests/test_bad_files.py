"""Bad-file corpus (issue 7, "Safety and reliability"): each bad file gives
a clear :class:`rocci.InputError` (or is read correctly), never a crash."""
import sys
from pathlib import Path

import numpy as np
import pytest

import rocci
from rocci.data import prepare_binary

sys.path.insert(0, str(Path(__file__).resolve().parent / "bad_files"))
from corpus import BAD, zip_bomb as _zip_bomb  # noqa: E402


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
