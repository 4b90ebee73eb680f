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

from .._core.inputs import InputError
from ._binary import _read_parquet, _read_xlsx
from ._finish import (
    _OLE_MAGIC,
    _PARQUET_MAGIC,
    _ZIP_MAGIC,
    DEFAULT_MAX_BYTES,
    _cap,
    _check_columns_argument,
    _check_duplicates,
    _check_requested,
    _delimiter_name,
    _finish,
    _no_header_warning,
    _numeric_header,
    _too_large,
)

__all__ = ["load_table", "SUPPORTED_FORMATS", "DEFAULT_MAX_BYTES"]


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
_SNIFF_CHARS = 64 * 1024
_DECODE_CHUNK = 1024**2
# Excel's first line naming the delimiter of a CSV ("sep=;")
_SEP_LINE = re.compile(r"^sep=([^\r\n\"'])[ \t]*(?:\r\n|\n|\r|$)", re.IGNORECASE)
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


# --------------------------------------------------------------------------
# checks common to every format
# --------------------------------------------------------------------------


