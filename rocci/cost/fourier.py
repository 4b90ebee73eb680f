"""Paired cost laws as sums of lattice steps, by an inverse FFT of their characteristic function."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import fft as sfft
from scipy import stats

from .._core.inputs import InputError
from ._common import TIE_TOL
from .lattice import (
    _FOURIER_EPS,
    _JOINT_MAX,
    _Lattice,
    _ROW_EPS,
    _WINDOW_PAD,
    _WINDOW_SD,
    _diff_law,
    _diff_laws,
    _window,
)

def _axis_bound_passes(theta, pp, pm, rest, other, m):
    """Whether the bound on ``|φ|`` along one axis exceeds :data:`_FOURIER_EPS` at angles ``theta``.

    ``|rest + A_k(θ_k) + Σ_l A_l(θ_l)| <= |rest + A_k(θ_k)| + Σ_l (plus_l + minus_l)``
    (the other axes at their largest, ``other = Σ_l (plus_l + minus_l)``), with
    ``|rest + A_k(θ)| = hypot(rest + (p + q)·cos θ, (p − q)·sin θ)``.
    """
    g = np.hypot(rest + (pp + pm) * np.cos(theta), (pp - pm) * np.sin(theta))
    with np.errstate(divide="ignore"):
        logb = m * np.log(np.minimum(g + other, 1.0))
    return logb > np.log(_FOURIER_EPS)


#: Frequencies added on each side of the analytic range of :func:`_axis_frequencies` (then checked).
_BOUND_MARGIN = 3


def _axis_frequencies(size: int, last: bool, pp, pm, rest, other, m):
    """Positions in ``fftfreq(size)`` (``rfftfreq`` on the last axis) and angles ``θ = 2π·freq``
    of the frequencies where the per-axis bound :func:`_axis_bound_passes` exceeds :data:`_FOURIER_EPS`.

    The bound needs ``g(θ) = |rest + A(θ)| > τ = e^{log(ε)/m} − other``, and
    ``g² = (rest + s·c)² + δ²(1 − c²)`` (``c = cos θ``, ``s = p + q``,
    ``δ = p − q``) is a convex quadratic in ``c`` (``s² >= δ²``): the
    frequencies that pass form a run from ``θ = 0`` and a run from ``θ = π``.
    Their ends are found on the scalar quadratic (a bisection on the frequency
    index on each side of its minimum), widened by :data:`_BOUND_MARGIN`
    frequencies, and the bound itself is then evaluated on those candidates
    only, with the same expression as on every frequency; if a candidate at
    the edge of a run passes (rounding moved an end), every frequency is
    evaluated.  The same frequencies as evaluating all ``size`` of them,
    in O(passing) instead of O(size).
    """
    top = size // 2
    scale = 1.0 / size  # fftfreq's and rfftfreq's step: freq = j·(1/size)
    tau = math.exp(math.log(_FOURIER_EPS) / m) - other
    s, dl = pp + pm, pp - pm

    def passes(j):  # the quadratic form of the bound, on one frequency index (a scalar: math, not numpy)
        c = math.cos(2 * math.pi * (j * scale))
        return (rest + s * c) ** 2 + dl * dl * (1 - c * c) > tau * tau

    def full():
        freq = sfft.rfftfreq(size) if last else sfft.fftfreq(size)
        theta = 2 * np.pi * freq
        idx = np.flatnonzero(_axis_bound_passes(theta, pp, pm, rest, other, m))
        return idx, theta[idx]

    if tau <= 0 or size <= 16 * _BOUND_MARGIN:
        return full()
    # Index of the quadratic's minimum over c = cos(2πj/size), j in 0 … top.
    a2 = s * s - dl * dl
    c_min = -rest * s / a2 if a2 > 0 else -1.0
    j_min = int(round(math.acos(min(max(c_min, -1.0), 1.0)) / (2 * math.pi * scale)))
    j_min = min(max(j_min, 0), top)

    def last_passing(lo, hi):  # passes(lo) and not passes(hi), lo < hi: the last j that passes
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if passes(mid) else (lo, mid)
        return lo

    def first_passing(lo, hi):  # not passes(lo) and passes(hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if passes(mid) else (mid, hi)
        return hi

    if passes(j_min):
        return full()
    low_end = last_passing(0, j_min) if passes(0) else -1  # runs 0 … low_end and high_start … top
    high_start = first_passing(j_min, top) if passes(top) else top + 1
    k1 = min(low_end + _BOUND_MARGIN, top)
    k2 = max(high_start - _BOUND_MARGIN, 0)
    if k1 + 1 >= k2 or (k1 + 1 + top - k2 + 1) * 4 > top:
        return full()
    j = np.r_[np.arange(0, k1 + 1), np.arange(k2, top + 1)]
    if not last:  # fftfreq: 0 … (size − 1)//2 at their own positions, −1 … −(size//2) at size − |j|
        plus_j = j[j <= (size - 1) // 2]
        minus_j = j[j >= 1]
        pos = np.r_[plus_j, size - minus_j]
        freq = np.r_[plus_j, -minus_j] * scale
    else:
        pos, freq = j, j * scale
    theta = 2 * np.pi * freq
    ok = _axis_bound_passes(theta, pp, pm, rest, other, m)
    edges = np.isin(np.abs(np.rint(freq * size)).astype(np.int64), [k1, k2])
    if (ok & edges).any():
        return full()
    order = np.argsort(pos, kind="stable")
    pos, theta, ok = pos[order], theta[order], ok[order]
    return pos[ok], theta[ok]


def _steps_law(m: int, plus, minus, rest: float, rest_is_zero: bool, *, spectrum_only: bool = False):
    """Exact joint pmf of ``m`` i.i.d. lattice steps, by a Fourier transform.

    Each draw moves one coordinate ``k`` by ``+1`` (probability ``plus[k]``) or
    ``−1`` (``minus[k]``), or nothing (``rest``).  The sum ``S`` has the
    characteristic function ``φ(θ) = (rest + Σ_k plus_k·e^{iθ_k} +
    minus_k·e^{−iθ_k})^m``, so on a window ``lo_k … lo_k + L_k − 1`` per axis

        ``P(S = lo + i) = (1/ΠL)·Σ_j φ(−θ_j)·e^{iθ_j·lo}·e^{2πi·j·i/L}``,
        ``θ_j = 2πj/L``,

    an inverse FFT, exact up to the mass outside the window (aliased back in,
    below 1e-20: each window is the mean ± (10 sd + 20), as :func:`_window`)
    and round-off (absolute errors ~1e-17).  Only the frequencies where the
    bound ``|φ| <= (|rest + plus_k e^{iθ_k} + minus_k e^{−iθ_k}| + Σ_{l≠k}(plus_l +
    minus_l))^m`` exceeds :data:`_FOURIER_EPS` are evaluated (a block of a few
    dozen per axis); the power is taken after centring each step at its mean
    so its phase stays small.  Points outside the exact support (a sign that
    no step can give, more moves than draws, the parity when every draw
    moves) are set to 0, and round-off below 0 is clipped.

    Parameters
    ----------
    m : int
        Number of draws.
    plus, minus : sequence of float
        Per axis (one or two axes).
    rest : float
        Probability that a draw moves nothing.
    rest_is_zero : bool
        Whether ``rest`` is exactly zero (decided from integer counts).

    Returns
    -------
    lo : tuple of int
        The value of the first entry on each axis.
    pmf : ndarray
        ``P(S = lo + i)`` (shape: the window widths).
    """
    plus = [float(v) for v in plus]
    minus = [float(v) for v in minus]
    k = len(plus)
    los, widths, sizes, thetas, means = [], [], [], [], []
    moving = sum(plus) + sum(minus)
    for ax in range(k):
        pp, pm = plus[ax], minus[ax]
        d = pp - pm
        var = max(pp + pm - d * d, 0.0)
        half = _WINDOW_SD * np.sqrt(m * var) + _WINDOW_PAD
        lo = max(-m if pm > 0 else 0, int(np.floor(m * d - half)))
        hi = min(m if pp > 0 else 0, int(np.ceil(m * d + half)))
        last = ax == k - 1
        size = sfft.next_fast_len(hi - lo + 1, real=last)
        idx, theta = _axis_frequencies(size, last, pp, pm, rest, moving - pp - pm, m)
        los.append(lo)
        widths.append(hi - lo + 1)
        sizes.append(size)
        thetas.append((idx, theta))
        means.append(d)
    # Transform about an integer origin next to the mean, so that the phase of
    # the m-th power stays small; the shift from that origin to the window's
    # start is an exact multiple of 2π/size, reduced in integers.
    origins = [int(np.rint(m * d)) for d in means]
    grids = np.ix_(*[t for _, t in thetas])
    # The centred step's transform as 1 + dz, with dz accurate near θ = 0 (a
    # plain sum would be 1 ± 1e-16 at θ = 0, and its m-th power 1 ± m·1e-16).
    shape = tuple(t.size for _, t in thetas)
    dz = np.zeros(shape, dtype=np.complex128)
    phase = np.zeros(shape)
    shift = np.zeros(shape)
    for ax in range(k):
        th = grids[ax]
        j = np.ix_(*[i for i, _ in thetas])[ax]
        jj = np.where(j > sizes[ax] // 2, j - sizes[ax], j) if ax < k - 1 else j
        cm1 = -2.0 * np.sin(th / 2) ** 2  # cos θ − 1
        dz = dz + plus[ax] * (cm1 - 1j * np.sin(th)) + minus[ax] * (cm1 + 1j * np.sin(th))
        phase = phase + th * means[ax]
        exact = (jj * (los[ax] - origins[ax])) % sizes[ax]  # θ·(lo − origin) = 2π·exact/size
        shift = shift + th * (origins[ax] - m * means[ax]) + 2 * np.pi * exact / sizes[ax]
    if spectrum_only:
        # The per-axis bound keeps a rectangle about twice as wide as needed on
        # each axis (the other axes at their largest): leave out the frequencies
        # where every term is below the bound itself, |φ| = |1 + dz|^m, before
        # the costly complex power.
        with np.errstate(divide="ignore", invalid="ignore"):
            big = m * 0.5 * np.log1p(2 * dz.real + np.abs(dz) ** 2) > np.log(_FOURIER_EPS)
        keep = [np.flatnonzero(big.any(axis=tuple(o for o in range(k) if o != ax))) for ax in range(k)]
        sel = np.ix_(*keep)
        dz, phase, shift = dz[sel], phase[sel], shift[sel]
        thetas = [(i[kk], t[kk]) for (i, t), kk in zip(thetas, keep)]
    rot_m1 = -2.0 * np.sin(phase / 2) ** 2 + 1j * np.sin(phase)  # e^{i·phase} − 1
    wz = dz * (1 + rot_m1) + rot_m1  # (1 + dz)·e^{i·phase} − 1
    with np.errstate(divide="ignore", invalid="ignore"):
        log_abs = 0.5 * np.log1p(2 * wz.real + np.abs(wz) ** 2)
        arg = np.arctan2(wz.imag, 1 + wz.real)
        psi = np.exp(m * log_abs) * np.exp(1j * (m * arg + shift))
    psi = np.where(np.isfinite(psi), psi, 0.0)
    if spectrum_only:
        return _Spectrum(tuple(los), tuple(widths), tuple(sizes), tuple(i for i, _ in thetas), psi)
    if np.prod([float(v) for v in sizes]) > _JOINT_MAX:
        raise InputError(
            f"The exact full-bootstrap law of this threshold pair needs a table of "
            f"{' x '.join(str(v) for v in sizes)} probabilities (more than {_JOINT_MAX:,}): "
            "use bootstrap='stratified', or a smaller bootstrap size m."
        )
    spec_shape = tuple(sizes[:-1]) + (sizes[-1] // 2 + 1,)
    spec = np.zeros(spec_shape, dtype=np.complex128)
    spec[np.ix_(*[i for i, _ in thetas])] = psi
    out = sfft.irfftn(spec, s=sizes)  # entry i: S = lo + i
    pmf = np.maximum(out[tuple(slice(0, wd) for wd in widths)], 0.0)
    # Exact support: |S|_1 <= m, and the parity when every draw moves (the
    # signs no step can give are outside the windows already).
    reach = sum(max(abs(lo), abs(lo + wd - 1)) for lo, wd in zip(los, widths))
    if reach > m or rest_is_zero:
        coords = np.ix_(*[lo + np.arange(wd) for lo, wd in zip(los, widths)])
        spare = m - sum(np.abs(c) for c in coords)
        ok = spare >= 0
        if rest_is_zero:
            pairs = any(plus[ax] > 0 and minus[ax] > 0 for ax in range(k))
            ok = ok & (spare % 2 == 0) & ((spare == 0) | pairs)
        pmf[~np.broadcast_to(ok, pmf.shape)] = 0.0
    return tuple(los), pmf


def _passing_frequencies(size: int, s, dl, rest, tau2):
    """Candidate frequencies ``j`` (of ``0 … size//2``) where ``|z(θ_j)|² > τ²`` may hold for some row.

    ``|z(θ)|² = (rest + s·c)² + δ²(1 − c²)``, ``c = cos θ`` (``s = plus + minus``,
    ``δ = plus − minus``; arrays, one value per row), is a convex quadratic in
    ``c``: the frequencies where it exceeds ``τ²`` form a run from ``j = 0``
    and a run from ``j = size//2``.  Their ends are found for every row at once
    by bisection on ``j`` (each side of the quadratic's minimum), and the union
    over the rows is widened by :data:`_BOUND_MARGIN` frequencies.  Returns
    ``(j, k1)``: the candidates ``0 … k1`` and ``k2 … size//2`` (``j[k1]`` and
    ``j[k1 + 1]`` are the two edges, which must not pass; the caller checks),
    or None when the runs cover most frequencies (then all are evaluated).
    """
    top = size // 2
    s, dl, rest = (np.asarray(v, dtype=np.float64) for v in (s, dl, rest))
    if top < 16 * _BOUND_MARGIN or not 0 < tau2 < 1:
        return None

    def passes(j):
        c = np.cos(2 * np.pi * j / size)
        return (rest + s * c) ** 2 + dl * dl * (1 - c * c) > tau2

    a2 = s * s - dl * dl
    with np.errstate(divide="ignore", invalid="ignore"):
        c_min = np.where(a2 > 0, -rest * s / np.where(a2 > 0, a2, 1.0), -1.0)
    j_min = np.clip(np.rint(np.arccos(np.clip(c_min, -1.0, 1.0)) * size / (2 * np.pi)), 0, top).astype(np.int64)
    if passes(j_min).any():
        return None
    low = passes(np.zeros_like(j_min))
    high = passes(np.full_like(j_min, top))
    lo, hi = np.zeros_like(j_min), j_min.copy()  # low run: passes(lo), not passes(hi)
    while (hi - lo > 1).any():
        mid = (lo + hi) // 2
        ok = passes(mid)
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
    low_end = np.where(low, lo, -1)
    lo, hi = j_min.copy(), np.full_like(j_min, top)  # high run: not passes(lo), passes(hi)
    while (hi - lo > 1).any():
        mid = (lo + hi) // 2
        ok = passes(mid)
        lo, hi = np.where(ok, lo, mid), np.where(ok, mid, hi)
    high_start = np.where(high, hi, top + 1)
    k1 = min(int(low_end.max()) + _BOUND_MARGIN, top)
    k2 = max(int(high_start.min()) - _BOUND_MARGIN, 0)
    if k1 + 1 >= k2 or (k1 + 1 + top - k2 + 1) * 4 > top:
        return None
    return np.r_[np.arange(0, k1 + 1), np.arange(k2, top + 1)], k1


def _windows_1d(m: int, plus, minus) -> tuple[np.ndarray, np.ndarray]:
    """Windows ``lo … hi`` of :func:`_steps_laws_1d`: the mean ``m·d`` ± (:data:`_WINDOW_SD`·sd +
    :data:`_WINDOW_PAD`), ``d = plus − minus``, ``sd² = m·(plus + minus − d²)``, within the support."""
    plus, minus = np.asarray(plus, dtype=np.float64), np.asarray(minus, dtype=np.float64)
    d = plus - minus
    var = np.maximum(plus + minus - d * d, 0.0)
    half = _WINDOW_SD * np.sqrt(m * var) + _WINDOW_PAD
    lo = np.maximum(np.where(minus > 0, -m, 0), np.floor(m * d - half)).astype(np.int64)
    hi = np.minimum(np.where(plus > 0, m, 0), np.ceil(m * d + half)).astype(np.int64)
    return lo, hi


def _steps_laws_1d(m: int, plus, minus, rest, rest_is_zero, width: int | None = None):
    """:func:`_steps_law` on one axis for K step laws at once (arrays of shape (K,)).

    The same transform, windows (:func:`_windows_1d`) and exact-support rules,
    on one FFT size for all (the largest window's, or that of ``width``, the
    widest window of a larger batch this one is part of: a longer period only
    aliases less, and each row is the same whichever batch it is computed in);
    terms of modulus below :data:`_FOURIER_EPS` are left out.  Returns ``lo``
    (K,), ``widths`` (K,) and ``pmf`` (K, width): ``P(S_k = lo_k + i) =
    pmf[k, i]``, 0 past each row's width.
    """
    plus, minus = np.asarray(plus, dtype=np.float64), np.asarray(minus, dtype=np.float64)
    rest = np.asarray(rest, dtype=np.float64)
    d = plus - minus
    lo, hi = _windows_1d(m, plus, minus)
    widths = hi - lo + 1
    width = int(widths.max()) if width is None else int(width)
    size = sfft.next_fast_len(width, real=True)
    origins = np.rint(m * d).astype(np.int64)
    tau2 = np.exp(np.log(_FOURIER_EPS) / m) ** 2

    def transform(j):
        """ψ at the frequencies ``j`` (and whether each term passes :data:`_FOURIER_EPS`)."""
        th = (2 * np.pi * j / size)[None, :]
        cm1 = -2.0 * np.sin(th / 2) ** 2  # cos θ − 1
        sin = np.sin(th)
        dz = plus[:, None] * (cm1 - 1j * sin) + minus[:, None] * (cm1 + 1j * sin)
        phase = th * d[:, None]
        exact = (j[None, :] * (lo - origins)[:, None]) % size  # θ·(lo − origin) = 2π·exact/size
        shift = th * (origins - m * d)[:, None] + 2 * np.pi * exact / size
        rot_m1 = -2.0 * np.sin(phase / 2) ** 2 + 1j * np.sin(phase)  # e^{i·phase} − 1
        wz = dz * (1 + rot_m1) + rot_m1  # (1 + dz)·e^{i·phase} − 1
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            log_abs = 0.5 * np.log1p(2 * wz.real + np.abs(wz) ** 2)
            arg = np.arctan2(wz.imag, 1 + wz.real)
            psi = np.exp(m * log_abs) * np.exp(1j * (m * arg + shift))
        return psi, np.isfinite(psi) & (m * log_abs > np.log(_FOURIER_EPS))

    top = size // 2
    cand = _passing_frequencies(size, plus + minus, d, rest, tau2)
    if cand is not None:
        (j, k1) = cand
        psi, keep = transform(j)
        if keep[:, k1].any() or keep[:, k1 + 1].any():  # an end moved past the margin: every frequency
            cand = None
        else:
            full = np.zeros((plus.size, top + 1), dtype=np.complex128)
            full[:, j] = np.where(keep, psi, 0.0)
            psi = full
    if cand is None:
        psi, keep = transform(np.arange(top + 1))
        psi = np.where(keep, psi, 0.0)
    pmf = np.maximum(sfft.irfft(psi, n=size, axis=1)[:, :width], 0.0)
    col = np.arange(width)[None, :]
    ok = col < widths[:, None]
    # Exact support: |S| <= m, and the parity when every draw moves.
    spare = m - np.abs(lo[:, None] + col)
    ok &= spare >= 0
    rest_is_zero = np.asarray(rest_is_zero, dtype=bool)
    pairs = (plus > 0) & (minus > 0)
    ok &= ~rest_is_zero[:, None] | ((spare % 2 == 0) & ((spare == 0) | pairs[:, None]))
    return lo, widths, np.where(ok, pmf, 0.0)


#: Entries (rows × columns) of the per-pair law tables computed at once; beyond, the pairs (or the
#: frequencies) are taken in blocks, so memory stays near this many complex numbers per array whatever
#: the sample size (the windows grow as ``sqrt(m)``).
_LAW_BLOCK = 1 << 21
#: Entries (points × window) of the arrays of one batch of operating points in
#: :func:`_stratified_p_below_zero` (each point's value does not depend on the batch).
_POINT_BLOCK = 1 << 20


def _stratified_p_below_zero(cells, n_pos: int, n_neg: int, m, pair, a, b) -> np.ndarray:
    """Stratified bootstrap: ``P(a_q·X + b_q·Y < 0)`` (ties within :data:`TIE_TOL` not below)
    at operating points ``q`` whose threshold pair is ``pair[q]``, a row of ``cells``
    ``(na+, nb+, na−, nb−)``: ``X = B+* − A+*`` and ``Y = A−* − B−*`` independent.

    The same numbers as ``_paired_law(...).cdf(0, a, b, strict=True)`` for each
    point (up to round-off), with the laws of every pair computed in batches
    (:func:`_steps_laws_1d`, one FFT size for all) and ``Σ_x P(X = x)·P(Y <= J(x))``
    evaluated for all points at once.  Pairs are taken in blocks of at most
    :data:`_LAW_BLOCK` table entries (each point's value does not depend on the
    block it is computed in).
    """
    m_pos, m_neg = m
    na_p, nb_p, na_n, nb_n = (cells[:, i].astype(np.int64) for i in range(4))
    rest_p, rest_n = n_pos - na_p - nb_p, n_neg - na_n - nb_n
    qx = (nb_p / n_pos, na_p / n_pos, rest_p / n_pos, rest_p == 0)
    qy = (na_n / n_neg, nb_n / n_neg, rest_n / n_neg, rest_n == 0)
    lo, hi = _windows_1d(m_pos, qx[0], qx[1])
    width_x = int((hi - lo + 1).max())
    lo, hi = _windows_1d(m_neg, qy[0], qy[1])
    width_y = int((hi - lo + 1).max())
    per_block = max(1, _LAW_BLOCK // max(width_x, width_y))
    out = np.empty(pair.size)
    for first in range(0, cells.shape[0], per_block):
        block = slice(first, first + per_block)
        x0, _, px = _steps_laws_1d(m_pos, *(v[block] for v in qx), width=width_x)
        y0, _, py = _steps_laws_1d(m_neg, *(v[block] for v in qy), width=width_y)
        cy = np.minimum(np.cumsum(py, axis=1), 1.0)
        c = np.where(px > _ROW_EPS, px, 0.0)
        wy = cy.shape[1]
        points = np.flatnonzero((pair >= first) & (pair < first + per_block))
        step = max(1, _POINT_BLOCK // px.shape[1])
        for s0 in range(0, points.size, step):
            q = points[s0:s0 + step]
            g = pair[q] - first
            x = x0[g][:, None] + np.arange(px.shape[1])[None, :]
            t = -a[q][:, None] * x
            lo_y = y0[g][:, None]
            bq = b[q][:, None]
            with np.errstate(divide="ignore", invalid="ignore"):
                j = np.where(bq > 0, np.ceil((t - TIE_TOL) / np.where(bq > 0, bq, 1.0)) - 1,
                             np.where(t > TIE_TOL, lo_y + wy, lo_y - 1))
            jj = (np.clip(j, lo_y - 1, lo_y + wy - 1) - lo_y).astype(np.int64)
            val = np.where(jj < 0, 0.0, np.take_along_axis(cy[g], np.maximum(jj, 0), axis=1))
            out[q] = np.einsum("qx,qx->q", c[g], val)
    return out


@functools.lru_cache(maxsize=8)
def _roots_minus_one(size: int) -> np.ndarray:
    """``e^{2πi·k/L} − 1`` for ``k = 0 … L − 1`` (``L = size``), written with sines (accurate near 0):
    ``−2·sin²(πk/L) + i·sin(2πk/L)``.  Read-only; kept for the last few sizes (the laws of one call share
    their transform sizes more often than not)."""
    ang = 2 * np.pi * np.arange(size) / size
    roots = -2.0 * np.sin(ang / 2) ** 2 + 1j * np.sin(ang)
    roots.setflags(write=False)
    return roots


@dataclass(frozen=True)
class _Spectrum:
    """The significant block of a two-dimensional step law's transform (see :func:`_steps_law`)."""

    los: tuple
    widths: tuple
    sizes: tuple
    freqs: tuple  # frequency indices per axis (the last axis: 0 … size//2)
    psi: np.ndarray

    def below(self, v: float, a: float, b: float, *, strict: bool) -> float:
        """``P(a·X + b·Y <= v)`` (``< v`` if strict), ties within :data:`TIE_TOL`, without the table.

        Parseval on the window: ``Σ_{x,y} h(x, y)·P(x, y) = (1/N)·Re Σ_j c_j·ψ_j·H_j``
        with ``h`` the indicator of the half-plane, ``c_j`` = 1 on the zero
        (and Nyquist) column of the half spectrum and 2 elsewhere, and
        ``H_j = Σ_x e^{2πi·j₀x/L₀}·Σ_{y <= J(x)} e^{2πi·j₁y/L₁}`` (a geometric
        sum in ``y``): one inverse FFT of the R × C significant frequencies (a
        few dozen each) per law, then O(W·C) per evaluation, instead of the
        O(W² log W) table.  The result equals the
        table's up to round-off (~1e-16) and the aliased mass (< 1e-20).
        """
        return float(self.below_lines(v, np.array([a]), np.array([b]), strict=strict)[0])

    def below_lines(self, v: float, a: np.ndarray, b: np.ndarray, *, strict: bool) -> np.ndarray:
        """:meth:`below` for several lines at once: ``P(a_q·X + b_q·Y <= v)`` for each ``q``."""
        (x0, y0), (w0, w1) = self.los, self.widths
        f1, roots, rows, zero, coef = self._tables
        x = x0 + np.arange(w0)
        t = v - a[:, None] * x[None, :]
        count = np.zeros((a.size, self.sizes[0]), dtype=f1.dtype)  # top + 1 (0 past the window)
        for q in range(a.size):
            if b[q] <= 0:
                hit = (t[q] > TIE_TOL) if strict else (t[q] >= -TIE_TOL)
                count[q, :w0] = np.where(hit, w1, 0)
            else:
                j = np.ceil((t[q] - TIE_TOL) / b[q]) - 1 if strict else np.floor((t[q] + TIE_TOL) / b[q])
                count[q, :w0] = np.clip(j - y0, -1, w1 - 1) + 1
        # Geometric sums Σ_{i=0}^{top(x)} e^{2πi·j1·i/L1} = (e^{2πi·j1·count/L1} − 1)/(e^{2πi·j1/L1} − 1):
        # the numerators looked up in a table of e^{2πi·k/L1} − 1, the angle reduced in integers,
        # the denominators folded into the stored rows (column j1 = 0: the count itself).
        # Re Σ Q'·num with Q' = conj(rows): a dot product of the float views (einsum, not BLAS:
        # a threaded BLAS dot is tens of times slower on a busy machine).
        # Beyond :data:`_LAW_BLOCK` entries the rows are transformed (and summed) a block of
        # frequencies at a time, so memory stays bounded whatever the windows.
        if rows is not None:
            blocks = [(f1, rows)]
        else:
            per = max(1, _LAW_BLOCK // self.sizes[0])
            blocks = ((f1[i:i + per], self._fft_rows(coef[i:i + per])) for i in range(0, f1.size, per))
        out = np.zeros(a.size)
        for freqs, block in blocks:
            flat_rows = block.view(np.float64).ravel()
            for q in range(a.size):
                k = np.multiply.outer(freqs, count[q])
                np.remainder(k, self.sizes[1], out=k)
                out[q] += np.einsum("i,i->", flat_rows, np.take(roots, k).view(np.float64).ravel())
        if zero is not None:
            for q in range(a.size):
                out[q] += np.einsum("i,i->", count[q, :w0].astype(np.float64), zero.real)
        return out / (self.sizes[0] * self.sizes[1])

    def _fft_rows(self, coef: np.ndarray) -> np.ndarray:
        """``Q'[j1, x]`` for the frequencies of ``coef`` (rows: ``c_{j1}·ψ[·, j1]/(e^{2πi·j1/L1} − 1)``,
        conjugated, at the significant ``j0``): one FFT along ``x`` (see :attr:`_tables`)."""
        full = np.zeros((coef.shape[0], self.sizes[0]), dtype=np.complex128)
        full[:, np.asarray(self.freqs[0], dtype=np.int64)] = coef
        # All L0 columns are kept (contiguous, for the dot product of :meth:`below`); the
        # columns past the window meet a zero count there.
        return sfft.fft(full, axis=1, overwrite_x=True)

    @property
    def _small(self) -> bool:
        """Whether ``count·j1 < L1²`` fits in 32-bit integers (faster remainders)."""
        return self.sizes[1] ** 2 < 2**31

    @functools.cached_property
    def _tables(self):
        """What :meth:`below` needs besides the half-plane, computed once per law.

        ``Q[x, j1] = c_{j1}·Σ_{j0} ψ[j0, j1]·e^{2πi·j0·x/L0}`` on the rows ``x`` (one
        FFT along the first axis; ``c`` = 1 on the zero and Nyquist columns of the half
        spectrum, 2 elsewhere), divided by ``e^{2πi·j1/L1} − 1`` and conjugated, laid out
        (frequency, row); the zero column ``Q[:, 0]`` apart; and the table of
        ``e^{2πi·k/L1} − 1``, ``k = 0 … L1 − 1``, written with sines (accurate near 0).
        Returns ``(f1, roots, rows, zero, coef)``: ``rows`` is None when the table would
        hold more than :data:`_LAW_BLOCK` entries (:meth:`below_lines` then transforms
        ``coef``, the significant coefficients, a block of frequencies at a time).
        """
        (w0, _), (l0, l1), (f0, f1) = self.widths, self.sizes, self.freqs
        f0, f1 = np.asarray(f0, dtype=np.int64), np.asarray(f1, dtype=np.int64)
        weight = np.where((f1 == 0) | (2 * f1 == l1), 1.0, 2.0)
        at_zero = f1 == 0
        zero = None
        if at_zero.any():
            col = np.zeros(l0, dtype=np.complex128)
            col[f0] = self.psi[:, at_zero][:, 0] * weight[at_zero][0]
            zero = l0 * sfft.ifft(col)[:w0]
        f1, psi, weight = f1[~at_zero], self.psi[:, ~at_zero], weight[~at_zero]
        step = 2 * np.pi * f1 / l1
        den = -2.0 * np.sin(step / 2) ** 2 + 1j * np.sin(step)  # e^{2πi·j1/L1} − 1
        # conj(L0·ifft(u)) = fft(conj(u)): the rows come out conjugated, with no pass over them.
        coef = np.conj(psi * (weight / den)[None, :]).T
        rows = self._fft_rows(coef) if f1.size * l0 <= _LAW_BLOCK else None  # else by blocks, in below_lines
        roots = _roots_minus_one(l1)
        if self._small:
            f1 = f1.astype(np.int32)
        return f1, roots, rows, zero, coef


#: ``P(ΔC* < 0)`` is reported as exactly 0 or 1 when a Chernoff bound puts it
#: within this distance of it: the same order as the mass the windows leave out.
_DECIDED_EPS = 1e-20
#: Multiples of the Gaussian optimum ``|E|/Var`` tried as Chernoff exponents.
_CHERNOFF_STEPS = np.array([0.25, 0.5, 0.7, 0.85, 1.0, 1.2, 1.5, 2.0, 3.0])


def _decided_below_zero(groups) -> np.ndarray:
    """``P(S < 0)`` where a Chernoff bound puts it within :data:`_DECIDED_EPS` of 0 or 1
    (that value), NaN elsewhere; for ``K`` sums ``S`` at once.

    Each ``S`` is a sum of independent groups of ``m`` i.i.d. steps, a group given
    as ``(m, values, probabilities)``, arrays of shape (K, steps) (a step is 0
    with the remaining probability): for two models' cost difference, ``ΔC*``
    at K operating points (:func:`compare_cost`).  Chernoff: for ``λ > 0``,
    ``P(S <= 0) <= E[e^{−λS}]`` and ``P(S >= −τ) <= e^{λτ}·E[e^{λS}]``, with
    ``log E[e^{±λS}] = Σ m·log1p(Σ r·expm1(±λv))`` exact up to round-off;
    ``τ = 2·TIE_TOL`` covers the values within the tie tolerance of 0, which
    count as not below it.  A few exponents around the Gaussian optimum
    ``|E[S]|/Var(S)`` are tried (any ``λ > 0`` gives a valid bound).  The exact
    law is then needed only where ``P(ΔC* < 0)`` is not decided, typically the
    operating points where the two costs are within ten standard deviations
    of each other.
    """
    mean = sum(m * (v * r).sum(axis=1) for m, v, r in groups)
    var = sum(m * ((v * v * r).sum(axis=1) - (v * r).sum(axis=1) ** 2) for m, v, r in groups)
    out = np.full(mean.shape, np.nan)
    ok = (var > 0) & (mean != 0)
    if not ok.any():
        return out
    sign = np.where(mean > 0, -1.0, 1.0)[ok]  # bound P(S <= 0) when E[S] > 0, P(S >= −τ) when E[S] < 0
    lam = (np.abs(mean[ok]) / var[ok])[:, None] * _CHERNOFF_STEPS[None, :]  # (K, L)
    with np.errstate(over="ignore", invalid="ignore"):
        log_bound = sum(m * np.log1p((np.expm1((sign[:, None] * lam)[:, :, None] * v[ok][:, None, :])
                                      * r[ok][:, None, :]).sum(axis=2))
                        for m, v, r in groups)
        log_bound = log_bound + np.where(sign > 0, 2 * TIE_TOL, 0.0)[:, None] * lam
    best = np.min(np.where(np.isfinite(log_bound), log_bound, np.inf), axis=1)
    out[ok] = np.where(best < np.log(_DECIDED_EPS), np.where(mean[ok] > 0, 0.0, 1.0), np.nan)
    return out


def _paired_p_below(cells_pos, cells_neg, n_pos: int, n_neg: int, m: int):
    """Full bootstrap: the transform block of ``(B+* − A+*, A−* − B−*)``, for
    :meth:`_Spectrum.below` (the law itself is :func:`_paired_law`)."""
    na_p, nb_p = (int(v) for v in cells_pos)
    na_n, nb_n = (int(v) for v in cells_neg)
    n = n_pos + n_neg
    rest = n - na_p - nb_p - na_n - nb_n
    return _steps_law(m, [nb_p / n, na_n / n], [na_p / n, nb_n / n], rest / n, rest == 0, spectrum_only=True)


def _paired_law(cells_pos, cells_neg, n_pos: int, n_neg: int, bootstrap: str, m) -> _Lattice:
    """Law of ``(X, Y) = (B+* − A+*, A−* − B−*)`` for two models at a threshold pair.

    ``ΔC* = C_a* − C_b* = a·X + b·Y`` (:func:`compare_cost`, A − B).

    Every draw moves ``X`` by ±1 (a paired cell of the positives), ``Y`` by ±1
    (a paired cell of the negatives) or nothing, so the laws are those of sums
    of lattice steps (:func:`_steps_law`): stratified, two independent
    one-dimensional laws of ``m+`` and ``m−`` draws; full, one two-dimensional
    law of ``m`` draws over the six cells, O(W² log W) for windows of width W
    (instead of the O(W³) mixture over the number of positives drawn, kept in
    :func:`_paired_law_direct`).
    """
    na_p, nb_p = (int(v) for v in cells_pos)
    na_n, nb_n = (int(v) for v in cells_neg)
    if bootstrap == "stratified":
        m_pos, m_neg = m
        rest_p, rest_n = n_pos - na_p - nb_p, n_neg - na_n - nb_n
        (x0,), cx = _steps_law(m_pos, [nb_p / n_pos], [na_p / n_pos], rest_p / n_pos, rest_p == 0)
        (y0,), py = _steps_law(m_neg, [na_n / n_neg], [nb_n / n_neg], rest_n / n_neg, rest_n == 0)
        keep = cx > _ROW_EPS
        x = x0 + np.flatnonzero(keep)
        return _Lattice.from_tables(cx[keep], x, np.zeros(x.size, dtype=np.int64), y0, py[None, :])
    n = n_pos + n_neg
    rest = n - na_p - nb_p - na_n - nb_n
    (x0, y0), joint = _steps_law(m, [nb_p / n, na_n / n], [na_p / n, nb_n / n], rest / n, rest == 0)
    heavy = np.flatnonzero(joint.sum(axis=1) > _ROW_EPS)
    rows = slice(heavy[0], heavy[-1] + 1)  # a contiguous range: no copy
    return _Lattice.from_joint(x0 + np.arange(joint.shape[0])[rows], y0, joint[rows])


def _paired_law_direct(cells_pos, cells_neg, n_pos: int, n_neg: int, bootstrap: str, m) -> _Lattice:
    """Law of ``(X, Y) = (B+* − A+*, A−* − B−*)`` by direct summation (the earlier route).

    Kept as the reference of :func:`_paired_law` (tests compare the two to
    1e-12): binomial sums per class, and for the full bootstrap a mixture over
    the number of positives drawn, one matrix product of O(window³) work.
    """
    na_p, nb_p = cells_pos
    na_n, nb_n = cells_neg
    qa_p, qb_p = na_p / n_pos, nb_p / n_pos
    qa_n, qb_n = na_n / n_neg, nb_n / n_neg
    if bootstrap == "stratified":
        m_pos, m_neg = m
        x0, cx = _diff_law(m_pos, qb_p, qa_p)
        y0, py = _diff_law(m_neg, qa_n, qb_n)
        x = x0 + np.arange(cx.size)
        return _Lattice.from_tables(cx, x, np.zeros(x.size, dtype=np.int64), y0, py[None, :])
    # Full: the number N+* of positives drawn is Bin(m, π+); given N+* = k the
    # two classes are independent stratified samples of sizes k and m − k.
    pi_pos = n_pos / (n_pos + n_neg)
    k0, k1 = (int(v) for v in _window(m, pi_pos))
    ks = np.arange(k0, k1 + 1)
    ck = stats.binom.pmf(ks, m, pi_pos)
    x0, px = _diff_laws(k0, k1, qb_p, qa_p)  # rows: k = k0 … k1
    y0, py = _diff_laws(m - k1, m - k0, qa_n, qb_n)  # rows: m − k = m − k1 … m − k0
    py = py[::-1]  # row i now belongs to k = k0 + i
    # Joint pmf P(U = u, V = v) = Σ_k P(N+* = k)·P(U_k = u)·P(V_{m−k} = v): one
    # matrix product, after which the law is a table like the stratified one.
    joint = (px * ck[:, None]).T @ py
    cu = joint.sum(axis=1)
    keep = cu > _ROW_EPS
    x = x0 + np.flatnonzero(keep)
    table = joint[keep] / cu[keep, None]
    return _Lattice.from_tables(cu[keep], x, np.arange(x.size), y0, table)


