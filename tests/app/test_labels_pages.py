"""Every column a page shows with a column_config has the glossary's label (ui/labels.py, issue 30).

Each page is opened with its tables showing (the ROC page's three averaging tables, the Precision page's
regions, the Compare page's leaderboard and ΔTPR table, the Folds page's two averages and its classes, ...);
every ``st.dataframe`` that has a column_config must label each column it shows (its ``column_order``, else
all) exactly as ``ui.labels.COLUMNS`` does.  Tables without a column_config (previews, raw curves) are left
as they are.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from apphelpers import assert_clean, new_app, uploaded_app

from ui.labels import COLUMNS

pytestmark = pytest.mark.apptest


def labelled_tables(at) -> dict:
    """{dataframe key or index: (columns shown, column_config)} for the dataframes with a column_config."""
    out = {}
    for i, df in enumerate(at.dataframe):
        cfg = json.loads(df.proto.columns or "{}")
        if not any("label" in v for v in cfg.values()):  # (hide_index alone configures "_index")
            continue
        shown = list(df.proto.column_order) or [str(c) for c in df.value.columns]
        out[df.proto.id.rsplit("-", 1)[-1] or i] = (shown, cfg)
    return out


def check(at, at_least: int) -> None:
    assert_clean(at)
    tables = labelled_tables(at)
    assert len(tables) >= at_least, list(tables)
    bad = []
    for name, (shown, cfg) in tables.items():
        for col in shown:
            want = COLUMNS.get(col)
            got = (cfg.get(col) or {}).get("label")
            if want is None or got != want.label:
                bad.append(f"{name}: {col!r} shown as {got!r}, glossary {want.label if want else None!r}")
    assert not bad, "\n  ".join(["columns without the glossary's label:"] + bad)


def test_roc_page():
    check(new_app("app_pages/roc.py", {"vert_show": "true", "band_show": "true"}), 4)


def test_precision_page():
    check(new_app("app_pages/precision.py", {"pr_regions": "true"}), 5)


def test_cost_decision_and_explorer_pages():
    for page, n in (("cost", 2), ("decision", 2), ("explorer", 3)):
        check(new_app(f"app_pages/{page}.py"), n)


def test_compare_page_with_three_models():
    at = new_app("app_pages/compare.py")
    at.session_state["cmp_tab"] = "TPR at fixed FPR"
    at.run()
    check(at, 2)
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    frame = pd.DataFrame({"label": y.astype(int)} | {m: y + rng.normal(scale=s, size=300)
                                                      for m, s in (("a", 0.8), ("b", 1.0), ("c", 1.3))})
    at = uploaded_app(frame, "app_pages/compare.py", name="three.csv")
    check(at, 3)  # the leaderboard, every pair, the threshold pairs


def test_folds_page_folds_and_classes():
    at = new_app("app_pages/folds.py")
    check(at, 3)
    at.segmented_control(key="fc_avg").set_value("threshold").run()
    check(at, 3)
    at = new_app()
    at.selectbox(key="sample").set_value("wine_cv.csv").run()
    at.switch_page("app_pages/folds.py").run()
    check(at, 1)


def test_learn_data_and_coverage_pages():
    for page, n in (("learn", 3), ("data", 1), ("coverage_lab", 1)):
        check(new_app(f"app_pages/{page}.py"), n)
