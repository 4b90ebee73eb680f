"""rocci.scan with engine="spark" (PySpark, local mode): the same ScanResult as engine="duckdb", bit for bit,
for every source Spark reads (a Spark DataFrame, a Parquet file, a Parquet glob, a CSV file, a query of the
session, a pandas table), with ties, string and 0/1 labels, missing labels and scores, pairs, groups and both
roundings; analyses from Spark's counts equal those from the raw arrays; bad input gets DuckDB's messages.

One local SparkSession for the module.  pyspark is imported at the top: a missing pyspark (or Java) fails
these tests, never skips them (pyspark is pinned in requirements-dev.txt; scripts/test.sh installs Java).
"""

from __future__ import annotations

import decimal
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pyspark  # in requirements-dev.txt: a missing pyspark fails these tests, never skips them
import pytest
from pyspark.sql import SparkSession

import rocci
from rocci import data as rdata
from rocci.data.scan import PYSPARK_VERSION

ROOT = Path(__file__).resolve().parents[2]
MODELS = ["gbm", "logit"]


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    with warnings.catch_warnings():  # PySpark 4.3 warns that it does not fully support pandas 3 (scan gives it Arrow)
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        session = _session(tmp_path_factory.mktemp("spark-warehouse"))
    session.sparkContext.setLogLevel("FATAL")  # failing queries are tested: no Java stack traces
    yield session
    session.stop()


def _session(warehouse):
    return (SparkSession.builder.master("local[2]").appName("rocci-tests")
            .config("spark.sql.warehouse.dir", str(warehouse))
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.driver.memory", "1g")
            .getOrCreate())


def _frame(n=3000, seed=9):
    """String labels with 7 missing, scores with ties, negative values, zeros and NaN, a fold column."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.2, "fraud", "ok")
    pos = y == "fraud"
    f = pd.DataFrame({
        "outcome": y,
        "gbm": np.round(rng.normal(size=n) + 1.5 * pos, 2),  # ties, negatives, some exact zeros
        "logit": np.round(rng.normal(size=n) + 1.0 * pos, 3),
        "fold": rng.integers(1, 4, n),
    })
    f.loc[rng.choice(n, 20, replace=False), "gbm"] = 0.0
    f.loc[rng.choice(n, 15, replace=False), "gbm"] = np.nan
    f.loc[rng.choice(n, 7, replace=False), "outcome"] = None
    f.loc[rng.choice(n, 5, replace=False), "logit"] = np.nan
    return f


def _bits(a):
    a = np.asarray(a)
    return a.view(np.int64) if a.dtype == np.float64 else a


def _same_array(a, b, what, bits=True):
    """Exactly equal; with ``bits``, the same bits too (-0.0 is not 0.0)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype, f"{what}: {a.dtype} vs {b.dtype}"
    np.testing.assert_array_equal(_bits(a) if bits else a, _bits(b) if bits else b, err_msg=what)


def _pair_rows(p):
    """A pair table's rows in one order (the engines return them in their own order)."""
    order = np.lexsort((p.n_neg, p.n_pos, p.score_b, p.score_a))
    return [np.asarray(v)[order] for v in (p.score_a, p.score_b, p.n_pos, p.n_neg)]


def _same_scan(spark_result, duck_result):
    s, d = spark_result, duck_result
    assert (s.n_rows_in, s.n_rows_used, s.n_dropped) == (d.n_rows_in, d.n_rows_used, d.n_dropped)
    assert s.dropped_by_column == d.dropped_by_column
    assert list(s.label_counts.items()) == list(d.label_counts.items())
    assert s.pos_label == d.pos_label and type(s.pos_label) is type(d.pos_label)
    assert s.models == d.models
    for m in d.models:
        assert (s[m].n_pos, s[m].n_neg, s[m].pos_label) == (d[m].n_pos, d[m].n_neg, d[m].pos_label)
        for name, u, v in zip(("scores", "n_pos", "n_neg"), s[m].table(), d[m].table()):
            _same_array(u, v, f"{m} {name}")
    assert sorted(s.pairs) == sorted(d.pairs)
    for key in d.pairs:
        assert s.pairs[key].names == d.pairs[key].names
        for name, u, v in zip(("score_a", "score_b", "n_pos", "n_neg"), _pair_rows(s.pairs[key]),
                              _pair_rows(d.pairs[key])):
            _same_array(u, v, f"pair {key} {name}")
    assert list(s.groups) == list(d.groups)
    for g in d.groups:
        _same_scan(s.groups[g], d.groups[g])
    assert sorted(s.rounding) == sorted(d.rounding)
    for m, eff in d.rounding.items():
        assert s.rounding[m].description == eff.description
        assert s.rounding[m].auc_bound == eff.auc_bound
        pd.testing.assert_frame_equal(s.rounding[m].table, eff.table, check_exact=True)


def _both(spark, spark_source, duck_source, **kwargs):
    got = rocci.scan(spark_source, engine="spark", spark=spark, **kwargs)
    ref = rocci.scan(duck_source, **kwargs)
    _same_scan(got, ref)
    return got, ref


def test_every_source_gives_duckdbs_scan(spark, tmp_path):
    frame = _frame()
    frame.to_parquet(tmp_path / "scores.parquet", index=False)
    frame.to_csv(tmp_path / "scores.csv", index=False)
    (tmp_path / "parts").mkdir()
    for i, part in enumerate(np.array_split(np.arange(len(frame)), 3)):
        frame.iloc[part].to_parquet(tmp_path / "parts" / f"p{i}.parquet", index=False)
    spark.read.parquet(str(tmp_path / "scores.parquet")).createOrReplaceTempView("scored")
    kw = dict(label="outcome", scores=MODELS, pos_label="fraud", paired=True)
    sources = [
        (spark.read.parquet(str(tmp_path / "scores.parquet")), frame),
        (tmp_path / "scores.parquet", tmp_path / "scores.parquet"),
        (str(tmp_path / "parts" / "*.parquet"), str(tmp_path / "parts" / "*.parquet")),
        (str(tmp_path / "scores.csv"), str(tmp_path / "scores.csv")),
        (frame, frame),
    ]
    # (DuckDB's scan is the in-memory path's, tests/data/test_scan.py: so Spark's is too)
    prep = rdata.prepare_binary(frame, label="outcome", scores=MODELS, pos_label="fraud")
    for spark_source, duck_source in sources:
        got, _ = _both(spark, spark_source, duck_source, **kw)
        assert (got.n_rows_in, got.n_rows_used) == (3000, prep.n_rows_used)
    # a query of the Spark session (its temporary view) against DuckDB's query of the same rows
    got = rocci.scan(query="SELECT * FROM scored WHERE fold <> 3", engine="spark", spark=spark, **kw)
    ref = rocci.scan(query=f"SELECT * FROM read_parquet('{tmp_path / 'scores.parquet'}') WHERE fold <> 3", **kw)
    _same_scan(got, ref)
    assert got.source == "query" and got.n_rows_in == int((frame["fold"] != 3).sum())


def test_groups_pairs_and_roundings_are_duckdbs(spark, tmp_path):
    frame = _frame(seed=3)
    path = tmp_path / "scores.parquet"
    frame.to_parquet(path, index=False)
    kw = dict(label="outcome", scores=MODELS, pos_label="fraud", group="fold", paired=[("logit", "gbm")])
    got, _ = _both(spark, path, path, **kw)
    assert sorted(got.groups) == [1, 2, 3] and got.paired("gbm", "logit").names == ("gbm", "logit")
    assert got.dropped_by_column == {"outcome": 7, "gbm": 15, "logit": 5, "fold": 0}
    for rounding in (dict(significant_digits=2, group="fold"), dict(grid=0.25)):
        got, _ = _both(spark, path, path, label="outcome", scores=MODELS, pos_label="fraud", paired=True,
                       **rounding)
        assert set(got.rounding) == set(MODELS)


def _reference_rounding(x, significant=None, step=None):
    """The rounding of scan's SQL in Python, operation by operation: IEEE doubles, the decimal exponent found
    by comparing with the nearest doubles to powers of ten, C's round (half away from zero) on the exact
    double, ``N·10^-m`` as the nearest double, a value rounded past the largest double kept, no -0.0."""
    out = []
    for v in np.asarray(x, dtype=float).tolist():
        if step is not None:
            q = v / step
            r = _round_half_away(q) * step if np.isfinite(q) else q
        elif v == 0:
            r = 0.0
        else:
            e = int(np.floor(np.log10(abs(v))))
            e += 1 if abs(v) >= float(f"1e{e + 1}") else (-1 if abs(v) < float(f"1e{e}") else 0)
            m = min(significant - 1 - e, 308)
            p = float(f"1e{abs(m)}")
            n = _round_half_away(v * p) if m >= 0 else _round_half_away(v / p)
            r = float(f"{int(n)}e{-m}") if abs(m) > 22 else (n / p if m >= 0 else n * p)
        out.append((v if np.isinf(r) else r) + 0.0)
    return np.array(out)


def _round_half_away(v: float) -> float:
    exact = decimal.Context(prec=800)  # every double's decimal expansion, whole
    return float(decimal.Decimal(v).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP, context=exact))


def _hard_scores(rng, n):
    """Scores where engines could part: halves, powers of ten and their neighbours, zeros of both signs,
    tiny and huge magnitudes, and random values over 40 decades (both signs)."""
    powers = np.array([10.0 ** j for j in range(-30, 31)])
    near = np.concatenate([powers, np.nextafter(powers, 0), np.nextafter(powers, np.inf),
                           np.nextafter(np.nextafter(powers, 0), 0)])
    halves = np.arange(-20, 21) + 0.5
    special = np.concatenate([near, -near, halves, halves / 10, halves / 100, [0.0, -0.0, 0.49999999999999994,
                              -0.49999999999999994, 2.5000000000000004, 1.005, 2.675, 0.125, 1234.5, 5e-324,
                              1e-300, 1.2e308, -1.7e308, 1.7e308, 1e-320]])
    rand = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-20, 20, n)
    coarse = np.round(rng.normal(size=n), 4)  # scores to 4 decimals, as logs write them
    return np.concatenate([special, rand, coarse])


@pytest.mark.parametrize("rounding", [dict(significant_digits=k) for k in (1, 4, 15)] +
                         [dict(grid=g) for g in (1.0, 0.1, 1e-5)])
def test_rounding_is_the_same_bits_in_both_engines(spark, rounding):
    """Both engines round every value to the same double, the one the SQL's operations give in Python."""
    rng = np.random.default_rng(sum(map(ord, repr(rounding))))
    s = _hard_scores(rng, 600)
    y = np.arange(s.size) % 3 == 0
    frame = pd.DataFrame({"y": y.astype(int), "s": s})
    got, ref = _both(spark, frame, frame, label="y", scores="s", **rounding)
    expected = _reference_rounding(s, rounding.get("significant_digits"), rounding.get("grid"))
    want = rocci.ScoreCounts.from_arrays(y, expected)
    for name, u, v in zip(("scores", "n_pos", "n_neg"), got["s"].table(), want.table()):
        _same_array(u, v.astype(u.dtype), name)
    assert not np.signbit(got["s"].table()[0][got["s"].table()[0] == 0]).any()
    values = got["s"].table()[0]
    if "significant_digits" in rounding:  # each value is the double nearest to a k-digit decimal
        k = rounding["significant_digits"]
        normal = values[(np.abs(values) > 1e-290) & (np.abs(values) < 1e300)]
        assert normal.size > 50 and all(float(f"{v:.{k - 1}e}") == v for v in normal)


def test_unrounded_scores_keep_their_bits_and_zero_has_no_sign(spark):
    s = np.array([-0.0, 0.0, 0.1, 0.1 + 2 ** -56, 1 / 3, -1 / 3, 1e-300, 5e-324, 1.7e308])
    y = np.array([1, 0, 1, 0, 1, 0, 0, 1, 0])
    frame = pd.DataFrame({"y": y, "s": s})
    got, _ = _both(spark, frame, frame, label="y", scores="s")
    values = got["s"].table()[0]
    _same_array(values, np.unique(np.where(s == 0, 0.0, s)), "scores")


def test_labels_and_pos_label_rules_are_duckdbs(spark, tmp_path):
    frame = _frame(seed=5).dropna()
    frame["y01"] = (frame["outcome"] == "fraud").astype(int)
    frame["yes"] = frame["outcome"] == "fraud"
    frame["text01"] = frame["y01"].astype(str)
    path = tmp_path / "labels.parquet"
    frame.to_parquet(path, index=False)
    got, _ = _both(spark, path, path, label="y01", scores="gbm")
    assert got.pos_label == 1 and got.label_counts == {0: int((frame.y01 == 0).sum()), 1: int(frame.y01.sum())}
    got, _ = _both(spark, path, path, label="yes", scores="gbm")
    assert got.pos_label == 1 and list(got.label_counts) == [False, True]
    got, _ = _both(spark, path, path, label="text01", scores="gbm")
    assert got.pos_label == "1"
    got, _ = _both(spark, path, path, label="y01", scores="gbm", pos_label=0)
    assert got["gbm"].n_pos == int((frame.y01 == 0).sum())
    got, _ = _both(spark, path, path, label="outcome", scores="gbm", pos_label="ok")
    assert got.pos_label == "ok"
    with pytest.raises(rocci.InputError, match="say which one is the positive class"):
        rocci.scan(path, label="outcome", scores="gbm", engine="spark", spark=spark)
    with pytest.raises(rocci.InputError, match=r"pos_label \('nope'\) is not among the labels"):
        rocci.scan(path, label="outcome", scores="gbm", pos_label="nope", engine="spark", spark=spark)


def test_integer_boolean_decimal_and_float32_scores_are_duckdbs(spark, tmp_path):
    rng = np.random.default_rng(4)
    n = 500
    y = rng.random(n) < 0.3
    cents = rng.integers(-5000, 5000, n)
    table = pa.table({
        "y": pa.array(y.astype(np.int64)),
        "as_int": pa.array(cents, pa.int32()),
        "as_bool": pa.array(rng.random(n) < 0.5),
        "as_decimal": pa.array([decimal.Decimal(int(c)).scaleb(-4) for c in cents], pa.decimal128(10, 4)),
        "as_float32": pa.array((cents / 7).astype(np.float32)),
        "as_bigint": pa.array(cents.astype(np.int64) * 10 ** 12),
    })
    pq.write_table(table, tmp_path / "types.parquet")
    models = ["as_int", "as_bool", "as_decimal", "as_float32", "as_bigint"]
    got, _ = _both(spark, tmp_path / "types.parquet", tmp_path / "types.parquet", label="y", scores=models,
                   paired=[("as_int", "as_decimal")])
    _same_array(got["as_decimal"].table()[0], np.unique(cents / 10 ** 4), "decimal scores")
    _same_array(got["as_float32"].table()[0], np.unique((cents / 7).astype(np.float32).astype(float)), "float32")


def test_analyses_from_spark_counts_are_the_raw_arrays(spark, tmp_path):
    frame = _frame(seed=11)
    path = tmp_path / "scores.parquet"
    frame.to_parquet(path, index=False)
    result = rocci.scan(path, label="outcome", scores=MODELS, pos_label="fraud", paired=True, engine="spark",
                        spark=spark)
    prep = rdata.prepare_binary(frame, label="outcome", scores=MODELS, pos_label="fraud")
    duck = rocci.scan(path, label="outcome", scores=MODELS, pos_label="fraud")
    for m in MODELS:
        y, s = prep.is_positive, prep.scores[m]
        got, ref = rocci.roc_auc(result[m]), rocci.roc_auc(y, s)
        fields = lambda r: (r.auc, r.auc_std, r.auc_low, r.auc_high, r.n_pos, r.n_neg)  # noqa: E731
        assert fields(got) == fields(rocci.roc_auc(duck[m]))  # the same table: the same numbers
        assert got.auc == ref.auc
        # a table's DeLong variance sums over distinct scores with weights: the raw arrays' to 1e-12
        # (summation order; tests/test_counts_input.py)
        np.testing.assert_allclose([got.auc_std, got.auc_low, got.auc_high], [ref.auc_std, ref.auc_low, ref.auc_high], rtol=1e-12, atol=0)
        got = rocci.threshold_ci(result[m], thresholds=[-0.5, 0.0, 0.5, 1.0, 2.0]).to_frame()
        ref = rocci.threshold_ci(y, s, thresholds=[-0.5, 0.0, 0.5, 1.0, 2.0]).to_frame()
        pd.testing.assert_frame_equal(got, ref, check_exact=True)
        got = rocci.threshold_ci(result[m], total_positive_rate=[0.1, 0.2, 0.5]).to_frame()
        ref = rocci.threshold_ci(y, s, total_positive_rate=[0.1, 0.2, 0.5]).to_frame()
        pd.testing.assert_frame_equal(got, ref, check_exact=True)
    # the pair: the same instances (as a multiset of rows) as the raw arrays
    y, a, b = result.paired(*MODELS).arrays()
    order, order_ref = np.lexsort((b, a, ~y)), np.lexsort((prep.scores[MODELS[1]], prep.scores[MODELS[0]],
                                                           ~prep.is_positive))
    # (by value: the raw scores hold -0.0, which scan counts as 0.0)
    _same_array(a[order], prep.scores[MODELS[0]][order_ref], "score_a", bits=False)
    _same_array(b[order], prep.scores[MODELS[1]][order_ref], "score_b", bits=False)
    _same_array(y[order], prep.is_positive[order_ref], "labels")


def test_the_given_session_is_used_and_left_running(spark):
    frame = _frame(seed=2).dropna()
    df = spark.createDataFrame(pa.Table.from_pandas(frame, preserve_index=False))
    views = {t.name for t in spark.catalog.listTables()}
    rocci.scan(df, label="outcome", scores="gbm", pos_label="fraud", engine="spark")  # the DataFrame's session
    rocci.scan(frame, label="outcome", scores="gbm", pos_label="fraud", engine="spark")  # the active session
    assert SparkSession.getActiveSession() is spark
    assert {t.name for t in spark.catalog.listTables()} == views  # its temporary views were dropped
    assert spark.range(3).count() == 3
    with pytest.raises(rocci.InputError, match="spark= is the session of engine='spark'"):
        rocci.scan(frame, label="outcome", scores="gbm", pos_label="fraud", spark=spark)
    with pytest.raises(rocci.InputError, match="scan it with engine='spark'"):
        rocci.scan(df, label="outcome", scores="gbm", pos_label="fraud")


def _bad_frame():
    frame = _frame(seed=9).dropna()
    frame["text"] = "high"
    frame["single"] = 1
    frame["inf"] = frame["gbm"]
    frame.loc[frame.index[3], "inf"] = np.inf
    return frame


@pytest.mark.parametrize("kwargs,message", [
    (dict(label="outcome", scores="nope", pos_label="fraud"), "No column 'nope' in .*s.parquet; its columns are"),
    (dict(label="outcome", scores="text", pos_label="fraud"),
     r"Score column 'text' holds (VARCHAR|string) values, not numbers: scores must be numeric"),
    (dict(label="single", scores="gbm"), "Only one label value found"),
    (dict(label="outcome", scores="inf", pos_label="fraud"),
     r"Score column 'inf' has 1 infinite value\(s\) \(inf or -inf\)"),
    (dict(label="outcome", scores=["gbm", "gbm"], pos_label="fraud"), "listed twice"),
])
def test_bad_input_gets_duckdbs_message(spark, tmp_path, kwargs, message):
    path = tmp_path / "s.parquet"
    _bad_frame().to_parquet(path, index=False)
    for engine in ("duckdb", "spark"):
        with pytest.raises(rocci.InputError, match=message):
            rocci.scan(path, engine=engine, **({"spark": spark} if engine == "spark" else {}), **kwargs)


def test_failing_query_and_paths_outside_the_data_directory(spark, tmp_path):
    with pytest.raises(rocci.InputError, match=r"Spark failed while running the query: \[TABLE_OR_VIEW_NOT_FOUND\]"):
        rocci.scan(query="SELECT * FROM nowhere", label="outcome", scores="gbm", pos_label="fraud",
                   engine="spark", spark=spark)
    with pytest.raises(rocci.InputError, match="No file"):
        rocci.scan(tmp_path / "absent.parquet", label="y", scores="s", engine="spark", spark=spark)
    inside = tmp_path / "data"
    inside.mkdir()
    outside = tmp_path / "secret.parquet"
    _bad_frame().to_parquet(outside, index=False)
    (inside / "link.parquet").symlink_to(outside)
    (inside / "parts").mkdir()
    _bad_frame().to_parquet(inside / "parts" / "a.parquet", index=False)
    kw = dict(label="outcome", scores="gbm", pos_label="fraud", allowed_root=inside, engine="spark", spark=spark)
    for path in (outside, inside / "link.parquet", inside / ".." / "secret.parquet", f"file://{outside}",
                 "s3a://bucket/scores.parquet"):
        with pytest.raises(rocci.InputError, match="outside the data directory"):
            rocci.scan(path, **kw)
    # a glob is expanded and checked file by file: a link among its files is refused too
    ok = rocci.scan(str(inside / "parts" / "*.parquet"), **kw)
    assert ok.n_rows_used == len(_bad_frame())
    (inside / "parts" / "b.parquet").symlink_to(outside)
    with pytest.raises(rocci.InputError, match="outside the data directory"):
        rocci.scan(str(inside / "parts" / "*.parquet"), **kw)
    # a query or a table of the session could read anything: refused under allowed_root
    for where in (dict(query="SELECT * FROM parquet.`" + str(outside) + "`"), dict(table="scored")):
        with pytest.raises(rocci.InputError, match="With allowed_root, engine='spark' reads files under it only"):
            rocci.scan(**where, **kw)
    with pytest.raises(rocci.InputError, match="is a DuckDB database: scan it with engine='duckdb'"):
        rocci.scan(inside / "w.duckdb", label="y", scores="s", engine="spark", spark=spark)


def test_missing_pyspark_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)  # `from pyspark.sql import ...` now fails
    with pytest.raises(rocci.InputError, match=re.escape(f"pip install pyspark=={pyspark.__version__}")) as err:
        rocci.scan(_frame(), label="outcome", scores="gbm", pos_label="fraud", engine="spark")
    assert "Java 17" in str(err.value)


def test_the_pinned_pyspark_is_the_one_installed_and_named_everywhere():
    pin = PYSPARK_VERSION
    assert pyspark.__version__ == pin
    assert re.search(rf"^pyspark=={re.escape(pin)}\b", (ROOT / "requirements-dev.txt").read_text(), re.M)
    assert f'spark = ["pyspark=={pin}"]' in (ROOT / "pyproject.toml").read_text()
    assert f"pyspark=={pin}" in rocci.scan.__doc__


def test_nan_scores_in_parquet_are_dropped_and_counted_as_duckdb_and_in_memory(spark, tmp_path):
    # NaN as a value (not null) in two score columns, different rows, several row groups (the min/max statistics
    # leave NaN out): Spark drops and counts them as DuckDB and the in-memory path do
    frame = _frame(seed=5).dropna(subset=["outcome", "gbm", "logit"]).reset_index(drop=True)
    rng = np.random.default_rng(5)
    rows = rng.choice(len(frame), 12 + 6, replace=False)
    frame.loc[rows[:12], "gbm"] = np.nan
    frame.loc[rows[12:], "logit"] = np.nan
    table = pa.Table.from_pandas(frame, preserve_index=False)
    for col in MODELS:
        table = table.set_column(table.schema.get_field_index(col), col, pa.array(frame[col].to_numpy(),
                                                                                  from_pandas=False))
    path = tmp_path / "nan_scores.parquet"
    pq.write_table(table, path, row_group_size=500)
    assert pq.read_table(path).column("gbm").null_count == 0
    kw = dict(label="outcome", scores=MODELS, pos_label="fraud", paired=True, group="fold")
    got, _ = _both(spark, path, path, **kw)
    assert got.dropped_by_column == {"outcome": 0, "gbm": 12, "logit": 6, "fold": 0}
    assert (got.n_rows_in, got.n_rows_used) == (len(frame), len(frame) - 18)
    clean = rocci.scan(frame.dropna(subset=MODELS), **kw)  # in memory, without the NaN rows
    assert clean.n_dropped == 0 and got.label_counts == clean.label_counts
    for m in MODELS:
        for name, u, v in zip(("scores", "n_pos", "n_neg"), got[m].table(), clean[m].table()):
            _same_array(u, v, f"{m} {name}")
