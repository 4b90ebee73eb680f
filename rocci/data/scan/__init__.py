"""Reduce scored rows where they live to the counts the exact laws need.

For one model every exact law in rocci depends only on the table of distinct
scores with their numbers of positives and negatives; for two models on the
same instances, on the table of distinct (score_a, score_b) pairs by class.
An engine that can ``GROUP BY`` makes these tables next to the data, and
rocci finishes exactly from them.  :func:`scan` does it with DuckDB (embedded,
out-of-core: its memory follows the number of distinct scores, not of rows)
on Parquet or CSV files and globs, a DuckDB database, a SQL query, or a
pandas or Arrow table already in memory; or with Spark (``engine="spark"``)
on a Spark DataFrame, files, a table or a query of the user's session.

The reduction, for each model ``s`` (and each pair ``a, b``)::

    SELECT s, count(*) FILTER (WHERE label = pos) AS n_pos, count(*) FILTER (WHERE label <> pos) AS n_neg
    FROM source WHERE label, every score [and the group] are not missing
    GROUP BY s

Rows missing the label, any score or the group are dropped from every model
(as :func:`rocci.data.prepare_binary` does, so that paired comparisons see the
same instances) and counted per column.  The positive label follows the
in-memory rules (:func:`rocci._core.inputs.check_labels` on the label values).

One code path builds the SQL for both engines; what differs (quoting, the
infinity and NaN tests, array literals, running a statement, reading column
types, turning a source into a relation) is an engine object, :class:`_DuckDB`
or :class:`_Spark`.  The statements use only operations whose results IEEE-754
fixes (casts to DOUBLE, +, *, /, comparisons, round-half-away-from-zero of a
double to a whole number, decimal literals parsed to the nearest double), so
the two engines give the same tables bit for bit: see :func:`_rounding`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..._core.counts import PairedCounts, ScoreCounts
from ..._core.frames import _FrameResult
from ..._core.inputs import InputError, check_labels
from ._common import _DATABASE, _local_path, _rounding
from ._duckdb import _DuckDB
from ._spark import PYSPARK_VERSION, _Spark, _spark_session  # noqa: F401  (PYSPARK_VERSION: rocci.data.scan's)

__all__ = ["scan", "ScanResult", "RoundingEffect", "rounding_effect", "SourceInfo", "inspect_source",
           "scan_label_counts"]


@dataclass(frozen=True, repr=False)
class ScanResult(_FrameResult):
    """What :func:`scan` read: each model's counts, each pair's counts, and the report of the rows.

    ``result[name]`` is a model's :class:`rocci.ScoreCounts`, accepted by every
    single-model function (``rocci.threshold_ci(result["gbm"], thresholds=[0.5])``);
    ``result.paired(a, b)`` is a :class:`rocci.PairedCounts` for the two-model
    functions (``rocci.compare_auc(result.paired("gbm", "logit"))``);
    ``result.to_frame()`` is :meth:`summary`, one row per model.

    Attributes
    ----------
    counts : dict of str to ScoreCounts
    pos_label : object
        The positive label.
    label_counts : dict
        Rows per label value (missing labels excluded).
    n_rows_in, n_rows_used, n_dropped : int
        Rows read, rows used (no missing value in any used column), and the difference.
    dropped_by_column : dict of str to int
        Rows missing a value in each used column (a row missing several counts in each).
    groups : dict
        One :class:`ScanResult` per value of the ``group`` column that holds both classes (empty
        without a group column).  A group with one class only has no scan of its own (counts need both
        classes); it is in ``group_sizes``.
    group_sizes : dict
        ``(positives, negatives)`` of every value of the ``group`` column, in the order of ``groups``
        (a group with one class included): what :func:`rocci.fold_roc_curves` and the other fold
        functions check, as they do on rows.
    rounding : dict of str to RoundingEffect
        When the scores were rounded: each model's largest possible change of the AUC and of the
        rates (empty otherwise).
    source : str
        What was read.
    """

    counts: dict
    pos_label: Any
    label_counts: dict
    n_rows_in: int
    n_rows_used: int
    dropped_by_column: dict
    pairs: dict = field(default_factory=dict)
    groups: dict = field(default_factory=dict)
    source: str = ""
    rounding: dict = field(default_factory=dict)
    group_sizes: dict = field(default_factory=dict)

    _scalar_fields = ("source", "n_rows_in", "n_rows_used", "pos_label", "models")

    @property
    def n_dropped(self) -> int:
        return self.n_rows_in - self.n_rows_used

    @property
    def models(self) -> list:
        return list(self.counts)

    def __getitem__(self, model: str) -> ScoreCounts:
        try:
            return self.counts[model]
        except KeyError:
            raise InputError(f"No model {model!r} in this scan; the models are {self.models}.") from None

    def paired(self, a: str, b: str) -> PairedCounts:
        """The two models' joint counts (model ``a`` first)."""
        for m in (a, b):
            self[m]
        if (a, b) in self.pairs:
            return self.pairs[(a, b)]
        if (b, a) in self.pairs:
            p = self.pairs[(b, a)]
            swapped = PairedCounts(p.score_b, p.score_a, p.n_pos, p.n_neg, (a, b), p.pos_label)
            swapped._margins.update({1 - k: v for k, v in p._margins.items()})
            return swapped
        raise InputError(f"The pair ({a!r}, {b!r}) was not reduced: scan with paired=[({a!r}, {b!r})] (or "
                         "paired=True for every pair) to compare two models.")

    def summary(self) -> pd.DataFrame:
        """One row per model: n_pos, n_neg (positives and negatives), distinct scores (the size of what was reduced)."""
        rows = []
        for name, c in self.counts.items():
            distinct = np.unique(np.concatenate([c.pos, c.neg])).size
            rows.append({"model": name, "n_pos": c.n_pos, "n_neg": c.n_neg, "distinct_scores": distinct})
        return pd.DataFrame(rows)

    def to_frame(self) -> pd.DataFrame:
        """:meth:`summary`: one row per model, ``model, n_pos, n_neg, distinct_scores`` (``positives``, ``negatives`` before rocci 0.3)."""
        # Hand-written: the per-model summary, computed from the counts.
        return self.summary()

    def __repr__(self) -> str:
        return (f"ScanResult({self.source}: {self.n_rows_in:,} rows, {self.n_rows_used:,} used, "
                f"positive = {self.pos_label!r}, models {self.models})")


@dataclass(frozen=True, repr=False)
class RoundingEffect:
    """The largest possible effect of rounding the scores, computed exactly from the rounded counts.

    Rounding to a grid or to significant digits is non-decreasing, so two
    instances in different bins keep their order and only instances that
    share a bin (``P_b`` positives and ``N_b`` negatives) can have been
    reordered: after rounding they are tied.

    * AUC: each positive–negative pair of a bin counted ½; before, 0, ½ or 1.
      Largest possible change ``Σ_b ½·P_b·N_b / (n+·n−)`` (``auc_bound``),
      reached when every bin's positives all lay above (or all below) its
      negatives.
    * Rates at the threshold ``score >= v`` (``v`` a rounded score): before
      rounding, the instances of v's bin that lay below v were not flagged.
      Largest possible change of the TPR ``P_b/n+`` and of the FPR
      ``N_b/n−`` (columns ``tpr_bound``, ``fpr_bound``); other thresholds'
      bins are whole on both sides, so nothing else moves.

    Attributes
    ----------
    description : str
    auc_bound : float
    table : pandas.DataFrame
        ``score`` (rounded, increasing), ``n_pos``, ``n_neg``, ``tpr_bound``, ``fpr_bound``.
    """

    description: str
    auc_bound: float
    table: pd.DataFrame

    def __repr__(self) -> str:
        return (f"RoundingEffect({self.description}: AUC within ±{self.auc_bound:.3g}; rates within "
                f"±{self.table['tpr_bound'].max():.3g} (TPR), ±{self.table['fpr_bound'].max():.3g} (FPR))")


def rounding_effect(counts: ScoreCounts, description: str = "rounded scores") -> RoundingEffect:
    """The largest possible effect of the rounding that produced ``counts`` (see :class:`RoundingEffect`)."""
    values, n_pos, n_neg = counts.table()
    np_, nn = counts.n_pos, counts.n_neg
    bound = 0.5 * float(np.dot(n_pos.astype(float), n_neg.astype(float))) / (float(np_) * float(nn))
    table = pd.DataFrame({"score": values, "n_pos": n_pos, "n_neg": n_neg,
                          "tpr_bound": n_pos / np_, "fpr_bound": n_neg / nn})
    return RoundingEffect(description, bound, table)




def scan(source=None, *, label: str, scores, pos_label: Any = None, engine: str = "duckdb", table: str | None = None,
         query: str | None = None, group: str | None = None, paired: Any = False,
         significant_digits: int | None = None, grid: float | None = None,
         allowed_root: str | os.PathLike | None = None, spark=None, max_table_rows: int | None = None,
         progress=None) -> ScanResult:
    """Read scored rows where they live and return the counts every rocci function accepts.

    Parameters
    ----------
    source : path, glob, DuckDB database, pandas.DataFrame, pyarrow.Table or Spark DataFrame, optional
        Parquet or CSV/TSV files (``"scores/*.parquet"``), a DuckDB database file
        (with ``table=`` or ``query=``), or a table in memory.  Omit it to run
        ``query`` alone (DuckDB SQL can read files itself).  With ``engine="spark"``:
        a Spark DataFrame, Parquet/CSV paths or globs (also ``s3a://``, ``hdfs://``…),
        or a pandas/Arrow table; a ``query=`` or ``table=`` of the Spark session alone.
    label : str
        The column of true classes (two values).
    scores : str or list of str
        One score column per model (higher = more positive).
    pos_label : scalar, optional
        The positive class; as everywhere in rocci, it may be omitted for
        0/1, -1/1 and True/False labels (also written as text).
    engine : {"duckdb", "spark"}
        The reducer.  ``"duckdb"``: embedded, out of core.  ``"spark"``: the same
        SQL run by Spark (``GROUP BY`` on the cluster; only the count tables reach
        Python), with the same results bit for bit; needs ``pip install
        pyspark==4.3.0`` and Java 17 or later.
    table, query : str, optional
        A table of a DuckDB database, or a SQL query whose result is read (with
        ``engine="spark"``: a table or a Spark SQL query of the session).  A DuckDB
        query must be one SELECT statement (DuckDB's parser decides; a final
        semicolon is dropped): it is read as a table, never run as a script.
    group : str, optional
        A fold or group column: ``result.groups[value]`` holds each group's own scan (a group
        with one class only: in ``result.group_sizes`` alone), and the fold functions take the
        result as it is (``rocci.fold_roc_curves(result, model="gbm")``).  Rows missing the group
        (NULL, or NaN in a floating-point column) are dropped and counted.
    paired : bool or list of (a, b), default False
        Also reduce every pair of models (True) or these pairs, for the two-model
        functions.  A pair's table has one row per distinct (score_a, score_b):
        with continuous scores that is nearly one row per instance (8.3 million
        of 10⁷ rows with scores to 4 decimals), so it is made only when asked.
        Its rows come in the engine's order.
    significant_digits, grid : optional
        Round every score to this many significant digits, or to multiples of
        ``grid``, before counting: scores with as many distinct values as rows
        do not reduce.  Never silent: ``result.rounding[model]`` gives the
        largest possible change of the AUC and of each rate that the rounding
        can have caused, computed exactly from the counts (:class:`RoundingEffect`).
    allowed_root : path, optional
        When given, nothing outside this directory can be read (paths and
        symbolic links are resolved; DuckDB's external access is limited to it and
        its configuration then locked; with Spark, globs are expanded and checked
        file by file, and a query= or table= is refused since it could read anything).
    spark : pyspark.sql.SparkSession, optional
        The session for ``engine="spark"`` (never stopped by rocci).  Default: a
        Spark DataFrame's own session, else the active session, else a new local one
        (``local[2]``).
    max_table_rows : int, optional
        Refuse (``InputError``) a model with more distinct scores, or a pair with
        more distinct score pairs, than this: each reduction stops at that many
        rows plus one (``LIMIT``), so no larger table reaches Python.  The
        dashboard's guard for a server's memory; rounding makes tables small.
    progress : callable, optional
        ``progress(done, total, step)`` is called before each pass over the data
        (``done`` of ``total`` passes finished, ``step`` says what runs next: the
        row counts, the label values, then each model and each pair) and once at
        the end with ``done == total``.

    Returns
    -------
    ScanResult

    Examples
    --------
    >>> import numpy as np, pandas as pd, rocci
    >>> rows = pd.DataFrame({"y": [1, 0, 1, 0, 1, 0], "m": [0.9, 0.8, 0.7, 0.3, 0.3, 0.1]})
    >>> result = rocci.scan(rows, label="y", scores="m")
    >>> result["m"]
    ScoreCounts(n_pos=3, n_neg=3, distinct_scores=5, pos_label=1)
    >>> rocci.roc_auc(result["m"]).auc == rocci.roc_auc(rows["y"], rows["m"]).auc
    True
    """
    if engine not in ("duckdb", "spark"):
        raise InputError(f"engine must be 'duckdb' or 'spark' (got {engine!r}).")
    if spark is not None and engine != "spark":
        raise InputError("spark= is the session of engine='spark': add engine='spark'.")
    if significant_digits is not None and grid is not None:
        raise InputError("Round by significant_digits or to a grid, not both.")
    if significant_digits is not None and (isinstance(significant_digits, bool) or
                                           not isinstance(significant_digits, (int, np.integer)) or
                                           not 1 <= significant_digits <= 15):
        raise InputError(f"significant_digits must be a whole number from 1 to 15; got {significant_digits!r}.")
    if grid is not None and not (isinstance(grid, (int, float, np.number)) and np.isfinite(grid) and grid > 0):
        raise InputError(f"grid must be a positive step, e.g. grid=0.001; got {grid!r}.")
    if max_table_rows is not None and (isinstance(max_table_rows, bool) or
                                       not isinstance(max_table_rows, (int, np.integer)) or max_table_rows < 1):
        raise InputError(f"max_table_rows must be a positive whole number; got {max_table_rows!r}.")
    rounding = None if significant_digits is None and grid is None else (significant_digits, grid)
    models = [scores] if isinstance(scores, str) else list(scores)
    if not models:
        raise InputError("Give at least one score column (scores=).")
    if len(set(models)) != len(models):
        raise InputError(f"A score column is listed twice in scores={models}.")
    foreign = query is not None or (isinstance(source, (str, os.PathLike)) and str(source).lower().endswith(_DATABASE))
    d = _Spark(_spark_session(spark, source)) if engine == "spark" else _DuckDB(allowed_root, foreign=foreign)
    try:
        rel, described = d.relation(source, table, query, allowed_root)
        kinds = d.describe(rel)
        if group is not None and (group == label or group in models):
            raise InputError(f"Column {group!r} is the group column and also the label or a score column: choose a "
                             "separate group (fold) column, or none.")
        used = [label, *models] + ([group] if group is not None else [])
        for col in used:
            if col not in kinds:
                raise InputError(f"No column {col!r} in {described}; its columns are {list(kinds)}.")
        for col in models:
            if not d.numeric(kinds[col]):
                raise InputError(f"Score column {col!r} holds {kinds[col]} values, not numbers: scores must be "
                                 "numeric. Cast it in a query= (e.g. CAST(col AS DOUBLE)) if it holds numbers as text.")
        # a floating-point group column's NaN is missing, as in memory (pandas.isna); DuckDB and Spark keep it
        group_nan = group is not None and str(kinds[group]).upper() in ("DOUBLE", "FLOAT", "REAL")
        return _scan(d, rel, described, label, models, pos_label, group, paired, rounding, max_table_rows, progress,
                     group_nan=group_nan)
    finally:
        d.close()


def _pairs(paired, models) -> list[tuple]:
    """The pairs of score columns to cross: every pair (``True``), none, or the ones named."""
    if paired is True:
        return [(a, b) for i, a in enumerate(models) for b in models[i + 1:]]
    if paired is False or paired is None:
        return []
    pairs = [tuple(p) for p in paired]
    for p in pairs:
        if len(p) != 2 or not all(m in models for m in p):
            raise InputError(f"paired={paired!r}: each pair must name two of the score columns {models}.")
    return pairs


def _scan(d, rel, described, label, models, pos_label, group, paired, rounding=None, max_rows=None,
          progress=None, *, group_nan=False) -> ScanResult:
    """The statements, the same text for every engine ``d`` (only quoting, ``is_inf``, ``is_nan`` and ``element``
    differ)."""
    pairs = _pairs(paired, models)
    passes = 2 + len(models) + len(pairs)
    done = 0

    def step(what: str) -> None:
        nonlocal done
        if progress is not None:
            progress(done, passes, what)
        done += 1

    q = {c: d.quote(c) for c in [label, *models] + ([group] if group is not None else [])}
    x = {c: f"CAST({q[c]} AS DOUBLE)" for c in models}
    # One pass for the row counts, the missing values per column and the infinite scores.
    # NaN (a score's, a group's) is tested by d.is_nan: DuckDB 2.0 takes a Parquet column's min/max
    # statistics (which leave NaN out) as proof that no value is NaN and drops a plain `NOT isnan(col)`.
    group_is_nan = d.is_nan(f"CAST({q[group]} AS DOUBLE)") if group_nan else None
    parts = ["count(*) AS n"] + [f"count(*) FILTER (WHERE {q[c]} IS NULL OR {d.is_nan(f'TRY_CAST({q[c]} AS DOUBLE)')}) "
                                 f"AS {d.quote('missing_' + str(c))}" if c in models else
                                 f"count(*) FILTER (WHERE {q[c]} IS NULL OR {group_is_nan}) "
                                 f"AS {d.quote('missing_' + str(c))}" if c == group and group_nan else
                                 f"count(*) FILTER (WHERE {q[c]} IS NULL) AS {d.quote('missing_' + str(c))}"
                                 for c in q]
    parts += [f"count(*) FILTER (WHERE {d.is_inf(x[c])}) AS {d.quote('inf_' + str(c))}" for c in models]
    step("counting the rows and the missing values")
    stats = d.sql(f"SELECT {', '.join(parts)} FROM {rel}", what="counting the rows").iloc[0]
    for c in models:
        if int(stats["inf_" + str(c)]):
            raise InputError(f"Score column {c!r} has {int(stats['inf_' + str(c)])} infinite value(s) (inf or "
                             "-inf). Scores must be finite numbers: replace or remove these rows.")
    keep = " AND ".join(f"{q[c]} IS NOT NULL" for c in q)
    keep += "".join(f" AND NOT {d.is_nan(x[c])}" for c in models)
    keep += f" AND NOT {group_is_nan}" if group_nan else ""
    step("reading the label values")
    labels = d.sql(f"SELECT {q[label]} AS label, count(*) AS n FROM {rel} WHERE {keep} GROUP BY 1 ORDER BY 1",
                   what="reading the label values")
    if labels.empty:
        raise InputError(f"No row of {described} has a label and every score: nothing to analyse.")
    values = labels["label"].to_numpy()
    _, pos = check_labels(values, pos_label)  # the same rules and messages as in memory
    pos_value = next(v for v in values if _equal_label(v, pos))
    n_used = int(labels["n"].sum())
    where_pos = f"{q[label]} = ?"
    group_sql = [q[group]] if group is not None else []
    rounded_text = ""

    def reduce(cols):
        nonlocal rounded_text
        source, keys = f"(SELECT * FROM {rel} WHERE {keep}) AS {d.quote('__rocci_0')}", []
        layers: list[list[str]] = []
        for i, c in enumerate(cols):
            if rounding is None:  # + 0.0: -0.0 counts (and is shown) as 0.0 in every engine
                keys.append(f"{x[c]} + CAST(0 AS DOUBLE) AS {q[c]}")
                continue
            steps, final, rounded_text = _rounding(d, x[c], i, *rounding)
            layers += [[] for _ in range(len(steps) - len(layers))]
            for layer, more in zip(layers, steps):
                layer += more
            keys.append(f"{final} AS {q[c]}")
        for n, layer in enumerate(layers, start=1):
            source = f"(SELECT *, {', '.join(layer)} FROM {source}) AS {d.quote(f'__rocci_{n}')}"
        sql = (f"SELECT {', '.join(keys + group_sql)}, count(*) FILTER (WHERE {where_pos}) AS n_pos, "
               f"count(*) FILTER (WHERE NOT ({where_pos})) AS n_neg FROM {source} GROUP BY ALL")
        names = " and ".join(map(repr, cols))
        step(f"reducing {'model' if len(cols) == 1 else 'the pair'} {names}")
        if max_rows is not None:
            sql += f" LIMIT {int(max_rows) + 1}"
        table = d.sql(sql, [_param(pos_value)] * 2, what=f"reducing {', '.join(map(repr, cols))}")
        if max_rows is not None and len(table) > max_rows:
            what = "distinct scores" if len(cols) == 1 else "distinct pairs of scores"
            raise InputError(f"{'Model' if len(cols) == 1 else 'The pair'} {names} has more than {max_rows:,} {what}"
                             f"{f' (counted per value of {group!r})' if group is not None else ''}, the limit here. Round the scores "
                             "(significant digits, or a grid) so that they reduce"
                             + ("" if len(cols) == 1 else ", or do not reduce pairs") + ".")
        return table

    singles = {m: reduce([m]) for m in models}
    joint = {p: reduce(list(p)) for p in pairs}
    if progress is not None:
        progress(passes, passes, "done")
    dropped = {str(c): int(stats["missing_" + str(c)]) for c in q}
    label_counts = dict(zip(labels["label"].tolist(), labels["n"].astype(int).tolist()))

    def build(single_frames, joint_frames, n_in, n_used_here, label_counts_here, source):
        counts = {m: ScoreCounts.from_counts(f[m].to_numpy(), f["n_pos"].to_numpy(), f["n_neg"].to_numpy(),
                                             pos_label=pos) for m, f in single_frames.items()}
        pair_counts = {(a, b): PairedCounts.from_frame(f, score_a=a, score_b=b, names=(a, b), pos_label=pos)
                       for (a, b), f in joint_frames.items()}
        for (a, b), pair in pair_counts.items():  # a pair's margins are the models' own tables (same rows)
            pair._margins.update({0: counts[a], 1: counts[b]})
        return ScanResult(counts, pos, label_counts_here, n_in, n_used_here, dropped, pair_counts, {}, source)

    n_in = int(stats["n"])
    if group is None:
        result = build(singles, joint, n_in, n_used, label_counts, described)
        return _with_rounding(result, rounded_text)
    total = build({m: f.groupby(m, as_index=False)[["n_pos", "n_neg"]].sum() for m, f in singles.items()},
                  {p: f.groupby(list(p), as_index=False)[["n_pos", "n_neg"]].sum() for p, f in joint.items()},
                  n_in, n_used, label_counts, described)
    groups, sizes = {}, {}
    for g in sorted(singles[models[0]][group].unique().tolist(), key=str):
        sub = {m: f[f[group] == g] for m, f in singles.items()}
        subj = {p: f[f[group] == g] for p, f in joint.items()}
        g_pos, g_neg = (int(v) for v in sub[models[0]][["n_pos", "n_neg"]].to_numpy().sum(axis=0))
        sizes[g] = (g_pos, g_neg)
        n_g = g_pos + g_neg
        if g_pos == 0 or g_neg == 0:  # counts need both classes: in group_sizes only (the fold functions say so)
            continue
        try:
            groups[g] = build(sub, subj, n_g, n_g, {}, f"{described}, {group} = {g}")
        except InputError as exc:
            raise InputError(f"Group {group} = {g!r}: {exc}") from None
    groups = {g: _with_rounding(r, rounded_text) for g, r in groups.items()}
    return _with_rounding(ScanResult(total.counts, pos, label_counts, n_in, n_used, dropped, total.pairs, groups,
                                     described, group_sizes=sizes), rounded_text)


def _with_rounding(result: ScanResult, description: str) -> ScanResult:
    if not description:
        return result
    effects = {m: rounding_effect(c, description) for m, c in result.counts.items()}
    return dataclasses.replace(result, rounding=effects)


def _param(value):
    return value.item() if isinstance(value, np.generic) else value


def _equal_label(a, b) -> bool:
    from ..._core.inputs import _labels_equal

    return _labels_equal(a, b)


@dataclass(frozen=True, repr=False)
class SourceInfo:
    """What a source holds, read without a pass over its rows (:func:`inspect_source`).

    Attributes
    ----------
    columns : dict of str to str
        Each column's DuckDB type, in order.
    preview : pandas.DataFrame
        The first rows (``LIMIT``): enough to guess the label and the score columns.
    tables : list of str
        A DuckDB database's tables (empty for a file or a query).
    """

    columns: dict
    preview: pd.DataFrame
    tables: list = field(default_factory=list)

    def numeric(self) -> list:
        """The columns whose type is a number (or a boolean): the possible score columns."""
        return [c for c, kind in self.columns.items() if _DuckDB.numeric(kind)]

    def __repr__(self) -> str:
        return f"SourceInfo({len(self.columns)} columns, tables {self.tables})"


def inspect_source(source=None, *, table: str | None = None, query: str | None = None,
                   allowed_root: str | os.PathLike | None = None, rows: int = 100) -> SourceInfo:
    """The columns, their types and the first ``rows`` rows of what :func:`scan` would read (DuckDB).

    Cheap on any size: DuckDB's ``DESCRIBE`` binds the source without reading it,
    and the preview reads ``LIMIT rows`` (the first row group of a Parquet file, the
    first lines of a CSV).  The same sources and the same ``allowed_root`` rules as
    :func:`scan`.  A DuckDB database without ``table=`` or ``query=`` lists its
    tables and previews the first one (none: no columns).
    """
    d = _DuckDB(allowed_root)
    try:
        tables: list = []
        if isinstance(source, (str, os.PathLike)) and str(source).lower().endswith(_DATABASE):
            path, _ = _local_path(source, allowed_root)
            d.con.execute("ATTACH ? AS rocci_db (READ_ONLY)", [str(path)])
            found = d.sql("SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'rocci_db' "
                          "AND schema_name = 'main' UNION ALL SELECT view_name FROM duckdb_views() WHERE "
                          "database_name = 'rocci_db' AND schema_name = 'main' AND NOT internal ORDER BY 1",
                          what="listing the tables")
            tables = [str(t) for t in found["name"]]
            d.con.execute("DETACH rocci_db")
            if table is None and query is None:
                if not tables:
                    return SourceInfo({}, pd.DataFrame(), [])
                table = tables[0]
        rel, _ = d.relation(source, table, query, allowed_root)
        columns = d.describe(rel)
        preview = d.sql(f"SELECT * FROM {rel} LIMIT {max(int(rows), 0)}", what="reading the first rows")
        return SourceInfo(columns, preview, tables)
    finally:
        d.close()


def scan_label_counts(source=None, *, label: str, table: str | None = None, query: str | None = None,
                      allowed_root: str | os.PathLike | None = None, max_values: int = 50) -> dict:
    """Rows per value of the ``label`` column (missing labels, NULL or NaN, left out), most frequent first (DuckDB).

    One pass over the label column alone (Parquet reads that column only).  At most
    ``max_values + 1`` values are returned: more than ``max_values`` means the
    column is not a class label.  What the positive label is chosen from before a
    :func:`scan`.
    """
    d = _DuckDB(allowed_root)
    try:
        rel, described = d.relation(source, table, query, allowed_root)
        kinds = d.describe(rel)
        if label not in kinds:
            raise InputError(f"No column {label!r} in {described}; its columns are {list(kinds)}.")
        col = d.quote(label)
        keep = f"{col} IS NOT NULL"
        if str(kinds[label]).upper() in ("DOUBLE", "FLOAT", "REAL"):  # NaN is missing, as in scan and in memory
            keep += f" AND NOT {d.is_nan(f'CAST({col} AS DOUBLE)')}"
        frame = d.sql(f"SELECT {col} AS label, count(*) AS n FROM {rel} WHERE {keep} GROUP BY 1 "
                      f"ORDER BY 2 DESC, 1 LIMIT {int(max_values) + 1}", what="reading the label values")
        return {_param(v): int(n) for v, n in zip(frame["label"].tolist(), frame["n"].tolist())}
    finally:
        d.close()
