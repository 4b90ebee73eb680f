"""Plain words for the Decision curve page (no Streamlit): the default range of threshold probabilities,
where a model beats both references, and the two-model verdict.

Every number comes from rocci's results (:func:`rocci.net_benefit`, :func:`rocci.compare_net_benefit`);
this module only reads their arrays and writes sentences, so the sentences can be tested against the
results' own columns.
"""

from __future__ import annotations

import numpy as np

from .text import md_escape, percent

#: The grid of threshold probabilities the page computes on: 1%, 2%, …, 99% (rocci's default).
GRID = tuple(round(k / 100, 2) for k in range(1, 100))


def pct(p: float) -> str:
    """A threshold probability for a sentence: '10%', '2.5%'."""
    v = 100 * float(p)
    return f"{v:.0f}%" if abs(v - round(v)) < 1e-9 else f"{v:.1f}%"


def default_range(results: dict) -> tuple[float, float]:
    """The threshold probabilities shown first: from 1% to a little past the last threshold where some
    model's band lies wholly above 0 (clearly better than treating no one; beyond it every model is
    within noise of treating no one, and the chart would only show the treat-all line falling), rounded
    up to 5%, at least 20%."""
    last = 0.0
    for res in results.values():
        x = np.asarray(res.thresholds, float)
        useful = x[np.asarray(res.net_benefit_low, float) > 0]
        if useful.size:
            last = max(last, float(useful.max()))
    high = min(0.99, max(0.20, np.ceil((last + 0.05) * 20 - 1e-9) / 20))
    return 0.01, round(float(high), 2)


#: Runs of fewer consecutive grid points than this are listed together as isolated thresholds.
LONG_RUN = 3


def runs(x, mask) -> list[tuple[float, float, int]]:
    """Maximal runs of consecutive grid points where ``mask`` holds: ``[(x_first, x_last, points), …]``."""
    x = np.asarray(x, float)
    mask = np.asarray(mask, bool)
    out, start = [], None
    for k in range(x.size + 1):
        on = k < x.size and mask[k]
        if on and start is None:
            start = k
        elif not on and start is not None:
            out.append((float(x[start]), float(x[k - 1]), k - start))
            start = None
    return out


def span(first: float, last: float) -> str:
    """'at 12%' or 'from 10% to 30%'."""
    return f"at {pct(first)}" if first == last else f"from {pct(first)} to {pct(last)}"


def spans(found: list) -> str:
    """Runs in words: the long ones as ranges, the short ones (noise, often) listed together after them:
    'from 1% to 35% and from 40% to 52%, and at 3 isolated thresholds (87%, 92%, 97%)'."""
    long = [span(a, b) for a, b, k in found if k >= LONG_RUN]
    short = [pct(v) for a, b, k in found if k < LONG_RUN for v in ((a,) if a == b else (a, b))]
    text = " and ".join(long)
    if short:
        few = ", ".join(short) if len(short) <= 6 else ", ".join(short[:5]) + ", …"
        isolated = (f"at {len(short)} isolated threshold{'s' if len(short) > 1 else ''} ({few})" if long else
                    f"only at {len(short)} isolated threshold{'s' if len(short) > 1 else ''} ({few})")
        text = f"{text}, and {isolated}" if long else isolated
    return text


def in_range(x, low: float, high: float) -> np.ndarray:
    x = np.asarray(x, float)
    return (x >= low - 1e-12) & (x <= high + 1e-12)


def useful_sentence(results: dict, low: float, high: float) -> str:
    """Where each model's band lies above both reference lines drawn (treat no one, 0; treat everyone),
    within ``[low, high]``: what a reader can check on the chart."""
    found, never = [], []
    for name, res in results.items():
        x = np.asarray(res.thresholds, float)
        keep = in_range(x, low, high)
        floor = np.maximum(0.0, np.asarray(res.treat_all, float))
        where = runs(x, (np.asarray(res.net_benefit_low, float) > floor) & keep)
        who = f"**{md_escape(name)}**"
        if where:
            found.append(f"{who} {spans(where)}")
        else:
            never.append(who)
    parts = []
    if found:
        parts.append("Band above both treating everyone and treating no one: " + "; ".join(found) + ".")
    if never:
        parts.append(f"The band of {' and '.join(never)} is never above both lines between {pct(low)} and "
                     f"{pct(high)}.")
    return " ".join(parts)


def few_flagged(results: dict, low: float, high: float, at_least: int) -> str | None:
    """Where, within ``[low, high]``, some model flags fewer than ``at_least`` instances (None if nowhere)."""
    first = None
    for res in results.values():
        x = np.asarray(res.thresholds, float)
        small = in_range(x, low, high) & (np.asarray(res.tp) + np.asarray(res.fp) < at_least)
        if small.any():
            first = float(x[small].min()) if first is None else min(first, float(x[small].min()))
    if first is None:
        return None
    return f"From {pct(first)} up, a model flags fewer than {at_least} instances."


def verdict(cmp, low: float, high: float, a: str, b: str) -> str:
    """The two-model verdict over the chosen range: where the interval of ΔNB = NB_A − NB_B excludes 0
    (long runs as ranges, isolated thresholds counted), with the smallest exact P(A better) (or P(B
    better)) over those thresholds; elsewhere, the range of P(A better)."""
    x = np.asarray(cmp.thresholds, float)
    keep = in_range(x, low, high)
    if not keep.any():
        return "No threshold of the grid lies in the chosen range."
    lo = np.asarray(cmp.delta_net_benefit_low, float)
    hi = np.asarray(cmp.delta_net_benefit_high, float)
    p_a = np.asarray(cmp.p_a_better, float)
    p_b = 1.0 - p_a - np.asarray(cmp.p_tie, float)  # P(ΔNB* < 0)
    level = percent(cmp.confidence_level)
    names = {"a": f"**{md_escape(a)}**", "b": f"**{md_escape(b)}**"}
    parts = []
    for side, mask, prob in (("a", lo > 0, p_a), ("b", hi < 0, p_b)):
        sel = mask & keep
        found = runs(x, sel)
        if not found:
            continue
        least = float(prob[sel].min())
        many = int(sel.sum()) > 1
        parts.append((found[0][0], f"{names[side]} gives more net benefit at threshold probabilities "
                      f"{spans(found).removeprefix('at ')}: exact bootstrap probability "
                      f"{prob_text(least, at_least=many)}" + (" at each of them." if many else ".")))
    parts = [text for _, text in sorted(parts)]
    pa = p_a[keep]
    first, last = pct(x[keep][0]), pct(x[keep][-1])
    if not parts:
        return (f"Between {first} and {last} risk, neither model gives clearly more net benefit: the {level} "
                f"interval of the difference includes 0 at every threshold. P({md_escape(a)} better) runs from "
                f"{pa.min():.2f} to {pa.max():.2f}.")
    clear = (lo > 0) | (hi < 0)
    rest = (f" Elsewhere between {first} and {last} the {level} interval of the difference includes 0."
            if (keep & ~clear).any() else "")
    return " ".join(parts) + rest


def prob_text(p: float, *, at_least: bool = False) -> str:
    """'0.97', 'at least 0.97' (floored to two decimals, so the claim stays true), '> 0.999'."""
    p = float(p)
    if p > 0.999:
        return "above 0.999"
    shown = np.floor(p * 100) / 100
    return ("at least " if at_least else "") + f"{shown:.2f}"
