"""``rocci scan``: reduce rows to counts where they live (:func:`rocci.scan`) and summarise what was counted."""

from __future__ import annotations

import json
from typing import Any, TextIO

from .._core.errors import InputError
from ..data import guess_columns, inspect_source, score_candidates
from .options import EXIT_OK
from .sources import Dataset, load_data, scan_target


def run_scan(args: Any, out: TextIO, err: TextIO) -> int:
    """Run ``rocci scan``: rows, positives, negatives, rows dropped, and each model's distinct scores.

    Parameters
    ----------
    args : argparse.Namespace
        The options of ``rocci scan`` (:func:`rocci.cli.build_parser`).
    out, err : text streams
        Where the summary goes (text, or one JSON object with ``--json``); ``err`` is unused.

    Returns
    -------
    int
        0 (bad input raises :class:`rocci.InputError`).
    """
    models = args.scores if args.scores is not None else guess_scores(args.source, args.label, args.table)
    data = load_data(args.source, label=args.label, models=models, pos=args.pos, scan_it=True, table=args.table)
    summary = scan_summary(data)
    if args.json:
        out.write(json.dumps(summary, indent=2, default=str) + "\n")
    else:
        out.write("\n".join(summary_lines(data, summary)) + "\n")
    return EXIT_OK


def guess_scores(source: str, label: str, table: str | None) -> list[str]:
    """The numeric columns other than the label, a fold column and id-like ones
    (:func:`rocci.data.score_candidates`), read from the source's first rows (:func:`rocci.data.inspect_source`)."""
    info = inspect_source(scan_target(source), table=table)
    if label not in info.columns:
        raise InputError(f"No column {label!r} in {source}; its columns are {list(info.columns)}.")
    numeric = set(info.numeric())
    fold = guess_columns(info.preview)["fold"]
    found = [c for c in score_candidates(info.preview, label=label, fold=fold) if c in numeric]
    if not found:
        raise InputError(f"No numeric score column found in {source} besides the label {label!r}: name them with "
                         "--scores A,B.")
    return found


def scan_summary(data: Dataset) -> dict:
    """What ``--json`` prints: the rows, the classes, the dropped rows and one entry per model."""
    result = data.scanned
    models = [{"model": str(row.model), "n_pos": int(row.n_pos), "n_neg": int(row.n_neg),
               "distinct_scores": int(row.distinct_scores)} for row in result.summary().itertuples(index=False)]
    return {
        "source": data.source, "label": data.label, "pos_label": data.pos_label, "pos_label_chosen": data.pos_note,
        "n_rows": data.n_rows, "n_rows_used": data.n_used, "rows_dropped": data.rows_dropped,
        "dropped_by_column": data.dropped_by_column, "n_pos": data.n_pos, "n_neg": data.n_neg,
        "label_counts": {str(k): int(v) for k, v in result.label_counts.items()}, "models": models,
    }


def summary_lines(data: Dataset, summary: dict) -> list[str]:
    """The summary as plain text."""
    dropped = ", ".join(f"{k} {v:,}" for k, v in data.dropped_by_column.items() if v)
    width = max(len("model"), *(len(str(m["model"])) for m in summary["models"]))
    lines = [
        f"rocci scan: {data.source}",
        f"Label      {data.label!r}, {data.pos_text()}",
        f"Rows       {data.n_rows:,} read, {data.n_used:,} used, {data.rows_dropped:,} dropped for a missing value"
        + (f" ({dropped})" if dropped else ""),
        f"Classes    {data.n_pos:,} positives, {data.n_neg:,} negatives",
        "",
        f"{'model':<{width}}  {'positives':>10}  {'negatives':>10}  {'distinct scores':>15}",
    ]
    for m in summary["models"]:
        lines.append(f"{str(m['model']):<{width}}  {m['n_pos']:>10,}  {m['n_neg']:>10,}  "
                     f"{m['distinct_scores']:>15,}")
    return lines
