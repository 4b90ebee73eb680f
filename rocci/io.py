"""Reading tables (CSV, TSV, text, Parquet, Excel) safely.

:func:`load_table` is the one entry point.  It reads a file given as a path,
as raw bytes or as a file-like object (such as Streamlit's ``UploadedFile``)
and either returns a :class:`pandas.DataFrame` or raises
:class:`~rocci.InputError` with a message that names the problem and says
what to do about it.  It never changes the data beyond pandas' own parsing.
"""

from __future__ import annotations

import csv
import io
import os
import re
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from ._validation import InputError

__all__ = ["load_table", "SUPPORTED_FORMATS", "DEFAULT_MAX_BYTES"]

#: Default size limit of :func:`load_table`, in bytes (200 MiB).
DEFAULT_MAX_BYTES = 200 * 1024**2

#: Extension -> format name.
_EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".txt": "txt",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".xlsx": "xlsx",
}

#: Human-readable list of the supported formats, used in error messages.
SUPPORTED_FORMATS = (
    "CSV (.csv), TSV (.tsv, .tab), delimited text (.txt), "
    "Parquet (.parquet, .pq) and Excel (.xlsx)"
)

_DELIMITERS = (",", ";", "\t", "|")
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe", r"\s+": "whitespace"}
_SNIFF_CHARS = 64 * 1024
_ZIP_MAGIC = b"PK\x03\x04"
_PARQUET_MAGIC = b"PAR1"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .xls, .doc
_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d+,\d+(?:[eE][+-]?\d+)?\s*$")
_DECIMAL_POINT = re.compile(r"^\s*[+-]?\d*\.\d+(?:[eE][+-]?\d+)?\s*$")


def load_table(
    source: Any,
    *,
    filename: str | os.PathLike | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """Read a table from a file, bytes or an uploaded file.

    Parameters
    ----------
    source : str, pathlib.Path, bytes, bytearray, memoryview or file-like
        A path to a file; the raw bytes of a file; or a file-like object:
        anything with ``getvalue()`` (Streamlit's ``UploadedFile``,
        :class:`io.BytesIO`) or ``read()`` (an open file).
    filename : str or path-like, optional
        Name whose extension decides the format.  Overrides the name of a
        path or the ``.name`` attribute of a file-like object.  Needed for
        raw bytes to pick a format explicitly; without it raw bytes are
        recognised by content (Parquet and xlsx by their signature,
        anything else is read as delimited text).
    max_bytes : int, default 200 * 1024**2
        Largest file accepted, in bytes (200 MiB by default).

    Returns
    -------
    pandas.DataFrame
        One column per column of the file, with pandas' own type inference
        (numbers become numeric columns, anything else stays text) and a
        default ``RangeIndex``.

    Raises
    ------
    rocci.InputError
        If the file is missing, empty, has a header but no rows, is larger
        than `max_bytes`, is not a readable table (binary content given as
        text, truncated or corrupt Parquet/xlsx), has an unsupported
        extension, has duplicate column names, or has a single column.

    Notes
    -----
    Formats, chosen by extension:

    * ``.csv`` and ``.txt`` -- delimited text; the delimiter is sniffed
      among comma, semicolon, tab and pipe (``.txt`` also accepts runs of
      whitespace).  A semicolon- or tab-delimited file whose numbers use a
      decimal comma (``0,75``) and never a decimal point is read with
      ``decimal=","``.
    * ``.tsv`` and ``.tab`` -- tab-delimited text.
    * ``.parquet`` and ``.pq`` -- Parquet (pyarrow).  A non-default index
      stored in the file (e.g. by ``DataFrame.to_parquet``) becomes an
      ordinary column.
    * ``.xlsx`` -- Excel; **only the first sheet is read**.  Its name and
      the names of all sheets are in ``df.attrs["sheet_name"]`` and
      ``df.attrs["sheet_names"]``.  Legacy ``.xls`` is not supported: save
      the workbook as ``.xlsx`` or CSV.

    Text is decoded as UTF-8 (a byte-order mark is removed; UTF-16 with a
    byte-order mark is also recognised), falling back to Windows-1252 and
    then Latin-1 for files saved by older spreadsheet programs.

    Column names are kept as given, except that surrounding whitespace is
    stripped (``" score "`` becomes ``"score"``); a blank header cell gets
    pandas' placeholder name ``"Unnamed: i"``.  Values are not modified:
    there is no type coercion beyond pandas' parsing, and missing cells
    stay missing (``NaN``) -- see :func:`rocci.data.prepare_binary` for
    how they are dropped and counted.

    Examples
    --------
    >>> from rocci import load_table
    >>> df = load_table(b"label,score\\n1,0.9\\n0,0.2\\n", filename="x.csv")
    >>> list(df.columns)
    ['label', 'score']
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
        raise InputError(f"max_bytes ({max_bytes!r}) must be a positive whole number of bytes.")
    data, name = _read_source(source, max_bytes=max_bytes)
    if filename is not None:
        name = os.fspath(filename)
    label = f"'{Path(name).name}'" if name else "the file"

    if len(data) == 0:
        raise InputError(f"{_cap(label)} is empty (0 bytes). Choose a file that contains a table.")

    fmt = _format_from_name(name, label) if name else _format_from_content(data)

    if fmt == "parquet":
        df = _read_parquet(data, label)
    elif fmt == "xlsx":
        df = _read_xlsx(data, label, max_bytes)
    else:
        df = _read_text(data, label, fmt)
    return df


# --------------------------------------------------------------------------
# source handling
# --------------------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _too_large(size: int, max_bytes: int, label: str) -> InputError:
    return InputError(
        f"{_cap(label)} is too large ({_human_bytes(size)}); the limit is "
        f"{_human_bytes(max_bytes)}. Use a smaller file (e.g. fewer rows or only the "
        "label and score columns), or raise max_bytes."
    )


def _human_bytes(n: int) -> str:
    if n >= 1024**3:
        return f"{n / 1024**3:.1f} GiB"
    if n >= 1024**2:
        return f"{n / 1024**2:.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} bytes"


def _read_source(source: Any, *, max_bytes: int) -> tuple[bytes, str | None]:
    """Return (raw bytes, file name or None) of `source`, enforcing the limit."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) > max_bytes:
            raise _too_large(len(data), max_bytes, "the data")
        return data, None

    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = f"'{path.name}'"
        if not path.exists():
            raise InputError(f"File not found: '{path}'. Check the path and try again.")
        if path.is_dir():
            raise InputError(f"'{path}' is a folder, not a file. Choose a file inside it.")
        size = path.stat().st_size
        if size > max_bytes:
            raise _too_large(size, max_bytes, label)
        try:
            return path.read_bytes(), str(path)
        except OSError as exc:
            raise InputError(f"Could not read {label}: {exc.strerror or exc}.") from None

    name = getattr(source, "name", None)
    name = os.fspath(name) if isinstance(name, (str, os.PathLike)) else None
    label = f"'{Path(name).name}'" if name else "the file"

    size = getattr(source, "size", None)  # Streamlit's UploadedFile
    if isinstance(size, int) and not isinstance(size, bool) and size > max_bytes:
        raise _too_large(size, max_bytes, label)

    if hasattr(source, "getvalue"):
        data = source.getvalue()
    elif hasattr(source, "read"):
        data = source.read(max_bytes + 1)
    else:
        raise InputError(
            f"Cannot read a table from a {type(source).__name__}: pass a file path, "
            "the file's bytes, or an open file / uploaded file."
        )
    if isinstance(data, str):  # a file opened in text mode
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InputError(
            f"Reading {label} gave a {type(data).__name__}, not bytes: pass a file path, "
            "the file's bytes, or a file opened in binary mode."
        )
    data = bytes(data)
    if len(data) > max_bytes:
        raise _too_large(len(data), max_bytes, label)
    return data, name


def _format_from_name(name: str, label: str) -> str:
    ext = Path(name).suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    if ext == ".xls":
        raise InputError(
            f"{_cap(label)} is a legacy Excel (.xls) workbook, which is not supported. "
            "Save it as .xlsx or CSV and upload that. Supported formats: "
            f"{SUPPORTED_FORMATS}."
        )
    shown = f"extension '{ext}'" if ext else "no extension"
    raise InputError(
        f"{_cap(label)} has {shown}, so its format is unknown. Supported formats: "
        f"{SUPPORTED_FORMATS}. Rename the file or pass filename= with one of these extensions."
    )


def _format_from_content(data: bytes) -> str:
    if data[:4] == _PARQUET_MAGIC:
        return "parquet"
    if data[:4] == _ZIP_MAGIC:
        return "xlsx"
    return "txt"


# --------------------------------------------------------------------------
# delimited text
# --------------------------------------------------------------------------


def _decode(data: bytes, label: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise _not_text(label) from None

    if data[:4] == _ZIP_MAGIC:
        raise InputError(
            f"{_cap(label)} is not a text table: it looks like an Excel (.xlsx) workbook or "
            "another zip archive. If it is an Excel file, give it the .xlsx extension."
        )
    if data[:4] == _PARQUET_MAGIC:
        raise InputError(
            f"{_cap(label)} is not a text table: it looks like a Parquet file. "
            "Give it the .parquet extension."
        )
    if data[:8] == _OLE_MAGIC:
        raise InputError(
            f"{_cap(label)} is not a text table: it looks like a legacy Excel (.xls) "
            "workbook. Save it as .xlsx or CSV and upload that."
        )
    if b"\x00" in data[:_SNIFF_CHARS]:
        raise _not_text(label)

    for encoding in ("utf-8", "cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    sample = text[:_SNIFF_CHARS]
    control = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\r\n\f\v")
    if control > max(2, 0.01 * len(sample)):
        raise _not_text(label)
    return text


def _not_text(label: str) -> InputError:
    return InputError(
        f"{_cap(label)} could not be read as a text table: it contains binary data. "
        f"Check that you chose the right file; supported formats: {SUPPORTED_FORMATS}."
    )


def _sample_records(text: str, delimiter: str) -> list[list[str]]:
    """Parse the first records of `text` with `delimiter`, dropping a cut-off last one."""
    sample = text[:_SNIFF_CHARS]
    truncated = len(text) > len(sample)
    if truncated and "\n" in sample:
        sample = sample[: sample.rindex("\n") + 1]
    try:
        rows = list(csv.reader(io.StringIO(sample), delimiter=delimiter))
    except csv.Error:
        return []
    rows = [r for r in rows if r and any(cell.strip() for cell in r)]
    if truncated and len(rows) > 1:
        rows = rows[:-1]
    return rows[:200]


def _sniff_delimiter(text: str, *, allow_whitespace: bool) -> str:
    """Choose the delimiter giving the same number (>1) of fields on every sampled line."""
    sniffed = None
    try:
        sniffed = csv.Sniffer().sniff(text[:_SNIFF_CHARS], delimiters="".join(_DELIMITERS)).delimiter
    except csv.Error:
        pass

    consistent: dict[str, int] = {}
    widest: dict[str, float] = {}
    for d in _DELIMITERS:
        rows = _sample_records(text, d)
        if not rows:
            continue
        widths = {len(r) for r in rows}
        if len(widths) == 1 and len(rows[0]) > 1:
            consistent[d] = len(rows[0])
        widest[d] = sum(len(r) for r in rows) / len(rows)

    if consistent:
        if sniffed in consistent:
            return sniffed
        return max(consistent, key=lambda d: (consistent[d], -_DELIMITERS.index(d)))
    if allow_whitespace:
        lines = [ln for ln in text[:_SNIFF_CHARS].splitlines() if ln.strip()][:200]
        widths = {len(ln.split()) for ln in lines}
        if len(widths) == 1 and widths.pop() > 1:
            return r"\s+"
    if sniffed is not None:
        return sniffed
    best = max(_DELIMITERS, key=lambda d: (widest.get(d, 0.0), -_DELIMITERS.index(d)))
    return best if widest.get(best, 0.0) > 1 else ","


def _guess_decimal(text: str, delimiter: str) -> str:
    """',' if numbers in the sample use a decimal comma and never a decimal point."""
    if delimiter == ",":
        return "."
    rows = _sample_records(text, delimiter) if delimiter != r"\s+" else [
        ln.split() for ln in text[:_SNIFF_CHARS].splitlines()[:200]
    ]
    comma = point = 0
    for row in rows[1:]:
        for cell in row:
            if _DECIMAL_COMMA.match(cell):
                comma += 1
            elif _DECIMAL_POINT.match(cell):
                point += 1
    return "," if comma and not point else "."


def _read_text(data: bytes, label: str, fmt: str) -> pd.DataFrame:
    text = _decode(data, label)
    if not text.strip():
        raise InputError(
            f"{_cap(label)} is empty (it holds only blank space). Choose a file that contains a table."
        )

    if fmt == "tsv":
        delimiter = "\t"
    else:
        delimiter = _sniff_delimiter(text, allow_whitespace=(fmt == "txt"))
    decimal = _guess_decimal(text, delimiter)

    if delimiter == r"\s+":
        header = text.lstrip("\r\n").splitlines()[0].split()
    else:
        rows = _sample_records(text, delimiter)
        header = rows[0] if rows else []

    try:
        with warnings.catch_warnings():
            # rows longer than the header would otherwise be cut (index_col=False)
            # or silently turned into an index (pandas' default)
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(
                io.StringIO(text),
                sep=delimiter,
                decimal=decimal,
                engine="python" if delimiter == r"\s+" else "c",
                index_col=False,
            )
    except pd.errors.ParserWarning:
        raise InputError(
            f"{_cap(label)} has rows with more fields than the header "
            f"({_DELIMITER_NAMES[delimiter]}-delimited). Give every column a name in the "
            "header row, or remove the extra fields."
        ) from None
    except pd.errors.EmptyDataError:
        raise InputError(
            f"{_cap(label)} has no table in it. Choose a file with a header row and data rows."
        ) from None
    except (pd.errors.ParserError, csv.Error, ValueError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"{_cap(label)} could not be read as a table ({_DELIMITER_NAMES[delimiter]}-"
            f"delimited): {msg}. Check that every row has the same number of fields as the "
            "header, and that quotes are balanced."
        ) from None

    _check_duplicates([c.strip() for c in header], label)
    return _finish(df, label, delimiter=delimiter)


# --------------------------------------------------------------------------
# binary formats
# --------------------------------------------------------------------------


def _read_parquet(data: bytes, label: str) -> pd.DataFrame:
    if len(data) < 12 or data[:4] != _PARQUET_MAGIC or data[-4:] != _PARQUET_MAGIC:
        raise InputError(
            f"{_cap(label)} is not a valid Parquet file (it is truncated or corrupt: the "
            "Parquet signature is missing). Export the file again, or upload it as CSV."
        )
    try:
        import pyarrow.parquet as pq

        schema_names = list(pq.read_schema(io.BytesIO(data)).names)
    except Exception as exc:  # pyarrow raises several exception types
        raise InputError(
            f"{_cap(label)} could not be read as Parquet (truncated or corrupt: "
            f"{_first_line(exc)}). Export the file again, or upload it as CSV."
        ) from None
    _check_duplicates([str(c).strip() for c in schema_names], label)
    try:
        df = pd.read_parquet(io.BytesIO(data))
    except Exception as exc:
        raise InputError(
            f"{_cap(label)} could not be read as Parquet (truncated or corrupt: "
            f"{_first_line(exc)}). Export the file again, or upload it as CSV."
        ) from None
    if not isinstance(df.index, pd.RangeIndex) or df.index.name is not None or (
        isinstance(df.index, pd.RangeIndex) and (df.index.start != 0 or df.index.step != 1)
    ):
        df = df.reset_index()
    return _finish(df, label, delimiter=None)


def _read_xlsx(data: bytes, label: str, max_bytes: int = DEFAULT_MAX_BYTES) -> pd.DataFrame:
    bad = InputError(
        f"{_cap(label)} could not be read as an Excel (.xlsx) workbook: it is truncated, "
        "corrupt or not an xlsx file. Open it in Excel and save it again as .xlsx, "
        "or export the sheet as CSV."
    )
    if data[:8] == _OLE_MAGIC:
        raise InputError(
            f"{_cap(label)} is a legacy Excel (.xls) workbook or an encrypted workbook, "
            "which cannot be read. Save it (without a password) as .xlsx or CSV."
        )
    if data[:4] != _ZIP_MAGIC:
        raise bad
    # Zip-bomb guard: an xlsx is a zip archive; refuse it before parsing if
    # its members would unpack to more than ``max_bytes`` in total.
    try:
        import zipfile

        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except Exception:
        raise bad from None
    if unpacked > max_bytes:
        raise InputError(
            f"{_cap(label)} would unpack to {_human_bytes(unpacked)}, more than the limit of "
            f"{_human_bytes(max_bytes)}. Upload a smaller workbook, or export the sheet as CSV."
        )
    try:
        import openpyxl

        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet_names = list(wb.sheetnames)
            if not sheet_names:
                raise bad
            ws = wb[sheet_names[0]]
            first = next(ws.iter_rows(max_row=1, values_only=True), None)
        finally:
            wb.close()
    except InputError:
        raise
    except Exception:
        raise bad from None

    if first is None or all(v is None for v in first):
        raise InputError(
            f"The first sheet ('{sheet_names[0]}') of {label} is empty. Only the first "
            "sheet is read: move the table to the first sheet, or export it as CSV."
        )
    header = [str(v).strip() for v in first if v is not None]
    _check_duplicates(header, label)
    try:
        df = pd.read_excel(io.BytesIO(data), sheet_name=0, engine="openpyxl")
    except Exception:
        raise bad from None
    df.attrs["sheet_name"] = sheet_names[0]
    df.attrs["sheet_names"] = sheet_names
    where = f"the first sheet ('{sheet_names[0]}') of {label}"
    return _finish(df, where, delimiter=None)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# --------------------------------------------------------------------------
# checks common to every format
# --------------------------------------------------------------------------


def _check_duplicates(names: list[str], label: str) -> None:
    seen: set[str] = set()
    dups: list[str] = []
    for n in names:
        if n == "":
            continue
        if n in seen and n not in dups:
            dups.append(n)
        seen.add(n)
    if dups:
        shown = ", ".join(repr(d) for d in dups)
        raise InputError(
            f"{_cap(label)} has duplicate column names: {shown}. Every column needs its own "
            "name; rename the duplicates and try again."
        )


def _finish(df: pd.DataFrame, label: str, *, delimiter: str | None) -> pd.DataFrame:
    df.columns = [c.strip() if isinstance(c, str) else c for c in df.columns]
    _check_duplicates([str(c) for c in df.columns], label)
    if df.shape[1] == 0:
        raise InputError(f"{_cap(label)} has no columns. Choose a file that contains a table.")
    if len(df) == 0:
        raise InputError(
            f"{_cap(label)} has a header but no data rows. Add the data rows below the "
            "header and try again."
        )
    if df.shape[1] == 1:
        if delimiter is not None:
            name = _DELIMITER_NAMES.get(delimiter, repr(delimiter))
            hint = (
                f" This usually means the delimiter was not recognised (it was read as "
                f"{name}-delimited, header {str(df.columns[0])[:60]!r}). Use commas, "
                "semicolons, tabs or pipes between columns."
            )
        else:
            hint = ""
        raise InputError(
            f"{_cap(label)} has a single column, but at least two are needed (a label "
            f"column and a score column).{hint}"
        )
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index(drop=True)
    return df
