"""Coverage lab figure: panel titles side by side wrap (a phone-wide chart has ~125 px per panel), a
parenthesis starting its own line; one column keeps them whole."""

from __future__ import annotations

import types

import numpy as np
import pandas as pd

from rocci.coverage import EXPERIMENTS
from rocci.plots.coverage import PANEL_TITLE_WIDTH, coverage_figure

PANELS = ("1% positives (20 of 2,000)", "10% positives (200 of 2,000)", "50% positives (1,000 of 2,000)")


def _study(panels):
    rows = [dict(panel=p, series=s, x=x, coverage=0.95, se=0.01, kind="simulation", replicates=200)
            for p in panels for s in ("percentile", "wald") for x in (0.1, 0.5, 0.9)]
    return types.SimpleNamespace(frame=pd.DataFrame(rows), experiment=EXPERIMENTS["pr_recall"], target=0.95)


def test_long_panel_titles_wrap_when_panels_sit_side_by_side():
    fig = coverage_figure(_study(PANELS))
    titles = [a.text for a in fig.layout.annotations]
    assert titles == ["1% positives<br>(20 of 2,000)", "10% positives<br>(200 of 2,000)",
                      "50% positives<br>(1,000 of 2,000)"]
    assert all(len(line) <= PANEL_TITLE_WIDTH for t in titles for line in t.split("<br>"))
    assert {a.font.size for a in fig.layout.annotations} == {13}
    one_line = coverage_figure(_study(("θ = 1, ρ = 0.3", "n = 10,000")))
    assert [a.text for a in one_line.layout.annotations] == ["θ = 1, ρ = 0.3", "n = 10,000"]
    # the wrapped titles get a line more of top margin
    assert fig.layout.margin.t == one_line.layout.margin.t + 18


def test_one_column_keeps_titles_whole():
    fig = coverage_figure(_study(PANELS), columns=1)
    assert [a.text for a in fig.layout.annotations] == list(PANELS)
    assert np.isclose(fig.layout.margin.t, coverage_figure(_study(("a", "b")), columns=1).layout.margin.t)
