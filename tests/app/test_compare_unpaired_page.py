"""Compare page, two test sets (issue 32): split the rows by a column and compare a model on one set with a
model on the other; the unpaired numbers are rocci's and the page says why the interval is wider."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import assert_clean, new_app
from realistic import two_months_frame

import rocci

pytestmark = pytest.mark.apptest

PAGE = "app_pages/compare.py"


def months_app(tmp_path, frame):
    path = tmp_path / "churn_two_months.csv"
    frame.to_csv(path, index=False)
    at = new_app("app_pages/data.py")
    at.segmented_control(key="source").set_value("upload").run()
    at.file_uploader(key="upload").set_value((path.name, path.read_bytes(), "text/csv")).run()
    at.switch_page(PAGE).run()
    return at


def test_one_model_on_two_months(tmp_path):
    frame = two_months_frame()
    frame["second_model"] = np.round(frame["churn_model"] ** 1.3, 4)  # the page needs two models
    at = months_app(tmp_path, frame)
    assert_clean(at)
    assert at.selectbox(key="cmp_split").options[1:] == ["month"]  # not the ID, label or scores
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
    assert cards["ΔAUC, A − B (unpaired)"] == f"{auc.delta:+.3f}".replace("-", "−")
    text = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)
    assert "Unpaired comparison" in text and "no row is in both" in text and "wider" in text
    assert f"{auc.std:.4f}" in text and f"{100 * vc.p_a_better[0]:.1f}%" in text
    # the sd stated is the two sets' sds added in quadrature, as the caption says
    assert auc.std == pytest.approx(np.hypot(auc.std_a, auc.std_b), rel=1e-12)
    assert not any(s.value.startswith("All ") for s in at.subheader)  # the paired page is not shown
    # back to one test set: the paired verdict
    at.selectbox(key="cmp_split").set_value(at.selectbox(key="cmp_split").options[0]).run()
    assert_clean(at)
    assert any(s.value == "Is churn\\_model better than second\\_model?" for s in at.subheader)


def test_split_column_with_missing_values_counts_them(tmp_path):
    frame = two_months_frame()
    frame["second_model"] = np.round(frame["churn_model"] ** 1.3, 4)
    frame.loc[::50, "month"] = None
    at = months_app(tmp_path, frame)
    at.selectbox(key="cmp_split").set_value("month").run()
    assert_clean(at)
    missing = int(frame["month"].isna().sum())
    assert any(f"{missing:,} rows are in neither set" in c.value for c in at.caption)
