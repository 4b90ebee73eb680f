"""``rocci compare``: is model A better than model B on these data? A verdict in plain text or JSON, and a gate."""

from __future__ import annotations

import json
from typing import Any, TextIO

from .._core.errors import InputError
from .gate import Gate, parse_gate
from .options import EXIT_GATE_FAILED, EXIT_OK
from .sources import Dataset, load_data
from .verdict import COST_KEYS, GATE_KEYS, compute_verdict, condition, verdict_lines


def run_compare(args: Any, out: TextIO, err: TextIO) -> int:
    """Run ``rocci compare``: read the data, compute the verdict, print it (text or JSON), test the gate.

    Parameters
    ----------
    args : argparse.Namespace
        The options of ``rocci compare`` (:func:`rocci.cli.build_parser`).
    out, err : text streams
        Where the verdict goes, and where a failed gate is also reported with ``--json``.

    Returns
    -------
    int
        0, or 1 when the ``--gate`` does not hold.

    Raises
    ------
    rocci.InputError
        Bad input (the options, the file, the columns, the labels, the gate); :func:`rocci.cli.main` prints
        it in one line and exits with 2.
    """
    a, b = args.a, args.b
    if a == b:
        raise InputError(f"--a and --b both name {a!r}: compare two different score columns.")
    if args.prior is not None and args.cost is None:
        raise InputError("--prior goes with --cost FN,FP (the operating point comes from the prior and the costs); "
                         "with --w give the operating point alone.")
    gate = parse_gate(args.gate, keys=GATE_KEYS) if args.gate is not None else None
    if gate is not None and args.cost is None and args.w is None:
        need = [k for k in gate.keys if k in COST_KEYS]
        if need:
            raise InputError(f"--gate uses {', '.join(need)}: the cost comparison needs an operating condition, "
                             "add --cost FN,FP (with --prior) or --w.")
    data = load_data(args.source, label=args.label, models=[a, b], pos=args.pos, scan_it=args.scan,
                     table=args.table, pairs=[(a, b)])
    cond = condition(cost=args.cost, w=args.w, prior=args.prior, n_pos=data.n_pos, n_neg=data.n_neg)
    values, _ = compute_verdict(data, a, b, fpr=args.fpr, level=args.level, cond=cond)
    failed = gate.failed(values) if gate is not None else []
    if gate is not None:
        values["gate"] = {"expression": gate.text, "holds": not failed, "failed": [str(c) for c in failed]}
    if args.json:
        out.write(json.dumps(values, indent=2, default=str) + "\n")
        for clause in failed:
            err.write(f"rocci: gate failed: {_clause_text(clause, values)}\n")
    else:
        out.write("\n".join(header_lines(data, a, b) + [""] + verdict_lines(values) + gate_lines(gate, failed, values))
                  + "\n")
    return EXIT_GATE_FAILED if failed else EXIT_OK


def header_lines(data: Dataset, a: str, b: str) -> list[str]:
    """What was read: the source, the label and its positive class, the rows used and dropped."""
    how = "counts made where the data live, by rocci.scan" if data.from_counts else "read into memory"
    dropped = ", ".join(f"{k} {v:,}" for k, v in data.dropped_by_column.items() if v)
    return [
        f"rocci compare: is {a} (A) better than {b} (B)?",
        f"Data       {data.source} ({how})",
        f"Label      {data.label!r}, {data.pos_text()}",
        f"Rows       {data.n_rows:,} read, {data.n_used:,} used, {data.rows_dropped:,} dropped for a missing value"
        + (f" ({dropped})" if dropped else "") + f"; {data.n_pos:,} positives, {data.n_neg:,} negatives",
    ]


def gate_lines(gate: Gate | None, failed: list, values: dict) -> list[str]:
    """The gate's result: holds, or each clause that failed with the value it saw."""
    if gate is None:
        return []
    if not failed:
        return ["", f"Gate       holds: {' and '.join(str(c) for c in gate.clauses)}"]
    return ["", "Gate       FAILED: " + "; ".join(_clause_text(c, values) for c in failed)]


def _clause_text(clause, values: dict) -> str:
    value = values.get(clause.key)
    seen = "not available" if value is None else f"{value:.6g}"
    return f"{clause} ({clause.key} = {seen})"
