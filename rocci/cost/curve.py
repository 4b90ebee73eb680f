"""Operating points and the empirical cost curve (thesis ch. 3): the lower envelope of the cost lines."""

from __future__ import annotations

import numpy as np

from .._core.inputs import InputError
from .._core.counts import binary_counts
from ._common import _check_w, _real
from .hull import _Envelope
from .results import CostCurve


def operating_point(p_pos, cost_fn, cost_fp):
    """Operating point ``w`` of a prior and a pair of misclassification costs (eq. 3.1).

    ``w = p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−))``, ``p(−) = 1 − p(+)``.

    Parameters
    ----------
    p_pos : float
        Prior probability of the positive class, strictly between 0 and 1.
    cost_fn : float
        ``C(−|+)``, the cost of a false negative (a positive called negative); >= 0.
    cost_fp : float
        ``C(+|−)``, the cost of a false positive; >= 0.  Not both costs zero.

    Returns
    -------
    float
        ``w`` in [0, 1] (an array if any argument is an array).

    Notes
    -----
    Only ``w`` matters for choosing a threshold: every prior and cost pair
    with the same ``w`` ranks thresholds identically.  The normalised cost
    ``NEC = w·FNR + (1 − w)·FPR`` equals the expected cost per instance
    divided by ``p(+)·C(−|+) + p(−)·C(+|−)``.

    Examples
    --------
    >>> from rocci.cost import operating_point
    >>> operating_point(1/3, 5.0, 1.0)
    0.7142857142857143
    """
    p = _real("p_pos", p_pos)
    c_fn = _real("cost_fn", cost_fn)
    c_fp = _real("cost_fp", cost_fp)
    if ((p <= 0) | (p >= 1)).any():
        raise InputError(f"p_pos ({p_pos!r}) must be a probability strictly between 0 and 1.")
    if (c_fn < 0).any() or (c_fp < 0).any():
        raise InputError(
            f"Costs must be non-negative (got cost_fn={cost_fn!r}, cost_fp={cost_fp!r}); "
            "the cost of a correct decision is 0."
        )
    den = p * c_fn + (1 - p) * c_fp
    if (den <= 0).any():
        raise InputError("cost_fn and cost_fp cannot both be 0: w is then undefined.")
    w = p * c_fn / den
    return float(w) if np.ndim(w) == 0 else w


def cost_curve(y_true, y_score=None, *, w=None, pos_label=None) -> CostCurve:
    """Cost curve: the lower envelope of the cost lines of all thresholds.

    Each threshold ``t`` gives the cost line ``NEC_t(w) = w·(1 − TPR_t) +
    (1 − w)·FPR_t`` (eq. 3.12; its intercept is ``FPR_t`` and its slope
    ``1 − TPR_t − FPR_t``, so ``TPR = 1 − slope − FPR``, eq. 3.6).  The
    envelope ``min_t NEC_t(w)`` is made of the lines of the vertices of the ROC
    upper convex hull (§3.2.2); consecutive vertices cross at
    ``w* = ΔFPR/(ΔFPR + ΔTPR)`` (eq. 3.7 with ``S = ΔTPR/ΔFPR``).

    O(n log n): one sort, the hull of the h ≤ n + 1 distinct-score ROC points (a monotone chain, O(h)), then
    a binary search per operating point.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    w : float or array_like, optional
        Operating points in [0, 1] (eq. 3.1; see :func:`operating_point`).
        Default: 101 points ``0, 0.01, …, 1``.

    Returns
    -------
    CostCurve
        ``to_frame()`` has columns ``w, cost, threshold``; ``breakpoints``,
        ``hull_fpr``, ``hull_tpr``, ``hull_thresholds`` describe the envelope
        exactly; ``operating_range`` is where the model beats both trivial
        classifiers.

    Notes
    -----
    Ties: where several thresholds reach the minimum (at a breakpoint, or at
    ``w = 0`` where every threshold with FPR = 0 costs 0), the highest is
    taken; ``w = 0`` therefore gives ``+inf``.  Costs within 1e-12 count as
    equal, so that a breakpoint typed as a decimal (1/3 as 0.3333333333333333)
    still counts as a tie.

    Examples
    --------
    >>> from rocci.cost import cost_curve
    >>> curve = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], w=[0.25, 0.5, 0.75])
    >>> curve.threshold.tolist(), curve.cost.tolist()
    ([0.8, 0.8, 0.35], [0.125, 0.25, 0.125])
    >>> curve.breakpoints.tolist()
    [0.5, 1.0]
    """
    counts, pos_label = binary_counts(y_true, y_score, pos_label)
    w = _check_w(w)
    env = _Envelope.from_counts(counts)
    i = env.minimiser(w)
    vis = env.visible()
    return CostCurve(
        w=w,
        cost=env._cost(i, w),
        threshold=env.thresholds[i],
        breakpoints=env.breakpoints[vis],
        hull_fpr=env.fpr[vis],
        hull_tpr=env.tpr[vis],
        hull_thresholds=env.thresholds[vis],
        hull_tp=env.tp[vis],
        hull_fp=env.fp[vis],
        operating_range=env.operating_range(),
        n_pos=env.n_pos,
        n_neg=env.n_neg,
        pos_label=pos_label,
        _envelope=env,
    )


