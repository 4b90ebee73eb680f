"""Net benefit (decision curves, Vickers & Elkin 2006) with its exact bootstrap law: :func:`net_benefit`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from .._core.counts import binary_counts
from .._core.errors import InputError, format_value
from .._core.inputs import check_choice, check_confidence_level, check_m
from .._core.results import _FrameResult
from .laws import NetBenefitLaw

__all__ = ["net_benefit", "NetBenefit", "DEFAULT_THRESHOLDS", "NB_BOOTSTRAPS", "NB_METHODS"]

#: Threshold probabilities used when none are given: 1%, 2%, …, 99%.
DEFAULT_THRESHOLDS = np.round(np.arange(1, 100) / 100, 2)
NB_BOOTSTRAPS = ("full", "stratified")
NB_METHODS = ("percentile", "wald")


@dataclass(repr=False)
class NetBenefit(_FrameResult):
    """Net benefit of one model at threshold probabilities, with exact bootstrap intervals.

    Attributes
    ----------
    thresholds : ndarray of shape (K,)
        Threshold probabilities ``p``; an instance is flagged when its predicted risk is ``>= p``.
    net_benefit, net_benefit_std, net_benefit_low, net_benefit_high : ndarray
        ``NB(p) = TP/n − FP/n · p/(1 − p)``, the exact bootstrap standard deviation of ``NB*`` and the
        interval (``method``).
    treat_all, treat_all_low, treat_all_high : ndarray
        Flagging everyone: ``NB_all(p) = n+/n − n−/n · p/(1 − p)`` and its interval (full bootstrap: the
        prevalence varies; stratified: it is fixed, so the interval is the point).
    interventions_avoided : ndarray
        Per 100 instances, ``(NB − NB_all)·(1 − p)/p·100``: how many fewer flagged for the same benefit
        as flagging everyone.
    tp, fp : ndarray of int64
        Flagged positives and negatives on the data.
    n_pos, n_neg, m, m_pos, m_neg : int
        Class sizes; bootstrap sizes (``m`` for the full bootstrap, ``m_pos``/``m_neg`` stratified).
    bootstrap, method : str
    confidence_level : float
    """

    thresholds: np.ndarray
    net_benefit: np.ndarray
    net_benefit_std: np.ndarray
    net_benefit_low: np.ndarray
    net_benefit_high: np.ndarray
    treat_all: np.ndarray
    treat_all_low: np.ndarray
    treat_all_high: np.ndarray
    interventions_avoided: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: int
    n_neg: int
    m: int | None
    m_pos: int | None
    m_neg: int | None
    bootstrap: str
    method: str
    confidence_level: float

    _scalar_fields = ("n_pos", "n_neg", "bootstrap", "method", "confidence_level")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``threshold, net_benefit, net_benefit_std, net_benefit_low, net_benefit_high, treat_all,
        treat_all_low, treat_all_high, interventions_avoided, tp, fp``."""
        return pd.DataFrame({
            "threshold": self.thresholds, "net_benefit": self.net_benefit, "net_benefit_std": self.net_benefit_std,
            "net_benefit_low": self.net_benefit_low, "net_benefit_high": self.net_benefit_high,
            "treat_all": self.treat_all, "treat_all_low": self.treat_all_low, "treat_all_high": self.treat_all_high,
            "interventions_avoided": self.interventions_avoided, "tp": self.tp, "fp": self.fp,
        })

    def _law(self, i: int) -> NetBenefitLaw:
        odds = float(self.thresholds[i] / (1 - self.thresholds[i]))
        if self.bootstrap == "full":
            return NetBenefitLaw.full(int(self.tp[i]), int(self.fp[i]), self.n_pos + self.n_neg, int(self.m), odds)
        return NetBenefitLaw.stratified(int(self.tp[i]), int(self.fp[i]), self.n_pos, self.n_neg, int(self.m_pos),
                                        int(self.m_neg), odds)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of ``NB*`` at the ``i``-th threshold: values (increasing) and probabilities."""
        return self._law(i).support()


def _check_thresholds(thresholds) -> np.ndarray:
    if thresholds is None:
        return DEFAULT_THRESHOLDS.copy()
    arr = np.atleast_1d(np.asarray(thresholds))
    try:
        arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"thresholds must be threshold probabilities, numbers strictly between 0 and 1; got "
                         f"{format_value(thresholds)}.") from None
    if arr.ndim != 1 or arr.size == 0 or not np.all((arr > 0) & (arr < 1)):
        raise InputError("thresholds must be threshold probabilities strictly between 0 and 1 (e.g. "
                         f"thresholds=[0.05, 0.1, 0.2]); got {format_value(thresholds)}.")
    return arr


def _check_probabilities(counts) -> None:
    values = counts.table()[0]
    if values.size and (values.min() < 0 or values.max() > 1):
        raise InputError(
            f"The scores are not probabilities (they run from {format_value(float(values.min()))} to "
            f"{format_value(float(values.max()))}): net benefit reads each score as a predicted risk and compares "
            "it with the threshold probability. Calibrate the scores to risks first (e.g. logistic regression "
            "on a held-out set), or read the model by costs instead: rocci.cost_curve and rocci.cost_ci take any "
            "scores, and the threshold probability then follows from the costs, p = C(+|−)/(C(+|−) + C(−|+)).")


def net_benefit(y_true, y_score=None, *, thresholds=None, confidence_level=0.95, bootstrap="full",
                method="percentile", m=None, pos_label=None) -> NetBenefit:
    """Net benefit of a risk model at threshold probabilities, with exact bootstrap intervals.

    At a threshold probability ``p`` the model flags every instance whose predicted risk is ``>= p``
    (``TP`` positives and ``FP`` negatives flagged of ``n``), and

    ``NB(p) = TP/n − FP/n · p/(1 − p)``  (Vickers & Elkin 2006),

    the benefit of the true positives less the harm of the false positives, weighted by the odds at
    which a decision maker is indifferent. Flagging everyone gives ``NB_all(p) = π+ − π−·p/(1 − p)``,
    flagging no one 0. It is the cost curve read at one operating condition: with the operating point
    ``w = 1 − p``, ``NB(p) = π+ − π+·FN/n+ … ``, a linear transform of the expected cost.

    **Exact law.** ``bootstrap="full"`` (the default, as in the decision-curve literature: the
    prevalence varies between resamples) draws ``m`` rows from the pooled data:
    ``TP* ~ Bin(m, tp/n)``, ``FP* | TP* = x ~ Bin(m − x, fp/(n − tp))`` and
    ``NB* = (TP* − FP*·p/(1 − p))/m``; ``"stratified"`` holds the classes fixed:
    ``NB* = π+·TP*/m+ − π−·p/(1 − p)·FP*/m−`` with independent binomials. The law's CDF is
    ``Σ_x P(TP* = x)·P(FP* >= ⌈(a·x − v)/b⌉ | x)`` (:mod:`rocci.decision.laws`), summed over the window
    of ``TP*`` that leaves out less than 1e-20.

    **Intervals.** ``method="percentile"`` (default): the smallest value of the exact law whose CDF
    reaches ``α/2``, and likewise ``1 − α/2``; it holds its level under the bootstrap by construction
    (``tests/decision``). ``"wald"``: ``NB ± z·sd`` with the exact standard deviation. Where the law is
    nearly a point (few flagged, or nearly everyone) both are narrow; a score-type interval that keeps a
    width there is not offered yet.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`, or a :class:`~rocci.ScoreCounts` alone. The scores must be
        predicted risks in [0, 1]: other scores raise :class:`~rocci.InputError`, which points to the
        cost curve (:func:`rocci.cost_ci`), where any score works.
    thresholds : array_like, optional
        Threshold probabilities in (0, 1); default 0.01, 0.02, …, 0.99.
    confidence_level : float, default 0.95
    bootstrap : {"full", "stratified"}
    method : {"percentile", "wald"}
    m : None, int or (int, int)
        Full: the number of rows drawn (default ``n``). Stratified: ``(m+, m−)`` (default ``n±``).

    Returns
    -------
    NetBenefit
        ``to_frame()``: ``threshold, net_benefit, net_benefit_std, net_benefit_low, net_benefit_high,
        treat_all, treat_all_low, treat_all_high, interventions_avoided, tp, fp``; ``distribution(i)``.

    Examples
    --------
    >>> import rocci
    >>> res = rocci.net_benefit([0, 0, 1, 1, 0, 1], [.1, .3, .35, .8, .6, .9], thresholds=[0.5])
    >>> round(float(res.net_benefit[0]), 4), round(float(res.treat_all[0]), 4)
    (0.1667, 0.0)
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, NB_BOOTSTRAPS)
    check_choice("method", method, NB_METHODS)
    p = _check_thresholds(thresholds)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    _check_probabilities(counts)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    n = n_pos + n_neg
    if bootstrap == "full":
        m_full = n if m is None else _check_full_m(m, n)
        m_pos = m_neg = None
    else:
        m_full = None
        m_pos, m_neg = check_m(m, n_pos, n_neg)
    tp = counts.n_pos_ge(p).astype(np.int64)
    fp = counts.n_neg_ge(p).astype(np.int64)
    odds = p / (1 - p)
    nb = tp / n - fp / n * odds
    alpha = 1 - level
    std, low, high = np.empty(p.size), np.empty(p.size), np.empty(p.size)
    for i in range(p.size):
        if bootstrap == "full":
            law = NetBenefitLaw.full(int(tp[i]), int(fp[i]), n, m_full, float(odds[i]))
        else:
            law = NetBenefitLaw.stratified(int(tp[i]), int(fp[i]), n_pos, n_neg, m_pos, m_neg, float(odds[i]))
        _, var = law.mean_var()
        std[i] = np.sqrt(var)
        if method == "percentile":
            low[i], high[i] = law.quantiles([alpha / 2, 1 - alpha / 2])
        else:
            z = float(special.ndtri(1 - alpha / 2))
            low[i], high[i] = nb[i] - z * std[i], nb[i] + z * std[i]
    treat_all = n_pos / n - n_neg / n * odds
    if bootstrap == "full":
        # NB_all* = (P* − odds·(m − P*))/m with P* ~ Bin(m, π+), increasing in P*.
        k_lo, k_hi = (stats.binom.ppf(q, m_full, n_pos / n) for q in (alpha / 2, 1 - alpha / 2))
        all_low = (k_lo - odds * (m_full - k_lo)) / m_full
        all_high = (k_hi - odds * (m_full - k_hi)) / m_full
    else:
        all_low, all_high = treat_all.copy(), treat_all.copy()
    avoided = (nb - treat_all) / odds * 100
    return NetBenefit(
        thresholds=p, net_benefit=nb, net_benefit_std=std, net_benefit_low=low, net_benefit_high=high,
        treat_all=treat_all, treat_all_low=all_low, treat_all_high=all_high, interventions_avoided=avoided,
        tp=tp, fp=fp, n_pos=n_pos, n_neg=n_neg, m=m_full, m_pos=m_pos, m_neg=m_neg, bootstrap=bootstrap,
        method=method, confidence_level=level,
    )


def _check_full_m(m, n: int) -> int:
    if isinstance(m, (bool, np.bool_)) or not isinstance(m, (int, np.integer)) or m < 1:
        raise InputError(f"m ({format_value(m)}) must be the number of rows each full-bootstrap sample draws, a "
                         f"whole number of at least 1 (default n = {n}).")
    return int(m)
