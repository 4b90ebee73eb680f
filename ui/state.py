"""The session's state: the loaded dataset, its column mapping, and every session-state key of the dashboard.

Everything lives in ``st.session_state`` (one per user); nothing mutable is
shared between users at module level.  This module is the only one that touches
``st.session_state`` (tests/ui/test_state_keys.py checks it): pages and the other
ui modules read and write through the helpers below, naming a key declared in
:data:`KEYS`, each with who writes it and who reads it.

- ``dataset``: :class:`Dataset` -- the raw bytes of the file, its name and the
  SHA-256 digest that keys every cache.  A newcomer gets the default bundled
  sample, so every page shows something at once.
- ``mapping``: :class:`ColumnMapping` -- which column is the label, which label
  value is positive, which columns are scores, etc.  Set by the Data page;
  other pages fall back to the guesses of :func:`guess_mapping`.

**How a choice outlives its page (one mechanism).**  Streamlit forgets a widget's
value when a page without the widget runs.  A choice that must reach another
page, or survive a visit to one, is therefore kept as a plain session value
here, and the widget is *seeded* from it before it is drawn, with :func:`seed`
(the only way a page writes a widget's value):

- the shared operating condition (``ui.operating``): each widget's value is kept
  by :func:`keep` (its ``on_change``) and put back by :func:`restore`;
- the dataset (:func:`set_dataset`, by the Data page and the Folds page's sample
  buttons): the Data page seeds its source and sample widgets from it, forced
  when another page changed it (:data:`DATA_SHOWN`);
- the mapping (:func:`set_mapping`): the Data page seeds its column widgets from
  it, forced for a new dataset (:data:`MAPPING_FOR`);
- the Learn page's thresholds: seeded on the nearest score, and forgotten when
  the data or the model change (:data:`LEARN_DATA`).

Widgets bound to the URL (``bind="query-params"``) keep their value in the link
as well; they are declared here only when code reads or seeds them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

# --------------------------------------------------------------------------
# The keys
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Key:
    """A session-state key: its name, who writes it and who reads it.

    ``widget``: the key of a widget (``key=``), declared here because code seeds or
    reads its value; ``bound``: that widget is bound to the URL too.
    """

    name: str
    doc: str
    widget: bool = False
    bound: bool = False


#: Every session-state key the dashboard's code reads or writes, by name.
KEYS: dict[str, Key] = {}
#: Families of keys made of a prefix and an identifier (see :func:`kept_key` and :func:`done`).
PREFIXES: dict[str, Key] = {}


def _declare(name: str, doc: str, *, widget: bool = False, bound: bool = False) -> str:
    KEYS[name] = Key(name, doc, widget, bound)
    return name


def _family(prefix: str, doc: str) -> str:
    PREFIXES[prefix] = Key(prefix, doc)
    return prefix


# Values kept for the session (no widget).
DATASET = _declare(
    "dataset", "The loaded Dataset. Written by set_dataset (the Data page: a sample, an upload or a scan; the "
    "Folds page's sample buttons) and by get_dataset (a newcomer's default sample); read by get_dataset (every "
    "page, the sidebar, ui.cache).")
MAPPING = _declare(
    "mapping", "(digest, ColumnMapping): the Data page's choice of columns for that dataset. Written by "
    "set_mapping (the Data page), dropped by set_dataset; read by get_mapping (ui.cache.current_mapping, so "
    "every page).")
REPORT = _declare(
    "_rocci_report", "This run's ui.report.Report. Written by ui.report.begin (app.py, before each page runs); "
    "read by ui.report.current (every report.* call of the pages, the sidebar's report button).")
MAPPING_FOR = _declare(
    "_mapping_for", "Digest of the dataset whose mapping the Data page's column widgets show. Written and read by "
    "the Data page (mapping_section): another dataset seeds the widgets afresh from its mapping.")
DATA_SHOWN = _declare(
    "_data_shown", "(digest, name) of the dataset the Data page's source widgets last showed. Written and read by "
    "the Data page (source_section): when another page (Folds) changed the dataset, the source and sample "
    "widgets follow it.")
LARGE_RESTORED = _declare(
    "_lg_restored", "(path, table, query) of the scanned source whose choices the Data page just put back in the "
    "Large-data widgets. Written by the Data page's _seed_large, taken by _forget_other_sources_choices.")
LARGE_COLUMNS_FOR = _declare(
    "_lg_columns_for", "(path, table, columns) of the source the Large-data column choices were made for. "
    "Written and read by the Data page (_forget_other_sources_choices).")
LEARN_DATA = _declare(
    "_ln_data", "'data key|model' the Learn page's threshold sliders belong to. Written and read by the Learn page "
    "(forget_thresholds_on_new_data): other data or another model start the sliders afresh.")
KEPT = _family(
    "_kept:", "'_kept:<widget key>': the last value of a widget whose choice is shared by several pages. Written by "
    "keep (the widget's on_change, and once when it is first drawn); read by restore, before the widget is drawn "
    "(ui.operating: op_by, op_p, op_cfn, op_cfp, op_w).")
MAP_DONE = _family(
    "cmp_map_done::", "'cmp_map_done::<data key>|<A>|<B>|<m>': the Compare page computed this dominance map (past "
    "MAP_AUTO_INSTANCES it runs on a click; later reruns show it without one). Written and read by map_tab.")

CLINICAL_DONE = _family(
    "ex_clinical_done::", "'ex_clinical_done::<data key>|<model>|<threshold>|<prevalence>|<pretest>|<level>': the "
    "Threshold explorer computed this clinical panel (from counts standing for more than CLINICAL_AUTO_INSTANCES it "
    "runs on a click; later reruns show it without one). Written and read by the explorer's clinical().")

# Widget keys that code seeds or reads (the widgets themselves are drawn by the pages named).
for _name, _doc in {
    "source": "Data page: where the data come from. Seeded from the dataset (its kind), forced when another page "
    "changed it.",
    "sample": "Data page: the bundled sample. Seeded from the dataset (its name), forced when another page "
    "changed it.",
    "layout": "Data page: wide or long. Seeded from the mapping.",
    "model_col": "Data page (long layout): the model column. Seeded from the mapping or guess_long.",
    "score_col": "Data page (long layout): the score column. Seeded from the mapping or guess_long.",
    "id_col": "Data page (long layout): the instance id column. Seeded from the mapping or guess_long.",
    "label": "Data page: the label column. Seeded from the mapping.",
    "pos": "Data page: the positive label. Seeded from the mapping or rocci.data.suggest_pos_label.",
    "fold": "Data page: the fold column. Seeded from the mapping.",
    "scores": "Data page: the score columns (models). Seeded from the mapping, kept to the columns there are.",
    "lg_how": "Data page, Large data: file or query. Seeded from the scanned source (_seed_large).",
    "lg_file": "Data page, Large data: the file. Seeded from the scanned source or the first file listed.",
    "lg_glob": "Data page, Large data: a typed file or glob. Seeded from the scanned source.",
    "lg_table": "Data page, Large data: the DuckDB table. Seeded from the scanned source or the first table.",
    "lg_query": "Data page, Large data: the SQL query. Seeded from the scanned source.",
    "lg_label": "Data page, Large data: the label column. Seeded from the scanned source; forgotten for another "
    "source.",
    "lg_pos": "Data page, Large data: the positive label. Seeded from the scanned source or the suggestion.",
    "lg_scores": "Data page, Large data: the score columns. Seeded from the scanned source or the guesses.",
    "lg_digits": "Data page, Large data: the rounding. Seeded from the scanned source (else 0).",
    "lg_pairs": "Data page, Large data: reduce pairs. Seeded from the scanned source (else True).",
    "lg_group": "Data page, Large data: the fold / group column. Seeded from the scanned source (else none).",
    "cov_exp": "Coverage lab: the preset. Seeded from the link's ?cov_exp= (the page writes that parameter by hand).",
}.items():
    _declare(_name, _doc, widget=True)
for _name, _doc in {
    "op_by": "ui.operating: prior and costs, or w directly. Kept (keep) and restored on every page that shows "
    "the operating condition (Cost curves, Threshold explorer, Compare models, Learn).",
    "op_p": "ui.operating: the prior p(+) (empty: the data's share). Kept and restored like op_by.",
    "op_cfn": "ui.operating: C(−|+). Kept and restored like op_by.",
    "op_cfp": "ui.operating: C(+|−). Kept and restored like op_by.",
    "op_w": "ui.operating: w set directly. Kept and restored like op_by.",
    "cmp_a": "Compare page: model A. Seeded by the leaderboard's 'Open this pair's verdict' button (set_pair).",
    "cmp_b": "Compare page: model B. Seeded by set_pair, like cmp_a.",
    "ln_t": "Learn page, section 1: the threshold. Snapped to the nearest score; forgotten on new data.",
    "ln_t2": "Learn page, section 2: the threshold. Snapped; seeded by 'use the optimal threshold'; forgotten on "
    "new data.",
    "ln_t4": "Learn page, section 4: the threshold followed in the worlds. Snapped; forgotten on new data.",
    "ln_seed": "Learn page, section 4: the worlds' seed. Seeded by 'Draw new worlds' (one up).",
    "img": "Sidebar: the charts' image format. Read by ui.sidebar.image_format (every page's chart toolbar).",
}.items():
    _declare(_name, _doc, widget=True, bound=True)


def _check(key: str, *, widget: bool | None = None) -> str:
    """``key`` if declared (and of the kind asked for); a KeyError naming the mistake otherwise."""
    declared = KEYS.get(key)
    if declared is None:
        raise KeyError(f"session-state key {key!r} is not declared in ui/state.py (KEYS)")
    if widget is not None and declared.widget != widget:
        kind = "a widget key" if declared.widget else "a stored value, not a widget key"
        raise KeyError(f"session-state key {key!r} is {kind}")
    return key


# --------------------------------------------------------------------------
# Reading and writing
# --------------------------------------------------------------------------


def value(key: str, default: Any = None) -> Any:
    """The value under a declared key (a stored value, or a widget's current value), else ``default``."""
    return st.session_state.get(_check(key), default)


def has(key: str) -> bool:
    """True when the declared key holds a value (for a widget: it was drawn or seeded this session)."""
    return _check(key) in st.session_state


def put(key: str, data: Any) -> None:
    """Store a value under a declared key that is not a widget's (widgets are written by :func:`seed`)."""
    st.session_state[_check(key, widget=False)] = data


def swap(key: str, data: Any) -> Any:
    """Store ``data`` under a declared stored-value key and return what was there (None the first time)."""
    old = st.session_state.get(_check(key, widget=False))
    st.session_state[key] = data
    return old


def take(key: str) -> Any:
    """Remove a declared stored value and return it (None if there was none)."""
    return st.session_state.pop(_check(key, widget=False), None)


def forget(*keys: str) -> None:
    """Drop the values under declared keys (a widget then starts from its default, or a new seed)."""
    for key in keys:
        st.session_state.pop(_check(key), None)


def seed(key: str, data: Any, options=None, *, force: bool = False) -> None:
    """Give the widget ``key`` its value before it is drawn: ``data`` when forced, when the widget has no value
    yet, or when its value is not among ``options`` (when given).  With ``options``, a ``data`` that is not
    among them gives the first option (None if there are none)."""
    _check(key, widget=True)
    state = st.session_state
    if force or key not in state or (options is not None and state[key] not in options):
        if options is not None and data not in options:
            data = options[0] if len(options) else None
        state[key] = data


def seed_list(key: str, data: list, options: list, *, force: bool = False) -> None:
    """:func:`seed` for a multiselect: ``data`` (those among ``options``) when forced or unset, else the widget's
    own choice kept to ``options``."""
    _check(key, widget=True)
    state = st.session_state
    if force or key not in state:
        state[key] = [v for v in data if v in options]
    else:
        state[key] = [v for v in state[key] if v in options]


def kept_key(key: str) -> str:
    """Where :func:`keep` keeps the widget ``key``'s value."""
    return KEPT + _check(key, widget=True)


def keep(key: str, *, first: bool = False) -> None:
    """Keep the widget ``key``'s current value for the other pages (its ``on_change``; ``first=True`` after
    drawing it, which keeps a value that came from the link and was never changed)."""
    slot = kept_key(key)
    if first and slot in st.session_state:
        return
    st.session_state[slot] = st.session_state.get(key)


def restore(*keys: str) -> None:
    """Give each widget the value last kept by :func:`keep`, on any page (call before drawing them)."""
    for key in keys:
        slot = kept_key(key)
        if slot in st.session_state:
            seed(key, st.session_state[slot], force=True)


def done(family: str, ident: str) -> bool:
    """Whether :func:`mark_done` was called for ``ident`` in the declared family (e.g. :data:`MAP_DONE`)."""
    if family not in PREFIXES:
        raise KeyError(f"session-state key family {family!r} is not declared in ui/state.py (PREFIXES)")
    return bool(st.session_state.get(family + ident))


def mark_done(family: str, ident: str) -> None:
    if family not in PREFIXES:
        raise KeyError(f"session-state key family {family!r} is not declared in ui/state.py (PREFIXES)")
    st.session_state[family + ident] = True


DATA_DIR = Path(__file__).resolve().parent.parent / "data"

#: Bundled samples, in the order offered, with a one-line description each.
SAMPLES: dict[str, str] = {
    "breast_cancer_cv.csv": "Breast cancer — 569 tumours, two models (logistic, naive Bayes), 5-fold CV scores",
    "heart_disease_test20.csv": "Heart disease — 20 patients, logistic regression (Tanagra tutorial)",
    "thesis_example.csv": "Thesis example — 20 positives, 40 negatives (Gadoury 2009, ch. 2)",
    "wine_cv.csv": "Wine — 178 wines, 3 cultivars, class probabilities from 5-fold CV (Folds & classes page)",
}
DEFAULT_SAMPLE = "breast_cancer_cv.csv"

#: Score columns of the samples whose other numeric columns are predictors,
#: not scores (see data/README.md).
SAMPLE_SCORES: dict[str, tuple] = {
    "heart_disease_test20.csv": ("score",),
}


@dataclass(frozen=True)
class Dataset:
    """A loaded file: its name, where it came from, its bytes and their digest.

    ``kind="large"``: data under the server's data directory, reduced to counts by
    ``rocci.scan`` (no bytes in the session): ``spec`` is the scan's
    :class:`ui.cache.large.LargeSpec` and ``digest`` a digest of the spec and of the
    files' sizes and modification times.
    """

    name: str
    kind: str  # "sample", "upload" or "large"
    digest: str
    raw: bytes = field(repr=False, compare=False)
    spec: Any = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.raw)


@dataclass(frozen=True)
class ColumnMapping:
    """How the table's columns are read.

    ``layout="wide"``: one score column per model (``scores``).
    ``layout="long"``: one row per (instance, model); ``model`` names the model
    column, ``score`` the score column and ``id`` (optional) the instance id;
    ``scores`` then lists the chosen models (values of the model column).
    """

    layout: str = "wide"
    label: str | None = None
    pos_label: Any = None
    scores: tuple = ()
    fold: str | None = None
    model: str | None = None
    score: str | None = None
    id: str | None = None
    #: Several label classes: ``pos_label`` against all the others (shown on the Data page and sidebar).
    one_vs_rest: bool = False

    def key(self) -> str:
        """A stable text key for caches (types kept: ``1`` and ``'1'`` differ)."""
        return repr(self)


def digest_bytes(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def sample_names() -> list[str]:
    """Bundled samples that are present in data/."""
    return [name for name in SAMPLES if (DATA_DIR / name).is_file()]


def sample_dataset(name: str) -> Dataset:
    """The bundled sample ``name`` (one of :data:`SAMPLES`)."""
    if name not in SAMPLES:
        raise KeyError(name)
    raw = (DATA_DIR / name).read_bytes()
    return Dataset(name=name, kind="sample", digest=digest_bytes(raw), raw=raw)


def upload_dataset(name: str, raw: bytes) -> Dataset:
    return Dataset(name=str(name), kind="upload", digest=digest_bytes(raw), raw=bytes(raw))


def get_dataset() -> Dataset | None:
    """The session's dataset; the default sample for a new session (None if missing)."""
    ds = value(DATASET)
    if ds is None:
        names = sample_names()
        if not names:
            return None
        name = DEFAULT_SAMPLE if DEFAULT_SAMPLE in names else names[0]
        ds = sample_dataset(name)
        put(DATASET, ds)
    return ds


def set_dataset(ds: Dataset) -> bool:
    """Make ``ds`` the session's dataset; True when it changed."""
    old = value(DATASET)
    if old is not None and old.digest == ds.digest and old.name == ds.name:
        return False
    put(DATASET, ds)
    forget(MAPPING)
    return True


def get_mapping(ds: Dataset) -> ColumnMapping | None:
    """The mapping the user chose for ``ds`` (None: not chosen yet)."""
    stored = value(MAPPING)
    if stored is not None and stored[0] == ds.digest:
        return stored[1]
    return None


def set_mapping(ds: Dataset, mapping: ColumnMapping) -> None:
    put(MAPPING, (ds.digest, mapping))


def guess_mapping(df) -> ColumnMapping:
    """Pre-filled choices for a freshly loaded table (rocci.data's guesses).

    A table with a column named like "model" and one named like "score" is
    taken to be in the long layout.  At most
    :data:`rocci.data.MAX_GUESSED_SCORES` score columns are preselected (a
    10,000-column file must not preselect 9,999 models); the positive label
    is :func:`rocci.data.suggest_pos_label`'s (a usual name such as 'churn',
    else the rarer class), so that a file with labels 'churn'/'stay' works on
    every page at once.

    Parameters
    ----------
    df : pandas.DataFrame
        The table, as read by :func:`rocci.load_table`.

    Returns
    -------
    ColumnMapping
        The guesses; the Data page shows them, says why, and lets the user
        change them.
    """
    from rocci import data as rdata

    long = looks_long(df)
    if long:
        lg = guess_long(df)
        rest = df.drop(columns=[c for c in (lg["model"], lg["score"], lg["id"]) if c is not None])
        g = rdata.guess_columns(rest)
    else:
        g = rdata.guess_columns(df)
    label = g.get("label")
    pos = None
    if label is not None:
        try:
            pos = rdata.suggest_pos_label(df, label).value
        except Exception:  # a guess must never break the page
            pos = None
    if long:
        try:
            models = tuple(str(v) for v in df[lg["model"]].dropna().unique())[:50]
        except Exception:
            models = ()
        models = models[: rdata.MAX_GUESSED_SCORES]
        return ColumnMapping(
            layout="long", label=label, pos_label=pos, scores=models, fold=g.get("fold"),
            model=lg["model"], score=lg["score"], id=lg["id"],
        )
    scores = tuple(s for s in g.get("scores", []) if s != label)
    if not scores:
        # No numeric column: pre-select the first other column anyway, so the
        # page explains what is wrong with it (e.g. "holds text: 'abc'")
        # instead of only asking for a score column.
        others = [c for c in df.columns if c not in (label, g.get("fold"))]
        scores = tuple(others[-1:])
    return ColumnMapping(layout="wide", label=label, pos_label=pos, scores=scores, fold=g.get("fold"))


def data_key(ds: Dataset, mapping: ColumnMapping) -> str:
    """Cache key of the prepared data: digest of the bytes + the mapping."""
    return hashlib.sha256((ds.digest + "\n" + mapping.key()).encode("utf-8")).hexdigest()


_MODEL_NAMES = ("model", "models", "classifier", "method", "algorithm", "learner", "system")
_SCORE_NAMES = ("score", "scores", "prob", "probability", "proba", "prediction", "pred", "yscore", "yprob", "yhat")


def _norm(name: Any) -> str:
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


def guess_long(df) -> dict:
    """Guesses for the long layout: ``{"model", "score", "id"}`` column names (or None)."""
    import pandas as pd

    cols = list(df.columns)
    norm = {c: _norm(c) for c in cols}
    model = next((c for c in cols if norm[c] in _MODEL_NAMES), None)
    if model is None:
        model = next(
            (c for c in cols if not pd.api.types.is_numeric_dtype(df[c]) and 1 < df[c].nunique() <= 20),
            None,
        )
    score = next((c for c in cols if norm[c] in _SCORE_NAMES), None)
    if score is None:
        score = next(
            (c for c in cols if c != model and pd.api.types.is_float_dtype(df[c])),
            None,
        )
    ident = next((c for c in cols if norm[c] in ("id", "ids", "instance", "instanceid", "rowid", "sampleid")), None)
    return {"model": model, "score": score, "id": ident}


def looks_long(df) -> bool:
    """True when the table has a model column and a score column by name."""
    names = {_norm(c) for c in df.columns}
    return bool(names & set(_MODEL_NAMES)) and bool(names & set(_SCORE_NAMES))
