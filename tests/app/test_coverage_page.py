"""Coverage lab page, driven by AppTest: presets, exact curves, a simulation run, bad input, CSV."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import APP, TIMEOUT, AppTest, assert_clean, decode, figure, traces

from rocci.coverage import run_experiment

PAGE = "app_pages/coverage_lab.py"


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
    assert at.button_group(key="cov_exp").value == "fig4.2"
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
    at.button_group(key="cov_exp").set_value("fig4.3").run()
    assert_clean(at)
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
    at.button_group(key="cov_exp").set_value("fig4.3").run()
    assert_clean(at)
    assert at.number_input(key="fig4.3_n").value == 10_000
    assert at.select_slider(key="fig4.3_level").value == 0.9
    at.button_group(key="cov_exp").set_value("fig4.2").run()
    assert at.number_input(key="fig4.2_n").value == 50
    # the reduced size has its own widgets with the small defaults
    at.toggle(key="fig4.2_small").set_value(True).run()
    assert_clean(at)
    assert at.multiselect(key="fig4.2s_shapes").value == ["N(1,1) / N(0,1)", "N(2,2) / N(0,1)"]


def test_bad_list_gives_a_warning_not_an_error():
    at = new_app(PAGE, {"cov_exp": "fig4.4"})
    at.text_input(key="fig4.4_sizes").set_value("25, ten").run()
    assert not at.exception
    assert at.warning and "not a number" in at.warning[0].value
    assert not at.get("plotly_chart")
