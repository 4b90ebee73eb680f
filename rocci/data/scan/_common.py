"""What both scan engines share: the sources they read, the rounding of scores to a grid, and SQL text."""

from __future__ import annotations

from pathlib import Path

from ..._core.inputs import InputError

_PARQUET = (".parquet", ".pq", ".parq")


_CSV = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz")


_DATABASE = (".duckdb", ".db", ".ddb")


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
