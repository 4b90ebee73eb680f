"""rocci.scan with DuckDB: the reduced counts are exactly the in-memory path's (prepare_binary, then each
function on the raw arrays) for Parquet, CSV, globs, a DuckDB database, a query and pandas/Arrow tables,
with ties, string labels, missing values (counted), several models, pairs and groups; bad input gets a
clear InputError; nothing outside allowed_root can be read."""

from __future__ import annotations

import duckdb  # in requirements.txt: a missing duckdb fails these tests, never skips them
import numpy as np
import pandas as pd
import pytest

import rocci
from rocci import data as rdata


def _frame(n=2000, seed=9, missing=True):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.2, "fraud", "ok")
    pos = y == "fraud"
    f = pd.DataFrame({
        "outcome": y,
        "gbm": np.round(rng.normal(size=n) + 1.5 * pos, 2),  # ties
        "logit": np.round(rng.normal(size=n) + 1.0 * pos, 3),
        "fold": rng.integers(1, 4, n),
    })
    if missing:
        f.loc[rng.choice(n, 15, replace=False), "gbm"] = np.nan
        f.loc[rng.choice(n, 7, replace=False), "outcome"] = None
        f.loc[rng.choice(n, 5, replace=False), "logit"] = np.nan
    return f


def _same_counts(counts, y, s):
    ref = rocci.ScoreCounts.from_arrays(y, s)
    np.testing.assert_array_equal(counts.pos, ref.pos)
    np.testing.assert_array_equal(counts.neg, ref.neg)


def _check_against_memory(result, frame, models=("gbm", "logit"), fold=None):
    prep = rdata.prepare_binary(frame, label="outcome", scores=list(models), pos_label="fraud", fold=fold)
    assert result.n_rows_in == prep.n_rows_in
    assert result.n_rows_used == prep.n_rows_used and result.n_dropped == prep.n_dropped
    assert result.dropped_by_column == {str(k): int(v) for k, v in prep.dropped_by_column.items()
                                        if k in ("outcome", *models, fold)}
    assert result.pos_label == "fraud"
    for m in models:
        _same_counts(result[m], prep.is_positive, prep.scores[m])
        # and a function on the counts is the function on the rows
        assert rocci.roc_auc(result[m]).auc == rocci.roc_auc(prep.is_positive, prep.scores[m]).auc
    if len(models) == 2:
        p = result.paired(*models)
        y, a, b = p.arrays()
        order_ref = np.lexsort((prep.scores[models[1]], prep.scores[models[0]], ~prep.is_positive))
        order = np.lexsort((b, a, ~y))
        np.testing.assert_array_equal(a[order], prep.scores[models[0]][order_ref])
        np.testing.assert_array_equal(b[order], prep.scores[models[1]][order_ref])
        np.testing.assert_array_equal(y[order], prep.is_positive[order_ref])
        ref = rocci.compare_thresholds(prep.is_positive, prep.scores[models[0]], prep.scores[models[1]],
                                       total_positive_rate=[0.2, 0.4])
        got = rocci.compare_thresholds(p, total_positive_rate=[0.2, 0.4])
        pd.testing.assert_frame_equal(got.to_frame(), ref.to_frame(), rtol=1e-12)


def test_parquet_csv_glob_and_memory_give_the_in_memory_counts(tmp_path):
    frame = _frame()
    frame.to_parquet(tmp_path / "scores.parquet", index=False)
    frame.to_csv(tmp_path / "scores.csv", index=False)
    half = len(frame) // 2
    (tmp_path / "parts").mkdir()
    frame.iloc[:half].to_parquet(tmp_path / "parts" / "p1.parquet", index=False)
    frame.iloc[half:].to_parquet(tmp_path / "parts" / "p2.parquet", index=False)
    for source in (tmp_path / "scores.parquet", str(tmp_path / "scores.csv"), str(tmp_path / "parts" / "*.parquet"),
                   frame):
        result = rocci.scan(source, label="outcome", scores=["gbm", "logit"], pos_label="fraud", paired=True)
        _check_against_memory(result, frame)
    import pyarrow as pa

    result = rocci.scan(pa.Table.from_pandas(frame), label="outcome", scores=["gbm", "logit"], pos_label="fraud",
                        paired=True)
    _check_against_memory(result, frame)


def test_duckdb_database_table_and_query(tmp_path):
    frame = _frame(missing=False)
    db = tmp_path / "warehouse.duckdb"
    con = duckdb.connect(str(db))
    con.register("f", frame)
    con.execute("CREATE TABLE scored AS SELECT * FROM f")
    con.close()
    result = rocci.scan(db, table="scored", label="outcome", scores=["gbm", "logit"], pos_label="fraud",
                        paired=True)
    _check_against_memory(result, frame)
    result = rocci.scan(db, query="SELECT * FROM scored WHERE fold <> 3", label="outcome", scores="gbm",
                        pos_label="fraud")
    _check_against_memory(result, frame[frame["fold"] != 3], models=("gbm",))
    with pytest.raises(rocci.InputError, match="say which table"):
        rocci.scan(db, label="outcome", scores="gbm", pos_label="fraud")


def test_groups_are_each_folds_own_scan():
    frame = _frame()
    result = rocci.scan(frame, label="outcome", scores=["gbm", "logit"], pos_label="fraud", group="fold",
                        paired=[("gbm", "logit")])
    clean = frame.dropna(subset=["outcome", "gbm", "logit"])
    assert sorted(result.groups) == [1, 2, 3]
    for g, sub in result.groups.items():
        part = clean[clean["fold"] == g]
        _same_counts(sub["gbm"], part["outcome"].to_numpy() == "fraud", part["gbm"].to_numpy())
        assert sub.paired("logit", "gbm").names == ("logit", "gbm")
    _check_against_memory(result, frame, fold="fold")


def test_default_labels_and_pos_label_rules_are_the_in_memory_ones():
    frame = _frame(missing=False)
    frame["y01"] = (frame["outcome"] == "fraud").astype(int)
    result = rocci.scan(frame, label="y01", scores="gbm")
    assert result.pos_label == 1 and result.label_counts == {0: int((frame.y01 == 0).sum()), 1: int(frame.y01.sum())}
    with pytest.raises(rocci.InputError, match="say which one is the positive class"):
        rocci.scan(frame, label="outcome", scores="gbm")


@pytest.mark.parametrize("kwargs,message", [
    (dict(label="outcome", scores="nope", pos_label="fraud"), "No column 'nope'"),
    (dict(label="outcome", scores="text", pos_label="fraud"), "holds VARCHAR values, not numbers"),
    (dict(label="single", scores="gbm"), "Only one label value"),
    (dict(label="outcome", scores="gbm", pos_label="fraud", query="SELECT * FROM nowhere"), "DuckDB failed"),
    (dict(label="outcome", scores="inf", pos_label="fraud"), "infinite value"),
    (dict(label="outcome", scores=["gbm", "gbm"], pos_label="fraud"), "listed twice"),
])
def test_bad_input_gets_a_clear_message(tmp_path, kwargs, message):
    frame = _frame(missing=False)
    frame["text"] = "high"
    frame["single"] = 1
    frame["inf"] = frame["gbm"]
    frame.loc[3, "inf"] = np.inf
    path = tmp_path / "s.parquet"
    frame.to_parquet(path, index=False)
    source = path if "query" not in kwargs else tmp_path / "db.duckdb"
    if "query" in kwargs:
        duckdb.connect(str(source)).close()
    with pytest.raises(rocci.InputError, match=message):
        rocci.scan(source, **kwargs)


def test_missing_file_and_paths_outside_the_data_directory(tmp_path):
    with pytest.raises(rocci.InputError, match="No file"):
        rocci.scan(tmp_path / "absent.parquet", label="y", scores="s")
    inside = tmp_path / "data"
    inside.mkdir()
    outside = tmp_path / "secret.parquet"
    _frame(missing=False).to_parquet(outside, index=False)
    (inside / "link.parquet").symlink_to(outside)
    for path in (outside, inside / "link.parquet", inside / ".." / "secret.parquet"):
        with pytest.raises(rocci.InputError, match="outside the data directory"):
            rocci.scan(path, label="outcome", scores="gbm", pos_label="fraud", allowed_root=inside)
    # a query cannot read outside it either (DuckDB's external access is limited to the directory)
    with pytest.raises(rocci.InputError, match="DuckDB failed"):
        rocci.scan(query=f"SELECT * FROM read_parquet('{outside}')", label="outcome", scores="gbm",
                   pos_label="fraud", allowed_root=inside)
    _frame(missing=False).to_parquet(inside / "ok.parquet", index=False)
    ok = rocci.scan(query=f"SELECT * FROM read_parquet('{inside / 'ok.parquet'}')", label="outcome",
                    scores="gbm", pos_label="fraud", allowed_root=inside)
    assert ok.n_rows_used == 2000


def test_pairs_are_reduced_only_when_asked():
    frame = _frame(missing=False)
    result = rocci.scan(frame, label="outcome", scores=["gbm", "logit"], pos_label="fraud")
    assert result.pairs == {}
    with pytest.raises(rocci.InputError, match=r"paired=\[\('gbm', 'logit'\)\]"):
        result.paired("gbm", "logit")
    with pytest.raises(rocci.InputError, match="each pair must name two of the score columns"):
        rocci.scan(frame, label="outcome", scores=["gbm", "logit"], pos_label="fraud", paired=[("gbm", "x")])


def _half_away(x, step):
    return np.sign(x) * np.floor(np.abs(x) / step + 0.5) * step


def test_rounding_is_reported_with_bounds_that_hold_and_are_reached():
    """Scores rounded to a grid: the counts are the rounded scores' counts; the reported AUC bound
    ½·Σ P_b·N_b/(n+·n−) and rate bounds P_b/n+, N_b/n− hold on random data, and are reached when each
    bin's positives all lay above (AUC) or below (rates) its negatives."""
    rng = np.random.default_rng(12)
    n = 3000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    frame = pd.DataFrame({"y": y.astype(int), "s": s})
    res = rocci.scan(frame, label="y", scores="s", grid=0.25)
    eff = res.rounding["s"]
    assert "grid of step 0.25" in eff.description
    rounded = _half_away(s, 0.25)
    _same_counts(res["s"], y, rounded)
    auc_orig = rocci.roc_auc(y, s).auc
    auc_round = rocci.roc_auc(res["s"]).auc
    assert abs(auc_orig - auc_round) <= eff.auc_bound + 1e-15
    assert eff.auc_bound > 0.01  # the bound says something here
    tab = eff.table
    for v, tb, fb in zip(tab["score"], tab["tpr_bound"], tab["fpr_bound"]):
        d_tpr = abs((s[y] >= v).mean() - (rounded[y] >= v).mean())
        d_fpr = abs((s[~y] >= v).mean() - (rounded[~y] >= v).mean())
        assert d_tpr <= tb + 1e-15 and d_fpr <= fb + 1e-15
    # reached: in every bin the positives lie 0.3 above the bin's centre and the negatives 0.3 below
    centres = rng.integers(0, 20, n).astype(float)
    s2 = centres + np.where(y, 0.3, -0.3)
    res2 = rocci.scan(pd.DataFrame({"y": y.astype(int), "s": s2}), label="y", scores="s", grid=1.0)
    eff2 = res2.rounding["s"]
    assert rocci.roc_auc(y, s2).auc - rocci.roc_auc(res2["s"]).auc == pytest.approx(eff2.auc_bound, rel=1e-12)
    # ... and with the positives 0.3 below, each rate bound is reached at its bin's centre
    s3 = centres + np.where(y, -0.3, 0.3)
    eff3 = rocci.scan(pd.DataFrame({"y": y.astype(int), "s": s3}), label="y", scores="s", grid=1.0).rounding["s"]
    for v, tb in zip(eff3.table["score"], eff3.table["tpr_bound"]):
        assert (np.round(s3[y]) >= v).mean() - (s3[y] >= v).mean() == pytest.approx(tb, abs=1e-15)


def test_significant_digits_and_bad_rounding_requests():
    rng = np.random.default_rng(1)
    s = np.concatenate([rng.lognormal(size=500) * 10.0 ** rng.integers(-3, 3, 500), [0.0]])
    y = rng.random(s.size) < 0.4
    y[:2] = [True, False]
    res = rocci.scan(pd.DataFrame({"y": y, "s": s}), label="y", scores="s", significant_digits=2)
    assert "2 significant digits" in res.rounding["s"].description
    values = res["s"].table()[0]
    nonzero = values[values != 0]
    mant = nonzero / 10.0 ** np.floor(np.log10(np.abs(nonzero)))
    np.testing.assert_allclose(mant, np.round(mant, 1), atol=1e-9)  # two significant digits
    assert res["s"].n_pos == y.sum() and res["s"].n_neg == (~y).sum()
    assert rocci.scan(pd.DataFrame({"y": y, "s": s}), label="y", scores="s").rounding == {}
    with pytest.raises(rocci.InputError, match="not both"):
        rocci.scan(pd.DataFrame({"y": y, "s": s}), label="y", scores="s", significant_digits=2, grid=0.1)
    with pytest.raises(rocci.InputError, match="significant_digits must be"):
        rocci.scan(pd.DataFrame({"y": y, "s": s}), label="y", scores="s", significant_digits=0)
    with pytest.raises(rocci.InputError, match="grid must be a positive step"):
        rocci.scan(pd.DataFrame({"y": y, "s": s}), label="y", scores="s", grid=-1)


def test_scan_prints_nothing(tmp_path, capfd):
    # DuckDB draws a progress bar on stdout for long queries unless told not to: a library must not print.
    import duckdb as _duckdb

    con = _duckdb.connect()
    con.execute(f"COPY (SELECT (i % 7 = 0)::INTEGER AS y, (i * 0.37) % 1 AS s FROM range(200000) t(i)) "
                f"TO '{tmp_path / 'p.parquet'}' (FORMAT parquet)")
    con.close()
    from rocci.data.scan import _DuckDB

    engine = _DuckDB(None)
    settings = engine.con.execute("SELECT current_setting('enable_progress_bar')").fetchone()[0]
    engine.close()
    assert settings is False
    rocci.scan(tmp_path / "p.parquet", label="y", scores="s")
    out, _ = capfd.readouterr()
    assert out == ""


def test_a_pairs_margins_are_the_models_own_tables():
    # scan hands each pair table its two models' tables (same rows), so compare_thresholds need not re-sort
    # the pair rows; they must equal the margins computed from the pair table itself, in both orders.
    rng = np.random.default_rng(0)
    n = 20_000
    y = rng.random(n) < 0.2
    a = np.round(rng.random(n), 2)
    b = np.round(a * 0.5 + rng.random(n) * 0.5, 2)
    a[::97] = np.nan
    res = rocci.scan(pd.DataFrame({"y": y.astype(int), "a": a, "b": b}), label="y", scores=["a", "b"], paired=True)
    for first, second in (("a", "b"), ("b", "a")):
        pair = res.paired(first, second)
        for k, own in ((0, res[first]), (1, res[second])):
            fresh = rocci.ScoreCounts.from_counts(pair.score_a if k == 0 else pair.score_b, pair.n_pos, pair.n_neg)
            for got, want in zip(pair.model(k).table(), fresh.table()):
                np.testing.assert_array_equal(got, want)
            assert pair.model(k) is own


def _nan_rows(n=3000, seed=21, logit_type="float64"):
    """Two models whose scores hold NaN as a value, in different rows (17 for gbm, 8 for logit), 7 missing labels."""
    frame = _frame(n, seed, missing=False)
    rng = np.random.default_rng(seed)
    rows = rng.choice(n, 17 + 8 + 7, replace=False)
    frame.loc[rows[:17], "gbm"] = np.nan
    frame.loc[rows[17:25], "logit"] = np.nan
    frame.loc[rows[25:], "outcome"] = None
    frame["logit"] = frame["logit"].astype(logit_type)
    return frame


def _write_nan_scores(frame, path, row_group_size=500):
    """Parquet whose score columns hold NaN (not null), in several row groups (some with no NaN): pandas would
    write null; Arrow keeps NaN as written, and the min/max statistics leave it out (as the format says)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    for col in ("gbm", "logit"):
        values = pa.array(frame[col].to_numpy(), from_pandas=False)
        table = table.set_column(table.schema.get_field_index(col), col, values)
    pq.write_table(table, path, row_group_size=row_group_size)
    written = pq.read_table(path)
    for col, n_nan in (("gbm", 17), ("logit", 8)):
        assert written.column(col).null_count == 0
        assert int(np.isnan(written.column(col).to_numpy()).sum()) == n_nan


@pytest.mark.parametrize("logit_type, nan_test", [("float64", "can_have_nan"), ("float32", "can_have_nan"),
                                                   ("float64", "no_statistics"), ("float64", "list")])
def test_nan_scores_in_parquet_are_dropped_and_counted_as_in_memory(tmp_path, monkeypatch, logit_type, nan_test):
    # DuckDB 2.0 takes a Parquet column's min/max statistics (which leave NaN out) as proof that no value is
    # NaN: a plain `NOT isnan(score)` in the WHERE clause was dropped and the NaN rows reached the counts.
    # Each way scan keeps the test: read_parquet(can_have_nan = true) for its own files (statistics propagation
    # off for a query or a database); statistics propagation off for all (a DuckDB without can_have_nan); a
    # one-element list (an optimiser that cannot be turned off by its name).
    from rocci.data.scan import _DuckDB

    if nan_test != "can_have_nan":
        monkeypatch.setattr(_DuckDB, "_knows_can_have_nan", staticmethod(lambda con: False))
    if nan_test == "list":
        monkeypatch.setattr(_DuckDB, "STATS_OPTIMIZER", "no_such_optimizer")
    engine = _DuckDB(None)
    assert (engine.plain_nan, engine.stats_off) == {"can_have_nan": (True, False), "no_statistics": (True, True),
                                                    "list": (False, False)}[nan_test]
    engine.close()
    frame = _nan_rows(logit_type=logit_type)
    path = tmp_path / "nan_scores.parquet"
    _write_nan_scores(frame, path)
    kw = dict(label="outcome", scores=["gbm", "logit"], pos_label="fraud", paired=True)
    clean = frame.dropna(subset=["outcome", "gbm", "logit"])
    expected_used = len(clean)
    assert expected_used == len(frame) - 17 - 8 - 7
    in_memory = rocci.scan(clean, **kw)  # the rows without NaN, in memory: nothing to drop
    assert in_memory.n_dropped == 0
    # the file; a query reading it; a database's view reading it (DuckDB reads the last two without the
    # can_have_nan option that scan gives the file)
    with duckdb.connect(str(tmp_path / "views.duckdb")) as con:
        con.execute(f"CREATE VIEW scored AS SELECT * FROM read_parquet('{path}')")
    for result in (rocci.scan(path, **kw), rocci.scan(query=f"SELECT * FROM read_parquet('{path}')", **kw),
                   rocci.scan(tmp_path / "views.duckdb", table="scored", **kw)):
        assert result.dropped_by_column == {"outcome": 7, "gbm": 17, "logit": 8}
        assert (result.n_rows_in, result.n_rows_used) == (len(frame), expected_used)
        assert result.label_counts == in_memory.label_counts
        for m in ("gbm", "logit"):
            for got, want in zip(result[m].table(), in_memory[m].table()):
                np.testing.assert_array_equal(got, want)
        _check_against_memory(result, frame)
    # with a group column too: each group's counts are the in-memory ones
    grouped = rocci.scan(path, group="fold", **kw)
    ref = rocci.scan(clean, group="fold", **kw)
    assert grouped.dropped_by_column == {"outcome": 7, "gbm": 17, "logit": 8, "fold": 0}
    assert list(grouped.groups) == list(ref.groups) and grouped.group_sizes == ref.group_sizes
    for g, sub in ref.groups.items():
        for m in ("gbm", "logit"):
            for got, want in zip(grouped.groups[g][m].table(), sub[m].table()):
                np.testing.assert_array_equal(got, want)


def test_label_counts_leave_out_nan_of_a_float_column(tmp_path):
    # the values offered for a label or a fold column: NaN is missing there, as in scan and in memory
    # (a Parquet float column, whose statistics leave NaN out)
    import pyarrow as pa
    import pyarrow.parquet as pq

    fold = np.tile([1.0, 2.0, 3.0, np.nan, None], 200)
    table = pa.table({"fold": pa.array(fold, from_pandas=False, mask=np.array([v is None for v in fold])),
                      "y": np.arange(fold.size) % 2})
    path = tmp_path / "folds.parquet"
    pq.write_table(table, path, row_group_size=100)
    counts = rocci.data.scan_label_counts(path, label="fold")
    assert counts == {1.0: 200, 2.0: 200, 3.0: 200}
