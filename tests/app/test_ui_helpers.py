"""Pure helpers of the dashboard: CSV neutralisation, typed lists, safe Markdown."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from ui.download import csv_bytes, neutralise, safe_frame
from ui.operating import signed_money
from ui.text import ParseError, md_escape, parse_numbers, percent, signed_interval


@pytest.mark.parametrize("cell", ["=1+2", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx", "=HYPERLINK(\"http://x\")"])
def test_formula_cells_get_a_leading_quote(cell):
    assert neutralise(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["abc", "1=1", "", " =x", 3, -2.5, None])
def test_other_cells_unchanged(cell):
    assert neutralise(cell) == cell


def test_csv_bytes_neutralises_text_and_names_but_not_numbers():
    df = pd.DataFrame({"=model": ["=cmd()", "ok"], "value": [-0.5, 1.0], "flag": [True, False]})
    text = csv_bytes(df).decode("utf-8")
    back = pd.read_csv(io.StringIO(text))
    assert list(back.columns) == ["'=model", "value", "flag"]
    assert list(back["'=model"]) == ["'=cmd()", "ok"]
    assert list(back["value"]) == [-0.5, 1.0]  # negative numbers stay numbers
    assert list(back["flag"]) == [True, False]


def test_csv_bytes_keeps_full_precision():
    df = pd.DataFrame({"x": [0.1 + 0.2, 1 / 3]})
    back = pd.read_csv(io.StringIO(csv_bytes(df).decode()))
    assert list(back["x"]) == [0.1 + 0.2, 1 / 3]


def test_safe_frame_does_not_modify_input():
    df = pd.DataFrame({"a": ["=x"]})
    safe_frame(df)
    assert df.loc[0, "a"] == "=x"


def test_parse_numbers():
    assert parse_numbers("0.5, 0.1;0.2  0.1", what="level") == [0.1, 0.2, 0.5]
    assert parse_numbers("−0.5", what="threshold") == [-0.5]  # a typed minus sign
    with pytest.raises(ParseError, match="'abc' is not a number"):
        parse_numbers("0.1, abc", what="level")
    with pytest.raises(ParseError, match="strictly between 0 and 1"):
        parse_numbers("0", what="FPR level", low=0, high=1, inclusive=False)
    with pytest.raises(ParseError, match="outside"):
        parse_numbers("1.5", what="rate", low=0, high=1)
    with pytest.raises(ParseError, match="at least one"):
        parse_numbers("  ", what="rate")
    with pytest.raises(ParseError, match="finite"):
        parse_numbers("inf", what="rate")


def test_md_escape_neutralises_markdown_and_html():
    s = md_escape("**bold** [x](http://e) <b>:red[hi]</b>\nnext")
    assert "\\*\\*bold\\*\\*" in s
    assert "\\[x\\]\\(http" in s
    assert "\\<b\\>" in s and "\\:red\\[" in s
    assert "\n" not in s


def test_percent():
    assert percent(0.95) == "95%"
    assert percent(0.975) == "97.5%"
    assert percent(0.9746794344808963) == "97.5%"


@pytest.mark.parametrize("value, low, high, decimals, scale, want", [
    # the usual width keeps the page's decimals
    (0.0123, -0.004, 0.05, 3, 1.0, ("+0.012", "-0.004", "+0.050")),
    (0.021, 0.008, 0.034, 1, 100.0, ("+2.1", "+0.8", "+3.4")),
    # two near-copies of one model: enough decimals for two significant digits of the width, no -0.000
    (3e-5, -2e-5, 9e-5, 3, 1.0, ("+0.00003", "-0.00002", "+0.00009")),
    (-6e-5, -1.6e-4, 4e-5, 4, 1.0, ("-0.00006", "-0.00016", "+0.00004")),
    (-1e-9, -0.002, 0.002, 1, 100.0, ("0.00", "-0.20", "+0.20")),
    # capped at 6 decimals; a zero-width interval keeps the default
    (1e-9, 0.0, 2e-9, 3, 1.0, ("0.000000", "0.000000", "0.000000")),
    (0.5, 0.5, 0.5, 3, 1.0, ("+0.500", "+0.500", "+0.500")),
])
def test_signed_interval_shows_narrow_intervals(value, low, high, decimals, scale, want):
    assert signed_interval(value, low, high, decimals, scale=scale) == want


def test_signed_money_always_shows_the_sign():
    assert [signed_money(v) for v in (0.0437, -0.164, 0.0, 1234.5)] == ["+0.0437", "-0.164", "0", "+1,234"]


def test_result_store_is_a_bounded_lru():
    from ui.cache import ResultStore

    store = ResultStore(max_entries=2)
    store.put("a", 1)
    store.put("b", 2)
    assert store.get("a") == 1  # "a" is now the most recent
    store.put("c", 3)  # evicts "b"
    assert store.get("b") is None and store.get("a") == 1 and store.get("c") == 3
    store.clear()
    assert store.get("a") is None


def test_worlds_report_progress_once_per_world():
    import numpy as np

    from rocci.coverage.worlds import draw_worlds

    seen = []
    y = np.r_[np.ones(10, bool), np.zeros(15, bool)]
    s = np.linspace(0, 1, 25)
    w = draw_worlds(y, s, 4, 1, 0.5, progress=lambda f, msg: seen.append((f, msg)))
    assert [f for f, _ in seen] == [0.25, 0.5, 0.75, 1.0] and seen[-1][1] == "World 4 of 4"
    assert w.tpr.size == 4
