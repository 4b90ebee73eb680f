"""rocci's exact bootstrap agrees with a seeded Monte Carlo bootstrap.

The Monte Carlo oracle (tests/reference/brute.py) resamples indices with a
seeded numpy Generator, B = 200,000 resamples per data set, and computes each
statistic from the drawn scores. Every comparison is made within N_SE = 4.5
standard errors of the Monte Carlo estimate:

* a mean: SE = sd / sqrt(B), sd the Monte Carlo sample standard deviation;
* a variance: SE = sqrt((mu4 - s^4) / B), mu4 the sample 4th central moment;
* a probability p of the exact law: SE = sqrt(p (1 - p) / B), p floored at
  10 / B so that values expected a handful of times are not judged by a
  normal approximation that fails there.

A two-sided 4.5 SE deviation has probability ~7e-6 per comparison; the ~200
mean and variance comparisons of this file thus fail by chance with
probability ~1e-3. A law, however, is K probabilities compared at once (K up to
m + 1 = 81), and the ~100 laws here make ~2,500 comparisons: at 4.5 SE each, a
correct law would fail by chance with probability ~2% (it did, for one seed,
at -4.52 SE). So each value of a law is judged at the Bonferroni multiple
z(1e-5 / (2K)) (5.0 SE for K = 26, 5.3 for K = 81), never below 4.5: a law
then fails by chance with probability <= 1e-5. The errors this guards against
(a missing 1/m factor, a sign error, a shifted order statistic, a wrong tie
convention) are tens to hundreds of standard errors off. Percentile bounds
(quantiles of the exact law) must be within two lattice steps of the Monte
Carlo empirical quantiles.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import rocci
from reference import brute
from reference.datasets import as_labels, mc_binormal, mc_tied
from scipy import stats

pytestmark = pytest.mark.montecarlo

B = 200_000
N_SE = 4.5
LEVEL = 0.95
FPR_LEVELS = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9)


def _setup(name):
    if name == "tied":
        pos, neg = mc_tied()
        m = None
    elif name == "tied-m":
        pos, neg = mc_tied()
        m = (45, 25)
    elif name == "binormal":
        pos, neg = mc_binormal()
        m = None
    else:  # pragma: no cover
        raise KeyError(name)
    m_pos, m_neg = (pos.size, neg.size) if m is None else m
    # thresholds: every distinct score for tied data (few), 8 spread-out scores otherwise
    distinct = np.unique(np.r_[pos, neg])[::-1]
    if distinct.size > 20:
        idx = np.linspace(3, distinct.size - 4, 8).round().astype(int)
        thresholds = distinct[idx]
    else:
        thresholds = distinct
    levels = sorted({min(max(int(round(f * m_neg)), 1), m_neg - 1) for f in FPR_LEVELS})
    return pos, neg, m, m_pos, m_neg, thresholds, levels


_MC_CACHE: dict = {}


@pytest.fixture(scope="module", params=["tied", "tied-m", "binormal"])
def case(request):
    name = request.param
    if name not in _MC_CACHE:
        pos, neg, m, m_pos, m_neg, thresholds, levels = _setup(name)
        seed = {"tied": 101, "tied-m": 202, "binormal": 303}[name]
        mc = brute.monte_carlo_bootstrap(
            pos, neg, m_pos, m_neg, thresholds=thresholds, levels=levels,
            n_resamples=B, seed=seed,
        )
        y, s = as_labels(pos, neg)
        _MC_CACHE[name] = dict(
            name=name, pos=pos, neg=neg, y=y, s=s, m=m, m_pos=m_pos, m_neg=m_neg,
            thresholds=thresholds, levels=levels, mc=mc,
        )
    return _MC_CACHE[name]


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _check_mean(exact_mean, x, what):
    se = x.std(ddof=1) / math.sqrt(x.size)
    diff = x.mean() - exact_mean
    if se == 0:
        assert abs(diff) <= 1e-12, f"{what}: MC mean {x.mean()} vs exact {exact_mean}"
    else:
        assert abs(diff) <= N_SE * se, (
            f"{what}: MC mean {x.mean():.6g} vs exact {exact_mean:.6g} ({diff / se:+.1f} SE)"
        )


def _check_var(exact_var, x, what):
    c = x - x.mean()
    s2 = x.var(ddof=1)
    mu4 = (c**4).mean()
    se = math.sqrt(max(mu4 - c.var() ** 2, 0.0) / x.size)
    diff = s2 - exact_var
    if se == 0:
        assert abs(diff) <= 1e-12, f"{what}: MC var {s2} vs exact {exact_var}"
    else:
        assert abs(diff) <= N_SE * se, (
            f"{what}: MC var {s2:.6g} vs exact {exact_var:.6g} ({diff / se:+.1f} SE)"
        )


def _law_n_se(k: int) -> float:
    """SE multiple for each of the k probabilities of one law (see module docstring)."""
    return max(N_SE, float(stats.norm.isf(1e-5 / (2 * k))))


def _check_pmf(values, probs, counts_mc, m, what):
    """Exact law (rocci: values k/m, probs) vs MC frequencies of the integer counts."""
    k = np.rint(np.asarray(values, float) * m).astype(int)
    exact = dict(zip(k.tolist(), np.asarray(probs, float).tolist()))
    ks, cnt = np.unique(counts_mc, return_counts=True)
    emp = dict(zip(ks.tolist(), (cnt / counts_mc.size).tolist()))
    keys = sorted(set(exact) | set(emp))
    n_se = _law_n_se(len(keys))
    bad = []
    for key in keys:
        p, q = exact.get(key, 0.0), emp.get(key, 0.0)
        se = math.sqrt(max(p, 10.0 / B) * (1 - min(p, 0.999999)) / B)
        if abs(p - q) > n_se * se:
            bad.append((key, round(p, 6), round(q, 6), round((q - p) / se, 1)))
    assert not bad, f"{what}: (k, exact, MC, SE) off by > {n_se:.2f} SE: {bad}"
    assert abs(sum(exact.values()) - 1) < 1e-9, f"{what}: exact law sums to {sum(exact.values())}"


def _check_quantile(bound, x, level, m, what):
    q = brute.empirical_quantile(x, level)
    assert abs(bound - q) <= 2.0 / m + 1e-12, (
        f"{what}: exact bound {bound:.6g} vs MC quantile {q:.6g} (lattice step {1 / m:.4g})"
    )


# ---------------------------------------------------------------------------
# threshold averaging
# ---------------------------------------------------------------------------
def test_threshold_means_variances_and_laws(case):
    c, mc = case, case["mc"]
    ci = rocci.threshold_ci(c["y"], c["s"], thresholds=list(c["thresholds"]), m=c["m"])
    assert np.allclose(ci.thresholds, c["thresholds"])
    for i, t in enumerate(c["thresholds"]):
        for ax, counts, mm, mean, std in (
            ("tpr", mc.tp[:, i], c["m_pos"], ci.tpr[i], ci.tpr_std[i]),
            ("fpr", mc.fp[:, i], c["m_neg"], ci.fpr[i], ci.fpr_std[i]),
        ):
            x = counts / mm
            what = f"{c['name']} {ax} at t={t:.4g}"
            _check_mean(mean, x, what)
            _check_var(std**2, x, what)
            _check_pmf(*ci.distribution(i, axis=ax), counts, mm, what)


@pytest.mark.parametrize("region", ["marginal", "rectangle"])
def test_threshold_percentile_bounds_match_mc_quantiles(case, region):
    c, mc = case, case["mc"]
    ci = rocci.threshold_ci(
        c["y"], c["s"], thresholds=list(c["thresholds"]), m=c["m"],
        method="percentile", region=region, confidence_level=LEVEL,
    )
    alpha = 1 - LEVEL
    a = alpha if region == "marginal" else 1 - math.sqrt(1 - alpha)
    for i, t in enumerate(c["thresholds"]):
        for ax, counts, mm, lo, hi in (
            ("tpr", mc.tp[:, i], c["m_pos"], ci.tpr_low[i], ci.tpr_high[i]),
            ("fpr", mc.fp[:, i], c["m_neg"], ci.fpr_low[i], ci.fpr_high[i]),
        ):
            x = counts / mm
            what = f"{c['name']} {ax} at t={t:.4g}"
            _check_quantile(lo, x, a / 2, mm, what + " low")
            _check_quantile(hi, x, 1 - a / 2, mm, what + " high")
            # and the bounds are exact quantiles of rocci's own law
            vals, probs = ci.distribution(i, axis=ax)
            cdf = np.cumsum(probs)
            assert lo == pytest.approx(vals[np.argmax(cdf >= a / 2 - 1e-12)], abs=1e-12)
            assert hi == pytest.approx(vals[np.argmax(cdf >= 1 - a / 2 - 1e-12)], abs=1e-12)


# ---------------------------------------------------------------------------
# vertical averaging
# ---------------------------------------------------------------------------
def test_vertical_means_variances_and_laws(case):
    c, mc = case, case["mc"]
    m_pos, m_neg = c["m_pos"], c["m_neg"]
    vc = rocci.vertical_ci(c["y"], c["s"], fpr=[r / m_neg for r in c["levels"]], m=c["m"])
    assert list(vc.r) == list(c["levels"])
    for i, r in enumerate(c["levels"]):
        counts = mc.vertical_tp[:, i]
        x = counts / m_pos
        what = f"{c['name']} vertical r={r}"
        _check_mean(vc.tpr_mean[i], x, what)
        _check_var(vc.tpr_std[i] ** 2, x, what)
        _check_pmf(*vc.distribution(i), counts, m_pos, what)
        # law of the threshold T_r
        scores, probs = vc.threshold_distribution(i)
        tv, tc = np.unique(mc.t_r[:, i], return_counts=True)
        emp = dict(zip(tv.tolist(), (tc / B).tolist()))
        exact: dict = {}
        for sc, p in zip(np.asarray(scores, float).tolist(), np.asarray(probs, float).tolist()):
            exact[sc] = exact.get(sc, 0.0) + p
        keys = set(exact) | set(emp)
        n_se = _law_n_se(len(keys))
        for key in keys:
            p, q = exact.get(key, 0.0), emp.get(key, 0.0)
            se = math.sqrt(max(p, 10.0 / B) * (1 - min(p, 0.999999)) / B)
            assert abs(p - q) <= n_se * se, f"{what}: P(T_r = {key}) exact {p} vs MC {q}"


def test_vertical_percentile_bounds_match_mc_quantiles(case):
    c, mc = case, case["mc"]
    m_pos, m_neg = c["m_pos"], c["m_neg"]
    vc = rocci.vertical_ci(
        c["y"], c["s"], fpr=[r / m_neg for r in c["levels"]], m=c["m"],
        method="percentile", confidence_level=LEVEL,
    )
    a = 1 - LEVEL
    for i, r in enumerate(c["levels"]):
        x = mc.vertical_tp[:, i] / m_pos
        what = f"{c['name']} vertical r={r}"
        _check_quantile(vc.tpr_low[i], x, a / 2, m_pos, what + " low")
        _check_quantile(vc.tpr_high[i], x, 1 - a / 2, m_pos, what + " high")
        vals, probs = vc.distribution(i)
        order = np.argsort(vals)
        vals, cdf = np.asarray(vals)[order], np.cumsum(np.asarray(probs)[order])
        assert vc.tpr_low[i] == pytest.approx(vals[np.argmax(cdf >= a / 2 - 1e-12)], abs=1e-12)
        assert vc.tpr_high[i] == pytest.approx(vals[np.argmax(cdf >= 1 - a / 2 - 1e-12)], abs=1e-12)


# ---------------------------------------------------------------------------
# AUC
# ---------------------------------------------------------------------------
def test_exact_bootstrap_auc_variance(case):
    c, mc = case, case["mc"]
    res = rocci.roc_auc(c["y"], c["s"], method="exact-bootstrap", m=c["m"])
    what = f"{c['name']} AUC*"
    _check_mean(res.auc, mc.auc, what)
    _check_var(res.auc_std**2, mc.auc, what)
