"""Compare models page: two models scored on the same instances, paired exact bootstrap.

Thin UI: every number comes from rocci (``compare_thresholds``,
``dominance_map``, ``compare_auc``, ``mcnemar``, ``compare_vertical``,
``threshold_ci``, ``roc_curve``) through the cached wrappers in ui.cache and
ui.cache.compare; figures come from rocci.plots and rocci.plots.compare.  The
page's choices are bound to the URL query string, as on the ROC page.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd
import streamlit as st

import rocci
from rocci import plots
from rocci.plots import compare as plots_compare
from rocci.roc.vertical import fpr_levels
from ui import cache, operating, report, state, unpaired
from ui.controls import error
from ui.frame import page_frame
from ui.labels import column_config
from ui.cache import compare as cache_compare, cost as cache_cost
from ui import controls as controls_ui
from ui.download import download_csv
from ui.sidebar import image_format
from ui.text import ParseError, md_escape, number, parse_numbers, percent, pvalue_text, signed_interval

URL = "query-params"
LEVELS = [0.8, 0.85, 0.9, 0.95, 0.99]
PAIR_BY = {"rate": "Equal total-positive rate", "thr": "Equal thresholds"}
#: Up to this many bootstrap negatives the paired vertical law is computed as soon as the tab opens; beyond,
#: it runs on a button press, with a progress bar.  Its time depends on the data more than on m−
#: (2026-11-26, load 3–4 on 2 cores: 0.3–0.4 s a level at 10⁵ rows and 0.5–1.2 s at 10⁶ for two
#: different binormal models; for a model against itself plus tiny noise 0.4–5 s at 10⁵ rows and 5 s to over
#: a minute at 10⁶: bench/bench_near_copy.py; the narrower routes before 2026-11-26 took 10–11 s at 10⁵ rows).
VERTICAL_AUTO_NEG = 100_000
#: Up to this many instances the dominance map is computed as soon as its tab opens (from large data's pair
#: table: 3 s at 10⁸ instances, 35–75 s at 10⁹ on a shared 2-core machine; the exact laws' windows grow as √m).
MAP_AUTO_INSTANCES = 200_000_000

EXACT_CAPTION = (
    "The models scored the same instances, so they are compared **paired**: each bootstrap world resamples "
    "instances (with every model's score). A pair's probabilities and intervals use the **exact bootstrap** — "
    "what infinitely many resamples would give, worked out by formula, with no random draws; with three or more "
    "models, the chance of being the best is a seeded Monte Carlo estimate, shown with its ± error."
)

UNPAIRED_CAPTION = (
    "Two test sets that share no instance are compared **unpaired**: each set is resampled on its own, and the "
    "difference's law is the convolution of the two sets' exact bootstrap laws (for the AUC, DeLong's variances "
    "added)."
)

#: The tables' columns in this page's context (labels and formats: ui.labels).
PAIR_HELP = {"total_positive_rate": "Fraction of all instances each model predicts positive."}
PAIR_ORDER = ["total_positive_rate", "threshold_a", "threshold_b", "rate_a", "rate_b", "p_a_dominates", "p_b_dominates",
              "delta_tpr", "delta_tpr_low", "delta_tpr_high", "delta_fpr", "delta_fpr_low", "delta_fpr_high",
              "tpr_a", "fpr_a", "tpr_b", "fpr_b"]
VERT_HELP = {
    "fpr": "The fixed false-positive rate r / m− (the FPR level).",
    "r": "Number of bootstrap negatives above each model's threshold at this level.",
    "delta_tpr_mean": "Exact bootstrap mean of TPR A − TPR B at this FPR.",
    "delta_tpr_low": "Lower end of the score interval on the exact law's mean and variance.",
    "delta_tpr_high": "Upper end of the score interval on the exact law's mean and variance.",
    "p_a_better": "P(ΔTPR > 0): A finds more positives at this FPR.",
    "p_tie": "P(ΔTPR = 0).",
}


def thr(value) -> str:
    """A threshold for a sentence: six significant digits, so 0.999999 is not shown as 1."""
    v = float(value)
    return number(v) if not np.isfinite(v) else f"{v:.6g}"


def prob_text(p: float) -> str:
    """A probability as a percentage for a sentence ("87%", "less than 0.1%")."""
    p = float(p)
    if p < 0.001:
        return "less than 0.1%"
    if p > 0.999:
        return "more than 99.9%"
    if 0.01 <= p <= 0.99:
        return f"{100 * p:.0f}%"
    return f"{100 * p:.1f}%"


def pair_sentence(i: int, cmp, a: str, b: str, frame: pd.DataFrame) -> str:
    """Plain-language reading of the i-th threshold pair (numbers from the comparison)."""
    pa, pb = float(cmp.p_a_dominates[i]), float(cmp.p_b_dominates[i])
    neither = max(0.0, 1.0 - pa - pb)
    A, B = f"**{md_escape(a)}**", f"**{md_escape(b)}**"
    each = percent(cmp.axis_confidence_level)
    return (
        f"**Pair {i + 1}** ({md_escape(a)} ≥ {thr(cmp.thresholds_a[i])}, "
        f"{md_escape(b)} ≥ {thr(cmp.thresholds_b[i])}): in {prob_text(pa)} of bootstrap worlds model {A} has "
        f"at least as high a TPR and at least as low an FPR as {B} (and is better on one); in {prob_text(pb)} "
        f"{B} dominates {A}; in {prob_text(neither)} neither does. "
        f"ΔTPR (A − B) = {cmp.delta_tpr[i]:+.3f}, {each} interval [{cmp.delta_tpr_low[i]:+.3f}, "
        f"{cmp.delta_tpr_high[i]:+.3f}]; ΔFPR = {cmp.delta_fpr[i]:+.3f}, {each} interval "
        f"[{cmp.delta_fpr_low[i]:+.3f}, {cmp.delta_fpr_high[i]:+.3f}]."
        + ties_note(i, frame, a, b)
    )


def ties_note(i: int, frame: pd.DataFrame, a: str, b: str) -> str:
    """Say so when tied scores make a model flag clearly more than the total-positive rate asked for."""
    if "total_positive_rate" not in frame.columns or pd.isna(frame["total_positive_rate"].iloc[i]):
        return ""
    q = float(frame["total_positive_rate"].iloc[i])
    notes = [f"{md_escape(name)} flags {percent(float(frame[col].iloc[i]))}"
             for name, col in ((a, "rate_a"), (b, "rate_b")) if float(frame[col].iloc[i]) - q > 0.01]
    if not notes:
        return ""
    return (f" *Tied scores: {' and '.join(notes)} of the instances, not {percent(q)}: no threshold of "
            f"{'these models' if len(notes) > 1 else 'this model'} flags exactly {percent(q)}.*")


def by_auc(an: cache.Analysis) -> list:
    """The models, highest AUC first (file order among equals, and for two models): the default pair of the
    verdict is the leaderboard's first two."""
    models = list(an.models)
    if len(models) < 3:
        return models
    auc = {m: cache.roc_auc(an.key, m, "delong", 0.95, None, *an.arrays(m)).auc for m in models}
    return sorted(models, key=lambda m: -auc[m])


def controls(an: cache.Analysis):
    """The left-hand column of choices; returns (a, b, level, thresholds, rates, m, view) or None if invalid."""
    models = an.models
    ranked = by_auc(an)
    with st.container(border=True):
        st.markdown("**Models**")
        a = st.selectbox("Model A", models, index=models.index(ranked[0]), format_func=str, key="cmp_a", bind=URL,
                         help="Differences are always model A − model B. With three or more models the page "
                         "opens on the highest AUC against the next.")
        others = [m for m in models if m != a]
        b = st.selectbox("Model B", others, index=others.index(next(m for m in ranked if m != a)), format_func=str,
                         key="cmp_b", bind=URL,
                         help="The model A is compared with (scored on the same instances).")
        level = st.select_slider("Confidence level", LEVELS, value=0.95, format_func=percent, key="cmp_level",
                                 bind=URL, help="Coverage of every interval on this page.")
        at_fpr = st.number_input(
            "False-positive rate for the verdict", min_value=0.001, max_value=0.999, value=0.10, step=0.01,
            format="%.3f", key="cmp_at_fpr", bind=URL,
            help="The verdict compares the share of positives each model finds (TPR) when each is allowed this "
            "share of false alarms among the negatives. Moved to the nearest attainable value r / m−.")
        view = controls_ui.chart_view("cmp_view")
    cond = operating.controls(an.prepared.n_pos, an.prepared.n_neg, title="Operating condition (cost verdict)")
    with st.container(border=True):
        st.markdown("**Threshold pairs**")
        by = st.segmented_control(
            "Pair the thresholds by", list(PAIR_BY), format_func=PAIR_BY.get, default="rate", required=True,
            key="cmp_by", bind=URL,
            help="Equal total-positive rate: each model's threshold classifies the same fraction of all "
            "instances as positive (fair when the scores are on different scales). Equal thresholds: the same "
            "score cut-off for both (calibrated scores).",
        )
        thresholds = rates = None
        try:
            if by == "rate":
                text = st.text_input("Total-positive rates (0–1, comma-separated)",
                                     value=controls_ui.default_pair_rates(an.prepared.n_pos, an.prepared.n_pos + an.prepared.n_neg),
                                     key="cmp_rates", bind=URL,
                                     help="E.g. 0.1 = each model flags its top 10% of scores. When positives are "
                                     "rare the defaults are 1, 2, 5 and 10 times their share of the rows.")
                rates = tuple(parse_numbers(text, what="total-positive rate", low=0.0, high=1.0))
            else:
                text = st.text_input("Thresholds (comma-separated, used for both models)", value="0.25, 0.5, 0.75",
                                     key="cmp_thr", bind=URL,
                                     help="An instance is predicted positive when its score is ≥ the threshold.")
                thresholds = tuple(parse_numbers(text, what="threshold"))
        except ParseError as exc:
            st.warning(md_escape(str(exc)), icon=":material/warning:")
            return None
    p = an.prepared
    m = controls_ui.bootstrap_size(p.n_pos, p.n_neg, keys=("cmp_m_pos", "cmp_m_neg"),
                                   note=" (threshold pairs, dominance map and TPR at fixed FPR; DeLong and "
                                   "McNemar use the data as they are)")
    return a, b, level, thresholds, rates, m, view, float(at_fpr), cond


def main() -> None:
    # no caption yet: it says paired or unpaired, known once the test sets are chosen (page.caption below)
    page = page_frame("Compare models", min_models=2, too_few="Comparing needs two models: map at least two score "
                      "columns (one per model) on the Data page. The bundled breast-cancer sample has two.")
    if page is None:
        return
    an = page.an

    left, right = page.columns()
    with left:
        sets, split = unpaired.controls(an)
        if sets != "one":  # two test sets: the unpaired verdict only, with its choices
            level, at_fpr = unpaired.interval_controls()
            cond = operating.controls(an.prepared.n_pos, an.prepared.n_neg, title="Operating condition (cost verdict)")
        else:
            opts = controls(an)
    page.caption(EXACT_CAPTION if sets == "one" else UNPAIRED_CAPTION)
    if sets != "one":
        with right:
            if split is None:
                st.info("Upload the second test set on the left (it needs the same label column).",
                        icon=":material/upload_file:")
            else:
                unpaired.panel(an, split, level, at_fpr, cond)
        return
    if opts is None:
        with right:
            st.info("Fix the highlighted input on the left to update the comparison.")
        return
    a, b, level, thresholds, rates, m, view, at_fpr, cond = opts
    missing = an.pair_refusal(a, b, "Comparing two models", expands=False)
    if missing is not None:  # large data: the pair table was not reduced
        with right:
            st.info(missing, icon=":material/info:")
        return
    # (y, sa, sb): both models on the same instances (from large data, a pair table and None, None)
    y, sa, sb = an.paired(a, b)
    with right:
        if len(an.models) > 2:
            leaderboard(an, level, at_fpr, cond)
        verdict_panel(an, a, b, level, m, at_fpr, cond, y, sa, sb)
    try:
        curves = {m: cache.roc_curve(an.key, m, *an.arrays(m)) for m in (a, b)}
        cmp = cache_compare.compare_thresholds(an.key, a, b, thresholds, None, rates, level, "rectangle", m,
                                               y, sa, sb)
        tci_a = cache.threshold_ci(an.key, a, tuple(float(t) for t in cmp.thresholds_a), None, level, "wilson",
                                   "rectangle", m, *an.arrays(a))
        tci_b = cache.threshold_ci(an.key, b, tuple(float(t) for t in cmp.thresholds_b), None, level, "wilson",
                                   "rectangle", m, *an.arrays(b))
        auc = cache_compare.compare_auc(an.key, a, b, level, y, sa, sb)
    except rocci.InputError as exc:
        with right:
            error(str(exc))
        return

    with right:
        _, fpr_range, tpr_range = controls_ui.VIEWS[view]
        fig = plots.roc_figure(curves, auc_text={a: f"AUC {auc.auc_a:.3f}", b: f"AUC {auc.auc_b:.3f}"},
                               height=640, fpr_range=fpr_range, tpr_range=tpr_range, colors=an.colors)
        plots.add_threshold_ci(fig, tci_a, name=a, color_index=an.colors[a])
        plots.add_threshold_ci(fig, tci_b, name=b, color_index=an.colors[b])
        plots_compare.add_pair_links(fig, cmp, name_a=a, name_b=b)
        report.plotly_chart(fig, config=plots.plotly_config(image_format=image_format(), filename="rocci_compare"),
                        key="cmp_chart")
        report.caption(
            f"Each model's point at each threshold pair with its {percent(level)} Wilson confidence rectangle "
            f"(each axis at {percent(tci_a.axis_confidence_level)}; exact bootstrap, m+ = {tci_a.m_pos:,}, "
            f"m− = {tci_a.m_neg:,}). Dotted segments join the two points of a pair; hover the numbered diamond "
            "for the dominance probabilities."
        )
    pairs_section(cmp, a, b)
    details(an, cmp, auc, a, b, level, m, y, sa, sb)


ADJUST = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "None"}
#: The leaderboard's columns, in order, and their help in its context.
BOARD_ORDER = ["auc", "auc_low", "auc_high", "p_best_auc", "p_best_auc_se", "tpr", "tpr_low", "tpr_high",
               "p_best_tpr", "p_best_tpr_se", "cost", "cost_low", "cost_high"]
BOARD_HELP = {
    "auc_low": "Lower end of the DeLong interval.",
    "auc_high": "Upper end of the DeLong interval.",
    "tpr": "Share of positives found when the model is allowed the verdict's false-positive rate (TPR at that "
    "FPR).",
    "tpr_low": "Lower end of the percentile interval of the exact bootstrap law of the TPR.",
    "tpr_high": "Upper end of that interval.",
    "cost": "Normalised expected cost of the model's cheapest threshold at the shared operating condition.",
    "cost_low": "Lower end of its exact stratified bootstrap interval (Agresti–Coull).",
    "cost_high": "Upper end of that interval.",
}
#: Every pair's columns, in order.
MANY_ORDER = ["delta_auc", "delta_auc_low", "delta_auc_high", "pvalue", "pvalue_adjusted",
              "delta_auc_low_simultaneous", "delta_auc_high_simultaneous"]


def set_pair(a: str, b: str) -> None:
    """Open the two-model verdict for the pair (a button's callback, before the selectboxes are drawn)."""
    state.seed("cmp_a", a, force=True)
    state.seed("cmp_b", b, force=True)


def mc_note(se: float, n_draws: int) -> str:
    """The Monte Carlo error of P(best AUC) in words; where every draw agreed, its se is 0 and says nothing, so
    the note says that instead."""
    if se > 0:
        return f"Monte Carlo ± {se:.1g}"
    return f"it was the best in every one of {n_draws:,} Monte Carlo draws"


def leaderboard(an, level: float, at_fpr: float, cond) -> None:
    """All the models at once (issue 32): AUC, TPR at the verdict's FPR and cost at the shared operating
    condition, each with its interval, the probability of the highest AUC, DeLong's χ² test that every AUC
    is equal, and every pair with adjusted p-values; any pair's verdict one click away."""
    k = len(an.models)
    report.subheader(f"All {k} models", anchor=False)
    refusal = an.too_large("The leaderboard of every model") if an.from_counts else None
    if an.from_counts:
        st.info(refusal or "The leaderboard needs each row's scores; from scanned counts, compare two models at a "
                "time below.", icon=":material/info:")
        return
    adjust = st.segmented_control("Adjust the pairs' p-values", list(ADJUST), format_func=ADJUST.get,
                                  default="holm", required=True, key="cmp_adjust", bind=URL,
                                  help=f"{k * (k - 1) // 2} pairs are compared: Holm's step-down (default) keeps "
                                  "the chance of any false claim at the level and is never worse than Bonferroni.")
    y = np.asarray(an.prepared.is_positive, dtype=bool)
    scores = {mod: np.asarray(an.prepared.scores[mod], dtype=float) for mod in an.models}
    try:
        many = cache_compare.compare_many(an.key, tuple(an.models), level, adjust, float(at_fpr), y, scores)
        board = many.leaderboard()
        tprs, costs = {}, {}
        for mod in an.models:
            vci = cache.vertical_ci(an.key, mod, (float(at_fpr),), level, "percentile", None, *an.arrays(mod))
            tprs[mod] = (float(vci.tpr[0]), float(vci.tpr_low[0]), float(vci.tpr_high[0]))
            if cond is not None:
                ci = cache_cost.cost_ci(an.key, mod, (cond.w,), None, "stratified", level, "agresti-coull", None,
                                        *an.arrays(mod))
                costs[mod] = (float(ci.cost[0]), float(ci.cost_low[0]), float(ci.cost_high[0]))
    except rocci.InputError as exc:
        error(str(exc))
        return
    names = board["model"].astype(str)
    board["tpr"], board["tpr_low"], board["tpr_high"] = (names.map(lambda n, i=i: tprs[n][i]) for i in range(3))
    if costs:
        board["cost"], board["cost_low"], board["cost_high"] = (names.map(lambda n, i=i: costs[n][i])
                                                                for i in range(3))
    board = board[["model"] + [c for c in BOARD_ORDER if c in board.columns]]
    best = board.iloc[0]
    report.markdown(
        f"Highest AUC: **{md_escape(best['model'])}** ({best['auc']:.3f}), with probability "
        f"**{best['p_best_auc']:.2f}** of being the best ({mc_note(best['p_best_auc_se'], many.n_draws)}). DeLong's test that all "
        f"{k} AUCs are equal: χ² = {many.chi2:.4g} on {many.df} degrees of freedom, {p_equals(many.pvalue)}.")
    st.dataframe(board, hide_index=True, column_config=column_config(board, help=BOARD_HELP), key="cmp_board")
    report.caption(
        f"{percent(level)} intervals: AUC by DeLong; TPR at FPR {at_fpr:.3f} by the exact bootstrap law (percentile, "
        "stratified)" + (f"; cost at w = {cond.w:.3f} (the shared operating condition) by the exact stratified "
                         "bootstrap" if cond is not None else "") + ". Sorted by AUC.")
    download_csv(board.assign(confidence_level=level, fpr=at_fpr, w=cond.w if cond is not None else np.nan),
                 label="Download the leaderboard (CSV)", file_name="rocci_leaderboard.csv", key="dl_cmp_board")
    with st.expander(f"Every pair ({k * (k - 1) // 2}), with {ADJUST[adjust]}-adjusted p-values", icon=":material/grid_on:"):
        pairs = many.to_frame()[["model_a", "model_b"] + MANY_ORDER]
        st.dataframe(pairs, hide_index=True, column_config=column_config(pairs), key="cmp_pairs_all")
        report.caption(f"ΔAUC = A − B with DeLong's {percent(level)} interval, pointwise and simultaneous over the "
                       f"{len(pairs)} pairs (critical value {many.critical_value:.3f} instead of "
                       f"{NormalDist().inv_cdf(1 - (1 - level) / 2):.3f}).")
        download_csv(pairs.assign(adjust=adjust, confidence_level=level), label="Download every pair (CSV)",
                     file_name="rocci_pairs.csv", key="dl_cmp_pairs_all")
        options = [(r.model_a, r.model_b) for r in pairs.itertuples()]
        pick = st.selectbox("Pair", options, format_func=lambda p: f"{p[0]} vs {p[1]}", key="cmp_pick",
                            help="Open the two-model verdict below for this pair.")
        st.button("Open this pair's verdict", key="cmp_open_pair", on_click=set_pair, args=pick,
                  icon=":material/compare_arrows:")


#: The probability left out of an exact sum is shown only from this size on (it is in the CSV always).
TRUNCATION_SHOWN = 1e-9

#: The verdict's ΔTPR at one FPR is computed as the page opens up to this many bootstrap negatives
#: (under 2 s at 10⁴ rows, about 2.5 s at m− = 84,000); beyond, on a button press with a progress bar.
VERDICT_AUTO_NEG = VERTICAL_AUTO_NEG


def signed_verdict(low: float, high: float, better_if_positive: bool, a: str, b: str, level: float) -> tuple:
    """('a' | 'b' | None, plain words) from an interval of a difference A − B at ``level``."""
    A, B = f"**{md_escape(a)}**", f"**{md_escape(b)}**"
    if low > 0 or high < 0:
        winner = "a" if (low > 0) == better_if_positive else "b"
        return winner, f"{A if winner == 'a' else B} is better at the {percent(level)} level"
    return None, f"no clear difference at the {percent(level)} level (the interval contains 0)"


def verdict_panel(an, a: str, b: str, level: float, m, at_fpr: float, cond, y, sa, sb) -> None:
    """The question the page is for, answered first, in plain words, for the chosen pair:
    ΔAUC (DeLong), ΔTPR at a chosen false-positive rate (exact paired law, P(A better)) and the cost
    difference at the shared operating condition (exact paired bootstrap, P(A cheaper))."""
    A, B = f"**{md_escape(a)}**", f"**{md_escape(b)}**"
    st.subheader(f"Is {md_escape(a)} better than {md_escape(b)}?", anchor=False)
    headline = st.empty()
    found = {}
    c_auc, c_tpr, c_cost = st.columns(3)
    with c_auc.container(border=True, key="verdict_auc"):
        st.markdown("**Overall ranking (AUC)**")
        try:
            auc = cache_compare.compare_auc(an.key, a, b, level, y, sa, sb)
        except rocci.InputError as exc:
            error(str(exc))
        else:
            winner, words = signed_verdict(auc.delta_auc_low, auc.delta_auc_high, True, a, b, level)
            found["auc"] = (winner, "the higher AUC")
            d_txt, lo_txt, hi_txt = signed_interval(auc.delta_auc, auc.delta_auc_low, auc.delta_auc_high, 3)
            report.metric(f"ΔAUC, {md_escape(a)} − {md_escape(b)}", d_txt,
                      help="Difference of the areas under the two ROC curves (A − B).")
            report.caption(f"AUC {A} {auc.auc_a:.3f}, {B} {auc.auc_b:.3f}; {percent(level)} DeLong interval of "
                           f"ΔAUC [{lo_txt}, {hi_txt}], {p_equals(auc.pvalue)}: {words}.")
    with c_tpr.container(border=True, key="verdict_tpr"):
        st.markdown(f"**Positives found at {percent(at_fpr)} false alarms**")
        m_neg = int(an.prepared.n_neg) if m is None else int(m[1])
        r = int(fpr_levels([at_fpr], m_neg)[0])
        stored = cache_compare.VERTICAL_LEVELS.get(cache_compare.vertical_level_key(an.key, a, b, r, level, m))
        refusal = None  # compare_vertical works on the pair table at any size
        if refusal is not None:
            st.info(refusal, icon=":material/info:")
        # from counts the work follows the pair table's rows (compare_vertical never expands it), not m−
        size = min(m_neg, y.score_a.size) if isinstance(y, rocci.PairedCounts) else m_neg
        run = refusal is None and (stored is not None or size <= VERDICT_AUTO_NEG)
        if not run and refusal is None:
            st.info(f"With m− = {m_neg:,} negatives this exact law takes a while; it runs when you ask, with a "
                    "progress bar.", icon=":material/schedule:")
            run = st.button("Compute ΔTPR", key="cmp_verdict_run", icon=":material/play_arrow:")
        vc = None
        if run:
            try:
                bar = st.progress(0.0, text="Still computing the exact paired law of ΔTPR…")
                vc = cache_compare.compare_vertical_levels(
                    an.key, a, b, (r / m_neg,), level, m, y, sa, sb,
                    progress=lambda f, msg: bar.progress(min(max(float(f), 0.0), 1.0),
                                                         text="Still computing: " + msg))[0]
                bar.empty()
            except rocci.InputError as exc:
                error(str(exc))
        if vc is not None:
            lo, hi = float(vc.delta_tpr_low[0]), float(vc.delta_tpr_high[0])
            winner, words = signed_verdict(lo, hi, True, a, b, level)
            pa = float(vc.p_a_better[0])
            found["tpr"] = (winner, f"more positives found at {percent(at_fpr)} false alarms")
            d_txt, lo_txt, hi_txt = signed_interval(float(vc.delta_tpr_mean[0]), lo, hi, 1, scale=100.0)
            report.metric(f"ΔTPR, {md_escape(a)} − {md_escape(b)}", f"{d_txt} pts",
                      help="Difference in the share of positives found (percentage points), both models held at "
                      "the same false-positive rate. Exact bootstrap mean.")
            report.caption(
                f"At FPR {float(vc.fpr[0]):.3f} (r = {r} of m− = {m_neg:,} negatives): {percent(level)} interval "
                f"[{lo_txt}, {hi_txt}] points; {A} finds more positives in **{prob_text(pa)}** of "
                f"bootstrap worlds, they tie in {prob_text(float(vc.p_tie[0]))}: {words}."
                + (" The interval has zero width here (both TPRs near 1): treat it with care." if hi <= lo else ""))
    with c_cost.container(border=True, key="verdict_cost"):
        st.markdown("**Cost at your operating condition**")
        refusal = None  # compare_cost works on the pair table at any size
        if cond is None:
            st.info("Set a valid operating condition on the left.")
        elif refusal is not None:
            st.info(refusal, icon=":material/info:")
        else:
            try:
                cc = cache_cost.compare_cost(an.key, a, b, (cond.w,), "stratified", level, "agresti-coull", m,
                                             y, sa, sb)
            except rocci.InputError as exc:
                error(str(exc))
            else:
                d, lo, hi = float(cc.delta_cost[0]), float(cc.delta_cost_low[0]), float(cc.delta_cost_high[0])
                winner, words = signed_verdict(lo, hi, False, a, b, level)
                found["cost"] = (winner, f"the lower cost at w = {cond.w:.3f}")
                k = cond.scale
                d_txt, lo_txt, hi_txt = signed_interval(d, lo, hi, 4)
                value = operating.signed_money(1000 * k * d) if k else d_txt
                report.metric(f"ΔCost{' per 1,000' if k else ''}, {md_escape(a)} − {md_escape(b)}", value,
                          help="Expected cost of A − expected cost of B, each at its own lowest-cost threshold "
                          "(below 0: A is cheaper)." + (" In your cost units per 1,000 instances." if k else
                                                         " Normalised cost (w set directly: no units)."))
                per = [operating.signed_money(1000 * k * x) for x in (d, lo, hi)] if k else None
                units = f" = {per[0]} per 1,000 instances [{per[1]}, {per[2]}]" if k else ""
                report.caption(
                    f"{md_escape(cond.describe()).capitalize()}. Normalised ΔC {d_txt}, {percent(level)} "
                    f"interval [{lo_txt}, {hi_txt}]{units}; {A} is cheaper in "
                    f"**{prob_text(float(cc.p_a_cheaper[0]))}** of bootstrap worlds: {words}.")
    headline.markdown(verdict_headline(found, a, b, level))
    report.current().add_caption(verdict_headline(found, a, b, level))


def p_equals(p: float) -> str:
    """'p = 0.031' or 'p < 0.0001'."""
    text = pvalue_text(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def verdict_headline(found: dict, a: str, b: str, level: float) -> str:
    """One sentence over the three cards: where A is better, where B is, where it is not clear."""
    A, B = f"**{md_escape(a)}**", f"**{md_escape(b)}**"
    wins_a = [what for who, what in found.values() if who == "a"]
    wins_b = [what for who, what in found.values() if who == "b"]
    unclear = [what for who, what in found.values() if who is None]
    parts = []
    if wins_a:
        parts.append(f"{A} has {' and '.join(wins_a)}")
    if wins_b:
        parts.append(f"{B} has {' and '.join(wins_b)}")
    if unclear:
        parts.append(f"no clear winner on {' or '.join(unclear)}")
    if not parts:
        return "Computing…"
    return f"At the {percent(level)} level: " + "; ".join(parts) + "."


def with_achieved_rates(cmp) -> pd.DataFrame:
    """``cmp.to_frame()`` plus the fraction of instances each model actually predicts positive.

    With tied scores a threshold can flag more instances than the total-positive
    rate asked for (the threshold is the ⌈q·n⌉-th largest score, ties included).
    """
    frame = cmp.to_frame()
    n = cmp.n_pos + cmp.n_neg
    frame["rate_a"] = (np.asarray(cmp.tpr_a) * cmp.n_pos + np.asarray(cmp.fpr_a) * cmp.n_neg) / n
    frame["rate_b"] = (np.asarray(cmp.tpr_b) * cmp.n_pos + np.asarray(cmp.fpr_b) * cmp.n_neg) / n
    return frame


def pairs_section(cmp, a: str, b: str) -> None:
    st.subheader("Who dominates at each threshold pair", anchor=False)
    frame = with_achieved_rates(cmp)
    for i in range(len(cmp.thresholds_a)):
        sentence = pair_sentence(i, cmp, a, b, frame)
        st.markdown(sentence)
        report.current().add_caption(sentence)
    report.caption(
        f"How often each model dominates the other across bootstrap worlds, and {percent(cmp.confidence_level)} "
        f"joint intervals for ΔTPR and ΔFPR (A − B): paired exact bootstrap, m+ = {cmp.m_pos:,}, "
        f"m− = {cmp.m_neg:,}."
    )
    controls_ui.method_note(
        "Dominance probabilities: Gadoury (2009), eq. 4.5, summed exactly over the paired trinomial laws. "
        f"Intervals: score intervals of eq. 4.8 (smoothed γ) in a rectangle, each axis at "
        f"{percent(cmp.axis_confidence_level)} so that both hold together at {percent(cmp.confidence_level)}."
    )
    order = [c for c in PAIR_ORDER if c in frame.columns]
    st.dataframe(frame, hide_index=True, column_order=order, column_config=column_config(frame, help=PAIR_HELP),
                 key="cmp_table")
    out = frame.copy()
    out.insert(0, "model_b", str(b))
    out.insert(0, "model_a", str(a))
    out["confidence_level"] = cmp.confidence_level
    out["axis_confidence_level"] = cmp.axis_confidence_level
    out["method"] = "exact paired bootstrap; score intervals (eq. 4.8)"
    out["m_pos"], out["m_neg"] = cmp.m_pos, cmp.m_neg
    download_csv(out, label="Download the threshold-pair comparison (CSV)", file_name="rocci_compare_pairs.csv",
                 key="dl_cmp_pairs")


def details(an, cmp, auc, a: str, b: str, level: float, m, y, sa, sb) -> None:
    """The tabs under the pair table; only the open tab runs (lazy tabs; the open tab is in the URL)."""
    sections = {
        "Dominance map": lambda: map_tab(an, a, b, m, y, sa, sb),
        "AUC (DeLong)": lambda: auc_tab(auc, a, b),
        "McNemar": lambda: mcnemar_tab(an, cmp, a, b, y, sa, sb),
        "TPR at fixed FPR": lambda: vertical_section(an, a, b, level, m, y, sa, sb),
        "Cost difference": lambda: cost_tab(a, b),
    }
    for tab, run in zip(st.tabs(list(sections), key="cmp_tab", on_change="rerun", bind=URL), sections.values()):
        if tab.open:
            with tab:
                run()


def map_tab(an, a: str, b: str, m, y, sa, sb) -> None:
    A, B = md_escape(a), md_escape(b)
    n = int(an.prepared.n_pos) + int(an.prepared.n_neg)
    done_key = f"{an.key}|{a}|{b}|{m}"
    if n > MAP_AUTO_INSTANCES and not state.done(state.MAP_DONE, done_key):
        st.info(f"With {n:,} instances the exact laws behind the {cache_compare.GRID_SIZE} × "
                f"{cache_compare.GRID_SIZE} map take from seconds to minutes (about a minute at 10⁹ "
                "instances); it runs when you ask.", icon=":material/schedule:")
        if not st.button("Compute the dominance map", key="cmp_map_run", icon=":material/play_arrow:"):
            return
    try:  # from large data: the pair table's rows, weighted by their counts (never one row per instance)
        dmap = cache_compare.dominance_map(an.key, a, b, cache_compare.GRID_SIZE, m, y, sa, sb)
    except rocci.InputError as exc:
        error(str(exc))
    else:
        state.mark_done(state.MAP_DONE, done_key)
        report.caption(
            f"P({A} dominates) − P({B} dominates) at every pair of thresholds on a "
            f"{len(dmap.thresholds_a)} × {len(dmap.thresholds_b)} grid of quantiles of each model's scores "
            f"(repeated quantiles of tied scores appear once). Blue: {A} dominates; red: {B} dominates; "
            f"white: neither. Exact paired bootstrap, m+ = {dmap.m_pos:,}, m− = {dmap.m_neg:,}."
        )
        fig = plots_compare.dominance_heatmap(dmap, name_a=a, name_b=b)
        report.plotly_chart(fig, config=plots.plotly_config(image_format=image_format(), filename="rocci_dominance"),
                        key="cmp_map")
        download_csv(lambda: dmap.to_frame().assign(model_a=str(a), model_b=str(b), m_pos=dmap.m_pos,
                                                     m_neg=dmap.m_neg),
                     label="Download the dominance map (CSV)", file_name="rocci_dominance_map.csv",
                     key="dl_cmp_map")


def auc_tab(auc, a: str, b: str) -> None:
    A, B = md_escape(a), md_escape(b)
    c = st.columns(4)
    d_txt, lo_txt, hi_txt = signed_interval(auc.delta_auc, auc.delta_auc_low, auc.delta_auc_high, 4)
    c[0].metric("ΔAUC (A − B)", d_txt,
                help=f"AUC of {md_escape(a)} ({auc.auc_a:.4f}) − AUC of {md_escape(b)} ({auc.auc_b:.4f}).")
    c[1].metric(f"{percent(auc.confidence_level)} DeLong interval", f"[{lo_txt}, {hi_txt}]",
                help="ΔAUC ± z·(DeLong paired standard error).")
    c[2].metric("z (DeLong)", f"{auc.statistic:.3f}", help="ΔAUC / standard error.")
    c[3].metric("p-value (DeLong, two-sided)", pvalue_text(auc.pvalue), help="2·Φ(−|z|).")
    verdict = ("the interval excludes 0: the AUCs differ at this level"
               if auc.delta_auc_low > 0 or auc.delta_auc_high < 0 else "the interval contains 0: no clear difference at this level")
    report.caption(
        f"DeLong's paired test (normal approximation): AUC {A} = {auc.auc_a:.4f}, AUC {B} = {auc.auc_b:.4f}, "
        f"difference {d_txt} (sd {auc.delta_auc_std:.{len(d_txt.split('.')[-1])}f}), {percent(auc.confidence_level)} "
        f"interval [{lo_txt}, {hi_txt}] — {verdict}. Correlation of the two AUCs {auc.correlation:.3f}."
    )
    download_csv(auc.to_frame().assign(model_a=str(a), model_b=str(b)), label="Download the AUC comparison (CSV)",
                 file_name="rocci_compare_auc.csv", key="dl_cmp_auc")


def mcnemar_tab(an, cmp, a: str, b: str, y, sa, sb) -> None:
    A, B = md_escape(a), md_escape(b)
    n = len(cmp.thresholds_a)
    i = st.selectbox(
        "Threshold pair", list(range(n)), key="cmp_mc_pair",
        format_func=lambda k: f"pair {k + 1}: {a} ≥ {thr(cmp.thresholds_a[k])}, "
        f"{b} ≥ {thr(cmp.thresholds_b[k])}",
        help="The pairs chosen on the left.",
    )
    corr = st.toggle("Continuity correction", value=True, key="cmp_mc_corr",
                     help="(|e01 − e10| − 1)² / (e01 + e10), as R's mcnemar.test.")
    try:  # from large data: the 2 × 2 table summed from the pair table's counts
        mc = cache_compare.mcnemar(an.key, a, b, float(cmp.thresholds_a[i]), float(cmp.thresholds_b[i]),
                                   bool(corr), y, sa, sb)
    except rocci.InputError as exc:
        error(str(exc))
    else:
        c = st.columns(4)
        c[0].metric("χ² (McNemar, 1 df)", f"{mc.statistic:.3f}")
        c[1].metric("p-value (χ²)", pvalue_text(mc.pvalue))
        c[2].metric("Exact p-value (binomial)", pvalue_text(mc.exact_pvalue))
        c[3].metric("Accuracy A / B", f"{mc.accuracy_a:.3f} / {mc.accuracy_b:.3f}")
        report.caption(
            f"McNemar's test of equal error rates at pair {i + 1}: {mc.n_a_only_correct:,} instances are right "
            f"by {A} only and {mc.n_b_only_correct:,} by {B} only; only these discordant instances count. "
            + ("With" if corr else "Without") + " continuity correction; a small p-value means the two "
            "classifiers' error rates differ."
        )
        table = mc.table()
        table.index = [f"{a} correct", f"{a} wrong"]
        table.columns = [f"{b} correct", f"{b} wrong"]
        st.dataframe(table, key="cmp_mc_table")
        download_csv(mc.to_frame().assign(model_a=str(a), model_b=str(b), threshold_a=mc.thresholds_a,
                                          threshold_b=mc.thresholds_b, correction=mc.correction),
                     label="Download McNemar (CSV)", file_name="rocci_mcnemar.csv", key="dl_cmp_mc")


def cost_tab(a: str, b: str) -> None:
    st.markdown(
        f"The **cost difference** ΔC = C({md_escape(a)}) − C({md_escape(b)}) across operating conditions w, with its "
        "exact bootstrap interval band and the range of w where the difference is significant, is on the "
        "Cost curves page: choose the same two models there (model A and *Compare with model B*)."
    )
    st.page_link("app_pages/cost.py", label="Open the Cost curves page", icon=":material/payments:")


def vertical_section(an, a: str, b: str, level: float, m, y, sa, sb) -> None:
    m_neg = int(an.prepared.n_neg) if m is None else int(m[1])  # (from counts too: compare_vertical never expands)
    report.caption(
        "How many more positives A finds than B when both are allowed the same share of false alarms: the exact "
        "bootstrap law of ΔTPR = TPR A − TPR B at each FPR level (computed by formula, no random draws)."
    )
    controls_ui.method_note(
        "Vertical averaging for two models (Gadoury 2009, §4.4.2): at level r / m−, in each bootstrap world each "
        "model's threshold is its r-th highest resampled negative score, so both models have exactly that FPR; "
        "the joint law of the two thresholds and of the resampled positives gives the law of ΔTPR exactly.")
    text = st.text_input("FPR levels (between 0 and 1)", value="0.1, 0.2", key="cmp_vfpr", bind=URL,
                         help="Each level is moved to the nearest attainable value r / m−.")
    try:
        fpr = tuple(parse_numbers(text, what="FPR level", low=0.0, high=1.0, inclusive=False))
        levels = sorted(set(int(r) for r in fpr_levels(list(fpr), m_neg)))
    except (ParseError, rocci.InputError) as exc:
        st.warning(md_escape(str(exc)), icon=":material/warning:")
        return
    stored = [cache_compare.VERTICAL_LEVELS.get(cache_compare.vertical_level_key(an.key, a, b, r, level, m))
              for r in levels]
    # from counts the work follows the pair table's rows (compare_vertical never expands it), not m−
    size = min(m_neg, y.score_a.size) if isinstance(y, rocci.PairedCounts) else m_neg
    if size > VERTICAL_AUTO_NEG and any(v is None for v in stored):
        st.info(f"With m− = {m_neg:,} negatives each level takes from under a second to minutes (longest "
                "when the two models rank the instances almost alike); it runs when you ask, with a progress "
                "bar.", icon=":material/schedule:")
        if not st.button("Compute ΔTPR at these FPR levels", key="cmp_vrun", icon=":material/play_arrow:"):
            return
    try:
        bar = st.progress(0.0, text="Computing the exact paired law of ΔTPR…")
        parts = cache_compare.compare_vertical_levels(
            an.key, a, b, fpr, level, m, y, sa, sb,
            progress=lambda f, msg: bar.progress(min(max(float(f), 0.0), 1.0), text=msg))
        bar.empty()
    except rocci.InputError as exc:
        error(str(exc))
        return
    frame = pd.concat([vc.to_frame() for vc in parts], ignore_index=True)
    first = parts[0]
    better = [f"FPR {vc.fpr[0]:.3f}: P(A better) = {vc.p_a_better[0]:.3f}" for vc in parts]
    report.caption(f"{percent(first.confidence_level)} score intervals on the exact paired law of ΔTPR (A − B); "
               f"exact bootstrap, m+ = {first.m_pos:,}, m− = {first.m_neg:,}. " + "; ".join(better) + ".")
    shown = frame if frame["truncated_mass"].max() >= TRUNCATION_SHOWN else frame.drop(columns="truncated_mass")
    st.dataframe(shown, hide_index=True, column_config=column_config(shown, help=VERT_HELP), key="cmp_vtable")
    flat = frame[frame["delta_tpr_high"] - frame["delta_tpr_low"] <= 0]
    if len(flat):
        st.warning(
            f"At {len(flat)} FPR level(s) (e.g. {flat['fpr'].iloc[0]:.3f}) the interval has zero width: the two "
            "models' TPRs are equal (or both 1) in almost every bootstrap world, so the interval "
            "cannot show the uncertainty and under-covers there (Coverage lab, figure 4.9).",
            icon=":material/warning:")
    download_csv(frame.assign(model_a=str(a), model_b=str(b), confidence_level=first.confidence_level,
                              method="exact paired bootstrap; score interval (thesis eq. 4.8 on the exact moments)", m_pos=first.m_pos,
                              m_neg=first.m_neg),
                 label="Download ΔTPR at fixed FPR (CSV)", file_name="rocci_compare_vertical.csv", key="dl_cmp_v")
    if st.toggle("Show the exact distribution", value=False, key="cmp_vdist", bind=URL,
                 help="A bar chart of P(ΔTPR = value) at one FPR level."):
        k = st.selectbox("FPR level", list(range(len(parts))), key="cmp_vlevel",
                         format_func=lambda j: f"FPR {parts[j].fpr[0]:.4f} (r = {int(parts[j].r[0])})")
        vc = parts[k]
        values, probs = vc.distribution(0)
        fig = plots_compare.delta_distribution_figure(values, probs, low=float(vc.delta_tpr_low[0]),
                                                      high=float(vc.delta_tpr_high[0]), level=vc.confidence_level)
        report.plotly_chart(fig, config=plots.plotly_config(image_format=image_format(), filename="rocci_delta_tpr"),
                        key="cmp_vchart")
        report.caption(
            f"Exact bootstrap law of ΔTPR at FPR {vc.fpr[0]:.4f}: in {prob_text(vc.p_a_better[0])} of bootstrap "
            f"worlds {md_escape(a)} finds more positives than {md_escape(b)} at this false-alarm rate, in "
            f"{prob_text(vc.p_tie[0])} they tie. The shaded band is the {percent(vc.confidence_level)} "
            "score interval (on the law's exact mean and variance; it keeps a width where the law is a point "
            "mass, e.g. when both models find every positive)."
        )


main()
