"""Every page starts with ui.frame's skeleton (issue 30): ``page_frame`` (title, caption into the report, the
analysis or a notice, the two columns) where the page analyses the loaded data, ``page_header`` (title and
caption) on the four pages that do not (ui/frame.py says why)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = {p.stem: p for p in sorted((ROOT / "app_pages").glob("*.py"))}
#: The pages that do not analyse the loaded data the usual way: the Data page makes it, Folds checks the dataset
#: itself (folds or classes, large data) and has no columns, Learn uses the worked example by default, the
#: Coverage lab no data at all.
HEADER_ONLY = {"data", "folds", "learn", "coverage_lab"}


def _calls(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            out.append(f.id if isinstance(f, ast.Name) else f"{ast.unparse(f.value)}.{f.attr}"
                       if isinstance(f, ast.Attribute) else "")
    return out


def test_every_page_uses_the_skeleton():
    assert set(PAGES) >= HEADER_ONLY | {"roc", "precision", "cost", "decision", "compare", "explorer"}
    for name, path in PAGES.items():
        calls = _calls(path)
        assert "st.title" not in calls, name
        want = "page_header" if name in HEADER_ONLY else "page_frame"
        assert calls.count(want) == 1, (name, want)
        if want == "page_frame":
            assert "cache.analysis_or_notice" not in calls and "controls_ui.page_columns" not in calls, name
