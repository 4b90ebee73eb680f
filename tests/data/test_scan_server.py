"""rocci.scan as a server's data source (the dashboard's "Large data"): nothing outside the data
directory is read or written, one SELECT per query, progress per pass, a bound on the tables that
reach Python, and the cheap look at a source (columns, first rows, label values) before a scan."""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pytest

import rocci
from rocci import data as rdata


def _frame(n=600, seed=5):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return pd.DataFrame({"outcome": np.where(y, "fraud", "ok"), "gbm": np.round(rng.normal(size=n) + y, 2),
                         "logit": np.round(rng.random(n) + 0.3 * y, 2)})


@pytest.fixture
def root(tmp_path):
    inside = tmp_path / "data"
    (inside / "sub").mkdir(parents=True)
    _frame().to_parquet(inside / "scores.parquet", index=False)
    _frame(seed=6).to_csv(inside / "sub" / "more.csv", index=False)
    outside = tmp_path / "secret.csv"
    _frame(seed=7).to_csv(outside, index=False)
    (inside / "link.csv").symlink_to(outside)
    return inside


def test_nothing_outside_the_directory_is_read(root):
    kw = dict(label="outcome", scores="gbm", pos_label="fraud", allowed_root=root)
    for path in (root / ".." / "secret.csv", root.parent / "secret.csv", root / "link.csv", "/etc/passwd"):
        with pytest.raises(rocci.InputError, match="outside the data directory"):
            rocci.scan(path, **kw)
    for query in ("SELECT * FROM read_csv('/etc/passwd')",
                  f"SELECT * FROM read_csv('{root}/../secret.csv')",
                  f"SELECT * FROM read_csv('{root / 'link.csv'}')",
                  f"SELECT * FROM read_csv('{root}/*.csv')"):  # the glob matches the link
        with pytest.raises(rocci.InputError, match="DuckDB failed"):
            rocci.scan(query=query, **kw)
    with pytest.raises(rocci.InputError, match="outside the data directory"):
        rdata.inspect_source(root / ".." / "secret.csv", allowed_root=root)
    with pytest.raises(rocci.InputError, match="DuckDB failed"):
        rdata.scan_label_counts(query="SELECT * FROM read_csv('/etc/passwd')", label="column0", allowed_root=root)


def test_a_query_is_one_select_and_cannot_write(root):
    kw = dict(label="outcome", scores="gbm", pos_label="fraud", allowed_root=root)
    target = root / "written.csv"
    for query in (f"COPY (SELECT 1) TO '{target}'",
                  f"SELECT * FROM read_parquet('{root / 'scores.parquet'}'); COPY (SELECT 1) TO '{target}'",
                  f"SELECT 1) ; COPY (SELECT 1) TO '{target}'; SELECT (1",
                  f"ATTACH '{root / 'new.duckdb'}' AS w", "SET enable_external_access = true"):
        with pytest.raises(rocci.InputError, match="one SELECT statement|does not parse"):
            rocci.scan(query=query, **kw)
    assert not target.exists() and not (root / "new.duckdb").exists()
    # a final semicolon and a trailing comment are fine
    res = rocci.scan(query=f"SELECT * FROM read_parquet('{root / 'scores.parquet'}') -- all rows\n;", **kw)
    assert res.n_rows_used == 600


def test_progress_is_reported_per_pass():
    calls = []
    frame = _frame()
    rocci.scan(frame, label="outcome", scores=["gbm", "logit"], pos_label="fraud", paired=True,
               progress=lambda done, total, step: calls.append((done, total, step)))
    assert [c[0] for c in calls] == [0, 1, 2, 3, 4, 5] and {c[1] for c in calls} == {5}
    assert "rows" in calls[0][2] and "label" in calls[1][2] and "'gbm'" in calls[2][2]
    assert "'gbm' and 'logit'" in calls[4][2] and calls[-1][2] == "done"


def test_tables_larger_than_the_bound_are_refused():
    frame = _frame()
    distinct = frame["gbm"].nunique()
    ok = rocci.scan(frame, label="outcome", scores="gbm", pos_label="fraud", max_table_rows=distinct)
    assert ok["gbm"].table()[0].size == distinct
    with pytest.raises(rocci.InputError, match=f"more than {distinct - 1:,} distinct scores.*Round"):
        rocci.scan(frame, label="outcome", scores="gbm", pos_label="fraud", max_table_rows=distinct - 1)
    with pytest.raises(rocci.InputError, match="distinct pairs of scores.*do not reduce pairs"):
        rocci.scan(frame, label="outcome", scores=["gbm", "logit"], pos_label="fraud", paired=True,
                   max_table_rows=max(frame["gbm"].nunique(), frame["logit"].nunique()))
    rounded = rocci.scan(frame, label="outcome", scores=["gbm", "logit"], pos_label="fraud", paired=True,
                         grid=0.5, max_table_rows=200)
    assert rounded.paired("gbm", "logit").score_a.size <= 200


def test_inspect_source_and_label_counts(root):
    info = rdata.inspect_source(root / "scores.parquet", allowed_root=root, rows=10)
    assert list(info.columns) == ["outcome", "gbm", "logit"] and info.numeric() == ["gbm", "logit"]
    assert len(info.preview) == 10 and info.tables == []
    info = rdata.inspect_source(query=f"SELECT outcome, gbm FROM read_csv('{root / 'sub' / 'more.csv'}')",
                                allowed_root=root)
    assert list(info.columns) == ["outcome", "gbm"]
    db = root / "scores.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE b AS SELECT * FROM read_parquet(?)", [str(root / "scores.parquet")])
    con.execute("CREATE VIEW a AS SELECT outcome, gbm FROM b")
    con.close()
    info = rdata.inspect_source(db, allowed_root=root)
    assert info.tables == ["a", "b"] and list(info.columns) == ["outcome", "gbm"]
    info = rdata.inspect_source(db, table="b", allowed_root=root)
    assert list(info.columns) == ["outcome", "gbm", "logit"]
    counts = rdata.scan_label_counts(root / "scores.parquet", label="outcome", allowed_root=root)
    frame = _frame()
    assert counts == frame["outcome"].value_counts().to_dict() and list(counts)[0] == "ok"
    assert rdata.suggest_pos_label_from_counts(counts).value == "fraud"
    many = rdata.scan_label_counts(root / "scores.parquet", label="gbm", allowed_root=root, max_values=5)
    assert len(many) == 6
    with pytest.raises(rocci.InputError, match="No column 'nope'"):
        rdata.scan_label_counts(root / "scores.parquet", label="nope", allowed_root=root)
