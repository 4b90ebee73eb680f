"""Two models scored on the same instances: the exact paired law of ``metric_a − metric_b`` (issue 14, part 3).

**At threshold pairs** ``(t_a, t_b)`` (stratified bootstrap).  Among the
positives, ``c+`` are called positive by both models, ``a+`` by A only and
``b+`` by B only (:func:`rocci._core.counts.paired_cells`); likewise ``c−, a−, b−`` among
the negatives.  A bootstrap draw of a positive falls in these cells with
probabilities ``(c+, a+, b+)/n+``, so

``TP*_a ~ Bin(m+, (c+ + a+)/n+)``, and given ``TP*_a = x``:
``TP*_b = C + B`` with ``C ~ Bin(x, c+/(c+ + a+))``, ``B ~ Bin(m+ − x, b+/(n+ − c+ − a+))`` independent,

which gives the joint law of ``(TP*_a, TP*_b)`` as a finite sum; the same for
``(FP*_a, FP*_b)``, independent of it.  The law of
``Δ* = g(TP*_a, FP*_a) − g(TP*_b, FP*_b)`` is the sum over the product of the two
joint laws' cells (each binomial cut at 1e-17 per tail, cells below 1e-17 in
total dropped; the mass left out is reported).

**At recall levels** ``r/m+``.  Both thresholds come from the same bootstrap
sample of positives: ``T^a_r = s^a_(K)``, ``T^b_r = s^b_(J)``, each model's r-th
largest positive score drawn.  The joint law of the ranks ``(K, J)`` is
:func:`rocci.compare_vertical`'s (thesis §4.4.2) with the classes' roles
swapped (its Lancaster-series route, blocks of ranks that leave the negatives'
cells unchanged; :mod:`rocci.vertical_paired`).  Given ``(K, J)``, the
negatives' paired cells ``(c−, a−, b−)`` at ``(s^a_(K), s^b_(J))`` give the
joint law of ``(FP*_a, FP*_b)`` as above, and ``Δ* = g(FP*_a) − g(FP*_b)`` with
``g(f) = r/(r + f)`` (precision) or ``2r/(2r + f + m+ − r)`` (F1); the law is the
mixture over ``(K, J)``.

Average precision is not covered: its bootstrap law involves the whole ranking
of the sample, and no closed form for its exact-bootstrap standard error was
derived here.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._core.inputs import InputError, check_choice, check_confidence_level, check_labels, check_m, check_scores
from .._core.counts import paired_input
from .._core.counts import PairedCounts, joint_ge_counts, paired_cells
from .._core.exact import binomial_pmf, order_statistic_law
from ._cells import MAX_CELLS, _check_size
from ._laws import CELL_EPS, Law, bernstein_window, binomial_window
from ._metrics import check_metric, merge_rtol, metric_value
from ._paired_recall import MAX_GRID, PairedClasses, grid_size, mixture_grid_refusal, recall_delta, recall_law
from ._results import FPRAtRecallComparison, PrecisionComparison
from .metrics import _check_thresholds, _interval

__all__ = ["compare_precision", "PAIRED_METRICS"]

#: Metrics compared by :func:`compare_precision`.
PAIRED_METRICS = ("precision", "f1", "recall", "specificity", "npv", "fbeta", "mcc", "accuracy",
                  "balanced_accuracy", "youden", "lift")
#: Metrics compared at recall levels (functions of the false positives when TP = r).
RECALL_METRICS = ("precision", "f1")
#: Differences closer than this are one value (each side is rounded once).
_DELTA_ATOL = 1e-14
#: Interval methods of the paired laws (the score interval is one model's precision: precision_ci).
PAIRED_METHODS = ("percentile", "wald")


def _check_paired(y_true, score_a, score_b, pos_label):
    y_true, score_a, score_b, pos_label = paired_input(y_true, score_a, score_b, pos_label)
    mask, _ = check_labels(y_true, pos_label)
    a = check_scores(score_a, name="score_a (model a)")
    b = check_scores(score_b, name="score_b (model b)")
    if a.size != b.size or a.size != mask.size:
        raise InputError(
            f"score_a has {a.size} values, score_b {b.size} and y_true {mask.size}: both models must score "
            "the same instances, one score per instance and model, one label per instance."
        )
    return mask, a, b


def bivariate_counts(m: int, n: int, both: int, only_a: int, only_b: int, eps: float = CELL_EPS):
    """Joint law of ``(X_a, X_b)`` = draws among ``m`` (from ``n`` instances) in A's set and in B's set.

    ``X_a ~ Bin(m, (both + only_a)/n)``; given ``X_a = x``, ``X_b = C + B``,
    ``C ~ Bin(x, both/(both + only_a))``, ``B ~ Bin(m − x, only_b/(n − both − only_a))``.

    Returns ``(x, y, probabilities, truncated)`` over the cells of the windows.
    """
    in_a = both + only_a
    pa = in_a / n
    x0, x1, lx = binomial_window(m, pa)
    x = np.arange(int(x0), int(x1) + 1)
    px = binomial_pmf(x, m, pa)
    share_c = both / in_a if in_a else 0.0
    share_b = only_b / (n - in_a) if n > in_a else 0.0
    c0, c1, lc = bernstein_window(x, share_c)
    b0, b1, lb = bernstein_window(m - x, share_b)
    # All X_a values at once: cells (x, c, b), y = c + b, summed into (x, y) by one bincount.
    wc_, wb_ = int((c1 - c0).max()) + 1, int((b1 - b0).max()) + 1
    c = c0[:, None] + np.arange(wc_)[None, :]
    b = b0[:, None] + np.arange(wb_)[None, :]
    pc = np.where(c <= c1[:, None], binomial_pmf(c, x[:, None], share_c), 0.0) * px[:, None]
    pb = np.where(b <= b1[:, None], binomial_pmf(b, (m - x)[:, None], share_b), 0.0)
    # X_b's values lie in y0..y1; each block of X_a values is summed on its own rows × (y1 − y0 + 1) grid.
    y0 = int((c0 + b0).min())
    y1 = int(min((c1 + b1).max(), m))
    wy = y1 - y0 + 1
    rows = max(1, 2_000_000 // max(wc_ * wb_, wy))
    xs_, ys_, ps_ = [], [], []
    for a in range(0, x.size, rows):  # blocks of X_a values (memory stays near 50 MB)
        blk = slice(a, a + rows)
        y = np.clip(c[blk, :, None] + b[blk, None, :], y0, y1) - y0  # padding cells (probability 0) may pass
        key = np.arange(y.shape[0])[:, None, None] * wy + y
        sums = np.bincount(key.ravel(), weights=(pc[blk, :, None] * pb[blk, None, :]).ravel(),
                           minlength=y.shape[0] * wy)
        cell = np.flatnonzero(sums)
        xs_.append(x[a + cell // wy])
        ys_.append(y0 + cell % wy)
        ps_.append(sums[cell])
    xs, ys, ps = np.concatenate(xs_), np.concatenate(ys_), np.concatenate(ps_)
    trunc = float(lx + px @ (lc + lb))
    # Drop the smallest cells while they hold at most eps in all.
    order = np.argsort(ps)
    drop = np.cumsum(ps[order]) <= eps
    keep = np.ones(ps.size, bool)
    keep[order[drop]] = False
    return xs[keep], ys[keep], ps[keep], trunc + float(ps[~keep].sum())


def _bivariate_size(m: int, n: int, both: int, only_a: int, only_b: int) -> int:
    """Cells ``(x, y)`` of :func:`bivariate_counts`'s windows before the lightest are dropped (an upper bound)."""
    in_a = both + only_a
    x0, x1, _ = binomial_window(m, in_a / n)
    x = np.arange(int(x0), int(x1) + 1)
    c0, c1, _ = bernstein_window(x, both / in_a if in_a else 0.0)
    b0, b1, _ = bernstein_window(m - x, only_b / (n - in_a) if n > in_a else 0.0)
    return int(np.minimum((c1 - c0) + (b1 - b0) + 1, m + 1).sum())


#: Margin of the early refusal: the windows' cells over-count the cells kept (the lightest are dropped).
_EARLY = 16


def _threshold_law(metric, beta2, cells_pos, cells_neg, n_pos, n_neg, m_pos, m_neg):
    estimate = _bivariate_size(m_pos, n_pos, *cells_pos) * _bivariate_size(m_neg, n_neg, *cells_neg)
    if estimate > _EARLY * MAX_CELLS:  # refuse before building the two joint laws (minutes at 10^5 rows)
        _check_size(estimate, f"the difference of {metric}")
    xa, xb, px, tx = bivariate_counts(m_pos, n_pos, *cells_pos)
    fa, fb, pf, tf = bivariate_counts(m_neg, n_neg, *cells_neg)
    _check_size(px.size * pf.size, f"the difference of {metric}")
    ga = metric_value(metric, xa[:, None], fa[None, :], m_pos - xa[:, None], m_neg - fa[None, :], beta2)
    gb = metric_value(metric, xb[:, None], fb[None, :], m_pos - xb[:, None], m_neg - fb[None, :], beta2)
    return Law(ga - gb, np.outer(px, pf), truncated=tx + tf, merge_rtol=merge_rtol(metric, beta2),
               merge_atol=_DELTA_ATOL)


def _recall_law(ctx, neg_a, neg_b, r: int, metric: str, n_pos: int, n_neg: int, m_pos: int, m_neg: int) -> Law:
    from .._core.paired_order import _joint_threshold_law

    k_win, p_k, trunc_k = order_statistic_law(r, m_pos, n_pos)
    t_a, t_b = ctx.s_a_desc[k_win - 1], ctx.s_b_desc[k_win - 1]
    ge_a = n_neg - np.searchsorted(ctx.sorted_pos_a, t_a, side="left")
    ge_b = n_neg - np.searchsorted(ctx.sorted_pos_b, t_b, side="left")
    # Ranks with the same count of negatives above the threshold give the same cells of negatives.
    ends_a = np.flatnonzero(np.r_[ge_a[1:] != ge_a[:-1], True])
    ends_b = np.flatnonzero(np.r_[ge_b[1:] != ge_b[:-1], True])
    w = ctx._series_blocks(r, k_win, p_k, ends_a, ends_b)
    if w is None:
        ends_a = ends_b = np.arange(k_win.size)
        w = _joint_threshold_law(ctx.rank_b_by_rank_a, n_pos, m_pos, r, k_win)
    both = joint_ge_counts(neg_a, neg_b, t_a[ends_a], t_b[ends_b])
    na = np.broadcast_to(ge_a[ends_a][:, None], both.shape)
    nb = np.broadcast_to(ge_b[ends_b][None, :], both.shape)
    trunc = max(0.0, 1.0 - float(w.sum()))
    # Drop the lightest pairs of ranks while they hold at most 1e-17 in all.
    flat = w.ravel()
    order = np.argsort(flat)
    drop = order[np.cumsum(flat[order]) <= CELL_EPS]
    trunc += float(flat[drop].sum())
    keep = np.ones(flat.size, bool)
    keep[drop] = False
    keep &= flat > 0
    keys = np.stack([na.ravel()[keep], nb.ravel()[keep], both.ravel()[keep]], axis=1)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    weights = np.bincount(inv.ravel(), weights=flat[keep], minlength=uniq.shape[0])
    # Cells (FP*_a, FP*_b) as keys FP*_a·(m− + 1) + FP*_b, merged whenever the buffer grows (no (m− + 1)² grid).
    keys, probs, held = [np.empty(0, np.int64)], [np.empty(0)], 0
    for (ga, gb, c), wc in zip(uniq.tolist(), weights.tolist()):  # one pass per cell triple of the negatives
        x, y, p, t = bivariate_counts(m_neg, n_neg, c, ga - c, gb - c)
        keys.append(x.astype(np.int64) * (m_neg + 1) + y)
        probs.append(wc * p)
        trunc += wc * t
        held += x.size
        if held > 4 * MAX_CELLS // 3:
            keys, probs = _merge_cells(keys, probs)
            held = keys[0].size
            _check_size(held, f"the difference of {metric} at recall {r}/{m_pos}")
    (key,), (prob,) = _merge_cells(keys, probs)
    _check_size(key.size, f"the difference of {metric} at recall {r}/{m_pos}")
    fa, fb = key // (m_neg + 1), key % (m_neg + 1)
    # One division of exact integers (as recall_law): the same difference gives the same float in both routes.
    return Law(recall_delta(metric, r, m_pos, fa, fb), prob, truncated=trunc_k + trunc, merge_atol=_DELTA_ATOL)


def _merge_cells(keys, probs):
    key, inv = np.unique(np.concatenate(keys), return_inverse=True)
    return [key], [np.bincount(inv.ravel(), weights=np.concatenate(probs), minlength=key.size)]


def _paired_data(y_true, score_a, score_b, pos_label) -> PairedClasses:
    """Both classes as tables of distinct (score_a, score_b) pairs with counts; a :class:`~rocci.PairedCounts`
    is taken as it is (never expanded to one row per instance)."""
    if isinstance(y_true, PairedCounts):
        if score_a is not None or score_b is not None:
            paired_input(y_true, score_a, score_b, pos_label)  # its message
        return PairedClasses.from_table(y_true)
    mask, sa, sb = _check_paired(y_true, score_a, score_b, pos_label)
    return PairedClasses.from_arrays(sa[mask], sb[mask], sa[~mask], sb[~mask])


def compare_precision(y_true, score_a=None, score_b=None, *, thresholds_a=None, thresholds_b=None, recall=None,
                      metric="precision", confidence_level=0.95, method="percentile", bootstrap="stratified",
                      m=None, pos_label=None, beta=1.0) -> PrecisionComparison:
    """Exact paired bootstrap law of ``Δ = metric_a − metric_b`` (model A − model B), and ``P(A better)``.

    At threshold pairs: ``P(Δ* = d) = Σ P(TP*_a = x, TP*_b = y) · P(FP*_a = u, FP*_b = v)`` over the
    cells with ``g(x, u) − g(y, v) = d``, ``g`` the metric of a stratified sample
    (``FN = m+ − TP``, ``TN = m− − FP``) and each joint law from the paired cells
    (module docstring).  At recall level ``r/m+`` (``recall``; precision or F1):
    ``P(Δ* = d) = Σ_{k, j} P(K = k, J = j) · Σ P(FP*_a = u, FP*_b = v | k, j)`` over
    ``g(u) − g(v) = d``, ``g(f) = r/(r + f)``.

    Parameters
    ----------
    y_true : array_like
    score_a, score_b : array_like
        Two models' scores of the same instances; A is ``score_a``.
    thresholds_a, thresholds_b : array_like, optional
        Threshold pairs (``thresholds_b`` defaults to ``thresholds_a``; a single value is repeated).
    recall : array_like, optional
        Recall levels instead of thresholds (mapped to ``r/m+``, ``1 <= r <= m+``).
    metric : str, default "precision"
        Any metric of :func:`rocci.precision.metric_ci` at thresholds; ``"precision"`` or ``"f1"`` at recall levels.
    confidence_level, method, m, pos_label, beta
        As in :func:`rocci.precision.metric_ci`.
    bootstrap : {"stratified"}
        The paired laws are computed for the stratified bootstrap.

    Returns
    -------
    PrecisionComparison
        ``to_frame()``: ``threshold_a, threshold_b`` (or ``recall, r``), ``delta_<metric>``,
        ``delta_<metric>_mean, _std, _low, _high``, ``p_a_better = P(Δ* > 0)``, ``p_tie = P(Δ* = 0)``,
        ``p_undefined``, ``truncated_mass``.  A larger metric is better, so a positive Δ favours A.

    Notes
    -----
    Samples where either model's metric is undefined are left out (the law is
    conditional on both being defined); ``p_undefined`` is their probability.

    **Cost.**  At threshold pairs the law is a table of (joint cells of the positives) ×
    (joint cells of the negatives), O(m+·m−) cells where the models disagree on many
    instances; above 1.2·10^7 cells it raises ``InputError`` (ask for a smaller ``m``).
    At recall levels the negatives' counts are a mixture over the pairs of blocks of the two thresholds,
    summed by the Lancaster series block by block (:mod:`rocci.precision._paired_recall`; pairs of nearly
    identical top sets cell by cell), O(L·B·W²) for B blocks, windows of W counts and L terms, on a grid of
    W² cells that grows like ``m−`` (:func:`recall_grid_cells`; above :data:`MAX_GRID` it raises
    ``InputError``: ~1.7·10⁷ cells at 10⁴ instances with 5% positives).  Which model has the higher
    precision at a recall level is answered at any size by :func:`compare_fpr_at_recall` (the same
    ``p_a_better`` and ``p_tie``; its interval is on the FPR difference).
    """
    metric, beta2 = check_metric(metric, beta)
    level = check_confidence_level(confidence_level)
    check_choice("method", method, PAIRED_METHODS)
    check_choice("bootstrap", bootstrap, ("stratified", "full"))
    if bootstrap != "stratified":
        raise InputError("compare_precision computes the paired laws for bootstrap='stratified' only.")
    data = _paired_data(y_true, score_a, score_b, pos_label)
    n_pos, n_neg = data.n_pos, data.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    alpha = 1.0 - level
    laws, observed = [], []
    ta = tb = r_levels = levels = None
    if recall is not None:
        if thresholds_a is not None or thresholds_b is not None:
            raise InputError("Give either thresholds (thresholds_a, thresholds_b) or recall levels, not both.")
        if metric not in RECALL_METRICS:
            raise InputError(f"At recall levels compare_precision compares {' or '.join(RECALL_METRICS)}; "
                             f"metric={metric!r} is available at threshold pairs (thresholds_a, thresholds_b).")
        from .recall import recall_levels

        r_levels = recall_levels(recall, m_pos)
        levels = r_levels / m_pos
        for r in r_levels:  # refuse before any law is built when a level's grid is too large
            cells = grid_size(data, int(r), m_pos, m_neg)
            if cells > MAX_GRID:
                mixture_grid_refusal(cells, f"the difference of {metric} at recall {int(r)}/{m_pos}")
        k_obs = np.clip(np.ceil(np.round(levels * n_pos, 9)).astype(np.int64), 1, n_pos)
        fa = data.neg_ge(0, data.at_rank(0, k_obs))
        fb = data.neg_ge(1, data.at_rank(1, k_obs))
        if metric == "precision":
            observed = k_obs / (k_obs + fa) - k_obs / (k_obs + fb)
        else:
            observed = 2 * k_obs / (k_obs + fa + n_pos) - 2 * k_obs / (k_obs + fb + n_pos)
        for r in r_levels:
            laws.append(recall_law(data, int(r), metric, m_pos, m_neg))
    else:
        if thresholds_a is None:
            raise InputError("Say where to compare the models: thresholds_a (and optionally thresholds_b), "
                             "or recall levels.")
        ta = _check_thresholds(thresholds_a)
        tb = ta.copy() if thresholds_b is None else _check_thresholds(thresholds_b)
        if ta.size != tb.size:
            if ta.size == 1:
                ta = np.repeat(ta, tb.size)
            elif tb.size == 1:
                tb = np.repeat(tb, ta.size)
            else:
                raise InputError(f"thresholds_a has {ta.size} values but thresholds_b has {tb.size}: they are "
                                 "compared in pairs, so give as many of each (or one value for one model).")
        pa_, pb_, pc_ = paired_cells(data.pos[0], data.pos[1], ta, tb, data.pos[2])
        na_, nb_, nc_ = paired_cells(data.neg[0], data.neg[1], ta, tb, data.neg[2])
        tpa, tpb, fpa, fpb = pa_ + pc_, pb_ + pc_, na_ + nc_, nb_ + nc_
        observed = (metric_value(metric, tpa, fpa, n_pos - tpa, n_neg - fpa, beta2)
                    - metric_value(metric, tpb, fpb, n_pos - tpb, n_neg - fpb, beta2))
        for i in range(ta.size):  # one pass per threshold pair
            laws.append(_threshold_law(metric, beta2, (int(pc_[i]), int(pa_[i]), int(pb_[i])),
                                       (int(nc_[i]), int(na_[i]), int(nb_[i])), n_pos, n_neg, m_pos, m_neg))
    h = len(laws)
    out = {key: np.empty(h) for key in ("mean", "std", "low", "high", "better", "tie", "undef", "trunc")}
    for i, law in enumerate(laws):
        out["mean"][i], out["std"][i] = law.mean, law.std
        span = "delta_lift" if metric == "lift" else "youden"  # Δ lies in [−1, 1] but for the lift
        out["low"][i], out["high"][i] = _interval(law, span, alpha, method)
        out["better"][i], out["tie"][i] = law.prob(law.values > 0), law.prob(law.values == 0)
        out["undef"][i], out["trunc"][i] = law.p_undefined, law.truncated
    return PrecisionComparison(
        metric=metric, thresholds_a=ta, thresholds_b=tb, recall=levels, r=r_levels,
        delta=np.asarray(observed, float), delta_mean=out["mean"], delta_std=out["std"], delta_low=out["low"],
        delta_high=out["high"], p_a_better=out["better"], p_tie=out["tie"], p_undefined=out["undef"],
        truncated_mass=out["trunc"], n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, method=method,
        confidence_level=level, _laws=laws,
    )



def recall_grid_cells(y_true, score_a=None, score_b=None, *, recall, m=None, pos_label=None) -> np.ndarray:
    """Cells of the grid of ``(FP*_a, FP*_b)`` that :func:`compare_precision` builds at each recall level.

    The exact law of Δprecision (or ΔF1) at a recall level is a mixture of bivariate binomials summed on
    that grid: its time and memory grow with the cells (about 0.5 GB at :data:`MAX_GRID`, where
    :func:`compare_precision` refuses).  The grid's side grows like ``√m−``, so the cells grow like ``m−``:
    ~1.7·10⁷ at 10⁴ instances with 5% positives.  :func:`compare_fpr_at_recall` answers which model is
    better at a recall level (the same event) at any size.  Cheap: the two thresholds' windows only.
    """
    data = _paired_data(y_true, score_a, score_b, pos_label)
    m_pos, m_neg = check_m(m, data.n_pos, data.n_neg)
    from .recall import recall_levels

    return np.array([grid_size(data, int(r), m_pos, m_neg) for r in recall_levels(recall, m_pos)], np.int64)


def compare_fpr_at_recall(y_true, score_a=None, score_b=None, *, recall, confidence_level=0.95,
                          method="percentile", m=None, pos_label=None) -> FPRAtRecallComparison:
    r"""Exact paired bootstrap law of the difference of false positive rates at fixed recall levels.

    At level ``r/m+`` each model's threshold is its r-th largest positive score drawn (the same resample of
    positives for both), and ``FP*_a``, ``FP*_b`` count the negatives drawn at or above the thresholds;
    ``ΔFPR* = (FP*_a − FP*_b)/m−``.  This is :func:`rocci.compare_vertical` (ΔTPR at fixed FPR) with the
    classes' roles swapped: the positives give the thresholds, the negatives the rates.  Its law, moments,
    percentile or score interval are computed as there, at any size (from a
    :class:`~rocci.PairedCounts`, without expanding it).

    Both models flag the same ``r`` positives, so

    .. math::

        \text{precision}^*_a > \text{precision}^*_b \iff \frac{r}{r + FP^*_a} > \frac{r}{r + FP^*_b}
        \iff \Delta\text{FPR}^* < 0 :

    ``p_a_better = P(ΔFPR* < 0)`` and ``p_tie`` are exactly :func:`compare_precision`'s ``p_a_better`` and
    ``p_tie`` at the same level (to round-off: tests), whose full law of Δprecision is limited by its grid
    (:func:`recall_grid_cells`).  The interval here is on the FPR difference (a lower FPR is better).

    Parameters
    ----------
    y_true, score_a, score_b, pos_label
        As in :func:`compare_precision`; or a :class:`~rocci.PairedCounts` as ``y_true`` alone.
    recall : array_like
        Recall levels in (0, 1), mapped to ``r/m+`` (nearest ``r``, as :func:`precision_ci`); a level
        mapped to ``r = m+`` (the lowest positive drawn) is refused.
    confidence_level : float, default 0.95
    method : {"percentile", "score"}
        As in :func:`rocci.compare_vertical`.
    m : None, int or (int, int)
        Bootstrap sample sizes ``(m+, m−)``.

    Returns
    -------
    FPRAtRecallComparison
        ``to_frame()``: ``recall, r, fpr_a, fpr_b, delta_fpr, delta_fpr_mean, delta_fpr_std, delta_fpr_low,
        delta_fpr_high, p_a_better, p_tie, truncated_mass``; ``distribution(i)`` the exact law of ΔFPR*.
    """
    from ..compare.vertical import compare_vertical
    from .recall import recall_levels

    data = _paired_data(y_true, score_a, score_b, pos_label)
    n_pos, n_neg = data.n_pos, data.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    r_levels = recall_levels(recall, m_pos)
    if (r_levels >= m_pos).any():
        raise InputError(f"compare_fpr_at_recall needs recall levels below {(m_pos - 0.5) / m_pos:.6g} (r < m+ = "
                         f"{m_pos}): at r = m+ the threshold is the lowest positive drawn; got {recall!r}.")
    if isinstance(y_true, PairedCounts):  # the classes swapped, still a table
        swapped = (PairedCounts(y_true.score_a, y_true.score_b, y_true.n_neg, y_true.n_pos, y_true.names, 1),)
    else:
        mask, sa, sb = _check_paired(y_true, score_a, score_b, pos_label)
        swapped = ((~mask).astype(np.int8), sa, sb)
    vert = compare_vertical(*swapped, fpr=r_levels / m_pos, confidence_level=confidence_level, m=(m_neg, m_pos),
                            method=method, pos_label=1)
    if not np.array_equal(vert.r, r_levels):  # the two mappings of a level agree (nearest r)
        raise AssertionError(f"recall levels {r_levels} mapped to {vert.r}")
    levels = r_levels / m_pos
    k_obs = np.clip(np.ceil(np.round(levels * n_pos, 9)).astype(np.int64), 1, n_pos)
    fpr_a = data.neg_ge(0, data.at_rank(0, k_obs)) / n_neg
    fpr_b = data.neg_ge(1, data.at_rank(1, k_obs)) / n_neg
    better = np.array([min(1.0, float(pmf[d < 0].sum())) for d, pmf in vert._laws])
    return FPRAtRecallComparison(
        recall=levels, r=r_levels, fpr_a=fpr_a, fpr_b=fpr_b, delta_fpr=fpr_a - fpr_b,
        delta_fpr_mean=vert.delta_tpr_mean, delta_fpr_std=vert.delta_tpr_std, delta_fpr_low=vert.delta_tpr_low,
        delta_fpr_high=vert.delta_tpr_high, p_a_better=better, p_tie=vert.p_tie,
        truncated_mass=vert.truncated_mass, n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg,
        method=vert.method, confidence_level=vert.confidence_level, _laws=vert._laws,
        _vertical=dataclasses.replace(vert, _joint=[]),  # its laws and moments, not the data behind the joints
    )
