"""Shared by the command-line tests: run ``rocci`` in-process and the bundled two-model sample."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd

import rocci
from rocci.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "breast_cancer_cv.csv"
A, B = "logistic", "naive_bayes"


def run(*argv) -> tuple[int, str, str]:
    """``rocci *argv`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def sample() -> pd.DataFrame:
    return rocci.load_table(SAMPLE)


def assert_bad_input(code: int, out: str, err: str) -> str:
    """Exit status 2 with one line on stderr starting 'rocci: error:' and no traceback; the message."""
    assert code == 2, (code, out, err)
    assert err.startswith("rocci: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err
