"""Score populations for coverage studies: true ROC, cost and paired cells.

A :class:`Population` is a pair of continuous score distributions, ``G+`` for
the positives and ``G−`` for the negatives (thesis §4.5).  An instance is
predicted positive when ``score >= t``, so at threshold ``t``

``TPR(t) = P(S+ >= t) = 1 − G+(t)``,  ``FPR(t) = 1 − G−(t)``,

the total positive rate is ``q(t) = π·TPR(t) + (1 − π)·FPR(t)`` with ``π`` the
fraction of positives (½ unless said otherwise), the true ROC curve is
``TPR(FPR⁻¹(f)) = 1 − G+(G−⁻¹(1 − f))`` and the normalised expected cost at
operating point ``w`` is ``NEC_t(w) = w·(1 − TPR(t)) + (1 − w)·FPR(t)``
(eq. 3.1).

:class:`CorrelatedPair` couples two populations (two models scoring the same
instances) through a Gaussian copula with correlation ``ρ`` in each class:
``S_j = G_j⁻¹(Φ(Z_j))`` with ``(Z_a, Z_b)`` standard bivariate normal.  For
binormal marginals this is simply the bivariate normal law.  Its paired cells
at thresholds ``(t_a, t_b)`` are

``P(S_a >= t_a, S_b >= t_b) = Φ₂(−h_a, −h_b; ρ)`` with ``h_j = Φ⁻¹(G_j(t_j))``,

cell a = ``P(S_a >= t_a) − P(both)`` (model a positive only), cell b likewise.
``Φ₂`` is evaluated in closed form with Owen's T function.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy import optimize, special, stats

from .._core.inputs import InputError

__all__ = [
    "Distribution",
    "Population",
    "CorrelatedPair",
    "normal",
    "beta",
    "exponential",
    "binormal",
    "bivariate_normal_cdf",
]

_FAMILIES = ("normal", "beta", "exponential")


def _positive(name: str, value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a number; got {value!r}.") from None
    if not np.isfinite(v) or v <= 0:
        raise InputError(f"{name} ({value!r}) must be a positive number.")
    return v


def _finite(name: str, value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a number; got {value!r}.") from None
    if not np.isfinite(v):
        raise InputError(f"{name} ({value!r}) must be a finite number.")
    return v


@dataclass(frozen=True)
class Distribution:
    """One class's score distribution.

    Attributes
    ----------
    family : {"normal", "beta", "exponential"}
    params : tuple of float
        normal: ``(loc, scale)``; beta: ``(a, b)``; exponential: ``(mean,)``
        (the thesis's ``exp(3)``/``exp(2)`` read as means 3 and 2, which makes
        the positives score higher).
    """

    family: str
    params: tuple

    def __post_init__(self):
        if self.family not in _FAMILIES:
            raise InputError(f"family must be one of {', '.join(_FAMILIES)}; got {self.family!r}.")

    @cached_property
    def frozen(self):
        """The scipy.stats frozen distribution."""
        if self.family == "normal":
            return stats.norm(loc=self.params[0], scale=self.params[1])
        if self.family == "beta":
            return stats.beta(self.params[0], self.params[1])
        return stats.expon(scale=self.params[0])

    @property
    def label(self) -> str:
        p = ", ".join(f"{v:g}" for v in self.params)
        return {"normal": "N", "beta": "β", "exponential": "exp"}[self.family] + f"({p})"

    def sf(self, t):
        """``P(S >= t)`` (continuous: equals ``P(S > t)``)."""
        if self.family == "normal":
            return special.ndtr((self.params[0] - np.asarray(t, dtype=float)) / self.params[1])
        return self.frozen.sf(t)

    def cdf(self, t):
        if self.family == "normal":
            return special.ndtr((np.asarray(t, dtype=float) - self.params[0]) / self.params[1])
        return self.frozen.cdf(t)

    def pdf(self, t):
        return self.frozen.pdf(t)

    def isf(self, q):
        if self.family == "normal":
            return self.params[0] - self.params[1] * special.ndtri(np.asarray(q, dtype=float))
        return self.frozen.isf(q)

    def ppf(self, q):
        return self.frozen.ppf(q)

    def z(self, t):
        """``Φ⁻¹(G(t))``, the normal score of ``t`` (Gaussian copula coordinate)."""
        if self.family == "normal":
            return (np.asarray(t, dtype=float) - self.params[0]) / self.params[1]
        return special.ndtri(np.clip(self.frozen.cdf(t), 0.0, 1.0))

    def from_z(self, z):
        """Inverse of :meth:`z`: scores from standard normal draws."""
        if self.family == "normal":
            return self.params[0] + self.params[1] * np.asarray(z, dtype=float)
        # sf/isf on −z keeps precision in the upper tail.
        return self.frozen.isf(special.ndtr(-np.asarray(z, dtype=float)))

    def rvs(self, size, rng):
        return self.from_z(rng.standard_normal(size))

    @cached_property
    def lower(self) -> float:
        """Lowest score worth considering: the support's end or the 1e-300 quantile."""
        lo = float(self.frozen.support()[0])
        return lo if np.isfinite(lo) else float(self.ppf(1e-300))

    @cached_property
    def upper(self) -> float:
        """Highest score worth considering: the support's end or the 1 − 1e-300 quantile."""
        hi = float(self.frozen.support()[1])
        return hi if np.isfinite(hi) else float(self.isf(1e-300))


def normal(loc: float = 0.0, scale: float = 1.0) -> Distribution:
    """Normal ``N(loc, scale)`` (``scale`` is the standard deviation)."""
    return Distribution("normal", (_finite("loc", loc), _positive("scale", scale)))


def beta(a: float, b: float) -> Distribution:
    """Beta ``β(a, b)`` on [0, 1]."""
    return Distribution("beta", (_positive("a", a), _positive("b", b)))


def exponential(mean: float) -> Distribution:
    """Exponential with the given mean (scale)."""
    return Distribution("exponential", (_positive("mean", mean),))


@dataclass(frozen=True)
class Population:
    """Positives' and negatives' score distributions, and the share of positives.

    Attributes
    ----------
    pos, neg : Distribution
    prior : float, default 0.5
        Fraction of positives ``π``, used for the total positive rate
        (the thesis draws equal numbers of each class).
    """

    pos: Distribution
    neg: Distribution
    prior: float = 0.5

    def __post_init__(self):
        if not 0.0 < float(self.prior) < 1.0:
            raise InputError(f"prior ({self.prior!r}) must be a fraction of positives strictly between 0 and 1.")

    @property
    def label(self) -> str:
        return f"G+ = {self.pos.label}, G− = {self.neg.label}"

    def tpr(self, t):
        """True positive rate ``P(S+ >= t)``."""
        return self.pos.sf(t)

    def fpr(self, t):
        """False positive rate ``P(S− >= t)``."""
        return self.neg.sf(t)

    def total_positive_rate(self, t):
        """``q(t) = π·TPR(t) + (1 − π)·FPR(t)``."""
        return self.prior * self.tpr(t) + (1.0 - self.prior) * self.fpr(t)

    def threshold_for_rate(self, q) -> np.ndarray:
        """Threshold ``t`` with ``q(t) = q`` (root of a decreasing function).

        ``q = 0`` gives ``+inf`` and ``q = 1`` gives ``−inf``.
        """
        q = np.atleast_1d(np.asarray(q, dtype=float))
        if q.ndim != 1 or np.isnan(q).any() or ((q < 0) | (q > 1)).any():
            raise InputError(f"total positive rates must lie in [0, 1]; got {q.tolist()!r}.")
        out = np.empty_like(q)
        for i, qi in enumerate(q):
            if qi <= 0.0:
                out[i] = np.inf
            elif qi >= 1.0:
                out[i] = -np.inf
            else:
                out[i] = self._solve(lambda t, qi=qi: self.total_positive_rate(t) - qi)
        return out

    def _bracket(self) -> tuple[float, float]:
        lo = min(self.pos.lower, self.neg.lower)
        hi = max(self.pos.upper, self.neg.upper)
        return float(lo), float(hi)

    def _solve(self, f) -> float:
        lo, hi = self._bracket()
        # f is decreasing in t: f(lo) > 0 > f(hi) unless q is outside (1e-300, 1 − 1e-15).
        if f(lo) <= 0:
            return lo
        if f(hi) >= 0:
            return hi
        return float(optimize.brentq(f, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=500))

    def roc(self, fpr) -> np.ndarray:
        """True ROC curve: ``TPR`` at false positive rate ``fpr``, ``1 − G+(G−⁻¹(1 − f))``."""
        f = np.asarray(fpr, dtype=float)
        return self.pos.sf(self.neg.isf(f))

    def cost(self, t, w):
        """Normalised expected cost ``w·(1 − TPR(t)) + (1 − w)·FPR(t)``."""
        w = np.asarray(w, dtype=float)
        return w * (1.0 - self.tpr(t)) + (1.0 - w) * self.fpr(t)

    def optimal_threshold(self, w) -> np.ndarray:
        """Threshold minimising the true cost at each ``w`` (ties: the highest).

        A grid over the pooled quantiles locates the minimum, then a bounded
        scalar minimisation refines it.  ``w = 0`` gives ``+inf`` (call nothing
        positive), ``w = 1`` gives ``−inf``.
        """
        w = np.atleast_1d(np.asarray(w, dtype=float))
        lo, hi = self._bracket()
        u = np.linspace(1e-6, 1 - 1e-6, 2001)
        grid = np.unique(np.concatenate([self.pos.ppf(u), self.neg.ppf(u)]))
        grid = grid[np.isfinite(grid)]
        out = np.empty_like(w)
        for i, wi in enumerate(w):
            if wi <= 0.0:
                out[i] = np.inf
                continue
            if wi >= 1.0:
                out[i] = -np.inf
                continue
            c = self.cost(grid, wi)
            j = int(np.argmin(c))
            best_t, best_c = grid[j], c[j]
            a, b = grid[max(j - 1, 0)], grid[min(j + 1, grid.size - 1)]
            if b > a:
                r = optimize.minimize_scalar(lambda t, wi=wi: float(self.cost(t, wi)), bounds=(a, b),
                                             method="bounded", options={"xatol": 1e-12})
                if r.fun <= best_c:
                    best_t, best_c = float(r.x), float(r.fun)
            # Compare with the trivial classifiers (all negative: cost w; all positive: 1 − w).
            if wi <= best_c and wi <= 1 - wi:
                best_t = np.inf
            elif 1 - wi < best_c:
                best_t = -np.inf
            out[i] = best_t
        return out

    def sample(self, n_pos: int, n_neg: int, rng, size: int | None = None):
        """Scores of ``n_pos`` positives and ``n_neg`` negatives.

        Returns ``(pos, neg)`` of shapes ``(n_pos,)``, ``(n_neg,)``, or
        ``(size, n_pos)``, ``(size, n_neg)`` for ``size`` data sets.
        """
        shape_p = (n_pos,) if size is None else (size, n_pos)
        shape_n = (n_neg,) if size is None else (size, n_neg)
        return self.pos.rvs(shape_p, rng), self.neg.rvs(shape_n, rng)


def binormal(theta: float, scale_pos: float = 3.75, scale_neg: float = 3.0, *, prior: float = 0.5) -> Population:
    """The dispersion/size setup: ``G+ = N(θ, scale_pos)``, ``G− = N(−θ, scale_neg)``."""
    return Population(normal(theta, scale_pos), normal(-theta, scale_neg), prior)


def bivariate_normal_cdf(h, k, rho: float) -> np.ndarray:
    """``Φ₂(h, k; ρ) = P(Z₁ <= h, Z₂ <= k)`` for standard normals with correlation ρ.

    Owen (1956): ``Φ₂ = ½Φ(h) + ½Φ(k) − T(h, a_h) − T(k, a_k) − β`` with
    ``a_h = (k − ρh)/(h·sqrt(1 − ρ²))``, ``a_k = (h − ρk)/(k·sqrt(1 − ρ²))`` and
    ``β = ½`` when ``h·k < 0`` (or one is 0 and ``h + k < 0``), else 0.
    """
    rho = float(rho)
    if not -1.0 < rho < 1.0:
        raise InputError(f"rho ({rho!r}) must lie strictly between −1 and 1.")
    h, k = np.broadcast_arrays(np.asarray(h, dtype=float), np.asarray(k, dtype=float))
    h = np.clip(h, -40.0, 40.0)
    k = np.clip(k, -40.0, 40.0)
    # Avoid the removable 0/0 at h = 0 or k = 0 (error below 1e-15).
    tiny = 1e-17
    hh = np.where(h == 0, tiny, h)
    kk = np.where(k == 0, tiny, k)
    s = np.sqrt(1.0 - rho * rho)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ah = (kk - rho * hh) / (hh * s)
        ak = (hh - rho * kk) / (kk * s)
    beta_ = np.where(hh * kk < 0, 0.5, 0.0)
    val = 0.5 * special.ndtr(hh) + 0.5 * special.ndtr(kk) - special.owens_t(hh, ah) - special.owens_t(kk, ak) - beta_
    return np.clip(val, 0.0, 1.0)


@dataclass(frozen=True)
class CorrelatedPair:
    """Two models scoring the same instances, coupled by a Gaussian copula.

    Attributes
    ----------
    a, b : Population
        Each model's score distributions (same ``prior``).
    rho : float
        Correlation of the copula's normal scores within each class.
    """

    a: Population
    b: Population
    rho: float

    def __post_init__(self):
        if not -1.0 < float(self.rho) < 1.0:
            raise InputError(f"rho ({self.rho!r}) must lie strictly between −1 and 1.")
        if self.a.prior != self.b.prior:
            raise InputError("Both models of a pair must share the fraction of positives (prior).")

    @property
    def prior(self) -> float:
        return self.a.prior

    def cells(self, t_a, t_b, cls: str = "pos"):
        """True paired cell probabilities ``(p_a, p_b, p_both)`` in one class.

        ``p_a = P(S_a >= t_a, S_b < t_b)``, ``p_b = P(S_a < t_a, S_b >= t_b)``,
        ``p_both = P(S_a >= t_a, S_b >= t_b) = Φ₂(−h_a, −h_b; ρ)``.
        """
        if cls not in ("pos", "neg"):
            raise InputError(f"cls must be 'pos' or 'neg'; got {cls!r}.")
        da = self.a.pos if cls == "pos" else self.a.neg
        db = self.b.pos if cls == "pos" else self.b.neg
        t_a, t_b = np.broadcast_arrays(np.asarray(t_a, dtype=float), np.asarray(t_b, dtype=float))
        sa, sb = da.sf(t_a), db.sf(t_b)
        both = bivariate_normal_cdf(-da.z(t_a), -db.z(t_b), self.rho)
        both = np.minimum(both, np.minimum(sa, sb))
        return np.clip(sa - both, 0, 1), np.clip(sb - both, 0, 1), both

    def sample(self, n_pos: int, n_neg: int, rng, size: int | None = None):
        """Paired scores: ``(pos_a, pos_b, neg_a, neg_b)``, each ``(size, n)`` or ``(n,)``."""
        out = []
        s = np.sqrt(1.0 - self.rho**2)
        for n, da, db in ((n_pos, self.a.pos, self.b.pos), (n_neg, self.a.neg, self.b.neg)):
            shape = (n,) if size is None else (size, n)
            z1 = rng.standard_normal(shape)
            z2 = self.rho * z1 + s * rng.standard_normal(shape)
            out.extend([da.from_z(z1), db.from_z(z2)])
        return tuple(out)
