"""Baseline intervals for the TPR at a fixed FPR, vectorised over data sets.

The coverage lab shows the exact-bootstrap vertical intervals beside what a
user would otherwise pick:

* :func:`kernel_vertical_interval` — kernel-smoothed ROC curve with Gaussian
  kernels (the comparator of thesis §4.5.3, after Hall, Hyndman & Fan 2004);
* :func:`bootstrap_vertical_interval` — the Monte Carlo percentile bootstrap
  as pROC's ``ci.se`` does it (stratified resampling, quantiles of the
  resampled sensitivities).
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["reference_bandwidth", "kernel_vertical_interval", "bootstrap_vertical_interval"]


def reference_bandwidth(x: np.ndarray) -> np.ndarray:
    """Normal-reference bandwidth for a kernel distribution-function estimate.

    ``h = (4/n)^{1/3}·σ̂`` (≈ ``1.587·σ̂·n^{-1/3}``), the AMISE-optimal bandwidth
    of the Gaussian-kernel estimate of a normal CDF; σ̂ is the sample standard
    deviation along the last axis.  Hall & Hyndman (2003) build their ROC
    reference selector on this normal reference; we use it per class
    (a simplification: their selector couples the two classes).
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[-1]
    return (4.0 / n) ** (1.0 / 3.0) * x.std(axis=-1, ddof=1)


def _kernel_sf_pdf(x, h, t):
    """Kernel survival ``Ŝ(t) = mean_j Φ((x_j − t)/h)`` and density ``ĝ(t)``.

    Data ``x`` (R, n), bandwidths ``h`` (R,), thresholds ``t`` (R, F).
    """
    u = (x[:, None, :] - t[:, :, None]) / h[:, None, None]
    sf = special.ndtr(u).mean(axis=-1)
    pdf = np.exp(-0.5 * u * u).mean(axis=-1) / (np.sqrt(2 * np.pi) * h[:, None])
    return sf, pdf


def kernel_vertical_interval(pos, neg, fpr, *, confidence_level=0.95, chunk=4_000_000):
    """Kernel-smoothed ROC estimate and normal interval for the TPR at each FPR.

    For data sets ``pos`` (R, n+) and ``neg`` (R, n−): with Gaussian-kernel
    survival estimates ``Ŝ±`` (bandwidths :func:`reference_bandwidth`), the
    threshold ``t̂`` solves ``Ŝ−(t̂) = f`` (Newton's method), the estimate is
    ``R̂(f) = Ŝ+(t̂)``, and its delta-method variance is

    ``R̂(1 − R̂)/n+ + (ĝ+(t̂)/ĝ−(t̂))²·f(1 − f)/n−``

    (ĝ± the kernel densities: the slope of the smoothed ROC).  The interval is
    ``R̂ ± z·sd`` clipped to [0, 1].

    Returns
    -------
    estimate, low, high : ndarray of shape (R, F)
    """
    pos, neg = np.atleast_2d(np.asarray(pos, float)), np.atleast_2d(np.asarray(neg, float))
    f = np.asarray(fpr, dtype=float)
    R, n_pos = pos.shape
    n_neg = neg.shape[1]
    z = float(special.ndtri(0.5 + confidence_level / 2))
    est, low, high = (np.empty((R, f.size)) for _ in range(3))
    step = max(1, int(chunk // (f.size * max(n_pos, n_neg))))
    for s in range(0, R, step):
        p, q = pos[s:s + step], neg[s:s + step]
        hp, hn = reference_bandwidth(p), reference_bandwidth(q)
        r = p.shape[0]
        target = np.broadcast_to(f, (r, f.size))
        # Newton's method on Ŝ−(t) = f (dŜ−/dt = −ĝ−) from the empirical quantile; steps capped at 3h.
        t = np.quantile(q, 1 - f, axis=1).T.copy()
        for _ in range(12):
            sf, pdf = _kernel_sf_pdf(q, hn, t)
            delta = np.clip((sf - target) / np.maximum(pdf, 1e-300), -3 * hn[:, None], 3 * hn[:, None])
            t += delta
            if np.max(np.abs(delta) / hn[:, None]) < 1e-10:
                break
        roc, gp = _kernel_sf_pdf(p, hp, t)
        _, gn = _kernel_sf_pdf(q, hn, t)
        slope = gp / np.maximum(gn, 1e-300)
        var = roc * (1 - roc) / n_pos + slope**2 * target * (1 - target) / n_neg
        sd = np.sqrt(var)
        est[s:s + step] = roc
        low[s:s + step] = np.clip(roc - z * sd, 0, 1)
        high[s:s + step] = np.clip(roc + z * sd, 0, 1)
    return est, low, high


def bootstrap_vertical_interval(pos, neg, r, *, confidence_level=0.95, n_boot=500, rng=None):
    """Monte Carlo percentile bootstrap interval for the TPR at FPR levels ``r/n−`` (pROC style).

    One data set: ``pos`` (n+,), ``neg`` (n−,).  ``n_boot`` stratified
    resamples; in each, the threshold at level ``r`` is the r-th largest
    resampled negative score ``T_r`` and the TPR is the fraction of resampled
    positives with ``score >= T_r`` (the same convention as
    :func:`rocci.vertical_ci`); the interval is the ``α/2`` and ``1 − α/2``
    sample quantiles (numpy's default, R's type 7 as in pROC).  Vectorised
    over resamples by ranking the pooled scores once.

    Returns
    -------
    low, high : ndarray of shape (len(r),)
    """
    rng = np.random.default_rng(rng)
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    n_pos, n_neg = pos.size, neg.size
    r = np.asarray(r, dtype=np.int64)
    pooled = np.concatenate([pos, neg])
    rank = np.empty(pooled.size, dtype=np.int64)
    order = np.argsort(pooled, kind="stable")
    # Equal scores share a rank (ties count as >= threshold).
    sorted_vals = pooled[order]
    first = np.searchsorted(sorted_vals, sorted_vals, side="left")
    rank[order] = first
    rp, rn = rank[:n_pos], rank[n_pos:]
    N = pooled.size
    bp = np.sort(rp[rng.integers(0, n_pos, (n_boot, n_pos))], axis=1)
    bn = -np.sort(-rn[rng.integers(0, n_neg, (n_boot, n_neg))], axis=1)  # decreasing
    t = bn[:, r - 1]  # (B, F): the r-th largest resampled negative
    offset = (np.arange(n_boot) * N)[:, None]
    flat = (bp + offset).ravel()
    below = np.searchsorted(flat, t + offset, side="left") - np.arange(n_boot)[:, None] * n_pos
    tpr = (n_pos - below) / n_pos
    alpha = 1 - confidence_level
    low, high = np.quantile(tpr, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high
