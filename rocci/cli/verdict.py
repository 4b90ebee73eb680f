"""Two models on the same instances, in numbers: the verdict of ``rocci compare`` (and of ``rocci report``).

:func:`compute_verdict` calls rocci's paired statistics once each and gathers their numbers under flat keys
(:data:`GATE_KEYS`), the ones ``--json`` prints and ``--gate`` tests:

* the AUCs and ΔAUC with DeLong's interval and p-value (:func:`rocci.compare_auc`);
* at one false positive rate, each model's TPR (:func:`rocci.vertical_ci`), their observed difference and the
  exact paired bootstrap law of ΔTPR: its mean, percentile interval, P(A better) and P(tie)
  (:func:`rocci.compare_vertical`, ``method="percentile"``);
* with an operating condition (costs and a prior, or ``w``), the cost difference of the two models, each at its
  own least-cost threshold, with its exact interval and P(A cheaper) (:func:`rocci.compare_cost`).

A statistic that cannot be computed on these data (an :class:`rocci.InputError`, e.g. DeLong's variance is
0 when the two models rank every instance alike) leaves its keys ``None`` and says why in ``unavailable``;
the others are still given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._core.errors import InputError
from ..compare import compare_auc, compare_vertical
from ..cost import compare_cost, operating_point
from ..roc import roc_auc, vertical_ci
from .options import fmt, fmt_p, fmt_prob, one_line, percent
from .sources import Dataset

#: The numbers a ``--gate`` may test (and ``--json`` prints), with what each one is.
GATE_KEYS = {
    "auc_a": "AUC of model A",
    "auc_b": "AUC of model B",
    "delta_auc": "AUC of A − AUC of B",
    "delta_auc_std": "DeLong standard error of delta_auc",
    "delta_auc_low": "lower end of the DeLong interval of delta_auc",
    "delta_auc_high": "upper end of the DeLong interval of delta_auc",
    "pvalue": "DeLong's two-sided p-value of delta_auc = 0",
    "fpr": "the false positive rate r/n− where the TPRs are compared (nearest to --fpr)",
    "tpr_a": "TPR of model A at fpr",
    "tpr_b": "TPR of model B at fpr",
    "delta_tpr": "observed TPR of A − TPR of B at fpr",
    "delta_tpr_mean": "exact bootstrap mean of ΔTPR*",
    "delta_tpr_std": "exact bootstrap standard deviation of ΔTPR*",
    "delta_tpr_low": "lower end of the percentile interval of the exact law of ΔTPR*",
    "delta_tpr_high": "upper end of the percentile interval of the exact law of ΔTPR*",
    "p_a_better": "P(ΔTPR* > 0): exact bootstrap probability that A finds more positives at fpr",
    "p_tie": "P(ΔTPR* = 0)",
    "w": "the operating point (--cost and --prior, or --w)",
    "threshold_a": "model A's least-cost threshold at w",
    "threshold_b": "model B's least-cost threshold at w",
    "delta_cost": "normalised expected cost of A − cost of B at w (below 0: A is cheaper)",
    "delta_cost_std": "exact bootstrap standard deviation of ΔC*",
    "delta_cost_low": "lower end of the Agresti–Coull interval of delta_cost",
    "delta_cost_high": "upper end of the Agresti–Coull interval of delta_cost",
    "p_a_cheaper": "P(ΔC* < 0): exact bootstrap probability that A costs less at w",
    "n_pos": "positives used",
    "n_neg": "negatives used",
    "n_rows": "rows read",
    "rows_dropped": "rows left out (missing label or score)",
}
#: The keys that need an operating condition (``--cost`` or ``--w``).
COST_KEYS = ("w", "threshold_a", "threshold_b", "delta_cost", "delta_cost_std", "delta_cost_low",
             "delta_cost_high", "p_a_cheaper")


@dataclass(frozen=True)
class Condition:
    """The operating condition of the cost comparison: ``w`` (eq. 3.1), and the prior and costs it came from.

    Attributes
    ----------
    w : float
        ``p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−))``.
    prior, cost_fn, cost_fp : float or None
        The prior of the positive class and the costs of a false negative and of a false positive
        (``None`` when ``w`` was given directly).
    prior_from_data : bool
        The prior is the share of positives in the data.
    """

    w: float
    prior: float | None = None
    cost_fn: float | None = None
    cost_fp: float | None = None
    prior_from_data: bool = False

    def describe(self) -> str:
        """``w = 0.3726 (prior 0.3726 from the data, cost of a false negative 1, of a false positive 1)``."""
        if self.prior is None:
            return f"w = {self.w:.4f} (given)"
        source = " from the data" if self.prior_from_data else ""
        return (f"w = {self.w:.4f} (prior {self.prior:.4f}{source}, cost of a false negative {self.cost_fn:g}, "
                f"of a false positive {self.cost_fp:g})")


def condition(*, cost: tuple | None, w: float | None, prior: float | None, n_pos: int, n_neg: int) -> Condition | None:
    """The operating condition from ``--cost FN,FP`` (with ``--prior``, default the data's share of
    positives) or ``--w``; ``None`` without either."""
    if w is not None:
        return Condition(w=float(w))
    if cost is None:
        return None
    from_data = prior is None
    p = n_pos / (n_pos + n_neg) if from_data else float(prior)
    return Condition(w=float(operating_point(p, cost[0], cost[1])), prior=p, cost_fn=float(cost[0]),
                     cost_fp=float(cost[1]), prior_from_data=from_data)


def compute_verdict(data: Dataset, a: str, b: str, *, fpr: float, level: float,
                    cond: Condition | None) -> tuple[dict, dict]:
    """The verdict's numbers (flat keys, :data:`GATE_KEYS` among them) and the result objects.

    Returns
    -------
    values : dict
        JSON-ready: the data's description, the numbers (``None`` where unavailable) and ``unavailable``
        (statistic -> reason).
    results : dict
        ``"auc"`` (:class:`rocci.AucComparison`), ``"vertical"`` (:class:`rocci.VerticalComparison`),
        ``"cost"`` (:class:`rocci.CostComparison`), where computed.
    """
    values: dict[str, Any] = {
        "source": data.source, "label": data.label, "pos_label": data.pos_label, "pos_label_chosen": data.pos_note,
        "model_a": a, "model_b": b, "confidence_level": level, "from_counts": data.from_counts,
        "n_rows": data.n_rows, "rows_dropped": data.rows_dropped, "dropped_by_column": data.dropped_by_column,
        "n_pos": data.n_pos, "n_neg": data.n_neg,
    }
    order = [k for k in GATE_KEYS if k not in values]
    order[order.index("fpr") + 1:order.index("fpr") + 1] = ["fpr_requested", "r", "m_neg"]
    order[order.index("w"):order.index("w")] = ["prior", "cost_fn", "cost_fp", "prior_from_data"]
    values.update(dict.fromkeys(order))
    unavailable: dict[str, str] = {}
    results: dict[str, Any] = {}
    args = data.paired(a, b)

    try:
        auc = results["auc"] = compare_auc(*args, confidence_level=level)
        values.update(auc_a=auc.auc_a, auc_b=auc.auc_b, delta_auc=auc.delta_auc, delta_auc_std=auc.delta_auc_std,
                      delta_auc_low=auc.delta_auc_low, delta_auc_high=auc.delta_auc_high, pvalue=auc.pvalue)
    except InputError as exc:
        unavailable["auc"] = one_line(exc)
        try:  # the AUCs themselves, without the test
            values.update(auc_a=roc_auc(*data.single(a)).auc, auc_b=roc_auc(*data.single(b)).auc)
        except InputError:
            pass

    try:
        vc = results["vertical"] = compare_vertical(*args, fpr=[fpr], confidence_level=level, method="percentile")
        tpr_a = vertical_ci(*data.single(a), fpr=[fpr], confidence_level=level).tpr[0]
        tpr_b = vertical_ci(*data.single(b), fpr=[fpr], confidence_level=level).tpr[0]
        values.update(fpr=vc.fpr[0], r=vc.r[0], m_neg=vc.m_neg, tpr_a=tpr_a, tpr_b=tpr_b, delta_tpr=tpr_a - tpr_b,
                      delta_tpr_mean=vc.delta_tpr_mean[0], delta_tpr_std=vc.delta_tpr_std[0],
                      delta_tpr_low=vc.delta_tpr_low[0], delta_tpr_high=vc.delta_tpr_high[0],
                      p_a_better=vc.p_a_better[0], p_tie=vc.p_tie[0])
    except InputError as exc:
        unavailable["tpr"] = one_line(exc)
    values["fpr_requested"] = fpr

    if cond is not None:
        values.update(prior=cond.prior, cost_fn=cond.cost_fn, cost_fp=cond.cost_fp,
                      prior_from_data=cond.prior_from_data, w=cond.w)
        try:
            cc = results["cost"] = compare_cost(*args, w=[cond.w], confidence_level=level)
            values.update(threshold_a=cc.threshold_a[0], threshold_b=cc.threshold_b[0],
                          delta_cost=cc.delta_cost[0], delta_cost_std=cc.delta_cost_std[0],
                          delta_cost_low=cc.delta_cost_low[0], delta_cost_high=cc.delta_cost_high[0],
                          p_a_cheaper=cc.p_a_cheaper[0])
        except InputError as exc:
            unavailable["cost"] = one_line(exc)
    values["unavailable"] = unavailable
    return {k: _plain(v) for k, v in values.items()}, results


def _plain(value: Any) -> Any:
    """numpy scalars as Python numbers; ``nan`` and infinities as ``None`` (JSON has neither)."""
    if hasattr(value, "item") and not isinstance(value, (dict, list, str)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def winner(low: float | None, high: float | None, a: str, b: str, *, higher_is_better: bool = True,
           better: str = "better") -> str:
    """The verdict of one interval of A − B in plain words: which model is ``better`` at the level, or neither."""
    if low is None or high is None:
        return "not available"
    if low > 0 or high < 0:
        a_wins = (low > 0) == higher_is_better
        return f"{a if a_wins else b} is {better} (the interval excludes 0)"
    return "no clear difference (the interval contains 0)"


def verdict_lines(v: dict) -> list[str]:
    """The verdict as plain text, one statistic per paragraph (what ``rocci compare`` prints)."""
    a, b, level = v["model_a"], v["model_b"], percent(v["confidence_level"])
    lines = [f"A = {a}, B = {b}; every difference is A - B, every interval at {level}.", ""]
    un = v["unavailable"]
    lines.append(f"AUC        A {fmt(v['auc_a'])}, B {fmt(v['auc_b'])}")
    if "auc" in un:
        lines.append(f"AUC diff.  not available: {un['auc']}")
    else:
        lines.append(f"AUC diff.  {fmt(v['delta_auc'], signed=True)}, DeLong interval "
                     f"[{fmt(v['delta_auc_low'], signed=True)}, {fmt(v['delta_auc_high'], signed=True)}], "
                     f"p = {fmt_p(v['pvalue'])}")
        lines.append(f"           -> {winner(v['delta_auc_low'], v['delta_auc_high'], a, b)}")
    if "tpr" in un:
        lines.append(f"TPR diff.  not available: {un['tpr']}")
    else:
        lines.append(f"TPR diff.  at FPR {fmt(v['fpr'])} (r = {v['r']} of {v['m_neg']:,} negatives; asked "
                     f"{v['fpr_requested']:g}): TPR A {fmt(v['tpr_a'])}, B {fmt(v['tpr_b'])}, difference "
                     f"{fmt(v['delta_tpr'], signed=True)}")
        lines.append(f"           exact paired bootstrap: mean {fmt(v['delta_tpr_mean'], signed=True)}, percentile "
                     f"interval [{fmt(v['delta_tpr_low'], signed=True)}, {fmt(v['delta_tpr_high'], signed=True)}], "
                     f"P(A better) {fmt_prob(v['p_a_better'])}, P(tie) {fmt_prob(v['p_tie'])}")
        lines.append(f"           -> {winner(v['delta_tpr_low'], v['delta_tpr_high'], a, b)}")
    if v["w"] is None:
        lines.append("Cost diff. not computed: give --cost FN,FP (and --prior) or --w to compare the costs.")
    elif "cost" in un:
        lines.append(f"Cost diff. not available: {un['cost']}")
    else:
        cond = Condition(v["w"], v["prior"], v["cost_fn"], v["cost_fp"], bool(v["prior_from_data"]))
        lines.append(f"Cost diff. at {cond.describe()}; thresholds A >= {v['threshold_a']:.6g}, "
                     f"B >= {v['threshold_b']:.6g}")
        lines.append(f"           {fmt(v['delta_cost'], signed=True)} (normalised cost), Agresti-Coull interval "
                     f"[{fmt(v['delta_cost_low'], signed=True)}, {fmt(v['delta_cost_high'], signed=True)}], "
                     f"P(A cheaper) {fmt_prob(v['p_a_cheaper'])}")
        lines.append("           -> " + winner(v["delta_cost_low"], v["delta_cost_high"], a, b, higher_is_better=False,
                                                better="cheaper"))
    return lines
