"""Exact probability that the partial sums of a multinomial stay inside bounds.

Under the stratified bootstrap the counts of positives with ``score >= t_k``
at thresholds ``t_1 > … > t_K`` are the partial sums
``S_k = X_1 + … + X_k`` of one multinomial
``(X_1, …, X_K, X_rest) ~ Multinomial(m; q_1, …, q_K, q_rest)``, where ``q_j``
is the fraction of the class's instances scoring in ``[t_j, t_{j−1})``.
This module computes

``P(a_k <= S_k <= b_k for every k)``

exactly (to rounding), in the Poissonised form of Steck's and Noé's
recursions (Moscovich & Nadler 2017, "Fast calculation of boundary crossing
probabilities for Poisson processes"):

* Let ``Y_j ~ Poisson(λ·q_j)``, independent, ``λ = m``.  Given their total
  ``Y_1 + … + Y_K + Y_rest = m``, the ``Y``'s are ``Multinomial(m; q)``.  So

  ``P_mult(event) = P_Pois(event and total = m) / P_Pois(total = m)``,
  ``P_Pois(total = m) = e^{−m} m^m / m!``.

* Under the Poisson law the increments are independent, so with
  ``g_k(s) = P_Pois(a_j <= T_j <= b_j for j <= k, T_k = s)`` (``T`` the
  Poisson partial sums)

  ``g_k(s) = 1{a_k <= s <= b_k} · Σ_d g_{k−1}(s − d) · π(d; m·q_k)``     (1)

  a plain convolution with the Poisson pmf ``π``, truncated to the window
  ``[a_k, b_k]``; and finally

  ``P_mult(event) = Σ_s g_K(s) · π(m − s; m·q_rest) / π(m; m)``.          (2)

Each step costs ``O(w·L)`` for a window of ``w`` counts and a kernel of ``L``
counts (the part of the Poisson pmf that can reach the window), or an FFT
when both are long.  Every term is positive (no cancellation); ``g`` is
renormalised at each step and its logarithmic scale carried, so nothing
underflows.  Where a threshold adds no instance of the class (``q_k = 0``)
the step only intersects the window.

The Poisson pmf is evaluated by Loader's saddle-point form (Loader 2000,
"Fast and accurate computation of binomial probabilities"),
``π(d; μ) = exp(−stirlerr(d) − bd0(d, μ)) / sqrt(2πd)``, accurate to a few
ulps in relative terms for every ``d`` and ``μ`` up to 10⁷ and beyond
(``exp(d·log μ − μ − lgamma(d + 1))`` loses ~``d·log(μ)·ε``).
"""

from __future__ import annotations

import numpy as np
from scipy import signal, special

__all__ = ["poisson_pmf", "partial_sum_probability", "PartialSums"]

#: Poisson tail left out of a step's kernel (per side).  With K steps the
#: probability lost is below 2·K·this, far below rounding.
KERNEL_TAIL = 1e-30

#: Above this product of window and kernel lengths a step uses an FFT.
_FFT_WORK = 60_000

_HALF_LOG_2PI = 0.5 * np.log(2 * np.pi)
# stirlerr(n) = log(n!) − log(sqrt(2πn)·(n/e)^n) for n = 0..15 (Loader's table values,
# recomputed here from lgamma, exact to double precision at these small n).
_SMALL = np.arange(16, dtype=float)
with np.errstate(divide="ignore", invalid="ignore"):
    _STIRLERR_SMALL = special.gammaln(_SMALL + 1) - (_SMALL + 0.5) * np.log(_SMALL) + _SMALL - _HALF_LOG_2PI
_STIRLERR_SMALL[0] = 0.0


def _stirlerr(n: np.ndarray) -> np.ndarray:
    """``log(n!) − log(sqrt(2πn)·(n/e)^n)`` for integers ``n >= 1``."""
    out = np.empty(n.shape)
    small = n <= 15
    out[small] = _STIRLERR_SMALL[n[small].astype(np.int64)]
    big = n[~small]
    inv = 1.0 / big
    inv2 = inv * inv
    out[~small] = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))))
    return out


def _bd0(x: np.ndarray, mu: float) -> np.ndarray:
    """``x·log(x/μ) + μ − x`` without cancellation (Loader's deviance term).

    With ``v = (x − μ)/(x + μ)``: ``bd0 = (x − μ)·v + 2x·Σ_{j>=1} v^(2j+1)/(2j + 1)``, used where
    ``|v| < 0.5`` (30 terms reach 1e-19); elsewhere the terms do not cancel.
    """
    out = np.empty(x.shape)
    v = (x - mu) / (x + mu)
    near = np.abs(v) < 0.5
    xn, vn = x[near], v[near]
    v2 = vn * vn
    acc = np.zeros(vn.shape)
    power = vn * v2
    for j in range(1, 31):
        acc += power / (2 * j + 1)
        power = power * v2
    out[near] = (xn - mu) * vn + 2 * xn * acc
    far = ~near
    xf = x[far]
    with np.errstate(divide="ignore", invalid="ignore"):
        out[far] = np.where(xf > 0, xf * np.log(xf / mu), 0.0) + mu - xf
    return out


def poisson_pmf(d, mu: float) -> np.ndarray:
    """Poisson pmf ``π(d; μ) = e^{−μ} μ^d / d!`` to a few ulps (Loader's saddle-point form).

    Parameters
    ----------
    d : array_like of int
        Counts (negative counts give 0).
    mu : float
        Mean, ``>= 0``.
    """
    d = np.asarray(d, dtype=float)
    out = np.zeros(d.shape)
    if mu <= 0:
        out[d == 0] = 1.0
        return out
    zero = d == 0
    out[zero] = np.exp(-mu)
    pos = d > 0
    x = d[pos]
    out[pos] = np.exp(-_stirlerr(x) - _bd0(x, mu) - _HALF_LOG_2PI) / np.sqrt(x)
    return out


def _kernel(mu: float) -> tuple[int, np.ndarray]:
    """``(lo, π(lo..hi; μ))``: the Poisson pmf with each tail beyond it below :data:`KERNEL_TAIL`.

    The pmf is evaluated on a generous range (``μ ± (sqrt(2·70·μ) + 70)``, 70 ≈ −log 1e-30,
    a Chernoff margin) and trimmed where it falls below ``KERNEL_TAIL/(1 + sqrt(μ))``; past the
    mode the terms decrease at least geometrically over ``sqrt(μ)`` counts, so each trimmed tail
    sums to less than ``KERNEL_TAIL``.
    """
    spread = np.sqrt(2 * 70 * mu) + 70
    lo, hi = int(max(0, np.floor(mu - spread))), int(np.ceil(mu + spread + 70))
    pmf = poisson_pmf(np.arange(lo, hi + 1), mu)
    keep = np.flatnonzero(pmf >= KERNEL_TAIL / (1 + np.sqrt(mu)))
    return lo + int(keep[0]), pmf[keep[0]:keep[-1] + 1]


class PartialSums:
    """The Poissonised recursion (1)–(2) for one class, with its kernels prepared once.

    Parameters
    ----------
    q : array_like of float, shape (K,)
        Cell probabilities ``q_1, …, q_K`` (``>= 0``, summing to at most 1;
        ``q_rest = 1 − Σ q``).
    m : int
        Number of draws.

    Notes
    -----
    The kernels depend on ``q`` and ``m`` only, so a calibration that
    evaluates many sets of bounds for the same data pays for them once.
    Equal means share one kernel (e.g. every cell holding one instance).
    """

    def __init__(self, q, m: int):
        q = np.asarray(q, dtype=float)
        self.m = int(m)
        self.q = q
        self.rest = float(max(0.0, 1.0 - q.sum()))
        if self.rest < 1e-13:  # rounding of a sum that is 1
            self.rest = 0.0
        self._kernels: dict[float, tuple[int, np.ndarray]] = {}
        self.mu = self.m * q
        for mu in np.unique(self.mu[self.mu > 0]):
            self._kernels[float(mu)] = _kernel(float(mu))
        self._step_kernels = [None if mu <= 0 else self._kernels[float(mu)] for mu in self.mu]
        self._step_kernels = [None if k is None else (k[0], k[1], k[0] + k[1].size - 1) for k in self._step_kernels]
        self._log_norm = float(np.log(poisson_pmf(np.array([self.m]), float(self.m))[0]))

    def probability(self, lower, upper) -> float:
        """``P(lower_k <= S_k <= upper_k for every k)`` (integers; ``lower > upper`` gives 0)."""
        lower = np.asarray(lower, dtype=np.int64).tolist()
        upper = np.asarray(upper, dtype=np.int64).tolist()
        m = self.m
        g = np.ones(1)
        start = 0  # g[i] is the (scaled) probability of S = start + i
        log_scale = 0.0
        convolve = np.convolve
        fft = signal.fftconvolve
        for k, kernel in enumerate(self._step_kernels):
            a = lower[k] if lower[k] > 0 else 0
            b = upper[k] if upper[k] < m else m
            end = start + g.size - 1
            if kernel is not None:
                klo, ker, khi = kernel
                # Increments d that can carry [start, end] into [a, b], within the kernel's support.
                dlo = a - end if a - end > klo else klo
                dhi = b - start if b - start < khi else khi
                if dlo > dhi:
                    return 0.0
                piece = ker[dlo - klo:dhi - klo + 1]
                if g.size * piece.size > _FFT_WORK and g.size > 64 and piece.size > 64:
                    g = fft(g, piece)
                    np.maximum(g, 0.0, out=g)
                else:
                    g = convolve(g, piece)
                start += dlo
                end = start + g.size - 1
            lo = a if a > start else start
            hi = b if b < end else end
            if lo > hi:
                return 0.0
            g = g[lo - start:hi - start + 1]
            start = lo
            if k % 16 == 15:
                total = g.sum()
                if total <= 0.0:
                    return 0.0
                if total < 1e-100 or total > 1e100:
                    g = g / total
                    log_scale += np.log(total)
        # (2): the rest cell takes the remaining m − s draws.
        s = np.arange(start, start + g.size)
        tail = poisson_pmf(m - s, m * self.rest)
        value = float(g @ tail)
        if value <= 0.0:
            return 0.0
        return float(np.exp(np.log(value) + log_scale - self._log_norm))


def partial_sum_probability(q, lower, upper, m: int) -> float:
    """``P(lower_k <= X_1 + … + X_k <= upper_k, k = 1..K)`` for ``X ~ Multinomial(m; q_1..q_K, q_rest)``.

    The Poissonised Steck/Noé recursion of :class:`PartialSums` (module
    docstring, equations (1)–(2)); exact up to rounding.

    Parameters
    ----------
    q : array_like of float, shape (K,)
        Cell probabilities, ``q_rest = 1 − Σ q``.
    lower, upper : array_like of int, shape (K,)
        Bounds on each partial sum (inclusive).
    m : int
        Number of draws.

    Examples
    --------
    >>> round(partial_sum_probability([0.5], [0], [1], 2), 12)  # P(Bin(2, ½) <= 1)
    0.75
    """
    return PartialSums(q, m).probability(lower, upper)
