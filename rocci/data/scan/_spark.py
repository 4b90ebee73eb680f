"""The Spark engine of :func:`rocci.scan` (``engine="spark"``, local or cluster; needs Java 17 or later)."""

from __future__ import annotations

import glob
import os
import re
import uuid
from pathlib import Path

import pandas as pd

from ..._core.inputs import InputError
from ._common import _CSV, _DATABASE, _PARQUET, _check_inside, _first_line, _local_path

#: The PySpark release rocci is tested with (requirements-dev.txt, the ``spark`` extra).
PYSPARK_VERSION = "4.3.0"


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
