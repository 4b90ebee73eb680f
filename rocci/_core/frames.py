"""The base of every result: columns declared once, ``to_frame()``, a readable repr and Jupyter's table view.

:class:`_FrameResult` needs pandas only, so any layer may build on it (``rocci.data.scan``'s
:class:`~rocci.ScanResult` as well as the result modules).  A result declares its columns once, on its
dataclass fields (:func:`column`): the default ``to_frame()`` is those fields in declaration order, so the
frame's columns and the attributes cannot drift apart.  The scalars every result may record (how it was
made) have one name each, :data:`SHARED_SCALARS`, which the repr shows.  :class:`_FrameLike` is the base of
the results of functions that returned a bare :class:`pandas.DataFrame` in rocci 0.2 (``threshold_table``,
``gain_curve``, ``reading_curve``, ``pr_curve``): for one minor version they still behave like that frame
(columns, ``.iloc``, ``.assign``, …) with a DeprecationWarning pointing at ``.to_frame()``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from .compat import warn_deprecated
from .inputs import check_choice, check_confidence_level


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_fmt(v) for v in value) + ")"
    return repr(value)


#: The scalars a result records about how it was made, each under this name wherever it appears (issue 30:
#: declared once), in the order the repr shows them.  A result has those that apply to it:
#:
#: * ``n_pos``, ``n_neg``: the class sizes ``n+``, ``n−`` (two test sets: ``n_pos_a``, ``n_neg_a``, …);
#: * ``m_pos``, ``m_neg``: the stratified bootstrap's sample sizes ``m±`` (default ``n±``);
#: * ``m_total``: the full bootstrap's number of draws;
#: * ``bootstrap``: ``"stratified"`` or ``"full"`` where both are offered;
#: * ``method``: the interval method (lowercase, as passed);
#: * ``confidence_level``: the level of each interval (of the joint region where a result says so).
SHARED_SCALARS = ("n_pos", "n_neg", "m_pos", "m_neg", "m_total", "bootstrap", "method", "confidence_level")


def column(name: str | None = None, **field_options) -> Any:
    """A dataclass field that is a column of the result's ``to_frame()``.

    Parameters
    ----------
    name : str, optional
        The column's name; default the field's own.  ``{attribute}`` placeholders are filled from the
        result (``column("{metric}_low")`` is ``precision_low`` for the precision).
    **field_options
        Passed to :func:`dataclasses.field` (``default``, ``default_factory``, ``kw_only``, …).

    A column whose value is ``None`` is left out of the frame (an optional column, such as
    ``total_positive_rate`` when thresholds were given).
    """
    metadata = dict(field_options.pop("metadata", None) or {})
    metadata["column"] = name
    return dataclasses.field(metadata=metadata, **field_options)


def column_fields(cls) -> tuple[tuple[str, str], ...]:
    """``(field name, column name or template)`` of every :func:`column` field of ``cls``, in declaration order."""
    fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
    return tuple((f.name, f.metadata["column"] or f.name) for f in fields if "column" in f.metadata)


class _Attributes(dict):
    """``str.format_map`` reading a result's attributes (the column templates)."""

    def __init__(self, result):
        super().__init__()
        self.result = result

    def __missing__(self, key):
        return getattr(self.result, key)


class _FrameResult:
    """Shared by every result: ``to_frame()`` from the :func:`column` fields, the repr and the notebook view.

    ``_scalar_fields`` are the scalars shown before the frame's head in the repr; ``...`` (Ellipsis) in it
    stands for the :data:`SHARED_SCALARS` the result records (those it has, not ``None``), and the default
    is just those.
    """

    _scalar_fields: tuple = (...,)

    def _columns(self) -> dict[str, Any]:
        """The column fields' values by column name, in declaration order, ``None`` left out."""
        out: dict[str, Any] = {}
        attributes = _Attributes(self)
        for name, template in column_fields(type(self)):
            value = getattr(self, name)
            if value is not None:
                out[template.format_map(attributes) if "{" in template else template] = value
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per element of the :func:`column` fields (one row if they are all scalars), one column
        per field, in declaration order."""
        cols = self._columns()
        if not cols:
            raise NotImplementedError(f"{type(self).__name__} declares no columns")
        scalar = [np.ndim(v) == 0 for v in cols.values()]
        if all(scalar):
            return pd.DataFrame([cols])
        if any(scalar):
            raise TypeError(f"{type(self).__name__}: columns {[k for k, s in zip(cols, scalar) if s]} are scalars "
                            "beside arrays; write to_frame() to say how they repeat")
        return pd.DataFrame(cols)

    def __len__(self) -> int:
        return len(self.to_frame())

    def _interval_args(self, confidence_level, method, methods: tuple[str, ...]) -> tuple[float, str]:
        """The checked arguments of a result's ``confidence_interval(confidence_level, method)``: ``method``
        None is the result's own (its ``method``, else the first of ``methods``), and must be one of the
        ``methods`` the result can recompute from what it keeps."""
        level = check_confidence_level(confidence_level)
        if method is None:
            method = getattr(self, "method", None) or methods[0]
        return level, check_choice(f"method (of {type(self).__name__}.confidence_interval)", method, methods)

    def _scalar_names(self) -> tuple[str, ...]:
        names: list[str] = []
        fields = getattr(type(self), "__dataclass_fields__", {})
        for name in self._scalar_fields:
            if name is ...:
                names += [s for s in SHARED_SCALARS if s in fields and s not in self._scalar_fields
                          and getattr(self, s) is not None]
            else:
                names.append(name)
        return tuple(names)

    def _header(self) -> str:
        return ", ".join(f"{name}={_fmt(getattr(self, name))}" for name in self._scalar_names())

    def __repr__(self) -> str:
        frame = self.to_frame()
        with pd.option_context("display.max_columns", 12, "display.width", 120):
            body = frame.head(10).to_string(index=False, float_format=lambda v: f"{v:.4g}")
        more = f"\n... ({len(frame)} rows; .to_frame() for all)" if len(frame) > 10 else ""
        return f"{type(self).__name__}({self._header()})\n{body}{more}"

    def _repr_html_(self) -> str:
        """Jupyter's view: the class and scalar fields as a caption, then the first 20 rows as a table."""
        import html

        frame = self.to_frame()
        table = frame.head(20).to_html(index=False, float_format=lambda v: f"{v:.4g}", border=0)
        more = (f"<p>{len(frame):,} rows; <code>.to_frame()</code> for all.</p>" if len(frame) > 20 else "")
        return f"<p><b>{html.escape(type(self).__name__)}</b>({html.escape(self._header())})</p>{table}{more}"


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
        renamed = getattr(getattr(type(self), key, None), "fget", None) if isinstance(key, str) else None
        key = getattr(renamed, "renamed_to", key)  # a column renamed in 0.3 (compat.renamed_attribute)
        return self.to_frame()[key]

    def __iter__(self):
        self._warn_frame("iterating")
        return iter(self.to_frame())
