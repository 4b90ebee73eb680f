"""Rewrite docs/conventions.md's "Column glossary" from rocci/_core/glossary.py (``python scripts/glossary.py``;
``--check`` exits 1 when the page is out of date instead of writing it)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rocci._core.glossary import replace_section  # noqa: E402

PAGE = ROOT / "docs" / "conventions.md"


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    new = replace_section(text)
    if "--check" in argv:
        return 0 if new == text else 1
    if new != text:
        PAGE.write_text(new, encoding="utf-8")
        print(f"rewrote the column glossary of {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
