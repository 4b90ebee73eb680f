"""User strings (class labels, column and model names) never act as Markdown or end a script.

issue 18 §6–7: a remote image or a disguised link could come from a label or column name put into
Markdown unescaped (widget labels, expander labels and help tooltips all render Markdown), and the
Cost page's hover script was dropped when a model name held ``</s`` or ``<!``.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from apphelpers import new_app, upload

from ui.text import md_escape

EVIL_CLASS = "![x](http://192.0.2.1/i.png)"
EVIL_MODEL = "**b**</script><!--[y](javascript:alert(1))"


def _upload(at, frame: pd.DataFrame, name="evil.csv"):
    return upload(at, name, frame.to_csv(index=False).encode())


def _classes_frame(n=90, seed=3):
    rng = np.random.default_rng(seed)
    cls = np.array(["a", "b", EVIL_CLASS])[np.arange(n) % 3]
    p = rng.dirichlet([1, 1, 1], n)
    return pd.DataFrame({"class": cls, "score_a": p[:, 0], "score_b": p[:, 1], f"score_{EVIL_CLASS}": p[:, 2]})


def _all_label_texts(at) -> list[str]:
    """Every label and help text of the widgets, expanders and metrics on the page."""
    texts = []
    for kind in ("selectbox", "multiselect", "text_input", "number_input", "toggle", "radio", "select_slider"):
        for w in getattr(at, kind, []):
            texts += [str(getattr(w, "label", "")), str(getattr(w, "help", "") or "")]
    for m in at.metric:
        texts += [str(m.label), str(m.proto.help)]
    texts += [str(e.label) for e in at.expander]
    return texts


def test_class_labels_are_escaped_on_the_folds_page():
    at = _upload(new_app(), _classes_frame())
    at.switch_page("app_pages/folds.py").run()
    assert not at.exception, [e.value for e in at.exception]
    texts = _all_label_texts(at)
    assert any(md_escape(EVIL_CLASS) in t for t in texts)  # shown, escaped
    assert not any(EVIL_CLASS in t for t in texts)  # never raw


def test_model_names_are_escaped_in_the_compare_help_and_labels():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 120)
    frame = pd.DataFrame({"label": y, "good": y + rng.normal(size=120), EVIL_MODEL: y + 2 * rng.normal(size=120)})
    at = _upload(new_app(), frame)
    at.switch_page("app_pages/compare.py").run()
    at.query_params["cmp_tab"] = "AUC (DeLong)"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    texts = _all_label_texts(at)
    assert any(md_escape(EVIL_MODEL) in t for t in texts)
    assert not any(EVIL_MODEL in t for t in texts)


def test_hover_script_string_cannot_end_the_script():
    # the page module runs main() at import: read the helper's source instead of importing the page
    from pathlib import Path

    src = (Path(__file__).resolve().parents[2] / "app_pages" / "cost.py").read_text()
    start = src.index("def script_string(")
    end = src.index("\n\n\n", start)
    ns: dict = {"json": json}
    exec(src[start:end], ns)  # noqa: S102 - our own source
    out = ns["script_string"](EVIL_MODEL + "&<x>")
    assert "<" not in out and ">" not in out and "&" not in out
    assert json.loads(out) == EVIL_MODEL + "&<x>"  # the same string once the browser reads it
