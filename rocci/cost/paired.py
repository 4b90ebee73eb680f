"""compare_cost: the exact paired law of the cost difference of two models, A − B.

Thesis §5.1 (eqs. 5.6–5.8, stratified), §5.2 (eqs. 5.12–5.14, full bootstrap) and §5.4 (pseudo-counts).
"""

from __future__ import annotations

import numpy as np

from .._core.inputs import check_choice, check_confidence_level, check_labels, check_scores, split_by_class
from .._core.counts import paired_input
from .._core.counts import PairedCounts, joint_ge_counts, score_counts
from ._common import (
    AGRESTI_MIN_ADD,
    BOOTSTRAPS,
    COST_METHODS,
    _bootstrap_sizes,
    _check_add,
    _check_thresholds,
    _check_w,
    _scales,
    _size_fields,
)
from .fourier import _decided_below_zero, _paired_p_below, _stratified_p_below_zero
from .hull import _Envelope
from ._bounds import _moments, paired_bounds, paired_cells
from .results import CostComparison


def _check_paired(y_true, score_a, score_b, pos_label):
    y_true, score_a, score_b, pos_label = paired_input(y_true, score_a, score_b, pos_label)
    mask, pos_label = check_labels(y_true, pos_label)
    a = check_scores(score_a, name="score_a", n=mask.size)
    b = check_scores(score_b, name="score_b", n=mask.size)
    return mask, a, b


def _paired_classes(y_true, score_a, score_b, pos_label):
    """Both models' scores split by class, with each model's :class:`~rocci.ScoreCounts`.

    Returns ``(pos, neg, counts_a, counts_b)``: ``pos = (a, b, weights)`` the
    positives' scores under model a and model b, one entry per instance
    (``weights`` None) or, for a :class:`~rocci.PairedCounts`, one entry per
    distinct pair row holding positives (``weights`` its positives' counts);
    ``neg`` likewise.  A table is never expanded to one row per instance: its
    margins (``PairedCounts.model``) are the models' tables of distinct scores.
    """
    if isinstance(y_true, PairedCounts):
        if score_a is not None or score_b is not None:
            paired_input(y_true, score_a, score_b, pos_label)  # its message
        t = y_true
        p, q = t.n_pos > 0, t.n_neg > 0
        return ((t.score_a[p], t.score_b[p], t.n_pos[p]), (t.score_a[q], t.score_b[q], t.n_neg[q]),
                t.model(0), t.model(1))
    mask, sa, sb = _check_paired(y_true, score_a, score_b, pos_label)
    (pos_a, neg_a), (pos_b, neg_b) = split_by_class(mask, sa, sb)
    return (pos_a, pos_b, None), (neg_a, neg_b, None), score_counts(pos_a, neg_a), score_counts(pos_b, neg_b)


def _paired_cells(a, b, weights, counts_a, counts_b, ta, tb, positives):
    """Paired cells of one class at threshold pairs ``(ta[p], tb[p])``, as
    :func:`rocci._core.counts.paired_cells`, from the class's scores ``a``, ``b`` and
    the models' counts ``counts_a``, ``counts_b`` (no sort of the class's
    scores again).

    ``n_both[p] = Σ_k w_k·1{a_k >= ta[p], b_k >= tb[p]}`` (``w_k = 1`` per
    instance, or a pair row's count: one weighted 2-D histogram,
    :func:`rocci._core.counts.joint_ge_counts`); ``n_a = n_{a >= ta} − n_both`` and
    ``n_b = n_{b >= tb} − n_both``, with the one-model counts ``n_{a >= ta}``
    read off ``counts_a`` (binary searches of its sorted scores or of its
    distinct scores' cumulative counts).
    """
    ua, ia = np.unique(ta, return_inverse=True)
    ub, ib = np.unique(tb, return_inverse=True)
    both = joint_ge_counts(a, b, ua, ub, weights)[ia.ravel(), ib.ravel()]
    ge_a = counts_a.n_pos_ge(ta) if positives else counts_a.n_neg_ge(ta)
    ge_b = counts_b.n_pos_ge(tb) if positives else counts_b.n_neg_ge(tb)
    return (ge_a - both).astype(np.int64), (ge_b - both).astype(np.int64), both.astype(np.int64)


def compare_cost(
    y_true,
    score_a=None,
    score_b=None,
    *,
    w=None,
    thresholds_a=None,
    thresholds_b=None,
    pos_label=None,
    bootstrap="stratified",
    confidence_level=0.95,
    method="agresti-coull",
    m=None,
    add=AGRESTI_MIN_ADD,
) -> CostComparison:
    """Exact bootstrap comparison of two models' costs on the same instances.

    ``ΔC = C_a − C_b = w(TPR_b − TPR_a) + (1 − w)(FPR_a − FPR_b)``, each model
    at its own threshold, held fixed across bootstrap samples: A − B, like
    every paired result of rocci, so ``ΔC < 0`` where model a is cheaper.  The
    thesis's ``ΔC = C2 − C1`` (eq. 5.6, model 1 = a, model 2 = b) is its
    negative: its law is the mirror image of this one.  Paired cells per class: ``a`` = model a says
    positive and b negative, ``b`` = the reverse (the rest agree).  With
    ``p_a±``, ``p_b±`` their within-class proportions:

    * stratified (eqs. 5.7–5.8): ``(A+*, B+*, ·) ~ Multinomial(m+; p_a+, p_b+, ·)``
      and likewise among the negatives, independent;
      ``ΔC* = w(B+* − A+*)/m+ + (1 − w)(A−* − B−*)/m−``,

      ``E = w(p_b+ − p_a+) + (1 − w)(p_a− − p_b−)``,
      ``Var = w²[p_a+ + p_b+ − (p_a+ − p_b+)²]/m+ + (1 − w)²[p_a− + p_b− − (p_a− − p_b−)²]/m−``
      (eqs. 5.7–5.8 with the sign flipped; the variance does not change).

      The thesis defines the negative counts "identically" to the positive
      ones, which flips the sign of the negative term of the mean; the form
      above is the one the bootstrap confirms (math.md §5).
    * full (eqs. 5.12–5.14, rescaled as in :func:`cost_ci`): one multinomial of
      ``m`` draws over the six paired cells of both classes,
      ``ΔC* = w(B+* − A+*)/(m·π+) + (1 − w)(A−* − B−*)/(m·π−)``.

    Parameters
    ----------
    y_true : array_like of shape (n,), or PairedCounts
        Labels; or a :class:`~rocci.PairedCounts` (two models' distinct score
        pairs with their numbers of positives and negatives; leave the scores
        out), which is never expanded to one row per instance: the paired
        cells at each threshold pair are weighted 2-D histograms of its rows,
        and every law depends on the data only through those cells, so the
        results are those of the raw data in O(rows) memory.
    score_a, score_b : array_like of shape (n,)
        The two models' scores of the same instances.
    w : float or array_like, optional
        Operating points in [0, 1]; default 101 points ``0, 0.01, …, 1``.
    thresholds_a, thresholds_b : float or array_like, optional
        One threshold for all ``w`` or one per ``w``.  A model without
        thresholds uses its own envelope minimiser at each ``w``.
    pos_label : object, optional
    bootstrap : {"stratified", "full"}
    confidence_level : float, default 0.95
    method : {"agresti-coull", "wald", "percentile"}
        ``"agresti-coull"`` (Agresti & Min 2005; table 5.2): ``add`` in each of
        the four paired cells of each class (a, b, both positive, both
        negative), i.e. ``p̃ = (m·p + add)/(m + 4·add)``, then Wald with the
        moments above at ``p̃`` and ``m + 4·add`` (full: all eight cells pooled,
        ``m + 8·add``).  ``"wald"``: exact moments.  Both clipped to [−1, 1].
        ``"percentile"``: quantiles of the exact lattice law of ``ΔC*``.
    m : None, int or (int, int)
        As in :func:`cost_ci`.
    add : float, default :data:`AGRESTI_MIN_ADD` (½)
        Agresti–Min pseudo-count per paired cell (why ½: see :data:`AGRESTI_MIN_ADD`).

    Returns
    -------
    CostComparison
        ``to_frame()``: ``w, threshold_a, threshold_b, delta_cost,
        delta_cost_std, delta_cost_low, delta_cost_high, p_a_cheaper``
        (+ the paired cells).  ``p_a_cheaper = P(ΔC* < 0)``, the probability
        that model a costs strictly less, is exact for every method.

        Changed in 0.2.0: ``delta_cost`` was ``C_b − C_a`` and the last column
        ``p_b_cheaper``; negate the old values (and swap the interval's ends)
        to compare.

    Notes
    -----
    Every draw moves ``U = B+* − A+*`` by ±1, ``V = A−* − B−*`` by ±1, or
    nothing, so ``(U, V)`` is a sum of i.i.d. lattice steps whose
    characteristic function is a power: ``E[e^{iθU}] = (1 − p_a − p_b +
    p_b e^{iθ} + p_a e^{−iθ})^{m+}`` for a class (stratified: ``U`` and ``V``
    independent) and ``(r_0 + r_{b+}e^{iθ₁} + r_{a+}e^{−iθ₁} + r_{a−}e^{iθ₂} +
    r_{b−}e^{−iθ₂})^m`` over the six pooled cells (full bootstrap).  Its
    inverse FFT on windows of ±(10 sd + 20) around the mean gives the exact
    law (mass outside the windows < 1e-20, round-off ~1e-17; impossible
    points, e.g. the wrong parity when every instance disagrees, are set to
    0): O(W log W) per class, O(W² log W) for the full bootstrap's joint law
    (W ~ 20·sqrt(m·(p_a + p_b))).  The laws are combined on the lattice
    ``a·U + b·V`` through ``Σ_u P(U = u, V <= ⌊(c − a·u)/b⌋)``; the
    percentile bounds by a search with exact CDF evaluations.
    ``P(ΔC* < 0)`` takes one evaluation; stratified, the laws of every
    threshold pair come from one batched FFT; for the full bootstrap it comes
    straight from the few dozen × few dozen significant Fourier terms by
    Parseval (O(W) per term, no W × W table), so the table is built only for
    percentile bounds, and refused (InputError) beyond 4·10⁷ cells.  Where a
    Chernoff bound (the exact moment generating function of ``ΔC*``) puts
    ``P(ΔC* < 0)`` within 1e-20 of 0 or 1, that value is reported and no law
    is built: at n = 10⁶ most operating points, unless the two costs are within
    about ten standard deviations of each other.  Only the law of one
    threshold pair is kept in memory at a time.

    Examples
    --------
    >>> from rocci.cost import compare_cost
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> res = compare_cost(y, [.1, .3, .6, .4, .7, .9], [.2, .5, .1, .3, .8, .6],
    ...                    w=0.5, thresholds_a=0.5, thresholds_b=0.5, method="wald")
    >>> round(float(res.delta_cost[0]), 4), round(float(res.p_a_cheaper[0]), 4)
    (0.0, 0.3704)
    """
    level = check_confidence_level(confidence_level)
    check_choice("bootstrap", bootstrap, BOOTSTRAPS)
    check_choice("method", method, COST_METHODS)
    add = _check_add(add)
    pos, neg, counts_a, counts_b = _paired_classes(y_true, score_a, score_b, pos_label)
    w = _check_w(w)
    n_pos, n_neg = counts_a.n_pos, counts_a.n_neg
    sizes = _bootstrap_sizes(bootstrap, m, n_pos, n_neg)

    def thresholds_for(counts, given, name):
        if given is not None:
            return _check_thresholds(name, given, w.size)
        env = _Envelope.from_counts(counts)
        return env.thresholds[env.minimiser(w)]

    ta = np.atleast_1d(np.asarray(thresholds_for(counts_a, thresholds_a, "thresholds_a"), dtype=float))
    tb = np.atleast_1d(np.asarray(thresholds_for(counts_b, thresholds_b, "thresholds_b"), dtype=float))
    na_p, nb_p, both_p = _paired_cells(*pos, counts_a, counts_b, ta, tb, True)
    na_n, nb_n, both_n = _paired_cells(*neg, counts_a, counts_b, ta, tb, False)

    # ΔC = C_a − C_b over the paired cells (see paired_cells)
    coef_pos, coef_neg, counts_pos, counts_neg = paired_cells(w, na_p, nb_p, na_n, nb_n, n_pos, n_neg, both_p, both_n)
    pi_pos = n_pos / (n_pos + n_neg)
    delta, var = _moments(coef_pos, counts_pos / n_pos, coef_neg, counts_neg / n_neg,
                          bootstrap, sizes, pi_pos)
    std = np.sqrt(var)

    # P(ΔC* < 0) at every w: where a Chernoff bound settles it within 1e-20 of 0 or 1,
    # no law is built; elsewhere one law per distinct threshold pair (the paired
    # cells), evaluated at all its w at once.  Full bootstrap: straight from the
    # transform (whatever the method, so it is the same number for every method);
    # the table of the joint law is built only for percentile bounds.
    a_all, b_all = _scales(w, bootstrap, sizes, n_pos, n_neg)
    a_all, b_all = np.broadcast_to(a_all, w.shape), np.broadcast_to(b_all, w.shape)
    n = n_pos + n_neg
    if bootstrap == "full":
        groups = [(sizes, np.column_stack([a_all, -a_all, b_all, -b_all]),
                   np.column_stack([nb_p, na_p, na_n, nb_n]) / n)]
    else:
        groups = [(sizes[0], np.column_stack([a_all, -a_all]), np.column_stack([nb_p, na_p]) / n_pos),
                  (sizes[1], np.column_stack([b_all, -b_all]), np.column_stack([na_n, nb_n]) / n_neg)]
    p_cheaper = _decided_below_zero(groups)
    cells = np.column_stack([na_p, nb_p, na_n, nb_n])
    keys, pair = np.unique(cells, axis=0, return_inverse=True)
    pair = pair.ravel()
    if bootstrap == "stratified":  # every pair's two one-dimensional laws in one batch
        open_ = np.flatnonzero(np.isnan(p_cheaper))
        if open_.size:
            used, sub = np.unique(pair[open_], return_inverse=True)  # only the pairs still open
            p = _stratified_p_below_zero(keys[used], n_pos, n_neg, sizes, sub.ravel(), a_all[open_], b_all[open_])
            p_cheaper[open_] = np.clip(p, 0.0, 1.0)
    for g, key in enumerate(keys):
        at = np.flatnonzero(pair == g)
        open_ = at[np.isnan(p_cheaper[at])]
        if open_.size:  # full bootstrap: straight from the transform
            spectrum = _paired_p_below(key[:2], key[2:], n_pos, n_neg, sizes)
            p_cheaper[open_] = np.clip(spectrum.below_lines(0.0, a_all[open_], b_all[open_], strict=True), 0.0, 1.0)
    low, high = paired_bounds(method, level, w, na_p, nb_p, na_n, nb_n, n_pos, n_neg, bootstrap, sizes, add, delta,
                              std)

    return CostComparison(
        w=w,
        threshold_a=ta,
        threshold_b=tb,
        delta_cost=delta,
        delta_cost_std=std,
        delta_cost_low=low,
        delta_cost_high=high,
        p_a_cheaper=p_cheaper,
        n_a_pos=na_p,
        n_b_pos=nb_p,
        n_a_neg=na_n,
        n_b_neg=nb_n,
        n_pos=n_pos,
        n_neg=n_neg,
        bootstrap=bootstrap,
        method=method,
        confidence_level=level,
        add=add,
        **_size_fields(bootstrap, sizes),
    )
