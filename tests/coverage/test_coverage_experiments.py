"""rocci.coverage experiments, baselines and command line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci import populations as P
from rocci.coverage import EXPERIMENTS, list_experiments, run_experiment
from rocci.coverage.__main__ import main as cli
from rocci.coverage.baselines import bootstrap_vertical_interval, kernel_vertical_interval, reference_bandwidth
from rocci.plots.coverage import coverage_figure

COLUMNS = ["experiment", "panel", "series", "x", "coverage", "se", "target", "kind", "replicates"]
THESIS_FIGURES = ["fig4.2", "fig4.3", "fig4.4", "fig4.5", "fig4.6", "fig4.7", "fig4.8", "fig4.9", "fig4.10",
                  "fig5.1", "fig5.2", "fig5.3", "fig5.4", "fig5.5", "fig5.6", "fig5.7", "fig5.8", "fig5.9",
                  "fig5.10", "fig5.11", "fig5.12"]


def test_registry_covers_every_thesis_figure():
    """Every coverage figure of the thesis, in order, then the studies beyond it (simultaneous bands, precision at
    fixed recall)."""
    assert list(EXPERIMENTS) == THESIS_FIGURES + ["bands", "pr_recall"]
    table = list_experiments()
    assert list(table["name"]) == THESIS_FIGURES + ["bands", "pr_recall"]
    assert set(table["x"]) == {"total_positive_rate", "fpr", "w", "n", "recall"}
    for exp in EXPERIMENTS.values():
        assert exp.description and exp.title and "level" in exp.defaults
        assert set(exp.small) <= set(exp.defaults)


@pytest.mark.parametrize("name", THESIS_FIGURES + ["bands", "pr_recall"])
def test_each_experiment_runs_end_to_end_small(name):
    calls = []
    study = run_experiment(name, small=True, progress=lambda f, m: calls.append(f))
    f = study.to_frame()
    assert list(f.columns) == COLUMNS + (["area"] if name == "bands" else [])
    assert len(f) > 0 and not f[["x", "coverage", "se"]].isna().any().any()
    assert ((f["coverage"] >= 0) & (f["coverage"] <= 1)).all() and (f["se"] >= 0).all()
    assert (f["target"] == study.params["level"]).all()
    assert set(f["kind"]) <= {"exact", "simulation"}
    assert (f.loc[f["kind"] == "exact", "se"] == 0).all()
    sim = f[f["kind"] == "simulation"]
    np.testing.assert_allclose(sim["se"], np.sqrt(sim["coverage"] * (1 - sim["coverage"]) / sim["replicates"]))
    assert calls and calls[-1] == 1.0
    fig = coverage_figure(study)
    metas = {t.meta[0] for t in fig.data}
    assert "target" in metas and metas - {"target"} == set(f["kind"])


def test_each_preset_has_a_plain_name_and_a_method_note():
    """A plain name beside the thesis figure ("Vertical averaging: coverage vs FPR, … (thesis fig. 4.6)"); the
    plain description has no equation, algorithm or section numbers (they are in ``method``)."""
    labels = [e.label for e in EXPERIMENTS.values()]
    assert len(set(labels)) == len(labels)
    assert EXPERIMENTS["fig4.6"].label == "Vertical averaging: coverage vs FPR, score shapes (thesis fig. 4.6)"
    for exp in EXPERIMENTS.values():
        if exp.name.startswith("fig"):
            assert exp.label == f"{exp.title} (thesis fig. {exp.name[3:]})"
            assert exp.choice == f"{exp.short} (fig. {exp.name[3:]})" and len(exp.choice) <= 50
        else:  # beyond the thesis: no figure number
            assert exp.label == exp.title and exp.choice == exp.short and len(exp.choice) <= 50
        assert len(exp.label) <= 90
        assert exp.method
        for jargon in ("Algorithm", "eq.", "eqs.", "§", "α", "θ", "ρ"):
            assert jargon not in exp.title + exp.description, (exp.name, jargon)
    assert "Algorithm 4.3" in EXPERIMENTS["fig4.6"].method and "19 levels" in EXPERIMENTS["fig4.6"].method
    fig = coverage_figure(run_experiment("fig4.4", small=True))
    title = fig.layout.title.text.split("<br>")
    assert " ".join(title[:-1]) == EXPERIMENTS["fig4.4"].title and title[-1] == "<sup>thesis fig. 4.4</sup>"
    assert max(len(t) for t in title[:-1]) <= 40  # wrapped: plotly never wraps a title on a narrow chart
    # The legend is under the panels, one entry per line, in a margin that holds every entry.
    entries = [t for t in fig.data if t.showlegend is not False]
    assert fig.layout.legend.orientation == "v" and fig.layout.margin.b >= 20 * len(entries)


def test_x_axes_follow_the_thesis():
    assert EXPERIMENTS["fig4.2"].x == "total_positive_rate"
    assert EXPERIMENTS["fig4.6"].x == "fpr"
    assert EXPERIMENTS["fig5.1"].x == "w"


def test_adjustment_presets():
    assert [EXPERIMENTS[n].defaults["add"] for n in ("fig5.7", "fig5.8", "fig5.9")] == [2.0, 0.5, 3.0]
    assert [EXPERIMENTS[n].defaults["add"] for n in ("fig5.10", "fig5.11", "fig5.12")] == [0.5, 0.125, 1.0]
    assert EXPERIMENTS["fig5.4"].defaults["formulas"] == "full"
    assert EXPERIMENTS["fig5.5"].defaults["formulas"] == "stratified"
    assert EXPERIMENTS["fig5.5"].defaults["design"] == "full"


def test_overrides_and_bad_parameters():
    s = run_experiment("fig4.4", sizes=[30], rates=[0.5], level=0.8, methods=["wald", "wilson"])
    assert set(s.frame["panel"]) == {"n = 30"} and set(s.frame["series"]) == {"wald", "wilson"}
    assert s.target == 0.8
    with pytest.raises(rocci.InputError, match="Unknown experiment"):
        run_experiment("fig9.9")
    with pytest.raises(rocci.InputError, match="no parameter"):
        run_experiment("fig4.3", bogus=1)
    with pytest.raises(rocci.InputError, match="whole number"):
        run_experiment("fig4.3", n=10.5)
    with pytest.raises(rocci.InputError, match="level"):
        run_experiment("fig4.3", level=1.5)


def test_wald_breaks_near_the_ends_and_wilson_does_not():
    """The thesis: Wald breaks near total positive rates 0 and 1; score (Wilson) and Agresti do not.

    Exact values, n = 100 per class, α = 5%: at rate .01 Wald covers 8.5% of the time (N(1,1)/N(0,1)); Wilson
    fluctuates (86%) but stays near the target; Agresti–Coull is conservative (99.7%).
    """
    s = run_experiment("fig4.2", methods=["wald", "wilson", "agresti-coull"], rates=[0.01, 0.99, 0.5])
    f = s.frame
    ends = f[f["x"] != 0.5].groupby("series")["coverage"].min()
    middle = f[f["x"] == 0.5].groupby("series")["coverage"].min()
    assert ends["wald"] < 0.25
    assert ends["wilson"] > 0.85 and ends["agresti-coull"] > 0.94
    assert (middle > 0.93).all()


def test_kernel_interval_solves_for_the_fpr_and_is_consistent():
    pop = P.Population(P.normal(1, 1), P.normal(0, 1))
    rng = np.random.default_rng(0)
    pos, neg = pop.sample(3000, 3000, rng, size=2)
    f = np.array([0.1, 0.5, 0.9])
    est, low, high = kernel_vertical_interval(pos, neg, f, confidence_level=0.95)
    assert np.all(low <= est) and np.all(est <= high)
    assert np.max(np.abs(est - pop.roc(f))) < 0.03
    h = reference_bandwidth(neg)
    np.testing.assert_allclose(h, (4 / 3000) ** (1 / 3) * neg.std(axis=1, ddof=1))


def test_bootstrap_interval_equals_a_plain_loop_with_ties():
    """The vectorised pROC-style bootstrap equals a plain loop over the same resamples (tied scores)."""
    rng = np.random.default_rng(4)
    pos = np.round(rng.normal(1, 1, 23), 1)
    neg = np.round(rng.normal(0, 1, 17), 1)
    r = np.array([1, 4, 9, 16])
    low, high = bootstrap_vertical_interval(pos, neg, r, confidence_level=0.9, n_boot=300, rng=12)
    g = np.random.default_rng(12)
    ip = g.integers(0, pos.size, (300, pos.size))
    ineg = g.integers(0, neg.size, (300, neg.size))
    tpr = np.empty((300, r.size))
    for b in range(300):
        bn = np.sort(neg[ineg[b]])[::-1]
        for j, rr in enumerate(r):
            tpr[b, j] = np.mean(pos[ip[b]] >= bn[rr - 1])
    lo2, hi2 = np.quantile(tpr, [0.05, 0.95], axis=0)
    np.testing.assert_array_equal(low, lo2)
    np.testing.assert_array_equal(high, hi2)


def test_cli_writes_csv_and_html(tmp_path, capsys):
    assert cli(["fig4.3", "--small", "--out", str(tmp_path), "--quiet"]) == 0
    df = pd.read_csv(tmp_path / "coverage_fig4.3.csv")
    assert list(df.columns) == COLUMNS
    assert df["coverage"].iloc[0] == pytest.approx(0.796038, abs=1e-6)
    html = (tmp_path / "coverage_fig4.3.html").read_text()
    assert "plotly" in html.lower() and len(html) > 10_000
    assert cli(["fig5.3", "--small", "--out", str(tmp_path), "--quiet", "--replicates", "20", "--seed", "3",
                "-p", "rhos=0.3,0.9"]) == 0
    df = pd.read_csv(tmp_path / "coverage_fig5.3.csv")
    assert set(df["series"]) == {"ρ = 0.3", "ρ = 0.9"} and (df["replicates"] == 20).all()
    assert cli(["--list"]) == 0
    assert "fig5.12" in capsys.readouterr().out
    assert cli(["fig4.3", "-p", "nope=1", "--out", str(tmp_path), "--quiet"]) == 2


def test_bands_study_rows_are_the_band_simulation():
    """The "bands" preset is rocci.bands.coverage.simulate_band_coverage, relabelled for the lab (panel per θ,
    series per band, x = n), with each band's mean area kept."""
    from rocci import populations as P
    from rocci.bands.coverage import BAND_METHODS, simulate_band_coverage

    study = run_experiment("bands", small=True)
    ref = simulate_band_coverage({"θ = 3": P.binormal(3.0)}, ns=(50,), replicates=5, seed=0, n_boot=200)
    f = study.to_frame()
    assert list(f["series"]) == [BAND_METHODS[m] for m in ref["method"]]
    np.testing.assert_array_equal(f["coverage"], ref["coverage"])
    np.testing.assert_array_equal(f["area"], ref["area"])
    assert (f["x"] == 50).all() and (f["panel"] == "θ = 3").all()
