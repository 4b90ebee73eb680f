"""One vocabulary across the public API (issue 30): the names and defaults that were unified, and the
old spellings that still work with a FutureWarning."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

import rocci


def _data(n=300, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, np.round(rng.normal(size=n) + 1.2 * y, 2)


def test_every_level_is_confidence_level():
    for name in rocci.__all__:
        obj = getattr(rocci, name)
        if not inspect.isfunction(obj):
            continue
        params = inspect.signature(obj).parameters
        assert not {"level", "alpha", "conf_level", "ci_level"} & set(params), name


def test_data_come_first():
    """Every function of the data takes ``y_true`` first (labels with scores, or counts alone); the
    unpaired comparisons (two test sets, issue 32) take each test set's labels before its scores:
    ``y_a, score_a, y_b, score_b``."""
    not_data = {"operating_point", "binomial_test", "load_table", "scan", "threshold_coverage"}
    unpaired = ["y_a", "score_a", "y_b", "score_b"]
    for name in rocci.__all__:
        obj = getattr(rocci, name)
        if inspect.isfunction(obj) and name not in not_data:
            params = list(inspect.signature(obj).parameters)
            if name.endswith("_unpaired"):
                assert params[:4] == unpaired, (name, params[:4])
            else:
                assert params[0] == "y_true", (name, params[0])


def test_monte_carlo_has_one_spelling():
    y, s = _data()
    new = rocci.roc_band(y, s, method="monte-carlo", n_boot=200, seed=1)
    with pytest.warns(FutureWarning, match="monte-carlo"):
        old = rocci.roc_band(y, s, method="montecarlo", n_boot=200, seed=1)
    assert new.method == old.method == "monte-carlo" == rocci.average_precision(y, s, n_boot=50).method
    pd.testing.assert_frame_equal(new.to_frame(), old.to_frame())


def test_rate_threshold_takes_total_positive_rate_and_counts():
    y, s = _data()
    counts = rocci.ScoreCounts.from_arrays(y, s)
    t = rocci.rate_threshold(y, s, 0.2)
    assert rocci.rate_threshold(y, s, total_positive_rate=0.2) == t == rocci.rate_threshold(counts,
                                                                                              total_positive_rate=0.2)
    assert t == rocci.threshold_ci(y, s, total_positive_rate=[0.2]).thresholds[0]
    with pytest.warns(FutureWarning, match="total_positive_rate"):
        assert rocci.rate_threshold(y, s, rate=0.2) == t
    with pytest.raises(rocci.InputError, match="share of instances"):
        rocci.rate_threshold(y, s)


def test_confusion_at_takes_counts_first():
    y, s = _data()
    counts = rocci.ScoreCounts.from_arrays(y, s)
    pd.testing.assert_frame_equal(rocci.confusion_at(y, s, 0.5).to_frame(),
                                  rocci.confusion_at(counts, threshold=0.5).to_frame())
    with pytest.raises(rocci.InputError, match="needs a threshold"):
        rocci.confusion_at(counts)


def test_one_vs_rest_uses_vertical_ci_default():
    rng = np.random.default_rng(4)
    y = rng.choice(["a", "b", "c"], size=240)
    scores = rng.dirichlet([1, 1, 1], size=240) + np.eye(3)[np.searchsorted(["a", "b", "c"], y)] * 0.3
    default = rocci.one_vs_rest(y, scores, fpr=[0.1, 0.5])
    explicit = rocci.one_vs_rest(y, scores, fpr=[0.1, 0.5], vertical_method="score")
    pd.testing.assert_frame_equal(default.vertical_frame(), explicit.vertical_frame())
    assert inspect.signature(rocci.vertical_ci).parameters["method"].default == "score"


def test_results_show_as_tables_in_notebooks():
    """Every result's _repr_html_ (Jupyter) is its class, its scalar fields and the head of to_frame()."""
    y, s = _data()
    for res in (rocci.roc_curve(y, s), rocci.threshold_ci(y, s, thresholds=[0.5, 1.0]),
                rocci.roc_band(y, s, thresholds=[0.0, 1.0]), rocci.cost_ci(y, s, w=[0.3]),
                rocci.net_benefit(y, 1 / (1 + np.exp(-s)), thresholds=[0.3])):
        page = res._repr_html_()
        assert page.startswith(f"<p><b>{type(res).__name__}</b>(") and "<table" in page
        first = res.to_frame().columns[0]
        assert f"<th>{first}</th>" in page
