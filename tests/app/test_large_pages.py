"""Every page from the Large-data source's counts, above the dashboard's expansion limit (issue 16, item 4).

The threshold explorer, the precision–recall page, the dominance map and McNemar's test of the Compare
page, and the Learn page used to be refused above ``ROCCI_MAX_INSTANCES``; they now work from the counts
at any size.  Two sources:

* a Parquet file under a temporary ``ROCCI_DATA_DIR``, scanned on the Data page, with the limit set to
  100 instances (the counts stand for ~1,500), so any expansion to rows raises ``TooLarge``: each page
  must render with no error box and no refusal, and show rocci's numbers on the counts;
* counts standing for 10⁸ instances (a generated pair table, put in the scan store as a scan would), so
  no row is ever made: every page renders, and its time is printed.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from apphelpers import assert_clean, decode, figure, new_app, serve, traces
from scipy import stats

import rocci
import rocci.precision as rprec
from rocci import data as rdata
from rocci.plots import learn as plots_learn
from ui.cache import compare as cache_compare
from ui.cache import large
from ui.text import number

PAGES = ("explorer", "precision", "compare", "learn")
REFUSAL = "needs one row per instance"


def _frame(n=1500, seed=11) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    frame = pd.DataFrame({
        "outcome": np.where(y, "fraud", "legit"),
        "gbm": np.round(rng.normal(size=n) + 1.3 * y, 2),  # ties: two decimals
        "logit": np.round(rng.normal(size=n) + 0.7 * y, 1),  # many ties
    })
    frame.loc[[3, 40], "gbm"] = np.nan
    return frame


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(large, "MAX_INSTANCES", 100)  # the counts stand for ~1,500: any expansion is refused
    return serve(tmp_path / "served", monkeypatch, {"scores.parquet": _frame()})


def scanned():
    at = new_app()
    at.segmented_control(key="source").set_value("large").run()
    at.button(key="lg_scan").click().run()
    assert_clean(at)
    return at


def clean_page(at, page: str):
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, (page, [e.value for e in at.exception])
    assert not at.error, (page, [e.value for e in at.error])
    assert not any(REFUSAL in i.value for i in at.info), (page, [i.value for i in at.info])
    return at


def reference(data_dir):
    return rocci.scan(data_dir / "scores.parquet", label="outcome", scores=["gbm", "logit"], pos_label="fraud",
                      paired=True)


def test_explorer_from_the_counts(data_dir):
    at = clean_page(scanned(), "explorer")
    counts = reference(data_dir)["gbm"]
    values = counts.table()[0]
    # the slider spans the scores, read off the table's distinct scores
    slider = at.slider(key="ex_t")
    step = slider.step
    assert slider.min <= values[0] < slider.min + step and slider.max - step < values[-1] <= slider.max
    # the indicators at the threshold are rocci's on the counts (exact stratified bootstrap laws)
    t = float(slider.value)
    table = next(df.value for df in at.dataframe if "p_undefined" in df.value.columns and "law" in df.value.columns)
    for metric in ("precision", "recall", "f1", "mcc"):
        ref = rprec.metric_ci(counts, metric=metric, thresholds=[t])
        row = table[table["indicator"] == {"precision": "Precision", "recall": "Recall (sensitivity)",
                                           "f1": "F-measure (F1)", "mcc": "Matthews correlation (MCC)"}[metric]]
        np.testing.assert_allclose(row[["value", "low", "high"]].to_numpy(float)[0],
                                   [ref.value[0], ref.low[0], ref.high[0]], rtol=1e-12)
    conf = rocci.confusion_at(counts, None, t)
    assert any(m.value == f"{conf.n_predicted_positive:,}" for m in at.metric)
    # the other ways of choosing the threshold run on the counts too
    for how in ("rate", "youden", "cost", "value"):
        at.segmented_control(key="ex_by").set_value(how).run()
        assert not at.exception and not at.error, (how, [e.value for e in at.error])
    at.segmented_control(key="ex_by").set_value("youden").run()
    youden = rocci.youden_threshold(counts)
    shown = [md.value.replace("\\", "") for md in at.markdown]
    assert any(f"score ≥ {number(youden, 6)}**" in text and "Youden" in text for text in shown), shown
    # every distinct score is a row of the "All thresholds" table
    rows = next(df.value for df in at.dataframe if "n_at_threshold" in df.value.columns)
    assert len(rows) == len(rocci.threshold_table(counts))


def test_precision_page_from_the_counts(data_dir):
    at = clean_page(scanned(), "precision")
    counts = reference(data_dir)["gbm"]
    recall = next(df.value for df in at.dataframe if "precision_low" in df.value.columns and "r" in df.value.columns)
    ref = rprec.precision_ci(counts, recall=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    ref_frame = ref.to_frame().drop_duplicates(subset=["r"], ignore_index=True)
    np.testing.assert_allclose(recall["precision_low"], ref_frame["precision_low"], rtol=1e-12)
    np.testing.assert_allclose(recall["precision_high"], ref_frame["precision_high"], rtol=1e-12)
    assert any("precision" in m.label.lower() for m in at.metric)
    # the gain and lift intervals at the default depths (threshold held fixed), from the counts
    assert any("gain_low" in df.value.columns for df in at.dataframe)
    # with the depth held fixed: the exact laws from the counts too (the work follows the distinct scores)
    at.segmented_control(key="pr_gain_at").set_value("depth").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert not any("depth held fixed" in i.value for i in at.info)
    gain = next(df.value for df in at.dataframe if "gain_low" in df.value.columns)
    want = rprec.gain_ci(counts, total_positive_rate=[float(d) for d in gain["total_positive_rate"]]).to_frame()
    assert (gain["k"].to_numpy() == want["k"].to_numpy()).all()
    np.testing.assert_allclose(gain["gain_low"], want["gain_low"], rtol=1e-12)
    np.testing.assert_allclose(gain["gain_high"], want["gain_high"], rtol=1e-12)
    assert figure(at, "pr_gain_chart") and figure(at, "pr_lift_chart")
    at.segmented_control(key="pr_gain_at").set_value("threshold").run()
    # two models: the verdict runs on the pair table when asked, or says in an info box what it cannot do
    if at.get("button") and any(b.key == "pr_run" for b in at.button):
        at.button(key="pr_run").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    verdicts = [md.value for md in at.markdown if md.value.startswith("At ") and "recall" in md.value]
    limited = [i.value for i in at.info if REFUSAL in i.value]
    assert verdicts or limited, [i.value for i in at.info]


def test_compare_map_and_mcnemar_from_the_pair_table(data_dir):
    at = clean_page(scanned(), "compare")
    pair = reference(data_dir).paired("gbm", "logit")
    at.session_state["cmp_tab"] = "Dominance map"
    at.run()
    assert_clean(at)
    spec = figure(at, "cmp_map")
    heat = next(t for t in spec["data"] if t.get("type") == "heatmap")
    ta = cache_compare.quantile_grid(pair.model(0))
    tb = cache_compare.quantile_grid(pair.model(1))
    ref = rocci.dominance_map(pair, thresholds_a=list(ta), thresholds_b=list(tb))
    z = np.asarray(decode(heat["z"]), dtype=float)
    diff = ref.p_a_dominates - ref.p_b_dominates
    assert z.size == diff.size
    np.testing.assert_allclose(np.sort(z.ravel()), np.sort(diff.ravel()), atol=1e-12)
    at.session_state["cmp_tab"] = "McNemar"
    at.run()
    assert_clean(at)
    assert "χ² (McNemar, 1 df)" in [m.label for m in at.metric], [m.label for m in at.metric]
    mc_table = at.dataframe[-1].value
    t_a, t_b = _first_pair(at)  # (scores with two decimals: the label's six digits are the threshold)
    mc = rocci.mcnemar(pair, thresholds_a=t_a, thresholds_b=t_b)
    assert mc_table.to_numpy().tolist() == mc.table().to_numpy().tolist()
    assert any(m.value == f"{mc.statistic:.3f}" for m in at.metric)


def _first_pair(at):
    """The thresholds of the McNemar tab's first pair, from its label ("pair 1: gbm ≥ t_a, logit ≥ t_b")."""
    label = at.selectbox(key="cmp_mc_pair").options[0]
    parts = [p.split("≥")[1].strip() for p in label.split(":", 1)[1].split(",")]
    return float(parts[0]), float(parts[1])


def test_learn_page_draws_the_counts(data_dir):
    at = scanned()
    at.switch_page("app_pages/learn.py").run()
    at.segmented_control(key="ln_src").set_value("loaded").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert not any(REFUSAL in i.value or "worked example" in i.value for i in at.info), [i.value for i in at.info]
    counts = reference(data_dir)["gbm"]
    assert any(f"{counts.n_pos:,} positives, {counts.n_neg:,} negatives" in md.value for md in at.markdown)
    # the strip: every class drawn from its order statistics (1,500 dots at most), the legend counting all
    strip = figure(at, "ln_strip")
    t = float(at.select_slider(key="ln_t").value)
    for cls, scores, hit in (("pos", counts.pos, "TP"), ("neg", counts.neg, "FP")):
        parts = [tr for tr in traces(strip, "strip") if tr["meta"][1] == cls]
        drawn = np.sort(np.concatenate([np.asarray(decode(tr["x"]), float) for tr in parts]))
        np.testing.assert_array_equal(drawn, np.sort(scores[plots_learn.thin_indices(scores.size, 1500)]))
        assert any(f"({hit}: {int(np.sum(scores >= t))})" in tr["name"] for tr in parts)
    # the worlds, the bands and the averaging figures are there
    for key in ("ln_roc_point", "ln_hull", "ln_envelope", "ln_worlds", "ln_worlds_law", "ln_avg_thr", "ln_avg_vert"):
        figure(at, key)


# --------------------------------------------------------------------------
# counts standing for 10⁸ instances (no row is ever made)
# --------------------------------------------------------------------------


def _pair_table(n, cells=200, seed=0, share=0.1, rho=0.6):
    """Two correlated binormal models' scores binned on a ``cells`` × ``cells`` grid, as multinomial counts
    of ``n`` instances (what a scan with rounded scores returns)."""
    rng = np.random.default_rng(seed)
    g = np.round((np.arange(cells) + 0.5) / cells, 6)
    z = stats.norm.ppf(g)
    za, zb = np.meshgrid(z, z, indexing="ij")

    def cell_probabilities(mu_a, mu_b):
        q = (za - mu_a) ** 2 - 2 * rho * (za - mu_a) * (zb - mu_b) + (zb - mu_b) ** 2
        d = np.exp(-q / (2 * (1 - rho**2)) + (za**2 + zb**2) / 2)
        return (d / d.sum()).ravel()

    n_pos = int(n * share)
    p = rng.multinomial(n_pos, cell_probabilities(1.2, 1.0))
    q = rng.multinomial(n - n_pos, cell_probabilities(0.0, 0.0))
    keep = p + q > 0
    return rocci.PairedCounts(np.repeat(g, cells)[keep], np.tile(g, cells)[keep], p[keep].astype(np.int64),
                              q[keep].astype(np.int64), ("gbm", "logit"), 1)


def counts_app(tmp_path, monkeypatch, n):
    """A session whose dataset is a Large-data scan of counts standing for ``n`` instances."""
    monkeypatch.setenv(large.ENV, str(tmp_path))
    pair = _pair_table(n)
    n_pos, n_neg = int(pair.n_pos.sum()), int(pair.n_neg.sum())
    scan = rdata.ScanResult(counts={"gbm": pair.model(0), "logit": pair.model(1)}, pos_label=1,
                            label_counts={1: n_pos, 0: n_neg}, n_rows_in=n, n_rows_used=n, dropped_by_column={},
                            pairs={("gbm", "logit"): pair}, source="generated")
    spec = large.LargeSpec(root=str(tmp_path), query="SELECT * FROM generated", label="y", pos_label=1,
                           scores=("gbm", "logit"))
    ds = large.dataset(spec, f"generated-{n}")
    large.SCANS.put(ds.digest, large.CountsPrepared(scan, spec))
    at = new_app()
    at.session_state["dataset"] = ds
    return at, pair


def test_every_page_from_counts_standing_for_a_hundred_million(tmp_path, monkeypatch, capsys):
    at, pair = counts_app(tmp_path, monkeypatch, 10**8)
    assert large.MAX_INSTANCES < 10**8
    times = {}
    for page in PAGES:
        t0 = time.perf_counter()
        clean_page(at, page)
        if page == "compare":
            at.session_state["cmp_tab"] = "Dominance map"
            at.run()
            assert_clean(at)
            assert next(t for t in figure(at, "cmp_map")["data"] if t.get("type") == "heatmap")
            at.session_state["cmp_tab"] = "McNemar"
            at.run()
            assert_clean(at)
            assert "χ² (McNemar, 1 df)" in [m.label for m in at.metric]
            assert int(at.dataframe[-1].value.to_numpy().sum()) == 10**8
        if page == "precision":  # gain and lift with the depth held fixed, from the counts (200 scores)
            at.segmented_control(key="pr_gain_at").set_value("depth").run()
            assert_clean(at)
            gain = next(df.value for df in at.dataframe if "gain_low" in df.value.columns)
            assert "k" in gain.columns and (gain["gain_low"] < gain["gain"]).all()
            assert (gain["gain"] < gain["gain_high"]).all()
            at.segmented_control(key="pr_gain_at").set_value("threshold").run()
        if page == "learn":
            at.segmented_control(key="ln_src").set_value("loaded").run()
            assert_clean(at)
            assert any("10,000,000 positives" in md.value for md in at.markdown)
            figure(at, "ln_strip")
            figure(at, "ln_worlds")
        times[page] = time.perf_counter() - t0
    with capsys.disabled():
        print("\n10^8 instances, first render of each page (s):", {k: round(v, 1) for k, v in times.items()})


# --------------------------------------------------------------------------
# the Learn page's random worlds from a table: the stratified bootstrap's law, drawn from the counts
# --------------------------------------------------------------------------


def _tied_counts(n=400, seed=7):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(size=n) + 1.1 * y, 1)
    return y, s, rocci.ScoreCounts.from_arrays(y, s)


def test_worlds_of_a_table_follow_the_exact_bootstrap_law():
    """4,000 seeded worlds of a tied table (each a multinomial draw of the counts at every distinct score):
    the TPR and FPR at a threshold have the exact bootstrap mean and sd (Bin(n±, p)/n±) within 4 Monte
    Carlo standard errors, and the share of worlds inside the simultaneous band is its exact joint
    probability within 4 standard errors, as for worlds drawn from the rows (tests/test_worlds.py)."""
    from rocci.coverage.worlds import draw_worlds, worlds_in_bands

    y, s, counts = _tied_counts()
    k = 4000
    t = 0.6  # a score: ties at the threshold
    assert np.any(s == t)
    worlds = draw_worlds(counts, None, k, 5, t)
    exact = rocci.threshold_ci(y, s, thresholds=[t])
    for rate, mean, sd, n in ((worlds.tpr, exact.tpr[0], exact.tpr_std[0], counts.n_pos),
                              (worlds.fpr, exact.fpr[0], exact.fpr_std[0], counts.n_neg)):
        assert abs(rate.mean() - mean) < 4 * sd / np.sqrt(k)
        assert abs(rate.std(ddof=1) - sd) < 4 * sd / np.sqrt(2 * (k - 1))
        assert np.all(np.isclose(rate * n, np.round(rate * n)))  # counts of instances, whole numbers
    assert len(worlds.curves) == k
    band = rocci.roc_band(counts)
    vci = rocci.vertical_ci(counts, method="percentile")
    got = worlds_in_bands(counts, None, 2000, 3, thresholds=band.thresholds, tp_range=(band.tp_min, band.tp_max),
                          fp_range=(band.fp_min, band.fp_max), levels=vci.fpr,
                          tpr_range=(vci.tpr_low, vci.tpr_high))
    p = band.joint_probability
    assert abs(got["boxes"].mean() - p) < 4 * np.sqrt(p * (1 - p) / 2000)
    assert got["levels"].mean() < 0.8


def test_strip_of_a_table_is_the_strip_of_its_rows():
    """The strip drawn from a table is the one drawn from the rows it stands for: the same order statistics
    (thinned to 1,500 per class) and the same counts in the legend."""
    rng = np.random.default_rng(3)
    n = 5000
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y, 2) + 10.0  # (no signed zeros: -0.0 and 0.0 are one distinct score)
    counts = rocci.ScoreCounts.from_arrays(y, s)
    for t in (9.0, float(s[5]), 11.37):
        rows = plots_learn.strip_figure(s, y, t)
        table = plots_learn.strip_figure(counts, None, t)
        assert rows.to_json() == table.to_json()
    big = rocci.ScoreCounts.from_counts(counts.table()[0], counts.table()[1] * 10**7, counts.table()[2] * 10**7)
    fig = plots_learn.strip_figure(big, None, 10.5)  # 5·10¹⁰ instances: 3,000 dots, in well under a second
    assert sum(len(tr.x) for tr in fig.data if tr.meta[0] == "strip") == 3000


def test_precision_recall_curve_of_a_table_keeps_every_threshold_and_bounds_its_rows():
    """pr_curve(max_points=...): every ROC point kept, interpolated points a subset of the full curve's
    (points of the same curve), at most max_points rows; 10⁹ positives give 200,000 rows, not 10⁹."""
    def pr_curve(*args, **kwargs):
        return rocci.pr_curve(*args, **kwargs).to_frame()

    y, s, counts = _tied_counts(3000, 2)
    full = pr_curve(counts)
    assert full.equals(pr_curve(counts, max_points=len(full)))  # nothing to thin: the same frame
    thin = pr_curve(counts, max_points=300)
    assert len(thin) <= 300 and thin["interpolated"].sum() > 0
    pd.testing.assert_frame_equal(thin[~thin["interpolated"]].reset_index(drop=True),
                                  full[~full["interpolated"]].reset_index(drop=True))
    keys = set(zip(full["tp"], full["fp"]))
    assert all((tp, fp) in keys for tp, fp in zip(thin["tp"], thin["fp"]))
    assert thin["recall"].is_monotonic_increasing
    values, n_pos, n_neg = counts.table()
    huge = rocci.ScoreCounts.from_counts(values, n_pos * 10**6, n_neg * 10**6)
    curve = pr_curve(huge, max_points=200_000)  # (its time: bench/bench_limits.py)
    assert len(curve) <= 200_000
    assert (~curve["interpolated"]).sum() == (~full["interpolated"]).sum()
