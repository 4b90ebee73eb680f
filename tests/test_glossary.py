"""The column glossary (issue 30): every column of every public result's frames is named in
rocci/_core/glossary.py, directly or by a pattern on a named stem, and docs/conventions.md prints it."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from rocci._core import glossary
import test_vocabulary as tv

ROOT = Path(__file__).resolve().parents[1]


def _columns() -> dict[str, set[str]]:
    """column -> the calls whose frames have it, over test_vocabulary's _calls() and _variant_calls()."""
    out: dict[str, set[str]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for name, call in {**tv._calls(), **tv._variant_calls()}.items():
            for kind, frame in tv._frames(call()).items():
                for column in frame.columns:
                    out.setdefault(column, set()).add(f"{name}.{kind}")
    return out


@pytest.fixture(scope="module")
def columns():
    return _columns()


def test_every_column_is_in_the_glossary(columns):
    missing = {c: sorted(where)[:3] for c, where in columns.items() if glossary.explain(c) is None}
    assert not missing, ("columns the glossary does not explain (add them to rocci/_core/glossary.py's COLUMNS, "
                         f"or name them by a pattern on a known stem): {missing}")


def test_every_glossary_entry_is_used(columns):
    used = set().union(*(glossary.stems(c) for c in columns))
    assert set(glossary.COLUMNS) <= used, f"entries no frame uses: {sorted(set(glossary.COLUMNS) - used)}"


def test_entries_have_a_known_unit_and_one_line():
    for name, (unit, meaning) in glossary.COLUMNS.items():
        assert unit in glossary.UNITS, (name, unit)
        assert meaning and "\n" not in meaning, name
    for pattern, meaning, unit in glossary.PATTERNS:
        assert "{stat}" in pattern and "{stat}" in meaning and (unit is None or unit in glossary.UNITS), pattern


def test_patterns_compose():
    assert glossary.explain("delta_tpr_low") == ("rate", "lower bound of the confidence interval of `delta_tpr`")
    assert glossary.explain("delta_tpr")[1].startswith("`tpr` of model A − `tpr` of model B")
    assert glossary.explain("p_lr_positive_undefined")[0] == "probability"
    assert glossary.explain("threshold_b")[0] == "score"
    assert glossary.explain("tpr_median") is None and glossary.explain("delta_") is None
    assert glossary.stems("delta_precision_mean") == {"precision"}


def test_conventions_page_prints_the_glossary():
    page = (ROOT / "docs" / "conventions.md").read_text(encoding="utf-8")
    assert "## Column glossary" in page
    assert glossary.replace_section(page) == page, "run: python scripts/glossary.py"
    assert glossary.glossary_markdown() in page


def test_the_script_checks_the_page():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "glossary.py"), "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
