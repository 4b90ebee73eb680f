"""Quantiles of the net-benefit law ``V = a·X − b·Y`` (:mod:`rocci.cost._decision_laws`) from one tail pass.

The law is read row by row: rows ``R ~ Bin(M, ρ)`` with weights ``c_r``, and given the row a binomial
``C ~ Bin(T_r, q)``; ``(X, Y) = (R, C)`` (``V = a·r − b·C``) or, swapped, ``(X, Y) = (C, R)``
(``V = a·C − b·r``). The full bootstrap reads its multinomial ``(TP*, FP*)`` either way:
``TP* ~ Bin(m, tp/n)``, ``FP* | TP* = x ~ Bin(m − x, fp/(n − tp))``, or ``FP* ~ Bin(m, fp/n)``,
``TP* | FP* = y ~ Bin(m − y, tp/(n − fp))``; the stratified bootstrap's ``TP*``, ``FP*`` are independent.

With the tie tolerance ``τ`` (values closer than ``τ`` are one value),

``F(v) = P(V <= v) = Σ_r c_r·P(C >= ⌈(a·r − v − τ)/b⌉)``  or, swapped,  ``Σ_r c_r·P(C <= ⌊(v + τ + b·r)/a⌋)``,

one Boost incomplete beta per row whose cut falls inside the row's window of ``C`` (10 sd and 20 counts
each side; outside, the tail is 0 or 1 to 1e-22). Between two values ``lo < hi`` the law's atoms are
finitely many, ``(r, C)`` with ``C`` between the two cuts of row ``r``, and

``F(u) = F(lo) + Σ_{atoms w of (lo, hi], w <= u + τ} c_r·b(C; T_r, q)``   for every atom ``u`` of ``(lo, hi]``,

with ``b`` the binomial pmf. So one exact ``F`` at a guess and the pmfs of the atoms between the guess and
the answer give the answer: the smallest atom ``u`` with ``F(u) >= q − QUANTILE_TOL``. The guess is the
Cornish–Fisher quantile from the law's exact first four cumulants (those of a sum of independent draws);
a Newton step from it, with the local density, sets how far to enumerate. Where too many atoms lie between
(a poor guess), a further exact ``F`` narrows the bracket first (Newton or regula falsi steps).

Why this is still exact: every ``F`` used is a sum of terms of the law itself, ``c_r`` times a binomial
tail or pmf, none approximated; the guess and the density only decide where to look. The tails are Boost's
incomplete beta (``scipy.special._ufuncs._binom_sf``, as in :mod:`rocci._core.exact`), within ~2e-14 of the
sum of the tail's pmf terms at ``T ≈ 10^6`` (SciPy's cephes ``bdtrc`` is off by up to ~1e-9 there); the
pmfs are Boost's too, relative error ~1e-15. The atoms left out (outside the windows of ``R`` and ``C``)
weigh less than 1e-20 in all, far below ``QUANTILE_TOL = 1e-12``. At 10⁶ rows and 99 thresholds one
exact ``F`` (both levels at once) and a few hundred atoms settle each threshold.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .._core.exact import QUANTILE_TOL, _boost_binom_cdf, _boost_binom_pmf, _boost_binom_sf
from ._common import TIE_TOL
from .lattice import _WINDOW_PAD, _WINDOW_SD
from .lattice import _window as _binomial_window

#: Atoms enumerated at once, per row of the law (and at least ``_ENUM_MIN``): beyond that, one more exact
#: CDF (an incomplete beta per open row, ~0.2–3 µs each) costs less than the pmfs (~0.08 µs) and the sort.
#: (Measured at 10⁴–10⁶ rows: a floor of 20,000 instead of 2,000 enumerates 2–20 times more atoms for the
#: same number of exact CDFs, 1.7 times slower at 10⁴ rows, the same at 10⁶.)
_ENUM_PER_ROW = 8
_ENUM_MIN = 2_000


def draw_cumulants(groups) -> np.ndarray:
    """``κ1 … κ4`` of a sum of independent draws: ``groups`` lists ``(count, values, probs)``, ``count``
    draws each equal to ``values[i]`` with probability ``probs[i]`` and 0 otherwise.

    From a draw's raw moments ``μ_j = Σ_i p_i·v_i^j``: ``κ1 = μ1``, ``κ2 = μ2 − μ1²``,
    ``κ3 = μ3 − 3μ2μ1 + 2μ1³``, ``κ4 = μ4 − 4μ3μ1 − 3μ2² + 12μ2μ1² − 6μ1⁴``; cumulants add over draws.
    """
    kappa = np.zeros(4)
    for count, values, probs in groups:
        v, p = np.asarray(values, dtype=np.float64), np.asarray(probs, dtype=np.float64)
        m1, m2, m3, m4 = (float(p @ v**j) for j in (1, 2, 3, 4))
        kappa += count * np.array([m1, m2 - m1**2, m3 - 3 * m2 * m1 + 2 * m1**3,
                                   m4 - 4 * m3 * m1 - 3 * m2**2 + 12 * m2 * m1**2 - 6 * m1**4])
    return kappa


def cornish_fisher(qs: np.ndarray, kappa: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cornish–Fisher quantiles ``κ1 + σ·w(z)`` and the density there, ``φ(z)/(σ·w'(z))``.

    ``w = z + (z² − 1)γ1/6 + (z³ − 3z)γ2/24 − (2z³ − 5z)γ1²/36`` with ``z = Φ⁻¹(q)``, ``σ² = κ2``,
    ``γ1 = κ3/σ³``, ``γ2 = κ4/σ⁴``; ``w'`` is held above 0.2 (a guess, not the answer).
    """
    sd = np.sqrt(kappa[1])
    g1, g2 = kappa[2] / sd**3, kappa[3] / sd**4
    z = special.ndtri(np.clip(qs, 1e-15, 1 - 1e-15))
    w = z + (z * z - 1) * g1 / 6 + (z**3 - 3 * z) * g2 / 24 - (2 * z**3 - 5 * z) * g1**2 / 36
    dw = 1 + z * g1 / 3 + (3 * z * z - 3) * g2 / 24 - (6 * z * z - 5) * g1**2 / 36
    dens = np.exp(-z * z / 2) / np.sqrt(2 * np.pi) / (sd * np.maximum(dw, 0.2))
    return kappa[0] + sd * w, dens


class Reading:
    """One reading of the law by rows (module docstring): rows ``r ~ Bin(M, ρ)`` on their window, given the
    row ``C ~ Bin(T0 − dep·r, q)``; ``swap`` says ``C`` is ``X`` (``V = a·C − b·r``), else ``Y``."""

    def __init__(self, M: int, rho: float, T0: int, dep: int, q: float, swap: bool, a: float, b: float):
        lo, hi = _binomial_window(M, rho)
        self.r = np.arange(int(lo), int(hi) + 1, dtype=np.int64)
        self.M, self.rho, self.q, self.swap, self.a, self.b = int(M), float(rho), float(q), bool(swap), a, b
        self.T = int(T0) - int(dep) * self.r
        self._set_windows()
        self.c = None

    def _set_windows(self) -> None:
        if 0 < self.q < 1:  # the cost laws' window of C given the row: outside, P(C >= y) is 0 or 1 to 1e-22
            half = _WINDOW_SD * np.sqrt(self.T * self.q * (1 - self.q)) + _WINDOW_PAD
            self.w_lo = np.maximum(np.floor(self.T * self.q - half), 0).astype(np.int64)
            self.w_hi = np.minimum(np.ceil(self.T * self.q + half), self.T).astype(np.int64)
        else:  # C is 0 or T for sure
            self.w_lo = self.w_hi = np.zeros_like(self.T) if self.q <= 0 else self.T.copy()

    def weigh(self) -> Reading:
        """Attach the rows' probabilities ``c_r = b(r; M, ρ)`` (rows below 1e-300 dropped, as in the law)."""
        if self.c is None:
            c = _boost_binom_pmf(self.r.astype(np.float64), float(self.M), self.rho)
            keep = c > 1e-300
            self.r, self.T, self.w_lo, self.w_hi, self.c = (self.r[keep], self.T[keep], self.w_lo[keep],
                                                              self.w_hi[keep], c[keep])
        return self

    # -- cuts: per value v (rows of the result) and row r, which C are counted in F(v) ------------------
    def _cut(self, v: np.ndarray) -> np.ndarray:
        """Not swapped: the smallest counted ``C``, ``⌈(a·r − v − τ)/b⌉`` (``C`` at or above it counts);
        swapped: the largest, ``⌊(v + τ + b·r)/a⌋`` (``C`` at or below it counts)."""
        v = np.asarray(v, dtype=np.float64).reshape(-1, 1)
        if self.swap:
            return np.floor((v + TIE_TOL + self.b * self.r[None, :]) / self.a).astype(np.int64)
        return np.maximum(np.ceil((self.a * self.r[None, :] - v - TIE_TOL) / self.b), 0).astype(np.int64)

    def open_rows(self, v) -> int:
        """How many rows' tails an exact ``F(v)`` computes (summed over the values ``v``)."""
        k = self._cut(v)
        if self.swap:
            return int(np.count_nonzero((k >= self.w_lo) & (k < self.w_hi)))
        return int(np.count_nonzero((k > self.w_lo) & (k <= self.w_hi)))

    def cdf(self, v) -> np.ndarray:
        """``F(v)`` for an array of values: one Boost binomial tail per open row (module docstring)."""
        k = self._cut(v)
        T = np.broadcast_to(self.T[None, :], k.shape)
        if self.swap:
            tail = (k >= self.w_hi[None, :]).astype(np.float64)
            open_ = (k >= self.w_lo[None, :]) & (k < self.w_hi[None, :])
            tail[open_] = _boost_binom_cdf(k[open_].astype(np.float64), T[open_].astype(np.float64), self.q)
        else:
            tail = (k <= self.w_lo[None, :]).astype(np.float64)
            open_ = (k > self.w_lo[None, :]) & (k <= self.w_hi[None, :])
            tail[open_] = _boost_binom_sf(k[open_].astype(np.float64) - 1, T[open_].astype(np.float64), self.q)
        return np.minimum(tail @ self.c, 1.0)

    def _span(self, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
        """Per row, the first and last ``C`` counted in ``F(hi)`` and not in ``F(lo)``, inside the window."""
        k = self._cut(np.array([lo, hi]))
        if self.swap:
            first, last = k[0] + 1, k[1]
        else:
            first, last = k[1], k[0] - 1
        return np.maximum(first, self.w_lo), np.minimum(last, self.w_hi)

    def count(self, lo: float, hi: float) -> int:
        """How many atoms lie in ``(lo, hi]`` (within the windows)."""
        first, last = self._span(lo, hi)
        return int(np.maximum(last - first + 1, 0).sum())

    def atoms(self, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
        """The atoms of ``(lo, hi]``, increasing, with their probabilities ``c_r·b(C; T_r, q)``."""
        first, last = self._span(lo, hi)
        size = np.maximum(last - first + 1, 0)
        rows = np.flatnonzero(size)
        size = size[rows]
        total = int(size.sum())
        if total == 0:
            return np.empty(0), np.empty(0)
        row = np.repeat(rows, size)
        C = first[row] + (np.arange(total) - np.repeat(np.cumsum(size) - size, size))
        r = self.r[row]
        if 0 < self.q < 1:
            probs = self.c[row] * _boost_binom_pmf(C.astype(np.float64), self.T[row].astype(np.float64), self.q)
        else:
            probs = self.c[row]
        values = self.a * C - self.b * r if self.swap else self.a * r - self.b * C
        order = np.argsort(values, kind="stable")
        return values[order], probs[order]

    def bounds(self) -> tuple[float, float]:
        """A value below every atom (``F = 0``) and one at or above every atom (``F = Σ c_r``)."""
        if self.swap:
            low, high = self.a * self.w_lo - self.b * self.r, self.a * self.w_hi - self.b * self.r
        else:
            low, high = self.a * self.r - self.b * self.w_hi, self.a * self.r - self.b * self.w_lo
        return float(low.min()) - 4 * TIE_TOL, float(high.max()) + TIE_TOL

    def largest_atom_at_most(self, v: float) -> float:
        """The largest value of positive probability ``<= v`` (within the tie tolerance), every row's."""
        k = self._cut(np.array([v]))[0]
        if self.swap:
            C = np.minimum(k, self.T)
            vals = np.where(C >= 0, self.a * C - self.b * self.r, -np.inf)
        else:
            vals = np.where(k <= self.T, self.a * self.r - self.b * k, -np.inf)
        return float(vals.max())


def _first_reaching(values: np.ndarray, probs: np.ndarray, base: float, target: float):
    """Among increasing atoms ``values`` with ``F(u) = base + Σ_{w <= u + τ} p_w``: the smallest ``u`` with
    ``F(u) >= target`` (reported as the largest atom of its tie cluster, as before), or ``None``."""
    if values.size == 0:
        return None
    cum = base + np.cumsum(probs)
    upto = np.searchsorted(values, values + TIE_TOL, side="right") - 1  # last atom of each cluster
    reach = np.flatnonzero(cum[upto] >= target)
    return None if reach.size == 0 else float(values[upto[reach[0]]])


def _settle(reading: Reading, lo: float, f_lo: float, hi: float, target: float, tally: dict) -> float:
    """The answer inside a bracket ``F(lo) < target <= F(hi)`` from the atoms of ``(lo, hi]``; where rounding
    leaves the sum a hair short of ``target``, the largest atom ``<= hi`` (its ``F`` is ``F(hi)``)."""
    values, probs = reading.atoms(lo, hi)
    tally["atoms"] += values.size
    found = _first_reaching(values, probs, f_lo, target)
    if found is not None:
        return found
    return float(values[-1]) if values.size else reading.largest_atom_at_most(hi)


def _search(reading: Reading, target: float, guess: float, f_guess: float, density: float,
            vmin: float, vmax: float, total: float, scale: float, tally: dict) -> float:
    """The smallest atom ``u`` with ``F(u) >= target``.

    A bracket ``F(lo) < target <= F(hi)`` starts from the guess. Each probe ``t`` is a Newton step from the
    last probe with the local density (the secant of the last two, divided by 4 when no atom lay between),
    pushed a quarter step past the answer; regula falsi where that leaves the bracket; the midpoint when three
    probes inside a two-sided bracket have not halved it. ``F(t)`` comes from the atoms of ``(lo, t]`` or
    ``(t, hi]`` when at most ``cap`` lie there (and the answer with it, if it lies among them), else from an
    exact :meth:`Reading.cdf`. Once the bracket holds at most ``cap`` atoms (or is a tie's width), its atoms
    give the answer.
    """
    cap = max(_ENUM_MIN, _ENUM_PER_ROW * reading.r.size)
    lo, f_lo, hi, f_hi = vmin, 0.0, vmax, total
    if f_guess >= target:
        hi, f_hi = guess, f_guess
    else:
        lo, f_lo = guess, f_guess
    point, f_point = guess, f_guess
    widths = []  # the bracket's width before each probe, once both ends are probes
    for _ in range(1000):
        if hi - lo <= 4 * TIE_TOL or reading.count(lo, hi) <= cap:
            return _settle(reading, lo, f_lo, hi, target, tally)
        t = np.nan
        if lo > vmin and hi < vmax:
            widths.append(hi - lo)
        bisect = len(widths) > 3 and widths[-1] > widths[-4] / 2  # three probes have not halved the bracket
        if not bisect and density > 0 and np.isfinite(density):
            step = (target - f_point) / density
            t = point + step + np.copysign(0.25 * abs(step) + 1e-6 * scale, target - f_point)
        if not lo < t < hi:
            t = lo + (target - f_lo) * (hi - lo) / (f_hi - f_lo) if f_hi > f_lo and not bisect else np.nan
            if not lo < t < hi or min(t - lo, hi - t) < (hi - lo) * 1e-3:
                t = (lo + hi) / 2
        if reading.count(lo, t) <= cap:  # F(t) from the atoms of (lo, t], or the answer among them
            values, probs = reading.atoms(lo, t)
            tally["atoms"] += values.size
            found = _first_reaching(values, probs, f_lo, target)
            if found is not None:
                return found
            f_t = f_lo + float(probs.sum())
        elif reading.count(t, hi) <= cap:  # or of (t, hi]
            values, probs = reading.atoms(t, hi)
            tally["atoms"] += values.size
            f_t = f_hi - float(probs.sum())
            if f_t < target:
                found = _first_reaching(values, probs, f_t, target)
                return found if found is not None else _settle(reading, t, f_t, hi, target, tally)
        else:
            f_t = float(reading.cdf([t])[0])
            tally["cdf"] += 1
        slope = (f_t - f_point) / (t - point) if t != point else 0.0
        density = slope if slope > 0 else density / 4  # no atom in between: the next step goes 4 times as far
        point, f_point = t, f_t
        if f_t >= target:
            hi, f_hi = t, f_t
        else:
            lo, f_lo = t, f_t
    raise RuntimeError("net-benefit quantile search did not settle")  # pragma: no cover


def law_quantiles(readings: list[Reading], kappa: np.ndarray, qs) -> tuple[np.ndarray, dict]:
    """Smallest value ``v`` of the law with ``P(V <= v) >= q − QUANTILE_TOL``, per ``q`` (module docstring),
    read by whichever reading computes the fewest tails at the Cornish–Fisher guesses."""
    qs = np.atleast_1d(np.asarray(qs, dtype=np.float64))
    tally = {"cdf": 0, "atoms": 0, "open": 0}
    if not kappa[1] > 0:  # one value (no flagged instance, say): read off its atoms
        reading = readings[0].weigh()
        values, probs = reading.atoms(*reading.bounds())
        out = [_first_reaching(values, probs, 0.0, float(q) - QUANTILE_TOL) for q in qs]
        return np.array([float(values[-1]) if u is None else u for u in out]), tally
    guesses, density = cornish_fisher(qs, kappa)
    reading = min(readings, key=lambda rd: rd.open_rows(guesses)).weigh()
    vmin, vmax = reading.bounds()
    guesses = np.clip(guesses, vmin, vmax)
    f_guess = reading.cdf(guesses)
    tally["cdf"] += 1
    tally["open"] = reading.open_rows(guesses)
    total = float(reading.c.sum())
    out = np.array([_search(reading, float(q) - QUANTILE_TOL, float(g), float(f), float(d), vmin, vmax, total,
                            float(np.sqrt(kappa[1])), tally)
                    for q, g, f, d in zip(qs, guesses, f_guess, density)])
    return out, tally
