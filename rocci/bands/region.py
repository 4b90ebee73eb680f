"""The region a band covers in ROC space, its area, and whether a curve lies inside it.

One definition for every band (exact, Monte Carlo, Campbell, Working–Hotelling,
Bonferroni/Šidák), threshold or vertical: a band is a list of boxes
``[fpr_low_j, fpr_high_j] × [tpr_low_j, tpr_high_j]`` (a vertical interval at
FPR ``x_j`` is the box ``[x_j, x_j] × [low_j, high_j]``).  A ROC curve is
non-decreasing, so if it passes through every box it also lies, at every
``x``, between the two staircases

``U(x) = min{tpr_high_j : fpr_low_j >= x}``  (1 where no box is right of ``x``),
``L(x) = max{tpr_low_j : fpr_high_j <= x}``  (0 where no box is left of ``x``).

The **band region** is ``{(x, y) : 0 <= x <= 1, L(x) <= y <= U(x)}``; a curve
``R`` is *inside the band* when ``L(x) <= R(x) <= U(x)`` for every ``x`` in
[0, 1], and the band's **area** is ``∫₀¹ max(U − L, 0) dx``.

Why this definition: it is the one statement about the *whole* curve that
the boxes justify.  If the true curve meets every box, it is inside the
region (a non-decreasing curve between a box at ``x' >= x`` and one at
``x'' <= x`` is squeezed at ``x``); so a band whose boxes hold jointly at
``1 − α`` has a region that holds at least as often.  Asking instead that
the true point at each data threshold be in its box would judge a threshold
band by points the true curve passes through at other heights whenever the
threshold itself is random, and would not apply to vertical bands at all.
"""

from __future__ import annotations

import numpy as np

__all__ = ["band_envelope", "band_area", "curve_inside"]


def _prepare(fpr_low, fpr_high, tpr_low, tpr_high):
    fl, fh = np.asarray(fpr_low, float), np.asarray(fpr_high, float)
    tl, th = np.asarray(tpr_low, float), np.asarray(tpr_high, float)
    # U: boxes sorted by fpr_low, suffix minima of tpr_high.
    o = np.argsort(fl, kind="stable")
    lo_x = fl[o]
    upper = np.minimum.accumulate(th[o][::-1])[::-1]
    # L: boxes sorted by fpr_high, prefix maxima of tpr_low.
    o = np.argsort(fh, kind="stable")
    hi_x = fh[o]
    lower = np.maximum.accumulate(tl[o])
    return lo_x, upper, hi_x, lower


def _upper_at(x, lo_x, upper):
    i = np.searchsorted(lo_x, x, side="left")
    return np.where(i < lo_x.size, upper[np.minimum(i, lo_x.size - 1)], 1.0)


def _lower_at(x, hi_x, lower):
    i = np.searchsorted(hi_x, x, side="right") - 1
    return np.where(i >= 0, lower[np.maximum(i, 0)], 0.0)


def band_envelope(fpr_low, fpr_high, tpr_low, tpr_high):
    """The staircases ``L`` and ``U`` bounding the band region, for drawing.

    Returns
    -------
    x : ndarray of shape (J + 1,)
        Breakpoints ``0 = x_0 < … < x_J = 1``.
    lower, upper : ndarray of shape (J,)
        ``L`` and ``U`` on each open piece ``(x_{i}, x_{i+1})``; draw them as
        steps (``line_shape="hv"``).  ``U`` may fall below ``L`` where the
        boxes contradict each other (no monotone curve fits there).
    """
    lo_x, upper, hi_x, lower = _prepare(fpr_low, fpr_high, tpr_low, tpr_high)
    x = np.unique(np.clip(np.concatenate([[0.0, 1.0], lo_x, hi_x]), 0.0, 1.0))
    mid = (x[:-1] + x[1:]) / 2
    return x, _lower_at(mid, hi_x, lower), _upper_at(mid, lo_x, upper)


def band_area(fpr_low, fpr_high, tpr_low, tpr_high) -> float:
    """``∫₀¹ max(U(x) − L(x), 0) dx`` (module docstring)."""
    x, lower, upper = band_envelope(fpr_low, fpr_high, tpr_low, tpr_high)
    return float(np.sum(np.diff(x) * np.maximum(upper - lower, 0.0)))


def curve_inside(roc, fpr_low, fpr_high, tpr_low, tpr_high, *, tol: float = 1e-12) -> bool:
    """Whether the non-decreasing curve ``roc`` lies inside the band region.

    ``U`` is constant on ``(b_{i−1}, b_i]`` between consecutive ``fpr_low``
    values and ``roc`` is non-decreasing, so ``roc <= U`` everywhere iff it
    holds at every ``fpr_low`` value; likewise ``roc >= L`` everywhere iff it
    holds at every ``fpr_high`` value.  ``tol`` absorbs rounding only.

    Parameters
    ----------
    roc : callable
        ``roc(x)`` for an array of FPRs, non-decreasing (e.g.
        :meth:`rocci.coverage.populations.Population.roc`).
    """
    lo_x, upper, hi_x, lower = _prepare(fpr_low, fpr_high, tpr_low, tpr_high)
    if np.any(roc(np.clip(lo_x, 0, 1)) > upper + tol):
        return False
    return not np.any(roc(np.clip(hi_x, 0, 1)) < lower - tol)
