"""An outside check of precision_ci at recall levels: pROC's ci.coords (Monte Carlo) against rocci's exact law.

pROC 1.18 (``proc_ci_coords.R``, output committed in ``proc_ci_coords.csv``) resamples the data of
``pr_binormal.csv`` 10,000 times (stratified, seed 1) and reads the precision at sensitivity k/60 in each
resample.  With continuous scores (no ties) and recall levels that are multiples of 1/n+, pROC's statistic and
rocci's are the same: the highest threshold that flags k positives (the k-th largest positive score), and the
negatives at or above it.  (Between multiples of 1/n+ pROC interpolates linearly along the ROC segment, with
fractional counts; rocci takes the level ⌈recall·m+⌉/m+.  With tied scores the two handle a tie across the
level differently.)  So pROC's point estimates must equal rocci's, and pROC's Monte Carlo percentile bounds
(R's type-7 quantiles of 10,000 resamples) must lie where the exact law puts the quantiles at
q ± 4 Monte Carlo standard errors of a proportion, sqrt(q(1 − q)/B).  rocci gives the limit B → ∞ itself.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rocci

HERE = Path(__file__).resolve().parent
B = 10_000


@pytest.fixture(scope="module")
def data():
    d = pd.read_csv(HERE / "pr_binormal.csv")
    proc = pd.read_csv(HERE / "proc_ci_coords.csv", comment="#")
    return d["y"].to_numpy(bool), d["score"].to_numpy(float), proc


def _quantile(values, probs, q):
    """Smallest value whose CDF reaches q."""
    return float(values[np.searchsorted(np.cumsum(probs), q - 1e-12)])


def test_scores_are_continuous_and_levels_are_multiples(data):
    y, s, proc = data
    assert np.unique(s).size == s.size and y.sum() == 60
    np.testing.assert_allclose(proc["recall"] * 60, proc["k"])


def test_point_estimates_equal_procs(data):
    y, s, proc = data
    res = rocci.precision_ci(y, s, recall=proc["recall"].to_numpy())
    np.testing.assert_array_equal(res.to_frame()["r"], proc["k"])
    np.testing.assert_allclose(res.precision, proc["precision"], rtol=0, atol=1e-15)


def test_procs_monte_carlo_bounds_are_within_their_error_of_the_exact_quantiles(data):
    y, s, proc = data
    res = rocci.precision_ci(y, s, recall=proc["recall"].to_numpy(), method="percentile")
    for i, row in proc.iterrows():
        values, probs = res.distribution(i)
        for q, got in ((0.025, row["low"]), (0.5, row["median"]), (0.975, row["high"])):
            d = 4 * np.sqrt(q * (1 - q) / B)
            lo, hi = _quantile(values, probs, max(q - d, 0.0)), _quantile(values, probs, min(q + d, 1.0))
            assert lo - 1e-12 <= got <= hi + 1e-12, (row["k"], q, got, lo, hi)
        # and the exact percentile bounds themselves are the law's 2.5% and 97.5% points
        assert res.precision_low[i] == pytest.approx(_quantile(values, probs, 0.025), abs=1e-15)
        assert res.precision_high[i] == pytest.approx(_quantile(values, probs, 0.975), abs=1e-15)
