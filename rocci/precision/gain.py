"""Gain and lift curves with exact bootstrap intervals (issue 14).

The **gain curve** (cumulative lift curve, Tanagra's *courbe de gain*) plots the share of the positives
captured, ``gain = TP/n+`` (the recall, TPR), against the share of the population targeted, the **total
positive rate** ``(TP + FP)/n`` (the *depth* of a gain chart, Tanagra's *taille relative de la cible*; rocci
calls it ``total_positive_rate`` everywhere, as :func:`rocci.threshold_ci` does); the **lift** is
``gain/total_positive_rate = precision/(n+/n)``, how many times more positives the target holds than a
random target of the same size.  Scores that carry no information follow the diagonal (lift 1).

:func:`gain_curve` is the chart itself, every threshold with no interval.  :func:`gain_ci` gives the exact
bootstrap laws of the three quantities at fixed thresholds (stratified or full bootstrap), from the laws
:func:`rocci.precision.metric_ci` already computes (``recall`` for the gain, ``lift`` for the lift) and a
convolution of the same binomial windows for the total positive rate; and, stratified, at fixed total
positive rates (the top ``k`` of the resample), from the order-statistic law of :func:`rocci.vertical_ci`
and :func:`rocci.precision_ci` at recall levels.  The derivations are in :func:`gain_ci`'s docstring.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from .._core.compat import renamed_attribute, renamed_keyword, warn_deprecated
from .._core.frames import _FrameLike, column
from .._core.results import _FrameResult
from .._core.inputs import InputError, check_choice, check_confidence_level, check_m
from .._core.counts import binary_counts
from .._core.exact import binomial_pmf
from ..roc.threshold import thresholds_for_total_positive_rate
from ._laws import Law, binomial_window
from ._results import _law_of
from .metrics import BOOTSTRAPS, _check_thresholds, _full_m, _interval, metric_ci

__all__ = ["gain_ci", "GainCI", "gain_curve", "GainCurve", "DEFAULT_TOTAL_POSITIVE_RATE", "QUANTITIES", "METHODS"]

#: Interval methods of :func:`gain_ci`.
METHODS = ("percentile", "wald")

#: Total positive rates used when neither thresholds nor rates are given: the deciles of a classic gain (lift)
#: table.
DEFAULT_TOTAL_POSITIVE_RATE = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

#: The quantities of a :class:`GainCI` (``distribution(i, quantity)``).
QUANTITIES = ("gain", "lift", "total_positive_rate")


def __getattr__(name: str):
    if name == "DEFAULT_DEPTH":  # rocci 0.2's name
        warn_deprecated("rocci.precision.gain.DEFAULT_DEPTH is DEFAULT_TOTAL_POSITIVE_RATE since rocci 0.3.")
        return DEFAULT_TOTAL_POSITIVE_RATE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: Per-tail probability left out of the window of the gain at a fixed depth.
DEPTH_EPS = 1e-17

#: Probability left out at each end of the law of the g-th positive draw's TPR, and where a binomial
#: CDF is taken as 0 or 1 on a tied piece of the ROC curve (fixed depths).
_X_EPS = 1e-18

#: Gauss–Legendre rule of each panel, the widest panel in standard deviations of the narrower factor, and
#: the most panels one integral takes.
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(10)
_PANEL_SD = 1.5
_MAX_PANELS = 400

#: (level × piece) pairs of the fixed-depth law evaluated at once (memory of a batch ~100 MB).
_PAIR_BATCH = 1 << 20

#: Windows of G* with at least this many values are read from a Chebyshev interpolant (degrees tried in
#: turn; last coefficients and interior checks against exact evaluations within these tolerances).  The
#: check's tolerance is the exact route's own accuracy at 10^8 instances (incomplete beta functions with
#: parameters ~10^7 and arguments rounded to double: ~1e-12 on P(G* >= g); ~1e-14 at 10^5).
_CHEB_MIN = 256
_CHEB_DEGREES = (48, 96, 192, 384)
_CHEB_COEF_TOL = 1e-13
_CHEB_CHECK_TOL = 2e-12


@dataclass(repr=False)
class GainCI(_FrameResult):
    """Exact bootstrap laws of the gain, the lift and the total positive rate, at fixed thresholds or at fixed
    total positive rates.

    Attributes
    ----------
    at : str
        ``"threshold"`` (the threshold is held fixed; total positive rate, gain and lift all vary between
        resamples) or ``"total_positive_rate"`` (the top ``k`` of each resample is targeted: the total
        positive rate ``k/M`` is fixed; rocci 0.2 said ``"depth"``).
    thresholds : ndarray
        The thresholds (``score >= t`` is targeted).  At fixed rates: the threshold reaching the rate on
        the data (the ``⌈q·n⌉``-th largest score), for reference.
    k : ndarray of int64 or None
        At fixed rates: the number of instances targeted in a resample of ``M = m+ + m−``.
    tp, fp : ndarray
        Positives and negatives targeted on the data (at fixed rates: their expected numbers when the
        ``q·n`` top instances are targeted and ties are broken at random, so possibly fractional).
    total_positive_rate, gain, lift : ndarray
        Observed values (at fixed rates: read on the data's gain curve, straight between thresholds).
        ``total_positive_rate`` is the share targeted, ``(tp + fp)/n``: the *depth* of a gain chart.
    total_positive_rate_mean, …_std, …_low, …_high, gain_mean, … lift_high : ndarray
        Exact bootstrap mean, standard deviation and interval of each quantity (given that it is defined).
    p_undefined : ndarray
        Exact probability that the lift is undefined in a resample (nothing targeted, or, full bootstrap,
        no positive drawn); 0 at fixed rates.
    truncated_mass : ndarray
        Probability left out of the windows of the laws (below ~1e-15).

    Notes
    -----
    rocci 0.2 named the total positive rate ``depth``: ``depth``, ``depth_mean``, … ``depth_high`` still read
    the ``total_positive_rate`` attributes with a DeprecationWarning (rocci 0.3 only); the frame's columns
    are renamed.
    """

    at: str
    thresholds: np.ndarray
    k: np.ndarray | None
    tp: np.ndarray
    fp: np.ndarray
    total_positive_rate: np.ndarray
    total_positive_rate_mean: np.ndarray
    total_positive_rate_std: np.ndarray
    total_positive_rate_low: np.ndarray
    total_positive_rate_high: np.ndarray
    gain: np.ndarray
    gain_mean: np.ndarray
    gain_std: np.ndarray
    gain_low: np.ndarray
    gain_high: np.ndarray
    lift: np.ndarray
    lift_mean: np.ndarray
    lift_std: np.ndarray
    lift_low: np.ndarray
    lift_high: np.ndarray
    p_undefined: np.ndarray
    truncated_mass: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    bootstrap: str
    method: str
    confidence_level: float
    _laws: dict = field(default_factory=dict, repr=False)
    _relevel: dict = field(default_factory=dict, repr=False)  # at thresholds: metric_ci's steps of gain and lift

    _scalar_fields = ("at", ...)

    @property
    def positive_share(self) -> float:
        """``n+/n``: the precision of a random target (lift 1)."""
        return self.n_pos / (self.n_pos + self.n_neg)

    def to_frame(self) -> pd.DataFrame:
        """Columns ``threshold, tp, fp, total_positive_rate, total_positive_rate_mean, total_positive_rate_std,
        total_positive_rate_low, total_positive_rate_high, gain, gain_mean, gain_std, gain_low, gain_high, lift,
        lift_mean, lift_std, lift_low, lift_high, p_undefined, truncated_mass``; at fixed total positive rates
        ``total_positive_rate, k`` come first (and the rate's sd is 0)."""
        # Hand-written: the first columns depend on ``at`` (the rate and k lead at fixed rates).
        head = {"threshold": self.thresholds, "tp": self.tp, "fp": self.fp}
        if self.at == "total_positive_rate":
            head = {"total_positive_rate": self.total_positive_rate, "k": self.k, **head}
        cols = {}
        for q in ("total_positive_rate", "gain", "lift"):
            for suffix in ("", "_mean", "_std", "_low", "_high"):
                cols[q + suffix] = getattr(self, q + suffix)
        frame = pd.DataFrame({**head, **cols, "p_undefined": self.p_undefined,
                              "truncated_mass": self.truncated_mass})
        return frame

    def confidence_interval(self, confidence_level=0.95, method=None) -> "GainCI":
        """The same rows with the intervals of the rate, the gain and the lift at another level, or by another
        method, from the laws kept.

        Nothing is read from the data again: at fixed thresholds each law follows from the counts kept (the
        gain's and the lift's as :meth:`rocci.precision.MetricCI.confidence_interval` rebuilds them), at fixed
        rates the gain's laws are kept (the lift's are the gain's over the rate).  The bounds equal
        :func:`rocci.gain_ci`'s with this ``confidence_level`` and ``method`` (``"percentile"`` or ``"wald"``;
        default: this result's).
        """
        level, method = self._interval_args(confidence_level, method, METHODS)
        alpha = 1.0 - level
        kept = self._laws.get("gain") if isinstance(self._laws, dict) else None
        if self.at == "total_positive_rate" and kept is not None and len(kept) == self.k.size:
            gain = _bounds_of(kept, "recall", alpha, method)
            d = self.total_positive_rate
            new = dict(gain_low=gain[0], gain_high=gain[1], lift_low=gain[0] / d, lift_high=gain[1] / d)
        else:
            if self.at == "total_positive_rate" or not self._relevel or kept is None:
                raise InputError("This GainCI keeps no laws to recompute its intervals from: call "
                                 "rocci.gain_ci(..., confidence_level=...) again.")
            gain = self._relevel["gain"](self.gain_mean, self.gain_std, level, method)
            lift = self._relevel["lift"](self.lift_mean, self.lift_std, level, method)
            rate = _bounds_of(self._laws["total_positive_rate"], "total_positive_rate", alpha, method)
            new = dict(gain_low=gain[0], gain_high=gain[1], lift_low=lift[0], lift_high=lift[1],
                       total_positive_rate_low=rate[0], total_positive_rate_high=rate[1])
        return dataclasses.replace(self, **new, method=method, confidence_level=level)

    def distribution(self, i: int, quantity: str = "gain") -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ``quantity`` (``"gain"``, ``"lift"`` or ``"total_positive_rate"``) at row ``i``, given
        that it is defined: distinct values (increasing) and their probabilities (summing to 1).  ``"depth"``
        is rocci 0.2's name of ``"total_positive_rate"`` (DeprecationWarning)."""
        if quantity == "depth":
            warn_deprecated("GainCI.distribution(i, 'depth') is distribution(i, 'total_positive_rate') since "
                            "rocci 0.3 (one vocabulary across rocci).")
            quantity = "total_positive_rate"
        quantity = check_choice("quantity", quantity, QUANTITIES)
        law = _law_of(self._laws[quantity], i)
        return law.values.copy(), law.probs.copy()


def _bounds_of(laws, quantity: str, alpha: float, method: str) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of each kept law (``_interval``: percentile or Wald, clipped to ``quantity``'s range)."""
    low, high = np.empty(len(laws)), np.empty(len(laws))
    for i in range(len(laws)):
        low[i], high[i] = _interval(_law_of(laws, i), quantity, alpha, method)
    return low, high


for _suffix in ("", "_mean", "_std", "_low", "_high"):  # rocci 0.2's names of the total positive rate's fields
    setattr(GainCI, f"depth{_suffix}", renamed_attribute("GainCI", f"depth{_suffix}", f"total_positive_rate{_suffix}"))
del _suffix


# --------------------------------------------------------------------------------------------------------
# The gain chart itself: every threshold, no interval
# --------------------------------------------------------------------------------------------------------
@dataclass(repr=False)
class GainCurve(_FrameLike):
    """The gain chart (cumulative lift curve) at every threshold: the recall against the share targeted.

    Attributes
    ----------
    thresholds : ndarray of shape (h + 1,)
        ``+inf`` (nothing targeted, the point (0, 0)) then the distinct scores, decreasing; ``score >= t``
        is targeted.
    n_predicted_positive : ndarray of int64
        Instances targeted, ``TP + FP`` (Tanagra's *#cible*).
    total_positive_rate : ndarray
        The total positive rate ``(TP + FP)/n``, the share targeted (the depth; the ``total_positive_rate``
        of :class:`GainCI`, which keeps the explorer's column name here).
    recall : ndarray
        The gain, ``TP/n+``.
    tp : ndarray of int64
    lift : ndarray
        ``recall/total_positive_rate``, NaN on the first row.
    n_pos, n_neg : int
    """

    thresholds: np.ndarray = column("threshold")
    n_predicted_positive: np.ndarray = column()
    total_positive_rate: np.ndarray = column()
    recall: np.ndarray = column()
    tp: np.ndarray = column()
    lift: np.ndarray = column()
    n_pos: int
    n_neg: int

    _scalar_fields = (..., "positive_share")
    _returned_by = "rocci.gain_curve"
    target_size = renamed_attribute("GainCurve", "target_size", "n_predicted_positive")
    target_rate = renamed_attribute("GainCurve", "target_rate", "total_positive_rate")

    @property
    def positive_share(self) -> float:
        """``n+/n``: the gain of a random target at each rate is this rate (the diagonal), its lift 1."""
        return self.n_pos / (self.n_pos + self.n_neg)


def gain_curve(y_true, y_score=None, *, pos_label=None) -> GainCurve:
    """Gain chart (cumulative lift curve): recall against the relative target size, at every threshold.

    ``x = (TP + FP)/n`` (the total positive rate: the share of all instances predicted positive) and
    ``y = TP/n+`` (recall, the gain) at every threshold, from the point (0, 0) (threshold ``+inf``) to
    (1, 1).  A model whose scores carry no information follows the diagonal; a perfect one reaches recall
    1 at ``x = n+/n``.  The observed values of :func:`gain_ci` at the same thresholds (its
    ``total_positive_rate``, ``gain`` and ``lift``) are these; :func:`gain_ci` adds their exact bootstrap
    laws.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`; or a :class:`rocci.ScoreCounts` as ``y_true`` alone.

    Returns
    -------
    GainCurve
        ``to_frame()``: columns ``threshold, n_predicted_positive, total_positive_rate, recall, tp, lift`` (``lift =
        recall/total_positive_rate``, NaN on the first row); thresholds decreasing, ``+inf`` first.  Until rocci 0.3
        (``rocci.confusion``) the function returned this frame itself.

    Examples
    --------
    >>> import rocci
    >>> rocci.gain_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]).to_frame()[["total_positive_rate", "recall"]].values.tolist()
    [[0.0, 0.0], [0.25, 0.5], [0.5, 0.5], [0.75, 1.0], [1.0, 1.0]]
    """
    counts, _ = binary_counts(y_true, y_score, pos_label)
    thresholds, tp_all, fp_all = counts.threshold_counts()  # +inf first, with (0, 0)
    t = np.concatenate([[np.inf], thresholds[1:]])
    tp = np.concatenate([[0], tp_all[1:].astype(np.int64)])
    target = np.concatenate([[0], tp[1:] + fp_all[1:].astype(np.int64)])
    n = counts.n_pos + counts.n_neg
    rate = target / n
    recall = tp / counts.n_pos
    with np.errstate(invalid="ignore", divide="ignore"):
        lift = np.where(target > 0, recall / np.where(target > 0, rate, 1.0), np.nan)
    return GainCurve(thresholds=t, n_predicted_positive=target, total_positive_rate=rate, recall=recall, tp=tp, lift=lift,
                     n_pos=counts.n_pos, n_neg=counts.n_neg)


# --------------------------------------------------------------------------------------------------------
# At fixed thresholds
# --------------------------------------------------------------------------------------------------------
def _depth_law(tp: int, fp: int, n_pos: int, n_neg: int, m_pos, m_neg, m_total: int, bootstrap: str) -> Law:
    """Law of ``depth* = (TP* + FP*)/M``: stratified, the convolution of ``Bin(m+, tp/n+)`` and
    ``Bin(m−, fp/n−)`` over their windows; full, ``Bin(m, (tp + fp)/n)``."""
    if bootstrap == "stratified":
        t0, t1, lt = binomial_window(m_pos, tp / n_pos)
        f0, f1, lf = binomial_window(m_neg, fp / n_neg)
        pt = binomial_pmf(np.arange(int(t0), int(t1) + 1), m_pos, tp / n_pos)
        pf = binomial_pmf(np.arange(int(f0), int(f1) + 1), m_neg, fp / n_neg)
        probs = _convolve(pt, pf)
        s = int(t0) + int(f0) + np.arange(probs.size)
        return Law(s / float(m_pos + m_neg), probs, truncated=float(lt + lf))
    share = (tp + fp) / (n_pos + n_neg)
    s0, s1, ls = binomial_window(m_total, share)
    s = np.arange(int(s0), int(s1) + 1)
    return Law(s / float(m_total), binomial_pmf(s, m_total, share), truncated=float(ls))


#: Above this many products the two windows are convolved by FFT (at 10^8 instances ~0.4 s → ~0.02 s).
_FFT_PRODUCTS = 4_000_000


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a * b`` (full discrete convolution of two pmfs): directly, or by FFT for long windows, where each
    term's error is below 1e-15 of the largest (round-off of the transforms; negatives from it are set to
    0; the tails below ~1e-19 lose their relative precision, not the quantiles)."""
    if a.size * b.size <= _FFT_PRODUCTS:
        return np.convolve(a, b)
    from scipy.signal import oaconvolve

    return np.clip(oaconvolve(a, b), 0.0, None)


def _at_thresholds(counts, t, level, method, bootstrap, m):
    n_pos, n_neg = counts.n_pos, counts.n_neg
    if bootstrap == "stratified":
        m_pos, m_neg = check_m(m, n_pos, n_neg)
        m_total = m_pos + m_neg
    else:
        m_total = _full_m(m, n_pos + n_neg)
        m_pos = m_neg = None
    kw = dict(thresholds=t, confidence_level=level, method=method, bootstrap=bootstrap, m=m)
    gain = metric_ci(counts, metric="recall", **kw)
    lift = metric_ci(counts, metric="lift", **kw)
    tp, fp = gain.tp, gain.fp
    alpha = 1.0 - level
    depth = {key: np.empty(t.size) for key in ("mean", "std", "low", "high", "trunc")}
    depth_laws = []
    for i in range(t.size):
        law = _depth_law(int(tp[i]), int(fp[i]), n_pos, n_neg, m_pos, m_neg, m_total, bootstrap)
        depth["mean"][i], depth["std"][i] = law.mean, law.std
        depth["low"][i], depth["high"][i] = _interval(law, "total_positive_rate", alpha, method)
        depth["trunc"][i] = law.truncated
        depth_laws.append(law)
    n = n_pos + n_neg
    return GainCI(
        at="threshold", thresholds=gain.thresholds, k=None, tp=tp, fp=fp,
        total_positive_rate=(tp + fp) / n, total_positive_rate_mean=depth["mean"],
        total_positive_rate_std=depth["std"], total_positive_rate_low=depth["low"],
        total_positive_rate_high=depth["high"],
        gain=gain.value, gain_mean=gain.mean, gain_std=gain.std, gain_low=gain.low, gain_high=gain.high,
        lift=lift.value, lift_mean=lift.mean, lift_std=lift.std, lift_low=lift.low, lift_high=lift.high,
        p_undefined=lift.p_undefined,
        truncated_mass=np.maximum.reduce([gain.truncated_mass, lift.truncated_mass, depth["trunc"]]),
        n_pos=n_pos, n_neg=n_neg, m_pos=gain.m_pos, m_neg=gain.m_neg, bootstrap=bootstrap, method=method,
        confidence_level=level, _laws={"gain": gain._laws, "lift": lift._laws, "total_positive_rate": depth_laws},
        _relevel={"gain": gain._relevel, "lift": lift._relevel},
    )


# --------------------------------------------------------------------------------------------------------
# At fixed depths (stratified)
# --------------------------------------------------------------------------------------------------------
class _TopK:
    r"""``P(G* >= g)`` for ``G*`` the positives among the top ``k`` of a stratified resample, tied draws in a
    uniformly random order.

    Give each draw a uniform key and rank the draws by (score, key): a positive draw is then a draw from a
    continuous law whose survival function, read against the negatives', is the **interpolated ROC curve**
    ``R`` (the FPR at TPR ``x``; straight across a score shared by both classes, flat across positives only).
    The two classes' draws are independent, so with ``X`` the TPR of the g-th largest positive draw,
    ``X ~ Beta(g, m+ − g + 1)``, and the negative draws ranked above it ``~ Bin(m−, R(X))``:

    .. math::

        P(G^* \ge g) = \int_0^1 B(k - g;\ m_-,\ R(x))\, \beta_{g,\, m_+ - g + 1}(x)\, dx .

    ``R`` is linear on each *piece* ``[e_lo, e_hi]/n+`` of the positives ranked decreasingly: a run of
    positive-only scores with the same ``A`` negatives above (``R = A/n−``: a binomial CDF times the Beta
    mass of the piece, incomplete beta functions on the side that avoids cancellation), or a score held by
    ``P`` positives and ``N`` negatives (``R(x) = (A + (n+x − e_lo)·N/P)/n−``).  On a tied piece the integral
    is split where the binomial factor leaves ``[1e-18, 1 − 1e-18]`` (outside: the Beta mass, or 0), and the
    rest, inside the window of ``X`` holding all but 1e-18 per tail, is integrated by 10-point
    Gauss–Legendre on panels no wider than 1.5 standard deviations of the narrower factor.  ``g`` may be any
    real in ``[1, min(k, m+)]`` (the incomplete beta functions continue it), which lets :meth:`law` read
    long windows of ``G*`` from a Chebyshev interpolant.
    """

    def __init__(self, counts, m_pos: int, m_neg: int):
        _, n_pos, n_neg = counts.table()
        P = n_pos[::-1].astype(np.int64)
        N = n_neg[::-1].astype(np.int64)
        above = np.cumsum(N) - N  # negatives scoring higher than each score
        self.n_pos, self.n_neg = int(P.sum()), int(N.sum())
        self.m_pos, self.m_neg = int(m_pos), int(m_neg)
        keep = P > 0
        P, N, above = P[keep], N[keep], above[keep]
        pure = N == 0
        # consecutive positive-only scores with no negative between them are one piece (R is flat across)
        new = np.ones(P.size, bool)
        new[1:] = ~(pure[1:] & pure[:-1] & (above[1:] == above[:-1]))
        start = np.flatnonzero(new)
        size = np.add.reduceat(P, start)
        self.edges = np.r_[0.0, np.cumsum(size).astype(np.float64)]  # piece j spans edges j … j + 1
        self.e_hi, self.e_lo = self.edges[1:], self.edges[:-1]
        self.A = above[start].astype(np.float64)
        self.slope = (N[start] / size).astype(np.float64)  # negatives per positive across the piece
        self.tied = N[start] > 0

    # -- exact tails -------------------------------------------------------------------------------------
    def tails(self, g, k: int):
        """``(S, L)``: ``S = P(G* >= g)`` and ``L = P(G* < g)``, each from non-negative terms, for real
        ``g`` (exact 1/0 outside ``[1, min(k, m+)]``)."""
        g = np.asarray(g, np.float64).ravel()
        S, L = np.zeros(g.size), np.zeros(g.size)
        S[g < 1] = 1.0
        L[g > min(k, self.m_pos)] = 1.0
        todo = np.flatnonzero((g >= 1) & (g <= min(k, self.m_pos)))
        if not todo.size:
            return S, L
        a = g[todo]
        b = self.m_pos - a + 1.0
        u_lo = special.betaincinv(a, b, _X_EPS) * self.n_pos
        u_hi = special.betainccinv(a, b, _X_EPS) * self.n_pos
        j0 = np.searchsorted(self.e_hi, u_lo, side="right")  # pieces overlapping [u_lo, u_hi]
        j1 = np.searchsorted(self.e_lo, u_hi, side="left")
        cnt = j1 - j0
        ends = np.cumsum(cnt)
        first = 0
        while first < todo.size:  # levels in batches of about _PAIR_BATCH (level, piece) pairs
            last = max(first + 1, int(np.searchsorted(ends, ends[first] - cnt[first] + _PAIR_BATCH, "right")))
            sl = slice(first, last)
            S[todo[sl]], L[todo[sl]] = self._tails_batch(a[sl], b[sl], k - a[sl], u_lo[sl], u_hi[sl], j0[sl],
                                                          cnt[sl])
            first = last
        return S, L

    def _tails_batch(self, a, b, c, u_lo, u_hi, j0, cnt):
        n, m_neg, n_neg = float(self.n_pos), float(self.m_neg), float(self.n_neg)
        lvl = np.repeat(np.arange(a.size), cnt)
        pair_start = np.cumsum(cnt) - cnt
        j = np.arange(lvl.size) - np.repeat(pair_start, cnt) + np.repeat(j0, cnt)
        al, bl, cl = a[lvl], b[lvl], c[lvl]
        # The Beta law at each level's piece edges, one incomplete beta function per edge (pieces are
        # contiguous: piece j spans edges j and j + 1).
        e_lvl = np.repeat(np.arange(a.size), cnt + 1)
        e_first = pair_start + np.arange(a.size)  # each level's first edge in the flat array
        e_idx = np.arange(e_lvl.size) - np.repeat(e_first, cnt + 1) + np.repeat(j0, cnt + 1)
        edge = _BetaTail(self.edges[e_idx], a[e_lvl], b[e_lvl], n)
        left = np.arange(lvl.size) + lvl  # the edge index of each pair's left edge
        mass = edge.between(left, left + 1)
        every = cl >= m_neg  # at most k − g >= m− negatives above: always
        cs = np.minimum(cl, m_neg - 1.0)
        Sv, Lv = np.empty(lvl.size), np.empty(lvl.size)
        flat = np.flatnonzero(~self.tied[j])
        below, above = _binomial_tails(cs[flat], m_neg, self.A[j[flat]], n_neg)
        Sv[flat] = np.where(every[flat], 1.0, below) * mass[flat]
        Lv[flat] = np.where(every[flat], 0.0, above) * mass[flat]
        tied = np.flatnonzero(self.tied[j])
        if tied.size:
            ct, slope, A = cs[tied], self.slope[j[tied]], self.A[j[tied]]
            # where the binomial factor leaves [eps, 1 − eps], in positives' units e = n+·x
            r1 = special.betaincinv(ct + 1.0, m_neg - ct, _X_EPS)  # below r1: B(c; m−, r) > 1 − eps
            r2 = special.betainccinv(m_neg - ct, ct + 1.0, _X_EPS)  # above r2: B(c; m−, r) < eps
            lo, hi = self.edges[j[tied]], self.edges[j[tied] + 1]
            e1 = np.where(every[tied], hi, np.clip(lo + (r1 * n_neg - A) / slope, lo, hi))
            e2 = np.where(every[tied], hi, np.clip(lo + (r2 * n_neg - A) / slope, lo, hi))
            inner = _BetaTail(np.concatenate([e1, e2]), np.tile(al[tied], 2), np.tile(bl[tied], 2), n)
            t = tied.size
            S_part = _BetaTail.mass(edge, left[tied], inner, np.arange(t))  # B ~ 1 on [e_lo, e1]
            L_part = _BetaTail.mass(inner, np.arange(t, 2 * t), edge, left[tied] + 1)  # B ~ 0 on [e2, e_hi]
            lo_q = np.maximum(e1, u_lo[lvl[tied]])
            hi_q = np.minimum(e2, u_hi[lvl[tied]])
            mid = np.flatnonzero(hi_q > lo_q)
            if mid.size:
                tm = tied[mid]
                s_q, l_q = self._quadrature(lo_q[mid], hi_q[mid], al[tm], bl[tm], cs[tm], A[mid], slope[mid],
                                            lo[mid])
                S_part[mid] += s_q
                L_part[mid] += l_q
            Sv[tied], Lv[tied] = S_part, L_part
        return np.bincount(lvl, Sv, minlength=a.size), np.bincount(lvl, Lv, minlength=a.size)

    def _quadrature(self, left, right, a, b, c, A, slope, e_lo):
        """``∫ B(c; m−, R)·β`` and ``∫ (1 − B)·β`` over ``[left, right]`` (positives' units), tied pieces."""
        n, m_neg, n_neg = float(self.n_pos), float(self.m_neg), float(self.n_neg)
        sd_x = np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1.0))) * n
        r = np.clip((c + 0.5) / m_neg, 0.5 / m_neg, 1.0 - 0.5 / m_neg)
        sd_r = np.sqrt(r * (1.0 - r) / m_neg) * n_neg / slope
        panels = np.clip(np.ceil((right - left) / (_PANEL_SD * np.minimum(sd_x, sd_r))), 1, _MAX_PANELS)
        panels = panels.astype(np.int64)
        row = np.repeat(np.arange(left.size), panels)
        i = np.arange(row.size) - np.repeat(np.cumsum(panels) - panels, panels)
        width = ((right - left) / panels)[row]
        e = (left[row] + i * width)[:, None] + (_GL_NODES[None, :] + 1.0) * (0.5 * width[:, None])
        w = _GL_WEIGHTS[None, :] * (0.5 * width[:, None])
        negs = A[row][:, None] + (e - e_lo[row][:, None]) * slope[row][:, None]  # n−·R
        cr = np.broadcast_to(c[row][:, None], e.shape)
        dens = stats.beta.pdf(e / n, a[row][:, None], b[row][:, None]) / n * w
        below, above = _binomial_tails(cr.ravel(), m_neg, negs.ravel(), n_neg)
        f_s = (below.reshape(e.shape) * dens).sum(axis=1)
        f_l = (above.reshape(e.shape) * dens).sum(axis=1)
        return (np.bincount(row, f_s, minlength=left.size), np.bincount(row, f_l, minlength=left.size))

    # -- the law -----------------------------------------------------------------------------------------
    def law(self, k: int, eps: float = DEPTH_EPS) -> Law:
        """The exact law of ``G*/m+`` on the window of ``G*`` holding all but ``eps`` per tail.

        The window's ends are found by bisection on exact tails.  Up to ``_CHEB_MIN`` values of ``g`` the
        tails are evaluated at every one; a longer window is read from a Chebyshev interpolant of
        ``P(G* >= g)`` in ``g`` (analytic there), whose degree is raised until its last coefficients are
        below 1e-13 and it agrees with exact evaluations at six interior integers within 2e-12 (else every
        ``g`` is evaluated)."""
        g_min, g_max = max(0, k - self.m_neg), min(k, self.m_pos)

        def first_true(pred, lo, hi):  # smallest g in [lo, hi] with pred(g) (pred monotone, pred(hi) true)
            while lo < hi:
                mid = (lo + hi) // 2
                if pred(mid):
                    hi = mid
                else:
                    lo = mid + 1
            return lo

        # lo: the last g with P(G* < g) <= eps; hi: the first g with P(G* > g) = S(g + 1) <= eps.
        lo = first_true(lambda v: self.tails([v + 1], k)[1][0] > eps, g_min, g_max)
        hi = first_true(lambda v: self.tails([v + 1], k)[0][0] <= eps, g_min, g_max)
        g = np.arange(lo, hi + 2)
        S = self._smooth_tail(g, k)
        if S is None:
            S, L = self.tails(g, k)
            pmf = np.where(L[1:] <= 0.5, L[1:] - L[:-1], S[:-1] - S[1:])  # the side without cancellation
            truncated = float(L[0] + S[-1])
        else:
            pmf = S[:-1] - S[1:]
            truncated = float(1.0 - S[0] + S[-1])
        pmf = np.clip(pmf, 0.0, None)
        return Law(g[:-1] / float(self.m_pos), pmf, truncated=truncated + 2 * _X_EPS)

    def _smooth_tail(self, g: np.ndarray, k: int):
        """``P(G* >= g)`` at the integers ``g`` from a Chebyshev interpolant, or None (window short, or the
        interpolant not accurate: the caller evaluates every ``g``)."""
        inside = g[(g >= 1) & (g <= min(k, self.m_pos))]
        if inside.size < _CHEB_MIN:
            return None
        a, b = float(inside[0]), float(inside[-1])
        rng = np.random.default_rng(inside.size)  # interior check points: any fixed choice will do
        check = np.unique(rng.integers(int(a) + 1, int(b), 6))
        exact, _ = self.tails(check, k)
        for deg in _CHEB_DEGREES:
            coef = np.polynomial.chebyshev.chebinterpolate(
                lambda t: self.tails(a + (t + 1.0) * 0.5 * (b - a), k)[0], deg)
            if np.abs(coef[-4:]).max() > _CHEB_COEF_TOL:
                continue
            at = lambda v: np.polynomial.chebyshev.chebval((2.0 * v - a - b) / (b - a), coef)  # noqa: E731
            if np.abs(at(check.astype(float)) - exact).max() > _CHEB_CHECK_TOL:
                continue
            S = np.where(g < 1, 1.0, 0.0)
            sel = (g >= 1) & (g <= min(k, self.m_pos))
            S[sel] = np.clip(at(g[sel].astype(float)), 0.0, 1.0)
            return S
        return None


class _BetaTail:
    """``I_x(a, b)`` at ``x = e/n``, kept as the smaller tail: the CDF where ``x`` is below the mean
    ``a/(a + b)``, else the complement ``I_{1−x}(b, a)`` (``1 − x`` from ``n − e``).  One incomplete beta
    function per point, each accurate in its own tail."""

    def __init__(self, e, a, b, n):
        self.upper = e * (a + b) > a * n
        self.value = np.empty(np.shape(e))
        lo, up = ~self.upper, self.upper
        self.value[lo] = special.betainc(a[lo], b[lo], e[lo] / n)
        self.value[up] = special.betainc(b[up], a[up], (n - e[up]) / n)

    def between(self, i, k):
        """``I(x_k) − I(x_i)`` for ``x_i <= x_k`` of this set of points."""
        return _BetaTail.mass(self, i, self, k)

    @staticmethod
    def mass(first, i, second, k):
        """``I(x_k) − I(x_i)``, ``x_i`` a point of ``first`` and ``x_k >= x_i`` one of ``second``: a difference
        of lower tails, of upper tails, or ``1 −`` both across the mean."""
        u_i, v_i = first.upper[i], first.value[i]
        u_k, v_k = second.upper[k], second.value[k]
        return np.where(~u_k, v_k - v_i, np.where(u_i, v_i - v_k, 1.0 - v_i - v_k))


def _binomial_tails(c, m, negatives, n_neg):
    """``B(c; m, r)`` and ``1 − B(c; m, r)`` at ``r = negatives/n−`` for real ``0 <= c < m``
    (``I_{1−r}(m − c, c + 1)`` and ``I_r(c + 1, m − c)``, the binomial tails at integers): the smaller tail
    by one incomplete beta function (``B`` where ``c < m·r``), the other as 1 minus it."""
    r = negatives / n_neg
    small_below = c < m * r
    below, above = np.empty(np.shape(c)), np.empty(np.shape(c))
    lo, hi = small_below, ~small_below
    below[lo] = special.betainc(m - c[lo], c[lo] + 1.0, (n_neg - negatives[lo]) / n_neg)
    above[lo] = 1.0 - below[lo]
    above[hi] = special.betainc(c[hi] + 1.0, m - c[hi], r[hi])
    below[hi] = 1.0 - above[hi]
    return below, above


def _check_depths(depth) -> np.ndarray:
    name = "total_positive_rate"
    if isinstance(depth, (str, bytes)):
        raise InputError(f"{name} ({depth!r}) must be numbers between 0 and 1, e.g. {name}=[0.1, 0.2].")
    values = np.atleast_1d(np.asarray(depth))
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{name} must hold numbers between 0 and 1 (shares targeted, the depth of a gain "
                         f"chart); got {depth!r}.") from None
    if values.ndim != 1 or values.size == 0:
        raise InputError(f"{name} must be a non-empty list of shares targeted, e.g. [0.1, 0.2].")
    if (~np.isfinite(values)).any() or ((values <= 0) | (values > 1)).any():
        raise InputError(f"{name} values must lie in (0, 1] (the share of the population targeted); got "
                         f"{values.tolist()!r}.")
    return values


def _at_depths(counts, depth, level, method, m):
    n_pos, n_neg = counts.n_pos, counts.n_neg
    n = n_pos + n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    M = m_pos + m_neg
    k = np.clip(np.rint(depth * M), 1, M).astype(np.int64)
    d = k / M
    # Observed: the data's gain curve, straight between thresholds (random order within tied scores).
    _, tp_t, fp_t = counts.threshold_counts()
    tp_obs = np.interp(d * n, (tp_t + fp_t).astype(float), tp_t.astype(float))
    gain_obs = tp_obs / n_pos
    thr = thresholds_for_total_positive_rate(counts, d)
    top = _TopK(counts, m_pos, m_neg)
    alpha = 1.0 - level
    out = {key: np.empty(k.size) for key in ("mean", "std", "low", "high", "trunc")}
    gain_laws, lift_laws, depth_laws = [], [], []
    for i, kv in enumerate(k):
        law = top.law(int(kv))
        out["mean"][i], out["std"][i] = law.mean, law.std
        out["low"][i], out["high"][i] = _interval(law, "recall", alpha, method)
        out["trunc"][i] = law.truncated
        gain_laws.append(law)
        scale = 1.0 / d[i]
        lift_laws.append(Law(law.values * scale, law.probs, truncated=law.truncated))
        depth_laws.append(Law(np.array([d[i]]), np.array([1.0])))
    lift_obs = gain_obs / d
    return GainCI(
        at="total_positive_rate", thresholds=thr, k=k, tp=tp_obs, fp=d * n - tp_obs,
        total_positive_rate=d, total_positive_rate_mean=d.copy(), total_positive_rate_std=np.zeros(k.size),
        total_positive_rate_low=d.copy(), total_positive_rate_high=d.copy(),
        gain=gain_obs, gain_mean=out["mean"], gain_std=out["std"], gain_low=out["low"], gain_high=out["high"],
        lift=lift_obs, lift_mean=out["mean"] / d, lift_std=out["std"] / d, lift_low=out["low"] / d,
        lift_high=out["high"] / d, p_undefined=np.zeros(k.size), truncated_mass=out["trunc"],
        n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, bootstrap="stratified", method=method,
        confidence_level=level, _laws={"gain": gain_laws, "lift": lift_laws, "total_positive_rate": depth_laws},
    )


def gain_ci(y_true, y_score=None, *, thresholds=None, total_positive_rate=None, confidence_level=0.95,
            method="percentile", bootstrap="stratified", m=None, pos_label=None, depth=None) -> GainCI:
    r"""Exact bootstrap laws and intervals of the gain, the lift and the total positive rate of a gain chart.

    On the data, at a threshold ``t`` (``score >= t`` is targeted) with ``tp`` positives and ``fp`` negatives
    targeted out of ``n = n+ + n−``:

    .. math::

        \text{depth} = \frac{tp + fp}{n}, \qquad \text{gain} = \frac{tp}{n_+}, \qquad
        \text{lift} = \frac{\text{gain}}{\text{depth}} = \frac{tp/(tp + fp)}{n_+/n},

    the share of the population targeted (the *depth* of a gain chart, Tanagra's *taille relative de la
    cible*; rocci's ``total_positive_rate``, the name of its parameter and columns), the share of the
    positives captured (the recall, TPR) and the precision relative to a random target.

    **At fixed thresholds, stratified bootstrap** (``m+`` draws from the positives, ``m−`` from the
    negatives, ``M = m+ + m−``): ``TP* ~ Bin(m+, p+)`` and ``FP* ~ Bin(m−, p−)``, ``p+ = tp/n+``,
    ``p− = fp/n−``, independent (math.md §1), and

    .. math::

        \text{depth}^* = \frac{TP^* + FP^*}{M}, \qquad \text{gain}^* = \frac{TP^*}{m_+}, \qquad
        \text{lift}^* = \frac{\text{gain}^*}{\text{depth}^*} = \frac{M\,TP^*}{m_+ (TP^* + FP^*)}.

    Each is a function of the cell ``(TP*, FP*)``, whose probability is ``b(a; m+, p+)·b(b; m−, p−)``:

    * ``P(gain* = a/m+) = b(a; m+, p+)``, mean ``p+``, variance ``p+(1 − p+)/m+`` (``metric_ci``'s
      ``recall``);
    * ``P(depth* = s/M) = Σ_a b(a; m+, p+)·b(s − a; m−, p−)``, a convolution, mean
      ``(m+p+ + m−p−)/M`` (the observed depth when ``m± = n±``), variance
      ``[m+p+(1 − p+) + m−p−(1 − p−)]/M²``;
    * ``P(lift* = v) = Σ_{a, b: Ma/(m+(a + b)) = v} b(a; m+, p+)·b(b; m−, p−)`` (``metric_ci``'s ``lift``:
      ``TP·total/((TP + FP)(TP + FN))`` with ``TP + FN = m+``, ``total = M``).

    The depth and the gain move together (``Cov = p+(1 − p+)/M``): the intervals are each at the stated
    level on its own, not a joint region.

    **Full bootstrap** (``m`` draws from the pooled data): ``(TP*, FP*, FN*, TN*) ~ Multinomial(m; tp, fp,
    fn, tn)/n``, so ``depth* = PP*/m`` with ``PP* = TP* + FP* ~ Bin(m, (tp + fp)/n)`` exactly,
    ``gain* = TP*/P*`` (``P* = TP* + FN*`` the positives drawn) and ``lift* = m·TP*/(PP*·P*)``, the laws of
    ``metric_ci(..., bootstrap="full")``.

    **Undefined lift.**  ``lift*`` is undefined when nothing is targeted (``depth* = 0``, i.e.
    ``TP* + FP* = 0``; full bootstrap also when ``P* = 0``).  As in :func:`metric_ci` such resamples are left
    out: the lift's law, mean, sd and interval are given that it is defined, and the exact probability of
    the event is ``p_undefined``: stratified ``(1 − p+)^{m+} (1 − p−)^{m−}``, full
    ``P(PP* = 0 or P* = 0)``.  The depth is always defined, the gain too (stratified; full, given
    ``P* > 0``).

    **At fixed depths, stratified bootstrap** (``total_positive_rate=...``): each resample targets its top ``k``
    instances by score, ``k = round(depth·M)`` (1 <= k <= M), so ``depth* = k/M`` is fixed and
    ``gain* = G*/m+`` with ``G*`` the positives among them; ``lift* = gain*·M/k`` (always defined).  Draws
    sharing a score are ordered at random, every order of them equally likely (each draw of the resample is
    one row; copies of one instance are ordered at random too), so on the data the gain at a depth is read
    on the straight segment of the gain curve.  Give each draw a uniform key and rank by (score, key): the
    two classes' draws are then independent samples of continuous laws, the TPR of the g-th largest
    positive draw is ``X ~ Beta(g, m+ − g + 1)`` (thesis eq. 4.11 with the classes swapped), and the
    negative draws ranked above it are ``Bin(m−, R(X))`` with ``R`` the **interpolated ROC curve** (the
    FPR at TPR ``x``, straight across a score held by both classes).  The g-th positive draw is among the
    top ``k`` exactly when at most ``k − g`` negative draws rank above it:

    .. math::

        P(G^* \ge g) = \int_0^1 B\!\left(k - g;\ m_-,\ R(x)\right)\,
        \frac{x^{g-1}(1 - x)^{m_+ - g}}{\mathrm{B}(g,\ m_+ - g + 1)}\, dx .

    ``R`` is flat across runs of positive-only scores (the integral is a binomial CDF times a difference
    of incomplete beta functions) and linear across a tied score (Gauss–Legendre on panels narrower than
    both factors' spreads, converged to ~1e-15).  ``P(G* = g)`` follows by differences, from whichever
    tail avoids cancellation, on the window of ``g`` holding all but 1e-17 per tail; windows of 256 values
    or more are read from a Chebyshev interpolant of the tail in ``g``, checked against exact evaluations.
    The work follows the distinct scores, not the instances: 10⁸ instances in a few thousand distinct
    scores take about a second per depth.  The full bootstrap is refused at fixed depths (as
    :func:`precision_ci` at fixed recall): the classes' draws are then not independent.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`; or a :class:`rocci.ScoreCounts` as ``y_true`` alone.
    thresholds : array_like, optional
        Score cut-offs.  Default (neither thresholds nor total_positive_rate): the thresholds reaching the
        depths 0.1, 0.2, …, 1.0 on the data (the ``⌈depth·n⌉``-th largest score; duplicates merged), a
        decile table.
    total_positive_rate : array_like, optional
        Shares of the population targeted (depths), in (0, 1]: the intervals at fixed depths.  Give
        thresholds or total_positive_rate, not both.
    confidence_level : float, default 0.95
    method : {"percentile", "wald"}
        ``"percentile"``: the ``α/2`` and ``1 − α/2`` quantiles of each exact law (the smallest value whose
        CDF reaches the level); ``"wald"``: mean ± z·sd of the exact law, clipped to [0, 1] (lift: to
        [0, ∞)).
    bootstrap : {"stratified", "full"}
        ``"full"`` at thresholds only.
    m : None, int or (int, int)
        Stratified: ``(m+, m−)`` (default ``n±``); full: the total ``m`` (default ``n``).

    Returns
    -------
    GainCI
        ``to_frame()``: ``threshold, tp, fp, total_positive_rate, total_positive_rate_mean,
        total_positive_rate_std, total_positive_rate_low, total_positive_rate_high, gain, …, gain_high, lift,
        …, lift_high, p_undefined, truncated_mass`` (at fixed depths ``total_positive_rate, k`` first);
        ``distribution(i, quantity)`` the exact law of ``"gain"``, ``"lift"`` or ``"total_positive_rate"``
        at row ``i``.

    Other Parameters
    ----------------
    depth : array_like, optional
        rocci 0.2's name of ``total_positive_rate`` (DeprecationWarning; goes in 0.4).

    Notes
    -----
    The bootstrap mean of the depth equals the observed depth only when ``m± = n±`` (stratified) and the
    mean of the lift is not the observed lift (a ratio).  At fixed depths the bootstrap mean of the gain is
    not the observed one either (as with :func:`rocci.vertical_ci`).  Up to version 0.2.0 the
    fixed-depth law kept the copies of one instance together (a random order of the *instances*); without
    ties between the classes the two conventions give the same law.

    References
    ----------
    R. Rakotomalala, *Courbes ROC, gain et rappel–précision*, Tanagra tutorial (2009), §1.3 (the gain
    chart: ``#cible/n`` against the recall).

    Examples
    --------
    >>> import rocci
    >>> res = rocci.gain_ci([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.2, 0.1], thresholds=[0.6])
    >>> res.to_frame()[["total_positive_rate", "gain", "lift"]].round(4).values.tolist()
    [[0.6667, 1.0, 1.5]]
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, METHODS)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    depth = renamed_keyword("gain_ci", "depth", "total_positive_rate", depth, total_positive_rate)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    if depth is not None:
        if thresholds is not None:
            raise InputError("Give either thresholds or total_positive_rate (depths) to gain_ci, not both.")
        if bootstrap != "stratified":
            raise InputError(
                "The gain at a fixed depth is computed for bootstrap='stratified' only (the top k of a resample "
                "is a mixture of the two classes' independent draws); use thresholds=... for the full bootstrap.")
        return _at_depths(counts, _check_depths(depth), level, method, m)
    if thresholds is None:
        t = thresholds_for_total_positive_rate(counts, np.asarray(DEFAULT_TOTAL_POSITIVE_RATE))
        t = np.unique(t)[::-1]
    else:
        t = _check_thresholds(thresholds)
    return _at_thresholds(counts, t, level, method, bootstrap, m)
