"""Compare page, two test sets (issue 32): split the rows by a column and compare a model on one set with a
model on the other; the unpaired numbers are rocci's and the page says why the interval is wider."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import assert_clean, uploaded_app
from realistic import two_months_frame

import rocci
from ui import operating
from ui.text import signed_interval

pytestmark = pytest.mark.apptest

PAGE = "app_pages/compare.py"


def months_app(tmp_path, frame):
    path = tmp_path / "churn_two_months.csv"
    frame.to_csv(path, index=False)
    at = uploaded_app(path, PAGE)
    return at


def test_one_model_on_two_months(tmp_path):
    frame = two_months_frame()
    frame["second_model"] = np.round(frame["churn_model"] ** 1.3, 4)  # the page needs two models
    at = months_app(tmp_path, frame)
    assert_clean(at)
    at.segmented_control(key="cmp_sets").set_value("split").run()
    assert at.selectbox(key="cmp_split").options == ["month"]  # not the ID, label or scores
    at.selectbox(key="cmp_split").set_value("month").run()
    at.selectbox(key="cmp_set_a").set_value("2026-09").run()
    at.selectbox(key="cmp_set_b").set_value("2026-10").run()
    at.selectbox(key="cmp_umodel_b").set_value("churn_model").run()
    assert_clean(at)
    a, b = frame[frame.month == "2026-09"], frame[frame.month == "2026-10"]
    ya, yb = a.status.to_numpy() == "churned", b.status.to_numpy() == "churned"
    auc = rocci.compare_auc_unpaired(ya, a.churn_model.to_numpy(), yb, b.churn_model.to_numpy())
    vc = rocci.compare_vertical_unpaired(ya, a.churn_model.to_numpy(), yb, b.churn_model.to_numpy(), fpr=[0.1])
    cards = {m.label: m.value for m in at.metric}
    assert cards["ΔAUC, A − B (unpaired)"] == f"{auc.delta_auc:+.3f}".replace("-", "−")
    text = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)
    assert "Unpaired comparison" in text and "no row is in both" in text and "wider" in text
    assert "compared **unpaired**" in text and "compared **paired**" not in text  # the page's caption too
    assert "Every row is in set A or set B." in text and "rows are in neither set" not in text  # two months only
    assert f"{auc.delta_auc_std:.4f}" in text and f"{100 * vc.p_a_better[0]:.1f}%" in text
    # the sd stated is the two sets' sds added in quadrature, as the caption says
    assert auc.delta_auc_std == pytest.approx(np.hypot(auc.auc_std_a, auc.auc_std_b), rel=1e-12)
    assert not any(s.value.startswith("All ") for s in at.subheader)  # the paired page is not shown
    # the cost card: default condition = the file's share of churners, equal costs (w = that share, k = 1)
    share = float((frame.status == "churned").mean())
    cc = rocci.compare_cost_unpaired(ya, a.churn_model.to_numpy(), yb, b.churn_model.to_numpy(), w=[share])
    assert cards["ΔCost per 1,000, A − B (unpaired)"] == operating.signed_money(1000 * float(cc.delta_cost[0]))
    assert f"{100 * cc.p_a_cheaper[0]:.1f}%** of bootstrap worlds" in text
    assert f"{float(cc.cost_a[0]):.4f} (threshold {float(cc.threshold_a[0]):.4g})" in text
    # the operating point typed directly: the normalised difference, its interval as the caption says
    at.segmented_control(key="op_by").set_value("w").run()
    at.slider(key="op_w").set_value(0.3).run()
    assert_clean(at)
    cc = rocci.compare_cost_unpaired(ya, a.churn_model.to_numpy(), yb, b.churn_model.to_numpy(), w=[0.3])
    d, lo, hi = signed_interval(float(cc.delta_cost[0]), float(cc.delta_cost_low[0]), float(cc.delta_cost_high[0]), 4)
    assert {m.label: m.value for m in at.metric}["ΔCost, A − B (unpaired)"] == d
    assert any(f"interval [{lo}, {hi}]" in c.value for c in at.caption)
    # back to one test set: the paired verdict
    at.segmented_control(key="cmp_sets").set_value("one").run()
    assert_clean(at)
    assert any(s.value == "Is churn\\_model better than second\\_model?" for s in at.subheader)


def test_split_column_with_missing_values_counts_them(tmp_path):
    frame = two_months_frame()
    frame["second_model"] = np.round(frame["churn_model"] ** 1.3, 4)
    frame.loc[::50, "month"] = None
    at = months_app(tmp_path, frame)
    at.segmented_control(key="cmp_sets").set_value("split").run()
    at.selectbox(key="cmp_split").set_value("month").run()
    assert_clean(at)
    missing = int(frame["month"].isna().sum())
    assert any(f"{missing:,} rows are in neither set" in c.value for c in at.caption)


def test_two_files_from_different_months(tmp_path):
    """The second-file route: September's file loaded on the Data page, October's uploaded on the Compare
    page; the same model column on both; numbers equal compare_auc_unpaired's, rows dropped counted."""
    frame = two_months_frame()
    frame["second_model"] = np.round(frame["churn_model"] ** 1.3, 4)
    sep = frame[frame.month == "2026-09"].drop(columns="month")
    oct_ = frame[frame.month == "2026-10"].drop(columns="month").copy()
    oct_.loc[oct_.index[:7], "churn_model"] = np.nan  # seven rows without a score
    at = months_app(tmp_path, sep)
    at.segmented_control(key="cmp_sets").set_value("second").run()
    assert_clean(at)
    assert any("Upload the second test set" in c.value for c in at.caption)
    path = tmp_path / "churn_2026-10.csv"
    oct_.to_csv(path, index=False)
    at.file_uploader(key="cmp_second_file").set_value((path.name, path.read_bytes(), "text/csv")).run()
    assert_clean(at)
    assert at.selectbox(key="cmp_umodel_b2").value == "churn_model"  # the same column name as model A
    keep = oct_["churn_model"].notna()
    ref = rocci.compare_auc_unpaired(sep.status.to_numpy() == "churned", sep.churn_model.to_numpy(),
                                     oct_.status[keep].to_numpy() == "churned", oct_.churn_model[keep].to_numpy())
    cards = {m.label: m.value for m in at.metric}
    assert cards["ΔAUC, A − B (unpaired)"] == f"{ref.delta_auc:+.3f}".replace("-", "−")
    text = " ".join(c.value for c in at.caption)
    assert "7 rows of churn\\_2026\\-10\\.csv had a missing label or score" in text
    assert f"{ref.delta_auc_std:.4f}" in text


def test_second_file_without_the_label_column_says_so(tmp_path):
    frame = two_months_frame()
    frame["second_model"] = np.round(frame["churn_model"] ** 1.3, 4)
    at = months_app(tmp_path, frame.drop(columns="month"))
    at.segmented_control(key="cmp_sets").set_value("second").run()
    other = frame.rename(columns={"status": "churn_status"})
    path = tmp_path / "other.csv"
    other.to_csv(path, index=False)
    at.file_uploader(key="cmp_second_file").set_value((path.name, path.read_bytes(), "text/csv")).run()
    assert not at.exception
    assert any("has no column" in e.value and "status" in e.value for e in at.error), [e.value for e in at.error]
