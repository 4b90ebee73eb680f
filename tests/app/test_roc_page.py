"""ROC page, driven by AppTest: curves, AUC, regions, vertical intervals, URL state."""

from __future__ import annotations

import re

import numpy as np
import pytest
from apphelpers import ROOT, assert_clean, decode, figure, new_app, roc_app, traces  # noqa: F401  (fixture)

import rocci
from rocci import data as rdata


def table(at, key_column: str):
    return next(df.value for df in at.dataframe if key_column in df.value.columns)


def test_default_page_draws_both_models_with_rectangles(roc_app):
    at = roc_app
    assert_clean(at)
    spec = figure(at, "roc_chart")
    roc = traces(spec, "roc")
    assert [t["meta"][1] for t in roc] == ["logistic", "naive_bayes"]
    assert all(t["line"]["shape"] == "hv" for t in roc)
    regions = traces(spec, "threshold-region")
    assert len(regions) == 1 and regions[0]["meta"][1] == "rectangle"
    assert regions[0]["fill"] == "toself"
    points = traces(spec, "threshold-points")
    assert len(decode(points[0]["x"])) == 9  # the default even grid of 9 points
    # The drawn curve is the exact curve (small n: every vertex).
    curve = rocci.roc_curve(*_arrays("logistic"))
    np.testing.assert_allclose(decode(roc[0]["x"]), curve.fpr)
    np.testing.assert_allclose(decode(roc[0]["y"]), curve.tpr)
    # Export settings of the toolbar.
    chart = next(el for el in at.get("plotly_chart") if el.proto.id.endswith("-roc_chart"))
    assert "toImageButtonOptions" in chart.proto.config


def _arrays(model, sample="breast_cancer_cv.csv"):
    """(is_positive, scores) of a bundled sample, prepared as the dashboard does."""
    df = rocci.load_table(ROOT / "data" / sample)
    g = rdata.guess_columns(df)
    pos = rdata.guess_pos_label(rdata.label_values(df, g["label"]))
    prep = rdata.prepare_binary(df, label=g["label"], scores=g["scores"], pos_label=pos)
    return prep.is_positive, prep.scores[model]


def test_auc_metric_and_interval(roc_app):
    at = roc_app
    labels = {m.label: m.value for m in at.metric}
    y, s = _arrays("logistic")
    res = rocci.roc_auc(y, s, method="delong")
    assert labels["AUC · logistic"] == f"{res.auc:.3f}"
    captions = " ".join(c.value for c in at.caption)
    assert f"95% DeLong interval **[{res.auc_low:.3f}, {res.auc_high:.3f}]**" in captions


def test_auc_method_changes_interval(roc_app):
    at = roc_app
    at.selectbox(key="auc_method").set_value("exact-bootstrap").run()
    assert_clean(at)
    y, s = _arrays("naive_bayes")
    res = rocci.roc_auc(y, s, method="exact-bootstrap")
    auc_table = table(at, "auc")
    row = auc_table[auc_table.model == "naive_bayes"].iloc[0]
    assert row["method"] == "exact-bootstrap"
    assert row["auc_low"] == pytest.approx(res.auc_low) and row["auc_high"] == pytest.approx(res.auc_high)


def test_typed_threshold_matches_thesis_point_b():
    # Thesis example: at threshold 0.48, TPR 0.65 (13/20) and FPR 0.175 (7/40).
    at = new_app()
    at.selectbox(key="sample").set_value("thesis_example.csv").run()
    at.switch_page("app_pages/roc.py").run()
    at.segmented_control(key="thr_by").set_value("thr").run()
    at.text_input(key="thr").input("0.48").run()
    assert_clean(at)
    tab = table(at, "total_positive_rate")
    assert len(tab) == 1
    row = tab.iloc[0]
    assert row["threshold"] == pytest.approx(0.48)
    assert row["tpr"] == pytest.approx(0.65) and row["fpr"] == pytest.approx(0.175)
    assert (row["tp"], row["fp"]) == (13, 7)
    assert row["tpr_low"] < 0.65 < row["tpr_high"]


def test_total_positive_rate_mode(roc_app):
    at = roc_app
    at.segmented_control(key="thr_by").set_value("rate").run()
    at.text_input(key="rate").input("0.2, 0.5").run()
    assert_clean(at)
    tab = table(at, "total_positive_rate")
    assert len(tab) == 2


def test_ellipse_region(roc_app):
    at = roc_app
    at.selectbox(key="region").set_value("ellipse").run()
    assert_clean(at)
    spec = figure(at, "roc_chart")
    regions = traces(spec, "threshold-region")
    assert regions and regions[0]["meta"][1] == "ellipse"


def test_vertical_bars_and_band(roc_app):
    at = roc_app
    at.toggle(key="vert_show").set_value(True).run()
    assert_clean(at)
    spec = figure(at, "roc_chart")
    bars = traces(spec, "vertical-bars")
    assert len(bars) == 1 and "error_y" in bars[0]
    vtab = table(at, "r")
    assert len(vtab) == 5
    assert (vtab["tpr_low"] <= vtab["tpr_high"]).all()
    at.segmented_control(key="vert_style").set_value("band").run()
    assert_clean(at)
    band = traces(figure(at, "roc_chart"), "vertical-band")
    assert {t["meta"][1] for t in band} == {"low", "high", "points"}


def test_bad_typed_levels_warn_without_exception(roc_app):
    at = roc_app
    at.toggle(key="vert_show").set_value(True).run()
    at.text_input(key="fpr").input("0.1, banana").run()
    assert not at.exception
    assert any("banana" in w.value for w in at.warning)


def test_typed_text_from_a_shared_link_is_not_markup():
    at = new_app("app_pages/roc.py", {"vert_show": "true", "fpr": "[click](http://e.vil)"})
    assert not at.exception
    (warning,) = at.warning
    assert r"\[click\]\(http" in warning.value  # shown literally ...
    assert not re.search(r"(?<!\\)\]\(", warning.value)  # ... never as a live link


def test_bootstrap_size_m(roc_app):
    at = roc_app
    at.number_input(key="m_pos").set_value(50).run()
    at.number_input(key="m_neg").set_value(80).run()
    assert_clean(at)
    assert any("m+ = 50, m− = 80" in c.value for c in at.caption)


def test_model_picker_moves_the_intervals(roc_app):
    at = roc_app
    at.selectbox(key="model").set_value("naive_bayes").run()
    assert_clean(at)
    spec = figure(at, "roc_chart")
    assert "naive_bayes" in traces(spec, "threshold-region")[0]["name"]


def test_choices_restored_from_the_url():
    at = new_app("app_pages/roc.py", {"level": "90%", "region": "Ellipse", "auc_method": "Hanley-McNeil",
                                  "vert_show": "true", "grid": "4"})
    assert_clean(at)
    assert at.select_slider(key="level").value == 0.9
    assert at.selectbox(key="region").value == "ellipse"
    assert at.selectbox(key="auc_method").value == "hanley-mcneil"
    assert at.toggle(key="vert_show").value is True
    assert len(table(at, "total_positive_rate")) == 4


def test_bad_data_mapping_shows_error_on_roc_page():
    at = new_app()
    at.multiselect(key="scores").set_value([]).run()
    at.switch_page("app_pages/roc.py").run()
    assert not at.exception
    assert at.error and "score column" in at.error[0].value


def test_band_levels_are_distinct_attainable_fprs():
    at = new_app()
    at.selectbox(key="sample").set_value("heart_disease_test20.csv").run()  # 10 negatives
    at.switch_page("app_pages/roc.py").run()
    at.toggle(key="vert_show").set_value(True).run()
    at.segmented_control(key="vert_style").set_value("band").run()
    assert_clean(at)
    vtab = table(at, "r")
    assert list(vtab["r"]) == list(range(1, 10))
    np.testing.assert_allclose(vtab["fpr"], np.arange(1, 10) / 10)


def test_vertical_default_is_the_score_interval_and_zero_width_intervals_are_flagged():
    """Score (Algorithm 4.3) is the default; a zero-width percentile interval near TPR = 1 gets a warning."""
    at = new_app("app_pages/roc.py", {"vert_show": "true", "fpr": "0.3, 0.9"})
    assert_clean(at)
    y, s = _arrays("logistic")
    ref = rocci.vertical_ci(y, s, fpr=[0.3, 0.9], method="score")
    vtab = table(at, "r")
    np.testing.assert_allclose(vtab["tpr_low"], ref.tpr_low, rtol=1e-12)
    np.testing.assert_allclose(vtab["tpr_high"], ref.tpr_high, rtol=1e-12)
    assert (vtab["tpr_high"] - vtab["tpr_low"] > 0).all()
    assert not at.warning
    pct = rocci.vertical_ci(y, s, fpr=[0.3, 0.9], method="percentile")
    assert pct.tpr_low[1] == pct.tpr_high[1] == 1.0  # the bootstrap law at FPR .9 is a point mass at 1
    at = new_app("app_pages/roc.py", {"vert_show": "true", "fpr": "0.3, 0.9", "vert_method": "Percentile"})
    assert not at.exception
    assert any("zero width" in w.value for w in at.warning)


def test_simultaneous_band_is_drawn_from_roc_band_and_explained():
    """The "Simultaneous band" toggle draws rocci.roc_band's region (exact, at every distinct score when
    there are at most 200), hatched, says what it promises with the calibrated numbers, and tabulates it."""
    at = new_app("app_pages/roc.py", query={"band_show": "true"})
    assert_clean(at)
    y, s = _arrays("logistic")
    distinct = np.unique(s)[::-1]
    ref = rocci.roc_band(y, s, thresholds=distinct if distinct.size <= 200 else
                         distinct[np.unique(np.linspace(0, distinct.size - 1, 200).round().astype(int))])
    spec = figure(at, "roc_chart")
    lower, upper = traces(spec, "band")
    x, lo, hi = ref.envelope()
    np.testing.assert_allclose(decode(lower["x"]), x)
    np.testing.assert_allclose(decode(lower["y"])[:-1], lo)
    np.testing.assert_allclose(decode(upper["y"])[:-1], hi)
    assert upper["fill"] == "tonexty" and upper["fillpattern"]["shape"] == "/"
    assert lower["line"]["shape"] == "hv"
    # drawn under the curves (hover goes to the curves and points)
    kinds = [(t.get("meta") or [None])[0] for t in spec["data"]]
    assert kinds.index("band") < kinds.index("roc")
    captions = " ".join(c.value for c in at.caption)
    assert "the **whole** ROC curve lies inside it with 95% confidence" in captions
    assert f"c = {ref.critical_value:.3f}" in captions
    assert f"probability {ref.joint_probability:.6f}" in captions
    assert ref.joint_probability >= 0.95
    tab = table(at, "tpr_low")
    band_rows = next(df.value for df in at.dataframe if len(df.value) == len(ref.thresholds)
                     and "fpr_low" in df.value.columns)
    np.testing.assert_allclose(band_rows["tpr_high"], ref.tpr_high)
    assert tab is not None


def test_vertical_sidak_band_and_thresholds_control():
    at = new_app("app_pages/roc.py", query={"band_show": "true", "band_kind": "Šidák (FPR levels)"})
    assert_clean(at)
    y, s = _arrays("logistic")
    ref = rocci.roc_band(y, s, kind="vertical", method="sidak",
                         fpr=list(np.round(np.linspace(0.01, 0.99, 99), 2)))
    lower, upper = traces(figure(at, "roc_chart"), "band")
    x, lo, hi = ref.envelope()
    np.testing.assert_allclose(decode(upper["y"])[:-1], hi)
    captions = " ".join(c.value for c in at.caption)
    assert f"at least {ref.joint_probability:.4f} (exact Bonferroni bound)" in captions
    # the exact band's number of thresholds is a control
    at = new_app("app_pages/roc.py", query={"band_show": "true", "band_k": "20"})
    assert_clean(at)
    lower, upper = traces(figure(at, "roc_chart"), "band")
    distinct = np.unique(s)[::-1]
    ref = rocci.roc_band(y, s, thresholds=distinct[np.unique(np.linspace(0, distinct.size - 1, 20).round().astype(int))])
    np.testing.assert_allclose(decode(upper["y"])[:-1], ref.envelope()[2])
    assert "over 20 thresholds" in " ".join(c.value for c in at.caption)


def _report_table(at, title_part: str):
    rep = at.session_state["_rocci_report"]
    for kind, title, payload in rep.items:
        if kind == "table" and title_part.lower() in str(title).lower():
            return payload() if callable(payload) else payload
    raise AssertionError(f"no table {title_part!r} in the report: {[t for k, t, _ in rep.items if k == 'table']}")


@pytest.mark.parametrize("query", [{"band_show": "true"}, {"band_show": "true", "band_k": "40", "level": "90%"},
                                   {"band_show": "true", "band_kind": "Šidák (FPR levels)"}])
def test_band_csv_and_drawing_hold_their_level_from_outside(query):
    """Issue 34, as a reader of the page: resample the rows of the sample, count at the CSV's own thresholds
    (or FPR levels) and against the drawn hatched region; both hold the band's level."""
    from tests.outside import (counts_at_thresholds, curves_inside_envelope, resampled_curves, share,
                               tpr_at_fpr_levels)

    at = new_app("app_pages/roc.py", query=query)
    assert_clean(at)
    y, s = _arrays("logistic")
    y = y.astype(bool)
    csv = _report_table(at, "simultaneous band")
    level, m_pos, m_neg = float(csv["confidence_level"].iloc[0]), int(csv["m_pos"].iloc[0]), int(csv["m_neg"].iloc[0])
    assert level == (0.9 if "level" in query else 0.95)
    rng = np.random.default_rng(34)
    draws = 20_000
    if csv["kind"].iloc[0] == "threshold":
        t = csv["threshold"].to_numpy(float)
        tpr = counts_at_thresholds(s[y], t, m_pos, draws, rng) / m_pos
        fpr = counts_at_thresholds(s[~y], t, m_neg, draws, rng) / m_neg
        inside = np.all((tpr >= csv["tpr_low"].to_numpy() - 1e-12) & (tpr <= csv["tpr_high"].to_numpy() + 1e-12)
                        & (fpr >= csv["fpr_low"].to_numpy() - 1e-12) & (fpr <= csv["fpr_high"].to_numpy() + 1e-12),
                        axis=1)
    else:
        r = np.rint(csv["fpr"].to_numpy() * m_neg).astype(np.int64)
        tpr = tpr_at_fpr_levels(s[y], s[~y], r, m_pos, m_neg, draws, rng)
        inside = np.all((tpr >= csv["tpr_low"].to_numpy() - 1e-12) & (tpr <= csv["tpr_high"].to_numpy() + 1e-12),
                        axis=1)
    cov, se = share(inside)
    assert cov >= level - 3 * se, (cov, se)
    jp = float(csv["joint_probability"].iloc[0])
    if csv["joint_probability_kind"].iloc[0] == "exact":
        assert abs(cov - jp) <= 4 * se and cov <= level + 0.02
    else:
        assert cov >= jp - 3 * se
    # The drawn region: the hatched traces, read back from the figure.
    lower, upper = traces(figure(at, "roc_chart"), "band")
    xs, lo, hi = decode(lower["x"]), decode(lower["y"]), decode(upper["y"])
    x = np.unique(xs)
    lo_piece = np.array([lo[np.flatnonzero(xs == a)[-1]] for a in x[:-1]])
    hi_piece = np.array([hi[np.flatnonzero(xs == a)[-1]] for a in x[:-1]])
    F, T = resampled_curves(s[y], s[~y], m_pos, m_neg, 4000, np.random.default_rng(35))
    drawn = curves_inside_envelope(F, T, x, lo_piece, hi_piece)
    assert drawn.mean() >= level - 3 * np.sqrt(level * (1 - level) / drawn.size), drawn.mean()
