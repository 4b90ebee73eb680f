"""``rocci compare``: the verdict's numbers are the API's on the same data (CSV, TSV, xlsx, Parquet, a scan of a
CSV, a folder or a DuckDB database), --json, the gate's exit statuses, and exit status 2 with one line for each
bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import duckdb
import numpy as np
import pytest
from clihelpers import A, B, ROOT, SAMPLE, assert_bad_input, run, sample

import rocci
from rocci.cli.verdict import GATE_KEYS

KEYS = ["auc_a", "auc_b", "delta_auc", "delta_auc_low", "delta_auc_high", "pvalue", "delta_tpr", "delta_tpr_low",
        "delta_tpr_high", "p_a_better", "p_tie", "fpr", "delta_cost", "delta_cost_low", "delta_cost_high",
        "p_a_cheaper", "n_pos", "n_neg", "rows_dropped"]


def expected(y, a, b, *, fpr=0.1, cost=(5.0, 1.0), level=0.95) -> dict:
    """The numbers straight from the API, under the CLI's keys."""
    auc = rocci.compare_auc(y, a, b, confidence_level=level)
    vc = rocci.compare_vertical(y, a, b, fpr=[fpr], method="percentile", confidence_level=level)
    tpr_a = rocci.vertical_ci(y, a, fpr=[fpr]).tpr[0]
    tpr_b = rocci.vertical_ci(y, b, fpr=[fpr]).tpr[0]
    w = rocci.operating_point(np.mean(y), *cost)
    cc = rocci.compare_cost(y, a, b, w=[w], confidence_level=level)
    return {
        "auc_a": auc.auc_a, "auc_b": auc.auc_b, "delta_auc": auc.delta_auc, "delta_auc_std": auc.delta_auc_std,
        "delta_auc_low": auc.delta_auc_low, "delta_auc_high": auc.delta_auc_high, "pvalue": auc.pvalue,
        "fpr": vc.fpr[0], "r": vc.r[0], "tpr_a": tpr_a, "tpr_b": tpr_b, "delta_tpr": tpr_a - tpr_b,
        "delta_tpr_mean": vc.delta_tpr_mean[0], "delta_tpr_std": vc.delta_tpr_std[0],
        "delta_tpr_low": vc.delta_tpr_low[0], "delta_tpr_high": vc.delta_tpr_high[0],
        "p_a_better": vc.p_a_better[0], "p_tie": vc.p_tie[0], "w": w,
        "threshold_a": cc.threshold_a[0], "threshold_b": cc.threshold_b[0], "delta_cost": cc.delta_cost[0],
        "delta_cost_std": cc.delta_cost_std[0], "delta_cost_low": cc.delta_cost_low[0],
        "delta_cost_high": cc.delta_cost_high[0], "p_a_cheaper": cc.p_a_cheaper[0],
        "n_pos": int(np.sum(y)), "n_neg": int(np.sum(~np.asarray(y))),
    }


@pytest.fixture(scope="module")
def api():
    df = sample()
    return expected((df["label"] == "malignant").to_numpy(), df[A].to_numpy(), df[B].to_numpy())


def _sources(tmp_path) -> dict:
    """The bundled CSV, a Parquet copy, a folder of Parquet parts and a DuckDB database (the last two scanned)."""
    df = sample()
    parquet = tmp_path / "scores.parquet"
    df.to_parquet(parquet)
    folder = tmp_path / "parts"
    folder.mkdir()
    df.iloc[:250].to_parquet(folder / "a.parquet")
    df.iloc[250:].to_parquet(folder / "b.parquet")
    tsv, xlsx = tmp_path / "scores.tsv", tmp_path / "scores.xlsx"
    df.to_csv(tsv, sep="\t", index=False)
    df.to_excel(xlsx, index=False)
    db = tmp_path / "scores.duckdb"
    con = duckdb.connect(str(db))
    con.register("frame", df)
    con.execute("CREATE TABLE scores AS SELECT * FROM frame")
    con.close()
    return {"csv": [SAMPLE], "tsv": [tsv], "xlsx": [xlsx], "parquet": [parquet], "folder": [folder],
            "csv --scan": [SAMPLE, "--scan"], "duckdb": [db, "--table", "scores"]}


@pytest.mark.parametrize("kind", ["csv", "tsv", "xlsx", "parquet", "folder", "csv --scan", "duckdb"])
def test_json_numbers_are_the_apis(tmp_path, api, kind):
    source = _sources(tmp_path)[kind]
    code, out, err = run("compare", *source, "--label", "label", "--a", A, "--b", B, "--cost", "5,1", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert set(KEYS) <= set(got) and set(GATE_KEYS) <= set(got)
    assert got["from_counts"] == (kind in ("folder", "csv --scan", "duckdb"))
    assert got["pos_label"] == "malignant" and got["pos_label_chosen"].startswith("guessed")
    assert got["n_rows"] == 569 and got["rows_dropped"] == 0 and got["unavailable"] == {}
    for key, value in api.items():  # counts give the raw data's results to round-off
        assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key


def test_text_verdict_prints_the_apis_numbers(api):
    code, out, err = run("compare", SAMPLE, "--label", "label", "--a", A, "--b", B, "--cost", "5,1")
    assert code == 0 and err == ""
    assert "positive class 'malignant' (guessed: a usual name for the positive class" in out
    assert "569 read, 569 used, 0 dropped" in out and "212 positives, 357 negatives" in out
    for key in ("delta_auc", "delta_auc_low", "delta_auc_high", "delta_tpr", "delta_tpr_low", "delta_tpr_high",
                "delta_cost", "delta_cost_low", "delta_cost_high"):
        assert f"{api[key]:+.4f}" in out, key
    for key in ("auc_a", "auc_b", "p_a_better", "p_tie", "p_a_cheaper"):
        assert f"{api[key]:.4f}" in out, key
    assert f"r = {api['r']} of 357 negatives" in out
    assert f"w = {api['w']:.4f} (prior {212 / 569:.4f} from the data" in out
    assert "logistic is better (the interval excludes 0)" in out  # ΔAUC's DeLong interval is above 0


def test_rows_with_a_missing_value_are_dropped_and_counted(tmp_path):
    df = sample()
    df.loc[[3, 10, 11], A] = np.nan
    df.loc[[10, 20], "label"] = None
    path = tmp_path / "holes.csv"
    df.to_csv(path, index=False)
    code, out, _ = run("compare", path, "--label", "label", "--a", A, "--b", B, "--json")
    got = json.loads(out)
    keep = df[["label", A, B]].notna().all(axis=1)
    assert code == 0 and got["rows_dropped"] == 4 and got["n_rows"] == 569
    assert got["dropped_by_column"] == {"label": 2, A: 3, B: 0}
    rows = df[keep]
    ref = rocci.compare_auc(rows["label"] == "malignant", rows[A], rows[B])
    assert got["delta_auc"] == pytest.approx(ref.delta_auc, rel=1e-12)
    assert got["w"] is None and got["delta_cost"] is None  # no --cost, no --w: no cost comparison
    _, text, _ = run("compare", path, "--label", "label", "--a", A, "--b", B)
    assert "565 used, 4 dropped for a missing value (label 2, logistic 3)" in text
    assert "Cost diff. not computed" in text


def test_positive_class_given_and_matched_to_the_labels(tmp_path):
    df = sample().assign(y=lambda d: (d["label"] == "benign").astype(int))
    path = tmp_path / "numeric.parquet"
    df.to_parquet(path)
    code, out, _ = run("compare", path, "--label", "y", "--pos", "1", "--a", A, "--b", B, "--json", "--w", "0.4")
    got = json.loads(out)
    assert code == 0 and got["pos_label"] == 1 and got["pos_label_chosen"] == "given with --pos"
    ref = rocci.compare_auc(df["y"] == 1, df[A], df[B])
    assert got["delta_auc"] == pytest.approx(ref.delta_auc) and got["n_pos"] == 357
    code, out, _ = run("compare", SAMPLE, "--label", "label", "--pos", "Benign", "--a", A, "--b", B, "--json")
    assert json.loads(out)["pos_label"] == "benign"  # case-insensitive match of a text label


def test_gate_exit_status(api):
    base = ["compare", SAMPLE, "--label", "label", "--a", A, "--b", B, "--w", "0.3"]
    code, out, _ = run(*base, "--gate", "p_a_better>=0.5 and delta_auc>0 and delta_cost < 0")
    assert code == 0 and "Gate       holds" in out
    code, out, err = run(*base, "--gate", "delta_auc>0 and p_a_better>=0.95")
    assert code == 1 and err == ""
    assert f"FAILED: p_a_better >= 0.95 (p_a_better = {api['p_a_better']:.6g})" in out
    assert "delta_auc > 0" not in out.split("FAILED")[1]  # only the clause that failed
    code, out, err = run(*base, "--gate", "p_a_better>=0.95", "--json")
    got = json.loads(out)  # stdout stays one JSON object; the failure is also on stderr
    assert code == 1 and got["gate"] == {"expression": "p_a_better>=0.95", "holds": False,
                                         "failed": ["p_a_better >= 0.95"]}
    assert err.startswith("rocci: gate failed: p_a_better >= 0.95")
    code, _, _ = run(*base, "--gate", "n_pos == 212 and rows_dropped <= 0 and pvalue < 1e-3")
    assert code == 0


@pytest.mark.parametrize("argv,message", [
    (["missing.csv", "--label", "label", "--a", A, "--b", B], "File not found"),
    ([SAMPLE, "--label", "nope", "--a", A, "--b", B], "no column 'nope'"),
    ([SAMPLE, "--label", "label", "--a", "nope", "--b", B], "no column 'nope'"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--gate", "auc>0.9"], "unknown key 'auc'"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--gate", "delta_auc=>0"], "expected an operator"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--gate", "delta_auc>0 or p_tie<1"], "expected 'and'"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--gate", "delta_auc>"], "expected a number"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--gate", "__import__('os')"], "unknown key '__import__'"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--gate", ""], "--gate is empty"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--gate", "delta_cost<0"], "operating condition"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--pos", "maybe"], "--pos 'maybe' is not a value"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", A], "both name"),
    ([SAMPLE, "--label", "label", "--a", A, "--b", B, "--prior", "0.2"], "--prior goes with --cost"),
    ([SAMPLE, "--label", "fold", "--a", A, "--b", B], "distinct values"),  # five classes
])
def test_bad_input_exits_2_with_one_line(argv, message):
    err = assert_bad_input(*run("compare", *argv))
    assert message in err


def test_a_label_with_one_class_exits_2(tmp_path):
    df = sample()
    path = tmp_path / "benign.csv"
    df[df["label"] == "benign"].to_csv(path, index=False)
    for extra in ([], ["--scan"]):
        err = assert_bad_input(*run("compare", path, "--label", "label", "--a", A, "--b", B, *extra))
        assert "Only one label value found" in err


def test_a_database_needs_its_table(tmp_path):
    db = _sources(tmp_path)["duckdb"][0]
    err = assert_bad_input(*run("compare", db, "--label", "label", "--a", A, "--b", B))
    assert "--table" in err


@pytest.mark.parametrize("argv", [
    ["compare", SAMPLE, "--label", "label", "--a", A],  # --b missing
    ["compare", SAMPLE, "--label", "label", "--a", A, "--b", B, "--level", "95"],
    ["compare", SAMPLE, "--label", "label", "--a", A, "--b", B, "--cost", "1,1", "--w", "0.5"],
    ["compare", SAMPLE, "--label", "label", "--a", A, "--b", B, "--cost", "1"],
    ["compare", SAMPLE, "--label", "label", "--a", A, "--b", B, "--fpr", "1.5"],
    [],
])
def test_usage_errors_exit_2(argv, capsys):
    code, out, _ = run(*argv)
    assert code == 2 and out == ""
    assert "usage: rocci" in capsys.readouterr().err  # argparse's own message


def test_a_statistic_that_cannot_run_says_so(tmp_path):
    """Two models that rank every instance alike: DeLong's variance is 0, so ΔAUC has no test; the AUCs, the
    TPR law and the cost are still given, and a gate on delta_auc does not hold."""
    df = sample().assign(copy=lambda d: 2 * d[A])
    path = tmp_path / "copy.csv"
    df.to_csv(path, index=False)
    code, out, _ = run("compare", path, "--label", "label", "--a", A, "--b", "copy", "--w", "0.5", "--json",
                       "--gate", "delta_auc>=0")
    got = json.loads(out)
    assert code == 1 and "DeLong variance" in got["unavailable"]["auc"]
    assert got["delta_auc"] is None and got["auc_a"] == pytest.approx(got["auc_b"])
    assert got["p_tie"] == pytest.approx(1.0) and got["delta_cost"] == pytest.approx(0.0)
    code, out, _ = run("compare", path, "--label", "label", "--a", A, "--b", "copy")
    assert code == 0 and "AUC diff.  not available: The DeLong variance" in out


def _python_m_rocci(*argv) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rocci", *map(str, argv)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_python_dash_m_rocci_bad_input():
    """Through a real interpreter, bad input: exit status 2 and one line on stderr, no traceback."""
    proc = _python_m_rocci("compare", ROOT / "nothing.csv", "--label", "label", "--a", A, "--b", B)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 2 and stdout == ""
    assert stderr.startswith("rocci: error: File not found") and stderr.count("\n") == 1
    assert "Traceback" not in stderr


@pytest.mark.slow  # three interpreters, each importing numpy, scipy and pandas: 2-8 s on the 2-core machine
def test_python_dash_m_rocci_exit_statuses():
    """Through a real interpreter: 0 and 1 from the gate, 2 for a usage error, never a traceback."""
    base = ["compare", SAMPLE, "--label", "label", "--a", A, "--b", B]
    runs = {0: base + ["--gate", "delta_auc>0"], 1: base + ["--gate", "p_a_better>=0.99"], 2: base[:-2]}
    started = {code: _python_m_rocci(*argv) for code, argv in runs.items()}  # side by side
    for code, proc in started.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == code, (code, stdout, stderr)
        assert "Traceback" not in stderr
    assert "usage: rocci compare" in stderr and "the following arguments are required: --b" in stderr
