"""Laws of ΔTPR* = (A − B)/m+ mixed over the joint law of the two thresholds (paired vertical averaging):
cell by cell (:func:`_mixture_difference_pmf`) or through characteristic functions at the frequencies where
each component matters (:func:`_difference_mixture_pmf`)."""

from __future__ import annotations

import numpy as np
from scipy.fft import irfft, next_fast_len

from .._core.paired_order import _bernstein
from .laws import difference_pmf


def _mixture_difference_pmf(weights, p_a, p_b, m: int) -> np.ndarray:
    """``Σ_c w_c · P(A − B = d | p_a[c], p_b[c])`` over ``d = −m, …, m``
    (each component by :func:`rocci.compare.difference_pmf`)."""
    out = np.zeros(2 * m + 1)
    for w, pa, pb in zip(weights, p_a, p_b):
        d, pmf = difference_pmf(m, float(pa), float(pb))
        out[d + m] += w * pmf
    return out


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
