"""Compare page with many models (issue 32), driven by AppTest: the leaderboard, the overall test and the
table of every pair are rocci's (compare_many, vertical_ci, cost_ci), and any pair's verdict is one click away."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apphelpers import assert_clean, new_app, uploaded_app
from realistic import six_models_frame

import rocci

pytestmark = pytest.mark.apptest

PAGE = "app_pages/compare.py"
MODELS = ["gbm", "xgb", "logit", "forest", "rules", "naive"]


def table(at, column):
    return next(d.value for d in at.dataframe if column in d.value.columns)


@pytest.fixture(scope="module")
def six(tmp_path_factory):
    frame = six_models_frame()
    path = tmp_path_factory.mktemp("six") / "six_models.csv"
    frame.to_csv(path, index=False)
    return frame, path


def six_app(path):
    at = uploaded_app(path, PAGE)
    assert_clean(at)
    return at


def test_leaderboard_is_rocci(six):
    frame, path = six
    at = six_app(path)
    y = frame["outcome"].to_numpy() == "fraud"
    scores = {m: frame[m].to_numpy(float) for m in MODELS}
    ref = rocci.compare_many(y, scores, fpr=0.1, fpr_pairs=False, n_boot=1000)
    board = table(at, "p_best_auc")
    expect = ref.leaderboard()
    assert list(board["model"]) == list(expect["model"])  # sorted by AUC
    for col in ("auc", "auc_low", "auc_high", "p_best_auc", "p_best_auc_se", "p_best_tpr", "p_best_tpr_se"):
        np.testing.assert_allclose(board[col], expect[col], rtol=1e-12)
    # TPR at the verdict's FPR (10%) and cost at the shared condition (the data's prior, equal costs)
    for _, row in board.iterrows():
        s = scores[row["model"]]
        vci = rocci.vertical_ci(y, s, fpr=[0.1], method="percentile")
        assert (row["tpr"], row["tpr_low"], row["tpr_high"]) == pytest.approx(
            (vci.tpr[0], vci.tpr_low[0], vci.tpr_high[0]), rel=1e-12)
        w = rocci.operating_point(y.mean(), 1.0, 1.0)
        ci = rocci.cost_ci(y, s, w=[w], bootstrap="stratified", method="agresti-coull")
        assert (row["cost"], row["cost_low"], row["cost_high"]) == pytest.approx(
            (ci.cost[0], ci.cost_low[0], ci.cost_high[0]), rel=1e-12)
    # the sentence over the table: the leader, chi2 and its degrees of freedom
    text = " ".join(m.value for m in at.markdown)
    assert f"Highest AUC: **{expect['model'][0]}**" in text and f"χ² = {ref.chi2:.4g} on 5 degrees" in text
    assert f"of being the best (Monte Carlo ± {expect['p_best_auc_se'][0]:.1g})" in text
    # the page's caption does not claim "no random draws" for P(best), which is Monte Carlo
    captions = " ".join(c.value for c in at.caption)
    assert "chance of being the best is a seeded Monte Carlo estimate" in captions
    # every pair, Holm-adjusted by default
    pairs = table(at, "pvalue_adjusted")
    np.testing.assert_allclose(pairs["pvalue_adjusted"], ref.to_frame()["pvalue_adjusted"], rtol=1e-12)
    assert len(pairs) == 15


def test_pairs_outside_check_and_adjustment_choice(six):
    """From the pairs table alone: Holm's adjusted p-values are the step-down maxima of (p - i + 1)·p_(i),
    capped at 1, and Bonferroni's are 15·p; the simultaneous intervals contain the pointwise ones."""
    _, path = six
    at = six_app(path)
    pairs = table(at, "pvalue_adjusted")
    p = pairs["pvalue"].to_numpy()
    order = np.argsort(p, kind="stable")
    holm = np.minimum(1, np.maximum.accumulate((15 - np.arange(15)) * p[order]))
    np.testing.assert_allclose(pairs["pvalue_adjusted"].to_numpy()[order], holm, rtol=1e-12)
    assert (pairs["delta_auc_low_simultaneous"] <= pairs["delta_auc_low"]).all()
    assert (pairs["delta_auc_high_simultaneous"] >= pairs["delta_auc_high"]).all()
    at.segmented_control(key="cmp_adjust").set_value("bonferroni").run()
    assert_clean(at)
    pairs = table(at, "pvalue_adjusted")
    np.testing.assert_allclose(pairs["pvalue_adjusted"], np.minimum(1, 15 * pairs["pvalue"]), rtol=1e-12)


def test_any_pair_is_one_click_away(six):
    frame, path = six
    at = six_app(path)
    # the page opens on the two highest AUCs (the leaderboard's first two rows), A the leader
    board = table(at, "p_best_auc")
    assert [at.selectbox(key="cmp_a").value, at.selectbox(key="cmp_b").value] == list(board["model"][:2])
    y = frame["outcome"].to_numpy() == "fraud"
    aucs = {m: rocci.roc_auc(y, frame[m].to_numpy(float)).auc for m in MODELS}
    assert aucs[at.selectbox(key="cmp_a").value] == max(aucs.values())
    at.selectbox(key="cmp_pick").set_value(("xgb", "forest")).run()
    at.button(key="cmp_open_pair").click().run()
    assert_clean(at)
    assert at.selectbox(key="cmp_a").value == "xgb" and at.selectbox(key="cmp_b").value == "forest"
    assert any(s.value == "Is xgb better than forest?" for s in at.subheader)


def test_two_models_keep_the_two_model_page():
    at = new_app(PAGE)  # the bundled sample: two models
    assert_clean(at)
    assert not any("All " in s.value and "models" in s.value for s in at.subheader)
    assert not [d for d in at.dataframe if "p_best_auc" in d.value.columns]


def test_a_clear_leader_is_not_given_a_zero_error(tmp_path):
    """Where every Monte Carlo draw puts the same model first, its se is 0: the sentence says every draw agreed
    (and how many there were) instead of '± 0'."""
    rng = np.random.default_rng(11)
    y = rng.random(3000) < 0.2
    frame = pd.DataFrame({"label": np.where(y, "yes", "no")}
                         | {m: np.round(sep * y + rng.normal(size=y.size), 4) for m, sep in
                            (("strong", 2.5), ("middling", 1.0), ("weak", 0.5))})
    at = uploaded_app(frame, PAGE, name="leader.csv")
    assert_clean(at)
    ref = rocci.compare_many(y, {m: frame[m].to_numpy(float) for m in ("strong", "middling", "weak")})
    board = ref.leaderboard()
    assert board["model"][0] == "strong" and board["p_best_auc_se"][0] == 0.0  # the premise
    text = " ".join(m.value for m in at.markdown)
    assert f"it was the best in every one of {ref.n_draws:,} Monte Carlo draws" in text and "± 0)" not in text
