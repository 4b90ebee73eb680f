"""The Threshold explorer's "How stable is this threshold?" (issue 31): when the data chose the threshold
(Youden or lowest cost), the page shows rocci.threshold_stability's law of the re-chosen threshold."""

from __future__ import annotations

import numpy as np
import pytest
from apphelpers import assert_clean, uploaded_app
from realistic import clinic_frame

import rocci
from ui.cache.decision import STABILITY_BOOT

pytestmark = pytest.mark.apptest

PAGE = "app_pages/explorer.py"


def clinic_app(tmp_path):
    frame = clinic_frame(n=1200)
    path = tmp_path / "clinic.csv"
    frame.to_csv(path, index=False)
    at = uploaded_app(path, PAGE)
    return at, frame["outcome"].to_numpy() == "disease", frame["risk_v2"].to_numpy(float)


def stability_table(at):
    return next((d.value for d in at.dataframe if "probability_se" in d.value.columns), None)


def test_only_when_the_data_chose_the_threshold(tmp_path):
    at, _, _ = clinic_app(tmp_path)
    assert_clean(at)
    assert stability_table(at) is None  # the slider's threshold was not chosen by the data


@pytest.mark.parametrize("by", ["youden", "cost"])
def test_the_rechosen_thresholds_are_rocci(tmp_path, by):
    at, y, s = clinic_app(tmp_path)
    at.segmented_control(key="ex_by").set_value(by).run()
    assert_clean(at)
    if by == "youden":
        ref = rocci.threshold_stability(y, s, criterion="youden", n_boot=STABILITY_BOOT, seed=0)
    else:
        w = rocci.operating_point(float(y.mean()), 1.0, 1.0)  # the shared condition's default
        ref = rocci.threshold_stability(y, s, criterion="cost", w=w, n_boot=STABILITY_BOOT, seed=0)
    tab = stability_table(at)
    expect = ref.to_frame().sort_values("probability", ascending=False).head(10)
    np.testing.assert_array_equal(tab["threshold"].to_numpy(), expect["threshold"].to_numpy())
    np.testing.assert_array_equal(tab["probability"].to_numpy(), expect["probability"].to_numpy())
    text = " ".join(c.value for c in at.caption)
    assert f"{100 * ref.p_same:.1f}%" in text and "bootstrap worlds" in text
    # from the table's own columns: the shares are probabilities, each with its binomial standard error
    assert (tab["probability"] <= 1).all()
    np.testing.assert_allclose(tab["probability_se"], np.sqrt(tab["probability"] * (1 - tab["probability"])
                                                              / STABILITY_BOOT), rtol=1e-12)
