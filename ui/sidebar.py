"""The sidebar shared by every page: which data is loaded and which models."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import streamlit as st

import rocci

from . import cache, report, state
from .text import label_text, md_escape

IMAGE_FORMATS = {"png": "PNG", "svg": "SVG"}


def image_format() -> str:
    """The chart export format chosen in the sidebar ("png" or "svg")."""
    value = state.value("img")
    return value if value in IMAGE_FORMATS else "png"


def render(container=None) -> None:
    """Fill ``container`` (default: ``st.sidebar``) with the dataset summary."""
    box = container if container is not None else st.sidebar
    with box:
        st.subheader("Data", anchor=False)
        ds = state.get_dataset()
        if ds is None:
            st.caption("No data loaded. Open the Data page to upload a file.")
        else:
            if ds.kind == "large":
                st.markdown(f"**{md_escape(ds.name)}**  \nlarge data on the server, reduced to counts",
                            help="Read where it lives by DuckDB (rocci.scan); the pages work from each model's "
                            "table of distinct scores.")
            else:
                kind = "bundled sample" if ds.kind == "sample" else "uploaded file"
                st.markdown(f"**{md_escape(ds.name)}**  \n{kind}, {_size(ds.size)}")
            try:
                an = cache.current_analysis()
            except rocci.InputError:
                st.caption(":red[This data cannot be used as mapped. See the Data page.]")
                an = None
            if an is not None:
                p = an.prepared
                st.markdown(
                    f"**{p.n_rows_used:,}** rows used: **{p.n_pos:,}** positive, **{p.n_neg:,}** negative",
                    help="Rows with a missing value in a used column are dropped (and counted on the Data page).",
                )
                if p.n_dropped:
                    st.caption(f"{p.n_dropped:,} row(s) with missing values dropped.")
                st.markdown(
                    f"Label column **{md_escape(p.label)}**; positive = **{md_escape(label_text(p.pos_label))}**"
                    + (f" (against the other {len(p.negative_labels)} classes)" if p.one_vs_rest else "")
                )
                st.markdown("Models: " + ", ".join(f"**{md_escape(m)}**" for m in an.models))
        st.divider()
        report_button()
        st.radio(
            "Chart image format",
            list(IMAGE_FORMATS),
            format_func=IMAGE_FORMATS.get,
            key="img",
            horizontal=True,
            help="Format of the camera button in each chart's toolbar (top right of the chart).",
            bind="query-params",
        )


def report_button() -> None:
    """One click: the current page's charts, captions and tables as a self-contained HTML file."""
    rep = report.current()
    ds = state.get_dataset()
    details = []
    try:
        an = cache.current_analysis()
    except rocci.InputError:
        an = None
    if an is not None:
        p = an.prepared
        details.append(f"{p.n_rows_used:,} rows used: {p.n_pos:,} positive, {p.n_neg:,} negative"
                       + (f" ({p.n_dropped:,} rows with missing values dropped)" if p.n_dropped else "")
                       + f"; label column {md_escape(p.label)}, positive = {md_escape(label_text(p.pos_label))}; "
                       + "models: " + ", ".join(md_escape(m) for m in an.models) + ".")
    link = urlencode(st.query_params.to_dict())
    slug = re.sub(r"[^a-z0-9]+", "_", rep.page.lower()).strip("_") or "page"
    st.download_button(
        "Download HTML report",
        data=lambda: rep.html(dataset=ds.name if ds is not None else "no data", details=details,
                              link=link).encode("utf-8"),
        file_name=f"rocci_report_{slug}.html",
        mime="text/html",
        key="dl_report",
        icon=":material/description:",
        on_click="ignore",
        help="This page's charts (interactive), captions and tables in one HTML file that opens offline.",
    )


def _size(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} bytes"
