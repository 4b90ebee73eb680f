"""The skeleton every page repeats: its title, its caption (into the sidebar's HTML report too), the analysis
of the loaded data (or a notice saying what to do on the Data page), and the (controls, results) columns.

A page that analyses the loaded data starts with::

    page = page_frame("ROC curve", CAPTION)
    if page is None:
        return  # the notice is shown
    with page.left:
        opts = controls(page.an)
    with page.right:
        ...

The columns are made when first used (``page.left``, ``page.right`` or ``page.columns()``), so a page can
first compute what its controls need and show an error full width, as before.  The Data page, the Folds page
(its own checks of the dataset, and no columns), the Learn page (the worked example by default, not the
loaded data) and the Coverage lab (no data at all) start with :func:`page_header` only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from . import cache, report
from .controls import page_columns

#: The (controls, results) widths of :func:`ui.controls.page_columns`.
COLUMNS = (1, 2.6)


def page_header(title: str, caption: str | None = None) -> None:
    """The page's title and its caption (the caption into the report too)."""
    st.title(title, anchor=False)
    if caption:
        report.caption(caption)


@dataclass(eq=False)
class PageFrame:
    """What a page needs after the skeleton: the analysis and its two columns.

    Attributes
    ----------
    an : ui.cache.Analysis
        The loaded data, mapped, with at least the models asked for.
    spec : tuple
        The columns' widths.
    slot : streamlit container or None
        Where :meth:`caption` writes, just under the title (only when :func:`page_frame` got no caption).
    """

    an: cache.Analysis
    spec: tuple = COLUMNS
    slot: Any = None
    _columns: tuple | None = field(default=None, repr=False)

    def columns(self) -> tuple:
        """``(left, right)``: the controls and the results (made on the first call)."""
        if self._columns is None:
            self._columns = tuple(page_columns(self.spec))
        return self._columns

    @property
    def left(self):
        return self.columns()[0]

    @property
    def right(self):
        return self.columns()[1]

    def caption(self, text: str) -> None:
        """The page's caption, known only once its controls are read (the Compare page: paired or not)."""
        with self.slot if self.slot is not None else st.container():
            report.caption(text)


def page_frame(title: str, caption: str | None = None, *, min_models: int = 1, too_few: str = "",
               columns: tuple = COLUMNS) -> PageFrame | None:
    """Title, caption and analysis of a page that works on the loaded data; None when it must stop.

    Parameters
    ----------
    title, caption : str
        The page's title and its plain-words caption.  Without a caption a slot is kept under the title for
        :meth:`PageFrame.caption`.
    min_models, too_few : int, str
        :func:`ui.cache.analysis_or_notice`'s: the models the page needs, and what to say when there are fewer.
    columns : tuple
        The widths of the (controls, results) columns.

    Returns
    -------
    PageFrame or None
        None after a notice (no data, an unusable mapping, too few models), each with a link to the Data page.
    """
    page_header(title, caption)
    slot = st.container() if caption is None else None
    an = cache.analysis_or_notice(min_models=min_models, too_few=too_few)
    if an is None:
        return None
    return PageFrame(an, tuple(columns), slot)
