"""rocci.coverage.worlds.worlds_in_bands: which random bootstrap worlds stay inside a simultaneous or a pointwise band."""

from __future__ import annotations

import numpy as np
import pytest

import rocci
from rocci.coverage.worlds import _resamples, worlds_in_bands


def _data(n=300, seed=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(bool)
    return y, np.round(rng.normal(size=n) + 1.1 * y, 2)  # rounded: ties within and across classes


def test_each_world_is_judged_by_its_own_counts_and_tpr():
    """Against a direct count per world: TP*/FP* at every band threshold, and the world's TPR at each FPR
    level read by vertical_ci's rule on that world's own data."""
    y, s = _data()
    band = rocci.roc_band(y, s, thresholds=np.unique(s)[::-1][::7])
    vci = rocci.vertical_ci(y, s, fpr=[0.1, 0.3, 0.6], method="percentile")
    got = worlds_in_bands(y, s, 30, 9, thresholds=band.thresholds, tp_range=(band.tp_min, band.tp_max),
                          fp_range=(band.fp_min, band.fp_max), levels=vci.fpr, tpr_range=(vci.tpr_low, vci.tpr_high))
    for i, (labels, draw) in enumerate(_resamples(y, s, 30, 9)):
        pos, neg = draw[labels], draw[~labels]
        tp = (pos[None, :] >= band.thresholds[:, None]).sum(1)
        fp = (neg[None, :] >= band.thresholds[:, None]).sum(1)
        boxes = np.all((tp >= band.tp_min) & (tp <= band.tp_max) & (fp >= band.fp_min) & (fp <= band.fp_max))
        world = rocci.vertical_ci(labels, draw, fpr=list(vci.fpr))  # the world's own TPR at the levels
        levels = np.all((world.tpr >= vci.tpr_low - 1e-12) & (world.tpr <= vci.tpr_high + 1e-12))
        assert got["boxes"][i] == boxes and got["levels"][i] == levels, i


@pytest.mark.montecarlo
def test_share_of_worlds_in_the_simultaneous_band_matches_its_exact_probability():
    """2,000 seeded worlds: the share inside the calibrated band's bootstrap event is its exact joint
    probability within 4 Monte Carlo standard errors; inside the pointwise intervals at all 99 levels, far
    fewer, although each level alone holds at least its level."""
    y, s = _data(400, 7)
    band = rocci.roc_band(y, s)
    vci = rocci.vertical_ci(y, s, method="percentile")
    k = 2000
    got = worlds_in_bands(y, s, k, 3, thresholds=band.thresholds, tp_range=(band.tp_min, band.tp_max),
                          fp_range=(band.fp_min, band.fp_max), levels=vci.fpr, tpr_range=(vci.tpr_low, vci.tpr_high))
    p = band.joint_probability
    assert abs(got["boxes"].mean() - p) < 4 * np.sqrt(p * (1 - p) / k)
    assert got["levels"].mean() < 0.8
    one = rocci.vertical_ci(y, s, fpr=[0.3], method="percentile")
    single = worlds_in_bands(y, s, k, 3, levels=one.fpr, tpr_range=(one.tpr_low, one.tpr_high))["levels"].mean()
    assert single > 0.95 - 4 * np.sqrt(0.95 * 0.05 / k)
