"""One glossary of column labels and method names (ui/labels.py, issue 30).

A page never defines its own label for a column (no ``*_COLUMNS`` dicts, no ``st.column_config`` of its own):
it calls ``ui.labels.column_config``, passing at most its own *help* for a column whose meaning its context
sharpens.  Interval methods are named by ``ui.labels``' one map, in three forms (a label, a word in a sentence,
a widget's option, which is also the link's value and so stays what it was).  tests/app/test_labels_pages.py
checks on the pages themselves that every column shown with a column_config has the glossary's label.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest

from ui import labels

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "app_pages").glob("*.py"))
UI = [p for p in sorted((ROOT / "ui").rglob("*.py")) if "__pycache__" not in p.parts]
#: Method-keyed maps that are not the methods' labels: the Coverage lab's pills name simulated *designs*
#: ("Exact bootstrap, percentile" against "Monte Carlo bootstrap"), as rocci.plots.coverage's legend does, and
#: their labels are the values of its links (?fig4.6_methods=...).
NOT_METHOD_LABELS = {("coverage_lab.py", "PR_SHORT"), ("coverage_lab.py", "BAND_SHORT")}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _module_dicts(path: Path):
    """(name, dict node) for each module-level ``NAME = {...}``."""
    for node in _tree(path).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Dict)):
            yield node.targets[0].id, node.value


def _str_keys(node: ast.Dict) -> list[str]:
    return [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]


def test_no_page_defines_column_labels():
    """grep ``_COLUMNS = {`` in app_pages finds nothing; a page's column dicts are help overrides (text only)."""
    bad = []
    for path in PAGES:
        for name, node in _module_dicts(path):
            keys = _str_keys(node)
            if name.endswith("_COLUMNS"):
                bad.append(f"{path.name}: {name} (labels live in ui/labels.py)")
            elif name.endswith("_HELP") and set(keys) & set(labels.COLUMNS):
                tuples = [ast.unparse(v)[:40] for v in node.values if isinstance(v, (ast.Tuple, ast.List))]
                if tuples:
                    bad.append(f"{path.name}: {name} holds labels {tuples}; give help text only")
    assert not bad, "\n  ".join(["columns labelled outside the glossary:"] + bad)


def test_pages_use_the_glossary_for_every_column_config():
    """No ``st.column_config.X(...)`` in a page: every ``column_config=`` is ui.labels.column_config's."""
    bad = []
    for path in PAGES:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and node.attr == "column_config" and isinstance(node.value, ast.Name) \
                    and node.value.id == "st":
                bad.append(f"{path.name}:{node.lineno}: st.column_config")
    assert not bad, "use ui.labels.column_config:\n  " + "\n  ".join(bad)


def _help_overrides():
    """(where, column) for every column given its own help: the pages' ``*_HELP`` dicts and ``help={...}``
    literals passed to column_config."""
    for path in PAGES:
        for name, node in _module_dicts(path):
            if name.endswith("_HELP") and name != "AUC_HELP":  # AUC_HELP: one sentence per AUC method
                for key in _str_keys(node):
                    yield f"{path.name}: {name}", key
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "column_config":
                for kw in node.keywords:
                    if kw.arg == "help":
                        for d in ast.walk(kw.value):
                            if isinstance(d, ast.Dict):
                                for key in _str_keys(d):
                                    yield f"{path.name}:{node.lineno}", key


def test_every_help_override_is_for_a_glossary_column():
    seen = list(_help_overrides())
    assert len(seen) > 30
    unknown = [f"{where}: {key!r}" for where, key in seen if key not in labels.COLUMNS]
    assert not unknown, "help for columns the glossary does not have:\n  " + "\n  ".join(unknown)


def test_glossary_entries_are_complete():
    for name, col in labels.COLUMNS.items():
        assert col.label and col.help.endswith((".", ")")), name
        assert col.format is None or col.format.startswith("%") or col.format == "plain", name


def test_column_config_from_the_glossary():
    frame = pd.DataFrame({"model": ["a"], "threshold": [0.5], "tp": [3], "unknown": [1.0], "fold": [1]})
    cfg = labels.column_config(frame, help={"threshold": "The optimal threshold at this w."},
                               width={"model": "small"})
    assert set(cfg) == {"model", "threshold", "tp", "fold"}  # other columns keep Streamlit's defaults
    assert cfg["threshold"]["label"] == "Threshold" and cfg["threshold"]["help"] == "The optimal threshold at this w."
    assert cfg["threshold"]["type_config"]["type"] == "number" and cfg["threshold"]["type_config"]["format"] == "%.6g"
    assert cfg["tp"]["label"] == "TP" and cfg["tp"]["type_config"]["format"] == "plain"
    assert cfg["model"]["type_config"]["type"] == "text" and cfg["model"]["width"] == "small"
    assert cfg["fold"]["label"] == "Fold" and "format" not in cfg["fold"].get("type_config", {})
    with pytest.raises(KeyError, match="not in the glossary"):
        labels.column_config(frame, help={"no_such_column": "x"})


def test_one_label_per_column_across_pages():
    """The labels the pages used to spell differently are one now (e.g. FPR level, Band low, Depth, TP (a))."""
    c = labels.COLUMNS
    assert c["fpr"].label == "FPR" and c["tpr_low"].label == "TPR low" and c["tpr_mean"].label == "TPR mean"
    assert c["total_positive_rate"].label == "Total-positive rate" and c["tp"].label == "TP"
    assert c["precision_low"].label == "Precision low" and c["n_pos"].label == "Positives"


# --------------------------------------------------------------------------
# Methods
# --------------------------------------------------------------------------

#: The option labels of the method widgets before the glossary: the values links carry (?auc_method=...).
LINK_VALUES = {"delong": "DeLong", "hanley-mcneil": "Hanley-McNeil", "exact-bootstrap": "Exact bootstrap",
               "wilson": "Wilson", "agresti-coull": "Agresti-Coull", "wald": "Wald", "percentile": "Percentile",
               "score": "Score"}


def test_method_forms():
    assert {m: labels.method_option(m) for m in LINK_VALUES} == LINK_VALUES  # old links keep working
    assert labels.method_label("agresti-coull") == "Agresti–Coull" and labels.method_label("percentile") == "Percentile"
    assert labels.method_text("percentile") == "percentile" and labels.method_text("exact-bootstrap") == \
        "exact bootstrap"
    assert labels.method_text("wald") == "Wald" and labels.method_text("hanley-mcneil") == "Hanley–McNeil"
    assert labels.method_text("monte-carlo") == "Monte Carlo" and labels.method_text("other") == "other"
    assert all(labels.method_option(m).isascii() for m in labels.METHODS)


def test_no_other_map_of_method_labels():
    """The one map: no page or ui module keeps its own {method: label} (the old *_LABELS and METHOD_NAMES)."""
    bad = []
    for path in PAGES + UI:
        if path.name == "labels.py":
            continue
        for name, node in _module_dicts(path):
            keys = _str_keys(node)
            if (set(keys) & set(labels.METHODS) and not name.endswith("_HELP")
                    and all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.values)
                    and (path.name, name) not in NOT_METHOD_LABELS):
                bad.append(f"{path.relative_to(ROOT)}: {name}")
    assert not bad, "method labels outside ui/labels.py:\n  " + "\n  ".join(bad)
