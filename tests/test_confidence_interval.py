"""``confidence_interval(confidence_level, method)`` (issue 30): a result that keeps its exact laws (or the counts
that rebuild them) recomputes its interval at another level, or by another method computable from them, without
reading the data again, and gives what the function gives when called with that level and method."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import rocci


def _data(n=300, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    a = np.round(rng.normal(size=n) + 1.2 * y, 2)
    b = np.round(np.random.default_rng(seed + 100).normal(size=n) + 0.7 * y, 2)
    return y, a, b


Y, A, B = _data()
Y_BIG, A_BIG, _ = _data(4000, seed=8)  # (n+ + 1)(m+ + 1) above vertical_ci's table: a quantile search per level
RISK_A, RISK_B = 1 / (1 + np.exp(-A)), 1 / (1 + np.exp(-B))
T = [0.0, 0.5, 1.0, 1.5]

#: name -> (call(confidence_level, method or None), the methods confidence_interval offers)
CASES = {
    "roc_auc": (lambda lv, me: rocci.roc_auc(Y, A, confidence_level=lv), ("delong",)),
    "roc_auc/exact-bootstrap": (lambda lv, me: rocci.roc_auc(Y, A, confidence_level=lv, method="exact-bootstrap"),
                                ("exact-bootstrap",)),
    "threshold_ci": (lambda lv, me: rocci.threshold_ci(Y, A, thresholds=T + [-9.0, 9.0], confidence_level=lv,
                                                       **_m(me)), ("wilson", "wald", "agresti-coull", "percentile")),
    "threshold_ci/ellipse": (lambda lv, me: rocci.threshold_ci(Y, A, thresholds=T, region="ellipse",
                                                               confidence_level=lv, **_m(me)), ("wilson", "wald")),
    "threshold_ci/marginal": (lambda lv, me: rocci.threshold_ci(Y, A, total_positive_rate=[0.1, 0.5],
                                                                region="marginal", confidence_level=lv, **_m(me)),
                              ("wilson", "percentile")),
    "vertical_ci": (lambda lv, me: rocci.vertical_ci(Y, A, fpr=[0.01, 0.1, 0.5, 0.99], confidence_level=lv,
                                                     **_m(me)), ("score", "percentile", "wald")),
    "vertical_ci/search": (lambda lv, me: rocci.vertical_ci(Y_BIG, A_BIG, fpr=[0.05, 0.5], confidence_level=lv,
                                                            **_m(me)), ("percentile",)),
    "vertical_ci/m": (lambda lv, me: rocci.vertical_ci(Y, A, fpr=[0.1, 0.5], m=(40, 90), confidence_level=lv,
                                                       **_m(me)), ("score", "percentile", "wald")),
    "compare_auc": (lambda lv, me: rocci.compare_auc(Y, A, B, confidence_level=lv), ("delong",)),
    "compare_auc_unpaired": (lambda lv, me: rocci.compare_auc_unpaired(Y, A, Y[::-1], B, confidence_level=lv),
                             ("delong",)),
    "compare_thresholds": (lambda lv, me: rocci.compare_thresholds(Y, A, B, thresholds_a=T, confidence_level=lv),
                           ("score",)),
    "compare_thresholds/marginal-plugin": (lambda lv, me: rocci.compare_thresholds(
        Y, A, B, total_positive_rate=[0.1, 0.4], region="marginal", gamma="plugin", confidence_level=lv), ("score",)),
    "compare_vertical": (lambda lv, me: rocci.compare_vertical(Y, A, B, fpr=[0.05, 0.3, 0.9], confidence_level=lv,
                                                               **_m(me)), ("score", "percentile")),
    "compare_vertical_unpaired": (lambda lv, me: rocci.compare_vertical_unpaired(
        Y, A, Y[::-1], B, fpr=[0.1, 0.6], confidence_level=lv), ("percentile",)),
    "compare_thresholds_unpaired": (lambda lv, me: rocci.compare_thresholds_unpaired(
        Y, A, Y[::-1], B, thresholds_a=T, thresholds_b=T, confidence_level=lv), ("percentile",)),
    "compare_cost_unpaired": (lambda lv, me: rocci.compare_cost_unpaired(
        Y, A, Y[::-1], B, w=[0.2, 0.6], confidence_level=lv, **_m(me)),
        ("agresti-coull", "wald", "percentile")),
    "precision_ci": (lambda lv, me: rocci.precision_ci(Y, A, thresholds=T, confidence_level=lv, **_m(me)),
                     ("percentile", "wald", "score")),
    "precision_ci/full": (lambda lv, me: rocci.precision_ci(Y, A, thresholds=T, bootstrap="full", confidence_level=lv,
                                                            **_m(me)), ("percentile", "wald", "score")),
    "metric_ci/f1": (lambda lv, me: rocci.metric_ci(Y, A, thresholds=T, confidence_level=lv, **_m(me)),
                     ("percentile", "wald")),
    "metric_ci/mcc-full": (lambda lv, me: rocci.metric_ci(Y[:50], A[:50], thresholds=T, metric="mcc", bootstrap="full",
                                                          confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "metric_ci/fbeta": (lambda lv, me: rocci.metric_ci(Y, A, thresholds=T, metric="fbeta", beta=2.0,
                                                       confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "precision_ci/recall": (lambda lv, me: rocci.precision_ci(Y, A, recall=[0.1, 0.5, 0.9], confidence_level=lv,
                                                              **_m(me)), ("percentile", "score", "wald")),
    "precision_ci/recall-big": (lambda lv, me: rocci.precision_ci(Y_BIG, A_BIG, recall=[0.2, 0.8], confidence_level=lv,
                                                                  **_m(me)), ("percentile",)),
    "compare_precision": (lambda lv, me: rocci.compare_precision(Y[:50], A[:50], B[:50], thresholds_a=[0.5, 1.5],
                                                                 confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "compare_precision/recall-f1": (lambda lv, me: rocci.compare_precision(
        Y[:50], A[:50], B[:50], recall=[0.5], metric="f1", confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "compare_precision/lift": (lambda lv, me: rocci.compare_precision(
        Y[:50], A[:50], B[:50], thresholds_a=[0.5], metric="lift", confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "compare_fpr_at_recall": (lambda lv, me: rocci.compare_fpr_at_recall(Y, A, B, recall=[0.3, 0.7], confidence_level=lv,
                                                                         **_m(me)), ("percentile", "score")),
    "gain_ci": (lambda lv, me: rocci.gain_ci(Y, A, thresholds=T, confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "gain_ci/full": (lambda lv, me: rocci.gain_ci(Y[:60], A[:60], thresholds=T, bootstrap="full", confidence_level=lv,
                                                  **_m(me)), ("percentile", "wald")),
    "gain_ci/total_positive_rate": (lambda lv, me: rocci.gain_ci(Y, A, total_positive_rate=[0.1, 0.4],
                                                                 confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "net_benefit": (lambda lv, me: rocci.net_benefit(Y, RISK_A, thresholds=[0.05, 0.2, 0.5, 0.95], confidence_level=lv,
                                                     **_m(me)), ("percentile", "wald")),
    "net_benefit/stratified": (lambda lv, me: rocci.net_benefit(Y, RISK_A, thresholds=[0.2, 0.5], bootstrap="stratified",
                                                                confidence_level=lv, **_m(me)), ("percentile", "wald")),
    "compare_net_benefit": (lambda lv, me: rocci.compare_net_benefit(Y, RISK_A, RISK_B, thresholds=[0.2, 0.5, 0.999],
                                                                     confidence_level=lv), ("percentile",)),
    "compare_net_benefit/stratified": (lambda lv, me: rocci.compare_net_benefit(
        Y, RISK_A, RISK_B, thresholds=[0.3], bootstrap="stratified", confidence_level=lv), ("percentile",)),
    "cost_ci": (lambda lv, me: rocci.cost_ci(Y, A, w=[0.0, 0.3, 0.6, 1.0], confidence_level=lv,
                                             **_m(me)), ("agresti-coull", "wald", "percentile")),
    "cost_ci/full": (lambda lv, me: rocci.cost_ci(Y, A, w=[0.2, 0.7], bootstrap="full", confidence_level=lv,
                                                  **_m(me)), ("agresti-coull", "wald", "percentile")),
    "compare_cost": (lambda lv, me: rocci.compare_cost(Y, A, B, w=[0.0, 0.3, 0.31, 0.8], confidence_level=lv,
                                                       **_m(me)), ("agresti-coull", "wald", "percentile")),
    "compare_cost/full": (lambda lv, me: rocci.compare_cost(Y, A, B, w=[0.3, 0.8], bootstrap="full",
                                                            confidence_level=lv, **_m(me)),
                          ("agresti-coull", "wald", "percentile")),
}


def _m(method):
    return {} if method is None else {"method": method}


def _same(got, want, name):
    pd.testing.assert_frame_equal(got.to_frame(), want.to_frame(), check_exact=False, rtol=1e-12, atol=1e-14,
                                  obj=name)
    for attr in ("confidence_level", "method"):
        if hasattr(want, attr):
            assert getattr(got, attr) == getattr(want, attr), (name, attr)
    assert type(got) is type(want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_confidence_interval_equals_the_call_at_that_level(name):
    call, methods = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        res = call(0.95, None)
        before = res.to_frame()
        _same(res.confidence_interval(0.9), call(0.9, None), f"{name} at 0.9")
        _same(res.confidence_interval(), res, f"{name} at 0.95 again")
        for method in methods:
            for level in (0.8, 0.99):
                _same(res.confidence_interval(level, method=method), call(level, method), f"{name} {method} {level}")
    pd.testing.assert_frame_equal(res.to_frame(), before)  # the result itself is unchanged


@pytest.mark.parametrize("name", sorted(CASES))
def test_confidence_interval_checks_its_arguments(name):
    call, methods = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        res = call(0.95, None)
    with pytest.raises(rocci.InputError, match="confidence_level"):
        res.confidence_interval(95)
    with pytest.raises(rocci.InputError, match="must be one of"):
        res.confidence_interval(0.9, method="no-such-method")


@pytest.mark.parametrize("name", sorted(CASES))
def test_confidence_interval_survives_pickling(name):
    """The dashboard's cache pickles results: what confidence_interval() needs is kept through it."""
    import pickle

    call, methods = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        res = call(0.95, None)
    twin = pickle.loads(pickle.dumps(res))
    _same(twin.confidence_interval(0.9, methods[-1]), res.confidence_interval(0.9, methods[-1]), name)


def test_every_result_with_an_exact_law_offers_confidence_interval():
    """A result with ``distribution(i)`` keeps (or rebuilds) its laws, so it offers ``confidence_interval``; the
    cases above cover every class that does."""
    import test_vocabulary as tv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        classes = {type(call()) for call in {**tv._calls(), **tv._variant_calls()}.values()}
        covered = {type(call(0.95, None)) for call, _ in CASES.values()}
    for cls in classes:
        if hasattr(cls, "distribution"):
            assert hasattr(cls, "confidence_interval"), cls.__name__
    offering = {cls for cls in classes if hasattr(cls, "confidence_interval")}
    assert offering <= covered, sorted(c.__name__ for c in offering - covered)
    assert len(offering) == 19, sorted(c.__name__ for c in offering)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_result_without_its_laws_says_so(name):
    """The dashboard caches results without their laws (ui.cache.precision._lean): confidence_interval() then
    either still has what it needs (counts, moments) and gives the same bounds, or says to call the function
    again; it never returns bounds of the wrong shape."""
    import dataclasses

    call, methods = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        res = call(0.95, None)
    empty = {"_laws": [], "_relevel": None, "_vertical": None, "_mixture": None, "_moments": []}
    lean = dataclasses.replace(res, **{k: v for k, v in empty.items() if k in {f.name for f in dataclasses.fields(res)}})
    for method in methods:
        try:
            got = lean.confidence_interval(0.9, method)
        except rocci.InputError as e:
            assert "again" in str(e), name
        else:
            _same(got, res.confidence_interval(0.9, method), name)
