"""No page load asks anything of the internet (issue 18, deployment hardening).

Every request a page load makes -- HTML, scripts, fonts, the page icon, the
websocket -- goes to the dashboard's own server (127.0.0.1).  The page icon
is ui/static/favicon.png, served by Streamlit (it came from a font host when
it was a Material icon).  Requests elsewhere are recorded and aborted, so the
test neither waits on a closed network nor reaches one.
"""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

LOCAL = {"127.0.0.1", "localhost", "[::1]"}
PAGES = ["", "/roc", "/cost", "/compare", "/explorer", "/folds", "/coverage", "/learn"]


def _host(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome", "chrome-extension"):
        return None
    return parts.hostname


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.strip("/") or "data")
def test_a_page_load_requests_nothing_outside_this_server(page, app_url, wait, path):
    outside: list[str] = []
    seen: list[str] = []

    def route(r):
        url = r.request.url
        seen.append(url)
        host = _host(url)
        if host is not None and host not in LOCAL:
            outside.append(url)
            r.abort()
        else:
            r.continue_()

    page.context.route("**/*", route)
    page.on("websocket", lambda ws: seen.append(ws.url) if _host(ws.url) in LOCAL else outside.append(ws.url))
    page.goto(app_url + path)
    wait(page)
    page.wait_for_timeout(1500)  # late requests: fonts, the icon, chart scripts
    assert page.get_by_test_id("stException").count() == 0
    assert any(u.startswith(app_url) for u in seen)
    assert outside == [], f"requests outside {app_url}: {outside}"


def test_the_page_icon_is_the_shipped_png(page, app_url, wait):
    page.goto(app_url)
    wait(page)
    href = page.evaluate("() => { const l = document.querySelector(\"link[rel~='icon']\"); return l && l.href; }")
    assert href and href.startswith(app_url), href
    resp = page.request.get(href)
    assert resp.ok and resp.body()[:8] == b"\x89PNG\r\n\x1a\n"
