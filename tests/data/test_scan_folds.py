"""rocci.scan with group=: each fold's counts, by DuckDB and by Spark, analysed by the fold functions exactly as
the rows are (ties, unequal folds, string labels); rows missing the group (NULL, or NaN in a floating-point
column) are dropped and counted as in memory; a group with one class is kept in group_sizes, so the fold
functions give the rows' error for it.

pyspark is imported at the top: a missing pyspark (or Java) fails these tests, never skips them (as in
tests/data/test_spark.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pyspark  # noqa: F401  (requirements-dev.txt)
import pytest
from pyspark.sql import SparkSession

import rocci
from rocci import data as rdata


def _rows(n=1500, seed=11):
    """String labels (some missing), two models with ties, folds 1, 2, 3, 10, 11 of unequal sizes (some missing)."""
    rng = np.random.default_rng(seed)
    pos = rng.random(n) < 0.3
    fold = np.array([1, 2, 3, 10, 11])[rng.choice(5, n, p=[0.1, 0.15, 0.2, 0.25, 0.3])]
    frame = pd.DataFrame({
        "outcome": np.where(pos, "fraud", "ok"),
        "gbm": np.round(pos * 0.9 + rng.normal(size=n), 1),
        "logit": np.round(pos * 0.6 + rng.normal(size=n), 2),
        "fold": fold.astype(float),  # a floating-point group column: NaN is a missing value
    })
    frame.loc[rng.choice(n, 9, replace=False), "fold"] = np.nan
    frame.loc[rng.choice(n, 6, replace=False), "outcome"] = None
    frame.loc[rng.choice(n, 4, replace=False), "gbm"] = np.nan
    return frame


def _write_with_nan(frame, path):
    """Parquet whose fold column holds NaN (not null): pandas would write null; Arrow keeps NaN as written."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    fold = pa.array(frame["fold"].to_numpy(), type=pa.float64(), from_pandas=False)
    pq.write_table(table.set_column(table.schema.get_field_index("fold"), "fold", fold), path)
    assert pq.read_table(path).column("fold").null_count == 0


def _check(result, frame):
    """The scan's folds against the rows: sizes, dropped rows and every fold function, exactly."""
    prep = rdata.prepare_binary(frame, label="outcome", scores=["gbm", "logit"], pos_label="fraud", fold="fold")
    assert result.n_rows_used == prep.n_rows_used and result.n_dropped == prep.n_dropped
    assert result.dropped_by_column == {k: int(v) for k, v in prep.dropped_by_column.items()}
    assert result.dropped_by_column["fold"] == 9
    y, f = prep.is_positive, prep.fold
    a, b = prep.scores["gbm"], prep.scores["logit"]
    assert {float(g) for g in result.group_sizes} == {1.0, 2.0, 3.0, 10.0, 11.0}
    for g, (n_pos, n_neg) in result.group_sizes.items():
        assert (n_pos, n_neg) == (int(y[f == g].sum()), int((~y[f == g]).sum()))
    pairs = [
        (rocci.fold_roc_curves(result, model="gbm"), rocci.fold_roc_curves(y, a, f)),
        (rocci.fold_vertical_average(result, model="logit"), rocci.fold_vertical_average(y, b, f)),
        (rocci.fold_threshold_average(result, model="gbm", n_thresholds=9),
         rocci.fold_threshold_average(y, a, f, n_thresholds=9)),
        (rocci.compare_folds(result, model_a="gbm", model_b="logit"), rocci.compare_folds(y, a, b, f)),
    ]
    for got, ref in pairs:
        assert got.folds == ref.folds == [1.0, 2.0, 3.0, 10.0, 11.0]
        pd.testing.assert_frame_equal(got.to_frame(), ref.to_frame(), check_exact=True)
        if hasattr(ref, "folds_frame"):
            pd.testing.assert_frame_equal(got.folds_frame(), ref.folds_frame(), check_exact=True)
        if hasattr(ref, "points_frame"):
            pd.testing.assert_frame_equal(got.points_frame(), ref.points_frame(), check_exact=True)
        if hasattr(ref, "summary_frame"):
            pd.testing.assert_frame_equal(got.summary_frame(), ref.summary_frame(), check_exact=True)


def test_duckdb_groups_give_the_rows_fold_results(tmp_path):
    frame = _rows()
    path = tmp_path / "cv.parquet"
    _write_with_nan(frame, path)
    for source in (path, frame):  # NaN in the file; NaN in pandas (DuckDB reads it as NULL)
        _check(rocci.scan(source, label="outcome", scores=["gbm", "logit"], pos_label="fraud", group="fold"), frame)


def test_a_group_with_one_class_is_kept_for_the_fold_functions_to_refuse():
    frame = _rows(seed=12).dropna()
    frame.loc[frame["fold"] == 3, "outcome"] = "ok"
    result = rocci.scan(frame, label="outcome", scores="gbm", pos_label="fraud", group="fold")
    assert 3.0 not in result.groups and result.group_sizes[3.0] == (0, int((frame["fold"] == 3).sum()))
    assert rocci.roc_auc(result["gbm"]).auc == rocci.roc_auc(frame["outcome"], frame["gbm"], pos_label="fraud").auc
    with pytest.raises(rocci.InputError) as from_rows:
        rocci.fold_vertical_average(frame["outcome"], frame["gbm"], frame["fold"], pos_label="fraud")
    with pytest.raises(rocci.InputError) as from_counts:
        rocci.fold_vertical_average(result)
    assert str(from_counts.value) == str(from_rows.value)
    assert str(from_rows.value).startswith("Fold 3.0 has no positive instances")


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        session = (SparkSession.builder.master("local[2]").appName("rocci-tests-folds")
                   .config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("spark-warehouse")))
                   .config("spark.ui.enabled", "false")
                   .config("spark.ui.showConsoleProgress", "false")
                   .config("spark.sql.shuffle.partitions", "4")
                   .config("spark.driver.memory", "1g")
                   .getOrCreate())
    session.sparkContext.setLogLevel("FATAL")
    yield session
    session.stop()


def test_spark_groups_give_the_rows_fold_results(spark, tmp_path):
    frame = _rows(seed=13)
    path = tmp_path / "cv.parquet"
    _write_with_nan(frame, path)
    kw = dict(label="outcome", scores=["gbm", "logit"], pos_label="fraud", group="fold")
    got = rocci.scan(path, engine="spark", spark=spark, **kw)
    ref = rocci.scan(path, **kw)
    assert list(got.groups) == list(ref.groups) and got.group_sizes == ref.group_sizes
    _check(got, frame)
