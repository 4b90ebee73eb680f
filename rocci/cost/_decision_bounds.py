"""The interval step of the net benefit results, from the counts they keep: the bounds of
:meth:`rocci.cost.NetBenefit.confidence_interval` and :meth:`rocci.cost.NetBenefitComparison.confidence_interval`
at another level, computed as :func:`rocci.net_benefit` and :func:`rocci.compare_net_benefit` compute them
(``tests/test_confidence_interval.py`` checks that they agree)."""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .._core.exact import QUANTILE_TOL


def net_benefit_bounds(res, level: float, method: str) -> dict:
    """``net_benefit_low``, ``net_benefit_high``, ``treat_all_low``, ``treat_all_high`` of the
    :class:`~rocci.cost.NetBenefit` ``res`` at ``level`` by ``method``: the percentile bounds of each
    threshold's exact law (rebuilt from its ``tp``, ``fp``: ``res._law(i)``), ``NB ± z·sd`` with the kept
    exact sd, or Agresti–Coull from the counts and ``res.add``; flagging everyone's interval from ``Bin(m, n+/n)`` (full bootstrap) or the point
    (stratified)."""
    alpha = 1.0 - level
    p = res.thresholds
    nb, std = res.net_benefit, res.net_benefit_std
    if method == "percentile":
        low, high = np.empty(p.size), np.empty(p.size)
        for i in range(p.size):
            low[i], high[i] = res._law(i).quantiles([alpha / 2, 1 - alpha / 2])
    elif method == "agresti-coull":
        low, high = _agresti_coull(res.tp, res.fp, res.n_pos, res.n_neg, p / (1 - p), level, res.bootstrap, res.m_total,
                                   (res.m_pos, res.m_neg), res.add)
    else:
        z = float(special.ndtri(1 - alpha / 2))
        low, high = nb - z * std, nb + z * std
    if res.bootstrap == "full":
        # NB_all* = (P* − odds·(m − P*))/m with P* ~ Bin(m, π+), increasing in P*.
        odds = p / (1 - p)
        n = res.n_pos + res.n_neg
        k_lo, k_hi = (stats.binom.ppf(q, res.m_total, res.n_pos / n) for q in (alpha / 2, 1 - alpha / 2))
        all_low = (k_lo - odds * (res.m_total - k_lo)) / res.m_total
        all_high = (k_hi - odds * (res.m_total - k_hi)) / res.m_total
    else:
        all_low, all_high = res.treat_all.copy(), res.treat_all.copy()
    return dict(net_benefit_low=low, net_benefit_high=high, treat_all_low=all_low, treat_all_high=all_high)


def comparison_bounds(res, level: float) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of the :class:`~rocci.cost.NetBenefitComparison` ``res`` at ``level``: the percentile
    bounds of each threshold's exact paired law of ``ΔNB*`` (rebuilt from its paired cells,
    ``res._law(i)``); 0 where the two models flag the same instances."""
    alpha = 1.0 - level
    low, high = np.empty(res.thresholds.size), np.empty(res.thresholds.size)
    for i in range(res.thresholds.size):
        if not np.any(res.cells[i]):  # the models flag the same instances: ΔNB* = 0 always
            low[i] = high[i] = 0.0
            continue
        law, (a, b) = res._law(i)
        w_hi, w_lo = law.quantiles([1 - alpha / 2 + 2 * QUANTILE_TOL, alpha / 2 + 2 * QUANTILE_TOL], a, b)
        low[i], high[i] = -w_hi + 0.0, -w_lo + 0.0
    return low, high


def _agresti_coull(tp, fp, n_pos: int, n_neg: int, odds, level: float, bootstrap: str, m_full, m_strat,
                   add: float) -> tuple[np.ndarray, np.ndarray]:
    """The Agresti–Coull interval of :func:`net_benefit` (its docstring): Wald at the counts plus ``add``
    per confusion cell, clipped to the net benefit's range."""
    z = float(special.ndtri(0.5 + level / 2))
    n = n_pos + n_neg
    if bootstrap == "full":
        t = (m_full * tp / n + add) / (m_full + 4 * add)  # pseudo-counts on the resample's scale, as cost_ci
        f = (m_full * fp / n + add) / (m_full + 4 * add)
        mean = t - odds * f
        var = (t * (1 - t) + odds**2 * f * (1 - f) + 2 * odds * t * f) / (m_full + 4 * add)
        lo_clip, hi_clip = -odds, 1.0
    else:
        m_pos, m_neg = m_strat
        pi_pos, pi_neg = n_pos / n, n_neg / n
        tpr = (m_pos * tp / n_pos + add) / (m_pos + 2 * add)
        fpr = (m_neg * fp / n_neg + add) / (m_neg + 2 * add)
        mean = pi_pos * tpr - pi_neg * odds * fpr
        var = pi_pos**2 * tpr * (1 - tpr) / (m_pos + 2 * add) + (pi_neg * odds)**2 * fpr * (1 - fpr) / (m_neg + 2 * add)
        lo_clip, hi_clip = -pi_neg * odds, pi_pos
    sd = np.sqrt(var)
    return np.maximum(mean - z * sd, lo_clip), np.minimum(mean + z * sd, hi_clip)
