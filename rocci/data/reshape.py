"""Step 1: long_to_wide, the long layout (one row per instance and model) to one score column per model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._core.inputs import InputError
from ._common import _check_column, _check_scalar, _preview, _py
from .guess import guess_columns


def _same_values(a: pd.Series, b: pd.Series) -> np.ndarray:
    """Element-wise equality, with two missing values counting as equal."""
    eq = np.asarray(a.to_numpy(dtype=object) == b.to_numpy(dtype=object), dtype=bool)
    return eq | (pd.isna(a).to_numpy() & pd.isna(b).to_numpy())


def long_to_wide(
    df: pd.DataFrame,
    *,
    model: Any,
    score: Any,
    id: Any = None,
    label: Any = None,
) -> pd.DataFrame:
    """Turn the long layout (one row per instance and model) into the wide one.

    Parameters
    ----------
    df : pandas.DataFrame
        Long table: a column naming the model, a column of scores, and the
        instance's other columns (label, fold, ...) repeated for each model.
    model : column name
        The column naming the model of each row.
    score : column name
        The column of scores.
    id : column name, optional
        A column identifying the instance.  With it, rows are matched by id
        (each (id, model) pair must occur once, and every model must score
        every id).  Without it, the k-th row of each model is the k-th
        instance (every model must have the same number of rows).
    label : column name, optional
        The label column, checked to agree across models for each instance.
        By default it is guessed (:func:`guess_columns`); pass it explicitly
        if the guess could be wrong.

    Returns
    -------
    pandas.DataFrame
        One row per instance, in the order of the first model's rows: every
        column except `model` and `score`, taken from the first model's
        rows, then one score column per model, in order of first
        appearance, named by the model (as text).

    Raises
    ------
    rocci.InputError
        If a column is missing; a model name is missing or clashes with
        another column; with `id`, an (id, model) pair repeats or a model
        misses some ids; without `id`, models have different numbers of
        rows; or the labels of an instance differ between models.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"model": ["a", "a", "b", "b"], "y": [0, 1, 0, 1],
    ...                      "s": [0.2, 0.9, 0.4, 0.7]})
    >>> long_to_wide(long, model="model", score="s")
       y    a    b
    0  0  0.2  0.4
    1  1  0.9  0.7
    """
    _check_long_columns(df, model, score, id)
    models, names = _model_names(df, model, score)
    others = [c for c in df.columns if c not in (model, score)]
    label = _long_label(df, model, score, label)
    groups = {m: df[df[model] == m] for m in models}
    if id is not None:
        return _wide_by_id(df, groups, models, names, others, id=id, model=model, score=score, label=label)
    return _wide_by_order(groups, models, names, others, score=score, label=label)


# The steps of long_to_wide, in order.


def _check_long_columns(df: pd.DataFrame, model: Any, score: Any, id: Any) -> None:
    """Step 1: the model, score (and id) columns exist, differ and hold scalars; no row lacks its model."""
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"long_to_wide needs a pandas DataFrame, not a {type(df).__name__}.")
    _check_column(df, model, "The model")
    _check_column(df, score, "The score")
    if model == score:
        raise InputError("The model column and the score column must be different columns.")
    if id is not None:
        _check_column(df, id, "The id")
        if id in (model, score):
            raise InputError("The id column must differ from the model and score columns.")
    if len(df) == 0:
        raise InputError("The table has no rows.")
    _check_scalar(df, model, "The model")
    _check_scalar(df, score, "The score")
    if id is not None:
        _check_scalar(df, id, "The id")
    n_missing_model = int(df[model].isna().sum())
    if n_missing_model:
        raise InputError(
            f"The model column {model!r} is empty in {n_missing_model} row"
            f"{'s' if n_missing_model != 1 else ''}. Every row must name its model."
        )


def _model_names(df: pd.DataFrame, model: Any, score: Any) -> tuple[list, list]:
    """Step 2: the models in order of first appearance, and their names as text (the new columns)."""
    models = list(pd.unique(df[model]))
    names = [str(_py(m)) for m in models]
    others = [str(c) for c in df.columns if c not in (model, score)]
    if len(set(names)) != len(names):
        raise InputError(
            f"The model names {_preview(models)} become duplicate column names as text. "
            "Give the models distinct names."
        )
    clash = [n for n in names if n in others]
    if clash:
        raise InputError(
            f"Model name {clash[0]!r} is also the name of another column; rename the model "
            "or that column."
        )
    if len(models) < 1:
        raise InputError("The model column names no model.")
    return models, names


def _long_label(df: pd.DataFrame, model: Any, score: Any, label: Any) -> Any:
    """Step 3: the label column to check across models (guessed when not given)."""
    if label is None:
        return guess_columns(df.drop(columns=[model, score]))["label"]
    _check_column(df, label, "The label")
    if label in (model, score):
        raise InputError("The label column must differ from the model and score columns.")
    return label


def _wide_by_id(df, groups, models, names, others, *, id, model, score, label) -> pd.DataFrame:
    """Step 4a: match the models' rows by id (each (id, model) once, every model scores every id)."""
    n_missing_id = int(df[id].isna().sum())
    if n_missing_id:
        raise InputError(
            f"The id column {id!r} is empty in {n_missing_id} row"
            f"{'s' if n_missing_id != 1 else ''}. Every row needs an id to be matched."
        )
    dup = df.duplicated(subset=[id, model], keep=False)
    if dup.any():
        pairs = df.loc[dup, [id, model]].drop_duplicates().head(5)
        shown = ", ".join(f"({_py(i)!r}, {_py(m)!r})" for i, m in pairs.itertuples(index=False))
        raise InputError(
            f"Some (id, model) pairs occur more than once: {shown}. Each model must score "
            f"each instance once; remove the repeated rows or choose another id column."
        )
    first = groups[models[0]]
    ids = pd.Index(first[id])
    wide = first[others].reset_index(drop=True)
    for m, name in zip(models, names):
        g = groups[m].set_index(id)
        missing_ids = ids.difference(g.index, sort=False)
        extra_ids = g.index.difference(ids, sort=False)
        if len(missing_ids) or len(extra_ids):
            if len(missing_ids):
                what = f"has no score for id {_preview(list(missing_ids))}"
            else:
                what = (
                    f"scores id {_preview(list(extra_ids))}, which model "
                    f"{str(_py(models[0]))!r} does not"
                )
            raise InputError(
                f"Model {name!r} {what}. Every model must score the same instances; "
                "remove the unmatched rows."
            )
        g = g.loc[ids]
        if label is not None and m is not models[0]:
            same = _same_values(g[label].reset_index(drop=True), wide[label])
            if not same.all():
                k = int(np.flatnonzero(~same)[0])
                raise InputError(
                    f"The label {label!r} of id {_py(ids[k])!r} is "
                    f"{_py(wide[label].iloc[k])!r} for model {names[0]!r} but "
                    f"{_py(g[label].iloc[k])!r} for model {name!r}. The same instance must "
                    "have the same label for every model."
                )
        wide[name] = g[score].to_numpy()
    return wide


def _wide_by_order(groups, models, names, others, *, score, label) -> pd.DataFrame:
    """Step 4b: without an id, the k-th row of each model is the k-th instance."""
    counts = {name: len(groups[m]) for m, name in zip(models, names)}
    if len(set(counts.values())) > 1:
        shown = ", ".join(f"{n!r}: {c}" for n, c in counts.items())
        raise InputError(
            f"The models have different numbers of rows ({shown}). Without an id column the "
            "k-th row of each model is taken as the same instance, so every model needs the "
            "same rows in the same order; add an id column, or fix the missing rows."
        )
    wide = groups[models[0]][others].reset_index(drop=True)
    for m, name in zip(models, names):
        g = groups[m].reset_index(drop=True)
        if label is not None and m is not models[0]:
            same = _same_values(g[label], wide[label])
            if not same.all():
                k = int(np.flatnonzero(~same)[0])
                raise InputError(
                    f"Row {k + 1} of model {name!r} has label {_py(g[label].iloc[k])!r} but row "
                    f"{k + 1} of model {names[0]!r} has {_py(wide[label].iloc[k])!r}. Without an "
                    "id column rows are paired by their order within each model, so every model "
                    "must list the instances in the same order; add an id column or sort the rows."
                )
        wide[name] = g[score].to_numpy()
    return wide
