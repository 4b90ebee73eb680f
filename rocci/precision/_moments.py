"""Exact mean, sd and harmonic mean of the stratified bootstrap precision at many thresholds at once.

At a threshold held fixed, ``T = TP* ~ Bin(m+, p)`` and ``F = FP* ~ Bin(m−, q)`` are independent
(``p = tp/n+``, ``q = fp/n−``, ``a = 1 − p``, ``b = 1 − q``) and the precision ``X = T/S``, ``S = T + F``,
is undefined when ``S = 0`` (probability ``a^{m+}·b^{m−}``).  :mod:`rocci.precision._cells` sums the
moments over the windows of the two binomials, one threshold at a time (~ms each at 10^6 rows).  Here they
are one-dimensional integrals, evaluated for every threshold at once by a Gauss–Laguerre rule of a few nodes.

**The integrals.**  With ``1/s = ∫_0^∞ e^{−s·t} dt`` and ``1/s² = ∫_0^∞ t·e^{−s·t} dt`` (``s >= 1``), and the
joint probability generating function ``Φ(u) = E[u^S] = (a + p·u)^{m+}·(b + q·u)^{m−}`` at ``u = e^{−t}``:

* ``E[1/S; S > 0] = ∫_0^∞ (Φ(e^{−t}) − Φ(0)) dt``;
* ``E[h(T, F)·u^S] = Φ(u)·E_u[h(T, F)]`` where, under ``E_u``, ``T ~ Bin(m+, p_u)`` and ``F ~ Bin(m−, q_u)``
  independently, ``p_u = p·u/(a + p·u)``, ``q_u = q·u/(b + q·u)`` (the exponentially tilted laws).

Centre the precision on the ratio of the means, ``c0 = m+·p/λ`` with ``λ = E[S] = m+·p + m−·q``:
``X − c0 = D/S`` with ``D = α·T − β·F``, ``α = m−·q/λ = 1 − c0``, ``β = m+·p/λ = c0`` (``D = 0`` when
``S = 0``).  Then

* ``E[D/S; S > 0] = ∫_0^∞ Φ(u)·μ(u) dt``, ``μ(u) = E_u[D] = α·m+·p_u − β·m−·q_u
  = (m+·m−/λ)·p·q·(p − q)·u·(1 − u)/((a + p·u)(b + q·u))`` (no cancellation: the difference is formed
  exactly);
* ``E[D²/S²; S > 0] = ∫_0^∞ t·Φ(u)·V(u) dt``, ``V(u) = E_u[D²] = α²·m+·p_u(1 − p_u) + β²·m−·q_u(1 − q_u)
  + μ(u)²`` (a sum of non-negative terms);

and, given that the precision is defined (``P(def) = 1 − a^{m+}·b^{m−}``), as the package reports it:
``mean = c0 + E[D/S; S > 0]/P(def)``, ``var = E[D²/S²; S > 0]/P(def) − (E[D/S; S > 0]/P(def))²`` and the
score interval's ``M = 1/E[1/S | S > 0] = P(def)/E[1/S; S > 0]``
(:meth:`rocci.precision._cells.StratifiedLaw.predicted_harmonic_mean`).  (Equivalently
``E[T/S] = ∫_0^1 G'(u)·H(u) du`` and ``E[T²/S²] = ∫_0^1 (−log u)·(u·G'(u))'·H(u) du`` with
``G(u) = (a + p·u)^{m+}``, ``H(u) = (b + q·u)^{m−}``; the centred form keeps the variance free of
cancellation when the sd is far below the mean.)

**The rule.**  ``log Φ(e^{−t}) = K(−t)`` is the cumulant generating function of ``S``:
``−λ·t + σ²·t²/2 − …`` with every cumulant ``O(λ)``.  With ``t = x/λ``, the integrands are ``e^{−x}``
times ``exp(σ²x²/(2λ²) − …)`` times rational functions of ``u`` that vary on the scale ``x ~ λ``: a
smooth function of ``x/λ`` with ``σ²/λ² <= 1/λ``, which an ``N``-node Gauss–Laguerre rule integrates with
an error falling like ``λ^{−N}``.  (``Φ(0) = P(S = 0) <= e^{−λ}``: its term is below 1e-24 relative at
``λ >= 60``, and 0 in double precision above :data:`UNDERFLOW`.)  The orders (:data:`QUADRATURE_ORDERS`)
were fixed by measuring the relative error of the mean, sd and ``M`` against exact window sums (deviations
formed from integers, ~2e-15 accurate) on ~5,000 ``(m+, m−, tp, fp)`` (``m±`` from 20 to 10^8, ``p, q``
from 0 to 1 including ``1/n``, ``2/n`` and ``1 − 1/n``, random points, and ``λ`` from 30 to 3,000 at
``tp/(tp + fp)`` from 1% to 99%): in every range the order used is one past the first that reaches the
sums' own rounding, and its error never exceeds 4.4e-15.  Below ``λ = 60`` (the top thresholds, where
``Φ`` flattens out towards ``P(S = 0)`` within the rule's nodes) the rule converges slowly (16 nodes:
5e-5 at ``λ < 30``) and the exact window sums are used instead (small windows there, cheap).

**Evaluation.**  A loop over the nodes, each a few passes over a block of :data:`CHUNK` thresholds.  Where
``λ >= SERIES_MIN``, ``log Φ(e^{−x/λ}) + x = Σ_{k >= 2} (−1)^k·κ_k·x^k/(k!·λ^k)`` (the cumulants ``κ_k``
of ``S`` from the binomials' recurrence, :func:`_cumulant_polynomials`; the series converges for
``t < π`` and is cut where the first term left out is below 1e-18) replaces two logarithms per node and
the cancellation of ``−λt`` against ``+x``, and ``e^z``, ``e^{−t} − 1`` of arguments below
:data:`SMALL_ARG` come from their Taylor polynomials (:func:`_exp_small`).

Inputs are as the binomial pmfs of the exact route see them: ``p = tp/n+`` rounded and ``a = 1 − p`` (for
``p`` near 1 this differs from ``(n+ − tp)/n+`` by up to ``2^−53/a`` relative, i.e. the package's exact law is
that of ``Bin(m+, fl(tp/n+))``; the moments here are those of the same law).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special


#: ``(λ_min, N)``: thresholds with ``λ = m+·p + m−·q >= λ_min`` (the first that applies) use an ``N``-node
#: Gauss–Laguerre rule; below :data:`QUADRATURE_MIN` the exact window sums.  Maximum relative error of
#: (mean, sd, M) against exact sums in each range, with N − 1 / N / N + 1 nodes (module docstring):
#: λ >= 30000, 4 nodes: 1.4e-12 / 4.4e-15 / 4.2e-15; 5000-30000, 5: 8.1e-14 / 1.6e-15 / 1.6e-15;
#: 1500-5000, 6: 1.0e-14 / 1.3e-15 / 1.4e-15; 700-1500, 7: 2.9e-15 / 9.0e-16 / 1.0e-15;
#: 400-700, 8: 1.5e-15 / 9.1e-16 / 8.4e-16; 200-400, 10: 8.7e-16 / 1.1e-15 / 1.2e-15;
#: 100-200, 12: 1.2e-15 / 1.5e-15 / 1.2e-15; 60-100, 16: 1.5e-15 / 9.9e-16 / 1.4e-15.
QUADRATURE_ORDERS = ((30000.0, 4), (5000.0, 5), (1500.0, 6), (700.0, 7), (400.0, 8), (200.0, 10), (100.0, 12),
                     (60.0, 16))

#: Smallest ``λ = E[TP* + FP*]`` whose moments go by quadrature (below: exact window sums).
QUADRATURE_MIN = QUADRATURE_ORDERS[-1][0]

#: Smallest ``λ`` whose ``log Φ`` goes by its cumulant series (:func:`_block` with ``terms``).
SERIES_MIN = 1500.0

#: Thresholds per block (each pass of the node loop works on arrays of this length).
CHUNK = 1 << 15


@lru_cache(maxsize=None)
def laguerre_rule(order: int):
    """Nodes ``x`` and weights ``w`` of the ``order``-node Gauss–Laguerre rule,
    ``∫_0^∞ e^{−x}·f(x) dx ≈ Σ w_i·f(x_i)`` (exact for polynomials of degree ``2·order − 1``), with
    ``w·e^{x}`` (the weights of ``∫_0^∞ g(x) dx ≈ Σ w_i·e^{x_i}·g(x_i)``) and ``w·x·e^{x}``."""
    x, w = special.roots_laguerre(order)
    rule = (x, w, w * np.exp(x), w * x)
    for v in rule:
        v.flags.writeable = False
    return rule


#: Largest ``|z|`` whose ``e^z`` and ``e^z − 1`` are taken from their Taylor polynomials (:func:`_exp_small`);
#: the first term left out, ``z^10/10!``, is below 1e-23 (relative to ``z`` for ``e^z − 1``).
SMALL_ARG = 0.02

#: ``λ`` above which ``P(S = 0) <= e^{−λ}`` is 0 in double precision (below the smallest subnormal).
UNDERFLOW = 746.0


def _exp_small(z, minus_one: bool = False) -> np.ndarray:
    """``e^z`` (or ``e^z − 1``) for ``|z| <= SMALL_ARG`` by Horner's rule on the Taylor polynomial to ``z^9/9!``,
    in place on one fresh array: cheap passes (~3 ns per element in all) instead of numpy's ``exp``/``expm1``
    (~10 ns per element on the project's machine)."""
    out = z * (1.0 / 9.0)
    out += 1.0
    for j in range(8, 1, -1):
        out *= z
        out *= 1.0 / j
        out += 1.0
    out *= z
    if not minus_one:
        out += 1.0
    return out


def _block(p, q, m_pos: float, m_neg: float, order: int, terms: int = 0, lam_min: float = 0.0):
    """Mean, variance and ``E[1/S | S > 0]`` of the precision for one block of thresholds (module docstring),
    every ``λ >= lam_min >= QUADRATURE_MIN``: a loop over the ``order`` nodes, each a few passes over the block.

    ``terms = 0``: ``log Φ(u) + x = m+·log1p(−p(1 − u)) + m−·log1p(−q(1 − u)) + x`` (``p(1 − u) <= 0.6``
    at every node for ``λ >= 60``, where log1p is accurate).  ``terms = K``: the cumulant series
    ``Σ_{k=2..K} (−1)^k·κ_k·t^k/k!`` of :func:`_series_coefficients` (no logarithm, and no cancellation of the
    ``k = 1`` term ``−λt`` against ``+x``).  Exponentials of small arguments by :func:`_exp_small`.
    """
    x, w, we, wx = laguerre_rule(order)
    P, N = m_pos, m_neg
    a, b = 1.0 - p, 1.0 - q
    lam = P * p + N * q
    if lam_min > UNDERFLOW:
        p_zero = None                                # P(S = 0) = 0 in floating point
    else:
        with np.errstate(divide="ignore"):
            p_zero = np.exp(P * np.log(a) + N * np.log(b))
    inv_lam = 1.0 / lam
    c0 = P * p * inv_lam
    alpha, beta = N * q * inv_lam, c0
    k_mu = (P * N) * inv_lam * p * q * (p - q)      # μ(u) = k_mu·u·(1 − u)/((a + p·u)(b + q·u))
    k_t = alpha * alpha * P * p * a                  # α²·m+·p_u(1 − p_u) = k_t·u/(a + p·u)²
    k_f = beta * beta * N * q * b
    k_mu2 = k_mu * k_mu
    coef = _series_coefficients(p, q, P, N, lam, terms) if terms else None
    first, second, inv = (np.zeros(p.size) for _ in range(3))
    small_t = float(x[-1]) / max(lam_min, 1e-300) <= SMALL_ARG
    for i in range(order):
        xi = float(x[i])
        em = np.multiply(inv_lam, -xi)               # −t
        em = _exp_small(em, True) if small_t else np.expm1(em, out=em)   # e^{−t} − 1 = −(1 − u)
        u = em + 1.0
        da = p * em
        da += 1.0                                    # a + p·u
        db = q * em
        db += 1.0                                    # b + q·u
        if coef is None:
            phi = P * np.log1p(p * em) + N * np.log1p(q * em)
            phi += xi
        else:
            phi = (xi ** np.arange(2, terms + 1)) @ coef
        if coef is not None and float(np.abs(phi).max(initial=0.0)) <= SMALL_ARG:
            phi = _exp_small(phi)
        else:
            np.exp(phi, out=phi)                     # Φ(u)·e^{x}
        inv += float(w[i]) * phi
        da = np.divide(u, da, out=da)                # u/(a + p·u)
        db = np.divide(u, db, out=db)
        mu = da * db
        mu *= em
        mu /= u                                      # −u(1 − u)/((a + p·u)(b + q·u)) = −μ/k_mu
        first -= float(w[i]) * (phi * mu)
        mu *= mu
        mu *= k_mu2
        da *= da
        da *= k_t
        db *= db
        db *= k_f
        da += db
        da /= u
        da += mu                                     # V(u)
        da *= phi
        second += float(wx[i]) * da
    first *= k_mu * inv_lam
    second *= inv_lam * inv_lam
    inv *= inv_lam
    if p_zero is None:
        return c0 + first, np.maximum(second - first * first, 0.0), inv
    inv -= p_zero * (float(np.sum(we)) * inv_lam)
    p_def = 1.0 - p_zero
    shift = first / p_def
    mean = c0 + shift
    var = np.maximum(second / p_def - shift * shift, 0.0)
    return mean, var, inv / p_def


def _series_coefficients(p, q, P: float, N: float, lam, terms: int) -> np.ndarray:
    """``c_k = (−1)^k·κ_k/(k!·λ^k)``, ``k = 2..terms`` (columns): ``log Φ(e^{−x/λ}) + x = Σ c_k·x^k``, with
    ``κ_k = m+·p(1 − p)·r_k(p) + m−·q(1 − q)·r_k(q)`` the cumulants of ``S`` (:func:`_cumulant_polynomials`)."""
    polys = _cumulant_polynomials(terms)
    kp, kq = P * p * (1.0 - p), N * q * (1.0 - q)
    coef = np.empty((terms - 1, p.size))
    scale = 1.0 / (lam * lam)
    for j, r in enumerate(polys):
        k = j + 2
        if j:
            scale *= 1.0 / lam
        rp, rq = _horner(r, p), _horner(r, q)
        rp *= kp
        rq *= kq
        rp += rq
        rp *= scale
        rp *= (-1) ** k / math.factorial(k)
        coef[j] = rp
    return coef


def _horner(coefficients, x) -> np.ndarray:
    """``Σ c_j·x^j`` (highest power first), in place (:func:`numpy.polyval` allocates at every step)."""
    out = np.full(x.shape, float(coefficients[0]))
    for c in coefficients[1:]:
        out *= x
        out += float(c)
    return out


@lru_cache(maxsize=None)
def _cumulant_polynomials(k_max: int):
    """``r_k``, ``k = 2..k_max``: the k-th cumulant of ``Bin(m, p)`` is ``m·p(1 − p)·r_k(p)``
    (``r_2 = 1``, ``r_{k+1} = (1 − 2p)·r_k + p(1 − p)·r_k'``, from ``κ_{k+1} = p(1 − p)·dκ_k/dp``), as
    coefficient arrays for :func:`numpy.polyval` (highest power first)."""
    from numpy.polynomial import Polynomial as Poly

    r = [Poly([1.0])]
    one_minus_2p, pa = Poly([1.0, -2.0]), Poly([0.0, 1.0, -1.0])
    while len(r) < k_max - 1:
        r.append(one_minus_2p * r[-1] + pa * r[-1].deriv())
    return tuple(poly.coef[::-1].copy() for poly in r)


def _series_terms(order: int, lam_min: float) -> int:
    """Cumulants kept in the series for ``log Φ`` (:func:`_block`): up to the first ``k`` whose next term is
    below 1e-20 at the last node ``t = x_max/λ_min`` on the scale ``λ·(t/π)^k``.  (``K_S(θ)`` is analytic for
    ``|θ| < π``, the nearest singularities of ``log(a + p·e^θ)`` being at ``log(a/p) ± iπ``, and ``O(λ)`` on a
    circle just inside: by Cauchy's estimate ``|κ_k|/k!`` falls like ``π^{−k}`` up to a factor ``O(λ)``; a
    scale, not a proof, which the measured errors of the module docstring check.)"""
    x_max = float(laguerre_rule(order)[0][-1])
    k = 2
    while lam_min * (x_max / (np.pi * lam_min)) ** (k + 1) > 1e-20:
        k += 1
    return k


def quadrature_moments(tp, fp, n_pos: int, n_neg: int, m_pos: int, m_neg: int, order=None, series=None):
    """Exact bootstrap mean, sd and harmonic mean ``M = 1/E[1/PP* | PP* > 0]`` of the stratified precision at
    thresholds with counts ``tp``, ``fp`` (arrays), by Gauss–Laguerre quadrature (module docstring).

    Parameters
    ----------
    tp, fp : array_like of int
        Observed counts at each threshold.
    n_pos, n_neg, m_pos, m_neg : int
        Observed and bootstrap numbers of positives and negatives.
    order : int, optional
        Nodes of the rule for every threshold with ``λ > 0`` (default: by ``λ``, :data:`QUADRATURE_ORDERS`).
    series : bool, optional
        Force (True) or forbid (False) the cumulant series for ``log Φ`` (:func:`_block`; it needs
        ``x_max/λ`` well below π); default: where ``λ >= SERIES_MIN``.

    Returns
    -------
    mean, std, harmonic : ndarray
        Given that the precision is defined (``TP* + FP* > 0``); NaN where ``λ < QUADRATURE_MIN`` and no
        ``order`` was given (those thresholds need the exact window sums), and where ``tp = fp = 0``.
    """
    tp, fp = np.asarray(tp, np.float64).ravel(), np.asarray(fp, np.float64).ravel()
    p, q = tp / n_pos, fp / n_neg
    P, N = float(m_pos), float(m_neg)
    lam = P * p + N * q
    if order is None:
        groups = [(lo, n, (lam >= lo) & (lam < hi)) for (lo, n), hi in
                  zip(QUADRATURE_ORDERS, (np.inf,) + tuple(lo for lo, _ in QUADRATURE_ORDERS[:-1]))]
    else:
        groups = [(float(lam[lam > 0].min()) if (lam > 0).any() else 0.0, int(order), lam > 0)]
    mean, var, inv = (np.full(tp.size, np.nan) for _ in range(3))
    for lam_min, n, mask in groups:
        idx = np.flatnonzero(mask)
        use_series = (lam_min >= SERIES_MIN) if series is None else series
        for start in range(0, idx.size, CHUNK):
            sel = idx[start:start + CHUNK]
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                terms = _series_terms(n, lam_min) if use_series else 0
                mean[sel], var[sel], inv[sel] = _block(p[sel], q[sel], P, N, n, terms, lam_min)
    with np.errstate(divide="ignore"):
        return mean, np.sqrt(var), 1.0 / inv


def stratified_precision_columns(tp, fp, n_pos: int, n_neg: int, m_pos: int, m_neg: int, harmonic: bool = True):
    """The frame's columns of the stratified precision at many thresholds without one law object per
    threshold: ``mean, std, harmonic`` (``M = 1/E[1/PP* | PP* > 0]``, NaN unless ``harmonic``),
    ``p_undefined, truncated``.

    Where ``λ = m+·tp/n+ + m−·fp/n− >= QUADRATURE_MIN`` the moments come from :func:`quadrature_moments`,
    integrals over the whole law: nothing is left out, so ``truncated`` is 0 there, and
    ``p_undefined = P(TP* + FP* = 0) = (1 − p)^{m+} (1 − q)^{m−}`` (``p = tp/n+``, ``q = fp/n−``; below
    ``e^{−60}`` since ``λ >= 60``).  Below (the first few thresholds of the ranking, whose windows are
    small) the exact window sums of :class:`~rocci.precision._cells.StratifiedLaw`, with its
    ``truncated`` (the mass the windows of ``TP*`` and ``FP*`` leave out) and ``p_undefined``.
    ``distribution(i)`` always sums over the windows (at most ~2e-17 left out).
    """
    from ._cells import StratifiedLaw

    tp, fp = np.asarray(tp, np.int64).ravel(), np.asarray(fp, np.int64).ravel()
    p, q = tp / n_pos, fp / n_neg
    with np.errstate(divide="ignore"):
        p_undefined = np.exp(float(m_pos) * np.log1p(-p) + float(m_neg) * np.log1p(-q))
    truncated = np.zeros(tp.size)
    mean, std, harm = quadrature_moments(tp, fp, n_pos, n_neg, m_pos, m_neg)
    if not harmonic:
        harm = np.full(tp.size, np.nan)
    lam = float(m_pos) * p + float(m_neg) * q
    for i in np.flatnonzero(~(lam >= QUADRATURE_MIN)).tolist():
        law = StratifiedLaw("precision", int(tp[i]), int(fp[i]), n_pos, n_neg, m_pos, m_neg)
        mean[i], std[i] = law.mean, law.std
        harm[i] = law.predicted_harmonic_mean() if harmonic else np.nan
        p_undefined[i], truncated[i] = law.p_undefined, law.truncated
    return mean, std, harm, p_undefined, truncated
