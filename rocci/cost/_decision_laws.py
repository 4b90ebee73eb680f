"""Exact bootstrap laws of ``V = a·X − b·Y``: one model's net benefit at one threshold probability.

Rows of the law: ``X = x`` with probability ``c_x``; given the row, ``Y ~ Bin(T_x, q)``.

* full bootstrap (rows drawn from the pooled data): ``X = TP* ~ Bin(m, tp/n)``, ``Y = FP* | TP* = x ~
  Bin(m − x, fp/(n − tp))``, ``a = 1/m``, ``b = odds/m``;
* stratified (each class drawn apart, prevalence fixed): ``X = TP* ~ Bin(m+, tp/n+)``, ``Y = FP* ~
  Bin(m−, fp/n−)`` independent, ``a = π+/m+``, ``b = π−·odds/m−``, ``π± = n±/n``.

``P(V <= v) = Σ_x c_x·P(Y >= ⌈(a·x − v)/b⌉ | x)``: one binomial survival function per row, over a window of
``X`` that leaves out less than 1e-20 (10 standard deviations and 20 counts each side).

The quantiles (:meth:`NetBenefitLaw.quantiles`) read the same law by rows of ``X`` or, when that
computes fewer tails, by rows of ``Y`` (:mod:`rocci.cost._decision_quantiles`): one exact CDF at the
Cornish–Fisher guesses, then the atoms between the guess and the answer.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from ._common import TIE_TOL  # values of the law closer than this count as equal, as in the cost laws
from ._decision_quantiles import Reading, draw_cumulants, law_quantiles
from .lattice import _WINDOW_PAD, _WINDOW_SD


class NetBenefitLaw:
    """The exact law of ``V = a·X − b·Y`` (module docstring) at one threshold probability.

    Built from its two readings by rows (``X`` then ``Y``, :class:`~rocci.cost._decision_quantiles.Reading`)
    and its exact cumulants ``κ1 … κ4``; the rows of ``X``, their probabilities ``c_x`` (above 1e-300) and
    trials ``T_x`` are the first reading's.
    """

    def __init__(self, readings: tuple[Reading, Reading], kappa: np.ndarray):
        rows = readings[0].weigh()
        self.x, self.c, self.trials = rows.r, rows.c, rows.T
        self.q, self.a, self.b = rows.q, float(rows.a), float(rows.b)
        self._readings, self._kappa = readings, kappa
        # Y's window given each row: P(Y >= y) is 1 for y <= _y_low and 0 for y > _y_high (to 1e-22).
        half = _WINDOW_SD * np.sqrt(self.trials * self.q * (1 - self.q)) + _WINDOW_PAD
        self._y_low = np.maximum(np.floor(self.trials * self.q - half), 0)
        self._y_high = np.minimum(np.ceil(self.trials * self.q + half), self.trials)
        self._table = None

    @property
    def _tail_table(self):
        """One law of Y for every row (the stratified bootstrap): its tail ``P(Y >= y)`` tabulated on the
        window at the first :meth:`cdf`, or None."""
        if self._table is None and 0 < self.q < 1 and self.trials.size and np.all(self.trials == self.trials[0]):
            lo, hi = int(self._y_low[0]), int(self._y_high[0])
            ys = np.arange(lo + 1, hi + 1)
            self._table = (lo, special.bdtrc(ys - 1, int(self.trials[0]), self.q))  # y = lo+1 … hi
        return self._table

    @classmethod
    def full(cls, tp: int, fp: int, n: int, m: int, odds: float) -> "NetBenefitLaw":
        """``TP* ~ Bin(m, tp/n)``, ``FP* | TP* = x ~ Bin(m − x, fp/(n − tp))`` (or ``FP*`` first), ``a = 1/m``,
        ``b = odds/m``; cumulants of ``m`` draws, each ``a`` (a flagged positive, ``tp/n``), ``−b`` (a flagged
        negative, ``fp/n``) or 0."""
        a, b = 1.0 / m, odds / m
        readings = (Reading(m, tp / n, m, 1, fp / (n - tp) if n > tp else 0.0, False, a, b),
                    Reading(m, fp / n, m, 1, tp / (n - fp) if n > fp else 0.0, True, a, b))
        return cls(readings, draw_cumulants([(m, [a, -b], [tp / n, fp / n])]))

    @classmethod
    def stratified(cls, tp: int, fp: int, n_pos: int, n_neg: int, m_pos: int, m_neg: int,
                   odds: float) -> "NetBenefitLaw":
        """``TP* ~ Bin(m+, tp/n+)`` and ``FP* ~ Bin(m−, fp/n−)`` independent; ``a = π+/m+``,
        ``b = π−·odds/m−``."""
        n = n_pos + n_neg
        a, b = (n_pos / n) / m_pos, (n_neg / n) * odds / m_neg
        readings = (Reading(m_pos, tp / n_pos, m_neg, 0, fp / n_neg, False, a, b),
                    Reading(m_neg, fp / n_neg, m_pos, 0, tp / n_pos, True, a, b))
        return cls(readings, draw_cumulants([(m_pos, [a], [tp / n_pos]), (m_neg, [-b], [fp / n_neg])]))

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

    def quantiles(self, qs) -> np.ndarray:
        """Smallest value ``v`` of the law with ``P(V <= v) >= q`` (within
        :data:`~rocci._core.exact.QUANTILE_TOL`), per ``q``.

        One exact CDF at the Cornish–Fisher guesses (both levels at once), read by whichever of the two
        readings computes fewer binomial tails there, then the atoms between each guess and its answer with
        their probabilities: ``F(u) = F(g) ± Σ c_r·b(C; T_r, q)`` over the atoms between ``g`` and ``u``
        (:func:`~rocci.cost._decision_quantiles.law_quantiles`). Exact: every ``F`` is a sum of binomial
        terms of the law, none approximated; the guess only decides where to look.
        """
        return law_quantiles(list(self._readings), self._kappa, qs)[0]

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
