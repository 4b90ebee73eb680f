"""rocci.net_benefit: the exact law against every bootstrap sample (tiny data with ties, m = n and m ≠ n,
full and stratified), against a seeded Monte Carlo bootstrap, against dcurves' point values, and bad input."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci.cost._decision_laws import TIE_TOL

# Tiny data with ties inside a class and across classes (0.4 is a positive's and a negative's risk).
Y = np.array([1, 1, 0, 1, 0, 0])
S = np.array([0.8, 0.4, 0.4, 0.2, 0.6, 0.1])


def _merge(law: dict) -> tuple[np.ndarray, np.ndarray]:
    vals = np.array(sorted(law))
    probs = np.array([law[v] for v in vals])
    start = np.flatnonzero(np.concatenate([[True], np.diff(vals) > TIE_TOL]))
    return vals[start], np.add.reduceat(probs, start)


def _enumerate_full(y, s, p, m):
    """Every ordered sample of m rows drawn with replacement from the n rows, equally likely."""
    n, odds = y.size, p / (1 - p)
    idx = np.indices((n,) * m).reshape(m, -1).T  # all n^m tuples
    yy, ss = y[idx], s[idx]
    tp, fp = np.sum((yy == 1) & (ss >= p), axis=1), np.sum((yy == 0) & (ss >= p), axis=1)
    law = defaultdict(float)
    for v, c in zip(*np.unique(np.round((tp - odds * fp) / m, 13), return_counts=True)):
        law[float(v)] += c / n**m
    return _merge(law)


def _enumerate_stratified(y, s, p, m_pos, m_neg):
    pos, neg = s[y == 1], s[y == 0]
    n = y.size
    odds = p / (1 - p)
    law = defaultdict(float)
    for ip in itertools.product(range(pos.size), repeat=m_pos):
        tp = np.sum(pos[list(ip)] >= p)
        for ineg in itertools.product(range(neg.size), repeat=m_neg):
            fp = np.sum(neg[list(ineg)] >= p)
            v = pos.size / n * tp / m_pos - neg.size / n * odds * fp / m_neg
            law[round(v, 13)] += 1 / (pos.size**m_pos * neg.size**m_neg)
    return _merge(law)


def _quantile(vals, probs, q):
    cdf = np.cumsum(probs)
    return vals[np.argmax(cdf >= q - 1e-12)]


THRESHOLDS = [0.15, 0.4, 0.5, 0.7]


@pytest.mark.parametrize("m", [None, 4, 7])
def test_full_bootstrap_law_is_every_sample(m):
    res = rocci.net_benefit(Y, S, thresholds=THRESHOLDS, confidence_level=0.8, bootstrap="full", m=m)
    for i, p in enumerate(THRESHOLDS):
        vals, probs = _enumerate_full(Y, S, p, m or Y.size)
        got_v, got_p = res.distribution(i)
        np.testing.assert_allclose(got_v, vals, atol=1e-12)
        np.testing.assert_allclose(got_p, probs, atol=1e-12)
        mean = float(vals @ probs)
        assert mean == pytest.approx(res.net_benefit[i], abs=1e-12)  # the bootstrap is unbiased here
        assert res.net_benefit_std[i] == pytest.approx(np.sqrt(probs @ (vals - mean) ** 2), abs=1e-12)
        assert res.net_benefit_low[i] == pytest.approx(_quantile(vals, probs, 0.1), abs=1e-12)
        assert res.net_benefit_high[i] == pytest.approx(_quantile(vals, probs, 0.9), abs=1e-12)


@pytest.mark.parametrize("m", [None, (2, 4)])
def test_stratified_law_is_every_sample(m):
    res = rocci.net_benefit(Y, S, thresholds=THRESHOLDS, confidence_level=0.8, bootstrap="stratified", m=m)
    m_pos, m_neg = m or (3, 3)
    for i, p in enumerate(THRESHOLDS):
        vals, probs = _enumerate_stratified(Y, S, p, m_pos, m_neg)
        got_v, got_p = res.distribution(i)
        np.testing.assert_allclose(got_v, vals, atol=1e-12)
        np.testing.assert_allclose(got_p, probs, atol=1e-12)
        mean = float(vals @ probs)
        assert res.net_benefit_std[i] == pytest.approx(np.sqrt(probs @ (vals - mean) ** 2), abs=1e-12)
        assert res.net_benefit_low[i] == pytest.approx(_quantile(vals, probs, 0.1), abs=1e-12)
        assert res.net_benefit_high[i] == pytest.approx(_quantile(vals, probs, 0.9), abs=1e-12)
        assert res.treat_all_low[i] == res.treat_all_high[i] == res.treat_all[i]  # prevalence fixed


def test_treat_all_interval_is_every_sample():
    res = rocci.net_benefit(Y, S, thresholds=[0.3], confidence_level=0.8, m=5)
    law = defaultdict(float)
    for idx in itertools.product(range(Y.size), repeat=5):
        k = Y[list(idx)].sum()
        law[round((k - 0.3 / 0.7 * (5 - k)) / 5, 13)] += 1 / Y.size**5
    vals, probs = _merge(law)
    assert res.treat_all_low[0] == pytest.approx(_quantile(vals, probs, 0.1), abs=1e-12)
    assert res.treat_all_high[0] == pytest.approx(_quantile(vals, probs, 0.9), abs=1e-12)


def _risky(n, seed, share=0.3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.4 * y - 1.0))), 2)  # risks, tied to 2 digits
    return y, s


@pytest.mark.montecarlo
@pytest.mark.parametrize("bootstrap", ["full", "stratified"])
def test_law_agrees_with_a_seeded_monte_carlo_bootstrap(bootstrap):
    y, s = _risky(300, 5)
    p = np.array([0.1, 0.25, 0.5])
    res = rocci.net_benefit(y, s, thresholds=p, bootstrap=bootstrap, confidence_level=0.9)
    rng = np.random.default_rng(31)
    B = 100_000
    n, odds = y.size, p / (1 - p)
    if bootstrap == "full":
        idx = rng.integers(0, n, size=(B, n))
        yy, ss = y[idx], s[idx]
        nb = np.stack([(np.sum(yy & (ss >= t), 1) - o * np.sum(~yy & (ss >= t), 1)) / n for t, o in zip(p, odds)], 1)
    else:
        pos, neg = s[y], s[~y]
        dp, dn = pos[rng.integers(0, pos.size, (B, pos.size))], neg[rng.integers(0, neg.size, (B, neg.size))]
        nb = np.stack([pos.size / n * np.mean(dp >= t, 1) - neg.size / n * o * np.mean(dn >= t, 1)
                       for t, o in zip(p, odds)], 1)
    sd_mc = nb.std(axis=0)
    # mean within 4 s.e.; sd within 4 s.e. of a standard deviation (≈ sd/sqrt(2B))
    assert np.all(np.abs(nb.mean(0) - res.net_benefit) <= 4 * res.net_benefit_std / np.sqrt(B))
    assert np.all(np.abs(sd_mc - res.net_benefit_std) <= 4 * res.net_benefit_std / np.sqrt(2 * B))
    # the interval, read from the frame, holds the resampled net benefit as often as its exact law says
    f = res.to_frame()
    inside = (nb >= f["net_benefit_low"].to_numpy() - 1e-12) & (nb <= f["net_benefit_high"].to_numpy() + 1e-12)
    exact = []
    for i in range(p.size):
        v, pr = res.distribution(i)
        lo, hi = f["net_benefit_low"][i], f["net_benefit_high"][i]
        exact.append(pr[(v >= lo - 1e-12) & (v <= hi + 1e-12)].sum())
    exact = np.array(exact)
    cov = inside.mean(0)
    se = np.sqrt(exact * (1 - exact) / B)
    assert np.all(np.abs(cov - exact) <= 4 * se + 1e-9)
    assert np.all(exact >= 0.9 - 1e-9)


def _anchor_python():
    """The interpreter of the anchors' environment (.venv-anchors, made by scripts/test.sh), or None."""
    path = os.environ.get("ROCCI_ANCHOR_PYTHON") or str(Path(__file__).resolve().parents[2] / ".venv-anchors" / "bin"
                                                          / "python")
    return path if Path(path).is_file() else None


def test_point_values_agree_with_dcurves(tmp_path):
    """dcurves 1.1.7 (in its own environment: it needs pandas < 3) on the same data, 99 thresholds."""
    python = _anchor_python()
    if python is None:
        if os.environ.get("ROCCI_REQUIRE_BROWSER"):  # scripts/test.sh: the anchors must run
            pytest.fail("the anchors' environment (.venv-anchors) is missing: run bash scripts/test.sh")
        pytest.skip("dcurves runs in .venv-anchors (bash scripts/test.sh makes it)")
    y, s = _risky(400, 8)
    data = tmp_path / "data.csv"
    pd.DataFrame({"outcome": y.astype(int), "model": s}).to_csv(data, index=False)
    code = (
        "import sys, json, pandas as pd, dcurves\n"
        "df = pd.read_csv(sys.argv[1])\n"
        "t = [i / 100 for i in range(1, 100)]\n"
        "ref = dcurves.dca(data=df, outcome='outcome', modelnames=['model'], thresholds=t)\n"
        "out = {m: ref[ref['model'] == m].sort_values('threshold')['net_benefit'].tolist()"
        " for m in ('model', 'all', 'none')}\n"
        "print(json.dumps(out))\n"
    )
    run = subprocess.run([python, "-c", code, str(data)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    ref = json.loads(run.stdout.strip().splitlines()[-1])
    res = rocci.net_benefit(y, s, thresholds=[i / 100 for i in range(1, 100)])
    np.testing.assert_allclose(res.net_benefit, ref["model"], atol=1e-12)
    np.testing.assert_allclose(res.treat_all, ref["all"], atol=1e-12)
    assert np.all(np.asarray(ref["none"]) == 0)


def test_string_labels_and_counts_give_the_same_result():
    y, s = _risky(200, 9)
    labels = np.where(y, "sick", "well")
    a = rocci.net_benefit(labels, s, pos_label="sick", thresholds=[0.2, 0.4])
    counts = rocci.ScoreCounts.from_arrays(labels, s, pos_label="sick")
    b = rocci.net_benefit(counts, thresholds=[0.2, 0.4])
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())


@pytest.mark.parametrize("kwargs,words", [
    (dict(y_score=[0.2, 1.7, 0.4, 0.9]), "not probabilities"),
    (dict(thresholds=[0, 0.5]), "strictly between 0 and 1"),
    (dict(thresholds=["a"]), "threshold probabilities"),
    (dict(bootstrap="paired"), "bootstrap"),
    (dict(m=0), "whole number"),
])
def test_bad_input_says_what_to_do(kwargs, words):
    y = [0, 1, 0, 1]
    s = kwargs.pop("y_score", [0.2, 0.7, 0.4, 0.9])
    with pytest.raises(rocci.InputError, match=words):
        rocci.net_benefit(y, s, **kwargs)


def test_scores_that_are_not_risks_point_to_the_cost_curve():
    with pytest.raises(rocci.InputError, match="cost_curve"):
        rocci.net_benefit([0, 1, 0, 1], [-2.0, 3.1, 0.4, 1.2])


# --- two models ----------------------------------------------------------------------------------------

SB = np.array([0.5, 0.9, 0.3, 0.4, 0.2, 0.45])  # model b on the same six rows (ties with a's risks)


def _enumerate_paired_full(p, m):
    n, odds = Y.size, p / (1 - p)
    idx = np.indices((n,) * m).reshape(m, -1).T
    yy, sa, sb = Y[idx], S[idx], SB[idx]
    d = (np.sum((yy == 1) & (sa >= p), 1) - np.sum((yy == 1) & (sb >= p), 1)
         - odds * (np.sum((yy == 0) & (sa >= p), 1) - np.sum((yy == 0) & (sb >= p), 1))) / m
    law = defaultdict(float)
    for v, c in zip(*np.unique(np.round(d, 13), return_counts=True)):
        law[float(v)] += c / n**m
    return _merge(law)


def _enumerate_paired_stratified(p, m_pos, m_neg):
    odds = p / (1 - p)
    law = defaultdict(float)
    pos, neg = np.flatnonzero(Y == 1), np.flatnonzero(Y == 0)
    ip = pos[np.indices((pos.size,) * m_pos).reshape(m_pos, -1).T]
    dp = (np.sum(S[ip] >= p, 1) - np.sum(SB[ip] >= p, 1)) / m_pos * pos.size / Y.size
    ineg = neg[np.indices((neg.size,) * m_neg).reshape(m_neg, -1).T]
    dn = (np.sum(S[ineg] >= p, 1) - np.sum(SB[ineg] >= p, 1)) / m_neg * neg.size / Y.size * odds
    total = (dp[:, None] - dn[None, :]).ravel()
    for v, c in zip(*np.unique(np.round(total, 13), return_counts=True)):
        law[float(v)] += c / total.size
    return _merge(law)


def _check_paired(res, i, vals, probs):
    got_v, got_p = res.distribution(i)
    np.testing.assert_allclose(got_v, vals, atol=1e-12)
    np.testing.assert_allclose(got_p, probs, atol=1e-12)
    mean = float(vals @ probs)
    assert res.delta_net_benefit_std[i] == pytest.approx(np.sqrt(probs @ (vals - mean) ** 2), abs=1e-12)
    assert res.delta_net_benefit_low[i] == pytest.approx(_quantile(vals, probs, 0.1), abs=1e-12)
    assert res.delta_net_benefit_high[i] == pytest.approx(_quantile(vals, probs, 0.9), abs=1e-12)
    assert res.p_a_better[i] == pytest.approx(probs[vals > 1e-12].sum(), abs=1e-12)
    assert res.p_tie[i] == pytest.approx(probs[np.abs(vals) <= 1e-12].sum(), abs=1e-12)


@pytest.mark.parametrize("m", [None, 5, 7])
def test_paired_full_law_is_every_sample(m):
    res = rocci.compare_net_benefit(Y, S, SB, thresholds=THRESHOLDS, confidence_level=0.8, m=m)
    single_a = rocci.net_benefit(Y, S, thresholds=THRESHOLDS)
    single_b = rocci.net_benefit(Y, SB, thresholds=THRESHOLDS)
    np.testing.assert_allclose(res.delta_net_benefit, single_a.net_benefit - single_b.net_benefit, atol=1e-15)
    for i, p in enumerate(THRESHOLDS):
        _check_paired(res, i, *_enumerate_paired_full(p, m or Y.size))


@pytest.mark.parametrize("m", [None, (2, 4)])
def test_paired_stratified_law_is_every_sample(m):
    res = rocci.compare_net_benefit(Y, S, SB, thresholds=THRESHOLDS, confidence_level=0.8, bootstrap="stratified",
                                    m=m)
    m_pos, m_neg = m or (3, 3)
    for i, p in enumerate(THRESHOLDS):
        _check_paired(res, i, *_enumerate_paired_stratified(p, m_pos, m_neg))


@pytest.mark.montecarlo
def test_paired_law_agrees_with_a_seeded_monte_carlo_bootstrap():
    y, sa = _risky(300, 12)
    rng = np.random.default_rng(13)
    sb = np.clip(np.round(sa + rng.normal(0, 0.08, sa.size), 2), 0, 1)
    p = np.array([0.15, 0.3])
    res = rocci.compare_net_benefit(y, sa, sb, thresholds=p, confidence_level=0.9)
    B, n = 100_000, y.size
    idx = rng.integers(0, n, size=(B, n))
    yy, a, b = y[idx], sa[idx], sb[idx]
    d = np.stack([(np.sum(yy & (a >= t), 1) - np.sum(yy & (b >= t), 1)
                   - t / (1 - t) * (np.sum(~yy & (a >= t), 1) - np.sum(~yy & (b >= t), 1))) / n for t in p], 1)
    se_p = np.sqrt(res.p_a_better * (1 - res.p_a_better) / B)
    assert np.all(np.abs((d > 1e-12).mean(0) - res.p_a_better) <= 4 * se_p + 1e-9)
    assert np.all(np.abs(d.std(0) - res.delta_net_benefit_std) <= 4 * res.delta_net_benefit_std / np.sqrt(2 * B))
    f = res.to_frame()
    cov = ((d >= f["delta_net_benefit_low"].to_numpy() - 1e-12)
           & (d <= f["delta_net_benefit_high"].to_numpy() + 1e-12)).mean(0)
    assert np.all(cov >= 0.9 - 3 * np.sqrt(0.09 / B))


def test_paired_bad_input():
    with pytest.raises(rocci.InputError, match="score_b is not a probability"):
        rocci.compare_net_benefit([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6], [0.2, 4.0, 0.1, 0.5])


def test_cdf_skipping_settled_rows_equals_the_direct_sum():
    """At 2·10^4 rows the CDF leaves out rows whose conditional tail is 0 or 1 to 1e-22: the same values
    as summing SciPy's binomial survival function over every row, at the quantiles and around them."""
    from scipy import special, stats

    from rocci.cost._decision_laws import NetBenefitLaw

    for law in (NetBenefitLaw.full(3000, 4000, 20_000, 20_000, 0.25),
                NetBenefitLaw.stratified(3000, 4000, 5000, 15_000, 5000, 15_000, 1 / 9)):
        q = law.quantiles([0.025, 0.5, 0.975])
        v = np.concatenate([q, q - 1e-7, q + 1e-7, [law.mean_var()[0]]])
        y = np.maximum(np.ceil((law.a * law.x[None, :] - v[:, None] - TIE_TOL) / law.b), 0)
        every_row = np.where(y <= 0, 1.0, special.bdtrc(np.maximum(y - 1, 0), law.trials[None, :], law.q)) @ law.c
        np.testing.assert_allclose(law.cdf(v), every_row, rtol=0, atol=1e-15)  # the rows left out weigh nothing
        scipy_sf = np.where(y <= 0, 1.0, stats.binom.sf(y - 1, law.trials[None, :], law.q)) @ law.c
        np.testing.assert_allclose(law.cdf(v), scipy_sf, rtol=0, atol=1e-12)  # another incomplete beta: rounding
        assert np.all(law.cdf(q) >= [0.025, 0.5, 0.975]) and np.all(law.cdf(q - 1e-9) < [0.025, 0.5, 0.975])


@pytest.mark.parametrize("m", [None, (7, 11)])
def test_stratified_net_benefit_is_the_cost_law_read_another_way(m):
    """With the classes fixed, NB* = pi - K*NEC*(w) resample by resample, w = pi/K, K = pi + (1 - pi)p/(1 - p),
    for the same threshold (score >= p): two separately built exact laws (the net benefit's and the cost's)
    must be one law mapped, support point by support point, and so must their intervals and sds (for any
    m+, m-: pi stays the data's n+/n in NB*, and both are affine in TP*/m+ and FP*/m-)."""
    y, s = _risky(60, seed=4)
    s = np.round(s, 1)  # ties
    share = y.mean()
    ps = np.array([0.1, 0.2, 0.3, 0.5, 0.7])
    k = share + (1 - share) * ps / (1 - ps)
    nb = rocci.net_benefit(y, s, thresholds=ps, bootstrap="stratified", m=m)
    cost = rocci.cost_ci(y, s, w=share / k, thresholds=ps, bootstrap="stratified", method="percentile", m=m)
    np.testing.assert_allclose(nb.net_benefit, share - k * cost.cost, atol=1e-12)
    np.testing.assert_allclose(nb.net_benefit_std, k * cost.cost_std, rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(nb.net_benefit_low, share - k * cost.cost_high, atol=1e-12)
    np.testing.assert_allclose(nb.net_benefit_high, share - k * cost.cost_low, atol=1e-12)
    for i in range(ps.size):
        v_nb, p_nb = nb.distribution(i)
        v_c, p_c = cost.distribution(i)
        np.testing.assert_allclose(v_nb, (share - k[i] * v_c)[::-1], atol=1e-12)
        np.testing.assert_allclose(p_nb, p_c[::-1], atol=1e-12)
