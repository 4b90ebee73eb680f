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
map ``f ↦ r/(r + f)`` applied.  The kernels are rocci._core.exact's, made faster for this
use with the same results (``tests/precision/test_fast_routes.py``):

* the order statistic's law of every level at once
  (:func:`rocci.precision._laws.order_statistic_weights`: the Gauss–Legendre densities from
  anchored ratios);
* the percentile bounds by :class:`rocci.precision._laws.SaturatedMixture` (the quantile search
  of :func:`rocci._core.exact.mixture_quantile`, incomplete beta functions only for the components
  whose binomial is not saturated at the point, a Newton step instead of a bisection from 0
  when the first guess is far), searched in the interpolated mixture of
  :func:`rocci.precision._laws.interpolated_mixtures` (a few nodes per standard deviation of one
  binomial; answers near the level searched again in the components: :func:`_percentile_counts`);
* the mean and variance by Chebyshev interpolation of the components' moments
  (:func:`_interpolated_moments`), each node's sums over a coarse lattice (:func:`_lattice_moments`).

At 10^6 rows (10% positives) the 99 default levels take about 5–6 argsorts of the same
scores (8–10 before the interpolated mixtures and lattices, 19 before that), ``bench/bench_precision.py``.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
from scipy import special

from .._core.compat import warn_deprecated
from .._core.inputs import InputError, check_choice, check_confidence_level, check_m
from .._core.counts import binary_counts
from .._core.counts import ScoreCounts, _at_rank
from .._core.exact import (
    QUANTILE_TOL,
    _boost_binom_pmf,
    _outward_ratio_products,
    compress_mixture,
    mixture_moments,
    mixture_pmf,
    mixture_skewness,
)
from ._laws import (CELL_EPS, INTERPOLATION_MARGIN, Law, SaturatedMixture, bernstein_bounds, interpolated_mixtures,
                    order_statistic_weights, score_interval, window_tails)
from ._results import RecallPrecisionCI

__all__ = ["recall_levels", "DEFAULT_RECALL", "RECALL_METHODS", "precision_at_recall"]

#: Interval methods at fixed recall (``"percentile"`` is the default).
RECALL_METHODS = ("percentile", "score", "wald")

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
#: Rows of pmf copied slice by slice (more: gathered with one index array).
_FEW_ROWS = 64


def _dct_matrix(n: int) -> np.ndarray:
    """``(2/n)·cos(π·k·(j + ½)/n)``, row 0 halved: Chebyshev coefficients from values at the ``n`` nodes."""
    mat = 2.0 / n * np.cos(np.pi * np.outer(np.arange(n), np.arange(n) + 0.5) / n)
    mat[0] /= 2
    return mat


_DCT = {n: _dct_matrix(n) for n in _NODES}


def _chebyshev_values(x: np.ndarray, coef: np.ndarray) -> np.ndarray:
    """``Σ_k coef[k, i]·T_k(x)`` for each column ``i`` (Clenshaw's recurrence, all columns at once)."""
    b1 = np.zeros((coef.shape[1], x.size))
    b2 = np.zeros_like(b1)
    x2 = 2.0 * x
    for c in coef[:0:-1]:
        b1, b2 = c[:, None] + x2 * b1 - b2, b1
    return coef[0][:, None] + x * b1 - b2


class _Work:
    """Work arrays reused from call to call within one :func:`_precision_at_recall` (fresh arrays of this size
    cost more in page faults than in arithmetic); one per call, never shared between threads."""

    def __init__(self):
        self._bufs: dict = {}

    def get(self, name: str, shape: tuple, dtype=np.float64) -> np.ndarray:
        size = math.prod(shape)
        buf = self._bufs.get(name)
        if buf is None or buf.size < size:
            buf = self._bufs[name] = np.empty(size, dtype=dtype)
        return buf[:size].reshape(shape)


def _component_moments(r: int, q: np.ndarray, m: int, centre: float, work: _Work | None = None):
    """``h_k(q_j) = Σ_f b(f; m, q_j)·(r/(r + f) − centre)^k``, k = 1, 2, each over the window ``lo_j..hi_j`` of
    ``Bin(m, q_j)`` (1e-17 per tail), in blocks of components; also each window's left-out mass.

    One row per component: one boost pmf at the row's mode ``a`` and the ratios ``b(f + 1)/b(f) =
    (m − f)/(f + 1)·q/(1 − q)`` multiplied from the window's start (one cumulative product) and divided by the
    product at the mode, ``b(f) = b(a)·P_f/P_a`` (a few ulp per step between ``f`` and ``a``, as products taken
    outwards from the mode); rows where the product would overflow (more than 300 decades between the start and
    the mode) are multiplied outwards from the mode (:func:`rocci._core.exact._outward_ratio_products`).  The ratios
    ``(m − f)/(f + 1)``, the values ``r/(r + f) − centre`` and their squares are computed once on the union of
    the windows and gathered per row; the ratio is set to 0 past ``hi_j`` (the product vanishes there) and the
    two sums are row-wise dot products."""
    lo, hi, _ = bernstein_bounds(m, q, CELL_EPS)
    left = window_tails(m, q, lo, hi)
    span = hi - lo
    width = int(span.max()) + 1
    base = int(lo.min())
    grid = np.arange(base, int(lo.max()) + width + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (m - grid) / (grid + 1.0)
        dev = r / (r + grid) - centre
    h1, h2 = np.empty(q.size), np.empty(q.size)
    rows = max(1, min(q.size, _BLOCK // width))
    cols = np.arange(width)[None, :]
    work = _Work() if work is None else work
    shape = (rows, width)
    up_buf, pmf_buf, dev_buf = work.get("up", shape), work.get("pmf", shape), work.get("dev", shape)
    past_buf, idx_buf = work.get("past", shape, bool), work.get("idx", shape, np.int64)
    for a in range(0, q.size, rows):  # blocks of mixture components, never of instances
        b = slice(a, a + rows)
        off = lo[b] - base
        qb = q[b]
        k = qb.size
        up, pmf, devb, past, idx = up_buf[:k], pmf_buf[:k], dev_buf[:k], past_buf[:k], idx_buf[:k]
        few = k <= _FEW_ROWS  # a few rows: copied as slices; many: gathered by one index array
        if few:
            for j, o in enumerate(off.tolist()):
                up[j] = ratio[o:o + width]
        else:
            np.add(off[:, None], cols, out=idx)  # row j: grid positions lo_j − base + t
            np.take(ratio, idx, out=up)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            up *= (qb / (1.0 - qb))[:, None]  # b(f + 1)/b(f)
            np.greater_equal(cols, span[b, None], out=past)
            np.copyto(up, 0.0, where=past)
            pmf[:, 0] = 1.0
            np.cumprod(up[:, :-1], axis=1, out=pmf[:, 1:])
            mode = (np.clip(np.floor((m + 1.0) * qb), lo[b], hi[b]) - lo[b]).astype(np.int64)
            at_mode = pmf[np.arange(k), mode]
            wide = ~(at_mode < 1e300)
            if wide.any():  # more than 300 decades between the window's start and the mode
                pmf[wide] = _outward_ratio_products(up[wide], mode[wide])
                at_mode[wide] = 1.0
        pmf *= (_boost_binom_pmf((lo[b] + mode).astype(np.float64), float(m), qb) / at_mode)[:, None]
        if few:
            for j, o in enumerate(off.tolist()):
                devb[j] = dev[o:o + width]
        else:
            np.take(dev, idx, out=devb)
        h1[b] = np.einsum("ij,ij->i", pmf, devb)
        np.multiply(pmf, devb, out=up)
        h2[b] = np.einsum("ij,ij->i", up, devb)
    return h1, h2, left


#: The coarse lattice of :func:`_lattice_moments`: its step at most 1/``_STEP_SDS`` of the binomial's sd and
#: 1/``_STEP_POLE`` of the distance from the window to the pole of ``r/(r + f)`` at ``f = −r``.
_STEP_SDS = 6.0
_STEP_POLE = 15.0


def _lattice_moments(r: int, q: np.ndarray, m: int, centre: float):
    """:func:`_component_moments`' sums ``h_k(q_j) = Σ_f b(f; m, q_j)·(r/(r + f) − centre)^k`` (k = 1, 2) over
    the same windows ``lo_j..hi_j`` (1e-17 per tail), and the same left-out masses, from every ``s_j``-th term:
    ``h_k ≈ s_j·Σ_i b(f_i)·g(f_i)^k`` at ``f_i = lo_j + i·s_j`` (the boost pmf at each point).

    The summand ``F(f) = b(f; m, q)·g(f)^k`` (``b`` continued by the gamma function) is analytic but for the
    pole of ``g`` at ``f = −r``, and bell-shaped with the binomial's sd ``σ``: by Poisson's summation formula
    the sum over the integers and ``s`` times the sum over a lattice of step ``s`` both differ from
    ``∫F`` by the Fourier transform of ``F`` at ``1``, resp. ``1/s``, at most about
    ``exp(−min(2π²σ²/s², π·(r + lo)/s))`` of the sum for a normal-like bell: below 1e-20 with
    ``s <= σ/6`` and ``s <= (r + lo)/15`` (``s = 1``, the plain sum, when either is below 2).  The windows'
    ends carry 1e-17 of the mass, so the few integers past the lattice's last point change nothing.  What
    remains is the rounding of the boost pmf (up to ~1e-13 relative per point at 10^6 rows, which the sum
    over every count averages and a lattice sample of ~100 points does not): the lattice's sums are divided
    by its own total ``s·Σ_i b(f_i)`` and multiplied by the window's exact mass ``1 − left`` (if ``s > 1``),
    which leaves a few 1e-15 of the sums (``tests/precision/test_recall_speed_paths.py``), far inside the
    1e-13 to which the Chebyshev series of :func:`_interpolated_moments` is cut.  About a hundred pmf values
    per node instead of the window's thousands of ratio products.  ``q`` inside (0, 1)."""
    lo, hi, _ = bernstein_bounds(m, q, CELL_EPS)
    left = window_tails(m, q, lo, hi)
    sd = np.sqrt(m * q * (1.0 - q))
    step = np.maximum(np.floor(np.minimum(sd / _STEP_SDS, (r + lo) / _STEP_POLE)), 1.0).astype(np.int64)
    count = (hi - lo) // step + 1
    first = np.concatenate(([0], np.cumsum(count[:-1])))
    row = np.repeat(np.arange(q.size), count)
    f = (lo[row] + step[row] * (np.arange(row.size) - first[row])).astype(np.float64)
    pmf = _boost_binom_pmf(f, float(m), q[row])
    # s·Σ b(f_i) is the window's mass 1 − left up to the pmf's rounding: the sums are taken relative to it
    # (with s = 1 the sums are the plain ones).
    scale = np.where(step > 1, (1.0 - left) / np.add.reduceat(pmf, first), 1.0)
    dev = r / (r + f) - centre
    pmf *= dev
    h1 = np.add.reduceat(pmf, first) * scale
    pmf *= dev
    h2 = np.add.reduceat(pmf, first) * scale
    return h1, h2, left


def _interpolated_moments(r: int, q: np.ndarray, m: int, centre: float, work: _Work | None = None):
    """``h_1, h_2`` of :func:`_component_moments` at every ``q_j`` (all inside (0, 1)), from their values at
    Chebyshev nodes of ``[min q, max q]`` (each by :func:`_lattice_moments`; ``work`` is not used):
    ``h_k(q) = Σ_f b(f; m, q)·g(f)^k`` is a polynomial in ``q``, smooth on the scale of ``q + r/m`` (its
    pole-like feature sits at ``q = −r/m``), so its Chebyshev series on the components' range converges
    geometrically.  Nodes are doubled until the last three coefficients
    fall below 1e-13 of the largest (the sums at the nodes carry rounding of ~1e-15 of their terms, which
    sets the coefficients' floor); ``None`` if they never do (the caller then sums every component)."""
    a, b = float(q.min()), float(q.max())
    x = (2 * q - (a + b)) / (b - a) if b > a else np.zeros(q.size)
    for n in _NODES:
        nodes = np.cos(np.pi * (np.arange(n) + 0.5) / n)
        qn = np.clip((a + b) / 2 + (b - a) / 2 * nodes, a, b)
        h1, h2, left = _lattice_moments(r, qn, m, centre)
        coef = _DCT[n] @ np.column_stack([h1, h2])
        scale = np.abs(coef).max(axis=0)
        if ((scale > 0) & (np.abs(coef[-3:]).max(axis=0) > _CHEB_TOL * scale)).any():
            continue
        values = _chebyshev_values(x, coef)
        return values[0], values[1], float(left.max())
    return None


def _precision_moments(r: int, weights: np.ndarray, q: np.ndarray, m: int, centre: float,
                       work: _Work | None = None):
    """Mean and variance of ``r/(r + X)``, ``X ~ Σ_j w_j Bin(m, q_j)``, each component summed over its
    window (1e-17 per tail); also the mass left out."""
    lo, hi, _ = bernstein_bounds(m, q, CELL_EPS)
    inner = (q > 0) & (q < 1)
    if q.size * (int((hi - lo).max()) + 1) > _DIRECT and inner.sum() > 2 * _NODES[-1]:
        moments = _interpolated_moments(r, q[inner], m, centre, work)
        if moments is not None:
            h1, h2 = np.empty(q.size), np.empty(q.size)
            h1[inner], h2[inner] = moments[:2]
            if not inner.all():  # Bin(m, 0) and Bin(m, 1): one value each
                e1, e2, _ = _component_moments(r, q[~inner], m, centre, work)
                h1[~inner], h2[~inner] = e1, e2
            total = float(weights.sum())
            mean_d = float(weights @ h1) / total
            # The sums are taken at the nodes, each over its window: the mass they leave out is at most the
            # largest of the nodes' (components at q = 0 or 1 leave out nothing).
            return (centre + mean_d, max(float(weights @ h2) / total - mean_d * mean_d, 0.0),
                    float(weights[inner].sum()) * moments[2])
    h1, h2, left = _component_moments(r, q, m, centre, work)
    total = float(weights.sum())
    mean_d = float(weights @ h1) / total
    return centre + mean_d, max(float(weights @ h2) / total - mean_d * mean_d, 0.0), float(weights @ left)


def positive_at_rank(counts: ScoreCounts, rank) -> np.ndarray:
    """The ``rank``-th largest positive score (``rank`` from 1 to n+), as :meth:`rocci._core.counts.ScoreCounts.neg_at_rank`
    does for the negatives: a gather from the sorted scores, or a binary search in a table of counts (never
    expanded to one row per instance)."""
    rank = np.asarray(rank, dtype=np.int64)
    table = counts._table
    if table is not None:
        values, _, _, below_pos, _ = table
        return _at_rank(values, below_pos[-1] - below_pos[:-1], rank)
    return counts.pos[counts.n_pos - rank]


def _percentile_counts(weights: np.ndarray, q: np.ndarray, m: int, probs, mean: float, sd: float, skew: float,
                       reduced=None):
    """For each ``p`` in ``probs``, the smallest ``f`` with ``P(X <= f) >= p + QUANTILE_TOL``,
    ``X ~ Σ_j w_j·Bin(m, q_j)``: :meth:`SaturatedMixture.quantile` at ``p + 2·QUANTILE_TOL`` (``mean``, ``sd``,
    ``skew`` of ``X/m``, for its first guess).

    Searched in ``reduced``, the mixture's :func:`rocci.precision._laws.interpolated_mixtures` (a few nodes
    per standard deviation of one binomial instead of every component), when there is one; an answer whose
    deciding CDF values lie within :data:`INTERPOLATION_MARGIN` of the level is searched again in the
    components themselves, so the counts are the components' search's
    (``tests/precision/test_recall_speed_paths.py``)."""
    fast = None if reduced is None else SaturatedMixture(reduced[0], reduced[1], m)
    law = None
    out = []
    for p in probs:
        level = p + 2 * QUANTILE_TOL
        f = None
        if fast is not None:
            f = fast.quantile(level, mean, sd, skew)
            if not fast.margin > INTERPOLATION_MARGIN:
                f = None
        if f is None:
            law = SaturatedMixture(weights, q, m) if law is None else law
            f = law.quantile(level, mean, sd, skew)
        out.append(f)
    return out


def _level_law(r: int, weights: np.ndarray, q: np.ndarray, m: int, truncated: float):
    """A builder of the exact law of the precision at level ``r`` (a partial of a module function: it pickles)."""
    return partial(_build_level_law, r, weights, q, m, truncated)


def _build_level_law(r: int, weights: np.ndarray, q: np.ndarray, m: int, truncated: float) -> Law:
    f, probs = mixture_pmf(weights, q, m)
    return Law(r / (r + f), probs, truncated=truncated)


def precision_at_recall(y_true, y_score=None, *, recall=None, confidence_level=0.95, method="percentile", m=None,
                        pos_label=None) -> RecallPrecisionCI:
    """Deprecated: ``rocci.precision_ci(y_true, y_score, recall=...)``, the one function of the precision.

    The same result (``recall=None``: the levels 0.01, 0.02, …, 0.99, as before): both call the one
    implementation below.  DeprecationWarning; goes in rocci 0.4.

    Returns
    -------
    RecallPrecisionCI
    """
    warn_deprecated("rocci.precision_at_recall(y_true, y_score, recall=...) is rocci.precision_ci(y_true, y_score, "
                    "recall=...) since rocci 0.3 (one function of the precision, at thresholds or at recall "
                    "levels).")
    return _precision_at_recall(y_true, y_score, recall=DEFAULT_RECALL if recall is None else recall,
                                confidence_level=confidence_level, method=method, m=m, pos_label=pos_label)


def _precision_at_recall(y_true, y_score=None, *, recall=None, confidence_level=0.95, method="percentile", m=None,
                         pos_label=None) -> RecallPrecisionCI:
    """Exact bootstrap law of the precision at fixed recall levels (stratified bootstrap):
    ``rocci.precision_ci(..., recall=...)``.

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
    1e-13 of its largest coefficient, else every component is summed): about 3 ms per
    level at 10^6 rows, the percentile bounds included.

    The **score** interval (``method="score"``) is Algorithm 4.3's score-like interval
    (:func:`rocci.vertical_ci`'s default) on the exact mean ``e`` and variance ``v``,

    ``[e + z²/2M ± z·sqrt(v + z²/4M²)] / (1 + z²/M)``,  ``M = r/e``,

    clipped to [0, 1] (:func:`rocci.precision._laws.score_interval`): the roots in ``π`` of
    ``(e − π)² = z²·[v + (π(1 − π) − e(1 − e))/M]``.  ``M = r/e = 1/E[1/(r + FP*)]`` is
    the harmonic mean of the number of predicted positives ``r + FP*`` in a bootstrap
    sample, the "trials" of which the precision is the share of true positives.  It
    always contains ``e`` and keeps a width of order ``z²/M`` where the exact law is a
    point mass (precision 1 in every bootstrap sample, where the percentile interval is
    ``[1, 1]``).

    Parameters
    ----------
    recall : array_like, optional
        Recall values, each mapped to the nearest level ``r/m+`` with ``1 <= r <= m+``.
        Default 0.01, 0.02, …, 0.99 (duplicates merged).
    method : {"percentile", "score", "wald"}
        ``"percentile"`` (default): the quantiles above.  ``"score"``: the score-like
        interval above; in the Coverage lab (preset ``pr_recall``, ``docs/coverage.md``)
        it holds 0.93 or more at every recall level with 20 positives in 2,000 (0.925 at
        worst in the other settings tried), where the percentile interval falls to 0.86
        at recall 0.9 (and to 0.63 at recall 0.1 when the precision is near 1).
        ``"wald"``: ``e ± z·sqrt(v)``, clipped to [0, 1].
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
    check_choice("method", method, RECALL_METHODS)
    counts, _ = binary_counts(y_true, y_score, pos_label)  # a ScoreCounts table stays a table
    n_pos, n_neg = counts.n_pos, counts.n_neg
    m_pos, m_neg = check_m(m, n_pos, n_neg)
    r_levels = recall_levels(recall, m_pos)
    levels = r_levels / m_pos
    k_obs = np.clip(np.ceil(np.round(levels * n_pos, 9)).astype(np.int64), 1, n_pos)
    thr = positive_at_rank(counts, k_obs)
    observed = k_obs / (k_obs + counts.n_neg_ge(thr))

    h = r_levels.size
    out = {key: np.empty(h) for key in ("mean", "std", "low", "high", "trunc")}
    laws = []
    work = _Work()
    # The laws of T_r at every level in one pass, and the share of negatives at or above each threshold.
    k_all, w_all, offsets, trunc_all = order_statistic_weights(r_levels, m_pos, n_pos)
    q_all = counts.n_neg_ge(positive_at_rank(counts, k_all)) / n_neg  # non-decreasing in k within each level
    mixtures = [compress_mixture(w_all[offsets[i]:offsets[i + 1]], q_all[offsets[i]:offsets[i + 1]])
                for i in range(h)]
    var = np.empty(h)
    for i, r in enumerate(r_levels):  # one pass per level, each vectorised over its window
        r = int(r)
        trunc_k = float(trunc_all[i])
        cw, cq = mixtures[i]
        mean, var[i], left = _precision_moments(r, cw, cq, m_neg, float(observed[i]), work)
        out["mean"][i], out["std"][i] = mean, np.sqrt(var[i])
        out["trunc"][i] = trunc_k + left
        laws.append(_level_law(r, cw, cq, m_neg, trunc_k))
    relevel = partial(_recall_bounds, r_levels, mixtures, var, m_neg)
    out["low"], out["high"] = relevel(out["mean"], out["std"], level, method)

    return RecallPrecisionCI(
        recall=levels, r=r_levels, threshold=thr, precision=observed, precision_mean=out["mean"],
        precision_std=out["std"], precision_low=out["low"], precision_high=out["high"],
        truncated_mass=out["trunc"], n_pos=n_pos, n_neg=n_neg, m_pos=m_pos, m_neg=m_neg, method=method,
        confidence_level=level, _laws=laws, _relevel=relevel,
    )


def _recall_bounds(r_levels, mixtures, var, m_neg: int, mean, std, level: float, method: str):
    """``(low, high)`` of the precision at the recall levels ``r/m+`` by ``method`` at ``level``, from each
    level's mixture ``(weights, q)`` of the share of negatives at or above ``T_r`` and the exact moments of
    the precision (``mean``, ``var``, ``std``): :func:`precision_ci`'s interval step, and
    :meth:`rocci.precision.RecallPrecisionCI.confidence_interval`'s."""
    h = r_levels.size
    alpha = 1.0 - level
    z = float(special.ndtri(1 - alpha / 2))
    low, high = np.empty(h), np.empty(h)
    reduced = [None] * h
    if method == "percentile":  # the quantile searches' mixtures, all levels at once
        sizes = np.array([cq.size for _, cq in mixtures], dtype=np.int64)
        reduced = interpolated_mixtures(np.concatenate([cw for cw, _ in mixtures]),
                                        np.concatenate([cq for _, cq in mixtures]),
                                        np.concatenate(([0], np.cumsum(sizes))), m_neg)
    for i, r in enumerate(r_levels):
        r = int(r)
        cw, cq = mixtures[i]
        if method == "percentile":
            fm, fv = mixture_moments(cw, cq, m_neg)
            fsd = np.sqrt(max(fv, 0.0))
            skew = mixture_skewness(cw, cq, m_neg, fm, fsd)
            f_hi, f_lo = _percentile_counts(cw, cq, m_neg, (1 - alpha / 2, alpha / 2), fm, fsd, skew, reduced[i])
            low[i], high[i] = r / (r + f_hi), r / (r + f_lo)
        elif method == "score":
            low[i], high[i] = score_interval(mean[i], var[i], r / mean[i], z)
        else:
            low[i] = np.clip(mean[i] - z * std[i], 0, 1)
            high[i] = np.clip(mean[i] + z * std[i], 0, 1)
    return low, high
