"""ui/state.py owns every session-state key (issue 30).

The dashboard's sources (app.py, ui/, app_pages/) touch ``st.session_state`` only in ui/state.py; everywhere
else a value is read or written through ui.state's helpers, naming a key declared in ``ui.state.KEYS`` (which
says who writes it and who reads it).  Widget ``key=`` arguments are not session-state accesses and are fine.
The helpers' rules (seed, keep and restore: the one way a choice outlives its page) are checked on a plain
dict standing in for ``st.session_state``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from ui import state

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "ui" / "state.py"
#: ui.state helpers whose first argument (or every argument, for ``forget`` and ``restore``) is a key.
KEY_HELPERS = {"value", "has", "put", "swap", "take", "forget", "seed", "seed_list", "keep", "restore",
               "kept_key"}
WIDGET_HELPERS = {"seed", "seed_list", "keep", "restore", "kept_key"}


def _sources() -> list[Path]:
    files = [ROOT / "app.py"] + sorted((ROOT / "ui").rglob("*.py")) + sorted((ROOT / "app_pages").rglob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts]


def _is_session_state(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "session_state"


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) or isinstance(node, ast.JoinedStr)


def test_no_session_state_key_spelled_outside_ui_state():
    """The issue's rule: no ``session_state["..."]`` or ``session_state.get("...")`` outside ui/state.py."""
    bad = []
    for path in _sources():
        if path == STATE:
            continue
        rel = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and _is_session_state(node.value) and _literal(node.slice):
                bad.append(f"{rel}:{node.lineno}: session_state[{ast.unparse(node.slice)}]")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and _is_session_state(node.func.value) and node.args and _literal(node.args[0])):
                bad.append(f"{rel}:{node.lineno}: session_state.{node.func.attr}({ast.unparse(node.args[0])})")
    assert not bad, "declare the key in ui/state.py and use its helpers:\n  " + "\n  ".join(bad)


def test_only_ui_state_touches_session_state():
    """Stricter: no ``st.session_state`` at all outside ui/state.py (not even with a key in a variable)."""
    bad = []
    for path in _sources():
        if path == STATE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _is_session_state(node):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not bad, "read and write session state through ui.state's helpers:\n  " + "\n  ".join(bad)


def _helper_calls():
    """(file:line, helper, literal key) for every ui.state helper called with a literal key."""
    for path in _sources():
        if path == STATE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "state"
                    and node.func.attr in KEY_HELPERS):
                continue
            args = node.args if node.func.attr in ("forget", "restore") else node.args[:1]
            for arg in args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node.func.attr, arg.value


def test_every_key_used_is_declared():
    calls = list(_helper_calls())
    assert len(calls) > 20  # the scan sees the pages' calls
    undeclared = [f"{where}: state.{helper}({key!r})" for where, helper, key in calls if key not in state.KEYS]
    assert not undeclared, "keys missing from ui.state.KEYS:\n  " + "\n  ".join(undeclared)
    wrong = [f"{where}: state.{helper}({key!r})" for where, helper, key in calls
             if helper in WIDGET_HELPERS and not state.KEYS[key].widget]
    assert not wrong, "seed, keep and restore are for widget keys:\n  " + "\n  ".join(wrong)


def test_every_declared_key_says_who_writes_and_reads_it():
    for key in list(state.KEYS.values()) + list(state.PREFIXES.values()):
        assert len(key.doc) > 30, key.name


def test_declared_widget_keys_are_widgets():
    """A widget key in the registry is still spelled in the sources outside ui/state.py (as a widget's
    ``key=`` or an argument that becomes one): the registry does not outlive the widgets."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in _sources() if p != STATE)
    missing = [k for k, v in state.KEYS.items() if v.widget and f'"{k}"' not in text]
    assert not missing, missing


def test_bound_flags_match_the_widgets():
    """``bound`` says whether the widget is bound to the URL: the keys of ui.operating are, the Data page's not."""
    assert all(state.KEYS[k].bound for k in ("op_by", "op_p", "op_cfn", "op_cfp", "op_w", "img", "ln_t"))
    assert not any(state.KEYS[k].bound for k in ("source", "sample", "label", "pos", "scores", "cov_exp"))


# --------------------------------------------------------------------------
# The helpers, on a dict standing in for st.session_state
# --------------------------------------------------------------------------


@pytest.fixture
def session(monkeypatch):
    box: dict = {}
    monkeypatch.setattr(state, "st", SimpleNamespace(session_state=box))
    return box


def test_undeclared_keys_and_wrong_kinds_are_refused(session):
    with pytest.raises(KeyError, match="not declared"):
        state.value("no_such_key")
    with pytest.raises(KeyError, match="widget key"):
        state.put("sample", "x")  # a widget's value is seeded, not put
    with pytest.raises(KeyError, match="not a widget key"):
        state.seed(state.DATASET, None)
    with pytest.raises(KeyError, match="family"):
        state.done("no_family::", "x")


def test_seed_fills_missing_stale_or_forced_values_only(session):
    state.seed("label", "y", ["x", "y"])
    assert session["label"] == "y"
    state.seed("label", "x", ["x", "y"])  # the widget's own choice stands
    assert session["label"] == "y"
    state.seed("label", "x", ["x", "z"])  # no longer an option: the seed
    assert session["label"] == "x"
    state.seed("label", "gone", ["a", "b"], force=True)  # a seed that is not an option: the first option
    assert session["label"] == "a"
    state.seed("label", "q", force=True)
    assert session["label"] == "q"
    state.seed("lg_pos", None)
    assert "lg_pos" in session and session["lg_pos"] is None


def test_seed_list_keeps_the_choice_within_the_options(session):
    state.seed_list("scores", ["a", "b", "zz"], ["a", "b", "c"])
    assert session["scores"] == ["a", "b"]
    state.seed_list("scores", ["c"], ["b", "c"])
    assert session["scores"] == ["b"]
    state.seed_list("scores", ["c"], ["b", "c"], force=True)
    assert session["scores"] == ["c"]


def test_keep_and_restore_carry_a_widget_value_to_another_page(session):
    session["op_w"] = 0.3  # the widget drawn on one page
    state.keep("op_w", first=True)
    session["op_w"] = 0.4  # changed: its on_change keeps it
    state.keep("op_w")
    state.keep("op_w", first=True)  # drawn again: the kept value stands
    assert session[state.kept_key("op_w")] == 0.4
    del session["op_w"]  # Streamlit forgets the widget on a page without it
    state.restore("op_w", "op_p")  # the next page, before drawing it
    assert session["op_w"] == 0.4 and "op_p" not in session


def test_swap_take_forget_and_done(session):
    assert state.swap(state.LEARN_DATA, "a") is None
    assert state.swap(state.LEARN_DATA, "b") == "a"
    state.put(state.LARGE_RESTORED, (1, 2, 3))
    assert state.take(state.LARGE_RESTORED) == (1, 2, 3) and state.take(state.LARGE_RESTORED) is None
    session["ln_t"], session["ln_t2"] = 0.1, 0.2
    state.forget("ln_t", "ln_t2", "ln_t4")
    assert "ln_t" not in session and "ln_t2" not in session
    assert not state.done(state.MAP_DONE, "k|a|b|None")
    state.mark_done(state.MAP_DONE, "k|a|b|None")
    assert state.done(state.MAP_DONE, "k|a|b|None")


def test_set_dataset_drops_the_mapping(session):
    ds = state.sample_dataset(state.DEFAULT_SAMPLE)
    assert state.get_dataset() == ds  # a newcomer's default
    state.set_mapping(ds, state.ColumnMapping(label="y", scores=("s",)))
    assert state.get_mapping(ds).label == "y"
    assert not state.set_dataset(ds)  # the same file: nothing changes
    assert state.get_mapping(ds) is not None
    other = state.upload_dataset("x.csv", b"y,s\n1,0.5\n0,0.2\n")
    assert state.set_dataset(other)
    assert state.get_mapping(other) is None and state.MAPPING not in session
