"""Coverage lab page, driven by AppTest: every preset at its own defaults, exact curves, a simulation run,
plain names and the Method note, bad input, CSV."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import APP, TIMEOUT, AppTest, assert_clean, decode, figure, traces

from rocci.coverage import EXPERIMENTS, run_experiment
from rocci.coverage.experiments import FPR_GRID

PAGE = "app_pages/coverage_lab.py"
#: Simulated presets whose default run takes a few seconds (timed: fig4.10 ≈ 5 s, fig5.5 ≈ 9 s): the test
#: presses Run at the defaults.  The others (20–45 s each) are opened and checked up to the Run button.
CHEAP_SIMULATIONS = ("fig4.10", "fig5.5")


def new_app(page: str, query: dict | None = None) -> AppTest:
    """Like apphelpers.new_app, but runs once before switching: the page's file name (coverage_lab)
    differs from its url_path (coverage), and AppTest matches pages by url_path after the first run."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    assert [t.value for t in at.title] == ["Coverage lab"]
    return at


@pytest.fixture
def lab():
    at = new_app(PAGE)
    assert_clean(at)
    return at


def test_default_preset_draws_exact_curves_with_target(lab):
    at = lab
    assert at.selectbox(key="cov_exp").value == "fig4.2"
    spec = figure(at, "cov_chart")
    exact = traces(spec, "exact")
    assert len(exact) == 5  # five shape panels, one method
    assert traces(spec, "target")
    assert all(t.get("error_y") in (None, {}) or not t["error_y"].get("visible") for t in exact)
    # the drawn curve is rocci's exact coverage
    ref = run_experiment("fig4.2").frame
    first = ref[ref["panel"] == ref["panel"].iloc[0]]
    np.testing.assert_allclose(decode(exact[0]["y"]), first["coverage"].to_numpy())
    assert "Exact coverage" in " ".join(c.value for c in at.caption)
    assert not at.button  # exact: no run button


def test_preset_fig43_shows_the_dip_and_url(lab):
    at = lab
    at.selectbox(key="cov_exp").set_value("fig4.3").run()
    assert_clean(at)
    assert at.query_params["cov_exp"] == "fig4.3"  # the link keeps the short figure name
    spec = figure(at, "cov_chart")
    exact = traces(spec, "exact")
    assert len(exact) == 4
    y5 = decode(exact[3]["y"])
    x5 = decode(exact[3]["x"])
    assert y5[np.isclose(x5, 0.13)][0] == pytest.approx(0.796038, abs=1e-6)
    summary = next(df.value for df in at.dataframe if "min" in df.value.columns)
    assert summary["min"].min() == pytest.approx(0.796038, abs=1e-6)
    assert at.get("download_button")


def test_simulation_runs_on_button_with_error_bars():
    at = new_app(PAGE, {"cov_exp": "fig5.3", "fig5.3_small": "true"})
    assert_clean(at)
    assert not at.get("plotly_chart")
    at.number_input(key="fig5.3s_reps").set_value(40).run()
    at.button(key="cov_run").click().run()
    assert_clean(at)
    spec = figure(at, "cov_chart")
    sims = traces(spec, "simulation")
    assert sims and all(t["error_y"]["visible"] for t in sims)
    assert "Simulated coverage over 40 test sets" in " ".join(c.value for c in at.caption)
    # A rerun keeps the finished study (no second press needed).
    at.run()
    assert traces(figure(at, "cov_chart"), "simulation")


def test_each_preset_keeps_its_own_parameters(lab):
    """Switching presets shows each experiment's own values (n = 100 for fig4.2, 10,000 for fig4.3)."""
    at = lab
    at.number_input(key="fig4.2_n").set_value(50).run()
    at.selectbox(key="cov_exp").set_value("fig4.3").run()
    assert_clean(at)
    assert at.number_input(key="fig4.3_n").value == 10_000
    assert at.select_slider(key="fig4.3_level").value == 0.9
    at.selectbox(key="cov_exp").set_value("fig4.2").run()
    assert at.number_input(key="fig4.2_n").value == 50
    # the reduced size has its own widgets with the small defaults
    at.toggle(key="fig4.2_small").set_value(True).run()
    assert_clean(at)
    assert at.button_group(key="fig4.2s_shapes").value == ["N(1,1) / N(0,1)", "N(2,2) / N(0,1)"]


def test_bad_list_gives_a_warning_not_an_error():
    at = new_app(PAGE, {"cov_exp": "fig4.4"})
    at.text_input(key="fig4.4_sizes").set_value("25, ten").run()
    assert not at.exception
    assert at.warning and "not a number" in at.warning[0].value
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("name", list(EXPERIMENTS))
def test_every_preset_opens_at_its_own_defaults(name):
    """Each preset, opened from its link with nothing changed: no error, warning or exception; its plain name
    beside the thesis figure; an exact preset draws at once, a simulated one offers its Run button (cheap ones
    are run: the chart appears with every point of the preset's own grid)."""
    exp = EXPERIMENTS[name]
    at = new_app(PAGE, {"cov_exp": name})
    assert_clean(at)
    assert not at.warning, [w.value for w in at.warning]
    box = at.selectbox(key="cov_exp")
    assert box.value == name
    assert box.format_func(name) == exp.choice and len(exp.choice) <= 50  # fits a phone's select box
    assert f"#### {exp.label}" in [m.value.replace("\\", "") for m in at.main.markdown]
    if name.startswith("fig"):
        assert exp.label.endswith(f"(thesis fig. {name[3:]})")
        assert ": coverage vs " in exp.label or "fixed vs random" in exp.label
    else:  # beyond the thesis
        assert "thesis" not in exp.label
    # Plain words on the page; the thesis's equation and algorithm numbers only in the Method note.
    note = next(e for e in at.expander if e.label == "Method")
    assert exp.method in " ".join(c.value for c in note.caption).replace("\\", "")
    outside = " ".join(m.value for m in at.main.markdown if not m.value.startswith("####")) + " ".join(
        c.value for c in at.main.caption if c not in note.caption)
    for word in ("Algorithm", "eq.", "eqs.", "§"):
        assert word not in outside, (word, outside)
    if exp.kind == "exact":
        assert not at.button, "an exact preset needs no Run button"
        spec = figure(at, "cov_chart")
        assert traces(spec, "exact") and traces(spec, "target")
        return
    assert at.button(key="cov_run").label == "Run simulation"
    assert not at.get("plotly_chart")
    if name not in CHEAP_SIMULATIONS:
        return
    at.button(key="cov_run").click().run()
    assert_clean(at)
    spec = figure(at, "cov_chart")
    sims = traces(spec, "simulation")
    assert sims and all(t["error_y"]["visible"] for t in sims)
    ref = exp.defaults.get("rates", exp.defaults.get("w"))
    assert {len(decode(t["x"])) for t in sims} == {len(ref)}


@pytest.mark.parametrize("name", ["fig4.6", "fig4.7", "fig4.8"])
def test_vertical_presets_keep_the_thesis_fpr_grid(name):
    """The vertical-averaging presets open with all 19 FPR levels of their curve (0.05 … 0.95), not a warning
    that asks for fewer, and their reduced size runs and draws every method."""
    at = new_app(PAGE, {"cov_exp": name})
    assert_clean(at)
    assert not at.warning
    typed = [float(v) for v in at.text_input(key=f"{name}_fpr").value.split(",")]
    assert typed == list(FPR_GRID) and len(typed) == 19
    methods = at.button_group(key=f"{name}_methods")
    assert methods.value == ["score", "percentile", "kernel", "bootstrap"]
    assert "Exact bootstrap, score interval" in methods.options  # whole names (pills are never cut)
    # More than 25 levels: a warning that names the limit.
    at.text_input(key=f"{name}_fpr").set_value(", ".join(f"{v / 40:g}" for v in range(1, 40))).run()
    assert not at.exception
    assert at.warning and "At most 25 FPR levels" in at.warning[0].value
    # The reduced size runs.
    quick = new_app(PAGE, {"cov_exp": name, f"{name}_small": "true"})
    quick.button(key="cov_run").click().run()
    assert_clean(quick)
    sims = traces(figure(quick, "cov_chart"), "simulation")
    assert len(sims) == 4 * len({t["xaxis"] for t in sims})


def test_old_links_and_an_unknown_preset():
    assert new_app(PAGE, {"cov_exp": "fig5.2"}).selectbox(key="cov_exp").value == "fig5.2"
    at = new_app(PAGE, {"cov_exp": "fig9.9"})
    assert_clean(at)
    assert at.selectbox(key="cov_exp").value == "fig4.2"


def test_precision_recall_preset_runs_and_draws_one_panel_per_share():
    """The precision-at-recall preset (beyond the thesis): its own controls (instances per test set, shares of
    positives, μ, recall levels, its three methods), and its reduced size runs from the page: one panel per share
    of positives, three series, x = the recall levels, axis titled Recall."""
    at = new_app(PAGE, {"cov_exp": "pr_recall"})
    assert_clean(at)
    assert at.number_input(key="pr_recall_n").value == 2000
    assert at.number_input(key="pr_recall_n").label == "Instances per test set (n)"
    assert at.text_input(key="pr_recall_priors").value == "0.01, 0.1, 0.5"
    assert at.number_input(key="pr_recall_mu").value == 1.5
    assert [float(v) for v in at.text_input(key="pr_recall_recall").value.split(",")] == [
        0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    assert at.button_group(key="pr_recall_methods").value == ["percentile", "score", "wald", "bootstrap"]
    assert at.number_input(key="pr_recall_boot").value == 1000
    # A share too small for n: the runner's message, not an exception.
    at.text_input(key="pr_recall_priors").set_value("0.0001").run()
    at.button(key="cov_run").click().run()
    assert not at.exception and at.error and "at least one positive" in at.error[0].value
    quick = new_app(PAGE, {"cov_exp": "pr_recall", "pr_recall_small": "true"})
    quick.number_input(key="pr_recalls_reps").set_value(10).run()
    quick.button(key="cov_run").click().run()
    assert_clean(quick)
    spec = figure(quick, "cov_chart")
    sims = traces(spec, "simulation")
    assert len(sims) == 2 * 4  # two panels (10% and 50% positives), four methods
    assert {tuple(decode(t["x"])) for t in sims} == {(0.3, 0.5, 0.7)}
    assert spec["layout"]["xaxis"]["title"]["text"] == "Recall"
    summary = next(df.value for df in quick.dataframe if "min" in df.value.columns)
    assert set(summary["panel"]) == {"10% positives (40 of 400)", "50% positives (200 of 400)"}
