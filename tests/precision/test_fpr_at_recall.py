"""rocci.precision.compare_fpr_at_recall: two models at recall levels by their false positive rates.

* every stratified bootstrap sample enumerated on tiny data with ties (m = n and m != n): the law of
  ΔFPR* = (FP*_a − FP*_b)/m−, its moments, percentile bounds, P(ΔFPR* < 0) and P(ΔFPR* = 0) to 1e-12;
* P(A better) and P(tie) equal compare_precision's at the same level (the same event), on tied and
  continuous data, string labels, m != n;
* a seeded Monte Carlo bootstrap at n = 400;
* a PairedCounts gives the rows' numbers; recall_grid_cells is the count compare_precision refuses on.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import rocci
from precision import oracle
from reference.brute import class_samples
from reference.datasets import as_labels
from rocci.precision import compare_fpr_at_recall, compare_precision, recall_grid_cells
from rocci.precision import paired as paired_module

from .test_enumeration import _paired_tiny

TOL = 1e-12
ALPHA = 0.1


def fpr_difference_law(pos_a, pos_b, neg_a, neg_b, r, m_pos=None, m_neg=None) -> dict:
    """Law of (FP*_a − FP*_b)/m− at recall r/m+ (each model's r-th largest positive draw; the negative
    draws at or above it), every stratified sample visited, exact fractions (no rocci)."""
    pos_a, pos_b, neg_a, neg_b = (np.asarray(v, float) for v in (pos_a, pos_b, neg_a, neg_b))
    m_pos = pos_a.size if m_pos is None else m_pos
    m_neg = neg_a.size if m_neg is None else m_neg
    C, wc = class_samples(pos_a.size, m_pos)
    D, wd = class_samples(neg_a.size, m_neg)

    def rth_largest(scores):
        order = np.argsort(-scores, kind="stable")
        return scores[order][np.argmax(np.cumsum(C[:, order], axis=1) >= r, axis=1)]

    acc = {}
    for x, y, wa in zip(rth_largest(pos_a).tolist(), rth_largest(pos_b).tolist(), wc.tolist()):
        fa = D @ (neg_a >= x).astype(np.int64)
        fb = D @ (neg_b >= y).astype(np.int64)
        for u, v, wb in zip(fa.tolist(), fb.tolist(), wd.tolist()):
            key = Fraction(u - v, m_neg)
            acc[key] = acc.get(key, 0) + wa * wb
    total = pos_a.size**m_pos * neg_a.size**m_neg
    return {k: Fraction(v, total) for k, v in sorted(acc.items())}


@pytest.mark.parametrize("name, m", [("brief", None), ("ties", (4, 3)), ("ties", None), ("brief", (5, 3))])
def test_equals_enumeration(name, m):
    pos_a, pos_b, neg_a, neg_b = _paired_tiny(name)
    y, sa = as_labels(pos_a, neg_a)
    sb = np.r_[pos_b, neg_b]
    m_pos = m[0] if m else pos_a.size
    levels = np.arange(1, m_pos) / m_pos  # r = 1 … m+ − 1
    res = compare_fpr_at_recall(y, sa, sb, recall=levels, m=m, confidence_level=1 - ALPHA)
    frame = res.to_frame()
    mp, mn = m if m else (None, None)
    for i, r in enumerate(res.r):
        law = fpr_difference_law(pos_a, pos_b, neg_a, neg_b, int(r), mp, mn)
        values, probs = res.distribution(i)
        keep = probs > 0
        want_v = np.array([float(k) for k in law])
        want_p = np.array([float(p) for p in law.values()])
        np.testing.assert_allclose(values[keep], want_v, atol=TOL, rtol=0)
        np.testing.assert_allclose(probs[keep], want_p, atol=TOL, rtol=0)
        mean, sd = oracle.moments(law)
        assert abs(frame["delta_fpr_mean"][i] - mean) < TOL and abs(frame["delta_fpr_std"][i] - sd) < TOL
        assert abs(frame["delta_fpr_low"][i] - oracle.quantile(law, ALPHA / 2)) < TOL
        assert abs(frame["delta_fpr_high"][i] - oracle.quantile(law, 1 - ALPHA / 2)) < TOL
        assert abs(frame["p_a_better"][i] - sum(float(p) for k, p in law.items() if k < 0)) < TOL
        assert abs(frame["p_tie"][i] - float(law.get(Fraction(0), 0))) < TOL


def _models(n, share, digits, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    base = rng.normal(size=n)
    a = np.round(2.0 * y + 0.6 * base + rng.normal(size=n), digits)
    b = np.round(1.4 * y + 0.6 * base + rng.normal(size=n), digits)
    return y, a, b


@pytest.mark.parametrize("n, share, digits, m", [(600, 0.1, 1, None), (900, 0.05, 3, None), (500, 0.3, 2, (120, 300))])
def test_p_a_better_is_compare_precisions(n, share, digits, m):
    """Precision_a > precision_b at the same r exactly when FP*_a < FP*_b: the same probabilities."""
    y, a, b = _models(n, share, digits, seed=n)
    labels = np.where(y, "fraud", "ok")
    levels = [0.2, 0.5, 0.8]
    fpr = compare_fpr_at_recall(labels, a, b, recall=levels, m=m, pos_label="fraud")
    prec = compare_precision(labels, a, b, recall=levels, m=m, pos_label="fraud")
    assert np.array_equal(fpr.r, prec.r)
    np.testing.assert_allclose(fpr.p_a_better, prec.p_a_better, rtol=0, atol=1e-13)
    np.testing.assert_allclose(fpr.p_tie, prec.p_tie, rtol=0, atol=1e-13)
    assert (fpr.p_a_better > 0.5).any()  # A is the better model somewhere (the check is not vacuous)
    # observed: the rates at each model's ⌈recall·n+⌉-th largest positive score
    k = np.ceil(np.round(fpr.recall * y.sum(), 9)).astype(int)
    ta, tb = np.sort(a[y])[::-1][k - 1], np.sort(b[y])[::-1][k - 1]
    np.testing.assert_allclose(fpr.fpr_a, (a[~y][:, None] >= ta).mean(axis=0), rtol=0, atol=1e-15)
    np.testing.assert_allclose(fpr.fpr_b, (b[~y][:, None] >= tb).mean(axis=0), rtol=0, atol=1e-15)


@pytest.mark.montecarlo
def test_against_monte_carlo():
    y, a, b = _models(400, 0.25, 1, seed=8)
    levels = [0.3, 0.7]
    res = compare_fpr_at_recall(y, a, b, recall=levels, confidence_level=0.9)
    frame = res.to_frame()
    rng = np.random.default_rng(5)
    pa, pb, na, nb = a[y], b[y], a[~y], b[~y]
    B, z = 20_000, 4.5
    ip = rng.integers(0, pa.size, (B, pa.size))
    ineg = rng.integers(0, na.size, (B, na.size))
    sa_pos, sb_pos = -np.sort(-pa[ip], axis=1), -np.sort(-pb[ip], axis=1)
    for i, r in enumerate(res.r):
        ta, tb = sa_pos[:, r - 1], sb_pos[:, r - 1]
        d = ((na[ineg] >= ta[:, None]).sum(1) - (nb[ineg] >= tb[:, None]).sum(1)) / na.size
        sd = frame["delta_fpr_std"][i]
        assert abs(d.mean() - frame["delta_fpr_mean"][i]) < z * sd / np.sqrt(B)
        assert abs(d.std() - sd) < z * sd * np.sqrt(2.0 / B) * 1.5
        se = z * np.sqrt(0.25 / B)
        assert abs(np.mean(d < 0) - frame["p_a_better"][i]) < se
        for q, col in ((0.05, "delta_fpr_low"), (0.95, "delta_fpr_high")):
            assert np.mean(d < frame[col][i] - 1e-12) < q + se and np.mean(d <= frame[col][i] + 1e-12) > q - se


def test_paired_counts_give_the_rows_numbers():
    y, a, b = _models(700, 0.2, 1, seed=3)
    rows = compare_fpr_at_recall(y, a, b, recall=[0.25, 0.6, 0.9])
    table = (pd.DataFrame({"a": a, "b": b, "pos": y.astype(int), "neg": (~y).astype(int)})
             .groupby(["a", "b"], as_index=False).sum())
    counts = rocci.PairedCounts.from_frame(table, score_a="a", score_b="b", n_pos="pos", n_neg="neg")
    pd.testing.assert_frame_equal(compare_fpr_at_recall(counts, recall=[0.25, 0.6, 0.9]).to_frame(),
                                  rows.to_frame(), rtol=1e-13, atol=1e-15)


def test_grid_cells_are_what_compare_precision_refuses_on(monkeypatch):
    y, a, b = _models(1500, 0.1, 2, seed=4)
    cells = recall_grid_cells(y, a, b, recall=[0.8])
    assert cells.shape == (1,) and cells[0] > 10_000
    monkeypatch.setattr(paired_module, "MAX_GRID", int(cells[0]) - 1)
    with pytest.raises(rocci.InputError, match=f"{int(cells[0]):,} cells"):
        compare_precision(y, a, b, recall=[0.8])
    monkeypatch.setattr(paired_module, "MAX_GRID", int(cells[0]))
    compare_precision(y, a, b, recall=[0.8])  # no refusal at the limit
    # at any size the FPR route runs (a few thousand instances: already past the precision law's limit)
    y, a, b = _models(20_000, 0.05, 3, seed=6)
    assert recall_grid_cells(y, a, b, recall=[0.8])[0] > paired_module.MAX_GRID
    res = compare_fpr_at_recall(y, a, b, recall=[0.8])
    assert res.p_a_better[0] > 0.99 and res.delta_fpr_high[0] < 0


def test_recall_one_is_refused_with_a_message():
    y, a, b = _models(200, 0.3, 1, seed=1)
    with pytest.raises(rocci.InputError, match="recall levels below"):
        compare_fpr_at_recall(y, a, b, recall=[1.0])
