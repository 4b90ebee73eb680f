"""Bad-file corpus in a real browser: each file gives an error box (never a
traceback), the app stays usable, and two sessions do not share data."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bad_files"))
from corpus import BAD, zip_bomb as _zip_bomb  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_dashboard import no_exception, upload  # noqa: E402


def test_each_bad_file_shows_an_error_box(page, app_url, tmp_path, wait, shot):
    page.goto(app_url)
    wait(page)
    files = {f"{k}.csv": v for k, v in BAD.items()}
    files["bomb.xlsx"] = _zip_bomb(300 * 1024**2)
    for i, (name, data) in enumerate(files.items()):
        path = tmp_path / name
        path.write_bytes(data)
        if i == 0:
            upload(page, path, wait)
        else:
            page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(path))
            wait(page)
        expect(page.get_by_test_id("stAlertContentError").first).to_be_visible()
        no_exception(page)
        if name == "bomb.xlsx":
            shot(page, "browser_bad_file_zip_bomb")
    good = tmp_path / "good.csv"
    good.write_text("y,s\n1,0.9\n0,0.1\n1,0.7\n0,0.4\n")
    page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(good))
    wait(page)
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)
    no_exception(page)


def test_two_sessions_do_not_share_data(browser, app_url, tmp_path, wait):
    pages = []
    for who in ("alice", "bob"):
        ctx = browser.new_context()
        p = ctx.new_page()
        p.goto(app_url)
        wait(p)
        path = tmp_path / f"{who}_scores.csv"
        path.write_text(f"y,{who}_model\n1,0.9\n0,0.1\n1,0.7\n0,0.4\n")
        upload(p, path, wait)
        pages.append((who, p))
    for who, p in pages:
        p.reload()
        wait(p)
        body = p.inner_text("body")
        other = "bob" if who == "alice" else "alice"
        assert f"{other}_model" not in body and f"{other}_scores" not in body
        p.context.close()
