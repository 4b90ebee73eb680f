"""The one-dimensional routes (percentile bounds by CDF inversion over one count, moments in closed form or
by convolutions, recall moments by Chebyshev interpolation) equal the two-dimensional tables of cells they
replace, and nothing refuses a mid-ranking threshold at 10^6 rows."""

from __future__ import annotations

import numpy as np
import pytest

from rocci._core.counts import score_counts
from rocci.precision import METRICS, metric_ci, precision_ci
from rocci.precision import _cells, _laws
from rocci.precision import recall as recall_mod
from rocci.precision._laws import Law
from rocci.precision._metrics import merge_rtol

TOL = 1e-12


def _data(n, ties, share=0.3, seed=5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    s = rng.normal(0, 1, n) + y
    return y, (np.round(s, 1) if ties else s)


def _old_stratified(metric, y, s, thresholds, beta2):
    """The table of every cell (the route before the 1-D sums), reduced by Law."""
    counts = score_counts(s[y == 1], s[y == 0])
    out = []
    for t in thresholds:
        tp, fp = int(counts.n_pos_ge(t)), int(counts.n_neg_ge(t))
        cells = _cells.stratified_cells(metric, tp, fp, counts.n_pos, counts.n_neg, counts.n_pos, counts.n_neg,
                                        beta2)
        out.append(Law(*cells, merge_rtol=merge_rtol(metric, beta2)))
    return out


@pytest.fixture
def small_routes(monkeypatch):
    """Force the new routes at sizes where the table still runs: closed-form and FFT-convolution moments,
    CDF inversion with few cells enumerated."""
    monkeypatch.setattr(_cells, "DIRECT_CELLS", 0)
    monkeypatch.setattr(_cells, "FFT_CELLS", 0)
    monkeypatch.setattr(_laws, "ENUM_CELLS", 8)
    monkeypatch.setattr(_laws, "STAIRCASE_CELLS", 8)
    monkeypatch.setattr(_cells, "ENUM_CELLS", 8)
    _cells._window.cache_clear()


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("metric", METRICS)
def test_stratified_routes_equal_the_table(small_routes, metric, ties):
    y, s = _data(1500, ties)
    t = np.quantile(s, [0.0, 0.02, 0.3, 0.6, 0.97, 1.0])
    beta = 1.3 if metric == "fbeta" else 1.0
    res = metric_ci(y, s, metric=metric, thresholds=t, confidence_level=0.9, beta=beta)
    old = _old_stratified(metric, y, s, t, beta * beta)
    for i, law in enumerate(old):
        assert abs(res.mean[i] - law.mean) < TOL or (np.isnan(res.mean[i]) and np.isnan(law.mean))
        assert abs(res.std[i] - law.std) < TOL or (np.isnan(res.std[i]) and np.isnan(law.std))
        for got, q in ((res.low[i], 0.05), (res.high[i], 0.95)):
            want = law.quantile(q)
            assert got == want or (np.isnan(got) and np.isnan(want))
        assert abs(res.p_undefined[i] - law.p_undefined) < TOL
        assert abs(res.truncated_mass[i] - law.truncated) < TOL
    values, probs = res.distribution(2)
    np.testing.assert_array_equal(values, old[2].values)
    np.testing.assert_allclose(probs, old[2].probs, atol=TOL, rtol=0)


@pytest.mark.parametrize("ties", [False, True])
def test_full_precision_route_equals_the_table(monkeypatch, ties):
    monkeypatch.setattr(_laws, "ENUM_CELLS", 8)
    y, s = _data(1500, ties)
    t = np.quantile(s, [0.0, 0.02, 0.5, 0.97, 1.0])
    for m in (None, 700):
        res = metric_ci(y, s, metric="precision", thresholds=t, bootstrap="full", m=m)
        for i, ti in enumerate(t):
            tp, fp = int(res.tp[i]), int(res.fp[i])
            law = Law(*_cells._full_precision_cells(tp, fp, y.size, m or y.size))
            assert abs(res.mean[i] - law.mean) < TOL and abs(res.std[i] - law.std) < TOL
            assert res.low[i] == law.quantile(0.025) and res.high[i] == law.quantile(0.975)
            assert abs(res.p_undefined[i] - law.p_undefined) < TOL


@pytest.mark.parametrize("ties", [False, True])
def test_recall_interpolated_moments_equal_the_sums(monkeypatch, ties):
    y, s = _data(40_000, ties, share=0.2)
    levels = [0.01, 0.3, 0.7, 0.99]
    monkeypatch.setattr(recall_mod, "_DIRECT", 0)
    new = precision_ci(y, s, recall=levels).to_frame()
    monkeypatch.setattr(recall_mod, "_DIRECT", 1 << 62)
    old = precision_ci(y, s, recall=levels).to_frame()
    for col in ("precision_mean", "precision_std", "precision_low", "precision_high", "truncated_mass"):
        np.testing.assert_allclose(new[col], old[col], atol=TOL, rtol=0)


def test_million_rows_mid_ranking_does_not_refuse():
    rng = np.random.default_rng(7)
    n = 1_000_000
    y = (rng.random(n) < 0.1).astype(int)
    s = rng.normal(0, 1, n) + 1.5 * y
    t = np.quantile(s, [0.3, 0.5, 0.8])  # ~2·10^7 cells each: over the old 12M limit
    res = precision_ci(y, s, thresholds=t)
    f = res.to_frame()
    assert np.isfinite(f[["precision_mean", "precision_std", "precision_low", "precision_high"]].to_numpy()).all()
    assert ((f["precision_low"] <= f["precision"]) & (f["precision"] <= f["precision_high"])).all()
    mcc = metric_ci(y, s, metric="mcc", thresholds=t[1:2])
    assert np.isfinite(mcc.low[0]) and mcc.low[0] < mcc.value[0] < mcc.high[0]
    full = precision_ci(y, s, thresholds=t[1:2], bootstrap="full")
    assert np.isfinite(full.low[0]) and full.low[0] <= full.value[0] <= full.high[0]
