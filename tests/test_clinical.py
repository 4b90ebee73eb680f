"""rocci.clinical_panel: the likelihood ratios' exact laws against every stratified bootstrap sample (ties,
m = n and m ≠ n, with the ∞ and 0/0 cases), a seeded Monte Carlo at 200 rows, and the point values'
formulas (MedCalc's and pROC's definitions)."""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pytest

import rocci
from rocci.confusion.clinical import _RatioLaw

Y = np.array([1, 1, 0, 1, 0, 0, 1])
S = np.array([0.8, 0.4, 0.4, 0.2, 0.6, 0.1, 0.7])


def _enumerated_lr(t, m_pos, m_neg, positive=True):
    pos, neg = S[Y == 1], S[Y == 0]
    law = defaultdict(float)
    undefined = 0.0
    w = 1 / (pos.size**m_pos * neg.size**m_neg)
    for ip in itertools.product(pos, repeat=m_pos):
        tpr = np.mean(np.array(ip) >= t)
        for ineg in itertools.product(neg, repeat=m_neg):
            fpr = np.mean(np.array(ineg) >= t)
            num, den = (tpr, fpr) if positive else (1 - tpr, 1 - fpr)
            if num == 0 and den == 0:
                undefined += w
                continue
            law[np.inf if den == 0 else round(num / den, 12)] += w
    vals = np.array(sorted(law))
    probs = np.array([law[v] for v in vals]) / (1 - undefined)
    return vals, probs, undefined


def _q(vals, probs, q):
    return vals[np.argmax(np.cumsum(probs) >= q - 1e-12)]


@pytest.mark.parametrize("m", [None, (3, 4), (5, 2)])
@pytest.mark.parametrize("t", [0.15, 0.4, 0.65])
def test_likelihood_ratio_laws_are_every_sample(t, m):
    m_pos, m_neg = m or (4, 3)
    panel = rocci.clinical_panel(Y, S, thresholds=[t], confidence_level=0.8, m=m).to_frame().iloc[0]
    tp, fp = np.sum((Y == 1) & (S >= t)), np.sum((Y == 0) & (S >= t))
    for positive, name in ((True, "lr_positive"), (False, "lr_negative")):
        vals, probs, undefined = _enumerated_lr(t, m_pos, m_neg, positive)
        law = _RatioLaw(m_pos, tp / 4 if positive else 1 - tp / 4, m_neg, fp / 3 if positive else 1 - fp / 3)
        got_v, got_p = law.support()
        np.testing.assert_allclose(got_v, vals, atol=1e-12)
        np.testing.assert_allclose(got_p, probs, atol=1e-12)
        assert panel[f"p_{name}_undefined"] == pytest.approx(undefined, abs=1e-12)
        assert panel[f"{name}_low"] == pytest.approx(_q(vals, probs, 0.1), abs=1e-12)
        assert panel[f"{name}_high"] == pytest.approx(_q(vals, probs, 0.9), abs=1e-12)


def test_point_values_are_the_textbook_formulas():
    y = np.r_[np.ones(40, bool), np.zeros(60, bool)]
    s = np.r_[np.linspace(0.2, 0.95, 40), np.linspace(0.0, 0.7, 60)]
    row = rocci.clinical_panel(y, s, thresholds=[0.5], prevalence=0.1, pretest=0.3).to_frame().iloc[0]
    tp, fn = np.sum(s[y] >= 0.5), np.sum(s[y] < 0.5)
    fp, tn = np.sum(s[~y] >= 0.5), np.sum(s[~y] < 0.5)
    sens, spec = tp / 40, tn / 60
    assert row.tpr == sens and row.specificity == spec
    assert row.lr_positive == pytest.approx(sens / (1 - spec)) and row.lr_negative == pytest.approx((1 - sens) / spec)
    assert row.diagnostic_odds_ratio == pytest.approx(tp * tn / (fp * fn))
    assert row.ppv == pytest.approx(sens * 0.1 / (sens * 0.1 + (1 - spec) * 0.9))
    assert row.npv == pytest.approx(spec * 0.9 / (spec * 0.9 + (1 - sens) * 0.1))
    odds = 0.3 / 0.7 * row.lr_positive
    assert row.post_test_positive == pytest.approx(odds / (1 + odds))
    # bounds map through Bayes' rule: PPV's bounds are LR+'s mapped
    assert row.ppv_low == pytest.approx(0.1 * row.lr_positive_low / (0.1 * row.lr_positive_low + 0.9))


@pytest.mark.montecarlo
def test_likelihood_ratio_law_agrees_with_a_seeded_monte_carlo():
    rng = np.random.default_rng(17)
    y = rng.random(200) < 0.35
    s = np.round(rng.normal(size=200) + 1.3 * y, 1)
    panel = rocci.clinical_panel(y, s, thresholds=[0.5, 1.5], confidence_level=0.9).to_frame()
    pos, neg = s[y], s[~y]
    B = 100_000
    dp, dn = pos[rng.integers(0, pos.size, (B, pos.size))], neg[rng.integers(0, neg.size, (B, neg.size))]
    for i, t in enumerate([0.5, 1.5]):
        tpr, fpr = np.mean(dp >= t, 1), np.mean(dn >= t, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            lr = np.where(fpr > 0, tpr / fpr, np.inf)
        lo, hi = panel.lr_positive_low[i], panel.lr_positive_high[i]
        inside = np.mean((lr >= lo - 1e-12) & (lr <= hi + 1e-12))
        law = _RatioLaw(pos.size, np.mean(pos >= t), neg.size, np.mean(neg >= t))
        v, p = law.support()
        exact = p[(v >= lo - 1e-12) & (v <= hi + 1e-12)].sum()
        assert abs(inside - exact) <= 4 * np.sqrt(exact * (1 - exact) / B) + 1e-9
        assert exact >= 0.9 - 1e-9


@pytest.mark.parametrize("kwargs,words", [(dict(prevalence=1.5), "prevalence"), (dict(pretest=0), "pretest"),
                                          (dict(thresholds=[]), "thresholds")])
def test_bad_input(kwargs, words):
    kw = dict(thresholds=[0.5]) | kwargs
    with pytest.raises(rocci.InputError, match=words):
        rocci.clinical_panel(Y, S, **kw)


def _enumerated_dor(t, m_pos, m_neg):
    pos, neg = S[Y == 1], S[Y == 0]
    law = defaultdict(float)
    undefined = 0.0
    w = 1 / (pos.size**m_pos * neg.size**m_neg)
    for ip in itertools.product(pos, repeat=m_pos):
        x = np.sum(np.array(ip) >= t)
        for ineg in itertools.product(neg, repeat=m_neg):
            y = np.sum(np.array(ineg) >= t)
            if (x == 0 and y == 0) or (x == m_pos and y == m_neg):
                undefined += w
                continue
            if y == 0 or x == m_pos:
                v = np.inf
            elif y == m_neg:
                v = 0.0
            else:
                v = round((x / (m_pos - x)) / (y / (m_neg - y)), 12)
            law[v] += w
    vals = np.array(sorted(law))
    return vals, np.array([law[v] for v in vals]) / (1 - undefined), undefined


@pytest.mark.parametrize("m", [None, (3, 4)])
@pytest.mark.parametrize("t", [0.15, 0.4, 0.65])
def test_diagnostic_odds_ratio_law_is_every_sample(t, m):
    from rocci.confusion.clinical import _OddsRatioLaw

    m_pos, m_neg = m or (4, 3)
    panel = rocci.clinical_panel(Y, S, thresholds=[t], confidence_level=0.8, m=m).to_frame().iloc[0]
    tp, fp = np.sum((Y == 1) & (S >= t)), np.sum((Y == 0) & (S >= t))
    vals, probs, undefined = _enumerated_dor(t, m_pos, m_neg)
    got_v, got_p = _OddsRatioLaw(m_pos, tp / 4, m_neg, fp / 3).support()
    np.testing.assert_allclose(got_v, vals, atol=1e-12)
    np.testing.assert_allclose(got_p, probs, atol=1e-12)
    assert panel.p_diagnostic_odds_ratio_undefined == pytest.approx(undefined, abs=1e-12)
    assert panel.diagnostic_odds_ratio_low == pytest.approx(_q(vals, probs, 0.1), abs=1e-12)
    assert panel.diagnostic_odds_ratio_high == pytest.approx(_q(vals, probs, 0.9), abs=1e-12)
