"""Readers of the binary formats of :func:`rocci.data.io.load_table`: Parquet (pyarrow, in batches, with a size
estimate before reading) and xlsx (calamine, else openpyxl; the first row read from the sheet XML)."""

from __future__ import annotations

import io
import re
from typing import Any

import pandas as pd

from .._core.inputs import InputError
from ._finish import (
    _OLE_MAGIC,
    _PARQUET_MAGIC,
    _ZIP_MAGIC,
    DEFAULT_MAX_BYTES,
    _cap,
    _check_duplicates,
    _check_requested,
    _finish,
    _first_line,
    _human_bytes,
    _no_header_warning,
    _numeric_header,
)

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
