"""Reference data sets shared by the tests (no rocci import).

* ``TINY``: data small enough to enumerate every bootstrap sample, with ties
  between a positive and a negative, among negatives and among positives.
* ``mc_tied`` / ``mc_binormal``: seeded data for the Monte Carlo checks.
* ``load_asah``: pROC's aSAH data (outcome, wfns, s100b, ndka); see README.md.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

#: name -> (positive scores, negative scores)
TINY = {
    # the brief's example: positive-negative tie at 0.5, negative-negative tie at 0.4
    "brief": ([0.9, 0.7, 0.5, 0.5], [0.8, 0.5, 0.4, 0.4, 0.1]),
    # heavy ties: every positive score is also a negative score
    "ties": ([0.6, 0.6, 0.3], [0.6, 0.3, 0.3, 0.2]),
}

#: name -> list of (m_pos, m_neg) bootstrap sizes to test; None = (n_pos, n_neg)
TINY_M = {
    "brief": [None, (3, 6), (5, 4)],
    "ties": [None, (4, 3), (2, 5)],
}


def mc_tied(seed: int = 20240601):
    """30 positives, 40 negatives, scores rounded to one decimal (many ties)."""
    rng = np.random.default_rng(seed)
    pos = np.round(rng.normal(0.6, 0.25, 30), 1)
    neg = np.round(rng.normal(0.4, 0.25, 40), 1)
    return pos, neg


def mc_binormal(seed: int = 7):
    """60 positives ~ N(1, 1), 80 negatives ~ N(0, 1) (no ties)."""
    rng = np.random.default_rng(seed)
    return rng.normal(1.0, 1.0, 60), rng.normal(0.0, 1.0, 80)


def as_labels(pos, neg):
    """``(y_true, y_score)`` with 1 for the positives, 0 for the negatives."""
    pos = np.asarray(pos, dtype=float)
    neg = np.asarray(neg, dtype=float)
    y = np.r_[np.ones(pos.size, dtype=int), np.zeros(neg.size, dtype=int)]
    return y, np.r_[pos, neg]


def load_asah():
    """pROC's aSAH data as a pandas DataFrame (columns outcome, wfns, s100b, ndka)."""
    import pandas as pd

    return pd.read_csv(HERE / "asah.csv")


# pROC's own expected ROC curve of roc(aSAH$outcome, aSAH$s100b) (direction "<"),
# from xrobin/pROC tests/testthat/helper-roc-expected.R, converted to counts:
# sensitivities * 41 and specificities * 72, in pROC's order (thresholds
# increasing: -Inf, the 49 midpoints between consecutive distinct values, Inf).
PROC_S100B_SENS_COUNTS = [
    41, 40, 40, 40, 40, 37, 36, 34, 32, 31, 30, 28, 27, 27, 26, 26, 26, 26, 25, 24,
    24, 23, 22, 21, 21, 20, 19, 18, 18, 17, 17, 16, 16, 14, 14, 14, 14, 13, 12, 12,
    11, 10, 9, 8, 6, 5, 4, 3, 2, 1, 0,
]
PROC_S100B_SPEC_COUNTS = [
    0, 0, 5, 8, 10, 16, 22, 28, 35, 39, 39, 42, 46, 50, 53, 55, 56, 58, 58, 58,
    59, 59, 59, 59, 60, 60, 61, 62, 63, 63, 64, 64, 65, 65, 66, 67, 69, 70, 70, 72,
    72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72,
]
