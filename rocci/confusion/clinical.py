"""The clinical accuracy panel at a threshold (issue 31): sensitivity, specificity, likelihood ratios with
the exact bootstrap law of a ratio of two independent binomials, and the predictive values and post-test
probabilities they give at a prevalence the user enters: :func:`clinical_panel`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from .._core.counts import binary_counts
from .._core.errors import InputError, format_value
from .._core.exact import QUANTILE_TOL
from .._core.inputs import _as_float_array, check_confidence_level, check_m
from .._core.results import _FrameResult

__all__ = ["clinical_panel", "ClinicalPanel"]

_TIE = 1e-12
#: Rows of a binomial kept: mean ± (10 sd + 20), the rest weighing less than 1e-20 (as the cost laws' windows).
_WINDOW_SD, _WINDOW_PAD = 10.0, 20


def _rows(m: int, p: float, first: int, last: int) -> np.ndarray:
    """The counts ``first <= y <= last`` of ``Bin(m, p)`` worth keeping (the window above): at 10⁷ draws a few
    tens of thousands of rows instead of ten million."""
    half = _WINDOW_SD * np.sqrt(m * p * (1 - p)) + _WINDOW_PAD
    lo, hi = max(first, int(np.floor(m * p - half))), min(last, int(np.ceil(m * p + half)))
    return np.arange(lo, hi + 1) if hi >= lo else np.arange(0)


class _RatioLaw:
    """Law of ``R = (X/m1)/(Y/m2)`` with independent ``X ~ Bin(m1, p1)``, ``Y ~ Bin(m2, p2)``, given that ``R``
    is defined (not ``0/0``); ``R = ∞`` when ``Y = 0 < X``.

    ``P(R <= v | defined) = Σ_{y >= 1} P(Y = y)·P(X <= ⌊v·y·m1/m2⌋) / P(defined)``.
    """

    def __init__(self, m1: int, p1: float, m2: int, p2: float):
        self.m1, self.m2, self.p1, self.p2 = int(m1), int(m2), float(p1), float(p2)
        self.y = _rows(self.m2, self.p2, 1, self.m2)
        self.py = stats.binom.pmf(self.y, self.m2, self.p2)
        keep = self.py > 1e-300
        self.y, self.py = self.y[keep], self.py[keep]
        p_x0, p_y0 = stats.binom.pmf(0, self.m1, self.p1), stats.binom.pmf(0, self.m2, self.p2)
        self.p_undefined = float(p_x0 * p_y0)
        self.p_defined = 1.0 - self.p_undefined
        self.p_infinite = float(p_y0 * (1 - p_x0)) / self.p_defined if self.p_defined > 0 else 0.0

    def cdf(self, v) -> np.ndarray:
        v = np.atleast_1d(np.asarray(v, dtype=np.float64))
        k = np.floor(v[:, None] * self.y[None, :] * self.m1 / self.m2 + _TIE)
        inner = np.where(k < 0, 0.0, special.bdtr(np.clip(k, 0, self.m1), self.m1, self.p1))
        return (inner @ self.py) / self.p_defined

    def _finite_top(self) -> float:
        """The largest finite value: ``X = m1`` over the smallest ``Y >= 1``."""
        return float(1.0 / (self.y.min() / self.m2))

    def _atom_at_most(self, v: float) -> float:
        """The largest value of positive probability ``<= v`` (``X`` on its support: ``{m1}`` when ``p1 = 1``)."""
        x_min = self.m1 if self.p1 >= 1 else 0
        x_max = 0 if self.p1 <= 0 else self.m1
        k = np.minimum(np.floor(v * self.y * self.m1 / self.m2 + _TIE), x_max)
        vals = np.where(k >= x_min, (k / self.m1) / (self.y / self.m2), -np.inf)
        return float(np.max(vals))

    def quantile(self, q: float) -> float:
        """Smallest value ``v`` (``∞`` included) with ``P(R <= v | defined) >= q``."""
        target = q - QUANTILE_TOL
        if self.p_defined <= 0 or self.py.size == 0:
            return np.inf
        finite_top = self._finite_top()
        if self.cdf([finite_top])[0] < target:
            return np.inf
        lo, hi = -1.0, finite_top
        for _ in range(300):
            hi = self._atom_at_most(hi)
            if hi - lo <= _TIE or self._atom_at_most(hi * (1 - 1e-13) - _TIE) <= lo:
                break
            mid = (lo + hi) / 2
            if self.cdf([mid])[0] >= target:
                hi = mid
            else:
                lo = mid
        return float(max(hi, 0.0))

    def support(self) -> tuple[np.ndarray, np.ndarray]:
        """Values (``inf`` last when possible) and probabilities, given defined."""
        x = np.arange(self.m1 + 1)
        px = stats.binom.pmf(x, self.m1, self.p1)
        vals = ((x[:, None] / self.m1) / (self.y[None, :] / self.m2)).ravel()
        probs = (px[:, None] * self.py[None, :]).ravel() / self.p_defined
        keep = probs > 0
        vals, probs = vals[keep], probs[keep]
        order = np.argsort(vals, kind="stable")
        vals, probs = vals[order], probs[order]
        if vals.size:
            start = np.flatnonzero(np.concatenate([[True], np.diff(vals) > _TIE]))
            vals, probs = vals[start], np.add.reduceat(probs, start)
        if self.p_infinite > 0:
            vals, probs = np.append(vals, np.inf), np.append(probs, self.p_infinite)
        return vals, probs


class _OddsRatioLaw:
    """Law of the diagnostic odds ratio ``D = g(X)/k(Y)``, ``g(x) = x/(m1 − x)``, ``k(y) = y/(m2 − y)``, with
    independent ``X ~ Bin(m1, p1)`` (true positives) and ``Y ~ Bin(m2, p2)`` (false positives), given that
    ``D`` is defined (not ``0/0`` nor ``∞/∞``); ``D = ∞`` when ``Y = 0 < X`` or ``X = m1 > Y``...

    For ``1 <= y <= m2 − 1``, ``D <= v`` iff ``X <= v·k(y)·m1/(1 + v·k(y))``; ``Y = m2`` gives ``D = 0``
    (``X < m1``); ``Y = 0`` gives ``D = ∞`` (``X > 0``).
    """

    def __init__(self, m1: int, p1: float, m2: int, p2: float):
        self.m1, self.m2, self.p1, self.p2 = int(m1), int(m2), float(p1), float(p2)
        y = _rows(self.m2, self.p2, 1, self.m2 - 1)
        py = stats.binom.pmf(y, self.m2, self.p2)
        keep = py > 1e-300
        self.y, self.py = y[keep], py[keep]
        self.k = self.y / (self.m2 - self.y)
        px0, px_top = stats.binom.pmf(0, self.m1, self.p1), stats.binom.pmf(self.m1, self.m1, self.p1)
        py0, py_top = stats.binom.pmf(0, self.m2, self.p2), stats.binom.pmf(self.m2, self.m2, self.p2)
        self.p_undefined = float(px0 * py0 + px_top * py_top)
        self.p_defined = 1.0 - self.p_undefined
        mid = 1.0 - py0 - py_top
        d = self.p_defined if self.p_defined > 0 else 1.0
        self.p_zero_rows = float(py_top * (1 - px_top)) / d  # Y = m2: D = 0
        self.p_infinite = float(py0 * (1 - px0) + px_top * max(mid, 0.0)) / d
        self.x_min = self.m1 if self.p1 >= 1 else 0
        self.x_max = 0 if self.p1 <= 0 else self.m1

    def _k_x(self, v: np.ndarray) -> np.ndarray:
        """Largest ``x`` with ``g(x) <= v·k(y)`` per value and row (``−1`` for ``v < 0``: ``D`` is never negative)."""
        u = np.maximum(v[:, None], 0.0) * self.k[None, :]
        return np.where(v[:, None] < 0, -1.0, np.floor(u * self.m1 / (1 + u) + _TIE))

    def cdf(self, v) -> np.ndarray:
        v = np.atleast_1d(np.asarray(v, dtype=np.float64))
        kx = np.minimum(self._k_x(v), self.m1 - 1)
        inner = np.where(kx < 0, 0.0, special.bdtr(np.clip(kx, 0, self.m1), self.m1, self.p1))
        return (inner @ self.py) / (self.p_defined if self.p_defined > 0 else 1.0) + self.p_zero_rows

    def _atom_at_most(self, v: float) -> float:
        kx = np.minimum(self._k_x(np.array([v]))[0], min(self.x_max, self.m1 - 1))
        x_ok = kx >= self.x_min
        xs = np.where(x_ok, kx, 0)
        vals = np.where(x_ok, (xs / (self.m1 - xs)) / self.k, -np.inf)
        best = float(np.max(vals)) if vals.size else -np.inf
        return max(best, 0.0 if self.p_zero_rows > 0 else -np.inf)

    quantile = _RatioLaw.quantile

    def _finite_top(self) -> float:
        x = min(self.x_max, self.m1 - 1)
        return float((x / (self.m1 - x)) / self.k.min()) if self.k.size else 0.0

    def support(self) -> tuple[np.ndarray, np.ndarray]:
        x = np.arange(self.m1 + 1)
        px = stats.binom.pmf(x, self.m1, self.p1)
        y = np.arange(self.m2 + 1)
        py = stats.binom.pmf(y, self.m2, self.p2)
        vals, probs = [], []
        for xi, pxi in zip(x, px):
            for yi, pyi in zip(y, py):
                if pxi * pyi == 0 or (xi == 0 and yi == 0) or (xi == self.m1 and yi == self.m2):
                    continue
                if yi == 0 or xi == self.m1:
                    val = np.inf
                elif yi == self.m2:
                    val = 0.0
                else:
                    val = (xi / (self.m1 - xi)) / (yi / (self.m2 - yi))
                vals.append(val)
                probs.append(pxi * pyi / self.p_defined)
        vals, probs = np.array(vals), np.array(probs)
        order = np.argsort(vals, kind="stable")
        vals, probs = vals[order], probs[order]
        finite = np.isfinite(vals)
        fv, fp = vals[finite], probs[finite]
        if fv.size:
            start = np.flatnonzero(np.concatenate([[True], np.diff(fv) > _TIE]))
            fv, fp = fv[start], np.add.reduceat(fp, start)
        if (~finite).any():
            fv, fp = np.append(fv, np.inf), np.append(fp, probs[~finite].sum())
        return fv, fp


def _odds_map(prob: float, lr):
    """Post-test probability from a pre-test probability and a likelihood ratio (``∞`` gives 1)."""
    lr = np.asarray(lr, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = prob * lr / (prob * lr + 1 - prob)
    return np.where(np.isinf(lr), 1.0, out)


@dataclass(repr=False)
class ClinicalPanel(_FrameResult):
    """Sensitivity, specificity, likelihood ratios, predictive values and post-test probabilities at thresholds.

    Every interval is the percentile interval of the exact stratified bootstrap law (the classes fixed):
    ``sensitivity`` and ``specificity`` of their binomials, ``lr_positive = sens/(1 − spec)`` and
    ``lr_negative = (1 − sens)/spec`` of the ratio of two independent binomials (``∞`` where the
    denominator can be 0; ``p_lr_positive_undefined`` is the bootstrap probability of ``0/0``, left
    out), and ``ppv``, ``npv``, ``post_test_positive``, ``post_test_negative`` of the likelihood ratios
    through Bayes' rule at ``prevalence`` (``pretest``), which is monotone, so their bounds are the
    likelihood ratios' bounds mapped.

    ``to_frame()`` columns: ``threshold``, ``tpr`` (the sensitivity; its column was ``sensitivity`` before
    rocci 0.3), ``specificity``, ``lr_positive``, ``lr_negative``, ``diagnostic_odds_ratio``, ``ppv``,
    ``npv`` (and ``post_test_positive``, ``post_test_negative`` with a ``pretest``), each with ``_low`` and
    ``_high``.  ``ppv`` and ``npv`` are at ``prevalence``, not the sample's precision (``precision`` of
    :func:`rocci.precision_ci` is ``ppv`` at the sample's own prevalence).
    """

    thresholds: np.ndarray
    frame: pd.DataFrame
    prevalence: float
    pretest: float | None
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    confidence_level: float

    _scalar_fields = ("prevalence", "pretest", ...)

    def to_frame(self) -> pd.DataFrame:
        """One row per threshold (columns: the class docstring's quantities with ``_low``/``_high``)."""
        # Hand-written: the panel's frame is built by clinical_panel and stored whole.
        return self.frame.copy()


def _check_probability(name: str, value, *, none_ok: bool = True):
    if value is None and none_ok:
        return None
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a probability strictly between 0 and 1, e.g. {name}=0.1; got "
                         f"{format_value(value)}.") from None
    if not 0 < v < 1:
        raise InputError(f"{name} must be a probability strictly between 0 and 1, e.g. {name}=0.1; got "
                         f"{format_value(value)}.")
    return v


def clinical_panel(y_true, y_score=None, *, thresholds, prevalence=None, pretest=None, confidence_level=0.95,
                   m=None, pos_label=None) -> ClinicalPanel:
    """The clinical accuracy panel at thresholds, with exact bootstrap intervals.

    At a threshold ``t`` (``score >= t`` is a positive test), with ``TP, FN, FP, TN`` the counts:

    * sensitivity ``TP/n+``, specificity ``TN/n−``;
    * ``LR+ = sens/(1 − spec)``, ``LR− = (1 − sens)/spec``, diagnostic odds ratio ``LR+/LR−`` (its exact
      law: :class:`_OddsRatioLaw`, the ratio of two independent binomial odds);
    * at a prevalence ``π`` (default: the data's ``n+/n``; enter the population's own when the sample
      was enriched): ``PPV = π·LR+/(π·LR+ + 1 − π)`` and ``NPV = (1 − π)/((1 − π) + π·LR−)``;
    * for a pre-test probability ``π0``: the post-test probability after a positive test
      ``π0·LR+/(π0·LR+ + 1 − π0)`` and after a negative test ``π0·LR−/(π0·LR− + 1 − π0)``.

    Under the stratified bootstrap ``TP* ~ Bin(m+, sens)`` and ``FP* ~ Bin(m−, 1 − spec)`` are
    independent, so ``LR+* = (TP*/m+)/(FP*/m−)`` is a ratio of independent binomials with CDF
    ``Σ_{y>=1} P(FP* = y)·P(TP* <= ⌊v·y·m+/m−⌋)``, conditional on the ratio being defined (``0/0`` has
    probability ``P(TP* = 0)·P(FP* = 0)``, reported); it is ``∞`` when ``FP* = 0 < TP*`` (specificity
    1 in the resample), which can make the upper bound ``∞``. ``LR−`` likewise. The predictive values
    and post-test probabilities are increasing (NPV: decreasing) functions of one likelihood ratio, so
    their exact laws and percentile bounds are the likelihood ratio's, mapped.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`, or a :class:`~rocci.ScoreCounts` alone.
    thresholds : array_like
        One or more thresholds (``score >= t`` is positive).
    prevalence : float, optional
        Prevalence for the predictive values; default the data's share of positives.
    pretest : float, optional
        Pre-test probability for the post-test columns (omitted when not given).
    confidence_level : float, default 0.95
    m : None, int or (int, int)
        Stratified bootstrap sizes ``(m+, m−)``.

    Returns
    -------
    ClinicalPanel

    Examples
    --------
    >>> import rocci
    >>> panel = rocci.clinical_panel([0, 0, 1, 1, 0, 1, 1, 0], [.1, .3, .35, .8, .6, .9, .7, .2], thresholds=[0.5])
    >>> row = panel.to_frame().iloc[0]
    >>> float(row.tpr), float(row.specificity), float(row.lr_positive)
    (0.75, 0.75, 3.0)
    """
    level = check_confidence_level(confidence_level)
    t = _as_float_array("thresholds", thresholds)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    prev = _check_probability("prevalence", prevalence)
    prev = n_pos / (n_pos + n_neg) if prev is None else prev
    pre = _check_probability("pretest", pretest)
    tp = counts.n_pos_ge(t).astype(np.int64)
    fp = counts.n_neg_ge(t).astype(np.int64)
    sens, fpr = tp / n_pos, fp / n_neg
    spec = 1 - fpr
    a2 = (1 - level) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        lr_pos = np.where(fp > 0, sens / fpr, np.where(tp > 0, np.inf, np.nan))
        lr_neg = np.where(spec > 0, (1 - sens) / spec, np.where(sens < 1, np.inf, np.nan))
        dor = lr_pos / lr_neg
    rows = {"threshold": t, "tpr": sens,
            "tpr_low": stats.binom.ppf(a2, m_pos, sens) / m_pos,
            "tpr_high": stats.binom.ppf(1 - a2, m_pos, sens) / m_pos,
            "specificity": spec,
            "specificity_low": 1 - stats.binom.ppf(1 - a2, m_neg, fpr) / m_neg,
            "specificity_high": 1 - stats.binom.ppf(a2, m_neg, fpr) / m_neg}
    pos_laws = [_RatioLaw(m_pos, s_, m_neg, f_) for s_, f_ in zip(sens, fpr)]
    neg_laws = [_RatioLaw(m_pos, 1 - s_, m_neg, 1 - f_) for s_, f_ in zip(sens, fpr)]
    dor_laws = [_OddsRatioLaw(m_pos, s_, m_neg, f_) for s_, f_ in zip(sens, fpr)]
    lrp_low = np.array([law.quantile(a2) for law in pos_laws])
    lrp_high = np.array([law.quantile(1 - a2) for law in pos_laws])
    lrn_low = np.array([law.quantile(a2) for law in neg_laws])
    lrn_high = np.array([law.quantile(1 - a2) for law in neg_laws])
    rows.update({
        "lr_positive": lr_pos, "lr_positive_low": lrp_low, "lr_positive_high": lrp_high,
        "p_lr_positive_undefined": np.array([law.p_undefined for law in pos_laws]),
        "lr_negative": lr_neg, "lr_negative_low": lrn_low, "lr_negative_high": lrn_high,
        "p_lr_negative_undefined": np.array([law.p_undefined for law in neg_laws]),
        "diagnostic_odds_ratio": dor,
        "diagnostic_odds_ratio_low": np.array([law.quantile(a2) for law in dor_laws]),
        "diagnostic_odds_ratio_high": np.array([law.quantile(1 - a2) for law in dor_laws]),
        "p_diagnostic_odds_ratio_undefined": np.array([law.p_undefined for law in dor_laws]),
        "ppv": _odds_map(prev, lr_pos), "ppv_low": _odds_map(prev, lrp_low), "ppv_high": _odds_map(prev, lrp_high),
        "npv": 1 - _odds_map(prev, lr_neg), "npv_low": 1 - _odds_map(prev, lrn_high),
        "npv_high": 1 - _odds_map(prev, lrn_low),
    })
    if pre is not None:
        rows.update({
            "post_test_positive": _odds_map(pre, lr_pos), "post_test_positive_low": _odds_map(pre, lrp_low),
            "post_test_positive_high": _odds_map(pre, lrp_high),
            "post_test_negative": _odds_map(pre, lr_neg), "post_test_negative_low": _odds_map(pre, lrn_low),
            "post_test_negative_high": _odds_map(pre, lrn_high),
        })
    return ClinicalPanel(thresholds=t, frame=pd.DataFrame(rows), prevalence=prev, pretest=pre, n_pos=n_pos,
                         n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, confidence_level=level)
