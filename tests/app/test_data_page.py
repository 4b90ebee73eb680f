"""Data page, driven by AppTest: samples, column mapping, summary, bad input."""

from __future__ import annotations

import io
import re

import pandas as pd
from apphelpers import assert_clean, data_app, figure, new_app, traces  # noqa: F401  (fixture)


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_default_sample_is_breast_cancer(data_app):
    at = data_app
    assert_clean(at)
    assert [t.value for t in at.title] == ["Data"]
    assert at.selectbox(key="sample").value == "breast_cancer_cv.csv"
    assert at.selectbox(key="label").value == "label"
    assert at.selectbox(key="pos").value == "malignant"
    assert at.multiselect(key="scores").value == ["logistic", "naive_bayes"]
    assert at.selectbox(key="fold").value == "fold"
    m = metrics(at)
    assert m["Rows used"] == "569"
    assert m["Positives"] == "212"
    assert m["Negatives"] == "357"
    assert m["Rows dropped"] == "0"


def test_summary_table_and_histograms(data_app):
    at = data_app
    summary = next(df.value for df in at.dataframe if "distinct_scores" in df.value.columns)
    assert list(summary["model"]) == ["logistic", "naive_bayes"]
    assert list(summary["positives"]) == [212, 212]
    assert summary.loc[summary.model == "naive_bayes", "distinct_scores"].item() == 70
    spec = figure(at, "hist")
    hist = traces(spec, "histogram")
    assert len(hist) == 4  # positives and negatives for each of two models
    assert {t["name"] for t in hist} == {"positives (label malignant)", "negatives (label benign)"}


def test_switch_sample(data_app):
    at = data_app
    at.selectbox(key="sample").set_value("thesis_example.csv").run()
    assert_clean(at)
    m = metrics(at)
    assert (m["Positives"], m["Negatives"]) == ("20", "40")
    assert at.multiselect(key="scores").value == ["score"]
    assert at.selectbox(key="pos").value == 1


def test_change_positive_label(data_app):
    at = data_app
    at.selectbox(key="pos").set_value("benign").run()
    assert_clean(at)
    m = metrics(at)
    assert (m["Positives"], m["Negatives"]) == ("357", "212")


def upload(at, name: str, data: bytes, mime: str = "text/csv"):
    at.segmented_control(key="source").set_value("upload").run()
    at.file_uploader(key="upload").set_value((name, data, mime)).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_upload_good_csv_with_missing_values(data_app):
    csv = b"y,model_a,model_b\n1,0.9,0.2\n0,0.1,0.4\n1,0.7,\n0,0.4,0.3\n1,0.6,0.8\n0,0.2,0.1\n"
    at = upload(data_app, "mine.csv", csv)
    assert_clean(at)
    m = metrics(at)
    assert m["Rows in the file"] == "6"
    assert m["Rows used"] == "5"
    assert m["Rows dropped"] == "1"
    assert any("1 row(s) dropped" in w.value for w in at.warning)
    assert at.multiselect(key="scores").value == ["model_a", "model_b"]


def test_upload_bad_csv_shows_error_not_traceback(data_app):
    at = upload(data_app, "bad.csv", b"label,score\n1,abc\n0,def\n1,0.3\n")
    assert not at.exception
    assert len(at.error) == 1
    message = at.error[0].value
    assert "abc" in message and "number" in message


def test_upload_one_class_only(data_app):
    at = upload(data_app, "one.csv", b"label,score\n1,0.2\n1,0.5\n1,0.3\n")
    assert not at.exception
    shown = at.error[0].value.replace("\\", "") if at.error else ""  # the box escapes Markdown
    assert "Only one label value found: 1" in shown and "both classes are needed" in shown


def test_upload_unreadable_file(data_app):
    at = upload(data_app, "junk.parquet", b"\x00\x01\x02 definitely not parquet")
    assert not at.exception
    assert at.error


def test_upload_xlsx(data_app):
    buf = io.BytesIO()
    pd.DataFrame({"target": ["yes", "no", "yes", "no"], "p": [0.8, 0.3, 0.6, 0.65]}).to_excel(buf, index=False)
    at = upload(data_app, "book.xlsx", buf.getvalue(),
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    assert_clean(at)
    assert at.selectbox(key="pos").value == "yes"
    assert metrics(at)["Positives"] == "2"


def test_long_layout_is_recognised(data_app):
    rows = ["id,label,model,score"]
    for i, (lab, a, b) in enumerate([(1, 0.9, 0.6), (0, 0.2, 0.7), (1, 0.8, 0.4), (0, 0.3, 0.1)]):
        rows += [f"{i},{lab},alpha,{a}", f"{i},{lab},beta,{b}"]
    at = upload(data_app, "long.csv", ("\n".join(rows) + "\n").encode())
    assert_clean(at)
    assert at.radio(key="layout").value == "long"
    assert at.multiselect(key="scores").value == ["alpha", "beta"]
    assert metrics(at)["Rows used"] == "4"


def test_file_text_is_not_markup(data_app):
    # Column names and labels that look like HTML/Markdown are shown escaped.
    csv = b"<b>label</b>,**score**\n[x](http://e.vil),0.1\nok,0.9\n[x](http://e.vil),0.2\nok,0.7\n"
    at = upload(data_app, "<img src=x>.csv", csv)
    assert not at.exception
    shown = [md.value for md in at.markdown] + [c.value for c in at.caption]
    assert any("img" in v for v in shown)  # the file name is shown ...
    for v in shown:
        assert not re.search(r"(?<!\\)<", v), v  # ... with every "<" escaped
        assert not re.search(r"(?<!\\)\]\(", v), v  # and no live Markdown link


def test_sidebar_shows_dataset_and_models(data_app):
    side = " ".join(m.value for m in data_app.sidebar.markdown)
    assert "breast" in side and "569" in side and "212" in side and "357" in side
    assert "logistic" in side and "naive" in side


def test_heart_sample_uses_its_score_column_only(data_app):
    at = data_app
    at.selectbox(key="sample").set_value("heart_disease_test20.csv").run()
    assert_clean(at)
    assert at.selectbox(key="label").value == "disease"
    assert at.selectbox(key="pos").value == "positive"
    assert at.multiselect(key="scores").value == ["score"]  # not the predictors


def test_choices_survive_a_visit_to_another_page(data_app):
    at = data_app
    at.selectbox(key="pos").set_value("benign").run()
    at.multiselect(key="scores").set_value(["naive_bayes"]).run()
    at.switch_page("app_pages/roc.py").run()
    assert_clean(at)
    assert [m.label for m in at.metric] == ["AUC · naive\\_bayes"]
    at.switch_page("app_pages/data.py").run()
    assert_clean(at)
    assert at.selectbox(key="pos").value == "benign"
    assert at.multiselect(key="scores").value == ["naive_bayes"]
    assert metrics(at)["Positives"] == "357"


def test_uploaded_file_stays_loaded_after_a_page_visit(data_app):
    at = upload(data_app, "mine.csv", b"y,s\n1,0.9\n0,0.1\n1,0.7\n0,0.4\n")
    at.switch_page("app_pages/roc.py").run()
    at.switch_page("app_pages/data.py").run()
    assert_clean(at)
    assert at.segmented_control(key="source").value == "upload"
    assert any("uploaded earlier" in c.value for c in at.caption)
    assert metrics(at)["Rows used"] == "4"


def test_three_classes_one_against_the_rest(data_app):
    """wine_cv.csv has three classes: the other pages analyse the chosen class against the rest."""
    import numpy as np

    import rocci

    at = data_app
    at.selectbox(key="sample").set_value("wine_cv.csv").run()
    assert not at.exception
    assert any("3 classes" in i.value and "one class against the rest" in i.value for i in at.info)
    at.selectbox(key="pos").set_value("cultivar_2").run()
    at.multiselect(key="scores").set_value(["cultivar_2"]).run()
    assert_clean(at)
    assert any("cultivar\\_1, cultivar\\_3) counts as negative" in i.value for i in at.info)
    metrics = {m.label: m.value for m in at.metric}
    df = pd.read_csv("data/wine_cv.csv")
    y = (df["class"] == "cultivar_2").to_numpy()
    assert metrics["Positives"] == f"{y.sum():,}" and metrics["Negatives"] == f"{(~y).sum():,}"
    assert any("against the other 2 classes" in m.value for m in at.sidebar.markdown)
    at.switch_page("app_pages/roc.py").run()
    assert_clean(at)
    auc = rocci.roc_auc(y, df["cultivar_2"].to_numpy())
    labels = {m.label: m.value for m in at.metric}
    assert labels["AUC · cultivar\\_2"] == f"{auc.auc:.3f}"  # the label is md-escaped
    assert 0.5 < auc.auc < 1.0 and not np.isclose(auc.auc, rocci.roc_auc(df["class"] == "cultivar_1",
                                                                           df["cultivar_2"]).auc)
