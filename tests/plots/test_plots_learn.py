"""Figure builders of the Learn page (rocci.plots.learn) draw what rocci's results say,
and the seeded bootstrap worlds (rocci.coverage.worlds.draw_worlds) are a stratified bootstrap."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci.plots import learn as plots_learn
from rocci.plots import COLORS
from rocci.coverage.worlds import draw_worlds

ROOT = Path(__file__).resolve().parents[2]


def _example():
    df = pd.read_csv(ROOT / "data" / "thesis_example.csv")
    return df["label"].to_numpy() == 1, df["score"].to_numpy(dtype=float)


Y, S = _example()
ROC = rocci.roc_curve(Y, S)
ENV = rocci.cost_curve(Y, S)


def kind(fig, name):
    return [t for t in fig.data if isinstance(t.meta, (list, tuple)) and t.meta and t.meta[0] == name]


def _xy(trace):
    return np.asarray(trace.x, dtype=float), np.asarray(trace.y, dtype=float)


# --- section 1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("t", [0.95, 0.56, 0.32, 0.25, 0.2, 0.01])
def test_strip_counts_are_the_confusion_matrix(t):
    conf = rocci.confusion_at(Y, S, t)
    fig = plots_learn.strip_figure(S, Y, t)
    drawn = {tr.meta[2]: len(tr.x) for tr in kind(fig, "strip")}
    assert drawn == {"TP": conf.tp, "FN": conf.fn, "FP": conf.fp, "TN": conf.tn}
    for tr in kind(fig, "strip"):
        x = np.asarray(tr.x, float)
        if tr.meta[2] in ("TP", "FP"):
            assert (x >= t).all()
        else:
            assert (x < t).all()
        # The row: positives around y = 1, negatives around y = 0.
        y0 = 1.0 if tr.meta[1] == "pos" else 0.0
        assert (np.abs(np.asarray(tr.y, float) - y0) <= 0.25).all()
    line = kind(fig, "threshold-line")[0]
    assert list(line.x) == [t, t]


def test_strip_thins_large_classes_and_escapes_names():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(5000, bool), np.zeros(7000, bool)]
    s = np.r_[rng.normal(1, 1, 5000), rng.normal(0, 1, 7000)]
    fig = plots_learn.strip_figure(s, y, 0.5, positive_name="<b>M</b>", max_points=300)
    pos = [tr for tr in kind(fig, "strip") if tr.meta[1] == "pos"]
    xs = np.concatenate([np.asarray(tr.x, float) for tr in pos])
    assert xs.size == 300
    assert xs.min() == s[y].min() and xs.max() == s[y].max()
    # The legend still counts every instance, not just the drawn ones.
    tp = int(np.count_nonzero(s[y] >= 0.5))
    assert any(f"(TP: {tp})" in tr.name for tr in pos)
    assert all("<b>" not in tr.name and "&lt;b&gt;M&lt;/b&gt;" in tr.name for tr in pos)
    assert list(fig.layout.yaxis.ticktext) == ["negatives", "&lt;b&gt;M&lt;/b&gt;"]


def test_roc_point_figure_marks_the_confusion_point():
    conf = rocci.confusion_at(Y, S, 0.56)
    fig = plots_learn.roc_point_figure(ROC, conf)
    x, y = _xy(kind(fig, "roc")[0])
    np.testing.assert_array_equal(x, ROC.fpr)
    np.testing.assert_array_equal(y, ROC.tpr)
    px, py = _xy(kind(fig, "roc-point")[0])
    assert (px[0], py[0]) == (3 / 40, 13 / 20)
    assert "TP/n+ = 13/20" in kind(fig, "roc-point")[0].hovertemplate


# --- section 2 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("t, w", [(0.56, 0.3), (0.88, 0.6), (0.32, 0.05), (0.2, 0.9)])
def test_cost_duality_figure(t, w):
    line = rocci.cost_ci(Y, S, w=[0.0, 1.0, w], thresholds=[t], method="wald")
    optimum = rocci.cost_ci(Y, S, w=[w], method="wald")
    grid = np.union1d(np.linspace(0, 1, 101), ENV.breakpoints)
    curve = rocci.cost_curve(Y, S, w=grid)
    fig = plots_learn.cost_duality_figure(curve, line, optimum)
    # The cost line runs from (0, FPR) to (1, 1 − TPR) of the threshold's ROC point.
    i = int(np.flatnonzero(ROC.thresholds == t)[0])
    x, y = _xy(kind(fig, "cost-line")[0])
    np.testing.assert_allclose(x, [0, 1])
    np.testing.assert_allclose(y, [ROC.fpr[i], 1 - ROC.tpr[i]], atol=1e-15)
    # Its cost at w, and the envelope's minimiser there.
    _, yw = _xy(kind(fig, "line-at-w")[0])
    assert yw[0] == pytest.approx(w * (1 - ROC.tpr[i]) + (1 - w) * ROC.fpr[i], abs=1e-15)
    ox, oy = _xy(kind(fig, "optimum")[0])
    assert (ox[0], oy[0]) == (w, rocci.cost_curve(Y, S, w=[w]).cost[0])
    assert oy[0] <= yw[0] + 1e-15
    ex, ey = _xy(kind(fig, "envelope")[0])
    np.testing.assert_array_equal(ey, curve.cost)


def test_cost_duality_at_w_03_is_threshold_056():
    optimum = rocci.cost_ci(Y, S, w=[0.3], method="wald")
    assert optimum.threshold[0] == 0.56
    line = rocci.cost_ci(Y, S, w=[0.0, 1.0, 0.3], thresholds=[0.56], method="wald")
    fig = plots_learn.cost_duality_figure(rocci.cost_curve(Y, S), line, optimum)
    assert "threshold 0.56, cost 0.1575" in kind(fig, "optimum")[0].name


@pytest.mark.parametrize("w, expected", [(0.05, 0.88), (0.3, 0.56), (0.6, 0.25), (0.8, 0.2)])
def test_roc_duality_iso_line_touches_the_hull_at_the_minimiser(w, expected):
    best = rocci.cost_curve(Y, S, w=[w]).threshold[0]
    assert best == expected
    vertex = int(np.flatnonzero(ENV.hull_thresholds == best)[0])
    point = rocci.threshold_ci(Y, S, thresholds=[0.32])
    fig = plots_learn.roc_duality_figure(ROC, ENV, point, w=w, vertex=vertex)
    ox, oy = _xy(kind(fig, "optimum")[0])
    assert (ox[0], oy[0]) == (ENV.hull_fpr[vertex], ENV.hull_tpr[vertex])
    x, y = _xy(kind(fig, "iso")[0])
    slope = (y[1] - y[0]) / (x[1] - x[0])
    assert slope == pytest.approx((1 - w) / w)
    # The line passes through the vertex and no hull vertex lies above it (it touches the hull).
    above = ENV.hull_tpr - (oy[0] + slope * (ENV.hull_fpr - ox[0]))
    assert above.max() <= 1e-12
    px, py = _xy(kind(fig, "roc-point")[0])
    assert (px[0], py[0]) == (point.fpr[0], point.tpr[0])
    hx, hy = _xy(kind(fig, "hull")[0])
    np.testing.assert_array_equal(hx, ENV.hull_fpr)
    np.testing.assert_array_equal(hy, ENV.hull_tpr)


# --- section 3 -----------------------------------------------------------------------------------------


def test_hull_figure_vertices():
    fig = plots_learn.hull_figure(ROC, ENV)
    verts = kind(fig, "hull-vertex")
    assert len(verts) == len(ENV.hull_thresholds) == 5
    assert [tuple(_xy(v)[0]) + tuple(_xy(v)[1]) for v in verts] == [
        (f, t) for f, t in zip(ENV.hull_fpr, ENV.hull_tpr)]
    assert "threshold 0.88: cheapest for w in [0.0000, 0.1304]" in verts[0].name
    # The four vertices that own a stretch of w are featured, each in its own palette colour; the last, (1, 1),
    # is cheapest at w = 1 only.
    assert [v.meta[2] for v in verts] == [True, True, True, True, False]
    assert "cheapest only at w = 1" in verts[-1].hovertemplate
    colors = [v.marker.color for v in verts[:4]]
    assert colors == [COLORS[k] for k in range(4)]


def test_envelope_figure_segments_and_breakpoints():
    fig = plots_learn.envelope_figure(ROC, ENV)
    # The worked example: thresholds 0.88, 0.56, 0.25, 0.20 with breakpoints 3/23, 7/13, 2/3.
    segs = kind(fig, "envelope-segment")
    assert [s.name for s in segs] == [f"threshold {t} on the envelope" for t in ("0.88", "0.56", "0.25", "0.2")]
    bx, by = _xy(kind(fig, "breakpoints")[0])
    np.testing.assert_allclose(bx, [3 / 23, 7 / 13, 2 / 3], rtol=1e-14)
    assert list(kind(fig, "breakpoints")[0].text) == ["0.1304", "0.5385", "0.6667"]
    np.testing.assert_allclose(by, rocci.cost_curve(Y, S, w=bx).cost, atol=1e-15)
    # Each segment lies on the envelope, and its threshold is the minimiser inside it.
    for s in segs:
        x, y = _xy(s)
        np.testing.assert_allclose(y, rocci.cost_curve(Y, S, w=x).cost, atol=1e-15)
        mid = rocci.cost_curve(Y, S, w=[x.mean()])
        assert s.name == f"threshold {mid.threshold[0]:.6g} on the envelope"
    # The envelope band is the cost curve, corner to corner.
    ex, ey = _xy(kind(fig, "envelope")[0])
    np.testing.assert_allclose(ey, rocci.cost_curve(Y, S, w=ex).cost, atol=1e-15)
    # The featured lines run from (0, FPR) to (1, 1 − TPR) of their vertex; with the trivial classifiers, their
    # minimum at any w is the envelope (brute force): the hull vertices' lines alone make the cost curve.
    lines = kind(fig, "hull-line")
    assert [ln.meta[1] for ln in lines] == [0, 1, 2, 3]
    starts = np.array([_xy(ln)[1][0] for ln in lines])
    ends = np.array([_xy(ln)[1][1] for ln in lines])
    np.testing.assert_array_equal(starts, ENV.hull_fpr[:4])
    np.testing.assert_array_equal(ends, 1 - ENV.hull_tpr[:4])
    w = np.linspace(0, 1, 57)
    brute = np.min(w[None, :] * ends[:, None] + (1 - w[None, :]) * starts[:, None], axis=0)
    brute = np.minimum(np.minimum(brute, w), 1 - w)
    np.testing.assert_allclose(brute, rocci.cost_curve(Y, S, w=w).cost, atol=1e-15)
    # Eight other thresholds (12 lines in all), none of them a hull vertex, each from (0, FPR) to (1, 1 − TPR).
    other = kind(fig, "cost-lines")[0]
    assert other.meta[1] == plots_learn.MAX_COST_LINES - 4 == 8
    oy = np.asarray(other.y, dtype=object)
    thr = [float(t) for t in other.customdata[0::3]]
    assert not set(thr) & set(ENV.hull_thresholds.tolist())
    at = {float(t): i for i, t in enumerate(ROC.thresholds)}
    np.testing.assert_allclose(np.asarray(oy[0::3], float), [ROC.fpr[at[t]] for t in thr])
    np.testing.assert_allclose(np.asarray(oy[1::3], float), [1 - ROC.tpr[at[t]] for t in thr])
    assert "of" not in other.name  # no internal counts in the legend


def _fraud_like(n=5000, seed=2024):
    """Real-looking data: 16% positives, scores rounded to 4 decimals (about 3,000 distinct thresholds)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.16
    z = rng.normal(np.where(y, 1.4, 0.0), 1.0)
    s = np.round(1 / (1 + np.exp(-(1.5 * z - 2))), 4)
    return y, s


def test_envelope_on_real_sized_data_is_readable():
    """5,000 rows, a hull of about 30 vertices: at most 12 cost lines, the featured hull lines among them, each
    featured vertex in its own colour (no colour twice, the same colour in both section-3 figures), the envelope
    exact, breakpoints marked but not labelled (their labels would overlap)."""
    y, s = _fraud_like()
    roc, env = rocci.roc_curve(y, s), rocci.cost_curve(y, s)
    owning = int(np.sum(np.diff(np.concatenate([[0.0], env.breakpoints, [1.0]])) > 0))
    assert owning > plots_learn.MAX_FEATURED and np.unique(s).size > 2000
    fig = plots_learn.envelope_figure(roc, env)
    hull_lines = kind(fig, "hull-line")
    other = kind(fig, "cost-lines")
    n_lines = len(hull_lines) + (other[0].meta[1] if other else 0)
    assert n_lines <= plots_learn.MAX_COST_LINES
    assert len(hull_lines) == plots_learn.MAX_FEATURED
    colors = [ln.line.color for ln in hull_lines]
    assert len(set(colors)) == len(colors) and set(colors) <= set(COLORS)
    # The featured vertices are those cheapest over the widest ranges of w.
    edges = np.concatenate([[0.0], env.breakpoints, [1.0]])
    width = np.diff(edges)
    chosen = [ln.meta[1] for ln in hull_lines]
    assert min(width[chosen]) >= np.sort(width)[::-1][plots_learn.MAX_FEATURED - 1]
    for ln, i in zip(hull_lines, chosen):
        np.testing.assert_array_equal(_xy(ln)[1], [env.hull_fpr[i], 1 - env.hull_tpr[i]])
    # Segments in the same colour as their line; on the envelope.
    for seg in kind(fig, "envelope-segment"):
        line = next(ln for ln in hull_lines if ln.meta[1] == seg.meta[1])
        assert seg.line.color == line.line.color
        x, yv = _xy(seg)
        np.testing.assert_allclose(yv, rocci.cost_curve(y, s, w=x).cost, atol=1e-12)
    ex, ey = _xy(kind(fig, "envelope")[0])
    assert ex.size == len(env.hull_thresholds) + 1
    np.testing.assert_allclose(ey, rocci.cost_curve(y, s, w=ex).cost, atol=1e-12)
    bp = kind(fig, "breakpoints")[0]
    assert bp.mode == "markers" and bp.text is None
    # The legend stays short: trivial ×2, envelope, other thresholds, the featured lines, breakpoints.
    legend = [t for t in fig.data if t.showlegend is not False]
    assert len(legend) <= 4 + plots_learn.MAX_FEATURED + 1
    # The hull figure: the same vertices featured, in the same colours; the others grey, one legend entry.
    hull = plots_learn.hull_figure(roc, env)
    verts = kind(hull, "hull-vertex")
    assert len(verts) == len(env.hull_thresholds)
    star = {v.meta[1]: v.marker.color for v in verts if v.meta[2]}
    assert star == {ln.meta[1]: ln.line.color for ln in hull_lines}
    assert sum(1 for v in verts if v.showlegend is not False) == plots_learn.MAX_FEATURED + 1


def test_envelope_figure_caps_the_number_of_lines():
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(900, bool), np.zeros(1100, bool)]
    s = np.r_[rng.normal(1, 1, 900), rng.normal(0, 1, 1100)]
    roc, env = rocci.roc_curve(y, s), rocci.cost_curve(y, s)
    fig = plots_learn.envelope_figure(roc, env, max_lines=5)
    assert len(kind(fig, "hull-line")) == 5 and not kind(fig, "cost-lines")
    fig = plots_learn.envelope_figure(roc, env, max_lines=20, max_featured=3)
    assert len(kind(fig, "hull-line")) == 3 and kind(fig, "cost-lines")[0].meta[1] == 17


# --- section 4 -----------------------------------------------------------------------------------------


def test_worlds_figure_draws_each_world_and_the_exact_regions():
    worlds = draw_worlds(Y, S, 7, 11, 0.56)
    band = rocci.vertical_ci(Y, S, fpr=np.linspace(0.01, 0.99, 99))
    at = rocci.threshold_ci(Y, S, thresholds=[0.56])
    fig = plots_learn.worlds_figure(ROC, worlds.curves, band=band, at=at, world_points=(worlds.fpr, worlds.tpr))
    tr = kind(fig, "world")[0]
    assert tr.meta[1] == 7
    xs = list(tr.x)
    ys = list(tr.y)
    assert xs.count(None) == 7
    # The k-th drawn polyline is the k-th world's step curve (its vertices are its corners).
    breaks = [i for i, v in enumerate(xs) if v is None]
    start = 0
    for (f, t), end in zip(worlds.curves, breaks):
        px = np.asarray(xs[start:end], float)
        py = np.asarray(ys[start:end], float)
        corners = set(zip(px.tolist(), py.tolist()))
        assert set(zip(np.asarray(f, float).tolist(), np.asarray(t, float).tolist())) <= corners
        start = end + 1
    bx, by = _xy(kind(fig, "vertical-band")[0])
    np.testing.assert_array_equal(by[: band.fpr.size], band.tpr_high)
    np.testing.assert_array_equal(by[band.fpr.size:], band.tpr_low[::-1])
    rect = kind(fig, "threshold-region")[0]
    rx = [v for v in rect.x if v is not None]
    ry = [v for v in rect.y if v is not None]
    assert (min(rx), max(rx), min(ry), max(ry)) == pytest.approx(
        (at.fpr_low[0], at.fpr_high[0], at.tpr_low[0], at.tpr_high[0]))
    wx, wy = _xy(kind(fig, "world-points")[0])
    np.testing.assert_array_equal(wx, worlds.fpr)
    np.testing.assert_array_equal(wy, worlds.tpr)


def test_worlds_law_figure_shares_and_exact_law():
    at = rocci.threshold_ci(Y, S, thresholds=[0.56])
    values = np.array([0.6, 0.65, 0.65, 0.7, 0.7, 0.7, 0.9, 0.6])
    fig = plots_learn.worlds_law_figure(values, at.distribution(0, "tpr"))
    bars = kind(fig, "world-share")[0]
    np.testing.assert_allclose(bars.x, [0.6, 0.65, 0.7, 0.9])
    np.testing.assert_allclose(bars.y, [2 / 8, 2 / 8, 3 / 8, 1 / 8])
    ex, ep = at.distribution(0, "tpr")
    keep = ep > 1e-6
    lx, ly = _xy(kind(fig, "exact-law")[0])
    np.testing.assert_array_equal(lx, ex[keep])
    np.testing.assert_array_equal(ly, ep[keep])


def test_worlds_are_seeded_and_reproducible():
    a = draw_worlds(Y, S, 20, 5, 0.56)
    b = draw_worlds(Y, S, 20, 5, 0.56)
    c = draw_worlds(Y, S, 20, 6, 0.56)
    np.testing.assert_array_equal(a.tpr, b.tpr)
    np.testing.assert_array_equal(a.fpr, b.fpr)
    for (f1, t1), (f2, t2) in zip(a.curves, b.curves):
        np.testing.assert_array_equal(f1, f2)
        np.testing.assert_array_equal(t1, t2)
    assert not (np.array_equal(a.tpr, c.tpr) and np.array_equal(a.fpr, c.fpr))
    # The same worlds whatever threshold is followed.
    d = draw_worlds(Y, S, 20, 5, 0.32)
    for (f1, t1), (f2, t2) in zip(a.curves, d.curves):
        np.testing.assert_array_equal(t1, t2)
    # Each world's point at the threshold lies on its own ROC curve.
    for (f, t), x, y in zip(a.curves, a.fpr, a.tpr):
        assert any(np.isclose(f, x) & np.isclose(t, y))
    assert a.tpr_mean == pytest.approx(a.tpr.mean()) and a.tpr_sd == pytest.approx(a.tpr.std(ddof=1))


def _binomial_moments(values, probs):
    mean = float(np.sum(values * probs))
    var = float(np.sum((values - mean) ** 2 * probs))
    mu4 = float(np.sum((values - mean) ** 4 * probs))
    return mean, var, mu4


@pytest.mark.parametrize("t", [0.56, 0.32])
@pytest.mark.montecarlo
def test_worlds_monte_carlo_matches_the_exact_bootstrap(t):
    """K = 3000 worlds: the mean and variance of TPR* and FPR* agree with the exact law within
    4 standard errors (SE of the variance from the exact fourth central moment)."""
    k = 3000
    worlds = draw_worlds(Y, S, k, 2024, t, max_points=4)
    at = rocci.threshold_ci(Y, S, thresholds=[t])
    for axis, sample in (("tpr", worlds.tpr), ("fpr", worlds.fpr)):
        v, p = at.distribution(0, axis)
        mean, var, mu4 = _binomial_moments(v, p)
        assert mean == pytest.approx(float(getattr(at, axis)[0]))
        assert np.sqrt(var) == pytest.approx(float(getattr(at, axis + "_std")[0]))
        assert abs(sample.mean() - mean) <= 4 * np.sqrt(var / k)
        assert abs(sample.var(ddof=1) - var) <= 4 * np.sqrt((mu4 - var**2) / k)


@pytest.mark.montecarlo
def test_worlds_law_on_tiny_tied_data_matches_enumeration():
    """Tiny data with ties: every stratified resample enumerated (3^3 · 4^4 = 6912, equally likely)
    gives the law of (TP*, FP*) at a threshold; 4000 seeded worlds match each cell within 4 SE."""
    pos = np.array([0.9, 0.5, 0.5])
    neg = np.array([0.5, 0.5, 0.3, 0.1])
    y = np.r_[np.ones(3, bool), np.zeros(4, bool)]
    s = np.r_[pos, neg]
    t = 0.5
    law: dict = {}
    for dp in itertools.product(pos, repeat=3):
        for dn in itertools.product(neg, repeat=4):
            cell = (int(np.sum(np.array(dp) >= t)), int(np.sum(np.array(dn) >= t)))
            law[cell] = law.get(cell, 0) + 1
    total = 3**3 * 4**4
    k = 4000
    worlds = draw_worlds(y, s, k, 99, t, max_points=4)
    cells = list(zip(np.rint(worlds.tpr * 3).astype(int), np.rint(worlds.fpr * 4).astype(int)))
    assert set(cells) <= set(law)
    for cell, count in law.items():
        p = count / total
        share = sum(c == cell for c in cells) / k
        assert abs(share - p) <= 4 * np.sqrt(p * (1 - p) / k) + 1e-12, cell


# --- section 5 -----------------------------------------------------------------------------------------


def test_averaging_figures():
    tci = rocci.threshold_ci(Y, S, total_positive_rate=[0.1, 0.5, 0.9])
    vci = rocci.vertical_ci(Y, S, fpr=[0.1, 0.5, 0.9])
    left, right = plots_learn.averaging_figures(ROC, tci, vci)
    assert kind(left, "threshold-region") and not kind(left, "vertical-bars")
    assert kind(right, "vertical-bars") and not kind(right, "threshold-region")
    x, y = _xy(kind(right, "vertical-bars")[0])
    np.testing.assert_array_equal(x, vci.fpr)
    np.testing.assert_array_equal(y, vci.tpr)
    bars = kind(right, "vertical-bars")[0].error_y
    np.testing.assert_allclose(np.asarray(bars.array), vci.tpr_high - vci.tpr)
    np.testing.assert_allclose(np.asarray(bars.arrayminus), vci.tpr - vci.tpr_low)


def test_long_hulls_keep_the_legend_short():
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(3000, bool), np.zeros(3000, bool)]
    s = np.r_[rng.normal(1, 1, 3000), rng.normal(0, 1, 3000)]
    roc, env = rocci.roc_curve(y, s), rocci.cost_curve(y, s)
    assert len(env.hull_thresholds) > plots_learn.MAX_LEGEND_VERTICES
    hull = plots_learn.hull_figure(roc, env)
    verts = kind(hull, "hull-vertex")
    assert len(verts) == len(env.hull_thresholds)
    assert sum(1 for v in verts if v.showlegend is not False) <= plots_learn.MAX_FEATURED + 1
    envfig = plots_learn.envelope_figure(roc, env)
    segs = kind(envfig, "envelope-segment")
    assert segs and not any(t.showlegend for t in segs)
    # Still every segment on the envelope.
    for t in segs:
        x, yv = _xy(t)
        np.testing.assert_allclose(yv, rocci.cost_curve(y, s, w=x).cost, atol=1e-12)
    # The thesis's short hull: every vertex that is ever the cheapest in the legend.
    assert all(v.showlegend is not False for v in kind(plots_learn.hull_figure(ROC, ENV), "hull-vertex")[:4])
