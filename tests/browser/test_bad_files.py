"""Bad-file corpus in a real browser: each file gives an error box (never a
traceback), the app stays usable, and two sessions do not share data."""

from __future__ import annotations

from pathlib import Path

from bad_files.corpus import BAD, zip_bomb as _zip_bomb
from playwright.sync_api import expect

from .test_dashboard import no_exception, upload


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


# --------------------------------------------------------------------------
# issue 18 / 12: a representative subset of the corpus, and the Data page's
# guesses as a person sees them (screenshots at 1400 and 390 px wide)
# --------------------------------------------------------------------------

BAD_DIR = Path(__file__).resolve().parents[1] / "bad_files"


def _churn_csv(path, n: int = 600, share: float = 0.12, seed: int = 11) -> Path:
    """An imbalanced churn-like file that is not in the repository, with string labels."""
    import numpy as np

    rng = np.random.default_rng(seed)
    churn = rng.random(n) < share
    tenure = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.4 * churn - 1.5))), 4)
    usage = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 0.7 * churn - 1.5))), 4)
    lines = ["customer_id,status,p_tenure_model,p_usage_model"]
    lines += [f"C{5000 + i},{'churn' if c else 'stay'},{a},{b}" for i, (c, a, b) in enumerate(zip(churn, tenure, usage))]
    path.write_text("\n".join(lines) + "\n")
    return path


def _set_file(page, path, wait):
    page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(path))
    wait(page)


def test_corpus_subset_in_the_browser(page, app_url, tmp_path, wait, shot):
    from bad_files import corpus

    page.goto(app_url)
    wait(page)
    first = True
    cases = [
        ("no_header.csv", "warning", "no header row"),
        ("struct_column.parquet", "error", "holds structs"),
        ("web_page.csv", "error", "web page (HTML)"),
        ("one_class.csv", "error", "Only one label value found"),
    ]
    for name, kind, words in cases:
        path = tmp_path / name
        path.write_bytes((BAD_DIR / name).read_bytes())
        if first:
            upload(page, path, wait)
            first = False
        else:
            _set_file(page, path, wait)
        box = page.get_by_test_id("stAlertContentError" if kind == "error" else "stAlertContentWarning")
        expect(box.filter(has_text=words).first).to_be_visible()
        no_exception(page)
    bomb = tmp_path / "bomb.parquet"
    bomb.write_bytes(corpus.parquet_bomb(2 * 10**7))
    _set_file(page, bomb, wait)
    expect(page.get_by_test_id("stAlertContentError").filter(has_text="in memory once decompressed")).to_be_visible(
        timeout=30_000)
    no_exception(page)
    wide = tmp_path / "wide.csv"
    wide.write_bytes(corpus.wide_csv())
    _set_file(page, wide, wait)
    # a 5 MB upload, then the rerun: allow time for both
    expect(page.get_by_test_id("stAlertContentInfo").filter(has_text="9,999 numeric columns")).to_be_visible(
        timeout=60_000)
    wait(page)
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible(timeout=60_000)
    no_exception(page)
    shot(page, "browser_data_wide_csv")


def test_churn_file_data_page_wide_and_narrow(browser, app_url, tmp_path, wait, shot):
    path = _churn_csv(tmp_path / "churn_export.csv")
    for width, height in ((1400, 2200), (390, 3000)):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        try:
            page.goto(app_url)
            wait(page)
            upload(page, path, wait)
            no_exception(page)
            expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)
            pos = page.get_by_role("combobox", name="Positive label", exact=True)
            expect(pos).to_have_value("churn") if pos.get_attribute("value") is not None else None
            body = page.inner_text("body")
            assert "Positive = churn (a usual name for the positive class" in body
            chart = page.get_by_test_id("stPlotlyChart").first
            chart.scroll_into_view_if_needed()
            expect(chart).to_be_visible()
            assert "share of the class" in chart.inner_text() or chart.locator("text").count() > 0
            shot(page, f"browser_data_churn_{width}")
            chart.screenshot(path=str(shot(page, f"browser_data_churn_{width}_page").with_name(
                f"browser_data_churn_{width}_histograms.png")))
        finally:
            ctx.close()
