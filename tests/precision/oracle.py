"""Brute-force oracles for rocci.precision (no rocci import).

Every bootstrap sample is visited (multisets of draws with their multinomial
weights, :func:`reference.brute.class_samples`), the metric is evaluated on the
sample from its definition, and probabilities are summed as exact fractions.
Samples where the metric is undefined are counted apart (``undefined``); the
law returned is conditional on the metric being defined, as rocci's.

Values are exact: fractions, or for the MCC the key ``(sign, value²)`` (a
fraction), converted to float only at the end.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from reference.brute import class_samples


def metric(name: str, tp: int, fp: int, fn: int, tn: int, beta2: Fraction = Fraction(1)):
    """The metric from its definition as an exact key (None when undefined)."""
    p, n, pp, pn = tp + fn, fp + tn, tp + fp, fn + tn
    if name == "precision":
        return Fraction(tp, pp) if pp else None
    if name == "recall":
        return Fraction(tp, p) if p else None
    if name == "specificity":
        return Fraction(tn, n) if n else None
    if name == "npv":
        return Fraction(tn, pn) if pn else None
    if name in ("f1", "fbeta"):
        b2 = Fraction(1) if name == "f1" else beta2
        den = (1 + b2) * tp + b2 * fn + fp
        return (1 + b2) * tp / den if den else None
    if name == "mcc":
        if 0 in (pp, p, n, pn):
            return None
        num = tp * tn - fp * fn
        return (num > 0) - (num < 0), Fraction(num * num, pp * p * n * pn)
    if name == "accuracy":
        return Fraction(tp + tn, p + n)
    if name == "balanced_accuracy":
        return (Fraction(tp, p) + Fraction(tn, n)) / 2 if p and n else None
    if name == "youden":
        return Fraction(tp, p) - Fraction(fp, n) if p and n else None
    if name == "lift":
        return Fraction(tp, pp) / Fraction(p, p + n) if pp and p else None
    raise ValueError(name)


def to_float(key) -> float:
    if isinstance(key, tuple):
        sign, sq = key
        return sign * math.sqrt(sq)
    return float(key)


def _finish(acc: dict, undefined: int, denom: int):
    """Law ``{float value: probability}`` given defined, and ``P(undefined)`` (Fractions)."""
    defined = denom - undefined
    law = {}
    for key, w in acc.items():
        law[to_float(key)] = law.get(to_float(key), 0) + Fraction(w, defined)
    return dict(sorted(law.items())), Fraction(undefined, denom)


def _add(acc, key, w):
    acc[key] = acc.get(key, 0) + w


def stratified_law(name, pos, neg, t, m_pos=None, m_neg=None, beta2=Fraction(1)):
    """Exact stratified law of the metric at threshold ``t`` (``score >= t`` positive)."""
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    m_pos = pos.size if m_pos is None else m_pos
    m_neg = neg.size if m_neg is None else m_neg
    C, wc = class_samples(pos.size, m_pos)
    D, wd = class_samples(neg.size, m_neg)
    tp = C @ (pos >= t).astype(np.int64)
    fp = D @ (neg >= t).astype(np.int64)
    acc, undefined = {}, 0
    for a, wa in zip(tp.tolist(), wc.tolist()):
        for b, wb in zip(fp.tolist(), wd.tolist()):
            key = metric(name, a, b, m_pos - a, m_neg - b, beta2)
            if key is None:
                undefined += wa * wb
            else:
                _add(acc, key, wa * wb)
    return _finish(acc, undefined, pos.size**m_pos * neg.size**m_neg)


def full_law(name, pos, neg, t, m=None, beta2=Fraction(1)):
    """Exact full-bootstrap law: ``m`` draws from the pooled instances."""
    scores = np.r_[np.asarray(pos, float), np.asarray(neg, float)]
    is_pos = np.r_[np.ones(len(pos), bool), np.zeros(len(neg), bool)]
    m = scores.size if m is None else m
    C, wc = class_samples(scores.size, m)
    pred = scores >= t
    tp = C @ (pred & is_pos).astype(np.int64)
    fp = C @ (pred & ~is_pos).astype(np.int64)
    fn = C @ (~pred & is_pos).astype(np.int64)
    tn = C @ (~pred & ~is_pos).astype(np.int64)
    acc, undefined = {}, 0
    for a, b, c, d, w in zip(tp.tolist(), fp.tolist(), fn.tolist(), tn.tolist(), wc.tolist()):
        key = metric(name, a, b, c, d, beta2)
        if key is None:
            undefined += w
        else:
            _add(acc, key, w)
    return _finish(acc, undefined, scores.size**m)


def _rth_largest(C, scores, r):
    """The r-th largest drawn score of each sample (rows of counts ``C``), with multiplicity."""
    order = np.argsort(-scores, kind="stable")
    cum = np.cumsum(C[:, order], axis=1)
    return scores[order][np.argmax(cum >= r, axis=1)]


def recall_law(pos, neg, r, m_pos=None, m_neg=None, metric_name="precision"):
    """Exact law of ``r/(r + FP*)`` (or the F1 ``2r/(2r + FP* + m+ − r)``) at recall level ``r/m+``:
    ``T_r`` = the r-th largest positive draw, ``FP*`` = negative draws ``>= T_r``."""
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    m_pos = pos.size if m_pos is None else m_pos
    m_neg = neg.size if m_neg is None else m_neg
    C, wc = class_samples(pos.size, m_pos)
    D, wd = class_samples(neg.size, m_neg)
    t_r = _rth_largest(C, pos, r)
    acc = {}
    for t, wa in zip(t_r.tolist(), wc.tolist()):
        fp = D @ (neg >= t).astype(np.int64)
        for b, wb in zip(fp.tolist(), wd.tolist()):
            key = Fraction(r, r + b) if metric_name == "precision" else Fraction(2 * r, r + b + m_pos)
            _add(acc, key, wa * wb)
    return _finish(acc, 0, pos.size**m_pos * neg.size**m_neg)


def paired_law(name, pos_a, pos_b, neg_a, neg_b, ta, tb, m_pos=None, m_neg=None):
    """Exact law of ``metric_a − metric_b`` at thresholds ``(ta, tb)`` (stratified, paired draws)."""
    pos_a, pos_b, neg_a, neg_b = (np.asarray(v, float) for v in (pos_a, pos_b, neg_a, neg_b))
    m_pos = pos_a.size if m_pos is None else m_pos
    m_neg = neg_a.size if m_neg is None else m_neg
    C, wc = class_samples(pos_a.size, m_pos)
    D, wd = class_samples(neg_a.size, m_neg)
    tpa, tpb = C @ (pos_a >= ta).astype(np.int64), C @ (pos_b >= tb).astype(np.int64)
    fpa, fpb = D @ (neg_a >= ta).astype(np.int64), D @ (neg_b >= tb).astype(np.int64)
    acc, undefined = {}, 0
    for x, y, wa in zip(tpa.tolist(), tpb.tolist(), wc.tolist()):
        for u, v, wb in zip(fpa.tolist(), fpb.tolist(), wd.tolist()):
            ka = metric(name, x, u, m_pos - x, m_neg - u)
            kb = metric(name, y, v, m_pos - y, m_neg - v)
            if ka is None or kb is None:
                undefined += wa * wb
            else:
                _add(acc, ka - kb, wa * wb)
    return _finish(acc, undefined, pos_a.size**m_pos * neg_a.size**m_neg)


def paired_recall_law(pos_a, pos_b, neg_a, neg_b, r, m_pos=None, m_neg=None, metric_name="precision"):
    """Exact law of ``Δ = g(FP*_a) − g(FP*_b)`` at recall ``r/m+``: both thresholds ``T_r`` from the same
    positive draws (each model's r-th largest), the same negative draws counted against each."""
    pos_a, pos_b, neg_a, neg_b = (np.asarray(v, float) for v in (pos_a, pos_b, neg_a, neg_b))
    m_pos = pos_a.size if m_pos is None else m_pos
    m_neg = neg_a.size if m_neg is None else m_neg
    C, wc = class_samples(pos_a.size, m_pos)
    D, wd = class_samples(neg_a.size, m_neg)
    ta, tb = _rth_largest(C, pos_a, r), _rth_largest(C, pos_b, r)

    def g(f):
        return Fraction(r, r + f) if metric_name == "precision" else Fraction(2 * r, r + f + m_pos)

    acc = {}
    for x, y, wa in zip(ta.tolist(), tb.tolist(), wc.tolist()):
        fa = D @ (neg_a >= x).astype(np.int64)
        fb = D @ (neg_b >= y).astype(np.int64)
        for u, v, wb in zip(fa.tolist(), fb.tolist(), wd.tolist()):
            _add(acc, g(u) - g(v), wa * wb)
    return _finish(acc, 0, pos_a.size**m_pos * neg_a.size**m_neg)


def moments(law: dict):
    mean = sum(Fraction(v) * p for v, p in law.items())
    var = sum((Fraction(v) - mean) ** 2 * p for v, p in law.items())
    return float(mean), math.sqrt(float(var))


def quantile(law: dict, level: float) -> float:
    acc = Fraction(0)
    for v, p in law.items():
        acc += p
        if acc >= Fraction(level):
            return v
    return max(law)


def predicted_inverse_mean(pos, neg, t, m_pos=None, m_neg=None, full_m=None):
    """``E[1/PP* | PP* > 0]`` (a Fraction) at threshold ``t``, ``PP*`` the predicted positives of a bootstrap
    sample (stratified; the full bootstrap of ``full_m`` pooled draws when given), by enumeration."""
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    if full_m is not None:
        scores = np.r_[pos, neg]
        C, wc = class_samples(scores.size, full_m)
        pp = (C @ (scores >= t).astype(np.int64)).tolist()
        pairs = [(s, w) for s, w in zip(pp, wc.tolist())]
    else:
        m_pos = pos.size if m_pos is None else m_pos
        m_neg = neg.size if m_neg is None else m_neg
        C, wc = class_samples(pos.size, m_pos)
        D, wd = class_samples(neg.size, m_neg)
        tp, fp = (C @ (pos >= t).astype(np.int64)).tolist(), (D @ (neg >= t).astype(np.int64)).tolist()
        pairs = [(a + b, wa * wb) for a, wa in zip(tp, wc.tolist()) for b, wb in zip(fp, wd.tolist())]
    num = sum(Fraction(w, s) for s, w in pairs if s > 0)
    den = sum(w for s, w in pairs if s > 0)
    return num / den if den else None


def score_bounds(mean: Fraction, var: Fraction, m: Fraction, z: float):
    """Algorithm 4.3's score-like bounds ``[e + z²/2M ± z·sqrt(v + z²/4M²)]/(1 + z²/M)``, clipped to [0, 1]."""
    e, v, m = float(mean), float(var), float(m)
    zm = z * z / m
    half = z * math.sqrt(v + (z / (2 * m)) ** 2)
    return min(max((e + zm / 2 - half) / (1 + zm), 0.0), 1.0), min(max((e + zm / 2 + half) / (1 + zm), 0.0), 1.0)


def exact_moments(law: dict):
    """Mean and variance as Fractions."""
    mean = sum(Fraction(v) * p for v, p in law.items())
    return mean, sum((Fraction(v) - mean) ** 2 * p for v, p in law.items())
