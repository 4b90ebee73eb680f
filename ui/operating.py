"""The operating condition shared by the Cost curves, Threshold explorer and Learn pages.

An operating condition is a class prior p(+) and the two misclassification
costs C(−|+) (a missed positive) and C(+|−) (a false alarm), or the operating
point w itself (eq. 3.1 of the thesis)::

    w = p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−)).

One condition per browser session: the widgets have the same keys on every
page (``op_by``, ``op_p``, ``op_cfn``, ``op_cfp``, ``op_w``) and are bound to
the URL, and each value is kept by ``ui.state.keep`` and put back by
``ui.state.restore`` (the dashboard's one way for a choice to outlive its page),
so that a value set on one page is the starting value on the next (Streamlit
forgets a widget's state when a page without it runs).

The prior starts *empty*, which means "the share of positives in your data":
a careful analyst's default, which the page states with the number.  A 0.5
default gives wrong thresholds on imbalanced data (e.g. threshold 0.05
instead of 0.175 on a 16 %-positive file with a 10:1 cost ratio).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import rocci

from . import report, state
from .text import md_escape

URL = "query-params"
BY = {"costs": "Prior and costs", "w": "w directly"}
KEYS = ("op_by", "op_p", "op_cfn", "op_cfp", "op_w")


@dataclass(frozen=True)
class OperatingCondition:
    """The chosen operating condition.

    Attributes
    ----------
    by : {"costs", "w"}
        How it was set.
    w : float
        The operating point, eq. 3.1.
    p_pos : float or None
        The prior p(+) used (None when w was set directly).
    prior_from_data : bool
        True when ``p_pos`` is the share of positives in the data (the prior box is empty).
    cost_fn, cost_fp : float or None
        C(−|+) and C(+|−) (None when w was set directly).
    """

    by: str
    w: float
    p_pos: float | None = None
    prior_from_data: bool = False
    cost_fn: float | None = None
    cost_fp: float | None = None

    @property
    def scale(self) -> float | None:
        """Expected cost per instance of a normalised cost of 1: ``p(+)·C(−|+) + p(−)·C(+|−)``.

        The expected misclassification cost of a threshold with error rates FNR and FPR is
        ``p(+)·C(−|+)·FNR + p(−)·C(+|−)·FPR = scale · (w·FNR + (1 − w)·FPR)``, so the normalised
        cost and its interval convert to the user's units by this one factor (the operating
        condition is fixed, not resampled).  None when w was set directly (no units).
        """
        if self.by != "costs" or self.p_pos is None:
            return None
        k = self.p_pos * self.cost_fn + (1.0 - self.p_pos) * self.cost_fp
        return float(k) if k > 0 else None

    def describe(self) -> str:
        """Plain words: 'prior 15.8% (from your data), a missed positive costs 10, a false alarm 1 → w = 0.652'."""
        if self.scale is None:
            return f"operating point w = {self.w:.3f}"
        prior = f"prior p(+) = {100 * self.p_pos:.1f}%" + (" (from your data)" if self.prior_from_data else "")
        return (f"{prior}, a missed positive costs {self.cost_fn:g} and a false alarm {self.cost_fp:g} "
                f"→ w = {self.w:.3f}")


def _initial(key: str, name: str, default) -> dict:
    """``{name: default}`` for a widget seen for the first time; ``{}`` when its value is already in
    the session (restored), so Streamlit does not warn about a default *and* a session value."""
    return {} if state.has(key) else {name: default}


def controls(n_pos: int, n_neg: int, *, title: str = "Operating condition") -> OperatingCondition | None:
    """The operating-condition box (shared by pages); None (with a warning shown) if invalid.

    Parameters
    ----------
    n_pos, n_neg : int
        Class sizes in the data: an empty prior box means ``n_pos / (n_pos + n_neg)``.
    """
    share = n_pos / (n_pos + n_neg) if n_pos + n_neg else 0.5
    state.restore(*KEYS)
    with st.container(border=True):
        st.markdown(f"**{title}**")
        by = st.segmented_control(
            "Set it from", list(BY), format_func=BY.get, required=True, **_initial("op_by", "default", "costs"),
            key="op_by", bind=URL, on_change=state.keep, args=("op_by",),
            help="From the class prior and the two misclassification costs, or the operating point w itself. "
            "The same condition is used on the Cost curves, Threshold explorer and Learn pages.",
        )
        state.keep("op_by", first=True)
        if by == "costs":
            p_pos = st.number_input(
                "Prior p(+)", min_value=0.001, max_value=0.999, value=None, step=0.01, format="%.3f",
                key="op_p", bind=URL, on_change=state.keep, args=("op_p",), placeholder=f"{share:.3f} (data)",
                help="Share of positives in the population where the model will be used. Empty = the share of "
                f"positives in your data ({n_pos:,} of {n_pos + n_neg:,} = {100 * share:.1f}%).",
            )
            state.keep("op_p", first=True)
            c1, c2 = st.columns(2)
            cost_fn = c1.number_input(
                "C(−|+), missed positive", min_value=0.0, step=0.5, key="op_cfn", bind=URL,
                **_initial("op_cfn", "value", 1.0),
                on_change=state.keep, args=("op_cfn",),
                help="Cost of a false negative: calling a positive negative. Any unit (euros, hours...).",
            )
            cost_fp = c2.number_input(
                "C(+|−), false alarm", min_value=0.0, step=0.5, key="op_cfp", bind=URL,
                **_initial("op_cfp", "value", 1.0),
                on_change=state.keep, args=("op_cfp",),
                help="Cost of a false positive: calling a negative positive, in the same unit.",
            )
            state.keep("op_cfn", first=True)
            state.keep("op_cfp", first=True)
            from_data = p_pos is None
            prior = share if from_data else float(p_pos)
            try:
                w = rocci.operating_point(prior, cost_fn, cost_fp)
            except rocci.InputError as exc:
                st.warning(md_escape(str(exc)), icon=":material/warning:")
                return None
            if from_data:
                report.caption(f"Prior from your data: **{100 * share:.1f}%** positives ({n_pos:,} of "
                               f"{n_pos + n_neg:,}). Type a prior if the model will meet another mix.")
            cond = OperatingCondition(by="costs", w=float(w), p_pos=prior, prior_from_data=from_data,
                                      cost_fn=float(cost_fn), cost_fp=float(cost_fp))
        else:
            w = st.slider("Operating point w", 0.0, 1.0, step=0.01, key="op_w", bind=URL, **_initial("op_w", "value", 0.5),
                          on_change=state.keep, args=("op_w",),
                          help="w = p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−)).")
            state.keep("op_w", first=True)
            cond = OperatingCondition(by="w", w=float(w))
        st.metric("Operating point w", f"{cond.w:.4f}",
                  help="w = p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−)); only w matters for choosing a threshold. "
                  "Calling everything negative costs w, calling everything positive costs 1 − w (normalised).")
    return cond


def money(value: float) -> str:
    """A cost in the user's units: 3 significant digits, thousands separated."""
    v = float(value)
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:,.3g}"


def signed_money(value: float) -> str:
    """:func:`money` with its sign always shown ('+0.0437', '-0.164', '0'): a difference of costs."""
    text = money(value)
    return "+" + text if float(value) > 0 and text != "0" else text


def units_text(cond: OperatingCondition, cost: float, low: float, high: float) -> str | None:
    """'Expected cost 0.412 per instance [0.35, 0.48], 412 per 1,000 [350, 480]' (None without units)."""
    k = cond.scale
    if k is None:
        return None
    return (f"expected cost **{money(k * cost)}** per instance [{money(k * low)}, {money(k * high)}], "
            f"**{money(1000 * k * cost)}** per 1,000 instances [{money(1000 * k * low)}, {money(1000 * k * high)}]")
