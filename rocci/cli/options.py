"""What every command shares: exit statuses, option values checked as argparse reads them, and number text."""

from __future__ import annotations

import argparse
import math
from typing import Any

#: The exit statuses of ``rocci``: the command ran (and its gate, if any, holds).
EXIT_OK = 0
#: ``rocci compare --gate``: the command ran and the gate does not hold.
EXIT_GATE_FAILED = 1
#: Bad input: a file that cannot be read, an unknown column, a malformed gate... (argparse's usage errors too).
EXIT_BAD_INPUT = 2


def confidence_level(text: str) -> float:
    """``--level``: a number strictly between 0 and 1 (``0.95``)."""
    value = _number(text, "--level")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"--level must be between 0 and 1 (e.g. 0.95); got {text!r}")
    return value


def open_rate(text: str) -> float:
    """A rate strictly between 0 and 1 (``--fpr``, ``--prior``)."""
    value = _number(text, "the rate")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1; got {text!r}")
    return value


def operating_w(text: str) -> float:
    """``--w``: an operating point in [0, 1]."""
    value = _number(text, "--w")
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"--w must be between 0 and 1; got {text!r}")
    return value


def cost_pair(text: str) -> tuple[float, float]:
    """``--cost FN,FP``: the cost of a false negative and of a false positive, two numbers >= 0, not both 0."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"--cost takes two numbers FN,FP (e.g. 5,1); got {text!r}")
    fn, fp = (_number(p, "--cost") for p in parts)
    if fn < 0 or fp < 0 or fn + fp == 0:
        raise argparse.ArgumentTypeError(f"--cost FN,FP must be two numbers >= 0, not both 0; got {text!r}")
    return fn, fp


def names(text: str) -> list[str]:
    """``A,B,C``: column names separated by commas (surrounding spaces dropped)."""
    out = [p.strip() for p in str(text).split(",")]
    if not all(out):
        raise argparse.ArgumentTypeError(f"expected column names separated by commas; got {text!r}")
    return out


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{what}: {text!r} is not a finite number")
    return value


# --- text ------------------------------------------------------------------------------------------------


def fmt(value: Any, digits: int = 4, *, signed: bool = False) -> str:
    """A number to ``digits`` decimals (``+`` shown when ``signed``); ``n/a`` for a missing one."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{float(value):+.{digits}f}" if signed else f"{float(value):.{digits}f}"


def fmt_p(p: Any) -> str:
    """A p-value: four decimals, or two significant digits below 0.001."""
    if p is None or math.isnan(p):
        return "n/a"
    return f"{p:.2g}" if p < 0.001 else f"{p:.4f}"


def fmt_prob(p: Any) -> str:
    """``= 0.7394``: a probability to four decimals with its relation, without rounding 0.99996 up to 1
    (``> 0.9999``) or 0.00004 down to 0 (``< 0.0001``)."""
    if p is None or math.isnan(p):
        return "n/a"
    if 0 < p < 5e-5:
        return "< 0.0001"
    if 1 - 5e-5 < p < 1:
        return "> 0.9999"
    return f"= {p:.4f}"


def percent(level: float) -> str:
    """``0.95`` -> ``'95%'``, ``0.999`` -> ``'99.9%'``."""
    return f"{100 * level:.10g}%"


def one_line(text: Any) -> str:
    """A message on one line (an error message may hold line breaks)."""
    return " ".join(str(text).split())
