"""Exact bootstrap laws of confusion-matrix metrics at fixed thresholds (issue 14, part 1).

At a threshold ``t`` held fixed across bootstrap samples, every metric of the
confusion matrix is a function of the bootstrap counts, whose law is a finite
product of binomials (module :mod:`rocci.precision._cells`):

* stratified: ``P(TP* = a, FP* = b) = b(a; m+, tp/n+) · b(b; m−, fp/n−)``;
* full: ``P(P* = s, TP* = a, FP* = b) = b(s; m, n+/n) · b(a; s, tp/n+) · b(b; m − s, fp/n−)``
  (for precision, ``P(PP* = s, TP* = a) = b(s; m, (tp + fp)/n) · b(a; s, tp/(tp + fp))``).

The law of the metric ``g`` is ``P(g* = v) = Σ_{cells with g = v} P(cell)``, summed
over the cells inside the windows of the binomials (each leaves out at most
1e-17 per tail; the mass left out is ``truncated_mass``).
"""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import numpy as np
from scipy import special

from .._core.inputs import InputError, check_choice, check_confidence_level, check_m, format_value
from .._core.counts import binary_counts
from ._cells import FullPrecisionLaw, StratifiedLaw, full_cells
from ._laws import Law, _interval, score_interval
from ._metrics import METRICS, UNDEFINED, check_metric, merge_rtol, metric_value
from ._results import LawBuilders, MetricCI, RecallPrecisionCI

__all__ = ["metric_ci", "precision_ci", "METRICS", "METHODS", "BOOTSTRAPS"]

METHODS = ("percentile", "wald", "score")
BOOTSTRAPS = ("stratified", "full")


def _check_thresholds(thresholds) -> np.ndarray:
    if isinstance(thresholds, (str, bytes)):
        raise InputError(f"thresholds ({format_value(thresholds)}) must be numbers, e.g. thresholds=[0.5].")
    values = np.atleast_1d(np.asarray(thresholds))
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f"thresholds must be numbers (score cut-offs), e.g. [0.3, 0.5]; got {thresholds!r}.") from None
    if values.ndim != 1 or values.size == 0:
        raise InputError("thresholds must be a non-empty list of score cut-offs, e.g. [0.3, 0.5].")
    if np.isnan(values).any():
        raise InputError("thresholds hold NaN (not a number): give real score cut-offs.")
    return values


def _full_m(m, n: int) -> int:
    if m is None:
        return n
    if isinstance(m, (tuple, list, np.ndarray)):
        raise InputError(
            f"m ({format_value(m)}): the full bootstrap draws one sample of m instances from the pooled data, "
            "so m is one integer (a pair (m_pos, m_neg) is for bootstrap='stratified')."
        )
    return check_m(m, 1, 1)[0]


def metric_ci(y_true, y_score=None, *, metric="f1", thresholds=None, confidence_level=0.95, method="percentile",
              bootstrap="stratified", m=None, pos_label=None, beta=1.0) -> MetricCI:
    """Exact bootstrap law and interval of a confusion-matrix metric at fixed thresholds.

    At each threshold ``t`` (``score >= t`` is predicted positive) the metric
    ``g(TP*, FP*, FN*, TN*)`` of a bootstrap sample has the finite law

    stratified: ``P(g* = v) = Σ_{a, b : g = v} b(a; m+, tp/n+) · b(b; m−, fp/n−)``,
    with ``FN* = m+ − TP*`` and ``TN* = m− − FP*``;

    full (``m`` draws from the pooled data): ``P(g* = v) = Σ_{s, a, b : g = v}
    b(s; m, n+/n) · b(a; s, tp/n+) · b(b; m − s, fp/n−)`` with ``s = P*`` the
    number of positives drawn (precision: ``Σ_{s, a : a/s = v} b(s; m, (tp + fp)/n) ·
    b(a; s, tp/(tp + fp))``, ``s = PP*``).

    Each binomial is summed over the window holding all but 1e-17 of its mass
    per tail; the mass left out is reported.  No table of those cells is built
    (:mod:`rocci.precision._cells`): every stratified metric (MCC included) is
    monotone in each count, so its CDF is a one-dimensional sum over ``TP*`` of
    ``P(FP* >= f_v(TP*))``, with ``f_v`` the metric's inverse in ``FP*``; the
    percentile bounds invert it (a handful of evaluations, then the few cells
    around the level sorted).  The mean and sd are in closed form or sums of
    three convolutions.  A threshold costs ~0.01-0.03 s at 10^6 rows and
    ~0.05-0.3 s at 10^8 instances (a ``ScoreCounts`` table), with no size limit.
    The stratified precision with ``method="wald"`` or ``"score"`` needs only the
    moments, and takes them for every threshold at once (no law object per
    threshold): ``E[TP*/PP*]``, ``E[(TP*/PP*)²]`` and ``E[1/PP*]`` are integrals of the
    binomials' generating functions, ``∫_0^1 G'(u)H(u) du``, ``∫_0^1 (−log u)(uG')'(u)H(u) du``
    and ``∫_0^1 (G(u)H(u) − G(0)H(0))/u du`` (``G``, ``H`` those of ``TP*`` and ``FP*``),
    evaluated by a Gauss–Laguerre rule of 4-16 nodes to ~1e-15 relative
    (:mod:`rocci.precision._moments`; the exact window sums where
    ``E[PP*] < 60``).  Those integrals cover the whole law, so on their rows
    ``truncated_mass`` is 0 and ``p_undefined`` is ``(1 − tp/n+)^{m+}(1 − fp/n−)^{m−}``
    exactly (below e^-60); ``distribution(i)`` still sums over the windows.
    The full bootstrap of precision goes by rows of
    ``PP*`` with binomial CDFs (no size limit); that of the other metrics sums
    O(m^1.5) cells and refuses (``InputError``) above 1.2·10^7 of them, saying to use
    the stratified bootstrap or a smaller ``m``.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rocci.roc_curve`.
    metric : str, default "f1"
        One of ``precision, recall, specificity, npv, f1, fbeta, mcc, accuracy,
        balanced_accuracy, youden, lift`` (formulas in
        :func:`rocci.precision._metrics.metric_value`).
    thresholds : array_like, optional
        Score cut-offs; default every distinct score, decreasing.  The percentile and the full
        bootstrap build one law per threshold (~3 ms each at 10^6 rows: ~50 minutes for 10^6
        distinct scores), so give the thresholds you will read; the stratified precision's
        ``"score"`` and ``"wald"`` intervals take every threshold at once (~6 argsorts at 10^6
        rows, ``bench/bench_precision.py``).
    confidence_level : float, default 0.95
    method : {"percentile", "wald", "score"}
        ``"percentile"``: the ``α/2`` and ``1 − α/2`` quantiles of the exact law
        (the smallest value whose CDF reaches the level, as :func:`rocci.vertical_ci`).
        ``"wald"``: ``mean ± z·sd`` of the exact law, clipped to the metric's range.
        ``"score"``: precision only, see :func:`precision_ci`.
    bootstrap : {"stratified", "full"}
    m : None, int or (int, int)
        Stratified: ``(m+, m−)`` (default ``n±``); full: the total ``m`` (default ``n``).
    beta : float, default 1
        β of ``fbeta``.

    Returns
    -------
    MetricCI
        ``to_frame()``: ``threshold, tp, fp, <metric>, <metric>_mean, <metric>_std,
        <metric>_low, <metric>_high, p_undefined, truncated_mass``;
        ``distribution(i)`` gives the exact law at the ``i``-th threshold, built only when asked (the
        frame's columns never build it): it has up to (window of TP*) × (window of FP*) distinct values,
        all of them computed and sorted, about 2.4·10^7 (≈ 400 MB, a few seconds) mid-ranking at 10^6
        rows, ~2.8·10^9 at 10^8 instances; above 6·10^7 cells it raises ``InputError`` (the frame's
        columns are unaffected).

    Notes
    -----
    **Undefined metrics.** A metric whose denominator is 0 in a bootstrap sample
    (precision when ``TP* + FP* = 0``, MCC when a margin is 0, …; see
    ``rocci.precision.UNDEFINED``) is undefined there.  Such samples are left
    out, as a Monte Carlo bootstrap drops its NaN replicates: the law, mean, sd
    and interval are **conditional on the metric being defined**, and the exact
    probability of the undefined event is ``p_undefined``.  In the stratified
    bootstrap ``m± >= 1``, so recall, specificity, F1, balanced accuracy and
    Youden's J are always defined.
    """
    metric, beta2 = check_metric(metric, beta)
    return _metric_ci(y_true, y_score, metric, beta2, thresholds, confidence_level, method, bootstrap, m, pos_label)


def _metric_ci(y_true, y_score, metric, beta2, thresholds, confidence_level, method, bootstrap, m, pos_label):
    level = check_confidence_level(confidence_level)
    check_choice("method", method, METHODS)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    if method == "score" and metric != "precision":
        raise InputError(
            f"method='score' is defined for the precision only (a share of the predicted positives); for "
            f"{metric} use method='percentile' or 'wald'."
        )
    counts, _ = binary_counts(y_true, y_score, pos_label)  # a ScoreCounts table stays a table
    n_pos, n_neg = counts.n_pos, counts.n_neg
    if bootstrap == "stratified":
        m_pos, m_neg = check_m(m, n_pos, n_neg)
        m_total = m_pos + m_neg
    else:
        m_total = _full_m(m, n_pos + n_neg)
        m_pos = m_neg = None
    if thresholds is None:  # every distinct score: the counts from one merge, no binary searches
        t, tp, fp = (np.asarray(v)[1:] for v in counts.threshold_counts())
        tp, fp = tp.astype(np.int64, copy=False), fp.astype(np.int64, copy=False)
    else:
        t = _check_thresholds(thresholds)
        tp = np.asarray(counts.n_pos_ge(t), np.int64)
        fp = np.asarray(counts.n_neg_ge(t), np.int64)
    value = metric_value(metric, tp, fp, n_pos - tp, n_neg - fp, beta2)
    alpha = 1.0 - level
    rtol = merge_rtol(metric, beta2)
    if metric == "precision" and bootstrap == "stratified" and method in ("wald", "score"):
        return _stratified_precision_moments_ci(t, tp, fp, value, n_pos, n_neg, m_pos, m_neg, level, method)
    out = {key: np.empty(t.size) for key in ("mean", "std", "low", "high", "undef", "trunc")}
    laws = []
    for i in range(t.size):  # one pass per threshold; each is vectorised over its window
        law = _threshold_law(bootstrap, metric, int(tp[i]), int(fp[i]), n_pos, n_neg, m_pos, m_neg, m_total, beta2,
                             rtol)
        out["mean"][i], out["std"][i] = law.mean, law.std
        out["low"][i], out["high"][i] = _interval(law, metric, alpha, method)
        out["undef"][i], out["trunc"][i] = law.p_undefined, law.truncated
        # The law itself is rebuilt only if distribution(i) asks for it (a builder, not the cells, is kept).
        laws.append(law if isinstance(law, Law) else partial(_whole_law, bootstrap, metric, int(tp[i]), int(fp[i]),
                                                            n_pos, n_neg, m_pos, m_neg, m_total, beta2, rtol))
    return MetricCI(
        metric=metric, thresholds=t, tp=tp, fp=fp, value=value, mean=out["mean"], std=out["std"],
        low=out["low"], high=out["high"], p_undefined=out["undef"], truncated_mass=out["trunc"],
        n_pos=n_pos, n_neg=n_neg, m_pos=m_pos if m_pos is not None else m_total,
        m_neg=m_neg if m_neg is not None else m_total, bootstrap=bootstrap, method=method,
        confidence_level=level, beta=float(np.sqrt(beta2)), _laws=laws,
        _relevel=partial(_relevel, bootstrap, metric, tp, fp, n_pos, n_neg, m_pos, m_neg, m_total, beta2),
    )


def _threshold_law(bootstrap, metric, tp: int, fp: int, n_pos, n_neg, m_pos, m_neg, m_total, beta2, rtol):
    """The exact law of ``metric`` at one threshold (``tp``, ``fp``): an object with ``mean``, ``std``,
    ``quantiles``, ``p_undefined`` and ``truncated``, the whole law built only where it must be."""
    if bootstrap == "stratified":
        return StratifiedLaw(metric, tp, fp, n_pos, n_neg, m_pos, m_neg, beta2, rtol)
    if metric == "precision":
        return FullPrecisionLaw(tp, fp, n_pos + n_neg, m_total)
    return Law(*full_cells(metric, tp, fp, n_pos, n_neg, m_total, beta2), merge_rtol=rtol)


def _relevel(bootstrap, metric, tp, fp, n_pos, n_neg, m_pos, m_neg, m_total, beta2, mean, std, level: float,
             method: str) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of :func:`metric_ci` at ``level`` by ``method`` from what its result keeps (the counts,
    the exact mean and sd): :meth:`rocci.precision.MetricCI.confidence_interval`.  The same route as the
    function's for that method, so the same bounds; each threshold's law is rebuilt from its counts (the
    result does not hold them: a cached result stays small)."""
    if metric == "precision" and bootstrap == "stratified" and method in ("wald", "score"):
        return _precision_moment_bounds(tp, fp, n_pos, n_neg, m_pos, m_neg, level, method)[-2:]
    alpha = 1.0 - level
    rtol = merge_rtol(metric, beta2)
    low, high = np.empty(tp.size), np.empty(tp.size)
    for i in range(tp.size):
        if method == "wald":  # the law's exact mean and sd, kept
            law = SimpleNamespace(mean=mean[i], std=std[i])
        else:
            law = _threshold_law(bootstrap, metric, int(tp[i]), int(fp[i]), n_pos, n_neg, m_pos, m_neg, m_total,
                                 beta2, rtol)
        low[i], high[i] = _interval(law, metric, alpha, method)
    return low, high


def _stratified_precision_moments_ci(t, tp, fp, value, n_pos, n_neg, m_pos, m_neg, level, method) -> MetricCI:
    """Stratified precision with ``method="wald"`` or ``"score"`` at any number of thresholds: the exact mean,
    sd and harmonic mean of ``PP*`` of every threshold at once (:func:`rocci.precision._moments.
    stratified_precision_columns`, Gauss–Laguerre quadrature vectorised over the thresholds, exact window sums
    at the few with ``E[TP* + FP*] < 60``), no law object per threshold; ``distribution(i)`` builds the exact
    law of a threshold when asked, as on the other routes.  The same numbers as the per-threshold route
    (within ~1e-14 relative, ``tests/precision/test_precision_moments.py``)."""
    mean, std, undef, trunc, low, high = _precision_moment_bounds(tp, fp, n_pos, n_neg, m_pos, m_neg, level, method)
    laws = LawBuilders(lambda i: _whole_law("stratified", "precision", int(tp[i]), int(fp[i]), n_pos, n_neg, m_pos,
                                            m_neg, m_pos + m_neg, 1.0, 0.0), tp.size)
    return MetricCI(
        metric="precision", thresholds=t, tp=tp, fp=fp, value=value, mean=mean, std=std,
        low=np.asarray(low, float), high=np.asarray(high, float), p_undefined=undef, truncated_mass=trunc,
        n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, bootstrap="stratified", method=method,
        confidence_level=level, beta=1.0, _laws=laws,
        _relevel=partial(_relevel, "stratified", "precision", tp, fp, n_pos, n_neg, m_pos, m_neg, m_pos + m_neg, 1.0),
    )


def _precision_moment_bounds(tp, fp, n_pos, n_neg, m_pos, m_neg, level: float, method: str):
    """The stratified precision's exact moments at every threshold at once and its ``"wald"`` or ``"score"``
    bounds: ``mean, std, p_undefined, truncated_mass, low, high``."""
    from ._moments import stratified_precision_columns

    mean, std, harmonic, undef, trunc = stratified_precision_columns(tp, fp, n_pos, n_neg, m_pos, m_neg,
                                                                     harmonic=method == "score")
    z = float(special.ndtri(1 - (1.0 - level) / 2))
    if method == "score":
        low, high = score_interval(mean, std**2, harmonic, z)
    else:
        low, high = np.clip(mean - z * std, 0.0, 1.0), np.clip(mean + z * std, 0.0, 1.0)
    return mean, std, undef, trunc, np.asarray(low, float), np.asarray(high, float)


def _whole_law(bootstrap, metric, tp, fp, n_pos, n_neg, m_pos, m_neg, m_total, beta2, rtol) -> Law:
    if bootstrap == "stratified":
        return StratifiedLaw(metric, tp, fp, n_pos, n_neg, m_pos, m_neg, beta2, rtol)()
    return FullPrecisionLaw(tp, fp, n_pos + n_neg, m_total)()


def precision_ci(y_true, y_score=None, *, thresholds=None, recall=None, confidence_level=0.95, method="percentile",
                 bootstrap="stratified", m=None, pos_label=None) -> MetricCI | RecallPrecisionCI:
    """Exact bootstrap law and interval of the precision, at fixed thresholds or at fixed recall levels.

    At a fixed threshold (``thresholds``, default every distinct score):
    stratified, ``P(prec* = v) = Σ_{a/(a+b) = v} b(a; m+, tp/n+) · b(b; m−, fp/n−)``;
    full, ``P(prec* = v) = Σ_{a/s = v} b(s; m, (tp + fp)/n) · b(a; s, tp/(tp + fp))``
    (:func:`metric_ci` with ``metric="precision"``).  Undefined when
    ``TP* + FP* = 0``: the law is conditional on ``TP* + FP* > 0`` and
    ``p_undefined = (1 − tp/n+)^m+ (1 − fp/n−)^m−`` (stratified) or
    ``(1 − (tp + fp)/n)^m`` (full) is reported.

    At fixed recall levels (``recall``: the PR analogue of vertical averaging,
    :mod:`rocci.precision.recall`, where the law is derived): the precision
    ``r/(r + FP*)`` at the threshold ``T_r``, the r-th largest positive score
    drawn, stratified bootstrap only.  Its percentile bounds are read on
    ``FP*``; with ties a negative tied with ``T_r`` counts as a false positive
    and the true positives are counted as ``r``; the observed precision is
    ``k/(k + #negatives >= s_k)`` at the ``k = ⌈recall·n+⌉``-th largest positive
    score ``s_k``.  (rocci 0.2 also called this ``precision_at_recall``, now a
    deprecated alias.)

    **Score interval** (``method="score"``, at thresholds and at recall levels):
    Algorithm 4.3's score-like interval (:func:`rocci.vertical_ci`'s default) on the
    exact mean ``e`` and variance ``v`` of the precision,

    ``[e + z²/2M ± z·sqrt(v + z²/4M²)] / (1 + z²/M)``,  ``M = 1/E[1/PP* | PP* > 0]``,

    clipped to [0, 1]: the roots in ``π`` of ``(e − π)² = z²·[v + (π(1 − π) − e(1 − e))/M]``,
    with ``M`` the harmonic mean of the number ``PP* = TP* + FP*`` of predicted positives in
    a bootstrap sample (the precision is the share of true positives among them; at recall
    level ``r/m+``, ``PP* = r + FP*`` and ``M = r/e``).  It contains ``e`` and keeps a width
    of order ``z²/M`` where the exact law is a point mass (e.g. no negative above the
    threshold: every bootstrap precision is 1 and the percentile interval is ``[1, 1]``).
    At fixed recall with few positives it holds its level where the percentile interval
    does not (``docs/coverage.md``, preset ``pr_recall``).

    Parameters
    ----------
    thresholds, recall : array_like, optional
        Give one of them (neither: every threshold; with ``method="percentile"`` that is one exact
        law per threshold, ~3 ms each at 10^6 rows, see :func:`metric_ci`).  Recall values are each
        mapped to the nearest level ``r/m+`` with ``1 <= r <= m+`` (duplicates merged).
    method : {"percentile", "score", "wald"}, default "percentile"
        ``"percentile"``: quantiles of the exact law; ``"score"``: above; ``"wald"``:
        ``e ± z·sqrt(v)`` clipped to [0, 1].
    confidence_level, bootstrap, m, pos_label
        As in :func:`metric_ci`.

    Returns
    -------
    MetricCI or RecallPrecisionCI
        ``to_frame()`` has ``precision, precision_mean, precision_std, precision_low,
        precision_high`` (with ``threshold`` or ``recall, r`` and ``p_undefined``,
        ``truncated_mass``); ``distribution(i)`` gives the exact law.
    """
    if recall is not None:
        if thresholds is not None:
            raise InputError("Give either thresholds or recall levels to precision_ci, not both.")
        if bootstrap != "stratified":
            check_choice("bootstrap", bootstrap, BOOTSTRAPS)
            raise InputError(
                "Precision at fixed recall is computed for bootstrap='stratified' only (the recall level "
                "r/m+ needs a fixed number m+ of positives in every sample)."
            )
        from .recall import _precision_at_recall

        return _precision_at_recall(y_true, y_score, recall=recall, confidence_level=confidence_level,
                                    method=method, m=m, pos_label=pos_label)
    return _metric_ci(y_true, y_score, "precision", 1.0, thresholds, confidence_level, method, bootstrap, m,
                      pos_label)


assert set(UNDEFINED) == set(METRICS)
