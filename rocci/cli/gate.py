"""``--gate``: a condition on the numbers of ``rocci compare``, read by a small grammar (never ``eval``).

The grammar, whole::

    gate   := clause ("and" clause)*
    clause := KEY OP NUMBER
    OP     := ">=" | ">" | "<=" | "<" | "=="

``KEY`` is one of the verdict's numbers (``delta_auc``, ``p_a_better``, ...: :data:`rocci.cli.verdict.GATE_KEYS`),
``NUMBER`` a decimal number (``0.95``, ``-0.01``, ``1e-3``).  Nothing else is accepted: no names other than
the keys, no parentheses, no ``or``.  A clause on a number that could not be computed (``nan``) does not hold.
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from .._core.errors import InputError

OPERATORS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq,
}

_TOKEN = re.compile(r"""\s*(?:
    (?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(?![\w.])
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>>=|<=|==|>|<)
  | (?P<other>[=!<>]+|\S))""", re.VERBOSE)


@dataclass(frozen=True)
class Clause:
    """``key op value``, e.g. ``p_a_better >= 0.95`` (``number`` is the value as written)."""

    key: str
    op: str
    value: float
    number: str

    def holds(self, values: Mapping[str, float]) -> bool:
        """Whether the clause holds for ``values[key]`` (a missing or ``nan`` value never does)."""
        x = values.get(self.key)
        if x is None or not isinstance(x, (int, float)) or math.isnan(float(x)):
            return False
        return OPERATORS[self.op](float(x), self.value)

    def __str__(self) -> str:
        return f"{self.key} {self.op} {self.number}"


@dataclass(frozen=True)
class Gate:
    """The clauses of a ``--gate`` expression, all of which must hold.

    >>> gate = parse_gate("p_a_better>=0.95 and delta_auc > 0", keys=["p_a_better", "delta_auc"])
    >>> [str(c) for c in gate.clauses]
    ['p_a_better >= 0.95', 'delta_auc > 0']
    >>> [str(c) for c in gate.failed({"p_a_better": 0.97, "delta_auc": -0.01})]
    ['delta_auc > 0']
    """

    text: str
    clauses: tuple

    @property
    def keys(self) -> list[str]:
        """The keys the clauses use, in order, each once."""
        return list(dict.fromkeys(c.key for c in self.clauses))

    def failed(self, values: Mapping[str, float]) -> list[Clause]:
        """The clauses that do not hold (none: the gate holds)."""
        return [c for c in self.clauses if not c.holds(values)]


def parse_gate(text: str, *, keys: Iterable[str]) -> Gate:
    """Read a ``--gate`` expression; :class:`rocci.InputError` says what is wrong with a bad one.

    Parameters
    ----------
    text : str
        ``key OP number`` clauses joined by ``and``.
    keys : iterable of str
        The keys a clause may name.
    """
    known = list(keys)
    tokens = _tokens(text)
    if not tokens:
        raise InputError("--gate is empty: write conditions such as \"p_a_better>=0.95 and delta_auc>0\".")
    clauses, i = [], 0
    while True:
        key, op, number = (tokens[i + k] if i + k < len(tokens) else ("end", "") for k in range(3))
        if key[0] != "name" or key[1].lower() == "and":
            raise _bad(text, f"expected a key (such as p_a_better) but found {_what(key)}")
        if key[1] not in known:
            raise InputError(f"--gate {text!r}: unknown key {key[1]!r}; the keys are {', '.join(known)}.")
        if op[0] != "op":
            raise _bad(text, f"expected an operator (>=, >, <=, < or ==) after {key[1]!r} but found {_what(op)}")
        if number[0] != "number":
            raise _bad(text, f"expected a number after '{key[1]} {op[1]}' but found {_what(number)}")
        clauses.append(Clause(key[1], op[1], float(number[1]), number[1]))
        i += 3
        if i == len(tokens):
            return Gate(text, tuple(clauses))
        if tokens[i][0] != "name" or tokens[i][1].lower() != "and":
            raise _bad(text, f"expected 'and' or the end after '{clauses[-1]}' but found {_what(tokens[i])}")
        i += 1


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos, text = [], 0, str(text)
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:  # only trailing space is left
            break
        pos = m.end()
        kind = m.lastgroup
        if kind is None:
            continue
        out.append((kind, m.group(kind)))
    return out


def _what(token: tuple[str, str]) -> str:
    kind, value = token
    return "the end of the expression" if kind == "end" else repr(value)


def _bad(text: str, why: str) -> InputError:
    return InputError(f"--gate {text!r}: {why}. Write key OP number clauses joined by 'and' "
                      "(OP: >=, >, <=, <, ==), e.g. \"p_a_better>=0.95 and delta_auc>0\".")
