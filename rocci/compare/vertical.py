"""Vertical averaging, two models scored on the same instances (thesis §4.4.2).

Both models' thresholds come from the **same** bootstrap sample of negatives:
``T1_r`` is the r-th largest model-1 score among the drawn negatives and
``T2_r`` the r-th largest model-2 score.  With each model's negatives ranked
decreasingly (ties broken by position, a stable sort), ``T1_r = s1_(K)`` and
``T2_r = s2_(J)`` where

``F(k, j) = P(K <= k, J <= j) = P(N1_k >= r, N2_j >= r)``,

``N1_k`` (``N2_j``) counting the draws among model 1's top ``k`` (model 2's top
``j``) negatives.  The draws fall in the overlap of the two sets (``c`` of the
negatives), in one set only, or in neither, so ``(X_both, X_1only, X_2only)`` is
multinomial with probabilities ``(c, k − c, j − c)/n−`` and

``F(k, j) = Σ_x b(x; m−, c/n−) · Σ_T b(T; m− − x, (k + j − 2c)/(n− − c))
           · P(a <= X_1 <= T − a | T)``,  ``a = max(r − x, 0)``,

with ``X_1 | T ~ Bin(T, (k − c)/(k + j − 2c))``.  The joint law
``f(k, j) = P(K = k, J = j)`` follows by inclusion–exclusion.  Given
``(K, J) = (k, j)``, ``m+·ΔTPR* = A − B`` with ``(A, B)`` the counts of the
positives' paired cells (math.md §2) at thresholds ``(s1_(k), s2_(j))``, and
the law of ΔTPR* is the mixture over ``(k, j)``.

Only the window of ``(k, j)`` where the marginal laws of ``K`` and ``J`` are not
negligible is computed (each is the law of one model's order statistic, the
same for both models); the probability left out is reported.

Computing ``F`` from the formula above for every pair of the window is the
thesis's O(n⁴) route; it is kept as the reference (``route="direct"``).

The default route (``"series"``) uses two facts.

1. ``(N1_k, N2_j)`` is a sum of ``m−`` independent pairs of Bernoulli variables
   (each draw falls in model 1's top ``k``, in model 2's top ``j``), i.e. a
   bivariate binomial with margins ``α = k/n−``, ``β = j/n−`` and correlation
   ``ρ = (c/n− − αβ)/√(α(1−α)β(1−β))``.  Its Lancaster (Krawtchouk) expansion,
   the discrete analogue of the tetrachoric series, gives

   ``F(k, j) = Σ_(ℓ>=0) ρ^ℓ a_ℓ(α) a_ℓ(β)``,

   ``a_0(x) = P(Bin(m−, x) >= r)`` and ``a_ℓ`` the normalised Taylor
   coefficients of ``t ↦ a_0(x + t√(x(1−x)))``, given by the three-term
   recurrence of the Krawtchouk polynomials at ``r − 1``
   (:func:`_rank_tail_coefficients`).  Bessel's inequality bounds the terms
   left out by ``|ρ|^(L+1) √(a_0(1−a_0)(α) a_0(1−a_0)(β))``, checked for every
   pair (:func:`_joint_cdf_series`).
2. The law of ΔTPR* given ``(K, J)`` depends only on the cells of positives at
   the two thresholds, which change only where a positive's score lies
   between consecutive negatives' scores.  Ranks are grouped in blocks with
   the same count of positives above the threshold, and ``F`` is needed only
   at the blocks' corners: ``P(K ∈ block, J ∈ block')`` is a double difference.

So a level costs O(B_a·B_b·L) for ``B`` blocks (at most the window's
O(√r·n−/m−) ranks) and ``L ≈ 46/|log ρ|`` terms, plus the mixture of the ΔTPR
laws, summed through their characteristic functions at the few frequencies
where each matters (:func:`_difference_mixture_pmf`).  Pairs with ``ρ`` near 1
(two top sets that nearly coincide: strongly correlated or near-identical
models, where the series would need thousands of terms, or small ``r``, where
its recurrence is stable for few) are summed over the few draws in the two
sets' difference instead (:func:`_joint_cdf_disagreement`); when one set lies
inside the other ``F`` is the smaller set's ``P(N >= r)``.  Only if a pair has
neither (no such case is known) does the quadrature route take over: an
integral over the model-1 order statistic (:func:`_joint_threshold_law`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special
from scipy.fft import irfft, next_fast_len

from .._results import _FrameResult
from .._validation import check_choice, check_confidence_level, check_m, paired_input
from ..counts import PairedCounts, joint_ge_counts
from ..exact import QUANTILE_TOL, _boost_binom_pmf, binomial_cdf, binomial_pmf, order_statistic_law
from ..vertical import fpr_levels
from ._common import _check_paired
from .laws import difference_pmf

__all__ = ["compare_vertical", "VerticalComparison"]


@dataclass(repr=False)
class VerticalComparison(_FrameResult):
    """Exact bootstrap law of ΔTPR = TPR_a − TPR_b at fixed FPR levels (paired).

    Attributes
    ----------
    fpr, r : ndarray
        Levels ``r/m−``.
    delta_tpr_mean, delta_tpr_std : ndarray
        Exact mean and standard deviation of ΔTPR*.
    delta_tpr_low, delta_tpr_high : ndarray
        Interval at ``confidence_level``: percentile interval of the exact law,
        or the score interval (``method``).
    p_a_better, p_tie : ndarray
        ``P(ΔTPR* > 0)`` and ``P(ΔTPR* = 0)``.
    truncated_mass : ndarray
        Probability of ``(K, J)`` outside the computed window.
    method : str
        ``"percentile"`` or ``"score"``.
    """

    fpr: np.ndarray
    r: np.ndarray
    delta_tpr_mean: np.ndarray
    delta_tpr_std: np.ndarray
    delta_tpr_low: np.ndarray
    delta_tpr_high: np.ndarray
    p_a_better: np.ndarray
    p_tie: np.ndarray
    truncated_mass: np.ndarray
    n_pos: int
    n_neg: int
    m_pos: int
    m_neg: int
    confidence_level: float
    method: str = "percentile"
    _laws: list = field(default_factory=list, repr=False)
    _joint: list = field(default_factory=list, repr=False)

    _scalar_fields = ("n_pos", "n_neg", "m_pos", "m_neg", "confidence_level", "method")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``fpr, r, delta_tpr_mean, delta_tpr_std, delta_tpr_low,
        delta_tpr_high, p_a_better, p_tie, truncated_mass``."""
        return pd.DataFrame(
            {
                "fpr": self.fpr,
                "r": self.r,
                "delta_tpr_mean": self.delta_tpr_mean,
                "delta_tpr_std": self.delta_tpr_std,
                "delta_tpr_low": self.delta_tpr_low,
                "delta_tpr_high": self.delta_tpr_high,
                "p_a_better": self.p_a_better,
                "p_tie": self.p_tie,
                "truncated_mass": self.truncated_mass,
            }
        )

    def distribution(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact law of ΔTPR* at the ``i``-th level: values ``d/m+``, ``d = −m+…m+`` (from a
        :class:`~rocci.PairedCounts` with ``m+`` above 10⁶: the window of ``d`` that holds the law)."""
        d, probs = self._laws[i]
        return d / self.m_pos, probs

    def joint_threshold_law(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(k, j, f)``: ranks of the window and ``f[k, j] = P(K = k, J = j)``.

        Computed on first use (:func:`compare_vertical` itself needs it only
        block by block), then kept.  Per rank, so from a
        :class:`~rocci.PairedCounts` it is computed on the table's instances
        (the table expanded, positives first).
        """
        if isinstance(self._joint[i], _LazyJoint):
            self._joint[i] = self._joint[i]()
        return self._joint[i]


class _LazyJoint:
    """The cell-by-cell joint law of one level, computed when asked for."""

    def __init__(self, ctx: "_PairedData", r: int):
        self.ctx, self.r = ctx, r

    def __call__(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.ctx.level(self.r, joint=True)["joint"]


def _joint_cdf(k: np.ndarray, j: np.ndarray, c: np.ndarray, n: int, m: int, r: int) -> np.ndarray:
    """``F(k, j) = P(N1_k >= r, N2_j >= r)`` for arrays of (k, j, c) (see module docstring).

    Works through the pairs in chunks so that memory stays near 40 MB
    whatever the window.
    """
    chunk = max(1, 5_000_000 // ((m + 1) ** 2))
    if k.size > chunk:
        return np.concatenate([
            _joint_cdf(k[i:i + chunk], j[i:i + chunk], c[i:i + chunk], n, m, r)
            for i in range(0, k.size, chunk)
        ])
    out = np.zeros(k.shape, dtype=float)
    live = (k > 0) & (j > 0)
    if not live.any():
        return out
    kk, jj, cc = k[live].astype(float), j[live].astype(float), c[live].astype(float)
    x = np.arange(m + 1)
    t = np.arange(m + 1)
    b_x = binomial_pmf(x[None, :], m, (cc / n)[:, None])  # (P, x)
    rest = n - cc
    with np.errstate(invalid="ignore", divide="ignore"):
        pi_t = np.where(rest > 0, (kk + jj - 2 * cc) / np.where(rest > 0, rest, 1.0), 0.0)
        share = np.where(kk + jj - 2 * cc > 0, (kk - cc) / np.where(kk + jj - 2 * cc > 0, kk + jj - 2 * cc, 1.0), 0.5)
    big_m = m - x  # draws outside the overlap, per x
    a = np.maximum(r - x, 0)  # each model still needs a draws from its own part
    # b(T; m − x, pi_t): (P, x, T)
    b_t = binomial_pmf(t[None, None, :], big_m[None, :, None], pi_t[:, None, None])
    tt = t[None, None, :]
    aa = a[None, :, None]
    inner = binomial_cdf(tt - aa, tt, share[:, None, None]) - binomial_cdf(aa - 1, tt, share[:, None, None])
    inner = np.where((tt >= 2 * aa) & (tt <= big_m[None, :, None]), inner, 0.0)
    out[live] = np.einsum("px,pxt,pxt->p", b_x, b_t, inner)
    return out


def _mixture_difference_pmf(weights, p_a, p_b, m: int) -> np.ndarray:
    """``Σ_c w_c · P(A − B = d | p_a[c], p_b[c])`` over ``d = −m, …, m``
    (each component by :func:`rocci.compare.difference_pmf`)."""
    out = np.zeros(2 * m + 1)
    for w, pa, pb in zip(weights, p_a, p_b):
        d, pmf = difference_pmf(m, float(pa), float(pb))
        out[d + m] += w * pmf
    return out


def _stable_rank_desc(x: np.ndarray) -> np.ndarray:
    order = np.argsort(-x, kind="stable")
    rank = np.empty(x.size, dtype=np.int64)
    rank[order] = np.arange(1, x.size + 1)
    return rank


# ---------------------------------------------------------------------------
# Fast route: order-statistic embedding and Gauss–Legendre quadrature
# ---------------------------------------------------------------------------

#: Probability per tail left out of a binomial window or of a tail test.
_TAIL_EPS = 1e-16
_LAMBDA = float(-np.log(_TAIL_EPS))
#: Elements per work array (memory stays near 100 MB).
_BLOCK = 1 << 21
#: Columns between exact (boost) anchors of a binomial pmf row.
_SEGMENT = 32


def _bernstein(var, lam: float = _LAMBDA):
    """Half-width ``t`` with ``exp(−t²/(2(V + t/3))) = e^(−λ)`` (Bernstein's bound; λ for :data:`_TAIL_EPS`)."""
    return lam / 3.0 + np.sqrt(lam**2 / 9.0 + 2.0 * lam * np.asarray(var, float))


def _kl_bound(n, p, upper: bool, lam: float = _LAMBDA):
    """Distance ``t`` from the mean with ``P(S − n·p >= t) <= e^(−λ)`` (``upper``) or
    ``P(n·p − S >= t) <= e^(−λ)``, for ``S`` a sum of ``n`` independent
    Bernoulli variables of mean probability ``p`` (``λ`` for :data:`_TAIL_EPS` by default).

    Chernoff's bound ``P(S >= n(p + x)) <= exp(−n·KL(p + x ‖ p))`` holds for
    any such sum (the moment generating function of a Poisson-binomial is at
    most that of the binomial with the same mean).  ``n·KL(p + x ‖ p) = λ`` is
    solved by Newton's method started from Bernstein's (larger) half-width;
    on this convex increasing function the iterates decrease to the root and
    never cross it, so every iterate is a valid bound.  Where the bound
    cannot reach ``λ`` the whole range is returned.
    """
    n = np.asarray(n, float)
    p = np.clip(np.asarray(p, float), 0.0, 1.0)
    if not upper:  # the lower tail of S is the upper tail of n − S
        p = 1.0 - p
    room = n * (1.0 - p)  # largest possible excess over the mean
    x = np.minimum(_bernstein(n * p * (1 - p), lam), room) / np.where(n > 0, n, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        reachable = -n * np.log(p) > lam  # n·KL(1 ‖ p) > λ
        for _ in range(2):  # one or two steps reach the root to within a unit
            a = np.clip(p + x, p, 1.0)
            kl = special.xlogy(a, a / p) + special.xlogy(1 - a, (1 - a) / (1 - p))
            slope = np.log(a / p) - np.log((1 - a) / (1 - p))
            step = (n * kl - lam) / (n * slope)
            x = np.where(reachable & np.isfinite(step) & (step > 0), x - step, x)
    return np.where(reachable, np.ceil(n * x), room)


def _binomial_rows(n: int, q: np.ndarray, start: np.ndarray, length: int) -> np.ndarray:
    """``out[p, i] = b(start[p] + i; n, q[p])`` (0 above ``n``), shape ``(P, length)``; ``start >= 0``.

    Exact boost pmf anchors every :data:`_SEGMENT` columns and the ratio
    ``b(x + 1)/b(x) = (n − x)/(x + 1) · q/(1 − q)`` in between: relative error
    below ~1e-14, and no recursion long enough to underflow.
    """
    n_seg = -(-length // _SEGMENT)
    cols = n_seg * _SEGMENT
    base = np.zeros(n + cols + 2)  # (n − x)/(x + 1), 0 from x = n on
    xs = np.arange(n + 1, dtype=float)
    base[: n + 1] = (n - xs) / (xs + 1.0)
    q = np.clip(q, 0.0, 1.0)
    sure = q >= 1.0
    odds = q / np.where(sure, 1.0, 1.0 - q)
    # Row p of the ratios is base[start[p] : start[p] + cols]: copy whole rows, not elements.
    ratio = np.lib.stride_tricks.sliding_window_view(base, cols)[start]
    ratio *= odds[:, None]
    ratio = ratio.reshape(-1, n_seg, _SEGMENT)
    xa = start[:, None] + _SEGMENT * np.arange(n_seg)[None, :]
    anchors = np.where(xa <= n, _boost_binom_pmf(np.minimum(xa, n).astype(float), float(n), q[:, None]), 0.0)
    vals = np.empty_like(ratio)
    vals[:, :, 0] = anchors
    np.cumprod(ratio[:, :, :-1], axis=2, out=vals[:, :, 1:])
    vals[:, :, 1:] *= anchors[:, :, None]
    vals = vals.reshape(q.size, cols)
    if sure.any():  # q = 1: all the mass at n (the ratio is 0·∞ there)
        vals[sure] = (start[sure][:, None] + np.arange(cols)[None, :] == n).astype(float)
    return vals[:, :length]


def _sum_tail(q_lo: np.ndarray, q_hi: np.ndarray, s: np.ndarray, n1: int, n2: int, tick=None) -> np.ndarray:
    """``P(X + Y >= s)`` for independent ``X ~ Bin(n1, q_lo)``, ``Y ~ Bin(n2, q_hi)`` (arrays).

    ``Σ_x b(x; n1, q_lo) · P(Y >= s − x)`` over the window of ``X`` (Chernoff
    bounds, :func:`_kl_bound`, ``_TAIL_EPS`` per tail), with ``P(Y >= y)`` the
    reversed cumulative sum of ``Y``'s pmf over its own window.  Points whose
    answer is 0 or 1 to within ``2·_TAIL_EPS`` (``s`` outside the sum of the
    windows) are not summed.
    """
    out = np.zeros(q_lo.shape)
    # Windows of X and Y; outside x0 + y0 <= X + Y <= x1 + y1 lies at most 2·_TAIL_EPS.
    x0 = np.clip(np.floor(n1 * q_lo - _kl_bound(n1, q_lo, upper=False)), 0, n1).astype(np.int64)
    x1 = np.clip(np.ceil(n1 * q_lo + _kl_bound(n1, q_lo, upper=True)), 0, n1).astype(np.int64)
    y0 = np.clip(np.floor(n2 * q_hi - _kl_bound(n2, q_hi, upper=False)), 0, n2).astype(np.int64)
    y1 = np.clip(np.ceil(n2 * q_hi + _kl_bound(n2, q_hi, upper=True)), 0, n2).astype(np.int64)
    out[s <= x0 + y0] = 1.0
    todo = np.flatnonzero((s > x0 + y0) & (s <= x1 + y1))
    if todo.size == 0:
        return out
    ql, qh, ss = q_lo[todo], q_hi[todo], s[todo].astype(np.int64)
    x0, x1, y0, y1 = x0[todo], x1[todo], y0[todo], y1[todo]
    # Points come in (k, node, j) order: within a block, many share q_lo (same overlap
    # count below u) or q_hi, so each distinct binomial row is computed once.
    a = 0
    while a < todo.size:
        look = slice(a, a + 1024)
        width = int((x1[look] - x0[look]).max() + (y1[look] - y0[look]).max()) + 2
        b = slice(a, a + max(1, _BLOCK // (2 * width + 2 * _SEGMENT)))
        lx = int((x1[b] - x0[b]).max()) + 1
        ly = int((y1[b] - y0[b]).max()) + 1
        ux, first_x, ix = np.unique(ql[b], return_index=True, return_inverse=True)
        uy, first_y, iy = np.unique(qh[b], return_index=True, return_inverse=True)
        px = _binomial_rows(n1, ux, x0[b][first_x], lx)
        py = _binomial_rows(n2, uy, y0[b][first_y], ly)
        # g[:, lx + k] = P(Y >= y0 + k): the reversed cumulative sum for 0 <= k < ly,
        # P(Y >= y0) (= 1 within _TAIL_EPS) for k < 0, and 0 for k >= ly.
        g = np.zeros((uy.size, 2 * lx + ly))
        g[:, lx:lx + ly] = np.cumsum(py[:, ::-1], axis=1)[:, ::-1]
        g[:, :lx] = g[:, lx:lx + 1]
        # Term i pairs x = x0 + i with y − y0 = off − i, off = s − x0 − y0: column lx + off − i.
        # Clipping off to [−1, lx + ly − 1] changes no term (all ones / all zeros beyond).
        off = np.clip(ss[b] - x0[b] - y0[b], -1, lx + ly - 1)
        windows = np.lib.stride_tricks.sliding_window_view(g, lx, axis=1)  # [u, c, t] = g[u, c + t]
        take = windows[iy.ravel(), off + 1]  # t = lx − 1 − i
        out[todo[b]] = np.einsum("pt,pt->p", px[:, ::-1][ix.ravel()], take)
        a = b.stop
        if tick is not None:
            tick(min(a, todo.size) / todo.size)
    return out


def _gl_nodes(r: int, m: int, n: int) -> int:
    """Gauss–Legendre nodes per cell ``((k − 1)/n, k/n]`` for ``β(u)·P(N2 >= r | u)``.

    The integrand is a polynomial of degree ``m − 1`` in ``u`` (each binomial
    term times ``u^(r−1)(1 − u)^(m−r)`` is), so ``⌈m/2⌉`` nodes are exact.
    For larger ``m`` the cells are narrow compared with the spread ``σ`` of
    ``U_(r)`` and a few nodes reach ~1e-15: the orders below, by the cell
    width ``ρ = (1/n)/σ``, were chosen by comparing with 16 nodes for
    ``n`` from 100 to 3000 and levels from 5% to 50% (errors <= 1e-14).
    """
    exact = max(1, -(-m // 2))
    a, b = float(r), float(m - r + 1)
    mode = min(max((a - 1) / (a + b - 2) if a + b > 2 else 0.5, 1.0 / n), 1 - 1.0 / n)
    sigma = np.sqrt(max(mode * (1 - mode), 1.0 / n) / (a + b + 1))
    rho = (1.0 / n) / sigma
    for limit, order in ((0.015, 2), (0.04, 3), (0.15, 4), (0.3, 5), (0.6, 7), (1.2, 12)):
        if rho <= limit:
            return min(exact, order)
    return min(exact, 32)


def _conditional_shares(mu, u, share_j, at_zero=0.0):
    """``(q₁, q₂)`` of :func:`_joint_threshold_law`, clipped to [0, 1]: the chance that one of the draws below
    ``u`` (``q₁ = μ/u``; ``at_zero`` at ``u = 0``) and one of those above it (``q₂ = (j/n − μ)/(1 − u)``; 0 at
    ``u = 1``) falls in model 2's top ``j``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q1 = np.where(u > 0, mu / u, at_zero)
        q2 = np.where(u < 1, (share_j - mu) / (1.0 - u), 0.0)
    return np.clip(q1, 0.0, 1.0), np.clip(q2, 0.0, 1.0)


def _conditional_moments(q1, q2, r: int, m: int):
    """Mean and variance of ``Bin(r − 1, q₁) + Bin(m − r, q₂)`` (independent)."""
    return (r - 1) * q1 + (m - r) * q2, (r - 1) * q1 * (1.0 - q1) + (m - r) * q2 * (1.0 - q2)


#: Gauss–Legendre nodes per cell and the largest shift ``Δz`` of a standard normal CDF across the cell
#: that they integrate to 1e-14 of the cell's mass (measured against the antiderivative of ``Φ``).
_SHIFT_NODES = ((0.003, 2), (0.045, 3), (0.18, 4), (0.44, 5), (0.78, 6), (1.2, 7), (1.6, 8), (2.6, 10),
                (3.3, 12), (5.0, 16), (8.0, 24))


def _conditional_nodes(c: np.ndarray, in_s: np.ndarray, k: np.ndarray, j_grid: np.ndarray, n: int, m: int,
                       r: int, p_k: np.ndarray) -> int:
    """Gauss–Legendre nodes per cell for the factor ``P(N2_j >= r | u)`` of :func:`_joint_threshold_law`.

    Across cell ``k`` the mean of ``N2_j | u`` moves by ``δ`` (about ``m/n`` times the share of the
    top sets' overlap); its spread is ``s = √((r − 1)q₁(1 − q₁) + (m − r)q₂(1 − q₂))``.  For two
    near-copies of a model ``s`` is a few draws next to the diagonal, and the tail moves like
    ``Φ`` over ``Δz = δ/max(s, 1)``: two or three nodes, enough for the order statistic's density
    (:func:`_gl_nodes`), leave ~1e-10 there.  The nodes are those of :data:`_SHIFT_NODES` for the
    largest ``Δz`` among the pairs whose tail is not 0 or 1 (within ``10·s`` of ``r``) in rows
    holding more than 1e-14 of ``K``'s mass.
    """
    e = in_s.astype(float)
    worst = 0.0
    step = max(1, (1 << 21) // max(j_grid.size, 1))  # rows at a time: a few arrays of ~2·10^6
    for a in range(0, k.size, step):
        rows = slice(a, a + step)
        if not np.any(p_k[rows] > 1e-14):
            continue
        ends = []
        for frac in (0.0, 1.0):
            u = ((k[rows] - 1 + frac) / n)[:, None]
            mu = (c[rows] + e[rows] * frac) / n
            mean, var = _conditional_moments(*_conditional_shares(mu, u, j_grid[None, :] / n, e[rows]), r, m)
            ends.append((mean + e[rows], var))
        delta = np.abs(ends[1][0] - ends[0][0])
        spread = np.sqrt(np.maximum(np.maximum(ends[0][1], ends[1][1]), 1.0))
        middle = (ends[0][0] + ends[1][0]) / 2.0
        live = (np.abs(middle - r) <= 10.0 * spread + delta) & (p_k[rows] > 1e-14)[:, None]
        if live.any():
            worst = max(worst, float((delta / spread)[live].max()))
    for limit, order in _SHIFT_NODES:
        if worst <= limit:
            return order
    return 32


def _joint_threshold_law(rank2_by_rank1: np.ndarray, n: int, m: int, r: int, k_win: np.ndarray,
                         tick=None) -> np.ndarray:
    """``f[k, j] = P(K = k, J = j)`` on the window ``k, j ∈ k_win`` (fast route).

    ``K = ⌈n·U_(r)⌉`` with ``U_(r) ~ Beta(r, m − r + 1)`` the r-th smallest of
    ``m`` uniforms, each uniform drawing the negative of model-1 rank
    ``⌈n·U⌉``.  Given ``U_(r) = u`` in cell ``k``, the other draws are ``r − 1``
    uniforms on ``[0, u)`` and ``m − r`` on ``(u, 1]``, so the number of draws
    among model 2's top ``j`` negatives ``S_j`` is

    ``N2_j | u = Bin(r − 1, μ/u) + e + Bin(m − r, (j/n − μ)/(1 − u))``,

    ``e = 1[rank2(k) <= j]``, ``μ = (c(k − 1, j) + e·(n·u − k + 1))/n`` the
    measure of ``S_j`` in ``[0, u)``, ``c(k − 1, j)`` the overlap of model 1's
    top ``k − 1`` with ``S_j``.  Then

    ``P(K = k, J <= j) = ∫_{(k−1)/n}^{k/n} β(u) · P(N2_j >= r | u) du``

    by Gauss–Legendre quadrature on the cell (the nodes of :func:`_gl_nodes` for ``β``, more where
    ``P(N2_j >= r | u)`` moves within a cell: :func:`_conditional_nodes`), and ``f``
    by differencing in ``j``.  Cost O(W²·nodes·sqrt(m)) for a window of width W.
    """
    k = k_win
    j_grid = np.arange(k[0] - 1, k[-1] + 1)  # one extra column for the differences
    # c[a, b] = #{i <= k[a] − 1 : rank2(i) <= j_grid[b]}
    prefix = np.sort(rank2_by_rank1[: k[0] - 1])
    c0 = np.searchsorted(prefix, j_grid, side="right")
    in_s = rank2_by_rank1[k - 1][:, None] <= j_grid[None, :]  # e[a, b] = 1[rank2(k[a]) <= j]
    c = c0[None, :] + np.vstack([np.zeros((1, j_grid.size), np.int64), np.cumsum(in_s[:-1], axis=0)])
    p_k = special.betainc(r, m - r + 1, k / n) - special.betainc(r, m - r + 1, (k - 1) / n)  # P(K = k)
    g = min(max(1, -(-m // 2)), max(_gl_nodes(r, m, n), _conditional_nodes(c, in_s, k, j_grid, n, m, r, p_k)))
    xi, wts = np.polynomial.legendre.leggauss(g)
    frac = (1.0 + xi) / 2.0  # node position inside the cell
    u = (k[:, None] - 1 + frac[None, :]) / n  # (W, G)
    dens = m * _boost_binom_pmf(float(r - 1), float(m - 1), u) * (wts / (2.0 * n))[None, :]  # β(u)·weight
    big_f = np.empty((k.size, j_grid.size))  # P(K = k, J <= j)
    step = max(1, _BLOCK // (g * j_grid.size))  # rows of cells at a time: arrays of ~2·10^6 points
    for a in range(0, k.size, step):
        rows = slice(a, a + step)
        e = in_s[rows][:, None, :].astype(float)  # (w, 1, J)
        mu = (c[rows][:, None, :] + e * frac[None, :, None]) / n  # (w, G, J)
        uu = u[rows][:, :, None]
        q_lo, q_hi = _conditional_shares(mu, uu, j_grid[None, None, :] / n)  # nodes inside the cell: 0 < u < 1
        s = np.broadcast_to(r - e, q_lo.shape)
        # P(X + Y >= s) is 0 or 1 to within e^(−λ) where Bernstein's bound on X + Y − E puts s out of reach:
        # most pairs of a near-copy (the band around the diagonal is narrow), none summed.
        mean, var = _conditional_moments(q_lo, q_hi, r, m)
        half = _bernstein(var)
        tail = (mean - half >= s).astype(float)
        todo = (mean - half < s) & (mean + half >= s)
        if todo.any():
            tail[todo] = _sum_tail(q_lo[todo], q_hi[todo], s[todo].astype(float), r - 1, m - r)
        big_f[rows] = np.einsum("kg,kgj->kj", dens[rows], tail)
        if tick is not None:
            tick(min(a + step, k.size) / k.size)
    return np.clip(np.diff(big_f, axis=1), 0.0, None)


# ---------------------------------------------------------------------------
# Series route: the Lancaster (Krawtchouk) expansion of the bivariate binomial
# ---------------------------------------------------------------------------

#: Largest error allowed on each value of ``F(k, j)`` by cutting the series.
_SERIES_EPS = 1e-20
#: Most terms the series may use (beyond, the quadrature route is cheaper).  Up to 51217cc: 4000,
#: with :data:`_DISAGREE_MAX` 160; near-copies of one model (pairs of top sets with 1 − ρ ≈ 0.01,
#: a few hundred draws in their difference) then fell to the quadrature: ~11 s instead of ~1 s a
#: level at 10⁵ rows (``bench/bench_near_copy.py``), 258 s instead of 15 s at 10⁶ (a separate run).
_SERIES_MAX_TERMS = 10000


def _krawtchouk_stable_degree(x: np.ndarray, m: int, r: int) -> np.ndarray:
    """Largest degree ``n`` up to which the forward recurrence of :func:`_rank_tail_coefficients` is stable.

    ``k̂_n(X)`` is the orthonormal Krawtchouk polynomial of ``Bin(N, x)``,
    ``N = m − 1``, at the mass point ``X = r − 1``.  Its zeros fill, for large
    ``N``, the interval ``[(√(n(1−x)) − √((N−n)x))², (√(n(1−x)) + √((N−n)x))²]``;
    once that interval has moved past ``X`` the values at ``X`` decay with ``n``
    (a saturated region of the discrete measure) and a forward recurrence
    amplifies round-off.  The left edge passes ``X`` at
    ``n = N − v²``, ``v = √(Xx + N(1−x) − X) − √(Xx)`` (the right edge by the
    mirror ``X → N − X``, ``x → 1 − x``).  Checked against 80-digit
    arithmetic: the first error above 1e-15 appears 10–40 degrees later.
    """
    big_n, big_x = m - 1.0, r - 1.0

    def left(point, p):
        inner = point * p + big_n * (1.0 - p) - point
        v = np.sqrt(np.maximum(inner, 0.0)) - np.sqrt(point * p)
        return np.where(inner >= 0, big_n - v * v, np.inf)

    return np.minimum(left(big_x, x), left(big_n - big_x, 1.0 - x))


def _series_cut(x: np.ndarray, m: int, r: int):
    """``P(N >= r)`` and ``P(N < r)`` for ``N ~ Bin(m, x)``, and the most terms of the series the
    recurrence of :func:`_rank_tail_coefficients` gives accurately (:func:`_krawtchouk_stable_degree`)."""
    x = np.asarray(x, dtype=float)
    a_, b_ = float(r), float(m - r + 1)
    p, q = special.betainc(a_, b_, x), special.betaincc(a_, b_, x)
    stable = np.floor(_krawtchouk_stable_degree(x, m, r)) + 1.0  # term ℓ uses degree ℓ − 1
    return p, q, np.minimum(stable, float(m)).astype(np.int64)


def _rank_tail_coefficients(x: np.ndarray, m: int, r: int, terms: np.ndarray) -> np.ndarray:
    """Coefficients of the series for ``P(N1 >= r, N2 >= r)`` at ``P(one draw in the set) = x``.

    With ``N ~ Bin(m, x)``, ``P = P(N >= r) = I_x(r, m − r + 1)`` and, for
    ``ℓ >= 1``,

    ``a_ℓ(x) = (−1)^(ℓ−1) √(m/ℓ) · √(x(1−x)) · b(r−1; m−1, x) · k̂_(ℓ−1)(r − 1)``,

    ``k̂_n`` the orthonormal Krawtchouk polynomials of ``Bin(m − 1, x)``
    (three-term recurrence ``√((n+1)(N−n)x(1−x)) k̂_(n+1) =
    (x(N−n) + n(1−x) − X) k̂_n − √(n(N−n+1)x(1−x)) k̂_(n−1)``).  They are the
    normalised Taylor coefficients of ``t ↦ I_(x + t√(x(1−x)))(r, m − r + 1)``
    and Bessel's inequality bounds them: ``Σ_ℓ a_ℓ² <= P(1 − P)``.

    Returns ``a`` of shape ``(len(x), max(terms))``: ``a[i, ℓ − 1] = a_ℓ(x_i)``
    for ``ℓ <= terms[i]``, 0 beyond (:func:`_series_cut`); a transposed view of a
    ``(max(terms), len(x))`` array, so that ``a.T[ℓ − 1]`` (one degree, every ``x``) is contiguous.
    """
    x = np.asarray(x, dtype=float)
    width = int(terms.max()) if terms.size else 0
    out_t = np.zeros((max(width, 1), x.size))
    out = out_t.T
    if width == 0:
        return out
    big_n, big_x = m - 1.0, r - 1.0
    var = x * (1.0 - x)
    live = var > 0
    safe = np.where(live, var, 1.0)
    base = np.sqrt(var) * np.sqrt(m) * _boost_binom_pmf(big_x, big_n, x)
    out[:, 0] = np.where(terms >= 1, base, 0.0)
    k_prev, k_cur = np.zeros(x.size), np.ones(x.size)
    for deg in range(width - 1):  # k̂_(deg+1) from k̂_deg and k̂_(deg−1)
        with np.errstate(over="ignore", invalid="ignore"):  # rows past their cut are discarded
            nxt = ((x * (big_n - deg) + deg * (1.0 - x) - big_x) * k_cur
                   - np.sqrt(deg * (big_n - deg + 1) * safe) * k_prev) / np.sqrt((deg + 1) * (big_n - deg) * safe)
        k_prev, k_cur = k_cur, np.where(live & (deg + 2 <= terms), nxt, 0.0)
        ell = deg + 2
        out_t[ell - 1] = (-1.0) ** (ell - 1) * np.sqrt(1.0 / ell) * base * k_cur
    return out


#: Largest window of the count of draws in the disagreement of two top sets summed over.
_DISAGREE_MAX = 400


def _disagreement_window(k, j, overlap, n: int, m: int) -> np.ndarray:
    """Upper end of the window of ``T``, the draws in the symmetric difference of the two top
    sets, ``T ~ Bin(m, (k + j − 2c)/n)``: ``P(T > window) <= _SERIES_EPS`` (Chernoff)."""
    share = (k + j - 2.0 * overlap) / n
    return np.minimum(np.ceil(m * share + _kl_bound(m, share, upper=True, lam=-np.log(_SERIES_EPS))), m)


def _joint_cdf_disagreement(k, j, overlap, n: int, m: int, r: int, width: int) -> np.ndarray:
    """``F(k, j) = P(N1_k >= r, N2_j >= r)`` for pairs whose two top sets nearly coincide.

    Split the negatives into ``A`` (model 1's top ``k`` only, ``k − c`` of them),
    ``B`` (model 2's top ``j`` only, ``j − c``) and ``C`` (both, ``c``).  Of the
    ``m`` draws, ``T ~ Bin(m, (k + j − 2c)/n)`` fall in ``A ∪ B``; given ``T = t``,
    ``A' ~ Bin(t, (k − c)/(k + j − 2c))`` of them fall in ``A`` and, independently,
    ``C' ~ Bin(m − t, c/(n − k − j + 2c))`` in ``C``.  ``N1 = C' + A'`` and
    ``N2 = C' + t − A'``, so

    ``F = Σ_t P(T = t) Σ_u P(min(A', t − A') = u | t) · P(C' >= r − u | t)``,

    summed for ``t <= width`` (the rest, at most :data:`_SERIES_EPS`, is left
    out; :func:`_disagreement_window`).  For each ``t`` the tails of ``C'`` come
    from one incomplete beta and the running sum of its pmf (by ratios), and
    the shares of ``min(A', t − A')`` from Pascal's rule: O(width²) per pair,
    where the Lancaster series would need O(1/(1 − ρ)) terms.
    """
    k, j, c = (np.asarray(v, dtype=float) for v in (k, j, overlap))
    apart = k + j - 2.0 * c
    share = apart / n
    side = np.where(apart > 0, (k - c) / np.where(apart > 0, apart, 1.0), 0.5)
    g = c / (n - apart)
    g_out = (n - apart - c) / (n - apart)  # 1 − g, exactly (callers keep it positive)
    span = width // 2  # min(A', t − A') <= t/2
    p_t = _boost_binom_pmf(np.arange(width + 1.0)[None, :], float(m), share[:, None])  # P(T = t)
    # C' tails P(Bin(M, g) >= r − u) and pmf b(r − u − 1; M, g), u = 0 … span, for M = m − t.
    a = r - np.arange(span + 1)  # thresholds r − u
    pmf = _boost_binom_pmf(np.maximum(a - 1.0, 0.0)[None, :], float(m), g[:, None]) * (a - 1 >= 0)[None, :]
    tail = np.empty((k.size, span + 1))
    split = np.zeros((k.size, width + 1))  # P(A' = i | t), Pascal's rule in t
    split[:, 0] = 1.0
    out = np.zeros(k.size)
    for t in range(width + 1):
        if t:
            split[:, 1:t + 1] = split[:, 1:t + 1] * (1.0 - side)[:, None] + split[:, :t] * side[:, None]
            split[:, 0] *= 1.0 - side
            if t % _SEGMENT:
                big = m - t + 1  # M → M − 1: b(a − 1; M − 1) = b(a − 1; M)·(M − a + 1)/(M(1 − g))
                pmf = pmf * np.maximum(big - a + 1.0, 0.0)[None, :] / (big * g_out)[:, None]
            else:  # anew every _SEGMENT steps: the ratios' round-off would grow with t
                x = np.clip(a - 1.0, 0.0, m - t)  # b(x; M, g) = 0 outside 0 … M (boost gives NaN above M)
                pmf = _boost_binom_pmf(x[None, :], float(m - t), g[:, None])
                pmf *= ((a - 1 >= 0) & (a - 1 <= m - t))[None, :]
        # P(Bin(m − t, g) >= r) anew (no error carried over t), then P(>= a − 1) = P(>= a) + b(a − 1).
        tail[:, 0] = special.betainc(float(r), float(m - t - r + 1), g) if m - t >= r else 0.0
        tail[:, 1:] = tail[:, :1] + np.cumsum(pmf[:, :-1], axis=1)
        tail = np.where((a <= 0)[None, :], 1.0, np.minimum(tail, 1.0))
        u = np.arange(t // 2 + 1)
        low = split[:, u] + np.where(u < t - u, split[:, t - u], 0.0)  # P(min(A', t − A') = u)
        out += p_t[:, t] * np.einsum("pu,pu->p", low, tail[:, : u.size])
    return out


def _joint_cdf_series(k: np.ndarray, j: np.ndarray, overlap: np.ndarray, n: int, m: int, r: int):
    """``G[a, b] = F(k[a], j[b]) − P(N1_k >= r) P(N2_j >= r)`` on a grid, by the Lancaster series.

    Each draw falls in model 1's top ``k`` with probability ``α = k/n``, in
    model 2's top ``j`` with ``β = j/n`` and in both with ``c/n``; the counts
    ``(N1_k, N2_j)`` are a sum of ``m`` independent pairs of Bernoulli
    variables with correlation ``ρ = (c/n − αβ)/√(α(1−α)β(1−β))``.  The
    Lancaster expansion of that bivariate binomial (Krawtchouk polynomials)
    gives

    ``F(k, j) = P(N1_k >= r, N2_j >= r) = Σ_(ℓ>=0) ρ^ℓ a_ℓ(α) a_ℓ(β)``,

    ``a_0 = P(Bin(m, ·) >= r)`` and ``a_ℓ`` from :func:`_rank_tail_coefficients`
    (the discrete analogue of the tetrachoric series of the bivariate
    normal).  By Bessel's inequality the terms after ``L`` add at most
    ``|ρ|^(L+1) √(P_α Q_α P_β Q_β)``: each pair gets the ``L`` that brings this
    below :data:`_SERIES_EPS`, within the stable range of the recurrence
    (:func:`_series_cut`).  Cost O(|k|·|j|·L), ``L ≈ 46/|log ρ|``.

    Pairs with ``ρ`` near 1 (two top sets that nearly coincide) would need
    thousands of terms; they are summed over the few draws in the two sets'
    difference instead (:func:`_joint_cdf_disagreement`, O(w²) for a window of
    ``w`` such draws), and when one set lies inside the other ``F`` is the
    smaller set's ``P(N >= r)``.  The split between the two sums is the
    cheaper of a few.

    Returns
    -------
    G : ndarray of shape (len(k), len(j)), or None
        None when some pair has neither a short enough series nor a small
        enough difference (:data:`_SERIES_MAX_TERMS`, :data:`_DISAGREE_MAX`).
    """
    alpha, beta = k / n, j / n
    spread = np.sqrt(np.outer(alpha * (1 - alpha), beta * (1 - beta)))
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = (overlap / n - np.outer(alpha, beta)) / spread
    rho = np.where(spread > 0, rho, 0.0)
    xs, inverse = np.unique(np.r_[alpha, beta], return_inverse=True)
    p, q, stable = _series_cut(xs, m, r)
    ia, ib = inverse[: k.size], inverse[k.size:]
    # Terms each pair needs: |ρ|^(L+1) √(P Q P' Q') <= eps.
    size = np.sqrt(np.outer(p[ia] * q[ia], p[ib] * q[ib]))
    rho_abs = np.abs(rho)
    with np.errstate(divide="ignore", invalid="ignore"):
        need = np.ceil(np.log(_SERIES_EPS / size) / np.log(rho_abs)) - 1.0
    need = np.where((size <= _SERIES_EPS) | (rho_abs == 0), 0.0, np.where(rho_abs >= 1, np.inf, need))
    need = np.maximum(need, 0.0)
    limit = np.minimum(stable[ia][:, None], stable[ib][None, :])
    kk, jj = np.broadcast_arrays(k[:, None], j[None, :])
    apart = kk + jj - 2.0 * overlap
    # One top set inside the other: F is the tail of the smaller set's count, P of that set.
    nested = (overlap == kk) | (overlap == jj)
    need = np.where(nested, 0.0, need)
    window = np.where(n - apart - overlap > 0, _disagreement_window(kk, jj, overlap, n, m), np.inf)
    # Each pair: its own number of series terms, or the sum over the sets' difference when that is
    # cheaper (about 1.5·(w + 1)² series terms' time) or the series is out of its stable range.
    can_series = nested | (need <= np.minimum(limit, _SERIES_MAX_TERMS))
    can_diff = window <= _DISAGREE_MAX
    if not np.all(can_series | can_diff):
        return None
    use_diff = ~nested & can_diff & (~can_series | (1.5 * (window + 1.0) ** 2 < need))
    series_need = np.where(use_diff | nested, 0.0, need)
    # Horner on the whole grid up to L0 terms (outer products), then the few pairs that need more
    # (next to the diagonal when ρ is high) on their own: L0 minimises the estimated time.
    top = float(series_need.max(initial=0.0))
    best_l0, best_cost = top, np.inf
    for l0 in np.unique(np.quantile(series_need, [0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 1.0])):
        cost = 4.5 * series_need.size * l0 + 12.0 * np.count_nonzero(series_need > l0) * (top - l0)
        if cost < best_cost:
            best_l0, best_cost = float(l0), cost
    # Terms per coefficient row: the most any series pair through it needs.
    terms = np.zeros(xs.size)
    np.maximum.at(terms, ia, series_need.max(axis=1, initial=0.0))
    np.maximum.at(terms, ib, series_need.max(axis=0, initial=0.0))
    # One degree's coefficients at every x at a time (rows of coef.T), not copies of the table per k and j.
    coef_t = _rank_tail_coefficients(xs, m, r, terms.astype(np.int64)).T
    acc = np.zeros((k.size, j.size))
    l0 = int(min(best_l0, coef_t.shape[0]))
    for ell in range(l0, 0, -1):  # Horner in ρ
        acc += np.outer(coef_t[ell - 1, ia], coef_t[ell - 1, ib])
        acc *= rho
    long = np.nonzero(series_need > l0)
    if long[0].size:
        # Σ_(ℓ > L0) ρ^ℓ a_ℓ a'_ℓ = ρ^L0 Σ_(i >= 1) ρ^i a_(L0+i) a'_(L0+i), by Horner over i.
        ra, rb, rho_long = ia[long[0]], ib[long[1]], rho[long]
        rest = np.zeros(ra.size)
        for ell in range(int(series_need[long].max()), l0, -1):
            rest += coef_t[ell - 1, ra] * coef_t[ell - 1, rb]
            rest *= rho_long
        acc[long] += rest * rho_long**l0
    easy = ~use_diff
    inside = np.nonzero(nested)
    if inside[0].size:
        pa, pb = p[ia][inside[0]], p[ib][inside[1]]
        acc[inside] = np.where(overlap[inside] == kk[inside], pa, pb) - pa * pb
    hard = np.nonzero(~easy)
    if hard[0].size:
        # By window, so that a few wide pairs do not widen the sums of all the others.
        order = np.argsort(window[hard], kind="stable")
        rows, cols = hard[0][order], hard[1][order]
        widths = window[rows, cols].astype(np.int64)
        for part in np.split(np.arange(rows.size), np.flatnonzero(np.diff(np.minimum(widths, 8) + widths // 16)) + 1):
            a_, b_ = rows[part], cols[part]
            f = _joint_cdf_disagreement(kk[a_, b_], jj[a_, b_], overlap[a_, b_], n, m, r, int(widths[part].max()))
            acc[a_, b_] = f - p[ia][a_] * p[ib][b_]
    return acc


#: A component's Fourier term smaller than this (weight included) is left out.
_FOURIER_EPS = 1e-20
#: (component, frequency) pairs evaluated at once (memory stays near 50 MB).
_FOURIER_CHUNK = 1 << 19


def _frequency_counts(s, delta, weights, m: int, length: int):
    """Frequencies ``t = 1 … length//2`` at which ``w·|z(θ_t)|^m > ε`` (:data:`_FOURIER_EPS`).

    ``|z|² = 1 − 2x(S − δ²) + x²(S² − δ²)``, ``x = 1 − cos θ``, ``S = p_a + p_b``,
    ``δ = p_a − p_b``: convex in ``x``, 1 at ``x = 0`` and at most 1, so
    ``w·|z|^m > ε`` holds on ``x < x₁`` and, when ``S`` is near 0 or 1 (the law
    of ``A − B`` then lives on one parity), on ``x > x₂``, the roots of
    ``|z|² = τ = (ε/w)^(2/m)``.  Returns the per-component counts of the low
    frequencies ``1 … t₁`` and the first high one ``t₂`` (``> length//2``: none).
    """
    top = length // 2
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        tau = np.exp(2.0 / m * np.log(_FOURIER_EPS / weights))
        a = s * s - delta * delta
        b = s - delta * delta
        disc = b * b - a * (1.0 - tau)
        root = np.sqrt(np.maximum(disc, 0.0))
        x1 = np.where(b + root > 0, (1.0 - tau) / (b + root), np.inf)
        x2 = np.where(a > 0, (b + root) / a, np.inf)
    everywhere = (disc < 0) & (tau < 1)
    # x_t = 2 sin²(πt/L) increases with t: t₁ = last t with x_t < x₁ (one more, to be safe).
    t1 = np.floor(length / np.pi * np.arcsin(np.sqrt(np.clip(x1, 0.0, 2.0) / 2.0))) + 1
    t1 = np.where(tau >= 1, 0, np.where(everywhere | (x1 >= 2.0), top, np.minimum(t1, top))).astype(np.int64)
    t2 = np.ceil(length / np.pi * np.arcsin(np.sqrt(np.clip(x2, 0.0, 2.0) / 2.0))) - 1
    t2 = np.where((tau >= 1) | everywhere | (x2 >= 2.0), top + 1, np.maximum(t2, t1 + 1)).astype(np.int64)
    return t1, t2


def _difference_mixture_pmf(weights: np.ndarray, n_a: np.ndarray, n_b: np.ndarray, n: int, m: int):
    """``Σ_c w_c · P(A − B = d)``, ``(A, B) ~ Multinomial(m; n_a[c]/n, n_b[c]/n)`` (fast route).

    Through the characteristic function of each component,

    ``E[e^{iθ(A−B)}] = z^m``, ``z = 1 − (p_a + p_b)(1 − cos θ) + i (p_a − p_b) sin θ``.

    The components are grouped by where their laws lie (each holds all but
    ~1e-16 of its mass in ``mean ± h``, Bernstein's bound); a group's window
    ``[d₀, d₀ + L)`` is at most 1.25 times the widest component's, and its law is
    ``(1/L) Σ_t ψ_t e^{−iθ_t (d − d₀)}`` with ``ψ_t = Σ_c w_c z_c(θ_t)^m e^{−iθ_t d₀}``
    (one inverse real FFT).  ``|z|^m`` falls like ``exp(−Var·θ²/2)``, so each
    component needs only the few dozen frequencies where ``w·|z|^m`` exceeds
    :data:`_FOURIER_EPS` (:func:`_frequency_counts`), not all ``L/2``.
    ``m·log z`` is formed from ``log1p`` and ``atan2`` (no cancellation near
    ``θ = 0``); the result is accurate to ~m·1e-16 absolutely.

    Returns
    -------
    d : ndarray of int64
        ``d_lo … d_hi``, within ``−m … m``.
    pmf : ndarray
    """
    weights = np.asarray(weights, dtype=float)
    p_a, p_b = n_a / n, n_b / n
    s, delta = p_a + p_b, p_a - p_b
    mean = m * delta
    half = _bernstein(m * s)
    # Each component's window, within its support (A − B >= 0 surely when n_b = 0, etc.).
    lo = np.maximum(np.where(n_b > 0, -m, 0), np.floor(mean - half)).astype(np.int64)
    hi = np.minimum(np.where(n_a > 0, m, 0), np.ceil(mean + half)).astype(np.int64)
    d_lo, d_hi = int(lo.min()), int(hi.max())
    out = np.zeros(d_hi - d_lo + 1)
    # Groups of components whose windows start within a quarter of the widest window of each
    # other: a group's window is at most 1.25 times the widest, and each component needs about
    # 1.4·L/sd frequencies.
    widest = int((hi - lo).max()) + 1
    group = (lo - d_lo) // max(1, widest // 4)
    order = np.argsort(group, kind="stable")
    bounds = np.flatnonzero(np.diff(group[order])) + 1
    for members in np.split(order, bounds):
        d0 = int(lo[members].min())
        span = int(hi[members].max()) - d0 + 1
        length = next_fast_len(span)
        top = length // 2
        theta = 2.0 * np.pi * np.arange(top + 1) / length
        half_chord = 2.0 * np.sin(theta / 2.0) ** 2  # 1 − cos θ without cancellation
        sin_t = np.sin(theta)
        w, sc, dc = weights[members], s[members], delta[members]
        t1, t2 = _frequency_counts(sc, dc, w, m, length)
        n_high = np.maximum(top + 1 - t2, 0)
        psi_re = np.zeros(top + 1)
        psi_im = np.zeros(top + 1)
        psi_re[0] = w.sum()
        count = t1 + n_high
        ends = np.cumsum(count)
        first = 0
        while first < members.size:
            last = max(first + 1, int(np.searchsorted(ends, ends[first] - count[first] + _FOURIER_CHUNK, "right")))
            part = slice(first, last)
            c_low, c_high = t1[part], n_high[part]
            total = int(c_low.sum() + c_high.sum())
            if total:
                comp = np.repeat(np.arange(first, last), c_low + c_high)
                start = np.repeat(np.cumsum(c_low + c_high) - (c_low + c_high), c_low + c_high)
                rank = np.arange(total) - start  # 0 … count − 1 within a component
                low = rank < t1[comp]
                t = np.where(low, rank + 1, t2[comp] + rank - t1[comp])
                x = -sc[comp] * half_chord[t]  # Re z − 1
                im = dc[comp] * sin_t[t]
                with np.errstate(divide="ignore"):  # z = 0 (all mass in cells a, b; θ = π): |z|^m = 0
                    log_mod = 0.5 * np.log1p(x * (2.0 + x) + im * im)  # log|z|
                amp = w[comp] * np.exp(m * log_mod)
                phase = m * np.arctan2(im, 1.0 + x) - theta[t] * d0
                psi_re += np.bincount(t, amp * np.cos(phase), minlength=top + 1)
                psi_im += np.bincount(t, amp * np.sin(phase), minlength=top + 1)
            first = last
        # p(d0 + e) = (1/L) Σ_t ψ_t e^{−iθ_t e}: the inverse real FFT of conj(ψ).
        law = irfft(psi_re - 1j * psi_im, n=length)[:span]
        out[d0 - d_lo: d0 - d_lo + span] += law
    return np.arange(d_lo, d_hi + 1, dtype=np.int64), out


class _PairedData:
    """Sorted and ranked scores of both models, shared by every FPR level."""

    def __init__(self, pos_a, pos_b, neg_a, neg_b, m_pos: int, m_neg: int):
        self.pos_a, self.pos_b = pos_a, pos_b
        self.n_pos, self.n_neg = pos_a.size, neg_a.size
        self.m_pos, self.m_neg = m_pos, m_neg
        self.rank_a, self.rank_b = _stable_rank_desc(neg_a), _stable_rank_desc(neg_b)
        self.s_a_desc, self.s_b_desc = np.sort(neg_a)[::-1], np.sort(neg_b)[::-1]
        self.sorted_pos_a, self.sorted_pos_b = np.sort(pos_a), np.sort(pos_b)
        # rank_b_by_rank_a[i − 1]: model-2 rank of the negative with model-1 rank i.
        self.rank_b_by_rank_a = self.rank_b[np.argsort(self.rank_a)]

    def _series_blocks(self, r: int, k_win: np.ndarray, p_k: np.ndarray, ends_a: np.ndarray, ends_b: np.ndarray):
        """``P(K ∈ block a, J ∈ block b)`` by the series route, or None where it does not apply.

        Blocks are runs of the window ``k_win`` ending at the indices
        ``ends_a`` (rows) and ``ends_b`` (columns).  ``F`` is needed only at the
        blocks' corners: ``P(K ∈ (k₀, k₁], J ∈ (j₀, j₁]) = P(K ∈ (k₀, k₁]) P(J ∈ (j₀, j₁]) + ΔΔG``
        with ``G = F − P(K <= k) P(J <= j)`` from :func:`_joint_cdf_series`
        (the product term from the exact marginal law of ``K``, no cancellation).
        """
        corners_a = np.r_[k_win[0] - 1, k_win[ends_a]].astype(float)
        corners_b = np.r_[k_win[0] - 1, k_win[ends_b]].astype(float)
        overlap = joint_ge_counts(-self.rank_a, -self.rank_b, -corners_a, -corners_b)
        g = _joint_cdf_series(corners_a, corners_b, overlap.astype(float), self.n_neg, self.m_neg, r)
        if g is None:
            return None
        block_a = np.add.reduceat(p_k, np.r_[0, ends_a[:-1] + 1])
        block_b = np.add.reduceat(p_k, np.r_[0, ends_b[:-1] + 1])
        w = np.outer(block_a, block_b) + (g[1:, 1:] - g[:-1, 1:] - g[1:, :-1] + g[:-1, :-1])
        # Where one top set lies inside the other at all four corners of a block, F there is one
        # model's P(N >= r) at both of its ranks and the block's mass is exactly 0 (rounding would
        # leave 1e-16, which shows in the sd when ΔTPR* is otherwise 0, e.g. identical rankings).
        for inside in (overlap == corners_a[:, None], overlap == corners_b[None, :]):
            w[inside[1:, 1:] & inside[:-1, 1:] & inside[1:, :-1] & inside[:-1, :-1]] = 0.0
        return np.clip(w, 0.0, None)  # rounding can leave -1e-17 where the mass is zero

    def level(self, r: int, *, route: str = "auto", joint: bool = True, tick=None) -> dict:
        """Exact law of ``m+·ΔTPR*`` at level ``r`` (any ``1 <= r <= m−``).

        Routes for the joint law of the two thresholds' ranks ``(K, J)``:

        * ``"series"``: the Lancaster series (:func:`_joint_cdf_series`, with
          the sum over the sets' difference where ``ρ`` is near 1), only at
          the corners of the blocks of ranks that give the same pair of cells
          of positives (and the same ΔTPR law), O(blocks²·terms);
        * ``"quadrature"``: the integral over the model-1 order statistic
          (:func:`_joint_threshold_law`), every cell, O(n−^1.5) per row;
        * ``"direct"``: the multinomial formula of the module docstring
          (O(m−²) per pair of ranks), the reference;
        * ``"auto"`` (default): the series, else the quadrature.

        The mixture of ΔTPR laws is summed by :func:`_difference_mixture_pmf`
        (``"direct"``: one exact difference law per component).  The routes
        agree to ~1e-14 (tests).  ``joint=False`` skips the cell-by-cell joint
        law when the series route runs (``"joint"`` is then None).
        """
        check_choice("route", route, ("auto", "series", "quadrature", "direct"))
        n_pos, n_neg, m_pos, m_neg = self.n_pos, self.n_neg, self.m_pos, self.m_neg
        k_win, p_k, _ = order_statistic_law(r, m_neg, n_neg)
        t_a, t_b = self.s_a_desc[k_win - 1], self.s_b_desc[k_win - 1]
        ge_a = n_pos - np.searchsorted(self.sorted_pos_a, t_a, side="left")
        ge_b = n_pos - np.searchsorted(self.sorted_pos_b, t_b, side="left")
        cells = np.arange(k_win.size)
        w = None
        if route in ("auto", "series"):
            # Ranks with the same count of positives above the threshold give the same
            # cells of positives: only the corners of those runs are needed.
            ends_a = cells if joint else np.flatnonzero(np.r_[ge_a[1:] != ge_a[:-1], True])
            ends_b = cells if joint else np.flatnonzero(np.r_[ge_b[1:] != ge_b[:-1], True])
            w = self._series_blocks(r, k_win, p_k, ends_a, ends_b)
            if w is None and route == "series":
                raise ValueError(f"the series route does not reach {_SERIES_EPS:g} at r = {r}")
            if tick is not None:
                tick(0.5)
        if w is None:
            ends_a = ends_b = cells
            if route == "direct":
                grid = np.arange(k_win[0] - 1, k_win[-1] + 1)  # one extra row/column below the window
                overlap = joint_ge_counts(-self.rank_a, -self.rank_b, -grid.astype(float), -grid.astype(float))
                kk, jj = np.meshgrid(grid, grid, indexing="ij")
                big_f = _joint_cdf(kk.ravel(), jj.ravel(), overlap.ravel(), n_neg, m_neg, r).reshape(kk.shape)
                w = big_f[1:, 1:] - big_f[:-1, 1:] - big_f[1:, :-1] + big_f[:-1, :-1]
                w = np.clip(w, 0.0, None)  # rounding can leave -1e-17 where the mass is zero
            else:
                w = _joint_threshold_law(self.rank_b_by_rank_a, n_neg, m_neg, r, k_win, tick=tick)

        both = joint_ge_counts(self.pos_a, self.pos_b, t_a[ends_a], t_b[ends_b])
        full = ends_a.size == k_win.size and ends_b.size == k_win.size
        out = _mixture_of_cells(w, ge_a[ends_a][:, None] - both, ge_b[ends_b][None, :] - both, n_pos, m_pos,
                                direct=route == "direct")
        out["joint"] = (k_win, k_win, w) if full else None
        return out


#: Largest ``m+`` whose law :func:`compare_vertical` keeps on its whole support ``−m+ … m+``; beyond
#: (a table of counts standing for more instances), on the window that holds it.
_FULL_SUPPORT = 10**6


def _mixture_of_cells(w, n_a, n_b, n_pos: int, m_pos: int, *, direct: bool = False, window: bool = False) -> dict:
    """The law of ``m+·ΔTPR*`` from the joint law ``w`` of the blocks of the two thresholds' ranks and the
    positives' paired cells ``n_a``, ``n_b`` of each pair of blocks (arrays of the same shape).

    ``(A, B) ~ Multinomial(m+; n_a/n+, n_b/n+)`` given the blocks: the mixture over them (each distinct
    pair of cells once, its weight summed) by :func:`_difference_mixture_pmf` (``direct``: one
    :func:`rocci.compare.difference_pmf` per component), and the exact moments
    ``E = Σ w·δ``, ``Var = Σ w·[(δ − E)² + (γ − δ²)/m+]`` (``δ = p_a − p_b``, ``γ = p_a + p_b``).
    The law is returned on ``−m+ … m+``, or (``window``) on the window that holds it.
    """
    keep = w > 0
    keys, inverse = np.unique(n_a[keep] * (n_pos + 1) + n_b[keep], return_inverse=True)
    weights = np.bincount(inverse.ravel(), weights=w[keep], minlength=keys.size)
    uniq = np.stack([keys // (n_pos + 1), keys % (n_pos + 1)], axis=1)
    p_a, p_b = uniq[:, 0] / n_pos, uniq[:, 1] / n_pos
    total = weights.sum()
    delta = p_a - p_b
    mean = float(weights @ delta / total)
    between = float(weights @ (delta - mean) ** 2 / total)  # variance of p_a − p_b over (K, J)
    discordant = float(weights @ (p_a + p_b) / total)  # mean of p_a + p_b over (K, J)
    var = float(weights @ ((delta - mean) ** 2 + (p_a + p_b - delta**2) / m_pos) / total)
    if direct:
        d, pmf = np.arange(-m_pos, m_pos + 1), _mixture_difference_pmf(weights, p_a, p_b, m_pos)
    else:
        d_win, pmf_win = _difference_mixture_pmf(weights, uniq[:, 0].astype(float), uniq[:, 1].astype(float),
                                                 n_pos, m_pos)
        pmf_win = np.maximum(pmf_win, 0.0)  # FFT round-off leaves ±1e-17 where the law is 0
        if window:
            d, pmf = d_win, pmf_win
        else:
            d = np.arange(-m_pos, m_pos + 1)
            pmf = np.zeros(d.size)
            pmf[d_win + m_pos] = pmf_win
    return {
        "d": d,
        "pmf": pmf,
        "mean": mean,
        "std": float(np.sqrt(max(var, 0.0))),
        "between": between,
        "discordant": discordant,
        "trunc": max(0.0, 1.0 - float(w.sum())),
    }


def _rank_cdf(k, r: int, m: int, n: int):
    """``P(K <= k) = P(Bin(m, k/n) >= r) = I_{k/n}(r, m − r + 1)`` and ``P(K > k)`` (each from the tail that
    keeps full relative precision), for the rank ``K`` of the r-th largest of ``m`` draws among ``n``."""
    x = np.asarray(k, dtype=float) / n
    cdf = special.betainc(float(r), float(m - r + 1), x)
    surv = 1.0 - cdf
    upper = cdf > 0.5
    surv[upper] = special.betaincc(float(r), float(m - r + 1), x[upper])
    cdf[upper] = 1.0 - surv[upper]
    return cdf, surv


class _TablePairedData:
    """:class:`_PairedData` for a :class:`~rocci.PairedCounts` table, which is never expanded.

    The law of ``ΔTPR*`` depends on the data through three things, all
    available from the table: the negatives' scores at the ranks of each
    model (its margin's cumulative counts, :meth:`rocci.ScoreCounts.neg_at_rank`),
    the number of negatives in the overlap of two top sets, and the
    positives' paired cells at two thresholds (weighted 2-D histograms of
    the pair rows, :func:`rocci.counts.joint_ge_counts`).  Ranks are taken in
    blocks that leave the positives' cells unchanged, as the series route of
    :class:`_PairedData` does; every block boundary inside the window of
    ``K`` is the end of a run of tied negative scores, and the two boundaries
    at the window's ends are moved out to the ends of their runs.  The top
    sets are then sets of scores (``a >= v``), so their overlaps are counts of
    the table, the same whichever order tied negatives would be ranked in;
    the blocks' marginal masses are ``P(K <= k)`` at their ends (incomplete
    beta functions).  The results equal the raw data's up to round-off and
    the mass outside the window (the window here holds at least the raw
    data's: whole runs).  O(rows + window) per level, whatever the number of
    instances.
    """

    def __init__(self, table, m_pos: int, m_neg: int):
        self.table = table
        self.margin_a, self.margin_b = table.model(0), table.model(1)
        p, q = table.n_pos > 0, table.n_neg > 0
        self.pos = (table.score_a[p], table.score_b[p], table.n_pos[p])
        self.neg = (table.score_a[q], table.score_b[q], table.n_neg[q])
        self.n_pos, self.n_neg = self.margin_a.n_pos, self.margin_a.n_neg
        self.m_pos, self.m_neg = m_pos, m_neg
        self._raw = None

    def _expanded(self) -> "_PairedData":
        """The raw route on the table's instances (expanded: only for what has no table route)."""
        if self._raw is None:
            y, a, b = self.table.arrays()
            self._raw = _PairedData(a[y], b[y], a[~y], b[~y], self.m_pos, self.m_neg)
        return self._raw

    def level(self, r: int, *, route: str = "auto", joint: bool = True, tick=None) -> dict:
        """:meth:`_PairedData.level` on the table: the series route by blocks of ranks (``joint=False``,
        ``route="auto"``); the cell-by-cell joint law and the other routes need the instances (the table is
        expanded to them)."""
        if joint or route != "auto":
            return self._expanded().level(r, route=route, joint=joint, tick=tick)
        n_pos, n_neg, m_pos, m_neg = self.n_pos, self.n_neg, self.m_pos, self.m_neg
        k_win, _, _ = order_statistic_law(r, m_neg, n_neg)
        t_a, t_b = self.margin_a.neg_at_rank(k_win), self.margin_b.neg_at_rank(k_win)
        ge_a, ge_b = self.margin_a.n_pos_ge(t_a), self.margin_b.n_pos_ge(t_b)
        # Blocks of ranks with the same positives above the threshold: they end where that count changes
        # (a change of the negatives' score, so at the end of a run of ties) and at the window's end.
        ends_a = np.flatnonzero(np.r_[ge_a[1:] != ge_a[:-1], True])
        ends_b = np.flatnonzero(np.r_[ge_b[1:] != ge_b[:-1], True])
        # Each block's top set is {negatives with score >= v}: v the threshold of its last rank, and below
        # the first block the negatives scoring strictly above the window's first threshold.
        top_a = np.r_[np.nextafter(t_a[0], np.inf), t_a[ends_a]]
        top_b = np.r_[np.nextafter(t_b[0], np.inf), t_b[ends_b]]
        corners_a = self.margin_a.n_neg_ge(top_a).astype(np.int64)
        corners_b = self.margin_b.n_neg_ge(top_b).astype(np.int64)
        overlap = joint_ge_counts(*self.neg[:2], top_a, top_b, self.neg[2])
        g = _joint_cdf_series(corners_a.astype(float), corners_b.astype(float), overlap.astype(float),
                              n_neg, m_neg, r)
        if g is None:  # no known case: the quadrature route, on the instances
            return self._expanded().level(r, route="auto", joint=False, tick=tick)
        if tick is not None:
            tick(0.5)
        block = []
        for corners in (corners_a, corners_b):
            cdf, surv = _rank_cdf(corners, r, m_neg, n_neg)
            block.append(np.where(cdf[:-1] < 0.5, np.diff(cdf), -np.diff(surv)))
        w = np.outer(block[0], block[1]) + (g[1:, 1:] - g[:-1, 1:] - g[1:, :-1] + g[:-1, :-1])
        # One top set inside the other at the four corners of a block: its mass is exactly 0 (as in
        # _PairedData._series_blocks).
        for inside in (overlap == corners_a[:, None], overlap == corners_b[None, :]):
            w[inside[1:, 1:] & inside[:-1, 1:] & inside[1:, :-1] & inside[:-1, :-1]] = 0.0
        w = np.clip(w, 0.0, None)
        both = joint_ge_counts(*self.pos[:2], t_a[ends_a], t_b[ends_b], self.pos[2])
        out = _mixture_of_cells(w, ge_a[ends_a][:, None] - both, ge_b[ends_b][None, :] - both, n_pos, m_pos,
                                window=m_pos > _FULL_SUPPORT)
        out["joint"] = None
        return out


def _score_bounds(mean: float, between: float, discordant: float, n_pos: int, m_pos: int, alpha: float):
    """Score interval for ΔTPR from the exact paired moments (:func:`compare_vertical`, Notes)."""
    z = float(special.ndtri(1.0 - alpha / 2.0))
    k = z * z / m_pos
    gamma = (n_pos * discordant + 2.0) / (n_pos + 4.0)
    spread = between * (1.0 - 1.0 / m_pos) + gamma / m_pos
    half = z * np.sqrt(max(spread * (1.0 + k) - mean * mean / m_pos, 0.0))
    return float(np.clip((mean - half) / (1.0 + k), -1.0, 1.0)), float(np.clip((mean + half) / (1.0 + k), -1.0, 1.0))


def _level_ticker(progress, i: int, levels: int, message: str):
    """``tick(done)`` reporting progress within the ``i``-th of ``levels`` levels."""
    def tick(done: float) -> None:
        progress((i + 0.95 * done) / levels, message)
    return tick


def compare_vertical(y_true, score_a=None, score_b=None, *, fpr, pos_label=None, confidence_level=0.95,
                     m=None, method="score", progress=None) -> VerticalComparison:
    """Exact bootstrap law of the TPR difference at fixed FPR levels (paired design).

    Parameters
    ----------
    y_true : array_like of shape (n,), or PairedCounts
        Labels; or a :class:`~rocci.PairedCounts` (leave the scores out),
        which is never expanded: the law depends on the data only through
        each model's negative scores at given ranks (the margins' cumulative
        counts), the overlaps of the two models' top sets of negatives and the
        positives' paired cells at two thresholds (weighted 2-D histograms of
        the pair rows); the ranks are taken in blocks of whole runs of tied
        scores, so the top sets are sets of scores and no order of tied
        instances is needed (:class:`_TablePairedData`).  The results equal
        the raw data's to round-off (~1e-16), in O(pair rows + window) time
        and memory per level, whatever the number of instances.
    score_a, score_b : array_like of shape (n,)
        Two models' scores of the same instances.
    fpr : array_like
        False positive rates, mapped to levels ``r/m−`` as in :func:`rocci.vertical_ci`.
    pos_label : object, optional
    confidence_level : float, default 0.95
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``.
    method : {"score", "percentile"}
        ``"score"`` (default since 0.2.0, as for :func:`rocci.vertical_ci`): a
        score interval on the exact paired moments (see Notes).
        ``"percentile"``: the quantiles of the exact law.  Where both
        models find (almost) every positive at the level, the law is a point
        mass at 0 and the interval ``[0, 0]`` has zero width and under-covers
        (Coverage lab, thesis figure 4.9; ``docs/coverage.md``); the dashboard
        flags it.  The score interval keeps a positive width there.  In the Coverage
        lab's two-model setting (thesis fig. 4.9: n = 100 per class, 90%
        target, θ ∈ {1, 3, 5}, ρ ∈ {.3, .9}, shifts {0, 2}, 200 test sets each)
        the score interval covered 0.93–1.00 at every FPR from 0.1 to 0.9;
        the percentile interval fell to 0.04–0.55 where both TPRs are near 1
        and the models differ (θ = 5, FPR >= 0.5; θ = 3, FPR 0.9) and
        matched the score interval elsewhere.  Near TPR = 1 the score
        interval is conservative (coverage 1, width about 0.05 at n = 100).
    progress : callable, optional
        ``progress(fraction, message)`` is called as the work advances
        (``fraction`` in [0, 1]), e.g. to drive a progress bar.

    Returns
    -------
    VerticalComparison
        ``delta = a − b``; ``p_a_better = P(ΔTPR* > 0)``, ``p_tie = P(ΔTPR* = 0)``.

    Notes
    -----
    The score interval extends the paired score interval at fixed thresholds
    (thesis eq. 4.8–4.9, :func:`rocci.compare.paired_score_interval`) to
    thresholds drawn with the negatives.  With ``δ_kj = p_a − p_b`` and
    ``γ_kj = p_a + p_b`` the positives' cell shares at the thresholds of ranks
    ``(k, j)``, the exact law gives ``δ̄ = E[δ_KJ]`` (the mean of ΔTPR*), the
    between-threshold variance ``V_b = Var(δ_KJ)`` and ``Var ΔTPR* =
    V_b(1 − 1/m+) + (E[γ_KJ] − δ̄²)/m+``.  The bounds solve

    ``(δ̄ − δ)² = z² [V_b(1 − 1/m+) + (γ̃ − δ²)/m+]``,
    ``δ = [δ̄ ± z √(S(1 + z²/m+) − δ̄²/m+)] / (1 + z²/m+)``,
    ``S = V_b(1 − 1/m+) + γ̃/m+``,

    with ``γ̃ = (n+·E[γ_KJ] + 2)/(n+ + 4)`` smoothed as in eq. 4.9 (so the
    width stays positive where no positive falls in a discordant cell), and
    clipped to [−1, 1].  With ``V_b = 0`` it is eq. 4.8.

    The thesis's direct formula costs O(m−²) for each of the O(m−) pairs of
    ranks ``(k, j)`` of the two thresholds in the window, O(n⁴) in all when
    ``m− = n−``.  Here (module docstring) the joint law of the ranks comes
    from the Lancaster series of the bivariate binomial
    ``(N1_k, N2_j)`` (``N1_k``, ``N2_j``: draws among each model's top ``k``,
    ``j`` negatives; correlation ``ρ`` from their overlap)

    ``P(K <= k, J <= j) = P(N1_k >= r, N2_j >= r) = Σ_ℓ ρ^ℓ a_ℓ(k/n−) a_ℓ(j/n−)``,

    with ``a_ℓ`` from the Krawtchouk recurrence, cut where Bessel's
    inequality bounds the rest by 1e-20.  Pairs with ``ρ`` near 1 (top sets
    that nearly coincide) are summed instead over the few draws in the two
    sets' difference, nested sets in closed form.  ``F`` is evaluated only at
    the corners of the blocks of ranks that leave the positives' paired cells
    unchanged, and the mixture of ΔTPR laws is summed through their
    characteristic functions, each at the few frequencies where it exceeds
    1e-20.  The former default, a quadrature over the model-1 order statistic,
    remains as a fallback.  All routes equal the direct formula to ~1e-13
    (tests), with the probability left outside the windows reported in
    ``truncated_mass`` (below 1e-13).  At n = 10⁴ a level takes 0.02–0.5 s on
    two shared cores, about 50 to 2,000 times one ``numpy.argsort`` of the
    scores
    (``bench/bench_vertical_paired.py``).
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, ("percentile", "score"))
    if isinstance(y_true, PairedCounts):  # a table stays a table (_TablePairedData)
        if score_a is not None or score_b is not None:
            paired_input(y_true, score_a, score_b, pos_label)  # its message
        n_pos, n_neg = int(y_true.n_pos.sum()), int(y_true.n_neg.sum())
        m_pos, m_neg = check_m(m, n_pos, n_neg)
        ctx = _TablePairedData(y_true, m_pos, m_neg)
    else:
        mask, sa, sb, _ = _check_paired(y_true, score_a, score_b, pos_label)
        n_pos, n_neg = int(mask.sum()), int((~mask).sum())
        m_pos, m_neg = check_m(m, n_pos, n_neg)
        ctx = _PairedData(sa[mask], sb[mask], sa[~mask], sb[~mask], m_pos, m_neg)
    r_levels = fpr_levels(fpr, m_neg)
    alpha = 1.0 - level

    keys = ("mean", "std", "low", "high", "better", "tie", "trunc")
    out = {key: np.empty(r_levels.size) for key in keys}
    laws, joints = [], []
    for i, r in enumerate(r_levels):
        tick = None
        if progress is not None:
            message = f"FPR level {i + 1} of {r_levels.size} (r = {int(r)})"
            progress(i / r_levels.size, message)
            tick = _level_ticker(progress, i, r_levels.size, message)
        lv = ctx.level(int(r), joint=False, tick=tick)
        out["trunc"][i], out["mean"][i], out["std"][i] = lv["trunc"], lv["mean"], lv["std"]
        d, pmf = lv["d"], lv["pmf"]
        if method == "percentile":
            cdf = np.cumsum(pmf)
            out["low"][i] = d[np.argmax(cdf >= alpha / 2 - QUANTILE_TOL)] / m_pos
            out["high"][i] = d[np.argmax(cdf >= 1 - alpha / 2 - QUANTILE_TOL)] / m_pos
        else:
            out["low"][i], out["high"][i] = _score_bounds(lv["mean"], lv["between"], lv["discordant"],
                                                          n_pos, m_pos, alpha)
        out["better"][i] = min(1.0, float(pmf[d > 0].sum()))  # round-off can pass 1 by 1e-14
        out["tie"][i] = min(1.0, float(pmf[d == 0].sum()))
        laws.append((d, pmf))
        joints.append(lv["joint"] if lv["joint"] is not None else _LazyJoint(ctx, int(r)))

    if progress is not None:
        progress(1.0, "done")
    return VerticalComparison(
        fpr=r_levels / m_neg,
        r=r_levels,
        delta_tpr_mean=out["mean"],
        delta_tpr_std=out["std"],
        delta_tpr_low=out["low"],
        delta_tpr_high=out["high"],
        p_a_better=out["better"],
        p_tie=out["tie"],
        truncated_mass=out["trunc"],
        n_pos=n_pos,
        n_neg=n_neg,
        m_pos=m_pos,
        m_neg=m_neg,
        confidence_level=level,
        method=method,
        _laws=laws,
        _joint=joints,
    )
