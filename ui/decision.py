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
    model's net benefit is still above 0 (beyond it every model is worse than treating no one, so the
    chart would only show the treat-all line falling), rounded up to 5%, at least 20%."""
    last = 0.0
    for res in results.values():
        x = np.asarray(res.thresholds, float)
        useful = x[np.asarray(res.net_benefit, float) > 0]
        if useful.size:
            last = max(last, float(useful.max()))
    high = min(0.99, max(0.20, np.ceil((last + 0.05) * 20 - 1e-9) / 20))
    return 0.01, round(float(high), 2)


def runs(x, mask) -> list[tuple[float, float]]:
    """Maximal runs of consecutive grid points where ``mask`` holds: ``[(x_first, x_last), …]``."""
    x = np.asarray(x, float)
    mask = np.asarray(mask, bool)
    out, start = [], None
    for k in range(x.size + 1):
        on = k < x.size and mask[k]
        if on and start is None:
            start = k
        elif not on and start is not None:
            out.append((float(x[start]), float(x[k - 1])))
            start = None
    return out


def span(first: float, last: float) -> str:
    """'at 12%' or 'from 10% to 30%'."""
    return f"at {pct(first)}" if first == last else f"from {pct(first)} to {pct(last)}"


def in_range(x, low: float, high: float) -> np.ndarray:
    x = np.asarray(x, float)
    return (x >= low - 1e-12) & (x <= high + 1e-12)


def useful_sentence(results: dict, low: float, high: float) -> str:
    """Where, on the data, each model's net benefit is above both treating everyone and treating no one
    (point values; the bands say how sure), within ``[low, high]``."""
    found, never = [], []
    for name, res in results.items():
        x = np.asarray(res.thresholds, float)
        keep = in_range(x, low, high)
        above = (np.asarray(res.net_benefit, float) > np.maximum(0.0, np.asarray(res.treat_all, float))) & keep
        where = runs(x, above)
        who = f"**{md_escape(name)}**"
        if where:
            found.append(f"{who} " + " and ".join(span(a, b) for a, b in where))
        else:
            never.append(who)
    parts = []
    if found:
        parts.append("Above both treating everyone and treating no one, on the data: " + "; ".join(found) + ".")
    if never:
        parts.append(f"{' and '.join(never)} {'is' if len(never) == 1 else 'are'} never above both between "
                     f"{pct(low)} and {pct(high)}: the simpler policies do as well there.")
    return " ".join(parts)


def verdict(cmp, low: float, high: float, a: str, b: str) -> str:
    """The two-model verdict over the chosen range: where the interval of ΔNB = NB_A − NB_B excludes 0,
    with the smallest exact P(A better) (or P(B better)) over each such run; elsewhere, the range of
    P(A better)."""
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
        for first, last in runs(x, mask & keep):
            sel = (x >= first) & (x <= last)
            least = float(prob[sel].min())
            where = (f"At {pct(first)} risk" if first == last else
                     f"Between {pct(first)} and {pct(last)} risk")
            parts.append((first, f"{where}, {names[side]} gives more net benefit, with exact bootstrap "
                                 f"probability {prob_text(least, at_least=first != last)}"
                                 + ("" if first == last else " at every threshold") + "."))
    parts = [text for _, text in sorted(parts)]
    pa = p_a[keep]
    tail = (f" P({md_escape(a)} better) runs from {pa.min():.2f} to {pa.max():.2f} between {pct(x[keep][0])} "
            f"and {pct(x[keep][-1])}.")
    if not parts:
        return (f"Between {pct(x[keep][0])} and {pct(x[keep][-1])} risk, neither model gives clearly more net "
                f"benefit: the {level} interval of the difference includes 0 at every threshold." + tail)
    rest = (f" Elsewhere in the range the {level} interval of the difference includes 0."
            if (keep & ~((lo > 0) | (hi < 0))).any() else "")
    return " ".join(parts) + rest


def prob_text(p: float, *, at_least: bool = False) -> str:
    """'0.97', 'at least 0.97' (floored to two decimals, so the claim stays true), '> 0.999'."""
    p = float(p)
    if p > 0.999:
        return "above 0.999"
    shown = np.floor(p * 100) / 100
    return ("at least " if at_least else "") + f"{shown:.2f}"
