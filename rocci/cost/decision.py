"""Net benefit (decision curves, Vickers & Elkin 2006) with its exact bootstrap law: :func:`net_benefit`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .._core.counts import binary_counts, joint_ge_counts, paired_input
from .._core.exact import QUANTILE_TOL
from .._core.errors import InputError, format_value
from .._core.inputs import check_choice, check_confidence_level, check_labels, check_m, check_scores, split_by_class
from .._core.compat import renamed_attribute
from .._core.results import _FrameResult, column
from ._decision_bounds import _agresti_coull
from ._decision_laws import NetBenefitLaw
from ._common import AGRESTI_ADD
from .fourier import _paired_law

__all__ = ["net_benefit", "NetBenefit", "compare_net_benefit", "NetBenefitComparison", "DEFAULT_THRESHOLDS", "NB_BOOTSTRAPS", "NB_METHODS"]

#: Threshold probabilities used when none are given: 1%, 2%, …, 99%.
DEFAULT_THRESHOLDS = np.round(np.arange(1, 100) / 100, 2)
NB_BOOTSTRAPS = ("full", "stratified")
NB_METHODS = ("percentile", "wald", "agresti-coull")


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
    n_pos, n_neg, m_total, m_pos, m_neg : int
        Class sizes; bootstrap sizes (``m_total`` rows drawn by the full bootstrap, as in
        :class:`rocci.CostCI`; ``m_pos``/``m_neg`` stratified).  ``m`` before rocci 0.3.
    bootstrap, method : str
    confidence_level : float
    """

    thresholds: np.ndarray = column("threshold")
    net_benefit: np.ndarray = column()
    net_benefit_std: np.ndarray = column()
    net_benefit_low: np.ndarray = column()
    net_benefit_high: np.ndarray = column()
    treat_all: np.ndarray = column()
    treat_all_low: np.ndarray = column()
    treat_all_high: np.ndarray = column()
    interventions_avoided: np.ndarray = column()
    tp: np.ndarray = column()
    fp: np.ndarray = column()
    n_pos: int
    n_neg: int
    m_total: int | None
    m_pos: int | None
    m_neg: int | None
    bootstrap: str
    method: str
    confidence_level: float
    add: float = AGRESTI_ADD  # the Agresti–Coull pseudo-count (method="agresti-coull")

    _scalar_fields = ("n_pos", "n_neg", "bootstrap", "method", "confidence_level")
    m = renamed_attribute("NetBenefit", "m", "m_total")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "NetBenefit":
        """The same net benefits with the intervals at another level, or by another method, from the counts
        kept (each threshold's exact law follows from its ``tp``, ``fp`` and the sizes): nothing is read from the
        data again, and the result equals :func:`net_benefit`'s with this ``confidence_level`` and ``method``
        (``"percentile"``, ``"wald"`` or ``"agresti-coull"``; default: this result's)."""
        from dataclasses import replace

        from ._decision_bounds import net_benefit_bounds

        level, method = self._interval_args(confidence_level, method, NB_METHODS)
        return replace(self, **net_benefit_bounds(self, level, method), method=method, confidence_level=level)

    def _law(self, i: int) -> NetBenefitLaw:
        odds = float(self.thresholds[i] / (1 - self.thresholds[i]))
        if self.bootstrap == "full":
            return NetBenefitLaw.full(int(self.tp[i]), int(self.fp[i]), self.n_pos + self.n_neg, int(self.m_total), odds)
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
                method="percentile", m=None, pos_label=None, add=AGRESTI_ADD) -> NetBenefit:
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
    ``Σ_x P(TP* = x)·P(FP* >= ⌈(a·x − v)/b⌉ | x)`` (:mod:`rocci.cost._decision_laws`), summed over the window
    of ``TP*`` that leaves out less than 1e-20.

    **Intervals.** ``method="percentile"`` (default): the smallest value of the exact law whose CDF
    reaches ``α/2``, and likewise ``1 − α/2``; it holds its level under the bootstrap by construction
    (``tests/decision``). ``"wald"``: ``NB ± z·sd`` with the exact standard deviation.
    ``"agresti-coull"``: the same Wald interval after ``add`` pseudo-counts in each confusion cell (TP,
    FN, FP, TN) on the resample's scale, as :func:`rocci.cost_ci` does (with ``m = n``, simply the counts
    plus ``add``): full bootstrap ``t̃ = (m·tp/n + add)/(m + 4·add)``, ``f̃ = (m·fp/n + add)/(m + 4·add)``,
    ``NB̃ = t̃ − o·f̃``,
    ``Var = [t̃(1 − t̃) + o²·f̃(1 − f̃) + 2o·t̃·f̃]/(m + 4·add)`` with ``o = p/(1 − p)``, clipped to
    ``[−o, 1]``; stratified ``TPR̃ = (tp + add)/(n+ + 2·add)``, ``FPR̃ = (fp + add)/(n− + 2·add)``,
    ``NB̃ = π+·TPR̃ − π−·o·FPR̃``, ``Var = π+²·TPR̃(1 − TPR̃)/(m+ + 2·add) + π−²·o²·FPR̃(1 − FPR̃)/(m− + 2·add)``,
    clipped to ``[−π−·o, π+]`` (exactly :func:`rocci.cost_ci`'s Agresti–Coull interval read through
    ``NB = π+ − K·NEC``). **Which to use**: the percentile interval is the bootstrap's own, but where few
    instances are flagged (high thresholds) the law is nearly a point and no bootstrap interval covers the
    population's net benefit: with 10% prevalence and 300 rows, at thresholds flagging 0.6% and 0.16% of
    the rows, the percentile interval covered the true NB in 74% and 36% of 400 simulated samples, Wald in
    81% and 39%, Agresti–Coull in 99.8% and 100% (95% elsewhere, 94–98%: ``scripts/nb_coverage.py``,
    ``tests/decision/test_net_benefit_coverage.py``). Prefer Agresti–Coull where fewer than about 10
    instances are flagged.

    **Speed.** Each threshold's two percentile bounds take one exact CDF, at both levels' Cornish–Fisher
    guesses (the law's exact first four cumulants), with the law read by rows of ``TP*`` or of ``FP*``,
    whichever computes fewer binomial tails; then the law's atoms between each guess and its answer, each
    with its probability, give ``P(NB* <= u)`` exactly at every atom ``u`` on the way
    (:mod:`rocci.cost._decision_quantiles`). At 10⁶ rows the 99-point grid takes about 6 ``numpy.argsort``
    of the same scores, full bootstrap or stratified (``bench/bench_decision.py``; the search before it,
    timed in the same run, 35 full and 8.5 stratified).

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
    method : {"percentile", "wald", "agresti-coull"}
    m : None, int or (int, int)
        Full: the number of rows drawn (default ``n``). Stratified: ``(m+, m−)`` (default ``n±``).
    add : float, default 2
        Agresti–Coull pseudo-count per confusion cell (as :func:`rocci.cost_ci`).

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
        elif method == "wald":
            z = float(special.ndtri(1 - alpha / 2))
            low[i], high[i] = nb[i] - z * std[i], nb[i] + z * std[i]
    if method == "agresti-coull":
        low, high = _agresti_coull(tp, fp, n_pos, n_neg, odds, level, bootstrap, m_full, (m_pos, m_neg),
                                   _check_add(add))
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
        tp=tp, fp=fp, n_pos=n_pos, n_neg=n_neg, m_total=m_full, m_pos=m_pos, m_neg=m_neg, bootstrap=bootstrap,
        method=method, confidence_level=level, add=float(add),
    )


def _check_add(add) -> float:
    try:
        value = float(add)
    except (TypeError, ValueError):
        raise InputError(f"add must be a pseudo-count, a number >= 0 (default 2); got {format_value(add)}.") from None
    if not np.isfinite(value) or value < 0:
        raise InputError(f"add must be a pseudo-count, a number >= 0 (default 2); got {format_value(add)}.")
    return value


def _check_full_m(m, n: int) -> int:
    if isinstance(m, (bool, np.bool_)) or not isinstance(m, (int, np.integer)) or m < 1:
        raise InputError(f"m ({format_value(m)}) must be the number of rows each full-bootstrap sample draws, a "
                         f"whole number of at least 1 (default n = {n}).")
    return int(m)


@dataclass(repr=False)
class NetBenefitComparison(_FrameResult):
    """Two risk models' net benefit on the same instances, ``ΔNB = NB_a − NB_b``, with its exact paired law.

    Attributes
    ----------
    thresholds : ndarray of shape (K,)
    net_benefit_a, net_benefit_b, delta_net_benefit, delta_net_benefit_std : ndarray
    delta_net_benefit_low, delta_net_benefit_high : ndarray
        Percentile interval of the exact law of ``ΔNB*``.
    p_a_better, p_tie : ndarray
        ``P(ΔNB* > 0)`` and ``P(ΔNB* = 0)`` under the bootstrap.
    n_pos, n_neg, m_total, m_pos, m_neg : int
    bootstrap : str
    confidence_level : float
    """

    thresholds: np.ndarray = column("threshold")
    net_benefit_a: np.ndarray = column()
    net_benefit_b: np.ndarray = column()
    delta_net_benefit: np.ndarray = column()
    delta_net_benefit_std: np.ndarray = column()
    delta_net_benefit_low: np.ndarray = column()
    delta_net_benefit_high: np.ndarray = column()
    p_a_better: np.ndarray = column()
    p_tie: np.ndarray = column()
    cells: np.ndarray
    n_pos: int
    n_neg: int
    m_total: int | None
    m_pos: int | None
    m_neg: int | None
    bootstrap: str
    confidence_level: float

    _scalar_fields = ("n_pos", "n_neg", "bootstrap", "confidence_level")
    m = renamed_attribute("NetBenefitComparison", "m", "m_total")

    def confidence_interval(self, confidence_level=0.95, method=None) -> "NetBenefitComparison":
        """The same comparison with the percentile intervals at another level, from the paired cells kept (the
        exact law of ``ΔNB*`` follows from them): nothing is read from the data again, and the result equals
        :func:`compare_net_benefit`'s with this ``confidence_level`` (``method``: ``"percentile"``, the only
        one)."""
        from dataclasses import replace

        from ._decision_bounds import comparison_bounds

        level, _ = self._interval_args(confidence_level, method, ("percentile",))
        low, high = comparison_bounds(self, level)
        return replace(self, delta_net_benefit_low=low, delta_net_benefit_high=high, confidence_level=level)

    def _law(self, i: int):
        sizes = self.m_total if self.bootstrap == "full" else (self.m_pos, self.m_neg)
        na_p, nb_p, na_n, nb_n = (int(v) for v in self.cells[i])
        law = _paired_law((na_p, nb_p), (na_n, nb_n), self.n_pos, self.n_neg, self.bootstrap, sizes)
        return law, _paired_scales(float(self.thresholds[i]), self.n_pos, self.n_neg, self.bootstrap, sizes)

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact bootstrap law of ``ΔNB*`` at the ``i``-th threshold: values (increasing) and probabilities."""
        law, (a, b) = self._law(i)
        values, probs = law.support(a, b)
        return -values[::-1] + 0.0, probs[::-1]


def _paired_scales(p: float, n_pos: int, n_neg: int, bootstrap: str, sizes) -> tuple[float, float]:
    """``ΔNB* = −(a·X + b·Y)`` with ``X = B+* − A+*``, ``Y = A−* − B−*`` (the cost's paired lattice)."""
    odds = p / (1 - p)
    if bootstrap == "full":
        return 1.0 / sizes, odds / sizes
    n = n_pos + n_neg
    return (n_pos / n) / sizes[0], (n_neg / n) * odds / sizes[1]


def compare_net_benefit(y_true, score_a=None, score_b=None, *, thresholds=None, confidence_level=0.95,
                        bootstrap="full", m=None, pos_label=None) -> NetBenefitComparison:
    """Which of two risk models gives more net benefit, and how sure: the exact paired law of ``ΔNB``.

    Both models flag the instances whose risk is ``>= p``; ``ΔNB = NB_a − NB_b`` (A − B, as every paired
    result of rocci). With ``A±`` the positives (negatives) flagged by model a only and ``B±`` by b only,

    ``ΔNB* = [(A+* − B+*) − p/(1 − p)·(A−* − B−*)]/m``  (full bootstrap),
    ``ΔNB* = π+·(A+* − B+*)/m+ − π−·p/(1 − p)·(A−* − B−*)/m−``  (stratified),

    the cost comparison's paired lattice law (:func:`rocci.compare_cost`: sums of ±1 steps, by inverse
    FFT) read with other scales. ``p_a_better = P(ΔNB* > 0)``, ``p_tie = P(ΔNB* = 0)``, the interval the
    percentile interval of the exact law.

    Parameters
    ----------
    y_true, score_a, score_b, pos_label
        As in :func:`rocci.compare_cost`, or a :class:`~rocci.PairedCounts` alone; both scores risks in
        [0, 1].
    thresholds, confidence_level, bootstrap, m
        As in :func:`net_benefit`.

    Returns
    -------
    NetBenefitComparison

    Examples
    --------
    >>> import rocci
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0]
    >>> res = rocci.compare_net_benefit(y, [.1, .3, .35, .8, .6, .9, .7, .2], [.2, .1, .6, .7, .4, .8, .3, .5],
    ...                                 thresholds=[0.3])
    >>> float(res.delta_net_benefit[0]), round(float(res.p_a_better[0]), 4), round(float(res.p_tie[0]), 4)
    (0.0, 0.3553, 0.2895)
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, NB_BOOTSTRAPS)
    p = _check_thresholds(thresholds)
    y, a, b, label = paired_input(y_true, score_a, score_b, pos_label)
    mask, _ = check_labels(y, label)
    a = check_scores(a, name="score_a", n=mask.size)
    b = check_scores(b, name="score_b", n=mask.size)
    for name, s in (("score_a", a), ("score_b", b)):
        if s.size and (s.min() < 0 or s.max() > 1):
            raise InputError(f"{name} is not a probability (its values run from {format_value(float(s.min()))} to "
                             f"{format_value(float(s.max()))}): net benefit reads each score as a predicted risk. "
                             "Calibrate the scores first, or compare the models by costs with rocci.compare_cost.")
    (a_pos, a_neg), (b_pos, b_neg) = split_by_class(mask, a, b)
    n_pos, n_neg = a_pos.size, a_neg.size
    n = n_pos + n_neg
    if bootstrap == "full":
        sizes = n if m is None else _check_full_m(m, n)
        m_full, m_pos, m_neg = sizes, None, None
    else:
        sizes = check_m(m, n_pos, n_neg)
        m_full, (m_pos, m_neg) = None, sizes
    cells = np.empty((p.size, 4), dtype=np.int64)
    for k, (sa, sb) in enumerate(((a_pos, b_pos), (a_neg, b_neg))):
        ge_a = np.array([np.count_nonzero(sa >= t) for t in p])
        ge_b = np.array([np.count_nonzero(sb >= t) for t in p])
        both = np.diag(joint_ge_counts(sa, sb, p, p)) if p.size else np.zeros(0, dtype=np.int64)
        cells[:, 2 * k], cells[:, 2 * k + 1] = ge_a - both, ge_b - both
    odds = p / (1 - p)
    nb_a = np.array([np.count_nonzero(a_pos >= t) - o * np.count_nonzero(a_neg >= t) for t, o in zip(p, odds)]) / n
    nb_b = np.array([np.count_nonzero(b_pos >= t) - o * np.count_nonzero(b_neg >= t) for t, o in zip(p, odds)]) / n
    alpha = 1 - level
    low, high, std = np.empty(p.size), np.empty(p.size), np.empty(p.size)
    better, tie = np.empty(p.size), np.empty(p.size)
    for i in range(p.size):
        na_p, nb_p, na_n, nb_n = (int(v) for v in cells[i])
        sa_, sb_ = _paired_scales(float(p[i]), n_pos, n_neg, bootstrap, sizes)
        std[i] = _paired_std(na_p, nb_p, na_n, nb_n, n_pos, n_neg, bootstrap, sizes, sa_, sb_)
        if na_p + nb_p + na_n + nb_n == 0:  # the models flag the same instances: ΔNB* = 0 always
            low[i] = high[i] = 0.0
            better[i], tie[i] = 0.0, 1.0
            continue
        law = _paired_law((na_p, nb_p), (na_n, nb_n), n_pos, n_neg, bootstrap, sizes)
        w_hi, w_lo = law.quantiles([1 - alpha / 2 + 2 * QUANTILE_TOL, alpha / 2 + 2 * QUANTILE_TOL], sa_, sb_)
        low[i], high[i] = -w_hi + 0.0, -w_lo + 0.0
        below = float(law.cdf(0.0, sa_, sb_, strict=True)[0])
        better[i], tie[i] = below, float(law.cdf(0.0, sa_, sb_)[0]) - below
    return NetBenefitComparison(
        thresholds=p, net_benefit_a=nb_a, net_benefit_b=nb_b, delta_net_benefit=nb_a - nb_b,
        delta_net_benefit_std=std, delta_net_benefit_low=low, delta_net_benefit_high=high,
        p_a_better=np.clip(better, 0, 1), p_tie=np.clip(tie, 0, 1), cells=cells, n_pos=n_pos, n_neg=n_neg,
        m_total=m_full, m_pos=m_pos, m_neg=m_neg, bootstrap=bootstrap, confidence_level=level,
    )


def _paired_std(na_p, nb_p, na_n, nb_n, n_pos, n_neg, bootstrap, sizes, a, b) -> float:
    """Exact standard deviation of ``W = a·X + b·Y`` (``X = B+* − A+*``, ``Y = A−* − B−*``)."""
    if bootstrap == "full":
        n = n_pos + n_neg
        mean = a * (nb_p - na_p) / n + b * (na_n - nb_n) / n
        second = a * a * (na_p + nb_p) / n + b * b * (na_n + nb_n) / n
        return float(np.sqrt(max(sizes * (second - mean * mean), 0.0)))
    m_pos, m_neg = sizes
    var_x = m_pos * ((na_p + nb_p) / n_pos - ((nb_p - na_p) / n_pos) ** 2)
    var_y = m_neg * ((na_n + nb_n) / n_neg - ((na_n - nb_n) / n_neg) ** 2)
    return float(np.sqrt(max(a * a * var_x + b * b * var_y, 0.0)))
