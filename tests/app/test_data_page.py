"""Data page, driven by AppTest: samples, column mapping, summary, bad input."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
import apphelpers
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
    at = apphelpers.upload(at, name, data, mime)
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


# --------------------------------------------------------------------------
# issue 12 (positive class, histograms, messages) and issue 18 (wide files, warnings)
# --------------------------------------------------------------------------

BAD_FILES = __import__("pathlib").Path(__file__).resolve().parents[1] / "bad_files"


def _plain(text: str) -> str:
    """Markdown-escaped text as a person reads it."""
    return text.replace("\\", "")


def churn_csv(n: int = 400, share: float = 0.12, seed: int = 5) -> bytes:
    import numpy as np

    rng = np.random.default_rng(seed)
    churn = rng.random(n) < share
    a = np.round(rng.normal(size=n) + 1.2 * churn, 4)
    b = np.round(rng.normal(size=n) + 0.6 * churn, 4)
    lines = ["customer,status,tenure_model,usage_model"]
    lines += [f"C{i},{'churn' if c else 'stay'},{x},{y}" for i, (c, x, y) in enumerate(zip(churn, a, b))]
    return ("\n".join(lines) + "\n").encode()


def test_string_labels_preselect_the_positive_class_and_say_why(data_app):
    at = upload(data_app, "churn.csv", churn_csv())
    assert_clean(at)
    assert at.selectbox(key="label").value == "status"
    assert at.selectbox(key="pos").value == "churn"
    notes = [_plain(c.value) for c in at.caption if "Positive =" in c.value]
    assert notes == ["Positive = **churn** (a usual name for the positive class, 13%). Change it here if needed."]
    m = metrics(at)
    assert (m["Positives"], m["Negatives"]) == ("52", "348")
    # every other page works at once, with no choice made on the Data page
    for page in ("app_pages/roc.py", "app_pages/cost.py", "app_pages/explorer.py"):
        at.switch_page(page).run()
        assert not at.exception and not at.error, (page, [e.value for e in at.error])
    at.switch_page("app_pages/data.py").run()
    at.selectbox(key="pos").set_value("stay").run()
    assert_clean(at)
    notes = [_plain(c.value) for c in at.caption if "Positive =" in c.value]
    assert notes == ["Positive = **stay** (your choice, 87% of the rows)."]


def test_rarer_class_is_the_default_positive(data_app):
    at = upload(data_app, "rare.csv", (BAD_FILES / "rare_class.csv").read_bytes())
    assert_clean(at)
    assert at.selectbox(key="pos").value == "blue"
    assert any("(the rarer class, 20%)" in _plain(c.value) for c in at.caption)
    assert metrics(at)["Positives"] == "5"


def test_equal_classes_preselect_one_and_ask_to_check(data_app):
    at = upload(data_app, "tie.csv", b"grp,s\na,0.1\nb,0.9\na,0.3\nb,0.6\n")
    assert_clean(at)
    assert at.selectbox(key="pos").value == "b"
    assert any("check it" in c.value for c in at.caption)


def test_histograms_show_each_class_as_a_share_by_default(data_app):
    import numpy as np

    from apphelpers import decode

    at = upload(data_app, "churn.csv", churn_csv())
    assert at.segmented_control(key="hist_scale").value == "share"
    hist = traces(figure(at, "hist"), "histogram")
    assert len(hist) == 4
    for t in hist:
        y = np.asarray(decode(t["y"]), dtype=float)
        assert y.sum() == pytest.approx(100.0)  # each class adds up to 100%
        custom = np.asarray(decode(t["customdata"]), dtype=float)
        counts = custom[:, 2]
        assert counts.sum() in (52, 348)  # counts on hover
        np.testing.assert_allclose(custom[:, 3], 100 * counts / counts.sum())
    assert any("share of its own size" in c.value for c in at.caption)
    at.segmented_control(key="hist_scale").set_value("count").run()
    assert_clean(at)
    hist = traces(figure(at, "hist"), "histogram")
    assert sorted(np.asarray(decode(t["y"]), dtype=float).sum() for t in hist) == [52, 52, 348, 348]


def test_wide_file_preselects_a_handful_and_says_so(data_app):
    from bad_files import corpus

    at = upload(data_app, "wide.csv", corpus.wide_csv())
    assert_clean(at)
    scores = at.multiselect(key="scores").value
    assert len(scores) == 6 and {"p_model_0", "score_b"} <= set(scores)
    (info,) = [i.value for i in at.info]
    assert "9,999 numeric columns" in info and "at most 6 are preselected" in info
    assert any("first 50 of 10,000 columns" in c.value for c in at.caption)
    preview = at.dataframe[0].value
    assert preview.shape == (100, 50)
    assert len(traces(figure(at, "hist"), "histogram")) == 12  # 6 models x 2 classes
    # choosing many models draws the histograms of the first 12 only
    at.multiselect(key="scores").set_value([f"x{i}" for i in range(20, 40)]).run()
    assert_clean(at)
    assert len(traces(figure(at, "hist"), "histogram")) == 24
    assert any("first 12 of the 20 chosen models" in c.value for c in at.caption)


def test_headerless_file_shows_a_warning(data_app):
    at = upload(data_app, "no_header.csv", (BAD_FILES / "no_header.csv").read_bytes())
    assert not at.exception and not at.error
    (warning,) = [_plain(w.value) for w in at.warning]
    assert "no header row" in warning and "(1, 0.82)" in warning
    assert metrics(at)["Rows in the file"] == "11"


def test_excel_sep_line_file(data_app):
    at = upload(data_app, "excel.csv", (BAD_FILES / "excel_sep_line.csv").read_bytes())
    assert_clean(at)
    assert at.selectbox(key="label").value == "y" and at.multiselect(key="scores").value == ["s"]
    assert metrics(at)["Rows used"] == "6"


@pytest.mark.parametrize(
    "name, words",
    [
        ("one_class.csv", ["Only one label value found: 'yes'", "both classes are needed"]),
        ("struct_column.parquet", ["label column 'y' holds structs"]),
        ("web_page.csv", ["is not a table", "web page (HTML)"]),
        ("not_a_table.png", ["binary data"]),
    ],
)
def test_bad_files_give_one_clear_error(data_app, name, words):
    upload_name = name if not name.endswith(".png") else "picture.csv"
    at = upload(data_app, upload_name, (BAD_FILES / name).read_bytes())
    assert at.error, name
    shown = _plain(at.error[0].value)
    for w in words:
        assert w in shown, (w, shown)
    assert not at.warning or all("Choose the **Positive label**" not in w.value for w in at.warning)


def test_list_score_column_chosen_gives_an_error(data_app):
    at = upload(data_app, "nested.parquet", (BAD_FILES / "nested_extra_column.parquet").read_bytes())
    assert_clean(at)
    assert at.multiselect(key="scores").value == ["s"]  # the nested columns are not guessed
    at.multiselect(key="scores").set_value(["s", "tags"]).run()
    assert not at.exception
    assert at.error and "score column 'tags' holds lists" in _plain(at.error[0].value)
