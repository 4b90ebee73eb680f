"""Cached calls into rocci, keyed on a digest of the data bytes plus the options.

Every wrapper takes a text key (the SHA-256 digest of the uploaded bytes, or
:func:`ui.state.data_key`, which adds the column mapping) and the options as
plain hashable values; the data itself is passed in arguments whose names
start with an underscore, which Streamlit does not hash.  So a large
DataFrame is never hashed (Streamlit samples the rows of big frames and could
return stale results), and a changed file always gets a new key.

Caches are bounded and errors are not cached: a function that raises
``rocci.InputError`` is simply called again on the next rerun.  Memory is
bounded by bytes, not only by counts (issue 18):

- everything whose size grows with the data (the table, the prepared data,
  curves with one point per threshold) is cached per session
  (``scope="session"``) with a few entries: it is dropped when the session
  disconnects, and a session holds at most a few copies of its own data,
  itself bounded by ``server.maxUploadSize``;
- results of fixed size (intervals at chosen levels, tests) are shared by
  every session, with ``max_entries`` and a one-hour ``ttl``;
- work that drives a progress bar is kept in a :class:`ResultStore`, bounded
  by count and by bytes (:data:`RESULT_STORE_BYTES`).

(Streamlit 1.67's decorators take no byte limit, hence these choices.)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import rocci

from .. import state
from .store import RESULT_STORE_BYTES, ResultStore, nbytes  # noqa: F401  (ui.cache.ResultStore, as before)


def upload_limit_bytes() -> int:
    """The server's upload limit (``server.maxUploadSize``, in MB), which the reader enforces too.

    The same limit bounds a file's size and an xlsx file's unpacked size, so a
    bundled sample, an upload and a zip bomb all meet one rule.
    """
    return int(st.get_option("server.maxUploadSize")) * 1024 * 1024


def load_table(digest: str, filename: str, _raw: bytes) -> pd.DataFrame:
    """``rocci.load_table`` on the file's bytes (``digest`` identifies them), within the upload limit.

    While it reads, a spinner names the file and its size and counts the seconds (Streamlit shows it
    only past half a second, so a table already read does not flash it).  An Excel workbook says
    that it reads more slowly: its XML is unpacked and parsed cell by cell.
    """
    from ..text import md_escape

    size = len(_raw) / 1e6
    slow = " Excel workbooks read more slowly than CSV or Parquet." if _is_workbook(filename, _raw) else ""
    with st.spinner(f"Reading {md_escape(filename)} ({size:,.1f} MB)…{slow}", show_time=True):
        return _load_table(digest, filename, _raw)


def _is_workbook(filename: str, raw: bytes) -> bool:
    return str(filename).lower().endswith((".xlsx", ".xlsm")) or raw[:4] == b"PK\x03\x04"


@st.cache_data(max_entries=2, scope="session", show_spinner=False)
def _load_table(digest: str, filename: str, _raw: bytes) -> pd.DataFrame:
    return rocci.load_table(_raw, filename=filename, max_bytes=upload_limit_bytes())


@st.cache_data(max_entries=2, scope="session", show_spinner="Checking the columns…")
def prepare(key: str, digest: str, filename: str, _raw: bytes, _mapping: state.ColumnMapping):
    """The prepared binary data for a dataset and a column mapping.

    ``key`` is :func:`ui.state.data_key` (digest + mapping).
    """
    from rocci import data as rdata

    m = _mapping
    df = _load_table(digest, filename, _raw)
    if m.layout == "long":
        if not m.model or not m.score:
            raise rocci.InputError("Long layout: choose the model column and the score column.")
        df = rdata.long_to_wide(df, model=m.model, score=m.score, id=m.id, label=m.label)
        df.columns = [str(c) for c in df.columns]
    if not m.label:
        raise rocci.InputError("Choose the label column (the true class of each row).")
    if not m.scores:
        raise rocci.InputError("Choose at least one score column (one per model).")
    return rdata.prepare_binary(
        df, label=m.label, scores=list(m.scores), pos_label=m.pos_label, fold=m.fold, one_vs_rest=m.one_vs_rest
    )


@st.cache_data(max_entries=2, scope="session", show_spinner=False)
def summarize(key: str, _prepared) -> pd.DataFrame:
    from rocci import data as rdata

    return rdata.summarize(_prepared)


@dataclass(frozen=True)
class Analysis:
    """Everything a page needs about the current data.

    Two kinds of data, one interface.  From a file in memory, ``prepared`` is a
    :class:`rocci.data.PreparedData` and :meth:`arrays` gives ``(is_positive, scores)``.  From the
    Large-data source (``from_counts``), ``prepared`` is a :class:`ui.cache.large.CountsPrepared`:
    :meth:`arrays` gives ``(ScoreCounts, None)`` and :meth:`paired` ``(PairedCounts, None, None)``,
    which every rocci function takes in place of the arrays.  Pages pass what they get on, unchanged, and
    nothing here expands counts to one row per instance; an analysis that would need that (or whose law
    grows with the instances) asks :meth:`too_large` first.
    """

    dataset: state.Dataset
    mapping: state.ColumnMapping
    prepared: Any
    key: str

    @property
    def models(self) -> list[str]:
        return list(self.prepared.scores)

    @property
    def from_counts(self) -> bool:
        """True for the Large-data source: counts only, no rows."""
        return bool(getattr(self.prepared, "from_counts", False))

    @property
    def n_instances(self) -> int:
        return int(self.prepared.n_pos) + int(self.prepared.n_neg)

    def paired(self, a: str, b: str) -> tuple:
        """``(y, score_a, score_b)`` of two models on the same instances, for rocci's two-model functions:
        the arrays, or ``(PairedCounts, None, None)`` from counts (InputError if the pair was not reduced)."""
        if self.from_counts:
            return self.prepared.paired(a, b), None, None
        y = np.asarray(self.prepared.is_positive, dtype=bool)
        return (y, np.asarray(self.prepared.scores[a], dtype=float),
                np.asarray(self.prepared.scores[b], dtype=float))

    def has_pair(self, a: str, b: str) -> bool:
        """Whether :meth:`paired` can give these two models (always, from arrays)."""
        return not self.from_counts or self.prepared.has_pair(a, b)

    def pair_refusal(self, a: str, b: str, what: str, *, expands: bool = True) -> str | None:
        """None when ``what`` (a two-model analysis) can run on models ``a`` and ``b``; else why not (Markdown):
        from counts, the pair must have been reduced, and an analysis that ``expands`` the pair table to one
        row per instance must stay within the limit (:meth:`too_large`)."""
        if not self.from_counts:
            return None
        if not self.has_pair(a, b):
            return (f"{what} needs the two models' scores on the same instances: a table of distinct score pairs, "
                    "which this scan did not make. On the Data page, tick *Reduce pairs* and scan again.")
        return self.too_large(what) if expands else None

    def too_large(self, what: str) -> str | None:
        """None when ``what`` (an analysis that needs one row per instance) can run on this data; else the
        message to show in its place (counts that stand for more instances than the dashboard expands)."""
        if not self.from_counts:
            return None
        from . import large

        n = self.n_instances
        return None if n <= large.MAX_INSTANCES else large.too_large_message(what, n)

    @property
    def colors(self) -> dict[str, int]:
        """Each model's style index (rocci.plots colour, dash, marker): its position among the
        chosen models, the same on every page of the session."""
        return {str(m): i for i, m in enumerate(self.prepared.scores)}

    def arrays(self, model: str) -> tuple:
        """(is_positive, scores) of one model, for rocci's functions; from counts ``(ScoreCounts, None)``."""
        if self.from_counts:
            return self.prepared.counts[model], None
        return np.asarray(self.prepared.is_positive, dtype=bool), np.asarray(self.prepared.scores[model], dtype=float)


def current_mapping(ds: state.Dataset) -> state.ColumnMapping:
    """The user's mapping for ``ds``, else the guesses (raises InputError if unreadable)."""
    if ds.kind == "large":
        spec = ds.spec
        return state.ColumnMapping(layout="wide", label=spec.label, pos_label=spec.pos_label,
                                   scores=tuple(spec.scores))
    mapping = state.get_mapping(ds)
    if mapping is None:
        df = _load_table(ds.digest, ds.name, ds.raw)
        mapping = state.guess_mapping(df)
        if ds.kind == "sample" and ds.name in state.SAMPLE_SCORES:
            mapping = dataclasses.replace(mapping, scores=state.SAMPLE_SCORES[ds.name])
    return mapping


def current_analysis() -> Analysis | None:
    """The session's dataset, mapping and prepared data.

    Returns None when no dataset is loaded; raises ``rocci.InputError`` when
    the data cannot be used as mapped.
    """
    ds = state.get_dataset()
    if ds is None:
        return None
    mapping = current_mapping(ds)
    key = state.data_key(ds, mapping)
    if ds.kind == "large":  # counts from rocci.scan (scanned again, with progress, if the store dropped them)
        from . import large

        prepared = large.run_scan(ds.spec, ds.digest)
        return Analysis(dataset=ds, mapping=mapping, prepared=prepared, key=key)
    prepared = prepare(key, ds.digest, ds.name, ds.raw, mapping)
    return Analysis(dataset=ds, mapping=mapping, prepared=prepared, key=key)


# --- statistics (all computed by rocci; cached here) -------------------------


@st.cache_resource(max_entries=12, scope="session", show_spinner="Computing the ROC curve…")
def roc_curve(key: str, model: str, _y: np.ndarray, _s: np.ndarray):
    """``rocci.roc_curve``, shared by the session's reruns and not copied (a 10⁶-row curve is ~35 MB; nothing mutates it)."""
    curve = rocci.roc_curve(_y, _s)
    for name in ("thresholds", "fpr", "tpr", "tp", "fp"):
        getattr(curve, name).setflags(write=False)  # a page that tried to change it would fail loudly
    return curve


@st.cache_data(max_entries=4, scope="session", show_spinner=False)
def roc_base_figure(key: str, models: tuple, auc_text: tuple, fpr_range: tuple, tpr_range: tuple, _curves: dict):
    """``rocci.plots.roc_figure`` of the models' curves, built once per view.

    The compact grid and the hover texts of 10⁶-point curves take ~0.1 s to
    build; a control that only moves the intervals reuses this figure (a copy:
    the page adds its intervals to it).
    """
    from rocci import plots

    return plots.roc_figure(_curves, auc_text=dict(auc_text), fpr_range=fpr_range, tpr_range=tpr_range)


@st.cache_data(max_entries=64, ttl="1h", show_spinner="Computing the AUC interval…")
def _roc_auc(key: str, model: str, method: str, m: tuple | None, _y, _s):
    return rocci.roc_auc(_y, _s, method=method, m=m)


def roc_auc(key: str, model: str, method: str, confidence_level: float, m: tuple | None, _y, _s):
    """``rocci.roc_auc``; the standard error is cached once, so a new level costs nothing."""
    return _roc_auc(key, model, method, m, _y, _s).confidence_interval(confidence_level)


@st.cache_data(max_entries=64, ttl="1h", show_spinner="Computing exact bootstrap regions at the chosen thresholds…")
def threshold_ci(
    key: str,
    model: str,
    thresholds: tuple | None,
    total_positive_rate: tuple | None,
    confidence_level: float,
    method: str,
    region: str,
    m: tuple | None,
    _y,
    _s,
):
    return rocci.threshold_ci(
        _y,
        _s,
        thresholds=None if thresholds is None else list(thresholds),
        total_positive_rate=None if total_positive_rate is None else list(total_positive_rate),
        confidence_level=confidence_level,
        method=method,
        region=region,
        m=m,
    )


@st.cache_data(max_entries=64, ttl="1h", show_spinner="Computing exact bootstrap intervals at the chosen FPR levels…")
def vertical_ci(key: str, model: str, fpr: tuple, confidence_level: float, method: str, m: tuple | None, _y, _s):
    result = rocci.vertical_ci(_y, _s, fpr=list(fpr), confidence_level=confidence_level, method=method, m=m)
    return _picklable(result)


#: Thresholds in the dashboard's simultaneous band: every distinct score up to this many, else this many
#: distinct scores evenly spaced by rank.  The exact calibration grows with thresholds × bootstrap size
#: (at 10⁶ rows, 200 thresholds take about 2 s; every one of 10⁵ distinct scores, minutes).
BAND_THRESHOLDS = 200


def band_thresholds(scores, k: int) -> np.ndarray:
    """At most ``k`` of the distinct scores, decreasing, evenly spaced by rank (all of them if fewer).

    ``scores``: the scores, or a :class:`rocci.ScoreCounts` (its distinct scores, not expanded)."""
    distinct = (scores.table()[0] if isinstance(scores, rocci.ScoreCounts) else np.unique(scores))[::-1]
    if distinct.size <= k:
        return distinct
    return distinct[np.unique(np.linspace(0, distinct.size - 1, k).round().astype(int))]


@st.cache_data(max_entries=8, scope="session", show_spinner="Calibrating the simultaneous band (exact bootstrap)…")
def roc_band(key: str, model: str, kind: str, k: int, fpr: tuple | None, confidence_level: float, m: tuple | None,
             _y, _s):
    """``rocci.roc_band``: the exact threshold band at :func:`band_thresholds`, or the vertical Šidák band."""
    if kind == "threshold":
        return rocci.roc_band(_y, _s, thresholds=band_thresholds(_y if _s is None else _s, k),
                              confidence_level=confidence_level, m=m)
    return rocci.roc_band(_y, _s, kind="vertical", method="sidak", fpr=list(fpr),
                          confidence_level=confidence_level, m=m)


def _picklable(result):
    """Drop callables (closures over the data) so the result can be cached."""
    if dataclasses.is_dataclass(result):
        changes = {
            f.name: None
            for f in dataclasses.fields(result)
            if f.name.startswith("_") and callable(getattr(result, f.name, None))
        }
        if changes:
            return dataclasses.replace(result, **changes)
    return result


def analysis_or_notice(*, min_models: int = 1, too_few: str = "") -> "Analysis | None":
    """The page's analysis, or None after telling the user what to do on the Data page.

    An unusable mapping gives an error box naming the problem; no data, or
    fewer than ``min_models`` score columns (message ``too_few``), an info box;
    each with a link to the Data page.
    """
    from ..controls import error

    try:
        an = current_analysis()
    except rocci.InputError as exc:
        error(str(exc))
        st.page_link("app_pages/data.py", label="Fix the data on the Data page", icon=":material/table:")
        return None
    if an is None:
        st.info("No data loaded yet.")
        st.page_link("app_pages/data.py", label="Load data on the Data page", icon=":material/table:")
        return None
    if len(an.models) < min_models:
        st.info(too_few)
        st.page_link("app_pages/data.py", label="Choose the score columns on the Data page", icon=":material/table:")
        return None
    return an
