"""Bad-file corpus for the safety tests (issues 7 and 18).

Three kinds of files, each with its expected outcome asserted in
tests/data/test_bad_files.py (and a representative subset on the Data page, in
tests/app/test_bad_files_page.py and tests/browser/test_bad_files.py):

* :data:`BAD` -- tiny CSVs built in memory, each an ``InputError``.
* :data:`FILES` -- small files committed in this folder (``tests/bad_files/*``),
  with what reading them must give: an ``InputError`` whose message holds
  some words, or a table (and a warning) with the right numbers.
* generators for the large files, made at test time (in ``tmp_path``):
  :func:`parquet_bomb` (a few MB of Parquet that decode to gigabytes),
  :func:`parquet_string_bomb`, :func:`wide_csv` (10,000 columns),
  :func:`big_xlsx` (a 10⁶-row workbook written as raw XML, seconds instead of
  minutes with openpyxl), :func:`big_csv` (≈ 90 MB) and :func:`zip_bomb`.

Run ``python tests/bad_files/corpus.py`` to rewrite the committed small files
(their bytes are deterministic).
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

BAD = {
    "empty": b"",
    "header_only": b"y,s\n",
    "one_class": b"y,s\n1,0.2\n1,0.5\n1,0.9\n",
    "all_nan": b"y,s\n0,\n1,\n0,\n1,\n",
    "text_score": b"y,s\n0,0.1\n1,high\n0,0.3\n1,0.8\n",
    "inf": b"y,s\n0,0.1\n1,inf\n0,0.3\n1,0.8\n",
    "duplicate_cols": b"y,s,s\n0,0.1,0.2\n1,0.9,0.8\n",
    "ragged": b"y,s,a,b,c\n0,0.1,1,2,3\n1,0.9,1\n0,0.2,1,2,3,4,5,6\n",
}

#: Committed small files: name -> expected outcome.
#:
#: ``{"error": [words]}``: ``load_table`` + ``prepare_binary`` (label ``y``,
#: score ``s`` unless ``label``/``scores`` are given; pos_label from
#: :func:`rocci.data.suggest_pos_label`) raise ``InputError`` with each word in
#: the message.  ``{"rows": n, "pos": value, "n_pos": k, ...}``: they give
#: that table; ``"warning"`` words must be in ``df.attrs["warnings"]``.
FILES: dict[str, dict] = {
    # a CSV whose header row is missing: the first data row became the header
    "no_header.csv": {"warning": ["header", "number"], "label": "1", "scores": ["0.82"],
                      "rows": 11},
    # Excel's "sep=;" first line, decimal commas
    "excel_sep_line.csv": {"rows": 6, "label": "y", "scores": ["s"], "pos": 1, "n_pos": 3,
                           "score_sum": 2.95},
    # string labels, 12% positives, no keyword: the rarer class is positive...
    "churn_labels.csv": {"rows": 50, "label": "status", "scores": ["model_a", "model_b"],
                         "pos": "churn", "n_pos": 6, "reason": "keyword"},
    "rare_class.csv": {"rows": 25, "label": "group", "scores": ["s"], "pos": "blue",
                       "n_pos": 5, "reason": "rarer"},
    # quoted "0"/"1" labels: pandas reads them as numbers
    "quoted_01_labels.csv": {"rows": 6, "label": "y", "scores": ["s"], "pos": 1, "n_pos": 3},
    # '0'/'1' labels stored as text need no pos_label
    "text_01_labels.parquet": {"rows": 6, "label": "y", "scores": ["s"], "pos": "1", "n_pos": 3},
    "one_class.csv": {"error": ["Only one label value found: 'yes'", "both classes are needed"]},
    # not a table at all
    "not_a_table.png": {"error": ["could not be read as a text table", "binary"],
                        "filename": "not_a_table.csv"},
    "web_page.csv": {"error": ["not a table", "web page (HTML)"]},
    "records.json.csv": {"error": ["not a table", "JSON"]},
    # Parquet with nested columns (list, struct)
    "list_column.parquet": {"error": ["score column 's'", "lists", "not single values"]},
    "struct_column.parquet": {"error": ["label column 'y'", "structs", "struct<a>"]},
    "nested_extra_column.parquet": {"rows": 4, "label": "y", "scores": ["s"], "pos": 1,
                                    "n_pos": 2, "not_guessed": ["tags"]},
}


def zip_bomb(uncompressed: int) -> bytes:
    """An xlsx-named zip whose one member unpacks to ``uncompressed`` bytes of zeros."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<x/>")
        z.writestr("xl/worksheets/sheet1.xml", b"\0" * uncompressed)
    return buf.getvalue()


# --------------------------------------------------------------------------
# large files, generated at test time
# --------------------------------------------------------------------------


def parquet_bomb(rows: int = 2 * 10**8, *, block: int = 10**6) -> bytes:
    """A small Parquet file of ``rows`` rows (label, score) that decodes to 16 bytes a row.

    Constant columns compress to almost nothing: 2·10⁸ rows (3.2 GB decoded)
    take about 2 MB.  Written ``block`` rows at a time, so making it needs
    little memory.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = min(block, rows)
    table = pa.table({"y": pa.array([0, 1] * (n // 2) + [0] * (n % 2), pa.int64()),
                      "s": pa.array([0.5] * n, pa.float64())})
    buf = io.BytesIO()
    with pq.ParquetWriter(buf, table.schema, compression="zstd") as writer:
        done = 0
        while done < rows:
            k = min(n, rows - done)
            writer.write_table(table.slice(0, k), row_group_size=k)
            done += k
    return buf.getvalue()


def parquet_string_bomb(rows: int = 2 * 10**6, *, length: int = 1000) -> bytes:
    """A tiny Parquet file whose string column repeats one ``length``-character value.

    Dictionary encoding stores the value once: the column chunk's
    uncompressed size is a few bytes a row, the decoded column ``rows × length``
    bytes (2 GB by default).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    block = min(rows, 10**5)
    table = pa.table({"y": pa.array(["x" * length] * block),
                      "s": pa.array([0.5] * block, pa.float64())})
    buf = io.BytesIO()
    with pq.ParquetWriter(buf, table.schema, compression="zstd") as writer:
        done = 0
        while done < rows:
            k = min(block, rows - done)
            writer.write_table(table.slice(0, k), row_group_size=k)
            done += k
    return buf.getvalue()


def wide_csv(columns: int = 10_000, rows: int = 100, *, seed: int = 0) -> bytes:
    """A CSV with a 0/1 label ``y`` and ``columns - 1`` numeric columns (≈ 5 MB by default).

    Columns ``p_model_0`` and ``score_b`` look like scores by name; ``flag``
    has two values (a bad model); every other column ``x{i}`` holds random
    numbers rounded to 2 decimals.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    y = np.arange(rows) % 2
    data = np.round(rng.random((rows, columns - 1)), 2)
    names = [f"x{i}" for i in range(columns - 1)]
    names[4000], names[9000 % (columns - 1)] = "p_model_0", "score_b"
    data[:, 4000] = np.round(rng.random(rows) + y * 0.3, 6)
    data[:, 9000 % (columns - 1)] = np.round(rng.random(rows) + y * 0.2, 6)
    names[1] = "flag"
    data[:, 1] = rng.integers(0, 2, rows)
    lines = ["y," + ",".join(names)]
    for i in range(rows):
        lines.append(f"{y[i]}," + ",".join(f"{v:g}" for v in data[i]))
    return ("\n".join(lines) + "\n").encode()


def big_csv(rows: int = 1_500_000, *, seed: int = 0) -> bytes:
    """A CSV of a 0/1 label and three 17-digit score columns: ≈ 90 MB at 1.5·10⁶ rows."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.2
    frame = pd.DataFrame({"y": y.astype(int)})
    for k, shift in (("a", 1.0), ("b", 0.7), ("c", 0.3)):
        frame[k] = rng.normal(size=rows) + shift * y
    return frame.to_csv(index=False, float_format="%.17g").encode()


_XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.worksheet+xml"/></Types>'
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    ),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="scores" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
    ),
}


def shared_string_bomb(cells: int = 20_000, *, length: int = 32_000) -> bytes:
    """A ~150 KB xlsx whose ``cells`` label cells all point at one ``length``-character shared string.

    The string is stored once; readers copy it into every cell, so the
    default decodes to 640 MB (calamine and openpyxl both reached 0.7-2.7 GB).
    """
    sheet = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet '
             'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
             '<row r="1"><c r="A1" t="inlineStr"><is><t>y</t></is></c>'
             '<c r="B1" t="inlineStr"><is><t>s</t></is></c></row>']
    for i in range(cells):
        r = i + 2
        sheet.append(f'<row r="{r}"><c r="A{r}" t="s"><v>0</v></c><c r="B{r}"><v>0.5</v></c></row>')
    sheet.append("</sheetData></worksheet>")
    shared = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.'
              'openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>'
              + "x" * length + "</t></si></sst>")
    return _xlsx_bytes("".join(sheet), shared=shared)


def _xlsx_bytes(sheet_xml: str, *, shared: str | None = None, sheet_name: str = "scores") -> bytes:
    """A minimal valid workbook holding one sheet (and a shared-string table if given)."""
    parts = dict(_XLSX_PARTS)
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace('name="scores"', f'name="{sheet_name}"')
    if shared is not None:
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            "</Types>", '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
        parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
            "</Relationships>", '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>")
        parts["xl/sharedStrings.xml"] = shared
    parts["xl/worksheets/sheet1.xml"] = sheet_xml
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, text)
    return buf.getvalue()


def big_xlsx(rows: int = 10**6) -> bytes:
    """An xlsx of ``rows`` rows (label ``y`` in 0/1, scores ``a`` and ``b``), ≈ 17 MB at 10⁶ rows.

    Written as raw SpreadsheetML (inline-string header, numeric cells, no
    ``<dimension>`` element, as some writers do), which takes seconds;
    openpyxl's writer would take minutes.  Row ``i`` (0-based) holds
    ``y = i % 2``, ``a = i / rows`` and ``b = ((i * 7919) % rows) / rows``.
    """
    head = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
            '<row r="1"><c r="A1" t="inlineStr"><is><t>y</t></is></c>'
            '<c r="B1" t="inlineStr"><is><t>a</t></is></c>'
            '<c r="C1" t="inlineStr"><is><t>b</t></is></c></row>')
    parts = [head]
    for i in range(rows):
        r = i + 2
        parts.append(f'<row r="{r}"><c r="A{r}"><v>{i % 2}</v></c><c r="B{r}"><v>{i / rows!r}</v></c>'
                     f'<c r="C{r}"><v>{((i * 7919) % rows) / rows!r}</v></c></row>')
    parts.append("</sheetData></worksheet>")
    return _xlsx_bytes("".join(parts))


# --------------------------------------------------------------------------
# the committed small files
# --------------------------------------------------------------------------


def _small_files() -> dict[str, bytes]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    def parquet(table) -> bytes:
        buf = io.BytesIO()
        pq.write_table(table, buf, compression="none")
        return buf.getvalue()

    out: dict[str, bytes] = {}
    rows = [(1, 0.82), (0, 0.11), (1, 0.67), (0, 0.35), (1, 0.91), (0, 0.08),
            (1, 0.44), (0, 0.52), (1, 0.73), (0, 0.29), (0, 0.19), (1, 0.88)]
    out["no_header.csv"] = "".join(f"{y},{s}\n" for y, s in rows).encode()
    out["excel_sep_line.csv"] = (
        b"sep=;\r\ny;s\r\n1;0,9\r\n0;0,2\r\n1;0,7\r\n0;0,4\r\n1;0,5\r\n0;0,25\r\n"
    )
    status = ["churn" if i % 8 == 3 and i < 48 else "stay" for i in range(50)]
    lines = ["customer,status,model_a,model_b"]
    for i, st in enumerate(status):
        a = 0.6 + (i % 7) / 20 if st == "churn" else (i * 37 % 50) / 100
        b = 0.5 + (i % 5) / 10 if st == "churn" else (i * 13 % 50) / 70
        lines.append(f"C{1000 + i},{st},{a:.2f},{b:.3f}")
    out["churn_labels.csv"] = ("\n".join(lines) + "\n").encode()
    lines = ["group,s"] + [f"{'blue' if i % 5 == 0 else 'green'},{(i * 7 % 25) / 25:.2f}"
                           for i in range(25)]
    out["rare_class.csv"] = ("\n".join(lines) + "\n").encode()
    out["quoted_01_labels.csv"] = (
        b'"y","s"\n"1","0.9"\n"0","0.2"\n"1","0.7"\n"0","0.4"\n"1","0.3"\n"0","0.1"\n'
    )
    out["text_01_labels.parquet"] = parquet(pa.table({
        "y": pa.array(["1", "0", "1", "0", "1", "0"]),
        "s": pa.array([0.9, 0.2, 0.7, 0.4, 0.3, 0.1]),
    }))
    out["records.json.csv"] = b'[\n  {"y": 1, "s": 0.9},\n  {"y": 0, "s": 0.2}\n]\n'
    out["one_class.csv"] = b"y,s\nyes,0.2\nyes,0.5\nyes,0.9\n,0.4\n"
    out["not_a_table.png"] = (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00"
        b"\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff"
        b"\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82"
    )
    out["web_page.csv"] = (
        b"<!DOCTYPE html>\n<html>\n<head><title>Sign in</title></head>\n"
        b"<body>\n<p>Please sign in to download this file.</p>\n</body>\n</html>\n"
    )
    out["list_column.parquet"] = parquet(pa.table({
        "y": pa.array([1, 0, 1, 0]),
        "s": pa.array([[0.9, 0.1], [0.2], [0.7, 0.3], []], pa.list_(pa.float64())),
    }))
    out["struct_column.parquet"] = parquet(pa.table({
        "y": pa.array([{"a": 1}, {"a": 0}, {"a": 1}, {"a": 0}]),
        "s": pa.array([0.9, 0.2, 0.7, 0.4]),
    }))
    out["nested_extra_column.parquet"] = parquet(pa.table({
        "y": pa.array([1, 0, 1, 0]),
        "tags": pa.array([["a"], ["b", "c"], [], ["d"]]),
        "meta": pa.array([{"k": 1}, {"k": 2}, {"k": 3}, {"k": 4}]),
        "s": pa.array([0.9, 0.2, 0.7, 0.4]),
    }))
    return out


def write_small_files() -> None:
    """(Re)write the committed small files into this folder."""
    for name, data in _small_files().items():
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    write_small_files()
