"""How stable is the chosen threshold? Its law across bootstrap worlds (issue 31): :func:`threshold_stability`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.counts import binary_counts
from .._core.errors import InputError, format_value
from .._core.inputs import check_choice, check_confidence_level
from .._core.results import _FrameResult, column

__all__ = ["threshold_stability", "ThresholdStability", "STABILITY_CRITERIA"]

STABILITY_CRITERIA = ("youden", "cost")
#: Most candidate thresholds kept (more distinct scores are merged into this many quantile cells).
MAX_CANDIDATES = 2000


@dataclass(repr=False)
class ThresholdStability(_FrameResult):
    """The chosen threshold and its law across bootstrap worlds (Monte Carlo).

    Attributes
    ----------
    threshold : float
        The threshold the criterion chooses on the data among the candidates (every distinct score, or
        2,000 quantile thresholds above that many: then it can differ slightly from
        :func:`rocci.youden_threshold`, which searches every score).
    thresholds, probability, probability_se : ndarray
        Every threshold chosen in at least one resample, the share of resamples that chose it, and that
        share's Monte Carlo standard error ``sqrt(p(1 − p)/n_boot)``.
    low, median, high : float
        Quantiles of the chosen threshold across resamples (``(1 − level)/2``, ½, ``(1 + level)/2``).
    p_same : float
        Share of resamples that choose the data's threshold, with ``p_same_se``.
    criterion : str
    w : float or None
    n_boot, seed, candidates : int
    confidence_level : float
    """

    threshold: float
    thresholds: np.ndarray = column("threshold")
    probability: np.ndarray = column()
    probability_se: np.ndarray = column()
    low: float
    median: float
    high: float
    p_same: float
    p_same_se: float
    criterion: str
    w: float | None
    n_boot: int
    seed: int
    candidates: int
    confidence_level: float

    _scalar_fields = ("threshold", "low", "median", "high", "p_same", "criterion", "n_boot", "seed")


def _score(tp, fp, m_pos: int, m_neg: int, criterion: str, w: float | None) -> np.ndarray:
    """The criterion to maximise at each threshold: Youden's ``TPR − FPR`` or ``−NEC(w)``."""
    if criterion == "youden":  # exactly, as integers: J·m+·m− = TP·m− − FP·m+ (ties go to the highest threshold)
        return tp * np.int64(m_neg) - fp * np.int64(m_pos)
    return -(w * (1 - tp / m_pos) + (1 - w) * fp / m_neg)


def threshold_stability(y_true, y_score=None, *, criterion="youden", w=None, n_boot=2000, seed=0,
                        confidence_level=0.95, pos_label=None) -> ThresholdStability:
    """The law of the "best" threshold across bootstrap worlds: how far could it move?

    On the data the criterion picks one threshold among the distinct scores (ties to the highest):
    Youden's ``J = TPR − FPR`` (``criterion="youden"``, :func:`rocci.youden_threshold`) or the lowest
    normalised expected cost ``w·(1 − TPR) + (1 − w)·FPR`` at an operating point ``w``
    (``criterion="cost"``, :func:`rocci.cost_threshold`; the threshold that maximises net benefit at a
    threshold probability ``p`` is this one with ``w = π+/(π+ + π−·p/(1 − p))``). Each stratified
    bootstrap world re-chooses it. The argmax of a step function over thousands of dependent candidates
    has no closed-form law that rocci computes, so this is **Monte Carlo**: ``n_boot`` seeded resamples,
    drawn as multinomial counts over the distinct scores (the same law as resampling rows; a table of
    counts is never expanded), each share reported with its Monte Carlo standard error. With more than
    2,000 distinct scores the candidates are 2,000 quantile thresholds of the scores.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`, or a :class:`~rocci.ScoreCounts` alone.
    criterion : {"youden", "cost"}
    w : float, optional
        Operating point for ``criterion="cost"`` (:func:`rocci.operating_point`).
    n_boot : int, default 2000
    seed : int, default 0
    confidence_level : float, default 0.95
        Level of the quantile range ``low … high`` of the chosen threshold.

    Returns
    -------
    ThresholdStability
    """
    level = check_confidence_level(confidence_level)
    check_choice("criterion", criterion, STABILITY_CRITERIA)
    if criterion == "cost":
        if w is None:
            raise InputError("criterion='cost' needs the operating point w in (0, 1), e.g. w=0.3 "
                             "(rocci.operating_point(p_pos, cost_fn, cost_fp) gives it).")
        try:
            w = float(w)
        except (TypeError, ValueError):
            raise InputError(f"w must be a number between 0 and 1; got {format_value(w)}.") from None
        if not 0 <= w <= 1:
            raise InputError(f"w must be a number between 0 and 1; got {format_value(w)}.")
    elif w is not None:
        raise InputError("w is for criterion='cost'; Youden's index has no operating point. Remove w.")
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 100:
        raise InputError(f"n_boot ({format_value(n_boot)}) must be a whole number of resamples, at least 100.")
    counts, _ = binary_counts(y_true, y_score, pos_label)
    values, n_pos_v, n_neg_v = counts.table()  # increasing scores
    values, n_pos_v, n_neg_v = values[::-1], n_pos_v[::-1].astype(np.int64), n_neg_v[::-1].astype(np.int64)
    if values.size > MAX_CANDIDATES:  # merge cells: each candidate keeps the instances down to the next one
        keep = np.unique(np.linspace(0, values.size - 1, MAX_CANDIDATES).round().astype(int))
        edges = np.append(keep, values.size)
        n_pos_v = np.add.reduceat(n_pos_v, edges[:-1])
        n_neg_v = np.add.reduceat(n_neg_v, edges[:-1])
        values = values[keep]
    m_pos, m_neg = counts.n_pos, counts.n_neg
    observed = int(np.argmax(_score(np.cumsum(n_pos_v), np.cumsum(n_neg_v), m_pos, m_neg, criterion, w)))
    rng = np.random.default_rng(seed)
    chosen = np.empty(int(n_boot), dtype=np.int64)
    d = values.size
    chunk = max(1, 4_000_000 // max(1, d))
    for s in range(0, int(n_boot), chunk):
        b = min(chunk, int(n_boot) - s)
        tp = np.cumsum(rng.multinomial(m_pos, n_pos_v / m_pos, size=b), axis=1)
        fp = np.cumsum(rng.multinomial(m_neg, n_neg_v / m_neg, size=b), axis=1)
        chosen[s:s + b] = np.argmax(_score(tp, fp, m_pos, m_neg, criterion, w), axis=1)
    idx, hits = np.unique(chosen, return_counts=True)
    prob = hits / n_boot
    picked = np.sort(values[chosen])
    a = (1 - level) / 2
    p_same = float(np.mean(chosen == observed))
    return ThresholdStability(
        threshold=float(values[observed]), thresholds=values[idx], probability=prob,
        probability_se=np.sqrt(prob * (1 - prob) / n_boot), low=float(np.quantile(picked, a, method="inverted_cdf")),
        median=float(np.quantile(picked, 0.5, method="inverted_cdf")),
        high=float(np.quantile(picked, 1 - a, method="inverted_cdf")), p_same=p_same,
        p_same_se=float(np.sqrt(p_same * (1 - p_same) / n_boot)), criterion=criterion, w=w, n_boot=int(n_boot),
        seed=int(seed), candidates=int(d), confidence_level=level,
    )
