"""The Threshold explorer's clinical accuracy panel, driven by AppTest: its numbers are
rocci.clinical_panel's at the page's threshold, the prevalence and pre-test fields move what they should,
and the table's columns agree with each other (PPV/NPV are Bayes' rule applied to LR+/LR−' bounds)."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import assert_clean, uploaded_app
from realistic import clinic_frame

import rocci

pytestmark = pytest.mark.apptest

PAGE = "app_pages/explorer.py"


def panel(at):
    return next(df.value for df in at.dataframe if "quantity" in df.value.columns).set_index("quantity")


def clinic_app(tmp_path):
    frame = clinic_frame()
    path = tmp_path / "clinic.csv"
    frame.to_csv(path, index=False)
    at = uploaded_app(path, PAGE)
    assert_clean(at)
    return at, frame["outcome"].to_numpy() == "disease", frame["risk_v2"].to_numpy(float)


def bayes(prior, lr):
    lr = np.asarray(lr, float)
    with np.errstate(invalid="ignore"):
        return np.where(np.isinf(lr), 1.0, prior * lr / (prior * lr + 1 - prior))


def test_panel_is_rocci_at_the_page_threshold_with_the_data_prevalence(tmp_path):
    at, y, s = clinic_app(tmp_path)
    t = at.slider(key="ex_t").value
    ref = rocci.clinical_panel(y, s, thresholds=[t]).to_frame().iloc[0]
    tab = panel(at)
    for label, col in (("Sensitivity", "tpr"), ("LR+", "lr_positive"), ("LR−", "lr_negative"),
                       ("PPV", "ppv"), ("NPV", "npv"), ("Diagnostic odds ratio", "diagnostic_odds_ratio")):
        np.testing.assert_allclose(tab.loc[label, ["value", "low", "high"]].to_numpy(float),
                                   [ref[col], ref[col + "_low"], ref[col + "_high"]], rtol=1e-12)
    assert "Post-test, positive test" not in tab.index  # no pre-test probability entered
    # Outside check, from the table's own columns: the prevalence is the data's, PPV/NPV are Bayes' rule on
    # LR+/LR− and their bounds are the likelihood ratios' bounds mapped.
    prev = y.mean()
    np.testing.assert_allclose(tab.loc["PPV", ["value", "low", "high"]].to_numpy(float),
                               bayes(prev, tab.loc["LR+", ["value", "low", "high"]].to_numpy(float)), rtol=1e-12)
    np.testing.assert_allclose(tab.loc["NPV", ["value", "high", "low"]].to_numpy(float),
                               1 - bayes(prev, tab.loc["LR−", ["value", "low", "high"]].to_numpy(float)),
                               rtol=1e-12)
    # PPV as counted: the share of flagged cases that are positive, at the data's own prevalence.
    flagged = s >= t
    assert tab.loc["PPV", "value"] == pytest.approx(y[flagged].mean(), rel=1e-12)
    cards = {m.label: m.value for m in at.metric}
    assert cards["LR+ · risk\\_v2"] == f"{ref['lr_positive']:.4g}"


def test_prevalence_and_pretest_fields(tmp_path):
    at, y, s = clinic_app(tmp_path)
    at.number_input(key="ex_prev").set_value(0.02).run()
    at.number_input(key="ex_pretest").set_value(0.3).run()
    assert_clean(at)
    t = at.slider(key="ex_t").value
    ref = rocci.clinical_panel(y, s, thresholds=[t], prevalence=0.02, pretest=0.3).to_frame().iloc[0]
    tab = panel(at)
    np.testing.assert_allclose(tab.loc["PPV", ["value", "low", "high"]].to_numpy(float),
                               [ref.ppv, ref.ppv_low, ref.ppv_high], rtol=1e-12)
    np.testing.assert_allclose(tab.loc["PPV", ["value", "low", "high"]].to_numpy(float),
                               bayes(0.02, tab.loc["LR+", ["value", "low", "high"]].to_numpy(float)), rtol=1e-12)
    np.testing.assert_allclose(tab.loc["Post-test, positive test", ["value", "low", "high"]].to_numpy(float),
                               bayes(0.3, tab.loc["LR+", ["value", "low", "high"]].to_numpy(float)), rtol=1e-12)
    np.testing.assert_allclose(tab.loc["Post-test, negative test", ["value", "low", "high"]].to_numpy(float),
                               bayes(0.3, tab.loc["LR−", ["value", "low", "high"]].to_numpy(float)), rtol=1e-12)
    # a rare disease: a flagged case is much less likely positive than in the enriched data
    assert tab.loc["PPV", "value"] < y[s >= t].mean()
    caption = " ".join(c.value for c in at.caption)
    assert "0.0200" in caption and "the prevalence you entered" in caption and "0.3000" in caption


def test_lr_plus_is_infinite_when_no_negative_is_flagged(tmp_path):
    at, y, s = clinic_app(tmp_path)
    top = float(np.max(s[~y]))  # above every negative: no false alarm
    at.segmented_control(key="ex_by").set_value("value").run()
    at.number_input(key="ex_tv").set_value(top + 1e-4).run()
    assert_clean(at)
    tab = panel(at)
    assert np.isinf(tab.loc["LR+", "value"]) and np.isinf(tab.loc["LR+", "high"])
    assert tab.loc["PPV", "value"] == 1.0
    cards = {m.label: m.value for m in at.metric}
    assert cards["LR+ · risk\\_v2"] == "∞"
