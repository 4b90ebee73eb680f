"""Paired vertical averaging: vectors 4.1–4.5 and enumeration of every bootstrap sample."""

import itertools
import json
from math import factorial
from pathlib import Path

import numpy as np
import pytest

from rocci.vertical_paired import _PairedData, compare_vertical

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "shared" / "vectors" / "vectors.json").read_text())
PAIRED = [v for v in VECTORS["vectors"] if v["kind"] == "vertical_paired"]


def _arrays(i):
    y = np.r_[np.ones(len(i["pos1"]), int), np.zeros(len(i["neg1"]), int)]
    return y, np.r_[i["pos1"], i["neg1"]], np.r_[i["pos2"], i["neg2"]]


@pytest.mark.parametrize("vec", PAIRED, ids=[v["id"] for v in PAIRED])
def test_vertical_paired_vectors(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, a, b = _arrays(i)
    n_pos, n_neg = len(i["pos1"]), len(i["neg1"])
    # r = m− (FPR 1) lies outside the public range 1..m−−1; the kernel handles it.
    ctx = _PairedData(a[y == 1], b[y == 1], a[y == 0], b[y == 0], n_pos, n_neg)
    lv = ctx.level(i["r"])
    got = dict(zip(lv["d"].tolist(), lv["pmf"]))
    for d, p in zip(e["d"], e["pmf"]):
        assert got.get(d, 0.0) == pytest.approx(p, abs=tol)
    assert lv["mean"] == pytest.approx(e["mean_dtpr"], abs=tol)
    assert lv["std"] ** 2 == pytest.approx(e["var_dtpr"], abs=tol)
    if "f_joint" in e:
        k, j, f = lv["joint"]
        full = np.zeros((n_neg, n_neg))
        full[np.ix_(k - 1, j - 1)] = f
        np.testing.assert_allclose(full, e["f_joint"], rtol=0, atol=tol)
    if i["r"] < n_neg:
        res = compare_vertical(y, a, b, fpr=[i["r"] / n_neg])
        assert res.delta_tpr_mean[0] == pytest.approx(e["mean_dtpr"], abs=tol)


def _multisets(n, m):
    """Every multiset of m draws from n items, with its multinomial probability."""
    for combo in itertools.combinations_with_replacement(range(n), m):
        counts = np.bincount(combo, minlength=n)
        w = factorial(m) / np.prod([factorial(c) for c in counts]) / n**m
        yield np.array(combo), w


@pytest.mark.parametrize("m", [None, (4, 5), (3, 7)])
def test_enumeration_of_every_paired_bootstrap_sample(m):
    """Tiny paired data with ties in both models: the exact law equals the
    average over every stratified bootstrap sample, to 1e-12."""
    pos_a = np.array([0.9, 0.6, 0.5, 0.5])
    pos_b = np.array([0.4, 0.8, 0.5, 0.2])
    neg_a = np.array([0.7, 0.5, 0.5, 0.3, 0.1])
    neg_b = np.array([0.6, 0.3, 0.55, 0.3, 0.9])
    y = np.r_[np.ones(4, int), np.zeros(5, int)]
    a, b = np.r_[pos_a, neg_a], np.r_[pos_b, neg_b]
    m_pos, m_neg = (4, 5) if m is None else m
    for r in range(1, m_neg):
        law: dict[int, float] = {}
        for neg_idx, w_neg in _multisets(5, m_neg):
            t_a = np.sort(neg_a[neg_idx])[::-1][r - 1]
            t_b = np.sort(neg_b[neg_idx])[::-1][r - 1]
            for pos_idx, w_pos in _multisets(4, m_pos):
                pa, pb = pos_a[pos_idx], pos_b[pos_idx]
                d = int(np.sum((pa >= t_a) & (pb < t_b)) - np.sum((pa < t_a) & (pb >= t_b)))
                law[d] = law.get(d, 0.0) + w_neg * w_pos
        res = compare_vertical(y, a, b, fpr=[r / m_neg], m=m)
        values, probs = res.distribution(0)
        got = dict(zip(np.rint(values * m_pos).astype(int).tolist(), probs))
        for d in set(law) | set(got):
            assert got.get(d, 0.0) == pytest.approx(law.get(d, 0.0), abs=1e-12), (r, d)
        mean = sum(d * p for d, p in law.items()) / m_pos
        assert res.delta_tpr_mean[0] == pytest.approx(mean, abs=1e-12)
        assert res.p_a_better[0] == pytest.approx(sum(p for d, p in law.items() if d > 0), abs=1e-12)
        assert res.p_tie[0] == pytest.approx(law.get(0, 0.0), abs=1e-12)


def test_monte_carlo_correlated_binormal():
    """ρ = 0.6 binormal scores, 30 + 30 instances: 2·10⁵ seeded resamples agree
    with the exact mean, variance, P(Δ > 0), P(Δ = 0) and law within 4.5 SE."""
    rng = np.random.default_rng(7)
    n_pos = n_neg = 30
    cov = [[1.0, 0.6], [0.6, 1.0]]
    pos = rng.multivariate_normal([1.0, 1.5], cov, n_pos).round(1)  # ties
    neg = rng.multivariate_normal([0.0, 0.0], cov, n_neg).round(1)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    a, b = np.r_[pos[:, 0], neg[:, 0]], np.r_[pos[:, 1], neg[:, 1]]
    fprs = [0.1, 0.5]
    res = compare_vertical(y, a, b, fpr=fprs)
    B = 200_000
    for i, r in enumerate(res.r):
        d = np.empty(B)
        for start in range(0, B, 50_000):
            size = min(50_000, B - start)
            ni = rng.integers(0, n_neg, (size, n_neg))
            t_a = -np.partition(-neg[ni, 0], r - 1, axis=1)[:, r - 1]
            t_b = -np.partition(-neg[ni, 1], r - 1, axis=1)[:, r - 1]
            pi = rng.integers(0, n_pos, (size, n_pos))
            pa, pb = pos[pi, 0], pos[pi, 1]
            ta, tb = t_a[:, None], t_b[:, None]
            d[start:start + size] = ((pa >= ta) & (pb < tb)).sum(1) - ((pa < ta) & (pb >= tb)).sum(1)
        delta = d / n_pos
        se_mean = delta.std() / np.sqrt(B)
        assert abs(delta.mean() - res.delta_tpr_mean[i]) < 4.5 * se_mean
        fourth = np.mean((delta - delta.mean()) ** 4)
        se_var = np.sqrt((fourth - delta.var() ** 2) / B)
        assert abs(delta.var() - res.delta_tpr_std[i] ** 2) < 4.5 * se_var
        for got, exact in ((np.mean(delta > 0), res.p_a_better[i]), (np.mean(delta == 0), res.p_tie[i])):
            assert abs(got - exact) < 4.5 * np.sqrt(exact * (1 - exact) / B) + 1e-12
        values, probs = res.distribution(i)
        counts = np.bincount((d + n_pos).astype(int), minlength=2 * n_pos + 1) / B
        # Bonferroni over the support: 5.3 SE keeps a chance failure below 1e-5.
        assert np.all(np.abs(counts - probs) <= 5.3 * np.sqrt(probs * (1 - probs) / B) + 1e-12)
