"""Reading tables (CSV, TSV, text, Parquet, Excel) safely.

:func:`load_table` is the one entry point.  It reads a file given as a path,
as raw bytes or as a file-like object (such as Streamlit's ``UploadedFile``)
and either returns a :class:`pandas.DataFrame` or raises
:class:`~rocci.InputError` with a message that names the problem and says
what to do about it.  It never changes the data beyond pandas' own parsing.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import os
import re
import warnings
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from .._validation import InputError

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
_DECODE_CHUNK = 1024**2
# Excel's first line naming the delimiter of a CSV ("sep=;")
_SEP_LINE = re.compile(r"^sep=([^\r\n\"'])[ \t]*(?:\r\n|\n|\r|$)", re.IGNORECASE)
# a header cell that is a number: the file may have no header row
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$")
_ZIP_MAGIC = b"PK\x03\x04"
_PARQUET_MAGIC = b"PAR1"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .xls, .doc
_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d+,\d+(?:[eE][+-]?\d+)?\s*$")
_DECIMAL_POINT = re.compile(r"^\s*[+-]?\d*\.\d+(?:[eE][+-]?\d+)?\s*$")
# control characters other than the whitespace ones (\t \n \v \f \r): a sign of binary data
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")


def load_table(
    source: Any,
    *,
    filename: str | os.PathLike | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    columns: Sequence[str] | None = None,
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
        Largest file accepted, in bytes (200 MiB by default).  The same limit
        bounds what a compressed file decodes to: an xlsx workbook's unpacked
        size and its repeated text, and a Parquet file's table in memory
        (checked from the file's metadata before anything is read, then
        exactly while reading).
    columns : list of str, optional
        Read only these columns (names as returned, i.e. stripped), in this
        order.  Parquet files then decode only these columns, and the limit
        applies to them alone; text and xlsx files are still parsed whole.
        Default: every column.

    Returns
    -------
    pandas.DataFrame
        One column per column of the file, with pandas' own type inference
        (numbers become numeric columns, anything else stays text) and a
        default ``RangeIndex``.  ``df.attrs["warnings"]`` lists (as text a
        person can act on) anything that was read but looks wrong: today, a
        first row made only of numbers, which usually means the header row
        is missing.

    Raises
    ------
    rocci.InputError
        If the file is missing, empty, has a header but no rows, is larger
        than `max_bytes` (or would decode to more), is not a readable table
        (binary content, a web page or JSON given as text, truncated or
        corrupt Parquet/xlsx, a Parquet page whose checksum does not match),
        has an unsupported extension, has duplicate column names, lacks a
        column named in `columns`, or has a single column.

    Notes
    -----
    Formats, chosen by extension:

    * ``.csv`` and ``.txt`` -- delimited text; the delimiter is sniffed
      among comma, semicolon, tab and pipe (``.txt`` also accepts runs of
      whitespace).  A semicolon- or tab-delimited file whose numbers use a
      decimal comma (``0,75``) and never a decimal point is read with
      ``decimal=","``.  Excel's first line ``sep=;`` (any one character
      after ``sep=``) sets the delimiter and is skipped.
    * ``.tsv`` and ``.tab`` -- tab-delimited text.
    * ``.parquet`` and ``.pq`` -- Parquet (pyarrow).  A non-default index
      stored in the file (e.g. by ``DataFrame.to_parquet``) becomes an
      ordinary column.  Page checksums, where the writer stored them, are
      verified.  Nested columns (lists, structs) are read as they are;
      :mod:`rocci.data` refuses them as label or score columns.
    * ``.xlsx`` -- Excel; **only the first sheet is read**.  Its name and
      the names of all sheets are in ``df.attrs["sheet_name"]`` and
      ``df.attrs["sheet_names"]``.  Legacy ``.xls`` is not supported: save
      the workbook as ``.xlsx`` or CSV.  Read with python-calamine when it
      is installed (a 10⁶-row sheet in seconds), else with openpyxl.

    Text is decoded as UTF-8 (a byte-order mark is removed; UTF-16 with a
    byte-order mark is also recognised), falling back to Windows-1252 and
    then Latin-1 for files saved by older spreadsheet programs.  pandas
    parses the bytes directly: the file is never copied as a whole into
    text, so reading needs little more memory than pandas alone.

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
    >>> df.attrs["warnings"]
    []
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
        raise InputError(f"max_bytes ({max_bytes!r}) must be a positive whole number of bytes.")
    columns = _check_columns_argument(columns)
    data, name = _read_source(source, max_bytes=max_bytes)
    if filename is not None:
        name = os.fspath(filename)
    label = f"'{Path(name).name}'" if name else "the file"

    if len(data) == 0:
        raise InputError(f"{_cap(label)} is empty (0 bytes). Choose a file that contains a table.")

    fmt = _format_from_name(name, label) if name else _format_from_content(data)

    if fmt == "parquet":
        df = _read_parquet(data, label, max_bytes, columns)
    elif fmt == "xlsx":
        df = _read_xlsx(data, label, max_bytes, columns)
    else:
        df = _read_text(data, label, fmt, columns)
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


def _valid_in(data: bytes, encoding: str) -> bool:
    """True when all of `data` decodes with `encoding` (checked 1 MiB at a time: no copy of the file)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    view = memoryview(data)
    try:
        for start in range(0, len(view), _DECODE_CHUNK):
            decoder.decode(view[start : start + _DECODE_CHUNK], final=False)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _decode(data: bytes, label: str) -> tuple[bytes, str, str]:
    """Check that `data` is text; return ``(data, encoding, head)``.

    `encoding` is what pandas reads `data` with (``"utf-8-sig"`` for a UTF-8
    byte-order mark, else ``"utf-8"``, ``"cp1252"`` or ``"latin-1"``: the first
    that decodes the whole file).  `head` is the decoded start of the file,
    long enough for sniffing (more than ``_SNIFF_CHARS`` characters unless it
    is the whole file).  UTF-16 (with a byte-order mark) is re-encoded as
    UTF-8.  The file is never decoded as a whole: pandas parses the bytes.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            data = data.decode("utf-16").encode("utf-8")
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

    if data.isascii():  # most score tables: valid UTF-8, checked in C without decoding
        encoding = "utf-8"
    elif data.startswith(b"\xef\xbb\xbf") and _valid_in(data, "utf-8"):
        encoding = "utf-8-sig"
    else:
        encoding = next((e for e in ("utf-8", "cp1252") if _valid_in(data, e)), "latin-1")
    head_bytes = data[: 4 * (_SNIFF_CHARS + 2)]
    head = head_bytes.decode(encoding, errors="ignore")
    sample = head[:_SNIFF_CHARS]
    control = len(_CONTROL.findall(sample))
    if control > max(2, 0.01 * len(sample)):
        raise _not_text(label)
    return data, encoding, head


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
    records = (
        r for r in csv.reader(io.StringIO(sample), delimiter=delimiter)
        if r and any(cell.strip() for cell in r)
    )
    try:
        if "\x00" not in sample and sample.count("\r") == sample.count("\r\n"):
            # The csv module fails only on a NUL or on a carriage return inside a
            # line (no field of the sample reaches its size limit), so the records
            # after the 201st cannot change the first 200: stop reading there.
            rows = list(itertools.islice(records, 201))
            if len(rows) > 200:
                return rows[:200]
        else:
            rows = list(records)
    except csv.Error:
        return []
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


def _numeric_header(cells: list) -> bool:
    """True when every (non-blank) header cell is a number: the header row may be missing."""
    texts = [str(c).strip() for c in cells if c is not None and str(c).strip() != ""]
    return bool(texts) and len(texts) == len(cells) and all(
        (isinstance(c, (int, float)) and not isinstance(c, bool)) or _NUMBER.match(t) is not None
        for c, t in zip(cells, texts)
    )


def _no_header_warning(label: str, cells: list) -> str:
    shown = ", ".join(str(c).strip() for c in cells[:4]) + (", …" if len(cells) > 4 else "")
    return (
        f"Every cell of the first row of {label} is a number ({shown}): the file seems to have "
        "no header row, so its first row of data is used as the column names and is not "
        "counted as data. Add a header row naming the columns (e.g. label,score) and load "
        "the file again."
    )


_MARKUP = re.compile(r"^(?:<!doctype\s+html|<html|<head|<body|<\?xml|<svg)", re.IGNORECASE)
_JSON = re.compile(r"^(?:\{\s*\"|\[\s*[\[{])")


def _check_not_document(head: str, label: str) -> None:
    """Refuse a web page, XML or JSON document given as a text table."""
    start = head.lstrip("\ufeff \t\r\n")[:200]
    if _MARKUP.match(start):
        kind = "a web page (HTML)" if not start.lower().startswith(("<?xml", "<svg")) else "an XML document"
        raise InputError(
            f"{_cap(label)} is not a table: it is {kind}. If you downloaded it, the site may "
            "have sent a sign-in or error page instead of the file; download the table again "
            f"(supported formats: {SUPPORTED_FORMATS})."
        )
    if _JSON.match(start):
        raise InputError(
            f"{_cap(label)} is not a table: it looks like JSON. Save the data as CSV "
            f"(one row per instance, a header row) and load that; supported formats: "
            f"{SUPPORTED_FORMATS}."
        )


def _read_text(data: bytes, label: str, fmt: str, columns: list | None = None) -> pd.DataFrame:
    data, encoding, head = _decode(data, label)
    _check_not_document(head, label)
    skip = 0
    sep_line = _SEP_LINE.match(head.lstrip("\ufeff"))
    if sep_line is not None and fmt != "tsv":
        # Excel's "sep=;" first line: it names the delimiter and is not part of the table
        skip = 1
        head = head.lstrip("\ufeff")[sep_line.end():]
    if not head[:_SNIFF_CHARS].strip() and (
        len(head) <= _SNIFF_CHARS or not data.strip(b" \t\r\n\f\v")
    ):
        what = "only Excel's 'sep=' line" if skip else "only blank space"
        raise InputError(
            f"{_cap(label)} is empty (it holds {what}). Choose a file that contains a table."
        )

    if fmt == "tsv":
        delimiter = "\t"
    elif sep_line is not None:
        delimiter = sep_line.group(1)
    else:
        delimiter = _sniff_delimiter(head, allow_whitespace=(fmt == "txt"))
    decimal = _guess_decimal(head, delimiter)

    if delimiter == r"\s+":
        header = head.lstrip("\r\n").splitlines()[0].split()
    else:
        rows = _sample_records(head, delimiter)
        header = rows[0] if rows else []
    headerless = _numeric_header(header)
    _check_duplicates([c.strip() for c in header], label, headerless=headerless)
    usecols = _text_usecols(header, columns, label)

    try:
        with warnings.catch_warnings():
            # rows longer than the header would otherwise be cut (index_col=False)
            # or silently turned into an index (pandas' default)
            warnings.simplefilter("error", pd.errors.ParserWarning)
            options: dict[str, Any] = dict(
                sep=delimiter,
                decimal=decimal,
                encoding=encoding,
                skiprows=skip,
                engine="python" if delimiter == r"\s+" else "c",
                index_col=False,
                usecols=usecols,
            )
            df = None
            if options["engine"] == "c" and encoding == "utf-8":
                # pandas' C parser reads UTF-8 bytes as they are: given the whole
                # file in one read it parses it in place, without copying it
                # chunk by chunk as it does from io.BytesIO (a few % faster).
                try:
                    df = pd.read_csv(_WholeFile(data), **options)
                except Exception:
                    df = None  # the read below reports the problem, exactly as before
            if df is None:
                # parsed from the bytes: no text copy of the whole file
                df = pd.read_csv(io.BytesIO(data), **options)
    except pd.errors.ParserWarning:
        raise InputError(
            f"{_cap(label)} has rows with more fields than the header "
            f"({_delimiter_name(delimiter)}-delimited). Give every column a name in the "
            "header row, or remove the extra fields."
        ) from None
    except pd.errors.EmptyDataError:
        raise InputError(
            f"{_cap(label)} has no table in it. Choose a file with a header row and data rows."
        ) from None
    except (pd.errors.ParserError, csv.Error, ValueError, UnicodeDecodeError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"{_cap(label)} could not be read as a table ({_delimiter_name(delimiter)}-"
            f"delimited): {msg}. Check that every row has the same number of fields as the "
            "header, and that quotes are balanced."
        ) from None

    notes = [_no_header_warning(label, header)] if headerless else []
    return _finish(df, label, delimiter=delimiter, columns=columns, notes=notes)


class _WholeFile:
    """A file-like object whose first ``read`` returns all of `data` (the same object: no copy).

    For pandas' C parser, which tokenises whatever bytes ``read`` returns, so
    the file is parsed where it lies.  pandas does not wrap an object that is
    not an :mod:`io` class in a text decoder, as it does not for io.BytesIO
    with ``encoding="utf-8"`` either: only for UTF-8 (already checked to be valid).
    """

    def __init__(self, data: bytes) -> None:
        self._data = data

    def read(self, size: int = -1) -> bytes:
        data, self._data = self._data, b""
        return data

    def __iter__(self):  # pandas recognises a file-like object by read and __iter__
        return iter(())


def _delimiter_name(delimiter: str) -> str:
    return _DELIMITER_NAMES.get(delimiter, repr(delimiter))


def _text_usecols(header: list[str], columns: list | None, label: str) -> list[str] | None:
    """The header cells (as written) of the requested `columns` (names as stripped)."""
    if columns is None:
        return None
    raw = {c.strip(): c for c in header}
    _check_requested(columns, list(raw), label)
    return [raw[c] for c in columns]


# --------------------------------------------------------------------------
# binary formats
# --------------------------------------------------------------------------


#: Bytes per value of each Parquet physical type once decoded (BYTE_ARRAY: the offset only;
#: its characters are counted from the column chunk's sizes or, once read, exactly).
_PARQUET_WIDTH = {
    "BOOLEAN": 1, "INT32": 4, "INT64": 8, "INT96": 8, "FLOAT": 4, "DOUBLE": 8, "BYTE_ARRAY": 8,
}
_PARQUET_BATCH_ROWS = 1 << 16


def _parquet_error(label: str, exc: BaseException) -> InputError:
    return InputError(
        f"{_cap(label)} could not be read as Parquet (truncated or corrupt: "
        f"{_first_line(exc)}). Export the file again, or upload it as CSV."
    )


def _parquet_too_large(label: str, size: int, rows: int, ncols: int, max_bytes: int) -> InputError:
    return InputError(
        f"{_cap(label)} would take about {_human_bytes(size)} in memory once decompressed ({rows:,} rows "
        f"× {ncols} column{'s' if ncols != 1 else ''}), more than the limit of "
        f"{_human_bytes(max_bytes)}. Save a file with fewer rows, or with only the label and "
        "score columns (in Python, load_table(..., columns=[...]) reads only those)."
    )


def _parquet_estimate(pf: Any, names: list[str]) -> int:
    """Decoded size, in bytes, of the top-level columns `names`, from the file's metadata alone.

    Each column chunk counts ``values × width`` (8 bytes a value for strings,
    their offset) plus, for strings and other byte arrays, its uncompressed
    size (the characters of plain-encoded pages).  Dictionary-encoded strings
    are counted exactly once read (see :func:`_read_parquet`).
    """
    md = pf.metadata
    wanted = set(names)
    total = 0
    for g in range(md.num_row_groups):
        group = md.row_group(g)
        for j in range(group.num_columns):
            chunk = group.column(j)
            if chunk.path_in_schema.split(".")[0] not in wanted:
                continue
            kind = chunk.physical_type
            if kind == "FIXED_LEN_BYTE_ARRAY":
                width = max(1, int(pf.schema.column(j).length or 1))
            else:
                width = _PARQUET_WIDTH.get(kind, 8)
            total += int(chunk.num_values) * width
            if kind == "BYTE_ARRAY":
                total += int(chunk.total_uncompressed_size)
    return total


def _decoded_nbytes(array: Any) -> int:
    """Bytes of a (chunked) arrow array once its dictionary is decoded."""
    import pyarrow as pa
    import pyarrow.compute as pc

    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    total = 0
    for chunk in chunks:
        if pa.types.is_dictionary(chunk.type):
            lengths = pc.binary_length(chunk.dictionary).fill_null(0)
            used = pc.take(lengths, chunk.indices.fill_null(0))
            total += 8 * len(chunk) + int(pc.sum(used).as_py() or 0)
        else:
            total += chunk.nbytes
    return total


def _read_parquet(
    data: bytes, label: str, max_bytes: int = DEFAULT_MAX_BYTES, columns: list | None = None
) -> pd.DataFrame:
    if len(data) < 12 or data[:4] != _PARQUET_MAGIC or data[-4:] != _PARQUET_MAGIC:
        raise InputError(
            f"{_cap(label)} is not a valid Parquet file (it is truncated or corrupt: the "
            "Parquet signature is missing). Export the file again, or upload it as CSV."
        )
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(io.BytesIO(data), page_checksum_verification=True)
        schema = pf.schema_arrow
    except Exception as exc:  # pyarrow raises several exception types
        raise _parquet_error(label, exc) from None
    _check_duplicates([str(c).strip() for c in schema.names], label)

    # pandas' index (DataFrame.to_parquet) becomes a column: stored as columns, or
    # (a range) only in the metadata; either way it is read with the others
    index_names: list[str] = []
    range_names: list[str] = []
    meta = (schema.metadata or {}).get(b"pandas")
    if meta:
        try:
            import json

            for entry in json.loads(meta).get("index_columns", []):
                if isinstance(entry, str):
                    index_names.append(entry)
                elif isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    range_names.append(entry["name"])
        except (ValueError, AttributeError):
            index_names, range_names = [], []
    if columns is None:
        names = list(schema.names)
    else:
        _check_requested(columns, [str(c).strip() for c in [*schema.names, *range_names]], label)
        stripped = {str(c).strip(): c for c in schema.names}
        names = [stripped[c] for c in columns if c in stripped]
        names += [c for c in index_names if c in schema.names and c not in names]

    rows = int(pf.metadata.num_rows)
    estimate = _parquet_estimate(pf, names)
    if estimate > max_bytes:
        raise _parquet_too_large(label, estimate, rows, len(names), max_bytes)

    # Top-level strings are read as dictionaries (each distinct value once), so a
    # column repeating one long value cannot blow up before its size is known.
    strings = [
        f.name for f in schema
        if f.name in names and (pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
                                or pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type))
    ]
    try:
        reader = pq.ParquetFile(
            io.BytesIO(data), page_checksum_verification=True, read_dictionary=strings or None,
            metadata=pf.metadata,
        )
        batches = []
        size = done = 0
        for batch in reader.iter_batches(batch_size=_PARQUET_BATCH_ROWS, columns=names,
                                         use_pandas_metadata=True):
            size += sum(_decoded_nbytes(col) for col in batch.columns)
            done += batch.num_rows
            if size > max_bytes:  # stop reading: the rest at the same rate
                total = int(size * max(rows, done) / max(done, 1))
                raise _parquet_too_large(label, total, rows, len(names), max_bytes)
            batches.append(batch)
        if batches:
            table = pa.Table.from_batches(batches)
        else:
            table = schema.empty_table().select([n for n in schema.names if n in names])
        del batches
        for name in strings:
            if name in table.column_names:
                i = table.column_names.index(name)
                original = schema.field(name)
                decoded = pa.chunked_array(
                    [c.dictionary_decode() if pa.types.is_dictionary(c.type) else c
                     for c in table.column(i).chunks],
                ).cast(original.type) if table.column(i).num_chunks else table.column(i).cast(original.type)
                table = table.set_column(i, original, decoded)
        table = table.replace_schema_metadata(schema.metadata)
        df = table.to_pandas(split_blocks=True, self_destruct=True)
        del table
    except InputError:
        raise
    except Exception as exc:
        raise _parquet_error(label, exc) from None
    if not isinstance(df.index, pd.RangeIndex) or df.index.name is not None or (
        isinstance(df.index, pd.RangeIndex) and (df.index.start != 0 or df.index.step != 1)
    ):
        df = df.reset_index()
    if columns is not None:
        keep = {str(c).strip(): c for c in df.columns}
        df = df[[keep[c] for c in columns]]
    return _finish(df, label, delimiter=None, columns=columns)


_SHARED_STRING_REF = re.compile(rb'<(?:\w+:)?c\b[^>]*?\bt="s"[^>]*>\s*<(?:\w+:)?v>\s*(\d+)\s*<')
_SHARED_STRING_ITEM = re.compile(rb"<(?:\w+:)?si\b")
_XML_TEXT = re.compile(rb"<(?:\w+:)?t\b[^>]*>(.*?)</(?:\w+:)?t>", re.DOTALL)
_XML_ROW = re.compile(rb"<(?:\w+:)?row\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?row>)", re.DOTALL)
_XML_CELL = re.compile(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)", re.DOTALL)
_XML_VALUE = re.compile(rb"<(?:\w+:)?v\b[^>]*>(.*?)</(?:\w+:)?v>", re.DOTALL)
_XML_ATTR = re.compile(rb'\b(r|t)="([^"]*)"')
_FIRST_ROW_LIMIT = 16 * 1024**2
_REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def _shared_strings(archive: Any) -> list[bytes]:
    """The raw ``<si>`` items of an xlsx's shared-string table (empty if there is none)."""
    shared = next((n for n in archive.namelist() if n.lower() == "xl/sharedstrings.xml"), None)
    return _SHARED_STRING_ITEM.split(archive.read(shared))[1:] if shared is not None else []


def _xml_text(raw: bytes) -> str:
    import html

    return html.unescape(b"".join(_XML_TEXT.findall(raw)).decode("utf-8", errors="replace"))


def _shared_string_bytes(archive: Any, items: list[bytes]) -> int:
    """Upper bound, in bytes, of the text that an xlsx's shared-string cells decode to.

    A cell of type ``s`` holds only the index of a string stored once in
    ``xl/sharedStrings.xml``; readers copy the string into every cell, so a
    150 KB workbook whose 20,000 cells point at one 32,000-character string
    decodes to 640 MB.  Each string's length is bounded by the length of its
    ``<si>`` element, and the references of every sheet are counted.
    """
    import numpy as np

    if not items:
        return 0
    lengths = np.fromiter((len(p) for p in items), dtype=np.int64, count=len(items))
    total = 0
    for name in archive.namelist():
        lower = name.lower()
        if lower.startswith("xl/worksheets/") and lower.endswith(".xml"):
            refs = _SHARED_STRING_REF.findall(archive.read(name))
            if refs:
                idx = np.array(refs).astype(np.int64)
                total += int(lengths[idx[(idx >= 0) & (idx < lengths.size)]].sum())
    return total


def _column_number(ref: str) -> int | None:
    letters = "".join(ch for ch in ref if ch.isalpha()).upper()
    if not letters:
        return None
    n = 0
    for ch in letters:
        n = 26 * n + ord(ch) - 64
    return n - 1


def _xlsx_first_row(archive: Any, items: list[bytes]) -> tuple[list[str], tuple | None]:
    """Sheet names, and the values of row 1 of the first sheet (None: the sheet has no rows).

    Only the start of the sheet is decompressed and parsed: openpyxl's
    read-only mode scans a whole sheet that lacks a ``<dimension>`` element
    (26 s for 10⁶ rows) before giving its first row.
    """
    import posixpath
    import xml.etree.ElementTree as ET

    workbook = ET.fromstring(archive.read("xl/workbook.xml"))
    sheets = [el for el in workbook.iter() if el.tag.rsplit("}", 1)[-1] == "sheet"]
    names = [str(el.get("name", "")) for el in sheets]
    if not sheets:
        return names, None
    rid = sheets[0].get(_REL_NS)
    rels = ET.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    target = next((r.get("Target") for r in rels.iter() if r.get("Id") == rid), None)
    if not target:
        raise ValueError("the first sheet has no part")
    path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
    buf = b""
    match = None
    with archive.open(path) as fh:
        while match is None and len(buf) < _FIRST_ROW_LIMIT:
            chunk = fh.read(1 << 16)
            if not chunk:
                break
            buf += chunk
            match = _XML_ROW.search(buf)
    if match is None:
        return names, None
    attrs = dict(_XML_ATTR.findall(match.group(1)))
    if attrs.get(b"r", b"1") != b"1":  # row 1 is empty
        return names, (None,)
    values: dict[int, Any] = {}
    for k, cell in enumerate(_XML_CELL.finditer(match.group(2) or b"")):
        cattrs = dict(_XML_ATTR.findall(cell.group(1)))
        col = _column_number(cattrs.get(b"r", b"").decode("ascii", "replace"))
        col = k if col is None else col
        kind = cattrs.get(b"t", b"n")
        inner = cell.group(2) or b""
        v = _XML_VALUE.search(inner)
        raw = v.group(1).strip() if v else b""
        if kind == b"s":
            i = int(raw) if raw.isdigit() else -1
            value: Any = _xml_text(items[i]) if 0 <= i < len(items) else None
        elif kind == b"inlineStr":
            value = _xml_text(inner)
        elif kind in (b"str", b"e"):
            value = _xml_text(b"<t>" + raw + b"</t>")
        elif kind == b"b":
            value = raw == b"1"
        elif raw:
            number = float(raw)
            value = int(number) if number.is_integer() else number
        else:
            value = None
        values[col] = value
    if not values:
        return names, (None,)
    return names, tuple(values.get(i) for i in range(max(values) + 1))


def _xlsx_engine() -> str:
    """``"calamine"`` (python-calamine: ~20× faster) when installed, else ``"openpyxl"``."""
    try:
        import python_calamine  # noqa: F401
    except ImportError:
        return "openpyxl"
    return "calamine"


def _read_xlsx(
    data: bytes, label: str, max_bytes: int = DEFAULT_MAX_BYTES, columns: list | None = None
) -> pd.DataFrame:
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
    # its members would unpack to more than ``max_bytes`` in total, or if its
    # shared-string cells would decode to more than that.
    try:
        import zipfile

        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > max_bytes:
                raise InputError(
                    f"{_cap(label)} would unpack to {_human_bytes(unpacked)}, more than the limit "
                    f"of {_human_bytes(max_bytes)}. Upload a smaller workbook, or export the "
                    "sheet as CSV."
                )
            items = _shared_strings(archive)
            strings = _shared_string_bytes(archive, items)
            if strings > max_bytes:
                raise InputError(
                    f"The text cells of {label} would take about {_human_bytes(strings)} in memory "
                    f"once read (the same long text repeated in many cells), more than the limit "
                    f"of {_human_bytes(max_bytes)}. Export the sheet as CSV, or keep only the "
                    "label and score columns."
                )
            sheet_names, first = _xlsx_first_row(archive, items)
            del items
    except InputError:
        raise
    except Exception:
        raise bad from None
    if not sheet_names:
        raise bad

    if first is None:
        raise InputError(
            f"The first sheet ('{sheet_names[0]}') of {label} is empty. Only the first "
            "sheet is read: move the table to the first sheet, or export it as CSV."
        )
    if all(v is None for v in first):
        raise InputError(
            f"The first row of the first sheet ('{sheet_names[0]}') of {label} is empty. The "
            "table must start in row 1 with its header (the column names); only the first "
            "sheet is read. Move the table up, or export it as CSV."
        )
    while first and first[-1] is None:
        first = first[:-1]
    header = [str(v).strip() for v in first if v is not None]
    headerless = _numeric_header(list(first))
    _check_duplicates(header, label, headerless=headerless)
    usecols = None
    if columns is not None:
        _check_requested(columns, header, label)
        raw = {str(v).strip(): v for v in first if v is not None}
        usecols = [raw[c] for c in columns]
    try:
        df = pd.read_excel(io.BytesIO(data), sheet_name=0, engine=_xlsx_engine(), usecols=usecols)
    except Exception:
        raise bad from None
    where = f"the first sheet ('{sheet_names[0]}') of {label}"
    notes = [_no_header_warning(where, list(first))] if headerless else []
    df = _finish(df, where, delimiter=None, columns=columns, notes=notes)
    df.attrs["sheet_name"] = sheet_names[0]
    df.attrs["sheet_names"] = sheet_names
    return df


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# --------------------------------------------------------------------------
# checks common to every format
# --------------------------------------------------------------------------


def _check_duplicates(names: list[str], label: str, *, headerless: bool = False) -> None:
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
        hint = (
            " Every cell of the first row is a number: the file seems to have no header row. "
            "Add a header row naming the columns (e.g. label,score)."
            if headerless else " Every column needs its own name; rename the duplicates and try again."
        )
        raise InputError(f"{_cap(label)} has duplicate column names: {shown}.{hint}")


def _check_columns_argument(columns: Any) -> list | None:
    """`columns` of :func:`load_table` as a list of names (None: every column)."""
    if columns is None:
        return None
    if isinstance(columns, str):
        columns = [columns]
    try:
        out = list(columns)
    except TypeError:
        raise InputError(f"columns ({columns!r}) must be a list of column names.") from None
    if not out or not all(isinstance(c, str) for c in out):
        raise InputError(f"columns ({columns!r}) must be a non-empty list of column names (text).")
    if len(set(out)) != len(out):
        raise InputError(f"columns ({columns!r}) names a column more than once.")
    return out


def _check_requested(columns: list, available: list[str], label: str) -> None:
    missing = [c for c in columns if c not in available]
    if missing:
        shown = ", ".join(repr(c) for c in available[:12]) + (
            f", ... ({len(available)} in all)" if len(available) > 12 else ""
        )
        raise InputError(
            f"{_cap(label)} has no column {missing[0]!r}. Its columns are: {shown}."
        )


def _finish(
    df: pd.DataFrame,
    label: str,
    *,
    delimiter: str | None,
    columns: list | None = None,
    notes: list[str] | None = None,
) -> pd.DataFrame:
    df.columns = [c.strip() if isinstance(c, str) else c for c in df.columns]
    _check_duplicates([str(c) for c in df.columns], label)
    if df.shape[1] == 0:
        raise InputError(f"{_cap(label)} has no columns. Choose a file that contains a table.")
    if len(df) == 0:
        raise InputError(
            f"{_cap(label)} has a header but no data rows. Add the data rows below the "
            "header and try again."
        )
    if df.shape[1] == 1 and columns is None:
        if delimiter is not None:
            name = _delimiter_name(delimiter)
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
    if columns is not None:
        df = df[list(columns)]
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index(drop=True)
    df.attrs["warnings"] = list(notes or [])
    return df
