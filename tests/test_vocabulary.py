"""One vocabulary across the public API (issue 30): the names and defaults that were unified, and the
old spellings that still work, each with a DeprecationWarning naming the new one (rocci 0.3 only)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci._core.frames import column_fields
from rocci.roc.threshold import thresholds_for_total_positive_rate


def _data(n=300, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, np.round(rng.normal(size=n) + 1.2 * y, 2)


def _two(n=300, seed=3):
    y, a = _data(n, seed)
    rng = np.random.default_rng(seed + 100)
    return y, a, np.round(rng.normal(size=n) + 0.7 * y, 2)


def _public_functions():
    return {name: getattr(rocci, name) for name in rocci.__all__ if inspect.isfunction(getattr(rocci, name))}


#: (function, old keyword) -> new keyword: the only parameters of rocci.__all__'s functions that spell a
#: name the old way, each a shim that warns (checked below) and goes in rocci 0.4.
DEPRECATED_KEYWORDS = {
    ("rate_threshold", "rate"): "total_positive_rate",
    ("gain_ci", "depth"): "total_positive_rate",
    ("mcnemar", "threshold_a"): "thresholds_a",
    ("mcnemar", "threshold_b"): "thresholds_b",
    ("compare_folds", "threshold_a"): "thresholds_a",
    ("compare_folds", "threshold_b"): "thresholds_b",
}

#: Old names that no public function may take (outside DEPRECATED_KEYWORDS): the level is
#: ``confidence_level``, the share predicted positive ``total_positive_rate``, thresholds are plural.
OLD_NAMES = {"level", "alpha", "conf_level", "ci_level", "rate", "depth", "threshold_a", "threshold_b"}


def test_no_public_function_takes_an_old_name():
    for name, fn in _public_functions().items():
        params = inspect.signature(fn).parameters
        for old in OLD_NAMES & set(params):
            assert (name, old) in DEPRECATED_KEYWORDS, f"{name}({old}=...): use the one vocabulary's name"
            new = DEPRECATED_KEYWORDS[(name, old)]
            assert new in params and params[old].default is None, (name, old)
            assert params[old].kind is inspect.Parameter.KEYWORD_ONLY, (name, old)


def test_every_level_is_confidence_level():
    for name, fn in _public_functions().items():
        params = inspect.signature(fn).parameters
        assert not {"level", "alpha", "conf_level", "ci_level"} & set(params), name
        if "confidence_level" in params:
            assert params["confidence_level"].default in (0.95, 0.9), name


def test_data_come_first():
    """Every function of the data takes ``y_true`` first (labels with scores, or counts alone); the
    unpaired comparisons (two test sets, issue 32) take each test set's labels before its scores:
    ``y_a, score_a, y_b, score_b``."""
    not_data = {"operating_point", "binomial_test", "load_table", "scan", "threshold_coverage"}
    unpaired = ["y_a", "score_a", "y_b", "score_b"]
    for name, fn in _public_functions().items():
        if name not in not_data:
            params = list(inspect.signature(fn).parameters)
            if name.endswith("_unpaired"):
                assert params[:4] == unpaired, (name, params[:4])
            else:
                assert params[0] == "y_true", (name, params[0])


def test_the_precision_functions_are_public():
    for name in ("pr_curve", "compare_fpr_at_recall", "gain_curve", "gain_ci", "precision_ci"):
        assert name in rocci.__all__, name
    for name in ("PrecisionRecallCurve", "GainCurve", "ThresholdTable", "ReadingCurve", "FPRAtRecallComparison"):
        assert name in rocci.__all__ and hasattr(getattr(rocci, name), "to_frame"), name


# --- every function returns a result with to_frame() -------------------------------------------------------

def _calls():
    """name -> call() for every public function that returns a result (small data, each well under a second)."""
    y, a, b = _two()
    risk = 1 / (1 + np.exp(-a))
    folds = np.arange(y.size) % 4
    classes = np.array(["x", "y", "z"])[np.arange(y.size) % 3]
    class_scores = np.random.default_rng(5).dirichlet([1, 1, 1], size=y.size)
    frame = pd.DataFrame({"y": y, "a": a, "b": b})
    t = [0.0, 0.5, 1.0]
    return {
        "roc_curve": lambda: rocci.roc_curve(y, a),
        "roc_auc": lambda: rocci.roc_auc(y, a),
        "threshold_ci": lambda: rocci.threshold_ci(y, a, thresholds=t),
        "vertical_ci": lambda: rocci.vertical_ci(y, a, fpr=[0.1, 0.5]),
        "scan": lambda: rocci.scan(frame, label="y", scores=["a", "b"]),
        "threshold_coverage": lambda: rocci.threshold_coverage(0.3, 0.05, 50, 80),
        "compare_thresholds": lambda: rocci.compare_thresholds(y, a, b, thresholds_a=t),
        "dominance_map": lambda: rocci.dominance_map(y, a, b, thresholds_a=t, thresholds_b=t),
        "compare_vertical": lambda: rocci.compare_vertical(y, a, b, fpr=[0.2]),
        "compare_auc": lambda: rocci.compare_auc(y, a, b),
        "mcnemar": lambda: rocci.mcnemar(y, a, b, thresholds_a=t),
        "cost_curve": lambda: rocci.cost_curve(y, a),
        "cost_ci": lambda: rocci.cost_ci(y, a, w=[0.3, 0.6]),
        "compare_cost": lambda: rocci.compare_cost(y, a, b, w=[0.3]),
        "confusion_at": lambda: rocci.confusion_at(y, a, 0.5),
        "threshold_table": lambda: rocci.threshold_table(y, a),
        "reading_curve": lambda: rocci.reading_curve(y, a),
        "binomial_test": lambda: rocci.binomial_test(7, 20, 0.5),
        "fold_roc_curves": lambda: rocci.fold_roc_curves(y, a, folds),
        "fold_vertical_average": lambda: rocci.fold_vertical_average(y, a, folds),
        "fold_threshold_average": lambda: rocci.fold_threshold_average(y, a, folds),
        "compare_folds": lambda: rocci.compare_folds(y, a, b, folds),
        "one_vs_rest": lambda: rocci.one_vs_rest(classes, class_scores, intervals=False),
        "top_score_curve": lambda: rocci.top_score_curve(classes, class_scores),
        "roc_band": lambda: rocci.roc_band(y, a, thresholds=t),
        "net_benefit": lambda: rocci.net_benefit(y, risk, thresholds=[0.3, 0.5]),
        "clinical_panel": lambda: rocci.clinical_panel(y, a, thresholds=t),
        "threshold_stability": lambda: rocci.threshold_stability(y, a, n_boot=100),
        "compare_net_benefit": lambda: rocci.compare_net_benefit(y, risk, 1 / (1 + np.exp(-b)), thresholds=[0.3]),
        "precision_ci": lambda: rocci.precision_ci(y, a, thresholds=t),
        "metric_ci": lambda: rocci.metric_ci(y, a, thresholds=t),
        "precision_at_recall": lambda: rocci.precision_at_recall(y, a, recall=[0.5]),
        "compare_precision": lambda: rocci.compare_precision(y[:60], a[:60], b[:60], thresholds_a=[1.5]),
        "compare_fpr_at_recall": lambda: rocci.compare_fpr_at_recall(y, a, b, recall=[0.5]),
        "pr_curve": lambda: rocci.pr_curve(y, a),
        "precision_recall_curve": lambda: rocci.precision_recall_curve(y, a),
        "average_precision": lambda: rocci.average_precision(y, a, n_boot=50),
        "gain_curve": lambda: rocci.gain_curve(y, a),
        "gain_ci": lambda: rocci.gain_ci(y, a, thresholds=t),
        "compare_many": lambda: rocci.compare_many(y, {"a": a, "b": b}, n_draws=10_000),
        "compare_auc_unpaired": lambda: rocci.compare_auc_unpaired(y, a, y[::-1], b),
        "compare_vertical_unpaired": lambda: rocci.compare_vertical_unpaired(y, a, y[::-1], b, fpr=[0.2]),
        "compare_thresholds_unpaired": lambda: rocci.compare_thresholds_unpaired(y, a, y[::-1], b,
                                                                                 thresholds_a=t, thresholds_b=t),
        "compare_cost_unpaired": lambda: rocci.compare_cost_unpaired(y, a, y[::-1], b, w=[0.3, 0.7]),
    }


def _variant_calls():
    """name -> call() for the other shapes of the same results: other methods, regions, bootstraps, metrics and
    optional columns (the frame tests and the column glossary cover these as well as :func:`_calls`)."""
    y, a, b = _two()
    risk_a, risk_b = 1 / (1 + np.exp(-a)), 1 / (1 + np.exp(-b))
    t = [0.0, 0.5, 1.0]
    calls = {
        "threshold_ci/ellipse": lambda: rocci.threshold_ci(y, a, thresholds=t, region="ellipse"),
        "threshold_ci/percentile-marginal": lambda: rocci.threshold_ci(y, a, thresholds=t, method="percentile",
                                                                       region="marginal"),
        "threshold_ci/total_positive_rate": lambda: rocci.threshold_ci(y, a, total_positive_rate=[0.1, 0.4]),
        "vertical_ci/percentile": lambda: rocci.vertical_ci(y, a, fpr=[0.1, 0.5], method="percentile"),
        "vertical_ci/wald": lambda: rocci.vertical_ci(y, a, fpr=[0.1, 0.5], method="wald"),
        "compare_thresholds/total_positive_rate": lambda: rocci.compare_thresholds(y, a, b,
                                                                                  total_positive_rate=[0.2, 0.5]),
        "compare_thresholds/marginal": lambda: rocci.compare_thresholds(y, a, b, thresholds_a=t, region="marginal"),
        "compare_vertical/percentile": lambda: rocci.compare_vertical(y, a, b, fpr=[0.2, 0.6], method="percentile"),
        "mcnemar/scalar": lambda: rocci.mcnemar(y, a, b, thresholds_a=0.5, thresholds_b=0.2),
        "cost_ci/full-percentile": lambda: rocci.cost_ci(y, a, w=[0.3, 0.6], bootstrap="full", method="percentile"),
        "cost_ci/wald": lambda: rocci.cost_ci(y, a, w=[0.3, 0.6], method="wald"),
        "compare_cost/full": lambda: rocci.compare_cost(y, a, b, w=[0.3, 0.7], bootstrap="full"),
        "compare_cost/percentile": lambda: rocci.compare_cost(y, a, b, w=[0.3, 0.7], method="percentile"),
        "net_benefit/stratified-wald": lambda: rocci.net_benefit(y, risk_a, thresholds=[0.2, 0.5],
                                                                 bootstrap="stratified", method="wald"),
        "compare_net_benefit/stratified": lambda: rocci.compare_net_benefit(y, risk_a, risk_b, thresholds=[0.2, 0.4],
                                                                            bootstrap="stratified"),
        "precision_ci/recall-score": lambda: rocci.precision_ci(y, a, recall=[0.3, 0.7], method="score"),
        "precision_ci/wald-full": lambda: rocci.precision_ci(y, a, thresholds=t, method="wald", bootstrap="full"),
        "compare_precision/recall": lambda: rocci.compare_precision(y[:60], a[:60], b[:60], recall=[0.5]),
        "compare_precision/f1": lambda: rocci.compare_precision(y[:60], a[:60], b[:60], thresholds_a=[1.5],
                                                                metric="f1"),
        "compare_fpr_at_recall/score": lambda: rocci.compare_fpr_at_recall(y, a, b, recall=[0.5], method="score"),
        "gain_ci/total_positive_rate": lambda: rocci.gain_ci(y, a, total_positive_rate=[0.1, 0.3]),
        "gain_ci/full-wald": lambda: rocci.gain_ci(y[:100], a[:100], thresholds=t, bootstrap="full", method="wald"),
        "compare_many/fpr": lambda: rocci.compare_many(y, {"a": a, "b": b, "c": a + b}, fpr=0.2, n_draws=10_000),
        "roc_band/vertical": lambda: rocci.roc_band(y, a, fpr=[0.1, 0.5], kind="vertical", method="sidak"),
        "roc_band/sidak": lambda: rocci.roc_band(y, a, thresholds=t, method="sidak"),
        "clinical_panel/pretest": lambda: rocci.clinical_panel(y, a, thresholds=t, pretest=0.2),
        "compare_folds/thresholds": lambda: rocci.compare_folds(y, a, b, np.arange(y.size) % 4, measure="error",
                                                                thresholds_a=[0.2, 0.5]),
        "one_vs_rest/intervals": lambda: rocci.one_vs_rest(np.array(["x", "y", "z"])[np.arange(y.size) % 3],
                                                           np.random.default_rng(5).dirichlet([1, 1, 1], size=y.size)),
        "binomial_test/less": lambda: rocci.binomial_test(3, 40, 0.2, alternative="less"),
        "threshold_coverage/marginal": lambda: rocci.threshold_coverage(0.3, 0.05, 50, 80, region="marginal"),
        "scan/one": lambda: rocci.scan(pd.DataFrame({"y": y, "a": a}), label="y", scores=["a"]),
    }
    for metric in rocci.precision.METRICS:
        calls[f"metric_ci/{metric}"] = lambda metric=metric: rocci.metric_ci(y, a, thresholds=t, metric=metric)
    return calls


def _frames(res):
    """Every frame a result gives: ``to_frame()``, and ``ManyComparison.leaderboard()``."""
    frames = {"to_frame": res.to_frame()}
    if isinstance(res, rocci.ManyComparison):
        frames["leaderboard"] = res.leaderboard()
    return frames


#: Public functions that return a number or the data itself, not a result.
NOT_RESULTS = {
    "operating_point": "a float (w)",
    "rate_threshold": "a float (a threshold)",
    "youden_threshold": "a float (a threshold)",
    "cost_threshold": "a float (a threshold)",
    "load_table": "the table read (a DataFrame: the data, not a result)",
}


def test_every_public_function_is_classified():
    calls = _calls()
    for name in _public_functions():
        assert (name in calls) != (name in NOT_RESULTS), (
            f"{name}: add it to _calls() (it returns a result) or to NOT_RESULTS (it returns a number or the data)")


@pytest.mark.parametrize("name", sorted(_calls()))
def test_every_result_has_to_frame_and_a_notebook_view(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the deprecated aliases: tested below
        res = _calls()[name]()
    assert not isinstance(res, pd.DataFrame), name
    frame = res.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame.columns), name
    page = res._repr_html_()
    assert page.startswith(f"<p><b>{type(res).__name__}</b>(") and "<table" in page, name
    assert isinstance(repr(res), str)


def test_results_show_as_tables_in_notebooks():
    """Every result's _repr_html_ (Jupyter) is its class, its scalar fields and the head of to_frame()."""
    y, s = _data()
    for res in (rocci.roc_curve(y, s), rocci.threshold_ci(y, s, thresholds=[0.5, 1.0]),
                rocci.roc_band(y, s, thresholds=[0.0, 1.0]), rocci.cost_ci(y, s, w=[0.3]),
                rocci.net_benefit(y, 1 / (1 + np.exp(-s)), thresholds=[0.3]), rocci.gain_curve(y, s)):
        page = res._repr_html_()
        assert page.startswith(f"<p><b>{type(res).__name__}</b>(") and "<table" in page
        first = res.to_frame().columns[0]
        assert f"<th>{first}</th>" in page


# --- every old spelling warns, names the new one, and gives the same numbers ------------------------------

def _warns(match, call):
    """``call()``'s value; it must give one DeprecationWarning matching ``match``, pointing at this file."""
    with pytest.warns(DeprecationWarning, match=match) as record:
        value = call()
    assert [w.filename for w in record if issubclass(w.category, DeprecationWarning)] == [__file__], (
        "the warning must name the caller's line (stacklevel)")
    return value


def _same(old, new):
    if hasattr(new, "to_frame"):
        pd.testing.assert_frame_equal(old.to_frame(), new.to_frame(), check_exact=True)
    else:
        assert old == new


def test_renamed_keywords_warn_and_give_the_same_numbers():
    y, a, b = _two()
    folds = np.arange(y.size) % 5
    cases = [
        ("rate_threshold", lambda: rocci.rate_threshold(y, a, rate=0.2),
         lambda: rocci.rate_threshold(y, a, total_positive_rate=0.2)),
        ("gain_ci", lambda: rocci.gain_ci(y, a, depth=[0.1, 0.3]),
         lambda: rocci.gain_ci(y, a, total_positive_rate=[0.1, 0.3])),
        ("mcnemar", lambda: rocci.mcnemar(y, a, b, threshold_a=0.5, threshold_b=0.2),
         lambda: rocci.mcnemar(y, a, b, thresholds_a=0.5, thresholds_b=0.2)),
        ("compare_folds", lambda: rocci.compare_folds(y, a, b, folds, measure="error", threshold_a=0.5,
                                                      threshold_b=0.2),
         lambda: rocci.compare_folds(y, a, b, folds, measure="error", thresholds_a=0.5, thresholds_b=0.2)),
    ]
    seen = set()
    for name, old, new in cases:
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            got = old()
        messages = [str(w.message) for w in record if issubclass(w.category, DeprecationWarning)]
        olds = {o for (f, o) in DEPRECATED_KEYWORDS if f == name and f"{name}({o}=...)" in " ".join(messages)}
        assert olds and all(DEPRECATED_KEYWORDS[(name, o)] in " ".join(messages) for o in olds), messages
        assert all("0.4" in m for m in messages) and {w.filename for w in record} == {__file__}
        seen |= {(name, o) for o in olds}
        _same(got, new())
        if isinstance(got, float):
            continue
        for o in olds:  # the old keyword with the new one: an error, not a guess
            kw = {o: 0.5, DEPRECATED_KEYWORDS[(name, o)]: 0.5}
            args = {"rate_threshold": (y, a), "gain_ci": (y, a), "mcnemar": (y, a, b),
                    "compare_folds": (y, a, b, folds)}[name]
            extra = {"measure": "error"} if name == "compare_folds" else {}
            with pytest.raises(rocci.InputError, match="old name"):
                getattr(rocci, name)(*args, **extra, **kw)
    assert seen == set(DEPRECATED_KEYWORDS)


def test_renamed_attributes_warn_and_read_the_new_ones():
    y, a, b = _two()
    gain = rocci.gain_ci(y, a, thresholds=[0.0, 1.0])
    for suffix in ("", "_mean", "_std", "_low", "_high"):
        old = _warns(f"GainCI.depth{suffix} is GainCI.total_positive_rate{suffix}",
                     lambda: getattr(gain, f"depth{suffix}"))
        np.testing.assert_array_equal(old, getattr(gain, f"total_positive_rate{suffix}"))
    for i in range(2):
        old = _warns("'total_positive_rate'", lambda: gain.distribution(i, "depth"))
        new = gain.distribution(i, "total_positive_rate")
        np.testing.assert_array_equal(old[0], new[0])
        np.testing.assert_array_equal(old[1], new[1])
    from rocci.precision import gain as gain_module

    assert _warns("DEFAULT_TOTAL_POSITIVE_RATE", lambda: gain_module.DEFAULT_DEPTH) == \
        gain_module.DEFAULT_TOTAL_POSITIVE_RATE
    mc = rocci.mcnemar(y, a, b, thresholds_a=0.5, thresholds_b=0.2)
    assert _warns("McNemarResult.thresholds_a", lambda: mc.threshold_a) == mc.thresholds_a == 0.5
    assert _warns("McNemarResult.thresholds_b", lambda: mc.threshold_b) == mc.thresholds_b == 0.2
    fc = rocci.compare_folds(y, a, b, np.arange(y.size) % 5, measure="error", thresholds_a=0.5)
    assert _warns("FoldComparison.thresholds_a", lambda: fc.threshold_a) == fc.thresholds_a == 0.5
    assert _warns("FoldComparison.thresholds_b", lambda: fc.threshold_b) == fc.thresholds_b == 0.5


#: The last two-name quantities (issue 30): (call, old attribute, new attribute).  CHANGELOG.md's table.
ONE_NAME_RENAMES = [
    ("threshold_table", "target_size", "n_predicted_positive"),
    ("threshold_table", "target_rate", "total_positive_rate"),
    ("gain_curve", "target_size", "n_predicted_positive"), ("gain_curve", "target_rate", "total_positive_rate"),
    ("reading_curve", "accepted", "n_predicted_positive"), ("reading_curve", "reading_rate", "total_positive_rate"),
    ("confusion_at", "target_size", "n_predicted_positive"),
    ("compare_cost", "na_pos", "n_a_pos"), ("compare_cost", "nb_pos", "n_b_pos"),
    ("compare_cost", "na_neg", "n_a_neg"), ("compare_cost", "nb_neg", "n_b_neg"),
    ("compare_auc", "delta", "delta_auc"), ("compare_auc", "std", "delta_auc_std"),
    ("compare_auc", "low", "delta_auc_low"), ("compare_auc", "high", "delta_auc_high"),
    ("compare_auc_unpaired", "delta", "delta_auc"), ("compare_auc_unpaired", "std", "delta_auc_std"),
    ("compare_auc_unpaired", "low", "delta_auc_low"), ("compare_auc_unpaired", "high", "delta_auc_high"),
    ("compare_auc_unpaired", "std_a", "auc_std_a"), ("compare_auc_unpaired", "std_b", "auc_std_b"),
    ("roc_auc", "std", "auc_std"), ("roc_auc", "low", "auc_low"), ("roc_auc", "high", "auc_high"),
    ("compare_folds", "difference", "delta_value"),
    ("average_precision", "mean", "average_precision_mean"), ("average_precision", "std", "average_precision_std"),
    ("average_precision", "low", "average_precision_low"), ("average_precision", "high", "average_precision_high"),
    ("average_precision", "mc_se_mean", "average_precision_mean_se"),
    ("average_precision", "mc_se_std", "average_precision_std_se"),
    ("binomial_test", "low", "error_rate_low"), ("binomial_test", "high", "error_rate_high"),
    ("net_benefit", "m", "m_total"), ("compare_net_benefit", "m", "m_total"),
]


@pytest.mark.parametrize("name, old, new", ONE_NAME_RENAMES)
def test_one_name_renames_warn_and_read_the_new_attribute(name, old, new):
    """Each old attribute reads the new one with a DeprecationWarning naming it (the caller's line); the
    frame has the new column only (a column cannot warn)."""
    res = _calls()[name]()
    value = _warns(f"{type(res).__name__}.{old} is {type(res).__name__}.{new}", lambda: getattr(res, old))
    np.testing.assert_array_equal(value, getattr(res, new))
    if new in {f for f, _ in column_fields(type(res))}:
        assert old not in res.to_frame().columns and new in res.to_frame().columns


def test_renamed_columns_of_the_frame_like_results_map_to_the_new_ones():
    y, s = _data()
    for res, old, new in ((rocci.threshold_table(y, s), "target_rate", "total_positive_rate"),
                          (rocci.reading_curve(y, s), "accepted", "n_predicted_positive")):
        pd.testing.assert_series_equal(_warns("to_frame", lambda: res[old]), res.to_frame()[new])


def test_monte_carlo_has_one_spelling():
    y, s = _data()
    new = rocci.roc_band(y, s, method="monte-carlo", n_boot=200, seed=1)
    old = _warns("monte-carlo", lambda: rocci.roc_band(y, s, method="montecarlo", n_boot=200, seed=1))
    assert new.method == old.method == "monte-carlo" == rocci.average_precision(y, s, n_boot=50).method
    pd.testing.assert_frame_equal(new.to_frame(), old.to_frame())


def test_precision_recall_curve_is_pr_curve_at_the_roc_points():
    y, s = _data()
    counts = rocci.ScoreCounts.from_arrays(y, s)
    for data in ((y, s), (counts,)):
        old = _warns(r"rocci.pr_curve\(y_true, y_score, interpolate=False\)",
                     lambda: rocci.precision_recall_curve(*data))
        new = rocci.pr_curve(*data, interpolate=False)
        _same(old, new)
        # rocci 0.2's frame, column for column, is the ROC rows of the interpolated curve
        frame = old.to_frame()[["threshold", "recall", "precision", "tp", "fp"]]
        full = rocci.pr_curve(*data).to_frame()
        roc_rows = full[~full["interpolated"]].reset_index(drop=True)
        pd.testing.assert_frame_equal(frame, roc_rows[frame.columns].astype({"tp": "int64", "fp": "int64"}))


def test_precision_at_recall_is_precision_ci_at_recall_levels():
    y, s = _data()
    for recall in ([0.2, 0.5, 0.9], None):
        old = _warns(r"rocci.precision_ci\(y_true, y_score, recall=...\)",
                     lambda: rocci.precision_at_recall(y, s, recall=recall, method="score"))
        new = rocci.precision_ci(y, s, recall=[0.2, 0.5, 0.9] if recall else np.round(np.linspace(0.01, 0.99, 99), 2),
                                 method="score")
        _same(old, new)


@pytest.mark.parametrize("name", ["threshold_table", "gain_curve", "reading_curve", "pr_curve"])
def test_results_that_were_frames_still_answer_like_the_frame_with_a_warning(name):
    """rocci 0.2 returned the frame itself: columns, indexing and DataFrame methods still work on the result
    for 0.3 (reading to_frame(), with a DeprecationWarning); the result's own attributes do not warn."""
    y, s = _data()
    res = getattr(rocci, name)(y, s)
    frame = res.to_frame()
    column = frame.columns[1]
    pd.testing.assert_series_equal(_warns(r"\.to_frame\(\)", lambda: res[column]), frame[column])
    pd.testing.assert_frame_equal(_warns("to_frame", lambda: res[[column]]), frame[[column]])
    pd.testing.assert_series_equal(_warns("to_frame", lambda: res.iloc[0]), frame.iloc[0])
    assert list(_warns("to_frame", lambda: res.columns)) == list(frame.columns)
    assert _warns("to_frame", lambda: list(res)) == list(frame.columns)
    pd.testing.assert_frame_equal(_warns("to_frame", lambda: res.assign(model="m")), frame.assign(model="m"))
    if name == "pr_curve":
        assert _warns("to_frame", lambda: res.attrs) == frame.attrs == {"n_pos": res.n_pos, "n_neg": res.n_neg,
                                                                       "baseline": res.baseline}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(res) == len(frame)
        np.testing.assert_array_equal(res.thresholds, frame["threshold"])
        assert "<table" in res._repr_html_()
        with pytest.raises(AttributeError):
            res.no_such_thing
        with pytest.raises(AttributeError):
            res._repr_latex_  # notebook probes are never forwarded
    import copy
    import pickle

    for twin in (pickle.loads(pickle.dumps(res)), copy.deepcopy(res)):  # the dashboard's cache pickles results
        pd.testing.assert_frame_equal(twin.to_frame(), frame)


# --- one function per quantity ------------------------------------------------------------------------------

def test_gain_curve_and_gain_ci_agree():
    """The gain chart's points are gain_ci's observed values at the same thresholds (one gain API)."""
    y, s = _data()
    curve = rocci.gain_curve(y, s)
    t = curve.thresholds[1:]
    res = rocci.gain_ci(y, s, thresholds=t)
    np.testing.assert_array_equal(res.total_positive_rate, curve.total_positive_rate[1:])
    np.testing.assert_array_equal(res.gain, curve.recall[1:])
    np.testing.assert_allclose(res.lift, curve.lift[1:], rtol=1e-14)
    np.testing.assert_array_equal(res.tp, curve.tp[1:])


def test_pr_curve_and_precision_ci_agree():
    y, s = _data()
    curve = rocci.pr_curve(y, s, interpolate=False)
    res = rocci.precision_ci(y, s, thresholds=curve.thresholds)
    np.testing.assert_allclose(res.value, curve.precision, rtol=1e-15)


def test_rate_threshold_takes_total_positive_rate_and_counts():
    y, s = _data()
    counts = rocci.ScoreCounts.from_arrays(y, s)
    t = rocci.rate_threshold(y, s, 0.2)
    assert rocci.rate_threshold(y, s, total_positive_rate=0.2) == t == rocci.rate_threshold(counts,
                                                                                              total_positive_rate=0.2)
    assert t == rocci.threshold_ci(y, s, total_positive_rate=[0.2]).thresholds[0]
    with pytest.raises(rocci.InputError, match="share of instances"):
        rocci.rate_threshold(y, s)


def test_rate_threshold_is_the_kernel_every_rate_function_uses():
    """rate_threshold (one threshold, checked input) and thresholds_for_total_positive_rate (the kernel on
    counts) give the same thresholds, which threshold_ci, compare_thresholds and gain_ci use."""
    y, a, b = _two()
    counts = rocci.ScoreCounts.from_arrays(y, a)
    q = np.array([0.0, 0.01, 0.1, 0.25, 0.333, 0.5, 0.9, 1.0])
    kernel = thresholds_for_total_positive_rate(counts, q)
    assert [rocci.rate_threshold(y, a, total_positive_rate=v) for v in q] == kernel.tolist()
    np.testing.assert_array_equal(rocci.threshold_ci(y, a, total_positive_rate=q).thresholds, kernel)
    np.testing.assert_array_equal(rocci.compare_thresholds(y, a, b, total_positive_rate=q).thresholds_a, kernel)
    np.testing.assert_array_equal(rocci.gain_ci(y, a, total_positive_rate=q[1:]).thresholds, kernel[1:])


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
