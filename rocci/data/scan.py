"""Reduce scored rows where they live to the counts the exact laws need.

For one model every exact law in rocci depends only on the table of distinct
scores with their numbers of positives and negatives; for two models on the
same instances, on the table of distinct (score_a, score_b) pairs by class.
An engine that can ``GROUP BY`` makes these tables next to the data, and
rocci finishes exactly from them.  :func:`scan` does it with DuckDB (embedded,
out-of-core: its memory follows the number of distinct scores, not of rows)
on Parquet or CSV files and globs, a DuckDB database, a SQL query, or a
pandas or Arrow table already in memory.

The reduction, for each model ``s`` (and each pair ``a, b``)::

    SELECT s, count(*) FILTER (WHERE label = pos) AS n_pos, count(*) FILTER (WHERE label <> pos) AS n_neg
    FROM source WHERE label, every score [and the group] are not missing
    GROUP BY s

Rows missing the label, any score or the group are dropped from every model
(as :func:`rocci.data.prepare_binary` does, so that paired comparisons see the
same instances) and counted per column.  The positive label follows the
in-memory rules (:func:`rocci._validation.check_labels` on the label values).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validation import InputError, check_labels
from ..counts import PairedCounts, ScoreCounts

__all__ = ["scan", "ScanResult", "RoundingEffect", "rounding_effect"]

_PARQUET = (".parquet", ".pq", ".parq")
_CSV = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz")
_DATABASE = (".duckdb", ".db", ".ddb")


@dataclass(frozen=True, repr=False)
class ScanResult:
    """What :func:`scan` read: each model's counts, each pair's counts, and the report of the rows.

    ``result[name]`` is a model's :class:`rocci.ScoreCounts`, accepted by every
    single-model function (``rocci.threshold_ci(result["gbm"], thresholds=[0.5])``);
    ``result.paired(a, b)`` is a :class:`rocci.PairedCounts` for the two-model
    functions (``rocci.compare_auc(result.paired("gbm", "logit"))``).

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
        One :class:`ScanResult` per value of the ``group`` column (empty without one).
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
            return PairedCounts(p.score_b, p.score_a, p.n_pos, p.n_neg, (a, b), p.pos_label)
        raise InputError(f"The pair ({a!r}, {b!r}) was not reduced: scan with paired=[({a!r}, {b!r})] (or "
                         "paired=True for every pair) to compare two models.")

    def summary(self) -> pd.DataFrame:
        """One row per model: positives, negatives, distinct scores (the size of what was reduced)."""
        rows = []
        for name, c in self.counts.items():
            distinct = np.unique(np.concatenate([c.pos, c.neg])).size
            rows.append({"model": name, "positives": c.n_pos, "negatives": c.n_neg, "distinct_scores": distinct})
        return pd.DataFrame(rows)

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


def _rounding_sql(column: str, significant: int | None, step: float | None) -> tuple[str, str]:
    """A non-decreasing rounding of ``column`` in SQL, and its description."""
    x = f"CAST({column} AS DOUBLE)"
    if step is not None:
        return f"round({x} / {float(step)!r}) * {float(step)!r}", f"scores rounded to a grid of step {step:g}"
    scale = f"pow(10, {int(significant) - 1} - floor(log10(abs({x}))))"
    return (f"CASE WHEN {x} = 0 THEN 0.0 ELSE round({x} * {scale}) / {scale} END",
            f"scores rounded to {int(significant)} significant digits")


def _quote(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def _check_inside(path: Path, root: Path | None) -> None:
    if root is None:
        return
    root = Path(root).resolve()
    target = path.resolve()
    if target != root and root not in target.parents:
        raise InputError(f"{path} is outside the data directory {root}: only files under it can be read.")


def _connect(allowed_root):
    import duckdb

    con = duckdb.connect(":memory:")
    con.execute("SET threads TO %d" % max(1, min(os.cpu_count() or 1, 8)))
    if allowed_root is not None:
        root = str(Path(allowed_root).resolve())
        con.execute("SET allowed_directories = [?]", [root])
        con.execute("SET enable_external_access = false")
    return con


def _relation(con, source, table, query, allowed_root):
    """A SQL expression for the rows to read, and a short description of it."""
    if query is not None and source is None:
        return f"({query})", "query"
    if isinstance(source, pd.DataFrame):
        con.register("rocci_source", source)
        return "rocci_source", f"a table of {len(source):,} rows"
    if type(source).__module__.startswith("pyarrow"):
        con.register("rocci_source", source)
        return "rocci_source", "an Arrow table"
    if not isinstance(source, (str, os.PathLike)):
        raise InputError(f"scan reads a file path or glob, a DuckDB database, a SQL query, or a pandas/Arrow "
                         f"table; got {type(source).__name__}.")
    path = Path(source)
    name = path.name.lower()
    has_glob = any(ch in str(source) for ch in "*?[")
    anchor = path.parent if has_glob else path
    _check_inside(anchor, allowed_root)
    if not has_glob and not path.exists():
        raise InputError(f"No file {source}: check the path.")
    if name.endswith(_DATABASE):
        con.execute("ATTACH ? AS rocci_db (READ_ONLY)", [str(path)])
        if query is not None:
            con.execute("USE rocci_db")
            return f"({query})", f"{path.name}: query"
        if table is None:
            raise InputError(f"{path.name} is a database: say which table to read (table=) or give a query=.")
        return f"rocci_db.{_quote(table)}", f"{path.name}: table {table}"
    if name.endswith(_PARQUET):
        return f"read_parquet({_literal(str(path))})", str(path)
    if name.endswith(_CSV):
        return f"read_csv({_literal(str(path))})", str(path)
    raise InputError(f"{path.name}: scan reads Parquet (.parquet) and CSV/TSV files and DuckDB databases "
                     "(.duckdb, .db).")


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _sql(con, sql: str, params=None, what: str = "reading the data"):
    import duckdb

    try:
        return con.execute(sql, params or []).fetchdf()
    except duckdb.Error as exc:
        raise InputError(f"DuckDB failed while {what}: {str(exc).splitlines()[0]}") from None


def scan(source=None, *, label: str, scores, pos_label: Any = None, engine: str = "duckdb", table: str | None = None,
         query: str | None = None, group: str | None = None, paired: Any = False,
         significant_digits: int | None = None, grid: float | None = None,
         allowed_root: str | os.PathLike | None = None) -> ScanResult:
    """Read scored rows where they live and return the counts every rocci function accepts.

    Parameters
    ----------
    source : path, glob, DuckDB database, pandas.DataFrame or pyarrow.Table, optional
        Parquet or CSV/TSV files (``"scores/*.parquet"``), a DuckDB database file
        (with ``table=`` or ``query=``), or a table in memory.  Omit it to run
        ``query`` alone (DuckDB SQL can read files itself).
    label : str
        The column of true classes (two values).
    scores : str or list of str
        One score column per model (higher = more positive).
    pos_label : scalar, optional
        The positive class; as everywhere in rocci, it may be omitted for
        0/1, -1/1 and True/False labels (also written as text).
    engine : {"duckdb"}
        The reducer.  (A Spark reducer with the same SQL is planned.)
    table, query : str, optional
        A table of a DuckDB database, or a SQL query whose result is read.
    group : str, optional
        A fold or group column: ``result.groups[value]`` holds each group's own scan.
    paired : bool or list of (a, b), default False
        Also reduce every pair of models (True) or these pairs, for the two-model
        functions.  A pair's table has one row per distinct (score_a, score_b):
        with continuous scores that is nearly one row per instance (8.3 million
        of 10⁷ rows with scores to 4 decimals), so it is made only when asked.
    significant_digits, grid : optional
        Round every score to this many significant digits, or to multiples of
        ``grid``, before counting: scores with as many distinct values as rows
        do not reduce.  Never silent: ``result.rounding[model]`` gives the
        largest possible change of the AUC and of each rate that the rounding
        can have caused, computed exactly from the counts (:class:`RoundingEffect`).
    allowed_root : path, optional
        When given, nothing outside this directory can be read (paths and
        symbolic links are resolved; DuckDB's external access is limited to it).

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
    if engine != "duckdb":
        raise InputError(f"engine must be 'duckdb' (got {engine!r}); the Spark reducer is not available yet.")
    if significant_digits is not None and grid is not None:
        raise InputError("Round by significant_digits or to a grid, not both.")
    if significant_digits is not None and (isinstance(significant_digits, bool) or
                                           not isinstance(significant_digits, (int, np.integer)) or
                                           not 1 <= significant_digits <= 15):
        raise InputError(f"significant_digits must be a whole number from 1 to 15; got {significant_digits!r}.")
    if grid is not None and not (isinstance(grid, (int, float, np.number)) and np.isfinite(grid) and grid > 0):
        raise InputError(f"grid must be a positive step, e.g. grid=0.001; got {grid!r}.")
    rounding = None if significant_digits is None and grid is None else (significant_digits, grid)
    models = [scores] if isinstance(scores, str) else list(scores)
    if not models:
        raise InputError("Give at least one score column (scores=).")
    if len(set(models)) != len(models):
        raise InputError(f"A score column is listed twice in scores={models}.")
    con = _connect(allowed_root)
    try:
        rel, described = _relation(con, source, table, query, allowed_root)
        types = _sql(con, f"DESCRIBE SELECT * FROM {rel}", what="reading the columns")
        kinds = dict(zip(types["column_name"], types["column_type"]))
        used = [label, *models] + ([group] if group is not None else [])
        for col in used:
            if col not in kinds:
                raise InputError(f"No column {col!r} in {described}; its columns are {list(kinds)}.")
        for col in models:
            if not _numeric(kinds[col]):
                raise InputError(f"Score column {col!r} holds {kinds[col]} values, not numbers: scores must be "
                                 "numeric. Cast it in a query= (e.g. CAST(col AS DOUBLE)) if it holds numbers as text.")
        return _scan(con, rel, described, label, models, pos_label, group, paired, kinds, rounding)
    finally:
        con.close()


def _numeric(kind: str) -> bool:
    k = kind.upper()
    return k in ("BOOLEAN",) or any(k.startswith(t) for t in (
        "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
        "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "REAL"))


def _scan(con, rel, described, label, models, pos_label, group, paired, kinds, rounding=None) -> ScanResult:
    q = {c: _quote(c) for c in [label, *models] + ([group] if group is not None else [])}
    # One pass for the row counts, the missing values per column and the infinite scores.
    parts = ["count(*) AS n"] + [f"count(*) FILTER (WHERE {q[c]} IS NULL OR isnan(TRY_CAST({q[c]} AS DOUBLE))) "
                                 f"AS {_quote('missing_' + str(c))}" if c in models else
                                 f"count(*) FILTER (WHERE {q[c]} IS NULL) AS {_quote('missing_' + str(c))}"
                                 for c in q]
    parts += [f"count(*) FILTER (WHERE isinf(CAST({q[c]} AS DOUBLE))) AS {_quote('inf_' + str(c))}" for c in models]
    stats = _sql(con, f"SELECT {', '.join(parts)} FROM {rel}", what="counting the rows").iloc[0]
    for c in models:
        if int(stats["inf_" + str(c)]):
            raise InputError(f"Score column {c!r} has {int(stats['inf_' + str(c)])} infinite value(s) (inf or "
                             "-inf). Scores must be finite numbers: replace or remove these rows.")
    keep = " AND ".join(f"{q[c]} IS NOT NULL" for c in q)
    keep += "".join(f" AND NOT isnan(CAST({q[c]} AS DOUBLE))" for c in models)
    labels = _sql(con, f"SELECT {q[label]} AS label, count(*) AS n FROM {rel} WHERE {keep} GROUP BY 1 ORDER BY 1",
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

    def key(c):
        nonlocal rounded_text
        if rounding is None:
            return q[c]
        expr, rounded_text = _rounding_sql(q[c], *rounding)
        return f"{expr} AS {q[c]}"

    def reduce(cols):
        keys = ", ".join([key(c) for c in cols] + group_sql)
        sql = (f"SELECT {keys}, count(*) FILTER (WHERE {where_pos}) AS n_pos, "
               f"count(*) FILTER (WHERE NOT ({where_pos})) AS n_neg FROM {rel} WHERE {keep} GROUP BY ALL")
        return _sql(con, sql, [_param(pos_value)] * 2, what=f"reducing {', '.join(map(repr, cols))}")

    singles = {m: reduce([m]) for m in models}
    if paired is True:
        pairs = [(a, b) for i, a in enumerate(models) for b in models[i + 1:]]
    elif paired is False or paired is None:
        pairs = []
    else:
        pairs = [tuple(p) for p in paired]
        for p in pairs:
            if len(p) != 2 or not all(m in models for m in p):
                raise InputError(f"paired={paired!r}: each pair must name two of the score columns {models}.")
    joint = {p: reduce(list(p)) for p in pairs}
    dropped = {str(c): int(stats["missing_" + str(c)]) for c in q}
    label_counts = dict(zip(labels["label"].tolist(), labels["n"].astype(int).tolist()))

    def build(single_frames, joint_frames, n_in, n_used_here, label_counts_here, source):
        counts = {m: ScoreCounts.from_counts(f[m].to_numpy(), f["n_pos"].to_numpy(), f["n_neg"].to_numpy(),
                                             pos_label=pos) for m, f in single_frames.items()}
        pair_counts = {(a, b): PairedCounts.from_frame(f, score_a=a, score_b=b, names=(a, b), pos_label=pos)
                       for (a, b), f in joint_frames.items()}
        return ScanResult(counts, pos, label_counts_here, n_in, n_used_here, dropped, pair_counts, {}, source)

    n_in = int(stats["n"])
    if group is None:
        result = build(singles, joint, n_in, n_used, label_counts, described)
        return _with_rounding(result, rounded_text)
    total = build({m: f.groupby(m, as_index=False)[["n_pos", "n_neg"]].sum() for m, f in singles.items()},
                  {p: f.groupby(list(p), as_index=False)[["n_pos", "n_neg"]].sum() for p, f in joint.items()},
                  n_in, n_used, label_counts, described)
    groups = {}
    for g in sorted(singles[models[0]][group].unique().tolist(), key=str):
        sub = {m: f[f[group] == g] for m, f in singles.items()}
        subj = {p: f[f[group] == g] for p, f in joint.items()}
        n_g = int(sub[models[0]][["n_pos", "n_neg"]].to_numpy().sum())
        try:
            groups[g] = build(sub, subj, n_g, n_g, {}, f"{described}, {group} = {g}")
        except InputError as exc:
            raise InputError(f"Group {group} = {g!r}: {exc}") from None
    groups = {g: _with_rounding(r, rounded_text) for g, r in groups.items()}
    return _with_rounding(ScanResult(total.counts, pos, label_counts, n_in, n_used, dropped, total.pairs, groups,
                                     described), rounded_text)


def _with_rounding(result: ScanResult, description: str) -> ScanResult:
    if not description:
        return result
    effects = {m: rounding_effect(c, description) for m, c in result.counts.items()}
    return dataclasses.replace(result, rounding=effects)


def _param(value):
    return value.item() if isinstance(value, np.generic) else value


def _equal_label(a, b) -> bool:
    from .._validation import _labels_equal

    return _labels_equal(a, b)
