"""rocci.precision.gain_ci: the gain, lift and total positive rate (depth) of a gain chart with exact laws.

* every bootstrap sample enumerated on tiny data with ties (stratified and full, m = n and m != n; at fixed
  thresholds and at fixed depths, where ties are broken in every possible order): laws, means, sds and
  percentile bounds to 1e-12;
* a seeded Monte Carlo bootstrap at n = 200: means, sds and bounds within a few Monte Carlo standard errors;
* the Tanagra tutorial's 20-row table (seed 004): depth (TRC), gain (rappel) and lift by hand.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rocci
from precision import oracle
from reference.brute import class_samples
from reference.datasets import TINY, as_labels
from rocci.precision import gain_ci

TOL = 1e-12
ALPHA = 0.1
ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------------------------------
# Oracles, from the definitions (no rocci)
# ------------------------------------------------------------------------------------------------------
def _finish(acc: dict, denom: int) -> dict:
    law = {}
    for key, w in acc.items():
        law[float(key)] = law.get(float(key), 0) + Fraction(w) / denom
    return dict(sorted(law.items()))


def depth_law_stratified(pos, neg, t, m_pos, m_neg) -> dict:
    """Law of (TP* + FP*)/(m+ + m−) at threshold t, every stratified sample visited."""
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    C, wc = class_samples(pos.size, m_pos)
    D, wd = class_samples(neg.size, m_neg)
    tp = C @ (pos >= t).astype(np.int64)
    fp = D @ (neg >= t).astype(np.int64)
    acc = {}
    for a, wa in zip(tp.tolist(), wc.tolist()):
        for b, wb in zip(fp.tolist(), wd.tolist()):
            key = Fraction(a + b, m_pos + m_neg)
            acc[key] = acc.get(key, 0) + wa * wb
    return _finish(acc, pos.size**m_pos * neg.size**m_neg)


def depth_law_full(pos, neg, t, m) -> dict:
    scores = np.r_[np.asarray(pos, float), np.asarray(neg, float)]
    C, wc = class_samples(scores.size, m)
    pp = C @ (scores >= t).astype(np.int64)
    acc = {}
    for s, w in zip(pp.tolist(), wc.tolist()):
        acc[Fraction(s, m)] = acc.get(Fraction(s, m), 0) + w
    return _finish(acc, scores.size**m)


def tie_orders(pos, neg):
    """Every strict order of the instances consistent with the scores (decreasing), ties in every order:
    a list of arrays of (class, index) pairs, all equally likely."""
    items = [(s, 1, i) for i, s in enumerate(pos)] + [(s, 0, i) for i, s in enumerate(neg)]
    groups = {}
    for it in items:
        groups.setdefault(it[0], []).append(it[1:])
    blocks = [list(itertools.permutations(groups[s])) for s in sorted(groups, reverse=True)]
    return [sum(choice, ()) for choice in itertools.product(*blocks)]


def gain_law_at_depth(pos, neg, k, m_pos, m_neg) -> dict:
    """Law of G*/m+, G* the positives among the top k draws of a stratified sample, tied *draws* in a
    uniformly random order (every order of the draws sharing a score equally likely, copies of one
    instance included): every sample visited; in the score group that the k-th place cuts, the positives
    among the d places it takes are hypergeometric (d draws without replacement from its p positive and
    q negative draws)."""
    pos, neg = list(pos), list(neg)
    scores = sorted(set(pos) | set(neg), reverse=True)
    pos_at = [[i for i, v in enumerate(pos) if v == sc] for sc in scores]
    neg_at = [[i for i, v in enumerate(neg) if v == sc] for sc in scores]
    C, wc = class_samples(len(pos), m_pos)
    D, wd = class_samples(len(neg), m_neg)
    acc = {}
    for cp, wa in zip(C.tolist(), wc.tolist()):
        for cn, wb in zip(D.tolist(), wd.tolist()):
            taken, g, w = 0, 0, wa * wb
            for ip, ineg in zip(pos_at, neg_at):
                p, q = sum(cp[i] for i in ip), sum(cn[i] for i in ineg)
                if taken + p + q < k:
                    taken, g = taken + p + q, g + p
                    continue
                d = k - taken
                for x in range(max(0, d - q), min(d, p) + 1):
                    key = Fraction(g + x, m_pos)
                    share = Fraction(math.comb(p, x) * math.comb(q, d - x), math.comb(p + q, d))
                    acc[key] = acc.get(key, 0) + w * share
                break
    return _finish(acc, len(pos) ** m_pos * len(neg) ** m_neg)


def check_law(res, i, quantity, law, undefined=0):
    values, probs = res.distribution(i, quantity)
    want_v = np.array(list(law), float)
    want_p = np.array([float(p) for p in law.values()])
    assert values.size == want_v.size, (quantity, values, want_v)
    np.testing.assert_allclose(values, want_v, atol=TOL, rtol=0)
    np.testing.assert_allclose(probs, want_p, atol=TOL, rtol=0)
    frame = res.to_frame()
    mean, sd = oracle.moments(law)
    assert abs(frame[f"{quantity}_mean"][i] - mean) < TOL
    assert abs(frame[f"{quantity}_std"][i] - sd) < TOL
    assert abs(frame[f"{quantity}_low"][i] - oracle.quantile(law, ALPHA / 2)) < TOL
    assert abs(frame[f"{quantity}_high"][i] - oracle.quantile(law, 1 - ALPHA / 2)) < TOL
    if quantity == "lift":
        assert abs(frame["p_undefined"][i] - float(undefined)) < TOL
    assert frame["truncated_mass"][i] < 1e-15


# ------------------------------------------------------------------------------------------------------
# Enumeration
# ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, m", [("brief", None), ("brief", (3, 4)), ("ties", None), ("ties", (4, 3))])
def test_thresholds_stratified_equal_enumeration(name, m):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    t = np.unique(s)[::-1]
    res = gain_ci(y, s, thresholds=t, confidence_level=1 - ALPHA, m=m)
    mp, mn = m or (len(pos), len(neg))
    for i, ti in enumerate(t):
        check_law(res, i, "total_positive_rate", depth_law_stratified(pos, neg, ti, mp, mn))
        check_law(res, i, "gain", oracle.stratified_law("recall", pos, neg, ti, mp, mn)[0])
        lift, undefined = oracle.stratified_law("lift", pos, neg, ti, mp, mn)
        check_law(res, i, "lift", lift, undefined)
        # the closed forms of the docstring
        p, q = np.mean(np.asarray(pos) >= ti), np.mean(np.asarray(neg) >= ti)
        M = mp + mn
        assert res.total_positive_rate_mean[i] == pytest.approx((mp * p + mn * q) / M, abs=TOL)
        sd = math.sqrt(mp * p * (1 - p) + mn * q * (1 - q)) / M
        assert res.total_positive_rate_std[i] == pytest.approx(sd, abs=TOL)
        assert res.p_undefined[i] == pytest.approx((1 - p) ** mp * (1 - q) ** mn, abs=TOL)


@pytest.mark.parametrize("name, m", [("brief", 6), ("ties", None)])
def test_thresholds_full_equal_enumeration(name, m):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    t = np.unique(s)[::-1][:4]
    res = gain_ci(y, s, thresholds=t, confidence_level=1 - ALPHA, m=m, bootstrap="full")
    mm = m or len(pos) + len(neg)
    for i, ti in enumerate(t):
        check_law(res, i, "total_positive_rate", depth_law_full(pos, neg, ti, mm))
        check_law(res, i, "gain", oracle.full_law("recall", pos, neg, ti, mm)[0])
        lift, undefined = oracle.full_law("lift", pos, neg, ti, mm)
        check_law(res, i, "lift", lift, undefined)


@pytest.mark.parametrize("name, m", [("brief", None), ("brief", (3, 4)), ("ties", None), ("ties", (4, 3))])
def test_fixed_depths_equal_enumeration_with_random_tie_order(name, m):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    mp, mn = m or (len(pos), len(neg))
    M = mp + mn
    depths = np.arange(1, M + 1) / M
    res = gain_ci(y, s, total_positive_rate=depths, confidence_level=1 - ALPHA, m=m)
    assert list(res.k) == list(range(1, M + 1))
    for i, k in enumerate(res.k):
        law = gain_law_at_depth(pos, neg, int(k), mp, mn)
        check_law(res, i, "gain", law)
        lift = {v * M / k: p for v, p in law.items()}
        check_law(res, i, "lift", lift)
        values, probs = res.distribution(i, "total_positive_rate")
        assert values.tolist() == [k / M] and probs.tolist() == [1.0]


def test_fixed_depth_observed_gain_is_the_straight_segment():
    """On the data, the gain at a depth is the expected gain when tied scores are ordered at random."""
    pos, neg = TINY["ties"]
    y, s = as_labels(pos, neg)
    n = len(pos) + len(neg)
    res = gain_ci(y, s, total_positive_rate=np.arange(1, n + 1) / n)
    orders = tie_orders(pos, neg)
    for i, k in enumerate(res.k):
        expected = sum(sum(cls for cls, _ in order[:k]) for order in orders) / len(orders)
        assert res.gain[i] == pytest.approx(expected / len(pos), abs=TOL)
        assert res.lift[i] == pytest.approx(expected / len(pos) / (k / n), abs=TOL)


# ------------------------------------------------------------------------------------------------------
# Monte Carlo at n = 200
# ------------------------------------------------------------------------------------------------------
Z = 4.5
B = 40_000


def _data(n=200, share=0.15, seed=3, digits=1):
    rng = np.random.default_rng(seed)
    n_pos = int(n * share)
    y = np.r_[np.ones(n_pos, int), np.zeros(n - n_pos, int)]
    return y, np.round(rng.normal(0, 1, n) + 1.3 * y, digits)  # one decimal: many ties between classes


def _check_mc(res, i, quantity, sample):
    sample = sample[~np.isnan(sample)]
    b = sample.size
    frame = res.to_frame()
    mean, sd = frame[f"{quantity}_mean"][i], frame[f"{quantity}_std"][i]
    assert abs(sample.mean() - mean) < Z * sd / np.sqrt(b) + 1e-12, quantity
    assert abs(sample.std() - sd) < Z * sd * np.sqrt(2.0 / b) * 1.5 + 1e-12, quantity
    for q, col in ((ALPHA / 2, f"{quantity}_low"), (1 - ALPHA / 2, f"{quantity}_high")):
        bound = frame[col][i]
        se = Z * np.sqrt(q * (1 - q) / b)
        assert np.mean(sample < bound - 1e-12) < q + se, (quantity, q)
        assert np.mean(sample <= bound + 1e-12) > q - se, (quantity, q)


@pytest.mark.montecarlo
def test_thresholds_against_monte_carlo_stratified_and_full():
    y, s = _data()
    pos, neg = s[y == 1], s[y == 0]
    t = np.quantile(s, [0.95, 0.8, 0.5])
    rng = np.random.default_rng(11)
    res = gain_ci(y, s, thresholds=t, confidence_level=1 - ALPHA)
    ip = rng.integers(0, pos.size, (B, pos.size))
    ineg = rng.integers(0, neg.size, (B, neg.size))
    M = pos.size + neg.size
    for i, ti in enumerate(t):
        tp = (pos[ip] >= ti).sum(1)
        fp = (neg[ineg] >= ti).sum(1)
        with np.errstate(invalid="ignore", divide="ignore"):
            lift = np.where(tp + fp > 0, tp * M / ((tp + fp) * pos.size), np.nan)
        _check_mc(res, i, "total_positive_rate", (tp + fp) / M)
        _check_mc(res, i, "gain", tp / pos.size)
        _check_mc(res, i, "lift", lift)
    full = gain_ci(y, s, thresholds=t, confidence_level=1 - ALPHA, bootstrap="full")
    idx = rng.integers(0, s.size, (B, s.size))
    ys, ss = y[idx], s[idx]
    for i, ti in enumerate(t):
        flagged = ss >= ti
        tp = (flagged & (ys == 1)).sum(1)
        pp = flagged.sum(1)
        p = (ys == 1).sum(1)
        with np.errstate(invalid="ignore", divide="ignore"):
            lift = np.where((pp > 0) & (p > 0), tp * s.size / (pp * p), np.nan)
        _check_mc(full, i, "total_positive_rate", pp / s.size)
        _check_mc(full, i, "gain", tp / p)
        _check_mc(full, i, "lift", lift)


@pytest.mark.montecarlo
def test_fixed_depths_against_monte_carlo_with_ties():
    y, s = _data()
    pos, neg = s[y == 1], s[y == 0]
    depths = [0.05, 0.15, 0.4]
    res = gain_ci(y, s, total_positive_rate=depths, confidence_level=1 - ALPHA)
    rng = np.random.default_rng(12)
    M = s.size
    is_pos = np.r_[np.ones(pos.size, bool), np.zeros(neg.size, bool)]
    ip = rng.integers(0, pos.size, (B, pos.size))
    ineg = rng.integers(0, neg.size, (B, neg.size))
    draws = np.concatenate([pos[ip], neg[ineg]], axis=1)
    # ties broken at random: one random key per draw (copies of an instance are ordered at random too)
    keys = rng.random(draws.shape)
    order = np.lexsort((keys, -draws), axis=1)  # by score decreasing, then the random key
    ranked_pos = np.broadcast_to(is_pos, draws.shape)[np.arange(B)[:, None], order]
    cum = np.cumsum(ranked_pos, axis=1)
    for i, k in enumerate(res.k):
        g = cum[:, int(k) - 1]
        _check_mc(res, i, "gain", g / pos.size)
        _check_mc(res, i, "lift", g / pos.size / (k / M))
    assert np.all(res.k == np.rint(np.asarray(depths) * M))


def _tied_table(n, share, digits, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    s = rng.normal(0, 1, n) + 1.2 * y
    return y, (np.round(s, digits) if digits is not None else s)


@pytest.mark.parametrize("n, share, digits", [(20_000, 0.1, 1), (20_000, 0.1, None), (60_000, 0.03, 2)])
def test_fixed_depth_interpolated_laws_equal_every_g(monkeypatch, n, share, digits):
    """Long windows of G* are read from a Chebyshev interpolant of P(G* >= g): the same laws, atom by atom,
    as evaluating the exact integral at every g."""
    from rocci.precision import gain as G

    y, s = _tied_table(n, share, digits, seed=5)
    depths = [0.02, 0.1, 0.5]
    used = []
    real = G._TopK._smooth_tail

    def spy(self, g, k):
        out = real(self, g, k)
        used.append(out is not None)
        return out

    monkeypatch.setattr(G, "_CHEB_MIN", 64)  # every window here is longer (the default is 256)
    monkeypatch.setattr(G._TopK, "_smooth_tail", spy)
    fast = gain_ci(y, s, total_positive_rate=depths)
    assert used == [True] * len(depths)  # every depth was interpolated
    monkeypatch.setattr(G._TopK, "_smooth_tail", lambda self, g, k: None)
    slow = gain_ci(y, s, total_positive_rate=depths)
    for i in range(len(depths)):
        v1, p1 = fast.distribution(i)
        v2, p2 = slow.distribution(i)
        assert np.array_equal(v1, v2)
        np.testing.assert_allclose(p1, p2, rtol=0, atol=1e-13)
    pd.testing.assert_frame_equal(fast.to_frame(), slow.to_frame(), rtol=1e-12, atol=1e-12)


def test_fixed_depth_quadrature_has_converged(monkeypatch):
    """The tied pieces' integrals do not move when the rule is refined (20 nodes, panels 3x narrower)."""
    from rocci.precision import gain as G

    y, s = _tied_table(8_000, 0.15, 1, seed=9)
    counts = rocci.ScoreCounts(y, s)
    top = G._TopK(counts, counts.n_pos, counts.n_neg)
    assert top.tied.any()
    for k in (80, 800, 4_000):
        g = np.arange(1, min(k, top.m_pos) + 1, 7).astype(float)
        S1, L1 = top.tails(g, k)
        with monkeypatch.context() as mp:
            nodes, weights = np.polynomial.legendre.leggauss(20)
            mp.setattr(G, "_GL_NODES", nodes)
            mp.setattr(G, "_GL_WEIGHTS", weights)
            mp.setattr(G, "_PANEL_SD", 0.5)
            S2, L2 = top.tails(g, k)
        assert np.abs(S1 - S2).max() < 1e-14 and np.abs(L1 - L2).max() < 1e-14
        assert np.abs(S1 + L1 - 1).max() < 1e-13 and (S1 > 1e-3).any() and (L1 > 1e-3).any()


def test_fixed_depth_counts_give_the_rows_numbers():
    y, s = _tied_table(3_000, 0.2, 1, seed=2)
    rows = gain_ci(y, s, total_positive_rate=[0.05, 0.3, 0.9])
    vals, pos_n = np.unique(s[y == 1], return_counts=True)
    table = pd.DataFrame({"score": s, "pos": y, "neg": 1 - y}).groupby("score", as_index=False).sum()
    counts = rocci.ScoreCounts.from_frame(table, score="score", n_pos="pos", n_neg="neg")
    pd.testing.assert_frame_equal(gain_ci(counts, total_positive_rate=[0.05, 0.3, 0.9]).to_frame(), rows.to_frame())


def _counts_bootstrap_gain(P, N, k, reps, rng):
    """Monte Carlo of G* from a table of counts (scores decreasing): multinomial draws per score, then
    the cut score's positives among its d places hypergeometric (tied draws in a random order)."""
    m_pos, m_neg = int(P.sum()), int(N.sum())
    out = np.empty(reps)
    for r in range(reps):
        p = rng.multinomial(m_pos, P / m_pos)
        q = rng.multinomial(m_neg, N / m_neg)
        total = np.cumsum(p + q)
        j = int(np.searchsorted(total, k))  # the score group holding the k-th place
        before = total[j] - p[j] - q[j]
        g = p[:j].sum() + rng.hypergeometric(p[j], q[j], k - before) if k > before else p[:j].sum()
        out[r] = g / m_pos
    return out


@pytest.mark.montecarlo
def test_fixed_depth_at_10_8_instances_from_counts_against_monte_carlo():
    """10^8 instances in 120 distinct scores (heavy ties between the classes): the law is computed (it
    used to be refused) and agrees with a Monte Carlo bootstrap drawn from the counts."""
    from scipy import stats as st

    edges = np.linspace(-5, 6, 121)
    P = np.floor(1e7 * np.diff(st.norm.cdf(edges, 1.1))).astype(np.int64)[::-1]
    N = np.floor(9e7 * np.diff(st.norm.cdf(edges, 0.0))).astype(np.int64)[::-1]
    keep = (P + N) > 0
    P, N = P[keep], N[keep]
    table = pd.DataFrame({"score": np.arange(P.size, 0, -1, dtype=float), "pos": P, "neg": N})
    counts = rocci.ScoreCounts.from_frame(table, score="score", n_pos="pos", n_neg="neg")
    n = int(P.sum() + N.sum())
    res = gain_ci(counts, total_positive_rate=[0.03, 0.25], confidence_level=1 - ALPHA)
    assert res.to_frame()["truncated_mass"].max() < 1e-15
    rng = np.random.default_rng(31)
    for i, k in enumerate(res.k):
        values, probs = res.distribution(i)
        assert abs(probs.sum() - 1) < 1e-12 and values.size > 1_000
        sample = _counts_bootstrap_gain(P, N, int(k), 2_000, rng)
        _check_mc(res, i, "gain", sample)
    assert np.all(res.k == np.rint(np.array([0.03, 0.25]) * n))


# ------------------------------------------------------------------------------------------------------
# The Tanagra tutorial (seed 004): 20 patients, logistic regression scores
# ------------------------------------------------------------------------------------------------------
#: Its spreadsheet, rows by decreasing score: TRC = #cible/n and rappel (recall) at each threshold.
TANAGRA_TRC = [k / 20 for k in range(1, 21)]
TANAGRA_RAPPEL = [0.10, 0.20, 0.20, 0.30, 0.40, 0.40, 0.50, 0.60, 0.70, 0.70, 0.80, 0.80, 0.80, 0.80, 0.90,
                  0.90, 1.00, 1.00, 1.00, 1.00]


def test_tanagra_table_by_hand():
    df = pd.read_csv(ROOT.parent / "shared" / "data" / "heart_disease_test20.csv")
    y = (df["disease"] == "positive").to_numpy()
    s = df["score"].to_numpy(float)
    t = np.sort(s)[::-1]
    res = gain_ci(y, s, thresholds=t)
    frame = res.to_frame()
    np.testing.assert_allclose(frame["total_positive_rate"], TANAGRA_TRC, atol=1e-12)
    np.testing.assert_allclose(frame["gain"], TANAGRA_RAPPEL, atol=1e-12)
    np.testing.assert_allclose(frame["lift"], np.array(TANAGRA_RAPPEL) / np.array(TANAGRA_TRC), atol=1e-12)
    # e.g. the fifth row: 4 of the 10 patients with the disease among the top 5 of 20: lift 0.4/0.25 = 1.6
    assert frame["lift"][4] == pytest.approx(1.6, abs=1e-12)
    # at the threshold 0.5 of the tutorial's confusion matrix (a = 5, c = 2): depth 7/20, gain 0.5
    at_half = gain_ci(y, s, thresholds=[0.5])
    assert (at_half.tp[0], at_half.fp[0]) == (5, 2)
    assert at_half.total_positive_rate[0] == pytest.approx(0.35) and at_half.gain[0] == pytest.approx(0.5)
    # no ties: at the fixed depths k/20 the observed gain is the same table
    by_depth = gain_ci(y, s, total_positive_rate=TANAGRA_TRC)
    np.testing.assert_allclose(by_depth.gain, TANAGRA_RAPPEL, atol=1e-12)
    np.testing.assert_allclose(by_depth.thresholds, t)
    # the interval contains the observed value and the whole law sums to 1
    assert np.all(frame["gain_low"] <= frame["gain"] + 1e-12) and np.all(frame["gain"] <= frame["gain_high"] + 1e-12)
    for i in range(20):
        assert res.distribution(i, "total_positive_rate")[1].sum() == pytest.approx(1.0, abs=1e-12)


# ------------------------------------------------------------------------------------------------------
# Inputs, defaults, methods
# ------------------------------------------------------------------------------------------------------
def test_default_is_a_decile_table_and_score_counts_give_the_same_numbers():
    y, s = _data(seed=5, digits=3)
    res = gain_ci(y, s)
    want = np.unique(rocci.threshold_ci(y, s, total_positive_rate=np.arange(1, 11) / 10).thresholds)[::-1]
    np.testing.assert_array_equal(res.thresholds, want)
    counts = rocci.ScoreCounts.from_arrays(y, s)
    a = res.to_frame()
    b = gain_ci(counts).to_frame()
    pd.testing.assert_frame_equal(a, b)
    table = rocci.ScoreCounts.from_frame(counts.to_frame())
    pd.testing.assert_frame_equal(gain_ci(table, total_positive_rate=[0.1, 0.3]).to_frame(),
                                  gain_ci(y, s, total_positive_rate=[0.1, 0.3]).to_frame())


def test_string_labels_and_wald():
    y, s = _data(seed=6, digits=2)
    labels = np.where(y == 1, "fraud", "ok")
    res = gain_ci(labels, s, pos_label="fraud", thresholds=[0.5, 1.0], method="wald", confidence_level=0.9)
    ref = gain_ci(y, s, thresholds=[0.5, 1.0], method="wald", confidence_level=0.9)
    pd.testing.assert_frame_equal(res.to_frame(), ref.to_frame())
    z = 1.6448536269514722
    f = res.to_frame()
    tpr_mean, tpr_std = f["total_positive_rate_mean"], f["total_positive_rate_std"]
    np.testing.assert_allclose(f["total_positive_rate_low"], np.clip(tpr_mean - z * tpr_std, 0, 1), atol=1e-12)
    np.testing.assert_allclose(f["lift_high"], f["lift_mean"] + z * f["lift_std"], atol=1e-12)
    np.testing.assert_allclose(f["gain_high"], np.clip(f["gain_mean"] + z * f["gain_std"], 0, 1), atol=1e-12)


@pytest.mark.parametrize("kwargs, words", [
    (dict(thresholds=[0.5], total_positive_rate=[0.1]), "not both"),
    (dict(total_positive_rate=[0.1], bootstrap="full"), "stratified"),
    (dict(total_positive_rate=[0.0]), "(0, 1]"),
    (dict(total_positive_rate=[1.5]), "(0, 1]"),
    (dict(total_positive_rate="top"), "numbers"),
    (dict(thresholds=["a"]), "numbers"),
    (dict(method="bca"), "method"),
    (dict(method="score"), "method"),
    (dict(bootstrap="smooth"), "bootstrap"),
])
def test_bad_inputs_say_what_to_do(kwargs, words):
    y, s = _data()
    with pytest.raises(rocci.InputError, match=None) as exc:
        gain_ci(y, s, **kwargs)
    assert words in str(exc.value)


def test_distribution_quantity_is_checked():
    y, s = _data()
    res = gain_ci(y, s, thresholds=[0.5])
    with pytest.raises(rocci.InputError):
        res.distribution(0, "precision")
    assert "GainCI(at='threshold'" in repr(res)
    assert res.positive_share == pytest.approx(y.mean())


def test_undefined_lift_at_the_top():
    """Above every score nothing is targeted: depth 0, gain 0, lift undefined on the data and in every
    resample (p_undefined 1)."""
    y, s = _data()
    res = gain_ci(y, s, thresholds=[s.max() + 1, s.max()])
    assert res.total_positive_rate[0] == 0 and res.gain[0] == 0 and np.isnan(res.lift[0])
    assert res.p_undefined[0] == pytest.approx(1.0)
    assert np.isnan(res.lift_mean[0])
    assert 0 < res.p_undefined[1] < 1 and np.isfinite(res.lift_low[1])


def test_long_depth_windows_are_convolved_by_fft_to_round_off(monkeypatch):
    """At 10^6 instances the depth's two binomial windows are long: the FFT route gives the direct sums'
    law within 1e-15 of its largest atom, and the same interval."""
    from rocci.precision import gain as G

    y, s = _tied_table(1_000_000, 0.3, 2, seed=4)
    t = [np.quantile(s, 0.7), np.quantile(s, 0.4)]
    fast = gain_ci(y, s, thresholds=t)
    monkeypatch.setattr(G, "_FFT_PRODUCTS", 10**15)
    slow = gain_ci(y, s, thresholds=t)
    for i in range(2):
        v1, p1 = fast.distribution(i, "total_positive_rate")
        v2, p2 = slow.distribution(i, "total_positive_rate")
        assert np.array_equal(v1, v2) and v1.size > 2_000
        assert np.abs(p1 - p2).max() <= 1e-15 * p2.max()  # a few ulps of the largest atom (FFT round-off)
    pd.testing.assert_frame_equal(fast.to_frame(), slow.to_frame(), rtol=1e-13, atol=1e-15)
