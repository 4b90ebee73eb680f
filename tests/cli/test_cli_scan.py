"""``rocci scan``: the counts' summary is rocci.scan's (rows, classes, dropped rows, distinct scores per model),
in text and --json, on a folder of Parquet files, a glob, a CSV and a DuckDB table."""

from __future__ import annotations

import json

import duckdb
import numpy as np
import pandas as pd
import pytest
from clihelpers import assert_bad_input, run

import rocci


@pytest.fixture
def scores(tmp_path):
    """A folder of two Parquet files: string labels, tied scores, missing values, an id and a fold column."""
    rng = np.random.default_rng(33)
    n = 600
    pos = rng.random(n) < 0.3
    frame = pd.DataFrame({
        "id": np.arange(n),
        "y": np.where(pos, "churn", "stay"),
        "gbm": np.round(rng.normal(size=n) + 1.2 * pos, 2),
        "logit": np.round(rng.normal(size=n) + 0.8 * pos, 3),
        "fold": rng.integers(1, 6, n),
    })
    frame.loc[[5, 17, 40], "gbm"] = np.nan
    frame.loc[[17, 99], "y"] = None
    folder = tmp_path / "scores"
    folder.mkdir()
    frame.iloc[:300].to_parquet(folder / "part-0.parquet")
    frame.iloc[300:].to_parquet(folder / "part-1.parquet")
    return frame, folder


def test_summary_is_the_scans(scores):
    frame, folder = scores
    code, out, err = run("scan", folder, "--label", "y", "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    ref = rocci.scan(str(folder / "*.parquet"), label="y", scores=["gbm", "logit"], pos_label="churn")
    assert [m["model"] for m in got["models"]] == ["gbm", "logit"]  # id and fold are not scores
    assert got["pos_label"] == "churn" and got["pos_label_chosen"].startswith("guessed: a usual name")
    assert (got["n_rows"], got["n_rows_used"], got["rows_dropped"]) == (600, ref.n_rows_used, 4)
    assert got["dropped_by_column"] == {"y": 2, "gbm": 3, "logit": 0}
    assert got["label_counts"] == {str(k): v for k, v in ref.label_counts.items()}
    summary = ref.summary()
    for m, row in zip(got["models"], summary.itertuples()):
        assert (m["n_pos"], m["n_neg"], m["distinct_scores"]) == (row.n_pos, row.n_neg,
                                                                          row.distinct_scores)
    used = frame.dropna(subset=["y", "gbm", "logit"])
    assert got["n_pos"] == int((used["y"] == "churn").sum()) and got["n_neg"] == int((used["y"] == "stay").sum())


def test_text_summary(scores):
    frame, folder = scores
    code, out, _ = run("scan", folder / "*.parquet", "--label", "y", "--pos", "churn", "--scores", "logit")
    assert code == 0
    assert "600 read, 598 used, 2 dropped for a missing value (y 2)" in out  # gbm not read: its rows count
    assert "positive class 'churn' (given with --pos)" in out
    distinct = frame.dropna(subset=["y", "logit"])["logit"].nunique()
    line = next(x for x in out.splitlines() if x.startswith("logit"))
    assert line.split()[-1] == f"{distinct:,}"


def test_csv_and_duckdb_table(scores, tmp_path):
    frame, _ = scores
    csv = tmp_path / "rows.csv"
    frame.to_csv(csv, index=False)
    db = tmp_path / "rows.duckdb"
    con = duckdb.connect(str(db))
    con.register("f", frame)
    con.execute("CREATE TABLE rows AS SELECT * FROM f")
    con.close()
    a = json.loads(run("scan", csv, "--label", "y", "--scores", "gbm,logit", "--json")[1])
    b = json.loads(run("scan", db, "--table", "rows", "--label", "y", "--scores", "gbm,logit", "--json")[1])
    for key in ("n_rows", "n_rows_used", "rows_dropped", "n_pos", "n_neg", "models", "dropped_by_column"):
        assert a[key] == b[key], key


@pytest.mark.parametrize("argv,message", [
    (["{folder}", "--label", "nope"], "No column 'nope'"),
    (["{folder}", "--label", "y", "--scores", "gbm,nope"], "No column 'nope'"),
    (["{folder}", "--label", "y", "--pos", "maybe"], "--pos 'maybe' is not a value"),
    (["{tmp}/nothing/*.parquet", "--label", "y"], ""),
    (["{tmp}/empty", "--label", "y"], "holds no Parquet or CSV/TSV file"),
])
def test_bad_input_exits_2(scores, tmp_path, argv, message):
    (tmp_path / "empty").mkdir()
    argv = [a.format(folder=scores[1], tmp=tmp_path) for a in argv]
    assert message in assert_bad_input(*run("scan", *argv))
