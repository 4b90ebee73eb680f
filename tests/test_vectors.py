"""The shared test vectors (../shared/vectors/vectors.json) that concern one model.

Kinds: threshold_single, region, rect_cov, vertical_single, auc_roc (AUC and
ROC points), dispersion (thesis §4.5.1, computed exactly).  Every expected
value is checked within the vector's own absolute tolerance.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import optimize, stats

import rocci
from rocci.coverage import threshold_coverage
from rocci._core.intervals import axis_alpha, proportion_interval

# shared/ lies beside the repository (../shared from the project root).
VECTORS_PATH = Path(__file__).resolve().parents[2] / "shared" / "vectors" / "vectors.json"


def _load():
    with open(VECTORS_PATH) as fh:
        return json.load(fh)["vectors"]


VECTORS = _load()
METHOD = {"agresti": "agresti-coull", "wilson": "wilson", "wald": "wald"}


def of_kind(kind):
    found = [v for v in VECTORS if v["kind"] == kind]
    assert found, f"no vectors of kind {kind}"
    return pytest.mark.parametrize("vec", found, ids=[v["id"] for v in found])


def data(inputs):
    pos, neg = np.asarray(inputs["pos"]), np.asarray(inputs["neg"])
    return np.r_[np.ones(pos.size, int), np.zeros(neg.size, int)], np.r_[pos, neg]


@of_kind("threshold_single")
def test_threshold_single(vec):
    e, tol = vec["expected"], vec["abs_tol"]
    y, s = data(vec["inputs"])
    res = rocci.threshold_ci(y, s, thresholds=[vec["inputs"]["t"]])
    assert res.tp[0] == e["nt_pos"] and res.fp[0] == e["nt_neg"]
    assert res.tpr[0] == pytest.approx(e["tpr"], abs=tol)
    assert res.fpr[0] == pytest.approx(e["fpr"], abs=tol)
    assert res.tpr_std[0] ** 2 == pytest.approx(e["var_tpr"], abs=tol)
    assert res.fpr_std[0] ** 2 == pytest.approx(e["var_fpr"], abs=tol)
    _, p_tp = res.distribution(0, axis="tpr")
    _, p_fp = res.distribution(0, axis="fpr")
    np.testing.assert_allclose(p_tp, e["pmf_tp_count"], rtol=0, atol=tol)
    np.testing.assert_allclose(p_fp, e["pmf_fp_count"], rtol=0, atol=tol)


@of_kind("region")
def test_region_rectangle(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, s = data(i)
    level = 1 - i["alpha"]
    assert axis_alpha(level, "rectangle") == pytest.approx(e["alpha2d"], abs=tol)
    res = rocci.threshold_ci(y, s, thresholds=[i["t"]], confidence_level=level,
                             method=METHOD[i["method"]], region="rectangle")
    assert res.axis_confidence_level == pytest.approx(1 - e["alpha2d"], abs=tol)
    for key, got in (("tpr_lo", res.tpr_low), ("tpr_hi", res.tpr_high),
                     ("fpr_lo", res.fpr_low), ("fpr_hi", res.fpr_high)):
        assert got[0] == pytest.approx(e[key], abs=tol), key


@of_kind("rect_cov")
def test_rectangle_exact_coverage(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    cov = threshold_coverage(i["p_pos"], i["p_neg"], i["n_pos"], i["n_neg"],
                             confidence_level=1 - i["alpha"], method=METHOD[i["method"]])
    assert cov.tpr == pytest.approx(e["cov_tpr"], abs=tol)
    assert cov.fpr == pytest.approx(e["cov_fpr"], abs=tol)
    assert cov.region == pytest.approx(e["cov_region"], abs=tol)


@of_kind("vertical_single")
def test_vertical_single(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, s = data(i)
    n_neg = len(i["neg"])
    level = 1 - i["alpha"]
    fpr = [i["r"] / n_neg]
    pct = rocci.vertical_ci(y, s, fpr=fpr, confidence_level=level, method="percentile")
    assert pct.r[0] == i["r"]
    assert pct.tpr_mean[0] == pytest.approx(e["mean"], abs=tol)
    assert pct.tpr_std[0] ** 2 == pytest.approx(e["var"], abs=tol)
    assert pct.tpr_low[0] == pytest.approx(e["pct_lo"], abs=tol)
    assert pct.tpr_high[0] == pytest.approx(e["pct_hi"], abs=tol)

    # The exact law of the TPR: every value 0..m+ (absent values have probability 0).
    values, probs = pct.distribution(0)
    full = np.zeros(len(i["pos"]) + 1)
    full[np.rint(values * len(i["pos"])).astype(int)] = probs
    np.testing.assert_allclose(full, e["pmf_tp_count"], rtol=0, atol=tol)

    # The law of T_r over the sorted negatives; indices outside the window have
    # probability below the window's cut-off.
    scores, p_t = pct.threshold_distribution(0)
    expected_t = dict(zip(e["s_sorted"], e["P_T_eq_sk"]))
    for score, prob in zip(scores, p_t):
        assert prob == pytest.approx(expected_t[score], abs=tol)
    left_out = [p for sc, p in expected_t.items() if sc not in set(scores.tolist())]
    assert sum(left_out) <= pct.truncated_mass[0] + 1e-15

    # Algorithm 4.3's interval, clipped to [0, 1] (r = 20 gives 1.029 before clipping).
    score = rocci.vertical_ci(y, s, fpr=fpr, confidence_level=level, method="score")
    assert score.tpr_low[0] == pytest.approx(max(0.0, e["alg43_lo"]), abs=tol)
    assert score.tpr_high[0] == pytest.approx(min(1.0, e["alg43_hi"]), abs=tol)


@of_kind("auc_roc")
def test_auc_and_roc_points(vec):
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    y, s = data(i)
    assert rocci.roc_curve(y, s).auc == pytest.approx(e["auc"], abs=tol)
    assert rocci.roc_auc(y, s).auc == pytest.approx(e["auc"], abs=tol)
    res = rocci.threshold_ci(y, s, thresholds=i["thresholds"])
    for j, t in enumerate(i["thresholds"]):
        assert res.fpr[j] == pytest.approx(e[f"fpr@{t}"], abs=tol)
        assert res.tpr[j] == pytest.approx(e[f"tpr@{t}"], abs=tol)


@of_kind("dispersion")
def test_dispersion_exact_coverage(vec):
    """Thesis §4.5.1: normal scores, scales 3.75 (positives) and 3.00 (negatives),
    locations +θ and −θ, n = 10,000 per class; the true threshold at a total
    positive rate q solves ½[P(X+ >= t) + P(X− >= t)] = q."""
    i, e, tol = vec["inputs"], vec["expected"], vec["abs_tol"]
    theta, q, n, alpha = i["theta"], i["ratio"], i["n"], i["alpha"]
    pos, neg = stats.norm(theta, 3.75), stats.norm(-theta, 3.0)
    t = optimize.brentq(lambda x: 0.5 * (pos.sf(x) + neg.sf(x)) - q, -50, 50, xtol=1e-14, rtol=1e-15)
    tpr, fpr = pos.sf(t), neg.sf(t)
    assert t == pytest.approx(e["threshold"], abs=tol)
    assert tpr == pytest.approx(e["tpr"], abs=tol)
    assert fpr == pytest.approx(e["fpr"], abs=tol)
    assert (1 - fpr) ** n == pytest.approx(e["P_fp0"], abs=tol)
    assert n * fpr * (1 - fpr) ** (n - 1) == pytest.approx(e["P_fp1"], abs=tol)
    a = axis_alpha(1 - alpha, "rectangle")
    assert stats.norm.isf(a / 2) == pytest.approx(e["z"], abs=tol)
    for k, key in ((0, "wilson_fp0"), (1, "wilson_fp1")):
        low, high = proportion_interval(np.array([k / n]), n, a, "wilson")
        assert [low[0], high[0]] == pytest.approx(e[key], abs=tol)
    cov = threshold_coverage(tpr, fpr, n, n, confidence_level=1 - alpha, method="wilson")
    assert cov.tpr == pytest.approx(e["cov_tpr"], abs=tol)
    assert cov.fpr == pytest.approx(e["cov_fpr"], abs=tol)
    assert cov.region == pytest.approx(e["cov_region"], abs=tol)
