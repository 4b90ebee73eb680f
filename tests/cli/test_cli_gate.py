"""``--gate``'s grammar: ``key OP number`` clauses joined by ``and``, read by a parser (no eval), each clause
evaluated on its own; anything else is refused with a message that says what was expected."""

from __future__ import annotations

import math

import pytest

import rocci
from rocci.cli.gate import Clause, parse_gate

KEYS = ["delta_auc", "p_a_better", "pvalue", "n_pos"]


@pytest.mark.parametrize("text,clauses", [
    ("delta_auc>0", [("delta_auc", ">", 0.0)]),
    ("  p_a_better >= 0.95   and delta_auc>-0.01 ", [("p_a_better", ">=", 0.95), ("delta_auc", ">", -0.01)]),
    ("pvalue<1e-3 AND n_pos==212 and delta_auc <= +.5", [("pvalue", "<", 1e-3), ("n_pos", "==", 212.0),
                                                         ("delta_auc", "<=", 0.5)]),
    ("delta_auc<2.5E+1", [("delta_auc", "<", 25.0)]),
])
def test_well_formed_gates(text, clauses):
    gate = parse_gate(text, keys=KEYS)
    assert [(c.key, c.op, c.value) for c in gate.clauses] == clauses
    assert gate.text == text


@pytest.mark.parametrize("op,x,holds", [(">=", 0.5, True), (">=", 0.49, False), (">", 0.5, False),
                                        ("<=", 0.5, True), ("<", 0.5, False), ("==", 0.5, True), ("==", 0.4, False)])
def test_each_operator(op, x, holds):
    assert Clause("p_a_better", op, 0.5, "0.5").holds({"p_a_better": x}) is holds


def test_failed_clauses_in_order_and_missing_values_never_hold():
    gate = parse_gate("delta_auc > 0 and p_a_better >= 0.95 and pvalue < 0.05", keys=KEYS)
    assert gate.failed({"delta_auc": 0.02, "p_a_better": 0.99, "pvalue": 0.01}) == []
    failed = gate.failed({"delta_auc": -0.1, "p_a_better": None, "pvalue": math.nan})
    assert [str(c) for c in failed] == ["delta_auc > 0", "p_a_better >= 0.95", "pvalue < 0.05"]
    assert gate.keys == ["delta_auc", "p_a_better", "pvalue"]


@pytest.mark.parametrize("text,why", [
    ("", "--gate is empty"),
    ("   ", "--gate is empty"),
    ("auc > 0", "unknown key 'auc'"),
    ("delta_auc", "expected an operator"),
    ("delta_auc => 0", "expected an operator (>=, >, <=, < or ==) after 'delta_auc' but found '=>'"),
    ("delta_auc != 0", "found '!='"),
    ("delta_auc = 0", "found '='"),
    ("delta_auc > x", "expected a number after 'delta_auc >' but found 'x'"),
    ("delta_auc > 0 and", "expected a key"),
    ("and delta_auc > 0", "expected a key"),
    ("delta_auc > 0 or pvalue < 1", "expected 'and' or the end after 'delta_auc > 0' but found 'or'"),
    ("delta_auc > 0 pvalue < 1", "but found 'pvalue'"),
    ("(delta_auc > 0)", "expected a key"),
    ("delta_auc > 0; import os", "found ';'"),
    ("0 < delta_auc", "expected a key"),
    ("delta_auc > nan", "found 'nan'"),
    ("delta_auc > 1e", "expected a number"),
    ("__import__('os').system('x') > 0", "unknown key '__import__'"),
])
def test_malformed_gates_are_refused(text, why):
    with pytest.raises(rocci.InputError) as info:
        parse_gate(text, keys=KEYS)
    assert why in str(info.value)
