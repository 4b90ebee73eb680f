"""Preparing a loaded table for analysis.

A table read by :func:`rocci.load_table` goes through these steps before
any curve is computed:

1. :func:`long_to_wide` -- only for the long layout (one row per instance
   and model): one score column per model.
2. :func:`guess_columns`, :func:`label_values`, :func:`guess_pos_label` --
   sensible defaults for the label, score, fold and positive-class choices.
3. :func:`prepare_binary` -- drop (and count) rows with missing values,
   check the label is binary and the scores are finite numbers; returns a
   :class:`PreparedData`.
4. :func:`summarize` -- a one-row-per-model table: counts, ties, ranges.

Nothing here changes a value: rows are dropped (and counted) or an
:class:`~rocci.InputError` explains what to fix.

The package, one module per step (and the reader):

====================  ===============================================================
module                contents
====================  ===============================================================
``data.io``           :func:`rocci.load_table`: CSV, TSV, Excel, Parquet, Feather, JSON
``data.reshape``      step 1, :func:`long_to_wide`
``data.guess``        step 2, the guesses
``data.prepare``      steps 3 and 4, :class:`PreparedData`, :func:`prepare_binary`,
                      :func:`summarize`
``data.scan``         :func:`rocci.scan`: reduce rows where they live (DuckDB or Spark) to the counts
``data._common``      column checks and value previews shared by the steps
====================  ===============================================================
"""

from ._common import MAX_GUESSED_SCORES
from .guess import (PosLabelGuess, guess_columns, guess_pos_label, label_values, score_candidates, suggest_pos_label,
                    suggest_pos_label_from_counts)
from .prepare import SUMMARY_COLUMNS, PreparedData, prepare_binary, summarize, summarize_counts
from .reshape import long_to_wide
from .scan import RoundingEffect, ScanResult, SourceInfo, inspect_source, rounding_effect, scan, scan_label_counts

__all__ = [
    "scan",
    "ScanResult",
    "RoundingEffect",
    "rounding_effect",
    "SourceInfo",
    "inspect_source",
    "scan_label_counts",
    "PreparedData",
    "guess_columns",
    "score_candidates",
    "PosLabelGuess",
    "suggest_pos_label",
    "suggest_pos_label_from_counts",
    "label_values",
    "guess_pos_label",
    "prepare_binary",
    "long_to_wide",
    "summarize",
    "summarize_counts",
    "MAX_GUESSED_SCORES",
    "SUMMARY_COLUMNS",
]
