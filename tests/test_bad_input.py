"""Bad input raises rocci.InputError (a ValueError) with a message a person can act on."""

from __future__ import annotations

import re

import numpy as np
import pytest

import rocci

Y = [1, 0, 1, 0, 1, 0]
S = [0.9, 0.8, 0.7, 0.4, 0.3, 0.1]

# every public entry point that takes (y_true, y_score)
ENTRY_POINTS = {
    "roc_curve": lambda y, s, **kw: rocci.roc_curve(y, s, **kw),
    "roc_auc": lambda y, s, **kw: rocci.roc_auc(y, s, **kw),
    "threshold_ci": lambda y, s, **kw: rocci.threshold_ci(y, s, **kw),
    "vertical_ci": lambda y, s, **kw: rocci.vertical_ci(y, s, **kw),
}


def _raises(fn, *words):
    """Call fn, expect InputError whose message contains every word (case-insensitive)."""
    with pytest.raises(rocci.InputError) as info:
        fn()
    msg = str(info.value)
    for w in words:
        assert re.search(re.escape(w), msg, flags=re.IGNORECASE), f"{w!r} not in message {msg!r}"
    return msg


def test_input_error_is_a_value_error():
    assert issubclass(rocci.InputError, ValueError)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_one_class_only(entry):
    fn = ENTRY_POINTS[entry]
    _raises(lambda: fn([1, 1, 1], [0.1, 0.2, 0.3]), "negative")
    _raises(lambda: fn([0, 0, 0], [0.1, 0.2, 0.3]), "positive")


def test_vertical_needs_two_negatives():
    # one negative: m_neg = 1 leaves no level r with 1 <= r <= m_neg - 1
    _raises(lambda: rocci.vertical_ci([1, 1, 0], [0.9, 0.5, 0.3]), "negative")


def test_delong_needs_two_of_each_class():
    # documented in roc_auc's Notes; the message points to an alternative
    _raises(lambda: rocci.roc_auc([1, 0, 0], [0.9, 0.5, 0.3]), "2 positives", "exact-bootstrap")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_nan_scores(entry):
    _raises(lambda: ENTRY_POINTS[entry](Y, [0.9, np.nan, 0.7, 0.4, 0.3, 0.1]), "NaN")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_inf_scores(entry):
    _raises(lambda: ENTRY_POINTS[entry](Y, [0.9, np.inf, 0.7, 0.4, 0.3, 0.1]), "infinite")
    _raises(lambda: ENTRY_POINTS[entry](Y, [0.9, 0.8, 0.7, 0.4, 0.3, -np.inf]), "infinite")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_string_scores(entry):
    _raises(lambda: ENTRY_POINTS[entry](Y, ["a", "b", "c", "d", "e", "f"]), "numeric")
    _raises(lambda: ENTRY_POINTS[entry](Y, [0.9, 0.8, "high", 0.4, 0.3, 0.1]), "numeric")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_mismatched_lengths(entry):
    _raises(lambda: ENTRY_POINTS[entry](Y, S[:-1]), "5", "6")
    _raises(lambda: ENTRY_POINTS[entry](Y + [1], S), "7", "6")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_unknown_pos_label(entry):
    _raises(lambda: ENTRY_POINTS[entry](Y, S, pos_label=2), "pos_label")
    _raises(
        lambda: ENTRY_POINTS[entry](["a", "b", "a", "b", "a", "b"], S, pos_label="c"), "pos_label"
    )


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_more_than_two_labels(entry):
    _raises(lambda: ENTRY_POINTS[entry]([0, 1, 2, 0, 1, 2], S), "two")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_string_labels_need_pos_label(entry):
    _raises(lambda: ENTRY_POINTS[entry](["yes", "no", "yes", "no", "yes", "no"], S), "pos_label")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_empty_data(entry):
    _raises(lambda: ENTRY_POINTS[entry]([], []), "empty")


@pytest.mark.parametrize(
    "call,choices",
    [
        (lambda: rocci.roc_auc(Y, S, method="bootstrap"), ["delong", "hanley-mcneil", "exact-bootstrap"]),
        (lambda: rocci.threshold_ci(Y, S, method="clopper"), ["wilson", "wald", "agresti-coull", "percentile"]),
        (lambda: rocci.threshold_ci(Y, S, region="circle"), ["rectangle", "ellipse", "marginal"]),
        (lambda: rocci.vertical_ci(Y, S, method="wilson"), ["percentile", "score", "wald"]),
    ],
    ids=["roc_auc", "threshold_ci", "threshold_ci-region", "vertical_ci"],
)
def test_bad_method_lists_valid_choices(call, choices):
    _raises(call, *choices)


@pytest.mark.parametrize(
    "call",
    [
        lambda: rocci.roc_auc(Y, S, confidence_level=95),
        lambda: rocci.threshold_ci(Y, S, confidence_level=95),
        lambda: rocci.vertical_ci(Y, S, confidence_level=95),
    ],
    ids=["roc_auc", "threshold_ci", "vertical_ci"],
)
def test_confidence_level_as_percent(call):
    _raises(call, "0.95")


def test_w_just_above_one_is_printed_exactly():
    """1 + 2⁻⁵² is refused and shown as it is (``:g`` printed it as 1, which looked valid)."""
    import numpy as np
    import pytest

    import rocci

    y, s = np.array([0, 1, 0, 1]), np.array([0.1, 0.4, 0.35, 0.8])
    with pytest.raises(rocci.InputError, match=r"got 1\.0000000000000002"):
        rocci.cost_curve(y, s, w=[1 + 2.0**-52])
