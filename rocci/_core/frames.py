"""The base of every result: a readable repr, Jupyter's table view and ``to_frame()``.

:class:`_FrameResult` needs pandas only, so any layer may build on it (``rocci.data.scan``'s
:class:`~rocci.ScanResult` as well as the result modules).  :class:`_FrameLike` is the base of the
results of functions that returned a bare :class:`pandas.DataFrame` in rocci 0.2 (``threshold_table``,
``gain_curve``, ``reading_curve``, ``pr_curve``): for one minor version they still behave like that frame
(columns, ``.iloc``, ``.assign``, …) with a DeprecationWarning pointing at ``.to_frame()``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .compat import warn_deprecated


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_fmt(v) for v in value) + ")"
    return repr(value)


class _FrameResult:
    """Shared repr: the scalar fields, then the head of ``to_frame()``."""

    _scalar_fields: tuple[str, ...] = ()

    def to_frame(self) -> pd.DataFrame:  # pragma: no cover - overridden
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.to_frame())

    def __repr__(self) -> str:
        head = ", ".join(f"{name}={_fmt(getattr(self, name))}" for name in self._scalar_fields)
        frame = self.to_frame()
        with pd.option_context("display.max_columns", 12, "display.width", 120):
            body = frame.head(10).to_string(index=False, float_format=lambda v: f"{v:.4g}")
        more = f"\n... ({len(frame)} rows; .to_frame() for all)" if len(frame) > 10 else ""
        return f"{type(self).__name__}({head})\n{body}{more}"

    def _repr_html_(self) -> str:
        """Jupyter's view: the class and scalar fields as a caption, then the first 20 rows as a table."""
        import html

        head = ", ".join(f"{name}={_fmt(getattr(self, name))}" for name in self._scalar_fields)
        frame = self.to_frame()
        table = frame.head(20).to_html(index=False, float_format=lambda v: f"{v:.4g}", border=0)
        more = (f"<p>{len(frame):,} rows; <code>.to_frame()</code> for all.</p>" if len(frame) > 20 else "")
        return f"<p><b>{html.escape(type(self).__name__)}</b>({html.escape(head)})</p>{table}{more}"


class _FrameLike(_FrameResult):
    """A result whose function returned its ``to_frame()`` itself in rocci 0.2: the frame's behaviour, deprecated.

    ``result["recall"]``, ``result.iloc[0]``, ``result.columns``, ``result.assign(...)``, iteration over the
    column names: whatever a :class:`pandas.DataFrame` has and the result does not is read from
    ``to_frame()`` with a DeprecationWarning (rocci 0.3 only; 0.4 drops it).  The result's own attributes
    (the arrays named like the columns) come first and do not warn.  Functions that test for a DataFrame
    (``pandas.concat``, ``pandas.testing.assert_frame_equal``, plotly express) need ``.to_frame()`` now.
    """

    #: The public function that returned the frame, for the warning (e.g. ``"rocci.threshold_table"``).
    _returned_by: str = ""

    def _warn_frame(self, what: str) -> None:
        warn_deprecated(f"{self._returned_by}(...) returns a {type(self).__name__} since rocci 0.3, not a "
                        f"pandas DataFrame: {what} reads its .to_frame(); call .to_frame() for the table.",
                        stacklevel=3)

    def __getattr__(self, name: str):
        # Only reached when ordinary lookup fails.  Private and dunder names (pickle's __setstate__,
        # IPython's _repr_*_ probes) and the dataclass's own fields (not yet set while unpickling) are
        # never forwarded.
        if name.startswith("_") or name in getattr(type(self), "__dataclass_fields__", {}):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        frame = self.to_frame()
        if not (hasattr(pd.DataFrame, name) or name in frame.columns):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self._warn_frame(f".{name}")
        return getattr(frame, name)

    def __getitem__(self, key):
        self._warn_frame(f"[{key!r}]")
        return self.to_frame()[key]

    def __iter__(self):
        self._warn_frame("iterating")
        return iter(self.to_frame())
