"""Lattices of bootstrap counts at a fixed threshold, as ``(value, probability)`` cells.

Stratified bootstrap: ``TP* ~ Bin(m+, tp/n+)`` and ``FP* ~ Bin(m−, fp/n−)``,
independent; a cell is a pair ``(TP*, FP*)`` with probability
``b(TP*; m+, tp/n+)·b(FP*; m−, fp/n−)``.

Full bootstrap (``m`` draws from the pooled data): the four cells are
``Multinomial(m; tp, fp, fn, tn)/n``.  Conditioning on ``P* = TP* + FN*``,
``P* ~ Bin(m, n+/n)`` and, given ``P*``, ``TP* ~ Bin(P*, tp/n+)`` and
``FP* ~ Bin(m − P*, fp/n−)`` independently: a cell is ``(P*, TP*, FP*)``.
Precision depends on fewer counts: ``PP* = TP* + FP* ~ Bin(m, (tp + fp)/n)``
and ``TP* | PP* ~ Bin(PP*, tp/(tp + fp))``, a two-dimensional lattice.

No table of cells is built to reach the frame's columns (:class:`StratifiedLaw`,
:class:`FullPrecisionLaw`):

* **Percentile bounds** by inverting the CDF, a one-dimensional sum.  Every stratified metric, MCC
  included, is non-increasing in ``FP*`` at fixed ``TP*`` and non-decreasing in ``TP*`` at fixed ``FP*``
  (MCC: :meth:`StratifiedLaw._staircase`), so
  ``P(g* <= v) = Σ_a b(a; m+, p) · P(FP* >= f_v(a))`` with ``f_v(a)`` the first ``FP*`` where
  ``g(a, ·) <= v``: the metric's inverse in ``FP*`` (:func:`_fp_inverse`, one division, MCC a quadratic)
  rounded up and checked against the values as the table would hold them; O(window of TP*) per
  evaluation, a handful of evaluations per bound (:class:`rocci.precision._laws.StaircaseLattice`).
  Full-bootstrap precision ``a/s`` is non-decreasing in ``TP*`` at fixed ``PP* = s``, with binomial
  CDFs per row (:class:`rocci.precision._laws.MonotoneLattice`).
* **Mean and sd** exactly: every stratified metric is ``(u·TP* + v·FP* + w)/D(TP* + FP*)`` (e.g. precision
  ``TP*/(TP* + FP*)``, F1 ``2TP*/(TP* + FP* + m+)``, MCC ``(m−·TP* − m+·FP*)/sqrt(PP*·m+·m−·(m − PP*))``).
  With ``D`` constant (recall, specificity, accuracy, balanced accuracy, Youden) the moments are the two
  binomial windows' own, in closed form; otherwise sums over ``s = TP* + FP*`` of three convolutions of
  ``(TP* − c)^i·b(TP*)`` with ``b(FP*)``, ``i <= 2`` (real FFTs above :data:`FFT_CELLS`).
* **The law itself** (``distribution(i)``) only when asked, built in chunks of rows: it has up to
  ``(window of TP*) × (window of FP*)`` distinct values, about 2.4·10^7 (≈ 400 MB) mid-ranking at 10^6 rows
  (:data:`DISTRIBUTION_CELLS` is the largest built; 2.8·10^9 at 10^8 instances, refused).

The binomial windows (``b(·; m, k/n)`` over :func:`binomial_window`) are cached (:func:`_window`): the
metrics asked at one threshold share them.  At 10^8 instances (windows of ~5·10^4 counts each) a metric
costs ~0.05-0.3 s wherever the threshold lies.
"""

from __future__ import annotations

import numpy as np

from functools import lru_cache

from .._core.exact import binomial_cdf, binomial_pmf
from ._laws import ENUM_CELLS, Law, MonotoneLattice, StaircaseLattice, binomial_window
from ._metrics import defined_stratified_value, metric_value, stratified_value

#: Largest number of cells built at once where a table of cells is the route (memory stays near 200 MB):
#: the paired laws and the full bootstrap of metrics other than precision.
MAX_CELLS = 12_000_000

#: Largest window (cells) whose mean and sd are summed cell by cell; larger ones use the closed forms or the
#: convolutions (:meth:`StratifiedLaw._moments`), which agree with the sums to ~1e-16.
DIRECT_CELLS = 1 << 14

#: Largest ``(window of TP*) × (window of FP*)`` whose convolutions (moments) are direct sums; larger ones go by
#: FFT (O(W log W); rounding ~1e-16 of the largest term, the moments agree with the direct sums to ~1e-15).
FFT_CELLS = 1 << 22

#: Largest law returned whole by ``distribution(i)`` (cells of bootstrap counts; about 1.6 GB at the peak).
DISTRIBUTION_CELLS = 60_000_000


def _check_size(cells: int, what: str, advice: str | None = None) -> None:
    if cells > MAX_CELLS:
        from .._core.inputs import InputError

        raise InputError(
            f"The exact law of {what} here has {cells:,} cells of bootstrap counts, more than the "
            f"{MAX_CELLS:,} rocci builds at once: "
            + (advice or "ask for a smaller bootstrap sample size m (the law's width scales like 1/sqrt(m)), "
               "or for thresholds nearer the ends of the ranking.")
        )


def _check_distribution(cells: int) -> None:
    if cells > DISTRIBUTION_CELLS:
        from .._core.inputs import InputError

        raise InputError(
            f"This exact law has {cells:,} cells of bootstrap counts, more than the {DISTRIBUTION_CELLS:,} "
            "distribution() returns whole; its mean, sd and percentile bounds are in to_frame(). Ask for a "
            "smaller bootstrap sample size m to get the law itself."
        )


@lru_cache(maxsize=32)
def _window(m: int, k: int, n: int):
    """``(counts, pmf, left_out)`` of ``Bin(m, k/n)`` over its window (:func:`binomial_window`), read-only and
    cached: the metrics asked at one threshold (the explorer's seven) share them."""
    p = k / n
    lo, hi, left = binomial_window(m, p)
    counts = np.arange(int(lo), int(hi) + 1)
    pmf = binomial_pmf(counts, m, p)
    counts.flags.writeable = False
    pmf.flags.writeable = False
    return counts, pmf, float(left)


def _dot(x: np.ndarray, y: np.ndarray) -> float:
    """``Σ x·y`` by numpy's pairwise sum (a BLAS dot of one vector is slower on a busy machine, with threads)."""
    return float(np.multiply(x, y).sum())


def _fp_inverse(metric: str, a: np.ndarray, c: float, P: int, N: int, beta2: float) -> np.ndarray:
    """For each ``TP* = a``, the real ``x`` with ``g(a, b) <= c`` iff ``b >= x`` (``FP* = b``, exact arithmetic):
    every stratified metric is non-increasing in ``FP*`` at fixed ``TP*`` (``±inf``: every / no ``b``).

    Linear metrics ``(u·a + v·b + w)/D`` with ``D`` constant or ``D = s``, ``s + β²P``, ``M − s``, ``s·P/M``
    (``s = a + b``) give ``x`` by one division.  MCC ``(M·a − P·s)/sqrt(P·N·s·(M − s))``: ``g = c`` is the
    quadratic ``A·s² − B·s + C = 0``, ``A = P² + c²PN``, ``B = 2MaP + c²PNM``, ``C = M²a²``, whose
    discriminant is ``c²·PN·M²·(4a(P − a) + c²PN)`` (no cancellation); ``M·a/P`` lies between the roots
    and ``g`` has the sign of ``M·a − P·s``, so ``s = s₋ = 2C/(B + sqrt(disc))`` for ``c >= 0`` and
    ``s = s₊ = (B + sqrt(disc))/(2A)`` for ``c < 0``; ``x = s − a``.
    """
    a = np.asarray(a, float)
    P, N = float(P), float(N)
    M = P + N
    inf = np.inf
    if metric == "recall":
        return np.where(a / P <= c, -inf, inf)
    if metric == "specificity":
        return np.full(a.shape, N * (1 - c))
    if metric == "accuracy":
        return a + N - c * M
    if metric == "balanced_accuracy":
        return (a * N + N * P - 2 * P * N * c) / P
    if metric == "youden":
        return (a * N - P * N * c) / P
    if metric == "npv":
        return np.full(a.shape, -inf) if c >= 1 else (N - c * (M - a)) / (1 - c)
    if metric in ("precision", "f1", "fbeta", "lift"):
        if c <= 0:
            return np.where((a <= 0) & (c >= 0), -inf, inf)
        if metric == "precision":
            return a * (1 - c) / c
        if metric == "lift":
            return a * M / (c * P) - a
        b2 = 1.0 if metric == "f1" else beta2
        return (1 + b2) * a / c - a - b2 * P
    if metric == "mcc":
        if c >= 1:
            return np.full(a.shape, -inf)
        if c <= -1:
            return np.full(a.shape, inf)
        B = 2 * M * a * P + c * c * P * N * M
        root = abs(c) * M * np.sqrt(P * N * np.maximum(4 * a * (P - a) + c * c * P * N, 0.0))
        if c >= 0:
            s = 2 * (M * a) ** 2 / (B + root)
            s = np.where(a > 0, s, 0.0)
        else:
            s = (B + root) / (2 * (P * P + c * c * P * N))
        return s - a
    raise ValueError(metric)  # pragma: no cover - checked by callers


def _convolutions(pt: np.ndarray, da: np.ndarray, pf: np.ndarray) -> np.ndarray:
    """``C_i(s) = Σ_a da(a)^i·pt(a)·pf(s − a)``, ``i = 0, 1, 2`` (rows), by direct sums for small windows and by
    real FFTs above :data:`FFT_CELLS` (``pt.size·pf.size``)."""
    parts = (pt, da * pt, da * da * pt)
    if pt.size * pf.size <= FFT_CELLS:
        return np.array([np.convolve(x, pf) for x in parts])
    from scipy import fft

    size = pt.size + pf.size - 1
    nfft = fft.next_fast_len(size, real=True)
    ff = fft.rfft(pf, nfft)
    return fft.irfft(fft.rfft(np.array(parts), nfft, axis=1) * ff, nfft, axis=1)[:, :size]


def _linear_form(metric: str, m_pos: int, m_neg: int, beta2: float):
    """``(u, v, w, D)``: the stratified metric is ``(u·TP + v·FP + w)/D(TP + FP)`` (``D`` vectorised)."""
    P, N = float(m_pos), float(m_neg)
    M = P + N
    const = {"recall": (1, 0, 0, P), "specificity": (0, -1, N, N), "accuracy": (1, -1, N, M),
             "balanced_accuracy": (N, -P, N * P, 2 * P * N), "youden": (N, -P, 0, P * N)}
    if metric in const:
        u, v, w, d = const[metric]
        return u, v, w, lambda s: np.full(np.shape(s), d)
    if metric == "precision":
        return 1, 0, 0, lambda s: np.asarray(s, float)
    if metric == "npv":
        return 0, -1, N, lambda s: M - np.asarray(s, float)
    if metric == "f1" or (metric == "fbeta" and beta2 == 1.0):
        return 2, 0, 0, lambda s: np.asarray(s, float) + P
    if metric == "fbeta":
        return 1 + beta2, 0, 0, lambda s: np.asarray(s, float) + beta2 * P
    if metric == "lift":
        return M, 0, 0, lambda s: np.asarray(s, float) * P
    if metric == "mcc":
        return N, -P, 0, lambda s: np.sqrt(np.clip(np.asarray(s, float) * P * N * (M - np.asarray(s, float)),
                                                   0, None))
    raise ValueError(metric)  # pragma: no cover - checked by callers


#: Metrics whose stratified form has a constant denominator (moments in closed form).
_CONSTANT_DENOMINATOR = {"recall", "specificity", "accuracy", "balanced_accuracy", "youden"}


def _guess(mean: float, sd: float, q: float):
    """The normal approximation's quantile and a quarter of the sd: where a quantile search starts."""
    from scipy.special import ndtri

    return mean + sd * float(ndtri(min(max(q, 1e-300), 1 - 1e-16))), sd / 4


class StratifiedLaw:
    """The exact stratified law of a metric at one threshold, without its table of cells.

    ``mean``, ``std``, ``quantile(q)``/``quantiles(qs)``, ``p_undefined``, ``truncated`` as :class:`Law`
    (module docstring for the routes): O(window) memory, O(W log W) time for the moments and O(window of
    TP*) per CDF evaluation for the bounds.  Calling the object builds the :class:`Law` itself
    (``distribution``): every cell, ``(window of TP*) × (window of FP*)`` of them, sorted (O(cells·log cells)
    time, ~56 bytes per cell at the peak; refused above :data:`DISTRIBUTION_CELLS`).
    """

    def __init__(self, metric: str, tp: int, fp: int, n_pos: int, n_neg: int, m_pos: int, m_neg: int,
                 beta2: float = 1.0, rtol: float = 0.0):
        self.metric, self.m_pos, self.m_neg, self.beta2, self.rtol = metric, m_pos, m_neg, beta2, rtol
        self.t, self.pt, lt = _window(m_pos, tp, n_pos)
        self.f, self.pf, lf = _window(m_neg, fp, n_neg)
        self.truncated = float(lt + lf)
        # Undefined cells (a denominator of 0) lie at corners of the lattice: (0, 0) or (m+, m−).
        corners = {(i, j) for i in (0, self.t.size - 1) for j in (0, self.f.size - 1)}
        self._undefined = [(i, j) for i, j in sorted(corners) if np.isnan(self._value(i, j))]
        self.p_undefined = float(sum(self.pt[i] * self.pf[j] for i, j in self._undefined))
        self.defined = float(self.pt.sum() * self.pf.sum()) - self.p_undefined
        self.mean, self.std = self._moments()
        self._lattice = self._staircase()
        self._cache: dict[float, float] = {}

    def predicted_harmonic_mean(self) -> float:
        """``M = 1/E[1/PP* | PP* > 0]`` with ``PP* = TP* + FP*`` (law: the convolution of the two binomial
        windows): the score interval's number of trials for the precision (:func:`rocci.precision_ci`)."""
        if self.defined <= 0:
            return np.nan
        pp = _convolutions(self.pt, np.zeros(self.pt.size), self.pf)[0]
        s = self.t[0] + self.f[0] + np.arange(pp.size)
        ok = s > 0
        return float(pp[ok].sum() / (pp[ok] / s[ok]).sum())

    def _value(self, i, j):
        return stratified_value(self.metric, self.t[i], self.f[j], self.m_pos, self.m_neg, self.beta2)

    def _moments(self):
        """Mean and sd of the law (given defined).  Small windows: summed cell by cell.  Metrics with a
        constant denominator (recall, specificity, accuracy, balanced accuracy, Youden): in closed form from
        the windows' own moments, ``E = (u·E[TP*] + v·E[FP*] + w)/D``, ``Var = (u²·Var TP* + v²·Var FP*)/D²``
        (O(window)).  The others, ``(u·TP* + v·FP* + w)/D(s)`` with ``s = TP* + FP*``: with ``da = TP* − ac``
        and ``num − c·D(s) = (u − v)·da + e(s)``, ``e(s) = (u − v)·ac + v·s + w − c·D(s)``, the centred
        moments are sums over ``s`` of three convolutions ``C_i(s) = Σ da^i·b(TP*)·b(s − TP*)``
        (:func:`_convolutions`, FFT for large windows: O(W log W))."""
        if self.defined <= 0:
            return np.nan, np.nan
        if self.t.size * self.f.size <= DIRECT_CELLS or min(self.t.size, self.f.size) == 1:
            return self._direct_moments()  # (one count fixed: the law may have a single value, sd 0 exactly)
        u, v, w, den = _linear_form(self.metric, self.m_pos, self.m_neg, self.beta2)
        if self.metric in _CONSTANT_DENOMINATOR:
            d = float(den(0.0))
            wt, wf = float(self.pt.sum()), float(self.pf.sum())
            et, ef = _dot(self.pt, self.t) / wt, _dot(self.pf, self.f) / wf
            vt = _dot(self.pt, (self.t - et) ** 2) / wt
            vf = _dot(self.pf, (self.f - ef) ** 2) / wf
            return (u * et + v * ef + w) / d, float(np.sqrt(max(u * u * vt + v * v * vf, 0.0))) / d
        ac = _dot(self.pt, self.t) / float(self.pt.sum())
        fc = _dot(self.pf, self.f) / float(self.pf.sum())
        dc = float(den(ac + fc))
        lc = u * ac + v * fc + w
        c = lc / dc if dc > 0 else 0.0
        conv = _convolutions(self.pt, self.t - ac, self.pf)
        s = self.t[0] + self.f[0] + np.arange(conv.shape[1], dtype=float)
        d = den(s)
        ok = d > 0
        c0, c1, c2 = conv[0][ok], conv[1][ok], conv[2][ok]
        s, d = s[ok], d[ok]
        k = u - v
        total = float(c0.sum())
        base = k * ac + v * s + w
        e = base - c * d
        m1 = float(((k * c1 + e * c0) / d).sum()) / total
        # Centre again on the mean found (e shifts; the convolutions do not change) before the second moment.
        c = c + m1
        e = base - c * d
        n1 = k * c1 + e * c0
        n2 = k * k * c2 + 2 * k * e * c1 + e * e * c0
        m1 = float((n1 / d).sum()) / total
        m2 = float((n2 / (d * d)).sum()) / total
        return c + m1, float(np.sqrt(max(m2 - m1 * m1, 0.0)))

    def _direct_moments(self):
        """Mean and sd summed over the cells (small windows: a law with one value gets sd 0 exactly)."""
        s0 = s1 = 0.0
        v_lo, v_hi = np.inf, -np.inf
        for values, probs in self._chunks():
            ok = ~np.isnan(values)
            s0 += float(probs[ok].sum())
            s1 += float(probs[ok] @ values[ok])
            if ok.any():
                v_lo, v_hi = min(v_lo, float(values[ok].min())), max(v_hi, float(values[ok].max()))
        if v_lo == v_hi:
            return v_lo, 0.0
        mean = min(max(s1 / s0, v_lo), v_hi)
        s2 = 0.0
        for values, probs in self._chunks():
            ok = ~np.isnan(values)
            s2 += float(probs[ok] @ (values[ok] - mean) ** 2)
        return mean, float(np.sqrt(max(s2 / s0, 0.0)))

    def _staircase(self) -> StaircaseLattice:
        """Rows ``TP* = t[i]``, columns ``FP* = f[j]`` increasing: every stratified metric is non-increasing in
        ``FP*`` at fixed ``TP*`` (and non-decreasing in ``TP*`` at fixed ``FP*``).  For MCC,
        ``∂MCC/∂FP* = −M·E/(2·sqrt(PN)·(s(M − s))^{3/2})`` with
        ``E = P·s + M·a − 2·a·s = s·FN* + a·(M − s) >= 0`` (``s = TP* + FP*``, ``a = TP*``,
        ``FN* = P − a``): non-increasing everywhere (checked against exact fractions on every lattice with
        ``m± <= 13`` in the tests)."""
        wf = self.f.size
        lo = np.zeros(self.t.size, np.int64)
        hi = np.full(self.t.size, wf - 1, np.int64)
        for i, j in self._undefined:  # an undefined corner is the end of its row: leave it out
            if j == hi[i]:
                hi[i] -= 1
            elif j == lo[i]:
                lo[i] += 1
        t, f = self.t, self.f
        metric, mp, mn, b2 = self.metric, self.m_pos, self.m_neg, self.beta2
        f0 = float(f[0])

        tf, ff = t.astype(float), f.astype(float)

        def value(rows, j):  # (the lattice holds defined cells only)
            return defined_stratified_value(metric, tf[rows], ff[j], mp, mn, b2)

        def inverse(c):
            return _fp_inverse(metric, t, c, mp, mn, b2) - f0

        return StaircaseLattice(value, inverse, self.pt, self.pf, lo, hi, self.defined, self.rtol)

    def _chunks(self):
        rows = max(1, ENUM_CELLS * 4 // self.f.size)
        if self.metric == "mcc":  # metric_value's operations, with the denominator taken once per TP* + FP*
            P, N = float(self.m_pos), float(self.m_neg)
            s = np.arange(self.t[0] + self.f[0], self.t[-1] + self.f[-1] + 1, dtype=float)
            with np.errstate(invalid="ignore", divide="ignore"):
                den = np.where(s * P * N * (P + N - s) > 0, np.sqrt(s * P) * np.sqrt(N * (P + N - s)), np.nan)
            fn, fp = float(self.m_pos) - self.t, self.f.astype(float)
            tn = float(self.m_neg) - fp
            base = self.t[0] + self.f[0]
            for a in range(0, self.t.size, rows):
                tp = self.t[a:a + rows].astype(float)[:, None]
                num = tp * tn[None, :] - fp[None, :] * fn[a:a + rows, None]
                values = num / den[self.t[a:a + rows, None] + self.f[None, :] - base]
                yield values.ravel(), np.outer(self.pt[a:a + rows], self.pf).ravel()
            return
        for a in range(0, self.t.size, rows):
            t = self.t[a:a + rows]
            values = stratified_value(self.metric, t[:, None], self.f[None, :], self.m_pos, self.m_neg, self.beta2)
            yield np.broadcast_to(values, (t.size, self.f.size)).ravel(), np.outer(self.pt[a:a + rows], self.pf).ravel()

    def quantiles(self, qs) -> list[float]:
        for q in qs:
            if q not in self._cache:
                self._cache[q] = self._lattice.quantile(q, self.mean, self.std)
        return [self._cache[q] for q in qs]

    def quantile(self, q: float) -> float:
        return self.quantiles([q])[0]

    def __call__(self) -> Law:
        _check_distribution(self.t.size * self.f.size)
        values, probs = zip(*self._chunks())
        return Law(np.concatenate(values), np.concatenate(probs), truncated=self.truncated, merge_rtol=self.rtol)


class FullPrecisionLaw:
    """The exact full-bootstrap law of precision at one threshold: rows ``PP* = s ~ Bin(m, (tp + fp)/n)``,
    columns ``TP* | s ~ Bin(s, tp/(tp + fp))`` (each over its window), value ``TP*/s`` non-decreasing
    along a row.  Mean and sd in closed form per row (``E = share``, ``Var(TP*/s | s) = share(1 − share)/s``),
    percentile bounds by :class:`MonotoneLattice` with binomial CDFs per row; as :class:`StratifiedLaw`."""

    def __init__(self, tp: int, fp: int, n: int, m: int):
        self.tp, self.fp, self.n, self.m = tp, fp, n, m
        self.ps_share = (tp + fp) / n
        s0, s1, ls = binomial_window(m, self.ps_share)
        self.s = np.arange(int(s0), int(s1) + 1)
        self.ps = binomial_pmf(self.s, m, self.ps_share)
        self.share = share = tp / (tp + fp) if tp + fp > 0 else 0.0
        self.a0, self.a1, la = binomial_window(self.s, share)
        self.truncated = float(ls + self.ps @ la)
        base = binomial_cdf(self.a0 - 1, self.s, share)
        row = self.ps * (binomial_cdf(self.a1, self.s, share) - base)
        empty = self.s == 0  # TP* + FP* = 0: precision undefined
        self._rows = row
        self.p_undefined = float(row[empty].sum())
        self.defined = float(row[~empty].sum())
        if self.defined > 0:
            self.mean = share
            var = float(row[~empty] @ (share * (1 - share) / self.s[~empty])) / self.defined
            self.std = float(np.sqrt(max(var, 0.0)))
        else:
            self.mean = self.std = np.nan
        s, ps = self.s, self.ps
        hi = np.where(empty, self.a0 - 1, self.a1)

        def value(rows, j):
            return j / s[rows]

        def below(rows, j):
            return ps[rows] * (binomial_cdf(j, s[rows], share) - base[rows])

        def cell(rows, j):
            return ps[rows] * binomial_pmf(j, s[rows], share)

        self._lattice = MonotoneLattice(value, below, self.a0.copy(), hi, self.defined, 0.0, cell)
        self._cache: dict[float, float] = {}

    def predicted_harmonic_mean(self) -> float:
        """``M = 1/E[1/PP* | PP* > 0]`` (``PP* = s``, the rows): as :meth:`StratifiedLaw.predicted_harmonic_mean`."""
        if self.defined <= 0:
            return np.nan
        ok = self.s > 0
        return float(self._rows[ok].sum() / (self._rows[ok] / self.s[ok]).sum())

    def quantiles(self, qs) -> list[float]:
        for q in qs:
            if q not in self._cache:
                self._cache[q] = self._lattice.quantile(q, *_guess(self.mean, self.std, q))
        return [self._cache[q] for q in qs]

    def quantile(self, q: float) -> float:
        return self.quantiles([q])[0]

    def __call__(self) -> Law:
        width = int((self.a1 - self.a0).max()) + 1
        _check_distribution(self.s.size * width)
        values, probs, _ = _full_precision_cells(self.tp, self.fp, self.n, self.m)
        return Law(values, probs, truncated=self.truncated)


def stratified_cells(metric: str, tp: int, fp: int, n_pos: int, n_neg: int, m_pos: int, m_neg: int,
                     beta2: float = 1.0):
    """``(values, probabilities, truncated)`` of the stratified lattice at one threshold."""
    t0, t1, lt = binomial_window(m_pos, tp / n_pos)
    f0, f1, lf = binomial_window(m_neg, fp / n_neg)
    t = np.arange(int(t0), int(t1) + 1)
    f = np.arange(int(f0), int(f1) + 1)
    _check_size(t.size * f.size, metric)
    pt = binomial_pmf(t, m_pos, tp / n_pos)
    pf = binomial_pmf(f, m_neg, fp / n_neg)
    values = stratified_value(metric, t[:, None], f[None, :], m_pos, m_neg, beta2)
    return values, np.outer(pt, pf), float(lt + lf)


def _full_precision_cells(tp: int, fp: int, n: int, m: int):
    s0, s1, ls = binomial_window(m, (tp + fp) / n)
    s = np.arange(int(s0), int(s1) + 1)
    ps = binomial_pmf(s, m, (tp + fp) / n)
    share = tp / (tp + fp) if tp + fp > 0 else 0.0
    a0, a1, la = binomial_window(s, share)
    width = int((a1 - a0).max()) + 1
    a = a0[:, None] + np.arange(width)[None, :]
    inside = a <= a1[:, None]
    probs = np.where(inside, ps[:, None] * binomial_pmf(a, s[:, None], share), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(s[:, None] > 0, a / np.where(s > 0, s, 1)[:, None], np.nan)
    return values[inside], probs[inside], float(ls + ps @ la)


def full_cells(metric: str, tp: int, fp: int, n_pos: int, n_neg: int, m: int, beta2: float = 1.0):
    """``(values, probabilities, truncated)`` of the full-bootstrap lattice at one threshold."""
    n = n_pos + n_neg
    if metric == "precision":
        s0, s1, ls = binomial_window(m, (tp + fp) / n)
        share = tp / (tp + fp) if tp + fp > 0 else 0.0
        s = np.arange(int(s0), int(s1) + 1)
        a0, a1, _ = binomial_window(s, share)
        _check_size(s.size * (int((a1 - a0).max()) + 1), metric)
        return _full_precision_cells(tp, fp, n, m)
    # Generic: P* = TP* + FN* first, then TP* and FP* given P*.
    s0, s1, ls = binomial_window(m, n_pos / n)
    s = np.arange(int(s0), int(s1) + 1)
    ps = binomial_pmf(s, m, n_pos / n)
    t0, t1, lt = binomial_window(s, tp / n_pos)
    f0, f1, lf = binomial_window(m - s, fp / n_neg)
    _check_size(int(((t1 - t0 + 1) * (f1 - f0 + 1)).sum()), metric,
                "use bootstrap='stratified' (whose laws have no size limit), or a smaller bootstrap sample "
                "size m (the law's cells grow like m^1.5).")
    values, probs = [], []
    for i, si in enumerate(s):  # one P* value per pass: O(sqrt(m)) passes, never one per instance
        t = np.arange(t0[i], t1[i] + 1)
        f = np.arange(f0[i], f1[i] + 1)
        pt = binomial_pmf(t, si, tp / n_pos)
        pf = binomial_pmf(f, m - si, fp / n_neg)
        tt, ff = t[:, None].astype(float), f[None, :].astype(float)
        value = metric_value(metric, tt, ff, si - tt, (m - si) - ff, beta2)
        values.append(np.broadcast_to(value, (t.size, f.size)).ravel())
        probs.append((ps[i] * np.outer(pt, pf)).ravel())
    trunc = float(ls + ps @ (lt + lf))
    return np.concatenate(values), np.concatenate(probs), trunc
