"""Formatting helpers, and safe display of text that comes from uploaded files.

Column names and label values from a file are data, not markup: they are
shown with :func:`md_escape` inside Markdown (every ASCII punctuation
character backslash-escaped, so ``**``, ``[link](...)``, ``:red[...]`` or
``<b>`` stay literal) or in widgets/tables that render plain text.  No code in
the dashboard passes ``unsafe_allow_html=True``.
"""

from __future__ import annotations

import math
import re
from typing import Any

from rocci.plots.report import md_escape  # noqa: F401  (one implementation, shared with rocci report)

REGION_NAMES = {
    "rectangle": "rectangles (joint region)",
    "ellipse": "ellipses (joint region)",
    "marginal": "marginal intervals (each axis)",
}


def label_text(value: Any) -> str:
    """A label value as plain text (``'M'``, ``1``, ``True``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def percent(level: float) -> str:
    """0.95 -> '95%', 0.975 -> '97.5%'."""
    pct = 100.0 * float(level)
    if abs(pct - round(pct)) < 1e-9:
        return f"{pct:.0f}%"
    return f"{pct:.1f}%"


def number(value: Any, digits: int = 4) -> str:
    """A number for display; infinities as ±∞."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isinf(v):
        return "+∞" if v > 0 else "−∞"
    if math.isnan(v):
        return "—"
    if float(v).is_integer() and abs(v) < 1e15:
        return f"{int(v)}"
    return f"{v:.{digits}g}" if (abs(v) < 1e-3 or abs(v) >= 1e6) else f"{v:.{digits}f}".rstrip("0").rstrip(".")


def signed_interval(value: float, low: float, high: float, decimals: int, *, scale: float = 1.0,
                    at_most: int = 6) -> tuple[str, str, str]:
    """A difference and its interval as signed fixed-point texts with common decimals.

    ``decimals`` at least; more (up to ``at_most``) when the interval is so narrow that its width
    would show fewer than two significant digits, e.g. two near-copies of one model: ΔAUC
    ``+0.00003 [−0.00002, +0.00009]``, not ``+0.000 [-0.000, +0.000]``.  Each value is multiplied
    by ``scale`` first (100 for percentage points); a value that rounds to zero is ``0.000``, never
    ``-0.000``.
    """
    v, lo, hi = (float(x) * scale for x in (value, low, high))
    width = abs(hi - lo)
    if math.isfinite(width) and width > 0:
        decimals = int(min(at_most, max(decimals, math.ceil(-math.log10(width)) + 1)))

    def text(x: float) -> str:
        if not math.isfinite(x):
            return number(x)
        out = f"{x:+.{decimals}f}"
        return out[1:] if float(out) == 0 else out

    return text(v), text(lo), text(hi)


class ParseError(ValueError):
    """A typed list of numbers could not be read; the message says why."""


def parse_numbers(
    text: str,
    *,
    what: str,
    low: float | None = None,
    high: float | None = None,
    inclusive: bool = True,
    max_count: int = 200,
) -> list[float]:
    """Read a typed list like ``"0.1, 0.2; 0.5"`` into floats.

    Raises
    ------
    ParseError
        With a message naming the bad entry and the valid range.
    """
    parts = [p for p in re.split(r"[,;\s]+", str(text).strip()) if p]
    if not parts:
        raise ParseError(f"Type at least one {what}, e.g. 0.1, 0.5.")
    out: list[float] = []
    for p in parts:
        try:
            v = float(p.replace("−", "-"))
        except ValueError:
            raise ParseError(f"'{p}' is not a number. Type {what}s separated by commas, e.g. 0.1, 0.5.") from None
        if not math.isfinite(v):
            raise ParseError(f"'{p}' is not a finite number; type finite {what}s.")
        if low is not None and (v < low or (not inclusive and v == low)):
            raise ParseError(_range_message(p, what, low, high, inclusive))
        if high is not None and (v > high or (not inclusive and v == high)):
            raise ParseError(_range_message(p, what, low, high, inclusive))
        out.append(v)
    if len(out) > max_count:
        raise ParseError(f"At most {max_count} {what}s at once (got {len(out)}).")
    return sorted(set(out))


def _range_message(p: str, what: str, low, high, inclusive: bool) -> str:
    if inclusive:
        return f"{what.capitalize()} {p} is outside [{low:g}, {high:g}]."
    return f"{what.capitalize()} {p} must be strictly between {low:g} and {high:g}."



def pvalue_text(p: float) -> str:
    """A p-value as people read it: '< 0.0001' below 10⁻⁴, else 2 significant digits ('0.031', '0.52')."""
    p = float(p)
    if not math.isfinite(p):
        return "—"
    if p < 1e-4:
        return "< 0.0001"
    if p >= 0.995:
        return "1"
    return f"{p:.2g}" if p < 0.1 else f"{p:.2f}"


def method_parts(text: str) -> tuple[str, str]:
    """rocci's long method text -> (short method, bootstrap law), so neither is cut off in the table.

    ``'Wilson; stratified exact bootstrap: TP* ~ Bin(n+, recall)'`` -> ``('Wilson · stratified',
    'TP* ~ Bin(n+, recall)')``.
    """
    head, _, law = str(text).rpartition(": ")
    if not head:
        return str(text), ""
    name = head.split(";")[0].strip()
    if "interval for J" in head:
        name += " on J = TP/(TP + FP + FN), mapped to F1"
    if "stratified" in head:
        kind = "stratified"
    elif "given the TP + FP + FN" in head:
        kind = "full, given TP + FP + FN"
    elif "given the TP + FP" in head:
        kind = "full, given TP + FP"
    else:
        kind = "full"
    return f"{name} · {kind}", law
