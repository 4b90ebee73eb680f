"""rocci on the command line: ``rocci compare``, ``rocci scan`` and ``rocci report`` (also ``python -m rocci``).

===============  ===========================================================================================
command          what it does
===============  ===========================================================================================
``compare``      Is model A better than model B?  ΔAUC (DeLong), ΔTPR at one FPR (exact paired law), the cost
                 difference at an operating condition; plain text or ``--json``; ``--gate`` sets the exit status
``scan``         Reduce rows to counts where they live (:func:`rocci.scan`, DuckDB) and summarise them
``report``       A self-contained HTML report (figures, tables and their CSV), like the dashboard's
===============  ===========================================================================================

Exit statuses: 0 done (and the gate holds), 1 the gate does not hold, 2 bad input (a one-line message on
stderr starting ``rocci: error:``, never a traceback).  ``docs/cli.md`` has every option and a CI example.

The modules: ``options`` (exit statuses, option values, number text), ``sources`` (a file in memory or a
scan, as a :class:`~rocci.cli.sources.Dataset`), ``gate`` (the ``--gate`` grammar), ``verdict`` (the numbers
of a comparison), and one module per command.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence, TextIO

from .._core.errors import InputError
from .options import (EXIT_BAD_INPUT, EXIT_GATE_FAILED, EXIT_OK, confidence_level, cost_pair, names, one_line,
                      open_rate, operating_w)

__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_GATE_FAILED", "EXIT_BAD_INPUT"]

_EPILOG = ("exit status: 0 done (and the --gate holds), 1 the --gate does not hold, 2 bad input. "
           "See docs/cli.md.")


def build_parser() -> argparse.ArgumentParser:
    """The ``rocci`` argument parser, with one subparser per command (each sets ``run``)."""
    from .compare import run_compare
    from .report import run_report
    from .scan import run_scan

    parser = argparse.ArgumentParser(
        prog="rocci", description="Exact bootstrap ROC and cost statistics from the command line.", epilog=_EPILOG)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{compare,scan,report}")

    p = sub.add_parser("compare", help="is model A better than model B? (verdict, --json, --gate)",
                       description="Compare two models scored on the same instances: the AUC difference with "
                       "DeLong's interval and p-value, the TPR difference at one false positive rate with its exact "
                       "paired bootstrap law, and "
                       "(with --cost or --w) the cost difference at that operating condition.", epilog=_EPILOG)
    _source(p, "FILE", "a CSV, TSV, Parquet or xlsx file; or, read by rocci.scan, a folder, a glob or a DuckDB "
            "database")
    p.add_argument("--a", required=True, metavar="A", help="score column of model A")
    p.add_argument("--b", required=True, metavar="B", help="score column of model B (differences are A - B)")
    p.add_argument("--fpr", type=open_rate, default=0.1,
                   help="false positive rate where the TPRs are compared (default 0.1)")
    cost = p.add_mutually_exclusive_group()
    cost.add_argument("--cost", type=cost_pair, metavar="FN,FP",
                      help="costs of a false negative and of a false positive: compare the costs at "
                      "w = operating_point(prior, FN, FP)")
    cost.add_argument("--w", type=operating_w, metavar="W", help="compare the costs at this operating point w")
    p.add_argument("--prior", type=open_rate, metavar="P",
                   help="prior of the positive class for --cost (default: the share of positives in the data)")
    _level(p)
    p.add_argument("--gate", metavar="EXPR",
                   help='exit 1 unless EXPR holds: "key OP number" clauses joined by "and", OP one of >= > <= < ==,'
                   ' keys as in --json (e.g. "p_a_better>=0.95 and delta_auc>0")')
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the text verdict")
    _scan_options(p)
    p.set_defaults(run=run_compare)

    p = sub.add_parser("scan", help="reduce rows to counts with rocci.scan and summarise them",
                       description="Count rows, positives, negatives, missing values and each model's distinct "
                       "scores where the data live (rocci.scan, DuckDB): Parquet or CSV files, globs, folders, "
                       "DuckDB databases.", epilog=_EPILOG)
    _source(p, "SOURCE", "a Parquet or CSV/TSV file, a folder of them, a glob ('scores/*.parquet') or a DuckDB "
            "database")
    p.add_argument("--scores", type=names, metavar="A,B", help="score columns (default: the numeric columns "
                   "other than the label and id-like ones)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--table", metavar="TABLE", help="the table to read from a DuckDB database")
    p.set_defaults(run=run_scan)

    p = sub.add_parser("report", help="write a self-contained HTML report",
                       description="Write one self-contained HTML file: the data, the ROC curves with AUC and "
                       "threshold intervals, the cost curves with their band, and the comparison of the models, "
                       "each with its table and CSV.", epilog=_EPILOG)
    _source(p, "FILE", "a CSV, TSV, Parquet or xlsx file")
    p.add_argument("--models", type=names, metavar="A,B", help="score columns (default: rocci's guess)")
    p.add_argument("-o", "--output", default="rocci_report.html", metavar="FILE",
                   help="where to write the report (default rocci_report.html)")
    p.add_argument("--fpr", type=open_rate, default=0.1, help="false positive rate of the comparison (default 0.1)")
    cost = p.add_mutually_exclusive_group()
    cost.add_argument("--cost", type=cost_pair, metavar="FN,FP",
                      help="costs of a false negative and a false positive (default 1,1)")
    cost.add_argument("--w", type=operating_w, metavar="W", help="the operating point of the cost section")
    p.add_argument("--prior", type=open_rate, metavar="P", help="prior for --cost (default: the data's)")
    _level(p)
    p.set_defaults(run=run_report)
    return parser


def _source(p: argparse.ArgumentParser, metavar: str, what: str) -> None:
    p.add_argument("source", metavar=metavar, help=what)
    p.add_argument("--label", required=True, metavar="COL", help="the column of true classes (two values)")
    p.add_argument("--pos", metavar="VALUE", help="the positive class (default: rocci's guess, said in the output)")


def _level(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", type=confidence_level, default=0.95, help="confidence level (default 0.95)")


def _scan_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scan", action="store_true",
                   help="read FILE with rocci.scan (counts made by DuckDB) even when it is one file")
    p.add_argument("--table", metavar="TABLE", help="the table to read from a DuckDB database")


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``rocci`` with the arguments ``argv`` (default ``sys.argv[1:]``) and return the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name, e.g. ``["compare", "data.csv", "--label", "y", ...]``.
    out, err : text streams, optional
        Where the results and the messages go (default ``sys.stdout`` and ``sys.stderr``).

    Returns
    -------
    int
        0 done (and the ``--gate`` holds), 1 the gate does not hold, 2 bad input: an argparse usage error,
        or a :class:`rocci.InputError`, a file error or a missing optional package, reported on ``err`` in
        one line starting ``rocci: error:``.
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    for stream in (out, err):
        _tolerant(stream)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (argparse printed it)
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        return args.run(args, out, err)
    except (InputError, OSError, ImportError) as exc:
        text = one_line(exc) if isinstance(exc, InputError) else _system_error(exc)
        err.write(f"rocci: error: {text}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        err.write("rocci: interrupted\n")
        return 130


def _system_error(exc: BaseException) -> str:
    """A file or package error in words: ``cannot read 'x.csv': Permission denied``."""
    if isinstance(exc, ImportError):
        name = getattr(exc, "name", None) or "a package"
        return f"{one_line(exc)} (install {name} to use this command)"
    filename = getattr(exc, "filename", None)
    reason = getattr(exc, "strerror", None) or one_line(exc)
    return f"{filename}: {reason}" if filename else reason


def _tolerant(stream: TextIO) -> None:
    """Let a console that cannot show a character (a model's name) print a replacement instead of failing."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")
        except (ValueError, OSError):  # pragma: no cover - a stream that refuses
            pass


def _version() -> str:
    from .. import __version__

    return __version__
