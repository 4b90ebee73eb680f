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
in-memory rules (:func:`rocci._validation.check_labels` on the label values).

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
import glob
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validation import InputError, check_labels
from ..counts import PairedCounts, ScoreCounts

__all__ = ["scan", "ScanResult", "RoundingEffect", "rounding_effect", "SourceInfo", "inspect_source",
           "scan_label_counts"]

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


#: The PySpark release rocci is tested with (requirements-dev.txt, the ``spark`` extra).
PYSPARK_VERSION = "4.3.0"

#: Powers of ten 10^-324 … 10^309 as DOUBLE literals, each the nearest double to its decimal (both engines
#: parse decimals correctly rounded); ``_POWERS[j + 324]`` is 10^j (0 and inf at the ends).
_POWERS = ["0e0"] + [f"1e{j}" for j in range(-323, 309)] + ["CAST('Infinity' AS DOUBLE)"]


def _rounding(d, x: str, i: int, significant: int | None, step: float | None):
    """A non-decreasing rounding of the DOUBLE expression ``x``, the same bits in every engine.

    Returns ``(layers, final, description)``: ``layers`` are lists of ``expression AS name`` computed one
    after the other (each may use the names of the previous ones), ``final`` the rounded value from them.

    Only operations whose result IEEE-754 fixes decide the value: products and quotients of doubles,
    decimal text parsed to the nearest double (literals, ``CAST('…' AS DOUBLE)``), comparisons, and
    ``round`` of a double to a whole number (half away from zero in DuckDB; HALF_UP of the double's
    decimal form, ``Double.toString``, in Spark: the same whole number, since that form parses back to
    the double and a half-integer other than the double itself lies at least an ulp away from it).  ``log10``, whose last bit differs between C and Java
    libraries, only proposes the decimal exponent: comparisons with the literal powers 10^e0 and
    10^(e0+1) make it exact.  Then, with ``m = k - 1 - e``, ``N = round(x·10^m)`` (or ``round(x / 10^-m)``)
    and the value is the double nearest to ``N·10^-m``: ``N / 10^m`` or ``N · 10^-m`` while the power is
    exact (|m| <= 22), else the text ``'Ne-m'`` parsed.  ``+ 0.0`` turns -0.0 into 0.0 (DuckDB keeps the
    sign of zero in a GROUP BY key, Spark does not).  A value that would round past the largest double
    keeps its own value.
    """
    zero = "CAST(0 AS DOUBLE)"
    xi, r = d.quote(f"__rocci_x{i}"), d.quote(f"__rocci_r{i}")
    last = f"CASE WHEN {d.is_inf(r)} THEN {xi} ELSE {r} END + {zero}"
    if step is not None:
        s = f"CAST('{float(step)!r}' AS DOUBLE)"
        layers = [[f"{x} AS {xi}"], [f"round({xi} / {s}) * {s} AS {r}"]]
        return layers, last, f"scores rounded to a grid of step {step:g}"
    k = int(significant)
    e0, e, m, p, n = (d.quote(f"__rocci_{name}{i}") for name in ("e0_", "e_", "m_", "p_", "n_"))

    def power(j):  # 10^j, j an integer expression within [-324, 309]
        return d.element(_POWERS, f"{j} + {325}")

    def parsed(digits, exponent):  # the double nearest to digits·10^exponent (both whole numbers)
        return (f"CAST(concat(CAST(CAST({digits} AS BIGINT) AS STRING), 'e', CAST({exponent} AS STRING)) "
                "AS DOUBLE)")

    layers = [
        [f"{x} AS {xi}"],
        [f"CASE WHEN {xi} = 0 THEN 0 ELSE CAST(floor(log10(abs({xi}))) AS BIGINT) END AS {e0}"],
        [f"{e0} + CASE WHEN {xi} = 0 THEN 0 WHEN abs({xi}) >= {power(f'least({e0} + 1, 309)')} THEN 1 "
         f"WHEN abs({xi}) < {power(f'greatest({e0}, -324)')} THEN -1 ELSE 0 END AS {e}"],
        [f"least({k - 1} - {e}, 308) AS {m}"],
        [f"{power(f'abs({m})')} AS {p}"],
        [f"CASE WHEN {m} >= 0 THEN round({xi} * {p}) ELSE round({xi} / {p}) END AS {n}"],
        [f"CASE WHEN {xi} = 0 THEN {zero} WHEN {m} > 22 OR {m} < -22 THEN {parsed(n, f'-{m}')} "
         f"WHEN {m} >= 0 THEN {n} / {p} ELSE {n} * {p} END AS {r}"],
    ]
    return layers, last, f"scores rounded to {k} significant digits"


def _check_inside(path: Path, root: Path | None) -> None:
    if root is None:
        return
    root = Path(root).resolve()
    target = path.resolve()
    if target != root and root not in target.parents:
        raise InputError(f"{path} is outside the data directory {root}: only files under it can be read.")


def _select_only(query) -> str:
    """``query`` if it is one SELECT statement (its final semicolons dropped); else an InputError.

    A query is read as a table (``SELECT … FROM (query)``): a second statement, or a COPY, ATTACH, SET,
    INSTALL… would be something else than reading, and under ``allowed_root`` could write into the data
    directory.  DuckDB's own parser decides.
    """
    import duckdb

    if not isinstance(query, str) or not query.strip():
        raise InputError("query= must be the text of one SELECT statement.")
    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error as exc:
        raise InputError(f"The query does not parse: {_first_line(exc)}") from None
    kinds = [st.type for st in statements]
    if len(kinds) != 1 or kinds[0] != duckdb.StatementType.SELECT:
        what = (f"{len(kinds)} statements" if len(kinds) != 1 else
                f"a {str(kinds[0]).rsplit('.', 1)[-1]} statement")
        raise InputError(f"query= must be one SELECT statement (a query that reads rows); this is {what}.")
    text = query.strip()
    while text.endswith(";"):
        text = text[:-1].rstrip()
    return text


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _local_path(source, allowed_root) -> tuple[Path, bool]:
    """The path, whether it is a glob; refused when it leaves ``allowed_root`` or names no file."""
    path = Path(source)
    has_glob = any(ch in str(source) for ch in "*?[")
    anchor = path.parent if has_glob else path
    _check_inside(anchor, allowed_root)
    if not has_glob and not path.exists():
        raise InputError(f"No file {source}: check the path.")
    return path, has_glob


_CAN_HAVE_NAN: bool | None = None  # whether read_parquet takes can_have_nan (_DuckDB._knows_can_have_nan)


class _DuckDB:
    """DuckDB, embedded: files and globs, DuckDB databases, SQL, pandas and Arrow tables."""

    name = "DuckDB"
    #: The optimiser that takes Parquet statistics as proof of no NaN; turned off where they may be read so.
    STATS_OPTIMIZER = "statistics_propagation"

    def __init__(self, allowed_root, *, foreign: bool = False):
        """``foreign``: the source is a query= or a database, which may read Parquet files by themselves (see
        :meth:`is_nan`)."""
        import duckdb

        self.con = duckdb.connect(":memory:")
        self.con.execute("SET threads TO %d" % max(1, min(os.cpu_count() or 1, 8)))
        self.con.execute("SET enable_progress_bar = false")  # a library prints nothing (DuckDB's bar goes to stdout)
        # NaN and Parquet statistics (see is_nan); set before the configuration is locked
        self.can_have_nan = self._knows_can_have_nan(self.con)
        self.stats_off = False
        if foreign or not self.can_have_nan:
            try:
                self.con.execute(f"SET disabled_optimizers = '{self.STATS_OPTIMIZER}'")
                self.stats_off = True
            except duckdb.Error:  # an optimiser of another name: is_nan's one-element list instead
                pass
        self.plain_nan = self.stats_off or self.can_have_nan
        if allowed_root is not None:
            root = str(Path(allowed_root).resolve())
            self.con.execute("SET allowed_directories = [?]", [root])
            self.con.execute("SET enable_external_access = false")
            # no statement can loosen the settings afterwards (and only one SELECT runs as a query=)
            self.con.execute("SET lock_configuration = true")

    @staticmethod
    def _knows_can_have_nan(con) -> bool:
        """Whether this DuckDB's read_parquet takes ``can_have_nan`` (asked once: reading the catalogue of
        functions takes some 50 ms)."""
        global _CAN_HAVE_NAN
        if _CAN_HAVE_NAN is None:
            _CAN_HAVE_NAN = bool(con.execute(
                "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'read_parquet' "
                "AND list_contains(parameters, 'can_have_nan')").fetchall()[0][0])
        return _CAN_HAVE_NAN

    @staticmethod
    def quote(name) -> str:
        return '"' + str(name).replace('"', '""') + '"'

    @staticmethod
    def is_inf(x: str) -> str:
        return f"isinf({x})"

    @staticmethod
    def element(items, index: str) -> str:
        return f"list_extract([{', '.join(items)}], {index})"

    def is_nan(self, x: str) -> str:
        """Whether the DOUBLE ``x`` is NaN, a test DuckDB cannot drop.

        DuckDB 2.0 takes a Parquet float column's min/max statistics (which leave NaN out, as the format
        says) as proof that the column holds no NaN, and drops ``NOT isnan(col)`` from a WHERE clause (its
        statistics propagation): NaN rows then reach the counts.  The plain test stands when

        * the Parquet files are rocci's own ``read_parquet``, with ``can_have_nan = true``: the statistics
          then allow NaN (the cheapest: the other optimisations keep their statistics);
        * or the connection runs without statistics propagation: a query= or a database (whose views may
          read Parquet files without that option), or a DuckDB without ``can_have_nan``.

        Else (an optimiser that cannot be turned off by that name) the value goes through a one-element list,
        whose statistics say nothing about NaN: correct too, but it doubled the time of a scan of 10^7 rows.
        """
        return f"isnan({x})" if self.plain_nan else f"isnan({self.element([x], '1')})"

    def sql(self, text: str, params=None, what: str = "reading the data") -> pd.DataFrame:
        import duckdb

        try:
            return self.con.execute(text, params or []).fetchdf()
        except duckdb.Error as exc:
            raise InputError(f"DuckDB failed while {what}: {_first_line(exc)}") from None

    def describe(self, rel: str) -> dict:
        types = self.sql(f"DESCRIBE SELECT * FROM {rel}", what="reading the columns")
        return dict(zip(types["column_name"], types["column_type"]))

    @staticmethod
    def numeric(kind: str) -> bool:
        k = kind.upper()
        return k in ("BOOLEAN",) or any(k.startswith(t) for t in (
            "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
            "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "REAL"))

    def relation(self, source, table, query, allowed_root) -> tuple[str, str]:
        """A SQL expression for the rows to read, and a short description of it."""
        con = self.con
        if query is not None:
            query = _select_only(query)
        if query is not None and source is None:
            self.plain_nan = self.stats_off  # the query may read Parquet files without can_have_nan (see is_nan)
            return f"(\n{query}\n)", "query"
        if isinstance(source, pd.DataFrame):
            con.register("rocci_source", source)
            return "rocci_source", f"a table of {len(source):,} rows"
        if type(source).__module__.startswith("pyarrow"):
            con.register("rocci_source", source)
            return "rocci_source", "an Arrow table"
        if type(source).__module__.startswith("pyspark"):
            raise InputError("This is a Spark DataFrame: scan it with engine='spark' (the reduction then runs "
                             "in Spark and only the count tables reach Python).")
        if not isinstance(source, (str, os.PathLike)):
            raise InputError(f"scan reads a file path or glob, a DuckDB database, a SQL query, or a pandas/Arrow "
                             f"table; got {type(source).__name__}.")
        path, _ = _local_path(source, allowed_root)
        name = path.name.lower()
        if name.endswith(_DATABASE):
            con.execute("ATTACH ? AS rocci_db (READ_ONLY)", [str(path)])
            self.plain_nan = self.stats_off  # a view (or the query) may read Parquet files (see is_nan)
            if query is not None:
                con.execute("USE rocci_db")
                return f"(\n{query}\n)", f"{path.name}: query"
            if table is None:
                raise InputError(f"{path.name} is a database: say which table to read (table=) or give a query=.")
            return f"rocci_db.{self.quote(table)}", f"{path.name}: table {table}"
        if name.endswith(_PARQUET):
            # can_have_nan: Parquet's min/max statistics leave NaN out; DuckDB must not read them as "no NaN"
            option = ", can_have_nan = true" if self.can_have_nan else ""
            return f"read_parquet({_literal(str(path))}{option})", str(path)
        if name.endswith(_CSV):
            return f"read_csv({_literal(str(path))})", str(path)
        raise InputError(f"{path.name}: scan reads Parquet (.parquet) and CSV/TSV files and DuckDB databases "
                         "(.duckdb, .db).")

    def close(self) -> None:
        self.con.close()


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")  # s3a:, hdfs:, file: (not a drive letter C:)


class _Spark:
    """Spark: a Spark DataFrame, Parquet/CSV paths or globs (local or any file system the session reads),
    a table or a query of the session, a pandas or Arrow table (sent to Spark)."""

    name = "Spark"

    def __init__(self, session):
        self.spark = session
        self.views: list[str] = []

    @staticmethod
    def quote(name) -> str:
        return "`" + str(name).replace("`", "``") + "`"

    @staticmethod
    def is_inf(x: str) -> str:
        return f"abs({x}) = CAST('Infinity' AS DOUBLE)"

    @staticmethod
    def element(items, index: str) -> str:
        return f"element_at(array({', '.join(items)}), CAST({index} AS INT))"

    def is_nan(self, x: str) -> str:
        """Whether the DOUBLE ``x`` is NaN, through a one-element array (as the group's test always was): Spark
        4.3 keeps a plain ``isnan`` on Parquet files, but a source with statistics of its own might not."""
        return f"isnan({self.element([x], '1')})"

    @staticmethod
    def _errors() -> tuple:
        from pyspark.errors import PySparkException

        try:
            from py4j.protocol import Py4JError
        except ImportError:  # Spark Connect alone
            return (PySparkException,)
        return (PySparkException, Py4JError)

    def _local(self) -> bool:
        """Whether the session runs on this machine (a path without a scheme is then a local file)."""
        try:
            return str(self.spark.sparkContext.master).startswith("local")
        except Exception:  # noqa: BLE001 - Spark Connect has no SparkContext: the server's files are not ours
            return False

    def sql(self, text: str, params=None, what: str = "reading the data") -> pd.DataFrame:
        try:
            frame = self.spark.sql(text, args=list(params)) if params else self.spark.sql(text)
            # the count tables only: they are all that leaves Spark (toArrow: Spark 4; toPandas before)
            return frame.toArrow().to_pandas() if hasattr(frame, "toArrow") else frame.toPandas()
        except self._errors() as exc:
            raise InputError(f"Spark failed while {what}: {_first_line(exc)}") from None

    def describe(self, rel: str) -> dict:
        try:
            return dict(self.spark.sql(f"SELECT * FROM {rel}").dtypes)
        except self._errors() as exc:
            raise InputError(f"Spark failed while reading the columns: {_first_line(exc)}") from None

    @staticmethod
    def numeric(kind: str) -> bool:
        k = kind.lower()
        return k in ("boolean", "tinyint", "byte", "smallint", "short", "int", "integer", "bigint", "long",
                     "float", "real", "double") or k.startswith("decimal")

    def _view(self, frame) -> str:
        name = f"rocci_{uuid.uuid4().hex}"
        frame.createOrReplaceTempView(name)
        self.views.append(name)
        return self.quote(name)

    def relation(self, source, table, query, allowed_root) -> tuple[str, str]:
        try:
            return self._relation(source, table, query, allowed_root)
        except self._errors() as exc:
            raise InputError(f"Spark failed while reading the data: {_first_line(exc)}") from None

    def _relation(self, source, table, query, allowed_root) -> tuple[str, str]:
        if source is None and (query is not None or table is not None):
            if allowed_root is not None:
                raise InputError("With allowed_root, engine='spark' reads files under it only: a Spark query or "
                                 "table can read anything the session can, so give a path instead.")
            if query is not None:
                try:
                    return self._view(self.spark.sql(query)), "query"
                except self._errors() as exc:
                    raise InputError(f"Spark failed while running the query: {_first_line(exc)}") from None
            return self._view(self.spark.table(table)), f"table {table}"
        if query is not None or table is not None:
            raise InputError("With engine='spark', give a query= or a table= of the Spark session alone, "
                             "or a source without them.")
        if hasattr(source, "createOrReplaceTempView") and type(source).__module__.startswith("pyspark"):
            return self._view(source), "a Spark DataFrame"
        if isinstance(source, pd.DataFrame):
            import pyarrow as pa

            frame = self.spark.createDataFrame(pa.Table.from_pandas(source, preserve_index=False))
            return self._view(frame), f"a table of {len(source):,} rows"
        if type(source).__module__.startswith("pyarrow"):
            return self._view(self.spark.createDataFrame(source)), "an Arrow table"
        if not isinstance(source, (str, os.PathLike)):
            raise InputError(f"engine='spark' reads a Spark DataFrame, Parquet or CSV paths and globs, a table= "
                             f"or query= of the Spark session, or a pandas/Arrow table; got {type(source).__name__}.")
        text = os.fspath(source)
        name = text.lower().rstrip("/")
        if name.endswith(_DATABASE):
            raise InputError(f"{Path(text).name} is a DuckDB database: scan it with engine='duckdb'.")
        local = not _SCHEME.match(text) or name.startswith("file:")
        if not local and allowed_root is not None:
            raise InputError(f"{text} is outside the data directory {Path(allowed_root).resolve()}: only files "
                             "under it can be read.")
        if local and (allowed_root is not None or self._local()):
            # files on this machine: the same checks as DuckDB's path, then absolute paths; under
            # allowed_root a glob is expanded here, so that no file it matches (nor a link) leads out
            plain = "/" + text[len("file:"):].lstrip("/") if name.startswith("file:") else text
            path, has_glob = _local_path(plain, allowed_root)
            if has_glob and allowed_root is None:
                paths = [str(path.absolute())]  # Spark expands it (Hadoop globs, {a,b} too)
            elif has_glob:
                files = sorted(glob.glob(str(path)))
                if not files:
                    raise InputError(f"No file matches {text}: check the path.")
                for f in files:
                    _check_inside(Path(f), allowed_root)
                paths = [str(Path(f).resolve()) for f in files]
            else:
                paths = [str(path.resolve())]
        else:
            paths = [text]
        described = text
        if name.endswith(_PARQUET):
            return self._view(self.spark.read.parquet(*paths)), described
        if name.endswith(_CSV):
            sep = "\t" if ".tsv" in name else ","
            return self._view(self.spark.read.csv(paths, header=True, inferSchema=True, sep=sep)), described
        raise InputError(f"{Path(text).name}: engine='spark' reads Parquet (.parquet) and CSV/TSV files.")

    def close(self) -> None:
        for view in self.views:
            try:
                self.spark.catalog.dropTempView(view)
            except Exception:  # noqa: BLE001 - a view that cannot be dropped dies with the session
                pass


def _spark_session(spark, source):
    """The session: ``spark=``, a Spark DataFrame's own, the active one, or a new local one."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise InputError(f"engine='spark' needs PySpark: pip install pyspark=={PYSPARK_VERSION} (or the 'spark' "
                         "extra); Spark also needs Java 17 or later (e.g. apt-get install default-jre-headless)."
                         ) from None
    if spark is not None:
        return spark
    if hasattr(source, "sparkSession") and type(source).__module__.startswith("pyspark"):
        return source.sparkSession
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    try:
        import tempfile

        # (its catalog's directory in a temporary one, not ./spark-warehouse)
        session = (SparkSession.builder.master("local[2]").appName("rocci")
                   .config("spark.sql.warehouse.dir", tempfile.mkdtemp(prefix="rocci-spark-")).getOrCreate())
    except Exception as exc:  # noqa: BLE001 - any failure to start the JVM
        raise InputError(f"Could not start a local Spark session (Spark needs Java 17 or later, e.g. apt-get "
                         f"install default-jre-headless, and JAVA_HOME or java on the PATH): {_first_line(exc)}"
                         ) from None
    session.sparkContext.setLogLevel("ERROR")
    return session


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


def _scan(d, rel, described, label, models, pos_label, group, paired, rounding=None, max_rows=None,
          progress=None, *, group_nan=False) -> ScanResult:
    """The statements, the same text for every engine ``d`` (only quoting, ``is_inf``, ``is_nan`` and ``element``
    differ)."""
    if paired is True:
        pairs = [(a, b) for i, a in enumerate(models) for b in models[i + 1:]]
    elif paired is False or paired is None:
        pairs = []
    else:
        pairs = [tuple(p) for p in paired]
        for p in pairs:
            if len(p) != 2 or not all(m in models for m in p):
                raise InputError(f"paired={paired!r}: each pair must name two of the score columns {models}.")
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
    from .._validation import _labels_equal

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
