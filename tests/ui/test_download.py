"""CSV exports (ui/download.py): the numbers as computed, without binary noise, formulas neutralised."""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pytest

from ui.download import csv_bytes

AWKWARD = [0.1, 0.1 + 0.2, 1 / 3, 1e-300, 5e-324, -2.5, 1e16, 2.0**53 + 2, 123456789.123, -0.0, 3.0,
           float("nan"), float("inf"), float("-inf")]


def _lines(df: pd.DataFrame, **kw) -> list[str]:
    return csv_bytes(df, **kw).decode("utf-8").splitlines()


def test_floats_are_written_as_their_shortest_round_trip_text():
    lines = _lines(pd.DataFrame({"x": AWKWARD}))
    assert lines[0] == "x"
    # (a missing value is an empty cell; in a one-column file pandas quotes it, so the row is not blank)
    assert lines[1:] == ["0.1", "0.30000000000000004", "0.3333333333333333", "1e-300", "5e-324", "-2.5",
                         "1e+16", "9007199254740994.0", "123456789.123", "-0.0", "3.0", '""', "inf", "-inf"]
    assert "0.10000000000000001" not in "\n".join(lines)


def test_every_float_reads_back_bit_for_bit():
    rng = np.random.default_rng(7)
    values = np.concatenate([AWKWARD, rng.random(200), rng.normal(size=200) * 10.0 ** rng.integers(-30, 30, 200)])
    back = pd.read_csv(io.StringIO(csv_bytes(pd.DataFrame({"x": values})).decode()))
    got = back["x"].to_numpy()
    finite = np.isfinite(values)
    assert np.array_equal(got[finite].view(np.int64), values[finite].view(np.int64))  # every bit, -0.0 too
    assert np.isnan(got[np.isnan(values)]).all()
    assert list(got[np.isinf(values)]) == list(values[np.isinf(values)])


def test_integers_stay_integers_and_large_ones_exact():
    big = [0, 7, -3, 2**53 + 1, 2**63 - 1, -(2**63)]
    lines = _lines(pd.DataFrame({"n": np.array(big, dtype=np.int64), "u": np.array([2**64 - 1] * 6, np.uint64)}))
    assert lines[1:] == [f"{v},{2**64 - 1}" for v in big]
    back = pd.read_csv(io.StringIO("\n".join(lines)))
    assert back["n"].dtype == np.int64 and list(back["n"]) == big


def test_float32_results_are_not_padded():
    assert _lines(pd.DataFrame({"x": np.array([0.1, 0.7], dtype=np.float32)}))[1:] == ["0.1", "0.7"]


def test_nullable_and_object_columns():
    df = pd.DataFrame({
        "a": pd.array([1, None, 3], dtype="Int64"),
        "b": pd.array([0.1, None, 0.30000000000000004], dtype="Float64"),
        "c": pd.Series([0.1, "=1+1", 2], dtype=object),
    })
    assert _lines(df)[1:] == ["1,0.1,0.1", ",,'=1+1", "3,0.30000000000000004,2"]


def test_formulas_still_neutralised_beside_numbers():
    df = pd.DataFrame({"-model": ["=cmd()", "+x", "@y", "ok"], "v": [0.1, -0.2, 1e-300, math.pi]})
    lines = _lines(df)
    assert lines == ["'-model,v", "'=cmd(),0.1", "'+x,-0.2", "'@y,1e-300", f"ok,{math.pi!r}"]


def test_index_labels_neutralised_and_numbers_kept():
    df = pd.DataFrame({"v": [0.1, 0.2]}, index=pd.Index(["=a", "b"], name="model"))
    assert _lines(df, index=True) == ["model,v", "'=a,0.1", "b,0.2"]


@pytest.mark.parametrize("value", [0.1, 0.7, 1.1, 2.675, 1e-7, 1 / 7])
def test_one_decimal_values_read_as_typed(value):
    assert _lines(pd.DataFrame({"x": [value]}))[1] == repr(value)
