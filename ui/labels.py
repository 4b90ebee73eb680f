"""The dashboard's one glossary: how a table column and an interval method are shown, on every page.

:data:`COLUMNS` maps a column name (as rocci's ``to_frame()`` and the pages' tables spell it) to its label,
its help text and its number format; :func:`column_config` turns it into ``st.dataframe``'s
``column_config``.  A page whose context makes a column mean something more precise (on the Cost curves page
"threshold" is the optimal threshold at this w) passes its own *help* for that column (``help={...}``); the
label and the format are the glossary's, everywhere (tests/ui/test_labels.py).

:data:`METHODS` maps an interval method's name (rocci's ``method=``) to its label: :func:`method_label` in a
table or a heading, :func:`method_text` inside a sentence ("95% percentile intervals", "DeLong's interval"),
and :func:`method_option` as a widget's option.  The option label is also the value the link shows
(``?thr_method=Agresti-Coull``), so it is the label in ASCII: links made before keep working.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st


@dataclass(frozen=True)
class Column:
    """How a column is shown: its header, its tooltip and its format.

    ``format``: a printf format (``"%.4f"``) or one of Streamlit's (``"plain"``: a count as it is, an
    expected count at a fixed depth can be fractional) for a number column; None for text.
    """

    label: str
    help: str
    format: str | None = None


def _c(label: str, help: str, format: str | None = None) -> Column:
    return Column(label, help, format)


_RATE = "%.4f"
_COUNT = "plain"
_THR = "%.6g"

#: Every column the pages show with a label, by name (one label, help and format each).
COLUMNS: dict[str, Column] = {
    # models
    "model": _c("Model", "Score column."),
    "model_a": _c("A", "Model A: differences are A − B."),
    "model_b": _c("B", "Model B."),
    "class": _c("Class", "The class taken as positive; every other class is negative."),
    "fold": _c("Fold", "The fold (or run) the rows were scored in."),
    # thresholds and operating points
    "threshold": _c("Threshold", "Instances with score ≥ threshold are predicted positive.", _THR),
    "threshold_a": _c("Threshold A", "Model A predicts positive when its score ≥ this threshold.", _THR),
    "threshold_b": _c("Threshold B", "Model B predicts positive when its score ≥ this threshold.", _THR),
    "total_positive_rate": _c("Total-positive rate", "Fraction of all instances predicted positive at this "
                              "threshold.", _RATE),
    "total_positive_rate_low": _c("Total-positive rate low", "Lower end of the total-positive rate's interval.",
                                  _RATE),
    "total_positive_rate_high": _c("Total-positive rate high", "Upper end of the total-positive rate's "
                                   "interval.", _RATE),
    "rate_a": _c("Flagged by A", "Fraction of all instances model A predicts positive at its threshold (tied "
                 "scores can make it larger than the rate asked for).", "%.3f"),
    "rate_b": _c("Flagged by B", "The same for model B.", "%.3f"),
    "w": _c("w", "Operating point.", "%.4g"),
    "w_low": _c("w from", "Lower end of the w range where this hull vertex is cheapest (a breakpoint).", "%.4g"),
    "w_high": _c("w to", "Upper end of that range.", "%.4g"),
    "p": _c("p", "Threshold probability: act when the predicted risk is ≥ p.", "%.4g"),
    # counts
    "tp": _c("TP", "True positives: positives with score ≥ threshold.", _COUNT),
    "fp": _c("FP", "False positives: negatives with score ≥ threshold.", _COUNT),
    "fn": _c("FN", "False negatives: positives with score below the threshold.", _COUNT),
    "tn": _c("TN", "True negatives: negatives with score below the threshold.", _COUNT),
    "r": _c("r", "Number of bootstrap negatives above the threshold at this FPR level.", _COUNT),
    "k": _c("k", "Instances targeted in each resample (the top k by score).", _COUNT),
    "n_at_threshold": _c("At score", "Instances with exactly this score (ties share one row).", _COUNT),
    "n_predicted_positive": _c("Predicted positive", "Instances predicted positive, TP + FP (Tanagra's #cible).", _COUNT),
    "n_pos": _c("Positives", "Positive rows.", _COUNT),
    "n_neg": _c("Negatives", "Negative rows.", _COUNT),
    "n_folds": _c("Folds", "Number of folds averaged.", _COUNT),
    # ROC rates
    "fpr": _c("FPR", "False-positive rate: negatives predicted positive / all negatives.", _RATE),
    "fpr_low": _c("FPR low", "Lower end of the FPR interval.", _RATE),
    "fpr_high": _c("FPR high", "Upper end of the FPR interval.", _RATE),
    "fpr_mean": _c("FPR mean", "Mean of the false-positive rate.", _RATE),
    "fpr_std": _c("FPR sd", "Exact bootstrap standard deviation of the FPR.", _RATE),
    "tpr": _c("TPR", "True-positive rate (sensitivity): positives predicted positive / all positives.", _RATE),
    "tpr_low": _c("TPR low", "Lower end of the TPR interval.", _RATE),
    "tpr_high": _c("TPR high", "Upper end of the TPR interval.", _RATE),
    "tpr_mean": _c("TPR mean", "Exact bootstrap mean of the TPR.", _RATE),
    "tpr_std": _c("TPR sd", "Exact bootstrap standard deviation of the TPR.", _RATE),
    "fpr_a": _c("FPR A", "Model A's false-positive rate at its threshold.", _RATE),
    "fpr_b": _c("FPR B", "Model B's false-positive rate at its threshold.", _RATE),
    "tpr_a": _c("TPR A", "Model A's true-positive rate at its threshold.", _RATE),
    "tpr_b": _c("TPR B", "Model B's true-positive rate at its threshold.", _RATE),
    "truncated_mass": _c("Truncated mass", "Probability left out of the exact computation (negligible).", "%.1e"),
    # indicators at a threshold
    "recall": _c("Recall", "TP / (TP + FN): share of the positives found.", _RATE),
    "recall_low": _c("Recall low", "Lower end of the recall interval.", _RATE),
    "recall_high": _c("Recall high", "Upper end of the recall interval.", _RATE),
    "precision": _c("Precision", "TP / (TP + FP): share of the predicted positives that are positive.", _RATE),
    "precision_low": _c("Precision low", "Lower end of the precision interval.", _RATE),
    "precision_high": _c("Precision high", "Upper end of the precision interval.", _RATE),
    "precision_mean": _c("Precision mean", "Exact bootstrap mean of the precision.", _RATE),
    "precision_std": _c("Precision sd", "Exact bootstrap standard deviation of the precision.", _RATE),
    "specificity": _c("Specificity", "TN / (FP + TN).", _RATE),
    "accuracy": _c("Accuracy", "(TP + TN) / n.", _RATE),
    "error_rate": _c("Error rate", "(FP + FN) / n.", _RATE),
    "f1": _c("F1", "2·TP / (2·TP + FP + FN).", _RATE),
    "gain": _c("Gain", "Share of the positives captured: TP / n+.", _RATE),
    "gain_low": _c("Gain low", "Lower end of the gain interval.", _RATE),
    "gain_high": _c("Gain high", "Upper end of the gain interval.", _RATE),
    "lift": _c("Lift", "Precision / share of positives = recall / total-positive rate.", "%.3f"),
    "lift_low": _c("Lift low", "Lower end of the lift interval.", "%.3f"),
    "lift_high": _c("Lift high", "Upper end of the lift interval.", "%.3f"),
    # one row per quantity (indicators, metrics, AUC)
    "indicator": _c("Indicator", "What is measured."),
    "metric": _c("Metric", "What is measured."),
    "quantity": _c("Quantity", "What is measured."),
    "law": _c("Bootstrap law", "The law of the counts in a resample (* = in a resample) that the interval is "
              "computed from exactly."),
    "value": _c("Value", "The quantity on the data.", _RATE),
    "low": _c("Low", "Lower end of the interval.", _RATE),
    "high": _c("High", "Upper end of the interval.", _RATE),
    "mean": _c("Mean", "Exact bootstrap mean (given that the quantity is defined).", _RATE),
    "std": _c("sd", "Exact bootstrap standard deviation.", _RATE),
    "p_undefined": _c("P(undefined)", "Exact probability that a bootstrap resample leaves the quantity undefined "
                      "(e.g. precision when nothing is flagged); the interval is given that it is defined.", "%.2g"),
    "method": _c("Method", "How the interval was computed."),
    "confidence_level": _c("Level", "Confidence level.", "%.3f"),
    # AUC
    "auc": _c("AUC", "Area under the ROC curve (Mann–Whitney, ties ½).", _RATE),
    "auc_low": _c("AUC low", "Lower end of the AUC interval.", _RATE),
    "auc_high": _c("AUC high", "Upper end of the AUC interval.", _RATE),
    "auc_std": _c("AUC sd", "Standard error of the AUC.", _RATE),
    "auc_method": _c("Method", "How the AUC interval is computed."),
    "average_precision": _c("Average precision", "Σ (increase in recall) × precision over the thresholds.",
                            _RATE),
    "interval": _c("Interval (Monte Carlo)", "Percentile bounds of the Monte Carlo bootstrap resamples."),
    "mc_se_std": _c("MC error of the sd", "Monte Carlo standard error of the bootstrap sd.", "%.2g"),
    "low_mc": _c("Low bound, MC range", "Where the low bound lies with ~95% Monte Carlo confidence."),
    "high_mc": _c("High bound, MC range", "Where the high bound lies with ~95% Monte Carlo confidence."),
    "baseline": _c("Baseline", "The positive share: the AP of scores with no information.", _RATE),
    # two models
    "delta_tpr": _c("ΔTPR", "TPR of A − TPR of B (observed = exact bootstrap mean).", _RATE),
    "delta_tpr_low": _c("ΔTPR low", "Lower end of the ΔTPR score interval.", _RATE),
    "delta_tpr_high": _c("ΔTPR high", "Upper end of the ΔTPR score interval.", _RATE),
    "delta_tpr_mean": _c("ΔTPR mean", "Exact bootstrap mean of TPR A − TPR B.", _RATE),
    "delta_tpr_std": _c("ΔTPR sd", "Exact bootstrap standard deviation of ΔTPR.", _RATE),
    "delta_fpr": _c("ΔFPR", "FPR of A − FPR of B (observed = exact bootstrap mean).", _RATE),
    "delta_fpr_low": _c("ΔFPR low", "Lower end of the ΔFPR score interval.", _RATE),
    "delta_fpr_high": _c("ΔFPR high", "Upper end of the ΔFPR score interval.", _RATE),
    "p_a_dominates": _c("P(A dominates)", "Exact bootstrap probability that A has TPR ≥ B's and FPR ≤ B's, and is "
                        "strictly better on at least one.", _RATE),
    "p_b_dominates": _c("P(B dominates)", "The same with the roles of A and B swapped.", _RATE),
    "p_a_better": _c("P(A better)", "Exact bootstrap probability that A is strictly better.", _RATE),
    "p_tie": _c("P(tie)", "Exact bootstrap probability that the two are equal.", _RATE),
    "delta_auc": _c("ΔAUC", "AUC of A − AUC of B.", _RATE),
    "delta_auc_low": _c("ΔAUC low", "Lower end of the pointwise DeLong interval.", _RATE),
    "delta_auc_high": _c("ΔAUC high", "Upper end of the pointwise DeLong interval.", _RATE),
    "delta_auc_low_simultaneous": _c("ΔAUC low (simult.)", "Lower end of the simultaneous interval: all pairs' "
                                     "intervals hold together at the level (max-|z| of the joint normal).", _RATE),
    "delta_auc_high_simultaneous": _c("ΔAUC high (simult.)", "Upper end of the simultaneous interval.", _RATE),
    "pvalue": _c("p", "DeLong's two-sided p-value for this pair alone.", "%.2g"),
    "pvalue_adjusted": _c("p adjusted", "The p-value adjusted for every pair compared (the method chosen).", "%.2g"),
    "p_best_auc": _c("P(best AUC)", "Probability that this model has the highest AUC under the joint normal law of "
                     "the DeLong estimates (seeded Monte Carlo of 10⁶ draws; its standard error in the next "
                     "column).", "%.3f"),
    "p_best_auc_se": _c("± se", "Monte Carlo standard error of P(best AUC).", _RATE),
    "probability": _c("Share of worlds", "Share of the bootstrap worlds (seeded Monte Carlo) in which this "
                      "threshold is the one chosen.", "%.3f"),
    "probability_se": _c("± se", "Monte Carlo standard error of that share.", "%.3f"),
    "p_best_tpr": _c("P(best TPR)", "Probability that this model finds the most positives at that false-positive "
                     "rate, under the paired bootstrap (seeded Monte Carlo of 1,000 resamples of the rows; its "
                     "standard error in the next column).", "%.3f"),
    "p_best_tpr_se": _c("± se (TPR)", "Monte Carlo standard error of P(best TPR).", "%.3f"),
    "value_a": _c("Model A", "Model A's value in this fold.", _RATE),
    "value_b": _c("Model B", "Model B's value in this fold.", _RATE),
    "delta_value": _c("A − B", "The difference in this fold; the t-test asks whether its mean is 0.", _RATE),
    # costs
    "cost": _c("Cost", "Normalised expected cost w·FNR + (1 − w)·FPR of that threshold.", _RATE),
    "cost_low": _c("Cost low", "Lower end of the cost interval.", _RATE),
    "cost_high": _c("Cost high", "Upper end of the cost interval.", _RATE),
    "cost_std": _c("Cost sd", "Exact bootstrap standard deviation of the cost.", _RATE),
    "delta_cost": _c("ΔC", "Cost of A − cost of B (below 0: A is cheaper).", _RATE),
    "delta_cost_low": _c("ΔC low", "Lower end of the interval.", _RATE),
    "delta_cost_high": _c("ΔC high", "Upper end of the interval.", _RATE),
    "delta_cost_std": _c("ΔC sd", "Exact bootstrap standard deviation of ΔC.", _RATE),
    "p_a_cheaper": _c("P(A cheaper)", "Exact bootstrap probability that A costs strictly less.", "%.3f"),
    # net benefit
    "net_benefit": _c("Net benefit", "TP/n − FP/n · p/(1 − p).", _RATE),
    "net_benefit_low": _c("NB low", "Lower end of the interval.", _RATE),
    "net_benefit_high": _c("NB high", "Upper end of the interval.", _RATE),
    "net_benefit_std": _c("NB sd", "Exact bootstrap standard deviation of the net benefit.", _RATE),
    "treat_all": _c("Treat all", "Net benefit of treating everyone: n+/n − n−/n · p/(1 − p).", _RATE),
    "treat_all_low": _c("Treat all low", "Lower end of its interval (full bootstrap: the prevalence varies).", _RATE),
    "treat_all_high": _c("Treat all high", "Upper end of its interval.", _RATE),
    "interventions_avoided": _c("Avoided /100", "Fewer interventions per 100 instances than treating everyone, for "
                                "the same net benefit: (NB − NB_all)·(1 − p)/p·100.", "%.1f"),
    "net_benefit_a": _c("NB A", "Net benefit of model A.", _RATE),
    "net_benefit_b": _c("NB B", "Net benefit of model B.", _RATE),
    "delta_net_benefit": _c("ΔNB", "NB of A − NB of B (above 0: A gives more net benefit).", _RATE),
    "delta_net_benefit_low": _c("ΔNB low", "Lower end of the percentile interval of the exact paired law.", _RATE),
    "delta_net_benefit_high": _c("ΔNB high", "Upper end of that interval.", _RATE),
    "delta_net_benefit_std": _c("ΔNB sd", "Exact bootstrap standard deviation of ΔNB.", _RATE),
    "scale_k": _c("K", "π + (1 − π)·p/(1 − p): the net benefit is π − K·NEC.", _RATE),
    "net_benefit_from_cost": _c("NB from cost", "π − K·NEC: the net benefit read back from the normalised cost.",
                                _RATE),
    "net_benefit_low_from_cost": _c("NB low from cost", "π − K·(cost high): the cost's upper bound mapped.", _RATE),
    "net_benefit_high_from_cost": _c("NB high from cost", "π − K·(cost low): the cost's lower bound mapped.", _RATE),
    # the Data page's summaries
    "rows": _c("Rows", "Rows used for this model after dropping rows with missing values.", _COUNT),
    "positives": _c("Positives", "Rows whose label is the positive value.", _COUNT),
    "negatives": _c("Negatives", "Rows with the other label value.", _COUNT),
    "distinct_scores": _c("Distinct scores", "Number of different score values. The ROC curve has one corner per "
                          "distinct score.", _COUNT),
    "tied_scores": _c("Tied scores", "Rows that share their score with at least one other row.", _COUNT),
    "pos_neg_ties": _c("Positive–negative ties", "Score values held by both a positive and a negative row; each "
                       "makes a diagonal step in the ROC curve.", _COUNT),
    "min": _c("Lowest", "Smallest value.", "%.4g"),
    "max": _c("Highest", "Largest value.", "%.4g"),
    "mean_positive": _c("Mean, positives", "Mean score of the positive rows.", "%.4g"),
    "mean_negative": _c("Mean, negatives", "Mean score of the negative rows.", "%.4g"),
    "auc_bound": _c("AUC within ±", "Σ over bins of ½·(positives × negatives in the bin) / (n+·n−): each tied pair "
                    "now counts ½.", "%.2e"),
    "tpr_bound": _c("TPR within ±", "The largest share of the positives in one bin.", "%.2e"),
    "fpr_bound": _c("FPR within ±", "The largest share of the negatives in one bin.", "%.2e"),
    # the Coverage lab's summary
    "panel": _c("Panel", "Configuration of the chart panel."),
    "series": _c("Series", "Interval method or design of the line."),
    "x_at_min": _c("Lowest at", "x value (rate or w) of the lowest coverage.", "%.3g"),
    "max_se": _c("MC se", "Largest Monte Carlo standard error on the curve (0 for exact values).", "%.3f"),
}


def column_config(frame: pd.DataFrame, *, help: dict[str, str] | None = None,
                  width: str | dict[str, str] | None = None) -> dict:
    """``st.dataframe(frame, column_config=...)`` from the glossary, for the columns of ``frame`` it has.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table shown; its other columns keep Streamlit's defaults.
    help : dict, optional
        This page's help for some columns ({column: text}), where the context says more than the glossary's
        (the label and the format stay the glossary's).  Every key must be a glossary column.
    width : str or dict, optional
        Streamlit's column width ("small", "medium", "large") for every column, or {column: width}.
    """
    help = help or {}
    unknown = [c for c in help if c not in COLUMNS]
    if unknown:
        raise KeyError(f"help given for columns that are not in the glossary (ui/labels.py): {unknown}")
    cfg = {}
    for name in frame.columns:
        col = COLUMNS.get(name) if isinstance(name, str) else None
        if col is None:
            continue
        text = help.get(name, col.help)
        size = width.get(name) if isinstance(width, dict) else width
        numeric = pd.api.types.is_numeric_dtype(frame[name]) and not pd.api.types.is_bool_dtype(frame[name])
        if col.format is not None and numeric:
            cfg[name] = st.column_config.NumberColumn(col.label, help=text, format=col.format, width=size)
        elif pd.api.types.is_object_dtype(frame[name]) or pd.api.types.is_string_dtype(frame[name]):
            cfg[name] = st.column_config.TextColumn(col.label, help=text, width=size)
        else:
            cfg[name] = st.column_config.Column(col.label, help=text, width=size)
    return cfg


# --------------------------------------------------------------------------
# Interval methods
# --------------------------------------------------------------------------

#: Every interval method the pages name, by rocci's ``method=`` value.
METHODS: dict[str, str] = {
    "wilson": "Wilson",
    "agresti-coull": "Agresti–Coull",
    "wald": "Wald",
    "percentile": "Percentile",
    "score": "Score",
    "delong": "DeLong",
    "hanley-mcneil": "Hanley–McNeil",
    "exact-bootstrap": "Exact bootstrap",
    "monte-carlo": "Monte Carlo",
}
#: Methods named after people (or a place): capitalised inside a sentence too.
PROPER_NAMES = frozenset({"wilson", "agresti-coull", "wald", "delong", "hanley-mcneil", "monte-carlo"})


def method_label(method: str) -> str:
    """'Agresti–Coull', 'Percentile': a method in a table, a heading or a list."""
    return METHODS.get(method, method)


def method_text(method: str) -> str:
    """'Agresti–Coull', 'percentile', 'exact bootstrap': a method inside a sentence."""
    label = method_label(method)
    return label if method in PROPER_NAMES or method not in METHODS else label[:1].lower() + label[1:]


def method_option(method: str) -> str:
    """'Agresti-Coull': a method as a widget's option, which is also the value the link shows (ASCII)."""
    return method_label(method).replace("–", "-")
