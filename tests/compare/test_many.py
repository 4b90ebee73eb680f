"""compare_many (issue 32): k models on the same instances.

Checked against: rocci.compare_auc pair by pair (bit for bit), a direct O(n+·n−) DeLong covariance matrix
(pair counting, numpy's cov, no rocci), Holm and Bonferroni written out by hand and as a loop, the closed
form of P(best) for two models, an independent Monte Carlo of the max-|z| quantile, rocci.roc_auc,
rocci.vertical_ci and rocci.compare_vertical.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

import rocci
from rocci.compare.many import _adjusted


def _data(n=300, k=4, seed=5, decimals=1):
    """Correlated models with ties (scores rounded): a shared signal plus model noise."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    common = rng.normal(size=n)
    scores = {f"m{i}": np.round(0.4 * i * y + common + rng.normal(scale=0.5 + 0.3 * i, size=n), decimals)
              for i in range(k)}
    return y, scores


def _direct_delong(y, scores):
    """AUCs and DeLong's covariance matrix from the O(n+·n−) kernel ψ = 1, ½, 0 (DeLong et al. 1988)."""
    y = np.asarray(y, bool)
    v10, v01, auc = [], [], []
    for s in scores:
        pos, neg = s[y], s[~y]
        psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        v10.append(psi.mean(1))
        v01.append(psi.mean(0))
        auc.append(psi.mean())
    return np.array(auc), np.cov(np.array(v10)) / y.sum() + np.cov(np.array(v01)) / (~y).sum()


def _consecutive(k):
    return np.eye(k)[:-1] - np.eye(k)[1:]


def test_every_pair_is_compare_auc_bit_for_bit():
    y, scores = _data()
    res = rocci.compare_many(y, scores, n_draws=2000)
    frame = res.to_frame()
    assert len(frame) == 6
    for row in frame.itertuples():
        ref = rocci.compare_auc(y, scores[row.model_a], scores[row.model_b])
        assert (row.delta_auc, row.delta_auc_std, row.delta_auc_low, row.delta_auc_high, row.statistic,
                row.pvalue) == (ref.delta_auc, ref.delta_auc_std, ref.delta_auc_low, ref.delta_auc_high,
                                ref.statistic, ref.pvalue)
    assert [tuple(p) for p in frame[["model_a", "model_b"]].to_numpy()] == list(
        itertools.combinations(scores, 2))


def test_chi2_for_two_models_is_z_squared():
    y, scores = _data(k=2)
    res = rocci.compare_many(y, scores, n_draws=2000)
    ref = rocci.compare_auc(y, scores["m0"], scores["m1"])
    assert res.df == 1
    assert res.chi2 == pytest.approx(ref.statistic**2, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_covariance_and_chi2_against_the_direct_formula_k4():
    y, scores = _data(k=4, n=240, seed=11)
    res = rocci.compare_many(y, scores, n_draws=2000)
    auc, s = _direct_delong(y, list(scores.values()))
    np.testing.assert_allclose(res.auc, auc, rtol=0, atol=1e-15)
    np.testing.assert_allclose(res.covariance, s, rtol=1e-11, atol=0)
    el = _consecutive(4)
    chi2 = float(el @ auc @ np.linalg.solve(el @ s @ el.T, el @ auc))
    assert res.df == 3 and res.chi2 == pytest.approx(chi2, rel=1e-9)
    assert res.pvalue == pytest.approx(stats.chi2.sf(chi2, 3), rel=1e-8)
    # any full-rank contrast of the differences gives the same statistic (all against the first)
    other = np.c_[np.ones(3), -np.eye(3)]
    assert chi2 == pytest.approx(float(other @ auc @ np.linalg.solve(other @ s @ other.T, other @ auc)), rel=1e-9)


def test_identical_models_reduce_the_rank():
    """A copy (a monotone transform: the same ranking) adds no information: same χ², one df less than k − 1,
    as the pseudo-inverse of the full L S Lᵀ gives."""
    y, scores = _data(k=3, seed=2)
    with_copy = {"m0": scores["m0"], "copy": np.exp(scores["m0"]), "m1": scores["m1"], "m2": scores["m2"]}
    res, ref = rocci.compare_many(y, with_copy, n_draws=4000), rocci.compare_many(y, scores, n_draws=4000)
    assert (res.df, ref.df) == (2, 2)
    assert res.chi2 == pytest.approx(ref.chi2, rel=1e-10)
    auc, s = _direct_delong(y, list(with_copy.values()))
    el = _consecutive(4)
    m = el @ s @ el.T
    assert np.linalg.matrix_rank(m) == 2
    assert res.chi2 == pytest.approx(float(el @ auc @ np.linalg.pinv(m) @ el @ auc), rel=1e-7)
    row = res.to_frame().iloc[0]
    assert (row.model_a, row.model_b, row.delta_auc, row.delta_auc_std, row.statistic, row.pvalue) == (
        "m0", "copy", 0.0, 0.0, 0.0, 1.0)
    # the copy and its original split their chance of being best evenly
    assert res.p_best_auc[0] == res.p_best_auc[1]
    assert res.p_best_auc[0] + res.p_best_auc[1] == pytest.approx(ref.p_best_auc[0], abs=5 * ref.p_best_auc_se[0])


def test_perfect_against_constant_is_infinitely_significant():
    y = np.r_[np.ones(10, bool), np.zeros(12, bool)]
    scores = {"perfect": y * 1.0, "constant": np.zeros(22), "noisy": np.random.default_rng(0).normal(size=22)}
    res = rocci.compare_many(y, scores, n_draws=2000)
    row = res.to_frame().iloc[0]
    assert row.delta_auc == 0.5 and row.delta_auc_std == 0 and row.statistic == np.inf and row.pvalue == 0
    assert res.chi2 == np.inf and res.pvalue == 0


def test_holm_and_bonferroni_by_hand():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max 0.02, 0.03, 0.06, 0.06
    np.testing.assert_allclose(_adjusted(p, "holm"), [0.03, 0.06, 0.06, 0.02], rtol=1e-15)
    np.testing.assert_allclose(_adjusted(p, "bonferroni"), [0.04, 0.16, 0.12, 0.02], rtol=1e-15)
    np.testing.assert_array_equal(_adjusted(p, "none"), p)
    np.testing.assert_allclose(_adjusted(np.array([0.3, 0.6, 0.5]), "holm"), [0.9, 1.0, 1.0], rtol=1e-15)  # capped


def _holm_loop(p):
    """Holm (1979) step-down, written as a loop: reject H_(1), H_(2), … while p_(i) <= α/(m − i + 1); the
    adjusted p-value is the smallest α at which H_(i) is rejected."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "none"])
def test_adjusted_pvalues_of_a_comparison(adjust):
    y, scores = _data(k=5, n=200, seed=8)
    res = rocci.compare_many(y, scores, adjust=adjust, n_draws=2000)
    p = res.to_frame()["pvalue"].to_numpy()
    want = {"holm": _holm_loop(list(p)), "bonferroni": np.minimum(1, 10 * p), "none": p}[adjust]
    np.testing.assert_allclose(res.to_frame()["pvalue_adjusted"], want, rtol=1e-15, atol=0)
    assert (res.pvalue_adjusted >= p).all()


def test_p_best_for_two_models_is_the_normal_cdf():
    rng = np.random.default_rng(3)
    y = rng.random(150) < 0.4
    common = rng.normal(size=150)
    scores = {name: np.round(y + common + rng.normal(size=150), 1) for name in ("m0", "m1")}  # alike
    res = rocci.compare_many(y, scores)
    ref = rocci.compare_auc(y, scores["m0"], scores["m1"])
    want = special.ndtr(ref.delta_auc / ref.delta_auc_std)  # P(θa + Xa > θb + Xb) = Φ(Δ/sd)
    assert 0.05 < want < 0.95  # a case where the check can fail
    assert res.p_best_auc.sum() == pytest.approx(1.0, abs=1e-12)
    assert abs(res.p_best_auc[0] - want) < 4 * res.p_best_auc_se[0]
    assert res.p_best_auc_se[0] == pytest.approx(np.sqrt(want * (1 - want) / 1e6), rel=0.01)


def test_p_best_sums_to_one_and_ranks():
    y, scores = _data(k=5, seed=4)
    res = rocci.compare_many(y, scores, n_draws=200_000)
    assert res.p_best_auc.sum() == pytest.approx(1.0, abs=1e-12)
    board = res.leaderboard()
    assert list(board.columns) == ["model", "auc", "auc_low", "auc_high", "auc_std", "p_best_auc", "p_best_auc_se"]
    assert board["auc"].is_monotonic_decreasing
    assert board["model"].iloc[0] == res.models[int(np.argmax(res.auc))]


def test_simultaneous_intervals_contain_the_pointwise_ones():
    y, scores = _data(k=4, seed=6)
    res = rocci.compare_many(y, scores)
    z = special.ndtri(0.975)
    assert res.critical_value > z + 0.2  # six correlated pairs: a real widening
    assert (res.delta_auc_low_simultaneous <= res.delta_auc_low).all()
    assert (res.delta_auc_high_simultaneous >= res.delta_auc_high).all()
    assert (res.delta_auc_high_simultaneous - res.delta_auc_low_simultaneous
            > res.delta_auc_high - res.delta_auc_low).all()
    two = rocci.compare_many(y, {k: scores[k] for k in ("m0", "m1")}, n_draws=2000)
    assert two.critical_value == z and two.critical_value_se == 0  # one pair: |Z| itself
    np.testing.assert_array_equal(two.delta_auc_low_simultaneous, two.delta_auc_low)


def test_critical_value_against_an_independent_monte_carlo():
    """The max-|z| quantile from the pairs' own covariance (numpy's multivariate_normal, another seed and
    route) within 4 of the reported standard errors (combined)."""
    y, scores = _data(k=4, seed=6)
    res = rocci.compare_many(y, scores)
    pairs = list(itertools.combinations(range(4), 2))
    contrast = np.array([np.eye(4)[a] - np.eye(4)[b] for a, b in pairs])
    cov = contrast @ res.covariance @ contrast.T
    sd = np.sqrt(np.diag(cov))
    draws = np.random.default_rng(99).multivariate_normal(np.zeros(6), cov / np.outer(sd, sd), size=400_000,
                                                          method="eigh")
    maxima = np.sort(np.abs(draws).max(axis=1))
    c = maxima[int(np.ceil(0.95 * maxima.size)) - 1]
    s = np.sqrt(0.95 * 0.05 / maxima.size)
    se = (maxima[int(np.ceil((0.95 + s) * maxima.size)) - 1] - maxima[int(np.ceil((0.95 - s) * maxima.size)) - 1]) / 2
    assert 0 < res.critical_value_se < 0.01
    assert abs(res.critical_value - c) < 4 * np.hypot(se, res.critical_value_se)
    # and the coverage of the box at c under those draws is the level
    assert np.mean(np.abs(draws).max(axis=1) <= res.critical_value) == pytest.approx(0.95, abs=4 * s + 1e-3)


def test_leaderboard_numbers_are_roc_auc_and_vertical_ci():
    y, scores = _data(k=3, seed=9)
    res = rocci.compare_many(y, scores, fpr=0.2, n_draws=2000)
    board = res.leaderboard().set_index("model")
    assert list(board.columns)[-5:] == ["tpr", "tpr_low", "tpr_high", "p_best_tpr", "p_best_tpr_se"]
    for name, s in scores.items():
        auc = rocci.roc_auc(y, s)
        assert board.loc[name, "auc"] == auc.auc
        assert board.loc[name, "auc_std"] == pytest.approx(auc.auc_std, rel=1e-12)
        assert board.loc[name, "auc_low"] == pytest.approx(auc.auc_low, rel=1e-12)
        assert board.loc[name, "auc_high"] == pytest.approx(auc.auc_high, rel=1e-12)
        v = rocci.vertical_ci(y, s, fpr=[0.2])
        assert (board.loc[name, "tpr"], board.loc[name, "tpr_low"], board.loc[name, "tpr_high"]) == (
            v.tpr[0], v.tpr_low[0], v.tpr_high[0])
    frame = res.to_frame()
    for row in frame.itertuples():
        ref = rocci.compare_vertical(y, scores[row.model_a], scores[row.model_b], fpr=[0.2])
        assert (row.delta_tpr_low, row.delta_tpr_high, row.p_a_better, row.p_tie, row.delta_tpr_std) == (
            ref.delta_tpr_low[0], ref.delta_tpr_high[0], ref.p_a_better[0], ref.p_tie[0], ref.delta_tpr_std[0])
        assert row.delta_tpr == board.loc[row.model_a, "tpr"] - board.loc[row.model_b, "tpr"]


def test_frame_columns_and_dataframe_input():
    y, scores = _data(k=3)
    res = rocci.compare_many(y, scores, n_draws=2000)
    assert list(res.to_frame().columns) == [
        "model_a", "model_b", "delta_auc", "delta_auc_low", "delta_auc_high", "delta_auc_std", "statistic",
        "pvalue", "pvalue_adjusted", "delta_auc_low_simultaneous", "delta_auc_high_simultaneous"]
    with_fpr = rocci.compare_many(y, scores, n_draws=2000, fpr=0.1)
    assert list(with_fpr.to_frame().columns)[11:] == [
        "delta_tpr", "delta_tpr_std", "delta_tpr_low", "delta_tpr_high", "p_a_better", "p_tie"]
    same = rocci.compare_many(pd.Series(y.astype(int)), pd.DataFrame(scores), n_draws=2000)
    pd.testing.assert_frame_equal(res.to_frame(), same.to_frame())
    pd.testing.assert_frame_equal(res.leaderboard(), same.leaderboard())
    assert "ManyComparison(models=('m0', 'm1', 'm2')" in repr(res) and "<table" in res._repr_html_()
    again = rocci.compare_many(y, scores, n_draws=2000)
    np.testing.assert_array_equal(again.p_best_auc, res.p_best_auc)  # seeded
    assert again.critical_value == res.critical_value


@pytest.mark.parametrize("call, words", [
    (lambda y, s: rocci.compare_many(y, {"a": s["m0"]}), "at least 2 models"),
    (lambda y, s: rocci.compare_many(y, {"a": s["m0"], "b": s["m1"][:-1]}), "different lengths"),
    (lambda y, s: rocci.compare_many(y[:-1], s), "labels"),
    (lambda y, s: rocci.compare_many(y, s, adjust="Holm"), "adjust ('Holm') must be one of 'holm'"),
    (lambda y, s: rocci.compare_many(y, {"a": s["m0"], "b": np.r_[np.nan, s["m1"][1:]]}), "scores['b'] has 1 missing"),
    (lambda y, s: rocci.compare_many(y, {1: s["m0"], "1": s["m1"]}), "more than once"),
    (lambda y, s: rocci.compare_many(y, pd.DataFrame(np.c_[s["m0"], s["m1"]], columns=["x", "x"])), "more than once"),
    (lambda y, s: rocci.compare_many(y, [s["m0"], s["m1"]]), "dict"),
    (lambda y, s: rocci.compare_many(y, s, fpr=[0.1, 0.2]), "one false positive rate"),
    (lambda y, s: rocci.compare_many(y, s, n_draws=10), "n_draws"),
])
def test_bad_input_messages(call, words):
    y, scores = _data(k=2, n=60)
    with pytest.raises(rocci.InputError, match=words.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        call(y, scores)


# ---------------------------------------------------------------------------
# P(highest TPR at one FPR): a seeded Monte Carlo of the paired stratified bootstrap
# ---------------------------------------------------------------------------
def _naive_tpr(count_neg, count_pos, neg, pos, r):
    """The TPR at the r-th largest resampled negative, by expanding each resample's rows."""
    out = []
    for cn, cp in zip(count_neg, count_pos):
        drawn = np.sort(np.repeat(neg, cn))[::-1]
        cut = drawn[r - 1]
        out.append(np.repeat(pos, cp).__ge__(cut).sum() / pos.size)
    return np.array(out)


@pytest.mark.parametrize("n_pos,n_neg,r", [(40, 60, 6), (40, 60, 1), (25, 300, 200), (30, 50, 50)])
def test_tpr_at_level_reads_the_top_of_the_ranking_only_and_agrees_with_expanding_the_rows(n_pos, n_neg, r):
    from rocci.compare.many import _resample_counts, _tpr_at_level

    rng = np.random.default_rng(n_pos + r)
    neg = np.round(rng.normal(size=n_neg), 1)  # ties
    pos = np.round(rng.normal(size=n_pos) + 1, 1)
    count_neg, count_pos = _resample_counts(rng, n_neg, 40), _resample_counts(rng, n_pos, 40)
    assert (count_neg.sum(axis=1) == n_neg).all() and (count_pos.sum(axis=1) == n_pos).all()
    on, op = np.argsort(-neg, kind="stable"), np.argsort(-pos, kind="stable")
    got = _tpr_at_level(count_neg, count_pos, neg[on], on, pos[op], op, r, n_pos)
    np.testing.assert_array_equal(got, _naive_tpr(count_neg, count_pos, neg, pos, r))


def _enumerated_p_best(y, models, fpr):
    """Every stratified resample of a tiny table (ordered draws, equally likely): the exact P(best TPR)."""
    from rocci.roc.vertical import fpr_levels

    pos_rows, neg_rows = np.flatnonzero(y), np.flatnonzero(~y)
    r = int(fpr_levels([fpr], neg_rows.size)[0])
    wins = np.zeros(len(models))
    total = 0
    for dp in itertools.product(pos_rows, repeat=pos_rows.size):
        for dn in itertools.product(neg_rows, repeat=neg_rows.size):
            tpr = []
            for s in models:
                cut = np.sort(s[list(dn)])[::-1][r - 1]
                tpr.append(np.mean(s[list(dp)] >= cut))
            tpr = np.array(tpr)
            top = tpr == tpr.max()
            wins += top / top.sum()
            total += 1
    return wins / total


def test_p_best_tpr_agrees_with_every_resample_enumerated():
    y = np.array([1, 1, 1, 0, 0, 0, 0], bool)
    models = [np.array([.9, .6, .3, .7, .2, .5, .1]), np.array([.8, .8, .2, .8, .3, .1, .1]),
              np.array([.4, .9, .6, .5, .5, .2, .7])]
    exact = _enumerated_p_best(y, models, 0.25)
    res = rocci.compare_many(y, {"a": models[0], "b": models[1], "c": models[2]}, fpr=0.25, n_boot=40_000,
                             seed=3, n_draws=10_000)
    assert abs(res.p_best_tpr.sum() - 1) < 1e-12
    assert np.all(np.abs(res.p_best_tpr - exact) <= 4 * res.p_best_tpr_se + 1e-3), (res.p_best_tpr, exact)
    assert np.all(res.p_best_tpr_se < 0.003)


def test_p_best_tpr_of_two_models_is_the_exact_paired_law():
    """k = 2: P(A has the higher TPR) + P(tie)/2 is compare_vertical's exact paired law."""
    rng = np.random.default_rng(8)
    n = 400
    y = rng.random(n) < 0.3
    a = np.round(rng.normal(size=n) + 1.0 * y, 1)
    b = np.round(0.7 * a + rng.normal(size=n) * 0.7 + 0.3 * y, 1)
    res = rocci.compare_many(y, {"a": a, "b": b}, fpr=0.2, n_boot=20_000, seed=5, n_draws=10_000)
    vc = rocci.compare_vertical(y, a, b, fpr=[0.2])
    expect = float(vc.p_a_better[0] + vc.p_tie[0] / 2)
    assert abs(res.p_best_tpr[0] - expect) <= 4 * res.p_best_tpr_se[0], (res.p_best_tpr[0], expect)
    board = res.leaderboard()
    assert {"p_best_tpr", "p_best_tpr_se"} <= set(board.columns)


def test_fpr_without_pairs_gives_the_models_only():
    rng = np.random.default_rng(2)
    y = rng.random(200) < 0.4
    scores = {m: rng.normal(size=200) + d * y for m, d in (("a", 1.0), ("b", 0.5), ("c", 0.2))}
    res = rocci.compare_many(y, scores, fpr=0.1, fpr_pairs=False, n_boot=200, n_draws=10_000)
    assert res.delta_tpr is None and "delta_tpr" not in res.to_frame().columns
    full = rocci.compare_many(y, scores, fpr=0.1, n_boot=200, n_draws=10_000)
    np.testing.assert_array_equal(res.p_best_tpr, full.p_best_tpr)  # same seed, same resamples
    np.testing.assert_array_equal(res.tpr, full.tpr)
    with pytest.raises(rocci.InputError, match="n_boot"):
        rocci.compare_many(y, scores, fpr=0.1, n_boot=0)


def test_cost_adds_each_models_cost_and_each_pairs_difference():
    y, scores = _data(k=3, seed=12)
    w = rocci.operating_point(float(np.mean(y)), 5.0, 1.0)
    res = rocci.compare_many(y, scores, cost=w, n_draws=2000)
    names = list(scores)
    board = res.leaderboard().set_index("model")
    for name in names:
        ci = rocci.cost_ci(y, scores[name], w=[w])
        assert (board.loc[name, "cost"], board.loc[name, "cost_low"], board.loc[name, "cost_high"]) == (
            ci.cost[0], ci.cost_low[0], ci.cost_high[0])
    frame = res.to_frame()
    for row in frame.itertuples():
        cc = rocci.compare_cost(y, scores[row.model_a], scores[row.model_b], w=[w])
        assert (row.delta_cost, row.delta_cost_low, row.delta_cost_high, row.p_a_cheaper) == (
            cc.delta_cost[0], cc.delta_cost_low[0], cc.delta_cost_high[0], cc.p_a_cheaper[0])
    assert "delta_cost" not in rocci.compare_many(y, scores, n_draws=2000).to_frame().columns
    for bad in (1.5, "high", [0.2, 0.3]):
        with pytest.raises(rocci.InputError, match="operating point"):
            rocci.compare_many(y, scores, cost=bad, n_draws=2000)


# ---------------------------------------------------------------------------
# p_best_tpr draws only the rows some model can read (the union U); exact in law
# ---------------------------------------------------------------------------
def _compositions(n, cells):
    """Every count vector of n draws over `cells` rows with its multinomial probability (1/cells each)."""
    for cut in itertools.combinations(range(n + cells - 1), cells - 1):
        counts = np.diff(np.r_[-1, cut, n + cells - 1]) - 1
        log_p = special.gammaln(n + 1) - special.gammaln(counts + 1).sum() - n * np.log(cells)
        yield counts, float(np.exp(log_p))


def test_counts_of_a_subset_of_the_rows_and_then_of_the_rest_are_the_multinomial():
    """T ~ Binomial(n, m/n) draws uniform over m of the n rows, then n − T uniform over the others: the
    multinomial of a bootstrap resample, cell by cell (all 126 resamples of 5 rows as counts)."""
    from rocci.compare.many import _complete, _draw_subset

    n, inside, b = 5, np.array([False, True, False, True, False]), 40_000
    rng = np.random.default_rng(17)
    totals, counts = _draw_subset(rng, n, int(inside.sum()), b)
    assert counts.shape == (b, 2) and (counts.sum(axis=1) == totals).all()
    full = np.concatenate([_complete(rng, counts[i], int(totals[i]), inside) for i in range(b)])
    assert (full[:, inside] == counts).all() and (full.sum(axis=1) == n).all()
    seen = {}
    for row in map(tuple, full):
        seen[row] = seen.get(row, 0) + 1
    exact = {tuple(c): p for c, p in _compositions(n, n)}
    assert set(seen) <= set(exact) and len(exact) == 126
    for cell, p in exact.items():
        assert abs(seen.get(cell, 0) / b - p) <= 5 * np.sqrt(p * (1 - p) / b) + 1e-4, (cell, seen.get(cell, 0) / b, p)
    # the subset's own law: (c1, c2) with the other three rows' total n − c1 − c2
    for c1, c2 in itertools.product(range(n + 1), repeat=2):
        if c1 + c2 <= n:
            p = sum(q for c, q in exact.items() if (c[1], c[3]) == (c1, c2))
            freq = np.mean((counts[:, 0] == c1) & (counts[:, 1] == c2))
            assert abs(freq - p) <= 5 * np.sqrt(p * (1 - p) / b) + 1e-4


def test_subset_counts_sum_to_their_totals_and_widen_past_255():
    from rocci.compare.many import _subset_counts

    out = _subset_counts(np.random.default_rng(0), [300, 7, 0], 1, np.uint8)
    assert out.dtype == np.int64 and out.ravel().tolist() == [300, 7, 0]
    small = _subset_counts(np.random.default_rng(0), [200, 7], 3, np.uint8)
    assert small.dtype == np.uint8 and small.sum(axis=1).tolist() == [200, 7]
    big = _subset_counts(np.random.default_rng(1), [50_000, 3], 40_000, np.uint8)  # one bincount per resample
    assert big.dtype == np.uint8 and big.sum(axis=1).tolist() == [50_000, 3]


@pytest.mark.parametrize("length_over_r", [None, 0, 2])
def test_window_of_the_union_gives_the_tpr_of_all_the_rows(length_over_r):
    """The same resamples read through the union's counts only: the TPR of _tpr_at_level on all the rows,
    wherever the window reaches r (a narrowed window marks the others short, exactly those)."""
    from rocci.compare import many
    from rocci.roc.vertical import fpr_levels

    rng = np.random.default_rng(4)
    y, scores = _data(n=700, k=4, seed=21, decimals=1)
    n_neg, n_pos = int((~y).sum()), int(y.sum())
    r = int(fpr_levels([0.02], n_neg)[0])
    length = many._window(r, n_neg) if length_over_r is None else r + length_over_r
    neg, pos = [s[~y] for s in scores.values()], [s[y] for s in scores.values()]
    order_neg = [np.argsort(-v, kind="stable") for v in neg]
    order_pos = [np.argsort(-v, kind="stable") for v in pos]
    neg_desc = [v[o] for v, o in zip(neg, order_neg)]
    pos_desc = [v[o] for v, o in zip(pos, order_pos)]
    in_neg, in_pos, windows = many._windows(neg_desc, order_neg, pos_desc, order_pos, length)
    assert in_neg.sum() < n_neg and in_pos.sum() < n_pos  # a real subset of each class
    count_neg, count_pos = many._resample_counts(rng, n_neg, 300), many._resample_counts(rng, n_pos, 300)
    any_short = 0
    for j, win in enumerate(windows):
        got, short = many._tpr_in_window(count_neg[:, in_neg], count_pos[:, in_pos], win, r, n_pos)
        want = many._tpr_at_level(count_neg, count_pos, neg_desc[j], order_neg[j], pos_desc[j], order_pos[j], r,
                                  n_pos)
        np.testing.assert_array_equal(short, count_neg[:, order_neg[j][:length]].sum(axis=1) < r)
        np.testing.assert_array_equal(got[~short], want[~short])
        any_short += short.sum()
    assert (any_short > 0) == (length_over_r is not None)


def _exact_tpr_law(y, models, r):
    """The joint law of the models' TPRs at the r-th resampled negative: every resample as counts, weighted
    by its multinomial probability, each TPR by expanding the rows (_naive_tpr)."""
    pos_rows, neg_rows = np.flatnonzero(y), np.flatnonzero(~y)
    law = {}
    for cp, pp in _compositions(pos_rows.size, pos_rows.size):
        for cn, pn in _compositions(neg_rows.size, neg_rows.size):
            key = tuple(float(_naive_tpr([cn], [cp], s[neg_rows], s[pos_rows], r)[0]) for s in models)
            law[key] = law.get(key, 0.0) + pp * pn
    return law


def test_p_best_tpr_drawn_on_the_union_with_every_fallback_is_exact_in_law(monkeypatch):
    """Windows narrowed to r (the union is then a strict subset of each class, and three resamples in four
    do not reach r in some window, so are completed and redone on all the rows): the joint law of the k TPRs
    and P(best) against every resample of the table enumerated, within 4.5 standard errors."""
    from rocci.compare import many

    y = np.array([1, 1, 1, 0, 0, 0, 0, 0], bool)
    models = [np.array([.9, .6, .3, .7, .2, .5, .1, .4]), np.array([.8, .8, .2, .3, .8, .1, .1, .6]),
              np.array([.4, .9, .15, .5, .5, .2, .7, .3])]
    r = 1  # fpr 0.2 of 5 negatives
    monkeypatch.setattr(many, "_window", lambda r, n_neg: min(n_neg, r))
    redone = []
    complete = many._complete
    monkeypatch.setattr(many, "_complete", lambda *a: redone.append(1) or complete(*a))
    tops = [s[~y].max() for s in models]  # each model's window: its top negative, and the positives above it
    assert len({int(np.argmax(s[~y])) for s in models}) < (~y).sum()
    assert sum(any(s[i] >= t for s, t in zip(models, tops)) for i in np.flatnonzero(y)) < y.sum()
    law = _exact_tpr_law(y, models, r)
    b = 15_000
    tprs = np.concatenate(list(many._resampled_tprs(y, models, 0.2, b, seed=11)))
    assert tprs.shape == (b, 3) and 0.5 < len(redone) / 2 / b < 0.95  # the fallback (two _complete each)
    seen = {}
    for row in map(tuple, tprs.tolist()):
        seen[row] = seen.get(row, 0) + 1
    assert set(seen) <= set(law)
    for key, p in law.items():
        assert abs(seen.get(key, 0) / b - p) <= 4.5 * np.sqrt(p * (1 - p) / b) + 1e-4, (key, seen.get(key, 0) / b, p)
    exact = np.zeros(3)
    for key, p in law.items():
        top = np.array(key) == max(key)
        exact += p * top / top.sum()
    res, se = many.best_tpr(y, models, 0.2, b, seed=12)
    assert np.all(np.abs(res - exact) <= 4.5 * se), (res, exact, se)
