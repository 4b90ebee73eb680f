"""Precision at fixed recall levels: the PR analogue of vertical averaging (issue 14, part 2).

In a stratified bootstrap sample the threshold giving recall ``r/m+`` is
``T_r``, the r-th largest positive score drawn.  With the positives sorted
decreasingly ``s_1 >= … >= s_n+`` (ties broken by position),

``P(T_r = s_k) = B(r − 1; m+, (k − 1)/n+) − B(r − 1; m+, k/n+)``   (thesis eq. 4.11, classes swapped)

and, given ``T_r = s_k``, the false positives are ``FP* ~ Bin(m−, q_k)`` with
``q_k`` the share of negatives scoring ``>= s_k``.  The precision at that level
is ``r/(r + FP*)``, whose law is the binomial mixture

``P(prec* = r/(r + f)) = Σ_k P(T_r = s_k) · b(f; m−, q_k)``,

the law of :func:`rocci.vertical_ci` with the classes' roles swapped and the
map ``f ↦ r/(r + f)`` applied; the same kernels (:func:`rocci.exact.order_statistic_law`,
:func:`rocci.exact.mixture_quantile`) compute it.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import InputError, check_binary, check_choice, check_confidence_level, check_m
from ..counts import score_counts
from ..exact import (
    QUANTILE_TOL,
    _boost_binom_pmf,
    _outward_ratio_products,
    compress_mixture,
    mixture_moments,
    mixture_pmf,
    mixture_quantile,
    mixture_skewness,
    order_statistic_law,
)
from ._laws import Law, binomial_window
from ._results import RecallPrecisionCI

__all__ = ["precision_at_recall", "recall_levels", "DEFAULT_RECALL"]

#: Recall levels used when none are given.
DEFAULT_RECALL = np.round(np.linspace(0.01, 0.99, 99), 2)

#: Elements of one block of binomial pmf rows (memory stays near 64 MB).
_BLOCK = 1 << 23


def recall_levels(recall, m_pos: int) -> np.ndarray:
    """Map recall values to levels ``r`` of ``r/m+`` (nearest ``r``, clipped to ``1..m+``)."""
    values = np.atleast_1d(np.asarray(DEFAULT_RECALL if recall is None else recall))
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"recall must hold numbers between 0 and 1; got {recall!r}.") from None
    if values.ndim != 1 or values.size == 0:
        raise InputError("recall must be a non-empty list of recall levels between 0 and 1, e.g. [0.5, 0.9].")
    if (~np.isfinite(values)).any() or ((values < 0) | (values > 1)).any():
        raise InputError(f"recall values must lie in [0, 1]; got {values.tolist()!r}.")
    r = np.clip(np.rint(values * m_pos), 1, m_pos).astype(np.int64)
    return np.unique(r) if recall is None else r


#: Largest ``components × window`` summed term by term; larger mixtures interpolate the components' moments.
_DIRECT = 1 << 16
#: Chebyshev nodes tried in turn, and the relative size of the last coefficients that stops the doubling.
_NODES = (16, 32, 64, 128)
_CHEB_TOL = 1e-13


def _pmf_rows(m: int, q: np.ndarray, lo: np.ndarray, hi: np.ndarray, width: int) -> np.ndarray:
    """``b(lo_j + t; m, q_j)`` for t = 0 … width − 1 (0 past ``hi_j``): one boost pmf per row, at the row's
    mode, and the ratios ``b(f + 1)/b(f) = (m − f)/(f + 1)·q/(1 − q)`` multiplied outwards from it
    (:func:`rocci.exact._outward_ratio_products`: no product exceeds 1; a few ulp per step)."""
    f = lo[:, None] + np.arange(width)[None, :]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        up = (m - f) / (f + 1.0) * (q / (1.0 - q))[:, None]
        a = (np.clip(np.floor((m + 1.0) * q), lo, hi) - lo).astype(np.int64)
        pmf = _outward_ratio_products(up, a)
    pmf *= _boost_binom_pmf((lo + a).astype(np.float64), float(m), q)[:, None]
    pmf[(f > hi[:, None]) | ~np.isfinite(pmf)] = 0.0
    return pmf


def _component_moments(r: int, q: np.ndarray, m: int, centre: float):
    """``h_k(q_j) = Σ_f b(f; m, q_j)·(r/(r + f) − centre)^k``, k = 1, 2, each over the window of ``Bin(m, q_j)``
    (1e-17 per tail), in blocks of components."""
    lo, hi, _ = binomial_window(m, q)
    width = int((hi - lo).max()) + 1
    h1, h2 = np.empty(q.size), np.empty(q.size)
    rows = max(1, _BLOCK // width)
    offs = np.arange(width)
    for a in range(0, q.size, rows):  # blocks of mixture components, never of instances
        b = slice(a, a + rows)
        f = lo[b, None] + offs[None, :]
        pmf = _pmf_rows(m, q[b], lo[b], hi[b], width)
        d = r / (r + f) - centre
        h1[b] = (pmf * d).sum(axis=1)
        h2[b] = (pmf * d * d).sum(axis=1)
    return h1, h2


def _interpolated_moments(r: int, q: np.ndarray, m: int, centre: float):
    """``h_1, h_2`` of :func:`_component_moments` at every ``q_j`` (all inside (0, 1)), from their values at
    Chebyshev nodes of ``[min q, max q]``: ``h_k(q) = Σ_f b(f; m, q)·g(f)^k`` is a polynomial in ``q``,
    smooth on the scale of ``q + r/m`` (its pole-like feature sits at ``q = −r/m``), so its Chebyshev series
    on the components' range converges geometrically.  Nodes are doubled until the last three coefficients
    fall below 1e-13 of the largest (the sums at the nodes carry rounding of ~1e-15 of their terms, which
    sets the coefficients' floor); ``None`` if they never do (the caller then sums every component)."""
    a, b = float(q.min()), float(q.max())
    x = (2 * q - (a + b)) / (b - a) if b > a else np.zeros(q.size)
    for n in _NODES:
        nodes = np.cos(np.pi * (np.arange(n) + 0.5) / n)
        qn = np.clip((a + b) / 2 + (b - a) / 2 * nodes, a, b)
        out = []
        for h in _component_moments(r, qn, m, centre):
            coef = 2.0 / n * np.cos(np.pi * np.outer(np.arange(n), np.arange(n) + 0.5) / n) @ h
            coef[0] /= 2
            scale = np.abs(coef).max()
            if scale > 0 and np.abs(coef[-3:]).max() > _CHEB_TOL * scale:
                break
            out.append(np.polynomial.chebyshev.chebval(x, coef))
        else:
            return out
    return None


def _precision_moments(r: int, weights: np.ndarray, q: np.ndarray, m: int, centre: float):
    """Mean and variance of ``r/(r + X)``, ``X ~ Σ_j w_j Bin(m, q_j)``, each component summed over its
    window (1e-17 per tail); also the mass left out."""
    lo, hi, left = binomial_window(m, q)
    inner = (q > 0) & (q < 1)
    if q.size * (int((hi - lo).max()) + 1) > _DIRECT and inner.sum() > 2 * _NODES[-1]:
        moments = _interpolated_moments(r, q[inner], m, centre)
        if moments is not None:
            h1, h2 = np.empty(q.size), np.empty(q.size)
            h1[inner], h2[inner] = moments
            if not inner.all():  # Bin(m, 0) and Bin(m, 1): one value each
                e1, e2 = _component_moments(r, q[~inner], m, centre)
                h1[~inner], h2[~inner] = e1, e2
            total = float(weights.sum())
            mean_d = float(weights @ h1) / total
            return centre + mean_d, max(float(weights @ h2) / total - mean_d * mean_d, 0.0), float(weights @ left)
    width = int((hi - lo).max()) + 1
    s1 = s2 = 0.0
    rows = max(1, _BLOCK // width)
    offs = np.arange(width)
    for a in range(0, q.size, rows):  # blocks of mixture components, never of instances
        b = slice(a, a + rows)
        f = lo[b, None] + offs[None, :]
        pmf = _pmf_rows(m, q[b], lo[b], hi[b], width)
        d = r / (r + f) - centre
        s1 += float(weights[b] @ (pmf * d).sum(axis=1))
        s2 += float(weights[b] @ (pmf * d * d).sum(axis=1))
    total = float(weights.sum())
    mean_d = s1 / total
    return centre + mean_d, max(s2 / total - mean_d * mean_d, 0.0), float(weights @ left)


def _level_law(r: int, weights: np.ndarray, q: np.ndarray, m: int, truncated: float):
    def build() -> Law:
        f, probs = mixture_pmf(weights, q, m)
        return Law(r / (r + f), probs, truncated=truncated)
    return build


def precision_at_recall(y_true, y_score=None, *, recall=None, confidence_level=0.95, method="percentile", m=None,
                        pos_label=None) -> RecallPrecisionCI:
    """Exact bootstrap law of the precision at fixed recall levels (stratified bootstrap).

    At level ``r/m+`` (``1 <= r <= m+``) the bootstrap threshold is ``T_r``, the r-th
    largest positive score drawn, and the precision ``r/(r + FP*)`` with
    ``FP*`` the negative draws scoring ``>= T_r``:

    ``P(FP* = f) = Σ_k P(T_r = s_k) · b(f; m−, q_k)``,
    ``P(T_r = s_k) = B(r − 1; m+, (k − 1)/n+) − B(r − 1; m+, k/n+)``,

    ``q_k = #{negatives >= s_k}/n−`` (module docstring).  Percentile bounds are
    read on ``FP*`` (the precision decreases with it):
    ``low = r/(r + f₊)``, ``high = r/(r + f₋)`` with ``f₊`` the smallest ``f``
    with ``P(FP* <= f) > 1 − α/2`` and ``f₋`` the smallest with ``P(FP* <= f) > α/2``;
    mean and variance are ``Σ_k P(T_r = s_k) Σ_f b(f; m−, q_k) g(f)`` for
    ``g(f) = r/(r + f)`` and its square, each binomial over its 1e-17 window.
    For large mixtures the inner sums ``h(q) = Σ_f b(f; m−, q) g(f)`` (a polynomial in
    ``q``, smooth on the components' range) are computed at Chebyshev nodes and
    interpolated at every ``q_k`` (:func:`_interpolated_moments`; the series' tail below
    1e-13 of its largest coefficient, else every component is summed): about 25 ms per
    level at 10^6 rows.

    Parameters
    ----------
    recall : array_like, optional
        Recall values, each mapped to the nearest level ``r/m+`` with ``1 <= r <= m+``.
        Default 0.01, 0.02, …, 0.99 (duplicates merged).
    method : {"percentile", "wald"}
    m : None, int or (int, int)
        ``(m+, m−)``, default ``n±``.

    Returns
    -------
    RecallPrecisionCI

    Notes
    -----
    **Ties.**  A negative tied with ``T_r`` counts as a false positive
    (``score >= T_r`` is predicted positive, ``docs/conventions.md``).  The recall is
    the nominal ``r/m+`` and the true positives are counted as ``r``, as
    :func:`rocci.vertical_ci` takes the FPR as ``r/m−``: where positives tie at
    ``T_r`` the r positives are those ranked first by the stable order of the
    data.  The observed precision is ``k/(k + #negatives >= s_k)`` at the
    ``k = ⌈recall·n+⌉``-th largest positive score ``s_k`` (the bootstrap rule on
    the data itself).  The precision is always defined (``r >= 1``).
    """
    level = check_confidence_level(confidence_level)
    check_choice("method", method, ("percentile", "wald"))
    pos, neg, _ = check_binary(y_true, y_score, pos_label)
    counts = score_counts(pos, neg)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    r_levels = recall_levels(recall, m_pos)
    s_desc = counts.pos[::-1]
    alpha = 1.0 - level
    z = float(special.ndtri(1 - alpha / 2))
    levels = r_levels / m_pos
    k_obs = np.clip(np.ceil(np.round(levels * n_pos, 9)).astype(np.int64), 1, n_pos)
    thr = s_desc[k_obs - 1]
    observed = k_obs / (k_obs + counts.n_neg_ge(thr))

    h = r_levels.size
    out = {key: np.empty(h) for key in ("mean", "std", "low", "high", "trunc")}
    laws = []
    for i, r in enumerate(r_levels):  # one pass per level, each vectorised over its window
        r = int(r)
        k, w, trunc_k = order_statistic_law(r, m_pos, n_pos)
        q = counts.n_neg_ge(s_desc[k - 1]) / n_neg  # non-decreasing in k
        cw, cq = compress_mixture(w, q)
        mean, var, left = _precision_moments(r, cw, cq, m_neg, float(observed[i]))
        out["mean"][i], out["std"][i] = mean, np.sqrt(var)
        out["trunc"][i] = trunc_k + left
        if method == "percentile":
            fm, fv = mixture_moments(cw, cq, m_neg)
            fsd = np.sqrt(max(fv, 0.0))
            skew = mixture_skewness(cw, cq, m_neg, fm, fsd)
            f_hi = mixture_quantile(1 - alpha / 2 + 2 * QUANTILE_TOL, cw, cq, m_neg, fm, fsd, skew=skew)
            f_lo = mixture_quantile(alpha / 2 + 2 * QUANTILE_TOL, cw, cq, m_neg, fm, fsd, skew=skew)
            out["low"][i], out["high"][i] = r / (r + f_hi), r / (r + f_lo)
        else:
            out["low"][i] = np.clip(mean - z * out["std"][i], 0, 1)
            out["high"][i] = np.clip(mean + z * out["std"][i], 0, 1)
        laws.append(_level_law(r, cw, cq, m_neg, trunc_k))

    return RecallPrecisionCI(
        recall=levels, r=r_levels, threshold=thr, precision=observed, precision_mean=out["mean"],
        precision_std=out["std"], precision_low=out["low"], precision_high=out["high"],
        truncated_mass=out["trunc"], n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, method=method,
        confidence_level=level, _laws=laws,
    )
