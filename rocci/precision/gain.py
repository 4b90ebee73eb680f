"""Gain and lift curves with exact bootstrap intervals (issue 14).

The **gain curve** (cumulative lift curve, Tanagra's *courbe de gain*) plots the share of the positives
captured, ``gain = TP/n+`` (the recall, TPR), against the share of the population targeted,
``depth = (TP + FP)/n``; the **lift** is ``gain/depth = precision/(n+/n)``, how many times more positives the
target holds than a random target of the same size.  Scores that carry no information follow the diagonal
``gain = depth`` (lift 1).

:func:`gain_ci` gives the exact bootstrap laws of the three quantities at fixed thresholds (stratified or
full bootstrap), from the laws :func:`rocci.precision.metric_ci` already computes (``recall`` for the gain,
``lift`` for the lift) and a convolution of the same binomial windows for the depth; and, stratified, at
fixed depths (the top ``k`` of the resample), from the order-statistic law of
:func:`rocci.vertical_ci` and :func:`rocci.precision.precision_at_recall`.  The derivations are in
:func:`gain_ci`'s docstring.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._results import _FrameResult
from .._validation import InputError, binary_counts, check_choice, check_confidence_level, check_m
from ..exact import _boost_binom_sf, binomial_cdf, binomial_pmf, order_statistic_laws
from ..threshold import thresholds_for_total_positive_rate
from ._laws import Law, binomial_window
from ._results import _law_of
from .metrics import BOOTSTRAPS, _check_thresholds, _full_m, _interval, metric_ci

__all__ = ["gain_ci", "GainCI", "DEFAULT_DEPTH", "QUANTITIES", "METHODS"]

#: Interval methods of :func:`gain_ci`.
METHODS = ("percentile", "wald")

#: Depths used when neither thresholds nor depths are given: the deciles of a classic gain (lift) table.
DEFAULT_DEPTH = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

#: The quantities of a :class:`GainCI` (``distribution(i, quantity)``).
QUANTITIES = ("gain", "lift", "depth")

#: Per-tail probability left out of the window of the gain at a fixed depth.
DEPTH_EPS = 1e-17

#: Largest number of (bootstrap level × tied instance) products the fixed-depth law evaluates in one
#: call (ties between a positive and a negative score make each component a mixture over the tie's order).
MAX_TIE_WORK = 200_000_000

#: Levels of the gain evaluated together (memory of one batch stays near 100 MB).
_BATCH_CELLS = 1 << 22


@dataclass(repr=False)
class GainCI(_FrameResult):
    """Exact bootstrap laws of the gain, the lift and the depth, at fixed thresholds or at fixed depths.

    Attributes
    ----------
    at : str
        ``"threshold"`` (the threshold is held fixed; depth, gain and lift all vary between resamples) or
        ``"depth"`` (the top ``k`` of each resample is targeted: the depth ``k/M`` is fixed).
    thresholds : ndarray
        The thresholds (``score >= t`` is targeted).  At fixed depths: the threshold reaching the depth on
        the data (the ``⌈depth·n⌉``-th largest score), for reference.
    k : ndarray of int64 or None
        At fixed depths: the number of instances targeted in a resample of ``M = m+ + m−``.
    tp, fp : ndarray
        Positives and negatives targeted on the data (at fixed depths: their expected numbers when the
        ``depth·n`` top instances are targeted and ties are broken at random, so possibly fractional).
    depth, gain, lift : ndarray
        Observed values (at fixed depths: read on the data's gain curve, straight between thresholds).
    depth_mean, depth_std, depth_low, depth_high, gain_mean, … lift_high : ndarray
        Exact bootstrap mean, standard deviation and interval of each quantity (given that it is defined).
    p_undefined : ndarray
        Exact probability that the lift is undefined in a resample (nothing targeted, or, full bootstrap,
        no positive drawn); 0 at fixed depths.
    truncated_mass : ndarray
        Probability left out of the windows of the laws (below ~1e-15).
    """

    at: str
    thresholds: np.ndarray
    k: np.ndarray | None
    tp: np.ndarray
    fp: np.ndarray
    depth: np.ndarray
    depth_mean: np.ndarray
    depth_std: np.ndarray
    depth_low: np.ndarray
    depth_high: np.ndarray
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

    _scalar_fields = ("at", "n_pos", "n_neg", "m_pos", "m_neg", "bootstrap", "method", "confidence_level")

    @property
    def positive_share(self) -> float:
        """``n+/n``: the precision of a random target (lift 1)."""
        return self.n_pos / (self.n_pos + self.n_neg)

    def to_frame(self) -> pd.DataFrame:
        """Columns ``threshold, tp, fp, depth, depth_mean, depth_std, depth_low, depth_high, gain, gain_mean,
        gain_std, gain_low, gain_high, lift, lift_mean, lift_std, lift_low, lift_high, p_undefined,
        truncated_mass``; at fixed depths ``k`` follows ``depth`` first (and the depth's sd is 0)."""
        head = {"threshold": self.thresholds, "tp": self.tp, "fp": self.fp}
        if self.at == "depth":
            head = {"depth": self.depth, "k": self.k, **head}
        cols = {}
        for q in ("depth", "gain", "lift"):
            for suffix in ("", "_mean", "_std", "_low", "_high"):
                cols[q + suffix] = getattr(self, q + suffix)
        frame = pd.DataFrame({**head, **cols, "p_undefined": self.p_undefined,
                              "truncated_mass": self.truncated_mass})
        return frame

    def distribution(self, i: int, quantity: str = "gain") -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ``quantity`` (``"gain"``, ``"lift"`` or ``"depth"``) at row ``i``, given that it is
        defined: distinct values (increasing) and their probabilities (summing to 1)."""
        quantity = check_choice("quantity", quantity, QUANTITIES)
        law = _law_of(self._laws[quantity], i)
        return law.values.copy(), law.probs.copy()


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
        probs = np.convolve(pt, pf)
        s = int(t0) + int(f0) + np.arange(probs.size)
        return Law(s / float(m_pos + m_neg), probs, truncated=float(lt + lf))
    share = (tp + fp) / (n_pos + n_neg)
    s0, s1, ls = binomial_window(m_total, share)
    s = np.arange(int(s0), int(s1) + 1)
    return Law(s / float(m_total), binomial_pmf(s, m_total, share), truncated=float(ls))


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
        depth["low"][i], depth["high"][i] = _interval(law, "depth", alpha, method)
        depth["trunc"][i] = law.truncated
        depth_laws.append(law)
    n = n_pos + n_neg
    return GainCI(
        at="threshold", thresholds=gain.thresholds, k=None, tp=tp, fp=fp,
        depth=(tp + fp) / n, depth_mean=depth["mean"], depth_std=depth["std"], depth_low=depth["low"],
        depth_high=depth["high"],
        gain=gain.value, gain_mean=gain.mean, gain_std=gain.std, gain_low=gain.low, gain_high=gain.high,
        lift=lift.value, lift_mean=lift.mean, lift_std=lift.std, lift_low=lift.low, lift_high=lift.high,
        p_undefined=lift.p_undefined,
        truncated_mass=np.maximum.reduce([gain.truncated_mass, lift.truncated_mass, depth["trunc"]]),
        n_pos=n_pos, n_neg=n_neg, m_pos=gain.m_pos, m_neg=gain.m_neg, bootstrap=bootstrap, method=method,
        confidence_level=level, _laws={"gain": gain._laws, "lift": lift._laws, "depth": depth_laws},
    )


# --------------------------------------------------------------------------------------------------------
# At fixed depths (stratified)
# --------------------------------------------------------------------------------------------------------
class _TopK:
    """``P(G* >= g)`` for ``G*`` the positives among the top ``k`` of a stratified resample.

    The positives are ranked decreasingly (rank ``k'`` = 1 … n+); the rank-``k'`` positive lies in the tie
    group ``j`` of its score, which holds ``P_j`` positives and ``N_j`` negatives, with ``A_j`` negatives
    scoring higher.  Ties are broken at random, so the number ``V`` of negatives ranked before it is
    ``A_j + X``, ``X`` the negatives of the group placed before its ``i``-th positive in a uniformly random
    order of the group (``i = k' −`` positives scoring higher):

    ``P(X = x) = C(i − 1 + x, x)·C(P_j − i + N_j − x, N_j − x)/C(P_j + N_j, N_j)``, ``x = 0 … N_j``

    (a negative hypergeometric law; ``X = 0`` when no negative ties with it).
    """

    def __init__(self, counts, m_pos: int, m_neg: int):
        values, n_pos, n_neg = counts.table()
        self.P = n_pos[::-1].astype(np.int64)
        self.N = n_neg[::-1].astype(np.int64)
        self.pcum = np.cumsum(self.P)
        self.above = np.cumsum(self.N) - self.N  # negatives scoring higher than the group
        self.n_pos, self.n_neg = int(self.pcum[-1]), int(self.N.sum())
        self.m_pos, self.m_neg = m_pos, m_neg
        self._h: dict[int, np.ndarray] = {}  # group -> rows i = 1..P_j of the law of X (as needed)

    def _x_law(self, j: int, i: np.ndarray) -> np.ndarray:
        """Rows ``P(X = x | i)``, x = 0 … N_j, for the ``i`` given: ratios ``P(x + 1)/P(x) =
        (i + x)(N − x)/((x + 1)(P − i + N − x))`` multiplied outwards from the mean, each row normalised."""
        from ..exact import _outward_ratio_products

        P, N = int(self.P[j]), int(self.N[j])
        x = np.arange(N + 1, dtype=float)[None, :]
        ii = i.astype(float)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            up = (ii + x) * (N - x) / ((x + 1.0) * (P - ii + N - x))
        up[:, -1] = 0.0
        up = np.nan_to_num(up, nan=0.0, posinf=0.0)
        a = np.clip(np.floor(i * N / (P + 1.0)), 0, N).astype(np.int64)
        rows = _outward_ratio_products(up, a)
        rows[~np.isfinite(rows)] = 0.0
        return rows / rows.sum(axis=1, keepdims=True)

    def tie_work(self, k_lo: int, k_hi: int, n_levels: int) -> int:
        """Products the tie mixtures cost for ``n_levels`` levels whose windows span ranks ``k_lo..k_hi``."""
        j0, j1 = np.searchsorted(self.pcum, [k_lo, k_hi], side="left")
        groups = np.arange(j0, j1 + 1)
        tied = groups[(self.N[groups] > 0)]
        if not tied.size:
            return 0
        rows = np.minimum(self.pcum[tied], k_hi) - np.maximum(self.pcum[tied] - self.P[tied] + 1, k_lo) + 1
        return int(n_levels * np.sum(np.maximum(rows, 0) * (self.N[tied] + 1)))

    def tails(self, g: np.ndarray, k: int):
        """``(S, L, truncated)``: ``S = P(G* >= g)``, ``L = P(G* < g)`` (each from non-negative terms) and
        the order statistic's truncated mass, for integers ``g`` (any; outside ``1 … min(k, m+)`` the
        values are exact: ``S = 1`` for ``g <= 0``, ``S = 0`` above)."""
        g = np.asarray(g, np.int64)
        S, L, tr = np.zeros(g.size), np.zeros(g.size), np.zeros(g.size)
        low = g <= 0
        S[low] = 1.0
        high = g > min(k, self.m_pos)
        L[high] = 1.0
        todo = np.flatnonzero(~low & ~high)
        if not todo.size:
            return S, L, tr
        gv = g[todo]
        kk, w, off, trunc = order_statistic_laws(gv, self.m_pos, self.n_pos)
        tr[todo] = trunc
        level = np.repeat(np.arange(gv.size), np.diff(off))
        c = (k - gv)[level].astype(float)  # G* >= g  <=>  at most k − g negative draws rank before
        j = np.searchsorted(self.pcum, kk, side="left")
        tied = self.N[j] > 0
        # Components without a tie: V = A_j.
        q = self.above[j[~tied]] / self.n_neg
        cc, lv, ww = c[~tied], level[~tied], w[~tied]
        S_part = ww * binomial_cdf(cc, self.m_neg, q)
        L_part = ww * _binomial_sf(cc, self.m_neg, q)
        s_acc = np.bincount(lv, weights=S_part, minlength=gv.size).astype(float)
        l_acc = np.bincount(lv, weights=L_part, minlength=gv.size).astype(float)
        # Components with a tie: a mixture over X, summed per (level, group).
        for jj in np.unique(j[tied]):
            sel = np.flatnonzero(tied & (j == jj))
            i = kk[sel] - (self.pcum[jj] - self.P[jj])
            ui, inv = np.unique(i, return_inverse=True)
            H = self._x_law(int(jj), ui)  # (distinct i) × (N_j + 1)
            levels_here, lv_inv = np.unique(level[sel], return_inverse=True)
            W = np.zeros((levels_here.size, ui.size))
            np.add.at(W, (lv_inv, inv), w[sel])
            U = W @ H  # weight of each V = A_j + x, per level
            qx = (self.above[jj] + np.arange(int(self.N[jj]) + 1)) / self.n_neg
            cl = (k - gv[levels_here]).astype(float)[:, None]
            s_acc[levels_here] += np.sum(U * binomial_cdf(cl, self.m_neg, qx[None, :]), axis=1)
            l_acc[levels_here] += np.sum(U * _binomial_sf(cl, self.m_neg, qx[None, :]), axis=1)
        S[todo], L[todo] = s_acc, l_acc
        return S, L, tr

    def law(self, k: int, eps: float = DEPTH_EPS) -> Law:
        """The exact law of ``G*/m+`` on the window of ``G*`` holding all but ``eps`` per tail."""
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
        if self.tails_span(g[:-1], k) > MAX_TIE_WORK:
            raise InputError(
                f"At depth {k} of {self.m_pos + self.m_neg}, many positives and negatives share scores: the exact "
                "law at a fixed depth breaks those ties at random, which here costs more than rocci computes at "
                "once. Ask for intervals at thresholds (thresholds=..., e.g. the thresholds reaching these "
                "depths), where tied scores are no extra work.")
        S = np.empty(g.size)
        L = np.empty(g.size)
        tr = np.empty(g.size)
        step = max(1, _BATCH_CELLS // max(1, self._window_guess(k)))
        for a in range(0, g.size, step):
            S[a:a + step], L[a:a + step], tr[a:a + step] = self.tails(g[a:a + step], k)
        # P(G* = g) from the side that avoids cancellation.
        low_side = L[1:] <= 0.5
        pmf = np.where(low_side, L[1:] - L[:-1], S[:-1] - S[1:])
        pmf = np.clip(pmf, 0.0, None)
        truncated = float(L[0] + S[-1] + tr.max())
        return Law(g[:-1] / float(self.m_pos), pmf, truncated=truncated)

    def _window_guess(self, k: int) -> int:
        """About the width of an order statistic's window (rows per level), for batching."""
        return int(40 * np.sqrt(self.n_pos) + 64)

    def tails_span(self, g: np.ndarray, k: int) -> int:
        """The tie work of the levels ``g`` (from their order statistics' windows)."""
        gv = g[(g >= 1) & (g <= min(k, self.m_pos))]
        if not gv.size or not (self.N[self.P > 0] > 0).any():
            return 0
        kk, _, _, _ = order_statistic_laws(gv[[0, -1]], self.m_pos, self.n_pos)
        return self.tie_work(int(kk.min()), int(kk.max()), gv.size)


def _binomial_sf(k, m, p) -> np.ndarray:
    """``P(X > k)`` for ``X ~ Bin(m, p)``, from Boost's survival function (accurate in the upper tail)."""
    k, p = np.floor(np.asarray(k, dtype=float)), np.asarray(p, dtype=float)
    k, p = np.broadcast_arrays(k, p)
    value = _boost_binom_sf(np.clip(k, 0, m), float(m), p)
    return np.where(k < 0, 1.0, np.where(k >= m, 0.0, value))


def _check_depths(depth) -> np.ndarray:
    if isinstance(depth, (str, bytes)):
        raise InputError(f"depth ({depth!r}) must be numbers between 0 and 1, e.g. depth=[0.1, 0.2].")
    values = np.atleast_1d(np.asarray(depth))
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"depth must hold numbers between 0 and 1 (shares targeted); got {depth!r}.") from None
    if values.ndim != 1 or values.size == 0:
        raise InputError("depth must be a non-empty list of shares targeted, e.g. [0.1, 0.2].")
    if (~np.isfinite(values)).any() or ((values <= 0) | (values > 1)).any():
        raise InputError(f"depth values must lie in (0, 1] (the share of the population targeted); got "
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
        at="depth", thresholds=thr, k=k, tp=tp_obs, fp=d * n - tp_obs,
        depth=d, depth_mean=d.copy(), depth_std=np.zeros(k.size), depth_low=d.copy(), depth_high=d.copy(),
        gain=gain_obs, gain_mean=out["mean"], gain_std=out["std"], gain_low=out["low"], gain_high=out["high"],
        lift=lift_obs, lift_mean=out["mean"] / d, lift_std=out["std"] / d, lift_low=out["low"] / d,
        lift_high=out["high"] / d, p_undefined=np.zeros(k.size), truncated_mass=out["trunc"],
        n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, bootstrap="stratified", method=method,
        confidence_level=level, _laws={"gain": gain_laws, "lift": lift_laws, "depth": depth_laws},
    )


def gain_ci(y_true, y_score=None, *, thresholds=None, depth=None, confidence_level=0.95, method="percentile",
            bootstrap="stratified", m=None, pos_label=None) -> GainCI:
    r"""Exact bootstrap laws and intervals of the gain, the lift and the depth of a gain chart.

    On the data, at a threshold ``t`` (``score >= t`` is targeted) with ``tp`` positives and ``fp`` negatives
    targeted out of ``n = n+ + n−``:

    .. math::

        \text{depth} = \frac{tp + fp}{n}, \qquad \text{gain} = \frac{tp}{n_+}, \qquad
        \text{lift} = \frac{\text{gain}}{\text{depth}} = \frac{tp/(tp + fp)}{n_+/n},

    the share of the population targeted (Tanagra's *taille relative de la cible*), the share of the
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

    **At fixed depths, stratified bootstrap** (``depth=...``): each resample targets its top ``k``
    instances by score, ``k = round(depth·M)`` (1 <= k <= M), so ``depth* = k/M`` is fixed and
    ``gain* = G*/m+`` with ``G*`` the positives among them; ``lift* = gain*·M/k`` (always defined).  Ties
    between a positive and a negative score are broken at random (so on the data the gain at a depth is read
    on the straight segment of the gain curve).  With the positives ranked decreasingly and ``K_g`` the rank
    of the g-th largest positive drawn, the g-th positive drawn is among the top ``k`` exactly when at most
    ``k − g`` negative draws rank before it.  Given ``K_g = k'`` and the order of the ties, those draws are
    ``Bin(m−, V/n−)`` with ``V`` the negatives ranked before the positive of rank ``k'``; the two classes'
    draws are independent, so

    .. math::

        P(G^* \ge g) = \sum_{k'} P(K_g = k') \sum_x P(X_{k'} = x)\,
        B\!\left(k - g;\ m_-,\ \frac{A_{k'} + x}{n_-}\right),

    with ``P(K_g = k') = B(g − 1; m+, (k' − 1)/n+) − B(g − 1; m+, k'/n+)`` (thesis eq. 4.11, the law of
    :func:`rocci.vertical_ci` with the classes swapped), ``A_{k'}`` the negatives scoring above the
    positive of rank ``k'``, and ``X_{k'}`` the negatives tied with it that the random order places before
    it: with ``P`` positives and ``N`` negatives at that score and the positive the ``i``-th of its score,
    ``P(X = x) = C(i − 1 + x, x)·C(P − i + N − x, N − x)/C(P + N, N)`` (``X = 0`` without such ties).
    ``P(G* = g)`` follows by differences, from whichever tail avoids cancellation, on the window of ``g``
    holding all but 1e-17 per tail.  The full bootstrap is refused at fixed depths (as
    :func:`precision_ci` at fixed recall): the classes' draws are then not independent.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`; or a :class:`rocci.ScoreCounts` as ``y_true`` alone.
    thresholds : array_like, optional
        Score cut-offs.  Default (neither thresholds nor depth): the thresholds reaching the depths 0.1,
        0.2, …, 1.0 on the data (the ``⌈depth·n⌉``-th largest score; duplicates merged), a decile table.
    depth : array_like, optional
        Shares of the population targeted, in (0, 1]: the intervals at fixed depths.  Give thresholds or
        depth, not both.
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
        ``to_frame()``: ``threshold, tp, fp, depth, depth_mean, depth_std, depth_low, depth_high, gain, …,
        gain_high, lift, …, lift_high, p_undefined, truncated_mass`` (at fixed depths ``depth, k`` first);
        ``distribution(i, quantity)`` the exact law of ``"gain"``, ``"lift"`` or ``"depth"`` at row ``i``.

    Notes
    -----
    The bootstrap mean of the depth equals the observed depth only when ``m± = n±`` (stratified) and the
    mean of the lift is not the observed lift (a ratio).  At fixed depths the bootstrap mean of the gain is
    not the observed one either (as with :func:`rocci.vertical_ci`).  The fixed-depth law costs about
    (window of ``G*``) × (window of ``K_g``) binomial CDFs per depth; heavy ties between the classes
    multiply that by the tied negatives, and above ``MAX_TIE_WORK`` products it raises ``InputError``
    (ask for thresholds instead).

    References
    ----------
    R. Rakotomalala, *Courbes ROC, gain et rappel–précision*, Tanagra tutorial (2009), §1.3 (the gain
    chart: ``#cible/n`` against the recall).

    Examples
    --------
    >>> import rocci
    >>> res = rocci.gain_ci([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.2, 0.1], thresholds=[0.6])
    >>> res.to_frame()[["depth", "gain", "lift"]].round(4).values.tolist()
    [[0.6667, 1.0, 1.5]]
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, METHODS)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    if depth is not None:
        if thresholds is not None:
            raise InputError("Give either thresholds or depths to gain_ci, not both.")
        if bootstrap != "stratified":
            raise InputError(
                "The gain at a fixed depth is computed for bootstrap='stratified' only (the top k of a resample "
                "is a mixture of the two classes' independent draws); use thresholds=... for the full bootstrap.")
        return _at_depths(counts, _check_depths(depth), level, method, m)
    if thresholds is None:
        t = thresholds_for_total_positive_rate(counts, np.asarray(DEFAULT_DEPTH))
        t = np.unique(t)[::-1]
    else:
        t = _check_thresholds(thresholds)
    return _at_thresholds(counts, t, level, method, bootstrap, m)
