"""Exact bootstrap laws of ``V = a·X − b·Y``: one model's net benefit at one threshold probability.

Rows of the law: ``X = x`` with probability ``c_x``; given the row, ``Y ~ Bin(T_x, q)``.

* full bootstrap (rows drawn from the pooled data): ``X = TP* ~ Bin(m, tp/n)``, ``Y = FP* | TP* = x ~
  Bin(m − x, fp/(n − tp))``, ``a = 1/m``, ``b = odds/m``;
* stratified (each class drawn apart, prevalence fixed): ``X = TP* ~ Bin(m+, tp/n+)``, ``Y = FP* ~
  Bin(m−, fp/n−)`` independent, ``a = π+/m+``, ``b = π−·odds/m−``, ``π± = n±/n``.

``P(V <= v) = Σ_x c_x·P(Y >= ⌈(a·x − v)/b⌉ | x)``: one binomial survival function per row, over a window of
``X`` that leaves out less than 1e-20 (10 standard deviations and 20 counts each side).
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .._core.exact import QUANTILE_TOL
from ._common import TIE_TOL  # values of the law closer than this count as equal, as in the cost laws
from .lattice import _WINDOW_PAD, _WINDOW_SD
from .lattice import _window as _binomial_window


def _window(n: int, p: float) -> np.ndarray:
    """The counts ``x`` of ``Bin(n, p)`` worth keeping: the cost laws' window (10 sd and 20 counts each side)."""
    lo, hi = _binomial_window(n, p)
    return np.arange(int(lo), int(hi) + 1, dtype=np.int64)


class NetBenefitLaw:
    """The exact law of ``V = a·X − b·Y`` (module docstring) at one threshold probability."""

    def __init__(self, x: np.ndarray, c: np.ndarray, trials: np.ndarray, q: float, a: float, b: float):
        keep = c > 1e-300
        self.x, self.c, self.trials = x[keep], c[keep], trials[keep]
        self.q, self.a, self.b = float(q), float(a), float(b)
        # Y's window given each row: P(Y >= y) is 1 for y <= _y_low and 0 for y > _y_high (to 1e-22).
        half = _WINDOW_SD * np.sqrt(self.trials * self.q * (1 - self.q)) + _WINDOW_PAD
        self._y_low = np.maximum(np.floor(self.trials * self.q - half), 0)
        self._y_high = np.minimum(np.ceil(self.trials * self.q + half), self.trials)
        # One law of Y for every row (the stratified bootstrap): its tail P(Y >= y) tabulated once on the window.
        self._tail_table = None
        if 0 < self.q < 1 and self.trials.size and np.all(self.trials == self.trials[0]):
            lo, hi = int(self._y_low[0]), int(self._y_high[0])
            ys = np.arange(lo + 1, hi + 1)
            self._tail_table = (lo, special.bdtrc(ys - 1, int(self.trials[0]), self.q))  # y = lo+1 … hi

    @classmethod
    def full(cls, tp: int, fp: int, n: int, m: int, odds: float) -> "NetBenefitLaw":
        x = _window(m, tp / n)
        c = stats.binom.pmf(x, m, tp / n)
        q = fp / (n - tp) if n > tp else 0.0
        return cls(x, c, m - x, q, 1.0 / m, odds / m)

    @classmethod
    def stratified(cls, tp: int, fp: int, n_pos: int, n_neg: int, m_pos: int, m_neg: int,
                   odds: float) -> "NetBenefitLaw":
        n = n_pos + n_neg
        x = _window(m_pos, tp / n_pos)
        c = stats.binom.pmf(x, m_pos, tp / n_pos)
        return cls(x, c, np.full(x.size, m_neg), fp / n_neg, (n_pos / n) / m_pos, (n_neg / n) * odds / m_neg)

    # -- moments ----------------------------------------------------------------------------------------
    def mean_var(self) -> tuple[float, float]:
        """``E[V]`` and ``Var[V]`` by the law of total variance over the rows (exact within the windows)."""
        ey = self.trials * self.q
        vy = self.trials * self.q * (1 - self.q)
        cond_mean = self.a * self.x - self.b * ey
        mean = float(self.c @ cond_mean)
        var = float(self.c @ (self.b**2 * vy + cond_mean**2)) - mean**2
        return mean, max(var, 0.0)

    # -- distribution -----------------------------------------------------------------------------------
    def _y_at_least(self, v: np.ndarray) -> np.ndarray:
        """Per value ``v`` (rows of the result) and row ``x``: the smallest ``y`` with ``a·x − b·y <= v``."""
        t = self.a * self.x[None, :] - v[:, None]
        if self.b <= 0:
            return np.where(t <= TIE_TOL, 0, np.iinfo(np.int64).max // 4)
        return np.maximum(np.ceil((t - TIE_TOL) / self.b), 0).astype(np.int64)

    def cdf(self, v) -> np.ndarray:
        """``P(V <= v)`` for an array of values (ties within :data:`TIE_TOL`)."""
        v = np.atleast_1d(np.asarray(v, dtype=np.float64))
        y = self._y_at_least(v)
        if 0 < self.q < 1:
            # P(Y >= y) = bdtrc(y − 1, T, q) (SciPy's binomial survival function without its argument checks),
            # computed only where it is neither 0 nor 1 to 1e-22: within the window of Y given the row.
            tail = np.where(y <= self._y_low[None, :], 1.0, 0.0)
            open_ = (y > self._y_low[None, :]) & (y <= self._y_high[None, :])
            if open_.any():
                if self._tail_table is not None:
                    lo, table = self._tail_table
                    tail[open_] = table[y[open_] - lo - 1]
                else:
                    trials = np.broadcast_to(self.trials[None, :], y.shape)
                    tail[open_] = special.bdtrc((y[open_] - 1).astype(np.float64), trials[open_], self.q)
        else:  # Y is T·q for sure
            tail = (self.trials[None, :] * self.q >= y).astype(np.float64)
        return np.minimum(tail @ self.c, 1.0)

    def _largest_atom_at_most(self, v: float) -> float:
        """The largest value of positive probability that is ``<= v`` (within the tie tolerance)."""
        if self.q <= 0:
            vals = self.a * self.x  # Y = 0 always
        elif self.q >= 1:
            vals = self.a * self.x - self.b * self.trials  # Y = T_x always
        else:
            y = self._y_at_least(np.array([v]))[0]
            vals = np.where(y <= self.trials, self.a * self.x - self.b * np.minimum(y, self.trials), -np.inf)
        vals = np.where(vals <= v + TIE_TOL, vals, -np.inf)
        return float(vals.max())

    def quantiles(self, qs) -> np.ndarray:
        """Smallest value ``v`` of the law with ``P(V <= v) >= q`` (within :data:`QUANTILE_TOL`), per ``q``.

        The normal approximation's quantile, corrected by one Newton step on the exact CDF, opens a
        bracket ``P(V <= lo) < q <= P(V <= hi)`` of a few hundredths of a standard deviation (widened
        until it holds); regula falsi with the Illinois correction on the exact CDF narrows it until no
        value of the law lies between ``lo`` and the largest value ``<= hi``, which is the answer.
        """
        qs = np.atleast_1d(np.asarray(qs, dtype=np.float64))
        mean, var = self.mean_var()
        sd = max(np.sqrt(var), TIE_TOL)
        vmin = self.a * self.x.min() - self.b * self.trials.max() - TIE_TOL
        vmax = self.a * self.x.max() + TIE_TOL
        out = np.empty(qs.size)
        for k, q in enumerate(qs):
            target = q - QUANTILE_TOL
            z = float(stats.norm.ppf(min(max(q, 1e-15), 1 - 1e-15)))
            guess = mean + z * sd
            f_guess = self.cdf([guess])[0] - target
            density = float(stats.norm.pdf(z)) / sd
            if density > 0 and abs(z) < 8:
                guess = min(max(guess - f_guess / density, vmin), vmax)  # one Newton step on the exact CDF
            width = 0.02 * sd
            lo, hi = max(guess - width, vmin), min(guess + width, vmax)
            f_lo, f_hi = self.cdf([lo, hi]) - target
            while f_lo >= 0 and lo > vmin:
                width *= 4
                lo = max(lo - width, vmin)
                f_lo = self.cdf([lo])[0] - target
            while f_hi < 0 and hi < vmax:
                width *= 4
                hi = min(hi + width, vmax)
                f_hi = self.cdf([hi])[0] - target
            last = None
            for _ in range(400):
                # F is constant from the largest value u <= hi up to hi: if no value of the law lies in
                # (lo, u), u is the answer.
                hi = self._largest_atom_at_most(hi)
                if hi - lo <= TIE_TOL / 2 or self._largest_atom_at_most(hi - 2 * TIE_TOL) <= lo + TIE_TOL:
                    break
                mid = hi - f_hi * (hi - lo) / (f_hi - f_lo) if f_hi > f_lo else (lo + hi) / 2
                if not lo < mid < hi or min(mid - lo, hi - mid) < (hi - lo) * 1e-4:
                    mid = (lo + hi) / 2
                f_mid = self.cdf([mid])[0] - target
                if f_mid >= 0:
                    hi, f_hi = mid, f_mid
                    if last == "hi":
                        f_lo /= 2  # Illinois: the end that stayed put counts half
                    last = "hi"
                else:
                    lo, f_lo = mid, f_mid
                    if last == "lo":
                        f_hi /= 2
                    last = "lo"
            out[k] = hi
        return out

    def support(self) -> tuple[np.ndarray, np.ndarray]:
        """Every value of the law (merged within the tie tolerance) with its probability."""
        y_max = int(self.trials.max())
        lo, hi = 0, y_max
        if 0 < self.q < 1:
            half = _WINDOW_SD * np.sqrt(y_max * self.q * (1 - self.q)) + _WINDOW_PAD
            lo, hi = max(0, int(np.floor(self.q * self.trials.min() - half))), min(y_max, int(np.ceil(y_max * self.q + half)))
        elif self.q <= 0:
            hi = 0
        else:
            lo = int(self.trials.min())
        y = np.arange(lo, hi + 1)
        probs = self.c[:, None] * stats.binom.pmf(y[None, :], self.trials[:, None], self.q)
        values = self.a * self.x[:, None] - self.b * y[None, :]
        keep = probs > 0
        values, probs = values[keep], probs[keep]
        order = np.argsort(values, kind="stable")
        values, probs = values[order], probs[order]
        start = np.flatnonzero(np.concatenate([[True], np.diff(values) > TIE_TOL]))
        return values[start], np.add.reduceat(probs, start)
