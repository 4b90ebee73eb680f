"""The column glossary: what every column of every public result's ``to_frame()`` means, and its unit.

One name per quantity (issue 30): a column is either listed in :data:`COLUMNS` or built from a listed stem by
one of the :data:`PATTERNS` (``tpr_low`` is the lower bound of ``tpr``; ``delta_tpr_low`` the lower bound of
``delta_tpr``, itself ``tpr`` of model A − ``tpr`` of model B).  :func:`explain` resolves a name;
``tests/test_glossary.py`` checks that every column of every public result resolves, and that
``docs/conventions.md``'s "Column glossary" is :func:`glossary_markdown` (``python scripts/glossary.py``
rewrites it).

rocci 0.3 gave each quantity one name (CHANGELOG.md lists the renames: ``target_rate`` and ``reading_rate``
are ``total_positive_rate``, ``target_size`` and ``accepted`` are ``n_predicted_positive``, ``sensitivity`` is
``tpr``, the AUC results' bare ``std``, ``low``, ``high`` are ``auc_std``…).  Kept apart on purpose: ``recall``
(the precision–recall axis) and ``tpr`` (the ROC axis) name one quantity in two traditions, and ``ppv`` (at a
prevalence the user enters) is not the sample's ``precision``.
"""

from __future__ import annotations

#: The units, in the order the glossary lists them.
UNITS = {
    "rate": "a share of the instances, in [0, 1] (of one class: TPR, FPR, recall; of all: total positive rate)",
    "probability": "a probability in [0, 1] (under the bootstrap unless said otherwise)",
    "metric": "a confusion-matrix metric on its own scale ([0, 1]; [−1, 1] for MCC and Youden's J)",
    "ratio": "a non-negative ratio (lift, likelihood ratios, odds ratio; can be ∞)",
    "area": "an area under a curve, in [0, 1]",
    "cost": "a normalised expected cost, in [0, 1]",
    "net benefit": "true positives per instance less the weighted false positives, in [−odds, 1]",
    "score": "on the scale of the scores (a threshold: ``score >= threshold`` is positive)",
    "weight": "an operating point w in [0, 1] (the share of the cost carried by the positives)",
    "count": "a number of instances (or of bootstrap draws)",
    "integer": "a whole number that is not a count of instances (an index, a rank, a seed)",
    "statistic": "a test statistic",
    "level": "a confidence level in (0, 1)",
    "label": "a name: a model, a class, a fold",
    "as estimate": "the unit of the quantity the result (or the row) estimates",
    "text": "words: a method, a kind, an alternative",
    "flag": "True or False",
}

#: column -> (unit, meaning), alphabetical.  The meaning is one line; the result's docstring has the detail.
COLUMNS: dict[str, tuple[str, str]] = {
    "accuracy": ("metric", "(TP + TN)/n"),
    "alternative": ("text", "the alternative hypothesis: 'two-sided', 'greater' or 'less'"),
    "auc": ("area", "area under the ROC curve (Mann–Whitney, ties ½)"),
    "auc_method": ("text", "the method of the AUC's interval (OneVsRest)"),
    "average_precision": ("area", "average precision (scikit-learn's definition, ties grouped)"),
    "balanced_accuracy": ("metric", "(TPR + specificity)/2"),
    "baseline": ("rate", "n+/n: the value of scores that carry no information (precision, average precision)"),
    "bootstrap": ("text", "the bootstrap: 'stratified' or 'full' (Confusion: the law of each row's interval)"),
    "class": ("label", "the class taken as positive (one-vs-rest)"),
    "confidence_level": ("level", "the level of each interval (of the joint region where the result says so)"),
    "cost": ("cost", "normalised expected cost w·(1 − TPR) + (1 − w)·FPR"),
    "delta_auc_high_simultaneous": ("area", "upper bound of the simultaneous interval of delta_auc (all pairs "
                                            "together at the level)"),
    "delta_auc_low_simultaneous": ("area", "lower bound of the simultaneous interval of delta_auc"),
    "df": ("integer", "degrees of freedom (Welch–Satterthwaite: not a whole number)"),
    "diagnostic_odds_ratio": ("ratio", "LR+/LR−"),
    "distinct_scores": ("count", "distinct scores of a model (ScanResult)"),
    "error_rate": ("rate", "(FP + FN)/n, the share misclassified"),
    "errors": ("count", "ReadingCurve: FP, the instances read wrongly; BinomialTest: the misclassified "
                        "instances"),
    "exact_pvalue": ("probability", "two-sided exact binomial p-value of McNemar's test"),
    "f1": ("metric", "2·TP/(2·TP + FP + FN)"),
    "fbeta": ("metric", "(1 + β²)·TP/((1 + β²)·TP + β²·FN + FP)"),
    "fn": ("count", "false negatives: positives scoring below the threshold"),
    "fold": ("label", "the fold"),
    "fp": ("count", "false positives: negatives with score >= threshold"),
    "fp_max": ("count", "the largest bootstrap FP* the band's box allows"),
    "fp_min": ("count", "the smallest bootstrap FP* the band's box allows"),
    "fpr": ("rate", "false positive rate FP/n− (CoverageResult: the coverage probability of the FPR "
                    "interval)"),
    "gain": ("rate", "the gain, TP/n+ (the recall, read on a gain chart)"),
    "high": ("as estimate", "upper bound of the interval of the row's value (Confusion, one row per indicator)"),
    "high_mc_from": ("as estimate", "where the upper bound lies, with ~95% Monte Carlo confidence: from"),
    "high_mc_to": ("as estimate", "where the upper bound lies, with ~95% Monte Carlo confidence: to"),
    "indicator": ("text", "the row's indicator (Confusion: accuracy, precision, recall, …)"),
    "interpolated": ("flag", "True on the points between two ROC points (Davis and Goadrich)"),
    "interventions_avoided": ("count", "per 100 instances, (NB − NB_all)·(1 − p)/p·100"),
    "k": ("count", "instances targeted in a bootstrap sample at a fixed total positive rate"),
    "lift": ("ratio", "precision/(n+/n) = gain/total positive rate"),
    "low": ("as estimate", "lower bound of the interval of the row's value (Confusion, one row per indicator)"),
    "low_mc_from": ("as estimate", "where the lower bound lies, with ~95% Monte Carlo confidence: from"),
    "low_mc_to": ("as estimate", "where the lower bound lies, with ~95% Monte Carlo confidence: to"),
    "lr_negative": ("ratio", "negative likelihood ratio (1 − sensitivity)/specificity"),
    "lr_positive": ("ratio", "positive likelihood ratio sensitivity/(1 − specificity)"),
    "mcc": ("metric", "Matthews correlation coefficient"),
    "method": ("text", "the interval method (Confusion: the method and the law of each row)"),
    "model": ("label", "the model"),
    "n": ("count", "instances tested (BinomialTest)"),
    "n_a_neg": ("count", "negatives that only model A predicts positive"),
    "n_a_only_correct": ("count", "instances model A classifies correctly and model B does not"),
    "n_a_pos": ("count", "positives that only model A predicts positive"),
    "n_at_threshold": ("count", "instances scoring exactly the threshold"),
    "n_b_neg": ("count", "negatives that only model B predicts positive"),
    "n_b_only_correct": ("count", "instances model B classifies correctly and model A does not"),
    "n_b_pos": ("count", "positives that only model B predicts positive"),
    "n_predicted_positive": ("count", "TP + FP, the instances predicted positive (Tanagra's #cible; the instances read on a "
                                      "reading curve)"),
    "n_boot": ("count", "Monte Carlo resamples"),
    "n_both_correct": ("count", "instances both models classify correctly"),
    "n_both_wrong": ("count", "instances both models misclassify"),
    "n_folds": ("count", "folds averaged"),
    "n_neg": ("count", "negatives, n−"),
    "n_pos": ("count", "positives, n+"),
    "net_benefit": ("net benefit", "TP/n − FP/n·p/(1 − p) at the threshold probability p"),
    "npv": ("metric", "negative predictive value TN/(TN + FN) (ClinicalPanel: at the prevalence)"),
    "p0": ("rate", "the error rate of the null hypothesis"),
    "p_a_better": ("probability", "probability that model A is better: Δ* > 0 (larger is better: TPR, metrics, "
                                  "net benefit); ΔFPR* < 0 in compare_fpr_at_recall"),
    "p_a_cheaper": ("probability", "P(ΔC* < 0): model A costs strictly less"),
    "p_a_dominates": ("probability", "P(ΔTPR* >= 0)·P(ΔFPR* <= 0) − P(both = 0): A's point dominates B's "
                                     "(eq. 4.5)"),
    "p_b_dominates": ("probability", "the same with B and A exchanged"),
    "p_best_auc": ("probability", "probability that the model has the highest AUC under N(θ, S)"),
    "p_best_tpr": ("probability", "probability that the model has the highest TPR at the FPR, under the paired "
                   "bootstrap (seeded Monte Carlo)"),
    "p_fpr_a_lower": ("probability", "P(ΔFPR* < 0) (UnpairedThresholdComparison)"),
    "p_fpr_tie": ("probability", "P(ΔFPR* = 0)"),
    "p_neg": ("rate", "the true FPR of the world (CoverageResult)"),
    "p_pos": ("rate", "the true TPR of the world (CoverageResult)"),
    "p_tie": ("probability", "P(Δ* = 0): the two models tie"),
    "p_tpr_a_higher": ("probability", "P(ΔTPR* > 0) (UnpairedThresholdComparison; `p_a_better` at FPR levels)"),
    "p_tpr_tie": ("probability", "P(ΔTPR* = 0)"),
    "p_undefined": ("probability", "probability that the metric is undefined in a bootstrap sample (left out of "
                                   "its law)"),
    "post_test_negative": ("probability", "post-test probability after a negative test, at the pre-test "
                                          "probability"),
    "post_test_positive": ("probability", "post-test probability after a positive test, at the pre-test "
                                          "probability"),
    "ppv": ("metric", "positive predictive value at the prevalence (`precision` at the data's prevalence)"),
    "precision": ("metric", "TP/(TP + FP)"),
    "probability": ("probability", "share of the resamples that chose the threshold (ThresholdStability)"),
    "pvalue": ("probability", "the test's p-value"),
    "pvalue_adjusted": ("probability", "the p-value adjusted for the number of pairs (Holm or Bonferroni)"),
    "pvalue_t": ("probability", "p-value from Student's t with df degrees of freedom"),
    "r": ("integer", "the rank r of the level r/m (r/m− for an FPR, r/m+ for a recall)"),
    "recall": ("rate", "TP/n+ (`tpr` on ROC results, `sensitivity` on the clinical panel, `gain` on gain "
                       "charts)"),
    "region": ("probability", "the coverage probability of the region (CoverageResult)"),
    "region_kind": ("text", "the region: 'rectangle' or 'marginal'"),
    "seed": ("integer", "the Monte Carlo seed"),
    "specificity": ("rate", "TN/n− = 1 − FPR"),
    "statistic": ("statistic", "the test statistic (z, or McNemar's χ²)"),
    "statistic_corrected": ("statistic", "McNemar's statistic with the continuity correction"),
    "statistic_uncorrected": ("statistic", "McNemar's statistic without the continuity correction"),
    "substitution_rate": ("rate", "FP/(TP + FP), the share of errors among those read"),
    "successes": ("count", "the binomial count the row's interval rests on"),
    "threshold": ("score", "the threshold: an instance is predicted positive when score >= threshold"),
    "threshold_above": ("score", "threshold of the ROC point above the row's segment"),
    "threshold_below": ("score", "threshold of the ROC point below the row's segment"),
    "tn": ("count", "true negatives: negatives scoring below the threshold"),
    "total_positive_rate": ("rate", "(TP + FP)/n, the share of all instances predicted positive"),
    "tp": ("count", "true positives: positives with score >= threshold"),
    "tp_max": ("count", "the largest bootstrap TP* the band's box allows"),
    "tp_min": ("count", "the smallest bootstrap TP* the band's box allows"),
    "tpr": ("rate", "true positive rate TP/n+ (CoverageResult: the coverage probability of the TPR interval)"),
    "treat_all": ("net benefit", "net benefit of flagging everyone, n+/n − n−/n·p/(1 − p)"),
    "trials": ("count", "the binomial trials of the row's interval"),
    "truncated_mass": ("probability", "probability left out of the computed window of the law"),
    "value": ("as estimate", "the row's value (Confusion: the indicator; FoldComparison: the measure)"),
    "w": ("weight", "the operating point w = p+·C(−|+)/(p+·C(−|+) + p−·C(+|−))"),
    "youden": ("metric", "Youden's J = TPR − FPR"),
}

#: (pattern, meaning, unit) for the columns built from a stem: ``{stat}`` is any name the glossary explains
#: (directly or by another pattern); the unit is the stem's unless given.
PATTERNS: tuple[tuple[str, str, str | None], ...] = (
    ("{stat}_low", "lower bound of the confidence interval of {stat}", None),
    ("{stat}_high", "upper bound of the confidence interval of {stat}", None),
    ("{stat}_std", "standard deviation of {stat}: exact under the bootstrap (DeLong's standard error for AUCs, "
                   "the folds' sd for fold averages)", None),
    ("{stat}_mean", "mean of {stat}: exact under the bootstrap (over the folds for fold averages)", None),
    ("{stat}_se", "Monte Carlo standard error of {stat}", None),
    ("delta_{stat}", "{stat} of model A − {stat} of model B (A the first score argument)", None),
    ("{stat}_a", "{stat} of model A (or of test set A)", None),
    ("{stat}_b", "{stat} of model B (or of test set B)", None),
    ("p_{stat}_undefined", "probability that {stat} is undefined in a bootstrap sample (left out of its law)",
     "probability"),
)


def explain(name: str) -> tuple[str, str] | None:
    """``(unit, meaning)`` of the column ``name``, or None when the glossary does not know it.

    A listed name wins; otherwise the first pattern whose stem the glossary explains (``delta_tpr_low``: the
    lower bound of ``delta_tpr``, model A − model B of ``tpr``).
    """
    if name in COLUMNS:
        return COLUMNS[name]
    for pattern, meaning, unit in PATTERNS:
        prefix, _, suffix = pattern.partition("{stat}")
        if name.startswith(prefix) and name.endswith(suffix) and len(name) > len(prefix) + len(suffix):
            stem = name[len(prefix):len(name) - len(suffix)]
            found = explain(stem)
            if found is not None:
                return (unit or found[0], meaning.format(stat=f"`{stem}`"))
    return None


def stems(name: str) -> set[str]:
    """The listed names ``name`` rests on (itself if listed; else the stems of its pattern)."""
    if name in COLUMNS:
        return {name}
    for pattern, _, _ in PATTERNS:
        prefix, _, suffix = pattern.partition("{stat}")
        if name.startswith(prefix) and name.endswith(suffix) and len(name) > len(prefix) + len(suffix):
            stem = name[len(prefix):len(name) - len(suffix)]
            if explain(stem) is not None:
                return stems(stem)
    return set()


#: The lines around the generated section in docs/conventions.md.
BEGIN = "<!-- column glossary: generated by scripts/glossary.py from rocci/_core/glossary.py; do not edit -->"
END = "<!-- end of the column glossary -->"


def glossary_markdown() -> str:
    """The "Column glossary" section of docs/conventions.md (without its heading): the patterns, the units and
    every listed column."""
    lines = [
        "Every column of every result's `to_frame()` is one of these names, or one of them with a pattern",
        f"applied ({len(COLUMNS)} names, {len(PATTERNS)} patterns; `rocci/_core/glossary.py`, checked by",
        "`tests/test_glossary.py`; `python scripts/glossary.py` rewrites this section).",
        "",
        "| pattern | meaning |",
        "|---|---|",
    ]
    lines += [f"| `{p.replace('{stat}', '<stat>')}` | {_cell(m.replace('{stat}', '`<stat>`'))} |"
              for p, m, _ in PATTERNS]
    lines += ["", "| unit | |", "|---|---|"]
    lines += [f"| {u} | {_cell(text)} |" for u, text in UNITS.items()]
    lines += ["", "| column | unit | meaning |", "|---|---|---|"]
    lines += [f"| `{name}` | {unit} | {_cell(meaning)} |" for name, (unit, meaning) in sorted(COLUMNS.items())]
    return "\n".join(lines) + "\n"


def replace_section(page: str) -> str:
    """``page`` (docs/conventions.md's text) with the generated section between :data:`BEGIN` and :data:`END`
    replaced by :func:`glossary_markdown`; a page without them gets the section at its end."""
    body = f"{BEGIN}\n\n{glossary_markdown()}\n{END}"
    if BEGIN in page and END in page:
        head, _, rest = page.partition(BEGIN)
        return head + body + rest.partition(END)[2]
    return page.rstrip("\n") + "\n\n## Column glossary\n\n" + body + "\n"


def _cell(text: str) -> str:
    """``text`` inside a Markdown table cell (a bare ``|`` would end the cell, a pair of ``*`` start italics)."""
    return text.replace("|", "\\|").replace("*", "\\*")
