"""Bad-file corpus for the safety tests (issue 7); built in memory, small on disk."""
import io
import zipfile

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


def zip_bomb(uncompressed: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<x/>")
        z.writestr("xl/worksheets/sheet1.xml", b"\0" * uncompressed)
    return buf.getvalue()
