"""Data page, driven by AppTest: every file of the bad-file corpus gives an
error box (never a traceback) and the app stays usable afterwards."""

from __future__ import annotations

from pathlib import Path

from apphelpers import assert_clean, data_app, upload  # noqa: F401  (fixture)
from bad_files.corpus import BAD, zip_bomb as _zip_bomb


def test_each_bad_file_shows_an_error_then_a_good_file_loads(data_app):
    at = data_app
    files = {f"{k}.csv": v for k, v in BAD.items()}
    files["bomb.xlsx"] = _zip_bomb(300 * 1024**2)
    for name, data in files.items():
        at = upload(at, name, data)
        assert not at.exception, (name, at.exception)
        assert at.error, name
        assert len(at.error[0].value) > 20, name
    at = upload(at, "good.csv", b"y,s\n1,0.9\n0,0.1\n1,0.7\n0,0.4\n")
    assert_clean(at)
    assert not at.error


def test_markup_in_labels_and_columns_is_text(data_app):
    csv = b'y,<b>x</b>\n<script>,0.9\n**y**,0.1\n<script>,0.7\n**y**,0.4\n'
    at = upload(data_app, "markup.csv", csv)
    assert not at.exception
    for md in at.markdown:
        assert "<script>" not in md.value or "&lt;" in md.value or "\\<" in md.value


def test_the_reader_enforces_the_servers_upload_limit(data_app):
    """One limit: server.maxUploadSize bounds what the reader accepts (and an xlsx's unpacked size)."""
    from streamlit import config

    from ui.cache import upload_limit_bytes

    old = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", 1)
    try:
        assert upload_limit_bytes() == 1024**2
        rows = b"".join(b"1,0.%06d\n0,0.%06d\n" % (i, i + 1) for i in range(70_000))
        data = b"y,s\n" + rows
        assert 1024**2 < len(data) < 200 * 1024**2  # over this server's limit, under the reader's default
        at = upload(data_app, "big.csv", data)
        assert not at.exception
        assert any("too large" in e.value and "1" in e.value for e in at.error), [e.value for e in at.error]
    finally:
        config.set_option("server.maxUploadSize", old)


# --------------------------------------------------------------------------
# issue 18: the committed corpus and the generated bombs, on the Data page
# --------------------------------------------------------------------------

from bad_files import corpus  # noqa: E402
from bad_files.corpus import FILES  # noqa: E402

BAD_DIR = Path(__file__).resolve().parents[1] / "bad_files"
MIME = {".parquet": "application/octet-stream", ".xlsx": "application/octet-stream"}


def _upload_file(at, name):
    spec = FILES[name]
    data = (BAD_DIR / name).read_bytes()
    shown_name = spec.get("filename", name)
    return upload(at, shown_name, data)


def test_every_committed_file_gives_its_outcome_on_the_page(data_app):
    at = data_app
    for name, spec in FILES.items():
        at = _upload_file(at, name)
        assert not at.exception, (name, at.exception)
        shown = [e.value.replace("\\", "") for e in at.error]
        if "error" in spec:
            assert shown, name
            # the first words of the expected message are on the page (the page may add context)
            assert any(spec["error"][0] in s for s in shown), (name, shown)
        else:
            assert not shown, (name, shown)
            metrics = {m.label: m.value for m in at.metric}
            assert metrics["Rows used"] == str(spec["rows"]), name
            if "n_pos" in spec:
                assert metrics["Positives"] == str(spec["n_pos"]), name
            warnings = " ".join(w.value.replace("\\", "") for w in at.warning)
            for words in spec.get("warning", []):
                assert words in warnings, (name, words)


def test_bombs_are_refused_on_the_page(data_app):
    at = data_app
    files = {
        "bomb.parquet": corpus.parquet_bomb(2 * 10**7),  # 320 MB decoded > the server's 100 MB
        "strings.parquet": corpus.parquet_string_bomb(200_000),  # 200 MB of one repeated text
        "strings.xlsx": corpus.shared_string_bomb(20_000),  # 640 MB of one shared string
    }
    for name, data in files.items():
        at = upload(at, name, data)
        assert not at.exception, name
        (message,) = [e.value.replace("\\", "") for e in at.error]
        assert "in memory" in message and "100.0 MiB" in message, (name, message)
    at = upload(at, "good.csv", b"y,s\n1,0.9\n0,0.1\n1,0.7\n0,0.4\n")
    assert_clean(at)
