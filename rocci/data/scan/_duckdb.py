"""The DuckDB engine of :func:`rocci.scan`: rows reduced to counts where they live (Parquet, CSV, databases)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..._core.inputs import InputError
from ._common import _CSV, _DATABASE, _PARQUET, _first_line, _literal, _local_path, _select_only


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
