"""The Data page's "Large data (server)" source, driven by AppTest.

A temporary ROCCI_DATA_DIR holds a Parquet and a CSV file (string labels, tied scores, missing values,
two models).  The summary must give rocci.scan's numbers and those of the rows in memory; every page
must render from the counts (or say in an info box what it cannot do from them); and everything that
could read outside the directory, or that does not make sense as data, must end in an error box, never
a traceback.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apphelpers import assert_clean, decode, figure, new_app, serve, traces

import rocci
from rocci import data as rdata
from ui.cache import large

PAGES = ["roc", "cost", "compare", "explorer", "precision", "folds", "learn", "coverage_lab"]


def _frame(n=1500, seed=11) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    frame = pd.DataFrame({
        "outcome": np.where(y, "fraud", "legit"),
        "gbm": np.round(rng.normal(size=n) + 1.3 * y, 2),      # ties: two decimals
        "logit": np.round(rng.normal(size=n) + 0.7 * y, 1),    # many ties
        "site": "north",                                         # one value
        "note": np.where(rng.random(n) < 0.5, "a", "b"),        # text
    })
    frame.loc[[3, 40, 41], "gbm"] = np.nan
    frame.loc[[7, 40], "outcome"] = None
    frame.loc[[99], "logit"] = np.nan
    return frame


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    root = serve(tmp_path / "served", monkeypatch, {"scores.parquet": _frame(), "sub/scores.csv": _frame(seed=12)})
    secret = tmp_path / "secret.csv"
    _frame(seed=13).to_csv(secret, index=False)
    (root / "link.csv").symlink_to(secret)
    return root


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def large_app(**choose):
    """The Data page on the Large-data source, with the given widget values set one by one."""
    at = new_app()
    at.segmented_control(key="source").set_value("large").run()
    for key, value in choose.items():
        if key in ("lg_glob", "lg_query"):
            (at.text_input if key == "lg_glob" else at.text_area)(key=key).set_value(value).run()
        elif key == "lg_how":
            at.segmented_control(key=key).set_value(value).run()
        elif key == "lg_scores":
            at.multiselect(key=key).set_value(value).run()
        elif key == "lg_pairs":
            at.toggle(key=key).set_value(value).run()
        else:
            at.selectbox(key=key).set_value(value).run()
    return at


def scan(at):
    at.button(key="lg_scan").click().run()
    return at


def errors(at) -> list[str]:
    """The error boxes' text, with the Markdown escapes of ui.controls.error removed."""
    return [e.value.replace("\\", "") for e in at.error]


def test_not_offered_without_the_directory(monkeypatch):
    monkeypatch.delenv(large.ENV, raising=False)
    at = new_app()
    assert_clean(at)
    assert at.segmented_control(key="source").options == ["Bundled sample", "Upload a file"]
    assert large.ENV in at.segmented_control(key="source").help


def test_listing_guesses_and_summary_match_scan_and_memory(data_dir):
    at = large_app()
    assert_clean(at)
    assert at.selectbox(key="lg_file").options == ["scores.parquet", "sub/scores.csv"]  # no link leading out
    assert at.selectbox(key="lg_label").value == "outcome"
    assert at.selectbox(key="lg_pos").value == "fraud"
    assert at.multiselect(key="lg_scores").value == ["gbm", "logit"]
    assert not at.get("metric")  # nothing scanned before the button
    scan(at)
    assert_clean(at)
    res = rocci.scan(data_dir / "scores.parquet", label="outcome", scores=["gbm", "logit"], pos_label="fraud")
    frame = _frame()
    used = frame.dropna(subset=["outcome", "gbm", "logit"])
    m = metrics(at)
    assert m["Rows read"] == f"{res.n_rows_in:,}" == f"{len(frame):,}"
    assert m["Rows used"] == f"{res.n_rows_used:,}" == f"{len(used):,}"
    assert m["Rows dropped"] == f"{res.n_dropped:,}" == "5"
    assert m["Positives"] == f"{(used['outcome'] == 'fraud').sum():,}"
    assert m["Negatives"] == f"{(used['outcome'] == 'legit').sum():,}"
    assert any("outcome: 2" in w.value and "gbm: 3" in w.value and "logit: 1" in w.value for w in at.warning)
    summary = next(df.value for df in at.dataframe if "distinct_scores" in df.value.columns)
    expected = rdata.summarize(rdata.prepare_binary(frame, label="outcome", scores=["gbm", "logit"],
                                                    pos_label="fraud"))
    pd.testing.assert_frame_equal(summary.reset_index(drop=True), expected, check_dtype=False)
    hist = traces(figure(at, "hist"), "histogram")
    assert len(hist) == 4  # two classes, two models
    assert [t["meta"][1] for t in hist] == ["gbm", "gbm", "logit", "logit"]
    assert "gbm – logit" in " ".join(c.value for c in at.caption)  # the pair was reduced
    # the sidebar says where the data come from
    assert any("large data on the server" in md.value for md in at.sidebar.markdown)


def test_csv_in_a_folder_with_rounding_reports_its_effect(data_dir):
    at = large_app(lg_file="sub/scores.csv", lg_digits=2)
    scan(at)
    assert_clean(at)
    res = rocci.scan(data_dir / "sub" / "scores.csv", label="outcome", scores=["gbm", "logit"], pos_label="fraud",
                     significant_digits=2)
    rounding = next(df.value for df in at.dataframe if "auc_bound" in df.value.columns)
    assert list(rounding["model"]) == ["gbm", "logit"]
    np.testing.assert_allclose(rounding["auc_bound"], [res.rounding[m].auc_bound for m in ("gbm", "logit")])
    np.testing.assert_allclose(rounding["tpr_bound"], [res.rounding[m].table["tpr_bound"].max()
                                                       for m in ("gbm", "logit")])
    summary = next(df.value for df in at.dataframe if "distinct_scores" in df.value.columns)
    assert list(summary["distinct_scores"]) == [res["gbm"].table()[0].size, res["logit"].table()[0].size]
    # the ROC page's AUC is the counts' AUC
    at.switch_page("app_pages/roc.py").run()
    assert_clean(at)
    assert any(m.value == f"{rocci.roc_auc(res['gbm']).auc:.3f}" for m in at.metric if "gbm" in m.label)


def test_every_page_renders_from_the_counts(data_dir):
    at = scan(large_app())
    infos = {}
    for page in PAGES:
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.error, (page, errors(at))
        infos[page] = " ".join(i.value for i in at.info)
    assert "counts of the pooled rows" in infos["folds"]
    res = rocci.scan(data_dir / "scores.parquet", label="outcome", scores=["gbm", "logit"], pos_label="fraud",
                     paired=True)
    # the Compare page's DeLong ΔAUC is the pair table's
    at.switch_page("app_pages/compare.py").run()
    delta = rocci.compare_auc(res.paired("gbm", "logit")).delta_auc
    assert any(m.value == f"{delta:+.3f}" for m in at.metric)
    # the explorer and the Learn page work on the instances the counts stand for (within the limit)
    at.switch_page("app_pages/learn.py").run()
    at.segmented_control(key="ln_src").set_value("loaded").run()
    assert_clean(at)
    n_pos, n_neg = res["gbm"].n_pos, res["gbm"].n_neg
    assert any(f"{n_pos:,} positives, {n_neg:,} negatives" in md.value and "gbm" in md.value for md in at.markdown)


def test_above_the_limit_pages_say_what_is_not_available(data_dir, monkeypatch):
    at = scan(large_app())
    monkeypatch.setattr(large, "MAX_INSTANCES", 1000)
    # these pages once refused above the limit; they now run on the counts and say nothing about it
    for page, what in [("explorer", "The threshold explorer"), ("precision", "The precision–recall page"),
                       ("compare", "The dominance map")]:
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception and not at.error, (page, errors(at))
        text = " ".join(i.value for i in at.info)
        assert what not in text and "expands on this server" not in text, (page, text)
    # the analyses that work on the counts run above the limit and say nothing about it
    res = rocci.scan(data_dir / "scores.parquet", label="outcome", scores=["gbm", "logit"], pos_label="fraud",
                     paired=True)
    at.switch_page("app_pages/compare.py").run()
    infos = " ".join(i.value for i in at.info)
    assert "The exact law of the cost difference" not in infos and "The exact law of ΔTPR" not in infos, infos
    metrics_ = {m.label: m.value for m in at.metric}
    assert any(label.startswith("ΔTPR") for label in metrics_), metrics_  # the verdict's ΔTPR at a fixed FPR
    assert any(label.startswith("ΔC") or "cost" in label.lower() for label in metrics_), metrics_
    at.session_state["cmp_tab"] = "TPR at fixed FPR"  # the lazy tab with the table of ΔTPR at FPR 0.1, 0.2
    at.run()
    assert not at.exception and not at.error, errors(at)
    vtable = next(df.value for df in at.dataframe if "p_a_better" in df.value.columns)
    ref = rocci.compare_vertical(res.paired("gbm", "logit"), fpr=[0.1, 0.2])
    np.testing.assert_allclose(vtable["delta_tpr_low"], ref.delta_tpr_low, rtol=1e-12)
    at.switch_page("app_pages/roc.py").run()
    at.toggle(key="band_show").set_value(True).run()
    assert not at.exception and not at.error, errors(at)
    assert not any("The simultaneous band" in i.value for i in at.info)
    # the band drawn is rocci.roc_band's on the counts (exact, at up to 200 of their distinct scores)
    distinct = res["gbm"].table()[0][::-1]
    thresholds = distinct if distinct.size <= 200 else distinct[np.unique(np.linspace(0, distinct.size - 1, 200)
                                                                          .round().astype(int))]
    ref = rocci.roc_band(res["gbm"], thresholds=thresholds)
    assert len(traces(figure(at, "roc_chart"), "band")) == 2
    band_rows = next(df.value for df in at.dataframe if "tpr_high" in df.value.columns
                     and len(df.value) == len(ref.thresholds))
    np.testing.assert_allclose(band_rows["tpr_high"], ref.tpr_high)
    # the native analyses still run: the AUC and the threshold regions are there
    assert any(m.label.startswith("AUC") for m in at.metric)
    at.switch_page("app_pages/cost.py").run()
    assert not at.exception and not at.error, errors(at)
    assert not any("The cost difference of two models" in i.value for i in at.info)
    delta = figure(at, "cost_delta")
    cmp = rocci.compare_cost(res.paired("gbm", "logit"))
    np.testing.assert_allclose(decode(traces(delta, "delta")[0]["y"]), cmp.delta_cost)
    # the guard itself: a function that expands is refused with a message, not an out-of-memory
    an_counts = large.SCANS.get(next(iter(large.SCANS._store)))
    with pytest.raises(large.TooLarge, match="1,000"):
        an_counts.counts["gbm"].pos
    with pytest.raises(large.TooLarge):  # (the pair table's own expansion: which functions expand changes)
        an_counts.paired("gbm", "logit").arrays()
    # native functions do not expand
    rocci.threshold_ci(an_counts.counts["gbm"], thresholds=[0.5])
    rocci.compare_thresholds(an_counts.paired("logit", "gbm"), total_positive_rate=[0.2])
    rocci.roc_band(an_counts.counts["gbm"], thresholds=[0.5])
    rocci.roc_band(an_counts.counts["gbm"], kind="vertical", method="sidak", fpr=[0.1, 0.5])
    rocci.compare_cost(an_counts.paired("gbm", "logit"), w=[0.3], bootstrap="full", method="percentile")
    rocci.compare_vertical(an_counts.paired("gbm", "logit"), fpr=[0.1], method="percentile")
    rocci.threshold_table(an_counts.counts["gbm"])
    rocci.confusion_at(an_counts.counts["gbm"], None, 0.5)
    rocci.cost_threshold(an_counts.counts["gbm"], w=0.3)


def test_without_pairs_the_compare_page_says_why(data_dir):
    at = scan(large_app(lg_pairs=False))
    assert_clean(at)
    at.switch_page("app_pages/compare.py").run()
    assert_clean(at)
    assert any("Reduce pairs" in i.value for i in at.info)
    at.switch_page("app_pages/cost.py").run()
    assert_clean(at)
    assert any("Reduce pairs" in i.value for i in at.info)


@pytest.mark.parametrize("typed", ["../secret.csv", "link.csv", "sub/../../secret.csv", "/etc/passwd"])
def test_paths_outside_the_directory_are_refused(data_dir, typed):
    at = large_app(lg_glob=typed)
    assert not at.exception
    assert any("outside the data directory" in e for e in errors(at)), errors(at)
    assert "lg_label" not in [w.key for w in at.selectbox]


def test_absolute_path_outside_and_glob_over_a_link(data_dir):
    at = large_app(lg_glob=str(data_dir.parent / "secret.csv"))
    assert any("outside the data directory" in e for e in errors(at))
    at = large_app(lg_glob="*.csv")  # matches link.csv only, which leads out: DuckDB refuses it
    assert not at.exception
    assert any("DuckDB failed" in e for e in errors(at)), errors(at)


@pytest.mark.parametrize("query, message", [
    ("SELECT * FROM read_csv('/etc/passwd')", "DuckDB failed"),
    ("SELECT * FROM read_csv('{root}/link.csv')", "DuckDB failed"),
    ("COPY (SELECT 1) TO '{root}/x.csv'", "one SELECT statement"),
    ("SELECT 1; SELECT * FROM read_csv('/etc/passwd')", "one SELECT statement"),
])
def test_sql_cannot_read_or_write_outside(data_dir, query, message):
    at = large_app(lg_how="query", lg_query=query.format(root=data_dir))
    assert not at.exception
    assert any(message in e for e in errors(at)), errors(at)
    assert not (data_dir / "x.csv").exists()


def test_sql_query_inside_the_directory_works(data_dir):
    q = f"SELECT outcome, gbm, logit FROM read_parquet('{data_dir / 'scores.parquet'}') WHERE gbm > -1"
    at = scan(large_app(lg_how="query", lg_query=q))
    assert_clean(at)
    res = rocci.scan(query=q, label="outcome", scores=["gbm", "logit"], pos_label="fraud", allowed_root=data_dir)
    assert metrics(at)["Rows used"] == f"{res.n_rows_used:,}"


def test_bad_choices_give_error_boxes(data_dir):
    at = large_app(lg_label="site")  # one value
    assert not at.exception
    assert any("single value" in e for e in errors(at)), errors(at)
    at = large_app(lg_scores=["gbm", "note"])  # text scores
    assert not at.exception
    assert any("note holds VARCHAR values, not numbers" in e for e in errors(at)), errors(at)


def test_a_column_gone_from_the_file_is_an_error_box_on_every_page(data_dir):
    at = scan(large_app(lg_pairs=False))
    assert_clean(at)
    _frame().drop(columns=["logit"]).to_parquet(data_dir / "scores.parquet", index=False)
    large.SCANS.clear()  # the server forgot the counts (restart, memory): the pages scan again
    for page in ("roc", "cost"):
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("No column 'logit'" in e for e in errors(at)), errors(at)


# --------------------------------------------------------------------------
# a fold / group column: each fold's counts, and the Folds & classes page from them
# --------------------------------------------------------------------------


def _cv_frame(n=1200, seed=21) -> pd.DataFrame:
    """Cross-validation output: 5 folds of unequal sizes (8 rows without a fold), two tied models, an id column."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    fold = rng.choice([1, 2, 3, 4, 5], n, p=[0.1, 0.15, 0.2, 0.25, 0.3]).astype(float)
    fold[rng.choice(n, 8, replace=False)] = np.nan
    frame = pd.DataFrame({
        "outcome": np.where(y, "fraud", "legit"),
        "gbm": np.round(rng.normal(size=n) + 1.1 * y, 1),
        "logit": np.round(rng.normal(size=n) + 0.6 * y, 1),
        "fold": pd.array(fold, dtype="Int64"),  # integers with missing values (NULL in Parquet)
        "row_id": np.arange(n),
    })
    frame.loc[[5, 6], "gbm"] = np.nan
    return frame


@pytest.fixture
def cv_dir(tmp_path, monkeypatch):
    return serve(tmp_path / "cv", monkeypatch, {"cv.parquet": _cv_frame()})


def _rows(frame):
    prep = rdata.prepare_binary(frame.astype({"fold": float}), label="outcome", scores=["gbm", "logit"],
                                pos_label="fraud", fold="fold")
    return prep.is_positive, prep.scores, prep.fold.astype(np.int64)  # the rows used have a fold: whole numbers


def test_fold_column_scans_each_folds_counts_and_the_folds_page_uses_them(cv_dir):
    at = large_app()
    assert at.selectbox(key="lg_group").value is None  # none by default
    assert at.selectbox(key="lg_group").options[0] == "— none —"
    at.selectbox(key="lg_group").set_value("fold").run()
    assert_clean(at)
    scan(at)
    assert_clean(at)
    frame = _cv_frame()
    y, scores, f = _rows(frame)
    # the summary: the folds, their sizes, and the rows dropped for a missing fold
    captions = " ".join(c.value for c in at.caption)
    assert "Fold column **fold**: 5 folds" in captions, captions
    for g in (1, 2, 3, 4, 5):
        n_g, p_g = int((f == g).sum()), int(y[f == g].sum())
        assert f"{g}: {n_g:,} rows ({p_g:,} positive)" in captions, (g, captions)
    assert "**8 rows with no fold value dropped**" in captions
    assert metrics(at)["Rows dropped"] == "10"  # 8 without a fold, 2 without a gbm score
    assert any("fold: 8" in w.value and "gbm: 2" in w.value for w in at.warning)

    at.switch_page("app_pages/folds.py").run()
    assert_clean(at)
    assert not at.info, [i.value for i in at.info]
    a, b = scores["gbm"], scores["logit"]
    curves = rocci.fold_roc_curves(y, a, f)
    m = metrics(at)
    assert m["Folds"] == "5"
    assert m["Mean of the fold AUCs"] == f"{curves.auc.mean():.4f}"
    assert m["AUC of the pooled data"] == f"{rocci.roc_curve(y, a).auc:.4f}"
    assert "8 rows with no fold value dropped" in " ".join(c.value for c in at.caption)
    per_fold = next(df.value for df in at.dataframe if "auc" in df.value.columns and "n_pos" in df.value.columns)
    np.testing.assert_array_equal(per_fold["n_pos"], curves.to_frame()["n_pos"])
    np.testing.assert_array_equal(per_fold["auc"], curves.auc)
    spec = figure(at, "fc_folds_chart")
    assert [t["meta"][1] for t in traces(spec, "fold")] == ["1", "2", "3", "4", "5"]
    vert = rocci.fold_vertical_average(y, a, f)
    mean = next(t for t in traces(spec, "vertical-average") if t["meta"][1] == "mean")
    np.testing.assert_array_equal(decode(mean["y"]), vert.tpr_mean)
    # threshold averaging
    at.segmented_control(key="fc_avg").set_value("threshold").run()
    assert_clean(at)
    thr = rocci.fold_threshold_average(y, a, f, n_thresholds=20)
    pts = traces(figure(at, "fc_folds_chart"), "threshold-average")
    xs = next(t for t in pts if t["meta"][1] == "points")
    np.testing.assert_array_equal(decode(xs["x"]), thr.fpr_mean)
    # the paired t-test over folds, from each model's per-fold counts
    cmp = rocci.compare_folds(y, a, b, f)
    assert metrics(at)["Mean AUC difference (A − B)"] == f"{cmp.mean:+.4f}"
    assert metrics(at)["p-value (two-sided)"] == f"{cmp.pvalue:.4f}"
    at.segmented_control(key="fc_measure").set_value("error").run()
    assert_clean(at)
    cmp = rocci.compare_folds(y, a, b, f, measure="error", thresholds_a=0.5)
    assert metrics(at)["Mean error rate difference (A − B)"] == f"{cmp.mean:+.4f}"


def test_fold_column_with_too_many_values_is_refused(cv_dir):
    at = large_app(lg_group="row_id")
    assert not at.exception
    text = " ".join(errors(at))
    assert "row_id has more than 100 different values" in text and "Choose the column of folds, or none" in text
    assert "lg_scan" not in [b.key for b in at.button]  # nothing to scan with it


def test_a_fold_with_one_class_gives_the_rows_message_on_the_folds_page(cv_dir):
    frame = _cv_frame()
    frame.loc[frame["fold"] == 2, "outcome"] = "legit"
    frame.to_parquet(cv_dir / "cv.parquet", index=False)
    at = scan(large_app(lg_group="fold"))
    assert_clean(at)
    assert "one class only" in " ".join(c.value for c in at.caption)
    at.switch_page("app_pages/folds.py").run()
    assert not at.exception
    y, scores, f = _rows(frame)
    with pytest.raises(rocci.InputError) as from_rows:
        rocci.fold_roc_curves(y, scores["gbm"], f)
    assert errors(at) == [str(from_rows.value).replace("\\", "")]
    # the other pages work from the pooled counts
    at.switch_page("app_pages/roc.py").run()
    assert_clean(at)


def test_without_a_fold_column_the_folds_page_says_how_to_get_one(cv_dir):
    at = scan(large_app())
    at.switch_page("app_pages/folds.py").run()
    assert_clean(at)
    text = " ".join(i.value for i in at.info).replace("\\", "")
    assert "choose the “Fold / group column” and scan again" in text, text


# --------------------------------------------------------------------------
# another file: its own columns are guessed again; the user's choices for one file are kept across reruns
# --------------------------------------------------------------------------


def _other_frame(n=900, seed=31) -> pd.DataFrame:
    """Other column names than _frame's: a 0/1 label named ``target``, two models named like probabilities."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    return pd.DataFrame({
        "row_id": np.arange(n),
        "target": y.astype(int),
        "p_forest": np.round(rng.random(n) * 0.5 + 0.4 * y, 2),
        "p_boost": np.round(rng.random(n) * 0.6 + 0.3 * y, 2),
        "cv_fold": rng.integers(1, 4, n),
    })


def test_another_file_gets_its_own_column_guesses(data_dir):
    _other_frame().to_parquet(data_dir / "other.parquet", index=False)
    at = large_app(lg_file="scores.parquet")
    assert at.selectbox(key="lg_file").options == ["other.parquet", "scores.parquet", "sub/scores.csv"]
    assert at.multiselect(key="lg_scores").value == ["gbm", "logit"]
    # the user's own choices for this file stay across reruns
    at.multiselect(key="lg_scores").set_value(["logit"]).run()
    at.run()
    assert at.multiselect(key="lg_scores").value == ["logit"]
    assert at.selectbox(key="lg_label").value == "outcome"

    at.selectbox(key="lg_file").set_value("other.parquet").run()
    assert_clean(at)
    guess = rdata.guess_columns(_other_frame())
    assert guess["label"] == "target" and guess["scores"][:2] == ["p_forest", "p_boost"]
    assert at.selectbox(key="lg_label").value == "target"
    assert at.selectbox(key="lg_pos").value == 1
    scores = at.multiselect(key="lg_scores")
    assert "gbm" not in scores.options and {"p_forest", "p_boost"} <= set(scores.options)
    assert scores.value == [c for c in guess["scores"] if c != "target"]
    assert at.selectbox(key="lg_group").value is None
    # the choices made for the new file stay across reruns, and are the ones scanned
    at.multiselect(key="lg_scores").set_value(["p_boost"]).run()
    at.selectbox(key="lg_group").set_value("cv_fold").run()
    at.run()
    assert at.multiselect(key="lg_scores").value == ["p_boost"]
    assert at.selectbox(key="lg_group").value == "cv_fold"
    scan(at)
    assert_clean(at)
    res = rocci.scan(data_dir / "other.parquet", label="target", scores=["p_boost"], pos_label=1, group="cv_fold")
    assert metrics(at)["Rows used"] == f"{res.n_rows_used:,}"
    # back to the first file: its columns are guessed again (the choices made above were for the other file)
    at.selectbox(key="lg_file").set_value("scores.parquet").run()
    assert_clean(at)
    assert at.selectbox(key="lg_label").value == "outcome"
    assert at.selectbox(key="lg_pos").value == "fraud"
    assert at.multiselect(key="lg_scores").value == ["gbm", "logit"]
    assert at.selectbox(key="lg_group").value is None
    # a page away and back: the scanned file's choices come back as they were (not guessed again)
    at.selectbox(key="lg_file").set_value("other.parquet").run()
    at.switch_page("app_pages/roc.py").run()
    at.switch_page("app_pages/data.py").run()
    assert_clean(at)
    assert at.selectbox(key="lg_file").value == "other.parquet"
    assert at.multiselect(key="lg_scores").value == ["p_boost"]
    assert at.selectbox(key="lg_group").value == "cv_fold"
