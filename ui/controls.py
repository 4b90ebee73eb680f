"""Controls shared by several pages, so they look and behave the same everywhere."""

from __future__ import annotations

import streamlit as st

URL = "query-params"


def error(message: str) -> None:
    """An error box whose text (which may quote the file or the user's input) is shown literally."""
    from .text import md_escape

    st.error(md_escape(message), icon=":material/error:")


def page_columns(spec=(1, 2.6)):
    """The page's (controls, results) columns.

    On a wide screen the controls are on the left; on a phone (where Streamlit stacks columns)
    the results come first and the controls after them: the columns sit in a container keyed
    ``page_cols`` whose first row is reversed by the style sheet of :func:`narrow_screen_css`.
    """
    with st.container(key="page_cols"):
        return st.columns(list(spec), gap="medium")


#: Narrow screens (Streamlit stacks columns below 640 px): the results column of
#: :func:`page_columns` first, legends clear of chart titles, metric values that wrap instead of
#: being cut.
NARROW_SCREEN_CSS = """
<style>
@media (max-width: 640px) {
  .st-key-page_cols > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"],
  .st-key-page_cols > [data-testid="stHorizontalBlock"] { flex-direction: column-reverse !important; }
}
[data-testid="stMetricValue"] > div { white-space: normal; overflow-wrap: anywhere; }
[data-testid="stMetricLabel"] p { white-space: normal; }
</style>
"""


def narrow_screen_css() -> None:
    """Put :data:`NARROW_SCREEN_CSS` on the page (app.py calls it once per run)."""
    st.html(NARROW_SCREEN_CSS)


def method_note(text: str) -> None:
    """A folded "Method" note: the thesis's equation and algorithm numbers, after the plain-words caption."""
    from . import report

    with st.expander("Method", icon=":material/functions:"):
        report.caption(text)


#: ROC chart views: name -> (label, FPR range, TPR range).
VIEWS = {"full": ("Whole square", (0.0, 1.0), (0.0, 1.0)), "corner": ("Top-left corner", (0.0, 0.5), (0.5, 1.0))}


def chart_view(key: str = "view") -> str:
    """The "Chart view" switch of a ROC chart (whole square or top-left corner), bound to the URL."""
    return st.segmented_control(
        "Chart view", list(VIEWS), format_func=lambda v: VIEWS[v][0], default="full", required=True,
        key=key, bind=URL,
        help="Top-left corner: FPR 0–0.5 and TPR 0.5–1, where good classifiers' curves and regions are. "
        "You can also drag a box on the chart to zoom (double-click to reset).",
    )


def bootstrap_size(n_pos: int, n_neg: int, *, keys: tuple[str, str] = ("m_pos", "m_neg"),
                   note: str = "") -> tuple[int, int] | None:
    """The "Bootstrap size" box: m+ and m− inputs bound to the URL.

    Empty inputs mean ``m± = n±`` (the data's class sizes).  Returns
    ``(m_pos, m_neg)`` when either is set (the other defaults to its class
    size), else None, which rocci reads as ``m = n``.  ``note`` is appended to
    the caption that states the sizes in use.
    """
    with st.container(border=True):
        st.markdown("**Bootstrap size**")
        c1, c2 = st.columns(2)
        m_pos = c1.number_input(
            "m+", min_value=1, max_value=10_000_000, value=None, step=1, key=keys[0], bind=URL,
            placeholder=f"{n_pos} (= n+)",
            help=f"Positives drawn in each bootstrap resample. Empty = the number of positives in the data ({n_pos}).",
        )
        m_neg = c2.number_input(
            "m−", min_value=1, max_value=10_000_000, value=None, step=1, key=keys[1], bind=URL,
            placeholder=f"{n_neg} (= n−)",
            help=f"Negatives drawn in each bootstrap resample. Empty = the number of negatives in the data ({n_neg}).",
        )
        if m_pos is None and m_neg is None:
            return None
        m = (int(m_pos or n_pos), int(m_neg or n_neg))
        st.caption(f"Resamples of m+ = {m[0]:,} positives and m− = {m[1]:,} negatives{note}.")
        return m


def default_pair_rates(n_pos: int, n: int) -> str:
    """The total-positive rates offered first: the usual 10–50% grid, or, when positives are rare
    (under 10% of the rows), 1, 2, 5 and 10 times their share: flagging 30% of the instances says
    little about a model whose positives are 2% of them."""
    share = n_pos / n if n else 0.0
    if share >= 0.1 or share <= 0:
        return "0.1, 0.2, 0.3, 0.5"
    rates = sorted({float(f"{min(k * share, 0.9):.2g}") for k in (1, 2, 5, 10)})
    return ", ".join(f"{r:g}" for r in rates)
