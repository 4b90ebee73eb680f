"""cost_ci: exact bootstrap intervals of one model's expected cost (thesis §5.1, eqs. 5.3–5.5; §5.2; §5.4)."""

from __future__ import annotations

import numpy as np

from .._core.inputs import check_choice, check_confidence_level
from .._core.counts import binary_counts
from ._common import (
    AGRESTI_ADD,
    BOOTSTRAPS,
    COST_METHODS,
    _check_add,
    _check_thresholds,
    _check_w,
)
from .hull import _Envelope
# _adjusted: docs/architecture.md cites it here (tables 5.1, 5.2)
from ._bounds import _adjusted, _moments, _single_cells, single_bounds  # noqa: F401
from ._common import _bootstrap_sizes, _size_fields
from .results import CostCI


def cost_ci(
    y_true,
    y_score=None,
    *,
    w=None,
    thresholds=None,
    pos_label=None,
    bootstrap="stratified",
    confidence_level=0.95,
    method="agresti-coull",
    m=None,
    add=AGRESTI_ADD,
) -> CostCI:
    """Exact bootstrap confidence intervals for the normalised expected cost.

    At each operating point ``w`` the threshold ``t`` is held fixed across
    bootstrap samples (by default the observed envelope's minimiser, see
    :func:`cost_curve`).  With ``n_FN`` positives below ``t`` and ``n_FP``
    negatives at or above it, ``p+ = TPR_t``, ``p− = FPR_t``:

    * ``bootstrap="stratified"`` (eqs. 5.3–5.5): ``FN* ~ Bin(m+, 1 − p+)``,
      ``FP* ~ Bin(m−, p−)`` independent, ``C* = w·FN*/m+ + (1 − w)·FP*/m−``,

      ``E = w(1 − p+) + (1 − w)p−``,
      ``Var = w²p+(1 − p+)/m+ + (1 − w)²p−(1 − p−)/m−``.

      **Eq. 5.5 as printed omits the 1/m± factors** (off by a factor of 33
      at w = .3 on the thesis's example).
    * ``bootstrap="full"`` (eqs. 5.9–5.11, rescaled): ``m`` draws from the
      pooled data, ``(FN*, FP*, ·) ~ Multinomial(m; n_FN/n, n_FP/n, ·)`` and
      ``C* = w·FN*/(m·π+) + (1 − w)·FP*/(m·π−)``, ``π± = n±/n``: the same mean
      as the stratified cost and ``Var = [w²(1 − p+)/π+ + (1 − w)²p−/π− − E²]/m``.
      The thesis divides ``C(−|+)·FN* + C(+|−)·FP*`` by ``n·max(C(−|+), C(+|−))``
      instead (eq. 5.9): its cost is ours times the constant
      ``(π+·C(−|+) + π−·C(+|−))/max(C(−|+), C(+|−))`` when
      ``w = operating_point(π+, C(−|+), C(+|−))``.  Samples drawing a single
      class are kept (the scale does not depend on the sample).

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    w : float or array_like, optional
        Operating points in [0, 1]; default 101 points ``0, 0.01, …, 1``.
    thresholds : float or array_like, optional
        One threshold for all ``w`` or one per ``w``.  Default: the envelope's
        minimiser at each ``w`` (ties → the highest threshold).
    bootstrap : {"stratified", "full"}
    confidence_level : float, default 0.95
    method : {"agresti-coull", "wald", "percentile"}
        ``"agresti-coull"`` (the thesis's choice, table 5.1): ``add``
        pseudo-counts in each of the four confusion cells (TP, FN, FP, TN),
        i.e. ``p̃ = (m·p + add)/(m + 2·add)`` per class, then Wald with the
        mean and variance above at ``p̃`` and ``m + 2·add`` (full bootstrap: all
        four cells pooled, ``m + 4·add`` draws).  ``"wald"``: ``E ± z·sd`` with
        the exact moments.  Both are clipped to [0, 1].  ``"percentile"``: the
        ``α/2`` and ``1 − α/2`` quantiles of the exact lattice law of ``C*``.
    m : None, int or (int, int)
        Stratified: ``(m+, m−)`` (an int sets both; default ``n±``).  Full: the
        number of pooled draws (default ``n``).
    add : float, default :data:`AGRESTI_ADD` (2)
        Agresti–Coull pseudo-count per cell (why 2: see :data:`AGRESTI_ADD`).

    Returns
    -------
    CostCI
        ``to_frame()``: ``w, threshold, cost, cost_std, cost_low, cost_high``
        (+ ``tp, fp``); ``distribution(i)`` gives the exact law of ``C*``.

    Notes
    -----
    The exact law of ``C*`` lives on the lattice ``a·FN* + b·FP*``
    (``a = w/m+``, ``b = (1 − w)/m−``; full: ``a = w/(m·π+)``, ``b = (1 − w)/(m·π−)``).
    Its CDF is ``Σ_x P(FN* = x)·P(FP* <= ⌊(c − a·x)/b⌋ | FN* = x)``, with
    ``FP* | FN* = x`` binomial (``Bin(m−, p−)`` stratified,
    ``Bin(m − x, n_FP/(n − n_FN))`` full): one exact binomial CDF per value of
    ``FN*`` in a window of width O(sqrt(m)) (the mass left out is below
    1e-20).  The percentile bounds are found by a search with exact CDF
    evaluations, then snapped to the lattice point where the CDF crosses the
    level; values closer than 1e-12 count as equal.  At ``w = 0`` and
    ``w = 1`` the cost and its variance can be 0 (Wald gives a point); the
    Agresti–Coull interval then stays non-degenerate (§5.5).

    Examples
    --------
    >>> from rocci.cost import cost_ci
    >>> y = [0, 0, 0, 1, 1, 1]; s = [.1, .3, .6, .4, .7, .9]
    >>> res = cost_ci(y, s, w=0.5, thresholds=0.5, method="wald")
    >>> round(float(res.cost[0]), 4), round(float(res.cost_std[0]), 4)
    (0.3333, 0.1925)
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    check_choice("method", method, COST_METHODS)
    add = _check_add(add)
    counts, _ = binary_counts(y_true, y_score, pos_label)
    w = _check_w(w)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    sizes = _bootstrap_sizes(bootstrap, m, n_pos, n_neg)
    if thresholds is None:
        env = _Envelope.from_counts(counts)
        t = env.thresholds[env.minimiser(w)]
    else:
        t = _check_thresholds("thresholds", thresholds, w.size)
    tp = counts.n_pos_ge(t).astype(np.int64)
    fp = counts.n_neg_ge(t).astype(np.int64)
    fn = n_pos - tp

    coef_pos, coef_neg, counts_pos, counts_neg = _single_cells(w, fn, fp, n_pos, n_neg)
    pi_pos = n_pos / (n_pos + n_neg)
    cost, var = _moments(coef_pos, counts_pos / n_pos, coef_neg, counts_neg / n_neg,
                         bootstrap, sizes, pi_pos)
    std = np.sqrt(var)
    low, high = single_bounds(method, level, w, fn, fp, n_pos, n_neg, bootstrap, sizes, add, cost, std)

    return CostCI(
        w=w,
        threshold=t,
        cost=cost,
        cost_std=std,
        cost_low=low,
        cost_high=high,
        tp=tp,
        fp=fp,
        n_pos=n_pos,
        n_neg=n_neg,
        bootstrap=bootstrap,
        method=method,
        confidence_level=level,
        add=add,
        **_size_fields(bootstrap, sizes),
    )


