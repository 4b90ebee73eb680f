"""rocci's exact bootstrap laws equal a full enumeration of the bootstrap samples.

For tiny data with ties (positive-negative, negative-negative and
positive-positive), for m = n and m != n, at every threshold and every FPR
level r = 1 .. m_neg - 1, the laws computed in closed form by rocci must equal
the laws found by visiting every stratified bootstrap sample
(tests/reference/brute.py) to 1e-12.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import rocci
from reference import brute
from reference.datasets import TINY, TINY_M, as_labels

TOL = 1e-12
CASES = [(name, m) for name in TINY for m in TINY_M[name]]
IDS = [f"{name}-m{m}" for name, m in CASES]


def _sizes(name, m):
    pos, neg = TINY[name]
    return (len(pos), len(neg)) if m is None else m


_CACHE: dict = {}


def _exact(name, m):
    """Enumerated laws for a tiny data set (cached: enumeration is the slow part)."""
    key = (name, m)
    if key not in _CACHE:
        pos, neg = TINY[name]
        m_pos, m_neg = _sizes(name, m)
        _CACHE[key] = brute.enumerate_bootstrap(pos, neg, m_pos, m_neg)
    return _CACHE[key]


def _law_by_k(values, probs, m):
    """rocci's (values, probabilities) as {k: p} with values == k/m checked."""
    values = np.asarray(values, dtype=float)
    probs = np.asarray(probs, dtype=float)
    assert values.shape == probs.shape
    k = np.rint(values * m).astype(int)
    assert np.allclose(values, k / m, rtol=0, atol=1e-12), "values are not on the k/m lattice"
    assert len(set(k.tolist())) == k.size, "repeated values in a distribution"
    return dict(zip(k.tolist(), probs.tolist()))


def _assert_same_law(got: dict, law: dict, m: int, what: str):
    """got: {k: p} from rocci; law: {Fraction(k, m): Fraction p} from the enumeration.

    Entries missing on one side count as probability 0 (rocci may omit
    negligible entries of a vertical law), so an omission is only accepted if
    its exact probability is below the tolerance.
    """
    exact = {int(v * m): float(p) for v, p in law.items()}
    keys = sorted(set(exact) | set(got))
    diffs = [(k, got.get(k, 0.0), exact.get(k, 0.0)) for k in keys]
    worst = max(abs(a - b) for _, a, b in diffs)
    assert worst <= TOL, f"{what}: max |rocci - enumeration| = {worst:.3e}; " + ", ".join(
        f"k={k}: {a!r} vs {b!r}" for k, a, b in diffs if abs(a - b) > TOL
    )


def _quantile_ok(got: float, law: dict, level: float, m: int) -> bool:
    """Is ``got`` the smallest v with P(X <= v) >= level (exact law)?

    Where the exact CDF comes within 1e-12 of ``level`` the float comparison
    may go either way, so both neighbouring lattice values are accepted there.
    """
    ok = {float(brute.law_quantile(law, level))}
    acc = Fraction(0)
    for v in sorted(law):
        acc += law[v]
        if abs(float(acc) - level) <= 1e-12:
            ok.add(float(v))
            nxt = [u for u in sorted(law) if u > v]
            if nxt:
                ok.add(float(nxt[0]))
    return any(abs(got - v) <= 1e-12 for v in ok)


# ---------------------------------------------------------------------------
# Threshold averaging
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,m", CASES, ids=IDS)
def test_threshold_laws_equal_enumeration(name, m):
    pos, neg = TINY[name]
    m_pos, m_neg = _sizes(name, m)
    y, s = as_labels(pos, neg)
    ci = rocci.threshold_ci(y, s, m=m)
    ex = _exact(name, m)
    assert ci.m_pos == m_pos and ci.m_neg == m_neg
    # thresholds=None: +inf, then every distinct score in decreasing order
    assert np.array_equal(np.asarray(ci.thresholds, dtype=float), np.asarray(ex.thresholds))
    for i, t in enumerate(ex.thresholds):
        got = _law_by_k(*ci.distribution(i, axis="tpr"), m_pos)
        assert len(got) == m_pos + 1, "threshold law should list k = 0..m_pos"
        _assert_same_law(got, ex.tpr[i], m_pos, f"TPR* law at t={t}")
        got = _law_by_k(*ci.distribution(i, axis="fpr"), m_neg)
        assert len(got) == m_neg + 1, "threshold law should list k = 0..m_neg"
        _assert_same_law(got, ex.fpr[i], m_neg, f"FPR* law at t={t}")
        # exact standard deviations
        assert ci.tpr_std[i] == pytest.approx(math.sqrt(brute.law_var(ex.tpr[i])), abs=TOL)
        assert ci.fpr_std[i] == pytest.approx(math.sqrt(brute.law_var(ex.fpr[i])), abs=TOL)
        assert ci.tpr[i] == pytest.approx(float(brute.law_mean(ex.tpr[i])), abs=TOL)
        assert ci.fpr[i] == pytest.approx(float(brute.law_mean(ex.fpr[i])), abs=TOL)


@pytest.mark.parametrize("region", ["marginal", "rectangle"])
@pytest.mark.parametrize("name,m", CASES, ids=IDS)
def test_threshold_percentile_bounds_are_quantiles_of_enumerated_law(name, m, region):
    pos, neg = TINY[name]
    m_pos, m_neg = _sizes(name, m)
    y, s = as_labels(pos, neg)
    level = 0.9
    ci = rocci.threshold_ci(y, s, m=m, method="percentile", region=region, confidence_level=level)
    alpha = 1 - level
    a = alpha if region == "marginal" else 1 - math.sqrt(1 - alpha)
    ex = _exact(name, m)
    for i in range(len(ex.thresholds)):
        for law, lo, hi, mm, ax in (
            (ex.tpr[i], ci.tpr_low[i], ci.tpr_high[i], m_pos, "tpr"),
            (ex.fpr[i], ci.fpr_low[i], ci.fpr_high[i], m_neg, "fpr"),
        ):
            assert _quantile_ok(float(lo), law, a / 2, mm), (ax, i, lo, brute.law_quantile(law, a / 2))
            assert _quantile_ok(float(hi), law, 1 - a / 2, mm), (
                ax, i, hi, brute.law_quantile(law, 1 - a / 2))


# ---------------------------------------------------------------------------
# Vertical averaging
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,m", CASES, ids=IDS)
def test_vertical_laws_equal_enumeration(name, m):
    pos, neg = TINY[name]
    m_pos, m_neg = _sizes(name, m)
    y, s = as_labels(pos, neg)
    levels = list(range(1, m_neg))
    vc = rocci.vertical_ci(y, s, fpr=[r / m_neg for r in levels], m=m)
    ex = _exact(name, m)
    assert ex.levels == levels
    assert vc.m_pos == m_pos and vc.m_neg == m_neg
    assert np.array_equal(np.asarray(vc.r), levels)
    assert np.allclose(vc.fpr, np.array(levels) / m_neg, rtol=0, atol=1e-15)
    for i, r in enumerate(levels):
        got = _law_by_k(*vc.distribution(i), m_pos)
        _assert_same_law(got, ex.vertical[i], m_pos, f"vertical TPR* law at r={r}")
        assert vc.tpr_mean[i] == pytest.approx(float(brute.law_mean(ex.vertical[i])), abs=TOL)
        assert vc.tpr_std[i] == pytest.approx(math.sqrt(brute.law_var(ex.vertical[i])), abs=TOL)
        assert 0 <= vc.truncated_mass[i] <= TOL


@pytest.mark.parametrize("name,m", CASES, ids=IDS)
def test_vertical_threshold_law_equals_enumeration(name, m):
    pos, neg = TINY[name]
    m_pos, m_neg = _sizes(name, m)
    y, s = as_labels(pos, neg)
    levels = list(range(1, m_neg))
    vc = rocci.vertical_ci(y, s, fpr=[r / m_neg for r in levels], m=m)
    ex = _exact(name, m)
    for i, r in enumerate(levels):
        scores, probs = vc.threshold_distribution(i)
        got: dict = {}
        for sc, p in zip(np.asarray(scores, float).tolist(), np.asarray(probs, float).tolist()):
            got[sc] = got.get(sc, 0.0) + p
        exact = {float(k): float(p) for k, p in ex.threshold_law[i].items()}
        keys = set(got) | set(exact)
        worst = max(abs(got.get(k, 0.0) - exact.get(k, 0.0)) for k in keys)
        assert worst <= TOL, (r, got, exact)


@pytest.mark.parametrize("name,m", CASES, ids=IDS)
def test_vertical_percentile_bounds_are_quantiles_of_enumerated_law(name, m):
    pos, neg = TINY[name]
    m_pos, m_neg = _sizes(name, m)
    y, s = as_labels(pos, neg)
    levels = list(range(1, m_neg))
    level = 0.9
    vc = rocci.vertical_ci(
        y, s, fpr=[r / m_neg for r in levels], m=m, method="percentile", confidence_level=level
    )
    a = 1 - level
    ex = _exact(name, m)
    for i, r in enumerate(levels):
        law = ex.vertical[i]
        assert _quantile_ok(float(vc.tpr_low[i]), law, a / 2, m_pos), (
            r, vc.tpr_low[i], brute.law_quantile(law, a / 2))
        assert _quantile_ok(float(vc.tpr_high[i]), law, 1 - a / 2, m_pos), (
            r, vc.tpr_high[i], brute.law_quantile(law, 1 - a / 2))


# ---------------------------------------------------------------------------
# AUC
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,m", CASES, ids=IDS)
def test_exact_bootstrap_auc_variance_equals_enumeration(name, m):
    pos, neg = TINY[name]
    y, s = as_labels(pos, neg)
    res = rocci.roc_auc(y, s, method="exact-bootstrap", m=m)
    ex = _exact(name, m)
    assert res.auc == pytest.approx(float(brute.mann_whitney_auc(pos, neg)), abs=TOL)
    assert res.auc == pytest.approx(float(brute.law_mean(ex.auc)), abs=TOL)
    assert res.auc_std**2 == pytest.approx(float(brute.law_var(ex.auc)), abs=TOL)
