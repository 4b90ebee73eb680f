"""The mixture of bivariate binomials behind compare_precision at recall levels (rocci.precision._paired_recall,
issue 14): the Krawtchouk values past the forward recurrence's stable degree (the dual recurrence, mirrored for
shares above 1/2) against 300-digit arithmetic, the batched cell-by-cell route and the series (its row groups,
its term counts and its narrowed windows) against one exact joint law per pair of blocks
(paired.bivariate_counts), and compare_precision against the former route (paired._recall_law) on data that
reach each branch: small shares (the dual recurrence), ρ = 0 rows, nearly identical models (the cell-by-cell
route), ties, imbalance, m != n and the bundled data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rocci._core.exact import binomial_pmf
from rocci.precision import _paired_recall as R
from rocci.precision import compare_precision
from rocci.precision import paired as P
from rocci.precision._laws import window_tails

from .test_paired_fast import _old_law

DATA = Path(__file__).resolve().parents[2] / "data"


def _exact_phi(n: int, p: float, points, degrees: int) -> np.ndarray:
    """``φ_ℓ(u) = b(u; n, p)·k̂_ℓ(u)`` for ``ℓ < degrees`` by the forward recurrence in 300-digit arithmetic."""
    mp = pytest.importorskip("mpmath")
    with mp.workdps(300):
        p_, q_ = mp.mpf(p), 1 - mp.mpf(p)
        out = np.zeros((degrees, len(points)))
        for j, u in enumerate(points):
            b = mp.binomial(n, u) * p_**u * q_**(n - u)
            k_prev, k_cur = mp.mpf(0), mp.mpf(1)
            out[0, j] = float(b)
            for d in range(degrees - 1):
                k_prev, k_cur = k_cur, (((p_ * (n - d) + d * q_ - u) * k_cur - mp.sqrt(d * (n - d + 1) * p_ * q_) * k_prev)
                                        / mp.sqrt((d + 1) * (n - d) * p_ * q_))
                out[d + 1, j] = float(b * k_cur)
    return out


@pytest.mark.parametrize("n, p, degrees", [(200, 0.03, 120), (200, 0.97, 120), (300, 0.01, 150), (600, 0.004, 90),
                                           (400, 0.5, 60)])
def test_krawtchouk_values_past_the_stable_degree(n, p, degrees):
    share = np.array([p])
    lo, hi, _ = R._tight_windows(n, share)
    kraw = R._Krawtchouk(n, share, lo, hi)
    forward_stable = kraw.stable.copy()
    kraw.extend(np.array([degrees]))
    width = int(hi[0] - lo[0]) + 1
    got = np.array([kraw.next()[0, :width] for _ in range(degrees)])
    points = list(range(int(lo[0]), int(hi[0]) + 1))
    exact = _exact_phi(n, p, points, degrees)
    covered = np.arange(degrees)[:, None] <= kraw.stable[0, :width][None, :]
    if p != 0.5:  # small n·p or n·(1 − p): the forward recurrence stops early, the dual one covers the rest
        assert (forward_stable[0, :width] < degrees - 1).any()
        assert covered.all()
    # Each value within 2e-14·√b(u) (|φ_ℓ(u)| <= √b(u)); 0 (and counted in the bound) where not covered.
    err = np.abs(got - exact) / np.sqrt(kraw.base[0, :width])[None, :]
    assert err[covered].max() < 2e-14
    assert np.all(got[~covered] == 0.0)


def test_binomial_rows_and_narrowed_windows():
    rng = np.random.default_rng(3)
    n = rng.integers(0, 3000, 400).astype(float)
    p = np.r_[rng.random(390), 0.0, 1.0, 1e-6, 1 - 1e-6, 0.5, 0.5, 0.999, 0.001, 0.3, 0.7]
    lo = np.floor(n * p - rng.integers(0, 60, p.size)).clip(0).astype(np.int64)
    lo = np.minimum(lo, n.astype(np.int64))
    hi = np.minimum(lo + rng.integers(0, 120, p.size), n.astype(np.int64))
    width = int((hi - lo).max()) + 1
    got = R._binomial_rows(n, p, lo, hi, width)
    k = lo[:, None] + np.arange(width)[None, :]
    want = np.where(k <= hi[:, None], binomial_pmf(k, n[:, None], p[:, None]), 0.0)
    # (boost's own pmf is off by up to ~1.2e-13 relative at k = 0 for n = 763, p = 0.012: the anchors carry it)
    np.testing.assert_allclose(got, want, rtol=3e-13, atol=1e-300)
    # Narrowed windows: each tail left out at most 1e-17, exact, and no wider than Bernstein's.
    for m in (1, 25, 357, 1411, 7000):
        share = np.r_[0.0, 1.0, 1e-5, rng.random(40), 1 - 1e-5]
        lo_t, hi_t, tail = R._tight_windows(m, share)
        lo_b, hi_b, _ = R._windows(m, share)
        assert np.all(lo_t >= lo_b) and np.all(hi_t <= hi_b) and np.all(lo_t <= hi_t)
        np.testing.assert_allclose(tail, window_tails(m, share, lo_t, hi_t), rtol=0, atol=0)
        left = window_tails(m, share, lo_t, np.full(share.size, m))
        right = window_tails(m, share, np.zeros(share.size, np.int64), hi_t)
        assert left.max() <= 1.0000001e-17 and right.max() <= 1.0000001e-17


def _pairs(seed: int, n: int, rows: int, cols: int, kind: str):
    """A random mixture: blocks of A's and B's top sets (nested, increasing), overlaps from one ranking each."""
    rng = np.random.default_rng(seed)
    score_a = rng.normal(size=n)
    noise = {"close": 0.02, "reversed": 1.0}.get(kind, 0.7)
    score_b = (-score_a if kind == "reversed" else score_a) + noise * rng.normal(size=n)
    order_a, order_b = np.argsort(-score_a), np.argsort(-score_b)
    first = {"small": 0, "close": n // 3, "large": n - 3 * max(rows, cols) - 5}.get(kind, n // 4)
    n_a = first + np.cumsum(rng.integers(1, 4, rows))
    n_b = first + np.cumsum(rng.integers(1, 4, cols))
    rank_b = np.empty(n, np.int64)
    rank_b[order_b] = np.arange(n)
    c = np.array([[int((rank_b[order_a[:ka]] < kb).sum()) for kb in n_b] for ka in n_a], np.int64)
    w = rng.random((rows, cols)) ** 4
    w[rng.random(w.shape) < 0.2] = 0.0
    w[0, 0] = 1e-30  # the lightest pairs are left out (at most 1e-17 in all)
    return w / w.sum(), n_a.astype(np.int64), n_b.astype(np.int64), c


def _mixture_dense(grids, shape_from):
    u_lo = min(g[0] for g in grids + shape_from)
    v_lo = min(g[1] for g in grids + shape_from)
    u_hi = max(g[0] + g[2].shape[0] for g in grids + shape_from)
    v_hi = max(g[1] + g[2].shape[1] for g in grids + shape_from)
    out = np.zeros((u_hi - u_lo, v_hi - v_lo))
    for u0, v0, g in grids:
        out[u0 - u_lo:u0 - u_lo + g.shape[0], v0 - v_lo:v0 - v_lo + g.shape[1]] += g
    return out


def _reference(w, n_a, n_b, c, n, m):
    """One exact joint law per pair of blocks (paired.bivariate_counts), summed on a grid."""
    cells = []
    for i, j in zip(*np.nonzero(w)):
        x, y, p, _ = P.bivariate_counts(m, n, int(c[i, j]), int(n_a[i] - c[i, j]), int(n_b[j] - c[i, j]))
        cells.append((x, y, w[i, j] * p))
    u0 = int(min(x.min() for x, _, _ in cells))
    v0 = int(min(y.min() for _, y, _ in cells))
    grid = np.zeros((int(max(x.max() for x, _, _ in cells)) - u0 + 1, int(max(y.max() for _, y, _ in cells)) - v0 + 1))
    for x, y, p in cells:
        np.add.at(grid, (x - u0, y - v0), p)
    return u0, v0, grid


@pytest.mark.parametrize("n, m, rows, cols, kind, seed", [
    (400, 400, 12, 10, "small", 1),      # shares near 0: the dual recurrence
    (400, 250, 10, 12, "large", 2),      # shares near 1: mirrored
    pytest.param(500, 500, 14, 14, "apart", 3, marks=pytest.mark.slow),  # the series
    (500, 700, 10, 10, "close", 4),      # ρ near 1: pairs summed cell by cell (batched)
    (300, 300, 8, 9, "reversed", 5),     # ρ < 0
    (120, 60, 6, 6, "apart", 6),         # m < n
])
def test_mixture_grid_against_one_law_per_pair(n, m, rows, cols, kind, seed):
    w, n_a, n_b, c = _pairs(seed, n, rows, cols, kind)
    grids, trunc, direct, terms = R.mixture_grid(w, n_a, n_b, c, n, m, "test")
    ref = _reference(w, n_a, n_b, c, n, m)
    mine = _mixture_dense(grids, [ref])
    theirs = _mixture_dense([ref], grids)
    # Cells agree to rounding; the two routes' cut-off masses (at most ~1e-16 each) bound the rest.
    assert np.abs(mine - theirs).max() < 5e-16
    assert abs(mine.sum() - theirs.sum()) < 1e-14  # (rounding summed over thousands of cells)
    assert 0.0 <= trunc < 1e-15
    if kind == "close":
        assert direct > 0


def test_direct_route_for_every_pair_equals_the_series(monkeypatch):
    """All pairs through the batched cell-by-cell route (no series) give the series' law."""
    w, n_a, n_b, c = _pairs(7, 600, 12, 12, "apart")
    series, *_ = R.mixture_grid(w, n_a, n_b, c, 600, 600, "test")
    monkeypatch.setattr(R, "_MAX_TERMS", 0)
    direct, _, count, _ = R.mixture_grid(w, n_a, n_b, c, 600, 600, "test")
    assert count == np.count_nonzero(w > 1e-20) and len(direct) == 1
    a = _mixture_dense(series, direct)
    b = _mixture_dense(direct, series)
    assert np.abs(a - b).max() < 5e-16


def _data(n, share, seed, digits=None, rho=0.7, shift=0.3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    y[:2] = 1
    a = y + rng.normal(size=n)
    b = rho * a + np.sqrt(max(1 - rho**2, 0.0)) * rng.normal(size=n) + shift * y
    if digits is not None:
        a, b = np.round(a, digits), np.round(b, digits)
    return y, a, b


def _atoms_close(new, old, tol=1e-14):
    """The two laws' probabilities value by value (values within 1e-12 are one value)."""
    values = np.union1d(new.values, old.values)
    group = np.r_[0, np.cumsum(np.diff(values) > 1e-12)]
    a, b = np.zeros(group[-1] + 1), np.zeros(group[-1] + 1)
    np.add.at(a, group[np.searchsorted(values, new.values)], new.probs * new.defined)
    np.add.at(b, group[np.searchsorted(values, old.values)], old.probs * old.defined)
    assert np.abs(a - b).max() < tol


@pytest.mark.parametrize("n, share, digits, rho, m, recalls, metric", [
    pytest.param(400, 0.06, None, 0.7, None, (0.1, 0.5, 1.0), "precision",  # few negatives above: small shares
                 marks=pytest.mark.slow),
    (400, 0.2, None, 0.999, None, (0.3, 0.8), "precision"),            # nearly identical: cell by cell
    pytest.param(300, 0.3, 1, 0.8, None, (0.05, 0.5, 0.95), "f1", marks=pytest.mark.slow),  # ties
    pytest.param(300, 0.4, None, 0.6, (60, 150), (0.2, 0.9), "precision", marks=pytest.mark.slow),  # m != n
    (500, 0.85, 2, 0.7, (300, 40), (0.5, 0.99), "precision"),          # few negatives, m− < n−
    pytest.param(200, 0.3, None, -0.6, None, (0.5,), "f1", marks=pytest.mark.slow),  # models apart
])
def test_compare_precision_equals_the_former_route(n, share, digits, rho, m, recalls, metric):
    y, sa, sb = _data(n, share, 11, digits, rho)
    res = compare_precision(y, sa, sb, recall=list(recalls), metric=metric, m=m)
    for i, r in enumerate(res.r):
        old = _old_law(y, sa, sb, int(r), metric, m)
        new = res._laws[i]
        _atoms_close(new, old)
        assert abs(new.mean - old.mean) < 1e-14 and abs(new.std - old.std) < 1e-14
        assert res.truncated_mass[i] < 1e-14


def test_bundled_data_every_level_equals_the_former_route():
    frame = pd.read_csv(DATA / "breast_cancer_cv.csv")
    y = (frame.label.values == "malignant").astype(int)
    sa, sb = frame.logistic.values, frame.naive_bayes.values
    levels = np.r_[0.01, 0.3, 0.62, 0.8, 0.86, 0.92, 0.95, 0.99]  # high levels: A has no negatives above
    res = compare_precision(y, sa, sb, recall=levels)
    for i, r in enumerate(res.r):
        _atoms_close(res._laws[i], _old_law(y, sa, sb, int(r), "precision"))
