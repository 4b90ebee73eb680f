"""``rocci report``: one self-contained HTML file (plotly inlined once, nothing loaded from the web) holding the
models' AUCs as the API gives them, every table with its CSV, the comparison of two models or the leaderboard
of three, and every name from the data escaped."""

from __future__ import annotations

import base64
import html
import io
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from clihelpers import A, B, SAMPLE, assert_bad_input, run, sample

import rocci


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def assert_self_contained(page: str) -> None:
    """No script, style sheet, image or frame from elsewhere; links only to attached CSVs; plotly.js once."""
    parser = _Tags()
    parser.feed(page)
    for tag, attrs in parser.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed", "base"), (tag, attrs)
        assert "src" not in attrs, (tag, attrs)
        if "href" in attrs:
            assert attrs["href"].startswith("data:text/csv;"), attrs["href"]
    assert page.count("plotly.js v") == 1  # inlined once, for every chart
    assert not re.search(r"<script[^>]+src=", page)


def _csvs(page: str) -> dict[str, pd.DataFrame]:
    return {html.unescape(m.group(1)): pd.read_csv(io.BytesIO(base64.b64decode(m.group(2))))
            for m in re.finditer(r'<a class="csv" download="([^"]+)" href="data:text/csv;charset=utf-8;base64,'
                                 r'([^"]+)"', page)}


@pytest.fixture(scope="module")
def two_models(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "report.html"
    code, out, err = run("report", SAMPLE, "--label", "label", "--models", f"{A},{B}", "-o", path)
    assert code == 0, err
    assert out.startswith(f"Wrote {path}")
    return path.read_text(encoding="utf-8")


def test_one_self_contained_file(two_models):
    assert two_models.startswith("<!DOCTYPE html>") and two_models.rstrip().endswith("</html>")
    assert_self_contained(two_models)
    assert two_models.count("Plotly.newPlot(") == 3  # ROC, cost, the law of ΔTPR


def test_the_aucs_and_the_comparison_are_the_apis(two_models):
    df = sample()
    y = df["label"] == "malignant"
    for m in (A, B):
        auc = rocci.roc_auc(y, df[m])
        assert f"{auc.auc:.6g}" in two_models and f"{auc.auc:.4f}" in two_models  # table cell, headline
        assert f"[{auc.auc_low:.4f}, {auc.auc_high:.4f}]" in two_models
    cmp = rocci.compare_auc(y, df[A], df[B])
    assert f"{cmp.delta_auc:+.4f}" in two_models and f"[{cmp.delta_auc_low:+.4f}, {cmp.delta_auc_high:+.4f}]" in two_models
    tables = _csvs(two_models)
    assert {"data_summary.csv", "auc_with_delong_intervals.csv", "threshold_regions.csv",
            "cost_at_the_operating_condition.csv", "cost_band.csv", "comparison_of_the_two_models.csv"} <= set(tables)
    aucs = tables["auc_with_delong_intervals.csv"].set_index("model")
    assert aucs.loc[A, "auc"] == rocci.roc_auc(y, df[A]).auc  # the CSV holds the numbers as computed
    numbers = tables["comparison_of_the_two_models.csv"].set_index("key")["value"]
    assert numbers["delta_auc"] == cmp.delta_auc and numbers["pvalue"] == cmp.pvalue
    w = 212 / 569  # the data's prior with equal costs
    cost = tables["cost_at_the_operating_condition.csv"]
    ref = rocci.cost_ci(y, df[A], w=[w]).to_frame()
    assert cost.loc[cost["model"] == A, "cost"].iloc[0] == pytest.approx(ref["cost"].iloc[0], rel=1e-15)
    assert len(tables["cost_band.csv"]) == 2 * 101


def test_names_from_the_data_are_escaped_and_three_models_get_a_leaderboard(tmp_path):
    df = sample()
    rng = np.random.default_rng(5)
    evil = "<b>x</b>"
    df[evil] = df[A] + rng.normal(scale=0.3, size=len(df))
    source = tmp_path / "three.parquet"
    df.to_parquet(source)
    out = tmp_path / "three.html"
    code, _, err = run("report", source, "--label", "label", "--pos", "malignant", "--models", f"{A},{B},{evil}",
                       "-o", out, "--level", "0.9")
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert evil not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "Leaderboard" in page and "Every pair" in page
    many = rocci.compare_many(df["label"] == "malignant", {m: df[m] for m in (A, B, evil)}, confidence_level=0.9,
                              fpr=0.1)
    board = _csvs(page)["leaderboard.csv"]
    assert board["model"].tolist() == many.leaderboard()["model"].tolist()
    assert board["auc_low"].tolist() == many.leaderboard()["auc_low"].tolist()
    assert "90% DeLong interval" in page


def test_bad_input_exits_2(tmp_path):
    assert "File not found" in assert_bad_input(*run("report", tmp_path / "none.csv", "--label", "label"))
    err = assert_bad_input(*run("report", SAMPLE, "--label", "label", "-o", tmp_path / "no" / "dir" / "r.html"))
    assert "Cannot write the report" in err
    assert "rocci scan" in assert_bad_input(*run("report", tmp_path, "--label", "label"))
